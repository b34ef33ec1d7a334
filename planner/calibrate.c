/* The calibration fit (planner/calibrate.h): links from nccl-tests, then latency, then compute
 * from GEMMs, then what the steps leave, each factor by bisection on the median ratio of
 * predicted to measured time over the measurements it governs. */
#include "planner/calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/forecast/forecast.h"
#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"
#include "sim/progress.h"
#include "sim/sort.h"
#include "sim/units.h"
#include "sim/xalloc.h"

static const char *const term_names[ST_CAL__TERMS] = {
    "nvlink", "network", "latency", "compute_bf16", "compute_fp8", "step_overhead"};

const char *st_cal_term_name(st_cal_term t)
{
    return (unsigned)t < ST_CAL__TERMS ? term_names[t] : "?";
}

/* A row governs the bandwidth when its size is within 64x of the log's largest and at least 1
 * MiB: nccl-tests' sweeps reach their plateau over the last few doublings. A row governs the
 * latency at 64 KiB and below, where a collective is a few protocol round trips. */
#define BW_SPAN     64.0
#define BW_MIN      1048576.0
#define LATENCY_MAX 65536.0

/* The fit's state: the input, the calibration so far, and a place for errors. */
typedef struct fit {
    const st_cal_input *in;
    st_calib_cfg cal;
    st_err *err;
    int failed;
    /* what a compute factor's bisection reads: its precision and the step left out (-1:
     * none) */
    st_precision prec;
    ptrdiff_t skip;
    /* the NVLink fit's rows the model runs on NVLS, by log and row (NULL: none left out) */
    unsigned char **on_nvls;
    /* a leave-one-out refit's second try (refit_without): the bisection searches
     * st_lim_calib_ratio, not st_lim_calib, and stops at its end rather than fail */
    int wide;
} fit;

/* The calibration's compute factor of precision p. */
static double *compute_of(fit *x, st_precision p)
{
    return p == ST_PREC_FP8 ? &x->cal.compute_fp8 : &x->cal.compute_bf16;
}

static st_cluster_cfg cluster_with(const fit *x, const st_cluster_cfg *on)
{
    st_cluster_cfg c = on ? *on : *x->in->c;
    c.calib = x->cal;
    c.calib.enabled = 1;
    return c;
}

/* ---- collectives ------------------------------------------------------------------------- */

/* The GPU of the log's rank r: ranks / nodes to a node, from node 0 and GPU 0 of each. */
static int64_t gpu_of(const st_cal_nccl *l, int64_t r, int64_t gpn)
{
    int64_t per = (l->ranks + l->nodes - 1) / l->nodes;
    return r / per * gpn + r % per;
}

/* The log's collective of `bytes` on the cluster as calibrated: its simulated time, plus the
 * calibration's latency when with_latency (the step model adds it to every collective); the
 * algorithm it ran into *algo when not NULL. */
static double coll_time_algo(fit *x, const st_cal_nccl *l, double bytes, int with_latency,
                             st_coll_algo *algo)
{
    st_cluster_cfg c = cluster_with(x, NULL);
    int64_t *gpus = st_xmalloc((size_t)l->ranks * sizeof *gpus);
    for (int64_t r = 0; r < l->ranks; r++)
        gpus[r] = gpu_of(l, r, c.gpus_per_node);
    st_coll_spec s = {.op = l->op, .gpus = gpus, .n = l->ranks, .bytes = bytes, .key = 1};
    st_coll_report rep;
    int rc = st_coll_measure(&c, &s, &rep, x->err);
    free(gpus);
    if (rc) {
        x->failed = 1;
        return NAN;
    }
    if (algo)
        *algo = rep.plan.algo;
    return rep.sim_s + (with_latency ? x->cal.latency_s : 0);
}

static double coll_time(fit *x, const st_cal_nccl *l, double bytes, int with_latency)
{
    return coll_time_algo(x, l, bytes, with_latency, NULL);
}

/* Whether the log's ranks all sit in the cluster's first NVLink domain. */
static int within_nvlink(const st_cluster_cfg *c, const st_cal_nccl *l)
{
    int64_t dom = c->nvlink_domain > 0 ? c->nvlink_domain : c->gpus_per_node;
    return gpu_of(l, l->ranks - 1, c->gpus_per_node) < dom;
}

typedef enum rows_kind { ROWS_BANDWIDTH, ROWS_LATENCY } rows_kind;

