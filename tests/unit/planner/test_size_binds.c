/* What binds a sizing row whose deadline binds (planner/size_binds.c): communication when exposed
 * communication is most of its time beyond pure compute, the storage when checkpoint stalls and
 * restores are, else the deadline; and a fabric whose switches need more ports than
 * cluster.fabric.switch_ports, which cannot be built. Llama 3 8B on H100 nodes. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "planner/size.h"
#include "scenarios/scenario.h"

static const char head[] = "version: 1\n"
                           "name: size-binds\n"
                           "cluster:\n"
                           "  gpu: h100-sxm\n";

static const char train[] = "workloads:\n"
                            "  - name: train\n"
                            "    model: llama3-8b\n"
                            "    seq_len: 4096\n"
                            "    global_batch: 64\n"
                            "    gpus: 8\n"
                            "    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
                            "    tokens: 2B\n";

static st_scn *load(const char *cluster, const char *rest)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s%s%s", head, cluster, train, rest);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("binds.yaml", buf, strlen(buf), &s, &d), 0);
    return s;
}

static st_size_result run_gpus(const st_scn *s, double deadline_s, int64_t gpus)
{
    st_size_spec spec = {.deadline_s = deadline_s, .failures = st_scn_failures(s), .gpus = gpus};
    st_size_result r;
    st_err err = {0};
    ck_assert_int_eq(st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err), 0);
    ck_assert_uint_gt(r.n, 0);
    return r;
}

static st_size_result run(const st_scn *s, double deadline_s)
{
    return run_gpus(s, deadline_s, 0);
}

/* The split of a row's time adds up to its time to train where nothing is left over. */
static void check_split(const st_size_cfg *f)
{
    st_size_time t;
    st_size_time_of(f, &t);
    ck_assert_double_gt(t.compute_s, 0);
    ck_assert_double_le(t.compute_s + t.fabric_s + t.storage_s, f->train_s * (1 + 1e-12));
    ck_assert_double_ge(t.other_s, 0);
}

/* Four nodes on a 1 Gbit/s NIC each: without pipeline stages the data-parallel gradient
 * reduction crosses the nodes, is exposed and is most of the time beyond compute of every such
 * 4-node row; the 1-minute deadline, which no size within the 32-GPU budget can meet on compute
 * alone (so every one is simulated), binds every row. */
