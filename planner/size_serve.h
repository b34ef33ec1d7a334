/* Sizing a service (`strata size` on a kind: inference workload): for each GPU type and tensor-
 * parallel degree that holds the model, the highest rate one replica serves within the
 * workload's latency targets (models/serve/serve.h; without targets its offline capacity), the
 * replicas the workload's request rate then needs, their GPUs, power and, where the scenario
 * prices GPU-hours, cost; ranked by GPUs (or cost). docs/guide/sizing.md, "Sizing a service". */
#ifndef ST_PLANNER_SIZE_SERVE_H
#define ST_PLANNER_SIZE_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

/* One configuration: a replica of tp x pp GPUs of type gpu, and how many the rate needs. */
typedef struct st_serve_size_row {
    const st_gpu_spec *gpu;
    int64_t tp, pp, replicas, gpus;
    int64_t ep;      /* 1, or the expert-parallel group: ep replicas of one GPU sharing the experts,
                        replicas a multiple of it */
    int fits;        /* its KV cache holds a request, and some rate meets the targets */
    const char *why; /* when it does not: what fails (static text) */
    double rate_per_replica;       /* requests per second one replica serves within the targets */
    int64_t clients_per_replica;   /* a closed loop's: the clients one replica holds within them
                                      (without targets, its batch limit) */
    double tokens_per_s;           /* output tokens per second the replicas serve: under a load
                                      curve, at its mean rate */
    double ttft_p99_s, tpot_p99_s; /* at the workload's rate over `replicas` replicas */
    double gpus_board_w;           /* the GPUs' mean board power there, all of them */
    int priced;                    /* the scenario prices its GPU-hours */
    double usd_per_hour, usd_per_million_tokens;
} st_serve_size_row;

typedef struct st_serve_size {
    double rate;            /* the workload's requests per second: under a load curve, its
                               peak, which the replicas must carry within the targets (0 for a
                               closed loop) */
    int64_t clients;        /* a closed loop's clients (0 for a rate) */
    st_serve_size_row *row; /* ranked: fitting first, by GPUs (or cost), then power, type, tp,
                               pp, ep */
    size_t n;
    /* the configurations tried and those that serve the load, all of them, whatever rows a
     * report keeps (st_serve_size_keep) */
    size_t tried, serve;
} st_serve_size;

/* Keep the first `top` rows that serve the load and every row that cannot (each says why),
 * in their order; tried and serve still count them all. */
void st_serve_size_keep(st_serve_size *z, size_t top);

/* Size workload w (kind: inference with a Poisson rate, a trace or a closed loop of clients;
 * the scenario's workload `id`, in file order, whose request streams it draws) on
 * cluster c's node for each GPU type of
 * types[0..n_types) (NULL or none: c's), tensor parallel 1, 2, 4 ... up to the node's GPUs, and
 * where none of those holds the model with a request, a node's tensor parallelism over 2, 4,
 * 8 ... pipeline stages up to the cluster's nodes, and for a mixture of experts groups of 2, 4,
 * 8 ... replicas of one GPU up to the node's GPUs sharing the experts (the experts split);
 * by cost (cost_goal, where cost prices GPU-hours) or by GPUs. Returns 0, or ST_EINVAL located
 * at the workload (no rate or clients to size for, or a capped Poisson stream). Free with
 * st_serve_size_release. */
int st_size_serving(const st_cluster_cfg *c, const st_workload_cfg *w, uint64_t id,
                    const st_gpu_spec *const *types, size_t n_types, const st_cost_cfg *cost,
                    int cost_goal, uint64_t seed, st_serve_size *out, st_err *err);
void st_serve_size_release(st_serve_size *s);

#endif
