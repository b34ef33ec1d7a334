/* Memory per GPU of a training plan: weights, gradients, optimizer states under ZeRO 0-3, and
 * activations after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models", arXiv 2205.05198, eq. 1-6), for every pipeline stage. The derivation,
 * the generalisation to GQA and SwiGLU, and what is left out are in docs/models/memory-model.md. */
#include "models/silicon/parallel.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"

#include <string.h>

/* Every constant of the memory model that is not a datasheet figure, in one table so that a
 * calibration override has one place to go (DESIGN.md, "Calibration and validation"). */
static const struct mem_consts {
    double weight_bytes; /* per parameter */
    double grad_bytes;
    double optim_bytes;
    double bf16_moments_saving;
    double ckpt_bytes;
    double logit_bytes;  /* per logit of the cross entropy */
    double cuda_context; /* per GPU, bytes */
    double nccl_comm;    /* per NCCL communicator a GPU belongs to, bytes */
} K = {
    /* bf16 weights. FP8 training (Transformer Engine) keeps bf16 weights and casts them per
     * GEMM, so precision: fp8 does not change this term. */
    .weight_bytes = 2,
    /* Megatron-LM accumulates and all-reduces the gradients of a bf16 model in fp32 ("main
     * grads"; arguments.py forces accumulate_allreduce_grads_in_fp32 with --bf16). Its
     * distributed-optimizer table (docs/source/distrib_optimizer.md) gives 18 bytes per
     * parameter for "bf16 param, fp32 grads" without sharding and 6 + 12/d with it: 2 + 4 + 12.
     * PyTorch FSDP with fp32 sharded parameters also keeps fp32 gradients. */
    .grad_bytes = 4,
    /* Adam in mixed precision: fp32 master weights, momentum and variance (Rajbhandari et al.
     * 2020, ZeRO, §3.1: K = 12). */
    .optim_bytes = 12,
    /* adam_moments: bf16 keeps m and v in 2 bytes each instead of 4, the fp32 master weight
     * unchanged (Transformer Engine's FusedAdam, exp_avg_dtype and exp_avg_sq_dtype bf16, as
     * Megatron-Core's use_precision_aware_optimizer passes them): 4 bytes less per parameter. */
    .bf16_moments_saving = 4,
    /* A full checkpoint holds bf16 weights, fp32 master weights and Adam's m and v: 2 + 12 = 14
     * bytes per parameter (BigScience tr11-176B-ml README: "14 bytes per param"; Megatron SC21
     * §5.10: 13.8 TB for the 1T model). */
    .ckpt_bytes = 14,
    /* Korthikanti et al. §4.3: "the cross entropy loss requires storing the logits which are
     * calculated in 32-bit floating point", 4sbv/t bytes. */
    .logit_bytes = 4,
    /* What the CUDA context holds on the GPU before any tensor is allocated. Since PyTorch 1.13
     * (pytorch/pytorch PRs 85692 and 86509, "Sets CUDA_MODULE_LOADING to LAZY when not set by
     * the user") CUDA loads a kernel's module when it is first used rather than every linked
     * library's at start: 287 MB against 667 MB eager in the PR's own measurement. NVIDIA's
     * ptrblck: "around 400MB if CUDA >= 11.7 is used and lazy module loading enabled (default
     * in PyTorch)" (pytorch/pytorch issue 109888), against ">1000MB" before (issue 107667).
     * The larger lazy figure: a training job loads more kernels than those measurements' one
     * tensor. (The eager-era 781 MB of issue 34323 overstated every current stack's; a run on
     * PyTorch before 1.13 states memory_reserved: docs/models/memory-model.md.) */
    .cuda_context = 400e6,
    /* NCCL's buffers for one communicator once it has run a collective: 688 MB per GPU for a
     * group of more than two GPUs, 544 MB for two, measured through PyTorch on 4 A100s over
     * NVLink (NVIDIA/nccl issue 964, "Question about GPU memory consumption of NCCL"; the
     * maintainers, issue 864: more communicators use more memory, linearly in channels). The
     * larger figure, since training groups have more than two GPUs. */
    .nccl_comm = 688e6,
};

const char *st_mem_term_name(st_mem_term t)
{
    static const char *const names[ST_MEM__COUNT] = {
        [ST_MEM_WEIGHTS] = "weights",
        [ST_MEM_GRADS] = "gradients",
        [ST_MEM_OPTIMIZER] = "optimizer states",
        [ST_MEM_ACTIVATIONS] = "activations",
        [ST_MEM_RESERVED] = "reserved",
    };
    if ((int)t < 0 || t >= ST_MEM__COUNT)
        return "unknown";
    return names[t];
}

static int64_t at_least_1(int64_t v)
{
    return v < 1 ? 1 : v;
}

