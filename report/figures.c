/* The report's schema read by the writers (report/figures.h): a leaf's row, a number as a reader
 * sees it in its unit, sweep's columns and the results they read. The rows are in
 * figures_table.c. */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/run.h"
#include "report/report.h"
#include "scenarios/reader.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

static const struct {
    const char *name;
    st_dim dim; /* ST_DIM__COUNT: printed by the report's own rule */
} units[ST_FU__COUNT] = {
#define ST__FIG_UNIT_ROW(e, n, d) {n, d},
    ST_FIG_UNITS(ST__FIG_UNIT_ROW)
#undef ST__FIG_UNIT_ROW
};

const char *st_fig_unit_name(st_fig_unit u)
{
    return (unsigned)u < ST_FU__COUNT ? units[u].name : NULL;
}

st_dim st_fig_unit_dim(st_fig_unit u)
{
    return (unsigned)u < ST_FU__COUNT ? units[u].dim : ST_DIM__COUNT;
}

const char *st_fig_doc_name(st_fig_doc d)
{
    static const char *const names[ST_DOC__COUNT] = {"run", "compare", "sweep", "size"};
    return (unsigned)d < ST_DOC__COUNT ? names[d] : NULL;
}

const char *const st_fig_stat_names[] = {"mean", "ci95_lo", "ci95_hi", "p10",
                                         "p50",  "p90",     "p99",     NULL};

const char *st_fig_stat_label(const char *name)
{
    static const char *const labels[] = {
        "mean", "95% CI of the mean, low end", "95% CI of the mean, high end", "P10", "P50", "P90",
        "P99"};
    for (size_t k = 0; st_fig_stat_names[k]; k++)
        if (strcmp(name, st_fig_stat_names[k]) == 0)
            return labels[k];
    return name;
}

/* A path in a document's terms: array indices of digits dropped ("jobs[0]" is "jobs[]"); a
 * name in brackets (a sweep axis's "workloads[pretrain]") is kept. */
static char *normal_path(const char *path)
{
    char *out = st_xmalloc(strlen(path) + 1), *o = out;
    for (const char *p = path; *p; p++) {
        *o++ = *p;
        if (*p != '[')
            continue;
        const char *q = p + 1;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > p + 1 && *q == ']')
            p = q - 1; /* the digits are skipped; the ']' is copied next */
    }
    *o = '\0';
    return out;
}

static const st_fig *exact(st_fig_doc doc, const char *path, size_t len, unsigned need)
{
    for (size_t k = 0; k < st_fig_count; k++) {
        const st_fig *f = &st_figs[k];
        if (f->doc == doc && (f->flags & need) == need && strlen(f->path) == len &&
            strncmp(f->path, path, len) == 0)
            return f;
    }
    return NULL;
}

static int is_stat(const char *name)
{
    for (size_t k = 0; st_fig_stat_names[k]; k++)
        if (strcmp(name, st_fig_stat_names[k]) == 0)
            return 1;
    return 0;
}

const char *st_fig_sweep_name(const st_fig *f)
{
    return f->path + strlen("jobs[].");
}

/* A sweep point's figure column "JOB.NAME": the sweepable row whose name ends it after a dot,
 * the longest first (a job's name may hold dots; the columns' names do). */
static const st_fig *sweep_figure(const char *col)
{
    for (const char *dot = strchr(col, '.'); dot; dot = strchr(dot + 1, '.'))
        for (size_t k = 0; k < st_fig_count; k++)
            if ((st_figs[k].flags & ST_FIG_SWEEP) &&
                strcmp(st_fig_sweep_name(&st_figs[k]), dot + 1) == 0)
                return &st_figs[k];
    return NULL;
}

