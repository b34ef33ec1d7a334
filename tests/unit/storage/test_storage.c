/* Storage on the fabric: routes to a tier, the media shared by reads and writes, rate caps,
 * checkpoint stalls by mode, two jobs on one tier, and a drain slowing ingest. Small clusters
 * built by hand, so every expected figure is arithmetic on the inputs. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"
#include "models/storage/storage.h"
#include "unit/check_util.h"

static const st_gpu_spec gpu = {.name = "test-gpu", .nvlink_bw = 900e9, .pcie_bw = 64e9};

/* Tiers: 0 "fast" (write 10 GB/s, read 20 GB/s, 1 ms), 1 "local" NVMe per node (4 GB/s write,
 * 8 GB/s read). */
static st_tier_cfg tiers[2] = {
    {.name = "fast",
     .kind = ST_TIER_NVME_OF,
     .read_bw = 20e9,
     .write_bw = 10e9,
     .latency_s = 1e-3,
     .gds = 1},
    {.name = "local", .kind = ST_TIER_LOCAL_NVME, .read_bw = 8e9, .write_bw = 4e9, .gds = 1},
};

/* nodes x 8 GPUs, 8 x 400 Gbit/s NICs per node, 2 nodes per leaf, non-blocking: the tier, not
 * the fabric, is the bottleneck of every test below. */
static st_cluster_cfg cluster(int64_t nodes, int n_tiers)
{
    st_cluster_cfg c = {
        .gpu = &gpu,
        .nodes = nodes,
        .gpus_per_node = 8,
        .nvlink_domain = 8,
        .node = {.pcie_bw = 64e9},
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = 50e9,
                   .nics_per_node = 8,
                   .nodes_per_leaf = 2,
                   .oversub = {1},
                   .n_oversub = 1,
                   .transport = ST_TRANSPORT_INFINIBAND,
                   .routing = ST_ROUTING_ECMP,
                   .link_latency_s = 1e-6,
                   .switch_latency_s = 0.5e-6},
        .tiers = tiers,
        .n_tiers = n_tiers,
    };
    return c;
}

static st_topo *topo_of(const st_cluster_cfg *c)
{
    st_topo *t = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_topo_new(c, &t, &err), 0);
    return t;
}

static st_workload_cfg job(int64_t gpus, st_ckpt_mode mode)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "job";
    w.gpus = gpus;
    w.seq_len = 4096;
    w.global_batch = 64;
    w.parallel = (st_parallel_cfg){.tp = 8, .cp = 1, .pp = 1, .dp = gpus / 8, .zero = 1};
    w.checkpoint = (st_ckpt_cfg){.enabled = 1, .mode = mode, .tier = 0};
    return w;
}

START_TEST(test_a_write_climbs_the_fabric_and_a_read_weighs_write_over_read_on_the_media)
{
    st_cluster_cfg c = cluster(4, 2);
    st_topo *t = topo_of(&c);
    int64_t tier = st_topo_storage_endpoint(t, 0);
    ck_assert_int_eq(tier, 32);
    int32_t l[ST_TOPO_MAX_HOPS];
    double w[ST_TOPO_MAX_HOPS], lat;
    int n = st_topo_route_w(t, 3, tier, 7, l, w, ST_TOPO_MAX_HOPS, &lat);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_NIC);
    ck_assert_int_eq(st_topo_level(t, l[1]), ST_LEVEL_LEAF);
    ck_assert_int_eq(st_topo_level(t, l[2]), ST_LEVEL_STORAGE);
    ck_assert_double_eq(w[2], 1.0);
    ck_assert_double_eq_tol(st_topo_capacity(t, l[2]), 10e9, 1);
    ck_assert_double_eq_tol(lat, 3e-6 + 2 * 0.5e-6 + 1e-3, 1e-15);
    n = st_topo_route_w(t, tier, 3, 7, l, w, ST_TOPO_MAX_HOPS, NULL);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(st_topo_level(t, l[0]), ST_LEVEL_STORAGE);
    ck_assert_double_eq(w[0], 0.5); /* write 10 / read 20 */
    /* Local NVMe: one media link of the GPU's own node, no fabric. */
    int64_t local = st_topo_storage_endpoint(t, 1);
    n = st_topo_route_w(t, 17, local, 7, l, w, ST_TOPO_MAX_HOPS, NULL);
    ck_assert_int_eq(n, 1);
    int32_t node2 = l[0];
    n = st_topo_route_w(t, 23, local, 7, l, w, ST_TOPO_MAX_HOPS, NULL);
    ck_assert_int_eq(l[0], node2);
    n = st_topo_route_w(t, 24, local, 7, l, w, ST_TOPO_MAX_HOPS, NULL);
    ck_assert_int_ne(l[0], node2);
    st_topo_free(t);
}
END_TEST

