/* Which pool holds a node or a GPU, each pool's node, and the cluster as one pool sees it
 * (pools.h). */
#include "models/config/pools.h"

static int64_t at_least_1(int64_t x)
{
    return x > 0 ? x : 1;
}

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
    if (st_pools_one_node_size(c))
        return st_pools_of_node(c, gpu / at_least_1(c->gpus_per_node));
    int lo = 0, hi = c->n_pools - 1; /* by bisection, as st_pools_of_node */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (gpu >= st_pools_first_gpu(c, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
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

int64_t st_pools_gpus_per_node(const st_cluster_cfg *c, int k)
{
    if (c->n_pools > 0 && c->pools[k].gpus_per_node > 0)
        return c->pools[k].gpus_per_node;
    return at_least_1(c->gpus_per_node);
}

int64_t st_pools_nvlink_domain(const st_cluster_cfg *c, int k)
{
    if (c->n_pools > 0 && c->pools[k].nvlink_domain > 0)
        return c->pools[k].nvlink_domain;
    return c->nvlink_domain;
}

int64_t st_pools_nics_per_node(const st_cluster_cfg *c, int k)
{
    if (c->n_pools > 0 && c->pools[k].nics_per_node > 0)
        return c->pools[k].nics_per_node;
    return c->fabric.nics_per_node;
}

/* Whether pool k's first GPU and NIC are stated (a loaded pool), not first_node times the
 * cluster's node (a pool built by hand, config.h). */
static int placed(const st_cluster_cfg *c, int k)
{
    return c->n_pools > 0 && c->pools[k].gpus_per_node > 0;
}

int64_t st_pools_first_gpu(const st_cluster_cfg *c, int k)
{
    if (placed(c, k))
        return c->pools[k].first_gpu;
    return st_pools_first_node(c, k) * at_least_1(c->gpus_per_node);
}

int64_t st_pools_gpus(const st_cluster_cfg *c, int k)
{
    return st_pools_nodes(c, k) * st_pools_gpus_per_node(c, k);
}

int64_t st_pools_first_nic(const st_cluster_cfg *c, int k)
{
    if (placed(c, k))
        return c->pools[k].first_nic;
    return st_pools_first_node(c, k) * c->fabric.nics_per_node;
}

int64_t st_pools_cluster_gpus(const st_cluster_cfg *c)
{
    if (c->n_pools <= 0)
        return c->nodes * c->gpus_per_node;
    int k = c->n_pools - 1;
    return st_pools_first_gpu(c, k) + st_pools_gpus(c, k);
}

int64_t st_pools_cluster_nics(const st_cluster_cfg *c)
{
    if (c->n_pools <= 0)
        return c->nodes * c->fabric.nics_per_node;
    int k = c->n_pools - 1;
    return st_pools_first_nic(c, k) + st_pools_nodes(c, k) * st_pools_nics_per_node(c, k);
}

int st_pools_one_node_size(const st_cluster_cfg *c)
{
    return c->n_pools <= 1 || !c->mixed_node_sizes;
}

int64_t st_pools_most_nics(const st_cluster_cfg *c)
{
    int64_t most = c->fabric.nics_per_node;
    for (int k = 0; k < c->n_pools; k++)
        if (c->pools[k].nics_per_node > most)
            most = c->pools[k].nics_per_node;
    return most;
}

int st_pools_one_node_shape(const st_cluster_cfg *c)
{
    for (int k = 1; k < c->n_pools; k++)
        if (st_pools_nics_per_node(c, k) != st_pools_nics_per_node(c, 0))
            return 0;
    return st_pools_one_node_size(c);
}

int64_t st_pools_node_of_gpu(const st_cluster_cfg *c, int64_t gpu)
{
    if (c->n_pools <= 1 || st_pools_one_node_size(c))
        return gpu / at_least_1(c->gpus_per_node);
    int k = st_pools_of_gpu(c, gpu);
    return c->pools[k].first_node + (gpu - st_pools_first_gpu(c, k)) / st_pools_gpus_per_node(c, k);
}

int64_t st_pools_node_first_gpu(const st_cluster_cfg *c, int64_t node)
{
    if (c->n_pools <= 1 || st_pools_one_node_size(c))
        return node * at_least_1(c->gpus_per_node);
    int k = st_pools_of_node(c, node);
    return st_pools_first_gpu(c, k) +
           (node - c->pools[k].first_node) * st_pools_gpus_per_node(c, k);
}

int64_t st_pools_node_gpus(const st_cluster_cfg *c, int64_t node)
{
    return st_pools_gpus_per_node(c, c->n_pools > 0 ? st_pools_of_node(c, node) : 0);
}

int64_t st_pools_nodes_gpus(const st_cluster_cfg *c, int64_t first, int64_t n)
{
    return st_pools_node_first_gpu(c, first + n) - st_pools_node_first_gpu(c, first);
}

void st_pools_view(const st_cluster_cfg *c, int k, st_cluster_cfg *out)
{
    *out = *c;
    if (c->n_pools <= 0)
        return;
    const st_pool_cfg *p = &c->pools[k];
    out->gpu = p->gpu;
    out->gpus_per_node = st_pools_gpus_per_node(c, k);
    out->nvlink_domain = st_pools_nvlink_domain(c, k);
    out->fabric.nics_per_node = (int)st_pools_nics_per_node(c, k);
    /* the view's GPU ids are node x gpus_per_node + slot: shift a domain of several nodes so
     * that one begins at the pool's first node, as its racks do (an NVL72 rack's 18 trays) */
    int64_t first = p->first_node * out->gpus_per_node, dom = out->nvlink_domain;
    out->nvlink_skew = dom > out->gpus_per_node ? (dom - first % dom) % dom : 0;
    out->node.base_power_w = p->node_base_w;
    out->node.pcie_bw = p->pcie_bw;
    if (c->racks_by_pool) /* its racks' size and cooling (models/config/racks.h) */
        out->racks = p->racks;
    out->racks_by_pool = 0;
    out->mixed_node_sizes = 0;
    out->view_of = p->name;
    out->pools = NULL;
    out->n_pools = 0;
}

int64_t st_pools_view_gpus(const st_cluster_cfg *c, int k)
{
    return c->nodes * st_pools_gpus_per_node(c, k);
}

int64_t st_pools_view_gpu(const st_cluster_cfg *c, int k, int64_t gpu)
{
    if (c->n_pools <= 1 || st_pools_one_node_size(c))
        return gpu;
    int64_t node = st_pools_node_of_gpu(c, gpu), gpn = st_pools_gpus_per_node(c, k);
    int64_t slot = gpu - st_pools_node_first_gpu(c, node);
    return node * gpn + slot * gpn / st_pools_node_gpus(c, node);
}

int64_t st_pools_overlap(const st_cluster_cfg *c, int k, int64_t lo, int64_t len)
{
    int64_t a = st_pools_first_node(c, k), b = a + st_pools_nodes(c, k);
    int64_t x = lo > a ? lo : a, y = lo + len < b ? lo + len : b;
    return y > x ? y - x : 0;
}
