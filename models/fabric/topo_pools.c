/* A topology of a cluster of pools (docs/models/pools.md): nodes of several sizes laid out at
 * the largest, the cluster's GPU ids mapped onto their slots, and each GPU's NVLink domain and
 * NVLink bandwidth its own pool's, not the first pool's. */
#include "models/config/pools.h"
#include "models/fabric/topo_internal.h"

#include <stdlib.h>

#include "models/fabric/transport.h"
#include "models/silicon/gpu.h"

int64_t st__topo_slot(const st_topo *t, int64_t gpu)
{
    int lo = 0, hi = t->n_map - 1; /* the pool by bisection: up to 1,000 pools, a call a GPU */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (gpu >= t->map_gpu[mid])
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t local = gpu - t->map_gpu[lo], gpn = t->map_gpn[lo];
    return (t->map_node[lo] + local / gpn) * t->gpn + local % gpn;
}

/* Pool k's GPUs in one NVLink domain: 0 where they have no NVLink links. */
static int64_t pool_domain(const st_cluster_cfg *c, int k)
{
    int64_t d = st_pools_nvlink_domain(c, k);
    d = d > 0 ? d : st_pools_gpus_per_node(c, k);
    return d > 1 && c->pools[k].gpu && c->pools[k].gpu->nvlink_bw > 0 ? d : 0;
}

void st__topo_pools_shape(st_topo *t, const st_cluster_cfg *c)
{
    if (c->n_pools <= 1 || st_pools_one_node_size(c))
        return;
    int n = c->n_pools;
    t->n_map = n;
    t->map_gpu = st_xmalloc((size_t)n * sizeof *t->map_gpu);
    t->map_node = st_xmalloc((size_t)n * sizeof *t->map_node);
    t->map_gpn = st_xmalloc((size_t)n * sizeof *t->map_gpn);
    int64_t gpn = 1, nics = 1, dom = 0;
    for (int k = 0; k < n; k++) {
        t->map_gpu[k] = st_pools_first_gpu(c, k);
        t->map_node[k] = c->pools[k].first_node;
        t->map_gpn[k] = st_pools_gpus_per_node(c, k);
        gpn = t->map_gpn[k] > gpn ? t->map_gpn[k] : gpn;
        nics = st_pools_nics_per_node(c, k) > nics ? st_pools_nics_per_node(c, k) : nics;
        dom = pool_domain(c, k) > dom ? pool_domain(c, k) : dom;
    }
    t->gpn = gpn;
    t->nics = nics;
    t->gpus = c->nodes * gpn;
    t->dom = dom;
    t->ext_gpus = st_pools_cluster_gpus(c);
    t->ext_nics = st_pools_cluster_nics(c);
}

/* Whether some pool's GPUs differ from the cluster's one figure in NVLink domain or bandwidth,
 * so that the per-GPU figures must be filled by pool. */
static int domains_differ(const st_cluster_cfg *c)
{
    for (int k = 0; k < c->n_pools; k++)
        if (pool_domain(c, k) != pool_domain(c, 0) ||
            c->pools[k].gpu->nvlink_bw != c->pools[0].gpu->nvlink_bw)
            return 1;
    return 0;
}

/* Pool k's GPUs' domains from label *next on, each node's used slots; its NVLink links at its
 * own GPU's bandwidth. */
static void fill_pool(st_topo *t, const st_cluster_cfg *c, int k, int32_t *next)
{
    const st_gpu_spec *g = c->pools[k].gpu;
    int64_t dom = pool_domain(c, k), gpn = st_pools_gpus_per_node(c, k);
    int64_t first = c->pools[k].first_node, nodes = c->pools[k].nodes;
    double nv = g->nvlink_bw / 2 * st_nvlink_efficiency(g) * st_calib_nvlink(c);
    int32_t base = *next, nvl = t->base[ST_LEVEL_NVLINK];
    for (int64_t i = 0; i < nodes * gpn; i++) {
        int64_t slot = (first + i / gpn) * t->gpn + i % gpn;
        t->gpu_dom[slot] = base + (int32_t)(dom ? i / dom : i);
        t->cap[nvl + 2 * slot] = t->cap[nvl + 2 * slot + 1] = nv;
    }
    *next = base + (int32_t)(dom ? (nodes * gpn + dom - 1) / dom : nodes * gpn);
}

void st__topo_pools_fill(st_topo *t, const st_cluster_cfg *c)
{
    if (c->n_pools <= 1 || !t->dom || (!t->n_map && !domains_differ(c)))
        return;
    int32_t next = 0;
    for (int64_t s = 0; s < t->gpus; s++) /* a slot no GPU fills: a domain of its own */
        t->gpu_dom[s] = -1;
    for (int k = 0; k < c->n_pools; k++)
        fill_pool(t, c, k, &next);
    for (int64_t s = 0; s < t->gpus; s++)
        if (t->gpu_dom[s] < 0)
            t->gpu_dom[s] = next++;
}
