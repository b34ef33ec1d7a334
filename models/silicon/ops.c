/* The operator graph of one transformer layer, of the embedding and output layer, and the
 * optimizer step on one GPU: FLOPs, HBM bytes and roofline times after tensor, sequence and
 * context parallelism. docs/models/step-ops.md lists the operators, their byte counts and sources.
 */
#include "models/silicon/ops.h"

#include <math.h>
#include <string.h>

#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops_internal.h"
#include "models/silicon/ops_quant.h"
#include "models/silicon/parallel.h"

/* Bytes per element of the memory-bound operators and the other byte counts of the graph, in
 * one table (DESIGN.md: every model constant in one place). Activations are bf16. */
static const struct op_bytes {
    double norm;      /* LayerNorm / RMSNorm: read x, write y (2 + 2); statistics are noise */
    double bda;       /* Megatron's fused bias-dropout-add: read x and residual, write out */
    double drop_mask; /* plus the dropout mask, 1 byte per element (Korthikanti §4.1) */
    double rope;      /* fused rotary embedding: read and write q and k */
    double gelu;      /* fused bias-GeLU: read and write f elements */
    double swiglu;    /* SwiGLU: read gate and up (2 + 2), write their product (2) per f */
    double dropout;   /* stand-alone dropout: read, write, mask */
    double lookup;    /* embedding gather: read a row, write it */
    double pos_add;   /* adding the learned position rows: read 2 + 2, write 2 */
    double xent;      /* per logit: see below */
    double wgrad_out; /* per weight-gradient element: see below */
    double wgrad_sep; /* the same with grad_accum: separate: see below */
    double bwd;       /* backward of a memory operator against its forward */
    /* kernels: eager, where PyTorch's eager mode costs more than the fused kernel: */
    double norm_eager;   /* a composite RMSNorm */
    double rope_eager;   /* the rotary embedding as complex multiplication */
    double swiglu_eager; /* F.silu(gate) * up */
    double bda_eager;    /* dropout, then the residual add, with dropout */
    double permute;      /* MoE: per element of a token row moved by the (un)permutation */
    double router_topk;  /* MoE: per router logit, the top-k and softmax kernel */
} B = {
    .norm = 4,
    .bda = 6,
    .drop_mask = 1,
    .rope = 4,
    .gelu = 4,
    .swiglu = 6,
    .dropout = 5,
    .lookup = 4,
    .pos_add = 6,
    /* Megatron's vocab-parallel cross entropy casts the bf16 logits to fp32 (read 2, write 4),
     * reads them for the row maximum (4), then exponentiates and normalises in place (read 4,
     * write 4); Korthikanti §4.3 notes the fp32 logits. */
    .xent = 18,
    /* The weight gradient accumulates into the fp32 main gradient (Megatron-LM's
     * gradient_accumulation_fusion, beta = 1): read 4 and write 4 per element. */
    .wgrad_out = 8,
    /* grad_accum: separate (DeepSpeed's BF16 optimizer, which clears the bf16 gradients before
     * each backward): the GEMM writes a fresh bf16 gradient, 2 bytes, reading nothing; then,
     * after each micro-batch's backward, update_hp_grads runs
     * hp_grad.add_(lp.grad.to(float32)), the separate pass models/silicon/ops_optim.c
     * times. */
    .wgrad_sep = 2,
    /* An element-wise operator's backward reads the upstream gradient and what the forward
     * saved and writes the input gradient: about twice its forward traffic. */
    .bwd = 2,
    /* kernels: eager. PyTorch's eager mode runs each tensor operation of the model's code as
     * its own kernel, which reads its inputs from HBM and writes its output back. The counts
     * follow torchtitan's Llama code at commit 9dec370, the one its December 2024 H100
     * benchmarks name (torchtitan/models/norms.py RMSNorm; torchtitan/models/llama/model.py
     * apply_rotary_emb and FeedForward); fp32 is 4 bytes, bf16 2 (read, write):
     *   RMSNorm  x.float() (2, 4), pow(2) (4, 4), mean(-1) (4, per-row output), x * rsqrt
     *            (4, 4), type_as (4, 2), * weight (2, 2): 36 per element. The per-row rsqrt is
     *            noise. LayerNorm is one ATen kernel in eager mode too (native_layer_norm),
     *            so it keeps `norm`.
     *   rotary   q.float() (2, 4), the complex product with freqs_cis (4, 4; the table holds
     *            one row per position for all heads), type_as (4, 2): 20 per element.
     *   SwiGLU   F.silu(gate) (2, 2), then * up (2 + 2, 2): 10 per ffn element.
     *   dropout  its own kernel (read 2, write 2 and the 1-byte mask), then the residual add
     *            (2 + 2, 2): 11 per element, against the fused kernel's 7.
     * GeLU (F.gelu after a linear whose bias the addmm adds), the residual add without dropout,
     * the embedding lookup and the cross entropy are one kernel each either way. Backward is
     * twice the forward (`bwd`), as for every memory operator. */
    .norm_eager = 36,
    .rope_eager = 20,
    .swiglu_eager = 10,
    .bda_eager = 11,
    /* The MoE token permutation (Megatron-Core's moe_permute: a gather of each token's row into
     * the k rows of its experts) and the unpermutation (the k expert outputs read and summed
     * with the router's weights into one row): each row read or written once in BF16, 2 bytes
     * per element a side. */
    .permute = 2,
    /* The router's top-k (Megatron-Core's topk_routing_with_score_function in
     * megatron/core/transformer/moe/moe_utils.py, one kernel with moe_router_fusion, Transformer
     * Engine's fused_topk_with_score_function; vLLM's topk_softmax, SGLang's fused top-k): it
     * reads each token's logit per expert (BF16) and writes the probabilities (softmax in fp32,
     * then type_as the logits: BF16) and the routing map (bool), dense over the experts: 5 bytes
     * per token and expert. Unfused, Megatron-Core runs it as several kernels (softmax, topk, two
     * scatters); one is counted, the fewest any stack runs. */
    .router_topk = 5,
};

