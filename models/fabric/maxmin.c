/* Incremental weighted max-min fairness: a bipartite entity <-> link graph, a breadth-first
 * search that finds the components an add or remove disturbed, and progressive filling over
 * just those components with an indexed heap of links keyed by their fill level. The method and
 * its numerics are described in docs/models/flow-model.md. */
#include "models/fabric/maxmin.h"

#include "models/fabric/maxmin_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static void check_capacity(int32_t l, double cap)
{
    if (!(cap > 0) || isinf(cap))
        ST_BUG("link %d has capacity %g; it must be finite and > 0", (int)l, cap);
}

/* Room for cap links in every per-link array (a new link's fields are set by its maker). The
 * links, 80 bytes each, written for every link and read at random by adds, searches and fills,
 * on huge pages; the heap stays on plain ones, since a solve fills only its component's part
 * (a huge page is zeroed whole on its first touch). */
static void grow_links(st_maxmin *m, size_t cap)
{
    size_t old = m->links_cap;
    m->links = st_xrealloc_huge(m->links, old * sizeof *m->links, cap * sizeof *m->links);
    m->dirty_links = st_xrealloc(m->dirty_links, cap * sizeof *m->dirty_links);
    m->comp_links = st_xrealloc(m->comp_links, cap * sizeof *m->comp_links);
    m->heap = st_xrealloc(m->heap, cap * sizeof *m->heap);
    m->touched = st_xrealloc(m->touched, cap * sizeof *m->touched);
    m->slot_of = st_xrealloc(m->slot_of, cap * sizeof *m->slot_of);
    m->links_cap = cap;
}

st_maxmin *st_maxmin_new(int32_t n_links, const double *capacity)
{
    if (n_links < 0)
        ST_BUG("max-min solver with %d links", (int)n_links);
    st_maxmin *m = st_xcalloc(1, sizeof *m);
    size_t nl = (size_t)n_links;
    m->n_links = n_links;
    m->base_links = n_links;
    m->removed_min = INFINITY;
    grow_links(m, nl);
    for (int32_t l = 0; l < n_links; l++) {
        check_capacity(l, capacity[l]);
        m->links[l] = (mm_link){.cap = capacity[l], .hpos = -1};
        m->slot_of[l] = -1;
    }
    return m;
}

static void mark_link_dirty(st_maxmin *m, int32_t l);

/* Note link l as touched, for st_maxmin_reset, in room already made (reserve_used). */
static inline void note_used(st_maxmin *m, int32_t l)
{
    if (m->links[l].used)
        return;
    m->links[l].used = 1;
    m->used[m->n_used++] = l;
}

/* Room in the list of touched links for k more: an add reserves its links' at once, not one
 * growth check a link (every link of every entity comes through here). */
static void reserve_used(st_maxmin *m, size_t k)
{
    m->used = st_xgrow(m->used, sizeof *m->used, m->n_used + k + 1, &m->used_cap);
}

static void use_link(st_maxmin *m, int32_t l)
{
    reserve_used(m, 1);
    note_used(m, l);
}

int32_t st_maxmin_add_link(st_maxmin *m, double capacity)
{
    if (m->n_links == INT32_MAX)
        ST_BUG("max-min solver already has %d links", (int)m->n_links);
    int32_t l = m->n_links;
    check_capacity(l, capacity);
    if ((size_t)l + 1 > m->links_cap)
        grow_links(m, m->links_cap ? 2 * m->links_cap : 8);
    memset(&m->links[l], 0, sizeof m->links[l]);
    m->links[l].cap = capacity;
    m->links[l].hpos = -1;
    m->slot_of[l] = -1;
    m->n_links++;
    m->cap_dirty = 1;
    return l;
}

void st_maxmin_set_capacity(st_maxmin *m, int32_t link, double capacity)
{
    if (link < 0 || link >= m->n_links)
        ST_BUG("link %d outside [0, %d)", (int)link, (int)m->n_links);
    check_capacity(link, capacity);
    if (m->links[link].cap == capacity)
        return;
    use_link(m, link);
    if (link < m->base_links) {
        m->undo = st_xgrow(m->undo, sizeof *m->undo, m->n_undo + 1, &m->undo_cap);
        m->undo[m->n_undo].l = link;
        m->undo[m->n_undo++].cap = m->links[link].cap;
    }
    m->links[link].cap = capacity;
    m->cap_dirty = 1;
    mark_link_dirty(m, link);
}

