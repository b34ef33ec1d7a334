/* The hardware power floor and the software burn at the same level shape a job's step alike;
 * over the job's life they differ where the job runs no step: the floor holds its GPUs through
 * downtime, restarts and checkpoint stalls, the burn (the job's own kernel) stops with the job.
 * On the Llama 3 example, which has failures, the floor's life energy exceeds the burn's by
 * exactly (downtime + stalls) x GPUs x (floor - idle) through the PSUs and the PUE. */
#include <check.h>
#include <math.h>

#include "models/forecast/run.h"
#include "models/plant/plant.h"
#include "scenarios/scenario.h"

/* The example's forecast with its racks' floor and burn set; its job's energy, PUE and life. */
static void forecast(double floor, double burn, double *energy_j, double *pue, double *idle_s,
                     double *swing_w)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/llama3-405b-16k.yaml", &s, &d), 0);
    st_cluster_cfg c = *st_scn_cluster(s);
    c.racks.power_floor = floor;
    c.racks.power_burn = burn;
    st_run_spec spec = {.c = &c,
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .failures = st_scn_failures(s),
                        .sched = st_scn_sched(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    ck_assert(run.has_plant);
    *energy_j = run.plant.jobs[0].energy_j;
    *pue = run.plant.pue;
    *idle_s = run.f[0].life.downtime_s + run.f[0].life.ckpt_stall_s;
    *swing_w = run.plant.wave.swing_w;
    st_run_release(&run);
    st_scn_free(s);
}

START_TEST(test_the_floor_burns_through_downtime_and_the_burn_does_not)
{
    double ef, pf, idf, sf, eb, pb, idb, sb;
    forecast(0.3, 0, &ef, &pf, &idf, &sf);
    forecast(0, 0.3, &eb, &pb, &idb, &sb);
    /* the same step: the same waveform, PUE and life */
    ck_assert_double_eq_tol(sf, sb, 1e-9 * sf);
    ck_assert_double_eq_tol(pf, pb, 1e-12);
    ck_assert_double_eq_tol(idf, idb, 1e-9 * idf);
    ck_assert_double_gt(idf, 0);
    /* 16,384 H100s at 210 W instead of 70 W while the job runs no step */
    double eta = st_plant_preset_get()->psu_efficiency;
    double want = pf * idf * 16384 * (0.3 * 700 - 70) / eta;
    ck_assert_double_eq_tol(ef - eb, want, 1e-6 * want);
}
END_TEST

Suite *burn_energy_suite(void)
{
    Suite *s = suite_create("burn_energy");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_the_floor_burns_through_downtime_and_the_burn_does_not);
    suite_add_tcase(s, tc);
    return s;
}
