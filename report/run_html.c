/* `strata run --format html`: the run's report as one self-contained HTML page. The tables are
 * every value of the JSON report (parsed back from st_report_json, so they are its numbers, each
 * cell carrying its JSON key and text); the charts draw the same values, and the series the JSON
 * leaves out: the facility waveform and its spectrum (models/plant/wave_series.h), the replicas'
 * wall-time distribution (models/reliability/lifetime.h) and the queue waits. */
#include <math.h>
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
    size_t skip; /* the prefix's length, left out of the row's label */
} kv_ctx;

static void kv_row(void *ctx, const char *path, const cJSON *leaf)
{
    kv_ctx *k = ctx;
    char tb[ST_REPORT_VALUE_MAX], eb[ST_REPORT_VALUE_MAX];
    const char *label = path + (strlen(path) > k->skip ? k->skip : 0);
    const char *text = st_report_value_text(ST_DOC_RUN, path, leaf, tb, sizeof tb);
    st_html_row_begin(k->out);
    st_html_cell(k->out, label[0] == '.' ? label + 1 : label);
    if (cJSON_IsNumber(leaf)) {
        st_html_cell_num(k->out, path, st_report_value_exact(leaf, eb, sizeof eb), text);
    } else {
        st_html_cell(k->out, text);
    }
    st_html_row_end(k->out);
}

