/* The pools of a cluster (cluster.pools, docs/models/pools.md): which pool holds a node or a
 * GPU, and the cluster as one pool sees it. A cluster of one GPU type is one pool of every node. */
#ifndef ST_MODELS_CONFIG_POOLS_H
#define ST_MODELS_CONFIG_POOLS_H

#include <stdint.h>

#include "models/config/config.h"

/* The number of pools: n_pools, or 1 for a cluster of one type. */
int st_pools_count(const st_cluster_cfg *c);

/* The pool holding node k (0 for a cluster of one type; the last pool past the end). */
int st_pools_of_node(const st_cluster_cfg *c, int64_t node);

/* The pool holding GPU g (GPU g is on node g / gpus_per_node). */
int st_pools_of_gpu(const st_cluster_cfg *c, int64_t gpu);

/* The GPU type of GPU g: its pool's, or the cluster's one type. */
const st_gpu_spec *st_pools_gpu_of(const st_cluster_cfg *c, int64_t gpu);

/* The GPU type workload w runs on: its pool's (`pool:`), or the cluster's one type, also while
 * a pool index is not yet checked (NULL where the cluster's GPU did not read). */
const st_gpu_spec *st_pools_gpu_of_workload(const st_cluster_cfg *c, const st_workload_cfg *w);

/* Pool k's first node and node count (0 and all nodes for a cluster of one type). */
int64_t st_pools_first_node(const st_cluster_cfg *c, int k);
int64_t st_pools_nodes(const st_cluster_cfg *c, int k);

/* The cluster as pool k sees it, into *out: a copy of c with pool k's GPU type, node base power
 * and PCIe link (and its racks where racks are laid out by pool) and no pools, its nodes and
 * fabric unchanged, so GPU ids stay the cluster's and a step placed on the pool's GPUs crosses
 * the cluster's real fabric; view_of names the pool. A cluster of one type is copied as it is. */
void st_pools_view(const st_cluster_cfg *c, int k, st_cluster_cfg *out);

/* The nodes [first, first + n) of pool k's node range that lie in [lo, lo + len): how many. */
int64_t st_pools_overlap(const st_cluster_cfg *c, int k, int64_t lo, int64_t len);

#endif
