/* A training job's parallel plan against one GPU: parameter count, model FLOPs per token and
 * memory per GPU term by term (weights, gradients, optimizer states under ZeRO 0-3,
 * activations under recompute none / selective / full, with or without sequence parallelism,
 * after Korthikanti et al. 2022, equations 1-6), and whether it fits. */
#ifndef ST_MODELS_SILICON_PARALLEL_H
#define ST_MODELS_SILICON_PARALLEL_H

#include "models/config/config.h"

/* The model's layers over a plan's pipeline chunks: pp x virtual_stages chunks, chunk c on
 * stage c mod pp, each holding consecutive layers in model order (Megatron-LM's interleaved
 * assignment). The split is even, the remainder on the earliest chunks (Megatron-LM asks for an
 * even one; for the rest this is the pessimistic choice, as early stages hold the most
 * micro-batches in flight). With embedding (loss) set, the input embedding (the output layer
 * and loss) counts as one layer more of the first (last) chunk, which then holds one layer
 * fewer: Megatron-Core's account_for_embedding_in_pipeline_split and
 * account_for_loss_in_pipeline_split (megatron/core/transformer/transformer_block.py,
 * get_num_layers_to_build), Llama 3's "we reduce one Transformer layer each from the first and
 * the last stages" (Dubey et al. 2024, arXiv:2407.21783, section 3.3.2). One formula for the
 * step and memory models. */
typedef struct st_chunk_split {
    int64_t layers, chunks;
    int embedding, loss; /* parallel.embedding_slot, parallel.loss_slot */
    const int64_t *per;  /* parallel.chunk_layers, chunks of them (explicit); NULL: the formula */
} st_chunk_split;

static inline st_chunk_split st_chunk_split_of(int64_t layers, const st_parallel_cfg *p)
{
    int64_t pp = p->pp > 1 ? p->pp : 1, v = p->virtual_stages > 1 ? p->virtual_stages : 1;
    const int64_t *per = p->chunk_layers && p->n_chunk_layers == pp * v ? p->chunk_layers : NULL;
    return (st_chunk_split){layers, pp * v, p->embedding_slot != 0, p->loss_slot != 0, per};
}

/* The first layer (from 0) of chunk c, and how many it holds (0 for a chunk that is only the
 * embedding or only the output layer and loss). An explicit layout sums the chunks before. */
static inline int64_t st_chunk_first_layer(const st_chunk_split *s, int64_t c)
{
    if (s->per) {
        int64_t first = 0;
        for (int64_t i = 0; i < c; i++)
            first += s->per[i];
        return first;
    }
    int64_t slots = s->layers + s->embedding + s->loss;
    int64_t base = slots / s->chunks, extra = slots % s->chunks;
    int64_t first = c * base + (c < extra ? c : extra) - s->embedding;
    return first > 0 ? first : 0;
}

static inline int64_t st_chunk_layers(const st_chunk_split *s, int64_t c)
{
    if (s->per)
        return s->per[c];
    int64_t slots = s->layers + s->embedding + s->loss;
    int64_t base = slots / s->chunks, extra = slots % s->chunks;
    return base + (c < extra) - (s->embedding && c == 0) - (s->loss && c == s->chunks - 1);
}

/* Forward passes stage s (from 0) runs before its first backward, in chunk-micro-batches, for m
 * micro-batches over pp stages of v chunks: Megatron-LM's schedules.py
 * (forward_backward_pipelining_without_interleaving: pp - s - 1, at most m; ..._with_interleaving:
 * 2 (pp - s - 1) + (v - 1) pp, at most m v, and all m v when m == pp). One formula for the step
 * model's schedule and the memory model's activations in flight. */
static inline int64_t st_pipe_warmup(int64_t pp, int64_t v, int64_t m, int64_t s)
{
    int64_t total = m * v, w;
    if (v == 1)
        return pp - s - 1 < m ? pp - s - 1 : m;
    if (m == pp)
        return total;
    w = (pp - s - 1) * 2 + (v - 1) * pp;
    return w < total ? w : total;
}

