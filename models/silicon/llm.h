/* Transformer architecture and its closed-form counts: parameters and model FLOPs per token.
 * The named presets (gpt3-175b, llama3-405b, ...) live in scenarios/catalog.c; the conventions
 * and their sources are in docs/models/memory-model.md. */
#ifndef ST_MODELS_SILICON_LLM_H
#define ST_MODELS_SILICON_LLM_H

#include <stdint.h>

#include "models/config/config.h"

/* The architecture's named choices, as X-macro lists in models/config/config.h's style; their
 * NULL-terminated name tables (the `mlp`, `norm` and `position` spellings) are in llm.c. */
#define ST_MLPS(X)    X(ST_MLP_GELU, "gelu") X(ST_MLP_SWIGLU, "swiglu")
#define ST_NORMS(X)   X(ST_NORM_LAYERNORM, "layernorm") X(ST_NORM_RMSNORM, "rmsnorm")
#define ST_POSEMBS(X) X(ST_POS_LEARNED, "learned") X(ST_POS_ROPE, "rope") X(ST_POS_ALIBI, "alibi")
typedef enum st_mlp { ST_MLPS(ST__ENUM_VALUE) } st_mlp;
typedef enum st_norm { ST_NORMS(ST__ENUM_VALUE) } st_norm;
typedef enum st_posemb { ST_POSEMBS(ST__ENUM_VALUE) } st_posemb;
extern const char *const st_mlp_names[];
extern const char *const st_norm_names[];
extern const char *const st_posemb_names[];
/* Whether training applies dropout. Only activation memory depends on it (dropout keeps a mask
 * and its output for the backward pass). DEFAULT, the zero value, means what `mlp` implies: on
 * for gelu (GPT-2/3, Megatron GPT: 0.1), off for swiglu (Llama, PaLM train without it). */
typedef enum st_dropout { ST_DROPOUT_DEFAULT, ST_DROPOUT_ON, ST_DROPOUT_OFF } st_dropout;

typedef struct st_llm_spec {
    const char *name;
    int64_t layers;
    int64_t hidden;
    int64_t ffn_hidden; /* 4 * hidden by default */
    int64_t heads;
    int64_t kv_heads; /* = heads without grouped-query attention */
    int64_t vocab;
    int64_t max_positions; /* rows of a learned position table; 0 = the workload's seq_len */
    st_mlp mlp;
    st_norm norm;
    st_posemb pos;
    /* Linear layers carry biases (GPT-2/3, Megatron GPT), and so do LayerNorms; a LayerNorm
     * without biases (MPT, PaLM) has a weight only. */
    int bias;
    int tied_embeddings;     /* output projection shares the input embedding */
    double published_params; /* the parameter count its authors state; 0 if none */
    const char *source;
    /* Appended after the first draft; their zero values keep the plain GPT/Llama shapes. */
    int64_t head_dim; /* width of one attention head; 0 = hidden / heads (PaLM: 256) */
    int embed_norm;   /* a norm right after the input embedding (BLOOM) */
    st_dropout dropout;
    /* Mixture of experts (appended; 0 = dense). Every layer's MLP is `experts` routed experts
     * of the model's `mlp` kind, each expert_ffn_hidden wide, of which each token visits
     * experts_per_token (top-k), chosen by an h x experts router (Megatron-Core's TopKRouter),
     * except the first dense_layers layers (below). */
    int64_t experts;
    int64_t experts_per_token;
    int64_t expert_ffn_hidden;
    /* Shared experts (appended; 0 = none, only with experts): one always-active MLP of the
     * model's `mlp` kind and this total inner width over every token, added to the routed
     * experts' output (Megatron-Core's SharedExpertMLP, moe_shared_expert_intermediate_size).
     * Tensor-parallel like a dense MLP, never expert-parallel; no biases (SharedExpertMLP
     * asserts add_bias_linear off, megatron/core/transformer/moe/shared_experts.py). */
    int64_t shared_expert_ffn_hidden;
    /* Dense first layers (appended; 0 = none, only with experts, < layers): the first
     * dense_layers layers have the dense MLP of the model's `mlp` kind and width ffn_hidden, the
     * rest are MoE layers (Megatron-Core's moe_layer_freq pattern [0]*N + [1]*(L-N); DeepSeek-V3's
     * first_k_dense_replace). */
    int64_t dense_layers;
    /* Multi-head latent attention (appended; kv_lora_rank 0 = ordinary attention), as
     * Megatron-Core's MLASelfAttention builds it (megatron/core/transformer/
     * multi_latent_attention.py; DeepSeek-V2, arXiv 2405.04434 section 2.1; DeepSeek-V3, arXiv
     * 2412.19437 section 2.1.1): the query compressed to q_lora_rank (0: a plain h x heads
     * (nope + rope) query projection, as DeepSeek-V2-Lite), keys and values to kv_lora_rank plus
     * one shared qk_rope_head_dim rotary key; per head a query/key of qk_nope_head_dim +
     * qk_rope_head_dim and a value of v_head_dim. No grouped-query attention: kv_heads = heads. */
    int64_t q_lora_rank;
    int64_t kv_lora_rank;
    int64_t qk_rope_head_dim;
    int64_t qk_nope_head_dim;
    int64_t v_head_dim;
    /* Sliding-window attention (appended; sliding_window 0 = full causal attention on every
     * layer): on a windowed layer each query attends to the sliding_window most recent keys,
     * itself included, causally (Mistral 7B, arXiv 2310.06825 section 2; Hugging Face's
     * sliding_window). window_every k says which layers: every k-th starting with the first
     * (1 = all, Mistral; 2 = layers 0, 2, 4, ..., GPT-OSS's layer_types alternating
     * "sliding_attention" and "full_attention" from layer 0). 0 with a window counts as 1. */
    int64_t sliding_window;
    int64_t window_every;
    /* Group-limited routing (appended; expert_groups 0 = none, only with experts): the experts
     * fall in expert_groups equal groups of consecutive experts, and a token's top-k are chosen
     * among the experts of expert_groups_per_token groups only (DeepSeek-V3's node-limited
     * routing, n_group and topk_group; Megatron-Core's moe_router_num_groups and
     * moe_router_group_topk). */
    int64_t expert_groups;
    int64_t expert_groups_per_token;
} st_llm_spec;

