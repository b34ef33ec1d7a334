/* A GPU's power over one training step, from the step model's own breakdown: each phase of the
 * step (compute, tensor- and pipeline-parallel communication, bubble, exposed data-parallel
 * traffic, optimizer) at the power its activity draws. The constants are a preset table with a
 * source each (gpu_power.c); docs/models/plant.md has the model. */
#ifndef ST_MODELS_PLANT_GPU_POWER_H
#define ST_MODELS_PLANT_GPU_POWER_H

#include "models/silicon/gpu.h"
#include "models/step/step.h"

/* What a GPU does in a phase, which sets its power. */
typedef enum st_plant_activity {
    ST_PLANT_ACT_COMPUTE, /* local kernels: forward, backward, recomputation, optimizer */
    ST_PLANT_ACT_COMM,    /* waiting on a collective or a pipeline send */
    ST_PLANT_ACT_IDLE,    /* nothing to run: the pipeline bubble */
    ST_PLANT_ACT__COUNT
} st_plant_activity;

/* A GPU's power in an activity: tdp_share * tdp_w + idle_share * idle_w, from its source. */
typedef struct st_plant_power_preset {
    double tdp_share, idle_share;
    const char *source;
} st_plant_power_preset;

/* The preset of activity a (ST_PLANT_ACT__COUNT entries). */
const st_plant_power_preset *st_plant_power_preset_of(st_plant_activity a);

/* GPU g's power, W, in activity a. */
double st_plant_activity_w(const st_gpu_spec *g, st_plant_activity a);

/* The phases st_plant_profile_clocked adds, at most: compute, TP and PP communication, bubble,
 * straggler wait, exposed DP traffic, optimizer, noise and the calibrated overhead. */
#define ST_PLANT_MAX_PHASES 8

/* One GPU's power over one step: n phases in step order, each lasting dur_s at gpu_w; period_s
 * is their sum (the step time) and energy_j the integral, J. */
typedef struct st_plant_profile {
    double dur_s[ST_PLANT_MAX_PHASES];
    double gpu_w[ST_PLANT_MAX_PHASES];
    int n;
    double period_s, energy_j, peak_w, min_w;
} st_plant_profile;

/* The profile of one GPU of a job whose step is r, on GPU g: the breakdown's parts in the order
 * a step runs them (forward and backward compute, their tensor- and pipeline-parallel
 * communication, the pipeline bubble, the exposed data-parallel traffic, the optimizer, and a
 * calibrated per-step overhead at idle power), empty parts left out. The breakdown is the busiest
 * stage's, and every GPU of the job is given it, so the job's GPUs swing together. Returns 0, or -1
 * when the step has no time. */
int st_plant_profile_of(const st_step_result *r, const st_gpu_spec *g, st_plant_profile *out);

/* st_plant_profile_of for a step run at clock share `clock` (st_step_run_at): the compute
 * phases draw st_plant_compute_w (thermal.h) instead of the power limit; clock 1 is
 * st_plant_profile_of. */
int st_plant_profile_clocked(const st_step_result *r, const st_gpu_spec *g, double clock,
                             st_plant_profile *out);

/* Profile p as one phase of its mean power over its period: what the GPUs of independent
 * replicas draw together, their steps' phases not in step (st_plant_job.steady). */
void st_plant_profile_flatten(st_plant_profile *p);

/* The energy, J, one GPU of profile p draws over [0, t) from the start of a step, for t in
 * [0, p->period_s]. */
double st_plant_profile_energy(const st_plant_profile *p, double t);

#endif
