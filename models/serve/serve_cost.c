/* What one iteration of a serving replica costs, and how a GPU's memory divides between the
 * weights, the activations and the KV cache. The operators are the training model's forward
 * ones (models/silicon/ops.h) at the iteration's token count; the all-reduces are simulated on
 * the fabric (models/step/step.h). docs/models/inference.md, "One iteration" and "Memory". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve_internal.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "sim/xalloc.h"

static double *unknowns(int64_t n)
{
    double *a = st_xmalloc((size_t)(n + 1) * sizeof *a);
    for (int64_t i = 0; i <= n; i++)
        a[i] = -1;
    return a;
}

void st__serve_cost_init(st__serve_cost *c, const st_workload_cfg *w, const st_gpu_spec *gpu,
                         st_step_ctx *x)
{
    const st_inference_cfg *ic = &w->inference;
    memset(c, 0, sizeof *c);
    c->w = w;
    c->gpu = gpu;
    c->x = x;
    /* One sequence of T tokens, no sequence or context parallelism (vLLM splits neither), the
     * GPU's fused attention: the operator graph's GEMMs then have T rows. */
    c->shape = *w;
    c->shape.parallel.cp = 1;
    c->shape.parallel.pp = 1;
    c->shape.parallel.sequence_parallel = 0;
    c->max_tokens = ic->max_batch_tokens;
    c->max_sampled = ic->max_seqs;
    c->layer_s = unknowns(c->max_tokens);
    c->ar_s = unknowns(c->max_tokens);
    c->edge_s = unknowns(c->max_tokens);
    c->head_s = unknowns(c->max_sampled);
}

void st__serve_cost_release(st__serve_cost *c)
{
    free(c->layer_s);
    free(c->ar_s);
    free(c->edge_s);
    free(c->head_s);
}

static int64_t tp_of(const st_workload_cfg *w)
{
    return w->parallel.tp > 1 ? w->parallel.tp : 1;
}

/* A layer at T tokens without its attention core (which depends on the requests, not the
 * count): the norms, projections, rotary embedding, MLP and residual adds, each at its
 * roofline. */
static double layer_s(st__serve_cost *c, int64_t T)
{
    if (c->layer_s[T] >= 0)
        return c->layer_s[T];
    st_op ops[ST_OPS_MAX];
    c->shape.seq_len = T;
    size_t n = st_ops_layer_forward(&c->shape, c->gpu, 1, ops, ST_OPS_MAX);
    double s = 0;
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++)
        if (!ops[i].attn_core && ops[i].kind != ST_OP_ATTN)
            s += ops[i].time_s;
    return c->layer_s[T] = s;
}

/* The two all-reduces of the T x h BF16 activations that tensor parallelism ends a layer's
 * attention and MLP with (Megatron-LM's row-parallel layers, which vLLM's RowParallelLinear
 * follows). */
static double ar_s(st__serve_cost *c, int64_t T)
{
    if (c->ar_s[T] >= 0)
        return c->ar_s[T];
    double bytes = (double)T * (double)c->w->model->hidden * 2.0;
    return c->ar_s[T] = 2.0 * st_step_allreduce_s(c->x, tp_of(c->w), bytes);
}

static double sum_ops(const st_op *ops, size_t n, const char *skip)
{
    double s = 0;
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++)
        if (!skip || strcmp(ops[i].name, skip) != 0)
            s += ops[i].time_s;
    return s;
}

/* The input embedding's lookup (and whatever the model adds to it) over T tokens. */
static double edge_s(st__serve_cost *c, int64_t T)
{
    if (c->edge_s[T] >= 0)
        return c->edge_s[T];
    st_op ops[ST_OPS_MAX];
    c->shape.seq_len = T;
    size_t n = st_ops_embed_forward(&c->shape, c->gpu, 1, ops, ST_OPS_MAX);
    return c->edge_s[T] = sum_ops(ops, n, NULL);
}

/* The final norm and the logits of the tokens that are sampled: an engine computes the output
 * layer only at each request's last position (vLLM's LogitsProcessor reads the hidden states
 * at the sampled indices); no loss. */
static double head_s(st__serve_cost *c, int64_t S)
{
    if (S <= 0)
        return 0;
    if (c->head_s[S] >= 0)
        return c->head_s[S];
    st_op ops[ST_OPS_MAX];
    c->shape.seq_len = S;
    size_t n = st_ops_head_forward(&c->shape, c->gpu, 1, ops, ST_OPS_MAX);
    return c->head_s[S] = sum_ops(ops, n, "xent");
}

