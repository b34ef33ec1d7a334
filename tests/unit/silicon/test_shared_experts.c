/* Shared experts (Megatron-Core's SharedExpertMLP, `shared_expert_ffn_hidden`): the
 * Qwen2-57B-A14B preset's total and activated counts against the published ones (Qwen2
 * Technical Report, arXiv 2407.10671; the Qwen/Qwen2-57B-A14B model card), the shared MLP's
 * operators, FLOPs and TP collectives, its tensor-parallel (not expert-parallel) memory and its
 * activations (docs/models/step-ops.md and memory-model.md, "Mixture of experts"), and the
 * loader's key. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/scenarios/inline_model.h"
#include "unit/silicon/ops_find.h"

static const st_llm_spec *qwen2(void)
{
    const st_llm_spec *m = st_catalog_model("qwen2-57b-a14b");
    ck_assert_ptr_nonnull(m);
    return m;
}

static const st_gpu_spec *h100(void)
{
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

/* Qwen2-57B-A14B, or `m`, at seq 4096 on tp x dp GPUs (sequence parallel with tp > 1), BF16,
 * flash attention, ZeRO 1, one micro-batch. */
static st_workload_cfg work(const st_llm_spec *m, int64_t tp, int64_t dp, int64_t ep,
                            st_recompute rc)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    /* balanced routing, so the graph's counts are the mean rank's (models/silicon/ops.h) */
    w.routing_imbalance = 1, w.routing_imbalance_given = 1;
    w.name = "shared";
    w.model = m;
    w.seq_len = 4096;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = tp, w.parallel.pp = 1, w.parallel.dp = dp, w.parallel.cp = 1;
    w.parallel.sequence_parallel = tp > 1;
    w.parallel.ep = ep, w.parallel.zero = 1, w.parallel.microbatch = 1;
    w.parallel.virtual_stages = 1, w.parallel.recompute = rc;
    w.global_batch = dp;
    w.gpus = tp * dp;
    return w;
}

/* The same model without its shared experts. */
static st_llm_spec unshared(void)
{
    st_llm_spec m = *qwen2();
    m.shared_expert_ffn_hidden = 0;
    return m;
}

START_TEST(test_qwen2_counts_match_published)
{
    /* 57B total, 14B activated (the report's and model card's 57B-A14B; the activated figure
     * states whole billions: within one of it). */
    const st_llm_spec *m = qwen2();
    ck_assert_double_eq(m->published_params, 57e9);
    ASSERT_REL(st_llm_params(m, 4096), 57e9, 0.01);
    double active = st_llm_active_params(m, 4096);
    ck_assert_msg(fabs(active - 14e9) < 1e9, "%.6g activated", active);
    /* The figures docs/models/memory-model.md quotes: 57.41B total, 14.25B active. */
    ck_assert_double_eq(st_llm_params(m, 4096), 57408429568.0);
    ck_assert_double_eq(active, 14249041408.0);
    /* Without the shared expert the activated count is 8 experts short of 14B. */
    st_llm_spec u = unshared();
    ck_assert(st_llm_active_params(&u, 4096) < 13e9);
}
END_TEST

START_TEST(test_shared_counts_by_hand)
{
    /* Per layer: attention q 3584 x 3584, k and v 3584 x 512, o 3584 x 3584; router 3584 x 64;
     * 64 routed experts of gate + up 3584 x 5120 and down 2560 x 3584; the shared expert's gate
     * + up 3584 x 40960 and down 20480 x 3584, bias-free; two RMSNorms. */
    const st_llm_spec *m = qwen2();
    double h = 3584, attn = h * h + 2 * h * 512 + h * h, router = h * 64;
    double expert = h * 5120 + 2560 * h, shared = h * 40960 + 20480 * h;
    ck_assert_int_eq(st_llm_shared_up(m), 40960);
    ck_assert_double_eq(st_llm_shared_expert_params(m), shared);
    /* The routed experts stay the routed ones: what make_plan and the memory model split
     * over ep. */
    ck_assert_double_eq(st_llm_expert_params(m), expert);
    ck_assert_double_eq(st_llm_layer_params(m), attn + router + shared + 64 * expert + 2 * h);
    double edges = 2 * 151936.0 * h + h;
    ck_assert_double_eq(st_llm_params(m, 4096), 28 * st_llm_layer_params(m) + edges);
    ck_assert_double_eq(st_llm_active_params(m, 4096),
                        28 * (attn + router + shared + 8 * expert + 2 * h) + edges);
    /* FLOPs: 6 x (layers x (attention + router + shared + k experts) + output layer) + 12 L d s. */
    double matmul = 28 * (attn + router + shared + 8 * expert) + 151936.0 * h;
    ck_assert_double_eq(st_llm_flops_per_token(m, 4096), 6 * matmul + 12.0 * 28 * 3584 * 4096);
    /* A GeLU shared expert has one up-projection. */
    st_llm_spec g = *m;
    g.mlp = ST_MLP_GELU;
    ck_assert_int_eq(st_llm_shared_up(&g), 20480);
    /* Without experts the key means nothing. */
    st_llm_spec d = *m;
    d.experts = 0;
    ck_assert_int_eq(st_llm_shared_up(&d), 0);
    ck_assert_double_eq(st_llm_shared_expert_params(&d), 0);
}
END_TEST

