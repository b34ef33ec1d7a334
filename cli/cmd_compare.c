/* strata compare: one scenario's jobs (its training workloads and its trace) under several
 * scheduler policies, with the same seeds, side by side: waits, job completion times, makespan,
 * utilisation, fragmentation, goodput, preemptions and (where the plant model runs) energy;
 * with --replicas N, the mean and spread over N seeds. cli/ only parses, calls the forecast
 * (models/forecast/run.h) once per policy and seed, or Muri's replay (models/sched/muri.h) for a
 * trace with `replay: muri`, and writes the table. */
#define _POSIX_C_SOURCE 200809L
#include <cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report_out.h"
#include "models/config/limits.h"
#include "models/forecast/run.h"
#include "models/place/policy.h"
#include "models/sched/muri.h"
#include "models/sched/policy.h"
#include "planner/run_spec.h"
#include "sim/progress.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

enum { F_TEXT, F_JSON, F_MARKDOWN, F_CSV, F_HTML };

typedef struct cmp_opts {
    const char *file, *policies, *placements, *output;
    int format, has_seed;
    uint64_t seed;
    int64_t replicas;
} cmp_opts;

/* One row: the policy's and placement's names, its label in a table, and its figures (with
 * replicas, their means, and in sd their sample standard deviations); energy where every
 * replica ran the plant model. */
typedef struct cmp_row {
    const char *policy, *placement;
    char label[64];
    st_cluster_stats st, sd;
    double preemptions, preemptions_sd; /* st's count, or its mean over the replicas */
    int has_energy;
    double energy_j, energy_sd;
    double *waits_h; /* the started jobs' waits (the first replica's), for the HTML's CDF */
    size_t n_waits;
} cmp_row;

static int parse_format(const char *v, int *f)
{
    static const char *const names[] = {"text", "json", "markdown", "csv", "html", NULL};
    for (int i = 0; v && names[i]; i++)
        if (strcmp(v, names[i]) == 0) {
            *f = i;
            return 0;
        }
    return -1;
}

static int parse_opts(int argc, char **argv, cmp_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (st_cli_wants_help(a, "compare"))
            return 1;
        if (strcmp(a, "--policies") == 0 && val) {
            o->policies = val;
            i++;
        } else if (strcmp(a, "--placements") == 0 && val) {
            o->placements = val;
            i++;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && val) {
            o->output = val;
            i++;
        } else if (strcmp(a, "--format") == 0) {
            if (parse_format(val, &o->format))
                return st_cli_usage_error("compare",
                                          "--format takes text, json, markdown, csv or html");
            i++;
        } else if (strcmp(a, "--replicas") == 0) {
            /* the shared value parser (models/config/limits.h), with the command's cap as a row */
            static const st_limit cap = {0, 1000, "the most replicas compare draws",
                                         "every policy runs each of them"};
            st_value_rule r = {.dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &cap};
            double v = 0;
            if (st_cli_value("compare", "--replicas", val, &r, &v))
                return ST_EXIT_INPUT;
            o->replicas = (int64_t)v;
            i++;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            if (!val || val[0] < '0' || val[0] > '9' || (o->seed = strtoull(val, &end, 10), *end) ||
                o->seed > 9007199254740992ull)
                return st_cli_usage_error("compare", "--seed takes a whole number from 0 to 2^53");
            o->has_seed = 1;
            i++;
        } else if (a[0] == '-') {
            return st_cli_usage_error("compare", "unknown option '%s' (or its value is missing)",
                                      a);
        } else if (o->file) {
            return st_cli_usage_error("compare", "expected one scenario file, got '%s' too", a);
        } else {
            o->file = a;
        }
    }
    if (!o->file)
        return st_cli_usage_error("compare", "expected a scenario file");
    return 0;
}

/* The names of LIST (default: every one of known[], or with none_default one NULL entry: the
 * scenario's own), each checked against known[] and given as known[]'s static string; *n. */
