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

/* The group of runs g[0..n): calibrate on those at its fewest GPUs, predict the rest. */
static int split_group(run **g, int n, st_valid_split *out, st_err *err)
{
    int64_t least = INT64_MAX;
    for (int i = 0; i < n; i++)
        least = job_of(g[i])->gpus < least ? job_of(g[i])->gpus : least;
    st_cal_step *steps = st_xcalloc((size_t)n, sizeof *steps);
    int nc = 0;
    for (int i = 0; i < n; i++)
        if (job_of(g[i])->gpus == least)
            steps[nc++] = (st_cal_step){job_of(g[i]), g[i]->measured_s, st_scn_cluster(g[i]->s)};
    st_cal_input in = {.c = st_scn_cluster(g[0]->s), .steps = steps, .n_steps = (size_t)nc};
    st_cal_result cr;
    int rc = st_calibrate(&in, &cr, err);
    free(steps);
    if (rc) { /* no plausible factor: the split says so, with the model alone */
        st_cal_release(&cr);
        memset(&cr, 0, sizeof cr);
        *err = (st_err){0};
        out->refused = 1;
        rc = 0;
    }
    const st_calib_cfg *cal = &cr.cal;
    double *before = st_xcalloc((size_t)n, sizeof *before),
           *after = st_xcalloc((size_t)n, sizeof *after);
    int ne = 0;
    for (int i = 0; i < n && !rc; i++) {
        const run *r = g[i];
        if (job_of(r)->gpus == least)
            continue;
        double t = r->predicted_s;
        if (!out->refused && (rc = predict(r, cal, &t, err)))
            break;
        before[ne] = fabs(r->predicted_s / r->measured_s - 1);
        after[ne] = fabs(t / r->measured_s - 1);
        /* the band run would give it: the calibration's own, else the public runs' without
         * this one (leave-one-out, as --band) */
        st_band b;
        st_band_key k = st_band_key_of(job_of(r), st_scn_cluster(r->s)->gpu);
        ptrdiff_t self = -1;
        for (size_t j = 0; j < st_band_row_count && self < 0; j++)
            if (strcmp(st_band_rows[j].name, st_scn_name(r->s)) == 0)
                self = (ptrdiff_t)j;
        if ((!out->refused && !st_band_own(cal->residuals, cal->n_residuals, &b)) ||
            !st_band_from(k, st_band_rows, st_band_row_count, self, NULL, &b))
            out->covered += r->measured_s / t >= b.lo && r->measured_s / t <= b.hi;
        ne++;
    }
    snprintf(out->set, sizeof out->set, "%s", g[0]->v->set);
    snprintf(out->gpu, sizeof out->gpu, "%s", st_scn_cluster(g[0]->s)->gpu->name);
    out->prec = (int)job_of(g[0])->precision;
    out->n_cal = nc;
    out->cal_gpus = least;
    out->n_eval = ne;
    out->factor = job_of(g[0])->precision == ST_PREC_FP8 ? cal->compute_fp8 : cal->compute_bf16;
    out->before = ne ? st_median_doubles(before, (size_t)ne) : 0;
    out->after = ne ? st_median_doubles(after, (size_t)ne) : 0;
    free(before);
    free(after);
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
