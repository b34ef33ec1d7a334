/* Achieved throughput of the kernels a training step runs: the GEMM efficiency curve over
 * (m, n, k), FlashAttention's efficiency over sequence length, and the achievable fraction of
 * HBM bandwidth. Every constant is in the one calibration table below, with its source;
 * docs/models/step-ops.md derives the curve and compares it with the benchmark data. */
#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"

#include <math.h>
#include <string.h>

/* ---- The GEMM model ------------------------------------------------------------------------
 * cuBLAS splits the m x n output into tiles, one thread block (CTA) each, and runs them in
 * waves over the SMs. A tile of bm x bn steps through k at the SM's share of e_max x peak, and
 * pays a fixed cost worth TILE_FILL_K more steps of k (filling the operand pipeline before the
 * first MMA, draining the accumulators after the last). The library picks the tile size that
 * finishes first, so
 *   time(m, n, k) = min over tiles of ceil(ceil(m/bm) ceil(n/bn) / SMs) 2 bm bn (k + k0) / r,
 *   r = e_max peak / SMs,   efficiency = 2 m n k / (time x peak) <= e_max.
 * Small or skinny GEMMs lose to wave quantisation (a partial last wave), tile quantisation
 * (padding m and n up to the tile) and, at small k, to the fill cost k / (k + k0). */

/* NVIDIA, "Matrix Multiplication Background User's Guide" (docs.nvidia.com/deeplearning/
 * performance/dl-performance-matrix-multiplication), section "GPU implementation": the cuBLAS
 * tile sizes, 256x128 and 128x256 (most efficient), 128x128, 256x64 and 64x256, 128x64 and
 * 64x128, 64x64 (least efficient). */
static const double TILES[][2] = {{256, 128}, {128, 256}, {128, 128}, {256, 64},
                                  {64, 256},  {128, 64},  {64, 128},  {64, 64}};
#define N_TILES (sizeof TILES / sizeof TILES[0])

/* NVFP4 GEMMs tile their output in 256 x 256 blocks: of the candidate sets (cuBLAS's above, the
 * 256-wide ones, 256 x 256 alone), that alone reproduces the wave quantisation of Azure's
 * cuBLASLt FP4 runs on GB200 (FP4_OF_FP8 below; the eight shapes from 1024^3 to 32768^3 and
 * 802816 x 192 x 768, each less the 4.75 us launch overhead the XLA comparison removes): rms
 * error 17% in log time against 91% with cuBLAS's set, which has 2048^3 run at 2.3 times the
 * measured rate (64 tiles on 148 SMs fill 43% of a wave, as measured: 2279 TFLOP/s against
 * 5316). CUTLASS's NVFP4 GEMM example (examples/72_blackwell_narrow_precision_gemm,
 * 72a_blackwell_nvfp4_bf16_gemm.cu) tiles its block-scaled MMA at 256 x 256 too. Decode's
 * GEMMs of a few hundred rows pay it: 375 rows pad to 512. */
static const double TILES_FP4[][2] = {{256, 256}};
#define N_TILES_FP4 (sizeof TILES_FP4 / sizeof TILES_FP4[0])

/* k0, fitted (least squares on log time) to the 375 BF16 GEMMs of XLA's measured H100 SXM
 * table (openxla, xla/service/gpu/model/matmul_interpolator_data.h, key "sm_90": b in {1, 2,
 * 4} x m, n, k in {256 ... 4096}), with e_max and a per-call launch overhead as the other free
 * parameters: k0 = 128 (96-160 within 1% of the best error), e_max = 0.84, launch 5.75 us, rms
 * error 8.0% over sizes from 34 MFLOP to 550 GFLOP. The launch overhead belongs to the
 * benchmark's timing (every call timed alone), not to back-to-back kernels in a training step,
 * so it is not part of the model. k0 is held in units of k for every GPU and precision, i.e.
 * the fixed cost shrinks as the tensor cores get faster; a fixed cost in seconds instead (1.4 us
 * fits the same data at 8.7%) cannot reproduce the Blackwell MAMF points below, which reach
 * 0.72-0.78 of peak at k = 1536-3072. */
#define TILE_FILL_K 128.0

/* ---- The calibration table ----------------------------------------------------------------- */

/* A maximum-achievable-matmul measurement: the best fraction of the dense peak found by a
 * search over shapes, and the shape it was found at (M x N x K). e_max is derived from it by
 * inverting the tile model at that shape, so the model reproduces the measurement exactly. */
typedef struct mamf {
    double frac, m, n, k;
} mamf;

/* Fused-attention efficiency, a fraction of the dense BF16 peak, fitted as a s / (s + s0) over
 * published sequence-length sweeps (head dim 128, causal); the fits are within 2.4% rms of
 * every point. */
typedef struct attn_fit {
    double fwd_a, fwd_s0, bwd_a, bwd_s0;
    double ref_emax_frac; /* the measuring GPU's BF16 MAMF fraction, for scaling to others */
    double ref_sms;       /* and its SM count, for the benchmark's own wave fill */
    double bench_blocks;  /* the benchmark's blocks of 128 queries, whose wave fill the fit
                             contains; 0: the fill was divided out of each point before fitting */
    /* The softmax's work per score element in head dims of matmul time, forward and backward
     * (st_attn_head_dim_share): fitted, least squares, to the head-dim-64 over head-dim-128
     * throughput ratios r = (128 + beta) / (2 (64 + beta)) of one benchmark run (ATTN_BETA). */
    double fwd_beta, bwd_beta;
} attn_fit;

/* Both FlashAttention papers' sweeps hold batch x seqlen at 16k tokens with 16 heads of 128
 * (hidden 2048): 16384 / 128 x 16 = 2048 blocks of 128 queries, whatever the sequence length. */
#define ATTN_BENCH_BLOCKS 2048.0

enum {
    ATTN_FA2_A100,
    ATTN_FA3_H100,
    ATTN_FA2_H100,
    ATTN_CUDNN_H200,
    ATTN_CUDNN_GB200,
    ATTN_CUDNN_H100_2024,
    ATTN_CUDNN_B200_910
};

