/* The pack placement policy: jobs take GPUs one after another in the order they ask, from GPU 0,
 * each rank on the next GPU; in a cluster run, the lowest-numbered free GPUs (first fit). What
 * the forecast has always done before a scheduler existed. */
#include <stdint.h>

#include "models/place/cursor.h"
#include "models/place/policy.h"

void st__cursor_init(st__cursor *p, const st_cluster_cfg *c)
{
    p->per_node = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    p->total = c->nodes * p->per_node;
    p->next = 0;
}

int st__cursor_place(st__cursor *p, const st_place_req *req, int64_t *gpus)
{
    if (req->gpus > p->total)
        return ST_ERANGE;
    if (p->next + req->gpus > p->total) {
        if (!req->wrap)
            return ST_ERANGE;
        p->next = 0;
    }
    for (int64_t r = 0; r < req->gpus; r++)
        gpus[r] = p->next + r;
    p->next += req->gpus;
    if (req->whole_nodes) /* the next job starts on a fresh node */
        p->next = (p->next + p->per_node - 1) / p->per_node * p->per_node;
    return 0;
}

static void pack_init(void *st, const st_cluster_cfg *c)
{
    st__cursor_init(st, c);
}

static int pack_place(void *st, const st_place_req *req, int64_t *gpus)
{
    return st__cursor_place(st, req, gpus);
}

static int pack_take(void *st, const st_pool *pool, int64_t n, int64_t *gpus)
{
    (void)st;
    int64_t have = 0;
    for (int64_t k = 0; k < pool->nodes && have < n; k++)
        if (pool->node_free[k] > 0)
            st_pool_collect(pool, k, n, gpus, &have);
    return have == n ? 0 : ST_ERANGE;
}

const st_place_policy st__place_pack = {
    .abi = ST_PLACE_ABI,
    .name = "pack",
    .state_size = sizeof(st__cursor),
    .init = pack_init,
    .place = pack_place,
    .take = pack_take,
};
