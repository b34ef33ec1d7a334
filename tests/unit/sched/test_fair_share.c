/* The fair-share policy's exact schedules on one 8-GPU node, tenants a and b with quotas of 50%
 * each (4 GPUs): idle quota is borrowed, a tenant within its quota reclaims it by preemption
 * (paying the save and restore), priority classes rank a tenant's jobs, `preemption: false`
 * leaves borrowed GPUs until they are released, and jobs without a quota only borrow. */
#include <check.h>
#include <stdlib.h>

#include "models/sched/cluster.h"

static const char *const tenants[] = {"a", "b"};
static const st_quota halves[] = {{"a", 0.5, {0}}, {"b", 0.5, {0}}};

static st_sched_cfg quotas(int preemption)
{
    return (st_sched_cfg){
        .policy = "fair-share", .preemption = preemption, .quotas = halves, .n_quotas = 2};
}

static void cost(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 2;
    *restore_s = 3;
}

static st_cluster_result schedule(const char *policy, const st_sched_cfg *cfg,
                                  const st_cluster_job *jobs, size_t n, int costs)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    st_cluster_spec sp = {.c = &c,
                          .sched = cfg,
                          .policy = policy,
                          .jobs = jobs,
                          .n = n,
                          .keep_segments = 1,
                          .tenants = tenants,
                          .n_tenants = 2,
                          .preempt_cost = costs ? cost : NULL};
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

/* B (tenant b, 8 GPUs, 100 s) borrows a's idle quota at 0. A (tenant a, 4 GPUs, 50 s) arrives
 * at 10 within a's quota and reclaims it: B is preempted, saves for 2 s, so A starts at 12 and
 * ends at 62; B (8 GPUs, more than b's quota and than is free beside A) waits, resumes at 62
 * with its 90 s and a 3 s restore, and ends at 155. fifo would run B 0-100, then A. */
START_TEST(test_fair_share_reclaims_borrowed_quota)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, 1}, {10, 50, 50, 4, 0, 0}};
    st_sched_cfg cfg = quotas(-1);
    st_cluster_result r = schedule("fair-share", &cfg, jobs, 2, 1);
    expect(&r, 0, 0, 155);
    expect(&r, 1, 12, 62);
    ck_assert_int_eq(r.job[0].preemptions, 1);
    ck_assert_double_eq(r.job[0].preempted_s, 5);
    ck_assert_int_eq(r.job[1].preemptions, 0);
    st_cluster_result_release(&r);
    cfg = quotas(0); /* no preemption: A waits for B to end */
    r = schedule("fair-share", &cfg, jobs, 2, 1);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 150);
    ck_assert_int_eq(r.st.preemptions, 0);
    st_cluster_result_release(&r);
}
END_TEST

/* At t = 0, in this order: A1 (a, 4 GPUs, 100 s, priority 0), A2 (a, 4 GPUs, 100 s, priority 1),
 * B1 (b, 4 GPUs, 100 s). A2 ranks first (its class), fills a's quota, and B1 fills b's: A1,
 * beyond a's quota with nothing idle to borrow, waits until 100. fifo starts A1 and A2. */
START_TEST(test_fair_share_ranks_by_priority_within_quotas)
{
    const st_cluster_job jobs[] = {
        {0, 100, 100, 4, 0, 0}, {0, 100, 100, 4, 1, 0}, {0, 100, 100, 4, 0, 1}};
    st_sched_cfg cfg = quotas(-1);
    st_cluster_result r = schedule("fair-share", &cfg, jobs, 3, 0);
    expect(&r, 1, 0, 100);
    expect(&r, 2, 0, 100);
    expect(&r, 0, 100, 200);
    st_cluster_result_release(&r);
    r = schedule("fifo", &cfg, jobs, 3, 0);
    expect(&r, 0, 0, 100);
    expect(&r, 2, 100, 200);
    st_cluster_result_release(&r);
}
END_TEST

/* A job without a tenant (no quota) borrows at 0 and is preempted when b's job claims b's
 * quota at 5; with no quotas at all every tenant borrows and nothing is preempted. */
START_TEST(test_fair_share_jobs_without_quota_only_borrow)
{
    const st_cluster_job jobs[] = {{0, 100, 100, 8, 0, -1}, {5, 10, 10, 4, 0, 1}};
    st_sched_cfg cfg = quotas(-1);
    st_cluster_result r = schedule("fair-share", &cfg, jobs, 2, 0);
    expect(&r, 1, 5, 15);
    expect(&r, 0, 0, 110); /* 5 s run, preempted at 5, resumes at 15 with 95 s */
    st_cluster_result_release(&r);
    st_sched_cfg none = {.policy = "fair-share", .preemption = -1};
    r = schedule("fair-share", &none, jobs, 2, 0);
    expect(&r, 0, 0, 100);
    expect(&r, 1, 100, 110);
    st_cluster_result_release(&r);
}
END_TEST

Suite *fair_share_suite(void)
{
    Suite *s = suite_create("fair_share");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fair_share_reclaims_borrowed_quota);
    tcase_add_test(tc, test_fair_share_ranks_by_priority_within_quotas);
    tcase_add_test(tc, test_fair_share_jobs_without_quota_only_borrow);
    suite_add_tcase(s, tc);
    return s;
}
