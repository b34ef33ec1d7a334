/* The step-level model: operator costs, collective times on the fabric and the pipeline
 * schedule, joined into one training step (docs/step-model.md). */
#include "models/step/step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/collective.h"
#include "models/fabric/fabsim.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/step/coll_memo.h"
#include "models/step/zero3.h"
#include "sim/xalloc.h"

struct st_step_ctx {
    const st_cluster_cfg *c;
    st_topo *topo;
    st_coll_memo *memo; /* pattern times simulated so far on topo */
};

int st_step_ctx_new(const st_cluster_cfg *c, st_step_ctx **out, st_err *err)
{
    st_step_ctx *x = st_xcalloc(1, sizeof *x);
    x->c = c;
    int rc = st_topo_new(c, &x->topo, err);
    if (rc) {
        free(x);
        return rc;
    }
    x->memo = st_coll_memo_new();
    *out = x;
    return 0;
}

void st_step_ctx_free(st_step_ctx *x)
{
    if (!x)
        return;
    st_topo_free(x->topo);
    st_coll_memo_free(x->memo);
    free(x);
}

static void coll_done(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    st_time *end = ctx;
    if (now > *end)
        *end = now;
}

/* Run the pattern on a fresh engine and network over the context's fabric, so every group's
 * flows are present together and share NICs and uplinks as they would. */
static double simulate_pattern(st_step_ctx *x, const st_coll_memo_key *k)
{
    st_fabsim *fs = st_fabsim_new(x->topo, x->c);
    int64_t *gpus = st_xmalloc((size_t)(k->n * k->groups) * sizeof *gpus);
    st_time end = 0;
    for (int64_t g = 0; g < k->groups; g++) {
        int64_t *r = gpus + g * k->n;
        for (int64_t i = 0; i < k->n; i++)
            r[i] = g * k->gstride + i * k->stride;
        st_coll_spec s = {.op = k->op,
                          .gpus = r,
                          .n = k->n,
                          .bytes = k->bytes,
                          .key = (uint64_t)g + 1,
                          .done = coll_done,
                          .ctx = &end};
        st_err err = {0};
        if (st_coll_start(st_fabsim_coll(fs), &s, &err) < 0)
            ST_BUG("step pattern refused: %s", err.msg); /* ranks come from a checked plan */
    }
    st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
    st_fabsim_free(fs);
    free(gpus);
    return (double)end * 1e-9;
}

/* The time of a pattern (st_coll_memo_key): simulated once per distinct pattern and then
 * remembered, since a plan search asks for the same few collectives thousands of times, and a
 * sizing search for thousands of distinct ones. */
static double coll_time(st_step_ctx *x, st_coll_op op, int64_t n, int64_t stride, int64_t groups,
                        int64_t gstride, double bytes)
{
    if (n < 2 || bytes <= 0)
        return 0;
    st_coll_memo_key k = {
        .op = op, .n = n, .stride = stride, .groups = groups, .gstride = gstride, .bytes = bytes};
    double t;
    if (st_coll_memo_find(x->memo, &k, &t))
        return t;
    t = simulate_pattern(x, &k);
    st_coll_memo_put(x->memo, &k, t);
    return t;
}

/* Everything about one plan that the pipeline and the reductions need. */
typedef struct plan {
    const st_workload_cfg *w;
    const st_gpu_spec *gpu;
    int64_t tp, cp, pp, dp, v, mb, m, chunks, layers;
    st_layer_cost lc;
    double mp_fwd_s, mp_bwd_s; /* TP and CP collectives per layer per micro-batch */
    double embed_f, embed_b, head_f, head_b;
    double p2p_s;        /* one send between stages */
    double p2p_block;    /* with blocking sends, what each chunk's forward and backward wait */
    double layer_params; /* one layer's parameters on one GPU (after TP) */
    double embed_params; /* the embedding's (or output layer's) on one GPU */
} plan;

static int64_t chunk_layers(const plan *p, int64_t c)
{
    int64_t base = p->layers / p->chunks, extra = p->layers % p->chunks;
    return base + (c < extra);
}