void st_maxmin_free(st_maxmin *m)
{
    if (!m)
        return;
    st__mm_pool_release(&m->pool); /* every edge list and entity block at once */
    free(m->links);
    free(m->ents);
    free(m->free_ids);
    free(m->dirty_ents);
    free(m->dirty_links);
    free(m->slot_of);
    free(m->scratch_link);
    free(m->scratch_w);
    free(m->comp_ents);
    free(m->comp_links);
    free(m->heap);
    free(m->touched);
    free(m->changed);
    free(m->used);
    free(m->undo);
    free(m);
}

/* Give entity e's block of links, weights and positions, if it has one, back to the pool. */
static void drop_block(st_maxmin *m, mm_ent *e)
{
    if (e->w)
        st__mm_pool_put(&m->pool, (mm_edge *)(void *)e->w, st__mm_pool_class((size_t)e->cap));
}

/* Give link L's edge list, if it has one, back to the pool. */
static void drop_edges(st_maxmin *m, mm_link *L)
{
    if (L->ecap)
        st__mm_pool_put(&m->pool, L->e.many, st__mm_pool_class(L->ecap));
}

void st_maxmin_reset(st_maxmin *m)
{
    for (size_t i = 0; i < m->n_ents; i++)
        drop_block(m, &m->ents[i]);
    m->n_ents = m->n_free = m->n_dirty_ents = m->n_dirty_links = 0;
    for (size_t i = m->n_undo; i-- > 0;) /* latest first: the first change's old capacity */
        m->links[m->undo[i].l].cap = m->undo[i].cap;
    m->n_undo = 0;
    for (size_t i = 0; i < m->n_used; i++) {
        int32_t l = m->used[i];
        mm_link *L = &m->links[l];
        if (l >= m->base_links) { /* a private link: gone (st_maxmin_add_link clears its slot) */
            drop_edges(m, L);
            continue;
        }
        /* As st_maxmin_new left it, but for the edge list's allocation, kept for reuse. */
        *L = (mm_link){.cap = L->cap, .e = L->e, .ecap = L->ecap, .hpos = -1};
    }
    m->n_used = 0;
    m->n_links = m->base_links;
    m->epoch = 0; /* every mark is 0 again: no visit of the last epoch survives */
    m->comp_whole = 0;
    m->comp_epoch = 0;
    m->n_comp_ents = m->n_comp_links = m->heap_n = m->n_changed = 0;
    m->no_loads = 0;
    m->removed_min = INFINITY;
    m->cap_dirty = m->partial = 0;
}

void st_maxmin_rebase(st_maxmin *m, int32_t n_links, const double *capacity)
{
    if (n_links < 0)
        ST_BUG("max-min solver with %d links", (int)n_links);
    st_maxmin_reset(m); /* no entity, no private link: links [0, base_links) as made */
    int32_t old = m->base_links;
    for (int32_t l = n_links; l < old; l++) /* links it no longer has: their edge lists */
        drop_edges(m, &m->links[l]);
    size_t nl = (size_t)n_links;
    if (nl > m->links_cap)
        grow_links(m, nl);
    for (int32_t l = 0; l < n_links; l++) {
        check_capacity(l, capacity[l]);
        /* A link the reset left (edge list kept) is as st_maxmin_new's but for its capacity: the
         * rest is written only for new links, not rewritten for 10^5 on every rebase. */
        if (l < old) {
            m->links[l].cap = capacity[l];
            continue;
        }
        m->links[l] = (mm_link){.cap = capacity[l], .hpos = -1};
        m->slot_of[l] = -1;
    }
    m->n_links = n_links;
    m->base_links = n_links;
}

static void mark_link_dirty(st_maxmin *m, int32_t l)
{
    if (m->links[l].dirty)
        return;
    m->links[l].dirty = 1;
    m->dirty_links[m->n_dirty_links++] = l;
}

static void mark_ent_dirty(st_maxmin *m, int64_t id)
{
    if (m->ents[id].dirty)
        return;
    m->ents[id].dirty = 1;
    m->dirty_ents =
        st_xgrow(m->dirty_ents, sizeof *m->dirty_ents, m->n_dirty_ents + 1, &m->dirty_ents_cap);
    m->dirty_ents[m->n_dirty_ents++] = id;
}

