/* The error band: the comparable runs of the residual table, nearest tier first, and the
 * conformal order statistics of their residuals (docs/models/error-band.md). */
#include "models/forecast/band.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "sim/sort.h"
#include "sim/xalloc.h"

st_band_key st_band_key_of(const st_workload_cfg *w, const st_gpu_spec *gpu)
{
    return (st_band_key){.arch = gpu->arch,
                         .moe = w->model && w->model->experts > 0,
                         .prec = w->precision,
                         .gpus = w->gpus};
}

/* Within a factor of 8 in GPU count: the scale at which a run's collectives cross the same
 * levels of the fabric (a node, a rail group of leaves, the spine) on the clusters of the
 * sets. */
#define BAND_SCALE 8.0

static int in_tier(st_band_key k, const st_band_key *r, st_band_tier t)
{
    switch (t) {
    case ST_BAND_CLOSE: {
        double s = (double)r->gpus / (double)(k.gpus > 0 ? k.gpus : 1);
        return r->arch == k.arch && r->moe == k.moe && r->prec == k.prec && s <= BAND_SCALE &&
               s >= 1 / BAND_SCALE;
    }
    case ST_BAND_ARCH:
        return r->arch == k.arch && r->moe == k.moe;
    case ST_BAND_KIND:
        return r->moe == k.moe;
    default:
        return 1;
    }
}

/* The rank (from 1, at most n) of the one-sided upper end at level q over n sorted values:
 * ceil((n + 1) q), split conformal's (Lei et al. 2018, "Distribution-Free Predictive Inference
 * for Regression", JASA, section 2.2); above n when n values cannot reach it. */
static int upper_rank(int n, double q)
{
    int r = (int)ceil((n + 1) * q - 1e-9);
    return r < 1 ? 1 : r;
}

/* The two-sided ends at level L over n sorted ratios, each tail at (1 - L) / 2: the upper the
 * upper_rank at (1 + L) / 2, the lower the floor((n + 1)(1 - L) / 2)-th, each within 1..n. Over
 * ratios taken both ways (both_ways) these are e^-q and e^q, and a new exchangeable run falls
 * outside the two with chance at most 1 - L (not each side at (1 - L) / 2: a tier whose runs
 * lean one way can put more of that chance on one side). */
static void ends(const double *r, int n, double *lo, double *hi)
{
    int up = upper_rank(n, (1 + ST_BAND_LEVEL) / 2);
    int dn = (int)floor((n + 1) * (1 - ST_BAND_LEVEL) / 2 + 1e-9);
    *hi = r[(up > n ? n : up) - 1];
    *lo = r[(dn < 1 ? 1 : dn) - 1];
}

/* A residual's score is how far it lies from 1 either way, |ln r| (split conformal's absolute
 * residual, Lei et al. 2018, section 2.2): a run measured 20% slower than predicted and one 20%
 * faster weigh alike, so a band covers the forecast's error on both sides by the largest errors
 * of the runs behind it, not by each side's own few runs. The order statistics below read the
 * scores as the residuals and their reciprocals together (each run gives r and 1 / r), whose
 * ends are e^-q and e^q with q at least the scores' ceil((n + 1) L)-th: the conformal band of
 * the absolute residual, kept as ratios so that the products of st_band_scale and the
 * calibrated band take them as they take residuals. Held against the published runs' own sets
 * left out (strata validate --band): docs/models/error-band.md. */
static int both_ways(double ratio, double *r, int m)
{
    if (r) {
        r[2 * m] = ratio;
        r[2 * m + 1] = 1 / ratio;
    }
    return m + 1;
}

/* The ratios of the rows of tier t that are not left out, each both ways (both_ways), into r
 * (2 n of room; NULL: counted only); how many rows. */
static int tier_ratios(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                       const char *skip_set, st_band_tier t, double *r)
{
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if ((ptrdiff_t)i != skip && !(skip_set && strcmp(rows[i].set, skip_set) == 0) &&
            in_tier(k, &rows[i].key, t))
            m = both_ways(rows[i].ratio, r, m);
    return m;
}

/* The one-sided upper end at level q over m runs' ratios taken both ways and sorted (2 m of
 * them): e^s, s the absolute log residual of rank ceil((m + 1) q) among the m runs, the rank
 * m + ceil((m + 1) q) among the ratios. A new exchangeable run's ln r is at most its |ln r|, so
 * it lies below e^s with chance at least q whichever way the runs lean. Above 2 m when the m
 * runs cannot reach q. */
static int one_sided_rank(int m, double q)
{
    return m + upper_rank(m, q);
}

