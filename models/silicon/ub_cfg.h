/* Transformer Engine's userbuffers settings for TP communication overlap, per GEMM: its own
 * defaults and the tuned ones NeMo's and Megatron-Bridge's performance scripts and NVIDIA's
 * MLPerf GPT-3 code pass (parallel.tp_comm_overlap_cfg; docs/models/step-model.md, "TP
 * communication overlap"). */
#ifndef ST_SILICON_UB_CFG_H
#define ST_SILICON_UB_CFG_H

#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"

/* The GEMMs a layer pairs with a TP collective, as Transformer Engine names their buffers. */
typedef enum st_ub_slot {
    ST_UB_QKV_FPROP,
    ST_UB_QKV_DGRAD,
    ST_UB_QKV_WGRAD,
    ST_UB_PROJ_FPROP,
    ST_UB_PROJ_DGRAD,
    ST_UB_FC1_FPROP,
    ST_UB_FC1_DGRAD,
    ST_UB_FC1_WGRAD,
    ST_UB_FC2_FPROP,
    ST_UB_FC2_DGRAD,
    ST_UB__COUNT
} st_ub_slot;

/* The names parallel.tp_comm_overlap_cfg takes, in table order, NULL-terminated; index 0 is
 * Transformer Engine's defaults ("te-default"). */
extern const char *const st_ub_cfg_names[];

/* The index of the configuration named name in st_ub_cfg_names, or -1 when none is. */
int st_ub_cfg_find(const char *name);

/* The setting of GEMM slot under configuration cfg (an index into st_ub_cfg_names; out of range
 * reads as 0). */
const st_ub_gemm *st_ub_cfg_gemm(int cfg, st_ub_slot slot);

/* The GPU architecture configuration cfg was tuned on, read from its name (h100: Hopper; b200,
 * which NeMo's and Megatron-Bridge's scripts also pass on GB200: Blackwell); UNKNOWN for
 * Transformer Engine's defaults, tuned for none. */
st_gpu_arch st_ub_cfg_arch(int cfg);

#endif
