/* strata compare: one scenario's jobs (its training workloads and its trace) under several
 * scheduler policies, with the same seeds, side by side: waits, job completion times, makespan,
 * utilisation, fragmentation, goodput, preemptions, time queued and (where the GPU states its
 * power) the cluster's energy and its cost;
 * with --replicas N, the mean and spread over N seeds. cli/ only parses, calls the forecast
 * (models/forecast/run.h) once per policy and seed, or Muri's replay (models/sched/muri.h) for a
 * trace with `replay: muri`, and writes the table. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "models/config/limits.h"
#include "models/forecast/run.h"
#include "models/place/policy.h"
#include "models/sched/muri.h"
#include "models/sched/policy.h"
#include "planner/run_spec.h"
#include "report/compare.h"
#include "report/report.h"
#include "sim/progress.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

typedef struct cmp_opts {
    const char *file, *policies, *placements, *output, *calibration;
    int format, has_seed, format_given;
    uint64_t seed;
    int64_t replicas;
} cmp_opts;

static const char *const format_names[] = {"text", "json", "markdown", "csv", "html", NULL};

static int parse_format(const char *v, int *f)
{
    const char *const *names = format_names;
    for (int i = 0; v && names[i]; i++)
        if (strcmp(v, names[i]) == 0) {
            *f = i;
            return 0;
        }
    return -1;
}

/* compare's options of one value, each one's spellings (st_cli_once_of). */
static const char *const once[] = {"--policies", "--placements", "-o --output", "--calibration",
                                   "--format",   "--replicas",   "--seed",      NULL};

static int parse_opts(int argc, char **argv, cmp_opts *o)
{
    unsigned seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (st_cli_wants_help(a, "compare"))
            return 1;
        if (st_cli_once_of("compare", once, a, &seen))
            return ST_EXIT_INPUT;
        if (strcmp(a, "--policies") == 0 || strcmp(a, "--placements") == 0) {
            /* it said "unknown option '--policies' (or its value is missing)" */
            if (st_cli_name_arg("compare", a, val, "a comma-separated list of names"))
                return ST_EXIT_INPUT;
            *(a[3] == 'o' ? &o->policies : &o->placements) = val;
            i++;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (st_cli_path_arg("compare", a, val, ST_CLI_WRITES))
                return ST_EXIT_INPUT;
            o->output = val;
            i++;
        } else if (strcmp(a, "--calibration") == 0) {
            if (st_cli_path_arg("compare", a, val, ST_CLI_READS))
                return ST_EXIT_INPUT;
            o->calibration = val;
            i++;
        } else if (strcmp(a, "--format") == 0) {
            if (parse_format(val, &o->format))
                return st_cli_usage_error("compare",
                                          "--format takes text, json, markdown, csv or html%s%s%s",
                                          val ? ", found '" : "", val ? val : "", val ? "'" : "");
            o->format_given = 1;
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
                return st_cli_usage_error("compare",
                                          "--seed takes a whole number from 0 to 2^53%s%s%s",
                                          val ? ", found '" : "", val ? val : "", val ? "'" : "");
            o->has_seed = 1;
            i++;
        } else if (a[0] == '-') {
            return st_cli_unknown_option("compare", a);
        } else if (o->file) {
            return st_cli_usage_error("compare", "expected one scenario file, found a second: '%s'",
                                      a);
        } else {
            o->file = a;
        }
    }
    if (!o->file)
        return st_cli_usage_error("compare", "expected a scenario file");
    const char *ext; /* -o's format by its name where --format does not say */
    if (st_cli_output_format("compare", o->output, o->format_given ? format_names[o->format] : NULL,
                             format_names[o->format], 1, &ext))
        return ST_EXIT_INPUT;
    if (!o->format_given && ext)
        parse_format(ext, &o->format);
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
static int run_muri(const st_scn *s, const char *policy, st_compare_row *row)
{
    const st_trace_cfg *t = st_scn_trace(s);
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_muri_order order;
    if (st_muri_order_of(policy, &order)) /* muri_policies kept only the artifact's */
        ST_BUG("replay: muri under policy '%s'", policy);
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
    st_compare_fill(row, NULL, NULL);
    return 0;
}