#define ATTN_BLOCK ST__ATTN_BLOCK
/* The FLOP convention of FlashAttention's benchmarks: the backward kernel does 2.5x the
 * forward's FLOPs (five matmuls against two, Dao 2023 §4.1), causal masking halves both. */
#define ATTN_BWD_FACTOR 2.5
#define CAUSAL_SHARE    0.5

static double at_least_1(int64_t v)
{
    return v < 1 ? 1.0 : (double)v;
}

/* MLA's widths (models/silicon/llm.h): no grouped-query attention, so K has Q's width per rank;
 * V is heads v / t. */
static void mla_dims(dims *d, const st_llm_spec *m, double t)
{
    d->mla = st_llm_is_mla(m);
    d->dv = (double)st_llm_v_width(m) / t;
    if (!d->mla)
        return;
    d->dkv = d->da;
    d->ql = (double)m->q_lora_rank;
    d->kvl = (double)m->kv_lora_rank;
    d->rope_d = (double)m->qk_rope_head_dim;
    d->q_up = d->da;
    d->kv_up = d->heads * (double)(m->qk_nope_head_dim + m->v_head_dim);
}

dims st__ops_dims_of(const st_workload_cfg *w, int64_t microbatch)
{
    const st_llm_spec *m = w->model;
    double t = at_least_1(w->parallel.tp), c = at_least_1(w->parallel.cp);
    double heads = (double)(m->heads > 0 ? m->heads : 1);
    double groups = (double)(m->kv_heads > 0 ? m->kv_heads : m->heads);
    double hd = (double)st_llm_attn_width(m) / heads;
    dims d;
    d.b = at_least_1(microbatch);
    d.s = (double)w->seq_len;
    d.sq = d.s / c;
    d.T = d.b * d.sq;
    d.Tr = w->parallel.sequence_parallel ? d.T / t : d.T;
    d.h = (double)m->hidden;
    d.heads = heads / t;
    d.da = (double)st_llm_attn_width(m) / t;
    /* K/V groups split over TP ranks; with fewer groups than ranks each rank keeps one. */
    d.dkv = ceil(groups / t) * hd;
    d.f = (double)st_llm_ffn(m) / t;
    d.swiglu = m->mlp == ST_MLP_SWIGLU;
    d.up = d.swiglu ? 2.0 * d.f : d.f;
    d.v = (double)(m->vocab > 0 ? m->vocab : 51200) / t;
    d.dropout = st_llm_has_dropout(m);
    d.rope = m->pos == ST_POS_ROPE;
    d.prec = w->precision;
    d.eprec = w->expert_precision_given ? w->expert_precision : w->precision;
    d.ewprec = w->expert_precision_given ? w->expert_weights : w->precision;
    d.fp8_recipe = w->fp8_recipe;
    d.moe_fused = w->kernels.moe_fused;
    d.permute_eager = w->kernels.permute == ST_KERNELS_EAGER;
    d.router_eager = w->kernels.router == ST_KERNELS_EAGER;
    d.capacity = w->capacity_factor > 0;
    /* Transformer Engine casts a linear layer's input and output gradient in kernels of their
     * own (models/silicon/ops_quant.c); a serving engine fuses the activation's quantisation
     * into the kernel that produces it (vLLM's RMSNormQuantFusionPass and
     * ActivationQuantFusionPass, vllm/compilation; TensorRT-LLM's fused norm-quant kernels), so
     * a service's casts add bytes but no kernel. */
    d.quant_apart = w->kind != ST_WL_INFERENCE;
    const st_kernels_cfg *k = &w->kernels;
    d.norm = k->norm == ST_KERNELS_EAGER && m->norm == ST_NORM_RMSNORM ? B.norm_eager : B.norm;
    d.rope_b = k->rope == ST_KERNELS_EAGER ? B.rope_eager : B.rope;
    d.act = !d.swiglu ? B.gelu : k->act == ST_KERNELS_EAGER ? B.swiglu_eager : B.swiglu;
    d.bda = !d.dropout                        ? B.bda
            : k->residual == ST_KERNELS_EAGER ? B.bda_eager
                                              : B.bda + B.drop_mask;
    d.experts = (double)(m->experts > 0 ? m->experts : 0);
    d.topk = (double)m->experts_per_token;
    d.ep = at_least_1(w->parallel.ep);
    d.etp = at_least_1(w->parallel.etp);
    d.fe = (double)m->expert_ffn_hidden / d.etp;
    d.up_e = (double)st_llm_expert_up(m) / d.etp;
    d.imb = st_moe_imbalance(w);
    /* an expert's rows on a rank: the k Tr tokens of each rank of its EP group, and of each of
     * its etp ranks when they hold different tokens (gathered); tensor parallelism without
     * sequence parallelism (a serving replica: training refuses it for MoE) gives every TP rank,
     * and so every EP and etp rank inside it, the same tokens: an expert receives its share of
     * those alone, each rank running its slice of them */
    double from = t > 1 && !w->parallel.sequence_parallel ? 1.0 : d.ep * d.etp;
    d.me = d.experts > 0 ? d.imb * d.topk * d.Tr * from / d.experts : 0.0;
    d.up_s = (double)st_llm_shared_up(m) / t;
    d.fs = d.up_s > 0 ? (double)m->shared_expert_ffn_hidden / t : 0.0;
    mla_dims(&d, m, t);
    d.win_share = (double)st_llm_window_layers(m) / (double)(m->layers > 0 ? m->layers : 1);
    d.win_keys = (double)st_llm_window_keys(m, w->seq_len);
    return d;
}

