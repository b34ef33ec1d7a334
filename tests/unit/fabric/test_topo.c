/* Fabric topologies: link counts and capacities of small spine-leaf, rail-optimized and
 * fat-tree-3 examples worked by hand, route shapes and latencies, ECMP's reproducible hash,
 * adaptive routing's aggregated links, oversubscription, NVLink domains, the transport presets,
 * and construction errors. docs/models/fabric-topology.md has the constructions. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/fabric/topo.h"
#include "models/fabric/transport.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"

/* H100-like: 900 GB/s NVLink, both directions added. */
static const st_gpu_spec gpu = {.name = "test-gpu",
                                .peak_bf16 = 1e15,
                                .hbm_bytes = 80e9,
                                .hbm_bw = 3.35e12,
                                .nvlink_bw = 900e9,
                                .pcie_bw = 64e9,
                                .tdp_w = 700};

static st_cluster_cfg cluster(st_topology topo, int64_t nodes, int64_t gpn, int nics,
                              int64_t per_leaf)
{
    st_cluster_cfg c;
    memset(&c, 0, sizeof c);
    c.gpu = &gpu;
    c.nodes = nodes, c.gpus_per_node = gpn, c.nvlink_domain = gpn;
    st_fabric_cfg *f = &c.fabric;
    f->topology = topo;
    f->nic_bw = 50e9; /* 400 Gbit/s */
    f->nics_per_node = nics;
    f->nodes_per_leaf = per_leaf;
    f->oversub[0] = 1, f->n_oversub = 1;
    f->transport = ST_TRANSPORT_INFINIBAND;
    f->routing = ST_ROUTING_ECMP;
    f->link_latency_s = 1e-6, f->switch_latency_s = 600e-9;
    f->loc.file = "t.yaml", f->loc.line = 7, f->loc.col = 3;
    return c;
}

static st_topo *build(const st_cluster_cfg *c)
{
    st_topo *t = NULL;
    st_err e;
    memset(&e, 0, sizeof e);
    int rc = st_topo_new(c, &t, &e);
    ck_assert_msg(rc == 0, "st_topo_new: %d %s", rc, e.msg);
    return t;
}

static int route(const st_topo *t, int64_t a, int64_t b, uint64_t key, int32_t *l, double *lat)
{
    return st_topo_route(t, a, b, key, l, ST_TOPO_MAX_HOPS, lat);
}

static int count_level(const st_topo *t, st_level lv)
{
    int n = 0;
    for (int32_t i = 0; i < st_topo_link_count(t); i++)
        n += st_topo_level(t, i) == lv;
    return n;
}

/* Every link of a route starts where the previous one ended: "a -> b" then "b -> c". */
static void assert_chained(const st_topo *t, const int32_t *l, int n)
{
    char prev[128] = "", cur[128];
    for (int i = 0; i < n; i++) {
        st_topo_link_name(t, l[i], cur, sizeof cur);
        const char *arrow = strstr(cur, " -> ");
        ck_assert_ptr_nonnull(arrow);
        if (i)
            ck_assert_msg(strncmp(cur, prev, (size_t)(arrow - cur)) == 0 &&
                              prev[arrow - cur] == '\0',
                          "link %d '%s' does not start at '%s'", i, cur, prev);
        snprintf(prev, sizeof prev, "%s", arrow + 4);
    }
}

static const double ib_nic = 50e9 * 0.94; /* 47 GB/s: nccl-tests #290 */
static const double nvlink = 370e9;       /* 450 GB/s per direction x 370/450 */

START_TEST(test_transport_efficiencies_follow_headers_and_measurement)
{
    ASSERT_REL(st_transport_wire_efficiency(ST_TRANSPORT_INFINIBAND), 4096.0 / 4122.0, 1e-12);
    ASSERT_REL(st_transport_wire_efficiency(ST_TRANSPORT_ROCE_V2), 4096.0 / 4178.0, 1e-12);
    ASSERT_REL(st_transport_efficiency(ST_TRANSPORT_INFINIBAND), 0.94, 1e-12);
    /* RoCE v2's goodput is its own measurement (nccl #1221: ~320 GB/s over 8 x 50 GB/s). */
    ASSERT_REL(st_transport_efficiency(ST_TRANSPORT_ROCE_V2), 0.80, 1e-12);
    ck_assert(st_transport_efficiency(ST_TRANSPORT_ROCE_V2) <
              st_transport_efficiency(ST_TRANSPORT_INFINIBAND));
    /* Omni-Path's is NCCL's on Jean Zay (all_reduce_bench, 40.55 Gbit/s through a 100 Gbit/s
     * link), not its headers' share; its fabric manager routes by fixed tables by default. */
    ASSERT_REL(st_transport_efficiency(ST_TRANSPORT_OMNI_PATH), 0.4055, 1e-12);
    ASSERT_REL(st_transport_wire_efficiency(ST_TRANSPORT_OMNI_PATH), 4096.0 / 4120.0, 1e-12);
    ck_assert_int_eq(st_transport_default_routing(ST_TRANSPORT_OMNI_PATH), ST_ROUTING_ECMP);
    ck_assert_str_eq(st_transport_spec_of(ST_TRANSPORT_OMNI_PATH)->name, "omni-path");
    ASSERT_REL(st_nvlink_efficiency(NULL), 370.0 / 450.0, 1e-12);
    ASSERT_REL(st_nvlink_efficiency(st_catalog_gpu("a100-sxm-80g")), 231.58 / 300.0, 1e-12);
    ASSERT_REL(st_nvlink_efficiency(st_catalog_gpu("b200")), 679.61 / 900.0, 1e-12);
    ASSERT_REL(st_nvlink_efficiency(st_catalog_gpu("h200-sxm")), 370.0 / 450.0, 1e-12);
    ck_assert_str_eq(st_transport_spec_of(ST_TRANSPORT_ROCE_V2)->name, "roce-v2");
    ck_assert_str_eq(st_transport_spec_of(ST_TRANSPORT_INFINIBAND)->name, "infiniband");
    ck_assert_ptr_null(st_transport_spec_of((st_transport)7));
    ck_assert(st_transport_efficiency((st_transport)7) == 0);
}
END_TEST

