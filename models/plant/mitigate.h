/* The mitigations planners weigh against the swing of a training job's power: a GPU power floor
 * (the GPU burns at least a share of its TDP when its work would draw less) and energy storage
 * at the racks (a battery that charges in the lulls and discharges at the peaks, within its
 * power and energy). docs/models/plant.md has the model and its sources. */
#ifndef ST_MODELS_PLANT_MITIGATE_H
#define ST_MODELS_PLANT_MITIGATE_H

#include <stddef.h>

#include "models/plant/gpu_power.h"

/* Raise every phase of p drawing less than floor_w to floor_w (a floor above the profile's peak
 * is held at the peak: it cannot push the GPU past what its compute draws under its power
 * limit), and update its energy, peak and minimum. Returns the extra energy one GPU burns per
 * step, J: the sum over the raised phases of (floor - power) * duration. */
double st_plant_profile_floor(st_plant_profile *p, double floor_w);

/* The software power burn on p: in its lulls (the phases drawing less than its peak: the
 * communication waits and the pipeline bubble) a burn kernel holds the GPU at burn_w, held at the
 * peak (the busy level) when above it. On the step's profile it acts as a floor does; it differs
 * in where it does not act: it is the job's own software, so it burns only while the job runs
 * its steps, never while the job is down, restarting or stalled on a checkpoint (the forecast,
 * models/forecast/run.c, counts those at idle power with a burn and at the floor with a
 * hardware floor), nor on GPUs no job holds. Returns the extra energy one GPU burns per step,
 * J. */
double st_plant_profile_burn(st_plant_profile *p, double burn_w);

/* The storage's constants that are not datasheet figures (mitigate.c). */
typedef struct st_plant_storage_preset {
    double efficiency; /* round trip: energy out over energy in */
    const char *source;
} st_plant_storage_preset;

const st_plant_storage_preset *st_plant_storage_preset_get(void);

/* What st_plant_storage_smooth measures: the load's and the grid's energy, the conversion loss
 * and the stored energy at start and end, J. grid = load + loss + (end - start), to rounding. */
typedef struct st_plant_storage_sums {
    double load_j, grid_j, loss_j, start_j, end_j;
} st_plant_storage_sums;

/* The grid's draw grid[0 .. n) when a store of energy_j and power_w (both > 0) sits between the
 * grid and the load load[0 .. n), sampled every dt_s. The store starts half full and aims to
 * hold the grid at the load's mean over the window, pulled back toward half full with time
 * constant tau = energy_j / (2 power_w) (the time its full power takes to move half its charge);
 * its output stays within +-power_w and its charge within [0, energy_j]. Charging stores
 * efficiency of what it takes. grid may be load (in place). */
void st_plant_storage_smooth(double energy_j, double power_w, const double *load, double *grid,
                             size_t n, double dt_s, st_plant_storage_sums *sums);

#endif
