/* An inference service (kind: inference): dp identical replicas of a model, each of tp GPUs,
 * simulated at the granularity of the serving engine's iterations: continuous batching with
 * chunked prefill, paged KV-cache blocks, preemption by recomputation, as vLLM's V1 scheduler
 * runs them; each iteration timed by the training model's operators and fabric.
 * docs/models/inference.md gives the equations and sources. */
#ifndef ST_MODELS_SERVE_SERVE_H
#define ST_MODELS_SERVE_SERVE_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/step/step.h"
#include "sim/err.h"

/* A latency over the requests, seconds: its mean, and its 50th, 90th and 99th percentiles
 * (linear interpolation between order statistics: numpy's default, which vLLM's benchmarks
 * use). */
typedef struct st_serve_pct {
    double mean, p50, p90, p99;
} st_serve_pct;

/* One GPU's memory as the engine divides it: what it may use (gpu_memory_utilization of the
 * HBM), the weights, the activations of its largest batch, the CUDA context and communicator
 * buffers, and the rest, the KV cache, in whole blocks. Bytes. */
typedef struct st_serve_memory {
    double usable, weights, activations, reserved, kv_cache;
    double kv_per_token; /* bytes one token's K and V take on the GPU (of its stage's layers) */
    double kv_replica;   /* the replica's KV cache, all its GPUs: every stage's share of the
                            blocks */
    int64_t blocks;      /* KV-cache blocks of block_tokens tokens: the replica's, every GPU
                            holding its share of each */
    /* What a block holds (vLLM's hybrid KV-cache manager, vllm/v1/core/kv_cache_utils.py): its
     * tokens of group_layers layers, the model's layers in full_groups groups that attend to
     * the whole context and window_groups that attend to a sliding window of `window` tokens;
     * without a window, one group of every layer. */
    int64_t block_tokens, group_layers, full_groups, window_groups, window;
} st_serve_memory;

/* The blocks a request holds once its cache has `upto` tokens, `computed` of them before this
 * iteration: ceil(upto / b) in each full group, and in each windowed group those from the one
 * holding token computed - window + 1 on (the blocks wholly before it freed, vLLM's
 * SlidingWindowManager.remove_skipped_blocks); reserved whole at admission (`reserve`,
 * TensorRT-LLM's GUARANTEED_NO_EVICT, its windowed layers a cyclic buffer of the window), at
 * most ceil(window / b) + 1 there. */
static inline int64_t st_serve_blocks(const st_serve_memory *m, int64_t computed, int64_t upto,
                                      int reserve)
{
    int64_t b = m->block_tokens, full = (upto + b - 1) / b;
    if (m->window_groups == 0)
        return full;
    int64_t win, cap = (m->window + b - 1) / b + 1;
    if (reserve)
        win = full < cap ? full : cap;
    else
        win = full - (computed - m->window + 1 > 0 ? (computed - m->window + 1) / b : 0);
    return m->full_groups * full + m->window_groups * win;
}

/* The most blocks a request of `tokens` tokens holds when its prompt goes in chunks of up to
 * `chunk`: a windowed group at most the window less one and a chunk, plus one block (vLLM's
 * SlidingWindowSpec.max_memory_usage_bytes). */
int64_t st_serve_blocks_longest(const st_serve_memory *m, int64_t tokens, int64_t chunk);

/* The tokens the cache holds in every layer at once: its blocks over the groups, b tokens
 * each. */
int64_t st_serve_kv_tokens(const st_serve_memory *m);

/* Points of an autoscaled service's timeline (st_serve_result.timeline). */
#define ST_SERVE_TIMELINE 145

/* One instant of an autoscaled service: the replicas up, and those its load asks for, the rate
 * over the target rate a replica is given (not rounded, not bounded: above max where the load
 * outgrows the service, ahead of the replicas up where they lag it). */
typedef struct st_serve_point {
    double t_s, up, asked;
} st_serve_point;

/* How long an autoscaled replica takes from its launch to serving (docs/models/inference.md,
 * "Scale to zero and cold starts"): stated whole (autoscale.delay: init_s the delay, the rest
 * 0), or modelled from its parts, a vLLM engine's as the inference preset sources them: its
 * process start and imports (init_s), its weights read from the storage tier (load_s: one
 * replica's weights over the tier's read bandwidth, a launch of k replicas k times that, the
 * tier serving one launch at a time), its compilation and CUDA-graph capture (warm_s). A launch
 * at t of k replicas is ready at max(t + init_s, the tier free) + k load_s + warm_s. */
