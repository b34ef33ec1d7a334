/* `strata sweep FILE --set PATH=V1,V2,... [-j N] [-o FILE] [--format csv|json|markdown]`: every
 * point of the grid a full run (planner/sweep.c), on N worker processes, rows in point order
 * whatever N is; with -o, each finished row is journalled so an interrupted sweep resumes.
 * Under `mpirun -n N`, the ranks are the workers (cli/sweep_mpi.c) and rank 0 alone reads the
 * journal and writes. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "models/config/limits.h"
#include "report/figures.h"
#include "report/report.h"
#include "scenarios/override.h"
#include "sim/strfmt.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

#define MAX_WORKERS 256

typedef struct sweep_opts {
    const char *file, *output, *columns, *calibration;
    int workers, workers_given;
    int mpi, rank, ranks; /* under mpirun: this process's rank of `ranks` */
    st_sweep_format format;
    st_grid grid;
    unsigned seen; /* the options of one value given (st_cli_once) */
} sweep_opts;

/* The value after an option, or a usage error. */
static int need(const char *opt, const char *val)
{
    if (val)
        return 0;
    return st_cli_usage_error("sweep", "%s needs a value", opt);
}

static const char *const format_names[] = {"csv", "json", "markdown", "html"};

static int parse_format(const char *val, sweep_opts *o)
{
    for (int f = 0; f < 4; f++)
        if (strcmp(val, format_names[f]) == 0) {
            o->format = (st_sweep_format)f;
            return 0;
        }
    return st_cli_usage_error(
        "sweep", "--format takes 'csv', 'json', 'markdown' or 'html', found '%s'", val);
}

static int parse_jobs(const char *a, const char *val, sweep_opts *o)
{
    /* Through the shared value parser (models/config/limits.h), as every count a command reads. */
    static const st_limit cap = {0, MAX_WORKERS, "the most worker processes sweep starts",
                                 "one process a point in flight"};
    st_value_rule r = {.dim = ST_DIM_COUNT, .range = ST_R_MIN1, .whole = 1, .lim = &cap};
    double v = 0;
    if (st_cli_value("sweep", a, val, &r, &v))
        return ST_EXIT_INPUT;
    o->workers = (int)v;
    o->workers_given = 1;
    return 0;
}

/* sweep's options of one value, each one's spellings (st_cli_once_of); --set adds an axis each
 * time. */
static const char *const once[] = {"--calibration", "-j --jobs", "-o --output",
                                   "--columns",     "--format",  NULL};

static int parse_one(const char *a, const char *val, sweep_opts *o)
{
    char why[300];
    if (st_cli_once_of("sweep", once, a, &o->seen))
        return ST_EXIT_INPUT;
    if (strcmp(a, "--set") == 0) {
        if (need(a, val))
            return ST_EXIT_INPUT;
        if (st_grid_add(&o->grid, val, why, sizeof why)) /* echoed only when it is UTF-8 */
            return st_utf8_check(val, strlen(val)) < strlen(val)
                       ? st_cli_usage_error("sweep", "--set: %s", why)
                       : st_cli_usage_error("sweep", "--set %s: %s", val, why);
    } else if (strcmp(a, "--calibration") == 0) {
        /* one input of every point, loaded once before the sweep (st_cli_calibration_set), not an
         * axis */
        if (st_cli_path_arg("sweep", a, val, ST_CLI_READS))
            return ST_EXIT_INPUT;
        o->calibration = val;
    } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
        return parse_jobs(a, val, o);
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        if (st_cli_path_arg("sweep", a, val, ST_CLI_WRITES))
            return ST_EXIT_INPUT;
        o->output = val;
    } else if (strcmp(a, "--columns") == 0) {
        if (st_cli_name_arg("sweep", a, val, "a comma-separated list of report keys"))
            return ST_EXIT_INPUT;
        o->columns = val;
    } else if (strcmp(a, "--format") == 0) {
        return need(a, val) ? ST_EXIT_INPUT : parse_format(val, o);
    } else if (strcmp(a, "--resume") == 0 || strncmp(a, "--resume=", 9) == 0) {
        /* what a user who knows a sweep resumes reaches for (it said only "unknown option") */
        return st_cli_usage_error("sweep",
                                  "unknown option '%s': a sweep given -o FILE journals each row "
                                  "to FILE.journal, and the same command run again resumes from "
                                  "it, computing only the points it lacks",
                                  a);
    } else {
        return -1;
    }
    return 0;
}

