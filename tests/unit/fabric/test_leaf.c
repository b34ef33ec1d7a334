/* Nodes per leaf by topology (models/fabric/leaf.h): the loader's default, and the same leaf
 * switch under another topology, as `strata size --topologies` searches it. */
#include <check.h>

#include "models/fabric/leaf.h"

static st_fabric_cfg fabric(st_topology t, int64_t npl)
{
    return (st_fabric_cfg){.topology = t, .nics_per_node = 8, .nodes_per_leaf = npl};
}

/* 32 ports down: 4 nodes of 8 NICs on a top-of-rack leaf, 32 on a rail leaf; at most the
 * cluster's nodes. */
START_TEST(test_defaults)
{
    ck_assert_int_eq(st_leaf_default_nodes(ST_TOPO_SPINE_LEAF, 8, 64), 4);
    ck_assert_int_eq(st_leaf_default_nodes(ST_TOPO_FAT_TREE_3, 8, 64), 4);
    ck_assert_int_eq(st_leaf_default_nodes(ST_TOPO_RAIL_OPTIMIZED, 8, 64), 32);
    ck_assert_int_eq(st_leaf_default_nodes(ST_TOPO_RAIL_OPTIMIZED, 8, 16), 16);
    ck_assert_int_eq(st_leaf_default_nodes(ST_TOPO_SPINE_LEAF, 64, 64), 1);
}
END_TEST

/* A default leaf becomes the other topology's default, also where the cluster capped it (16
 * nodes on rails: 16, which is the default, so spine-leaf takes 4, not 16 ports' 2 nodes). */
START_TEST(test_default_leaf_follows)
{
    st_fabric_cfg f = fabric(ST_TOPO_SPINE_LEAF, 4);
    st_leaf_retopology(&f, 64, ST_TOPO_RAIL_OPTIMIZED);
    ck_assert_int_eq(f.topology, ST_TOPO_RAIL_OPTIMIZED);
    ck_assert_int_eq(f.nodes_per_leaf, 32);
    f = fabric(ST_TOPO_RAIL_OPTIMIZED, 16);
    st_leaf_retopology(&f, 16, ST_TOPO_SPINE_LEAF);
    ck_assert_int_eq(f.nodes_per_leaf, 4);
}
END_TEST

/* A stated leaf keeps its down ports: 2 nodes of 8 NICs are 16 ports, 16 rail nodes; 20 rail
 * nodes are 20 ports, 2 whole nodes of 8 NICs; and never more than the cluster's nodes. */
START_TEST(test_stated_leaf_keeps_ports)
{
    st_fabric_cfg f = fabric(ST_TOPO_SPINE_LEAF, 2);
    st_leaf_retopology(&f, 64, ST_TOPO_RAIL_OPTIMIZED);
    ck_assert_int_eq(f.nodes_per_leaf, 16);
    f = fabric(ST_TOPO_RAIL_OPTIMIZED, 20);
    st_leaf_retopology(&f, 64, ST_TOPO_FAT_TREE_3);
    ck_assert_int_eq(f.nodes_per_leaf, 2);
    f = fabric(ST_TOPO_SPINE_LEAF, 2);
    st_leaf_retopology(&f, 8, ST_TOPO_RAIL_OPTIMIZED);
    ck_assert_int_eq(f.nodes_per_leaf, 8);
    f = fabric(ST_TOPO_SPINE_LEAF, 3); /* the same topology: nothing changes */
    st_leaf_retopology(&f, 8, ST_TOPO_SPINE_LEAF);
    ck_assert_int_eq(f.nodes_per_leaf, 3);
}
END_TEST

Suite *leaf_suite(void)
{
    Suite *s = suite_create("leaf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_default_leaf_follows);
    tcase_add_test(tc, test_stated_leaf_keeps_ports);
    suite_add_tcase(s, tc);
    return s;
}
