/* The representable ranges of models/config/limits.h as records, with the words the loader's
 * messages give for each bound. */
#include "models/config/limits.h"

#include <math.h>

#include "sim/err.h"
#include "sim/utf8.h"

const st_limit st_lim_span = {0, ST_LIM_SPAN_S, "the longest duration the life model represents",
                              "2^61 ns"};
const st_limit st_lim_latency = {0, ST_LIM_LATENCY_S,
                                 "the longest latency the fabric model represents",
                                 "a chain over 10^9 GPUs of 20-term routes must fit in 2^61 ns"};
const st_limit st_lim_rate = {ST_LIM_MIN_RATE, 0, "the slowest rate the models represent",
                              "1 PB must move within 2^61 ns"};
const st_limit st_lim_bytes = {0, ST_LIM_BYTES, "the largest size the models represent",
                               "at the slowest rate it must move within 2^61 ns"};
const st_limit st_lim_shape = {ST_LIM_MIN_WEIBULL_SHAPE, 0,
                               "the smallest Weibull shape the life model represents",
                               "below 0.00586 Gamma(1 + 1/shape) overflows"};
/* A UPS rating below 1 W carries no IT load (its load fraction, IT power over rating, would run
 * to 10^30 and its square-law loss past a double): refused rather than reported as NaN. */
const st_limit st_lim_ups = {1, 0, "the smallest UPS rating the models take",
                             "a UPS must carry the IT load it protects"};
/* A normal speed spread past 20% puts a GPU 5 sigma slow at zero speed; Sinha et al. (SC'22)
 * measured an 8% average (22% at most) spread between same-SKU GPUs. */
const st_limit st_lim_speed_cv = {0, 0.2,
                                  "the widest per-GPU speed spread the straggler model takes",
                                  "5 sigma below the mean must stay above zero speed"};
/* An expert-parallel rank receives at most every routed row of its group, so the most loaded
 * rank's share over the mean is at most the group's size; 256 is the most experts (and so the
 * widest EP group) of a catalog model (DeepSeek-V3). The workload check also holds it to ep. */
const st_limit st_lim_moe_imbalance = {1, 256, "the largest routing imbalance the MoE model takes",
                                       "a rank of an EP group of 256 receives at most all of it"};
/* An expert's capacity over its mean rows: past the widest EP group (256, as
 * st_lim_moe_imbalance) it keeps every row, the dropless case. */
const st_limit st_lim_moe_capacity = {0, 256, "the largest capacity factor the MoE model takes",
                                      "past 256 an expert of the widest EP group keeps every row"};
/* A cluster's own efficiency against the model's (cluster.calibration, strata calibrate): the
 * catalog's GPU figures and the fabric's goodputs are each measured on real parts
 * (docs/models/calibration.md), so a cluster of the same parts runs within a factor of 2 of
 * them; a fit outside says the measurements are not of what the model times (another GPU
 * type, a misread log, a job that is not the one described) and is refused, not applied. */
const st_limit st_lim_calib = {0.5, 2, "the widest factor a calibration may fit",
                               "a cluster of the catalog's parts runs within a factor of 2 of "
                               "their measured figures"};
/* A residual, measured over predicted step time after the fit: the error band's inputs. The
 * public sets' residuals lie within 0.3 to 3.1 (models/forecast/band_rows.c). */
const st_limit st_lim_calib_ratio = {0.2, 5, "the widest residual a calibration may hold",
                                     "measured and predicted steps within a factor of 5"};
/* The time a calibration adds to every step (cluster.calibration.step_overhead, what strata
 * calibrate leaves of the measured steps after the model's): a step's fixed cost the model does
 * not time (data loading, logging, launch gaps). The public sets' longest measured step is
 * 255.5 s (scenarios/validation), so an overhead past an hour a step is no step's: a duration of
 * another unit (1 y was read, and the run failed at the workload with a life past 2^61 ns), or
 * a stall (a restart, a checkpoint) that the reliability and checkpoint models time. */
const st_limit st_lim_calib_overhead = {0, 3600, "the longest step overhead a calibration may add",
                                        "an hour a step, 14 times the public sets' longest step"};
/* The cluster run's clock is int64 nanoseconds (sim/evq.h, 2^63 ns, 292 years). A job arrives
 * at its submit time, starts by the horizon at the latest (the run stops there), and finishes a
 * run time later: with the three at most 2^61 ns each, every arrival and finish stays below
 * 2^62 ns, leaving the other half of the clock to what a run adds (a checkpoint's restore, a
 * failure's restart: each within the life model's span). Past it, llround gave a negative
 * clock and the engine aborted ("scheduled in the past") on a trace that `check` passed. */
const st_limit st_lim_run = {0, ST_LIM_SPAN_S, "the longest time the cluster run represents",
                             "2^61 ns, so a start by the horizon plus a run time stays within its "
                             "int64 ns clock"};
const st_limit st_lim_job_gpus = {0, ST_LIM_JOB_GPUS, "the most GPUs one job may ask for",
                                  "the largest plan, 10^9 GPUs"};
