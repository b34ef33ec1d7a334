/* A cluster of pools with nodes of two sizes as `strata run` forecasts it (docs/models/pools.md,
 * "Nodes of several sizes"): a GB200 pool of 4-GPU trays in 72-GPU NVLink domains beside 8-GPU
 * HGX H100 nodes loads with each pool's node, a GB200 job steps as on a GB200 cluster alone
 * (its domains begin at its pool's first tray), each job's nodes are priced at its own pool's
 * node size, and a job across both pools runs where its pace pool's nodes are the larger. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/step/step.h"
#include "unit/check_util.h"
#include "unit/run_text.h"

/* Four H100 nodes (GPUs 0-31), then 18 GB200 trays (GPUs 32-103, one NVL72 rack), all under one
 * leaf; an 8B job on the whole GB200 domain, one on two H100 nodes. */
static const char *const mixed =
    "version: 1\nname: m\nseed: 1\ncluster:\n  pools:\n"
    "    - { name: h100, gpu: h100-sxm, nodes: 4 }\n"
    "    - { name: gb200, gpu: gb200, nodes: 18 }\n"
    "  fabric: { nodes_per_leaf: 22 }\n"
    "workloads:\n%s"
    "cost: { delivery: on-prem, node_price: { h100-sxm: 240000 USD, gb200: 160000 USD },\n"
    "        switch_price: 30000 USD, maintenance: 8%, staff: 1000000 USD/y }\n";
static const char *const gb200_alone =
    "version: 1\nname: g\nseed: 1\ncluster: { gpu: gb200, nodes: 18, gpus_per_node: 4,\n"
    "  nvlink_domain: 72, fabric: { nodes_per_leaf: 18 } }\nworkloads:\n%s";
static const char *const job =
    "  - { name: j%s, model: llama3-8b, seq_len: 4096, global_batch: 144, gpus: %d,%s\n"
    "      parallel: { tp: 4, pp: 1, zero: 1, microbatch: 1 }, steps: 100 }\n";

static void run_fmt(const char *fmt, const char *work, st_scn **s, st_run *r)
{
    char text[4096];
    ck_assert((size_t)snprintf(text, sizeof text, fmt, work) < sizeof text);
    run_text(text, s, r);
}

START_TEST(test_a_gb200_pool_loads_beside_h100_nodes)
{
    char work[512];
    snprintf(work, sizeof work, job, "", 72, " pool: gb200,");
    st_scn *s = NULL;
    st_run r;
    run_fmt(mixed, work, &s, &r);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_int_eq(c->n_pools, 2);
    ck_assert_int_eq(st_pools_gpus_per_node(c, 0), 8);
    ck_assert_int_eq(st_pools_gpus_per_node(c, 1), 4);
    ck_assert_int_eq(st_pools_nvlink_domain(c, 0), 8);
    ck_assert_int_eq(st_pools_nvlink_domain(c, 1), 72); /* the NVL72 platform's */
    ck_assert_int_eq(st_pools_nics_per_node(c, 1), 4);
    ck_assert_int_eq(st_pools_first_gpu(c, 1), 32);
    ck_assert_int_eq(st_pools_cluster_gpus(c), 104);
    ck_assert(!st_pools_one_node_size(c));
    /* the platform's power besides the GPUs is the tray's */
    ck_assert_double_eq(c->pools[1].node_base_w, c->pools[1].gpu->node_base_w);
    ck_assert(r.f[0].gpus && r.f[0].gpus[0] == 32); /* on its pool's GPUs */
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* The job on the whole GB200 rack steps as on 18 GB200 trays alone: its one NVLink domain is
 * the pool's 18 trays, not one cut at GPU 72 of the cluster (which would send its tensor- and
 * data-parallel traffic over the NICs). */
