/* The step model on small hand-built clusters and models: what a training step's time must obey
 * whatever the calibration (oversubscription, overlap, recomputation, ZeRO-3 only add time), the
 * breakdown and MFU identities, the micro-batch search, the pipeline bubble and determinism. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/fabric/collective.h"
#include "models/forecast/forecast.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/step/step.h"
#include "models/step/step_internal.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/step/hgx_cluster.h"

static st_cluster_cfg cluster(int64_t nodes, int64_t per_leaf, double oversub)
{
    return hgx_cluster(nodes, per_leaf, oversub);
}

/* A GPT-style model with few layers: cheap to step, every operator still present. */
static st_llm_spec gpt(int64_t layers, int64_t hidden, int64_t vocab)
{
    st_llm_spec m = {.name = "test-gpt",
                     .layers = layers,
                     .hidden = hidden,
                     .heads = hidden / 128,
                     .vocab = vocab,
                     .mlp = ST_MLP_GELU,
                     .norm = ST_NORM_LAYERNORM,
                     .pos = ST_POS_LEARNED,
                     .bias = 1,
                     .tied_embeddings = 1};
    st_llm_fill_defaults(&m);
    return m;
}

/* A training workload is plain data: ZeRO 1, micro-batch 1, plain 1F1B, overlapped gradient
 * reduction (the loader's default), no recomputation, sequence 2048. */
static st_workload_cfg training(const st_llm_spec *m, int64_t tp, int64_t pp, int64_t dp,
                                int64_t batch)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "step-test";
    w.kind = ST_WL_TRAINING;
    w.attention = ST_ATTN_FLASH;
    w.model = m;
    w.seq_len = 2048;
    w.global_batch = batch;
    w.precision = ST_PREC_BF16;
    w.gpus = tp * pp * dp;
    w.parallel = (st_parallel_cfg){.tp = tp,
                                   .cp = 1,
                                   .pp = pp,
                                   .dp = dp,
                                   .zero = 1,
                                   .microbatch = 1,
                                   .virtual_stages = 1,
                                   .overlap_grad_reduce = 1,
                                   .overlap_p2p = 1,
                                   .recompute = ST_RECOMPUTE_NONE};
    return w;
}

static st_step_ctx *ctx_of(const st_cluster_cfg *c)
{
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_msg(st_step_ctx_new(c, &x, &err) == 0, "st_step_ctx_new: %s", err.msg);
    return x;
}

static st_step_result step(st_step_ctx *x, const st_workload_cfg *w, int64_t mb)
{
    st_step_result r;
    st_err err = {0};
    int rc = st_step_run(x, w, mb, &r, NULL, &err);
    ck_assert_msg(rc == 0, "st_step_run: %s", err.msg);
    ck_assert_msg(r.step_time_s > 0 && isfinite(r.step_time_s), "step_time_s = %g", r.step_time_s);
    return r;
}

/* The shared fixture: 4 nodes on 2 leaves, non-blocking, and a 16-layer model. */
static st_cluster_cfg c4;
static st_step_ctx *x4;
static st_llm_spec m16;

/* A plan for the tests that compare one data-parallel mechanism against another over x4's
 * fabric: tp, pp, dp, virtual stages, global batch and ZeRO stage. */
typedef struct dp_case {
    int64_t tp, pp, dp, v, batch;
    int zero;
} dp_case;

static st_workload_cfg case_workload(const dp_case *c)
{
    st_workload_cfg w = training(&m16, c->tp, c->pp, c->dp, c->batch);
    w.parallel.virtual_stages = c->v;
    w.parallel.zero = c->zero;
    return w;
}

/* Distributed-optimizer plans with data-parallel traffic, uneven stages among them. */
static const dp_case DP_PLANS[] = {{8, 1, 4, 1, 16, 1}, {2, 2, 8, 1, 32, 1}, {1, 1, 32, 1, 32, 1},
                                   {2, 3, 4, 1, 24, 1}, {1, 5, 2, 1, 20, 1}, {1, 1, 8, 1, 64, 1}};
#define N_DP_PLANS (sizeof DP_PLANS / sizeof DP_PLANS[0])

static void setup(void)
{
    c4 = cluster(4, 2, 1);
    x4 = ctx_of(&c4);
    m16 = gpt(16, 2048, 51200);
}

static void teardown(void)
{
    st_step_ctx_free(x4);
    x4 = NULL;
}

/* One node per leaf: each TP rank's DP ring crosses the spine, through 8 uplinks per leaf at
 * 1:1 and 2 at 4:1. With the reduction after the backward it is all exposed. */
START_TEST(test_dp_traffic_across_a_4_to_1_spine_makes_the_step_longer)
{
    st_llm_spec m = gpt(8, 4096, 51200);
    st_workload_cfg w = training(&m, 8, 1, 4, 32);
    w.parallel.overlap_grad_reduce = 0;
    st_cluster_cfg full = cluster(4, 1, 1), thin = cluster(4, 1, 4);
    st_step_ctx *xf = ctx_of(&full), *xt = ctx_of(&thin);
    st_step_result a = step(xf, &w, 1), b = step(xt, &w, 1);
    ck_assert_msg(b.step_time_s > a.step_time_s, "4:1 %.9g s, 1:1 %.9g s", b.step_time_s,
                  a.step_time_s);
    ck_assert_msg(b.b.dp_comm_exposed_s > a.b.dp_comm_exposed_s, "exposed DP 4:1 %g, 1:1 %g",
                  b.b.dp_comm_exposed_s, a.b.dp_comm_exposed_s);
    /* Tensor parallelism stays on NVLink: the spine cannot change the kernels or TP time. */
    ck_assert_double_eq(b.b.compute_s, a.b.compute_s);
    ck_assert_double_eq(b.b.tp_comm_s, a.b.tp_comm_s);
    st_step_ctx_free(xf);
    st_step_ctx_free(xt);
}
END_TEST

/* Two nodes per leaf at 2:1: a 16-GPU job (TP 8 in a node, DP 2 across nodes) placed on nodes 1
 * and 2 has its data-parallel ring cross the half-bandwidth uplinks; on nodes 2 and 3 it stays
 * in one leaf and, the leaves being alike, its step is the packed one bit for bit. Placing it
 * back on GPUs 0..15 (or on no list) gives the unplaced step again from the memo. */
