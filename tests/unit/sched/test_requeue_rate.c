/* Policies under the run's rates and failures: EASY backfill reserves for the head by the slowed
 * running jobs' real ends (a job at rate r does its remaining run time in that over r);
 * fair-share keeps a job requeued after a failure in its arrival place; tiresias puts such a job
 * back in Q0 with its queue's bookkeeping, and runs it to the end. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/sched/cluster.h"
#include "models/sched/outage.h"

/* Job 0 runs at a tenth of its speed (a neighbour's traffic), every other at 1. */
static double slow_job0(void *ctx, size_t job, double now_s)
{
    (void)ctx;
    (void)now_s;
    return job == 0 ? 0.1 : 1;
}

/* One 8-GPU node. A (2 GPUs, 100 s, at rate 0.1: it ends at 1000) and C (4 GPUs, 500 s) start
 * at 0; the head H (6 GPUs) arrives at 1 and gets its reservation at C's end, 500, with no
 * extra GPU; B (2 GPUs, 600 s) at 2 would end past it. Taking A's 100 s as wall time put A's end
 * at about 101, so 2 extra GPUs, B started and H waited for B until 602. */
START_TEST(test_backfill_reserves_by_the_slowed_end)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_cluster_job jobs[] = {{0, 100, 100, 2, 0, -1},
                             {0, 500, 500, 4, 0, -1},
                             {1, 10, 10, 6, 0, -1},
                             {2, 600, 600, 2, 0, -1}};
    st_cluster_spec sp = {.c = &c, .policy = "backfill", .jobs = jobs, .n = 4, .rate = slow_job0};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_double_eq(r.job[0].end_s, 1000);
    ck_assert_double_eq(r.job[2].start_s, 500);
    ck_assert_double_ge(r.job[3].start_s, 510);
    st_cluster_result_release(&r);
}
END_TEST

/* srtf ranks running jobs by their remaining run time at every pick: A (4 GPUs, 400 s, rate
 * 0.1) and C (4 GPUs, 600 s) run from 0, A first by its 400 s; at 300 A has 370 s left and C
 * 300 s. W (4 GPUs, 350 s) arrives at 300 and ranks between them: A is preempted, and C ends at
 * 600 (before: the order kept from the starts put A before C, and C was preempted). */
START_TEST(test_srtf_preempts_the_slowed_job)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_cluster_job jobs[] = {
        {0, 400, 400, 4, 0, -1}, {0, 600, 600, 4, 0, -1}, {300, 350, 350, 4, 0, -1}};
    st_cluster_spec sp = {.c = &c, .policy = "srtf", .jobs = jobs, .n = 3, .rate = slow_job0};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    ck_assert_int_eq(r.job[1].preemptions, 0);
    ck_assert_double_eq(r.job[1].end_s, 600);
    ck_assert_double_eq(r.job[2].start_s, 300);
    st_cluster_result_release(&r);
}
END_TEST

/* One 8-GPU node under fair-share without quotas (every job borrows, in arrival order). X (8
 * GPUs, 1000 s) runs from 0, Y (8 GPUs) arrives at 10; the node fails while X runs. Once it is
 * repaired, X, first to arrive, starts again before Y (before: its requeue gave it a new,
 * later place, and Y went first). */
START_TEST(test_fair_share_keeps_a_failed_jobs_place)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 8, 0, 8, 500, 50, {0}, NULL};
    st_outage_spec os = {&oc, 1, 0, 0};
    st_cluster_job jobs[] = {{0, 1000, 1000, 8, 0, -1}, {10, 100, 100, 8, 0, -1}};
    for (uint64_t seed = 1; seed < 400; seed++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = "fair-share",
                              .jobs = jobs,
                              .n = 2,
                              .seed = seed,
                              .outages = &os,
                              .keep_segments = 1};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        int hit =
            r.n_outage > 0 && r.outage[0].start_s > 10 && r.outage[0].start_s < 1000 && r.n_seg > 1;
        if (hit) {
            ck_assert_double_eq(r.seg[1].start_s, r.outage[0].end_s);
            ck_assert_msg(r.seg[1].job == 0, "job %zu went first after the repair", r.seg[1].job);
        }
        st_cluster_result_release(&r);
        if (hit)
            return;
    }
    ck_abort_msg("no seed below 400 fails the node between 10 s and 1000 s");
}
END_TEST

/* tiresias with two queues split at 100 GPU-seconds, one 1-GPU job of 1,000 s without
 * checkpoints on a 1-GPU node that fails. A first failure after 100 s (the job in Q1) rolls it
 * back to 0: it rejoins Q0, and its queue must say so. A second failure while it is back in Q0
 * then leaves it listed once; it finishes, and so does a later job (at 10^6 s, so that the run
 * goes on after the first one's end). Before, the stale queue index left a copy of the job
 * listed after its finish, and the next pick tried to start a finished job. */
START_TEST(test_tiresias_requeues_a_failed_job_to_q0)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 1, .nvlink_domain = 1};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 1, 0, 1, 300, 10, {0}, NULL};
    st_outage_spec os = {&oc, 1, 0, 0};
    st_sched_cfg cfg = {.policy = "tiresias", .preemption = -1};
    cfg.tiresias = (st_tiresias_cfg){.queues = 2, .limit_gpu_s = {100}, .promote_knob = 0};
    st_cluster_job jobs[] = {{0, 1000, 1000, 1, 0, -1}, {1e6, 10, 10, 1, 0, -1}};
    int found = 0;
    for (uint64_t seed = 1; seed < 2000 && !found; seed++) {
        st_cluster_spec sp = {.c = &c,
                              .sched = &cfg,
                              .jobs = jobs,
                              .n = 2,
                              .seed = seed,
                              .outages = &os,
                              .keep_segments = 1};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        found = r.n_outage > 1 && r.outage[0].start_s > 101 &&
                r.outage[1].start_s > r.outage[0].end_s &&
                r.outage[1].start_s < r.outage[0].end_s + 99 &&
                r.outage[1].start_s < r.job[0].end_s;
        if (found) {
            ck_assert_int_eq(r.job[0].state, ST_CJ_FINISHED);
            ck_assert_int_eq(r.job[1].state, ST_CJ_FINISHED);
            ck_assert_int_ge(r.job[0].interruptions, 2);
            ck_assert_double_eq(r.job[1].start_s, 1e6);
            ck_assert_int_eq(r.st.free_at_end, 1);
        }
        st_cluster_result_release(&r);
    }
    ck_assert_msg(found, "no seed below 2000 fails the node twice as the case needs");
}
END_TEST

Suite *requeue_rate_suite(void)
{
    Suite *s = suite_create("requeue_rate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_backfill_reserves_by_the_slowed_end);
    tcase_add_test(tc, test_srtf_preempts_the_slowed_job);
    tcase_add_test(tc, test_fair_share_keeps_a_failed_jobs_place);
    tcase_add_test(tc, test_tiresias_requeues_a_failed_job_to_q0);
    suite_add_tcase(s, tc);
    return s;
}
