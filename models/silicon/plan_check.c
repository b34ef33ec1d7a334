/* The parallel plan's rules: the GPU count, what the model's shape allows (Megatron-LM's own
 * argument checks), the ZeRO stages' gradient options, and how the batch splits. */
#include "models/silicon/plan_check.h"

#include <stdarg.h>
#include <stdio.h>

#include "models/silicon/dispatch.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ub_cfg.h"
#include "sim/err.h"

/* Append one issue while there is room; returns the new count. */
static int add(st_plan_issue *out, int n, int cap, int code, const char *key, const char *fmt, ...)
{
    if (n >= cap)
        return n;
    va_list ap;
    va_start(ap, fmt);
    out[n].code = code;
    out[n].key = key;
    vsnprintf(out[n].msg, sizeof out[n].msg, fmt, ap);
    va_end(ap);
    return n + 1;
}

/* tp*cp*pp*dp in floating point: each factor is capped by its key's range, but their product
 * can still overflow an int64. An underived dp counts as 1. */
static double plan_size(const st_parallel_cfg *p)
{
    return (double)p->tp * (double)p->cp * (double)p->pp * (double)(p->dp ? p->dp : 1);
}

void st_plan_fill(st_workload_cfg *w)
{
    st_parallel_cfg *p = &w->parallel;
    if (plan_size(p) > ST_PLAN_MAX_GPUS)
        return;
    int64_t part = p->tp * p->cp * p->pp;
    if (!w->gpus && p->dp)
        w->gpus = part * p->dp;
    if (!p->dp && w->gpus && w->gpus % part == 0)
        p->dp = w->gpus / part;
    if (!w->global_batch && p->dp)
        w->global_batch = p->dp * (p->microbatch ? p->microbatch : 1);
}

/* tp*cp*pp*dp = gpus, with dp derived when left out, and the plan inside the cluster. Returns
 * the new count; any issue here ends the check. */
static int check_gpus(const st_workload_cfg *w, const st_cluster_cfg *c, st_plan_issue *out,
                      int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    if (plan_size(p) > ST_PLAN_MAX_GPUS)
        return add(out, 0, cap, ST_ELIMIT, "parallel",
                   "tp*cp*pp*dp is beyond the supported 10^9 GPUs");
    long long part = p->tp * p->cp * p->pp;
    if (!w->gpus)
        return add(out, 0, cap, ST_EINVAL, "", "missing required key 'gpus' (or parallel.dp)");
    if (!p->dp)
        return add(out, 0, cap, ST_EINVAL, "gpus",
                   "gpus (%lld) is not a multiple of tp*cp*pp = %lld", (long long)w->gpus, part);
    if (part * p->dp != w->gpus)
        return add(out, 0, cap, ST_EINVAL, "parallel",
                   "tp*cp*pp*dp = %lld*%lld*%lld*%lld = %lld, but gpus is %lld", (long long)p->tp,
                   (long long)p->cp, (long long)p->pp, (long long)p->dp, part * p->dp,
                   (long long)w->gpus);
    if (w->gpus > c->nodes * c->gpus_per_node && c->view_of) /* the pool it runs in */
        return add(out, 0, cap, ST_EINVAL, "gpus",
                   "asks for %lld GPUs of pool '%s', which has %lld (%lld nodes x %lld)",
                   (long long)w->gpus, c->view_of, (long long)(c->nodes * c->gpus_per_node),
                   (long long)c->nodes, (long long)c->gpus_per_node);
    if (w->gpus > c->nodes * c->gpus_per_node)
        return add(out, 0, cap, ST_EINVAL, "gpus",
                   "asks for %lld GPUs, but the cluster has %lld (%lld nodes x %lld)",
                   (long long)w->gpus, (long long)(c->nodes * c->gpus_per_node),
                   (long long)c->nodes, (long long)c->gpus_per_node);
    return 0;
}

