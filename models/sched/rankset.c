/* The policies' ordered sets (rankset.h): a B+ tree per set over a shared pool of nodes. A node
 * holds up to FAN slots in key order: in a leaf one member each, in an inner node one child each,
 * with the child's figures (its last key, members, GPUs, least GPU count, least figure). A leaf
 * slot reads as a child of one member (its GPUs are its least and its sum, its size is 1: a leaf
 * keeps neither array up to date), so every node's figures are the same reductions over its
 * slots. Until a member is added with a figure other than 0, every figure is 0 and none is
 * moved or recomputed. Each node knows its parent and each member its leaf, so a removal starts
 * at the member's leaf and climbs, without a search from the root. Inserts split a full node on the
 * way down (so a split never climbs back up); removals drop a node once it is empty and lift the
 * root while it has a single child. No node is merged with a neighbour, so a node may hold fewer
 * than FAN / 2 slots; the depth still grows only when a full root splits, which takes FAN / 2 more
 * splits below it each time, so it stays below log_{FAN/2} of the members ever added plus one
 * (MAX_DEPTH bounds it for any count of ids). */
#include "models/sched/rankset.h"

#include <math.h>
#include <stdlib.h>

#include "sim/xalloc.h"

#define NONE    ST__RSET_NONE
#define NO_NODE UINT32_MAX /* a root's parent; the leaf of an id in no set */

/* 16 slots: a node's keys are four cache lines, its other figures one or two each, and a
 * hundred thousand members sit three levels deep. */
enum { FAN = 16, HALF = FAN / 2 };

/* (FAN / 2)^(MAX_DEPTH - 1) exceeds 2^64: no tree reaches it. */
enum { MAX_DEPTH = 24 };

typedef struct st__rnode {
    uint32_t n;         /* slots in use */
    uint32_t leaf;      /* 1: the slots are members */
    uint32_t up;        /* its parent; NO_NODE: a root */
    size_t total;       /* members below it */
    int64_t gsum;       /* their GPUs */
    st__rkey key[FAN];  /* a member's key; a child's last member's key */
    uint32_t item[FAN]; /* a member's id; a child's node */
    uint32_t size[FAN]; /* a child's members (a node holds at most 2^32 - 1 ids); leaf: unused */
    int64_t least[FAN]; /* a member's GPUs; a child's least */
    int64_t sum[FAN];   /* a child's GPUs; leaf: unused */
    double amin[FAN];   /* a member's figure; a child's least */
} rnode;

void st__rset_init(st__rset *s, size_t n)
{
    n = n ? n : 1;
    if (n > UINT32_MAX)
        ST_BUG("an ordered set of %zu ids", n);
    *s = (st__rset){.n = n};
    s->leaf = st_xmalloc(n * sizeof *s->leaf);
    memset(s->leaf, 0xff, n * sizeof *s->leaf); /* NO_NODE: every id in no set */
}

void st__rset_release(st__rset *s)
{
    free(s->node);
    free(s->spare);
    free(s->leaf);
    memset(s, 0, sizeof *s);
}

/* Room for k more nodes without moving the array, so that node pointers stay valid while an
 * add splits its way down. */
static void reserve(st__rset *s, size_t k)
{
    if (s->n_spare + (s->cap - s->n_node) >= k)
        return;
    size_t cap = s->cap;
    s->node = st_xgrow(s->node, sizeof *s->node, s->n_node + k, &cap);
    cap = s->cap;
    s->spare = st_xgrow(s->spare, sizeof *s->spare, s->n_node + k, &cap);
    s->cap = cap;
}

static uint32_t new_node(st__rset *s, int leaf)
{
    uint32_t t = s->n_spare ? s->spare[--s->n_spare] : (uint32_t)s->n_node++;
    s->node[t].n = 0;
    s->node[t].leaf = (uint32_t)leaf;
    s->node[t].up = NO_NODE;
    s->node[t].total = 0;
    s->node[t].gsum = 0;
    memset(s->node[t].amin, 0,
           sizeof s->node[t].amin); /* the figure of every slot, until one is set */
    return t;
}