START_TEST(test_reads_and_writes_share_the_media_by_service_demand)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    int64_t a[8], b[8];
    for (int i = 0; i < 8; i++)
        a[i] = i, b[i] = 16 + i;
    /* Alone: writes at 10 GB/s, reads at 20 GB/s. Together at equal rate r: r/20 + r/10 = 1,
     * r = 6.67 GB/s each. */
    st_io w = {.gpu = a, .members = 8, .tier = 0, .bytes = 1e9};
    st_io r = {.gpu = b, .members = 8, .tier = 0, .read = 1, .bytes = 1e9};
    double done[2], rate[2];
    st_storage_run(t, &w, 1, done, rate);
    ASSERT_REL(rate[0], 10e9, 1e-9);
    st_storage_run(t, &r, 1, done, rate);
    ASSERT_REL(rate[0], 20e9, 1e-9);
    st_io both[2] = {w, r};
    st_storage_run(t, both, 2, done, rate);
    /* Both run at 20/3 GB/s until the read's 8 GB are done (1.2 s); the write then has
     * 8 - 8 = 0 left: they finish together. */
    ASSERT_REL(done[0] - 1e-3, 8e9 / (20e9 / 3), 1e-6);
    ASSERT_REL(done[1] - 1e-3, 8e9 / (20e9 / 3), 1e-6);
    st_topo_free(t);
}
END_TEST

START_TEST(test_a_capped_stream_takes_its_cap_and_leaves_the_rest)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    int64_t a[4] = {0, 8, 16, 24}, b[8];
    for (int i = 0; i < 8; i++)
        b[i] = i;
    st_io s[2] = {
        {.gpu = a, .members = 4, .tier = 0, .read = 1, .bytes = INFINITY, .max_rate = 1e9},
        {.gpu = b, .members = 8, .tier = 0, .read = 1, .bytes = 1e9}};
    double done[2], rate[2];
    st_storage_run(t, s, 2, done, rate);
    ASSERT_REL(rate[0], 4e9, 1e-9);  /* 4 hosts x 1 GB/s */
    ASSERT_REL(rate[1], 16e9, 1e-9); /* the rest of the 20 GB/s */
    ck_assert(isinf(done[0]));
    ASSERT_REL(done[1], 8e9 / 16e9 + 1e-3, 1e-6);
    st_topo_free(t);
}
END_TEST

START_TEST(test_a_sync_checkpoint_on_an_idle_tier_stalls_size_over_write_bandwidth)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    st_workload_cfg w = job(32, ST_CKPT_SYNC);
    st_placement at_w;
    st_placement_init_range(&at_w, t, &c, 0, w.gpus);
    st_memory mem = {.checkpoint_bytes = 320e9};
    st_ckpt_cost k;
    st_err err = {0};
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), 0);
    ck_assert_int_eq(k.writers, 32); /* ZeRO 1: every GPU writes its shard */
    ASSERT_REL(k.stall_s, 320e9 / 10e9 + 1e-3, 1e-6);
    ASSERT_REL(k.dump_s, 320e9 / 10e9 + 1e-3, 1e-12);
    ASSERT_REL(k.commit_s, k.stall_s, 1e-12);
    /* Restore reads at 20 GB/s. */
    ASSERT_REL(k.restore_s, 320e9 / 20e9 + 1e-3, 1e-6);
    /* Without GPUDirect Storage the shard is first copied to host memory over PCIe. */
    tiers[0].gds = 0;
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), 0);
    tiers[0].gds = 1;
    ASSERT_REL(k.stall_s, 10e9 / 64e9 + 320e9 / 10e9 + 1e-3, 1e-6);
    /* ZeRO 0 writes from replica 0's 8 GPUs only, so their NICs limit it: 8 x 50 GB/s x IB
     * efficiency is still above the tier, so the time is the same. */
    w.parallel.zero = 0;
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), 0);
    ck_assert_int_eq(k.writers, 8);
    ASSERT_REL(k.stall_s, 320e9 / 10e9 + 1e-3, 1e-6);
    st_placement_release(&at_w);
    st_topo_free(t);
}
END_TEST

