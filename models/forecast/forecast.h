/* The forecast for one workload on its cluster: what every report writer reads. It holds the
 * memory model's answer and the step model's (step time, MFU, breakdown); the lifetime models
 * add their results here. */
#ifndef ST_MODELS_FORECAST_FORECAST_H
#define ST_MODELS_FORECAST_FORECAST_H

#include "models/config/config.h"
#include "models/cost/cost.h"
#include "models/fabric/topo.h"
#include "models/forecast/band.h"
#include "models/forecast/ckpt_levels.h"
#include "models/place/placement.h"
#include "models/plant/plant.h"
#include "models/reliability/lifetime.h"
#include "models/silicon/parallel.h"
#include "models/step/step.h"
#include "models/storage/storage.h"

typedef struct st_forecast {
    const st_workload_cfg *w; /* borrowed from the scenario */
    int64_t microbatch;       /* resolved: the plan's, or the pick for `auto` */
    st_memory mem;
    int has_step; /* the step model ran: step is filled */
    /* The pool whose GPU type its figures are of (models/config/pools.h): its pool, or for a job
     * across pools the slowest of its pools, which paces every rank (set by the run, run.c) */
    int pace_pool;
    /* A job across pools: the step of its plan on each pool's type alone, on the packed
     * placement (by pool; 0 where it has no GPUs or does not fit; owned), whose largest
     * is its pace; NULL for a job in one pool. */
    double *pool_step_s;
    /* The workload the step model runs for it, when that is not w: a job across pools whose
     * plan splits its batch unevenly (pool_batch) runs its pacing pool's replicas' share
     * (st_workload_cfg.split_batch; owned). NULL: w. */
    st_workload_cfg *step_w;
    /* ... and each pool's share of its batch, sequences a step (by pool; owned): as the plan
     * states them, or as `pool_batch: balanced` found them. NULL: an even split. */
    int64_t *pool_batch;
    st_step_result step;
    /* The share of the full clock the step ran at: 1, or below when the plant's thermal model
     * throttles the placed job (st_forecast_throttle); step is then the throttled step. */
    double clock;
    /* Where and when the cluster run started it (run.c, models/sched/cluster.h): w->gpus GPU ids
     * in rank order at its first start (owned; NULL when it never started), its first start,
     * its wait (start_s - submit), and its end (has_end: it finished by the horizon). */
    int64_t *gpus;
    double start_s, wait_s, end_s;
    int has_end;
    int64_t preemptions;
    double preempted_s; /* what its preemptions cost: checkpoint saves and restores (cluster.h) */
    /* Failures the cluster run drew on its GPUs (failures `scope: cluster`): interruptions and
     * the run time they threw away (cluster.h). */
    int64_t interruptions;
    double lost_work_s;
    /* The lowest share of its run time it did per second while its neighbours' traffic shared
     * its links (cluster.h's rate; 1: never slowed). */
    double slowest_rate;
    /* The whole life (st_forecast_life): ingest, checkpoints, failures. */
    int has_life;
    st_ingest ingest;
    double eff_step_s; /* the step with the ingest's slowdown */
    int64_t steps;     /* steps to run: the workload's, or its tokens over a step's tokens */
    int has_ckpt;
    st_ckpt_cost ckpt;
    st_ckpt_plan levels;     /* the persistent save's whole cost, the in-memory level, the failures
                                each restores (models/forecast/ckpt_levels.h) */
    double interval_s;       /* training seconds between checkpoints; 0 = none */
    int auto_rule;           /* st_auto_rule that set it under `every: auto` (interval_s > 0) */
    st_ckpt_load load;       /* the cadence's steady write load on the checkpoint tier; all zero
                                when no checkpoint is taken (interval 0 or over the work) */
    double young_interval_s; /* Young's first-order optimum for the persistent save's whole
                                cost against the failures it alone restores, for comparison
                                (0: none such) */
    double daly_interval_s;  /* Daly's optimum for the same, whatever the plan uses (0: none) */
    double job_mtbf_s;       /* the job's mean time between interruptions (inf: none) */
    st_life_class *classes;  /* the failure classes the job is exposed to (owned) */
    double *mem_loss;        /* [n_classes]: a failure's chance of losing the in-memory copy
                                (owned) */
    int n_classes;
    /* [n_classes], with failures.spares: the nodes a failure of each class takes out, and for
     * how long (st_life_spec.take, repair_s; owned). */
    int64_t *spare_take;
    double *spare_repair;
    int has_spares; /* failures.spares under scope: job: the life counted spare_wait_s */
    int64_t spares;
    st_life_result life;     /* replica 0 under the run's seed */
    st_life_summary summary; /* replicas >= 1; replicas 0: none made */
    /* Its TCO under the scenario's `cost:` (models/cost/cost.h): the run's forecast_cost. */
    int has_cost;
    st_cost_result cost;
    /* The step model's error band (models/forecast/band.h), when the step ran: the step time's
     * multipliers at ST_BAND_LEVEL from the published runs like the job; and, when its life
     * ran, the wall time's band with the replicas' spread combined (0, 0 otherwise). */
    int has_band;
    st_band_key band_key;
    st_band band;
    double wall_band[2];
    /* ... and its cost's band: the cost model's price of the job held (and its energy drawn)
     * for each end of wall_band, when the run priced it (0, 0 otherwise). */
    double cost_band[2];
} st_forecast;