/* ATTN_BETA: the head-dim-64 over head-dim-128 throughput ratios each beta (attn_fit) is fitted
 * to, causal, the same run, heads and lengths on both sides:
 *  - FlashAttention-3 (Shah et al. 2024, arXiv 2407.08608, Figs. 5 and 6, H100, seqlen 512 ...
 *    16k): forward 197/265/371/420/460/473 against 292/423/521/579/602/616 TFLOP/s, r 0.63-0.77,
 *    beta 87 (rms 0.05); backward 272/363/422/453/472/474 against 316/424/501/542/559/561,
 *    r 0.84-0.86, beta 28 (rms 0.008).
 *  - The same figures' FlashAttention-2 bars: forward 180/229/262/284/295/299 against
 *    191/260/298/319/333/335, beta 17; backward 198/238/264/279/287/291 against
 *    214/260/291/310/318/322, beta 14. No head-dim-64 bars of the A100 are at hand: its row takes
 *    the H100's (the same kernel, on a part with half the matmul per SM clock, so if anything
 *    less bound by its softmax).
 *  - Their cuDNN bars (mid-2024): forward 225 ... 388 against 315 ... 539, r 0.71-0.72,
 *    beta 84; backward 266/348/395/417/432/433 against 305/408/465/499/518/516, beta 28.
 *  - cuDNN 9.27 on a B200 (NVIDIA/cudnn-frontend, benchmark/attention_inference, results
 *    gpt_oss/b200 and prefill_sweep/b200 of 2026-09-18, BF16, batch 1): GPT-OSS's attention (64
 *    query and 8 K/V heads of 64, with its sinks) against Llama 3.1's (the same heads of 128):
 *    632 against 915 TFLOP/s at 2k, 925 against 1401 at 8k, and a chunk of 512 or 1,024 queries
 *    after 64k or 128k keys 825-838 against 1346-1441: r 0.58-0.69, beta 197 (rms 0.04).
 *  - cuDNN on an H200 (the same repository, results gpt_oss/h200 and prefill_sweep/h200 of
 *    2026-09-28): 348 against 490 TFLOP/s at 2k, 457 against 654 at 8k, and the four chunks
 *    481-487 against 632-634: r 0.70-0.77, beta 67 (rms 0.03).
 * Hopper's three forward kernels agree (67-87). Blackwell's is 2.3-2.9 times as large: from the
 * H100 to the B200 the BF16 Tensor Cores went from 1 to 2.25 PFLOP/s while the special-function
 * units that compute the softmax's exponentials stayed as many (Together AI, "FlashAttention-4",
 * 2026: on the B200 the forward is bound by the exponential, the backward by shared memory). No
 * head-dim-64 backward of cuDNN on Blackwell or on the H200 is published: the H200 takes the
 * measured Hopper cuDNN backward (28), Blackwell its forward beta times Hopper's backward over
 * forward (28 / 86, FlashAttention-3's and mid-2024 cuDNN's), 64: an estimate. */
#define BETA_FA3               87.0, 28.0
#define BETA_FA2               17.0, 14.0
#define BETA_CUDNN_HOPPER_2024 84.0, 28.0
#define BETA_CUDNN_HOPPER      67.0, 28.0
#define BETA_CUDNN_BLACKWELL   197.0, 64.0

static const attn_fit ATTN[] = {
    /* Dao 2023, "FlashAttention-2" (arXiv 2307.08691), Fig. 5(d) forward and Fig. 6(d)
     * backward, A100 80GB SXM4, causal, head dim 128: forward 108/126/133/148/148/148 and
     * backward 90/122/145/165/175/186 TFLOP/s at seqlen 512 ... 16k. FLOPs counted the paper's
     * way: causal halves them, backward is 2.5x forward. */
    [ATTN_FA2_A100] = {0.485, 210, 0.605, 570, 0.869, 108, ATTN_BENCH_BLOCKS, BETA_FA2},
    /* Shah et al. 2024, "FlashAttention-3" (arXiv 2407.08608), H100 80GB SXM5, head dim 128:
     * forward 292/423/521/579/602/616 and backward 316/424/501/542/559/561 TFLOP/s at seqlen
     * 512 ... 16k, read through a transcription of the bar labels that drops the panel
     * captions. Of the two head-dim-128 forward panels (Fig. 5) this is the lower, taken as the
     * causal one (the other peaks at 648); the backward is the one head-dim-128 sweep given. */
    [ATTN_FA3_H100] = {0.661, 600, 0.598, 430, 0.803, 132, ATTN_BENCH_BLOCKS, BETA_FA3},
    /* The same two FlashAttention-3 figures also give FlashAttention-2 on the H100: forward
     * 191/260/298/319/333/335, backward 214/260/291/310/318/322 TFLOP/s (rms 2.1%, 0.3%). */
    [ATTN_FA2_H100] = {0.354, 404, 0.333, 274, 0.803, 132, ATTN_BENCH_BLOCKS, BETA_FA2},
    /* cuDNN's fused attention: NVIDIA's own sweep, NVIDIA/cudnn-frontend
     * benchmark/sdpa_benchmark_training/results/{h200,gb200}_919_only_cudnn/llama3.1_*.csv
     * (cuDNN 9.19.1 through cudnn-frontend 1.19, February 2026): Llama 3.1 attention, batch 1,
     * 64 query and 8 K/V heads of 128, causal (top-left), BF16, seqlen 2k ... 32k, FLOPs
     * counted as above (the script's tflops_per_sec: causal halves, backward 2.5x):
     *   H200:  forward 484/591/644/673/688, backward 370/474/541/579/581 TFLOP/s;
     *   GB200: forward 1042/1335/1598/1687/1720, backward 836/1132/1311/1402/1473 TFLOP/s.
     * The benchmark has 64 x seqlen / 128 blocks, so each point's wave fill over the SMs was
     * divided out before the fit (rms 1.6%, 2.2% on H200; 2.0%, 1.8% on GB200). Over the same
     * GPUs and kernel the GB200 / H200 ratio, 2.15-2.54, is what scaling one part's sweep by
     * peak x MAMF fraction gives (2.30) within 11%. These replace the cuDNN bars of the
     * FlashAttention-3 paper (an H100 with the cuDNN of mid-2024: forward 315-539, backward
     * 305-516 at 512 ... 16k): the newer library is 20-25% faster in the forward at 8k and
     * above, and 20% slower in the backward at 2k; docs/models/step-ops.md compares them. */
    [ATTN_CUDNN_H200] = {0.731, 874, 0.635, 1262, 0.803, 132, 0, BETA_CUDNN_HOPPER},
    [ATTN_CUDNN_GB200] = {0.742, 1522, 0.631, 1694, 0.729, 148, 0, BETA_CUDNN_BLACKWELL},
    /* Older cuDNN releases (ATTN_OLDER below picks them by the workload's `cudnn`):
     * The FlashAttention-3 paper's cuDNN bars (Shah et al. 2024, arXiv 2407.08608, the same H100
     * figures as ATTN_FA3_H100, July 2024; the paper names no release): forward 315 ... 539 and
     * backward 305 ... 516 TFLOP/s over 512 ... 16k, causal, head dim 128. */
    [ATTN_CUDNN_H100_2024] = {0.567, 387, 0.548, 377, 0.803, 132, ATTN_BENCH_BLOCKS,
                              BETA_CUDNN_HOPPER_2024},
    /* NVIDIA's B200 sweep through PyTorch (NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/
     * artifacts/sdpa_bf16_benchmark_results_NVIDIA_B200.csv at cb560b9, backend pyt_cudnn; its
     * sample_b200_bf16_run.txt logs cuDNN 91002 in NGC PyTorch 25.06): batch 1, 128 query and 8
     * K/V heads of 128, causal, forward 874/1197/1350/1430 and backward 695/940/1073/1124 TFLOP/s
     * at seqlen 4k ... 32k. Each point's wave fill (s blocks over 148 SMs) was divided out; the
     * 2k point (485, 368), which carries PyTorch's call overhead, is left out of the fit (rms
     * 2.8% forward, 2.5% backward over the four, every point within 4.3%). */
    [ATTN_CUDNN_B200_910] = {0.715, 3172, 0.563, 3122, 0.776, 148, 0, BETA_CUDNN_BLACKWELL},
};

