/* What failures cost in the cluster run (models/sched/cluster.c): goodput counts the work they
 * throw away and the detection, restart and restore they add; GPUs of a failed component do not
 * count among those being released; a failure rate the run cannot draw to the end is refused
 * before the run, and a run drawing too many failures stops with ST_ERANGE instead of looping. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"
#include "sim/rng.h"

static double every_100(void *ctx, size_t job, double progress_s)
{
    (void)ctx;
    (void)job;
    return floor(progress_s / 100) * 100;
}

static void restore_5(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 0;
    *restore_s = 5;
}

/* test_outages' hand-sized case: one 8-GPU node failing once while a 1,000 s job runs, detect
 * 10 s, restart 20 s, restore 5 s. The job does its 1,000 s of work once, so goodput is exactly
 * 1000 / makespan: the lost work, the detection hold, the restart and the restore it held its
 * GPUs for are not good (before: held / makespan, as if the failure cost nothing). */
START_TEST(test_goodput_subtracts_what_a_failure_costs)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 8, 0, 8, 2000, 300, {0}, NULL};
    st_outage_spec os = {&oc, 1, 10, 20};
    st_cluster_job job = {0, 1000, 1000, 8, 0, -1};
    for (uint64_t seed = 1; seed < 200; seed++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = "fifo",
                              .jobs = &job,
                              .n = 1,
                              .seed = seed,
                              .preempt_cost = restore_5,
                              .outages = &os,
                              .restorable = every_100,
                              .keep_segments = 1};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        int one = r.job[0].interruptions == 1 && r.job[0].lost_work_s > 0;
        if (one) {
            double end = r.job[0].end_s;
            ck_assert_double_eq_tol(r.st.goodput, 1000 / end, 1e-12);
            ck_assert_double_eq_tol(r.job[0].failed_s, r.job[0].lost_work_s + 35, 1e-9);
            ck_assert_double_eq_tol(r.job[0].held_s, 1000 + r.job[0].failed_s, 1e-9);
        }
        st_cluster_result_release(&r);
        if (one)
            return;
    }
    ck_abort_msg("no seed below 200 gives one failure that loses work");
}
END_TEST

static void restore_200(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 0;
    *restore_s = 200;
}

/* A failure during a restore cuts it short: the part not run is no cost the job paid. A 1,000 s
 * job on a node failing every 600 s on average, repaired in 30 s, restoring for 200 s: whatever
 * the seed, the GPU-time it held is its 1,000 s of work and what failures cost it, to the
 * nanosecond (before: each resume counted its whole restart and restore, so a job failing in
 * most restores counted more failure time than it held and its goodput read 0). */
START_TEST(test_a_restore_cut_short_costs_what_ran)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 8, 0, 8, 600, 30, {0}, NULL};
    st_outage_spec os = {&oc, 1, 10, 20};
    st_cluster_job job = {0, 1000, 1000, 8, 0, -1};
    int cut = 0;
    for (uint64_t seed = 1; seed < 60; seed++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = "fifo",
                              .jobs = &job,
                              .n = 1,
                              .seed = seed,
                              .preempt_cost = restore_200,
                              .outages = &os,
                              .restorable = every_100};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        const st_cluster_job_out *o = &r.job[0];
        ck_assert_double_eq_tol(o->held_s, 1000 + o->failed_s, 1e-6);
        /* 230 s owed per interruption: less in all means some restore was cut short */
        cut += o->interruptions > 1 && o->failed_s < o->lost_work_s + 230 * o->interruptions - 1;
        st_cluster_result_release(&r);
    }
    ck_assert_msg(cut > 0, "no seed below 60 cuts a restore short");
}
END_TEST

static const char *const tenants3[] = {"a", "b", "c"};
static const st_quota thirds[] = {{"a", 1.0 / 3, {0}}, {"b", 2.0 / 3, {0}}};

/* Three 8-GPU nodes; under fair-share, X (tenant b, 16 GPUs, within b's quota of 16) on nodes 0
 * and 1, Y (tenant c, no quota) borrowing node 2. A node of X's fails: X is held 100 s until it
 * is noticed, and only its 8 GPUs on the live node come back then. Counting all 16 as being
 * released, X's claim looked covered and Y was reclaimed only at the release; counting the 8
 * that come back, Y is preempted at the failure. */