typedef enum st_mem_term {
    ST_MEM_WEIGHTS,
    ST_MEM_GRADS,
    ST_MEM_OPTIMIZER,
    ST_MEM_ACTIVATIONS,
    ST_MEM_RESERVED, /* CUDA context, allocator fragmentation, communication buffers */
    ST_MEM__COUNT
} st_mem_term;

typedef struct st_memory {
    double params;                /* whole model */
    double params_per_gpu;        /* in the tensor/pipeline slice of the most loaded GPU, before
                                     ZeRO-3 shards their storage */
    double flops_per_token;       /* model FLOPs, PaLM definition (st_llm_flops_per_token) */
    double term[ST_MEM__COUNT];   /* bytes per GPU on the most loaded GPU */
    double total;                 /* sum of term[] */
    double capacity;              /* the GPU's HBM */
    int fits;                     /* total <= capacity */
    int overflow_term;            /* first term at which the running sum (in term order) passes
                                     capacity; -1 when it fits */
    double overflow_bytes;        /* total - capacity when it does not fit, else 0 */
    double checkpoint_bytes;      /* a full checkpoint: bf16 weights, fp32 master weights, Adam
                                     m and v (14 bytes per parameter), all ranks together */
    int64_t stage;                /* the most loaded pipeline stage, 0-based (lowest on ties) */
    double expert_params_per_gpu; /* of params_per_gpu, the experts' (experts / ep per MoE
                                     layer); 0 for a dense model. Appended. */
} st_memory;

/* Human name of a term: "weights", "gradients", "optimizer states", "activations",
 * "reserved". */
const char *st_mem_term_name(st_mem_term t);

/* Estimate memory for workload w (its model, seq_len, global_batch, precision and parallel
 * plan) on gpu, with `microbatch` sequences per micro-batch: pass w->parallel.microbatch, or a
 * candidate size when the plan says auto (a value below 1 counts as 1). Every pipeline stage
 * is evaluated (its layers, what it holds of the embedding and output layer, and the
 * micro-batches 1F1B or interleaved 1F1B keeps in flight on it) and the stage with the largest
 * total is reported. Degrees below 1 count as 1. Never fails: a plan the loader accepted
 * always has an answer. gpu must not be NULL. */
void st_memory_estimate(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                        st_memory *out);

/* Parameters one GPU of pipeline stage `stage` (from 0) holds under w's plan: its layers (by
 * st_chunk_layers), and on the first and last stage the embedding and output layer, as
 * st_memory_estimate counts them (its params_per_gpu is this for the stage it reports). */
double st_memory_stage_params(const st_workload_cfg *w, int64_t stage);
/* The routed experts' share of st_memory_stage_params (0 for a dense model). */
double st_memory_stage_expert_params(const st_workload_cfg *w, int64_t stage);

/* Activation bytes one transformer layer keeps for the backward pass on one GPU for one
 * micro-batch of `microbatch` sequences, under w's recompute, tensor/sequence/context
 * parallelism: before pipeline in-flight multiplication and without the transient working set
 * of recomputation (Korthikanti et al. 2022, eq. 1-6, generalised to GQA and SwiGLU; for GPT
 * shapes with dropout it is exactly the paper's sbh(34 + 5as/h) family). Under recompute: op
 * the GPU is not known here, so a flash core counts as saved (st_ops_sac_saves_attention). */
double st_memory_layer_activations(const st_workload_cfg *w, int64_t microbatch);

/* Bytes per GPU held outside the model's tensors, the memory model's reserved term: w's
 * memory_reserved when the scenario gives it, else the CUDA context plus NCCL's buffers for
 * each communicator the plan uses (tensor, context, pipeline and data parallel, and for an MoE
 * model expert and expert-data parallel, each when it spans more than one GPU). */
double st_memory_reserved(const st_workload_cfg *w);

#endif
