/* The grown fleet a `strata size --existing` row runs on (planner/size_fleet.c): every pool of
 * the scenario, the kept pool grown or a new pool added, as `strata run` would load it. Internal
 * to planner/. */
#ifndef ST_PLANNER_SIZE_FLEET_H
#define ST_PLANNER_SIZE_FLEET_H

#include <stdint.h>

#include "models/config/config.h"

typedef struct st__size_fleet {
    st_cluster_cfg c;    /* the fleet: cluster.pools with the row's pool (pools owned) */
    int pool;            /* the pool the row's job runs on */
    st_cluster_cfg view; /* the fleet as that pool sees it (st_pools_view): the job's step */
} st__size_fleet;

/* The fleet of a row on `nodes` nodes of shape (the variant's cluster of one type: its GPU, node,
 * racks, fabric, tiers and noise) beside scenario scn's pools, pool `kept` the one kept, into
 * *f: a shape of the kept pool's type grows that pool to max(nodes, its nodes), one of another
 * type is a new pool of `nodes` nodes after the others, of the shape's node and, where the
 * scenario lays racks out by pool or the shape's racks are not the cluster's, in racks of its
 * own (the shape's). The cluster-wide settings a variant changes (the fabric's oversubscription,
 * transport, routing and topology, the storage tiers, the noise) are the shape's; the leaves
 * keep the scenario's nodes_per_leaf unless it is the default, which follows the fleet's nodes
 * and largest node, as the loader derives it. Release with st__size_fleet_release. */
void st__size_fleet_init(st__size_fleet *f, const st_cluster_cfg *scn, int kept,
                         const st_cluster_cfg *shape, int64_t nodes);
void st__size_fleet_release(st__size_fleet *f);

/* GPU i of the row's job (its pool's i-th, 0 <= i < the job's GPUs): its id in the fleet, and in
 * the view's ids (the step's). The job holds its pool's first GPUs, where a placement on the
 * pool empty puts it. */
int64_t st__size_fleet_gpu(const st__size_fleet *f, int64_t i);
int64_t st__size_fleet_view_gpu(const st__size_fleet *f, int64_t i);

/* The board power, W, of the fleet's nodes outside the job's first `job_nodes` nodes of its
 * pool, with their GPUs idle (full 0) or at their TDP (full 1): each node's base power and its
 * GPUs, by its pool. */
double st__size_fleet_others_w(const st__size_fleet *f, int64_t job_nodes, int full);

#endif
