/* The report tree's leaves, their paths and how a reader sees them (report/report.h). The unit of a
 * number is its row's in the report's schema (report/figures.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* Whether array node at path is a series (its members' rows are ST_FIG_SERIES): charted, not
 * tabled. */
static int is_series(const cJSON *node, const char *path)
{
    const cJSON *first = node->child;
    if (!first || !cJSON_IsObject(first) || !first->child || !first->child->string)
        return 0;
    char *leaf = st_xasprintf("%s[0].%s", path, first->child->string);
    const st_fig *f = st_fig_find(ST_DOC_RUN, leaf);
    free(leaf);
    return f && (f->flags & ST_FIG_SERIES);
}

void st_report_leaves(const cJSON *node, const char *prefix, st_report_leaf_fn fn, void *ctx)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) {
        fn(ctx, prefix, node);
        return;
    }
    if (cJSON_IsArray(node) && is_series(node, prefix))
        return;
    size_t i = 0, plen = strlen(prefix);
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        size_t n = plen + (c->string ? strlen(c->string) : 24) + 4;
        char *path = st_xmalloc(n);
        if (cJSON_IsArray(node))
            snprintf(path, n, "%s[%zu]", prefix, i);
        else
            snprintf(path, n, "%s%s%s", prefix, plen ? "." : "", c->string);
        st_report_leaves(c, path, fn, ctx);
        free(path);
    }
}

/* A string leaf: its own text, whole; buf gets a copy cut on a character boundary (with
 * ST_UTF8_CUT_MARK) for a caller that reads buf. */
static const char *leaf_text(const cJSON *leaf, char *buf, size_t n)
{
    st_snprintf(buf, n, "%s", leaf->valuestring);
    return leaf->valuestring;
}

/* Every number these write fits: st_unit_format's longest form and cJSON's 17 digits are well
 * under 64 bytes, and a caller's buffer is at least that (report.h). Text is never copied
 * whole into buf: the leaf's own string is returned, so no name is cut. */
const char *st_report_value_text(st_fig_doc doc, const char *path, const cJSON *leaf, char *buf,
                                 size_t n)
{
    if (cJSON_IsNumber(leaf)) {
        const st_fig *f = st_fig_find(doc, path);
        st_fig_number_text(f ? f->unit : ST_FU_NUMBER, leaf->valuedouble, buf, n);
    } else if (cJSON_IsString(leaf)) { /* an enum's value in a reader's words; CSV keeps it */
        const char *w = st_fig_words(st_fig_find(doc, path), leaf->valuestring);
        return w != leaf->valuestring ? w : leaf_text(leaf, buf, n);
    } else if (cJSON_IsBool(leaf)) /* a reader's words; CSV keeps the JSON's true and false */
        snprintf(buf, n, "%s", cJSON_IsTrue(leaf) ? "yes" : "no");
    else { /* null: a money figure's is a part with no price (models/cost/cost.h) */
        const st_fig *f = st_fig_find(doc, path);
        snprintf(buf, n, "%s",
                 f && st_fig_unit_dim(f->unit) == ST_DIM_MONEY ? "not priced" : "null");
    }
    return buf;
}

int st_report_whole_digits(double v)
{
    if (v != floor(v) || fabs(v) < 1e15 || fabs(v) > 9007199254740992.0)
        return 0;
    char g[32]; /* cJSON's first form, which it keeps when it reads back within 2^-52 */
    snprintf(g, sizeof g, "%1.15g", v);
    return strtod(g, NULL) != v;
}

void st_report_number_exact(double v, char *buf, size_t n)
{
    if (st_report_whole_digits(v)) {
        snprintf(buf, n, "%.0f", v); /* as st_report_json_print writes it: a seed exact */
        return;
    }
    cJSON item = {0}; /* on the stack: one cell of a sweep of thousands allocates nothing */
    item.type = cJSON_Number;
    cJSON_SetNumberValue(&item, v);
    if (!isfinite(v) || !cJSON_PrintPreallocated(&item, buf, (int)n, 0))
        st_snprintf(buf, n, "%s", "");
}

const char *st_report_value_exact(const cJSON *leaf, char *buf, size_t n)
{
    if (cJSON_IsString(leaf))
        return leaf_text(leaf, buf, n);
    if (cJSON_IsNumber(leaf)) {
        st_report_number_exact(leaf->valuedouble, buf, n);
        return buf;
    }
    char *t = cJSON_PrintUnformatted(leaf);
    st_snprintf(buf, n, "%s", t ? t : "null");
    cJSON_free(t);
    return buf;
}

