/* The operator graph and its roofline times against Megatron's FLOP formulas, the PaLM FLOPs
 * per token, the benchmark measurements the efficiency curve was calibrated on, and the
 * recompute, sequence-parallel, tensor-parallel and ZeRO rules of docs/models/step-ops.md.
 *
 * Not asserted: the comparison with Korthikanti et al. 2022 Table 4 (one layer of the 22B
 * model, per technique) is in docs/models/step-ops.md; the end-to-end figures it is judged on are
 * the korthikanti2022 set of `strata validate --step`. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h" /* st__ops_time_forward */
#include "models/silicon/parallel.h"
#include "models/silicon/ub_cfg.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/silicon/ops_find.h"

static st_workload_cfg plan(const char *name, int64_t seq, int64_t tp, int sp, st_recompute rc)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "test";
    w.model = st_catalog_model(name);
    ck_assert_msg(w.model != NULL, "no preset '%s'", name);
    w.seq_len = seq;
    w.precision = ST_PREC_BF16;
    w.parallel.tp = tp, w.parallel.pp = 1, w.parallel.dp = 1, w.parallel.cp = 1;
    w.parallel.zero = 1, w.parallel.microbatch = 1, w.parallel.virtual_stages = 1;
    w.parallel.sequence_parallel = sp, w.parallel.recompute = rc;
    w.gpus = tp;
    return w;
}

static const st_gpu_spec *gpu(const char *name)
{
    const st_gpu_spec *g = st_catalog_gpu(name);
    ck_assert_msg(g != NULL, "no GPU '%s'", name);
    return g;
}

/* Forward model FLOPs of the layer's GEMMs and attention core. */
static double layer_flops(const st_workload_cfg *w, int64_t b)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(w, gpu("a100-sxm-80g"), b, ops, ST_OPS_MAX);
    double f = 0.0;
    for (size_t i = 0; i < n; i++)
        f += ops[i].flops;
    return f;
}

START_TEST(test_layer_flops_follow_megatron_24bsh2_plus_4bs2h)
{
    static const char *const names[] = {"gpt-22b", "gpt3-175b", "gpt-1t"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        st_workload_cfg w = plan(names[i], 2048, 1, 0, ST_RECOMPUTE_NONE);
        double B = 2, s = 2048, h = (double)w.model->hidden;
        double megatron = 24 * B * s * h * h + 4 * B * s * s * h;
        ASSERT_REL(layer_flops(&w, 2), megatron, 1e-12);
        st_layer_cost c;
        st_ops_layer_cost(&w, gpu("a100-sxm-80g"), 2, &c);
        ASSERT_REL(c.fwd_flops, megatron, 1e-12);
        ASSERT_REL(c.fwd_flops + c.bwd_flops, 3 * megatron, 1e-12);
    }
}
END_TEST

/* Layers plus the logits GEMM (forward and backward) are the PaLM model FLOPs of
 * st_llm_flops_per_token, GQA, MQA and SwiGLU shapes included. */
START_TEST(test_layers_and_logits_equal_flops_per_token)
{
    static const char *const names[] = {"gpt-22b",   "llama3-8b", "llama3-70b",
                                        "palm-540b", "mpt-7b",    "bloom-176b"};
    const st_gpu_spec *g = gpu("h100-sxm");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        st_workload_cfg w = plan(names[i], 4096, 1, 0, ST_RECOMPUTE_NONE);
        st_layer_cost c;
        st_ops_layer_cost(&w, g, 2, &c);
        st_op ops[ST_OPS_MAX];
        size_t n = st_ops_head_forward(&w, g, 2, ops, ST_OPS_MAX);
        double total = (double)w.model->layers * (c.fwd_flops + c.bwd_flops) +
                       3.0 * find_op(ops, n, "logits")->flops;
        double want = st_llm_flops_per_token(w.model, 4096) * 2 * 4096;
        ASSERT_REL(total, want, 1e-9);
    }
}
END_TEST

START_TEST(test_tensor_and_context_parallelism_split_the_flops)
{
    static const char *const names[] = {"gpt-22b", "llama3-70b", "llama3-405b"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        st_workload_cfg w = plan(names[i], 8192, 1, 0, ST_RECOMPUTE_NONE);
        double whole = layer_flops(&w, 1);
        w.parallel.tp = 8;
        ASSERT_REL(8 * layer_flops(&w, 1), whole, 1e-12);
        w.parallel.cp = 2;
        ASSERT_REL(16 * layer_flops(&w, 1), whole, 1e-12);
    }
}
END_TEST

/* GQA: Q is heads x head_dim wide, K and V kv_heads x head_dim each, split over TP ranks (one
 * group each when there are fewer groups than ranks). */
START_TEST(test_qkv_width_follows_grouped_query_attention)
{
    st_workload_cfg w = plan("llama3-8b", 8192, 1, 0, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, gpu("h100-sxm"), 1, ops, ST_OPS_MAX);
    ck_assert_double_eq(find_op(ops, n, "qkv")->n, 4096 + 2 * 1024);
    ck_assert_double_eq(find_op(ops, n, "fc1")->n, 2 * 14336);
    ck_assert_double_eq(find_op(ops, n, "fc2")->k, 14336);
    w.parallel.tp = 4;
    n = st_ops_layer_forward(&w, gpu("h100-sxm"), 1, ops, ST_OPS_MAX);
    ck_assert_double_eq(find_op(ops, n, "qkv")->n, (4096 + 2 * 1024) / 4.0);
    ck_assert_double_eq(find_op(ops, n, "proj")->k, 1024);
    w.parallel.tp = 16;
    n = st_ops_layer_forward(&w, gpu("h100-sxm"), 1, ops, ST_OPS_MAX);
    ck_assert_double_eq(find_op(ops, n, "qkv")->n, 256 + 2 * 128);
}
END_TEST

START_TEST(test_roofline_memory_ops_are_memory_bound_big_gemms_compute_bound)
{
    const st_gpu_spec *g = gpu("a100-sxm-80g");
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 0, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 4, ops, ST_OPS_MAX);
    const st_op *norm = find_op(ops, n, "norm1"), *qkv = find_op(ops, n, "qkv");
    ck_assert_int_eq(norm->mem_bound, 1);
    /* its bytes at the achievable bandwidth, and the boundary every kernel pays */
    ASSERT_REL(norm->time_s,
               norm->bytes / (st_hbm_efficiency(g) * g->hbm_bw) + st_kernel_boundary_s(g), 1e-12);
    ck_assert_int_eq(qkv->mem_bound, 0);
    double compute =
        qkv->flops / (st_gemm_efficiency(g, ST_PREC_BF16, qkv->m, qkv->n, qkv->k) *
                      st_gpu_peak(g, ST_PREC_BF16) * st_gpu_sustained(g, ST_PREC_BF16));
    /* a GEMM's compute and memory times add in quadrature (ops_roofline.c, gemm_time): here its
     * memory time is a few percent of its compute, which it lengthens by a fraction of a percent */
    double mem = qkv->bytes / (st_hbm_efficiency(g) * g->hbm_bw);
    ASSERT_REL(qkv->time_s, hypot(compute, mem) + st_kernel_boundary_s(g), 1e-12);
    ck_assert(qkv->time_s < 1.05 * compute);
    /* A100: Azure's sustained GEMMs, 0.913 of burst */
    ck_assert(st_gpu_sustained(g, ST_PREC_BF16) < 1);
    /* B200's factor is GB200's scaled by the cube root of their power limits (gemm_eff.c). */
    const st_gpu_spec *b200 = gpu("b200"), *gb200 = gpu("gb200");
    ASSERT_REL(st_gpu_sustained(b200, ST_PREC_BF16),
               st_gpu_sustained(gb200, ST_PREC_BF16) * cbrt(b200->tdp_w / gb200->tdp_w), 0.001);
    ck_assert(qkv->time_s > qkv->bytes / (st_hbm_efficiency(g) * g->hbm_bw));
}
END_TEST

