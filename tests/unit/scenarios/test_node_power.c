/* A node's power besides its GPUs (cluster.node.base_power): the GPU platform's sourced figure
 * from the catalog when the scenario leaves it out, the scenario's when stated (0 included), and
 * a located refusal where the platform has no figure, never a silent 0. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/gpu.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "unit/cluster_text.h"

START_TEST(test_left_out_base_power_is_the_platform_figure)
{
    char why[512];
    st_scn *s = cluster_text("  gpu: h100-sxm\n  nodes: 1", why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    const st_cluster_cfg *c = st_scn_cluster(s);
    /* Latif et al. (arXiv 2412.08602): 8.4 kW at the wall, 8 GPUs at 700 W */
    ck_assert_double_eq_tol(c->node.base_power_w, 8400 * 0.96 - 8 * 700, 1e-9);
    ck_assert_int_eq(c->node.base_power_of_gpu, 1);
    st_scn_free(s);
    s = cluster_text("  gpu: gb200\n  nodes: 18\n  gpus_per_node: 4", why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert_double_eq(st_scn_cluster(s)->node.base_power_w, 1236);
    st_scn_free(s);
}
END_TEST

START_TEST(test_stated_base_power_wins_and_zero_stays_zero)
{
    char why[512];
    st_scn *s =
        cluster_text("  gpu: h100-sxm\n  nodes: 1\n  node: { base_power: 0 W }", why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert_double_eq(st_scn_cluster(s)->node.base_power_w, 0);
    ck_assert_int_eq(st_scn_cluster(s)->node.base_power_of_gpu, 0);
    st_scn_free(s);
    s = cluster_text("  gpu: mi300x\n  nodes: 1\n  node: { base_power: 3 kW }", why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert_double_eq(st_scn_cluster(s)->node.base_power_w, 3000);
    st_scn_free(s);
}
END_TEST

START_TEST(test_gpu_without_a_platform_figure_is_refused_at_its_key)
{
    char why[512];
    st_scn *s = cluster_text("  gpu: mi300x\n  nodes: 1", why, sizeof why);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(why, "t.yaml:3:8: error: GPU 'mi300x' has no platform figure for a node's "
                          "power besides its GPUs (CPUs, NICs, fans): give "
                          "cluster.node.base_power");
}
END_TEST

START_TEST(test_node_of_another_gpu_count_is_refused)
{
    char why[512];
    st_scn *s = cluster_text("  gpu: h100-sxm\n  nodes: 2\n  gpus_per_node: 4", why, sizeof why);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(why, "t.yaml:3:8: error: GPU 'h100-sxm': its platform's power besides the "
                          "GPUs is for a node of 8 GPUs, this one has 4: give "
                          "cluster.node.base_power");
}
END_TEST

/* A hardware.gpus entry with base: keeps its base's platform; one without has none. */
START_TEST(test_hardware_gpu_takes_its_base_platform)
{
    char why[512];
    const char *yaml = "version: 1\nhardware:\n  gpus:\n"
                       "    - { name: capped, base: h200-sxm, tdp: 600 W }\n"
                       "cluster: { gpu: capped, nodes: 1 }\n"
                       "workloads:\n  - { model: llama3-8b, gpus: 8 }\n";
    st_diag d;
    memset(&d, 0, sizeof d);
    st_scn *s = NULL;
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d);
    if (d.n)
        st_err_format(&d.items[0], why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert_double_eq(st_scn_cluster(s)->node.base_power_w,
                        st_catalog_gpu("h200-sxm")->node_base_w);
    st_scn_free(s);
}
END_TEST

/* Every catalog figure is for a whole node and sits below the GPUs' own power. */
START_TEST(test_catalog_platform_figures_are_whole_nodes)
{
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        if (g->node_base_w == 0)
            continue;
        ck_assert_msg(g->node_gpus >= 1, "%s", g->name);
        ck_assert_msg(g->node_base_w < g->node_gpus * g->tdp_w, "%s", g->name);
    }
}
END_TEST

Suite *node_power_suite(void)
{
    Suite *s = suite_create("node_power");
    TCase *tc = tcase_create("base_power");
    tcase_add_test(tc, test_left_out_base_power_is_the_platform_figure);
    tcase_add_test(tc, test_stated_base_power_wins_and_zero_stays_zero);
    tcase_add_test(tc, test_gpu_without_a_platform_figure_is_refused_at_its_key);
    tcase_add_test(tc, test_node_of_another_gpu_count_is_refused);
    tcase_add_test(tc, test_hardware_gpu_takes_its_base_platform);
    tcase_add_test(tc, test_catalog_platform_figures_are_whole_nodes);
    suite_add_tcase(s, tc);
    return s;
}
