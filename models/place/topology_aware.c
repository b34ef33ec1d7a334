/* The topology-aware placement policy: "the tightest physical network perimeter". A job goes
 * under the one leaf switch whose free GPUs fit it most tightly, so its traffic never crosses a
 * spine; a job no leaf can hold takes whole leaves, the freest first, then the tightest leaf for
 * the rest; inside each leaf, best fit over nodes (best_fit.c), so it also spans the fewest
 * nodes. On clusters whose NVLink domain is one node (HGX), fewest nodes is fewest NVLink
 * domains. In cursor mode it packs in order, as pack does. */
#include <stdlib.h>

#include "models/place/cursor.h"
#include "models/place/policy.h"
#include "sim/xalloc.h"

static void topo_init(void *st, const st_cluster_cfg *c)
{
    st__cursor_init(st, c);
}

static int topo_place(void *st, const st_place_req *req, int64_t *gpus)
{
    return st__cursor_place(st, req, gpus);
}

/* The leaf whose free count is the smallest that covers m, else the freest; -1 when none has
 * a free GPU. Leaves flagged in used are skipped. */
static int64_t pick_leaf(const st_pool *p, const uint8_t *used, int64_t m)
{
    int64_t fit = -1, most = -1;
    for (int64_t l = 0; l < p->leaves; l++) {
        int64_t f = p->leaf_free[l];
        if (used[l] || f == 0)
            continue;
        if (f >= m && (fit < 0 || f < p->leaf_free[fit]))
            fit = l;
        if (most < 0 || f > p->leaf_free[most])
            most = l;
    }
    return fit >= 0 ? fit : most;
}

static int topo_take(void *st, const st_pool *pool, int64_t n, int64_t *gpus)
{
    (void)st;
    uint8_t *leaf_used = pool->leaf_used, *node_used = pool->node_used;
    int64_t have = 0;
    while (have < n) {
        int64_t l = pick_leaf(pool, leaf_used, n - have);
        if (l < 0)
            break;
        leaf_used[l] = 1;
        int64_t lo = l * pool->per_leaf, hi = lo + pool->per_leaf;
        st_pool_fill_nodes(pool, lo, hi < pool->nodes ? hi : pool->nodes, n, gpus, &have,
                           node_used);
    }
    for (int64_t k = 0; k < have; k++) { /* every leaf and node flagged gave a GPU: flags to 0 */
        int64_t node = gpus[k] / pool->per_node;
        node_used[node] = 0;
        leaf_used[node / pool->per_leaf] = 0;
    }
    return have == n ? 0 : ST_ERANGE;
}

const st_place_policy st__place_topology_aware = {
    .abi = ST_PLACE_ABI,
    .name = "topology-aware",
    .state_size = sizeof(st__cursor),
    .init = topo_init,
    .place = topo_place,
    .take = topo_take,
};
