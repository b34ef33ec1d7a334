/* Progressive filling (Bertsekas and Gallager, "Data Networks", section 6.5.2) over one solve's
 * components: every unfrozen entity's rate rises together; the link whose remaining capacity runs
 * out first (the least fill level, from an indexed 4-ary heap of links) freezes its entities at
 * that level. The numerics are in docs/models/flow-model.md. */
#include <math.h>

#include "models/fabric/maxmin_internal.h"

/* ---- Indexed 4-ary min-heap of links by (fill level, link id). ----
 * Four children a node: a sift moves an entry half as many levels as a binary heap, and each
 * move also writes the moved link's hpos (a cache miss into links[] on a large component),
 * while a node's four 16-byte children share one cache line. Keys are unique (ties break on the
 * link id), so the links come out in the same order whatever the heap's shape: the rates are
 * those of any exact priority queue. */
#define HEAP_D 4

static int heap_less(mm_hent a, mm_hent b)
{
    if (a.lvl != b.lvl)
        return a.lvl < b.lvl;
    return a.l < b.l;
}

static void heap_put(st_maxmin *m, size_t i, mm_hent h)
{
    m->heap[i] = h;
    m->links[h.l].hpos = (int32_t)i;
}

/* Move entry i up or down to its place; returns where it lands. */
static size_t sift_up(st_maxmin *m, size_t i)
{
    mm_hent h = m->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / HEAP_D;
        if (!heap_less(h, m->heap[p]))
            break;
        heap_put(m, i, m->heap[p]);
        i = p;
    }
    heap_put(m, i, h);
    return i;
}

static void sift_down(st_maxmin *m, size_t i)
{
    mm_hent h = m->heap[i];
    for (;;) {
        size_t c = HEAP_D * i + 1, end = c + HEAP_D;
        if (c >= m->heap_n)
            break;
        if (end > m->heap_n)
            end = m->heap_n;
        for (size_t k = c + 1; k < end; k++)
            if (heap_less(m->heap[k], m->heap[c]))
                c = k;
        if (!heap_less(m->heap[c], h))
            break;
        heap_put(m, i, m->heap[c]);
        i = c;
    }
    heap_put(m, i, h);
}

static void heap_remove(st_maxmin *m, int32_t l)
{
    size_t i = (size_t)m->links[l].hpos;
    m->links[l].hpos = -1;
    mm_hent last = m->heap[--m->heap_n];
    if (i == m->heap_n)
        return;
    heap_put(m, i, last);
    sift_down(m, sift_up(m, i));
}

/* Order heap[0..heap_n) (whose hpos are set) as a heap: Floyd's bottom-up construction, O(n). */
static void heapify(st_maxmin *m)
{
    for (size_t i = (m->heap_n + HEAP_D - 2) / HEAP_D; i-- > 0;) /* parents, bottom up */
        sift_down(m, i);
}

/* ---- Progressive filling. ---- */

/* The link's fill level: remaining capacity over unfrozen weight. */
static double level_of(mm_link *L)
{
    if (L->rem < CAP_REL_EPS * L->cap)
        L->rem = 0;
    return L->rem / L->wsum;
}

/* A link's remaining capacity and unfrozen weight at level 0: all of its entities, or in a
 * partial solve (maxmin.c, collect_above) those in the solve's set (marked this epoch), the
 * others' rates already taken off its capacity. */
static void init_link(st_maxmin *m, mm_link *L)
{
    const mm_edge *E = st__mm_edges(L);
    L->rem = L->cap;
    L->wsum = 0;
    L->unfrozen = 0;
    for (size_t j = 0; j < L->n; j++) {
        const mm_ent *e = &m->ents[E[j].ent];
        if (!m->partial || e->mark == m->epoch) {
            L->wsum += E[j].w;
            L->unfrozen++;
        } else {
            L->rem -= E[j].w * e->rate;
        }
    }
    L->wsum0 = L->wsum;
}

/* Every unfrozen entity sits at the common level; those on links in the heap push the links'
 * levels (remaining capacity over unfrozen weight) toward saturation. */
static void init_fill(st_maxmin *m)
{
    m->heap_n = 0;
    for (size_t i = 0; i < m->n_comp_links; i++) {
        if (i + ST__MM_AHEAD < m->n_comp_links)
            st__mm_prefetch_link(m, m->comp_links[i + ST__MM_AHEAD]);
        if (i + ST__MM_AHEAD / 2 < m->n_comp_links)
            st__mm_prefetch_edges(m, m->comp_links[i + ST__MM_AHEAD / 2], 0);
        int32_t l = m->comp_links[i];
        mm_link *L = &m->links[l];
        L->hpos = -1;
        init_link(m, L);
        if (L->unfrozen == 0)
            continue;
        heap_put(m, m->heap_n++, (mm_hent){.lvl = level_of(L), .l = l});
    }
    heapify(m);
    for (size_t i = 0; i < m->n_comp_ents; i++) {
        mm_ent *e = &m->ents[m->comp_ents[i]];
        e->frozen = e->n == 0;
        e->nrate = e->n == 0 ? INFINITY : 0;
    }
}

static void resum(st_maxmin *m, mm_link *L)
{
    const mm_edge *E = st__mm_edges(L);
    L->wsum = 0;
    for (size_t j = 0; j < L->n; j++)
        if (!m->ents[E[j].ent].frozen)
            L->wsum += E[j].w;
    L->wsum0 = L->wsum;
}

