/* Sweep axes from `PATH=V1,V2,...` with arithmetic and geometric ranges, and the mixed-radix
 * numbering of the points. */
#include "planner/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/override.h"
#include "scenarios/ytree.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

static void push(st_grid_axis *a, const char *text, size_t len)
{
    a->values = st_xgrow(a->values, sizeof *a->values, a->n + 1, &a->cap);
    a->values[a->n++] = st_xstrndup(text, len);
}

/* How many bytes of s[0..len) a message quotes: at most 60, cut at a character boundary (never
 * inside a UTF-8 sequence); *more says whether it was cut. */
static int clip(const char *s, size_t len, const char **more)
{
    size_t n = st_utf8_fit(s, len, 60);
    *more = n < len ? ST_UTF8_CUT_MARK : "";
    return (int)n;
}

/* A range's end or step: a plain decimal number as the loader reads one (sim/units.h: no hex,
 * NaN or infinity, nothing past a double's range), so that a range and a single value take one
 * grammar: 0x10 is refused in both. */
static int number(const char *s, size_t len, double *out)
{
    return len && !st_unit_parse_n(s, len, ST_DIM_RATIO, ST_UNIT_PLAIN, out, NULL, 0) ? 0 : -1;
}

/* Whether s[0..len) is a number in any spelling strtod reads (hex, NaN, infinity, one past a
 * double's range among them): what someone means as a range's end, so that a range of such is
 * refused by number() rather than taken as a value of its own and run as an invalid point. */
static int numberish(const char *s, size_t len)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    strtod(buf, &end);
    return end != buf && !*end;
}

/* The '*' or '+' of item[0..len) after its ".." at dots that splits the rest into two numbers
 * (the first such: a '+' may also be an exponent's sign, 1..1e+3+1), or NULL. */
static const char *range_op(const char *item, size_t len, const char *dots)
{
    const char *end = item + len;
    for (const char *op = dots + 2; op < end; op++)
        if ((*op == '*' || *op == '+') && numberish(dots + 2, (size_t)(op - dots - 2)) &&
            numberish(op + 1, (size_t)(end - op - 1)))
            return op;
    return NULL;
}

/* Whether item[0..len), with ".." at dots, is meant as a range: a number before the "..", or a
 * range's B*K or B+S after it. A path such as ../cal.yaml or a name with two dots is a value. */
static int range_shaped(const char *item, size_t len, const char *dots)
{
    return numberish(item, (size_t)(dots - item)) || range_op(item, len, dots);
}

/* The value as text: integers without a decimal point, others with 15 significant digits. */
static void push_number(st_grid_axis *a, double v)
{
    char buf[64];
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, sizeof buf, "%.0f", v);
    else
        snprintf(buf, sizeof buf, "%.15g", v);
    push(a, buf, strlen(buf));
}

/* "range 'ITEM': what" into why; -1. */
static int range_bad(const char *item, size_t len, const char *what, char *why, size_t n)
{
    const char *more;
    int q = clip(item, len, &more);
    snprintf(why, n, "range '%.*s%s': %s", q, item, more, what);
    return -1;
}

#define RANGE_SHAPE "expected A..B*FACTOR or A..B+STEP with numbers A <= B"

/* A range's end or step s[0..n_s) into *out: 0, or -1 saying it is no number to the loader. */
static int plain_part(const char *item, size_t len, const char *s, size_t n_s, double *out,
                      char *why, size_t n)
{
    if (!number(s, n_s, out))
        return 0;
    const char *more;
    char what[200];
    int q = clip(s, n_s, &more);
    snprintf(what, sizeof what,
             "'%.*s%s' is not a plain decimal number, as a scenario's numbers are (no hex, NaN "
             "or infinity, none past a double's range)",
             q, s, more);
    return range_bad(item, len, what, why, n);
}

