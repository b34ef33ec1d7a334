/* Statistics records: tallies, time-weighted means worked by hand, quantiles against known
 * values. */
#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "sim/stats.h"

START_TEST(test_tally_count_mean_min_max_and_variance)
{
    st_tally t;
    st_tally_init(&t);
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (int i = 0; i < 8; i++)
        st_tally_add(&t, x[i]);
    ck_assert_uint_eq(t.n, 8);
    ck_assert_double_eq_tol(st_tally_mean(&t), 5.0, 1e-12);
    ck_assert_double_eq(st_tally_min(&t), 2.0);
    ck_assert_double_eq(st_tally_max(&t), 9.0);
    ck_assert_double_eq_tol(st_tally_sum(&t), 40.0, 1e-9);
    ck_assert_double_eq_tol(st_tally_var(&t), 32.0 / 7.0, 1e-12); /* sum of squares 32, n-1 */
    ck_assert_double_eq_tol(st_tally_sd(&t), sqrt(32.0 / 7.0), 1e-12);
}
END_TEST

START_TEST(test_tally_keeps_variance_with_large_offset)
{
    st_tally t;
    st_tally_init(&t);
    for (int i = 0; i < 1000; i++)
        st_tally_add(&t, 1e9 + (i % 2 ? 1.0 : -1.0));
    ck_assert_double_eq_tol(st_tally_var(&t), 1000.0 / 999.0, 1e-6);
}
END_TEST

START_TEST(test_empty_tally_reads_zero)
{
    st_tally t;
    st_tally_init(&t);
    ck_assert_double_eq(st_tally_mean(&t), 0.0);
    ck_assert_double_eq(st_tally_min(&t), 0.0);
    ck_assert_double_eq(st_tally_max(&t), 0.0);
    ck_assert_double_eq(st_tally_var(&t), 0.0);
    st_tally_add(&t, 3.0);
    ck_assert_double_eq(st_tally_var(&t), 0.0);
}
END_TEST

START_TEST(test_time_weighted_mean_matches_hand_computation)
{
    /* Queue length 2 on [0, 10 s), 5 on [10 s, 30 s), 0 on [30 s, 40 s):
     * area 2*10 + 5*20 + 0*10 = 120 value-seconds over 40 s, mean 3. */
    st_timeavg a;
    st_timeavg_init(&a, 0, 2.0);
    st_timeavg_set(&a, 10 * ST_SEC, 5.0);
    st_timeavg_add(&a, 30 * ST_SEC, -5.0);
    ck_assert_double_eq_tol(st_timeavg_mean(&a, 40 * ST_SEC), 3.0, 1e-12);
    ck_assert_double_eq_tol(st_timeavg_integral(&a, 40 * ST_SEC), 120.0, 1e-9);
    /* Read earlier (but after the last change) and later: the open interval is closed on read. */
    ck_assert_double_eq_tol(st_timeavg_mean(&a, 30 * ST_SEC), 4.0, 1e-12);
    ck_assert_double_eq_tol(st_timeavg_mean(&a, 60 * ST_SEC), 2.0, 1e-12);
    ck_assert_double_eq(a.min, 0.0);
    ck_assert_double_eq(a.max, 5.0);
}
END_TEST

START_TEST(test_time_weighted_mean_ignores_zero_length_values)
{
    st_timeavg a;
    st_timeavg_init(&a, 100, 1.0);
    st_timeavg_set(&a, 200, 1000.0); /* held for no time at all */
    st_timeavg_set(&a, 200, 3.0);
    ck_assert_double_eq_tol(st_timeavg_mean(&a, 300), 2.0, 1e-12);
    ck_assert_double_eq(a.max, 1000.0);
}
END_TEST

START_TEST(test_time_weighted_mean_of_empty_interval_is_current_value)
{
    st_timeavg a;
    st_timeavg_init(&a, 50, 7.0);
    ck_assert_double_eq(st_timeavg_mean(&a, 50), 7.0);
}
END_TEST

START_TEST(test_time_weighted_change_back_in_time_is_a_bug)
{
    st_timeavg a;
    st_timeavg_init(&a, 0, 1.0);
    st_timeavg_set(&a, 10, 2.0);
    st_timeavg_set(&a, 9, 3.0);
}
END_TEST

START_TEST(test_quantiles_match_known_values)
{
    /* 1..10 inserted out of order; GSL's definition interpolates x[(n-1) q]. */
    st_samples s;
    st_samples_init(&s);
    const double x[] = {7, 3, 10, 1, 5, 9, 2, 8, 6, 4};
    for (int i = 0; i < 10; i++)
        st_samples_add(&s, x[i]);
    ck_assert_double_eq(st_samples_quantile(&s, 0.0), 1.0);
    ck_assert_double_eq(st_samples_quantile(&s, 1.0), 10.0);
    ck_assert_double_eq_tol(st_samples_quantile(&s, 0.5), 5.5, 1e-12);
    ck_assert_double_eq_tol(st_samples_quantile(&s, 0.9), 9.1, 1e-12);
    ck_assert_double_eq_tol(st_samples_quantile(&s, 0.25), 3.25, 1e-12);
    st_samples_release(&s);
}
END_TEST

/* Equal order statistics interpolate to themselves, and quantiles are ordered as their q: GSL's
 * (1 - t) a + t a falls an ulp below a for a = 12.089875090620835 at t = 0.3327, which put a
 * fuzzed service's p99 below its p50. */