static int64_t take_slot(st_maxmin *m)
{
    if (m->n_free > 0)
        return m->free_ids[--m->n_free];
    if (m->n_ents == INT32_MAX)
        ST_BUG("max-min solver already has %zu entities", m->n_ents);
    m->ents = st_xgrow(m->ents, sizeof *m->ents, m->n_ents + 1, &m->ents_cap);
    memset(&m->ents[m->n_ents], 0, sizeof *m->ents);
    return (int64_t)m->n_ents++;
}

/* Merge duplicate links (summing their weights) in first-appearance order, using slot_of as an
 * O(1) map from link to position so a 32768-member transfer's route list merges in O(n). */
static int32_t merge_links(st_maxmin *m, const int32_t *links, const double *weights, int n,
                           int32_t *out_link, double *out_w)
{
    int32_t k = 0;
    for (int i = 0; i < n; i++) {
        int32_t l = links[i];
        double w = weights ? weights[i] : 1.0;
        if (l < 0 || l >= m->n_links)
            ST_BUG("entity crosses link %d; the solver has %d links", (int)l, (int)m->n_links);
        if (weights && (!(w > 0) || isinf(w))) /* 1 without weights: no test a link */
            ST_BUG("entity crosses link %d with weight %g; it must be finite and > 0", (int)l, w);
        if (m->slot_of[l] < 0) {
            m->slot_of[l] = k;
            out_link[k] = l;
            out_w[k++] = w;
        } else {
            out_w[m->slot_of[l]] += w;
        }
    }
    for (int32_t j = 0; j < k; j++)
        m->slot_of[out_link[j]] = -1;
    return k;
}

/* Append edge d to link L (id l): in place while it is the link's only one and the link has
 * no list, else into the list, made (with the edge in place moved in) or grown into the next
 * class's (twice the room), from the pool. */
static void push_edge(st_maxmin *m, mm_link *L, int32_t l, mm_edge d)
{
    if (L->n == UINT32_MAX)
        ST_BUG("link %d already carries %u entities", (int)l, L->n);
    if (L->ecap == 0 && L->n == 0) {
        L->e.one = d;
        L->n = 1;
        return;
    }
    if (L->n + 1 > L->ecap) {
        int c = st__mm_pool_class((size_t)L->n + 1);
        mm_edge *e = st__mm_pool_get(&m->pool, c);
        if (L->ecap == 0) { /* n is 1: the edge in place moves into the list */
            e[0] = L->e.one;
        } else {
            memcpy(e, L->e.many, L->n * sizeof *e);
            drop_edges(m, L);
        }
        L->e.many = e;
        L->ecap = (uint32_t)8 << c;
    }
    L->e.many[L->n++] = d;
}

int64_t st_maxmin_add(st_maxmin *m, const int32_t *links, const double *weights, int n)
{
    if (n < 0)
        ST_BUG("entity with %d links", n);
    m->scratch_link =
        st_xgrow(m->scratch_link, sizeof *m->scratch_link, (size_t)n, &m->scratch_link_cap);
    m->scratch_w = st_xgrow(m->scratch_w, sizeof *m->scratch_w, (size_t)n, &m->scratch_w_cap);
    int32_t k = merge_links(m, links, weights, n, m->scratch_link, m->scratch_w);
    /* One block per entity: k weights, then k links, then k edge positions; the block a
     * removed entity left in the slot when it has room (malloc and free of a ring's block, a
     * few hundred kilobytes, cost more than its solve), else one from the pool of edge lists,
     * whose edges are the 16 bytes a link takes here (a pattern's thousands of send/recv
     * entities each cost a malloc and a free). */
    _Static_assert(sizeof(mm_edge) == sizeof(double) + 2 * sizeof(int32_t),
                   "an entity block's link takes an edge's room");
    size_t nk = (size_t)k;
    int64_t id = take_slot(m);
    mm_ent *e = &m->ents[id];
    if (!e->w || e->cap < k) {
        drop_block(m, e);
        int c = st__mm_pool_class(nk ? nk : 1);
        size_t room = (size_t)8 << c;
        e->w = (double *)(void *)st__mm_pool_get(&m->pool, c);
        e->cap = room > INT32_MAX ? INT32_MAX : (int32_t)room; /* still of class c */
    }
    double *w = e->w;
    int32_t cap = e->cap;
    int32_t *lk = (int32_t *)(w + nk);
    int32_t *pos = lk + nk;
    for (size_t j = 0; j < nk; j++) {
        w[j] = m->scratch_w[j];
        lk[j] = m->scratch_link[j];
    }
    *e = (mm_ent){.w = w,
                  .link = lk,
                  .pos = pos,
                  .n = k,
                  .cap = cap,
                  .alive = 1,
                  .fresh = 1,
                  .mark = e->mark,
                  .dirty = e->dirty};
    reserve_used(m, nk);
    for (int32_t j = 0; j < k; j++) {
        if (j + ST__MM_AHEAD < k)
            st__mm_prefetch_link(m, lk[j + ST__MM_AHEAD]);
        if (j + ST__MM_AHEAD / 2 < k)
            st__mm_prefetch_edges(m, lk[j + ST__MM_AHEAD / 2], 1);
        pos[j] = (int32_t)m->links[lk[j]].n;
        push_edge(m, &m->links[lk[j]], lk[j], (mm_edge){.w = w[j], .ent = (int32_t)id, .k = j});
        note_used(m, lk[j]);
    }
    mark_ent_dirty(m, id);
    return id;
}

