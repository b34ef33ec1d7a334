/* The solver's state, shared by maxmin.c (the entity <-> link graph, its components, the
 * results) and maxmin_fill.c (progressive filling over a component with its heap of links).
 * Private to models/fabric/maxmin*.c; users see models/fabric/maxmin.h. */
#ifndef ST_MODELS_FABRIC_MAXMIN_INTERNAL_H
#define ST_MODELS_FABRIC_MAXMIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/maxmin.h"

/* Two rates closer than this (relative) are the same rate: a re-solve that only moves the
 * rounding does not report the entity, so its user does not reschedule anything. */
#define RATE_REL_TOL 1e-12
/* Remaining capacity below this fraction of a link's capacity is rounding: treat it as zero. */
#define CAP_REL_EPS 1e-12
/* When the unfrozen weight sum on a link has shrunk below this fraction of its starting value,
 * cancellation may have eaten its digits; it is summed again from the edges. */
#define WSUM_RESUM 1e-9

/* One entity on a link, as the link sees it; k is the edge's index in the entity's lists, so
 * either side can find the other in O(1). */
typedef struct mm_edge {
    double w;
    int32_t ent; /* 16 bytes an edge: a million-GPU step pattern holds millions of them */
    int32_t k;
} mm_edge;

/* A link's edges: its only one in place while it has room for no more (ecap 0), else a list
 * of room ecap. Most links of a storage stream's solver carry its one entity, and those of a
 * pattern's few: a list each, made and freed per link (10^5 of them), cost more than the solve. */
typedef union mm_edges {
    mm_edge one;
    mm_edge *many;
} mm_edges;

typedef struct mm_link {
    double cap;
    double load;
    mm_edges e;       /* st__mm_edges reads it */
    uint32_t n, ecap; /* 4-byte counts and no copy of the heap's key: 80 bytes a link */
    /* Solve-time state, valid while the link is in the current component (its fill level is
     * the key of its heap entry). */
    double rem, wsum, wsum0;
    int32_t hpos;     /* index in the heap, -1 when not in it */
    int32_t unfrozen; /* entities on it not frozen yet */
    uint32_t mark;    /* epoch of the last solve that visited it */
    uint8_t dirty;    /* queued in dirty_links */
    uint8_t used;     /* listed in used: an edge or a capacity change since st_maxmin_reset */
    uint8_t touched;  /* listed in touched: its heap entry awaits settle */
} mm_link;

/* A heap entry carries its key: comparisons read the heap array alone, not links[] (one cache
 * miss per comparison on a component of thousands of links), as the event queue keys its heap. */
typedef struct mm_hent {
    double lvl;
    int32_t l;
} mm_hent;

typedef struct mm_ent {
    double *w; /* n weights, then (in the same block) n links and n edge positions */
    int32_t *link;
    int32_t *pos; /* index of this entity's edge in link[k]'s edge list */
    int32_t n;
    int32_t cap; /* links the block at w has room for: kept when the entity is removed, for the
                    next entity its slot holds (a collective's next phase, as large) */
    double rate, nrate;
    uint32_t mark;
    uint8_t alive, dirty, fresh, frozen;
} mm_ent;

/* The links' edge lists (maxmin_pool.c): a list of class c holds 8 << c edges. Lists come from
 * slabs (64 KiB doubling to 2 MiB) and go back to a free list of their class, never to malloc: a
 * solver on 10^5 links grew its lists by realloc (50,000 calls in a sizing search) and freed them
 * one by one (a tenth of a second's search spent 3% of its time in those frees). */
#define MM_POOL_CLASSES 29 /* the largest class, 8 << 28 edges, still counts in a uint32_t */

typedef struct mm_pool {
    mm_edge *free[MM_POOL_CLASSES]; /* each free list's next is in its first bytes */
    char *next;                     /* the current slab's unused part */
    size_t left;
    size_t slab;  /* the next slab's bytes (0: none made yet) */
    void **block; /* slabs and lists allocated on their own, for st__mm_pool_release */
    size_t n_block, block_cap;
} mm_pool;

/* The least class whose lists hold n edges (ST_BUG past the largest). */
int st__mm_pool_class(size_t n);
/* A list of class c (its contents undefined), and one given back. */
mm_edge *st__mm_pool_get(mm_pool *p, int c);
void st__mm_pool_put(mm_pool *p, mm_edge *e, int c);
/* Free every slab and list at once: p is empty again. */
void st__mm_pool_release(mm_pool *p);

