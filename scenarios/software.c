/* The software stacks a workload can name (software.h). Every row is what the stack's own code
 * or recipes of that release do, read at the tag or commit named in its source; a setting the
 * source does not give stays strata's default (ST_SW_KEEP). The settings are mechanisms the step
 * model already times (docs/models/step-model.md); the rows hold no efficiency factor of their
 * own, so a release whose kernels were slower than these mechanisms say is not made slower
 * here (docs/models/software.md, "What a row does not hold"). */
#include "scenarios/software.h"

#include <stdlib.h>
#include <string.h>

// clang-format off
#define ON  ST_SW_ON
#define OFF ST_SW_OFF
#define UNF ST_SW(ST_ATTN_UNFUSED)
#define FA2 ST_SW(ST_ATTN_FLASH2)
#define CDN ST_SW(ST_ATTN_CUDNN)

/* Attention per architecture (unknown, ampere, hopper, blackwell, cdna3); 0 keeps the GPU's own
 * default kernel. */
#define ALL_UNFUSED {UNF, UNF, UNF, UNF, UNF}
/* Transformer Engine before 1.8 prefers FlashAttention (flash-attn 2) over its fused cuDNN
 * attention everywhere (transformer_engine/pytorch/attention.py at v1.5: "TransformerEngine
 * prioritizes FlashAttention over FusedAttention"). */
#define TE_PRE18 {0, FA2, FA2, 0, 0}
/* From 1.8 it disables FlashAttention "to give FusedAttention preference on Hopper+ for
 * performance reasons" (attention.py at v1.8; kept through v2.8); Ampere keeps flash-attn. */
#define TE_18 {0, FA2, CDN, CDN, 0}

/* NeMo 2 and Megatron-Bridge performance recipes: DP overlaps, bf16 gradients, FP8 weights,
 * TP overlap (the rows below say where each is read) */
#define NEMO2_PERF \
    .fp8_param_gather = ON, .grad_bf16 = ON, .overlap_grad_reduce = ON, \
    .overlap_param_gather = ON, .tp_comm_overlap = ON

/* The NeMo 25.02 and 25.04 containers (February to April 2025) predate NGC PyTorch 25.06, which
 * still shipped cuDNN 9.10.2 (NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/artifacts/
 * sample_b200_bf16_run.txt: cudnn 91002 under torch 2.8.0a0 nv25.06): at most 9.10. */
#define NGC_2506 910