START_TEST(test_a_step_placed_across_two_oversubscribed_leaves_is_slower)
{
    st_llm_spec m = gpt(8, 4096, 51200);
    st_workload_cfg w = training(&m, 8, 1, 2, 32);
    w.parallel.overlap_grad_reduce = 0;
    st_cluster_cfg c = cluster(4, 2, 2);
    st_step_ctx *x = ctx_of(&c);
    int64_t packed[16], across[16], other[16];
    for (int64_t r = 0; r < 16; r++) {
        packed[r] = r;
        across[r] = 8 + r;
        other[r] = 16 + r;
    }
    st_step_result a = step(x, &w, 1);
    ck_assert_int_eq(st_step_ctx_place(x, across, 16), 1);
    st_step_result b = step(x, &w, 1);
    ck_assert_int_eq(st_step_ctx_place(x, other, 16), 1);
    st_step_result o = step(x, &w, 1);
    ck_assert_int_eq(st_step_ctx_place(x, packed, 16), 0);
    st_step_result p = step(x, &w, 1);
    ck_assert_int_eq(st_step_ctx_place(x, NULL, 0), 0);
    ck_assert_msg(b.step_time_s > a.step_time_s, "across %.9g s, one leaf %.9g s", b.step_time_s,
                  a.step_time_s);
    ck_assert_msg(b.b.dp_comm_exposed_s > a.b.dp_comm_exposed_s, "exposed DP %g vs %g",
                  b.b.dp_comm_exposed_s, a.b.dp_comm_exposed_s);
    ck_assert_double_eq(b.b.tp_comm_s, a.b.tp_comm_s); /* TP stays on each node's NVLink */
    ck_assert(o.step_time_s == a.step_time_s);
    ck_assert(p.step_time_s == a.step_time_s);
    st_step_ctx_free(x);
}
END_TEST

/* Each distinct GPU list (with its neighbours' flows) is kept once and found again by its hash,
 * whatever the order and however many: 2,000 lists of two GPUs each over 16 nodes' 128 GPUs,
 * placed, then placed again backwards, keep their first places. */
START_TEST(test_each_distinct_placement_is_kept_once_and_found_again)
{
    st_cluster_cfg c = cluster(16, 4, 1);
    st_step_ctx *x = ctx_of(&c);
    enum { N = 2000 };
    static int64_t place[N];
    int64_t bg[2] = {5, 9};
    for (int i = 0; i < N; i++) {
        int64_t g[2] = {1 + i % 127, (i / 127 + 1 + i % 127) % 128};
        ck_assert_int_eq(st_step_ctx_place_beside(x, g, 2, i % 2 ? bg : NULL, i % 2), 1);
        place[i] = x->place;
    }
    size_t kept = x->n_maps;
    for (int i = N - 1; i >= 0; i--) {
        int64_t g[2] = {1 + i % 127, (i / 127 + 1 + i % 127) % 128};
        ck_assert_int_eq(st_step_ctx_place_beside(x, g, 2, i % 2 ? bg : NULL, i % 2), 1);
        ck_assert_int_eq(x->place, place[i]);
    }
    ck_assert_uint_eq(x->n_maps, kept);
    ck_assert_uint_eq(kept, N); /* the lists are distinct: (a, b) pairs with a flag */
    st_step_ctx_free(x);
}
END_TEST

/* Overlapping the gradient reduction with the backward can only move buckets earlier, and when
 * a stage's first bucket in line is ready before the last backward ends (a chunk of several
 * layers, or under interleaving a deeper chunk), it strictly shortens the exposed reduction. The
 * last plan has one layer per chunk, v = 4: only the deeper chunks' buckets can hide. */
START_TEST(test_overlapping_the_gradient_reduction_never_lengthens_the_step)
{
    static const dp_case plans[] = {
        {8, 1, 4, 1, 16, 1}, {8, 1, 4, 1, 16, 0}, {2, 2, 8, 1, 32, 1}, {2, 2, 8, 2, 32, 1},
        {4, 4, 2, 2, 16, 2}, {1, 4, 8, 1, 64, 0}, {1, 4, 8, 4, 32, 1},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        st_workload_cfg w = case_workload(&plans[i]);
        st_step_result on = step(x4, &w, 1);
        w.parallel.overlap_grad_reduce = 0;
        st_step_result off = step(x4, &w, 1);
        ck_assert_msg(on.step_time_s <= off.step_time_s,
                      "plan %zu: overlapped %.12g s > not overlapped %.12g s", i, on.step_time_s,
                      off.step_time_s);
        ck_assert_msg(on.b.dp_comm_exposed_s < off.b.dp_comm_exposed_s,
                      "plan %zu: exposed DP %.12g overlapped, %.12g not", i, on.b.dp_comm_exposed_s,
                      off.b.dp_comm_exposed_s);
    }
}
END_TEST

/* The distributed optimizer's weight all-gather run ahead of the forward (overlap_param_gather)
 * hides some of it: with the gathers aligned across stages (interleaving, or one stage) it
 * never lengthens the step, and at least the first bucket stays exposed. Only the
 * data-parallel term moves: the pipeline itself is the same. */
START_TEST(test_overlapping_the_parameter_gather_never_lengthens_an_aligned_step)
{
    static const dp_case plans[] = {
        {8, 1, 4, 1, 16, 1}, {2, 2, 8, 2, 32, 1}, {2, 2, 8, 2, 32, 2},
        {4, 4, 2, 2, 16, 1}, {1, 4, 8, 4, 32, 1}, {1, 1, 32, 1, 64, 2},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        st_workload_cfg w = case_workload(&plans[i]);
        st_step_result off = step(x4, &w, 1);
        w.parallel.overlap_param_gather = 1;
        st_step_result on = step(x4, &w, 1);
        ck_assert_msg(on.step_time_s <= off.step_time_s,
                      "plan %zu: overlapped %.12g s > not overlapped %.12g s", i, on.step_time_s,
                      off.step_time_s);
        ck_assert_msg(on.b.dp_comm_exposed_s > 0 &&
                          on.b.dp_comm_exposed_s < off.b.dp_comm_exposed_s,
                      "plan %zu: exposed DP %.12g overlapped, %.12g not", i, on.b.dp_comm_exposed_s,
                      off.b.dp_comm_exposed_s);
        ASSERT_REL(on.step_time_s - on.b.dp_comm_exposed_s,
                   off.step_time_s - off.b.dp_comm_exposed_s, 1e-12);
    }
}
END_TEST

/* Without interleaving each stage starts its gathers at its own first forward, so every stage
 * adds at least its first bucket's gather: a deep pipeline of one-layer stages exposes more
 * than it would with all of them gathering at once after the optimizer, which is why
 * Megatron aligns the gathers when it interleaves. */
START_TEST(test_unaligned_parameter_gathers_add_up_over_the_stages)
{
    st_workload_cfg w = training(&m16, 1, 16, 2, 64);
    st_step_result off = step(x4, &w, 1);
    w.parallel.overlap_param_gather = 1;
    st_step_result on = step(x4, &w, 1);
    ck_assert_msg(on.b.dp_comm_exposed_s > off.b.dp_comm_exposed_s,
                  "16 one-layer stages: exposed %.12g s overlapped, %.12g s not",
                  on.b.dp_comm_exposed_s, off.b.dp_comm_exposed_s);
    /* Two stages of eight layers hide more of it: less is late, though what runs beside the
     * forward slows it (st_gpu_overlap_slowdown), so overlapping no longer wins outright. */
    st_workload_cfg w2 = training(&m16, 1, 2, 16, 64);
    st_step_result off2 = step(x4, &w2, 1);
    w2.parallel.overlap_param_gather = 1;
    st_step_result on2 = step(x4, &w2, 1);
    ck_assert_msg(on2.b.dp_comm_exposed_s / off2.b.dp_comm_exposed_s <
                      on.b.dp_comm_exposed_s / off.b.dp_comm_exposed_s / 2,
                  "2 stages expose %.12g of the unoverlapped gather, 16 stages %.12g",
                  on2.b.dp_comm_exposed_s / off2.b.dp_comm_exposed_s,
                  on.b.dp_comm_exposed_s / off.b.dp_comm_exposed_s);
}
END_TEST