/* The older releases of a cuDNN sweep: a job whose `cudnn` release is at most `through` reads
 * `older` in place of `newest`. A release is taken to run at most as fast as the nearest newer
 * one measured, so a release between two sweeps reads the newer (an upper bound on its speed).
 * The FlashAttention-3 paper (July 2024) predates cuDNN 9.3 (August 2024), so its bars stand
 * for 9.2 and older. */
static const struct {
    int newest, older, through;
} ATTN_OLDER[] = {
    {ATTN_CUDNN_H200, ATTN_CUDNN_H100_2024, 902},
    {ATTN_CUDNN_GB200, ATTN_CUDNN_B200_910, 910},
};

/* One row per measured part, indexed by the GPU record's calibration key (models/silicon/gpu.h);
 * a key without a row has sms == 0. */
typedef struct calib {
    double sms;         /* SMs (NVIDIA) or CUs (AMD): the unit one tile runs on */
    mamf bf16, fp8;     /* fp8.frac == 0: no measurement; BF16's fraction is used */
    mamf fp4;           /* NVFP4 (FP4_OF below); frac == 0: the part has no FP4 Tensor Cores */
    double hbm_frac;    /* achievable share of the datasheet HBM bandwidth */
    double decode_frac; /* the share a paged decode attention kernel reaches (st_decode_attn_
                           efficiency); 0: no kernel measured, hbm_frac stands */
    int attn;           /* the sweep `attention: flash` reads: the GPU's default fused kernel */
    int cudnn;          /* the sweep `attention: cudnn` reads */
    const char *note;
} calib;

/* MAMF: S. Bekman, "Machine Learning Engineering", compute/accelerator/README.md, "Maximum
 * Achievable Matmul FLOPS comparison table" (mamf-finder.py, torch.mm, mean of 100 iterations
 * after 50 warm-up; BF16 and FP8 e4m3 tables). Its derivation: Anthony et al. 2024, "The
 * Case for Co-Designing Model Architectures with Hardware" (arXiv 2401.14489).
 * HBM: BabelStream Triad in Azure's "AI-benchmarking-guide" (Azure_Results/ND_A100_v4,
 * ND_H200_v5, "Azure Results/ND_H100_v5"): A100-SXM4-80GB 1.70 of 2.039 TB/s, H100 80GB HBM3
 * 2.97 of 3.35, H200 4.15 of 4.8; MI300X 4.10 of 5.3 (ND MI300X v5, the guide's
 * Azure_Results/ND_MI300X_v5_results.md as published in the fork yosoyjay/AI-benchmarking-guide at
 * a8263ef; another run of it, samuel-bohman's fork at 3de0c29, read 4.09). GPUs without a
 * measurement take the mean of the three NVIDIA parts, 0.862.
 * MI300X FP8: Bekman's FP8 table has an MI300X row with no measurement, so the row is the best
 * of the same ND MI300X v5 file's hipBLASLt FP8 sweep (hipblaslt-bench, e4m3 in, fp16 out, 10,000
 * warm-up runs), 1222.9 TFLOP/s at 8192^3 of the 2614.9 dense peak (0.468); its other shapes:
 * 1085.4 at 4096^3, 1081.4 at 16384^3, 1148.7 at 6144x12288x12288.
 * The H200's own run (tools/measure/runs/h200-2026-12-04, unit.measured_h200) confirms the
 * row: BF16 MAMF 0.807-0.823 and FP8 0.729-0.731 (torch._scaled_mm) over the calls timed from
 * CUDA graphs, weights streamed by decode's largest skinny GEMM at 0.868 of the datasheet
 * bandwidth.
 * SMs: NVIDIA A100 and H100 architecture whitepapers (A100 108; H100 SXM5 132, PCIe 114; the
 * H200 is the H100 SXM die with HBM3e); B200 148 = 2 dies x 74 enabled SMs (Chips and Cheese,
 * "Nvidia's B200: Keeping the CUDA Juggernaut Rolling"), the same dies in GB200; MI300X 304
 * CUs (AMD Instinct MI300X data sheet). */
#define NO_MAMF                                                                                    \
    {                                                                                              \
        0, 0, 0, 0                                                                                 \
    }

/* NVFP4 GEMMs: no MAMF search is published. Azure's "AI-benchmarking-guide" ran cuBLASLt in
 * FP8 and in FP4 on the same ND GB200 v6 machine (egmsft/AI-benchmarking-guide,
 * Azure_Results/ND_GB200_v6_results.md, random data, 10,000 warm-up runs): at m = n = k = 4096,
 * 8192, 16384 and 32768, 2694.7, 2781.5, 2819.5, 2755.3 TFLOP/s in FP8 and 4854.5, 7609.1,
 * 5604.0, 5262.2 in FP4. Against the peaks' ratio of 2, FP4 reached 0.90, 1.37, 0.99 and 0.95
 * of FP8's fraction of its peak; the median, 0.974, is the FP4 row's fraction of the FP8
 * MAMF, at the FP8 search's shape. The spread (the 8192 point above its neighbours on both
 * sides) is the measurement's, not the model's. B200 has the same dies. */