static int row_in(const st_cal_nccl *l, size_t i, rows_kind k)
{
    double top = 0;
    for (size_t j = 0; j < l->n; j++)
        top = fmax(top, l->bytes[j]);
    return k == ROWS_LATENCY ? l->bytes[i] <= LATENCY_MAX
                             : l->bytes[i] >= BW_MIN && l->bytes[i] >= top / BW_SPAN;
}

/* Over the rows of kind k of the logs whose ranks are (nv) or are not (!nv) within NVLink (nv
 * < 0: every log): the median of predicted / measured time - 1 (ratio 1), or of |that| (ratio
 * 0), into *out; how many rows. */
static size_t coll_median(fit *x, int nv, rows_kind k, int absolute, double *out)
{
    const st_cal_input *in = x->in;
    size_t cap = 0, m = 0;
    for (size_t g = 0; g < in->n_logs; g++)
        cap += in->logs[g].n;
    double *v = st_xmalloc((cap ? cap : 1) * sizeof *v);
    for (size_t g = 0; g < in->n_logs && !x->failed; g++) {
        const st_cal_nccl *l = &in->logs[g];
        if (nv >= 0 && within_nvlink(in->c, l) != nv)
            continue;
        for (size_t i = 0; i < l->n && !x->failed; i++)
            if (row_in(l, i, k) && !(nv == 1 && x->on_nvls && x->on_nvls[g][i])) {
                double d = coll_time(x, l, l->bytes[i], 1) / l->time_s[i] - 1;
                v[m++] = absolute ? fabs(d) : d;
            }
    }
    *out = st_median_doubles(v, m);
    free(v);
    return m;
}

/* ---- bisection ----------------------------------------------------------------------------- */

/* The factor f in the limits of st_lim_calib at which g, decreasing in f, crosses 0, searched
 * on the side of 1 that g(1) points to: 0, or -1 when g does not change sign there (no
 * plausible factor explains the measurements). With x->wide, the limits of st_lim_calib_ratio,
 * and where g does not change sign in them, their end it points past (refit_without). Within
 * BISECT_KEEP of 0 at 1 the model's own factor stands: measurements it already meets (or that do
 * not depend on the factor, as an NVLS all-reduce does not on the ring's NVLink goodput) say
 * nothing against it. */
#define BISECT_KEEP 0.005

static int bisect(double (*g)(fit *, double), fit *x, double *f)
{
    double g1 = g(x, 1.0);
    if (x->failed)
        return -1;
    if (fabs(g1) <= BISECT_KEEP) {
        *f = 1;
        return 0;
    }
    const st_limit *lim = x->wide ? &st_lim_calib_ratio : &st_lim_calib;
    double lo = g1 > 0 ? 1.0 : lim->min, hi = g1 > 0 ? lim->max : 1.0;
    double glo = g1 > 0 ? g1 : g(x, lo), ghi = g1 > 0 ? g(x, hi) : g1;
    if (x->failed)
        return -1;
    if (!(glo >= 0 && ghi <= 0)) {
        *f = g1 > 0 ? hi : lo; /* x->wide: the end of the range g points past */
        return x->wide ? 0 : -1;
    }
    for (int it = 0; it < 40 && hi - lo > 1e-6 && !x->failed; it++) {
        double mid = (lo + hi) / 2, gm = g(x, mid);
        if (gm > 0)
            lo = mid;
        else
            hi = mid;
    }
    *f = (lo + hi) / 2;
    return x->failed ? -1 : 0;
}

/* ---- links and latency -------------------------------------------------------------------- */

static double g_nvlink(fit *x, double f)
{
    x->cal.nvlink = f;
    double m;
    return coll_median(x, 1, ROWS_BANDWIDTH, 0, &m) ? m : 0;
}

static double g_network(fit *x, double f)
{
    x->cal.network = f;
    double m;
    return coll_median(x, 0, ROWS_BANDWIDTH, 0, &m) ? m : 0;
}

static int implausible(fit *x, const char *what, const char *from, const char *hint)
{
    if (x->err->code)
        return x->err->code;
    return st_err_set(x->err, ST_EINVAL, (st_loc){0},
                      "no %s factor in %.3g-%.3g fits the %s (are they of this cluster, in the "
                      "units read?)%s",
                      what, st_lim_calib.min, st_lim_calib.max, from, hint);
}

