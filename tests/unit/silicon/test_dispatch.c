/* DeepEP's and HybridEP's dispatch (models/silicon/dispatch.h): the rows they merge per token
 * against the binomial count, the measured bandwidths as the table states them with the
 * interpolation between rank counts, and the layer's exchange bytes under each dispatcher. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/dispatch.h"
#include "models/silicon/ops.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"

static const st_gpu_spec *gpu(const char *name)
{
    const st_gpu_spec *g = st_catalog_gpu(name);
    ck_assert_ptr_nonnull(g);
    return g;
}

START_TEST(test_row_share_is_one_row_per_destination_rank)
{
    /* ep (1 - C(E - E/ep, k) / C(E, k)) / k, from math.comb: 64 experts top-8 on 8 ranks (the
     * benchmark's), Qwen3-30B's 128 on 8, DeepSeek-V3's 256 on 64 */
    ASSERT_REL(st_moe_flex_row_share(64, 8, 8), 0.6790689102423071, 1e-12);
    ASSERT_REL(st_moe_flex_row_share(128, 8, 8), 0.6674196119229359, 1e-12);
    ASSERT_REL(st_moe_flex_row_share(256, 8, 64), 0.9594687739712606, 1e-12);
    /* nothing to merge: one expert a token, one rank, or a rank for every expert */
    ck_assert_double_eq(st_moe_flex_row_share(128, 1, 8), 1.0);
    ck_assert_double_eq(st_moe_flex_row_share(128, 8, 1), 1.0);
    ck_assert_double_eq(st_moe_flex_row_share(8, 8, 8), 1.0);
    /* every token reaches every rank: k experts on two ranks of four experts each */
    ASSERT_REL(st_moe_flex_row_share(8, 8, 2), 2.0 / 8, 1e-12);
}
END_TEST

START_TEST(test_bandwidth_is_the_measurement)
{
    const st_gpu_spec *b200 = gpu("b200"), *gb200 = gpu("gb200"), *h100 = gpu("h100-sxm");
    ASSERT_REL(st_moe_flex_bw(b200, ST_DISP_HYBRIDEP, 8, 0, 0), 535.94e9, 1e-12);
    ASSERT_REL(st_moe_flex_bw(b200, ST_DISP_HYBRIDEP, 8, 0, 1), 530.86e9, 1e-12);
    ASSERT_REL(st_moe_flex_bw(b200, ST_DISP_DEEPEP, 8, 0, 0), 421e9, 1e-12);
    /* between 8 and 16 GB200 ranks: linear; beyond the most measured (36): its figure */
    ASSERT_REL(st_moe_flex_bw(gb200, ST_DISP_HYBRIDEP, 12, 0, 0), (550.10 + 472.84) / 2 * 1e9,
               1e-12);
    ASSERT_REL(st_moe_flex_bw(gb200, ST_DISP_HYBRIDEP, 64, 0, 1), 418.27e9, 1e-12);
    ASSERT_REL(st_moe_flex_bw(h100, ST_DISP_HYBRIDEP, 32, 1, 0), 47.36e9, 1e-12);
    /* DeepEP across nodes: the RDMA rates of DeepEP's H800 table */
    ASSERT_REL(st_moe_flex_bw(h100, ST_DISP_DEEPEP, 64, 1, 0), 51e9, 1e-12);
    ASSERT_REL(st_moe_flex_bw(h100, ST_DISP_DEEPEP, 48, 1, 1), 53.5e9, 1e-12);
    /* unmeasured: H100 in one NVLink domain, DeepEP within one, MI300X, B200 across nodes */
    ck_assert_double_eq(st_moe_flex_bw(h100, ST_DISP_HYBRIDEP, 8, 0, 0), 0);
    ck_assert_double_eq(st_moe_flex_bw(h100, ST_DISP_DEEPEP, 8, 0, 0), 0);
    ck_assert_double_eq(st_moe_flex_bw(gpu("mi300x"), ST_DISP_HYBRIDEP, 8, 0, 0), 0);
    ck_assert_double_eq(st_moe_flex_bw(b200, ST_DISP_HYBRIDEP, 16, 1, 0), 0);
    ck_assert_double_eq(st_moe_flex_bw(NULL, ST_DISP_HYBRIDEP, 8, 0, 0), 0);
}
END_TEST

