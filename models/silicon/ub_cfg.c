/* Userbuffers settings per GEMM (models/silicon/ub_cfg.h). Row 0 is Transformer Engine's
 * initialize_ub defaults (transformer_engine/pytorch/module/base.py, TE 1.x and 2.x): ring
 * exchange (one SM) for qkv_fprop, fc1_fprop, proj_dgrad and fc2_dgrad; pipeline for proj_fprop
 * and fc2_fprop and bulk for the dgrad and wgrad buffers, each on 16 SMs in clusters of 2 with
 * the GEMM launched on the rest (set_sm_margin). The other rows are NeMo's
 * TransformerLayerTPOverlapCfg presets (nemo/collections/llm/recipes/tp_overlap_configs/
 * userbuffers.py) at the tags named, the LoRA ones left out: NeMo's performance scripts pass them
 * to MegatronCommOverlapCallback per model, GPU and precision (scripts/llm/performance/ at
 * v2.2.0, scripts/performance/llm/ at v2.3.0). NeMo 25.02 is v2.2.0 and 25.04 is v2.3.0
 * (docs/models/software.md). Megatron-Bridge keeps its own copy of the presets
 * (src/megatron/bridge/training/comm_overlap.py), which its scripts/performance/configs pass the
 * same way: the rows named megatron-bridge v0.2.0 (its 25.11 release) are that file's, whose
 * presets are unchanged through v0.6.0 (August 2026; the 19 parsed alike at each tag). Every bulk
 * preset holds its SMs in clusters of 2 without a margin, every pipeline one in clusters of 2
 * with it, in 4 pieces; aggregate ring exchange sends two pieces at a time. The rows were
 * generated from the files at those tags, not typed. The last row is NVIDIA's MLPerf Training
 * v3.1 GPT-3 175B submission's (mlcommons/training_results_v3.1 at f33f944, NVIDIA/benchmarks/
 * gpt3/implementations/pytorch/conf/tp_overlap/h100tp4pp8mbs1.yaml, which its conf/custom.yaml
 * loads for TP 4, PP 8, micro-batch 1), read by hand; its reduce-scatters ran TE's atomic GEMM
 * (NVTE_UB_ATOMIC_GEMM_RS=1, config_common.sh), timed here as the pipeline it replaces. */
#include "models/silicon/ub_cfg.h"

#include <string.h>

/* clang-format off */
#define RING       {ST_TP_RING, 1, 0, 0}
#define RING_M     {ST_TP_RING, 1, 1, 0}
#define RING_AGG   {ST_TP_RING, 1, 0, 1}
#define RING_M_AGG {ST_TP_RING, 1, 1, 1}
#define BULK(n)    {ST_TP_BULK, n, 0, 0}
#define PIPE(n)    {ST_TP_PIPELINE, n, 1, 0}
#define TE_BULK    {ST_TP_BULK, 16, 1, 0}
/* clang-format on */

/* The names, in table order (st_ub_cfg_names), and each row's settings in st_ub_slot order. */
const char *const st_ub_cfg_names[] = {
    "te-default",
    "nemo v2.2.0 userbuffers_bf16_h100_h8192_tp4_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_fp8_h100_h8192_tp4_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_bf16_b200_h8192_tp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_fp8_b200_h8192_tp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_bf16_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_fp8_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_bf16_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "nemo v2.2.0 userbuffers_bf16_h100_h6144_tp2_mbs2_seqlen2048",
    "nemo v2.2.0 userbuffers_fp8_h100_h6144_tp2_mbs2_seqlen2048",
    "nemo v2.2.0 userbuffers_bf16_h100_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.2.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.2.0 userbuffers_bf16_b200_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.2.0 userbuffers_fp8_b200_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.2.0 userbuffers_bf16_b200_h6144_tp2_mbs1_seqlen4096",
    "nemo v2.2.0 userbuffers_bf16_b200_h18432_tp8_mbs1_seqlen4096",
    "nemo v2.3.0 userbuffers_bf16_h100_h8192_tp4_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_fp8_h100_h8192_tp4_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_bf16_b200_h8192_tp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_fp8_b200_h8192_tp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_bf16_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_fp8_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_bf16_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "nemo v2.3.0 userbuffers_bf16_h100_h6144_tp2_mbs2_seqlen2048",
    "nemo v2.3.0 userbuffers_fp8_h100_h6144_tp2_mbs2_seqlen2048",
    "nemo v2.3.0 userbuffers_bf16_h100_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.3.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.3.0 userbuffers_bf16_b200_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.3.0 userbuffers_fp8_b200_h12288_tp4_mbs1_seqlen2048",
    "nemo v2.3.0 userbuffers_bf16_b200_h6144_tp2_mbs1_seqlen4096",
    "nemo v2.3.0 userbuffers_bf16_b200_h18432_tp8_mbs1_seqlen4096",
    "nemo v2.3.0 userbuffers_fp8_b200_h18432_tp8_mbs1_seqlen4096",
    "megatron-bridge v0.2.0 userbuffers_bf16_h100_h8192_tp4_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_fp8_h100_h8192_tp4_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_bf16_b200_h8192_tp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_fp8_b200_h8192_tp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_bf16_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_fp8_h100_h16384_tp8_cp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_bf16_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_fp8_b200_h16384_tp4_cp2_mbs1_seqlen8192",
    "megatron-bridge v0.2.0 userbuffers_bf16_h100_h6144_tp2_mbs2_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_fp8_h100_h6144_tp2_mbs2_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_bf16_h100_h12288_tp4_mbs1_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_bf16_b200_h12288_tp4_mbs1_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_fp8_b200_h12288_tp4_mbs1_seqlen2048",
    "megatron-bridge v0.2.0 userbuffers_bf16_b200_h6144_tp2_mbs1_seqlen4096",
    "megatron-bridge v0.2.0 userbuffers_bf16_b200_h18432_tp8_mbs1_seqlen4096",
    "megatron-bridge v0.2.0 userbuffers_fp8_b200_h18432_tp8_mbs1_seqlen4096",
    "mlperf-training v3.1 nvidia h100tp4pp8mbs1",
    NULL};

