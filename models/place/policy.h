/* The placement interface: a policy chooses the GPUs of the next job, either along a cursor (jobs
 * placed once, in order: the collective workloads) or among the free GPUs of a cluster run's pool
 * (pool.h), all of a job's GPUs or none. pack.c packs in order, best_fit.c takes the fewest and
 * fullest nodes, topology_aware.c the fewest leaves first, random.c a random node. */
#ifndef ST_MODELS_PLACE_POLICY_H
#define ST_MODELS_PLACE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/place/pool.h"
#include "sim/err.h"

#define ST_PLACE_ABI 2

/* One job asking for GPUs. */
typedef struct st_place_req {
    int64_t gpus;    /* ranks to place, >= 1 */
    int whole_nodes; /* start on a node no earlier job of this cursor touches */
    int wrap;        /* when the GPUs run out, start again at GPU 0 (jobs then overlap: no
                        queue exists yet to hold them back) rather than refuse */
} st_place_req;

/* A placement policy. Fields are append-only (abi). The core allocates state_size zeroed bytes
 * per instance; init sets the policy up for cluster c and never fails. place writes req->gpus
 * GPU ids, rank order, into gpus and returns 0, or ST_ERANGE (no message) when the cluster has
 * no room for the job. take (ABI 2) chooses n GPUs among pool's free ones into gpus and returns
 * 0, or ST_ERANGE when it will not place the job now (never part of it); it does not change the
 * pool (the caller marks them held). Deterministic: the same requests in the same order give
 * the same ids. */
typedef struct st_place_policy {
    unsigned abi;
    const char *name;
    size_t state_size;
    void (*init)(void *st, const st_cluster_cfg *c);
    int (*place)(void *st, const st_place_req *req, int64_t *gpus);
    int (*take)(void *st, const st_pool *pool, int64_t n, int64_t *gpus);
    void (*seed)(void *st, uint64_t seed); /* optional: a randomised policy's run seed */
} st_place_policy;

/* The registered policies by name (registry.c); NULL for an unknown name. */
const st_place_policy *st_place_policy_find(const char *name);

/* One running instance of a policy: the policy and its state. */
typedef struct st_placer {
    const st_place_policy *policy;
    void *state;
} st_placer;

/* Start an instance of policy p for cluster c; st_placer_release frees it. */
void st_placer_init(st_placer *pl, const st_place_policy *p, const st_cluster_cfg *c);
void st_placer_release(st_placer *pl);

/* Seed the instance with the run's seed (policies without a seed hook ignore it). */
void st_placer_seed(st_placer *pl, uint64_t seed);

/* Place one job: p->place on the instance's state. */
int st_placer_place(st_placer *pl, const st_place_req *req, int64_t *gpus);

/* Choose n free GPUs of pool for one job: p->take on the instance's state (ST_ERANGE: not now). */
int st_placer_take(st_placer *pl, const st_pool *pool, int64_t n, int64_t *gpus);

/* The registered policies' names, NULL-terminated, in registry order. */
extern const char *const st_place_policy_names[];

#endif
