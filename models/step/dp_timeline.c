/* The data-parallel timelines of one step: ZeRO-3's gathers and reduce-scatters inside the
 * passes, each stage's gradient reduction after its backward, the distributed optimizer's weight
 * gather and the tied-embedding all-reduce. docs/models/step-model.md. */
#include <math.h>
#include <stdlib.h>

#include "models/silicon/gpu.h"
#include "models/step/step_internal.h"
#include "models/step/zero3.h"
#include "sim/xalloc.h"

/* Bytes per parameter of the weights the data-parallel ranks all-gather (ZeRO-3's per-layer
 * gathers, the distributed optimizer's after its step): BF16, or FP8 with fp8_param_gather
 * (Megatron-Core keeps the compute weights in FP8 and gathers them so). */
static double param_bytes(const step_plan *p)
{
    return p->w->fp8_param_gather ? 1.0 : 2.0;
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
/* One ZeRO-3 unit of `params` parameters on one GPU: its weights' all-gather and its
 * gradients' reduce-scatter over the dp x cp ranks. */
static void unit_colls(st_step_ctx *x, const step_plan *p, double params, double *ag, double *rs)
{
    int64_t n = p->dp * p->cp; /* the data-parallel group spans the context-parallel ranks */
    *ag = st__step_coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1, params * param_bytes(p));
    *rs = st__step_coll_time(x, ST_COLL_REDUCE_SCATTER, n, p->tp, p->tp, 1, params * grad_bytes(p));
}

