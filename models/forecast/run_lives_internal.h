/* What run_lives.c's cluster run shares with the file its energy is split into
 * (run_lives_energy.c). Internal to models/forecast. */
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
    /* Resumes re-timed (retime_at): each training job's step at its first placement and where
     * it runs now, and its steps by placement shape (owner: its workload). */
    double *step0, *step_now;
    st__shape_memo memo;
    int64_t *key;
    size_t key_cap;
    /* GPU ids in a pool's view's numbering (view_ids), where the pools' nodes are of several
     * sizes: a job's own and its neighbours' flows */
    int64_t *vid, *vbg;
    size_t vid_cap, vbg_cap;
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

#endif