/* What the model's shape requires of the plan (Megatron-LM's own argument checks). */
static int check_shape(const st_workload_cfg *w, st_plan_issue *out, int n, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    const st_llm_spec *m = w->model;
    /* m is NULL when the loader checks a plan whose model did not read: the rest still hold. */
    if (m && m->heads % p->tp)
        n = add(out, n, cap, ST_EINVAL, "parallel.tp",
                "the model's %lld heads do not split over tp = %lld", (long long)m->heads,
                (long long)p->tp);
    if (m && m->kv_heads % p->tp && p->tp % m->kv_heads)
        n = add(out, n, cap, ST_EINVAL, "parallel.tp",
                "the model's %lld K/V heads do not split over tp = %lld", (long long)m->kv_heads,
                (long long)p->tp);
    if (w->seq_len % p->cp)
        n = add(out, n, cap, ST_EINVAL, "parallel.cp",
                "seq_len (%lld) does not split over cp = %lld", (long long)w->seq_len,
                (long long)p->cp);
    /* The embedding and loss slots count as layers of the split (st_chunk_split), which
     * Megatron-Core then requires to be even (transformer_block.py asserts it). */
    int64_t slots = m ? m->layers + (p->embedding_slot != 0) + (p->loss_slot != 0) : 0;
    int64_t chunks = p->pp * p->virtual_stages;
    if (m && chunks > slots)
        n = add(out, n, cap, ST_EINVAL, "parallel.pp",
                "pp*virtual_stages = %lld exceeds the model's %lld layers%s", (long long)chunks,
                (long long)slots, slots > m->layers ? " with the embedding and loss slots" : "");
    else if (m && slots > m->layers && slots % chunks && !p->chunk_layers)
        n = add(out, n, cap, ST_EINVAL,
                p->embedding_slot ? "parallel.embedding_slot" : "parallel.loss_slot",
                "the model's %lld layers and the %s make %lld, which pp*virtual_stages = %lld "
                "does not split evenly, as Megatron-Core requires",
                (long long)m->layers,
                !p->loss_slot        ? "embedding slot"
                : !p->embedding_slot ? "loss slot"
                                     : "embedding and loss slots",
                (long long)slots, (long long)chunks);
    /* An explicit layout: a count for every chunk, the model's layers in all, and no slot
     * besides (the layout places the embedding and the loss itself). */
    int64_t sum = 0;
    for (int64_t i = 0; i < p->n_chunk_layers; i++)
        sum += p->chunk_layers[i];
    if (p->chunk_layers && p->n_chunk_layers != chunks)
        n = add(out, n, cap, ST_EINVAL, "parallel.chunk_layers",
                "%lld layer counts for pp*virtual_stages = %lld chunks: give one a chunk, in "
                "model order",
                (long long)p->n_chunk_layers, (long long)chunks);
    else if (p->chunk_layers && m && sum != m->layers)
        n = add(out, n, cap, ST_EINVAL, "parallel.chunk_layers",
                "the chunks hold %lld layers in all, the model has %lld", (long long)sum,
                (long long)m->layers);
    else if (p->chunk_layers && (p->embedding_slot || p->loss_slot))
        n = add(out, n, cap, ST_EINVAL, "parallel.chunk_layers",
                "an explicit layout places the embedding and the loss itself: drop "
                "embedding_slot and loss_slot");
    if (w->mtp_layers > 0 && p->zero >= 3)
        n = add(out, n, cap, ST_EINVAL, "mtp_layers",
                "multi-token prediction is not modelled under zero 3 (its per-layer gathers "
                "hold the model's layers only): use zero 0, 1 or 2");
    if (p->ep_comm_overlap && m && (m->experts <= 0 || p->ep <= 1))
        n = add(out, n, cap, ST_EINVAL, "parallel.ep_comm_overlap",
                "the EP all-to-all overlap needs a mixture-of-experts model with ep > 1");
    if (p->virtual_stages > 1 && p->pp == 1)
        n = add(out, n, cap, ST_EINVAL, "parallel.virtual_stages",
                "virtual_stages = %lld needs pipeline parallelism (pp = %lld)",
                (long long)p->virtual_stages, (long long)p->pp);
    return n;
}

