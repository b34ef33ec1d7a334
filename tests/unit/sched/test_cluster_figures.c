/* The cluster run's fragmentation and goodput figures (models/sched/cluster.c) on hand-sized
 * runs, one 8-GPU node: free GPUs count as fragmented only while every waiting job needs more,
 * and goodput leaves out the GPU-seconds of a preemption's save and restore. */
#include <check.h>

#include "models/sched/cluster.h"

static void cost_3_5(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 3;
    *restore_s = 5;
}

static void cost_0_200(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 0;
    *restore_s = 200;
}

static st_cluster_result run(const char *policy, const st_cluster_job *jobs, size_t n,
                             st_cluster_preempt_cost_fn cost)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {.c = &c, .policy = policy, .jobs = jobs, .n = n, .preempt_cost = cost};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    return r;
}

/* FIFO: A (6 GPUs, 0-100) leaves 2 free. B (8) waits from t = 1: the 2 are fragmented; from
 * t = 2 D (2 GPUs) waits too and could use them (only the policy holds it back), so they are
 * not. 2 GPU-seconds over the 400 s makespan. */
START_TEST(test_fragmentation_counts_gpus_no_waiting_job_fits)
{
    const st_cluster_job jobs[] = {
        {0, 100, 100, 6, 0, -1}, {1, 100, 100, 8, 0, -1}, {2, 200, 200, 2, 0, -1}};
    st_cluster_result r = run("fifo", jobs, 3, NULL);
    ck_assert_double_eq(r.st.makespan_s, 400);
    ck_assert_double_eq_tol(r.st.fragmented_gpus, 2.0 / 400, 1e-12);
    ck_assert_double_eq_tol(r.st.goodput, r.st.utilization, 1e-12);
    st_cluster_result_release(&r);
}
END_TEST

/* SRTF preempts A (8 GPUs, 100 s) for B (8 GPUs, 20 s at t = 10) with a 3 s save and a 5 s
 * restore: the node is held all 128 s (utilization 1), 8 of them by A's save and restore. */
START_TEST(test_goodput_leaves_out_saves_and_restores)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, -1}, {10, 20, 20, 8, 0, -1}};
    st_cluster_result r = run("srtf", jobs, 2, cost_3_5);
    ck_assert_double_eq_tol(r.st.utilization, 1, 1e-12);
    ck_assert_double_eq_tol(r.st.goodput, 1 - 8.0 * 8 / (8 * 128), 1e-12);
    ck_assert_double_eq(r.st.fragmented_gpus, 0);
    st_cluster_result_release(&r);
}
END_TEST

/* A preemption during a restore: SRTF preempts A (1,000 s) for B (20 s at t = 10) and, 10 s
 * into A's 200 s restore, for C (20 s at t = 40). A's checkpoint holds its 10 s of work
 * whatever the restore had loaded, so it resumes at t = 60 with a whole restore and its 990 s
 * left: it ends at 1,250 s, its preemptions having cost 10 + 200 s. (Before, the preemption
 * took the restore's progress for the checkpoint and kept the unrun 190 s counted: A re-ran
 * them as work and ended at 1,440 s, 400 s of restores counted.) */
START_TEST(test_a_preemption_during_a_restore_keeps_the_checkpoint)
{
    const st_cluster_job jobs[] = {
        {0, 1000, 1000, 8, 0, -1}, {10, 20, 20, 8, 0, -1}, {40, 20, 20, 8, 0, -1}};
    st_cluster_result r = run("srtf", jobs, 3, cost_0_200);
    ck_assert_int_eq(r.job[0].preemptions, 2);
    ck_assert_double_eq_tol(r.job[0].end_s, 1250, 1e-9);
    ck_assert_double_eq_tol(r.job[0].preempted_s, 210, 1e-9);
    ck_assert_double_eq_tol(r.job[0].held_s, 1000 + 210, 1e-9);
    st_cluster_result_release(&r);
}
END_TEST

/* The same run: A's wait to its first start is 0, but it is queued again from the end of its
 * save (t = 13, its GPUs back) until B's end (t = 33): 20 s in all; B waited for A's save, 3 s,
 * both its wait and its time queued. The time queued is never below the wait, and above it for
 * the preempted job. */
START_TEST(test_time_queued_counts_the_requeue_after_a_preemption)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, -1}, {10, 20, 20, 8, 0, -1}};
    st_cluster_result r = run("srtf", jobs, 2, cost_3_5);
    ck_assert_double_eq(r.job[0].wait_s, 0);
    ck_assert_double_eq_tol(r.job[0].queued_s, 20, 1e-9);
    ck_assert_double_eq_tol(r.job[1].wait_s, 3, 1e-9);
    ck_assert_double_eq_tol(r.job[1].queued_s, 3, 1e-9);
    ck_assert_double_eq_tol(r.st.mean_wait_s, 1.5, 1e-9);
    ck_assert_double_eq_tol(r.st.mean_queued_s, 11.5, 1e-9);
    ck_assert(r.st.p95_queued_s >= r.st.p95_wait_s && r.st.p95_queued_s > 3);
    st_cluster_result_release(&r);
}
END_TEST

