/* `strata run --format html`: the run's report as one self-contained HTML page, titled with the
 * scenario's name. First the answer in words (report/summary.c) and the audit, failures and
 * warnings first and marked; then the charts; then tables of every value of the JSON report
 * (parsed back from st_report_json, so they are its numbers, each cell carrying its JSON key and
 * text), each figure named by its row's label in the report's schema. The charts draw the same
 * values (the cost breakdown, the step and memory), and the series the JSON leaves out: the
 * facility waveform and its spectrum (models/plant/wave_series.h), the replicas' wall-time
 * distribution (models/reliability/lifetime.h) and the queue waits. A chart with nothing to draw
 * is a sentence saying why, never an empty frame. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/plant/wave_series.h"
#include "report/html.h"
#include "report/report.h"
#include "report/svg.h"
#include "sim/strfmt.h"
#include "sim/xalloc.h"

typedef struct kv_ctx {
    FILE *out;
    size_t skip;          /* the prefix's length, left out of the row's key */
    const st_report *rep; /* whose scenario qualifies a label (st_report_run_label) */
} kv_ctx;

static void kv_row(void *ctx, const char *path, const cJSON *leaf)
{
    kv_ctx *k = ctx;
    char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX];
    const char *key = path + (strlen(path) > k->skip ? k->skip : 0);
    const char *text = st_report_value_text(ST_DOC_RUN, path, leaf, tb, sizeof tb);
    key += key[0] == '.';
    char *label = st_report_run_label(k->rep, path, key),
         *hover = st_xasprintf("%s (JSON key %s)", label, path);
    st_html_row_begin(k->out);
    st_html_cell_class(k->out, NULL, hover, label); /* on hover: its label, then its key */
    if (cJSON_IsNumber(leaf)) {
        st_html_cell_num_named(k->out, label, path, st_report_value_exact(leaf, eb, sizeof eb),
                               text);
    } else {
        st_html_cell(k->out, text);
    }
    st_html_row_end(k->out);
    free(hover);
    free(label);
}

/* A figure | value table of every leaf under node, whose path is prefix. */
static void kv_table(FILE *out, const char *id, const cJSON *node, const char *prefix,
                     const st_report *rep)
{
    static const char *const heads[] = {"Figure", "Value"};
    st_html_table_begin(out, id, heads, 2);
    kv_ctx k = {out, strlen(prefix), rep};
    st_report_leaves(node, prefix, kv_row, &k);
    st_html_table_end(out);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The object at the dotted path under o ("cost.breakdown"), or NULL. */
static const cJSON *at(const cJSON *o, const char *path)
{
    char key[64]; /* a key of the report: a short name */
    while (o && *path) {
        size_t n = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, path);
        o = cJSON_GetObjectItemCaseSensitive(o, key);
        path += n + (path[n] == '.');
    }
    return o;
}

/* Stacked bars over the jobs of the report: the parts keys[0..n) of the object at obj (a dotted
 * path) times scale, and the limit key (or NULL). Returns 0 when no job has obj. */
static int job_bars(FILE *out, const cJSON *jobs, const char *obj, const char *const *keys,
                    const char *const *names, size_t n, const char *limit, double scale,
                    const st_svg_frame *f)
{
    size_t nj = (size_t)cJSON_GetArraySize(jobs), m = 0;
    const char **cats = st_xcalloc(nj + 1, sizeof *cats);
    double *v = st_xcalloc((nj + 1) * n, sizeof *v), *lim = st_xcalloc(nj + 1, sizeof *lim);
    for (const cJSON *j = jobs->child; j; j = j->next) {
        const cJSON *o = at(j, obj);
        if (!o)
            continue;
        cats[m] = cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring;
        for (size_t k = 0; k < n; k++)
            v[m * n + k] = num(o, keys[k]) * scale;
        lim[m++] = limit ? num(o, limit) * scale : NAN;
    }
    st_svg_bars b = {cats, m, names, n, v, limit ? lim : NULL, "capacity"};
    if (m)
        st_svg_bars_chart(out, f, &b);
    free(cats);
    free(v);
    free(lim);
    return m > 0;
}

