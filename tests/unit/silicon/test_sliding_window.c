/* Sliding-window attention (sliding_window W, window_every k): the FLOP term by hand on every
 * layer and on alternate layers, the windowed core's time against the full core's below and
 * above the window, and the loader's keys and refusals (docs/models/step-ops.md, "Sliding
 * windows"). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/scenarios/inline_model.h"
#include "unit/silicon/ops_find.h"

/* 4 layers, hidden 1024, 8 heads of 128, a 4096-wide SwiGLU MLP, vocab 1024, no biases. */
static st_llm_spec model(int64_t window, int64_t every, int64_t layers)
{
    st_llm_spec m = {.name = "test-swa",
                     .layers = layers,
                     .hidden = 1024,
                     .ffn_hidden = 4096,
                     .heads = 8,
                     .vocab = 1024,
                     .mlp = ST_MLP_SWIGLU,
                     .norm = ST_NORM_RMSNORM,
                     .pos = ST_POS_ROPE,
                     .sliding_window = window,
                     .window_every = every};
    st_llm_fill_defaults(&m);
    return m;
}

static st_workload_cfg work(const st_llm_spec *m, int64_t seq_len, int64_t cp)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.name = "swa";
    w.model = m;
    w.seq_len = seq_len;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = 1, w.parallel.pp = 1, w.parallel.dp = 1, w.parallel.cp = cp;
    w.parallel.ep = 1, w.parallel.microbatch = 1, w.parallel.virtual_stages = 1;
    w.parallel.recompute = ST_RECOMPUTE_NONE;
    w.global_batch = 1;
    w.gpus = cp;
    return w;
}

/* The attention term's keys per token summed over the layers, from the FLOP count: (flops -
 * 6 N_matmul) / (6 (d_qk + d_v)), d_qk = d_v = 1024. */
static double attn_keys(const st_llm_spec *m, int64_t s)
{
    return (st_llm_flops_per_token(m, s) - 6.0 * st_llm_matmul_params(m)) / (6.0 * 2048.0);
}

START_TEST(test_flops_by_hand)
{
    /* Every layer windowed, W 512 at s 2048: 4 layers x 512 keys. */
    st_llm_spec all = model(512, 1, 4), none = model(0, 0, 4);
    ck_assert_double_eq(attn_keys(&all, 2048), 4.0 * 512);
    ck_assert_double_eq(attn_keys(&none, 2048), 4.0 * 2048);
    /* Alternating from the first layer: layers 0 and 2 windowed, 1 and 3 full. */
    st_llm_spec alt = model(512, 2, 4);
    ck_assert_int_eq(st_llm_window_layers(&alt), 2);
    ck_assert_double_eq(attn_keys(&alt, 2048), 2.0 * 512 + 2.0 * 2048);
    /* An odd count: layers 0, 2, 4 of 5. */
    st_llm_spec odd = model(512, 2, 5);
    ck_assert_int_eq(st_llm_window_layers(&odd), 3);
    ck_assert_double_eq(attn_keys(&odd, 2048), 3.0 * 512 + 2.0 * 2048);
    /* A window as long as the sequence or longer changes nothing. */
    ck_assert_double_eq(st_llm_flops_per_token(&all, 512), st_llm_flops_per_token(&none, 512));
    ck_assert_double_eq(st_llm_flops_per_token(&alt, 256), st_llm_flops_per_token(&none, 256));
    /* The matmuls do not depend on the window. */
    ck_assert_double_eq(st_llm_matmul_params(&all), st_llm_matmul_params(&none));
}
END_TEST

/* The attention core's operator of one layer at seq_len s, CP cp. */
static st_op core(const st_llm_spec *m, int64_t s, int64_t cp)
{
    st_workload_cfg w = work(m, s, cp);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, st_catalog_gpu("h100-sxm"), 1, ops, ST_OPS_MAX);
    return *find_op(ops, n, "attn");
}

static double bwd(const st_llm_spec *m, int64_t s, const st_op *op)
{
    st_workload_cfg w = work(m, s, 1);
    return st_ops_backward_time(&w, st_catalog_gpu("h100-sxm"), op);
}

START_TEST(test_windowed_core_time)
{
    st_llm_spec all = model(1024, 1, 4), alt = model(1024, 2, 4), none = model(0, 0, 4);
    /* s 8192 > W: less work, so less time, forward and backward; same bytes. */
    st_op f = core(&none, 8192, 1), a = core(&all, 8192, 1), h = core(&alt, 8192, 1);
    ck_assert_msg(a.time_s < 0.5 * f.time_s, "windowed %g vs full %g", a.time_s, f.time_s);
    ck_assert_double_lt(bwd(&all, 8192, &a), bwd(&none, 8192, &f));
    ck_assert_double_eq(a.bytes, f.bytes);
    /* Work: the first 1024 keys' triangle, then 1024 keys a query (1024^2/2 + 7168 x 1024
     * pairs, 2 x 2048 FLOPs a pair); model FLOPs count 8192 x 1024 pairs. */
    ck_assert_double_eq(a.win_work, 2.0 * 2048 * (1024.0 * 1024 / 2 + 7168.0 * 1024));
    ck_assert_double_eq(a.flops, 2.0 * 8192 * 1024 * 2048);
    /* Alternate layers: the mean of the two, flops and time. */
    ck_assert_double_eq(h.flops, (a.flops + f.flops) / 2);
    ck_assert_double_eq_tol(h.time_s, (a.time_s + f.time_s) / 2, 1e-12 * f.time_s);
    /* s 1024 <= W: the same core as without a window. */
    st_op f1 = core(&none, 1024, 1), a1 = core(&all, 1024, 1);
    ck_assert_double_eq_tol(a1.time_s, f1.time_s, 1e-12 * f1.time_s);
    ck_assert_double_eq_tol(bwd(&all, 1024, &a1), bwd(&none, 1024, &f1), 1e-12 * f1.time_s);
    ck_assert_double_eq(a1.flops, f1.flops);
    /* CP 2 shares the window's work like the full core's: half of it on each rank. */
    st_op a2 = core(&all, 8192, 2);
    ck_assert_double_eq(a2.win_work, a.win_work / 2);
}
END_TEST

