/* The calibration split (validate/validate.h st_valid_splits): in each step set, the runs of one
 * GPU type and precision at several scales; `strata calibrate`'s fit (planner/calibrate.h) on
 * the smallest scale's measured steps, and the others predicted with it, against the model
 * alone. What a planner who measures a small cluster can expect at a larger one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/band.h"
#include "models/forecast/forecast.h"
#include "planner/calibrate.h"
#include "report/figures.h"
#include "scenarios/scenario.h"
#include "sim/sort.h"
#include "sim/xalloc.h"
#include "validate/validate_internal.h"

typedef struct run {
    st_scn *s;
    const st_validation_cfg *v;
    double measured_s, predicted_s; /* the step, measured (from the published metric) and by
                                       the model alone */
} run;

/* Case file path loaded, its step predicted, and the published metric as a measured step: a
 * rate's measured step is the predicted one times predicted over published rate. 0, 1 when the
 * case has no step to compare (a plan that does not fit, a life metric), or an error. */
static int load_run(const char *path, run *r, st_diag *d, st_err *err)
{
    memset(r, 0, sizeof *r);
    int rc = st_scn_load_file(path, &r->s, d);
    if (rc)
        return rc;
    r->v = st_scn_validation(r->s);
    if (!r->v || r->v->metric > ST_METRIC_TFLOPS_PER_GPU)
        return 1;
    st_step_ctx *x = NULL;
    st_forecast f;
    rc = st_step_ctx_new(st_scn_cluster(r->s), &x, err);
    if (!rc)
        rc = st_forecast_job(x, st_scn_workload(r->s, 0), st_scn_cluster(r->s), &f, NULL, err);
    st_step_ctx_free(x);
    if (rc)
        return rc;
    if (!f.has_step)
        return 1;
    double metric;
    if (!st_fig_job_value(st_fig_of_metric(r->v->metric), &f, &metric))
        return 1;
    r->predicted_s = f.step.step_time_s;
    r->measured_s = r->v->metric == ST_METRIC_STEP_TIME ? r->v->published
                                                        : r->predicted_s * metric / r->v->published;
    return 0;
}

static const st_workload_cfg *job_of(const run *r)
{
    return st_scn_workload(r->s, 0);
}

/* Whether runs a and b are of one group: the set, the GPU type and the precision. */
static int same_group(const run *a, const run *b)
{
    return strcmp(a->v->set, b->v->set) == 0 &&
           strcmp(st_scn_cluster(a->s)->gpu->name, st_scn_cluster(b->s)->gpu->name) == 0 &&
           job_of(a)->precision == job_of(b)->precision;
}

/* Run r's step on its cluster with calibration cal. */
static int predict(const run *r, const st_calib_cfg *cal, double *t, st_err *err)
{
    st_cluster_cfg c = *st_scn_cluster(r->s);
    c.calib = *cal;
    st_step_ctx *x = NULL;
    st_forecast f;
    int rc = st_step_ctx_new(&c, &x, err);
    if (!rc)
        rc = st_forecast_job(x, job_of(r), &c, &f, NULL, err);
    st_step_ctx_free(x);
    *t = !rc && f.has_step ? f.step.step_time_s : NAN;
    return rc;
}

/* The band run r's forecast would carry: with calibration cal (NULL: refused), the calibrated
 * band with r's own set's transfer runs left out, so that no run of the set shapes the band it
 * is judged against; else the public runs' without r (leave-one-out, as --band). */
static int band_of(const run *r, const st_calib_cfg *cal, st_band *b)
{
    if (cal)
        return st_band_calibrated(cal->residuals, cal->n_residuals, r->v->set, b);
    st_band_key k = st_band_key_of(job_of(r), st_scn_cluster(r->s)->gpu);
    ptrdiff_t self = -1;
    for (size_t j = 0; j < st_band_row_count && self < 0; j++)
        if (strcmp(st_band_rows[j].name, st_scn_name(r->s)) == 0)
            self = (ptrdiff_t)j;
    return st_band_from(k, st_band_rows, st_band_row_count, self, NULL, b);
}

/* The calibration of the group's runs at `least` GPUs into *cr; out->refused (and cr zeroed)
 * when no plausible factor fits them. Their count. */
static int fit_least(run **g, int n, int64_t least, st_cal_result *cr, st_valid_split *out)
{
    st_cal_step *steps = st_xcalloc((size_t)n, sizeof *steps);
    int nc = 0;
    for (int i = 0; i < n; i++)
        if (job_of(g[i])->gpus == least)
            steps[nc++] = (st_cal_step){job_of(g[i]), g[i]->measured_s, st_scn_cluster(g[i]->s)};
    st_cal_input in = {.c = st_scn_cluster(g[0]->s), .steps = steps, .n_steps = (size_t)nc};
    st_err err = {0};
    if (st_calibrate(&in, cr, &err)) { /* the split says so, with the model alone */
        st_cal_release(cr);
        memset(cr, 0, sizeof *cr);
        out->refused = 1;
    } else {
        out->n_own = cr->cal.n_residuals;
        memcpy(out->own, cr->cal.residuals, (size_t)cr->cal.n_residuals * sizeof *out->own);
    }
    free(steps);
    return nc;
}

