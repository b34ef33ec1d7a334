/* Selective recompute of named modules (parallel.recompute_modules, Megatron-Core's
 * recompute_modules): the default is the attention core; each module repeats its own operators
 * in backward, adds its collectives and leaves its tensors out of the stored activations
 * (docs/models/memory-model.md and step-ops.md); the plan check refuses a list that means
 * nothing for the plan or the model. */
#include <check.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/silicon/plan_check.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"
#include "unit/silicon/ops_find.h"

static const st_gpu_spec *h100(void)
{
    const st_gpu_spec *g = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(g);
    return g;
}

static const st_llm_spec *model(const char *name)
{
    const st_llm_spec *m = st_catalog_model(name);
    ck_assert_ptr_nonnull(m);
    return m;
}

/* `m` at seq 4096 on tp x 8 GPUs (ep 8 for an MoE model), BF16, flash attention, ZeRO 1, one
 * micro-batch, balanced routing, selective recompute of `mods` (0: the default). */
static st_workload_cfg work(const st_llm_spec *m, int64_t tp, unsigned mods)
{
    st_workload_cfg w;
    memset(&w, 0, sizeof w);
    w.routing_imbalance = 1, w.routing_imbalance_given = 1;
    w.name = "rcm";
    w.model = m;
    w.seq_len = 4096;
    w.precision = ST_PREC_BF16;
    w.attention = ST_ATTN_FLASH;
    w.parallel.tp = tp, w.parallel.pp = 1, w.parallel.dp = 8, w.parallel.cp = 1;
    w.parallel.sequence_parallel = tp > 1;
    w.parallel.ep = m->experts > 0 ? 8 : 1, w.parallel.zero = 1, w.parallel.microbatch = 1;
    w.parallel.virtual_stages = 1, w.parallel.recompute = ST_RECOMPUTE_SELECTIVE;
    w.parallel.recompute_modules = mods;
    w.global_batch = 8;
    w.gpus = tp * 8;
    return w;
}

#define BIT(m) (1u << (m))

/* The forward time of the layer's operators named in `names` (NULL-terminated). */
static double ops_time(const st_workload_cfg *w, const char *const *names)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(w, h100(), 1, ops, ST_OPS_MAX);
    double t = 0.0;
    for (; *names; names++)
        t += find_op(ops, n, *names)->time_s;
    return t;
}

static st_layer_cost cost(const st_workload_cfg *w)
{
    st_layer_cost lc;
    st_ops_layer_cost(w, h100(), 1, &lc);
    return lc;
}

START_TEST(test_default_is_the_attention_core)
{
    const st_llm_spec *m = model("qwen2-57b-a14b");
    st_workload_cfg d = work(m, 2, 0), e = work(m, 2, BIT(ST_RCM_CORE_ATTN));
    st_layer_cost a = cost(&d), b = cost(&e);
    ck_assert_double_eq(a.recompute_s, b.recompute_s);
    ck_assert_double_eq(a.recompute_s, ops_time(&d, (const char *const[]){"attn", NULL}));
    ck_assert_double_eq(st_memory_layer_activations(&d, 1), st_memory_layer_activations(&e, 1));
    ck_assert_int_eq(a.tp_colls_recompute, 0);
    ck_assert_int_eq(a.ep_a2a_recompute, 0);
}
END_TEST