typedef struct st_serve_cold {
    int stated;          /* autoscale.delay given (or no tier to model from) */
    int shared;          /* the tier is the cluster's (its launches read it in turn), not each
                            node's own drives (local-nvme) */
    double init_s;       /* the engine's start before its weights (stated: the whole delay) */
    double load_s;       /* one replica's weights from the tier, alone */
    double compile_s;    /* torch.compile */
    double graph_s;      /* CUDA-graph capture */
    double warm_s;       /* compile_s + graph_s */
    double total_s;      /* one replica alone: init_s + load_s + warm_s */
    double weight_bytes; /* one replica's weights, all its GPUs */
    const char *tier;    /* the tier they load from (borrowed from the scenario); NULL: stated */
    uint64_t seed, id;   /* the stream of the fleet's first arrivals at zero replicas */
} st_serve_cold;

typedef struct st_serve_result {
    st_serve_memory mem;
    double tokens_per_s;       /* output tokens per second, all replicas */
    double requests_per_s;     /* requests completed per second, all replicas */
    st_serve_pct ttft_s;       /* arrival to first output token */
    st_serve_pct tpot_s;       /* (last - first token) / (output tokens - 1) */
    double kv_cache_bytes;     /* one replica's KV cache, all its GPUs */
    int64_t kv_cache_tokens;   /* tokens it holds */
    double batch_mean;         /* requests in an iteration, mean over iterations */
    double iteration_mean_s;   /* an iteration's mean time */
    int64_t iterations;        /* one replica's */
    int64_t preemptions;       /* requests pushed out of a full cache and recomputed, one
                                  replica's */
    int64_t requests;          /* sent, all replicas */
    double span_s;             /* first arrival to last completion */
    double replicas_mean;      /* replicas up on average over the span: dp, or under a load
                                  curve's autoscaler what it kept up */
    int64_t replicas_peak;     /* the most up at once */
    double gpu_hours;          /* the replicas' GPUs while up: tp x replica-seconds / 3600 */
    st_serve_cold cold;        /* with an autoscaler: a replica's start */
    int64_t cold_starts;       /* starts from zero replicas up (autoscale.min 0) */
    double cold_start_total_s; /* their seconds, launch to ready, summed */
    double gpu_hours_saved;    /* tp x pp x the seconds with no replica up or starting / 3600:
                                  what one replica kept up there (min 1) would have held */
    double scale_target_rate;  /* with an autoscaler: the requests per second it gives a
                                  replica (stated, or a share of one's rate within the SLO) */
    int n_timeline;            /* with one: the replicas at ST_SERVE_TIMELINE instants evenly
                                  over the load curve, its ends included */
    st_serve_point timeline[ST_SERVE_TIMELINE];
    int has_slo;               /* the workload states a latency target */
    double slo_attainment;     /* with one: the share of requests whose own time to first token
                                  and time per output token meet it */
    int slo_met;               /* at its own request stream, the p99s meet it */
    double max_rate_under_slo; /* requests per second, all replicas: dp x one replica's
                                  capacity (st_serve_capacity) */
    double max_tokens_per_s_under_slo; /* output tokens per second at that rate */
    int64_t max_concurrency_under_slo; /* a closed loop's: the most clients, all replicas,
                                          within it: dp x one replica's (st_serve_clients),
                                          at most dp x max_seqs (0: not even one a
                                          replica) */
    /* Power by the plant's activity model (models/plant/gpu_power.h): an iteration's kernels at
     * the compute power, its collectives at the communication power, the time between
     * iterations idle. */
    st_step_result cycle;      /* a replica's mean iteration as the plant reads a step: step_time_s
                                  the span over the iterations, b.compute_s its kernels, b.tp_comm_s
                                  its collectives (the all-reduces, and under parallel.ep over
                                  replicas the all-to-alls), b.bubble_s the idle time between
                                  iterations */
    double gpu_mean_w;         /* one GPU's mean board power over the span */
    double energy_per_token_j; /* the service's GPUs and their nodes' share of base power,
                                  through the power supplies, per output token; the
                                  facility's cooling and conversion (PUE) left out */
    int has_cost;              /* the scenario prices it (a GPU-hour delivery model) */
    double cost_per_million_tokens_usd;
} st_serve_result;

