/* `strata run FILE`: load a scenario, forecast every workload, print and write the report. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "models/config/limits.h"
#include "planner/run_spec.h"
#include "report/report.h"
#include "sim/xalloc.h"

typedef struct run_opts {
    const char *file, *output, *trace, *trace_job, *calibration;
    int format;    /* st_report_format */
    int text_file; /* -o names a .txt: the text summary goes there, not to stdout */
    int has_seed;
    int explain;
    uint64_t seed;
    int64_t replicas;
    unsigned seen; /* the options of one value given (st_cli_once) */
} run_opts;

static int parse_seed(const char *text, uint64_t *out)
{
    char *end;
    if (!text || text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    /* Seeds stay exact in the JSON report, whose numbers are doubles: at most 2^53. */
    if (*end || v > 9007199254740992ull)
        return -1;
    *out = v;
    return 0;
}

/* The options that take a file or a name: the next argument, which must be there. */
static int string_opt(const char *a, const char *val, run_opts *o, int *used)
{
    static const struct {
        const char *name, *alias, *what;
        size_t off;
        int file; /* 1 + the st_cli_path_kind of a value that names a file, 0 for a name */
    } opts[] = {
        {"--output", "-o", "a file name", offsetof(run_opts, output), 1 + ST_CLI_WRITES},
        {"--trace", NULL, "a file name", offsetof(run_opts, trace), 1 + ST_CLI_WRITES},
        {"--trace-job", NULL, "a workload's name", offsetof(run_opts, trace_job), 0},
        {"--calibration", NULL, "a calibration file", offsetof(run_opts, calibration),
         1 + ST_CLI_READS},
    };
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        if (strcmp(a, opts[k].name) != 0 && !(opts[k].alias && strcmp(a, opts[k].alias) == 0))
            continue;
        if (!val)
            return st_cli_usage_error("run", "%s needs %s", a, opts[k].what);
        if (st_cli_once("run", a, &o->seen, 1u << k))
            return ST_EXIT_INPUT;
        if (opts[k].file ? st_cli_path_arg("run", a, val, (st_cli_path_kind)(opts[k].file - 1))
                         : st_cli_name_arg("run", a, val, opts[k].what))
            return ST_EXIT_INPUT;
        *(const char **)((char *)o + opts[k].off) = val;
        *used = 1;
        return 0;
    }
    return -1;
}

/* -o's format by its name where --format does not say (text and json write JSON to it, but to
 * a .txt the text). */
static int output_format(run_opts *o)
{
    static const char *const names[] = {"text", "json", "html", "markdown", "csv"};
    const char *given = o->seen & (1u << 8) ? names[o->format] : NULL, *ext;
    if (st_cli_output_format("run", o->output, given,
                             o->format > ST_FMT_JSON ? names[o->format] : "json", 1, &ext))
        return ST_EXIT_INPUT;
    if (!given && ext)
        o->format =
            st_report_format_of(ext) == ST_FMT_JSON ? ST_FMT_TEXT : st_report_format_of(ext);
    o->text_file = ext && strcmp(ext, "text") == 0; /* the summary, in place of stdout */
    return 0;
}

static int parse_opts(int argc, char **argv, run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 0, rc;
        if (st_cli_wants_help(a, "run"))
            return 1;
        if ((rc = string_opt(a, val, o, &used)) >= 0) {
            if (rc)
                return rc;
            i += used;
        } else if (strcmp(a, "--format") == 0) {
            if (st_cli_once("run", a, &o->seen, 1u << 8))
                return ST_EXIT_INPUT;
            if ((o->format = st_report_format_of(val)) < 0) /* what it found, as size says */
                return st_cli_usage_error("run",
                                          "--format takes text, json, html, markdown or csv%s%s%s",
                                          val ? ", found '" : "", val ? val : "", val ? "'" : "");
            i++;
        } else if (strcmp(a, "--replicas") == 0) {
            /* the shared value parser (models/config/limits.h), with the command's cap as a row */
            static const st_limit cap = {0, 1e6, "the most replicas run draws",
                                         "each is a life run of the whole job"};
            st_value_rule r = {.dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &cap};
            double v = 0;
            if (st_cli_once("run", a, &o->seen, 1u << 9))
                return ST_EXIT_INPUT;
            if ((rc = st_cli_value("run", "--replicas", val, &r, &v)))
                return rc;
            o->replicas = (int64_t)v;
            i++;
        } else if (strcmp(a, "--explain") == 0) {
            o->explain = 1;
        } else if (strcmp(a, "--seed") == 0) {
            if (st_cli_once("run", a, &o->seen, 1u << 10))
                return ST_EXIT_INPUT;
            if (parse_seed(val, &o->seed))
                return st_cli_usage_error("run", "--seed takes a whole number from 0 to 2^53%s%s%s",
                                          val ? ", found '" : "", val ? val : "", val ? "'" : "");
            o->has_seed = 1;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            return st_cli_unknown_option("run", a);
        } else if (o->file) {
            return st_cli_usage_error("run", "expected one scenario file, found a second: '%s'", a);
        } else {
            o->file = a;
        }
    }
    if (!o->file)
        return st_cli_usage_error("run", "expected a scenario file");
    if (o->trace_job && !o->trace)
        return st_cli_usage_error("run", "--trace-job needs --trace FILE");
    return output_format(o);
}

/* --trace needs a training workload, and --trace-job must name one: 0, or a usage error (exit
 * 2). */
