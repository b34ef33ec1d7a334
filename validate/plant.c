/* The plant checks of issue 17 (`strata validate --plant`): published power figures against the
 * plant model (models/plant/plant.h) run through the forecast (models/forecast/run.h). The case
 * files are the scenarios of scenarios/validation/plant/ (their comments give the sources); the
 * published bounds sit in the case table below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"
#include "sim/xalloc.h"
#include "validate/validate_internal.h"

typedef enum { PLANT_RACK_PEAK, PLANT_SWING } plant_metric;

static const struct {
    const char *file; /* in the harness's folder */
    plant_metric metric;
    double lo_w, hi_w; /* the published range; hi_w 0: a lower bound only */
    const char *source;
} plant_case[] = {
    /* NVIDIA: about 120 kW per rack (GTC 2024); Supermicro's datasheet: 8 x 33 kW shelves */
    {"gb200-nvl72-rack.yaml", PLANT_RACK_PEAK, 120e3, 132e3,
     "NVIDIA GB200 NVL72 (~120 kW); Supermicro GB200 NVL72 datasheet (132 kW)"},
    /* "tens of megawatts" (arXiv 2407.21783 s3.3.4): at least 10 MW */
    {"llama3-405b-16k-swing.yaml", PLANT_SWING, 10e6, 0, "Llama 3, arXiv 2407.21783 s3.3.4"},
};

#define N_CASES (sizeof plant_case / sizeof plant_case[0])

/* Fill r from the plant of the forecast of scenario s. */
static int plant_row(const st_scn *s, size_t i, st_valid_row *r, st_err *err)
{
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .sched = st_scn_sched(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    int rc = st_run_forecast(&spec, &run, err);
    if (!rc && !run.has_plant)
        rc = st_err_set(err, ST_EINVAL, (st_loc){0}, "%s: the plant is not modelled",
                        st_scn_name(s));
    if (!rc) {
        int rack = plant_case[i].metric == PLANT_RACK_PEAK;
        double w = rack ? run.plant.rack_peak_w : run.plant.wave.swing_w;
        double lo = plant_case[i].lo_w, hi = plant_case[i].hi_w;
        r->predicted = w / (rack ? 1e3 : 1e6);
        r->published = lo / (rack ? 1e3 : 1e6);
        r->bound = hi / (rack ? 1e3 : 1e6);
        r->bound_kind = hi > 0 ? ST_VALID_BOUND_RANGE : ST_VALID_BOUND_AT_LEAST;
        r->error = r->predicted / r->published - 1;
        r->pass = w >= lo && (hi <= 0 || w <= hi);
        snprintf(r->metric, sizeof r->metric, "%s", rack ? "rack peak kW" : "facility swing MW");
    }
    st_run_release(&run);
    return rc;
}

static int run_plant(const st_valid_harness *h, size_t i, st_valid_row *r, st_diag *d, st_err *err)
{
    const char *path = h->files[i];
    st_scn *s = NULL;
    if (st_scn_load_file(path, &s, d))
        return -1;
    snprintf(r->name, sizeof r->name, "%s", plant_case[i].file);
    r->name[strlen(r->name) - 5] = '\0'; /* less ".yaml" */
    snprintf(r->set, sizeof r->set, "plant");
    snprintf(r->source, sizeof r->source, "%s", plant_case[i].source);
    int rc = plant_row(s, i, r, err);
    st_scn_free(s);
    return rc;
}

static const st__valid_ops plant_ops = {.run = run_plant};

st_valid_harness *st_valid_plant_new(const char *dir)
{
    st_valid_harness *h = st__valid_harness_new(&plant_ops, N_CASES);
    h->files = st_xcalloc(N_CASES, sizeof *h->files);
    for (size_t i = 0; i < N_CASES; i++) {
        h->files[i] = st_xmalloc(strlen(dir) + strlen(plant_case[i].file) + 2);
        sprintf(h->files[i], "%s/%s", dir, plant_case[i].file);
    }
    return h;
}
