/* Cooling, junction temperature and the thermal throttle (models/plant/cooling.c, thermal.c),
 * and the plant's audit checks, on small scenarios run through the whole forecast: a rack on air
 * past its capacity throttles and its step grows, the same rack on liquid does not; throttling
 * never draws more than the power limit; the flow equation against a hand calculation; PUE of
 * a direct-liquid design and an air-cooled one; every plant audit check passing and failing; a
 * job's clock solved among the jobs its racks reach alone is its clock among all. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "models/plant/cooling.h"
#include "models/plant/thermal.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"

/* One rack of four 8-GPU H100 servers (about 39 kW of heat), cooling and extra keys given. */
static const char *rack_fmt = "version: 1\n"
                              "name: t\n"
                              "cluster:\n"
                              "  gpu: h100-sxm\n"
                              "  nodes: 4\n"
                              "  node: { base_power: 4.5 kW }\n"
                              "  racks:\n"
                              "    nodes_per_rack: 4\n"
                              "    feed: { voltage: 415 V, phases: 3, power_factor: 0.95%s }\n"
                              "    cooling: { %s }\n"
                              "%s"
                              "workloads:\n"
                              "  - name: finetune\n"
                              "    model: llama3-8b\n"
                              "    seq_len: 4096\n"
                              "    global_batch: 128\n"
                              "    gpus: 32\n"
                              "    parallel: { tp: 2, pp: 1, dp: 16, zero: 1, microbatch: 1,\n"
                              "                sequence_parallel: true, recompute: selective }\n"
                              "    steps: 1000\n"
                              "%s";

typedef struct ran {
    st_scn *s;
    st_run run;
} ran;

static void run_rack(ran *r, const char *feed, const char *cooling, const char *facility,
                     const char *audit)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml, rack_fmt, feed, cooling, facility, audit);
    st_diag d = {0};
    r->s = NULL;
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &r->s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(r->s),
                        .w = st_scn_workload(r->s, 0),
                        .n = st_scn_workload_count(r->s),
                        .audit = st_scn_audit(r->s),
                        .seed = 1};
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &r->run, &err), 0);
    ck_assert_int_eq(r->run.has_plant, 1);
}

static void ran_free(ran *r)
{
    st_run_release(&r->run);
    st_scn_free(r->s);
}

/* The finding of the plant check named `check`, or NULL. */
static const st_audit *finding(const ran *r, const char *check)
{
    for (size_t i = 0; i < r->run.n_audit; i++)
        if (strcmp(r->run.audit[i].check, check) == 0)
            return &r->run.audit[i];
    return NULL;
}

START_TEST(test_flow_equation_matches_a_hand_calculation)
{
    /* 10 kW of air at a 20 F (11.11 K) rise: 10,000 / (1,200 x 11.11) = 0.75 m^3/s; of water at
     * 10 K: 10,000 / (4.184e6 x 10) = 2.39e-4 m^3/s (14.3 L/min, the OCP 1.5 L/min per kW
     * rule's order). */
    const st_plant_cooling_preset *p = st_plant_cooling_preset_get();
    ck_assert_double_lt(fabs(st_plant_flow_m3_s(10e3, p->air_rho_cp, p->air_dt_k) - 0.75), 1e-9);
    ck_assert_double_lt(
        fabs(st_plant_flow_m3_s(10e3, p->water_rho_cp, p->liquid_dt_k) - 2.390057e-4), 1e-9);
    /* a rack's report: the air share's flow at the design rise */
    st_rack_cfg r = {.cooling = ST_COOLING_LIQUID,
                     .liquid_fraction = 0.8,
                     .air_supply_c = 24,
                     .coolant_supply_c = 35};
    st_plant_rack_heat h;
    st_plant_rack_cooling(&r, 50e3, &h);
    ck_assert_double_lt(fabs(h.air_flow_m3_s - 10e3 / (1200 * 20 / 1.8)), 1e-12);
    ck_assert_double_lt(fabs(h.liquid_flow_m3_s - 40e3 / (4.184e6 * 10)), 1e-12);
    ck_assert_double_eq(h.liquid_in_c, 35); /* 40 kW on a 105.6 kW loop: under capacity */
}
END_TEST