/* Whether the output layer's weights are held apart from the embedding's: always on a last
 * chunk that is not the first (tied embeddings keep a copy there, as Megatron does), and on a
 * single chunk when the model does not tie them. */
static int output_apart(const plan *p)
{
    return p->chunks > 1 || !p->w->model->tied_embeddings;
}

/* Chunk c's parameters on one GPU: its layers, the embedding on the first chunk and the output
 * layer on the last. */
static double chunk_params(const plan *p, int64_t c)
{
    double n = (double)chunk_layers(p, c) * p->layer_params;
    if (c == 0)
        n += p->embed_params;
    if (c == p->chunks - 1 && output_apart(p))
        n += p->embed_params;
    return n;
}

/* Tensor-parallel collectives per layer (Korthikanti et al. 2022, section 4.2.2): two
 * all-reduces in forward and two in backward, or with sequence parallelism an all-gather and a
 * reduce-scatter in their place (and the inputs gathered again for the weight gradients);
 * full recomputation repeats the forward ones. Under FP8 the all-gathers move FP8
 * (models/silicon/ops.c, st_ops_layer_cost). Context parallelism gathers K and V around its ring in
 * forward and reduces their gradients in backward (Megatron-Core's ring attention), counted here as
 * not overlapped. */
static void model_parallel_costs(st_step_ctx *x, plan *p)
{
    const st_workload_cfg *w = p->w;
    const st_layer_cost *lc = &p->lc;
    double ag = 0, other = 0, cp_unit = 0; /* one all-gather; one reduce-scatter or all-reduce */
    if (p->tp > 1) {
        if (w->parallel.sequence_parallel) {
            ag = coll_time(x, ST_COLL_ALL_GATHER, p->tp, 1, 1, 1, lc->tp_ag_bytes);
            other = coll_time(x, ST_COLL_REDUCE_SCATTER, p->tp, 1, 1, 1, lc->tp_bytes);
        } else {
            other = coll_time(x, ST_COLL_ALL_REDUCE, p->tp, 1, 1, 1, lc->tp_bytes);
        }
    }
    if (p->cp > 1) {
        double kv = 2.0 * (double)(w->seq_len / p->cp) * (double)p->mb *
                    (double)st_llm_kv_width(w->model) / (double)p->tp * 2.0 * (double)p->cp;
        cp_unit = coll_time(x, ST_COLL_ALL_GATHER, p->cp, p->tp, p->tp, 1, kv);
    }
    /* The counts are the operator graph's (models/silicon/ops.c): what the layer's kernels need. */
    int recompute_all = w->parallel.recompute == ST_RECOMPUTE_FULL;
    double tp_fwd = lc->tp_ag_fwd * ag + (lc->tp_colls_fwd - lc->tp_ag_fwd) * other;
    double tp_bwd = lc->tp_ag_bwd * ag + (lc->tp_colls_bwd - lc->tp_ag_bwd) * other;
    p->mp_fwd_s = tp_fwd + cp_unit;
    p->mp_bwd_s =
        tp_bwd + (lc->tp_colls_recompute ? tp_fwd : 0.0) + (recompute_all ? 2 : 1) * cp_unit;
}

/* Activations sent between stages: one micro-batch's s*b*h values in BF16, split over the
 * tensor-parallel ranks (sequence parallelism, or Megatron's scatter/gather otherwise), with
 * every data-parallel replica sending at once. */
static double p2p_cost(st_step_ctx *x, const plan *p)
{
    if (p->pp < 2)
        return 0;
    const st_workload_cfg *w = p->w;
    double bytes = (double)(w->seq_len / p->cp) * (double)p->mb * (double)w->model->hidden * 2.0 /
                   (double)p->tp;
    int64_t stage = p->tp * p->cp * p->dp;
    return coll_time(x, ST_COLL_SEND_RECV, 2, stage, stage, 1, bytes);
}

