/* A sweep's rows as CSV (RFC 4180), JSON or a Markdown table: the text cells planner/sweep.c
 * made, numbers and booleans typed in JSON. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "sim/xalloc.h"

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void put(sbuf *b, const char *s, size_t len)
{
    b->s = st_xgrow(b->s, 1, b->n + len + 1, &b->cap);
    memcpy(b->s + b->n, s, len);
    b->n += len;
    b->s[b->n] = '\0';
}

static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled. */
static void csv_cell(sbuf *b, const char *c)
{
    if (!strpbrk(c, ",\"\r\n")) {
        puts_(b, c);
        return;
    }
    put(b, "\"", 1);
    for (; *c; c++) {
        if (*c == '"')
            put(b, "\"", 1);
        put(b, c, 1);
    }
    put(b, "\"", 1);
}

static void csv(sbuf *b, const st_sweep *sw, char ***rows, size_t n)
{
    for (size_t r = 0; r <= n; r++)
        for (size_t c = 0; c < sw->n_cols; c++) {
            csv_cell(b, r ? rows[r - 1][c] : sw->cols[c]);
            puts_(b, c + 1 < sw->n_cols ? "," : "\n");
        }
}

static void md_cell(sbuf *b, const char *c)
{
    puts_(b, "| ");
    for (; *c; c++)
        if (*c == '|')
            puts_(b, "\\|");
        else
            put(b, c, 1);
    put(b, " ", 1);
}

static void markdown(sbuf *b, const st_sweep *sw, char ***rows, size_t n)
{
    for (size_t c = 0; c < sw->n_cols; c++)
        md_cell(b, sw->cols[c]);
    puts_(b, "|\n");
    for (size_t c = 0; c < sw->n_cols; c++)
        puts_(b, "|---");
    puts_(b, "|\n");
    for (size_t r = 0; r < n; r++) {
        for (size_t c = 0; c < sw->n_cols; c++)
            md_cell(b, rows[r][c]);
        puts_(b, "|\n");
    }
}

/* A cell as JSON: a number when the whole cell is one, a boolean, null when empty, else text. */
static cJSON *json_cell(const char *c)
{
    char *end;
    double v = strtod(c, &end);
    if (*c && !*end && isfinite(v) && !strchr(" \t", c[0]))
        return cJSON_CreateNumber(v);
    if (strcmp(c, "true") == 0 || strcmp(c, "false") == 0)
        return cJSON_CreateBool(c[0] == 't');
    return *c ? cJSON_CreateString(c) : cJSON_CreateNull();
}

static void json(sbuf *b, const st_sweep *sw, char ***rows, size_t n)
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
            cJSON_AddItemToObject(o, sw->cols[c], json_cell(rows[r][c]));
        cJSON_AddItemToArray(pts, o);
    }
    char *text = st_cli_json_print(root);
    puts_(b, text);
    free(text);
}

char *st_sweep_render(const st_sweep *sw, char ***rows, size_t n, st_sweep_format f)
{
    sbuf b = {0};
    puts_(&b, "");
    if (f == ST_SWEEP_CSV)
        csv(&b, sw, rows, n);
    else if (f == ST_SWEEP_JSON || f == ST_SWEEP_HTML)
        json(&b, sw, rows, n);
    else
        markdown(&b, sw, rows, n);
    if (f != ST_SWEEP_HTML)
        return b.s;
    char *doc = st_sweep_html(sw, b.s);
    free(b.s);
    return doc;
}
