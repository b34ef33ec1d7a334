/* The random placement policy: a job lands on one node drawn among those that hold it all, every
 * such node is drawn over seeds and no other is; a job no node holds takes whole free GPUs of
 * several nodes; the same seed gives the same GPUs, and a cluster run under it is
 * deterministic for its seed. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/place/policy.h"
#include "models/sched/cluster.h"

/* 4 nodes x 8 GPUs; node 0 has 2 free GPUs, node 1 8, node 2 3, node 3 8. */
static st_cluster_cfg cluster(void)
{
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    return c;
}

static void part_held(st_pool *p, const st_cluster_cfg *c)
{
    st_pool_init(p, c);
    int64_t held[] = {0, 1, 2, 3, 4, 5, 16, 17, 18, 19, 20};
    st_pool_take(p, held, 11);
}

START_TEST(test_random_draws_a_node_that_holds_the_job)
{
    st_cluster_cfg c = cluster();
    st_pool p;
    part_held(&p, &c);
    int seen[4] = {0};
    for (uint64_t seed = 1; seed <= 64; seed++) {
        st_placer pl;
        int64_t g[8];
        st_placer_init(&pl, st_place_policy_find("random"), &c);
        st_placer_seed(&pl, seed);
        ck_assert_int_eq(st_placer_take(&pl, &p, 3, g), 0);
        int64_t node = g[0] / 8;
        ck_assert(g[1] / 8 == node && g[2] / 8 == node); /* one node */
        ck_assert(!p.busy[g[0]] && !p.busy[g[1]] && !p.busy[g[2]]);
        seen[node]++;
        st_placer_release(&pl);
    }
    ck_assert_int_eq(seen[0], 0); /* 2 free: cannot hold 3 */
    ck_assert(seen[1] > 0 && seen[2] > 0 && seen[3] > 0);
    st_pool_release(&p);
}
END_TEST

START_TEST(test_random_spreads_a_job_no_node_holds)
{
    st_cluster_cfg c = cluster();
    st_pool p;
    part_held(&p, &c);
    st_placer pl;
    int64_t g[21], h[21];
    st_placer_init(&pl, st_place_policy_find("random"), &c);
    st_placer_seed(&pl, 5);
    ck_assert_int_eq(st_placer_take(&pl, &p, 21, g), 0); /* every free GPU */
    int64_t sum = 0;
    for (int k = 0; k < 21; k++) {
        ck_assert(!p.busy[g[k]]);
        sum += g[k];
    }
    ck_assert_int_eq(sum, 6 + 7 + (8 + 15) * 8 / 2 + (21 + 22 + 23) + (24 + 31) * 8 / 2);
    ck_assert_int_eq(st_placer_take(&pl, &p, 22, g), ST_ERANGE);
    st_placer_release(&pl);
    /* the same seed, the same GPUs */
    st_placer_init(&pl, st_place_policy_find("random"), &c);
    st_placer_seed(&pl, 5);
    ck_assert_int_eq(st_placer_take(&pl, &p, 21, h), 0);
    ck_assert(memcmp(g, h, sizeof g) == 0);
    st_placer_release(&pl);
    st_pool_release(&p);
}
END_TEST

/* The same jobs under two seeds place some job on other GPUs; under one seed twice, the same. */
START_TEST(test_random_runs_follow_the_seed)
{
    st_cluster_cfg c = cluster();
    st_cluster_job jobs[12];
    for (int i = 0; i < 12; i++)
        jobs[i] = (st_cluster_job){i, 50, 50, 1 + i % 4, 0, -1};
    st_cluster_result r[3];
    uint64_t seeds[3] = {3, 3, 4};
    for (int k = 0; k < 3; k++) {
        st_cluster_spec sp = {.c = &c,
                              .policy = "fifo",
                              .placement = "random",
                              .jobs = jobs,
                              .n = 12,
                              .seed = seeds[k],
                              .keep_segments = 1};
        st_err err = {0};
        ck_assert_int_eq(st_cluster_run(&sp, &r[k], &err), 0);
    }
    size_t ng = (size_t)(r[0].seg[r[0].n_seg - 1].gpu_at + (size_t)r[0].seg[r[0].n_seg - 1].n);
    ck_assert(memcmp(r[0].seg_gpus, r[1].seg_gpus, ng * sizeof(int64_t)) == 0);
    ck_assert(memcmp(r[0].seg_gpus, r[2].seg_gpus, ng * sizeof(int64_t)) != 0);
    for (int k = 0; k < 3; k++)
        st_cluster_result_release(&r[k]);
}
END_TEST

Suite *random_place_suite(void)
{
    Suite *s = suite_create("random_place");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_random_draws_a_node_that_holds_the_job);
    tcase_add_test(tc, test_random_spreads_a_job_no_node_holds);
    tcase_add_test(tc, test_random_runs_follow_the_seed);
    suite_add_tcase(s, tc);
    return s;
}
