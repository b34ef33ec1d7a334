/* A cluster whose pools' nodes are of several sizes (docs/models/pools.md, "Nodes of several
 * sizes"): GPU ids, nodes and NICs by each pool's node, placement on whole nodes of the job's
 * pool, failures that strike nodes, NICs and leaves of their own size, and the plant's idle draw
 * per node of its pool's size. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/place/policy.h"
#include "models/plant/plant.h"
#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"
#include "models/silicon/gpu.h"

static const st_gpu_spec hgx = {.name = "hgx", .idle_w = 70, .node_base_w = 2000, .tdp_w = 700};
static const st_gpu_spec tray = {.name = "tray", .idle_w = 100, .node_base_w = 900, .tdp_w = 1200};

/* Pool a: three HGX nodes of 8 (GPUs 0-23, NICs 0-23); pool b: five trays of 4 (GPUs 24-43, NICs
 * 24-43), one NVLink domain of 20 trays' worth (80 GPUs, partly filled); 2 nodes a leaf and a
 * rack, so leaf 1 and rack 1 hold node 2 of a and node 3 of b. */
static const st_pool_cfg pools[] = {
    {.name = "a",
     .gpu = &hgx,
     .nodes = 3,
     .first_node = 0,
     .gpus_per_node = 8,
     .nvlink_domain = 8,
     .nics_per_node = 8,
     .first_gpu = 0,
     .first_nic = 0,
     .node_base_w = 2000},
    {.name = "b",
     .gpu = &tray,
     .nodes = 5,
     .first_node = 3,
     .gpus_per_node = 4,
     .nvlink_domain = 80,
     .nics_per_node = 4,
     .first_gpu = 24,
     .first_nic = 24,
     .node_base_w = 900},
};

