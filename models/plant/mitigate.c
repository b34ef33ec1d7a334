/* A GPU power floor on a step's profile, and rack energy storage on the facility waveform. */
#include "models/plant/mitigate.h"

static const st_plant_storage_preset storage_preset = {
    /* Lithium-ion battery storage round-trip efficiency: 85%, the assumption of NREL's Annual
     * Technology Baseline for utility-scale battery storage (Cole and Ramasamy, "Cost
     * Projections for Utility-Scale Battery Storage: 2023 Update", NREL/TP-6A40-85332). We
     * charge the whole loss on the way in. */
    .efficiency = 0.85,
    .source = "NREL/TP-6A40-85332 (85% round trip)",
};

const st_plant_storage_preset *st_plant_storage_preset_get(void)
{
    return &storage_preset;
}

/* Raise every phase of p below level_w (held at p's peak) to it; the extra energy per step. */
static double raise_to(st_plant_profile *p, double level_w)
{
    double f = level_w < p->peak_w ? level_w : p->peak_w, extra = 0;
    p->energy_j = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->gpu_w[i] < f) {
            extra += (f - p->gpu_w[i]) * p->dur_s[i];
            p->gpu_w[i] = f;
        }
        p->energy_j += p->gpu_w[i] * p->dur_s[i];
        if (i == 0 || p->gpu_w[i] < p->min_w)
            p->min_w = p->gpu_w[i];
    }
    return extra;
}

double st_plant_profile_floor(st_plant_profile *p, double floor_w)
{
    return raise_to(p, floor_w);
}

/* The phases below the peak are the lulls; the peak phase is never below min(burn, peak), so
 * raising every phase below that level raises exactly the lulls. */
double st_plant_profile_burn(st_plant_profile *p, double burn_w)
{
    return raise_to(p, burn_w);
}

void st_plant_storage_smooth(double energy_j, double power_w, const double *load, double *grid,
                             size_t n, double dt_s, st_plant_storage_sums *sums)
{
    double eta = storage_preset.efficiency, tau = energy_j / (2 * power_w);
    double soc = energy_j / 2, mean = 0;
    /* The grid is held at the load's mean over the window: the steady state (plant.h), the
     * store having run before it. */
    for (size_t k = 0; k < n; k++)
        mean += load[k] / (double)n;
    *sums = (st_plant_storage_sums){.start_j = soc};
    for (size_t k = 0; k < n; k++) {
        double w = load[k];
        /* discharge (b > 0) what the load draws above the mean, less a pull to half full */
        double b = w - mean + (soc - energy_j / 2) / tau;
        b = b > power_w ? power_w : b < -power_w ? -power_w : b;
        if (b > 0 && b * dt_s > soc)
            b = soc / dt_s;
        if (b < 0 && -b * eta * dt_s > energy_j - soc)
            b = -(energy_j - soc) / (eta * dt_s);
        soc -= b > 0 ? b * dt_s : b * eta * dt_s;
        sums->loss_j += b < 0 ? -b * (1 - eta) * dt_s : 0;
        sums->load_j += w * dt_s;
        grid[k] = w - b;
        sums->grid_j += grid[k] * dt_s;
    }
    sums->end_j = soc;
}
