/* The thermal throttle's feedback on the jobs: the plant's thermal model gives each placed
 * job's clock, and a job held below full clock has its step rerun at that clock, so the slower
 * step is what its life, its power and the report see. */
#include <stdlib.h>

#include "models/forecast/forecast.h"
#include "models/plant/thermal.h"
#include "sim/xalloc.h"

int st_forecast_throttle(st_step_ctx *x, const st_cluster_cfg *c, st_forecast *f, size_t n,
                         const unsigned char *running, const st_plant_job *steady, size_t n_steady,
                         size_t target, st_err *err)
{
    f[target].clock = 1;
    if (!(c->gpu->tdp_w > 0))
        return 0;
    st_plant_job *jobs = st_xcalloc(n + n_steady + 1, sizeof *jobs);
    size_t k = 0, me = n + n_steady;
    for (size_t i = 0; i < n; i++)
        if (running[i] && f[i].w && f[i].has_step && f[i].gpus && f[i].step.step_time_s > 0) {
            if (i == target)
                me = k;
            jobs[k++] = (st_plant_job){&f[i].step, f[i].gpus, f[i].w->gpus, i, f[i].clock, 0};
        }
    for (size_t i = 0; i < n_steady; i++) /* the services beside it: their racks' heat */
        jobs[k++] = steady[i];
    double *clock = st_xcalloc(k ? k : 1, sizeof *clock);
    if (k)
        st_plant_throttle(c, jobs, k, clock);
    int rc = 0;
    st_forecast *g = &f[target];
    if (me < n + n_steady && clock[me] < 1) {
        g->clock = clock[me];
        rc = st_step_run_at(x, g->w, g->microbatch, g->clock, &g->step, NULL, err);
        g->has_step = rc == 0;
    }
    free(clock);
    free(jobs);
    return rc;
}