/* One micro-batch as one GPU sees it, in the paper's symbols (elements, not bytes). */
typedef struct shape {
    double s, b, h, a; /* s is the local sequence: seq_len / cp */
    double da, dkv, f; /* attention width, one of K/V, MLP inner width */
    double v;          /* vocabulary */
    double t;          /* tensor-parallel degree */
    double rep;        /* what divides "replicated" tensors: t with sequence parallelism, else 1 */
    int dropout, swiglu;
    int flash;    /* fused attention: no score matrix is stored */
    int fp8;      /* precision: fp8 - linear layers' inputs are kept in FP8 for their backward */
    int sac_attn; /* recompute: op saves the attention core's output (st_ops_sac_saves_attention) */
    /* Mixture of experts (experts 0: dense): experts, top-k, one expert's first projection
     * width and inner width; fm, the inner width of the tensor-parallel MLP: f when dense, the
     * shared experts' f_s with experts (0 without them). */
    double experts, topk, up_e, fe, fm;
    /* V's width (dkv; MLA: heads v) and the core output's, the output projection's input (da;
     * MLA: heads v); MLA's two latent ranks (q_lora_rank + kv_lora_rank; 0 without MLA). */
    double dvv, dout, lat;
    double imb; /* MoE routing imbalance (st_moe_imbalance): the peak rank's rows over the mean */
    double etp; /* expert tensor parallelism (parallel.etp, at least 1) */
    unsigned mods; /* the modules recompute: selective repeats (st_recompute_modules) */
} shape;

static shape shape_of(const st_workload_cfg *w, int64_t microbatch)
{
    const st_llm_spec *m = w->model;
    const st_parallel_cfg *p = &w->parallel;
    shape x;
    x.s = (double)w->seq_len / (double)at_least_1(p->cp);
    x.b = (double)at_least_1(microbatch);
    x.h = (double)m->hidden;
    x.a = (double)m->heads;
    x.da = (double)st_llm_attn_width(m);
    x.dkv = (double)st_llm_kv_width(m);
    x.dvv = st_llm_is_mla(m) ? (double)st_llm_v_width(m) : x.dkv;
    x.dout = (double)st_llm_v_width(m);
    x.lat = st_llm_is_mla(m) ? (double)(m->q_lora_rank + m->kv_lora_rank) : 0.0;
    x.f = (double)st_llm_ffn(m);
    x.v = (double)(m->vocab > 0 ? m->vocab : 51200);
    x.t = (double)at_least_1(p->tp);
    x.rep = p->sequence_parallel ? x.t : 1.0;
    x.dropout = st_llm_has_dropout(m);
    x.flash = w->attention != ST_ATTN_UNFUSED;
    x.swiglu = m->mlp == ST_MLP_SWIGLU;
    x.fp8 = w->precision == ST_PREC_FP8;
    x.sac_attn = st_ops_sac_saves_attention(w, NULL);
    x.experts = (double)(m->experts > 0 ? m->experts : 0);
    x.topk = (double)m->experts_per_token;
    x.up_e = (double)st_llm_expert_up(m);
    x.fe = (double)m->expert_ffn_hidden;
    x.etp = (double)at_least_1(w->parallel.etp);
    x.fm =
        x.experts > 0 ? (st_llm_shared_up(m) > 0 ? (double)m->shared_expert_ffn_hidden : 0.0) : x.f;
    x.imb = st_moe_imbalance(w);
    x.mods = st_recompute_modules(p);
    return x;
}

/* What an MoE layer's MLP keeps for backward per micro-batch in place of the dense MLP's inner
 * tensors, over the T_m = sb / rep tokens a GPU routes (after sequence parallelism): the
 * permuted input k T_m h (the expert fc1 input), the expert fc1 output k T_m up_e and the
 * activation output k T_m f_e (the expert fc2 input), BF16, but under FP8 the two GEMM inputs in
 * one byte: Transformer Engine's GroupedLinear saves the inputs it quantised for the forward
 * GEMM, not the BF16 ones (transformer_engine/pytorch/module/grouped_linear.py, forward:
 * split_quantize, then save_for_backward of those, save_original_input off by default), as its
 * Linear does for the dense layers above; and the router's probabilities,
 * T_m x experts in FP32 (Megatron-Core computes the router softmax in fp32,
 * megatron/core/transformer/moe/moe_utils.py topk_softmax_with_capacity). Each token's k rows
 * stay on the GPUs of the EP group, k T_m rows per GPU on average and imb times that on the most
 * loaded one (st_moe_imbalance), whose memory is the peak. */
static double moe_mlp_bytes(const shape *x)
{
    /* with expert tensor parallelism the experts' input rows are gathered over etp ranks (kept
     * whole for the weight gradient), their inner widths split over them */
    double tm = x->s * x->b / x->rep;
    if (x->fp8)
        return tm * (x->imb * x->topk * (x->h * x->etp + 2.0 * x->up_e + x->fe) + 4.0 * x->experts);
    return tm * (2.0 * x->imb * x->topk * (x->h * x->etp + x->up_e + x->fe) + 4.0 * x->experts);
}

/* Attention scores (unfused attention): softmax output 2as^2b, and with dropout its mask as^2b and
 * output 2as^2b (Korthikanti §4.1: the 5as^2b term). Split by tensor parallelism. */
