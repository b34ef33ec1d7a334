/* Parameter counts and model FLOPs per token against the published figures: every catalog
 * model's stated size, exact counts from model cards, Megatron SC21 eq. 2-3, PaLM's
 * 6N + 12LHQT, and the model-FLOP rates NeMo and llm-foundry publish. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"

static const st_llm_spec *model(const char *name)
{
    const st_llm_spec *m = st_catalog_model(name);
    ck_assert_msg(m != NULL, "no preset '%s'", name);
    return m;
}

START_TEST(test_every_catalog_model_is_within_1pct_of_its_published_count)
{
    const st_llm_spec *m = st_catalog_model_at((size_t)_i);
    ASSERT_REL(st_llm_params(m, 2048), m->published_params, 0.01);
}
END_TEST

/* Counts printed in model cards and benchmark tables, reproduced to the parameter. */
START_TEST(test_exact_counts_match_model_cards)
{
    ck_assert_double_eq(st_llm_params(model("llama3-8b"), 8192), 8030261248.0);
    ck_assert_double_eq(st_llm_params(model("llama3-70b"), 8192), 70553706496.0);
    ck_assert_double_eq(st_llm_params(model("llama3-405b"), 8192), 405853388800.0);
    ck_assert_double_eq(st_llm_params(model("llama2-7b"), 4096), 6738415616.0);
    ck_assert_double_eq(st_llm_params(model("llama2-13b"), 4096), 13015864320.0);
    ck_assert_double_eq(st_llm_params(model("llama2-70b"), 4096), 68976648192.0);
    ck_assert_double_eq(st_llm_params(model("bloom-176b"), 2048), 176247271424.0);
    ck_assert_double_eq(st_llm_params(model("gpt-neox-20b"), 2048), 20554567680.0);
    /* llm-foundry's NumParams grow with seq_len: the learned position table has seq_len rows. */
    ck_assert_double_eq(st_llm_params(model("mpt-7b"), 2048), 6658859008.0);
    ck_assert_double_eq(st_llm_params(model("mpt-7b"), 32768), 6784688128.0);
    ck_assert_double_eq(st_llm_params(model("mpt-13b"), 32768), 13011240960.0);
    ck_assert_double_eq(st_llm_params(model("mpt-30b"), 8192), 30019254272.0);
    ck_assert_double_eq(st_llm_params(model("mpt-70b"), 2048), 64862437376.0);
}
END_TEST

/* SC21 eq. 2: P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)), which leaves out the final
 * LayerNorm (2h); SC21 Table 2 prints 174.6B and 529.6B. */
START_TEST(test_gpt_counts_follow_megatron_eq2)
{
    static const char *const names[] = {"gpt-22b", "gpt3-175b", "gpt-145b", "gpt-530b", "gpt-1t"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const st_llm_spec *m = model(names[i]);
        double l = (double)m->layers, h = (double)m->hidden, v = (double)m->vocab, s = 2048;
        double p = 12 * l * h * h * (1 + 13 / (12 * h) + (v + s) / (12 * l * h));
        ASSERT_REL(st_llm_params(m, 2048) - 2 * h, p, 1e-12);
    }
    ASSERT_REL(st_llm_params(model("gpt3-175b"), 2048), 174.6e9, 5e-4);
    ASSERT_REL(st_llm_params(model("gpt-530b"), 2048), 529.6e9, 5e-4);
}
END_TEST

/* SC21 eq. 3 counts 96 B s l h^2 (1 + s/6h + V/16lh) per iteration with one recompute
 * forward; model FLOPs alone are 72 B s l h^2 (1 + s/6h + V/12lh). */