/* What the ZeRO stage allows of the gradient path and the weight gather. */
static int check_zero(const st_parallel_cfg *p, st_plan_issue *out, int n, int cap)
{
    long long zero = p->zero;
    /* The distributed optimizer (ZeRO 1 and 2) all-gathers the weights after its step, ZeRO 3
     * before every layer; ZeRO 0 keeps them whole and gathers nothing. */
    if (p->overlap_param_gather && p->zero < 1)
        n = add(out, n, cap, ST_EINVAL, "parallel.overlap_param_gather",
                "overlap_param_gather needs sharded weights or optimizer states (zero 1, 2 or 3), "
                "found zero %lld",
                zero);
    /* ZeRO 0 keeps every gradient whole, so it cannot reduce-scatter them; ZeRO 3
     * reduce-scatters each layer's as it goes. */
    if (p->grad_collective == ST_GRAD_COLL_REDUCE_SCATTER && p->zero < 1)
        n = add(out, n, cap, ST_EINVAL, "parallel.grad_collective",
                "grad_collective: reduce-scatter needs a sharded optimizer (zero 1 or 2), found "
                "zero %lld",
                zero);
    if (p->grad_collective != ST_GRAD_COLL_AUTO && p->zero > 2)
        n = add(out, n, cap, ST_EINVAL, "parallel.grad_collective",
                "grad_collective does not apply to zero %lld, which reduce-scatters each layer's "
                "gradients as its backward ends",
                zero);
    /* ZeRO 2 keeps only its shard of the gradients, which an all-reduce would not leave. */
    if (p->grad_collective == ST_GRAD_COLL_ALL_REDUCE && p->zero == 2)
        n = add(out, n, cap, ST_EINVAL, "parallel.grad_collective",
                "grad_collective: all-reduce leaves every rank all the gradients, but zero %lld "
                "keeps only a shard (use zero 0 or 1)",
                zero);
    /* The separate accumulation is DeepSpeed's BF16 optimizer, which runs under ZeRO 0 and 1
     * only and accumulates into fp32 (deepspeed/runtime/engine.py builds the ZeRO optimizers
     * for stages 2 and 3). */
    if (p->grad_accum_separate && p->zero > 1)
        n = add(out, n, cap, ST_EINVAL, "parallel.grad_accum",
                "grad_accum: separate (DeepSpeed's BF16 optimizer) runs under zero 0 or 1, found "
                "zero %lld",
                zero);
    if (p->grad_accum_separate && p->grad_bf16)
        n = add(out, n, cap, ST_EINVAL, "parallel.grad_accum",
                "grad_accum: separate adds the bf16 gradients into fp32 ones; it needs "
                "grad_reduce: fp32");
    return n;
}

/* Expert parallelism and what Megatron-Core's MoE layers require of the rest of the plan, and
 * the plan features the MoE model here does not cover. Megatron-Core's MoELayer.forward refuses
 * to train with tp > 1 and no sequence parallelism (megatron/core/transformer/moe/moe_layer.py;
 * megatron/core/model_parallel_config.py warns: "When using expert parallelism and tensor
 * parallelism for training, sequence parallelism must be used"). The EP groups are ep
 * consecutive ranks of the expert grid, order tp-ep-dp-pp with expert tensor parallelism 1
 * (megatron/core/parallel_state.py, initialize_model_parallel's expert RankGenerator), so ep must
 * divide the tp*cp*dp ranks of a stage. */
