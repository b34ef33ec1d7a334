/* Trace jobs' placement slowdown (trace_rate.h). */
#include "models/forecast/trace_rate.h"

#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/forecast/forecast.h"
#include "models/plant/gpu_power.h"
#include "models/silicon/llm.h"
#include "models/silicon/plan_check.h"
#include "sim/intmath.h"
#include "sim/xalloc.h"

/* The first entry that maps a job of class cls on gpus GPUs, or -1. */
static long match(const st_trace_cfg *t, int32_t cls, int64_t gpus)
{
    for (size_t k = 0; k < t->n_models; k++) {
        const st_trace_model *m = &t->models[k];
        if ((m->cls < 0 || m->cls == cls) && (!m->min_gpus || gpus >= m->min_gpus) &&
            (!m->max_gpus || gpus <= m->max_gpus))
            return (long)k;
    }
    return -1;
}

/* Entry m's template fitted to gpus GPUs (trace_rate.h: the plan rule). */
static st_workload_cfg fit_plan(const st_trace_model *m, int64_t gpus)
{
    st_workload_cfg w = m->w;
    w.name = m->cls_name ? m->cls_name : "trace.models";
    w.gpus = gpus;
    w.parallel.tp = st_gcd(m->w.parallel.tp, gpus);
    w.parallel.pp = st_gcd(m->w.parallel.pp, gpus / w.parallel.tp);
    w.parallel.cp = 1;
    w.parallel.dp = gpus / (w.parallel.tp * w.parallel.pp);
    int64_t rb = m->replica_batch ? m->replica_batch : w.parallel.microbatch * w.parallel.pp;
    w.global_batch = w.parallel.dp * rb;
    w.steps = 1;
    w.tenant = "default";
    return w;
}

/* Plan p's rules and its tight step (GPUs 0, 1, ...), or an error at its entry. */
static int plan_step(st_trace_rate *r, const st_trace_model *m, st__trace_plan *p, st_err *err)
{
    st_plan_issue is[1];
    st_workload_cfg *w = &p->w;
    const st_parallel_cfg *q = &w->parallel;
    st_plan_fill(w);
    if (st_plan_check(w, r->c, is, 1) || st_plan_check_batch(w, q->microbatch, is, 1))
        return st_err_set(err, ST_EINVAL, m->loc,
                          "trace.models: the plan for %lld GPUs (tp %lld, pp %lld, dp %lld) is "
                          "refused: %s",
                          (long long)p->gpus, (long long)q->tp, (long long)q->pp, (long long)q->dp,
                          is[0].msg);
    st_forecast f;
    st_step_ctx_place(r->x, NULL, 0);
    int rc = st_forecast_job(r->x, w, r->c, &f, NULL, err);
    if (!rc && !f.has_step)
        rc = st_err_set(err, ST_EINVAL, m->loc,
                        "trace.models: %s does not fit in memory on %lld GPUs (tp %lld, pp %lld, "
                        "dp %lld, micro-batch %lld); raise tp or pp, or zero",
                        w->model->name, (long long)p->gpus, (long long)q->tp, (long long)q->pp,
                        (long long)q->dp, (long long)f.microbatch);
    p->microbatch = f.microbatch;
    p->tight_s = f.step.step_time_s;
    st_plant_profile prof;
    p->gpu_w = !rc && st_plant_profile_of(&f.step, r->c->gpu, &prof) == 0
                   ? prof.energy_j / prof.period_s
                   : st_plant_activity_w(r->c->gpu, ST_PLANT_ACT_IDLE);
    st_forecast_release(&f);
    return rc;
}

/* The plan of entry k on gpus GPUs, made when new; its index, or -1 after an error. */
static long plan_of(st_trace_rate *r, const st_trace_cfg *t, size_t k, int64_t gpus, size_t *cap,
                    st_err *err)
{
    for (size_t i = r->n_plans; i-- > 0;)
        if (r->plan[i].entry == k && r->plan[i].gpus == gpus)
            return (long)i;
    r->plan = st_xgrow(r->plan, sizeof *r->plan, r->n_plans + 1, cap);
    st__trace_plan *p = &r->plan[r->n_plans];
    *p = (st__trace_plan){.entry = k, .gpus = gpus, .w = fit_plan(&t->models[k], gpus)};
    if (plan_step(r, &t->models[k], p, err))
        return -1;
    return (long)r->n_plans++;
}

int st_trace_rate_init(st_trace_rate *r, const st_trace_cfg *t, const st_cluster_cfg *c,
                       const st_topo *topo, st_step_ctx *x, st_err *err)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->topo = topo;
    r->x = x;
    r->n_jobs = t ? t->n_jobs : 0;
    r->job_plan = st_xmalloc((r->n_jobs ? r->n_jobs : 1) * sizeof *r->job_plan);
    st__shape_memo_init(&r->memo);
    size_t cap = 0;
    int64_t total = st_pools_cluster_gpus(c);
    for (size_t j = 0; j < r->n_jobs; j++) {
        const st_trace_job *tj = &t->jobs[j];
        long k = tj->gpus >= 1 && tj->gpus <= total ? match(t, tj->cls, tj->gpus) : -1;
        long p = k < 0 ? -1 : plan_of(r, t, (size_t)k, tj->gpus, &cap, err);
        if (k >= 0 && p < 0)
            return err->code;
        r->job_plan[j] = (int32_t)p;
    }
    return 0;
}

int st_trace_rate_mapped(const st_trace_rate *r, size_t job)
{
    return job < r->n_jobs && r->job_plan[job] >= 0;
}

double st_trace_rate_gpu_w(const st_trace_rate *r, size_t job)
{
    return st_trace_rate_mapped(r, job) ? r->plan[r->job_plan[job]].gpu_w : -1;
}

int st_trace_rate_slowdown(st_trace_rate *r, size_t job, const int64_t *gpus, double *slowdown,
                           st_err *err)
{
    *slowdown = 1;
    if (!st_trace_rate_mapped(r, job))
        return 0;
    st__trace_plan *p = &r->plan[r->job_plan[job]];
    r->key = st_xgrow(r->key, sizeof *r->key, 5 * (size_t)p->gpus, &r->key_cap);
    size_t n = st__shape_key(r->topo, r->c, gpus, p->gpus, r->key);
    if (st__shape_memo_get(&r->memo, r->job_plan[job], r->key, n, slowdown))
        return 0;
    st_step_result s;
    if (st_step_ctx_place(r->x, gpus, p->gpus)) {
        int rc = st_step_run(r->x, &p->w, p->microbatch, &s, NULL, err);
        if (rc)
            return rc;
        r->timed++;
        *slowdown = s.step_time_s > p->tight_s && p->tight_s > 0 ? s.step_time_s / p->tight_s : 1;
    }
    st__shape_memo_put(&r->memo, r->job_plan[job], r->key, n, *slowdown);
    return 0;
}

void st_trace_rate_release(st_trace_rate *r)
{
    free(r->plan);
    free(r->job_plan);
    free(r->key);
    st__shape_memo_release(&r->memo);
    memset(r, 0, sizeof *r);
}