/* 8 nodes x 8 GPUs, 8 NICs, 4 nodes per leaf: 2 leaves of 32 down ports, 32 uplinks each, so
 * 32 spines. Links: 2 x 64 NVLink, 2 x 64 NIC, 2 x 2 x 32 leaf-spine = 384. */
START_TEST(test_spine_leaf_counts_and_capacities_by_hand)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_gpus(t), 64);
    ck_assert_int_eq(st_topo_link_count(t), 384);
    ck_assert_int_eq(count_level(t, ST_LEVEL_NVLINK), 128);
    ck_assert_int_eq(count_level(t, ST_LEVEL_NIC), 128);
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 128);
    ck_assert_int_eq(count_level(t, ST_LEVEL_SPINE), 0);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NVLINK), 8);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 2);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 32);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_SPINE), 0);
    /* bought: the 32 spines of 2 ports are one 64-port switch, 32 links from each leaf */
    ck_assert_int_eq(st_topo_network_switches(t), 34);
    ck_assert_int_eq(st_topo_switches_bought(t, 64), 2 + 1);
    ck_assert_int_eq(st_topo_switches_bought(t, 0), 34); /* no port count: the model's */
    const double *cap = st_topo_capacities(t);
    for (int32_t i = 0; i < st_topo_link_count(t); i++) {
        double want = st_topo_level(t, i) == ST_LEVEL_NVLINK ? nvlink : ib_nic;
        ASSERT_REL(st_topo_capacity(t, i), want, 1e-12);
        ck_assert(cap[i] == st_topo_capacity(t, i));
        ck_assert_int_eq(st_topo_hashed(t, i), st_topo_level(t, i) == ST_LEVEL_LEAF);
    }
    st_topo_free(t);
}
END_TEST

START_TEST(test_route_shapes_and_latency_on_spine_leaf)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    st_topo *t = build(&c);
    int32_t l[ST_TOPO_MAX_HOPS];
    double lat = -1;
    ck_assert_int_eq(route(t, 5, 5, 1, l, &lat), 0);
    ck_assert(lat == 0);
    /* same node: NVLink only, through the node's NVSwitch */
    ck_assert_int_eq(route(t, 1, 6, 1, l, &lat), 2);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NVLINK);
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_NVLINK);
    ASSERT_REL(lat, 2e-6 + 600e-9, 1e-12);
    assert_chained(t, l, 2);
    char name[128];
    st_topo_link_name(t, l[0], name, sizeof name);
    ck_assert_str_eq(name, "gpu 1 -> nvswitch 0");
    /* same leaf, other node: NIC up, turn at the leaf, NIC down; GPU 3 uses NIC 3 */
    ck_assert_int_eq(route(t, 3, 3 + 8 * 3, 1, l, &lat), 2);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NIC);
    st_topo_link_name(t, l[0], name, sizeof name);
    ck_assert_str_eq(name, "node 0 nic 3 -> leaf 0");
    st_topo_link_name(t, l[1], name, sizeof name);
    ck_assert_str_eq(name, "leaf 0 -> node 3 nic 3");
    ASSERT_REL(lat, 2e-6 + 600e-9, 1e-12);
    /* other leaf: up to a spine and down */
    ck_assert_int_eq(route(t, 0, 63, 1, l, &lat), 4);
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_LEAF);
    ck_assert_int_eq(st_topo_level(t, l[2]), ST_LEVEL_LEAF);
    ASSERT_REL(lat, 4e-6 + 3 * 600e-9, 1e-12);
    assert_chained(t, l, 4);
    ck_assert_int_eq(st_topo_leaf_of(t, 63), 1);
    ck_assert_int_eq(st_topo_pod_of(t, 63), 0);
    st_topo_free(t);
}
END_TEST

/* Rail-optimized, 8 nodes x 8 GPUs, 8 NICs, rail groups of 4 nodes: 2 groups x 8 rails = 16
 * rail leaves of 4 down ports, 4 uplinks each, 4 spines. Links: 128 + 128 + 2 x 16 x 4. */
