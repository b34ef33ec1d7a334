/* The fabric validation cases as a data table: each row names its published source, the cluster
 * and collective behind the measurement, and whether it set a constant (calibration), tests the
 * model (validation) or lies outside it (reference). Fabrics are one non-blocking leaf with no
 * wire latency: NCCL's per-hop latencies (models/fabric/nccl.c) already hold the wire of the
 * systems they were measured on. docs/models/fabric.md explains which rows count. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/fabric/collective.h"
#include "scenarios/catalog.h"
#include "sim/xalloc.h"
#include "validate/validate_internal.h"

#define GIB 1073741824.0
#define MIB 1048576.0

/* GPUs the catalog lacks, with the one figure the fabric needs. */
static const st_gpu_spec h800 = {
    .name = "h800-sxm",
    .description = "NVIDIA H800 SXM (China-market H100)",
    .nvlink_bw = 400e9, /* NVLink 400 GB/s bidirectional */
    .source = "NVIDIA H800 SXM product brief (NVLink 400 GB/s)",
    .arch = ST_GPU_ARCH_HOPPER,
    .nvswitch = 1,
};
static const st_gpu_spec b300 = {
    .name = "b300",
    .description = "NVIDIA B300 SXM6",
    /* No published B300 NVLink figure was found; HGX B300 uses fifth-generation NVLink like the
     * B200, 1.8 TB/s per GPU. An assumption, stated in the row's note. */
    .nvlink_bw = 1800e9,
    .source = "NVLink 5 figure of the HGX B200 specifications, assumed for B300",
    .arch = ST_GPU_ARCH_BLACKWELL,
    .nvswitch = 1,
};

typedef struct vcase {
    const char *name, *source, *note;
    st_valid_kind kind;
    const char *gpu; /* catalog name, or NULL for `custom` */
    const st_gpu_spec *custom;
    int64_t nodes, gpn, domain; /* domain 0: the node */
    int nics;
    double nic_gbit;
    st_transport transport;
    st_coll_algo algo;
    int64_t ranks; /* 0: every GPU */
    double bytes;
    int time_metric; /* 0: busbw GB/s within 10%; 1: time us within a factor of 2 */
    double measured;
    st_coll_op op; /* nccl-tests' all_reduce_perf, reduce_scatter_perf, all_gather_perf or
                      alltoall_perf */
} vcase;

#define IB   ST_TRANSPORT_INFINIBAND
#define ROCE ST_TRANSPORT_ROCE_V2
#define OPA  ST_TRANSPORT_OMNI_PATH

/* A row of aiconfigurator's NCCL 2.29.2 sweeps on one node of 8 GPUs (fp16, `mib` MiB). */
#define AIC(name, gpu_label, gpu, op, mib, busbw, kind, note)                                      \
    {                                                                                              \
        name, "aiconfigurator nccl_perf (" gpu_label ", NCCL 2.29.2)", note, kind, gpu, NULL, 1,   \
            8, 0, 8, 400, IB, ST_COLL_AUTO, 0, (mib)*MIB, 0, busbw, op                             \
    }
/* An all-to-all row of the B300 sweep, on the B300 above (the catalog has none). */
#define AIC_B300(name, mib, busbw)                                                                 \
    {                                                                                              \
        name, "aiconfigurator nccl_perf (B300, NCCL 2.29.2)",                                      \
            "alltoall_perf, 8 GPUs of one node; mean of the fp16 and int8 series",                 \
            ST_VALID_VALIDATION, NULL, &b300, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, (mib)*MIB, 0,  \
            busbw, ST_COLL_ALL_TO_ALL                                                              \
    }
#define AIC_MIDRING "mid-size rings: the protocol and channel ramp is fitted on all-reduce"
#define AIC_A2A_CAL "sets the all-to-all regimes (models/fabric/nccl.c)"