START_TEST(test_gpt_flops_follow_megatron_eq3)
{
    static const char *const names[] = {"gpt-22b", "gpt3-175b", "gpt-145b", "gpt-530b", "gpt-1t"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const st_llm_spec *m = model(names[i]);
        double l = (double)m->layers, h = (double)m->hidden, v = (double)m->vocab;
        double s = 2048, bs = 1536 * s; /* B = 1536 sequences, as in SC21 Table 2 */
        double model_f = 72 * bs * l * h * h * (1 + s / (6 * h) + v / (12 * l * h));
        double hw_f = 96 * bs * l * h * h * (1 + s / (6 * h) + v / (16 * l * h));
        double per_token = st_llm_flops_per_token(m, 2048);
        ASSERT_REL(per_token * bs, model_f, 1e-9);
        /* The recompute forward repeats the layers (a third of their 3x) but not the output
         * layer's 6Vh: that is the 16 against 12 in the V term. */
        double out = 6 * v * h;
        ASSERT_REL(bs * ((per_token - out) * 4.0 / 3.0 + out), hw_f, 1e-9);
    }
}
END_TEST

/* PaLM Appendix B: 6N + 12 L H Q T, N the parameter count. For tied embeddings N counts the
 * output projection once, as our matmul count does; the rest (norms, biases, positions) is
 * well under 1%. */
START_TEST(test_flops_match_palm_convention_for_tied_models)
{
    static const struct {
        const char *name;
        int64_t seq;
    } cases[] = {{"gpt3-175b", 2048}, {"gpt-530b", 2048}, {"bloom-176b", 2048},
                 {"palm-540b", 2048}, {"mpt-7b", 2048},   {"opt-175b", 2048}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const st_llm_spec *m = model(cases[i].name);
        double n = st_llm_params(m, cases[i].seq);
        double hq = (double)st_llm_attn_width(m);
        double palm = 6 * n + 12 * (double)m->layers * hq * (double)cases[i].seq;
        ASSERT_REL(st_llm_flops_per_token(m, cases[i].seq), palm, 0.01);
    }
}
END_TEST

/* Published model-FLOP rates divided by token rates: NeMo performance summaries (model
 * TFLOP/s per GPU over tokens/s per GPU) and llm-foundry's benchmark table (Model TFLOP over
 * tokens/s per GPU), from NeMo's performance summary and llm-foundry's benchmark table. */
START_TEST(test_flops_match_nemo_and_llm_foundry_rates)
{
    static const struct {
        const char *name;
        int64_t seq;
        double tflops, tokens;
    } rows[] = {
        {"llama3-8b", 8192, 711, 12273},   /* NeMo 24.12 */
        {"llama3-70b", 8192, 734, 1524},   /* NeMo 24.12 */
        {"llama3-405b", 8192, 1854, 706},  /* NeMo 25.07 GB200 */
        {"gpt3-175b", 2048, 932, 866},     /* NeMo 25.02 DGX-H100 */
        {"mpt-7b", 2048, 459.5096, 10643}, /* llm-foundry H100 BF16, 8 GPUs */
        {"mpt-30b", 2048, 434.6371, 2308}, /* llm-foundry H100 BF16, 32 GPUs */
        {"mpt-70b", 2048, 421.2583, 1039}, /* llm-foundry H100 BF16, 64 GPUs */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const st_llm_spec *m = model(rows[i].name);
        ASSERT_REL(st_llm_flops_per_token(m, rows[i].seq), rows[i].tflops * 1e12 / rows[i].tokens,
                   0.01);
    }
}
END_TEST

START_TEST(test_untied_input_embedding_costs_no_flops)
{
    st_llm_spec m = *model("llama3-8b");
    double untied = st_llm_flops_per_token(&m, 4096);
    m.tied_embeddings = 1;
    ck_assert_double_eq(st_llm_flops_per_token(&m, 4096), untied);
    ck_assert_double_lt(st_llm_params(&m, 4096), st_llm_params(model("llama3-8b"), 4096));
}
END_TEST

START_TEST(test_grouped_query_attention_shrinks_k_and_v)
{
    st_llm_spec m = *model("llama3-70b");
    double gqa = st_llm_layer_params(&m);
    m.kv_heads = m.heads;
    double h = (double)m.hidden, d_kv = 8.0 * 128; /* 8 K/V heads of 128 */
    ck_assert_double_eq(st_llm_layer_params(&m) - gqa, 2 * h * (h - d_kv));
}
END_TEST

START_TEST(test_palm_heads_are_wider_than_hidden_over_heads)
{
    const st_llm_spec *m = model("palm-540b");
    ck_assert_int_eq(st_llm_attn_width(m), 48 * 256);
    ck_assert_int_eq(st_llm_kv_width(m), 256);
    ASSERT_REL(st_llm_params(m, 2048), 540.35e9, 1e-4); /* PaLM Table 1: 540.35B */
}
END_TEST