/* The layers with a sliding window: ceil(layers / window_every) (every window_every-th from the
 * first), all of them for window_every <= 1, 0 without a window. */
int64_t st_llm_window_layers(const st_llm_spec *m);

/* The keys a query of a windowed layer sees at most: min(seq_len, sliding_window); seq_len
 * without a window. */
int64_t st_llm_window_keys(const st_llm_spec *m, int64_t seq_len);

/* True when the model uses multi-head latent attention (kv_lora_rank > 0). */
int st_llm_is_mla(const st_llm_spec *m);

/* The layers of each kind: dense-MLP layers (all of a dense model's; an MoE model's first
 * dense_layers) and MoE layers (the rest of an MoE model's; 0 for a dense model). */
int64_t st_llm_dense_layers(const st_llm_spec *m);
int64_t st_llm_moe_layers(const st_llm_spec *m);

/* The spec of one of an MoE model's dense layers: m without experts (experts, top-k, widths,
 * shared experts and dense_layers zeroed), so every per-layer count and operator of a dense
 * model applies to it. A dense model's own spec is returned unchanged. */
st_llm_spec st_llm_dense_spec(const st_llm_spec *m);

/* Fill the fields whose zero value means "default", as docs/guide/scenario-reference.md states:
 * ffn_hidden = 4 * hidden, kv_heads = heads, vocab = 51200, head_dim = hidden / heads, and
 * dropout as `mlp` implies. It leaves norm, pos, bias and tied_embeddings alone: their zero
 * values are valid settings, so the caller (the loader) applies the style that `mlp` implies
 * (gelu = GPT: biases, LayerNorm, learned positions, tied; swiglu = Llama: none of those) only
 * for the keys the input leaves out. Idempotent. */
void st_llm_fill_defaults(st_llm_spec *m);

/* Exact parameter count (embeddings, position table, every layer's weights, biases and norms,
 * final norm, untied output layer). seq_len sizes a learned position table when
 * max_positions is 0. */
double st_llm_params(const st_llm_spec *m, int64_t seq_len);

