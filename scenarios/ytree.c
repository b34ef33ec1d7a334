/* Builds a located tree from libyaml's event stream, with the limits that keep hostile input
 * (alias bombs, deep nesting, huge scalars) from hanging or crashing the loader. */
#include "scenarios/ytree.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sim/utf8.h"
#include "sim/xalloc.h"

/* Anchors live in an open-addressing hash table (FNV-1a, linear probing): a document may hold
 * many anchors and many aliases, and a linear search per alias would make loading quadratic. */
struct anchor {
    char *name;
    st_ynode *node;
};

struct frame {
    st_ynode *node;
    char *anchor;      /* registered when the node ends, so an anchor cannot reach itself */
    st_ynode *key;     /* map: key waiting for its value */
    st_ynode **merges; /* map: values of `<<` keys, applied when the map ends */
    size_t n_merges, cap_merges;
    size_t cap; /* capacity of node->keys / node->kids */
};

struct st_ytree {
    const char *file;
    const char *buf;
    size_t len;
    st_ynode *root;
    st_ynode **all; /* every node, for freeing: aliases make the tree a DAG */
    size_t n_all, cap_all;
    st_ynode **uses; /* each alias's use: a node that shares its anchor's contents */
    size_t n_uses, cap_uses;
    struct anchor *anchors; /* hash table of cap_anchors slots (a power of two) */
    size_t n_anchors, cap_anchors;
    struct frame *stack;
    size_t depth, cap_stack;
    int docs;
    /* Nodes the document expands to so far, counted before any alias or merge is expanded: one
     * per node made, an alias's expanded size, a merge's copied entries. It bounds every node's
     * `expanded` from above (it also counts merge keys and entries a merge then drops), so
     * checking it as it grows stops an alias bomb or a merge chain as soon as it passes the
     * limit, in time and memory linear in the file plus the limit. */
    size_t volume;
};

static st_loc mark_loc(const st_ytree *t, yaml_mark_t m)
{
    return (st_loc){t->file, (unsigned)m.line + 1, (unsigned)m.column + 1};
}

/* Reader errors carry a byte offset, not a mark: count lines up to it. */
static st_loc offset_loc(const st_ytree *t, size_t off)
{
    st_loc l = {t->file, 1, 1};
    for (size_t i = 0; i < off && i < t->len; i++) {
        if (t->buf[i] == '\n') {
            l.line++;
            l.col = 1;
        } else if (((unsigned char)t->buf[i] & 0xC0) != 0x80) {
            l.col++;
        }
    }
    return l;
}

