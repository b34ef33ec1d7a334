/* Internal to models/serve/: what one iteration of a replica costs (serve_cost.c), for the
 * engine that schedules the iterations (serve.c), and the service that capacity searches
 * (serve_capacity.c) measure. */
#ifndef ST_MODELS_SERVE_SERVE_INTERNAL_H
#define ST_MODELS_SERVE_SERVE_INTERNAL_H

#include "models/serve/serve.h"
#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"
#include "sim/rng.h"

/* The parts of an iteration's time that depend on its token count alone, remembered per count
 * (an hour of serving meets each count thousands of times), and what it needs to time the
 * rest. */
typedef struct st__serve_cost {
    const st_workload_cfg *w; /* borrowed */
    const st_gpu_spec *gpu;   /* borrowed */
    st_step_ctx *x;           /* borrowed: the fabric the tensor-parallel all-reduces run on */
    st_workload_cfg shape;    /* w at one sequence of T tokens, for the operator graph */
    st_ops_decode decode;     /* the shape's decode attention, computed once */
    int64_t max_tokens, max_sampled;
    double *layer_s;       /* by tokens: one layer's operators outside the attention core; < 0: not
                              computed yet */
    double *ar_s;          /* by tokens: one layer's two all-reduces; < 0: not computed yet */
    double *a2a_s;         /* by tokens, under expert parallelism: one MoE layer's all-to-alls
                              (NULL without it); < 0: not computed yet */
    double moe_share;      /* the model's MoE layers over its layers (0: dense) */
    double *edge_s;        /* by tokens: the input embedding */
    double *head_s;        /* by sampled tokens: the final norm and the logits */
    int64_t pp;            /* pipeline stages */
    int64_t *stage_layers; /* [pp]: the layers of each */
    int64_t domain;        /* GPUs one NVLink domain or node spans: where hand-overs cross */
    double *handover_s[2]; /* by tokens, pp > 1: a hand-over within a node, across two; < 0:
                              not computed yet */
} st__serve_cost;

/* gpu: the cluster's type (or a sizing variant's); domain: the GPUs of one node or NVLink
 * domain, whichever is larger (a hand-over between stages in one runs on NVLink). */
void st__serve_cost_init(st__serve_cost *c, const st_workload_cfg *w, const st_gpu_spec *gpu,
                         int64_t domain, st_step_ctx *x);
void st__serve_cost_release(st__serve_cost *c);

/* One iteration: `requests` given tokens, `tokens` processed in all, `sampled` of them producing a
 * token, `decodes` requests decoding one token each over decode_keys cached tokens together, and
 * the prefill chunks' attention already summed (st__serve_prefill_s). Seconds. */
typedef struct st__serve_batch {
    int64_t requests, tokens, sampled, decodes;
    double decode_keys, prefill_attn_s;
    /* the same on a sliding-window layer (0 for a model without one): each decode's keys within
     * its window, and the prefill chunks' windowed attention */
    double decode_keys_window, prefill_attn_window_s;
} st__serve_batch;

/* The iteration's seconds; *comm_s (not NULL) the part of them its GPUs wait on the
 * tensor-parallel all-reduces, the rest running kernels (what the plant's power model tells
 * apart). */
double st__serve_iteration_s(st__serve_cost *c, const st__serve_batch *b, double *comm_s);

/* Pipeline stage k's part of the iteration (pp > 1): its layers, the input embedding on the
 * first stage, the final norm and logits on the last; *comm_s (not NULL) its all-reduces.
 * Summed over the stages it is st__serve_iteration_s's time. */
double st__serve_stage_s(st__serve_cost *c, const st__serve_batch *b, int64_t k, double *comm_s);

/* Seconds stage k takes to hand stage k + 1 the hidden states of a batch of T tokens. */
double st__serve_handover_s(st__serve_cost *c, int64_t T, int64_t k);

