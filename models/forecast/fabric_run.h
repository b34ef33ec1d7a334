/* Collective workloads (kind: collective) run together on one simulated fabric: each starts at
 * its submit time on its own GPUs, repeats its collective back to back, and competes for links
 * with every other workload's traffic. The nccl-tests of a scenario, with contention. */
#ifndef ST_MODELS_FORECAST_FABRIC_RUN_H
#define ST_MODELS_FORECAST_FABRIC_RUN_H

#include <stddef.h>

#include "models/config/config.h"
#include "models/fabric/collective.h"

typedef struct st_coll_result {
    const st_workload_cfg *w; /* borrowed from the scenario */
    int64_t first_gpu;        /* the workload runs on GPUs [first_gpu, first_gpu + w->gpus) */
    st_coll_plan plan;        /* what it resolved to, and its time alone on an idle fabric */
    double start_s, end_s;    /* first start, last completion */
    double time_s;            /* mean time of one iteration */
    double algbw, busbw;      /* nccl-tests definitions, bytes/s, from time_s */
} st_coll_result;

typedef struct st_fabric_result {
    double max_utilization; /* highest carried / capacity on any link */
    double level_utilization[ST_LEVEL__COUNT];
    uint64_t collisions; /* member flows that shared an ECMP-hashed uplink */
    double end_s;        /* when the last collective finished */
} st_fabric_result;

/* Run the collective workloads ws[0..n) (each kind == ST_WL_COLLECTIVE) on cluster c. GPUs are
 * handed out in workload order, each workload starting on a fresh node (the pack placement policy,
 * models/place/pack.c). Fills out[0..n) and *fab. Returns 0, or ST_EINVAL with
 * a message located at the workload when the GPUs run out or the collective is refused. */
int st_fabric_run(const st_cluster_cfg *c, const st_workload_cfg *const *ws, size_t n,
                  st_coll_result *out, st_fabric_result *fab, st_err *err);

#endif