/* ---- Roofline ------------------------------------------------------------------------------ */

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
    return op->m * ceil(op->n / ATTN_BLOCK);
}

/* One fused core's kernel time: forward work `work` (backward: ATTN_BWD_FACTOR times it) at
 * the efficiency the kernel's sweep gives at seq_k keys, against the operator's bytes. */
static double attn_kernel_time(const st_gpu_spec *gpu, const st_op *op, double work, double seq_k,
                               int backward, int *mem_bound)
{
    work = work * (backward ? ATTN_BWD_FACTOR : 1.0);
    double e =
        st_attn_efficiency_at(gpu, op->attn_kernel, op->attn_release, backward, seq_k,
                              attn_blocks(op)) *
        st_attn_head_dim_share(gpu, op->attn_kernel, op->attn_release, backward, op->head_dim);
    double compute =
        e > 0 ? work / (e * st_gpu_peak(gpu, ST_PREC_BF16) * st_gpu_sustained(gpu, ST_PREC_BF16) *
                        st_gpu_fitted(gpu, ST_PREC_BF16))
              : 0.0;
    double bytes = op->bytes * (backward ? B.bwd : 1.0);
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
        return attn_kernel_time(gpu, op, op->flops * CAUSAL_SHARE, op->k, backward, mem_bound);
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
                      w->parallel.grad_accum_separate ? B.wgrad_sep : B.wgrad_out, NULL);
    return count_of(op) * (which == 2 ? 1 : splits) * t;
}

double st_ops_backward_time(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op)
{
    if (op->kind == ST_OP_ATTN)
        return attn_time(gpu, op, 1, NULL);
    if (op->kind == ST_OP_MEMORY)
        return roofline(gpu, 0.0, op->bwd_bytes > 0 ? op->bwd_bytes : op->bytes * B.bwd, NULL) +
               (op->bytes > 0 ? op->extra_kernels_bwd * st_kernel_boundary_s(gpu) : 0.0);
    return st__ops_gemm_pass(w, gpu, op, 1, 1) + st__ops_gemm_pass(w, gpu, op, 2, 1) +
           quant_time(gpu, op->quant_bwd_bytes, op->quant_bwd_kernels);
}

/* ---- Building the graph -------------------------------------------------------------------- */

typedef struct builder {
    const st_gpu_spec *gpu;
    st_op *ops;
    size_t cap, n;
} builder;

double st__ops_time_forward(const st_gpu_spec *gpu, st_op *op)
{
    time_forward(gpu, op);
    return op->time_s;
}

static void push(builder *g, st_op op)
{
    time_forward(g->gpu, &op);
    if (g->n < g->cap)
        g->ops[g->n] = op;
    g->n++;
}

/* A GEMM Y[m x n] = X[m x k] W[k x n] at prec: inputs read at the precision's width, Y written
 * in BF16. */
static st_op gemm_op(const builder *g, const char *name, st_precision prec, double m, double n,
                     double k)
{
    double in = st_ops_in_bytes(g->gpu, prec);
    st_op op = {.name = name, .kind = ST_OP_GEMM, .m = m, .n = n, .k = k, .prec = prec};
    op.flops = 2.0 * m * n * k;
    op.bytes = (m * k + k * n) * in + m * n * 2.0;
    return op;
}

static void gemm(builder *g, const char *name, st_precision prec, double m, double n, double k)
{
    push(g, gemm_op(g, name, prec, m, n, k));
}

/* A linear layer of the workload's precision. Under FP8 its input x (x_rows x k, produced by
 * x_feed) is quantised before the forward GEMM and its output gradient (dy_rows x n, produced
 * by a plain kernel) before the backward ones (see QUANT). Rows are what this GPU quantises:
 * the sequence-parallel shard where the tensor is then all-gathered in FP8 (Transformer Engine
 * quantises, then gathers), all m tokens otherwise. The quantisation is timed with the GEMM but
 * kept out of its bytes, which stay the GEMM's own. */
static void linear(builder *g, const dims *d, const char *name, double m, double n, double k,
                   double x_rows, st__ops_feed x_feed, double dy_rows)
{
    st_op op = gemm_op(g, name, d->prec, m, n, k);
    if (st_ops_in_bytes(g->gpu, d->prec) < 2.0) {
        op.quant_fwd_bytes = st__ops_quant_operand(g->gpu, d->fp8_recipe, x_feed, x_rows, m, k);
        op.quant_bwd_bytes =
            st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, dy_rows, m, n);
        if (d->quant_apart) {
            op.quant_fwd_kernels = st__ops_quant_kernels(g->gpu, d->fp8_recipe, x_feed, x_rows, m);
            op.quant_bwd_kernels =
                st__ops_quant_kernels(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, dy_rows, m);
        }
    }
    push(g, op);
}

