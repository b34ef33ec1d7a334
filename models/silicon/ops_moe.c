/* A mixture-of-experts layer's MLP on one GPU: the routing imbalance it is timed at, the shared
 * experts, the router, the token permutation (fused or eager) and the local experts' grouped
 * GEMMs, pushed into a layer's graph by ops.c. docs/models/step-ops.md, "Mixture of experts". */
#include <math.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"

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
    st__ops_linear(g, d, "shared_fc1", d->T, d->up_s, d->h, d->Tr, ST__FEED_PLAIN, d->T);
    st__ops_memory(g, "shared_act", d->act * d->T * d->fs);
    st__ops_linear(g, d, "shared_fc2", d->T, d->h, d->fs, d->T, ST__FEED_PLAIN, d->Tr);
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
    st__ops_push(g, op);
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
    st__ops_push(g, op);
}

/* The MLP of a mixture-of-experts layer on one GPU (Megatron-Core's MoELayer with the
 * all-to-all token dispatcher and TEGroupedMLP, expert tensor parallelism 1, dropless routing,
 * timed on the most loaded rank of the EP group, d->imb times the mean's rows): the router over the
 * Tr tokens this GPU holds after sequence parallelism, the permutation of each token into its k
 * experts' rows, then (after the dispatch all-to-all, timed in models/step/step.c) the experts/ep
 * local experts' MLPs over me = k Tr ep / experts tokens each, and after the combine all-to-all the
 * weighted sum back into Tr rows (megatron/core/transformer/moe/token_dispatcher.py,
 * MoEAlltoAllTokenDispatcher); the shared experts, if any, first. */
void st__ops_moe_mlp(builder *g, const dims *d)
{
    shared_mlp(g, d);
    /* The router's logits are a plain linear in the input's BF16 (router_gating_linear in
     * megatron/core/transformer/moe/router.py, Router.gating, moe_router_dtype unset): not a
     * Transformer Engine module, so FP8 does not apply to it. */
    st__ops_gemm(g, "router", ST_PREC_BF16, d->Tr, d->experts, d->h);
    st__ops_memory(g, "router_topk",
                   st__ops_B.router_topk * d->Tr * d->experts); /* its own kernel: a boundary */
    if (d->router_eager)
        eager_router(g, d);
    if (d->permute_eager)
        eager_permute(g, "permute", d, 4.0, 0.0, 2.0, 6.0, E.permute_fwd_kernels,
                      E.permute_bwd_kernels);
    else
        st__ops_memory(g, "permute", st__ops_B.permute * d->Tr * d->h * (1.0 + d->topk));
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
        st__ops_memory(g, "sort_chunks", 2.0 * st__ops_B.permute * rows * d->h);
    /* A batch of few tokens leaves experts idle: with N tokens each routed to k of the E experts
     * (even routing), an expert receives none with probability (1 - k/E)^N, and the grouped
     * GEMMs run, and read the weights of, only the experts that receive some (a serving decode
     * batch; a training batch's thousands of tokens reach every expert, and its figures are
     * unchanged to the bit). */
    double tokens = d->imb > 0 && d->topk > 0 ? d->me * d->experts / (d->imb * d->topk) : 0;
    double idle = tokens > 0 ? pow(1.0 - d->topk / d->experts, tokens) : 0;
    double busy = idle > 0 ? local * (1.0 - idle) : local, each = idle > 0 ? rows / busy : d->me;
    st__ops_grouped(g, d, "expert_fc1", busy, each, d->up_e, d->h);
    st__ops_memory(g, "expert_act", d->act * rows * d->fe);
    st__ops_grouped(g, d, "expert_fc2", busy, each, d->h, d->fe);
    if (sort)
        st__ops_memory(g, "unsort_chunks", 2.0 * st__ops_B.permute * rows * d->h);
    if (d->permute_eager)
        eager_permute(g, "unpermute", d, 6.0, 6.0, 16.0, 0.0, E.unpermute_fwd_kernels,
                      E.unpermute_bwd_kernels);
    else
        st__ops_memory(g, "unpermute", st__ops_B.permute * d->Tr * d->h * (1.0 + d->topk));
}
