// Compute beside communication, measured on one GPU (docs/models/step-ops.md, "Compute beside
// communication"). A collective that overlaps compute runs its kernel on SMs of its own (NCCL:
// one block per channel, 16-32 on an 8-GPU node; Transformer Engine's userbuffers: 16 SMs) and
// moves its data through the same HBM as the GEMMs. This program emulates that kernel: `blocks`
// blocks, each alone on its SM or small enough to share it with a GEMM's tile, copying through
// HBM at a paced rate (or only holding the SMs), and times transformer GEMMs (cuBLASLt's first
// heuristic choice, as PyTorch and Transformer Engine call it) alone and beside it. It also
// times the copy alone and beside the GEMMs: the reverse slowdown, communication slowed by
// compute. The NVLink and network legs of a real collective are not on one GPU: what is measured
// is the SMs and HBM a collective takes from the GEMMs, not the fabric.
//
// Build and run on the device machine from the repository root:
//   nvcc -O2 -std=c++17 -arch=sm_90 tools/measure/overlap.cu -lcublasLt -o /tmp/overlap
//   /tmp/overlap "$OUT/overlap.csv" [grid|curve|clustered]
#include "lt_common.cuh"

#include <algorithm>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

struct comm_out {
    unsigned long long bytes, t0, t1;
};

__device__ unsigned long long gtimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The collective's stand-in: one block per SM it takes. Each block copies its slice of src to dst
// in 16-byte words, `rate` bytes copied per ns (0: as fast as it can; < 0: no copy, it only holds
// its SM) until the host sets *stop. Thread 0 decides each round, so the block never diverges.
__global__ void comm(const int4 *src, int4 *dst, size_t words, double rate, volatile int *stop,
                     volatile int *started, comm_out *out)
{
    extern __shared__ char hold[]; // sized by the launch: whether a GEMM tile fits beside it
    __shared__ int act;            // 0 copy, 1 wait, 2 quit
    size_t per = words / gridDim.x;
    const int4 *s = src + blockIdx.x * per;
    int4 *d = dst + blockIdx.x * per;
    unsigned long long t0 = gtimer(), moved = 0;
    if (threadIdx.x == 0) {
        hold[0] = 0;
        started[blockIdx.x] = 1;
        __threadfence_system();
    }
    size_t off = 0, step = (size_t)blockDim.x * 4;
    for (unsigned it = 0;; it++) {
        if (threadIdx.x == 0) {
            int a = 0;
            if ((it & 63) == 0 && *stop)
                a = 2;
            else if (rate < 0 || (rate > 0 && (double)moved > (double)(gtimer() - t0) * rate))
                a = 1;
            act = a;
        }
        __syncthreads();
        int a = act;
        __syncthreads();
        if (a == 2)
            break;
        if (a == 1) {
            __nanosleep(256);
            continue;
        }
        for (int j = 0; j < 4; j++) {
            size_t i = off + (size_t)j * blockDim.x + threadIdx.x;
            if (i < per)
                d[i] = s[i];
        }
        off = off + step >= per ? 0 : off + step;
        moved += step * sizeof(int4);
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = {moved, t0, gtimer()};
}

struct comm_cfg {
    int blocks;
    int smem_kb; // dynamic shared memory per block: 200 keeps a GEMM tile off its SM
    double tbs;  // HBM traffic, TB/s (read plus write); 0 as fast as it can, < 0 hold only
    int margin;  // 1: the GEMM is told to use the SMs left (TE's set_sm_margin)
    int cluster; // blocks launched as thread-block clusters of this size (1: none)
};

struct bench {
    cublasLtHandle_t lt;
    cudaStream_t g, c;
    void *ws;
    size_t ws_bytes;
    int sms;
    int4 *src, *dst;
    size_t words;
    int *stop, *started, *d_stop, *d_started;
    comm_out *out;
};

static void comm_start(bench &b, const comm_cfg &k)
{
    *b.stop = 0;
    for (int i = 0; i < k.blocks; i++)
        b.started[i] = 0;
    double rate = k.tbs < 0 ? -1 : k.tbs * 1e12 / 2 / 1e9 / k.blocks; // bytes copied per ns
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute at[1];
    lc.gridDim = dim3(k.blocks), lc.blockDim = dim3(512);
    lc.dynamicSmemBytes = (size_t)k.smem_kb * 1024, lc.stream = b.c;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = k.cluster > 1 ? k.cluster : 1;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    lc.attrs = at, lc.numAttrs = 1;
    CK(cudaLaunchKernelEx(&lc, comm, (const int4 *)b.src, b.dst, b.words, rate, b.d_stop,
                          b.d_started, b.out));
    for (int i = 0; i < k.blocks; i++)
        while (!((volatile int *)b.started)[i])
            ;
}

// HBM traffic of the copy over its life, TB/s (read plus write).
static double comm_stop(bench &b, const comm_cfg &k)
{
    *(volatile int *)b.stop = 1;
    CK(cudaStreamSynchronize(b.c));
    std::vector<comm_out> o(k.blocks);
    CK(cudaMemcpy(o.data(), b.out, sizeof(comm_out) * k.blocks, cudaMemcpyDeviceToHost));
    double bytes = 0, t0 = 1e300, t1 = 0;
    for (auto &x : o)
        bytes += x.bytes, t0 = std::min(t0, (double)x.t0), t1 = std::max(t1, (double)x.t1);
    return 2 * bytes / (t1 - t0) / 1e3;
}

// The heuristic's first algorithm, which cublasLtMatmul runs when given none: its tile,
// cluster shape and stages ids (cublasLt.h's enums).
static std::string algo_name(bench &b, lt_gemm &g)
{
    cublasLtMatmulPreference_t pref;
    CL(cublasLtMatmulPreferenceCreate(&pref));
    CL(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                            &b.ws_bytes, sizeof b.ws_bytes));
    cublasLtMatmulHeuristicResult_t r;
    int got = 0, tile = -1, cluster = -1, stages = -1;
    if (cublasLtMatmulAlgoGetHeuristic(b.lt, g.op, g.a, g.b, g.d, g.d, pref, 1, &r, &got) ==
            CUBLAS_STATUS_SUCCESS &&
        got > 0) {
        size_t w;
        cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile,
                                             sizeof tile, &w);
        cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID,
                                             &cluster, sizeof cluster, &w);
        cublasLtMatmulAlgoConfigGetAttribute(&r.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages,
                                             sizeof stages, &w);
    }
    cublasLtMatmulPreferenceDestroy(pref);
    char s[96];
    snprintf(s, sizeof s, "tile %d cluster %d stages %d", tile, cluster, stages);
    return s;
}