/* The nearest tier with ST_BAND_MIN_RUNS runs whose ratios also reach the one-sided end at q
 * (q 0: the minimum alone): its 2 m ratios (both ways) sorted into r (2 n of room), its tier
 * into *t, and into *passed (if not NULL) the largest ratio of the nearer tiers that had the
 * runs but not the level (0 if none). Returns its run count m, or -1 when no tier has enough. */
static int pick(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                const char *skip_set, double q, double *r, st_band_tier *t, double *passed)
{
    double top = 0;
    for (*t = ST_BAND_CLOSE; *t <= ST_BAND_ANY; (*t)++) {
        int m = tier_ratios(k, rows, n, skip, skip_set, *t, r);
        if (m >= ST_BAND_MIN_RUNS && (q <= 0 || one_sided_rank(m, q) <= 2 * m)) {
            st_sort_doubles(r, (size_t)(2 * m));
            if (passed)
                *passed = top;
            return m;
        }
        for (int i = 0; m >= ST_BAND_MIN_RUNS && i < 2 * m; i++)
            top = fmax(top, r[i]);
    }
    return -1;
}

int st_band_from(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                 const char *skip_set, st_band *out)
{
    double *r = st_xmalloc((n ? 2 * n : 1) * sizeof *r);
    st_band_tier t;
    int m = pick(k, rows, n, skip, skip_set, 0, r, &t, NULL);
    if (m > 0) {
        *out = (st_band){.runs = m, .tier = t};
        ends(r, 2 * m, &out->lo, &out->hi);
    }
    free(r);
    return m > 0 ? 0 : -1;
}

int st_band_of(st_band_key k, st_band *out)
{
    return st_band_from(k, st_band_rows, st_band_row_count, -1, NULL, out);
}

/* The one-sided end at q from the nearest tier that reaches q, and at least the top of every
 * nearer tier: a wider tier's runs can lean less than the near ones, and without that floor a
 * higher level could give a lower end (0.95 below 0.9 where 0.95 needs the wider tier). The
 * floor only raises the end, so the wider tier's guarantee at q stands. */
int st_band_upper(st_band_key k, double q, double *ratio, st_band *band)
{
    size_t n = st_band_row_count;
    double *r = st_xmalloc((n ? 2 * n : 1) * sizeof *r);
    st_band_tier t;
    double nearer;
    int m = pick(k, st_band_rows, n, -1, NULL, q, r, &t, &nearer);
    if (m > 0) {
        *ratio = fmax(r[one_sided_rank(m, q) - 1], nearer);
        if (band) {
            *band = (st_band){.runs = m, .tier = t};
            ends(r, 2 * m, &band->lo, &band->hi);
        }
    }
    free(r);
    return m > 0 ? 0 : -1;
}

/* The ratios behind a calibrated band, sorted (malloc'd; *m transfer runs, 2 x *m x the own
 * residuals' count ratios): every product of one of the fit's own leave-one-out residuals
 * (none: the one ratio 1) and one scale-transfer residual not of the left-out set, both ways
 * (both_ways). The two are taken as independent, as st_band_scale takes the replicas' spread
 * and the model's error: the own residuals say how far this cluster's runs fall from the fit at
 * the scales it measured, the transfer residuals how far a fit on a set's smallest runs has
 * fallen from its larger ones. */
static double *calibrated_ratios(const double *own, int n_own, const char *skip_set, int *m)
{
    static const double one = 1;
    size_t nt = st_band_transfer_row_count, no = n_own > 0 ? (size_t)n_own : 1;
    const double *o = n_own > 0 ? own : &one;
    double *p = st_xmalloc((nt * no > 0 ? 2 * nt * no : 1) * sizeof *p);
    int np = 0;
    *m = 0;
    for (size_t j = 0; j < nt; j++) {
        const st_band_row *t = &st_band_transfer_rows[j];
        if (skip_set && strcmp(t->set, skip_set) == 0)
            continue;
        (*m)++;
        for (size_t i = 0; i < no; i++)
            np = both_ways(o[i] * t->ratio, p, np);
    }
    st_sort_doubles(p, 2 * (size_t)np);
    return p;
}

int st_band_calibrated(const double *own, int n_own, const char *skip_set, st_band *out)
{
    int m;
    double *p = calibrated_ratios(own, n_own, skip_set, &m);
    int rc = m >= ST_BAND_MIN_RUNS ? 0 : -1;
    if (!rc) {
        int np = 2 * m * (n_own > 0 ? n_own : 1);
        *out = (st_band){.runs = m,
                         .tier = ST_BAND_CALIBRATED,
                         .own = own,
                         .n_own = n_own > 0 ? n_own : 0,
                         .skip_set = skip_set};
        ends(p, np, &out->lo, &out->hi);
    }
    free(p);
    return rc;
}