static const st_software rows[] = {
    {.stack = "megatron-lm", .release = "2021", .attention = ALL_UNFUSED,
     .overlap_grad_reduce = OFF, .overlap_p2p = OFF,
     .source = "NVIDIA/Megatron-LM megatron/training.py train_step (2021-2022): with the default "
     "--DDP-impl local the gradients are all-reduced after forward_backward_func, not beside it; "
     "p2p_communication._communicate waits on batch_isend_irecv and synchronizes; no "
     "FlashAttention (Korthikanti et al. 2022, section 4.1)"},
    {.stack = "megatron-deepspeed", .release = "2022", .attention = ALL_UNFUSED,
     .grad_collective = ST_SW(ST_GRAD_COLL_ALL_REDUCE), .grad_accum_separate = ON,
     .overlap_grad_reduce = OFF, .overlap_p2p = OFF,
     .source = "bigscience-workshop/Megatron-DeepSpeed with DeepSpeed's pipeline engine and "
     "BF16_Optimizer (BLOOM, 2022): pipe/engine.py ReduceGrads after the last micro-batch, "
     "_bf16_reduce_grads all-reduces fp32 gradients, update_hp_grads adds each micro-batch's bf16 "
     "gradients in a separate pass; blocking pipeline sends; no FlashAttention"},
    {.stack = "megatron-core", .release = "0.4", .attention = ALL_UNFUSED,
     .overlap_grad_reduce = OFF, .overlap_param_gather = OFF, .tp_comm_overlap = OFF,
     .source = "Megatron-LM core_v0.4.0 (2023-12) and core_v0.5.0 arguments.py: "
     "--transformer-impl local, --use-flash-attn opt-in, --overlap-grad-reduce and "
     "--overlap-param-gather off, no --tp-comm-overlap"},
    {.stack = "megatron-core", .release = "0.6", .attention = TE_PRE18,
     .fp8_recipe = ST_SW(ST_FP8_DELAYED), .overlap_grad_reduce = OFF,
     .overlap_param_gather = OFF, .tp_comm_overlap = OFF,
     .source = "Megatron-LM core_v0.6.0 (2024-04) arguments.py: --transformer-impl "
     "transformer_engine, overlaps off; Transformer Engine before 1.8 (FlashAttention first), "
     "DelayedScaling"},
    {.stack = "megatron-core", .release = "0.8", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_DELAYED), .overlap_grad_reduce = OFF,
     .overlap_param_gather = OFF, .tp_comm_overlap = OFF,
     .source = "Megatron-LM core_v0.8.0 (2024-08) to core_v0.19.0 (2026-08) arguments.py: "
     "overlaps off, --fp8-recipe delayed (0.12 on), --attention-backend auto (Transformer Engine "
     "1.8 on: cuDNN fused attention on Hopper and Blackwell)"},
    {.stack = "nemo", .release = "24.07", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_DELAYED), .overlap_grad_reduce = ON,
     .overlap_param_gather = ON, .overlap_p2p = ON, .tp_comm_overlap = OFF,
     .source = "NeMo-Framework-Launcher 24.07 conf/training/gpt3/175b.yaml: transformer_engine "
     "True, overlap_p2p_comm True, ub_tp_comm_overlap False, distributed_fused_adam "
     "overlap_grad_sync and overlap_param_sync True; NeMo's megatron_gpt_config.yaml: fp8 amax "
     "history 1024, max (delayed scaling); TE 1.8 attention"},
    {.stack = "nemo", .release = "25.02", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_DELAYED), NEMO2_PERF, .cudnn = NGC_2506,
     .source = "NVIDIA/NeMo v2.2.0 (2025-03) to v2.4.0: recipes' DistributedDataParallelConfig "
     "overlap_grad_reduce and overlap_param_gather True; scripts/performance: --fp8_recipe "
     "default ds (delayed), grad_reduce_in_fp32 False, performance mode's "
     "MegatronCommOverlapCallback tp_comm_overlap True; precision/mixed_precision.py "
     "bf16_with_fp8_mixed fp8_params True"},
    {.stack = "nemo", .release = "25.04", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_CURRENT), NEMO2_PERF, .cudnn = NGC_2506,
     .source = "NeMo 25.04 performance summary: per-tensor FP8 with scaling factors computed in "
     "the current step; recipes and performance scripts otherwise as 25.02 (NVIDIA/NeMo v2.3.0)"},
    {.stack = "megatron-bridge", .release = "25.11", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_CURRENT), NEMO2_PERF,
     .source = "NVIDIA-NeMo/Megatron-Bridge v0.2.0 (2025-11): scripts/performance "
     "llama3_llm_pretrain.py (tp_comm_overlap on with userbuffers), grad_reduce_in_fp32 False, "
     "fp8_cs current scaling; recipes ddp.overlap_grad_reduce and overlap_param_gather True; "
     "mixed_precision.py fp8_param_gather True; attention_backend left to Transformer Engine"},
    {.stack = "megatron-bridge", .release = "26.04", .attention = TE_18,
     .fp8_recipe = ST_SW(ST_FP8_CURRENT), NEMO2_PERF,
     .source = "NVIDIA-NeMo/Megatron-Bridge v0.4.0 (2026-04-16): recipes/llama/llama3.py and "
     "scripts/performance configs as in v0.2.0 (tp_comm_overlap off only for NVFP4)"},
    {.stack = "torchtitan", .release = "2024-04", .attention = {0, FA2, FA2, 0, 0},
     .overlap_param_gather = ON,
     .source = "pytorch/torchtitan (2024-04): FSDP2 fully_shard prefetches the next layer's "
     "all-gather (pytorch/pytorch PR 128884); PyTorch SDPA's flash backend is FlashAttention-2"},
    {.stack = "torchtitan", .release = "2025-08", .attention = {0, FA2, FA2, CDN, 0},
     .overlap_param_gather = ON,
     .source = "pytorch/torchtitan 6fc499f (2025-08) torchtitan/models/attention.py: cuDNN SDPA "
     "on compute capability 10.0, the flash backend (FlashAttention-2) elsewhere; FSDP2 prefetch "
     "as before"},
};
// clang-format on

#define N_ROWS (sizeof rows / sizeof rows[0])

size_t st_software_count(void)
{
    return N_ROWS;
}

const st_software *st_software_at(size_t i)
{
    return i < N_ROWS ? &rows[i] : NULL;
}

/* A release as up to four numbers between '.' and '-' ("26.04.01", "2024-04"). Returns the
 * count read, 0 when s is not such a release. */
enum { REL_PARTS = 4 };
static int parse_release(const char *s, long v[REL_PARTS])
{
    int n = 0;
    memset(v, 0, REL_PARTS * sizeof *v);
    while (*s) {
        if (n == REL_PARTS || *s < '0' || *s > '9')
            return 0;
        long x = 0;
        for (; *s >= '0' && *s <= '9'; s++) {
            if (x > 100000000)
                return 0;
            x = x * 10 + (*s - '0');
        }
        v[n++] = x;
        if (*s == '.' || *s == '-') {
            s++;
            if (!*s)
                return 0;
        } else if (*s) {
            return 0;
        }
    }
    return n;
}