START_TEST(test_efficiency_falls_for_small_and_skinny_gemms_and_never_exceeds_emax)
{
    static const char *const names[] = {"a100-sxm-80g", "h100-sxm", "b200", "mi300x"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const st_gpu_spec *g = gpu(names[i]);
        for (int p = 0; p < 2; p++) {
            st_precision prec = p ? ST_PREC_FP8 : ST_PREC_BF16;
            double top = st_gemm_emax(g, prec);
            double big = st_gemm_efficiency(g, prec, 16384, 16384, 16384);
            ck_assert(top > 0.4 && top <= 1.0);
            ck_assert(big <= top && big > 0.9 * top);
            ck_assert(st_gemm_efficiency(g, prec, 512, 512, 512) < 0.5 * big);
            ck_assert(st_gemm_efficiency(g, prec, 16384, 64, 16384) < big);
            ck_assert(st_gemm_efficiency(g, prec, 16384, 16384, 64) < 0.7 * big);
            for (double m = 64; m <= 65536; m *= 4)
                for (double n = 64; n <= 65536; n *= 4)
                    for (double k = 64; k <= 65536; k *= 4)
                        ck_assert(st_gemm_efficiency(g, prec, m, n, k) <= top);
        }
    }
    ck_assert_double_eq(st_gemm_efficiency(gpu("h100-sxm"), ST_PREC_BF16, 0, 10, 10), 0);
}
END_TEST

/* e_max is derived so that the curve passes through each MAMF measurement at its shape. */
START_TEST(test_curve_reproduces_the_mamf_measurements)
{
    const st_gpu_spec *a100 = gpu("a100-sxm-80g"), *h100 = gpu("h100-sxm"), *b200 = gpu("b200");
    ASSERT_REL(st_gemm_efficiency(a100, ST_PREC_BF16, 1024, 10240, 5120), 0.869, 1e-9);
    ASSERT_REL(st_gemm_efficiency(h100, ST_PREC_BF16, 2048, 2048, 13312), 0.803, 1e-9);
    ASSERT_REL(st_gemm_efficiency(h100, ST_PREC_FP8, 1024, 9216, 14336), 0.709, 1e-9);
    ASSERT_REL(st_gemm_efficiency(b200, ST_PREC_BF16, 1792, 16128, 3072), 0.776, 1e-9);
}
END_TEST

/* Against XLA's H100 table: the five largest b = 1 shapes, each measured time less the
 * 4.75 us launch overhead that every timed call there carries (gemm_eff.c). The model runs
 * 3-7% slower: its e_max comes from MAMF, whose H100 measurement is that much below XLA's. */
START_TEST(test_curve_matches_xla_h100_measurements)
{
    static const double rows[][4] = {/* m, n, k, measured TFLOP/s (b = 1) */
                                     {4096, 4096, 4096, 786.0},
                                     {2048, 4096, 4096, 760.4},
                                     {4096, 1024, 4096, 740.8},
                                     {4096, 4096, 2048, 739.9},
                                     {4096, 512, 4096, 655.5}};
    const st_gpu_spec *g = gpu("h100-sxm");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double flops = 2 * rows[i][0] * rows[i][1] * rows[i][2];
        double measured = flops / (rows[i][3] * 1e12) - 4.75e-6;
        double e = st_gemm_efficiency(g, ST_PREC_BF16, rows[i][0], rows[i][1], rows[i][2]);
        ASSERT_REL(flops / (e * g->peak_bf16), measured, 0.08);
    }
}
END_TEST

