/* The operator graph of one transformer training step on one GPU: each operator's FLOPs, HBM
 * bytes and GEMM shape after tensor, sequence and context parallelism, and its time by roofline
 * (the larger of FLOPs over achieved FLOP/s and bytes over achieved HBM bandwidth), where
 * achieved FLOP/s follows a GEMM efficiency curve over the shape (models/silicon/gemm_eff.c holds
 * its constants; docs/models/step-ops.md the equations, assumptions and sources). */
#ifndef ST_MODELS_SILICON_OPS_H
#define ST_MODELS_SILICON_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"

typedef enum st_op_kind {
    ST_OP_GEMM,  /* a matrix multiplication: m x k times k x n */
    ST_OP_ATTN,  /* fused (FlashAttention-style) attention core: scores, softmax, context */
    ST_OP_MEMORY /* element-wise or normalisation: bound by HBM bytes */
} st_op_kind;

typedef struct st_op {
    const char *name; /* "norm1", "qkv", "rope", "attn", "proj", "bda1", "norm2", "fc1", "act",
                         "fc2", "bda2"; in a mixture-of-experts layer ("shared_fc1",
                         "shared_act", "shared_fc2": shared experts), "router", "permute",
                         ("sort_chunks"), "expert_fc1", "expert_act", "expert_fc2",
                         ("unsort_chunks"), "unpermute" in place of fc1, act and fc2; edges:
                         "embed", "pos", "embed_norm", "embed_drop",
                         "norm_f", "logits", "xent" */
    st_op_kind kind;
    /* GEMM: the shape on this GPU, m tokens x n outputs, reduced over k inputs.
     * ATTN: m = sequences x local query heads, n = queries per sequence, k = keys per sequence.
     * MEMORY: 0. */
    double m, n, k;
    double flops;      /* model FLOPs on this GPU (MFU convention: causal attention counted whole;
                          0 for memory operators); an MoE layer's expert operators, flops and
                          bytes, are the most loaded EP rank's (st_moe_imbalance) */
    double bytes;      /* minimum HBM traffic on this GPU */
    double time_s;     /* forward roofline time on the workload's GPU and precision */
    int mem_bound;     /* 1 when the bytes term set time_s */
    int attn_core;     /* part of the attention core (what selective recomputation repeats) */
    int attn_kernel;   /* ATTN: the workload's st_attention (which fused kernel's sweep) */
    st_precision prec; /* GEMM input precision: the workload's for linear layers, BF16 for the
                          logits (Transformer Engine keeps the output layer in BF16) and for
                          the attention core */
    /* FP8 linear layers: the HBM bytes that quantising the input (forward) and the output
     * gradient (backward) adds to the BF16 graph, timed with the GEMM (in time_s and in
     * st_ops_backward_time) but not counted in bytes. Negative where the norm writes FP8 itself
     * and saves more than the quantisation costs. 0 otherwise. */
    double quant_fwd_bytes, quant_bwd_bytes;
    /* ... and the kernels those casts run apart from their neighbours, each paying a kernel
     * boundary (st_kernel_boundary_s): 0 where they fuse (a norm writing FP8, a service). */
    double quant_fwd_kernels, quant_bwd_kernels;
    /* Appended. GEMM: how many GEMMs of shape m x n x k the operator runs (the experts on this
     * GPU of a grouped expert GEMM), each timed by the tile model at that shape; flops, bytes
     * and the quantisation bytes are the totals. 0 counts as 1. */
    double count;
    /* Appended. ATTN of a sliding-window model: the share of layers with a window (0 = none),
     * the keys at which a windowed layer reads its sweep (a query block's, min(s, W + 128):
     * st__attn_window_sweep_keys), and
     * the forward work (FLOPs the kernel does) of a windowed and of a full layer's core. The
     * operator times the mean of a windowed and a full layer, weighted by win_share; flops is
     * that mean too. */
    double win_share, win_keys, win_work, full_work;
    /* Appended. ATTN: the workload's cuDNN release (cudnn_release; 0: the newest), which picks
     * an older cuDNN sweep (st_attn_efficiency_at) */
    int attn_release;
    /* Appended. GEMM with count > 1: 1 when the GEMMs run as one fused grouped kernel (a serving
     * engine's MoE kernel: vLLM's fused_moe, TensorRT-LLM's CUTLASS MoE), their tiles filling
     * the waves together (st_gemm_grouped_efficiency); 0 when each runs its own waves, one
     * after another (Megatron-Core's grouped MLP in training). */
    int fused_group;
    /* Appended. ATTN: a query head's width, the mean of its query/key and value dims ((da + dv)
     * / (2 heads)): the sweeps are of head dim 128, and a narrower head does less matrix work
     * per score for the same softmax (st_attn_head_dim_share). Every ATTN operator sets it. */
    double head_dim;
    /* Appended. GEMM: bytes of one weight element (the k x n operand) where they are stored
     * apart from the inputs (a served mixture of experts' expert_weights: MXFP4 weights under
     * BF16 or FP8 MMAs); 0: the same width as the inputs, st_ops_in_bytes of prec. */
    double weight_bytes;
    /* Appended. GEMM with weight_bytes: 1 when its kernel widens the weights to the MMA's input
     * format in its main loop, the GPU having no MMA that takes the two formats together
     * (st_ops_widens): its compute runs at st_gemm_widen_efficiency of the tile model's rate. */
    int widen;
    /* Appended. MEMORY run as a chain of kernels (a mixture of experts' eager permutation and
     * router, kernels: {permute: eager, router: eager}): the HBM bytes of its backward where they
     * are not B.bwd times the forward's (0: that convention), and the kernels beyond the first
     * that the forward and the backward run, each paying a kernel boundary
     * (st_kernel_boundary_s). 0 for every other operator. */
    double bwd_bytes, extra_kernels_fwd, extra_kernels_bwd;
} st_op;