/* parse_one behind the st_cli_opt_fn signature. */
static int opt_one(const char *a, const char *val, void *o)
{
    return parse_one(a, val, o);
}

/* A --set of cluster.calibration (or of a key under it) beside --calibration: the one would
 * replace the other on every point, so which calibration the rows hold would be a guess. */
static int calibration_swept(const sweep_opts *o)
{
    static const char key[] = "cluster.calibration";
    for (size_t a = 0; o->calibration && a < o->grid.n_ax; a++) {
        const char *p = o->grid.ax[a].path;
        /* the key itself (strchr finds the NUL too), or a key or entry under it */
        if (strncmp(p, key, sizeof key - 1) == 0 && strchr(".[", p[sizeof key - 1]))
            return st_cli_usage_error("sweep",
                                      "--set %s: --calibration %s already gives every point its "
                                      "calibration; give one or the other",
                                      p, o->calibration);
    }
    return 0;
}

static int parse_opts(int argc, char **argv, sweep_opts *o)
{
    o->workers = 1;
    o->grid.n_points = 1;
    int rc = st_cli_parse_args("sweep", argc, argv, opt_one, o, &o->file);
    if (!rc && o->grid.n_ax == 0) /* one point is `strata run`'s job, not a sweep's */
        return st_cli_usage_error("sweep", "expected at least one --set PATH=V1,V2,... to sweep "
                                           "(`strata run FILE` runs the file as it is)");
    if (rc)
        return rc;
    /* -o's format by its name where --format (once[4]) does not say */
    const char *given = o->seen & (1u << 4) ? format_names[o->format] : NULL, *ext;
    if (st_cli_output_format("sweep", o->output, given, format_names[o->format], 0, &ext))
        return ST_EXIT_INPUT;
    if (!given && ext)
        parse_format(ext, o);
    return calibration_swept(o);
}

typedef struct sweep_run {
    const sweep_opts *o;
    const st_sweep *sw;
    char ***rows;
    int journal;        /* -1: none */
    char *journal_path; /* its path, for a refused row's message */
    size_t resumed, computed, failed;
    size_t shown;     /* rows[0..shown) are on stdout (CSV and Markdown stream there) */
    int stream;       /* print rows as the finished prefix grows */
    double t0, drawn; /* the start; when the progress line was last drawn (0: not shown) */
    int progress;     /* draw it: stderr is a terminal, or STRATA_PROGRESS=always */
    int always;       /* STRATA_PROGRESS=always: from the start, and a line per update off a
                         terminal (main.c's reporter's modes) */
    char why[1024];   /* room for a journal's path and line */
} sweep_run;

/* ---- an interrupted sweep says where it stands ------------------------------------------- */

/* What the handler of SIGINT and SIGTERM says (a sweep cut by Ctrl-C ended with its CSV cut after
 * some rows and nothing on stderr): how many rows of how many are out, where, and how to resume.
 * Set before the handler is installed; the counts as the rows come, each after its row is out
 * (written and flushed): the signals are never held around a write, which a full pipe or a hung
 * filesystem can block for good, so a row being written when the signal comes may be out and not
 * counted, and the handler says "at least". */
static struct {
    volatile sig_atomic_t shown, journalled, drawn;
    volatile sig_atomic_t reading; /* the journal is being read: no count of it yet */
    size_t total;
    int stream;
    const char *output, *journal, *format;
} intr;

static const int intr_signals[] = {SIGINT, SIGTERM};

/* s on stderr: write(2) and strlen are async-signal-safe, stdio is not. */
static void intr_put(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w, n -= (size_t)w;
    }
}

static void intr_count(size_t v)
{
    char b[24];
    size_t i = sizeof b - 1;
    b[i] = '\0';
    do
        b[--i] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    intr_put(b + i);
}

