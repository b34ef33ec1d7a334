/* `strata catalog`: the GPUs, model presets, software and serving stacks a scenario can name,
 * as tables. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "models/config/frontend.h"
#include "models/cost/cost.h"
#include "models/silicon/llm.h"
#include "models/silicon/ub_cfg.h"
#include "scenarios/catalog.h"
#include "scenarios/reader.h"
#include "scenarios/software.h"
#include "sim/units.h"
#include "sim/xalloc.h"

/* A dense peak in TFLOP/s, or "-" where the part has no Tensor Cores for the format (a 0.0
 * reads as measured). */
static const char *peak_tf(double flops, char *buf, size_t n)
{
    if (flops > 0)
        snprintf(buf, n, "%.1f", flops / 1e12);
    else
        snprintf(buf, n, "-");
    return buf;
}

static void print_gpus(void)
{
    printf("GPUs (dense peaks, - where the part has no Tensor Cores for the format; sources in\n"
           "docs/guide/catalog.md; capacity GB: the HBM CUDA reports as the device's total, what\n"
           "the memory model fills, above the datasheet's decimal GB (an 80 GB H100 SXM: 85.05);\n"
           "node: its platform's GPUs a node and NVLink domain, as strata size searches the type,\n"
           "- where none is listed)\n");
    printf("%-14s %10s %10s %10s %11s %9s %11s %7s %7s %7s\n", "name", "BF16 TF/s", "FP8 TF/s",
           "FP4 TF/s", "capacity GB", "HBM TB/s", "NVLink GB/s", "TDP W", "idle W", "node");
    for (size_t i = 0; i < st_catalog_gpu_count(); i++) {
        const st_gpu_spec *g = st_catalog_gpu_at(i);
        char node[24] = "-";
        if (g->node_gpus > 0)
            snprintf(node, sizeof node, "%d/%d", g->node_gpus,
                     g->platform_domain > g->node_gpus ? g->platform_domain : g->node_gpus);
        char bf[16], f8[16], f4[16];
        printf("%-14s %10s %10s %10s %11.2f %9.2f %11.0f %7.0f %7.0f %7s\n", g->name,
               peak_tf(g->peak_bf16, bf, sizeof bf), peak_tf(g->peak_fp8, f8, sizeof f8),
               peak_tf(g->peak_fp4, f4, sizeof f4), g->hbm_bytes / 1e9, g->hbm_bw / 1e12,
               g->nvlink_bw / 1e9, g->tdp_w, g->idle_w, node);
    }
}

static void print_models(void)
{
    printf("Models (parameters counted by strata; published count beside it)\n");
    printf("%-16s %6s %6s %6s %6s %4s %7s %7s %9s %9s\n", "name", "layers", "hidden", "ffn",
           "heads", "kv", "vocab", "mlp", "params B", "published");
    for (size_t i = 0; i < st_catalog_model_count(); i++) {
        const st_llm_spec *m = st_catalog_model_at(i);
        printf("%-16s %6lld %6lld %6lld %6lld %4lld %7lld %7s %9.2f %9.1f\n", m->name,
               (long long)m->layers, (long long)m->hidden, (long long)m->ffn_hidden,
               (long long)m->heads, (long long)m->kv_heads, (long long)m->vocab,
               st_mlp_names[m->mlp], st_llm_params(m, 2048) / 1e9, m->published_params / 1e9);
    }
}

/* A row's setting as the table prints it: "-" where strata's default stands. */
static const char *setting(signed char v, const char *const *names)
{
    return v == ST_SW_KEEP ? "-" : names[st_sw_value(v)];
}

static void print_software(void)
{
    static const char *const onoff[] = {"off", "on", NULL};
    static const char *const grad[] = {"fp32", "bf16", NULL};
    printf("Software stacks (`software: STACK RELEASE`; '-': strata's default; "
           "docs/models/software.md)\n");
    printf("%-19s %-8s %-8s %-8s %-9s %-8s %-5s %-8s %-8s %-5s %-6s %s\n", "stack", "release",
           "A100", "H100", "B200", "fp8", "grad", "grad ovl", "wgt ovl", "p2p", "TP ovl", "cuDNN");
    for (size_t i = 0; i < st_software_count(); i++) {
        const st_software *r = st_software_at(i);
        char cu[ST_CUDNN_TEXT] = "-";
        if (r->cudnn > 0)
            st_cudnn_text(r->cudnn, cu);
        printf("%-19s %-8s %-8s %-8s %-9s %-8s %-5s %-8s %-8s %-5s %-6s %s\n", r->stack, r->release,
               setting(r->attention[ST_GPU_ARCH_AMPERE], st_attention_names),
               setting(r->attention[ST_GPU_ARCH_HOPPER], st_attention_names),
               setting(r->attention[ST_GPU_ARCH_BLACKWELL], st_attention_names),
               setting(r->fp8_recipe, st_fp8_recipe_names), setting(r->grad_bf16, grad),
               setting(r->overlap_grad_reduce, onoff), setting(r->overlap_param_gather, onoff),
               setting(r->overlap_p2p, onoff), setting(r->tp_comm_overlap, onoff), cu);
    }
}

/* Each serving stack's figures and what they come from: the measured latencies of its run
 * and the engine model's share of them (models/config/frontend.h). */
static void print_frontends(void)
{
    printf("Serving stacks (`frontend: NAME`; ms; docs/models/inference.md, \"The serving "
           "stack\")\n");
    printf("%-15s %8s %10s %14s %14s %12s %12s\n", "frontend", "request", "iteration",
           "measured ttft", "measured itl", "engine ttft", "engine tpot");
    for (const st_frontend *f = st_frontends; f->name; f++)
        printf("%-15s %8.4g %10.4g %14.4g %14.4g %12.4g %12.4g\n", f->name,
               st_frontend_request_s(f) * 1e3, st_frontend_iteration_s(f) * 1e3,
               f->measured_ttft_s * 1e3, f->measured_itl_s * 1e3, f->engine_ttft_s * 1e3,
               f->engine_tpot_s * 1e3);
}

