/* The cluster run on a cluster of two pools (docs/models/pools.md), under every scheduler and
 * placement policy: no job ever holds a GPU outside its own pool (a job across pools: outside
 * its share of each), no GPU is held by two jobs at once, and a job larger than its pool (though
 * not the cluster) is never submitted. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/place/policy.h"
#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"

/* 5 nodes x 8 GPUs, 2 nodes per leaf: pool a holds nodes 0-2 (GPUs 0-23), pool b nodes 3-4
 * (GPUs 24-39), so pool b starts inside a leaf. */
static const st_pool_cfg pools[] = {
    {.name = "a", .nodes = 3, .first_node = 0},
    {.name = "b", .nodes = 2, .first_node = 3},
};

static st_cluster_cfg cluster(void)
{
    st_cluster_cfg c = {.nodes = 5, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    c.pools = pools;
    c.n_pools = 2;
    return c;
}

static size_t count(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

enum { N = 120 };

/* A reproducible mix (Knuth's MMIX LCG): sizes 1-16, pools alternating by draw. */
static void mix(st_cluster_job *j, int32_t *pool, uint64_t seed)
{
    static const int64_t sizes[] = {1, 2, 4, 8, 8, 16};
    uint64_t x = seed;
    double t = 0;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        t += (double)(x >> 55) / 8;
        double d = 1 + (double)((x >> 20) % 500);
        j[i] = (st_cluster_job){t, d, d, sizes[(x >> 40) % 6], (int64_t)((x >> 10) % 3), -1};
        pool[i] = (int32_t)((x >> 30) & 1);
    }
}

static int overlaps(const st_cluster_seg *a, const st_cluster_seg *b)
{
    return a->start_s < b->end_s && b->start_s < a->end_s;
}

/* No GPU of stretch s is held by an earlier stretch that overlaps it in time. */
static void no_gpu_twice(const st_cluster_result *r, size_t s)
{
    const st_cluster_seg *g = &r->seg[s];
    for (size_t t = 0; t < s; t++) {
        const st_cluster_seg *h = &r->seg[t];
        if (!overlaps(g, h))
            continue;
        for (int64_t a = 0; a < g->n; a++)
            for (int64_t b = 0; b < h->n; b++)
                ck_assert(r->seg_gpus[g->gpu_at + (size_t)a] != r->seg_gpus[h->gpu_at + (size_t)b]);
    }
}

/* Loop index: policy x placement. */
START_TEST(test_jobs_stay_in_their_pool)
{
    size_t np = count(st_sched_policy_names);
    st_cluster_cfg c = cluster();
    st_cluster_job *jobs = calloc(N, sizeof *jobs);
    int32_t *pool = calloc(N, sizeof *pool);
    mix(jobs, pool, 11 + (uint64_t)_i);
    st_cluster_spec sp = {.c = &c,
                          .policy = st_sched_policy_names[_i % np],
                          .placement = st_place_policy_names[_i / np],
                          .jobs = jobs,
                          .n = N,
                          .seed = 3,
                          .keep_segments = 1,
                          .pool = pool};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_uint_eq(r.st.finished, N);
    for (size_t s = 0; s < r.n_seg; s++) {
        const st_cluster_seg *g = &r.seg[s];
        int64_t lo = pools[pool[g->job]].first_node * 8, hi = lo + pools[pool[g->job]].nodes * 8;
        for (int64_t k = 0; k < g->n; k++) {
            int64_t id = r.seg_gpus[g->gpu_at + (size_t)k];
            ck_assert_msg(id >= lo && id < hi, "%s/%s: job %zu (pool %d) holds GPU %lld", sp.policy,
                          sp.placement, g->job, pool[g->job], (long long)id);
        }
        no_gpu_twice(&r, s);
    }
    ck_assert_int_eq(r.st.free_at_end, 40);
    st_cluster_result_release(&r);
    free(pool);
    free(jobs);
}
END_TEST

/* Every 7th job of the mix across both pools (8 GPUs in each: cluster.h's span). */
static const int64_t both[2] = {8, 8};

static const int64_t *const *spans(st_cluster_job *j, const int64_t **span)
{
    for (size_t i = 0; i < N; i++) {
        span[i] = i % 7 == 3 ? both : NULL;
        j[i].gpus = span[i] ? 16 : j[i].gpus;
        j[i].priority = span[i] ? 2 : j[i].priority; /* one the preempting policies favour */
    }
    return span;
}

/* A preemption's save of 3 s and restore of 2 s: preempted and failed jobs hold GPUs a while,
 * which each pool counts as releasing (the run checks the counts come back to 0). */
static void save_cost(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    (void)job;
    *save_s = 3;
    *restore_s = 2;
}

/* A job across pools on cluster c holds its share of each pool and nothing else, never a GPU
 * another job holds at once, and every job, those across pools too, ends; with node failures
 * (os) and preemptions' saves on the way. Loop index i: policy x placement; a failed node may be
 * down at the end, so the free GPUs are a multiple of the smallest node, min_node. */
static void take_each_share(const st_cluster_cfg *c, const st_outage_spec *os, int i,
                            int64_t min_node)
{
    size_t np = count(st_sched_policy_names);
    st_cluster_job *jobs = calloc(N, sizeof *jobs);
    int32_t *pool = calloc(N, sizeof *pool);
    const int64_t **span = calloc(N, sizeof *span);
    mix(jobs, pool, 29 + (uint64_t)i);
    st_cluster_spec sp = {.c = c,
                          .policy = st_sched_policy_names[i % np],
                          .placement = st_place_policy_names[i / np],
                          .jobs = jobs,
                          .n = N,
                          .seed = 3,
                          .keep_segments = 1,
                          .pool = pool,
                          .span = spans(jobs, span),
                          .outages = os,
                          .preempt_cost = save_cost};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_uint_eq(r.st.finished, N);
    for (size_t s = 0; s < r.n_seg; s++) {
        const st_cluster_seg *g = &r.seg[s];
        int64_t in[2] = {0, 0};
        for (int64_t k = 0; k < g->n; k++)
            in[r.seg_gpus[g->gpu_at + (size_t)k] >= 24]++;
        const int64_t *want = span[g->job];
        int64_t mine[2] = {pool[g->job] == 0 ? jobs[g->job].gpus : 0,
                           pool[g->job] == 1 ? jobs[g->job].gpus : 0};
        if (!want)
            want = mine;
        ck_assert_msg(in[0] == want[0] && in[1] == want[1], "%s/%s: job %zu holds %lld + %lld",
                      sp.policy, sp.placement, g->job, (long long)in[0], (long long)in[1]);
        no_gpu_twice(&r, s);
    }
    ck_assert(r.st.free_at_end <= 40 && r.st.free_at_end % min_node == 0);
    ck_assert_int_gt(r.st.failures, 0);
    st_cluster_result_release(&r);
    free(span);
    free(pool);
    free(jobs);
}

/* Loop index: policy x placement. Jobs across two pools of 8-GPU nodes take each share (node
 * failures held 10 s before they are noticed). */
START_TEST(test_jobs_across_pools_take_each_share)
{
    static st_outage_class oc = {"node", 5, 8, 0, 8, 3000, 200, {0}, NULL};
    static st_outage_spec os = {&oc, 1, 10, 5};
    st_cluster_cfg c = cluster();
    take_each_share(&c, &os, _i, 8);
}
END_TEST

/* Loop index: policy x placement. The same across pools of two node sizes (docs/models/pools.md,
 * "Pools of several node sizes"): pool a three nodes of 8 (GPUs 0-23), pool b four trays of 4
 * (GPUs 24-39); each share is placed on whole nodes of its own pool's size, and a node failure
 * takes its own node's GPUs. */
START_TEST(test_jobs_across_pools_of_two_node_sizes_take_each_share)
{
    static const st_pool_cfg sized[] = {{.name = "a",
                                         .nodes = 3,
                                         .first_node = 0,
                                         .gpus_per_node = 8,
                                         .nvlink_domain = 8,
                                         .nics_per_node = 8,
                                         .first_gpu = 0,
                                         .first_nic = 0},
                                        {.name = "b",
                                         .nodes = 4,
                                         .first_node = 3,
                                         .gpus_per_node = 4,
                                         .nvlink_domain = 4,
                                         .nics_per_node = 4,
                                         .first_gpu = 24,
                                         .first_nic = 24}};
    st_cluster_cfg c = cluster();
    c.nodes = 7;
    c.pools = sized;
    c.mixed_node_sizes = 1;
    c.fabric.nics_per_node = 8;
    st_outage_class oc = {"node", 7, 8, 0, 8, 3000, 200, {0}, &c};
    st_outage_spec os = {&oc, 1, 10, 5};
    take_each_share(&c, &os, _i, 4);
}
END_TEST

/* A job across pools starts when every pool it spans has room at once: pool b is full for 100 s
 * (job 0), so job 1 (8 GPUs of a, 8 of b, queued in a) waits though pool a is free, and starts
 * the instant job 0 ends, pool b's finish asking pool a's partition again; under EASY backfill
 * job 2, of pool a, starts at once beside it. Each pool's utilisation counts its share of job 1's
 * time. */
START_TEST(test_a_job_across_pools_waits_for_every_pool)
{
    st_cluster_cfg c = cluster();
    st_cluster_job jobs[3] = {
        {0, 100, 100, 16, 0, -1}, {1, 50, 50, 16, 0, -1}, {2, 10, 10, 8, 0, -1}};
    int32_t pool[3] = {1, 0, 0};
    static const int64_t share[2] = {8, 8};
    const int64_t *span[3] = {NULL, share, NULL};
    for (int policy = 0; st_sched_policy_names[policy]; policy++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = st_sched_policy_names[policy],
                              .jobs = jobs,
                              .n = 3,
                              .pool = pool,
                              .span = span};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        ck_assert_msg(r.job[1].start_s == 100, "%s: starts at %g", sp.policy, r.job[1].start_s);
        if (!strcmp(sp.policy, "backfill")) /* fifo holds it behind job 1; backfill not */
            ck_assert_double_eq(r.job[2].start_s, 2);
        ck_assert_double_eq_tol(r.pool[0].utilization, (8 * 50 + 8 * 10) / (24 * 150.0), 1e-9);
        ck_assert_double_eq_tol(r.pool[1].utilization, (16 * 100 + 8 * 50) / (16 * 150.0), 1e-9);
        st_cluster_result_release(&r);
    }
}
END_TEST