/* Fix entity e at rate `level`: its weighted rate becomes fixed load on each of its links, which
 * raises or lowers those links' fill levels (never below `level`, in exact arithmetic). The
 * links' heap entries are left as they were and the links listed for settle: a saturation of a
 * symmetric pattern freezes many entities on each link it touches, and one sift a link replaces
 * one per entity. The sums and the rounding to zero are done here, freeze by freeze, as
 * before, so each link's level is bit for bit the one its last freeze gave. */
static void freeze(st_maxmin *m, mm_ent *e, double level)
{
    e->frozen = 1;
    e->nrate = level;
    for (int32_t j = 0; j < e->n; j++) {
        int32_t l = e->link[j];
        mm_link *L = &m->links[l];
        L->unfrozen--;
        if (L->hpos < 0)
            continue;
        if (!L->touched) {
            L->touched = 1;
            m->touched[m->n_touched++] = l;
        }
        if (L->unfrozen == 0) /* taken out of the heap by settle; no freeze reaches it again */
            continue;
        L->rem -= e->w[j] * level;
        L->wsum -= e->w[j];
        if (L->wsum <= WSUM_RESUM * L->wsum0)
            resum(m, L);
        if (L->rem < CAP_REL_EPS * L->cap)
            L->rem = 0;
    }
}

/* When a saturation touched at least 1 / SETTLE_REBUILD of the links in the heap (a symmetric
 * pattern's level often freezes most of them at once), settle rebuilds the heap instead: the
 * links left, each at its new level, then one O(n) heapify, rather than a sift of O(log n)
 * levels for each, every level a write into the moved link's record. Measured on the 405B
 * sizing search (tests/bench/bench_sweep): most touched links come in such saturations. */
#define SETTLE_REBUILD 4

/* settle by rebuilding: the same set of (level, id) keys in the heap, so the same next pops. */
static void rebuild(st_maxmin *m)
{
    for (size_t t = 0; t < m->n_touched; t++) {
        mm_link *L = &m->links[m->touched[t]];
        L->touched = 0;
        if (L->unfrozen == 0)
            L->hpos = -1;
        else
            m->heap[L->hpos].lvl = level_of(L);
    }
    m->n_touched = 0;
    size_t k = 0;
    for (size_t i = 0; i < m->heap_n; i++)
        if (m->links[m->heap[i].l].hpos >= 0)
            heap_put(m, k++, m->heap[i]);
    m->heap_n = k;
    heapify(m);
}

/* Bring the touched links' heap entries up to date: out of the heap if no entity on it is left
 * unfrozen, else at its new level. The heap stays valid for the keys it holds, so each entry is
 * one key change of a valid heap; a raised key can only sink, a lowered one only rise. Keys are
 * unique (level, id), so the next saturations come out in the order of immediate updates. */
static void settle(st_maxmin *m)
{
    if (SETTLE_REBUILD * m->n_touched >= m->heap_n) {
        rebuild(m);
        return;
    }
    for (size_t t = 0; t < m->n_touched; t++) {
        int32_t l = m->touched[t];
        mm_link *L = &m->links[l];
        L->touched = 0;
        if (L->unfrozen == 0) {
            heap_remove(m, l);
            continue;
        }
        size_t i = (size_t)L->hpos;
        double old = m->heap[i].lvl, lvl = level_of(L);
        m->heap[i].lvl = lvl;
        if (lvl > old)
            sift_down(m, i);
        else if (lvl < old)
            sift_up(m, i);
    }
    m->n_touched = 0;
}

/* The filling of a component of one entity (a storage stream's, across tens of thousands of
 * links) without the heap: its links start with it unfrozen and nothing else moves them, so the
 * first saturation is the least of their starting levels, and it freezes the entity there.
 * The same levels as init_fill's, the same floor at 0 as the loop's: the same rate, bit for
 * bit; every link left out of the heap (hpos -1), as the loop leaves them. */
static void fill_one(st_maxmin *m)
{
    mm_ent *e = &m->ents[m->comp_ents[0]];
    double least = INFINITY;
    for (size_t i = 0; i < m->n_comp_links; i++) {
        if (i + ST__MM_AHEAD < m->n_comp_links)
            st__mm_prefetch_link(m, m->comp_links[i + ST__MM_AHEAD]);
        mm_link *L = &m->links[m->comp_links[i]];
        L->hpos = -1;
        init_link(m, L);
        if (L->unfrozen == 0)
            continue;
        double lvl = level_of(L);
        if (lvl < least)
            least = lvl;
    }
    m->heap_n = 0;
    e->frozen = 1;
    if (e->n == 0) {
        e->nrate = INFINITY;
        return;
    }
    /* As the loop's `level`, from 0; no link in the heap (none can be: the entity's are) would
     * leave it at init_fill's 0. */
    e->nrate = least > 0 && !isinf(least) ? least : 0;
}

void st__mm_fill(st_maxmin *m)
{
    if (m->n_comp_ents == 1) {
        fill_one(m);
        return;
    }
    init_fill(m);
    double level = 0;
    while (m->heap_n > 0) {
        int32_t l = m->heap[0].l;
        mm_link *L = &m->links[l];
        /* Rounding can put a link a hair below the level already reached; levels never fall. */
        if (m->heap[0].lvl > level)
            level = m->heap[0].lvl;
        heap_remove(m, l);
        const mm_edge *E = st__mm_edges(L);
        for (size_t j = 0; j < L->n; j++) {
            if (j + ST__MM_AHEAD < L->n)
                st__mm_prefetch_ent(m, E[j + ST__MM_AHEAD].ent);
            mm_ent *e = &m->ents[E[j].ent];
            if (!e->frozen)
                freeze(m, e, level);
        }
        settle(m);
    }
}
