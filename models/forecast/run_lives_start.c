/* The cluster run's start, stop and duration hooks (run_lives.c): where a training job starts,
 * its place and ingest stream, its step there and its whole life against the running jobs'
 * ingest and heat; a service's first GPUs; a mapped trace job's run time at its placement. */
#include "models/forecast/run_lives_internal.h"

#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/forecast/shape_memo.h"
#include "models/forecast/trace_rate.h"
#include "sim/xalloc.h"

/* Where service cluster job i (its replicas up all along, or one stretch of one replica) first
 * runs: each replica's first GPUs, for the plant. */
static void service_started(st__lives_ctx *x, size_t i, const int64_t *gpus)
{
    size_t wi = x->workload[i];
    st_run_serve *v = &x->out->serve[wi];
    int64_t dp = st_serve_replicas(v->w), rg = st_serve_replica_gpus(v->w), first = 0,
            count = v->base;
    if (!v->gpus) {
        v->gpus = st_xmalloc((size_t)v->w->gpus * sizeof *v->gpus);
        v->seen = st_xcalloc((size_t)dp, 1);
    }
    if ((ptrdiff_t)i != x->out->cluster_job[wi]) { /* a stretch: its replica */
        first = v->ups[(ptrdiff_t)i - v->first_up].replica;
        count = 1;
    }
    for (int64_t r = 0; r < count; r++)
        if (!v->seen[first + r]) {
            v->seen[first + r] = 1;
            memcpy(v->gpus + (first + r) * rg, gpus + r * rg, (size_t)rg * sizeof *gpus);
        }
}

/* The cluster a training job's placement counts its nodes, NICs and racks on: its pool's view,
 * or, where the pools' nodes are of several sizes, the whole cluster, whose ids its GPUs carry
 * (a view numbers its GPUs at its own node size, models/config/pools.h). */
static const st_cluster_cfg *place_cfg(const st__lives_ctx *x, const st_workload_cfg *w)
{
    if (!st_pools_one_node_size(x->sp->c))
        return x->sp->c;
    return st__run_view_of(x->sp, x->ps, w);
}

/* The cluster run's start hook: a training job's place and ingest stream (at the need its step
 * sets), and its first GPUs for the report. */
void st__lives_job_started(void *ctx, size_t i, const int64_t *gpus, double now_s)
{
    (void)now_s;
    st__lives_ctx *x = ctx;
    if (i >= x->n_train + x->n_trace) { /* a service: where it first runs, for the plant */
        service_started(x, i, gpus);
        x->serving[i] = 1;
        return;
    }
    if (i >= x->n_train) {
        if (x->tgpus) /* a mapped one's run time is asked at its placement */
            x->tgpus[i] = gpus;
        return;
    }
    size_t wi = x->workload[i];
    st_forecast *f = &x->out->f[wi];
    const st_workload_cfg *w = &x->sp->w[wi];
    st_placement_release(&x->at[i]);
    st_placement_init_in(&x->at[i], x->t, st__run_view_of(x->sp, x->ps, w), place_cfg(x, w), gpus,
                         w->gpus);
    if (!f->gpus) {
        f->gpus = st_xmalloc((size_t)w->gpus * sizeof *f->gpus);
        memcpy(f->gpus, gpus, (size_t)w->gpus * sizeof *f->gpus);
    }
    st__rack_jobs_add(&x->rj, x->sp->c, i, f->gpus, w->gpus);
    double step = f->step.step_time_s;
    double need = w->data.enabled && step > 0 ? (double)w->global_batch * (double)w->seq_len /
                                                    step * w->data.bytes_per_token
                                              : 0;
    free(x->hosts[i]);
    x->hosts[i] = st_xmalloc((size_t)w->gpus * sizeof *x->hosts[i]);
    x->has[i] = st_storage_ingest_stream(&x->at[i], w, need, x->hosts[i], &x->io[i]) > 0;
    x->holding[i] = 1;
    x->nbr_dirty = 1;
    x->rated[i].known = 0; /* a new placement: its rate is worked out afresh */
}

/* Training job i's pool's step context (a job across pools: its pacing pool's, chosen where its
 * step was forecast, wherever it lands). */
st_step_ctx *st__lives_step_of(const st__lives_ctx *x, size_t i)
{
    return x->ps->step[x->ps->pace[x->workload[i]]]; /* a job across pools': its pace's */
}

/* gpus[0 .. n) in the numbering of training job i's step context, its pool's view: the
 * cluster's ids themselves where the pools share one node size, else each GPU on its own node
 * at its slot in the view (st_pools_view_gpu), into *buf (grown to *cap). */
