/* `strata size --format markdown|html`: the sizing report's JSON tree (report/size_out.c), parsed
 * back, so the numbers shown are the JSON's: Markdown tables of the ranked rows and the front, and
 * an HTML page whose chart is the front among every evaluated configuration; both titled with the
 * scenario's name and opening with the answer in words (report/summary.c). A row's columns are
 * its JSON keys in their order (headed in HTML by the rows' labels in the report's schema); a null
 * (unknown) is shown as "-". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "report/size_out.h"
#include "report/svg.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

#define MAX_COLS 40

/* What the page says besides the tree: the search's inputs and every configuration evaluated. */
typedef struct st_size_page {
    const char *file, *workload, *goal;
    double deadline_s;
    const st_size_result *r;
} st_size_page;

/* The column names: the keys of the first row of arr (or of the ranked table's). */
static size_t cols_of(const cJSON *t, const char **cols)
{
    const cJSON *rk = cJSON_GetObjectItemCaseSensitive(t, "ranked");
    const cJSON *fr = cJSON_GetObjectItemCaseSensitive(t, "front");
    const cJSON *row = rk && rk->child ? rk->child : fr ? fr->child : NULL;
    size_t n = 0;
    for (const cJSON *c = row ? row->child : NULL; c; c = c->next) {
        if (n == MAX_COLS) /* size_out.c's row has 26 keys: a new one past 40 must raise this */
            ST_BUG("a sizing row has more than %d keys", MAX_COLS);
        cols[n++] = c->string;
    }
    return n;
}

/* A row's value v at path as its cell reads: a figure in its row's unit, a band [lo, hi]
 * (train_s_band) as "lo to hi" in the band's unit, and a list of names (not_priced) joined by
 * commas (cut at buf's end); buf holds at least 2 ST_REPORT_VALUE_MAX. */
static const char *cell_text(const char *path, const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsArray(v) && cJSON_IsString(v->child)) { /* a list of names (not_priced) */
        size_t at = 0;
        buf[0] = '\0';
        for (const cJSON *e = v->child; e && at < n; e = e->next) {
            int k = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", e->valuestring);
            at += k > 0 ? (size_t)k : 0;
        }
        return buf;
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
        return st_report_value_text(ST_DOC_SIZE, path, v, buf, n);
    char lo[ST_REPORT_VALUE_MAX], hi[ST_REPORT_VALUE_MAX], *at = st_xasprintf("%s[0]", path);
    snprintf(buf, n, "%s to %s",
             st_report_value_text(ST_DOC_SIZE, at, cJSON_GetArrayItem(v, 0), lo, sizeof lo),
             st_report_value_text(ST_DOC_SIZE, at, cJSON_GetArrayItem(v, 1), hi, sizeof hi));
    free(at);
    return buf;
}

/* "(the first N of the M configurations WHAT, K left out; a larger --top lists more)" where the
 * JSON's left_out is above 0: the rows of arr that --top kept (for a service, those that serve
 * it), their count before the cut, and the cut, as the text says it; malloc'd, NULL: no cut. */
static char *left_out_words(const cJSON *t, const char *arr, const char *what)
{
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(t, "left_out");
    if (!cJSON_IsNumber(lo) || !(lo->valuedouble > 0))
        return NULL;
    double shown = 0;
    for (const cJSON *o = cJSON_GetObjectItemCaseSensitive(t, arr)->child; o; o = o->next) {
        const cJSON *fits = cJSON_GetObjectItemCaseSensitive(o, "fits");
        shown += !fits || cJSON_IsTrue(fits); /* a service's rows that cannot serve are all kept */
    }
    char a[ST_REPORT_VALUE_MAX], b[ST_REPORT_VALUE_MAX], c[ST_REPORT_VALUE_MAX];
    st_fig_number_text(ST_FU_NUMBER, shown, a, sizeof a); /* as every figure of the page */
    st_fig_number_text(ST_FU_NUMBER, shown + lo->valuedouble, b, sizeof b);
    st_fig_number_text(ST_FU_NUMBER, lo->valuedouble, c, sizeof c);
    return st_xasprintf(
        "(the first %s of the %s configurations %s, %s left out; a larger --top lists more)", a, b,
        what, c);
}

/* Column col's heading in the rows of arr_name (the front's are the ranked table's): its
 * figure row's label, the key itself where none names it. */
