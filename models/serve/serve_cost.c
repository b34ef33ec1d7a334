/* What one iteration of a serving replica costs, and how a GPU's memory divides between the
 * weights, the activations and the KV cache. The operators are the training model's forward
 * ones (models/silicon/ops.h) at the iteration's token count; the all-reduces are simulated on
 * the fabric (models/step/step.h). docs/models/inference.md, "One iteration" and "Memory". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve_internal.h"
#include "models/silicon/dispatch.h"
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

static int64_t tp_of(const st_workload_cfg *w)
{
    return w->parallel.tp > 1 ? w->parallel.tp : 1;
}

static int64_t pp_of(const st_workload_cfg *w)
{
    return w->parallel.pp > 1 ? w->parallel.pp : 1;
}

/* A mixture of experts is served with its experts split over the tensor-parallel ranks, each
 * expert's MLP column- and row-parallel as a dense one (vLLM's FusedMoE without expert
 * parallelism; TensorRT-LLM's moe_tp_size = tp_size by default): expert parallelism 1, expert
 * tensor parallelism tp, every rank the whole batch's tokens. With parallel.ep inside a replica
 * of tp GPUs (ep dividing tp: vLLM's -tp N --enable-expert-parallel, TensorRT-LLM's --tp N --ep
 * M), each GPU holds experts / ep, each of them split over tp / ep GPUs, every rank still the
 * whole batch's tokens, and the layer ends with the same all-reduces. With parallel.ep over
 * replicas of one GPU (attention data parallelism, which the loader requires at tp 1), ep
 * replicas share each layer's experts, experts / ep whole on each, as training's expert
 * parallelism spreads them over data-parallel ranks: each rank its own T tokens, its local
 * experts the k T ep / experts rows the group routes to each (models/silicon/ops_moe.c,
 * st__ops_moe_mlp). */
static void experts_of(st_parallel_cfg *p, const st_workload_cfg *w)
{
    if (w->model->experts <= 0)
        return;
    p->ep = w->parallel.ep > 1 ? w->parallel.ep : 1;
    p->etp = tp_of(w) >= p->ep ? tp_of(w) / p->ep : 1; /* over replicas: whole experts */
}

/* Whether the replicas of one GPU share their experts over a group (the all-to-alls). */
static int over_replicas(const st_workload_cfg *w)
{
    return w->model->experts > 0 && w->parallel.ep > 1 && tp_of(w) == 1;
}

void st__serve_cost_init(st__serve_cost *c, const st_workload_cfg *w, const st_gpu_spec *gpu,
                         int64_t domain, st_step_ctx *x)
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
    experts_of(&c->shape.parallel, w);
    c->shape.kernels.moe_fused = 1;                      /* the engines' fused MoE kernels */
    c->shape.parallel.moe_dispatcher = ST_DISP_ALLTOALL; /* a2a_s times the exchange it uses */
    st_ops_attn_decode_of(&c->shape, &c->decode);
    c->max_tokens = ic->max_batch_tokens;
    c->max_sampled = ic->max_seqs;
    c->layer_s = unknowns(c->max_tokens);
    c->ar_s = unknowns(c->max_tokens);
    c->a2a_s = over_replicas(w) ? unknowns(c->max_tokens) : NULL;
    const st_llm_spec *m = w->model;
    c->moe_share = m->experts > 0 && m->layers > 0
                       ? (double)(m->layers - st_llm_dense_layers(m)) / (double)m->layers
                       : 0;
    c->edge_s = unknowns(c->max_tokens);
    c->head_s = unknowns(c->max_sampled);
    /* Stages hold consecutive layers, the remainder on the earliest: TensorRT-LLM's
     * Mapping.pp_layers (tensorrt_llm/mapping.py, torch.tensor_split), the split the training
     * model's stages follow too (st_chunk_layers). */
    c->pp = w->parallel.pp > 1 ? w->parallel.pp : 1;
    c->domain = domain > 0 ? domain : 1;
    c->stage_layers = st_xmalloc((size_t)c->pp * sizeof *c->stage_layers);
    st_parallel_cfg one = {.pp = c->pp};
    st_chunk_split split = st_chunk_split_of(w->model->layers, &one);
    for (int64_t k = 0; k < c->pp; k++)
        c->stage_layers[k] = st_chunk_layers(&split, k);
    c->handover_s[0] = c->pp > 1 ? unknowns(c->max_tokens) : NULL;
    c->handover_s[1] = c->pp > 1 ? unknowns(c->max_tokens) : NULL;
}

