/* `strata sweep --format html`: the page titled with the scenario's name, the answer in words
 * (report/summary.c), the sweep's curves, every report column against the first axis (one line
 * for each combination of the other axes' values), and the table of every point headed by its
 * figures' labels in the report's schema, all from the sweep's JSON (its numbers, each cell keyed
 * points[i].COLUMN). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/sweep_out.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

static double value(const cJSON *pt, const char *col)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(pt, col);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A leaf's text as the JSON holds it (a string as it is, a number in cJSON's form), malloc'd:
 * as long as it is, so a long name is never cut, least of all inside a UTF-8 character. */
static char *exact_text(const cJSON *v)
{
    if (cJSON_IsString(v))
        return st_xstrdup(v->valuestring);
    char num[64]; /* a number, a boolean or null */
    st_report_value_exact(v, num, sizeof num);
    return st_xstrdup(num);
}

/* Point pt's values of the axes after the first, as one label ("" with one axis), malloc'd. */
static char *group_label(const st_sweep *sw, const cJSON *pt)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    for (size_t a = 1; a < sw->grid->n_ax; a++) {
        char *v = exact_text(cJSON_GetObjectItemCaseSensitive(pt, sw->cols[a]));
        fprintf(out, "%s%s=%s", a > 1 ? ", " : "", sw->cols[a], v);
        free(v);
    }
    return st_report_close(out, &buf);
}

/* printf into a malloc'd text of the length it needs. */
static char *text_of(const char *f, const char *a, const char *b)
{
    int len = snprintf(NULL, 0, f, a, b);
    char *t = st_xmalloc((size_t)(len > 0 ? len : 0) + 1);
    snprintf(t, (size_t)(len > 0 ? len : 0) + 1, f, a, b);
    return t;
}

/* A unit that reads well for a curve of column col whose largest value is top (in the
 * figure's own unit), from its figure's row in the report's schema (report/figures.h), and the
 * factor into it: a time in s, min, h or days by its size (a wall time of 12 min on an axis of
 * days read 0.005 to 0.045), bytes in GB, a share in percent, power in kW or MW by its size; ""
 * where the unit is none of those (the axis is then labelled with the figure's name). */
static const char *unit_of(const char *col, double top, double *scale)
{
    char *path = text_of("points[].%s%s", col, "");
    const st_fig *f = st_fig_find(ST_DOC_SWEEP, path);
    free(path);
    *scale = 1;
    st_fig_unit u = f ? f->unit : ST_FU_NUMBER;
    if (u == ST_FU_BYTES)
        return *scale = 1e-9, "GB";
    const char *unit = "";
    if (u == ST_FU_TIME)
        *scale = st_svg_time_unit(top, &unit);
    if (u == ST_FU_POWER)
        *scale = st_svg_power_unit(top, &unit);
    if (u == ST_FU_SHARE)
        return *scale = 100, "%";
    if (u == ST_FU_MONEY) /* 1.41 million USD, not 1410000 */
        return top >= 1e6 ? (*scale = 1e-6, "million USD") : "USD";
    if (u == ST_FU_USD_PER_YEAR)
        return top >= 1e6 ? (*scale = 1e-6, "million USD/year") : "USD/year";
    if (u == ST_FU_USD_PER_TOKEN) /* as the tables show it */
        return *scale = 1e6, "USD per million tokens";
    if (u == ST_FU_PER_S)
        return "per second";
    if (u == ST_FU_ENERGY)
        return top >= 1e12  ? (*scale = 1e-12, "TJ")
               : top >= 1e9 ? (*scale = 1e-9, "GJ")
               : top >= 1e6 ? (*scale = 1e-6, "MJ")
                            : "J";
    return unit;
}

/* Column col's label in the report's schema ("Cost"), or its key's last part where it has
 * none. */
static const char *label_of(const char *col)
{
    char *path = text_of("points[].%s%s", col, "");
    const st_fig *f = st_fig_find(ST_DOC_SWEEP, path);
    free(path);
    return f ? f->label : strrchr(col, '.') ? strrchr(col, '.') + 1 : col;
}

/* Whether every point's value of the first axis is a number: else the axis is drawn as its
 * values, in the order given. */
static int numeric_axis(const st_sweep *sw, const cJSON *pts)
{
    for (const cJSON *p = pts->child; p; p = p->next)
        if (!isfinite(value(p, sw->cols[0])))
            return 0;
    return 1;
}

/* Column c's heading: a figure column's label in the report's schema (with its job's name when
 * the scenario trains several), status and reason by theirs, an axis by its --set path. */
