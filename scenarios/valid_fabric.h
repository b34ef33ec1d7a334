/* Fabric validation cases: nccl-tests measurements from shared/validation/nccl.yaml, each run
 * through the topology, the flow model and the collective model on a fresh engine, with the
 * prediction, the error and whether it is within its bound. `strata validate --fabric` prints
 * them; docs/fabric.md explains which rows count. */
#ifndef ST_SCENARIOS_VALID_FABRIC_H
#define ST_SCENARIOS_VALID_FABRIC_H

#include <stddef.h>

#include "sim/err.h"

typedef enum st_valid_kind {
    ST_VALID_CALIBRATION, /* the source a model constant was set from: cannot count */
    ST_VALID_VALIDATION,  /* independent of the constants: counts */
    ST_VALID_REFERENCE    /* outside the model's scope (NVLS, tree on 2 nodes, another
                             transport): shown for context, does not count */
} st_valid_kind;

typedef struct st_valid_row {
    const char *name;   /* case name, e.g. "a100-2node-ib-ring" */
    const char *source; /* nccl.yaml entry id and its upstream source */
    const char *metric; /* "busbw GB/s" or "time us" */
    const char *note;   /* why the row is what it is; never NULL */
    st_valid_kind kind;
    double measured, predicted;
    double error; /* predicted / measured - 1 */
    double bound; /* |error| <= bound, or when bound_is_factor, max(p/m, m/p) <= bound */
    int bound_is_factor;
    int pass;          /* within the bound (computed for every kind) */
    const char *algo;  /* what the collective resolved to: "ring", "tree", ... */
    const char *proto; /* "LL", "LL128", "Simple" */
} st_valid_row;

/* Number of cases; their order is fixed. */
size_t st_valid_fabric_count(void);

/* Run case i (< count) alone on a fresh engine and fill *out (strings are static). Returns 0,
 * ST_EINVAL for i out of range, or the error of building or running the case. Deterministic. */
int st_valid_fabric_run(size_t i, st_valid_row *out, st_err *err);

/* "calibration", "validation", "reference"; "?" out of range. */
const char *st_valid_kind_name(st_valid_kind k);

#endif