/* One layer's attention core for a prefill chunk of `queries` tokens after `past` cached ones. */
double st__serve_prefill_s(const st__serve_cost *c, int64_t queries, int64_t past);

/* The same on a sliding-window layer of `window` keys. */
double st__serve_prefill_window_s(const st__serve_cost *c, int64_t queries, int64_t past,
                                  int64_t window);

/* ---- one replica's run (serve_engine.c) ---- */

/* What one replica's run gives the report. */
typedef struct st__serve_replica_out {
    int64_t n;
    double *ttft, *tpot; /* per request; tpot < 0 for a request of one output token */
    unsigned char *ok;   /* per request: its own latencies meet the targets (all, without) */
    double span_s, first_s, busy_s, comm_s;
    double pass_s; /* its batches' times through the pipeline, summed (one stage: busy_s) */
    double tokens; /* output tokens of its requests */
    int64_t iterations, preemptions, batch_sum;
} st__serve_replica_out;

/* What one replica is sent: n requests, request i of len_in[i] and len_out[i] tokens, arriving
 * at arrival[i] (ascending). With cap > 0 at most cap are in flight: each request past the first
 * cap is held by its client until the one whose place it takes completes (the k-th completion
 * frees request cap + k - 1's), and reaches the engine the front end's time per request after
 * that completion, or at arrival[i] if later (a closed loop: every arrival 0). */
typedef struct st__serve_stream {
    const double *arrival;
    const int64_t *len_in, *len_out;
    int64_t n, cap;
    const double *ready; /* NULL, or when each reaches the engine (>= its arrival, ascending):
                            held for a cold start; its time to first token from its arrival */
    const double *think; /* a closed loop's unit exponential draws, one a request (its
                            client's think before sending it, ic->think_s times it); NULL:
                            none */
} st__serve_stream;

/* Serve stream `in` on one replica whose KV cache `mem` gives (its blocks, and how a request
 * holds them), iteration by iteration; into *o (release with st__serve_replica_release). Each
 * request's time to first token runs from its arrival at the engine. */
void st__serve_replica(st__serve_cost *cost, const st_inference_cfg *ic, const st_serve_memory *mem,
                       const st__serve_stream *in, st__serve_replica_out *o);
void st__serve_replica_release(st__serve_replica_out *o);

/* ---- a load curve and its autoscaler (serve_load.c) ---- */

/* Scale to zero: a stretch [from, to) with no replica up and a launch coming up at `to` with
 * `n` replicas; the fleet's requests there wait for it, each replica of it taking lambda / n.
 * `first`: started by the request arriving at `from` (the service's first at zero), not by a
 * decision. */
typedef struct st__serve_cold_run {
    double from, to;
    int64_t n;
    int first;
} st__serve_cold_run;

/* The replicas up over time: n[k] from t[k] to t[k + 1] (the last to the end), over the load
 * curve's span [start_s, end_s]; and its cold stretches, ascending and disjoint. */
typedef struct st__serve_fleet {
    double *t;
    int64_t *n;
    size_t len;
    double start_s, end_s;
    st__serve_cold_run *cold;
    size_t n_cold;
    double zero_s; /* seconds of the span with no replica up or starting */
} st__serve_fleet;

/* The curve's rate at t, requests per second over the service. */
double st__serve_rate_at(const st_inference_cfg *ic, double t);

/* The replicas ic's service keeps up: its autoscaler's, each replica given `target` requests
 * per second, its launches ready as `cold` says (NULL: ic's autoscale.delay after each), or
 * (no autoscaler) dp all along. At autoscale.min 0 the service's first request at zero
 * replicas, drawn from cold's stream (inference, id, "wake"), starts one at once. */
void st__serve_fleet_plan(const st_inference_cfg *ic, int64_t dp, double target,
                          const st_serve_cold *cold, st__serve_fleet *f);
void st__serve_fleet_release(st__serve_fleet *f);

/* The requests one replica up all along expects over the span: the integral of
 * lambda(t) / n(t). */