static char *column_head(const st_sweep *sw, size_t c, int jobs)
{
    size_t job = 0;
    const st_fig *f =
        c <= sw->grid->n_ax || c + 1 >= sw->n_cols ? NULL : st_fig_sweep_column(sw->cols[c], &job);
    if (!f)
        return st_xstrdup(sw->cols[c]);
    /* a statistic or a map's member names itself after the row's label */
    const char *rest = sw->cols[c] + (job ? job + 1 : strlen(ST_FIG_RUN_PREFIX));
    size_t row = strlen(f->path) - (strncmp(f->path, "jobs[].", 7) == 0 ? 7 : 0);
    char *label = strlen(rest) > row
                      ? text_of("%s (%s)", f->label, st_fig_stat_label(rest + row + 1))
                      : st_xstrdup(f->label);
    if (!job || jobs < 2)
        return label;
    char *name = st_xstrndup(sw->cols[c], job);
    char *head = text_of("%s: %s", name, label);
    free(name);
    free(label);
    return head;
}

/* The chart of column c over the points: x the first axis (or, when its values are not all
 * numbers, the point's value's place in the axis, ticked with the values), a series per group.
 * Returns 0 when no point has a number there. */
static int curve(FILE *out, const st_sweep *sw, const cJSON *pts, size_t c, size_t id)
{
    const char *col = sw->cols[c];
    size_t np = (size_t)cJSON_GetArraySize(pts), ng = 0, i = 0, have = 0;
    double *x = st_xcalloc(np + 1, sizeof *x), *y = st_xcalloc(np + 1, sizeof *y), scale;
    char **labels = st_xcalloc(np + 1, sizeof *labels);
    size_t *grp = st_xcalloc(np + 1, sizeof *grp);
    double top = 0;
    for (const cJSON *p = pts->child; p; p = p->next)
        if (isfinite(value(p, col)))
            top = fmax(top, fabs(value(p, col)));
    const char *unit = unit_of(col, top, &scale);
    int numeric = numeric_axis(sw, pts);
    for (const cJSON *p = pts->child; p; p = p->next, i++) {
        char *lb = group_label(sw, p);
        for (grp[i] = 0; grp[i] < ng && strcmp(labels[grp[i]], lb) != 0; grp[i]++)
            ;
        if (grp[i] == ng)
            labels[ng++] = lb;
        else
            free(lb);
        x[i] = numeric ? value(p, sw->cols[0]) : (double)st_grid_value(sw->grid, i, 0);
        y[i] = value(p, col) * scale;
        have += isfinite(y[i]);
    }
    /* The points of group g, in point order, gathered into one series each. */
    st_svg_series *s = st_xcalloc(ng + 1, sizeof *s);
    double *gx = st_xcalloc(np + 1, sizeof *gx), *gy = st_xcalloc(np + 1, sizeof *gy);
    size_t at = 0;
    /* one line: named as the figure's column is (its job and label), not by its key */
    char *head = column_head(sw, c, 2);
    for (size_t g = 0; g < ng; g++) {
        s[g] =
            (st_svg_series){labels[g][0] ? labels[g] : head, gx + at, gy + at, 0, ST_SVG_LINE_DOTS};
        for (size_t k = 0; k < np; k++)
            if (grp[k] == g) {
                gx[at] = x[k];
                gy[at++] = y[k];
                s[g].n++;
            }
    }
    char sid[32];
    snprintf(sid, sizeof sid, "sweep-curve-%zu", id);
    char *title = text_of("%s against %s", head, sw->cols[0]);
    /* the y axis by the figure's label and unit ("Cost (million USD)"), from zero: a 2%
     * difference drawn on an axis cut to the two values filled the plot */
    char *yl = unit[0] ? text_of("%s (%s)", label_of(col), unit) : st_xstrdup(label_of(col));
    const st_grid_axis *ax0 = &sw->grid->ax[0];
    st_svg_frame f = {.id = sid,
                      .title = title,
                      .x_label = sw->cols[0],
                      .y_label = yl,
                      .x_ticks = numeric ? NULL : (const char *const *)ax0->values,
                      .n_x_ticks = numeric ? 0 : ax0->n,
                      .y_from_zero = 1,
                      .y_cap = strcmp(unit, "%") == 0 ? 100 : 0};
    double same;
    int flat = have >= 2 && st_svg_flat(s, ng, 0, &same);
    if (flat) { /* one flat line: the value in words (docs/guide/reports.md) */
        char text[ST_REPORT_VALUE_MAX], *why;
        const cJSON *p = pts->child;
        for (i = 0; p && !isfinite(value(p, col)); p = p->next, i++)
            ;
        char *path = st_xasprintf("points[%zu].%s", i, col);
        st_report_value_text(ST_DOC_SWEEP, path, cJSON_GetObjectItemCaseSensitive(p, col), text,
                             sizeof text);
        free(path);
        why = text_of("%s reads %s at every point: no curve to draw.", head, text);
        st_html_para(out, "absent", why);
        free(why);
    } else if (have)
        st_svg_xy(out, &f, s, ng);
    for (size_t g = 0; g < ng; g++)
        free(labels[g]);
    free(labels), free(grp), free(x), free(y), free(gx), free(gy), free(s), free(title);
    free(head), free(yl);
    return have > 0 && !flat;
}

