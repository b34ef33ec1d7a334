/* Two-level checkpoints (models/reliability/levels.c): which failures an in-memory copy
 * survives, each level's optimum on hand-computable cases, the expected wall time, and the life
 * model restoring from the newest copy that survived a failure. */
#include <check.h>
#include <math.h>

#include "models/reliability/levels.h"
#include "models/reliability/lifetime.h"
#include "unit/check_util.h"

START_TEST(test_memory_loss_by_component_and_replicas)
{
    ck_assert(st_ckpt_mem_loss("leaf_switch", 0, 1e-6, 600) == 0);
    ck_assert(st_ckpt_mem_loss("spine_switch", 0, 1e-6, 600) == 0);
    ck_assert(st_ckpt_mem_loss("rack", 3, 1e-6, 600) == 1);
    ck_assert(st_ckpt_mem_loss("gpu", 0, 1e-6, 600) == 1);
    /* One peer: lost only when the peer also fails within the window, 1e-6/s x 600 s. */
    ASSERT_REL(st_ckpt_mem_loss("node", 1, 1e-6, 600), 6e-4, 1e-12);
    ASSERT_REL(st_ckpt_mem_loss("nic", 2, 1e-6, 600), 3.6e-7, 1e-12);
}
END_TEST

START_TEST(test_failures_split_between_the_levels)
{
    /* 16 GPUs failing 1/1600 h each (1/100 h together) on 2 nodes, and one leaf at 1/100 h.
     * Without replicas the GPUs' failures need the persistent copy and the leaf's do not. */
    st_life_class cl[2] = {{"gpu", 16, 1600 * 3600.0, 1}, {"leaf_switch", 1, 100 * 3600.0, 1}};
    double loss[2], m1, m2;
    st_ckpt_split_failures(cl, loss, 2, 2, 0, 600, &m1, &m2);
    ck_assert(loss[0] == 1 && loss[1] == 0);
    ASSERT_REL(m1, 100 * 3600.0, 1e-12);
    ASSERT_REL(m2, 100 * 3600.0, 1e-12);
    /* One peer copy: a GPU failure loses it with probability (rate per node x window), rate per
     * node = 16 / (1600 h) / 2 nodes = 1/200 h. */
    st_ckpt_split_failures(cl, loss, 2, 2, 1, 600, &m1, &m2);
    double p = 600 / (200 * 3600.0);
    ASSERT_REL(loss[0], p, 1e-12);
    ASSERT_REL(m2, 100 * 3600.0 / p, 1e-12);
    ASSERT_REL(m1, 1 / (1 / (100 * 3600.0) + (1 - p) / (100 * 3600.0)), 1e-12);
}
END_TEST

START_TEST(test_level_interval_is_daly_in_whole_units_above_its_commit)
{
    /* d = 2 s, M = 10^4 s: x = 1e-4, Daly = sqrt(4e4) (1 + 0.01/3 + 1e-4/9) - 2 = 198.669 s;
     * in units of 10 s that is 20 units, 200 s. */
    st_auto_rule r;
    st_ckpt_level_q q = {.cost_s = 2, .mtbf_s = 1e4, .unit_s = 10};
    ASSERT_REL(st_daly_interval(2, 1e4), 198.66888888888889, 1e-12);
    ASSERT_REL(st_ckpt_level_interval(&q, &r), 200, 1e-12);
    ck_assert_int_eq(r, ST_AUTO_DALY);
    /* A commit of 250 s: 25 units, said as the commit's. */
    q.commit_s = 250;
    ASSERT_REL(st_ckpt_level_interval(&q, &r), 250, 1e-12);
    ck_assert_int_eq(r, ST_AUTO_COMMIT);
    /* Nothing this level restores can fail: no cadence. */
    q.mtbf_s = INFINITY;
    ck_assert(st_ckpt_level_interval(&q, &r) == 0);
}
END_TEST

