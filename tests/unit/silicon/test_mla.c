/* Multi-head latent attention (kv_lora_rank > 0, Megatron-Core's MLASelfAttention): parameters
 * and FLOPs by hand on a small model, the operators per TP rank, the FLOP identity of the
 * graph, the memory term, the CP exchange width, the loader's keys and refusals, the plan
 * check, and the deepseek-v3 preset against DeepSeek-V3's published counts
 * (docs/models/step-ops.md and memory-model.md, "Multi-head latent attention"). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/silicon/plan_check.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/scenarios/inline_model.h"
#include "unit/silicon/ops_find.h"

#define H  1024.0
#define V  1024.0
#define NH 8.0
#define QL 256.0
#define KL 128.0
#define RO 32.0
#define NO 64.0
#define VD 80.0

/* 2 layers, hidden 1024, 8 heads; q_lora_rank 256, kv_lora_rank 128, rope 32, nope 64, v 80
 * (query/key width 8 x 96 = 768, value width 8 x 80 = 640: unequal on purpose); a 4096-wide
 * SwiGLU MLP, RMSNorm, RoPE, no biases, untied. */
static st_llm_spec model(void)
{
    st_llm_spec m = {.name = "test-mla",
                     .layers = 2,
                     .hidden = 1024,
                     .ffn_hidden = 4096,
                     .heads = 8,
                     .vocab = 1024,
                     .mlp = ST_MLP_SWIGLU,
                     .norm = ST_NORM_RMSNORM,
                     .pos = ST_POS_ROPE,
                     .q_lora_rank = 256,
                     .kv_lora_rank = 128,
                     .qk_rope_head_dim = 32,
                     .qk_nope_head_dim = 64,
                     .v_head_dim = 80};
    st_llm_fill_defaults(&m);
    return m;
}

static const st_gpu_spec *h100(void)
{
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

static st_workload_cfg work(const st_llm_spec *m, int64_t tp)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "mla";
    w.model = m;
    w.seq_len = 2048;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = tp, w.parallel.pp = 1, w.parallel.dp = 1, w.parallel.cp = 1;
    w.parallel.sequence_parallel = tp > 1;
    w.parallel.ep = 1, w.parallel.zero = 0, w.parallel.microbatch = 1;
    w.parallel.virtual_stages = 1, w.parallel.recompute = ST_RECOMPUTE_NONE;
    w.global_batch = 1;
    w.gpus = tp;
    return w;
}

/* q down h x 256 and up 256 x 8 (64 + 32); kv down h x (128 + 32) and up 128 x 8 (64 + 80);
 * output 8 x 80 x h. */
static const double DQK = NH * (NO + RO), DV = NH * VD;
static const double ATTN =
    H * QL + QL * NH * (NO + RO) + H * (KL + RO) + KL * NH * (NO + VD) + NH * VD * H;

START_TEST(test_params_and_flops_by_hand)
{
    st_llm_spec m = model();
    ck_assert(st_llm_is_mla(&m));
    ck_assert_int_eq(st_llm_attn_width(&m), 768);
    ck_assert_int_eq(st_llm_v_width(&m), 640);
    ck_assert_int_eq(st_llm_kv_pair_width(&m), 768 + 640);
    double mlp = 3 * 4096 * H, norms = 2 * H + QL + KL;
    ck_assert_double_eq(st_llm_layer_params(&m), ATTN + mlp + norms);
    ck_assert_double_eq(st_llm_params(&m, 2048), 2 * (ATTN + mlp + norms) + 2 * V * H + H);
    double matmul = 2 * (ATTN + mlp) + V * H;
    ck_assert_double_eq(st_llm_matmul_params(&m), matmul);
    /* 6 L s (d_qk + d_v): 2 s d_qk for Q K^T and 2 s d_v for P V per token forward, x 3. */
    ck_assert_double_eq(st_llm_flops_per_token(&m, 2048), 6 * matmul + 6.0 * 2 * 2048 * (DQK + DV));
    /* Without q_lora_rank (DeepSeek-V2-Lite): one h x 8 (64 + 32) query projection, no q norm. */
    m.q_lora_rank = 0;
    double attn0 = ATTN - H * QL - QL * DQK + H * DQK;
    ck_assert_double_eq(st_llm_layer_params(&m), attn0 + mlp + 2 * H + KL);
}
END_TEST