/* Serve workload w (kind: inference, a model the loader accepted for it) on cluster c's GPU
 * type, its replicas' collectives on x's fabric (ranks 0 .. tp - 1 as x places them), arrivals
 * drawn from the stream (seed, id) (id: the workload's index). Returns 0, or an error located at
 * the workload: a KV cache that cannot hold one request. */
int st_serve_run(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c, uint64_t seed,
                 uint64_t id, st_serve_result *out, st_err *err);

/* The requests a replica's capacity is measured on (st_serve_capacity): vLLM's serving
 * benchmark's default --num-prompts, the inference preset's count (models/config/config.c). */
#define ST_SERVE_CAPACITY_REQUESTS (st_inference_preset_default.count)

/* One replica's capacity within w's latency targets (docs/models/inference.md, "A replica's
 * capacity"): the highest Poisson rate at which one replica alone meets both p99s over the
 * first ST_SERVE_CAPACITY_REQUESTS requests of w's streams (seed, id) (a trace: all its rows, at
 * its shape), at most the rate it completes them all at once; and its output tokens per second
 * there. The one definition of the figure: st_serve_run's max_rate_under_slo is dp times it,
 * and sizing (planner/size_serve.c) divides a rate by it. Neither w's replicas nor its
 * stream's count enter. Without a target, the offline rate. */
typedef struct st_serve_capacity_result {
    double rate_per_s, tokens_per_s;
} st_serve_capacity_result;
int st_serve_capacity(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                      uint64_t seed, uint64_t id, st_serve_capacity_result *out, st_err *err);

/* A closed loop's (requests mode: closed) one replica's client capacity within w's latency
 * targets (docs/models/inference.md, "A replica's clients"): the most clients of a loop on one
 * replica alone, each client sending the stated loop's count / concurrency requests (the first
 * of w's streams (seed, id)), whose p99s meet both targets, at most the engine's max_seqs; 0
 * where not even one client does. The one definition of the figure: st_serve_run's
 * max_concurrency_under_slo is dp times it, and sizing (planner/size_serve.c) divides the
 * clients by it. Neither w's replicas nor the stated loop's verdict over them enter. */
int st_serve_clients(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                     uint64_t seed, uint64_t id, int64_t *out, st_err *err);

/* Whether r's p99 time to first token and time per output token meet the targets ic states
 * (a target not stated is met). */
int st_serve_meets(const st_inference_cfg *ic, const st_serve_result *r);

/* Service w's GPUs of one replica (tp x pp) and its replicas (dp), at least 1 each. */
int64_t st_serve_replica_gpus(const st_workload_cfg *w);
int64_t st_serve_replicas(const st_workload_cfg *w);

/* The requests ic's stream sends from a_s to b_s seconds after it starts, all replicas: its
 * rate (or its load curve's, integrated) over the stretch, expected counts, not draws; all of
 * them at its start when offline; a trace's rows in the stretch. A stream held to a concurrency
 * counts the requests sent before any completes (what a service waiting for its GPUs is sent):
 * a closed loop's clients' first at its start, a capped Poisson stream's at its rate up to the
 * cap. */
double st_serve_sent(const st_inference_cfg *ic, double a_s, double b_s);

/* One replica's stretch up under a load curve's autoscaler, seconds from the curve's start:
 * replica `replica` serves from from_s to to_s (the curve's end for the last). */
typedef struct st_serve_up {
    int64_t replica;
    double from_s, to_s;
} st_serve_up;

/* The stretches service w's replicas are up under its autoscaler, at the target rate r states
 * (r->scale_target_rate): replica k is up while the autoscaler keeps more than k, so each
 * scale-up opens the lowest replicas closed and each scale-down closes the highest open. The
 * replicas up all along, [0, *base), are left out. Returns how many stretches, into *out
 * (malloc'd; NULL with none); 0 and *base dp without an autoscaler. */
size_t st_serve_ups(const st_workload_cfg *w, const st_serve_result *r, int64_t *base,
                    st_serve_up **out);

/* The requests one replica of service w, up from a[i] to b[i] seconds after its curve's start,
 * receives there (the integral of lambda(t) / n(t), n the replicas up at r's target rate), for
 * each of the n stretches, into sent[i]. Without an autoscaler, lambda / dp. */
void st_serve_replica_sent(const st_workload_cfg *w, const st_serve_result *r, const double *a,
                           const double *b, size_t n, double *sent);

/* The memory split of one GPU of w's replicas on gpu (no simulation). */
void st_serve_memory_of(const st_workload_cfg *w, const st_gpu_spec *gpu, st_serve_memory *out);

#endif
