/* `strata size --format json|csv|markdown|html`: the search's counts, the ranked table and the
 * Pareto front as JSON (one cJSON tree), and the other forms from that tree, so their numbers are
 * the JSON's: CSV rows of both tables, Markdown tables, and an HTML page whose chart is the
 * front among every evaluated configuration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_out.h"
#include "report/html.h"
#include "report/svg.h"
#include "sim/xalloc.h"

static cJSON *cfg_json(const st_size_cfg *f, size_t rank)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", (double)rank);
    cJSON_AddNumberToObject(o, "nodes", (double)f->nodes);
    cJSON_AddNumberToObject(o, "gpus", (double)f->gpus);
    cJSON_AddNumberToObject(o, "tp", (double)f->tp);
    cJSON_AddNumberToObject(o, "pp", (double)f->pp);
    cJSON_AddNumberToObject(o, "dp", (double)f->dp);
    cJSON_AddNumberToObject(o, "virtual_stages", (double)f->vs);
    cJSON_AddNumberToObject(o, "microbatch", (double)f->mb);
    cJSON_AddStringToObject(o, "recompute", st_recompute_names[f->recompute]);
    cJSON_AddNumberToObject(o, "memory_per_gpu_bytes", f->mem_bytes);
    cJSON_AddNumberToObject(o, "step_time_s", f->step_s);
    cJSON_AddNumberToObject(o, "train_s", f->train_s);
    cJSON_AddNumberToObject(o, "gpu_hours", f->gpu_hours);
    if (f->cost_usd >= 0) /* no prices: absent */
        cJSON_AddNumberToObject(o, "cost_usd", f->cost_usd);
    if (isfinite(f->facility_w)) /* not powered: absent */
        cJSON_AddNumberToObject(o, "facility_peak_w", f->facility_w);
    cJSON_AddStringToObject(o, "binds", st_size_bind_name(f->binds));
    cJSON_AddBoolToObject(o, "feasible", f->feasible);
    return o;
}

cJSON *st_size_tree(const st_size_report *sr)
{
    const st_size_result *r = sr->r;
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "strata_version", STRATA_VERSION);
    cJSON_AddStringToObject(t, "scenario", sr->file);
    cJSON_AddStringToObject(t, "workload", sr->workload);
    cJSON_AddStringToObject(t, "goal", sr->goal);
    cJSON_AddNumberToObject(t, "deadline_s", sr->deadline_s);
    if (sr->power_w > 0)
        cJSON_AddNumberToObject(t, "budget_power_w", sr->power_w);
    if (sr->gpus > 0)
        cJSON_AddNumberToObject(t, "budget_gpus", (double)sr->gpus);
    cJSON *s = cJSON_AddObjectToObject(t, "search");
    cJSON_AddNumberToObject(s, "gpu_counts_searched", (double)r->counts_searched);
    cJSON_AddNumberToObject(s, "gpu_counts_skipped", (double)r->counts_skipped);
    cJSON_AddNumberToObject(s, "plans_considered", (double)r->considered);
    cJSON_AddNumberToObject(s, "evaluated", (double)r->n);
    cJSON_AddNumberToObject(s, "pruned_rule", (double)r->pruned_rule);
    cJSON_AddNumberToObject(s, "pruned_memory", (double)r->pruned_memory);
    cJSON_AddNumberToObject(s, "pruned_dominated", (double)r->pruned_dominated);
    cJSON *rk = cJSON_AddArrayToObject(t, "ranked"), *fr = cJSON_AddArrayToObject(t, "front");
    for (size_t i = 0; i < r->n; i++) {
        if (i < sr->top)
            cJSON_AddItemToArray(rk, cfg_json(&r->cfg[i], i + 1));
        if (r->cfg[i].front)
            cJSON_AddItemToArray(fr, cfg_json(&r->cfg[i], i + 1));
    }
    return t;
}

static char *printed(cJSON *t)
{
    char *text = cJSON_Print(t);
    if (!text)
        ST_BUG("cJSON_Print failed");
    size_t len = strlen(text);
    char *out = st_xmalloc(len + 2);
    memcpy(out, text, len);
    memcpy(out + len, "\n", 2);
    cJSON_free(text);
    return out;
}

