/* Which pool holds a node, and the cluster as one pool sees it (pools.h). */
#include "models/config/pools.h"

int st_pools_count(const st_cluster_cfg *c)
{
    return c->n_pools > 0 ? c->n_pools : 1;
}

int st_pools_of_node(const st_cluster_cfg *c, int64_t node)
{
    /* The last pool whose first node is at or before `node`, by bisection: the loader takes up
     * to 1,000 pools and the plant asks once per GPU, so a scan would be GPUs x pools. */
    int lo = 0, hi = c->n_pools > 0 ? c->n_pools - 1 : 0;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (node >= c->pools[mid].first_node)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
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

const st_gpu_spec *st_pools_gpu_of_workload(const st_cluster_cfg *c, const st_workload_cfg *w)
{
    return c->n_pools > 0 && w->pool >= 0 && w->pool < c->n_pools ? c->pools[w->pool].gpu : c->gpu;
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
    if (c->racks_by_pool) /* its racks' size and cooling (models/config/racks.h) */
        out->racks = p->racks;
    out->racks_by_pool = 0;
    out->view_of = p->name;
    out->pools = NULL;
    out->n_pools = 0;
}

int64_t st_pools_overlap(const st_cluster_cfg *c, int k, int64_t lo, int64_t len)
{
    int64_t a = st_pools_first_node(c, k), b = a + st_pools_nodes(c, k);
    int64_t x = lo > a ? lo : a, y = lo + len < b ? lo + len : b;
    return y > x ? y - x : 0;
}
