/* The scheduler policies' conformance suite: every registered policy, under every placement
 * policy, on seeded random job mixes: never over-commits a GPU, never starts part of a gang,
 * gives the same schedule for the same jobs, releases every GPU it took, conserves each job's
 * work across preemptions, and, where it promises it, starts a large job that fits the empty
 * cluster while small jobs keep arriving. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/place/policy.h"
#include "models/sched/cluster.h"
#include "models/sched/policy.h"

/* 4 nodes x 8 GPUs, 2 nodes per leaf: room for fragmentation at every level. */
static st_cluster_cfg cluster(void)
{
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    return c;
}

/* A reproducible mix of n jobs from a 64-bit LCG (Knuth's MMIX constants), with priority
 * classes 0-2 and tenants t0-t2 or none. */
static st_cluster_job *mix(size_t n, uint64_t seed)
{
    static const int64_t sizes[] = {1, 1, 1, 2, 4, 8, 8, 16, 32};
    st_cluster_job *j = calloc(n, sizeof *j);
    uint64_t x = seed;
    double t = 0;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        t += (double)(x >> 54) / 8; /* 0 .. 128 s apart */
        double d = 1 + (double)((x >> 20) % 2000);
        j[i] = (st_cluster_job){
            t, d, d, sizes[(x >> 40) % 9], (int64_t)((x >> 10) % 3), (int32_t)(i % 4) - 1};
    }
    return j;
}

/* Each preemption costs a save and a restore that differ by job (0-2 s and 0-4 s, 0 included),
 * so that work is conserved with costs on, and a saving job's GPUs are seen held. */
static void cost_by_job(void *ctx, size_t job, double *save_s, double *restore_s)
{
    (void)ctx;
    *save_s = (double)(job % 3);
    *restore_s = (double)(job % 5);
}

/* Three tenants (and jobs without one): t0 and t1 hold quotas, t2 none, for fair-share to
 * borrow and reclaim; the other policies read no quota. */
static const char *const tenants[] = {"t0", "t1", "t2"};
static const st_quota quotas[] = {{"t0", 0.5, {0}}, {"t1", 0.25, {0}}};

static const st_sched_cfg sched = {.preemption = -1, .quotas = quotas, .n_quotas = 2};

/* The suite's run of jobs[0 .. n) on cluster c under policy and placement: its tenants, quotas,
 * seed, recorded stretches and costed preemptions; a caller sets what differs. */
static st_cluster_spec spec_of(const st_cluster_cfg *c, const char *policy, const char *placement,
                               const st_cluster_job *jobs, size_t n)
{
    return (st_cluster_spec){.c = c,
                             .sched = &sched,
                             .tenants = tenants,
                             .n_tenants = 3,
                             .policy = policy,
                             .placement = placement,
                             .jobs = jobs,
                             .n = n,
                             .seed = 7,
                             .keep_segments = 1,
                             .preempt_cost = cost_by_job};
}

static void run_spec(const st_cluster_spec *sp, st_cluster_result *r)
{
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(sp, r, &err), 0);
}

static void run(const char *policy, const char *placement, const st_cluster_job *jobs, size_t n,
                double horizon_s, st_cluster_result *r)
{
    st_cluster_cfg c = cluster();
    st_cluster_spec sp = spec_of(&c, policy, placement, jobs, n);
    sp.horizon_s = horizon_s;
    run_spec(&sp, r);
}

typedef struct use {
    int64_t gpu;
    double start, end;
} use;

