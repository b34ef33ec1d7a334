/* Dense first layers of a mixture-of-experts model (`dense_layers`, Megatron-Core's
 * moe_layer_freq [0]*N + [1]*(L-N)): parameters and FLOPs by hand, the two layer kinds'
 * operators and collectives, the first pipeline stage's memory, and the catalog's GLM-4.5
 * presets against their published counts (docs/models/step-ops.md and memory-model.md,
 * "Mixture of experts"). */
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

#define H 1024.0
#define V 1024.0

/* 6 layers, the first 2 dense with an 8192-wide SwiGLU MLP, the other 4 with 8 SwiGLU experts
 * of width 512, top 2; RMSNorm, RoPE, no biases, untied embeddings. */
static st_llm_spec model(void)
{
    st_llm_spec m = {.name = "test-dense-first",
                     .layers = 6,
                     .hidden = 1024,
                     .ffn_hidden = 8192,
                     .heads = 8,
                     .vocab = 1024,
                     .mlp = ST_MLP_SWIGLU,
                     .norm = ST_NORM_RMSNORM,
                     .pos = ST_POS_ROPE,
                     .experts = 8,
                     .experts_per_token = 2,
                     .expert_ffn_hidden = 512,
                     .dense_layers = 2};
    st_llm_fill_defaults(&m);
    return m;
}

static int has_op(const st_op *ops, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ops[i].name, name) == 0)
            return 1;
    return 0;
}

static const st_gpu_spec *h100(void)
{
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

static st_workload_cfg work(const st_llm_spec *m, int64_t tp, int64_t pp, int64_t dp, int64_t ep)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    /* balanced routing, so the graph's counts are the mean rank's (models/silicon/ops.h) */
    w.routing_imbalance = 1, w.routing_imbalance_given = 1;
    w.name = "dense-first";
    w.model = m;
    w.seq_len = 2048;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = tp, w.parallel.pp = pp, w.parallel.dp = dp, w.parallel.cp = 1;
    w.parallel.sequence_parallel = tp > 1;
    w.parallel.ep = ep, w.parallel.zero = 0, w.parallel.microbatch = 1;
    w.parallel.virtual_stages = 1, w.parallel.recompute = ST_RECOMPUTE_NONE;
    w.global_batch = 4 * dp;
    w.gpus = tp * pp * dp;
    return w;
}

/* The hand counts of one layer of each kind: attention 4 h^2 (q, k, v, o; kv_heads = heads),
 * two RMSNorms; dense MLP gate + up h x 2f and down f x h; an MoE MLP's router h x 8 and 8
 * experts of 3 x 512 h. */
static const double ATTN = 4 * H * H, NORMS = 2 * H, DENSE_MLP = 3 * 8192 * H, ROUTER = 8 * H,
                    EXPERT = 3 * 512 * H;

START_TEST(test_params_and_flops_by_hand)
{
    st_llm_spec m = model();
    double dense = ATTN + DENSE_MLP + NORMS, moe = ATTN + ROUTER + 8 * EXPERT + NORMS;
    double edges = 2 * V * H + H; /* input and output embeddings, final norm */
    ck_assert_int_eq(st_llm_dense_layers(&m), 2);
    ck_assert_int_eq(st_llm_moe_layers(&m), 4);
    ck_assert_double_eq(st_llm_dense_layer_params(&m), dense);
    ck_assert_double_eq(st_llm_layer_params(&m), moe);
    ck_assert_double_eq(st_llm_params(&m, 2048), 2 * dense + 4 * moe + edges);
    double active = ATTN + ROUTER + 2 * EXPERT + NORMS;
    ck_assert_double_eq(st_llm_active_params(&m, 2048), 2 * dense + 4 * active + edges);
    double matmul = 2 * (ATTN + DENSE_MLP) + 4 * (ATTN + ROUTER + 2 * EXPERT) + V * H;
    ck_assert_double_eq(st_llm_matmul_params(&m), matmul);
    ck_assert_double_eq(st_llm_flops_per_token(&m, 2048), 6 * matmul + 12.0 * 6 * H * 2048);
    /* A dense model's layers are all of its one kind. */
    st_llm_spec d = st_llm_dense_spec(&m);
    ck_assert_int_eq(st_llm_dense_layers(&d), 6);
    ck_assert_int_eq(st_llm_moe_layers(&d), 0);
    ck_assert_double_eq(st_llm_dense_layer_params(&d), st_llm_layer_params(&d));
}
END_TEST

