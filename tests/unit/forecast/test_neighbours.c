/* Neighbours' traffic: on scenarios/examples/neighbours.yaml (eight 8-GPU servers, two to a leaf,
 * 2:1 oversubscribed uplinks) `a` and `b` each span two leaves and share leaf 1's uplinks; each
 * runs slower while the other runs than its own step alone gives, and ends later than its
 * life alone; `pin`, inside one leaf, is untouched. And the rate hook's neighbours
 * (nbr_flows.h): a job is handed exactly the other jobs' cross-leaf flows that leave or enter
 * one of its leaves, in the order of all of them. */
#include <check.h>
#include <string.h>

#include "models/fabric/topo.h"
#include "models/forecast/nbr_flows.h"
#include "models/forecast/run.h"
#include "scenarios/scenario.h"

START_TEST(test_two_cross_leaf_jobs_are_each_slower_together_than_alone)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/neighbours.yaml", &s, &d),
                     0);
    st_run_spec sp = {.c = st_scn_cluster(s),
                      .w = st_scn_workload(s, 0),
                      .n = st_scn_workload_count(s),
                      .sched = st_scn_sched(s),
                      .seed = st_scn_seed(s)};
    st_run r;
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &r, &err) == 0, "forecast: %s", err.msg);
    const st_forecast *pin = &r.f[0], *a = &r.f[1], *b = &r.f[2];
    ck_assert(pin->has_end && a->has_end && b->has_end);
    /* both across leaves: servers 1-2 and 3-4, two to a leaf */
    ck_assert_int_ne(a->gpus[0] / 16, a->gpus[15] / 16);
    ck_assert_int_ne(b->gpus[0] / 16, b->gpus[15] / 16);
    ck_assert_msg(a->slowest_rate < 0.99 && b->slowest_rate < 0.99, "rates %.6g %.6g",
                  a->slowest_rate, b->slowest_rate);
    ck_assert_msg(a->end_s > a->start_s + a->life.wall_s + 1, "a ends %.9g, alone %.9g", a->end_s,
                  a->start_s + a->life.wall_s);
    ck_assert_msg(b->end_s > b->start_s + b->life.wall_s + 1, "b ends %.9g, alone %.9g", b->end_s,
                  b->start_s + b->life.wall_s);
    /* pin's traffic never leaves its node, and nobody's crosses its links: its own run time
     * (to the cluster engine's nanosecond tick, to which its run time is rounded) */
    ck_assert_double_eq(pin->slowest_rate, 1);
    ck_assert_double_eq_tol(pin->end_s, pin->start_s + pin->life.wall_s, 1e-9);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* Seven jobs of three 8-GPU nodes on 2-node leaves, back to back, so that jobs 2k and 2k + 1
 * share a leaf, and one job of one node alone in its leaf; job 5 not running. */
START_TEST(test_a_job_is_handed_the_flows_on_its_leaves_in_their_order)
{
    static const char *yaml = "version: 1\n"
                              "name: chain\n"
                              "cluster:\n"
                              "  gpu: h100-sxm\n"
                              "  nodes: 24\n"
                              "  gpus_per_node: 8\n"
                              "  fabric: { nodes_per_leaf: 2, oversubscription: 3 }\n"
                              "workloads:\n"
                              "  - { name: a, model: llama3-8b, seq_len: 4096, global_batch: 8,\n"
                              "      gpus: 8, steps: 1, parallel: { dp: 8 } }\n";
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("chain.yaml", yaml, strlen(yaml), &s, &d), 0);
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_topo *t = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_topo_new(c, &t, &err), 0);
    enum { N = 8 };
    st_placement at[N];
    int holding[N];
    for (int k = 0; k < N; k++) {
        int64_t first = k < 7 ? 24 * k : 8 * 22, n = k < 7 ? 24 : 8;
        st_placement_init_range(&at[k], t, c, first, n);
        holding[k] = k != 5;
    }
    st__nbr_flows f = {0};
    st__nbr_flows_build(&f, t, at, holding, N, 8);
    ck_assert_uint_eq(f.n, 6 * 16); /* each running 3-node job: 16 of its 24 hops cross leaves */
    int64_t bg[2 * 6 * 16];
    for (int job = 0; job < N; job++) {
        size_t m = st__nbr_flows_gather(&f, t, &at[job], (size_t)job, bg), want = 0;
        for (size_t i = 0; i < f.n; i++) { /* every other job's flow touching one of its leaves */
            int64_t la = st_topo_leaf_of(t, f.pair[2 * i]);
            int64_t lb = st_topo_leaf_of(t, f.pair[2 * i + 1]), mine = 0;
            for (int64_t r = 0; r < at[job].n_gpus; r++) {
                int64_t l = st_topo_leaf_of(t, at[job].gpu[r]);
                mine |= l == la || l == lb;
            }
            if (f.owner[i] == (size_t)job || !mine)
                continue;
            ck_assert_int_lt(want, m);
            ck_assert_int_eq(bg[2 * want], f.pair[2 * i]);
            ck_assert_int_eq(bg[2 * want + 1], f.pair[2 * i + 1]);
            want++;
        }
        ck_assert_uint_eq(m, want);
        if (job == 0 || job == 1) /* they share leaf 1: each other's flows on it */
            ck_assert_uint_gt(m, 0);
        if (job == 4 || job == 7) /* job 4's partner, job 5, is not running; job 7 is alone */
            ck_assert_uint_eq(m, 0);
    }
    st__nbr_flows_release(&f);
    for (int k = 0; k < N; k++)
        st_placement_release(&at[k]);
    st_topo_free(t);
    st_scn_free(s);
}
END_TEST

Suite *neighbours_suite(void)
{
    Suite *s = suite_create("neighbours");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_two_cross_leaf_jobs_are_each_slower_together_than_alone);
    tcase_add_test(tc, test_a_job_is_handed_the_flows_on_its_leaves_in_their_order);
    suite_add_tcase(s, tc);
    return s;
}
