/* The forecast of a whole scenario: every training job's memory, step and life, and every
 * collective workload on the shared fabric, with the jobs placed by the scheduler policy and
 * the pre-flight audit over the results. What `strata run` computes; the report writers read
 * only the st_run it fills. */
#ifndef ST_MODELS_FORECAST_RUN_H
#define ST_MODELS_FORECAST_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/forecast/audit.h"
#include "models/forecast/cluster_energy.h"
#include "models/forecast/fabric_run.h"
#include "models/forecast/forecast.h"
#include "models/plant/plant.h"
#include "models/sched/cluster.h"
#include "models/serve/serve.h"
#include "models/step/pipeline.h"

/* What a run is asked; every pointer is borrowed from the scenario, which outlives the run. */
typedef struct st_run_spec {
    const st_cluster_cfg *c;
    const st_workload_cfg *w; /* n workloads, in scenario order */
    size_t n;
    const st_failures_cfg *failures; /* NULL: nothing fails */
    const st_sched_cfg *sched;       /* NULL: the default policy */
    const char *policy;              /* overrides sched->policy when not NULL (strata compare) */
    const char *placement;           /* overrides sched->placement when not NULL (likewise) */
    const st_trace_cfg *job_trace;   /* NULL: no trace jobs */
    double horizon_s;                /* the cluster run stops there; 0: when every job is done */
    const st_audit_cfg *audit;       /* NULL: the audit's default targets */
    const st_cost_cfg *cost;         /* NULL: no cost model (no `cost:` section) */
    uint64_t seed;
    int64_t replicas;      /* >= 1: job lives under that many replicas, summarised; 0: none */
    int trace;             /* keep a training job's whole step in st_run.trace: ... */
    const char *trace_job; /* ... the one of this name, or the first when NULL */
    int trace_segments;    /* also record the trace jobs' stretches in st_run.cluster.seg (the
                              training jobs' always are: the audit reads them) */
} st_run_spec;

/* An inference workload's service (models/serve/serve.h). Beside training or trace jobs it is a
 * job of the cluster run: it holds its GPUs for its serving span from when the scheduler starts
 * it. */
typedef struct st_run_serve {
    const st_workload_cfg *w; /* borrowed from the scenario; NULL for the other kinds */
    st_serve_result r;
    int has_start;          /* it went through the cluster run and started */
    double start_s, wait_s; /* when, and after how long a wait from its submission */
    int has_end;            /* it finished within the run */
    double end_s;
    int64_t preemptions;
    double missed_waiting; /* with a time-to-first-token target: requests that arrived while it
                              waited to start or to resume, longer than the target before it
                              did (models/forecast/run_serve.c, st__run_record_service) */
    int64_t *gpus;         /* the GPUs each replica first ran on (owned, w->gpus of them, those
                              of the replicas in seen); NULL without a start */
    /* Under a load curve's autoscaler, in the cluster run (run_serve.c): the replicas up all
     * along, its first cluster job, and each other replica's stretches up (st_serve_ups), a
     * cluster job each from cluster job first_up on, which take GPUs when the autoscaler adds
     * the replica and give them back when it stops it; the seconds those waited for GPUs, all
     * together. Without one: base dp, no stretches. */
    int64_t base;
    st_serve_up *ups;
    size_t n_ups;
    ptrdiff_t first_up;
    double scale_up_wait_s;
    unsigned char *seen; /* the replicas whose first GPUs are in gpus (replica k's at k x tp x
                            pp), for the plant */
    /* Its TCO over its span at the scenario's prices (run_cost.c, st__run_serve_cost), part by
     * part as a training job's, its tokens the output tokens it served; r.has_cost says whether
     * it has one, and r.cost_per_million_tokens_usd is cost.per_token_usd x 1e6. */
    st_cost_result cost;
    /* GPU-hours it held in the cluster run, each autoscaled replica's start included (what its
     * cost bills: run_cost.c held_gpu_s); r.gpu_hours counts replicas up, serving. 0 without a
     * cluster job. */
    double held_gpu_hours;
} st_run_serve;

/* The run's services with a latency target, together: the share of their requests within it
 * (each service's slo_attainment weighed by its requests), for compare's column, with the
 * training jobs' completion time beside it; and the
 * services scaled to zero (no replica up all along, so no cluster job of their own) with their
 * replicas' stretches up, which fill the cluster run's utilisation and energy but not its jobs,
 * waits and JCT. */
typedef struct st_run_serving {
    double slo_attainment;
    double requests;
    size_t zero_services, zero_stretches;
    /* The cluster run's finished jobs other than the services' (the training workloads and the
     * trace's jobs): their count and mean completion time (end - submit), so compare can set the
     * training side of a shared cluster beside the services' share within target. */
    size_t train_jobs;
    double train_mean_jct_s;
} st_run_serving;

/* Everything a run computed, indexed like the workloads: a training workload has its forecast
 * in f[i], a collective workload its result in coll[i], an inference workload its service in
 * serve[i] (the other two's w NULL). */
typedef struct st_run {
    size_t n;
    st_forecast *f;
    st_coll_result *coll;
    st_run_serve *serve;
    int has_fabric; /* some workload ran on the fabric model: fab is filled */
    st_fabric_result fab;
    int has_trace;    /* spec->trace and a training job ran: trace holds its step */
    size_t trace_job; /* which workload the trace is of */
    st_pipe_trace trace;
    int has_plant; /* some training job was placed on a GPU with a power limit: plant is filled */
    st_plant_result plant;
    int has_cluster;           /* some training or trace job went through the cluster run */
    st_cluster_result cluster; /* jobs: the training workloads with a step in workload order
                                  (cluster_job[i] is workload i's index there, or -1), then the
                                  trace's jobs */
    ptrdiff_t *cluster_job;
    int has_energy;           /* the cluster run has a makespan and the GPU a power limit */
    st_cluster_energy energy; /* the cluster run's energy, every job that ran in it */
    int has_cost;             /* some job has its cost (f[i].has_cost) */
    double cost_total_usd;    /* theirs summed: the scenario's total */
    int has_serving;          /* some service states a latency target */
    st_run_serving serving;
    st_audit *audit; /* n_audit findings, in report order */
    size_t n_audit;
} st_run;

/* Forecast the scenario spec describes into *out (zeroed first). Returns 0, or the first model
 * error with its message (located at the workload where it has one); out must be released with
 * st_run_release either way. */
int st_run_forecast(const st_run_spec *spec, st_run *out, st_err *err);

/* Free everything st_run_forecast allocated; safe on a zeroed run. */
void st_run_release(st_run *r);

#endif
