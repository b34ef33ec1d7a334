/* The thermal throttle's feedback on the jobs: the plant's thermal model gives each placed
 * job's clock, and a job held below full clock has its step rerun at that clock, so the slower
 * step is what its life, its power and the report see. */
#include <stdlib.h>

#include "models/forecast/forecast.h"
#include "models/plant/thermal.h"
#include "sim/xalloc.h"

/* Rerun the throttled jobs' steps on one step context (built only when one is throttled). */
static int rerun(const st_cluster_cfg *c, st_forecast *f, const size_t *idx, const double *clock,
                 size_t k, st_err *err)
{
    st_step_ctx *x = NULL;
    int rc = 0;
    for (size_t j = 0; j < k && !rc; j++) {
        st_forecast *g = &f[idx[j]];
        g->clock = clock[j];
        if (!(clock[j] < 1))
            continue;
        if (!x && (rc = st_step_ctx_new(c, &x, err)))
            break;
        rc = st_step_run_at(x, g->w, g->microbatch, clock[j], &g->step, NULL, err);
        g->has_step = rc == 0;
    }
    st_step_ctx_free(x);
    return rc;
}

int st_forecast_throttle(const st_cluster_cfg *c, st_forecast *f, size_t n, st_err *err)
{
    if (!(c->gpu->tdp_w > 0))
        return 0;
    st_plant_job *jobs = st_xcalloc(n ? n : 1, sizeof *jobs);
    size_t *idx = st_xcalloc(n ? n : 1, sizeof *idx), k = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i].w && f[i].has_step && f[i].gpus && f[i].step.step_time_s > 0) {
            idx[k] = i;
            jobs[k++] = (st_plant_job){&f[i].step, f[i].gpus, f[i].w->gpus, i, 1};
        }
    double *clock = st_xcalloc(k ? k : 1, sizeof *clock);
    if (k)
        st_plant_throttle(c, jobs, k, clock);
    int rc = rerun(c, f, idx, clock, k, err);
    free(clock);
    free(idx);
    free(jobs);
    return rc;
}
