/* GPU-to-GPU speed spread and what it costs a synchronous job (cluster.variability;
 * docs/models/stragglers.md). */
#ifndef ST_MODELS_SILICON_VARIABILITY_H
#define ST_MODELS_SILICON_VARIABILITY_H

#include <stdint.h>

/* The expected largest of n independent standard normal draws, by Blom's approximation (0 for
 * n <= 1). */
double st_expected_max_normal(int64_t n);

/* How much longer a synchronous job's kernels take on n GPUs whose speeds are normal with
 * coefficient of variation cv than on GPUs at the mean speed: every step waits for its slowest
 * GPU, so 1 + cv E[max of n]. 1 when cv is 0 or n <= 1. */
double st_straggler_factor(double cv, int64_t n);

#endif