static double score_bytes(const shape *x)
{
    /* FlashAttention keeps no score matrix: only the FP32 log-sum-exp of each query and head
     * for its backward (Dao et al. 2022, algorithm 2), and the dropout RNG state. */
    if (x->flash)
        return 4.0 * x->a * x->s * x->b / x->t;
    return x->a * x->s * x->s * x->b * (x->dropout ? 5.0 : 2.0) / x->t;
}

/* Bytes one layer stores per micro-batch. Korthikanti §4.1, per component, 16-bit:
 *   replicated across TP ranks unless sequence parallel: both LayerNorm inputs 4sbh, the QKV
 *   input 2sbh, the MLP input 2sbh, and with dropout the two residual dropout masks 2sbh;
 *   split by TP: Q and K 2sb(da + dkv), V 2sb dkv, the attention-output input 2sb da, the MLP's
 *   inner tensors (GeLU: input and output 4sbf; SwiGLU: gate and up outputs 4sbf plus their
 *   product 2sbf), and the scores. GPT (da = dkv = h, f = 4h, dropout): 10sbh + 24sbh + 5as^2b,
 *   the paper's sbh(34 + 5as/h). Selective recompute drops the scores; full recompute keeps
 *   only the layer input 2sbh, split by TP when sequence parallel. */
/* Under recompute: op, what torchtitan's per-op policy saves (st_ops_sac_recompute_share in
 * ops_cost.c): the block's input 2sbh, the outputs of the odd mms, wq 2sb da and wv 2sb dkv,
 * and w1 2sbf and w2 2sbh (SwiGLU) or fc1 2sbf, and the attention core's output 2sb da with its
 * log-sum-exp where the core is saved. The mm outputs are those of one TP rank; the FP8 input
 * copies above are Transformer Engine's and not counted here. */
static double sac_layer_bytes(const shape *x)
{
    double sb = x->s * x->b;
    double split = 2.0 * sb * (x->da + x->dkv + x->f + (x->swiglu ? x->h : 0.0));
    double attn = x->sac_attn ? 2.0 * sb * x->da / x->t + score_bytes(x) : 0.0;
    return 2.0 * sb * x->h / x->rep + split / x->t + attn;
}

/* MLA's latents, kept for backward by the up projections that fuse the latent norms
 * (TELayerNormColumnParallelLinear keeps the norm's input and its output, the GEMM's input):
 * 2 x 2sb per latent channel, BF16, or the GEMM input in FP8 (1 byte) under FP8. Not split by
 * TP (the down projections are duplicated) but, as the QKV input, kept on the sequence-parallel
 * shard and gathered again for the weight gradient: divided by rep. The shared rotary key ends
 * in K (counted there). 0 without MLA. */
static double mla_latent_bytes(const shape *x)
{
    return x->s * x->b * x->lat * (x->fp8 ? 3.0 : 4.0) / x->rep;
}

/* Which side of the layer a module's tensors belong to: the attention's, rebuilt when its
 * backward starts, or the MLP's, rebuilt when the MLP's starts and freed before the
 * attention's (recompute_workset takes the larger). */
enum { SIDE_ATTN = 1, SIDE_MLP = 2 };

/* What recompute: selective's modules other than the attention core leave out of a layer's
 * stored activations (the core's scores are layer_bytes' own term), in this file's accounting:
 *   layernorm: the outputs of the norms that run apart from a linear layer (Megatron-Core's
 *     recompute_input_layernorm and recompute_pre_mlp_layernorm act only on a norm that is not
 *     IdentityOp): the input norm under MLA, whose spec keeps it a TENorm, and the pre-MLP norm
 *     of an MoE layer; 2sbh each, replicated. Under FP8 the byte this file counts for each: the
 *     linear layers after them then keep no FP8 copy but the norm's output, quantised again in
 *     backward (set_for_recompute_input_layernorm and _pre_mlp_layernorm set
 *     save_original_input on MLA's down projections and the shared experts' fc1);
 *   moe_act: the experts' activation output, the expert fc2 input, 2 imb k T_m f_e (1 byte
 *     under FP8, as moe_mlp_bytes counts it);
 *   mla_up_proj: Q, K and V after the up projections and the rotary embedding, 2sb(da + dkv +
 *     dvv) over tp, and the latent norms' outputs the up projections fuse (mla_latent_bytes'
 *     GEMM inputs), the latents themselves being the checkpoint's input;
 *   mlp (a dense layer): the MLP's inner tensors and its input, the checkpoint keeping the
 *     LayerNorm input it starts from (the MLP's norm is fused into fc1);
 *   moe (an MoE layer): moe_mlp_bytes and the shared experts' inner tensors; the checkpoint
 *     keeps the pre-MLP norm's output;
 *   shared_experts: the shared experts' inner tensors.
 * Megatron-Core: transformer_layer.py (recompute_input_layernorm, recompute_mlp), moe_layer.py
 * (recompute of the shared experts and of moe_act), multi_latent_attention.py
 * (recompute_up_proj), at core_v0.15.0. */
