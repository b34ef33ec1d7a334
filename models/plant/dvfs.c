/* The DVFS model: compute power against clock, and the clock a power limit holds. */
#include "models/plant/dvfs.h"

#include <math.h>

static const st_plant_dvfs_preset preset = {
    /* "Power Capping" in factryze.ai's Scale Atlas (factryze.ai/scale-atlas/power/power-capping):
     * "On transformer pretraining workloads, capping an H100 at 600 W typically loses 10 to 15 %
     * step throughput" (of the 700 W default). We take the middle, 0.875 of the 700 W
     * throughput, with the stated range as its tolerance (+-0.025); the H100 SXM's idle power
     * is the catalog's (scenarios/catalog.c, public nvidia-smi readings). It gives k = 1.29:
     * far below the cube the textbook's V proportional to f gives (Weste and Harris, CMOS VLSI
     * Design, 4th ed., sec. 5.1), as at the top of its range a GPU's voltage is near its floor
     * and much of its power does not scale with the clock. A practitioner's summary, not a
     * controlled measurement: the one published throughput-against-limit figure for H100
     * training we found. */
    .cal_tdp_w = 700,
    .cal_idle_w = 70,
    .cal_limit_w = 600,
    .cal_ratio = 0.875,
    .cal_tolerance = 0.025,
    /* Hardware slowdown halves the clock or more (NVML's nvmlClocksEventReasons, HW slowdown):
     * below a fifth of the clock we hold it there. */
    .min_clock = 0.2,
    .source = "factryze.ai Scale Atlas, Power Capping (H100, 600 W: -10 to -15% throughput); "
              "Weste and Harris; NVML",
};

const st_plant_dvfs_preset *st_plant_dvfs_preset_get(void)
{
    return &preset;
}

double st_plant_dvfs_exponent(void)
{
    double p = (preset.cal_limit_w - preset.cal_idle_w) / (preset.cal_tdp_w - preset.cal_idle_w);
    return log(p) / log(preset.cal_ratio);
}

double st_plant_dvfs_power(const st_gpu_spec *g, double clock)
{
    double f = clock > 0 && clock < 1 ? clock : 1;
    return g->idle_w + (g->tdp_w - g->idle_w) * pow(f, st_plant_dvfs_exponent());
}

double st_plant_power_clock(const st_gpu_spec *g)
{
    double lim = g->power_limit_w;
    if (!(lim > 0) || lim >= g->tdp_w || !(g->tdp_w > g->idle_w))
        return 1;
    /* the loader holds a limit above idle power; below it no clock fits under the limit */
    double share = (lim - g->idle_w) / (g->tdp_w - g->idle_w);
    return share > 0 ? pow(share, 1 / st_plant_dvfs_exponent()) : preset.min_clock;
}