static int by_gpu_then_start(const void *a, const void *b)
{
    const use *x = a, *y = b;
    if (x->gpu != y->gpu)
        return x->gpu < y->gpu ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* No GPU held by two segments at once; every segment holds its job's whole gang of distinct
 * GPUs. */
static void check_no_overcommit(const st_cluster_result *r, const st_cluster_job *jobs)
{
    size_t total = 0;
    for (size_t s = 0; s < r->n_seg; s++) {
        ck_assert_int_eq(r->seg[s].n, jobs[r->seg[s].job].gpus);
        total += (size_t)r->seg[s].n;
    }
    use *u = calloc(total + 1, sizeof *u);
    size_t k = 0;
    for (size_t s = 0; s < r->n_seg; s++)
        for (int64_t g = 0; g < r->seg[s].n; g++)
            u[k++] = (use){r->seg_gpus[r->seg[s].gpu_at + (size_t)g], r->seg[s].start_s,
                           r->seg[s].end_s};
    qsort(u, k, sizeof *u, by_gpu_then_start);
    for (size_t i = 1; i < k; i++)
        if (u[i].gpu == u[i - 1].gpu)
            ck_assert_msg(u[i].start >= u[i - 1].end, "GPU %lld held twice at t = %g",
                          (long long)u[i].gpu, u[i].start);
    free(u);
}

/* Every job finished, having held its GPUs exactly its duration plus what its preemptions cost
 * over its segments, and every GPU is free. */
static void check_released(const st_cluster_result *r, const st_cluster_job *jobs, size_t n)
{
    ck_assert_int_eq(r->st.free_at_end, 32);
    ck_assert_uint_eq(r->st.finished, n);
    double *ran = calloc(n, sizeof *ran);
    for (size_t s = 0; s < r->n_seg; s++)
        ran[r->seg[s].job] += r->seg[s].end_s - r->seg[s].start_s;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(r->job[i].state, ST_CJ_FINISHED);
        ck_assert_double_eq_tol(ran[i], jobs[i].duration_s + r->job[i].preempted_s, 1e-6);
        ck_assert(r->job[i].preempted_s == 0 || r->job[i].preemptions > 0);
        ck_assert(r->job[i].start_s >= jobs[i].submit_s);
    }
    free(ran);
}

static int same(const st_cluster_result *a, const st_cluster_result *b)
{
    return a->n_seg == b->n_seg && memcmp(a->job, b->job, a->n * sizeof *a->job) == 0 &&
           memcmp(a->seg, b->seg, a->n_seg * sizeof *a->seg) == 0 &&
           memcmp(a->seg_gpus, b->seg_gpus,
                  (a->n_seg ? a->seg[a->n_seg - 1].gpu_at + (size_t)a->seg[a->n_seg - 1].n : 0) *
                      sizeof *a->seg_gpus) == 0;
}

static size_t n_policies(void)
{
    size_t n = 0;
    while (st_sched_policy_names[n])
        n++;
    return n;
}

static size_t n_placements(void)
{
    size_t n = 0;
    while (st_place_policy_names[n])
        n++;
    return n;
}

/* Loop index: policy x placement x mix. */
START_TEST(test_policy_conforms)
{
    size_t np = n_policies(), nq = n_placements();
    const char *policy = st_sched_policy_names[_i % np];
    const char *placement = st_place_policy_names[(_i / np) % nq];
    uint64_t seed = 1 + (uint64_t)(_i / (nq * np));
    size_t n = 120;
    st_cluster_job *jobs = mix(n, seed);
    st_cluster_result a, b;
    run(policy, placement, jobs, n, 0, &a);
    ck_assert_str_eq(a.policy, policy);
    ck_assert_str_eq(a.placement, placement);
    check_no_overcommit(&a, jobs);
    check_released(&a, jobs, n);
    run(policy, placement, jobs, n, 0, &b);
    ck_assert_msg(same(&a, &b), "%s/%s: not deterministic", policy, placement);
    st_cluster_result_release(&a);
    st_cluster_result_release(&b);
    free(jobs);
}
END_TEST

/* The cluster as two pools of two nodes (one leaf each), jobs alternating between them. */
static const st_pool_cfg two_pools[] = {{.name = "p0", .nodes = 2, .first_node = 0},
                                        {.name = "p1", .nodes = 2, .first_node = 2}};

static void run_pools(const char *policy, const char *placement, const st_cluster_job *jobs,
                      size_t n, const int32_t *pool, st_cluster_result *r)
{
    st_cluster_cfg c = cluster();
    c.pools = two_pools;
    c.n_pools = 2;
    st_cluster_spec sp = spec_of(&c, policy, placement, jobs, n);
    sp.pool = pool;
    run_spec(&sp, r);
}

/* cost_by_job of the pooled run's id, ctx mapping a run alone's ids to them. */
static void cost_by_pooled_id(void *ctx, size_t job, double *save_s, double *restore_s)
{
    cost_by_job(NULL, ((const size_t *)ctx)[job], save_s, restore_s);
}

/* Pool k's jobs of jobs[0 .. n) alone on a cluster of pool k's two nodes, seeded as the pooled
 * run seeds pool k (its seed + k), into r; their ids in the pooled run into ids. */
static size_t run_alone_on(const char *policy, const char *placement, const st_cluster_job *jobs,
                           size_t n, const int32_t *pool, int k, size_t *ids, st_cluster_result *r,
                           int64_t gpn)
{
    st_cluster_job *mine = calloc(n, sizeof *mine);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (pool[i] == k) {
            ids[m] = i;
            mine[m++] = jobs[i];
        }
    st_cluster_cfg c = cluster();
    c.nodes = 16 / gpn; /* the pool's 16 GPUs on nodes of its size */
    c.gpus_per_node = c.nvlink_domain = gpn;
    st_cluster_spec sp = spec_of(&c, policy, placement, mine, m);
    sp.seed += (uint64_t)k;
    sp.preempt_cost = cost_by_pooled_id;
    sp.ctx = ids;
    run_spec(&sp, r);
    free(mine);
    return m;
}

