/* Table-driven reading of located YAML mappings: keys, units, ranges, enums, did-you-mean. */
#include "scenarios/reader.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* msg (malloc'd, freed here) with each copy of text, a value longer than ST_UTF8_QUOTE_MAX
 * bytes, cut as ST_UTF8_QUOTED cuts it; malloc'd. */
static char *shorten(char *msg, const char *text)
{
    size_t tl = strlen(text), ml = strlen(msg), mark = sizeof ST_UTF8_CUT_MARK - 1;
    size_t keep = st_utf8_fit(text, tl, ST_UTF8_QUOTE_MAX);
    char *out = st_xmalloc(ml + (ml / tl + 1) * mark + 1), *o = out;
    for (const char *s = msg, *hit; *s; s = hit + tl) {
        if (!(hit = strstr(s, text))) {
            strcpy(o, s);
            o += strlen(s);
            break;
        }
        memcpy(o, s, (size_t)(hit - s));
        o += hit - s;
        memcpy(o, text, keep);
        memcpy(o + keep, ST_UTF8_CUT_MARK, mark);
        o += keep + mark;
    }
    *o = '\0';
    free(msg);
    return out;
}

int st_rd_fail(st_rd *rd, const st_ynode *n, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = st_xvasprintf(fmt, ap);
    va_end(ap);
    /* A long value quoted whole, "unknown model '<300 characters>' (`strata catalog` lists the
     * presets)", was cut at the message's 256 bytes, inside a character and before its closing
     * quote and hint: the node's own text is the value such a message quotes, so it is cut
     * instead. (What else runs past is cut between characters by st_diag_add.) */
    if (n && n->text && strlen(msg) >= sizeof(((st_err *)0)->msg) &&
        strlen(n->text) > ST_UTF8_QUOTE_MAX)
        msg = shorten(msg, n->text);
    st_loc at = n ? n->loc : (st_loc){rd->file, 0, 0};
    st_diag_add(rd->diag, code, at, "%s", msg);
    free(msg);
    return -1;
}

void *st_rd_alloc(st_rd *rd, size_t n)
{
    st_strpool *p = rd->pool;
    p->items = st_xgrow(p->items, sizeof *p->items, p->n + 1, &p->cap);
    return p->items[p->n++] = st_xcalloc(n ? n : 1, 1);
}

const char *st_rd_strdup(st_rd *rd, const char *s)
{
    st_strpool *p = rd->pool;
    p->items = st_xgrow(p->items, sizeof *p->items, p->n + 1, &p->cap);
    return p->items[p->n++] = st_xstrdup(s);
}

const char *st_rd_strndup(st_rd *rd, const char *s, size_t len)
{
    st_strpool *p = rd->pool;
    p->items = st_xgrow(p->items, sizeof *p->items, p->n + 1, &p->cap);
    return p->items[p->n++] = st_xstrndup(s, len);
}

void st_strpool_release(st_strpool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->items[i]);
    free(p->items);
    memset(p, 0, sizeof *p);
}

/* Edit distance counting a swap of two neighbours as one edit (optimal string alignment),
 * since "nodse" for "nodes" is the typo people make. Keys are short; longer words are not
 * compared. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

static int starts_with_nocase(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (!*s || tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return 0;
    return 1;
}

/* Candidates word begins, ignoring case (so "H100-SXM" finds "h100-sxm"), shortest first; an
 * insertion sort keeps ties in candidate order and the ST_NEAR_MAX shortest. */
static size_t prefix_matches(const char *word, const char *const *cand, size_t n, const char **out)
{
    size_t len = strlen(word), k = 0;
    if (len < 2)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (strlen(cand[i]) < len || strcmp(cand[i], word) == 0 ||
            !starts_with_nocase(cand[i], word))
            continue;
        size_t at = k < ST_NEAR_MAX ? k : ST_NEAR_MAX;
        while (at > 0 && strlen(out[at - 1]) > strlen(cand[i]))
            at--;
        if (at < ST_NEAR_MAX) {
            for (size_t j = (k < ST_NEAR_MAX ? k : ST_NEAR_MAX - 1); j > at; j--)
                out[j] = out[j - 1];
            out[at] = cand[i];
        }
        k++;
    }
    return k;
}