static int name_list(const char *opt, const char *noun, const char *arg, const char *const *known,
                     int none_default, const char ***out, size_t *n)
{
    size_t cap = 2;
    for (const char *p = arg ? arg : ""; *p; p++)
        cap += *p == ',';
    for (size_t k = 0; known[k]; k++)
        cap++;
    const char **names = st_xcalloc(cap, sizeof *names);
    *n = 0;
    *out = names;
    if (!arg) {
        if (none_default)
            names[(*n)++] = NULL;
        for (size_t k = 0; known[k] && !none_default; k++)
            names[(*n)++] = known[k];
        return 0;
    }
    for (const char *p = arg;; p++) {
        size_t len = strcspn(p, ","), k = 0;
        while (known[k] && (strlen(known[k]) != len || strncmp(known[k], p, len) != 0))
            k++;
        if (!known[k]) {
            char all[256] = "";
            for (size_t j = 0; known[j]; j++)
                snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", j ? ", " : "",
                         known[j]);
            free(names);
            return st_cli_usage_error("compare", "%s: unknown %s '%.*s' (one of: %s)", opt, noun,
                                      (int)len, p, all);
        }
        for (size_t j = 0; j < *n; j++)
            if (names[j] == known[k]) {
                free(names);
                return st_cli_usage_error("compare",
                                          "%s: %s '%s' is named twice; each row is a different "
                                          "%s",
                                          opt, noun, known[k], noun);
            }
        names[(*n)++] = known[k];
        if (!p[len])
            break;
        p += len;
    }
    return 0;
}

/* The trace replayed with Muri's conventions under policy (srtf, srsf or tiresias) into row. */
static int run_muri(const st_scn *s, const char *policy, cmp_row *row)
{
    const st_trace_cfg *t = st_scn_trace(s);
    const st_cluster_cfg *c = st_scn_cluster(s);
    if (st_scn_workload_count(s) > 0) {
        fprintf(stderr, "strata compare: %s: replay: muri replays a trace alone, not workloads\n",
                st_scn_name(s));
        return -1;
    }
    st_muri_order order;
    if (st_muri_order_of(policy, &order)) {
        fprintf(stderr,
                "strata compare: %s: replay: muri runs the artifact's srtf, srsf and tiresias "
                "(Tiresias-L), not %s\n",
                st_scn_name(s), policy);
        return -1;
    }
    st_muri_job *j = st_xcalloc(t->n_jobs ? t->n_jobs : 1, sizeof *j);
    for (size_t k = 0; k < t->n_jobs; k++) {
        const st_trace_job *tj = &t->jobs[k];
        j[k] =
            (st_muri_job){tj->submit_s,
                          tj->iterations,
                          tj->iteration_s,
                          tj->gpus,
                          st_muri_overhead_s(tj->cls >= 0 ? t->classes[tj->cls] : NULL, tj->gpus),
                          {t->file, tj->line, 1}};
    }
    st_err err = {0};
    int rc = st_muri_replay(j, t->n_jobs, c->nodes, c->gpus_per_node, order, &row->st, &err);
    free(j);
    if (rc) {
        st_cli_print_err(&err);
        return rc;
    }
    row->policy = policy;
    row->placement = "muri-yarn";
    row->preemptions = (double)row->st.preemptions;
    st_snprintf(row->label, sizeof row->label, "%s", policy);
    return 0;
}

static int run_one(const st_scn *s, uint64_t seed, const char *policy, const char *placement,
                   cmp_row *row)
{
    if (st_scn_trace(s) && st_scn_trace(s)->replay == ST_REPLAY_MURI)
        return run_muri(s, policy, row);
    st_run_spec spec = st_plan_run_spec(s, seed);
    spec.policy = policy;
    spec.placement = placement;
    st_run run;
    st_err err = {0};
    int rc = st_run_forecast(&spec, &run, &err);
    if (rc) {
        st_cli_print_err(&err);
    } else if (!run.has_cluster) {
        fprintf(stderr, "strata compare: %s: no training workload or trace job to schedule\n",
                st_scn_name(s));
        rc = -1;
    } else {
        *row = (cmp_row){.policy = run.cluster.policy,
                         .placement = run.cluster.placement,
                         .st = run.cluster.st,
                         .preemptions = (double)run.cluster.st.preemptions,
                         .has_energy = run.has_plant,
                         .energy_j = run.has_plant ? run.plant.energy_j : 0};
        st_snprintf(row->label, sizeof row->label, placement ? "%s, %s" : "%s", row->policy,
                    row->placement);
        row->waits_h = st_xmalloc((run.cluster.n ? run.cluster.n : 1) * sizeof *row->waits_h);
        row->n_waits = st_report_waits_h(&run.cluster, row->waits_h);
    }
    st_run_release(&run);
    return rc;
}