static int check_experts(const st_workload_cfg *w, st_plan_issue *out, int n, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    const st_llm_spec *m = w->model;
    long long ep = p->ep < 1 ? 1 : p->ep, experts = m ? m->experts : 0;
    long long etp = p->etp < 1 ? 1 : p->etp;
    if (!m)
        return n;
    if (ep > 1 && experts == 0)
        return add(out, n, cap, ST_EINVAL, "parallel.ep",
                   "ep = %lld needs a mixture-of-experts model (experts), found the dense model "
                   "'%s'",
                   ep, m->name ? m->name : "(inline)");
    if (etp > 1 && experts == 0)
        return add(out, n, cap, ST_EINVAL, "parallel.etp",
                   "etp = %lld needs a mixture-of-experts model (experts), found the dense model "
                   "'%s'",
                   etp, m->name ? m->name : "(inline)");
    if (experts == 0)
        return n;
    if (m->expert_ffn_hidden % etp)
        n = add(out, n, cap, ST_EINVAL, "parallel.etp",
                "the experts' width %lld does not split over etp = %lld",
                (long long)m->expert_ffn_hidden, etp);
    if (etp > 1 && p->dp && (p->tp * p->cp * p->dp) % (ep * etp))
        n = add(out, n, cap, ST_EINVAL, "parallel.etp",
                "ep x etp = %lld does not divide a stage's tp*cp*dp = %lld ranks", ep * etp,
                (long long)(p->tp * p->cp * p->dp));
    if (experts % ep)
        n = add(out, n, cap, ST_EINVAL, "parallel.ep",
                "the model's %lld experts do not split over ep = %lld", experts, ep);
    long long ranks = p->tp * p->cp * p->dp;
    if (p->dp && ranks % ep)
        n = add(out, n, cap, ST_EINVAL, "parallel.ep",
                "ep = %lld does not divide a stage's tp*cp*dp = %lld ranks", ep, ranks);
    if (p->tp > 1 && !p->sequence_parallel)
        n = add(out, n, cap, ST_EINVAL, "parallel.sequence_parallel",
                "mixture-of-experts layers with tp = %lld need sequence_parallel: true "
                "(Megatron-Core requires it)",
                (long long)p->tp);
    if (p->zero >= 3)
        n = add(out, n, cap, ST_EINVAL, "parallel.zero",
                "zero 3 is not modelled for mixture-of-experts layers (use zero 0, 1 or 2)");
    if (p->recompute == ST_RECOMPUTE_OP)
        n = add(out, n, cap, ST_EINVAL, "parallel.recompute",
                "recompute: op is not modelled for mixture-of-experts layers (use none, "
                "selective or full)");
    return n;
}

/* recompute: op follows torchtitan's per-op policy, written for the fused wq/wk/wv of ordinary
 * attention (st_ops_sac_recompute_share); which of MLA's five projections it would save is not
 * published, so the combination is refused rather than guessed. */
static int check_mla(const st_workload_cfg *w, st_plan_issue *out, int n, int cap)
{
    if (w->model && st_llm_is_mla(w->model) && w->parallel.recompute == ST_RECOMPUTE_OP)
        n = add(out, n, cap, ST_EINVAL, "parallel.recompute",
                "recompute: op is not modelled for multi-head latent attention (use none, "
                "selective or full)");
    return n;
}

/* What module `m` repeats where the model has none of it: nothing, which a plan that names it
 * did not mean. NULL when the model has the module. */
static const char *missing_module(const st_llm_spec *m, st_recompute_module r)
{
    int moe = m->experts > 0;
    switch (r) {
    case ST_RCM_MOE_ACT:
    case ST_RCM_MOE:
        return moe ? NULL : "the model has no mixture-of-experts layers";
    case ST_RCM_SHARED_EXPERTS:
        return moe && st_llm_shared_up(m) > 0 ? NULL : "the model has no shared experts";
    case ST_RCM_MLA_UP_PROJ:
        return st_llm_is_mla(m) ? NULL : "the model has no multi-head latent attention";
    case ST_RCM_LAYERNORM:
        return moe || st_llm_is_mla(m) ? NULL
                                       : "its norms run fused into the linear layers after them "
                                         "(Transformer Engine's LayerNormLinear)";
    case ST_RCM_MLP:
        return !moe || st_llm_dense_layers(m) > 0 ? NULL : "the model has no dense MLP layers";
    default:
        return NULL;
    }
}

/* recompute_modules names parts of a layer for recompute: selective to repeat (Megatron-Core's
 * recompute_modules, which only selective granularity reads), each one the model has; `moe`
 * repeats the whole MoE layer, its activation and shared experts included, so naming those
 * beside it says nothing more and is refused as a likely slip. */