START_TEST(test_shared_ops_shapes)
{
    /* tp 2 with sequence parallelism, ep 4 of 8 GPUs: the shared MLP runs on all T = 4096
     * tokens after the gather, its widths split over tp as the dense MLP's; it comes first,
     * before the router (MoELayer's custom_forward). */
    st_workload_cfg w = work(qwen2(), 2, 4, 4, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    static const char *const order[] = {"norm1",      "qkv",           "rope",       "attn",
                                        "proj",       "bda1",          "norm2",      "shared_fc1",
                                        "shared_act", "shared_fc2",    "router",     "router_topk",
                                        "permute",    "sort_chunks",   "expert_fc1", "expert_act",
                                        "expert_fc2", "unsort_chunks", "unpermute",  "bda2"};
    ck_assert_uint_eq(n, sizeof order / sizeof order[0]);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(ops[i].name, order[i]);
    const double T = 4096, h = 3584, fs = 20480;
    const st_op *f1 = find_op(ops, n, "shared_fc1"), *f2 = find_op(ops, n, "shared_fc2");
    ck_assert_double_eq(f1->m, T);
    ck_assert_double_eq(f1->n, 2 * fs / 2);
    ck_assert_double_eq(f1->k, h);
    ck_assert_double_eq(f1->flops, 2 * T * fs * h);
    ck_assert_double_eq(find_op(ops, n, "shared_act")->bytes, 6 * T * fs / 2);
    ck_assert_double_eq(f2->m, T);
    ck_assert_double_eq(f2->n, h);
    ck_assert_double_eq(f2->k, fs / 2);
    ck_assert_double_eq(f2->flops, 2 * T * h * fs / 2);
    /* The router still sees the T / tp tokens this GPU holds. */
    ck_assert_double_eq(find_op(ops, n, "router")->m, T / 2);
}
END_TEST

START_TEST(test_shared_ops_follow_precision_and_kernels)
{
    /* FP8 delayed scaling on Hopper, tp 1: shared_fc1's input is a separate norm's output
     * (plain: cast 3 bytes plus the transposed copy 1), as is its output gradient. */
    st_workload_cfg w = work(qwen2(), 1, 8, 8, ST_RECOMPUTE_NONE);
    w.precision = ST_PREC_FP8;
    w.fp8_recipe = ST_FP8_DELAYED;
    w.kernels.act = ST_KERNELS_EAGER;
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    const st_op *f1 = find_op(ops, n, "shared_fc1");
    ck_assert_int_eq(f1->prec, ST_PREC_FP8);
    ck_assert_double_eq(f1->quant_fwd_bytes, 4096.0 * 3584 * 4);
    ck_assert_double_eq(f1->quant_bwd_bytes, 4096.0 * 40960 * 4);
    ck_assert_int_eq(find_op(ops, n, "shared_fc2")->prec, ST_PREC_FP8);
    /* kernels: {act: eager}: F.silu(gate) * up, 10 bytes per element. */
    ck_assert_double_eq(find_op(ops, n, "shared_act")->bytes, 10.0 * 4096 * 20480);
}
END_TEST

START_TEST(test_graph_flops_equal_the_model_flops)
{
    /* The layers' forward FLOPs over all tp ranks plus the logits GEMM are a third of
     * st_llm_flops_per_token per token, at every tp and ep. */
    static const int64_t tps[] = {1, 2, 4}, eps[] = {1, 4, 8};
    for (size_t t = 0; t < 3; t++)
        for (size_t e = 0; e < 3; e++) {
            st_workload_cfg w = work(qwen2(), tps[t], 8 / tps[t], eps[e], ST_RECOMPUTE_NONE);
            st_op ops[ST_OPS_MAX];
            size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
            double fwd = 0;
            for (size_t i = 0; i < n; i++)
                fwd += ops[i].flops;
            fwd *= 28;
            n = st_ops_head_forward(&w, h100(), 1, ops, ST_OPS_MAX);
            fwd += find_op(ops, n, "logits")->flops;
            ASSERT_REL(3 * fwd * (double)tps[t] / 4096, st_llm_flops_per_token(qwen2(), 4096),
                       1e-12);
        }
}
END_TEST

START_TEST(test_tp_collectives_with_shared_experts)
{
    /* tp 2, sequence parallel: the attention's all-gather and reduce-scatter forward and its
     * reduce-scatter and two all-gathers backward, and the shared MLP's as many; the routed
     * experts (expert tensor parallelism 1) none. */
    st_layer_cost c;
    st_workload_cfg w = work(qwen2(), 2, 4, 4, ST_RECOMPUTE_NONE);
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.tp_colls_fwd, 4);
    ck_assert_int_eq(c.tp_colls_bwd, 6);
    ck_assert_int_eq(c.tp_ag_fwd, 2);
    ck_assert_int_eq(c.tp_ag_bwd, 4);
    ck_assert_int_eq(c.tp_colls_recompute, 0);
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.tp_colls_recompute, 4);
    /* Without sequence parallelism (not a plan the loader accepts for MoE, but the count is
     * defined): one all-reduce per pair each way. */
    w.parallel.sequence_parallel = 0, w.parallel.recompute = ST_RECOMPUTE_NONE;
    st_ops_layer_cost(&w, h100(), 1, &c);
    ck_assert_int_eq(c.tp_colls_fwd, 2);
    ck_assert_int_eq(c.tp_colls_bwd, 2);
    ck_assert_int_eq(c.tp_ag_fwd + c.tp_ag_bwd, 0);
    /* Without shared experts only the attention's pair; a dense layer has two; at tp 1 none. */
    st_llm_spec u = unshared();
    st_workload_cfg wu = work(&u, 2, 4, 4, ST_RECOMPUTE_NONE);
    st_ops_layer_cost(&wu, h100(), 1, &c);
    ck_assert_int_eq(c.tp_colls_fwd, 2);
    ck_assert_int_eq(c.tp_colls_bwd, 3);
    ck_assert_int_eq(c.tp_ag_fwd, 1);
    ck_assert_int_eq(c.tp_ag_bwd, 2);
    st_workload_cfg w1 = work(qwen2(), 1, 8, 8, ST_RECOMPUTE_FULL);
    st_ops_layer_cost(&w1, h100(), 1, &c);
    ck_assert_int_eq(c.tp_colls_fwd + c.tp_colls_bwd + c.tp_colls_recompute, 0);
}
END_TEST

