/* Shared between the operator graph's files: the graph's byte counts, one micro-batch's widths
 * and token counts, the builder that times each operator as it is pushed, the layer's parts and
 * the GEMM timings the layer costs reuse. Internal to models/silicon/ (ops.c assembles the
 * graphs from the parts in ops_attn.c and ops_moe.c, built with ops_build.c, sized by
 * ops_dims.c and timed by ops_roofline.c; ops_cost.c sums them into a layer's costs and
 * collectives). */
#ifndef ST_MODELS_SILICON_OPS_INTERNAL_H
#define ST_MODELS_SILICON_OPS_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "models/silicon/ops.h"
#include "models/silicon/ops_quant.h"

/* Bytes per element of the memory-bound operators and the other byte counts of the graph, in
 * one table, st__ops_B (ops_dims.c gives each value with its source). */
typedef struct st__ops_byte_table {
    double norm;      /* LayerNorm / RMSNorm: read x, write y (2 + 2); statistics are noise */
    double bda;       /* Megatron's fused bias-dropout-add: read x and residual, write out */
    double drop_mask; /* plus the dropout mask, 1 byte per element (Korthikanti §4.1) */
    double rope;      /* fused rotary embedding: read and write q and k */
    double gelu;      /* fused bias-GeLU: read and write f elements */
    double swiglu;    /* SwiGLU: read gate and up (2 + 2), write their product (2) per f */
    double dropout;   /* stand-alone dropout: read, write, mask */
    double lookup;    /* embedding gather: read a row, write it */
    double pos_add;   /* adding the learned position rows: read 2 + 2, write 2 */
    double xent;      /* per logit: see st__ops_B */
    double wgrad_out; /* per weight-gradient element: see st__ops_B */
    double wgrad_sep; /* the same with grad_accum: separate: see st__ops_B */
    double bwd;       /* backward of a memory operator against its forward */
    /* kernels: eager, where PyTorch's eager mode costs more than the fused kernel: */
    double norm_eager;   /* a composite RMSNorm */
    double rope_eager;   /* the rotary embedding as complex multiplication */
    double swiglu_eager; /* F.silu(gate) * up */
    double bda_eager;    /* dropout, then the residual add, with dropout */
    double permute;      /* MoE: per element of a token row moved by the (un)permutation */
    double router_topk;  /* MoE: per router logit, the top-k and softmax kernel */
} st__ops_byte_table;

extern const st__ops_byte_table st__ops_B;

/* One micro-batch on one GPU: token counts and the widths each TP rank holds. */
typedef struct dims {
    double b, s, sq; /* sequences, keys per sequence, queries per sequence here (s / cp) */
    double T, Tr;    /* tokens here; tokens of the norms, dropouts and residuals (T / tp with
                        sequence parallelism, else T) */
    double h, heads, da, dkv, f, up, v; /* h whole; the rest per TP rank */
    int dropout, rope, swiglu;
    double norm, rope_b, act, bda; /* bytes per element of the memory operators */
    st_precision prec;
    /* the routed experts' MMA precision and their weights' (st_workload_cfg.expert_precision,
     * expert_weights): prec and prec without a stated expert precision */
    st_precision eprec, ewprec;
    st_fp8_recipe fp8_recipe;
    int moe_fused; /* the workload's kernels.moe_fused: expert GEMMs as one fused kernel */
    int permute_eager, router_eager; /* kernels.permute, kernels.router: eager */
    int capacity;                    /* a capacity factor is set (token dropping) */
    int quant_apart; /* FP8 casts run as kernels of their own (training: Transformer Engine's) */
    /* Mixture of experts (0 experts: dense): experts, top-k, ep, one expert's width and first
     * projection's width (whole: expert tensor parallelism 1), and the tokens each expert on
     * this GPU receives, imb k Tr ep / experts (the mean's times the routing imbalance); the
     * shared experts' inner and first projection's widths per TP rank (0 without). */
    double experts, topk, ep, fe, up_e, me, fs, up_s;
    double etp; /* expert tensor parallelism: fe and up_e are per etp rank, me gathered over it */
    double imb; /* st_moe_imbalance: the most loaded EP rank's rows over the mean */
    /* Multi-head latent attention (mla 0: ordinary): the value width per TP rank (the core's
     * output and the output projection's input; = da without MLA), the latent ranks and the
     * rotary head width (whole: the down projections are not split), and the per-rank widths
     * of the query up projection's and the key/value up projection's outputs. */
    int mla;
    double dv, ql, kvl, rope_d, q_up, kv_up;
    /* Sliding windows (win_share 0: none): the share of layers with a window and the keys a
     * windowed query sees at most, min(s, W). */
    double win_share, win_keys;
} dims;

/* FlashAttention's query block: 128 rows for head dims up to 128 (FlashAttention-3's
 * tile_size_fwd_sm90; FlashAttention-2's kBlockM on A100; cuDNN's TILE_M=128 on sm100). */
#define ST__ATTN_BLOCK 128.0

/* The FLOP convention of FlashAttention's benchmarks: the backward kernel does 2.5x the
 * forward's FLOPs (five matmuls against two, Dao 2023 §4.1), causal masking halves both. */