// A graph of `reps` calls of one GEMM on stream g.
static cudaGraphExec_t gemm_graph(bench &b, lt_gemm &g, const void *pa, const void *pb, void *pd,
                                  int reps)
{
    float one = 1.0f, zero = 0.0f;
    cudaGraph_t gr;
    cudaGraphExec_t ge;
    CL(cublasLtMatmul(b.lt, g.op, &one, pa, g.a, pb, g.b, &zero, pd, g.d, pd, g.d, nullptr, b.ws,
                      b.ws_bytes, b.g));
    CK(cudaStreamSynchronize(b.g));
    CK(cudaStreamBeginCapture(b.g, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < reps; i++)
        cublasLtMatmul(b.lt, g.op, &one, pa, g.a, pb, g.b, &zero, pd, g.d, pd, g.d, nullptr, b.ws,
                       b.ws_bytes, b.g);
    CK(cudaStreamEndCapture(b.g, &gr));
    CK(cudaGraphInstantiate(&ge, gr, 0));
    CK(cudaGraphDestroy(gr));
    return ge;
}

// Seconds per GEMM: `launches` replays of the graph, timed by events on stream g.
static double replay(bench &b, cudaGraphExec_t ge, int reps, int launches)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, b.g));
    for (int i = 0; i < launches; i++)
        CK(cudaGraphLaunch(ge, b.g));
    CK(cudaEventRecord(e1, b.g));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return ms * 1e-3 / reps / launches;
}