START_TEST(test_air_past_capacity_throttles_and_slows_the_step_liquid_does_not)
{
    ran air, liq;
    /* a 15 kW air capacity for a 39 kW rack: the recirculated excess heats the inlet air */
    run_rack(&air, "", "kind: air, capacity: 15 kW, air_supply: 24 C", "", "");
    run_rack(&liq, "", "kind: liquid, liquid_fraction: 80%, coolant_supply: 35 C", "", "");
    const st_forecast *fa = &air.run.f[0], *fl = &liq.run.f[0];
    ck_assert_double_lt(fa->clock, 1);
    ck_assert_double_eq(fl->clock, 1);
    ck_assert_double_gt(fa->step.step_time_s, 1.01 * fl->step.step_time_s);
    ck_assert_double_gt(fa->life.wall_s, fl->life.wall_s); /* the slower step lengthens its life */
    ck_assert_double_gt(air.run.plant.throttle_fraction, 0.99);
    ck_assert_double_eq(liq.run.plant.throttle_fraction, 0);
    /* the throttle holds the hottest junction at the throttle temperature (to the step
     * estimate's accuracy) */
    double hot = st_plant_thermal_preset_get()->throttle_c;
    ck_assert_double_lt(fabs(air.run.plant.max_junction_c - hot), 1.0);
    ran_free(&air);
    ran_free(&liq);
}
END_TEST

START_TEST(test_throttling_never_draws_more_than_the_power_limit)
{
    ran air;
    run_rack(&air, "", "kind: air, capacity: 15 kW, air_supply: 24 C", "", "");
    const st_gpu_spec *g = st_scn_cluster(air.s)->gpu;
    const st_plant_job_power *p = &air.run.plant.jobs[0];
    ck_assert_double_le(p->peak_w / 32, g->tdp_w);
    ck_assert_double_lt(p->peak_w / 32, g->tdp_w - 1); /* a throttled clock draws less */
    for (double f = 0.05; f <= 1.0001; f += 0.05)
        ck_assert_double_le(st_plant_compute_w(g, f), g->tdp_w);
    ran_free(&air);
}
END_TEST

/* Six one-node jobs on five racks of four 8-GPU nodes, air-cooled at 15 kW a rack so that they
 * throttle: C (node 6, rack 1) shares rack 1 with B (nodes 3-4, racks 0 and 1), which shares rack
 * 0 with A (node 0); D (rack 2) and E, F (rack 3) touch none of theirs. A sits before the target
 * in the list, so a single scan from the target would miss it. */
START_TEST(test_a_job_is_throttled_with_the_jobs_its_racks_reach_alone)
{
    st_cluster_cfg c = {0};
    c.gpu = st_catalog_gpu("h100-sxm");
    c.nodes = 20;
    c.gpus_per_node = 8;
    c.node.base_power_w = 4500;
    c.racks = (st_rack_cfg){.nodes_per_rack = 4,
                            .feed_voltage_v = 415,
                            .feed_phases = 3,
                            .power_factor = 0.95,
                            .cooling = ST_COOLING_AIR,
                            .cooling_capacity_w = 15e3,
                            .air_supply_c = 24};
    enum { N = 6 };
    const int64_t first[N] = {0, 9, 6, 3, 12, 13}, nodes[N] = {1, 1, 1, 2, 1, 1};
    static int64_t ids[N][16];
    st_step_result steps[N] = {0};
    st_plant_job jobs[N], part[N];
    for (int j = 0; j < N; j++) {
        for (int g = 0; g < 8 * nodes[j]; g++)
            ids[j][g] = first[j] * 8 + g;
        steps[j].b.compute_s = 1.0 + 0.1 * j;
        steps[j].b.tp_comm_s = 0.1;
        steps[j].step_time_s = steps[j].b.compute_s + 0.1;
        jobs[j] = (st_plant_job){&steps[j], ids[j], 8 * nodes[j], (uint64_t)j, 1, 0};
    }
    memcpy(part, jobs, sizeof part);
    size_t me = 2, kept = st_plant_coupled(&c, part, N, &me, 1);
    ck_assert_uint_eq(kept, 3);
    ck_assert_uint_eq(me, 1);
    ck_assert_uint_eq(part[0].id, 0); /* in their order: A, C, B */
    ck_assert_uint_eq(part[1].id, 2);
    ck_assert_uint_eq(part[2].id, 3);
    /* C's clock among its three is its clock among all six */
    double all[N], some[N];
    st_plant_throttle(&c, jobs, N, all);
    st_plant_throttle(&c, part, kept, some);
    ck_assert_double_lt(all[2], 0.99);
    ck_assert_double_lt(fabs(some[1] - all[2]), 1e-6);
    ck_assert_double_lt(fabs(some[0] - all[0]), 1e-6);
    /* D alone: its own rack */
    memcpy(part, jobs, sizeof part);
    me = 1;
    ck_assert_uint_eq(st_plant_coupled(&c, part, N, &me, 1), 1);
    ck_assert_uint_eq(part[0].id, 1);
}
END_TEST