#define FP4_OF_FP8 0.974
#define FP4_OF_(frac, m, n, k)                                                                     \
    {                                                                                              \
        (frac) * FP4_OF_FP8, m, n, k                                                               \
    }
#define FP4_OF(...) FP4_OF_(__VA_ARGS__)
/* Paged decode attention on CDNA3: the one published kernel timing at a serving batch, AMD's
 * Gluon paged decode for MI300-series GPUs (ROCm/aiter pull request 1383, merged 2025-11-11,
 * its benchmark table): 128 sequences of 4,096 keys, 16 query heads on one KV head of 128 (the
 * GQA of a Llama 3 70B or 405B rank at tensor parallelism 8 is 8 or 16 on one), an FP8 cache,
 * one query a sequence, 154.2 us. Its bytes as st_ops_attn_decode_time_of counts them (the
 * cache's K and V, 134.2 MB; the BF16 queries and outputs, 1.05 MB; the log-sum-exp) over the
 * time less the kernel boundary (149.7 us): 0.903 TB/s, 0.170 of the 5.3 TB/s datasheet
 * figure (0.22 of BabelStream's 4.10). The same kernel's earlier table (pull request 1284,
 * 2025-10-29) checks it: 4 sequences of 4,096 keys in a BF16 cache of 16-token blocks, 8.4 MB,
 * 14.8 us measured against 13.8 at this share (unit.serve). vLLM 0.9.1's ROCm decode
 * kernel (csrc/rocm/attention.cu: a workgroup per sequence, 256-key partition and KV head, then
 * a reduction) has no published timing; the Gluon kernel, written for the same parts and paged
 * layout, stands for CDNA3's. NVIDIA's decode kernels keep the part's HBM share, with which
 * the sets on them were met (docs/models/inference.md). */
#define MI300X_DECODE_FRAC 0.170

#define B200_FP8  0.763, 15360, 4096, 3072
#define GB200_FP8 0.723, 19456, 5120, 1536
static const calib CALIB[ST_GPU_CALIB__COUNT] = {
    [ST_GPU_CALIB_A100_SXM_80G] = {.sms = 108,
                                   .bf16 = {0.869, 1024, 10240, 5120},
                                   .fp8 = NO_MAMF,
                                   .hbm_frac = 0.834,
                                   .attn = ATTN_FA2_A100,
                                   .cudnn = ATTN_FA2_A100},
    [ST_GPU_CALIB_A100_SXM_40G] =
        {.sms = 108,
         .bf16 = {0.869, 1024, 10240, 5120},
         .fp8 = NO_MAMF,
         .hbm_frac = 0.834,
         .attn = ATTN_FA2_A100,
         .cudnn = ATTN_FA2_A100,
         .note = "MAMF and BabelStream were measured on the 80 GB part: same GA100 die and clocks"},
    [ST_GPU_CALIB_H100_SXM] = {.sms = 132,
                               .bf16 = {0.803, 2048, 2048, 13312},
                               .fp8 = {0.709, 1024, 9216, 14336},
                               .hbm_frac = 0.887,
                               .attn = ATTN_FA3_H100,
                               .cudnn = ATTN_CUDNN_H200,
                               .note = "cuDNN: the H200's sweep (the same die and Tensor Cores)"},
    [ST_GPU_CALIB_H100_PCIE] = {.sms = 114,
                                .bf16 = {0.803, 2048, 2048, 13312},
                                .fp8 = {0.709, 1024, 9216, 14336},
                                .hbm_frac = 0.862,
                                .attn = ATTN_FA3_H100,
                                .cudnn = ATTN_CUDNN_H200,
                                .note = "no MAMF for the PCIe card: the SXM fractions are assumed"},
    [ST_GPU_CALIB_H200_SXM] = {.sms = 132,
                               .bf16 = {0.803, 2048, 2048, 13312},
                               .fp8 = {0.734, 1280, 4096, 12032},
                               .hbm_frac = 0.865,
                               .attn = ATTN_FA3_H100,
                               .cudnn = ATTN_CUDNN_H200,
                               .note = "MAMF's BF16 table: 'H200 is the same' as H100 SXM"},
    [ST_GPU_CALIB_B200] =
        {.sms = 148,
         .bf16 = {0.776, 1792, 16128, 3072},
         .fp8 = {B200_FP8},
         .fp4 = FP4_OF(B200_FP8),
         .hbm_frac = 0.862,
         .attn = ATTN_CUDNN_GB200,
         .cudnn = ATTN_CUDNN_GB200,
         .note = "attention: GB200's cuDNN sweep (the same dies), scaled by the GEMM e_max"},
    [ST_GPU_CALIB_GB200] =
        {.sms = 148,
         .bf16 = {0.729, 4096, 9728, 2048},
         .fp8 = {GB200_FP8},
         .fp4 = FP4_OF(GB200_FP8),
         .hbm_frac = 0.862,
         .attn = ATTN_CUDNN_GB200,
         .cudnn = ATTN_CUDNN_GB200,
         .note =
             "FlashAttention-3 does not run on Blackwell: `flash` reads cuDNN's sweep, the fastest "
             "published"},
    [ST_GPU_CALIB_MI300X] =
        {.sms = 304,
         .bf16 = {0.514, 10240, 15360, 8192},
         .fp8 = {0.468, 8192, 8192, 8192},
         .hbm_frac = 0.774,
         .decode_frac = MI300X_DECODE_FRAC,
         .attn = ATTN_FA3_H100,
         .cudnn = ATTN_CUDNN_H200,
         .note = "FP8: Azure's hipBLASLt sweep, not a MAMF search; no attention sweep: the "
                 "Hopper sweeps, scaled"},
};

/* A GPU the table does not cover (a custom scenario GPU) is treated like an H100 SXM: the most
 * measured part, and a mid-range choice among the rows above. */
static const calib *calib_row(const st_gpu_spec *gpu)
{
    if (!gpu || (int)gpu->calib <= ST_GPU_CALIB_NONE || gpu->calib >= ST_GPU_CALIB__COUNT)
        return NULL;
    return CALIB[gpu->calib].sms > 0 ? &CALIB[gpu->calib] : NULL;
}

static const calib *calib_of(const st_gpu_spec *gpu)
{
    const calib *c = calib_row(gpu);
    return c ? c : &CALIB[ST_GPU_CALIB_H100_SXM];
}

int st_gemm_calibrated(const st_gpu_spec *gpu)
{
    return calib_row(gpu) != NULL;
}

