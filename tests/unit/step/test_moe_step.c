/* Mixture-of-experts layers in the step model: the expert-parallel all-to-alls in the
 * model-parallel time (none at ep 1, four per layer and micro-batch, six under full recompute),
 * and the expert gradients reduced over their own expert-data-parallel group
 * (docs/models/step-model.md, "Mixture of experts"). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/step/step.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/step/hgx_cluster.h"

static st_cluster_cfg cluster(int64_t nodes)
{
    return hgx_cluster(nodes, 2, 1);
}

/* A small Llama-style MoE: 4 layers, 8 experts of width 1024, top 2. */
static st_llm_spec moe_model(void)
{
    st_llm_spec m = {.name = "test-moe",
                     .layers = 4,
                     .hidden = 2048,
                     .heads = 16,
                     .kv_heads = 4,
                     .vocab = 1024, /* the embeddings small beside the experts */
                     .mlp = ST_MLP_SWIGLU,
                     .norm = ST_NORM_RMSNORM,
                     .pos = ST_POS_ROPE,
                     .experts = 8,
                     .experts_per_token = 2,
                     .expert_ffn_hidden = 1024};
    st_llm_fill_defaults(&m);
    return m;
}

static st_workload_cfg training(const st_llm_spec *m, int64_t tp, int64_t dp, int64_t ep)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "moe-step";
    w.kind = ST_WL_TRAINING;
    w.attention = ST_ATTN_FLASH;
    w.model = m;
    w.seq_len = 2048;
    w.global_batch = 4 * dp;
    w.precision = ST_PREC_BF16;
    w.gpus = tp * dp;
    w.parallel = (st_parallel_cfg){.tp = tp,
                                   .cp = 1,
                                   .pp = 1,
                                   .dp = dp,
                                   .ep = ep,
                                   .zero = 1,
                                   .microbatch = 1,
                                   .virtual_stages = 1,
                                   .sequence_parallel = tp > 1,
                                   .overlap_grad_reduce = 1,
                                   .overlap_p2p = 1,
                                   .recompute = ST_RECOMPUTE_NONE};
    return w;
}

static st_step_result step(const st_cluster_cfg *c, const st_workload_cfg *w)
{
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_msg(st_step_ctx_new(c, &x, &err) == 0, "st_step_ctx_new: %s", err.msg);
    st_step_result r;
    int rc = st_step_run(x, w, w->parallel.microbatch, &r, NULL, &err);
    ck_assert_msg(rc == 0, "st_step_run: %s", err.msg);
    st_step_ctx_free(x);
    return r;
}

START_TEST(test_all_to_alls_enter_the_model_parallel_time)
{
    st_cluster_cfg c = cluster(1);
    st_llm_spec m = moe_model();
    st_workload_cfg w1 = training(&m, 1, 8, 1), w8 = training(&m, 1, 8, 8);
    st_step_result r1 = step(&c, &w1), r8 = step(&c, &w8);
    /* tp = cp = 1: only the all-to-alls are model-parallel traffic. */
    ck_assert_double_eq(r1.b.tp_comm_s, 0);
    ck_assert(r8.b.tp_comm_s > 0);
    /* Full recompute runs the forward's two again: 6 per layer against 4. */
    st_workload_cfg f8 = w8;
    f8.parallel.recompute = ST_RECOMPUTE_FULL;
    st_step_result rf = step(&c, &f8);
    ASSERT_REL(rf.b.tp_comm_s, 1.5 * r8.b.tp_comm_s, 1e-9);
    /* MFU counts the same active FLOPs whatever ep. */
    ASSERT_REL(r1.mfu * r1.step_time_s, r8.mfu * r8.step_time_s, 1e-12);
}
END_TEST

/* The combined 1F1B schedule (parallel.ep_comm_overlap) hides the all-to-alls behind the other
 * micro-batch's compute: the step shortens, by no more than the all-to-alls' whole time, and the
 * kernels stay. Across two nodes the all-to-alls are large; 16 micro-batches, all but one paired.
 */
START_TEST(test_ep_overlap_hides_all_to_alls)
{
    st_cluster_cfg c = cluster(2);
    st_llm_spec m = moe_model();
    st_workload_cfg w = training(&m, 1, 16, 16), o = w;
    w.global_batch = o.global_batch = 16 * 16;
    o.parallel.ep_comm_overlap = 1;
    st_step_result rw = step(&c, &w), ro = step(&c, &o);
    ck_assert(rw.b.tp_comm_s > 0);
    ck_assert(ro.step_time_s < rw.step_time_s);
    ck_assert(ro.step_time_s > rw.step_time_s - rw.b.tp_comm_s);
    ck_assert(ro.b.tp_comm_s < rw.b.tp_comm_s);
    ASSERT_REL(ro.b.compute_s, rw.b.compute_s, 1e-6);
}
END_TEST

