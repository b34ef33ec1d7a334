/* A sweep's rows as CSV, JSON or a Markdown table: the text cells planner/sweep.c made, numbers
 * and booleans typed in JSON. CSV and Markdown cells go through the report writers' cells
 * (report/report.h), which neutralise what a spreadsheet or a Markdown renderer would run. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/sweep_out.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

static cJSON *json_cell(const char *c);

/* A CSV line of cells[0..n). */
static void csv_line(FILE *out, char *const *cells, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        st_report_csv_cell(out, cells[c]);
        fputc(c + 1 < n ? ',' : '\n', out);
    }
}

/* A figure's cell for a reader, column col's: as the HTML's points table writes it
 * (st_report_value_text: its unit's digits and unit, a count whole and grouped, a boolean in
 * the reader formats' words, yes or no), into text; else the cell as it is. The CSV and JSON
 * keep every digit the JSON report has (report.h, st_report_number_exact), and true and false. */
static const char *md_figure(const char *col, const char *cell, char *text, size_t n)
{
    cJSON *v = json_cell(cell);
    const char *out = cell;
    if (cJSON_IsNumber(v) || cJSON_IsBool(v)) {
        char *path = st_xasprintf("points[0].%s", col); /* a long job name's column whole */
        out = st_report_value_text(ST_DOC_SWEEP, path, v, text, n);
        free(path);
    }
    cJSON_Delete(v);
    return out;
}

/* A Markdown table line of cells[0..n), columns cols: a figure's cell from column `figs` on as
 * md_figure writes it; a swept value stays as given. */
static void md_line(FILE *out, char *const *cols, char *const *cells, size_t n, size_t figs)
{
    for (size_t c = 0; c < n; c++) {
        char text[128];
        fputs("| ", out);
        st_report_md_cell(out,
                          c >= figs ? md_figure(cols[c], cells[c], text, sizeof text) : cells[c]);
        fputc(' ', out);
    }
    fputs("|\n", out);
}

char *st_sweep_render_head(const st_sweep *sw, st_sweep_format f)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    if (f == ST_SWEEP_CSV) {
        csv_line(out, sw->cols, sw->n_cols);
    } else if (f == ST_SWEEP_MARKDOWN) {
        /* the scenario's name and the answer in words (report/summary.c: the points and axes,
         * known before any point runs, so a streamed table opens with them) */
        char *summary = st_summary_sweep(sw);
        fputs("# ", out);
        st_report_md_cell(out, st_scn_name(sw->base));
        fputs("\n\n", out);
        st_report_md_cell(out, summary);
        fputs("\n\n", out);
        free(summary);
        md_line(out, sw->cols, sw->cols, sw->n_cols, sw->n_cols);
        for (size_t c = 0; c < sw->n_cols; c++)
            fputs("|---", out);
        fputs("|\n", out);
    }
    return st_report_close(out, &buf);
}

char *st_sweep_render_row(const st_sweep *sw, char **cells, st_sweep_format f)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    if (f == ST_SWEEP_CSV)
        csv_line(out, cells, sw->n_cols);
    else if (f == ST_SWEEP_MARKDOWN)
        md_line(out, sw->cols, cells, sw->n_cols, sw->grid->n_ax);
    return st_report_close(out, &buf);
}

/* A cell as JSON: a number when the whole cell is one, a boolean, null when empty, else text. */
static cJSON *json_cell(const char *c)
{
    char *end;
    double v = strtod(c, &end);
    if (*c && !*end && isfinite(v) && !isspace((unsigned char)c[0]))
        return cJSON_CreateNumber(v);
    if (strcmp(c, "true") == 0 || strcmp(c, "false") == 0)
        return cJSON_CreateBool(c[0] == 't');
    return *c ? cJSON_CreateString(c) : cJSON_CreateNull();
}

/* A swept value's cell: a number only when the text is that number as the grid writes one
 * (%.15g: 16, 0.25), so that the value given stays the value shown (0x2, 02 and 1e3 are text:
 * read as numbers, three different points printed as the same one, a name 0x10 as 16). */
static cJSON *json_value_cell(const char *c)
{
    char *end, canon[40];
    double v = strtod(c, &end);
    if (*c && !*end && isfinite(v)) {
        snprintf(canon, sizeof canon, "%.15g", v);
        if (strcmp(canon, c) != 0)
            return cJSON_CreateString(c);
    }
    return json_cell(c);
}

static char *json(const st_sweep *sw, char ***rows, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)sw->hash);
    cJSON_AddStringToObject(root, "scenario_hash", hash);
    cJSON *cols = cJSON_AddArrayToObject(root, "columns");
    for (size_t c = 0; c < sw->n_cols; c++)
        cJSON_AddItemToArray(cols, cJSON_CreateString(sw->cols[c]));
    cJSON *pts = cJSON_AddArrayToObject(root, "points");
    for (size_t r = 0; r < n; r++) {
        cJSON *o = cJSON_CreateObject();
        for (size_t c = 0; c < sw->n_cols; c++)
            cJSON_AddItemToObject(o, sw->cols[c],
                                  c < sw->grid->n_ax ? json_value_cell(rows[r][c])
                                                     : json_cell(rows[r][c]));
        cJSON_AddItemToArray(pts, o);
    }
    return st_report_json_print(root);
}

char *st_sweep_render(const st_sweep *sw, char ***rows, size_t n, st_sweep_format f)
{
    if (f == ST_SWEEP_JSON || f == ST_SWEEP_HTML) {
        char *text = json(sw, rows, n);
        if (f == ST_SWEEP_JSON)
            return text;
        char *doc = st_sweep_html(sw, text);
        free(text);
        return doc;
    }
    char *buf, *head = st_sweep_render_head(sw, f);
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    fputs(head, out);
    free(head);
    for (size_t r = 0; r < n; r++) {
        char *line = st_sweep_render_row(sw, rows[r], f);
        fputs(line, out);
        free(line);
    }
    return st_report_close(out, &buf);
}
