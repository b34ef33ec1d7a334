/* `strata compare --format html`: the page titled with the scenario's name, the answer in words
 * (report/summary.c), the policies side by side as an HTML table headed by the rows' labels in the
 * report's schema, the numbers those of compare's JSON output (parsed back from it; with
 * replicas, each cell the mean ± the sample sd), and the queue waits' CDF, one line a policy
 * (with replicas, the first replica's waits). Markdown's title and summary come from here too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/html.h"
#include "report/report.h"
#include "report/svg.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

/* Row p's name as every format names it (st_compare_row_name), the rows those of pols. */
static char *row_name(const cJSON *pols, const cJSON *p)
{
    const cJSON *pol = cJSON_GetObjectItemCaseSensitive(p, "policy"),
                *pl = cJSON_GetObjectItemCaseSensitive(p, "placement");
    return st_compare_row_name(cJSON_IsString(pol) ? pol->valuestring : "",
                               cJSON_IsString(pl) ? pl->valuestring : "",
                               st_compare_placements_differ(pols));
}

/* Cell k of row p (policies[i]), named who: its text, with replicas "MEAN ± SD" from p's
 * spread.KEY, the data attributes those of the mean, which is the JSON's value at the key. */
static void policy_cell(FILE *out, const cJSON *p, const cJSON *k, size_t i, const char *who)
{
    char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX], sb[ST_REPORT_VALUE_MAX];
    char *path = st_xasprintf("policies[%zu].%s", i, k->string);
    const char *text = st_report_value_text(ST_DOC_COMPARE, path, k, tb, sizeof tb);
    const cJSON *spread = cJSON_GetObjectItemCaseSensitive(p, "spread");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(spread, k->string);
    if (cJSON_IsArray(k)) { /* within_band: the figures it names, by their labels */
        char *list = st_xstrdup("");
        for (const cJSON *e = k->child; e; e = e->next) {
            char *key = st_xasprintf("policies[].%s", cJSON_IsString(e) ? e->valuestring : "");
            const st_fig *f = st_fig_find(ST_DOC_COMPARE, key);
            char *next = st_xasprintf("%s%s%s", list, *list ? ", " : "",
                                      f ? f->label : key + strlen("policies[]."));
            free(key);
            free(list);
            list = next;
        }
        st_html_cell(out, *list ? list : "none");
        free(list);
    } else if (!cJSON_IsNumber(k)) {
        st_html_cell(out, text);
    } else {
        /* on hover, whose figure it is: "srtf: Makespan", its heading scrolled away */
        char *generic = st_xasprintf("policies[].%s", k->string);
        const st_fig *f = st_fig_find(ST_DOC_COMPARE, generic);
        char *name = st_xasprintf("%s: %s", who, f ? f->label : k->string);
        char *both =
            cJSON_IsNumber(s)
                ? st_xasprintf("%s ± %s", text,
                               st_report_value_text(ST_DOC_COMPARE, path, s, sb, sizeof sb))
                : st_xstrdup(text);
        st_html_cell_num_named(out, name, path, st_report_value_exact(k, eb, sizeof eb), both);
        free(both);
        free(name);
        free(generic);
    }
    free(path);
}

/* Whether key k of a policy's row is shown apart from the policies' table: its spread (in each
 * figure's cell) and its pools (pools_table). */
static int own_table(const cJSON *k)
{
    return strcmp(k->string, "spread") == 0 || strcmp(k->string, "pools") == 0 ||
           strcmp(k->string, "within_band") == 0;
}

/* Each policy's figures within the error band of the best, a row a policy: a list of names in a
 * column of the policies' table squeezed it to a few letters a line, each row screens tall. */