static int run_one(const st_scn *s, uint64_t seed, const char *policy, const char *placement,
                   st_compare_row *row)
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
        fprintf(stderr,
                "strata compare: %s: no job could be scheduled: a training job whose plan does "
                "not fit in memory is not run (strata run says where it overflows)\n",
                st_scn_name(s));
        rc = -1;
    } else {
        *row = (st_compare_row){
            .policy = run.cluster.policy, .placement = run.cluster.placement, .st = run.cluster.st};
        st_compare_fill(row, run.has_energy ? &run.energy : NULL,
                        run.has_serving ? &run.serving : NULL);
        for (size_t i = 0; i < run.n; i++) { /* the widest step-model band of its jobs */
            const st_forecast *f = &run.f[i];
            if (!f->w || !f->has_band)
                continue;
            int first = !(row->band_hi > 0);
            row->band_lo = first || f->band.lo < row->band_lo ? f->band.lo : row->band_lo;
            row->band_hi = f->band.hi > row->band_hi ? f->band.hi : row->band_hi;
        }
        row->waits_h = st_xmalloc((run.cluster.n ? run.cluster.n : 1) * sizeof *row->waits_h);
        row->n_waits = st_report_waits_h(&run.cluster, row->waits_h);
        if (run.cluster.n_pool > 0) { /* each pool's share, named by the scenario's pools */
            size_t bytes = (size_t)run.cluster.n_pool * sizeof *row->pool;
            row->pool = st_xmalloc(bytes);
            memcpy(row->pool, run.cluster.pool, bytes);
            row->n_pool = run.cluster.n_pool;
            row->pool_cfg = st_scn_cluster(s)->pools;
        }
    }
    st_run_release(&run);
    return rc;
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

/* The row of the replicas one[0 .. n): every figure's mean in v, its spread in sd; a figure
 * only where every replica has it. */
static void summarise(st_compare_row *row, const st_compare_row *one, size_t n)
{
    const st_fig *figs[ST_COMPARE_MAX_FIGS];
    size_t nf = st_compare_figs(figs);
    for (size_t k = 0; k < nf; k++) {
        spread_of((const char *)&one->v[k], sizeof *one, n, &row->v[k], &row->sd[k]);
        for (size_t r = 0; r < n; r++)
            row->has[k] &= one[r].has[k];
    }
}

/* Each pool's figures over the replicas one[0 .. n) (one[0] is row's own): the means of its
 * waits and utilisations, the fewest jobs it finished. */
static void pools_over_replicas(st_compare_row *row, const st_compare_row *one, size_t n)
{
    for (int k = 0; k < row->n_pool; k++) {
        st_cluster_pool_stats *p = &row->pool[k];
        double wait = 0, util = 0;
        for (size_t r = 0; r < n; r++) {
            const st_cluster_pool_stats *q = &one[r].pool[k];
            wait += q->mean_wait_s;
            util += q->utilization;
            p->finished = q->finished < p->finished ? q->finished : p->finished;
        }
        p->mean_wait_s = wait / (double)n;
        p->utilization = util / (double)n;
    }
}

/* The policy under seeds seed .. seed + replicas - 1: one run's row, or the means and sample
 * standard deviations of its figures (finished: the fewest any replica finished). 0, or
 * ST_EXIT_SIM after a run's error. */
static int run_replicas(const st_scn *s, uint64_t seed, int64_t replicas, const char *policy,
                        const char *placement, st_compare_row *row)
{
    if (run_one(s, seed, policy, placement, row))
        return ST_EXIT_SIM;
    if (replicas < 2)
        return 0;
    st_compare_row *one = st_xcalloc((size_t)replicas, sizeof *one);
    one[0] = *row;
    size_t finished = row->st.finished; /* the fewest any replica finished */
    for (int64_t k = 1; k < replicas; k++) {
        int bad = run_one(s, seed + (uint64_t)k, policy, placement, &one[k]);
        free(one[k].waits_h); /* the CDF shows the first replica's waits */
        one[k].waits_h = NULL;
        if (bad) {
            for (int64_t r = 1; r < k; r++)
                st_compare_row_release(&one[r]);
            free(one);
            return ST_EXIT_SIM;
        }
        finished = one[k].st.finished < finished ? one[k].st.finished : finished;
    }
    summarise(row, one, (size_t)replicas);
    pools_over_replicas(row, one, (size_t)replicas);
    for (int64_t k = 1; k < replicas; k++)
        st_compare_row_release(&one[k]);
    row->st.finished = finished;
    row->st.unfinished = row->st.jobs - row->st.too_big - finished;
    free(one);
    return 0;
}

/* Every policy x placement of names and places on s, then the table to -o or stdout: 0, or
 * ST_EXIT_SIM after a run's or the write's error. */
