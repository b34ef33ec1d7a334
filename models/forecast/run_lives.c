/* The cluster run of a scenario's forecast (models/sched/cluster.h): the training jobs, the
 * trace's jobs and the services as its jobs, the hooks that forecast each training job's life
 * where and when it starts (its place, its ingest beside the running jobs', its step re-timed
 * where it resumes), and what the run gives back: starts, failures' costs and, through
 * run_lives_energy.c, energy. Split from run.c. */
#include "models/forecast/run_lives_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/forecast/shape_memo.h"
#include "models/forecast/trace_rate.h"
#include "models/place/policy.h"
#include "models/sched/cluster.h"
#include "models/sched/muri.h"
#include "models/sched/outage.h"
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
static void job_started(void *ctx, size_t i, const int64_t *gpus, double now_s)
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
static st_step_ctx *step_of(const st__lives_ctx *x, size_t i)
{
    return x->ps->step[x->ps->pace[x->workload[i]]]; /* a job across pools': its pace's */
}

/* gpus[0 .. n) in the numbering of training job i's step context, its pool's view: the
 * cluster's ids themselves where the pools share one node size, else each GPU on its own node
 * at its slot in the view (st_pools_view_gpu), into *buf (grown to *cap). */
static const int64_t *view_ids(const st__lives_ctx *x, size_t i, const int64_t *gpus, size_t n,
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

/* st_step_ctx_place of training job i on the cluster's GPUs gpus[0 .. n). */
static int place_on(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n)
{
    return st_step_ctx_place(step_of(x, i), view_ids(x, i, gpus, (size_t)n, &x->vid, &x->vid_cap),
                             n);
}

static void job_stopped(void *ctx, size_t i, double now_s)
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
    if (!place_on(x, i, x->at[i].gpu, x->at[i].n_gpus))
        return 0;
    int rc = st_step_run(step_of(x, i), st_forecast_step_w(f), f->microbatch, &f->step, NULL, err);
    f->has_step = rc == 0;
    return rc;
}

/* The shape of job i's GPUs into x->key (shape_memo.h); returns its length. */
static size_t shape_of(st__lives_ctx *x, size_t i, const int64_t *gpus, int64_t n)
{
    x->key = st_xgrow(x->key, sizeof *x->key, 5 * (size_t)n, &x->key_cap);
    if (st_pools_one_node_size(x->sp->c))
        return st__shape_key(x->t, x->sp->c, gpus, n, x->key);
    /* nodes of several sizes: the shape its step context sees, in its view's ids */
    const int64_t *v = view_ids(x, i, gpus, (size_t)n, &x->vid, &x->vid_cap);
    return st__shape_key(st_step_ctx_topo(step_of(x, i)), &x->ps->view[x->ps->pace[x->workload[i]]],
                         v, n, x->key);
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
    int rc =
        st_step_run_at(step_of(x, i), st_forecast_step_w(f), f->microbatch, f->clock, &r, &t, err);
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
static int life_at(void *ctx, size_t i, double now_s, double *duration_s, st_err *err)
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
    rc = st_forecast_throttle(step_of(x, i), x->sp->c, x->out->f, near, n_near, steady, ns,
                              x->workload[i], err);
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
    size_t n = shape_of(x, i, x->at[i].gpu, x->at[i].n_gpus);
    st__shape_memo_put(&x->memo, (int64_t)x->workload[i], x->key, n, f->step.step_time_s);
    return rc;
}

/* The cluster run's retime hook: a resumed job's run time on the GPUs it resumes on over its run
 * time at its first placement. A training job: its step there (same micro-batch and clock,
 * memoised by placement shape) over its first placed step; its whole remaining life is stretched
 * by it, checkpoints included, as the neighbours' rate stretches it. A mapped trace job: its
 * slowdown there over its first one. An unmapped trace job: 1. */