static int make_plan(st_step_ctx *x, const st_workload_cfg *w, int64_t mb, plan *p, st_err *err)
{
    const st_parallel_cfg *par = &w->parallel;
    memset(p, 0, sizeof *p);
    *p = (plan){.w = w,
                .gpu = x->c->gpu,
                .tp = par->tp,
                .cp = par->cp,
                .pp = par->pp,
                .dp = par->dp,
                .v = par->virtual_stages,
                .mb = mb,
                .layers = w->model->layers};
    p->chunks = p->pp * p->v;
    p->m = w->global_batch / (p->dp * mb);
    if (p->m < 1 || w->global_batch % (p->dp * mb))
        return st_err_set(err, ST_EINVAL, w->parallel.loc,
                          "workload '%s': global_batch %lld does not split into micro-batches of "
                          "%lld over dp %lld",
                          w->name, (long long)w->global_batch, (long long)mb, (long long)p->dp);
    if (p->v > 1 && p->m % p->pp)
        return st_err_set(err, ST_EINVAL, w->parallel.loc,
                          "workload '%s': interleaving needs micro-batches per step (%lld) to be "
                          "a multiple of pp (%lld)",
                          w->name, (long long)p->m, (long long)p->pp);
    st_ops_layer_cost(w, p->gpu, mb, &p->lc);
    st_ops_edge_cost(w, p->gpu, mb, &p->embed_f, &p->embed_b, &p->head_f, &p->head_b);
    p->layer_params = st_llm_layer_params(w->model) / (double)p->tp;
    p->embed_params = (double)w->model->vocab * (double)w->model->hidden / (double)p->tp;
    model_parallel_costs(x, p);
    p->p2p_s = p2p_cost(x, p);
    /* Blocking sends (Megatron-LM's p2p_communication: batch_isend_irecv, then wait, on the
     * compute stream): a stage pairs its forward's send with the next backward's receive, and
     * its backward's send with the next forward's receive, and waits for each exchange, so
     * every chunk's forward and backward take one send longer; nothing is left in flight. */
    if (!w->parallel.overlap_p2p && p->pp > 1) {
        p->p2p_block = p->p2p_s;
        p->p2p_s = 0;
    }
    return 0;
}

/* Bytes per parameter of the weights the data-parallel ranks all-gather (ZeRO-3's per-layer
 * gathers, the distributed optimizer's after its step): BF16, or FP8 with fp8_param_gather
 * (Megatron-Core keeps the compute weights in FP8 and gathers them so). */
static double param_bytes(const plan *p)
{
    return p->w->fp8_param_gather ? 1.0 : 2.0;
}

/* Bytes per parameter of the gradients reduced over data parallelism: fp32 (Megatron-LM
 * all-reduces a bf16 model's gradients in fp32) unless the plan says grad_reduce: bf16. */
static double grad_bytes(const plan *p)
{
    return p->w->parallel.grad_bf16 ? 2.0 : 4.0;
}

/* ZeRO-3 (Rajbhandari et al. 2020, section 5.3) all-gathers each layer's weights before its
 * forward and again before its backward, and reduce-scatters its gradients after its backward,
 * every micro-batch: DeepSpeed per submodule, PyTorch FSDP per wrapped block, Megatron-FSDP per
 * layer (its grad_reduce_every_bprop under optim_grads_params). The embedding and the output
 * layer are units of their own on the edge chunks (one shared unit when a single chunk ties
 * them). Units and collectives run as a compute and a communication stream (models/step/zero3.c):
 * on demand, or prefetched one unit ahead with overlap_param_gather (Megatron-FSDP, which
 * requires it under optim_grads_params). Writes chunk c's forward and backward times of one
 * micro-batch, its kernels and model-parallel collectives included, and the collectives' own
 * time to *comm; returns the part that is ZeRO-3's: the time the passes take beyond their
 * kernels. */
