/* Overrides by dotted path, applied to the located YAML tree before the typed load: a copy of
 * every mapping and list along the path (so aliases elsewhere keep their value), the new value
 * a plain scalar located at the override's label. The loader then reads it like any other. */
#include "scenarios/override.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/load_internal.h"
#include "scenarios/reader.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

typedef enum step_kind { STEP_KEY, STEP_INDEX, STEP_NAME } step_kind;

typedef struct step {
    step_kind kind;
    char text[128]; /* the key, the index's digits or the entry's name */
    size_t end;     /* the path up to and including this step is path[0..end) */
} step;

struct st_ovr {
    st_ynode **nodes; /* every node this arena made; their arrays and texts are its own */
    size_t n, cap;
};

static int key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

/* The number, from 1, of the character at path[i]: a continuation byte starts none, so a name
 * of 'é's before it does not move it. */
static size_t char_no(const char *path, size_t i)
{
    size_t no = 1;
    for (size_t k = 0; k < i; k++)
        no += ((unsigned char)path[k] & 0xc0) != 0x80;
    return no;
}

/* The character at s quoted whole into buf ('é', where its first byte alone printed '\xC3'), or
 * its one byte where it is no well-formed UTF-8 sequence. */
static const char *char_at(const char *s, char *buf, size_t n)
{
    unsigned char c = (unsigned char)*s;
    size_t len = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4, have = 0;
    while (have < len && s[have])
        have++;
    if (have < len || st_utf8_check(s, len) != len)
        len = 1;
    snprintf(buf, n, "'%.*s'", (int)len, s);
    return buf;
}

/* One selection `[...]` starting at path[i] == '['; returns the index after ']' or -1. */
static long parse_select(const char *path, size_t i, step *s, char *why, size_t n)
{
    const char *close = strchr(path + i, ']');
    size_t len = close ? (size_t)(close - path - i - 1) : 0;
    if (close && len >= sizeof s->text && !memchr(path + i + 1, '[', len)) {
        /* both are there: it read "needs an index or a name, then ']'" */
        snprintf(why, n,
                 "the name in '[...]' at character %zu of the path has %zu bytes, more than the "
                 "%zu a selection by name holds: select the entry by its index ([0] is the first)",
                 char_no(path, i), len, sizeof s->text - 1);
        return -1;
    }
    if (!close || len == 0 || memchr(path + i + 1, '[', len)) {
        snprintf(why, n, "'[' at character %zu of the path needs an index or a name, then ']'",
                 char_no(path, i));
        return -1;
    }
    memcpy(s->text, path + i + 1, len);
    s->text[len] = '\0';
    s->kind = strspn(s->text, "0123456789") == len ? STEP_INDEX : STEP_NAME;
    s->end = i + len + 2;
    return (long)s->end;
}

/* Split path into steps; the contract is st_scn_set_check's. */
static int parse_path(const char *path, step *steps, size_t *count, char *why, size_t n)
{
    size_t i = 0, k = 0;
    char ch[16];
    for (;;) {
        size_t start = i;
        while (key_char(path[i]))
            i++;
        if (k >= ST_SET_MAX_STEPS) {
            snprintf(why, n, "a path has at most %d steps", ST_SET_MAX_STEPS);
            return -1;
        }
        if (i - start >= sizeof steps[0].text) {
            snprintf(why, n,
                     "the key at character %zu of the path has %zu characters, more than the %zu "
                     "any key of the scenario has",
                     char_no(path, start), i - start, sizeof steps[0].text - 1);
            return -1;
        }
        if (i == start) {
            snprintf(why, n, "expected a key at character %zu of the path, found %s",
                     char_no(path, start),
                     path[start] ? char_at(path + start, ch, sizeof ch) : "its end");
            return -1;
        }
        steps[k] = (step){.kind = STEP_KEY, .end = i};
        memcpy(steps[k].text, path + start, i - start);
        steps[k++].text[i - start] = '\0';
        while (path[i] == '[') {
            if (k >= ST_SET_MAX_STEPS) {
                snprintf(why, n, "a path has at most %d steps", ST_SET_MAX_STEPS);
                return -1;
            }
            long next = parse_select(path, i, &steps[k++], why, n);
            if (next < 0)
                return -1;
            i = (size_t)next;
        }
        if (path[i] == '\0')
            break;
        if (path[i] != '.') {
            snprintf(why, n, "expected '.' or '[' at character %zu of the path, found %s",
                     char_no(path, i), char_at(path + i, ch, sizeof ch));
            return -1;
        }
        i++;
    }
    *count = k;
    return 0;
}