static int retime_at(void *ctx, size_t i, const int64_t *gpus, double now_s, double *scale,
                     st_err *err)
{
    (void)now_s;
    st__lives_ctx *x = ctx;
    *scale = 1;
    if (i >= x->n_train + x->n_trace) /* a service runs its span wherever it resumes */
        return 0;
    if (i >= x->n_train) {
        size_t t = i - x->n_train;
        double s = 1;
        int rc = st_trace_rate_slowdown(&x->tr, t, gpus, &s, err);
        *scale = s / x->slow0[t];
        return rc;
    }
    st_forecast *f = &x->out->f[x->workload[i]];
    if (!(x->step0[i] > 0))
        return 0;
    size_t n = shape_of(x, i, gpus, f->w->gpus);
    double step;
    if (!st__shape_memo_get(&x->memo, (int64_t)x->workload[i], x->key, n, &step)) {
        st_step_result r;
        place_on(x, i, gpus, f->w->gpus);
        int rc = st_step_run_at(step_of(x, i), st_forecast_step_w(f), f->microbatch, f->clock, &r,
                                NULL, err);
        if (rc)
            return rc;
        step = r.step_time_s;
        st__shape_memo_put(&x->memo, (int64_t)x->workload[i], x->key, n, step);
    }
    x->step_now[i] = step;
    *scale = step / x->step0[i];
    return 0;
}

/* The cluster run's rate hook: training job i's step alone at its placement over its step beside
 * the cross-leaf traffic of the other training jobs holding GPUs now that leaves or enters one
 * of its leaves (or pods), the flows that can share a link with its own (nbr_flows.h;
 * st_step_ctx_place_beside: they share the uplinks and spines with its collectives). A job
 * inside one leaf, or with no such neighbour, runs at 1: its traffic crosses no link a
 * neighbour loads. The
 * step model's memo is keyed by the job's GPUs and the neighbours' flows, so each distinct
 * neighbourhood is simulated once. A trace job has no step model: 1. */
static double rate_at(void *ctx, size_t i, double now_s)
{
    (void)now_s;
    st__lives_ctx *x = ctx;
    if (i >= x->n_train || x->at[i].leaves <= 1)
        return 1;
    st_forecast *f = &x->out->f[x->workload[i]];
    if (x->nbr_dirty) {
        int64_t gpn = x->sp->c->gpus_per_node > 0 ? x->sp->c->gpus_per_node : 1;
        st__nbr_flows_build(&x->nbr, x->t, x->at, x->holding, x->n_train, gpn);
        x->nbr_dirty = 0;
    }
    int64_t *bg = st_xmalloc(2 * (x->nbr.n ? x->nbr.n : 1) * sizeof *bg);
    size_t m = st__nbr_flows_gather(&x->nbr, x->t, &x->at[i], i, bg);
    struct st__rated *was = &x->rated[i];
    if (was->known && was->n == m && was->step == x->step_now[i] &&
        (m == 0 || memcmp(was->bg, bg, 2 * m * sizeof *bg) == 0)) {
        free(bg); /* the same flows beside the same step: the same rate */
        return was->rate;
    }
    double rate = 1;
    st_step_result beside;
    st_err err = {0};
    if (m &&
        st_step_ctx_place_beside(
            step_of(x, i),
            view_ids(x, i, x->at[i].gpu, (size_t)x->at[i].n_gpus, &x->vid, &x->vid_cap),
            x->at[i].n_gpus, view_ids(x, i, bg, 2 * m, &x->vbg, &x->vbg_cap), m) &&
        st_step_run_at(step_of(x, i), st_forecast_step_w(f), f->microbatch, f->clock, &beside, NULL,
                       &err) == 0 &&
        beside.step_time_s > x->step_now[i])
        rate = x->step_now[i] / beside.step_time_s;
    free(was->bg);
    *was = (struct st__rated){bg, m, x->step_now[i], rate, !err.msg[0]};
    return rate;
}

/* A trace job's restart after a preemption: the restart overhead Muri's simulator charges its
 * model (Zhao et al., SIGCOMM'22; run_sim.py overhead_dict, 4-46 s by model and GPU count,
 * models/sched/muri.h), by the trace's model name where it gives one, else the artifact's 10 s
 * for a model its table lacks. A trace records no model size nor storage tier, so no checkpoint
 * model prices it; the job is taken to suspend at an iteration boundary (nothing lost, no save
 * holding its GPUs, as Gandiva's suspend does) and to pay the overhead on its GPUs when it
 * resumes, before its work goes on (docs/models/scheduler.md). */