/* The figures' columns: JSON/CSV key, table heading, kind (a time, a fraction shown in %, or a
 * count of GPUs). The first ten keep their CSV places; preemptions follows them, then the rest. */
enum { K_TIME, K_PCT, K_GPUS };
typedef struct cmp_col {
    const char *key, *head;
    size_t off;
    int kind;
} cmp_col;

#define COL(k, h, t)                                                                               \
    {                                                                                              \
#k, h, offsetof(st_cluster_stats, k), t                                                    \
    }
static const cmp_col cols[] = {
    COL(mean_wait_s, "wait mean", K_TIME), COL(p50_wait_s, "p50", K_TIME),
    COL(p95_wait_s, "p95", K_TIME),        COL(p99_wait_s, "p99", K_TIME),
    COL(mean_jct_s, "JCT mean", K_TIME),   COL(p50_jct_s, "p50", K_TIME),
    COL(p95_jct_s, "p95", K_TIME),         COL(p99_jct_s, "p99", K_TIME),
    COL(makespan_s, "makespan", K_TIME),   COL(utilization, "util", K_PCT),
};
static const cmp_col more[] = {
    COL(fragmented_gpus, "frag GPUs", K_GPUS),
    COL(goodput, "goodput", K_PCT),
};
#undef COL
#define N_COLS (sizeof cols / sizeof cols[0])
#define N_MORE (sizeof more / sizeof more[0])

static double fig(const st_cluster_stats *st, const cmp_col *c)
{
    return *(const double *)((const char *)st + c->off);
}

static double *fig_at(st_cluster_stats *st, const cmp_col *c)
{
    return (double *)((char *)st + c->off);
}

static void one_cell(char *buf, size_t n, double v, int kind)
{
    if (kind == K_TIME)
        st_unit_format(v, ST_DIM_TIME, buf, n);
    else if (kind == K_PCT)
        snprintf(buf, n, "%.2f%%", v * 100);
    else
        snprintf(buf, n, "%.2f", v);
}

/* A figure, with its spread when there are replicas ("5.2 h ±0.3 h"). */
static void cell(char *buf, size_t n, double v, double sd, int kind, int spread)
{
    one_cell(buf, n, v, kind);
    if (spread) {
        char b[32];
        one_cell(b, sizeof b, sd, kind);
        snprintf(buf + strlen(buf), n - strlen(buf), " ±%s", b);
    }
}

/* Every row has an energy figure: the column is shown (else it is absent). */
static int all_energy(const cmp_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!rows[i].has_energy)
            return 0;
    return n > 0;
}

/* The cells of row r after its label, in column order. */
static void row_cells(FILE *out, const cmp_row *r, const char *sep, int w, int spread, int energy)
{
    char b[64];
    for (size_t c = 0; c < N_COLS; c++) {
        cell(b, sizeof b, fig(&r->st, &cols[c]), fig(&r->sd, &cols[c]), cols[c].kind, spread);
        fprintf(out, "%s%*s", sep, w, b);
    }
    if (spread)
        snprintf(b, sizeof b, "%.4g ±%.2g", r->preemptions, r->preemptions_sd);
    else
        snprintf(b, sizeof b, "%.0f", r->preemptions);
    fprintf(out, "%s%11s", sep, b);
    for (size_t c = 0; c < N_MORE; c++) {
        cell(b, sizeof b, fig(&r->st, &more[c]), fig(&r->sd, &more[c]), more[c].kind, spread);
        fprintf(out, "%s%*s", sep, w, b);
    }
    if (energy) {
        char e[32], d[32];
        st_unit_format(r->energy_j, ST_DIM_ENERGY, e, sizeof e);
        st_unit_format(r->energy_sd, ST_DIM_ENERGY, d, sizeof d);
        snprintf(b, sizeof b, spread ? "%s ±%s" : "%s", e, d);
        fprintf(out, "%s%*s", sep, w, b);
    }
}

