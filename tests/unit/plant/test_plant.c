/* The plant: a rack feed's line current, I²R losses and breaker headroom against hand
 * calculations, 208 V against 415 V, GPU power by phase, the waveform's energy against the
 * phases', its swing and frequency for a synchronised job, rack totals, the losses' quadratic
 * form against the racks' own sum, and determinism under the seed. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/plant/electric.h"
#include "models/plant/plant.h"
#include "models/plant/thermal.h"
#include "models/silicon/gpu.h"

#define REL(a, b, tol) (fabs((a) - (b)) <= (tol)*fabs(b))

static const st_gpu_spec gpu = {.name = "test", .tdp_w = 700, .idle_w = 70};

/* A step of compute_s at the power limit then comm_s waiting on collectives. */
static st_step_result step_of(double compute_s, double comm_s)
{
    st_step_result r = {0};
    r.b.compute_s = compute_s;
    r.b.dp_comm_exposed_s = comm_s;
    r.step_time_s = compute_s + comm_s;
    return r;
}

static st_cluster_cfg cluster(int64_t nodes, int64_t npr, double r_ohm)
{
    st_cluster_cfg c = {0};
    c.gpu = &gpu;
    c.nodes = nodes;
    c.gpus_per_node = 8;
    c.node.base_power_w = 2500;
    c.racks.nodes_per_rack = npr;
    c.racks.feed_voltage_v = 415;
    c.racks.feed_phases = 3;
    c.racks.power_factor = 0.95;
    c.racks.distribution_resistance_ohm = r_ohm;
    return c;
}

START_TEST(test_three_phase_and_single_phase_current_match_hand_calculations)
{
    /* 30 kW at 415 V, PF 0.95: 30000 / (1.7320508 * 415 * 0.95) = 43.9328 A. */
    ck_assert(REL(st_plant_line_current(30e3, 415, 3, 0.95), 43.932804, 1e-6));
    /* 10 kW single-phase at 230 V, PF 1: 43.4783 A. */
    ck_assert(REL(st_plant_line_current(10e3, 230, 1, 1.0), 43.478261, 1e-6));
}
END_TEST

START_TEST(test_i2r_losses_and_breaker_headroom_match_hand_calculations)
{
    /* 3 * 43.9328^2 * 0.01 ohm = 57.903 W; single-phase 2 * 43.4783^2 * 0.02 = 75.614 W. */
    ck_assert(REL(st_plant_feed_loss(30e3, 415, 3, 0.95, 0.01), 57.902739, 1e-6));
    ck_assert(REL(st_plant_feed_loss(10e3, 230, 1, 1.0, 0.02), 75.614367, 1e-6));
    /* A 63 A breaker carries 0.8 * 63 = 50.4 A continuously: 6.467 A left at 43.93 A. */
    ck_assert(REL(st_plant_breaker_headroom(43.932804, 63), 6.467196, 1e-6));
    ck_assert(st_plant_breaker_headroom(60, 63) < 0);
}
END_TEST

START_TEST(test_208_volt_feed_loses_four_times_what_415_volt_loses)
{
    /* Same power, power factor and resistance: the loss goes as 1 / V^2, (415 / 208)^2 = 3.9808. */
    double lo = st_plant_feed_loss(40e3, 415, 3, 0.95, 0.005);
    double hi = st_plant_feed_loss(40e3, 208, 3, 0.95, 0.005);
    ck_assert_msg(REL(hi / lo, 3.980792, 1e-6), "ratio %g", hi / lo);
}
END_TEST

START_TEST(test_compute_draws_the_power_limit_and_communication_idle_power)
{
    st_step_result r = step_of(0.6, 0.4);
    r.b.bubble_s = 0.2;
    r.step_time_s += 0.2;
    st_plant_profile p;
    ck_assert_int_eq(st_plant_profile_of(&r, &gpu, &p), 0);
    ck_assert_int_eq(p.n, 3);
    ck_assert(REL(p.period_s, 1.2, 1e-12));
    ck_assert(REL(p.energy_j, 0.6 * 700 + 0.2 * 70 + 0.4 * 70, 1e-12));
    ck_assert(p.peak_w == 700 && p.min_w == 70);
    st_step_result none = {0};
    ck_assert_int_eq(st_plant_profile_of(&none, &gpu, &p), -1);
}
END_TEST