/* Expand `A..B*K` or `A..B+S` (item[0..len), which holds ".." at dots). */
static int add_range(st_grid_axis *a, const char *item, size_t len, const char *dots, char *why,
                     size_t n)
{
    const char *op = range_op(item, len, dots);
    double lo, hi, by;
    if (!op)
        return range_bad(item, len, RANGE_SHAPE, why, n);
    if (plain_part(item, len, item, (size_t)(dots - item), &lo, why, n) ||
        plain_part(item, len, dots + 2, (size_t)(op - dots - 2), &hi, why, n) ||
        plain_part(item, len, op + 1, (size_t)(item + len - op - 1), &by, why, n))
        return -1;
    if (lo > hi)
        return range_bad(item, len, RANGE_SHAPE, why, n);
    int geo = *op == '*';
    if (geo ? !(by > 1 && lo > 0) : !(by > 0))
        return range_bad(item, len,
                         geo ? "the factor must be more than 1 and the start more than 0"
                             : "the step must be more than 0",
                         why, n);
    /* Steps are counted, not accumulated, so 0..1+0.1 ends at 1 and not 0.99999. */
    for (double k = 0;; k++) {
        double v = geo ? lo * pow(by, k) : lo + k * by;
        if (v > hi + fabs(hi) * 1e-12 + (geo ? 0 : by * 1e-9)) /* rounding, not a value more */
            break;
        if (a->n >= ST_GRID_MAX_VALUES) {
            snprintf(why, n, "more than %d values, the most one --set may have",
                     ST_GRID_MAX_VALUES);
            return -1;
        }
        push_number(a, v);
    }
    return 0;
}

/* Whether c is white space around a value: YAML drops it around a plain scalar, and the loader's
 * number reader around a number, so ' 2' is the point '2' (it was a second one, and a CSV cell
 * and a JSON string with its space). */