/* A grouped GEMM of the workload's precision (Megatron-Core's TEGroupedMLP): `count` GEMMs
 * of m x n x k, one per expert on this GPU, each timed at its own shape; FLOPs, bytes and, under
 * FP8, the quantisation of each expert's input (produced by the permutation or the activation,
 * plain kernels) and output gradient are the totals. */
static void grouped(builder *g, const dims *d, const char *name, double count, double m, double n,
                    double k)
{
    st_op op = gemm_op(g, name, d->eprec, m, n, k);
    op.count = count;
    op.fused_group = d->moe_fused;
    if (d->ewprec != d->eprec) { /* weights stored apart: their own width */
        op.weight_bytes = st_ops_stored_bytes(d->ewprec);
        op.widen = st_ops_widens(g->gpu, d->eprec, d->ewprec);
        op.bytes =
            m * k * st_ops_in_bytes(g->gpu, d->eprec) + k * n * op.weight_bytes + m * n * 2.0;
    }
    op.flops *= count;
    op.bytes *= count;
    if (st_ops_in_bytes(g->gpu, d->eprec) < 2.0) {
        op.quant_fwd_bytes =
            count * st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m, k);
        op.quant_bwd_bytes =
            count * st__ops_quant_operand(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m, n);
        if (d->quant_apart) { /* every expert's input in one kernel (TE's multi-tensor cast) */
            op.quant_fwd_kernels =
                st__ops_quant_kernels(g->gpu, d->fp8_recipe, ST__FEED_PLAIN, m, m);
            op.quant_bwd_kernels = op.quant_fwd_kernels;
        }
    }
    push(g, op);
}

static void memory(builder *g, const char *name, double bytes)
{
    st_op op = {.name = name, .kind = ST_OP_MEMORY, .bytes = bytes, .prec = ST_PREC_BF16};
    push(g, op);
}

/* A sliding-window model's core (d->win_share > 0): a windowed layer's kernel does the work of
 * its window, the causal triangle over the first w = min(s, W) keys and then w keys for each
 * later query, w^2 / 2 + (s - w) w query-key pairs a sequence (= s^2 / 2, the full layer's,
 * when s <= W), shared over the CP ranks like the full layer's s^2 / 2; its model FLOPs count
 * s w pairs, not discounted, as st_llm_flops_per_token does. flops becomes the layers' mean. */
static void window(st_op *op, const dims *d)
{
    double w = d->win_keys, per_pair = 2.0 * d->b * (d->sq / d->s) * (d->da + d->dv);
    op->win_share = d->win_share;
    op->win_keys = st__attn_window_sweep_keys(w, d->s);
    op->full_work = op->flops * CAUSAL_SHARE;
    op->win_work = per_pair * (w * w / 2.0 + (d->s - w) * w);
    double win_flops = 2.0 * d->b * d->sq * w * (d->da + d->dv);
    op->flops = (1.0 - d->win_share) * op->flops + d->win_share * win_flops;
}

/* The attention core on this GPU: every local query head of each of the b sequences attends
 * from its sq queries to all s keys (with context parallelism the K/V of the whole sequence
 * arrive by the CP exchange). Model FLOPs: QK^T over the query/key width da and PV over the
 * value width dv, 2 sq s per dimension each (4 sq s da when dv = da). HBM: Q, K, V and O in
 * bf16 (Q and K of width da, V and O of dv) and the fp32 log-sum-exp per query and head.
 * MLA's head dim (nope + rope: 192 for DeepSeek-V3) is timed with the efficiency the
 * fused-attention sweep gives (measured at head dim 128) applied to its work: an assumption,
 * no published sweep at head dim 192 being at hand. */
static void attention(builder *g, const dims *d, int kernel, int release)
{
    st_op op = {.name = "attn",
                .kind = ST_OP_ATTN,
                .prec = ST_PREC_BF16,
                .attn_kernel = kernel,
                .attn_release = release};
    op.m = d->b * d->heads;
    op.n = d->sq;
    op.k = d->s;
    op.head_dim = st__ops_head_dim(d);
    op.flops = 2.0 * d->b * d->sq * d->s * (d->da + d->dv);
    if (d->win_share > 0)
        window(&op, d);
    op.bytes = 2.0 * (d->T * (d->da + d->dv) + d->b * d->s * (d->dkv + (d->mla ? d->dv : d->dkv))) +
               4.0 * d->T * d->heads;
    push(g, op);
}

/* Bytes per score element of the unfused attention's memory-bound kernels (BF16 scores):
 * scale-mask-softmax reads the scores and writes the probabilities; dropout reads them and
 * writes its output and a one-byte mask (Megatron-LM's fused kernels, Korthikanti et al. 2022
 * section 4.1 counts the same tensors: 2as^2b bytes of probabilities, as^2b of mask). */
#define UNFUSED_SOFTMAX_BYTES 4.0
#define UNFUSED_DROPOUT_BYTES 5.0

static void mark_core(builder *g, size_t from)
{
    for (size_t i = from; i < g->n && i < g->cap; i++)
        g->ops[i].attn_core = 1;
}

