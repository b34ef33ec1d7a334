/* Internal to models/silicon: the FP8 quantisation traffic the operator graph (ops_build.c) adds
 * to each linear layer under precision: fp8. */
#ifndef ST_SILICON_OPS_QUANT_H
#define ST_SILICON_OPS_QUANT_H

#include "models/config/config.h"

/* The kernel that produced a GEMM operand: the RMSNorm/LayerNorm output (the qkv and fc1
 * inputs, whose quantisation Transformer Engine's norm kernels can fuse), or anything else. */
typedef enum st__ops_feed { ST__FEED_NORM, ST__FEED_PLAIN } st__ops_feed;

/* HBM bytes of quantising one GEMM operand of `cols` columns under `recipe`: `local_rows`
 * quantised on this GPU, `rows` (>= local_rows) used by the GEMM after a sequence-parallel
 * all-gather, `f` the kernel that produced it. Negative where a fused norm saves more than the
 * quantisation costs. */
double st__ops_quant_operand(const st_gpu_spec *gpu, st_fp8_recipe recipe, st__ops_feed f,
                             double local_rows, double rows, double cols);

/* The kernels of their own that quantising the operand st__ops_quant_operand prices runs: an
 * amax pass and a cast, or a transpose after a fused norm or a gather, as the recipe needs. */
double st__ops_quant_kernels(const st_gpu_spec *gpu, st_fp8_recipe recipe, st__ops_feed f,
                             double local_rows, double rows);

#endif