static double module_bytes(const shape *x, int sides)
{
    double sb = x->s * x->b, saved = 0.0, in = x->fp8 ? 1.0 : 2.0;
    int moe = x->experts > 0, mla = x->lat > 0.0;
    int attn = sides & SIDE_ATTN, mlp_side = sides & SIDE_MLP;
    /* an MLP's inner tensors of width fm (the dense MLP's, or the shared experts'); under FP8
     * the second GEMM's input is its 1-byte copy */
    double inner = sb * ((x->swiglu ? 6.0 : 4.0) * x->fm - (x->fp8 ? x->fm : 0.0)) / x->t;
    if (x->mods & (1u << ST_RCM_LAYERNORM))
        saved += sb * x->h * in * ((attn && mla) + (mlp_side && moe)) / x->rep;
    if (attn && mla && (x->mods & (1u << ST_RCM_MLA_UP_PROJ)))
        saved += 2.0 * sb * (x->da + x->dkv + x->dvv) / x->t + sb * x->lat * in / x->rep;
    if (!mlp_side)
        return saved;
    if (moe && (x->mods & (1u << ST_RCM_MOE_ACT)))
        saved += sb / x->rep * in * x->imb * x->topk * x->fe;
    if (!moe && (x->mods & (1u << ST_RCM_MLP)))
        saved += inner + sb * x->h * in / x->rep;
    if (moe && (x->mods & (1u << ST_RCM_MOE)))
        saved += moe_mlp_bytes(x) + inner;
    if (moe && (x->mods & (1u << ST_RCM_SHARED_EXPERTS)))
        saved += inner;
    return saved;
}

static double layer_bytes(const shape *x, st_recompute r)
{
    double sb = x->s * x->b;
    if (r == ST_RECOMPUTE_FULL)
        return 2.0 * sb * x->h / x->rep;
    if (r == ST_RECOMPUTE_OP)
        return sac_layer_bytes(x);
    double repl = sb * x->h * (x->dropout ? 10.0 : 8.0);
    /* An MoE layer's shared experts are a dense MLP of width f_s: the same inner tensors. */
    double mlp = (x->swiglu ? 6.0 : 4.0) * x->fm;
    /* Q 2sb da, K 2sb dkv, V 2sb dvv, the core's output 2sb dout (= 4 da + 4 dkv without MLA) */
    double split = sb * (2.0 * (x->da + x->dkv + x->dvv + x->dout) + mlp);
    /* Under FP8, Transformer Engine keeps each linear layer's input for its weight gradient
     * as the FP8 tensor it fed the GEMM (transformer_engine/pytorch/module/linear.py: the
     * saved input is the quantized one unless wgrad is overridden to high precision), one
     * byte instead of two: the QKV and MLP inputs (replicated), the attention-output and the
     * second MLP GEMM's inputs (split). LayerNorm inputs, Q, K, V and the MLP's inner outputs
     * stay BF16. */
    if (x->fp8) {
        repl -= 2.0 * sb * x->h;
        split -= sb * (x->dout + x->fm);
    }
    double bytes = repl / x->rep + split / x->t + mla_latent_bytes(x);
    if (x->experts > 0)
        bytes += moe_mlp_bytes(x);
    if (r == ST_RECOMPUTE_NONE || !(x->mods & (1u << ST_RCM_CORE_ATTN)))
        bytes += score_bytes(x);
    if (r == ST_RECOMPUTE_SELECTIVE && (x->mods & ~(1u << ST_RCM_CORE_ATTN)))
        bytes -= module_bytes(x, SIDE_ATTN | SIDE_MLP);
    return bytes;
}

/* While one layer's backward runs, recomputation brings back what was not stored, for that
 * layer and one micro-batch: the scores (selective's attention core), what its other modules
 * left out (module_bytes: the MLP side's or the attention side's, whichever is larger, as they
 * come back one after the other) or the whole layer (full). The paper's
 * totals leave this transient out; a plan that fits only without it does not run. */
static double recompute_workset(const shape *x, st_recompute r)
{
    if (r == ST_RECOMPUTE_SELECTIVE && x->mods == 1u << ST_RCM_CORE_ATTN)
        return score_bytes(x);
    if (r == ST_RECOMPUTE_SELECTIVE) {
        /* the MLP side's modules come back and go before the attention side's */
        double attn = module_bytes(x, SIDE_ATTN) +
                      (x->mods & (1u << ST_RCM_CORE_ATTN) ? score_bytes(x) : 0.0);
        double mlp = module_bytes(x, SIDE_MLP);
        return attn > mlp ? attn : mlp;
    }
    if (r != ST_RECOMPUTE_NONE) {
        double d = layer_bytes(x, ST_RECOMPUTE_NONE) - layer_bytes(x, r);
        return d > 0.0 ? d : 0.0;
    }
    return 0.0;
}

