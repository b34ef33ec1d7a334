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

/* The row of key k when it is a sweepable row's name, else NULL. */
static const st_fig *sweepable(const char *k)
{
    for (size_t i = 0; i < st_fig_count; i++)
        if ((st_figs[i].flags & ST_FIG_SWEEP) && strcmp(st_fig_sweep_name(&st_figs[i]), k) == 0)
            return &st_figs[i];
    return NULL;
}

static const st_fig *find(st_fig_doc doc, const char *p);

/* What a key names that no column can hold, or NULL when a column can: text, an array, an
 * object of statistics or a map named without its member. */
static const char *not_a_column(const st_fig *f, const char *path)
{
    const char *after = strncmp(path, "jobs[].", 7) == 0 ? path + 7 : path;
    if (strchr(after, '[') || strchr(f->path + (after - path), '['))
        return "a list in the report: a column holds one number or boolean";
    if (f->unit == ST_FU_TEXT)
        return "text: a column holds a number or a boolean";
    if (strlen(f->path) == strlen(path) && (f->flags & ST_FIG_STATS))
        return "statistics: a column holds one of them, named after a dot (.mean, .ci95_lo, "
               ".ci95_hi, .p10, .p50, .p90 or .p99)";
    if (strlen(f->path) == strlen(path) && (f->flags & ST_FIG_MAP))
        return "a map: a column holds one of its members, named after a dot";
    return NULL;
}

/* The run row of key (a job's, or with ST_FIG_RUN_PREFIX the run's own) and, when no column
 * can hold it, why into *why; NULL when the key names no row. */
static const st_fig *key_row(const char *key, int *run, const char **why)
{
    const st_fig *f = sweepable(key);
    *why = NULL;
    *run = 0;
    if (f)
        return f;
    size_t pre = strlen(ST_FIG_RUN_PREFIX);
    *run = strncmp(key, ST_FIG_RUN_PREFIX, pre) == 0;
    char *path = *run ? st_xstrdup(key + pre) : st_xasprintf("jobs[].%s", key);
    f = *path && !(*run && strncmp(path, "jobs[]", 6) == 0) ? find(ST_DOC_RUN, path) : NULL;
    if (f)
        *why = not_a_column(f, path);
    free(path);
    return f;
}

const st_fig *st_fig_sweep_key(const char *key, int *run)
{
    const char *why;
    const st_fig *f = key_row(key, run, &why);
    return f && !why ? f : NULL;
}

const st_fig *st_fig_sweep_column(const char *col, size_t *job_len)
{
    int run;
    if (strncmp(col, ST_FIG_RUN_PREFIX, strlen(ST_FIG_RUN_PREFIX)) == 0) {
        const st_fig *f = st_fig_sweep_key(col, &run);
        if (f && run) {
            *job_len = 0;
            return f;
        }
    }
    for (const char *dot = strchr(col, '.'); dot; dot = strchr(dot + 1, '.')) {
        const st_fig *f = st_fig_sweep_key(dot + 1, &run);
        if (f && !run) {
            *job_len = (size_t)(dot - col);
            return f;
        }
    }
    return NULL;
}