static const char *const cols[] = {
    "rank",        "nodes",          "gpus",       "tp",        "pp",
    "dp",          "virtual_stages", "microbatch", "recompute", "memory_per_gpu_bytes",
    "step_time_s", "train_s",        "gpu_hours",  "cost_usd",  "facility_peak_w",
    "binds",       "feasible"};
#define N_COLS (sizeof cols / sizeof cols[0])

/* Each row of arr as a CSV line under table name, its cells the JSON's text ("" when absent). */
static void csv_rows(FILE *out, const char *name, const cJSON *arr)
{
    for (const cJSON *o = arr->child; o; o = o->next) {
        fputs(name, out);
        for (size_t c = 0; c < N_COLS; c++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
            char exact[128] = "";
            if (v)
                st_report_value_exact(v, exact, sizeof exact);
            fputc(',', out);
            st_report_csv_cell(out, exact);
        }
        fputc('\n', out);
    }
}

static void md_rows(FILE *out, const char *arr_name, const cJSON *arr)
{
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, "| %s ", cols[c]);
    fputs("|\n", out);
    for (size_t c = 0; c < N_COLS; c++)
        fputs(c == 8 || c == 15 ? "|---" : "|---:", out);
    fputs("|\n", out);
    size_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        for (size_t c = 0; c < N_COLS; c++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
            char path[128], text[128] = "-";
            snprintf(path, sizeof path, "%s[%zu].%s", arr_name, i, cols[c]);
            if (v)
                st_report_value_text(path, v, text, sizeof text);
            fputs("| ", out);
            st_report_md_cell(out, text);
            fputc(' ', out);
        }
        fputs("|\n", out);
    }
    fputc('\n', out);
}

static void html_rows(FILE *out, const char *arr_name, const cJSON *arr)
{
    char id[64];
    snprintf(id, sizeof id, "table-%s", arr_name);
    st_html_table_begin(out, id, cols, N_COLS);
    size_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        st_html_row_begin(out);
        for (size_t c = 0; c < N_COLS; c++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[c]);
            char path[128], text[128], exact[64];
            snprintf(path, sizeof path, "%s[%zu].%s", arr_name, i, cols[c]);
            if (!v) {
                st_html_cell(out, "-");
                continue;
            }
            st_report_value_text(path, v, text, sizeof text);
            st_report_value_exact(v, exact, sizeof exact);
            if (cJSON_IsNumber(v))
                st_html_cell_num(out, path, exact, text);
            else
                st_html_cell(out, text);
        }
        st_html_row_end(out);
    }
    st_html_table_end(out);
}

/* Every evaluated configuration (time to train against the goal's objective), the front, and the
 * deadline. */
static void pareto_chart(FILE *out, const st_size_report *sr)
{
    const st_size_result *r = sr->r;
    size_t n = r->n ? r->n : 1, nf = 0;
    double *x = st_xmalloc(n * sizeof *x), *y = st_xmalloc(n * sizeof *y);
    double *fx = st_xmalloc(n * sizeof *fx), *fy = st_xmalloc(n * sizeof *fy);
    int cost = strcmp(sr->goal, "cost") == 0;
    double ylo = INFINITY, yhi = -INFINITY;
    for (size_t i = 0; i < r->n; i++) {
        x[i] = r->cfg[i].train_s / 86400.0;
        y[i] = cost ? r->cfg[i].cost_usd / 1e6 : r->cfg[i].gpu_hours / 1e6;
        ylo = fmin(ylo, y[i]);
        yhi = fmax(yhi, y[i]);
        if (r->cfg[i].front) {
            fx[nf] = x[i];
            fy[nf++] = y[i];
        }
    }
    double dx[2] = {sr->deadline_s / 86400.0, sr->deadline_s / 86400.0}, dy[2] = {ylo, yhi};
    st_svg_series s[3] = {{"evaluated configuration", x, y, r->n, ST_SVG_DOTS},
                          {"Pareto front", fx, fy, nf, ST_SVG_LINE_DOTS},
                          {"deadline", dx, dy, r->n ? 2 : 0, ST_SVG_LINE}};
    st_svg_frame f = {.id = "size-pareto",
                      .title = "Sizing: time to train against the goal, and the Pareto front",
                      .x_label = "time to train (days, no failures; log scale)",
                      .y_label = cost ? "cost (million USD, log)" : "GPU-hours (millions, log)",
                      .height = 380,
                      .log_x = 1,
                      .log_y = 1};
    st_svg_xy(out, &f, s, 3);
    free(x), free(y), free(fx), free(fy);
}

