/* `strata sweep FILE --set PATH=V1,V2,... [-j N] [-o FILE] [--format csv|json|markdown]`: every
 * point of the grid a full run (planner/sweep.c), on N worker processes, rows in point order
 * whatever N is; with -o, each finished row is journalled so an interrupted sweep resumes.
 * Under `mpirun -n N`, the ranks are the workers (cli/sweep_mpi.c) and rank 0 alone reads the
 * journal and writes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "sim/xalloc.h"

typedef struct sweep_opts {
    const char *file, *output, *columns;
    int workers, workers_given;
    int mpi, rank, ranks; /* under mpirun: this process's rank of `ranks` */
    st_sweep_format format;
    st_grid grid;
} sweep_opts;

/* The value after an option, or a usage error. */
static int need(const char *opt, const char *val)
{
    if (val)
        return 0;
    return st_cli_usage_error("sweep", "%s needs a value", opt);
}

static int parse_format(const char *val, sweep_opts *o)
{
    static const char *const names[] = {"csv", "json", "markdown", "html"};
    for (int f = 0; f < 4; f++)
        if (strcmp(val, names[f]) == 0) {
            o->format = (st_sweep_format)f;
            return 0;
        }
    return st_cli_usage_error(
        "sweep", "--format takes 'csv', 'json', 'markdown' or 'html', found '%s'", val);
}