START_TEST(test_quantiles_of_equal_values_are_exact_and_ordered)
{
    const double a = 12.089875090620835, t = 0.3326951853601291;
    ck_assert(memcmp(&(double){st_lerp(a, a, t)}, &a, sizeof a) == 0);
    ck_assert(st_lerp(1.0, 2.0, 0.0) == 1.0 && st_lerp(1.0, 2.0, 0.5) == 1.5);
    uint64_t x = 2463534242u;
    for (int trial = 0; trial < 2000; trial++) {
        st_samples s;
        st_samples_init(&s);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = 2 + x % 300;
        double v = 0.001 + (double)(x % 1000003) / 997.0;
        for (size_t i = 0; i < n; i++)
            st_samples_add(&s, v);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        st_samples_add(&s, v * (x % 2 ? 2.0 : 1.0)); /* now and then one larger */
        double p50 = st_samples_quantile(&s, 0.5), p90 = st_samples_quantile(&s, 0.9),
               p99 = st_samples_quantile(&s, 0.99);
        ck_assert(p50 == v);
        ck_assert(p50 <= p90 && p90 <= p99);
        st_samples_release(&s);
    }
}
END_TEST

/* Several quantiles at once by selection: each to the bit what a sort-based quantile gives. */
START_TEST(test_quantiles_at_once_match_one_at_a_time)
{
    static const double qs[][4] = {
        {0.5, 0.95, 0.99, 0.99}, {0.0, 0.0, 0.001, 1.0}, {0.25, 0.5, 0.75, 0.999}};
    uint64_t x = 88172645463325252u;
    for (size_t n = 0; n < 3000; n = n * 3 + 1)
        for (size_t set = 0; set < sizeof qs / sizeof *qs; set++) {
            st_samples a, b;
            st_samples_init(&a);
            st_samples_init(&b);
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                double v = x % 3 ? (double)(x % 50) : (double)(x % 100000) / 7; /* ties, spread */
                st_samples_add(&a, v);
                st_samples_add(&b, v);
            }
            double got[4];
            st_samples_quantiles(&a, qs[set], 4, got);
            for (int k = 0; k < 4; k++) {
                double want = st_samples_quantile(&b, qs[set][k]);
                ck_assert(memcmp(&got[k], &want, sizeof want) == 0);
            }
            ck_assert_double_eq(st_samples_quantile(&a, 1.0), st_samples_quantile(&b, 1.0));
            st_samples_release(&a);
            st_samples_release(&b);
        }
}
END_TEST

START_TEST(test_reserved_samples_are_not_moved_by_adds)
{
    st_samples s;
    st_samples_init(&s);
    st_samples_reserve(&s, 100);
    const double *v = s.v;
    for (int i = 100; i >= 1; i--)
        st_samples_add(&s, i);
    ck_assert_ptr_eq(s.v, v); /* the 100 fitted */
    ck_assert_uint_eq(s.cap, 100);
    ck_assert_double_eq_tol(st_samples_quantile(&s, 0.5), 50.5, 1e-12);
    st_samples_reserve(&s, 10); /* smaller: nothing */
    ck_assert_uint_eq(s.cap, 100);
    st_samples_add(&s, 0); /* past the reserve: it grows */
    ck_assert_uint_eq(s.n, 101);
    ck_assert_double_eq(st_samples_quantile(&s, 0.0), 0.0);
    st_samples_release(&s);
}
END_TEST

START_TEST(test_quantile_sees_samples_added_after_a_query)
{
    st_samples s;
    st_samples_init(&s);
    for (int i = 1; i <= 99; i++)
        st_samples_add(&s, i);
    ck_assert_double_eq(st_samples_quantile(&s, 0.5), 50.0);
    st_samples_add(&s, 0.0);
    st_samples_add(&s, -1.0);
    ck_assert_double_eq(st_samples_quantile(&s, 0.0), -1.0);
    ck_assert_double_eq(st_samples_quantile(&s, 0.5), 49.0);
    ck_assert_double_eq_tol(st_samples_quantile(&s, 0.99), 98.0, 1e-9);
    st_samples_release(&s);
    ck_assert_uint_eq(s.n, 0);
    ck_assert_double_eq(st_samples_quantile(&s, 0.5), 0.0);
}
END_TEST

START_TEST(test_quantile_outside_unit_interval_is_a_bug)
{
    st_samples s;
    st_samples_init(&s);
    st_samples_add(&s, 1.0);
    st_samples_quantile(&s, 1.5);
}
END_TEST

START_TEST(test_nan_observation_is_a_bug)
{
    st_tally t;
    st_tally_init(&t);
    st_tally_add(&t, NAN);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("tally");
    tcase_add_test(tc, test_tally_count_mean_min_max_and_variance);
    tcase_add_test(tc, test_tally_keeps_variance_with_large_offset);
    tcase_add_test(tc, test_empty_tally_reads_zero);
    tcase_add_test_raise_signal(tc, test_nan_observation_is_a_bug, SIGABRT);
    suite_add_tcase(s, tc);

    tc = tcase_create("timeavg");
    tcase_add_test(tc, test_time_weighted_mean_matches_hand_computation);
    tcase_add_test(tc, test_time_weighted_mean_ignores_zero_length_values);
    tcase_add_test(tc, test_time_weighted_mean_of_empty_interval_is_current_value);
    tcase_add_test_raise_signal(tc, test_time_weighted_change_back_in_time_is_a_bug, SIGABRT);
    suite_add_tcase(s, tc);

    tc = tcase_create("quantiles");
    tcase_add_test(tc, test_quantiles_match_known_values);
    tcase_add_test(tc, test_quantile_sees_samples_added_after_a_query);
    tcase_add_test(tc, test_reserved_samples_are_not_moved_by_adds);
    tcase_add_test(tc, test_quantiles_at_once_match_one_at_a_time);
    tcase_add_test(tc, test_quantiles_of_equal_values_are_exact_and_ordered);
    tcase_add_test_raise_signal(tc, test_quantile_outside_unit_interval_is_a_bug, SIGABRT);
    suite_add_tcase(s, tc);
    return s;
}