/* A sweep point's figure column "JOB.NAME" or a run figure's: its row. */
static const st_fig *sweep_figure(const char *col)
{
    size_t job;
    return st_fig_sweep_column(col, &job);
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
void st_fig_grouped(double v, char *buf, size_t n)
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
    st_fig_grouped(strtod(d, NULL), buf, n);
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
    case ST_FU_SHARE: /* a tiny share in decimals: 0.000057%, not 5.651e-05% */
        st_unit_percent(v, buf, n);
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
        st_fig_grouped(v, buf, n);
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

/* Whether f, read from the run (run) or a job, is a statistic of replicas: a sweep runs each
 * point once, never replicas, so such a column would be empty on every row. */
static int of_replicas(const st_fig *f, int run)
{
    return !run && strncmp(f->path, "jobs[].replicas.", 16) == 0;
}

/* Every key a column can be named by, but the statistics and map members and what a sweep
 * refuses (a replicas' figure: 'replicas.mean' was told "did you mean 'replicas.n'?", which is
 * refused in turn): the names a wrong one is matched against (malloc'd, *m of them, each
 * malloc'd). */
static char **all_keys(size_t *m)
{
    char **names = st_xcalloc(2 * st_fig_count + 1, sizeof *names);
    *m = 0;
    for (const st_fig *f; (f = st_fig_sweep_col(*m)); ++*m)
        names[*m] = st_xstrdup(st_fig_sweep_name(f));
    for (size_t k = 0; k < st_fig_count; k++) {
        const st_fig *f = &st_figs[k];
        int job = strncmp(f->path, "jobs[].", 7) == 0, run;
        if (f->doc != ST_DOC_RUN || (f->flags & ST_FIG_SWEEP))
            continue;
        char *key = job ? st_xstrdup(f->path + 7) : st_xasprintf(ST_FIG_RUN_PREFIX "%s", f->path);
        if (st_fig_sweep_key(key, &run) == f && !of_replicas(f, run))
            names[(*m)++] = key;
        else
            free(key);
    }
    return names;
}

static void free_keys(char **names, size_t m)
{
    for (size_t k = 0; k < m; k++)
        free(names[k]);
    free(names);
}

/* Whether name is a replicas' statistic however it is prefixed: "replicas.n", or after a job's
 * name, "jobs[]." or "run." ("finetune.replicas.n"), which the hints below would turn into
 * "replicas.n", refused in turn. */
static int under_replicas(const char *name)
{
    for (const char *p = name; (p = strstr(p, "replicas.")) != NULL; p++)
        if (p == name || p[-1] == '.')
            return 1;
    return 0;
}

/* One name of --columns: its row, or a located error (with the nearest name, the name it was
 * renamed to, or what the key is when it is a row no column holds). */
static int sweep_one(const char *name, st_fig_col *out, st_diag *diag)
{
    const char *why;
    int run;
    const st_fig *f = key_row(name, &run, &why);
    /* a replicas' figure, or a name under replicas. ('replicas.mean'), is refused as one: told
     * "is statistics: ... .mean" or "did you mean 'replicas.n'?", the user was sent to a key
     * refused in turn */
    if ((f && of_replicas(f, run)) || under_replicas(name))
        return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                           "'%s': a sweep runs each point once, never replicas, so the column "
                           "would be empty on every row: `strata run --replicas N` gives the "
                           "replicas' statistics of one point",
                           name);
    if (f && !why) {
        *out = (st_fig_col){f, run, st_xstrdup(name)};
        return 0;
    }
    if (f)
        return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0}, "'%s' is %s", name, why);
    /* a job's figure named by its whole path ("jobs[].mfu", "run.jobs[].mfu") */
    const char *whole = strstr(name, "jobs[].");
    int is_run;
    if (whole && (whole == name || whole == name + strlen(ST_FIG_RUN_PREFIX)) &&
        st_fig_sweep_key(whole + 7, &is_run) && !is_run)
        return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                           "'%s': a job's figure is named by its path after jobs[] ('%s'), "
                           "and every job gets it",
                           name, whole + 7);
    size_t m;
    char **names = all_keys(&m);
    const char *hint_for = name, *renamed_to[1];
    for (size_t k = 0; k < sizeof renamed / sizeof renamed[0]; k++)
        if (strcmp(renamed[k][0], name) == 0)
            hint_for = renamed_to[0] = renamed[k][1];
    /* a job's name put before a column ("finetune.tokens_per_s"): the table's heads read so,
     * but a column is named once for every job */
    const char *dot = strchr(name, '.');
    int rc = 0, bare;
    if (dot && hint_for == name && st_fig_sweep_key(dot + 1, &bare) && !bare)
        rc = st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                         "'%s': a column is named without its job ('%s'), and every job "
                         "gets it",
                         name, dot + 1);
    char hint[300];
    if (!rc)
        rc = st_diag_add(
            diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
            "'%s' is not a report key a sweep row can hold%s (strata sweep --help lists them)",
            name,
            hint_for != name
                ? st_did_you_mean(hint_for, renamed_to, 1, hint, sizeof hint)
                : st_did_you_mean(name, (const char *const *)names, m, hint, sizeof hint));
    free_keys(names, m);
    return rc;
}

/* The sweep columns flagged `flag` (a default set), and the one at path `cost` (NULL: none), in
 * the columns' order, onto cols[*n...]. */