/* The group's runs above `least` GPUs predicted with calibration cal (out->refused: the model
 * alone): their errors before and after into out, each against the band it would carry. */
static int predict_rest(run **g, int n, int64_t least, const st_calib_cfg *cal, st_valid_split *out,
                        st_err *err)
{
    double *before = st_xcalloc((size_t)n, sizeof *before),
           *after = st_xcalloc((size_t)n, sizeof *after);
    int ne = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const run *r = g[i];
        double t = r->predicted_s;
        if (job_of(r)->gpus == least || (!out->refused && (rc = predict(r, cal, &t, err))))
            continue;
        if (ne >= ST_VALID_SPLIT_MAX_RUNS)
            ST_BUG("a split predicts more than %d runs", ST_VALID_SPLIT_MAX_RUNS);
        before[ne] = fabs(r->predicted_s / r->measured_s - 1);
        after[ne] = fabs(t / r->measured_s - 1);
        st_valid_split_run *sr = &out->runs[ne++];
        snprintf(sr->name, sizeof sr->name, "%s", st_scn_name(r->s));
        sr->key = st_band_key_of(job_of(r), st_scn_cluster(r->s)->gpu);
        sr->ratio = r->measured_s / t;
        st_band b;
        if (!band_of(r, out->refused ? NULL : cal, &b)) {
            sr->covered = sr->ratio >= b.lo && sr->ratio <= b.hi;
            sr->width = b.hi - b.lo;
            out->covered += sr->covered;
        }
    }
    out->n_eval = ne;
    out->before = ne ? st_median_doubles(before, (size_t)ne) : 0;
    out->after = ne ? st_median_doubles(after, (size_t)ne) : 0;
    free(before);
    free(after);
    return rc;
}

/* The group of runs g[0..n): calibrate on those at its fewest GPUs, predict the rest. */
static int split_group(run **g, int n, st_valid_split *out, st_err *err)
{
    int64_t least = INT64_MAX;
    for (int i = 0; i < n; i++)
        least = job_of(g[i])->gpus < least ? job_of(g[i])->gpus : least;
    st_cal_result cr;
    out->n_cal = fit_least(g, n, least, &cr, out);
    const st_calib_cfg *cal = &cr.cal;
    int rc = predict_rest(g, n, least, cal, out, err);
    snprintf(out->set, sizeof out->set, "%s", g[0]->v->set);
    snprintf(out->gpu, sizeof out->gpu, "%s", st_scn_cluster(g[0]->s)->gpu->name);
    out->prec = (int)job_of(g[0])->precision;
    out->cal_gpus = least;
    out->factor = job_of(g[0])->precision == ST_PREC_FP8 ? cal->compute_fp8 : cal->compute_bf16;
    if (!out->refused)
        st_cal_release(&cr);
    return rc;
}

int st_valid_splits(const char *dir, st_valid_split **out, size_t *n_out, st_diag *d, st_err *err)
{
    *out = NULL;
    *n_out = 0;
    size_t nf = 0;
    char **files = st__valid_case_files(dir, &nf);
    if (!files)
        return st_err_set(err, ST_ENOTFOUND, (st_loc){dir, 0, 0}, "no case files in '%s'", dir);
    run *runs = st_xcalloc(nf, sizeof *runs);
    run **g = st_xcalloc(nf, sizeof *g);
    unsigned char *done = st_xcalloc(nf, 1);
    int rc = 0;
    size_t m = 0;
    for (size_t i = 0; i < nf && !rc; i++) {
        int r = load_run(files[i], &runs[m], d, err);
        if (r == 0)
            m++;
        else
            st_scn_free(runs[m].s); /* NULL when it did not load */
        if (r < 0)
            rc = r;
    }
    for (size_t i = 0; i < m && !rc; i++) {
        if (done[i])
            continue;
        int n = 0, scales = 0;
        for (size_t j = i; j < m; j++)
            if (!done[j] && same_group(&runs[i], &runs[j])) {
                done[j] = 1;
                g[n++] = &runs[j];
            }
        for (int a = 0; a < n; a++) /* distinct GPU counts */
            scales += job_of(g[a])->gpus != job_of(g[0])->gpus;
        if (n < 2 || scales == 0)
            continue;
        *out = st_xrealloc(*out, (*n_out + 1) * sizeof **out);
        memset(&(*out)[*n_out], 0, sizeof **out);
        rc = split_group(g, n, &(*out)[*n_out], err);
        *n_out += !rc;
    }
    for (size_t i = 0; i < m; i++)
        st_scn_free(runs[i].s);
    for (size_t i = 0; i < nf; i++)
        free(files[i]);
    free(files);
    free(runs);
    free(g);
    free(done);
    return rc;
}