static st_ynode *node_new(st_ytree *t, st_ynode_kind kind, st_loc loc)
{
    st_ynode *n = st_xcalloc(1, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->expanded = 1;
    t->volume++;
    t->all = st_xgrow(t->all, sizeof *t->all, t->n_all + 1, &t->cap_all);
    t->all[t->n_all++] = n;
    return n;
}

static size_t sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* Checked before each node is made, so a huge flat list is refused before it fills memory. */
static int check_count(const st_ytree *t, st_loc at, st_err *err)
{
    if (t->n_all < ST_YTREE_MAX_EXPANDED)
        return 0;
    return st_err_set(err, ST_ELIMIT, at, "document has more than %d values",
                      ST_YTREE_MAX_EXPANDED);
}

/* Count add more nodes of expansion, and refuse them (at `at`) if the document would pass the
 * limit: called before the alias or merge is expanded, so nothing past the limit is built. */
static int add_volume(st_ytree *t, size_t add, st_loc at, st_err *err)
{
    t->volume = sat_add(t->volume, add);
    if (t->volume <= ST_YTREE_MAX_EXPANDED)
        return 0;
    return st_err_set(err, ST_ELIMIT, at,
                      "document expands to more than %d nodes through aliases "
                      "(an alias bomb?)",
                      ST_YTREE_MAX_EXPANDED);
}

static void map_append(struct frame *f, st_ynode *key, st_ynode *val)
{
    st_ynode *m = f->node;
    size_t cap = f->cap;
    m->keys = st_xgrow(m->keys, sizeof *m->keys, m->n + 1, &cap);
    cap = f->cap;
    m->kids = st_xgrow(m->kids, sizeof *m->kids, m->n + 1, &cap);
    f->cap = cap;
    m->keys[m->n] = key;
    m->kids[m->n] = val;
    m->n++;
    m->expanded = sat_add(m->expanded, sat_add(key->expanded, val->expanded));
}

static int is_merge_key(const st_ynode *k)
{
    return k->plain && strcmp(k->text, "<<") == 0;
}

/* Attach a finished node to the enclosing collection (or make it the root). */
static int attach(st_ytree *t, st_ynode *n, st_err *err)
{
    if (t->depth == 0) {
        t->root = n;
        return 0;
    }
    struct frame *f = &t->stack[t->depth - 1];
    st_ynode *c = f->node;
    if (c->kind == ST_YN_SEQ) {
        c->kids = st_xgrow(c->kids, sizeof *c->kids, c->n + 1, &f->cap);
        c->kids[c->n++] = n;
        c->expanded = sat_add(c->expanded, n->expanded);
        return 0;
    }
    if (!f->key) {
        if (n->kind != ST_YN_SCALAR)
            return st_err_set(err, ST_ESYNTAX, n->loc,
                              "mapping keys must be plain values, found %s", st_ynode_kind_name(n));
        f->key = n; /* duplicates are found when the mapping ends: see finish_map */
        return 0;
    }
    if (is_merge_key(f->key)) {
        f->merges = st_xgrow(f->merges, sizeof *f->merges, f->n_merges + 1, &f->cap_merges);
        f->merges[f->n_merges++] = n;
    } else {
        map_append(f, f->key, n);
    }
    f->key = NULL;
    return 0;
}

/* Sorting a mapping's entries by key (then by position, so the sort is stable) finds duplicate
 * keys and settles merges in O(n log n); a pairwise scan would be quadratic in the entries. */
static const st_ynode *const *sort_keys; /* qsort has no context argument in C11 */

static int by_key_then_pos(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int c = strcmp(sort_keys[i]->text, sort_keys[j]->text);
    return c ? c : (i > j) - (i < j);
}

static uint32_t *sorted_order(const st_ynode *m)
{
    uint32_t *order = st_xmalloc((m->n ? m->n : 1) * sizeof *order);
    for (size_t i = 0; i < m->n; i++)
        order[i] = (uint32_t)i;
    sort_keys = (const st_ynode *const *)m->keys;
    qsort(order, m->n, sizeof *order, by_key_then_pos);
    sort_keys = NULL;
    return order;
}

/* The mapping or mappings a `<<` value names: one mapping, or each item of a list. */
static const st_ynode *merge_source(const st_ynode *m, size_t j)
{
    return m->kind == ST_YN_SEQ ? m->kids[j] : m;
}

/* YAML merge keys: append the entries of every merged mapping, in order; finish_map then keeps
 * the first entry of each key, so the mapping's own keys win, then earlier merges. The volume
 * is counted first, so a chain of merges (each mapping merging the one before) is refused as
 * soon as its copies pass the expansion limit, not after copying a quadratic number of them. */
static int apply_merges(st_ytree *t, struct frame *f, st_err *err)
{
    size_t add = 0;
    for (size_t i = 0; i < f->n_merges; i++)
        for (size_t j = 0; j < (f->merges[i]->kind == ST_YN_SEQ ? f->merges[i]->n : 1); j++) {
            const st_ynode *src = merge_source(f->merges[i], j);
            if (src->kind != ST_YN_MAP)
                return st_err_set(err, ST_ESYNTAX, src->loc,
                                  "merge key '<<' expects a mapping or a list of mappings, "
                                  "found %s",
                                  st_ynode_kind_name(src));
            add = sat_add(add, src->expanded - 1); /* its entries, keys and values */
        }
    if (add_volume(t, add, f->node->loc, err))
        return err->code;
    for (size_t i = 0; i < f->n_merges; i++)
        for (size_t j = 0; j < (f->merges[i]->kind == ST_YN_SEQ ? f->merges[i]->n : 1); j++) {
            const st_ynode *src = merge_source(f->merges[i], j);
            for (size_t e = 0; e < src->n; e++)
                map_append(f, src->keys[e], src->kids[e]);
        }
    return 0;
}

/* The earliest second occurrence of a key among the first n_own entries (the mapping's own), as
 * a parser reading in order would meet it; -1 if none. order is sorted by key, then position. */
static long first_duplicate(const st_ynode *m, const uint32_t *order, size_t n_own, long *first)
{
    long dup = -1;
    for (size_t g = 0; g < m->n;) {
        size_t h = g + 1;
        while (h < m->n && strcmp(m->keys[order[h]]->text, m->keys[order[g]]->text) == 0)
            h++;
        if (h - g > 1 && order[g + 1] < n_own && (dup < 0 || order[g + 1] < (uint32_t)dup)) {
            dup = order[g + 1];
            *first = order[g];
        }
        g = h;
    }
    return dup;
}

/* Refuse duplicate keys, drop merged entries that the mapping or an earlier merge already sets,
 * and leave m->order sorted for st_ynode_get's binary search. */
static int finish_map(struct frame *f, size_t n_own, st_err *err)
{
    st_ynode *m = f->node;
    uint32_t *order = sorted_order(m);
    long first = -1, dup = first_duplicate(m, order, n_own, &first);
    if (dup >= 0) {
        st_err_set(err, ST_ESYNTAX, m->keys[dup]->loc, "duplicate key '%s' (first at line %u)",
                   m->keys[dup]->text, m->keys[first]->loc.line);
        free(order);
        return err->code;
    }
    unsigned char *drop = st_xcalloc(m->n ? m->n : 1, 1);
    for (size_t g = 1; g < m->n; g++)
        if (strcmp(m->keys[order[g]]->text, m->keys[order[g - 1]]->text) == 0)
            drop[order[g]] = 1;
    size_t k = 0;
    m->expanded = 1;
    for (size_t i = 0; i < m->n; i++) {
        if (drop[i])
            continue;
        m->keys[k] = m->keys[i];
        m->kids[k] = m->kids[i];
        m->expanded = sat_add(m->expanded, sat_add(m->keys[k]->expanded, m->kids[k]->expanded));
        k++;
    }
    free(drop);
    free(order);
    m->n = k;
    m->order = sorted_order(m);
    return 0;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static struct anchor *anchor_slot(struct anchor *tab, size_t cap, const char *name)
{
    size_t i = (size_t)hash_name(name) & (cap - 1);
    while (tab[i].name && strcmp(tab[i].name, name) != 0)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* The latest definition of an anchor wins, as the YAML spec says for redefinitions. */
static void add_anchor(st_ytree *t, const char *name, st_ynode *n)
{
    if (2 * (t->n_anchors + 1) > t->cap_anchors) {
        size_t cap = t->cap_anchors ? 2 * t->cap_anchors : 64;
        struct anchor *tab = st_xcalloc(cap, sizeof *tab);
        for (size_t i = 0; i < t->cap_anchors; i++)
            if (t->anchors[i].name)
                *anchor_slot(tab, cap, t->anchors[i].name) = t->anchors[i];
        free(t->anchors);
        t->anchors = tab;
        t->cap_anchors = cap;
    }
    struct anchor *a = anchor_slot(t->anchors, t->cap_anchors, name);
    if (!a->name) {
        a->name = st_xstrdup(name);
        t->n_anchors++;
    }
    a->node = n;
}

static st_ynode *find_anchor(const st_ytree *t, const char *name)
{
    if (!t->cap_anchors)
        return NULL;
    const struct anchor *a = anchor_slot(t->anchors, t->cap_anchors, name);
    return a->name ? a->node : NULL;
}

/* The first character of v[0..len) that no value may hold (ytree.h). The
 * file itself cannot hold them (libyaml refuses raw control characters), but double-quoted
 * escapes can ("\0", "\e", "\x1b", "\u009b", "\N"). A NUL would end the value early for every
 * C string reader ("2\0 thousand" read as 2), and an escape sequence in a name would reach
 * the terminal through `check`, `run` and every error message. Tab and line breaks stay: block
 * scalars hold them and the number scanner skips them as white space. */
long st_ytree_bad_char(const unsigned char *v, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned c = v[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return (long)c;
        if (c == 0xc2 && i + 1 < len && v[i + 1] >= 0x80 && v[i + 1] <= 0x9f)
            return (long)v[i + 1]; /* UTF-8 for U+0080..U+009F, the C1 controls */
    }
    return -1;
}

const char *st_ytree_csv_hint(const char *text, size_t len, char *buf, size_t n)
{
    const char *nl;
    while (len && (*text == '#' || *text == '\n' || *text == '\r') && /* comments, blank lines */
           (nl = memchr(text, '\n', len)))
        len -= (size_t)(nl + 1 - text), text = nl + 1;
    nl = memchr(text, '\n', len);
    size_t line = nl ? (size_t)(nl - text) : len;
    int colon = 0;
    for (size_t i = 0; i + 1 < line; i++)
        colon |= text[i] == ':' && (text[i + 1] == ' ' || text[i + 1] == '\t');
    if (colon || !memchr(text, ',', line) || (line && text[line - 1] == ':')) {
        snprintf(buf, n, "%s", "");
        return buf;
    }
    line = line && text[line - 1] == '\r' ? line - 1 : line;
    size_t cut = st_utf8_fit(text, line, 32);
    st_snprintf(buf, n,
                "; it looks like a CSV file ('%.*s%s'): name a trace in a scenario, "
                "trace: { file: ... }",
                (int)cut, text, cut < line ? ST_UTF8_CUT_MARK : "");
    return buf;
}

static int on_scalar(st_ytree *t, const yaml_event_t *ev, st_err *err)
{
    st_loc at = mark_loc(t, ev->start_mark);
    size_t len = ev->data.scalar.length;
    if (len > ST_YTREE_MAX_SCALAR && t->depth == 0) { /* the whole document: a CSV, a log */
        char hint[256];
        return st_err_set(err, ST_EINVAL, at,
                          "a scenario is a mapping with 'version', 'cluster' and 'workloads', "
                          "found one value (%zu bytes)%s",
                          len, st_ytree_csv_hint(t->buf, t->len, hint, sizeof hint));
    }
    if (len > ST_YTREE_MAX_SCALAR)
        return st_err_set(err, ST_ELIMIT, at, "value of %zu bytes exceeds the limit of %d bytes",
                          len, ST_YTREE_MAX_SCALAR);
    long bad = st_ytree_bad_char(ev->data.scalar.value, len);
    if (bad == 0)
        return st_err_set(err, ST_EINVAL, at, "a NUL character in a value (an escaped \\0)");
    if (bad > 0)
        return st_err_set(err, ST_EINVAL, at,
                          "a control character (U+%04lX) in a value: values are printed to "
                          "terminals, so they hold no control characters but tab and line breaks",
                          (unsigned long)bad);
    if (check_count(t, at, err))
        return err->code;
    st_ynode *n = node_new(t, ST_YN_SCALAR, at);
    n->text = st_xstrndup((const char *)ev->data.scalar.value, len);
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (ev->data.scalar.anchor)
        add_anchor(t, (const char *)ev->data.scalar.anchor, n);
    return attach(t, n, err);
}

static int on_start(st_ytree *t, const yaml_event_t *ev, st_ynode_kind kind, st_err *err)
{
    st_loc at = mark_loc(t, ev->start_mark);
    if (t->depth >= ST_YTREE_MAX_DEPTH)
        return st_err_set(err, ST_ELIMIT, at, "nesting deeper than %d levels", ST_YTREE_MAX_DEPTH);
    if (check_count(t, at, err))
        return err->code;
    const yaml_char_t *anchor =
        kind == ST_YN_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    t->stack = st_xgrow(t->stack, sizeof *t->stack, t->depth + 1, &t->cap_stack);
    struct frame *f = &t->stack[t->depth++];
    memset(f, 0, sizeof *f);
    f->node = node_new(t, kind, at);
    f->anchor = anchor ? st_xstrdup((const char *)anchor) : NULL;
    return 0;
}

static int on_end(st_ytree *t, st_err *err)
{
    struct frame f = t->stack[--t->depth];
    int rc = 0;
    if (f.node->kind == ST_YN_MAP) {
        size_t n_own = f.node->n;
        rc = apply_merges(t, &f, err);
        if (!rc)
            rc = finish_map(&f, n_own, err);
    }
    if (!rc && f.anchor)
        add_anchor(t, f.anchor, f.node);
    free(f.anchor);
    free(f.merges);
    return rc ? rc : attach(t, f.node, err);
}

/* Whether the node ending now is a `<<` value, `<<: *a`, or an item of one, `<<: [*a, *b]`: its
 * entries are counted when the merge copies them (apply_merges), and counting them here too
 * counted each merged entry twice toward the limit. */
static int merge_value(const st_ytree *t)
{
    const struct frame *f = &t->stack[t->depth - 1];
    if (f->node->kind == ST_YN_SEQ && t->depth > 1)
        f = &t->stack[t->depth - 2]; /* the list's own key, if it is a `<<` value */
    return f->node->kind == ST_YN_MAP && f->key && is_merge_key(f->key);
}

static int on_alias(st_ytree *t, const yaml_event_t *ev, st_err *err)
{
    const char *name = (const char *)ev->data.alias.anchor;
    st_ynode *n = find_anchor(t, name);
    if (!n)
        return st_err_set(err, ST_ESYNTAX, mark_loc(t, ev->start_mark), "undefined alias '*%s'",
                          name);
    if (t->depth > 0 && !merge_value(t) &&
        add_volume(t, n->expanded, t->stack[t->depth - 1].node->loc, err))
        return err->code;
    /* The use shares the anchor's contents but stands where the alias does, so an error about
     * it (`*n : 1`, an unknown key) points at the use: the anchor's place may be fine there. */
    st_ynode *use = st_xmalloc(sizeof *use);
    *use = *n;
    use->loc = mark_loc(t, ev->start_mark);
    use->alias = n;
    t->uses = st_xgrow(t->uses, sizeof *t->uses, t->n_uses + 1, &t->cap_uses);
    t->uses[t->n_uses++] = use;
    return attach(t, use, err);
}

static int on_event(st_ytree *t, const yaml_event_t *ev, st_err *err)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++t->docs > 1)
            return st_err_set(err, ST_ESYNTAX, mark_loc(t, ev->start_mark),
                              "more than one YAML document; a scenario is one document");
        return 0;
    case YAML_SCALAR_EVENT:
        return on_scalar(t, ev, err);
    case YAML_ALIAS_EVENT:
        return on_alias(t, ev, err);
    case YAML_SEQUENCE_START_EVENT:
        return on_start(t, ev, ST_YN_SEQ, err);
    case YAML_MAPPING_START_EVENT:
        return on_start(t, ev, ST_YN_MAP, err);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_end(t, err);
    default:
        return 0;
    }
}

