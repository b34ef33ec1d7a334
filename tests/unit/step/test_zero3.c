/* ZeRO-3's two streams: on demand is the plain sum, prefetch hides what fits under compute and
 * leaves the first gather and the last reduce-scatter exposed, contention slows the compute it
 * overlaps by the stated factor, and prefetching never makes a pass longer. */
#include <check.h>
#include <math.h>

#include "models/step/zero3.h"
#include "sim/rng.h"

#define EPS 1e-12

static void uniform(st_z3_unit *u, int64_t n, double c, double g, double r)
{
    for (int64_t k = 0; k < n; k++)
        u[k] = (st_z3_unit){c, g, r};
}

/* On demand, every gather waits for the unit before it and every reduce-scatter queues ahead of
 * the next gather: the pass is the sum of everything, whatever the contention. */
START_TEST(test_on_demand_is_the_plain_sum)
{
    st_z3_unit u[5] = {
        {1.0, 0.25, 0}, {2.0, 0.5, 0.75}, {0.5, 3.0, 1.0}, {1.5, 0, 0.25}, {1, 1, 1}};
    double sum = 0;
    for (int k = 0; k < 5; k++)
        sum += u[k].compute_s + u[k].gather_s + u[k].reduce_s;
    ck_assert_double_eq_tol(st_z3_pass(u, 5, ST_Z3_ON_DEMAND, 0), sum, EPS);
    ck_assert_double_eq_tol(st_z3_pass(u, 5, ST_Z3_ON_DEMAND, 0.189), sum, EPS);
    ck_assert_double_eq_tol(st_z3_pass(u, 0, ST_Z3_ON_DEMAND, 0), 0, EPS);
}
END_TEST

/* Prefetched with compute longer than a gather and a reduce-scatter together and no contention,
 * only the first gather and the last reduce-scatter are exposed: g + n c + r, by hand. */
START_TEST(test_prefetch_hides_all_but_the_first_gather_and_the_last_reduce)
{
    st_z3_unit u[40];
    uniform(u, 40, 1.0, 0.375, 0.5);
    ck_assert_double_eq_tol(st_z3_pass(u, 40, ST_Z3_PREFETCH, 0), 0.375 + 40.0 + 0.5, EPS);
    uniform(u, 40, 1.0, 0.375, 0); /* a forward */
    ck_assert_double_eq_tol(st_z3_pass(u, 40, ST_Z3_PREFETCH, 0), 0.375 + 40.0, EPS);
}
END_TEST

/* When communication is the longer stream, it sets the pace: one stream of gathers and
 * reduce-scatters back to back, plus the last unit's compute after its gather. By hand for
 * a forward: n g + c. */
START_TEST(test_prefetch_is_paced_by_the_communication_stream_when_it_is_longer)
{
    st_z3_unit u[16];
    uniform(u, 16, 0.25, 1.0, 0);
    ck_assert_double_eq_tol(st_z3_pass(u, 16, ST_Z3_PREFETCH, 0), 16.0 + 0.25, EPS);
}
END_TEST

/* Two forward units, the second's gather (g < c) beside the first's compute: the first unit
 * runs slower by g s / (1 + s) (compute at 1 / (1 + s) of its rate for g seconds), so the pass is
 * g + 2c + g s / (1 + s). A gather longer than c (1 + s) slows the compute for all of it: c (1 +
 * s). */
START_TEST(test_contention_slows_the_compute_it_overlaps)
{
    double s = 0.25, g = 0.5, c = 1.0;
    st_z3_unit u[2] = {{c, g, 0}, {c, g, 0}};
    ck_assert_double_eq_tol(st_z3_pass(u, 2, ST_Z3_PREFETCH, s), g + 2 * c + g * s / (1 + s), EPS);
    /* A backward pair {c, g, r}: unit 0 computes beside unit 1's gather (g seconds), unit 1
     * beside unit 0's reduce-scatter (r seconds), and unit 1's reduce-scatter ends the pass:
     * g + 2c + (g + r) s / (1 + s) + r. */
    double r = 0.25;
    st_z3_unit w[2] = {{c, g, r}, {c, g, r}};
    ck_assert_double_eq_tol(st_z3_pass(w, 2, ST_Z3_PREFETCH, s),
                            g + 2 * c + (g + r) * s / (1 + s) + r, EPS);
}
END_TEST

/* Over random passes, prefetching is never longer than gathering on demand, at the preset
 * contention and at the paper's maximum (40%). */
START_TEST(test_prefetch_never_lengthens_a_pass)
{
    st_rng *r = st_rng_new(7, st_rng_tag("zero3"), 0, 0);
    st_z3_unit u[24];
    for (int trial = 0; trial < 2000; trial++) {
        int64_t n = 1 + (int64_t)(st_rng_uniform(r) * 23);
        for (int64_t k = 0; k < n; k++)
            u[k] = (st_z3_unit){st_rng_uniform(r), st_rng_uniform(r),
                                trial % 2 ? st_rng_uniform(r) : 0};
        double s = trial % 3 ? 0.189 : 0.4;
        double on = st_z3_pass(u, n, ST_Z3_PREFETCH, s), off = st_z3_pass(u, n, ST_Z3_ON_DEMAND, s);
        ck_assert_msg(on <= off + EPS, "trial %d: prefetch %.12g > on demand %.12g", trial, on,
                      off);
    }
    st_rng_free(r);
}
END_TEST

Suite *zero3_suite(void)
{
    Suite *s = suite_create("zero3");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_on_demand_is_the_plain_sum);
    tcase_add_test(tc, test_prefetch_hides_all_but_the_first_gather_and_the_last_reduce);
    tcase_add_test(tc, test_prefetch_is_paced_by_the_communication_stream_when_it_is_longer);
    tcase_add_test(tc, test_contention_slows_the_compute_it_overlaps);
    tcase_add_test(tc, test_prefetch_never_lengthens_a_pass);
    suite_add_tcase(s, tc);
    return s;
}