START_TEST(test_rail_optimized_counts_and_routes_by_hand)
{
    st_cluster_cfg c = cluster(ST_TOPO_RAIL_OPTIMIZED, 8, 8, 8, 4);
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_link_count(t), 128 + 128 + 128);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 16);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 4);
    int32_t l[ST_TOPO_MAX_HOPS];
    char name[128];
    /* GPU 2 of node 0 to GPU 2 of node 3: same group, same rail, turns at rail leaf 2 */
    ck_assert_int_eq(route(t, 2, 3 * 8 + 2, 9, l, NULL), 2);
    st_topo_link_name(t, l[0], name, sizeof name);
    ck_assert_str_eq(name, "node 0 nic 2 -> leaf 2");
    ck_assert_int_eq(st_topo_leaf_of(t, 3 * 8 + 2), 2);
    /* different rail in the group: through a spine */
    ck_assert_int_eq(route(t, 2, 3 * 8 + 5, 9, l, NULL), 4);
    assert_chained(t, l, 4);
    st_topo_link_name(t, l[3], name, sizeof name);
    ck_assert_str_eq(name, "leaf 5 -> node 3 nic 5");
    /* same rail, other group: rail leaf (1, 2) is leaf 1 x 8 + 2 */
    ck_assert_int_eq(route(t, 2, 4 * 8 + 2, 9, l, NULL), 4);
    ck_assert_int_eq(st_topo_leaf_of(t, 4 * 8 + 2), 10);
    assert_chained(t, l, 4);
    st_topo_free(t);
}
END_TEST

/* fat-tree-3, 16 nodes x 8 GPUs, 8 NICs, 2 nodes per leaf: 8 leaves of 16 down ports and 16
 * uplinks; 4 leaves per pod, 2 pods of 16 spines; spines 2:1 to the cores, ceil(4 / 2) = 2 core
 * ports each, core planes of 2, 32 cores. Links: 256 NVLink + 256 NIC + 2 x 8 x 16 leaf +
 * 2 x 2 x 16 x 2 spine = 896. */
START_TEST(test_fat_tree_counts_and_routes_by_hand)
{
    st_cluster_cfg c = cluster(ST_TOPO_FAT_TREE_3, 16, 8, 8, 2);
    c.fabric.leaves_per_pod = 4;
    c.fabric.oversub[1] = 2, c.fabric.n_oversub = 2;
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_link_count(t), 896);
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 256);
    ck_assert_int_eq(count_level(t, ST_LEVEL_SPINE), 128);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 8);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 32);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_SPINE), 32);
    /* bought, of 64 ports: a pod's 16 spines use 16 x (4 + 2) = 96 ports, two switches; the 32
     * cores 32 x 2 = 64, one: 8 leaves + 2 x 2 + 1 (the model's 72 switches bought 1,152 core
     * and spine switches for a 256-node B200 pool in the sizing example) */
    ck_assert_int_eq(st_topo_switches_bought(t, 64), 8 + 4 + 1);
    ck_assert_int_eq(st_topo_switches_bought(t, 8), 8 + 2 * 12 + 8);
    int32_t l[ST_TOPO_MAX_HOPS];
    double lat;
    /* across pods: NIC, leaf, spine, core, spine, leaf, NIC */
    ck_assert_int_eq(route(t, 0, 127, 3, l, &lat), 6);
    static const st_level want[] = {ST_LEVEL_NIC,   ST_LEVEL_LEAF, ST_LEVEL_SPINE,
                                    ST_LEVEL_SPINE, ST_LEVEL_LEAF, ST_LEVEL_NIC};
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(st_topo_level(t, l[i]), want[i]);
    ASSERT_REL(lat, 6e-6 + 5 * 600e-9, 1e-12);
    assert_chained(t, l, 6);
    ck_assert_int_eq(st_topo_pod_of(t, 127), 1);
    ck_assert_int_eq(st_topo_leaf_of(t, 127), 7);
    /* same pod, other leaf: 4 links */
    ck_assert_int_eq(route(t, 0, 2 * 8, 3, l, NULL), 4);
    assert_chained(t, l, 4);
    for (int32_t i = 0; i < st_topo_link_count(t); i++)
        if (st_topo_level(t, i) != ST_LEVEL_NVLINK)
            ASSERT_REL(st_topo_capacity(t, i), ib_nic, 1e-12);
    st_topo_free(t);
}
END_TEST

/* Ports in use on each switch, by hand. fat-tree-3 as above: a leaf's 16 NICs and 16 uplinks
 * (32), a spine's 4 leaves of its pod and 2 core ports (6), a core's 2 pods. spine-leaf, 8 nodes
 * of 8 NICs, 4 a leaf: a leaf's 32 + 32 (64), a spine's 2 leaves. rail-optimized alike: a rail
 * leaf's 4 nodes and 4 uplinks (8), a spine's 16 rail leaves, the most. One leaf (2 nodes):
 * its 16 NICs, no uplinks, no spines. */
