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

int64_t st_llm_attn_width(const st_llm_spec *m)
{
    return m->heads * head_dim(m);
}

int64_t st_llm_kv_width(const st_llm_spec *m)
{
    return (m->kv_heads > 0 ? m->kv_heads : m->heads) * head_dim(m);
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

/* Projection weights of one layer: Q (h x heads*hd), K and V (h x kv_heads*hd each), the
 * attention output (heads*hd x h), and the MLP: up h x f and down f x h for GeLU, with a
 * second (gate) up-projection for SwiGLU. */
static double layer_matmul(const st_llm_spec *m)
{
    double h = (double)m->hidden, da = (double)st_llm_attn_width(m);
    double dkv = (double)st_llm_kv_width(m), f = (double)st_llm_ffn(m);
    double up = m->mlp == ST_MLP_SWIGLU ? 2 * f : f;
    return h * da + 2 * h * dkv + da * h + h * up + f * h;
}

double st_llm_layer_params(const st_llm_spec *m)
{
    double h = (double)m->hidden, da = (double)st_llm_attn_width(m);
    double dkv = (double)st_llm_kv_width(m), f = (double)st_llm_ffn(m);
    double up = m->mlp == ST_MLP_SWIGLU ? 2 * f : f;
    /* One bias per output channel of every projection: Q, K, V, attention out, up, down. */
    double bias = m->bias ? da + 2 * dkv + h + up + h : 0.0;
    return layer_matmul(m) + bias + 2 * st_llm_norm_params(m);
}

double st_llm_matmul_params(const st_llm_spec *m)
{
    /* The output projection is a matmul whether or not its weights are tied to the input
     * embedding; the input embedding itself is a lookup and costs no FLOPs. */
    return (double)m->layers * layer_matmul(m) + vocab(m) * (double)m->hidden;
}

double st_llm_params(const st_llm_spec *m, int64_t seq_len)
{
    double h = (double)m->hidden, v = vocab(m);
    double n = (double)m->layers * st_llm_layer_params(m);
    n += v * h; /* input embedding */
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

double st_llm_flops_per_token(const st_llm_spec *m, int64_t seq_len)
{
    /* Forward: 2 FLOPs per matmul weight per token, plus Q.K^T and attention-weights.V, each
     * 2 * seq_len * (heads x head_dim) per token per layer. Backward is twice the forward
     * (Narayanan et al. SC21, Appendix; PaLM Appendix B), hence 6 N + 12 L d s. The causal
     * mask is not discounted: PaLM's 12 L H Q T and Megatron's s/6h term both count the full
     * score matrix, and MFU figures in the validation set use that convention. */
    double attn = 12.0 * (double)m->layers * (double)st_llm_attn_width(m) * (double)seq_len;
    return 6.0 * st_llm_matmul_params(m) + attn;
}