static double trace_restart_s(const st__lives_ctx *x, size_t i)
{
    const st_trace_cfg *t = x->sp->job_trace;
    if (!t->n_classes) /* no model names (Philly's, a plain CSV's): one figure, no record read */
        return st_muri_overhead_s(NULL, 0);
    const st_trace_job *j = &t->jobs[i - x->n_train];
    const char *model = j->cls >= 0 && (size_t)j->cls < t->n_classes ? t->classes[j->cls] : NULL;
    return st_muri_overhead_s(model, j->gpus);
}

/* The cluster run's preempt_cost hook: what a preemption costs job i, from the storage model
 * (models/storage/storage.h st_ckpt_cost, the job's checkpoint on its tier at its placement).
 * The save is the checkpoint's commit time, from its start until it can be restored, not the
 * training stall: a preempted job must persist the work done since its last checkpoint or lose
 * it, and it may resume on other nodes, so its GPUs (and the host memory an asynchronous save
 * drains from) are released only once the checkpoint is in the tier. The restore is reading it
 * back. A training job with no checkpoint section costs nothing: nothing states what it would
 * save. A trace job pays its restart (trace_restart_s). */
static void preempt_cost(void *ctx, size_t i, double *save_s, double *restore_s)
{
    st__lives_ctx *x = ctx;
    *save_s = *restore_s = 0;
    if (i >= x->n_train + x->n_trace) { /* a service saves nothing */
        const st_run_serve *v = &x->out->serve[x->workload[i]];
        if (v->w->inference.autoscale.on) /* and its replicas start again as a new one does:
                                             weights, warm-up */
            *restore_s = v->r.cold.total_s;
        return;
    }
    if (i >= x->n_train) {
        *restore_s = trace_restart_s(x, i);
        return;
    }
    const st_forecast *f = &x->out->f[x->workload[i]];
    if (!f->has_life || !f->has_ckpt)
        return;
    *save_s = f->ckpt.commit_s;
    *restore_s = f->ckpt.restore_s;
}

/* The cluster run's restorable hook: the progress training job i's last restorable checkpoint
 * holds after progress_s of its failure-free life (lifetime.h's cycle: after every tau of
 * training a checkpoint stalls it for stall and is restorable commit after it starts; the next
 * starts only once it has, so a cycle lasts P = max(tau + stall, commit)). Checkpoint k starts
 * at tau + (k - 1) P and is restorable at that plus commit; resuming from it, training goes on
 * where its stall ended. A trace job and a job without checkpoints keep nothing. */
static double restorable(void *ctx, size_t i, double progress_s)
{
    st__lives_ctx *x = ctx;
    if (i >= x->n_train)
        return 0;
    const st_forecast *f = &x->out->f[x->workload[i]];
    double tau = f->interval_s, stall = f->ckpt.stall_s, commit = f->ckpt.commit_s;
    if (!f->has_ckpt || !(tau > 0) || progress_s < tau + commit)
        return 0;
    double cycle = tau + stall > commit ? tau + stall : commit;
    double k = floor((progress_s - tau - commit) / cycle) + 1;
    double back = tau + (k - 1) * cycle + stall;
    return back < progress_s ? back : progress_s;
}

/* The run's tenant names for the scheduler: the trace's, numbered as the trace numbers them,
 * then each training workload's `tenant` not among them (*n of them; free the array only). */
static const char **tenant_names(const st_run_spec *sp, size_t *n)
{
    size_t nt = sp->job_trace ? sp->job_trace->n_tenants : 0, k = nt;
    const char **t = st_xcalloc(nt + sp->n + 1, sizeof *t);
    for (size_t i = 0; i < nt; i++)
        t[i] = sp->job_trace->tenants[i];
    for (size_t i = 0; i < sp->n; i++) {
        size_t j = 0;
        while (sp->w[i].tenant && j < k && strcmp(t[j], sp->w[i].tenant) != 0)
            j++;
        if (sp->w[i].tenant && j == k)
            t[k++] = sp->w[i].tenant;
    }
    *n = k;
    return t;
}

/* The index of tenant name in t[0..n), -1 when it has none. */
static int32_t tenant_index(const char **t, size_t n, const char *name)
{
    for (size_t j = 0; name && j < n; j++)
        if (strcmp(t[j], name) == 0)
            return (int32_t)j;
    return -1;
}

/* The stretches of the services' replicas, all together: each a cluster job of its own. */
static size_t service_ups(const st_run_spec *sp, const st_run *out)
{
    size_t n = 0;
    for (size_t i = 0; i < sp->n; i++)
        n += out->serve[i].w ? out->serve[i].n_ups : 0;
    return n;
}

