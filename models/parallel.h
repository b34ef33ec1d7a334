/* A training job's parallel plan against one GPU: parameter count, model FLOPs per token and
 * memory per GPU term by term (weights, gradients, optimizer states under ZeRO 0-3,
 * activations under recompute none / selective / full, with or without sequence parallelism,
 * after Korthikanti et al. 2022, equations 1-6), and whether it fits. */
#ifndef ST_MODELS_PARALLEL_H
#define ST_MODELS_PARALLEL_H

#include "models/config.h"

typedef enum st_mem_term {
    ST_MEM_WEIGHTS,
    ST_MEM_GRADS,
    ST_MEM_OPTIMIZER,
    ST_MEM_ACTIVATIONS,
    ST_MEM_RESERVED, /* CUDA context, allocator fragmentation, communication buffers */
    ST_MEM__COUNT
} st_mem_term;

typedef struct st_memory {
    double params;              /* whole model */
    double params_per_gpu;      /* on the most loaded GPU (first pipeline stage) */
    double flops_per_token;     /* model FLOPs, PaLM definition */
    double term[ST_MEM__COUNT]; /* bytes per GPU on the most loaded GPU */
    double total;               /* sum of term[] */
    double capacity;            /* the GPU's HBM */
    int fits;
    int overflow_term;          /* first term at which the running sum passes capacity; -1 */
    double overflow_bytes;      /* total - capacity when it does not fit, else 0 */
    double checkpoint_bytes;    /* a full checkpoint: weights and optimizer states, all ranks */
} st_memory;

/* Human name of a term: "weights", "gradients", "optimizer states", "activations",
 * "reserved". */
const char *st_mem_term_name(st_mem_term t);

/* Estimate memory for workload w (its model, seq_len, precision and parallel plan) on gpu, with
 * `microbatch` sequences per micro-batch (the plan's own when > 0 is not wanted: pass
 * w->parallel.microbatch, or a candidate size when the plan says auto). Never fails: a plan
 * the loader accepted always has an answer. */
void st_memory_estimate(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                        st_memory *out);

/* Activation bytes of one transformer layer on one GPU for micro-batch b, before pipeline
 * in-flight multiplication (Korthikanti et al. 2022, eq. 1-6 generalised to GQA and SwiGLU). */
double st_memory_layer_activations(const st_workload_cfg *w, int64_t microbatch);

#endif