/* Every part of a step at once (a calibrated overhead, noise, a speed spread, a pipeline, TP
 * and DP traffic): all eight phases, none lost; flattened, the same energy in one phase. */
START_TEST(test_a_step_of_every_part_keeps_all_eight_phases)
{
    st_step_result r = step_of(0.6, 0.4); /* compute and exposed DP traffic */
    r.b.bubble_s = r.b.straggler_s = r.b.optimizer_s = 0.1;
    r.b.noise_s = r.b.overhead_s = r.b.pp_comm_s = 0.1;
    st_plant_profile p;
    ck_assert_int_eq(st_plant_profile_of(&r, &gpu, &p), 0);
    ck_assert_int_eq(p.n, ST_PLANT_MAX_PHASES);
    ck_assert(REL(p.period_s, 1.0 + 0.6, 1e-12));
    double e = p.energy_j;
    st_plant_profile_flatten(&p);
    ck_assert_int_eq(p.n, 1);
    ck_assert(REL(p.energy_j, e, 1e-12) && p.peak_w == p.min_w && REL(p.gpu_w[0], e / 1.6, 1e-12));
}
END_TEST

/* A waveform of one job of profile p on gpus GPUs at offset off over window w (dt 1 ms). */
static double *wave(const st_plant_profile *p, double gpus, double off, double base, double w,
                    size_t *n, st_plant_wave_sums *sums)
{
    st_plant_wave_job j = {p, gpus, off};
    *n = (size_t)llround(w / 1e-3);
    st_plant_wave_spec s = {
        .jobs = &j, .n_jobs = 1, .base_w = base, .scale = 1.0, .dt_s = 1e-3, .n_samples = *n};
    double *out = malloc(*n * sizeof *out);
    st_plant_waveform(&s, out, sums);
    return out;
}

START_TEST(test_waveform_integral_equals_the_phases_energy)
{
    /* Phases that do not fall on the millisecond grid, at an odd offset: the samples are interval
     * means, so their integral is the phases' energy over the window, to 1e-9. */
    st_step_result r = step_of(0.1734567, 0.0765433); /* a 0.25 s step */
    st_plant_profile p;
    st_plant_profile_of(&r, &gpu, &p);
    size_t n;
    st_plant_wave_sums sums;
    double *w = wave(&p, 1024, 0.0123456, 5e4, 10.0, &n, &sums);
    double integral = 0;
    for (size_t k = 0; k < n; k++)
        integral += w[k] * 1e-3;
    double want = 5e4 * 10.0 + 1024 * 40 * p.energy_j; /* 40 whole steps */
    ck_assert_msg(REL(integral, want, 1e-9), "integral %.12g want %.12g", integral, want);
    ck_assert(REL(sums.it_energy_j, want, 1e-9));
    free(w);
}
END_TEST

START_TEST(test_a_synchronised_job_swings_by_its_gpus_power_range_at_its_step_rate)
{
    st_step_result r = step_of(0.25, 0.25); /* a 2 Hz square wave */
    st_plant_profile p;
    st_plant_profile_of(&r, &gpu, &p);
    size_t n;
    st_plant_wave_sums sums;
    double *w = wave(&p, 16384, 0.1, 0, 60.0, &n, &sums);
    st_plant_wave_stats st;
    st_plant_wave_stats_of(w, n, 1e-3, &st);
    ck_assert(REL(st.swing_w, 16384 * (700.0 - 70.0), 1e-9));
    ck_assert(REL(st.dominant_hz, 2.0, 1e-9));
    /* The whole swing happens within one sample: 10.3 MW in 1 ms. */
    ck_assert(REL(st.ramp_w_per_s, 16384 * 630.0 / 1e-3, 1e-9));
    ck_assert(st.band_share > 0.8); /* 2, 6, 10, 14, 18 Hz hold most of a square wave */
    free(w);
}
END_TEST

