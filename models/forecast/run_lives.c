/* The cluster run of a scenario's forecast (models/sched/cluster.h): the training jobs, the
 * trace's jobs and the services as its jobs (run_lives_jobs.c), the hooks that forecast each
 * training job's life where and when it starts (run_lives_start.c: its place, its ingest beside
 * the running jobs'; run_lives_rate.c: its step re-timed where it resumes and beside its
 * neighbours; run_lives_preempt.c: what a preemption costs), and what the run gives back:
 * starts and failures' costs (run_lives_record.c) and energy (run_lives_energy.c). Split from
 * run.c. */
#include "models/forecast/run_lives_internal.h"

#include <stdlib.h>

#include "models/forecast/shape_memo.h"
#include "models/forecast/trace_rate.h"
#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "sim/xalloc.h"

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
    free(x->vrank);
    for (size_t i = 0; x->rated && i < x->n_train; i++)
        free(x->rated[i].bg);
    free(x->rated);
    st__nbr_flows_release(&x->nbr);
    st__rack_jobs_release(&x->rj);
    st__shape_memo_release(&x->memo);
    st_trace_rate_release(&x->tr);
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
                          .start = train || mapped || serve ? st__lives_job_started : NULL,
                          .stop = train || serve ? st__lives_job_stopped : NULL,
                          .duration = st__lives_life_at,
                          .preempt_cost = st__lives_preempt_cost, /* asked only at a preemption */
                          .ctx = x,
                          /* the training jobs' stretches, which the audit reads back; the
                           * trace's only when asked (recording them was a tenth of compare) */
                          .keep_segments = sp->trace_segments,
                          .keep_first = x->n_train,
                          .outages = os.n_classes ? &os : NULL,
                          .restorable = train ? st__lives_restorable : NULL,
                          /* trace jobs have no step model and run at 1: no hook, no
                           * cluster.rate pass over a trace's thousands of running jobs */
                          .rate = x->n_train ? st__lives_rate_at : NULL,
                          .retime = train || mapped ? st__lives_retime_at : NULL,
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

/* Each of the nj cluster jobs' pool, n_train training jobs first, then nt trace jobs, then the
 * services (malloc'd). */
static int32_t *job_pools(const st_run_spec *sp, const size_t *workload, size_t n_train, size_t nt,
                          size_t nj)
{
    int32_t *pool = st_xcalloc(nj ? nj : 1, sizeof *pool); /* each job's */
    for (size_t k = 0; k < n_train; k++)
        pool[k] = sp->w[workload[k]].pool;
    for (size_t k = n_train; k < n_train + nt; k++) /* a trace job's, by its GPU type */
        pool[k] = sp->job_trace->jobs[k - n_train].pool;
    for (size_t k = n_train + nt; k < nj; k++) /* a service's, and its replica stretches' */
        pool[k] = sp->w[workload[k]].pool;
    return pool;
}

/* Every training job and trace job through the cluster run: queued by the scheduler policy,
 * placed all or nothing, each training job's life forecast where and when it starts. */
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
        st_xcalloc(n + nt + st__lives_service_ups(sp, out), sizeof *workload);
    size_t n_tenants = 0;
    const char **tenants = st__lives_tenant_names(sp, &n_tenants);
    st_cluster_job *jobs =
        st__lives_cluster_jobs(sp, out, workload, &x.n_train, &nj, tenants, n_tenants, &x.tr);
    x.workload = workload;
    x.n_jobs = nj;
    x.serving = st_xcalloc(nj ? nj : 1, 1);
    lives_alloc(&x, n, nt);
    int32_t *pool = job_pools(sp, workload, x.n_train, nt, nj);
    x.part = st__lives_service_parts(sp, out, nj);
    x.after = st__lives_service_after(sp, out, nj);
    x.span = st__lives_job_spans(sp, workload, x.n_train, nj);
    rc = run_cluster(sp, out, &x, jobs, nj, pool, tenants, n_tenants, err);
    out->has_cluster = 1;
    if (!rc) {
        st__lives_record_starts(sp, out);
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
