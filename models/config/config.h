/* The typed configuration of one scenario, as every model reads it: plain data in SI units,
 * filled by scenarios/ from YAML and owned by the scenario (models hold const pointers).
 * Each struct keeps the location of its mapping so later checks can point at the input. */
#ifndef ST_MODELS_CONFIG_CONFIG_H
#define ST_MODELS_CONFIG_CONFIG_H

#include <stdint.h>

#include "sim/err.h"

/* The GPU record and the transformer shape are silicon's (models/silicon/gpu.h, llm.h); the
 * configuration only points at them, so it sits below every level. */
typedef struct st_gpu_spec st_gpu_spec;
typedef struct st_llm_spec st_llm_spec;

/* Every enum a scenario spells by name comes from one X-macro list of (value, name) pairs, so
 * the YAML spelling, the loader's accepted names and the reports' text cannot drift apart.
 * ST__ENUM_VALUE expands a list into the enum's values; models/config/config.c expands the same
 * list into its st_<enum>_names[] table with ST__ENUM_NAME. Lists are append-only: a value's
 * position is its number, which reports and tests rely on. */
#define ST__ENUM_VALUE(id, name) id,
#define ST__ENUM_NAME(id, name)  [id] = name,
#define ST__ENUM_COUNT(id, name) +1 /* (0 LIST(ST__ENUM_COUNT)) is the number of values */

/* The name tables: st_<enum>_names[v] is value v's name, and a NULL follows the last value
 * (the loader's enum reader stops there). Each is defined once, in models/config/config.c. */
#define ST_COOLING_KINDS(X) X(ST_COOLING_AIR, "air") X(ST_COOLING_LIQUID, "liquid")
typedef enum st_cooling_kind { ST_COOLING_KINDS(ST__ENUM_VALUE) } st_cooling_kind;
extern const char *const st_cooling_kind_names[];

/* A UPS system's redundancy (models/plant/ups.h): one system carries the load (N), or two
 * systems each able to carry it share it (2N). */
#define ST_UPS_REDUNDANCIES(X) X(ST_UPS_N, "n") X(ST_UPS_2N, "2n")
typedef enum st_ups_redundancy { ST_UPS_REDUNDANCIES(ST__ENUM_VALUE) } st_ups_redundancy;
extern const char *const st_ups_redundancy_names[];

#define ST_TOPOLOGIES(X)                                                                           \
    X(ST_TOPO_SPINE_LEAF, "spine-leaf")                                                            \
    X(ST_TOPO_RAIL_OPTIMIZED, "rail-optimized") X(ST_TOPO_FAT_TREE_3, "fat-tree-3")
typedef enum st_topology { ST_TOPOLOGIES(ST__ENUM_VALUE) } st_topology;
extern const char *const st_topology_names[];

#define ST_TRANSPORTS(X)                                                                           \
    X(ST_TRANSPORT_ROCE_V2, "roce-v2")                                                             \
    X(ST_TRANSPORT_INFINIBAND, "infiniband") X(ST_TRANSPORT_OMNI_PATH, "omni-path")
typedef enum st_transport { ST_TRANSPORTS(ST__ENUM_VALUE) } st_transport;
extern const char *const st_transport_names[];

#define ST_ROUTINGS(X) X(ST_ROUTING_ECMP, "ecmp") X(ST_ROUTING_ADAPTIVE, "adaptive")
typedef enum st_routing { ST_ROUTINGS(ST__ENUM_VALUE) } st_routing;
extern const char *const st_routing_names[];

#define ST_TIER_KINDS(X)                                                                           \
    X(ST_TIER_NVME_OF, "nvme-of")                                                                  \
    X(ST_TIER_PARALLEL_FS, "parallel-fs")                                                          \
    X(ST_TIER_OBJECT, "object") X(ST_TIER_LOCAL_NVME, "local-nvme")
typedef enum st_tier_kind { ST_TIER_KINDS(ST__ENUM_VALUE) } st_tier_kind;
extern const char *const st_tier_kind_names[];

/* fp4 is NVFP4 (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference",
 * 2025): E2M1 values in blocks of 16 with an FP8 E4M3 scale each, weights and activations. */
#define ST_PRECISIONS(X) X(ST_PREC_BF16, "bf16") X(ST_PREC_FP8, "fp8") X(ST_PREC_FP4, "fp4")
/* ST_PREC_MXFP4 is a format weights are stored in, not one a GEMM runs at: OCP Microscaling's
 * MXFP4 (OCP "Microscaling Formats (MX) v1.0", 2023: E2M1 values in blocks of 32 with an E8M0
 * scale each), GPT-OSS's experts. Only expert_weights takes it (st_weight_format_names); its
 * MMAs are FP4's where a GPU has them. */
typedef enum st_precision { ST_PRECISIONS(ST__ENUM_VALUE) ST_PREC_MXFP4 } st_precision;
extern const char *const st_precision_names[];
extern const char *const st_weight_format_names[]; /* the precisions' names, then "mxfp4" */

/* How Transformer Engine scales FP8 tensors (transformer_engine/common/recipe): one scale per
 * tensor from past iterations' amax history (DelayedScaling, TE's and Megatron-Core's default),
 * one per tensor from the tensor's own amax (Float8CurrentScaling), or one per block of 32
 * (MXFP8BlockScaling, Blackwell only). docs/models/step-ops.md gives the quantisation traffic of
 * each. */
#define ST_FP8_RECIPES(X)                                                                          \
    X(ST_FP8_DELAYED, "delayed") X(ST_FP8_CURRENT, "current") X(ST_FP8_MXFP8, "mxfp8")
typedef enum st_fp8_recipe { ST_FP8_RECIPES(ST__ENUM_VALUE) } st_fp8_recipe;
extern const char *const st_fp8_recipe_names[];

/* op: torchtitan's per-op selective activation checkpointing (docs/models/step-ops.md); last, so
 * that a loop over none..full (the sizing search) keeps Megatron's three. */
#define ST_RECOMPUTES(X)                                                                           \
    X(ST_RECOMPUTE_NONE, "none")                                                                   \
    X(ST_RECOMPUTE_SELECTIVE, "selective") X(ST_RECOMPUTE_FULL, "full") X(ST_RECOMPUTE_OP, "op")
typedef enum st_recompute { ST_RECOMPUTES(ST__ENUM_VALUE) } st_recompute;
extern const char *const st_recompute_names[];

/* recompute_modules: the parts of a layer that `recompute: selective` repeats in backward,
 * Megatron-Core's recompute_modules (megatron/core/transformer/transformer_config.py, core_v0.13
 * on): the attention core (its default), the two norms, the experts' activation function, MLA's
 * up projections with the rotary embedding, the dense MLP, the whole MoE layer, its shared
 * experts. Each is a bit of st_parallel_cfg.recompute_modules (1 << value);
 * docs/models/memory-model.md gives what each keeps and step-ops.md what each repeats. */
#define ST_RECOMPUTE_MODULES(X)                                                                    \
    X(ST_RCM_CORE_ATTN, "core_attn")                                                               \
    X(ST_RCM_LAYERNORM, "layernorm")                                                               \
    X(ST_RCM_MOE_ACT, "moe_act")                                                                   \
    X(ST_RCM_MLA_UP_PROJ, "mla_up_proj")                                                           \
    X(ST_RCM_MLP, "mlp") X(ST_RCM_MOE, "moe") X(ST_RCM_SHARED_EXPERTS, "shared_experts")
typedef enum st_recompute_module { ST_RECOMPUTE_MODULES(ST__ENUM_VALUE) } st_recompute_module;
extern const char *const st_recompute_module_names[];

#define ST_CKPT_MODES(X)                                                                           \
    X(ST_CKPT_SYNC, "sync") X(ST_CKPT_ASYNC, "async") X(ST_CKPT_TWO_STAGE, "two-stage")