/* A few nodes' all-reduce whose bus bandwidth passes the network's rate ran NVLS or tree with
 * part of the reduction on NVLink, which no network factor reproduces; NCCL's maintainers advise
 * the ring algorithm to measure the network (NVIDIA/nccl-tests issues 196 and 290). Said only
 * where an all-reduce is among the logs fitted: the other collectives run no tree. */
static const char *const RING_HINT =
    "; a 2-node all-reduce above the NICs' rate ran NVLS or tree on NVLink: measure with "
    "NCCL_ALGO=Ring (nccl-tests #290)";

/* What the logs within (nv 1) or across (nv 0) NVLink domains time, as the fit's message names
 * it ("nccl-tests bandwidths of all-gather and broadcast") into buf; whether an all-reduce is
 * among them into *all_reduce. */
static const char *fitted_logs(const fit *x, int nv, char *buf, size_t n, int *all_reduce)
{
    int seen[ST_COLL_OP__COUNT] = {0}, k = 0, count = 0;
    const st_cal_input *in = x->in;
    for (size_t g = 0; g < in->n_logs; g++)
        if (within_nvlink(in->c, &in->logs[g]) == nv &&
            (unsigned)in->logs[g].op < ST_COLL_OP__COUNT)
            seen[in->logs[g].op] = 1;
    for (int o = 0; o < ST_COLL_OP__COUNT; o++)
        count += seen[o];
    size_t len = (size_t)snprintf(buf, n, "nccl-tests bandwidths");
    for (int o = 0; o < ST_COLL_OP__COUNT && len < n; o++)
        if (seen[o])
            len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                    k++ == 0     ? " of "
                                    : k == count ? " and "
                                                 : ", ",
                                    st_coll_op_name((st_coll_op)o));
    *all_reduce = seen[ST_COLL_ALL_REDUCE];
    return buf;
}

/* The bandwidth rows of the logs within NVLink that the model, at its own NVLink goodput, runs
 * on NVLS: the switch's rate is NVLS's own (models/fabric/nccl.c), which the ring's goodput
 * does not set, so they say nothing of it (a factor moving them would only trade NVLS for a
 * ring). Into x->on_nvls; how many. */
static size_t mark_nvls(fit *x)
{
    const st_cal_input *in = x->in;
    size_t n = 0;
    x->on_nvls = st_xcalloc(in->n_logs + 1, sizeof *x->on_nvls);
    for (size_t g = 0; g < in->n_logs && !x->failed; g++) {
        const st_cal_nccl *l = &in->logs[g];
        x->on_nvls[g] = st_xcalloc(l->n + 1, 1);
        if (!within_nvlink(in->c, l))
            continue;
        for (size_t i = 0; i < l->n && !x->failed; i++) {
            st_coll_algo a = ST_COLL_AUTO;
            if (row_in(l, i, ROWS_BANDWIDTH))
                coll_time_algo(x, l, l->bytes[i], 1, &a);
            x->on_nvls[g][i] = a == ST_COLL_NVLS;
            n += x->on_nvls[g][i];
        }
    }
    return n;
}

static void unmark_nvls(fit *x)
{
    for (size_t g = 0; x->on_nvls && g < x->in->n_logs; g++)
        free(x->on_nvls[g]);
    free(x->on_nvls);
    x->on_nvls = NULL;
}

/* A link factor from the logs within (nv 1) or across (nv 0) NVLink domains. Within, rows the
 * model runs on NVLS are left out; with none left the model's goodput stands, reported with
 * the NVLS rows' error. */
static int fit_link(fit *x, int nv, st_cal_fit *out)
{
    double before, after, f = 1;
    size_t nvls = nv ? mark_nvls(x) : 0;
    size_t rows = coll_median(x, nv, ROWS_BANDWIDTH, 1, &before);
    if (nv && rows == 0 && nvls > 0 && !x->failed) {
        unmark_nvls(x);
        rows = coll_median(x, nv, ROWS_BANDWIDTH, 1, &before);
        x->cal.nvlink = 1;
        *out = (st_cal_fit){1, (int)rows, before, before, "nccl-tests"};
        return x->failed ? x->err->code : 0;
    }
    if (x->failed || rows == 0) {
        unmark_nvls(x);
        return x->failed ? x->err->code : 0;
    }
    if (bisect(nv ? g_nvlink : g_network, x, &f)) {
        unmark_nvls(x);
        char from[160];
        int all_reduce;
        fitted_logs(x, nv, from, sizeof from, &all_reduce);
        return implausible(x, nv ? "NVLink" : "network", from, nv || !all_reduce ? "" : RING_HINT);
    }
    if (nv)
        x->cal.nvlink = f;
    else
        x->cal.network = f;
    coll_median(x, nv, ROWS_BANDWIDTH, 1, &after);
    unmark_nvls(x);
    *out = (st_cal_fit){1, (int)rows, before, after, "nccl-tests"};
    return x->failed ? x->err->code : 0;
}