START_TEST(test_each_module_repeats_its_operators)
{
    /* DeepSeek-V3: MLA, an MoE layer with one shared expert, at tp 1 and ep 8 */
    const st_llm_spec *m = model("deepseek-v3");
    struct {
        unsigned mods;
        const char *const *ops;
        int a2a;
    } cases[] = {
        {BIT(ST_RCM_MLA_UP_PROJ),
         (const char *const[]){"q_norm", "q_up", "kv_norm", "kv_up", "rope", NULL}, 0},
        {BIT(ST_RCM_LAYERNORM), (const char *const[]){"norm1", "norm2", NULL}, 0},
        {BIT(ST_RCM_MOE_ACT), (const char *const[]){"expert_act", NULL}, 0},
        {BIT(ST_RCM_SHARED_EXPERTS),
         (const char *const[]){"shared_fc1", "shared_act", "shared_fc2", NULL}, 0},
        {BIT(ST_RCM_MOE),
         (const char *const[]){"shared_fc1", "shared_act", "shared_fc2", "router", "router_topk",
                               "permute", "sort_chunks", "expert_fc1", "expert_act", "expert_fc2",
                               "unsort_chunks", "unpermute", NULL},
         2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st_workload_cfg w = work(m, 1, cases[i].mods);
        st_layer_cost lc = cost(&w);
        ASSERT_REL(lc.recompute_s, ops_time(&w, cases[i].ops), 1e-12);
        ck_assert_int_eq(lc.ep_a2a_recompute, cases[i].a2a);
        ck_assert(lc.recompute_s > 0 && lc.recompute_s < lc.fwd_s);
    }
}
END_TEST

START_TEST(test_memory_leaves_out_what_each_module_discards)
{
    /* tp 1, BF16: mla_up_proj drops Q, K, V (2sb each width) and the latent norms' outputs
     * (2sb per latent channel); moe_act the experts' fc2 input, 2 k sb f_e under balanced
     * routing; the attention core kept (its log-sum-exp stays stored). */
    const st_llm_spec *m = model("deepseek-v3");
    st_workload_cfg none = work(m, 1, 0);
    none.parallel.recompute = ST_RECOMPUTE_NONE;
    double base = st_memory_layer_activations(&none, 1), sb = 4096.0;
    st_workload_cfg up = work(m, 1, BIT(ST_RCM_MLA_UP_PROJ));
    double qkv = (double)(st_llm_attn_width(m) + st_llm_kv_width(m) + st_llm_v_width(m));
    double lat = (double)(m->q_lora_rank + m->kv_lora_rank);
    ASSERT_REL(base - st_memory_layer_activations(&up, 1), sb * (2.0 * qkv + 2.0 * lat), 1e-12);
    st_workload_cfg act = work(m, 1, BIT(ST_RCM_MOE_ACT));
    ASSERT_REL(base - st_memory_layer_activations(&act, 1),
               2.0 * (double)m->experts_per_token * sb * (double)m->expert_ffn_hidden, 1e-12);
    /* moe drops more than its parts */
    st_workload_cfg all = work(m, 1, BIT(ST_RCM_MOE));
    st_workload_cfg parts = work(m, 1, BIT(ST_RCM_MOE_ACT) | BIT(ST_RCM_SHARED_EXPERTS));
    ck_assert(st_memory_layer_activations(&all, 1) < st_memory_layer_activations(&parts, 1));
}
END_TEST

START_TEST(test_fp8_and_sequence_parallel_terms)
{
    /* Under FP8 (current scaling) layernorm frees the byte counted for each separate norm's
     * output, MLA's input norm and the MoE layer's pre-MLP norm: Megatron-Core then has the
     * linear layers after them keep the norm's output, not an FP8 copy. */
    const st_llm_spec *m = model("deepseek-v3");
    st_workload_cfg none = work(m, 1, 0), norm = work(m, 1, BIT(ST_RCM_LAYERNORM));
    none.parallel.recompute = ST_RECOMPUTE_NONE;
    none.precision = norm.precision = ST_PREC_FP8;
    none.fp8_recipe = norm.fp8_recipe = ST_FP8_CURRENT;
    double sb = 4096.0, h = (double)m->hidden;
    ASSERT_REL(st_memory_layer_activations(&none, 1) - st_memory_layer_activations(&norm, 1),
               2.0 * sb * h, 1e-12);
    /* tp 2 with sequence parallelism: Q, K, V split over tp, the latents over the shards */
    st_workload_cfg n2 = work(m, 2, 0), up2 = work(m, 2, BIT(ST_RCM_MLA_UP_PROJ));
    n2.parallel.recompute = ST_RECOMPUTE_NONE;
    double qkv = (double)(st_llm_attn_width(m) + st_llm_kv_width(m) + st_llm_v_width(m));
    double lat = (double)(m->q_lora_rank + m->kv_lora_rank);
    ASSERT_REL(st_memory_layer_activations(&n2, 1) - st_memory_layer_activations(&up2, 1),
               (2.0 * sb * qkv + 2.0 * sb * lat) / 2.0, 1e-12);
}
END_TEST

START_TEST(test_dense_mlp_repeats_its_tp_pair)
{
    /* A dense model at tp 2 with sequence parallelism: mlp repeats norm2 (fused into fc1),
     * fc1, act and fc2, and their forward all-gather and reduce-scatter. */
    const st_llm_spec *m = model("llama3-8b");
    st_workload_cfg w = work(m, 2, BIT(ST_RCM_MLP));
    st_layer_cost lc = cost(&w);
    ASSERT_REL(lc.recompute_s,
               ops_time(&w, (const char *const[]){"norm2", "fc1", "act", "fc2", NULL}), 1e-12);
    ck_assert_int_eq(lc.tp_colls_recompute, 2);
    ck_assert_int_eq(lc.tp_ag_recompute, 1);
    st_workload_cfg core = work(m, 2, 0);
    ck_assert(st_memory_layer_activations(&w, 1) <
              st_memory_layer_activations(&core, 1) - 4096.0 * 14336.0 * 6.0 / 2.0 * 0.99);
}
END_TEST

START_TEST(test_plan_check_refuses_what_means_nothing)
{
    st_cluster_cfg c = {.nodes = 8, .gpus_per_node = 8};
    st_plan_issue is[4];
    st_workload_cfg w = work(model("llama3-8b"), 1, BIT(ST_RCM_MOE_ACT));
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "no mixture-of-experts layers") != NULL, "%s", is[0].msg);
    w = work(model("llama3-8b"), 1, BIT(ST_RCM_LAYERNORM));
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "LayerNormLinear") != NULL, "%s", is[0].msg);
    w = work(model("deepseek-v3"), 1, BIT(ST_RCM_MOE) | BIT(ST_RCM_MOE_ACT));
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "whole MoE layer") != NULL, "%s", is[0].msg);
    w = work(model("deepseek-v3"), 1, BIT(ST_RCM_MLA_UP_PROJ) | BIT(ST_RCM_MLP));
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 0); /* its 3 dense layers have an MLP */
    w.parallel.recompute = ST_RECOMPUTE_FULL;
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "needs recompute: selective") != NULL, "%s", is[0].msg);
    /* Megatron-Core refuses moe_act and layernorm under FP8 with delayed scaling */
    w = work(model("deepseek-v3"), 1, BIT(ST_RCM_MOE_ACT));
    w.precision = ST_PREC_FP8, w.fp8_recipe = ST_FP8_DELAYED;
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 1);
    ck_assert_msg(strstr(is[0].msg, "delayed scaling") != NULL, "%s", is[0].msg);
    w.fp8_recipe = ST_FP8_CURRENT;
    ck_assert_int_eq(st_plan_check(&w, &c, is, 4), 0);
}
END_TEST

Suite *recompute_modules_suite(void)
{
    Suite *s = suite_create("recompute_modules");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_default_is_the_attention_core);
    tcase_add_test(tc, test_each_module_repeats_its_operators);
    tcase_add_test(tc, test_memory_leaves_out_what_each_module_discards);
    tcase_add_test(tc, test_fp8_and_sequence_parallel_terms);
    tcase_add_test(tc, test_dense_mlp_repeats_its_tp_pair);
    tcase_add_test(tc, test_plan_check_refuses_what_means_nothing);
    suite_add_tcase(s, tc);
    return s;
}
