/* The facility's UPS (models/plant/ups.c): White Paper 108's three loss terms against a hand
 * calculation, the default's flat 97%, the square-law term over a swinging load, 2N against N,
 * and the PUE counting the UPS on a whole-forecast rack. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "models/plant/ups.h"
#include "scenarios/scenario.h"

START_TEST(test_ups_loss_terms_match_a_hand_calculation)
{
    /* White Paper 108's example unit: 1 MW at 93% at full load, at 30% load. With 40% of the
     * full-load loss fixed and 10% square-law: 1e6 (1 / 0.93 - 1) = 75,268.8 W at full load,
     * times 0.4 + 0.5 x 0.3 + 0.1 x 0.09 = 0.559: 42,075.3 W. */
    double full = 1e6 * (1 / 0.93 - 1);
    double got = st_plant_ups_loss(1e6, 0.93, 0.4, 0.1, 0.3);
    ck_assert_double_eq_tol(got, full * 0.559, 1e-9 * full);
    ck_assert_double_eq_tol(got, 42075.27, 0.01);
    /* at no load only the fixed part is left; at full load the whole */
    ck_assert_double_eq_tol(st_plant_ups_loss(1e6, 0.93, 0.4, 0.1, 0), 0.4 * full, 1e-6);
    ck_assert_double_eq_tol(st_plant_ups_loss(1e6, 0.93, 0.4, 0.1, 1), full, 1e-6);
}
END_TEST

START_TEST(test_default_ups_is_a_flat_97_percent)
{
    /* Unstated: the Galaxy VS's 97%, all of it proportional, so the loss is the load's
     * (1 / 0.97 - 1) whatever the rating. */
    double w[4] = {100e3, 300e3, 200e3, 400e3};
    st_ups_cfg cfg = {0};
    st_plant_ups u;
    st_plant_ups_of(&cfg, w, 4, 10e3, &u);
    ck_assert_double_eq(u.efficiency, 0.97);
    ck_assert_double_eq_tol(u.rating_w, 410e3, 1e-9); /* sized to the peak carried */
    ck_assert_double_eq_tol(u.loss_w, 260e3 * (1 / 0.97 - 1), 1e-6);
    cfg.rating_w = 2e6;
    st_plant_ups_of(&cfg, w, 4, 10e3, &u);
    ck_assert_double_eq_tol(u.loss_w, 260e3 * (1 / 0.97 - 1), 1e-6);
    ck_assert_double_eq_tol(u.load, 260e3 / 2e6, 1e-12);
}
END_TEST

START_TEST(test_square_law_loss_is_the_mean_over_the_swing)
{
    /* A load swinging between 20% and 80% of a 1 MW rating loses more in its square-law term
     * than a steady 50%: the mean of x^2 is 0.34, not 0.25. */
    double swing[2] = {200e3, 800e3}, steady[2] = {500e3, 500e3};
    st_ups_cfg cfg = {.efficiency = 0.95, .square_law = 1, .rating_w = 1e6};
    st_plant_ups a, b;
    st_plant_ups_of(&cfg, swing, 2, 0, &a);
    st_plant_ups_of(&cfg, steady, 2, 0, &b);
    double full = 1e6 * (1 / 0.95 - 1);
    ck_assert_double_eq_tol(a.loss_w, full * 0.34, 1e-6);
    ck_assert_double_eq_tol(b.loss_w, full * 0.25, 1e-6);
}
END_TEST

START_TEST(test_2n_at_part_load_loses_more_than_n)
{
    /* White Paper 108's point: two systems each rated for the load share it at half their load,
     * and each pays its no-load loss. */
    double w[1] = {300e3};
    st_ups_cfg n = {.efficiency = 0.93, .no_load = 0.4, .rating_w = 1e6};
    st_ups_cfg two = n;
    two.redundancy = ST_UPS_2N;
    st_plant_ups a, b;
    st_plant_ups_of(&n, w, 1, 0, &a);
    st_plant_ups_of(&two, w, 1, 0, &b);
    double full = 1e6 * (1 / 0.93 - 1);
    ck_assert_double_eq_tol(a.loss_w, full * (0.4 + 0.6 * 0.3), 1e-6);
    ck_assert_double_eq_tol(b.loss_w, 2 * full * (0.4 + 0.6 * 0.15), 1e-6);
    ck_assert_int_eq(b.systems, 2);
    ck_assert_double_eq_tol(b.load, 0.15, 1e-12);
    ck_assert_double_gt(b.loss_w, a.loss_w);
}
END_TEST

/* One rack of four 8-GPU H100 servers run through the whole forecast, with facility keys. */
static void run_rack(const char *facility, st_scn **s, st_run *run)
{
    char yaml[1536];
    snprintf(yaml, sizeof yaml,
             "version: 1\nname: t\ncluster:\n  gpu: h100-sxm\n  nodes: 4\n"
             "  node: { base_power: 4.5 kW }\n  racks: { nodes_per_rack: 4 }\n%s"
             "workloads:\n  - { model: llama3-8b, gpus: 32, seq_len: 4096, global_batch: 128,\n"
             "      parallel: { tp: 2, pp: 1, dp: 16, zero: 1, sequence_parallel: true,\n"
             "                  recompute: selective }, steps: 1000 }\n",
             facility);
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", yaml, strlen(yaml), s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(*s),
                        .w = st_scn_workload(*s, 0),
                        .n = st_scn_workload_count(*s),
                        .audit = st_scn_audit(*s),
                        .seed = 1};
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, run, &err), 0);
    ck_assert_int_eq(run->has_plant, 1);
}

START_TEST(test_pue_counts_the_ups)
{
    st_scn *s;
    st_run run;
    run_rack("", &s, &run);
    const st_plant_result *p = &run.plant;
    /* the UPS carries the facility (IT and distribution losses) and the transformers' loss */
    double carried = p->it_mean_w + p->loss_mean_w + p->transformer_loss_w;
    ck_assert_double_eq_tol(p->ups.loss_w, carried * (1 / 0.97 - 1), 1e-6 * carried);
    double sum = p->it_mean_w + p->loss_mean_w + p->storage_loss_w + p->transformer_loss_w +
                 p->ups.loss_w + p->cooling.total_w;
    ck_assert_double_eq_tol(p->pue, sum / p->it_mean_w, 1e-12);
    double flat = p->pue;
    st_run_release(&run);
    st_scn_free(s);
    /* an oversized 2N system with a fixed loss: more loss, a higher PUE */
    run_rack("  facility:\n    ups: { efficiency: 96%, no_load: 40%, rating: 200 kW, "
             "redundancy: 2n }\n",
             &s, &run);
    p = &run.plant;
    ck_assert_int_eq(p->ups.systems, 2);
    ck_assert_double_eq(p->ups.rating_w, 200e3);
    ck_assert_double_gt(p->pue, flat);
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

Suite *ups_suite(void)
{
    Suite *s = suite_create("ups");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_ups_loss_terms_match_a_hand_calculation);
    tcase_add_test(tc, test_default_ups_is_a_flat_97_percent);
    tcase_add_test(tc, test_square_law_loss_is_the_mean_over_the_swing);
    tcase_add_test(tc, test_2n_at_part_load_loses_more_than_n);
    tcase_add_test(tc, test_pue_counts_the_ups);
    suite_add_tcase(s, tc);
    return s;
}