double st_gpu_peak(const st_gpu_spec *gpu, st_precision prec)
{
    if (prec == ST_PREC_FP4 && gpu->peak_fp4 > 0)
        return gpu->peak_fp4;
    if (prec != ST_PREC_BF16 && gpu->peak_fp8 > 0)
        return gpu->peak_fp8;
    return gpu->peak_bf16;
}

/* Sustained over burst Tensor Core throughput: what minutes of dense GEMMs get under the
 * board's power and clock limits, against the short MAMF runs the curve is calibrated on.
 * Source: Azure's "AI-benchmarking-guide" (Azure_Results/ND_*_results.md), cuBLASLt GEMMs on
 * random data after 10,000 warm-up runs, at 8192^3, 16384^3 and 6144x12288x12288; each ratio is
 * the mean of measured / burst curve at those shapes:
 *   A100 SXM4 80GB, FP16: 253.7, 256.5, 250.8 TFLOP/s against 276.5, 279.1, 277.9: 0.913;
 *   H100 80GB HBM3, FP8: 1290.1, 1377.3, 1351.4 against 1427.3, 1447.1, 1441.1: 0.931;
 *   GB200, FP8: 2876.6, 2906.9, 2895.6 against 3861.5, 3900.2, 3877.5: 0.746 (GB200 has no
 *   FP8 MAMF figure, so its burst FP8 curve borrows BF16's fraction: this ratio also carries
 *   FP8's lower efficiency, and it is applied to both precisions).
 * H200: measured here (tools/measure/runs/h200-2026-12-04, 8192^3 back to back for 60 s, the
 * last 10 s against the first 2 s): BF16 0.6741 / 0.7493 of the dense peak = 0.900 (SM clock
 * 1980 MHz idle, 1455-1515 MHz at 683-690 W of the 700 W limit); FP8 0.6014 / 0.7182 = 0.837
 * (1305-1380 MHz at the same power: FP8's kernels reach the limit at a lower clock). The two
 * precisions get their own columns where both are measured. Azure's FP8 runs on an H200 gave 0.864
 * (1269.4, 1305.0 against 1480.1, 1500.6): after 10,000 warm-ups (about 9 s of load) the clock
 * had not settled to where a minute takes it, 0.837 / 0.864 = 0.969 of Azure's figure. H100 SXM,
 * the same die at the same 700 W, has only Azure's FP8 figure: settled by the same ratio, its FP8
 * column is 0.931 x 0.969 = 0.902 (a derived estimate); its BF16 column keeps Azure's 0.931 for
 * want of a BF16 run (the H200's BF16 sustains 7.5% more of its burst than its FP8). A training
 * step is minutes of exactly that load. The ratio is a clock and power effect; where one precision
 * is measured it applies to every precision of the part. B200 has no such measurement; it is the
 * same Blackwell die as GB200, held to 1000 W instead of 1200 W (catalog TDPs). Near the top of the
 * DVFS curve voltage scales with clock, so dynamic power goes as f V^2 ~ f^3 and the clock a power
 * cap allows as P^(1/3): GB200's 0.746 x (1000 / 1200)^(1/3) = 0.702. This is a derived estimate,
 * not a measurement. The plant's DVFS curve (models/plant/dvfs.c) is calibrated flatter, P ~ f^1.29
 * above idle, which would give 0.635; docs/models/step-ops.md compares the two on the published
 * B200 runs, which do not settle it. GPUs with neither (H100 PCIe, MI300X) take 1 until the thermal
 * model supplies their clock factor. */
typedef struct sustained {
    double bf16; /* BF16 GEMMs, and every precision where fp8 is 0 */
    double fp8;  /* FP8 and FP4 GEMMs; 0: not measured apart */
} sustained;

static const sustained SUSTAINED[ST_GPU_CALIB__COUNT] = {
    /* the same GA100 die, clocks and 400 W limit */
    [ST_GPU_CALIB_A100_SXM_80G] = {0.913, 0}, [ST_GPU_CALIB_A100_SXM_40G] = {0.913, 0},
    [ST_GPU_CALIB_H100_SXM] = {0.931, 0.902}, /* FP8: Azure's 0.931 settled as the H200's */
    [ST_GPU_CALIB_H200_SXM] = {0.900, 0.837}, [ST_GPU_CALIB_GB200] = {0.746, 0},
    [ST_GPU_CALIB_B200] = {0.702, 0}, /* derived from GB200's, above */
};

double st_gpu_fitted(const st_gpu_spec *gpu, st_precision prec)
{
    double f = gpu && (unsigned)prec < 2 ? gpu->fit_compute[prec] : 0;
    return f > 0 ? f : 1.0;
}

void st_gpu_fit(st_gpu_spec *gpu, const st_calib_cfg *c)
{
    if (!c->enabled)
        return;
    gpu->fit_compute[ST_PREC_BF16] = c->compute_bf16;
    gpu->fit_compute[ST_PREC_FP8] = c->compute_fp8;
}

st_gpu_spec st_gpu_at(const st_gpu_spec *gpu, double clock, double straggle, const st_calib_cfg *c)
{
    st_gpu_spec at = *gpu;
    double share = clock > 0 && clock < 1 ? clock : 1;
    if (straggle > 1)
        share /= straggle;
    at.clock = share < 1 ? share : 0;
    st_gpu_fit(&at, c);
    return at;
}

double st_gpu_sustained(const st_gpu_spec *gpu, st_precision prec)
{
    /* A clock below full (a thermal throttle) slows the Tensor Cores in proportion: the SM
     * clock sets their issue rate; HBM runs on its own clock and keeps its bandwidth. */
    double clock = gpu && gpu->clock > 0 && gpu->clock < 1 ? gpu->clock : 1.0;
    /* 0: no measurement for the part (or no part) */
    if (!(gpu && (int)gpu->calib > ST_GPU_CALIB_NONE && gpu->calib < ST_GPU_CALIB__COUNT))
        return clock;
    const sustained *r = &SUSTAINED[gpu->calib];
    double f = prec != ST_PREC_BF16 && r->fp8 > 0 ? r->fp8 : r->bf16;
    return f > 0 ? f * clock : clock;
}

/* Compute beside communication. NCCL's kernels take SMs of their own (16 on a DGX with 8 NICs,
 * NVIDIA/nccl issue 689) and share HBM bandwidth with the compute kernels, so a layer whose
 * collective runs beside it runs slower than alone. Lee et al., "Characterizing
 * Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning" (arXiv 2507.03114,
 * 2025), measured GPT and LLaMA training on 4 A100, H100, MI250 and MI210 GPUs (FSDP through
 * DeepSpeed, pipelines through Megatron-LM): "an average computational slowdown of 18.9%, with a
 * maximum of 40.0%", against the same kernels with no communication beside them. That average
 * is every GPU's without a measurement of its own. */
