/* `strata compare --format html`: the policies side by side as an HTML table, the numbers those
 * of compare's JSON output (parsed back from it), and the queue waits' CDF, one line a policy. */
#include <stdlib.h>
#include <string.h>

#include "cli/report_out.h"
#include "report/html.h"
#include "report/svg.h"
#include "sim/xalloc.h"

static void policy_table(FILE *out, const cJSON *pols)
{
    const cJSON *first = pols->child;
    size_t nk = 0, i = 0;
    for (const cJSON *k = first ? first->child : NULL; k; k = k->next)
        nk++;
    const char **heads = st_xcalloc(nk + 1, sizeof *heads);
    nk = 0;
    for (const cJSON *k = first ? first->child : NULL; k; k = k->next)
        heads[nk++] = k->string;
    st_html_table_begin(out, "table-policies", heads, nk);
    for (const cJSON *p = pols->child; p; p = p->next, i++) {
        st_html_row_begin(out);
        for (const cJSON *k = p->child; k; k = k->next) {
            char path[128], text[128], exact[64];
            snprintf(path, sizeof path, "policies[%zu].%s", i, k->string);
            st_report_value_text(path, k, text, sizeof text);
            if (cJSON_IsNumber(k)) {
                st_report_value_exact(k, exact, sizeof exact);
                st_html_cell_num(out, path, exact, text);
            } else {
                st_html_cell(out, text);
            }
        }
        st_html_row_end(out);
    }
    st_html_table_end(out);
    free(heads);
}

char *st_compare_html(const char *scenario, const char *json, const st_compare_waits *w, size_t n)
{
    cJSON *t = cJSON_Parse(json);
    if (!t)
        ST_BUG("compare's JSON does not parse back");
    char *buf, title[300], line[300];
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    snprintf(title, sizeof title, "Strata policy comparison: %s", scenario);
    st_html_begin(out, title);
    snprintf(line, sizeof line, "strata %s · seed %.0f · the same jobs under each policy",
             STRATA_VERSION, cJSON_GetObjectItemCaseSensitive(t, "seed")->valuedouble);
    st_html_para(out, "meta", line);
    st_html_heading(out, 2, "charts", "Charts");
    st_svg_series *s = st_xcalloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = (st_svg_series){w[i].label, w[i].waits_h, w[i].waits_h, w[i].n, ST_SVG_LINE};
    st_svg_frame f = {.id = "queue-waits",
                      .title = "Queue wait of the started jobs, per policy (CDF)",
                      .x_label = "wait (hours)",
                      .y_label = "share of jobs",
                      .x_from_zero = 1};
    st_html_section(out, "sec-queue-waits");
    st_svg_cdf(out, &f, s, n);
    st_html_section_end(out);
    free(s);
    st_html_heading(out, 2, "policies", "Policies");
    policy_table(out, cJSON_GetObjectItemCaseSensitive(t, "policies"));
    st_html_end(out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}
