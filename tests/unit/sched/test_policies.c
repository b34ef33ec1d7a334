/* Each scheduler policy's exact schedule on hand-sized examples, one 8-GPU node, times in
 * seconds: head-of-line blocking under fifo, EASY backfill letting a small job jump ahead only
 * when the head job's reservation is not delayed, sjf's order, srtf's preemption, srsf's ranking
 * by remaining time x GPUs; and each
 * placement policy's choice of GPUs. */
#include <check.h>
#include <stdlib.h>

#include "models/place/policy.h"
#include "models/sched/cluster.h"

static st_cluster_result schedule(const char *policy, int64_t nodes, const st_cluster_job *jobs,
                                  size_t n)
{
    st_cluster_cfg c = {.nodes = nodes, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {.c = &c, .policy = policy, .jobs = jobs, .n = n, .keep_segments = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    return r;
}

#define JOB(t, g, d)                                                                               \
    {                                                                                              \
        (t), (d), (d), (g), 0, -1                                                                  \
    }

static void expect(const st_cluster_result *r, size_t i, double start, double end)
{
    ck_assert_msg(r->job[i].start_s == start && r->job[i].end_s == end,
                  "%s: job %zu ran %g-%g, expected %g-%g", r->policy, i, r->job[i].start_s,
                  r->job[i].end_s, start, end);
}

/* A: 6 GPUs 0-100; B needs all 8; D (2 GPUs, 200 s) and E (2 GPUs, 50 s) queue behind B. */
static const st_cluster_job head_blocked[] = {JOB(0, 6, 100), JOB(1, 8, 100), JOB(2, 2, 200),
                                              JOB(3, 2, 50)};

START_TEST(test_fifo_blocks_behind_the_head)
{
    st_cluster_result r = schedule("fifo", 1, head_blocked, 4);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 200);
    expect(&r, 2, 200, 400);
    expect(&r, 3, 200, 250); /* it would fit at t = 3, but B is ahead of it */
    ck_assert_double_eq(r.st.mean_wait_s, (0 + 99 + 198 + 197) / 4.0);
    ck_assert_double_eq(r.st.makespan_s, 400);
    ck_assert_double_eq_tol(r.st.utilization, (6 * 100 + 8 * 100 + 2 * 200 + 2 * 50) / (8 * 400.0),
                            1e-12);
    st_cluster_result_release(&r);
}
END_TEST

/* B's reservation is t = 100 (A's end) with no GPUs to spare: E ends at 53, before it, and
 * jumps ahead; D would run past it on GPUs B needs, so it waits. */
START_TEST(test_backfill_never_delays_the_head)
{
    st_cluster_result r = schedule("backfill", 1, head_blocked, 4);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 200);
    expect(&r, 2, 200, 400);
    expect(&r, 3, 3, 53);
    st_cluster_result_release(&r);
}
END_TEST

/* The head needs 4 of 8 GPUs at its reservation (t = 100): 4 spare, so a 2-GPU job that runs
 * past the reservation still jumps ahead (the extra-GPU rule of EASY). */
START_TEST(test_backfill_uses_the_spare_gpus)
{
    const st_cluster_job jobs[] = {JOB(0, 6, 100), JOB(1, 4, 100), JOB(2, 2, 500)};
    st_cluster_result r = schedule("backfill", 1, jobs, 3);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 200);
    expect(&r, 2, 2, 502);
    st_cluster_result_release(&r);
    r = schedule("fifo", 1, jobs, 3);
    expect(&r, 2, 100, 600);
    st_cluster_result_release(&r);
}
END_TEST

/* Behind a full-node job, the shortest waiting jobs start first when it ends. */
START_TEST(test_sjf_starts_the_shortest)
{
    const st_cluster_job jobs[] = {JOB(0, 8, 100), JOB(1, 4, 300), JOB(2, 4, 50), JOB(3, 4, 100)};
    st_cluster_result r = schedule("sjf", 1, jobs, 4);
    expect(&r, 0, 0, 100);
    expect(&r, 2, 100, 150);
    expect(&r, 3, 100, 200);
    expect(&r, 1, 150, 450);
    ck_assert_int_eq(r.st.preemptions, 0);
    st_cluster_result_release(&r);
}
END_TEST

/* A short job arriving at t = 10 preempts the long one, which resumes with its work kept. */
START_TEST(test_srtf_preempts_for_a_shorter_job)
{
    const st_cluster_job jobs[] = {JOB(0, 8, 100), JOB(10, 8, 20)};
    st_cluster_result r = schedule("srtf", 1, jobs, 2);
    expect(&r, 0, 0, 120);
    expect(&r, 1, 10, 30);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    ck_assert_int_eq(r.st.preemptions, 1);
    ck_assert_uint_eq(r.n_seg, 3);
    st_cluster_result_release(&r);
    r = schedule("sjf", 1, jobs, 2); /* not preemptive */
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 120);
    st_cluster_result_release(&r);
}
END_TEST

