/* The cluster run's retime and rate hooks (run_lives.c): a resumed job's run time where it
 * resumes over its first placement's, and a training job's rate beside the cross-leaf traffic of
 * the jobs running now. */
#include "models/forecast/run_lives_internal.h"

#include <stdlib.h>
#include <string.h>

#include "models/forecast/shape_memo.h"
#include "models/forecast/trace_rate.h"
#include "sim/xalloc.h"

/* The cluster run's retime hook: a resumed job's run time on the GPUs it resumes on over its run
 * time at its first placement. A training job: its step there (same micro-batch and clock,
 * memoised by placement shape) over its first placed step; its whole remaining life is stretched
 * by it, checkpoints included, as the neighbours' rate stretches it. A mapped trace job: its
 * slowdown there over its first one. An unmapped trace job: 1. */
int st__lives_retime_at(void *ctx, size_t i, const int64_t *gpus, double now_s, double *scale,
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
    size_t n = st__lives_shape_of(x, i, gpus, f->w->gpus);
    double step;
    if (!st__shape_memo_get(&x->memo, (int64_t)x->workload[i], x->key, n, &step)) {
        st_step_result r;
        st__lives_place_on(x, i, gpus, f->w->gpus);
        int rc = st_step_run_at(st__lives_step_of(x, i), st_forecast_step_w(f), f->microbatch,
                                f->clock, &r, NULL, err);
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
double st__lives_rate_at(void *ctx, size_t i, double now_s)
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
            st__lives_step_of(x, i), st__lives_view_ranks(x, i, x->at[i].gpu, x->at[i].n_gpus),
            x->at[i].n_gpus, st__lives_view_ids(x, i, bg, 2 * m, &x->vbg, &x->vbg_cap), m) &&
        st_step_run_at(st__lives_step_of(x, i), st_forecast_step_w(f), f->microbatch, f->clock,
                       &beside, NULL, &err) == 0 &&
        beside.step_time_s > x->step_now[i])
        rate = x->step_now[i] / beside.step_time_s;
    free(was->bg);
    *was = (struct st__rated){bg, m, x->step_now[i], rate, !err.msg[0]};
    return rate;
}