/* An aligned text table, or a Markdown one. */
static void table(FILE *out, const cmp_row *rows, size_t n, int md, int spread)
{
    const char *sep = md ? " | " : "  ";
    int w = 8, cw = spread ? 20 : 10, energy = all_energy(rows, n);
    for (size_t i = 0; i < n; i++)
        w = (int)strlen(rows[i].label) > w ? (int)strlen(rows[i].label) : w;
    fprintf(out, md ? "| %-*s | %8s" : "%-*s  %8s", w, "policy", "finished");
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, "%s%*s", sep, cw, cols[c].head);
    fprintf(out, "%s%11s", sep, "preemptions");
    for (size_t c = 0; c < N_MORE; c++)
        fprintf(out, "%s%*s", sep, cw, more[c].head);
    if (energy)
        fprintf(out, "%s%*s", sep, cw, "energy");
    fprintf(out, "%s\n", md ? " |" : "");
    if (md) {
        fprintf(out, "|---|---:|");
        for (size_t c = 0; c < N_COLS + 1 + N_MORE + (size_t)energy; c++)
            fprintf(out, "---:|");
        fprintf(out, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        if (md) { /* the label, the one text cell, through the Markdown cell writer */
            fputs("| ", out);
            st_report_md_cell(out, rows[i].label);
            fprintf(out, "%*s | %8zu", w - (int)strlen(rows[i].label), "", rows[i].st.finished);
        } else {
            fprintf(out, "%-*s  %8zu", w, rows[i].label, rows[i].st.finished);
        }
        row_cells(out, &rows[i], sep, cw, spread, energy);
        fprintf(out, "%s\n", md ? " |" : "");
    }
}

static void csv(FILE *out, const cmp_row *rows, size_t n, int spread)
{
    int energy = all_energy(rows, n);
    fprintf(out, "policy,placement,jobs,finished,unfinished");
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, ",%s", cols[c].key);
    fprintf(out, ",preemptions");
    for (size_t c = 0; c < N_MORE; c++)
        fprintf(out, ",%s", more[c].key);
    fprintf(out, "%s", energy ? ",energy_j" : "");
    for (size_t c = 0; spread && c < N_COLS; c++)
        fprintf(out, ",%s_sd", cols[c].key);
    for (size_t c = 0; spread && c < N_MORE; c++)
        fprintf(out, ",%s_sd", more[c].key);
    fprintf(out, "%s%s\n", spread ? ",preemptions_sd" : "", spread && energy ? ",energy_j_sd" : "");
    for (size_t i = 0; i < n; i++) {
        const cmp_row *r = &rows[i];
        st_report_csv_cell(out, r->policy); /* the text cells, through the CSV cell writer */
        fputc(',', out);
        st_report_csv_cell(out, r->placement);
        fprintf(out, ",%zu,%zu,%zu", r->st.jobs, r->st.finished, r->st.unfinished);
        for (size_t c = 0; c < N_COLS; c++)
            fprintf(out, ",%.17g", fig(&r->st, &cols[c]));
        fprintf(out, ",%.17g", r->preemptions);
        for (size_t c = 0; c < N_MORE; c++)
            fprintf(out, ",%.17g", fig(&r->st, &more[c]));
        if (energy)
            fprintf(out, ",%.17g", r->energy_j);
        for (size_t c = 0; spread && c < N_COLS; c++)
            fprintf(out, ",%.17g", fig(&r->sd, &cols[c]));
        for (size_t c = 0; spread && c < N_MORE; c++)
            fprintf(out, ",%.17g", fig(&r->sd, &more[c]));
        if (spread)
            fprintf(out, ",%.17g", r->preemptions_sd);
        if (spread && energy)
            fprintf(out, ",%.17g", r->energy_sd);
        fprintf(out, "\n");
    }
}

static void json_figures(cJSON *o, const st_cluster_stats *st, double preempt, int energy,
                         double energy_j)
{
    for (size_t c = 0; c < N_COLS; c++)
        cJSON_AddNumberToObject(o, cols[c].key, fig(st, &cols[c]));
    cJSON_AddNumberToObject(o, "preemptions", preempt);
    for (size_t c = 0; c < N_MORE; c++)
        cJSON_AddNumberToObject(o, more[c].key, fig(st, &more[c]));
    if (energy)
        cJSON_AddNumberToObject(o, "energy_j", energy_j);
}

