/* Shared between the step model's files: the context, one plan's numbers, the collective
 * pattern times and the data-parallel timelines. Internal to models/step/. */
#ifndef ST_MODELS_STEP_STEP_INTERNAL_H
#define ST_MODELS_STEP_STEP_INTERNAL_H

#include "models/fabric/collective.h"
#include "models/fabric/fabsim.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/step/coll_memo.h"
#include "models/step/pipeline.h"
#include "models/step/shape_trace.h"
#include "models/step/step.h"

/* One GPU list a step context has been placed on: rank r on gpus[r]; and the neighbours'
 * traffic beside it (st_step_ctx_place_beside): n_bg flows bg[2i] -> bg[2i + 1]. */
typedef struct st__step_map {
    int64_t *gpus, n;
    int64_t *bg;
    size_t n_bg;
    uint64_t hash; /* of gpus and bg (step_place.c), for the index */
} st__step_map;

struct st_step_ctx {
    const st_cluster_cfg *c;
    st_topo *topo;
    st_coll_memo *memo;       /* pattern times simulated so far on topo */
    st__shape_traces *traces; /* max-min solves of the patterns run on topo, by shape, but for
                                 those kept in `shared` */
    st_coll_memo *closed;     /* the data-parallel all-reduce's closed form (step.c), by pattern */
    int skip_closed;          /* st_step_ctx_skip_closed_form */
    st_maxmin *spare;         /* a max-min solver on topo between pattern runs (st_maxmin_reset) */
    double *sums;             /* zeros, one per link of topo, between pattern runs
                                 (st_net_keep_routes_in) */
    st_mm_trace *rec;         /* pattern_time.c's scratch recording, or NULL before the first */
    st_step_memo *shared;     /* borrowed: where the unplaced ones go instead, or NULL */
    st_fabsim *planner;       /* an idle fabric on topo for st_coll_plan_of; made on first use */
    /* A collective runner on topo without a net, for answering a pattern from its shape's first
     * instant (pattern_time.c), made on first use, and the latencies of the instant's transfers. */
    st_coll *dry;
    st_time *lat;
    size_t lat_cap;
    /* Where the job's ranks are (st_step_ctx_place): place 0, rank r on GPU r; else rank r on
     * maps[place - 1].gpus[r]. Each distinct list is kept once, so the memo's keys stay exact. */
    int64_t place;
    st__step_map *maps;
    size_t n_maps, cap_maps;
    size_t *map_at; /* open addressing over maps by hash: index + 1, 0 empty; n_at a power of 2 */
    size_t n_at;
};

/* The class of fabric and GPU of a pattern over GPUs 0 .. gpus-1 of context x in x->shared
 * (step_memo.c): 1 + the index of its (st_topo_sig_of, GPU) pair, the same for every context
 * whose fabric routes those GPUs alike; the memo's key then names it in `fabric`. */
int64_t st__step_memo_class(st_step_ctx *x, int64_t gpus);
st_coll_memo *st__step_memo_times(st_step_memo *m);
/* The max-min solver a context freed into m (reset, on that context's fabric), taken, or NULL;
 * and a context's spare solver given back (kept when m holds none, else freed). A sizing search
 * opens a context on every GPU count: one solver rebased onto each fabric in turn
 * (st_maxmin_rebase) costs its links, where a new one allocates and first touches 10^5 links'
 * worth of memory. */
st_maxmin *st__step_memo_take_spare(st_step_memo *m);
void st__step_memo_give_spare(st_step_memo *m, st_maxmin *s);
/* The recordings of m's patterns, by shape with the class: a class's fabrics route its patterns
 * over the same links but for each level's first id, which recordings name their links by
 * (st_net_trace), so one context's recording serves every context of the class. */
st__shape_traces *st__step_memo_traces(st_step_memo *m);

/* The GPU job rank r is on under the context's current placement. */
static inline int64_t st__step_gpu_of(const st_step_ctx *x, int64_t r)
{
    return x->place ? x->maps[x->place - 1].gpus[r] : r;
}

