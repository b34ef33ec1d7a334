/* Neighbours' traffic: on scenarios/examples/neighbours.yaml (eight 8-GPU servers, two to a leaf,
 * 2:1 oversubscribed uplinks) `a` and `b` each span two leaves and share leaf 1's uplinks; each
 * runs slower while the other runs than its own step alone gives, and ends later than its
 * life alone; `pin`, inside one leaf, is untouched. */
#include <check.h>
#include <string.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

START_TEST(test_two_cross_leaf_jobs_are_each_slower_together_than_alone)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/neighbours.yaml", &s, &d),
                     0);
    st_run_spec sp = {.c = st_scn_cluster(s),
                      .w = st_scn_workload(s, 0),
                      .n = st_scn_workload_count(s),
                      .sched = st_scn_sched(s),
                      .seed = st_scn_seed(s)};
    st_run r;
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &r, &err) == 0, "forecast: %s", err.msg);
    const st_forecast *pin = &r.f[0], *a = &r.f[1], *b = &r.f[2];
    ck_assert(pin->has_end && a->has_end && b->has_end);
    /* both across leaves: servers 1-2 and 3-4, two to a leaf */
    ck_assert_int_ne(a->gpus[0] / 16, a->gpus[15] / 16);
    ck_assert_int_ne(b->gpus[0] / 16, b->gpus[15] / 16);
    ck_assert_msg(a->slowest_rate < 0.99 && b->slowest_rate < 0.99, "rates %.6g %.6g",
                  a->slowest_rate, b->slowest_rate);
    ck_assert_msg(a->end_s > a->start_s + a->life.wall_s + 1, "a ends %.9g, alone %.9g", a->end_s,
                  a->start_s + a->life.wall_s);
    ck_assert_msg(b->end_s > b->start_s + b->life.wall_s + 1, "b ends %.9g, alone %.9g", b->end_s,
                  b->start_s + b->life.wall_s);
    /* pin's traffic never leaves its node, and nobody's crosses its links: its own run time
     * (to the cluster engine's nanosecond tick, to which its run time is rounded) */
    ck_assert_double_eq(pin->slowest_rate, 1);
    ck_assert_double_eq_tol(pin->end_s, pin->start_s + pin->life.wall_s, 1e-9);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *neighbours_suite(void)
{
    Suite *s = suite_create("neighbours");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_two_cross_leaf_jobs_are_each_slower_together_than_alone);
    suite_add_tcase(s, tc);
    return s;
}
