/* The costs of one layer, of the embedding and output layer and of the MTP block on one GPU,
 * summed from the operator graph ops.c builds and ops_roofline.c times: forward, backward and
 * recompute times and FLOPs, and the tensor-, expert- and expert-tensor-parallel collectives with
 * the GEMMs Transformer Engine hides them behind. docs/models/step-ops.md gives the sources. */
#include <string.h>

#include "models/silicon/dispatch.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"
#include "models/silicon/parallel.h"
#include "models/silicon/ub_cfg.h"

/* ---- Costs --------------------------------------------------------------------------------- */

/* torchtitan's per-op selective activation checkpointing (pytorch/torchtitan,
 * torchtitan/models/llama3/infra/parallelize.py, _save_list and _custom_policy, as at commit
 * 6fc499f of August 2025, which torchao's B200 benchmark ran): inside each transformer block
 * the outputs of aten.mm, of PyTorch's flash and memory-efficient SDPA ops, of reduce-scatters
 * and of max are saved, except every second mm (the policy counts them, 1-based, and
 * recomputes the even ones); everything else is recomputed in backward. The block's mms in
 * order are wq, wk, wv, wo, then w1, w3, w2 (SwiGLU: F.silu(w1(x)) * w3(x) feeds w2) or fc1,
 * fc2: the even ones are wk, wo and w3 (fc2). torchtitan runs cuDNN's SDPA on compute
 * capability 10.0 (torchtitan/models/attention.py at the same commit), an op its list then did
 * not hold (added in December 2025, torchtitan PR 2095). */
int st_ops_sac_saves_attention(const st_workload_cfg *w, const st_gpu_spec *gpu)
{
    if (w->attention == ST_ATTN_FLASH2)
        return 1;
    return w->attention == ST_ATTN_FLASH && !st_gpu_is_blackwell(gpu);
}

double st_ops_sac_recompute_share(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op)
{
    if (op->attn_core)
        return st_ops_sac_saves_attention(w, gpu) ? 0.0 : 1.0;
    if (op->kind == ST_OP_MEMORY)
        return 1.0;
    int swiglu = w->model->mlp == ST_MLP_SWIGLU;
    if (strcmp(op->name, "qkv") == 0) {
        /* wk of the fused wq, wk, wv, by its share of the FLOPs (n = da + 2 dkv) */
        double dkv = (double)st_llm_kv_width(w->model), da = (double)st_llm_attn_width(w->model);
        return dkv / (da + 2.0 * dkv);
    }
    if (strcmp(op->name, "proj") == 0)
        return 1.0;
    if (strcmp(op->name, "fc1") == 0)
        return swiglu ? 0.5 : 0.0; /* w3 of the fused w1, w3 */
    if (strcmp(op->name, "fc2") == 0)
        return swiglu ? 0.0 : 1.0;
    return 0.0;
}

/* Megatron-Core's MoEAlltoAllTokenDispatcher: token_dispatch and token_combine, one all-to-all
 * each over the EP group, and their autograd backward the reverse two
 * (megatron/core/transformer/moe/token_dispatcher.py; the all_to_all autograd function in
 * megatron/core/tensor_parallel/mappings.py). The dispatched rows are BF16 whatever the linear
 * layers' precision (FP8 dispatch is not modelled). None without experts or at ep = 1. */
static void ep_all_to_alls(const st_workload_cfg *w, const dims *d, st_layer_cost *out)
{
    if (d->experts > 0 && d->etp > 1) { /* the expert TP group's gather and reduce-scatter */
        out->etp_colls_fwd = 2;
        out->etp_colls_bwd = 2;
        if (w->parallel.recompute == ST_RECOMPUTE_FULL)
            out->etp_colls_recompute = 2;
        out->etp_bytes = d->imb * d->topk * d->Tr * d->etp * d->h * 2.0;
    }
    if (d->experts <= 0 || d->ep <= 1)
        return;
    out->ep_a2a_fwd = 2;
    out->ep_a2a_bwd = 2;
    if (w->parallel.recompute == ST_RECOMPUTE_FULL)
        out->ep_a2a_recompute = 2;
    /* the exchange ends when the most loaded rank has received its rows (and sent them back) */
    out->ep_a2a_bytes = d->imb * d->topk * d->Tr * d->h * 2.0;
    /* DeepEP and HybridEP send a token once to each rank holding one of its experts and expand
     * it there (models/silicon/dispatch.h); a backward dispatch is a combine and the reverse, so
     * each pass still has one of each */
    out->ep_flex = w->parallel.moe_dispatcher;
    if (out->ep_flex == ST_DISP_ALLGATHER) /* every rank's tokens, whatever their routing */
        out->ep_a2a_bytes = d->ep * d->Tr * d->h * 2.0;
    else if (out->ep_flex != ST_DISP_ALLTOALL)
        out->ep_a2a_bytes *= st_moe_routed_share(w->model, d->ep);
}