static double median3(bench &b, cudaGraphExec_t ge, int reps)
{
    double t[3];
    for (double &x : t)
        x = replay(b, ge, reps, 1);
    std::sort(t, t + 3);
    return t[1];
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "overlap.csv";
    const char *mode = argc > 2 ? argv[2] : "grid";
    if (strcmp(mode, "grid") && strcmp(mode, "curve") && strcmp(mode, "clustered")) {
        fprintf(stderr, "overlap: unknown mode '%s' (grid, curve or clustered)\n", mode);
        return 2;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    bench b;
    CL(cublasLtCreate(&b.lt));
    int lo, hi;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CK(cudaStreamCreateWithFlags(&b.g, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&b.c, cudaStreamNonBlocking, hi)); // NCCL's streams: high
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    b.sms = prop.multiProcessorCount;
    b.ws_bytes = 32u << 20; // Transformer Engine's cuBLAS workspace on Hopper
    CK(cudaMalloc(&b.ws, b.ws_bytes));
    b.words = ((size_t)2 << 30) / sizeof(int4); // 2 GiB each way: far beyond L2
    CK(cudaMalloc(&b.src, b.words * sizeof(int4)));
    CK(cudaMalloc(&b.dst, b.words * sizeof(int4)));
    CK(cudaMemset(b.src, 1, b.words * sizeof(int4)));
    CK(cudaHostAlloc(&b.stop, sizeof(int), cudaHostAllocMapped));
    CK(cudaHostAlloc(&b.started, 256 * sizeof(int), cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer(&b.d_stop, b.stop, 0));
    CK(cudaHostGetDevicePointer(&b.d_started, b.started, 0));
    CK(cudaMalloc(&b.out, 256 * sizeof(comm_out)));
    CK(cudaFuncSetAttribute(comm, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));

    lt_operands ops = lt_operands_new(b.g);
    __nv_bfloat16 *a16 = ops.a16, *b16 = ops.b16, *d16 = ops.d16;
    __nv_fp8_e4m3 *a8 = ops.a8, *b8 = ops.b8;

    // Per-GPU GEMMs, 8192 tokens: Llama 3 70B at TP 8 (QKV, attention projection, FC1 with its
    // SwiGLU gate, FC2), Llama 3 8B at TP 1, and 8192 cubed.
    const long shapes[][3] = {{8192, 1280, 8192},  {8192, 8192, 1024},  {8192, 7168, 8192},
                              {8192, 8192, 3584},  {8192, 6144, 4096},  {8192, 4096, 4096},
                              {8192, 28672, 4096}, {8192, 4096, 14336}, {8192, 8192, 8192}};
    // "grid" (the default): 16 and 32 blocks (NCCL's channels on an 8-GPU node), alone on their
    // SMs or small, holding the SMs only or copying at 0.5-2 TB/s. "curve": the slowdown against
    // the SMs held, and with the blocks launched in clusters (kept within a GPC).
    std::vector<comm_cfg> cfgs;
    if (!strcmp(mode, "clustered")) {
        // As the libraries launch them on Hopper: NCCL's kernels in clusters of 4 (its
        // cgaClusterSize default, src/init.cc), TE's userbuffers kernels on 16 SMs in clusters
        // of 2 with the GEMM told to leave them (comm_cga_size 2, num_comm_sm 16, set_sm_margin).
        for (int blocks : {16, 32})
            for (double tbs : {-1.0, 0.5, 0.0})
                cfgs.push_back({blocks, 200, tbs, 0, 4});
        for (int margin : {0, 1})
            for (double tbs : {-1.0, 0.0})
                cfgs.push_back({16, 200, tbs, margin, 2});
    } else if (!strcmp(mode, "curve")) {
        for (int blocks : {1, 2, 4, 8, 12, 16, 24, 32, 48, 64})
            cfgs.push_back({blocks, 200, -1.0, 0, 1});
        for (int cl : {2, 4, 8})
            cfgs.push_back({16, 200, -1.0, 0, cl});
        cfgs.push_back({16, 200, -1.0, 1, 1});
        cfgs.push_back({16, 200, -1.0, 1, 2});
    } else {
        for (int blocks : {16, 32})
            for (int smem : {200, 8})
                for (double tbs : {-1.0, 0.5, 1.0, 2.0, 0.0})
                    cfgs.push_back({blocks, smem, tbs, 0, 1});
        for (int blocks : {16, 32})
            cfgs.push_back({blocks, 200, 1.0, 1, 1});
    }

    // The copy alone, each configuration: what the collective's kernel moves with the GPU to
    // itself.
    std::vector<double> alone_tbs(cfgs.size());
    for (size_t i = 0; i < cfgs.size(); i++) {
        comm_start(b, cfgs[i]);
        usleep(30000);
        alone_tbs[i] = comm_stop(b, cfgs[i]);
    }
    fprintf(f, "prec,m,n,k,comm_blocks,comm_smem_kb,target_tbs,sm_margin,alone_us,with_us,"
               "slowdown,comm_alone_tbs,comm_with_tbs,comm_cluster\n");
    for (int fp8 = 0; fp8 < 2; fp8++)
        for (auto &s : shapes) {
            long m = s[0], n = s[1], k = s[2];
            lt_gemm g = lt_tn(m, n, k, fp8);
            const void *pa = fp8 ? (const void *)a8 : (const void *)a16;
            const void *pb = fp8 ? (const void *)b8 : (const void *)b16;
            cudaGraphExec_t g1 = gemm_graph(b, g, pa, pb, d16, 1);
            double t1 = median3(b, g1, 1);
            CK(cudaGraphExecDestroy(g1));
            int reps = std::max(1, std::min(200, (int)(4e-3 / t1))); // about 4 ms a graph
            cudaGraphExec_t ge = gemm_graph(b, g, pa, pb, d16, reps);
            double alone = median3(b, ge, reps);
            int launches = std::max(1, (int)(20e-3 / (alone * reps))); // about 20 ms beside
            int margin_for = -1;
            cudaGraphExec_t gm = nullptr;
            double alone_m = 0;
            for (size_t i = 0; i < cfgs.size(); i++) {
                const comm_cfg &c = cfgs[i];
                cudaGraphExec_t run = ge;
                double base = alone;
                if (c.margin) {
                    if (margin_for != c.blocks) {
                        if (gm)
                            CK(cudaGraphExecDestroy(gm));
                        int target = b.sms - c.blocks;
                        CL(cublasLtMatmulDescSetAttribute(
                            g.op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &target, sizeof target));
                        gm = gemm_graph(b, g, pa, pb, d16, reps);
                        alone_m = median3(b, gm, reps);
                        margin_for = c.blocks;
                    }
                    run = gm, base = alone_m;
                }
                comm_start(b, c);
                double with = replay(b, run, reps, launches);
                double comm_tbs = comm_stop(b, c);
                // the slowdown against the GEMM alone on the whole GPU, as the step model
                // charges it
                fprintf(f, "%s,%ld,%ld,%ld,%d,%d,%.2f,%d,%.2f,%.2f,%.4f,%.3f,%.3f,%d\n",
                        fp8 ? "fp8" : "bf16", m, n, k, c.blocks, c.smem_kb, c.tbs, c.margin,
                        base * 1e6, with * 1e6, with / alone - 1, alone_tbs[i], comm_tbs,
                        c.cluster);
            }
            fflush(f);
            if (gm)
                CK(cudaGraphExecDestroy(gm));
            CK(cudaGraphExecDestroy(ge));
            int all = 0; // the whole GPU again
            CL(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &all,
                                              sizeof all));
            double again = median3(b, ge = gemm_graph(b, g, pa, pb, d16, reps), reps);
            CK(cudaGraphExecDestroy(ge));
            printf("%s %ldx%ldx%ld alone %.1f us (again %.1f), %.3f of peak, %s\n",
                   fp8 ? "fp8" : "bf16", m, n, k, alone * 1e6, again * 1e6,
                   2.0 * m * n * k / alone / (fp8 ? PEAK_FP8 : PEAK_BF16), algo_name(b, g).c_str());
            lt_free(g);
        }
    fclose(f);
    printf("wrote %s\n", path);
    return 0;
}
