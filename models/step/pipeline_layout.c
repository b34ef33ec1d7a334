/* The pipeline schedule's task layout (pipeline_internal.h): each stage's ordered task list in
 * Megatron-LM's 1F1B or interleaved 1F1B order and the data dependencies between the tasks,
 * which depend on (pp, v, m) alone; and the cache of layouts by those three (pipeline.h,
 * st_pipe_layouts), since a sizing search evaluates the same few shapes of schedule with
 * thousands of different task times. */
#include <stdlib.h>

#include "models/step/pipeline_internal.h"
#include "sim/xalloc.h"

/* Forward passes a stage runs before its first backward: Megatron-LM's schedules.py,
 * forward_backward_pipelining_without_interleaving and ..._with_interleaving (counted in
 * chunk-micro-batches, and everything when m == pp under interleaving). */
static int64_t warmup(int64_t pp, int64_t v, int64_t m, int64_t s)
{
    int64_t total = m * v, w;
    if (v == 1)
        return pp - s - 1 < m ? pp - s - 1 : m;
    if (m == pp)
        return total;
    w = (pp - s - 1) * 2 + (v - 1) * pp;
    return w < total ? w : total;
}

/* Megatron's numbering of a stage's forward (or backward) iterations: groups of pp micro-batches
 * run chunk by chunk (get_model_chunk_id, get_microbatch_id_in_model_chunk); backwards visit
 * the chunks in reverse. Stepped one iteration at a time, so building needs no division. */
typedef struct iter {
    int64_t group, lc, r; /* iteration = (group * v + lc) * pp + r */
} iter;

static inline void iter_next(const pipe_layout *l, iter *it)
{
    if (++it->r < l->pp)
        return;
    it->r = 0;
    if (++it->lc < l->v)
        return;
    it->lc = 0;
    it->group++;
}

/* Put the next iteration of `kind` at the next position of stage s; round counts positions
 * from the end of the warm-up in rounds of T (the caller keeps it). */
static inline void put(pipe_layout *l, int64_t s, int64_t *pos, int kind, iter *it, int64_t round)
{
    int64_t lc = kind == KIND_B ? l->v - 1 - it->lc : it->lc;
    int64_t c = lc * l->pp + s, mb = it->group * l->pp + it->r, id = s * l->len + *pos;
    l->t[id] = (pipe_task){.prod = -1,
                           .cons = -1,
                           .cstage = -1,
                           .chunk = (int32_t)c,
                           .mb = (int32_t)mb,
                           .round = (int32_t)round,
                           .kind = (uint8_t)kind};
    l->idx[(kind * l->nchunk + c) * l->m + mb] = (int32_t)id;
    iter_next(l, it);
    (*pos)++;
}

/* Warm-up forwards, then one forward and one backward at a time, then the remaining backwards.
 * Rounds: T = 2 * rs * v positions, rs = pp under interleaving, else 1 (see find_period,
 * pipeline_periodic.c). */
static void build_stage(pipe_layout *l, int64_t s)
{
    int64_t total = l->m * l->v, w = l->warm[s], pos = 0, q = 0, round = 0;
    int64_t T = 2 * l->v * (l->v > 1 ? l->pp : 1);
    iter f = {0, 0, 0}, b = {0, 0, 0};
    for (int64_t i = 0; i < w; i++)
        put(l, s, &pos, KIND_F, &f, -((w - i + T - 1) / T));
    for (int64_t k = 0; k < total - w; k++) {
        put(l, s, &pos, KIND_F, &f, round);
        put(l, s, &pos, KIND_B, &b, round);
        if ((q += 2) == T) {
            q = 0;
            round++;
        }
    }
    for (int64_t k = total - w; k < total; k++) {
        put(l, s, &pos, KIND_B, &b, round);
        if (++q == T) {
            q = 0;
            round++;
        }
    }
}

/* Data dependencies: F of chunk c needs F of c - 1 (on the previous stage), B of c needs B of
 * c + 1 (on the next), and B of the last chunk needs its own F (the loss). Each output has
 * exactly one consumer; a task without a producer keeps prod -1. */
