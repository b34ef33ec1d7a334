/* The cluster run: many jobs over time on one cluster, as a fluid, event-driven model on the
 * engine (sim/engine.h). Jobs arrive at their submit time, wait, are started all or nothing on
 * GPUs the placement policy chooses, run for their run time (a training job: its life at its
 * placement, asked of a hook when it first starts; a trace job: its recorded duration, or the
 * hook's), may be preempted and resumed with the work they had done (re-timed where they resume
 * by the retime hook), and finish, releasing their GPUs. The
 * scheduler policy (policy.h) decides who starts, after every arrival and finish. */
#ifndef ST_MODELS_SCHED_CLUSTER_H
#define ST_MODELS_SCHED_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

/* One job. estimate_s is what the policies that trust users read (EASY backfill): for a
 * training workload, its forecast work (steps x simulated step time, no failures); for a trace
 * job, its recorded duration. */
typedef struct st_cluster_job {
    double submit_s;
    double duration_s; /* run time once started; < 0: the duration hook gives it at first start */
    double estimate_s;
    int64_t gpus;
    int64_t priority;
    int32_t tenant; /* -1: none */
} st_cluster_job;

/* Hooks into the model that owns the jobs (each optional unless said). start: job started at
 * now_s on gpus[0..jobs[job].gpus) (borrowed, valid while it runs); stop: it released its GPUs
 * (finished, or preempted and its save done). duration (required when some job's duration_s < 0):
 * its run time, asked once, at its first start, after every job starting at that instant has been
 * started, so that it can see them all; 0 and *duration_s, or an error (which stops the run). */
typedef void (*st_cluster_start_fn)(void *ctx, size_t job, const int64_t *gpus, double now_s);
typedef void (*st_cluster_stop_fn)(void *ctx, size_t job, double now_s);
typedef int (*st_cluster_duration_fn)(void *ctx, size_t job, double now_s, double *duration_s,
                                      st_err *err);
/* preempt_cost (optional; NULL: preemption is free): what preempting job i now costs, asked as it
 * is preempted. *save_s: how long it keeps its GPUs after its work stops, writing its checkpoint
 * (it can start again only once they are released); *restore_s: how long it needs on its GPUs
 * when it resumes, reading it back, before its work goes on (added to its remaining time). Both
 * >= 0 (a negative or NaN figure counts as 0). */
typedef void (*st_cluster_preempt_cost_fn)(void *ctx, size_t job, double *save_s,
                                           double *restore_s);
/* restorable (optional; NULL: no job checkpoints): after progress_s seconds of job i's run time
 * (its restores and restarts excluded), the progress its last restorable checkpoint holds, in
 * [0, progress_s]; a failure rolls the job back there (docs/models/scheduler.md). */
typedef double (*st_cluster_restorable_fn)(void *ctx, size_t job, double progress_s);

/* rate (optional; NULL: every job runs at rate 1): the share of its run time job i does per
 * second now, in (0, 1] (its step alone over its step now: a neighbour's traffic on the links it
 * crosses slows it), asked for every running job once per instant after starts and stops
 * (cluster.rate), and the job's finish moved to match. A figure outside (0, 1] counts as 1. */
typedef double (*st_cluster_rate_fn)(void *ctx, size_t job, double now_s);

/* retime (optional; NULL: a resumed job keeps its first placement's run time): job i, started
 * before (its run time known) and now resumed on gpus[0..jobs[i].gpus), after a preemption or a
 * failure. *scale: its run time on these GPUs over its run time on the GPUs of its first start
 * (> 0; 1: the same). Its run time, the work it has done and the progress its last checkpoint
 * holds are all rescaled by the change, so the share of its work done is kept. 0, or an error
 * (which stops the run). */
typedef int (*st_cluster_retime_fn)(void *ctx, size_t job, const int64_t *gpus, double now_s,
                                    double *scale, st_err *err);

struct st_outage_spec; /* models/sched/outage.h */