/* An exchange moves the received rows at the measured rate; DeepEP across nodes moves over RDMA
 * one row per token and destination node, so its time is the rows' times distinct nodes over
 * distinct ranks. 256 experts top-8 over ep 64 on 8 nodes, routed uniformly: 8 (1 - C(224, 8) /
 * C(256, 8)) = 5.2947 nodes against 7.6758 ranks a token (math.comb). */
START_TEST(test_exchange_counts_what_crosses_rdma)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *b200 = gpu("b200");
    st_llm_spec m = *st_catalog_model("deepseek-v3");
    m.expert_groups = 0, m.expert_groups_per_token = 0; /* uniform routing */
    double rows = 1e9;
    double nodes = st_moe_routed_share(&m, 8) * 8, ranks = st_moe_routed_share(&m, 64) * 8;
    ASSERT_REL(nodes, 5.294652000382479, 1e-9);
    ASSERT_REL(ranks, 7.675750191770085, 1e-9);
    double want = rows * nodes / ranks * (1 / 51e9 + 1 / 50e9) / 2;
    ASSERT_REL(st_moe_flex_exchange_s(h100, ST_DISP_DEEPEP, 64, 1, 8, &m, rows), want, 1e-12);
    /* HybridEP's rates are of received rows: no conversion */
    ASSERT_REL(st_moe_flex_exchange_s(h100, ST_DISP_HYBRIDEP, 64, 1, 8, &m, rows),
               rows * (1 / 41.24e9 + 1 / 46.57e9) / 2, 1e-12);
    ASSERT_REL(st_moe_flex_exchange_s(b200, ST_DISP_DEEPEP, 8, 0, 1, &m, rows),
               rows * (1 / 421e9 + 1 / 361e9) / 2, 1e-12);
    ck_assert_double_lt(st_moe_flex_exchange_s(b200, ST_DISP_DEEPEP, 16, 1, 2, &m, rows), 0);
}
END_TEST

/* DeepSeek-V3's node-limited routing: top-8 among the 128 experts of 4 of its 8 groups of 32
 * (math.comb). 8 nodes, one group each: 8 (4/8) (1 - C(96, 8) / C(128, 8)) = 3.6290 a token;
 * 64 ranks of 4 experts: 64 (4/8) (1 - C(124, 8) / C(128, 8)) = 7.3594; 4 blocks of 2 groups:
 * 4 sum_x hyp(x; 8, 2, 4) (1 - C(128 - 32x, 8) / C(128, 8)) = 2.9282. A layout where neither
 * nests (3 blocks) is taken as uniform. */
START_TEST(test_group_limited_routing_reaches_fewer_blocks)
{
    const st_llm_spec *m = st_catalog_model("deepseek-v3");
    ck_assert_int_eq(m->expert_groups, 8);
    ck_assert_int_eq(m->expert_groups_per_token, 4);
    ASSERT_REL(st_moe_routed_share(m, 8) * 8, 3.6290109244257005, 1e-12);
    ASSERT_REL(st_moe_routed_share(m, 64) * 8, 7.359370078740156, 1e-12);
    ASSERT_REL(st_moe_routed_share(m, 4) * 8, 2.9282097874345783, 1e-12);
    ck_assert_double_eq(st_moe_routed_share(m, 3), st_moe_flex_row_share(256, 8, 3));
    ck_assert_double_eq(st_moe_routed_share(m, 1), 1.0);
}
END_TEST

