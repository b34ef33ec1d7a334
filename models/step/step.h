/* The step-level model: one training step of one workload, simulated. The operator graph gives
 * each layer's compute time (models/silicon/ops.h), the collective model times tensor-parallel,
 * pipeline and data-parallel traffic on the cluster's fabric (models/fabric/collective.h), and the
 * pipeline schedule is run on the engine (models/step/pipeline.h); step time, MFU and the breakdown
 * come out of that run. docs/models/step-model.md has the equations and sources. */
#ifndef ST_MODELS_STEP_STEP_H
#define ST_MODELS_STEP_STEP_H

#include "models/config/config.h"
#include "models/fabric/collective.h"
#include "models/step/pipeline.h"
#include "sim/err.h"

/* Where a step's time goes, on the busiest pipeline stage; the parts add up to the step. */
typedef struct st_step_breakdown {
    double compute_s;         /* forward, backward and recomputation kernels */
    double tp_comm_s;         /* tensor-parallel collectives (not overlapped, as Megatron's
                                 default) */
    double pp_comm_s;         /* pipeline sends the schedule could not hide */
    double dp_comm_exposed_s; /* data-parallel traffic not hidden: gradient reduction left
                                 over after the last backward, the ZeRO 1-2 weight all-gather,
                                 and ZeRO-3's gathers and reduce-scatters */
    double bubble_s;          /* pipeline idle time */
    double optimizer_s;       /* the optimizer step */
    double straggler_s;       /* the other GPUs' wait for the slowest one's kernels
                                 (cluster.variability); 0 without a spread */
    double noise_s;           /* the step's wait for ranks detoured by system noise
                                 (cluster.variability.noise or the delivery model's); 0
                                 without noise */
    double overhead_s;        /* appended: the cluster's own per-step overhead its calibration
                                 fitted (cluster.calibration.step_overhead); 0 without */
} st_step_breakdown;

typedef struct st_step_result {
    int64_t microbatch;     /* sequences per micro-batch */
    int64_t micro_per_step; /* micro-batches per pipeline per step */
    double step_time_s;
    double mfu, hfu;       /* fractions of the dense peak (PaLM definition; HFU counts
                              recomputation) */
    double tflops_per_gpu; /* model FLOP/s per GPU, in TFLOP/s (the MFU numerator) */
    double tokens_per_s;
    st_step_breakdown b;
    /* Where system noise met the step (noise_s > 0; docs/models/stragglers.md, --explain): its
     * stretches of tau_s of the busiest stage's work, each ended by a collective over `group`
     * ranks of the `groups` such groups, the loss every group has at its own collectives
     * (mean_s) and the slowest group's beyond that (spread_s). */
    struct {
        int64_t stretches, group, groups;
        double tau_s, mean_s, spread_s;
    } noise;
    /* The closed form of the enterprise AI-infrastructure guide the project follows, T_step =
     * T_compute + T_comm - T_overlap with T_compute = FLOPs / (N * peak * MFU_ref): here with the
     * simulated compute and communication times summed and no overlap, beside the simulation
     * (--explain). NAN from a context told to skip it (st_step_ctx_skip_closed_form). */
    double closed_form_s;
} st_step_result;

typedef struct st_step_ctx st_step_ctx;

/* A context for stepping workloads on cluster c (borrowed; must outlive the context): builds the
 * fabric once and memoises collective times across calls, so a plan search pays for each
 * distinct collective once. Returns 0 or the topology's error. */
int st_step_ctx_new(const st_cluster_cfg *c, st_step_ctx **out, st_err *err);
void st_step_ctx_free(st_step_ctx *x);

/* Collective-pattern times that step contexts share: those on clusters that differ in their node
 * count, fabric or GPU (a sizing search's GPU counts and hardware variants) ask for many of the
 * same patterns, and a pattern over GPUs that two fabrics route alike (st_topo_sig_of) between
 * GPUs that run collectives alike (st_coll_gpu_same) runs the same on both, bit for bit, so it is
 * simulated once for all of them. Never returns NULL;
 * st_step_memo_free(NULL) is a no-op; free it after every context using it. */
typedef struct st_step_memo st_step_memo;
st_step_memo *st_step_memo_new(void);
void st_step_memo_free(st_step_memo *m);
/* Patterns simulated into m so far. */
size_t st_step_memo_count(const st_step_memo *m);

