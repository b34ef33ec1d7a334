/* The best-fit placement policy: a job goes to the node whose free GPUs fit it most tightly, and
 * a job larger than a node to whole free nodes first, so it spans as few nodes as it can and the
 * emptiest nodes stay free for the next large job (the "consolidated" placement of Tiresias,
 * Gu et al., NSDI'19, section 4, and of Muri's simulator, which fills the node with the fewest
 * free GPUs that fits). In cursor mode it packs in order, as pack does. */
#include <stdlib.h>

#include "models/place/cursor.h"
#include "models/place/policy.h"
#include "sim/xalloc.h"

static void best_fit_init(void *st, const st_cluster_cfg *c)
{
    st__cursor_init(st, c);
}

static int best_fit_place(void *st, const st_place_req *req, int64_t *gpus)
{
    return st__cursor_place(st, req, gpus);
}

static int best_fit_take(void *st, const st_pool *pool, int64_t n, int64_t *gpus)
{
    (void)st;
    int64_t have = 0;
    st_pool_fill_nodes(pool, 0, pool->nodes, n, gpus, &have, pool->node_used);
    for (int64_t k = 0; k < have; k++) /* every node flagged gave a GPU: its flag back to 0 */
        pool->node_used[gpus[k] / pool->per_node] = 0;
    return have == n ? 0 : ST_ERANGE;
}

const st_place_policy st__place_best_fit = {
    .abi = ST_PLACE_ABI,
    .name = "best-fit",
    .state_size = sizeof(st__cursor),
    .init = best_fit_init,
    .place = best_fit_place,
    .take = best_fit_take,
};