START_TEST(test_expert_gradients_reduce_over_edp)
{
    /* Gradient reduction after the backward, not overlapped, so all of it is exposed. With
     * ep = dp = 8 the expert-data-parallel group is one GPU: only the dense gradients are
     * reduced, so the exposed DP time falls against ep = 1, where every expert's gradient goes
     * over the 8 ranks: 0.26 of it here, where reducing every local parameter over dp x cp
     * (the experts too) would give 0.34. */
    st_cluster_cfg c = cluster(1);
    st_llm_spec m = moe_model();
    st_workload_cfg w1 = training(&m, 1, 8, 1), w8 = training(&m, 1, 8, 8);
    w1.parallel.overlap_grad_reduce = w8.parallel.overlap_grad_reduce = 0;
    st_step_result r1 = step(&c, &w1), r8 = step(&c, &w8);
    ck_assert(r8.b.dp_comm_exposed_s > 0);
    ck_assert_msg(r8.b.dp_comm_exposed_s < 0.3 * r1.b.dp_comm_exposed_s, "ep 8 %g, ep 1 %g",
                  r8.b.dp_comm_exposed_s, r1.b.dp_comm_exposed_s);
    /* tp = 2, dp = 1, ep = 1: experts are replicated over the two TP ranks (expert tensor
     * parallelism 1), so their gradients are reduced over edp = 2 though dp x cp is 1. */
    st_workload_cfg t = training(&m, 2, 1, 1);
    t.parallel.overlap_grad_reduce = 0;
    ck_assert(step(&c, &t).b.dp_comm_exposed_s > 0);
    /* A dense model there has nothing to reduce. */
    st_llm_spec d = m;
    d.experts = 0, d.experts_per_token = 0, d.expert_ffn_hidden = 0, d.ffn_hidden = 4096;
    t.model = &d;
    ck_assert_double_eq(step(&c, &t).b.dp_comm_exposed_s, 0);
}
END_TEST

/* The routing imbalance's calibration and its evaluation (models/silicon/ops_moe.c,
 * MOE_IMBALANCE_DEFAULT): the Megatron MoE Model Zoo's Qwen3-235B-A22B on 256 H100 (TP 4, PP 8,
 * VPP 4, EP 8, global batch 256) ran 295, 335, 368 and 389 TFLOP/s per GPU with forced balance
 * and 237, 277, 320 and 357 with real dropless routing at 16k, 32k, 64k and 128k tokens (CP 1,
 * 2, 4, 8). The default must give the calibration point's step ratio, and the other three within
 * 1.5%: attention grows with the length and the imbalance's share of the step falls with it. */
START_TEST(test_routing_imbalance_default_matches_model_zoo)
{
    st_cluster_cfg c = hgx_cluster(32, 4, 1);
    const st_llm_spec *m = st_catalog_model("qwen3-235b-a22b");
    ck_assert_ptr_nonnull(m);
    static const double measured[4] = {295.0 / 237, 335.0 / 277, 368.0 / 320, 389.0 / 357};
    for (int i = 0; i < 4; i++) {
        int64_t cp = (int64_t)1 << i;
        st_workload_cfg w = training(m, 4, 256 / (4 * 8 * cp), 8);
        w.seq_len = 16384 * cp;
        w.global_batch = 256;
        w.gpus = 256;
        w.attention = ST_ATTN_CUDNN;
        w.parallel.cp = cp;
        w.parallel.pp = 8;
        w.parallel.virtual_stages = 4;
        w.parallel.sequence_parallel = 1;
        w.parallel.recompute = ST_RECOMPUTE_FULL; /* the plan fits no other way in the model */
        st_workload_cfg forced = w;
        forced.routing_imbalance = 1, forced.routing_imbalance_given = 1;
        double ratio = step(&c, &w).step_time_s / step(&c, &forced).step_time_s;
        ASSERT_REL(ratio, measured[i], i == 0 ? 0.005 : 0.015);
    }
}
END_TEST

Suite *moe_step_suite(void)
{
    Suite *s = suite_create("moe_step");
    TCase *tc = tcase_create("moe_step");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_all_to_alls_enter_the_model_parallel_time);
    tcase_add_test(tc, test_expert_gradients_reduce_over_edp);
    tcase_add_test(tc, test_ep_overlap_hides_all_to_alls);
    tcase_add_test(tc, test_routing_imbalance_default_matches_model_zoo);
    suite_add_tcase(s, tc);
    return s;
}