START_TEST(test_exposed_communication_binds_communication)
{
    st_scn *s = load("  nodes: 4\n  fabric: { nic: 1 Gbit/s, nics_per_node: 1 }\n", "");
    st_size_result r = run_gpus(s, 60, 32);
    ck_assert_int_eq(r.counts_bounded, 0);
    int four = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        check_split(f);
        if (f->nodes < 4 || f->pp > 1) /* the gradients' reduction crosses the nodes */
            continue;
        st_size_time t;
        st_size_time_of(f, &t);
        ck_assert_double_gt(t.fabric_s, t.other_s);
        ck_assert_int_eq(f->binds, ST_BIND_COMMUNICATION);
        ck_assert_str_eq(st_size_bind_name(f->binds), "communication");
        four++;
    }
    ck_assert_int_gt(four, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

/* One node, a checkpoint tier writing 0.2 GB/s and reading 0.05 GB/s, and a GPU failing every
 * 20 h: checkpoint stalls and restores are most of the time beyond compute, and every row binds
 * storage; on a 200 GB/s tier none does, and the fastest row binds the deadline (compute and the
 * work failures lose). */
START_TEST(test_checkpoint_stalls_bind_storage)
{
    static const char fail[] = "    checkpoint: { every: 1 h, mode: sync, tier: fs }\n"
                               "failures: { gpu: { mtbf: 20 h }, detect: 1 min, restart: 4 min }\n";
    st_scn *slow = load("  nodes: 1\n  storage: [ { name: fs, kind: parallel-fs, read: 0.02 GB/s, "
                        "write: 0.2 GB/s } ]\n",
                        fail);
    st_scn *fast = load("  nodes: 1\n  storage: [ { name: fs, kind: parallel-fs, read: 200 GB/s, "
                        "write: 200 GB/s } ]\n",
                        fail);
    st_size_result a = run(slow, 60), b = run(fast, 60);
    for (size_t i = 0; i < a.n; i++) {
        check_split(&a.cfg[i]);
        ck_assert_double_gt(a.cfg[i].storage_s, 0);
        ck_assert_int_eq(a.cfg[i].binds, ST_BIND_STORAGE);
        ck_assert_str_eq(st_size_bind_name(a.cfg[i].binds), "storage");
    }
    for (size_t i = 0; i < b.n; i++)
        ck_assert_int_ne(b.cfg[i].binds, ST_BIND_STORAGE);
    ck_assert_int_eq(b.cfg[0].binds, ST_BIND_DEADLINE);
    st_size_release(&a);
    st_size_release(&b);
    st_scn_free(slow);
    st_scn_free(fast);
}
END_TEST

/* Switches of 2 ports, a node a leaf with one NIC: a leaf takes 1 port down and 1 up, a spine
 * one per leaf. 1 and 2 nodes need 2 ports at most; 4 nodes need spines of 4 ports, and a third
 * tier of 2-port switches (pods of 1 leaf) needs cores of 4: such a fabric cannot be built, so
 * every row of 4 nodes or more is not feasible, on no front, and binds fabric, though some meet
 * the 3 h deadline (which only 4 nodes or more do) and are feasible on switches of 4 ports. */
START_TEST(test_spines_past_their_ports_bind_fabric)
{
    static const char fab[] = "  nodes: 4\n  fabric: { nics_per_node: 1, nodes_per_leaf: 1, "
                              "switch_ports: %d }\n";
    char two[256], four[256];
    snprintf(two, sizeof two, fab, 2);
    snprintf(four, sizeof four, fab, 4);
    st_scn *a = load(two, ""), *b = load(four, "");
    st_size_result r = run(a, 10800), q = run(b, 10800);
    size_t over = 0, met = 0, ok4 = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_int_eq(f->switch_ports, 2);
        ck_assert_int_le(f->ports, f->nodes < 4 ? 2 : INT64_MAX);
        if (f->nodes >= 4) {
            over++;
            met += f->train_s <= 10800;
            ck_assert_int_gt(f->ports, 2);
            ck_assert_int_eq(f->topology, ST_TOPO_FAT_TREE_3); /* grown, still too few ports */
            ck_assert(!f->feasible);
            ck_assert(!f->front);
            ck_assert_int_eq(f->binds, ST_BIND_FABRIC);
        }
    }
    for (size_t i = 0; i < q.n; i++)
        if (q.cfg[i].nodes == 4) {
            ok4 += q.cfg[i].feasible;
            ck_assert_int_eq(q.cfg[i].ports, 4);
            ck_assert_int_eq(q.cfg[i].topology, ST_TOPO_SPINE_LEAF);
        }
    ck_assert_uint_gt(over, 0);
    ck_assert_uint_gt(met, 0);
    ck_assert_uint_gt(ok4, 0);
    ck_assert_int_eq(q.cfg[0].nodes, 4); /* the smallest that meets it */
    st_size_release(&r);
    st_size_release(&q);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* The fabric grows with the size: on switches of 4 ports, a node a leaf with one NIC, 4 nodes
 * fill a spine's 4 ports; 8 would need spines of 8, so they get a third tier, pods of 2 leaves
 * under aggregation switches of 2 ports down and 2 up, and 4 pods under cores of 4 ports: every
 * switch within its 4 ports, the fabric built. 16 nodes would need cores of 8: past what three
 * tiers of 4-port switches reach, they bind fabric. */
START_TEST(test_fabric_grows_a_third_tier)
{
    st_scn *s = load("  nodes: 1\n  fabric: { nics_per_node: 1, nodes_per_leaf: 1, "
                     "switch_ports: 4 }\n",
                     "");
    st_size_result r = run(s, 1e-3); /* met by no size: doubled until it stops gaining */
    size_t n8 = 0, n16 = 0;
    for (size_t i = 0; i < r.n; i++) {
        const st_size_cfg *f = &r.cfg[i];
        ck_assert_int_eq(f->topology, f->nodes <= 4 ? ST_TOPO_SPINE_LEAF : ST_TOPO_FAT_TREE_3);
        if (f->nodes == 8) {
            n8++;
            ck_assert_int_eq(f->leaves_per_pod, 2);
            ck_assert_int_le(f->ports, 4); /* built: a binding fabric is its traffic's */
        }
        if (f->nodes == 16) {
            n16++;
            ck_assert_int_gt(f->ports, 4);
            ck_assert_int_eq(f->binds, ST_BIND_FABRIC);
        }
    }
    ck_assert_uint_gt(n8, 0);
    ck_assert_uint_gt(n16, 0);
    st_size_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *size_binds_suite(void)
{
    Suite *s = suite_create("size_binds");
    TCase *tc = tcase_create("binds");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_exposed_communication_binds_communication);
    tcase_add_test(tc, test_checkpoint_stalls_bind_storage);
    tcase_add_test(tc, test_spines_past_their_ports_bind_fabric);
    tcase_add_test(tc, test_fabric_grows_a_third_tier);
    suite_add_tcase(s, tc);
    return s;
}
