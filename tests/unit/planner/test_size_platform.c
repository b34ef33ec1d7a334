/* A GPU type on its own platform (planner/size_platform.c): the cluster the sizing searches
 * build for a type whose platform's node or NVLink domain differs from the scenario's. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "planner/size_platform.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"

static st_scn *load(const char *cluster)
{
    char buf[1024];
    int len = snprintf(buf, sizeof buf,
                       "version: 1\n"
                       "cluster: %s\n"
                       "workloads:\n"
                       "  - { model: llama3-8b, gpus: 8 }\n",
                       cluster);
    ck_assert(len > 0 && (size_t)len < sizeof buf); /* the whole scenario, not a cut one */
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("platform.yaml", buf, strlen(buf), &s, &d), 0);
    return s;
}

/* GB200 beside 16 HGX H100 nodes (8 NICs a node, 4 nodes a leaf, 2 a rack, a stated node
 * power): the same 128 GPUs in 32 trays of 4 on a 72-GPU domain, 4 NICs a tray (one a GPU, as
 * the H100s'), 8 trays a leaf (the leaf's 32 downlinks), racks of 18 trays (an NVL72, its
 * domain) liquid-cooled as an NVL72 ships (the scenario's racks are air-cooled: the liquid kind's
 * default capacity and share), the tray's 1,236 W besides its GPUs. */
START_TEST(test_gb200_beside_hgx)
{
    st_scn *s = load("{ gpu: h100-sxm, nodes: 16, gpus_per_node: 8, node: { base_power: 3 kW },"
                     " racks: { nodes_per_rack: 2 },"
                     " fabric: { nics_per_node: 8, nodes_per_leaf: 4 } }");
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_cluster_cfg v = *c;
    ck_assert_int_eq(st__size_platform(c, st_catalog_gpu("gb200"), &v), 1);
    ck_assert_int_eq(v.gpus_per_node, 4);
    ck_assert_int_eq(v.nodes, 32);
    ck_assert_int_eq(v.nvlink_domain, 72);
    ck_assert_int_eq(v.fabric.nics_per_node, 4);
    ck_assert_int_eq(v.fabric.nodes_per_leaf, 8);
    ck_assert_int_eq(v.racks.nodes_per_rack, 18);
    ck_assert_int_eq(c->racks.cooling, ST_COOLING_AIR);
    ck_assert_int_eq(v.racks.cooling, ST_COOLING_LIQUID);
    ck_assert_double_eq(v.racks.cooling_capacity_w, 0);
    ck_assert_double_eq(v.racks.liquid_fraction, 0.8);
    ck_assert_double_eq(v.node.base_power_w, 1236);
    st_scn_free(s);
}
END_TEST

/* H100 beside a GB200 NVL72 cluster (trays of 4, a 72-GPU domain, racks of 18 trays): 8-GPU
 * nodes on their own NVSwitch domain, each rack the NVL72's 72 GPUs (9 nodes), 8 NICs a node. */
START_TEST(test_hgx_beside_gb200)
{
    st_scn *s = load("{ gpu: gb200, nodes: 36, gpus_per_node: 4, nvlink_domain: 72,"
                     " racks: { nodes_per_rack: 18 } }");
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_cluster_cfg v = *c;
    ck_assert_int_eq(st__size_platform(c, st_catalog_gpu("h100-sxm"), &v), 1);
    ck_assert_int_eq(v.gpus_per_node, 8);
    ck_assert_int_eq(v.nodes, 18);
    ck_assert_int_eq(v.nvlink_domain, 8);
    ck_assert_int_eq(v.fabric.nics_per_node, 8);
    ck_assert_int_eq(v.racks.nodes_per_rack, 9);
    st_scn_free(s);
}
END_TEST

/* Left as they are: the scenario's own type, a type on the same platform (B200 on HGX H100
 * nodes), and a type with no platform node in the catalog (MI300X). */
START_TEST(test_same_platform_untouched)
{
    st_scn *s = load("{ gpu: h100-sxm, nodes: 4, gpus_per_node: 8 }");
    const st_cluster_cfg *c = st_scn_cluster(s);
    const char *types[] = {"h100-sxm", "b200", "mi300x"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        st_cluster_cfg v = *c;
        ck_assert_int_eq(st__size_platform(c, st_catalog_gpu(types[i]), &v), 0);
        ck_assert(memcmp(&v, c, sizeof v) == 0);
    }
    st_scn_free(s);
}
END_TEST

Suite *size_platform_suite(void)
{
    Suite *s = suite_create("size_platform");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_gb200_beside_hgx);
    tcase_add_test(tc, test_hgx_beside_gb200);
    tcase_add_test(tc, test_same_platform_untouched);
    suite_add_tcase(s, tc);
    return s;
}