typedef enum st_ckpt_mode { ST_CKPT_MODES(ST__ENUM_VALUE) } st_ckpt_mode;
extern const char *const st_ckpt_mode_names[];

#define ST_TRACE_FORMATS(X)                                                                        \
    X(ST_TRACE_PHILLY, "philly")                                                                   \
    X(ST_TRACE_MURI, "muri") X(ST_TRACE_CSV, "csv") X(ST_TRACE_OPENB, "openb")
typedef enum st_trace_format { ST_TRACE_FORMATS(ST__ENUM_VALUE) } st_trace_format;
extern const char *const st_trace_format_names[];

#define ST_DELIVERIES(X)                                                                           \
    X(ST_DELIVERY_ON_PREM, "on-prem")                                                              \
    X(ST_DELIVERY_BARE_METAL, "bare-metal") X(ST_DELIVERY_CLOUD, "cloud")
typedef enum st_delivery { ST_DELIVERIES(ST__ENUM_VALUE) } st_delivery;
extern const char *const st_delivery_names[];
/* How rented cloud GPUs are priced: by the hour used, or committed for a term (a reservation or
 * savings plan: the whole term is paid at the committed rate). */
#define ST_PRICINGS(X) X(ST_PRICING_ON_DEMAND, "on-demand") X(ST_PRICING_COMMITTED, "committed")
typedef enum st_pricing { ST_PRICINGS(ST__ENUM_VALUE) } st_pricing;
extern const char *const st_pricing_names[];
/* What leaves the cloud: the final checkpoint once, or every checkpoint as it is written (a copy
 * kept outside the provider: another cloud, the site's own storage). */
#define ST_EGRESSES(X) X(ST_EGRESS_FINAL, "final") X(ST_EGRESS_CHECKPOINTS, "checkpoints")
typedef enum st_egress { ST_EGRESSES(ST__ENUM_VALUE) } st_egress;
extern const char *const st_egress_names[];

typedef struct st_node_cfg {
    double base_power_w; /* CPUs, NICs, fans, drives: all but the GPUs */
    /* 1: base_power_w is the GPU platform's figure (st_gpu_spec.node_base_w), not stated by the
     * scenario, so a variant on another GPU takes that GPU's */
    int base_power_of_gpu;
    double host_memory_bytes;
    double pcie_bw; /* per GPU, host <-> GPU, bytes/s */
} st_node_cfg;

typedef struct st_rack_cfg {
    int64_t nodes_per_rack;
    double feed_voltage_v;
    int feed_phases;
    double power_factor;
    double breaker_a;
    double distribution_resistance_ohm;
    st_cooling_kind cooling;
    double cooling_capacity_w;
    double liquid_fraction; /* share of heat taken by the liquid loop, 0..1 */
    double coolant_supply_c;
    double air_supply_c;
    double chiller_cop; /* rated at AHRI 550/590's point; 0 = the preset's (cooling.c) */
    /* The air handlers' running airflow over the flow the air heat needs at the design rise
     * (bypass air over-supplies it); 0 = 1, the handlers matched to the heat. */
    double air_oversupply;
    /* Mitigations of the swing (models/plant/mitigate.h): the GPUs' power floor as a share of
     * TDP (0 = none), the software burn in a running job's lulls as a share of TDP (0 = none),
     * and each rack's energy storage (0 = none). */
    double power_floor;
    double power_burn;
    double storage_energy_j, storage_power_w;
    st_loc loc;
} st_rack_cfg;

/* The facility's UPS (models/plant/ups.h): its efficiency at full load, the shares of its
 * full-load loss that are fixed (no-load) and square-law (the rest is proportional), each
 * system's rating (0 = sized to the load's peak) and the redundancy. */
typedef struct st_ups_cfg {
    double efficiency; /* 0 = the preset's (ups.c) */
    double no_load, square_law;
    double rating_w;
    st_ups_redundancy redundancy;
} st_ups_cfg;

typedef struct st_facility_cfg {
    double power_capacity_w; /* 0 = not stated */
    /* The heat its cooling can reject, W (models/plant/plant.h st_plant_heat): in all, and on
     * its air and its liquid plant; 0 = not stated. */
    double cooling_capacity_w, air_cooling_capacity_w, liquid_cooling_capacity_w;
    double ramp_limit_w_per_s; /* 0 = not stated */
    st_ups_cfg ups;
    st_loc loc;
} st_facility_cfg;

#define ST_MAX_TIERS_OVERSUB 3
typedef struct st_fabric_cfg {
    st_topology topology;
    double nic_bw; /* bytes/s per NIC */
    int nics_per_node;
    int64_t nodes_per_leaf;
    int64_t leaves_per_pod; /* fat-tree-3 only */
    int64_t switch_ports;   /* ports of each leaf, spine and core switch; 0: no limit checked */
    double oversub[ST_MAX_TIERS_OVERSUB]; /* leaf tier first; tiers not given repeat the last */
    int n_oversub;
    st_transport transport;
    st_routing routing;
    int routing_given; /* the scenario states routing; else the transport's default
                          (models/fabric/transport.c st_transport_default_routing) */
    double link_latency_s;
    double switch_latency_s;
    st_loc loc;
} st_fabric_cfg;

typedef struct st_tier_cfg {
    const char *name;
    st_tier_kind kind;
    double capacity_bytes;
    double read_bw, write_bw; /* bytes/s, aggregate at the tier's front end */
    double latency_s;
    int gds; /* GPUDirect Storage */
    st_loc loc;
} st_tier_cfg;

/* cluster.variability: how far GPUs of one part differ in speed (docs/models/stragglers.md).
 * Everything 0 when the scenario states nothing: every GPU at the model's speed. */
typedef struct st_variability_cfg {
    double gpu_speed_cv; /* per-GPU speed spread, the coefficient of variation of a normal */
    /* Fail-slow nodes (slow_nodes): each node turns slow as a Poisson process of mean gap
     * slow_every_s; a slow node makes the job slow_slowdown longer per step until it is
     * detected and excluded slow_detect_s later. slow_every_s 0: none. */
    double slow_every_s, slow_slowdown, slow_detect_s;
    /* System noise (noise): each rank's progress stops for noise_detour_s, once every
     * noise_every_s on average, periodically (a fixed period at a random phase per rank) or as
     * a Poisson process. Stated, or the delivery model's profile (noise_profile names it;
     * models/silicon/noise.c); noise_every_s 0: none. */
    double noise_every_s, noise_detour_s;
    int noise_periodic;
    int noise_cosched;         /* every rank's detours at the same moments (noise.cosched) */
    const char *noise_profile; /* the profile's name as the scenario gave it or the delivery
                                  model chose it; NULL: stated as every and detour */
    st_loc loc, noise_loc;
} st_variability_cfg;

/* cluster.calibration: the cluster's own efficiency terms, fitted by `strata calibrate` from what
 * its owner measured on it (docs/models/calibration.md, "Your own cluster"), inline or read from
 * the file `strata calibrate -o` wrote. A factor 0: not fitted, the model's own (1). */
#define ST_CALIB_MAX_RESIDUALS 256
typedef struct st_calib_cfg {
    int enabled;
    const char *gpu;        /* the GPU type it was fitted on; another cluster GPU is refused */
    double compute_bf16;    /* Tensor Core throughput in BF16, times the model's */
    double compute_fp8;     /* and in FP8 */
    double nvlink;          /* NVLink goodput, times the model's */
    double network;         /* NIC goodput, times the model's */
    double latency_s;       /* added to every collective's time */
    double step_overhead_s; /* added to every training step */
    double residuals[ST_CALIB_MAX_RESIDUALS]; /* measured over predicted step time of the runs
                                                 fitted, each left out of its own fit */
    int n_residuals;
    int steps;        /* measured steps it was fitted on: with any, the band is the calibrated
                         one (docs/models/error-band.md, "A calibrated cluster") */
    const char *file; /* the calibration file it was read from; NULL: inline */
    st_loc loc;
} st_calib_cfg;

