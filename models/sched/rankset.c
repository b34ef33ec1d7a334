/* The policies' ordered sets (rankset.h): a treap over job ids, each subtree holding its least
 * GPU count and least figure. The recursions go as deep as the treap, O(log n) expected. */
#include "models/sched/rankset.h"

#include <stdlib.h>

#include "sim/xalloc.h"

#define NONE    ST__RSET_NONE
#define L(s, t) ((s)->node[t].kid[0])
#define R(s, t) ((s)->node[t].kid[1])

void st__rset_init(st__rset *s, size_t n, st__rset_before_fn before, const void *ctx)
{
    n = n ? n : 1;
    *s = (st__rset){.before = before, .ctx = ctx, .n = n};
    s->node = st_xmalloc(n * sizeof *s->node);
    s->in = st_xcalloc(n, 1);
}

void st__rset_release(st__rset *s)
{
    free(s->node);
    free(s->in);
}

/* A node's heap priority: a fixed mix of its id (splitmix64's finaliser), ties to the lower id,
 * so that the tree's shape, and so every walk, is the same at every run. */
static uint64_t prio(size_t id)
{
    uint64_t z = (uint64_t)id + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int above(size_t a, size_t b)
{
    uint64_t pa = prio(a), pb = prio(b);
    return pa > pb || (pa == pb && a < b);
}

/* Node t's subtree figures from its own and its children's. */
static void pull(st__rset *s, size_t t)
{
    st__rnode *x = &s->node[t];
    x->least = x->gpus;
    x->amin = x->aux;
    x->sum = x->gpus;
    x->size = 1;
    for (int k = 0; k < 2; k++) {
        if (x->kid[k] == NONE)
            continue;
        const st__rnode *c = &s->node[x->kid[k]];
        x->sum += c->sum;
        x->size += c->size;
        if (c->least < x->least)
            x->least = c->least;
        if (c->amin < x->amin)
            x->amin = c->amin;
    }
}

/* The subtree t split into the members before id (*l) and after it (*r). */
static void split(st__rset *s, size_t t, size_t id, size_t *l, size_t *r)
{
    if (t == NONE) {
        *l = *r = NONE;
        return;
    }
    if (s->before(s->ctx, id, t)) {
        split(s, L(s, t), id, l, &L(s, t));
        *r = t;
    } else {
        split(s, R(s, t), id, &R(s, t), r);
        *l = t;
    }
    pull(s, t);
}

/* Subtrees a and b joined, every member of a before every member of b. */
static size_t merge(st__rset *s, size_t a, size_t b)
{
    if (a == NONE)
        return b;
    if (b == NONE)
        return a;
    if (above(a, b)) {
        R(s, a) = merge(s, R(s, a), b);
        pull(s, a);
        return a;
    }
    L(s, b) = merge(s, a, L(s, b));
    pull(s, b);
    return b;
}

static size_t insert(st__rset *s, size_t t, size_t id)
{
    if (t == NONE || above(id, t)) {
        split(s, t, id, &L(s, id), &R(s, id));
        pull(s, id);
        return id;
    }
    if (s->before(s->ctx, id, t))
        L(s, t) = insert(s, L(s, t), id);
    else
        R(s, t) = insert(s, R(s, t), id);
    pull(s, t);
    return t;
}

static size_t erase(st__rset *s, size_t t, size_t id)
{
    if (t == NONE)
        ST_BUG("job %zu is not in its set", id);
    if (t == id)
        return merge(s, L(s, t), R(s, t));
    if (s->before(s->ctx, id, t))
        L(s, t) = erase(s, L(s, t), id);
    else
        R(s, t) = erase(s, R(s, t), id);
    pull(s, t);
    return t;
}

void st__rset_add(st__rset *s, size_t *root, size_t id, int64_t gpus, double aux)
{
    if (id >= s->n || s->in[id])
        ST_BUG("job %zu added twice", id);
    s->in[id] = 1;
    s->node[id].gpus = gpus;
    s->node[id].aux = aux;
    *root = insert(s, *root, id);
}

void st__rset_remove(st__rset *s, size_t *root, size_t id)
{
    if (id >= s->n || !s->in[id])
        ST_BUG("job %zu is not in a set", id);
    *root = erase(s, *root, id);
    s->in[id] = 0;
}

int st__rset_has(const st__rset *s, size_t id)
{
    return id < s->n && s->in[id];
}

size_t st__rset_first(const st__rset *s, size_t t, int64_t b, st__rset_ok_fn ok, const void *c)
{
    if (t == NONE || s->node[t].least > b || (ok && !ok(c, s->node[t].amin)))
        return NONE;
    size_t f = st__rset_first(s, L(s, t), b, ok, c);
    if (f != NONE)
        return f;
    if (s->node[t].gpus <= b && (!ok || ok(c, s->node[t].aux)))
        return t;
    return st__rset_first(s, R(s, t), b, ok, c);
}

size_t st__rset_first_after(const st__rset *s, size_t t, size_t after, int64_t b)
{
    while (t != NONE && s->node[t].least <= b && after != NONE && !s->before(s->ctx, after, t))
        t = R(s, t); /* t and its left subtree are not after `after` */
    if (t == NONE || s->node[t].least > b)
        return NONE;
    size_t f = st__rset_first_after(s, L(s, t), after, b);
    if (f != NONE)
        return f;
    if (s->node[t].gpus <= b)
        return t;
    return st__rset_first_after(s, R(s, t), after, b);
}

void st__rset_prefix(const st__rset *s, size_t t, st__rset_pred_fn pred, const void *ctx, size_t *n,
                     int64_t *gpus)
{
    *n = 0;
    *gpus = 0;
    while (t != NONE) {
        if (!pred(ctx, t)) {
            t = L(s, t);
            continue;
        }
        if (L(s, t) != NONE) {
            *n += s->node[L(s, t)].size;
            *gpus += s->node[L(s, t)].sum;
        }
        *n += 1;
        *gpus += s->node[t].gpus;
        t = R(s, t);
    }
}

size_t st__rset_reach(const st__rset *s, size_t t, int64_t need, size_t *n, int64_t *gpus)
{
    *n = 0;
    *gpus = 0;
    while (t != NONE) {
        size_t l = L(s, t);
        int64_t left = l != NONE ? s->node[l].sum : 0;
        if (l != NONE && *gpus + left >= need) {
            t = l;
            continue;
        }
        *n += (l != NONE ? s->node[l].size : 0) + 1;
        *gpus += left + s->node[t].gpus;
        if (*gpus >= need)
            return t;
        t = R(s, t);
    }
    return NONE;
}

size_t st__rset_at(const st__rset *s, size_t t, size_t k)
{
    while (t != NONE) {
        size_t left = L(s, t) != NONE ? s->node[L(s, t)].size : 0;
        if (k == left)
            return t;
        if (k < left) {
            t = L(s, t);
        } else {
            k -= left + 1;
            t = R(s, t);
        }
    }
    return NONE;
}

size_t st__rset_size(const st__rset *s, size_t root)
{
    return root == NONE ? 0 : s->node[root].size;
}

int64_t st__rset_gpus(const st__rset *s, size_t root)
{
    return root == NONE ? 0 : s->node[root].sum;
}

void st__rset_start_fitting(st__rset *s, size_t *root, st_sched_view *v, size_t *scratch)
{
    size_t n = 0, id;
    while (st_sched_free_gpus(v) > 0 &&
           (id = st__rset_first(s, *root, st_sched_free_gpus(v), NULL, NULL)) != NONE) {
        st__rset_remove(s, root, id);
        if (!st_sched_start(v, id))
            scratch[n++] = id;
    }
    for (size_t k = 0; k < n; k++) /* passed over: back, with the figures they had */
        st__rset_add(s, root, scratch[k], s->node[scratch[k]].gpus, s->node[scratch[k]].aux);
}