/* Times of one transformer layer for one micro-batch on one GPU, and the tensor-parallel traffic
 * it causes. Backward counts data and weight gradients (each GEMM twice, as dgrad and wgrad,
 * each timed at its own shape); recompute is the extra forward work that the workload's
 * recompute setting adds to backward: the attention core or the named modules (selective) or
 * the whole layer forward (full). FLOPs are model FLOPs: bwd_flops = 2 x fwd_flops. */
/* Transformer Engine's TP communication overlap (parallel.tp_comm_overlap): how userbuffers runs
 * one tensor-parallel collective beside a GEMM (transformer_engine/pytorch/module/base.py,
 * initialize_ub, its default methods). */
typedef enum st_tp_method {
    ST_TP_RING,     /* ring exchange: the all-gather as tp - 1 peer sends on the copy engines,
                       the GEMM as tp pieces along the tokens, each beside the next send */
    ST_TP_PIPELINE, /* pipeline: the GEMM as 4 pieces, each piece's reduce-scatter beside the
                       next piece, on 16 SMs the GEMM does not use */
    ST_TP_BULK      /* bulk: the collective whole beside an independent GEMM, on 16 SMs */
} st_tp_method;

/* One GEMM's userbuffers setting (Transformer Engine's ub_cfgs entry, as NeMo's
 * TransformerLayerTPOverlapCfg states it; models/silicon/ub_cfg.h): the method, the SMs its
 * communication kernel holds (num_sm, in clusters of 2 for pipeline and bulk) and whether the
 * GEMM is launched on the SMs left (set_sm_margin). */
typedef struct st_ub_gemm {
    st_tp_method method;
    int sms;
    int margin;
    int aggregate; /* ring exchange: two pieces a step, tp / 2 pieces (TE's aggregate) */
} st_ub_gemm;

typedef struct st_tp_hide {
    st_tp_method method;
    int ag;         /* 1: an all-gather; 0: a reduce-scatter */
    int splits;     /* pieces the GEMM runs in: tp (ring exchange; tp / 2 aggregated from tp 4),
                       4 (pipeline), 1 (bulk) */
    double gemm_s;  /* the GEMM alone and whole, as counted in fwd_s or bwd_s */
    double split_s; /* the same GEMM run as its pieces, summed */
    double slow;    /* how much longer the GEMM runs beside the communication
                       (st_gpu_ub_slowdown of its setting) */
} st_tp_hide;

