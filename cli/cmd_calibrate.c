/* `strata calibrate FILE [--step JOB=DURATION ...] [--nccl-tests [OP:]LOG ...] [--gemm CSV ...]
 * [-o CAL.yaml]`: fit FILE's cluster's own efficiency terms from what its owner measured
 * (planner/calibrate.h) and write them as the calibration file run, sweep, size and compare take
 * (`--calibration`, or the scenario's cluster.calibration): what was fitted, from what, and its
 * fit error, as YAML the loader reads back (scenarios/load_calib.c). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "planner/calibrate.h"
#include "report/report.h"
#include "scenarios/reader.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

#define MAX_INPUTS 64 /* --step, --nccl-tests or --gemm options of one run */

typedef struct cal_opts {
    const char *file, *output;
    const char *step[MAX_INPUTS], *nccl[MAX_INPUTS], *gemm[MAX_INPUTS];
    size_t n_step, n_nccl, n_gemm;
} cal_opts;

static int add(const char *opt, const char *val, const char **list, size_t *n)
{
    if (!val)
        return st_cli_usage_error("calibrate", "%s needs a value", opt);
    if (strcmp(opt, "--step") == 0 && val[0] &&
        st_cli_name_arg("calibrate", opt, val, "JOB=DURATION, such as pretrain=6.9s"))
        return ST_EXIT_INPUT;
    if (strcmp(opt, "--step") != 0 && val[0] &&
        st_cli_path_arg("calibrate", opt, val, ST_CLI_READS))
        return ST_EXIT_INPUT; /* a log or CSV; '' is refused below */
    /* an empty value, or an OP: with no log after it, names no file (the read said only
     * "No such file or directory", naming nothing) */
    const char *colon = strcmp(opt, "--nccl-tests") == 0 ? strchr(val, ':') : NULL; /* log_path's */
    if (!*val || (colon && !colon[1] && !memchr(val, '/', (size_t)(colon - val))))
        return st_cli_usage_error("calibrate", "%s '%s': expected %s", opt, val,
                                  strcmp(opt, "--step") == 0 ? "JOB=DURATION, such as pretrain=6.9s"
                                  : colon                    ? "a file after the OP:"
                                                             : "a file");
    if (*n == MAX_INPUTS)
        return st_cli_usage_error("calibrate", "%s: at most %d of them", opt, MAX_INPUTS);
    list[(*n)++] = val;
    return 0;
}

/* The LOG of --nccl-tests [OP:]LOG, and its OP into op ("" when none is given). */
static const char *log_path(const char *arg, char *op, size_t n)
{
    const char *colon = strchr(arg, ':');
    *op = '\0';
    if (!colon || (size_t)(colon - arg) >= n || memchr(arg, '/', (size_t)(colon - arg)))
        return arg;
    snprintf(op, n, "%.*s", (int)(colon - arg), arg);
    return colon + 1;
}

/* --nccl-tests [OP:]LOG: an OP that names no nccl-tests binary is a usage error, said before
 * the scenario is loaded, as the command's others are. */
static int add_log(cal_opts *o, const char *val)
{
    int rc = add("--nccl-tests", val, o->nccl, &o->n_nccl);
    if (rc)
        return rc;
    char op[32];
    st_coll_op c;
    /* an empty OP (':a.log') named none, and the log was read as if no OP were given */
    if (log_path(val, op, sizeof op) != val && !st_cal_nccl_op(op, &c))
        return st_cli_usage_error("calibrate",
                                  "--nccl-tests %s: expected all_reduce, all_gather, "
                                  "reduce_scatter, alltoall or broadcast before the ':'",
                                  val);
    return 0;
}

static int opt_one(const char *a, const char *val, void *p)
{
    cal_opts *o = p;
    if (strcmp(a, "--step") == 0)
        return add(a, val, o->step, &o->n_step);
    if (strcmp(a, "--nccl-tests") == 0)
        return add_log(o, val);
    if (strcmp(a, "--gemm") == 0)
        return add(a, val, o->gemm, &o->n_gemm);
    if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        if (o->output) /* the last one silently won */
            return st_cli_usage_error("calibrate", "%s is given twice; give it once", a);
        if (st_cli_path_arg("calibrate", a, val, ST_CLI_WRITES))
            return ST_EXIT_INPUT;
        o->output = val;
        return 0;
    }
    return -1;
}

/* --step JOB=DURATION: the workload named JOB and its measured step. Split at the last '=': a
 * duration holds none, a workload's name may. */