static double zero3_passes(st_step_ctx *x, const plan *p, int64_t c, double *fwd, double *bwd,
                           double *comm)
{
    const st_layer_cost *lc = &p->lc;
    int64_t n = p->dp * p->cp; /* the data-parallel group spans the context-parallel ranks */
    int64_t layers = chunk_layers(p, c), count = 0;
    double ag =
        coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, p->layer_params * param_bytes(p));
    double rs =
        coll_time(x, ST_COLL_REDUCE_SCATTER, n, p->tp, p->tp, 1, p->layer_params * grad_bytes(p));
    double edge_ag =
        coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, p->embed_params * param_bytes(p));
    double edge_rs =
        coll_time(x, ST_COLL_REDUCE_SCATTER, n, p->tp, p->tp, 1, p->embed_params * grad_bytes(p));
    st_z3_unit *f = st_xmalloc((size_t)(layers + 2) * sizeof *f);
    st_z3_unit *b = st_xmalloc((size_t)(layers + 2) * sizeof *b);
    double kernels = 0;
    /* Units in forward order; the backward runs them from the last to the first. A single
     * chunk that ties its embeddings has one edge unit: gathered before the embedding's forward
     * and before the output layer's backward (the first to need it going back),
     * reduce-scattered after the embedding's backward (the last to add to it). */
    int tied = c == p->chunks - 1 && !output_apart(p);
    if (c == 0) {
        f[count] = (st_z3_unit){p->embed_f, edge_ag, 0};
        b[count++] = (st_z3_unit){p->embed_b, tied ? 0 : edge_ag, edge_rs};
    }
    for (int64_t k = 0; k < layers; k++) {
        f[count] = (st_z3_unit){lc->fwd_s + p->mp_fwd_s, ag, 0};
        b[count++] = (st_z3_unit){lc->bwd_s + lc->recompute_s + p->mp_bwd_s, ag, rs};
    }
    if (c == p->chunks - 1) {
        f[count] = (st_z3_unit){p->head_f, tied ? 0 : edge_ag, 0};
        b[count++] = (st_z3_unit){p->head_b, edge_ag, tied ? 0 : edge_rs};
    }
    for (int64_t i = 0; i < count / 2; i++) { /* backward order */
        st_z3_unit t = b[i];
        b[i] = b[count - 1 - i];
        b[count - 1 - i] = t;
    }
    *comm = 0;
    for (int64_t i = 0; i < count; i++) {
        kernels += f[i].compute_s + b[i].compute_s;
        *comm += f[i].gather_s + b[i].gather_s + b[i].reduce_s;
    }
    st_z3_issue issue = p->w->parallel.overlap_param_gather ? ST_Z3_PREFETCH : ST_Z3_ON_DEMAND;
    double s = st_gpu_overlap_slowdown(p->gpu);
    *fwd = st_z3_pass(f, count, issue, s);
    *bwd = st_z3_pass(b, count, issue, s);
    free(f);
    free(b);
    return *fwd + *bwd - kernels;
}

/* Per-chunk forward and backward times of one micro-batch: its layers' kernels and
 * model-parallel collectives, the embedding on the first chunk, the output layer and loss on
 * the last, and under ZeRO-3 its gathers and reduce-scatters, whose share of the passes it also
 * writes to zero3[c] for the breakdown and whose own time to zero3_all[c] for the closed form. */
static void chunk_costs(st_step_ctx *x, const plan *p, double *fwd, double *bwd, double *zero3,
                        double *zero3_all)
{
    const st_layer_cost *lc = &p->lc;
    int sharded = p->w->parallel.zero >= 3 && p->dp * p->cp >= 2;
    for (int64_t c = 0; c < p->chunks; c++) {
        if (sharded) {
            zero3[c] = zero3_passes(x, p, c, &fwd[c], &bwd[c], &zero3_all[c]);
        } else {
            double n = (double)chunk_layers(p, c);
            zero3[c] = zero3_all[c] = 0;
            fwd[c] = n * (lc->fwd_s + p->mp_fwd_s) + (c == 0 ? p->embed_f : 0) +
                     (c == p->chunks - 1 ? p->head_f : 0);
            bwd[c] = n * (lc->bwd_s + lc->recompute_s + p->mp_bwd_s) + (c == 0 ? p->embed_b : 0) +
                     (c == p->chunks - 1 ? p->head_b : 0);
        }
        fwd[c] += p->p2p_block;
        bwd[c] += p->p2p_block;
        /* With grad_accum: separate, every micro-batch's backward ends with a pass adding the
         * chunk's new bf16 gradients into the fp32 accumulator. */
        bwd[c] += st_ops_grad_accum_time(p->w, p->gpu, chunk_params(p, c));
    }
}

