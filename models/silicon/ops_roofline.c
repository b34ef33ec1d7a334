/* The roofline of the operator graph: each operator's forward and backward time on one GPU from
 * its FLOPs and HBM bytes, GEMMs by the tile model's efficiency and fused attention cores by the
 * kernels' sweeps. docs/models/step-ops.md, "Roofline". */
#include <math.h>

#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"

static double mem_time(const st_gpu_spec *gpu, double bytes)
{
    return bytes / (st_hbm_efficiency(gpu) * gpu->hbm_bw);
}

/* A kernel's time from its roofline time t: t and the boundary every kernel run back to back
 * pays (st_kernel_boundary_s), or 0 for a kernel with nothing to do (an operator the plan does
 * not run). */
static double kernel_s(const st_gpu_spec *gpu, double t)
{
    return t > 0 ? t + st_kernel_boundary_s(gpu) : 0;
}

double st__ops_stream_s(const st_gpu_spec *gpu, double bytes, double share)
{
    return kernel_s(gpu, bytes / (share * gpu->hbm_bw));
}

/* FP8 casts beside a GEMM: their bytes' time (negative where a norm writing FP8 saves traffic)
 * and a boundary for each of the `kernels` they run apart. */
static double quant_time(const st_gpu_spec *gpu, double bytes, double kernels)
{
    return mem_time(gpu, bytes) + kernels * st_kernel_boundary_s(gpu);
}

/* One kernel: the larger of compute and memory time, and its boundary; *mem_bound says which
 * won. */
static double roofline(const st_gpu_spec *gpu, double compute_s, double bytes, int *mem_bound)
{
    double m = mem_time(gpu, bytes);
    if (mem_bound)
        *mem_bound = bytes > 0 && m >= compute_s;
    return kernel_s(gpu, m > compute_s ? m : compute_s);
}

/* One GEMM of shape m x n reduced over k, reading in_bytes per input element and writing
 * out_bytes per output element; its compute and memory times add in quadrature
 * (st__ops_stream_and_compute). */
static double gemm_time_w(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k,
                          double in_bytes, double w_bytes, double out_bytes, double widen,
                          int *mem_bound)
{
    double e = st_gemm_efficiency(gpu, prec, m, n, k) * widen;
    double compute = e > 0 ? 2.0 * m * n * k /
                                 (e * st_gpu_peak(gpu, prec) * st_gpu_sustained(gpu, prec) *
                                  st_gpu_fitted(gpu, prec))
                           : 0.0;
    double bytes = m * k * in_bytes + k * n * w_bytes + m * n * out_bytes;
    double mt = mem_time(gpu, bytes);
    if (mem_bound)
        *mem_bound = bytes > 0 && mt >= compute;
    return kernel_s(gpu, st__ops_stream_and_compute(compute, mt));
}

/* Inputs and weights of the same width. */
static double gemm_time(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k,
                        double in_bytes, double out_bytes, int *mem_bound)
{
    return gemm_time_w(gpu, prec, m, n, k, in_bytes, in_bytes, out_bytes, 1.0, mem_bound);
}

static double attn_blocks(const st_op *op)
{
    return op->m * ceil(op->n / ST__ATTN_BLOCK);
}

/* One fused core's kernel time: forward work `work` (backward: ST__ATTN_BWD_FACTOR times it) at
 * the efficiency the kernel's sweep gives at seq_k keys, against the operator's bytes. */
static double attn_kernel_time(const st_gpu_spec *gpu, const st_op *op, double work, double seq_k,
                               int backward, int *mem_bound)
{
    work = work * (backward ? ST__ATTN_BWD_FACTOR : 1.0);
    double e =
        st_attn_efficiency_at(gpu, op->attn_kernel, op->attn_release, backward, seq_k,
                              attn_blocks(op)) *
        st_attn_head_dim_share(gpu, op->attn_kernel, op->attn_release, backward, op->head_dim);
    double compute =
        e > 0 ? work / (e * st_gpu_peak(gpu, ST_PREC_BF16) * st_gpu_sustained(gpu, ST_PREC_BF16) *
                        st_gpu_fitted(gpu, ST_PREC_BF16))
              : 0.0;
    double bytes = op->bytes * (backward ? st__ops_B.bwd : 1.0);
    return roofline(gpu, compute, bytes, mem_bound);
}