/* One entry of cluster.pools (docs/models/pools.md): nodes of one GPU type on the cluster's one
 * fabric. Pool k owns nodes [first_node, first_node + nodes), the pools in file order, so GPU g
 * is on node g / gpus_per_node in every pool and GPU ids stay the cluster's. node_base_w and
 * pcie_bw are the cluster's node.base_power and node.pcie when stated, else this GPU's platform
 * figure and link (models/config/pools.h gives the cluster as one pool sees it). */
typedef struct st_pool_cfg {
    const char *name;
    const st_gpu_spec *gpu;
    int64_t nodes, first_node;
    /* Its node: GPUs a node (its GPU platform's unless stated), GPUs one NVLink domain joins
     * (its platform's, e.g. 72 on a GB200 NVL72, unless stated) and NICs a node (one a GPU
     * unless stated); and its first GPU and first NIC in the cluster's ids, the pools' GPUs and
     * NICs numbered in pool order (docs/models/pools.md). 0 in all five (a pool built by hand):
     * the cluster's gpus_per_node, nvlink_domain and fabric.nics_per_node, first_node times them
     * (models/config/pools.h reads them so). */
    int64_t gpus_per_node, nvlink_domain, nics_per_node;
    int64_t first_gpu, first_nic;
    double node_base_w;
    double pcie_bw;
    st_loc loc, gpu_loc;
    /* Its racks (`racks:` of the pool, over cluster.racks) when the cluster's racks are laid out
     * by pool (st_cluster_cfg.racks_by_pool): the pool's nodes fill racks of their own, from rack
     * first_rack on (models/config/racks.h); else unused. */
    st_rack_cfg racks;
    int64_t first_rack;
    st_loc racks_loc; /* line 0: the pool states no racks */
} st_pool_cfg;

typedef struct st_cluster_cfg {
    /* gpu: the first pool's GPU type when pools are given, and nodes their sum, so code that
     * asks for the cluster's one type gets the first pool's: everything a job runs asks
     * models/config/pools.h for its own */
    const st_gpu_spec *gpu;
    int64_t nodes;
    int64_t gpus_per_node; /* with pools, the first pool's: the cluster's are pools.h's */
    int64_t nvlink_domain; /* GPUs on one NVLink/NVSwitch domain */
    st_node_cfg node;
    st_rack_cfg racks;
    st_facility_cfg facility;
    st_variability_cfg variability;
    st_fabric_cfg fabric;
    const st_tier_cfg *tiers; /* n_tiers entries, in file order */
    int n_tiers;
    st_loc loc, gpu_loc;
    st_calib_cfg calib;       /* appended: cluster.calibration */
    const st_pool_cfg *pools; /* cluster.pools, n_pools in file order; 0: one GPU type */
    int n_pools;
    st_loc pools_loc;
    /* 1 when a pool states racks of its own: every pool's nodes then fill racks of their own
     * (st_pool_cfg.racks), no rack holding two pools; 0: racks of cluster.racks.nodes_per_rack
     * consecutive nodes, whatever their pools (models/config/racks.h) */
    int racks_by_pool;
    /* 1 when the pools' nodes are not all of gpus_per_node GPUs (st_pool_cfg.gpus_per_node), so
     * a GPU's node is found through its pool (models/config/pools.h); 0: one node size */
    int mixed_node_sizes;
    /* a view of one pool (st_pools_view): its name, for the messages that say what is too
     * small; NULL for the whole cluster */
    const char *view_of;
    /* a view of one pool whose NVLink domains span nodes: GPU ids are shifted by this before
     * dividing by nvlink_domain, so that the pool's domains begin at its first node, not at
     * GPU 0 of the view's numbering (st_pools_view); 0 for the whole cluster */
    int64_t nvlink_skew;
} st_cluster_cfg;

/* parallel.grad_collective: by the ZeRO stage (reduce-scatter with a sharded optimizer,
 * all-reduce without), or forced. */
#define ST_GRAD_COLLS(X)                                                                           \
    X(ST_GRAD_COLL_AUTO, "auto")                                                                   \
    X(ST_GRAD_COLL_REDUCE_SCATTER, "reduce-scatter") X(ST_GRAD_COLL_ALL_REDUCE, "all-reduce")
enum { ST_GRAD_COLLS(ST__ENUM_VALUE) };
extern const char *const st_grad_coll_names[];

typedef struct st_parallel_cfg {
    int64_t tp, cp, pp, dp;
    int zero;               /* ZeRO stage 0..3 */
    int64_t microbatch;     /* sequences per micro-batch; 0 = auto */
    int64_t virtual_stages; /* interleaved 1F1B chunks per stage; 1 = plain 1F1B */
    int sequence_parallel;
    int overlap_grad_reduce;  /* reduce gradient buckets during backward (Megatron's
                                 --overlap-grad-reduce); default on */
    int overlap_p2p;          /* pipeline sends run beside compute (Megatron-Core's
                                 overlap_p2p_comm); 0: each stage waits for its blocking send and
                                 receive, as Megatron-LM's batch_isend_irecv + wait did;
                                 default 1 */
    int overlap_param_gather; /* the distributed optimizer's weight all-gather runs bucket by
                                 bucket ahead of the next forward (Megatron-Core's
                                 overlap_param_gather); default 0: after the optimizer */
    int cp_comm_overlap;      /* context parallelism's ring exchange runs beside the attention
                                 of the block before (Transformer Engine's ring attention);
                                 default 0: counted whole */
    int tp_comm_overlap;      /* TP collectives run beside the GEMMs Transformer Engine's
                                 userbuffers pair them with (Megatron-Core's tp_comm_overlap;
                                 needs sequence parallelism); default 0: counted whole */
    int ep_comm_overlap;      /* an MoE layer's EP all-to-alls run beside another micro-batch's
                                 compute (Megatron-Core's overlap_moe_expert_parallel_comm, the
                                 combined 1F1B schedule); default 0: counted whole */
    int grad_collective;      /* ST_GRAD_COLL_*: how gradients are reduced over data parallelism */
    int grad_accum_separate;  /* grad_accum: separate - the weight-gradient GEMM writes a bf16
                                 gradient that a separate pass adds into the fp32 buffer after
                                 each micro-batch (DeepSpeed's BF16 optimizer); default 0: fused,
                                 the GEMM accumulates in place (Megatron's
                                 gradient_accumulation_fusion) */
    int grad_bf16;            /* grad_reduce: bf16 - gradients accumulated and reduced in bf16
                                  (Megatron-Core's grad_reduce_in_fp32 = False); default fp32 */
    int adam_bf16;            /* adam_moments: bf16 - Adam's m and v kept in bf16 (Megatron-Core's
                                 use_precision_aware_optimizer with exp_avg_dtype and
                                 exp_avg_sq_dtype bf16, Transformer Engine's FusedAdam); default
                                 fp32 */
    int embedding_slot;       /* the input embedding takes a layer's place in the first pipeline
                                 chunk (Megatron-Core's account_for_embedding_in_pipeline_split;
                                 models/silicon/parallel.h, st_chunk_split); default 0 */
    int loss_slot;            /* the output layer and loss take one in the last chunk
                                 (account_for_loss_in_pipeline_split); default 0 */
    const int64_t *chunk_layers; /* an explicit layout: the layers of each of the pp x
                                    virtual_stages chunks in model order (Megatron-Core's
                                    pipeline_model_parallel_layout); NULL: the even split */
    int64_t n_chunk_layers;
    int64_t offload_layers; /* the first offload_layers layers keep their activations in host
                               memory between forward and backward (Megatron-Core's
                               cpu_offloading_num_layers); default 0 */
    st_recompute recompute;
    /* under recompute: selective, the modules repeated (bits 1 << ST_RCM_*); 0: Megatron-Core's
     * default, the attention core alone (st_recompute_modules) */
    unsigned recompute_modules;
    int64_t ep;  /* expert parallelism: each GPU holds experts / ep of every MoE layer's experts,
                    the EP group being ep ranks of a stage's tp x cp x dp at stride etp
                    (Megatron-Core); default 1, below 1 counts as 1 */
    int64_t etp; /* appended: expert tensor parallelism (Megatron-Core's
                    expert_tensor_parallel_size): each expert's linear layers split over etp
                    consecutive ranks; default 1, below 1 counts as 1 */
    int moe_dispatcher; /* appended: ST_DISP_*, the MoE token dispatcher; default alltoall, and
                           for a service over attention-DP replicas st_moe_serve_dispatcher's */
    int moe_dispatcher_given; /* appended: whether a service stated moe_dispatcher (set and read
                                 for kind: inference only) */
    int tp_comm_overlap_cfg;  /* appended: under tp_comm_overlap, the userbuffers settings per GEMM,
                                 an index into st_ub_cfg_names (models/silicon/ub_cfg.h); default
                                 0, Transformer Engine's own */
    st_loc loc;
} st_parallel_cfg;