#define ST__ATTN_BWD_FACTOR   2.5
#define ST__ATTN_CAUSAL_SHARE 0.5

/* The keys at which a sliding-window core reads its kernel's sweep: a block of ST__ATTN_BLOCK
 * queries spans its window and its own rows, W + 128 keys, of which each query uses W, as a
 * causal square of that length has its blocks do (at most `keys`, those the core reads).
 * cuDNN 9.27 on a B200 (NVIDIA/cudnn-frontend benchmark/attention_inference, results
 * gpt_oss/b200 of 2026-09-18, GPT-OSS's windowed layers, W = 128) ran 2k, 8k and 32k windowed
 * prefills in 0.035, 0.113 and 0.437 ms, 1.01-1.33 times what the sweep read at 256 keys gives
 * (the most at 2k, a kernel of a few microseconds whose launch the sweep does not hold), and
 * 0.5-0.7 times what 128 keys give. docs/models/step-ops.md, "Sliding windows". */
static inline double st__attn_window_sweep_keys(double window, double keys)
{
    double k = window + ST__ATTN_BLOCK;
    return k < keys ? k : keys;
}

/* A query head's width on d's GPU, the mean of its query/key and value dims (st_op.head_dim). */
static inline double st__ops_head_dim(const dims *d)
{
    return (d->da + d->dv) / (2.0 * d->heads);
}

/* The widths and token counts of one micro-batch of w on one GPU. */
dims st__ops_dims_of(const st_workload_cfg *w, int64_t microbatch);

/* A kernel's time from its compute and memory times: the two add in quadrature, a kernel
 * streaming its operands while its Tensor Cores work overlapping them imperfectly, the most where
 * they take about as long (decode's GEMMs of a few hundred rows). Fitted on Vidur's H100 profiles
 * of Llama 2 7B's and 70B's linear layers (microsoft/vidur, data/profiling/compute/h100, 8,352
 * BF16 GEMMs of 1-4,096 tokens, each less the 4.75 us launch overhead XLA's table carries): over
 * (c^p + m^p)^(1/p) the log-time error is least at p = 1.75 (rms 0.155), 0.159 at p = 2, taken
 * (hypot), against 0.211 for the larger alone. docs/models/step-ops.md, "Roofline". */
static inline double st__ops_stream_and_compute(double compute_s, double memory_s)
{
    return hypot(compute_s, memory_s);
}

/* A memory-bound kernel of `bytes` HBM traffic read at `share` of the datasheet bandwidth, and
 * its kernel boundary (0 for no bytes): the roofline's memory time at a kernel's own share (a
 * paged decode kernel's, st_decode_attn_efficiency). */
double st__ops_stream_s(const st_gpu_spec *gpu, double bytes, double share);

/* Time op forward on gpu as the layer graph does (into op->time_s and op->mem_bound), and
 * return it: for operators built outside the training graph (ops_serve.c). */
double st__ops_time_forward(const st_gpu_spec *gpu, st_op *op);

double st__ops_gemm_pass(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op,
                         int which, int splits);

/* ---- Building a graph (ops_build.c) -------------------------------------------------------- */

/* A graph being built into the caller's ops: every operator is timed on gpu as it is pushed and
 * counted in n, and stored while n < cap (a caller with too small an array learns the size). */
typedef struct builder {
    const st_gpu_spec *gpu;
    st_op *ops;
    size_t cap, n;
} builder;

/* Time op forward on g's GPU and append it. */
void st__ops_push(builder *g, st_op op);

/* A GEMM Y[m x n] = X[m x k] W[k x n] at prec, with no quantisation of its own. */
void st__ops_gemm(builder *g, const char *name, st_precision prec, double m, double n, double k);

/* A linear layer of d's precision, with its FP8 casts (x_rows of x's, produced by x_feed;
 * dy_rows of the output gradient's) timed beside it. */
void st__ops_linear(builder *g, const dims *d, const char *name, double m, double n, double k,
                    double x_rows, st__ops_feed x_feed, double dy_rows);

/* A grouped GEMM of d's expert precision: `count` GEMMs of m x n x k, one per local expert. */
void st__ops_grouped(builder *g, const dims *d, const char *name, double count, double m, double n,
                     double k);

/* A memory-bound operator of `bytes` HBM traffic. */
void st__ops_memory(builder *g, const char *name, double bytes);

/* Mark the operators pushed since `from` as the attention core (st_op.attn_core). */
void st__ops_mark_core(builder *g, size_t from);

/* ---- The layer's parts (ops_attn.c, ops_moe.c) --------------------------------------------- */

/* The fused attention core of d with the workload's kernel (st_attention) and cuDNN release. */
void st__ops_attention(builder *g, const dims *d, int kernel, int release);

/* The pre-FlashAttention core, its operators marked as the core. */
void st__ops_attention_unfused(builder *g, const dims *d);

/* MLA's projections and rotary embedding, in place of the qkv linear layer. */
void st__ops_mla_projections(builder *g, const dims *d);

/* A mixture-of-experts layer's MLP: shared experts, router, permutation, the local experts. */
void st__ops_moe_mlp(builder *g, const dims *d);

#endif