static void on_interrupt(int sig)
{
    if (intr.drawn) /* the progress line's place */
        intr_put("\r                                                                      \r");
    intr_put("strata sweep: interrupted: ");
    if (intr.journal && intr.reading) {
        intr_put("while the journal ");
        intr_put(intr.journal);
        intr_put(" was being read, before any point was computed; ");
        intr_put(intr.output);
        intr_put(" is not written: the same command resumes from the journal\n");
    } else if (intr.journal) {
        intr_put("at least ");
        intr_count((size_t)intr.journalled);
        intr_put(" of ");
        intr_count(intr.total);
        intr_put(" rows are in the journal ");
        intr_put(intr.journal);
        intr_put(", ");
        intr_put(intr.output);
        intr_put(
            " is not written: the same command resumes from the journal, computing the rest\n");
    } else {
        if (intr.stream)
            intr_put("at least ");
        intr_count(intr.stream ? (size_t)intr.shown : 0);
        intr_put(" of ");
        intr_count(intr.total);
        intr_put(intr.stream ? " rows written to stdout" : " rows written (");
        if (!intr.stream) {
            intr_put(intr.format);
            intr_put(" is written at the end)");
        }
        intr_put(intr.output ? "; -o is no regular file, so there is no journal to resume from\n"
                             : "; no journal to resume from: with -o FILE each row is journalled, "
                               "and the same command resumes\n");
    }
    signal(sig, SIG_DFL); /* and end as the signal ends a process (exit status 128 + sig) */
    raise(sig);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The progress line on stderr (a terminal): nothing for the first second, then at most five
 * updates a second, as main.c's reporter draws the models' loops; under STRATA_PROGRESS=always
 * from the start, a line per update where stderr is not a terminal. */
static void progress_draw(sweep_run *r)
{
    double t = now_s();
    if (!r->progress || (!r->always && t - r->t0 < 1.0) || (r->drawn > 0 && t - r->drawn < 0.2))
        return;
    r->drawn = t;
    int tty = !r->always || isatty(STDERR_FILENO);
    intr.drawn = tty;
    fprintf(stderr, "%sstrata sweep: %zu of %zu points, %zu failed, %.0f s%s", tty ? "\r" : "",
            r->resumed + r->computed + r->failed, r->sw->grid->n_points, r->failed, t - r->t0,
            tty ? "  " : "\n");
}

static void progress_clear(sweep_run *r)
{
    if (r->drawn > 0 && (!r->always || isatty(STDERR_FILENO)))
        fprintf(stderr, "\r%70s\r", "");
    r->drawn = 0;
    intr.drawn = 0;
}

static void on_tick(void *ctx)
{
    progress_draw(ctx);
}

/* Print the rows whose points are all done up to them, in point order (CSV and Markdown on
 * stdout). Returns 0, or -1 when stdout cannot be written. */
static int stream_rows(sweep_run *r)
{
    size_t n = r->sw->grid->n_points, from = r->shown;
    if (!r->stream || from >= n || !r->rows[from])
        return 0;
    progress_clear(r);
    int flushed = 1;
    while (flushed && r->shown < n && r->rows[r->shown]) {
        char *line = st_sweep_render_row(r->sw, r->rows[r->shown], r->o->format);
        flushed = fputs(line, stdout) >= 0 && fflush(stdout) == 0; /* a row out, then counted */
        free(line);
        if (flushed)
            intr.shown = (sig_atomic_t)++r->shown;
    }
    if (flushed)
        return 0;
    snprintf(r->why, sizeof r->why, "cannot write standard output: %s",
             errno ? strerror(errno) : "write error");
    st_cli_stdout_said(); /* main's close_stdout need not say it again */
    return -1;
}

/* A row from a worker or a rank. A failed point (its worker died) is not journalled, so the same
 * command computes it again. */
static int on_row(void *ctx, size_t p, char **cells, int failed)
{
    sweep_run *r = ctx;
    if (p >= r->sw->grid->n_points || r->rows[p]) {
        st_sweep_cells_free(cells, r->sw->n_cols);
        snprintf(r->why, sizeof r->why, "a second row for point %zu", p);
        return -1;
    }
    r->rows[p] = cells;
    if (failed) {
        r->failed++;
    } else {
        r->computed++;
        if (r->journal >= 0 &&
            st_sweep_journal_add(r->journal, r->sw, p, cells, r->why, sizeof r->why))
            return 1;
        intr.journalled = (sig_atomic_t)(r->resumed + r->computed); /* once it is in */
    }
    if (stream_rows(r))
        return 1;
    progress_draw(r);
    return 0;
}

/* The points left to do on the workers, or the MPI ranks. */
static int run_left(sweep_run *r, const size_t *left, size_t n_left)
{
    st_sweep_sink sink = {.row = on_row, .tick = r->progress ? on_tick : NULL, .ctx = r};
    if (r->o->mpi)
        return st_sweep_mpi_run(r->sw, left, n_left, &sink, r->why, sizeof r->why);
    return st_sweep_workers(r->sw, left, n_left, r->o->workers, &sink, r->why, sizeof r->why);
}

/* What says where the journal stands, and the points that failed. */
static void summary(const sweep_run *r)
{
    const sweep_opts *o = r->o;
    size_t n = r->sw->grid->n_points;
    int k = o->mpi ? o->ranks : o->workers;
    if (!o->mpi && (size_t)k > n - r->resumed) /* st_sweep_workers starts no more than points */
        k = n > r->resumed ? (int)(n - r->resumed) : 1;
    fprintf(
        stderr, "strata sweep: %zu %s: %zu from the journal, %zu computed on %d %s%s in %.2f s\n",
        n, n == 1 ? "point" : "points", r->resumed, r->computed, k, o->mpi ? "MPI " : "",
        k == 1 ? (o->mpi ? "rank" : "worker") : (o->mpi ? "ranks" : "workers"), now_s() - r->t0);
    if (r->failed)
        fprintf(stderr,
                "strata sweep: error: %zu of %zu points failed: the worker process computing %s "
                "died (the reason column says how); %s\n",
                r->failed, n, r->failed == 1 ? "it" : "each",
                o->output ? "the journal lacks them, so the same command computes them again"
                          : "with -o, a rerun would compute only them");
}

/* Resume from the journal (already open), compute the rest, and fill a row for every point.
 * Returns 0, or the exit status with the reason in r->why. */
static int compute(sweep_run *r)
{
    size_t n = r->sw->grid->n_points;
    int jr = r->journal < 0 ? 0
                            : st_sweep_journal_read(r->journal, r->journal_path, r->sw, r->rows,
                                                    &r->resumed, r->why, sizeof r->why);
    intr.journalled = (sig_atomic_t)r->resumed;
    intr.reading = 0; /* the handler now says the journal's count */
    if (jr) {
        if (r->o->mpi) /* the other ranks wait for a to-do list: an empty one ends them */
            run_left(r, NULL, 0);
        return jr == -2 ? ST_EXIT_INPUT : ST_EXIT_SIM; /* a row refused: the journal is bad input */
    }
    size_t *left = st_xmalloc((n ? n : 1) * sizeof *left), n_left = 0;
    for (size_t p = 0; p < n; p++)
        if (!r->rows[p])
            left[n_left++] = p;
    if (r->stream) {
        char *head = st_sweep_render_head(r->sw, r->o->format);
        fputs(head, stdout);
        free(head);
    }
    int rc = stream_rows(r); /* the rows the journal had, up to the first it lacks */
    if (rc && r->o->mpi)     /* the other ranks wait for a to-do list: an empty one ends them */
        run_left(r, NULL, 0);
    else if (!rc)
        rc = run_left(r, left, n_left);
    free(left);
    for (size_t p = 0; !rc && p < n; p++)
        if (!r->rows[p])
            ST_BUG("sweep point %zu has no row", p);
    progress_clear(r);
    summary(r);
    return rc ? ST_EXIT_SIM : 0;
}

static int emit(const sweep_opts *o, const st_sweep *sw, char ***rows)
{
    char *text = st_sweep_render(sw, rows, sw->grid->n_points, o->format), why[512];
    int rc = ST_EXIT_OK;
    if (!o->output)
        fputs(text, stdout);
    else if (st_cli_write_atomic(o->output, text, strlen(text), why, sizeof why)) {
        fprintf(stderr, "strata sweep: %s\n", why);
        rc = ST_EXIT_SIM;
    }
    free(text);
    return rc;
}

/* Refuse a journal path that is not a regular file: a journal is appended to and read back, and
 * a FIFO would block. */
static int check_regular(const char *what, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0; /* a new file, or a file */
    fprintf(stderr,
            "strata sweep: %s '%s': not a regular file (a FIFO, socket, device or directory); a "
            "sweep appends its rows to a file\n",
            what, path);
    return ST_EXIT_INPUT;
}

/* Whether -o names something that is there and is neither a regular file nor a folder (a
 * device, a FIFO, a terminal): written through at the end, as every command's -o is, with no
 * journal beside it (one in /dev, or beside a FIFO, resumes nothing). */
static int written_through(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Refuse an -o that is a sweep's journal: the results written over it would lose the rows its
 * sweep resumes from (`-o r.csv.journal` after `-o r.csv`). */
static int check_not_journal(const char *path)
{
    if (!st_sweep_journal_is(path))
        return 0;
    fprintf(stderr,
            "strata sweep: -o '%s': a sweep's journal (its first line is a journal row); the rows "
            "would replace those its sweep resumes from: choose another -o\n",
            path);
    return ST_EXIT_INPUT;
}

/* The files the sweep's values make its points read (a swept trace.file, requests.file or
 * cluster.calibration), into *files (malloc'd paths, labelled by what they are); how many.
 * --calibration's file is the base scenario's own (st_sweep_open), checked with its inputs. */
static size_t swept_files(const st_sweep *sw, st_cli_file **files)
{
    const st_grid *g = sw->grid;
    size_t n = 0, cap = 0;
    *files = NULL;
    for (size_t a = 0; a < g->n_ax; a++)
        for (size_t v = 0; v < g->ax[a].n; v++) {
            const char *what = NULL;
            char *path = st_scn_set_file(sw->base, g->ax[a].path, g->ax[a].values[v], &what);
            if (!path)
                break; /* not a file key: none of its values names a file */
            *files = st_xgrow(*files, sizeof **files, n + 1, &cap);
            (*files)[n++] = (st_cli_file){what, path};
        }
    return n;
}

/* -o RESULTS and its journal against every file the sweep reads: 0, or a usage error. */
static int check_inputs(const st_sweep *sw, const st_cli_file *outs, size_t n_outs)
{
    st_cli_file *files;
    size_t n = swept_files(sw, &files);
    int rc = st_cli_check_outputs_in("sweep", sw->base, files, n, outs, n_outs);
    for (size_t i = 0; i < n; i++)
        free((char *)files[i].path);
    free(files);
    return rc;
}

/* -o RESULTS's extension, where --format (once[4]) does not say what it gets: one sweep cannot
 * write is a usage error (`-o r.xml` silently got CSV), said after the checks against its inputs
 * (`-o cal.yaml` is first the calibration file); a .journal is left to check_not_journal, a
 * dotfile's name has none. */
static int check_extension(const sweep_opts *o)
{
    const char *base = strrchr(o->output, '/'), *ext;
    const char *dot = strrchr(base ? base : o->output, '.');
    if ((o->seen & (1u << 4)) || !dot || !dot[1] || dot == (base ? base + 1 : o->output) ||
        strcmp(dot, ".journal") == 0)
        return 0;
    if (st_cli_output_format("sweep", o->output, NULL, "csv", 0, &ext) || ext)
        return 0; /* a name it writes (a .txt was refused as the options were read) */
    return st_cli_usage_error("sweep",
                              "-o '%s': sweep writes no %s file: name it .csv, .json, .md or "
                              ".html, or give the --format it gets",
                              o->output, dot);
}

/* The journal of -o RESULTS: RESULTS.journal, opened before anything is computed. */
static int open_journal(const sweep_opts *o, sweep_run *r)
{
    if (!o->output)
        return 0;
    if (written_through(o->output)) {
        st_cli_file out = {"-o", o->output};
        int rc = check_inputs(r->sw, &out, 1);
        if (!rc)
            fprintf(stderr,
                    "strata sweep: note: -o '%s' is not a regular file: the rows are written "
                    "through to it at the end, with no journal to resume from\n",
                    o->output);
        return rc ? ST_EXIT_INPUT : 0;
    }
    char *path = r->journal_path = st_xmalloc(strlen(o->output) + 9); /* freed by sweep() */
    sprintf(path, "%s.journal", o->output);
    st_cli_file outs[] = {{"-o", o->output}, {"the journal", path}};
    int rc = check_inputs(r->sw, outs, 1) || check_extension(o) ||
             check_regular("the journal", path) || check_not_journal(o->output) ||
             check_inputs(r->sw, outs, 2);
    if (!rc && (r->journal = st_sweep_journal_open(path, r->why, sizeof r->why)) < 0) {
        fprintf(stderr, "strata sweep: %s\n", r->why);
        rc = 1;
    }
    return rc ? ST_EXIT_INPUT : 0;
}

/* The actions SIGINT and SIGTERM had before intr_install: intr_remove puts them back, and the
 * forked workers take them (cli/sweep_workers.c). */
static struct sigaction intr_old[2];
static int intr_set[2]; /* the handler is installed for intr_signals[i] */

/* The handler, for the sweep's parent (its workers take the old actions again:
 * cli/sweep_workers.c); not under mpirun, whose launcher handles the signals of its ranks. A
 * signal the sweep was started ignoring (a background job of a non-interactive shell ignores
 * SIGINT) stays ignored. */
static void intr_install(const sweep_run *r)
{
    static const char *const names[] = {"CSV", "JSON", "Markdown", "HTML"};
    intr.total = r->sw->grid->n_points;
    intr.stream = r->stream;
    intr.output = r->o->output;
    intr.journal = r->journal >= 0 ? r->journal_path : NULL;
    intr.format = names[r->o->format];
    intr.reading = r->journal >= 0; /* compute() says the count once the journal is read */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof intr_signals / sizeof intr_signals[0]; i++) {
        intr_set[i] = sigaction(intr_signals[i], NULL, &intr_old[i]) == 0 &&
                      intr_old[i].sa_handler != SIG_IGN &&
                      sigaction(intr_signals[i], &sa, NULL) == 0;
    }
    st_sweep_workers_signals(&intr_old[0], &intr_old[1]);
}

static void intr_remove(void)
{
    for (size_t i = 0; i < sizeof intr_signals / sizeof intr_signals[0]; i++)
        if (intr_set[i]) {
            sigaction(intr_signals[i], &intr_old[i], NULL);
            intr_set[i] = 0;
        }
    st_sweep_workers_signals(NULL, NULL);
}

static int sweep(const sweep_opts *o, const st_sweep *sw)
{
    if (o->mpi && o->rank) { /* a rank other than 0 computes its share and leaves the rest */
        char why[300];
        st_sweep_sink none = {0};
        return st_sweep_mpi_run(sw, NULL, 0, &none, why, sizeof why) ? ST_EXIT_SIM : 0;
    }
    size_t n = sw->grid->n_points;
    sweep_run r = {.o = o,
                   .sw = sw,
                   .rows = st_xcalloc(n ? n : 1, sizeof *r.rows),
                   .journal = -1,
                   .stream =
                       !o->output && (o->format == ST_SWEEP_CSV || o->format == ST_SWEEP_MARKDOWN),
                   .t0 = now_s()};
    /* STRATA_PROGRESS as main.c reads it: always, never, else on a terminal only */
    const char *mode = getenv("STRATA_PROGRESS");
    r.always = mode && strcmp(mode, "always") == 0;
    r.progress = (isatty(STDERR_FILENO) || r.always) && !(mode && strcmp(mode, "never") == 0);
    int rc = open_journal(o, &r);
    if (rc && o->mpi) /* the other ranks wait for a to-do list: an empty one ends them */
        run_left(&r, NULL, 0);
    if (!rc && !o->mpi)
        intr_install(&r);
    if (!rc && (rc = compute(&r)) != 0 && r.why[0])
        fprintf(stderr, "strata sweep: %s\n", r.why);
    if (!rc)
        rc = r.stream ? ST_EXIT_OK : emit(o, sw, r.rows);
    if (!o->mpi)
        intr_remove();
    if (!rc && r.failed)
        rc = ST_EXIT_SIM;
    if (r.journal >= 0)
        close(r.journal);
    free(r.journal_path);
    for (size_t p = 0; p < n; p++)
        st_sweep_cells_free(r.rows[p], sw->n_cols);
    free(r.rows);
    return rc;
}

/* The columns of a sweep: each job's, and the run's own (one a row). */
typedef struct sweep_cols {
    const st_fig_col *job, *run;
} sweep_cols;

/* Whether column c reads a cost: the scenario's cost: section prices it. */
static int reads_cost(const st_fig_col *c)
{
    const char *p = c->f->path;
    return c->f->src == ST_SRC_COST || c->f->src == ST_SRC_SERVE_COST ||
           strncmp(p, "jobs[].cost.", 12) == 0 || strncmp(p, "cost.", 5) == 0;
}

/* A warning for each --columns figure a cost reads when the scenario has no cost: section and
 * no axis sets one: the column would be empty on every row (as scheduler.quotas under a policy
 * that reads none is warned of). */
static void warn_empty_cost(const st_sweep *sw, const st_fig_col *cols, size_t n)
{
    if (st_scn_cost(sw->base))
        return;
    for (size_t a = 0; a < sw->grid->n_ax; a++)
        if (strncmp(sw->grid->ax[a].path, "cost", 4) == 0)
            return;
    for (size_t k = 0; k < n; k++)
        if (reads_cost(&cols[k]))
            fprintf(stderr,
                    "strata sweep: warning: --columns %s: %s has no cost: section, so the "
                    "column is empty on every row\n",
                    cols[k].name, sw->file);
}

/* A warning when the scenario has no training job or service, only a trace's jobs (or a
 * collective's), and no column of the run's own is asked for: a job's figures are its jobs', so
 * every row would hold the swept values alone. */
static void warn_no_jobs(const st_sweep *sw)
{
    for (size_t i = 0; i < st_scn_workload_count(sw->base); i++) {
        int k = (int)st_scn_workload(sw->base, i)->kind;
        if (k == ST_WL_TRAINING || k == ST_WL_INFERENCE)
            return;
    }
    if (sw->figs.n_run)
        return;
    fprintf(stderr,
            "strata sweep: warning: %s has no training workload or service, so its rows hold "
            "no job figures; the run's own are columns named run. and their path (--columns "
            "run.scheduler.makespan_s,run.scheduler.utilization,run.scheduler.energy_j), and "
            "`strata compare` reports the cluster run under each policy\n",
            sw->file);
}

/* Column k of ctx (a sweep_cols) for job i of the point at (ST_SWEEP_RUN: the run's own): its
 * sweep cell. A column read from the run's JSON report makes the report once for the row. */
static void fig_cell(const void *ctx, size_t k, st_sweep_at *at, size_t i, char *buf, size_t n)
{
    const sweep_cols *cols = ctx;
    const st_fig_col *c = i == ST_SWEEP_RUN ? &cols->run[k] : &cols->job[k];
    if (st_fig_col_reads_report(c) && !at->memo) {
        st_report rep = {at->s, st_scn_seed(at->s), at->run, 0};
        at->memo = st_report_json_tree(&rep);
    }
    st_fig_sweep_cell(c, at->run, i, at->memo, buf, n);
}

static void report_done(void *memo)
{
    cJSON_Delete(memo);
}

/* Whether an axis sets a cost: key (cost.delivery, cost.gpu_hour_usd): the sweep then asks
 * what that does to the bill, and the default columns hold it. */
static int sweeps_cost(const st_grid *g)
{
    for (size_t a = 0; a < g->n_ax; a++)
        if (strncmp(g->ax[a].path, "cost", 4) == 0 &&
            (g->ax[a].path[4] == '.' || g->ax[a].path[4] == '\0'))
            return 1;
    return 0;
}

/* Every rank parses the same arguments and loads the same file, so all agree on whether to go
 * on; only rank 0 speaks. The columns are named before the file is read, so a wrong one is said
 * first. */
static int sweep_file(sweep_opts *o)
{
    st_sweep sw = {0};
    st_diag d = {0};
    int rc, speak = !o->mpi || o->rank == 0;
    st_fig_col *cols = NULL;
    size_t n = 0;
    if (!o->columns)
        st_fig_sweep_defaults(&cols, &n, sweeps_cost(&o->grid));
    else if (st_fig_sweep_parse(o->columns, &cols, &n, &d)) {
        if (speak)
            st_cli_print_diag(&d);
        st_fig_cols_free(cols, n);
        return ST_EXIT_INPUT;
    }
    /* each job's columns, then the run's own, each in the order given */
    st_fig_col *job = st_xcalloc(n + 1, sizeof *job), *run = st_xcalloc(n + 1, sizeof *run);
    const char **names = st_xcalloc(n + 1, sizeof *names);
    const char **run_names = st_xcalloc(n + 1, sizeof *run_names);
    size_t nj = 0, nr = 0;
    for (size_t k = 0; k < n; k++)
        if (cols[k].run) {
            run_names[nr] = cols[k].name;
            run[nr++] = cols[k];
        } else {
            names[nj] = cols[k].name;
            job[nj++] = cols[k];
        }
    /* without --columns a service takes its own defaults: a training job's hold nothing of it */
    st_fig_col *sfigs = NULL;
    size_t sn = 0;
    if (!o->columns)
        st_fig_sweep_serve_defaults(&sfigs, &sn, sweeps_cost(&o->grid));
    const char **snames = st_xcalloc(sn + 1, sizeof *snames);
    for (size_t k = 0; k < sn; k++)
        snames[k] = sfigs[k].name;
    sweep_cols jc = {job, run}, sc = {sfigs, NULL};
    st_sweep_figs serve = {sn, snames, fig_cell, &sc, NULL, 0, NULL, report_done};
    st_sweep_figs sf = {nj, names, fig_cell, &jc, sn ? &serve : NULL, nr, run_names, report_done};
    char *cal_path = NULL, *cal_label = NULL;
    st_scn_set cal = o->calibration ? st_cli_calibration_set(o->calibration, &cal_path, &cal_label)
                                    : (st_scn_set){0};
    if (st_sweep_open(&sw, o->file, &o->grid, &sf, o->calibration ? &cal : NULL, &d)) {
        if (speak)
            st_cli_print_diag(&d);
        rc = ST_EXIT_INPUT;
    } else {
        if (speak) {
            st_cli_print_warnings(sw.base);
            warn_empty_cost(&sw, cols, n);
            warn_no_jobs(&sw);
        }
        rc = sweep(o, &sw);
    }
    st_sweep_close(&sw);
    free(cal_path);
    free(cal_label);
    free(names);
    free(run_names);
    free(job);
    free(run);
    st_fig_cols_free(cols, n);
    free(snames);
    st_fig_cols_free(sfigs, sn);
    return rc;
}

int st_cmd_sweep(int argc, char **argv)
{
    sweep_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc == 1) { /* --help */
        st_grid_free(&o.grid);
        return ST_EXIT_OK;
    }
    if (!rc && (o.mpi = st_sweep_mpi_init(&o.rank, &o.ranks)) < 0) {
        fprintf(stderr, "strata sweep: MPI would not start\n");
        rc = ST_EXIT_SIM;
    } else if (!rc && o.mpi && o.workers_given && o.workers > 1) {
        rc = o.rank ? ST_EXIT_INPUT
                    : st_cli_usage_error("sweep", "-j under mpirun: each MPI rank is one worker; "
                                                  "start more ranks instead");
    } else if (!rc) {
        rc = sweep_file(&o);
    }
    if (o.mpi > 0)
        rc = st_sweep_mpi_finish(rc);
    st_grid_free(&o.grid);
    return rc;
}