/* The gradients' collective: a reduce-scatter when the optimizer is sharded (ZeRO 1 and 2, the
 * distributed optimizer), an all-reduce when it is not, unless the plan names one:
 * grad_collective: all-reduce is DeepSpeed's pipeline engine with its BF16 optimizer, which
 * all-reduces the fp32 gradients (_bf16_reduce_grads) and then updates its own shard. */
static st_coll_op grad_op(const plan *p)
{
    switch (p->w->parallel.grad_collective) {
    case ST_GRAD_COLL_ALL_REDUCE:
        return ST_COLL_ALL_REDUCE;
    case ST_GRAD_COLL_REDUCE_SCATTER:
        return ST_COLL_REDUCE_SCATTER;
    default:
        return p->w->parallel.zero >= 1 ? ST_COLL_REDUCE_SCATTER : ST_COLL_ALL_REDUCE;
    }
}

/* Gradient reduction of one stage (Megatron's distributed data parallel): each layer's
 * gradients form a bucket, ready when that layer's last backward is done; a bucket goes through
 * grad_op's collective on the stage's communication stream in the order they become ready, from
 * the moment they are ready when overlap_grad_reduce is on (the default), else after the whole
 * backward. Returns when the stage's last bucket is reduced. Gradients are reduced in FP32
 * (Megatron-LM accumulates and all-reduces BF16 models' gradients in FP32), or in BF16 with
 * grad_reduce: bf16 (grad_bytes). The buckets reduced while the stage still computes slow that
 * compute (st_gpu_overlap_slowdown, as under ZeRO-3): *compute_end is when the stage's last
 * backward ends once that is counted. */
static double stage_reduce_end(st_step_ctx *x, const plan *p, const st_pipe_result *pr,
                               const double *bwd, int64_t s, double *compute_end)
{
    *compute_end = pr->last_bwd_end[s]; /* a stage's first chunk finishes its backward last */
    if (p->dp * p->cp < 2 || p->w->parallel.zero >= 3)
        return 0;
    st_coll_op op = grad_op(p);
    int64_t n_dp = p->dp * p->cp;
    int overlap = p->w->parallel.overlap_grad_reduce;
    double t = 0, beside = 0; /* the reductions' seconds beside the stage's compute */
    /* A stage's deeper chunks finish their backward first: take them in that order. */
    int64_t last = s + (p->chunks - 1 - s) / p->pp * p->pp;
    for (int64_t c = last; c >= s; c -= p->pp) {
        int64_t n = chunk_layers(p, c);
        double end = pr->last_bwd_end[c], per_layer = n ? bwd[c] / (double)n : 0;
        double layer_t = coll_time(x, op, n_dp, p->tp, p->tp, 1, p->layer_params * grad_bytes(p));
        /* Backward runs from the chunk's last layer to its first: layer k is done at
         * end - k * per_layer, counting k from the chunk's first layer. */
        for (int64_t k = n - 1; k >= 0; k--) {
            double ready = overlap ? end - (double)k * per_layer : pr->makespan_s;
            t = fmax(t, ready) + layer_t;
            beside += fmax(0, fmin(t, *compute_end) - fmax(t - layer_t, 0));
        }
        double extra = chunk_params(p, c) - (double)n * p->layer_params;
        if (extra > 0)
            t = fmax(t, overlap ? end : pr->makespan_s) +
                coll_time(x, op, n_dp, p->tp, p->tp, 1, extra * grad_bytes(p));
    }
    double sl = st_gpu_overlap_slowdown(p->gpu);
    *compute_end += beside * sl / (1.0 + sl);
    return t;
}

/* A stage's weight gathers beside its first forward, unit by unit: t is when the gathers so
 * far end, end when all of them do, late how far the forward runs behind its schedule. */
typedef struct gather_walk {
    double t, late, end, slowdown;
} gather_walk;