double st_memory_layer_activations(const st_workload_cfg *w, int64_t microbatch)
{
    shape x = shape_of(w, microbatch);
    return layer_bytes(&x, w->parallel.recompute);
}

/* The reserved term: what the job keeps on every GPU outside the allocator's tensors. Unless
 * the scenario gives memory_reserved, the CUDA context plus one set of NCCL buffers for each
 * communicator a GPU uses: the tensor-, context- and pipeline-parallel groups and the data-
 * parallel group (dp x cp ranks, where Megatron-LM reduces gradients), and for an MoE model the
 * expert-parallel and expert-data-parallel groups, each when larger than one GPU. Allocator
 * fragmentation is not in the default (docs/models/memory-model.md). */
double st_memory_reserved(const st_workload_cfg *w)
{
    if (w->memory_reserved_given)
        return w->memory_reserved;
    const st_parallel_cfg *p = &w->parallel;
    int comms =
        (p->tp > 1) + (p->cp > 1) + (p->pp > 1) + (at_least_1(p->dp) * at_least_1(p->cp) > 1);
    if (w->model && w->model->experts > 0) {
        /* An MoE model adds Megatron-Core's expert-parallel group (the all-to-alls) and its
         * expert-data-parallel group (the expert gradients), each when it spans GPUs. */
        int64_t ep = at_least_1(p->ep), etp = at_least_1(p->etp);
        int64_t edp = at_least_1(p->tp) * at_least_1(p->cp) * at_least_1(p->dp) / (ep * etp);
        comms += (ep > 1) + (edp > 1) + (etp > 1); /* and the expert tensor-parallel group */
    }
    return K.cuda_context + (double)comms * K.nccl_comm;
}

/* The plan as the stage loop needs it. */
typedef struct plan {
    const st_llm_spec *m;
    shape x;
    st_recompute rc;
    int64_t pp, v, n_micro, seq;
    st_chunk_split split; /* the layers over the chunks */
    double zero_div;      /* ZeRO shards over the data-parallel ranks, which include cp */
    int zero;
    int grad_bf16; /* grad_reduce: bf16 */
    int grad_sep;  /* grad_accum: separate */
    double ob;     /* optimizer-state bytes per parameter (adam_moments) */
    int prefetch;  /* ZeRO-3 gathers one unit ahead (overlap_param_gather) */
    double wb;     /* bytes per compute weight: BF16, or FP8 with fp8_param_gather */
    double reserved;
    double ep;      /* expert-model-parallel ranks ep x etp: a GPU holds 1/ep of the experts */
    double edp_div; /* ZeRO shards the expert states over the edp = tp*cp*dp / (ep etp) ranks */
    /* An MoE model's dense first layers (0 otherwise): how many, and the shape of one. */
    int64_t dense;
    shape xd;
    int64_t offload; /* parallel.offload_layers: the first layers' activations in host memory */
    int64_t mtp;     /* multi-token prediction modules on the last stage (mtp_layers) */
} plan;

static plan plan_of(const st_workload_cfg *w, int64_t microbatch)
{
    const st_parallel_cfg *p = &w->parallel;
    plan c;
    c.m = w->model;
    c.x = shape_of(w, microbatch);
    c.rc = p->recompute;
    c.offload = p->offload_layers > 0 ? p->offload_layers : 0;
    c.mtp = w->mtp_layers > 0 ? w->mtp_layers : 0;
    c.pp = at_least_1(p->pp);
    c.v = at_least_1(p->virtual_stages);
    c.split = st_chunk_split_of(w->model->layers, p);
    c.seq = w->seq_len;
    /* Megatron-LM shards the distributed optimizer over the data-parallel group with context
     * parallelism (dp x cp ranks hold the same weights). */
    c.zero_div = (double)(at_least_1(p->dp) * at_least_1(p->cp));
    c.zero = p->zero;
    c.grad_bf16 = p->grad_bf16;
    c.grad_sep = p->grad_accum_separate;
    c.ob = p->adam_bf16 ? K.optim_bytes - K.bf16_moments_saving : K.optim_bytes;
    c.prefetch = p->overlap_param_gather;
    /* Megatron-Core's fp8_param_gather keeps the compute weights in FP8 "(do not use any other
     * intermediate dtype)"; the fp32 master copy stays with the optimizer states. */
    c.wb = w->fp8_param_gather ? K.weight_bytes / 2 : K.weight_bytes;
    c.reserved = st_memory_reserved(w);
    /* expert tensor parallelism splits each expert further: etp x ep expert-model ranks */
    c.ep = (double)at_least_1(p->ep) * (double)at_least_1(p->etp);
    c.edp_div = (double)(at_least_1(p->tp) * at_least_1(p->cp) * at_least_1(p->dp)) / c.ep;
    c.dense = w->model->experts > 0 ? st_llm_dense_layers(w->model) : 0;
    c.xd = c.x;
    if (c.dense > 0) {
        /* One dense layer is the model's layer without experts (st_llm_dense_spec). */
        st_llm_spec md = st_llm_dense_spec(w->model);
        st_workload_cfg wd = *w;
        wd.model = &md;
        c.xd = shape_of(&wd, microbatch);
    }
    /* Micro-batches per step and replica; without a global batch, enough to fill the pipe. */
    int64_t per_step = at_least_1(p->dp) * at_least_1(microbatch);
    c.n_micro = w->global_batch > 0 ? at_least_1(w->global_batch / per_step) : INT64_MAX / 4;
    return c;
}

