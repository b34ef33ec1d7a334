/* The scheduler-policy interface (STYLE.md's policy table): a policy decides which waiting jobs
 * start, and which running ones are preempted, each time the cluster run (cluster.h) asks it:
 * after every arrival and finish. The cluster run owns the GPUs and places a job all or nothing
 * through a placement policy (models/place/policy.h), so no policy can over-commit a GPU or
 * start part of a gang. A new policy is one file defining a const st_sched_policy and one line
 * in registry.c's list. */
#ifndef ST_MODELS_SCHED_POLICY_H
#define ST_MODELS_SCHED_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

#define ST_SCHED_ABI 2

/* A job as a policy sees it. estimate_s is the user's estimate of its run time, which EASY
 * backfilling trusts (cluster.h says what each kind of job gets); the oracle policies read the
 * true remaining time from st_sched_remaining_s instead. */
typedef struct st_sched_job {
    size_t id; /* dense, below st_sched_params.n_jobs; ties break on the lowest */
    int64_t gpus;
    double submit_s;
    double estimate_s;
    int64_t priority;
    int32_t tenant; /* an index into the run's tenant names, -1: none */
} st_sched_job;

/* The typed parameter block configure reads: the scenario's scheduler section and the run's
 * sizes. Models know no YAML. */
typedef struct st_sched_params {
    const st_sched_cfg *cfg; /* NULL: every key at its default */
    int64_t total_gpus;
    size_t n_jobs;
    uint64_t seed;
    const char *const *tenants; /* the names st_sched_job.tenant indexes */
    size_t n_tenants;
} st_sched_params;

/* The cluster run as a policy sees it during pick (opaque; cluster.c). */
typedef struct st_sched_view st_sched_view;

double st_sched_now(const st_sched_view *v);
int64_t st_sched_free_gpus(const st_sched_view *v);
int64_t st_sched_total_gpus(const st_sched_view *v);
/* The running jobs: their count, and the k-th (0 <= k < count) in no promised order. */
size_t st_sched_n_running(const st_sched_view *v);
const st_sched_job *st_sched_running(const st_sched_view *v, size_t k);
int st_sched_is_running(const st_sched_view *v, size_t id);
/* When a running job should end by its estimate: its start plus what its estimate leaves after
 * the work already done, never before now. */
double st_sched_expected_end(const st_sched_view *v, size_t id);
/* The oracle: the job's true remaining run time (for a training job not yet started, whose run
 * time is known only once it is placed, its estimate). */
double st_sched_remaining_s(const st_sched_view *v, size_t id);
/* Now on the run's integer clock (nanoseconds since its start), from which the figures here are
 * taken. */
int64_t st_sched_clock(const st_sched_view *v);
/* Running job id's end on that clock were it to run on undisturbed: 1, with *end, when its
 * remaining time (st_sched_remaining_s) is exactly (end - st_sched_clock(v)) / 1e9 s at every
 * instant until it stops, so that such jobs keep one order by remaining time as time passes (it
 * runs at rate 1: the run has no rate hook; and its run time is known); 0 otherwise. */
int st_sched_end_ticks(const st_sched_view *v, size_t id, int64_t *end);
/* 1 when every running job runs at rate 1 throughout (the run has no rate hook), so that a
 * running job's remaining time and expected end change only as it starts and stops. */
int st_sched_steady(const st_sched_view *v);
/* The work job id has done so far, in seconds of running (restores included): its executed
 * time; its attained service is this times its GPUs (Tiresias, Gu et al., NSDI'19, section 3). */
double st_sched_attained_s(const st_sched_view *v, size_t id);
/* GPUs still held by preempted jobs writing their checkpoints: free once their saves are done. */
int64_t st_sched_releasing_gpus(const st_sched_view *v);
/* Ask for a pick at time t_s (seconds, after now) besides those after arrivals and finishes:
 * for a policy whose ranking changes while jobs run (a queue threshold crossed). */
void st_sched_wake_at(st_sched_view *v, double t_s);
/* Whether the scenario lets the policy preempt (`scheduler.preemption`; unset: yes). */
int st_sched_may_preempt(const st_sched_view *v);
/* Start waiting job id now on all of its GPUs: 1 when placed and started, 0 when the placement
 * policy finds no room for all of them now, or the job, preempted, still holds its GPUs for its
 * checkpoint save (nothing changes). A resumed job first pays its restore on the new GPUs. */
int st_sched_start(st_sched_view *v, size_t id);
/* Stop running job id; it keeps the work done and waits again (the policy still holds it). Its
 * GPUs return to the pool once its checkpoint save is written (the cluster spec's preempt_cost
 * hook; at once when free), and its restore is added to its remaining time. */
void st_sched_preempt(st_sched_view *v, size_t id);

/* A scheduler policy. Fields are append-only (abi); every hook is required (a missing one is a
 * bug at first use). The core allocates state_size zeroed bytes per run. configure sets the
 * policy up and returns 0 or an error; release frees what configure took, also after an error.
 * on_arrival is called once per job when it is submitted (in submit order, then id), on_finish
 * once when it completes; pick is called after each batch of events at one instant and starts
 * (or preempts) jobs through the view. Deterministic: ties break on the lowest job id.
 * no_starvation: the policy promises that every job that fits the empty cluster eventually
 * starts (the conformance suite holds it to that). */
typedef struct st_sched_policy {
    unsigned abi;
    const char *name; /* the value of `scheduler.policy:` */
    size_t state_size;
    int no_starvation;
    int (*configure)(void *st, const st_sched_params *p, st_err *err);
    void (*release)(void *st);
    void (*on_arrival)(void *st, const st_sched_job *job);
    void (*on_finish)(void *st, const st_sched_job *job);
    void (*pick)(void *st, st_sched_view *v);
} st_sched_policy;

/* The registered policies' names, NULL-terminated, in registry order. */
extern const char *const st_sched_policy_names[];

/* The policy registered as `name`, or NULL. */
const st_sched_policy *st_sched_policy_find(const char *name);

/* The policy registered as `name` (NULL: "fifo"), checked complete (an incomplete one is an
 * ST_BUG); NULL for an unknown name. */
const st_sched_policy *st_sched_policy_get(const char *name);

#endif