/* The row of the normalised path p in doc. */
static const st_fig *find(st_fig_doc doc, const char *p)
{
    size_t len = strlen(p);
    const st_fig *f = exact(doc, p, len, 0);
    if (f)
        return f;
    const char *last = strrchr(p, '.');
    if (last) { /* a member of a stats object or of a map */
        f = exact(doc, p, (size_t)(last - p), 0);
        if (f && (f->flags & ST_FIG_MAP || (f->flags & ST_FIG_STATS && is_stat(last + 1))))
            return f;
    }
    static const char spread[] = "policies[].spread.", pts[] = "points[].";
    if (doc == ST_DOC_COMPARE && strncmp(p, spread, sizeof spread - 1) == 0) {
        char *q = st_xasprintf("policies[].%s", p + sizeof spread - 1);
        f = exact(doc, q, strlen(q), ST_FIG_SPREAD);
        free(q);
        return f;
    }
    if (doc == ST_DOC_SIZE && strncmp(p, "front[].", 8) == 0) {
        char *q = st_xasprintf("ranked[].%s", p + 8);
        f = exact(doc, q, strlen(q), 0);
        free(q);
        return f;
    }
    if (doc == ST_DOC_SWEEP && strncmp(p, pts, sizeof pts - 1) == 0)
        return sweep_figure(p + sizeof pts - 1);
    return NULL;
}

const st_fig *st_fig_find(st_fig_doc doc, const char *path)
{
    char *p = normal_path(path);
    const st_fig *f = find(doc, p);
    free(p);
    return f;
}

/* A whole number as a reader takes it in: from 10,000 up, its thousands set apart by commas
 * ("16,384", "405,853,388,800"); below, as is ("2048", so years and small counts read as
 * written). The exact value stays in the JSON and in each HTML cell's data-value. */
static void grouped(double v, char *buf, size_t n)
{
    if (fabs(v) < 10000) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    /* |v| < 1e15: at most 15 digits, 4 commas and a sign, all ASCII, so no cut splits a
     * character */
    char d[24], out[24];
    snprintf(d, sizeof d, "%.0f", fabs(v));
    size_t len = strlen(d), at = 0;
    if (v < 0)
        out[at++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[at++] = ',';
        out[at++] = d[i];
    }
    out[at] = '\0';
    snprintf(buf, n, "%s", out);
}

/* A figure of 10,000 and more at the 4 significant digits every figure is shown with, its
 * thousands set apart ("51,240,000", where %.4g wrote 51240000 or 5.124e+07); 0 when v is
 * outside [10^4, 10^15), which the caller writes its own way. */
static int grouped_sig(double v, char *buf, size_t n)
{
    if (!(fabs(v) >= 10000 && fabs(v) < 1e15))
        return 0;
    char d[32];
    snprintf(d, sizeof d, "%.4g", v);
    grouped(strtod(d, NULL), buf, n);
    return 1;
}