START_TEST(test_attention_follows_flashattention_sweeps)
{
    const st_gpu_spec *a100 = gpu("a100-sxm-80g"), *h100 = gpu("h100-sxm");
    /* FlashAttention-2 paper, causal head dim 128 at 2k and 8k; FlashAttention-3 at 2k. */
    ASSERT_REL(st_attn_efficiency(a100, 0, 2048, 4096) * 312, 133, 0.05);
    ASSERT_REL(st_attn_efficiency(a100, 1, 8192, 4096) * 312, 175, 0.05);
    ASSERT_REL(st_attn_efficiency(h100, 0, 2048, 4096) * 989.5, 521, 0.05);
    /* The same paper's FlashAttention-2 bars on the H100 (causal forward, backward at 2k and
     * 8k), through the kernel choice; on the A100 every fused kind is FA2's sweep. */
    ASSERT_REL(st_attn_efficiency_of(h100, ST_ATTN_FLASH2, 0, 2048, 4096) * 989.5, 298, 0.05);
    ASSERT_REL(st_attn_efficiency_of(h100, ST_ATTN_FLASH2, 1, 8192, 4096) * 989.5, 318, 0.05);
    ck_assert_double_eq(st_attn_efficiency_of(a100, ST_ATTN_CUDNN, 0, 2048, 4096),
                        st_attn_efficiency(a100, 0, 2048, 4096));
    /* cuDNN 9.19's own sweeps (NVIDIA/cudnn-frontend, Llama 3.1 attention: batch 1, 64 query
     * heads, causal), every point forward and backward within 4%, on the benchmark's
     * 64 x seqlen / 128 blocks; the H100 reads the H200's, Blackwell's fastest `flash` is
     * cuDNN's. */
    static const double seq[] = {2048, 4096, 8192, 16384, 32768};
    static const struct {
        const char *gpu;
        double peak, fwd[5], bwd[5];
    } cudnn[] = {
        {"h200-sxm", 989.5, {484, 591, 644, 673, 688}, {370, 474, 541, 579, 581}},
        {"gb200", 2500, {1042, 1335, 1598, 1687, 1720}, {836, 1132, 1311, 1402, 1473}},
    };
    for (size_t g = 0; g < 2; g++) {
        const st_gpu_spec *p = gpu(cudnn[g].gpu);
        for (size_t i = 0; i < 5; i++) {
            double blocks = 64 * seq[i] / 128;
            ASSERT_REL(st_attn_efficiency_of(p, ST_ATTN_CUDNN, 0, seq[i], blocks) * cudnn[g].peak,
                       cudnn[g].fwd[i], 0.04);
            ASSERT_REL(st_attn_efficiency_of(p, ST_ATTN_CUDNN, 1, seq[i], blocks) * cudnn[g].peak,
                       cudnn[g].bwd[i], 0.04);
        }
    }
    ck_assert_double_eq(st_attn_efficiency_of(h100, ST_ATTN_CUDNN, 0, 8192, 4096),
                        st_attn_efficiency_of(gpu("h200-sxm"), ST_ATTN_CUDNN, 0, 8192, 4096));
    ck_assert_double_eq(st_attn_efficiency(gpu("gb200"), 1, 8192, 4096),
                        st_attn_efficiency_of(gpu("gb200"), ST_ATTN_CUDNN, 1, 8192, 4096));
    /* An older cuDNN release reads its own sweep: NVIDIA's B200 sweep with cuDNN 9.10.2
     * (cudnn-frontend's sdpa_bf16_benchmark_results_NVIDIA_B200.csv, 128 query heads, so
     * seqlen blocks) at 4k-32k within 5% (8k is the worst, 4.3%); a release up to 9.10 takes it, a
     * newer one the newest sweep; on Hopper the mid-2024 bars stand for 9.2 and older only. */
    static const double old_fwd[] = {874.1, 1197.4, 1349.8, 1429.6},
                        old_bwd[] = {694.7, 940.0, 1072.8, 1124.4};
    const st_gpu_spec *b200 = gpu("b200");
    for (size_t i = 0; i < 4; i++) {
        double s = seq[i + 1];
        ASSERT_REL(st_attn_efficiency_at(b200, ST_ATTN_CUDNN, 910, 0, s, s) * 2250, old_fwd[i],
                   0.05);
        ASSERT_REL(st_attn_efficiency_at(b200, ST_ATTN_CUDNN, 907, 1, s, s) * 2250, old_bwd[i],
                   0.05);
    }
    ck_assert_double_eq(st_attn_efficiency_at(b200, ST_ATTN_CUDNN, 911, 0, 8192, 8192),
                        st_attn_efficiency_of(b200, ST_ATTN_CUDNN, 0, 8192, 8192));
    ck_assert_double_eq(st_attn_efficiency_at(b200, ST_ATTN_FLASH, 910, 0, 8192, 8192),
                        st_attn_efficiency_at(b200, ST_ATTN_CUDNN, 910, 0, 8192, 8192));
    ck_assert(st_attn_efficiency_at(h100, ST_ATTN_CUDNN, 900, 0, 8192, 4096) <
              0.85 * st_attn_efficiency_of(h100, ST_ATTN_CUDNN, 0, 8192, 4096));
    ck_assert_double_eq(st_attn_efficiency_at(h100, ST_ATTN_CUDNN, 903, 0, 8192, 4096),
                        st_attn_efficiency_of(h100, ST_ATTN_CUDNN, 0, 8192, 4096));
    ck_assert_double_eq(st_attn_efficiency_at(h100, ST_ATTN_FLASH2, 900, 1, 8192, 4096),
                        st_attn_efficiency_of(h100, ST_ATTN_FLASH2, 1, 8192, 4096));
    /* A layer with FlashAttention-2 on an H100 is slower than with the default (FA3). */
    st_workload_cfg w2 = plan("gpt-22b", 8192, 8, 0, ST_RECOMPUTE_NONE);
    st_layer_cost fa3, fa2;
    st_ops_layer_cost(&w2, h100, 1, &fa3);
    w2.attention = ST_ATTN_FLASH2;
    st_ops_layer_cost(&w2, h100, 1, &fa2);
    ck_assert(fa2.fwd_s > fa3.fwd_s && fa2.bwd_s > fa3.bwd_s);
    /* The backward kernel takes longer than the forward. */
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 0, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, a100, 4, ops, ST_OPS_MAX);
    const st_op *attn = find_op(ops, n, "attn");
    double bwd = st_ops_backward_time(&w, a100, attn);
    ck_assert(bwd > 2.0 * attn->time_s && bwd < 3.0 * attn->time_s);
}
END_TEST

/* A head narrower than the sweeps' 128 keeps less of their efficiency, by the kernel's softmax
 * cost per score (models/silicon/gemm_eff.c, ATTN_BETA): each measured head-dim-64 over 128
 * ratio within its fit's rms. The forward layer of a head-dim-64 model takes longer than the
 * head-dim-128 one's per FLOP, and heads of 128 and wider are untouched. */
START_TEST(test_attention_narrow_heads_follow_paired_sweeps)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *b200 = gpu("b200"), *h200 = gpu("h200-sxm");
    /* FlashAttention-3's H100 bars at 16k (473 / 616 forward, 474 / 561 backward) and at 2k
     * (371 / 521, 422 / 501) */
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_FLASH, 0, 0, 64), 473.0 / 616, 0.08);
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_FLASH, 0, 0, 64), 371.0 / 521, 0.02);
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_FLASH, 0, 1, 64), 474.0 / 561, 0.02);
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_FLASH, 0, 1, 64), 422.0 / 501, 0.02);
    /* FlashAttention-2's (299 / 335 forward at 16k), cuDNN's of mid-2024 (388 / 539) */
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_FLASH2, 0, 0, 64), 299.0 / 335, 0.02);
    ASSERT_REL(st_attn_head_dim_share(h100, ST_ATTN_CUDNN, 900, 0, 64), 388.0 / 539, 0.02);
    /* cuDNN 9.27 on a B200, GPT-OSS's heads against Llama 3.1's: 925 / 1401 at 8k, a chunk of
     * 1,024 after 128k 838 / 1441; on an H200, 457 / 654 at 8k and 487 / 633 after 128k */
    ASSERT_REL(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 64), 925.0 / 1401, 0.07);
    ASSERT_REL(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 64), 838.0 / 1441, 0.08);
    ASSERT_REL(st_attn_head_dim_share(h200, ST_ATTN_CUDNN, 0, 0, 64), 457.0 / 654, 0.07);
    ASSERT_REL(st_attn_head_dim_share(h200, ST_ATTN_CUDNN, 0, 0, 64), 487.0 / 633, 0.04);
    ck_assert_double_eq(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 128), 1.0);
    ck_assert_double_eq(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 1, 192), 1.0);
    /* narrower is worse, Blackwell more than Hopper, the backward less than the forward */
    ck_assert(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 32) <
              st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 64));
    ck_assert(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 64) <
              st_attn_head_dim_share(h200, ST_ATTN_CUDNN, 0, 0, 64));
    ck_assert(st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 0, 64) <
              st_attn_head_dim_share(b200, ST_ATTN_CUDNN, 0, 1, 64));
    /* the operator reads it: GPT-OSS 120B's core (head dim 64) against the same core at 128,
     * per FLOP, on a B200 at 4k */
    st_workload_cfg w = plan("gpt-oss-120b", 4096, 1, 0, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, b200, 1, ops, ST_OPS_MAX);
    const st_op *attn = find_op(ops, n, "attn");
    ck_assert_double_eq(attn->head_dim, 64);
    st_op narrow = *attn, wide = *attn;
    wide.head_dim = 128;
    double kb = st_kernel_boundary_s(b200);
    double t64 = st__ops_time_forward(b200, &narrow) - kb,
           t128 = st__ops_time_forward(b200, &wide) - kb;
    /* compute-bound at 4k: the kernels' ratio (their boundaries aside) is the share, to the
     * roofline's bytes term */
    ASSERT_REL(t128 / t64, st_attn_head_dim_share(b200, ST_ATTN_FLASH, 0, 0, 64), 0.01);
}
END_TEST

/* parallel.tp_comm_overlap_cfg sets each pair as its row says: NeMo v2.2.0's GPT-3 175B FP8 H100
 * settings run proj_fprop by pipeline on 24 SMs with the margin, fc2_fprop by ring exchange and
 * the dgrad and wgrad collectives by bulk on 2 to 4 SMs without the margin, so every bulk pair
 * slows its GEMM by the measured 16-SM figure without the margin, less than TE's defaults, the
 * pipeline one by more; aggregate ring exchange runs tp / 2 pieces. An unknown index reads as
 * TE's defaults. */