/* Layers on stage i: those of its chunks i, i + pp, ... (st_chunk_split, the step model's
 * layout); and of them the dense ones (an MoE model's first `dense`). */
static int64_t stage_layers(const plan *c, int64_t i)
{
    int64_t n = 0;
    for (int64_t ch = i; ch < c->split.chunks; ch += c->pp)
        n += st_chunk_layers(&c->split, ch);
    return n;
}

static int64_t stage_dense(const plan *c, int64_t i)
{
    int64_t d = 0;
    for (int64_t ch = i; ch < c->split.chunks; ch += c->pp) {
        int64_t k = c->dense - st_chunk_first_layer(&c->split, ch);
        int64_t n = st_chunk_layers(&c->split, ch);
        d += k < 0 ? 0 : k > n ? n : k;
    }
    return d;
}

/* Micro-batches whose activations stage i holds at its peak, in units of "all of this
 * stage's layers". 1F1B: pp - i (Narayanan et al. SC21 §2.2; Korthikanti §4.2.3). Interleaved
 * 1F1B with v chunks: the warm-up's chunk-micro-batches (st_pipe_warmup) plus the one in steady
 * state, each 1/v of the stage's layers; on stage 0 that is pp (1 + (pp - 1)/(pp v)), the
 * paper's factor. Fewer micro-batches than that cap it. */
static double stage_in_flight(const plan *c, int64_t i)
{
    if (c->v <= 1) {
        int64_t k = c->pp - i;
        return (double)(k < c->n_micro ? k : c->n_micro);
    }
    int64_t total = c->n_micro * c->v, chunks = st_pipe_warmup(c->pp, c->v, c->n_micro, i) + 1;
    if (chunks > total)
        chunks = total;
    return (double)chunks / (double)c->v;
}

/* Layers of each kind on local chunk lc of stage i (global chunk lc pp + i). */
static void chunk_kinds(const plan *c, int64_t i, int64_t lc, int64_t *n, int64_t *nd)
{
    int64_t ch = lc * c->pp + i, k = c->dense - st_chunk_first_layer(&c->split, ch);
    *n = st_chunk_layers(&c->split, ch);
    *nd = k < 0 ? 0 : k > *n ? *n : k;
}

/* Whether stage i's chunks all hold the same layers of each kind. */
static int chunks_alike(const plan *c, int64_t i)
{
    int64_t n0, d0, n, d;
    chunk_kinds(c, i, 0, &n0, &d0);
    for (int64_t lc = 1; lc < c->v; lc++) {
        chunk_kinds(c, i, lc, &n, &d);
        if (n != n0 || d != d0)
            return 0;
    }
    return 1;
}

static double chunk_bytes(const plan *c, int64_t i, int64_t lc, double bm, double bd)
{
    int64_t n, d;
    chunk_kinds(c, i, lc, &n, &d);
    return (double)(n - d) * bm + (double)d * bd;
}

/* The most layer activations stage i holds at once when its chunks differ (the embedding and
 * loss slots, a split with a remainder), bm and bd bytes a layer of each kind keeps per
 * micro-batch: Megatron-LM's interleaved order run through, forward iteration k on local chunk
 * (k / pp) mod v and backward iteration k on v - 1 - (k / pp) mod v (get_model_chunk_id, groups
 * of pp micro-batches), the warm-up's forwards, then one forward and one backward in turn, each
 * forward keeping its chunk's activations until its backward. The order repeats every pp v
 * pairs, so two such rounds after the warm-up reach the peak. With alike chunks this is the
 * warm-up plus one chunk's worth (stage_in_flight); with a slot, the first stage's first chunk
 * (or the last stage's last) holds fewer layers, and which chunks are in flight decides. */
static double stage_peak_layers(const plan *c, int64_t i, double bm, double bd)
{
    int64_t total = c->n_micro < INT64_MAX / (4 * c->v) ? c->n_micro * c->v : INT64_MAX / 4;
    int64_t w = st_pipe_warmup(c->pp, c->v, c->n_micro, i), pairs = total - w;
    if (pairs > 2 * c->pp * c->v)
        pairs = 2 * c->pp * c->v;
    double cur = 0, peak = 0;
    for (int64_t k = 0; k < w + pairs; k++) {
        cur += chunk_bytes(c, i, (k / c->pp) % c->v, bm, bd);
        peak = cur > peak ? cur : peak;
        if (k >= w)
            cur -= chunk_bytes(c, i, c->v - 1 - ((k - w) / c->pp) % c->v, bm, bd);
    }
    return peak;
}

