/* Which pool holds a node, and the cluster as one pool sees it (pools.h). */
#include "models/config/pools.h"

int st_pools_count(const st_cluster_cfg *c)
{
    return c->n_pools > 0 ? c->n_pools : 1;
}

int st_pools_of_node(const st_cluster_cfg *c, int64_t node)
{
    int k = 0;
    /* A handful of pools: a scan is as quick as a search and has no edge cases. */
    while (k + 1 < c->n_pools && node >= c->pools[k + 1].first_node)
        k++;
    return k;
}

int st_pools_of_gpu(const st_cluster_cfg *c, int64_t gpu)
{
    if (c->n_pools <= 1)
        return 0;
    int64_t gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    return st_pools_of_node(c, gpu / gpn);
}

const st_gpu_spec *st_pools_gpu_of(const st_cluster_cfg *c, int64_t gpu)
{
    return c->n_pools > 0 ? c->pools[st_pools_of_gpu(c, gpu)].gpu : c->gpu;
}

int64_t st_pools_first_node(const st_cluster_cfg *c, int k)
{
    return c->n_pools > 0 ? c->pools[k].first_node : 0;
}

int64_t st_pools_nodes(const st_cluster_cfg *c, int k)
{
    return c->n_pools > 0 ? c->pools[k].nodes : c->nodes;
}

void st_pools_view(const st_cluster_cfg *c, int k, st_cluster_cfg *out)
{
    *out = *c;
    if (c->n_pools <= 0)
        return;
    const st_pool_cfg *p = &c->pools[k];
    out->gpu = p->gpu;
    out->node.base_power_w = p->node_base_w;
    out->node.pcie_bw = p->pcie_bw;
    out->pools = NULL;
    out->n_pools = 0;
}

int64_t st_pools_overlap(const st_cluster_cfg *c, int k, int64_t lo, int64_t len)
{
    int64_t a = st_pools_first_node(c, k), b = a + st_pools_nodes(c, k);
    int64_t x = lo > a ? lo : a, y = lo + len < b ? lo + len : b;
    return y > x ? y - x : 0;
}
