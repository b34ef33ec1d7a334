/* The loader's ranges (models/config/limits.h) against the life model that sets them: a value
 * at the bound is one the model takes, and one just past it is one the model refuses; and the
 * shared value parser's messages, which state each bound. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/reliability/lifetime.h"
#include "sim/err.h"

START_TEST(test_span_is_two_to_the_61_nanoseconds)
{
    ck_assert(ST_LIM_SPAN_S * 1e9 == ldexp(1.0, 61));
    ck_assert(st_lim_span.max == ST_LIM_SPAN_S && st_lim_span.min == 0);
    /* The rate bound moves the largest size in exactly the span. */
    ck_assert_double_eq_tol(ST_LIM_BYTES / ST_LIM_MIN_RATE, ST_LIM_SPAN_S, 1e-6);
    /* A chain over the largest plan of the longest routes fits the span. */
    ck_assert(ST_LIM_LATENCY_S * ST_LIM_RANKS * ST_LIM_ROUTE_TERMS <= ST_LIM_SPAN_S * (1 + 1e-15));
}
END_TEST

/* One step of s seconds, no failures, with the detect time given. */
static int life_of(double step_s, double detect_s, double shape)
{
    st_life_class c = {.component = "gpu", .count = 1, .mtbf_s = 1e12, .shape = shape};
    st_life_spec s = {
        .step_s = step_s, .steps = 1, .detect_s = detect_s, .classes = &c, .n_classes = 1};
    st_life_result r;
    st_err e = {0};
    return st_life_run(&s, 1, 0, &r, &e);
}

START_TEST(test_the_life_model_takes_the_span_and_refuses_past_it)
{
    ck_assert_int_eq(life_of(ST_LIM_SPAN_S / 2, ST_LIM_SPAN_S, 1), 0);
    ck_assert_int_ne(life_of(ST_LIM_SPAN_S / 2, ST_LIM_SPAN_S * 1.001, 1), 0);
    ck_assert_int_eq(life_of(ST_LIM_SPAN_S, 0, 1), 0);
    ck_assert_int_ne(life_of(ST_LIM_SPAN_S * 1.001, 0, 1), 0);
}
END_TEST

START_TEST(test_the_smallest_weibull_shape_runs_and_a_smaller_one_overflows)
{
    ck_assert_int_eq(life_of(3600, 0, ST_LIM_MIN_WEIBULL_SHAPE), 0);
    ck_assert_int_eq(life_of(3600, 0, 0.0058), ST_ELIMIT);
    ck_assert(st_lim_shape.min == ST_LIM_MIN_WEIBULL_SHAPE);
}
END_TEST

Suite *limits_suite(void);

/* st_limit_parse, the one parser every source of a number shares: each failure's message. */
static void refused(const char *key, const char *text, const st_value_rule *r, int code,
                    const char *want)
{
    double v = -7;
    char why[256];
    ck_assert_int_eq(st_limit_parse(key, text, strlen(text), r, &v, why, sizeof why), code);
    ck_assert_str_eq(why, want);
    ck_assert(v == -7);
}

START_TEST(test_limit_parse_states_the_true_bound)
{
    st_value_rule t = {.dim = ST_DIM_TIME, .range = ST_R_POS, .lim = &st_lim_span};
    refused("--deadline", "1e308y", &t, ST_ELIMIT,
            "--deadline: 1e308y is beyond the longest duration the life model represents (at most "
            "73.12 y: 2^61 ns)");
    refused("detect", "1e999 s", &t, ST_ELIMIT,
            "detect: 1e999 s is beyond the longest duration the life model represents (at most "
            "73.12 y: 2^61 ns)");
    refused("detect", "0 s", &t, ST_ERANGE, "detect must be greater than zero, found '0 s'");
    refused("detect", "-1e999 s", &t, ST_ERANGE,
            "detect must be greater than zero, found '-1e999 s'");
    refused("detect", "5", &t, ST_EUNIT,
            "detect: missing unit: expected a time such as '30 s' or '15 min'");
    st_value_rule rate = {.dim = ST_DIM_BANDWIDTH, .range = ST_R_NONNEG, .lim = &st_lim_rate};
    refused("nic", "1 kbit/s", &rate, ST_ELIMIT,
            "nic: 1 kbit/s is below the slowest rate the models represent (at least 433.7 kB/s: 1 "
            "PB must move within 2^61 ns)");
    st_value_rule g = {.dim = ST_DIM_COUNT,
                       .range = ST_R_MIN1,
                       .whole = 1,
                       .lim = &st_lim_job_gpus,
                       .unit_flags = ST_UNIT_PLAIN};
    refused("gpus", "1.5", &g, ST_EINVAL, "gpus: expected a whole number, found '1.5'");
    refused("gpus", "8K", &g, ST_EUNIT, "gpus: expected a plain number, found '8K'");
    refused("gpus", "0", &g, ST_ERANGE, "gpus must be at least 1, found '0'");
    double v = 0;
    ck_assert_int_eq(st_limit_parse("gpus", "1000000000", 10, &g, &v, NULL, 0), 0);
    ck_assert_double_eq(v, 1e9);
}
END_TEST

/* A plain column's scale (Muri's milliseconds) applies before the bound: 2^61 ns in ms is taken,
 * one millisecond more is not. */
START_TEST(test_limit_parse_scales_plain_numbers_before_the_bound)
{
    st_value_rule ms = {.dim = ST_DIM_TIME,
                        .range = ST_R_NONNEG,
                        .lim = &st_lim_run,
                        .unit_flags = ST_UNIT_PLAIN,
                        .scale = 1e-3};
    double v = 0;
    ck_assert_int_eq(st_limit_parse("submit_time", "2305843009213", 13, &ms, &v, NULL, 0), 0);
    ck_assert_double_eq_tol(v, 2305843009.213, 1e-3);
    ck_assert_int_eq(st_limit_parse("submit_time", "2305843009215", 13, &ms, &v, NULL, 0),
                     ST_ELIMIT);
    ck_assert_int_eq(st_limit_parse("submit_time", "90 s", 4, &ms, &v, NULL, 0), ST_EUNIT);
}
END_TEST

Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_span_is_two_to_the_61_nanoseconds);
    tcase_add_test(tc, test_limit_parse_states_the_true_bound);
    tcase_add_test(tc, test_limit_parse_scales_plain_numbers_before_the_bound);
    tcase_add_test(tc, test_the_life_model_takes_the_span_and_refuses_past_it);
    tcase_add_test(tc, test_the_smallest_weibull_shape_runs_and_a_smaller_one_overflows);
    suite_add_tcase(s, tc);
    return s;
}
