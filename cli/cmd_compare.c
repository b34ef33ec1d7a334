/* strata compare: one scenario's jobs (its training workloads and its trace) under several
 * scheduler policies, with the same seed, side by side: waits, job completion times, makespan,
 * utilisation. cli/ only parses, calls the forecast (models/forecast/run.h) once per policy
 * and writes the table. */
#define _POSIX_C_SOURCE 200809L
#include <cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report_out.h"
#include "models/forecast/run.h"
#include "models/place/policy.h"
#include "models/sched/policy.h"
#include "sim/units.h"
#include "sim/xalloc.h"

enum { F_TEXT, F_JSON, F_MARKDOWN, F_CSV, F_HTML };

typedef struct cmp_opts {
    const char *file, *policies, *placements, *output;
    int format, has_seed;
    uint64_t seed;
} cmp_opts;

/* One row: the policy's and placement's names, its label in a table, and its figures. */
typedef struct cmp_row {
    const char *policy, *placement;
    char label[64];
    st_cluster_stats st;
    double *waits_h; /* the started jobs' waits, for the HTML's CDF */
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
        names[(*n)++] = known[k];
        if (!p[len])
            break;
        p += len;
    }
    return 0;
}

static int run_one(const st_scn *s, uint64_t seed, const char *policy, const char *placement,
                   cmp_row *row)
{
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .failures = st_scn_failures(s),
                        .sched = st_scn_sched(s),
                        .policy = policy,
                        .placement = placement,
                        .job_trace = st_scn_trace(s),
                        .horizon_s = st_scn_horizon_s(s),
                        .audit = st_scn_audit(s),
                        .cost = st_scn_cost(s),
                        .seed = seed};
    st_run run;
    st_err err = {0};
    int rc = st_run_forecast(&spec, &run, &err);
    if (rc) {
        char line[512];
        st_err_format(&err, line, sizeof line);
        fprintf(stderr, "%s\n", line);
    } else if (!run.has_cluster) {
        fprintf(stderr, "strata compare: %s: no training workload or trace job to schedule\n",
                st_scn_name(s));
        rc = -1;
    } else {
        *row = (cmp_row){
            .policy = run.cluster.policy, .placement = run.cluster.placement, .st = run.cluster.st};
        snprintf(row->label, sizeof row->label, placement ? "%s, %s" : "%s", row->policy,
                 row->placement);
        row->waits_h = st_xmalloc((run.cluster.n ? run.cluster.n : 1) * sizeof *row->waits_h);
        row->n_waits = st_report_waits_h(&run.cluster, row->waits_h);
    }
    st_run_release(&run);
    return rc;
}

/* The figures' columns: JSON/CSV key, table heading, whether it is a time. */
typedef struct cmp_col {
    const char *key, *head;
    size_t off;
    int time;
} cmp_col;

#define COL(k, h, t)                                                                               \
    {                                                                                              \
#k, h, offsetof(st_cluster_stats, k), t                                                    \
    }
static const cmp_col cols[] = {
    COL(mean_wait_s, "wait mean", 1), COL(p50_wait_s, "p50", 1),
    COL(p95_wait_s, "p95", 1),        COL(p99_wait_s, "p99", 1),
    COL(mean_jct_s, "JCT mean", 1),   COL(p50_jct_s, "p50", 1),
    COL(p95_jct_s, "p95", 1),         COL(p99_jct_s, "p99", 1),
    COL(makespan_s, "makespan", 1),   COL(utilization, "util", 0),
};
#undef COL
#define N_COLS (sizeof cols / sizeof cols[0])

static double fig(const cmp_row *r, size_t c)
{
    return *(const double *)((const char *)&r->st + cols[c].off);
}

static void cell(char *buf, size_t n, const cmp_row *r, size_t c)
{
    if (cols[c].time)
        st_unit_format(fig(r, c), ST_DIM_TIME, buf, n);
    else
        snprintf(buf, n, "%.2f%%", fig(r, c) * 100);
}