static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int add_items(st_grid_axis *a, const char *list, char *why, size_t n)
{
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *item = p;
        while (len && blank(*item))
            item++, len--;
        while (len && blank(item[len - 1]))
            len--;
        if (len == 0) {
            const char *more;
            int q = clip(list, strlen(list), &more);
            snprintf(why, n, "an empty value in '%.*s%s'", q, list, more);
            return -1;
        }
        const char *dots = strstr(item, "..");
        if (dots && dots < item + len && range_shaped(item, len, dots)) {
            if (add_range(a, item, len, dots, why, n))
                return -1;
        } else if (a->n >= ST_GRID_MAX_VALUES) {
            snprintf(why, n, "more than %d values, the most one --set may have",
                     ST_GRID_MAX_VALUES);
            return -1;
        } else {
            push(a, item, len);
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* A value as the loader reads it: a number, with or without its unit, by its value in its
 * dimension (1.0 is 1, 1us is 1000 ns; a bare number and a count one dimension, as 2K is 2000),
 * anything else by its text. */
typedef struct read_as {
    const char *text;
    int num; /* 1: dim and v hold the number */
    int dim;
    double v;
} read_as;

static read_as read_value(const char *text)
{
    read_as r = {.text = text};
    st_dim d = st_unit_sniff(text);
    if (d != ST_DIM__COUNT && st_unit_parse(text, d, &r.v, NULL, 0) == 0) {
        r.num = 1;
        r.dim = d == ST_DIM_COUNT ? ST_DIM_RATIO : (int)d;
    }
    return r;
}

static int by_reading(const void *x, const void *y)
{
    const read_as *a = x, *b = y;
    if (a->num != b->num)
        return a->num - b->num;
    if (!a->num)
        return strcmp(a->text, b->text);
    if (a->dim != b->dim)
        return a->dim - b->dim;
    return (a->v > b->v) - (a->v < b->v);
}

/* A value given twice on one axis (a list that repeats one, a range over a listed value, 1 and
 * 1.0) would be two points the loader reads as one: the same run twice. 0, or -1 naming the first
 * repeated (sorted, n log n: an axis holds up to 10,000). */
static int repeated(const st_grid_axis *a, char *why, size_t n)
{
    read_as *v = st_xmalloc((a->n ? a->n : 1) * sizeof *v);
    for (size_t i = 0; i < a->n; i++)
        v[i] = read_value(a->values[i]);
    qsort(v, a->n, sizeof *v, by_reading);
    int rc = 0;
    for (size_t i = 1; i < a->n && !rc; i++)
        if (by_reading(&v[i - 1], &v[i]) == 0) {
            const char *m1, *m2;
            int q1 = clip(v[i - 1].text, strlen(v[i - 1].text), &m1);
            int q2 = clip(v[i].text, strlen(v[i].text), &m2);
            if (strcmp(v[i - 1].text, v[i].text) == 0)
                snprintf(why, n, "the value '%.*s%s' is given twice", q2, v[i].text, m2);
            else
                snprintf(why, n,
                         "'%.*s%s' and '%.*s%s' are the same value given twice: the scenario "
                         "reads them alike",
                         q1, v[i - 1].text, m1, q2, v[i].text, m2);
            rc = -1;
        }
    free(v);
    return rc;
}

static void axis_free(st_grid_axis *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->values[i]);
    free(a->values);
    free(a->path);
    memset(a, 0, sizeof *a);
}

int st_grid_add(st_grid *g, const char *arg, char *why, size_t n)
{
    const char *eq = strchr(arg, '=');
    size_t len = strlen(arg), bad_at = st_utf8_check(arg, len);
    if (bad_at < len) { /* a value goes into the scenario's text, which is UTF-8 */
        snprintf(why, n, "not valid UTF-8 (byte %zu)", bad_at + 1);
        return -1;
    }
    if (!eq) {
        snprintf(why, n, "expected PATH=VALUE,VALUE,..., found no '='");
        return -1;
    }
    long bad_c = st_ytree_bad_char((const unsigned char *)arg, len); /* as a file's values */
    if (bad_c >= 0) {
        snprintf(why, n,
                 "a control character (U+%04lX): values are printed to terminals and reports, "
                 "so they hold none but tab and line breaks",
                 (unsigned long)bad_c);
        return -1;
    }
    for (const char *v = eq + 1, *end; *v; v = *end ? end + 1 : end) { /* a file's cap */
        end = v + strcspn(v, ",");
        if ((size_t)(end - v) > ST_YTREE_MAX_SCALAR) {
            snprintf(why, n, "a value of %zu bytes exceeds the limit of %d bytes",
                     (size_t)(end - v), ST_YTREE_MAX_SCALAR);
            return -1;
        }
    }
    if (g->n_ax >= ST_GRID_MAX_AXES) {
        snprintf(why, n, "more than %d --set options, the most a sweep may have", ST_GRID_MAX_AXES);
        return -1;
    }
    st_grid_axis a = {.path = st_xstrndup(arg, (size_t)(eq - arg))};
    int bad =
        st_scn_set_check(a.path, why, n) || add_items(&a, eq + 1, why, n) || repeated(&a, why, n);
    for (size_t i = 0; !bad && i < g->n_ax; i++)
        if (strcmp(g->ax[i].path, a.path) == 0) {
            const char *more;
            int q = clip(a.path, strlen(a.path), &more);
            snprintf(why, n, "%.*s%s is swept by an earlier --set", q, a.path, more);
            bad = 1;
        }
    size_t points = g->n_ax ? g->n_points : 1;
    if (!bad && (double)points * (double)a.n > ST_GRID_MAX_POINTS) {
        snprintf(why, n, "the grid would have %.0f points, more than the %d a sweep may have",
                 (double)points * (double)a.n, ST_GRID_MAX_POINTS);
        bad = 1;
    }
    if (bad) {
        axis_free(&a);
        return -1;
    }
    g->ax[g->n_ax++] = a;
    g->n_points = points * a.n;
    return 0;
}

size_t st_grid_value(const st_grid *g, size_t p, size_t axis)
{
    for (size_t k = g->n_ax; k-- > axis + 1;)
        p /= g->ax[k].n;
    return p % g->ax[axis].n;
}

void st_grid_free(st_grid *g)
{
    for (size_t i = 0; i < g->n_ax; i++)
        axis_free(&g->ax[i]);
    g->n_ax = 0;
    g->n_points = 1;
}
