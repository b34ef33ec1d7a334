/* The swing's mitigations: a power floor of 100% of TDP removes a job's swing, 0% leaves it,
 * and the floor's extra energy is the idle phases' (floor - power) * time; a software burn at
 * the busy level flattens the lulls, none leaves them; rack energy storage cuts the swing and the
 * ramp, and its energy balances (grid = load + loss + stored change). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/plant/mitigate.h"
#include "models/plant/plant.h"
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

/* Two nodes of 8 GPUs in one rack, every GPU running the job; the plant over 20 s, with a power
 * floor, a software burn and storage. */
static void run_with(double floor, double burn, double e_j, double p_w, st_plant_result *out)
{
    st_cluster_cfg c = {0};
    c.gpu = &gpu;
    c.nodes = 2;
    c.gpus_per_node = 8;
    c.node.base_power_w = 2500;
    c.racks.nodes_per_rack = 2;
    c.racks.feed_voltage_v = 415;
    c.racks.feed_phases = 3;
    c.racks.power_factor = 0.95;
    c.racks.power_floor = floor;
    c.racks.power_burn = burn;
    c.racks.storage_energy_j = e_j;
    c.racks.storage_power_w = p_w;
    static int64_t ids[16];
    for (int i = 0; i < 16; i++)
        ids[i] = i;
    static st_step_result r;
    r = step_of(0.6, 0.4);
    st_plant_job j = {&r, ids, 16, 0, 1, 0};
    st_err err = {0};
    ck_assert_int_eq(st_plant_run_window(&c, &j, 1, 1, 20.0, out, &err), 0);
}

static void run(double floor, double e_j, double p_w, st_plant_result *out)
{
    run_with(floor, 0, e_j, p_w, out);
}

START_TEST(test_a_full_floor_removes_the_swing_and_none_leaves_it)
{
    st_plant_result bare, none, full;
    run(0, 0, 0, &bare);
    run(1.0, 0, 0, &full);
    /* 16 GPUs swing between 700 W and 70 W through the 96% PSUs: 10,500 W. */
    ck_assert(REL(bare.wave.swing_w, 16 * 630.0 / 0.96, 1e-9));
    ck_assert(!bare.mitigated);
    ck_assert(full.mitigated);
    ck_assert(REL(full.bare.swing_w, bare.wave.swing_w, 1e-12));
    ck_assert(full.wave.swing_w < 1e-6 * bare.wave.swing_w);
    ck_assert(full.wave.ramp_w_per_s < 1e-6 * bare.wave.ramp_w_per_s);
    /* A floor at the idle power changes nothing. */
    run(70.0 / 700, 0, 0, &none);
    ck_assert(REL(none.wave.swing_w, bare.wave.swing_w, 1e-12));
    ck_assert(none.floor_extra_w < 1e-9);
    st_plant_release(&bare);
    st_plant_release(&none);
    st_plant_release(&full);
}
END_TEST

START_TEST(test_the_floors_extra_energy_is_the_idle_phases_floor_power_times_time)
{
    st_plant_result bare, half;
    run(0, 0, 0, &bare);
    run(0.5, 0, 0, &half);
    /* 16 GPUs raised from 70 W to 350 W for 0.4 s of each 1 s step: 16 * 280 * 0.4 W. */
    ck_assert(REL(half.floor_extra_w, 16 * 280 * 0.4, 1e-12));
    ck_assert(REL(half.it_mean_w - bare.it_mean_w, 16 * 280 * 0.4 / 0.96, 1e-9));
    ck_assert(REL(half.bare_it_mean_w, bare.it_mean_w, 1e-12));
    ck_assert(REL(half.wave.swing_w, 16 * 350.0 / 0.96, 1e-9));
    st_plant_release(&bare);
    st_plant_release(&half);

    st_plant_profile p = {.dur_s = {0.6, 0.3, 0.1}, .gpu_w = {700, 70, 200}, .n = 3};
    p.period_s = 1, p.energy_j = 0.6 * 700 + 0.3 * 70 + 0.1 * 200, p.peak_w = 700, p.min_w = 70;
    double e0 = p.energy_j, extra = st_plant_profile_floor(&p, 300);
    ck_assert(REL(extra, 0.3 * 230 + 0.1 * 100, 1e-12));
    ck_assert(REL(p.energy_j, e0 + extra, 1e-12));
    ck_assert(p.min_w == 300 && p.peak_w == 700);
    /* a floor above the peak holds at the peak: flat */
    st_plant_profile_floor(&p, 900);
    ck_assert(p.min_w == 700 && REL(p.energy_j, 700.0, 1e-12));
}
END_TEST

