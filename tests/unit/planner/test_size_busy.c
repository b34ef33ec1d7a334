/* The time a sizing row's GPUs spend stepping (planner/size_life.c, st__size_life_busy_s): the
 * work and the work the failures make it redo, the same expected wall time with every save,
 * restart and planned stop free. The rest of the time to train its GPUs rest, as `run` counts a
 * job's energy (docs/guide/sizing.md). */
#include <check.h>
#include <math.h>

#include "models/reliability/interval.h"
#include "planner/size_life.h"

#define CLOSE(a, b) ck_assert_double_lt(fabs((double)(a) - (double)(b)), 1e-9 * fabs((double)(b)))

/* Nothing fails: the work alone. */
START_TEST(test_without_failures_the_work_alone)
{
    st__size_life l = {0};
    CLOSE(st__size_life_busy_s(&l, 86400, 3600, 0), 86400);
}
END_TEST

/* Without checkpoints every interruption loses all the work done: Daly's wall time with a
 * single interval of the whole work and no restart, M (e^(W/M) - 1), planned stops among the
 * interruptions. */
START_TEST(test_without_checkpoints_every_interruption_loses_the_work)
{
    st__size_life l = {.on = 1, .mtbf_s = 10 * 86400.0, .restart_s = 600};
    double W = 86400, M = l.mtbf_s;
    CLOSE(st__size_life_busy_s(&l, W, 0, 0), M * expm1(W / M));
    l.planned_every_s = 5 * 86400.0;
    M = 1 / (1 / l.mtbf_s + 1 / l.planned_every_s);
    CLOSE(st__size_life_busy_s(&l, W, 0, 0), M * expm1(W / M));
}
END_TEST

/* With a persistent checkpoint every tau: Daly's wall at tau with the save, restart and restore
 * free, which is the work plus half an interval lost per failure to first order; more than the
 * work, less than the time to train with those costs, and neither planned stops (which lose
 * nothing) nor a dearer restart move it. */
START_TEST(test_with_checkpoints_the_work_and_its_rework)
{
    st__size_life l = {
        .on = 1, .has_ckpt = 1, .mtbf_s = 86400, .restart_s = 900, .restore_s = 300, .stall_s = 20};
    l.plan.cost_s = 20;
    l.plan.disk_mtbf_s = l.mtbf_s;
    l.plan.mem_mtbf_s = INFINITY;
    double W = 30 * 86400.0, tau = 3600;
    double busy = st__size_life_busy_s(&l, W, tau, 0);
    CLOSE(busy, st_daly_expected_wall(W, tau, 0, 0, l.mtbf_s));
    ck_assert_double_gt(busy, W * (1 + 0.4 * tau / l.mtbf_s));
    ck_assert_double_lt(busy, st_daly_expected_wall(W, tau, l.plan.cost_s, l.restart_s, l.mtbf_s));
    l.planned_every_s = 7 * 86400.0, l.planned_down_s = 1800;
    l.restart_s = 3600;
    CLOSE(st__size_life_busy_s(&l, W, tau, 0), busy);
}
END_TEST

Suite *size_busy_suite(void)
{
    Suite *s = suite_create("size_busy");
    TCase *tc = tcase_create("busy");
    tcase_add_test(tc, test_without_failures_the_work_alone);
    tcase_add_test(tc, test_without_checkpoints_every_interruption_loses_the_work);
    tcase_add_test(tc, test_with_checkpoints_the_work_and_its_rework);
    suite_add_tcase(s, tc);
    return s;
}