START_TEST(test_tp_overlap_cfg_sets_each_pair)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("gpt3-175b", 2048, 4, 1, ST_RECOMPUTE_NONE);
    w.precision = ST_PREC_FP8;
    w.parallel.sequence_parallel = 1;
    w.parallel.tp_comm_overlap = 1;
    st_layer_cost te, nemo;
    st_ops_layer_cost(&w, g, 1, &te);
    int cfg = st_ub_cfg_find("nemo v2.2.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048");
    ck_assert_int_gt(cfg, 0);
    ck_assert_str_eq(st_ub_cfg_names[0], "te-default");
    w.parallel.tp_comm_overlap_cfg = cfg;
    st_ops_layer_cost(&w, g, 1, &nemo);
    ck_assert_int_eq(nemo.n_hide_fwd, 4);
    ck_assert_int_eq(nemo.n_hide_bwd, 6);
    const st_ub_gemm te_bulk = {ST_TP_BULK, 16, 1, 0}, free_bulk = {ST_TP_BULK, 4, 0, 0};
    for (int i = 0; i < 6; i++) {
        const st_tp_hide *a = &te.hide_bwd[i], *b = &nemo.hide_bwd[i];
        ck_assert_int_eq(a->method, b->method);
        ck_assert_double_eq(a->gemm_s, b->gemm_s);
        if (b->method == ST_TP_BULK) {
            ck_assert_double_eq(a->slow, st_gpu_ub_slowdown(g, ST_PREC_FP8, &te_bulk));
            ck_assert_double_eq(b->slow, st_gpu_ub_slowdown(g, ST_PREC_FP8, &free_bulk));
            ck_assert(b->slow < a->slow);
        }
    }
    /* forward: qkv ring, proj pipeline (24 SMs, margin), fc1 ring, fc2 ring in tp pieces */
    const st_tp_method want[4] = {ST_TP_RING, ST_TP_PIPELINE, ST_TP_RING, ST_TP_RING};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(nemo.hide_fwd[i].method, want[i]);
        ck_assert_int_eq(nemo.hide_fwd[i].splits, 4); /* tp 4 ring pieces, 4 pipeline ones */
    }
    ck_assert(nemo.hide_fwd[1].slow > te.hide_fwd[1].slow);
    ck_assert_int_eq(te.hide_fwd[3].method, ST_TP_PIPELINE);
    ck_assert_double_eq(nemo.fwd_s, te.fwd_s);
    /* aggregate ring exchange (v2.2.0's B200 405B FP8 settings) at tp 8: 4 pieces */
    w.parallel.tp = 8;
    w.parallel.tp_comm_overlap_cfg =
        st_ub_cfg_find("nemo v2.2.0 userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192");
    ck_assert_int_gt(w.parallel.tp_comm_overlap_cfg, 0);
    st_ops_layer_cost(&w, g, 1, &nemo);
    ck_assert_int_eq(nemo.hide_fwd[0].method, ST_TP_RING);
    ck_assert_int_eq(nemo.hide_fwd[0].splits, 4);
    ck_assert_ptr_eq(st_ub_cfg_gemm(9999, ST_UB_QKV_DGRAD), st_ub_cfg_gemm(0, ST_UB_QKV_DGRAD));
}
END_TEST

/* Under parallel.tp_comm_overlap each of a sequence-parallel layer's TP collectives is paired
 * with one GEMM, as Transformer Engine's userbuffers pairs them (initialize_ub's defaults): 4
 * forward (the qkv and fc1 input gathers by ring exchange, the proj and fc2 output
 * reduce-scatters by pipeline) and 6 backward, all-gathers where the layer's counts say. The
 * forward GEMMs are the operators' own times (BF16: no quantisation pass), and each piece-wise
 * run is its pieces' GEMMs: tp pieces for ring exchange, 4 for pipeline, the GEMM whole for
 * bulk. Without the key, or without sequence parallelism, nothing is paired. */
START_TEST(test_tp_overlap_pairs_every_tp_collective_with_its_gemm)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, ST_RECOMPUTE_NONE);
    w.parallel.sequence_parallel = 1;
    st_layer_cost off, on;
    st_ops_layer_cost(&w, g, 1, &off);
    ck_assert_int_eq(off.n_hide_fwd + off.n_hide_bwd, 0);
    w.parallel.tp_comm_overlap = 1;
    st_ops_layer_cost(&w, g, 1, &on);
    ck_assert_int_eq(on.n_hide_fwd, on.tp_colls_fwd);
    ck_assert_int_eq(on.n_hide_bwd, on.tp_colls_bwd);
    ck_assert_int_eq(on.n_hide_fwd, 4);
    ck_assert_int_eq(on.n_hide_bwd, 6);
    int ag_f = 0, ag_b = 0;
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 1, ops, ST_OPS_MAX);
    double want = find_op(ops, n, "qkv")->time_s + find_op(ops, n, "proj")->time_s +
                  find_op(ops, n, "fc1")->time_s + find_op(ops, n, "fc2")->time_s,
           got = 0;
    for (int i = 0; i < on.n_hide_fwd; i++) {
        const st_tp_hide *h = &on.hide_fwd[i];
        ag_f += h->ag;
        got += h->gemm_s;
        ck_assert_int_eq(h->method, h->ag ? ST_TP_RING : ST_TP_PIPELINE);
        ck_assert_int_eq(h->splits, h->ag ? 8 : 4);
        ck_assert_msg(h->split_s >= h->gemm_s * (1 - 1e-12), "pieces %g s, whole %g s", h->split_s,
                      h->gemm_s);
    }
    ck_assert_double_eq_tol(got, want, 1e-15);
    for (int i = 0; i < on.n_hide_bwd; i++) {
        const st_tp_hide *h = &on.hide_bwd[i];
        ag_b += h->ag;
        ck_assert(h->gemm_s > 0);
        if (h->method == ST_TP_BULK)
            ck_assert_double_eq(h->split_s, h->gemm_s);
        else
            ck_assert(h->ag && h->splits == 8);
    }
    ck_assert_int_eq(ag_f, on.tp_ag_fwd);
    ck_assert_int_eq(ag_b, on.tp_ag_bwd);
    /* the layer's own times and counts are the same with the key or without it */
    ck_assert_double_eq(on.fwd_s, off.fwd_s);
    ck_assert_double_eq(on.bwd_s, off.bwd_s);
    ck_assert_int_eq(on.tp_colls_bwd, off.tp_colls_bwd);
    w.parallel.sequence_parallel = 0;
    st_ops_layer_cost(&w, g, 1, &on);
    ck_assert_int_eq(on.n_hide_fwd + on.n_hide_bwd, 0);
}
END_TEST