START_TEST(test_two_jobs_checkpointing_at_once_each_take_twice_as_long)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    st_workload_cfg w = job(16, ST_CKPT_SYNC);
    st_placement at_w;
    st_placement_init_range(&at_w, t, &c, 0, w.gpus);
    st_placement at_w16;
    st_placement_init_range(&at_w16, t, &c, 16, w.gpus);
    int64_t a[16], b[16];
    int64_t na = st_storage_writers(&at_w, &w, a), nb = st_storage_writers(&at_w16, &w, b);
    st_io one = {.gpu = a, .members = na, .tier = 0, .bytes = 1e9};
    st_io two[2] = {one, {.gpu = b, .members = nb, .tier = 0, .bytes = 1e9}};
    double alone, done[2];
    st_storage_run(t, &one, 1, &alone, NULL);
    st_storage_run(t, two, 2, done, NULL);
    ASSERT_REL(done[0] - 1e-3, 2 * (alone - 1e-3), 1e-6);
    ASSERT_REL(done[1] - 1e-3, 2 * (alone - 1e-3), 1e-6);
    st_placement_release(&at_w);
    st_placement_release(&at_w16);
    st_topo_free(t);
}
END_TEST

START_TEST(test_async_stalls_for_the_pcie_copy_and_its_drain_slows_ingest)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    st_workload_cfg w = job(32, ST_CKPT_ASYNC);
    st_placement at_w;
    st_placement_init_range(&at_w, t, &c, 0, w.gpus);
    /* 16 GB/s of ingest from the same tier (global batch 64 x 4096 tokens x 61.0 bytes per
     * token per second at a 1 s step): alone it gets all of it. */
    w.data = (st_data_cfg){.enabled = 1, .tier = 0, .bytes_per_token = 16e9 / (64.0 * 4096)};
    st_ingest in;
    st_storage_ingest(&at_w, &w, 1.0, NULL, &in);
    ASSERT_REL(in.need_bps, 16e9, 1e-12);
    ASSERT_REL(in.got_bps, 16e9, 1e-9);
    ck_assert_double_eq(in.slowdown, 1);
    st_memory mem = {.checkpoint_bytes = 320e9};
    st_ckpt_cost k;
    st_err err = {0};
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, &in, NULL, &k, &err), 0);
    ASSERT_REL(k.d2h_s, 10e9 / 64e9, 1e-12);
    /* The drain (32 writer flows, weight 1 each on the media) and the ingest (4 host flows,
     * weight write/read = 1/2 each) share the media max-min per flow: every flow at x with
     * 32 x + 4 x / 2 = 10 GB/s, x = 10/34 GB/s. The ingest falls from 16 to 4 x = 1.18 GB/s
     * while the drain's 320 GB go at 32 x = 9.41 GB/s, and the progress lost, write_s x
     * (16 - 1.18) / 16, is counted in the stall on top of the copy. */
    double x = 10e9 / 34;
    ck_assert(k.ingest_loss_s > 0);
    ASSERT_REL(k.write_s - 1e-3, 320e9 / (32 * x), 1e-6);
    ASSERT_REL(k.ingest_loss_s, k.write_s * (16e9 - 4 * x) / 16e9, 1e-6);
    ASSERT_REL(k.stall_s, k.d2h_s + k.ingest_loss_s, 1e-12);
    ASSERT_REL(k.commit_s, k.d2h_s + k.write_s, 1e-12);
    /* Without ingest the async stall is the PCIe copy alone. */
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), 0);
    ck_assert_double_eq(k.stall_s, k.d2h_s);
    st_placement_release(&at_w);
    st_topo_free(t);
}
END_TEST