/* Slot i's members and GPUs. */
static inline uint32_t size_at(const rnode *x, uint32_t i)
{
    return x->leaf ? 1 : x->size[i];
}

static inline int64_t sum_at(const rnode *x, uint32_t i)
{
    return x->leaf ? x->least[i] : x->sum[i];
}

static void free_node(st__rset *s, uint32_t t)
{
    s->spare[s->n_spare++] = t;
}

/* The least GPUs over x's slots, given that none is below g: the scan stops at one of g. */
static int64_t least_of(const rnode *x, int64_t g)
{
    int64_t m = INT64_MAX;
    for (uint32_t k = 0; k < x->n && m > g; k++)
        m = x->least[k] < m ? x->least[k] : m;
    return m;
}

static double amin_of(const rnode *x)
{
    double m = x->amin[0];
    for (uint32_t k = 1; k < x->n; k++)
        m = x->amin[k] < m ? x->amin[k] : m;
    return m;
}

/* Slot i of p from its child's slots. */
static void refresh(const st__rset *s, rnode *p, uint32_t i)
{
    const rnode *c = &s->node[p->item[i]];
    p->key[i] = c->key[c->n - 1];
    p->size[i] = (uint32_t)c->total;
    p->sum[i] = c->gsum;
    p->least[i] = least_of(c, INT64_MIN);
    if (s->figures)
        p->amin[i] = amin_of(c);
}

/* Open slot i of x (i <= x->n < FAN): the slots from i move one right. Loops, not memmove:
 * a few slots move, and a library call per array cost more than the moves. */
static void open_slot(const st__rset *s, rnode *x, uint32_t i)
{
    for (uint32_t k = x->n; k > i; k--) {
        x->key[k] = x->key[k - 1];
        x->item[k] = x->item[k - 1];
        x->least[k] = x->least[k - 1];
    }
    for (uint32_t k = x->n; !x->leaf && k > i; k--) {
        x->size[k] = x->size[k - 1];
        x->sum[k] = x->sum[k - 1];
    }
    for (uint32_t k = x->n; s->figures && k > i; k--)
        x->amin[k] = x->amin[k - 1];
    x->n++;
}

/* Close slot i of x: the slots after it move one left. */
static void close_slot(const st__rset *s, rnode *x, uint32_t i)
{
    for (uint32_t k = i; k + 1 < x->n; k++) {
        x->key[k] = x->key[k + 1];
        x->item[k] = x->item[k + 1];
        x->least[k] = x->least[k + 1];
    }
    for (uint32_t k = i; !x->leaf && k + 1 < x->n; k++) {
        x->size[k] = x->size[k + 1];
        x->sum[k] = x->sum[k + 1];
    }
    for (uint32_t k = i; s->figures && k + 1 < x->n; k++)
        x->amin[k] = x->amin[k + 1];
    x->n--;
}

/* Node t's members and GPUs from its slots. */
static void retotal(rnode *x)
{
    x->total = 0;
    x->gsum = 0;
    for (uint32_t k = 0; k < x->n; k++) {
        x->total += size_at(x, k);
        x->gsum += sum_at(x, k);
    }
}

/* Split p's full child at slot i in two halves, the upper one a new node at slot i + 1 (p is not
 * full). */
static void split_child(st__rset *s, rnode *p, uint32_t i)
{
    rnode *c = &s->node[p->item[i]];
    uint32_t d = new_node(s, (int)c->leaf);
    rnode *h = &s->node[d];
    memcpy(h->key, &c->key[HALF], HALF * sizeof *h->key);
    memcpy(h->item, &c->item[HALF], HALF * sizeof *h->item);
    memcpy(h->size, &c->size[HALF], HALF * sizeof *h->size);
    memcpy(h->least, &c->least[HALF], HALF * sizeof *h->least);
    memcpy(h->sum, &c->sum[HALF], HALF * sizeof *h->sum);
    memcpy(h->amin, &c->amin[HALF], HALF * sizeof *h->amin);
    h->n = HALF;
    c->n = HALF;
    h->up = c->up;
    for (uint32_t k = 0; k < HALF; k++) /* what moved now hangs under h */
        if (h->leaf)
            s->leaf[h->item[k]] = d;
        else
            s->node[h->item[k]].up = d;
    retotal(c);
    retotal(h);
    open_slot(s, p, i + 1);
    p->item[i + 1] = d;
    refresh(s, p, i);
    refresh(s, p, i + 1);
}