static char *json(const st_scn *s, uint64_t seed, int64_t replicas, const cmp_row *rows, size_t n)
{
    int energy = all_energy(rows, n), spread = replicas > 1;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", st_scn_name(s));
    cJSON_AddNumberToObject(root, "seed", (double)seed);
    if (spread)
        cJSON_AddNumberToObject(root, "replicas", (double)replicas);
    cJSON *arr = cJSON_AddArrayToObject(root, "policies");
    for (size_t i = 0; i < n; i++) {
        const cmp_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "policy", r->policy);
        cJSON_AddStringToObject(o, "placement", r->placement);
        cJSON_AddNumberToObject(o, "jobs", (double)r->st.jobs);
        cJSON_AddNumberToObject(o, "finished", (double)r->st.finished);
        cJSON_AddNumberToObject(o, "unfinished", (double)r->st.unfinished);
        json_figures(o, &r->st, r->preemptions, energy, r->energy_j);
        if (spread) /* the sample standard deviation of each figure over the replicas */
            json_figures(cJSON_AddObjectToObject(o, "spread"), &r->sd, r->preemptions_sd, energy,
                         r->energy_sd);
        cJSON_AddItemToArray(arr, o);
    }
    return st_cli_json_print(root);
}

/* The mean and sample standard deviation of v[0 .. n) taken at stride (bytes) from base:
 * exactly the value and 0 when every replica agrees. */
static void spread_of(const char *base, size_t stride, size_t n, double *mean, double *sd)
{
    double sum = 0, first = *(const double *)base;
    int same = 1;
    for (size_t k = 0; k < n; k++) {
        double x = *(const double *)(base + k * stride);
        sum += x;
        same &= x == first;
    }
    double m = sum / (double)n, ss = 0;
    for (size_t k = 0; k < n && !same; k++) {
        double d = *(const double *)(base + k * stride) - m;
        ss += d * d;
    }
    *mean = same ? first : m;
    *sd = same || n < 2 ? 0 : sqrt(ss / (double)(n - 1));
}

/* The row of the replicas one[0 .. n): every figure's mean in st, its spread in sd. */
static void summarise(cmp_row *row, const cmp_row *one, size_t n)
{
    const cmp_col *all[2] = {cols, more};
    size_t counts[2] = {N_COLS, N_MORE};
    for (int t = 0; t < 2; t++)
        for (size_t c = 0; c < counts[t]; c++)
            spread_of((const char *)&one->st + all[t][c].off, sizeof *one, n,
                      fig_at(&row->st, &all[t][c]), fig_at(&row->sd, &all[t][c]));
    spread_of((const char *)&one->preemptions, sizeof *one, n, &row->preemptions,
              &row->preemptions_sd);
    spread_of((const char *)&one->energy_j, sizeof *one, n, &row->energy_j, &row->energy_sd);
    for (size_t k = 0; k < n; k++)
        row->has_energy &= one[k].has_energy;
}

/* The policy under seeds seed .. seed + replicas - 1: one run's row, or the means and sample
 * standard deviations of its figures (finished: the fewest any replica finished). 0, or
 * ST_EXIT_SIM after a run's error. */
static int run_replicas(const st_scn *s, uint64_t seed, int64_t replicas, const char *policy,
                        const char *placement, cmp_row *row)
{
    if (run_one(s, seed, policy, placement, row))
        return ST_EXIT_SIM;
    if (replicas < 2)
        return 0;
    cmp_row *one = st_xcalloc((size_t)replicas, sizeof *one);
    one[0] = *row;
    size_t finished = row->st.finished; /* the fewest any replica finished */
    for (int64_t k = 1; k < replicas; k++) {
        int bad = run_one(s, seed + (uint64_t)k, policy, placement, &one[k]);
        free(one[k].waits_h); /* the CDF shows the first replica's waits */
        if (bad) {
            free(one);
            return ST_EXIT_SIM;
        }
        finished = one[k].st.finished < finished ? one[k].st.finished : finished;
    }
    summarise(row, one, (size_t)replicas);
    row->st.finished = finished;
    row->st.unfinished = row->st.jobs - row->st.too_big - finished;
    free(one);
    return 0;
}

/* The HTML report: compare's JSON and each row's waits (cli/compare_html.c). */
static char *html(const st_scn *s, uint64_t seed, int64_t replicas, const cmp_row *rows, size_t n)
{
    char *j = json(s, seed, replicas, rows, n);
    st_compare_waits *w = st_xcalloc(n ? n : 1, sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i] = (st_compare_waits){rows[i].label, rows[i].waits_h, rows[i].n_waits};
    char *doc = st_compare_html(st_scn_name(s), j, w, n);
    free(w);
    free(j);
    return doc;
}

