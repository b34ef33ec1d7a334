/* GPU-sharing placement: pods that ask for CPU, memory and whole or fractional GPUs placed one by
 * one on nodes, the fragmentation experiment of Weng et al., "Beware of Fragmentation:
 * Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent", USENIX ATC'23, as its
 * artifact runs it (repository hkust-adsl/kubernetes-scheduler-simulator: pods only arrive, the
 * list shuffled and tuned to a multiple of the cluster's GPU capacity with re-sampled copies,
 * each pod placed on the best-scoring node that fits). It is a placement model, not a run in
 * time: nothing departs. */
#ifndef ST_MODELS_PLACE_GPUSHARE_H
#define ST_MODELS_PLACE_GPUSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/err.h"

#define ST_GS_MAX_GPUS 8    /* GPUs on one node (the openb nodes have 1, 2, 4 or 8) */
#define ST_GS_MILLI    1000 /* one GPU in milli-GPU */

/* A node: CPU in milli-cores, memory MiB, GPUs and their model (an index into the caller's
 * model names; -1: a CPU node). */
typedef struct st_gs_node {
    int64_t cpu_milli, mem_mib;
    int gpus;
    int32_t model;
} st_gs_node;

/* A pod: CPU, memory, GPUs, each with gpu_milli free (< 1000 only for a one-GPU sharing pod),
 * and the GPU models it accepts as a bit mask over the model indices (0: any). */
typedef struct st_gs_pod {
    int64_t cpu_milli, mem_mib;
    int gpus;
    int64_t gpu_milli;
    uint64_t models;
} st_gs_pod;

#define ST_GS_POLICIES(X)                                                                          \
    X(ST_GS_RANDOM, "random")                                                                      \
    X(ST_GS_BEST_FIT, "best-fit") X(ST_GS_PACKING, "packing") X(ST_GS_FGD, "fgd")
#define ST__GS_ENUM(e, s) e,
typedef enum st_gs_policy { ST_GS_POLICIES(ST__GS_ENUM) ST_GS__N, ST__GS_END = -1 } st_gs_policy;
#undef ST__GS_ENUM
extern const char *const st_gs_policy_names[]; /* NULL-terminated, in enum order */

/* The protocol's knobs: the load the pod list is tuned to (1.3: 130% of the GPU capacity), the
 * seed of the shuffle, the re-sampling and the random choices, and the arrived loads (fractions
 * of the capacity, rising) at which the allocation is read. */
typedef struct st_gs_spec {
    const st_gs_node *nodes;
    size_t n_nodes;
    const st_gs_pod *pods;
    size_t n_pods;
    st_gs_policy policy;
    double tune;    /* 0: no copies appended */
    int keep_order; /* 1: the list's order, not shuffled (hand-sized examples) */
    uint64_t seed;
    const double *at;
    size_t n_at;
} st_gs_spec;

/* What was allocated: at each of spec.at, the GPUs allocated (milli-GPU summed over placed pods,
 * as a fraction of the capacity); and over the whole list, pods placed and failed. */
typedef struct st_gs_result {
    double alloc[8];
    size_t placed, failed, arrived;
    int64_t capacity_milli;
} st_gs_result;

/* Run the protocol of sp into *out: shuffle the pods, append re-sampled copies until one more
 * would take the GPU request past tune x capacity, then place them in order, each on the node
 * the policy scores best among those with room (CPU, memory, GPU models, and gpus GPUs with
 * gpu_milli free each), ties broken at random; a pod no node fits fails and is dropped. Scores
 * (the artifact's pkg/simulator/plugin/): random any node that fits; best-fit least leftover CPU
 * and GPU, weighted half each; packing shared GPUs first, then used nodes, then empty ones; fgd
 * the least growth of the node's fragmentation against the pod list's typical pods. Returns 0,
 * or ST_EINVAL for a node with more than ST_GS_MAX_GPUS GPUs, no GPU capacity or n_at > 8. */
int st_gs_run(const st_gs_spec *sp, st_gs_result *out, st_err *err);

#endif