/* The first of x's slots [0, n) whose key is not below k; n when none is. A binary search. */
static uint32_t lower_bound(const rnode *x, uint32_t n, const st__rkey *k)
{
    uint32_t lo = 0;
    while (n > 0) {
        uint32_t h = n / 2;
        if (st__rkey_less(&x->key[lo + h], k)) {
            lo += h + 1;
            n -= h + 1;
        } else {
            n = h;
        }
    }
    return lo;
}

/* The slot of inner node x whose child holds key k, or would: the first whose last key is not
 * below k, else the last. */
static uint32_t child_for(const rnode *x, const st__rkey *k)
{
    return lower_bound(x, x->n - 1, k);
}

void st__rset_add(st__rset *s, size_t *root, size_t id, st__rkey key, int64_t gpus, double aux)
{
    if (id >= s->n || s->leaf[id] != NO_NODE)
        ST_BUG("job %zu added twice", id);
    s->figures |= aux != 0 || signbit(aux); /* from now on, figures are kept */
    reserve(s, MAX_DEPTH + 2);
    if (*root == NONE)
        *root = new_node(s, 1);
    if (s->node[*root].n == FAN) { /* a full root: a new one above it, then split */
        uint32_t r = new_node(s, 0);
        rnode *x = &s->node[r];
        x->n = 1;
        x->item[0] = (uint32_t)*root;
        s->node[*root].up = r;
        x->total = s->node[*root].total;
        x->gsum = s->node[*root].gsum;
        refresh(s, x, 0);
        split_child(s, x, 0);
        *root = r;
    }
    rnode *x = &s->node[*root];
    while (!x->leaf) {
        x->total++;
        x->gsum += gpus;
        uint32_t i = child_for(x, &key);
        if (s->node[x->item[i]].n == FAN) {
            split_child(s, x, i);
            if (st__rkey_less(&x->key[i], &key))
                i++;
        }
        x->size[i]++;
        x->sum[i] += gpus;
        x->least[i] = gpus < x->least[i] ? gpus : x->least[i];
        if (s->figures)
            x->amin[i] = aux < x->amin[i] ? aux : x->amin[i];
        if (st__rkey_less(&x->key[i], &key))
            x->key[i] = key; /* past every member: the last slot's last key */
        x = &s->node[x->item[i]];
    }
    uint32_t i = lower_bound(x, x->n, &key);
    if (i < x->n && !st__rkey_less(&key, &x->key[i]))
        ST_BUG("job %zu has the key of job %u", id, x->item[i]);
    open_slot(s, x, i);
    x->key[i] = key;
    x->item[i] = (uint32_t)id;
    x->least[i] = gpus;
    if (s->figures)
        x->amin[i] = aux;
    x->total++;
    x->gsum += gpus;
    s->leaf[id] = (uint32_t)(x - s->node);
}

/* The slot of p that holds child t. */
static uint32_t slot_of(const rnode *p, uint32_t t)
{
    uint32_t j = 0;
    while (j < p->n && p->item[j] != t)
        j++;
    if (j == p->n)
        ST_BUG("ordered set node %u is not under its parent", t);
    return j;
}

/* Remove id from the set at *root: its key, GPUs and figure in *key, *gpus and *aux. From its
 * leaf up: each ancestor's slot loses the member (an emptied child is dropped). */
