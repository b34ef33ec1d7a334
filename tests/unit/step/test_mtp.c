/* Multi-token prediction (workload mtp_layers) and explicit pipeline layouts
 * (parallel.chunk_layers): the module's operators, its cost on the last chunk, its parameters
 * and activations on the last stage, HFU not MFU, and a layout that makes room for it
 * (docs/models/step-ops.md, "Multi-token prediction"). */
#include <check.h>
#include <string.h>

#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/step/step.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/step/hgx_cluster.h"

static st_workload_cfg llama8b(int64_t pp, int64_t dp)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "mtp";
    w.kind = ST_WL_TRAINING;
    w.attention = ST_ATTN_FLASH;
    w.model = st_catalog_model("llama3-8b");
    w.seq_len = 4096;
    w.global_batch = 8 * dp;
    w.precision = ST_PREC_BF16;
    w.gpus = pp * dp;
    w.parallel = (st_parallel_cfg){.tp = 1,
                                   .cp = 1,
                                   .pp = pp,
                                   .dp = dp,
                                   .ep = 1,
                                   .zero = 1,
                                   .microbatch = 1,
                                   .virtual_stages = 1,
                                   .overlap_grad_reduce = 1,
                                   .overlap_p2p = 1,
                                   .recompute = ST_RECOMPUTE_FULL};
    return w;
}

static double step_of(const st_workload_cfg *w, st_step_result *r)
{
    st_cluster_cfg c = hgx_cluster(1, 1, 1);
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_step_ctx_new(&c, &x, &err), 0);
    ck_assert_int_eq(st_step_run(x, w, w->parallel.microbatch, r, NULL, &err), 0);
    st_step_ctx_free(x);
    return r->step_time_s;
}

START_TEST(test_the_module_s_operators)
{
    st_workload_cfg w = llama8b(1, 8);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_mtp_forward(&w, st_catalog_gpu("h100-sxm"), 1, ops, ST_OPS_MAX);
    ck_assert_uint_eq(n, 7);
    const st_op *proj = &ops[3];
    ck_assert_str_eq(proj->name, "mtp_proj");
    ck_assert_double_eq(proj->m, 4096);      /* the micro-batch's tokens */
    ck_assert_double_eq(proj->n, 4096);      /* h over tp 1 */
    ck_assert_double_eq(proj->k, 2 * 4096);  /* the concatenation */
    ck_assert_str_eq(ops[5].name, "logits"); /* the shared head again */
}
END_TEST

START_TEST(test_a_module_lengthens_the_step_and_fills_the_last_stage)
{
    st_workload_cfg w0 = llama8b(1, 8), w1 = w0;
    w1.mtp_layers = 1;
    st_step_result r0, r1;
    double t0 = step_of(&w0, &r0), t1 = step_of(&w1, &r1);
    /* one layer more of 32 and a second head: more than 1/32, well under a tenth */
    ck_assert(t1 > t0 * (1 + 1.0 / 32) && t1 < t0 * 1.1);
    ck_assert_double_eq_tol(r1.mfu * t1, r0.mfu * t0, 1e-9 * r0.mfu * t0); /* model FLOPs */
    ck_assert(r1.hfu * t1 > r0.hfu * t0);                                  /* the module's */
    st_memory m0, m1;
    st_memory_estimate(&w0, st_catalog_gpu("h100-sxm"), 1, &m0);
    st_memory_estimate(&w1, st_catalog_gpu("h100-sxm"), 1, &m1);
    ck_assert(m1.term[ST_MEM_WEIGHTS] > m0.term[ST_MEM_WEIGHTS]);
    ck_assert(m1.term[ST_MEM_ACTIVATIONS] > m0.term[ST_MEM_ACTIVATIONS]);
}
END_TEST

/* On pp 2 the module lands on the last stage; a layout that gives that stage fewer layers
 * (Megatron's for DeepSeek-V3) brings the step back toward the balanced one. */
START_TEST(test_a_layout_makes_room_for_it)
{
    st_workload_cfg even = llama8b(2, 4), room = even;
    even.mtp_layers = room.mtp_layers = 1;
    static const int64_t layout[2] = {17, 15};
    room.parallel.chunk_layers = layout;
    room.parallel.n_chunk_layers = 2;
    st_step_result a, b;
    ck_assert(step_of(&room, &b) < step_of(&even, &a));
    st_chunk_split s = st_chunk_split_of(32, &room.parallel);
    ck_assert_int_eq(st_chunk_layers(&s, 0), 17);
    ck_assert_int_eq(st_chunk_first_layer(&s, 1), 17);
    ck_assert_int_eq(st_chunk_layers(&s, 1), 15);
}
END_TEST

/* An MoE model's module is an MoE layer: its experts are expert parameters, sharded over the
 * expert-data-parallel group as the layers' are, not over dp x cp. */
START_TEST(test_an_moe_module_s_experts_are_experts)
{
    st_workload_cfg w0 = llama8b(1, 8), w1;
    w0.model = st_catalog_model("qwen3-30b-a3b");
    w0.parallel.ep = 8;
    w1 = w0;
    w1.mtp_layers = 1;
    st_memory m0, m1;
    st_memory_estimate(&w0, st_catalog_gpu("h100-sxm"), 1, &m0);
    st_memory_estimate(&w1, st_catalog_gpu("h100-sxm"), 1, &m1);
    int64_t layers = w0.model->layers;
    ck_assert_double_eq_tol(m1.expert_params_per_gpu,
                            m0.expert_params_per_gpu * (double)(layers + 1) / (double)layers,
                            1e-6 * m0.expert_params_per_gpu);
}
END_TEST

Suite *mtp_suite(void)
{
    Suite *s = suite_create("mtp");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_the_module_s_operators);
    tcase_add_test(tc, test_a_module_lengthens_the_step_and_fills_the_last_stage);
    tcase_add_test(tc, test_a_layout_makes_room_for_it);
    tcase_add_test(tc, test_an_moe_module_s_experts_are_experts);
    suite_add_tcase(s, tc);
    return s;
}