START_TEST(test_a_gb200_job_steps_as_on_gb200_alone)
{
    char work[512];
    snprintf(work, sizeof work, job, "", 72, " pool: gb200,");
    st_scn *a = NULL, *b = NULL;
    st_run ra, rb;
    run_fmt(mixed, work, &a, &ra);
    snprintf(work, sizeof work, job, "", 72, "");
    run_fmt(gb200_alone, work, &b, &rb);
    ck_assert(ra.f[0].has_step && rb.f[0].has_step);
    ck_assert_msg(ra.f[0].step.step_time_s == rb.f[0].step.step_time_s,
                  "pooled %.9g s, alone %.9g s", ra.f[0].step.step_time_s,
                  rb.f[0].step.step_time_s);
    st_run_release(&ra);
    st_run_release(&rb);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* Each job's nodes at its own pool's size and price: per GPU-second held, a GB200 tray (160,000
 * USD for 4 GPUs) costs 4/3 of an HGX H100 node (240,000 USD for 8), the cluster's shared parts
 * aside. */
START_TEST(test_each_jobs_nodes_are_priced_at_its_pools_size)
{
    char a[512], b[512], work[1024];
    snprintf(a, sizeof a, job, "a", 16, " pool: h100,");
    snprintf(b, sizeof b, job, "b", 16, " pool: gb200,");
    snprintf(work, sizeof work, "%s%s", a, b);
    st_scn *s = NULL;
    st_run r;
    run_fmt(mixed, work, &s, &r);
    ck_assert(r.f[0].has_cost && r.f[1].has_cost);
    double h = r.f[0].cost.capex_nodes_usd / r.f[0].life.wall_s;
    double g = r.f[1].cost.capex_nodes_usd / r.f[1].life.wall_s;
    ASSERT_REL(g / h, 4.0 / 3.0, 1e-9);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* Job f's step on its pace pool k's step context with rank r on view id ids[r] (n ranks). */
static double step_on_view(const st_cluster_cfg *c, int k, const st_forecast *f, const int64_t *ids,
                           int64_t n)
{
    st_cluster_cfg view;
    st_pools_view(c, k, &view);
    st_step_ctx *x = NULL;
    st_err err = {0};
    st_step_result step;
    ck_assert_int_eq(st_step_ctx_new(&view, &x, &err), 0);
    st_step_ctx_place(x, ids, n);
    ck_assert_int_eq(
        st_step_run_at(x, st_forecast_step_w(f), f->microbatch, f->clock, &step, NULL, &err), 0);
    st_step_ctx_free(x);
    return step.step_time_s;
}

/* Job f's 32 GPUs in pool k's view ids, into ids: each a place of its own on its own node. */
static void view_ids_of(const st_cluster_cfg *c, int k, const st_forecast *f, int64_t *ids)
{
    unsigned char seen[22 * 8] = {0}; /* an 8-GPU view: the cluster's 22 nodes of 8 */
    for (int g = 0; g < 32; g++) {
        ids[g] = st_pools_view_gpu(c, k, f->gpus[g]);
        ck_assert(ids[g] >= 0 && ids[g] < (int64_t)sizeof seen);
        ck_assert_msg(!seen[ids[g]]++, "two GPUs at view id %lld", (long long)ids[g]);
        ck_assert_int_eq(ids[g] / 8, st_pools_node_of_gpu(c, f->gpus[g])); /* its own node */
    }
}

/* A job across both pools, 16 H100 (two nodes) and 16 GB200 (four trays): the slower H100 pool,
 * of the larger nodes, paces it, and it runs on the H100 pool's view, where each GB200 GPU at slot
 * s of its tray takes slot 2s of that tray's node: its 32 GPUs keep 32 places and their nodes,
 * and its step is the H100 step context's on those places. */
START_TEST(test_a_job_across_node_sizes_runs_on_its_pace_pools_nodes)
{
    char work[512];
    snprintf(work, sizeof work, job, "", 32, " pool: { h100: 16, gb200: 16 },");
    st_scn *s = NULL;
    st_run r;
    run_fmt(mixed, work, &s, &r);
    const st_cluster_cfg *c = st_scn_cluster(s);
    const st_forecast *f = &r.f[0];
    ck_assert(f->has_step && f->has_life && f->gpus);
    ck_assert_int_eq(f->pace_pool, 0); /* h100, 8 GPUs a node */
    ck_assert_double_gt(f->pool_step_s[0], f->pool_step_s[1]);
    int64_t ids[32];
    view_ids_of(c, 0, f, ids);
    double on_view = step_on_view(c, 0, f, ids, 32);
    ck_assert_msg(f->step.step_time_s == on_view, "run %.9g s, on the view %.9g s",
                  f->step.step_time_s, on_view);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* The GB200 pool listed first: the job's ranks come in pool order, 16 GB200 then 16 H100, and
 * its tensor-parallel groups of 8 span two trays of one NVL72 domain. On the H100 view a tray
 * is a node of its own, so a GB200 group there would cross the NICs; the step model times a
 * replica's groups on the first replica, so the run puts the pace pool's share first (an H100
 * group on one node, over NVLink), and the job steps as its pace pool's replicas. */
START_TEST(test_a_job_across_node_sizes_times_its_pace_pools_replicas)
{
    static const char *const gb200_first =
        "version: 1\nname: m\nseed: 1\ncluster:\n  pools:\n"
        "    - { name: gb200, gpu: gb200, nodes: 18 }\n"
        "    - { name: h100, gpu: h100-sxm, nodes: 4 }\n"
        "  fabric: { nodes_per_leaf: 22 }\nworkloads:\n"
        "  - { name: j, model: llama3-8b, seq_len: 4096, global_batch: 64, gpus: 32,\n"
        "      pool: { gb200: 16, h100: 16 }, parallel: { tp: 8, pp: 1, zero: 1, microbatch: 1 },\n"
        "      steps: 100 }\n";
    st_scn *s = NULL;
    st_run r;
    run_text(gb200_first, &s, &r);
    const st_cluster_cfg *c = st_scn_cluster(s);
    const st_forecast *f = &r.f[0];
    ck_assert(f->has_step && f->has_life && f->gpus);
    ck_assert_int_eq(f->pace_pool, 1);                   /* h100 */
    ck_assert_int_eq(st_pools_of_gpu(c, f->gpus[0]), 0); /* rank 0 of the placement: a GB200 */
    int64_t ids[32], lead[32];
    view_ids_of(c, 1, f, ids);
    for (int g = 0; g < 32; g++)
        lead[g] = ids[(g + 16) % 32];
    double as_run = step_on_view(c, 1, f, lead, 32), gb200_lead = step_on_view(c, 1, f, ids, 32);
    ck_assert_msg(f->step.step_time_s == as_run, "run %.9g s, H100 ranks first %.9g s",
                  f->step.step_time_s, as_run);
    ck_assert_msg(gb200_lead > 1.05 * as_run, "GB200 ranks first %.9g s, H100 first %.9g s",
                  gb200_lead, as_run);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* Paced by its pool of the smaller nodes, a job across pools is refused at its `pool`: on that
 * pool's view two GPUs of a larger node would share one place. Here the pools are 4-GPU H100 PCIe
 * servers (the slower type) and 8-GPU HGX H100 nodes. */
START_TEST(test_a_pace_pool_of_smaller_nodes_is_refused)
{
    static const char *const text =
        "version: 1\nname: p\nseed: 1\ncluster:\n  node: { base_power: 2 kW }\n  pools:\n"
        "    - { name: pcie, gpu: h100-pcie, nodes: 4, gpus_per_node: 4 }\n"
        "    - { name: sxm, gpu: h100-sxm, nodes: 2 }\n"
        "workloads:\n"
        "  - { name: j, model: llama3-8b, gpus: 16, global_batch: 32, pool: { pcie: 8, sxm: 8 },\n"
        "      parallel: { tp: 4, pp: 1, dp: 4 } }\n";
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("p.yaml", text, strlen(text), &s, &d), 0);
    st_run_spec sp = st_plan_run_spec(s, st_scn_seed(s));
    st_run r;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&sp, &r, &err), ST_EINVAL);
    ck_assert_msg(strstr(err.msg, "paced by pool 'pcie' (4 GPUs a node)") &&
                      strstr(err.msg, "pool 'sxm', whose nodes are larger (8)"),
                  "%s", err.msg);
    ck_assert_int_eq(err.loc.line, 10); /* its `pool` */
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* pool_batch: balanced never hands the pace to the pool of smaller nodes, which the run would
 * refuse: on 16 H100 and 16 GB200 at 32 sequences, moving a GB200 replica's worth of sequences
 * made the GB200 replicas end last, and the run failed where the even split runs. */
START_TEST(test_a_balanced_split_keeps_the_pace_on_the_largest_nodes)
{
    static const char *const balanced =
        "  - { name: j, model: llama3-8b, seq_len: 4096, global_batch: 32, gpus: 32,\n"
        "      pool: { h100: 16, gb200: 16 }, pool_batch: balanced,\n"
        "      parallel: { tp: 4, pp: 1, zero: 1, microbatch: 1 }, steps: 100 }\n";
    st_scn *s = NULL;
    st_run r;
    run_fmt(mixed, balanced, &s, &r);
    const st_forecast *f = &r.f[0];
    ck_assert(f->has_step);
    ck_assert_int_eq(f->pace_pool, 0); /* h100, 8 GPUs a node */
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *pools_node_sizes_suite(void)
{
    Suite *s = suite_create("pools_node_sizes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_gb200_pool_loads_beside_h100_nodes);
    tcase_add_test(tc, test_a_gb200_job_steps_as_on_gb200_alone);
    tcase_add_test(tc, test_each_jobs_nodes_are_priced_at_its_pools_size);
    tcase_add_test(tc, test_a_job_across_node_sizes_runs_on_its_pace_pools_nodes);
    tcase_add_test(tc, test_a_job_across_node_sizes_times_its_pace_pools_replicas);
    tcase_add_test(tc, test_a_pace_pool_of_smaller_nodes_is_refused);
    tcase_add_test(tc, test_a_balanced_split_keeps_the_pace_on_the_largest_nodes);
    suite_add_tcase(s, tc);
    return s;
}