static mm_ent *live(const st_maxmin *m, int64_t id)
{
    if (id < 0 || (size_t)id >= m->n_ents || !m->ents[id].alive)
        ST_BUG("max-min entity %lld does not exist", (long long)id);
    return &m->ents[id];
}

void st_maxmin_remove(st_maxmin *m, int64_t id)
{
    mm_ent *e = live(m, id);
    if (e->rate < m->removed_min) /* an entity never solved has rate 0: everything refills */
        m->removed_min = e->rate;
    /* Swap-remove each edge from its link, fixing the back-pointer of the edge moved in. */
    for (int32_t j = 0; j < e->n; j++) {
        mm_link *L = &m->links[e->link[j]];
        mm_edge *E = st__mm_edges(L);
        size_t p = (size_t)e->pos[j];
        E[p] = E[--L->n];
        if (p < L->n)
            m->ents[E[p].ent].pos[E[p].k] = (int32_t)p;
        mark_link_dirty(m, e->link[j]);
    }
    e->link = e->pos = NULL; /* the block stays at e->w for the slot's next entity */
    e->n = 0;
    e->alive = 0;
    m->free_ids = st_xgrow(m->free_ids, sizeof *m->free_ids, m->n_free + 1, &m->free_cap);
    m->free_ids[m->n_free++] = id;
}

/* Start a solve: a fresh epoch marks "visited in this solve" without clearing every flag. */
static void next_epoch(st_maxmin *m)
{
    if (++m->epoch == 0) {
        m->comp_whole = 0; /* the marks are cleared: its component is searched again */
        for (int32_t l = 0; l < m->n_links; l++)
            m->links[l].mark = 0;
        for (size_t i = 0; i < m->n_ents; i++)
            m->ents[i].mark = 0;
        m->epoch = 1;
    }
}

static void visit_ent(st_maxmin *m, int64_t id)
{
    if (m->ents[id].mark == m->epoch)
        return;
    m->ents[id].mark = m->epoch;
    m->comp_ents[m->n_comp_ents++] = id; /* room for every entity: collect made it */
}

static void visit_link(st_maxmin *m, int32_t l)
{
    if (m->links[l].mark == m->epoch)
        return;
    m->links[l].mark = m->epoch;
    m->comp_links[m->n_comp_links++] = l;
}

/* Whether the dirty set only takes entities out of the last solve's one component: every dirty
 * entity removed, every dirty link found by that solve's search. Then the components the search
 * would find are that component less its removed entities, all its links kept: each piece left
 * holds a link of a removed entity (the first link on its old path to one), so the search from
 * the dirty links reaches every piece, and nothing outside the old component (a link or
 * entity there would have to be new, so dirty). */
static int only_removed(const st_maxmin *m)
{
    if (!m->comp_whole)
        return 0;
    for (size_t i = 0; i < m->n_dirty_ents; i++)
        if (m->ents[m->dirty_ents[i]].alive)
            return 0;
    for (size_t i = 0; i < m->n_dirty_links; i++)
        if (m->links[m->dirty_links[i]].mark != m->comp_epoch)
            return 0;
    return 1;
}

/* The last solve's component less its removed entities (only_removed). */
static void reuse_component(st_maxmin *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n_comp_ents; i++)
        if (m->ents[m->comp_ents[i]].alive)
            m->comp_ents[k++] = m->comp_ents[i];
    m->n_comp_ents = k;
}