static const vcase cases[] = {
    /* Calibration sources: models/fabric/transport.c sets the NVLink and NIC goodputs from these.
     */
    {"cal-h100-nvlink-ring", "nccl_maintainer_h100_nvlink (nccl-tests #212, nccl #1442)",
     "sets the NVLink goodput 370/450", ST_VALID_CALIBRATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB,
     ST_COLL_RING, 0, 8 * GIB, 0, 370, 0},
    {"cal-ndr-nic-ring", "nccl_maintainer_h100_multinode (nccl-tests #290): 46-48 GB/s per NIC",
     "sets the NIC goodput 47/50; 2 nodes x 1 GPU, so busbw is one NIC's", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 2, 1, 0, 1, 400, IB, ST_COLL_RING, 0, 8 * GIB, 0, 47, 0},
    {"cal-h100-nvls", "issue_h100_nvls_on_off_and_b300 (nccl #2140)",
     "NVLS on; sets NVLS's share of an NVLink direction (models/fabric/nccl.c)",
     ST_VALID_CALIBRATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 480,
     0},
    /* Bandwidth: ring-bound measurements not used for any constant. */
    {"h100-8gpu-ring-nvls-off", "issue_h100_nvls_on_off_and_b300 (nccl #2140)",
     "NVLS off; the same quantity as the NVLink calibration, measured by someone else",
     ST_VALID_VALIDATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_RING, 0, 8 * GIB, 0, 370,
     0},
    {"h100-4gpu-ring", "issue_h100_nvls_vs_ngpus (nccl #1455): ring 365-370 for 2-8 GPUs",
     "4 GPUs of an 8-GPU board; measured taken as the middle, 367.5", ST_VALID_VALIDATION,
     "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_RING, 4, 8 * GIB, 0, 367.5, 0},
    {"b300-8gpu-ring-nvls-off", "issue_h100_nvls_on_off_and_b300 (nccl #2140)",
     "NVLS off; B300 NVLink assumed 1.8 TB/s as B200 (no published B300 figure); tests "
     "NVLink 5's goodput, set on Azure's GB200 ring",
     ST_VALID_VALIDATION, NULL, &b300, 1, 8, 0, 8, 800, IB, ST_COLL_RING, 0, 8 * GIB, 0, 695, 0},
    {"a100-8gpu-ring", "issue_a100_single_and_2node (nccl-tests #175)",
     "single node, NVLink-bound; size not stated, 8 GiB assumed; tests NVLink 3's goodput, set "
     "on Azure's A100 sweep",
     ST_VALID_VALIDATION, "a100-sxm-40g", NULL, 1, 8, 0, 4, 200, IB, ST_COLL_RING, 0, 8 * GIB, 0,
     232.54, 0},
    {"a100-2node-ib-ring", "issue_a100_single_and_2node (nccl-tests #175)",
     "2 nodes, 4 x 200 Gb/s HDR per node: network-bound (below the 100 GB/s line rate)",
     ST_VALID_VALIDATION, "a100-sxm-40g", NULL, 2, 8, 0, 4, 200, IB, ST_COLL_RING, 0, 8 * GIB, 0,
     86, 0},
    /* Figures measured on more than 2 nodes are inter-node material (nccl-tests' PERFORMANCE.md).
     * The only RoCE v2 multi-node figure sets RoCE's goodput (models/fabric/transport.c):
     * calibration.
     */
    {"cal-h100-roce-ring", "issue_h100_roce_scaling (nccl #1221): ~320 on more than 2 nodes",
     "user report, node count not stated (4 assumed); sets RoCE v2's goodput", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 4, 8, 0, 8, 400, ROCE, ST_COLL_RING, 0, 8 * GIB, 0, 320, 0},
    /* Omni-Path's goodput (models/fabric/transport.c) from the one NCCL measurement on it:
     * BigScience's all_reduce_bench.py on four Jean Zay A100 nodes, which ran the ring's two
     * channels through one link a node each way ("[receive] via NET/IB/1", "[send] via
     * NET/IB/3"), modelled as one NIC a node; 4.0 GB (2000 x 500000 fp32), median of the 128
     * rank-trials after the first trial's warm-up, 40.55 Gbit/s. Calibration. */
    {"cal-opa-ring",
     "bigscience-workshop/bigscience experiments/bandwidth/all_reduce_bench-a100-n4.txt",
     "NCCL 2.10.3 over hfi1 verbs; sets Omni-Path's goodput 40.55/100", ST_VALID_CALIBRATION,
     "a100-sxm-80g", NULL, 4, 8, 0, 1, 100, OPA, ST_COLL_RING, 0, 4e9, 0, 40.55 / 8, 0},
    /* Latency region: NCCL's choice of algorithm and protocol at small sizes. */
    {"gb200-mnnvl-8B", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVLink domain; NCCL's model picks a ring or tree LL", ST_VALID_VALIDATION,
     "gb200", NULL, 2, 4, 8, 4, 400, IB, ST_COLL_AUTO, 0, 8, 1, 21.57, 0},
    {"gb200-mnnvl-1KiB", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVLink domain", ST_VALID_VALIDATION, "gb200", NULL, 2, 4, 8, 4, 400, IB,
     ST_COLL_AUTO, 0, 1024, 1, 27.39, 0},
    {"gb200-mnnvl-64KiB", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVLink domain", ST_VALID_VALIDATION, "gb200", NULL, 2, 4, 8, 4, 400, IB,
     ST_COLL_AUTO, 0, 65536, 1, 29.95, 0},
    /* NVLS's chunks (models/fabric/nccl.c): set on Together AI's 8 H100 sweep, tested on another
     * board's, on Azure's H200 and on GB200, whose mid sizes the Hopper fit leaves fast. */
    {"cal-h100-nvls-4MiB", "together-nccl-tests benchmarks/H100 (run 20260305_220944, NCCL 2.26.2)",
     "NVLS on; sets the chunk rounds' cost and fill with the 8 GiB point", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 4 * MIB, 0, 131.64, 0},
    {"cal-h100-nvls-16MiB",
     "together-nccl-tests benchmarks/H100 (run 20260305_220944, NCCL 2.26.2)",
     "NVLS on; sets the chunk rounds' cost and fill with the 8 GiB point", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 16 * MIB, 0, 232.3, 0},
    {"cal-h100-nvls-64MiB",
     "together-nccl-tests benchmarks/H100 (run 20260305_220944, NCCL 2.26.2)",
     "NVLS on; sets the chunk rounds' cost and fill with the 8 GiB point", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 64 * MIB, 0, 359.54, 0},
    {"cal-h100-nvls-256MiB",
     "together-nccl-tests benchmarks/H100 (run 20260305_220944, NCCL 2.26.2)",
     "NVLS on; sets the chunk rounds' cost and fill with the 8 GiB point", ST_VALID_CALIBRATION,
     "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 256 * MIB, 0, 422.17, 0},
    {"h100-vp-1MiB", "vpbenchmarking results/nccl (Voltage Park, NCCL 2.24.3)",
     "NCCL's ring LL below 2 MiB, NVLS above (nccl-tests #309)", ST_VALID_VALIDATION, "h100-sxm",
     NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 1 * MIB, 0, 47.37, 0},
    {"h100-vp-4MiB", "vpbenchmarking results/nccl (Voltage Park, NCCL 2.24.3)",
     "another 8 H100 board, NVLS implied (479.72 at 8 GiB)", ST_VALID_VALIDATION, "h100-sxm", NULL,
     1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 4 * MIB, 0, 131.77, 0},
    {"h100-vp-16MiB", "vpbenchmarking results/nccl (Voltage Park, NCCL 2.24.3)",
     "another 8 H100 board, NVLS implied (479.72 at 8 GiB)", ST_VALID_VALIDATION, "h100-sxm", NULL,
     1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 16 * MIB, 0, 233.25, 0},
    {"h100-vp-64MiB", "vpbenchmarking results/nccl (Voltage Park, NCCL 2.24.3)",
     "another 8 H100 board, NVLS implied (479.72 at 8 GiB)", ST_VALID_VALIDATION, "h100-sxm", NULL,
     1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 64 * MIB, 0, 357.44, 0},
    {"h100-vp-256MiB", "vpbenchmarking results/nccl (Voltage Park, NCCL 2.24.3)",
     "another 8 H100 board, NVLS implied (479.72 at 8 GiB)", ST_VALID_VALIDATION, "h100-sxm", NULL,
     1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 256 * MIB, 0, 422.38, 0},
    {"h200-azure-16MiB", "Azure/AI-benchmarking-guide ND_H200_v5_results.md (NCCL 2.20.5)",
     "in-place busbw of the summary table, NVLS", ST_VALID_VALIDATION, "h200-sxm", NULL, 1, 8, 0, 8,
     400, IB, ST_COLL_AUTO, 0, 16 * MIB, 0, 240.41, 0},
    {"h200-azure-64MiB", "Azure/AI-benchmarking-guide ND_H200_v5_results.md (NCCL 2.20.5)",
     "the table's 67M row (2^26 bytes), NVLS", ST_VALID_VALIDATION, "h200-sxm", NULL, 1, 8, 0, 8,
     400, IB, ST_COLL_AUTO, 0, 64 * MIB, 0, 368.11, 0},
    {"gb200-mnnvl-8MiB", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVL72; Blackwell's NVLS pipeline is not fitted: 9-15% fast from 4 to 32 "
     "MiB",
     ST_VALID_REFERENCE, "gb200", NULL, 2, 4, 8, 4, 400, IB, ST_COLL_AUTO, 0, 8 * MIB, 0, 216.07,
     0},
    {"gb200-mnnvl-32MiB", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVL72; Blackwell's NVLS pipeline is not fitted: 9-15% fast from 4 to 32 "
     "MiB",
     ST_VALID_REFERENCE, "gb200", NULL, 2, 4, 8, 4, 400, IB, ST_COLL_AUTO, 0, 32 * MIB, 0, 368.17,
     0},
    /* NVLS: in-switch reduction above any ring's NVLink bound, with the share set on H100. */
    {"h800-8gpu", "issue_h800_single_node (nccl #1374)",
     "above the 200 GB/s per-direction NVLink line rate, which bounds any ring: NVLS",
     ST_VALID_VALIDATION, NULL, &h800, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 215, 0},
    {"h100-5gpu-nvls", "issue_h100_nvls_vs_ngpus (nccl #1455)",
     "5 GPUs of an 8-GPU board, NVLS: algbw 258 against 273 on 8; the model's rate is flat in n",
     ST_VALID_VALIDATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 5, 8 * GIB, 0, 420,
     0},
    {"h100-6gpu-nvls", "issue_h100_nvls_vs_ngpus (nccl #1455)", "6 GPUs of an 8-GPU board, NVLS",
     ST_VALID_VALIDATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 6, 8 * GIB, 0, 440,
     0},
    {"h100-7gpu-nvls", "issue_h100_nvls_vs_ngpus (nccl #1455)", "7 GPUs of an 8-GPU board, NVLS",
     ST_VALID_VALIDATION, "h100-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 7, 8 * GIB, 0, 460,
     0},
    {"h200-8gpu", "issue_h200_single_node (nccl-tests #272)", "peak, with NVLS (480 on H100)",
     ST_VALID_VALIDATION, "h200-sxm", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 475,
     0},
    {"b200-8gpu", "issue_b200_single_node (nccl #1807)", "830+ with NVLS; size not stated, 8 GiB",
     ST_VALID_VALIDATION, "b200", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 830, 0},
    {"b300-8gpu-nvls-on", "issue_h100_nvls_on_off_and_b300 (nccl #2140)",
     "NVLS on; B300 NVLink assumed 1.8 TB/s as B200", ST_VALID_VALIDATION, NULL, &b300, 1, 8, 0, 8,
     800, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 845, 0},
    {"gb200-mnnvl-16GiB", "oci_gb200_nvl72_8gpu_mnnvl (OCI GB200 NVL72 quickstart)",
     "2 x 4 GPUs in one NVLink domain; NVLS in-switch reduction", ST_VALID_VALIDATION, "gb200",
     NULL, 2, 4, 8, 4, 400, IB, ST_COLL_AUTO, 0, 16 * GIB, 0, 845.72, 0},
    /* All-to-all: every pair's share over NVLink (one node) or the NICs (two), no reduction. */
    {"b300-8gpu-alltoall", "oci_b300_1node_and_2node (Oracle quickstart, NCCL 2.28.9)",
     "alltoall_perf, 8 GiB; B300 NVLink assumed 1.8 TB/s as B200; 16% above aiconfigurator's "
     "B300 sweep, whose time grows at 604 GB/s of bus bandwidth from 64 to 512 MiB: the two "
     "boards differ, and the model follows the sweep that covers an MoE layer's sizes",
     ST_VALID_REFERENCE, NULL, &b300, 1, 8, 0, 8, 800, ROCE, ST_COLL_AUTO, 0, 8 * GIB, 0, 675.55,
     ST_COLL_ALL_TO_ALL},
    /* aiconfigurator's NCCL 2.29.2 sweeps on one node (ai-dynamo/aiconfigurator, aic-core/src/
     * aiconfigurator_core/systems/data/<gpu>/comm/nccl/2.29.2/nccl_perf.parquet, head 095f58a51;
     * message_size in fp16 elements, nccl-tests' "size"): all-gather and reduce-scatter at 128 MiB
     * test the ring, the 32 MiB rows of the rings are reference; the H200 and B200 all-to-alls
     * set the all-to-all regimes, the H100 and B300 ones test them. */
    AIC("h200-aic-ag-32MiB", "H200", "h200-sxm", ST_COLL_ALL_GATHER, 32, 238, ST_VALID_REFERENCE,
        "all_gather_perf, 8 GPUs of one node, fp16, 32 MiB; " AIC_MIDRING),
    AIC("h200-aic-ag-128MiB", "H200", "h200-sxm", ST_COLL_ALL_GATHER, 128, 309, ST_VALID_VALIDATION,
        "all_gather_perf, 8 GPUs of one node, fp16, 128 MiB"),
    AIC("h200-aic-rs-32MiB", "H200", "h200-sxm", ST_COLL_REDUCE_SCATTER, 32, 263,
        ST_VALID_REFERENCE, "reduce_scatter_perf, 8 GPUs of one node, fp16, 32 MiB; " AIC_MIDRING),
    AIC("h200-aic-rs-128MiB", "H200", "h200-sxm", ST_COLL_REDUCE_SCATTER, 128, 313,
        ST_VALID_VALIDATION, "reduce_scatter_perf, 8 GPUs of one node, fp16, 128 MiB"),
    AIC("h200-aic-a2a-32MiB", "H200", "h200-sxm", ST_COLL_ALL_TO_ALL, 32, 237, ST_VALID_CALIBRATION,
        "alltoall_perf, 8 GPUs of one node, fp16, 32 MiB; " AIC_A2A_CAL),
    AIC("h200-aic-a2a-128MiB", "H200", "h200-sxm", ST_COLL_ALL_TO_ALL, 128, 291,
        ST_VALID_CALIBRATION, "alltoall_perf, 8 GPUs of one node, fp16, 128 MiB; " AIC_A2A_CAL),
    /* All-to-all on parts the regimes were not fitted on (mean of the fp16 and int8 series). */
    AIC("h100-aic-a2a-8MiB", "H100", "h100-sxm", ST_COLL_ALL_TO_ALL, 8, 177.7, ST_VALID_VALIDATION,
        "alltoall_perf, 8 GPUs of one node, 8 MiB"),
    AIC("h100-aic-a2a-32MiB", "H100", "h100-sxm", ST_COLL_ALL_TO_ALL, 32, 235.0,
        ST_VALID_VALIDATION, "alltoall_perf, 8 GPUs of one node, 32 MiB"),
    AIC("h100-aic-a2a-512MiB", "H100", "h100-sxm", ST_COLL_ALL_TO_ALL, 512, 315.0,
        ST_VALID_VALIDATION, "alltoall_perf, 8 GPUs of one node, 512 MiB"),
    AIC("b200-aic-ag-32MiB", "B200", "b200", ST_COLL_ALL_GATHER, 32, 258, ST_VALID_REFERENCE,
        "all_gather_perf, 8 GPUs of one node, fp16, 32 MiB; " AIC_MIDRING),
    AIC("b200-aic-ag-128MiB", "B200", "b200", ST_COLL_ALL_GATHER, 128, 568, ST_VALID_VALIDATION,
        "all_gather_perf, 8 GPUs of one node, fp16, 128 MiB"),
    AIC("b200-aic-rs-32MiB", "B200", "b200", ST_COLL_REDUCE_SCATTER, 32, 274, ST_VALID_REFERENCE,
        "reduce_scatter_perf, 8 GPUs of one node, fp16, 32 MiB; " AIC_MIDRING),
    AIC("b200-aic-rs-128MiB", "B200", "b200", ST_COLL_REDUCE_SCATTER, 128, 565, ST_VALID_VALIDATION,
        "reduce_scatter_perf, 8 GPUs of one node, fp16, 128 MiB"),
    AIC("b200-aic-a2a-32MiB", "B200", "b200", ST_COLL_ALL_TO_ALL, 32, 331, ST_VALID_CALIBRATION,
        "alltoall_perf, 8 GPUs of one node, fp16, 32 MiB; sets Blackwell's all-to-all latencies"),
    AIC("b200-aic-a2a-128MiB", "B200", "b200", ST_COLL_ALL_TO_ALL, 128, 496, ST_VALID_CALIBRATION,
        "alltoall_perf, 8 GPUs of one node, fp16, 128 MiB; sets Blackwell's all-to-all latencies"),
    AIC_B300("b300-aic-a2a-8MiB", 8, 222.8),
    AIC_B300("b300-aic-a2a-32MiB", 32, 370.9),
    AIC_B300("b300-aic-a2a-512MiB", 512, 579.5),
    /* MI300X: 8 GPUs on Infinity Fabric links, each to each (no switch), RCCL. Azure's 8 GB
     * point sets CDNA 3's link goodput (models/fabric/transport.c); another node's 4 GiB and a
     * third's latencies from 32 KiB to 64 MiB test it and the NCCL-derived latency terms. */
    {"cal-mi300x-ring", "AI-benchmarking-guide ND_MI300X_v5_results.md (Azure, RCCL 2.22.3)",
     "in-place busbw at 8 GB; sets the Infinity Fabric goodput 316.82/448", ST_VALID_CALIBRATION,
     "mi300x", NULL, 1, 8, 0, 8, 400, IB, ST_COLL_AUTO, 0, 8 * GIB, 0, 316.82, 0},
    {"mi300x-bekman-4GiB", "stas00/ml-engineering network/README.md (all_reduce_bench.py)",
     "8 MI300X, 4 GiB payload: 312.912 GBps", ST_VALID_VALIDATION, "mi300x", NULL, 1, 8, 0, 8, 400,
     IB, ST_COLL_AUTO, 0, 4 * GIB, 0, 312.912, 0},
    {"mi300x-rccl-32KiB", "mk1-project/quickreduce README (TensorWave, RCCL 2.20.5)",
     "8 MI300X, RCCL all-reduce latency, 32 KiB", ST_VALID_VALIDATION, "mi300x", NULL, 1, 8, 0, 8,
     400, IB, ST_COLL_AUTO, 0, 32768, 1, 16.22, 0},
    {"mi300x-rccl-1MiB", "mk1-project/quickreduce README (TensorWave, RCCL 2.20.5)",
     "8 MI300X, RCCL all-reduce latency, 1 MiB", ST_VALID_VALIDATION, "mi300x", NULL, 1, 8, 0, 8,
     400, IB, ST_COLL_AUTO, 0, 1048576, 1, 26.39, 0},
    {"mi300x-rccl-64MiB", "mk1-project/quickreduce README (TensorWave, RCCL 2.20.5)",
     "8 MI300X, RCCL all-reduce latency, 64 MiB", ST_VALID_VALIDATION, "mi300x", NULL, 1, 8, 0, 8,
     400, IB, ST_COLL_AUTO, 0, 67108864, 1, 426.0, 0},
    /* Reference: outside the model (2-node tree and NVLS tree, other transports), for context. */
    {"oci-h100-2node-roce-16GiB", "oci_h100_2node_roce (OCI tutorials, NCCL 2.21.5)",
     "2 nodes exceed the 400 GB/s NIC rate (NVLS/tree); 16 x 200G modelled as 8 x 400G",
     ST_VALID_REFERENCE, "h100-sxm", NULL, 2, 8, 0, 8, 400, ROCE, ST_COLL_AUTO, 0, 16 * GIB, 0,
     464.57, 0},
    {"aws-p5-2node-8B", "aws_p5_2node_16xh100_efa (AWS p5 workshop)",
     "EFA (SRD) is not a modelled transport; modelled as 8 x 400G RoCE", ST_VALID_REFERENCE,
     "h100-sxm", NULL, 2, 8, 0, 8, 400, ROCE, ST_COLL_AUTO, 0, 8, 1, 69.12, 0},
    {"gcp-a3mega-2node-8B", "gcp_a3mega_2node_16xh100 (lessizzmore/create-a3mega-ztan-fork)",
     "host-mediated network transport (~123 us floor); modelled as 8 x 200G RoCE",
     ST_VALID_REFERENCE, "h100-sxm", NULL, 2, 8, 0, 8, 200, ROCE, ST_COLL_AUTO, 0, 8, 1, 135.8, 0},
    {"b300-2node-alltoall", "oci_b300_1node_and_2node (Oracle quickstart, NCCL 2.28.9)",
     "alltoall_perf, 8 GiB over 2 nodes; the NICs are not stated (ports of about 400 Gb/s, and "
     "a busbw above 8 of them): modelled as 8 x 800G RoCE",
     ST_VALID_REFERENCE, NULL, &b300, 2, 8, 0, 8, 800, ROCE, ST_COLL_AUTO, 0, 8 * GIB, 0, 180.98,
     ST_COLL_ALL_TO_ALL},
};

#define N_CASES (sizeof cases / sizeof cases[0])

static st_cluster_cfg cluster_of(const vcase *v)
{
    return (st_cluster_cfg){
        .gpu = v->custom ? v->custom : st_catalog_gpu(v->gpu),
        .nodes = v->nodes,
        .gpus_per_node = v->gpn,
        .nvlink_domain = v->domain,
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = v->nic_gbit * 1e9 / 8,
                   .nics_per_node = v->nics,
                   .nodes_per_leaf = v->nodes,
                   .oversub = {1},
                   .n_oversub = 1,
                   .transport = v->transport,
                   .routing = ST_ROUTING_ADAPTIVE},
    };
}

static void score(const vcase *v, st_valid_row *out)
{
    out->error = out->predicted / out->published - 1;
    out->bound_kind = v->time_metric ? ST_VALID_BOUND_FACTOR : ST_VALID_BOUND_RELATIVE;
    out->bound = v->time_metric ? 2.0 : 0.10;
    if (v->time_metric) {
        double ratio = out->predicted / out->published;
        out->pass = fmax(ratio, 1 / ratio) <= out->bound;
    } else {
        out->pass = fabs(out->error) <= out->bound;
    }
}

/* Every GPU of the case, or its first `ranks`, as the collective's members. */
static int64_t *members_of(const vcase *v, int64_t *n)
{
    *n = v->ranks > 0 ? v->ranks : v->nodes * v->gpn;
    int64_t *gpus = st_xmalloc((size_t)*n * sizeof *gpus);
    for (int64_t g = 0; g < *n; g++)
        gpus[g] = g;
    return gpus;
}

static int run_case(const st_valid_harness *h, size_t i, st_valid_row *out, st_diag *d, st_err *err)
{
    (void)h, (void)d;
    const vcase *v = &cases[i];
    st_cluster_cfg c = cluster_of(v);
    if (!c.gpu)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "case '%s': unknown gpu '%s'", v->name,
                          v->gpu);
    int64_t n;
    int64_t *gpus = members_of(v, &n);
    st_coll_spec s = {
        .op = v->op, .algo = v->algo, .gpus = gpus, .n = n, .bytes = v->bytes, .key = (uint64_t)i};
    st_coll_report rep;
    int rc = st_coll_measure(&c, &s, &rep, err);
    free(gpus);
    if (rc)
        return rc;
    snprintf(out->name, sizeof out->name, "%s", v->name);
    snprintf(out->set, sizeof out->set, "fabric");
    snprintf(out->metric, sizeof out->metric, "%s", v->time_metric ? "time us" : "busbw GB/s");
    snprintf(out->source, sizeof out->source, "%s", v->source);
    out->note = v->note;
    out->kind = v->kind;
    out->published = v->measured;
    out->predicted = v->time_metric ? rep.sim_s * 1e6 : rep.busbw / 1e9;
    out->algo = st_coll_algo_name(rep.plan.algo);
    out->proto = st_coll_proto_name(rep.plan.proto);
    score(v, out);
    return 0;
}

static const st__valid_ops fabric_ops = {.run = run_case};

st_valid_harness *st_valid_fabric_new(void)
{
    return st__valid_harness_new(&fabric_ops, N_CASES);
}
