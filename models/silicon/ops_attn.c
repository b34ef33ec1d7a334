/* The attention block's operators on one GPU: the fused core (with sliding windows), the
 * pre-FlashAttention core and MLA's projections, pushed into a layer's graph by ops.c.
 * docs/models/step-ops.md, "The attention core", "Sliding windows" and "Multi-head latent
 * attention". */
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"

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
    op->full_work = op->flops * ST__ATTN_CAUSAL_SHARE;
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
void st__ops_attention(builder *g, const dims *d, int kernel, int release)
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
    st__ops_push(g, op);
}

/* Bytes per score element of the unfused attention's memory-bound kernels (BF16 scores):
 * scale-mask-softmax reads the scores and writes the probabilities; dropout reads them and
 * writes its output and a one-byte mask (Megatron-LM's fused kernels, Korthikanti et al. 2022
 * section 4.1 counts the same tensors: 2as^2b bytes of probabilities, as^2b of mask). */
#define UNFUSED_SOFTMAX_BYTES 4.0
#define UNFUSED_DROPOUT_BYTES 5.0

/* The pre-FlashAttention core: Q K^T and P V as batched GEMMs over the b x heads matrices
 * (stacked along m for the tile model; FLOPs exact), with the s x s scores through softmax and
 * dropout in HBM. Masked work is done, not skipped. */
void st__ops_attention_unfused(builder *g, const dims *d)
{
    size_t from = g->n;
    double rows = d->b * d->heads * d->sq, scores = rows * d->s, hd = d->da / d->heads;
    double hv = d->dv / d->heads; /* = hd but with MLA's value head */
    st__ops_gemm(g, "qk", ST_PREC_BF16, rows, d->s, hd);
    st__ops_memory(g, "softmax", UNFUSED_SOFTMAX_BYTES * scores);
    if (d->dropout)
        st__ops_memory(g, "attn_drop", UNFUSED_DROPOUT_BYTES * scores);
    st__ops_gemm(g, "pv", ST_PREC_BF16, rows, hv, d->s);
    st__ops_mark_core(g, from);
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
void st__ops_mla_projections(builder *g, const dims *d)
{
    if (d->ql > 0) {
        st__ops_linear(g, d, "q_down", d->Tr, d->ql, d->h, d->Tr, ST__FEED_PLAIN, d->Tr);
        st__ops_memory(g, "q_norm", d->norm * d->Tr * d->ql);
        st__ops_linear(g, d, "q_up", d->T, d->q_up, d->ql, d->T, ST__FEED_PLAIN, d->T);
    } else {
        st__ops_linear(g, d, "q_proj", d->T, d->q_up, d->h, d->Tr, ST__FEED_PLAIN, d->T);
    }
    st__ops_linear(g, d, "kv_down", d->Tr, d->kvl + d->rope_d, d->h, d->Tr, ST__FEED_PLAIN, d->Tr);
    st__ops_memory(g, "kv_norm", d->norm * d->Tr * d->kvl);
    st__ops_linear(g, d, "kv_up", d->T, d->kv_up, d->kvl, d->T, ST__FEED_PLAIN, d->T);
    if (d->rope)
        st__ops_memory(g, "rope", d->rope_b * d->T * (d->heads * d->rope_d + d->rope_d));
}