/* Everything reachable from the entities and links visited so far, from positions *ie, *il. */
static void expand(st_maxmin *m, size_t *pe, size_t *pl)
{
    size_t ie = *pe, il = *pl;
    while (ie < m->n_comp_ents || il < m->n_comp_links) {
        for (; ie < m->n_comp_ents; ie++) {
            if (ie + ST__MM_AHEAD < m->n_comp_ents)
                st__mm_prefetch_ent(m, m->comp_ents[ie + ST__MM_AHEAD]);
            const mm_ent *e = &m->ents[m->comp_ents[ie]];
            for (int32_t j = 0; j < e->n; j++)
                visit_link(m, e->link[j]);
        }
        for (; il < m->n_comp_links; il++) {
            if (il + ST__MM_AHEAD < m->n_comp_links)
                st__mm_prefetch_link(m, m->comp_links[il + ST__MM_AHEAD]);
            mm_link *L = &m->links[m->comp_links[il]];
            const mm_edge *E = st__mm_edges(L);
            for (size_t j = 0; j < L->n; j++) {
                if (j + ST__MM_AHEAD < L->n)
                    st__mm_prefetch_ent(m, E[j + ST__MM_AHEAD].ent);
                visit_ent(m, E[j].ent);
            }
        }
    }
    *pe = ie;
    *pl = il;
}

/* The components whose allocation may have changed: those holding a dirty entity or link, since
 * max-min allocations of disjoint components are independent. A breadth-first search of the
 * entity <-> link graph from each dirty one not reached yet, which tells whether they all lie in
 * one component; or, when the dirty set only removes entities from the last solve's one
 * component, that component without a search. The order of the lists found does not matter:
 * the filling takes links by their (level, id) order alone and publish sorts what changed. */
static void collect(st_maxmin *m)
{
    int reuse = only_removed(m);
    for (size_t i = 0; i < m->n_dirty_ents; i++)
        m->ents[m->dirty_ents[i]].dirty = 0;
    for (size_t i = 0; i < m->n_dirty_links; i++)
        m->links[m->dirty_links[i]].dirty = 0;
    if (reuse) {
        m->n_dirty_ents = m->n_dirty_links = 0;
        reuse_component(m);
        /* The removals may have split it: which pieces a later solve takes together (they share
         * its running level) is the search's to say, so the next solve searches. */
        m->comp_whole = 0;
        return;
    }
    m->n_comp_ents = m->n_comp_links = 0;
    /* A search visits each entity once: room for all of them now, not a grow check a visit. */
    m->comp_ents = st_xgrow(m->comp_ents, sizeof *m->comp_ents, m->n_ents, &m->comp_ents_cap);
    size_t ie = 0, il = 0, seeds = 0;
    for (size_t i = 0; i < m->n_dirty_ents; i++) {
        int64_t id = m->dirty_ents[i];
        if (!m->ents[id].alive || m->ents[id].mark == m->epoch)
            continue;
        seeds++;
        visit_ent(m, id);
        expand(m, &ie, &il);
    }
    for (size_t i = 0; i < m->n_dirty_links; i++) {
        int32_t l = m->dirty_links[i];
        if (m->links[l].mark == m->epoch)
            continue;
        seeds++;
        visit_link(m, l);
        expand(m, &ie, &il);
    }
    m->n_dirty_ents = m->n_dirty_links = 0;
    m->comp_whole = seeds == 1;
    m->comp_epoch = m->epoch;
}

/* Removing entities leaves every rate below the least removed rate r as it was: each removed
 * entity's links saturate at or above its own rate, so up to level r the filling freezes the
 * same entities at the same levels with or without them (docs/models/flow-model.md, "Solves
 * after removals"). A solve that only removes (no entity added, no capacity changed) therefore
 * refills only the entities at or above r (less a relative margin for rounding) reached from
 * the removed entities' links through such entities, with the others on their links held at
 * their rates; those not reached keep theirs, their residual capacities unchanged. */
#define REMOVED_MARGIN 1e-9

static int only_removes(const st_maxmin *m)
{
    if (m->cap_dirty || m->n_dirty_links == 0)
        return 0;
    for (size_t i = 0; i < m->n_dirty_ents; i++)
        if (m->ents[m->dirty_ents[i]].alive)
            return 0;
    return 1;
}

/* The entities at or above `floor` reachable from the dirty links through such entities, and
 * their links with the dirty ones (whose loads fell), as the solve's set (m->partial). */