int st_band_of_calib(const st_calib_cfg *cal, st_band *out)
{
    if (!cal->enabled || (cal->steps <= 0 && cal->n_residuals <= 0))
        return -1;
    return st_band_calibrated(cal->residuals, cal->n_residuals, NULL, out);
}

int st_band_calibrated_upper(const st_band *b, double q, double *ratio)
{
    if (b->tier != ST_BAND_CALIBRATED)
        return -1;
    int m;
    double *p = calibrated_ratios(b->own, b->n_own, b->skip_set, &m);
    int np = m * (b->n_own > 0 ? b->n_own : 1), rank = one_sided_rank(np, q);
    if (rank <= 2 * np)
        *ratio = p[rank - 1];
    free(p);
    return rank <= 2 * np ? 0 : -1;
}

/* The ratios behind band b of a job with key k, both ways (malloc'd, *m of them). */
static double *band_ratios(st_band_key k, const st_band *b, int *m)
{
    if (b->tier == ST_BAND_CALIBRATED) {
        int nt;
        double *p = calibrated_ratios(b->own, b->n_own, b->skip_set, &nt);
        *m = 2 * nt * (b->n_own > 0 ? b->n_own : 1);
        return p;
    }
    size_t n = st_band_row_count;
    double *r = st_xmalloc((n ? 2 * n : 1) * sizeof *r);
    *m = 2 * tier_ratios(k, st_band_rows, n, -1, NULL, b->tier, r);
    return r;
}

void st_band_scale(st_band_key k, const st_band *b, const double *x, size_t nx, double lo_hi[2])
{
    int m;
    double *r = band_ratios(k, b, &m);
    size_t np = nx * (size_t)m;
    double *p = st_xmalloc((np > 0 ? np : 1) * sizeof *p);
    for (size_t i = 0; i < nx; i++)
        for (int j = 0; j < m; j++)
            p[i * (size_t)m + (size_t)j] = x[i] * r[j];
    st_sort_doubles(p, np);
    /* The ranks of the m ratios' own ends, scaled to the nx m products: the ends' finite-sample
     * ranks are the m runs', not the pooled products' (ranking among nx m products took the
     * band's (m + 1) / m margin away, so identical replicas narrowed it: 9.21-14.85 d read
     * 9.292-14.72 d with --replicas 2). With nx 1 these are ends()'s. */
    if (np > 0 && m > 0) {
        int up = upper_rank(m, (1 + ST_BAND_LEVEL) / 2);
        int dn = (int)floor((m + 1) * (1 - ST_BAND_LEVEL) / 2 + 1e-9);
        up = up > m ? m : up;
        dn = dn < 1 ? 1 : dn;
        lo_hi[0] = p[(size_t)(dn - 1) * nx];
        lo_hi[1] = p[(size_t)up * nx - 1];
    } else
        ends(p, (int)np, &lo_hi[0], &lo_hi[1]);
    free(p);
    free(r);
}

void st_band_basis(const st_band *b, st_band_key k, char *buf, size_t n)
{
    const char *kind = k.moe ? "MoE" : "dense", *arch = st_gpu_arch_name(k.arch);
    switch (b->tier) {
    case ST_BAND_CLOSE:
        snprintf(buf, n, "%d comparable published runs", b->runs);
        break;
    case ST_BAND_ARCH:
        snprintf(buf, n, "%d published %s runs on %s, none close in precision and scale", b->runs,
                 kind, arch);
        break;
    case ST_BAND_KIND: {
        /* the runs on the job's architecture, too few for a band of their own */
        int on = tier_ratios(k, st_band_rows, st_band_row_count, -1, NULL, ST_BAND_ARCH, NULL);
        if (on > 0)
            snprintf(buf, n, "%d published %s runs, of them only %d on %s", b->runs, kind, on,
                     arch);
        else
            snprintf(buf, n, "%d published %s runs, none on %s", b->runs, kind, arch);
        break;
    }
    case ST_BAND_CALIBRATED: /* the fit's own runs, and how far fits moved with scale */
        if (b->n_own > 0)
            snprintf(buf, n,
                     "%d runs measured on this cluster (cluster.calibration) and %d published "
                     "runs forecast from a smaller scale",
                     b->n_own, b->runs);
        else
            snprintf(buf, n,
                     "this cluster's calibration (cluster.calibration) and %d published runs "
                     "forecast from a smaller scale",
                     b->runs);
        break;
    default:
        snprintf(buf, n, "%d published runs, none like this job (%s %s)", b->runs, arch, kind);
    }
}
