/* System noise (OS daemons, interrupts, a hypervisor's own work) as detours of each rank's
 * progress, and what it costs a synchronous job that waits for its slowest rank at every
 * collective (cluster.variability.noise; docs/models/stragglers.md, "System noise"). */
#ifndef ST_MODELS_SILICON_NOISE_H
#define ST_MODELS_SILICON_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"

/* A rank's noise: detours of detour_s, one every every_s on average; periodic (a fixed period
 * at a random phase per rank, the signatures Hoefler et al. inject, SC'10) or Poisson. every_s
 * 0: no noise. */
typedef struct st_noise_sig {
    double every_s, detour_s;
    int periodic;
    int cosched; /* co-scheduled: every rank detoured at the same moments, so no collective
                    waits for another rank's detour (Beckman et al., Cluster Computing 2008;
                    LogGOPSim's --noise-cosched) */
} st_noise_sig;

/* Where a synchronous step meets noise: `intervals` stretches of `tau_s` seconds of each rank's
 * work, each ended by a collective over `group` ranks, and the step by one over all `ranks`
 * (ranks a multiple of group). */
typedef struct st_noise_sync {
    double tau_s;
    int64_t intervals, group, ranks;
} st_noise_sync;

/* The expected time a step structured as s loses to noise z beyond its noiseless time: with
 * one interval, exactly d E[max over ranks of K], K a rank's detours in tau; with several, each
 * group's sum of its per-interval maxima (mean and variance exact per interval, summed) and the
 * largest of ranks / group such sums by Blom's normal order statistic; co-scheduled, every
 * rank's own mean share, d E[K] a stretch. 0 without noise, for tau <= 0 or ranks < 1. */
double st_noise_delay(const st_noise_sig *z, const st_noise_sync *s);

/* st_noise_delay in its two parts: what every group loses at its own collectives, d n E[M]
 * (*mean_s), and what the slowest group loses beyond that, d sqrt(n Var[M]) E[max of
 * ranks/group normals] (*spread_s; 0 for one stretch, exact, or co-scheduled noise, all in
 * *mean_s). Returns their sum. */
double st_noise_delay_parts(const st_noise_sig *z, const st_noise_sync *s, double *mean_s,
                            double *spread_s);

/* The same by sampling each rank's detours, `reps` steps from `seed` (deterministic): what the
 * closed form is tested against. Cost O(reps x intervals x ranks). */
double st_noise_delay_sampled(const st_noise_sig *z, const st_noise_sync *s, uint64_t seed,
                              int reps);

/* A named noise profile: one row of the preset table (noise.c), with its source. */
typedef struct st_noise_profile {
    const char *name;
    double every_s, detour_s; /* every_s 0: no noise */
    int periodic;
    const char *source;
} st_noise_profile;

/* The row named `name`, or NULL. */
const st_noise_profile *st_noise_profile_find(const char *name);

/* The rows' names, ", "-separated, into buf of n bytes, for messages. */
void st_noise_profile_names(char *buf, size_t n);

/* The profile a delivery model's ranks see where the scenario states no noise: bare metal and
 * on-premises none beyond what the validated runs already had, cloud VMs their hypervisor's. */
const st_noise_profile *st_noise_profile_of_delivery(st_delivery d);

/* Write profile p into v's noise keys (noise_profile names it). */
void st_noise_profile_apply(const st_noise_profile *p, st_variability_cfg *v);

#endif
