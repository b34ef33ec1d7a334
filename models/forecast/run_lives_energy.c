/* The cluster run's energy inputs (split from run_lives.c): each job's GPUs' mean board power
 * while it works and mean idle power, each of its own GPU type or, a job across pools, the mean
 * over its GPUs of each type's. */
#include "models/forecast/run_lives_internal.h"

#include <stdlib.h>

#include "models/forecast/cluster_energy.h"
#include "models/forecast/netpower.h"
#include "models/plant/gpu_power.h"
#include "sim/xalloc.h"

/* One GPU of type g's board power, W, running training job f's step (idle without one). */
static double step_gpu_w(const st_forecast *f, const st_gpu_spec *g)
{
    st_plant_profile p;
    if (!f->has_step || st_plant_profile_clocked(&f->step, g, f->clock, &p) != 0)
        return st_plant_activity_w(g, ST_PLANT_ACT_IDLE);
    return p.energy_j / p.period_s;
}

/* A job across pools' mean over its GPUs of each type's board power over the job's step, or
 * (idle) of each type's idle power. */
static double span_mean_w(const st_run_spec *sp, const st_forecast *f, int idle)
{
    const st_cluster_cfg *c = sp->c;
    double sum = 0;
    for (int k = 0; k < c->n_pools; k++) {
        const st_gpu_spec *g = c->pools[k].gpu;
        if (f->w->pool_gpus[k])
            sum += (double)f->w->pool_gpus[k] * (idle ? g->idle_w : step_gpu_w(f, g));
    }
    return sum / (double)f->w->gpus;
}

/* One GPU's board power, W, while cluster job i works: a training job's placed step's mean (at
 * its clock), a mapped trace job's tight step's, an unmapped trace job's at the plant's stated
 * utilisation (unmapped_w); idle for a training job without a step. */
static double job_gpu_w(const st_run_spec *sp, const st_run *out, const st__lives_ctx *x, size_t i,
                        double unmapped_w)
{
    if (i >= x->n_train + x->n_trace) /* a service: its mean over its span, on every GPU held */
        return out->serve[x->workload[i]].r.gpu_mean_w; /* only its replicas up hold GPUs */
    if (i >= x->n_train) {
        double w = st_trace_rate_gpu_w(&x->tr, i - x->n_train);
        return w >= 0 ? w : unmapped_w;
    }
    const st_forecast *f = &out->f[x->workload[i]];
    if (f->w->pool_gpus)
        return span_mean_w(sp, f, 0);
    return step_gpu_w(f, st__run_view_of(sp, x->ps, f->w)->gpu);
}

/* One GPU's idle power, W, of cluster job i: its pool's type's, or a job across pools' mean. */
static double job_idle_w(const st_run_spec *sp, const st_run *out, const st__lives_ctx *x, size_t i,
                         const int32_t *pool)
{
    if (i < x->n_train && out->f[x->workload[i]].w->pool_gpus)
        return span_mean_w(sp, &out->f[x->workload[i]], 1);
    return sp->c->pools[pool[i]].gpu->idle_w;
}

void st__lives_energy(const st_run_spec *sp, st_run *out, const st__lives_ctx *x,
                      const st_cluster_job *jobs, const int32_t *pool)
{
    const st_cluster_result *r = &out->cluster;
    double *w = st_xmalloc((r->n ? r->n : 1) * sizeof *w);
    double *idle = pool ? st_xmalloc((r->n ? r->n : 1) * sizeof *idle) : NULL;
    double unmapped = st_plant_util_w(sp->c->gpu, st_plant_preset_get()->trace_gpu_utilization);
    for (size_t i = 0; i < r->n; i++) {
        w[i] = job_gpu_w(sp, out, x, i, unmapped);
        if (idle)
            idle[i] = job_idle_w(sp, out, x, i, pool);
    }
    int64_t ports = 0;
    double net_w = 0;
    st_forecast_switch_optics(sp->c, &ports, &net_w);
    st_cluster_energy_in in = {sp->c, jobs, r, w, net_w, sp->cost, idle};
    out->has_energy = st_cluster_energy_of(&in, &out->energy);
    free(idle);
    free(w);
}
