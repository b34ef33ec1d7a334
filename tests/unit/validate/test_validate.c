/* The validation harnesses: every fabric case runs and the calibration rows reproduce their
 * constants, Daly's examples pass, set summaries count, average and judge only what they should,
 * and a folder without cases is refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"
#include "validate/validate_internal.h"

START_TEST(test_fabric_validation_rows_run_and_calibration_rows_reproduce_their_constants)
{
    st_valid_harness *h = st_valid_fabric_new();
    size_t n = st_valid_count(h), kinds[3] = {0};
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        const st_valid_row *r;
        st_diag d = {0};
        st_err err = {0};
        ck_assert_int_eq(st_valid_case(h, i, &r, &d, &err), 0);
        st_valid_row a = *r;
        ck_assert_int_eq(st_valid_case(h, i, &r, &d, &err), 0);
        ck_assert_double_eq(a.predicted, r->predicted);
        ck_assert(a.predicted > 0 && a.published > 0 && a.note && a.source[0] && a.algo[0] &&
                  a.proto[0]);
        ck_assert_str_eq(a.set, "fabric");
        ck_assert_double_eq_tol(a.error, a.predicted / a.published - 1, 1e-12);
        kinds[a.kind]++;
        /* A point that sets one constant reproduces it; a sweep's points (named by their size
         * in MiB) set NVLS's chunk constants together, within the fit's 3.1%, and the all-to-all
         * regimes within 5% (Blackwell's latencies fitted with Hopper's shares held) */
        double tol = strstr(a.name, "a2a") ? 0.05 : strstr(a.name, "MiB") ? 0.032 : 0.01;
        if (a.kind == ST_VALID_CALIBRATION)
            ck_assert_msg(a.pass && fabs(a.error) < tol, "%s: %g", a.name, a.error);
    }
    ck_assert_uint_gt(kinds[ST_VALID_CALIBRATION], 0);
    ck_assert_uint_gt(kinds[ST_VALID_VALIDATION], kinds[ST_VALID_CALIBRATION]);
    const st_valid_set *sets;
    ck_assert_uint_eq(st_valid_sets(h, &sets), 1);
    ck_assert_int_eq(sets[0].rows, (int)kinds[ST_VALID_VALIDATION]);
    const st_valid_row *r;
    st_diag d = {0};
    st_err err = {0};
    ck_assert_int_eq(st_valid_case(h, n, &r, &d, &err), ST_EINVAL);
    ck_assert_str_eq(st_valid_kind_name(ST_VALID_REFERENCE), "reference");
    st_valid_harness_free(h);
}
END_TEST

START_TEST(test_daly_examples_are_within_one_percent)
{
    st_valid_harness *h = st_valid_daly_new();
    for (size_t i = 0; i < st_valid_count(h); i++) {
        const st_valid_row *r;
        st_diag d = {0};
        st_err err = {0};
        ck_assert_int_eq(st_valid_case(h, i, &r, &d, &err), 0);
        ck_assert_int_eq(r->bound_kind, ST_VALID_BOUND_RELATIVE);
        ck_assert_msg(r->pass && fabs(r->error) <= 0.01, "%s: %g", r->name, r->error);
    }
    const st_valid_set *sets;
    ck_assert_uint_eq(st_valid_sets(h, &sets), 1);
    ck_assert_str_eq(sets[0].name, "daly");
    ck_assert_int_eq(sets[0].passed, sets[0].rows);
    ck_assert_int_eq(sets[0].missed, 0);
    st_valid_harness_free(h);
}
END_TEST

/* Hand-made rows, to check the summaries on known numbers. */
static const st_valid_row fake[] = {
    {.set = "a", .kind = ST_VALID_VALIDATION, .fits = 1, .pass = 1, .error = 0.01},
    {.set = "b", .kind = ST_VALID_VALIDATION, .fits = 1, .pass = 1, .error = -0.04},
    {.set = "a", .kind = ST_VALID_VALIDATION, .fits = 1, .pass = 1, .error = -0.03},
    {.set = "a", .kind = ST_VALID_CALIBRATION, .fits = 1, .pass = 0, .error = 0.50},
    {.set = "a",
     .kind = ST_VALID_VALIDATION,
     .fits = 1,
     .pass = 1,
     .error = 0.9,
     .bound_kind = ST_VALID_BOUND_FACTOR},
    {.set = "a", .kind = ST_VALID_VALIDATION, .fits = 1, .pass = 1, .error = 0.06},
    {.set = "b", .kind = ST_VALID_VALIDATION, .fits = 0, .pass = 0},
};

