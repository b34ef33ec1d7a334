/* The scheduler-policy interface (STYLE.md's policy table): a policy decides when each job
 * starts and, through a placement policy (models/place/policy.h), where. A new policy is one
 * file defining a const st_sched_policy and one line in registry.c's list. */
#ifndef ST_MODELS_SCHED_POLICY_H
#define ST_MODELS_SCHED_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

#define ST_SCHED_ABI 1

/* A job as the scheduler sees it: its index among the scenario's workloads and its config. */
typedef struct st_sched_job {
    size_t id;
    const st_workload_cfg *w;
} st_sched_job;

/* When and where a job starts. */
typedef struct st_sched_start {
    double start_s; /* seconds from the run's start */
    int64_t *gpus;  /* w->gpus GPU ids in rank order, filled by the policy (the caller owns it) */
} st_sched_start;

/* A scheduler policy. Fields are append-only (abi); every hook is required (a missing one is a
 * bug at first use). The core allocates state_size zeroed bytes per run. configure sets the
 * policy up for cluster c under the scenario's scheduler section cfg and returns 0 or an
 * error; release frees what configure took. submit is called once per job in workload order
 * and fills *out, or returns ST_ERANGE (no message) when the job can never be placed.
 * Deterministic: ties break on the lowest job id. */
typedef struct st_sched_policy {
    unsigned abi;
    const char *name; /* the value of `scheduler.policy:` */
    size_t state_size;
    int (*configure)(void *st, const st_sched_cfg *cfg, const st_cluster_cfg *c, st_err *err);
    void (*release)(void *st);
    int (*submit)(void *st, const st_sched_job *job, st_sched_start *out);
} st_sched_policy;

/* The registered policies' names, NULL-terminated, in registry order. */
extern const char *const st_sched_policy_names[];

/* The policy registered as `name`, or NULL. */
const st_sched_policy *st_sched_policy_find(const char *name);

/* One run's instance of a policy. */
typedef struct st_scheduler {
    const st_sched_policy *policy;
    void *state;
} st_scheduler;

/* Configure an instance of the policy cfg names ("fifo" when cfg is NULL) for cluster c.
 * Returns 0, or the policy's error (ST_EINVAL located at cfg->policy_loc for an unknown name,
 * which the loader already refuses). st_scheduler_release frees it, also after an error. */
int st_scheduler_init(st_scheduler *s, const st_sched_cfg *cfg, const st_cluster_cfg *c,
                      st_err *err);
void st_scheduler_release(st_scheduler *s);

/* Submit one job to the instance: the policy's submit hook. */
int st_scheduler_submit(st_scheduler *s, const st_sched_job *job, st_sched_start *out);

#endif