START_TEST(test_selective_recompute_adds_exactly_the_attention_core)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, ST_RECOMPUTE_SELECTIVE);
    st_layer_cost sel, none;
    st_ops_layer_cost(&w, g, 1, &sel);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 1, ops, ST_OPS_MAX);
    const st_op *attn = find_op(ops, n, "attn");
    ck_assert_double_eq(sel.recompute_s, attn->time_s);
    ck_assert_double_eq(sel.recompute_flops, attn->flops);
    ck_assert_int_eq(sel.tp_colls_recompute, 0);
    w.parallel.recompute = ST_RECOMPUTE_NONE;
    st_ops_layer_cost(&w, g, 1, &none);
    ck_assert_double_eq(none.recompute_s, 0);
    ck_assert_double_eq(none.recompute_flops, 0);
    ck_assert_double_eq(none.fwd_s, sel.fwd_s);
    ck_assert_double_eq(none.bwd_s, sel.bwd_s);
}
END_TEST

/* torchtitan's per-op policy (recompute: op) on Llama 3 8B: every memory-bound operator, wk of
 * the fused qkv (1024 of its 6144 columns), all of wo and w3, half of the fused fc1, again;
 * the attention core only where it is cuDNN's (flash on a B200), not PyTorch's flash op
 * (flash2 on an H100). */
START_TEST(test_op_recompute_follows_torchtitan_save_list)
{
    for (int blackwell = 0; blackwell <= 1; blackwell++) {
        const st_gpu_spec *g = gpu(blackwell ? "b200" : "h100-sxm");
        st_workload_cfg w = plan("llama3-8b", 8192, 1, 0, ST_RECOMPUTE_OP);
        w.attention = blackwell ? ST_ATTN_FLASH : ST_ATTN_FLASH2;
        st_layer_cost c;
        st_ops_layer_cost(&w, g, 1, &c);
        st_op ops[ST_OPS_MAX];
        size_t n = st_ops_layer_forward(&w, g, 1, ops, ST_OPS_MAX);
        double want = 0.0, flops = 0.0;
        for (size_t i = 0; i < n; i++)
            want += ops[i].kind == ST_OP_MEMORY ? ops[i].time_s : 0.0;
        const st_op *qkv = find_op(ops, n, "qkv"), *proj = find_op(ops, n, "proj");
        const st_op *fc1 = find_op(ops, n, "fc1"), *attn = find_op(ops, n, "attn");
        want += qkv->time_s / 6.0 + proj->time_s + fc1->time_s / 2.0;
        flops = qkv->flops / 6.0 + proj->flops + fc1->flops / 2.0;
        if (blackwell) {
            want += attn->time_s;
            flops += attn->flops;
        }
        ASSERT_REL(c.recompute_s, want, 1e-12);
        ASSERT_REL(c.recompute_flops, flops, 1e-12);
        ck_assert_int_eq(st_ops_sac_saves_attention(&w, g), !blackwell);
        ck_assert_int_eq(c.tp_colls_recompute, 0);
    }
}
END_TEST

START_TEST(test_full_recompute_adds_exactly_the_forward)
{
    const st_gpu_spec *g = gpu("a100-sxm-80g");
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 0, ST_RECOMPUTE_FULL);
    st_layer_cost c;
    st_ops_layer_cost(&w, g, 4, &c);
    ck_assert_double_eq(c.recompute_s, c.fwd_s);
    ck_assert_double_eq(c.recompute_flops, c.fwd_flops);
    ck_assert_int_eq(c.tp_colls_recompute, c.tp_colls_fwd);
}
END_TEST

/* Sequence parallelism splits the norms, dropouts and residual adds over TP ranks and turns
 * each all-reduce into an all-gather plus a reduce-scatter. */
START_TEST(test_sequence_parallelism_splits_replicated_ops)
{
    const st_gpu_spec *g = gpu("a100-sxm-80g");
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 0, ST_RECOMPUTE_NONE);
    st_op plain[ST_OPS_MAX], sp[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 4, plain, ST_OPS_MAX);
    st_layer_cost c0, c1;
    st_ops_layer_cost(&w, g, 4, &c0);
    w.parallel.sequence_parallel = 1;
    ck_assert_uint_eq(st_ops_layer_forward(&w, g, 4, sp, ST_OPS_MAX), n);
    st_ops_layer_cost(&w, g, 4, &c1);
    for (size_t i = 0; i < n; i++) {
        int split = plain[i].kind == ST_OP_MEMORY && strcmp(plain[i].name, "act") != 0;
        ASSERT_REL(plain[i].bytes, (split ? 8.0 : 1.0) * sp[i].bytes, 1e-12);
    }
    ck_assert(c1.fwd_s < c0.fwd_s && c1.bwd_s < c0.bwd_s);
    ck_assert_int_eq(c0.tp_colls_fwd, 2);
    ck_assert_int_eq(c0.tp_colls_bwd, 2);
    ck_assert_int_eq(c1.tp_colls_fwd, 4);
    ck_assert_int_eq(c1.tp_colls_bwd, 6);
    ck_assert_double_eq(c1.tp_bytes, 2048.0 * 4 * 6144 * 2);
    w.parallel.tp = 1;
    st_ops_layer_cost(&w, g, 4, &c1);
    ck_assert_int_eq(c1.tp_colls_fwd, 0);
    w.parallel.cp = 2;
    st_ops_layer_cost(&w, g, 4, &c1);
    ck_assert_double_eq(c1.tp_bytes, 1024.0 * 4 * 6144 * 2);
}
END_TEST

/* kernels: eager counts torchtitan's eager operations (docs/models/step-ops.md, "Eager-mode
 * kernels"): on Llama 3 8B, RMSNorm 36 bytes per element against 4, the rotary embedding 20
 * against 4, SwiGLU 10 against 6; GEMMs and the attention core are untouched. GPT's LayerNorm
 * and GeLU are one kernel either way; its dropout and residual add become 11 against 7. */
START_TEST(test_eager_kernels_count_torchtitan_operations)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("llama3-8b", 8192, 1, 0, ST_RECOMPUTE_OP);
    st_op fused[ST_OPS_MAX], eager[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 1, fused, ST_OPS_MAX);
    st_layer_cost c0, c1;
    st_ops_layer_cost(&w, g, 1, &c0);
    w.kernels.norm = w.kernels.rope = w.kernels.act = w.kernels.residual = ST_KERNELS_EAGER;
    ck_assert_uint_eq(st_ops_layer_forward(&w, g, 1, eager, ST_OPS_MAX), n);
    st_ops_layer_cost(&w, g, 1, &c1);
    ck_assert_double_eq(find_op(eager, n, "norm1")->bytes, 36.0 * 8192 * 4096);
    ck_assert_double_eq(find_op(eager, n, "rope")->bytes, 20.0 * 8192 * (4096 + 1024));
    ck_assert_double_eq(find_op(eager, n, "act")->bytes, 10.0 * 8192 * 14336);
    for (size_t i = 0; i < n; i++) {
        const char *k = fused[i].name;
        double want = strcmp(k, "norm1") == 0 || strcmp(k, "norm2") == 0 ? 9.0
                      : strcmp(k, "rope") == 0                           ? 5.0
                      : strcmp(k, "act") == 0                            ? 10.0 / 6.0
                                                                         : 1.0;
        ASSERT_REL(eager[i].bytes, want * fused[i].bytes, 1e-12);
        ck_assert(eager[i].time_s >= fused[i].time_s);
    }
    /* every memory operator runs again under per-op recompute, so eager pays there too */
    ck_assert(c1.fwd_s > c0.fwd_s && c1.bwd_s > c0.bwd_s && c1.recompute_s > c0.recompute_s);
    ck_assert_double_eq(c1.fwd_flops, c0.fwd_flops);
    /* a mapping sets only the operators it names */
    memset(&w.kernels, 0, sizeof w.kernels);
    w.kernels.rope = ST_KERNELS_EAGER;
    st_ops_layer_forward(&w, g, 1, eager, ST_OPS_MAX);
    for (size_t i = 0; i < n; i++)
        ASSERT_REL(eager[i].bytes,
                   (strcmp(fused[i].name, "rope") == 0 ? 5.0 : 1.0) * fused[i].bytes, 1e-12);
    /* GPT: LayerNorm and GeLU unchanged, dropout + residual add 11 against 7 */
    st_workload_cfg gpt = plan("gpt-22b", 2048, 1, 0, ST_RECOMPUTE_NONE);
    ck_assert(st_llm_has_dropout(gpt.model));
    n = st_ops_layer_forward(&gpt, g, 1, fused, ST_OPS_MAX);
    gpt.kernels.norm = gpt.kernels.rope = gpt.kernels.act = gpt.kernels.residual = ST_KERNELS_EAGER;
    st_ops_layer_forward(&gpt, g, 1, eager, ST_OPS_MAX);
    for (size_t i = 0; i < n; i++) {
        int bda = strncmp(fused[i].name, "bda", 3) == 0;
        ASSERT_REL(eager[i].bytes, (bda ? 11.0 / 7.0 : 1.0) * fused[i].bytes, 1e-12);
    }
}
END_TEST