static const st_ub_gemm UB[][ST_UB__COUNT] = {
    {RING, TE_BULK, TE_BULK, PIPE(16), RING, RING, TE_BULK, TE_BULK, PIPE(16), RING},
    {RING, BULK(4), BULK(24), PIPE(24), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), PIPE(24), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(16), BULK(24), PIPE(32), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING_AGG, BULK(2), BULK(24), PIPE(24), RING_AGG, RING_AGG, BULK(2), BULK(2), PIPE(8),
     RING_AGG},
    {RING_AGG, BULK(2), BULK(24), PIPE(24), RING_AGG, RING_AGG, BULK(2), BULK(2), PIPE(8),
     RING_AGG},
    {RING_AGG, BULK(8), BULK(24), PIPE(32), RING_AGG, RING_AGG, BULK(2), BULK(2), PIPE(8),
     RING_AGG},
    {RING_AGG, BULK(8), BULK(32), RING_M, RING_AGG, RING_AGG, BULK(2), BULK(8), RING_M, RING_AGG},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(4), BULK(4), PIPE(24), RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(4), PIPE(24), RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), PIPE(24), RING},
    {RING, BULK(4), BULK(24), PIPE(24), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(16), BULK(24), PIPE(32), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING_AGG, BULK(2), BULK(24), PIPE(24), RING_AGG, RING_AGG, BULK(2), BULK(2), PIPE(8),
     RING_AGG},
    {RING_AGG, BULK(2), BULK(24), RING_M, RING_AGG, RING_AGG, BULK(2), BULK(2), RING_M, RING_AGG},
    {RING, BULK(8), BULK(24), PIPE(32), RING, RING, BULK(2), BULK(2), PIPE(8), RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(4), BULK(4), PIPE(24), RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(4), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), PIPE(24), RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(4), BULK(24), PIPE(24), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(16), BULK(24), PIPE(32), RING, RING, BULK(2), BULK(4), PIPE(16), RING},
    {RING, BULK(4), BULK(24), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(2), BULK(24), PIPE(24), RING, RING, BULK(2), BULK(2), PIPE(8), RING},
    {RING, BULK(2), BULK(24), RING_M, RING, RING, BULK(2), BULK(2), RING_M, RING},
    {RING, BULK(8), BULK(24), PIPE(32), RING, RING, BULK(2), BULK(2), PIPE(8), RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(8), BULK(16), PIPE(16), RING, RING, BULK(4), BULK(16), PIPE(24), RING},
    {RING, BULK(4), BULK(4), PIPE(24), RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(4), RING_M, RING, RING, BULK(2), BULK(4), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(4), BULK(16), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), PIPE(24), RING},
    {RING, BULK(8), BULK(32), RING_M, RING, RING, BULK(2), BULK(8), RING_M, RING},
    {RING, BULK(4), BULK(8), PIPE(24), RING, RING, BULK(2), BULK(4), PIPE(4), RING_AGG},
};

#define N_UB ((int)(sizeof UB / sizeof UB[0]))
_Static_assert(sizeof st_ub_cfg_names / sizeof st_ub_cfg_names[0] == sizeof UB / sizeof UB[0] + 1,
               "a name for every row of settings");

const st_ub_gemm *st_ub_cfg_gemm(int cfg, st_ub_slot slot)
{
    return &UB[cfg >= 0 && cfg < N_UB ? cfg : 0][slot];
}

int st_ub_cfg_find(const char *name)
{
    for (int i = 0; name && st_ub_cfg_names[i]; i++)
        if (strcmp(st_ub_cfg_names[i], name) == 0)
            return i;
    return -1;
}

st_gpu_arch st_ub_cfg_arch(int cfg)
{
    const char *name = cfg > 0 && cfg < N_UB ? st_ub_cfg_names[cfg] : NULL;
    if (name && strstr(name, "h100"))
        return ST_GPU_ARCH_HOPPER;
    if (name && strstr(name, "b200"))
        return ST_GPU_ARCH_BLACKWELL;
    return ST_GPU_ARCH_UNKNOWN;
}
