/* The thermal throttle's feedback on the jobs: the plant's thermal model gives each placed
 * job's clock, and a job held below full clock has its step rerun at that clock, so the slower
 * step is what its life, its power and the report see. */
#include <stdlib.h>

#include "models/config/pools.h"
#include "models/forecast/forecast.h"
#include "models/plant/thermal.h"
#include "sim/xalloc.h"

int st_forecast_throttle(st_step_ctx *x, const st_cluster_cfg *c, st_forecast *f,
                         const size_t *running, size_t n_running, const st_plant_job *steady,
                         size_t n_steady, size_t target, st_err *err)
{
    f[target].clock = 1;
    if (!(c->gpu->tdp_w > 0))
        return 0;
    size_t parts = (size_t)st_pools_count(c);
    st_plant_job *jobs = st_xcalloc(n_running * parts + n_steady + 1, sizeof *jobs);
    size_t k = 0, me = 0, mine = 0; /* its entries: [me, me + mine) */
    for (size_t r = 0; r < n_running; r++) {
        size_t i = running[r];
        if (f[i].w && f[i].has_step && f[i].gpus && f[i].step.step_time_s > 0) {
            size_t m = st_forecast_plant_jobs(c, &f[i], i, jobs + k);
            if (i == target) {
                me = k;
                mine = m;
            }
            k += m;
        }
    }
    const st_forecast *t = &f[target];
    if (!mine && t->w && t->has_step && t->gpus && t->step.step_time_s > 0)
        ST_BUG("throttle: workload %zu is not in its own neighbourhood", target);
    for (size_t i = 0; i < n_steady; i++) /* the services beside it: their racks' heat */
        jobs[k++] = steady[i];
    if (mine)
        k = st_plant_coupled(c, jobs, k, &me, mine);
    double *clock = st_xcalloc(k ? k : 1, sizeof *clock);
    if (k)
        st_plant_throttle(c, jobs, k, clock);
    int rc = 0;
    st_forecast *g = &f[target];
    double low = 1; /* a job across pools runs at its most throttled part's clock */
    for (size_t j = me; j < me + mine; j++)
        low = clock[j] < low ? clock[j] : low;
    if (low < 1) {
        g->clock = low;
        rc = st_step_run_at(x, st_forecast_step_w(g), g->microbatch, g->clock, &g->step, NULL, err);
        g->has_step = rc == 0;
    }
    free(clock);
    free(jobs);
    return rc;
}