/* The table in the chosen format, as one malloc'd string. */
static char *render(const cmp_opts *o, const st_scn *s, uint64_t seed, const cmp_row *rows,
                    size_t n)
{
    int spread = o->replicas > 1;
    if (o->format == F_JSON)
        return json(s, seed, o->replicas, rows, n);
    if (o->format == F_HTML)
        return html(s, seed, o->replicas, rows, n);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        ST_BUG("open_memstream failed");
    if (o->format == F_CSV) {
        csv(out, rows, n, spread);
    } else {
        char seeds[96];
        snprintf(seeds, sizeof seeds, spread ? "seeds %llu-%llu (mean ±sample sd)" : "seed %llu",
                 (unsigned long long)seed, (unsigned long long)(seed + (uint64_t)o->replicas - 1));
        if (o->format == F_TEXT)
            fprintf(out, "scenario '%s', %s: %zu jobs, placement %s\n", st_scn_name(s), seeds,
                    n ? rows[0].st.jobs : 0,
                    o->placements ? o->placements
                    : n           ? rows[0].placement
                                  : "pack");
        table(out, rows, n, o->format == F_MARKDOWN, spread);
    }
    fclose(out);
    return buf;
}

/* Every policy x placement of names and places on s, then the table to -o or stdout: 0, or
 * ST_EXIT_SIM after a run's or the write's error. */
static int compare_all(const cmp_opts *o, const st_scn *s, const char **names, size_t n,
                       const char **places, size_t n_pl)
{
    int rc = 0;
    uint64_t seed = o->has_seed ? o->seed : st_scn_seed(s);
    cmp_row *rows = st_xcalloc(n * n_pl, sizeof *rows);
    int64_t total = (int64_t)(n * n_pl);
    st_progress("compare: policy runs", 0, total);
    for (size_t i = 0; i < n * n_pl && !rc; i++) {
        rc = run_replicas(s, seed, o->replicas, names[i / n_pl], places[i % n_pl], &rows[i]);
        st_progress("compare: policy runs", rc ? total : (int64_t)i + 1, total);
    }
    n *= n_pl;
    if (!rc) {
        char *text = render(o, s, seed, rows, n), why[512];
        if (o->output && st_cli_write_atomic(o->output, text, strlen(text), why, sizeof why)) {
            fprintf(stderr, "strata compare: %s\n", why);
            rc = ST_EXIT_SIM;
        } else if (!o->output) {
            fputs(text, stdout);
        }
        free(text);
    }
    for (size_t i = 0; i < n; i++)
        free(rows[i].waits_h);
    free(rows);
    return rc;
}

int st_cmd_compare(int argc, char **argv)
{
    cmp_opts o = {.replicas = 1};
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    const char **names = NULL, **places = NULL;
    size_t n = 0, n_pl = 0;
    if ((rc = name_list("--policies", "policy", o.policies, st_sched_policy_names, 0, &names, &n)))
        return rc;
    if ((rc = name_list("--placements", "placement", o.placements, st_place_policy_names, 1,
                        &places, &n_pl))) {
        free(names);
        return rc;
    }
    st_diag d = {0};
    st_scn *s = NULL;
    if (st_scn_load_file(o.file, &s, &d)) {
        st_cli_print_diag(&d);
        free(names);
        free(places);
        return ST_EXIT_INPUT;
    }
    st_cli_print_warnings(s);
    const st_cli_file out = {"-o", o.output};
    if ((rc = st_cli_check_outputs("compare", s, &out, 1))) {
        free(names);
        free(places);
        st_scn_free(s);
        return rc;
    }
    if (o.placements && st_scn_trace(s) && st_scn_trace(s)->replay == ST_REPLAY_MURI) {
        free(names);
        free(places);
        st_scn_free(s);
        return st_cli_usage_error("compare",
                                  "--placements: %s replays its trace with Muri's conventions "
                                  "(trace.replay: muri), which place every job by the artifact's "
                                  "own first fit; no placement policy applies",
                                  o.file);
    }
    rc = compare_all(&o, s, names, n, places, n_pl);
    free(names);
    free(places);
    st_scn_free(s);
    return rc;
}
