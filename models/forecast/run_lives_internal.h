/* What run_lives.c's cluster run shares with the files split from it: its jobs
 * (run_lives_jobs.c), its hooks (run_lives_start.c, run_lives_rate.c, run_lives_preempt.c), what
 * it gives back (run_lives_record.c) and its energy (run_lives_energy.c). Internal to
 * models/forecast. */
#ifndef ST_MODELS_FORECAST_RUN_LIVES_INTERNAL_H
#define ST_MODELS_FORECAST_RUN_LIVES_INTERNAL_H

#include "models/forecast/nbr_flows.h"
#include "models/forecast/rack_jobs.h"
#include "models/forecast/run_internal.h"
#include "models/forecast/shape_memo.h"
#include "models/forecast/trace_rate.h"
#include "models/sched/cluster.h"

/* What the cluster run's hooks need: each training job's place and ingest stream are made when
 * it starts, and its life once every job starting at that instant holds its GPUs, against the
 * ingest of every training job holding GPUs then. */
typedef struct st__lives_ctx {
    const st_run_spec *sp;
    st_run *out;
    const st_topo *t;
    st_step_ctx *step;        /* the first pool's context: the trace jobs' */
    const st__pool_steps *ps; /* each pool's context, its packed patterns remembered */
    const size_t *workload;   /* cluster job -> workload */
    size_t n_train;
    size_t n_trace;   /* the trace's jobs, after the training ones; then the services */
    st_placement *at; /* by cluster job, while it runs */
    st_io *io;
    int *has, *holding;
    int64_t **hosts;
    st_io *bg;
    /* The running jobs' cross-leaf flows (the rate hook's neighbours), rebuilt at the first
     * rate asked after a training job starts or stops (nbr_dirty). */
    st__nbr_flows nbr;
    int nbr_dirty;
    /* By training job: the neighbours' flows and its step when its rate was last worked out,
     * and that rate, so that a job whose neighbourhood did not change is not re-simulated at
     * every start and stop elsewhere (known 0 until then, and again when it starts anew). */
    struct st__rated {
        int64_t *bg;
        size_t n;
        double step, rate;
        int known;
    } * rated;
    /* Resumes re-timed (st__lives_retime_at): each training job's step at its first placement and
     * where it runs now, and its steps by placement shape (owner: its workload). */
    double *step0, *step_now;
    st__shape_memo memo;
    int64_t *key;
    size_t key_cap;
    /* GPU ids in a pool's view's numbering (st__lives_view_ids), where the pools' nodes are of
     * several sizes: a job's own and its neighbours' flows */
    int64_t *vid, *vbg;
    size_t vid_cap, vbg_cap;
    /* a job's ranks in its view's ids, its pace pool's leading (st__lives_view_ranks) */
    int64_t *vrank;
    size_t vrank_cap;
    /* Trace jobs mapped to a step model (trace.models): their slowdown at their first start,
     * and the GPUs of each running one (by cluster job; borrowed from the run). */
    st_trace_rate tr;
    double *slow0;
    const int64_t **tgpus;
    unsigned char *part; /* by cluster job: a service's replica stretch (st_cluster_spec.part) */
    int32_t *after;      /* by cluster job: a stretch's service base job (st_cluster_spec.after) */
    unsigned char *serving; /* by cluster job: a service's job holding its GPUs now */
    const int64_t **span;   /* by cluster job: a job across pools' GPUs in each (cluster.h) */
    size_t n_jobs;
    st__rack_jobs rj; /* by training job: the racks of its plant entry, for its neighbourhood */
} st__lives_ctx;

/* The cluster run's energy (cluster_energy.h): every job that ran, trace jobs included, at the
 * power of what it runs, every idle GPU, the nodes' base power and the facility around them;
 * pool: each cluster job's pool (NULL on a cluster of one type). */
void st__lives_energy(const st_run_spec *sp, st_run *out, const st__lives_ctx *x,
                      const st_cluster_job *jobs, const int32_t *pool);

/* ---- The cluster run's jobs (run_lives_jobs.c) --------------------------------------------- */

/* The run's tenant names for the scheduler: the trace's, numbered as the trace numbers them,
 * then each training workload's `tenant` not among them (*n of them; free the array only). */
const char **st__lives_tenant_names(const st_run_spec *sp, size_t *n);

/* The stretches of the services' replicas, all together: each a cluster job of its own. */
size_t st__lives_service_ups(const st_run_spec *sp, const st_run *out);