/* Everything about one plan that the pipeline and the reductions need. */
typedef struct step_plan {
    const st_workload_cfg *w;
    const st_gpu_spec *gpu; /* &gpu_at: the cluster's GPU at the step's clock */
    st_gpu_spec gpu_at;
    int64_t tp, cp, pp, dp, v, mb, m, chunks, layers;
    st_chunk_split split; /* the layers over the chunks */
    st_layer_cost lc;
    double mp_fwd_s, mp_bwd_s; /* TP and CP collectives per layer per micro-batch */
    double embed_f, embed_b, head_f, head_b;
    /* Multi-token prediction (workload mtp_layers, on the last chunk): the modules, their
     * operators besides the layers (fwd, bwd, FLOPs per micro-batch on one GPU, all modules) and
     * their parameters on one GPU, layers included */
    int64_t mtp;
    double mtp_f, mtp_b, mtp_flops, mtp_params;
    double offload_f, offload_b; /* activation offload's exposed copies per micro-batch (step.c) */
    double straggle;             /* the slowest GPU's compute clock is the mean GPU's over straggle
                                    (cluster.variability); 1 without a spread */
    double mean_clock;           /* the clock share the mean GPU runs at (gpu_at.clock without the
                                    straggle) */
    double p2p_s;                /* one send between stages */
    double p2p_block;     /* with blocking sends, what each chunk's forward and backward wait */
    double layer_params;  /* one layer's parameters on one GPU (after TP, and EP for experts) */
    double expert_params; /* of those, the experts' (experts / ep of them, each split over etp);
                             0 for dense models */
    double ep_a2a_s;      /* one expert-parallel all-to-all of one layer; 0 without EP */
    int64_t edp;          /* the expert-data-parallel degree tp*cp*dp / (ep etp) */
    int64_t emp;          /* the expert-model-parallel ranks ep x etp: edp's ranks are emp apart */
    double embed_params;  /* the embedding's (or output layer's) on one GPU */
    /* An MoE model's dense first layers (0 otherwise: a dense model's layers are all of the
     * one kind lc describes): how many, one's cost, its TP and CP collectives per micro-batch
     * and its parameters on one GPU (over tp). */
    int64_t dense;
    st_layer_cost lcd;
    double mpd_fwd_s, mpd_bwd_s, dense_params;
} step_plan;

/* Chunk c's layers and its first global layer (models/silicon/parallel.h, st_chunk_split). */
static inline int64_t chunk_layers(const step_plan *p, int64_t c)
{
    return st_chunk_layers(&p->split, c);
}

static inline int64_t chunk_first_layer(const step_plan *p, int64_t c)
{
    return st_chunk_first_layer(&p->split, c);
}

/* Of chunk c's layers, the dense ones (the model's first p->dense layers). */
static inline int64_t chunk_dense(const step_plan *p, int64_t c)
{
    int64_t d = p->dense - chunk_first_layer(p, c), n = chunk_layers(p, c);
    return d < 0 ? 0 : d > n ? n : d;
}

/* Whether layer k (from 0) of chunk c is dense. */
static inline int layer_is_dense(const step_plan *p, int64_t c, int64_t k)
{
    return k < chunk_dense(p, c);
}

/* One layer's forward, and backward with recomputation, of one micro-batch, model-parallel
 * collectives included: a dense one's (dense != 0) or an MoE/the model's kind's. */
static inline double layer_fwd_s(const step_plan *p, int dense)
{
    return dense ? p->lcd.fwd_s + p->mpd_fwd_s : p->lc.fwd_s + p->mp_fwd_s;
}

static inline double layer_bwd_s(const step_plan *p, int dense)
{
    return dense ? p->lcd.bwd_s + p->lcd.recompute_s + p->mpd_bwd_s
                 : p->lc.bwd_s + p->lc.recompute_s + p->mp_bwd_s;
}