START_TEST(test_fill_defaults_fills_zero_fields_only)
{
    st_llm_spec m;
    memset(&m, 0, sizeof m);
    m.layers = 2, m.hidden = 256, m.heads = 4, m.mlp = ST_MLP_SWIGLU;
    m.norm = ST_NORM_LAYERNORM, m.bias = 1; /* explicit choices the loader made */
    st_llm_fill_defaults(&m);
    ck_assert_int_eq(m.ffn_hidden, 1024);
    ck_assert_int_eq(m.kv_heads, 4);
    ck_assert_int_eq(m.vocab, 51200);
    ck_assert_int_eq(m.head_dim, 64);
    ck_assert_int_eq(m.dropout, ST_DROPOUT_OFF);
    ck_assert_int_eq(m.norm, ST_NORM_LAYERNORM);
    ck_assert_int_eq(m.bias, 1);
    st_llm_fill_defaults(&m); /* idempotent */
    ck_assert_int_eq(m.ffn_hidden, 1024);
    ck_assert_int_eq(m.head_dim, 64);
    ck_assert_int_eq(m.dropout, ST_DROPOUT_OFF);

    memset(&m, 0, sizeof m);
    m.layers = 2, m.hidden = 256, m.heads = 4, m.ffn_hidden = 700, m.kv_heads = 2;
    st_llm_fill_defaults(&m);
    ck_assert_int_eq(m.ffn_hidden, 700);
    ck_assert_int_eq(m.kv_heads, 2);
    ck_assert_int_eq(m.dropout, ST_DROPOUT_ON);
}
END_TEST

START_TEST(test_filled_and_unfilled_specs_count_the_same)
{
    st_llm_spec m;
    memset(&m, 0, sizeof m);
    m.layers = 24, m.hidden = 2048, m.heads = 16, m.bias = 1, m.tied_embeddings = 1;
    double before = st_llm_params(&m, 2048), fl = st_llm_flops_per_token(&m, 2048);
    st_llm_fill_defaults(&m);
    ck_assert_double_eq(st_llm_params(&m, 2048), before);
    ck_assert_double_eq(st_llm_flops_per_token(&m, 2048), fl);
}
END_TEST

START_TEST(test_layernorm_without_biases_has_a_weight_only)
{
    st_llm_spec m = *model("mpt-7b");
    double with_bias = st_llm_norm_params(&m);
    m.bias = 0;
    ck_assert_double_eq(with_bias, 2.0 * 4096);
    ck_assert_double_eq(st_llm_norm_params(&m), 4096);
    m.norm = ST_NORM_RMSNORM, m.bias = 1;
    ck_assert_double_eq(st_llm_norm_params(&m), 4096);
}
END_TEST

Suite *llm_suite(void)
{
    Suite *s = suite_create("llm");
    TCase *tc = tcase_create("counts");
    tcase_add_loop_test(tc, test_every_catalog_model_is_within_1pct_of_its_published_count, 0,
                        (int)st_catalog_model_count());
    tcase_add_test(tc, test_exact_counts_match_model_cards);
    tcase_add_test(tc, test_gpt_counts_follow_megatron_eq2);
    tcase_add_test(tc, test_gpt_flops_follow_megatron_eq3);
    tcase_add_test(tc, test_flops_match_palm_convention_for_tied_models);
    tcase_add_test(tc, test_flops_match_nemo_and_llm_foundry_rates);
    tcase_add_test(tc, test_untied_input_embedding_costs_no_flops);
    tcase_add_test(tc, test_grouped_query_attention_shrinks_k_and_v);
    tcase_add_test(tc, test_palm_heads_are_wider_than_hidden_over_heads);
    tcase_add_test(tc, test_fill_defaults_fills_zero_fields_only);
    tcase_add_test(tc, test_filled_and_unfilled_specs_count_the_same);
    tcase_add_test(tc, test_layernorm_without_biases_has_a_weight_only);
    suite_add_tcase(s, tc);
    return s;
}
