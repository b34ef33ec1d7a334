/* The random placement policy, the baseline the fragmentation literature measures placements
 * against (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with
 * Fragmentation Gradient Descent", USENIX ATC'23, compares best fit and packing with a random
 * choice among the nodes that meet a pod's demand). A job goes to a node drawn uniformly among
 * those whose free GPUs hold it all, its lowest free GPUs first; a job no node holds takes the free
 * GPUs of nodes in a uniformly shuffled order until it has them. Seeded from the run's seed, so the
 * same run gives the same GPUs. In cursor mode it packs in order, as pack does. */
#include <stdlib.h>

#include "models/place/cursor.h"
#include "models/place/policy.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

typedef struct rnd {
    st__cursor cur;
    uint64_t x; /* splitmix64's state */
} rnd;

static void rnd_init(void *st, const st_cluster_cfg *c)
{
    rnd *r = st;
    st__cursor_init(&r->cur, c);
    r->x = st_rng_stream_seed(1, st_rng_tag("placement"), 0, st_rng_tag("random"));
}

static void rnd_seed(void *st, uint64_t seed)
{
    rnd *r = st;
    r->x = st_rng_stream_seed(seed, st_rng_tag("placement"), 0, st_rng_tag("random"));
}

/* splitmix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators",
 * OOPSLA 2014): the next 64 bits. */
static uint64_t next64(rnd *r)
{
    uint64_t z = (r->x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, m), m < 2^32 (the multiply-shift bias is below 2^-32 per draw). */
static int64_t below(rnd *r, int64_t m)
{
    return (int64_t)(((next64(r) >> 32) * (uint64_t)m) >> 32);
}

static int rnd_place(void *st, const st_place_req *req, int64_t *gpus)
{
    return st__cursor_place(&((rnd *)st)->cur, req, gpus);
}

static int rnd_take(void *st, const st_pool *pool, int64_t n, int64_t *gpus)
{
    rnd *r = st;
    int64_t *node = st_xcalloc((size_t)pool->nodes + 1, sizeof *node), m = 0, fit = 0, have = 0;
    for (int64_t k = 0; k < pool->nodes; k++) /* the nodes that hold the whole job first */
        if (pool->node_free[k] >= n)
            node[m++] = k;
    fit = m;
    if (fit > 0) {
        st_pool_collect(pool, node[below(r, fit)], n, gpus, &have);
    } else {
        for (int64_t k = 0; k < pool->nodes; k++)
            if (pool->node_free[k] > 0)
                node[m++] = k;
        for (int64_t i = 0; i < m && have < n; i++) { /* Fisher-Yates, drawn as it goes */
            int64_t j = i + below(r, m - i), t = node[i];
            node[i] = node[j];
            node[j] = t;
            st_pool_collect(pool, node[i], n, gpus, &have);
        }
    }
    free(node);
    return have == n ? 0 : ST_ERANGE;
}

const st_place_policy st__place_random = {
    .abi = ST_PLACE_ABI,
    .name = "random",
    .state_size = sizeof(rnd),
    .init = rnd_init,
    .place = rnd_place,
    .take = rnd_take,
    .seed = rnd_seed,
};
