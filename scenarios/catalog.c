/* Preset GPUs and models. Every figure cites where it comes from; NVIDIA datasheets print Tensor
 * Core FLOP/s "with sparsity": the dense peak used here (and by every MFU in the validation set) is
 * half. */
#include "scenarios/catalog.h"

#include <string.h>

#define TERA 1e12
#define GIGA 1e9
#define GIB  1073741824.0 /* 2^30 */
#define MIB  1048576.0    /* 2^20 */

/* Capacity (.hbm_bytes) is the memory CUDA (HIP on the MI300X) reports as the device's total, the
 * figure a framework can allocate from: cudaMemGetInfo / torch.cuda.mem_get_info, deviceQuery's
 * "Total amount of global memory", PyTorch's OOM message "GPU 0 has a total capacity of X GiB".
 * Datasheets print decimal GB ("80 GB" = 80e9 bytes) while HBM stacks are binary (five 16 GiB
 * stacks = 80 GiB); what CUDA reports is between the two: nvidia-smi's FB "Total" less the
 * "Reserved" the driver keeps (H100 SXM, driver 565.57: 81559 - 454 = 81106 MiB). The CUDA
 * context and NCCL buffers come out of that total; the memory model counts them as its reserved
 * term (models/silicon/parallel.c). The driver's reservation moves by about 100 MiB between
 * driver versions (H100 SXM: 81106 MiB on 565.57, 79.11 GiB = 81009 MiB in PyTorch OOM messages
 * on other drivers); each entry takes one reading and names it. The datasheet figure stays in
 * the comment beside it. */

/* Idle power is not a datasheet figure. The values below are nvidia-smi / rocm-smi readings of
 * idle boards (0-1 MiB used, 0% utilisation, P0) in public logs that we read through code and
 * issue search; each entry gives the range seen and is an estimate, not a specification. */

/* A node's power besides its GPUs (.node_base_w, for a node of .node_gpus GPUs: the default of
 * cluster.node.base_power) is per platform: the 8-GPU HGX/DGX baseboard with its CPUs, DIMMs,
 * NICs, NVSwitches, fans and drives, or a GB200 NVL72 compute tray. It is board side, as .tdp_w
 * is: the plant divides both by the PSU efficiency, 0.96 (models/plant/plant.c), so a node's
 * wall peak is (node_base_w + node_gpus x tdp_w) / 0.96. Each figure comes from a published
 * measurement of the node under training load where one exists, else from the vendor's system
 * power less the GPUs' power limit, which is a provisioning rating and so an upper bound (the
 * measured H100 node drew 18% under its rating). 0: no platform figure found; a scenario on that
 * GPU states base_power. scenarios/validation/README.md says which measurement each figure is
 * fitted to and which different one checks it. */

