/* The facility's UPS: its loss as a function of its load fraction, with the three loss terms
 * of Schneider Electric White Paper 108 (no-load, proportional and square-law), over the
 * facility's waveform. docs/models/plant.md (PUE) has the equation and sources. */
#ifndef ST_MODELS_PLANT_UPS_H
#define ST_MODELS_PLANT_UPS_H

#include <stddef.h>

#include "models/config/config.h"

/* The defaults a scenario's facility.ups does not state, with their source (ups.c). */
typedef struct st_plant_ups_preset {
    double efficiency; /* at full load */
    double no_load, square_law;
    const char *source;
} st_plant_ups_preset;

const st_plant_ups_preset *st_plant_ups_preset_get(void);

/* What the UPS does over the window: the efficiency, loss shares and rating it ran with, its
 * systems (1 for N, 2 for 2N), each system's mean load fraction and the mean loss, W. */
typedef struct st_plant_ups {
    double efficiency, no_load, square_law;
    double rating_w;
    int systems;
    double load;
    double loss_w;
} st_plant_ups;

/* One system's loss, W, at load fraction x of its rating_w:
 * rating_w (1 / efficiency - 1) (no_load + (1 - no_load - square_law) x + square_law x^2). */
double st_plant_ups_loss(double rating_w, double efficiency, double no_load, double square_law,
                         double x);

/* The UPS of cfg carrying the n samples w[k] + add_w (W): the unstated values from the preset
 * and an unstated rating sized to carry the samples' peak alone; the loss is the mean of the
 * per-sample losses (exact for the square-law term). n may be 0 (no loss). */
void st_plant_ups_of(const st_ups_cfg *cfg, const double *w, size_t n, double add_w,
                     st_plant_ups *out);

/* st_plant_ups_of over a waveform given as runs: w[i] held for cnt[i] samples, nr runs. */
void st_plant_ups_of_runs(const st_ups_cfg *cfg, const double *w, const size_t *cnt, size_t nr,
                          double add_w, st_plant_ups *out);

#endif
