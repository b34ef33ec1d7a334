/* `strata calibrate`'s fit: the cluster's own efficiency terms (models/config/config.h
 * st_calib_cfg) from what its owner measured on it: nccl-tests sweeps fit the NVLink and network
 * goodputs and a per-collective latency, GEMM timings the Tensor Core throughput per precision,
 * and step times of the scenario's jobs what is left (the throughput of a precision no GEMM
 * measured, else a per-step overhead). Each factor is fitted by bisection so that the median of
 * predicted over measured time is 1 over the rows it governs (docs/models/calibration.md, "Your
 * own cluster"); a factor the measurements put outside st_lim_calib is refused. */
#ifndef ST_PLANNER_CALIBRATE_H
#define ST_PLANNER_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/collective.h"
#include "scenarios/calib_in.h"
#include "sim/err.h"

/* One measured step: workload w of the scenario took seconds. */
typedef struct st_cal_step {
    const st_workload_cfg *w;
    double seconds;
    const st_cluster_cfg *c; /* the cluster it ran on; NULL: the input's (one GPU type) */
} st_cal_step;

typedef struct st_cal_input {
    const st_cluster_cfg *c; /* the scenario's cluster, its calibration ignored */
    const st_cal_nccl *logs;
    size_t n_logs;
    const st_cal_gemm *gemm;
    size_t n_gemm;
    const char *gemm_file; /* where the GEMM rows come from (for the sources) */
    const st_cal_step *steps;
    size_t n_steps;
} st_cal_input;

/* What one group of measurements fitted, and its median |error| before and after. */
typedef enum st_cal_term {
    ST_CAL_NVLINK,
    ST_CAL_NETWORK,
    ST_CAL_LATENCY,
    ST_CAL_COMPUTE_BF16,
    ST_CAL_COMPUTE_FP8,
    ST_CAL_OVERHEAD,
    ST_CAL__TERMS
} st_cal_term;

typedef struct st_cal_fit {
    int fitted;                   /* some measurement fitted it */
    int rows;                     /* the measurements it was fitted on */
    double err_before, err_after; /* median |predicted / measured - 1| over them */
    const char *from;             /* "nccl-tests", "gemm", "steps" */
} st_cal_fit;

/* The step measurements' predictions: before the calibration and after, with the residual of
 * each left out of its own fit (measured over predicted). */
typedef struct st_cal_step_fit {
    double before_s, after_s, loo_ratio;
} st_cal_step_fit;

typedef struct st_cal_result {
    st_calib_cfg cal;
    st_cal_fit fit[ST_CAL__TERMS];
    st_cal_step_fit *steps; /* [n_steps], malloc'd */
} st_cal_result;

/* The term's key in cluster.calibration ("nvlink", "compute_bf16", ...). */
const char *st_cal_term_name(st_cal_term t);

/* Fit in's measurements on its cluster into *out (release with st_cal_release). Returns 0, or
 * ST_EINVAL with what is implausible in err: a factor outside st_lim_calib, a step or a
 * collective no factor in it can bring to its measurement, a GEMM timed faster than the GPU's
 * dense peak at its precision (at the row's field). */
int st_calibrate(const st_cal_input *in, st_cal_result *out, st_err *err);

void st_cal_release(st_cal_result *r);

#endif
