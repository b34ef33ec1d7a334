/* Which rack holds a node, and what each rack is built to (racks.h). */
#include "models/config/racks.h"

#include "models/config/pools.h"

static int64_t per_rack(const st_rack_cfg *r)
{
    return r->nodes_per_rack > 0 ? r->nodes_per_rack : 1;
}

static int by_pool(const st_cluster_cfg *c)
{
    return c->racks_by_pool && c->n_pools > 0;
}

static int64_t racks_of_pool(const st_pool_cfg *p)
{
    int64_t n = per_rack(&p->racks);
    return (p->nodes + n - 1) / n;
}

/* The pool whose racks hold rack r (by pool only): the last whose first rack is at or before r,
 * by bisection, as st_pools_of_node finds a node's. */
static const st_pool_cfg *pool_of_rack(const st_cluster_cfg *c, int64_t rack)
{
    int lo = 0, hi = c->n_pools - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (rack >= c->pools[mid].first_rack)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &c->pools[lo];
}

int64_t st_racks_count(const st_cluster_cfg *c)
{
    if (!by_pool(c)) {
        int64_t n = per_rack(&c->racks);
        return (c->nodes + n - 1) / n;
    }
    const st_pool_cfg *last = &c->pools[c->n_pools - 1];
    return last->first_rack + racks_of_pool(last);
}

int64_t st_racks_of_node(const st_cluster_cfg *c, int64_t node)
{
    if (!by_pool(c))
        return node / per_rack(&c->racks);
    const st_pool_cfg *p = &c->pools[st_pools_of_node(c, node)];
    return p->first_rack + (node - p->first_node) / per_rack(&p->racks);
}

int64_t st_racks_of_gpu(const st_cluster_cfg *c, int64_t gpu)
{
    return st_racks_of_node(c, st_pools_node_of_gpu(c, gpu));
}

/* st_racks_of_gpu_at's miss: GPU gpu's rack found by the map, and its span kept. */
int64_t st__racks_seek(const st_cluster_cfg *c, st_racks_cursor *k, int64_t gpu)
{
    k->rack = st_racks_of_gpu(c, gpu);
    int64_t first = st_racks_first_node(c, k->rack);
    k->lo = st_pools_node_first_gpu(c, first);
    k->hi = st_pools_node_first_gpu(c, first + st_racks_nodes(c, k->rack));
    return k->rack;
}

int64_t st_racks_first_node(const st_cluster_cfg *c, int64_t rack)
{
    if (!by_pool(c))
        return rack * per_rack(&c->racks);
    const st_pool_cfg *p = pool_of_rack(c, rack);
    return p->first_node + (rack - p->first_rack) * per_rack(&p->racks);
}

int64_t st_racks_nodes(const st_cluster_cfg *c, int64_t rack)
{
    int64_t first = st_racks_first_node(c, rack), n, end;
    if (!by_pool(c)) {
        n = per_rack(&c->racks);
        end = c->nodes;
    } else {
        const st_pool_cfg *p = pool_of_rack(c, rack);
        n = per_rack(&p->racks);
        end = p->first_node + p->nodes;
    }
    return end - first < n ? end - first : n;
}

const st_rack_cfg *st_racks_cfg(const st_cluster_cfg *c, int64_t rack)
{
    return by_pool(c) ? &pool_of_rack(c, rack)->racks : &c->racks;
}

int64_t st_racks_pool_first(const st_cluster_cfg *c, int k)
{
    return by_pool(c) ? c->pools[k].first_rack : 0;
}

int64_t st_racks_pool_count(const st_cluster_cfg *c, int k)
{
    return by_pool(c) ? racks_of_pool(&c->pools[k]) : st_racks_count(c);
}

double st_racks_default_liquid_fraction(st_cooling_kind kind)
{
    return kind == ST_COOLING_LIQUID ? 0.8 : 0; /* the contract example's 80% */
}