/* One column-parallel linear feeding a row-parallel one (the attention's qkv and proj, an MLP's
 * fc1 and fc2) adds, without sequence parallelism, an all-reduce after the row-parallel linear
 * forward and one of the column-parallel input gradient backward. With it, an all-gather
 * before the column-parallel linear and a reduce-scatter after the row-parallel one forward,
 * and backward the reduce-scatter of the column-parallel input gradient, the all-gather of the
 * row-parallel output gradient, and again the all-gather of the column-parallel input, which
 * Megatron keeps sharded and gathers anew for the weight gradient (Korthikanti et al. 2022
 * section 4.2.2; LinearWithGradAccumulationAndAsyncCommunication.backward). */
static void add_tp_pair(int sp, st_layer_cost *out)
{
    out->tp_colls_fwd += sp ? 2 : 1;
    out->tp_colls_bwd += sp ? 3 : 1;
    out->tp_ag_fwd += sp ? 1 : 0;
    out->tp_ag_bwd += sp ? 2 : 0;
}

/* A layer's tensor-parallel pairs: the attention's, and the dense MLP's. A mixture-of-experts
 * layer's routed experts have none: with expert tensor parallelism 1 the all-to-all dispatcher
 * gathers nothing over TP (megatron/core/transformer/moe/token_dispatcher.py,
 * MoEAlltoAllTokenDispatcher.token_dispatch: the gather runs only when the expert TP group has
 * more than one rank), the tokens staying in their sequence-parallel shards; its shared experts
 * (Megatron-Core's SharedExpertMLP, Megatron's own column- and row-parallel linears) are one
 * pair, and with moe_shared_expert_overlap the dispatcher would issue theirs instead (not
 * modelled). */
static void tp_colls(const st_workload_cfg *w, st_layer_cost *out)
{
    int sp = w->parallel.sequence_parallel;
    add_tp_pair(sp, out);
    if (w->model->experts <= 0 || st_llm_shared_up(w->model) > 0)
        add_tp_pair(sp, out);
}

/* Pieces of a pipeline-overlapped GEMM: "num_splits" 4 in Transformer Engine's default config
 * (transformer_engine/pytorch/module/base.py, initialize_ub) and in every NeMo preset
 * (models/silicon/ub_cfg.c). */
#define UB_PIPELINE_SPLITS 4

/* Pair GEMM op's pass (0 forward, 1 dgrad, 2 wgrad) with a collective (ag: an all-gather) as
 * setting g runs it: ring exchange in tp pieces (tp / 2 aggregated, which at tp 2 is taken as
 * the plain exchange: no shipped plan aggregates at tp 2), pipeline in 4, bulk whole. */
static void hide(st_tp_hide *h, int *n, int cap, const st_workload_cfg *w, const st_gpu_spec *gpu,
                 const st_op *op, int pass, int ag, const st_ub_gemm *g)
{
    int tp = (int)w->parallel.tp;
    int splits = g->method == ST_TP_PIPELINE ? UB_PIPELINE_SPLITS
                 : g->method == ST_TP_BULK   ? 1
                 : g->aggregate && tp >= 4   ? tp / 2
                                             : tp;
    if (*n < cap)
        h[(*n)++] = (st_tp_hide){g->method,
                                 ag,
                                 splits,
                                 st__ops_gemm_pass(w, gpu, op, pass, 1),
                                 st__ops_gemm_pass(w, gpu, op, pass, splits),
                                 st_gpu_ub_slowdown(gpu, w->precision, g)};
}

