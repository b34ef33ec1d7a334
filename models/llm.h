/* Transformer architecture and its closed-form counts: parameters and model FLOPs per token.
 * The named presets (gpt3-175b, llama3-405b, ...) live in scenarios/catalog.c. */
#ifndef ST_MODELS_LLM_H
#define ST_MODELS_LLM_H

#include <stdint.h>

typedef enum st_mlp { ST_MLP_GELU, ST_MLP_SWIGLU } st_mlp;
typedef enum st_norm { ST_NORM_LAYERNORM, ST_NORM_RMSNORM } st_norm;
typedef enum st_posemb { ST_POS_LEARNED, ST_POS_ROPE, ST_POS_ALIBI } st_posemb;

typedef struct st_llm_spec {
    const char *name;
    int64_t layers;
    int64_t hidden;
    int64_t ffn_hidden; /* 4 * hidden by default */
    int64_t heads;
    int64_t kv_heads;   /* = heads without grouped-query attention */
    int64_t vocab;
    int64_t max_positions; /* rows of a learned position table; 0 = the workload's seq_len */
    st_mlp mlp;
    st_norm norm;
    st_posemb pos;
    int bias;           /* linear layers carry biases (GPT-2/3, Megatron GPT) */
    int tied_embeddings; /* output projection shares the input embedding */
    double published_params; /* the parameter count its authors state; 0 if none */
    const char *source;
} st_llm_spec;

/* Defaults that follow from `mlp`, as scenario-format.md states: gelu = GPT style (biases,
 * LayerNorm, learned positions, tied embeddings); swiglu = Llama style (no biases, RMSNorm,
 * rotary positions, untied). Also ffn_hidden = 4h, kv_heads = heads, vocab = 51200 where 0. */
void st_llm_fill_defaults(st_llm_spec *m);

/* Exact parameter count (embeddings, position table, every layer's weights, biases and norms,
 * final norm, untied output layer). seq_len sizes a learned position table when
 * max_positions is 0. */
double st_llm_params(const st_llm_spec *m, int64_t seq_len);

/* Model FLOPs per token of one training step (forward + backward = 3 x forward), PaLM
 * definition: 6 N_matmul + 12 L s h_attn... see docs/memory-model.md; attention included,
 * recomputation excluded. */
double st_llm_flops_per_token(const st_llm_spec *m, int64_t seq_len);

#endif