START_TEST(test_operators_per_tp_rank)
{
    /* tp 2 with sequence parallelism: the down projections are whole (duplicated) over this
     * rank's Tr = 1024 tokens, the up projections column-parallel over all 2048, the output
     * projection row-parallel over the value width. */
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 2);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    const st_op *qd = find_op(ops, n, "q_down"), *qu = find_op(ops, n, "q_up");
    const st_op *kd = find_op(ops, n, "kv_down"), *ku = find_op(ops, n, "kv_up");
    const st_op *pr = find_op(ops, n, "proj"), *at = find_op(ops, n, "attn");
    ck_assert_double_eq(qd->m, 1024);
    ck_assert_double_eq(qd->n, QL);
    ck_assert_double_eq(qd->k, H);
    ck_assert_double_eq(qu->m, 2048);
    ck_assert_double_eq(qu->n, DQK / 2);
    ck_assert_double_eq(qu->k, QL);
    ck_assert_double_eq(kd->m, 1024);
    ck_assert_double_eq(kd->n, KL + RO);
    ck_assert_double_eq(ku->n, NH / 2 * (NO + VD));
    ck_assert_double_eq(ku->k, KL);
    ck_assert_double_eq(pr->k, DV / 2);
    ck_assert_double_eq(pr->n, H);
    ck_assert_double_eq(at->flops, 2.0 * 2048 * 2048 * (DQK + DV) / 2);
    /* Q, K of d_qk and V, O of d_v per rank, bf16, and the fp32 log-sum-exp of 4 heads. */
    ck_assert_double_eq(at->bytes, 2.0 * 2048 * 2 * (DQK + DV) / 2 + 4.0 * 2048 * 4);
    /* The latent norms run on the sequence-parallel shard, before the gather. */
    ck_assert_double_eq(find_op(ops, n, "kv_norm")->bytes,
                        find_op(ops, n, "norm1")->bytes * KL / H);
    ck_assert_double_eq(find_op(ops, n, "q_norm")->bytes, find_op(ops, n, "norm1")->bytes * QL / H);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(strcmp(ops[i].name, "qkv") != 0, "MLA has no fused qkv");
    /* Without q_lora_rank: q_proj column-parallel, no q_down, q_norm or q_up. */
    m.q_lora_rank = 0;
    n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    const st_op *qp = find_op(ops, n, "q_proj");
    ck_assert_double_eq(qp->n, DQK / 2);
    ck_assert_double_eq(qp->k, H);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(strcmp(ops[i].name, "q_up") != 0, "q_up without q_lora_rank");
}
END_TEST

START_TEST(test_graph_flops_equal_flops_per_token)
{
    /* tp 1: two layers' forward FLOPs plus the logits GEMM are a third of the model FLOPs. */
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 1);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    double fwd = 0.0;
    for (size_t i = 0; i < n; i++)
        fwd += ops[i].flops;
    fwd *= 2;
    n = st_ops_head_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    fwd += find_op(ops, n, "logits")->flops;
    ASSERT_REL(3 * fwd / 2048, st_llm_flops_per_token(&m, 2048), 1e-12);
}
END_TEST

START_TEST(test_memory_keeps_latents_and_unequal_widths)
{
    /* tp 1, BF16, fused attention, no dropout: 8 sbh replicated (norm inputs, the projections'
     * input, the MLP input), Q 2sb d_qk, K 2sb d_qk, V 2sb d_v, the core output 2sb d_v, the
     * SwiGLU inner 6 sbf, the latents 4 sb (q_lora + kv_lora) and the log-sum-exp 4 a s b. */
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 1);
    double sb = 2048,
           want = sb * (8 * H + 2 * (2 * DQK + 2 * DV) + 6 * 4096 + 4 * (QL + KL)) + 4 * NH * sb;
    ck_assert_double_eq(st_memory_layer_activations(&w, 1), want);
    /* tp 2 with sequence parallelism: the latents are not split by TP (the down projections
     * are duplicated) but kept on the sequence-parallel shard, as the replicated tensors. */
    w = work(&m, 2);
    double want2 = sb * ((8 * H + 4 * (QL + KL)) / 2 + (2 * (2 * DQK + 2 * DV) + 6 * 4096) / 2) +
                   4 * NH * sb / 2;
    ck_assert_double_eq(st_memory_layer_activations(&w, 1), want2);
}
END_TEST