START_TEST(test_down_gpus_are_not_released)
{
    st_cluster_cfg c = {.nodes = 3, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 3;
    st_outage_class oc = {"node", 3, 8, 0, 8, 6000, 1000, {0}, NULL};
    st_outage_spec os = {&oc, 1, 100, 0};
    st_cluster_job jobs[] = {{0, 5000, 5000, 16, 0, 1}, {0, 5000, 5000, 8, 0, 2}};
    st_sched_cfg cfg = {.policy = "fair-share", .preemption = -1, .quotas = thirds, .n_quotas = 2};
    for (uint64_t seed = 1; seed < 400; seed++) {
        st_cluster_spec sp = {.c = &c,
                              .sched = &cfg,
                              .jobs = jobs,
                              .n = 2,
                              .seed = seed,
                              .outages = &os,
                              .keep_segments = 1,
                              .tenants = tenants3,
                              .n_tenants = 3};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        int hit = r.n_outage > 0 && r.outage[0].first < 16 && r.outage[0].start_s < 4000;
        if (hit) {
            ck_assert_int_ge(r.job[1].preemptions, 1);
            ck_assert_msg(r.seg[1].job == 1 && r.seg[1].end_s == r.outage[0].start_s,
                          "Y stopped at %g, the failure was at %g", r.seg[1].end_s,
                          r.outage[0].start_s);
        }
        st_cluster_result_release(&r);
        if (hit)
            return;
    }
    ck_abort_msg("no seed below 400 fails a node of X's before 4000 s");
}
END_TEST

/* GPUs failing every nanosecond: 8 x 1,000 s / 1 ns failures expected, refused before the run
 * at the class's mtbf (before: drawn one by one, the run never ended). */
START_TEST(test_a_rate_past_the_cap_is_refused_at_its_mtbf)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"gpu", 8, 1, 0, 8, 1e-9, 600, {"x.yaml", 7, 9}, NULL};
    st_outage_spec os = {&oc, 1, 60, 300};
    st_cluster_job job = {0, 1000, 1000, 8, 0, -1};
    st_cluster_spec sp = {.c = &c, .policy = "fifo", .jobs = &job, .n = 1, .outages = &os};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), ST_ERANGE);
    ck_assert_int_eq(err.loc.line, 7);
    ck_assert_int_eq(err.loc.col, 9);
    ck_assert_ptr_nonnull(strstr(err.msg, "failures.gpu"));
    st_cluster_result_release(&r);
}
END_TEST

/* A job whose estimate (10 s) passes the check but which needs 10^6 s without a failure that
 * comes every 100 s on average: it never finishes, and the run, with no horizon, would draw
 * failures forever. With the cap at 50 draws it stops with ST_ERANGE at the class's mtbf. */
START_TEST(test_a_run_past_the_failure_cap_stops)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 8, 0, 8, 100, 1, {"x.yaml", 3, 11}, NULL};
    st_outage_spec os = {&oc, 1, 0, 0};
    st_cluster_job job = {0, 1e6, 10, 8, 0, -1};
    st_cluster_spec sp = {
        .c = &c, .policy = "fifo", .jobs = &job, .n = 1, .outages = &os, .max_failures = 50};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), ST_ERANGE);
    ck_assert_int_eq(err.loc.line, 3);
    ck_assert_int_le(r.st.failures, 50);
    st_cluster_result_release(&r);
}
END_TEST

Suite *failure_costs_suite(void)
{
    Suite *s = suite_create("failure_costs");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_goodput_subtracts_what_a_failure_costs);
    tcase_add_test(tc, test_a_restore_cut_short_costs_what_ran);
    tcase_add_test(tc, test_down_gpus_are_not_released);
    tcase_add_test(tc, test_a_rate_past_the_cap_is_refused_at_its_mtbf);
    tcase_add_test(tc, test_a_run_past_the_failure_cap_stops);
    suite_add_tcase(s, tc);
    return s;
}