START_TEST(test_layer_kinds_ops_and_collectives)
{
    /* tp 2 with sequence parallelism, ep 4 of 8 GPUs. */
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 2, 1, 4, 4);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward_kind(&w, h100(), 1, 1, ops, ST_OPS_MAX);
    ck_assert(!has_op(ops, n, "router"));
    const st_op *fc1 = find_op(ops, n, "fc1");
    ck_assert_double_eq(fc1->n, 2 * 8192 / 2);
    ck_assert_double_eq(find_op(ops, n, "fc2")->k, 8192 / 2);
    n = st_ops_layer_forward_kind(&w, h100(), 1, 0, ops, ST_OPS_MAX);
    ck_assert(has_op(ops, n, "router"));
    ck_assert(!has_op(ops, n, "fc1"));
    st_layer_cost dc, mc, plain;
    st_ops_layer_cost_kind(&w, h100(), 1, 1, &dc);
    st_ops_layer_cost_kind(&w, h100(), 1, 0, &mc);
    st_ops_layer_cost(&w, h100(), 1, &plain);
    /* The dense layer: attention's and the MLP's TP pairs, no all-to-alls; the MoE layer: the
     * attention's pair and the dispatch and combine, forward and backward. */
    ck_assert_int_eq(dc.tp_colls_fwd, 4);
    ck_assert_int_eq(dc.tp_colls_bwd, 6);
    ck_assert_int_eq(dc.ep_a2a_fwd, 0);
    ck_assert_int_eq(dc.ep_a2a_bwd, 0);
    ck_assert_int_eq(mc.tp_colls_fwd, 2);
    ck_assert_int_eq(mc.ep_a2a_fwd, 2);
    ck_assert_int_eq(mc.ep_a2a_bwd, 2);
    ck_assert_double_eq(plain.fwd_s, mc.fwd_s);
    /* The graph's forward FLOPs over both kinds and the tp ranks, plus the logits GEMM, are a
     * third of the model FLOPs per token. */
    double fwd = (2 * dc.fwd_flops + 4 * mc.fwd_flops) * 2;
    n = st_ops_head_forward(&w, h100(), 1, ops, ST_OPS_MAX);
    fwd += find_op(ops, n, "logits")->flops * 2;
    ASSERT_REL(3 * fwd / 2048, st_llm_flops_per_token(&m, 2048), 1e-12);
}
END_TEST

START_TEST(test_first_stage_memory_holds_the_dense_layers)
{
    /* pp 2, tp 1, ep 1: stage 0 holds layers 0-2 (2 dense, 1 MoE) and the input embedding;
     * stage 1 three MoE layers and the output layer. The dense layers' wider MLP makes stage
     * 0 the most loaded. */
    st_llm_spec m = model();
    st_workload_cfg w = work(&m, 1, 2, 1, 1);
    st_memory mem;
    st_memory_estimate(&w, h100(), 1, &mem);
    double dense = ATTN + DENSE_MLP + NORMS, moe = ATTN + ROUTER + 8 * EXPERT + NORMS;
    ck_assert_int_eq(mem.stage, 0);
    ck_assert_double_eq(mem.params_per_gpu, V * H + 2 * dense + moe);
    ck_assert_double_eq(mem.expert_params_per_gpu, 8 * EXPERT);
    /* Activations: 2 micro-batches in flight (1F1B, stage 0 of 2), each keeping 2 dense
     * layers' and one MoE layer's. */
    st_llm_spec d = st_llm_dense_spec(&m);
    st_workload_cfg wd = w;
    wd.model = &d;
    double ad = st_memory_layer_activations(&wd, 1), am = st_memory_layer_activations(&w, 1);
    ck_assert(ad != am);
    ASSERT_REL(mem.term[ST_MEM_ACTIVATIONS], 2 * (2 * ad + am), 1e-12);
    /* Interleaved, pp 2 x v 3 (chunks of one layer, chunk c on stage c mod 2): stage 0 holds
     * layers 0, 2 and 4, one of them dense (layer 0), stage 1 layers 1, 3, 5 with dense
     * layer 1. Both stages have one dense layer. */
    w.parallel.virtual_stages = 3;
    w.global_batch = 6;
    st_memory_estimate(&w, h100(), 1, &mem);
    ck_assert_double_eq(mem.expert_params_per_gpu, 2 * 8 * EXPERT);
}
END_TEST

