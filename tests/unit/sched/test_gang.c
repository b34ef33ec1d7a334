/* The gang policy's exact schedule on one 8-GPU node: submit order, all or nothing, and no
 * reservation: a later job starts in the GPUs the head job cannot use, where fifo blocks it
 * and backfill lets it pass only when the head's reservation holds. */
#include <check.h>
#include <stdlib.h>

#include "models/sched/cluster.h"

static st_cluster_result schedule(const char *policy, const st_cluster_job *jobs, size_t n)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {.c = &c, .policy = policy, .jobs = jobs, .n = n, .keep_segments = 1};
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

/* A: 6 GPUs 0-100; B needs all 8 at t = 1; D (2 GPUs, 200 s) at 2; E (2 GPUs, 50 s) at 3. D
 * takes the 2 GPUs A leaves at once although B is ahead of it (fifo: 200-400; backfill would
 * not start it, it runs past B's reservation); E finds none free until A ends, and B waits for
 * D: the head job is delayed, which backfill never allows. */
START_TEST(test_gang_starts_later_jobs_without_a_reservation)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 6, 0, -1},
                                   {1, 100, 100, 8, 0, -1},
                                   {2, 200, 200, 2, 0, -1},
                                   {3, 50, 50, 2, 0, -1}};
    st_cluster_result r = schedule("gang", jobs, 4);
    ck_assert_str_eq(r.policy, "gang");
    expect(&r, 0, 0, 100);
    expect(&r, 2, 2, 202);
    expect(&r, 3, 100, 150);
    expect(&r, 1, 202, 302);
    ck_assert_int_eq(r.st.preemptions, 0);
    st_cluster_result_release(&r);
}
END_TEST

/* Two 4-GPU jobs and a 6-GPU one at t = 0 in that order: the 6-GPU job never runs beside a
 * 4-GPU one (no part of a gang starts), and starts once both are done. */
START_TEST(test_gang_is_all_or_nothing)
{
    const st_cluster_job jobs[] = {
        {0, 10, 10, 4, 0, -1}, {0, 30, 30, 4, 0, -1}, {0, 5, 5, 6, 0, -1}, {0, 7, 7, 2, 0, -1}};
    st_cluster_result r = schedule("gang", jobs, 4);
    expect(&r, 0, 0, 10);
    expect(&r, 1, 0, 30);
    expect(&r, 3, 10, 17); /* the 2-GPU job passes the 6-GPU one in the 4 GPUs job 0 frees */
    expect(&r, 2, 30, 35);
    st_cluster_result_release(&r);
}
END_TEST

Suite *gang_suite(void)
{
    Suite *s = suite_create("gang");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_gang_starts_later_jobs_without_a_reservation);
    tcase_add_test(tc, test_gang_is_all_or_nothing);
    suite_add_tcase(s, tc);
    return s;
}
