/* The preset tables: the names the docs promise exist, lookups are consistent, and
 * the datasheet figures match the vendors' datasheets. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/silicon/ops.h"
#include "scenarios/catalog.h"
#include "unit/check_util.h"

static const st_gpu_spec *gpu(const char *name)
{
    const st_gpu_spec *g = st_catalog_gpu(name);
    ck_assert_msg(g != NULL, "GPU preset '%s' missing", name);
    return g;
}

START_TEST(test_required_names_exist)
{
    static const char *const gpus[] = {"a100-sxm-40g", "a100-sxm-80g", "h100-sxm", "h100-pcie",
                                       "h200-sxm",     "b200",         "gb200",    "mi300x"};
    static const char *const models[] = {"gpt3-175b",  "llama3-8b", "llama3-70b",   "llama3-405b",
                                         "gpt-22b",    "gpt-530b",  "gpt-1t",       "gpt-145b",
                                         "bloom-176b", "opt-175b",  "gpt-neox-20b", "mpt-7b",
                                         "mpt-30b",    "palm-540b"};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++)
        ck_assert_ptr_nonnull(gpu(gpus[i]));
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        ck_assert_msg(st_catalog_model(models[i]) != NULL, "model preset '%s' missing", models[i]);
}
END_TEST

START_TEST(test_unknown_and_null_names_give_null)
{
    ck_assert_ptr_null(st_catalog_gpu("h100"));
    ck_assert_ptr_null(st_catalog_gpu("H100-SXM"));
    ck_assert_ptr_null(st_catalog_gpu(NULL));
    ck_assert_ptr_null(st_catalog_model("gpt3"));
    ck_assert_ptr_null(st_catalog_model(NULL));
    ck_assert_ptr_null(st_catalog_gpu_at(st_catalog_gpu_count()));
    ck_assert_ptr_null(st_catalog_model_at(st_catalog_model_count()));
}
END_TEST

START_TEST(test_every_entry_is_found_by_its_own_unique_name)
{
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        ck_assert_ptr_eq(st_catalog_gpu(g->name), g);
    }
    for (size_t i = 0; i < st_catalog_model_count(); i++) {
        const st_llm_spec *m = st_catalog_model_at(i);
        ck_assert_ptr_eq(st_catalog_model(m->name), m);
    }
}
END_TEST

START_TEST(test_gpu_entries_are_complete_and_plausible)
{
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        ck_assert_msg(g->description && *g->description, "%s: no description", g->name);
        ck_assert_msg(g->source && *g->source, "%s: no source", g->name);
        ck_assert_msg(g->peak_bf16 > 1e14 && g->hbm_bytes > 1e10 && g->hbm_bw > 1e12, "%s",
                      g->name);
        ck_assert_msg(g->nvlink_bw > 0 && g->pcie_bw > 0, "%s: links", g->name);
        ck_assert_msg(g->idle_w > 0 && g->idle_w < 0.25 * g->tdp_w, "%s: idle power", g->name);
        /* Every part with FP8 Tensor Cores doubles its BF16 rate (datasheets, dense). */
        if (g->peak_fp8 > 0)
            ASSERT_REL(g->peak_fp8, 2 * g->peak_bf16, 1e-3);
        /* ... and every part with FP4 its FP8 rate (Blackwell alone in the catalog) */
        if (g->peak_fp4 > 0)
            ASSERT_REL(g->peak_fp4, 2 * g->peak_fp8, 1e-3);
        ck_assert_msg((g->peak_fp4 > 0) == (g->arch == ST_GPU_ARCH_BLACKWELL), "%s: FP4", g->name);
    }
}
END_TEST

/* Every catalog part names its architecture and its own calibration row: the models key on
 * those fields, never on the part's name. */