/* A busy pool does not starve a job across pools: pool b always has one of its own jobs waiting
 * (jobs 1-22, 8 GPUs for 100 s each, the first two running from t = 0), and job 0 (8 GPUs of a,
 * 8 of b, queued in a) is offered at t = 1 and finds b full. The share it needs in b is held for
 * it from then on, so when b's first job ends at t = 100 the job across pools starts there, not
 * b's next job (which the policy of b would start if nothing held the GPUs, and the next, until
 * b's queue ran dry at about t = 1,100). */
START_TEST(test_a_busy_pool_holds_a_share_for_a_job_across_pools)
{
    st_cluster_cfg c = cluster();
    enum { NB = 22 };
    st_cluster_job jobs[NB + 1];
    int32_t pool[NB + 1];
    const int64_t *span[NB + 1];
    static const int64_t share[2] = {8, 8};
    jobs[0] = (st_cluster_job){1, 50, 50, 16, 0, -1};
    pool[0] = 0;
    span[0] = share;
    for (int i = 1; i <= NB; i++) {
        double d = i == 2 ? 150 : 100; /* b's two first jobs end apart */
        jobs[i] = (st_cluster_job){i <= 2 ? 0 : 10.0 * i, d, d, 8, 0, -1};
        pool[i] = 1;
        span[i] = NULL;
    }
    for (int policy = 0; st_sched_policy_names[policy]; policy++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = st_sched_policy_names[policy],
                              .jobs = jobs,
                              .n = NB + 1,
                              .pool = pool,
                              .span = span};
        st_cluster_result r;
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
        ck_assert_uint_eq(r.st.finished, NB + 1);
        ck_assert_msg(r.job[0].start_s <= 150, "%s: the job across pools starts at %g", sp.policy,
                      r.job[0].start_s);
        st_cluster_result_release(&r);
    }
}
END_TEST