static int fits(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t b)
{
    st_memory mem;
    st_memory_estimate(w, gpu, b, &mem);
    return mem.fits;
}

/* One H100 and about 1.8B parameters without recomputation: small micro-batches fit, large do not.
 * auto must pick one that fits, and no divisor that fits may be faster. */
START_TEST(test_auto_microbatch_picks_a_size_that_fits_and_none_that_fits_is_faster)
{
    st_cluster_cfg c = cluster(1, 1, 1);
    st_step_ctx *x = ctx_of(&c);
    st_llm_spec m = gpt(8, 4096, 51200);
    st_workload_cfg w = training(&m, 1, 1, 1, 64);
    w.parallel.microbatch = 0;
    st_forecast f;
    st_err err = {0};
    ck_assert_msg(st_forecast_job(x, &w, &c, &f, NULL, &err) == 0, "forecast: %s", err.msg);
    ck_assert(f.has_step);
    ck_assert_int_eq(f.step.microbatch, f.microbatch);
    ck_assert_msg(fits(&w, c.gpu, f.microbatch), "auto picked %lld, which does not fit",
                  (long long)f.microbatch);
    ck_assert(f.mem.fits);
    ck_assert_int_eq(w.global_batch % f.microbatch, 0);
    int larger_misfit = 0;
    for (int64_t b = 1; b <= w.global_batch; b++) {
        if (w.global_batch % b)
            continue;
        if (!fits(&w, c.gpu, b)) {
            larger_misfit |= b > f.microbatch;
            continue;
        }
        st_step_result r = step(x, &w, b);
        ck_assert_msg(r.step_time_s >= f.step.step_time_s,
                      "micro-batch %lld: %.12g s, faster than auto's %lld: %.12g s", (long long)b,
                      r.step_time_s, (long long)f.microbatch, f.step.step_time_s);
    }
    /* The case must exercise the memory limit, or it checks nothing about fitting. */
    ck_assert_msg(larger_misfit, "every divisor fits: the test case is too small");
    /* Without a step context auto takes the largest size that fits: the next divisor does not. */
    st_forecast g;
    ck_assert_int_eq(st_forecast_job(NULL, &w, &c, &g, NULL, &err), 0);
    ck_assert(!g.has_step);
    ck_assert(fits(&w, c.gpu, g.microbatch));
    int64_t next = g.microbatch + 1;
    while (next <= w.global_batch && w.global_batch % next)
        next++;
    ck_assert_int_le(next, w.global_batch);
    ck_assert_msg(!fits(&w, c.gpu, next), "auto without steps took %lld, but %lld fits too",
                  (long long)g.microbatch, (long long)next);
    st_step_ctx_free(x);
}
END_TEST

static void assert_parts_add_up(const st_step_result *r, const char *what)
{
    const st_step_breakdown *b = &r->b;
    double parts[] = {b->compute_s, b->tp_comm_s,         b->pp_comm_s,
                      b->bubble_s,  b->dp_comm_exposed_s, b->optimizer_s};
    double sum = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        ck_assert_msg(parts[i] >= 0 && isfinite(parts[i]), "%s: part %zu = %g", what, i, parts[i]);
        sum += parts[i];
    }
    ck_assert_msg(fabs(sum - r->step_time_s) <= 1e-9 * r->step_time_s,
                  "%s: parts sum to %.15g s, step is %.15g s", what, sum, r->step_time_s);
}

START_TEST(test_breakdown_parts_add_up_to_the_step)
{
    static const struct {
        int64_t tp, pp, dp, v, batch;
        int zero, sp;
        st_recompute rc;
        int64_t cp;
    } plans[] = {
        {1, 1, 1, 1, 4, 1, 0, ST_RECOMPUTE_NONE, 1},
        {8, 1, 4, 1, 16, 1, 1, ST_RECOMPUTE_SELECTIVE, 1},
        {2, 2, 8, 1, 32, 0, 0, ST_RECOMPUTE_FULL, 1},
        {2, 4, 4, 2, 32, 1, 1, ST_RECOMPUTE_SELECTIVE, 1},
        {4, 8, 1, 1, 16, 1, 0, ST_RECOMPUTE_NONE, 1},
        {4, 2, 4, 1, 16, 3, 1, ST_RECOMPUTE_NONE, 1},
        {8, 4, 1, 2, 8, 1, 1, ST_RECOMPUTE_FULL, 1},
        {1, 2, 16, 1, 64, 2, 0, ST_RECOMPUTE_NONE, 1},
        {2, 2, 4, 1, 16, 1, 1, ST_RECOMPUTE_SELECTIVE, 2},
        {2, 2, 4, 2, 16, 3, 1, ST_RECOMPUTE_NONE, 2},
    };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        st_workload_cfg w = training(&m16, plans[i].tp, plans[i].pp, plans[i].dp, plans[i].batch);
        w.parallel.virtual_stages = plans[i].v;
        w.parallel.zero = plans[i].zero;
        w.parallel.sequence_parallel = plans[i].sp;
        w.parallel.recompute = plans[i].rc;
        w.parallel.cp = plans[i].cp;
        w.gpus *= w.parallel.cp;
        char what[48];
        for (int overlap = 0; overlap < 2; overlap++) {
            w.parallel.overlap_grad_reduce = overlap;
            snprintf(what, sizeof what, "plan %zu", i);
            st_step_result r = step(x4, &w, 1);
            assert_parts_add_up(&r, what);
            /* The gradient-path keys, where the loader accepts them. */
            st_workload_cfg g = w;
            g.parallel.overlap_param_gather = g.parallel.zero == 1 || g.parallel.zero == 2;
            g.parallel.grad_collective = g.parallel.zero <= 1 ? ST_GRAD_COLL_ALL_REDUCE : 0;
            g.parallel.grad_accum_separate = g.parallel.zero <= 1;
            snprintf(what, sizeof what, "plan %zu, gradient-path keys", i);
            r = step(x4, &g, 1);
            assert_parts_add_up(&r, what);
        }
    }
}
END_TEST

