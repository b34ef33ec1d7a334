/* The MoE token dispatchers that are not NCCL all-to-alls (DeepEP, HybridEP): how many rows
 * they move and at what measured bandwidth (docs/models/step-ops.md, "Token dispatchers"). */
#ifndef ST_MODELS_SILICON_DISPATCH_H
#define ST_MODELS_SILICON_DISPATCH_H

#include "models/config/config.h"
#include "models/silicon/gpu.h"

/* The rows a flex dispatcher moves per token over those an all-to-all dispatcher moves: one
 * row per destination rank instead of one per expert, so with top-k routing uniform over
 * `experts` experts held experts/ep to a rank, ep (1 - C(E - E/ep, k) / C(E, k)) / k. 1 when
 * there is nothing to merge (k = 1, or ep = 1 / experts at ep). */
double st_moe_flex_row_share(double experts, double topk, double ep);

/* The same share for model m's routing over `parts` equal blocks of consecutive experts (EP
 * ranks, or the nodes of an EP group): st_moe_flex_row_share's, or under group-limited routing
 * (expert_groups) the blocks a token reaches among its groups' experts, where the blocks and
 * the groups nest (one in the other); other layouts are taken as uniform
 * (docs/models/step-ops.md, "Token dispatchers"). */
double st_moe_routed_share(const st_llm_spec *m, double parts);

/* The bandwidth that dispatcher `disp`'s dispatch (combine = 0) or combine (combine = 1)
 * reached over ep ranks of gpu's kind, within one NVLink domain (across = 0) or across them
 * (across = 1), in bytes per second of received rows, or of RDMA rows for DeepEP across nodes
 * (st_moe_flex_exchange_s turns rows into those); 0 where no measurement covers that GPU,
 * dispatcher and domain. */
double st_moe_flex_bw(const st_gpu_spec *gpu, st_moe_dispatcher disp, double ep, int across,
                      int combine);

/* One exchange of dispatcher disp, the mean of a dispatch and a combine, where each rank
 * receives row_bytes of rows (one per token and rank holding one of its experts, BF16) over
 * ep ranks spanning `nodes` NVLink domains: at the measured bandwidth, and where the
 * measurement is of RDMA traffic (DeepEP across nodes) for the rows that cross it, one per
 * token and destination node, under model m's routing (st_moe_routed_share). -1 where no
 * measurement covers the GPU, dispatcher and domain. */
double st_moe_flex_exchange_s(const st_gpu_spec *gpu, st_moe_dispatcher disp, double ep, int across,
                              double nodes, const st_llm_spec *m, double row_bytes);

/* Whether plan p's EP group, ep x etp consecutive GPUs, spans NVLink domains of
 * nvlink_domain GPUs (0: unknown, taken as one domain): which of st_moe_flex_bw's measurements
 * applies. */
int st_moe_ep_across(const st_parallel_cfg *p, int64_t nvlink_domain);

/* How service w's MoE layers exchange tokens over a group of attention-DP replicas (tp 1,
 * ep > 1), an st_moe_dispatcher: the stated moe_dispatcher, else the engines' own, all-gather
 * and reduce-scatter where the group is no larger than top-k (TensorRT-LLM's CUTLASS MoE turns
 * its all-to-all off there; vLLM's default backend is allgather_reducescatter) and all-to-all
 * above it (TensorRT-LLM's wide expert parallelism). */
int st_moe_serve_dispatcher(const st_workload_cfg *w);

/* The measurements' coverage in words, for messages ("b200 and gb200 in one NVLink domain,
 * h100-sxm across nodes"). */
const char *st_moe_flex_covered(st_moe_dispatcher disp);

#endif