const int64_t *st__lives_view_ids(const st__lives_ctx *x, size_t i, const int64_t *gpus, size_t n,
                                  int64_t **buf, size_t *cap)
{
    const st_cluster_cfg *c = x->sp->c;
    if (st_pools_one_node_size(c) || !n)
        return gpus;
    *buf = st_xgrow(*buf, sizeof **buf, n, cap);
    int k = x->ps->pace[x->workload[i]];
    for (size_t r = 0; r < n; r++)
        (*buf)[r] = st_pools_view_gpu(c, k, gpus[r]);
    return *buf;
}

const int64_t *st__lives_view_ranks(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n)
{
    const st_cluster_cfg *c = x->sp->c;
    const int64_t *v = st__lives_view_ids(x, i, gpus, (size_t)n, &x->vid, &x->vid_cap);
    int k = x->ps->pace[x->workload[i]];
    int64_t lead = 0;
    if (st_pools_one_node_size(c) || !x->sp->w[x->workload[i]].pool_gpus)
        return v;
    while (lead < n && st_pools_of_gpu(c, gpus[lead]) != k)
        lead++;
    if (lead == 0 || lead == n)
        return v;
    x->vrank = st_xgrow(x->vrank, sizeof *x->vrank, (size_t)n, &x->vrank_cap);
    for (int64_t r = 0; r < n; r++)
        x->vrank[r] = v[(r + lead) % n];
    return x->vrank;
}

/* st_step_ctx_place of training job i on the cluster's GPUs gpus[0 .. n). */
int st__lives_place_on(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n)
{
    return st_step_ctx_place(st__lives_step_of(x, i), st__lives_view_ranks(x, i, gpus, n), n);
}

void st__lives_job_stopped(void *ctx, size_t i, double now_s)
{
    (void)now_s;
    st__lives_ctx *x = ctx;
    if (i < x->n_train) {
        x->holding[i] = 0;
        st__rack_jobs_remove(&x->rj, i);
        x->nbr_dirty = 1;
    } else if (i >= x->n_train + x->n_trace)
        x->serving[i] = 0;
}

/* The services holding GPUs now, as the plant draws them steadily: each one's running
 * iteration on the GPUs its replicas first ran on (service_started), into *out (malloc'd, and
 * each job's GPU list: the caller frees both). Returns how many. */
static size_t services_now(const st__lives_ctx *x, st_plant_job **out)
{
    size_t n = 0, nw = x->sp->n;
    st_plant_job *j = st_xcalloc(nw ? nw : 1, sizeof *j);
    unsigned char *up = st_xcalloc(nw ? nw : 1, 1);
    for (size_t k = x->n_train + x->n_trace; k < x->n_jobs; k++)
        up[x->workload[k]] |= x->serving[k];
    for (size_t wi = 0; wi < nw; wi++) {
        const st_run_serve *v = &x->out->serve[wi];
        if (!up[wi] || !v->gpus)
            continue;
        int64_t dp = st_serve_replicas(v->w), rg = st_serve_replica_gpus(v->w), m = 0;
        int64_t *g = st_xmalloc((size_t)v->w->gpus * sizeof *g);
        for (int64_t r = 0; r < dp; r++)
            if (v->seen[r])
                memcpy(g + rg * m++, v->gpus + r * rg, (size_t)rg * sizeof *g);
        j[n++] = (st_plant_job){&v->r.cycle, g, m * rg, wi, 1, .steady = 1};
    }
    free(up);
    *out = j;
    return n;
}

/* Training job i's step on the GPUs it holds, same micro-batch: its tensor-, pipeline- and
 * data-parallel collectives timed over the nodes and leaves it really spans, so a job spread over
 * more leaves, behind oversubscribed uplinks, gets the slower step the fabric gives it. On the
 * packed placement from GPU 0 the step is the one forecast_steps made, untouched. */
static int place_step(st__lives_ctx *x, size_t i, st_err *err)
{
    st_forecast *f = &x->out->f[x->workload[i]];
    if (!st__lives_place_on(x, i, x->at[i].gpu, x->at[i].n_gpus))
        return 0;
    int rc = st_step_run(st__lives_step_of(x, i), st_forecast_step_w(f), f->microbatch, &f->step,
                         NULL, err);
    f->has_step = rc == 0;
    return rc;
}

/* The shape of job i's GPUs into x->key (shape_memo.h); returns its length. */
size_t st__lives_shape_of(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n)
{
    x->key = st_xgrow(x->key, sizeof *x->key, 5 * (size_t)n, &x->key_cap);
    if (st_pools_one_node_size(x->sp->c))
        return st__shape_key(x->t, x->sp->c, gpus, n, x->key);
    /* nodes of several sizes: the shape its step context sees, in its view's ids */
    const int64_t *v = st__lives_view_ranks(x, i, gpus, n);
    return st__shape_key(st_step_ctx_topo(st__lives_step_of(x, i)),
                         &x->ps->view[x->ps->pace[x->workload[i]]], v, n, x->key);
}