static void search_row(void *ctx, const char *path, const cJSON *leaf)
{
    FILE *out = ctx;
    char text[256], exact[64];
    st_report_value_text(path, leaf, text, sizeof text);
    st_html_row_begin(out);
    st_html_cell(out, path);
    if (cJSON_IsNumber(leaf)) {
        st_report_value_exact(leaf, exact, sizeof exact);
        st_html_cell_num(out, path, exact, text);
    } else {
        st_html_cell(out, text);
    }
    st_html_row_end(out);
}

static char *size_html(const st_size_report *sr, const cJSON *t)
{
    char *buf, title[300], line[300];
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    snprintf(title, sizeof title, "Strata sizing: %s, workload %s", sr->file, sr->workload);
    st_html_begin(out, title);
    snprintf(line, sizeof line, "strata %s · goal %s · deadline %.4g d", STRATA_VERSION, sr->goal,
             sr->deadline_s / 86400.0);
    st_html_para(out, "meta", line);
    st_html_heading(out, 2, "charts", "Pareto front");
    st_html_section(out, "sec-size-pareto");
    pareto_chart(out, sr);
    st_html_section_end(out);
    st_html_heading(out, 2, "search", "Search");
    static const char *const heads[] = {"key", "value"};
    st_html_table_begin(out, "table-search", heads, 2);
    for (const cJSON *v = t->child; v; v = v->next)
        if (!cJSON_IsArray(v))
            st_report_leaves(v, v->string, search_row, out);
    st_html_table_end(out);
    st_html_heading(out, 2, "ranked", "Ranked configurations");
    html_rows(out, "ranked", cJSON_GetObjectItemCaseSensitive(t, "ranked"));
    st_html_heading(out, 2, "front", "The Pareto front");
    html_rows(out, "front", cJSON_GetObjectItemCaseSensitive(t, "front"));
    st_html_end(out);
    return st_report_close(out, &buf);
}

char *st_size_render(const st_size_report *sr, st_report_format f)
{
    cJSON *t = st_size_tree(sr);
    char *doc = NULL, *buf;
    size_t len;
    if (f == ST_FMT_JSON) {
        doc = printed(t);
    } else if (f == ST_FMT_HTML) {
        doc = size_html(sr, t);
    } else {
        FILE *out = st_report_open(&buf, &len);
        if (f == ST_FMT_CSV) {
            fputs("table", out);
            for (size_t c = 0; c < N_COLS; c++)
                fprintf(out, ",%s", cols[c]);
            fputc('\n', out);
            csv_rows(out, "ranked", cJSON_GetObjectItemCaseSensitive(t, "ranked"));
            csv_rows(out, "front", cJSON_GetObjectItemCaseSensitive(t, "front"));
        } else {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, "search");
            fprintf(out, "# Sizing: %s, workload %s\n\nGoal %s, deadline %.4g d. ", sr->file,
                    sr->workload, sr->goal, sr->deadline_s / 86400.0);
            fprintf(out, "%.0f configurations evaluated of %.0f plans considered.\n\n## Ranked\n\n",
                    cJSON_GetObjectItemCaseSensitive(s, "evaluated")->valuedouble,
                    cJSON_GetObjectItemCaseSensitive(s, "plans_considered")->valuedouble);
            md_rows(out, "ranked", cJSON_GetObjectItemCaseSensitive(t, "ranked"));
            fputs("## Pareto front\n\n", out);
            md_rows(out, "front", cJSON_GetObjectItemCaseSensitive(t, "front"));
        }
        doc = st_report_close(out, &buf);
    }
    cJSON_Delete(t);
    return doc;
}