static int check_recompute_modules(const st_workload_cfg *w, st_plan_issue *out, int n, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    if (!p->recompute_modules)
        return n;
    if (p->recompute != ST_RECOMPUTE_SELECTIVE)
        return add(out, n, cap, ST_EINVAL, "parallel.recompute_modules",
                   "recompute_modules needs recompute: selective (found recompute: %s), as "
                   "Megatron-Core reads them only at selective granularity",
                   st_recompute_names[p->recompute]);
    unsigned mods = p->recompute_modules, act = 1u << ST_RCM_MOE_ACT,
             shared = 1u << ST_RCM_SHARED_EXPERTS, norm = 1u << ST_RCM_LAYERNORM;
    if ((mods & (1u << ST_RCM_MOE)) && (mods & (act | shared)))
        n = add(out, n, cap, ST_EINVAL, "parallel.recompute_modules",
                "recompute_modules: moe repeats the whole MoE layer; drop %s beside it",
                (mods & act) && (mods & shared) ? "moe_act and shared_experts"
                : (mods & act)                  ? "moe_act"
                                                : "shared_experts");
    /* transformer_config.py, core_v0.15.0: "Delayed scaling does not support moe_act and
     * layernorm recompute for fp8" (their FP8 inputs are quantised again in backward) */
    if (w->precision == ST_PREC_FP8 && w->fp8_recipe == ST_FP8_DELAYED && (mods & (act | norm)))
        n = add(out, n, cap, ST_EINVAL, "parallel.recompute_modules",
                "recompute_modules: moe_act and layernorm under fp8 need fp8_recipe current or "
                "mxfp8; Megatron-Core refuses them with delayed scaling");
    for (int r = 0; w->model && st_recompute_module_names[r]; r++) {
        const char *why = (p->recompute_modules >> r) & 1u
                              ? missing_module(w->model, (st_recompute_module)r)
                              : NULL;
        if (why)
            n = add(out, n, cap, ST_EINVAL, "parallel.recompute_modules",
                    "recompute_modules: %s repeats nothing here: %s", st_recompute_module_names[r],
                    why);
    }
    return n;
}

/* Activation offload as Megatron-Core allows it: no pipeline parallelism and no recomputation
 * (Megatron-Bridge, docs/training/cpu-offloading.md: "Pipeline parallelism (PP > 1) blocks
 * activation offloading", "CPU offloading does not work when activation recomputation is
 * enabled"), and no more layers than the model has. */
static int check_offload(const st_workload_cfg *w, const st_cluster_cfg *c, st_plan_issue *out,
                         int n, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    if (p->offload_layers <= 0)
        return n;
    /* The copies' time needs the host link: a GPU spec without one has no figure for it. */
    if (c && !(c->node.pcie_bw > 0) && !(c->gpu && c->gpu->pcie_bw > 0))
        n = add(out, n, cap, ST_EINVAL, "parallel.offload_layers",
                "activation offload needs the GPU's host link: state the GPU's pcie or the "
                "node's pcie");
    if (p->pp > 1)
        n = add(out, n, cap, ST_EINVAL, "parallel.offload_layers",
                "activation offload needs pp = 1, as Megatron-Core requires (found pp = %lld)",
                (long long)p->pp);
    if (p->recompute != ST_RECOMPUTE_NONE)
        n = add(out, n, cap, ST_EINVAL, "parallel.offload_layers",
                "activation offload does not run with recomputation, as in Megatron-Core (use "
                "recompute: none)");
    if (w->model && p->offload_layers > w->model->layers)
        n = add(out, n, cap, ST_EINVAL, "parallel.offload_layers",
                "offload_layers = %lld exceeds the model's %lld layers",
                (long long)p->offload_layers, (long long)w->model->layers);
    return n;
}

/* TP communication overlap as Megatron-LM allows it: with sequence parallelism (arguments.py:
 * "Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is
 * enabled"). At tp = 1 there is nothing to overlap and the key does nothing. Its userbuffers
 * settings (tp_comm_overlap_cfg) mean nothing without it. */