/* Forecast workload w on cluster c into *out: memory, then one simulated step on x (a step
 * context for c; NULL skips the step model, and so does a plan that does not fit). With
 * `microbatch: auto`, every micro-batch size that divides the per-replica batch and fits in memory
 * is simulated and the fastest kept (with no step context: the largest that fits), or 1 when none
 * fits. trace, when not NULL, receives the chosen step's pipeline. Returns 0, or the step model's
 * error. */
int st_forecast_job(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                    st_forecast *out, st_pipe_trace *trace, st_err *err);

/* The thermal throttle of training job f[target] as it starts (f[target].gpus set) beside the
 * jobs of the workloads running[0 .. n_running) (ascending indices into f, f[i].w NULL for any
 * other kind; target among them) and the n_steady steady ones (inference services,
 * st_plant_job.steady) on cluster c: its clock from the plant's thermal model
 * (models/plant/thermal.h), with every rack's heat from the running jobs at their own clocks,
 * and when held below full clock its step rerun at that clock (st_step_run_at on x, a step
 * context for c placed where the job is, same micro-batch), so its step time and life grow. The
 * list, not a mask over every workload, so that a start costs its neighbourhood, not the
 * cluster's workloads. Sets f[target].clock (1: full); no-op but that when the GPU states no
 * power limit. Returns 0 or the step model's error. */
int st_forecast_throttle(st_step_ctx *x, const st_cluster_cfg *c, st_forecast *f,
                         const size_t *running, size_t n_running, const st_plant_job *steady,
                         size_t n_steady, size_t target, st_err *err);

/* The job's whole life after its step forecast f (no-op when f has no step), placed at `at`:
 * data ingest and checkpoint costs from the storage model (models/storage/storage.h), the
 * interval (a time, a step count, or `auto`: st_ckpt_auto_interval of Daly's optimum for the
 * job's own failure rate and checkpoint stall, its commit time and its step), the cadence's
 * write load on the tier, the failure classes of `fail` (NULL: none) mapped to the components the
 * placement occupies, and the fluid life run (replica 0, plus `replicas` of them summarised
 * when replicas >= 1) under seed. bg (NULL: none) are the other jobs' ingest streams, present
 * whenever storage is measured. Returns 0 or the storage or lifetime model's error. f must be
 * released with st_forecast_release afterwards, also after an error. */
int st_forecast_life(st_forecast *f, const st_placement *at, const st_failures_cfg *fail,
                     uint64_t seed, int64_t replicas, const st_io_set *bg, st_err *err);

/* The job's nodes at `at` a failure of `component` takes out until repaired, with
 * failures.spares: a GPU's, node's or NIC's node, a rack's nodes of the job (its nodes over its
 * racks, rounded up); a switch takes none (its traffic reroutes, or the switch is swapped within
 * the restart). The life run and the sizing search's closed form both read it. */
int64_t st_forecast_spare_take(const st_placement *at, const char *component);

/* Training job f (its GPUs placed, f->gpus) as the plant draws it, with id, into out: one
 * st_plant_job, or for a job across pools one per run of its GPUs in one pool, each drawn at its
 * own type's power over the job's step (models/forecast/span.c). out holds c's pool count (at
 * least 1). Returns how many. */
size_t st_forecast_plant_jobs(const st_cluster_cfg *c, const st_forecast *f, size_t id,
                              st_plant_job *out);

/* The plant's job powers p[0 .. n) with a job's parts (adjacent entries of one id, from
 * st_forecast_plant_jobs) summed into one entry: powers and energies added, the hottest
 * junction and the lowest clock. Returns the entries left. */
size_t st_forecast_plant_merge(st_plant_job_power *p, size_t n);

/* The workload f's step is run for: its own, or its pacing pool's share of an uneven split. */
static inline const st_workload_cfg *st_forecast_step_w(const st_forecast *f)
{
    return f->step_w ? f->step_w : f->w;
}

/* Free what st_forecast_life allocated in f; safe on a zeroed or NULL forecast. */
void st_forecast_release(st_forecast *f);

#endif
