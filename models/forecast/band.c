/* The error band: the comparable runs of the residual table, nearest tier first, and the
 * conformal order statistics of their residuals (docs/models/error-band.md). */
#include "models/forecast/band.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/llm.h"
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The split-conformal ends at level L over n sorted residuals (Lei et al. 2018, "Distribution-
 * Free Predictive Inference for Regression", JASA, section 2.2, each tail at (1 - L) / 2): the
 * upper the ceil((n + 1)(1 + L) / 2)-th smallest, the lower the floor((n + 1)(1 - L) / 2)-th,
 * each at least the first; a new exchangeable run falls above or below each with chance at
 * most (1 - L) / 2. */
static void ends(const double *r, int n, double *lo, double *hi)
{
    int up = (int)ceil((n + 1) * (1 + ST_BAND_LEVEL) / 2 - 1e-9);
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

int st_band_from(st_band_key k, const st_band_row *rows, size_t n, ptrdiff_t skip,
                 const char *skip_set, st_band *out)
{
    double *r = st_xmalloc((n ? n : 1) * sizeof *r);
    for (st_band_tier t = ST_BAND_CLOSE; t <= ST_BAND_ANY; t++) {
        int m = tier_ratios(k, rows, n, skip, skip_set, t, r);
        if (m < ST_BAND_MIN_RUNS)
            continue;
        qsort(r, (size_t)m, sizeof *r, cmp_double);
        *out = (st_band){.runs = m, .tier = t};
        ends(r, m, &out->lo, &out->hi);
        free(r);
        return 0;
    }
    free(r);
    return -1;
}

int st_band_of(st_band_key k, st_band *out)
{
    return st_band_from(k, st_band_rows, st_band_row_count, -1, NULL, out);
}

/* One-sided, the same order statistic as the band's upper end: rank ceil((n + 1) q), which at
 * q = (1 + L) / 2 is the band's hi. */
int st_band_upper(st_band_key k, double q, double *ratio, st_band *band)
{
    size_t n = st_band_row_count;
    double *r = st_xmalloc((n ? n : 1) * sizeof *r);
    for (st_band_tier t = ST_BAND_CLOSE; t <= ST_BAND_ANY; t++) {
        int m = tier_ratios(k, st_band_rows, n, -1, NULL, t, r);
        int rank = (int)ceil((m + 1) * q - 1e-9);
        if (m < ST_BAND_MIN_RUNS || rank > m)
            continue;
        qsort(r, (size_t)m, sizeof *r, cmp_double);
        *ratio = r[(rank < 1 ? 1 : rank) - 1];
        if (band) {
            *band = (st_band){.runs = m, .tier = t};
            ends(r, m, &band->lo, &band->hi);
        }
        free(r);
        return 0;
    }
    free(r);
    return -1;
}

int st_band_own(const double *r, int n, st_band *out)
{
    if (n < ST_BAND_MIN_RUNS)
        return -1;
    double *s = st_xmalloc((size_t)n * sizeof *s);
    memcpy(s, r, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *out = (st_band){.runs = n, .tier = ST_BAND_OWN, .own = r};
    ends(s, n, &out->lo, &out->hi);
    free(s);
    return 0;
}

int st_band_own_upper(const st_band *b, double q, double *ratio)
{
    int n = b->runs, rank = (int)ceil((n + 1) * q - 1e-9);
    if (b->tier != ST_BAND_OWN || rank > n)
        return -1;
    double *s = st_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    memcpy(s, b->own, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *ratio = s[(rank < 1 ? 1 : rank) - 1];
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
    qsort(p, np, sizeof *p, cmp_double);
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