/* The pre-FlashAttention core: Q K^T and P V as batched GEMMs over the b x heads matrices
 * (stacked along m for the tile model; FLOPs exact), with the s x s scores through softmax and
 * dropout in HBM. Masked work is done, not skipped. */
static void attention_unfused(builder *g, const dims *d)
{
    size_t from = g->n;
    double rows = d->b * d->heads * d->sq, scores = rows * d->s, hd = d->da / d->heads;
    double hv = d->dv / d->heads; /* = hd but with MLA's value head */
    gemm(g, "qk", ST_PREC_BF16, rows, d->s, hd);
    memory(g, "softmax", UNFUSED_SOFTMAX_BYTES * scores);
    if (d->dropout)
        memory(g, "attn_drop", UNFUSED_DROPOUT_BYTES * scores);
    gemm(g, "pv", ST_PREC_BF16, rows, hv, d->s);
    mark_core(g, from);
}

/* Shared experts (Megatron-Core's SharedExpertMLP, an MLP with ffn_hidden_size =
 * moe_shared_expert_intermediate_size): the dense MLP's fc1, activation and fc2 over all T
 * tokens after the sequence-parallel gather, column- then row-parallel. Their linear layers are
 * TEColumnParallelLinear and TERowParallelLinear: an MoE layer's pre-MLP norm is a separate
 * TENorm, so nothing fuses the fc1 input's quantisation (ST__FEED_PLAIN). Without
 * moe_shared_expert_overlap MoELayer runs them first, on the compute stream, before the router
 * (megatron/core/transformer/moe/moe_layer.py, custom_forward: shared_experts_compute), so
 * their time adds to the routed path's and is not hidden behind the all-to-alls. Qwen2-MoE's
 * sigmoid gate (moe_shared_expert_gate: a 1 x h weight per layer, 2h FLOPs a token, a GEMV) is
 * left out. */
static void shared_mlp(builder *g, const dims *d)
{
    if (d->up_s <= 0)
        return;
    linear(g, d, "shared_fc1", d->T, d->up_s, d->h, d->Tr, ST__FEED_PLAIN, d->T);
    memory(g, "shared_act", d->act * d->T * d->fs);
    linear(g, d, "shared_fc2", d->T, d->h, d->fs, d->T, ST__FEED_PLAIN, d->Tr);
}

/* The routing imbalance an MoE scenario that states none gets: dropless routing balanced by the
 * auxiliary loss, as Megatron-Core trains by default (moe_router_load_balancing_type aux_loss).
 * Calibrated on one measurement: the Megatron MoE Model Zoo (github.com/yanring/
 * Megatron-MoE-ModelZoo, best_practice/qwen3, "Long Context"), Qwen3-235B-A22B on 256 H100 at
 * TP 4, PP 8, VPP 4, EP 8, global batch 256, aux-loss coefficient 1e-3: 295 TFLOP/s per GPU with
 * forced balance against 237 with real dropless routing at 16k tokens, a step 1.245 times as
 * long, which this model gives at 1.62 (full recompute assumed: the plan fits no other way in
 * its memory model). Evaluated on the same table's other lengths: 32k (CP 2), 64k (CP 4) and 128k
 * (CP 8) measured 1.209, 1.150 and 1.090, predicted 1.209, 1.143 and 1.088, the cost shrinking as
 * attention takes more of the step. The DeepSeek aux-loss-free paper's aux-loss baselines
 * (Wang et al. 2024, arXiv 2408.15664, table 2: MaxVio 0.72 and 0.52 on 1B and 3B models, a
 * most-loaded expert 1.72 and 1.52 times the mean) bracket it. tests/unit/step/test_moe_step.c
 * checks the four. Benchmarks that force balance (Megatron's moe_router_force_load_balancing)
 * state 1. */
#define MOE_IMBALANCE_DEFAULT 1.62

double st_moe_routing(const st_workload_cfg *w)
{
    /* one rank holding every expert receives every row: nothing to be unequal over */
    if (!w->model || w->model->experts <= 0 || w->parallel.ep <= 1)
        return 1.0;
    double imb = w->routing_imbalance_given ? w->routing_imbalance : MOE_IMBALANCE_DEFAULT;
    return fmin(imb, (double)w->parallel.ep); /* a rank receives at most its group's rows */
}

double st_moe_imbalance(const st_workload_cfg *w)
{
    if (!w->model || w->model->experts <= 0)
        return 1.0;
    double imb = st_moe_routing(w);
    /* Token dropping (GShard, arXiv 2006.16668 section 2.2; Switch Transformer, arXiv
     * 2101.03961 section 2.2; Megatron-Core's moe_expert_capacity_factor): each expert keeps at
     * most capacity_factor times its mean rows, so a rank of experts keeps at most that times
     * the rank's mean; padded (moe_pad_expert_input_to_capacity), every expert runs exactly its
     * capacity. */
    if (w->capacity_factor > 0)
        imb = w->pad_to_capacity ? w->capacity_factor : fmin(imb, w->capacity_factor);
    return imb;
}