static const st_gpu_spec gpus[] = {
    {
        .name = "a100-sxm-40g",
        .description = "NVIDIA A100 SXM4 40GB",
        .peak_bf16 = 312 * TERA,    /* datasheet: 312 dense, 624 with sparsity */
        .peak_fp8 = 0,              /* Ampere has no FP8 Tensor Cores */
        .hbm_bytes = 42298834944.0, /* datasheet: 40 GB HBM2. CUDA total: deviceQuery on
                                       "NVIDIA A100-SXM4-40GB", CUDA 12.2: 40339 MiB
                                       (bottlerocket-os/bottlerocket PR 3873) */
        .hbm_bw = 1555 * GIGA,      /* datasheet: 1,555 GB/s */
        .nvlink_bw = 600 * GIGA,    /* datasheet: NVLink 3, 600 GB/s (both directions) */
        .pcie_bw = 32 * GIGA,       /* datasheet: PCIe Gen4 64 GB/s, i.e. 32 GB/s each way */
        .tdp_w = 400,               /* datasheet: max TDP 400 W */
        .idle_w = 50,               /* estimate: nvidia-smi idle readings 45-56 W */
        .source = "NVIDIA A100 datasheet; idle: "
                  "public nvidia-smi readings",
        .arch = ST_GPU_ARCH_AMPERE,
        .calib = ST_GPU_CALIB_A100_SXM_40G,
        .nvswitch = 1,
        /* DGX A100 User Guide, Power Specifications: 6.5 kW max. for the system (no
           measurement under training found): 6,500 x 0.96 - 8 x 400 = 3,040 W */
        .node_base_w = 3040,
        .node_gpus = 8,
    },
    {
        .name = "a100-sxm-80g",
        .description = "NVIDIA A100 SXM4 80GB",
        .peak_bf16 = 312 * TERA,    /* datasheet: 312 dense, 624 with sparsity */
        .peak_fp8 = 0,              /* Ampere has no FP8 Tensor Cores */
        .hbm_bytes = 85100068864.0, /* datasheet: 80 GB HBM2e. CUDA total: deviceQuery on
                                       "NVIDIA A100-SXM4-80GB", CUDA 12.5: 81158 MiB
                                       (github.com/thamada/nvidia-smi,
                                       gls/A100SXMx4_deviceQuery.py); PyTorch OOM messages
                                       print 79.25 GiB (levihsu/OOTDiffusion issue 235) */
        .hbm_bw = 2039 * GIGA,      /* datasheet: 2,039 GB/s (SXM) */
        .nvlink_bw = 600 * GIGA,    /* datasheet: NVLink 3, 600 GB/s */
        .pcie_bw = 32 * GIGA,       /* datasheet: PCIe Gen4 64 GB/s total */
        .tdp_w = 400,               /* datasheet: max TDP 400 W */
        .idle_w = 60,               /* estimate: nvidia-smi idle reading 63 W */
        .source = "NVIDIA A100 datasheet; idle: public nvidia-smi "
                  "readings",
        .arch = ST_GPU_ARCH_AMPERE,
        .calib = ST_GPU_CALIB_A100_SXM_80G,
        .nvswitch = 1,
        /* DGX A100 User Guide, Power Specifications: 6.5 kW max. for the system (no
           measurement under training found): 6,500 x 0.96 - 8 x 400 = 3,040 W */
        .node_base_w = 3040,
        .node_gpus = 8,
    },
    {
        .name = "h100-sxm",
        .description = "NVIDIA H100 SXM5 80GB",
        .peak_bf16 = 989.5 * TERA,  /* datasheet: 1,979 with sparsity */
        .peak_fp8 = 1979 * TERA,    /* datasheet: 3,958 with sparsity */
        .hbm_bytes = 85045477376.0, /* datasheet: 80 GB HBM3. CUDA total: deviceQuery on
                                         "NVIDIA H100 80GB HBM3", driver 565.57: 81106 MiB;
                                         nvidia-smi -q there: Total 81559, Reserved 454 MiB
                                         (github.com/thamada/nvidia-smi, nvsim/H100SXMx8_*) */
        .hbm_bw = 3.35 * TERA,      /* datasheet: 3.35 TB/s */
        .nvlink_bw = 900 * GIGA,    /* datasheet: NVLink 4, 900 GB/s (450 each way) */
        .pcie_bw = 64 * GIGA,       /* datasheet: PCIe Gen5 128 GB/s total */
        .tdp_w = 700,               /* datasheet: up to 700 W (configurable) */
        .idle_w = 70,               /* estimate: nvidia-smi idle readings 64-73 W */
        .source = "NVIDIA H100 datasheet; idle: public nvidia-smi "
                  "readings",
        .arch = ST_GPU_ARCH_HOPPER,
        .calib = ST_GPU_CALIB_H100_SXM,
        .nvswitch = 1,
        /* Measured: Latif et al., "Empirical Measurements of AI Training Power Demand on a
           GPU-Accelerated Node" (arXiv 2412.08602): an 8-GPU HGX H100 node training ResNet and
           Llama2-13b drew at most about 8.4 kW, GPUs near full utilisation (NVIDIA's rating:
           10.2 kW). With the GPUs at their 700 W limit: 8,400 x 0.96 - 8 x 700 = 2,464 W */
        .node_base_w = 2464,
        .node_gpus = 8,
    },
    {
        .name = "h100-pcie",
        .description = "NVIDIA H100 PCIe 80GB",
        .peak_bf16 = 756.5 * TERA, /* datasheet: 1,513 with sparsity */
        .peak_fp8 = 1513 * TERA,   /* datasheet: 3,026 with sparsity */
        .hbm_bytes = 80 * GIB,     /* datasheet: 80 GB HBM2e, five 16 GiB stacks (NVIDIA H100
                                         MIG user guide). No measured CUDA total found for the
                                         PCIe card: the datasheet read in GiB, an upper bound
                                         (the SXM part's CUDA total is 0.8 GiB below it) */
        .hbm_bw = 2.0 * TERA,      /* datasheet: 2 TB/s */
        .nvlink_bw = 600 * GIGA,   /* datasheet: NVLink bridge 600 GB/s (pairs of cards) */
        .pcie_bw = 64 * GIGA,      /* datasheet: PCIe Gen5 128 GB/s total */
        .tdp_w = 350,              /* datasheet: 300-350 W (configurable) */
        .idle_w = 50,              /* estimate: nvidia-smi idle readings 44-55 W */
        .source = "NVIDIA H100 datasheet, PCIe column; idle: public nvidia-smi readings",
        .arch = ST_GPU_ARCH_HOPPER,
        .calib = ST_GPU_CALIB_H100_PCIE,
        .nvswitch = 0, /* bridges between pairs of cards, no NVSwitch */
        /* .node_base_w 0: a PCIe card goes in many servers, no one platform's figure */
    },
    {
        .name = "h200-sxm",
        .description = "NVIDIA H200 SXM 141GB",
        .peak_bf16 = 989.5 * TERA, /* datasheet: same Tensor Cores as H100 SXM */
        .peak_fp8 = 1979 * TERA,
        .hbm_bytes = 150119844413, /* 139.81 GiB to the byte. datasheet: 141 GB HBM3e. CUDA total:
                                      PyTorch OOM on "NVIDIA H200": "total capacity of 139.81 GiB"
                                      (github.com/sungwon-chae/arxiv_confi, etu_logging.md);
                                      nvidia-smi Total 143771 MiB (Modal, "Why does an NVIDIA
                                      H100 80GB card offer 85.52 GB?") */
        .hbm_bw = 4.8 * TERA,      /* datasheet: 4.8 TB/s */
        .nvlink_bw = 900 * GIGA,   /* datasheet: 900 GB/s */
        .pcie_bw = 64 * GIGA,      /* datasheet: PCIe Gen5 128 GB/s total */
        .tdp_w = 700,              /* datasheet: up to 700 W; MLPerf JSON "H200 TGP 700W" */
        .idle_w = 78,              /* estimate: nvidia-smi idle reading 78 W */
        .source = "NVIDIA H200 datasheet; idle: public nvidia-smi "
                  "reading",
        .arch = ST_GPU_ARCH_HOPPER,
        .calib = ST_GPU_CALIB_H200_SXM,
        .nvswitch = 1,
        /* The H100 node's measured figure (above): NVIDIA's DGX H100/H200 User Guide gives the
           two systems one parts list (CPUs, DIMMs, NICs, NVSwitches, drives) and one 10.2 kW
           rating, and both GPUs are limited to 700 W; no H200 node measured under training
           was found */
        .node_base_w = 2464,
        .node_gpus = 8,
    },
    {
        .name = "b200",
        .description = "NVIDIA B200 (HGX B200)",
        .peak_bf16 = 2250 * TERA,  /* HGX B200 spec: 4.5 PFLOP/s with sparsity */
        .peak_fp8 = 4500 * TERA,   /* HGX B200 spec: 9 PFLOP/s with sparsity */
        .peak_fp4 = 9000 * TERA,   /* HGX B200 spec: 144 PFLOP/s FP4 with sparsity / 8, /2 */
        .hbm_bytes = 191501854310, /* 178.35 GiB to the byte. HGX B200: 180 GB HBM3e (DGX
                                      B200: 1,440 GB / 8). CUDA total: cudaGetDeviceProperties
                                      on "NVIDIA B200" prints 178.35 (pytorch/ao PR 4002; GiB:
                                      nvidia-smi's Total is 183359 MiB = 179.06 GiB,
                                      NVIDIA/TensorRT-LLM issue 10278) */
        .hbm_bw = 7.7 * TERA,      /* HGX B200: 7.7 TB/s (DGX B200 totals give 8; we take the
                                      lower: the per-GPU figure NVIDIA prints) */
        .nvlink_bw = 1800 * GIGA,  /* NVLink 5: 1.8 TB/s, 18 links */
        .pcie_bw = 64 * GIGA,      /* estimate: PCIe Gen5 x16 host link of HGX B200 servers */
        .tdp_w = 1000,             /* MLPerf system JSON "B200 TGP 1000W" */
        .idle_w = 140,             /* estimate: nvidia-smi idle readings 136-145 W; 137 W in
                                      ROCm/legacy-rocm-build issue #5219 */
        .source = "NVIDIA HGX/DGX B200 specs; idle: public "
                  "nvidia-smi readings",
        .arch = ST_GPU_ARCH_BLACKWELL,
        .calib = ST_GPU_CALIB_B200,
        .nvswitch = 1,
        /* DGX B200 User Guide, Power Specifications: ~14.3 kW max. for the system (no
           measurement under training found): 14,300 x 0.96 - 8 x 1,000 = 5,728 W */
        .node_base_w = 5728,
        .node_gpus = 8,
    },
    {
        .name = "gb200",
        .description = "NVIDIA GB200 (one Blackwell GPU of a GB200 NVL72)",
        .peak_bf16 = 2500 * TERA,  /* GB200 NVL72: 360 PFLOP/s BF16 sparse / 72 = 5 PF, /2 */
        .peak_fp8 = 5000 * TERA,   /* GB200 NVL72: 720 PFLOP/s FP8 sparse / 72 = 10 PF, /2 */
        .peak_fp4 = 10000 * TERA,  /* GB200 NVL72: 1,440 PFLOP/s FP4 sparse / 72 = 20 PF, /2 */
        .hbm_bytes = 197901355581, /* 184.31 GiB to the byte. MLPerf Crusoe system JSON: GB200 GPU
                                      memory 186 GB. CUDA total: PyTorch OOM messages on GB200 print
                                      "total capacity of 184.31 GiB"; pytorch/torchtitan's nvfp4.md
                                      (Blackwell, 4 GPUs) prints memory as GiB and % of the
                                      device: 110.95 GiB = 60.2%, 174.49 GiB = 94.7%, i.e.
                                      184.3 GiB */
        .hbm_bw = 8 * TERA,        /* GB200 NVL72 spec: 8 TB/s per GPU */
        .nvlink_bw = 1800 * GIGA,  /* NVLink 5: 1.8 TB/s per GPU (130 TB/s / 72) */
        .pcie_bw = 450 * GIGA,     /* NVLink-C2C to the Grace CPU: 900 GB/s, 450 each way */
        .tdp_w = 1200,             /* DGX GB200 user guide: configurable, up to 1200 W */
        .idle_w = 140,             /* estimate: no public idle reading found; B200's (same
                                      Blackwell die and HBM stacks) */
        .source = "NVIDIA GB200 NVL72 spec and MLPerf JSON; idle: "
                  "B200 estimate",
        .arch = ST_GPU_ARCH_BLACKWELL,
        .calib = ST_GPU_CALIB_GB200,
        .nvswitch = 1,
        /* A GB200 NVL72 compute tray (2 Grace, 4 GPUs), each part at its published maximum:
           2 Grace 2 x 300 W (the superchip's 2,700 W, NVIDIA GB200 NVL72 page, less its two
           GPUs at 1,200 W); the tray's share of the 9 NVLink switch trays, 3.6 kW / 18 = 200 W
           (Supermicro, as tabulated by Introl's NVL72 deployment notes); 2 BlueField-3 x
           150 W (NVIDIA BlueField-3 DPU user manual); 4 x 9 W 400G OSFP optics (NVIDIA
           MMS4X00-NS400 specifications); 4 E1.S drives x 25 W (KIOXIA EDSFF E1 table):
           600 + 200 + 300 + 36 + 100 = 1,236 W. Not fitted to NVIDIA's ~120 kW a rack, which
           checks it (scenarios/validation/plant/gb200-nvl72-rack.yaml) */
        .node_base_w = 1236,
        .node_gpus = 4,
        .platform_domain = 72, /* GB200 NVL72: 72 GPUs in one NVLink domain (NVIDIA GB200
                                  NVL72 product page, "72-GPU NVLink domain") */
    },
    {
        .name = "mi300x",
        .description = "AMD Instinct MI300X (OAM)",
        .peak_bf16 = 1307.4 * TERA, /* AMD data sheet (footnote MI300-18): dense */
        .peak_fp8 = 2614.9 * TERA,  /* AMD data sheet: dense */
        .hbm_bytes = 196592 * MIB,  /* AMD: 192 GB HBM3 (eight 24 GiB stacks). HIP total:
                                       hipGetDeviceProperties on "AMD Instinct MI300X":
                                       totalGlobalMem 196592 MiB, 16 MiB under 192 GiB
                                       (github.com/thamada/nvidia-smi,
                                       nvsim/MI300X_x4_deviceQuery.py) */
        .hbm_bw = 5.3 * TERA,       /* AMD: 5.3 TB/s */
        .nvlink_bw = 896 * GIGA,    /* derived: 7 Infinity Fabric links to the other GPUs of an
                                       8-GPU platform x 128 GB/s per link (secondary) */
        .pcie_bw = 64 * GIGA,       /* AMD: PCIe Gen5 x16, 128 GB/s total */
        .tdp_w = 750,               /* AMD: 750 W TBP */
        .idle_w = 135,              /* estimate: rocm-smi socket power 131-137 W at 0% use
                                       (ROCm/legacy-rocm-build issue #4750) */
        .source = "AMD Instinct MI300X data sheet; idle: public "
                  "rocm-smi readings",
        .arch = ST_GPU_ARCH_CDNA3,
        .calib = ST_GPU_CALIB_MI300X,
        .nvswitch = 0, /* Infinity Fabric links straight to the other GPUs */
        /* .node_base_w 0: no published system power of an 8-MI300X OAM platform found */
    },
};