static size_t run_alone(const char *policy, const char *placement, const st_cluster_job *jobs,
                        size_t n, const int32_t *pool, int k, size_t *ids, st_cluster_result *r)
{
    return run_alone_on(policy, placement, jobs, n, pool, k, ids, r, 8);
}

/* Every segment of a pooled run on its job's pool's GPUs. */
static void check_in_pool(const st_cluster_result *r, const int32_t *pool)
{
    for (size_t s = 0; s < r->n_seg; s++)
        for (int64_t g = 0; g < r->seg[s].n; g++)
            ck_assert_int_eq(r->seg_gpus[r->seg[s].gpu_at + (size_t)g] / 16, pool[r->seg[s].job]);
}

/* Loop index: policy x placement. Every policy respects pools (docs/models/pools.md, "Scheduling
 * by pool"): on two pools each job runs on its own pool's GPUs alone, and each pool's jobs get
 * exactly the schedule they get on that pool alone: the same starts, ends, preemptions and GPUs
 * (shifted by the pool's first GPU), whatever the other pool holds. */
START_TEST(test_pools_are_partitions)
{
    size_t np = n_policies();
    const char *policy = st_sched_policy_names[_i % np];
    const char *placement = st_place_policy_names[_i / np];
    size_t n = 120, ids[120];
    st_cluster_job *jobs = mix(n, 11);
    int32_t pool[120];
    for (size_t i = 0; i < n; i++) {
        pool[i] = (int32_t)((i / 3) % 2); /* runs of three, so a pool sees bursts */
        jobs[i].gpus = jobs[i].gpus > 16 ? 16 : jobs[i].gpus;
    }
    st_cluster_result a;
    run_pools(policy, placement, jobs, n, pool, &a);
    check_no_overcommit(&a, jobs);
    check_in_pool(&a, pool);
    ck_assert_uint_eq(a.st.finished, n);
    for (int k = 0; k < 2; k++) {
        st_cluster_result b;
        size_t m = run_alone(policy, placement, jobs, n, pool, k, ids, &b);
        for (size_t i = 0; i < m; i++) {
            const st_cluster_job_out *x = &a.job[ids[i]], *y = &b.job[i];
            ck_assert_msg(x->start_s == y->start_s && x->end_s == y->end_s &&
                              x->preemptions == y->preemptions,
                          "%s/%s: pool %d's job %zu: start %g end %g alone, %g %g pooled", policy,
                          placement, k, ids[i], y->start_s, y->end_s, x->start_s, x->end_s);
        }
        st_cluster_result_release(&b);
    }
    st_cluster_result_release(&a);
    free(jobs);
}
END_TEST

/* The same 32 GPUs as pools of two node sizes (docs/models/pools.md): p0 two nodes of 8 (GPUs
 * 0-15, one leaf), p1 four trays of 4 (GPUs 16-31, two leaves of two trays). */
static const st_pool_cfg sized_pools[] = {{.name = "p0",
                                           .nodes = 2,
                                           .first_node = 0,
                                           .gpus_per_node = 8,
                                           .nvlink_domain = 8,
                                           .nics_per_node = 8,
                                           .first_gpu = 0,
                                           .first_nic = 0},
                                          {.name = "p1",
                                           .nodes = 4,
                                           .first_node = 2,
                                           .gpus_per_node = 4,
                                           .nvlink_domain = 4,
                                           .nics_per_node = 4,
                                           .first_gpu = 16,
                                           .first_nic = 16}};

/* Loop index: policy x placement. Pools stay partitions when their nodes differ in size: each
 * pool's jobs get exactly the starts, ends and preemptions they get on a cluster of that pool's
 * nodes alone, and run on its GPUs alone. */