/* st_step_ctx_new whose unplaced collective times (st_step_ctx_place) are kept in `shared`
 * (borrowed), beside those of every other context on it; the memo tells their fabrics and GPUs
 * apart. Returns 0 or the topology's error. */
int st_step_ctx_new_shared(const st_cluster_cfg *c, st_step_memo *shared, st_step_ctx **out,
                           st_err *err);

/* The topology x times its collectives on, built from its cluster (borrowed: it lives as long
 * as x), for a caller that needs the same fabric without building it again. */
const st_topo *st_step_ctx_topo(const st_step_ctx *x);

/* The following runs of x leave the closed-form step (st_step_result.closed_form_s, the
 * explain figure) NAN instead of planning its all-reduce: a search that reports no such figure
 * (the sizing search) saves a tenth of its time. */
void st_step_ctx_skip_closed_form(st_step_ctx *x);

/* Put the following runs' ranks on gpus[0..n) (copied; rank r on gpus[r]), as a placement gave
 * them, so every collective is timed over the GPUs, nodes and leaves the job really holds; NULL
 * (or rank r on GPU r for every r) puts them back on GPUs 0, 1, ..., the placement every run has
 * until then. Collective times stay memoised per distinct GPU list: runs on one list share them,
 * and those of the packed placement are never recomputed. Returns 1 when the ranks are now
 * somewhere else than GPUs 0, 1, ... (a step run may then differ from the unplaced one), else 0. */
int st_step_ctx_place(st_step_ctx *x, const int64_t *gpus, int64_t n);

/* st_step_ctx_place with the neighbours' traffic beside the job: n_bg flows, flow i from GPU
 * bg[2i] to GPU bg[2i + 1] (copied), that keep sending for as long as each of the job's
 * collective patterns runs, sharing links with it max-min fairly (models/step/pattern_time.c).
 * The memo is keyed by the GPU list and the flows together, so each distinct pair is simulated
 * once; n_bg 0 is st_step_ctx_place. Returns 1 when the runs may differ from the unplaced
 * one. */
int st_step_ctx_place_beside(st_step_ctx *x, const int64_t *gpus, int64_t n, const int64_t *bg,
                             size_t n_bg);

/* Simulate one step of w (a training workload that fits the cluster) with `microbatch`
 * sequences per micro-batch. trace, when not NULL, receives the pipeline's spans. Returns 0, or
 * an error located at the workload (a plan the pipeline cannot run; ST_ELIMIT for a step past
 * the simulated clock's range, when *out is all zero). */
int st_step_run(st_step_ctx *x, const st_workload_cfg *w, int64_t microbatch, st_step_result *out,
                st_pipe_trace *trace, st_err *err);

/* st_step_run with the GPUs at `clock`, a share in (0, 1] of their full sustained clock (a
 * thermal throttle, models/plant/thermal.h): every compute-bound operator takes 1 / clock as
 * long, memory-bound ones and the collectives are unchanged. st_step_run is clock 1. */
int st_step_run_at(st_step_ctx *x, const st_workload_cfg *w, int64_t microbatch, double clock,
                   st_step_result *out, st_pipe_trace *trace, st_err *err);

/* Seconds one all-reduce takes over the context's ranks 0 .. n - 1 (where st_step_ctx_place
 * put them; GPUs 0 .. n - 1 otherwise), each rank reducing `bytes` (nccl-tests' size),
 * simulated on the context's fabric once per distinct (n, bytes) and remembered like every
 * pattern of a step: a serving replica's tensor-parallel reductions (models/serve/serve.h).
 * 0 for n < 2 or no bytes. */
double st_step_allreduce_s(st_step_ctx *x, int64_t n, double bytes);

/* Seconds a pattern of collectives takes on the context's fabric, all its groups at once:
 * `groups` collectives of op, group g over ranks g gstride + i stride for i < n, each rank's
 * `bytes` (nccl-tests' size), simulated once per distinct pattern and remembered as
 * st_step_allreduce_s's: a serving replica's hand-overs between pipeline stages
 * (models/serve/serve.h). 0 for n < 2 or no bytes. */
double st_step_pattern_s(st_step_ctx *x, st_coll_op op, int64_t n, int64_t stride, int64_t groups,
                         int64_t gstride, double bytes);

#endif