/* A tab in a line's leading whitespace is the usual cause of libyaml's "cannot start any
 * token": say so plainly. */
static int tab_in_indent(const st_ytree *t, size_t off)
{
    size_t start = off < t->len ? off : t->len;
    while (start > 0 && t->buf[start - 1] != '\n')
        start--;
    for (size_t i = start; i < t->len && (t->buf[i] == ' ' || t->buf[i] == '\t'); i++)
        if (t->buf[i] == '\t')
            return 1;
    return 0;
}

static int parser_error(st_ytree *t, const yaml_parser_t *p, st_err *err)
{
    if (p->error == YAML_MEMORY_ERROR)
        return st_err_set(err, ST_ELIMIT, (st_loc){t->file, 0, 0}, "out of memory parsing YAML");
    /* libyaml's UTF-8 errors named a byte it had not read ("invalid length of a UTF-8
     * sequence (byte 0xff)" of C0 AF, "(byte 0x00)" of a surrogate) or the one after the culprit
     * (0x0a after a Latin-1 0xE9): the bytes at fault are said here, at their own place. */
    size_t bad = p->error == YAML_READER_ERROR ? st_utf8_check(t->buf, t->len) : t->len;
    if (bad < t->len && bad <= p->problem_offset) {
        char why[192];
        return st_err_set(err, ST_ESYNTAX, offset_loc(t, bad), "not a text file: %s",
                          st_utf8_why(t->buf, t->len, bad, why, sizeof why));
    }
    if (p->error == YAML_READER_ERROR)
        return st_err_set(err, ST_ESYNTAX, offset_loc(t, p->problem_offset),
                          "not a text file: %s (byte 0x%02x)", p->problem,
                          (unsigned)(p->problem_value & 0xFF));
    st_loc at = mark_loc(t, p->problem_mark);
    if (tab_in_indent(t, p->problem_mark.index))
        return st_err_set(err, ST_ESYNTAX, at,
                          "tab character in indentation; YAML indents with spaces");
    if (p->context)
        return st_err_set(err, ST_ESYNTAX, at, "yaml: %s %s (at line %u, column %u)", p->problem,
                          p->context, (unsigned)p->context_mark.line + 1,
                          (unsigned)p->context_mark.column + 1);
    return st_err_set(err, ST_ESYNTAX, at, "yaml: %s", p->problem ? p->problem : "syntax error");
}