START_TEST(test_switch_ports_by_hand)
{
    st_level lv = ST_LEVEL_NVLINK;
    st_cluster_cfg c = cluster(ST_TOPO_FAT_TREE_3, 16, 8, 8, 2);
    c.fabric.leaves_per_pod = 4;
    c.fabric.oversub[1] = 2, c.fabric.n_oversub = 2;
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_NIC), 32);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_LEAF), 6);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_SPINE), 2);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_NVLINK), 0);
    ck_assert_int_eq(st_topo_most_ports(t, &lv), 32);
    ck_assert_int_eq(lv, ST_LEVEL_NIC);
    st_topo_free(t);
    c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    t = build(&c);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_NIC), 64);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_LEAF), 2);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_SPINE), 0);
    st_topo_free(t);
    c = cluster(ST_TOPO_RAIL_OPTIMIZED, 8, 8, 8, 4);
    t = build(&c);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_NIC), 8);
    ck_assert_int_eq(st_topo_most_ports(t, &lv), 16);
    ck_assert_int_eq(lv, ST_LEVEL_LEAF);
    st_topo_free(t);
    c = cluster(ST_TOPO_SPINE_LEAF, 2, 8, 8, 4);
    t = build(&c);
    ck_assert_int_eq(st_topo_most_ports(t, &lv), 16);
    ck_assert_int_eq(lv, ST_LEVEL_NIC);
    ck_assert_int_eq(st_topo_switch_ports(t, ST_LEVEL_LEAF), 0);
    st_topo_free(t);
}
END_TEST

START_TEST(test_fat_tree_puts_32_leaves_in_a_pod_by_default)
{
    st_cluster_cfg c = cluster(ST_TOPO_FAT_TREE_3, 256, 8, 8, 4); /* 64 leaves */
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_pod_of(t, 31 * 32 - 1), 0);
    ck_assert_int_eq(st_topo_pod_of(t, 32 * 32), 1);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 2 * 32);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_SPINE), 32 * 32);
    st_topo_free(t);
    c.nodes = 16; /* 4 leaves: one pod, no cores */
    t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_SPINE), 0);
    ck_assert_int_eq(count_level(t, ST_LEVEL_SPINE), 0);
    st_topo_free(t);
}
END_TEST

START_TEST(test_ecmp_same_key_same_path_and_keys_spread_over_spines)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    st_topo *t = build(&c);
    int32_t a[ST_TOPO_MAX_HOPS], b[ST_TOPO_MAX_HOPS];
    int hits[32] = {0};
    for (uint64_t k = 0; k < 10000; k++) {
        uint64_t key = st_topo_flow_key(42, k);
        ck_assert_int_eq(route(t, 0, 40, key, a, NULL), 4);
        ck_assert_int_eq(route(t, 0, 40, key, b, NULL), 4);
        ck_assert(memcmp(a, b, sizeof(int32_t) * 4) == 0);
        ck_assert_int_eq(a[2] - a[1], 2 * 32 + 1); /* same spine: leaf 1's port j, down */
        char name[128];
        st_topo_link_name(t, a[1], name, sizeof name);
        int j = -1;
        ck_assert_int_eq(sscanf(name, "leaf 0 -> spine %d", &j), 1);
        ck_assert(j >= 0 && j < 32);
        hits[j]++;
    }
    for (int j = 0; j < 32; j++) /* 312.5 expected, standard deviation 17.4 */
        ck_assert_msg(hits[j] > 220 && hits[j] < 405, "spine %d took %d of 10^4 flows", j, hits[j]);
    st_topo_free(t);
}
END_TEST

/* The hash is part of the output's reproducibility: pin it, so a change is deliberate. The value
 * is splitmix64's finaliser as Vigna's splitmix64.c computes it, checked by a separate Python
 * implementation. */
START_TEST(test_flow_key_is_fixed_and_order_dependent)
{
    ck_assert(st_topo_flow_key(1, 2) == st_topo_flow_key(1, 2));
    ck_assert(st_topo_flow_key(1, 2) != st_topo_flow_key(2, 1));
    ck_assert_msg(st_topo_flow_key(1, 2) == UINT64_C(0xbcd9dbb49673066b), "got %#llx",
                  (unsigned long long)st_topo_flow_key(1, 2));
}
END_TEST

/* Cables per level: one DGX SuperPOD H100 scalable unit (32 nodes of 8 GPUs and 8 NICs, one
 * rail group of 8 rail leaves) has 256 NIC cables and 256 leaf-spine cables, the spine-leaf
 * count of NVIDIA's "DGX SuperPOD Reference Architecture: DGX H100", Table 4 (1 SU); the
 * fat-tree-3 case above has 8 x 16 leaf and 2 x 16 x 2 spine cables, whichever the routing. */
