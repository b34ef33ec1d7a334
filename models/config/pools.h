/* The pools of a cluster (cluster.pools, docs/models/pools.md): which pool holds a node or a
 * GPU, each pool's node size, and the cluster as one pool sees it. A cluster of one GPU type is
 * one pool of every node. The one home of the arithmetic of GPU ids: pool k owns the GPUs
 * [first_gpu_k, first_gpu_k + nodes_k x gpus_per_node_k), node n of it the GPUs
 * first_gpu_k + (n - first_node_k) x gpus_per_node_k on; nothing cluster-wide divides a GPU id
 * by one gpus_per_node. */
#ifndef ST_MODELS_CONFIG_POOLS_H
#define ST_MODELS_CONFIG_POOLS_H

#include <stdint.h>

#include "models/config/config.h"

/* The number of pools: n_pools, or 1 for a cluster of one type. */
int st_pools_count(const st_cluster_cfg *c);

/* The pool holding node k (0 for a cluster of one type; the last pool past the end). */
int st_pools_of_node(const st_cluster_cfg *c, int64_t node);

/* The pool holding GPU g (by bisection over the pools' first GPUs; the last past the end). */
int st_pools_of_gpu(const st_cluster_cfg *c, int64_t gpu);

/* The GPU type of GPU g: its pool's, or the cluster's one type. */
const st_gpu_spec *st_pools_gpu_of(const st_cluster_cfg *c, int64_t gpu);

/* The GPU type workload w runs on: its pool's (`pool:`), or the cluster's one type, also while
 * a pool index is not yet checked (NULL where the cluster's GPU did not read). */
const st_gpu_spec *st_pools_gpu_of_workload(const st_cluster_cfg *c, const st_workload_cfg *w);

/* Pool k's first node and node count (0 and all nodes for a cluster of one type). */
int64_t st_pools_first_node(const st_cluster_cfg *c, int k);
int64_t st_pools_nodes(const st_cluster_cfg *c, int k);

/* Pool k's node: its GPUs (at least 1), its NVLink domain's GPUs and its NICs (the cluster's
 * for a cluster of one type). */
int64_t st_pools_gpus_per_node(const st_cluster_cfg *c, int k);
int64_t st_pools_nvlink_domain(const st_cluster_cfg *c, int k);
int64_t st_pools_nics_per_node(const st_cluster_cfg *c, int k);

/* Pool k's first GPU and GPU count, and its first NIC. */
int64_t st_pools_first_gpu(const st_cluster_cfg *c, int k);
int64_t st_pools_gpus(const st_cluster_cfg *c, int k);
int64_t st_pools_first_nic(const st_cluster_cfg *c, int k);

/* The cluster's GPUs and NICs: sum_k nodes_k x gpus_per_node_k (nodes x gpus_per_node for one
 * type), and the same in NICs. */
int64_t st_pools_cluster_gpus(const st_cluster_cfg *c);
int64_t st_pools_cluster_nics(const st_cluster_cfg *c);

/* Whether every pool's node has the cluster's gpus_per_node (always for one type): GPU g is on
 * node g / gpus_per_node, and a path that divides stays the one-size cluster's. */
int st_pools_one_node_size(const st_cluster_cfg *c);

/* Whether every pool's node is of one size and has one NIC count: what a report needs not state
 * pool by pool. */
int st_pools_one_node_shape(const st_cluster_cfg *c);

/* The most NICs a node of c has: the cluster's, or its pools' largest (each pool its own): what
 * the default nodes_per_leaf holds 32 NICs' worth of, whatever order the pools come in. */
int64_t st_pools_most_nics(const st_cluster_cfg *c);

/* The node of GPU g, and node n's first GPU and GPU count (n in [0, nodes]; node `nodes` starts
 * past the last GPU). */
int64_t st_pools_node_of_gpu(const st_cluster_cfg *c, int64_t gpu);
int64_t st_pools_node_first_gpu(const st_cluster_cfg *c, int64_t node);
int64_t st_pools_node_gpus(const st_cluster_cfg *c, int64_t node);

/* The GPUs of nodes [first, first + n): their first and how many. */
int64_t st_pools_nodes_gpus(const st_cluster_cfg *c, int64_t first, int64_t n);

/* The cluster as pool k sees it, into *out: a copy of c with pool k's GPU type, node (GPUs,
 * NVLink domain, NICs, base power, PCIe link) and its racks where racks are laid out by pool,
 * and no pools, its node count and fabric unchanged, so a step placed on the pool's GPUs crosses
 * the cluster's real nodes and leaves; view_of names the pool. Its GPU ids are the view's,
 * node x gpus_per_node_k + slot (st_pools_view_gpu), and its NVLink domains begin at the pool's
 * first node (nvlink_skew). A cluster of one type is copied as it is. */
void st_pools_view(const st_cluster_cfg *c, int k, st_cluster_cfg *out);

/* The GPUs pool k's view numbers: the cluster's nodes at the pool's node size, so fewer than
 * the cluster's where another pool's nodes are larger (a job across pools is stepped on each of
 * its pools' views, and must fit each). */
int64_t st_pools_view_gpus(const st_cluster_cfg *c, int k);

/* GPU g of the cluster in pool k's view's ids: on the same node, at its slot scaled to the
 * view's node size (exact for pool k's own GPUs; another pool's GPU keeps its node, its leaf
 * and its share of the node's NICs, and a place of its own where its node is no larger than
 * pool k's, as a job across pools paced by pool k needs). The identity where the pools share
 * one node size. */
int64_t st_pools_view_gpu(const st_cluster_cfg *c, int k, int64_t gpu);

/* The nodes [first, first + n) of pool k's node range that lie in [lo, lo + len): how many. */
int64_t st_pools_overlap(const st_cluster_cfg *c, int k, int64_t lo, int64_t len);

#endif