/* Cell c of point i, whose JSON value is v: a swept value as given, a figure as the reader's
 * formats write it. */
static void point_cell(FILE *out, const st_sweep *sw, size_t i, size_t c, const cJSON *v,
                       const char *head)
{
    char idx[32];
    snprintf(idx, sizeof idx, "points[%zu].", i);
    char *path = text_of("%s%s", idx, sw->cols[c]);
    if (cJSON_IsNumber(v)) {
        char text[128], exact[64]; /* a number's text: digits and a unit */
        st_report_value_text(ST_DOC_SWEEP, path, v, text, sizeof text);
        st_report_value_exact(v, exact, sizeof exact);
        st_html_cell_num_named(out, head, path, exact, text); /* its heading on hover */
    } else if (cJSON_IsBool(v) && c >= sw->grid->n_ax) {
        char text[8]; /* a figure's yes or no, as every report's reader formats say it */
        st_html_cell(out, st_report_value_text(ST_DOC_SWEEP, path, v, text, sizeof text));
    } else {
        char *text = cJSON_IsNull(v) ? st_xstrdup("") : exact_text(v);
        st_html_cell(out, text);
        free(text);
    }
    free(path);
}

static void point_table(FILE *out, const st_sweep *sw, const cJSON *pts)
{
    size_t cols_per_job = sw->figs.n, fig_cols = sw->n_cols - sw->grid->n_ax - 2 - sw->figs.n_run;
    int jobs = cols_per_job ? (int)(fig_cols / cols_per_job) : 0;
    char **heads = st_xcalloc(sw->n_cols + 1, sizeof *heads);
    for (size_t c = 0; c < sw->n_cols; c++)
        heads[c] = column_head(sw, c, jobs);
    st_html_table_begin(out, "table-points", (const char *const *)heads, sw->n_cols);
    size_t i = 0;
    for (const cJSON *p = pts->child; p; p = p->next, i++) {
        st_html_row_begin(out);
        for (size_t c = 0; c < sw->n_cols; c++)
            point_cell(out, sw, i, c, cJSON_GetObjectItemCaseSensitive(p, sw->cols[c]), heads[c]);
        st_html_row_end(out);
    }
    st_html_table_end(out);
    for (size_t c = 0; c < sw->n_cols; c++)
        free(heads[c]);
    free(heads);
}

char *st_sweep_html(const st_sweep *sw, const char *json)
{
    cJSON *t = cJSON_Parse(json);
    if (!t)
        ST_BUG("the sweep's JSON does not parse back");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(t, "points");
    char *buf, line[128];
    size_t len, id = 0;
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, st_scn_name(sw->base));
    snprintf(line, sizeof line, "Strata sweep · strata %s · scenario hash %s · %zu points",
             STRATA_VERSION, cJSON_GetObjectItemCaseSensitive(t, "scenario_hash")->valuestring,
             sw->grid->n_points);
    st_html_para(out, "meta", line);
    char *grid = st_summary_sweep(sw), *outcome = st_summary_sweep_outcome(pts);
    char *summary = text_of("%s%s", grid, outcome);
    st_html_summary(out, summary);
    free(grid), free(outcome), free(summary);
    st_html_heading(out, 2, "charts", "Curves");
    st_html_section(out, "sec-sweep-curves");
    for (size_t c = sw->grid->n_ax + 1; c + 1 < sw->n_cols; c++)
        id += (size_t)curve(out, sw, pts, c, id);
    if (!id)
        st_html_para(out, "absent", "No point has a figure to draw.");
    st_html_section_end(out);
    st_html_heading(out, 2, "points", "Points");
    point_table(out, sw, pts);
    st_html_end(out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}