/* Megatron-Core's MoE layer with its fusions off (kernels: {permute: eager, router: eager};
 * moe_permute_fusion defaults to False, and before core_v0.13 there is no moe_router_fusion):
 * the PyTorch operations of megatron/core/transformer/moe/moe_utils.py, router.py and
 * token_dispatcher.py at core_v0.11.0 (the same at core_v0.12.0), each its own kernel, counted
 * on the drop-and-pad path (moe_pad_expert_input_to_capacity) and its autograd backward. Bytes
 * per element of a hidden row, BF16 (2 bytes): R = k T_m routed rows, T = T_m token rows.
 *   permute    forward: tokens.index_select(0, sorted_indices), each routed row read and
 *              written (4 R); before it routing_map.sum(0).long(), .to(int8), .T.contiguous(),
 *              argsort, the capacity slice .contiguous() (6 small kernels).
 *              backward (index_select's): zeros(T, h) and index_add_ of the R rows into it, the
 *              output read and written by the atomics (2 T + 2 R + 4 T).
 *   unpermute  forward: permuted_tokens * permuted_probs (4 R), torch.zeros(T, h) (2 T),
 *              scatter_add_ of the R rows (2 R, and the output read and written, 4 T); before
 *              them probs.T.contiguous(), arange, two index products and index_select of the
 *              probabilities (5 small kernels).
 *              backward: scatter_add_'s gather of the output gradient into R rows (4 R), the
 *              product's two gradients, g * probs (4 R) and g * tokens (6 R), and the latter's
 *              sum over the hidden width (2 R); index_select's and the transpose's backward on
 *              the probabilities (3 small kernels).
 *   router     topk_softmax_with_capacity with use_pre_softmax: softmax with its fp32 cast (2),
 *              type_as, topk, the probability map (zeros_like, clone, scatter: 3), the routing
 *              map (zeros_like, int, clone, scatter, bool: 5), tokens_per_expert's sum: 13;
 *              with a capacity factor the top-capacity over the tokens (topk along dim 0: at
 *              least 1), its mask (zeros_like, clone, scatter, bool: 4) and the masked
 *              probabilities (1): 6 more; the auxiliary loss (aux_loss_load_balancing: softmax
 *              with its cast, 2; switch_load_balancing_loss_func's sum, product, sum and scale,
 *              4; save_to_aux_losses_tracker's divide and add, 2): 8. Backward: the masked
 *              product, the scatter's gather, type_as, topk's zeros and scatter, softmax's two
 *              (7); the loss: MoEAuxLossAutoScaler's ones_like and product, the scale, the sum's
 *              expand, the product, the sum(0)'s expand, softmax's two and the add into the
 *              logits' gradient (10).
 * The one-kernel router_topk operator stays (its bytes and first boundary); the eager counts
 * are the kernels beyond the fused ones'. Each kernel pays st_kernel_boundary_s; the element
 * counts over [T, experts] are noise beside it. */
static const struct eager_kernels {
    double permute_fwd_kernels, permute_bwd_kernels, unpermute_fwd_kernels, unpermute_bwd_kernels;
    double router_fwd, router_capacity_fwd, router_aux_fwd, router_bwd, router_aux_bwd;
} E = {
    .permute_fwd_kernels = 7,   /* 6 small and the gather */
    .permute_bwd_kernels = 2,   /* zeros, index_add_ */
    .unpermute_fwd_kernels = 8, /* 5 small, the product, zeros, scatter_add_ */
    .unpermute_bwd_kernels = 7, /* gather, two products, the sum, 3 small */
    .router_fwd = 13,
    .router_capacity_fwd = 6,
    .router_aux_fwd = 8,
    .router_bwd = 7,
    .router_aux_bwd = 10,
};

/* An eager (un)permutation: fwd_r and fwd_t bytes per element of the R = k T_m routed rows and
 * of the T_m token rows forward, bwd_r and bwd_t backward, run as fwd_k and bwd_k kernels (the
 * rows a rank permutes are its own tokens': the routing imbalance does not scale them). */
static void eager_permute(builder *g, const char *name, const dims *d, double fwd_r, double fwd_t,
                          double bwd_r, double bwd_t, double fwd_k, double bwd_k)
{
    st_op op = {.name = name, .kind = ST_OP_MEMORY, .prec = ST_PREC_BF16};
    op.bytes = (fwd_r * d->topk + fwd_t) * d->Tr * d->h;
    op.bwd_bytes = (bwd_r * d->topk + bwd_t) * d->Tr * d->h;
    op.extra_kernels_fwd = fwd_k - 1.0;
    op.extra_kernels_bwd = bwd_k - 1.0;
    push(g, op);
}

/* The eager router's kernels beyond the fused router_topk's one: a memory operator of no bytes
 * of its own but its boundaries (st_op.extra_kernels_*), timed as router_topk's bytes are
 * elsewhere. */
static void eager_router(builder *g, const dims *d)
{
    st_op op = {.name = "router_eager", .kind = ST_OP_MEMORY, .prec = ST_PREC_BF16};
    double fwd = E.router_fwd + (d->capacity ? E.router_capacity_fwd : 0.0) + E.router_aux_fwd;
    double bwd = E.router_bwd + E.router_aux_bwd;
    /* the [T_m, experts] tensors the extra kernels read and write: a few bytes an element */
    op.bytes = 4.0 * d->Tr * d->experts * (fwd - 1.0);
    op.bwd_bytes = 4.0 * d->Tr * d->experts * bwd;
    op.extra_kernels_fwd = fwd - 2.0; /* the op's own kernel and router_topk's one are counted */
    op.extra_kernels_bwd = bwd - 2.0;
    push(g, op);
}