static void absent(FILE *out, const char *why)
{
    st_html_para(out, "absent", why);
}

/* Job k's replicas over its load curve, k an autoscaled service: those up, and those its load
 * asks for (the rate over the target rate a replica is given), hours on x. */
static void replicas_chart(FILE *out, const cJSON *job, int k)
{
    const cJSON *tl = at(job, "inference.timeline");
    size_t n = (size_t)cJSON_GetArraySize(tl);
    double *x = st_xmalloc(n * sizeof *x), *up = st_xmalloc(n * sizeof *up),
           *asked = st_xmalloc(n * sizeof *asked);
    size_t i = 0;
    for (const cJSON *p = tl->child; p; p = p->next, i++) {
        x[i] = num(p, "t_s") / 3600;
        up[i] = num(p, "replicas_up");
        asked[i] = num(p, "replicas_asked");
    }
    const char *name = cJSON_GetObjectItemCaseSensitive(job, "name")->valuestring;
    char id[48]; /* ASCII: the prefix and an int */
    snprintf(id, sizeof id, "serving-replicas-%d", k);
    char *title = st_xasprintf("Replicas of %s over its load curve", name); /* whole: no cut */
    st_svg_frame f = {.id = id,
                      .title = title,
                      .x_label = "hours from the curve's first point",
                      .y_label = "replicas",
                      .y_from_zero = 1,
                      .x_from_zero = 1};
    st_svg_series s[] = {{"up", x, up, n, ST_SVG_LINE},
                         {"asked by the load", x, asked, n, ST_SVG_LINE}};
    st_svg_xy(out, &f, s, 2);
    free(title);
    free(x);
    free(up);
    free(asked);
}

static void step_and_memory(FILE *out, const cJSON *jobs)
{
    static const char *const bk[] = {"compute_s",         "tp_comm_s", "pp_comm_s",
                                     "dp_comm_exposed_s", "bubble_s",  "optimizer_s",
                                     "straggler_s",       "noise_s",   "overhead_s"};
    static const char *const bn[] = {"compute",
                                     "TP comm",
                                     "PP comm",
                                     "DP comm (exposed)",
                                     "pipeline bubble",
                                     "optimizer",
                                     "wait for the slowest GPU",
                                     "wait for noise-detoured ranks",
                                     "per-step overhead (calibrated)"};
    static const char *const mk[] = {"weights_bytes", "gradients_bytes", "optimizer_bytes",
                                     "activations_bytes", "reserved_bytes"};
    static const char *const mn[] = {"weights", "gradients", "optimizer states", "activations",
                                     "reserved"};
    st_svg_frame fs = {.id = "step-breakdown",
                       .title = "Step time by part, per training job",
                       .x_label = "seconds"};
    st_html_section(out, "sec-step-breakdown");
    /* The six parts every step has, then each of the waits (cluster.variability) and the
     * calibrated overhead only where a job has one. */
    const char *keys[sizeof bk / sizeof bk[0]], *names[sizeof bk / sizeof bk[0]];
    size_t parts = 0;
    for (size_t k = 0; k < sizeof bk / sizeof bk[0]; k++) {
        int any = k < 6;
        for (const cJSON *j = jobs->child; j && !any; j = j->next)
            any = at(j, "breakdown") && num(at(j, "breakdown"), bk[k]) > 0;
        if (any) {
            keys[parts] = bk[k];
            names[parts++] = bn[k];
        }
    }
    if (!job_bars(out, jobs, "breakdown", keys, names, parts, NULL, 1, &fs))
        absent(out, "No training job was simulated: there is no step to break down.");
    st_html_section_end(out);
    st_svg_frame fm = {.id = "memory-per-gpu",
                       .title = "Memory per GPU (most loaded GPU) against its capacity",
                       .x_label = "GB (10^9 bytes)"};
    st_html_section(out, "sec-memory-per-gpu");
    if (!job_bars(out, jobs, "memory", mk, mn, 5, "capacity_bytes", 1e-9, &fm))
        absent(out, "No training job: no memory forecast.");
    st_html_section_end(out);
    /* a service's GPU: its weights and activations, and the KV cache the rest of its share is */
    static const char *const sk[] = {"weights_bytes", "activations_bytes", "reserved_bytes",
                                     "kv_cache_bytes"};
    static const char *const sn[] = {"weights", "activations", "reserved", "KV cache"};
    st_svg_frame fv = {.id = "serving-memory",
                       .title = "Memory per GPU of each service against the engine's share",
                       .x_label = "GB (10^9 bytes)"};
    int services = 0;
    for (const cJSON *j = jobs->child; j && !services; j = j->next)
        services = at(j, "inference.memory") != NULL;
    if (services) {
        st_html_section(out, "sec-serving-memory");
        job_bars(out, jobs, "inference.memory", sk, sn, 4, "usable_bytes", 1e-9, &fv);
        st_html_section_end(out);
    }
    int k = 0, opened = 0;
    for (const cJSON *j = jobs->child; j; j = j->next, k++) {
        if (!at(j, "inference.timeline"))
            continue;
        if (!opened++)
            st_html_section(out, "sec-serving-replicas");
        replicas_chart(out, j, k);
    }
    if (opened)
        st_html_section_end(out);
}