static int parse_step(const st_scn *s, const char *arg, st_cal_step *out)
{
    const char *eq = strrchr(arg, '=');
    if (!eq)
        return st_cli_usage_error("calibrate",
                                  "--step %s: expected JOB=DURATION, such as "
                                  "pretrain=6.9s",
                                  arg);
    size_t n = (size_t)(eq - arg);
    const st_workload_cfg *w = NULL;
    for (size_t i = 0; i < st_scn_workload_count(s) && !w; i++) {
        const st_workload_cfg *c = st_scn_workload(s, i);
        if (c->kind == ST_WL_TRAINING && strlen(c->name) == n && strncmp(c->name, arg, n) == 0)
            w = c;
    }
    if (!w) { /* `--step mpt-7b-8gp=1s`: did you mean 'mpt-7b-8gpu'? */
        const char *names[64];
        size_t m = 0;
        for (size_t i = 0; i < st_scn_workload_count(s) && m < 64; i++)
            if (st_scn_workload(s, i)->kind == ST_WL_TRAINING)
                names[m++] = st_scn_workload(s, i)->name;
        char *job = st_xstrndup(arg, n), near[200];
        st_did_you_mean(job, names, m, near, sizeof near);
        free(job);
        return st_cli_usage_error("calibrate",
                                  "--step %s: no training workload named '%.*s' in "
                                  "the scenario%s",
                                  arg, (int)n, arg, near);
    }
    st_value_rule r = {.dim = ST_DIM_TIME, .range = ST_R_POS, .lim = &st_lim_span};
    char *opt = st_xasprintf("--step %s", w->name);
    *out = (st_cal_step){.w = w};
    int rc = st_cli_value("calibrate", opt, eq + 1, &r, &out->seconds);
    free(opt);
    return rc;
}

static int read_log(const char *arg, st_cal_nccl *l)
{
    char op[32];
    const char *path = log_path(arg, op, sizeof op);
    st_err err = {0};
    if (st_cal_nccl_read(path, *op ? op : NULL, l, &err)) {
        st_cli_print_err(&err);
        return ST_EXIT_INPUT;
    }
    return 0;
}

static const char *fit_line(const st_cal_fit *f, char *buf, size_t n)
{
    const char *what = strcmp(f->from, "gemm") == 0    ? "GEMM timing"
                       : strcmp(f->from, "steps") == 0 ? "measured step"
                                                       : "nccl-tests row";
    snprintf(buf, n, "from %d %s%s: median |error| %.1f%% before, %.1f%% after", f->rows, what,
             f->rows == 1 ? "" : "s", 100 * f->err_before, 100 * f->err_after);
    return buf;
}

/* The code point of the well-formed UTF-8 sequence at s (its length into *len). */
static unsigned long code_point(const unsigned char *s, size_t *len)
{
    if (s[0] < 0x80)
        return *len = 1, s[0];
    if (s[0] < 0xe0)
        return *len = 2, ((s[0] & 0x1ful) << 6) | (s[1] & 0x3f);
    if (s[0] < 0xf0)
        return *len = 3, ((s[0] & 0x0ful) << 12) | ((s[1] & 0x3ful) << 6) | (s[2] & 0x3f);
    return *len = 4, ((s[0] & 0x07ul) << 18) | ((s[1] & 0x3ful) << 12) | ((s[2] & 0x3ful) << 6) |
                         (s[3] & 0x3f);
}

/* Whether YAML prints c in a scalar as itself: its printable set (tab and line breaks aside,
 * U+0020-U+007E, U+00A0-U+D7FF, U+E000-U+FFFD, U+10000 up), less U+2028 and U+2029, which it
 * reads as line breaks. */
static int yaml_printable(unsigned long c)
{
    return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff && c != 0x2028 && c != 0x2029) ||
           (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
}

/* s as text the loader reads back: a byte that is not UTF-8, and a character YAML does not
 * print as itself (C0, DEL, C1, U+2028, U+2029, U+FFFE, U+FFFF), which the loader refuses or
 * reads as a line break, become '?'; with quoted, a double-quoted scalar with its backslashes and
 * quotes escaped. The paths and names so written are a record of what was fitted, never read
 * as paths again. */
static void put_text(FILE *out, const char *s, int quoted)
{
    if (quoted)
        fputc('"', out);
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        /* the first sequence alone: a longest one is 4 bytes (a check to the end each time
         * would be quadratic in the text) */
        size_t ok = st_utf8_check(s + i, n - i < 4 ? n - i : 4), len = 1;
        unsigned long c = ok ? code_point((const unsigned char *)s + i, &len) : 0;
        if (!ok || !yaml_printable(c)) {
            fputc('?', out);
            i += ok ? len : 1;
            continue;
        }
        if (quoted && (c == '"' || c == '\\'))
            fputc('\\', out);
        fwrite(s + i, 1, len, out);
        i += len;
    }
    if (quoted)
        fputc('"', out);
}

