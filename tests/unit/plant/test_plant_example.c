/* The plant on the README's demo, scenarios/examples/llama3-405b-16k.yaml: the facility swing of
 * 16,384 H100s is of the "tens of megawatts" order the Llama 3 paper reports (arXiv 2407.21783,
 * section 3.3.4), its frequency is the step's, and the figures docs/models/plant.md states in
 * its prose (10.75 MW, 0.15 Hz for a 6.8 s step, a 16.9 kW rack) hold, and the waveform's
 * integral is its phases' energy to 1e-9. */
#include <check.h>
#include <math.h>

#include "models/forecast/netpower.h"
#include "models/forecast/run.h"
#include "scenarios/scenario.h"

START_TEST(test_llama3_swings_by_its_gpus_power_range_at_its_step_rate)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/llama3-405b-16k.yaml", &s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .sched = st_scn_sched(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    ck_assert_int_eq(run.has_plant, 1);
    const st_plant_result *p = &run.plant;
    double eta = st_plant_preset_get()->psu_efficiency;
    /* every GPU between its 700 W limit and 70 W idle, together: 16,384 x 630 W / 0.96 */
    ck_assert_double_lt(fabs(p->wave.swing_w / (16384 * 630.0 / eta) - 1), 1e-6);
    ck_assert_double_gt(p->wave.swing_w, 10e6); /* tens of megawatts */
    ck_assert_double_lt(p->wave.swing_w, 100e6);
    double step = run.f[0].step.step_time_s;
    ck_assert_double_lt(fabs(p->wave.dominant_hz - 1 / step), 1 / p->window_s);
    ck_assert_double_lt(fabs(p->wave.dominant_hz - 0.15), 0.01);
    ck_assert(p->wave.dominant_hz >= 0.1 && p->wave.dominant_hz <= 20);
    /* two 8-GPU nodes per rack at 700 W, 2.5 kW base each, through the PSU: 16.875 kW */
    ck_assert_double_lt(fabs(p->rack_peak_w - (16 * 700.0 + 2 * 2500) / eta), 1e-6);
    /* energy conservation: the waveform's samples against its phases walked one by one */
    ck_assert_double_gt(p->phase_energy_j, 0);
    ck_assert_double_lt(fabs(p->wave_it_energy_j / p->phase_energy_j - 1), 1e-9);
    ck_assert_double_lt(fabs(p->phase_energy_j / (p->it_mean_w * p->window_s) - 1), 1e-9);
    /* the switches' optics at 400 Gb/s: 16,384 NIC cables with one switch end; 1,024 leaves of
     * 16 uplinks and 6 pods of 16 spines with 28 core ports each, two switch ends a cable */
    ck_assert_int_eq(p->has_network, 1);
    ck_assert_int_eq(p->switch_ports, 16384 + 2 * 1024 * 16 + 2 * 6 * 16 * 28);
    ck_assert_double_lt(fabs(p->network_w / (54528 * 8.5 / eta) - 1), 1e-12);
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

/* The optics figure is for 400 Gb/s ports: the same fabric at 200 Gb/s has no network power
 * (not modelled, so the report leaves it out), at 400 Gb/s it has the ports counted above. */
START_TEST(test_switch_optics_only_for_the_rate_of_their_figure)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/llama3-405b-16k.yaml", &s, &d), 0);
    st_cluster_cfg c = *st_scn_cluster(s);
    int64_t ports = -1;
    double w = -1;
    ck_assert_int_eq(st_forecast_switch_optics(&c, &ports, &w), 1);
    ck_assert_int_eq(ports, 54528);
    ck_assert_double_eq(w, 54528 * 8.5);
    c.fabric.nic_bw = 25e9;
    ck_assert_int_eq(st_forecast_switch_optics(&c, &ports, &w), 0);
    ck_assert(ports == 0 && w == 0);
    st_scn_free(s);
}
END_TEST

Suite *plant_example_suite(void)
{
    Suite *s = suite_create("plant_example");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_llama3_swings_by_its_gpus_power_range_at_its_step_rate);
    tcase_add_test(tc, test_switch_optics_only_for_the_rate_of_their_figure);
    suite_add_tcase(s, tc);
    return s;
}