/* The facility waveform and its spectrum, from the plant's decimated series. */
static void power_charts(FILE *out, const st_run *r, const cJSON *power)
{
    const st_plant_series *s = &r->plant.series;
    st_html_section(out, "sec-power-waveform");
    if (!r->has_plant || s->n < 2) {
        absent(out, "The plant was not modelled in this run (no training job on a GPU with a "
                    "power limit), so there is no power waveform.");
        st_html_section_end(out);
        st_html_section(out, "sec-power-spectrum");
        absent(out, "No power waveform, so no spectrum.");
        st_html_section_end(out);
        return;
    }
    size_t bins = s->n / 2 + 1;
    double *t = st_xmalloc(s->n * sizeof *t), *mw = st_xmalloc(s->n * sizeof *mw);
    double *hz = st_xmalloc(bins * sizeof *hz), *amp = st_xmalloc(bins * sizeof *amp);
    /* in MW, kW or W by the facility peak's size (a 2-node cluster's 24 kW read 0.024 MW) */
    const char *unit;
    double fp_w = num(power, "facility_peak_w"), top = isfinite(fp_w) ? fp_w : 0;
    for (size_t k = 0; k < s->n; k++)
        top = fmax(top, s->w[k]);
    double sc = st_svg_power_unit(top, &unit);
    for (size_t k = 0; k < s->n; k++) {
        t[k] = (double)k * s->dt_s;
        mw[k] = s->w[k] * sc;
    }
    /* the waveform is IT and distribution; the facility peak (plant.h: with transformers, UPS
     * and cooling plant) is the figure the cap is checked against */
    double cap = num(power, "power_capacity_w") * sc, ct[2] = {0, t[s->n - 1]}, cv[2] = {cap, cap};
    double fp = fp_w * sc, fv[2] = {fp, fp};
    st_svg_series ws[3] = {{"IT and distribution", t, mw, s->n, ST_SVG_LINE},
                           {"facility peak", ct, fv, 2, ST_SVG_LINE},
                           {"facility power capacity", ct, cv, 2, ST_SVG_LINE}};
    st_svg_frame fw = {.id = "power-waveform",
                       .title = "IT power over the steady-state window, against the facility peak",
                       .x_label = "time (s)",
                       .y_label = unit};
    st_svg_xy(out, &fw, ws, isfinite(cap) ? 3 : 2);
    st_html_section_end(out);
    st_html_section(out, "sec-power-spectrum");
    if (!(r->plant.wave.swing_w > 0)) { /* as the text says it: its spectrum is rounding noise */
        absent(out, "The facility draws steadily (no swing: the jobs are services, which draw "
                    "their mean power), so its power has no spectrum to show.");
        free(t), free(mw), free(hz), free(amp);
        st_html_section_end(out);
        return;
    }
    st_plant_spectrum(s->w, s->n, s->dt_s, amp);
    size_t shown = 1; /* from the first non-DC bin up to the utility band's top */
    for (size_t k = 1; k < bins; k++) {
        hz[k] = (double)k / ((double)s->n * s->dt_s);
        amp[k] *= sc;
        shown = hz[k] <= 20.0 ? k + 1 : shown;
    }
    st_svg_series sp = {"amplitude", hz + 1, amp + 1, shown - 1, ST_SVG_LINE};
    st_svg_frame ff = {.id = "power-spectrum",
                       .title = "Spectrum of the IT and distribution power (amplitude per "
                                "frequency)",
                       .x_label = "frequency (Hz)",
                       .y_label = unit,
                       .y_from_zero = 1};
    st_svg_xy(out, &ff, &sp, 1);
    free(t);
    free(mw);
    free(hz);
    free(amp);
    st_html_section_end(out);
}