void st_fig_number_text(st_fig_unit u, double v, char *buf, size_t n)
{
    char b[40];
    switch (u) {
    case ST_FU_MONEY:
        if (!grouped_sig(v, b, sizeof b))
            break;
        snprintf(buf, n, "%s USD", b);
        return;
    case ST_FU_USD_PER_HOUR:
    case ST_FU_USD_PER_DAY:
    case ST_FU_USD_PER_YEAR: /* money, then its period: "2,788,000 USD/year" */
        st_fig_number_text(ST_FU_MONEY, v, b, sizeof b);
        snprintf(buf, n, "%s%s", b, strchr(units[u].name, '/')); /* "USD/year": "/year" */
        return;
    case ST_FU_SHARE:
        snprintf(buf, n, "%.4g%%", v * 100);
        return;
    case ST_FU_BYTES_PER_DAY:
        st_unit_format(v, ST_DIM_BYTES, b, sizeof b);
        snprintf(buf, n, "%s/day", b); /* as the text and the audit say it */
        return;
    case ST_FU_FLOW:
        /* the units.md ladder: a mantissa in [1, 1000) (an air flow of 4.14 m3/s, a rack's
         * coolant at 230 mL/s, not 0.00023 m3/s) */
        if (fabs(v) >= 1 || v == 0)
            snprintf(buf, n, "%.4g m3/s", v);
        else if (fabs(v) >= 1e-3)
            snprintf(buf, n, "%.4g L/s", v * 1e3);
        else
            snprintf(buf, n, "%.4g mL/s", v * 1e6);
        return;
    case ST_FU_PER_S:
        if (grouped_sig(v, b, sizeof b))
            snprintf(buf, n, "%s/s", b);
        else
            snprintf(buf, n, "%.4g/s", v);
        return;
    case ST_FU_USD_PER_TOKEN: /* as run's text and size say it: 3.193, not 3.193e-6 USD */
        snprintf(buf, n, "%.4g USD per million tokens", v * 1e6);
        return;
    case ST_FU_FREQUENCY:
        snprintf(buf, n, "%.4g Hz", v);
        return;
    default:
        break;
    }
    if ((unsigned)u < ST_FU__COUNT && units[u].dim != ST_DIM__COUNT)
        st_unit_format(v, units[u].dim, buf, n);
    else if (v == floor(v) && fabs(v) < 1e15)
        grouped(v, buf, n);
    else if (!grouped_sig(v, buf, n))
        snprintf(buf, n, "%.4g", v);
}

const char *st_fig_words(const st_fig *f, const char *v)
{
    for (const char *const *w = f && f->words ? f->words : NULL; w && w[0]; w += 2)
        if (strcmp(w[0], v) == 0)
            return w[1];
    return v;
}

st_fig_text st_fig_plain(double v)
{
    st_fig_text t;
    st_fig_number_text(ST_FU_NUMBER, v, t.s, sizeof t.s);
    return t;
}

const char *st_fig_money(double v, char *buf, size_t n)
{
    st_fig_number_text(ST_FU_MONEY, v, buf, n);
    size_t l = strlen(buf);
    if (l > 4 && strcmp(buf + l - 4, " USD") == 0)
        buf[l - 4] = '\0';
    return buf;
}

const st_fig *st_fig_sweep_col(size_t k)
{
    for (size_t i = 0; i < st_fig_count; i++)
        if (st_figs[i].flags & ST_FIG_SWEEP && st_figs[i].sweep == k + 1)
            return &st_figs[i];
    return NULL;
}

static int serve_src(st_fig_src src)
{
    return src >= ST_SRC_SERVE && src <= ST_SRC_SERVE_LOOP;
}

/* The sweep columns of one kind of job into out, wrapped: a training job's (serve 0), a
 * service's own (1), or the cost columns a service shares with a training job (2). */
static void sweep_help_cols(FILE *out, int serve, size_t *col)
{
    for (size_t k = 0; st_fig_sweep_col(k); k++) {
        const st_fig *f = st_fig_sweep_col(k);
        if (serve == 2 ? f->src != ST_SRC_COST : serve_src(f->src) != serve)
            continue;
        const char *name = st_fig_sweep_name(f);
        if (*col > 1 && *col + strlen(name) + 2 > 88) {
            fputs(",\n ", out);
            *col = 1;
        } else if (*col > 1) {
            fputc(',', out);
            ++*col;
        }
        fprintf(out, " %s", name);
        *col += 1 + strlen(name);
    }
}

void st_fig_sweep_help(FILE *out)
{
    static const char *const head[2] = {"columns of a training job", "columns of a service"};
    for (int serve = 0; serve < 2; serve++) {
        fprintf(out, "%s:\n ", head[serve]);
        size_t col = 1;
        sweep_help_cols(out, serve, &col);
        if (serve) /* a service's own cost, as a training job's (job_source) */
            sweep_help_cols(out, 2, &col);
        fputc('\n', out);
    }
}

/* Sweep columns renamed to the JSON report's path for the same figure: the old name is refused
 * with the new one as its suggestion. */