#define OVERLAP_SLOWDOWN 0.189

/* Transformer Engine's userbuffers overlap: its pipeline and bulk methods run the communication
 * kernel on 16 SMs in clusters of 2 and, with set_sm_margin, launch the GEMM on the SMs left; ring
 * exchange sends on the copy engines with 1 SM and takes no margin (initialize_ub's default
 * config: "num_sm": 1 if method == "ring_exchange" else 16, "cga_size": 1 if ring exchange else
 * 2, "set_sm_margin": not ring exchange; transformer_engine/pytorch/module/base.py, TE 1.x and
 * 2.x); NeMo's tuned settings (models/silicon/ub_cfg.c) change the SMs and the margin per GEMM.
 * Without a measurement a GEMM on the SMs left takes sms / (sms - n) as long, the tile waves not
 * redone on the smaller count. UB_COMM_SMS: the SMs the measurement held. */
#define UB_COMM_SMS 16.0

/* Measured on an H200 (tools/measure/overlap.cu, runs/h200-2026-12-04/curve.csv): nine
 * transformer GEMMs of 8192 tokens (Llama 3 70B at TP 8, Llama 3 8B, 8192 cubed), cuBLASLt's
 * first heuristic choice, timed alone and beside a kernel holding SMs as the libraries launch
 * theirs; the median over the shapes of time beside / time alone - 1, BF16 and FP8:
 *   nccl: 16 blocks in clusters of 4 (NCCL's cgaClusterSize default, src/init.cc): 0.154, 0.097
 *   ub:   16 blocks in clusters of 2, the GEMM given the 116 SMs left (SM_COUNT_TARGET):
 *         0.348, 0.323 (the margin alone costs 0.136 and 0.137, 16/116 = 0.138; the rest is
 *         the GEMM's clusters finding fewer free pairs of SMs)
 *   ring: 1 block: 0.115, 0.101 (cuBLAS's persistent kernels wait for the one SM)
 *   ub_free: 16 blocks in clusters of 2, the GEMM on the whole GPU (set_sm_margin off, as
 *         NeMo's tuned bulk settings run): 0.126, 0.072
 * Held in clusters the SMs cost about their share (16 of 132); the same 16 blocks launched
 * singly cost 0.34 and 0.30, 32 singly 0.47 and 0.46. Copying through HBM at 0.5-0.9 TB/s
 * instead of only holding the SMs moved the medians by -0.10 to +0.08 (runs/h200-2026-12-04/
 * overlap.csv), inside the shapes' spread: the SMs, not the bandwidth, set the slowdown. H100 SXM
 * has the same 132 SMs, GPCs and cuBLAS kernels and takes the H200's figures. */
typedef struct overlap_row {
    double nccl[2], ub[2], ring[2], ub_free[2]; /* [0] BF16, [1] FP8 and FP4; 0: not measured */
} overlap_row;

#define HOPPER_SXM_OVERLAP                                                                         \
    {                                                                                              \
        .nccl = {0.154, 0.097}, .ub = {0.348, 0.323}, .ring = {0.115, 0.101}, .ub_free = {         \
            0.126,                                                                                 \
            0.072                                                                                  \
        }                                                                                          \
    }
static const overlap_row OVERLAP[ST_GPU_CALIB__COUNT] = {
    [ST_GPU_CALIB_H100_SXM] = HOPPER_SXM_OVERLAP,
    [ST_GPU_CALIB_H200_SXM] = HOPPER_SXM_OVERLAP,
};

static const overlap_row *overlap_of(const st_gpu_spec *gpu)
{
    if (!(gpu && (int)gpu->calib > ST_GPU_CALIB_NONE && gpu->calib < ST_GPU_CALIB__COUNT))
        return NULL;
    return &OVERLAP[gpu->calib];
}

double st_gpu_overlap_slowdown(const st_gpu_spec *gpu, st_precision prec)
{
    const overlap_row *r = overlap_of(gpu);
    double f = r ? r->nccl[prec != ST_PREC_BF16] : 0;
    return f > 0 ? f : OVERLAP_SLOWDOWN;
}

/* The SM share a communication kernel of n SMs takes from a GEMM: n / (sms - n) when the GEMM
 * is launched on the rest (set_sm_margin), n / sms when it is not. */
static double ub_share(double n, double sms, int margin)
{
    return margin ? n / (sms - n) : n / sms;
}

/* Measured at 16 SMs (the row's ub and ub_free); another count moves the figure by the change in
 * the SM share, which the margin alone follows (0.136 and 0.137 measured, 16 / 116 = 0.138).
 * Without a margin fewer than 16 SMs are taken to cost the 16's: one SM alone costs about as
 * much (ring: 0.115, 0.101), the GEMM's persistent tiles waiting for whatever is held. Without a
 * measurement: the SM share, at least Lee et al.'s average (OVERLAP_SLOWDOWN). */
double st_gpu_ub_slowdown(const st_gpu_spec *gpu, st_precision prec, const st_ub_gemm *g)
{
    const overlap_row *r = overlap_of(gpu);
    int k = prec != ST_PREC_BF16;
    double sms = st_gpu_sm_count(gpu), n = g->sms > 0 ? (double)g->sms : 1.0;
    if (n > sms / 2)
        n = sms / 2; /* the table holds at most 32; a GPU of fewer SMs keeps half for the GEMM */
    if (g->method == ST_TP_RING)
        return r && r->ring[k] > 0 ? r->ring[k] : OVERLAP_SLOWDOWN;
    if (r && g->margin && r->ub[k] > 0)
        return r->ub[k] + ub_share(n, sms, 1) - ub_share(UB_COMM_SMS, sms, 1);
    if (r && !g->margin && r->ub_free[k] > 0)
        return r->ub_free[k] + fmax(0, ub_share(n, sms, 0) - ub_share(UB_COMM_SMS, sms, 0));
    return fmax(ub_share(n, sms, g->margin), OVERLAP_SLOWDOWN);
}

double st_gpu_sm_count(const st_gpu_spec *gpu)
{
    return calib_of(gpu)->sms;
}

/* ---- The tile model ------------------------------------------------------------------------ */

static double waves(double tiles, double sms)
{
    return ceil(tiles / sms);
}