START_TEST(test_pue_of_liquid_below_1_15_and_of_air_near_the_industry)
{
    ran air, liq;
    run_rack(&air, "", "kind: air, capacity: 45 kW, air_supply: 24 C", "", "");
    run_rack(&liq, "", "kind: liquid, liquid_fraction: 80%, coolant_supply: 35 C", "", "");
    ck_assert_double_lt(liq.run.plant.pue, 1.15);
    ck_assert_double_gt(liq.run.plant.pue, 1.0);
    /* the Uptime Institute's survey average is 1.55-1.59 since 2020 (a fleet with older,
     * part-loaded sites); a new air design at full load sits below it */
    ck_assert_double_gt(air.run.plant.pue, 1.2);
    ck_assert_double_lt(air.run.plant.pue, 1.7);
    ck_assert_double_gt(air.run.plant.pue, liq.run.plant.pue + 0.1);
    ck_assert_double_gt(air.run.plant.energy_j, liq.run.plant.energy_j);
    ran_free(&air);
    ran_free(&liq);
}
END_TEST

START_TEST(test_pue_counts_the_transformers_loss)
{
    ran air;
    run_rack(&air, "", "kind: air, capacity: 45 kW, air_supply: 24 C", "", "");
    const st_plant_result *p = &air.run.plant;
    /* 10 CFR 431.196(a)(2): 99.14% for a 500 kVA three-phase low-voltage dry-type unit */
    double it = p->it_mean_w + p->loss_mean_w, want = it * (1 / 0.9914 - 1);
    ck_assert_double_gt(p->transformer_loss_w, 0);
    ck_assert_double_eq_tol(p->transformer_loss_w, want, 1e-9 * want);
    double sum = p->it_mean_w + p->loss_mean_w + p->storage_loss_w + p->transformer_loss_w +
                 p->ups.loss_w + p->cooling.total_w;
    ck_assert_double_eq_tol(p->pue, sum / p->it_mean_w, 1e-12);
    ran_free(&air);
}
END_TEST

/* An air rack's heat goes through the air handlers' chilled-water coils, and its pumps draw
 * ASHRAE 90.1 Appendix G's 22 W per gpm of a flow sized for the 44 F to 56 F rise. */
START_TEST(test_air_pays_the_chilled_water_pumps)
{
    st_rack_cfg r = {.cooling = ST_COOLING_AIR, .air_supply_c = 24};
    st_plant_cooling_power p;
    st_plant_cooling_power_of(&r, 100e3, 0, &p);
    /* 100 kW / (4,184 kJ/(m^3 K) x 6.667 K) = 3.585 L/s = 56.83 gpm; x 22 W/gpm = 1,250 W */
    double gpm = 100e3 / (4.184e6 * (56.0 - 44.0) / 1.8) / (3.785411784e-3 / 60);
    ck_assert_double_eq_tol(gpm, 56.83, 0.01);
    ck_assert_double_eq_tol(p.pumps_w, 22 * gpm, 1e-9 * 22 * gpm);
    ck_assert_double_eq_tol(p.total_w, p.fans_w + p.pumps_w + p.chiller_w, 1e-9);
}
END_TEST

/* racks.cooling.chiller_cop is the COP at AHRI 550/590's point (44 F water, 95 F air): at that
 * point the chiller gives it exactly, and at 19 C water the same share of Carnot's COP. */
START_TEST(test_chiller_cop_is_the_rated_one)
{
    /* air 5 K above 44 F water: the rating point */
    st_rack_cfg r = {.cooling = ST_COOLING_AIR, .air_supply_c = (44 - 32) / 1.8 + 5};
    st_plant_cooling_power p;
    r.chiller_cop = 2.80; /* ASHRAE 90.1-2004's air-cooled minimum, 1.256 kW/ton */
    st_plant_cooling_power_of(&r, 100e3, 0, &p);
    ck_assert_double_eq_tol(p.air_cop, 2.80, 1e-3);
    r.chiller_cop = 0; /* the preset's: ASHRAE 90.1's current minimum, EER 10.1 */
    st_plant_cooling_power_of(&r, 100e3, 0, &p);
    ck_assert_double_eq_tol(p.air_cop, 2.96, 1e-3);
    /* at 24 C air (19 C water): 2.80 x (28.33 / 279.82) x 292.15 / 16 = 5.176 */
    r.air_supply_c = 24;
    r.chiller_cop = 2.80;
    st_plant_cooling_power_of(&r, 100e3, 0, &p);
    double cop = 2.80 * (28.33 / 279.82) * 292.15 / 16;
    ck_assert_double_eq_tol(cop, 5.176, 1e-3);
    double load = 100e3 + p.fans_w + p.chw_pumps_w; /* the heat and the fans' and pumps' work */
    ck_assert_double_eq_tol(p.chiller_w, load / cop, 1e-6 * load / cop);
}
END_TEST

