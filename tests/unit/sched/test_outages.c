/* Failures and repairs in the cluster run (models/sched/outage.h): a hand-sized case whose one
 * failure lands at a time the test derives from the same seeded stream, with its exact lost work
 * and end; the GPUs of a failed node are never given to a job before its repair; the same seed
 * gives the same run. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"
#include "sim/rng.h"

/* Checkpoints every 100 s of progress; a restore costs 5 s. */
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

static int64_t ticks(double s)
{
    return (int64_t)llround(s * 1e9);
}

/* One 8-GPU node failing (MTBF 2000 s, repaired 300 s after), detect 10 s, restart 20 s; one
 * 8-GPU job of 1000 s. The failure at t1 (the class's first exponential gap) rolls it back to
 * its last checkpoint, floor(t1 / 100) x 100; it waits for the repair (the only node), starts
 * at t1 + 300, pays restart + restore (25 s), then the rest of its work. */
START_TEST(test_a_failure_costs_the_work_since_the_checkpoint_and_the_repair)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 1;
    st_outage_class oc = {"node", 1, 8, 0, 8, 2000, 300, {0}, NULL};
    st_outage_spec os = {&oc, 1, 10, 20};
    st_cluster_job job = {0, 1000, 1000, 8, 0, -1};
    for (uint64_t seed = 1; seed < 200; seed++) {
        st_rng *r = st_rng_new(seed, st_rng_tag("cluster-outage"), 0, st_rng_tag("failure"));
        int64_t t1 = ticks(st_rng_exponential(r, 2000));
        int64_t t2 = t1 + ticks(st_rng_exponential(r, 2000));
        st_rng_free(r);
        int64_t back = (t1 / 100000000000LL) * 100000000000LL;
        int64_t end = t1 + ticks(300) + ticks(25) + ticks(1000) - back;
        if (t1 >= ticks(1000) || t1 < ticks(100) || t2 <= end)
            continue; /* the case wants exactly one failure, after a checkpoint */
        st_cluster_spec sp = {.c = &c,
                              .policy = "fifo",
                              .jobs = &job,
                              .n = 1,
                              .seed = seed,
                              .preempt_cost = restore_5,
                              .outages = &os,
                              .restorable = every_100,
                              .keep_segments = 1};
        st_cluster_result res;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &res, &err), 0);
        ck_assert_int_eq(res.job[0].state, ST_CJ_FINISHED);
        ck_assert_int_eq(res.job[0].interruptions, 1);
        ck_assert_double_eq(res.job[0].lost_work_s, (double)(t1 - back) / 1e9);
        ck_assert_double_eq(res.job[0].end_s, (double)end / 1e9);
        ck_assert_int_eq(res.st.failures, 1);
        ck_assert_int_eq(res.n_seg, 2);
        ck_assert_double_eq(res.seg[0].end_s, (double)(t1 + ticks(10)) / 1e9);    /* detect */
        ck_assert_double_eq(res.seg[1].start_s, (double)(t1 + ticks(300)) / 1e9); /* repair */
        ck_assert_int_eq(res.st.free_at_end, 8);
        st_cluster_result_release(&res);
        return;
    }
    ck_abort_msg("no seed below 200 gives one failure between 100 s and 1000 s");
}
END_TEST

/* Two nodes failing often (MTBF 400 s each, 250 s to repair) under a stream of 8-GPU jobs: no
 * stretch of any job starts on a GPU of a node while it is out. */
static void save_3_restore_2(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 3;
    *restore_s = 2;
}

static st_cluster_result busy_run_under(const char *policy, uint64_t seed)
{
    static st_cluster_cfg c = {.nodes = 2, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    static st_outage_class oc = {"node", 2, 8, 0, 8, 400, 250, {0}, NULL};
    static st_outage_spec os = {&oc, 1, 25, 5};
    static st_cluster_job jobs[60];
    for (int i = 0; i < 60; i++)
        jobs[i] = (st_cluster_job){10.0 * i, i % 4 ? 40 + 7 * (i % 5) : 300, 40, 8, 0, -1};
    st_cluster_spec sp = {.c = &c,
                          .policy = policy,
                          .jobs = jobs,
                          .n = 60,
                          .seed = seed,
                          .preempt_cost = save_3_restore_2,
                          .outages = &os,
                          .keep_segments = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    return r;
}

static st_cluster_result busy_run(uint64_t seed)
{
    return busy_run_under("fifo", seed);
}

/* No stretch of r starts on a GPU of a component while it is out. */
static void never_on_a_failed_gpu(const st_cluster_result *r)
{
    for (size_t o = 0; o < r->n_outage; o++)
        for (size_t k = 0; k < r->n_seg; k++) {
            const st_cluster_seg *s = &r->seg[k];
            if (!(s->start_s >= r->outage[o].start_s && s->start_s < r->outage[o].end_s))
                continue;
            for (int64_t g = 0; g < s->n; g++) {
                int64_t gpu = r->seg_gpus[s->gpu_at + (size_t)g];
                ck_assert_msg(gpu < r->outage[o].first ||
                                  gpu >= r->outage[o].first + r->outage[o].n,
                              "%s: job %zu started at %g on GPU %lld, out %g-%g", r->policy, s->job,
                              s->start_s, (long long)gpu, r->outage[o].start_s, r->outage[o].end_s);
            }
        }
}

/* Every registered policy (the preemptive ones included, whose running jobs a failure takes
 * from them) runs the failing cluster to the end, every job finished, never on a failed GPU. */
START_TEST(test_every_policy_runs_through_failures)
{
    for (size_t k = 0; st_sched_policy_names[k]; k++) {
        st_cluster_result r = busy_run_under(st_sched_policy_names[k], 11);
        ck_assert_msg(r.st.finished == 60, "%s: %zu of 60 finished", r.policy, r.st.finished);
        ck_assert_int_gt(r.st.interruptions, 0);
        never_on_a_failed_gpu(&r);
        st_cluster_result_release(&r);
    }
}
END_TEST

START_TEST(test_a_failed_node_is_never_allocated_before_its_repair)
{
    st_cluster_result r = busy_run(7);
    ck_assert_int_gt((int64_t)r.n_outage, 2);
    ck_assert_int_gt(r.st.interruptions, 0);
    ck_assert_int_eq((int64_t)r.st.finished, 60);
    never_on_a_failed_gpu(&r);
    st_cluster_result b = busy_run(7);
    ck_assert_int_eq((int64_t)b.n_seg, (int64_t)r.n_seg);
    for (size_t i = 0; i < r.n; i++)
        ck_assert_double_eq(b.job[i].end_s, r.job[i].end_s);
    st_cluster_result_release(&b);
    st_cluster_result_release(&r);
}
END_TEST

Suite *outages_suite(void)
{
    Suite *s = suite_create("outages");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_a_failure_costs_the_work_since_the_checkpoint_and_the_repair);
    tcase_add_test(tc, test_a_failed_node_is_never_allocated_before_its_repair);
    tcase_add_test(tc, test_every_policy_runs_through_failures);
    suite_add_tcase(s, tc);
    return s;
}