/* A (8 GPUs, 100 s) runs when B (1 GPU, 150 s) arrives at t = 10: srtf keeps A (90 s left is less
 * than 150 s) and B waits for it; srsf ranks by remaining time x GPUs, A's 720 against B's 150,
 * so B starts and A, which no longer fits beside it, is preempted until B ends. */
START_TEST(test_srsf_ranks_by_remaining_time_times_gpus)
{
    const st_cluster_job jobs[] = {JOB(0, 8, 100), JOB(10, 1, 150)};
    st_cluster_result r = schedule("srsf", 1, jobs, 2);
    expect(&r, 0, 0, 250);
    expect(&r, 1, 10, 160);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    st_cluster_result_release(&r);
    r = schedule("srtf", 1, jobs, 2);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 250);
    ck_assert_int_eq(r.st.preemptions, 0);
    st_cluster_result_release(&r);
}
END_TEST

/* A fixed preemption cost for the hand-sized example: a 3 s save, a 5 s restore. */
static void cost_3_5(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 3;
    *restore_s = 5;
}

/* The same preemption, charged: A keeps its GPUs for its 3 s save, so B starts at 13, and A
 * resumes at 33 with its 5 s restore first: A ends exactly save + restore = 8 s later than free
 * (120 -> 128), B 3 s later. */
START_TEST(test_srtf_preemption_pays_save_and_restore)
{
    const st_cluster_job jobs[] = {JOB(0, 8, 100), JOB(10, 8, 20)};
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {.c = &c,
                          .policy = "srtf",
                          .jobs = jobs,
                          .n = 2,
                          .keep_segments = 1,
                          .preempt_cost = cost_3_5};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    expect(&r, 0, 0, 128);
    expect(&r, 1, 13, 33);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    ck_assert_double_eq(r.job[0].preempted_s, 8);
    ck_assert_double_eq(r.job[1].preempted_s, 0);
    ck_assert_double_eq(r.st.preempted_s, 8);
    ck_assert_uint_eq(r.n_seg, 3); /* A holds 0-13 (10 s of work, its save), B 13-33, A 33-128 */
    ck_assert(r.seg[0].job == 0 && r.seg[0].end_s == 13);
    ck_assert(r.seg[2].job == 0 && r.seg[2].start_s == 33);
    st_cluster_result_release(&r);
}
END_TEST

/* The GPUs each placement policy picks on a pool where node 0 has 2 free GPUs, node 1 has 8,
 * node 2 has 3 and node 3 has 8 (nodes 0-1 under leaf 0, nodes 2-3 under leaf 1). */
START_TEST(test_placements_choose_as_documented)
{
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_pool p;
    st_pool_init(&p, &c);
    int64_t held[] = {0, 1, 2, 3, 4, 5, 16, 17, 18, 19, 20};
    st_pool_take(&p, held, 11);
    ck_assert_int_eq(p.free, 21);
    int64_t g[16];
    st_placer pl;
    /* 3 GPUs: pack takes the lowest free; best-fit the node they fit most tightly. */
    st_placer_init(&pl, st_place_policy_find("pack"), &c);
    ck_assert_int_eq(st_placer_take(&pl, &p, 3, g), 0);
    ck_assert(g[0] == 6 && g[1] == 7 && g[2] == 8);
    st_placer_release(&pl);
    st_placer_init(&pl, st_place_policy_find("best-fit"), &c);
    ck_assert_int_eq(st_placer_take(&pl, &p, 3, g), 0);
    ck_assert(g[0] == 21 && g[1] == 22 && g[2] == 23); /* node 2: exactly 3 free */
    /* 11 GPUs: the freest node whole (node 1), then the tightest for 3 (node 2): two leaves */
    ck_assert_int_eq(st_placer_take(&pl, &p, 11, g), 0);
    ck_assert(g[0] == 8 && g[7] == 15 && g[8] == 21 && g[10] == 23);
    st_placer_release(&pl);
    st_placer_init(&pl, st_place_policy_find("topology-aware"), &c);
    /* 11 GPUs fit under leaf 1 alone (nodes 2 and 3): node 3 whole, then node 2's 3 */
    ck_assert_int_eq(st_placer_take(&pl, &p, 11, g), 0);
    ck_assert(g[0] == 24 && g[7] == 31 && g[8] == 21 && g[10] == 23);
    ck_assert_int_eq(st_placer_take(&pl, &p, 22, g), ST_ERANGE); /* 21 free: none taken */
    st_placer_release(&pl);
    st_pool_release(&p);
}
END_TEST

Suite *policies_suite(void)
{
    Suite *s = suite_create("policies");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fifo_blocks_behind_the_head);
    tcase_add_test(tc, test_backfill_never_delays_the_head);
    tcase_add_test(tc, test_backfill_uses_the_spare_gpus);
    tcase_add_test(tc, test_sjf_starts_the_shortest);
    tcase_add_test(tc, test_srtf_preempts_for_a_shorter_job);
    tcase_add_test(tc, test_srtf_preemption_pays_save_and_restore);
    tcase_add_test(tc, test_srsf_ranks_by_remaining_time_times_gpus);
    tcase_add_test(tc, test_placements_choose_as_documented);
    suite_add_tcase(s, tc);
    return s;
}