START_TEST(test_backward_is_dgrad_plus_wgrad)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("llama3-8b", 8192, 1, 0, ST_RECOMPUTE_NONE);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 1, ops, ST_OPS_MAX);
    const st_op *fc2 = find_op(ops, n, "fc2"), *norm = find_op(ops, n, "norm1");
    double peak = st_gpu_peak(g, ST_PREC_BF16) * st_gpu_sustained(g, ST_PREC_BF16);
    /* dgrad is a forward GEMM of its shape; wgrad is its compute, lengthened by its memory time
     * (its fp32 main gradient accumulated) in quadrature (ops_roofline.c, gemm_time): about 1% here
     */
    double dgrad = st_ops_gemm_time(g, ST_PREC_BF16, fc2->m, fc2->k, fc2->n);
    double wgrad =
        fc2->flops / (st_gemm_efficiency(g, ST_PREC_BF16, fc2->k, fc2->n, fc2->m) * peak);
    double back = st_ops_backward_time(&w, g, fc2);
    ck_assert(back > dgrad + wgrad);
    ASSERT_REL(back, dgrad + wgrad, 0.02);
    /* a memory operator's backward moves twice its forward's bytes, one kernel boundary each */
    double kb = st_kernel_boundary_s(g);
    ASSERT_REL(st_ops_backward_time(&w, g, norm), 2 * (norm->time_s - kb) + kb, 1e-12);
}
END_TEST

START_TEST(test_optimizer_time_scales_with_dp_as_zero_shards_it)
{
    const st_gpu_spec *g = gpu("h100-sxm");
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, ST_RECOMPUTE_NONE);
    w.parallel.pp = 4;
    /* Adam's share falls as 1/dp under ZeRO 1; the memset of the gradient buffer does not
     * (every rank keeps all of its slice's gradients until ZeRO 2). */
    st_memory mem;
    st_memory_estimate(&w, g, 1, &mem);
    double zero = mem.params_per_gpu * 4.0 / (st_hbm_efficiency(g) * g->hbm_bw);
    double one = st_ops_optimizer_time(&w, g);
    w.parallel.dp = 8;
    ASSERT_REL(8 * (st_ops_optimizer_time(&w, g) - zero), one - zero, 1e-9);
    w.parallel.zero = 0;
    ASSERT_REL(st_ops_optimizer_time(&w, g), one, 1e-12);
    w.parallel.zero = 2; /* now the gradient shard is zeroed: everything scales */
    ASSERT_REL(8 * st_ops_optimizer_time(&w, g), one, 1e-9);
    ck_assert(one > zero && zero > 0);
}
END_TEST

START_TEST(test_fp8_runs_linear_layers_at_the_fp8_peak)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *a100 = gpu("a100-sxm-80g");
    ck_assert_double_eq(st_gpu_peak(h100, ST_PREC_FP8), h100->peak_fp8);
    ck_assert_double_eq(st_gpu_peak(a100, ST_PREC_FP8), a100->peak_bf16);
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, ST_RECOMPUTE_NONE);
    st_layer_cost bf16, fp8;
    st_ops_layer_cost(&w, h100, 1, &bf16);
    w.precision = ST_PREC_FP8;
    st_ops_layer_cost(&w, h100, 1, &fp8);
    ck_assert(fp8.fwd_s < bf16.fwd_s && fp8.fwd_s > 0.4 * bf16.fwd_s);
    ck_assert_double_eq(fp8.fwd_flops, bf16.fwd_flops);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_head_forward(&w, h100, 1, ops, ST_OPS_MAX);
    ck_assert_int_eq(find_op(ops, n, "logits")->prec, ST_PREC_BF16);
}
END_TEST

/* NVFP4 on Blackwell: the FP4 peak, 0.5625 bytes an element (4 bits and an 8-bit scale per 16),
 * and at the FP8 MAMF's shape 0.974 of FP8's fraction (gemm_eff.c, FP4_OF_FP8). A part without
 * FP4 Tensor Cores runs it as FP8 (the loader and the sizing search refuse it there; this is the
 * model's fallback, not a plan). The curve against Azure's cuBLASLt FP4 runs on GB200 (launch
 * overhead removed as for XLA's), which chose its 256 x 256 tiles: within 17% rms in log time,
 * 2048^3 within 10% (cuBLAS's tile set had it 2.3 times too fast). */
START_TEST(test_fp4_runs_at_the_fp4_peak_on_blackwell)
{
    const st_gpu_spec *b200 = gpu("b200"), *gb200 = gpu("gb200"), *h100 = gpu("h100-sxm");
    ck_assert_double_eq(st_gpu_peak(b200, ST_PREC_FP4), b200->peak_fp4);
    ck_assert_double_eq(st_gpu_peak(h100, ST_PREC_FP4), h100->peak_fp8);
    ck_assert_double_eq(st_ops_in_bytes(b200, ST_PREC_FP4), 0.5625);
    ck_assert_double_eq(st_ops_in_bytes(h100, ST_PREC_FP4), 1.0);
    ASSERT_REL(st_gemm_efficiency(gb200, ST_PREC_FP4, 19456, 5120, 1536), 0.723 * 0.974, 1e-9);
    ASSERT_REL(st_gemm_efficiency(b200, ST_PREC_FP4, 15360, 4096, 3072), 0.763 * 0.974, 1e-9);
    static const double azure[][4] = {/* m, n, k, measured TFLOP/s */
                                      {1024, 1024, 1024, 261.8},   {2048, 2048, 2048, 1398.0},
                                      {4096, 4096, 4096, 4854.5},  {8192, 8192, 8192, 7609.1},
                                      {16384, 16384, 16384, 5604}, {32768, 32768, 32768, 5262.2},
                                      {1024, 2145, 1024, 548.3},   {802816, 192, 768, 2624.5}};
    double sq = 0;
    for (size_t i = 0; i < sizeof azure / sizeof azure[0]; i++) {
        const double *r = azure[i];
        double flops = 2 * r[0] * r[1] * r[2], measured = flops / (r[3] * 1e12) - 4.75e-6;
        double kernel = st_ops_gemm_time(gb200, ST_PREC_FP4, r[0], r[1], r[2]) -
                        st_kernel_boundary_s(gb200); /* each side without its launch */
        double e = log(kernel / measured);
        sq += e * e;
        if (i == 1)
            ck_assert_msg(fabs(e) < log(1.1), "2048^3: %g", e);
    }
    ck_assert_msg(sqrt(sq / 8) < 0.18, "rms %g", sqrt(sq / 8));
}
END_TEST