/* The modules a plan repeats in backward (bits 1 << ST_RCM_*): under recompute: selective the
 * stated ones, else the attention core alone; none for the other settings, which are not
 * module lists (full repeats the whole layer, op torchtitan's policy). */
static inline unsigned st_recompute_modules(const st_parallel_cfg *p)
{
    if (p->recompute != ST_RECOMPUTE_SELECTIVE)
        return 0;
    return p->recompute_modules ? p->recompute_modules : 1u << ST_RCM_CORE_ATTN;
}

/* Whether the plan repeats module m in backward. */
static inline int st_recomputes(const st_parallel_cfg *p, st_recompute_module m)
{
    return (st_recompute_modules(p) >> m) & 1u;
}

/* checkpoint.memory: the fast level of two-level checkpointing, a snapshot in host memory (and
 * `replicas` copies in peers' host memory, Gemini's in-memory checkpoints) between persistent
 * saves (docs/models/storage-and-failures.md, "Two-level checkpoints"). */
typedef struct st_ckpt_mem_cfg {
    int enabled;
    double every_s;      /* > 0 when the interval is a time */
    int64_t every_steps; /* > 0 when it is a step count */
    int every_auto;      /* every: auto (the two-level optimum) */
    int64_t replicas;    /* copies on other nodes; default st_ckpt_preset.replicas */
    st_loc loc;
} st_ckpt_mem_cfg;

typedef struct st_ckpt_cfg {
    int enabled;
    double every_s;      /* > 0 when the interval is a time */
    int64_t every_steps; /* > 0 when it is a step count */
    int every_auto;      /* every: auto (Young-Daly optimum) */
    st_ckpt_mode mode;
    int tier; /* index into cluster tiers */
    st_ckpt_mem_cfg memory;
    st_loc loc;
} st_ckpt_cfg;

/* The constants of two-level checkpoints that are no datasheet figure of the scenario's parts,
 * each with its source in config.c (st_ckpt_preset_default). */
typedef struct st_ckpt_preset {
    int64_t replicas;          /* checkpoint.memory.replicas when not stated */
    double drive_price_usd;    /* the flash drive whose endurance prices a written byte ... */
    double drive_bytes;        /* ... its capacity ... */
    double drive_dwpd;         /* ... its rated drive writes per day ... */
    double drive_life_s;       /* ... over its warranty */
    double gpu_hour_usd_per_s; /* what one GPU's time is worth, to turn a cost into seconds */
} st_ckpt_preset;
extern const st_ckpt_preset st_ckpt_preset_default;

typedef struct st_data_cfg {
    int enabled;
    int tier; /* index into cluster tiers */
    double bytes_per_token;
    st_loc loc;
} st_data_cfg;

#define ST_WORKLOAD_KINDS(X)                                                                       \
    X(ST_WL_TRAINING, "training")                                                                  \
    X(ST_WL_COLLECTIVE, "collective")                                                              \
    X(ST_WL_INFERENCE, "inference")
typedef enum st_workload_kind { ST_WORKLOAD_KINDS(ST__ENUM_VALUE) } st_workload_kind;
extern const char *const st_workload_kind_names[];

/* kind: collective, an nccl-tests-style run of one collective on the workload's GPUs. The
 * enums are models/fabric/collective.h's (st_coll_op, st_coll_algo, st_coll_proto); config.h sits
 * below that header, so they are stored as plain ints here. */
typedef struct st_collective_cfg {
    int op, algo, proto;
    int channels;       /* 0 = NCCL-like default */
    int lockstep;       /* 1: every ring step waits for its slowest hop (st_coll_spec.sync_steps) */
    double size_bytes;  /* nccl-tests "size": the per-rank buffer */
    int64_t iterations; /* back-to-back runs; the report gives their mean time */
    st_loc loc;
} st_collective_cfg;

/* How an inference service's requests arrive: all at once (an offline batch, as vLLM's
 * benchmark_throughput and TensorRT-LLM's trtllm-bench throughput run), one at a time at
 * exponentially distributed gaps (a Poisson stream, as vLLM's benchmark_serving sends them), at
 * the times and with the lengths a file of requests gives (a trace), or from a fixed number of
 * clients, each sending its next request as its last completes (a closed loop, as `vllm bench
 * serve --max-concurrency`, GenAI-Perf's `--concurrency` and SGLang's bench_serving run). */
#define ST_REQ_MODES(X)                                                                            \
    X(ST_REQ_OFFLINE, "offline")                                                                   \
    X(ST_REQ_POISSON, "poisson") X(ST_REQ_TRACE, "trace") X(ST_REQ_CLOSED, "closed")
typedef enum st_req_mode { ST_REQ_MODES(ST__ENUM_VALUE) } st_req_mode;
extern const char *const st_req_mode_names[];

/* How a serving engine admits a request into its running batch:
 *   evict    when the cache has blocks for the tokens it schedules now; a running request that
 *            finds the cache full pushes the latest admitted out, to be recomputed (vLLM's V1
 *            scheduler, TensorRT-LLM's MAX_UTILIZATION)
 *   reserve  only when the cache has blocks for its whole prompt and output, held from then on:
 *            never preempted (TensorRT-LLM's GUARANTEED_NO_EVICT capacity scheduler) */
#define ST_ADMISSIONS(X) X(ST_ADMIT_EVICT, "evict") X(ST_ADMIT_RESERVE, "reserve")
typedef enum st_admission { ST_ADMISSIONS(ST__ENUM_VALUE) } st_admission;
extern const char *const st_admission_names[];

/* A load curve's points at most (requests.rate as a list): a year by the five minutes. */
#define ST_MAX_LOAD_POINTS 110000

/* One point of a load curve: from `at_s` seconds the stream's rate, requests per second over
 * the whole service, linear to the next point's. */
typedef struct st_load_point {
    double at_s, rate;
} st_load_point;

/* An autoscaler (`autoscale:`) that sets a service's replicas from its load as Kubernetes'
 * horizontal pod autoscaler does: every interval_s it asks for ceil(rate / target_rate)
 * replicas, between min and max, adding no more than its scale-up rate limit allows; more come
 * up delay_s later, fewer leave at once but never below the most asked for in the last window_s
 * (the scale-down stabilisation window).
 * docs/models/inference.md, "A load curve and an autoscaler". */
typedef struct st_autoscale_cfg {
    int on;
    int64_t min, max;   /* replicas; min 0: scale to zero, the first request starts one */
    double delay_s;     /* from asking for a replica to its serving: start, load, warm up;
                           stated (delay_set), or modelled (models/serve/serve.h st_serve_cold) */
    int delay_set;      /* autoscale.delay stated: it overrides the modelled cold start */
    int weights_tier;   /* the cluster.storage tier its weights load from; -1: none named */
    double target_rate; /* requests per second a replica is given; 0: from the SLO */
    double interval_s, window_s;
    /* scale-up's rate limit: over any up_period_s, at most the more of up_pods replicas and
     * up_share of those at the period's start are added (up_period_s 0: none; the loader
     * always sets the autoscaler's default) */
    int64_t up_pods;
    double up_share, up_period_s;
    st_loc loc;
} st_autoscale_cfg;