static st_memory estimate(const st_workload_cfg *w)
{
    st_memory m;
    st_memory_estimate(w, h100(), 1, &m);
    return m;
}

START_TEST(test_shared_weights_fall_with_tp_not_ep)
{
    /* The shared expert's 28 x 220M parameters are in the dense part: split over tp, whole at
     * every ep, sharded by ZeRO 1 over dp x cp; the expert part does not hold them. */
    st_llm_spec u = unshared();
    double shared = 28 * st_llm_shared_expert_params(qwen2());
    static const struct {
        int64_t tp, dp, ep;
    } plan[] = {{1, 8, 1}, {1, 8, 8}, {2, 4, 4}, {4, 2, 8}};
    for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        st_workload_cfg a = work(qwen2(), plan[i].tp, plan[i].dp, plan[i].ep, ST_RECOMPUTE_FULL);
        st_workload_cfg b = work(&u, plan[i].tp, plan[i].dp, plan[i].ep, ST_RECOMPUTE_FULL);
        st_memory ma = estimate(&a), mb = estimate(&b);
        double t = (double)plan[i].tp, dp = (double)plan[i].dp;
        ASSERT_REL(ma.params_per_gpu - mb.params_per_gpu, shared / t, 1e-9);
        ck_assert_double_eq(ma.expert_params_per_gpu, mb.expert_params_per_gpu);
        ASSERT_REL(ma.term[ST_MEM_WEIGHTS] - mb.term[ST_MEM_WEIGHTS], 2 * shared / t, 1e-9);
        ASSERT_REL(ma.term[ST_MEM_GRADS] - mb.term[ST_MEM_GRADS], 4 * shared / t, 1e-9);
        ASSERT_REL(ma.term[ST_MEM_OPTIMIZER] - mb.term[ST_MEM_OPTIMIZER], 12 * shared / t / dp,
                   1e-9);
    }
}
END_TEST