static void band_table(FILE *out, const cJSON *pols)
{
    if (!pols->child || !cJSON_GetObjectItemCaseSensitive(pols->child, "within_band"))
        return;
    const st_fig *f = st_fig_find(ST_DOC_COMPARE, "policies[].within_band[]");
    const char *heads[2] = {"Policy", f ? f->label : "within_band"};
    st_html_heading(out, 2, "within-band", "Differences within the error band");
    st_html_table_begin(out, "table-within-band", heads, 2);
    size_t i = 0;
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        char *who = row_name(pols, p);
        st_html_row_begin(out);
        st_html_cell(out, who);
        policy_cell(out, p, cJSON_GetObjectItemCaseSensitive(p, "within_band"), i, who);
        st_html_row_end(out);
        free(who);
    }
    st_html_table_end(out);
}

/* On a cluster of several pools, a row per policy and pool: its share of the run. */
static void pools_table(FILE *out, const cJSON *pols)
{
    static const char *const keys[] = {"jobs", "finished", "mean_wait_s", "utilization"};
    const char *heads[6] = {"Policy", "Pool"};
    if (!pols->child || !cJSON_GetObjectItemCaseSensitive(pols->child, "pools"))
        return;
    for (int c = 0; c < 4; c++) {
        char *path = st_xasprintf("policies[].pools[].%s", keys[c]);
        const st_fig *f = st_fig_find(ST_DOC_COMPARE, path);
        heads[2 + c] = f ? f->label : keys[c];
        free(path);
    }
    st_html_heading(out, 2, "pools", "By pool");
    st_html_table_begin(out, "table-pools", heads, 6);
    size_t i = 0;
    char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX];
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        size_t k = 0;
        char *who = row_name(pols, p);
        for (const cJSON *e = cJSON_GetObjectItemCaseSensitive(p, "pools")->child; e;
             e = e->next, k++) {
            st_html_row_begin(out);
            st_html_cell(out, who);
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
            st_html_cell(out, cJSON_IsString(name) ? name->valuestring : "");
            for (int c = 0; c < 4; c++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, keys[c]);
                char *path = st_xasprintf("policies[%zu].pools[%zu].%s", i, k, keys[c]);
                st_html_cell_num(out, path, st_report_value_exact(v, eb, sizeof eb),
                                 st_report_value_text(ST_DOC_COMPARE, path, v, tb, sizeof tb));
                free(path);
            }
            st_html_row_end(out);
        }
        free(who);
    }
    st_html_table_end(out);
}

/* The table of policies: a column per figure of the first row (its spread, with replicas, is in
 * each figure's cell, not a column of its own). */
static void policy_table(FILE *out, const cJSON *pols)
{
    const cJSON *first = pols->child;
    size_t nk = 0, i = 0;
    for (const cJSON *k = first ? first->child : NULL; k; k = k->next)
        nk++;
    const char **heads = st_xcalloc(nk + 1, sizeof *heads);
    nk = 0;
    for (const cJSON *k = first ? first->child : NULL; k; k = k->next)
        if (!own_table(k)) {
            /* a list's row is named with its [] (within_band[]) */
            char *path = st_xasprintf("policies[].%s%s", k->string, cJSON_IsArray(k) ? "[]" : "");
            const st_fig *f = st_fig_find(ST_DOC_COMPARE, path);
            free(path);
            heads[nk++] = f ? f->label : k->string;
        }
    st_html_table_begin(out, "table-policies", heads, nk);
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        char *who = row_name(pols, p); /* on hover, "srtf/pack: Makespan" */
        st_html_row_begin(out);
        for (const cJSON *k = p->child; k; k = k->next)
            if (!own_table(k))
                policy_cell(out, p, k, i, who);
        st_html_row_end(out);
        free(who);
    }
    st_html_table_end(out);
    free(heads);
}