static void add_defaults(st_fig_col *cols, size_t *n, unsigned flag, const char *cost)
{
    for (size_t k = 0; st_fig_sweep_col(k); k++) {
        const st_fig *f = st_fig_sweep_col(k);
        if (f->flags & flag || (cost && strcmp(f->path, cost) == 0))
            cols[(*n)++] = (st_fig_col){f, 0, st_xstrdup(st_fig_sweep_name(f))};
    }
}

int st_fig_sweep_parse(const char *arg, st_fig_col **out, size_t *n, st_diag *diag)
{
    size_t cap = 1;
    for (const char *p = arg ? arg : ""; *p; p++)
        cap += *p == ',';
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        cap++;
    st_fig_col *cols = st_xcalloc(cap, sizeof *cols);
    *out = cols;
    *n = 0;
    if (!arg)
        add_defaults(cols, n, ST_FIG_SWEEP_DEF, NULL);
    for (const char *at = arg; at;) {
        const char *end = strchr(at, ',');
        char *name = st_xstrndup(at, end ? (size_t)(end - at) : strlen(at));
        st_fig_col c = {0};
        int rc = sweep_one(name, &c, diag);
        /* one figure twice, however named (p99 and a stat's p99 are one key each) */
        for (size_t j = 0; !rc && j < *n; j++)
            if (strcmp(cols[j].name, c.name) == 0)
                rc = st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                                 "'%s' is given twice", name);
        free(name);
        if (rc) {
            free(c.name);
            return rc;
        }
        cols[(*n)++] = c;
        at = end ? end + 1 : NULL;
    }
    return 0;
}

/* Room for every sweep column, none taken yet. */
static st_fig_col *no_cols(st_fig_col **out, size_t *n)
{
    size_t cap = 1;
    for (size_t k = 0; st_fig_sweep_col(k); k++)
        cap++;
    *n = 0;
    return *out = st_xcalloc(cap, sizeof **out);
}

void st_fig_sweep_defaults(st_fig_col **out, size_t *n, int with_cost)
{
    add_defaults(no_cols(out, n), n, ST_FIG_SWEEP_DEF, with_cost ? "jobs[].cost.total_usd" : NULL);
}

void st_fig_sweep_serve_defaults(st_fig_col **out, size_t *n, int with_cost)
{
    add_defaults(no_cols(out, n), n, ST_FIG_SWEEP_DEF_SERVE,
                 with_cost ? "jobs[].inference.cost_per_million_tokens_usd" : NULL);
}

void st_fig_cols_free(st_fig_col *cols, size_t n)
{
    for (size_t k = 0; cols && k < n; k++)
        free(cols[k].name);
    free(cols);
}

int st_fig_col_reads_report(const st_fig_col *c)
{
    return c->run || !(c->f->flags & ST_FIG_SWEEP);
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
    if (serving && f->src != ST_SRC_JOB_ENERGY) /* its serving figures, cost and energy alone */
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

/* The leaf at dotted path key under node (an object's keys, none holding a dot), or NULL. */
static const cJSON *leaf_at(const cJSON *node, const char *key)
{
    for (const char *at = key; node && at;) {
        const char *dot = strchr(at, '.');
        char *k = st_xstrndup(at, dot ? (size_t)(dot - at) : strlen(at));
        node = cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, k) : NULL;
        free(k);
        at = dot ? dot + 1 : NULL;
    }
    return node;
}

/* A cell read from the run's JSON report: the number as run --format json prints it (every
 * digit), a boolean's true or false, "" where the report has none. */
static void report_cell(const st_fig_col *c, size_t i, const cJSON *report, char *buf, size_t n)
{
    const cJSON *node = report;
    if (!c->run)
        node = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "jobs"), (int)i);
    node = node ? leaf_at(node, c->run ? c->name + strlen(ST_FIG_RUN_PREFIX) : c->name) : NULL;
    if (cJSON_IsNumber(node))
        st_report_number_exact(node->valuedouble, buf, n);
    else if (cJSON_IsBool(node))
        snprintf(buf, n, "%s", cJSON_IsTrue(node) ? "true" : "false");
    else
        snprintf(buf, n, "%s", "");
}

void st_fig_sweep_cell(const st_fig_col *c, const st_run *run, size_t i, const cJSON *report,
                       char *buf, size_t n)
{
    if (st_fig_col_reads_report(c)) {
        report_cell(c, i, report, buf, n);
        return;
    }
    const st_fig *f = c->f;
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