START_TEST(test_cables_count_each_port_once_under_either_routing)
{
    st_cluster_cfg c = cluster(ST_TOPO_RAIL_OPTIMIZED, 32, 8, 8, 32);
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_NIC), 256);
    ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_LEAF), 256);
    ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_SPINE), 0);
    ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_NVLINK), 0);
    st_topo_free(t);
    for (int r = 0; r < 2; r++) {
        st_cluster_cfg f = cluster(ST_TOPO_FAT_TREE_3, 16, 8, 8, 2);
        f.fabric.leaves_per_pod = 4;
        f.fabric.oversub[1] = 2, f.fabric.n_oversub = 2;
        f.fabric.routing = r ? ST_ROUTING_ADAPTIVE : ST_ROUTING_ECMP;
        t = build(&f);
        ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_NIC), 128);
        ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_LEAF), 128);
        ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_SPINE), 64);
        ck_assert_int_eq(st_topo_cables(t, ST_LEVEL_STORAGE), 0);
        st_topo_free(t);
    }
}
END_TEST

START_TEST(test_adaptive_routes_cross_aggregated_links)
{
    st_cluster_cfg c = cluster(ST_TOPO_FAT_TREE_3, 16, 8, 8, 2);
    c.fabric.leaves_per_pod = 4;
    c.fabric.routing = ST_ROUTING_ADAPTIVE;
    st_topo *t = build(&c);
    /* one up and one down link per leaf and per pod */
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 2 * 8);
    ck_assert_int_eq(count_level(t, ST_LEVEL_SPINE), 2 * 2);
    int32_t a[ST_TOPO_MAX_HOPS], b[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(route(t, 0, 127, 1, a, NULL), 6);
    ck_assert_int_eq(route(t, 0, 127, 99, b, NULL), 6);
    ck_assert(memcmp(a, b, sizeof(int32_t) * 6) == 0);
    assert_chained(t, a, 6);
    ASSERT_REL(st_topo_capacity(t, a[1]), 16 * ib_nic, 1e-12);
    ASSERT_REL(st_topo_capacity(t, a[2]), 16 * 4 * ib_nic, 1e-12);
    for (int32_t i = 0; i < st_topo_link_count(t); i++)
        ck_assert(!st_topo_hashed(t, i));
    /* the same switches exist whichever the routing */
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 32);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_SPINE), 64);
    char name[128];
    st_topo_link_name(t, a[2], name, sizeof name);
    ck_assert_str_eq(name, "pod 0 spines -> cores");
    st_topo_free(t);
}
END_TEST

START_TEST(test_two_to_one_oversubscription_halves_the_uplinks)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.fabric.oversub[0] = 2;
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 16);
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 2 * 2 * 16);
    st_topo_free(t);
    c.fabric.routing = ST_ROUTING_ADAPTIVE;
    t = build(&c);
    int32_t l[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(route(t, 0, 63, 0, l, NULL), 4);
    ASSERT_REL(st_topo_capacity(t, l[1]), 16 * ib_nic, 1e-12);
    st_topo_free(t);
    /* 3:1 on 32 ports rounds up to 11 uplinks; 1.1:1 on 11 ports is 10, not 11 */
    c.fabric.oversub[0] = 3;
    t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 11);
    st_topo_free(t);
    c = cluster(ST_TOPO_SPINE_LEAF, 22, 1, 1, 11);
    c.fabric.oversub[0] = 1.1;
    t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 10);
    st_topo_free(t);
}
END_TEST

/* GB200 NVL72: 18 nodes of 4 GPUs share one NVLink domain of 72. */
START_TEST(test_nvl72_domain_spanning_nodes_routes_inside_nvlink)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 36, 4, 4, 8);
    c.nvlink_domain = 72;
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NVLINK), 2);
    int32_t l[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(route(t, 0, 71, 5, l, NULL), 2); /* node 0 to node 17 */
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NVLINK);
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_NVLINK);
    assert_chained(t, l, 2);
    /* the next rack's first node is under the same leaf (nodes 16-23), the others beyond it */
    ck_assert_int_eq(route(t, 71, 72, 5, l, NULL), 2);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NIC);
    ck_assert_int_eq(route(t, 0, 72, 5, l, NULL), 4);
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_LEAF);
    st_topo_free(t);
}
END_TEST

/* 64 GPUs of a GB200 NVL72 rack: 16 nodes of 4 GPUs in an NVLink domain of 72 are one domain
 * of 64, every GPU on its full NVLink (the NVSwitch fabric is non-blocking, so the empty slots
 * take nothing from the others). Links: 2 x 64 NVLink + 2 x 64 NIC; one leaf of 16 nodes, so no
 * spines. */
START_TEST(test_a_partly_filled_nvlink_domain_is_one_domain_of_its_gpus)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 16, 4, 4, 16);
    c.nvlink_domain = 72;
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_gpus(t), 64);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NVLINK), 1);
    ck_assert_int_eq(count_level(t, ST_LEVEL_NVLINK), 128);
    ck_assert_int_eq(count_level(t, ST_LEVEL_NIC), 128);
    ck_assert_int_eq(st_topo_link_count(t), 256);
    for (int32_t i = 0; i < 128; i++)
        ASSERT_REL(st_topo_capacity(t, i), nvlink, 1e-12);
    int32_t l[ST_TOPO_MAX_HOPS];
    char name[128];
    ck_assert_int_eq(route(t, 0, 63, 5, l, NULL), 2); /* node 0 to node 15, over NVLink */
    st_topo_link_name(t, l[1], name, sizeof name);
    ck_assert_str_eq(name, "nvswitch 0 -> gpu 63");
    st_topo_free(t);
}
END_TEST