static void take(st__rset *s, size_t *root, size_t id, st__rkey *key, int64_t *gpus, double *aux)
{
    if (id >= s->n || s->leaf[id] == NO_NODE || *root == NONE)
        ST_BUG("job %zu is not in a set", id);
    uint32_t t = s->leaf[id];
    rnode *x = &s->node[t];
    uint32_t i = 0;
    while (i < x->n && x->item[i] != id)
        i++;
    if (i == x->n)
        ST_BUG("job %zu is not in its leaf", id);
    int64_t g = *gpus = x->least[i];
    double a = *aux = x->amin[i];
    *key = x->key[i];
    close_slot(s, x, i);
    x->total--;
    x->gsum -= g;
    s->leaf[id] = NO_NODE;
    while (x->up != NO_NODE) {
        uint32_t pt = x->up;
        rnode *p = &s->node[pt];
        uint32_t j = slot_of(p, t);
        p->total--;
        p->gsum -= g;
        if (!x->n) {
            free_node(s, t);
            close_slot(s, p, j);
        } else {
            p->size[j]--;
            p->sum[j] -= g;
            p->key[j] = x->key[x->n - 1];
            if (p->least[j] == g) /* the least may have gone: none is below g */
                p->least[j] = least_of(x, g);
            if (s->figures && !(p->amin[j] < a))
                p->amin[j] = amin_of(x);
        }
        t = pt;
        x = p;
    }
    if (t != *root)
        ST_BUG("job %zu is not in the set it is removed from", id);
    while (!x->leaf && x->n == 1) { /* a root of one child: the child */
        uint32_t c = x->item[0];
        free_node(s, t);
        t = c;
        x = &s->node[t];
        x->up = NO_NODE;
    }
    *root = t;
    if (!x->n) {
        free_node(s, t);
        *root = NONE;
    }
}

void st__rset_remove(st__rset *s, size_t *root, size_t id)
{
    st__rkey k;
    int64_t g;
    double a;
    take(s, root, id, &k, &g, &a);
}

int st__rset_has(const st__rset *s, size_t id)
{
    return id < s->n && s->leaf[id] != NO_NODE;
}

static size_t first_in(const st__rset *s, uint32_t t, int64_t b, st__rset_ok_fn ok, const void *c)
{
    const rnode *x = &s->node[t];
    for (uint32_t i = 0; i < x->n; i++) {
        if (x->least[i] > b || (ok && !ok(c, x->amin[i])))
            continue;
        if (x->leaf)
            return x->item[i];
        size_t f = first_in(s, x->item[i], b, ok, c);
        if (f != NONE)
            return f; /* else both tests pass somewhere in it, never on one member: go on */
    }
    return NONE;
}

size_t st__rset_first(const st__rset *s, size_t root, int64_t b, st__rset_ok_fn ok, const void *c)
{
    return root == NONE ? NONE : first_in(s, (uint32_t)root, b, ok, c);
}

static size_t first_after_in(const st__rset *s, uint32_t t, const st__rkey *after, int64_t b)
{
    const rnode *x = &s->node[t];
    for (uint32_t i = 0; i < x->n; i++) {
        if (!st__rkey_less(after, &x->key[i]) || x->least[i] > b)
            continue; /* all of it at or before `after`, or none fits */
        if (x->leaf)
            return x->item[i];
        size_t f = first_after_in(s, x->item[i], after, b);
        if (f != NONE)
            return f;
    }
    return NONE;
}

size_t st__rset_first_after(const st__rset *s, size_t root, const st__rkey *after, int64_t b)
{
    if (root == NONE)
        return NONE;
    if (!after)
        return first_in(s, (uint32_t)root, b, NULL, NULL);
    return first_after_in(s, (uint32_t)root, after, b);
}

void st__rset_prefix(const st__rset *s, size_t root, st__rset_pred_fn pred, const void *ctx,
                     size_t *n, int64_t *gpus)
{
    *n = 0;
    *gpus = 0;
    if (root == NONE)
        return;
    const rnode *x = &s->node[root];
    for (uint32_t i = 0; i < x->n;) {
        if (pred(ctx, &x->key[i])) { /* its last member passes: all of it does */
            *n += size_at(x, i);
            *gpus += sum_at(x, i);
            i++;
        } else if (x->leaf) {
            return;
        } else {
            x = &s->node[x->item[i]];
            i = 0;
        }
    }
}

