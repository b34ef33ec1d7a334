/* GPU-to-GPU speed spread and what it costs a synchronous job (cluster.variability;
 * docs/models/stragglers.md). */
#ifndef ST_MODELS_SILICON_VARIABILITY_H
#define ST_MODELS_SILICON_VARIABILITY_H

#include <stdint.h>

#include "models/config/config.h"

/* The expected largest of n independent standard normal draws, by Blom's approximation (0 for
 * n <= 1). */
double st_expected_max_normal(int64_t n);

/* How much longer a synchronous job's kernels take on n GPUs whose speeds are normal with
 * coefficient of variation cv than on GPUs at the mean speed: every step waits for its slowest
 * GPU, so 1 + cv E[max of n]. 1 when cv is 0 or n <= 1. */
double st_straggler_factor(double cv, int64_t n);

/* Fail-slow nodes (cluster.variability.slow_nodes) as a job on `nodes` nodes meets them: the
 * mean wall time between episodes of any of its nodes, every / nodes, into *every_s, and what
 * each costs in progress, its slow stretch of detect at 1 / (1 + slowdown) of the pace,
 * detect slowdown / (1 + slowdown), into *cost_s. Returns 0 (both untouched) when none is
 * stated. One formula for the life model's run and the sizing search's closed form
 * (docs/models/stragglers.md). */
int st_slow_nodes_of(const st_variability_cfg *v, int64_t nodes, double *every_s, double *cost_s);

#endif