/* The same cluster built with nodes_per_leaf `big` and with its node count: equal link for
 * link, capacities included. */
static void assert_same_fabric(st_cluster_cfg c, int64_t big)
{
    st_cluster_cfg exact = c;
    c.fabric.nodes_per_leaf = big;
    exact.fabric.nodes_per_leaf = c.nodes;
    st_topo *a = build(&c), *b = build(&exact);
    ck_assert_int_eq(st_topo_link_count(a), st_topo_link_count(b));
    for (int32_t i = 0; i < st_topo_link_count(a); i++) {
        ck_assert(st_topo_capacity(a, i) == st_topo_capacity(b, i));
        ck_assert_int_eq(st_topo_level(a, i), st_topo_level(b, i));
    }
    for (int lv = 0; lv < ST_LEVEL__COUNT; lv++)
        ck_assert_int_eq(st_topo_switches(a, (st_level)lv), st_topo_switches(b, (st_level)lv));
    st_topo_free(a);
    st_topo_free(b);
}

/* Four nodes under a leaf of 20: one leaf with the four nodes' ports, as if nodes_per_leaf were
 * 4. Spine-leaf: one leaf of 32 NIC ports, no spine tier, nodes talk through the leaf. Rail-
 * optimized at 2:1: 8 rail leaves of 4 ports, each with ceil(4 / 2) = 2 uplinks (not 20 / 2 =
 * 10 of a full leaf), so 2 spines; links 2 x 32 NVLink + 2 x 32 NIC + 2 x 8 x 2 = 160. */
START_TEST(test_a_partly_filled_leaf_has_the_ports_of_its_nodes)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 4, 8, 8, 20);
    st_topo *t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 1);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 0);
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 0);
    ck_assert_int_eq(st_topo_link_count(t), 128);
    int32_t l[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(route(t, 0, 31, 1, l, NULL), 2);
    ck_assert_int_eq(st_topo_leaf_of(t, 31), 0);
    st_topo_free(t);
    c = cluster(ST_TOPO_RAIL_OPTIMIZED, 4, 8, 8, 20);
    c.fabric.oversub[0] = 2;
    t = build(&c);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 8);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 2);
    ck_assert_int_eq(count_level(t, ST_LEVEL_LEAF), 2 * 8 * 2);
    ck_assert_int_eq(st_topo_link_count(t), 160);
    ck_assert_int_eq(route(t, 2, 3 * 8 + 5, 9, l, NULL), 4); /* rail 2 to rail 5: a spine */
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_LEAF);
    ASSERT_REL(st_topo_capacity(t, l[1]), ib_nic, 1e-12);
    assert_chained(t, l, 4);
    st_topo_free(t);
    c.fabric.routing = ST_ROUTING_ADAPTIVE; /* the aggregated uplink carries its 2 ports */
    t = build(&c);
    ck_assert_int_eq(route(t, 2, 3 * 8 + 5, 9, l, NULL), 4);
    ASSERT_REL(st_topo_capacity(t, l[1]), 2 * ib_nic, 1e-12);
    st_topo_free(t);
    assert_same_fabric(cluster(ST_TOPO_SPINE_LEAF, 4, 8, 8, 4), 20);
    assert_same_fabric(c, 20);
    c = cluster(ST_TOPO_FAT_TREE_3, 3, 8, 8, 3);
    c.fabric.oversub[0] = 2;
    assert_same_fabric(c, 64);
}
END_TEST

START_TEST(test_gpus_without_nvlink_talk_through_the_leaf)
{
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 4, 8, 2, 4);
    c.nvlink_domain = 1;
    st_topo *t = build(&c);
    ck_assert_int_eq(count_level(t, ST_LEVEL_NVLINK), 0);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NVLINK), 0);
    int32_t l[ST_TOPO_MAX_HOPS];
    /* GPUs 0-3 share NIC 0 and GPUs 4-7 NIC 1 */
    ck_assert_int_eq(route(t, 0, 5, 0, l, NULL), 2);
    char name[128];
    st_topo_link_name(t, l[1], name, sizeof name);
    ck_assert_str_eq(name, "leaf 0 -> node 0 nic 1");
    st_topo_free(t);
}
END_TEST

static void check_big(const st_cluster_cfg *c, int32_t links)
{
    st_topo *t = build(c);
    ck_assert_int_eq(st_topo_link_count(t), links);
    int32_t l[ST_TOPO_MAX_HOPS];
    int64_t g = st_topo_gpus(t);
    for (int64_t i = 0; i < 1000; i++) {
        int64_t a = (i * 7919) % g, b = (i * 104729 + 13) % g;
        int n = route(t, a, b, (uint64_t)i, l, NULL);
        ck_assert(n >= 0 && n <= 6);
        for (int k = 0; k < n; k++)
            ck_assert(l[k] >= 0 && l[k] < links);
        assert_chained(t, l, n);
    }
    st_topo_free(t);
}

