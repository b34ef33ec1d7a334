/* The rack and node cases of `strata validate --plant` (scenarios/validation/plant/): each
 * case's non-GPU draw is the sum of the parts its comment lists, each at its published maximum,
 * and its rack's coincident peak is the hand calculation the comment shows, with every GPU at its
 * power limit. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

/* The forecast of the case file `name` of scenarios/validation/plant/ into *run; its scenario
 * into *s (the caller frees both). */
static void forecast_case(const char *name, st_scn **s, st_run *run)
{
    char path[512];
    snprintf(path, sizeof path, "%s/scenarios/validation/plant/%s", ST_SOURCE_DIR, name);
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(path, s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(*s),
                        .w = st_scn_workload(*s, 0),
                        .n = st_scn_workload_count(*s),
                        .sched = st_scn_sched(*s),
                        .seed = st_scn_seed(*s)};
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, run, &err), 0);
    ck_assert_int_eq(run->has_plant, 1);
}

/* The H100 node's power besides its GPUs, W: the catalog's platform figure, fitted to Latif et
 * al.'s measured 8.4 kW at the wall (arXiv 2412.08602) with the GPUs at 700 W. */
static double dgx_base_w(void)
{
    return 8400.0 * 0.96 - 8 * 700.0;
}

START_TEST(test_dgx_h100_node_is_its_platform_at_the_gpus_power_limit)
{
    st_scn *s = NULL;
    st_run run;
    forecast_case("dgx-h100-node.yaml", &s, &run);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_double_eq_tol(dgx_base_w(), 2464.0, 1e-9);
    ck_assert_int_eq(c->node.base_power_of_gpu, 1);
    ck_assert_double_eq_tol(c->node.base_power_w, dgx_base_w(), 1e-9);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_int_eq(c->racks.nodes_per_rack, 1);
    const st_plant_result *p = &run.plant;
    /* the training peak is the rated one: all 8 GPUs at their power limit, none throttled */
    ck_assert_double_eq(c->gpu->tdp_w, 700.0);
    ck_assert_double_lt(fabs(p->jobs[0].peak_w / (8 * 700.0) - 1), 1e-12);
    ck_assert_double_eq(p->throttle_fraction, 0.0); /* air at 24 C: no GPU throttles */
    /* (2,464 + 8 x 700) W through the 96% supplies: 8.4 kW, the one rack's peak */
    double eta = st_plant_preset_get()->psu_efficiency;
    ck_assert_int_eq(p->racks, 1);
    ck_assert_double_lt(fabs(p->rack_peak_w / ((2464.0 + 8 * 700.0) / eta) - 1), 1e-12);
    ck_assert_double_lt(fabs(p->rack_peak_w - 8400.0), 1e-6);
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

/* The GB200 NVL72 compute tray's parts besides its GPUs, W (the case file gives each source). */
static double tray_base_w(void)
{
    double grace = 2 * (2700.0 - 2 * 1200.0); /* two Grace: the superchip less its two GPUs */
    double nvlink = 3600.0 / 18;              /* the 9 NVLink switch trays over 18 trays */
    double bluefield = 2 * 150.0;             /* two BlueField-3 at their 150 W maximum */
    double optics = 4 * 9.0;                  /* four 400 Gb/s OSFP transceivers */
    double drives = 4 * 25.0;                 /* four E1.S drives at the largest envelope */
    return grace + nvlink + bluefield + optics + drives;
}

START_TEST(test_gb200_rack_is_its_trays_parts_at_the_gpus_power_limit)
{
    st_scn *s = NULL;
    st_run run;
    forecast_case("gb200-nvl72-rack.yaml", &s, &run);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_double_eq(tray_base_w(), 1236.0);
    ck_assert_double_eq(c->node.base_power_w, tray_base_w());
    const st_plant_result *p = &run.plant;
    /* the training peak is the rated one: all 72 GPUs of the job at their power limit */
    ck_assert_double_eq(c->gpu->tdp_w, 1200.0);
    ck_assert_double_lt(fabs(p->jobs[0].peak_w / (72 * 1200.0) - 1), 1e-12);
    /* 18 x (1,236 + 4 x 1,200) W through the 96% supplies: 113.175 kW */
    double eta = st_plant_preset_get()->psu_efficiency;
    ck_assert_double_lt(fabs(p->rack_peak_w / (18 * (1236.0 + 4 * 1200.0) / eta) - 1), 1e-12);
    ck_assert_double_lt(fabs(p->rack_peak_w - 113175.0), 0.5);
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

Suite *plant_cases_suite(void)
{
    Suite *s = suite_create("plant_cases");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dgx_h100_node_is_its_platform_at_the_gpus_power_limit);
    tcase_add_test(tc, test_gb200_rack_is_its_trays_parts_at_the_gpus_power_limit);
    suite_add_tcase(s, tc);
    return s;
}