double st__serve_prefill_s(const st__serve_cost *c, int64_t queries, int64_t past)
{
    return st_ops_attn_prefill_time(&c->shape, c->gpu, (double)queries, (double)past);
}

double st__serve_iteration_s(st__serve_cost *c, const st__serve_batch *b, double *comm_s)
{
    if (comm_s)
        *comm_s = 0;
    if (b->tokens <= 0)
        return 0;
    double L = (double)c->w->model->layers, comm = L * ar_s(c, b->tokens);
    double per_layer =
        layer_s(c, b->tokens) + b->prefill_attn_s +
        st_ops_attn_decode_time(&c->shape, c->gpu, (double)b->decodes, b->decode_keys);
    if (comm_s)
        *comm_s = comm;
    return L * per_layer + comm + edge_s(c, b->tokens) + head_s(c, b->sampled);
}

/* ---- Memory -------------------------------------------------------------------------------- */

/* One replica as the memory model sees a plan: tp GPUs, no pipeline, no data parallelism (the
 * replicas share no communicator), no optimizer; one sequence of one token, whose activations
 * are not read here. */
static st_workload_cfg replica_of(const st_workload_cfg *w)
{
    st_workload_cfg one = *w;
    one.parallel.pp = 1;
    one.parallel.dp = 1;
    one.parallel.cp = 1;
    one.parallel.zero = 0;
    one.parallel.microbatch = 1;
    one.gpus = tp_of(w);
    one.seq_len = 1;
    one.global_batch = 1;
    return one;
}

/* The weights one GPU holds: its share of the parameters (models/silicon/parallel.h, one
 * pipeline stage) in BF16, or under FP8 the linear layers in FP8 with the embedding and output
 * layer kept in BF16 (vLLM's Fp8LinearMethod quantises linear layers only). */
static double weights_of(const st_workload_cfg *w, const st_gpu_spec *gpu)
{
    st_workload_cfg one = replica_of(w);
    st_memory m;
    st_memory_estimate(&one, gpu, 1, &m);
    if (w->precision != ST_PREC_FP8 || !(gpu->peak_fp8 > 0))
        return 2.0 * m.params_per_gpu;
    const st_llm_spec *md = w->model;
    double vocab = (double)md->vocab * (double)md->hidden / (double)tp_of(w);
    double edges = md->tied_embeddings ? vocab : 2.0 * vocab;
    return m.params_per_gpu + edges;
}

/* The engine's profiling pass runs its largest batch (max_batch_tokens tokens) and keeps the
 * peak as the activations' reserve: within one layer the residual stream, the norm's output, the
 * MLP's up projection and its activation are alive together, in BF16; the sampler's logits of
 * max_seqs requests in fp32 (vLLM's profile_run and its sampler's dummy run). */
static double activations_of(const st_workload_cfg *w)
{
    const st_llm_spec *m = w->model;
    const st_inference_cfg *ic = &w->inference;
    double t = (double)tp_of(w), T = (double)ic->max_batch_tokens;
    double f = (double)st_llm_ffn(m) / t, up = m->mlp == ST_MLP_SWIGLU ? 2.0 * f : f;
    double layer = T * (2.0 * (double)m->hidden + up + f) * 2.0;
    double logits = (double)ic->max_seqs * (double)m->vocab / t * 4.0;
    return layer + logits;
}

void st_serve_memory_of(const st_workload_cfg *w, const st_gpu_spec *gpu, st_serve_memory *out)
{
    const st_inference_cfg *ic = &w->inference;
    memset(out, 0, sizeof *out);
    out->weights = weights_of(w, gpu);
    out->activations = activations_of(w);
    st_workload_cfg one = replica_of(w);
    out->reserved = st_memory_reserved(&one);
    double rest = out->weights + out->activations + out->reserved;
    /* vLLM's share is of the whole HBM, the cache what is left of it; TensorRT-LLM's of what is
     * free once the model is loaded. */
    out->usable = ic->kv_free_share > 0 ? rest + ic->kv_free_share * (gpu->hbm_bytes - rest)
                                        : ic->gpu_memory_share * gpu->hbm_bytes;
    double kv = out->usable - rest;
    out->kv_per_token = st_ops_kv_bytes_per_token(w);
    double block = out->kv_per_token * (double)ic->block_tokens;
    out->blocks = kv > 0 && block > 0 ? (int64_t)floor(kv / block) : 0;
    out->kv_cache = (double)out->blocks * block;
}