/* A request trace's formats: csv (a header naming arrival, input_tokens, output_tokens) and
 * azure (Azure's LLM inference traces: TIMESTAMP, ContextTokens, GeneratedTokens). */
#define ST_REQ_FORMATS(X) X(ST_REQ_CSV, "csv") X(ST_REQ_AZURE, "azure")
typedef enum st_req_format { ST_REQ_FORMATS(ST__ENUM_VALUE) } st_req_format;
extern const char *const st_req_format_names[];

/* One request of a trace: its arrival, seconds after the trace's first, and its lengths. */
typedef struct st_req_row {
    double arrival_s;
    int64_t in, out;
} st_req_row;

/* The most rows a request trace may have: 2^22, as a job trace (scenarios/trace.h); 96 MB. */
#define ST_REQ_TRACE_MAX_ROWS (1u << 22)

/* kind: inference, a model served by dp identical replicas of tp x pp GPUs each
 * (models/serve/serve.h, docs/models/inference.md): its request stream, its latency targets and
 * the serving engine's batching limits. Lengths are a mean and a range ratio (vLLM's random
 * dataset; ratio 0, every request the mean, is TensorRT-LLM's fixed ISL/OSL). */
typedef struct st_inference_cfg {
    st_req_mode mode;
    double rate;               /* poisson: requests per second over all replicas */
    const st_load_point *load; /* n_load > 0: the rate over time instead, from load[0].at_s
                                  to load[n_load - 1].at_s (the scenario's; a workload's copy
                                  shares it) */
    int n_load;
    st_autoscale_cfg autoscale;
    /* mode: trace: the file (joined to the scenario's folder), its format, and its rows sorted
     * by arrival (the scenario's); rate is then their mean rate (0 when they all arrive at one
     * instant: none, st_inference_has_rate), count their number, the
     * lengths their means (rounded), and longest the most tokens one request holds */
    const char *trace_file, *trace_name; /* the path read, and as the scenario writes it */
    st_req_format trace_format;
    int refuse_malformed;
    const st_req_row *trace;
    int64_t n_trace, longest;
    int64_t count;         /* requests sent */
    int64_t concurrency;   /* > 0: at most this many requests in flight over the service, a
                              request held by its client until one completes (closed: the
                              clients; poisson: the benchmark's cap on its stream); 0: none */
    double think_s;        /* closed: the mean time a client thinks between a completion and
                              its next request, exponential; 0: none (the benchmarks' loop) */
    int64_t input_tokens;  /* prompt tokens of each request (their mean with a range) */
    int64_t output_tokens; /* tokens each request generates (likewise) */
    double cached_share;   /* of each prompt, the share the prefix cache holds when the request
                              is admitted (requests.cached_prompt); 0: none */
    double input_range;    /* lengths uniform in [L(1 - r), L(1 + r)], vLLM's random
                              dataset's --random-range-ratio r; 0: every request L */
    double output_range;
    double slo_ttft_s;        /* the p99 time to first token it must meet; 0: none */
    double slo_tpot_s;        /* the p99 time per output token after the first; 0: none */
    int64_t max_seqs;         /* requests an iteration holds at most (max_num_seqs) */
    int64_t max_batch_tokens; /* tokens an iteration processes at most
                                 (max_num_batched_tokens) */
    /* which of the two limits above the scenario states (ST_BATCH_STATED_*): the others are
       the engine's defaults for the GPU, re-derived when `strata size` tries another type */
    unsigned batch_stated;
    int chunked_prefill;     /* a prompt may be split over iterations */
    double gpu_memory_share; /* of each GPU's HBM the engine may use
                                (gpu_memory_utilization) */
    double kv_free_share;    /* > 0: the KV cache takes this share of what the weights,
                                activations and reserved memory leave of the HBM instead
                                (TensorRT-LLM's kv_cache_free_gpu_mem_fraction) */
    int64_t block_tokens;    /* tokens per KV-cache block (block_size) */
    st_admission admission;  /* how requests enter the running batch */
    int kv_fp8;              /* the KV cache in FP8 (kv_cache_dtype: fp8); 0: BF16 */
    /* The serving stack outside the engine's GPU work (`frontend:`, models/config/frontend.h):
     * its row's name (NULL: figures stated), a request's time in the front end before its first
     * token, and the host's time on each iteration's critical path, seconds. */
    const char *frontend;
    double frontend_request_s, frontend_iteration_s;
    st_loc loc, requests_loc, slo_loc;
} st_inference_cfg;

/* The mean rate of ic's load curve (n_load >= 2) over its points, requests per second: linear
 * between points (the trapezoids' area over the span). The serving model sends a curve's
 * requests by it (models/serve/serve_load.c); the loader refuses a curve that sends fewer than
 * the replicas. */
double st_inference_mean_rate(const st_inference_cfg *ic);

/* Whether ic's stream has one rate, ic->rate: a Poisson stream without a load curve, or a trace
 * whose rows span time (their mean rate). A trace whose rows all arrive at one instant (one row,
 * or a burst) has none: a rate over a span of 0 s is undefined, and its ic->rate 0 means that,
 * not a stream that sends nothing. An offline batch, a closed loop and a curve have none
 * either. */
int st_inference_has_rate(const st_inference_cfg *ic);

/* What a kind: inference workload leaves out takes vLLM V1's defaults, the engine the serving
 * model follows (models/serve/serve.h); each figure's source in models/config/config.c. GPUs of
 * at least large_gpu_bytes (other than Ampere's A100, which vLLM excludes by name) get the large
 * batch limits; an offline batch (vLLM's LLM class) the larger token budget of the two, a
 * stream (its OpenAI server) the smaller. */
enum { ST_BATCH_STATED_SEQS = 1u << 0, ST_BATCH_STATED_TOKENS = 1u << 1 };

typedef struct st_inference_preset {
    int64_t count;
    int64_t max_seqs_large, max_seqs_small;
    int64_t batch_tokens_offline_large, batch_tokens_server_large;
    int64_t batch_tokens_offline_small, batch_tokens_server_small;
    double large_gpu_bytes;
    double gpu_memory_share;
    int64_t block_tokens;
    /* The autoscaler's defaults (st_autoscale_cfg). */
    double scale_utilization; /* without target_rate: this share of a replica's highest rate
                                 within the SLO */
    double scale_interval_s, scale_window_s;
    int64_t scale_up_pods;
    double scale_up_share, scale_up_period_s;
    /* A replica's cold start beyond loading its weights (models/serve/serve.h st_serve_cold):
     * the engine's process start and imports, its compilation, its CUDA-graph capture. */
    double cold_init_s, cold_compile_s, cold_graph_s;
    /* The serving stack (models/config/frontend.h rows) of an offline batch and of a stream. */
    const char *frontend_offline, *frontend_online;
} st_inference_preset;
extern const st_inference_preset st_inference_preset_default;

/* The shortest and longest lengths of a stream of mean `mean` and range ratio r, as vLLM's
 * random dataset draws them (vllm/benchmarks/datasets.py, RandomDataset: randint of
 * int(L (1 - r)) .. int(L (1 + r))), at least 1 token. */
static inline int64_t st_req_len_lo(int64_t mean, double r)
{
    int64_t lo = (int64_t)((double)mean * (1 - r));
    return lo < 1 ? 1 : lo;
}
static inline int64_t st_req_len_hi(int64_t mean, double r)
{
    int64_t hi = (int64_t)((double)mean * (1 + r));
    return hi < 1 ? 1 : hi;
}

/* The most tokens one of ic's requests holds: its prompt and output, both at their longest. */
static inline int64_t st_req_longest(const st_inference_cfg *ic)
{
    if (ic->mode == ST_REQ_TRACE)
        return ic->longest;
    return st_req_len_hi(ic->input_tokens, ic->input_range) +
           st_req_len_hi(ic->output_tokens, ic->output_range);
}

