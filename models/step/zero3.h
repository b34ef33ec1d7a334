/* ZeRO-3's weight gathers and gradient reduce-scatters beside one pass of compute: a
 * forward or backward over a chunk's layers, each layer a unit whose weights are all-gathered
 * before it computes and, in backward, whose gradients are reduce-scattered after. The
 * collectives share one communication stream in the order they are issued; the layers share
 * the compute stream. docs/models/step-model.md, section "ZeRO-3", has the schedules and sources.
 */
#ifndef ST_MODELS_STEP_ZERO3_H
#define ST_MODELS_STEP_ZERO3_H

#include <stdint.h>

typedef struct st_z3_unit {
    double compute_s; /* the unit's kernels in this pass */
    double gather_s;  /* all-gather of its weights (0: nothing to gather) */
    double reduce_s;  /* reduce-scatter of its gradients (0 in forward) */
} st_z3_unit;

/* How the gathers are issued. On demand: a unit's gather starts when the unit before it has
 * finished (and, in backward, behind that unit's reduce-scatter), so nothing overlaps.
 * Prefetch: the next unit's gather is issued as a unit starts computing, one unit ahead, so it
 * runs beside that unit's compute (PyTorch FSDP's BACKWARD_PRE order; Megatron-FSDP's). */
typedef enum { ST_Z3_ON_DEMAND = 0, ST_Z3_PREFETCH = 1 } st_z3_issue;

/* The time of one pass over units u[0..n) in execution order, from the first gather's issue to
 * the last unit's compute or reduce-scatter, whichever ends later. While a collective runs
 * beside it, compute runs slower by the factor 1 + slowdown (the two compete for SMs and HBM
 * bandwidth); slowdown 0 gives ideal overlap. With ST_Z3_ON_DEMAND the result is the plain sum
 * of every compute, gather and reduce-scatter. */
double st_z3_pass(const st_z3_unit *u, int64_t n, st_z3_issue issue, double slowdown);

/* The time compute of c seconds takes when a collective keeps running beside it for `busy`
 * seconds from its start (0 or less: none): compute advances at 1 / (1 + slowdown) of its rate
 * while both run. */
double st_z3_slowed(double c, double busy, double slowdown);

#endif