/* The cluster run's jobs (malloc'd; *n of them, the first *n_train training jobs), each one's
 * workload into workload, its tenant's index in tn[0 .. ntn); out's cluster_job and services'
 * first_up set. */
st_cluster_job *st__lives_cluster_jobs(const st_run_spec *sp, st_run *out, size_t *workload,
                                       size_t *n_train, size_t *n, const char **tn, size_t ntn,
                                       const st_trace_rate *tr);

/* Which of the nj cluster jobs are a service's replica stretches, or NULL when none is. */
unsigned char *st__lives_service_parts(const st_run_spec *sp, const st_run *out, size_t nj);

/* Each cluster job's after-job (st_cluster_spec.after), or NULL when no service has stretches. */
int32_t *st__lives_service_after(const st_run_spec *sp, const st_run *out, size_t nj);

/* Each cluster job's GPUs by pool when it is a training job across pools (cluster.h's span;
 * malloc'd), or NULL when none is. */
const int64_t **st__lives_job_spans(const st_run_spec *sp, const size_t *workload, size_t n_train,
                                    size_t nj);

/* ---- The cluster run's hooks (ctx: an st__lives_ctx) --------------------------------------- */

/* run_lives_start.c: the start hook (a training job's place and ingest stream, a service's
 * first GPUs), the stop hook, and the duration hook (a training job's whole life where it was
 * placed; a mapped trace job's recorded duration stretched by its placement's slowdown). */
void st__lives_job_started(void *ctx, size_t i, const int64_t *gpus, double now_s);
void st__lives_job_stopped(void *ctx, size_t i, double now_s);
int st__lives_life_at(void *ctx, size_t i, double now_s, double *duration_s, st_err *err);

/* run_lives_rate.c: a resumed job's run time where it resumes over its first placement's
 * (*scale), and training job i's rate beside the cross-leaf traffic of the jobs running now. */
int st__lives_retime_at(void *ctx, size_t i, const int64_t *gpus, double now_s, double *scale,
                        st_err *err);
double st__lives_rate_at(void *ctx, size_t i, double now_s);

/* run_lives_preempt.c: what a preemption costs job i (its save and restore), and the progress
 * training job i's last restorable checkpoint holds after progress_s of its life. */
void st__lives_preempt_cost(void *ctx, size_t i, double *save_s, double *restore_s);
double st__lives_restorable(void *ctx, size_t i, double progress_s);

/* ---- A training job's step context and GPUs (run_lives_start.c) ---------------------------- */

/* Training job i's pool's step context (a job across pools: its pacing pool's). */
st_step_ctx *st__lives_step_of(const st__lives_ctx *x, size_t i);

/* gpus[0 .. n) in the numbering of training job i's step context, its pool's view: gpus itself
 * where the pools share one node size, else into *buf (grown to *cap). */
const int64_t *st__lives_view_ids(const st__lives_ctx *x, size_t i, const int64_t *gpus, size_t n,
                                  int64_t **buf, size_t *cap);

/* Training job i's ranks on the cluster's gpus[0 .. n) in its step context's ids: rank r on
 * view id [r], into x's buffer (or gpus's ids as st__lives_view_ids gives them). A job across
 * pools of several node sizes has them rotated so that its pace pool's share leads: the step
 * model times a replica's tensor-, context- and pipeline-parallel collectives on the first
 * replica's GPUs, which must be a pace replica, since another pool's replica has the pace
 * pool's node there, not its own (a GB200 tensor-parallel group of 8 on two trays of one NVL72
 * domain would cross the view's NICs). Its shares are runs of whole replicas in pool order
 * (models/sched/cluster_pools.c), so the rotation keeps each replica whole and the
 * data-parallel rings' hops. */
const int64_t *st__lives_view_ranks(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n);

/* st_step_ctx_place of training job i on the cluster's GPUs gpus[0 .. n). */
int st__lives_place_on(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n);

/* The shape of job i's GPUs into x->key (shape_memo.h); returns its length. */
size_t st__lives_shape_of(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n);

/* ---- What the run gives back (run_lives_record.c) ------------------------------------------ */

/* Each training job's start, wait and end from the cluster run, and each service's record;
 * under `scope: cluster` a training job's life takes the run's failures. */
void st__lives_record_starts(const st_run_spec *sp, st_run *out);

#endif