/* The GEMM each TP collective of the layer runs beside under Transformer Engine's overlap
 * (st_layer_cost.hide_fwd, hide_bwd), each set as parallel.tp_comm_overlap_cfg states (TE's
 * defaults: ring_exchange for qkv_fprop, fc1_fprop, proj_dgrad, fc2_dgrad; pipeline for
 * proj_fprop, fc2_fprop; bulk for qkv_dgrad, qkv_wgrad, fc1_dgrad, fc1_wgrad). The
 * column-parallel linears (qkv, fc1, shared_fc1) gather their input forward, gather it again
 * beside their dgrad and reduce-scatter their input gradient beside their wgrad; the
 * row-parallel ones (proj, fc2, shared_fc2) reduce-scatter their output forward and gather their
 * output gradient for their dgrad. Shared experts take the dense MLP's settings. */
static void tp_hides(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *ops, size_t n,
                     st_layer_cost *out)
{
    int cfg = w->parallel.tp_comm_overlap_cfg;
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++) {
        const st_op *op = &ops[i];
        if (op->kind != ST_OP_GEMM)
            continue;
        const char *nm = op->name;
        int qkv = !strcmp(nm, "qkv"), proj = !strcmp(nm, "proj");
        int col = qkv || !strcmp(nm, "fc1") || !strcmp(nm, "shared_fc1");
        int row = proj || !strcmp(nm, "fc2") || !strcmp(nm, "shared_fc2");
        st_tp_hide *f = out->hide_fwd, *b = out->hide_bwd;
        int *nf = &out->n_hide_fwd, *nb = &out->n_hide_bwd;
        if (col) {
            hide(f, nf, ST_TP_HIDE_FWD, w, gpu, op, 0, 1,
                 st_ub_cfg_gemm(cfg, qkv ? ST_UB_QKV_FPROP : ST_UB_FC1_FPROP));
            hide(b, nb, ST_TP_HIDE_BWD, w, gpu, op, 1, 1,
                 st_ub_cfg_gemm(cfg, qkv ? ST_UB_QKV_DGRAD : ST_UB_FC1_DGRAD));
            hide(b, nb, ST_TP_HIDE_BWD, w, gpu, op, 2, 0,
                 st_ub_cfg_gemm(cfg, qkv ? ST_UB_QKV_WGRAD : ST_UB_FC1_WGRAD));
        } else if (row) {
            hide(f, nf, ST_TP_HIDE_FWD, w, gpu, op, 0, 0,
                 st_ub_cfg_gemm(cfg, proj ? ST_UB_PROJ_FPROP : ST_UB_FC2_FPROP));
            hide(b, nb, ST_TP_HIDE_BWD, w, gpu, op, 1, 1,
                 st_ub_cfg_gemm(cfg, proj ? ST_UB_PROJ_DGRAD : ST_UB_FC2_DGRAD));
        }
    }
}

static int named(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(name, *names) == 0)
            return 1;
    return 0;
}

/* The recompute modules (bits 1 << ST_RCM_*) an operator of the layer belongs to, as
 * Megatron-Core checkpoints them (core_v0.15.0): the attention core; the norms that run apart
 * from a linear layer (MLA's input norm, an MoE layer's pre-MLP norm; memory model,
 * module_bytes); MLA's up projections with the latent norms they fuse and the rotary embedding
 * (MLASelfAttention.qkv_up_proj_and_rope_apply); the dense MLP with the norm its fc1 fuses
 * (TransformerLayer._forward_mlp checkpoints self.mlp from the norm's input); the whole MoE
 * layer from its router to its unpermutation, shared experts included; the experts'
 * activation; the shared experts. */