START_TEST(test_gpu_entries_carry_architecture_and_calibration_key)
{
    int seen[ST_GPU_CALIB__COUNT] = {0};
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        ck_assert_msg(g->arch != ST_GPU_ARCH_UNKNOWN, "%s: no architecture", g->name);
        ck_assert_msg(g->calib > ST_GPU_CALIB_NONE && g->calib < ST_GPU_CALIB__COUNT, "%s",
                      g->name);
        ck_assert_msg(!seen[g->calib]++, "%s: calibration key shared", g->name);
        ck_assert_msg(st_gemm_calibrated(g), "%s: no calibration row", g->name);
    }
    ck_assert_str_eq(st_gpu_arch_name(gpu("h100-pcie")->arch), "hopper");
    ck_assert_str_eq(st_gpu_arch_name(gpu("mi300x")->arch), "cdna3");
    ck_assert_int_eq(gpu("h100-pcie")->nvswitch, 0);
    ck_assert_int_eq(gpu("gb200")->nvswitch, 1);
    ck_assert_str_eq(st_gpu_arch_name((st_gpu_arch)99), "?");
}
END_TEST

/* Figures from the vendors' datasheets that scenarios/catalog.c cites, row by row. */
START_TEST(test_datasheet_figures_match_validation_data)
{
    const st_gpu_spec *a40 = gpu("a100-sxm-40g"), *a80 = gpu("a100-sxm-80g");
    ck_assert_double_eq(a40->peak_bf16, 312e12);
    ck_assert_double_eq(a40->peak_fp8, 0);
    ck_assert_double_eq(a80->peak_fp8, 0);
    ck_assert_double_eq(a40->hbm_bw, 1555e9);
    ck_assert_double_eq(a80->hbm_bw, 2039e9);
    ck_assert_double_eq(a80->nvlink_bw, 600e9);
    ck_assert_double_eq(a80->tdp_w, 400);

    const st_gpu_spec *h = gpu("h100-sxm");
    ASSERT_REL(h->peak_bf16, 989e12, 1e-3); /* llm-foundry's MFU denominator */
    ck_assert_double_eq(h->peak_fp8, 1979e12);
    ck_assert_double_eq(h->hbm_bw, 3.35e12);
    ck_assert_double_eq(h->nvlink_bw, 900e9);
    ck_assert_double_eq(h->tdp_w, 700);

    const st_gpu_spec *hp = gpu("h100-pcie");
    ASSERT_REL(hp->peak_bf16, 756e12, 1e-3);
    ck_assert_double_eq(hp->hbm_bw, 2.0e12);
    ck_assert_double_eq(hp->tdp_w, 350);
    ck_assert_double_eq(hp->nvlink_bw, 600e9);

    const st_gpu_spec *h2 = gpu("h200-sxm");
    ck_assert_double_eq(h2->hbm_bw, 4.8e12);
    ck_assert_double_eq(h2->peak_bf16, h->peak_bf16);

    const st_gpu_spec *b = gpu("b200");
    ck_assert_double_eq(b->peak_bf16, 2.25e15);
    ck_assert_double_eq(b->nvlink_bw, 1.8e12);
    ck_assert_double_eq(b->tdp_w, 1000);

    const st_gpu_spec *gb = gpu("gb200");
    ck_assert_double_eq(gb->peak_bf16, 2.5e15);
    ck_assert_double_eq(gb->peak_fp8, 5e15);
    ck_assert_double_eq(gb->hbm_bw, 8e12);
    ck_assert_double_eq(gb->nvlink_bw, 1.8e12);
    ck_assert_double_eq(gb->tdp_w, 1200);

    const st_gpu_spec *mi = gpu("mi300x");
    ASSERT_REL(mi->peak_bf16, 1307.4e12, 1e-9);
    ASSERT_REL(mi->peak_fp8, 2614.9e12, 1e-9);
    ck_assert_double_eq(mi->tdp_w, 750);
}
END_TEST

#define GIB 1073741824.0
#define MIB 1048576.0

/* Capacity is what CUDA (HIP on the MI300X) reports as the device's total memory, the figure a
 * framework can allocate: cudaMemGetInfo / torch.cuda.mem_get_info, deviceQuery's "Total amount
 * of global memory", PyTorch's OOM "GPU 0 has a total capacity of X GiB". It sits between the
 * datasheet's decimal figure and the binary HBM stacks: nvidia-smi's FB "Total" less the
 * driver's "Reserved" (H100: 81559 - 454 = 81106 MiB, less than 1 MiB apart). Sources are in
 * scenarios/catalog.c beside each figure. */
