/* What run.c shares with the files split from it (run_cost.c, run_serve.c). Internal to
 * models/forecast. */
#ifndef ST_MODELS_FORECAST_RUN_INTERNAL_H
#define ST_MODELS_FORECAST_RUN_INTERNAL_H

#include <stddef.h>

#include "models/forecast/run.h"

/* The seconds job i held its GPUs: its life, or under `scope: cluster` the cluster run's held
 * span when longer (failures' lost work, detection, restarts and restores, preemptions' saves). */
double st__run_held_s(const st_run_spec *sp, const st_run *out, size_t i);

/* Every finished life's TCO under the scenario's prices (models/cost/cost.h) into out (f[].cost,
 * cost_total_usd). On-premises needs the plant's energy: without a power model a job's
 * on-premises cost is not stated. */
void st__run_cost(const st_run_spec *sp, st_run *out);
/* The inference services' cost per million tokens where the scenario prices GPU-hours
 * (run_cost.c). */
void st__run_serve_cost(const st_run_spec *sp, st_run *out);

/* Service v's start, wait, end and preemptions from its cluster job o, and the requests the
 * wait made miss their target, out of its slo_attainment (run_serve.c). */
void st__run_record_service(st_run_serve *v, const st_cluster_job_out *o);

/* Service v's held and held_w from its replicas' figures, on GPU g. */
void st__run_service_held(st_run_serve *v, const st_gpu_spec *g);
/* The services with a latency target together (st_run.serving). */
void st__run_serving_totals(st_run *out);

#endif