/* A fan's or a pump's work ends as heat in the stream it moves, so the chiller rejects it with
 * the IT heat: at 24 C air, 100 kW of heat and 500 Pa / 0.6 fans (7.5 m^3/s, 6,250 W) plus
 * the 1,250 W of chilled-water pumps load the chiller with 107.5 kW, not 100. */
START_TEST(test_fan_work_is_chilled)
{
    st_rack_cfg r = {.cooling = ST_COOLING_AIR, .air_supply_c = 24};
    st_plant_cooling_power p;
    st_plant_cooling_power_of(&r, 100e3, 0, &p);
    double va = 100e3 / (1.2e3 * 20.0 / 1.8), fans = va * 500 / 0.6;
    ck_assert_double_eq_tol(fans, 6250, 1e-6);
    ck_assert_double_eq_tol(p.fans_w, fans, 1e-9 * fans);
    ck_assert_double_eq_tol(p.chiller_w * p.air_cop, 100e3 + fans + p.chw_pumps_w, 1e-6);
    /* the liquid loop's pumps warm their own water: 100 kW at a 10 K rise is 2.39 L/s against
     * 276 kPa at 70%, 942 W more for the liquid side's chiller */
    st_rack_cfg l = {.cooling = ST_COOLING_LIQUID, .coolant_supply_c = 20, .air_supply_c = 24};
    st_plant_cooling_power_of(&l, 0, 100e3, &p);
    double pump = 100e3 / (4.184e6 * 10) * 40 * 6894.757 / 0.7;
    ck_assert_double_eq_tol(pump, 941.65, 0.01);
    ck_assert_double_eq_tol(p.chiller_w * p.liquid_cop, 100e3 + pump, 1e-6);
}
END_TEST

/* racks.cooling.air_oversupply: handlers running r times the flow the heat needs draw r times
 * the fans' power (the same pressure at r times the flow) and leave the pumps alone (the coils'
 * water follows the heat); every extra fan watt is heat the chiller rejects too. */
START_TEST(test_oversupplied_air_runs_more_fans)
{
    st_rack_cfg r = {.cooling = ST_COOLING_AIR, .air_supply_c = 24};
    st_plant_cooling_power one, more;
    st_plant_cooling_power_of(&r, 100e3, 0, &one);
    r.air_oversupply = 3.9; /* Upsite's 45 rooms: running capacity 3.9 times the IT load */
    st_plant_cooling_power_of(&r, 100e3, 0, &more);
    ck_assert_double_eq_tol(more.fans_w, 3.9 * one.fans_w, 1e-9 * more.fans_w);
    ck_assert_double_eq_tol(more.pumps_w, one.pumps_w, 1e-9);
    double extra = more.fans_w - one.fans_w;
    ck_assert_double_eq_tol(more.chiller_w - one.chiller_w, extra / one.air_cop, 1e-6);
    r.air_oversupply = 1; /* matched handlers: the default's fans */
    st_plant_cooling_power_of(&r, 100e3, 0, &more);
    ck_assert_double_eq_tol(more.fans_w, one.fans_w, 1e-9);
}
END_TEST

/* The transformers' and the UPS's losses are heat the air plant removes too: the plant's power
 * is that of the racks' air heat plus those losses. */
START_TEST(test_cooling_removes_the_electrical_rooms_heat)
{
    ran air;
    run_rack(&air, "", "kind: air, capacity: 45 kW, air_supply: 24 C", "", "");
    const st_plant_result *p = &air.run.plant;
    double elec = p->transformer_loss_w + p->ups.loss_w;
    ck_assert_double_gt(elec, 0);
    const st_rack_cfg *r = &st_scn_cluster(air.s)->racks;
    st_plant_cooling_power racks, all;
    st_plant_cooling_power_of(r, p->air_w, p->liquid_w, &racks);
    st_plant_cooling_power_of(r, p->air_w + elec, p->liquid_w, &all);
    ck_assert_double_eq_tol(p->cooling.total_w, all.total_w, 1e-9 * all.total_w);
    ck_assert_double_gt(p->cooling.total_w, racks.total_w + 0.1 * elec);
    ran_free(&air);
}
END_TEST