START_TEST(test_capacity_is_what_cuda_reports_as_total)
{
    ck_assert_double_eq(gpu("a100-sxm-40g")->hbm_bytes, 42298834944.0); /* 40339 MiB */
    ck_assert_double_eq(gpu("a100-sxm-80g")->hbm_bytes, 85100068864.0); /* 81158 MiB */
    ck_assert_double_eq(gpu("h100-sxm")->hbm_bytes, 85045477376.0);     /* 81106 MiB */
    ck_assert_double_eq(gpu("h100-pcie")->hbm_bytes, 80 * GIB);         /* none found: 5 x 16 GiB */
    ck_assert_double_eq(gpu("h200-sxm")->hbm_bytes, round(139.81 * GIB));
    ck_assert_double_eq(gpu("b200")->hbm_bytes, round(178.35 * GIB)); /* whole bytes */
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        ck_assert_msg(g->hbm_bytes == floor(g->hbm_bytes), "%s", g->name);
    }
    ck_assert_double_eq(gpu("gb200")->hbm_bytes, round(184.31 * GIB));
    ck_assert_double_eq(gpu("mi300x")->hbm_bytes, 196592 * MIB);
    /* each lies above the datasheet's decimal figure and at or below its binary reading */
    static const struct {
        const char *name;
        double datasheet_gb;
    } ds[] = {{"a100-sxm-40g", 40}, {"a100-sxm-80g", 80}, {"h100-sxm", 80}, {"h100-pcie", 80},
              {"h200-sxm", 141},    {"b200", 180},        {"gb200", 186},   {"mi300x", 192}};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        double c = gpu(ds[i].name)->hbm_bytes;
        ck_assert_msg(c > ds[i].datasheet_gb * 1e9 && c <= ds[i].datasheet_gb * GIB, "%s: %.6g",
                      ds[i].name, c);
    }
}
END_TEST

START_TEST(test_model_entries_are_complete)
{
    for (size_t i = 0; i < st_catalog_model_count(); i++) {
        const st_llm_spec *m = st_catalog_model_at(i);
        ck_assert_msg(m->source && *m->source, "%s: no source", m->name);
        ck_assert_msg(m->published_params > 0, "%s: no published count", m->name);
        ck_assert_msg(m->layers > 0 && m->hidden > 0 && m->heads > 0 && m->vocab > 0, "%s",
                      m->name);
        ck_assert_msg(m->ffn_hidden > 0 && m->kv_heads > 0, "%s: ffn/kv_heads", m->name);
        ck_assert_msg(m->heads % m->kv_heads == 0, "%s: kv_heads", m->name);
        /* The loader requires hidden % heads == 0 of a model used as a base unless it gives
         * head_dim (GLM-4.5: 96 heads of 128 on a 4096 or 5120 residual). */
        ck_assert_msg(m->head_dim > 0 || m->hidden % m->heads == 0, "%s: hidden %% heads", m->name);
    }
}
END_TEST

START_TEST(test_bloom_uses_the_padded_tokenizer_vocabulary)
{
    /* Model card: 3,596,615,680 embedding parameters = vocab x 14336. */
    const st_llm_spec *m = st_catalog_model("bloom-176b");
    ck_assert_int_eq(m->vocab, 250880);
    ck_assert_double_eq((double)m->vocab * (double)m->hidden, 3596615680.0);
    ck_assert_int_eq(m->pos, ST_POS_ALIBI);
    ck_assert_int_eq(m->embed_norm, 1);
}
END_TEST

Suite *catalog_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("presets");
    tcase_add_test(tc, test_required_names_exist);
    tcase_add_test(tc, test_unknown_and_null_names_give_null);
    tcase_add_test(tc, test_every_entry_is_found_by_its_own_unique_name);
    tcase_add_test(tc, test_gpu_entries_are_complete_and_plausible);
    tcase_add_test(tc, test_gpu_entries_carry_architecture_and_calibration_key);
    tcase_add_test(tc, test_datasheet_figures_match_validation_data);
    tcase_add_test(tc, test_capacity_is_what_cuda_reports_as_total);
    tcase_add_test(tc, test_model_entries_are_complete);
    tcase_add_test(tc, test_bloom_uses_the_padded_tokenizer_vocabulary);
    suite_add_tcase(s, tc);
    return s;
}