START_TEST(test_two_stage_writes_local_nvme_first_and_needs_one)
{
    st_cluster_cfg c = cluster(4, 2);
    st_topo *t = topo_of(&c);
    st_workload_cfg w = job(32, ST_CKPT_TWO_STAGE);
    st_placement at_w;
    st_placement_init_range(&at_w, t, &c, 0, w.gpus);
    st_memory mem = {.checkpoint_bytes = 320e9};
    st_ckpt_cost k;
    st_err err = {0};
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), 0);
    /* Each node's 8 shards (80 GB) into its own 4 GB/s NVMe. */
    ASSERT_REL(k.local_s, 80e9 / 4e9, 1e-6);
    ASSERT_REL(k.stall_s, k.local_s, 1e-12);
    ASSERT_REL(k.commit_s, k.local_s + 320e9 / 10e9 + 1e-3, 1e-6);
    st_placement_release(&at_w);
    st_topo_free(t);
    c = cluster(4, 1);
    t = topo_of(&c);
    st_placement_init_range(&at_w, t, &c, 0, w.gpus);
    ck_assert_int_eq(st_storage_checkpoint(&at_w, &w, &mem, NULL, NULL, &k, &err), ST_EINVAL);
    st_placement_release(&at_w);
    ck_assert_ptr_nonnull(strstr(err.msg, "local-nvme"));
    st_topo_free(t);
}
END_TEST

START_TEST(test_another_jobs_ingest_shares_the_tier)
{
    st_cluster_cfg c = cluster(4, 1);
    st_topo *t = topo_of(&c);
    /* Two 16-GPU jobs each needing 16 GB/s of reads from a 20 GB/s tier: alone each gets all
     * it needs; with the other's ingest in the background each gets half the tier. */
    st_workload_cfg a = job(16, ST_CKPT_SYNC), b = job(16, ST_CKPT_SYNC);
    st_placement at_a;
    st_placement_init_range(&at_a, t, &c, 0, a.gpus);
    st_placement at_b;
    st_placement_init_range(&at_b, t, &c, 16, b.gpus);
    a.data = b.data =
        (st_data_cfg){.enabled = 1, .tier = 0, .bytes_per_token = 16e9 / (64.0 * 4096)};
    st_ingest alone, shared;
    st_storage_ingest(&at_a, &a, 1.0, NULL, &alone);
    ASSERT_REL(alone.got_bps, 16e9, 1e-9);
    int64_t hosts[16];
    st_io other;
    ck_assert_int_eq(st_storage_ingest_stream(&at_b, &b, 16e9, hosts, &other), 2);
    st_io_set bg = {&other, 1};
    st_storage_ingest(&at_a, &a, 1.0, &bg, &shared);
    ASSERT_REL(shared.got_bps, 10e9, 1e-9);
    ASSERT_REL(shared.slowdown, 1.6, 1e-9);
    /* And a sync checkpoint of job a shares the media with the other job's reads, max-min per
     * flow: 16 writer flows of weight 1 and 2 reader flows of weight 1/2, all at x, so
     * 17 x = 10 GB/s and the save runs at 16 x instead of 10 GB/s. */
    st_memory mem = {.checkpoint_bytes = 160e9};
    st_ckpt_cost k0, k1;
    st_err err = {0};
    ck_assert_int_eq(st_storage_checkpoint(&at_a, &a, &mem, NULL, NULL, &k0, &err), 0);
    ck_assert_int_eq(st_storage_checkpoint(&at_a, &a, &mem, NULL, &bg, &k1, &err), 0);
    ASSERT_REL(k0.stall_s - 1e-3, 160e9 / 10e9, 1e-6);
    ASSERT_REL(k1.stall_s - 1e-3, 160e9 / (16 * 10e9 / 17), 1e-6);
    st_placement_release(&at_a);
    st_placement_release(&at_b);
    st_topo_free(t);
}
END_TEST

/* A write's route (st_topo_write_route) and links back (st_topo_link_back) against
 * st_topo_route_w's own write and read routes, and the write and its read back alone together
 * (st_net_alone_both) against one st_net_alone each, bit for bit: on a three-tier fat tree whose
 * uplinks are oversubscribed (ECMP collisions decide the rates), on rails under adaptive routing
 * and on one spine-leaf pod; to a remote tier and to a node's local NVMe; capped and not. */