/* Parts (st_cluster_spec.part): the same jobs run the same schedule whether or not C is a part
 * of another job; a part's GPU time still counts in the utilisation and makespan, but not in
 * the job counts, the waits or the completion times. FIFO on 8 GPUs: A (6 GPUs, 0-100), B (2
 * GPUs, 0-50), C (4 GPUs at t = 10, 30 s) waits for A: 90 s, ends at 130. */
START_TEST(test_a_part_counts_in_gpu_time_only)
{
    const st_cluster_job jobs[] = {
        {0, 100, 100, 6, 0, -1}, {0, 50, 50, 2, 0, -1}, {10, 30, 30, 4, 0, -1}};
    st_cluster_result all = run("fifo", jobs, 3, NULL);
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    const unsigned char part[] = {0, 0, 1};
    st_cluster_spec sp = {.c = &c, .policy = "fifo", .jobs = jobs, .n = 3, .part = part};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    for (size_t i = 0; i < 3; i++) { /* the same schedule */
        ck_assert_double_eq(r.job[i].start_s, all.job[i].start_s);
        ck_assert_double_eq(r.job[i].end_s, all.job[i].end_s);
    }
    ck_assert_double_eq(r.job[2].wait_s, 90);
    ck_assert_double_eq(all.st.mean_wait_s, 30); /* (0 + 0 + 90) / 3 */
    ck_assert_double_eq(r.st.mean_wait_s, 0);    /* C's wait left out */
    ck_assert_double_eq(r.st.mean_jct_s, 75);    /* (100 + 50) / 2 */
    ck_assert(r.st.jobs == 2 && r.st.finished == 2 && all.st.jobs == 3);
    ck_assert_double_eq(r.st.makespan_s, 130); /* C's end */
    ck_assert_double_eq(r.st.utilization, all.st.utilization);
    st_cluster_result_release(&r);
    st_cluster_result_release(&all);
}
END_TEST

/* A job held for another's first start (st_cluster_spec.after): under SJF on 8 GPUs, X (6 GPUs,
 * 0-100) leaves 2 free; S (4 GPUs from t = 0, 200 s) waits for X; P (2 GPUs at t = 10, 30 s)
 * fits at once, and runs at once unless it is held for S: then it queues at S's start (t =
 * 100), and its wait counts from its own submit, 90 s. A job held for one that never starts
 * (T, 9 GPUs: never submitted) never starts either. */
START_TEST(test_a_held_job_waits_for_its_after_job)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 6, 0, -1},
                                   {0, 200, 200, 4, 0, -1},
                                   {10, 30, 30, 2, 0, -1},
                                   {0, 50, 50, 9, 0, -1},
                                   {20, 10, 10, 1, 0, -1}};
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_result free_run, held;
    st_err err = {0};
    st_cluster_spec sp = {.c = &c, .policy = "sjf", .jobs = jobs, .n = 5};
    ck_assert_int_eq(st_cluster_run(&sp, &free_run, &err), 0);
    ck_assert_double_eq(free_run.job[2].start_s, 10);
    ck_assert_int_eq(free_run.job[4].state, ST_CJ_FINISHED);
    const int32_t after[] = {-1, -1, 1, -1, 3};
    sp.after = after;
    ck_assert_int_eq(st_cluster_run(&sp, &held, &err), 0);
    ck_assert_double_eq(held.job[1].start_s, 100);
    ck_assert_double_eq(held.job[2].start_s, 100);
    ck_assert_double_eq(held.job[2].wait_s, 90);
    ck_assert_double_eq(held.job[2].end_s, 130);
    ck_assert_int_eq(held.job[3].state, ST_CJ_TOO_BIG);
    ck_assert_int_eq(held.job[4].state, ST_CJ_WAITING);
    st_cluster_result_release(&free_run);
    st_cluster_result_release(&held);
}
END_TEST

Suite *cluster_figures_suite(void)
{
    Suite *s = suite_create("cluster_figures");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fragmentation_counts_gpus_no_waiting_job_fits);
    tcase_add_test(tc, test_a_preemption_during_a_restore_keeps_the_checkpoint);
    tcase_add_test(tc, test_a_part_counts_in_gpu_time_only);
    tcase_add_test(tc, test_a_held_job_waits_for_its_after_job);
    tcase_add_test(tc, test_time_queued_counts_the_requeue_after_a_preemption);
    tcase_add_test(tc, test_goodput_leaves_out_saves_and_restores);
    suite_add_tcase(s, tc);
    return s;
}
