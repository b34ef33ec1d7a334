/* One sweep point: the scenario loaded with the point's overrides, forecast in full, and the
 * report figures a planner compares as text cells. */
#include "planner/sweep.h"
#include "planner/run_spec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/forecast/run.h"
#include "scenarios/override.h"
#include "scenarios/reader.h"
#include "scenarios/scenario.h"
#include "scenarios/ytree.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* A cell's text, as long as it needs to be: a fixed buffer would cut a long name or value, and
 * could cut it inside a UTF-8 character. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *
fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *buf = st_xvasprintf(f, ap);
    va_end(ap);
    for (char *c = buf; *c; c++) /* cells are tab-separated lines in the journal */
        if (*c == '\t' || *c == '\n' || *c == '\r')
            *c = ' ';
    return buf;
}

/* An error as "file:line:col: error: msg", whole (malloc'd). */
static char *err_text(const st_err *e)
{
    int len = st_err_format(e, NULL, 0);
    char *buf = st_xmalloc(len > 0 ? (size_t)len + 1 : 1);
    st_err_format(e, buf, len > 0 ? (size_t)len + 1 : 1);
    char *cell = fmt("%s", buf);
    free(buf);
    return cell;
}

/* Open file for reading, refusing what is not a regular file before a byte is read, as the
 * loader does (scenarios/load.c): a FIFO would block the open, or the reads, forever. The open
 * does not block even on a FIFO without a writer (O_NONBLOCK), and the flag changes nothing in
 * how a regular file reads. what names the file's role in the message. -1 with the error in
 * diag. */