/* The calibration as YAML: the calibration: mapping the loader reads, each fitted term with
 * what fitted it in a comment, then the sources. */
static char *yaml_of(const cal_opts *o, const st_cal_input *in, const st_cal_result *r)
{
    char *buf, line[200];
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    const st_calib_cfg *c = &r->cal;
    fputs("# Generated by strata calibrate from ", out);
    put_text(out, o->file, 0); /* a comment: no line break may end it */
    fputs(": the cluster's own efficiency terms\n"
          "# (docs/models/calibration.md, \"Your own cluster\"). Give it to run, sweep, size\n"
          "# or compare as --calibration FILE, or name it in cluster.calibration.\n",
          out);
    fprintf(out, "version: 1\ncalibration:\n  gpu: %s\n", c->gpu);
    const double v[ST_CAL__TERMS] = {c->nvlink,       c->network,     c->latency_s * 1e6,
                                     c->compute_bf16, c->compute_fp8, c->step_overhead_s};
    const char *unit[ST_CAL__TERMS] = {"", "", " us", "", "", " s"};
    for (int t = 0; t < ST_CAL__TERMS; t++)
        if (r->fit[t].fitted)
            fprintf(out, "  %s: %.6g%s  # %s\n", st_cal_term_name((st_cal_term)t), v[t], unit[t],
                    fit_line(&r->fit[t], line, sizeof line));
    if (c->steps)
        fprintf(out,
                "  # the error band of a calibrated cluster: its own residuals times how "
                "far published\n  # calibrations on a small scale missed at larger ones "
                "(docs/models/error-band.md)\n  steps: %d\n",
                c->steps);
    if (c->n_residuals) {
        fprintf(out, "  # each measured step over its prediction with itself left out of the "
                     "fit\n  residuals: [");
        for (int i = 0; i < c->n_residuals; i++)
            fprintf(out, "%s%.6g", i ? ", " : "", c->residuals[i]);
        fprintf(out, "]\n");
    }
    fprintf(out, "sources:\n");
    for (size_t i = 0; i < in->n_logs; i++) {
        const st_cal_nccl *l = &in->logs[i];
        fprintf(out, "  - {kind: nccl-tests, file: ");
        put_text(out, l->file, 1);
        fprintf(out, ", op: %s, ranks: %lld, nodes: %lld, rows: %zu}\n", st_coll_op_name(l->op),
                (long long)l->ranks, (long long)l->nodes, l->n);
    }
    if (in->n_gemm)
        fprintf(out, "  - {kind: gemm, rows: %zu}\n", in->n_gemm);
    for (size_t i = 0; i < in->n_steps; i++) {
        fprintf(out, "  - {kind: step, job: ");
        put_text(out, in->steps[i].w->name, 1);
        fprintf(out, ", measured_s: %.6g, predicted_s: %.6g, calibrated_s: %.6g}\n",
                in->steps[i].seconds, r->steps[i].before_s, r->steps[i].after_s);
    }
    return st_report_close(out, &buf);
}

/* A file the run reads: its path, and the option and value that named it. */
typedef struct input {
    const char *path, *opt, *arg;
} input;

/* The scenario, then each --nccl-tests log and --gemm CSV, into in; their count. */
static size_t input_files(const cal_opts *o, input *in)
{
    size_t n = 0;
    char op[32];
    in[n++] = (input){o->file, "the scenario", o->file};
    for (size_t i = 0; i < o->n_nccl; i++)
        in[n++] = (input){log_path(o->nccl[i], op, sizeof op), "--nccl-tests", o->nccl[i]};
    for (size_t i = 0; i < o->n_gemm; i++)
        in[n++] = (input){o->gemm[i], "--gemm", o->gemm[i]};
    return n;
}

static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Whether the output is one of the inputs (the same file through any path): refused. */
static int clobbers(const cal_opts *o)
{
    input in[1 + 2 * MAX_INPUTS];
    size_t n = input_files(o, in);
    for (size_t i = 0; o->output && i < n; i++)
        if (same_file(o->output, in[i].path))
            return st_cli_usage_error("calibrate",
                                      "-o %s is the input %s: refused, it would be "
                                      "overwritten",
                                      o->output, in[i].path);
    return 0;
}

