/* A GPU as the models see it: datasheet figures in SI units, its architecture and the key of
 * its measured calibrations. The preset table of named GPUs lives in scenarios/catalog.c, each
 * figure with its source. */
#ifndef ST_MODELS_SILICON_GPU_H
#define ST_MODELS_SILICON_GPU_H

#include <stddef.h>

#include "models/config/config.h"

/* The architecture, which kernel libraries and NCCL key their behaviour on: Ampere's NVLink 3,
 * Hopper's TN-only FP8 GEMMs, Blackwell's NVLink 5, NVLS efficiency and MXFP8's block-scaled
 * Tensor Cores (NVIDIA's and AMD's architecture whitepapers). UNKNOWN, the zero value, is a
 * hardware.gpus entry without base: its own figures, no architecture-specific behaviour. */
#define ST_GPU_ARCHS(X)                                                                            \
    X(ST_GPU_ARCH_UNKNOWN, "unknown")                                                              \
    X(ST_GPU_ARCH_AMPERE, "ampere")                                                                \
    X(ST_GPU_ARCH_HOPPER, "hopper")                                                                \
    X(ST_GPU_ARCH_BLACKWELL, "blackwell") X(ST_GPU_ARCH_CDNA3, "cdna3")
typedef enum st_gpu_arch { ST_GPU_ARCHS(ST__ENUM_VALUE) } st_gpu_arch;

/* The part whose measurements (kernel efficiency curves, HBM share, sustained clock:
 * models/silicon/gemm_eff.c) apply. NONE, the zero value, is a GPU no measurement covers.
 * Each catalog part has its own key, and a hardware.gpus entry with base: takes its base's, so
 * renaming a part keeps its calibrations. */
typedef enum st_gpu_calib {
    ST_GPU_CALIB_NONE,
    ST_GPU_CALIB_A100_SXM_40G,
    ST_GPU_CALIB_A100_SXM_80G,
    ST_GPU_CALIB_H100_SXM,
    ST_GPU_CALIB_H100_PCIE,
    ST_GPU_CALIB_H200_SXM,
    ST_GPU_CALIB_B200,
    ST_GPU_CALIB_GB200,
    ST_GPU_CALIB_MI300X,
    ST_GPU_CALIB__COUNT
} st_gpu_calib;

typedef struct st_gpu_spec {
    const char *name;        /* catalog key, e.g. "h100-sxm" */
    const char *description; /* "NVIDIA H100 SXM5 80GB" */
    double peak_bf16;        /* dense Tensor Core FLOP/s, BF16/FP16 (datasheet sparse / 2) */
    double peak_fp8;         /* dense FP8 FLOP/s; 0 where the part has no FP8 Tensor Cores */
    double peak_fp4;         /* dense NVFP4 FLOP/s; 0 where the part has no FP4 Tensor Cores */
    double hbm_bytes;        /* HBM capacity, bytes */
    double hbm_bw;           /* HBM bandwidth, bytes/s */
    double nvlink_bw;        /* NVLink / Infinity Fabric per GPU, bytes/s, both directions added
                                (datasheet convention: 900 GB/s on H100 = 450 GB/s each way) */
    double pcie_bw;          /* host link per direction, bytes/s */
    double tdp_w;            /* board power limit, W */
    double idle_w;           /* idle board power, W */
    double power_limit_w;    /* a power limit set below tdp_w (nvidia-smi -pl), W; 0: tdp_w.
                                Its clock is models/plant/dvfs.h's st_plant_power_clock */
    const char *source;      /* where the figures come from */
    /* Not scenario keys: set by the catalog, inherited through base:, zero otherwise. */
    st_gpu_arch arch;
    st_gpu_calib calib;
    int nvswitch; /* NVLink ports go to NVSwitch chips (SXM boards, NVL72 racks); 0 for PCIe
                     cards' NVLink bridges and for other vendors' links */
    /* The platform's node besides its GPUs (CPUs, DIMMs, NICs, NVSwitches, fans, drives, power
     * conversion), board side like tdp_w (the plant divides by the PSU efficiency), W, for a
     * node of node_gpus GPUs: the default of cluster.node.base_power, each figure with its
     * source in scenarios/catalog.c. 0: no platform figure; the scenario states base_power. */
    double node_base_w;
    int node_gpus;
    /* The GPUs one NVLink domain of the platform joins where it spans more than a node (72: a
     * GB200 NVL72 rack of 18 trays); 0: the node's own GPUs (an HGX baseboard's NVSwitches).
     * What `strata size` gives a GPU type it searches on a platform other than the scenario's
     * node (planner/size.c, platform_shape); a scenario states its own cluster.nvlink_domain. */
    int platform_domain;
    /* Not a scenario key: the share of its full sustained clock the part runs at, set by the
     * step model from its clock input (a thermal throttle, models/plant/thermal.h); 0 or 1:
     * full clock. Compute-bound operator times divide by it (st_gpu_sustained). */
    double clock;
    /* Not a scenario key: the cluster's own Tensor Core throughput over the model's, per
     * precision (BF16, FP8; FP4 has no calibration input and takes 1), from cluster.calibration,
     * set by the step model; 0: 1. Compute-bound operator times divide by it (st_gpu_fitted). */
    double fit_compute[2];
} st_gpu_spec;

/* The architecture's name ("hopper"); "?" out of range. */
static inline const char *st_gpu_arch_name(st_gpu_arch a)
{
    static const char *const names[] = {ST_GPU_ARCHS(ST__ENUM_NAME) NULL};
    if ((int)a < 0 || (int)a >= (0 ST_GPU_ARCHS(ST__ENUM_COUNT)))
        return "?";
    return names[a];
}

/* Whether g is a Hopper (H100, H200) or a Blackwell (B200, GB200) part. 0 for NULL. */
static inline int st_gpu_is_hopper(const st_gpu_spec *g)
{
    return g && g->arch == ST_GPU_ARCH_HOPPER;
}

static inline int st_gpu_is_blackwell(const st_gpu_spec *g)
{
    return g && g->arch == ST_GPU_ARCH_BLACKWELL;
}

/* Whether g has Tensor Cores of precision p (BF16 on every part; FP8 and FP4 where their peak is
 * stated): the loader's rule for a workload's precision and its experts', and the sizing
 * search's for every GPU type it tries. */
static inline int st_gpu_has_precision(const st_gpu_spec *g, st_precision p)
{
    return p == ST_PREC_FP4 || p == ST_PREC_MXFP4 ? g->peak_fp4 > 0
           : p == ST_PREC_FP8                     ? g->peak_fp8 > 0
                                                  : 1;
}
#endif
