/* The DVFS model: a GPU's compute power against its clock, and the clock a power limit holds.
 * Dynamic power is alpha C V^2 f and the voltage rises with the frequency over the DVFS range,
 * so power above idle goes as a power of the clock, P(f) = idle + (tdp - idle) f^k; k is
 * calibrated on a published throughput-against-power-limit figure (dvfs.c, its preset table;
 * docs/models/plant.md has the equations). */
#ifndef ST_MODELS_PLANT_DVFS_H
#define ST_MODELS_PLANT_DVFS_H

#include "models/silicon/gpu.h"

typedef struct st_plant_dvfs_preset {
    /* The calibration point: a part's power limit (tdp) and idle power, a lower power limit,
     * and the throughput share (and its stated half-range) measured at that limit. */
    double cal_tdp_w, cal_idle_w, cal_limit_w;
    double cal_ratio, cal_tolerance;
    double min_clock; /* the thermal throttle holds no clock below this share */
    const char *source;
} st_plant_dvfs_preset;

const st_plant_dvfs_preset *st_plant_dvfs_preset_get(void);

/* The exponent k of P(f) = idle + (tdp - idle) f^k, from the preset's calibration point:
 * k = ln((limit - idle) / (tdp - idle)) / ln(ratio), the clock share taken as the throughput
 * share of a compute-bound step. */
double st_plant_dvfs_exponent(void);

/* A GPU's compute power, W, at clock share `clock`: idle + (tdp - idle) clock^k; clock outside
 * (0, 1) is taken as 1. */
double st_plant_dvfs_power(const st_gpu_spec *g, double clock);

/* The clock share at which GPU g's compute power equals its power limit (power_limit_w): 1 when
 * it states none or one at or above its tdp, else ((limit - idle) / (tdp - idle))^(1/k) (the
 * preset's min_clock for a limit at or below idle power, which the loader refuses). */
double st_plant_power_clock(const st_gpu_spec *g);

#endif