/* Which of the nj cluster jobs are a service's replica stretches (parts of its job), or NULL
 * when none is. */
static unsigned char *service_parts(const st_run_spec *sp, const st_run *out, size_t nj)
{
    if (!service_ups(sp, out))
        return NULL;
    unsigned char *part = st_xcalloc(nj, 1);
    for (size_t i = 0; i < sp->n; i++)
        for (size_t u = 0; out->serve[i].w && u < out->serve[i].n_ups; u++)
            part[(size_t)out->serve[i].first_up + u] = 1;
    return part;
}

/* Each cluster job's after-job (st_cluster_spec.after): a replica stretch waits for its
 * service's base job to start, since no replica serves before the service does; -1 for the
 * rest. NULL when no service has stretches. */
static int32_t *service_after(const st_run_spec *sp, const st_run *out, size_t nj)
{
    if (!service_ups(sp, out))
        return NULL;
    int32_t *after = st_xmalloc(nj * sizeof *after);
    for (size_t k = 0; k < nj; k++)
        after[k] = -1;
    for (size_t i = 0; i < sp->n; i++)
        for (size_t u = 0; out->serve[i].w && u < out->serve[i].n_ups; u++)
            after[(size_t)out->serve[i].first_up + u] = (int32_t)out->cluster_job[i];
    return after;
}

/* The cluster run's jobs: the training workloads with a step (their run time from life_at, their
 * estimate the forecast work: steps x step time, without failures), then the trace's jobs (their
 * recorded duration as estimate, and as run time unless trace.models maps them: then life_at
 * gives it at their first start). */
static st_cluster_job *cluster_jobs(const st_run_spec *sp, st_run *out, size_t *workload,
                                    size_t *n_train, size_t *n, const char **tn, size_t ntn,
                                    const st_trace_rate *tr)
{
    size_t nt = sp->job_trace ? sp->job_trace->n_jobs : 0, k = 0;
    st_cluster_job *j = st_xcalloc(sp->n + nt + service_ups(sp, out) + 1, sizeof *j);
    for (size_t i = 0; i < sp->n; i++) {
        const st_workload_cfg *w = &sp->w[i];
        out->cluster_job[i] = -1;
        if (w->kind != ST_WL_TRAINING || !out->f[i].has_step)
            continue;
        double tokens_per_step = (double)w->global_batch * (double)w->seq_len;
        double steps = w->steps > 0 ? (double)w->steps : ceil(w->tokens / tokens_per_step);
        j[k] = (st_cluster_job){.submit_s = w->submit_s,
                                .duration_s = -1,
                                .estimate_s = (steps < 1 ? 1 : steps) * out->f[i].step.step_time_s,
                                .gpus = w->gpus,
                                .priority = w->priority,
                                .tenant = tenant_index(tn, ntn, w->tenant)};
        out->cluster_job[i] = (ptrdiff_t)k;
        workload[k++] = i;
    }
    *n_train = k;
    for (size_t t = 0; t < nt; t++) {
        const st_trace_job *tj = &sp->job_trace->jobs[t];
        double d = st_trace_rate_mapped(tr, t) ? -1 : tj->duration_s; /* mapped: life_at */
        j[k++] = (st_cluster_job){tj->submit_s, d, tj->duration_s, tj->gpus, 0, tj->tenant};
    }
    /* the services: each holds its GPUs for its serving span; under an autoscaler, the
     * replicas up all along do, and each other replica holds its own while it is up */
    for (size_t i = 0; i < sp->n; i++) {
        st_run_serve *v = &out->serve[i];
        if (!v->w || !(v->r.span_s > 0))
            continue;
        int64_t rg = st_serve_replica_gpus(v->w);
        st_cluster_job one = {.submit_s = v->w->submit_s,
                              .duration_s = v->r.span_s,
                              .estimate_s = v->r.span_s,
                              .gpus = v->base * rg,
                              .priority = v->w->priority,
                              .tenant = tenant_index(tn, ntn, v->w->tenant)};
        if (v->base > 0 || v->n_ups == 0) {
            j[k] = one;
            out->cluster_job[i] = (ptrdiff_t)k;
            workload[k++] = i;
        } /* else scaled to zero at times (autoscale.min 0): no replica up all along, no base
             job; its stretches need wait for none */
        v->first_up = (ptrdiff_t)k;
        for (size_t u = 0; u < v->n_ups; u++) {
            double at, d;
            st__run_up_job(v, u, &at, &d);
            j[k] = one;
            j[k].submit_s = v->w->submit_s + at;
            j[k].duration_s = j[k].estimate_s = d;
            j[k].gpus = rg;
            workload[k++] = i;
        }
    }
    *n = k;
    return j;
}