/* A layer's TP pairs (the attention's, the dense MLP's or the shared experts'): 2 at most, each
 * with 2 collectives forward and 3 backward under sequence parallelism. */
#define ST_TP_HIDE_FWD 4
#define ST_TP_HIDE_BWD 6

typedef struct st_layer_cost {
    double fwd_s, bwd_s, recompute_s;
    double fwd_flops, bwd_flops, recompute_flops;
    /* TP collectives per layer per micro-batch, each moving tp_bytes per rank (the full
     * activation s*b*h*2 bytes / cp): all-reduces without sequence parallelism (2 forward, 2
     * backward); all-gathers and reduce-scatters with it (4 forward; 6 backward, the
     * column-parallel inputs being gathered again for the weight gradients); shared experts
     * add their MLP's (1 and 1, or 2 and 3). 0 when tp = 1. tp_colls_recompute: the forward's
     * again under full recompute, a dense MLP's or the shared experts' forward pair under
     * selective recompute of those modules (parallel.recompute_modules). */
    int tp_colls_fwd, tp_colls_bwd, tp_colls_recompute;
    double tp_bytes;
    /* Of those, the all-gathers (sequence parallelism: 2 forward, 4 backward; shared experts
     * 1 and 2 more), each moving
     * tp_ag_bytes: half of tp_bytes under FP8, which Transformer Engine gathers already
     * quantised. */
    int tp_ag_fwd, tp_ag_bwd;
    int tp_ag_recompute; /* of tp_colls_recompute, the all-gathers */
    double tp_ag_bytes;
    /* Mixture-of-experts layers with ep > 1: the token dispatcher's all-to-alls over the ep
     * ranks, each moving ep_a2a_bytes per rank (k T_m h in BF16, the nccl-tests "size" of the
     * send buffer): a dispatch and a combine forward, their two gradients backward, the
     * forward's two again under full recompute. 0 otherwise. */
    int ep_a2a_fwd, ep_a2a_bwd, ep_a2a_recompute;
    double ep_a2a_bytes;
    /* The dispatcher (ST_DISP_*): with DeepEP or HybridEP ep_a2a_bytes are the rows each rank
     * receives, one per token and rank (models/silicon/dispatch.h), timed at their measured
     * bandwidth instead of simulated; with allgather the size of its all-gather and of its
     * reduce-scatter, every rank's T_m h in BF16 (each pass one of each, in place of the two
     * all-to-alls) */
    int ep_flex;
    /* Expert tensor parallelism (etp > 1): the received rows all-gathered over the etp ranks
     * before the experts and the outputs reduce-scattered after (forward; backward their
     * gradients; full recompute the forward's again), each etp_bytes (the all-gather's output
     * and the reduce-scatter's input). 0 otherwise. */
    int etp_colls_fwd, etp_colls_bwd, etp_colls_recompute;
    double etp_bytes;
    /* With sequence parallelism and tp > 1: each TP collective of the layer with the GEMM
     * Transformer Engine's overlap pairs it with (qkv and fc1 forward: their input's all-gather
     * by ring exchange; proj and fc2 forward: their output's reduce-scatter by pipeline; proj
     * and fc2 dgrad: the output gradient's all-gather by ring exchange; qkv and fc1 dgrad: the
     * input's re-gather, bulk; qkv and fc1 wgrad: the input gradient's reduce-scatter, bulk), in
     * the layer's collective counts (tp_colls_fwd, tp_colls_bwd). Filled only under
     * parallel.tp_comm_overlap (none otherwise). */
    st_tp_hide hide_fwd[ST_TP_HIDE_FWD], hide_bwd[ST_TP_HIDE_BWD];
    int n_hide_fwd, n_hide_bwd;
    /* The attention core's kernels (in fwd_s and bwd_s): what context parallelism's ring
     * exchange runs beside (parallel.cp_comm_overlap). */
    double attn_fwd_s, attn_bwd_s;
    /* Of fwd_s and bwd_s, the MLP side's (norm2 to the end: an MoE layer's router, dispatch
     * permutations, experts and shared experts): what the combined 1F1B schedule pairs with the
     * other micro-batch's EP all-to-alls (parallel.ep_comm_overlap). */
    double mlp_fwd_s, mlp_bwd_s;
} st_layer_cost;