char *st_compare_html(const char *scenario, const char *json, const st_compare_waits *w, size_t n)
{
    cJSON *t = cJSON_Parse(json);
    if (!t)
        ST_BUG("compare's JSON does not parse back");
    char *buf, *summary = st_summary_compare(t), line[128];
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, scenario);
    snprintf(line, sizeof line,
             "Strata policy comparison · strata %s · seed %.0f · the same jobs under each policy",
             STRATA_VERSION, cJSON_GetObjectItemCaseSensitive(t, "seed")->valuedouble);
    st_html_para(out, "meta", line);
    st_html_summary(out, summary);
    free(summary);
    st_html_heading(out, 2, "policies", "Policies");
    policy_table(out, cJSON_GetObjectItemCaseSensitive(t, "policies"));
    band_table(out, cJSON_GetObjectItemCaseSensitive(t, "policies"));
    pools_table(out, cJSON_GetObjectItemCaseSensitive(t, "policies"));
    st_html_heading(out, 2, "charts", "Charts");
    st_svg_series *s = st_xcalloc(n ? n : 1, sizeof *s);
    size_t drawn = 0;
    double top = 0;
    const char *axis;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < w[i].n; k++)
            top = fmax(top, w[i].waits_h[k]);
    double per_h = st_report_waits_unit(top, &axis);
    double **in_unit = st_xcalloc(n ? n : 1, sizeof *in_unit); /* the waits in the axis' unit */
    for (size_t i = 0; i < n; i++) {
        in_unit[i] = st_xmalloc((w[i].n ? w[i].n : 1) * sizeof **in_unit);
        for (size_t k = 0; k < w[i].n; k++)
            in_unit[i][k] = w[i].waits_h[k] * per_h;
        s[i] = (st_svg_series){w[i].label, in_unit[i], in_unit[i], w[i].n, ST_SVG_LINE};
        drawn += w[i].n;
    }
    /* with replicas, the waits drawn are the first replica's alone */
    const cJSON *reps = cJSON_GetObjectItemCaseSensitive(t, "replicas");
    char cdf_title[160];
    snprintf(cdf_title, sizeof cdf_title,
             cJSON_IsNumber(reps) && reps->valuedouble > 1
                 ? "Queue wait of the started jobs, per policy (CDF), in the first of the %.0f "
                   "replicas"
                 : "Queue wait of the started jobs, per policy (CDF)",
             cJSON_IsNumber(reps) ? reps->valuedouble : 1.0);
    st_svg_frame f = {.id = "queue-waits",
                      .title = cdf_title,
                      .x_label = axis,
                      .y_label = "share of jobs",
                      .x_from_zero = 1};
    st_html_section(out, "sec-queue-waits");
    double same;
    if (drawn >= 2 && st_svg_flat(s, n, 1, &same)) { /* one vertical step: say it instead */
        char t[ST_REPORT_VALUE_MAX], *why;
        st_unit_format(same / per_h * 3600, ST_DIM_TIME, t, sizeof t);
        why = st_xasprintf("All %zu waits in the queue, under every policy, were %s: with every "
                           "wait the same there is no distribution to draw.",
                           drawn, t);
        st_html_para(out, "absent", why);
        free(why);
    } else if (drawn >= 2)
        st_svg_cdf(out, &f, s, n);
    else
        st_html_para(out, "absent", "Fewer than two jobs started: no distribution of waits.");
    st_html_section_end(out);
    for (size_t i = 0; i < n; i++)
        free(in_unit[i]);
    free(in_unit);
    free(s);
    st_html_end(out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}

char *st_compare_summary(const char *json)
{
    cJSON *t = cJSON_Parse(json);
    if (!t)
        ST_BUG("compare's JSON does not parse back");
    char *summary = st_summary_compare(t);
    cJSON_Delete(t);
    return summary;
}

void st_compare_md_head(FILE *out, const char *scenario, const char *json)
{
    char *summary = st_compare_summary(json);
    fputs("# ", out);
    st_report_md_cell(out, scenario);
    fputs("\n\n", out);
    st_report_md_cell(out, summary);
    fputs("\n\n", out);
    free(summary);
}