/* The most loaded rack's peak line current against its feed's continuous limit (80% of the
 * breaker, NEC 210.19/215.2): both from the JSON's racks object. */
static void rack_chart(FILE *out, const cJSON *power)
{
    const cJSON *rk = cJSON_GetObjectItemCaseSensitive(power, "racks");
    st_html_section(out, "sec-rack-feed");
    double i = num(rk, "line_current_a"), head = num(rk, "headroom_a");
    if (!rk || !isfinite(i)) {
        absent(out, "The plant was not modelled: no rack power.");
    } else {
        static const char *const cats[] = {"most loaded rack"}, *const parts[] = {
                                                                    "peak line current"};
        double lim = i + head;
        st_svg_bars b = {
            cats, 1, parts, 1, &i, isfinite(lim) ? &lim : NULL, "feed limit (80% of breaker)"};
        st_svg_frame f = {.id = "rack-feed",
                          .title = "Rack power against its feed: peak line current (A)",
                          .x_label = "amperes per phase"};
        st_svg_bars_chart(out, &f, &b);
        if (!isfinite(lim))
            absent(out, "The racks state no breaker, so the feed's limit is not drawn.");
    }
    st_html_section_end(out);
}

/* The replicas' wall time per training job, as the CDF of its 101 quantiles. */
static void life_chart(FILE *out, const st_run *r)
{
    double share[ST_LIFE_WALL_QUANTILES];
    st_svg_series *s = st_xcalloc(r->n + 1, sizeof *s);
    double *days = st_xcalloc((r->n + 1) * ST_LIFE_WALL_QUANTILES, sizeof *days);
    size_t m = 0;
    for (size_t k = 0; k < ST_LIFE_WALL_QUANTILES; k++)
        share[k] = (double)k / (ST_LIFE_WALL_QUANTILES - 1);
    double top = 0; /* the unit by the longest wall time drawn: days, h, min or s */
    for (size_t i = 0; i < r->n; i++)
        if (r->f[i].w && r->f[i].summary.replicas >= 2)
            top = fmax(top, r->f[i].summary.wall_q[ST_LIFE_WALL_QUANTILES - 1]);
    const char *unit;
    double sc = st_svg_time_unit(top, &unit);
    char *xl = st_xasprintf("wall time (%s)", unit);
    for (size_t i = 0; i < r->n; i++) {
        const st_life_summary *sm = &r->f[i].summary;
        if (!r->f[i].w || sm->replicas < 2)
            continue;
        double *d = days + m * ST_LIFE_WALL_QUANTILES;
        for (size_t k = 0; k < ST_LIFE_WALL_QUANTILES; k++)
            d[k] = sm->wall_q[k] * sc;
        s[m++] = (st_svg_series){r->f[i].w->name, d, share, ST_LIFE_WALL_QUANTILES, ST_SVG_LINE};
    }
    st_html_section(out, "sec-failure-life");
    double same;
    if (m && st_svg_flat(s, m, 1, &same)) { /* nothing failed: one vertical step */
        char *why = st_xasprintf("Every replica of %s ran the same wall time, %.4g %s (no failure "
                                 "changed it): there is no distribution to draw.",
                                 m == 1 ? "the training job" : "each training job", same, unit);
        absent(out, why);
        free(why);
    } else if (m) {
        st_svg_frame f = {.id = "failure-life",
                          .title = "Job wall time under failures: its distribution over the "
                                   "replicas (CDF)",
                          .x_label = xl,
                          .y_label = "share of replicas",
                          .y_from_zero = 1};
        st_svg_xy(out, &f, s, m);
    } else {
        absent(out, "Run with --replicas N (N >= 2) to see the distribution of each training "
                    "job's wall time under failures.");
    }
    st_html_section_end(out);
    free(s);
    free(days);
    free(xl);
}