struct st_maxmin {
    mm_pool pool;
    mm_link *links;
    int32_t n_links;
    size_t links_cap; /* allocated entries of links and the per-link arrays below */
    mm_ent *ents;
    size_t n_ents, ents_cap;
    int64_t *free_ids; /* slots of removed entities, reused last-in first-out */
    size_t n_free, free_cap;
    int64_t *dirty_ents;
    size_t n_dirty_ents, dirty_ents_cap;
    int32_t *dirty_links;
    size_t n_dirty_links;
    int32_t *slot_of; /* add-time scratch: index of a link in the entity being built, or -1 */
    int32_t *scratch_link;
    double *scratch_w;
    size_t scratch_link_cap, scratch_w_cap;
    uint32_t epoch;
    /* The last solve's components and results. comp_whole: they are one connected component,
     * found by the search at epoch comp_epoch, so a solve that only removes entities from it
     * solves it again without a search (collect). */
    int comp_whole;
    uint32_t comp_epoch;
    int64_t *comp_ents;
    size_t n_comp_ents, comp_ents_cap;
    int32_t *comp_links;
    size_t n_comp_links;
    mm_hent *heap;
    size_t heap_n;
    int32_t *touched; /* links whose heap entries the freezes of one saturation made stale */
    size_t n_touched;
    int64_t *changed;
    size_t n_changed, changed_cap;
    int no_loads; /* st_maxmin_drop_loads: publish leaves the loads alone */
    /* Since the last solve: the least rate of an entity removed (INFINITY: none), and whether a
     * capacity changed or a link was appended. A solve that only removes entities refills only
     * those at or above that rate (collect_above in maxmin.c); `partial` says the current
     * component is such a set, the rest of its links' entities fixed at their rates. */
    double removed_min;
    int cap_dirty, partial;
    /* What st_maxmin_reset undoes: the links given an edge or a new capacity, the capacities
     * the fabric's own links had before a change, and where the private links begin. */
    int32_t *used;
    size_t n_used, used_cap;
    int32_t base_links;
    struct {
        int32_t l;
        double cap;
    } * undo;
    size_t n_undo, undo_cap;
};

/* Link L's n edges. */
static inline mm_edge *st__mm_edges(mm_link *L)
{
    return L->ecap ? L->e.many : &L->e.one;
}

/* Ask for link l's record (80 bytes, so two cache lines) or entity id's before reading it. The
 * solver reaches links and entities in the order of routes and searches, each a random load
 * from 10^5 links' 8 MB or 10^4 entities' records; asked for ST__MM_AHEAD items ahead, those
 * loads overlap instead of stalling the loop one after another (an add spent 40% of its time
 * waiting on its links' records). A hint only: it changes no value read. */
#if defined(__GNUC__)
#define ST__MM_PREFETCH(p) __builtin_prefetch(p)
#else
#define ST__MM_PREFETCH(p) ((void)(p))
#endif
#define ST__MM_AHEAD 16

static inline void st__mm_prefetch_link(const st_maxmin *m, int32_t l)
{
    const char *p = (const char *)&m->links[l];
    ST__MM_PREFETCH(p);
    ST__MM_PREFETCH(p + sizeof(mm_link) - 1);
}

/* The end of link l's edge list, where an add appends, or (end 0) its start: the second step,
 * once l's record has come (asked for ST__MM_AHEAD items before, this is asked for half as far
 * ahead). */
static inline void st__mm_prefetch_edges(const st_maxmin *m, int32_t l, int end)
{
    const mm_link *L = &m->links[l];
    if (L->ecap)
        ST__MM_PREFETCH(L->e.many + (end ? L->n : 0));
}

static inline void st__mm_prefetch_ent(const st_maxmin *m, int64_t id)
{
    const char *p = (const char *)&m->ents[id];
    ST__MM_PREFETCH(p);
    ST__MM_PREFETCH(p + sizeof(mm_ent) - 1);
}

/* Progressive filling over the component collect() gathered (m->comp_ents, m->comp_links): every
 * entity of it gets its max-min rate in nrate (maxmin_fill.c). */
void st__mm_fill(st_maxmin *m);

#endif