/* Whether a log or CSV is given twice, through any path (a symlink or a hard link is the same
 * device and inode): refused, naming both, since its rows would weigh twice in every median
 * they enter. */
static int read_twice(const cal_opts *o)
{
    input in[1 + 2 * MAX_INPUTS];
    size_t n = input_files(o, in);
    for (size_t i = 2; i < n; i++)
        for (size_t j = 1; j < i; j++)
            if (same_file(in[i].path, in[j].path))
                return st_cli_usage_error("calibrate",
                                          "%s %s is the file %s %s reads already: give each "
                                          "measurement once",
                                          in[i].opt, in[i].arg, in[j].opt, in[j].arg);
    return 0;
}

/* Whether --step i names a job an earlier --step measured: refused, naming both. Two steps of
 * one job would enter the fit twice and each would be the other's leave-one-out fit, so its
 * residual would measure the two runs' spread, not how far the model misses a job it was not
 * fitted on. */
static int step_twice(const cal_opts *o, const st_cal_step *steps, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (steps[j].w == steps[i].w)
            return st_cli_usage_error("calibrate",
                                      "--step %s: job '%s' is measured already by --step %s: "
                                      "give one step a job (the mean of its runs)",
                                      o->step[i], steps[i].w->name, o->step[j]);
    return 0;
}

static int calibrate(const cal_opts *o, const st_scn *s)
{
    st_cal_step steps[MAX_INPUTS];
    st_cal_nccl logs[MAX_INPUTS];
    st_cal_gemm *gemm = NULL;
    size_t n_logs = 0, n_gemm = 0;
    int rc = 0;
    for (size_t i = 0; i < o->n_step && !rc; i++)
        if (!(rc = parse_step(s, o->step[i], &steps[i])))
            rc = step_twice(o, steps, i);
    for (size_t i = 0; i < o->n_nccl && !rc; i++)
        if (!(rc = read_log(o->nccl[i], &logs[i])))
            n_logs++;
    for (size_t i = 0; i < o->n_gemm && !rc; i++) {
        st_err err = {0};
        if (st_cal_gemm_read(o->gemm[i], &gemm, &n_gemm, &err)) {
            st_cli_print_err(&err);
            rc = ST_EXIT_INPUT;
        }
    }
    st_cal_input in = {.c = st_scn_cluster(s),
                       .logs = logs,
                       .n_logs = n_logs,
                       .gemm = gemm,
                       .n_gemm = n_gemm,
                       .steps = steps,
                       .n_steps = o->n_step};
    st_cal_result r = {0};
    st_err err = {0};
    if (!rc && st_calibrate(&in, &r, &err)) {
        if (!err.loc.file) /* a located error starts with its file, as every reader's does */
            fprintf(stderr, "strata calibrate: ");
        st_cli_print_err(&err);
        rc = ST_EXIT_INPUT;
    }
    if (!rc) {
        char *y = yaml_of(o, &in, &r), why[512];
        if (o->output && st_cli_write_atomic(o->output, y, strlen(y), why, sizeof why)) {
            fprintf(stderr, "strata calibrate: %s\n", why);
            rc = ST_EXIT_SIM;
        } else if (!o->output) {
            fputs(y, stdout);
        }
        free(y);
    }
    st_cal_release(&r);
    for (size_t i = 0; i < n_logs; i++)
        st_cal_nccl_free(&logs[i]);
    free(gemm);
    return rc;
}

int st_cmd_calibrate(int argc, char **argv)
{
    cal_opts o = {0};
    int rc = st_cli_parse_args("calibrate", argc, argv, opt_one, &o, &o.file);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    if (!o.n_step && !o.n_nccl && !o.n_gemm)
        return st_cli_usage_error("calibrate", "nothing to fit: give --step, --nccl-tests or "
                                               "--gemm");
    if ((rc = clobbers(&o)) || (rc = read_twice(&o)))
        return rc;
    st_scn *s = NULL;
    if (st_cli_load(o.file, NULL, &s))
        return ST_EXIT_INPUT;
    st_cli_print_warnings(s);
    const st_cli_file out = {"-o", o.output};
    if (!(rc = st_cli_refuse_pools("calibrate", s,
                                   "a calibration is fitted on one GPU type, and this cluster "
                                   "has cluster.pools: calibrate on a one-type scenario")) &&
        !(rc = st_cli_check_outputs("calibrate", s, &out, 1)))
        rc = calibrate(&o, s);
    st_scn_free(s);
    return rc;
}