static const char *col_label(const char *arr_name, const char *col)
{
    char *path = st_xasprintf("%s[].%s", arr_name, col);
    const st_fig *f = st_fig_find(ST_DOC_SIZE, path);
    free(path);
    if (!f) { /* a list's row is spelled with its []: ranked[].train_s_band[] */
        path = st_xasprintf("%s[].%s[]", arr_name, col);
        f = st_fig_find(ST_DOC_SIZE, path);
        free(path);
    }
    return f ? f->label : col;
}

/* The rows of arr (arr_name in the JSON) as a Markdown table headed by the labels of labels_of's
 * rows: the cells hold each figure in its unit, so a key such as facility_w would misname a cell
 * that reads 20.63 MW. */
static void md_rows(FILE *out, const char *arr_name, const cJSON *arr, const char **cols,
                    size_t n_cols, const char *labels_of)
{
    for (size_t c = 0; c < n_cols; c++) {
        fputs("| ", out);
        st_report_md_cell(out, col_label(labels_of, cols[c]));
        fputc(' ', out);
    }
    fputs("|\n", out);
    for (size_t c = 0; c < n_cols; c++)
        fputs(arr->child && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(arr->child, cols[c]))
                  ? "|---"
                  : "|---:",
              out);
    fputs("|\n", out);
    size_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        for (size_t c = 0; c < n_cols; c++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
            char buf[2 * ST_REPORT_VALUE_MAX],
                *path = st_xasprintf("%s[%zu].%s", arr_name, i, cols[c]);
            fputs("| ", out);
            st_report_md_cell(out,
                              v && !cJSON_IsNull(v) ? cell_text(path, v, buf, sizeof buf) : "-");
            fputc(' ', out);
            free(path);
        }
        fputs("|\n", out);
    }
    fputc('\n', out);
}

/* The rows of arr (arr_name in the JSON) as a table headed by the labels of labels_of's rows
 * (the front's rows are the ranked table's). */
static void html_rows(FILE *out, const char *arr_name, const cJSON *arr, const char **cols,
                      size_t n_cols, const char *labels_of)
{
    char *id = st_xasprintf("table-%s", arr_name);
    const char **heads = st_xcalloc(n_cols + 1, sizeof *heads);
    for (size_t c = 0; c < n_cols; c++)
        heads[c] = col_label(labels_of, cols[c]);
    st_html_table_begin(out, id, heads, n_cols);
    free(heads);
    free(id);
    size_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        st_html_row_begin(out);
        for (size_t c = 0; c < n_cols; c++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
            if (!v || cJSON_IsNull(v)) {
                st_html_cell(out, "-");
                continue;
            }
            char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX];
            char *path = st_xasprintf("%s[%zu].%s", arr_name, i, cols[c]);
            const char *text = st_report_value_text(ST_DOC_SIZE, path, v, tb, sizeof tb);
            if (cJSON_IsArray(v)) { /* a band: "lo to hi"; a list of names */
                char both[2 * ST_REPORT_VALUE_MAX];
                st_html_cell(out, cell_text(path, v, both, sizeof both));
            } else if (cJSON_IsNumber(v)) {
                st_html_cell_num(out, path, st_report_value_exact(v, eb, sizeof eb), text);
            } else {
                st_html_cell(out, text);
            }
            free(path);
        }
        st_html_row_end(out);
    }
    st_html_table_end(out);
}

/* Every evaluated configuration (time to train against the goal's objective), the front, and the
 * deadline. */
