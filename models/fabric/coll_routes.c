/* A memo of collective phases' routes on one topology (models/fabric/collective.h,
 * st_coll_routes): each phase's members and keys with the routes, path latencies, hardware and
 * uncongested rate they gave, found by a hash of the members and compared in full. */
#include <stdlib.h>
#include <string.h>

#include "models/fabric/coll_internal.h"
#include "sim/xalloc.h"

/* One phase: its key (transfer offsets and ECMP keys, members' ends) and what routing it gave,
 * the routes back to back (hops[i] links each), all in the entry's one block. */
typedef struct entry {
    uint64_t hash;
    size_t nx, m, links;
    size_t *xoff;
    uint64_t *xkey;
    int64_t *src, *dst;
    double *mlat;
    int32_t *route;
    uint8_t *hops, *mhw;
    double rate;
} entry;

struct st_coll_routes {
    const st_topo *topo;
    entry **slot; /* open addressing, linear probing, at most half full */
    size_t nslot, n;
    size_t bytes; /* held by the entries */
};

st_coll_routes *st_coll_routes_new(const st_topo *t)
{
    st_coll_routes *m = st_xcalloc(1, sizeof *m);
    m->topo = t;
    return m;
}

void st_coll_routes_free(st_coll_routes *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nslot; i++)
        free(m->slot[i]);
    free(m->slot);
    free(m);
}

void st_coll_use_routes(st_coll *cm, st_coll_routes *m)
{
    if (m && m->topo != cm->topo)
        ST_BUG("collective routes memo of another topology");
    cm->routes = m;
}

/* FNV-1a over 64-bit words (Fowler, Noll, Vo): what a lookup costs per member is two steps. */
static uint64_t fold(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211ull;
}

uint64_t st__coll_routes_hash(const st_coll *cm)
{
    uint64_t h = fold(fold(1469598103934665603ull, cm->nx), cm->m);
    for (size_t x = 0; x < cm->nx; x++)
        h = fold(fold(h, cm->xoff[x + 1]), cm->xkey[x]);
    for (size_t i = 0; i < cm->m; i++)
        h = fold(fold(h, (uint64_t)cm->src[i]), (uint64_t)cm->dst[i]);
    return h;
}

static int same_phase(const entry *e, uint64_t h, const st_coll *cm)
{
    return e->hash == h && e->nx == cm->nx && e->m == cm->m &&
           memcmp(e->xoff, cm->xoff, (cm->nx + 1) * sizeof *e->xoff) == 0 &&
           memcmp(e->xkey, cm->xkey, cm->nx * sizeof *e->xkey) == 0 &&
           memcmp(e->src, cm->src, cm->m * sizeof *e->src) == 0 &&
           memcmp(e->dst, cm->dst, cm->m * sizeof *e->dst) == 0;
}

/* The slot holding the phase built in cm, or the empty one where it would go. */
static size_t probe(const st_coll_routes *m, uint64_t h, const st_coll *cm)
{
    size_t mask = m->nslot - 1, i = (size_t)h & mask;
    while (m->slot[i] && !same_phase(m->slot[i], h, cm))
        i = (i + 1) & mask;
    return i;
}

int st__coll_routes_find(const st_coll_routes *m, uint64_t h, st_coll *cm, double *rate)
{
    if (!m->n)
        return 0;
    const entry *e = m->slot[probe(m, h, cm)];
    if (!e)
        return 0;
    const int32_t *r = e->route;
    for (size_t i = 0; i < e->m; i++) {
        memcpy(cm->route + i * ST_TOPO_MAX_HOPS, r, e->hops[i] * sizeof *r);
        r += e->hops[i];
    }
    memcpy(cm->mhop, e->hops, e->m);
    memcpy(cm->mhw, e->mhw, e->m);
    memcpy(cm->mlat, e->mlat, e->m * sizeof *e->mlat);
    *rate = e->rate;
    return 1;
}

static void grow(st_coll_routes *m)
{
    size_t nslot = m->nslot ? 2 * m->nslot : 64;
    entry **old = m->slot;
    size_t n_old = m->nslot;
    m->slot = st_xcalloc(nslot, sizeof *m->slot);
    m->nslot = nslot;
    for (size_t i = 0; i < n_old; i++)
        if (old[i]) {
            size_t j = (size_t)old[i]->hash & (nslot - 1);
            while (m->slot[j])
                j = (j + 1) & (nslot - 1);
            m->slot[j] = old[i];
        }
    free(old);
}

/* The block of an entry of nx transfers, m members and `links` route entries, laid out widest
 * type first so that every array is aligned. */
static entry *entry_new(size_t nx, size_t m, size_t links, size_t *bytes)
{
    *bytes = sizeof(entry) + (nx + 1) * sizeof(size_t) + nx * sizeof(uint64_t) +
             m * (2 * sizeof(int64_t) + sizeof(double) + 2) + links * sizeof(int32_t);
    entry *e = st_xmalloc(*bytes);
    *e = (entry){.nx = nx, .m = m, .links = links};
    e->xoff = (size_t *)(e + 1);
    e->xkey = (uint64_t *)(e->xoff + nx + 1);
    e->src = (int64_t *)(e->xkey + nx);
    e->dst = e->src + m;
    e->mlat = (double *)(e->dst + m);
    e->route = (int32_t *)(e->mlat + m);
    e->hops = (uint8_t *)(e->route + links);
    e->mhw = e->hops + m;
    return e;
}

void st__coll_routes_put(st_coll_routes *m, uint64_t h, const st_coll *cm, double rate)
{
    size_t links = 0;
    for (size_t i = 0; i < cm->m; i++)
        links += cm->mhop[i];
    size_t bytes;
    if (m->bytes > ST_COLL_ROUTES_BUDGET)
        return;
    entry *e = entry_new(cm->nx, cm->m, links, &bytes);
    e->hash = h;
    e->rate = rate;
    memcpy(e->xoff, cm->xoff, (cm->nx + 1) * sizeof *e->xoff);
    memcpy(e->xkey, cm->xkey, cm->nx * sizeof *e->xkey);
    memcpy(e->src, cm->src, cm->m * sizeof *e->src);
    memcpy(e->dst, cm->dst, cm->m * sizeof *e->dst);
    memcpy(e->mlat, cm->mlat, cm->m * sizeof *e->mlat);
    memcpy(e->hops, cm->mhop, cm->m);
    memcpy(e->mhw, cm->mhw, cm->m);
    int32_t *r = e->route;
    for (size_t i = 0; i < cm->m; i++) {
        memcpy(r, cm->route + i * ST_TOPO_MAX_HOPS, cm->mhop[i] * sizeof *r);
        r += cm->mhop[i];
    }
    if (2 * (m->n + 1) > m->nslot)
        grow(m);
    size_t i = probe(m, h, cm);
    if (m->slot[i])
        ST_BUG("collective phase routed twice into the memo");
    m->slot[i] = e;
    m->n++;
    m->bytes += bytes;
}
