/* The HBM traffic of FP8 quantisation (Transformer Engine's recipes), beside the operator graph
 * of models/silicon/ops_build.c, which times it with each linear layer. docs/models/step-ops.md,
 * "FP8 quantisation", has the table. */
#include "models/silicon/ops_quant.h"

#include "models/silicon/gpu.h"

/* Under FP8 every linear layer's input is quantised before its forward GEMM and its output
 * gradient before its backward GEMMs. What that costs in HBM traffic beyond the BF16 graph
 * depends on the kernel that produces the tensor and on the recipe, as Transformer Engine
 * implements them (transformer_engine/pytorch/csrc/extensions/normalization.cpp, its "Choose
 * implementation" switch). In Megatron-Core only the norms are TE's (TELayerNormColumnParallel
 * Linear fuses the qkv and fc1 inputs' norm); the activation is Megatron's own fused
 * bias-activation kernel, which writes BF16, so fc2's input and fc1's output gradient are cast
 * like everything else (TE's LayerNormMLP, which would fuse them, is not modelled):
 *   FEED_NORM  the RMSNorm/LayerNorm output (the qkv and fc1 inputs);
 *   FEED_PLAIN everything else.
 * Bytes per element (BF16 read 2, FP8 write 1):
 *   delayed: the scale is known in advance, so the norm writes FP8 itself ("FULLY_FUSED": 1
 *            byte instead of 2, -1); anything else is cast (read 2, write 1).
 *   current: the scale needs the tensor's own amax. The norm computes it while writing BF16,
 *            then quantize_with_amax reads and casts (+3, "FUSED_NORM_AMAX_FP8"); elsewhere a
 *            separate amax pass reads it first (+5).
 *   mxfp8:   one scale per 32 elements, computed in the cast; the row-wise and column-wise
 *            copies (each with its E8M0 scales, 1/32 byte per element) are written together
 *            (read 2, write 2 + 2/32). Norms fuse it only with NVTE_NORM_FWD_USE_CUDNN, which
 *            is off by default.
 * The per-tensor recipes need a second, transposed FP8 copy of each operand for the backward
 * GEMMs on GPUs whose FP8 GEMMs take only the TN layout: Hopper (TE's
 * is_non_tn_fp8_gemm_supported: compute capability 10.0-11.x and 13.0+ take any layout). A cast
 * writes it in the same pass (+1); a fused norm's output is transposed after (read 1, write 1:
 * +2); a tensor gathered for sequence parallelism is quantised row-wise on its shard and
 * transposed after the gather, over all its rows (+2 per gathered element; TE's
 * _all_gather_fp8, _create_transpose). Other FP8 parts (MI300X, custom GPUs without a Hopper base)
 * are taken to accept any layout. The weights' casts are left out: about 0.6% of the Nemotron-15B
 * B200 step (cast once per step), and up to about 2.5% of the GB200 Llama 3 70B step if
 * Megatron-FSDP re-casts after every gather. */
/* Kernels, as the passes above run them: delayed casts in one kernel (none after a fused norm,
 * which writes FP8; on Hopper the transposed copy after it is one more); current scaling's amax
 * pass and cast are two kernels, one (quantize_with_amax) after a norm that computed the amax,
 * which writes the transposed copy in the same pass; MXFP8's cast is one. */
static const struct quant {
    double fused;           /* bytes per element after a fused norm (may be negative: the norm
                               writes FP8 instead of the BF16 the graph counts) */
    double plain;           /* bytes per element of a stand-alone quantisation */
    int norm_fused;         /* whether the norm kernels fuse it */
    double transpose_fused; /* TN-only GPUs: the transposed copy after a fused norm */
    double transpose_plain; /* ... and when the cast writes it in the same pass */
    double kernels_fused;   /* kernels of their own after a fused norm */
    double kernels_plain;   /* ... of a stand-alone quantisation */
    double kernels_transpose_fused; /* TN-only GPUs: a transpose kernel after a fused norm */
} QUANT[] = {
    [ST_FP8_DELAYED] = {.fused = -1,
                        .plain = 3,
                        .norm_fused = 1,
                        .transpose_fused = 2,
                        .transpose_plain = 1,
                        .kernels_fused = 0,
                        .kernels_plain = 1,
                        .kernels_transpose_fused = 1},
    [ST_FP8_CURRENT] = {.fused = 3,
                        .plain = 5,
                        .norm_fused = 1,
                        .transpose_fused = 1,
                        .transpose_plain = 1,
                        .kernels_fused = 1,
                        .kernels_plain = 2},
    [ST_FP8_MXFP8] = {.plain = 4 + 2.0 / 32, .norm_fused = 0, .kernels_plain = 1},
};

/* The transposed copy a gathered tensor gets after the gather (read 1, write 1). */
#define QUANT_TRANSPOSE_GATHERED 2.0

/* HBM bytes of quantising one GEMM operand of `cols` columns under `recipe`: `local_rows`
 * quantised on this GPU, `rows` (>= local_rows) used by the GEMM after a sequence-parallel
 * all-gather, `f` the kernel that produced it. Negative where a fused norm saves more than the
 * quantisation costs. */
double st__ops_quant_operand(const st_gpu_spec *gpu, st_fp8_recipe recipe, st__ops_feed f,
                             double local_rows, double rows, double cols)
{
    const struct quant *q = &QUANT[recipe];
    int fused = f == ST__FEED_NORM && q->norm_fused;
    double b = local_rows * cols * (fused ? q->fused : q->plain);
    if (st_gpu_is_hopper(gpu) && recipe != ST_FP8_MXFP8) /* TN-only FP8 GEMMs; see above */
        b += rows > local_rows ? rows * cols * QUANT_TRANSPOSE_GATHERED
                               : rows * cols * (fused ? q->transpose_fused : q->transpose_plain);
    return b;
}

double st__ops_quant_kernels(const st_gpu_spec *gpu, st_fp8_recipe recipe, st__ops_feed f,
                             double local_rows, double rows)
{
    const struct quant *q = &QUANT[recipe];
    int fused = f == ST__FEED_NORM && q->norm_fused;
    double k = fused ? q->kernels_fused : q->kernels_plain;
    if (st_gpu_is_hopper(gpu) && recipe != ST_FP8_MXFP8) /* the transposed copy, as above */
        k += rows > local_rows ? 1.0 : fused ? q->kernels_transpose_fused : 0.0;
    return k;
}