/* How the attention core runs: one fused FlashAttention kernel (Dao et al. 2022), or as
 * Megatron-LM did before it, batched GEMMs around a materialised s x s score matrix with fused
 * scale-mask-softmax and dropout kernels (Korthikanti et al. 2022, section 4.1).
 *   flash    the GPU's default fused kernel (FlashAttention-3 on Hopper, cuDNN's on Blackwell,
 *            FlashAttention-2 on Ampere)
 *   unfused  Megatron-LM before FlashAttention
 *   flash2   FlashAttention-2, whatever the GPU
 *   cudnn    cuDNN's fused attention (Transformer Engine's NVTE_FUSED_ATTN) */
#define ST_ATTENTIONS(X)                                                                           \
    X(ST_ATTN_FLASH, "flash")                                                                      \
    X(ST_ATTN_UNFUSED, "unfused") X(ST_ATTN_FLASH2, "flash2") X(ST_ATTN_CUDNN, "cudnn")
typedef enum st_attention { ST_ATTENTIONS(ST__ENUM_VALUE) } st_attention;
extern const char *const st_attention_names[];

/* An MoE layer's token dispatcher (Megatron-Core's moe_token_dispatcher_type, with
 * moe_flex_dispatcher_backend for the flex ones):
 *   alltoall  MoEAlltoAllTokenDispatcher: a token's rows for each of its k experts sent by NCCL
 *             all-to-all, simulated on the fabric
 *   deepep    DeepEP's normal kernels (deepseek-ai/DeepEP), one row per token per destination
 *             rank, at their measured bandwidth (models/silicon/dispatch.c)
 *   hybridep  NVIDIA's HybridEP kernels in DeepEP, the same rows, at their measured bandwidth
 *   allgather MoEAllGatherTokenDispatcher: every rank's tokens all-gathered over the EP group,
 *             each rank's experts run on the rows routed to them, their outputs reduce-scattered
 *             back, both simulated on the fabric (also how TensorRT-LLM's CUTLASS MoE and vLLM's
 *             allgather_reducescatter backend exchange the tokens of attention-DP ranks) */
#define ST_MOE_DISPATCHERS(X)                                                                      \
    X(ST_DISP_ALLTOALL, "alltoall")                                                                \
    X(ST_DISP_DEEPEP, "deepep") X(ST_DISP_HYBRIDEP, "hybridep") X(ST_DISP_ALLGATHER, "allgather")
typedef enum st_moe_dispatcher { ST_MOE_DISPATCHERS(ST__ENUM_VALUE) } st_moe_dispatcher;
extern const char *const st_moe_dispatcher_names[];

/* How a memory-bound operator around the GEMMs and the attention core runs:
 *   fused  one kernel, as Megatron-LM's and Transformer Engine's fused kernels, torch.compile's
 *          generated ones, or a fused library kernel (Triton, Apex) do
 *   eager  PyTorch eager mode: each tensor operation of the model's code is its own kernel,
 *          reading its inputs from and writing its output to HBM (models/silicon/ops_dims.c) */
#define ST_KERNELS(X) X(ST_KERNELS_FUSED, "fused") X(ST_KERNELS_EAGER, "eager")
typedef enum st_kernels { ST_KERNELS(ST__ENUM_VALUE) } st_kernels;
extern const char *const st_kernels_names[];

/* The workload's `kernels`, per operator (one value for all, or a mapping): the norms, the
 * rotary embedding, the MLP activation and the residual adds with their dropout; in a mixture
 * of experts, the token permutation and unpermutation around the experts (`permute`:
 * Megatron-Core's moe_permute_fusion, eager when it is off) and the router's top-k, capacity
 * and auxiliary-loss kernels (`router`: moe_router_fusion, eager when it is off or, before
 * core_v0.13, absent). */
typedef struct st_kernels_cfg {
    st_kernels norm, rope, act, residual;
    st_kernels permute, router;
    /* Not a scenario key: 1 where a serving engine runs a mixture of experts' grouped GEMMs as
     * one fused kernel (models/serve sets it on its operator graph's workload); 0 in training */
    int moe_fused;
} st_kernels_cfg;

typedef struct st_workload_cfg {
    const char *name;
    st_workload_kind kind;
    st_attention attention;
    st_kernels_cfg kernels;
    st_collective_cfg collective; /* kind == ST_WL_COLLECTIVE */
    st_inference_cfg inference;   /* kind == ST_WL_INFERENCE */
    const st_llm_spec *model;     /* kind == ST_WL_TRAINING or ST_WL_INFERENCE */
    int64_t seq_len;
    int64_t global_batch; /* sequences per step */
    st_precision precision;
    st_fp8_recipe fp8_recipe; /* with precision fp8 */
    int fp8_param_gather;     /* with precision fp8: the weights are kept and gathered in FP8
                                 (Megatron-Core's fp8_param_gather); default 0: BF16 */
    int64_t gpus;
    st_parallel_cfg parallel;
    double memory_reserved;      /* bytes per GPU outside the model's tensors (CUDA context, NCCL
                                    buffers, allocator slack), when memory_reserved_given */
    int memory_reserved_given;   /* 0: the memory model's default (models/silicon/parallel.c) */
    double routing_imbalance;    /* MoE: the most loaded expert-parallel rank's routed rows over
                                    the mean, when routing_imbalance_given */
    int routing_imbalance_given; /* 0: the preset default (st_moe_imbalance, models/silicon/ops.h)
                                  */
    /* A served mixture of experts whose experts are stored and computed apart from its other
     * linear layers (GPT-OSS's checkpoint: MXFP4 experts, everything else BF16, the experts' MMAs
     * in BF16 on Hopper and MXFP8 on Blackwell): the experts' GEMMs run at expert_precision
     * with their weights read, and held, at expert_weights' width; when expert_precision_given.
     * 0: the experts are linear layers like the rest, at `precision`. Inference only. */
    st_precision expert_precision, expert_weights;
    int expert_precision_given;
    double capacity_factor; /* MoE token dropping (Megatron-Core's moe_expert_capacity_factor):
                               an expert keeps at most this times its mean rows, the rest
                               dropped; 0: dropless */
    int pad_to_capacity;    /* with capacity_factor: every expert's rows padded to its
                               capacity (moe_pad_expert_input_to_capacity) */
    int64_t mtp_layers;     /* multi-token prediction depth D (DeepSeek-V3 section 2.2,
                               Megatron-Core's mtp_num_layers): D modules on the last
                               pipeline stage, each a projection, one layer of the model's
                               last kind and the shared output head; 0: none */
    int64_t steps;          /* 0 when tokens is given */
    double tokens;          /* 0 when steps is given */
    double submit_s;
    const char *tenant;
    int64_t priority;
    st_ckpt_cfg checkpoint;
    st_data_cfg data;
    st_loc loc, model_loc, gpus_loc;
    int pool;        /* its index in cluster.pools (`pool:`); 0: the first, or the one type */
    st_loc pool_loc; /* line 0: not stated */
    /* A training job across pools (`pool: {NAME: GPUS, ...}`, docs/models/pools.md, "A job
     * across pools"): its GPUs in each pool, cluster.n_pools entries (0: none there), summing
     * to gpus, pool then the first it names (the partition it queues in); and pool_peak, the
     * mean dense peak of its GPUs at its precision (FLOP/s), which its MFU divides by. NULL
     * (and pool_peak unused): all of its GPUs in `pool`. */
    const int64_t *pool_gpus;
    double pool_peak;
    /* `pool_batch: {NAME: SEQUENCES, ...}`, a job across pools whose plan gives each pool's
     * data-parallel replicas their own share of the global batch (an uneven split by speed,
     * pools.md): sequences a step in each pool (cluster.n_pools entries), summing to
     * global_batch. NULL: every replica global_batch / dp. */
    const int64_t *pool_batch;
    int pool_batch_balanced; /* `pool_batch: balanced`: the forecast finds the shares
                                (models/forecast/run.c balance) */
    /* Set on the copy of such a job the step model runs for one pool, whose global_batch is that
     * pool's per-replica share times dp: the job's own global batch, which its throughput, MFU
     * and HFU count (models/step/step.c rates). 0: global_batch is the job's. */
    int64_t split_batch;
    const char *software; /* `software:` as written ("megatron-bridge 26.04"); NULL: not stated.
                             Its row's settings are already in the fields above
                             (scenarios/software.h) */
    int attention_stated; /* the workload states `attention`: a software row's kernel, which
                             depends on the GPU, is not applied to another GPU type (sizing) */
    int cudnn_release;    /* `cudnn: MAJOR.MINOR`, the cuDNN release the job's cuDNN attention
                             runs, as 100 x major + minor (9.10 -> 910); 0: not stated, the newest
                             release with a published sweep (models/silicon/gemm_eff.c) */
} st_workload_cfg;