static int run_fake(const st_valid_harness *h, size_t i, st_valid_row *row, st_diag *d, st_err *err)
{
    (void)h, (void)d, (void)err;
    *row = fake[i];
    return 0;
}

static st_valid_goal fake_goal(const char *set)
{
    return (st_valid_goal){.mean = INFINITY, .median = strcmp(set, "a") == 0 ? 0.02 : 1, .max = 1};
}

static const st__valid_ops fake_ops = {.run = run_fake, .goal = fake_goal};

START_TEST(test_set_summaries_count_validation_rows_and_judge_against_the_goal)
{
    size_t n = sizeof fake / sizeof fake[0];
    st_valid_harness *h = st__valid_harness_new(&fake_ops, n);
    for (size_t i = 0; i < n; i++) {
        const st_valid_row *r;
        st_diag d = {0};
        st_err err = {0};
        ck_assert_int_eq(st_valid_case(h, i, &r, &d, &err), 0);
    }
    const st_valid_set *s;
    ck_assert_uint_eq(st_valid_sets(h, &s), 2);
    /* Set a: the calibration row does not count, the factor-bound row counts but has no
     * relative error; |error| 0.01, 0.03, 0.06 give a median 0.03 over the goal 0.02. */
    ck_assert_str_eq(s[0].name, "a");
    ck_assert_int_eq(s[0].rows, 4);
    ck_assert_int_eq(s[0].passed, 4);
    ck_assert_int_eq(s[0].n_err, 3);
    ck_assert_double_eq_tol(s[0].mean_abs, 0.1 / 3, 1e-12);
    ck_assert_double_eq_tol(s[0].median_abs, 0.03, 1e-12);
    ck_assert_double_eq_tol(s[0].max_abs, 0.06, 1e-12);
    ck_assert_int_eq(s[0].missed, 1);
    /* Set b: within its goal on the one row that fits, yet missed for the one that does not. */
    ck_assert_str_eq(s[1].name, "b");
    ck_assert_int_eq(s[1].rows, 2);
    ck_assert_int_eq(s[1].no_fit, 1);
    ck_assert_int_eq(s[1].n_err, 1);
    ck_assert_double_eq_tol(s[1].median_abs, 0.04, 1e-12);
    ck_assert_int_eq(s[1].missed, 1);
    st_valid_harness_free(h);
}
END_TEST

/* Each run a split calibrates on gets its residual. Megatron-Bridge's GB200 rows at their
 * fewest GPUs: two DeepSeek-V3 BF16 runs and three Qwen3-30B FP8 runs (one job at three
 * releases). Leaving one out, the others alone fit no factor in 0.5-2, and that run's residual
 * was dropped (one of two, one of three), the band built without its worst. */
START_TEST(test_a_split_keeps_the_residual_of_every_run_it_calibrates_on)
{
    st_valid_split *sp = NULL;
    size_t n = 0;
    st_diag d = {0};
    st_err err = {0};
    ck_assert_int_eq(
        st_valid_splits(ST_SOURCE_DIR "/scenarios/checks/bridge-moe", &sp, &n, &d, &err), 0);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(sp[i].gpu, "gb200") != 0 || sp[i].refused)
            continue;
        ck_assert_int_ge(sp[i].n_cal, 2);
        ck_assert_int_eq(sp[i].n_own, sp[i].n_cal);
        for (int r = 0; r < sp[i].n_own; r++)
            ck_assert(isfinite(sp[i].own[r]) && sp[i].own[r] > 0);
        seen++;
    }
    ck_assert_int_eq(seen, 2);
    free(sp);
}
END_TEST

START_TEST(test_a_folder_without_cases_is_refused)
{
    st_valid_harness *h = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_valid_step_new(ST_SOURCE_DIR "/tests/unit", &h, &err), ST_ENOTFOUND);
    ck_assert_ptr_null(h);
    ck_assert_ptr_nonnull(strstr(err.msg, "no case files in"));
    ck_assert_int_eq(st_valid_life_new(ST_SOURCE_DIR "/no-such-folder", &h, &err), ST_ENOTFOUND);
    ck_assert_ptr_null(h);
    st_valid_harness_free(NULL);
}
END_TEST

Suite *validate_suite(void)
{
    Suite *s = suite_create("validate");
    TCase *tc = tcase_create("validate");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc,
                   test_fabric_validation_rows_run_and_calibration_rows_reproduce_their_constants);
    tcase_add_test(tc, test_daly_examples_are_within_one_percent);
    tcase_add_test(tc, test_set_summaries_count_validation_rows_and_judge_against_the_goal);
    tcase_add_test(tc, test_a_split_keeps_the_residual_of_every_run_it_calibrates_on);
    tcase_add_test(tc, test_a_folder_without_cases_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