/* A mapped trace job's run time at its first placement: its recorded duration times its
 * slowdown there (trace_rate.h). */
static int trace_duration(st__lives_ctx *x, size_t i, double *duration_s, st_err *err)
{
    size_t t = i - x->n_train;
    double s = 1;
    int rc = st_trace_rate_slowdown(&x->tr, t, x->tgpus[i], &s, err);
    x->slow0[t] = s;
    *duration_s = x->sp->job_trace->jobs[t].duration_s * s;
    return rc;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The jobs[0 .. n) as their workloads, in place: ascending, each once. Returns how many. */
static size_t workloads_of(const st__lives_ctx *x, size_t *jobs, size_t n)
{
    for (size_t k = 0; k < n; k++)
        jobs[k] = x->workload[jobs[k]];
    if (n > 1)
        qsort(jobs, n, sizeof *jobs, cmp_size);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (!m || jobs[m - 1] != jobs[k])
            jobs[m++] = jobs[k];
    return m;
}

/* The traced job's step (st_run.trace) taken again as the report states it, once its life has
 * its step: on the GPUs it was placed on and at the clock the plant's throttle left, on its
 * pool's (or a job across pools', its pacing pool's) step context, as place_step and the throttle
 * ran it. The forecast's trace was of the packed placement from GPU 0 at full clock: GPUs of the
 * cluster's first pool on a cluster of pools, and another step wherever the job's own GPUs give
 * its collectives another fabric. */
static int retrace(st__lives_ctx *x, size_t i, st_err *err)
{
    st_run *out = x->out;
    const st_forecast *f = &out->f[x->workload[i]];
    if (!out->has_trace || out->trace_job != x->workload[i] || !f->has_step)
        return 0;
    st_pipe_trace t = {0};
    st_step_result r;
    int rc = st_step_run_at(st__lives_step_of(x, i), st_forecast_step_w(f), f->microbatch, f->clock,
                            &r, &t, err);
    if (rc) {
        st_pipe_trace_release(&t);
        return rc;
    }
    st_pipe_trace_release(&out->trace);
    out->trace = t;
    return 0;
}

/* The cluster run's duration hook: a training job's whole life where it was placed (its step on
 * its GPUs), with the ingest of every other training job holding GPUs now as background; a
 * mapped trace job's recorded duration stretched by its placement's slowdown. */
int st__lives_life_at(void *ctx, size_t i, double now_s, double *duration_s, st_err *err)
{
    (void)now_s;
    st__lives_ctx *x = ctx;
    if (i >= x->n_train)
        return trace_duration(x, i, duration_s, err);
    st_forecast *f = &x->out->f[x->workload[i]];
    int rc = place_step(x, i, err);
    if (rc)
        return rc;
    st_io_set set = {x->bg, 0};
    for (size_t k = 0; k < x->n_train; k++)
        if (k != i && x->has[k] && x->holding[k])
            x->bg[set.n++] = x->io[k];
    /* The heat of the racks it shares with the jobs running now may slow it: before its life.
     * Only the running jobs its racks reach can (st_plant_coupled): they are found from its
     * racks (rack_jobs.h), so that a start does not cost every running job. */
    st_plant_job *steady = NULL;
    size_t ns = services_now(x, &steady);
    size_t *near = st_xmalloc((x->n_train ? x->n_train : 1) * sizeof *near);
    size_t n_near = st__rack_jobs_closure(&x->rj, x->sp->c, i, x->holding, steady, ns, near);
    n_near = workloads_of(x, near, n_near);
    rc = st_forecast_throttle(st__lives_step_of(x, i), x->sp->c, x->out->f, near, n_near, steady,
                              ns, x->workload[i], err);
    free(near);
    for (size_t k = 0; k < ns; k++)
        free((int64_t *)steady[k].gpus);
    free(steady);
    if (!rc)
        rc = retrace(x, i, err);
    if (!rc)
        rc = st_forecast_life(f, &x->at[i], x->sp->failures, x->sp->seed, x->sp->replicas, &set,
                              err);
    *duration_s = f->has_life ? f->life.wall_s : 0;
    x->step0[i] = x->step_now[i] = f->step.step_time_s;
    size_t n = st__lives_shape_of(x, i, x->at[i].gpu, x->at[i].n_gpus);
    st__shape_memo_put(&x->memo, (int64_t)x->workload[i], x->key, n, f->step.step_time_s);
    return rc;
}