int st_scn_set_check(const char *path, char *why, size_t n)
{
    step steps[ST_SET_MAX_STEPS];
    size_t k;
    return parse_path(path, steps, &k, why, n);
}

/* The entry an index step selects: its digits without leading zeros, so `[00]` and `[0]` are one
 * entry (sweep.md), or -1 when more than 9 digits are left, past any list (a list holds far
 * fewer entries, and strtol needs none past a long's range). The selection and the canonical
 * form both read an index here, so a key the canonical form resolves is the key the load sets. */
static long step_index(const step *s)
{
    const char *d = s->text + strspn(s->text, "0");
    return strlen(d) < 10 ? strtol(d, NULL, 10) : -1;
}

/* out with text appended (out freed). */
static char *append(char *out, const char *text)
{
    char *next = st_xasprintf("%s%s", out, text);
    free(out);
    return next;
}

char *st_scn_set_canon(const st_ynode *root, const char *path)
{
    step steps[ST_SET_MAX_STEPS];
    size_t k;
    char why[160], sel[160];
    if (parse_path(path, steps, &k, why, sizeof why))
        return NULL;
    char *out = st_xstrdup("");
    const st_ynode *node = root; /* the node the steps so far name; NULL: not in the tree */
    for (size_t i = 0; i < k; i++) {
        const step *s = &steps[i];
        const st_ynode *at = node;
        node = NULL;
        if (s->kind == STEP_KEY) {
            out = append(out, i ? "." : "");
            out = append(out, s->text);
            node = at && at->kind == ST_YN_MAP ? st_ynode_get(at, s->text) : NULL;
            continue;
        }
        const st_ynode *seq = at && at->kind == ST_YN_SEQ ? at : NULL;
        if (s->kind == STEP_INDEX) {
            const char *d = s->text + strspn(s->text, "0");
            long e = step_index(s);
            snprintf(sel, sizeof sel, "[%s]", *d ? d : "0");
            if (seq && e >= 0 && (size_t)e < seq->n)
                node = seq->kids[e];
        } else {
            snprintf(sel, sizeof sel, "[%s]", s->text);
            for (size_t e = 0; seq && !node && e < seq->n; e++) {
                const st_ynode *name = st_ynode_get(seq->kids[e], "name");
                if (name && name->kind == ST_YN_SCALAR && strcmp(name->text, s->text) == 0) {
                    node = seq->kids[e];
                    snprintf(sel, sizeof sel, "[%zu]", e);
                }
            }
        }
        out = append(out, sel);
    }
    return out;
}

/* The keys the loader reads as file paths, as their key steps (selections left out), and what
 * the file is: trace.file (load_ops.c), workloads[...].requests.file (load_inference.c),
 * cluster.calibration (load_calib.c). */
static const struct {
    const char *what, *keys[4];
} path_keys[] = {
    {"job trace", {"trace", "file", NULL}},
    {"request trace", {"workloads", "requests", "file", NULL}},
    {"calibration file", {"cluster", "calibration", NULL}},
};

/* Whether the key steps of steps[0..k) are keys's. */
static int keys_are(const step *steps, size_t k, const char *const *keys)
{
    size_t j = 0;
    for (size_t i = 0; i < k; i++) {
        if (steps[i].kind != STEP_KEY)
            continue;
        if (!keys[j] || strcmp(steps[i].text, keys[j]) != 0)
            return 0;
        j++;
    }
    return keys[j] == NULL;
}