/* A share larger than its pool: never submitted, as a job larger than its pool. */
START_TEST(test_a_share_larger_than_its_pool_is_refused)
{
    st_cluster_cfg c = cluster();
    st_cluster_job jobs[1] = {{0, 10, 10, 24, 0, -1}};
    int32_t pool[1] = {0};
    static const int64_t share[2] = {4, 20};
    const int64_t *span[1] = {share};
    st_cluster_spec sp = {.c = &c, .jobs = jobs, .n = 1, .pool = pool, .span = span};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_int_eq(r.job[0].state, ST_CJ_TOO_BIG);
    st_cluster_result_release(&r);
}
END_TEST

/* 24 GPUs fit pool a (and the cluster's 40) but not pool b's 16. */
START_TEST(test_job_larger_than_its_pool_is_refused)
{
    st_cluster_cfg c = cluster();
    st_cluster_job jobs[2] = {{0, 10, 10, 24, 0, -1}, {0, 10, 10, 24, 0, -1}};
    int32_t pool[2] = {0, 1};
    st_cluster_spec sp = {.c = &c, .jobs = jobs, .n = 2, .pool = pool};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_int_eq(r.job[0].state, ST_CJ_FINISHED);
    ck_assert_int_eq(r.job[1].state, ST_CJ_TOO_BIG);
    st_cluster_result_release(&r);
}
END_TEST