/* PaLM's MFU: model FLOPs of the step over the step time and every GPU's dense peak. */
START_TEST(test_mfu_is_model_flops_over_step_time_and_peak_and_hfu_adds_recomputation)
{
    static const st_recompute rcs[] = {ST_RECOMPUTE_NONE, ST_RECOMPUTE_SELECTIVE,
                                       ST_RECOMPUTE_FULL};
    static const st_precision precs[] = {ST_PREC_BF16, ST_PREC_FP8};
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 2; j++) {
            st_workload_cfg w = training(&m16, 4, 2, 4, 32);
            w.parallel.recompute = rcs[i];
            w.precision = precs[j];
            st_step_result r = step(x4, &w, 2);
            double flops = st_llm_flops_per_token(w.model, w.seq_len) * (double)w.seq_len *
                           (double)w.global_batch;
            double peak = st_gpu_peak(c4.gpu, w.precision);
            ASSERT_REL(r.mfu, flops / (r.step_time_s * (double)w.gpus * peak), 1e-12);
            ASSERT_REL(r.tflops_per_gpu, flops / (double)w.gpus / r.step_time_s / 1e12, 1e-12);
            ASSERT_REL(r.tokens_per_s, (double)w.global_batch * (double)w.seq_len / r.step_time_s,
                       1e-12);
            ck_assert(r.mfu > 0 && r.mfu < 1);
            if (rcs[i] == ST_RECOMPUTE_NONE)
                ASSERT_REL(r.hfu, r.mfu, 1e-12);
            else
                ck_assert_msg(r.hfu > r.mfu, "recompute %zu: hfu %g <= mfu %g", i, r.hfu, r.mfu);
        }
    }
}
END_TEST

/* One GPU: the step is m micro-batches' forward and backward back to back, then the optimizer.
 * The pipeline rounds every task to a whole nanosecond, hence the tolerance. */
START_TEST(test_a_single_gpu_step_is_m_forward_backward_passes_plus_the_optimizer)
{
    static const st_recompute rcs[] = {ST_RECOMPUTE_NONE, ST_RECOMPUTE_SELECTIVE,
                                       ST_RECOMPUTE_FULL};
    st_llm_spec m = gpt(4, 2048, 51200);
    for (size_t i = 0; i < 3; i++) {
        st_workload_cfg w = training(&m, 1, 1, 1, 8);
        w.parallel.recompute = rcs[i];
        w.parallel.microbatch = 2;
        st_step_result r = step(x4, &w, 2);
        st_layer_cost lc;
        double ef, eb, hf, hb;
        st_ops_layer_cost(&w, c4.gpu, 2, &lc);
        st_ops_edge_cost(&w, c4.gpu, 2, &ef, &eb, &hf, &hb);
        double one = (double)m.layers * (lc.fwd_s + lc.bwd_s + lc.recompute_s) + ef + eb + hf + hb;
        double opt = st_ops_optimizer_time(&w, c4.gpu);
        ck_assert_int_eq(r.micro_per_step, 4);
        ck_assert_msg(fabs(r.step_time_s - (4 * one + opt)) <= 8e-9,
                      "recompute %zu: step %.12g s, want %.12g s", i, r.step_time_s, 4 * one + opt);
        ck_assert_double_eq(r.b.bubble_s, 0);
        ck_assert_double_eq(r.b.tp_comm_s, 0);
        ck_assert_double_eq(r.b.pp_comm_s, 0);
        ck_assert_double_eq(r.b.dp_comm_exposed_s, 0);
        ASSERT_REL(r.b.optimizer_s, opt, 1e-12);
    }
}
END_TEST

/* pp stages of equal layers and a small vocabulary (so the head does not unbalance the last
 * stage), sends on NVLink: 1F1B idles (p - 1)/(m + p - 1) of the pipeline's makespan. */
START_TEST(test_pipeline_bubble_is_about_p_minus_1_over_m_plus_p_minus_1)
{
    st_llm_spec m = gpt(16, 2048, 1024);
    static const int64_t ms[] = {4, 8, 16};
    for (size_t i = 0; i < 3; i++) {
        st_workload_cfg w = training(&m, 2, 4, 1, ms[i]);
        st_step_result r = step(x4, &w, 1);
        ck_assert_int_eq(r.micro_per_step, ms[i]);
        double makespan = r.step_time_s - r.b.dp_comm_exposed_s - r.b.optimizer_s;
        double idle = (r.b.bubble_s + r.b.pp_comm_s) / makespan;
        double want = 3.0 / (double)(ms[i] + 3);
        ASSERT_REL(idle, want, 0.05);
        ck_assert_msg(r.b.pp_comm_s <= 0.01 * makespan, "m %lld: exposed sends %g of %g s",
                      (long long)ms[i], r.b.pp_comm_s, makespan);
    }
}
END_TEST

static void assert_same(const st_step_result *a, const st_step_result *b)
{
    ck_assert_int_eq(a->microbatch, b->microbatch);
    ck_assert_int_eq(a->micro_per_step, b->micro_per_step);
    double fa[] = {
        a->step_time_s,         a->mfu,          a->hfu,         a->tflops_per_gpu, a->tokens_per_s,
        a->closed_form_s,       a->b.compute_s,  a->b.tp_comm_s, a->b.pp_comm_s,    a->b.bubble_s,
        a->b.dp_comm_exposed_s, a->b.optimizer_s};
    double fb[] = {
        b->step_time_s,         b->mfu,          b->hfu,         b->tflops_per_gpu, b->tokens_per_s,
        b->closed_form_s,       b->b.compute_s,  b->b.tp_comm_s, b->b.pp_comm_s,    b->b.bubble_s,
        b->b.dp_comm_exposed_s, b->b.optimizer_s};
    for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
        ck_assert_msg(memcmp(&fa[i], &fb[i], sizeof fa[i]) == 0, "field %zu: %.17g != %.17g", i,
                      fa[i], fb[i]);
}

START_TEST(test_same_plan_gives_the_same_step_to_the_last_bit_memoised_or_fresh)
{
    st_workload_cfg w = training(&m16, 2, 2, 8, 32);
    w.parallel.virtual_stages = 2;
    w.parallel.sequence_parallel = 1;
    w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
    st_step_result first = step(x4, &w, 1), again = step(x4, &w, 1);
    assert_same(&first, &again);
    st_step_ctx *fresh = ctx_of(&c4);
    st_step_result cold = step(fresh, &w, 1);
    assert_same(&first, &cold);
    st_step_ctx_free(fresh);
}
END_TEST

/* Step w on three contexts sharing one memo, over clusters first, alike and unlike: alike
 * simulates no pattern first did and steps as a fresh context over it does (its step into
 * *alike_r); unlike simulates patterns of its own. Returns first's step. */
static st_step_result step_sharing_a_memo(const st_cluster_cfg *first, const st_cluster_cfg *alike,
                                          const st_cluster_cfg *unlike, const st_workload_cfg *w,
                                          st_step_result *alike_r)
{
    st_step_memo *memo = st_step_memo_new();
    st_step_ctx *a = NULL, *b = NULL, *d = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_step_ctx_new_shared(first, memo, &a, &err), 0);
    ck_assert_int_eq(st_step_ctx_new_shared(alike, memo, &b, &err), 0);
    ck_assert_int_eq(st_step_ctx_new_shared(unlike, memo, &d, &err), 0);
    st_step_result r = step(a, w, 1);
    size_t n = st_step_memo_count(memo);
    ck_assert_uint_gt(n, 0);
    *alike_r = step(b, w, 1);
    ck_assert_uint_eq(st_step_memo_count(memo), n);
    st_step_ctx *fresh = ctx_of(alike);
    st_step_result cold = step(fresh, w, 1);
    assert_same(alike_r, &cold);
    step(d, w, 1);
    ck_assert_uint_gt(st_step_memo_count(memo), n);
    st_step_ctx_free(fresh);
    st_step_ctx_free(a);
    st_step_ctx_free(b);
    st_step_ctx_free(d);
    st_step_memo_free(memo);
    return r;
}