START_TEST(test_a_writes_links_back_and_its_alone_answers_are_the_reads_own)
{
    st_topology kinds[3] = {ST_TOPO_FAT_TREE_3, ST_TOPO_RAIL_OPTIMIZED, ST_TOPO_SPINE_LEAF};
    st_routing routes[3] = {ST_ROUTING_ECMP, ST_ROUTING_ADAPTIVE, ST_ROUTING_ECMP};
    for (int v = 0; v < 3; v++) {
        st_cluster_cfg c = cluster(32, 2);
        c.fabric.topology = kinds[v];
        c.fabric.routing = routes[v];
        c.fabric.leaves_per_pod = 4;
        c.fabric.oversub[0] = 3;
        st_topo *t = topo_of(&c);
        int64_t gpus = st_topo_gpus(t), *src = malloc((size_t)gpus * sizeof *src);
        int64_t *dst = malloc((size_t)gpus * sizeof *dst);
        for (int tier = 0; tier < 2; tier++) {
            int64_t ep = st_topo_storage_endpoint(t, tier);
            for (int64_t g = 0; g < gpus; g++) {
                int32_t l[ST_TOPO_MAX_HOPS], r[ST_TOPO_MAX_HOPS], b[ST_TOPO_MAX_HOPS];
                double w[ST_TOPO_MAX_HOPS], rw[ST_TOPO_MAX_HOPS], bw[ST_TOPO_MAX_HOPS];
                uint64_t key = st_topo_flow_key(v, (uint64_t)g);
                int n = st_topo_route_w(t, g, ep, key, l, w, ST_TOPO_MAX_HOPS, NULL);
                int m = st_topo_route_w(t, ep, g, key, r, rw, ST_TOPO_MAX_HOPS, NULL);
                ck_assert_int_eq(n, m);
                int32_t wr[ST_TOPO_MAX_HOPS];
                ck_assert_int_eq(st_topo_write_route(t, g, tier, key, wr), n);
                ck_assert(memcmp(wr, l, (size_t)n * sizeof *l) == 0);
                for (int i = 0; i < n; i++)
                    ck_assert(w[i] == 1.0); /* a write's every weight */
                for (int i = 0; i < n; i++)
                    b[n - 1 - i] = st_topo_link_back(t, tier, l[i], &bw[n - 1 - i]);
                ck_assert(memcmp(b, r, (size_t)m * sizeof *r) == 0);
                ck_assert(memcmp(bw, rw, (size_t)m * sizeof *rw) == 0);
                src[g] = g;
                dst[g] = ep;
            }
            for (int capped = 0; capped < 2; capped++) {
                st_xfer_spec x = {.src = src,
                                  .dst = dst,
                                  .n = (size_t)gpus,
                                  .bytes = 3e9,
                                  .key = 77 + (uint64_t)v,
                                  .max_rate = capped ? 1e8 : 0};
                st_xfer_spec y = x;
                y.src = dst;
                y.dst = src;
                double rate[2], r0, r1;
                st_time at[2], a0, a1;
                int rc[2];
                st_net_alone_both(t, &x, tier, 1000, rate, at, rc);
                ck_assert_int_eq(rc[0], st_net_alone(t, &x, 1000, &r0, &a0));
                ck_assert_int_eq(rc[1], st_net_alone(t, &y, 1000, &r1, &a1));
                ck_assert(rc[0] == 0 && rc[1] == 0);
                ck_assert(memcmp(&rate[0], &r0, sizeof r0) == 0 && at[0] == a0);
                ck_assert(memcmp(&rate[1], &r1, sizeof r1) == 0 && at[1] == a1);
            }
        }
        free(src);
        free(dst);
        st_topo_free(t);
    }
}
END_TEST

Suite *storage_suite(void)
{
    Suite *s = suite_create("storage");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc,
                   test_a_write_climbs_the_fabric_and_a_read_weighs_write_over_read_on_the_media);
    tcase_add_test(tc, test_reads_and_writes_share_the_media_by_service_demand);
    tcase_add_test(tc, test_a_capped_stream_takes_its_cap_and_leaves_the_rest);
    tcase_add_test(tc, test_a_sync_checkpoint_on_an_idle_tier_stalls_size_over_write_bandwidth);
    tcase_add_test(tc, test_two_jobs_checkpointing_at_once_each_take_twice_as_long);
    tcase_add_test(tc, test_async_stalls_for_the_pcie_copy_and_its_drain_slows_ingest);
    tcase_add_test(tc, test_two_stage_writes_local_nvme_first_and_needs_one);
    tcase_add_test(tc, test_another_jobs_ingest_shares_the_tier);
    tcase_add_test(tc, test_a_writes_links_back_and_its_alone_answers_are_the_reads_own);
    suite_add_tcase(s, tc);
    return s;
}