/* The MLP of a mixture-of-experts layer on one GPU (Megatron-Core's MoELayer with the
 * all-to-all token dispatcher and TEGroupedMLP, expert tensor parallelism 1, dropless routing,
 * timed on the most loaded rank of the EP group, d->imb times the mean's rows): the router over the
 * Tr tokens this GPU holds after sequence parallelism, the permutation of each token into its k
 * experts' rows, then (after the dispatch all-to-all, timed in models/step/step.c) the experts/ep
 * local experts' MLPs over me = k Tr ep / experts tokens each, and after the combine all-to-all the
 * weighted sum back into Tr rows (megatron/core/transformer/moe/token_dispatcher.py,
 * MoEAlltoAllTokenDispatcher); the shared experts, if any, first. */
static void moe_mlp(builder *g, const dims *d)
{
    shared_mlp(g, d);
    /* The router's logits are a plain linear in the input's BF16 (router_gating_linear in
     * megatron/core/transformer/moe/router.py, Router.gating, moe_router_dtype unset): not a
     * Transformer Engine module, so FP8 does not apply to it. */
    gemm(g, "router", ST_PREC_BF16, d->Tr, d->experts, d->h);
    memory(g, "router_topk", B.router_topk * d->Tr * d->experts); /* its own kernel: a boundary */
    if (d->router_eager)
        eager_router(g, d);
    if (d->permute_eager)
        eager_permute(g, "permute", d, 4.0, 0.0, 2.0, 6.0, E.permute_fwd_kernels,
                      E.permute_bwd_kernels);
    else
        memory(g, "permute", B.permute * d->Tr * d->h * (1.0 + d->topk));
    /* rows: what the most loaded rank of the EP group receives (the layer waits for it), and
     * with expert tensor parallelism its etp ranks' rows gathered (Megatron-Core's dispatcher
     * all-gathers them over the expert TP group after the all-to-all, and sorts the gathered) */
    double local = d->experts / d->ep, rows = d->me * local;
    /* The rows a GPU receives from its EP group arrive sorted by source rank: with more than
     * one local expert they are sorted again by expert after the dispatch, and back before the
     * combine (MoEAlltoAllTokenDispatcher.dispatch_postprocess, "Permutation 2: Sort tokens by
     * local expert", and combine_preprocess: sort_chunks_by_idxs, read and write each row). */
    int sort = (d->ep > 1 || d->etp > 1) && local > 1; /* gathered rows come by source too */
    if (sort)
        memory(g, "sort_chunks", 2.0 * B.permute * rows * d->h);
    /* A batch of few tokens leaves experts idle: with N tokens each routed to k of the E experts
     * (even routing), an expert receives none with probability (1 - k/E)^N, and the grouped
     * GEMMs run, and read the weights of, only the experts that receive some (a serving decode
     * batch; a training batch's thousands of tokens reach every expert, and its figures are
     * unchanged to the bit). */
    double tokens = d->imb > 0 && d->topk > 0 ? d->me * d->experts / (d->imb * d->topk) : 0;
    double idle = tokens > 0 ? pow(1.0 - d->topk / d->experts, tokens) : 0;
    double busy = idle > 0 ? local * (1.0 - idle) : local, each = idle > 0 ? rows / busy : d->me;
    grouped(g, d, "expert_fc1", busy, each, d->up_e, d->h);
    memory(g, "expert_act", d->act * rows * d->fe);
    grouped(g, d, "expert_fc2", busy, each, d->h, d->fe);
    if (sort)
        memory(g, "unsort_chunks", 2.0 * B.permute * rows * d->h);
    if (d->permute_eager)
        eager_permute(g, "unpermute", d, 6.0, 6.0, 16.0, 0.0, E.unpermute_fwd_kernels,
                      E.unpermute_bwd_kernels);
    else
        memory(g, "unpermute", B.permute * d->Tr * d->h * (1.0 + d->topk));
}

/* MLA's projections on one TP rank, as Megatron-Core's MLA layer spec builds them
 * (megatron/core/models/gpt/gpt_layer_specs.py: linear_q_down_proj and linear_kv_down_proj are
 * backend.linear(), TELinear with parallel_mode "duplicated", whole on every rank;
 * linear_q_up_proj, linear_kv_up_proj and linear_q_proj column-parallel, the up projections
 * TELayerNormColumnParallelLinear fusing the latent norms). The down projections and the latent
 * norms run over the Tr tokens this rank holds (its sequence-parallel shard, "kv_compressed [s /
 * TP, b, kv_lora_rank]" in MLASelfAttention.get_query_key_value_tensors; all T without sequence
 * parallelism, the duplicated work MCore does), the normed latents are then gathered (counted in
 * the attention's TP pair, tp_colls) and the up projections run over all T. The rotary
 * embedding is applied to the rope parts only: heads x rope of Q per rank and the one shared
 * rope-wide key (DeepSeek-V2 arXiv 2405.04434 eqs. 10-16). The projections' inputs are plain
 * kernels' outputs (the MLA spec's input_layernorm is a separate TENorm): ST__FEED_PLAIN. */