/* The rows of cuBLAS's smallest tile (TILES): a GEMM of fewer is a skinny one. */
static double smallest_tile_rows(void)
{
    double rows = TILES[0][0];
    for (size_t t = 1; t < N_TILES; t++)
        rows = TILES[t][0] < rows ? TILES[t][0] : rows;
    return rows;
}

/* The tile model's time x e_max x peak / SMs: FLOP-equivalents one SM runs, for the fastest
 * tile, over `count` GEMMs of one shape scheduled as one kernel's tiles (1: a plain GEMM; more:
 * a fused grouped GEMM, each GEMM's rows padded to whole tiles). Dividing by the SM's rate gives
 * the time.
 * Split-K: a plain GEMM of fewer rows than the smallest tile (decode's few tokens against a
 * layer's weights) whose output tiles leave SMs idle has its reduction cut into s slices run on
 * s times the tiles, s up to the SMs over the tiles, each slice paying the fill: cuBLASLt's
 * CUBLASLT_ALGO_CONFIG_SPLITK_NUM, CUTLASS's split-K and stream-K kernels (Osama et al.,
 * "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix Multiplication on the
 * GPU", PPoPP 2023). Without it one SM reduced a tile over the whole k: a 1 x 1280 x 8192 GEMM
 * came out at 13 us where the H200 ran it in 10.8 with its boundary (docs/models/step-ops.md,
 * "Kernel boundaries"). From the smallest tile's rows on (64), the shapes k0 and e_max were
 * fitted on (XLA's table and MAMF), the tiles run whole as before. The slices' partial sums, a
 * few rows wide, are left out of the bytes. */
static double tiled_work(double count, double m, double n, double k, double sms, int fp4)
{
    const double(*tiles)[2] = fp4 ? TILES_FP4 : TILES;
    size_t n_tiles = fp4 ? N_TILES_FP4 : N_TILES;
    double best = HUGE_VAL;
    int skinny = count == 1 && m < smallest_tile_rows();
    for (size_t t = 0; t < n_tiles; t++) {
        double bm = tiles[t][0], bn = tiles[t][1], out = count * ceil(m / bm) * ceil(n / bn);
        /* split-K's slices: as many as keep one wave, each slice shorter the more there are */
        double sp = skinny && out < sms ? floor(sms / out) : 1;
        double w = waves(out * sp, sms) * 2.0 * bm * bn * (ceil(k / sp) + TILE_FILL_K);
        if (w < best)
            best = w;
    }
    return best;
}

/* Whether GEMMs at prec run NVFP4 kernels on part c: its row has an FP4 measurement (a custom
 * GPU with a peak_fp4 but a row without one runs FP8's fraction and tiles at the FP4 peak). */
static int fp4_on(const calib *c, st_precision prec)
{
    return prec == ST_PREC_FP4 && c->fp4.frac > 0;
}

/* e_max such that the tile model gives the measured time at the MAMF shape:
 * tiled_work / (e_max peak / SMs) = 2 m n k / (frac peak). */
static double emax_of(const calib *c, st_precision prec)
{
    int fp4 = fp4_on(c, prec);
    const mamf *x = fp4 ? &c->fp4 : prec != ST_PREC_BF16 && c->fp8.frac > 0 ? &c->fp8 : &c->bf16;
    double e = x->frac * tiled_work(1, x->m, x->n, x->k, c->sms, fp4) * c->sms /
               (2.0 * x->m * x->n * x->k);
    return e < 1.0 ? e : 1.0;
}

double st_gemm_emax(const st_gpu_spec *gpu, st_precision prec)
{
    return emax_of(calib_of(gpu), prec);
}

double st_gemm_efficiency(const st_gpu_spec *gpu, st_precision prec, double m, double n, double k)
{
    if (!(m > 0 && n > 0 && k > 0))
        return 0.0;
    const calib *c = calib_of(gpu);
    return emax_of(c, prec) * 2.0 * m * n * k /
           (tiled_work(1, m, n, k, c->sms, fp4_on(c, prec)) * c->sms);
}

double st_gemm_grouped_efficiency(const st_gpu_spec *gpu, st_precision prec, double count, double m,
                                  double n, double k)
{
    if (!(count >= 1 && m > 0 && n > 0 && k > 0))
        return 0.0;
    const calib *c = calib_of(gpu);
    return emax_of(c, prec) * 2.0 * count * m * n * k /
           (tiled_work(count, m, n, k, c->sms, fp4_on(c, prec)) * c->sms);
}

/* WIDEN: a kernel that widens narrower weights to its MMA's input format in its main loop
 * (MXFP4 experts under BF16 MMAs: TensorRT-LLM's W4A16_MXFP4 path with OpenAI's Triton MoE
 * kernels on Hopper, vLLM's Marlin MXFP4 MoE on Hopper and Ampere, FlashInfer's
 * trtllm-gen MXFP4 x BF16 fused MoE on Blackwell) reaches this share of the tile model's rate.
 * Measured: FlashInfer's trtllm_fp4_block_scale_moe in MXFP4 x BF16 mode
 * (flashinfer-ai/flashinfer issue 2671, 2026-03-03, flashinfer_benchmark.py with CUDA events,
 * FlashInfer 0.6.0: the whole MoE, routing to the weighted sum) over gpt-oss-120b's experts
 * padded to 3072 (hidden and expert width 3072, 128 experts, top 4) on a Blackwell part
 * (trtllm-gen kernels run on SM100 alone; the catalog's b200 is read): 1.589 ms at 2,048 tokens,
 * 1.519 ms at 2,000, 292-298 TFLOP/s, where the tile model gives 0.55 ms; least squares on the
 * two points gives this share, the model's MoE layer (fused, MXFP4 weights) then 1.544 and 1.543
 * ms (unit.serve_ep holds both within 4%). The widening costs CUDA-core work per weight element and
 * per row tile, which a GEMM of native formats does not pay. No such measurement of Hopper's or
 * Ampere's kernels is published: they take Blackwell's share (docs/models/step-ops.md, "Widening
 * kernels"). */
#define WIDEN_EFF 0.26

double st_gemm_widen_efficiency(void)
{
    return WIDEN_EFF;
}

/* ---- Attention and memory ------------------------------------------------------------------ */

/* The sweep a kernel choice reads on GPU c. Ampere has one published sweep, FlashAttention-2,
 * for all three kernels; elsewhere FlashAttention-2 reads the H100's. */
static int attn_sweep(const calib *c, int kernel)
{
    if (kernel == ST_ATTN_CUDNN)
        return c->cudnn;
    if (kernel == ST_ATTN_FLASH2)
        return c->attn == ATTN_FA2_A100 ? ATTN_FA2_A100 : ATTN_FA2_H100;
    return c->attn;
}