static void pareto_chart(FILE *out, const st_size_page *sr)
{
    const st_size_result *r = sr->r;
    size_t n = r->n ? r->n : 1, nf = 0;
    double *x = st_xmalloc(n * sizeof *x), *y = st_xmalloc(n * sizeof *y);
    double *fx = st_xmalloc(n * sizeof *fx), *fy = st_xmalloc(n * sizeof *fy);
    int cost = strcmp(sr->goal, "cost") == 0;
    /* each axis in a unit that reads at its size: a 22-minute plan of 3 GPU-hours is not drawn
     * as 0.0154 days against 3e-6 million GPU-hours (a review's find) */
    double ylo = INFINITY, yhi = -INFINITY, xtop = sr->deadline_s, ytop = 0;
    for (size_t i = 0; i < r->n; i++) {
        xtop = fmax(xtop, r->cfg[i].train_s);
        ytop = fmax(ytop, cost ? r->cfg[i].cost_usd : r->cfg[i].gpu_hours);
    }
    const char *tu;
    double xs = st_svg_time_unit(xtop, &tu), ys = ytop >= 1e6 ? 1e-6 : ytop >= 1e3 ? 1e-3 : 1;
    static const char *const yus[2][3] = {{"millions, ", "thousands, ", ""},
                                          {"million USD, ", "thousand USD, ", "USD, "}};
    const char *yu = yus[cost][ys == 1e-6 ? 0 : ys == 1e-3 ? 1 : 2];
    for (size_t i = 0; i < r->n; i++) {
        x[i] = r->cfg[i].train_s * xs;
        y[i] = (cost ? r->cfg[i].cost_usd : r->cfg[i].gpu_hours) * ys;
        ylo = fmin(ylo, y[i]);
        yhi = fmax(yhi, y[i]);
        if (r->cfg[i].front) {
            fx[nf] = x[i];
            fy[nf++] = y[i];
        }
    }
    double dx[2] = {sr->deadline_s * xs, sr->deadline_s * xs}, dy[2] = {ylo, yhi};
    char *xl = st_xasprintf("time to train (%s, failures and checkpoints included; log scale)", tu);
    char *yl = st_xasprintf("%s (%slog)", cost ? "cost" : "GPU-hours", yu);
    st_svg_series s[3] = {{"evaluated configuration", x, y, r->n, ST_SVG_DOTS},
                          {"Pareto front", fx, fy, nf, ST_SVG_LINE_DOTS},
                          {"deadline", dx, dy, r->n ? 2 : 0, ST_SVG_LINE}};
    st_svg_frame f = {.id = "size-pareto",
                      .title = "Sizing: time to train against the goal, and the Pareto front",
                      .x_label = xl,
                      .y_label = yl,
                      .height = 380,
                      .log_x = 1,
                      .log_y = 1};
    st_svg_xy(out, &f, s, 3);
    free(x), free(y), free(fx), free(fy), free(xl), free(yl);
}

static void search_row(void *ctx, const char *path, const cJSON *leaf)
{
    FILE *out = ctx;
    char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX];
    const char *text = st_report_value_text(ST_DOC_SIZE, path, leaf, tb, sizeof tb);
    const st_fig *f = st_fig_find(ST_DOC_SIZE, path);
    st_html_row_begin(out);
    st_html_cell_class(out, NULL, path, f ? f->label : path); /* the JSON key on hover */
    if (cJSON_IsNumber(leaf)) {
        st_html_cell_num(out, path, st_report_value_exact(leaf, eb, sizeof eb), text);
    } else {
        st_html_cell(out, text);
    }
    st_html_row_end(out);
}

static char *size_html(const st_size_report *rp, const st_size_page *sr, const cJSON *t,
                       const char **cols, size_t n_cols)
{
    char *buf, *summary = st_summary_size(t, sr->r);
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, rp->name);
    char dl[ST_REPORT_VALUE_MAX];
    const st_fig *df = st_fig_find(ST_DOC_SIZE, "deadline_s");
    st_fig_number_text(df ? df->unit : ST_FU_NUMBER, sr->deadline_s, dl, sizeof dl);
    char *budgets = st_size_budget_words(rp, 1); /* every budget, as the text says them */
    char *line = st_xasprintf("Strata sizing · strata %s · workload %s · goal %s · deadline %s%s%s",
                              STRATA_VERSION, sr->workload, sr->goal, dl,
                              budgets ? " · budgets: " : "", budgets ? budgets : "");
    free(budgets);
    st_html_para(out, "meta", line);
    free(line);
    st_html_summary(out, summary);
    free(summary);
    st_html_heading(out, 2, "charts", "Pareto front");
    st_html_section(out, "sec-size-pareto");
    pareto_chart(out, sr);
    st_html_section_end(out);
    st_html_heading(out, 2, "search", "Search");
    static const char *const heads[] = {"Figure", "Value"};
    st_html_table_begin(out, "table-search", heads, 2);
    for (const cJSON *v = t->child; v; v = v->next)
        if (!cJSON_IsArray(v))
            st_report_leaves(v, v->string, search_row, out);
    st_html_table_end(out);
    st_html_heading(out, 2, "ranked", "Ranked configurations");
    html_rows(out, "ranked", cJSON_GetObjectItemCaseSensitive(t, "ranked"), cols, n_cols, "ranked");
    char *cut = left_out_words(t, "ranked", "evaluated");
    if (cut)
        st_html_para(out, "meta", cut);
    free(cut);
    st_html_heading(out, 2, "front", "The Pareto front");
    html_rows(out, "front", cJSON_GetObjectItemCaseSensitive(t, "front"), cols, n_cols, "ranked");
    st_html_end(out);
    return st_report_close(out, &buf);
}