START_TEST(test_a_burn_at_the_busy_level_flattens_the_lulls_and_none_leaves_them)
{
    st_plant_result bare, full, idle, half, both;
    run(0, 0, 0, &bare);
    /* 100% of TDP: the busy level of a GPU without a lower power limit */
    run_with(0, 1.0, 0, 0, &full);
    ck_assert(full.mitigated);
    ck_assert(REL(full.bare.swing_w, bare.wave.swing_w, 1e-12));
    ck_assert(full.wave.swing_w < 1e-6 * bare.wave.swing_w);
    ck_assert(full.wave.ramp_w_per_s < 1e-6 * bare.wave.ramp_w_per_s);
    /* 16 GPUs raised from 70 W to 700 W for 0.4 s of each 1 s step */
    ck_assert(REL(full.burn_extra_w, 16 * 630 * 0.4, 1e-12));
    ck_assert(full.floor_extra_w == 0);
    /* a burn at idle power leaves the swing */
    run_with(0, 70.0 / 700, 0, 0, &idle);
    ck_assert(REL(idle.wave.swing_w, bare.wave.swing_w, 1e-12));
    ck_assert(idle.burn_extra_w < 1e-9);
    /* half: the lull at 350 W; over a 30% floor it costs only what it adds above the floor */
    run_with(0, 0.5, 0, 0, &half);
    ck_assert(REL(half.wave.swing_w, 16 * 350.0 / 0.96, 1e-9));
    run_with(0.3, 0.5, 0, 0, &both);
    ck_assert(REL(both.wave.swing_w, half.wave.swing_w, 1e-12));
    ck_assert(REL(both.floor_extra_w, 16 * 140 * 0.4, 1e-12));
    ck_assert(REL(both.burn_extra_w, 16 * 140 * 0.4, 1e-12));
    ck_assert(REL(both.it_mean_w, half.it_mean_w, 1e-12));
    st_plant_release(&bare);
    st_plant_release(&full);
    st_plant_release(&idle);
    st_plant_release(&half);
    st_plant_release(&both);
}
END_TEST

START_TEST(test_energy_storage_cuts_the_swing_and_the_ramp)
{
    st_plant_result bare, small, big;
    run(0, 0, 0, &bare);
    /* 5 kW for 1 s: half the 10.5 kW swing */
    run(0, 2 * 5e3 * 1.0, 5e3, &small);
    run(0, 2 * 20e3 * 5.0, 20e3, &big);
    ck_assert(REL(small.bare.swing_w, bare.wave.swing_w, 1e-12));
    ck_assert(small.wave.swing_w < bare.wave.swing_w - 4e3);
    ck_assert(small.wave.ramp_w_per_s < bare.wave.ramp_w_per_s);
    ck_assert(big.wave.swing_w < 0.1 * bare.wave.swing_w);
    ck_assert(big.wave.ramp_w_per_s < 0.1 * bare.wave.ramp_w_per_s);
    ck_assert(small.storage_loss_w > 0);
    st_plant_release(&bare);
    st_plant_release(&small);
    st_plant_release(&big);
}
END_TEST

START_TEST(test_storage_energy_balances_and_stays_within_its_limits)
{
    size_t n = 20000;
    double *load = malloc(n * sizeof *load), *grid = malloc(n * sizeof *grid);
    for (size_t k = 0; k < n; k++)
        load[k] = (k / 500) % 2 ? 1e3 : 11e3; /* a 1 Hz square wave, 1 ms samples */
    st_plant_storage_sums s;
    st_plant_storage_smooth(20e3, 3e3, load, grid, n, 1e-3, &s);
    ck_assert(REL(s.grid_j, s.load_j + s.loss_j + (s.end_j - s.start_j), 1e-12));
    double lo = 1e30, hi = -1e30;
    for (size_t k = 0; k < n; k++) {
        ck_assert(fabs(load[k] - grid[k]) <= 3e3 * (1 + 1e-12));
        lo = grid[k] < lo ? grid[k] : lo;
        hi = grid[k] > hi ? grid[k] : hi;
    }
    ck_assert(hi - lo < 10e3 - 5e3); /* 3 kW each way takes 6 kW off a 10 kW swing */
    ck_assert(s.end_j >= 0 && s.end_j <= 20e3);
    ck_assert(s.loss_j > 0); /* it charged, at its 85% round trip */
    free(load);
    free(grid);
}
END_TEST

Suite *mitigate_suite(void)
{
    Suite *s = suite_create("mitigate");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_full_floor_removes_the_swing_and_none_leaves_it);
    tcase_add_test(tc, test_the_floors_extra_energy_is_the_idle_phases_floor_power_times_time);
    tcase_add_test(tc, test_a_burn_at_the_busy_level_flattens_the_lulls_and_none_leaves_them);
    tcase_add_test(tc, test_energy_storage_cuts_the_swing_and_the_ramp);
    tcase_add_test(tc, test_storage_energy_balances_and_stays_within_its_limits);
    suite_add_tcase(s, tc);
    return s;
}