/* FlashAttention forward (backward != 0: backward) kernel time of an attention operator. With
 * sliding windows on a share f of the layers, the mean of a full and a windowed layer's core:
 * (1 - f) t_full + f t_window, the window's read off the same sweep at a query block's keys,
 * min(s, W + 128) (st__attn_window_sweep_keys, checked against cuDNN's windowed forward on a
 * B200; no windowed backward is published: it is read the same way); the bytes are the same. */
static double attn_time(const st_gpu_spec *gpu, const st_op *op, int backward, int *mem_bound)
{
    if (op->win_share <= 0)
        return attn_kernel_time(gpu, op, op->flops * ST__ATTN_CAUSAL_SHARE, op->k, backward,
                                mem_bound);
    double full = attn_kernel_time(gpu, op, op->full_work, op->k, backward, mem_bound);
    double win = attn_kernel_time(gpu, op, op->win_work, op->win_keys, backward, NULL);
    return (1.0 - op->win_share) * full + op->win_share * win;
}

/* Bytes an input element of a GEMM at prec takes in HBM. NVFP4 (config.h): half a byte, and
 * one byte of E4M3 scale per block of 16, 0.5625 (the per-tensor FP32 scale is negligible). */
#define NVFP4_BYTES (0.5 + 1.0 / 16.0)

double st_ops_in_bytes(const st_gpu_spec *gpu, st_precision prec)
{
    if (prec == ST_PREC_FP4 && gpu->peak_fp4 > 0)
        return NVFP4_BYTES;
    return prec != ST_PREC_BF16 && gpu->peak_fp8 > 0 ? 1.0 : 2.0;
}

/* MXFP4 (ST_PREC_MXFP4): half a byte, and one byte of E8M0 scale per block of 32. */
#define MXFP4_BYTES (0.5 + 1.0 / 32.0)

double st_ops_stored_bytes(st_precision prec)
{
    return prec == ST_PREC_MXFP4 ? MXFP4_BYTES
           : prec == ST_PREC_FP4 ? NVFP4_BYTES
           : prec == ST_PREC_FP8 ? 1.0
                                 : 2.0;
}

double st_ops_gemm_time(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k)
{
    return gemm_time(gpu, prec, m, n, k, st_ops_in_bytes(gpu, prec), 2.0, NULL);
}

/* GEMMs an operator runs (a grouped expert GEMM: one per local expert). */
static double count_of(const st_op *op)
{
    return op->count > 1 ? op->count : 1.0;
}

/* Bytes of one weight element of a GEMM operator (st_op.weight_bytes). */
static double weight_bytes_of(const st_gpu_spec *gpu, const st_op *op)
{
    return op->weight_bytes > 0 ? op->weight_bytes : st_ops_in_bytes(gpu, op->prec);
}

/* The share of its rate a GEMM's compute keeps: st_gemm_widen_efficiency where its kernel
 * widens the weights (st_op.widen), else all of it. */
static double widen_of(const st_op *op)
{
    return op->widen ? st_gemm_widen_efficiency() : 1.0;
}

int st_ops_widens(const st_gpu_spec *gpu, st_precision prec, st_precision wprec)
{
    return st_ops_stored_bytes(wprec) < st_ops_in_bytes(gpu, prec) &&
           !(st_ops_in_bytes(gpu, prec) < 2.0 && st_gpu_has_precision(gpu, wprec));
}

/* A fused grouped GEMM (st_op.fused_group): the count GEMMs' tiles fill the waves together at
 * the grouped efficiency, against every GEMM's operands and outputs, the compute and memory
 * times meeting as one GEMM's do (gemm_time). */