double st_report_waits_unit(double max_h, const char **label)
{
    static const struct {
        double h, per_h;
        const char *label;
    } u[] = {{1, 1, "wait (hours)"},
             {1.0 / 60, 60, "wait (minutes)"},
             {1.0 / 3600, 3600, "wait (seconds)"},
             {0, 3.6e6, "wait (milliseconds)"}};
    size_t k = 0;
    while (k + 1 < sizeof u / sizeof *u && !(max_h >= u[k].h))
        k++;
    *label = u[k].label;
    return u[k].per_h;
}

size_t st_report_waits_h(const st_cluster_result *c, double *out)
{
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++) /* a service's replica stretches are not jobs' waits */
        if (!c->job[i].part &&
            (c->job[i].state == ST_CJ_FINISHED || c->job[i].state == ST_CJ_RUNNING))
            out[m++] = c->job[i].wait_s / 3600.0;
    return m;
}

/* Each priced job's cost by part (its cost.breakdown, each part named by its row's label), the
 * parts no job spends on left out. */
static void cost_chart(FILE *out, const cJSON *jobs)
{
    const cJSON *first = NULL;
    for (const cJSON *j = jobs->child; j && !first; j = j->next)
        first = at(j, "cost.breakdown");
    st_html_section(out, "sec-cost-breakdown");
    size_t n = 0, nk = first ? (size_t)cJSON_GetArraySize(first) : 0;
    const char **keys = st_xcalloc(nk + 1, sizeof *keys),
               **names = st_xcalloc(nk + 1, sizeof *names);
    double top = 0;
    for (const cJSON *k = first ? first->child : NULL; k; k = k->next) {
        double spent = 0;
        for (const cJSON *j = jobs->child; j; j = j->next) {
            double v = num(at(j, "cost.breakdown"), k->string);
            spent += isfinite(v) && v > 0 ? v : 0;
        }
        if (!(spent > 0))
            continue;
        char *path = st_xasprintf("jobs[].cost.breakdown.%s", k->string);
        const st_fig *f = st_fig_find(ST_DOC_RUN, path);
        free(path);
        keys[n] = k->string;
        names[n++] = f ? f->label : k->string;
    }
    for (const cJSON *j = jobs->child; j; j = j->next)
        top = fmax(top,
                   isfinite(num(at(j, "cost"), "total_usd")) ? num(at(j, "cost"), "total_usd") : 0);
    int millions = top >= 1e6;
    st_svg_frame f = {.id = "cost-breakdown",
                      .title = "Cost by part, per priced job",
                      .x_label = millions ? "million USD" : "USD"};
    if (!n ||
        !job_bars(out, jobs, "cost.breakdown", keys, names, n, NULL, millions ? 1e-6 : 1, &f)) {
        int wear = 0; /* priced at the preset drive price, cost: section or not */
        for (const cJSON *j = jobs->child; j; j = j->next)
            wear |= isfinite(num(at(j, "checkpoint"), "write_usd_per_day"));
        absent(out, wear ? "No cost to break down: the scenario has no cost section, or spends "
                           "nothing (a checkpoint's flash wear, which its cadence weighs, is "
                           "priced at the preset drive price all the same)."
                         : "No cost to break down: the scenario has no cost section, or spends "
                           "nothing.");
    }
    st_html_section_end(out);
    free(keys);
    free(names);
}