START_TEST(test_plan_check_refuses_op_recompute)
{
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 1);
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8};
    st_plan_issue is[4];
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 0);
    w.parallel.recompute = ST_RECOMPUTE_OP;
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "multi-head latent attention") != NULL, "%s", is[0].msg);
}
END_TEST

START_TEST(test_deepseek_v3_counts_match_published)
{
    /* DeepSeek-V3 report (arXiv 2412.19437): 671B total, 37B activated, the MTP module
     * excluded. Total within 1% (671.03B); activated, counted as st_llm_active_params does
     * (both embedding tables: 37.55B), within one unit of the published last digit. */
    const st_llm_spec *m = st_catalog_model("deepseek-v3");
    ck_assert_ptr_nonnull(m);
    ck_assert(st_llm_is_mla(m));
    ck_assert_int_eq(st_llm_dense_layers(m), 3);
    ASSERT_REL(st_llm_params(m, 4096), 671e9, 0.01);
    double act = st_llm_active_params(m, 4096);
    ck_assert_msg(fabs(act - 37e9) < 1e9, "%.6g activated", act);
    /* The figures docs/models/memory-model.md quotes. */
    ck_assert_double_eq(st_llm_params(m, 4096), 671026404352.0);
    ck_assert_double_eq(act, 37552282624.0);
    ck_assert_double_eq(act - (double)m->vocab * (double)m->hidden, 36625603584.0);
}
END_TEST

/* The first error of loading a workload with this model, "" if it loads; *out gets the
 * loaded model's kv_lora_rank (or -1). */
static void loads(const char *model, char *err, size_t cap, int64_t *out)
{
    st_llm_spec m;
    *out = load_inline_model(model, &m, err, cap) ? m.kv_lora_rank : -1;
}

#define MLA_MAP                                                                                    \
    "layers: 2, hidden: 1024, heads: 8, mlp: swiglu, kv_lora_rank: 128, qk_rope_head_dim: 32, "    \
    "qk_nope_head_dim: 64, v_head_dim: 80"

START_TEST(test_loader_reads_and_checks_the_keys)
{
    char err[512];
    int64_t r;
    loads("{ " MLA_MAP ", q_lora_rank: 256 }", err, sizeof err, &r);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(r, 128);
    loads("{ base: deepseek-v3 }", err, sizeof err, &r);
    ck_assert_int_eq(r, 512);
    loads("{ " MLA_MAP ", kv_heads: 2 }", err, sizeof err, &r);
    ck_assert_msg(strstr(err, "kv_heads (2) with kv_lora_rank") != NULL, "%s", err);
    loads("{ layers: 2, hidden: 1024, heads: 8, mlp: swiglu, kv_lora_rank: 128, "
          "qk_nope_head_dim: 64 }",
          err, sizeof err, &r);
    ck_assert_msg(strstr(err, "needs 'v_head_dim'") != NULL, "%s", err);
    loads("{ layers: 2, hidden: 1024, heads: 8, q_lora_rank: 64 }", err, sizeof err, &r);
    ck_assert_msg(strstr(err, "'q_lora_rank' needs 'kv_lora_rank'") != NULL, "%s", err);
    loads("{ " MLA_MAP ", bias: true }", err, sizeof err, &r);
    ck_assert_msg(strstr(err, "needs bias: false") != NULL, "%s", err);
}
END_TEST

Suite *mla_suite(void)
{
    Suite *s = suite_create("mla");
    TCase *tc = tcase_create("mla");
    tcase_add_test(tc, test_params_and_flops_by_hand);
    tcase_add_test(tc, test_operators_per_tp_rank);
    tcase_add_test(tc, test_graph_flops_equal_flops_per_token);
    tcase_add_test(tc, test_memory_keeps_latents_and_unequal_widths);
    tcase_add_test(tc, test_plan_check_refuses_op_recompute);
    tcase_add_test(tc, test_deepseek_v3_counts_match_published);
    tcase_add_test(tc, test_loader_reads_and_checks_the_keys);
    suite_add_tcase(s, tc);
    return s;
}