char *st_scn_set_file(const st_scn *base, const char *path, const char *value, const char **what)
{
    step steps[ST_SET_MAX_STEPS];
    size_t k;
    char why[160];
    if (!value || !value[0] || parse_path(path, steps, &k, why, sizeof why))
        return NULL;
    for (size_t i = 0; i < sizeof path_keys / sizeof path_keys[0]; i++)
        if (keys_are(steps, k, path_keys[i].keys)) {
            *what = path_keys[i].what;
            return value[0] == '/' ? st_xstrdup(value) : st_xasprintf("%s/%s", base->dir, value);
        }
    return NULL;
}

static st_ynode *arena_node(st_ovr *a, st_ynode_kind kind, st_loc loc)
{
    st_ynode *n = st_xcalloc(1, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->expanded = 1;
    n->text = st_xstrdup("");
    a->nodes = st_xgrow(a->nodes, sizeof *a->nodes, a->n + 1, &a->cap);
    a->nodes[a->n++] = n;
    return n;
}

static st_ynode *arena_scalar(st_ovr *a, const char *text, st_loc loc)
{
    st_ynode *n = arena_node(a, ST_YN_SCALAR, loc);
    free((char *)n->text);
    n->text = st_xstrdup(text);
    n->plain = 1;
    return n;
}

/* A shallow copy of a mapping or list, with room for one more entry and its own arrays. */
static st_ynode *arena_copy(st_ovr *a, const st_ynode *src)
{
    st_ynode *n = arena_node(a, src->kind, src->loc);
    n->n = src->n;
    n->expanded = src->expanded;
    n->keys = st_xcalloc(src->n + 1, sizeof *n->keys);
    n->kids = st_xcalloc(src->n + 1, sizeof *n->kids);
    n->order = st_xcalloc(src->n + 1, sizeof *n->order);
    if (src->n) {
        if (src->keys)
            memcpy(n->keys, src->keys, src->n * sizeof *n->keys);
        memcpy(n->kids, src->kids, src->n * sizeof *n->kids);
        if (src->order)
            memcpy(n->order, src->order, src->n * sizeof *n->order);
    }
    return n;
}

/* The entry index of key in mapping m, or -1 (the binary search st_ynode_get does). */
static long map_find(const st_ynode *m, const char *key, size_t *pos)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->keys[m->order[mid]]->text, key);
        if (c == 0)
            return (long)m->order[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *pos = lo;
    return -1;
}

/* Append key: val to the copy m (which has room), keeping m->order sorted at pos. */
static void map_add(st_ynode *m, size_t pos, st_ynode *key, st_ynode *val)
{
    m->keys[m->n] = key;
    m->kids[m->n] = val;
    memmove(m->order + pos + 1, m->order + pos, (m->n - pos) * sizeof *m->order);
    m->order[pos] = (uint32_t)m->n;
    m->n++;
}

typedef struct apply_ctx {
    st_ovr *arena;
    const st_scn_set *set;
    const step *steps;
    size_t n_steps;
    st_diag *diag;
    st_loc at;      /* the value's label */
    st_loc at_path; /* the path's label: new keys and mappings, and the path's errors */
} apply_ctx;

static st_ynode *fail(apply_ctx *c, size_t k, const char *fmt, const char *what)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%.*s", (int)c->steps[k].end, c->set->path);
    st_diag_add(c->diag, ST_EINVAL, c->at_path, fmt, prefix, what);
    return NULL;
}

static st_ynode *set_at(apply_ctx *c, const st_ynode *node, size_t k);