/* Contexts on clusters that differ only in their node count share one memo: a plan on 4 nodes
 * stepped on 8 nodes and then on 16 (2:1 oversubscribed ECMP leaves, so the routes matter)
 * simulates no pattern the second time and gives the fresh 16-node context's step to the last
 * bit; a fabric that wires those GPUs otherwise (4 nodes a leaf) is simulated anew. */
START_TEST(test_counts_sharing_a_memo_simulate_each_pattern_once_and_step_the_same)
{
    st_workload_cfg w = training(&m16, 8, 2, 2, 32);
    w.parallel.virtual_stages = 2;
    st_cluster_cfg c8 = cluster(8, 2, 2), c16 = cluster(16, 2, 2), c16b = cluster(16, 4, 2);
    st_step_result on16, on8 = step_sharing_a_memo(&c8, &c16, &c16b, &w, &on16);
    assert_same(&on8, &on16);
}
END_TEST

/* GPU types that run collectives alike (H100 SXM and H200 SXM: Hopper, NVSwitch, 900 GB/s
 * NVLink) share a memo's entries, as a sizing search over GPU types does: the H200 context
 * simulates no pattern the H100 one did and steps as a fresh H200 context does; a B200
 * (Blackwell, 1.8 TB/s NVLink) simulates its own. */
START_TEST(test_gpu_types_alike_in_collectives_share_a_memo)
{
    const st_gpu_spec *h100 = st_catalog_gpu("h100-sxm"), *h200 = st_catalog_gpu("h200-sxm"),
                      *b200 = st_catalog_gpu("b200");
    ck_assert(st_coll_gpu_same(h100, h200));
    ck_assert(!st_coll_gpu_same(h100, b200));
    st_workload_cfg w = training(&m16, 8, 2, 2, 32);
    st_cluster_cfg c1 = cluster(4, 2, 2), c2 = c1, c3 = c1;
    c2.gpu = h200;
    c3.gpu = b200;
    st_step_result on_h200;
    step_sharing_a_memo(&c1, &c2, &c3, &w, &on_h200);
}
END_TEST

/* A context told to skip the closed form steps every plan as one that is not, bit for bit, and
 * leaves only the closed form NAN. */
START_TEST(test_skipping_the_closed_form_changes_nothing_else)
{
    st_workload_cfg w = training(&m16, 8, 2, 2, 32);
    st_cluster_cfg c = cluster(4, 2, 2);
    st_step_ctx *a = ctx_of(&c), *b = ctx_of(&c);
    st_step_ctx_skip_closed_form(b);
    st_step_result ra = step(a, &w, 1), rb = step(b, &w, 1);
    ck_assert(ra.closed_form_s > 0);
    ck_assert(isnan(rb.closed_form_s));
    rb.closed_form_s = ra.closed_form_s;
    assert_same(&ra, &rb);
    st_step_ctx_free(a);
    st_step_ctx_free(b);
}
END_TEST

/* Activation offload's copies hide behind the next layer's forward and the following layer's
 * backward: over a host link fast enough to hide them the step is the same bit for bit; over a
 * slow one (1 GB/s) each offloaded layer's copy shows, and the step is longer. */
START_TEST(test_offload_copies_show_only_when_the_host_link_is_slow)
{
    st_workload_cfg w = training(&m16, 8, 1, 4, 32);
    st_cluster_cfg fast = cluster(4, 2, 2), slow = fast;
    fast.node.pcie_bw = 1e18;
    slow.node.pcie_bw = 1e9;
    st_step_ctx *a = ctx_of(&fast), *b = ctx_of(&fast), *d = ctx_of(&slow);
    st_step_result none = step(a, &w, 1);
    w.parallel.offload_layers = 4;
    st_step_result hidden = step(b, &w, 1), shown = step(d, &w, 1);
    ck_assert(none.step_time_s == hidden.step_time_s);
    ck_assert_double_gt(shown.step_time_s, none.step_time_s);
    st_step_ctx_free(a);
    st_step_ctx_free(b);
    st_step_ctx_free(d);
}
END_TEST

/* A context on the 4-node fixture cluster with an H100-class part that NVLS and the
 * calibrations do not know (no architecture, no calibration key), so its TP collectives run as
 * plain rings. The GPU and cluster are static: the context may keep pointers to them. */
static st_step_ctx *ring_only_ctx(void)
{
    static st_gpu_spec ring_only;
    static st_cluster_cfg c;
    ring_only = *st_catalog_gpu("h100-sxm");
    ring_only.name = "ring-only-hopper";
    ring_only.arch = ST_GPU_ARCH_UNKNOWN;
    ring_only.calib = ST_GPU_CALIB_NONE;
    ring_only.nvswitch = 0;
    c = cluster(4, 2, 1);
    c.gpu = &ring_only;
    return ctx_of(&c);
}

/* Transformer Engine's TP overlap (parallel.tp_comm_overlap) leaves the kernels as they are and
 * hides part of the TP collectives behind the GEMMs they are paired with, at a price: the GEMMs
 * run in pieces, slower beside the communication (the measured contention, and beside a
 * pipeline or bulk collective at least the 16 SMs it takes). At tp 8 on the
 * H100's NVLink, where a layer's collectives are a large share of its GEMMs, the exposed TP time
 * falls by more than a third and the step with it; at tp 2 the collectives are small and the
 * price can exceed what is hidden. On the ring-only part (no NVLS) with a narrow model, whose
 * collectives are about as long as all of its kernels, the overlap hides no more than the
 * kernels' time. */
START_TEST(test_tp_overlap_hides_tp_traffic_behind_the_gemms_and_no_more)
{
    st_llm_spec wide = gpt(2, 8192, 51200);
    static const int64_t tps[] = {2, 4, 8};
    for (size_t i = 0; i < 3; i++) {
        st_workload_cfg w = training(&wide, tps[i], 1, 1, 8);
        w.parallel.sequence_parallel = 1;
        st_step_result off = step(x4, &w, 8);
        w.parallel.tp_comm_overlap = 1;
        st_step_result on = step(x4, &w, 8);
        ASSERT_REL(on.b.compute_s, off.b.compute_s, 1e-7); /* the remainder of ns-timed passes */
        ck_assert(on.b.tp_comm_s > 0); /* pieces, first and last sends, the SM margin */
        ck_assert(on.b.tp_comm_s <= off.b.tp_comm_s + 0.15 * off.b.compute_s);
        if (tps[i] == 8) {
            ck_assert_msg(on.b.tp_comm_s < 0.65 * off.b.tp_comm_s, "TP %g s on, %g s off",
                          on.b.tp_comm_s, off.b.tp_comm_s);
            ck_assert(on.step_time_s < off.step_time_s);
        }
    }
    st_step_ctx *x = ring_only_ctx();
    st_llm_spec narrow = gpt(2, 1024, 51200); /* GEMMs shrink with h^2, collectives with h */
    st_workload_cfg w = training(&narrow, 8, 1, 1, 8);
    w.parallel.sequence_parallel = 1;
    st_step_result off = step(x, &w, 8);
    w.parallel.tp_comm_overlap = 1;
    st_step_result on = step(x, &w, 8);
    ck_assert(on.b.tp_comm_s < off.b.tp_comm_s);
    ck_assert_msg(on.b.tp_comm_s >= off.b.tp_comm_s - off.b.compute_s,
                  "hid %g s of TP behind %g s of compute", off.b.tp_comm_s - on.b.tp_comm_s,
                  off.b.compute_s);
    st_step_ctx_free(x);
}
END_TEST