typedef struct st_cluster_spec {
    const st_cluster_cfg *c;
    const st_sched_cfg *sched; /* NULL: defaults */
    const char *policy;        /* overrides sched->policy when not NULL; neither: "fifo" */
    const char *placement;     /* overrides sched->placement when not NULL; neither: "pack" */
    const st_cluster_job *jobs;
    size_t n;
    double horizon_s; /* stop there (jobs still running or waiting are unfinished); 0: none */
    uint64_t seed;
    st_cluster_start_fn start;
    st_cluster_stop_fn stop;
    st_cluster_duration_fn duration;
    st_cluster_preempt_cost_fn preempt_cost;
    void *ctx;
    int keep_segments; /* record every stretch a job ran, with its GPUs */
    size_t keep_first; /* without keep_segments, record those of jobs[0 .. keep_first) alone */
    /* Component failures and repairs (NULL or no class: none). A failure takes its component's
     * GPUs out of the pool until repaired and interrupts every job running on them: it loses
     * the work since its last restorable checkpoint (restorable), holds its GPUs for detect_s,
     * rejoins the policy's queue (on_finish, then on_arrival) and, when placed again, pays
     * restart_s and its restore (preempt_cost's restore) first. */
    const struct st_outage_spec *outages;
    st_cluster_restorable_fn restorable;
    st_cluster_rate_fn rate;
    st_cluster_retime_fn retime;
    const char *const *tenants; /* the names st_cluster_job.tenant indexes (n_tenants) */
    size_t n_tenants;
    int64_t max_failures; /* the most failure draws a run may make; 0: ST_OUTAGE_MAX_FAILURES */
    /* On a cluster of several pools (c->n_pools > 1), each job's pool in c->pools
     * (models/config/pools.h): it is placed on that pool's nodes alone, and one asking for more
     * GPUs than its pool has is never submitted. NULL: every job in the first pool. */
    const int32_t *pool;
    /* Each job's GPUs in each pool, span[i] (c->n_pools entries, 0: none there), for a training
     * job across pools (docs/models/pools.md, "A job across pools"): it queues in its pool's
     * partition (pool[i]) as a job of its GPUs there, and starts only when every pool it spans
     * has room for its share at once, taking each share from its pool's placer. NULL, or span[i]
     * NULL: the job is in one pool. */
    const int64_t *const *span;
    /* Each job's part[i] 1 when it is a part of another job (a service's replica while its
     * autoscaler keeps it up, models/forecast/run_serve.c), scheduled as a job of its own, whose
     * GPU time counts in the utilisation, goodput and makespan, but which is not counted in the
     * jobs, the finished ones, nor their waits, times queued and completion times. NULL: none. */
    const unsigned char *part;
    /* Each job's after[i]: the job that must have started before job i may (a service's replica
     * stretch waits for the service's first start), or -1. A job so held keeps its submit time,
     * from which its wait counts, but enters the policy's queue only when that job first
     * starts, and never if it never does. NULL: none. */
    const int32_t *after;
} st_cluster_spec;

/* What became of one job. */
typedef enum st_cluster_state {
    ST_CJ_FINISHED,
    ST_CJ_RUNNING, /* still running at the horizon */
    ST_CJ_WAITING, /* never started by the horizon (or not yet submitted) */
    ST_CJ_TOO_BIG  /* more GPUs than the cluster has: never submitted */
} st_cluster_state;

typedef struct st_cluster_job_out {
    st_cluster_state state;
    double start_s, end_s; /* first start; finish (FINISHED only) */
    double wait_s;         /* first start - submit (started jobs): its time to first start */
    /* Its whole time in the queue (started jobs): wait_s, plus every stretch from giving its GPUs
     * back after a preemption's save or a failure's detection until it started again. */
    double queued_s;
    double duration_s; /* run time (started jobs) */
    int64_t preemptions;
    double preempted_s; /* what its preemptions cost: every save, and every restore once resumed */
    int64_t interruptions; /* failures that hit it while it ran (outages) */
    double lost_work_s;    /* run time thrown away by them: progress past its last checkpoint */
    int64_t rate_changes;  /* times its rate changed (the spec's rate hook) */
    double slowest_rate;   /* the lowest rate it ran at (1 when it never changed) */
    double held_s;         /* seconds it held GPUs, over all its stretches (saves and holds too) */
    double failed_s;       /* what failures cost it: lost work, detection holds, and restarts and
                              restores once resumed */
    int part; /* 1: a part of another job (st_cluster_spec.part): not in the jobs or their waits */
} st_cluster_job_out;