/* Each plant check, once passing and once failing. */
START_TEST(test_every_plant_audit_check_passes_and_fails)
{
#define AIR "kind: air, air_supply: 24 C"
#define LIQ "kind: liquid, liquid_fraction: 80%, coolant_supply: 35 C"
    static const struct {
        const char *check, *feed, *cooling, *facility, *audit;
        st_audit_status want;
    } cases[] = {
        {"rack feed against breaker", ", breaker: 100 A", LIQ, "", "", ST_AUDIT_PASS},
        {"rack feed against breaker", ", breaker: 60 A", LIQ, "", "", ST_AUDIT_FAIL},
        {"facility peak against capacity", "", LIQ, "  facility: { power_capacity: 1 MW }\n", "",
         ST_AUDIT_PASS},
        {"facility peak against capacity", "", LIQ, "  facility: { power_capacity: 30 kW }\n", "",
         ST_AUDIT_FAIL},
        {"power ramp (di/dt)", "", LIQ, "  facility: { ramp_limit: 1 GW/s }\n", "", ST_AUDIT_PASS},
        {"power ramp (di/dt)", "", LIQ, "  facility: { ramp_limit: 1 MW/s }\n", "", ST_AUDIT_FAIL},
        {"rack heat against cooling", "", LIQ, "", "", ST_AUDIT_PASS},
        {"rack heat against cooling", "", AIR, "", "", ST_AUDIT_FAIL},
        {"junction temperature", "", LIQ, "", "", ST_AUDIT_PASS},
        {"junction temperature", "", LIQ, "", "audit: { junction_limit: 70 C }\n", ST_AUDIT_FAIL},
        /* the rack's IT is about 39 kW */
        {"UPS load against rating", "", LIQ, "  facility: { ups: { rating: 1 MW } }\n", "",
         ST_AUDIT_PASS},
        {"UPS load against rating", "", LIQ, "  facility: { ups: { rating: 45 kW } }\n", "",
         ST_AUDIT_WARN},
        {"UPS load against rating", "", LIQ, "  facility: { ups: { rating: 1 W } }\n", "",
         ST_AUDIT_FAIL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ran r;
        run_rack(&r, cases[k].feed, cases[k].cooling, cases[k].facility, cases[k].audit);
        const st_audit *a = finding(&r, cases[k].check);
        ck_assert_msg(a != NULL, "case %zu: no '%s' finding", k, cases[k].check);
        ck_assert_msg(a->status == cases[k].want, "case %zu: '%s' is %s: %s", k, cases[k].check,
                      st_audit_status_name(a->status), a->message);
        ran_free(&r);
    }
    ran r; /* an unstated rating is sized to the peak: nothing to check */
    run_rack(&r, "", LIQ, "", "");
    ck_assert_ptr_null(finding(&r, "UPS load against rating"));
    ran_free(&r);
}
END_TEST

Suite *thermal_suite(void)
{
    Suite *s = suite_create("thermal");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_flow_equation_matches_a_hand_calculation);
    tcase_add_test(tc, test_air_past_capacity_throttles_and_slows_the_step_liquid_does_not);
    tcase_add_test(tc, test_throttling_never_draws_more_than_the_power_limit);
    tcase_add_test(tc, test_a_job_is_throttled_with_the_jobs_its_racks_reach_alone);
    tcase_add_test(tc, test_pue_of_liquid_below_1_15_and_of_air_near_the_industry);
    tcase_add_test(tc, test_pue_counts_the_transformers_loss);
    tcase_add_test(tc, test_air_pays_the_chilled_water_pumps);
    tcase_add_test(tc, test_chiller_cop_is_the_rated_one);
    tcase_add_test(tc, test_fan_work_is_chilled);
    tcase_add_test(tc, test_oversupplied_air_runs_more_fans);
    tcase_add_test(tc, test_cooling_removes_the_electrical_rooms_heat);
    tcase_add_test(tc, test_every_plant_audit_check_passes_and_fails);
    suite_add_tcase(s, tc);
    return s;
}