static void mla_projections(builder *g, const dims *d)
{
    if (d->ql > 0) {
        linear(g, d, "q_down", d->Tr, d->ql, d->h, d->Tr, ST__FEED_PLAIN, d->Tr);
        memory(g, "q_norm", d->norm * d->Tr * d->ql);
        linear(g, d, "q_up", d->T, d->q_up, d->ql, d->T, ST__FEED_PLAIN, d->T);
    } else {
        linear(g, d, "q_proj", d->T, d->q_up, d->h, d->Tr, ST__FEED_PLAIN, d->T);
    }
    linear(g, d, "kv_down", d->Tr, d->kvl + d->rope_d, d->h, d->Tr, ST__FEED_PLAIN, d->Tr);
    memory(g, "kv_norm", d->norm * d->Tr * d->kvl);
    linear(g, d, "kv_up", d->T, d->kv_up, d->kvl, d->T, ST__FEED_PLAIN, d->T);
    if (d->rope)
        memory(g, "rope", d->rope_b * d->T * (d->heads * d->rope_d + d->rope_d));
}

size_t st_ops_layer_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    memory(&g, "norm1", d.norm * d.Tr * d.h);
    if (d.mla) {
        mla_projections(&g, &d);
    } else {
        /* column parallel */
        linear(&g, &d, "qkv", d.T, d.da + 2.0 * d.dkv, d.h, d.Tr, ST__FEED_NORM, d.T);
        if (d.rope)
            memory(&g, "rope", d.rope_b * d.T * (d.da + d.dkv));
    }
    if (w->attention == ST_ATTN_UNFUSED) {
        attention_unfused(&g, &d);
    } else {
        size_t from = g.n;
        attention(&g, &d, (int)w->attention, w->cudnn_release);
        mark_core(&g, from);
    }
    linear(&g, &d, "proj", d.T, d.h, d.dv, d.T, ST__FEED_PLAIN, d.Tr); /* row parallel */
    memory(&g, "bda1", d.bda * d.Tr * d.h);
    memory(&g, "norm2", d.norm * d.Tr * d.h);
    if (d.experts > 0) {
        moe_mlp(&g, &d);
    } else {
        /* column parallel; gate and up fused */
        linear(&g, &d, "fc1", d.T, d.up, d.h, d.Tr, ST__FEED_NORM, d.T);
        memory(&g, "act", d.act * d.T * d.f);
        linear(&g, &d, "fc2", d.T, d.h, d.f, d.T, ST__FEED_PLAIN, d.Tr); /* row parallel */
    }
    memory(&g, "bda2", d.bda * d.Tr * d.h);
    return g.n;
}

/* One of an MoE model's dense layers is the layer of the same model without experts: the
 * workload is copied with that spec, so the MLP, its TP collectives and the absent all-to-alls
 * all follow from the dense path. */
size_t st_ops_layer_forward_kind(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                 int64_t microbatch, int dense, st_op *ops, size_t cap)
{
    if (!dense || w->model->experts <= 0)
        return st_ops_layer_forward(w, gpu, microbatch, ops, cap);
    st_llm_spec m = st_llm_dense_spec(w->model);
    st_workload_cfg wd = *w;
    wd.model = &m;
    return st_ops_layer_forward(&wd, gpu, microbatch, ops, cap);
}

size_t st_ops_embed_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    /* Vocabulary-parallel lookup: every rank writes all T rows (zeros where another rank owns
     * the token) before the all-reduce or reduce-scatter. */
    memory(&g, "embed", B.lookup * d.T * d.h);
    if (w->model->pos == ST_POS_LEARNED)
        memory(&g, "pos", (B.lookup + B.pos_add) * d.T * d.h);
    if (w->model->embed_norm)
        memory(&g, "embed_norm", d.norm * d.Tr * d.h);
    if (d.dropout)
        memory(&g, "embed_drop", B.dropout * d.Tr * d.h);
    return g.n;
}

size_t st_ops_head_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                           st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    memory(&g, "norm_f", d.norm * d.Tr * d.h);
    gemm(&g, "logits", ST_PREC_BF16, d.T, d.v, d.h); /* vocabulary parallel */
    memory(&g, "xent", B.xent * d.T * d.v);
    return g.n;
}

/* One multi-token prediction module's operators besides its transformer layer (DeepSeek-V3,
 * arXiv 2412.19437, section 2.2; Megatron-Core's MultiTokenPredictionLayer): the shared
 * embedding's lookup of the shifted tokens, the RMSNorms of that embedding and of the previous
 * depth's hidden state, their concatenation projected 2h -> h (a column-parallel linear of the
 * workload's precision), and the shared output head with its loss, as st_ops_head_forward. */
size_t st_ops_mtp_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                          st_op *ops, size_t cap)
{
    dims d = st__ops_dims_of(w, microbatch);
    builder g = {gpu, ops, cap, 0};
    double t = w->parallel.tp > 1 ? (double)w->parallel.tp : 1.0;
    memory(&g, "mtp_embed", B.lookup * d.T * d.h);
    memory(&g, "mtp_enorm", d.norm * d.Tr * d.h);
    memory(&g, "mtp_hnorm", d.norm * d.Tr * d.h);
    gemm(&g, "mtp_proj", w->precision, d.T, d.h / t, 2.0 * d.h);
    memory(&g, "norm_f", d.norm * d.Tr * d.h);
    gemm(&g, "logits", ST_PREC_BF16, d.T, d.v, d.h);
    memory(&g, "xent", B.xent * d.T * d.v);
    return g.n;
}