/* Context parallelism's ring exchange under parallel.cp_comm_overlap runs beside the attention
 * of the block before (Transformer Engine's ring attention): at 32K tokens over cp 4 the
 * attention is long beside each send, so what CP adds to the step falls; what it adds is
 * never below the sends' excess over the attention's share, and the kernels are unchanged. */
START_TEST(test_cp_overlap_hides_the_ring_behind_the_attention)
{
    st_llm_spec m = gpt(2, 4096, 51200);
    st_workload_cfg w = training(&m, 1, 1, 2, 2);
    w.seq_len = 32768;
    w.parallel.cp = 4;
    w.gpus = 8;
    st_step_result off = step(x4, &w, 1);
    w.parallel.cp_comm_overlap = 1;
    st_step_result on = step(x4, &w, 1);
    ASSERT_REL(on.b.compute_s, off.b.compute_s, 1e-7);
    ck_assert(off.b.tp_comm_s > 0);
    ck_assert_msg(on.b.tp_comm_s < 0.5 * off.b.tp_comm_s, "CP %g s on, %g s off", on.b.tp_comm_s,
                  off.b.tp_comm_s);
    ck_assert(on.b.tp_comm_s >= 0);
    ck_assert(on.step_time_s < off.step_time_s);
}
END_TEST

/* Sequence parallelism trades each all-reduce for an all-gather and a reduce-scatter of the
 * same total traffic (Korthikanti et al. 2022, section 4.2.2), and gathers the column-parallel
 * inputs once more in backward for the weight gradients: 4 + 6 half-size collectives against
 * 2 + 2 all-reduces, 5/4 of the all-reduce plan's time on rings: an H100-class part under a
 * name NVLS does not know. On the H100 itself NCCL's NVLS all-reduce moves S each way instead
 * of the ring's 2(n-1)/n S, so the all-reduce plan's TP time shrinks and sequence parallelism
 * costs more than 5/4 of it. */
START_TEST(test_sequence_parallel_tp_traffic_is_five_quarters_of_all_reduce)
{
    st_step_ctx *x = ring_only_ctx();
    static const int64_t tps[] = {2, 4, 8};
    for (size_t i = 0; i < 3; i++) {
        st_workload_cfg w = training(&m16, tps[i], 1, 1, 4);
        st_step_result ar = step(x, &w, 2);
        w.parallel.sequence_parallel = 1;
        st_step_result sp = step(x, &w, 2);
        ck_assert(ar.b.tp_comm_s > 0);
        ASSERT_REL(sp.b.tp_comm_s, 1.25 * ar.b.tp_comm_s, 0.2);
        /* The same on H100, where the large all-reduces take NVLS. */
        w.parallel.sequence_parallel = 0;
        st_step_result ar_h = step(x4, &w, 2);
        w.parallel.sequence_parallel = 1;
        st_step_result sp_h = step(x4, &w, 2);
        ck_assert_msg(sp_h.b.tp_comm_s > 1.25 * ar_h.b.tp_comm_s,
                      "tp %lld on H100: SP %g s, all-reduce %g s", (long long)tps[i],
                      sp_h.b.tp_comm_s, ar_h.b.tp_comm_s);
    }
    st_step_ctx_free(x);
}
END_TEST

/* Under FP8, Transformer Engine gathers sequence-parallel shards already quantised: the 6
 * all-gathers of a layer move half the bytes, the 4 reduce-scatters the same, so the TP time
 * falls to about (6/2 + 4) / (6 + 4) = 0.7 of BF16's. */
START_TEST(test_fp8_all_gathers_move_half_the_tp_traffic)
{
    st_step_ctx *x = ring_only_ctx();
    st_llm_spec wide = gpt(2, 8192, 51200); /* 256 MB activations: bandwidth, not latency */
    st_workload_cfg w = training(&wide, 4, 1, 1, 8);
    w.parallel.sequence_parallel = 1;
    st_step_result bf16 = step(x, &w, 8);
    w.precision = ST_PREC_FP8;
    st_step_result fp8 = step(x, &w, 8);
    ck_assert(bf16.b.tp_comm_s > 0);
    ASSERT_REL(fp8.b.tp_comm_s, 0.7 * bf16.b.tp_comm_s, 0.1);
    st_step_ctx_free(x);
}
END_TEST

/* Recomputation repeats forward work in the backward: selective some, full all of it. */
START_TEST(test_recomputation_never_shortens_the_step_and_full_costs_most)
{
    static const struct {
        int64_t tp, pp, dp;
    } plans[] = {{1, 1, 1}, {8, 1, 2}, {2, 4, 2}};
    for (size_t i = 0; i < 3; i++) {
        for (int sp = 0; sp < 2; sp++) {
            st_workload_cfg w = training(&m16, plans[i].tp, plans[i].pp, plans[i].dp, 16);
            w.parallel.sequence_parallel = sp && plans[i].tp > 1;
            st_step_result none = step(x4, &w, 2);
            w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
            st_step_result sel = step(x4, &w, 2);
            w.parallel.recompute = ST_RECOMPUTE_FULL;
            st_step_result full = step(x4, &w, 2);
            ck_assert_msg(sel.step_time_s >= none.step_time_s, "plan %zu: selective %g < none %g",
                          i, sel.step_time_s, none.step_time_s);
            ck_assert_msg(full.step_time_s >= sel.step_time_s, "plan %zu: full %g < selective %g",
                          i, full.step_time_s, sel.step_time_s);
        }
    }
}
END_TEST

/* ZeRO-3 gathers the weights before every forward and backward and reduce-scatters after every
 * backward, where ZeRO-1 reduces once per step: more traffic, never hidden. */