/* The forward operators of one layer for `microbatch` sequences (below 1 counts as 1) on one
 * GPU of workload w on gpu, into ops[0..cap); returns how many there are (at most ST_OPS_MAX),
 * writing no more than cap. Degrees below 1 count as 1. */
#define ST_OPS_MAX 32
size_t st_ops_layer_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap);

/* The same for a layer of one kind: dense != 0, one of an MoE model's first dense_layers (the
 * dense MLP's fc1, act, fc2 of width ffn_hidden); dense 0, the model's MoE kind (what
 * st_ops_layer_forward builds). A dense model has one kind: both are its layer. */
size_t st_ops_layer_forward_kind(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                 int64_t microbatch, int dense, st_op *ops, size_t cap);

/* The forward operators of the first stage's input embedding (lookup, learned positions,
 * embedding norm, dropout, as the model has them) and of the last stage's head (final norm,
 * logits GEMM, cross entropy), like st_ops_layer_forward. */
size_t st_ops_embed_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            st_op *ops, size_t cap);
size_t st_ops_head_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                           st_op *ops, size_t cap);

/* The forward operators of one multi-token prediction module besides its transformer layer
 * (workload mtp_layers): the shifted tokens' embedding lookup, two norms, the 2h -> h
 * projection and the shared output head with its loss (models/silicon/ops.c). */
size_t st_ops_mtp_forward(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                          st_op *ops, size_t cap);

/* Their forward and backward time for one micro-batch on one GPU, and their FLOPs (forward and
 * backward) on it. */
void st_ops_mtp_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                     double *fwd_s, double *bwd_s, double *flops);

/* Backward time of one forward operator: GEMMs as dgrad plus wgrad, the attention core as
 * FlashAttention's backward kernel, memory operators at twice the bytes. */
double st_ops_backward_time(const st_workload_cfg *w, const st_gpu_spec *gpu, const st_op *op);

/* Under recompute: op (torchtitan's per-op selective activation checkpointing), whether the
 * attention core's output is saved for backward (1) or recomputed with the rest (0): its
 * _save_list holds PyTorch's flash and memory-efficient SDPA ops but not cuDNN's or the math
 * one, so cuDNN's kernel (attention: cudnn, or flash on Blackwell) and the unfused core are
 * recomputed. gpu may be NULL (then flash counts as a FlashAttention kernel). */
int st_ops_sac_saves_attention(const st_workload_cfg *w, const st_gpu_spec *gpu);

/* Of one layer's forward operator op, the share (0 to 1) that recompute: op runs again in
 * backward: every operator outside torchtitan's _save_list and every second matrix
 * multiplication (docs/models/step-ops.md, "Backward and recompute"). */
double st_ops_sac_recompute_share(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                  const st_op *op);

/* One layer's cost (sum over its operators), of the model's MoE kind (a dense model: its
 * layer). */
void st_ops_layer_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                       st_layer_cost *out);

/* The same of a layer of one kind (dense as st_ops_layer_forward_kind): a dense layer has the
 * dense MLP's tensor-parallel collectives and no expert-parallel all-to-alls. */
void st_ops_layer_cost_kind(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                            int dense, st_layer_cost *out);

/* Forward and backward time of the input embedding (first stage) and of the output layer with
 * its loss (last stage), for one micro-batch on one GPU. */
void st_ops_edge_cost(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t microbatch,
                      double *embed_fwd_s, double *embed_bwd_s, double *head_fwd_s,
                      double *head_bwd_s);

/* The optimizer step on one GPU: mixed-precision Adam reading and writing its share of fp32
 * gradients, master weights and moments and the bf16 weights once (memory-bound), under the
 * workload's ZeRO stage (1 and up shard it over dp x cp ranks), then the memset that zeroes the
 * GPU's gradient buffer for the next step. The share is the parameters
 * of the most loaded pipeline stage's GPU (models/silicon/parallel.h). */