static unsigned op_modules(const st_workload_cfg *w, const st_op *op)
{
    static const char *const up[] = {"q_norm", "q_up", "q_proj", "kv_norm", "kv_up", "rope", NULL};
    static const char *const moe[] = {"router",        "router_topk", "router_eager", "permute",
                                      "sort_chunks",   "expert_fc1",  "expert_act",   "expert_fc2",
                                      "unsort_chunks", "unpermute",   "shared_fc1",   "shared_act",
                                      "shared_fc2",    NULL};
    static const char *const shared[] = {"shared_fc1", "shared_act", "shared_fc2", NULL};
    static const char *const mlp[] = {"norm2", "fc1", "act", "fc2", NULL};
    int is_moe = w->model->experts > 0, is_mla = st_llm_is_mla(w->model);
    unsigned m = 0;
    if (op->attn_core)
        m |= 1u << ST_RCM_CORE_ATTN;
    if ((is_mla && !strcmp(op->name, "norm1")) || (is_moe && !strcmp(op->name, "norm2")))
        m |= 1u << ST_RCM_LAYERNORM;
    if (is_mla && named(op->name, up))
        m |= 1u << ST_RCM_MLA_UP_PROJ;
    if (!is_moe && named(op->name, mlp))
        m |= 1u << ST_RCM_MLP;
    if (is_moe && named(op->name, moe))
        m |= 1u << ST_RCM_MOE;
    if (is_moe && !strcmp(op->name, "expert_act"))
        m |= 1u << ST_RCM_MOE_ACT;
    if (is_moe && named(op->name, shared))
        m |= 1u << ST_RCM_SHARED_EXPERTS;
    return m;
}

/* The collectives recompute: selective's modules repeat: a dense MLP's or the shared experts'
 * forward TP pair (st_layer_cost.tp_colls_recompute), and with moe the layer's all-to-alls and
 * expert-TP collectives. MLA's up projections gather their latents over TP again (at tp > 1
 * with sequence parallelism), not counted: T (q_lora_rank + kv_lora_rank) elements against the
 * pair's T h. */
static void module_colls(const st_workload_cfg *w, st_layer_cost *out)
{
    const st_parallel_cfg *p = &w->parallel;
    int sp = p->sequence_parallel, moe = w->model->experts > 0;
    int pair = (!moe && st_recomputes(p, ST_RCM_MLP)) ||
               (moe && st_llm_shared_up(w->model) > 0 &&
                (st_recomputes(p, ST_RCM_MOE) || st_recomputes(p, ST_RCM_SHARED_EXPERTS)));
    if (pair && p->tp > 1) {
        out->tp_colls_recompute = sp ? 2 : 1;
        out->tp_ag_recompute = sp ? 1 : 0;
    }
    if (moe && st_recomputes(p, ST_RCM_MOE)) {
        out->ep_a2a_recompute = out->ep_a2a_fwd;
        out->etp_colls_recompute = out->etp_colls_fwd;
    }
}