/* A cuDNN release (st_workload_cfg.cudnn_release, 100 x major + minor) as its text, "9.10", into
 * out: ASCII digits and one dot, so ST_CUDNN_TEXT bytes hold any release the loader admits
 * (major at most 9999). */
#define ST_CUDNN_TEXT 16
void st_cudnn_text(int release, char out[ST_CUDNN_TEXT]);

/* One job of a trace: when it was submitted (seconds from the trace's first submission), how
 * long it ran as recorded, on how many GPUs, for which tenant (an index into the trace's tenant
 * names, -1: none). A format that records them also gives the job's class (its model name, an
 * index into the trace's class names, -1: none) and its iterations and seconds per iteration
 * (0: not recorded), which a replay convention may read instead of the duration. Times are
 * within st_lim_run and GPUs within st_lim_job_gpus (models/config/limits.h). */
typedef struct st_trace_job {
    double submit_s, duration_s;
    int64_t gpus;
    int32_t tenant;
    int32_t cls;
    int32_t pool; /* its pool in cluster.pools by its GPU type (trace.pools); 0 without pools */
    double iterations, iteration_s;
    unsigned line; /* the row's line in st_trace_cfg.file, for errors found later */
} st_trace_job;

/* One entry of `trace.pools`: the trace's GPU type name (`any`: the jobs that name none) and the
 * pool in cluster.pools its jobs run on. */
typedef struct st_trace_pool {
    const char *type;
    int32_t pool;
    st_loc loc;
} st_trace_pool;

/* How a trace is replayed: Strata's own cluster run (none), or the runtime model and queue
 * rules of Muri's artifact simulator (models/sched/muri.h). */
#define ST_TRACE_REPLAYS(X) X(ST_REPLAY_NONE, "none") X(ST_REPLAY_MURI, "muri")
typedef enum st_trace_replay { ST_TRACE_REPLAYS(ST__ENUM_VALUE) } st_trace_replay;
extern const char *const st_trace_replay_names[];

/* One entry of `trace.models`: the trace jobs it maps (those of its class, when it names one,
 * with min_gpus <= GPUs <= max_gpus, 0: no bound; the first entry that matches a job maps it)
 * and the step model they get: w is a template (model, seq_len, precision, parallel.tp, pp,
 * zero, microbatch, recompute) whose plan is fitted to each job's GPU count
 * (models/forecast/trace_rate.h). replica_batch: sequences per data-parallel replica per step
 * (0: microbatch x pp, one micro-batch per pipeline stage). */
typedef struct st_trace_model {
    const char *cls_name; /* `class:`, NULL: any */
    int32_t cls;          /* its index in st_trace_cfg.classes, -1: any */
    int64_t min_gpus, max_gpus;
    int64_t replica_batch;
    st_workload_cfg w;
    st_loc loc;
} st_trace_model;

typedef struct st_trace_cfg {
    const char *file;             /* resolved against the scenario's folder */
    const st_trace_model *models; /* `models:` (n_models; none: every job runs at rate 1) */
    size_t n_models;
    st_trace_format format;
    int refuse_malformed;       /* `malformed: refuse`: a malformed row is an error, not skipped */
    st_trace_replay replay;     /* `replay:` */
    const st_trace_pool *pools; /* `pools:` (n_pools), on a cluster of several pools */
    size_t n_pools;
    const st_trace_job *jobs; /* n_jobs, in file order (scenarios/trace.c) */
    size_t n_jobs, skipped;   /* skipped: malformed rows left out */
    const char *const *tenants;
    size_t n_tenants;
    const char *const *classes;
    size_t n_classes;
    st_loc loc;
} st_trace_cfg;

/* One class of component that fails: exponential lifetimes (shape 1) or Weibull. */
typedef struct st_failure_class {
    const char *component; /* gpu, node, nic, leaf_switch, spine_switch, rack */
    double mtbf_s;
    double weibull_shape; /* 1 = exponential */
    double repair_s;      /* time out of the cluster's pool after a failure; < 0: not given
                             (models/sched/outage.h says the default) */
    st_loc loc;
    st_loc mtbf_loc; /* its `mtbf:` value, where a rate the cluster run refuses is reported */
} st_failure_class;

typedef struct st_failures_cfg {
    const st_failure_class *classes;
    int n_classes;
    double detect_s, restart_s;
    /* `scope: cluster`: failures strike the cluster's components in the cluster run, take them
     * out of the pool until repaired and interrupt the jobs on them; each training job's life
     * is then forecast without failures of its own. 0 (`job`): each job's life draws its own. */
    int cluster_scope;
    st_loc loc;
    /* `planned_every`: the mean wall time between planned interruptions of a job (maintenance:
     * firmware and kernel upgrades, configuration changes), a Poisson process per job; 0: none.
     * models/reliability/lifetime.h says what one costs. Last, so positional initializers of the
     * fields above stay valid. */
    double planned_every_s;
    /* `spares` (has_spares): the spare nodes a job keeps on hand under `scope: job`; each GPU,
     * node or NIC failure takes its node out for its class's `repair`, a rack failure the rack's
     * nodes, and the job restarts only on spares, waiting for repairs when too few are left
     * (models/reliability/spares.h). Not stated: a spare swaps in within the restart. */
    int has_spares;
    int64_t spares;
    st_loc spares_loc;
} st_failures_cfg;

typedef struct st_quota {
    const char *tenant;
    double share; /* fraction of the cluster's GPUs, 0..1 */
    st_loc loc;
} st_quota;

/* The tiresias policy's typed parameter block (models/sched/tiresias.c states the defaults and
 * their source): K queues, the attained-service limits (GPU-seconds) between them, and the
 * starvation knob (a job waiting knob x its executed time is promoted; 0: never). */
#define ST_TIRESIAS_MAX_QUEUES 8
typedef struct st_tiresias_cfg {
    int queues; /* 0: every field at its default */
    double limit_gpu_s[ST_TIRESIAS_MAX_QUEUES - 1];
    double promote_knob;
} st_tiresias_cfg;

typedef struct st_sched_cfg {
    const char *policy;
    const char *placement; /* a placement policy's name (models/place/registry.c); NULL: pack */
    int preemption;        /* 1, 0 (`preemption: false`: no policy preempts), -1: unset (they do) */
    const st_quota *quotas;
    int n_quotas;
    st_tiresias_cfg tiresias;
    st_loc loc, policy_loc;
} st_sched_cfg;

/* The prices `cost:` may state per GPU type (`node_price: {h100-sxm: 300000 USD}`), which the
 * preset table (models/cost/prices.c) also holds per GPU type. */
#define ST_COST_TYPED(X)                                                                           \
    X(ST_COST_NODE, "node_price")                                                                  \
    X(ST_COST_GPU_HOUR, "gpu_hour_price")                                                          \
    X(ST_COST_COMMITTED, "committed_gpu_hour_price")