START_TEST(test_a_flat_load_has_no_swing_and_no_frequency)
{
    st_step_result r = step_of(1.0, 0.0);
    st_plant_profile p;
    st_plant_profile_of(&r, &gpu, &p);
    size_t n;
    st_plant_wave_sums sums;
    double *w = wave(&p, 8, 0.3, 100, 60.0, &n, &sums);
    st_plant_wave_stats st;
    st_plant_wave_stats_of(w, n, 1e-3, &st);
    ck_assert(st.swing_w < 1e-6 && st.ramp_w_per_s < 1e-3);
    free(w);
}
END_TEST

/* A GPU runs one job at a time: two jobs listed on the same 16 GPUs (a queued job placed where
 * another ran before it) draw at the racks as the hungrier one alone, each keeping its own
 * figures; a third on other GPUs adds to the racks as it would alone. */
START_TEST(test_jobs_on_the_same_gpus_draw_one_job_a_gpu)
{
    st_cluster_cfg c = cluster(4, 2, 0);
    int64_t ids[16], other[8];
    for (int i = 0; i < 16; i++)
        ids[i] = i;
    for (int i = 0; i < 8; i++)
        other[i] = 16 + i;
    st_step_result hot = step_of(0.9, 0.1), cool = step_of(0.3, 0.7);
    st_plant_job alone = {&hot, ids, 16, 0, 1, 0};
    st_plant_job both[3] = {
        {&cool, ids, 16, 0, 1, 0}, {&hot, ids, 16, 1, 1, 0}, {&cool, other, 8, 2, 1, 0}};
    st_plant_job pair[2] = {both[1], both[2]};
    st_plant_result a, b, p;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run(&c, &alone, 1, 1, &a, &err), 0);
    ck_assert_int_eq(st_plant_run(&c, both, 3, 1, &b, &err), 0);
    ck_assert_int_eq(st_plant_run(&c, pair, 2, 1, &p, &err), 0);
    ck_assert(REL(b.rack_peak_w, a.rack_peak_w, 1e-12)); /* rack 0: the hot job alone */
    ck_assert(REL(b.it_mean_w, p.it_mean_w, 1e-9));      /* the cool job on ids draws nothing */
    ck_assert(REL(b.it_peak_w, p.it_peak_w, 1e-9));
    ck_assert(REL(b.jobs[0].mean_w, 16 * (0.3 * 700 + 0.7 * 70), 1e-12)); /* its own figures */
    ck_assert(REL(b.jobs[1].peak_w, 16 * 700.0, 1e-12));
    st_plant_release(&a);
    st_plant_release(&b);
    st_plant_release(&p);
}
END_TEST

START_TEST(test_rack_peak_is_its_nodes_at_the_power_limit_through_the_psu)
{
    /* 4 nodes of 8 GPUs, 2 per rack; the job holds every GPU of rack 0 and none of rack 1. */
    st_cluster_cfg c = cluster(4, 2, 0);
    c.racks.breaker_a = 63;
    int64_t ids[16];
    for (int i = 0; i < 16; i++)
        ids[i] = i;
    st_step_result r = step_of(0.5, 0.5);
    st_plant_job j = {&r, ids, 16, 0, 1, 0};
    st_plant_result out;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run(&c, &j, 1, 1, &out, &err), 0);
    double eta = st_plant_preset_get()->psu_efficiency;
    double rack = (16 * 700.0 + 2 * 2500.0) / eta;
    ck_assert_int_eq(out.racks, 2);
    ck_assert(REL(out.rack_peak_w, rack, 1e-12));
    ck_assert(REL(out.rack_current_a, rack / (sqrt(3) * 415 * 0.95), 1e-12));
    ck_assert(REL(out.rack_headroom_a, 0.8 * 63 - out.rack_current_a, 1e-12));
    ck_assert(REL(out.jobs[0].peak_w, 16 * 700.0, 1e-12));
    ck_assert(REL(out.jobs[0].step_energy_j, 16 * (0.5 * 700 + 0.5 * 70), 1e-12));
    /* IT peak: rack 0 at its peak plus rack 1 idle. */
    double idle = (16 * 70.0 + 2 * 2500.0) / eta;
    ck_assert(REL(out.it_peak_w, rack + idle, 1e-9));
    ck_assert(REL(out.wave.swing_w, 16 * 630.0 / eta, 1e-9));
    ck_assert(out.loss_mean_w == 0);
    st_plant_release(&out);
}
END_TEST

