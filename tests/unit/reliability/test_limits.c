/* The loader's ranges (models/config/limits.h) against the life model that sets them: a value
 * at the bound is one the model takes, and one just past it is one the model refuses. */
#include <check.h>
#include <math.h>

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

Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_span_is_two_to_the_61_nanoseconds);
    tcase_add_test(tc, test_the_life_model_takes_the_span_and_refuses_past_it);
    tcase_add_test(tc, test_the_smallest_weibull_shape_runs_and_a_smaller_one_overflows);
    suite_add_tcase(s, tc);
    return s;
}
