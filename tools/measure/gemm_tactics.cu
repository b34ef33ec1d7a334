// What profiling a GEMM's kernel choice gains over cuBLASLt's heuristic first choice, over the
// transformer shapes of measure_kernels.py's grid (docs/models/step-ops.md, "Measured on an
// H200"). PyTorch and Transformer Engine run the heuristic's first algorithm; TensorRT-LLM times
// its candidate tactics when an engine is built and keeps the fastest. For each shape and
// precision (BF16; FP8 e4m3 with BF16 output) this asks cuBLASLt for its top candidates, times
// each from a CUDA graph and writes one row: the first candidate's and the best one's fraction
// of the dense peak.
//
// Build and run on the device machine from the repository root:
//   nvcc -O2 -std=c++17 -arch=sm_90 tools/measure/gemm_tactics.cu -lcublasLt -o /tmp/gemm_tactics
//   /tmp/gemm_tactics "$OUT/tactics.csv" [candidates]
#include "lt_common.cuh"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

// The grid of measure_kernels.py's gemm_shapes(): (m, n, k) with C = A (m x k) B^T (n x k).
static std::vector<std::tuple<long, long, long>> shapes()
{
    std::set<std::tuple<long, long, long>> s;
    for (long h : {4096L, 8192L, 12288L, 16384L})
        for (long m : {2048L, 4096L, 8192L, 16384L}) {
            long nk[4][2] = {{3 * h / 8, h}, {h, h / 8}, {4 * h / 8, h}, {h, 4 * h / 8}};
            for (auto &p : nk) {
                s.insert({m, p[0], p[1]});
                s.insert({p[0], p[1], m});
            }
        }
    for (long q : {1024L, 2048L, 4096L, 6144L, 8192L, 12288L, 16384L})
        s.insert({q, q, q});
    return std::vector<std::tuple<long, long, long>>(s.begin(), s.end());
}

struct ctx {
    cublasLtHandle_t lt;
    cudaStream_t st;
    void *ws;
    size_t ws_bytes;
};

// Seconds per call of one algorithm: a graph of `reps` calls, replayed three times, the median.
static double time_algo(ctx &c, cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t a,
                        cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t d, const void *pa,
                        const void *pb, void *pd, const cublasLtMatmulAlgo_t *algo, int reps)
{
    float one = 1.0f, zero = 0.0f;
    if (cublasLtMatmul(c.lt, op, &one, pa, a, pb, b, &zero, pd, d, pd, d, algo, c.ws, c.ws_bytes,
                       c.st) != CUBLAS_STATUS_SUCCESS)
        return -1;
    CK(cudaStreamSynchronize(c.st));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(c.st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < reps; i++)
        cublasLtMatmul(c.lt, op, &one, pa, a, pb, b, &zero, pd, d, pd, d, algo, c.ws, c.ws_bytes,
                       c.st);
    CK(cudaStreamEndCapture(c.st, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, c.st));
    CK(cudaStreamSynchronize(c.st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    double t[3];
    for (int r = 0; r < 3; r++) {
        CK(cudaEventRecord(e0, c.st));
        CK(cudaGraphLaunch(ge, c.st));
        CK(cudaEventRecord(e1, c.st));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms * 1e-3 / reps;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    std::sort(t, t + 3);
    return t[1];
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tactics.csv";
    int want = argc > 2 ? atoi(argv[2]) : 8;
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return 1;
    }
    ctx c;
    CL(cublasLtCreate(&c.lt));
    CK(cudaStreamCreate(&c.st));
    // what Transformer Engine gives cuBLASLt on Hopper (get_cublas_workspace_size_bytes)
    c.ws_bytes = 32u << 20;
    CK(cudaMalloc(&c.ws, c.ws_bytes));
    lt_operands ops = lt_operands_new(c.st);
    __nv_bfloat16 *a16 = ops.a16, *b16 = ops.b16, *d16 = ops.d16;
    __nv_fp8_e4m3 *a8 = ops.a8, *b8 = ops.b8;
    fprintf(out, "prec,m,n,k,candidates,first_frac,best_frac,best_rank\n");
    cublasLtMatmulPreference_t pref;
    CL(cublasLtMatmulPreferenceCreate(&pref));
    CL(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                            &c.ws_bytes, sizeof c.ws_bytes));
    std::vector<cublasLtMatmulHeuristicResult_t> res(want);
    for (int fp8 = 0; fp8 < 2; fp8++) {
        for (auto [m, n, k] : shapes()) {
            lt_gemm g = lt_tn(m, n, k, fp8);
            cublasLtMatmulDesc_t op = g.op;
            cublasLtMatrixLayout_t la = g.a, lb = g.b, ld = g.d;
            int got = 0;
            cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(c.lt, op, la, lb, ld, ld, pref, want,
                                                               res.data(), &got);
            double first = -1, best = -1;
            int rank = -1;
            double flops = 2.0 * m * n * k, peak = fp8 ? PEAK_FP8 : PEAK_BF16;
            if (hs == CUBLAS_STATUS_SUCCESS) {
                int reps = 0;
                for (int i = 0; i < got; i++) {
                    if (res[i].state != CUBLAS_STATUS_SUCCESS)
                        continue;
                    const void *pa = fp8 ? (const void *)a8 : (const void *)a16;
                    const void *pb = fp8 ? (const void *)b8 : (const void *)b16;
                    if (!reps) { // about 4 ms of calls a graph, from a first rough timing
                        double t1 = time_algo(c, op, la, lb, ld, pa, pb, d16, &res[i].algo, 1);
                        reps = t1 > 0 ? std::max(1, std::min(50, (int)(4e-3 / t1))) : 1;
                    }
                    double t = time_algo(c, op, la, lb, ld, pa, pb, d16, &res[i].algo, reps);
                    if (t <= 0)
                        continue;
                    double f = flops / t / peak;
                    if (first < 0)
                        first = f;
                    if (f > best)
                        best = f, rank = i;
                }
            }
            fprintf(out, "%s,%ld,%ld,%ld,%d,%.4f,%.4f,%d\n", fp8 ? "fp8" : "bf16", m, n, k, got,
                    first, best, rank);
            fflush(out);
            lt_free(g);
        }
    }
    fclose(out);
    printf("wrote %s\n", path);
    return 0;
}
