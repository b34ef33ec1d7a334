/* The name tables of models/config/config.h's enums, each expanded from the enum's own X-macro
 * list: the one place a value's YAML and report spelling is written. */
#include "models/config/config.h"

#include <stddef.h>
#include <stdio.h>

const char *const st_cooling_kind_names[] = {ST_COOLING_KINDS(ST__ENUM_NAME) NULL};
const char *const st_ups_redundancy_names[] = {ST_UPS_REDUNDANCIES(ST__ENUM_NAME) NULL};
const char *const st_topology_names[] = {ST_TOPOLOGIES(ST__ENUM_NAME) NULL};
const char *const st_transport_names[] = {ST_TRANSPORTS(ST__ENUM_NAME) NULL};
const char *const st_routing_names[] = {ST_ROUTINGS(ST__ENUM_NAME) NULL};
const char *const st_tier_kind_names[] = {ST_TIER_KINDS(ST__ENUM_NAME) NULL};
const char *const st_precision_names[] = {ST_PRECISIONS(ST__ENUM_NAME) NULL};
const char *const st_weight_format_names[] = {ST_PRECISIONS(ST__ENUM_NAME) "mxfp4", NULL};
const char *const st_fp8_recipe_names[] = {ST_FP8_RECIPES(ST__ENUM_NAME) NULL};
const char *const st_recompute_names[] = {ST_RECOMPUTES(ST__ENUM_NAME) NULL};
const char *const st_recompute_module_names[] = {ST_RECOMPUTE_MODULES(ST__ENUM_NAME) NULL};
const char *const st_ckpt_mode_names[] = {ST_CKPT_MODES(ST__ENUM_NAME) NULL};
const char *const st_trace_format_names[] = {ST_TRACE_FORMATS(ST__ENUM_NAME) NULL};
const char *const st_trace_replay_names[] = {ST_TRACE_REPLAYS(ST__ENUM_NAME) NULL};
const char *const st_delivery_names[] = {ST_DELIVERIES(ST__ENUM_NAME) NULL};
const char *const st_pricing_names[] = {ST_PRICINGS(ST__ENUM_NAME) NULL};
const char *const st_cost_key_names[] = {ST_COST_TYPED(ST__ENUM_NAME) NULL};
const char *const st_cost_part_names[] = {ST_COST_PARTS(ST__ENUM_NAME) NULL};
const char *const st_egress_names[] = {ST_EGRESSES(ST__ENUM_NAME) NULL};
const char *const st_grad_coll_names[] = {ST_GRAD_COLLS(ST__ENUM_NAME) NULL};
const char *const st_workload_kind_names[] = {ST_WORKLOAD_KINDS(ST__ENUM_NAME) NULL};
const char *const st_req_mode_names[] = {ST_REQ_MODES(ST__ENUM_NAME) NULL};
const char *const st_req_format_names[] = {ST_REQ_FORMATS(ST__ENUM_NAME) NULL};
const char *const st_admission_names[] = {ST_ADMISSIONS(ST__ENUM_NAME) NULL};
const char *const st_attention_names[] = {ST_ATTENTIONS(ST__ENUM_NAME) NULL};
const char *const st_moe_dispatcher_names[] = {ST_MOE_DISPATCHERS(ST__ENUM_NAME) NULL};
const char *const st_kernels_names[] = {ST_KERNELS(ST__ENUM_NAME) NULL};
const char *const st_valid_metric_names[] = {ST_VALID_METRICS(ST__ENUM_NAME) NULL};

/* The audit's targets, as the enterprise AI-infrastructure guide the project follows states
 * them: "a 2 TB checkpoint should dump in under 15 s" (its storage level) and "a full 4- or
 * 8-GPU baseboard" per node (its pre-flight audit); docs/guide/scenario-reference.md (audit). */
const st_audit_cfg st_audit_cfg_default = {
    .ckpt_dump_bytes = 2e12,
    .ckpt_dump_s = 15,
    .baseboard = {4, 8},
    .n_baseboard = 2,
    /* The guide's plant level: "junction temperature under 75 C". */
    .junction_limit_c = 75,
    /* An assumption, not a published figure: a job's steady persistent checkpoint writes may
     * hold a tenth of its tier's write bandwidth, leaving the rest to its own ingest and the
     * tier's other tenants (Llama 3's Tectonic serves all of Meta's jobs; the paper, section
     * 3.3.1, calls its checkpoint writes "highly bursty" writes that "saturate the storage
     * fabric"). Settable as audit.checkpoint_write_share; the audit warns above it. */
    .ckpt_write_share = 0.10,
    /* A plan that fits with under this fraction of HBM left runs only if what the memory model
     * leaves out fits in what is left: the allocator's fragmentation (GMLake, arXiv 2401.08156,
     * removes up to 33% of the memory PyTorch's caching allocator reserves in large-model
     * training as fragmentation) and the transient buffers listed in
     * docs/models/memory-model.md. torchtitan's measured plans peak at up to 89% of their GPU's
     * memory (pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Table 6: 84.9 of
     * 95 GiB), so a forecast above 90% is where a real run starts to fail. Settable as
     * audit.memory_headroom; the audit warns under it and `size` names the rows under it. */
    .memory_headroom = 0.10,
};

/* Two-level checkpoints' constants (docs/models/storage-and-failures.md, "Two-level
 * checkpoints"). */
