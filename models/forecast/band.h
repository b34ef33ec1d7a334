/* The error band of the step model's figures: how far its step time has been from published
 * runs like the job, as the spread of those runs' residuals (docs/models/error-band.md). The
 * residuals are `strata validate`'s on every public step set, kept in a generated table
 * (models/forecast/band_rows.c, tools/band_rows.sh; CI checks it matches the model). */
#ifndef ST_MODELS_FORECAST_BAND_H
#define ST_MODELS_FORECAST_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/silicon/gpu.h"

/* The share of comparable published runs the band is built to hold: the 80% of the issue that
 * asked for it, the level planners' P10-P90 ranges use. */
#define ST_BAND_LEVEL 0.8

/* What makes two runs comparable: the GPU's architecture, dense or mixture-of-experts, the
 * linear layers' precision, and the GPU count. */
typedef struct st_band_key {
    st_gpu_arch arch;
    int moe;
    st_precision prec;
    int64_t gpus;
} st_band_key;

/* One published run's residual: its measured step time over the one predicted (from a rate
 * metric: predicted rate over measured). */
typedef struct st_band_row {
    const char *name, *set;
    st_band_key key;
    double ratio;
} st_band_row;

/* The residual table (band_rows.c, generated). */
extern const st_band_row st_band_rows[];
extern const size_t st_band_row_count;

/* The scale-transfer table (band_rows.c, generated from `strata validate --transfer-residuals`):
 * each run of the public calibration splits that a calibration fitted on its set's smallest
 * scale predicted, its measured step time over that calibrated forecast's. */
extern const st_band_row st_band_transfer_rows[];
extern const size_t st_band_transfer_row_count;

/* How close the runs behind a band are, nearest first: the first with ST_BAND_MIN_RUNS is used.
 *   CLOSE  same architecture, kind and precision, GPU count within a factor of 8
 *   ARCH   same architecture and kind
 *   KIND   same kind (dense or MoE), any architecture
 *   ANY    every run: the job is unlike any validated one */
typedef enum st_band_tier {
    ST_BAND_CLOSE,
    ST_BAND_ARCH,
    ST_BAND_KIND,
    ST_BAND_ANY,
    ST_BAND_CALIBRATED /* a cluster calibrated on its own steps (st_band_calibrated) */
} st_band_tier;

/* The fewest runs a band at ST_BAND_LEVEL is built from. Taken both ways (2 n ratios), the upper
 * end lies within them from n = 5 at L = 0.8; the band kept the 9 its one-sided form needed
 * (rank ceil((n + 1) (1 + L) / 2) within n runs), so that a band rests on no fewer runs. */
#define ST_BAND_MIN_RUNS 9

typedef struct st_band {
    double lo, hi; /* multipliers of the predicted step time: the band is [t lo, t hi] */
    int runs;      /* the comparable runs it comes from (ST_BAND_CALIBRATED: transfer runs) */
    st_band_tier tier;
    const double *own; /* ST_BAND_CALIBRATED: the calibration's residuals (n_own; borrowed) */
    int n_own;
    const char *skip_set; /* ST_BAND_CALIBRATED: the set whose transfer runs are left out */
} st_band;

/* The key of workload w on GPUs of gpu's kind. */
st_band_key st_band_key_of(const st_workload_cfg *w, const st_gpu_spec *gpu);

/* The band of a job with key k from rows[0..n), leaving out row `skip` (leave-one-out; -1:
 * none) and every row of set `skip_set` (leave-one-set-out; NULL: none). Returns 0, or -1 when
 * fewer than ST_BAND_MIN_RUNS rows remain in all. */
int st_band_from(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                 const char *skip_set, st_band *out);

/* The same from the residual table. */
int st_band_of(st_band_key k, st_band *out);

/* The band of a job on a cluster calibrated on its own measured steps (docs/models/error-band.md,
 * "A calibrated cluster"): the same order statistics over every product of one of the fit's
 * own residuals own[0..n_own) (measured over predicted step, each left out of its own fit;
 * borrowed, and none counts as the one ratio 1) and one scale-transfer residual of a set other
 * than skip_set (NULL: none left out; borrowed). Returns 0, or -1 when fewer than
 * ST_BAND_MIN_RUNS transfer runs remain. */
int st_band_calibrated(const double *own, int n_own, const char *skip_set, st_band *out);

/* The band of cluster calibration cal, when it was fitted on measured steps (cal->steps or
 * residuals; st_band_calibrated): 0, or -1 when it fitted none (the public runs' band holds). */
int st_band_of_calib(const st_calib_cfg *cal, st_band *out);

/* Of an ST_BAND_CALIBRATED band, the one-sided upper end at level q into *ratio: e^s, s the
 * absolute log of its N products' of rank ceil((N + 1) q) (band.c, one_sided_rank): 0, or -1
 * when they do not reach that rank. */
int st_band_calibrated_upper(const st_band *b, double q, double *ratio);

/* The one-sided upper end at level q (0 < q < 1) of a job with key k: e^s, s the absolute log
 * residual of rank ceil((n + 1) q) among the n runs of the nearest tier that has
 * ST_BAND_MIN_RUNS and reaches that rank, so that a run falls below it with chance at least q
 * whichever way the runs lean; the tier's band into *band when not NULL. Returns 0, or -1 when
 * no tier reaches it (q above n / (n + 1) of the whole table). */
int st_band_upper(st_band_key k, double q, double *ratio, st_band *band);

/* The band of a figure that scales with the step time and has a spread of its own: x[0..nx)
 * equally weighted draws of it (the replicas' wall-time quantiles; one value: none), each times
 * each ratio of b's comparable runs both ways (key k, tier b->tier, the residual table), the two
 * taken as independent; the same order statistics of those products into lo_hi. With one draw it is
 * [x lo, x hi]. */
void st_band_scale(st_band_key k, const st_band *b, const double *x, size_t nx, double lo_hi[2]);

/* "31 comparable published runs" or "140 published runs, none like this job (hopper MoE fp8)",
 * into buf of n bytes. */
void st_band_basis(const st_band *b, st_band_key k, char *buf, size_t n);

#endif