void st_ops_layer_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                       st_layer_cost *out)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward(w, gpu, microbatch, ops, ST_OPS_MAX);
    double attn_s = 0.0, attn_flops = 0.0, sac_s = 0.0, sac_flops = 0.0, mod_s = 0.0,
           mod_flops = 0.0;
    unsigned mods = st_recompute_modules(&w->parallel);
    int named_mods =
        (mods & ~(1u << ST_RCM_CORE_ATTN)) != 0; /* the default's core is attn_s below */
    int mlp = 0;                                 /* past norm2: the MLP side */
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++) {
        double bwd = st_ops_backward_time(w, gpu, &ops[i]);
        out->fwd_s += ops[i].time_s;
        out->bwd_s += bwd;
        mlp |= strcmp(ops[i].name, "norm2") == 0;
        if (mlp) {
            out->mlp_fwd_s += ops[i].time_s;
            out->mlp_bwd_s += bwd;
        }
        out->fwd_flops += ops[i].flops;
        if (ops[i].attn_core) {
            attn_s += ops[i].time_s;
            attn_flops += ops[i].flops;
            out->attn_bwd_s += st_ops_backward_time(w, gpu, &ops[i]);
        }
        if (named_mods && (op_modules(w, &ops[i]) & mods)) {
            mod_s += ops[i].time_s;
            mod_flops += ops[i].flops;
        }
        if (w->parallel.recompute == ST_RECOMPUTE_OP) {
            /* a share of a fused GEMM is timed at the fused shape's efficiency */
            double share = st_ops_sac_recompute_share(w, gpu, &ops[i]);
            sac_s += share * ops[i].time_s;
            sac_flops += share * ops[i].flops;
        }
    }
    out->bwd_flops = 2.0 * out->fwd_flops;
    out->attn_fwd_s = attn_s;
    /* Selective recompute repeats the attention core (Korthikanti et al. 2022 §5), or the
     * modules the plan names (op_modules); per-op recompute what torchtitan's policy does not
     * save (above); full recompute the whole layer forward, its TP collectives included. */
    if (w->parallel.recompute == ST_RECOMPUTE_SELECTIVE && mods == 1u << ST_RCM_CORE_ATTN) {
        out->recompute_s = attn_s;
        out->recompute_flops = attn_flops;
    } else if (w->parallel.recompute == ST_RECOMPUTE_SELECTIVE) {
        out->recompute_s = mod_s;
        out->recompute_flops = mod_flops;
    } else if (w->parallel.recompute == ST_RECOMPUTE_OP) {
        out->recompute_s = sac_s;
        out->recompute_flops = sac_flops;
    } else if (w->parallel.recompute == ST_RECOMPUTE_FULL) {
        out->recompute_s = out->fwd_s;
        out->recompute_flops = out->fwd_flops;
    }
    if (w->parallel.tp > 1) {
        /* A dense layer: 2 forward and 2 backward without sequence parallelism, 4 and 6 with
         * it (tp_colls, add_tp_pair). */
        tp_colls(w, out);
        if (w->parallel.recompute == ST_RECOMPUTE_FULL) {
            out->tp_colls_recompute = out->tp_colls_fwd;
            out->tp_ag_recompute = out->tp_ag_fwd;
        }
        if (w->parallel.sequence_parallel && w->parallel.tp_comm_overlap)
            tp_hides(w, gpu, ops, n, out);
    }
    dims d = st__ops_dims_of(w, microbatch);
    ep_all_to_alls(w, &d, out);
    module_colls(w, out);
    out->tp_bytes = d.T * d.h * 2.0;
    /* Transformer Engine quantises a sequence-parallel shard before gathering it (forward: the
     * qkv and fc1 inputs; backward: the proj and fc2 output gradients and the re-gathered
     * inputs), so under FP8 every all-gather moves one byte per element; the reduce-scatters
     * of outputs and input gradients stay BF16 (LayerNormLinear and Linear, "with_quantized_
     * all_gather"). */
    out->tp_ag_bytes = out->tp_bytes * st_ops_in_bytes(gpu, w->precision) / 2.0;
}

void st_ops_layer_cost_kind(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            int dense, st_layer_cost *out)
{
    if (!dense || w->model->experts <= 0) {
        st_ops_layer_cost(w, gpu, microbatch, out);
        return;
    }
    st_llm_spec m = st_llm_dense_spec(w->model);
    st_workload_cfg wd = *w;
    wd.model = &m;
    st_ops_layer_cost(&wd, gpu, microbatch, out);
}

static void sum_edge(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *ops, size_t n,
                     double *fwd, double *bwd)
{
    *fwd = 0.0;
    *bwd = 0.0;
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++) {
        *fwd += ops[i].time_s;
        *bwd += st_ops_backward_time(w, gpu, &ops[i]);
    }
}

void st_ops_mtp_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                     double *fwd_s, double *bwd_s, double *flops)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_mtp_forward(w, gpu, microbatch, ops, ST_OPS_MAX);
    sum_edge(w, gpu, ops, n, fwd_s, bwd_s);
    *flops = 0;
    for (size_t i = 0; i < n; i++)
        *flops += 3.0 * ops[i].flops; /* forward, and backward's two GEMMs */
}

void st_ops_edge_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                      double *embed_fwd_s, double *embed_bwd_s, double *head_fwd_s,
                      double *head_bwd_s)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_embed_forward(w, gpu, microbatch, ops, ST_OPS_MAX);
    sum_edge(w, gpu, ops, n, embed_fwd_s, embed_bwd_s);
    n = st_ops_head_forward(w, gpu, microbatch, ops, ST_OPS_MAX);
    sum_edge(w, gpu, ops, n, head_fwd_s, head_bwd_s);
}