/* Under `scope: cluster`, the cluster run's figures for workload i (its life is failure-free:
 * what failures cost it is there); NULL otherwise, or when it never reached the cluster run. */
const st_cluster_job_out *st__run_cluster_failures(const st_run_spec *sp, const st_run *out,
                                                   size_t i)
{
    if (!sp->failures || !sp->failures->cluster_scope || !out->has_cluster ||
        out->cluster_job[i] < 0)
        return NULL;
    return &out->cluster.job[out->cluster_job[i]];
}

/* The seconds job i held its GPUs: its life, or under `scope: cluster` the cluster run's held
 * span when longer (failures' lost work, detection, restarts and restores, preemptions' saves). */
double st__run_held_s(const st_run_spec *sp, const st_run *out, size_t i)
{
    const st_cluster_job_out *o = st__run_cluster_failures(sp, out, i);
    double wall = out->f[i].life.wall_s;
    return o && o->held_s > wall ? o->held_s : wall;
}

/* Under `scope: cluster`, job f's life takes what the run's failures (o's) cost it, its own
 * life having drawn none: their interruptions and lost work, its wall the span it held its GPUs
 * (for a finished job held = wall + failed; one cut by the horizon is judged on what it held),
 * its error band's ends scaled with it, its goodput their share of that span. One definition of
 * each life figure whichever scope draws the failures (the energy and cost read them so). */
static void take_run_failures(st_forecast *f, const st_cluster_job_out *o)
{
    if (o->failed_s > 0 && o->held_s > 0)
        f->life.goodput *= fmax(o->held_s - o->failed_s, 0) / o->held_s;
    f->life.interruptions += o->interruptions;
    f->life.lost_work_s += o->lost_work_s;
    if (o->held_s > f->life.wall_s && f->life.wall_s > 0) {
        double k = o->held_s / f->life.wall_s;
        f->wall_band[0] *= k;
        f->wall_band[1] *= k;
        f->life.wall_s = o->held_s;
    }
}

/* Each training job's start, wait and end from the cluster run; under `scope: cluster` its
 * life takes the run's failures (take_run_failures). */
static void record_starts(const st_run_spec *sp, st_run *out)
{
    for (size_t i = 0; i < sp->n; i++) {
        const st_run_serve *z = &out->serve[i];
        if (out->cluster_job[i] < 0 && z->w && z->base == 0 && z->n_ups > 0 && z->r.span_s > 0) {
            /* no base job: the service starts with its first stretch */
            const st_cluster_job_out *first = &out->cluster.job[z->first_up];
            st_run_serve *v = &out->serve[i];
            st__run_record_service(v, first, first);
            for (size_t u = 0; v->has_end && u < v->n_ups; u++) { /* it ends with its last */
                const st_cluster_job_out *o = &out->cluster.job[(size_t)v->first_up + u];
                v->has_end = o->state == ST_CJ_FINISHED;
                v->end_s = o->end_s > v->end_s ? o->end_s : v->end_s;
            }
            continue;
        }
        if (out->cluster_job[i] < 0)
            continue;
        const st_cluster_job_out *o = &out->cluster.job[out->cluster_job[i]];
        if (out->serve[i].w) {
            st_run_serve *v = &out->serve[i];
            st__run_record_service(v, o, v->n_ups ? &out->cluster.job[v->first_up] : NULL);
            continue;
        }
        st_forecast *f = &out->f[i];
        if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG)
            continue;
        f->start_s = o->start_s;
        f->wait_s = o->wait_s;
        f->has_end = o->state == ST_CJ_FINISHED;
        f->end_s = o->end_s;
        f->preemptions = o->preemptions;
        f->preempted_s = o->preempted_s;
        f->interruptions = o->interruptions;
        f->lost_work_s = o->lost_work_s;
        f->slowest_rate = o->slowest_rate;
        if (st__run_cluster_failures(sp, out, i))
            take_run_failures(f, o);
    }
}