/* Model presets. The GPT shapes use Megatron-LM's GPT-2 vocabulary padded to 51200 and 2048
 * learned positions, as in the runs they validate against (Narayanan et al. SC21 §5;
 * Korthikanti et al. 2022 §6). Fields left out are zero: no embedding norm, head_dim
 * hidden/heads, dropout as mlp implies. */
/* Styles as macros with the fields that vary, since -Wextra (-Woverride-init) forbids
 * overriding a designated initializer. */
#define GPT_STYLE(pos_, tied_)                                                                     \
    .mlp = ST_MLP_GELU, .norm = ST_NORM_LAYERNORM, .pos = (pos_), .bias = 1,                       \
    .tied_embeddings = (tied_)
#define GPT GPT_STYLE(ST_POS_LEARNED, 1)
#define LLAMA_STYLE                                                                                \
    .mlp = ST_MLP_SWIGLU, .norm = ST_NORM_RMSNORM, .pos = ST_POS_ROPE, .bias = 0,                  \
    .tied_embeddings = 0

static const st_llm_spec models[] = {
    {.name = "gpt-22b",
     .layers = 48,
     .hidden = 6144,
     .ffn_hidden = 24576,
     .heads = 64,
     .kv_heads = 64,
     .vocab = 51200,
     .max_positions = 2048,
     GPT,
     .published_params = 22e9,
     .source = "Korthikanti et al. 2022 (arXiv 2205.05198) Table 3: 22B"},
    {.name = "gpt3-175b",
     .layers = 96,
     .hidden = 12288,
     .ffn_hidden = 49152,
     .heads = 96,
     .kv_heads = 96,
     .vocab = 51200,
     .max_positions = 2048,
     GPT,
     .published_params = 175e9,
     .source = "Brown et al. 2020 (GPT-3) Table 2.1: 175B; Narayanan et al. SC21 Table 2: "
               "174.6B with Megatron's 51200 vocabulary"},
    {.name = "gpt-145b",
     .layers = 80,
     .hidden = 12288,
     .ffn_hidden = 49152,
     .heads = 96,
     .kv_heads = 96,
     .vocab = 51200,
     .max_positions = 2048,
     GPT,
     .published_params = 145e9,
     .source = "Narayanan et al. SC21 §5.6 (activation recomputation study): 145B"},
    {.name = "gpt-530b",
     .layers = 105,
     .hidden = 20480,
     .ffn_hidden = 81920,
     .heads = 128,
     .kv_heads = 128,
     .vocab = 51200,
     .max_positions = 2048,
     GPT,
     .published_params = 529.6e9,
     .source = "MT-NLG shape; Narayanan et al. SC21 Table 2: 529.6B; Korthikanti Table 3"},
    {.name = "gpt-1t",
     .layers = 128,
     .hidden = 25600,
     .ffn_hidden = 102400,
     .heads = 160,
     .kv_heads = 160,
     .vocab = 51200,
     .max_positions = 2048,
     GPT,
     .published_params = 1e12,
     .source = "Korthikanti et al. 2022 Table 3 and Narayanan et al. SC21: 1T"},
    /* BLOOM: tr11-176B-ml.slurm pads the vocabulary to 250880 (250680, as some summaries give it,
     * is a transcription slip: the model card's 3,596,615,680 embedding parameters = 250880 x
     * 14336), uses --embed-layernorm and ALiBi, and keeps Megatron-DeepSpeed's default
     * dropout of 0.1. */
    {.name = "bloom-176b",
     .layers = 70,
     .hidden = 14336,
     .ffn_hidden = 57344,
     .heads = 112,
     .kv_heads = 112,
     .vocab = 250880,
     GPT_STYLE(ST_POS_ALIBI, 1),
     .embed_norm = 1,
     .published_params = 176247271424.0,
     .source = "bigscience/bloom model card: 176,247,271,424 parameters; shape from "
               "bigscience-workshop/bigscience train/tr11-176B-ml"},
    /* OPT: vocabulary 50272 and a learned position table with OPT's offset of 2 rows. */
    {.name = "opt-175b",
     .layers = 96,
     .hidden = 12288,
     .ffn_hidden = 49152,
     .heads = 96,
     .kv_heads = 96,
     .vocab = 50272,
     .max_positions = 2050,
     GPT,
     .published_params = 175e9,
     .source = "Zhang et al. 2022 (OPT, arXiv 2205.01068) Table 1: 175B"},
    /* GPT-NeoX-20B: rotary positions, untied input and output embeddings, biases, vocabulary
     * padded to 50432; configs/20B.yml trains without dropout. */
    {.name = "gpt-neox-20b",
     .layers = 44,
     .hidden = 6144,
     .ffn_hidden = 24576,
     .heads = 64,
     .kv_heads = 64,
     .vocab = 50432,
     GPT_STYLE(ST_POS_ROPE, 0),
     .dropout = ST_DROPOUT_OFF,
     .published_params = 20554567680.0,
     .source = "EleutherAI/gpt-neox-20b model card: 20,554,567,680 parameters; shape from "
               "EleutherAI/gpt-neox configs/20B.yml"},
    /* MPT shapes as llm-foundry benchmarks them (scripts/train/benchmarking/README.md, whose
     * NumParams these reproduce exactly): GPT style with vocabulary 50368, biases, a learned
     * position table of seq_len rows (max_positions 0), no dropout. The published counts are
     * the README's for seq_len 2048. The released MPT-7B checkpoint (ALiBi, no biases,
     * vocabulary 50432) differs by 0.15%. */
    {.name = "mpt-1b",
     .layers = 24,
     .hidden = 2048,
     .ffn_hidden = 8192,
     .heads = 16,
     .kv_heads = 16,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 1315950592.0,
     .source = "mosaicml/llm-foundry benchmarking README (1b, seq 2048)"},
    {.name = "mpt-3b",
     .layers = 32,
     .hidden = 2560,
     .ffn_hidden = 10240,
     .heads = 20,
     .kv_heads = 20,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 2651837440.0,
     .source = "mosaicml/llm-foundry benchmarking README (3b, seq 2048)"},
    {.name = "mpt-7b",
     .layers = 32,
     .hidden = 4096,
     .ffn_hidden = 16384,
     .heads = 32,
     .kv_heads = 32,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 6658859008.0,
     .source = "mosaicml/llm-foundry benchmarking README (7b, seq 2048)"},
    {.name = "mpt-13b",
     .layers = 40,
     .hidden = 5120,
     .ffn_hidden = 20480,
     .heads = 40,
     .kv_heads = 40,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 12853954560.0,
     .source = "mosaicml/llm-foundry benchmarking README (13b, seq 2048); heads from "
               "yamls/pretrain/mpt-13b.yaml"},
    {.name = "mpt-30b",
     .layers = 48,
     .hidden = 7168,
     .ffn_hidden = 28672,
     .heads = 56,
     .kv_heads = 56,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 29975214080.0,
     .source = "mosaicml/llm-foundry benchmarking README (30b, seq 2048); heads from "
               "yamls/pretrain/mpt-30b.yaml"},
    {.name = "mpt-70b",
     .layers = 80,
     .hidden = 8192,
     .ffn_hidden = 32768,
     .heads = 64,
     .kv_heads = 64,
     .vocab = 50368,
     GPT,
     .dropout = ST_DROPOUT_OFF,
     .published_params = 64862437376.0,
     .source = "mosaicml/llm-foundry benchmarking README (70b, seq 2048)"},
    /* Mixtures of experts: every layer's MLP is `experts` SwiGLU experts with a bias-free
     * router, no shared experts (Qwen2-57B-A14B below has them). Shapes from the models' Hugging
     * Face config.json (Qwen/Qwen3-30B-A3B, Qwen/Qwen3-235B-A22B: num_experts, num_experts_per_tok,
     * moe_intermediate_size, head_dim 128, tie_word_embeddings false; mistralai/Mixtral-8x7B-v0.1:
     * num_local_experts 8, num_experts_per_tok 2, intermediate_size 14336). Qwen3's QK-norm (an
     * RMSNorm of head_dim on q and on k, 256 parameters per layer) is left out: 12,288 of 30.5B.
     * ffn_hidden is config.json's intermediate_size, which no layer of these models uses (every
     * MLP is MoE); it is what a `base:` of them with experts: 0 would take. */
    {.name = "qwen3-30b-a3b",
     .layers = 48,
     .hidden = 2048,
     .ffn_hidden = 6144,
     .heads = 32,
     .kv_heads = 4,
     .head_dim = 128,
     .vocab = 151936,
     LLAMA_STYLE,
     .experts = 128,
     .experts_per_token = 8,
     .expert_ffn_hidden = 768,
     .published_params = 30.5e9,
     .source = "Qwen/Qwen3-30B-A3B model card: 30.5B total, 3.3B activated; shape from its "
               "config.json and the Qwen3 Technical Report (arXiv 2505.09388) Table 2"},
    {.name = "qwen3-235b-a22b",
     .layers = 94,
     .hidden = 4096,
     .ffn_hidden = 12288,
     .heads = 64,
     .kv_heads = 4,
     .head_dim = 128,
     .vocab = 151936,
     LLAMA_STYLE,
     .experts = 128,
     .experts_per_token = 8,
     .expert_ffn_hidden = 1536,
     .published_params = 235e9,
     .source = "Qwen/Qwen3-235B-A22B model card: 235B total, 22B activated; shape from its "
               "config.json and the Qwen3 Technical Report (arXiv 2505.09388) Table 2"},
    /* Qwen2-57B-A14B (Qwen/Qwen2-57B-A14B config.json: hidden_size 3584, num_hidden_layers 28,
     * num_attention_heads 28, num_key_value_heads 4, vocab_size 151936, num_experts 64,
     * num_experts_per_tok 8, moe_intermediate_size 2560, shared_expert_intermediate_size 20480,
     * decoder_sparse_step 1: every layer MoE, tie_word_embeddings false). Left out: its Q, K and
     * V biases (Strata's `bias` is all linear layers or none: 129,024 parameters) and the
     * shared expert's sigmoid gate (shared_expert_gate, 1 x 3584 a layer: 100,352), together
     * 0.0004% of the total. ffn_hidden is config.json's intermediate_size (used by no layer). */
    {.name = "qwen2-57b-a14b",
     .layers = 28,
     .hidden = 3584,
     .ffn_hidden = 18944,
     .heads = 28,
     .kv_heads = 4,
     .vocab = 151936,
     LLAMA_STYLE,
     .experts = 64,
     .experts_per_token = 8,
     .expert_ffn_hidden = 2560,
     .shared_expert_ffn_hidden = 20480,
     .published_params = 57e9,
     .source = "Qwen2 Technical Report (arXiv 2407.10671) and the Qwen/Qwen2-57B-A14B model card: "
               "57B total, 14B activated; shape from its config.json"},
    /* GLM-4.5-Air (zai-org/GLM-4.5-Air config.json: num_hidden_layers 46, first_k_dense_replace
     * 1, hidden_size 4096, intermediate_size 10944, num_attention_heads 96, num_key_value_heads
     * 8, head_dim 128, vocab_size 151552, n_routed_experts 128, num_experts_per_tok 8,
     * moe_intermediate_size 1408, n_shared_experts 1 (of that width), tie_word_embeddings false;
     * the same shape as THUDM/slime's scripts/models/glm4.5-106B-A12B.sh Megatron arguments,
     * --moe-layer-freq [0]*1+[1]*45) and GLM-4.5 (THUDM/slime scripts/models/glm4.5-355B-A32B.sh:
     * 92 layers, 3 dense, hidden 5120, ffn 12288, 96 heads, 8 query groups, kv-channels 128,
     * 160 experts of 1536, top 8, a 1536-wide shared expert, vocab 151552, untied). Left out:
     * the Q, K and V biases (attention_bias, --add-qkv-bias; Strata's `bias` is all linear layers
     * or none: 14,336 a layer, 0.0006% of the Air's total), the partial rotary embedding
     * (partial_rotary_factor 0.5: RoPE on half of each head; Strata's rope operator counts it on
     * all of q and k), GLM-4.5's QK-norm (an RMSNorm of head_dim on q and k), the sigmoid router's
     * expert bias, and the multi-token-prediction layer (num_nextn_predict_layers 1), which the
     * published totals do not count (106B, 355B: Strata's counts without it are 0.8% above and
     * 0.6% below them). */
    {.name = "glm-4.5-air",
     .layers = 46,
     .hidden = 4096,
     .ffn_hidden = 10944,
     .heads = 96,
     .kv_heads = 8,
     .head_dim = 128,
     .vocab = 151552,
     LLAMA_STYLE,
     .experts = 128,
     .experts_per_token = 8,
     .expert_ffn_hidden = 1408,
     .shared_expert_ffn_hidden = 1408,
     .dense_layers = 1,
     .published_params = 106e9,
     .source = "GLM-4.5 report (arXiv 2508.06471) and the zai-org/GLM-4.5-Air model card: 106B "
               "total, 12B activated; shape from its config.json"},
    {.name = "glm-4.5",
     .layers = 92,
     .hidden = 5120,
     .ffn_hidden = 12288,
     .heads = 96,
     .kv_heads = 8,
     .head_dim = 128,
     .vocab = 151552,
     LLAMA_STYLE,
     .experts = 160,
     .experts_per_token = 8,
     .expert_ffn_hidden = 1536,
     .shared_expert_ffn_hidden = 1536,
     .dense_layers = 3,
     .published_params = 355e9,
     .source = "GLM-4.5 report (arXiv 2508.06471) and the zai-org/GLM-4.5 model card: 355B "
               "total, 32B activated; shape from THUDM/slime's glm4.5-355B-A32B Megatron "
               "arguments"},
    /* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json: num_hidden_layers 61, hidden_size 7168,
     * intermediate_size 18432 (the first_k_dense_replace 3 dense layers), num_attention_heads
     * 128, q_lora_rank 1536, kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128,
     * v_head_dim 128, vocab_size 129280, n_routed_experts 256, num_experts_per_tok 8,
     * moe_intermediate_size 2048, n_shared_experts 1 (of that width), untied, RMSNorm, SwiGLU).
     * Strata counts 671.03B total (the report's 671B) and 37.55B activated with both embedding
     * tables (36.63B without the input embedding lookup); the report's 37B. Left out: the
     * multi-token-prediction module (num_nextn_predict_layers 1, 14B, outside the 671B), the
     * sigmoid router's per-expert bias (e_score_correction_bias, 256 a layer, not a weight). Its
     * node-limited routing (n_group 8, topk_group 4) is expert_groups. */
    {.name = "deepseek-v3",
     .layers = 61,
     .hidden = 7168,
     .ffn_hidden = 18432,
     .heads = 128,
     .kv_heads = 128,
     .vocab = 129280,
     LLAMA_STYLE,
     .experts = 256,
     .experts_per_token = 8,
     .expert_ffn_hidden = 2048,
     .shared_expert_ffn_hidden = 2048,
     .dense_layers = 3,
     .expert_groups = 8,
     .expert_groups_per_token = 4,
     .q_lora_rank = 1536,
     .kv_lora_rank = 512,
     .qk_rope_head_dim = 64,
     .qk_nope_head_dim = 128,
     .v_head_dim = 128,
     .published_params = 671e9,
     .source = "DeepSeek-V3 Technical Report (arXiv 2412.19437) abstract: 671B total, 37B "
               "activated, MTP module excluded; shape from deepseek-ai/DeepSeek-V3 config.json"},
    /* GPT-OSS-120B (openai/gpt-oss-120b config.json, as OpenAI's reference implementation
     * openai/gpt-oss gpt_oss/torch/model.py reads it: num_hidden_layers 36, hidden_size 2880,
     * num_attention_heads 64, num_key_value_heads 8, head_dim 64, vocab_size 201088,
     * num_local_experts 128, experts_per_token 4, intermediate_size 2880, sliding_window 128 on
     * the even layers, `sliding_window if layer_idx % 2 == 0`, untied unembedding, RMSNorm).
     * Biases on Q/K/V and the output projection (nn.Linear's default), on the router (gate, 128
     * a layer) and on both expert projections (mlp1_bias 2 x 2880, mlp2_bias 2880 per expert):
     * Strata's `bias: true`, which with RMSNorm adds none to the norms; no shared experts. Its
     * MLP is a clamped SwiGLU variant (swiglu_limit 7, x sigmoid(1.702 x) gate, (up + 1)):
     * Strata takes a SwiGLU of the same shapes. Strata counts 116.83B total (OpenAI's gpt-oss
     * model card, arXiv 2508.10925 Table 1: 116.83B) and 5.71B active with both embedding
     * tables and 5.13B without the input embedding lookup, which is the card's 5.13B active.
     * Left out: the attention sinks (one learned scalar per head, 64 a
     * layer, 2304 in all) and YaRN's rope scaling (no parameters). */
    {.name = "gpt-oss-120b",
     .layers = 36,
     .hidden = 2880,
     .ffn_hidden = 2880,
     .heads = 64,
     .kv_heads = 8,
     .head_dim = 64,
     .vocab = 201088,
     .mlp = ST_MLP_SWIGLU,
     .norm = ST_NORM_RMSNORM,
     .pos = ST_POS_ROPE,
     .bias = 1,
     .tied_embeddings = 0,
     .experts = 128,
     .experts_per_token = 4,
     .expert_ffn_hidden = 2880,
     .sliding_window = 128,
     .window_every = 2,
     .published_params = 116.83e9,
     .source = "OpenAI gpt-oss-120b & gpt-oss-20b model card (arXiv 2508.10925) Table 1: "
               "116.83B total, 5.13B active; shape from openai/gpt-oss-120b config.json"},
    {.name = "mixtral-8x7b",
     .layers = 32,
     .hidden = 4096,
     .ffn_hidden = 14336,
     .heads = 32,
     .kv_heads = 8,
     .vocab = 32000,
     LLAMA_STYLE,
     .experts = 8,
     .experts_per_token = 2,
     .expert_ffn_hidden = 14336,
     .published_params = 46.7e9,
     .source = "Mixtral of Experts (arXiv 2401.04088) section 2: 46.7B total, 12.9B active; shape "
               "from mistralai/Mixtral-8x7B-v0.1 config.json"},
    /* Mixtral 8x22B: mistral-community/Mixtral-8x22B-v0.1 config.json (the base model; the
     * instruct release's vocabulary is 32,768). Mistral AI's announcement ("Cheaper, Better,
     * Faster, Stronger", April 2024): 141B parameters, 39B active. */
    {.name = "mixtral-8x22b",
     .layers = 56,
     .hidden = 6144,
     .ffn_hidden = 16384,
     .heads = 48,
     .kv_heads = 8,
     .vocab = 32000,
     LLAMA_STYLE,
     .experts = 8,
     .experts_per_token = 2,
     .expert_ffn_hidden = 16384,
     .published_params = 141e9,
     .source = "Mistral AI, Mixtral 8x22B announcement (April 2024): 141B total, 39B active; "
               "shape from Mixtral-8x22B-v0.1 config.json"},
    /* Llama 2 (Touvron et al. 2023, arXiv 2307.09288, Table 1 and section 2.2): the Llama
     * architecture with a 32,000-entry tokenizer and a 4,096 context; grouped-query attention
     * (8 K/V heads) in the 70B alone; untied output layer. Shapes from meta-llama/Llama-2-*-hf
     * config.json. The counts are the checkpoints' tensor totals (the Hugging Face pages' 6.74B,
     * 13.0B, 69.0B; the paper rounds them to 7B, 13B, 70B). The MLPerf Inference and Training
     * llama2-70b benchmarks run this model. */
    {.name = "llama2-7b",
     .layers = 32,
     .hidden = 4096,
     .ffn_hidden = 11008,
     .heads = 32,
     .kv_heads = 32,
     .vocab = 32000,
     LLAMA_STYLE,
     .published_params = 6738415616,
     .source = "Llama 2 (arXiv 2307.09288) Table 1: 7B; meta-llama/Llama-2-7b-hf: 6,738,415,616"},
    {.name = "llama2-13b",
     .layers = 40,
     .hidden = 5120,
     .ffn_hidden = 13824,
     .heads = 40,
     .kv_heads = 40,
     .vocab = 32000,
     LLAMA_STYLE,
     .published_params = 13015864320,
     .source = "Llama 2 (arXiv 2307.09288) Table 1: 13B; meta-llama/Llama-2-13b-hf: "
               "13,015,864,320"},
    {.name = "llama2-70b",
     .layers = 80,
     .hidden = 8192,
     .ffn_hidden = 28672,
     .heads = 64,
     .kv_heads = 8,
     .vocab = 32000,
     LLAMA_STYLE,
     .published_params = 68976648192,
     .source = "Llama 2 (arXiv 2307.09288) Table 1: 70B, GQA; meta-llama/Llama-2-70b-hf: "
               "68,976,648,192"},
    /* Llama 3: the tokenizer has 128,256 entries (the paper's "128K" = 128,000 + 256 special
     * tokens), grouped-query attention with 8 K/V heads, untied output layer. */
    {.name = "llama3-8b",
     .layers = 32,
     .hidden = 4096,
     .ffn_hidden = 14336,
     .heads = 32,
     .kv_heads = 8,
     .vocab = 128256,
     LLAMA_STYLE,
     .published_params = 8e9,
     .source = "Llama 3 Herd of Models (arXiv 2407.21783) Table 3: 8B"},
    {.name = "llama3-70b",
     .layers = 80,
     .hidden = 8192,
     .ffn_hidden = 28672,
     .heads = 64,
     .kv_heads = 8,
     .vocab = 128256,
     LLAMA_STYLE,
     .published_params = 70e9,
     .source = "Llama 3 Herd of Models Table 3: 70B"},
    {.name = "llama3-405b",
     .layers = 126,
     .hidden = 16384,
     .ffn_hidden = 53248,
     .heads = 128,
     .kv_heads = 8,
     .vocab = 128256,
     LLAMA_STYLE,
     .published_params = 405e9,
     .source = "Llama 3 Herd of Models Table 3 and §3.2 (126 layers): 405B"},
    /* PaLM: multi-query attention (one K/V head) with 256-wide heads, SwiGLU with ffn 4h,
     * shared input/output embeddings, no biases anywhere (so weight-only LayerNorms), no
     * dropout. Its parallel attention+MLP block has one norm per layer; counting two adds
     * 2.2M parameters (0.0004%). */
    {.name = "palm-540b",
     .layers = 118,
     .hidden = 18432,
     .ffn_hidden = 73728,
     .heads = 48,
     .kv_heads = 1,
     .head_dim = 256,
     .vocab = 256000,
     .mlp = ST_MLP_SWIGLU,
     .norm = ST_NORM_LAYERNORM,
     .pos = ST_POS_ROPE,
     .bias = 0,
     .tied_embeddings = 1,
     .published_params = 540e9,
     .source = "Chowdhery et al. 2022 (PaLM, arXiv 2204.02311) §2 and Table 1: 540B"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const st_gpu_spec *st_catalog_gpu(const char *name)
{
    for (size_t i = 0; name && i < COUNT(gpus); i++)
        if (strcmp(gpus[i].name, name) == 0)
            return &gpus[i];
    return NULL;
}

const st_llm_spec *st_catalog_model(const char *name)
{
    for (size_t i = 0; name && i < COUNT(models); i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

size_t st_catalog_gpu_count(void)
{
    return COUNT(gpus);
}

const st_gpu_spec *st_catalog_gpu_at(size_t i)
{
    return i < COUNT(gpus) ? &gpus[i] : NULL;
}

size_t st_catalog_gpu_names(const char **names, size_t cap)
{
    size_t n = 0;
    for (; n < COUNT(gpus) && n < cap; n++)
        names[n] = gpus[n].name;
    return n;
}

size_t st_catalog_model_count(void)
{
    return COUNT(models);
}

const st_llm_spec *st_catalog_model_at(size_t i)
{
    return i < COUNT(models) ? &models[i] : NULL;
}