/* The cost model's preset prices, each row's price in its unit with its year and source
 * (models/cost/prices.c; docs/models/cost.md): what a scenario's cost: section falls back on. */
static void print_prices(void)
{
    printf("Preset prices (a scenario's cost: section overrides each; docs/models/cost.md)\n");
    printf("%-26s %-22s %20s %5s  %s\n", "key", "part", "price", "year", "source");
    for (size_t i = 0; i < st_price_count(); i++) {
        const st_price_row *r = st_price_at(i);
        const char *unit = st_price_unit(r->key);
        double one; /* the unit in SI, so the row's figure prints as its source wrote it */
        char v[64], why[80], text[40];
        snprintf(text, sizeof text, "1 %s", unit);
        if (st_unit_parse(text, st_unit_sniff(text), &one, why, sizeof why) || !(one > 0))
            ST_BUG("preset price unit '%s' does not parse: %s", unit, why);
        snprintf(v, sizeof v, "%.10g %s%s", r->value / one, unit, st_price_period(r->key));
        /* the part whole, and for a node price the GPUs it buys (charged per GPU of the node),
         * padded to the column as %-22s would */
        int w = printf("%-26s %s", r->key, r->part ? r->part : "(site)");
        if (r->gpus > 0)
            w += printf(", %d GPUs", r->gpus);
        printf("%*s %20s %5d  %s\n", w < 49 ? 49 - w : 0, "", v, r->year, r->source);
    }
}

/* The userbuffers settings parallel.tp_comm_overlap_cfg names (models/silicon/ub_cfg.c): per
 * GEMM the method, the SMs its communication holds and whether the GEMM leaves them free. */
static void print_userbuffers(void)
{
    static const char *const slot[ST_UB__COUNT] = {"qkv_f", "qkv_d", "qkv_w", "proj_f", "proj_d",
                                                   "fc1_f", "fc1_d", "fc1_w", "fc2_f",  "fc2_d"};
    static const char method[] = {[ST_TP_RING] = 'r', [ST_TP_PIPELINE] = 'p', [ST_TP_BULK] = 'b'};
    printf("Userbuffers settings (`parallel.tp_comm_overlap_cfg`; docs/models/step-model.md)\n"
           "per GEMM: r ring exchange, p pipeline, b bulk, then the SMs its communication holds;\n"
           "m: the GEMM leaves them free (set_sm_margin); a: ring exchange two pieces a step\n");
    for (int k = 0; k < ST_UB__COUNT; k++)
        printf("%-7s", slot[k]);
    printf("name\n");
    for (int i = 0; st_ub_cfg_names[i]; i++) {
        for (int k = 0; k < ST_UB__COUNT; k++) {
            const st_ub_gemm *g = st_ub_cfg_gemm(i, (st_ub_slot)k);
            char cell[16];
            snprintf(cell, sizeof cell, "%c%d%s%s", method[g->method], g->sms, g->margin ? "m" : "",
                     g->aggregate ? "a" : "");
            printf("%-7s", cell);
        }
        printf("%s\n", st_ub_cfg_names[i]);
    }
}

int st_cmd_catalog(int argc, char **argv)
{
    int gpus = 1, models = 1, software = 1, frontends = 1, prices = 0, ub = 0;
    for (int i = 1; i < argc; i++) /* an option it does not take: name it, not the count */
        if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--help") != 0 &&
            strcmp(argv[i], "-h") != 0)
            return st_cli_usage_error("catalog",
                                      "unknown option '%s': catalog takes no option and prints "
                                      "text tables (strata catalog [gpus|models|software|"
                                      "frontends|prices|userbuffers])",
                                      argv[i]);
    if (argc > 2)
        return st_cli_usage_error("catalog", "expected at most one argument");
    if (argc == 2) {
        if (st_cli_wants_help(argv[1], "catalog"))
            return ST_EXIT_OK;
        gpus = strcmp(argv[1], "gpus") == 0;
        models = strcmp(argv[1], "models") == 0;
        software = strcmp(argv[1], "software") == 0;
        frontends = strcmp(argv[1], "frontends") == 0;
        prices = strcmp(argv[1], "prices") == 0;
        ub = strcmp(argv[1], "userbuffers") == 0;
        static const char *const sections[] = {"gpus",      "models", "software",
                                               "frontends", "prices", "userbuffers"};
        char near[160]; /* `strata catalog gpu` */
        if (!gpus && !models && !software && !frontends && !prices && !ub)
            return st_cli_usage_error(
                "catalog",
                "expected 'gpus', 'models', 'software', 'frontends', 'prices' or 'userbuffers', "
                "found '%s'%s",
                argv[1], st_did_you_mean(argv[1], sections, 6, near, sizeof near));
    }
    if (prices) { /* asked for by name only: the catalog's listing stays the four */
        print_prices();
        return ST_EXIT_OK;
    }
    if (ub) { /* by name only, as prices */
        print_userbuffers();
        return ST_EXIT_OK;
    }
    if (gpus)
        print_gpus();
    if (gpus && models)
        printf("\n");
    if (models)
        print_models();
    if (software && (gpus || models))
        printf("\n");
    if (software)
        print_software();
    if (frontends && (gpus || models || software))
        printf("\n");
    if (frontends)
        print_frontends();
    return ST_EXIT_OK;
}
