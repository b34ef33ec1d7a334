/* What `strata calibrate` reads besides the scenario: the output of nccl-tests as the tool prints
 * it (NVIDIA/nccl-tests, all_reduce_perf and its siblings) and GEMM timings as CSV. Each reader
 * refuses a malformed file with FILE:LINE:COL, what it expected and what it found. */
#ifndef ST_SCENARIOS_CALIB_IN_H
#define ST_SCENARIOS_CALIB_IN_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/collective.h"
#include "sim/err.h"

/* One nccl-tests run: its collective, ranks (packed from GPU 0, as mpirun places them), the
 * nodes they spanned (the distinct hosts of its "#  Rank" lines), and its rows: the
 * out-of-place size and time. */
typedef struct st_cal_nccl {
    const char *file;
    st_coll_op op;
    int64_t ranks, nodes;
    int64_t most_per_host; /* the most ranks one of its hosts runs */
    size_t n;
    double *bytes, *time_s;
} st_cal_nccl;

/* Read an nccl-tests log at path. op_name: the collective as nccl-tests names its binary
 * ("all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast"), or NULL to take it
 * from the binary's name in the file or the file's name; an op_name that contradicts what the
 * file or its name says is refused, naming both. Its rows' fields are as its column
 * header names them (13 without one). Returns 0, or an error in err located in the file (a NUL
 * byte, a row that is not one, a count below 0 or past its size, a type nccl-tests does not print,
 * no rows, no "#  Rank" lines, a collective not named). */
int st_cal_nccl_read(const char *path, const char *op_name, st_cal_nccl *out, st_err *err);
void st_cal_nccl_free(st_cal_nccl *l);

/* The collective of the OP a user names before a log, as nccl-tests names its binary
 * (all_reduce, or all_reduce_perf), into *op: 1, or 0 when s names none. */
int st_cal_nccl_op(const char *s, st_coll_op *op);

/* The name nccl-tests gives op's binary, less its _perf ("all_reduce"). */
const char *st_cal_nccl_binary(st_coll_op op);

/* One timed GEMM: m x n reduced over k in a precision, its time per call. */
typedef struct st_cal_gemm {
    st_precision prec;
    double m, n, k, time_s;
    st_loc at; /* its time_us or tflops field in the file, for a check against the GPU's peak */
} st_cal_gemm;

/* Read GEMM timings at path: a CSV whose header names m, n, k, precision (bf16 or fp8) and
 * time_us (microseconds per call) or tflops (achieved TFLOP/s, 2mnk / time), in any order,
 * fields split as the job traces split them (RFC 4180 quotes allowed: "m","n",...); a row that
 * gives both time_us and tflops must have them agree within 1% (time_us is then read), else it
 * is refused at its tflops field; each row as many fields as the header and ended by its line end
 * (a last row without one is the file cut off while written, its last field perhaps cut short: 7
 * for 7211.130). Appends to *rows (*n of them, malloc'd; their locations borrow path). Returns 0 or
 * a located error. */
int st_cal_gemm_read(const char *path, st_cal_gemm **rows, size_t *n, st_err *err);

#endif