static int parse_one(const char *a, const char *val, sweep_opts *o)
{
    char why[300], *end = NULL;
    if (strcmp(a, "--set") == 0) {
        if (need(a, val))
            return ST_EXIT_INPUT;
        if (st_grid_add(&o->grid, val, why, sizeof why))
            return st_cli_usage_error("sweep", "--set %s: %s", val, why);
    } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
        long v = val ? strtol(val, &end, 10) : 0;
        if (!val || !end || *end || v < 1 || v > 256)
            return st_cli_usage_error("sweep", "%s takes a whole number from 1 to 256", a);
        o->workers = (int)v;
        o->workers_given = 1;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
        if (need(a, val))
            return ST_EXIT_INPUT;
        o->output = val;
    } else if (strcmp(a, "--columns") == 0) {
        if (need(a, val))
            return ST_EXIT_INPUT;
        o->columns = val;
    } else if (strcmp(a, "--format") == 0) {
        return need(a, val) ? ST_EXIT_INPUT : parse_format(val, o);
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

static int parse_opts(int argc, char **argv, sweep_opts *o)
{
    o->workers = 1;
    o->grid.n_points = 1;
    return st_cli_parse_args("sweep", argc, argv, opt_one, o, &o->file);
}

typedef struct sweep_run {
    const st_sweep *sw;
    char ***rows;
    int journal; /* -1: none */
    size_t computed;
    char why[300];
} sweep_run;

static int on_row(void *ctx, size_t p, char **cells)
{
    sweep_run *r = ctx;
    if (p >= r->sw->grid->n_points || r->rows[p]) {
        st_sweep_cells_free(cells, r->sw->n_cols);
        return -1;
    }
    r->rows[p] = cells;
    r->computed++;
    if (r->journal >= 0 && st_sweep_journal_add(r->journal, r->sw, p, cells, r->why, sizeof r->why))
        return 1;
    return 0;
}

/* A row for a point whose worker died before sending it: not journalled, so a rerun retries. */
static char **lost_row(const st_sweep *sw, size_t p)
{
    char **cells = st_xcalloc(sw->n_cols, sizeof *cells);
    st_sweep_point_values(sw, p, cells);
    for (size_t c = sw->grid->n_ax; c < sw->n_cols; c++)
        cells[c] = st_xstrdup(c == sw->grid->n_ax ? ST_SWEEP_ERROR : "");
    free(cells[sw->n_cols - 1]);
    cells[sw->n_cols - 1] = st_xstrdup("its worker process ended before sending the row");
    return cells;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The points left to do on the workers, or the MPI ranks. */
static int run_left(const sweep_opts *o, sweep_run *r, const size_t *left, size_t n_left)
{
    if (o->mpi)
        return st_sweep_mpi_run(r->sw, left, n_left, on_row, r, r->why, sizeof r->why);
    return st_sweep_workers(r->sw, left, n_left, o->workers, on_row, r, r->why, sizeof r->why);
}

/* Resume from the journal, compute the rest, and fill a row for every point. */
static int compute(const sweep_opts *o, sweep_run *r, char *journal)
{
    size_t n = r->sw->grid->n_points, resumed = 0;
    double t0 = now_s();
    if (journal) {
        resumed = st_sweep_journal_read(journal, r->sw, r->rows);
        if ((r->journal = st_sweep_journal_open(journal, r->why, sizeof r->why)) < 0) {
            if (o->mpi) /* the other ranks wait for a to-do list: an empty one ends them */
                run_left(o, r, NULL, 0);
            return -1;
        }
    }
    size_t *left = st_xmalloc((n ? n : 1) * sizeof *left), n_left = 0;
    for (size_t p = 0; p < n; p++)
        if (!r->rows[p])
            left[n_left++] = p;
    int rc = run_left(o, r, left, n_left);
    free(left);
    for (size_t p = 0; !rc && p < n; p++)
        if (!r->rows[p])
            r->rows[p] = lost_row(r->sw, p);
    if (r->journal >= 0)
        close(r->journal);
    int k = o->mpi ? o->ranks : o->workers;
    fprintf(stderr,
            "strata sweep: %zu points: %zu from the journal, %zu computed on %d %s%s in %.2f s\n",
            n, resumed, r->computed, k, o->mpi ? "MPI " : "",
            k == 1 ? (o->mpi ? "rank" : "worker") : (o->mpi ? "ranks" : "workers"), now_s() - t0);
    return rc;
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

static int sweep(const sweep_opts *o, const st_sweep *sw)
{
    if (o->mpi && o->rank) { /* a rank other than 0 computes its share and leaves the rest */
        char why[300];
        return st_sweep_mpi_run(sw, NULL, 0, on_row, NULL, why, sizeof why) ? ST_EXIT_SIM : 0;
    }
    size_t n = sw->grid->n_points;
    sweep_run r = {.sw = sw, .rows = st_xcalloc(n ? n : 1, sizeof *r.rows), .journal = -1};
    char *journal = NULL;
    if (o->output) {
        journal = st_xmalloc(strlen(o->output) + 9);
        sprintf(journal, "%s.journal", o->output);
    }
    int rc = compute(o, &r, journal) ? ST_EXIT_SIM : emit(o, sw, r.rows);
    if (rc == ST_EXIT_SIM && r.why[0])
        fprintf(stderr, "strata sweep: %s\n", r.why);
    for (size_t p = 0; p < n; p++)
        st_sweep_cells_free(r.rows[p], sw->n_cols);
    free(r.rows);
    free(journal);
    return rc;
}

/* A warning for each --columns cost.* key when the scenario has no cost: section and no axis
 * sets one: the column would be empty on every row (as scheduler.quotas under a policy that
 * reads none is warned of). */
static void warn_empty_cost(const st_sweep *sw)
{
    if (st_scn_cost(sw->base))
        return;
    for (size_t a = 0; a < sw->grid->n_ax; a++)
        if (strncmp(sw->grid->ax[a].path, "cost", 4) == 0)
            return;
    for (size_t k = 0; k < sw->n_keys; k++) {
        const char *name = st_sweep_col_name(sw->keys[k]);
        if (strncmp(name, "cost.", 5) == 0)
            fprintf(stderr,
                    "strata sweep: warning: --columns %s: %s has no cost: section, so the "
                    "column is empty on every row\n",
                    name, sw->file);
    }
}

/* Every rank parses the same arguments and loads the same file, so all agree on whether to go
 * on; only rank 0 speaks. */
static int sweep_file(sweep_opts *o)
{
    st_sweep sw;
    st_diag d = {0};
    int rc, speak = !o->mpi || o->rank == 0;
    if (st_sweep_open(&sw, o->file, &o->grid, o->columns, &d)) {
        if (speak)
            st_cli_print_diag(&d);
        rc = ST_EXIT_INPUT;
    } else {
        if (speak) {
            st_cli_print_warnings(sw.base);
            warn_empty_cost(&sw);
        }
        rc = sweep(o, &sw);
    }
    st_sweep_close(&sw);
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
