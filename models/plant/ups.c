/* The facility's UPS: the loss of Schneider Electric White Paper 108's three terms against the
 * load fraction, summed over the waveform. */
#include "models/plant/ups.h"

static const st_plant_ups_preset preset = {
    /* Schneider Electric's Galaxy VS three-phase UPS: "up to 97%" efficiency in double
     * conversion (the Galaxy VS datasheet and product page). It is the vendor's best figure, so
     * the loss it gives is a lower bound for a modern double-conversion unit. */
    .efficiency = 0.97,
    /* White Paper 108 (Avelar, "Making Large UPS Systems More Efficient", rev. 2) splits a
     * UPS's loss into no-load (fixed), proportional and square-law terms; it publishes no
     * coefficients for a current unit, and Schneider states the Galaxy VS figure across load.
     * We take the loss all proportional (no fixed part, no square-law part): a flat 97%. A
     * scenario sets facility.ups.no_load and .square_law to give a part-load curve. */
    .no_load = 0,
    .square_law = 0,
    .source = "Schneider Electric Galaxy VS datasheet (double conversion, up to 97%); "
              "Schneider Electric White Paper 108 (loss terms)",
};

const st_plant_ups_preset *st_plant_ups_preset_get(void)
{
    return &preset;
}

double st_plant_ups_loss(double rating_w, double efficiency, double no_load, double square_law,
                         double x)
{
    double full = rating_w * (1 / efficiency - 1);
    return full * (no_load + (1 - no_load - square_law) * x + square_law * x * x);
}

/* st_plant_ups_of and st_plant_ups_of_runs: cnt NULL, every entry one sample. */
static void ups_of(const st_ups_cfg *cfg, const double *w, const size_t *cnt, size_t nr,
                   double add_w, st_plant_ups *out)
{
    *out =
        (st_plant_ups){.efficiency = cfg->efficiency > 0 ? cfg->efficiency : preset.efficiency,
                       /* the preset's shares are 0, so an unstated share and the preset's agree */
                       .no_load = cfg->no_load > 0 ? cfg->no_load : preset.no_load,
                       .square_law = cfg->square_law > 0 ? cfg->square_law : preset.square_law,
                       .systems = cfg->redundancy == ST_UPS_2N ? 2 : 1};
    double sum = 0, sq = 0, peak = 0;
    size_t n = 0;
    for (size_t k = 0; k < nr; k++) {
        double u = w[k] + add_w, c = cnt ? (double)cnt[k] : 1.0;
        sum += c * u;
        sq += c * (u * u);
        peak = u > peak ? u : peak;
        n += cnt ? cnt[k] : 1;
    }
    out->rating_w = cfg->rating_w > 0 ? cfg->rating_w : peak;
    if (!n || !(out->rating_w > 0))
        return;
    /* Each of the systems carries 1 / systems of every sample. */
    double cap = out->rating_w * out->systems, mx = sum / (double)n / cap;
    double mx2 = sq / (double)n / (cap * cap);
    double full = out->rating_w * (1 / out->efficiency - 1);
    double lin = 1 - out->no_load - out->square_law;
    out->load = mx;
    /* the mean of st_plant_ups_loss over the samples, per system, times the systems */
    out->loss_w = out->systems * full * (out->no_load + lin * mx + out->square_law * mx2);
}

void st_plant_ups_of(const st_ups_cfg *cfg, const double *w, size_t n, double add_w,
                     st_plant_ups *out)
{
    ups_of(cfg, w, NULL, n, add_w, out);
}

void st_plant_ups_of_runs(const st_ups_cfg *cfg, const double *w, const size_t *cnt, size_t nr,
                          double add_w, st_plant_ups *out)
{
    ups_of(cfg, w, cnt, nr, add_w, out);
}