char *st_size_doc(const st_size_report *rp, const st_size_result *r, const cJSON *t,
                  st_report_format f)
{
    const char *cols[MAX_COLS];
    size_t n_cols = cols_of(t, cols);
    st_size_page pg = {rp->file, rp->workload, rp->goal, rp->deadline_s, r};
    if (f == ST_FMT_HTML)
        return size_html(rp, &pg, t, cols, n_cols);
    char *buf, *summary = st_summary_size(t, r);
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, "search");
    fputs("# ", out);
    st_report_md_cell(out, rp->name);
    fputs("\n\n", out);
    st_report_md_cell(out, summary);
    free(summary);
    fputs("\n\nSizing of workload ", out);
    st_report_md_cell(out, rp->workload);
    /* as every figure of the page: units, thousands apart */
    char dl[ST_REPORT_VALUE_MAX], ev[ST_REPORT_VALUE_MAX], co[ST_REPORT_VALUE_MAX];
    st_fig_number_text(ST_FU_TIME, rp->deadline_s, dl, sizeof dl);
    st_fig_number_text(ST_FU_NUMBER, cJSON_GetObjectItemCaseSensitive(s, "evaluated")->valuedouble,
                       ev, sizeof ev);
    st_fig_number_text(ST_FU_NUMBER, cJSON_GetObjectItemCaseSensitive(s, "considered")->valuedouble,
                       co, sizeof co);
    char *budgets = st_size_budget_words(rp, 1); /* every budget, as the text says them */
    fprintf(out, ", goal %s, deadline %s%s%s. ", rp->goal, dl, budgets ? ", budgets: " : "",
            budgets ? budgets : "");
    free(budgets);
    fprintf(out, "%s configurations evaluated of %s plans considered.\n\n## Ranked\n\n", ev, co);
    md_rows(out, "ranked", cJSON_GetObjectItemCaseSensitive(t, "ranked"), cols, n_cols, "ranked");
    char *cut = left_out_words(t, "ranked", "evaluated");
    if (cut)
        fprintf(out, "%s\n\n", cut);
    free(cut);
    fputs("## Pareto front\n\n", out);
    md_rows(out, "front", cJSON_GetObjectItemCaseSensitive(t, "front"), cols, n_cols, "ranked");
    return st_report_close(out, &buf);
}

/* ---- a service's sizing (report/size_serve_out.c's JSON) ---------------------------------- */

/* The columns of a service's rows: every key any row has, in the order each first appears (a
 * row that cannot serve has `why` where the others have their figures). */
static size_t serve_cols(const cJSON *rows, const char **cols)
{
    size_t n = 0;
    for (const cJSON *o = rows ? rows->child : NULL; o; o = o->next)
        for (const cJSON *c = o->child; c; c = c->next) {
            size_t k = 0;
            while (k < n && strcmp(cols[k], c->string) != 0)
                k++;
            if (k < n)
                continue;
            if (n == MAX_COLS)
                ST_BUG("a service's sizing row has more than %d keys", MAX_COLS);
            cols[n++] = c->string;
        }
    return n;
}

/* The load and targets of a service's sizing: "30 requests/s, P99 time to first token at most
 * 2 s, ...; ranked by GOAL". */