/* One layer's parameters on one GPU, and of those the experts', by kind. */
static inline double layer_params_of(const step_plan *p, int dense)
{
    return dense ? p->dense_params : p->layer_params;
}

static inline double layer_experts_of(const step_plan *p, int dense)
{
    return dense ? 0.0 : p->expert_params;
}

/* Whether the output layer's weights are held apart from the embedding's: always on a last
 * chunk that is not the first (tied embeddings keep a copy there, as Megatron does), and on a
 * single chunk when the model does not tie them. */
static inline int output_apart(const step_plan *p)
{
    return p->chunks > 1 || !p->w->model->tied_embeddings;
}

/* Chunk c's parameters on one GPU: its layers, the embedding on the first chunk and the output
 * layer on the last. */
/* The multi-token prediction modules on chunk c: all on the last chunk, after its layers. */
static inline int64_t chunk_mtp(const step_plan *p, int64_t c)
{
    return c == p->chunks - 1 ? p->mtp : 0;
}

static inline double chunk_params(const step_plan *p, int64_t c)
{
    double nd = (double)chunk_dense(p, c);
    double n = ((double)chunk_layers(p, c) - nd) * p->layer_params;
    if (nd > 0)
        n += nd * p->dense_params;
    if (c == 0)
        n += p->embed_params;
    if (c == p->chunks - 1 && output_apart(p))
        n += p->embed_params;
    if (c == p->chunks - 1)
        n += p->mtp_params;
    return n;
}

/* Bytes per parameter of the gradients reduced over data parallelism: fp32 (Megatron-LM
 * all-reduces a bf16 model's gradients in fp32) unless the plan says grad_reduce: bf16. */
static inline double grad_bytes(const step_plan *p)
{
    return p->w->parallel.grad_bf16 ? 2.0 : 4.0;
}

/* The time of `groups` copies of op over n ranks each (rank i of group g on GPU g * gstride +
 * i * stride), all started together on an idle fabric, each rank moving `bytes`: simulated the
 * first time the context sees the pattern, remembered after that. 0 when n < 2 or bytes <= 0.
 * A pattern the collective runner refuses is an ST_BUG (plans are checked before). */
double st__step_coll_time(st_step_ctx *x, st_coll_op op, int64_t n, int64_t stride, int64_t groups,
                          int64_t gstride, double bytes);

/* ZeRO-3's passes of chunk c (dp_timeline.c): writes its forward and backward times of one
 * micro-batch, kernels and model-parallel collectives included, and the ZeRO-3 collectives' own
 * time to *comm; returns what the gathers and reduce-scatters add to the passes. */
double st__step_zero3_passes(st_step_ctx *x, const step_plan *p, int64_t c, double *fwd,
                             double *bwd, double *comm);

/* When stage s's gradient reduction ends after the pipeline run pr, with bwd the chunks'
 * backward times; *compute_end is when its last backward ends once the slowdown of the
 * reductions beside it is counted. 0 (and *compute_end the pipeline's) without data-parallel
 * reduction or under ZeRO-3. */
double st__step_stage_reduce_end(st_step_ctx *x, const step_plan *p, const st_pipe_result *pr,
                                 const double *bwd, int64_t s, double *compute_end);

/* The exposed time of the distributed optimizer's weight all-gather after the step (ZeRO 1 and
 * 2 with dp x cp > 1), else 0. */
double st__step_param_gather_s(st_step_ctx *x, const step_plan *p, const st_pipe_result *pr);

/* The all-reduce of tied embedding gradients between the first and last stages, else 0. */
double st__step_embedding_sync_s(st_step_ctx *x, const step_plan *p);

/* What system noise adds to the step of plan p on cluster c (step_noise.c): the stretches of
 * the busiest stage's work between its model-parallel collectives, each ended by the slowest of
 * the ranks that wait for each other there, and the step by the slowest of all (out->b, its
 * breakdown without the noise, read; out->noise written). 0 without noise. */
double st__step_noise_s(const step_plan *p, const st_cluster_cfg *c, int64_t busiest,
                        st_step_result *out);

#endif