/* Every training job and trace job through the cluster run: queued by the scheduler policy,
 * placed all or nothing, each training job's life forecast where and when it starts. */
/* The cluster run's per-job scratch of x for n training jobs and nt trace jobs (x->workload
 * maps jobs to workloads). */
static void lives_alloc(st__lives_ctx *x, size_t n, size_t nt)
{
    x->step0 = st_xcalloc(n, sizeof *x->step0);
    x->step_now = st_xcalloc(n, sizeof *x->step_now);
    if (x->tr.n_plans) { /* some trace job is mapped to a step model */
        x->tgpus = st_xcalloc(n + nt, sizeof *x->tgpus);
        x->slow0 = st_xcalloc(nt + 1, sizeof *x->slow0);
        for (size_t k = 0; k < nt; k++)
            x->slow0[k] = 1;
    }
    st__shape_memo_init(&x->memo);
    x->at = st_xcalloc(n, sizeof *x->at);
    x->io = st_xcalloc(n, sizeof *x->io);
    x->bg = st_xcalloc(n, sizeof *x->bg);
    x->has = st_xcalloc(n, sizeof *x->has);
    x->hosts = st_xcalloc(n, sizeof *x->hosts);
    x->holding = st_xcalloc(n, sizeof *x->holding);
    x->rated = st_xcalloc(n ? n : 1, sizeof *x->rated);
    st__rack_jobs_init(&x->rj, x->sp->c, x->n_train);
}

/* Frees what lives_alloc and the run's hooks left in x. */
static void lives_free(st__lives_ctx *x)
{
    for (size_t i = 0; i < x->n_train; i++) {
        free(x->hosts[i]);
        st_placement_release(&x->at[i]);
    }
    free(x->hosts);
    free(x->has);
    free(x->bg);
    free(x->io);
    free(x->at);
    free(x->holding);
    free(x->serving);
    free(x->step0);
    free(x->step_now);
    free(x->tgpus);
    free(x->slow0);
    free(x->key);
    free(x->vid);
    free(x->vbg);
    for (size_t i = 0; x->rated && i < x->n_train; i++)
        free(x->rated[i].bg);
    free(x->rated);
    st__nbr_flows_release(&x->nbr);
    st__rack_jobs_release(&x->rj);
    st__shape_memo_release(&x->memo);
    st_trace_rate_release(&x->tr);
}

/* Each cluster job's GPUs by pool when it is a training job across pools (cluster.h's span;
 * malloc'd), or NULL when none is. */
static const int64_t **job_spans(const st_run_spec *sp, const size_t *workload, size_t n_train,
                                 size_t nj)
{
    const int64_t **span = NULL;
    for (size_t k = 0; k < n_train; k++) {
        const int64_t *g = sp->w[workload[k]].pool_gpus;
        if (g && !span)
            span = st_xcalloc(nj, sizeof *span);
        if (g)
            span[k] = g;
    }
    return span;
}

/* The cluster run of jobs[0 .. nj) with x's hooks and the failures `scope: cluster` draws
 * (their classes in the run's own array): st_cluster_run's code. */
