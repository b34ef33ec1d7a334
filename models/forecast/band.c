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

/* The two-sided ends at level L over n sorted residuals, each tail at (1 - L) / 2: the upper
 * the upper_rank at (1 + L) / 2, the lower the floor((n + 1)(1 - L) / 2)-th, each within
 * 1..n; a new exchangeable run falls above or below each with chance at most (1 - L) / 2. */
static void ends(const double *r, int n, double *lo, double *hi)
{
    int up = upper_rank(n, (1 + ST_BAND_LEVEL) / 2);
    int dn = (int)floor((n + 1) * (1 - ST_BAND_LEVEL) / 2 + 1e-9);
    *hi = r[(up > n ? n : up) - 1];
    *lo = r[(dn < 1 ? 1 : dn) - 1];
}

/* The ratios of the rows of tier t that are not left out, into r; how many. */
static int tier_ratios(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                       const char *skip_set, st_band_tier t, double *r)
{
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if ((ptrdiff_t)i != skip && !(skip_set && strcmp(rows[i].set, skip_set) == 0) &&
            in_tier(k, &rows[i].key, t))
            r[m++] = rows[i].ratio;
    return m;
}

/* The nearest tier with ST_BAND_MIN_RUNS runs whose count also reaches the upper end at q
 * (q 0: the minimum alone): its ratios sorted into r (n of room), its tier into *t. Returns
 * their count, or -1 when no tier has enough. */
static int pick(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                const char *skip_set, double q, double *r, st_band_tier *t)
{
    for (*t = ST_BAND_CLOSE; *t <= ST_BAND_ANY; (*t)++) {
        int m = tier_ratios(k, rows, n, skip, skip_set, *t, r);
        if (m >= ST_BAND_MIN_RUNS && (q <= 0 || upper_rank(m, q) <= m)) {
            st_sort_doubles(r, (size_t)m);
            return m;
        }
    }
    return -1;
}

int st_band_from(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                 const char *skip_set, st_band *out)
{
    double *r = st_xmalloc((n ? n : 1) * sizeof *r);
    st_band_tier t;
    int m = pick(k, rows, n, skip, skip_set, 0, r, &t);
    if (m > 0) {
        *out = (st_band){.runs = m, .tier = t};
        ends(r, m, &out->lo, &out->hi);
    }
    free(r);
    return m > 0 ? 0 : -1;
}

int st_band_of(st_band_key k, st_band *out)
{
    return st_band_from(k, st_band_rows, st_band_row_count, -1, NULL, out);
}

int st_band_upper(st_band_key k, double q, double *ratio, st_band *band)
{
    size_t n = st_band_row_count;
    double *r = st_xmalloc((n ? n : 1) * sizeof *r);
    st_band_tier t;
    int m = pick(k, st_band_rows, n, -1, NULL, q, r, &t);
    if (m > 0) {
        *ratio = r[upper_rank(m, q) - 1];
        if (band) {
            *band = (st_band){.runs = m, .tier = t};
            ends(r, m, &band->lo, &band->hi);
        }
    }
    free(r);
    return m > 0 ? 0 : -1;
}

/* A copy of the calibration's residuals behind band b, sorted (malloc'd). */
static double *own_sorted(const double *own, int n)
{
    double *s = st_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    memcpy(s, own, (size_t)n * sizeof *s);
    st_sort_doubles(s, (size_t)n);
    return s;
}

int st_band_own(const double *r, int n, st_band *out)
{
    if (n < ST_BAND_MIN_RUNS)
        return -1;
    double *s = own_sorted(r, n);
    *out = (st_band){.runs = n, .tier = ST_BAND_OWN, .own = r};
    ends(s, n, &out->lo, &out->hi);
    free(s);
    return 0;
}

int st_band_own_upper(const st_band *b, double q, double *ratio)
{
    int n = b->runs, rank = upper_rank(n, q);
    if (b->tier != ST_BAND_OWN || rank > n)
        return -1;
    double *s = own_sorted(b->own, n);
    *ratio = s[rank - 1];
    free(s);
    return 0;
}

void st_band_scale(st_band_key k, const st_band *b, const double *x, size_t nx, double lo_hi[2])
{
    size_t n = b->tier == ST_BAND_OWN ? (size_t)b->runs : st_band_row_count;
    double *r = st_xmalloc((n ? n : 1) * sizeof *r);
    int m = (int)n;
    if (b->tier == ST_BAND_OWN)
        memcpy(r, b->own, n * sizeof *r);
    else
        m = tier_ratios(k, st_band_rows, n, -1, NULL, b->tier, r);
    size_t np = nx * (size_t)m;
    double *p = st_xmalloc((np > 0 ? np : 1) * sizeof *p);
    for (size_t i = 0; i < nx; i++)
        for (int j = 0; j < m; j++)
            p[i * (size_t)m + (size_t)j] = x[i] * r[j];
    st_sort_doubles(p, np);
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
    case ST_BAND_KIND:
        snprintf(buf, n, "%d published %s runs, none on %s", b->runs, kind, arch);
        break;
    case ST_BAND_OWN:
        snprintf(buf, n, "%d runs measured on this cluster (cluster.calibration)", b->runs);
        break;
    default:
        snprintf(buf, n, "%d published runs, none like this job (%s %s)", b->runs, arch, kind);
    }
}