static void collect_above(st_maxmin *m, double floor)
{
    for (size_t i = 0; i < m->n_dirty_ents; i++)
        m->ents[m->dirty_ents[i]].dirty = 0;
    m->n_comp_ents = m->n_comp_links = 0;
    m->comp_ents = st_xgrow(m->comp_ents, sizeof *m->comp_ents, m->n_ents, &m->comp_ents_cap);
    for (size_t i = 0; i < m->n_dirty_links; i++) {
        m->links[m->dirty_links[i]].dirty = 0;
        visit_link(m, m->dirty_links[i]);
    }
    size_t ie = 0, il = 0;
    while (ie < m->n_comp_ents || il < m->n_comp_links) {
        for (; il < m->n_comp_links; il++) {
            mm_link *L = &m->links[m->comp_links[il]];
            const mm_edge *E = st__mm_edges(L);
            for (size_t j = 0; j < L->n; j++)
                if (m->ents[E[j].ent].rate >= floor)
                    visit_ent(m, E[j].ent);
        }
        for (; ie < m->n_comp_ents; ie++) {
            const mm_ent *e = &m->ents[m->comp_ents[ie]];
            for (int32_t j = 0; j < e->n; j++)
                visit_link(m, e->link[j]);
        }
    }
    m->n_dirty_ents = m->n_dirty_links = 0;
    m->comp_whole = 0; /* a partial set: the next solve that needs the component searches */
    m->partial = 1;
}

static int rate_differs(double a, double b)
{
    if (a == b)
        return 0;
    if (isinf(a) || isinf(b))
        return 1;
    double fa = fabs(a), fb = fabs(b); /* fmax without its library call: a NaN fails > anyway */
    return fabs(a - b) > RATE_REL_TOL * (fb > fa ? fb : fa);
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Publish new rates (an entity within RATE_REL_TOL of its old rate keeps the old one, so what
 * callers saw stays exactly what the solver reports), list the changes, recompute link loads. */
static void publish(st_maxmin *m)
{
    m->n_changed = 0;
    for (size_t i = 0; i < m->n_comp_ents; i++) {
        int64_t id = m->comp_ents[i];
        mm_ent *e = &m->ents[id];
        if (!e->fresh && !rate_differs(e->rate, e->nrate))
            continue;
        e->fresh = 0;
        e->rate = e->nrate;
        m->changed = st_xgrow(m->changed, sizeof *m->changed, m->n_changed + 1, &m->changed_cap);
        m->changed[m->n_changed++] = id;
    }
    qsort(m->changed, m->n_changed, sizeof *m->changed, cmp_id);
    for (size_t i = 0; !m->no_loads && i < m->n_comp_links; i++) {
        mm_link *L = &m->links[m->comp_links[i]];
        const mm_edge *E = st__mm_edges(L);
        L->load = 0;
        for (size_t j = 0; j < L->n; j++)
            L->load += E[j].w * m->ents[E[j].ent].rate;
    }
}

size_t st_maxmin_solve(st_maxmin *m, const int64_t **changed)
{
    next_epoch(m);
    m->partial = 0;
    if (only_removes(m))
        collect_above(m, m->removed_min * (1 - REMOVED_MARGIN));
    else
        collect(m);
    m->removed_min = INFINITY;
    m->cap_dirty = 0;
    st__mm_fill(m);
    publish(m);
    if (changed)
        *changed = m->changed;
    return m->n_changed;
}

double st_maxmin_rate(const st_maxmin *m, int64_t id)
{
    return live(m, id)->rate;
}

void st_maxmin_drop_loads(st_maxmin *m)
{
    m->no_loads = 1;
}

double st_maxmin_load(const st_maxmin *m, int32_t link)
{
    if (m->no_loads)
        ST_BUG("link load asked of a solver that keeps none (st_maxmin_drop_loads)");
    if (link < 0 || link >= m->n_links)
        ST_BUG("link %d out of range (%d links)", (int)link, (int)m->n_links);
    return m->links[link].load;
}

double st_maxmin_capacity(const st_maxmin *m, int32_t link)
{
    if (link < 0 || link >= m->n_links)
        ST_BUG("link %d out of range (%d links)", (int)link, (int)m->n_links);
    return m->links[link].cap;
}

int st_maxmin_entity_links(const st_maxmin *m, int64_t id, const int32_t **links,
                           const double **weights)
{
    const mm_ent *e = live(m, id);
    *links = e->link;
    if (weights)
        *weights = e->w;
    return e->n;
}

size_t st_maxmin_solved_links(const st_maxmin *m, const int32_t **links)
{
    if (links)
        *links = m->comp_links;
    return m->n_comp_links;
}

size_t st_maxmin_solved_entities(const st_maxmin *m)
{
    return m->n_comp_ents;
}
