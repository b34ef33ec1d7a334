/* The sizes the operator graph is built from: the bytes per element of its operators, in one
 * table, and one micro-batch's widths and token counts on one GPU after tensor, sequence, context
 * and expert parallelism (dims). docs/models/step-ops.md gives the byte counts' sources. */
#include <math.h>

#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ops_internal.h"

/* Bytes per element of the memory-bound operators and the other byte counts of the graph, in
 * one table (DESIGN.md: every model constant in one place). Activations are bf16. */
const st__ops_byte_table st__ops_B = {
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

static double at_least_1(int64_t v)
{
    return v < 1 ? 1.0 : (double)v;
}

/* The mixture-of-experts widths and rows of dims (0 experts: dense) on a GPU of TP degree t, as
 * mla_dims gives MLA's. */
static void moe_dims(dims *d, const st_workload_cfg *w, const st_llm_spec *m, double t)
{
    d->experts = (double)(m->experts > 0 ? m->experts : 0);
    d->topk = (double)m->experts_per_token;
    d->ep = at_least_1(w->parallel.ep);
    d->etp = at_least_1(w->parallel.etp);
    d->fe = (double)m->expert_ffn_hidden / d->etp;
    d->up_e = (double)st_llm_expert_up(m) / d->etp;
    d->imb = st_moe_imbalance(w);
    /* an expert's rows on a rank: the k Tr tokens of each rank of its EP group, and of each of
     * its etp ranks when they hold different tokens (gathered); tensor parallelism without
     * sequence parallelism (a serving replica: training refuses it for MoE) gives every TP rank,
     * and so every EP and etp rank inside it, the same tokens: an expert receives its share of
     * those alone, each rank running its slice of them */
    double from = t > 1 && !w->parallel.sequence_parallel ? 1.0 : d->ep * d->etp;
    d->me = d->experts > 0 ? d->imb * d->topk * d->Tr * from / d->experts : 0.0;
    d->up_s = (double)st_llm_shared_up(m) / t;
    d->fs = d->up_s > 0 ? (double)m->shared_expert_ffn_hidden / t : 0.0;
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
    d.norm = k->norm == ST_KERNELS_EAGER && m->norm == ST_NORM_RMSNORM ? st__ops_B.norm_eager
                                                                       : st__ops_B.norm;
    d.rope_b = k->rope == ST_KERNELS_EAGER ? st__ops_B.rope_eager : st__ops_B.rope;
    d.act = !d.swiglu                    ? st__ops_B.gelu
            : k->act == ST_KERNELS_EAGER ? st__ops_B.swiglu_eager
                                         : st__ops_B.swiglu;
    d.bda = !d.dropout                        ? st__ops_B.bda
            : k->residual == ST_KERNELS_EAGER ? st__ops_B.bda_eager
                                              : st__ops_B.bda + st__ops_B.drop_mask;
    moe_dims(&d, w, m, t);
    mla_dims(&d, m, t);
    d.win_share = (double)st_llm_window_layers(m) / (double)(m->layers > 0 ? m->layers : 1);
    d.win_keys = (double)st_llm_window_keys(m, w->seq_len);
    return d;
}