static int check_tp_overlap(const st_parallel_cfg *p, st_plan_issue *out, int n, int cap)
{
    if (p->tp_comm_overlap && p->tp > 1 && !p->sequence_parallel)
        n = add(out, n, cap, ST_EINVAL, "parallel.tp_comm_overlap",
                "TP communication overlap needs sequence_parallel: true, as in Megatron-LM "
                "(tp = %lld)",
                (long long)p->tp);
    if (p->tp_comm_overlap_cfg != 0 && !p->tp_comm_overlap)
        n = add(out, n, cap, ST_EINVAL, "parallel.tp_comm_overlap_cfg",
                "userbuffers settings '%s' configure TP communication overlap, which is off: "
                "state tp_comm_overlap: true, or drop the settings",
                st_ub_cfg_names[p->tp_comm_overlap_cfg]);
    return n;
}

/* DeepEP and HybridEP dispatch an MoE model's tokens over ep > 1 ranks, and are timed from
 * their measurements (models/silicon/dispatch.c): a GPU, rank count and domain none covers is
 * refused, not guessed. The EP group is ep x etp consecutive GPUs, so it spans NVLink domains
 * when that block is larger than one. */
static int check_dispatcher(const st_workload_cfg *w, const st_cluster_cfg *c, st_plan_issue *out,
                            int n, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    if (p->moe_dispatcher == ST_DISP_ALLTOALL || !w->model)
        return n;
    const char *name = st_moe_dispatcher_names[p->moe_dispatcher];
    if (w->model->experts <= 0 || p->ep <= 1)
        return add(out, n, cap, ST_EINVAL, "parallel.moe_dispatcher",
                   "moe_dispatcher: %s dispatches a mixture-of-experts model's tokens over ep > 1 "
                   "ranks",
                   name);
    if (p->moe_dispatcher == ST_DISP_ALLGATHER)
        return p->etp > 1 ? add(out, n, cap, ST_EINVAL, "parallel.moe_dispatcher",
                                "moe_dispatcher: allgather is modelled at etp 1, found etp %lld",
                                (long long)p->etp)
                          : n;
    int across = c && st_moe_ep_across(p, c->nvlink_domain);
    if (c && c->gpu &&
        st_moe_flex_bw(c->gpu, (st_moe_dispatcher)p->moe_dispatcher, (double)p->ep, across, 0) <= 0)
        return add(out, n, cap, ST_EINVAL, "parallel.moe_dispatcher",
                   "moe_dispatcher: %s has no published measurement on %s %s (measured: %s); use "
                   "alltoall",
                   name, c->gpu->name,
                   across ? "across NVLink domains" : "within one NVLink domain",
                   st_moe_flex_covered((st_moe_dispatcher)p->moe_dispatcher));
    return n;
}

int st_plan_check(const st_workload_cfg *w, const st_cluster_cfg *c, st_plan_issue *out, int cap)
{
    /* The shape and ZeRO rules read neither gpus nor dp, so a GPU-count issue does not hide
     * them: a user fixing the file sees every broken rule at once. */
    int n = check_gpus(w, c, out, cap);
    n = check_shape(w, out, n, cap);
    n = check_experts(w, out, n, cap);
    n = check_mla(w, out, n, cap);
    n = check_offload(w, c, out, n, cap);
    n = check_recompute_modules(w, out, n, cap);
    n = check_tp_overlap(&w->parallel, out, n, cap);
    n = check_dispatcher(w, c, out, n, cap);
    return check_zero(&w->parallel, out, n, cap);
}

int st_plan_check_batch(const st_workload_cfg *w, int64_t microbatch, st_plan_issue *out, int cap)
{
    const st_parallel_cfg *p = &w->parallel;
    long long per = p->dp * (microbatch ? microbatch : 1);
    if (per < 1)
        return 0; /* no dp: st_plan_check has said why */
    if (w->global_batch % per)
        return add(out, 0, cap, ST_EINVAL, "global_batch",
                   "global_batch (%lld) must be a multiple of dp*microbatch = %lld",
                   (long long)w->global_batch, per);
    /* Megatron's interleaved schedule runs micro-batches in groups of pp. */
    if (p->virtual_stages > 1 && microbatch && (w->global_batch / per) % p->pp)
        return add(out, 0, cap, ST_EINVAL, "global_batch",
                   "interleaving needs micro-batches per step (%lld) to be a multiple of pp (%lld)",
                   (long long)(w->global_batch / per), (long long)p->pp);
    return 0;
}