/* The queue waits' CDF, drawn only from two started jobs on: one job's wait is its table's. */
static void waits_chart(FILE *out, const st_run *r)
{
    size_t m = 0;
    double *w = st_xmalloc((r->has_cluster && r->cluster.n ? r->cluster.n : 1) * sizeof *w);
    if (r->has_cluster)
        m = st_report_waits_h(&r->cluster, w);
    st_html_section(out, "sec-queue-waits");
    st_svg_series all = {NULL, w, w, m, ST_SVG_LINE};
    double same;
    if (m >= 2 && st_svg_flat(&all, 1, 1, &same)) { /* one vertical step: say it instead */
        char t[ST_REPORT_VALUE_MAX], *why;
        st_unit_format(same * 3600, ST_DIM_TIME, t, sizeof t);
        why = st_xasprintf("All %zu waits in the queue were %s: with every wait the same there "
                           "is no distribution to draw.",
                           m, t);
        absent(out, why);
        free(why);
    } else if (m >= 2) {
        double top = 0;
        const char *axis;
        for (size_t k = 0; k < m; k++)
            top = fmax(top, w[k]);
        double per_h = st_report_waits_unit(top, &axis);
        for (size_t k = 0; k < m; k++)
            w[k] *= per_h;
        st_svg_series s = {r->cluster.policy, w, w, m, ST_SVG_LINE};
        st_svg_frame f = {.id = "queue-waits",
                          .title = "Queue wait of the started jobs (CDF)",
                          .x_label = axis,
                          .y_label = "share of jobs",
                          .x_from_zero = 1};
        st_svg_cdf(out, &f, &s, 1);
    } else {
        absent(out, m ? "One job went through the queue: its wait is in its table, and there is "
                        "no distribution to draw."
                      : "No job went through the cluster run: no queue.");
    }
    st_html_section_end(out);
    free(w);
}

/* The audit, failures first, then warnings, then the checks that pass, each row marked by its
 * status (the style colours FAIL and WARN); the columns are the rows' labels. */
/* One check as an HTML row, its status in capitals. */
static void html_check(void *ctx, const cJSON *a)
{
    FILE *out = ctx;
    const char *st = cJSON_GetObjectItemCaseSensitive(a, "status")->valuestring;
    char up[16];
    size_t k = 0;
    for (; st[k] && k + 1 < sizeof up; k++)
        up[k] = (char)toupper((unsigned char)st[k]);
    up[k] = '\0';
    st_html_row_begin_class(out, st);
    st_html_cell_class(out, "status", NULL, up);
    for (size_t c = 1; c < ST_REPORT_AUDIT_COLS; c++)
        st_html_cell(out,
                     cJSON_GetObjectItemCaseSensitive(a, st_report_audit_keys[c])->valuestring);
    st_html_row_end(out);
}

static void audit_table(FILE *out, const cJSON *audit)
{
    const char *heads[ST_REPORT_AUDIT_COLS];
    for (size_t k = 0; k < ST_REPORT_AUDIT_COLS; k++)
        heads[k] = st_report_audit_head(k);
    st_html_heading(out, 2, "audit", "Pre-flight audit");
    st_html_table_begin(out, "table-audit", heads, ST_REPORT_AUDIT_COLS);
    st_report_audit_each(audit, html_check, out);
    st_html_table_end(out);
}