double st_ops_optimizer_time(const st_workload_cfg *w, const st_gpu_spec *gpu);

/* With grad_accum: separate, the pass that adds one micro-batch's bf16 weight gradients into
 * the fp32 accumulator, for `params` parameters on one GPU; 0 with the fused default. */
double st_ops_grad_accum_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double params);

/* Bytes the optimizer step moves per parameter it updates (docs/models/step-ops.md). */
double st_ops_optimizer_bytes_per_param(void);

/* The routing imbalance of workload w's MoE layers: the most loaded expert-parallel rank's
 * routed rows over the mean, which its expert GEMMs, its post-dispatch sorts and the
 * all-to-alls it waits for scale by (the layer ends when that rank does). The scenario's
 * routing_imbalance, else the preset default; 1 for a dense model. docs/models/step-ops.md,
 * "Routing imbalance". */
double st_moe_imbalance(const st_workload_cfg *w);

/* The routing's part of it, before any token dropping (capacity_factor): the scenario's
 * routing_imbalance, else the preset default; 1 for a dense model or ep 1. */
double st_moe_routing(const st_workload_cfg *w);

/* ---- Serving: an inference iteration's attention (models/silicon/ops_serve.c) ---- */

/* The attention core of one request of an inference iteration on one GPU of workload w (its tp
 * and attention kernel), forward only: `queries` new tokens (a prompt, or a chunk of one)
 * attending causally among themselves and to `past` tokens already in its KV cache. Timed like
 * the training core: the fused kernel's sweep at past + queries keys, against its HBM bytes. */
double st_ops_attn_prefill_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double queries,
                                double past);

/* The same core on a sliding-window layer: each query sees at most the `window` most recent
 * keys, itself included (st_llm_spec.sliding_window), so the chunk's work is its query-key
 * pairs within the window and it reads its own keys and the window - 1 before it. Without a
 * query past the window it is st_ops_attn_prefill_time. */
double st_ops_attn_prefill_window_time(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                       double queries, double past, double window);

/* What a decode step's bytes depend on, of w's shape: a serving engine's iterations time
 * thousands of steps of one shape (st_ops_attn_decode_time_of). */
typedef struct st_ops_decode {
    double elem, qo, heads; /* a cached element's bytes; Q + O width; heads */
    double kvw;   /* elements cached per token: K and V (2 x the K width), or MLA's latent and
                     rotary key */
    double flops; /* per cached token read, MLA's absorbed attention over its heads; 0: none
                     counted (ordinary attention, bound by the cache's bytes) */
} st_ops_decode;
void st_ops_attn_decode_of(const st_workload_cfg *w, st_ops_decode *out);
double st_ops_attn_decode_time_of(const st_ops_decode *d, const st_gpu_spec *gpu, double seqs,
                                  double keys);

/* One decode step of `seqs` requests on one GPU of w, each one query against its own cached
 * tokens, `keys` of them over all the requests: the K and V cache read once, bound by HBM.
 * st_ops_attn_decode_time_of of st_ops_attn_decode_of(w). */
double st_ops_attn_decode_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double seqs,
                               double keys);

/* Bytes of KV cache one token takes on one GPU of w: K and V of every layer, the GPU's KV
 * groups (grouped-query attention splits them over tp; fewer groups than ranks: one each), or
 * under multi-head latent attention its latent and rotary key, whole on every rank; in BF16 or,
 * under kv_cache_dtype: fp8, FP8. */
double st_ops_kv_bytes_per_token(const st_workload_cfg *w);

/* ---- The calibrated kernel models (models/silicon/gemm_eff.c) ---- */

/* Achieved fraction of the dense peak for an m x k by k x n GEMM at precision prec on gpu: the
 * calibrated efficiency curve. Never above st_gemm_emax; 0 when a dimension is not positive. */
double st_gemm_efficiency(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k);

/* The same for `count` GEMMs of one shape run as one kernel's tiles (a fused grouped GEMM: a
 * serving engine's MoE kernel), each GEMM's rows padded to whole tiles, the tiles of all of them
 * filling the waves together; count 1 is st_gemm_efficiency. */
