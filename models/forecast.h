/* The forecast for one workload on its cluster: what every report writer reads. It holds the
 * memory model's answer and the step model's (step time, MFU, breakdown); the lifetime models
 * add their results here. */
#ifndef ST_MODELS_FORECAST_H
#define ST_MODELS_FORECAST_H

#include "models/config.h"
#include "models/parallel.h"
#include "models/step.h"

typedef struct st_forecast {
    const st_workload_cfg *w; /* borrowed from the scenario */
    int64_t microbatch;       /* resolved: the plan's, or the pick for `auto` */
    st_memory mem;
    int has_step; /* the step model ran: step is filled */
    st_step_result step;
} st_forecast;

/* Forecast workload w on cluster c into *out: memory, then one simulated step on x (a step
 * context for c; NULL skips the step model, and so does a plan that does not fit). With
 * `microbatch: auto`, every micro-batch size that divides the per-replica batch and fits in memory
 * is simulated and the fastest kept (with no step context: the largest that fits), or 1 when none
 * fits. trace, when not NULL, receives the chosen step's pipeline. Returns 0, or the step model's
 * error. */
int st_forecast_job(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                    st_forecast *out, st_pipe_trace *trace, st_err *err);

#endif