void st__rset_below(const st__rset *s, size_t root, const st__rkey *bound, size_t *n, int64_t *gpus)
{
    *n = 0;
    *gpus = 0;
    if (root == NONE)
        return;
    const rnode *x = &s->node[root];
    if (st__rkey_less(&x->key[x->n - 1], bound)) { /* the whole set */
        *n = x->total;
        *gpus = x->gsum;
        return;
    }
    for (;;) { /* the slots before the first not below bound, then into that one */
        uint32_t i = lower_bound(x, x->n, bound);
        for (uint32_t k = 0; k < i; k++) {
            *n += size_at(x, k);
            *gpus += sum_at(x, k);
        }
        if (x->leaf || i == x->n)
            return;
        x = &s->node[x->item[i]];
    }
}

size_t st__rset_reach(const st__rset *s, size_t root, int64_t need, size_t *n, int64_t *gpus)
{
    *n = 0;
    *gpus = 0;
    if (root == NONE)
        return NONE;
    const rnode *x = &s->node[root];
    for (uint32_t i = 0; i < x->n;) {
        if (*gpus + sum_at(x, i) < need) {
            *n += size_at(x, i);
            *gpus += sum_at(x, i);
            i++;
        } else if (x->leaf) {
            *n += 1;
            *gpus += x->least[i];
            return x->item[i];
        } else {
            x = &s->node[x->item[i]];
            i = 0;
        }
    }
    return NONE;
}

size_t st__rset_at(const st__rset *s, size_t root, size_t k)
{
    if (root == NONE || k >= s->node[root].total)
        return NONE;
    const rnode *x = &s->node[root];
    for (uint32_t i = 0;;) {
        if (k >= size_at(x, i)) {
            k -= size_at(x, i++);
        } else if (x->leaf) {
            return x->item[i];
        } else {
            x = &s->node[x->item[i]];
            i = 0;
        }
    }
}

size_t st__rset_seek(const st__rset *s, size_t root, size_t k, st__rset_pos *p)
{
    if (root == NONE || k >= s->node[root].total)
        return NONE;
    uint32_t t = (uint32_t)root;
    for (uint32_t i = 0;;) {
        const rnode *x = &s->node[t];
        if (k >= size_at(x, i)) {
            k -= size_at(x, i++);
        } else if (x->leaf) {
            *p = (st__rset_pos){t, i};
            return x->item[i];
        } else {
            t = x->item[i];
            i = 0;
        }
    }
}

size_t st__rset_step(const st__rset *s, size_t root, size_t k, st__rset_pos *p)
{
    const rnode *x = &s->node[p->node];
    if (p->slot + 1 < x->n)
        return x->item[++p->slot];
    return st__rset_seek(s, root, k + 1, p); /* the next leaf */
}

size_t st__rset_last(const st__rset *s, size_t root)
{
    if (root == NONE)
        return NONE;
    const rnode *x = &s->node[root];
    while (!x->leaf)
        x = &s->node[x->item[x->n - 1]];
    return x->item[x->n - 1];
}

size_t st__rset_size(const st__rset *s, size_t root)
{
    return root == NONE ? 0 : s->node[root].total;
}

int64_t st__rset_gpus(const st__rset *s, size_t root)
{
    return root == NONE ? 0 : s->node[root].gsum;
}

/* A member taken out by st__rset_start_fitting: what it goes back with. */
typedef struct passed {
    st__rkey key;
    int64_t gpus;
    double aux;
} passed;

void st__rset_start_fitting(st__rset *s, size_t *root, st_sched_view *v, size_t *scratch)
{
    size_t n = 0, id;
    passed *back = NULL;
    size_t cap = 0;
    while (st_sched_free_gpus(v) > 0 &&
           (id = st__rset_first(s, *root, st_sched_free_gpus(v), NULL, NULL)) != NONE) {
        passed p;
        take(s, root, id, &p.key, &p.gpus, &p.aux);
        if (st_sched_start(v, id))
            continue;
        back = st_xgrow(back, sizeof *back, n + 1, &cap);
        back[n] = p;
        scratch[n++] = id;
    }
    for (size_t k = 0; k < n; k++) /* passed over: back, with the key and figures they had */
        st__rset_add(s, root, scratch[k], back[k].key, back[k].gpus, back[k].aux);
    free(back);
}
