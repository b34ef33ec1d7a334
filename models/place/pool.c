/* The free-GPU pool of a cluster run: flags per GPU and free counts per node and per leaf. */
#include "models/place/pool.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

void st_pool_init(st_pool *p, const st_cluster_cfg *c)
{
    memset(p, 0, sizeof *p);
    p->per_node = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    p->nodes = c->nodes > 0 ? c->nodes : 0;
    p->total = p->nodes * p->per_node;
    p->per_leaf = c->fabric.nodes_per_leaf >= 1 && c->fabric.nodes_per_leaf < p->nodes
                      ? c->fabric.nodes_per_leaf
                      : (p->nodes ? p->nodes : 1);
    p->leaves = (p->nodes + p->per_leaf - 1) / p->per_leaf;
    p->free = p->total;
    p->busy = st_xcalloc(p->total ? (size_t)p->total : 1, 1);
    p->node_free = st_xcalloc(p->nodes ? (size_t)p->nodes : 1, sizeof *p->node_free);
    p->leaf_free = st_xcalloc(p->leaves ? (size_t)p->leaves : 1, sizeof *p->leaf_free);
    for (int64_t k = 0; k < p->nodes; k++) {
        p->node_free[k] = (int32_t)p->per_node;
        p->leaf_free[k / p->per_leaf] += p->per_node;
    }
}

void st_pool_release(st_pool *p)
{
    free(p->busy);
    free(p->node_free);
    free(p->leaf_free);
    memset(p, 0, sizeof *p);
}

static void mark(st_pool *p, const int64_t *gpus, int64_t n, int busy)
{
    for (int64_t r = 0; r < n; r++) {
        int64_t g = gpus[r];
        if (g < 0 || g >= p->total || p->busy[g] == busy)
            ST_BUG("GPU %lld is %s", (long long)g, busy ? "already held" : "not held");
        p->busy[g] = (uint8_t)busy;
        int64_t node = g / p->per_node, d = busy ? -1 : 1;
        p->node_free[node] += (int32_t)d;
        p->leaf_free[node / p->per_leaf] += d;
        p->free += d;
    }
}

void st_pool_take(st_pool *p, const int64_t *gpus, int64_t n)
{
    mark(p, gpus, n, 1);
}

void st_pool_give(st_pool *p, const int64_t *gpus, int64_t n)
{
    mark(p, gpus, n, 0);
}

void st_pool_collect(const st_pool *p, int64_t node, int64_t want, int64_t *gpus, int64_t *have)
{
    for (int64_t g = node * p->per_node; g < (node + 1) * p->per_node && *have < want; g++)
        if (!p->busy[g])
            gpus[(*have)++] = g;
}

/* The free GPUs of nodes [lo, hi) (skipping those flagged in used), the smallest count >= m
 * first, else the largest count; -1 when they have none. */
static int64_t pick_node(const st_pool *p, int64_t lo, int64_t hi, const uint8_t *used, int64_t m)
{
    int64_t fit = -1, most = -1;
    for (int64_t k = lo; k < hi; k++) {
        int64_t f = p->node_free[k];
        if (used[k] || f == 0)
            continue;
        if (f >= m && (fit < 0 || f < p->node_free[fit]))
            fit = k;
        if (most < 0 || f > p->node_free[most])
            most = k;
    }
    return fit >= 0 ? fit : most;
}

int64_t st_pool_fill_nodes(const st_pool *p, int64_t lo, int64_t hi, int64_t want, int64_t *gpus,
                           int64_t *have, uint8_t *used)
{
    int64_t before = *have;
    while (*have < want) {
        int64_t k = pick_node(p, lo, hi, used, want - *have);
        if (k < 0)
            break;
        used[k] = 1;
        st_pool_collect(p, k, want, gpus, have);
    }
    return *have - before;
}