typedef enum st_cost_key { ST_COST_TYPED(ST__ENUM_VALUE) ST_COST__TYPED } st_cost_key;
extern const char *const st_cost_key_names[];

/* The on-premises parts priced beyond the node, each a price key of `cost:` and a row of the
 * preset table (models/cost/prices.c): per fabric class (the switch: transport and port rate),
 * per port rate (the optics), or for the whole site. */
#define ST_COST_PARTS(X)                                                                           \
    X(ST_PART_SWITCH, "switch_price")                                                              \
    X(ST_PART_OPTIC, "optic_price")                                                                \
    X(ST_PART_STORAGE, "storage_price")                                                            \
    X(ST_PART_STORAGE_BW, "storage_bandwidth_price")                                               \
    X(ST_PART_RACK, "rack_price")                                                                  \
    X(ST_PART_COOLING_AIR, "cooling_air_price")                                                    \
    X(ST_PART_COOLING_LIQUID, "cooling_liquid_price")
typedef enum st_cost_part { ST_COST_PARTS(ST__ENUM_VALUE) ST_COST__PARTS } st_cost_part;
extern const char *const st_cost_part_names[];

/* Where a typed price came from: stated for every GPU type (a scalar, or a struct filled by
 * hand: the zero value), stated for the GPU type, or the preset table's row for it. */
typedef enum st_price_origin { ST_PRICE_ALL, ST_PRICE_TYPE, ST_PRICE_PRESET } st_price_origin;
typedef struct st_price_from {
    st_price_origin origin;
    const char *source; /* the table row's source, or where the scenario states it; NULL: none */
} st_price_from;

/* One price the scenario states for one GPU type. */
typedef struct st_typed_price {
    st_cost_key key;
    const char *gpu; /* a catalog or hardware.gpus name */
    double value;    /* SI: USD, or USD per GPU-second */
    const char *source;
    st_loc loc;
} st_typed_price;
#define ST_COST_MAX_TYPED 64

typedef struct st_cost_cfg {
    st_delivery delivery;
    /* node_price_usd, gpu_hour_usd_per_s and committed_gpu_hour_usd_per_s are the prices of the
     * cluster's GPU type (from[key] says where each came from; < 0 unknown); another type's are
     * st_cost_for_gpu's (models/cost/cost.h) */
    double node_price_usd;
    /* The GPUs node_price_usd buys: a preset row's server or tray (8 GPUs; a GB200 NVL72 compute
     * tray, 4), priced for the cluster's node of gpus_per_node by st_cost_node_price; 0 for a
     * stated price, which is the scenario's own node's. */
    int node_price_gpus;
    double switch_price_usd;
    double storage_price_usd_per_byte;
    double electricity_usd_per_j;
    double gpu_hour_usd_per_s; /* cloud / bare-metal rental price per GPU, USD per second */
    double amortization_s;
    double storage_month_usd_per_byte; /* cloud storage, USD per byte per month (730 h) */
    double egress_usd_per_byte;        /* cloud data transfer out, USD per byte */
    /* on-premises: the utility's demand charge on the month's peak (USD per W per month), the
     * yearly maintenance share of the purchase price (a fraction) and the staff who run the
     * cluster (USD per second, the whole cluster) */
    double demand_usd_per_w_month;
    double maintenance_per_year;
    double staff_usd_per_s;
    /* cloud: on-demand, or committed for commitment_s at committed_gpu_hour_usd_per_s */
    st_pricing pricing;
    double committed_gpu_hour_usd_per_s;
    double commitment_s;
    st_egress egress; /* cloud: which checkpoints leave its network */
    /* on-premises: the checkpoint tier's write bandwidth, USD per byte/s; read only by
     * `strata size --storage-bandwidth` (planner/size.c); < 0 unset, no default */
    double storage_bw_usd_per_bps;
    /* on-premises parts beyond the node and the switch: each switch-side optical transceiver
     * port (USD), each rack with its PDUs (USD), and the cooling plant per W of heat it rejects
     * to air and to liquid (USD per W); < 0 unknown: that part is bought but not priced */
    double optic_usd;
    double rack_usd;
    double cooling_air_usd_per_w, cooling_liquid_usd_per_w;
    /* where each part's price came from (st_cost_for_parts, models/cost/cost.h) */
    st_price_from part_from[ST_COST__PARTS];
    st_price_from from[ST_COST__TYPED];
    const st_typed_price *typed; /* n_typed prices stated per GPU type (owned by the scenario) */
    int n_typed;
    st_loc loc;
} st_cost_cfg;

/* validation: a published measurement this scenario reproduces (scenarios/validation/).
 *   step_time_s, mfu (a fraction), tflops_per_gpu (model FLOP/s per GPU in TFLOP/s), then the
 *   whole-life metrics (`strata validate --life`, scenarios/validation/life/):
 *   checkpoint_size_bytes, checkpoint_save_s (the stall of one synchronous save),
 *   interruptions over the job's life and goodput (both the mean over replicas; a published
 *   goodput is a lower bound), then a service's (`strata validate --serve`): output tokens per
 *   second, and the mean time to first token and per output token over its requests, then the
 *   99th percentiles of the same two. */
#define ST_VALID_METRICS(X)                                                                        \
    X(ST_METRIC_STEP_TIME, "step_time_s")                                                          \
    X(ST_METRIC_MFU, "mfu")                                                                        \
    X(ST_METRIC_TFLOPS_PER_GPU, "tflops_per_gpu")                                                  \
    X(ST_METRIC_CKPT_SIZE, "checkpoint_size_bytes")                                                \
    X(ST_METRIC_CKPT_SAVE, "checkpoint_save_s")                                                    \
    X(ST_METRIC_INTERRUPTIONS, "interruptions")                                                    \
    X(ST_METRIC_GOODPUT, "goodput")                                                                \
    X(ST_METRIC_OUTPUT_TOKENS_PER_S, "output_tokens_per_s")                                        \
    X(ST_METRIC_TTFT_MEAN, "ttft_mean_s")                                                          \
    X(ST_METRIC_TPOT_MEAN, "tpot_mean_s")                                                          \
    X(ST_METRIC_TTFT_P99, "ttft_p99_s")                                                            \
    X(ST_METRIC_TPOT_P99, "tpot_p99_s")
typedef enum st_valid_metric { ST_VALID_METRICS(ST__ENUM_VALUE) } st_valid_metric;
extern const char *const st_valid_metric_names[];

typedef struct st_validation_cfg {
    const char *set;    /* which published set: "korthikanti2022", ... */
    const char *source; /* paper, table and row */
    st_valid_metric metric;
    double published; /* in the metric's unit: seconds, fraction, TFLOP/s */
    double period_s;  /* interruptions: the wall time the published count is over (0 = the
                         job's whole life) */
    st_loc loc;
} st_validation_cfg;

/* audit: the targets the pre-flight audit (models/forecast/audit.c) holds a plan to. The
 * defaults, st_audit_cfg_default, are the enterprise AI-infrastructure guide's (config.c). */
#define ST_AUDIT_MAX_BASEBOARDS 8
typedef struct st_audit_cfg {
    double ckpt_dump_bytes; /* checkpoint_dump.size: a checkpoint of this size ... */
    double ckpt_dump_s;     /* ... checkpoint_dump.within: should dump within this time */
    int64_t baseboard[ST_AUDIT_MAX_BASEBOARDS]; /* full_baseboard: GPUs per node of a full
                                                   baseboard, ascending */
    int n_baseboard;
    double junction_limit_c; /* junction_limit: the hottest GPU junction a plan may run at */
    double ckpt_write_share; /* checkpoint_write_share: the share of its tier's write bandwidth
                                a job's persistent checkpoints may hold; the audit warns
                                above it */
    double memory_headroom;  /* memory_headroom: the share of a GPU's HBM a plan that fits
                                should leave free; the audit warns under it */
    st_loc loc;
} st_audit_cfg;
extern const st_audit_cfg st_audit_cfg_default;

#endif
