/* The slowest of a job's GPUs (models/silicon/variability.h): Blom's expected maximum against
 * Harter's exact table, and the straggler factor's edges; then the step model's use of it (the
 * kernels at the slowest GPU's pace, the wait split out of compute) and the loader's key and
 * bound (docs/models/stragglers.md). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/variability.h"
#include "models/step/step.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"

/* H. L. Harter, "Expected Values of Normal Order Statistics", Biometrika 48 (1961), the largest
 * of n: exact to 4 decimals. Blom's approximation is within 0.6% of each from n = 10 up; at
 * n = 2 (exactly 1/sqrt(pi) = 0.5642) it reads 0.589, 4.5% high. */
START_TEST(test_expected_max_matches_harters_table)
{
    static const struct {
        int64_t n;
        double e;
    } t[] = {{10, 1.5388}, {100, 2.5076}, {1000, 3.2414}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        ASSERT_REL(st_expected_max_normal(t[i].n), t[i].e, 0.006);
    ASSERT_REL(st_expected_max_normal(2), 0.5642, 0.05);
    /* docs/models/stragglers.md: 3.956 at 16,384 GPUs, a 2% spread costing 7.9% */
    ck_assert_double_eq_tol(st_expected_max_normal(16384), 3.956, 5e-4);
    ck_assert_double_eq_tol(st_straggler_factor(0.02, 16384) - 1, 0.079, 5e-4);
    ck_assert_double_eq(st_expected_max_normal(1), 0);
    ck_assert_double_eq(st_expected_max_normal(0), 0);
    /* more GPUs, a slower slowest one */
    double last = 0;
    for (int64_t n = 2; n <= 1 << 20; n *= 4) {
        double e = st_expected_max_normal(n);
        ck_assert(e > last);
        last = e;
    }
}
END_TEST

START_TEST(test_straggler_factor_edges)
{
    ck_assert_double_eq(st_straggler_factor(0, 16384), 1);
    ck_assert_double_eq(st_straggler_factor(0.02, 1), 1);
    ck_assert_double_eq(st_straggler_factor(0.02, 1000), 1 + 0.02 * st_expected_max_normal(1000));
}
END_TEST

static st_scn *load(const char *yaml)
{
    st_scn *s = NULL;
    st_diag d = {0};
    int rc = st_scn_load_buffer("variability.yaml", yaml, strlen(yaml), &s, &d);
    ck_assert_msg(rc == 0, "load: %s", d.n ? d.items[0].msg : "?");
    return s;
}

#define SCN(cv)                                                                                    \
    "version: 1\n"                                                                                 \
    "cluster: { gpu: h100-sxm, nodes: 16" cv " }\n"                                                \
    "workloads:\n"                                                                                 \
    "  - { name: ft, model: llama3-8b, gpus: 128, global_batch: 256,\n"                            \
    "      parallel: { tp: 4, pp: 2, dp: 16, sequence_parallel: true } }\n"

static st_step_result step_of(st_scn *s)
{
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_step_ctx_new(st_scn_cluster(s), &x, &err), 0);
    st_step_result r;
    ck_assert_msg(st_step_run(x, st_scn_workload(s, 0), 1, &r, NULL, &err) == 0, "%s", err.msg);
    st_step_ctx_free(x);
    return r;
}

/* With a 2% spread the 128 GPUs' compute-bound kernels run at the slowest one's clock, 1 + 0.02
 * E[max of 128] slower (memory-bound ones at HBM's pace, as before): the breakdown's compute
 * stays the mean GPU's (as without the spread, within 0.1%: the embedding and output layer are
 * split at the layers' share), the difference is the wait, and the parts still add up. */
START_TEST(test_step_waits_for_the_slowest_gpu)
{
    st_scn *a = load(SCN("")), *b = load(SCN(", variability: { gpu_speed_cv: 2% }"));
    st_step_result r0 = step_of(a), r1 = step_of(b);
    double f = st_straggler_factor(0.02, 128);
    ck_assert_double_eq(r0.b.straggler_s, 0);
    ck_assert(r1.step_time_s > r0.step_time_s);
    ASSERT_REL(r1.b.compute_s, r0.b.compute_s, 1e-3);
    ck_assert(r1.b.straggler_s > 0 && r1.b.straggler_s < r0.b.compute_s * (f - 1) * (1 + 1e-9));
    const st_step_breakdown *k = &r1.b;
    ASSERT_REL(k->compute_s + k->tp_comm_s + k->pp_comm_s + k->dp_comm_exposed_s + k->bubble_s +
                   k->optimizer_s + k->straggler_s,
               r1.step_time_s, 1e-6);
    ck_assert_double_eq(st_scn_cluster(b)->variability.gpu_speed_cv, 0.02);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

START_TEST(test_a_spread_past_the_bound_is_refused_at_its_value)
{
    const char *y = SCN(", variability: { gpu_speed_cv: 30% }");
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_ne(st_scn_load_buffer("variability.yaml", y, strlen(y), &s, &d), 0);
    ck_assert_ptr_null(s);
    ck_assert(d.n >= 1);
    ck_assert_int_eq(d.items[0].loc.line, 2);
    ck_assert_msg(strstr(d.items[0].msg, "speed spread") != NULL, "%s", d.items[0].msg);
}
END_TEST

Suite *variability_suite(void)
{
    Suite *s = suite_create("variability");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_expected_max_matches_harters_table);
    tcase_add_test(tc, test_straggler_factor_edges);
    tcase_add_test(tc, test_step_waits_for_the_slowest_gpu);
    tcase_add_test(tc, test_a_spread_past_the_bound_is_refused_at_its_value);
    suite_add_tcase(s, tc);
    return s;
}