/* Embeddings and output layer, which GLM-4.5's activated counts leave out (below). */
static double edges(const st_llm_spec *m)
{
    return 2.0 * (double)m->vocab * (double)m->hidden + (double)m->hidden;
}

START_TEST(test_glm45_counts_match_published)
{
    /* GLM-4.5 report (arXiv 2508.06471) and model cards: GLM-4.5-Air 106B total, 12B activated;
     * GLM-4.5 355B, 32B. Totals within 1%. The activated figures are the layers' alone: with
     * the embedding and output layer GLM-4.5 would be 33.6B (5% over), without them it is
     * 32.08B; within one unit of the published last digit. */
    const st_llm_spec *air = st_catalog_model("glm-4.5-air"), *big = st_catalog_model("glm-4.5");
    ck_assert_ptr_nonnull(air);
    ck_assert_ptr_nonnull(big);
    ck_assert_int_eq(st_llm_dense_layers(air), 1);
    ck_assert_int_eq(st_llm_dense_layers(big), 3);
    ASSERT_REL(st_llm_params(air, 4096), 106e9, 0.01);
    ASSERT_REL(st_llm_params(big, 4096), 355e9, 0.01);
    double a_air = st_llm_active_params(air, 4096) - edges(air);
    double a_big = st_llm_active_params(big, 4096) - edges(big);
    ck_assert_msg(fabs(a_air - 12e9) < 1e9, "%.6g activated", a_air);
    ck_assert_msg(fabs(a_big - 32e9) < 1e9, "%.6g activated", a_big);
    /* The figures docs/models/memory-model.md quotes. */
    ck_assert_double_eq(st_llm_params(air, 4096), 106851586048.0);
    ck_assert_double_eq(st_llm_active_params(air, 4096), 13423464448.0);
    ck_assert_double_eq(st_llm_params(big, 4096), 352796472320.0);
    ck_assert_double_eq(st_llm_active_params(big, 4096), 33630909440.0);
    /* The Air's dense layer: attention (q and o 4096 x 12288, k and v 4096 x 1024), the
     * 10944-wide SwiGLU MLP and two RMSNorms. */
    double attn = 2 * 4096.0 * 12288 + 2 * 4096.0 * 1024;
    ck_assert_double_eq(st_llm_dense_layer_params(air), attn + 3 * 10944.0 * 4096 + 2 * 4096);
}
END_TEST

/* The model mapping's dense_layers after loading, or -1 with the first error in err. */
static int64_t loads(const char *model, char *err, size_t cap)
{
    st_llm_spec m;
    return load_inline_model(model, &m, err, cap) ? m.dense_layers : -1;
}

START_TEST(test_loader_reads_and_checks_the_key)
{
    char err[512];
    ck_assert_int_eq(loads("{ layers: 4, hidden: 1024, heads: 8, mlp: swiglu, experts: 8, "
                           "experts_per_token: 2, expert_ffn_hidden: 512, dense_layers: 3 }",
                           err, sizeof err),
                     3);
    /* A base keeps the preset's; 0 makes every layer MoE; fewer layers than it has dense ones
     * are refused. */
    ck_assert_int_eq(loads("{ base: glm-4.5 }", err, sizeof err), 3);
    ck_assert_int_eq(loads("{ base: glm-4.5, dense_layers: 0 }", err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(loads("{ base: glm-4.5, layers: 3 }", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "dense_layers (3) must be below layers (3)") != NULL, "%s", err);
    ck_assert_int_eq(loads("{ base: glm-4.5, dense_layers: -1 }", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "error:") != NULL, "%s", err);
}
END_TEST

Suite *dense_layers_suite(void)
{
    Suite *s = suite_create("dense_layers");
    TCase *tc = tcase_create("dense_layers");
    tcase_add_test(tc, test_params_and_flops_by_hand);
    tcase_add_test(tc, test_layer_kinds_ops_and_collectives);
    tcase_add_test(tc, test_first_stage_memory_holds_the_dense_layers);
    tcase_add_test(tc, test_glm45_counts_match_published);
    tcase_add_test(tc, test_loader_reads_and_checks_the_key);
    suite_add_tcase(s, tc);
    return s;
}