/* The network's constant board power (switch optics) is drawn beside the racks: it adds
 * network / eta to IT power and its energy, its heat to the air the cooling plant removes and
 * its share to the PUE's numerator and denominator, and it moves no rack, swing or ramp. */
START_TEST(test_network_power_is_it_power_beside_the_racks)
{
    st_cluster_cfg c = cluster(4, 2, 0);
    int64_t ids[16];
    for (int i = 0; i < 16; i++)
        ids[i] = i;
    st_step_result r = step_of(0.5, 0.5);
    st_plant_job j = {&r, ids, 16, 0, 1, 0};
    st_plant_result bare, net;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run(&c, &j, 1, 1, &bare, &err), 0);
    ck_assert_int_eq(st_plant_run_network(&c, &j, 1, 1, 960.0, &net, &err), 0);
    double eta = st_plant_preset_get()->psu_efficiency;
    ck_assert(bare.network_w == 0);
    ck_assert(REL(net.network_w, 960.0 / eta, 1e-12));
    ck_assert(REL(net.it_mean_w - bare.it_mean_w, 960.0 / eta, 1e-9));
    ck_assert(REL(net.it_peak_w - bare.it_peak_w, 960.0 / eta, 1e-9));
    ck_assert(REL(net.wave_it_energy_j - bare.wave_it_energy_j, 960.0 / eta * net.window_s, 1e-9));
    ck_assert(REL(net.wave_it_energy_j, net.phase_energy_j, 1e-9));
    ck_assert(net.rack_peak_w == bare.rack_peak_w && net.rack_heat.heat_w == bare.rack_heat.heat_w);
    ck_assert(REL(net.wave.swing_w, bare.wave.swing_w, 1e-9));
    ck_assert(net.cooling.total_w > bare.cooling.total_w);
    ck_assert(REL(net.transformer_loss_w / bare.transformer_loss_w, net.it_mean_w / bare.it_mean_w,
                  1e-12));
    double num = net.it_mean_w + net.loss_mean_w + net.storage_loss_w + net.transformer_loss_w +
                 net.ups.loss_w + net.cooling.total_w;
    ck_assert(REL(net.pue, num / net.it_mean_w, 1e-12));
    st_plant_release(&bare);
    st_plant_release(&net);
}
END_TEST

START_TEST(test_losses_are_each_racks_i2r_summed)
{
    /* The job holds rack 0 and half of rack 1; the quadratic form must give, in each phase, the
     * sum over racks of the feed loss of that rack's own wall power. */
    st_cluster_cfg c = cluster(6, 2, 0.004);
    int64_t ids[24];
    for (int i = 0; i < 24; i++)
        ids[i] = i;
    st_step_result r = step_of(0.5, 0.5);
    st_plant_job j = {&r, ids, 24, 3, 1, 0};
    st_plant_result out;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run(&c, &j, 1, 1, &out, &err), 0);
    double eta = st_plant_preset_get()->psu_efficiency, mean = 0;
    for (int ph = 0; ph < 2; ph++) {
        double g = ph ? 70 : 700;
        double racks[3] = {(16 * g + 5000) / eta, (8 * g + 8 * 70 + 5000) / eta,
                           (16 * 70.0 + 5000) / eta};
        for (int k = 0; k < 3; k++)
            mean += 0.5 * st_plant_feed_loss(racks[k], 415, 3, 0.95, 0.004);
    }
    /* To the waveform's resolution: the two samples a step that straddle a phase edge square
     * their mean power, not the mean of its square (2 of every 1000 here). */
    ck_assert_msg(REL(out.loss_mean_w, mean, 1e-4), "%.12g vs %.12g", out.loss_mean_w, mean);
    ck_assert(out.wave.peak_w > out.it_peak_w);
    st_plant_release(&out);
}
END_TEST