static void serve_ask(FILE *out, const cJSON *t)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(t, "goal");
    const cJSON *rate = cJSON_GetObjectItemCaseSensitive(t, "rate_per_s");
    const cJSON *clients = cJSON_GetObjectItemCaseSensitive(t, "clients");
    if (cJSON_IsNumber(clients))
        fprintf(out, "%s clients", st_fig_plain(clients->valuedouble).s);
    else if (cJSON_IsNumber(rate))
        fprintf(out, "%s requests/s", st_fig_plain(rate->valuedouble).s);
    static const char *const targets[][2] = {{"ttft_p99_target_s", "P99 time to first token"},
                                             {"tpot_p99_target_s", "P99 time per output token"}};
    for (int k = 0; k < 2; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, targets[k][0]);
        char at[ST_FIG_TEXT_MAX]; /* as the summary's "(target 50 ms)", not "0.05 s" */
        if (!cJSON_IsNumber(v))
            continue;
        st_fig_number_text(ST_FU_TIME, v->valuedouble, at, sizeof at);
        fprintf(out, ", %s at most %s", targets[k][1], at);
    }
    fprintf(out, "; ranked by %s", cJSON_IsString(g) ? g->valuestring : "");
}

/* A service's sizing as one HTML page: the name, the answer in words, the ask, the table. */
static char *serve_html(const cJSON *t, const char *name, const cJSON *rows, const char **cols,
                        size_t n_cols)
{
    char *buf, *ask, *summary = st_summary_size_serve(t);
    size_t len, alen;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, "workload");
    FILE *a = st_report_open(&ask, &alen);
    fprintf(a, "Strata sizing · strata %s · service %s · ", STRATA_VERSION,
            cJSON_IsString(w) ? w->valuestring : "");
    serve_ask(a, t);
    ask = st_report_close(a, &ask);
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, name);
    st_html_para(out, "meta", ask);
    free(ask);
    st_html_para(out, "meta", st_size_serve_fleet());
    st_html_summary(out, summary);
    free(summary);
    st_html_heading(out, 2, "configurations", "Configurations");
    html_rows(out, "serving", rows, cols, n_cols, "serving");
    char *cut = left_out_words(t, "serving", "that serve it");
    if (cut)
        st_html_para(out, "meta", cut);
    free(cut);
    st_html_end(out);
    return st_report_close(out, &buf);
}

char *st_size_serve_doc(const cJSON *t, const char *name, st_report_format f)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(t, "serving");
    const char *cols[MAX_COLS];
    size_t n_cols = serve_cols(rows, cols);
    if (f == ST_FMT_HTML)
        return serve_html(t, name, rows, cols, n_cols);
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    if (f == ST_FMT_CSV) { /* one line a configuration, as the training search's CSV */
        const cJSON *lo = cJSON_GetObjectItemCaseSensitive(t, "left_out");
        char left[64] = "0"; /* the JSON's left_out, on every line, as the training rows' CSV */
        if (cJSON_IsNumber(lo))
            st_report_number_exact(lo->valuedouble, left, sizeof left);
        fputs("table", out);
        for (size_t c = 0; c < n_cols; c++) {
            fputc(',', out);
            st_report_csv_cell(out, cols[c]);
        }
        fputs(",left_out\n", out);
        for (const cJSON *o = rows ? rows->child : NULL; o; o = o->next) {
            fputs("serving", out);
            for (size_t c = 0; c < n_cols; c++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
                char num[64]; /* every digit the JSON has, as the training rows' CSV */
                if (cJSON_IsNumber(v))
                    st_report_number_exact(v->valuedouble, num, sizeof num);
                fputc(',', out);
                st_report_csv_cell(out, cJSON_IsNumber(v)   ? num
                                        : cJSON_IsBool(v)   ? (cJSON_IsTrue(v) ? "true" : "false")
                                        : cJSON_IsString(v) ? v->valuestring
                                                            : "");
            }
            fprintf(out, ",%s\n", left);
        }
        return st_report_close(out, &buf);
    }
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, "workload");
    char *summary = st_summary_size_serve(t);
    fputs("# ", out);
    st_report_md_cell(out, name);
    fputs("\n\n", out);
    st_report_md_cell(out, summary);
    free(summary);
    fputs("\n\nSizing service ", out);
    st_report_md_cell(out, cJSON_IsString(w) ? w->valuestring : "");
    fputs(": ", out);
    serve_ask(out, t);
    fputs(". ", out);
    st_report_md_cell(out, st_size_serve_fleet());
    fputs(".\n\n## Configurations\n\n", out);
    md_rows(out, "serving", rows, cols, n_cols, "serving");
    char *cut = left_out_words(t, "serving", "that serve it");
    if (cut)
        fprintf(out, "%s\n\n", cut);
    free(cut);
    return st_report_close(out, &buf);
}