/* Parameters one GPU of stage i holds: its layers split by TP (norms replicated), the
 * vocabulary-parallel input embedding, position table and embedding norm on the first stage,
 * the final norm and output layer on the last. A tied output layer is a second copy on the last
 * stage when pp > 1 (Megatron-LM keeps one there and all-reduces their gradients). */
/* An MoE layer keeps its router whole on every TP rank and experts / ep of its experts, whole
 * (expert tensor parallelism 1); *experts is the stage's expert parameters on one GPU. */
static double stage_params(const plan *c, int64_t i, double *largest_unit, double *experts)
{
    const st_llm_spec *m = c->m;
    double t = c->x.t, h = c->x.h, emb = c->x.v * h / t;
    double norms = 2.0 * st_llm_norm_params(m);
    double layer = (st_llm_layer_params(m) - norms) / t + norms;
    double local = 0.0;
    if (m->experts > 0) {
        double router = st_llm_router_params(m), all = c->x.experts * st_llm_expert_params(m);
        local = all / c->ep;
        layer = (st_llm_layer_params(m) - norms - router - all) / t + norms + router + local;
    }
    int64_t nd = stage_dense(c, i), nm = stage_layers(c, i) - nd;
    double n = (double)nm * layer;
    *experts = (double)nm * local;
    *largest_unit = nm > 0 ? layer : 0.0;
    if (nd > 0) {
        /* A dense layer: everything over tp but its norms. */
        double dense = (st_llm_dense_layer_params(m) - norms) / t + norms;
        n += (double)nd * dense;
        if (dense > *largest_unit)
            *largest_unit = dense;
    }
    if (i == 0) {
        n += emb;
        if (m->pos == ST_POS_LEARNED)
            n += (double)(m->max_positions > 0 ? m->max_positions : c->seq) * h;
        if (m->embed_norm)
            n += st_llm_norm_params(m);
    }
    if (i == c->pp - 1) {
        n += st_llm_norm_params(m);
        if (!m->tied_embeddings || c->pp > 1)
            n += emb;
        /* Multi-token prediction: each module one layer of the model's last kind, its two
         * norms and its 2h x h projection over tp; with pp > 1 the last stage keeps a copy of the
         * input embedding the modules share (Megatron-Core's MTP shares it as a tied output
         * layer is shared). */
        if (c->mtp > 0) {
            double mtp_layer = layer; /* of the model's last kind: its MoE kind, if any */
            n += (double)c->mtp * (mtp_layer + 2.0 * st_llm_norm_params(m) + 2.0 * h * h / t) +
                 (c->pp > 1 && !m->tied_embeddings ? emb : 0);
            *experts += (double)c->mtp * local; /* sharded over edp, as the layers' */
            if (mtp_layer > *largest_unit)
                *largest_unit = mtp_layer;
        }
    }
    if ((i == 0 || i == c->pp - 1) && emb > *largest_unit)
        *largest_unit = emb;
    return n;
}

/* Activation bytes of stage i: its layers times the micro-batches in flight, the recompute
 * working set, the embedding's dropout mask on the first stage (sbh/t per micro-batch in
 * flight, Korthikanti §4.3), and on the last stage, which holds one micro-batch at a time,
 * the final norm's and output projection's inputs 4sbh/t and the fp32 logits 4sbv/t. */
static double stage_activations(const plan *c, int64_t i)
{
    const shape *x = &c->x;
    double sbh = x->s * x->b * x->h;
    double in_flight = stage_in_flight(c, i);
    int64_t layers = stage_layers(c, i), nd = stage_dense(c, i);
    /* Offloaded layers (the model's first; pp = 1, so all on stage 0) keep their activations in
     * host memory, but for one layer's in transit while its copy runs beside the next layer. */
    int64_t off = i == 0 && c->offload > 0 ? (c->offload < layers ? c->offload : layers) : 0;
    int64_t off_d = off < nd ? off : nd;
    if (off > 0) {
        nd -= off_d;
        layers -= off;
    }
    int alike = c->v <= 1 || chunks_alike(c, i); /* offload: pp = 1, one chunk */
    double bytes = alike
                       ? (double)(layers - nd) * in_flight * layer_bytes(x, c->rc)
                       : stage_peak_layers(c, i, layer_bytes(x, c->rc), layer_bytes(&c->xd, c->rc));
    if (off > 0) /* the layer in transit, of the kind offloaded last */
        bytes += layer_bytes(off > off_d ? x : &c->xd, c->rc);
    if (layers - nd > 0 || (i == c->pp - 1 && c->mtp > 0)) /* an MTP layer's too */
        bytes += recompute_workset(x, c->rc);
    if (nd > 0) {
        /* Dense layers keep the dense MLP's tensors; the working set is the larger kind's. */
        if (alike)
            bytes += (double)nd * in_flight * layer_bytes(&c->xd, c->rc);
        double wd = recompute_workset(&c->xd, c->rc), wm = recompute_workset(x, c->rc);
        if (layers - nd == 0)
            bytes += wd;
        else if (wd > wm)
            bytes += wd - wm;
    }
    if (i == 0 && x->dropout)
        bytes += in_flight * sbh / x->rep;
    if (i == c->pp - 1)
        bytes += (1.0 + (double)c->mtp) *
                     (4.0 * sbh / x->rep + K.logit_bytes * x->s * x->b * x->v / x->t) +
                 (double)c->mtp * layer_bytes(x, c->rc); /* each MTP module: a layer, a head */
    return bytes;
}