START_TEST(test_large_clusters_build)
{
    /* 4096 nodes x 8 GPUs, 4 nodes per leaf: 1024 leaves of 32 uplinks */
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 4096, 8, 8, 4);
    check_big(&c, 2 * 32768 + 2 * 32768 + 2 * 1024 * 32);
    c.fabric.topology = ST_TOPO_FAT_TREE_3; /* 32 pods of 32 leaves, 32 core ports per spine */
    check_big(&c, 2 * 32768 + 2 * 32768 + 2 * 1024 * 32 + 2 * 32 * 32 * 32);
    c.fabric.topology = ST_TOPO_RAIL_OPTIMIZED; /* 1024 groups x 8 rails, 4 uplinks each */
    check_big(&c, 2 * 32768 + 2 * 32768 + 2 * 8192 * 4);
    /* 4096 nodes x 1 GPU, 32 per leaf: no NVLink, 128 leaves of 32 uplinks */
    c = cluster(ST_TOPO_SPINE_LEAF, 4096, 1, 1, 32);
    check_big(&c, 2 * 4096 + 2 * 128 * 32);
}
END_TEST

static int new_error(const st_cluster_cfg *c, st_err *e)
{
    st_topo *t = NULL;
    memset(e, 0, sizeof *e);
    int rc = st_topo_new(c, &t, e);
    ck_assert_ptr_null(t);
    return rc;
}

START_TEST(test_bad_parameters_are_errors_at_the_fabric)
{
    st_err e;
    st_cluster_cfg c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.fabric.nodes_per_leaf = 0;
    ck_assert_int_eq(new_error(&c, &e), ST_EINVAL);
    ck_assert_uint_eq(e.loc.line, 7);
    ck_assert_msg(strstr(e.msg, "nodes_per_leaf") != NULL, "%s", e.msg);
    c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.fabric.oversub[0] = 0.5;
    ck_assert_int_eq(new_error(&c, &e), ST_EINVAL);
    ck_assert_msg(strstr(e.msg, "oversubscription") != NULL, "%s", e.msg);
    c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.fabric.nic_bw = 0;
    ck_assert_int_eq(new_error(&c, &e), ST_EINVAL);
    c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.nvlink_domain = 3;
    ck_assert_int_eq(new_error(&c, &e), ST_EINVAL);
    c = cluster(ST_TOPO_SPINE_LEAF, 8, 8, 8, 4);
    c.gpu = NULL;
    ck_assert_int_eq(new_error(&c, &e), ST_EINVAL);
    /* more links than int32 ids: 10^7 nodes of 64 NICs, or 2 x 10^6 nodes of 1024 GPUs */
    c = cluster(ST_TOPO_SPINE_LEAF, 10000000, 1024, 64, 1);
    ck_assert_int_eq(new_error(&c, &e), ST_ELIMIT);
    ck_assert_uint_eq(e.loc.line, 7);
    c = cluster(ST_TOPO_SPINE_LEAF, 2000000, 1024, 1, 1);
    ck_assert_int_eq(new_error(&c, &e), ST_ELIMIT);
    ck_assert_msg(strstr(e.msg, "2048000000 GPUs") != NULL, "%s", e.msg);
}
END_TEST

/* The loader's defaults give a fabric that builds, and bad values stop at the loader. */
START_TEST(test_loaded_scenarios_build_their_fabric)
{
    static const char *const yaml =
        "version: 1\n"
        "cluster:\n"
        "  gpu: h100-sxm\n"
        "  nodes: 64\n"
        "  fabric: { topology: fat-tree-3, leaves_per_pod: 4, oversubscription: [1, 2],\n"
        "            transport: roce-v2, routing: adaptive }\n"
        "workloads:\n  - { model: llama3-8b, gpus: 32 }\n";
    st_scn *s = NULL;
    st_diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d), 0);
    st_topo *t = build(st_scn_cluster(s));
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 16); /* 4 nodes per leaf by default */
    ck_assert_int_eq(st_topo_pod_of(t, 511), 3);
    int32_t l[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(route(t, 0, 511, 0, l, NULL), 6);
    ASSERT_REL(st_topo_capacity(t, l[0]), 50e9 * st_transport_efficiency(ST_TRANSPORT_ROCE_V2),
               1e-12);
    ASSERT_REL(st_topo_capacity(t, l[2]), 32 * 2 * st_topo_capacity(t, l[0]), 1e-12);
    st_topo_free(t);
    st_scn_free(s);
    /* Partly filled: two nodes under a 16-node leaf (once a refused case, tests/bad). */
    static const char *const small = "version: 1\n"
                                     "cluster:\n"
                                     "  gpu: h100-sxm\n"
                                     "  nodes: 2\n"
                                     "  fabric:\n"
                                     "    nodes_per_leaf: 16\n"
                                     "workloads:\n  - { model: llama3-8b, gpus: 16 }\n";
    s = NULL;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", small, strlen(small), &s, &d), 0);
    t = build(st_scn_cluster(s));
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 1);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 0);
    ck_assert_int_eq(route(t, 0, 15, 0, l, NULL), 2);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NIC);
    st_topo_free(t);
    st_scn_free(s);
    static const char *const bad = "version: 1\n"
                                   "cluster:\n"
                                   "  gpu: h100-sxm\n"
                                   "  nodes: 4\n"
                                   "  fabric: { nodes_per_leaf: 0 }\n"
                                   "workloads:\n  - { model: llama3-8b, gpus: 32 }\n";
    s = NULL;
    memset(&d, 0, sizeof d);
    ck_assert_int_ne(st_scn_load_buffer("t.yaml", bad, strlen(bad), &s, &d), 0);
    ck_assert_int_ge(d.n, 1);
    st_scn_free(s);
}
END_TEST