const st_limit st_lim_whole = {0, ST_LIM_WHOLE, "the largest count a double holds exactly", "2^53"};

const char *st_range_words(st_range r)
{
    switch (r) {
    case ST_R_POS:
        return "must be greater than zero";
    case ST_R_NONNEG:
        return "must not be negative";
    case ST_R_FRAC:
        return "must be between 0 and 1 (0% and 100%)";
    case ST_R_MIN1:
        return "must be at least 1";
    case ST_R_UNIT:
        return "must be above 0 and at most 1 (100%)";
    default:
        return "";
    }
}

int st_range_holds(double v, st_range r)
{
    switch (r) {
    case ST_R_POS:
        return v > 0;
    case ST_R_NONNEG:
        return v >= 0;
    case ST_R_FRAC:
        return v >= 0 && v <= 1;
    case ST_R_MIN1:
        return v >= 1;
    case ST_R_UNIT:
        return v > 0 && v <= 1;
    default:
        return 1;
    }
}

int st_limit_check(const char *key, const char *text, size_t len, st_dim dim, const st_limit *lim,
                   double v, char *why, size_t whylen)
{
    char b[48];
    int n = (int)(len < 4096 ? len : 4096); /* a message buffer holds far less; st_snprintf cuts */
    if (lim && lim->max > 0 && !(v <= lim->max)) {
        st_unit_format(lim->max, dim, b, sizeof b);
        st_snprintf(why, whylen, "%s: %.*s is beyond %s (at most %s: %s)", key, n, text, lim->what,
                    b, lim->how);
        return ST_ELIMIT;
    }
    if (lim && lim->min > 0 && v > 0 && v < lim->min) {
        st_unit_format(lim->min, dim, b, sizeof b);
        st_snprintf(why, whylen, "%s: %.*s is below %s (at least %s: %s)", key, n, text, lim->what,
                    b, lim->how);
        return ST_ELIMIT;
    }
    return 0;
}

/* v within what any figure may be (ST_LIM_TINY, ST_LIM_HUGE, absolute zero): 0, or ST_ELIMIT with
 * the "is below" / "is beyond" message. After the key's own rules, which say it better where
 * they apply. */
static int magnitude_check(const char *key, const char *text, int n, st_dim dim, double v,
                           char *why, size_t whylen)
{
    if (dim == ST_DIM_TEMPERATURE) {
        if (v < ST_LIM_ABS_ZERO_C) {
            st_snprintf(why, whylen, "%s: %.*s is below absolute zero (-273.15 C)", key, n, text);
            return ST_ELIMIT;
        }
        if (v > ST_LIM_HUGE) {
            st_snprintf(why, whylen, "%s: %.*s is beyond any temperature a plant holds", key, n,
                        text);
            return ST_ELIMIT;
        }
        return 0;
    }
    double a = fabs(v);
    if (a > 0 && a < ST_LIM_TINY) {
        st_snprintf(why, whylen,
                    "%s: %.*s is below the smallest figure strata reads (1e-30 in SI units, "
                    "or 0)",
                    key, n, text);
        return ST_ELIMIT;
    }
    if (a > ST_LIM_HUGE) {
        st_snprintf(why, whylen,
                    "%s: %.*s is beyond the largest figure strata reads (1e30 in SI units)", key, n,
                    text);
        return ST_ELIMIT;
    }
    return 0;
}

int st_limit_parse(const char *key, const char *text, size_t len, const st_value_rule *r,
                   double *out, char *why, size_t whylen)
{
    char msg[200];
    double v = 0;
    /* A value too large for a double is past a bound: the key's own, else the largest figure
     * strata reads (magnitude_check). It read "number out of range" where the key had no bound
     * of its own (nic: 1e400 Gbit/s), though 1e300 Gbit/s got the bound's message. */
    unsigned flags = r->unit_flags | ST_UNIT_HUGE;
    int n = (int)(len < 4096 ? len : 4096);
    if (st_unit_parse_n(text, len, r->dim, flags, &v, msg, sizeof msg)) {
        st_snprintf(why, whylen, "%s: %s", key, msg);
        return ST_EUNIT;
    }
    if ((r->unit_flags & ST_UNIT_PLAIN) && r->scale > 0)
        v *= r->scale;
    if (r->whole && isfinite(v) && v != floor(v)) {
        st_snprintf(why, whylen, "%s: expected a whole number, found '%.*s'", key, n, text);
        return ST_EINVAL;
    }
    /* A value too large for a double is past the bound, not below zero: "1e308 y" is beyond
     * 73 years even though its sign rule is met by no finite figure. */
    if (!(isinf(v) && v > 0) && !st_range_holds(v, r->range)) {
        st_snprintf(why, whylen, "%s %s, found '%.*s'", key, st_range_words(r->range), n, text);
        return ST_ERANGE;
    }
    int rc = st_limit_check(key, text, len, r->dim, r->lim, v, why, whylen);
    if (rc)
        return rc;
    if ((rc = magnitude_check(key, text, n, r->dim, v, why, whylen)))
        return rc;
    *out = v;
    return 0;
}