const st_ckpt_preset st_ckpt_preset_default = {
    /* Gemini (Wang et al., "Gemini: Fast Failure Recovery in Distributed Training with
     * In-Memory Checkpoints", SOSP'23) keeps each machine's checkpoint in its own CPU memory
     * and in m - 1 peers' ("group" placement); one peer copy is the smallest replication that
     * survives the loss of a whole node. */
    .replicas = 1,
    /* A written byte's share of a flash drive's life: Solidigm D5-P5336, 61.44 TB QLC, the
     * capacity drive of AI storage tiers in 2024: EUR 5,190 in Germany at launch (monitor.si,
     * "Najvecji SSD-ji meri ze 61 TB", Jan 2024), about USD 5,600; rated 0.58 drive writes per
     * day over a 5-year warranty (Solidigm's product brief, random 64 KB writes; recalled, to
     * be checked against the brief). So a byte written costs 5,600 / (61.44e12 x 0.58 x 1,826)
     * = 8.6e-14 USD, 0.086 USD per TB. */
    .drive_price_usd = 5600,
    .drive_bytes = 61.44e12,
    .drive_dwpd = 0.58,
    .drive_life_s = 5 * 365.25 * 86400,
    /* EC2 Capacity Blocks for p5.48xlarge, USD 4.916 per H100-hour (AWS Capacity Blocks
     * pricing; docs/models/cost.md): the value of a GPU's time when the write cost of a save
     * is turned into seconds of the job. */
    .gpu_hour_usd_per_s = 4.916 / 3600,
};

const st_inference_preset st_inference_preset_default = {
    /* vLLM's serving benchmark sends --num-prompts 1000 by default (vllm/benchmarks/serve.py,
     * formerly benchmarks/benchmark_serving.py). */
    .count = 1000,
    /* vllm/engine/arg_utils.py, EngineArgs._set_default_args (v0.11, and the same numbers in
     * the later _set_default_max_num_seqs_and_batched_tokens_args): on a GPU of at least 70 GiB
     * whose name does not contain "a100" (PR #17885), max_num_seqs 1024 and
     * max_num_batched_tokens 16384 for the LLM class, 8192 for the OpenAI server; on any other
     * GPU 256, and 8192 / 2048. */
    .max_seqs_large = 1024,
    .max_seqs_small = 256,
    .batch_tokens_offline_large = 16384,
    .batch_tokens_server_large = 8192,
    .batch_tokens_offline_small = 8192,
    .batch_tokens_server_small = 2048,
    .large_gpu_bytes = 70.0 * 1073741824.0,
    /* vllm/config/cache.py: gpu_memory_utilization 0.9. */
    .gpu_memory_share = 0.9,
    /* vllm/platforms/cuda.py, check_and_update_config: block_size 16 on CUDA. */
    .block_tokens = 16,
    /* Knative's autoscaler (KServe's default) scales at 70% of a replica's capacity:
     * config-autoscaler's container-concurrency-target-percentage "70" (knative.dev/docs/serving/
     * autoscaling/concurrency, "Target utilization"). */
    .scale_utilization = 0.7,
    /* Kubernetes' horizontal pod autoscaler: --horizontal-pod-autoscaler-sync-period 15 s, and a
     * scale-down stabilisation window of 300 s (HorizontalPodAutoscalerBehavior.scaleDown:
     * "the highest recommendation for the last 300sec is used"), kubernetes.io/docs/tasks/
     * run-application/horizontal-pod-autoscale. */
    .scale_interval_s = 15,
    .scale_window_s = 300,
    /* Its scale-up limit when a HorizontalPodAutoscaler states no behavior: "the higher of:
     * increase no more than 4 pods per 60 seconds; double the number of pods per 60 seconds",
     * no stabilisation (HorizontalPodAutoscalerBehavior.scaleUp, autoscaling/v2 API
     * reference). */
    .scale_up_pods = 4,
    .scale_up_share = 1.0,
    .scale_up_period_s = 60,
    /* A vLLM replica's cold start, the steps other than its weights, measured by Tensorfuse
     * ("Reducing GPU Cold Start Time when using vLLM", 2025-09-01, tensorfuse.io/docs/blogs/
     * reducing_gpu_cold_start: Llama-3.1-8B-Instruct on an L40S, its second table, with
     * /root/.cache on a shared volume so the download, the torch.compile cache and the other
     * artifacts persist across pods, as they do for a service that scales to zero and back):
     * "Init engine and imports" 34 s; "Dynamo bytecode transformation" 10 s and "Graph
     * compilation" 13 s (torch.compile, 23 s); "Graph capture" 7 s (CUDA graphs). Its "Weight
     * loading" (18 s) is not taken: Strata times the weights' read from the scenario's own
     * storage tier. */
    .cold_init_s = 34,
    .cold_compile_s = 23,
    .cold_graph_s = 7,
    /* An offline batch runs in the process that holds its requests (vLLM's LLM class,
     * TensorRT-LLM's trtllm-bench): no front end. A stream reaches the engine through a server;
     * the one whole serving stack whose fixed costs are published is Triton's TensorRT-LLM
     * backend (models/config/frontend.c), so a stream that names none is taken through it. */
    .frontend_offline = "none",
    .frontend_online = "triton-trtllm",
};

void st_cudnn_text(int release, char out[ST_CUDNN_TEXT])
{
    snprintf(out, ST_CUDNN_TEXT, "%d.%d", release / 100, release % 100);
}

int st_inference_has_rate(const st_inference_cfg *ic)
{
    if (ic->n_load > 0)
        return 0;
    return ic->mode == ST_REQ_POISSON || (ic->mode == ST_REQ_TRACE && ic->rate > 0);
}

double st_inference_mean_rate(const st_inference_cfg *ic)
{
    const st_load_point *p = ic->load;
    double sum = 0;
    for (int i = 1; i < ic->n_load; i++)
        sum += 0.5 * (p[i - 1].rate + p[i].rate) * (p[i].at_s - p[i - 1].at_s);
    return sum / (p[ic->n_load - 1].at_s - p[0].at_s);
}
