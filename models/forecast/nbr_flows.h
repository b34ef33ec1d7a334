/* The cross-leaf flows of the training jobs holding GPUs in the cluster run, indexed by the
 * leaves (and, across pods, the pods) they load, so that a job's rate hook reads the flows that
 * share a link with its own collectives without scanning every running job (docs/models/
 * scheduler.md, "Neighbours"). Internal to models/forecast. */
#ifndef ST_MODELS_FORECAST_NBR_FLOWS_H
#define ST_MODELS_FORECAST_NBR_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/topo.h"
#include "models/place/placement.h"

typedef struct st__nbr_flows {
    int64_t *pair;  /* 2 a flow: its source and destination GPU */
    size_t *owner;  /* the cluster job each flow is of */
    size_t n, cap;  /* flows, and room */
    size_t *at;     /* by key: its flows are idx[at[key] .. at[key + 1]) */
    size_t *idx;    /* flow ids, two a flow (one a pod-crossing flow's pod adds two more) */
    size_t n_keys;  /* leaves, then pods */
    unsigned *seen; /* by flow and by key: the gather that last took it */
    unsigned gather;
    size_t seen_cap;
    int64_t n_leaves;
} st__nbr_flows;

/* Builds the index from the placements at[k] of the jobs k < n with holding[k] set that span two
 * leaves or more: each of such a job's GPUs sending to the GPU one node further in its rank
 * order (gpn GPUs a node; the inter-node hop of NCCL's rings), kept where that hop crosses
 * leaves, in job and then rank order. Replaces what f held. */
void st__nbr_flows_build(st__nbr_flows *f, const st_topo *t, const st_placement *at,
                         const int *holding, size_t n, int64_t gpn);

/* Into bg (2 a flow, room for 2 f->n), in the build's order, the flows of jobs other than job
 * that leave or enter a leaf of p (job's placement) or, when p spans pods, a pod of p across
 * pods: those whose links p's own cross-leaf collectives can share. Returns how many. */
size_t st__nbr_flows_gather(st__nbr_flows *f, const st_topo *t, const st_placement *p, size_t job,
                            int64_t *bg);

void st__nbr_flows_release(st__nbr_flows *f);

#endif
