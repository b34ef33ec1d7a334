/* The tiresias policy's exact schedules on one 8-GPU node with two queues split at 100
 * GPU-seconds: demotion when attained service (GPUs x executed time) crosses the limit,
 * preemption by a job of a higher queue, FIFO within a queue, and starvation promotion by the
 * knob; and its defaults (the artifact's three queues at 3,250 and 7,200 GPU-seconds). */
#include <check.h>
#include <stdlib.h>

#include "models/sched/cluster.h"

static st_cluster_result schedule(const st_sched_cfg *cfg, const st_cluster_job *jobs, size_t n)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {
        .c = &c, .sched = cfg, .policy = "tiresias", .jobs = jobs, .n = n, .keep_segments = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    return r;
}

static void expect(const st_cluster_result *r, size_t i, double start, double end)
{
    ck_assert_msg(r->job[i].start_s == start && r->job[i].end_s == end,
                  "%s: job %zu ran %g-%g, expected %g-%g", r->policy, i, r->job[i].start_s,
                  r->job[i].end_s, start, end);
}

static st_sched_cfg two_queues(double knob)
{
    st_sched_cfg c = {.policy = "tiresias", .preemption = -1};
    c.tiresias = (st_tiresias_cfg){.queues = 2, .limit_gpu_s = {100}, .promote_knob = knob};
    return c;
}

/* A (8 GPUs, 100 s) at 0, B (4 GPUs, 50 s) at 5. B waits behind A in Q0 (FIFO) until A's
 * service reaches 100 GPU-s at 12.5 s: A drops to Q1 and B preempts it. B reaches 100 at 37.5
 * (4 x 25) and joins Q1 behind A, which resumes (87.5 s left, to 125); B ends at 150. */
START_TEST(test_tiresias_demotes_at_the_limit)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, -1}, {5, 50, 50, 4, 0, -1}};
    st_sched_cfg cfg = two_queues(0);
    st_cluster_result r = schedule(&cfg, jobs, 2);
    expect(&r, 0, 0, 125);
    expect(&r, 1, 12.5, 150);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    ck_assert_int_eq(r.job[1].preemptions, 1);
    ck_assert_uint_eq(r.n_seg, 4);
    ck_assert_double_eq(r.seg[1].start_s, 12.5); /* B's first stretch */
    ck_assert_double_eq(r.seg[1].end_s, 37.5);
    st_cluster_result_release(&r);
}
END_TEST

/* L (8 GPUs, 1000 s) at 0, then 30 jobs of 8 GPUs x 10 s (80 GPU-s: they stay in Q0), one every
 * 10 s from t = 20. L is in Q1 from 12.5 s and is preempted at 20. With no promotion it waits
 * for the whole stream (to 320) and ends at 1300; with knob 1 it is promoted once it has waited
 * as long as it ran (20 s, at t = 40), joins Q0 behind the job that arrived then, and resumes
 * at 50, ahead of the job that arrives at 50. */
START_TEST(test_tiresias_promotes_a_starving_job)
{
    st_cluster_job jobs[31] = {{0, 1000, 1000, 8, 0, -1}};
    for (int i = 0; i < 30; i++)
        jobs[1 + i] = (st_cluster_job){20 + 10.0 * i, 10, 10, 8, 0, -1};
    st_sched_cfg cfg = two_queues(0);
    st_cluster_result r = schedule(&cfg, jobs, 31);
    expect(&r, 0, 0, 1300);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    st_cluster_result_release(&r);
    cfg = two_queues(1);
    r = schedule(&cfg, jobs, 31);
    ck_assert_double_eq(r.seg[0].end_s, 20);
    size_t k = 1;
    while (r.seg[k].job != 0)
        k++;
    ck_assert_double_eq(r.seg[k].start_s, 50); /* L's second stretch */
    ck_assert_double_eq(r.seg[k].end_s, 62.5); /* 100 GPU-s counted afresh: Q1 again */
    expect(&r, 4, 62.5, 72.5);                 /* the job that arrived at 50 waits behind L */
    st_cluster_result_release(&r);
}
END_TEST

/* Defaults: a 1-GPU job crosses 3,250 GPU-s after 3,250 s and an 8-GPU one that arrives then
 * (Q0) preempts it; the 8-GPU job (5,000 s) crosses 3,250 after 406.25 s and waits behind the
 * 1-GPU job in Q1, which is ahead of it there. */
START_TEST(test_tiresias_defaults_are_the_artifacts)
{
    const st_cluster_job jobs[] = {{0, 4000, 4000, 1, 0, -1}, {3250, 5000, 5000, 8, 0, -1}};
    st_cluster_result r = schedule(NULL, jobs, 2);
    expect(&r, 0, 0, 3250 + 406.25 + 750);
    expect(&r, 1, 3250, 3250 + 406.25 + 750 + 5000 - 406.25);
    st_cluster_result_release(&r);
}
END_TEST

Suite *tiresias_suite(void)
{
    Suite *s = suite_create("tiresias");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_tiresias_demotes_at_the_limit);
    tcase_add_test(tc, test_tiresias_promotes_a_starving_job);
    tcase_add_test(tc, test_tiresias_defaults_are_the_artifacts);
    suite_add_tcase(s, tc);
    return s;
}
