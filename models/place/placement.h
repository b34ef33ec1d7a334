/* Where a job runs: the GPUs it occupies on one topology, and the nodes, NICs, leaves, spines
 * and racks they take with them. Every level reads a job's place from this one record (storage
 * streams, failure exposure, the report) instead of re-deriving it from loose numbers. */
#ifndef ST_MODELS_PLACE_PLACEMENT_H
#define ST_MODELS_PLACE_PLACEMENT_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/topo.h"

/* A job's place. gpu[r] is the GPU id of the job's rank r, ranked as Megatron-LM ranks them (tp
 * fastest, then cp, dp, pp); the counts are of distinct components. Built by
 * st_placement_init; owns gpu; released by st_placement_release. */
typedef struct st_placement {
    const st_topo *topo;     /* borrowed: the topology the ids refer to */
    const st_cluster_cfg *c; /* borrowed: the cluster the topology was built from */
    int64_t *gpu;            /* n_gpus GPU ids, one per rank */
    int64_t n_gpus;
    int64_t nodes, nics, leaves, spines, racks;
    /* appended, borrowed: the cluster whose numbering the ids are in, which their nodes, NICs
     * and racks are counted on: c, or the whole cluster of which c is one pool's view where the
     * pools' nodes are of several sizes (st_placement_init_in) */
    const st_cluster_cfg *ids;
} st_placement;

/* Fill *p for ranks on gpus[0..n) (copied) of topology t built from cluster c, and count the
 * components they occupy: nodes (gpus_per_node to a node), their NICs, the leaf switches their
 * NICs hang from, every spine once the job spans two leaves (ECMP spreads its flows over all of
 * them) and the racks of its nodes (racks.nodes_per_rack to a rack). n >= 1; every id must be
 * a GPU of t. */
void st_placement_init(st_placement *p, const st_topo *t, const st_cluster_cfg *c,
                       const int64_t *gpus, int64_t n);

/* st_placement_init for ranks on the GPUs of `whole` (ids in its numbering, its nodes, NICs and
 * racks), c being the cluster as the job's pool sees it, whose figures (GPU, PCIe link, NICs'
 * rate, storage) the job's place is read with. */
void st_placement_init_in(st_placement *p, const st_topo *t, const st_cluster_cfg *c,
                          const st_cluster_cfg *whole, const int64_t *gpus, int64_t n);

/* The same for ranks on the consecutive GPUs first .. first + n - 1. */
void st_placement_init_range(st_placement *p, const st_topo *t, const st_cluster_cfg *c,
                             int64_t first, int64_t n);

/* Free what st_placement_init allocated; *p is zeroed. Safe on a zeroed record. */
void st_placement_release(st_placement *p);

/* How many components of a failure class (gpu, node, nic, leaf_switch, spine_switch, rack) the
 * job occupies; 0 for a component it takes none of or does not know. */
double st_placement_count(const st_placement *p, const char *component);

/* The node of GPU g on the placement's cluster (its `ids`). */
int64_t st_placement_node_of(const st_placement *p, int64_t g);

#endif
