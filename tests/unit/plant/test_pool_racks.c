/* Racks by pool (cluster.pools[].racks, docs/models/pools.md): once a pool states racks of its
 * own, every pool's nodes fill racks of their own, each built to its pool's size and cooling;
 * the rack map, the steady facility's heat and the cluster run's rack failures follow them. */
#include <check.h>

#include "models/config/racks.h"
#include "models/plant/plant.h"
#include "models/sched/outage.h"
#include "scenarios/scenario.h"
#include "unit/cluster_text.h"

/* 10 H100 nodes on the cluster's air racks of 4, 5 B200 nodes on liquid racks of 2 of their own */
static const char *const by_pool =
    "  pools:\n"
    "    - { name: old, gpu: h100-sxm, nodes: 10 }\n"
    "    - { name: new, gpu: b200, nodes: 5,\n"
    "        racks: { nodes_per_rack: 2, cooling: { kind: liquid } } }\n"
    "  racks: { nodes_per_rack: 4 }";

START_TEST(test_each_pool_fills_racks_of_its_own)
{
    st_scn *s = cluster_text_ok(by_pool);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_int_eq(c->racks_by_pool, 1);
    /* old: nodes 0-3, 4-7, 8-9; new: nodes 10-11, 12-13, 14 */
    ck_assert_int_eq(st_racks_count(c), 6);
    const int64_t first[] = {0, 4, 8, 10, 12, 14}, nodes[] = {4, 4, 2, 2, 2, 1};
    for (int64_t k = 0; k < 6; k++) {
        ck_assert_int_eq(st_racks_first_node(c, k), first[k]);
        ck_assert_int_eq(st_racks_nodes(c, k), nodes[k]);
        for (int64_t n = first[k]; n < first[k] + nodes[k]; n++)
            ck_assert_int_eq(st_racks_of_node(c, n), k);
    }
    ck_assert_int_eq(st_racks_of_gpu(c, 10 * 8 + 3), 3);
    /* the cursor answers as the map does, in order and in a stride that jumps racks both ways */
    st_racks_cursor at = {0}, jump = {0};
    for (int64_t g = 0; g < 15 * 8; g++) {
        ck_assert_int_eq(st_racks_of_gpu_at(c, &at, g), st_racks_of_gpu(c, g));
        int64_t h = (g * 37) % (15 * 8);
        ck_assert_int_eq(st_racks_of_gpu_at(c, &jump, h), st_racks_of_gpu(c, h));
    }
    ck_assert_int_eq(st_racks_pool_first(c, 1), 3);
    ck_assert_int_eq(st_racks_pool_count(c, 0), 3);
    ck_assert_int_eq(st_racks_pool_count(c, 1), 3);
    /* the old pool's racks are the cluster's: air-cooled, no liquid loop */
    ck_assert_int_eq(st_racks_cfg(c, 2)->cooling, ST_COOLING_AIR);
    ck_assert_double_eq(st_racks_cfg(c, 2)->liquid_fraction, 0);
    ck_assert_int_eq(st_racks_cfg(c, 2)->nodes_per_rack, 4);
    /* the new pool's: liquid, at the liquid kind's default share */
    ck_assert_int_eq(st_racks_cfg(c, 3)->cooling, ST_COOLING_LIQUID);
    ck_assert_double_eq_tol(st_racks_cfg(c, 5)->liquid_fraction, 0.8, 1e-12);
    ck_assert_int_eq(st_racks_cfg(c, 5)->nodes_per_rack, 2);
    st_scn_free(s);
}
END_TEST

START_TEST(test_without_pool_racks_a_rack_may_hold_two_pools)
{
    st_scn *s = cluster_text_ok("  pools:\n"
                                "    - { name: old, gpu: h100-sxm, nodes: 10 }\n"
                                "    - { name: new, gpu: b200, nodes: 5 }\n"
                                "  racks: { nodes_per_rack: 4 }");
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_int_eq(c->racks_by_pool, 0);
    ck_assert_int_eq(st_racks_count(c), 4);
    ck_assert_int_eq(st_racks_of_node(c, 9), 2); /* old's last node and new's first two */
    ck_assert_int_eq(st_racks_of_node(c, 11), 2);
    ck_assert_int_eq(st_racks_nodes(c, 3), 3);
    ck_assert_ptr_eq(st_racks_cfg(c, 3), &c->racks);
    st_scn_free(s);
}
END_TEST

/* A pool that names its cooling kind takes that kind's capacity and liquid share unless it states
 * them; one that does not takes the cluster's. */