double st_gemm_grouped_efficiency(const st_gpu_spec *gpu, st_precision prec, double count, double m,
                                  double n, double k);

/* The share of the tile model's rate a kernel reaches that widens narrower weights to its MMA's
 * input format in the main loop (st_op.widen): MXFP4 experts under BF16 MMAs. */
double st_gemm_widen_efficiency(void);

/* 1 when a GEMM of inputs at prec and weights stored at wprec, narrower, widens the weights:
 * the MMA runs at 16 bits, or the GPU has no MMA for wprec (Blackwell's takes FP8 inputs with
 * FP4 weights; Hopper's no FP4 at all). */
int st_ops_widens(const st_gpu_spec *gpu, st_precision prec, st_precision wprec);

/* The curve's ceiling for gpu and prec: the fraction a tile's main loop reaches. */
double st_gemm_emax(const st_gpu_spec *gpu, st_precision prec);

/* Achieved fraction of the dense peak of the MMAs a multi-head latent attention decode kernel
 * runs on (st_mla_decode_mma; FlashMLA's figure) where its work, not its cache's bytes, bounds
 * it. */
double st_mla_decode_efficiency(const st_gpu_spec *gpu);

/* The precision of the MMAs an MLA decode kernel runs with a cache of kv_bytes bytes an element:
 * FP8 for an FP8 cache on Blackwell (TensorRT-LLM's trtllm-gen), BF16 otherwise (FlashMLA). */
st_precision st_mla_decode_mma(const st_gpu_spec *gpu, double kv_bytes);

/* Achieved fraction of the dense BF16 peak of FlashAttention's forward (backward != 0: its
 * backward) kernel, with seq_k keys per query block's sequence and `blocks` blocks of 128
 * queries (sequences x local heads x ceil(queries / 128)); FLOPs counted as FlashAttention's
 * benchmarks count them (causal halves; backward = 2.5 x forward). */
double st_attn_efficiency(const st_gpu_spec *gpu, int backward, double seq_k, double blocks);
/* As st_attn_efficiency, for a chosen fused kernel (an st_attention value): ST_ATTN_FLASH
 * reads FlashAttention-3's H100 sweep on Hopper and cuDNN's GB200 sweep on Blackwell;
 * ST_ATTN_FLASH2 FlashAttention-2's H100 sweep; ST_ATTN_CUDNN cuDNN 9.19's H200 (Hopper) or
 * GB200 (Blackwell) sweep; each scaled to the GPU like the GEMM curve. On Ampere all three read
 * FlashAttention-2's A100 sweep, the only one published (docs/models/step-ops.md). */
double st_attn_efficiency_of(const st_gpu_spec *gpu, int kernel, int backward, double seq_k,
                             double blocks);
/* As st_attn_efficiency_of, with cuDNN release `release` (100 x major + minor; 0: the newest
 * with a published sweep): a cuDNN sweep is replaced by an older release's where one is
 * published for that release or a newer one up to it (H100 mid-2024, 9.2 and older; B200
 * 9.10.2, 9.10 and older). */
double st_attn_efficiency_at(const st_gpu_spec *gpu, int kernel, int release, int backward,
                             double seq_k, double blocks);

/* The share of the head-dim-128 efficiency (st_attn_efficiency_at) a fused attention kernel
 * keeps at a head dim of `head_dim`: per score element the two matmuls do 4 head_dim FLOPs and
 * the softmax a fixed amount of other work (an exponential, a max, a rescale), so its time goes
 * as head_dim + beta, beta that work in head dims of matmul time, measured per kernel from
 * paired head-dim-64 and 128 sweeps. 1 at 128 and above (wider heads were measured within 6% of
 * 128's: taken as equal). docs/models/step-ops.md, "Head dim". */
double st_attn_head_dim_share(const st_gpu_spec *gpu, int kernel, int release, int backward,
                              double head_dim);

/* Achievable fraction of the datasheet HBM bandwidth (STREAM-like measurement). */
double st_hbm_efficiency(const st_gpu_spec *gpu);

/* Achieved fraction of the datasheet HBM bandwidth of a paged decode attention kernel (GQA or
 * multi-head; one query a sequence): the part's measured kernel where one is published (MI300X),
 * else st_hbm_efficiency. */