START_TEST(test_shared_activations_are_the_dense_mlp_terms)
{
    /* Selective recompute: the shared MLP keeps Korthikanti's SwiGLU inner tensors, 6 s b f_s
     * split over tp; under FP8 fc2's input is kept in one byte (5 s b f_s). */
    st_llm_spec u = unshared();
    const double s = 4096, fs = 20480;
    for (int64_t tp = 1; tp <= 2; tp++) {
        st_workload_cfg a = work(qwen2(), tp, 8 / tp, 4, ST_RECOMPUTE_SELECTIVE);
        st_workload_cfg b = work(&u, tp, 8 / tp, 4, ST_RECOMPUTE_SELECTIVE);
        double d = st_memory_layer_activations(&a, 1) - st_memory_layer_activations(&b, 1);
        ASSERT_REL(d, 6 * s * fs / (double)tp, 1e-12);
        a.precision = b.precision = ST_PREC_FP8;
        d = st_memory_layer_activations(&a, 1) - st_memory_layer_activations(&b, 1);
        ASSERT_REL(d, 5 * s * fs / (double)tp, 1e-12);
    }
    /* Full recompute keeps the layer input only. */
    st_workload_cfg f = work(qwen2(), 1, 8, 4, ST_RECOMPUTE_FULL);
    ck_assert_double_eq(st_memory_layer_activations(&f, 1), 2 * s * 3584);
}
END_TEST

static int loads(const char *model, char *err, size_t cap)
{
    st_llm_spec m;
    return load_inline_model(model, &m, err, cap) ? (int)m.shared_expert_ffn_hidden : 0;
}

START_TEST(test_loader_reads_and_checks_the_key)
{
    char err[512];
    ck_assert_int_eq(loads("{ layers: 2, hidden: 1024, heads: 8, mlp: swiglu, experts: 8, "
                           "experts_per_token: 2, expert_ffn_hidden: 512, "
                           "shared_expert_ffn_hidden: 1024 }",
                           err, sizeof err),
                     1024);
    /* A base keeps the preset's; 0 removes it. */
    ck_assert_int_eq(loads("{ base: qwen2-57b-a14b, layers: 2 }", err, sizeof err), 20480);
    ck_assert_int_eq(
        loads("{ base: qwen2-57b-a14b, shared_expert_ffn_hidden: 0 }", err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    /* Refused: on a dense model, negative, with biases. */
    loads("{ layers: 2, hidden: 1024, heads: 8, shared_expert_ffn_hidden: 1024 }", err, sizeof err);
    ck_assert_msg(strstr(err, "'shared_expert_ffn_hidden' needs 'experts'") != NULL, "%s", err);
    loads("{ base: qwen2-57b-a14b, shared_expert_ffn_hidden: -1 }", err, sizeof err);
    ck_assert_msg(strstr(err, "error:") != NULL, "%s", err);
    loads("{ base: qwen2-57b-a14b, bias: true }", err, sizeof err);
    ck_assert_msg(strstr(err, "needs bias: false") != NULL, "%s", err);
}
END_TEST

Suite *shared_experts_suite(void)
{
    Suite *s = suite_create("shared_experts");
    TCase *tc = tcase_create("shared_experts");
    tcase_add_test(tc, test_qwen2_counts_match_published);
    tcase_add_test(tc, test_shared_counts_by_hand);
    tcase_add_test(tc, test_shared_ops_shapes);
    tcase_add_test(tc, test_shared_ops_follow_precision_and_kernels);
    tcase_add_test(tc, test_graph_flops_equal_the_model_flops);
    tcase_add_test(tc, test_tp_collectives_with_shared_experts);
    tcase_add_test(tc, test_shared_weights_fall_with_tp_not_ep);
    tcase_add_test(tc, test_shared_activations_are_the_dense_mlp_terms);
    tcase_add_test(tc, test_loader_reads_and_checks_the_key);
    suite_add_tcase(s, tc);
    return s;
}