size_t st_near_names(const char *word, const char *const *candidates, size_t n, const char **out)
{
    size_t k = prefix_matches(word, candidates, n, out);
    if (k)
        return k;
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strlen(word);
    size_t limit = len / 3 > 1 ? len / 3 : 1;
    for (size_t i = 0; i < n; i++) {
        /* The distance is at least the difference in length: a candidate past the limit by that
         * alone can be neither the answer nor beat one, so its table is not filled. */
        size_t lc = strlen(candidates[i]);
        if ((lc > len ? lc - len : len - lc) > limit)
            continue;
        size_t d = edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    if (best_d > limit)
        return 0;
    out[0] = best;
    return 1;
}

const char *st_did_you_mean(const char *word, const char *const *candidates, size_t n, char *buf,
                            size_t len)
{
    const char *near[ST_NEAR_MAX];
    size_t k = st_near_names(word, candidates, n, near);
    if (k == 0)
        st_snprintf(buf, len, "%s", "");
    else if (k == 1)
        st_snprintf(buf, len, "; did you mean '%s'?", near[0]);
    else if (k == 2)
        st_snprintf(buf, len, "; did you mean '%s' or '%s'?", near[0], near[1]);
    else if (k == 3)
        st_snprintf(buf, len, "; did you mean '%s', '%s' or '%s'?", near[0], near[1], near[2]);
    else
        st_snprintf(buf, len, "; did you mean one of '%s', '%s', '%s', ...?", near[0], near[1],
                    near[2]);
    return buf;
}

static size_t field_names(const st_field *fields, const char **names, size_t cap)
{
    size_t n = 0;
    for (const st_field *f = fields; f->key && n < cap; f++)
        names[n++] = f->key;
    return n;
}

int st_rd_misspelt(const st_ynode *m, const st_field *fields, const char *key)
{
    const char *names[64], *near[ST_NEAR_MAX];
    size_t nn = field_names(fields, names, 64);
    for (size_t i = 0; m && m->kind == ST_YN_MAP && i < m->n; i++) {
        const char *k = m->keys[i]->text;
        size_t j = 0;
        while (j < nn && strcmp(names[j], k) != 0)
            j++;
        if (j < nn)
            continue; /* a known key */
        size_t hits = st_near_names(k, names, nn, near);
        for (size_t h = 0; h < hits && h < ST_NEAR_MAX; h++)
            if (strcmp(near[h], key) == 0)
                return 1;
    }
    return 0;
}

int st_rd_skip(st_rd *rd, const st_ynode *n, void *base)
{
    (void)rd, (void)n, (void)base;
    return 0;
}

int st_rd_list_limit(st_rd *rd, const st_ynode *n, const char *what, size_t max)
{
    if (n->kind != ST_YN_SEQ || n->n <= max)
        return 0;
    return st_rd_fail(rd, n, ST_ELIMIT, "%s: %zu entries, more than the limit of %zu", what, n->n,
                      max);
}

static const char *const *dup_names; /* qsort has no context argument in C11 */

static int by_name_then_index(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(dup_names[i], dup_names[j]);
    return c ? c : (i > j) - (i < j);
}

long st_first_dup_name(const char *const *names, size_t n, long *first)
{
    size_t *idx = st_xmalloc((n ? n : 1) * sizeof *idx), k = 0;
    for (size_t i = 0; i < n; i++)
        if (names[i])
            idx[k++] = i;
    dup_names = names;
    qsort(idx, k, sizeof *idx, by_name_then_index);
    dup_names = NULL;
    long dup = -1;
    for (size_t g = 1; g < k; g++)
        if (strcmp(names[idx[g]], names[idx[g - 1]]) == 0 &&
            (g < 2 || strcmp(names[idx[g - 2]], names[idx[g]]) != 0) &&
            (dup < 0 || idx[g] < (size_t)dup)) {
            dup = (long)idx[g];
            *first = (long)idx[g - 1];
        }
    free(idx);
    return dup;
}

int st_rd_expect(st_rd *rd, const st_ynode *n, st_ynode_kind kind, const char *what)
{
    if (n->kind == kind && !(kind == ST_YN_SCALAR && st_ynode_is_null(n)))
        return 0;
    const char *want = kind == ST_YN_MAP ? "a mapping" : kind == ST_YN_SEQ ? "a list" : "a value";
    return st_rd_fail(rd, n, ST_EINVAL, "%s: expected %s, found %s", what, want,
                      st_ynode_kind_name(n));
}

/* The field's own cap (.max, 0: none), after the range rule: "tp of '2e6' is beyond the
 * supported limit of 1000000". */
static int check_max(st_rd *rd, const st_ynode *n, const char *key, double max, double v)
{
    if (!(max > 0 && v > max))
        return 0;
    char cap[40]; /* a whole cap as its digits: 9007199254740992, not 9.00719925474099e+15 */
    snprintf(cap, sizeof cap, max == floor(max) && max < 1e17 ? "%.0f" : "%.15g", max);
    return st_rd_fail(rd, n, ST_ELIMIT, "%s of '%s' is beyond the supported limit of %s", key,
                      n->text, cap);
}

/* One value under its rule through st_limit_parse, the parser every source of a number shares
 * (the trace reader and the command line too), its message located at n. */
static int read_value(st_rd *rd, const st_ynode *n, const char *key, const st_value_rule *r,
                      double *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    char why[256];
    int rc = st_limit_parse(key, n->text, strlen(n->text), r, out, why, sizeof why);
    return rc ? st_rd_fail(rd, n, rc, "%s", why) : 0;
}

int st_rd_dim(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r, double max,
              double *out)
{
    return st_rd_dim_lim_max(rd, n, key, dim, r, NULL, max, out);
}

int st_rd_dim_lim(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r,
                  const st_limit *lim, double *out)
{
    return st_rd_dim_lim_max(rd, n, key, dim, r, lim, 0, out);
}

int st_rd_dim_lim_max(st_rd *rd, const st_ynode *n, const char *key, st_dim dim, st_range r,
                      const st_limit *lim, double max, double *out)
{
    st_value_rule rule = {.dim = dim, .range = r, .lim = lim};
    double v;
    if (read_value(rd, n, key, &rule, &v) || check_max(rd, n, key, max, v))
        return -1;
    *out = v;
    return 0;
}

int st_rd_int(st_rd *rd, const st_ynode *n, const char *key, st_range r, double max, int64_t *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    /* The sign rule waits until the number is known to be whole and within 2^53, so that
     * "-1.5" says "whole" first, as it always has. */
    st_value_rule rule = {.dim = ST_DIM_COUNT, .range = ST_R_ANY, .whole = 1};
    double v;
    if (read_value(rd, n, key, &rule, &v))
        return -1;
    if (v > 9.0e15 && max > 0 && v > max) /* the field's own cap, however far over it */
        return check_max(rd, n, key, max, v);
    /* beyond 2^53 a double no longer holds every whole number; a cap between 9e15 and 2^53
       (the seed's) is the field's own, and a value within it is read, not dropped */
    if (fabs(v) > 9.0e15 && !(max > 0 && v >= 0 && v <= max))
        return st_rd_fail(rd, n, ST_ELIMIT, "%s of '%s' is beyond the supported limit of 9e15", key,
                          n->text);
    if (!st_range_holds(v, r))
        return st_rd_fail(rd, n, ST_ERANGE, "%s %s, found '%s'", key, st_range_words(r), n->text);
    if (check_max(rd, n, key, max, v))
        return -1;
    *out = (int64_t)v;
    return 0;
}

int st_rd_str(st_rd *rd, const st_ynode *n, const char *key, const char **out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    /* an empty name printed as "job : ..." and "pool  (h100-sxm)" (a fuzzing find); a name of
     * spaces alone printed the same, and was taken */
    if (!n->text[strspn(n->text, " \t\r\n")]) { /* its tabs and newlines as \xNN, one line */
        char *shown = st_utf8_one_line(n->text);
        int rc = st_rd_fail(rd, n, ST_EINVAL,
                            "%s: expected a string that is not blank (empty or spaces only), "
                            "found '%s'",
                            key, shown);
        free(shown);
        return rc;
    }
    *out = st_rd_strdup(rd, n->text);
    return 0;
}

/* The names, comma-separated, whole: a list longer than buf ends with how many it leaves out
 * rather than half a name. */
static void join_names(const char *const *names, char *buf, size_t len)
{
    static const size_t tail = sizeof ", and 9999 more";
    size_t used = 0, i = 0, n = 0;
    while (names[n])
        n++;
    buf[0] = '\0';
    for (; i < n; i++) {
        size_t need = strlen(names[i]) + (i ? 2 : 0);
        if (used + need + (i + 1 < n ? tail : 1) > len)
            break;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    }
    if (i < n)
        snprintf(buf + used, len - used, "%sand %zu more", i ? ", " : "", n - i);
}

int st_rd_enum(st_rd *rd, const st_ynode *n, const char *key, const char *const *names, int *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], n->text) == 0) {
            *out = i;
            return 0;
        }
    size_t count = 0;
    while (names[count])
        count++;
    char near[200], head[sizeof((st_err *)0)->msg], list[sizeof head];
    st_did_you_mean(n->text, names, count, near, sizeof near);
    /* a long unknown value cut between characters, and the list takes what the message has
     * left, whole names (at most 160 characters; none where too little is left) */
    st_snprintf(head, sizeof head, "unknown %s '%.*s%s'%s", key, ST_UTF8_QUOTED(n->text), near);
    size_t used = strlen(head) + sizeof " (one of: )";
    if (used + 24 > sizeof head)
        return st_rd_fail(rd, n, ST_EINVAL, "%s", head);
    size_t room = sizeof head - used;
    join_names(names, list, room > 160 ? 160 : room);
    return st_rd_fail(rd, n, ST_EINVAL, "%s (one of: %s)", head, list);
}