START_TEST(test_layer_bytes_follow_the_dispatcher)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.routing_imbalance = 1, w.routing_imbalance_given = 1;
    w.name = "moe";
    w.model = st_catalog_model("qwen3-30b-a3b");
    w.seq_len = 4096;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel = (st_parallel_cfg){.tp = 1,
                                   .cp = 1,
                                   .pp = 1,
                                   .dp = 8,
                                   .ep = 8,
                                   .zero = 1,
                                   .microbatch = 1,
                                   .virtual_stages = 1};
    w.global_batch = 8, w.gpus = 8;
    st_layer_cost a, h;
    st_ops_layer_cost(&w, gpu("b200"), 1, &a);
    w.parallel.moe_dispatcher = ST_DISP_HYBRIDEP;
    st_ops_layer_cost(&w, gpu("b200"), 1, &h);
    ck_assert_int_eq(a.ep_flex, ST_DISP_ALLTOALL);
    ck_assert_int_eq(h.ep_flex, ST_DISP_HYBRIDEP);
    ck_assert_double_eq(a.ep_a2a_bytes, 8.0 * 4096 * 2048 * 2);
    ASSERT_REL(h.ep_a2a_bytes, a.ep_a2a_bytes * 0.6674196119229359, 1e-12);
    /* the exchanges per pass do not change: a dispatch and a combine each way */
    ck_assert_int_eq(h.ep_a2a_fwd, a.ep_a2a_fwd);
    ck_assert_int_eq(h.ep_a2a_bwd, a.ep_a2a_bwd);
    /* allgather: every rank's tokens in BF16 (ep T h), whatever the routing's imbalance */
    st_layer_cost g, gi;
    w.parallel.moe_dispatcher = ST_DISP_ALLGATHER;
    st_ops_layer_cost(&w, gpu("b200"), 1, &g);
    w.routing_imbalance = 2;
    st_ops_layer_cost(&w, gpu("b200"), 1, &gi);
    ck_assert_int_eq(g.ep_flex, ST_DISP_ALLGATHER);
    ck_assert_double_eq(g.ep_a2a_bytes, 8.0 * 4096 * 2048 * 2);
    ck_assert_double_eq(gi.ep_a2a_bytes, g.ep_a2a_bytes);
    ck_assert_int_eq(g.ep_a2a_fwd, a.ep_a2a_fwd);
}
END_TEST

/* A service over attention-DP replicas exchanges as the engines do: all-gather up to top-k
 * ranks, all-to-all beyond; a stated dispatcher stands. */
START_TEST(test_serving_default_follows_the_group_against_top_k)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.model = st_catalog_model("deepseek-v3"); /* top-8 */
    w.parallel.ep = 8;
    ck_assert_int_eq(st_moe_serve_dispatcher(&w), ST_DISP_ALLGATHER);
    w.parallel.ep = 16;
    ck_assert_int_eq(st_moe_serve_dispatcher(&w), ST_DISP_ALLTOALL);
    w.parallel.ep = 4, w.parallel.moe_dispatcher = ST_DISP_ALLTOALL,
    w.parallel.moe_dispatcher_given = 1;
    ck_assert_int_eq(st_moe_serve_dispatcher(&w), ST_DISP_ALLTOALL);
}
END_TEST

Suite *dispatch_suite(void)
{
    Suite *s = suite_create("dispatch");
    TCase *tc = tcase_create("flex");
    tcase_add_test(tc, test_row_share_is_one_row_per_destination_rank);
    tcase_add_test(tc, test_bandwidth_is_the_measurement);
    tcase_add_test(tc, test_exchange_counts_what_crosses_rdma);
    tcase_add_test(tc, test_group_limited_routing_reaches_fewer_blocks);
    tcase_add_test(tc, test_layer_bytes_follow_the_dispatcher);
    tcase_add_test(tc, test_serving_default_follows_the_group_against_top_k);
    suite_add_tcase(s, tc);
    return s;
}
