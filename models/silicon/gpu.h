/* A GPU as the models see it: datasheet figures in SI units. The preset table of named GPUs
 * lives in scenarios/catalog.c, each figure with its source. */
#ifndef ST_MODELS_SILICON_GPU_H
#define ST_MODELS_SILICON_GPU_H

#include <stddef.h>
#include <string.h>

typedef struct st_gpu_spec {
    const char *name;        /* catalog key, e.g. "h100-sxm" */
    const char *description; /* "NVIDIA H100 SXM5 80GB" */
    double peak_bf16;        /* dense Tensor Core FLOP/s, BF16/FP16 (datasheet sparse / 2) */
    double peak_fp8;         /* dense FP8 FLOP/s; 0 where the part has no FP8 Tensor Cores */
    double hbm_bytes;        /* HBM capacity, bytes */
    double hbm_bw;           /* HBM bandwidth, bytes/s */
    double nvlink_bw;        /* NVLink / Infinity Fabric per GPU, bytes/s, both directions added
                                (datasheet convention: 900 GB/s on H100 = 450 GB/s each way) */
    double pcie_bw;          /* host link per direction, bytes/s */
    double tdp_w;            /* board power limit, W */
    double idle_w;           /* idle board power, W */
    const char *source;      /* where the figures come from */
    const char *family;      /* the catalog part whose measured calibrations apply (kernel
                                curves, sustained clock, NVLink goodput, NVLS): NULL for the
                                part itself (its name), the base's for a hardware.gpus entry
                                with base: */
} st_gpu_spec;

/* The catalog name every calibration lookup keys on: g's family, or its name. NULL for NULL. */
static inline const char *st_gpu_family(const st_gpu_spec *g)
{
    return !g ? 0 : g->family ? g->family : g->name;
}

/* Whether g's family starts with one of the NULL-terminated prefixes ("a100" takes in
 * "a100-sxm-80g" and "a100-sxm-40g"). 0 for NULL. */
static inline int st_gpu_family_in(const st_gpu_spec *g, const char *const *prefixes)
{
    const char *family = st_gpu_family(g);
    for (size_t i = 0; family && prefixes[i]; i++)
        if (strncmp(family, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* The GPU's architecture, by family prefix: Hopper (H100, H200, H800) and Blackwell (B200,
 * B300, GB200, GB300; NVIDIA's architecture whitepapers). Kernel libraries and NCCL key their
 * behaviour on it: Blackwell's NVLink 5 and its NVLS efficiency, MXFP8's block-scaled Tensor
 * Cores, and Hopper's TN-only FP8 GEMMs. 0 for NULL. */
static inline int st_gpu_is_hopper(const st_gpu_spec *g)
{
    static const char *const hopper[] = {"h100", "h200", "h800", NULL};
    return st_gpu_family_in(g, hopper);
}

static inline int st_gpu_is_blackwell(const st_gpu_spec *g)
{
    static const char *const blackwell[] = {"b200", "b300", "gb200", "gb300", NULL};
    return st_gpu_family_in(g, blackwell);
}
#endif