static void link_tasks(pipe_layout *l)
{
    int64_t nc = l->nchunk, pp = l->pp;
    for (int64_t s = 0; s < pp; s++) {
        int64_t prev = s == 0 ? pp - 1 : s - 1, next = s == pp - 1 ? 0 : s + 1;
        for (int64_t id = s * l->len; id < (s + 1) * l->len; id++) {
            pipe_task *u = &l->t[id];
            int64_t pk = u->kind, pc = u->kind == KIND_F ? u->chunk - 1 : u->chunk + 1;
            int64_t src = u->kind == KIND_F ? prev : next;
            if (u->kind == KIND_B && u->chunk == nc - 1) {
                pk = KIND_F;
                pc = nc - 1;
                src = s;
            }
            if (pc < 0)
                continue;
            int32_t pid = l->idx[(pk * nc + pc) * l->m + u->mb];
            u->prod = pid;
            l->t[pid].cons = (int32_t)id;
            l->t[pid].cstage = (int32_t)s;
            /* With two stages the next stage is also the previous one: one link. */
            l->t[pid].link = src == s                       ? LINK_NONE
                             : u->kind == KIND_F || pp == 2 ? LINK_NEXT
                                                            : LINK_PREV;
        }
    }
}

void st__pipe_layout_build(pipe_layout *l, int64_t pp, int64_t v, int64_t m)
{
    int64_t len = 2 * m * v, n = pp * len, nidx = 2 * pp * v * m;
    l->bytes = (size_t)pp * sizeof(int64_t) + (size_t)n * sizeof(pipe_task) +
               (size_t)nidx * sizeof(int32_t);
    char *b = st_xmalloc(l->bytes);
    l->pp = pp;
    l->v = v;
    l->m = m;
    l->nchunk = pp * v;
    l->len = len;
    l->warm = (int64_t *)b;
    l->t = (pipe_task *)(l->warm + pp);
    l->idx = (int32_t *)(l->t + n);
    l->block = b;
    for (int64_t s = 0; s < pp; s++) {
        l->warm[s] = warmup(pp, v, m, s);
        build_stage(l, s);
    }
    link_tasks(l);
}

void st__pipe_layout_release(pipe_layout *l)
{
    free(l->block);
    l->block = NULL;
}

/* ---- The cache: an open-addressing table of layouts by (pp, v, m), at most half full. ---- */

struct st_pipe_layouts {
    pipe_layout **slot;
    size_t cap, n, bytes;
};

st_pipe_layouts *st_pipe_layouts_new(void)
{
    return st_xcalloc(1, sizeof(st_pipe_layouts));
}

void st_pipe_layouts_free(st_pipe_layouts *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slot[i]) {
            st__pipe_layout_release(c->slot[i]);
            free(c->slot[i]);
        }
    free(c->slot);
    free(c);
}

size_t st_pipe_layouts_count(const st_pipe_layouts *c)
{
    return c->n;
}

size_t st_pipe_layouts_bytes(const st_pipe_layouts *c)
{
    return c->bytes;
}

/* The slot of (pp, v, m) in c: where it is, or the empty one where it would go. */
static size_t slot_of(const st_pipe_layouts *c, int64_t pp, int64_t v, int64_t m)
{
    uint64_t h = (uint64_t)pp * 0x9e3779b97f4a7c15ULL ^ (uint64_t)v * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)m * 0x165667b19e3779f9ULL;
    size_t i = (size_t)(h ^ (h >> 29)) & (c->cap - 1);
    for (const pipe_layout *l; (l = c->slot[i]); i = (i + 1) & (c->cap - 1))
        if (l->pp == pp && l->v == v && l->m == m)
            break;
    return i;
}

static void grow(st_pipe_layouts *c)
{
    pipe_layout **old = c->slot;
    size_t n = c->cap;
    c->cap = n ? 2 * n : 64;
    c->slot = st_xcalloc(c->cap, sizeof *c->slot);
    for (size_t i = 0; i < n; i++)
        if (old[i])
            c->slot[slot_of(c, old[i]->pp, old[i]->v, old[i]->m)] = old[i];
    free(old);
}

const pipe_layout *st__pipe_layout_get(st_pipe_layouts *c, int64_t pp, int64_t v, int64_t m,
                                       pipe_layout *own)
{
    if (c && c->cap) {
        pipe_layout *l = c->slot[slot_of(c, pp, v, m)];
        if (l)
            return l;
    }
    st__pipe_layout_build(own, pp, v, m);
    if (!c || own->bytes > ST_PIPE_LAYOUT_BUDGET - c->bytes)
        return own;
    if (2 * (c->n + 1) > c->cap)
        grow(c);
    pipe_layout *l = st_xmalloc(sizeof *l);
    *l = *own;
    own->block = NULL; /* now the cache's */
    c->slot[slot_of(c, pp, v, m)] = l;
    c->n++;
    c->bytes += l->bytes;
    return l;
}