static st_cluster_cfg cluster(void)
{
    st_cluster_cfg c = {.gpu = &hgx, .nodes = 8, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    c.fabric.nics_per_node = 8;
    c.racks.nodes_per_rack = 2;
    c.pools = pools;
    c.n_pools = 2;
    c.mixed_node_sizes = 1;
    return c;
}

START_TEST(test_gpu_ids_follow_each_pools_node_size)
{
    st_cluster_cfg c = cluster();
    ck_assert(!st_pools_one_node_size(&c));
    ck_assert_int_eq(st_pools_cluster_gpus(&c), 44);
    ck_assert_int_eq(st_pools_cluster_nics(&c), 44);
    static const int64_t gpu[] = {0, 7, 8, 23, 24, 27, 28, 43};
    static const int64_t node[] = {0, 0, 1, 2, 3, 3, 4, 7};
    for (size_t i = 0; i < sizeof gpu / sizeof *gpu; i++) {
        ck_assert_int_eq(st_pools_node_of_gpu(&c, gpu[i]), node[i]);
        ck_assert_int_eq(st_pools_of_gpu(&c, gpu[i]), gpu[i] >= 24);
    }
    ck_assert_int_eq(st_pools_node_first_gpu(&c, 3), 24);
    ck_assert_int_eq(st_pools_node_first_gpu(&c, 8), 44); /* past the last node: the end */
    ck_assert_int_eq(st_pools_node_gpus(&c, 2), 8);
    ck_assert_int_eq(st_pools_node_gpus(&c, 3), 4);
    ck_assert_int_eq(st_pools_nodes_gpus(&c, 2, 2), 12);
    ck_assert_int_eq(st_pools_first_gpu(&c, 1), 24);
    ck_assert_int_eq(st_pools_gpus(&c, 1), 20);
    /* racks of 2 nodes: node 3 (GPUs 24-27) shares rack 1 with node 2 */
    ck_assert_int_eq(st_racks_of_gpu(&c, 23), 1);
    ck_assert_int_eq(st_racks_of_gpu(&c, 27), 1);
    ck_assert_int_eq(st_racks_of_gpu(&c, 28), 2);
}
END_TEST

/* A pool's view numbers GPUs node x its node size + slot: its own GPUs exactly, another pool's
 * on their own node at their slot scaled; its NVLink domains begin at its first node. */
START_TEST(test_a_pools_view_keeps_each_gpus_node)
{
    st_cluster_cfg c = cluster(), v;
    ck_assert_int_eq(st_pools_view_gpu(&c, 1, 24), 12);
    ck_assert_int_eq(st_pools_view_gpu(&c, 1, 43), 31);
    ck_assert_int_eq(st_pools_view_gpu(&c, 0, 27), 3 * 8 + 6); /* slot 3 of 4 -> 6 of 8 */
    ck_assert_int_eq(st_pools_view_gpu(&c, 1, 9), 1 * 4 + 0);  /* slot 1 of 8 -> 0 of 4 */
    st_pools_view(&c, 1, &v);
    ck_assert_int_eq(v.gpus_per_node, 4);
    ck_assert_int_eq(v.nvlink_domain, 80);
    ck_assert_int_eq(v.fabric.nics_per_node, 4);
    ck_assert_int_eq(v.nodes, 8);
    ck_assert_int_eq((12 + v.nvlink_skew) % 80, 0); /* view GPU 12 opens a domain */
    ck_assert(v.gpu == &tray && v.node.base_power_w == 900);
}
END_TEST

/* Loop index: placement policy. Every placement puts a job of whole nodes of its pool on whole
 * nodes of that pool's size: an 8-GPU job on one HGX node of a or on two trays of b, a 4-GPU job
 * on one tray. */
START_TEST(test_placement_takes_whole_nodes_of_its_pool)
{
    st_cluster_cfg c = cluster();
    st_cluster_job jobs[6] = {{0, 10, 10, 8, 0, -1}, {0, 10, 10, 8, 0, -1}, {0, 10, 10, 4, 0, -1},
                              {0, 10, 10, 8, 0, -1}, {0, 10, 10, 4, 0, -1}, {1, 10, 10, 16, 0, -1}};
    int32_t pool[6] = {0, 1, 1, 0, 1, 0};
    st_cluster_spec sp = {.c = &c,
                          .placement = st_place_policy_names[_i],
                          .jobs = jobs,
                          .n = 6,
                          .pool = pool,
                          .keep_segments = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_uint_eq(r.st.finished, 6);
    for (size_t s = 0; s < r.n_seg; s++) {
        const st_cluster_seg *g = &r.seg[s];
        int64_t on[8] = {0};
        for (int64_t k = 0; k < g->n; k++) {
            int64_t id = r.seg_gpus[g->gpu_at + (size_t)k];
            ck_assert_int_eq(st_pools_of_gpu(&c, id), pool[g->job]);
            on[st_pools_node_of_gpu(&c, id)]++;
        }
        for (int64_t n = 0; n < 8; n++)
            ck_assert_msg(on[n] == 0 || on[n] == st_pools_node_gpus(&c, n),
                          "%s: job %zu holds %lld of node %lld's %lld GPUs", sp.placement, g->job,
                          (long long)on[n], (long long)n, (long long)st_pools_node_gpus(&c, n));
    }
    ck_assert_int_eq(r.st.free_at_end, 44);
    st_cluster_result_release(&r);
}
END_TEST

/* One component of each class: node 3 is b's first tray (GPUs 24-27), NIC 25 its second GPU's,
 * leaf 1 nodes 2-3 (GPUs 16-27), rack 3 nodes 6-7 (GPUs 36-43); 8 nodes, 44 NICs, 4 leaves. */
START_TEST(test_failures_strike_components_of_their_size)
{
    st_cluster_cfg c = cluster();
    static const char *const kinds[] = {"gpu", "node", "nic", "leaf_switch", "rack"};
    static const int64_t count[] = {44, 8, 44, 4, 4}, k[] = {30, 3, 25, 1, 3};
    static const int64_t lo[] = {30, 24, 25, 16, 36}, n[] = {1, 4, 1, 12, 8};
    st_failure_class fc[5];
    for (int i = 0; i < 5; i++)
        fc[i] = (st_failure_class){.component = kinds[i], .mtbf_s = 1e6, .repair_s = 10};
    st_failures_cfg fail = {.classes = fc, .n_classes = 5};
    st_outage_class oc[5];
    ck_assert_int_eq(st_outage_classes(&c, &fail, oc), 5);
    for (int i = 0; i < 5; i++) {
        int64_t first, m;
        ck_assert_int_eq(oc[i].count, count[i]);
        st_outage_range(&oc[i], k[i], 44, &first, &m);
        ck_assert_msg(first == lo[i] && m == n[i], "%s %lld: GPUs %lld + %lld", kinds[i],
                      (long long)k[i], (long long)first, (long long)m);
    }
}
END_TEST

/* A rack's idle draw counts each node at its own pool's size: rack 1 is an HGX node of 8 GPUs
 * and a tray of 4. */
START_TEST(test_idle_power_counts_each_node_at_its_size)
{
    st_cluster_cfg c = cluster();
    double hgx_w = 2000 + 8 * 70.0, tray_w = 900 + 4 * 100.0;
    ck_assert_double_eq_tol(st_plant_nodes_idle_w(&c, 2, 2), hgx_w + tray_w, 1e-9);
    ck_assert_double_eq_tol(st_plant_nodes_idle_w(&c, 0, 8), 3 * hgx_w + 5 * tray_w, 1e-9);
}
END_TEST

Suite *node_sizes_suite(void)
{
    Suite *s = suite_create("node_sizes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    int np = 0;
    while (st_place_policy_names[np])
        np++;
    tcase_add_test(tc, test_gpu_ids_follow_each_pools_node_size);
    tcase_add_test(tc, test_a_pools_view_keeps_each_gpus_node);
    tcase_add_loop_test(tc, test_placement_takes_whole_nodes_of_its_pool, 0, np);
    tcase_add_test(tc, test_failures_strike_components_of_their_size);
    tcase_add_test(tc, test_idle_power_counts_each_node_at_its_size);
    suite_add_tcase(s, tc);
    return s;
}