static double fused_group_time(const st_gpu_spec *gpu, const st_op *op, int *mem_bound)
{
    double c = count_of(op), in = st_ops_in_bytes(gpu, op->prec), win = weight_bytes_of(gpu, op);
    double e = st_gemm_grouped_efficiency(gpu, op->prec, c, op->m, op->n, op->k) * widen_of(op);
    double compute = e > 0 ? 2.0 * c * op->m * op->n * op->k /
                                 (e * st_gpu_peak(gpu, op->prec) * st_gpu_sustained(gpu, op->prec) *
                                  st_gpu_fitted(gpu, op->prec))
                           : 0.0;
    double bytes = c * (op->m * op->k * in + op->k * op->n * win + op->m * op->n * 2.0);
    double mt = mem_time(gpu, bytes);
    *mem_bound = mt >= compute;
    return kernel_s(gpu, st__ops_stream_and_compute(compute, mt));
}

static void time_forward(const st_gpu_spec *gpu, st_op *op)
{
    switch (op->kind) {
    case ST_OP_GEMM:
        op->time_s = (op->fused_group && count_of(op) > 1
                          ? fused_group_time(gpu, op, &op->mem_bound)
                          : count_of(op) * gemm_time_w(gpu, op->prec, op->m, op->n, op->k,
                                                       st_ops_in_bytes(gpu, op->prec),
                                                       weight_bytes_of(gpu, op), 2.0, widen_of(op),
                                                       &op->mem_bound)) +
                     quant_time(gpu, op->quant_fwd_bytes, op->quant_fwd_kernels);
        break;
    case ST_OP_ATTN:
        op->time_s = attn_time(gpu, op, 0, &op->mem_bound);
        break;
    case ST_OP_MEMORY:
        op->time_s = roofline(gpu, 0.0, op->bytes, &op->mem_bound) +
                     (op->bytes > 0 ? op->extra_kernels_fwd * st_kernel_boundary_s(gpu) : 0.0);
        break;
    }
}

/* GEMM op's forward (which 0), dgrad (1) or wgrad (2) run as `splits` pieces along the tokens,
 * the pieces' times summed (splits 1: the GEMM whole), without the FP8 quantisation passes. */
double st__ops_gemm_pass(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op,
                         int which, int splits)
{
    /* Y[m x n] = X[m x k] W[k x n]: dgrad dX = dY W^T is m x k reduced over n; wgrad
     * dW = X^T dY is k x n reduced over m, accumulated into the fp32 main gradient. */
    double in = st_ops_in_bytes(gpu, op->prec), m = op->m / splits, t;
    if (which == 0)
        t = gemm_time(gpu, op->prec, m, op->n, op->k, in, 2.0, NULL);
    else if (which == 1)
        t = gemm_time(gpu, op->prec, m, op->k, op->n, in, 2.0, NULL);
    else /* the weight gradient reduces over the tokens: never split */
        t = gemm_time(gpu, op->prec, op->k, op->n, op->m, in,
                      w->parallel.grad_accum_separate ? st__ops_B.wgrad_sep : st__ops_B.wgrad_out,
                      NULL);
    return count_of(op) * (which == 2 ? 1 : splits) * t;
}

double st_ops_backward_time(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op)
{
    if (op->kind == ST_OP_ATTN)
        return attn_time(gpu, op, 1, NULL);
    if (op->kind == ST_OP_MEMORY)
        return roofline(gpu, 0.0, op->bwd_bytes > 0 ? op->bwd_bytes : op->bytes * st__ops_B.bwd,
                        NULL) +
               (op->bytes > 0 ? op->extra_kernels_bwd * st_kernel_boundary_s(gpu) : 0.0);
    return st__ops_gemm_pass(w, gpu, op, 1, 1) + st__ops_gemm_pass(w, gpu, op, 2, 1) +
           quant_time(gpu, op->quant_bwd_bytes, op->quant_bwd_kernels);
}

double st__ops_time_forward(const st_gpu_spec *gpu, st_op *op)
{
    time_forward(gpu, op);
    return op->time_s;
}