int st_ytree_parse(const char *file, const char *buf, size_t len, st_ytree **out, st_err *err)
{
    *out = NULL;
    if (len > ST_YTREE_MAX_FILE)
        return st_err_set(err, ST_ELIMIT, (st_loc){file, 0, 0},
                          "file of %zu bytes exceeds the limit of %u bytes", len,
                          ST_YTREE_MAX_FILE);
    size_t bom = 0;
    const char *enc = st_utf8_foreign_bom(buf, len, &bom);
    if (enc) { /* libyaml reads UTF-16 and UTF-32 too: such a file loaded, though not UTF-8 */
        char b[32] = "";
        for (size_t i = 0, at = 0; i < bom; i++)
            at += (size_t)snprintf(b + at, sizeof b - at, "%s0x%02X", i ? " " : "",
                                   (unsigned char)buf[i]);
        return st_err_set(err, ST_ESYNTAX, (st_loc){file, 1, 1},
                          "not a text file: it begins with the byte-order mark of %s (bytes %s); "
                          "a scenario is UTF-8 text: save it as UTF-8",
                          enc, b);
    }
    st_ytree *t = st_xcalloc(1, sizeof *t);
    t->file = file;
    t->buf = buf;
    t->len = len;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        ST_BUG("yaml_parser_initialize failed");
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    int rc = 0, done = 0;
    while (!rc && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(t, &p, err);
            break;
        }
        rc = on_event(t, &ev, err);
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    while (t->depth > 0) { /* unwind frames left open by an error */
        struct frame *f = &t->stack[--t->depth];
        free(f->anchor);
        free(f->merges);
    }
    if (rc) {
        st_ytree_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

const st_ynode *st_ytree_root(const st_ytree *t)
{
    return t->root;
}

void st_ytree_free(st_ytree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_all; i++) {
        st_ynode *n = t->all[i];
        free((char *)n->text);
        free(n->keys);
        free(n->kids);
        free(n->order);
        free(n);
    }
    for (size_t i = 0; i < t->n_uses; i++)
        free(t->uses[i]); /* its contents are its anchor's */
    for (size_t i = 0; i < t->cap_anchors; i++)
        free(t->anchors[i].name);
    free(t->uses);
    free(t->all);
    free(t->anchors);
    free(t->stack);
    free(t);
}

const st_ynode *st_ynode_get(const st_ynode *m, const char *key)
{
    if (!m || m->kind != ST_YN_MAP)
        return NULL;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->keys[m->order[mid]]->text, key);
        if (c == 0)
            return m->kids[m->order[mid]];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int st_ynode_is_null(const st_ynode *n)
{
    return n->kind == ST_YN_SCALAR && n->plain &&
           (n->text[0] == '\0' || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0);
}

const char *st_ynode_kind_name(const st_ynode *n)
{
    switch (n->kind) {
    case ST_YN_MAP:
        return "a mapping";
    case ST_YN_SEQ:
        return "a list";
    default:
        return st_ynode_is_null(n) ? "nothing" : "a value";
    }
}