START_TEST(test_zero3_over_data_parallel_ranks_is_slower_than_zero1)
{
    for (size_t i = 0; i < N_DP_PLANS; i++) {
        st_workload_cfg w = case_workload(&DP_PLANS[i]);
        st_step_result z1 = step(x4, &w, 1);
        w.parallel.zero = 3;
        st_step_result z3 = step(x4, &w, 1);
        ck_assert_msg(z3.step_time_s > z1.step_time_s, "plan %zu: ZeRO-3 %g s <= ZeRO-1 %g s", i,
                      z3.step_time_s, z1.step_time_s);
        /* The kernels are the same under both stages: ZeRO-3's gathers and reduce-scatters are
         * data-parallel traffic in the breakdown, not compute. */
        ck_assert_msg(fabs(z3.b.compute_s - z1.b.compute_s) <= 1e-9 * z1.b.compute_s,
                      "plan %zu: compute %.15g s under ZeRO-3, %.15g s under ZeRO-1", i,
                      z3.b.compute_s, z1.b.compute_s);
        ck_assert_msg(z3.b.dp_comm_exposed_s > z1.b.dp_comm_exposed_s,
                      "plan %zu: ZeRO-3 exposes %g s of DP traffic, ZeRO-1 %g s", i,
                      z3.b.dp_comm_exposed_s, z1.b.dp_comm_exposed_s);
        assert_parts_add_up(&z3, "ZeRO-3");
    }
}
END_TEST

/* ZeRO-3 with its gathers prefetched a layer ahead (overlap_param_gather, Megatron-FSDP): the
 * kernels are the same, the step is never longer than gathering on demand, less of the
 * data-parallel traffic is exposed, and some still is (the first gather and the last
 * reduce-scatter of every pass, and the compute slowed beside the rest). */
START_TEST(test_prefetching_zero3_gathers_hides_part_of_them)
{
    for (size_t i = 0; i < N_DP_PLANS; i++) {
        st_workload_cfg w = case_workload(&DP_PLANS[i]);
        w.parallel.zero = 3;
        st_step_result off = step(x4, &w, 1);
        w.parallel.overlap_param_gather = 1;
        st_step_result on = step(x4, &w, 1);
        ck_assert_msg(on.step_time_s <= off.step_time_s, "plan %zu: prefetched %.12g s > %.12g s",
                      i, on.step_time_s, off.step_time_s);
        ck_assert_msg(on.b.dp_comm_exposed_s > 0 &&
                          on.b.dp_comm_exposed_s < off.b.dp_comm_exposed_s,
                      "plan %zu: exposed DP %.12g prefetched, %.12g on demand", i,
                      on.b.dp_comm_exposed_s, off.b.dp_comm_exposed_s);
        /* The pipeline runs in whole nanoseconds, so chunk times that differ round apart. */
        ASSERT_REL(on.b.compute_s, off.b.compute_s, 1e-6);
        assert_parts_add_up(&on, "prefetched ZeRO-3");
    }
}
END_TEST

/* FP8 weights (fp8_param_gather) halve the bytes every weight gather moves: ZeRO-3's per-layer
 * gathers and the distributed optimizer's after its step, so less of either is exposed, and
 * the kernels are untouched. */
START_TEST(test_fp8_weights_halve_the_weight_gathers)
{
    for (int zero = 1; zero <= 3; zero += 2) {
        st_workload_cfg w = training(&m16, 2, 1, 16, 32);
        w.precision = ST_PREC_FP8;
        w.parallel.zero = zero;
        st_step_result bf16 = step(x4, &w, 1);
        w.fp8_param_gather = 1;
        st_step_result fp8 = step(x4, &w, 1);
        ck_assert_msg(fp8.b.dp_comm_exposed_s < bf16.b.dp_comm_exposed_s,
                      "zero %d: exposed DP %.12g s with FP8 weights, %.12g s with BF16", zero,
                      fp8.b.dp_comm_exposed_s, bf16.b.dp_comm_exposed_s);
        ASSERT_REL(fp8.b.compute_s, bf16.b.compute_s, 1e-6);
    }
}
END_TEST

/* Tied embeddings on a pipeline: the same plan with untied ones has the same pipeline (the last
 * stage holds an output layer either way), so the step differs by exactly the all-reduce of the
 * embedding gradient between the first and last stages, counted as pipeline communication. */
START_TEST(test_tied_embeddings_on_a_pipeline_add_one_embedding_all_reduce)
{
    st_llm_spec untied = m16;
    untied.tied_embeddings = 0;
    static const int64_t pps[] = {2, 4};
    for (size_t i = 0; i < 2; i++) {
        st_workload_cfg w = training(&m16, 2, pps[i], 4, 16);
        st_step_result tied = step(x4, &w, 1);
        w.model = &untied;
        st_step_result apart = step(x4, &w, 1);
        double sync = tied.step_time_s - apart.step_time_s;
        ck_assert_msg(sync > 0, "pp %lld: tied %.12g s, untied %.12g s", (long long)pps[i],
                      tied.step_time_s, apart.step_time_s);
        ASSERT_REL(tied.b.pp_comm_s - apart.b.pp_comm_s, sync, 1e-9);
        ASSERT_REL(tied.b.dp_comm_exposed_s, apart.b.dp_comm_exposed_s, 1e-12);
    }
    /* Without a pipeline there is one copy of a tied weight and nothing to synchronise; an
     * untied output layer is more gradient to reduce. */
    st_workload_cfg w = training(&m16, 2, 1, 4, 16);
    w.parallel.overlap_grad_reduce = 0;
    st_step_result tied = step(x4, &w, 1);
    w.model = &untied;
    st_step_result apart = step(x4, &w, 1);
    ck_assert_double_eq(tied.b.pp_comm_s, 0);
    ck_assert_double_eq(apart.b.pp_comm_s, 0);
    ck_assert_msg(apart.b.dp_comm_exposed_s > tied.b.dp_comm_exposed_s, "untied DP %g, tied %g",
                  apart.b.dp_comm_exposed_s, tied.b.dp_comm_exposed_s);
}
END_TEST

/* DeepSpeed's pipeline engine with its BF16 optimizer all-reduces the gradients under ZeRO 1:
 * twice the traffic of the reduce-scatter, so more exposed time when nothing overlaps it. */
START_TEST(test_all_reducing_sharded_gradients_costs_more_than_reduce_scatter)
{
    for (size_t i = 0; i < N_DP_PLANS; i++) {
        st_workload_cfg w = case_workload(&DP_PLANS[i]);
        w.parallel.overlap_grad_reduce = 0;
        st_step_result rs = step(x4, &w, 1);
        w.parallel.grad_collective = ST_GRAD_COLL_ALL_REDUCE;
        st_step_result ar = step(x4, &w, 1);
        ck_assert_msg(ar.b.dp_comm_exposed_s > rs.b.dp_comm_exposed_s,
                      "plan %zu: all-reduce %g s, reduce-scatter %g s exposed", i,
                      ar.b.dp_comm_exposed_s, rs.b.dp_comm_exposed_s);
        /* Naming the default changes nothing. */
        w.parallel.grad_collective = ST_GRAD_COLL_REDUCE_SCATTER;
        st_step_result named = step(x4, &w, 1);
        ck_assert(named.step_time_s == rs.step_time_s);
    }
}
END_TEST

/* grad_accum: separate adds, on one GPU, a pass over every parameter after each micro-batch's
 * backward: 18 bytes per parameter per micro-batch at the achievable HBM bandwidth, less what
 * the weight-gradient GEMMs save by writing bf16 instead of updating fp32 (nothing when they
 * are compute-bound); and 2 bytes per parameter of bf16 gradients in memory. */