static int read_bool(st_rd *rd, const st_ynode *n, const char *key, int *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    if (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0) {
        *out = n->text[0] == 't';
        return 0;
    }
    return st_rd_fail(rd, n, ST_EINVAL, "%s: expected true or false, found '%s'", key, n->text);
}

static int read_field(st_rd *rd, const st_field *f, const st_ynode *n, void *base, const char *what)
{
    char *p = (char *)base + f->off;
    int64_t i64;
    switch (f->kind) {
    case ST_F_DIM:
        return st_rd_dim_lim_max(rd, n, f->key, f->dim, f->range, f->lim, f->max, (double *)p);
    case ST_F_INT:
        if (st_rd_int(rd, n, f->key, f->range, f->max, &i64))
            return -1;
        if (f->size == sizeof(int))
            *(int *)p = (int)i64;
        else
            *(int64_t *)p = i64;
        return 0;
    case ST_F_ENUM:
        return st_rd_enum(rd, n, f->key, f->names, (int *)p);
    case ST_F_BOOL:
        return read_bool(rd, n, f->key, (int *)p);
    case ST_F_STR:
        return st_rd_str(rd, n, f->key, (const char **)p);
    case ST_F_MAP: {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.%s", what, f->key);
        return st_rd_map(rd, n, f->sub, base, sub);
    }
    case ST_F_FN:
        return f->fn(rd, n, base);
    }
    ST_BUG("field kind %d", (int)f->kind);
}