double st_decode_attn_efficiency(const st_gpu_spec *gpu);

/* Seconds each kernel takes beyond its roofline among kernels run back to back (the drain, gap
 * and ramp between two; models/silicon/gemm_eff.c): every kernel the operator graph times pays
 * it once. */
double st_kernel_boundary_s(const st_gpu_spec *gpu);

/* Sustained Tensor Core throughput in precision prec as a fraction of burst: the clock and
 * power limits that minutes of dense GEMMs run into (models/silicon/gemm_eff.c; 1 where no
 * measurement exists). Compute-bound operator times divide by it; MFU keeps the datasheet peak.
 * A part whose clock field is in (0, 1) (a thermal throttle) sustains that share of it. */
double st_gpu_sustained(const st_gpu_spec *gpu, st_precision prec);

/* One forward GEMM of m x n reduced over k in precision prec on gpu, as the layer operators
 * time it (its inputs in prec, its output in BF16): what `strata calibrate` compares a user's
 * GEMM timings with. */
double st_ops_gemm_time(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k);

/* Bytes per input element of a GEMM at prec (a linear layer's weights and inputs): 0.5625
 * under FP4 (NVFP4 with its block scales) where the GPU has FP4, 1 under FP8 or FP4 where it
 * has FP8, else 2. */
double st_ops_in_bytes(const st_gpu_spec *gpu, st_precision prec);
/* Bytes one weight element stored at prec takes in HBM whatever the GPU's Tensor Cores (weights
 * kept narrow and widened in the kernel, as Hopper's MXFP4 expert kernels do): 2, 1, NVFP4's
 * half a byte and a one-byte scale per 16 (0.5625), or MXFP4's scale per 32 (0.53125). */
double st_ops_stored_bytes(st_precision prec);

/* The cluster's own Tensor Core throughput in precision prec over the model's, from its
 * calibration (st_gpu_spec.fit_compute; 1 when none was fitted). Compute-bound operator times
 * divide by it. */
double st_gpu_fitted(const st_gpu_spec *gpu, st_precision prec);

/* Give gpu (a copy the caller times on) calibration c's compute factors, where c is enabled. */
void st_gpu_fit(st_gpu_spec *gpu, const st_calib_cfg *c);

/* The copy of gpu a job's kernels are timed on, a training step's and a service's replica's
 * alike: at clock share `clock` (0 or 1: full), slowed to the pace of its slowest GPU
 * (`straggle` >= 1, models/silicon/variability.h), at calibration c's compute factors. */
st_gpu_spec st_gpu_at(const st_gpu_spec *gpu, double clock, double straggle, const st_calib_cfg *c);

/* How much slower compute of precision prec runs while an NCCL collective runs beside it on the
 * same GPU: compute takes 1 + this factor times as long for as long as the two overlap
 * (models/silicon/gemm_eff.c). */
double st_gpu_overlap_slowdown(const st_gpu_spec *gpu, st_precision prec);

/* How much longer a GEMM takes beside Transformer Engine's userbuffers communication set as g
 * states: ring exchange sends on the copy engines with one SM; pipeline and bulk hold g->sms SMs
 * in clusters of 2 and, with g->margin, launch the GEMM on the rest (models/silicon/gemm_eff.c):
 * the GEMM takes 1 + this factor times as long. */
double st_gpu_ub_slowdown(const st_gpu_spec *gpu, st_precision prec, const st_ub_gemm *g);

/* Dense peak FLOP/s of gpu at prec (the catalog's bf16 or fp8 figure; a GPU without FP8
 * Tensor Cores runs FP8 work at its BF16 peak). */
double st_gpu_peak(const st_gpu_spec *gpu, st_precision prec);

/* SMs (CUs) the tile and wave model spreads work over. */
double st_gpu_sm_count(const st_gpu_spec *gpu);

/* 1 when gpu's catalog name has its own row in the calibration table; otherwise the model uses
 * the H100 SXM row (st_gemm_efficiency and friends still answer). */
int st_gemm_calibrated(const st_gpu_spec *gpu);

#endif