START_TEST(test_graph_flops_equal_flops_per_token)
{
    /* Alternate layers over 5 (3 windowed): the mean core's FLOPs times the layers, with the
     * rest of the layer and the logits GEMM, are a third of the model FLOPs. */
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    st_llm_spec m = model(512, 2, 5);
    st_workload_cfg w = work(&m, 2048, 1);
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(&w, g, 1, ops, ST_OPS_MAX);
    double fwd = 0.0;
    for (size_t i = 0; i < n; i++)
        fwd += ops[i].flops;
    fwd *= 5;
    n = st_ops_head_forward(&w, g, 1, ops, ST_OPS_MAX);
    fwd += find_op(ops, n, "logits")->flops;
    ASSERT_REL(3 * fwd / 2048, st_llm_flops_per_token(&m, 2048), 1e-12);
}
END_TEST

/* The loader's verdict on a one-workload scenario: its first error, "" when none. */
static void load(const char *model, const char *attention, char *err, size_t cap)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 1 }\nworkloads:\n"
             "  - { model: %s, gpus: 8, parallel: { dp: 8 }, attention: %s }\n",
             model, attention);
    st_scn *s = NULL;
    st_diag d;
    memset(&d, 0, sizeof d);
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d);
    err[0] = 0;
    if (d.n)
        st_err_format(&d.items[0], err, cap);
    st_scn_free(s);
}

#define SWA_MAP "layers: 4, hidden: 1024, heads: 8, mlp: swiglu"

START_TEST(test_loader_reads_and_checks_the_keys)
{
    char err[512];
    st_llm_spec m;
    ck_assert(load_inline_model("{ " SWA_MAP ", sliding_window: 128, window_every: 2 }", &m, err,
                                sizeof err));
    ck_assert_int_eq(m.sliding_window, 128);
    ck_assert_int_eq(m.window_every, 2);
    ck_assert(!load_inline_model("{ " SWA_MAP ", window_every: 2 }", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "'window_every' needs 'sliding_window'") != NULL, "%s", err);
    ck_assert(!load_inline_model("{ " SWA_MAP ", sliding_window: 64, window_every: 5 }", &m, err,
                                 sizeof err));
    ck_assert_msg(strstr(err, "window_every (5) must be at most layers (4)") != NULL, "%s", err);
    ck_assert(!load_inline_model("{ " SWA_MAP ", sliding_window: -1 }", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "sliding_window") != NULL, "%s", err);
    load("{ " SWA_MAP ", sliding_window: 128 }", "unfused", err, sizeof err);
    ck_assert_msg(strstr(err, "t.yaml:4:") &&
                      strstr(err, "attention: unfused cannot run a sliding window"),
                  "%s", err);
    load("{ " SWA_MAP ", sliding_window: 128 }", "flash", err, sizeof err);
    ck_assert_str_eq(err, "");
    load("{ " SWA_MAP " }", "unfused", err, sizeof err);
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_gpt_oss_120b_counts_match_published)
{
    /* OpenAI's gpt-oss model card (arXiv 2508.10925) Table 1: 116.83B total, 5.13B active. The
     * card's active count matches Strata's active count without the input embedding lookup
     * (vocab x hidden): embeddings, the 4 routed experts a token visits, attention, router and
     * norms, and the unembedding. */
    const st_llm_spec *m = st_catalog_model("gpt-oss-120b");
    ck_assert_ptr_nonnull(m);
    double total = st_llm_params(m, 4096);
    double active = st_llm_active_params(m, 4096) - 201088.0 * 2880.0;
    ck_assert_msg(fabs(total / 116.83e9 - 1) < 0.01, "total %.4g", total);
    ck_assert_msg(fabs(active / 5.13e9 - 1) < 0.01, "active %.4g", active);
    /* The figures docs/guide/catalog.md and memory-model.md quote, to their last digit. */
    ck_assert_msg(fabs(total / 1e9 - 116.83) < 0.005, "total %.5g", total);
    ck_assert_msg(fabs(active / 1e9 - 5.13) < 0.005, "active %.4g", active);
    double both = st_llm_active_params(m, 4096);
    ck_assert_msg(fabs(both / 1e9 - 5.71) < 0.005, "active with both tables %.4g", both);
    /* Layers 0, 2, ..., 34 have the 128-token window: 18 of 36. */
    ck_assert_int_eq(st_llm_window_layers(m), 18);
    ck_assert_int_eq(st_llm_window_keys(m, 4096), 128);
    /* Biases on every routed expert's two projections and on the router. */
    ck_assert_double_eq(st_llm_expert_params(m), 2880.0 * 5760 + 2880.0 * 2880 + 5760 + 2880);
    ck_assert_double_eq(st_llm_router_params(m), 2880.0 * 128 + 128);
}
END_TEST

Suite *sliding_window_suite(void)
{
    Suite *s = suite_create("sliding_window");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_flops_by_hand);
    tcase_add_test(tc, test_windowed_core_time);
    tcase_add_test(tc, test_graph_flops_equal_flops_per_token);
    tcase_add_test(tc, test_loader_reads_and_checks_the_keys);
    tcase_add_test(tc, test_gpt_oss_120b_counts_match_published);
    suite_add_tcase(s, tc);
    return s;
}
