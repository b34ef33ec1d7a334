// What the CUDA measurement programs beside measure_kernels.py share: error checks, the fill of
// random operands and cuBLASLt's "TN" GEMM descriptor, so that gemm_tactics.cu and overlap.cu
// time the same call the same way.
#pragma once
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CL(x)                                                                                      \
    do {                                                                                           \
        cublasStatus_t s_ = (x);                                                                   \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: cublas status %d\n", __FILE__, __LINE__, (int)s_);             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const double PEAK_BF16 = 989.4e12, PEAK_FP8 = 1978.9e12; // H100/H200 SXM datasheet, dense

// Uniform values in [-1, 1) from a hash of the index, in T: random, never zero-filled.
template <typename T> __global__ void fill(T *x, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
        x[i] = T((float)(h & 0xffff) / 32768.0f - 1.0f);
    }
}

// The operands every shape is cut from: random BF16 and FP8 matrices of 16384^2 elements (the
// largest shape's), filled on stream st.
struct lt_operands {
    __nv_bfloat16 *a16, *b16, *d16;
    __nv_fp8_e4m3 *a8, *b8;
};

static lt_operands lt_operands_new(cudaStream_t st)
{
    lt_operands o;
    size_t big = (size_t)16384 * 16384;
    CK(cudaMalloc(&o.a16, big * 2));
    CK(cudaMalloc(&o.b16, big * 2));
    CK(cudaMalloc(&o.d16, big * 2));
    CK(cudaMalloc(&o.a8, big));
    CK(cudaMalloc(&o.b8, big));
    fill<<<1024, 256, 0, st>>>(o.a16, big, 1u);
    fill<<<1024, 256, 0, st>>>(o.b16, big, 2u);
    fill<<<1024, 256, 0, st>>>(o.a8, big, 3u);
    fill<<<1024, 256, 0, st>>>(o.b8, big, 4u);
    CK(cudaStreamSynchronize(st));
    return o;
}

// One GEMM's cuBLASLt description. Column-major "TN", the layout FP8 requires on Hopper:
// D (n x m, ld n) = W^T (W stored k x n, ld k) x X (stored k x m, ld k), i.e. row-major
// D[m][n] = X[m][k] W[n][k]^T, BF16 output, FP32 accumulation.
struct lt_gemm {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t a, b, d;
};

static lt_gemm lt_tn(long m, long n, long k, bool fp8)
{
    lt_gemm g;
    cudaDataType_t in = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    CL(cublasLtMatmulDescCreate(&g.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    CL(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CL(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    CL(cublasLtMatrixLayoutCreate(&g.a, in, k, n, k));
    CL(cublasLtMatrixLayoutCreate(&g.b, in, k, m, k));
    CL(cublasLtMatrixLayoutCreate(&g.d, CUDA_R_16BF, n, m, n));
    return g;
}

static void lt_free(lt_gemm &g)
{
    cublasLtMatrixLayoutDestroy(g.a);
    cublasLtMatrixLayoutDestroy(g.b);
    cublasLtMatrixLayoutDestroy(g.d);
    cublasLtMatmulDescDestroy(g.op);
}