void st__serve_cost_release(st__serve_cost *c)
{
    free(c->layer_s);
    free(c->ar_s);
    free(c->a2a_s);
    free(c->edge_s);
    free(c->head_s);
    free(c->stage_layers);
    free(c->handover_s[0]);
    free(c->handover_s[1]);
}

/* One kind of layer (dense, or the model's own) at T tokens without its attention core. */
static double kind_s(st__serve_cost *c, int dense)
{
    st_op ops[ST_OPS_MAX];
    size_t n = st_ops_layer_forward_kind(&c->shape, c->gpu, 1, dense, ops, ST_OPS_MAX);
    double s = 0;
    for (size_t i = 0; i < n && i < ST_OPS_MAX; i++)
        if (!ops[i].attn_core && ops[i].kind != ST_OP_ATTN)
            s += ops[i].time_s;
    return s;
}

/* A layer at T tokens without its attention core (which depends on the requests, not the
 * count): the norms, projections, rotary embedding, MLP (a mixture of experts' router and its
 * experts' grouped GEMMs) and residual adds, each at its roofline; for a mixture of experts
 * whose first layers are dense, the mean over the layers. */
static double layer_s(st__serve_cost *c, int64_t T)
{
    if (c->layer_s[T] >= 0)
        return c->layer_s[T];
    c->shape.seq_len = T;
    const st_llm_spec *m = c->w->model;
    int64_t nd = m->experts > 0 ? st_llm_dense_layers(m) : 0;
    double s = kind_s(c, 0);
    if (nd > 0)
        s = ((double)nd * kind_s(c, 1) + (double)(m->layers - nd) * s) / (double)m->layers;
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

/* Bytes a token's row of h values takes in the exchange's gather: TensorRT-LLM's CUTLASS MoE
 * quantises the input of NVFP4 experts before its all-gather (an FP4 value a half byte, an FP8
 * scale a block of 16: fused_moe_cutlass.py, run_post_quant_allgather); other inputs go in
 * BF16 (the FP8 block-scaled experts of DeepSeek and Qwen3 quantise inside the fused kernel). */
static double gather_bytes_per_value(const st_workload_cfg *w)
{
    st_precision p = w->expert_precision_given ? w->expert_precision : w->precision;
    return p == ST_PREC_FP4 ? st_ops_stored_bytes(ST_PREC_FP4) : 2.0;
}

/* Under expert parallelism an MoE layer's dispatch and combine over the group's ep GPUs (ranks
 * 0 .. ep - 1 of the context's placement), as st_moe_serve_dispatcher says:
 * - all-to-all: each rank sending its T tokens' k routed rows, the training model's exchange
 *   at one sequence of T tokens, its bytes those of the group's most loaded rank
 *   (models/silicon/ops_cost.c, ep_all_to_alls);
 * - all-gather: every rank's T rows gathered (at gather_bytes_per_value, with each token's k
 *   expert ids and weights, 4 bytes each), and the group's outputs, N T rows of h BF16,
 *   reduce-scattered back, whatever the routing.
 * A dense layer has none. 0 without expert parallelism. */
static double a2a_s(st__serve_cost *c, int64_t T)
{
    if (!c->a2a_s)
        return 0;
    if (c->a2a_s[T] >= 0)
        return c->a2a_s[T];
    int64_t N = c->shape.parallel.ep;
    if (st_moe_serve_dispatcher(c->w) == ST_DISP_ALLGATHER) {
        double rows = (double)N * (double)T, h = (double)c->w->model->hidden;
        double k = (double)c->w->model->experts_per_token;
        double gather = rows * (h * gather_bytes_per_value(c->w) + 8.0 * k);
        return c->a2a_s[T] =
                   st_step_pattern_s(c->x, ST_COLL_ALL_GATHER, N, 1, 1, 1, gather) +
                   st_step_pattern_s(c->x, ST_COLL_REDUCE_SCATTER, N, 1, 1, 1, rows * h * 2.0);
    }
    c->shape.seq_len = T;
    st_layer_cost lc;
    st_ops_layer_cost(&c->shape, c->gpu, 1, &lc);
    double one = st_step_pattern_s(c->x, ST_COLL_ALL_TO_ALL, N, 1, 1, 1, lc.ep_a2a_bytes);
    return c->a2a_s[T] = (double)lc.ep_a2a_fwd * one;
}

/* The communication of L layers at T tokens: each layer's tensor-parallel all-reduces, and each
 * MoE layer's all-to-alls (the model's first dense layers, as layer_s weighs them, have none). */
static double layers_comm_s(st__serve_cost *c, int64_t T, double L)
{
    double comm = L * ar_s(c, T);
    return c->a2a_s ? comm + L * c->moe_share * a2a_s(c, T) : comm;
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

double st__serve_prefill_window_s(const st__serve_cost *c, int64_t queries, int64_t past,
                                  int64_t window)
{
    return st_ops_attn_prefill_window_time(&c->shape, c->gpu, (double)queries, (double)past,
                                           (double)window);
}

/* L layers' attention-core-free operators and attention, the windowed ones (of a model with a
 * sliding window, on one stage: the loader refuses pipelines of one) at their windows. */
static double layers_s(st__serve_cost *c, const st__serve_batch *b, double L)
{
    double lw = (double)st_llm_window_layers(c->w->model), lf = L - lw,
           layer = layer_s(c, b->tokens);
    double dec = st_ops_attn_decode_time_of(&c->decode, c->gpu, (double)b->decodes, b->decode_keys);
    if (lw == 0)
        return L * (layer + b->prefill_attn_s + dec);
    double dec_w =
        st_ops_attn_decode_time_of(&c->decode, c->gpu, (double)b->decodes, b->decode_keys_window);
    return L * layer + lf * (b->prefill_attn_s + dec) + lw * (b->prefill_attn_window_s + dec_w);
}

double st__serve_iteration_s(st__serve_cost *c, const st__serve_batch *b, double *comm_s)
{
    if (comm_s)
        *comm_s = 0;
    if (b->tokens <= 0)
        return 0;
    double L = (double)c->w->model->layers, comm = layers_comm_s(c, b->tokens, L);
    if (comm_s)
        *comm_s = comm;
    return layers_s(c, b, L) + comm + edge_s(c, b->tokens) + head_s(c, b->sampled);
}

double st__serve_stage_s(st__serve_cost *c, const st__serve_batch *b, int64_t k, double *comm_s)
{
    if (comm_s)
        *comm_s = 0;
    if (b->tokens <= 0)
        return 0;
    double L = (double)c->stage_layers[k], comm = layers_comm_s(c, b->tokens, L);
    double per_layer =
        layer_s(c, b->tokens) + b->prefill_attn_s +
        st_ops_attn_decode_time_of(&c->decode, c->gpu, (double)b->decodes, b->decode_keys);
    if (comm_s)
        *comm_s = comm;
    return L * per_layer + comm + (k == 0 ? edge_s(c, b->tokens) : 0) +
           (k == c->pp - 1 ? head_s(c, b->sampled) : 0);
}

/* Whether the hand-over after stage k leaves a node (or NVLink domain): the replica's GPUs
 * are its ranks, stage-major (stage k on ranks k tp .. (k + 1) tp - 1), from a domain's
 * start. */
static int crosses(const st__serve_cost *c, int64_t k)
{
    int64_t tp = tp_of(c->w);
    return (k * tp) / c->domain != ((k + 2) * tp - 1) / c->domain;
}

/* A stage hands the next its T tokens' hidden states and residual stream, two T x h BF16
 * tensors (vLLM's IntermediateTensors for Llama), each tensor-parallel rank its 1/tp slice to
 * its peer, which the next stage all-gathers over its ranks (vLLM's send_tensor_dict with
 * all_gather_group, vllm/distributed/parallel_state.py). Timed on the fabric as a pattern of
 * its kind, within a domain or across two, from rank 0: ranks t and t + tp, or t and t + the
 * first multiple of tp past a domain. */
double st__serve_handover_s(st__serve_cost *c, int64_t T, int64_t k)
{
    if (c->pp < 2 || T <= 0)
        return 0;
    int x = crosses(c, k);
    if (c->handover_s[x][T] >= 0)
        return c->handover_s[x][T];
    int64_t tp = tp_of(c->w), hop = x ? ((c->domain + tp - 1) / tp) * tp : tp;
    double bytes = 2.0 * (double)T * (double)c->w->model->hidden * 2.0;
    double t = st_step_pattern_s(c->x, ST_COLL_SEND_RECV, 2, hop, tp, 1, bytes / (double)tp);
    if (tp > 1)
        t += st_step_pattern_s(c->x, ST_COLL_ALL_GATHER, tp, 1, 1, 1, bytes);
    return c->handover_s[x][T] = t;
}

/* ---- Memory -------------------------------------------------------------------------------- */

/* One replica as the memory model sees a plan: tp x pp GPUs, no data parallelism (the
 * replicas share no communicator), no optimizer; one sequence of one token, whose activations
 * are not read here. */
static st_workload_cfg replica_of(const st_workload_cfg *w)
{
    st_workload_cfg one = *w;
    one.parallel.pp = pp_of(w);
    one.parallel.dp = 1;
    one.parallel.cp = 1;
    one.parallel.zero = 0;
    one.parallel.microbatch = 1;
    experts_of(&one.parallel, w);
    one.gpus = tp_of(w) * pp_of(w);
    one.seq_len = 1;
    one.global_batch = 1;
    return one;
}

/* The weights one GPU of stage k holds: its share of the parameters (models/silicon/parallel.h)
 * in BF16, or under FP8 or FP4 the linear layers at the GEMMs' input width (st_ops_in_bytes:
 * NVFP4 with its block scales) with the embedding (first stage) and output layer (last stage; a
 * copy of a tied embedding under pipeline parallelism) kept in BF16 (vLLM's Fp8LinearMethod
 * quantises linear layers only; NVIDIA's NVFP4 checkpoints exclude lm_head in their
 * hf_quant_config.json). */
static double weights_of(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t k)
{
    st_workload_cfg one = replica_of(w);
    double params = st_memory_stage_params(&one, k), in = st_ops_in_bytes(gpu, w->precision);
    /* experts stored apart (expert_weights): at their own width, the rest as above */
    double experts = w->expert_precision_given ? st_memory_stage_expert_params(&one, k) : 0;
    double held = experts * st_ops_stored_bytes(w->expert_weights);
    params -= experts;
    if (in >= 2.0)
        return 2.0 * params + held;
    const st_llm_spec *md = w->model;
    int64_t pp = pp_of(w);
    double vocab = (double)md->vocab * (double)md->hidden / (double)tp_of(w);
    double edges =
        (k == 0 ? vocab : 0) + (k == pp - 1 && (!md->tied_embeddings || pp > 1) ? vocab : 0);
    return in * (params - edges) + 2.0 * edges + held;
}

/* The engine's profiling pass runs its largest batch (max_batch_tokens tokens) and keeps the
 * peak as the activations' reserve: within one layer the residual stream, the norm's output, the
 * MLP's up projection and its activation are alive together, in BF16; on the last stage the
 * sampler's logits of max_seqs requests in fp32 (vLLM's profile_run and its sampler's dummy
 * run). */
static double activations_of(const st_workload_cfg *w, int64_t k)
{
    const st_llm_spec *m = w->model;
    const st_inference_cfg *ic = &w->inference;
    double t = (double)tp_of(w), T = (double)ic->max_batch_tokens;
    double f = (double)st_llm_ffn(m) / t, up = m->mlp == ST_MLP_SWIGLU ? 2.0 * f : f;
    double layer = T * (2.0 * (double)m->hidden + up + f) * 2.0;
    double logits = (double)ic->max_seqs * (double)m->vocab / t * 4.0;
    return k == pp_of(w) - 1 ? layer + logits : layer;
}

/* vLLM's hybrid allocator groups the layers of each attention kind in groups of one size, a
 * block holding its tokens of one group (vllm/v1/core/kv_cache_utils.py,
 * _get_kv_cache_groups_uniform_page_size): the fewer kind's layer count, or the larger's when
 * it is under 1.5 times that, a kind's last group padded to it. */
static void group_layout(const st_llm_spec *m, st_serve_memory *out)
{
    int64_t lw = st_llm_window_layers(m), lf = m->layers - lw;
    int64_t lo = lf < lw ? lf : lw, hi = lf < lw ? lw : lf;
    out->window = lw > 0 ? m->sliding_window : 0;
    out->group_layers = lo > 0 ? (2 * hi < 3 * lo ? hi : lo) : m->layers;
    out->full_groups = (lf + out->group_layers - 1) / out->group_layers;
    out->window_groups = (lw + out->group_layers - 1) / out->group_layers;
}

/* Stage k's split of one of its GPUs; its blocks are those its cache holds of its layers. */
static void stage_memory(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t k,
                         int64_t layers, st_serve_memory *out)
{
    const st_inference_cfg *ic = &w->inference;
    memset(out, 0, sizeof *out);
    out->weights = weights_of(w, gpu, k);
    out->activations = activations_of(w, k);
    st_workload_cfg one = replica_of(w);
    out->reserved = st_memory_reserved(&one);
    double rest = out->weights + out->activations + out->reserved;
    /* vLLM's share is of the whole HBM, the cache what is left of it; TensorRT-LLM's of what is
     * free once the model is loaded. */
    out->usable = ic->kv_free_share > 0 ? rest + ic->kv_free_share * (gpu->hbm_bytes - rest)
                                        : ic->gpu_memory_share * gpu->hbm_bytes;
    double kv = out->usable - rest, all = st_ops_kv_bytes_per_token(w);
    out->kv_per_token =
        pp_of(w) > 1 ? all * (double)layers / (double)w->model->layers : all; /* its layers' */
    group_layout(w->model, out);
    out->block_tokens = ic->block_tokens;
    double block = out->kv_per_token * (double)ic->block_tokens;
    if (out->window_groups > 0) /* a block of one group's layers (the loader refuses pp > 1) */
        block = block * (double)out->group_layers / (double)w->model->layers;
    out->blocks = kv > 0 && block > 0 ? (int64_t)floor(kv / block) : 0;
    out->kv_cache = (double)out->blocks * block;
}

int64_t st_serve_blocks_longest(const st_serve_memory *m, int64_t tokens, int64_t chunk)
{
    int64_t b = m->block_tokens, full = (tokens + b - 1) / b;
    if (m->window_groups == 0)
        return full;
    int64_t most = (m->window - 1 + chunk + b - 1) / b + 1;
    return m->full_groups * full + m->window_groups * (full < most ? full : most);
}

int64_t st_serve_kv_tokens(const st_serve_memory *m)
{
    return m->blocks / (m->full_groups + m->window_groups) * m->block_tokens;
}

/* Every stage's GPUs allocate the blocks the scarcest holds (vLLM takes the fewest over its
 * workers, num_gpu_blocks); the split reported is that stage's. */
void st_serve_memory_of(const st_workload_cfg *w, const st_gpu_spec *gpu, st_serve_memory *out)
{
    int64_t pp = pp_of(w);
    st_parallel_cfg one = {.pp = pp};
    st_chunk_split split = st_chunk_split_of(w->model->layers, &one);
    double replica = 0;
    for (int64_t k = 0; k < pp; k++) {
        st_serve_memory m;
        stage_memory(w, gpu, k, st_chunk_layers(&split, k), &m);
        if (k == 0 || m.blocks < out->blocks)
            *out = m;
    }
    if (out->window_groups > 0) { /* one stage (the loader refuses more): its blocks' bytes */
        out->kv_replica = (double)tp_of(w) * out->kv_cache;
        return;
    }
    for (int64_t k = 0; k < pp; k++) { /* the scarcest's blocks on every stage */
        double per = pp > 1 ? st_ops_kv_bytes_per_token(w) * (double)st_chunk_layers(&split, k) /
                                  (double)w->model->layers
                            : out->kv_per_token;
        replica += (double)out->blocks * (per * (double)w->inference.block_tokens);
    }
    out->kv_replica = (double)tp_of(w) * replica;
}