/* Parameters a token's forward pass touches: st_llm_params with experts_per_token of a
 * mixture-of-experts layer's experts in place of all of them (the "activated" count of the
 * Qwen2, Qwen3 and Mixtral reports: embeddings, attention, router, shared experts, k routed
 * experts). Dense models: all. */
double st_llm_active_params(const st_llm_spec *m, int64_t seq_len);

/* Model FLOPs per token of one training step (forward + backward = 3 x forward), PaLM
 * definition: 6 N_matmul + 6 L (d_qk + d_v) seq_len (= 12 L (heads x head_dim) seq_len for
 * ordinary attention, d_qk = d_v = heads x head_dim; MLA: d_qk = heads (nope + rope), d_v =
 * heads v), where N_matmul counts the weights
 * of every matrix multiplication, the output projection once and the input embedding lookup
 * not at all; causal masking is not discounted. Attention included, recomputation excluded.
 * Equals Megatron's 72 B s l h^2 (1 + s/6h + V/12lh) per B s tokens for GPT shapes. With
 * experts, N_matmul counts the router, the shared experts and the experts_per_token experts a
 * token visits (the active weights, as NeMo's and Megatron-Bridge's MFU count MoE models).
 * Sliding windows: a windowed layer's attention term counts seq_len x min(seq_len, W) scores
 * per sequence, not discounted for causality either (6 (d_qk + d_v) min(s, W) per token). */
double st_llm_flops_per_token(const st_llm_spec *m, int64_t seq_len);

/* Widths after defaults: heads x head_dim (attention), kv_heads x head_dim (each of K and V),
 * and the MLP's inner width. With MLA: st_llm_attn_width is the query/key width heads x
 * (qk_nope_head_dim + qk_rope_head_dim) of Q (and of K), st_llm_kv_width that of K. */
int64_t st_llm_attn_width(const st_llm_spec *m);
int64_t st_llm_kv_width(const st_llm_spec *m);
/* The value width (V and the core's output, the output projection's input): heads x
 * v_head_dim with MLA, st_llm_attn_width otherwise. */
int64_t st_llm_v_width(const st_llm_spec *m);
/* The K and V widths together (what the context-parallel exchange moves per token): K's plus
 * V's; 2 kv_heads x head_dim for ordinary attention. */
int64_t st_llm_kv_pair_width(const st_llm_spec *m);
int64_t st_llm_ffn(const st_llm_spec *m);

/* Parameters of one norm (LayerNorm with biases: 2h; otherwise h). */
double st_llm_norm_params(const st_llm_spec *m);

/* Parameters of one transformer layer of the model's MoE kind: projections, biases and its two
 * norms; with experts, the router, the shared experts and every routed expert. A dense model's
 * only kind; an MoE model's dense first layers are st_llm_dense_layer_params. */
double st_llm_layer_params(const st_llm_spec *m);

/* Parameters of one dense-MLP layer (an MoE model's first dense_layers; a dense model's every
 * layer, where it equals st_llm_layer_params). */
double st_llm_dense_layer_params(const st_llm_spec *m);

/* Of one layer: the parameters of one routed expert (its MLP's weights and biases; 0 for a
 * dense model), the router's (h x experts, plus an experts-wide bias with `bias`) and the
 * shared experts' (h x up_s + f_s x h; 0 without). st_llm_layer_params = the dense part (the
 * shared experts included: they are tensor-parallel) + router + experts x one expert. */
double st_llm_expert_params(const st_llm_spec *m);
double st_llm_router_params(const st_llm_spec *m);
double st_llm_shared_expert_params(const st_llm_spec *m);

/* Width of one expert's first MLP projection: 2 expert_ffn_hidden for SwiGLU (gate and up),
 * expert_ffn_hidden for GeLU; 0 for a dense model. */
int64_t st_llm_expert_up(const st_llm_spec *m);

/* The same of the shared experts' first projection (up_s: 2 f_s for SwiGLU, f_s for GeLU); 0
 * without shared experts or experts. */
int64_t st_llm_shared_up(const st_llm_spec *m);

/* Weights that enter matrix multiplications: all layers' projections (dense layers' and MoE
 * layers' each by their kind) plus the output layer. */
double st_llm_matmul_params(const st_llm_spec *m);

/* True when training applies dropout (ST_DROPOUT_DEFAULT resolved from mlp). */
int st_llm_has_dropout(const st_llm_spec *m);

#endif
