/* The placement record: a job's GPUs and the components they occupy. */
#include "models/place/placement.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "sim/xalloc.h"

static int64_t at_least_1(int64_t v)
{
    return v > 0 ? v : 1;
}

int64_t st_placement_node_of(const st_placement *p, int64_t g)
{
    return st_pools_node_of_gpu(p->ids, g);
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The NICs of the distinct nodes among node[0..n): each node's pool's, so a job on nodes of
 * several sizes counts each node's own (the cluster's nics_per_node for one node size). */
static int64_t nics_of(const st_cluster_cfg *c, const int64_t *node, int64_t n, int64_t nodes)
{
    if (st_pools_one_node_size(c))
        return nodes * c->fabric.nics_per_node;
    int64_t *v = st_xmalloc((size_t)at_least_1(n) * sizeof *v), nics = 0;
    memcpy(v, node, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, by_value);
    for (int64_t i = 0; i < n; i++)
        if (v[i] >= 0 && v[i] < c->nodes && (i == 0 || v[i] != v[i - 1]))
            nics += st_pools_nics_per_node(c, st_pools_of_node(c, v[i]));
    free(v);
    return nics;
}

/* Distinct values among v[0..n) that lie in [0, limit): a mark array, so the count does not
 * depend on the order of the job's GPUs. */
static int64_t distinct(const int64_t *v, int64_t n, int64_t limit)
{
    uint8_t *seen = st_xcalloc((size_t)at_least_1(limit), 1);
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        if (v[i] >= 0 && v[i] < limit && !seen[v[i]]) {
            seen[v[i]] = 1;
            count++;
        }
    free(seen);
    return count;
}

void st_placement_init(st_placement *p, const st_topo *t, const st_cluster_cfg *c,
                       const int64_t *gpus, int64_t n)
{
    st_placement_init_in(p, t, c, c, gpus, n);
}

void st_placement_init_in(st_placement *p, const st_topo *t, const st_cluster_cfg *view,
                          const st_cluster_cfg *c, const int64_t *gpus, int64_t n)
{
    memset(p, 0, sizeof *p);
    p->topo = t;
    p->c = view;
    p->ids = c;
    p->n_gpus = n;
    p->gpu = st_xmalloc((size_t)n * sizeof *p->gpu);
    memcpy(p->gpu, gpus, (size_t)n * sizeof *p->gpu);
    int64_t n_nodes = at_least_1(c->nodes), n_leaves = st_topo_switches(t, ST_LEVEL_NIC);
    int64_t *key = st_xmalloc((size_t)n * sizeof *key);
    for (int64_t i = 0; i < n; i++)
        key[i] = st_pools_node_of_gpu(c, gpus[i]);
    p->nodes = distinct(key, n, n_nodes);
    p->nics = nics_of(c, key, n, p->nodes);
    st_racks_cursor at = {0};
    for (int64_t i = 0; i < n; i++) /* an id past the cluster's nodes counts in no rack */
        key[i] = gpus[i] >= 0 && key[i] < c->nodes ? st_racks_of_gpu_at(c, &at, gpus[i]) : -1;
    p->racks = distinct(key, n, st_racks_count(c));
    for (int64_t i = 0; i < n; i++)
        key[i] = st_topo_leaf_of(t, gpus[i]);
    p->leaves = distinct(key, n, n_leaves); /* rail-optimized: a node touches one per NIC */
    free(key);
    p->spines = p->leaves > 1 ? st_topo_switches(t, ST_LEVEL_LEAF) : 0;
}

void st_placement_init_range(st_placement *p, const st_topo *t, const st_cluster_cfg *c,
                             int64_t first, int64_t n)
{
    int64_t *gpus = st_xmalloc((size_t)n * sizeof *gpus);
    for (int64_t r = 0; r < n; r++)
        gpus[r] = first + r;
    st_placement_init(p, t, c, gpus, n);
    free(gpus);
}

void st_placement_release(st_placement *p)
{
    free(p->gpu);
    memset(p, 0, sizeof *p);
}

double st_placement_count(const st_placement *p, const char *component)
{
    static const struct {
        const char *name;
        size_t offset;
    } counts[] = {
        {"gpu", offsetof(st_placement, n_gpus)},
        {"node", offsetof(st_placement, nodes)},
        {"nic", offsetof(st_placement, nics)},
        {"leaf_switch", offsetof(st_placement, leaves)},
        {"spine_switch", offsetof(st_placement, spines)},
        {"rack", offsetof(st_placement, racks)},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (strcmp(component, counts[i].name) == 0)
            return (double)*(const int64_t *)((const char *)p + counts[i].offset);
    return 0;
}
