/* Statistics records for model outputs: tallies of observations (count, mean, min, max, spread),
 * time-weighted averages of a value held over simulated time, and stored samples for quantiles.
 * Plain structs, so they live on the stack or inside model state. */
#ifndef ST_SIM_STATS_H
#define ST_SIM_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "sim/evq.h"

/* Observations one at a time: job wait times, step times. Welford's update keeps the variance
 * accurate when the mean is large compared with the spread. Read n directly; the accessors
 * return 0 for an empty tally (reports must not contain NaN). */
typedef struct st_tally {
    uint64_t n;
    double mean, m2, min, max;
} st_tally;

/* An empty tally. Never allocates. */
void st_tally_init(st_tally *t);

/* Add one observation; NaN is an ST_BUG (it would poison every later figure). */
void st_tally_add(st_tally *t, double x);

double st_tally_mean(const st_tally *t);
double st_tally_min(const st_tally *t);
double st_tally_max(const st_tally *t);
double st_tally_sum(const st_tally *t);

/* Sample variance (divides by n - 1) and standard deviation; 0 below two observations. */
double st_tally_var(const st_tally *t);
double st_tally_sd(const st_tally *t);

/* A value that holds between changes, averaged over time: queue length, rack power, busy GPUs.
 * Each change closes the interval the old value held for, so the cost is O(1) per change. */
typedef struct st_timeavg {
    st_time t0, t_last;
    double v;        /* value since t_last */
    double area;     /* integral of the value over [t0, t_last], value x nanoseconds */
    double min, max; /* extreme values held (for any duration, even zero) */
} st_timeavg;

/* Start at time t0 with value v0. Never allocates. */
void st_timeavg_init(st_timeavg *a, st_time t0, double v0);

/* The value becomes v at time t. t before the previous change, or a NaN v, is an ST_BUG. */
void st_timeavg_set(st_timeavg *a, st_time t, double v);

/* The value changes by dv at time t (queue length +1, power -700 W). */
void st_timeavg_add(st_timeavg *a, st_time t, double dv);

/* The integral of the value over [t0, t_end], in value x seconds (W -> J); t_end must not be
 * before the last change (ST_BUG). */
double st_timeavg_integral(const st_timeavg *a, st_time t_end);

/* The time-weighted mean over [t0, t_end]; the current value when t_end == t0. */
double st_timeavg_mean(const st_timeavg *a, st_time t_end);

/* Stored observations for quantiles (tail latencies, p99 job wait). Memory grows with the count,
 * so use it for per-job or per-step figures, not per-event ones. */
typedef struct st_samples {
    double *v;
    size_t n, cap;
    int sorted;
} st_samples;

/* An empty sample set. Never allocates. */
void st_samples_init(st_samples *s);

/* Free the stored samples; s is empty (and reusable) afterwards. */
void st_samples_release(st_samples *s);

/* Room for n observations in all, so that adding that many does not grow the store again. */
void st_samples_reserve(st_samples *s, size_t n);

/* Store one observation; NaN is an ST_BUG. */
void st_samples_add(st_samples *s, double x);

/* a + t (b - a) between two order statistics a <= b, t in [0, 1): formed as numpy's _lerp forms
 * it (from b where t >= 0.5) and held in [a, b], so that it is exact where a == b and never
 * decreases in t. GSL's (1 - t) a + t b can fall an ulp below a == b, which would put a
 * distribution's p99 below its p50. */
double st_lerp(double a, double b, double t);

/* The q-quantile (0 <= q <= 1, else ST_BUG) by linear interpolation between order statistics,
 * GSL's definition: with sorted x[0..n-1], x[(n-1)q] interpolated (by st_lerp, so quantiles are
 * ordered as their q). Sorts the samples in place the first time after an add (that is why s is
 * not const). 0 when s is empty. */
double st_samples_quantile(st_samples *s, double q);

/* The q[0..k)-quantiles (ascending, each in [0, 1], else ST_BUG) into out[0..k), each the figure
 * st_samples_quantile gives, to the bit, without sorting the samples: each quantile's one or two
 * order statistics are selected in place (sim/sort.h), in expected linear time for a few of
 * them. The samples are left partly ordered (a later st_samples_quantile sorts them). */
void st_samples_quantiles(st_samples *s, const double *q, size_t k, double *out);

#endif