/* The quantisation traffic Transformer Engine adds around each FP8 GEMM (models/silicon/ops.c,
 * QUANT): by recipe, by whether the norm produced the tensor, and by whether the GPU needs
 * transposed FP8 copies (Hopper). Llama 3 8B, one sequence of 4096 tokens: qkv is 4096 x 6144 over
 * 4096, proj 4096 x 4096 over 4096, fc1 4096 x 28672 over 4096, fc2 4096 x 4096 over 14336. */
static st_op layer_op(const st_workload_cfg *w, const st_gpu_spec *g, const char *name)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(w, g, 1, ops, ST_OPS_MAX);
    return *find_op(ops, n, name);
}

static void quant_of(const st_workload_cfg *w, const st_gpu_spec *g, const char *name, double *fwd,
                     double *bwd)
{
    st_op op = layer_op(w, g, name);
    *fwd = op.quant_fwd_bytes;
    *bwd = op.quant_bwd_bytes;
}

START_TEST(test_fp8_quantisation_follows_transformer_engine)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *b200 = gpu("b200"), *a100 = gpu("a100-sxm-80g");
    const double T = 4096;
    st_workload_cfg w = plan("llama3-8b", 4096, 1, 0, ST_RECOMPUTE_NONE);
    double f, b;
    quant_of(&w, h100, "qkv", &f, &b); /* BF16: nothing to quantise */
    ck_assert(f == 0 && b == 0);
    w.precision = ST_PREC_FP8;
    quant_of(&w, a100, "qkv", &f, &b); /* no FP8 Tensor Cores: BF16 GEMMs */
    ck_assert(f == 0 && b == 0);
    /* Delayed scaling on Hopper: the norm writes FP8 (-1) and its copy is transposed (+2);
     * anything else is cast and transposed in one pass (read 2, write 1 + 1), Megatron's
     * activation output and its gradient included. */
    quant_of(&w, h100, "qkv", &f, &b);
    ASSERT_REL(f, T * 4096 * 1, 1e-12);
    ASSERT_REL(b, T * 6144 * 4, 1e-12);
    quant_of(&w, h100, "proj", &f, &b);
    ASSERT_REL(f, T * 4096 * 4, 1e-12);
    quant_of(&w, h100, "fc1", &f, &b);
    ASSERT_REL(f, T * 4096 * 1, 1e-12);
    ASSERT_REL(b, T * 28672 * 4, 1e-12);
    quant_of(&w, h100, "fc2", &f, &b);
    ASSERT_REL(f, T * 14336 * 4, 1e-12);
    ASSERT_REL(b, T * 4096 * 4, 1e-12);
    /* Blackwell takes any layout: no transposes, so the fused norm saves a byte. */
    quant_of(&w, b200, "qkv", &f, &b);
    ASSERT_REL(f, -T * 4096, 1e-12);
    ASSERT_REL(b, T * 6144 * 3, 1e-12);
    /* Current scaling: amax with the norm, then a cast (+3, +1 transposed); a separate amax
     * pass before a plain cast (+5, +1). */
    st_layer_cost delayed, current;
    st_ops_layer_cost(&w, h100, 1, &delayed);
    w.fp8_recipe = ST_FP8_CURRENT;
    st_ops_layer_cost(&w, h100, 1, &current);
    ck_assert(current.fwd_s > delayed.fwd_s && current.bwd_s > delayed.bwd_s);
    quant_of(&w, h100, "qkv", &f, &b);
    ASSERT_REL(f, T * 4096 * 4, 1e-12);
    quant_of(&w, h100, "proj", &f, &b);
    ASSERT_REL(f, T * 4096 * 6, 1e-12);
    /* MXFP8: both copies and their 1-in-32 scales in one pass, not fused into the norm. */
    w.fp8_recipe = ST_FP8_MXFP8;
    quant_of(&w, b200, "qkv", &f, &b);
    ASSERT_REL(f, T * 4096 * (4 + 2.0 / 32), 1e-12);
    /* Sequence parallelism over 4: the norm output and the row-parallel output gradients are
     * quantised on their shard and gathered; Hopper transposes the gathered tensor (+2 over
     * all T rows). The column-parallel output gradients stay local. */
    w = plan("llama3-8b", 4096, 4, 1, ST_RECOMPUTE_NONE);
    w.precision = ST_PREC_FP8;
    quant_of(&w, h100, "qkv", &f, &b);
    ASSERT_REL(f, T / 4 * 4096 * -1 + T * 4096 * 2, 1e-12);
    ASSERT_REL(b, T * 6144 / 4 * 4, 1e-12);
    quant_of(&w, h100, "fc1", &f, &b);
    ASSERT_REL(f, T / 4 * 4096 * -1 + T * 4096 * 2, 1e-12);
    quant_of(&w, h100, "proj", &f, &b);
    ASSERT_REL(f, T * 4096 / 4 * 4, 1e-12);
    ASSERT_REL(b, T / 4 * 4096 * 3 + T * 4096 * 2, 1e-12);
    quant_of(&w, b200, "fc2", &f, &b); /* Blackwell: the shard's cast only */
    ASSERT_REL(b, T / 4 * 4096 * 3, 1e-12);
}
END_TEST

/* Each FP8 cast that runs apart from its neighbours is a kernel and pays a boundary: by recipe,
 * by whether a norm fused it, by Hopper's transposes; a service's casts are fused into the
 * kernels that produce their tensors (the serving engines' fusion passes): no kernel. */
static void quant_kernels_of(const st_workload_cfg *w, const st_gpu_spec *g, const char *name,
                             double *fwd, double *bwd)
{
    st_op op = layer_op(w, g, name);
    *fwd = op.quant_fwd_kernels;
    *bwd = op.quant_bwd_kernels;
}