/* An aligned text table, or a Markdown one. */
static void table(FILE *out, const cmp_row *rows, size_t n, int md)
{
    const char *sep = md ? " | " : "  ";
    int w = 8;
    for (size_t i = 0; i < n; i++)
        w = (int)strlen(rows[i].label) > w ? (int)strlen(rows[i].label) : w;
    fprintf(out, md ? "| %-*s | %8s" : "%-*s%s%8s", w, "policy", md ? "finished" : "  ",
            "finished");
    if (md)
        fprintf(out, " | %s", "");
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, "%s%10s", c || !md ? sep : "", cols[c].head);
    fprintf(out, "%s%11s%s\n", sep, "preemptions", md ? " |" : "");
    if (md) {
        fprintf(out, "|---|---:|");
        for (size_t c = 0; c < N_COLS; c++)
            fprintf(out, "---:|");
        fprintf(out, "---:|\n");
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(out, md ? "| %-*s | %8zu" : "%-*s  %8zu", w, rows[i].label, rows[i].st.finished);
        for (size_t c = 0; c < N_COLS; c++) {
            char b[32];
            cell(b, sizeof b, &rows[i], c);
            fprintf(out, "%s%10s", sep, b);
        }
        fprintf(out, "%s%11lld%s\n", sep, (long long)rows[i].st.preemptions, md ? " |" : "");
    }
}

static void csv(FILE *out, const cmp_row *rows, size_t n)
{
    fprintf(out, "policy,placement,jobs,finished,unfinished");
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, ",%s", cols[c].key);
    fprintf(out, ",preemptions\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s,%s,%zu,%zu,%zu", rows[i].policy, rows[i].placement, rows[i].st.jobs,
                rows[i].st.finished, rows[i].st.unfinished);
        for (size_t c = 0; c < N_COLS; c++)
            fprintf(out, ",%.17g", fig(&rows[i], c));
        fprintf(out, ",%lld\n", (long long)rows[i].st.preemptions);
    }
}

static char *json(const st_scn *s, uint64_t seed, const cmp_row *rows, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", st_scn_name(s));
    cJSON_AddNumberToObject(root, "seed", (double)seed);
    cJSON *arr = cJSON_AddArrayToObject(root, "policies");
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "policy", rows[i].policy);
        cJSON_AddStringToObject(o, "placement", rows[i].placement);
        cJSON_AddNumberToObject(o, "jobs", (double)rows[i].st.jobs);
        cJSON_AddNumberToObject(o, "finished", (double)rows[i].st.finished);
        cJSON_AddNumberToObject(o, "unfinished", (double)rows[i].st.unfinished);
        for (size_t c = 0; c < N_COLS; c++)
            cJSON_AddNumberToObject(o, cols[c].key, fig(&rows[i], c));
        cJSON_AddNumberToObject(o, "preemptions", (double)rows[i].st.preemptions);
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        ST_BUG("cJSON_Print failed");
    size_t len = strlen(text);
    char *out = st_xmalloc(len + 2);
    memcpy(out, text, len);
    memcpy(out + len, "\n", 2);
    cJSON_free(text);
    return out;
}

/* The HTML report: compare's JSON and each row's waits (cli/compare_html.c). */
static char *html(const st_scn *s, uint64_t seed, const cmp_row *rows, size_t n)
{
    char *j = json(s, seed, rows, n);
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
    if (o->format == F_JSON)
        return json(s, seed, rows, n);
    if (o->format == F_HTML)
        return html(s, seed, rows, n);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        ST_BUG("open_memstream failed");
    if (o->format == F_CSV) {
        csv(out, rows, n);
    } else {
        if (o->format == F_TEXT)
            fprintf(out, "scenario '%s', seed %llu: %zu jobs, placement %s\n", st_scn_name(s),
                    (unsigned long long)seed, n ? rows[0].st.jobs : 0,
                    o->placements ? o->placements
                    : n           ? rows[0].placement
                                  : "pack");
        table(out, rows, n, o->format == F_MARKDOWN);
    }
    fclose(out);
    return buf;
}

int st_cmd_compare(int argc, char **argv)
{
    cmp_opts o = {0};
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
    uint64_t seed = o.has_seed ? o.seed : st_scn_seed(s);
    cmp_row *rows = st_xcalloc(n * n_pl, sizeof *rows);
    for (size_t i = 0; i < n * n_pl && !rc; i++)
        rc = run_one(s, seed, names[i / n_pl], places[i % n_pl], &rows[i]) ? ST_EXIT_SIM : 0;
    n *= n_pl;
    if (!rc) {
        char *text = render(&o, s, seed, rows, n), why[512];
        if (o.output && st_cli_write_atomic(o.output, text, strlen(text), why, sizeof why)) {
            fprintf(stderr, "strata compare: %s\n", why);
            rc = ST_EXIT_SIM;
        } else if (!o.output) {
            fputs(text, stdout);
        }
        free(text);
    }
    for (size_t i = 0; i < n; i++)
        free(rows[i].waits_h);
    free(rows);
    free(names);
    free(places);
    st_scn_free(s);
    return rc;
}