/* The entry a selection names in list seq: its index, or -1 after the error. */
static long select_entry(apply_ctx *c, const st_ynode *seq, size_t k)
{
    const step *s = &c->steps[k];
    if (s->kind == STEP_INDEX) {
        long i = step_index(s);
        if (i >= 0 && (size_t)i < seq->n)
            return i;
        char what[64];
        if (seq->n)
            snprintf(what, sizeof what, "%zu entries, [0] to [%zu]", seq->n, seq->n - 1);
        else
            snprintf(what, sizeof what, "no entries");
        fail(c, k, "%s: no such entry; the list has %s", what);
        return -1;
    }
    const char **names = st_xcalloc(seq->n + 1, sizeof *names);
    size_t n_names = 0;
    for (size_t i = 0; i < seq->n; i++) {
        const st_ynode *name = st_ynode_get(seq->kids[i], "name");
        if (name && name->kind == ST_YN_SCALAR && strcmp(name->text, s->text) == 0) {
            free(names);
            return (long)i;
        }
        if (name && name->kind == ST_YN_SCALAR)
            names[n_names++] = name->text;
    }
    char near[200], what[400];
    st_did_you_mean(s->text, names, n_names, near, sizeof near);
    snprintf(what, sizeof what, "'%s'%s", s->text, near);
    free(names);
    fail(c, k, "%s: the list has no entry named %s", what);
    return -1;
}

static st_ynode *set_in_map(apply_ctx *c, const st_ynode *node, size_t k)
{
    static const st_ynode empty = {.kind = ST_YN_MAP};
    if (!node)
        node = &empty; /* a mapping the file leaves out: added, and checked by the loader */
    if (node->kind != ST_YN_MAP)
        return fail(c, k - 1, "%s is %s, not a mapping with keys", st_ynode_kind_name(node));
    st_ynode *copy = arena_copy(c->arena, node);
    if (node == &empty)
        copy->loc = c->at_path;
    size_t pos = 0;
    long i = map_find(copy, c->steps[k].text, &pos);
    st_ynode *kid = set_at(c, i >= 0 ? copy->kids[i] : NULL, k + 1);
    if (!kid)
        return NULL;
    if (i >= 0)
        copy->kids[i] = kid;
    else
        map_add(copy, pos, arena_scalar(c->arena, c->steps[k].text, c->at_path), kid);
    return copy;
}

/* The tree under node with steps[k..] set; NULL after an error. */
static st_ynode *set_at(apply_ctx *c, const st_ynode *node, size_t k)
{
    if (k == c->n_steps)
        return arena_scalar(c->arena, c->set->value, c->at);
    if (c->steps[k].kind == STEP_KEY)
        return set_in_map(c, node, k);
    if (!node)
        return fail(c, k - 1, "%s is not in the scenario, so it has no entry to select%s", "");
    if (node->kind != ST_YN_SEQ)
        return fail(c, k - 1, "%s is %s, not a list: [...] selects a list's entry",
                    st_ynode_kind_name(node));
    long i = select_entry(c, node, k);
    if (i < 0)
        return NULL;
    st_ynode *copy = arena_copy(c->arena, node);
    st_ynode *kid = set_at(c, copy->kids[i], k + 1);
    if (!kid)
        return NULL;
    copy->kids[i] = kid;
    return copy;
}

const st_ynode *st__ovr_apply(st_ovr **arena, const st_ynode *root, const st_scn_set *sets,
                              size_t n, st_diag *diag)
{
    if (!root || root->kind != ST_YN_MAP) /* the loader says what a scenario is */
        return root;
    if (!*arena)
        *arena = st_xcalloc(1, sizeof **arena);
    for (size_t i = 0; i < n && root; i++) {
        step steps[ST_SET_MAX_STEPS];
        char why[256];
        const char *at_path = sets[i].at_path ? sets[i].at_path : sets[i].label;
        apply_ctx c = {*arena, &sets[i], steps, 0, diag, {sets[i].label, 0, 0}, {at_path, 0, 0}};
        if (parse_path(sets[i].path, steps, &c.n_steps, why, sizeof why)) {
            st_diag_add(diag, ST_EINVAL, c.at_path, "%s", why);
            return NULL;
        }
        root = set_at(&c, root, 0);
    }
    return root;
}

void st__ovr_free(st_ovr *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++) {
        free((char *)a->nodes[i]->text);
        free(a->nodes[i]->keys);
        free(a->nodes[i]->kids);
        free(a->nodes[i]->order);
        free(a->nodes[i]);
    }
    free(a->nodes);
    free(a);
}
