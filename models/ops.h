/* The operator graph of one transformer training step on one GPU: each operator's FLOPs, HBM
 * bytes and GEMM shape after tensor, sequence and context parallelism, and its time by roofline
 * (the larger of FLOPs over achieved FLOP/s and bytes over HBM bandwidth), where achieved FLOP/s
 * follows a GEMM efficiency curve over the shape (models/gemm_eff.c holds its constants). */
#ifndef ST_MODELS_OPS_H
#define ST_MODELS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "models/config.h"

typedef enum st_op_kind {
    ST_OP_GEMM,  /* a matrix multiplication: m x k times k x n */
    ST_OP_ATTN,  /* fused (FlashAttention-style) attention core: scores, softmax, context */
    ST_OP_MEMORY /* element-wise or normalisation: bound by HBM bytes */
} st_op_kind;

typedef struct st_op {
    const char *name; /* "qkv", "attn", "proj", "fc1", "fc2", "norm1", "logits", ... */
    st_op_kind kind;
    double m, n, k; /* GEMM shape on this GPU (tokens x out x in), 0 for others */
    double flops;   /* on this GPU */
    double bytes;   /* HBM traffic on this GPU */
    double time_s;  /* roofline time on the workload's GPU and precision */
} st_op;

/* Times of one transformer layer for one micro-batch on one GPU, and the tensor-parallel traffic
 * it causes. Backward counts data and weight gradients (2 x forward for GEMMs); recompute is the
 * extra forward work that the workload's recompute setting adds to backward. */
typedef struct st_layer_cost {
    double fwd_s, bwd_s, recompute_s;
    double fwd_flops, bwd_flops, recompute_flops;
    /* TP collectives per layer per micro-batch, each moving tp_bytes per rank (the full
     * activation s*b*h*2 bytes / cp): all-reduce without sequence parallelism, all-gather plus
     * reduce-scatter with it. Counts are per direction of the pass. */
    int tp_colls_fwd, tp_colls_bwd;
    double tp_bytes;
} st_layer_cost;

/* The forward operators of one layer for `microbatch` sequences on one GPU of workload w on gpu,
 * into ops[0..cap); returns how many there are (at most ST_OPS_MAX). */
#define ST_OPS_MAX 32
size_t st_ops_layer_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap);

/* One layer's cost (sum over its operators). */
void st_ops_layer_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                       st_layer_cost *out);

/* Forward and backward time of the input embedding (first stage) and of the output layer with
 * its loss (last stage), for one micro-batch on one GPU. */
void st_ops_edge_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                      double *embed_fwd_s, double *embed_bwd_s, double *head_fwd_s,
                      double *head_bwd_s);

/* The optimizer step on one GPU: reading and writing its share of weights, gradients and Adam
 * states once (memory-bound), under the workload's ZeRO stage. */
double st_ops_optimizer_time(const st_workload_cfg *w, const st_gpu_spec *gpu);

/* Achieved fraction of the dense peak for an m x k by k x n GEMM at precision prec on gpu: the
 * calibrated efficiency curve (models/gemm_eff.c). */
double st_gemm_efficiency(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k);

/* Dense peak FLOP/s of gpu at prec (the catalog's bf16 or fp8 figure). */
double st_gpu_peak(const st_gpu_spec *gpu, st_precision prec);

#endif