static int run_cluster(const st_run_spec *sp, st_run *out, st__lives_ctx *x, st_cluster_job *jobs,
                       size_t nj, const int32_t *pool, const char **tenants, size_t n_tenants,
                       st_err *err)
{
    const st_failures_cfg *fail = sp->failures;
    st_outage_class *oc =
        st_xcalloc(fail && fail->n_classes > 0 ? (size_t)fail->n_classes : 1, sizeof *oc);
    st_outage_spec os = {oc, 0, fail ? fail->detect_s : 0, fail ? fail->restart_s : 0};
    if (fail && fail->cluster_scope)
        os.n_classes = st_outage_classes(sp->c, fail, oc);
    /* A hook only where some job has a use for it: an unmapped trace job has no step, no
     * checkpoint and runs its recorded time anywhere, and each call was a cache miss or two in
     * arrays by job, at every start, stop and preemption of a trace's tens of thousands. */
    int train = x->n_train > 0, mapped = x->tr.n_plans > 0;
    int serve = nj > x->n_train + x->n_trace; /* a service's first GPUs, for the plant */
    st_cluster_spec cs = {.c = sp->c,
                          .sched = sp->sched,
                          .policy = sp->policy,
                          .placement = sp->placement,
                          .jobs = jobs,
                          .n = nj,
                          .horizon_s = sp->horizon_s,
                          .seed = sp->seed,
                          .start = train || mapped || serve ? job_started : NULL,
                          .stop = train || serve ? job_stopped : NULL,
                          .duration = life_at,
                          .preempt_cost = preempt_cost, /* asked only at a preemption */
                          .ctx = x,
                          /* the training jobs' stretches, which the audit reads back; the
                           * trace's only when asked (recording them was a tenth of compare) */
                          .keep_segments = sp->trace_segments,
                          .keep_first = x->n_train,
                          .outages = os.n_classes ? &os : NULL,
                          .restorable = train ? restorable : NULL,
                          /* trace jobs have no step model and run at 1: no hook, no
                           * cluster.rate pass over a trace's thousands of running jobs */
                          .rate = x->n_train ? rate_at : NULL,
                          .retime = train || mapped ? retime_at : NULL,
                          .tenants = tenants,
                          .n_tenants = n_tenants,
                          .pool = sp->c->n_pools > 1 ? pool : NULL,
                          .part = x->part,
                          .after = x->after,
                          .span = x->span};
    int rc = st_cluster_run(&cs, &out->cluster, err);
    free(oc);
    return rc;
}

int st__run_lives(const st_run_spec *sp, st_run *out, const st__pool_steps *ps, st_err *err)
{
    int any = sp->job_trace && sp->job_trace->n_jobs > 0;
    for (size_t i = 0; i < sp->n; i++) /* a service alone runs too: its GPUs' power and cost */
        any |= out->f[i].has_step || (out->serve[i].w && out->serve[i].r.span_s > 0);
    if (!any)
        return 0;
    st_topo *t = NULL;
    int rc = st_topo_new(sp->c, &t, err);
    if (rc)
        return rc;
    size_t nt = sp->job_trace ? sp->job_trace->n_jobs : 0, n = sp->n + 1, nj = 0;
    st__lives_ctx x = {.sp = sp, .out = out, .t = t, .step = ps->step[0], .ps = ps, .n_trace = nt};
    if ((rc = st_trace_rate_init(&x.tr, sp->job_trace, sp->c, t, x.step, err))) {
        st_trace_rate_release(&x.tr);
        st_topo_free(t);
        return rc;
    }
    size_t *workload = /* training, trace, services */
        st_xcalloc(n + nt + service_ups(sp, out), sizeof *workload);
    size_t n_tenants = 0;
    const char **tenants = tenant_names(sp, &n_tenants);
    st_cluster_job *jobs =
        cluster_jobs(sp, out, workload, &x.n_train, &nj, tenants, n_tenants, &x.tr);
    x.workload = workload;
    x.n_jobs = nj;
    x.serving = st_xcalloc(nj ? nj : 1, 1);
    lives_alloc(&x, n, nt);
    int32_t *pool = st_xcalloc(nj ? nj : 1, sizeof *pool); /* each job's */
    for (size_t k = 0; k < x.n_train; k++)
        pool[k] = sp->w[workload[k]].pool;
    for (size_t k = x.n_train; k < x.n_train + nt; k++) /* a trace job's, by its GPU type */
        pool[k] = sp->job_trace->jobs[k - x.n_train].pool;
    for (size_t k = x.n_train + nt; k < nj; k++) /* a service's, and its replica stretches' */
        pool[k] = sp->w[workload[k]].pool;
    x.part = service_parts(sp, out, nj);
    x.after = service_after(sp, out, nj);
    x.span = job_spans(sp, workload, x.n_train, nj);
    rc = run_cluster(sp, out, &x, jobs, nj, pool, tenants, n_tenants, err);
    out->has_cluster = 1;
    if (!rc) {
        record_starts(sp, out);
        st__lives_energy(sp, out, &x, jobs, sp->c->n_pools > 0 ? pool : NULL);
    }
    free(pool);
    free(x.part);
    free(x.after);
    free(x.span);
    lives_free(&x);
    free(tenants);
    free(jobs);
    free(workload);
    st_topo_free(t);
    return rc;
}