START_TEST(test_a_pool_of_another_kind_takes_its_kinds_defaults)
{
    st_scn *s = cluster_text_ok(
        "  pools:\n"
        "    - { name: old, gpu: h100-sxm, nodes: 4,\n"
        "        racks: { cooling: { kind: air } } }\n"
        "    - { name: new, gpu: b200, nodes: 4, racks: { nodes_per_rack: 2 } }\n"
        "  racks: { cooling: { kind: liquid, capacity: 100 kW, liquid_fraction: 90% } }");
    const st_cluster_cfg *c = st_scn_cluster(s);
    const st_rack_cfg *old = &c->pools[0].racks, *new = &c->pools[1].racks;
    ck_assert_int_eq(old->cooling, ST_COOLING_AIR);
    ck_assert_double_eq(old->cooling_capacity_w, 0); /* the air kind's preset (cooling.c) */
    ck_assert_double_eq(old->liquid_fraction, 0);
    ck_assert_int_eq(old->nodes_per_rack, 4); /* the cluster's default, 4 */
    ck_assert_int_eq(new->cooling, ST_COOLING_LIQUID);
    ck_assert_double_eq(new->cooling_capacity_w, 100e3);
    ck_assert_double_eq_tol(new->liquid_fraction, 0.9, 1e-12);
    ck_assert_double_eq_tol(c->racks.liquid_fraction, 0.9, 1e-12);
    st_scn_free(s);
}
END_TEST

/* The steady facility splits the load over each pool's racks by their nodes' full draw, so only
 * the liquid pool's share reaches the liquid loop: hand-computed from the catalog's figures. */
START_TEST(test_steady_heat_reaches_the_liquid_loop_from_the_liquid_pool_only)
{
    st_scn *s = cluster_text_ok(by_pool);
    const st_cluster_cfg *c = st_scn_cluster(s);
    const st_pool_cfg *p = c->pools;
    double full[2];
    for (int k = 0; k < 2; k++)
        full[k] = (double)p[k].nodes * (p[k].node_base_w + 8 * p[k].gpu->tdp_w);
    double board = 100e3, wall = board / st_plant_preset_get()->psu_efficiency;
    st_plant_facility f;
    st_plant_heat h;
    st_plant_facility_steady_heat(c, board, 0, &f, &h);
    ck_assert_double_eq_tol(h.liquid_w, 0.8 * wall * full[1] / (full[0] + full[1]), 1e-6);
    ck_assert_double_eq_tol(f.it_w, wall, 1e-6);
    /* the same cluster with every rack air-cooled sends nothing to liquid */
    st_cluster_cfg air = *c;
    air.racks_by_pool = 0;
    st_plant_facility_steady_heat(&air, board, 0, &f, &h);
    ck_assert_double_eq(h.liquid_w, 0);
    st_scn_free(s);
}
END_TEST

/* A rack failure takes out one rack's nodes: racks of two sizes, each its own GPUs. */
START_TEST(test_a_rack_failure_takes_its_racks_gpus)
{
    st_scn *s = cluster_text_ok(by_pool);
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_failure_class fc = {.component = "rack", .mtbf_s = 1e6, .weibull_shape = 1, .repair_s = 60};
    st_failures_cfg fail = {.classes = &fc, .n_classes = 1};
    st_outage_class oc[1];
    ck_assert_int_eq(st_outage_classes(c, &fail, oc), 1);
    ck_assert_int_eq(oc[0].count, 6);
    int64_t total = c->nodes * 8, lo, n;
    st_outage_range(&oc[0], 1, total, &lo, &n);
    ck_assert_int_eq(lo, 32);
    ck_assert_int_eq(n, 32);
    st_outage_range(&oc[0], 2, total, &lo, &n); /* the old pool's last rack: 2 nodes */
    ck_assert_int_eq(lo, 64);
    ck_assert_int_eq(n, 16);
    st_outage_range(&oc[0], 5, total, &lo, &n); /* the new pool's last: 1 node */
    ck_assert_int_eq(lo, 112);
    ck_assert_int_eq(n, 8);
    st_scn_free(s);
}
END_TEST

Suite *pool_racks_suite(void)
{
    Suite *s = suite_create("pool_racks");
    TCase *tc = tcase_create("pool_racks");
    tcase_add_test(tc, test_each_pool_fills_racks_of_its_own);
    tcase_add_test(tc, test_without_pool_racks_a_rack_may_hold_two_pools);
    tcase_add_test(tc, test_a_pool_of_another_kind_takes_its_kinds_defaults);
    tcase_add_test(tc, test_steady_heat_reaches_the_liquid_loop_from_the_liquid_pool_only);
    tcase_add_test(tc, test_a_rack_failure_takes_its_racks_gpus);
    suite_add_tcase(s, tc);
    return s;
}
