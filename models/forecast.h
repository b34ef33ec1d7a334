/* The forecast for one workload on its cluster: what every report writer reads. Today it holds
 * the memory model's answer; the step and lifetime models add their results here. */
#ifndef ST_MODELS_FORECAST_H
#define ST_MODELS_FORECAST_H

#include "models/config.h"
#include "models/parallel.h"

typedef struct st_forecast {
    const st_workload_cfg *w; /* borrowed from the scenario */
    int64_t microbatch;       /* resolved: the plan's, or the pick for `auto` */
    st_memory mem;
} st_forecast;

/* Forecast workload w on cluster c into *out. With `microbatch: auto`, picks the largest
 * micro-batch that divides the per-replica batch and fits in memory (larger micro-batches run
 * GEMMs closer to peak; the step model will refine this to "fastest"), or 1 when none fits.
 * Cannot fail for a workload the loader accepted. */
void st_forecast_job(const st_workload_cfg *w, const st_cluster_cfg *c, st_forecast *out);

#endif
