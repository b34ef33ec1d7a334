/* Placement changes a trace job's speed (trace.models): a trace job of a mapped class gets a step
 * model, the entry's model preset on a plan fitted to its GPU count, timed on the GPUs it was
 * placed on against the same job packed tight (GPUs 0, 1, ...: the fewest nodes and leaves);
 * its recorded duration is stretched by that slowdown. A recorded duration already includes the
 * placement the job had when it was recorded, which the trace does not give, so the reference is
 * the tightest placement and the slowdown is never below 1. docs/models/scheduler.md. */
#ifndef ST_MODELS_FORECAST_TRACE_RATE_H
#define ST_MODELS_FORECAST_TRACE_RATE_H

#include "models/config/config.h"
#include "models/forecast/shape_memo.h"
#include "models/step/step.h"
#include "sim/err.h"

/* One mapped (entry, GPU count) pair: its fitted plan, micro-batch and tight step. */
typedef struct st__trace_plan {
    size_t entry;
    int64_t gpus;
    st_workload_cfg w;
    int64_t microbatch;
    double tight_s;
    double gpu_w; /* one GPU's mean board power over its tight step (models/plant/gpu_power.h) */
} st__trace_plan;

typedef struct st_trace_rate {
    const st_cluster_cfg *c;
    const st_topo *topo;
    st_step_ctx *x;
    st__trace_plan *plan;
    size_t n_plans;
    int32_t *job_plan; /* per trace job: its plan, -1: unmapped (rate 1) */
    size_t n_jobs;
    st__shape_memo memo; /* slowdown by (plan, shape) */
    int64_t *key;
    size_t key_cap;
    uint64_t timed; /* step simulations run (memo misses), for tests and benchmarks */
} st_trace_rate;

/* Map trace t's jobs on cluster c (topology topo, step context x; all borrowed): each job to the
 * first trace.models entry that matches it (its class, when the entry names one; min_gpus <=
 * GPUs <= max_gpus), and each distinct (entry, GPU count) to a plan: tp = gcd(entry tp, GPUs),
 * pp = gcd(entry pp, GPUs / tp), dp = the rest, global_batch = dp x replica_batch; its tight step
 * is simulated here. Returns 0, or an error located at the entry: a plan the model's rules refuse
 * or one that does not fit in memory. x may be NULL only when t maps no job. */
int st_trace_rate_init(st_trace_rate *r, const st_trace_cfg *t, const st_cluster_cfg *c,
                       const st_topo *topo, st_step_ctx *x, st_err *err);

/* Whether trace job `job` has a step model. */
int st_trace_rate_mapped(const st_trace_rate *r, size_t job);

/* The mean board power, W, of one GPU of mapped trace job `job` over its tight step (its step's
 * phases at the plant's activity powers); -1 for a job with no step model. */
double st_trace_rate_gpu_w(const st_trace_rate *r, size_t job);

/* Mapped trace job `job` on gpus (its GPU count of them): *slowdown = max(1, its step there /
 * its tight step), memoised on (plan, shape of gpus) (shape_memo.h). Returns 0 or the step
 * model's error. */
int st_trace_rate_slowdown(st_trace_rate *r, size_t job, const int64_t *gpus, double *slowdown,
                           st_err *err);

void st_trace_rate_release(st_trace_rate *r);

#endif