/* One unit: its bucket's gather of g seconds, its forward of c seconds due at `need` (before
 * any delay). It starts when it is due (late as the units before it left it) and its bucket
 * is in, and runs slowed for as long as gathers still run beside it. Without contention the
 * lateness is the largest of (gather end - due), Megatron's forward pre-hook waiting. */
static void gather_unit(gather_walk *g, double gather, double need, double c)
{
    g->t += gather;
    double start = fmax(need + g->late, g->t);
    g->late = start + st_z3_slowed(c, g->end - start, g->slowdown) - (need + c);
}

/* After the optimizer, the distributed optimizer (ZeRO 1 and 2) all-gathers the updated weights
 * (BF16, or FP8 with fp8_param_gather: param_bytes) over the data-parallel ranks. Without
 * overlap_param_gather that is one all-gather of the most loaded stage's weights before the next
 * step can start. With it (Megatron-Core's DistributedDataParallel, which NeMo's
 * MegatronCommOverlapCallback turns on with the distributed optimizer and dp > 1), the gathers run
 * bucket by bucket, a transformer layer each (NeMo's communication-overlap guide: "chunked by the
 * granularity of a Transformer layer"), and each layer's forward pre-hook waits for its bucket. The
 * gathers run back to back in the order the forward needs them (on each stage its chunks in order,
 * the embedding before the first chunk's layers, the output layer after the last's). With
 * interleaving they are dispatched at the step's start on every stage (align_param_gather:
 * Megatron-LM's default, which NeMo's callback also sets with interleaving; Megatron wires it
 * through the interleaved schedule's param_sync_func), and the most any bucket is late, over all
 * stages, is exposed. Without interleaving each stage's pre-hook dispatches its first bucket when
 * its forward is due, so with pp > 1 the stages' delays add up through the warm-up; with pp = 1 the
 * two are the same. A bucket is late by how far its gather ends after its layer's forward should
 * have started (at least the first bucket's gather); the times the forward needs each bucket come
 * from this step's simulated pipeline. The gathers the forward did not wait for ran beside it,
 * and slowed it by st_gpu_overlap_slowdown while they did (gather_unit). */
static double param_gather_s(st_step_ctx *x, const plan *p, const st_pipe_result *pr)
{
    if (p->dp * p->cp < 2 || p->w->parallel.zero < 1 || p->w->parallel.zero >= 3)
        return 0;
    int64_t n = p->dp * p->cp;
    if (!p->w->parallel.overlap_param_gather) {
        double most = 0;
        for (int64_t s = 0; s < p->pp; s++) {
            double params = 0;
            for (int64_t c = s; c < p->chunks; c += p->pp)
                params += chunk_params(p, c);
            most = fmax(most, params);
        }
        return coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, most * param_bytes(p));
    }
    double layer_t =
        coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, p->layer_params * param_bytes(p));
    double edge_t =
        coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, p->embed_params * param_bytes(p));
    /* Aligned: every stage dispatches at the step's start. Otherwise each stage's first
     * pre-hook dispatches when its first forward is due, so in the warm-up each stage adds its
     * own late first buckets to the delay the stages before it passed on. */
    int aligned = p->v > 1 || p->pp == 1;
    double per_layer = p->lc.fwd_s + p->mp_fwd_s, total = 0;
    double sl = st_gpu_overlap_slowdown(p->gpu);
    for (int64_t s = 0; s < p->pp; s++) {
        double t0 = aligned ? 0 : pr->first_fwd_start[s], all = 0;
        for (int64_t c = s; c < p->chunks; c += p->pp)
            all += (double)chunk_layers(p, c) * layer_t +
                   ((c == 0) + (c == p->chunks - 1 && output_apart(p))) * edge_t;
        /* The gathers run back to back from t0 until t0 + all; each unit's forward waits for
         * its bucket and runs slowed while they last. late: how far the forward runs behind
         * the simulated schedule. */
        gather_walk g = {.t = t0, .late = 0, .end = t0 + all, .slowdown = sl};
        for (int64_t c = s; c < p->chunks; c += p->pp) {
            double need = pr->first_fwd_start[c];
            if (c == 0) {
                gather_unit(&g, edge_t, need, p->embed_f);
                need += p->embed_f;
            }
            for (int64_t k = 0; k < chunk_layers(p, c); k++)
                gather_unit(&g, layer_t, need + (double)k * per_layer, per_layer);
            if (c == p->chunks - 1 && output_apart(p))
                gather_unit(&g, edge_t, need + (double)chunk_layers(p, c) * per_layer, 0);
        }
        total = aligned ? fmax(total, g.late) : total + g.late;
    }
    return total;
}

