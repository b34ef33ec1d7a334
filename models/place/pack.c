/* The pack placement policy: jobs take GPUs one after another in the order they ask, from GPU 0,
 * each rank on the next GPU. What the forecast has always done before a scheduler existed. */
#include <stdint.h>

#include "models/place/policy.h"

typedef struct pack {
    int64_t total, per_node, next;
} pack;

static void pack_init(void *st, const st_cluster_cfg *c)
{
    pack *p = st;
    p->per_node = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    p->total = c->nodes * p->per_node;
    p->next = 0;
}

static int pack_place(void *st, const st_place_req *req, int64_t *gpus)
{
    pack *p = st;
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

const st_place_policy st__place_pack = {
    .abi = ST_PLACE_ABI,
    .name = "pack",
    .state_size = sizeof(pack),
    .init = pack_init,
    .place = pack_place,
};