START_TEST(test_pools_of_two_node_sizes_are_partitions)
{
    size_t np = n_policies();
    const char *policy = st_sched_policy_names[_i % np];
    const char *placement = st_place_policy_names[_i / np];
    size_t n = 120, ids[120];
    st_cluster_job *jobs = mix(n, 23);
    int32_t pool[120];
    for (size_t i = 0; i < n; i++) {
        pool[i] = (int32_t)((i / 3) % 2);
        jobs[i].gpus = jobs[i].gpus > 16 ? 16 : jobs[i].gpus;
    }
    st_cluster_cfg c = cluster();
    c.nodes = 6;
    c.pools = sized_pools;
    c.n_pools = 2;
    c.mixed_node_sizes = 1;
    c.fabric.nics_per_node = 8;
    st_cluster_spec sp = spec_of(&c, policy, placement, jobs, n);
    sp.pool = pool;
    st_cluster_result a;
    run_spec(&sp, &a);
    check_no_overcommit(&a, jobs);
    check_in_pool(&a, pool);
    ck_assert_uint_eq(a.st.finished, n);
    for (int k = 0; k < 2; k++) {
        st_cluster_result b;
        size_t m = run_alone_on(policy, placement, jobs, n, pool, k, ids, &b, k ? 4 : 8);
        for (size_t i = 0; i < m; i++) {
            const st_cluster_job_out *x = &a.job[ids[i]], *y = &b.job[i];
            ck_assert_msg(x->start_s == y->start_s && x->end_s == y->end_s &&
                              x->preemptions == y->preemptions,
                          "%s/%s: pool %d's job %zu: start %g end %g alone, %g %g pooled", policy,
                          placement, k, ids[i], y->start_s, y->end_s, x->start_s, x->end_s);
        }
        st_cluster_result_release(&b);
    }
    st_cluster_result_release(&a);
    free(jobs);
}
END_TEST

/* A 32-GPU job (the whole cluster) submitted at t = 1 s behind a stream of 1-GPU jobs of 30 s,
 * one a second for three hours: a policy that promises no starvation starts it long before the
 * stream ends. */
START_TEST(test_no_starvation_when_promised)
{
    const char *policy = st_sched_policy_names[_i];
    const st_sched_policy *p = st_sched_policy_find(policy);
    size_t n = 3 * 3600 + 1;
    st_cluster_job *jobs = calloc(n, sizeof *jobs);
    for (size_t i = 0; i < n; i++)
        jobs[i] = (st_cluster_job){(double)i, 30, 30, 1, 0, -1};
    jobs[1] = (st_cluster_job){1, 100, 100, 32, 0, -1};
    st_cluster_result r;
    run(policy, "pack", jobs, n, 4 * 3600, &r);
    check_no_overcommit(&r, jobs);
    if (p->no_starvation) {
        ck_assert_int_eq(r.job[1].state, ST_CJ_FINISHED);
        ck_assert_double_lt(r.job[1].start_s, 3600);
    }
    st_cluster_result_release(&r);
    free(jobs);
}
END_TEST

/* A job larger than the cluster is never submitted, and the rest run. */
START_TEST(test_job_larger_than_the_cluster_is_refused)
{
    st_cluster_job jobs[2] = {{0, 10, 10, 33, 0, -1}, {0, 10, 10, 8, 0, -1}};
    st_cluster_result r;
    run(st_sched_policy_names[_i], "pack", jobs, 2, 0, &r);
    ck_assert_int_eq(r.job[0].state, ST_CJ_TOO_BIG);
    ck_assert_int_eq(r.job[1].state, ST_CJ_FINISHED);
    ck_assert_uint_eq(r.st.too_big, 1);
    st_cluster_result_release(&r);
}
END_TEST

/* An unknown name is an error naming it, never a crash. */
START_TEST(test_unknown_names_are_errors)
{
    st_cluster_cfg c = cluster();
    st_cluster_job j = {0, 1, 1, 1, 0, -1};
    st_cluster_spec sp = {.c = &c, .policy = "fifoo", .jobs = &j, .n = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), ST_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "'fifoo'"));
    st_cluster_result_release(&r);
    sp.policy = NULL;
    sp.placement = "nearest";
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), ST_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "'nearest'"));
    st_cluster_result_release(&r);
}
END_TEST

Suite *conformance_suite(void)
{
    Suite *s = suite_create("conformance");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    int np = (int)n_policies(), nq = (int)n_placements();
    tcase_add_loop_test(tc, test_policy_conforms, 0, np * nq * 3);
    tcase_add_loop_test(tc, test_pools_are_partitions, 0, np * nq);
    tcase_add_loop_test(tc, test_pools_of_two_node_sizes_are_partitions, 0, np * nq);
    tcase_add_loop_test(tc, test_no_starvation_when_promised, 0, np);
    tcase_add_loop_test(tc, test_job_larger_than_the_cluster_is_refused, 0, np);
    tcase_add_test(tc, test_unknown_names_are_errors);
    suite_add_tcase(s, tc);
    return s;
}
