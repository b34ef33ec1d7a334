/* Closed-form parameter and FLOP counts of a decoder-only transformer. The conventions, and the
 * published counts they reproduce, are in docs/models/memory-model.md. */
#include "models/silicon/llm.h"

#include <stddef.h>

const char *const st_mlp_names[] = {ST_MLPS(ST__ENUM_NAME) NULL};
const char *const st_norm_names[] = {ST_NORMS(ST__ENUM_NAME) NULL};
const char *const st_posemb_names[] = {ST_POSEMBS(ST__ENUM_NAME) NULL};

/* vocab defaults to 51200, the GPT-2 vocabulary padded by Megatron-LM
 * (--make-vocab-size-divisible-by). */
#define DEFAULT_VOCAB 51200

void st_llm_fill_defaults(st_llm_spec *m)
{
    if (m->ffn_hidden <= 0)
        m->ffn_hidden = 4 * m->hidden;
    if (m->kv_heads <= 0)
        m->kv_heads = m->heads;
    if (m->vocab <= 0)
        m->vocab = DEFAULT_VOCAB;
    if (m->head_dim <= 0 && m->heads > 0)
        m->head_dim = m->hidden / m->heads;
    if (m->dropout == ST_DROPOUT_DEFAULT)
        m->dropout = m->mlp == ST_MLP_GELU ? ST_DROPOUT_ON : ST_DROPOUT_OFF;
}

/* The width helpers resolve zero fields themselves, so a spec that never went through
 * st_llm_fill_defaults (a catalog preset, a hand-built test spec) counts the same. */
static int64_t head_dim(const st_llm_spec *m)
{
    if (m->head_dim > 0)
        return m->head_dim;
    return m->heads > 0 ? m->hidden / m->heads : m->hidden;
}

int st_llm_is_mla(const st_llm_spec *m)
{
    return m->kv_lora_rank > 0;
}

int64_t st_llm_attn_width(const st_llm_spec *m)
{
    if (st_llm_is_mla(m))
        return m->heads * (m->qk_nope_head_dim + m->qk_rope_head_dim);
    return m->heads * head_dim(m);
}

int64_t st_llm_kv_width(const st_llm_spec *m)
{
    if (st_llm_is_mla(m))
        return st_llm_attn_width(m);
    return (m->kv_heads > 0 ? m->kv_heads : m->heads) * head_dim(m);
}

int64_t st_llm_v_width(const st_llm_spec *m)
{
    return st_llm_is_mla(m) ? m->heads * m->v_head_dim : st_llm_attn_width(m);
}

int64_t st_llm_kv_pair_width(const st_llm_spec *m)
{
    if (st_llm_is_mla(m))
        return st_llm_kv_width(m) + st_llm_v_width(m);
    return 2 * st_llm_kv_width(m);
}

int64_t st_llm_window_layers(const st_llm_spec *m)
{
    if (m->sliding_window <= 0)
        return 0;
    int64_t k = m->window_every > 1 ? m->window_every : 1;
    return (m->layers + k - 1) / k;
}

int64_t st_llm_window_keys(const st_llm_spec *m, int64_t seq_len)
{
    if (m->sliding_window <= 0 || m->sliding_window >= seq_len)
        return seq_len;
    return m->sliding_window;
}

int64_t st_llm_ffn(const st_llm_spec *m)
{
    return m->ffn_hidden > 0 ? m->ffn_hidden : 4 * m->hidden;
}

static double vocab(const st_llm_spec *m)
{
    return (double)(m->vocab > 0 ? m->vocab : DEFAULT_VOCAB);
}

int st_llm_has_dropout(const st_llm_spec *m)
{
    if (m->dropout == ST_DROPOUT_DEFAULT)
        return m->mlp == ST_MLP_GELU;
    return m->dropout == ST_DROPOUT_ON;
}

double st_llm_norm_params(const st_llm_spec *m)
{
    /* LayerNorm has a gain and a bias per channel; RMSNorm, and a LayerNorm built without
     * biases (MPT's no_bias, PaLM's "no biases ... in layer norms"), only the gain. */
    int with_bias = m->norm == ST_NORM_LAYERNORM && m->bias;
    return (double)m->hidden * (with_bias ? 2 : 1);
}

/* MLA's projection weights, as MLASelfAttention.__init__ builds them
 * (megatron/core/transformer/multi_latent_attention.py; DeepSeek-V2 arXiv 2405.04434 eqs. 9-18):
 * linear_q_down_proj h x q_lora_rank and linear_q_up_proj q_lora_rank x heads (nope + rope), or
 * linear_q_proj h x heads (nope + rope) without q_lora_rank; linear_kv_down_proj h x
 * (kv_lora_rank + rope) (the latent and the shared rotary key); linear_kv_up_proj kv_lora_rank
 * x heads (nope + v); linear_proj heads v x h. */