/* Tied embeddings on a pipeline: the first stage's input embedding and the last stage's output
 * layer are one weight, so after the backward their gradients are all-reduced between the two
 * stages (Megatron-LM's _allreduce_embedding_grads in finalize_model_grads, after the
 * data-parallel reduction; DeepSpeed's ReduceTiedGrads), every replica and TP rank at once,
 * before the optimizer can step. Nothing overlaps it. */
static double embedding_sync_s(st_step_ctx *x, const plan *p)
{
    if (p->pp < 2 || !p->w->model->tied_embeddings)
        return 0;
    int64_t stage = p->tp * p->cp * p->dp;
    return coll_time(x, ST_COLL_ALL_REDUCE, 2, (p->pp - 1) * stage, stage, 1,
                     p->embed_params * grad_bytes(p));
}

/* MFU, HFU and throughput from the step time (PaLM's definitions: model FLOPs per token,
 * attention included, over the dense peak of the precision used; HFU adds recomputation). */
static void rates(const plan *p, const st_cluster_cfg *c, st_step_result *out)
{
    const st_workload_cfg *w = p->w;
    double gpus = (double)w->gpus, tokens = (double)w->global_batch * (double)w->seq_len;
    double model = st_llm_flops_per_token(w->model, w->seq_len) * tokens;
    double recompute = p->lc.recompute_flops * (double)p->layers * (double)p->m * (double)p->dp *
                       (double)p->tp * (double)p->cp; /* every GPU's share, summed */
    double peak = st_gpu_peak(c->gpu, w->precision) * gpus;
    double t = out->step_time_s;
    out->mfu = model / (t * peak);
    out->hfu = (model + recompute) / (t * peak);
    out->tflops_per_gpu = model / gpus / t / 1e12;
    out->tokens_per_s = tokens / t;
}

/* The busiest stage's share of compute, model-parallel and ZeRO-3 time, for the breakdown.
 * The pipeline run sees each chunk's time as one block; the parts that are communication are
 * taken back out of the busiest stage's compute: its tensor- and context-parallel collectives
 * into tp_comm_s, its blocking sends into pp_comm_s, and its ZeRO-3 weight gathers and gradient
 * reduce-scatters (what they add to its passes, data-parallel traffic) into dp_comm_exposed_s,
 * which the caller has set to what is left after the pipeline. */
static void breakdown(const plan *p, const st_pipe_result *pr, const double *zero3,
                      st_step_result *out)
{
    double layers = 0, z3 = 0;
    for (int64_t c = pr->busiest; c < p->chunks; c += p->pp) {
        layers += (double)chunk_layers(p, c);
        z3 += zero3[c];
    }
    double mp = layers * (p->mp_fwd_s + p->mp_bwd_s) * (double)p->m;
    z3 *= (double)p->m;
    st_step_breakdown *b = &out->b;
    double blocked = p->p2p_block * 2.0 * (double)p->v * (double)p->m;
    b->tp_comm_s = fmin(mp, pr->compute_s);
    z3 = fmin(z3, pr->compute_s - b->tp_comm_s);
    blocked = fmin(blocked, pr->compute_s - b->tp_comm_s - z3);
    b->compute_s = pr->compute_s - b->tp_comm_s - z3 - blocked;
    b->dp_comm_exposed_s += z3;
    b->pp_comm_s = pr->p2p_exposed_s + blocked;
    b->bubble_s = fmax(0, pr->bubble_s - pr->p2p_exposed_s);
}

