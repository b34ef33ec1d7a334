/* Dense first layers in the step model: a pipeline chunk's forward and backward count its dense
 * layers at the dense layer's cost and its MoE layers at the MoE layer's, and only the MoE
 * layers run the expert-parallel all-to-alls (docs/models/step-model.md, "Mixture of
 * experts"). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/step/step.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/step/hgx_cluster.h"

/* 12 layers, the first 4 dense (a 16384-wide SwiGLU MLP), the rest 8 experts of width 1024,
 * top 2. */
static st_llm_spec model(int64_t dense)
{
    st_llm_spec m = {.name = "test-dense-first",
                     .layers = 12,
                     .hidden = 2048,
                     .ffn_hidden = 16384,
                     .heads = 16,
                     .kv_heads = 4,
                     .vocab = 1024,
                     .mlp = ST_MLP_SWIGLU,
                     .norm = ST_NORM_RMSNORM,
                     .pos = ST_POS_ROPE,
                     .experts = 8,
                     .experts_per_token = 2,
                     .expert_ffn_hidden = 1024,
                     .dense_layers = dense};
    st_llm_fill_defaults(&m);
    return m;
}

static st_workload_cfg training(const st_llm_spec *m, int64_t pp, int64_t dp, int64_t ep)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "dense-first-step";
    w.kind = ST_WL_TRAINING;
    w.attention = ST_ATTN_FLASH;
    w.model = m;
    w.seq_len = 2048;
    w.global_batch = 4 * dp;
    w.precision = ST_PREC_BF16;
    w.gpus = pp * dp;
    w.parallel = (st_parallel_cfg){.tp = 1,
                                   .cp = 1,
                                   .pp = pp,
                                   .dp = dp,
                                   .ep = ep,
                                   .zero = 1,
                                   .microbatch = 1,
                                   .virtual_stages = 1,
                                   .overlap_grad_reduce = 1,
                                   .overlap_p2p = 1,
                                   .recompute = ST_RECOMPUTE_NONE};
    return w;
}

static st_step_result step(const st_workload_cfg *w, st_pipe_trace *trace)
{
    st_cluster_cfg c = hgx_cluster(1, 2, 1);
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_msg(st_step_ctx_new(&c, &x, &err) == 0, "st_step_ctx_new: %s", err.msg);
    st_step_result r;
    int rc = st_step_run(x, w, w->parallel.microbatch, &r, trace, &err);
    ck_assert_msg(rc == 0, "st_step_run: %s", err.msg);
    st_step_ctx_free(x);
    return r;
}

#define ASSERT_NEAR(got, want)                                                                     \
    ck_assert_msg(fabs((got) - (want)) <= 3e-9, "%s = %.12g, want %.12g", #got, (double)(got),     \
                  (double)(want))

static double span(const st_pipe_trace *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->spans[i].name, name) == 0)
            return t->spans[i].dur_s;
    ck_abort_msg("no span '%s'", name);
    return 0;
}

START_TEST(test_chunk_costs_by_layer_kind)
{
    /* pp 4, dp 2, ep 1, tp 1: no model-parallel collectives. Chunks of 3 layers: chunk 0 the
     * dense layers 0-2 (and the embedding), chunk 1 dense layer 3 and MoE layers 4-5, chunk 2
     * MoE layers 6-8. Chunk 1's forward exceeds chunk 2's by one dense layer's less one MoE
     * layer's. */
    st_llm_spec m = model(4);
    st_workload_cfg w = training(&m, 4, 2, 1);
    st_pipe_trace t = {0};
    step(&w, &t);
    st_layer_cost dc, mc;
    const st_gpu_spec *gpu = st_catalog_gpu("h100-sxm");
    st_ops_layer_cost_kind(&w, gpu, 1, 1, &dc);
    st_ops_layer_cost_kind(&w, gpu, 1, 0, &mc);
    ck_assert(dc.fwd_s > mc.fwd_s);
    /* The engine's spans are whole nanoseconds. */
    ASSERT_NEAR(span(&t, "F 0.1") - span(&t, "F 0.2"), dc.fwd_s - mc.fwd_s);
    ASSERT_NEAR(span(&t, "B 0.1") - span(&t, "B 0.2"), dc.bwd_s - mc.bwd_s);
    /* Chunk 0: three dense layers and the embedding, against chunk 2's three MoE layers. */
    ck_assert(span(&t, "F 0.0") - span(&t, "F 0.2") >= 3 * (dc.fwd_s - mc.fwd_s) * (1 - 1e-6));
    st_pipe_trace_release(&t);
}
END_TEST

START_TEST(test_all_to_alls_only_in_moe_layers)
{
    /* pp 1, tp 1, ep 8: the model-parallel time is the all-to-alls alone, so with 4 of 12
     * layers dense it is 8/12 of the all-MoE model's. */
    st_llm_spec m0 = model(0), m4 = model(4);
    st_workload_cfg w0 = training(&m0, 1, 8, 8), w4 = training(&m4, 1, 8, 8);
    st_step_result r0 = step(&w0, NULL), r4 = step(&w4, NULL);
    ck_assert(r0.b.tp_comm_s > 0);
    ASSERT_REL(r4.b.tp_comm_s, r0.b.tp_comm_s * 8.0 / 12.0, 1e-9);
}
END_TEST

START_TEST(test_zero3_units_by_layer_kind)
{
    /* ZeRO-3 over dp 2, gathers on demand: each layer's forward waits for its own unit's
     * all-gather, so chunk 1's forward exceeds chunk 2's by the kernels' difference plus the
     * gather of a dense layer's parameters (its 16384-wide MLP, 111.2M) less an MoE layer's
     * (attention, router and 8 experts: 60.8M): more than the kernels' difference alone. */
    st_llm_spec m = model(4);
    st_workload_cfg w = training(&m, 4, 2, 1);
    w.parallel.zero = 3;
    st_pipe_trace t = {0};
    step(&w, &t);
    st_layer_cost dc, mc;
    const st_gpu_spec *gpu = st_catalog_gpu("h100-sxm");
    st_ops_layer_cost_kind(&w, gpu, 1, 1, &dc);
    st_ops_layer_cost_kind(&w, gpu, 1, 0, &mc);
    double kernels = dc.fwd_s - mc.fwd_s, got = span(&t, "F 0.1") - span(&t, "F 0.2");
    ck_assert_msg(got > kernels + 1e-6, "chunk 1 - chunk 2 forward %g, kernels %g", got, kernels);
    st_pipe_trace_release(&t);
}
END_TEST

Suite *dense_layers_step_suite(void)
{
    Suite *s = suite_create("dense_layers_step");
    TCase *tc = tcase_create("dense_layers_step");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_chunk_costs_by_layer_kind);
    tcase_add_test(tc, test_all_to_alls_only_in_moe_layers);
    tcase_add_test(tc, test_zero3_units_by_layer_kind);
    suite_add_tcase(s, tc);
    return s;
}