static double mla_matmul(const st_llm_spec *m)
{
    double h = (double)m->hidden, heads = (double)m->heads, dqk = (double)st_llm_attn_width(m);
    double ql = (double)m->q_lora_rank, kvl = (double)m->kv_lora_rank;
    double q = ql > 0 ? h * ql + ql * dqk : h * dqk;
    double kv = h * (kvl + (double)m->qk_rope_head_dim) +
                kvl * heads * (double)(m->qk_nope_head_dim + m->v_head_dim);
    return q + kv + (double)st_llm_v_width(m) * h;
}

/* MLA's two latent norms (q_layernorm of q_lora_rank, only with it, and kv_layernorm of
 * kv_lora_rank), of the model's norm kind (DeepSeek-V3: RMSNorm, weights only); 0 otherwise. */
static double mla_norms(const st_llm_spec *m)
{
    if (!st_llm_is_mla(m))
        return 0.0;
    double per = st_llm_norm_params(m) / (double)m->hidden;
    return per * (double)(m->q_lora_rank + m->kv_lora_rank);
}

/* Projection weights of one layer's attention: Q (h x heads*hd), K and V (h x kv_heads*hd
 * each) and the output (heads*hd x h); MLA's in mla_matmul. */
static double attn_matmul(const st_llm_spec *m)
{
    if (st_llm_is_mla(m))
        return mla_matmul(m);
    double h = (double)m->hidden, da = (double)st_llm_attn_width(m);
    double dkv = (double)st_llm_kv_width(m);
    return h * da + 2 * h * dkv + da * h;
}

/* One MLP of inner width f: up h x f and down f x h for GeLU, with a second (gate)
 * up-projection for SwiGLU; with biases, one per output channel of each. */
static double mlp_params(const st_llm_spec *m, double f, int with_bias)
{
    double h = (double)m->hidden, up = m->mlp == ST_MLP_SWIGLU ? 2 * f : f;
    return h * up + f * h + (with_bias && m->bias ? up + h : 0.0);
}

int64_t st_llm_expert_up(const st_llm_spec *m)
{
    if (m->experts <= 0)
        return 0;
    return m->mlp == ST_MLP_SWIGLU ? 2 * m->expert_ffn_hidden : m->expert_ffn_hidden;
}

int64_t st_llm_shared_up(const st_llm_spec *m)
{
    if (m->experts <= 0 || m->shared_expert_ffn_hidden <= 0)
        return 0;
    int64_t f = m->shared_expert_ffn_hidden;
    return m->mlp == ST_MLP_SWIGLU ? 2 * f : f;
}

/* Bias-free whatever `bias` says: SharedExpertMLP refuses add_bias_linear (the loader refuses
 * the combination too). */
double st_llm_shared_expert_params(const st_llm_spec *m)
{
    if (st_llm_shared_up(m) <= 0)
        return 0.0;
    return mlp_params(m, (double)m->shared_expert_ffn_hidden, 0);
}

double st_llm_expert_params(const st_llm_spec *m)
{
    return m->experts > 0 ? mlp_params(m, (double)m->expert_ffn_hidden, 1) : 0.0;
}

/* Megatron-Core's TopKRouter: one weight of experts x hidden, and a bias of `experts` only with
 * add_bias_linear, Strata's `bias` (megatron/core/transformer/moe/router.py, Router.__init__). */
static double router_weight(const st_llm_spec *m)
{
    return m->experts > 0 ? (double)m->hidden * (double)m->experts : 0.0;
}

double st_llm_router_params(const st_llm_spec *m)
{
    return router_weight(m) + (m->experts > 0 && m->bias ? (double)m->experts : 0.0);
}

/* The MLP part of one layer, weights only (with_bias 0) or with biases, counting `experts` of
 * a mixture-of-experts layer's routed experts (all of them, or the k a token visits), its
 * router and its shared experts, which every token passes through. */
static double layer_mlp(const st_llm_spec *m, double experts, int with_bias)
{
    if (m->experts <= 0)
        return mlp_params(m, (double)st_llm_ffn(m), with_bias);
    double router = with_bias ? st_llm_router_params(m) : router_weight(m);
    return router + st_llm_shared_expert_params(m) +
           experts * mlp_params(m, (double)m->expert_ffn_hidden, with_bias);
}

/* Projection weights of one layer, with `experts` experts of an MoE MLP counted. */
static double layer_matmul(const st_llm_spec *m, double experts)
{
    return attn_matmul(m) + layer_mlp(m, experts, 0);
}

static double layer_with(const st_llm_spec *m, double experts)
{
    double h = (double)m->hidden, da = (double)st_llm_attn_width(m);
    double dkv = (double)st_llm_kv_width(m);
    /* One bias per output channel of Q, K, V and the attention output; the MLP's in
     * layer_mlp. MLA takes no biases (the loader refuses `bias` with it: MLASelfAttention
     * builds its down and up projections with bias=False). */
    double bias = m->bias && !st_llm_is_mla(m) ? da + 2 * dkv + h : 0.0;
    return attn_matmul(m) + bias + layer_mlp(m, experts, 1) + 2 * st_llm_norm_params(m) +
           mla_norms(m);
}

double st_llm_layer_params(const st_llm_spec *m)
{
    return layer_with(m, (double)m->experts);
}

