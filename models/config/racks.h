/* The racks of a cluster (cluster.racks, and a pool's own `racks:`, docs/models/pools.md): which
 * rack holds a node, each rack's nodes and the settings it is built to. Racks are numbered from
 * 0 in node order. A cluster whose pools state no racks of their own has racks of
 * cluster.racks.nodes_per_rack consecutive nodes, a rack holding nodes of two pools where their
 * boundary falls inside it; once a pool states its own, every pool fills racks of its own (the
 * last one of a pool may be partly filled) with its pool's settings. */
#ifndef ST_MODELS_CONFIG_RACKS_H
#define ST_MODELS_CONFIG_RACKS_H

#include <stdint.h>

#include "models/config/config.h"

/* The cluster's racks: ceil(nodes / nodes_per_rack), or each pool's summed. */
int64_t st_racks_count(const st_cluster_cfg *c);

/* The rack holding node k (k in [0, nodes)), and the one holding GPU g (on its node,
 * models/config/pools.h). */
int64_t st_racks_of_node(const st_cluster_cfg *c, int64_t node);
int64_t st_racks_of_gpu(const st_cluster_cfg *c, int64_t gpu);

/* The rack of GPU g in a walk over GPUs (zero-initialise the cursor): a job's GPUs come in runs
 * of whole nodes, so a GPU in the rack last found is answered by two comparisons, without the
 * rack map's divisions (8% of a sizing search's time when paid per GPU). */
typedef struct st_racks_cursor {
    int64_t lo, hi, rack; /* the GPUs [lo, hi) of rack `rack` */
} st_racks_cursor;
int64_t st__racks_seek(const st_cluster_cfg *c, st_racks_cursor *k, int64_t gpu);
static inline int64_t st_racks_of_gpu_at(const st_cluster_cfg *c, st_racks_cursor *k, int64_t gpu)
{
    return gpu >= k->lo && gpu < k->hi ? k->rack : st__racks_seek(c, k, gpu);
}

/* Rack r's first node and its node count (r in [0, st_racks_count)). */
int64_t st_racks_first_node(const st_cluster_cfg *c, int64_t rack);
int64_t st_racks_nodes(const st_cluster_cfg *c, int64_t rack);

/* What rack r is built to: its pool's racks when racks are laid out by pool, else
 * cluster.racks. The facility-wide settings (the feed, the cooling plant's supply temperatures,
 * chiller and air handlers, the mitigations) are the cluster's in either (the loader takes only
 * a rack's size and cooling from a pool). */
const st_rack_cfg *st_racks_cfg(const st_cluster_cfg *c, int64_t rack);

/* Pool k's racks: the first and how many (0 and every rack when racks are not by pool). */
int64_t st_racks_pool_first(const st_cluster_cfg *c, int k);
int64_t st_racks_pool_count(const st_cluster_cfg *c, int k);

/* The share of a rack's heat its liquid loop takes when none is stated: 0.8 for a
 * liquid-cooled rack (the contract example's 80%), 0 for an air-cooled one
 * (cluster.racks.cooling.liquid_fraction's default). */
double st_racks_default_liquid_fraction(st_cooling_kind kind);

#endif