double st__serve_fleet_per_replica(const st_inference_cfg *ic, const st__serve_fleet *f);

/* The seconds of f's span within [from, to] with no replica up, less its cold stretches': none
 * up or starting (f->zero_s over the whole span). */
double st__serve_fleet_zero_s(const st__serve_fleet *f, double from, double to);

/* Replica-seconds from the start to until_s (the last count held after the span). */
double st__serve_fleet_replica_s(const st__serve_fleet *f, double until_s);

/* That replica's arrivals, ascending, drawn from rng by inverting the integrated rate piece
 * by piece, into *arrival (malloc'd), and into *weight the replicas up at each (the requests of
 * the fleet each stands for); into *ready when each reaches the engine: its arrival, or in a
 * cold stretch the stretch's end (the replica then up). None at zero replicas but in a cold
 * stretch, whose first, when a request started it, is that request. Returns how many. */
int64_t st__serve_fleet_arrivals(const st_inference_cfg *ic, const st__serve_fleet *f, st_rng *rng,
                                 double **arrival, int64_t **weight, double **ready);

/* ---- the service and its measures (serve.c), searched for a capacity (serve_capacity.c) ---- */

/* What every stream of one service shares: the replicas' cost model and cache, and the unit
 * exponential gaps of one replica's Poisson arrivals (the same draws at every rate, so that the
 * target's search compares rates on common random numbers). */
typedef struct st__serve_service {
    const st_workload_cfg *w;
    const st_cluster_cfg *c;
    double clock;    /* the GPUs' clock share under their power limit (1: none) */
    st_gpu_spec gpu; /* a replica's GPU as its kernels are timed (replica_gpu): cost's */
    st__serve_cost cost;
    st_serve_memory mem;
    int64_t dp, per_replica;   /* requests of the busiest replica: ceil(count / dp) */
    int64_t count;             /* requests of the stream measured: the workload's, or the
                                  capacity's (st__serve_replica_capacity) */
    int64_t drawn;             /* gaps and lengths drawn: per_replica, or a capped stream's
                                  ceil(count / the replicas its clients hold) if more */
    double *gaps;              /* drawn unit exponential draws */
    int64_t *len_in, *len_out; /* drawn requests' lengths, drawn once (fixed: the mean) */
    int64_t *route;            /* a trace's: each row's replica, drawn once */
} st__serve_service;

/* Service w on c's GPU type, its replicas' collectives on x (serve.c): 0, or an error located
 * at w where the KV cache cannot hold its longest request (s then needs no closing). */
int st__serve_service_open(st__serve_service *s, st_step_ctx *x, const st_workload_cfg *w,
                           const st_cluster_cfg *c, st_err *err);
void st__serve_service_close(st__serve_service *s);

/* The first n requests' arrival gaps and lengths of the workload's streams (seed, id) into s. */
void st__serve_draw_stream(st__serve_service *s, int64_t n, uint64_t seed, uint64_t id);

/* The service's figures for its s->count requests, all at once (rate 0) or at a Poisson `rate`
 * per second over its replicas. */
void st__serve_measure(st__serve_service *s, double rate, st_serve_result *out);

/* The replicas a capped stream's c clients hold (all dp without a cap). */
int64_t st__serve_capped_replicas(const st__serve_service *s, int64_t c);

/* The service's figures for N requests held to C in flight. */
void st__serve_measure_capped(st__serve_service *s, int64_t C, int64_t N, st_serve_result *out);

/* One replica's capacity within the targets into out (its max_rate_under_slo and
 * max_tokens_per_s_under_slo), and its most clients of a closed loop within them
 * (serve_capacity.c); both leave s's streams as they were. */
void st__serve_replica_capacity(const st__serve_service *s, uint64_t seed, uint64_t id,
                                st_serve_result *out);
int64_t st__serve_replica_clients(const st__serve_service *s, uint64_t seed, uint64_t id);

#endif