/* One stretch a job held one set of GPUs: seg_gpus[gpu_at .. gpu_at + n), from its start (a
 * restore first, when it resumes) until it released them (after its save, when preempted). A
 * stretch cut by the horizon ends there. */
typedef struct st_cluster_seg {
    size_t job;
    double start_s, end_s;
    size_t gpu_at;
    int64_t n;
} st_cluster_seg;

/* The run's figures, over the finished jobs (wait: first start - submit; queued: the job's whole
 * time in the queue, re-queues after preemptions and failures included; JCT: end - submit).
 * makespan_s: the last finish (the horizon when a job is unfinished); utilization: GPU-seconds
 * held over total GPUs x makespan. */
typedef struct st_cluster_stats {
    size_t jobs, finished, unfinished, too_big;
    double mean_wait_s, p50_wait_s, p95_wait_s, p99_wait_s;
    double mean_jct_s, p50_jct_s, p95_jct_s, p99_jct_s;
    double mean_queued_s, p95_queued_s; /* the wait figures when no job was ever re-queued */
    double makespan_s, utilization;
    int64_t preemptions;
    double preempted_s;    /* summed over every job */
    int outages;           /* the run drew failures (sp->outages had a class) */
    int64_t failures;      /* component failures drawn (outages), those that hit no job too */
    int64_t interruptions; /* job interruptions they caused, summed */
    double lost_work_s;    /* summed over every job */
    uint64_t events;
    int64_t free_at_end; /* free GPUs once the run is over: all of them unless some still run */
    /* fragmented_gpus: free GPUs no waiting job can use (fewer than the smallest one asks
     * for, while some job waits), time-averaged over the makespan; goodput: the GPU-seconds
     * held less those spent on preemptions' saves and restores and on failures (lost work,
     * detection, restarts and restores: failed_s), over total GPUs x makespan */
    double fragmented_gpus, goodput;
} st_cluster_stats;

/* One failed component's time out of the pool (keep_segments): GPUs [first, first + n) from
 * start_s until repaired at end_s (which may lie past the run's end). */
typedef struct st_cluster_outage {
    int64_t first, n;
    double start_s, end_s;
    int cls; /* its class in the spec's outages */
} st_cluster_outage;

/* One pool's share of the figures on a cluster of several pools (docs/models/pools.md): its
 * jobs submitted (too big for it left out) and finished, their mean wait to first start, and
 * its GPU-seconds held over its GPUs x the run's makespan. */
typedef struct st_cluster_pool_stats {
    size_t jobs, finished;
    double mean_wait_s, utilization;
} st_cluster_pool_stats;

typedef struct st_cluster_result {
    const char *policy, *placement; /* the names that ran (static strings) */
    st_cluster_job_out *job;        /* n */
    size_t n;
    st_cluster_seg *seg; /* the stretches recorded (keep_segments, keep_first) */
    size_t n_seg;
    int64_t *seg_gpus;
    st_cluster_outage *outage; /* with keep_segments and outages, in failure order */
    size_t n_outage;
    st_cluster_stats st;
    st_cluster_pool_stats *pool; /* n_pool: each pool's, on a cluster of several; NULL else */
    int n_pool;
} st_cluster_result;

/* Run the jobs of sp on its cluster under its policy into *out (zeroed first). Returns 0, or
 * ST_EINVAL for an unknown policy or placement name (located at the scheduler section), or the
 * duration hook's error, or ST_ERANGE located at a failure class's mtbf when its expected
 * failures over the horizon (without one: the last submit plus every job's estimate) pass
 * max_failures, or when the run draws more failures than that. out must be released with
 * st_cluster_result_release either way. */
int st_cluster_run(const st_cluster_spec *sp, st_cluster_result *out, st_err *err);

void st_cluster_result_release(st_cluster_result *r);

#endif