static const char *const renamed[][2] = {
    {"cost.capex_usd", "cost.breakdown.capex_usd"},
    {"cost.energy_usd", "cost.breakdown.energy_usd"},
    {"cost.demand_usd", "cost.breakdown.demand_usd"},
    {"cost.maintenance_usd", "cost.breakdown.maintenance_usd"},
    {"cost.staff_usd", "cost.breakdown.staff_usd"},
    {"cost.gpu_usd", "cost.breakdown.gpu_usd"},
    {"cost.storage_usd", "cost.breakdown.storage_usd"},
    {"cost.egress_usd", "cost.breakdown.egress_usd"},
};

/* One name of --columns: its row, or a located error (with the nearest name, or the name it
 * was renamed to). */
static int sweep_one(const char *name, const st_fig **out, st_diag *diag)
{
    const char *names[128], *hint_for = name;
    size_t m = 0;
    for (const st_fig *f; m < 128 && (f = st_fig_sweep_col(m)); m++) {
        names[m] = st_fig_sweep_name(f);
        if (strcmp(names[m], name) == 0) {
            *out = f;
            return 0;
        }
    }
    for (size_t k = 0; k < sizeof renamed / sizeof renamed[0]; k++)
        if (strcmp(renamed[k][0], name) == 0) {
            names[0] = renamed[k][1];
            hint_for = renamed[k][1];
            m = 1;
        }
    /* a job's name put before a column ("finetune.tokens_per_s"): the table's heads read so,
     * but a column is named once for every job */
    const char *dot = strchr(name, '.');
    for (size_t k = 0; dot && k < m; k++)
        if (strcmp(names[k], dot + 1) == 0)
            return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                               "'%s': a column is named without its job ('%s'), and every job "
                               "gets it",
                               name, dot + 1);
    char hint[300];
    return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                       "'%s' is not a report key a sweep row can hold%s (strata sweep --help "
                       "lists them)",
                       name, st_did_you_mean(hint_for, names, m, hint, sizeof hint));
}

int st_fig_sweep_parse(const char *arg, const st_fig ***out, size_t *n, st_diag *diag)
{
    size_t cap = 1;
    for (const char *p = arg ? arg : ""; *p; p++)
        cap += *p == ',';
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        cap++;
    const st_fig **cols = st_xcalloc(cap, sizeof *cols);
    *out = cols;
    *n = 0;
    for (size_t k = 0; !arg && st_fig_sweep_col(k); k++)
        if (st_fig_sweep_col(k)->flags & ST_FIG_SWEEP_DEF)
            cols[(*n)++] = st_fig_sweep_col(k);
    for (const char *at = arg; at;) {
        const char *end = strchr(at, ',');
        char *name = st_xstrndup(at, end ? (size_t)(end - at) : strlen(at));
        const st_fig *f = NULL;
        int rc = sweep_one(name, &f, diag);
        for (size_t j = 0; !rc && j < *n; j++)
            if (cols[j] == f)
                rc = st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                                 "'%s' is given twice", name);
        free(name);
        if (rc)
            return rc;
        cols[(*n)++] = f;
        at = end ? end + 1 : NULL;
    }
    return 0;
}

void st_fig_sweep_serve_defaults(const st_fig ***out, size_t *n)
{
    size_t cap = 1;
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        cap++;
    const st_fig **cols = st_xcalloc(cap, sizeof *cols);
    *out = cols;
    *n = 0;
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        if (st_fig_sweep_col(k)->flags & ST_FIG_SWEEP_DEF_SERVE)
            cols[(*n)++] = st_fig_sweep_col(k);
}