static int open_regular(const char *file, const char *what, st_diag *diag)
{
    st_loc at = {file, 0, 0};
    int fd = open(file, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        st_diag_add(diag, ST_EIO, at, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        st_diag_add(diag, ST_EIO, at, "%s", strerror(errno));
    else if (S_ISDIR(sb.st_mode))
        st_diag_add(diag, ST_EIO, at, "is a directory");
    else if (!S_ISREG(sb.st_mode))
        st_diag_add(diag, ST_EIO, at,
                    "not a regular file (a FIFO, socket or device); a %s is a file", what);
    else
        return fd;
    close(fd);
    return -1;
}

/* Read fd into *buf from *len on, growing it, until the end or past max bytes; a read error is
 * located at file. */
static int read_fd(int fd, const char *file, size_t max, char **buf, size_t *len, size_t *cap,
                   st_diag *diag)
{
    for (;;) {
        *buf = st_xgrow(*buf, 1, *len + 65536, cap);
        ssize_t got = read(fd, *buf + *len, *cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return st_diag_add(diag, ST_EIO, (st_loc){file, 0, 0}, "read error: %s",
                               strerror(errno));
        *len += (size_t)got;
        if (got == 0 || *len > max)
            return 0;
    }
}

/* The scenario's bytes, up to one past the loader's limit (the load that follows refuses more). */
static int read_all(const char *file, char **buf, size_t *len, st_diag *diag)
{
    size_t cap = 0;
    *buf = NULL;
    *len = 0;
    int fd = open_regular(file, "scenario", diag);
    if (fd < 0)
        return ST_EIO;
    int rc = read_fd(fd, file, ST_YTREE_MAX_FILE, buf, len, &cap, diag);
    close(fd);
    return rc;
}

static uint64_t fnv_bytes(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

/* FNV-1a 64 of the bytes of `file` (what: "job trace", for its errors) folded into *h. Read in
 * pieces: a trace may be far larger than the scenario. */
static int hash_file(const char *file, const char *what, uint64_t *h, st_diag *diag)
{
    int fd = open_regular(file, what, diag);
    if (fd < 0)
        return ST_EIO;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    do {
        len = 0;
        rc = read_fd(fd, file, 1u << 20, &buf, &len, &cap, diag);
        *h = fnv_bytes(*h, buf, len);
    } while (!rc && len > 0);
    free(buf);
    close(fd);
    return rc;
}

/* The bytes of every file the scenario reads (0 without any): its job trace, its calibration
 * and its services' request traces, so that a journal row is not reused once one of them has
 * changed under the same scenario. */
static int hash_inputs(const st_scn *s, uint64_t *h, st_diag *diag)
{
    const st_trace_cfg *t = st_scn_trace(s);
    const st_calib_cfg *cal = &st_scn_cluster(s)->calib;
    uint64_t x = 0xcbf29ce484222325ull;
    int n = 0, rc = 0;
    if (t && t->file && ++n)
        rc = hash_file(t->file, "trace", &x, diag);
    if (!rc && cal->enabled && cal->file && ++n)
        rc = hash_file(cal->file, "calibration", &x, diag);
    for (size_t i = 0; !rc && i < st_scn_workload_count(s); i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind == ST_WL_INFERENCE && w->inference.trace_file && ++n)
            rc = hash_file(w->inference.trace_file, "request trace", &x, diag);
    }
    *h = n ? x : 0;
    return rc;
}

/* Per axis and value, the bytes of the file the value names (st_scn_set_file), 0 where the axis
 * names no file. A file that cannot be read hashes as its path's absence: the point's own load
 * says why, and the key changes once the file is there. */
static void hash_values(st_sweep *sw)
{
    const st_grid *g = sw->grid;
    sw->value_hash = st_xcalloc(g->n_ax + 1, sizeof *sw->value_hash);
    for (size_t a = 0; a < g->n_ax; a++) {
        sw->value_hash[a] = st_xcalloc(g->ax[a].n + 1, sizeof **sw->value_hash);
        for (size_t v = 0; v < g->ax[a].n; v++) {
            const char *what = NULL;
            char *path = st_scn_set_file(sw->base, g->ax[a].path, g->ax[a].values[v], &what);
            if (!path)
                break; /* not a file key: none of its values names a file */
            uint64_t h = 0xcbf29ce484222325ull;
            st_diag d = {0};
            if (hash_file(path, what, &h, &d))
                h = fnv_bytes(0x84222325cbf29ce4ull, path, strlen(path)); /* unreadable */
            sw->value_hash[a][v] = h;
            free(path);
        }
    }
}

/* Point p's overrides, labelled "--set PATH=VALUE" for its values' errors, after the fixed one
 * (when there is one); *n counts them. */
static st_scn_set *point_sets(const st_sweep *sw, size_t p, char **labels, size_t *n)
{
    const st_grid *g = sw->grid;
    st_scn_set *sets = st_xcalloc(g->n_ax + 2, sizeof *sets);
    *n = 0;
    if (sw->fixed)
        sets[(*n)++] = *sw->fixed;
    for (size_t a = 0; a < g->n_ax; a++) {
        const char *v = g->ax[a].values[st_grid_value(g, p, a)];
        labels[a] = fmt("--set %s=%s", g->ax[a].path, v);
        sets[(*n)++] = (st_scn_set){g->ax[a].path, v, labels[a], sw->at_path[a]};
    }
    return sets;
}

static int load_point(const st_sweep *sw, size_t p, st_scn **s, st_diag *d, char **labels)
{
    size_t n;
    st_scn_set *sets = point_sets(sw, p, labels, &n);
    int rc = st_scn_load_buffer_set(sw->file, sw->buf, sw->len, sets, n, s, d);
    free(sets);
    return rc;
}

static void free_labels(char **labels, size_t n)
{
    for (size_t a = 0; a < n; a++)
        free(labels[a]);
}

/* The columns of a service (serving) or a training job. */
static const st_sweep_figs *figs_of(const st_sweep *sw, int serving)
{
    return serving && sw->figs.serve ? sw->figs.serve : &sw->figs;
}

static void add_col(st_sweep *sw, char *name)
{
    sw->cols = st_xgrow(sw->cols, sizeof *sw->cols, sw->n_cols + 1, &sw->cap_cols);
    sw->cols[sw->n_cols++] = name;
}

/* A path that point 0's load refuses at the path (not at a value) is wrong for every point. */
static int check_paths(st_sweep *sw, st_diag *diag)
{
    char *labels[ST_GRID_MAX_AXES] = {0};
    st_scn *s = NULL;
    st_diag d = {0};
    int rc = load_point(sw, 0, &s, &d, labels);
    st_scn_free(s);
    for (size_t a = 0; rc && a < sw->grid->n_ax; a++)
        if (d.items[0].loc.file && strcmp(d.items[0].loc.file, sw->at_path[a]) == 0) {
            *diag = d;
            free_labels(labels, sw->grid->n_ax); /* no error points at a value's label */
            return rc;
        }
    free_labels(labels, sw->grid->n_ax);
    return 0;
}

/* Two axes that name one key in two spellings (an entry by name and by index, [0] and [00]) would
 * each set it on every point, the later winning, so the earlier's column would say a value the
 * row did not run: refused as a path given twice is (planner/grid.c), naming both. */
static int same_keys(const st_sweep *sw, st_diag *diag)
{
    const st_grid *g = sw->grid;
    st_ytree *tree = NULL;
    st_err err = {0};
    if (st_ytree_parse(sw->file, sw->buf, sw->len, &tree, &err))
        return 0; /* the base load has read it: not reached */
    char *canon[ST_GRID_MAX_AXES] = {0};
    int rc = 0;
    for (size_t a = 0; a < g->n_ax; a++)
        canon[a] = st_scn_set_canon(st_ytree_root(tree), g->ax[a].path);
    for (size_t a = 1; a < g->n_ax && !rc; a++)
        for (size_t b = 0; b < a && !rc; b++)
            if (canon[a] && canon[b] && strcmp(canon[a], canon[b]) == 0) {
                st_loc at = {sw->at_path[a], 0, 0};
                rc = st_diag_add(diag, ST_EINVAL, at,
                                 "%s and the earlier --set's %s are one key (%s): swept twice, "
                                 "a row's column would say a value the row did not run",
                                 g->ax[a].path, g->ax[b].path, canon[a]);
            }
    for (size_t a = 0; a < g->n_ax; a++)
        free(canon[a]);
    st_ytree_free(tree);
    return rc;
}

/* Two columns of one name (a job named "run" with a column a run figure's name also is) would be
 * one key of a JSON point, the later's cell hiding the earlier's: refused, naming the column. */
static int same_column(const st_sweep *sw, st_diag *diag)
{
    for (size_t c = 1; c < sw->n_cols; c++)
        for (size_t d = 0; d < c; d++)
            if (strcmp(sw->cols[c], sw->cols[d]) == 0)
                return st_diag_add(diag, ST_EINVAL, (st_loc){"--columns", 0, 0},
                                   "two columns would be named '%s' (a job's name and its "
                                   "column, a --set path, or a run figure): rename the job or "
                                   "leave one out",
                                   sw->cols[c]);
    return 0;
}

int st_sweep_open(st_sweep *sw, const char *file, const st_grid *g, const st_sweep_figs *figs,
                  const st_scn_set *fixed, st_diag *diag)
{
    memset(sw, 0, sizeof *sw);
    sw->file = file;
    sw->grid = g;
    sw->figs = *figs;
    sw->fixed = fixed;
    int rc = read_all(file, &sw->buf, &sw->len, diag);
    st_scn *s = NULL;
    if (!rc) /* with the fixed override: its file's bytes are then among hash_inputs' */
        rc = st_scn_load_buffer_set(file, sw->buf, sw->len, fixed, fixed ? 1 : 0, &s, diag);
    if (rc)
        return rc;
    sw->hash = st_scn_hash(s);
    sw->build = st_sweep_build_id();
    sw->base = s;
    if ((rc = hash_inputs(s, &sw->trace_hash, diag)))
        return rc;
    hash_values(sw);
    sw->at_path = st_xcalloc(g->n_ax + 1, sizeof *sw->at_path);
    for (size_t a = 0; a < g->n_ax; a++) {
        sw->at_path[a] = fmt("--set %s", g->ax[a].path);
        add_col(sw, st_xstrdup(g->ax[a].path));
    }
    add_col(sw, st_xstrdup("status"));
    for (size_t i = 0; i < st_scn_workload_count(s); i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        const st_sweep_figs *f = figs_of(sw, w->kind == ST_WL_INFERENCE);
        for (size_t k = 0; w->kind != ST_WL_COLLECTIVE && k < f->n; k++)
            add_col(sw, fmt("%s.%s", w->name, f->names[k]));
    }
    for (size_t k = 0; k < sw->figs.n_run; k++)
        add_col(sw, fmt("%s", sw->figs.run_names[k]));
    add_col(sw, st_xstrdup("reason"));
    if ((rc = same_column(sw, diag)))
        return rc;
    if ((rc = same_keys(sw, diag)))
        return rc;
    return check_paths(sw, diag);
}

static uint64_t fnv(uint64_t h, const char *s, char end)
{
    h = fnv_bytes(h, s, strlen(s));
    return (h ^ (unsigned char)end) * 0x100000001b3ull;
}

void st_sweep_key(const st_sweep *sw, size_t p, char key[17])
{
    char head[64];
    snprintf(head, sizeof head, "%016llx %016llx ", (unsigned long long)sw->hash,
             (unsigned long long)sw->trace_hash);
    uint64_t h = fnv(0xcbf29ce484222325ull, head, ' '); /* FNV-1a 64, as the scenario hash */
    h = fnv(h, sw->build, '\n');
    for (size_t c = 0; c < sw->n_cols; c++)
        h = fnv(h, sw->cols[c], '\n');
    for (size_t a = 0; a < sw->grid->n_ax; a++) {
        size_t v = st_grid_value(sw->grid, p, a);
        h = fnv(h, sw->grid->ax[a].path, '=');
        h = fnv(h, sw->grid->ax[a].values[v], '\n');
        if (sw->value_hash[a][v]) { /* the file it names, by its bytes */
            char x[17];
            snprintf(x, sizeof x, "%016llx", (unsigned long long)sw->value_hash[a][v]);
            h = fnv(h, x, '\n');
        }
    }
    snprintf(key, 17, "%016llx", (unsigned long long)h);
}

/* The figures of job i, in f's order, into cells; how many. */
static size_t job_cells(const st_sweep_figs *f, st_sweep_at *at, size_t i, char **cells)
{
    char buf[64];
    for (size_t k = 0; k < f->n; k++) {
        f->cell(f->ctx, k, at, i, buf, sizeof buf);
        cells[k] = fmt("%s", buf);
    }
    return f->n;
}

/* The run's cells after the status, at most max of them, for its training and inference jobs
 * (each job its kind's figures, "" where it has none); returns the reason (NULL when every job
 * fits). */
static char *run_cells(const st_sweep *sw, st_sweep_at *at, char **cells, size_t max)
{
    const st_run *run = at->run;
    char *reason = NULL;
    size_t c = 0;
    for (size_t i = 0; i < run->n; i++) {
        const st_forecast *f = &run->f[i];
        int serving = run->serve && run->serve[i].w;
        const st_sweep_figs *jf = figs_of(sw, serving);
        if (!serving && (!f->w || f->w->kind != ST_WL_TRAINING))
            continue;
        if (c + jf->n > max)
            break;
        c += job_cells(jf, at, i, cells + c);
        if (serving)
            continue;
        if (!f->mem.fits && !reason) { /* in the units `run` and `audit` print the figure in */
            char need[32], have[32], over[32];
            st_unit_format(f->mem.total, ST_DIM_BYTES, need, sizeof need);
            st_unit_format(f->mem.capacity, ST_DIM_BYTES, have, sizeof have);
            st_unit_format(f->mem.overflow_bytes, ST_DIM_BYTES, over, sizeof over);
            reason =
                fmt("%s: needs %s per GPU, the GPU has %s (full at the %s, %s over)", f->w->name,
                    need, have, st_mem_term_name((st_mem_term)f->mem.overflow_term), over);
        }
    }
    return reason;
}

static void empty_cells(char **cells, size_t from, size_t to)
{
    for (size_t c = from; c < to; c++)
        if (!cells[c])
            cells[c] = st_xstrdup("");
}

/* A reason's cell as one line of UTF-8 text: a message may quote a file's name, whose bytes need
 * not be UTF-8 and may hold a tab or a newline; the journal splits its cells at tabs and its rows
 * at newlines, and every format must stay UTF-8. Each such byte reads \xNN, as stderr shows it. */
static void one_line(char **cell)
{
    if (!*cell)
        return;
    char *line = st_utf8_one_line(*cell);
    free(*cell);
    *cell = line;
}

void st_sweep_point_values(const st_sweep *sw, size_t p, char **cells)
{
    for (size_t a = 0; a < sw->grid->n_ax; a++)
        cells[a] = fmt("%s", sw->grid->ax[a].values[st_grid_value(sw->grid, p, a)]);
}

void st_sweep_point_failed(const st_sweep *sw, size_t p, const char *reason, char **cells)
{
    memset(cells, 0, sw->n_cols * sizeof *cells);
    st_sweep_point_values(sw, p, cells);
    cells[sw->grid->n_ax] = fmt(ST_SWEEP_ERROR);
    cells[sw->n_cols - 1] = fmt("%s", reason);
    one_line(&cells[sw->n_cols - 1]);
    empty_cells(cells, 0, sw->n_cols);
}

void st_sweep_point(const st_sweep *sw, size_t p, char **cells)
{
    const st_grid *g = sw->grid;
    memset(cells, 0, sw->n_cols * sizeof *cells);
    st_sweep_point_values(sw, p, cells);
    char *labels[ST_GRID_MAX_AXES] = {0};
    st_scn *s = NULL;
    st_diag d = {0};
    char **status = &cells[g->n_ax], **reason = &cells[sw->n_cols - 1];
    if (load_point(sw, p, &s, &d, labels)) {
        *status = fmt(ST_SWEEP_INVALID);
        *reason = err_text(&d.items[0]);
    } else {
        st_run_spec spec = st_plan_run_spec(s, st_scn_seed(s));
        st_run run;
        st_err err = {0};
        if (st_run_forecast(&spec, &run, &err)) {
            *status = fmt(ST_SWEEP_ERROR);
            *reason = err_text(&err);
        } else {
            /* The columns were named from the file's training and inference jobs: a point whose
             * overrides change their number fills the columns there are, in workload order. */
            size_t n_run = sw->figs.n_run, jobs = sw->n_cols - g->n_ax - 2 - n_run;
            st_sweep_at at = {s, &run, NULL};
            char *why = run_cells(sw, &at, cells + g->n_ax + 1, jobs);
            char buf[64];
            for (size_t k = 0; k < n_run; k++) { /* the run's own, after every job's */
                sw->figs.cell(sw->figs.ctx, k, &at, ST_SWEEP_RUN, buf, sizeof buf);
                cells[g->n_ax + 1 + jobs + k] = fmt("%s", buf);
            }
            if (sw->figs.done && at.memo)
                sw->figs.done(at.memo);
            *status = fmt(why ? ST_SWEEP_NOFIT : ST_SWEEP_OK);
            *reason = why;
        }
        st_run_release(&run);
    }
    one_line(reason);
    empty_cells(cells, 0, sw->n_cols);
    free_labels(labels, g->n_ax);
    st_scn_free(s);
}

void st_sweep_close(st_sweep *sw)
{
    for (size_t c = 0; c < sw->n_cols; c++)
        free(sw->cols[c]);
    for (size_t a = 0; sw->at_path && a < sw->grid->n_ax; a++)
        free(sw->at_path[a]);
    free(sw->at_path);
    for (size_t a = 0; sw->value_hash && a < sw->grid->n_ax; a++)
        free(sw->value_hash[a]);
    free(sw->value_hash);
    free(sw->cols);
    free(sw->buf);
    st_scn_free(sw->base);
    memset(sw, 0, sizeof *sw);
}