static int unknown_key(st_rd *rd, const st_ynode *key, const st_field *fields, const char *what)
{
    const char *names[64];
    size_t n = field_names(fields, names, 64);
    char near[200];
    st_did_you_mean(key->text, names, n, near, sizeof near);
    return st_rd_fail(rd, key, ST_EINVAL, "unknown key '%s' in %s%s", key->text, what, near);
}

void st_rd_mark_failed(st_rd *rd, const st_ynode *n)
{
    st_failset *f = &rd->failed;
    if (!n || st_rd_failed(rd, n))
        return;
    f->items = st_xgrow(f->items, sizeof *f->items, f->n + 1, &f->cap);
    f->items[f->n++] = n;
}

/* A linear scan: the set holds one node per reported error, and loading stops at 20. */
int st_rd_failed(const st_rd *rd, const st_ynode *n)
{
    for (size_t i = 0; n && i < rd->failed.n; i++)
        if (rd->failed.items[i] == n)
            return 1;
    return 0;
}

int st_rd_any_failed(const st_rd *rd, const st_ynode *m, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++)
        if (st_rd_failed(rd, st_ynode_get(m, keys[i])))
            return 1;
    return 0;
}

void st_rd_release(st_rd *rd)
{
    free(rd->failed.items);
    memset(&rd->failed, 0, sizeof rd->failed);
}

static int errors_so_far(const st_rd *rd)
{
    return rd->diag->n + rd->diag->dropped;
}

int st_rd_map(st_rd *rd, const st_ynode *n, const st_field *fields, void *base, const char *what)
{
    if (st_rd_expect(rd, n, ST_YN_MAP, what))
        return -1;
    int before = errors_so_far(rd);
    for (size_t i = 0; i < n->n && !st_diag_full(rd->diag); i++) {
        const st_field *f = fields;
        while (f->key && strcmp(f->key, n->keys[i]->text) != 0)
            f++;
        int at = errors_so_far(rd);
        /* An unknown key's value is marked too: it may be the value a check needed. */
        if (!f->key)
            unknown_key(rd, n->keys[i], fields, what);
        if (!f->key || read_field(rd, f, n->kids[i], base, what) || errors_so_far(rd) > at)
            st_rd_mark_failed(rd, n->kids[i]);
    }
    for (const st_field *f = fields; f->key; f++)
        if (f->required && !st_ynode_get(n, f->key))
            st_rd_fail(rd, n, ST_EINVAL, "%s: missing required key '%s'", what, f->key);
    /* Full diagnostics stop the reading: keys not read yet are not there for the caller, which
     * must not take the map as read (a trace's unread file name was opened as NULL). */
    return errors_so_far(rd) > before || st_diag_full(rd->diag) ? -1 : 0;
}