START_TEST(test_separate_gradient_accumulation_adds_a_pass_per_micro_batch)
{
    st_llm_spec m = gpt(4, 2048, 51200);
    st_workload_cfg w = training(&m, 1, 1, 1, 8);
    w.parallel.microbatch = 2;
    st_step_result fused = step(x4, &w, 2);
    st_memory a, b;
    st_memory_estimate(&w, c4.gpu, 2, &a);
    w.parallel.grad_accum_separate = 1;
    st_step_result sep = step(x4, &w, 2);
    st_memory_estimate(&w, c4.gpu, 2, &b);
    /* The step model's parameters: the layers' and the (tied) embedding's matrices. */
    double params = (double)m.layers * st_llm_layer_params(&m) + (double)m.vocab * (double)m.hidden;
    double pass = st_ops_grad_accum_time(&w, c4.gpu, params);
    ASSERT_REL(pass, params * 18.0 / (st_hbm_efficiency(c4.gpu) * c4.gpu->hbm_bw), 1e-12);
    /* The single-GPU step is m passes of every layer and edge (the test above) plus the
     * optimizer; the weight-gradient GEMMs' cheaper output shows in the layer costs. */
    st_layer_cost lc;
    double ef, eb, hf, hb;
    st_ops_layer_cost(&w, c4.gpu, 2, &lc);
    st_ops_edge_cost(&w, c4.gpu, 2, &ef, &eb, &hf, &hb);
    double one = (double)m.layers * (lc.fwd_s + lc.bwd_s) + ef + eb + hf + hb;
    ck_assert_msg(fabs(sep.step_time_s - (4 * (one + pass) + st_ops_optimizer_time(&w, c4.gpu))) <=
                      8e-9,
                  "step %.12g s", sep.step_time_s);
    ck_assert_msg(sep.step_time_s > fused.step_time_s, "separate %.12g s, fused %.12g s",
                  sep.step_time_s, fused.step_time_s);
    ASSERT_REL(b.term[ST_MEM_GRADS] - a.term[ST_MEM_GRADS], 2.0 * a.params_per_gpu, 1e-12);
}
END_TEST

/* A micro-batch size the batch does not split into is refused in the plan's own words
 * (models/silicon/plan_check.c), the same the loader prints. */
START_TEST(test_a_batch_that_does_not_split_is_refused_with_the_plan_rule)
{
    st_workload_cfg w = training(&m16, 1, 2, 2, 12);
    st_step_result r;
    st_err err = {0};
    ck_assert_int_eq(st_step_run(x4, &w, 4, &r, NULL, &err), ST_EINVAL);
    ck_assert_str_eq(err.msg, "workload 'step-test': global_batch (12) must be a multiple of "
                              "dp*microbatch = 8");
    w.parallel.virtual_stages = 2;
    ck_assert_int_eq(st_step_run(x4, &w, 2, &r, NULL, &err), ST_EINVAL);
    ck_assert_str_eq(err.msg, "workload 'step-test': interleaving needs micro-batches per step "
                              "(3) to be a multiple of pp (2)");
}
END_TEST

/* tp 2 with sequence parallelism and no TP overlap: full recompute repeats the layer's two
 * forward TP pairs (two all-gathers, two reduce-scatters), recompute_modules [mlp] the dense
 * MLP's one, so it adds half what full recompute adds to the TP time. */
START_TEST(test_mlp_recompute_repeats_the_mlp_tp_pair)
{
    st_workload_cfg w = training(&m16, 2, 1, 16, 16);
    w.parallel.sequence_parallel = 1;
    w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
    double sel = step(x4, &w, 1).b.tp_comm_s;
    w.parallel.recompute_modules = 1u << ST_RCM_MLP;
    double mlp = step(x4, &w, 1).b.tp_comm_s;
    w.parallel.recompute_modules = 0;
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    double full = step(x4, &w, 1).b.tp_comm_s;
    ck_assert_double_gt(mlp, sel);
    ASSERT_REL(mlp - sel, (full - sel) / 2, 1e-9);
}
END_TEST

Suite *step_suite(void)
{
    Suite *s = suite_create("step");
    TCase *tc = tcase_create("step");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dp_traffic_across_a_4_to_1_spine_makes_the_step_longer);
    tcase_add_test(tc, test_mlp_recompute_repeats_the_mlp_tp_pair);
    tcase_add_test(tc, test_a_step_placed_across_two_oversubscribed_leaves_is_slower);
    tcase_add_test(tc, test_each_distinct_placement_is_kept_once_and_found_again);
    tcase_add_test(tc, test_overlapping_the_gradient_reduction_never_lengthens_the_step);
    tcase_add_test(tc, test_overlapping_the_parameter_gather_never_lengthens_an_aligned_step);
    tcase_add_test(tc, test_unaligned_parameter_gathers_add_up_over_the_stages);
    tcase_add_test(tc, test_tied_embeddings_on_a_pipeline_add_one_embedding_all_reduce);
    tcase_add_test(tc, test_all_reducing_sharded_gradients_costs_more_than_reduce_scatter);
    tcase_add_test(tc, test_separate_gradient_accumulation_adds_a_pass_per_micro_batch);
    tcase_add_test(tc, test_auto_microbatch_picks_a_size_that_fits_and_none_that_fits_is_faster);
    tcase_add_test(tc, test_breakdown_parts_add_up_to_the_step);
    tcase_add_test(tc, test_mfu_is_model_flops_over_step_time_and_peak_and_hfu_adds_recomputation);
    tcase_add_test(tc, test_a_single_gpu_step_is_m_forward_backward_passes_plus_the_optimizer);
    tcase_add_test(tc, test_pipeline_bubble_is_about_p_minus_1_over_m_plus_p_minus_1);
    tcase_add_test(tc, test_same_plan_gives_the_same_step_to_the_last_bit_memoised_or_fresh);
    tcase_add_test(tc, test_counts_sharing_a_memo_simulate_each_pattern_once_and_step_the_same);
    tcase_add_test(tc, test_gpu_types_alike_in_collectives_share_a_memo);
    tcase_add_test(tc, test_skipping_the_closed_form_changes_nothing_else);
    tcase_add_test(tc, test_offload_copies_show_only_when_the_host_link_is_slow);
    tcase_add_test(tc, test_sequence_parallel_tp_traffic_is_five_quarters_of_all_reduce);
    tcase_add_test(tc, test_tp_overlap_hides_tp_traffic_behind_the_gemms_and_no_more);
    tcase_add_test(tc, test_cp_overlap_hides_the_ring_behind_the_attention);
    tcase_add_test(tc, test_fp8_all_gathers_move_half_the_tp_traffic);
    tcase_add_test(tc, test_recomputation_never_shortens_the_step_and_full_costs_most);
    tcase_add_test(tc, test_zero3_over_data_parallel_ranks_is_slower_than_zero1);
    tcase_add_test(tc, test_prefetching_zero3_gathers_hides_part_of_them);
    tcase_add_test(tc, test_fp8_weights_halve_the_weight_gathers);
    tcase_add_test(tc, test_a_batch_that_does_not_split_is_refused_with_the_plan_rule);
    suite_add_tcase(s, tc);
    return s;
}