static int compare_all(const cmp_opts *o, const st_scn *s, const char **names, size_t n,
                       const char **places, size_t n_pl)
{
    int rc = 0;
    uint64_t seed = o->has_seed ? o->seed : st_scn_seed(s);
    if (o->replicas > 1 && seed + (uint64_t)(o->replicas - 1) > 9007199254740992ull)
        return st_cli_usage_error("compare",
                                  "--replicas %lld from seed %llu would run seeds past 2^53 "
                                  "(9007199254740992), which a report cannot hold exactly",
                                  (long long)o->replicas, (unsigned long long)seed);
    st_compare_row *rows = st_xcalloc(n * n_pl, sizeof *rows);
    int64_t total = (int64_t)(n * n_pl);
    st_progress("compare: policy runs", 0, total);
    for (size_t i = 0; i < n * n_pl && !rc; i++) {
        rc = run_replicas(s, seed, o->replicas, names[i / n_pl], places[i % n_pl], &rows[i]);
        st_progress("compare: policy runs", rc ? total : (int64_t)i + 1, total);
    }
    n *= n_pl;
    if (!rc) {
        st_compare_label_rows(rows, n); /* as the summary names them: "fifo/pack" */
        st_compare_doc doc = {st_scn_name(s), seed, o->replicas, o->placements, rows, n};
        char *text = st_compare_render(&doc, (st_compare_format)o->format), why[512];
        if (o->output && st_cli_write_atomic(o->output, text, strlen(text), why, sizeof why)) {
            fprintf(stderr, "strata compare: %s\n", why);
            rc = ST_EXIT_SIM;
        } else if (!o->output) {
            fputs(text, stdout);
        }
        free(text);
    }
    for (size_t i = 0; i < n; i++)
        st_compare_row_release(&rows[i]);
    free(rows);
    return rc;
}

/* A comparison of policies needs jobs to schedule: a training workload, a service or a trace's
 * jobs. 0, or a usage error (exit 2): the input lacks them, no simulation failed. */
static int check_jobs(const st_scn *s)
{
    const st_trace_cfg *t = st_scn_trace(s);
    if (t && t->n_jobs > 0)
        return 0;
    for (size_t i = 0; i < st_scn_workload_count(s); i++)
        if (st_scn_workload(s, i)->kind != ST_WL_COLLECTIVE)
            return 0;
    return st_cli_usage_error("compare",
                              "%s has no training workload, service or trace job to schedule, "
                              "so there is nothing for the policies to order",
                              st_scn_path(s));
}

/* A trace replayed with Muri's conventions (trace.replay: muri) runs the artifact's three
 * policies alone: without --policies they are the list (names has room: every registered policy
 * fits it), another policy named or workloads beside the trace are a usage error (exit 2), not
 * a failed simulation. */
static int muri_policies(const cmp_opts *o, const st_scn *s, const char **names, size_t *n)
{
    static const char *const muri[] = {"srtf", "srsf", "tiresias"};
    if (st_scn_workload_count(s) > 0)
        return st_cli_usage_error("compare",
                                  "%s: trace.replay: muri replays its trace alone; remove its "
                                  "workloads or the replay",
                                  o->file);
    st_muri_order order;
    for (size_t i = 0; o->policies && i < *n; i++)
        if (st_muri_order_of(names[i], &order))
            return st_cli_usage_error("compare",
                                      "--policies: %s replays its trace with Muri's conventions "
                                      "(trace.replay: muri), which run the artifact's srtf, srsf "
                                      "and tiresias (Tiresias-L), not %s",
                                      o->file, names[i]);
    if (!o->policies) {
        *n = 0;
        for (size_t k = 0; k < sizeof muri / sizeof muri[0]; k++)
            names[(*n)++] = muri[k];
    }
    return 0;
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
    st_scn *s = NULL;
    if (st_cli_load(o.file, o.calibration, &s)) {
        free(names);
        free(places);
        return ST_EXIT_INPUT;
    }
    st_cli_print_warnings(s);
    const st_cli_file out = {"-o", o.output};
    if ((rc = st_cli_check_outputs("compare", s, &out, 1)) || (rc = check_jobs(s))) {
        free(names);
        free(places);
        st_scn_free(s);
        return rc;
    }
    if (st_scn_trace(s) && st_scn_trace(s)->replay == ST_REPLAY_MURI &&
        (rc = muri_policies(&o, s, names, &n))) {
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