/* The source struct of f in job forecast fc, or NULL where fc has none (or f reads no job's). */
static const void *forecast_source(const st_fig *f, const st_forecast *fc)
{
    switch (f->src) {
    case ST_SRC_STEP:
        return fc->has_step ? &fc->step : NULL;
    case ST_SRC_MEM:
        return &fc->mem;
    case ST_SRC_LIFE:
        return fc->has_life ? &fc->life : NULL;
    case ST_SRC_JOB:
        return fc->has_life ? fc : NULL;
    case ST_SRC_COST:
        return fc->has_cost ? &fc->cost : NULL;
    case ST_SRC_CKPT:
        return fc->has_ckpt ? &fc->ckpt : NULL;
    case ST_SRC_SUMMARY:
        return fc->summary.replicas > 0 ? &fc->summary : NULL;
    default:
        return NULL;
    }
}

/* The serving result of service s for figure source src, or NULL where its report leaves the
 * figure out (report/serve_out.c): a cost without prices, a figure under a target without one,
 * a closed loop's figure for a stated rate. */
static const st_serve_result *serve_source(st_fig_src src, const st_run_serve *s)
{
    const st_serve_result *r = &s->r;
    switch (src) {
    case ST_SRC_SERVE:
        return r;
    case ST_SRC_SERVE_COST:
        return r->has_cost ? r : NULL;
    case ST_SRC_SERVE_SLO:
        return r->has_slo ? r : NULL;
    case ST_SRC_SERVE_LOOP:
        return r->has_slo && s->w->inference.mode == ST_REQ_CLOSED ? r : NULL;
    default:
        return NULL;
    }
}

/* The source struct of f for job i of run, or NULL where the run has none. */
static const void *job_source(const st_fig *f, const st_run *run, size_t i)
{
    int serving = run->serve && run->serve[i].w;
    if (serving && f->src == ST_SRC_COST) /* its TCO, as a training job's */
        return run->serve[i].r.has_cost ? &run->serve[i].cost : NULL;
    if (serving) /* an inference job has its serving figures alone, and its cost */
        return serve_source(f->src, &run->serve[i]);
    if (serve_src(f->src))
        return NULL;
    if (f->src != ST_SRC_JOB_ENERGY)
        return forecast_source(f, &run->f[i]);
    for (size_t k = 0; run->has_plant && k < run->plant.n_jobs; k++)
        if (run->plant.jobs[k].id == i && run->plant.jobs[k].energy_j > 0)
            return &run->plant.jobs[k];
    return NULL;
}

const st_fig *st_fig_of_metric(st_valid_metric m)
{
    for (size_t k = 0; k < st_fig_count; k++)
        if (st_figs[k].metric == (unsigned)m + 1 || st_figs[k].metric_p99 == (unsigned)m + 1)
            return &st_figs[k];
    return NULL;
}

double st_fig_read_metric(st_valid_metric m, const void *base)
{
    const st_fig *f = st_fig_of_metric(m);
    if (f->metric_p99 != (unsigned)m + 1)
        return st_fig_read(f, base);
    return *(const double *)(const void *)((const char *)base + f->off_p99);
}

int st_fig_job_value(const st_fig *f, const st_forecast *fc, double *v)
{
    const void *base = forecast_source(f, fc);
    if (base)
        *v = st_fig_read(f, base);
    return base != NULL;
}

double st_fig_read(const st_fig *f, const void *base)
{
    const char *at = (const char *)base + f->off;
    if (f->ctype == ST_FIG_INT)
        return *(const int *)(const void *)at;
    if (f->ctype == ST_FIG_I64)
        return (double)*(const int64_t *)(const void *)at;
    return *(const double *)(const void *)at;
}

void st_fig_sweep_cell(const st_fig *f, const st_run *run, size_t i, char *buf, size_t n)
{
    const char *base = job_source(f, run, i);
    if (!base)
        snprintf(buf, n, "%s", "");
    else if (f->unit == ST_FU_BOOL)
        snprintf(buf, n, "%s", st_fig_read(f, base) != 0 ? "true" : "false");
    else if (f->ctype == ST_FIG_I64)
        snprintf(buf, n, "%lld", (long long)*(const int64_t *)(const void *)(base + f->off));
    else
        st_report_number_exact(st_fig_read(f, base), buf, n);
}