START_TEST(test_same_seed_repeats_and_another_seed_moves_the_jobs_phases)
{
    /* Two jobs in one rack: how long their compute phases overlap sets the rack's losses. */
    st_cluster_cfg c = cluster(2, 2, 0.002);
    int64_t a[8], b[8];
    for (int i = 0; i < 8; i++) {
        a[i] = i;
        b[i] = 8 + i;
    }
    st_step_result r = step_of(0.3, 0.2);
    st_plant_job j[2] = {{&r, a, 8, 0, 1, 0}, {&r, b, 8, 1, 1, 0}};
    st_plant_result x, y, z;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run(&c, j, 2, 7, &x, &err), 0);
    ck_assert_int_eq(st_plant_run(&c, j, 2, 7, &y, &err), 0);
    ck_assert_int_eq(st_plant_run(&c, j, 2, 8, &z, &err), 0);
    ck_assert(memcmp(&x.wave, &y.wave, sizeof x.wave) == 0);
    ck_assert(x.loss_mean_w == y.loss_mean_w && x.it_peak_w == y.it_peak_w);
    ck_assert(x.loss_mean_w != z.loss_mean_w);
    st_plant_release(&x);
    st_plant_release(&y);
    st_plant_release(&z);
}
END_TEST

START_TEST(test_a_gpu_without_a_power_limit_is_refused)
{
    st_gpu_spec g = gpu;
    g.tdp_w = 0;
    st_cluster_cfg c = cluster(2, 2, 0);
    c.gpu = &g;
    int64_t ids[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    st_step_result r = step_of(0.5, 0.5);
    st_plant_job j = {&r, ids, 8, 0, 1, 0};
    st_plant_result out;
    st_err err = {0};
    ck_assert_int_ne(st_plant_run(&c, &j, 1, 1, &out, &err), 0);
    st_plant_release(&out);
}
END_TEST

/* The facility run (what a sizing search reads) against the full one, under losses, a power floor,
 * storage and the network's draw: the same facility figures, heat, PUE and job energy, bit for
 * bit, the same waveform peak; the spectrum, series and junctions left out. */
START_TEST(test_the_facility_run_gives_the_full_runs_facility_figures)
{
    st_cluster_cfg c = cluster(6, 2, 0.004);
    c.racks.power_floor = 0.3;
    c.racks.storage_energy_j = 2e5;
    c.racks.storage_power_w = 2e4;
    int64_t ids[40];
    for (int i = 0; i < 40; i++)
        ids[i] = i;
    st_step_result r = step_of(0.3, 0.2);
    st_plant_job j = {&r, ids, 40, 3, 1, 0};
    st_plant_result full, fac;
    st_err err = {0};
    ck_assert_int_eq(st_plant_run_window_network(&c, &j, 1, 5, 4.096, 800, &full, &err), 0);
    ck_assert_int_eq(st_plant_run_facility(&c, &j, 1, 5, 4.096, 800, &fac, &err), 0);
    ck_assert(full.mitigated && fac.mitigated);
    ck_assert(memcmp(&full.facility_peak, &fac.facility_peak, sizeof fac.facility_peak) == 0);
    ck_assert(memcmp(&full.facility_mean, &fac.facility_mean, sizeof fac.facility_mean) == 0);
    ck_assert(memcmp(&full.heat, &fac.heat, sizeof fac.heat) == 0);
    ck_assert(full.pue == fac.pue && full.jobs[0].step_energy_j == fac.jobs[0].step_energy_j);
    ck_assert(full.wave.peak_w == fac.wave.peak_w && full.wave.swing_w == fac.wave.swing_w);
    ck_assert(full.bare.peak_w == fac.bare.peak_w && full.bare.mean_w == fac.bare.mean_w);
    ck_assert(full.wave.dominant_hz > 0 && fac.wave.dominant_hz == 0 && fac.bare.band_share == 0);
    ck_assert(full.series.n > 0 && fac.series.n == 0 && fac.series.w == NULL);
    ck_assert(full.max_junction_c > 0 && fac.max_junction_c == 0 && fac.jobs[0].junction_c == 0);
    st_plant_release(&full);
    st_plant_release(&fac);
}
END_TEST

/* The junction a sizing search holds every plan to (st_plant_job_junction, no waveform) is the
 * full run's max_junction_c, bit for bit: bare, under a power floor and a burn, at a lower clock,
 * for a steady job, with the last rack part full and the job on part of the cluster. */
START_TEST(test_the_junction_alone_is_the_full_runs)
{
    int64_t ids[40];
    for (int i = 0; i < 40; i++)
        ids[i] = i;
    st_step_result r = step_of(0.3, 0.2);
    const struct {
        double floor, burn, clock;
        int steady;
    } cases[] = {{0, 0, 1, 0}, {0.3, 0, 1, 0}, {0.3, 0.6, 1, 0}, {0, 0, 0.8, 0}, {0, 0, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st_cluster_cfg c = cluster(6, 4, 0.004);
        c.racks.power_floor = cases[i].floor;
        c.racks.power_burn = cases[i].burn;
        st_plant_job j = {&r, ids, 40, 3, cases[i].clock, cases[i].steady};
        st_plant_result full;
        st_err err = {0};
        ck_assert_int_eq(st_plant_run_window(&c, &j, 1, 5, 4.096, &full, &err), 0);
        ck_assert(full.max_junction_c > 20);
        ck_assert_msg(st_plant_job_junction(&c, &j) == full.max_junction_c,
                      "case %zu: %.17g against the run's %.17g", i, st_plant_job_junction(&c, &j),
                      full.max_junction_c);
        st_plant_release(&full);
    }
}
END_TEST

Suite *plant_suite(void)
{
    Suite *s = suite_create("plant");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_three_phase_and_single_phase_current_match_hand_calculations);
    tcase_add_test(tc, test_i2r_losses_and_breaker_headroom_match_hand_calculations);
    tcase_add_test(tc, test_208_volt_feed_loses_four_times_what_415_volt_loses);
    tcase_add_test(tc, test_compute_draws_the_power_limit_and_communication_idle_power);
    tcase_add_test(tc, test_a_step_of_every_part_keeps_all_eight_phases);
    tcase_add_test(tc, test_waveform_integral_equals_the_phases_energy);
    tcase_add_test(tc, test_a_synchronised_job_swings_by_its_gpus_power_range_at_its_step_rate);
    tcase_add_test(tc, test_a_flat_load_has_no_swing_and_no_frequency);
    tcase_add_test(tc, test_rack_peak_is_its_nodes_at_the_power_limit_through_the_psu);
    tcase_add_test(tc, test_jobs_on_the_same_gpus_draw_one_job_a_gpu);
    tcase_add_test(tc, test_network_power_is_it_power_beside_the_racks);
    tcase_add_test(tc, test_losses_are_each_racks_i2r_summed);
    tcase_add_test(tc, test_same_seed_repeats_and_another_seed_moves_the_jobs_phases);
    tcase_add_test(tc, test_a_gpu_without_a_power_limit_is_refused);
    tcase_add_test(tc, test_the_facility_run_gives_the_full_runs_facility_figures);
    tcase_add_test(tc, test_the_junction_alone_is_the_full_runs);
    suite_add_tcase(s, tc);
    return s;
}