static int release_cmp(const long a[REL_PARTS], const long b[REL_PARTS])
{
    for (int i = 0; i < REL_PARTS; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

int st_software_cudnn(const char *text)
{
    long v[REL_PARTS];
    int n = text && !strchr(text, '-') ? parse_release(text, v) : 0;
    if (n < 2 || n > 3 || v[0] < 1 || v[0] > 9999 || v[1] > 99)
        return 0;
    return (int)(100 * v[0] + v[1]);
}

const st_software *st_software_find(const char *stack, const char *release, int *why)
{
    long want[REL_PARTS], have[REL_PARTS];
    int known = 0;
    const st_software *best = NULL;
    for (size_t i = 0; i < N_ROWS; i++)
        known |= strcmp(rows[i].stack, stack) == 0;
    if (!known) {
        *why = 1;
        return NULL;
    }
    if (!parse_release(release, want)) {
        *why = 2;
        return NULL;
    }
    for (size_t i = 0; i < N_ROWS; i++) {
        if (strcmp(rows[i].stack, stack) != 0 || !parse_release(rows[i].release, have))
            continue;
        if (release_cmp(have, want) <= 0)
            best = &rows[i]; /* rows of a stack run oldest first */
    }
    if (!best)
        *why = 3;
    return best;
}

size_t st_software_stacks(const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < N_ROWS; i++)
        if (n < cap && (n == 0 || strcmp(names[n - 1], rows[i].stack) != 0))
            names[n++] = rows[i].stack;
    return n;
}

/* gpu's architecture as an index of a row's attention; 0 (unknown) without a GPU. */
static int arch_of(const st_gpu_spec *gpu)
{
    return gpu && (int)gpu->arch >= 0 && (int)gpu->arch < ST_SW_ARCHS ? (int)gpu->arch : 0;
}

/* Setting v into *field when the row sets it and the workload did not state key. */
static void set_int(signed char v, int *field, const char *key,
                    int (*stated)(const void *ctx, const char *key), const void *ctx)
{
    if (v != ST_SW_KEEP && !stated(ctx, key))
        *field = st_sw_value(v);
}

void st_software_apply(const st_software *r, const st_gpu_spec *gpu, st_workload_cfg *w,
                       int (*stated)(const void *ctx, const char *key), const void *ctx)
{
    st_parallel_cfg *p = &w->parallel;
    int arch = arch_of(gpu);
    int attn = w->attention;
    set_int(r->attention[arch], &attn, "attention", stated, ctx);
    w->attention = (st_attention)attn;
    if (w->precision == ST_PREC_FP8) {
        int recipe = w->fp8_recipe;
        set_int(r->fp8_recipe, &recipe, "fp8_recipe", stated, ctx);
        w->fp8_recipe = (st_fp8_recipe)recipe;
        set_int(r->fp8_param_gather, &w->fp8_param_gather, "fp8_param_gather", stated, ctx);
    }
    set_int(r->grad_bf16, &p->grad_bf16, "parallel.grad_reduce", stated, ctx);
    set_int(r->grad_collective, &p->grad_collective, "parallel.grad_collective", stated, ctx);
    set_int(r->grad_accum_separate, &p->grad_accum_separate, "parallel.grad_accum", stated, ctx);
    set_int(r->overlap_grad_reduce, &p->overlap_grad_reduce, "parallel.overlap_grad_reduce", stated,
            ctx);
    set_int(r->overlap_p2p, &p->overlap_p2p, "parallel.overlap_p2p", stated, ctx);
    if (p->zero >= 1) /* the weights' all-gather exists only when something is sharded */
        set_int(r->overlap_param_gather, &p->overlap_param_gather, "parallel.overlap_param_gather",
                stated, ctx);
    if (p->tp == 1 || p->sequence_parallel) /* userbuffers' overlap needs sequence parallelism */
        set_int(r->tp_comm_overlap, &p->tp_comm_overlap, "parallel.tp_comm_overlap", stated, ctx);
    if (r->cudnn > 0 && !stated(ctx, "cudnn"))
        w->cudnn_release = r->cudnn;
}

/* The next word of *s (up to white space) into out, whole: 0 when there is none or it does not
 * fit, so that a long word is never cut, inside a UTF-8 character or not. */
static int next_word(const char **s, char *out, size_t cap)
{
    const char *p = *s + strspn(*s, " \t");
    size_t n = strcspn(p, " \t");
    if (n == 0 || n >= cap)
        return 0;
    memcpy(out, p, n);
    out[n] = 0;
    *s = p + n;
    return 1;
}

int st_software_split(const char *value, st_software_words *out)
{
    const char *s = value;
    return s && next_word(&s, out->stack, sizeof out->stack) &&
           next_word(&s, out->release, sizeof out->release) && s[strspn(s, " \t")] == 0;
}

st_attention st_software_attention(const char *software, const st_gpu_spec *gpu)
{
    st_software_words sw;
    int why = 0;
    if (!gpu || !st_software_split(software, &sw))
        return ST_ATTN_FLASH;
    const st_software *r = st_software_find(sw.stack, sw.release, &why);
    int arch = arch_of(gpu);
    return r && r->attention[arch] != ST_SW_KEEP ? (st_attention)st_sw_value(r->attention[arch])
                                                 : ST_ATTN_FLASH;
}