/* The latency: the median of measured - predicted time over the small rows, at least 0. */
static int fit_latency(fit *x, st_cal_fit *out)
{
    const st_cal_input *in = x->in;
    size_t cap = 0, m = 0;
    for (size_t g = 0; g < in->n_logs; g++)
        cap += in->logs[g].n;
    double *d = st_xmalloc((cap ? cap : 1) * sizeof *d), before;
    size_t rows = coll_median(x, -1, ROWS_LATENCY, 1, &before);
    for (size_t g = 0; g < in->n_logs && !x->failed; g++)
        for (size_t i = 0; i < in->logs[g].n && !x->failed; i++)
            if (row_in(&in->logs[g], i, ROWS_LATENCY))
                d[m++] =
                    in->logs[g].time_s[i] - coll_time(x, &in->logs[g], in->logs[g].bytes[i], 0);
    double lat = st_median_doubles(d, m);
    free(d);
    if (x->failed)
        return x->err->code;
    if (m == 0)
        return 0;
    x->cal.latency_s = lat > 0 ? lat : 0;
    double after;
    coll_median(x, -1, ROWS_LATENCY, 1, &after);
    *out = (st_cal_fit){1, (int)rows, before, after, "nccl-tests"};
    return 0;
}

/* ---- compute from GEMMs ------------------------------------------------------------------- */