double st__step_zero3_passes(st_step_ctx *x, const step_plan *p, int64_t c, double *fwd,
                             double *bwd, double *comm)
{
    int64_t layers = chunk_layers(p, c), count = 0;
    /* A unit's gather and reduce-scatter by its layer's kind ([1]: a dense layer's). */
    double ag[2], rs[2];
    for (int k = 0; k < 2; k++)
        unit_colls(x, p, layer_params_of(p, k), &ag[k], &rs[k]);
    double edge_ag, edge_rs;
    unit_colls(x, p, p->embed_params, &edge_ag, &edge_rs);
    st_z3_unit *f = st_xmalloc((size_t)(layers + 2) * sizeof *f);
    st_z3_unit *b = st_xmalloc((size_t)(layers + 2) * sizeof *b);
    double kernels = 0;
    /* Units in forward order; the backward runs them from the last to the first. A single
     * chunk that ties its embeddings has one edge unit: gathered before the embedding's forward
     * and before the output layer's backward (the first to need it going back),
     * reduce-scattered after the embedding's backward (the last to add to it). */
    int tied = c == p->chunks - 1 && !output_apart(p);
    if (c == 0) {
        f[count] = (st_z3_unit){.compute_s = p->embed_f, .gather_s = edge_ag};
        b[count++] = (st_z3_unit){
            .compute_s = p->embed_b, .gather_s = tied ? 0 : edge_ag, .reduce_s = edge_rs};
    }
    for (int64_t k = 0; k < layers; k++) {
        int d = layer_is_dense(p, c, k);
        f[count] = (st_z3_unit){.compute_s = layer_fwd_s(p, d), .gather_s = ag[d]};
        b[count++] =
            (st_z3_unit){.compute_s = layer_bwd_s(p, d), .gather_s = ag[d], .reduce_s = rs[d]};
    }
    if (c == p->chunks - 1) {
        f[count] = (st_z3_unit){.compute_s = p->head_f, .gather_s = tied ? 0 : edge_ag};
        b[count++] = (st_z3_unit){
            .compute_s = p->head_b, .gather_s = edge_ag, .reduce_s = tied ? 0 : edge_rs};
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
    double s = st_gpu_overlap_slowdown(p->gpu, p->w->precision);
    *fwd = st_z3_pass(f, count, issue, s);
    *bwd = st_z3_pass(b, count, issue, s);
    free(f);
    free(b);
    return *fwd + *bwd - kernels;
}

/* The gradients' collective: a reduce-scatter when the optimizer is sharded (ZeRO 1 and 2, the
 * distributed optimizer), an all-reduce when it is not, unless the plan names one:
 * grad_collective: all-reduce is DeepSpeed's pipeline engine with its BF16 optimizer, which
 * all-reduces the fp32 gradients (_bf16_reduce_grads) and then updates its own shard. */
static st_coll_op grad_op(const step_plan *p)
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

/* Whether a stage has gradients to reduce over data parallelism: its dense parameters over the
 * dp x cp ranks, an MoE model's experts over the edp ranks (which exist with tp > 1 even where
 * dp x cp is 1: experts are replicated over the TP ranks under expert tensor parallelism 1). */
static int has_dp_reduce(const step_plan *p)
{
    return p->dp * p->cp >= 2 || p->edp >= 2;
}

/* One layer's collective `op` over data parallelism, `bytes` per parameter: Megatron-Core keeps
 * the expert parameters in buffers of their own, reduced (and, with the distributed optimizer,
 * gathered) over the expert-data-parallel group (megatron/core/distributed/
 * distributed_data_parallel.py, the expert_parallel buffers; parallel_state.py
 * get_expert_data_parallel_group): edp ranks ep x etp apart, ep x etp such groups at once. The
 * dense parameters go over the dp x cp ranks (tp apart) as before; the two run one after the other.
 */
static double layer_dp_coll(st_step_ctx *x, const step_plan *p, st_coll_op op, double bytes,
                            int dense)
{
    int64_t n = p->dp * p->cp, emp = p->emp > 1 ? p->emp : 1;
    double all = layer_params_of(p, dense), experts = layer_experts_of(p, dense);
    double t = st__step_coll_time(x, op, n, p->tp, p->tp, 1, (all - experts) * bytes);
    if (experts > 0)
        t += st__step_coll_time(x, op, p->edp, emp, emp, 1, experts * bytes);
    return t;
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
double st__step_stage_reduce_end(st_step_ctx *x, const step_plan *p, const st_pipe_result *pr,
                                 const double *bwd, int64_t s, double *compute_end)
{
    *compute_end = pr->last_bwd_end[s]; /* a stage's first chunk finishes its backward last */
    if (!has_dp_reduce(p) || p->w->parallel.zero >= 3)
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
        double layer_t[2] = {layer_dp_coll(x, p, op, grad_bytes(p), 0),
                             p->dense > 0 ? layer_dp_coll(x, p, op, grad_bytes(p), 1) : 0};
        /* Backward runs from the chunk's last layer to its first: layer k is done at
         * end - k * per_layer, counting k from the chunk's first layer (the chunk's mean layer
         * backward, also in a chunk that mixes dense and MoE layers; a dense layer's bucket
         * holds the dense layer's parameters). */
        /* The MTP modules' layers run first in the last chunk's backward: their buckets are
         * ready when its backward has done them (at its start, to first order). */
        for (int64_t k = 0; k < chunk_mtp(p, c); k++) {
            double ready = overlap ? end - (double)n * per_layer : pr->makespan_s;
            t = fmax(t, ready) + layer_t[0];
            beside += fmax(0, fmin(t, *compute_end) - fmax(t - layer_t[0], 0));
        }
        for (int64_t k = n - 1; k >= 0; k--) {
            double ready = overlap ? end - (double)k * per_layer : pr->makespan_s;
            double lt = layer_t[layer_is_dense(p, c, k)];
            t = fmax(t, ready) + lt;
            beside += fmax(0, fmin(t, *compute_end) - fmax(t - lt, 0));
        }
        double nd = (double)chunk_dense(p, c);
        double extra =
            chunk_params(p, c) - ((double)n - nd + (double)chunk_mtp(p, c)) * p->layer_params;
        if (nd > 0)
            extra -= nd * p->dense_params;
        if (extra > 0)
            t = fmax(t, overlap ? end : pr->makespan_s) +
                st__step_coll_time(x, op, n_dp, p->tp, p->tp, 1, extra * grad_bytes(p));
    }
    double sl = st_gpu_overlap_slowdown(p->gpu, p->w->precision);
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

/* Without overlap_param_gather: one all-gather of the most loaded stage's weights over dp x cp,
 * then, for an MoE model, one of its experts' over their edp group. */
static double gather_at_once(st_step_ctx *x, const step_plan *p)
{
    double most = 0, experts = 0;
    for (int64_t s = 0; s < p->pp; s++) {
        double params = 0, e = 0;
        for (int64_t c = s; c < p->chunks; c += p->pp) {
            params += chunk_params(p, c);
            e += (double)(chunk_layers(p, c) - chunk_dense(p, c) + chunk_mtp(p, c)) *
                 p->expert_params;
        }
        if (params > most) {
            most = params;
            experts = e;
        }
    }
    double t = st__step_coll_time(x, ST_COLL_ALL_GATHER, p->dp * p->cp, p->tp, p->tp, 1,
                                  (most - experts) * param_bytes(p));
    if (experts > 0) {
        int64_t emp = p->emp > 1 ? p->emp : 1;
        t += st__step_coll_time(x, ST_COLL_ALL_GATHER, p->edp, emp, emp, 1,
                                experts * param_bytes(p));
    }
    return t;
}

/* How late stage s's first forward runs behind the simulated schedule when its weight
 * gathers, a bucket per layer (layer_t[1] a dense layer's, [0] the other kind's) and one per
 * edge layer (edge_t), run back to back from t0. */
static double stage_gather_late(const step_plan *p, const st_pipe_result *pr, int64_t s, double t0,
                                const double layer_t[2], double edge_t)
{
    double all = 0;
    for (int64_t c = s; c < p->chunks; c += p->pp) {
        double nd = (double)chunk_dense(p, c);
        all += ((double)chunk_layers(p, c) - nd + (double)chunk_mtp(p, c)) * layer_t[0] +
               ((c == 0) + (c == p->chunks - 1 && output_apart(p))) * edge_t;
        if (nd > 0)
            all += nd * layer_t[1];
    }
    /* The gathers run back to back from t0 until t0 + all; each unit's forward waits for its
     * bucket and runs slowed while they last. */
    gather_walk g = {.t = t0,
                     .late = 0,
                     .end = t0 + all,
                     .slowdown = st_gpu_overlap_slowdown(p->gpu, p->w->precision)};
    double pd = layer_fwd_s(p, 1), pm = layer_fwd_s(p, 0);
    for (int64_t c = s; c < p->chunks; c += p->pp) {
        double need = pr->first_fwd_start[c];
        if (c == 0) {
            gather_unit(&g, edge_t, need, p->embed_f);
            need += p->embed_f;
        }
        /* The chunk's layers in order, its dense ones first, each due when the ones before it
         * have run. */
        int64_t nd = chunk_dense(p, c), n = chunk_layers(p, c);
        for (int64_t k = 0; k < n; k++) {
            int d = k < nd;
            double due = d ? need + (double)k * pd : need + (double)nd * pd + (double)(k - nd) * pm;
            gather_unit(&g, layer_t[d], due, d ? pd : pm);
        }
        double after = need + (double)nd * pd + (double)(n - nd) * pm;
        for (int64_t k = 0; k < chunk_mtp(p, c); k++) /* the MTP modules' layers, in turn */
            gather_unit(&g, layer_t[0], after + (double)k * pm, pm);
        if (c == p->chunks - 1 && output_apart(p))
            gather_unit(&g, edge_t, after + (double)chunk_mtp(p, c) * pm, 0);
    }
    return g.late;
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
double st__step_param_gather_s(st_step_ctx *x, const step_plan *p, const st_pipe_result *pr)
{
    if (!has_dp_reduce(p) || p->w->parallel.zero < 1 || p->w->parallel.zero >= 3)
        return 0;
    int64_t n = p->dp * p->cp;
    if (!p->w->parallel.overlap_param_gather)
        return gather_at_once(x, p);
    double layer_t[2] = {layer_dp_coll(x, p, ST_COLL_ALL_GATHER, param_bytes(p), 0),
                         p->dense > 0 ? layer_dp_coll(x, p, ST_COLL_ALL_GATHER, param_bytes(p), 1)
                                      : 0};
    double edge_t = st__step_coll_time(x, ST_COLL_ALL_GATHER, n, p->tp, p->tp, 1,
                                       p->embed_params * param_bytes(p));
    /* Aligned: every stage dispatches at the step's start. Otherwise each stage's first
     * pre-hook dispatches when its first forward is due, so in the warm-up each stage adds its
     * own late first buckets to the delay the stages before it passed on. */
    int aligned = p->v > 1 || p->pp == 1;
    double total = 0;
    for (int64_t s = 0; s < p->pp; s++) {
        double late =
            stage_gather_late(p, pr, s, aligned ? 0 : pr->first_fwd_start[s], layer_t, edge_t);
        total = aligned ? fmax(total, late) : total + late;
    }
    return total;
}

/* Tied embeddings on a pipeline: the first stage's input embedding and the last stage's output
 * layer are one weight, so after the backward their gradients are all-reduced between the two
 * stages (Megatron-LM's _allreduce_embedding_grads in finalize_model_grads, after the
 * data-parallel reduction; DeepSpeed's ReduceTiedGrads), every replica and TP rank at once,
 * before the optimizer can step. Nothing overlaps it. */
double st__step_embedding_sync_s(st_step_ctx *x, const step_plan *p)
{
    /* ... and so are the input embedding and the copy MTP modules share on the last stage
     * (Megatron-Core treats it as a shared embedding) */
    if (p->pp < 2 || (!p->w->model->tied_embeddings && p->mtp <= 0))
        return 0;
    int64_t stage = p->tp * p->cp * p->dp;
    return st__step_coll_time(x, ST_COLL_ALL_REDUCE, 2, (p->pp - 1) * stage, stage, 1,
                              p->embed_params * grad_bytes(p));
}