int64_t st_llm_dense_layers(const st_llm_spec *m)
{
    return m->experts > 0 ? m->dense_layers : m->layers;
}

int64_t st_llm_moe_layers(const st_llm_spec *m)
{
    return m->layers - st_llm_dense_layers(m);
}

st_llm_spec st_llm_dense_spec(const st_llm_spec *m)
{
    st_llm_spec d = *m;
    d.experts = 0;
    d.experts_per_token = 0;
    d.expert_ffn_hidden = 0;
    d.shared_expert_ffn_hidden = 0;
    d.dense_layers = 0;
    d.expert_groups = 0;
    d.expert_groups_per_token = 0;
    return d;
}

double st_llm_dense_layer_params(const st_llm_spec *m)
{
    st_llm_spec d = st_llm_dense_spec(m);
    return layer_with(&d, 0.0);
}

/* The experts a token's forward pass visits: k of an MoE layer's (dense: unused). */
static double active_experts(const st_llm_spec *m)
{
    return (double)m->experts_per_token;
}

double st_llm_matmul_params(const st_llm_spec *m)
{
    /* The output projection is a matmul whether or not its weights are tied to the input
     * embedding; the input embedding itself is a lookup and costs no FLOPs. An MoE layer's
     * matmuls are the router's and the k experts' each token passes through; a dense layer's,
     * its dense MLP's. */
    st_llm_spec d = st_llm_dense_spec(m);
    return (double)st_llm_moe_layers(m) * layer_matmul(m, active_experts(m)) +
           (double)st_llm_dense_layers(m) * layer_matmul(&d, 0.0) + vocab(m) * (double)m->hidden;
}

/* Embeddings, position table and norms outside the layers. */
static double edge_params(const st_llm_spec *m, int64_t seq_len)
{
    double h = (double)m->hidden, v = vocab(m);
    double n = v * h; /* input embedding */
    if (m->pos == ST_POS_LEARNED) {
        int64_t rows = m->max_positions > 0 ? m->max_positions : seq_len;
        n += (double)rows * h;
    }
    if (m->embed_norm)
        n += st_llm_norm_params(m);
    n += st_llm_norm_params(m); /* final norm */
    if (!m->tied_embeddings)
        n += v * h;
    return n;
}

double st_llm_active_params(const st_llm_spec *m, int64_t seq_len)
{
    double experts = m->experts > 0 ? active_experts(m) : 0.0;
    return (double)st_llm_moe_layers(m) * layer_with(m, experts) +
           (double)st_llm_dense_layers(m) * st_llm_dense_layer_params(m) + edge_params(m, seq_len);
}

double st_llm_params(const st_llm_spec *m, int64_t seq_len)
{
    return (double)st_llm_moe_layers(m) * st_llm_layer_params(m) +
           (double)st_llm_dense_layers(m) * st_llm_dense_layer_params(m) + edge_params(m, seq_len);
}

double st_llm_flops_per_token(const st_llm_spec *m, int64_t seq_len)
{
    /* Forward: 2 FLOPs per matmul weight per token, plus Q.K^T and attention-weights.V, each
     * 2 * seq_len * (heads x head_dim) per token per layer. Backward is twice the forward
     * (Narayanan et al. SC21, Appendix; PaLM Appendix B), hence 6 N + 12 L d s. The causal
     * mask is not discounted: PaLM's 12 L H Q T and Megatron's s/6h term both count the full
     * score matrix, and MFU figures in the validation set use that convention. Q.K^T runs
     * over the query/key width d_qk and attention-weights.V over the value width d_v, so the
     * forward is 2 s (d_qk + d_v) per token per layer and the step 6 L s (d_qk + d_v): today's
     * 12 L d s when d_qk = d_v = d (ordinary attention); MLA's d_qk = heads (nope + rope), d_v
     * = heads v (DeepSeek-V2 arXiv 2405.04434 eq. 17: scores over the concatenated nope and
     * rope parts). */
    double dqk = (double)st_llm_attn_width(m), dv = (double)st_llm_v_width(m);
    /* A windowed layer's query sees at most min(s, W) keys: its term counts s x min(s, W)
     * scores per sequence, in the same non-discounted way (the window's first W queries, which
     * see fewer, are not discounted either). Megatron-Bridge's FLOP formula for GPT-OSS
     * (gpt_oss_flops, NVIDIA-NeMo/Megatron-Bridge) counts the mask's nonzeros instead,
     * W(W+1)/2 + (s - W) W, as it counts s(s+1)/2 for full layers: the causal-discounted
     * convention Strata's MFU does not use (docs/models/step-ops.md, "Sliding windows"). */
    double attn = 6.0 * (double)m->layers * (dqk + dv) * (double)seq_len;
    if (st_llm_window_layers(m) > 0) {
        double lw = (double)st_llm_window_layers(m), lf = (double)m->layers - lw;
        double keys = lf * (double)seq_len + lw * (double)st_llm_window_keys(m, seq_len);
        attn = 6.0 * (dqk + dv) * keys;
    }
    return 6.0 * st_llm_matmul_params(m) + attn;
}