START_TEST(test_fp8_casts_are_kernels_of_their_own)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *b200 = gpu("b200");
    st_workload_cfg w = plan("llama3-8b", 4096, 1, 0, ST_RECOMPUTE_NONE);
    double f, b;
    quant_kernels_of(&w, h100, "qkv", &f, &b); /* BF16: no cast */
    ck_assert(f == 0 && b == 0);
    w.precision = ST_PREC_FP8;
    /* delayed: the norm writes FP8 (no kernel; Hopper transposes it after: one), a plain cast
     * is one kernel, the output gradient's too */
    quant_kernels_of(&w, b200, "qkv", &f, &b);
    ck_assert(f == 0 && b == 1);
    quant_kernels_of(&w, h100, "qkv", &f, &b);
    ck_assert(f == 1 && b == 1);
    quant_kernels_of(&w, h100, "proj", &f, &b);
    ck_assert(f == 1 && b == 1);
    /* current: an amax pass and a cast, one kernel after the norm that computed the amax */
    w.fp8_recipe = ST_FP8_CURRENT;
    quant_kernels_of(&w, b200, "qkv", &f, &b);
    ck_assert(f == 1 && b == 2);
    quant_kernels_of(&w, b200, "fc2", &f, &b);
    ck_assert(f == 2 && b == 2);
    /* mxfp8: one cast, never fused into the norm */
    w.fp8_recipe = ST_FP8_MXFP8;
    quant_kernels_of(&w, b200, "qkv", &f, &b);
    ck_assert(f == 1 && b == 1);
    /* each kernel adds one boundary to the GEMM's time beside its bytes */
    st_layer_cost with, without;
    st_ops_layer_cost(&w, b200, 1, &with);
    w.kind = ST_WL_INFERENCE; /* a service: the same bytes, no kernel */
    quant_kernels_of(&w, b200, "qkv", &f, &b);
    ck_assert(f == 0 && b == 0);
    st_ops_layer_cost(&w, b200, 1, &without);
    ck_assert(with.fwd_s > without.fwd_s);
    /* qkv, proj, fc1, fc2: one cast kernel each forward under MXFP8 */
    ASSERT_REL(with.fwd_s - without.fwd_s, 4 * st_kernel_boundary_s(b200), 1e-6);
}
END_TEST

/* Under FP8 the sequence-parallel all-gathers move FP8 (2 forward, 4 backward); the
 * reduce-scatters stay BF16. */
START_TEST(test_fp8_all_gathers_move_one_byte_per_element)
{
    const st_gpu_spec *h100 = gpu("h100-sxm"), *a100 = gpu("a100-sxm-80g");
    st_workload_cfg w = plan("llama3-70b", 8192, 8, 1, ST_RECOMPUTE_NONE);
    st_layer_cost c;
    st_ops_layer_cost(&w, h100, 1, &c);
    ck_assert_double_eq(c.tp_ag_bytes, c.tp_bytes);
    ck_assert_int_eq(c.tp_ag_fwd, 2);
    ck_assert_int_eq(c.tp_ag_bwd, 4);
    w.precision = ST_PREC_FP8;
    st_ops_layer_cost(&w, h100, 1, &c);
    ck_assert_double_eq(c.tp_ag_bytes, c.tp_bytes / 2);
    st_ops_layer_cost(&w, a100, 1, &c);
    ck_assert_double_eq(c.tp_ag_bytes, c.tp_bytes);
    w.parallel.sequence_parallel = 0;
    st_ops_layer_cost(&w, h100, 1, &c);
    ck_assert_int_eq(c.tp_ag_fwd, 0);
    ck_assert_int_eq(c.tp_ag_bwd, 0);
}
END_TEST

START_TEST(test_every_catalog_gpu_is_calibrated)
{
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        ck_assert_msg(st_gemm_calibrated(g), "'%s' has no calibration row", g->name);
        ck_assert(st_hbm_efficiency(g) > 0.5 && st_hbm_efficiency(g) < 1.0);
        ck_assert(st_gpu_sm_count(g) > 0);
    }
    /* Calibrations follow the record's key, not its name: a renamed copy keeps them, and a
     * GPU without a key (a hardware.gpus entry without base:) gets the H100 SXM curve. */
    st_gpu_spec custom = *gpu("h100-sxm");
    custom.name = "my-gpu";
    ck_assert(st_gemm_calibrated(&custom));
    custom.calib = ST_GPU_CALIB_NONE;
    ck_assert(!st_gemm_calibrated(&custom));
    ck_assert(st_gemm_efficiency(&custom, ST_PREC_BF16, 4096, 4096, 4096) > 0.5);
}
END_TEST

START_TEST(test_edges_and_capacity)
{
    const st_gpu_spec *g = gpu("a100-sxm-80g");
    st_workload_cfg w = plan("gpt-22b", 2048, 8, 0, ST_RECOMPUTE_NONE);
    st_op ops[2];
    size_t n = st_ops_layer_forward(&w, g, 4, ops, 2);
    ck_assert_uint_eq(n, 10); /* GPT: no rotary op */
    ck_assert_str_eq(ops[1].name, "qkv");
    st_op all[ST_OPS_MAX];
    n = st_ops_embed_forward(&w, g, 4, all, ST_OPS_MAX);
    ck_assert_uint_eq(n, 3); /* lookup, learned positions, dropout */
    double ef, eb, hf, hb;
    st_ops_edge_cost(&w, g, 4, &ef, &eb, &hf, &hb);
    ck_assert(ef > 0 && eb > ef && hf > ef && hb > hf);
    w.model = st_catalog_model("llama3-8b");
    ck_assert_uint_eq(st_ops_embed_forward(&w, g, 4, all, ST_OPS_MAX), 1);
    ck_assert_uint_eq(st_ops_layer_forward(&w, g, 4, all, ST_OPS_MAX), 11);
}
END_TEST

Suite *ops_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_layer_flops_follow_megatron_24bsh2_plus_4bs2h);
    tcase_add_test(tc, test_layers_and_logits_equal_flops_per_token);
    tcase_add_test(tc, test_tensor_and_context_parallelism_split_the_flops);
    tcase_add_test(tc, test_qkv_width_follows_grouped_query_attention);
    tcase_add_test(tc, test_roofline_memory_ops_are_memory_bound_big_gemms_compute_bound);
    tcase_add_test(tc, test_efficiency_falls_for_small_and_skinny_gemms_and_never_exceeds_emax);
    tcase_add_test(tc, test_curve_reproduces_the_mamf_measurements);
    tcase_add_test(tc, test_curve_matches_xla_h100_measurements);
    tcase_add_test(tc, test_attention_follows_flashattention_sweeps);
    tcase_add_test(tc, test_attention_narrow_heads_follow_paired_sweeps);
    tcase_add_test(tc, test_selective_recompute_adds_exactly_the_attention_core);
    tcase_add_test(tc, test_tp_overlap_pairs_every_tp_collective_with_its_gemm);
    tcase_add_test(tc, test_tp_overlap_cfg_sets_each_pair);
    tcase_add_test(tc, test_op_recompute_follows_torchtitan_save_list);
    tcase_add_test(tc, test_full_recompute_adds_exactly_the_forward);
    tcase_add_test(tc, test_sequence_parallelism_splits_replicated_ops);
    tcase_add_test(tc, test_eager_kernels_count_torchtitan_operations);
    tcase_add_test(tc, test_backward_is_dgrad_plus_wgrad);
    tcase_add_test(tc, test_optimizer_time_scales_with_dp_as_zero_shards_it);
    tcase_add_test(tc, test_fp8_runs_linear_layers_at_the_fp8_peak);
    tcase_add_test(tc, test_fp8_quantisation_follows_transformer_engine);
    tcase_add_test(tc, test_fp8_casts_are_kernels_of_their_own);
    tcase_add_test(tc, test_fp4_runs_at_the_fp4_peak_on_blackwell);
    tcase_add_test(tc, test_fp8_all_gathers_move_one_byte_per_element);
    tcase_add_test(tc, test_every_catalog_gpu_is_calibrated);
    tcase_add_test(tc, test_edges_and_capacity);
    suite_add_tcase(s, tc);
    return s;
}