static int check_trace_job(const run_opts *o, const st_scn *s)
{
    if (!o->trace_job) {
        for (size_t i = 0; o->trace && i < st_scn_workload_count(s); i++)
            if (st_scn_workload(s, i)->kind == ST_WL_TRAINING)
                return 0;
        return o->trace ? st_cli_usage_error("run",
                                             "--trace: '%s' has no training workload, and a "
                                             "trace is one training workload's step",
                                             st_scn_path(s))
                        : 0;
    }
    for (size_t i = 0; i < st_scn_workload_count(s); i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (strcmp(w->name, o->trace_job) == 0 && w->kind == ST_WL_TRAINING)
            return 0;
        if (strcmp(w->name, o->trace_job) == 0)
            return st_cli_usage_error("run",
                                      "--trace-job: '%s' is a %s workload; only a training "
                                      "workload's step can be traced",
                                      w->name, st_workload_kind_names[w->kind]);
    }
    char *names;
    size_t len;
    FILE *out = st_report_open(&names, &len); /* every name whole, however long */
    for (size_t i = 0, k = 0; i < st_scn_workload_count(s); i++)
        if (st_scn_workload(s, i)->kind == ST_WL_TRAINING)
            fprintf(out, "%s'%s'", k++ ? ", " : "", st_scn_workload(s, i)->name);
    st_report_close(out, &names);
    int rc =
        st_cli_usage_error("run", "--trace-job: no training workload named '%s'%s%s", o->trace_job,
                           names[0] ? "; the training workloads are " : "", names);
    free(names);
    return rc;
}

/* An HTML, Markdown or CSV report, or the text summary -o names a .txt for: to -o FILE
 * (atomically) when given, else to stdout. */
static int emit_doc(const run_opts *o, const st_report *r)
{
    char *doc = o->format == ST_FMT_TEXT ? st_report_text(r)
                                         : st_report_render(r, (st_report_format)o->format),
         why[512];
    int rc = ST_EXIT_OK;
    if (!o->output)
        fputs(doc, stdout);
    else if (st_cli_write_atomic(o->output, doc, strlen(doc), why, sizeof why)) {
        fprintf(stderr, "strata run: %s\n", why);
        rc = ST_EXIT_SIM;
    }
    free(doc);
    return rc;
}

static int emit(const run_opts *o, const st_report *r)
{
    if (o->format > ST_FMT_JSON || o->text_file)
        return emit_doc(o, r);
    int json_out = o->format == ST_FMT_JSON;
    char *json = NULL;
    if (o->output || json_out)
        json = st_report_json(r);
    if (o->output) {
        char why[512];
        if (st_cli_write_atomic(o->output, json, strlen(json), why, sizeof why)) {
            fprintf(stderr, "strata run: %s\n", why);
            free(json);
            return ST_EXIT_SIM;
        }
    }
    char *text = json_out ? json : st_report_text(r);
    fputs(text, stdout);
    if (text != json)
        free(text);
    free(json);
    return ST_EXIT_OK;
}

static int sim_error(const st_err *err)
{
    st_cli_print_err(err);
    return ST_EXIT_SIM;
}

/* The step's trace (report/trace.c) to path, atomically: 0, or ST_EXIT_SIM after saying why. */
static int write_trace(const char *path, const st_workload_cfg *w, const st_pipe_trace *t)
{
    char *text = st_report_trace(w, t), why[512];
    int rc = st_cli_write_atomic(path, text, strlen(text), why, sizeof why);
    free(text);
    if (!rc)
        return ST_EXIT_OK;
    st_err err = {0};
    st_err_set(&err, ST_EIO, (st_loc){path, 0, 0}, "%s", why);
    return sim_error(&err);
}

/* --replicas draws each job's life again; under failures.scope: cluster a life draws no
 * failure (the cluster run does, once), so replicas would give a spread of none: refused. */
static int check_replicas(const run_opts *o, const st_scn *s)
{
    const st_failures_cfg *f = st_scn_failures(s);
    if (!o->replicas || !f || !f->cluster_scope)
        return 0;
    return st_cli_usage_error("run",
                              "--replicas: under failures.scope: cluster the failures are drawn "
                              "by the cluster run, not by each job's life, so its replicas would "
                              "draw none; run again with other --seed values to see other draws");
}

/* The forecast of the whole scenario (models/forecast/run.h), then the --trace file. */
static int simulate(const run_opts *o, const st_scn *s, uint64_t seed, st_run *run)
{
    st_run_spec spec = st_plan_run_spec(s, seed);
    spec.replicas = o->replicas;
    spec.trace = o->trace != NULL;
    spec.trace_job = o->trace_job;
    st_err err = {0};
    if (st_run_forecast(&spec, run, &err))
        return sim_error(&err);
    if (o->trace && !run->has_trace) /* check_trace_job refused this before the run */
        ST_BUG("--trace: no training workload was traced");
    if (o->trace)
        return write_trace(o->trace, &spec.w[run->trace_job], &run->trace);
    return ST_EXIT_OK;
}

int st_cmd_run(int argc, char **argv)
{
    run_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    st_scn *s = NULL;
    if (st_cli_load(o.file, o.calibration, &s))
        return ST_EXIT_INPUT;
    st_cli_print_warnings(s);
    const st_cli_file out[] = {{"-o", o.output}, {"--trace", o.trace}};
    if ((rc = st_cli_check_outputs("run", s, out, 2)) || (rc = check_trace_job(&o, s)) ||
        (rc = check_replicas(&o, s))) {
        st_scn_free(s);
        return rc;
    }
    uint64_t seed = o.has_seed ? o.seed : st_scn_seed(s);
    st_run run;
    rc = simulate(&o, s, seed, &run);
    st_report r = {.s = s, .seed = seed, .run = &run, .explain = o.explain};
    if (!rc)
        rc = emit(&o, &r);
    st_run_release(&run);
    st_scn_free(s);
    return rc;
}