double st_attn_efficiency(const st_gpu_spec *gpu, int backward, double seq_k, double blocks)
{
    return st_attn_efficiency_of(gpu, ST_ATTN_FLASH, backward, seq_k, blocks);
}

/* The sweep of cuDNN release `release` (100 x major + minor; 0: the newest) where the kernel's
 * sweep is `sweep`. */
static int release_sweep(int sweep, int release)
{
    if (release <= 0)
        return sweep;
    for (size_t i = 0; i < sizeof ATTN_OLDER / sizeof ATTN_OLDER[0]; i++)
        if (ATTN_OLDER[i].newest == sweep && release <= ATTN_OLDER[i].through)
            return ATTN_OLDER[i].older;
    return sweep;
}

double st_attn_efficiency_of(const st_gpu_spec *gpu, int kernel, int backward, double seq_k,
                             double blocks)
{
    return st_attn_efficiency_at(gpu, kernel, 0, backward, seq_k, blocks);
}

double st_attn_efficiency_at(const st_gpu_spec *gpu, int kernel, int release, int backward,
                             double seq_k, double blocks)
{
    const calib *c = calib_of(gpu);
    const attn_fit *a = &ATTN[release_sweep(attn_sweep(c, kernel), release)];
    if (!(seq_k > 0 && blocks > 0))
        return 0.0;
    /* A GPU measured with another part's sweep keeps that sweep's ratio to the GEMM e_max. */
    double scale = c->bf16.frac / a->ref_emax_frac;
    double top = backward ? a->bwd_a : a->fwd_a;
    double s0 = backward ? a->bwd_s0 : a->fwd_s0;
    /* A partial last wave of query blocks leaves SMs idle, as for GEMM tiles; a fit that
     * contains the benchmark's own fill has it divided out. */
    double fill = blocks / (waves(blocks, c->sms) * c->sms);
    double bench = a->bench_blocks > 0
                       ? a->bench_blocks / (waves(a->bench_blocks, a->ref_sms) * a->ref_sms)
                       : 1.0;
    return scale * top * seq_k / (seq_k + s0) * fill / bench;
}

/* The head dim the sweeps were measured at (every row of ATTN). */
#define ATTN_SWEEP_HEAD_DIM 128.0

double st_attn_head_dim_share(const st_gpu_spec *gpu, int kernel, int release, int backward,
                              double head_dim)
{
    if (!(head_dim > 0) || head_dim >= ATTN_SWEEP_HEAD_DIM)
        return 1.0;
    const attn_fit *a = &ATTN[release_sweep(attn_sweep(calib_of(gpu), kernel), release)];
    double beta = backward ? a->bwd_beta : a->fwd_beta;
    /* per score: 4 d FLOPs of matmul and beta head dims' worth of softmax, against 128's */
    return head_dim * (ATTN_SWEEP_HEAD_DIM + beta) / (ATTN_SWEEP_HEAD_DIM * (head_dim + beta));
}

double st_hbm_efficiency(const st_gpu_spec *gpu)
{
    return calib_of(gpu)->hbm_frac;
}

double st_decode_attn_efficiency(const st_gpu_spec *gpu)
{
    const calib *c = calib_of(gpu);
    return c->decode_frac > 0 ? c->decode_frac : c->hbm_frac;
}

/* A kernel's cost beyond its roofline where kernels run back to back in a stream: the drain of
 * one, the gap and the ramp of the next. The H200 run (tools/measure/runs/h200-2026-12-04,
 * kernels.csv, `latency-gemv`: GEMVs of 1 MiB to 512 MiB of BF16 weights at 1 and 16 rows,
 * replayed from one CUDA graph, operands rotated past the L2) took each call its bytes at the
 * part's achievable bandwidth (0.865 of 4.8 TB/s, above) and a median 4.46 us more over the 20
 * rows (-0.7 to 11.8 us). A kernel timed alone carries a launch besides (5.75 us in XLA's H100
 * table, docs/models/step-ops.md); the efficiency curves here were fitted with it taken out, so
 * this cost is added to each kernel once. The one measurement, taken for every part: no other
 * GPU's back-to-back small kernels were measured. docs/models/step-ops.md, "Kernel boundaries". */
#define KERNEL_BOUNDARY_S 4.46e-6

double st_kernel_boundary_s(const st_gpu_spec *gpu)
{
    (void)gpu;
    return KERNEL_BOUNDARY_S;
}

/* DeepSeek's FlashMLA decode kernel (deepseek-ai/FlashMLA README, "Performance Update
 * (2025.04.22)"): up to 660 TFLOPS in its compute-bound configurations on an H800 SXM5, whose
 * dense BF16 peak is the H100 SXM's 989.4 TFLOPS (the same die; NVIDIA H100 datasheet); its
 * memory-bound figure, 3000 GB/s, is within 1% of the H100's achievable HBM share above (2.97 of
 * 3.35 TB/s). The one published compute figure of an MLA decode kernel, taken for every part, as
 * a share of the peak of the MMAs it runs on (st_mla_decode_mma). */
#define MLA_DECODE_FRAC (660.0 / 989.4)

double st_mla_decode_efficiency(const st_gpu_spec *gpu)
{
    (void)gpu;
    return MLA_DECODE_FRAC;
}

/* Which MMAs an MLA decode kernel scores its queries against a cache of kv_bytes bytes an element
 * with. FlashMLA on Hopper runs BF16 MMAs whatever the cache (aiconfigurator's TensorRT-LLM
 * 1.3.0rc20 table for the H200: at most 755 TFLOP/s with an FP8 cache, 662 with BF16, under the
 * dense BF16 peak). TensorRT-LLM's trtllm-gen kernel on Blackwell takes an FP8 cache into FP8
 * MMAs: the B200 table reaches 2,925 TFLOP/s with one (batch 512, 32,768 keys), past the dense
 * BF16 peak of 2,250, and 1,460 with a BF16 cache (ai-dynamo/aiconfigurator, aic-core/src/
 * aiconfigurator_core/systems/data/b200_sxm/mla/trtllm/1.3.0rc20/generation_mla_perf.parquet,
 * repository head 095f58a51; 128 heads, kv_lora_rank 512, rope 64). */
st_precision st_mla_decode_mma(const st_gpu_spec *gpu, double kv_bytes)
{
    return kv_bytes <= 1.0 && st_gpu_is_blackwell(gpu) ? ST_PREC_FP8 : ST_PREC_BF16;
}