/* The seed's T_step = T_compute + T_comm - T_overlap: T_compute the busiest stage's kernels
 * (no bubble), T_comm its tensor-parallel time, ZeRO-3's gathers and reduce-scatters (zero3_s)
 * and the gradient all-reduce by the seed's 2(N-1)/N * S/B + alpha * log2(N_nodes) (the
 * collective model's closed form), T_overlap 0: the formula has no way to know what hides
 * behind what, which is what the simulation adds. */
static double seed_closed_form(st_step_ctx *x, const plan *p, const st_step_result *r,
                               double zero3_s)
{
    double dp = 0;
    if (p->dp * p->cp > 1) {
        st_fabsim *fs = st_fabsim_new(x->topo, x->c);
        int64_t n = p->dp * p->cp, *gpus = st_xmalloc((size_t)n * sizeof *gpus);
        for (int64_t i = 0; i < n; i++)
            gpus[i] = i * p->tp;
        st_coll_spec s = {.op = ST_COLL_ALL_REDUCE,
                          .gpus = gpus,
                          .n = n,
                          .bytes = chunk_params(p, 0) * (double)p->v * grad_bytes(p)};
        st_coll_plan plan;
        st_err err = {0};
        if (st_coll_plan_of(st_fabsim_coll(fs), &s, &plan, &err) == 0)
            dp = plan.closed_s;
        free(gpus);
        st_fabsim_free(fs);
    }
    return r->b.compute_s + r->b.tp_comm_s + zero3_s + r->b.optimizer_s + dp;
}

int st_step_run(st_step_ctx *x, const st_workload_cfg *w, int64_t microbatch, st_step_result *out,
                st_pipe_trace *trace, st_err *err)
{
    plan p;
    memset(out, 0, sizeof *out);
    int rc = make_plan(x, w, microbatch, &p, err);
    if (rc)
        return rc;
    double *fwd = st_xcalloc((size_t)p.chunks, sizeof *fwd);
    double *bwd = st_xcalloc((size_t)p.chunks, sizeof *bwd);
    double *zero3 = st_xcalloc((size_t)p.chunks, sizeof *zero3);
    double *zero3_all = st_xcalloc((size_t)p.chunks, sizeof *zero3_all);
    chunk_costs(x, &p, fwd, bwd, zero3, zero3_all);
    st_pipe_spec spec = {
        .pp = p.pp, .v = p.v, .m = p.m, .fwd_s = fwd, .bwd_s = bwd, .p2p_s = p.p2p_s};
    st_pipe_result pr = {0};
    rc = st_pipe_simulate(&spec, &pr, trace);
    if (rc) {
        st_err_set(err, rc, w->parallel.loc, "workload '%s': the pipeline cannot run this plan",
                   w->name);
    } else {
        double end = pr.makespan_s;
        for (int64_t s = 0; s < p.pp; s++) {
            double compute_end, reduced = stage_reduce_end(x, &p, &pr, bwd, s, &compute_end);
            end = fmax(end, fmax(reduced, compute_end));
        }
        double dp_after = end - pr.makespan_s + param_gather_s(x, &p, &pr);
        out->b.dp_comm_exposed_s = dp_after;
        out->b.optimizer_s = st_ops_optimizer_time(w, p.gpu);
        double sync = embedding_sync_s(x, &p);
        breakdown(&p, &pr, zero3, out);
        out->b.pp_comm_s += sync; /* traffic between pipeline stages, like the sends */
        out->microbatch = microbatch;
        out->micro_per_step = p.m;
        out->step_time_s = pr.makespan_s + sync + dp_after + out->b.optimizer_s;
        rates(&p, x->c, out);
        double zero3_s = 0; /* the busiest stage's ZeRO-3 collectives, none hidden */
        for (int64_t c = pr.busiest; c < p.chunks; c += p.pp)
            zero3_s += zero3_all[c] * (double)p.m;
        out->closed_form_s = seed_closed_form(x, &p, out, zero3_s);
    }
    st_pipe_result_release(&pr);
    free(fwd);
    free(bwd);
    free(zero3);
    free(zero3_all);
    return rc;
}