static void meta(FILE *out, const cJSON *t)
{
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(t, "cluster");
    const cJSON *noise = cJSON_GetObjectItemCaseSensitive(cl, "noise");
    char *hw = st_report_hardware(cl), *nz = NULL;
    if (cJSON_IsObject(noise)) /* the assumption every step rests on, stated with the cluster */
        nz = st_xasprintf(" · system noise: %s, %.3g ms detours every %.3g s per rank",
                          cJSON_GetObjectItemCaseSensitive(noise, "profile")->valuestring,
                          1e3 * num(noise, "detour_s"), num(noise, "every_s"));
    char *line = st_xasprintf(
        "Strata run report · strata %s · scenario hash %s · seed %.0f · %s (%s GPUs)%s",
        cJSON_GetObjectItemCaseSensitive(t, "strata_version")->valuestring,
        cJSON_GetObjectItemCaseSensitive(t, "scenario_hash")->valuestring, num(t, "seed"), hw,
        st_fig_plain(num(cl, "gpus")).s, nz ? nz : ""); /* grouped, as the summary counts them */
    st_html_para(out, "meta", line);
    free(line);
    free(hw);
    free(nz);
}

/* A cluster of pools: each pool's table (its GPU, nodes, node size, NVLink domain, NICs, racks),
 * which the meta line names only by GPU count. The other formats carry them as cluster.pools[]. */
static void pools_tables(FILE *out, const cJSON *cluster, const st_report *rep)
{
    const cJSON *pools = cJSON_GetObjectItemCaseSensitive(cluster, "pools");
    if (!cJSON_IsArray(pools) || !pools->child)
        return;
    st_html_heading(out, 2, "pools", "Pools");
    size_t k = 0;
    char id[32], path[48];
    for (const cJSON *p = pools->child; p; p = p->next, k++) {
        st_html_heading(out, 3, NULL, cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring);
        snprintf(id, sizeof id, "pool-%zu", k);
        snprintf(path, sizeof path, "cluster.pools[%zu]", k);
        kv_table(out, id, p, path, rep);
    }
}

/* Every job's table, the pools', then each root object's (scheduler, fabric, power, ...), headed
 * by its key with a capital. */
static void tables(FILE *out, const cJSON *t, const st_report *rep)
{
    char id[32], path[32]; /* a number's worth of text */
    st_html_heading(out, 2, "jobs", "Jobs");
    size_t i = 0;
    for (const cJSON *j = cJSON_GetObjectItemCaseSensitive(t, "jobs")->child; j; j = j->next, i++) {
        st_html_heading(out, 3, NULL, cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring);
        snprintf(id, sizeof id, "job-%zu", i);
        snprintf(path, sizeof path, "jobs[%zu]", i);
        kv_table(out, id, j, path, rep);
    }
    if (!i)
        absent(out, "The scenario has no workload of its own: the trace's jobs are counted in the "
                    "scheduler's figures.");
    pools_tables(out, cJSON_GetObjectItemCaseSensitive(t, "cluster"), rep);
    for (const cJSON *o = t->child; o; o = o->next) {
        if (!cJSON_IsObject(o) || !strcmp(o->string, "cluster"))
            continue;
        char *tid = st_xasprintf("table-%s", o->string), *head = st_xstrdup(o->string);
        head[0] = (char)toupper((unsigned char)head[0]);
        st_html_heading(out, 2, o->string, head);
        kv_table(out, tid, o, o->string, rep);
        free(tid);
        free(head);
    }
}

char *st_report_html(const st_report *rep)
{
    cJSON *t = st_report_tree(rep);
    char *buf, *summary = st_summary_run(rep, t);
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, st_scn_name(rep->s));
    meta(out, t);
    st_html_summary(out, summary);
    free(summary);
    audit_table(out, cJSON_GetObjectItemCaseSensitive(t, "audit"));
    st_html_heading(out, 2, "charts", "Charts");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(t, "jobs");
    const cJSON *power = cJSON_GetObjectItemCaseSensitive(t, "power");
    step_and_memory(out, jobs);
    cost_chart(out, jobs);
    power_charts(out, rep->run, power);
    rack_chart(out, power);
    life_chart(out, rep->run);
    waits_chart(out, rep->run);
    tables(out, t, rep);
    st_html_end(out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}