/* The four state terms of stage i under ZeRO: stage 1 shards the optimizer states over the
 * data-parallel ranks, stage 2 also the gradients, stage 3 also the weights, which then need
 * the largest unit (a layer, or the embedding) gathered whole while it computes, and a second
 * one when the next unit's gather is prefetched beside it (PyTorch's FSDP notes, "FSDP buffers
 * sizes": two all-gather buffers). */
static double stage_terms(const plan *c, int64_t i, double term[ST_MEM__COUNT], double *experts)
{
    double unit = 0.0, ne = 0.0;
    double n = stage_params(c, i, &unit, &ne);
    *experts = ne;
    double d = c->zero_div;
    /* What ZeRO shards: the dense parameters over dp x cp, the experts' over edp. */
    double sharded = (n - ne) / d + ne / c->edp_div;
    term[ST_MEM_WEIGHTS] = c->wb * n;
    if (c->zero >= 3 && d > 1.0)
        term[ST_MEM_WEIGHTS] = c->wb * (n / d + (c->prefetch ? 2.0 : 1.0) * unit);
    /* grad_reduce: bf16 keeps the gradient buffer in bf16 (Megatron-Core's
     * grad_reduce_in_fp32 = False, which NeMo's FP8 performance recipes set). */
    double gb = c->grad_bf16 ? K.grad_bytes / 2 : K.grad_bytes;
    term[ST_MEM_GRADS] = gb * n / (c->zero >= 2 ? d : 1.0);
    if (ne > 0 && c->zero >= 2)
        term[ST_MEM_GRADS] = gb * sharded;
    /* grad_accum: separate also keeps every weight's own bf16 gradient, unsharded, between
     * its backward and the pass that adds it in (DeepSpeed's BF16 optimizer:
     * deepspeed/runtime/bf16_optimizer.py update_hp_grads, called with clear_lp_grads=False
     * from pipe/engine.py _exec_backward_pass, keeps lp.grad). */
    if (c->grad_sep)
        term[ST_MEM_GRADS] += K.weight_bytes * n;
    term[ST_MEM_OPTIMIZER] = c->ob * n / (c->zero >= 1 ? d : 1.0);
    if (ne > 0 && c->zero >= 1)
        term[ST_MEM_OPTIMIZER] = c->ob * sharded;
    term[ST_MEM_ACTIVATIONS] = stage_activations(c, i);
    term[ST_MEM_RESERVED] = c->reserved;
    return n;
}

static void judge_fit(st_memory *out)
{
    double sum = 0.0;
    out->overflow_term = -1;
    for (int t = 0; t < ST_MEM__COUNT; t++) {
        sum += out->term[t];
        if (out->overflow_term < 0 && sum > out->capacity)
            out->overflow_term = t;
    }
    out->total = sum;
    out->fits = out->overflow_term < 0;
    out->overflow_bytes = out->fits ? 0.0 : sum - out->capacity;
}

double st_memory_stage_params(const st_workload_cfg *w, int64_t stage)
{
    plan c = plan_of(w, 1);
    double unit, experts;
    return stage_params(&c, stage, &unit, &experts);
}

double st_memory_stage_expert_params(const st_workload_cfg *w, int64_t stage)
{
    plan c = plan_of(w, 1);
    double unit, experts;
    stage_params(&c, stage, &unit, &experts);
    return experts;
}

void st_memory_estimate(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                        st_memory *out)
{
    plan c = plan_of(w, microbatch);
    c.x.sac_attn = st_ops_sac_saves_attention(w, gpu);
    c.xd.sac_attn = c.x.sac_attn;
    memset(out, 0, sizeof *out);
    out->params = st_llm_params(w->model, w->seq_len);
    out->flops_per_token = st_llm_flops_per_token(w->model, w->seq_len);
    out->checkpoint_bytes = K.ckpt_bytes * out->params;
    out->capacity = gpu->hbm_bytes;
    double best = -1.0;
    for (int64_t i = 0; i < c.pp; i++) {
        double term[ST_MEM__COUNT], total = 0.0, ne = 0.0;
        double n = stage_terms(&c, i, term, &ne);
        for (int t = 0; t < ST_MEM__COUNT; t++)
            total += term[t];
        if (total > best) {
            best = total;
            out->stage = i;
            out->params_per_gpu = n;
            out->expert_params_per_gpu = ne;
            memcpy(out->term, term, sizeof term);
        }
    }
    judge_fit(out);
}