START_TEST(test_two_level_wall_by_hand)
{
    /* Without the memory level: Daly's expected wall time itself. */
    st_ckpt_wall_q q = {.work_s = 1e5,
                        .disk_every_s = 1000,
                        .disk_cost_s = 10,
                        .disk_restart_s = 600,
                        .disk_mtbf_s = 2e4};
    ASSERT_REL(st_ckpt_two_level_wall(&q), st_daly_expected_wall(1e5, 1000, 10, 600, 2e4), 1e-15);
    /* With it: work stretched by 1 + 0.1/10, Daly's wall of that, over
     * 1 - (10/2 + 0.1 + 60) / 1e4. */
    q.mem_every_s = 10;
    q.mem_cost_s = 0.1;
    q.mem_restart_s = 60;
    q.mem_mtbf_s = 1e4;
    double want = st_daly_expected_wall(1e5 * 1.01, 1000, 10, 600, 2e4) / (1 - 65.1 / 1e4);
    ASSERT_REL(st_ckpt_two_level_wall(&q), want, 1e-12);
    /* Planned stops of 600 s every 27.57 h (Llama 3's 47 in 54 days) take their share. */
    q.planned_every_s = 27.57 * 3600;
    q.planned_down_s = 600;
    ASSERT_REL(st_ckpt_two_level_wall(&q), want / (1 - 600 / (27.57 * 3600)), 1e-12);
}
END_TEST

/* A job of 2,000 10-second steps failing every 2,000 s on average, its persistent checkpoint
 * hourly; loss is its failures' chance of losing the in-memory copy taken every step. */
static st_life_result life_with(double mem_every_s, double loss)
{
    static st_life_class cl = {"gpu", 1, 2000, 1};
    st_life_spec s = {.step_s = 10,
                      .steps = 2000,
                      .ckpt_every_s = 3600,
                      .ckpt_stall_s = 1,
                      .ckpt_commit_s = 1,
                      .detect_s = 30,
                      .restart_s = 60,
                      .restore_s = 20,
                      .classes = &cl,
                      .n_classes = 1,
                      .mem_every_s = mem_every_s,
                      .mem_stall_s = mem_every_s > 0 ? 0.01 : 0,
                      .mem_restore_s = 1,
                      .mem_loss = &loss};
    st_life_result r;
    st_err err = {0};
    ck_assert_int_eq(st_life_run(&s, 42, 0, &r, &err), 0);
    return r;
}

START_TEST(test_failures_restore_from_the_newest_copy_that_survived)
{
    /* The copy survives every failure: each loses less than one snapshot interval of work. */
    st_life_result kept = life_with(10, 0);
    ck_assert_int_gt(kept.interruptions, 5);
    ck_assert_msg(kept.lost_work_s <= (double)kept.interruptions * 10.01 + 1e-6, "%g s lost",
                  kept.lost_work_s);
    /* Every failure loses it: the same life as no in-memory level (same failure draws), but
     * for the snapshots' stall. */
    st_life_result lost = life_with(10, 1), one = life_with(0, 1);
    ck_assert_int_eq(lost.interruptions, one.interruptions);
    ck_assert_msg(lost.lost_work_s > 10 * kept.lost_work_s, "%g s against %g s", lost.lost_work_s,
                  kept.lost_work_s);
    ck_assert(lost.goodput < one.goodput && one.goodput < kept.goodput);
    /* wall = work + lost + stall + downtime, the snapshots' stall inside the stall. */
    ASSERT_REL(kept.wall_s, 20000 + kept.lost_work_s + kept.ckpt_stall_s + kept.downtime_s, 1e-9);
    ck_assert(kept.ckpt_stall_s >= 2000 * 0.01 * (1 - 1e-9));
}
END_TEST

Suite *levels_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_memory_loss_by_component_and_replicas);
    tcase_add_test(tc, test_failures_split_between_the_levels);
    tcase_add_test(tc, test_level_interval_is_daly_in_whole_units_above_its_commit);
    tcase_add_test(tc, test_two_level_wall_by_hand);
    tcase_add_test(tc, test_failures_restore_from_the_newest_copy_that_survived);
    suite_add_tcase(s, tc);
    return s;
}