/* A key | value table of every leaf under node, whose path is prefix. */
static void kv_table(FILE *out, const char *id, const cJSON *node, const char *prefix)
{
    static const char *const heads[] = {"key", "value"};
    st_html_table_begin(out, id, heads, 2);
    kv_ctx k = {out, strlen(prefix)};
    st_report_leaves(node, prefix, kv_row, &k);
    st_html_table_end(out);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Stacked bars over the training jobs of the report: obj's parts keys[0..n) times scale, and
 * the limit key (or NULL). Returns 0 when no job has obj. */
static int job_bars(FILE *out, const cJSON *jobs, const char *obj, const char *const *keys,
                    const char *const *names, size_t n, const char *limit, double scale,
                    const st_svg_frame *f)
{
    size_t nj = (size_t)cJSON_GetArraySize(jobs), m = 0;
    const char **cats = st_xcalloc(nj + 1, sizeof *cats);
    double *v = st_xcalloc((nj + 1) * n, sizeof *v), *lim = st_xcalloc(nj + 1, sizeof *lim);
    for (const cJSON *j = jobs->child; j; j = j->next) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, obj);
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

static void step_and_memory(FILE *out, const cJSON *jobs)
{
    static const char *const bk[] = {"compute_s",         "tp_comm_s", "pp_comm_s",
                                     "dp_comm_exposed_s", "bubble_s",  "optimizer_s"};
    static const char *const bn[] = {"compute",           "TP comm",         "PP comm",
                                     "DP comm (exposed)", "pipeline bubble", "optimizer"};
    static const char *const mk[] = {"weights_bytes", "gradients_bytes", "optimizer_bytes",
                                     "activations_bytes", "reserved_bytes"};
    static const char *const mn[] = {"weights", "gradients", "optimizer states", "activations",
                                     "reserved"};
    st_svg_frame fs = {.id = "step-breakdown",
                       .title = "Step time by part, per training job",
                       .x_label = "seconds"};
    st_html_section(out, "sec-step-breakdown");
    if (!job_bars(out, jobs, "breakdown", bk, bn, 6, NULL, 1, &fs))
        absent(out, "No training job was simulated: there is no step to break down.");
    st_html_section_end(out);
    st_svg_frame fm = {.id = "memory-per-gpu",
                       .title = "Memory per GPU (most loaded GPU) against its capacity",
                       .x_label = "GB (10^9 bytes)"};
    st_html_section(out, "sec-memory-per-gpu");
    if (!job_bars(out, jobs, "memory", mk, mn, 5, "capacity_bytes", 1e-9, &fm))
        absent(out, "No training job: no memory forecast.");
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
    for (size_t k = 0; k < s->n; k++) {
        t[k] = (double)k * s->dt_s;
        mw[k] = s->w[k] / 1e6;
    }
    /* the waveform is IT and distribution; the facility peak (plant.h: with transformers, UPS
     * and cooling plant) is the figure the cap is checked against */
    double cap = num(power, "power_capacity_w") / 1e6, ct[2] = {0, t[s->n - 1]}, cv[2] = {cap, cap};
    double fp = num(power, "facility_peak_w") / 1e6, fv[2] = {fp, fp};
    st_svg_series ws[3] = {{"IT and distribution", t, mw, s->n, ST_SVG_LINE},
                           {"facility peak", ct, fv, 2, ST_SVG_LINE},
                           {"facility power capacity", ct, cv, 2, ST_SVG_LINE}};
    st_svg_frame fw = {.id = "power-waveform",
                       .title = "Facility power over the steady-state window",
                       .x_label = "time (s)",
                       .y_label = "MW"};
    st_svg_xy(out, &fw, ws, isfinite(cap) ? 3 : 2);
    st_html_section_end(out);
    st_html_section(out, "sec-power-spectrum");
    st_plant_spectrum(s->w, s->n, s->dt_s, amp);
    size_t shown = 1; /* from the first non-DC bin up to the utility band's top */
    for (size_t k = 1; k < bins; k++) {
        hz[k] = (double)k / ((double)s->n * s->dt_s);
        amp[k] /= 1e6;
        shown = hz[k] <= 20.0 ? k + 1 : shown;
    }
    st_svg_series sp = {"amplitude", hz + 1, amp + 1, shown - 1, ST_SVG_LINE};
    st_svg_frame ff = {.id = "power-spectrum",
                       .title = "Spectrum of the facility power (amplitude per frequency)",
                       .x_label = "frequency (Hz)",
                       .y_label = "MW",
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
    for (size_t i = 0; i < r->n; i++) {
        const st_life_summary *sm = &r->f[i].summary;
        if (!r->f[i].w || sm->replicas < 2)
            continue;
        double *d = days + m * ST_LIFE_WALL_QUANTILES;
        for (size_t k = 0; k < ST_LIFE_WALL_QUANTILES; k++)
            d[k] = sm->wall_q[k] / 86400.0;
        s[m++] = (st_svg_series){r->f[i].w->name, d, share, ST_LIFE_WALL_QUANTILES, ST_SVG_LINE};
    }
    st_html_section(out, "sec-failure-life");
    if (m) {
        st_svg_frame f = {.id = "failure-life",
                          .title = "Job wall time under failures: its distribution over the "
                                   "replicas (CDF)",
                          .x_label = "wall time (days)",
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
}

size_t st_report_waits_h(const st_cluster_result *c, double *out)
{
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->job[i].state == ST_CJ_FINISHED || c->job[i].state == ST_CJ_RUNNING)
            out[m++] = c->job[i].wait_s / 3600.0;
    return m;
}

static void waits_chart(FILE *out, const st_run *r)
{
    st_html_section(out, "sec-queue-waits");
    if (r->has_cluster && r->cluster.n) {
        double *w = st_xmalloc(r->cluster.n * sizeof *w);
        size_t m = st_report_waits_h(&r->cluster, w);
        st_svg_series s = {r->cluster.policy, w, w, m, ST_SVG_LINE};
        st_svg_frame f = {.id = "queue-waits",
                          .title = "Queue wait of the started jobs (CDF)",
                          .x_label = "wait (hours)",
                          .y_label = "share of jobs",
                          .x_from_zero = 1};
        st_svg_cdf(out, &f, &s, 1);
        free(w);
    } else {
        absent(out, "No job went through the cluster run: no queue.");
    }
    st_html_section_end(out);
}

static void meta(FILE *out, const cJSON *t)
{
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(t, "cluster");
    char *line =
        st_xasprintf("strata %s · scenario hash %s · seed %.0f · %.0f nodes of %s (%.0f GPUs)",
                     cJSON_GetObjectItemCaseSensitive(t, "strata_version")->valuestring,
                     cJSON_GetObjectItemCaseSensitive(t, "scenario_hash")->valuestring,
                     num(t, "seed"), num(cl, "nodes"),
                     cJSON_GetObjectItemCaseSensitive(cl, "gpu")->valuestring, num(cl, "gpus"));
    st_html_para(out, "meta", line);
    free(line);
}

/* Every job's table, then each root object's (scheduler, fabric, power, ...), then the audit. */
static void tables(FILE *out, const cJSON *t)
{
    char id[32], path[32]; /* a number's worth of text */
    st_html_heading(out, 2, "jobs", "Jobs");
    size_t i = 0;
    for (const cJSON *j = cJSON_GetObjectItemCaseSensitive(t, "jobs")->child; j; j = j->next, i++) {
        st_html_heading(out, 3, NULL, cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring);
        snprintf(id, sizeof id, "job-%zu", i);
        snprintf(path, sizeof path, "jobs[%zu]", i);
        kv_table(out, id, j, path);
    }
    for (const cJSON *o = t->child; o; o = o->next) {
        if (!cJSON_IsObject(o) || !strcmp(o->string, "cluster"))
            continue;
        char *tid = st_xasprintf("table-%s", o->string);
        st_html_heading(out, 2, o->string, o->string);
        kv_table(out, tid, o, o->string);
        free(tid);
    }
    st_html_heading(out, 2, "audit", "Pre-flight audit");
    kv_table(out, "table-audit", cJSON_GetObjectItemCaseSensitive(t, "audit"), "audit");
}

char *st_report_html(const st_report *rep)
{
    cJSON *t = st_report_tree(rep);
    char *buf, *title = st_xasprintf("Strata report: %s", st_scn_name(rep->s));
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    st_html_begin(out, title);
    free(title);
    meta(out, t);
    st_html_heading(out, 2, "charts", "Charts");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(t, "jobs");
    const cJSON *power = cJSON_GetObjectItemCaseSensitive(t, "power");
    step_and_memory(out, jobs);
    power_charts(out, rep->run, power);
    rack_chart(out, power);
    life_chart(out, rep->run);
    waits_chart(out, rep->run);
    tables(out, t);
    st_html_end(out);
    cJSON_Delete(t);
    return st_report_close(out, &buf);
}