/* A pool that starts inside a leaf sees the fabric's leaves: on 4 nodes of 8 GPUs, 2 a leaf, pool
 * b holds nodes 1-3, so its whole leaf is nodes 2-3. Topology-aware placement puts a 2-node job
 * there (GPUs 16-31), not on nodes 1-2 across two leaves, as a pool numbered from its first node
 * would (its leaves 1-2 and 3); the pool's counts stay its own 24 GPUs. */
START_TEST(test_a_pool_inside_a_leaf_sees_the_fabric_leaves)
{
    static const st_pool_cfg p[] = {{.name = "a", .nodes = 1, .first_node = 0},
                                    {.name = "b", .nodes = 3, .first_node = 1}};
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    c.pools = p;
    c.n_pools = 2;
    st_cluster_job jobs[2] = {{0, 10, 10, 16, 0, -1}, {0, 10, 10, 24, 0, -1}};
    int32_t pool[2] = {1, 1};
    st_cluster_spec sp = {.c = &c,
                          .jobs = jobs,
                          .n = 2,
                          .pool = pool,
                          .placement = "topology-aware",
                          .keep_segments = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_int_eq(r.job[0].state, ST_CJ_FINISHED);
    ck_assert_int_eq(r.job[1].state, ST_CJ_FINISHED); /* the whole pool, after the first */
    for (int64_t g = 0; g < r.seg[0].n; g++) {
        int64_t gpu = r.seg_gpus[r.seg[0].gpu_at + (size_t)g];
        ck_assert_msg(gpu >= 16 && gpu < 32, "GPU %lld is not on leaf 1", (long long)gpu);
    }
    ck_assert_double_eq_tol(r.pool[1].utilization, (16 * 10 + 24 * 10) / (24 * 20.0), 1e-9);
    st_cluster_result_release(&r);
}
END_TEST

Suite *sched_pools_suite(void)
{
    Suite *s = suite_create("sched_pools");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    int n = (int)(count(st_sched_policy_names) * count(st_place_policy_names));
    tcase_add_loop_test(tc, test_jobs_stay_in_their_pool, 0, n);
    tcase_add_loop_test(tc, test_jobs_across_pools_take_each_share, 0, n);
    tcase_add_loop_test(tc, test_jobs_across_pools_of_two_node_sizes_take_each_share, 0, n);
    tcase_add_test(tc, test_a_job_across_pools_waits_for_every_pool);
    tcase_add_test(tc, test_a_busy_pool_holds_a_share_for_a_job_across_pools);
    tcase_add_test(tc, test_a_share_larger_than_its_pool_is_refused);
    tcase_add_test(tc, test_job_larger_than_its_pool_is_refused);
    tcase_add_test(tc, test_a_pool_inside_a_leaf_sees_the_fabric_leaves);
    suite_add_tcase(s, tc);
    return s;
}
