/* What run.c shares with the files split from it (run_lives.c, run_cost.c, run_serve.c). Internal
 * to models/forecast. */
#ifndef ST_MODELS_FORECAST_RUN_INTERNAL_H
#define ST_MODELS_FORECAST_RUN_INTERNAL_H

#include <stddef.h>

#include "models/forecast/run.h"
#include "models/step/step.h"

/* The cluster as each pool sees it (models/config/pools.h) and a step context per pool that runs
 * a training job, made when its first job needs it: a job's memory, step, MFU and power are its
 * own GPU type's. A cluster of one type is its one pool, seen as it is (sp->c). */
typedef struct st__pool_steps {
    int n;
    st_cluster_cfg *view; /* n; NULL for a cluster of one type */
    st_step_ctx **step;   /* n */
    /* By workload: the pool whose view its figures are of: its pool, or for a training job
     * across pools (st_workload_cfg.pool_gpus) the one whose type paces its step, the slowest,
     * set where its step is forecast and again where it is placed. */
    int *pace;
} st__pool_steps;

/* The cluster as workload w (an entry of sp->w) sees it: its pool's view, or the pacing pool's
 * for a job across pools. */
const st_cluster_cfg *st__run_view_of(const st_run_spec *sp, const st__pool_steps *ps,
                                      const st_workload_cfg *w);

/* The cluster run of the training jobs with a step, the trace's jobs and the services, with
 * each training job's life forecast where and when it starts; its starts, the services' records
 * and its energy into out (run_lives.c). 0 without a job to run. */
int st__run_lives(const st_run_spec *sp, st_run *out, const st__pool_steps *ps, st_err *err);

/* Under `scope: cluster`, the cluster run's figures for workload i (its life is failure-free:
 * what failures cost it is there); NULL otherwise, or when it never reached the cluster run. */
const st_cluster_job_out *st__run_cluster_failures(const st_run_spec *sp, const st_run *out,
                                                   size_t i);

/* The seconds job i held its GPUs: its life, or under `scope: cluster` the cluster run's held
 * span when longer (failures' lost work, detection, restarts and restores, preemptions' saves). */
double st__run_held_s(const st_run_spec *sp, const st_run *out, size_t i);

/* Every finished life's TCO under the scenario's prices (models/cost/cost.h) into out (f[].cost,
 * cost_total_usd). On-premises needs the plant's energy: without a power model a job's
 * on-premises cost is not stated. */
void st__run_cost(const st_run_spec *sp, st_run *out);
/* The inference services' cost per million tokens where the scenario prices GPU-hours
 * (run_cost.c). */
void st__run_serve_cost(const st_run_spec *sp, st_run *out);

/* Service v's stretches of replicas under its autoscaler (v->base, v->ups, v->n_ups) from its
 * result (run_serve.c). */
void st__run_service_ups(st_run_serve *v);

/* Stretch j of service v as a cluster job: asked for its autoscaler's delay before it serves (at
 * once at the curve's start), held until the replica stops or, up at the curve's end, until the
 * service's span ends; seconds after the service's submission, and its duration. */
void st__run_up_job(const st_run_serve *v, size_t j, double *submit_s, double *duration_s);

/* Service v's start, wait, end and preemptions from its cluster job o and its stretches' ups
 * (v->n_ups of them; NULL with none), and the requests the waits made miss their target, out of
 * its slo_attainment (run_serve.c). */
void st__run_record_service(st_run_serve *v, const st_cluster_job_out *o,
                            const st_cluster_job_out *ups);

/* After the cluster run: service v's GPUs for the plant, each replica's first ones moved to the
 * front of v->gpus; returns how many (0: it never ran). The plant draws every replica that ran
 * at once, each at its replicas' mean iteration: the fleet at its peak, as it draws every
 * training job at its peak (docs/models/inference.md, "Sharing the cluster"). */
int64_t st__run_service_placed(st_run_serve *v);
/* The services with a latency target together (st_run.serving). */
void st__run_serving_totals(st_run *out);

#endif
