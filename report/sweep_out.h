/* `strata sweep`'s writers: the rows planner/sweep.c computes as CSV, JSON, a Markdown table or
 * an HTML page of curves (report/sweep_out.c, report/sweep_html.c). */
#ifndef ST_REPORT_SWEEP_OUT_H
#define ST_REPORT_SWEEP_OUT_H

#include <stddef.h>

#include "planner/sweep.h"

typedef enum st_sweep_format {
    ST_SWEEP_CSV,
    ST_SWEEP_JSON,
    ST_SWEEP_MARKDOWN,
    ST_SWEEP_HTML
} st_sweep_format;

/* rows[0..n), each sw->n_cols cells, as one text in format f (CSV with a header line, a JSON
 * object with the columns and one object per point, a Markdown table, or an HTML page of the
 * JSON's points: st_sweep_html). CSV and Markdown are st_sweep_render_head's text followed by
 * st_sweep_render_row's for each row, so a sweep can print them a row at a time. Text cells are
 * neutralised for the format (report/csv.h, report/md.h). Malloc'd. */
char *st_sweep_render(const st_sweep *sw, char ***rows, size_t n, st_sweep_format f);
char *st_sweep_render_head(const st_sweep *sw, st_sweep_format f);
char *st_sweep_render_row(const st_sweep *sw, char **cells, st_sweep_format f);

/* The sweep's JSON text (st_sweep_render's) as a self-contained HTML page: a curve per report
 * column against the first axis, and the table of points (report/sweep_html.c). Malloc'd. */
char *st_sweep_html(const st_sweep *sw, const char *json);

#endif