cJSON *st_report_tree(const st_report *rep)
{
    char *json = st_report_json(rep);
    cJSON *t = cJSON_Parse(json);
    free(json);
    if (!t)
        ST_BUG("the JSON report does not parse back");
    return t;
}

FILE *st_report_open(char **buf, size_t *len)
{
    *buf = NULL;
    FILE *out = open_memstream(buf, len);
    if (!out)
        ST_BUG("open_memstream failed");
    return out;
}

char *st_report_close(FILE *out, char **buf)
{
    if (fclose(out) != 0 || !*buf)
        ST_BUG("writing a report in memory failed");
    return *buf;
}

/* Whether s is wholly a number as JSON writes one (RFC 8259, section 6): -?int(.frac)?(exp)?. */
static int json_number(const char *s)
{
    const char *p = s + (*s == '-');
    if (!isdigit((unsigned char)*p))
        return 0;
    if (*p == '0')
        p++;
    else
        while (isdigit((unsigned char)*p))
            p++;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p += p[1] == '+' || p[1] == '-' ? 2 : 1;
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == '\0';
}

/* OWASP's rule against CSV injection ("CSV Injection", owasp.org/www-community/attacks/
 * CSV_Injection): a spreadsheet runs a cell that begins with = + - @, a tab or a carriage return
 * as a formula (=cmd|' /C calc'!A0 starts a program), so such a cell is written with a single
 * quote before it, which makes it text, and quoted, so that no separator inside it starts a
 * cell of its own. The writer is not told a cell's type: it leaves a cell that is wholly a JSON
 * number (-3.5, 1e-05) as it is, since a number is not a formula and a spreadsheet must read the
 * number the JSON report holds; every other cell is text. A text cell that is a number (a job
 * named -5) is then a number to the spreadsheet, which runs nothing. */
static int formula_like(const char *s)
{
    return s[0] && strchr("=+-@\t\r", s[0]) && !json_number(s);
}

void st_report_csv_cell(FILE *out, const char *s)
{
    int neutral = formula_like(s);
    if (!neutral && !strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputs(neutral ? "\"'" : "\"", out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static int ascii_alnum(char c)
{
    return isalnum((unsigned char)c) && (unsigned char)c < 0x80;
}

/* A Markdown (CommonMark with GitHub's tables) cell runs nothing and stays one cell: & < > as
 * HTML entities, so no raw HTML (<script>) and no autolink (<javascript:...>) can form; | and
 * the backslash escaped, so the cell ends where the writer ends it; [ and ] escaped, so no link
 * or image opens and no target (javascript:) is ever read; ` * _ escaped, so no code span or
 * emphasis spans cells. An underscore between two ASCII letters or digits (step_time_s) is left
 * as it is: inside a word it can neither open nor close emphasis (CommonMark 0.31, section 6.2).
 * Line breaks become spaces: a table row is one line. */
void st_report_md_cell(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '\n':
        case '\r':
            fputc(' ', out);
            break;
        case '_':
            if (p > s && ascii_alnum(p[-1]) && ascii_alnum(p[1])) {
                fputc('_', out);
                break;
            }
            /* fall through */
        case '|':
        case '\\':
        case '[':
        case ']':
        case '`':
        case '*':
            fputc('\\', out);
            /* fall through */
        default:
            fputc(*p, out);
        }
    }
}

char *st_report_leaf_label(const char *path, const char *key)
{
    const st_fig *f = st_fig_find(ST_DOC_RUN, path);
    if (!f)
        return st_xstrdup(key);
    const char *last = strrchr(path, '.'), *idx = strrchr(path, '[');
    if (f->flags & ST_FIG_STATS && last) /* "Goodput over the replicas (P90)" */
        return st_xasprintf("%s (%s)", f->label, st_fig_stat_label(last + 1));
    if (f->flags & ST_FIG_MAP && last)
        return st_xasprintf("%s (%s)", f->label, last + 1);
    size_t n = strlen(f->path);
    if (n > 6 && strcmp(f->path + n - 6, "band[]") == 0 && idx) /* a band's two ends, apart */
        return st_xasprintf("%s (%s end)", f->label, idx[1] == '0' ? "low" : "high");
    return st_xstrdup(f->label);
}

int st_report_ups_sized(const st_cluster_cfg *c)
{
    return !(c->facility.ups.rating_w > 0);
}

char *st_report_run_label(const st_report *rep, const char *path, const char *key)
{
    char *label = st_report_leaf_label(path, key);
    if (!st_report_ups_sized(st_scn_cluster(rep->s)) || strcmp(path, "power.ups.load") != 0)
        return label;
    char *more = st_xasprintf("%s, " ST_REPORT_UPS_SIZED, label);
    free(label);
    return more;
}