static size_t gemm_median(fit *x, st_precision p, int absolute, double *out)
{
    const st_cal_input *in = x->in;
    st_gpu_spec g = *in->c->gpu;
    st_calib_cfg cal = x->cal;
    cal.enabled = 1;
    st_gpu_fit(&g, &cal);
    double *v = st_xmalloc((in->n_gemm ? in->n_gemm : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < in->n_gemm; i++) {
        const st_cal_gemm *r = &in->gemm[i];
        if (r->prec != p)
            continue;
        double d = st_ops_gemm_time(&g, p, r->m, r->n, r->k) / r->time_s - 1;
        v[m++] = absolute ? fabs(d) : d;
    }
    *out = st_median_doubles(v, m);
    free(v);
    return m;
}

/* A GEMM faster than its GPU's dense peak at its precision is no timing of that GPU (a time cut
 * short, microseconds read as another unit, another GPU's run): refused at its field, where a fit
 * would take it as a compute factor's evidence (7 us for a 16384^3 FP8 GEMM is 1.26 EFLOP/s). */
static int gemm_peaks(const st_cal_input *in, st_err *err)
{
    for (size_t i = 0; i < in->n_gemm; i++) {
        const st_cal_gemm *r = &in->gemm[i];
        double flops = 2 * r->m * r->n * r->k / r->time_s, peak = st_gpu_peak(in->c->gpu, r->prec);
        if (!(flops > peak))
            continue;
        char got[64], top[64];
        st_unit_format(flops, ST_DIM_FLOPS, got, sizeof got);
        st_unit_format(peak, ST_DIM_FLOPS, top, sizeof top);
        return st_err_set(
            err, ST_EINVAL, r->at,
            "the %.0fx%.0fx%.0f %s GEMM in %.4g us is %s, more than the %s's dense %s "
            "peak of %s: no timing of this GPU (a field cut short, or another "
            "unit?)",
            r->m, r->n, r->k, r->prec == ST_PREC_FP8 ? "fp8" : "bf16", r->time_s * 1e6, got,
            in->c->gpu->name, r->prec == ST_PREC_FP8 ? "FP8" : "BF16", top);
    }
    return 0;
}

static double g_gemm(fit *x, double f)
{
    *compute_of(x, x->prec) = f;
    double m;
    return gemm_median(x, x->prec, 0, &m) ? m : 0;
}

static int fit_gemm(fit *x, st_precision p, st_cal_fit *out)
{
    double before, after, f;
    size_t rows = gemm_median(x, p, 1, &before);
    if (rows == 0)
        return 0;
    x->prec = p;
    if (bisect(g_gemm, x, &f))
        return implausible(x, p == ST_PREC_FP8 ? "FP8 compute" : "BF16 compute", "GEMM timings",
                           "");
    *compute_of(x, p) = f;
    gemm_median(x, p, 1, &after);
    *out = (st_cal_fit){1, (int)rows, before, after, "gemm"};
    return 0;
}

/* ---- steps -------------------------------------------------------------------------------- */

/* Step s's time on its cluster as calibrated now. */
static double step_time(fit *x, const st_cal_step *s)
{
    const st_workload_cfg *w = s->w;
    if (x->failed)
        return NAN;
    st_cluster_cfg c = cluster_with(x, s->c);
    st_step_ctx *ctx = NULL;
    st_forecast f;
    int rc = st_step_ctx_new(&c, &ctx, x->err);
    if (!rc)
        rc = st_forecast_job(ctx, w, &c, &f, NULL, x->err);
    if (!rc && !f.has_step)
        rc = st_err_set(x->err, ST_EINVAL, w->loc,
                        "workload '%s' does not fit in memory by the model: its measured step "
                        "cannot be compared",
                        w->name);
    double t = rc ? NAN : f.step.step_time_s;
    st_step_ctx_free(ctx);
    x->failed |= rc != 0;
    return t;
}

/* Over the steps of x->prec but x->skip: the median of predicted / measured - 1 at factor f. */
static double g_step(fit *x, double f)
{
    *compute_of(x, x->prec) = f;
    const st_cal_input *in = x->in;
    double *v = st_xmalloc((in->n_steps ? in->n_steps : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < in->n_steps && !x->failed; i++)
        if ((ptrdiff_t)i != x->skip && in->steps[i].w->precision == x->prec)
            v[m++] = step_time(x, &in->steps[i]) / in->steps[i].seconds - 1;
    double r = m ? st_median_doubles(v, m) : 0;
    free(v);
    return r;
}

/* The steps' terms, leaving out step skip (-1: none), from the calibration's other terms: first
 * the per-step overhead, from the steps whose precision's compute the GEMMs fitted (*n_over of
 * them), then each other precision's compute from its steps, with that overhead in place.
 * Both start from the model's own (overhead 0, factor 1), so a refit without a step owes it
 * nothing. */
static int fit_steps(fit *x, const st_cal_fit *gemm_fit, ptrdiff_t skip, size_t *n_over)
{
    const st_cal_input *in = x->in;
    x->cal.step_overhead_s = 0;
    for (int p = 0; p < 2; p++)
        if (!gemm_fit[p].fitted)
            *compute_of(x, (st_precision)p) = 0;
    double *d = st_xmalloc((in->n_steps ? in->n_steps : 1) * sizeof *d);
    size_t m = 0;
    for (size_t i = 0; i < in->n_steps && !x->failed; i++)
        if ((ptrdiff_t)i != skip && gemm_fit[in->steps[i].w->precision == ST_PREC_FP8].fitted)
            d[m++] = in->steps[i].seconds - step_time(x, &in->steps[i]);
    double o = st_median_doubles(d, m);
    free(d);
    x->cal.step_overhead_s = m && o > 0 ? o : 0;
    *n_over = m;
    for (int p = 0; p < 2 && !x->failed; p++) {
        if (gemm_fit[p].fitted)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < in->n_steps; i++)
            n += (ptrdiff_t)i != skip && in->steps[i].w->precision == (st_precision)p;
        if (n == 0)
            continue;
        x->prec = (st_precision)p;
        x->skip = skip;
        double f;
        if (bisect(g_step, x, &f))
            return implausible(x, p ? "FP8 compute" : "BF16 compute", "measured step times", "");
        *compute_of(x, (st_precision)p) = f;
    }
    return x->failed ? x->err->code : 0;
}

/* Whether step i's precision has its compute from the steps and no other step to refit it
 * on: then no fit leaves it out. */
static int alone(const st_cal_input *in, const st_cal_fit *gemm_fit, size_t i)
{
    st_precision p = in->steps[i].w->precision;
    if (gemm_fit[p == ST_PREC_FP8].fitted)
        return 0;
    for (size_t j = 0; j < in->n_steps; j++)
        if (j != i && in->steps[j].w->precision == p)
            return 0;
    return 1;
}

static void step_errors(fit *x, double *out)
{
    const st_cal_input *in = x->in;
    double *v = st_xmalloc((in->n_steps ? in->n_steps : 1) * sizeof *v);
    for (size_t i = 0; i < in->n_steps; i++)
        v[i] = fabs(step_time(x, &in->steps[i]) / in->steps[i].seconds - 1);
    *out = st_median_doubles(v, in->n_steps);
    free(v);
}

/* Step i's measured over its predicted step with itself left out of the fit, into *ratio. The
 * refit is held to the plausible factors first, as the whole fit is. Where the other steps alone
 * fit none there, it is tried again over the residuals' own range (st_lim_calib_ratio, x->wide),
 * taking the end of that range where they point past it: the refit's factor is never applied to
 * a forecast, only used to see how far step i lies from the others, and dropping its residual
 * would drop the worst one and narrow the band. A residual so kept past the loader's range is
 * then refused with the others (st_calibrate). */
static int refit_without(fit *x, const st_cal_fit *gemm_fit, size_t i, double *ratio)
{
    const st_cal_step *s = &x->in->steps[i];
    size_t n_over;
    int rc = fit_steps(x, gemm_fit, (ptrdiff_t)i, &n_over);
    if (rc && !x->failed) { /* implausible, not a model error: the wide try cannot be */
        *x->err = (st_err){0};
        x->wide = 1;
        rc = fit_steps(x, gemm_fit, (ptrdiff_t)i, &n_over);
        x->wide = 0;
    }
    if (!rc)
        *ratio = s->seconds / step_time(x, s);
    return rc ? rc : x->failed ? x->err->code : 0;
}

/* Each step's prediction after the fit, and with itself left out of it (NAN where no fit
 * leaves it out: the only step of a precision whose compute the steps fitted). */
static int step_fits(fit *x, const st_cal_fit *gemm_fit, st_cal_result *out)
{
    const st_cal_input *in = x->in;
    st_calib_cfg whole = x->cal;
    int rc = 0;
    for (size_t i = 0; i < in->n_steps && !rc; i++) {
        /* the refits are most of a calibration's time: one per measured step */
        st_progress("calibrate: leave-one-out refits", (int64_t)i, (int64_t)in->n_steps);
        out->steps[i].after_s = step_time(x, &in->steps[i]);
        out->steps[i].loo_ratio = NAN;
        if (!x->failed && !alone(in, gemm_fit, i))
            rc = refit_without(x, gemm_fit, i, &out->steps[i].loo_ratio);
        x->cal = whole;
        rc = rc ? rc : x->failed ? x->err->code : 0;
    }
    st_progress("calibrate: leave-one-out refits", (int64_t)in->n_steps, (int64_t)in->n_steps);
    return rc;
}

/* ---- the whole fit ------------------------------------------------------------------------- */

/* Whether each log's ranks fit the cluster as gpu_of places them: its hosts no more than the
 * nodes, its ranks a host no more than a node's GPUs (a log of another cluster is refused at
 * its file, not met as a collective over GPUs the cluster lacks). */
static int logs_fit(const st_cal_input *in, st_err *err)
{
    const st_cluster_cfg *c = in->c;
    for (size_t g = 0; g < in->n_logs; g++) {
        const st_cal_nccl *l = &in->logs[g];
        /* each host's own count: 9 ranks on one and 7 on another do not fit 8-GPU nodes,
         * though they average 8 */
        int64_t per = l->nodes > 0 ? l->most_per_host : l->ranks;
        if (l->nodes > c->nodes || per > c->gpus_per_node)
            return st_err_set(err, ST_EINVAL, (st_loc){l->file, 0, 0},
                              "its %lld ranks on %lld hosts (at most %lld on one) do not fit the "
                              "scenario's cluster of %lld nodes of %lld GPUs: a log of another "
                              "cluster",
                              (long long)l->ranks, (long long)l->nodes, (long long)per,
                              (long long)c->nodes, (long long)c->gpus_per_node);
    }
    return 0;
}

int st_calibrate(const st_cal_input *in, st_cal_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    if (logs_fit(in, err) || gemm_peaks(in, err))
        return err->code;
    out->steps = st_xcalloc(in->n_steps ? in->n_steps : 1, sizeof *out->steps);
    fit x = {.in = in, .err = err};
    x.cal.gpu = in->c->gpu->name;
    st_cal_fit *F = out->fit;
    int rc = 0;
    for (size_t i = 0; i < in->n_steps && !rc; i++) {
        out->steps[i].before_s = step_time(&x, &in->steps[i]);
        rc = x.failed ? err->code : 0;
    }
    double before = 0;
    if (!rc && in->n_steps)
        step_errors(&x, &before);
    if (!rc)
        rc = fit_link(&x, 1, &F[ST_CAL_NVLINK]);
    if (!rc)
        rc = fit_link(&x, 0, &F[ST_CAL_NETWORK]);
    if (!rc)
        rc = fit_latency(&x, &F[ST_CAL_LATENCY]);
    for (int nv = 1; nv >= 0 && !rc && x.cal.latency_s > 0; nv--) {
        /* the links again with the latency in place, which every collective now pays */
        st_cal_fit *f = &F[nv ? ST_CAL_NVLINK : ST_CAL_NETWORK], again = {0};
        if (f->fitted && !(rc = fit_link(&x, nv, &again)))
            f->err_after = again.err_after;
    }
    if (!rc)
        rc = fit_gemm(&x, ST_PREC_BF16, &F[ST_CAL_COMPUTE_BF16]);
    if (!rc)
        rc = fit_gemm(&x, ST_PREC_FP8, &F[ST_CAL_COMPUTE_FP8]);
    const st_cal_fit gemm_fit[2] = {F[ST_CAL_COMPUTE_BF16], F[ST_CAL_COMPUTE_FP8]};
    size_t n_over = 0;
    if (!rc && in->n_steps)
        rc = fit_steps(&x, gemm_fit, -1, &n_over);
    if (!rc && x.cal.step_overhead_s > st_lim_calib_overhead.max) /* the loader would refuse it */
        rc = st_err_set(err, ST_EINVAL, (st_loc){0},
                        "the measured steps leave %.4g s a step the model does not time, more "
                        "than the %g s %s (%s): are they of this plan and cluster, in seconds "
                        "per step?",
                        x.cal.step_overhead_s, st_lim_calib_overhead.max,
                        st_lim_calib_overhead.what, st_lim_calib_overhead.how);
    if (!rc && in->n_steps) {
        double after;
        step_errors(&x, &after);
        /* what the steps fitted: a precision's compute no GEMM measured, or the overhead */
        for (int p = 0; p < 2; p++) {
            size_t n = 0;
            for (size_t i = 0; i < in->n_steps; i++)
                n += in->steps[i].w->precision == (st_precision)p;
            if (n && !gemm_fit[p].fitted)
                F[p ? ST_CAL_COMPUTE_FP8 : ST_CAL_COMPUTE_BF16] =
                    (st_cal_fit){1, (int)n, before, after, "steps"};
        }
        if (x.cal.step_overhead_s > 0)
            F[ST_CAL_OVERHEAD] = (st_cal_fit){1, (int)n_over, before, after, "steps"};
        rc = step_fits(&x, gemm_fit, out);
    }
    for (size_t i = 0; i < in->n_steps && !rc; i++) { /* what the loader takes back */
        double r = out->steps[i].loo_ratio;
        if (isfinite(r) && (r < st_lim_calib_ratio.min || r > st_lim_calib_ratio.max))
            rc =
                st_err_set(err, ST_EINVAL, in->steps[i].w->loc,
                           "workload '%s': its measured step is %.3g times what the others "
                           "calibrate the model to (outside %g-%g): is it of this plan and "
                           "cluster, in seconds per step?",
                           in->steps[i].w->name, r, st_lim_calib_ratio.min, st_lim_calib_ratio.max);
    }
    if (!rc) {
        out->cal = x.cal;
        out->cal.enabled = 1;
        out->cal.steps = (int)in->n_steps;
        for (size_t i = 0; i < in->n_steps && out->cal.n_residuals < ST_CALIB_MAX_RESIDUALS; i++)
            if (isfinite(out->steps[i].loo_ratio))
                out->cal.residuals[out->cal.n_residuals++] = out->steps[i].loo_ratio;
    }
    return rc;
}

void st_cal_release(st_cal_result *r)
{
    free(r->steps);
    r->steps = NULL;
}