/* The GB200 example: 64 GPUs of a 72-GPU NVLink domain (once refused by the loader) under rail
 * leaves of 18 trays, of which it fills 16. */
/* st_topo_gpu_route against st_topo_route, bit for bit, for every pair of GPUs of a fat tree
 * (ECMP, three tiers, NVLink inside a node) and of rails under adaptive routing. */
START_TEST(test_a_gpu_route_is_st_topo_routes_own)
{
    st_topology kinds[2] = {ST_TOPO_FAT_TREE_3, ST_TOPO_RAIL_OPTIMIZED};
    for (int v = 0; v < 2; v++) {
        st_cluster_cfg c = cluster(kinds[v], 16, 8, 8, 2);
        c.fabric.leaves_per_pod = 2;
        c.fabric.routing = v ? ST_ROUTING_ADAPTIVE : ST_ROUTING_ECMP;
        st_topo *t = build(&c);
        for (int64_t a = 0; a < 128; a++)
            for (int64_t b = 0; b < 128; b += 3) {
                int32_t l[ST_TOPO_MAX_HOPS], g[ST_TOPO_MAX_HOPS];
                double lat = -1, glat = -1;
                uint64_t key = st_topo_flow_key((uint64_t)a, (uint64_t)b);
                int n = route(t, a, b, key, l, &lat);
                ck_assert_int_eq(st_topo_gpu_route(t, a, b, key, g, &glat), n);
                ck_assert(memcmp(l, g, (size_t)n * sizeof *l) == 0);
                ck_assert(memcmp(&lat, &glat, sizeof lat) == 0);
            }
        st_topo_free(t);
    }
}
END_TEST

START_TEST(test_the_gb200_example_loads_one_partly_filled_domain)
{
    st_scn *s = NULL;
    st_diag d;
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/gb200-64gpu.yaml", &s, &d),
                     0);
    st_topo *t = build(st_scn_cluster(s));
    int32_t l[ST_TOPO_MAX_HOPS];
    ck_assert_int_eq(st_topo_gpus(t), 64);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NVLINK), 1);
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_NIC), 4);   /* a rail leaf per NIC */
    ck_assert_int_eq(st_topo_switches(t, ST_LEVEL_LEAF), 16); /* 16 ports down, 16 up */
    ck_assert_int_eq(route(t, 0, 63, 0, l, NULL), 2);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NVLINK);
    st_topo_free(t);
    st_scn_free(s);
}
END_TEST

Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_transport_efficiencies_follow_headers_and_measurement);
    tcase_add_test(tc, test_spine_leaf_counts_and_capacities_by_hand);
    tcase_add_test(tc, test_cables_count_each_port_once_under_either_routing);
    tcase_add_test(tc, test_route_shapes_and_latency_on_spine_leaf);
    tcase_add_test(tc, test_rail_optimized_counts_and_routes_by_hand);
    tcase_add_test(tc, test_fat_tree_counts_and_routes_by_hand);
    tcase_add_test(tc, test_fat_tree_puts_32_leaves_in_a_pod_by_default);
    tcase_add_test(tc, test_switch_ports_by_hand);
    tcase_add_test(tc, test_ecmp_same_key_same_path_and_keys_spread_over_spines);
    tcase_add_test(tc, test_flow_key_is_fixed_and_order_dependent);
    tcase_add_test(tc, test_adaptive_routes_cross_aggregated_links);
    tcase_add_test(tc, test_two_to_one_oversubscription_halves_the_uplinks);
    tcase_add_test(tc, test_nvl72_domain_spanning_nodes_routes_inside_nvlink);
    tcase_add_test(tc, test_a_partly_filled_nvlink_domain_is_one_domain_of_its_gpus);
    tcase_add_test(tc, test_a_partly_filled_leaf_has_the_ports_of_its_nodes);
    tcase_add_test(tc, test_gpus_without_nvlink_talk_through_the_leaf);
    tcase_add_test(tc, test_large_clusters_build);
    tcase_add_test(tc, test_bad_parameters_are_errors_at_the_fabric);
    tcase_add_test(tc, test_loaded_scenarios_build_their_fabric);
    tcase_add_test(tc, test_a_gpu_route_is_st_topo_routes_own);
    tcase_add_test(tc, test_the_gb200_example_loads_one_partly_filled_domain);
    suite_add_tcase(s, tc);
    return s;
}
