/* Job traces as CSV: the formats' columns, units and conventions, read line by line from one
 * open of the file (scenarios/csv_in.h), so memory is the jobs and their names, not the file.
 *   philly  the Philly job list (Jeon et al., ATC'19; github.com/msr-fiddle/philly-traces, CC BY
 *           4.0) as normalised from the Pollux artifact's copy: job_id, submit_unix, submit_s,
 *           duration_s, num_gpus, vc; seconds; the VC is the tenant.
 *   muri    the Philly-derived traces of Muri (Zhao et al., SIGCOMM'22; github.com/Rivendile/Muri,
 *           simulator/trace-data): submit_time and duration in milliseconds, num_gpu; CRLF;
 *           also model_name (the job's class), iterations and iteration_time (milliseconds),
 *           which the artifact's runtime model reads (`replay: muri`).
 *   csv     a header row naming submit, duration, gpus and optionally tenant and gpu_type, in
 *           any order; times in seconds, or with a unit ("2 h", sim/units.h).
 *   openb   Alibaba's GPU cluster trace v2023 pod list (Weng et al., ATC'23; alibaba/clusterdata,
 *           cluster-trace-gpu-v2023/csv): creation_time, scheduled_time and deletion_time in
 *           seconds (the run time is deletion less scheduled), num_gpu, and gpu_spec, the GPU
 *           models a pod accepts separated by '|' (empty: any). A pod of no GPU (a CPU pod) is
 *           not a GPU job and is left out, counted in one warning; a pod never scheduled (no
 *           scheduled_time) has no run time and is malformed. A GPU-sharing pod (gpu_milli below
 *           1000) takes a whole GPU: the cluster run does not share GPUs (models/place/gpushare.h
 *           does, for the fragmentation experiment); a gpu_milli that is not a number from 0 to
 *           1000 is malformed.
 * A GPU type column maps each job to a pool through `trace.pools` on a cluster of several pools
 * (docs/models/pools.md); elsewhere it is not read.
 * Every number goes through st_limit_parse (models/config/limits.h), as the scenario's own
 * values do: a field that does not parse or breaks its sign rule makes the row malformed
 * (skipped or refused, as `malformed:` says); a value past a model's bound is an error either
 * way, since the row is well formed and skipping it would change the workload unseen. */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/trace.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/csv_in.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

/* A format's columns (tenant and the three after it may be NULL: none), the seconds per unit of
 * its times, and whether a time may carry its unit. The first three are required; an optional
 * column the header lacks is not read. */
typedef struct trace_format {
    const char *submit, *duration, *gpus, *tenant, *cls, *iterations, *iteration, *type;
    const char *started; /* when named (required), `duration` is the end time: run = end - it */
    const char *milli;   /* a GPU's share in thousandths (openb's gpu_milli), checked when read */
    double unit_s;
    int units;
    int cpu_rows; /* rows of 0 GPUs are CPU jobs, left out and counted, not malformed */
} trace_format;

static const trace_format formats[] = {
    [ST_TRACE_PHILLY] = {"submit_s", "duration_s", "num_gpus", "vc", .unit_s = 1},
    [ST_TRACE_MURI] = {"submit_time", "duration", "num_gpu", NULL, "model_name", "iterations",
                       "iteration_time", .unit_s = 1e-3},
    [ST_TRACE_CSV] = {"submit", "duration", "gpus", "tenant", .type = "gpu_type", .unit_s = 1,
                      .units = 1},
    [ST_TRACE_OPENB] = {"creation_time", "deletion_time", "num_gpu", .type = "gpu_spec",
                        .started = "scheduled_time", .milli = "gpu_milli", .unit_s = 1,
                        .cpu_rows = 1},
};

enum {
    C_SUBMIT,
    C_DURATION,
    C_GPUS,
    C_TENANT,
    C_CLS,
    C_ITERS,
    C_ITER,
    C_TYPE,
    C_START,
    C_MILLI,
    C__N
};

#define NAMES(tf)                                                                                  \
    {                                                                                              \
        (tf)->submit, (tf)->duration, (tf)->gpus, (tf)->tenant, (tf)->cls, (tf)->iterations,       \
            (tf)->iteration, (tf)->type, (tf)->started, (tf)->milli                                \
    }

/* Names in first-seen order (the order reports and indices use, so hashing never reaches
 * output), with an open-addressing index over them: a lookup is O(1) whatever the count (a
 * linear scan took 28 s for 100,000 tenants). */
typedef struct st_names {
    const char **v;
    size_t n, cap;
    struct slot {
        uint32_t hash; /* the name's, so a probe reads the name only when it likely matches */
        int32_t i;     /* index into v, -1 empty */
    } * slot;
    size_t nslot; /* a power of two, at most half full */
} st_names;

typedef struct reader {
    st_ld *ld;
    st_trace_cfg *t;
    const trace_format *tf;
    int col[C__N];
    int n_header; /* the header row's fields: a row with more is shifted or joined, not read */
    st_trace_job *jobs;
    size_t n, cap;
    st_names tenants, classes;
    st_names types;     /* trace.pools' GPU types, in its order: a row's type found in O(1) */
    st_csv_report rep;  /* its rows' warnings and errors (csv_in.h) */
    size_t cpu_rows;    /* rows of no GPU left out (trace_format.cpu_rows) */
    char map_names[96]; /* trace.pools' types, for messages */
} reader;

static uint32_t fnv1a(const char *p, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

static void names_rehash(st_names *l)
{
    free(l->slot);
    l->nslot = l->nslot ? l->nslot * 2 : 64;
    l->slot = st_xmalloc(l->nslot * sizeof *l->slot);
    for (size_t k = 0; k < l->nslot; k++)
        l->slot[k].i = -1;
    for (size_t i = 0; i < l->n; i++) {
        uint32_t h = fnv1a(l->v[i], strlen(l->v[i]));
        size_t k = h & (l->nslot - 1);
        while (l->slot[k].i >= 0)
            k = (k + 1) & (l->nslot - 1);
        l->slot[k] = (struct slot){h, (int32_t)i};
    }
}

/* Name [f, f + len)'s slot in the index: its own, or the empty one it would take. */
static size_t names_probe(const st_names *l, const char *f, size_t len, uint32_t h)
{
    size_t k = h & (l->nslot - 1);
    for (; l->slot[k].i >= 0; k = (k + 1) & (l->nslot - 1)) {
        const char *s = l->v[l->slot[k].i];
        if (l->slot[k].hash == h && strncmp(s, f, len) == 0 && s[len] == '\0')
            break;
    }
    return k;
}

/* The index of name [f, f + len) in the list, or -1. */
static int32_t names_find(const st_names *l, const char *f, size_t len)
{
    return l->nslot ? l->slot[names_probe(l, f, len, fnv1a(f, len))].i : -1;
}

/* The index of name [f, f + len) in the list, added when new. */
static int32_t name_of(reader *r, st_names *l, const char *f, size_t len)
{
    if (2 * (l->n + 1) > l->nslot)
        names_rehash(l);
    uint32_t h = fnv1a(f, len);
    size_t k = names_probe(l, f, len, h);
    if (l->slot[k].i >= 0)
        return l->slot[k].i;
    l->v = st_xgrow(l->v, sizeof *l->v, l->n + 1, &l->cap);
    l->v[l->n] = st_rd_strndup(&r->ld->rd, f, len);
    l->slot[k] = (struct slot){h, (int32_t)l->n};
    return (int32_t)l->n++;
}

/* Field k of the row (f, len) under rule rl, into *v: 1, or 0 after reporting the row (the
 * sign rule or the number: malformed, in the words `want`; the bound: an error). */
static int field(reader *r, const char *const *f, const size_t *len, int k, const st_value_rule *rl,
                 const char *want, double *v)
{
    const char *name[C__N] = NAMES(r->tf);
    int c = r->col[k];
    char why[256];
    int rc = st_limit_parse(name[k], f[c], len[c], rl, v, why, sizeof why);
    if (rc == ST_ELIMIT)
        st_csv_row_error(&r->rep, f[c], rc, why);
    else if (rc && rl->dim == ST_DIM_TIME && r->tf->units) { /* a time with a unit: why not */
        size_t nl = strlen(name[k]); /* the parse's "duration: " prefix, said once */
        const char *w = strncmp(why, name[k], nl) == 0 && why[nl] == ':' ? why + nl + 2 : why;
        st_csv_malformed(&r->rep, f[c], "%s '%.*s' is not a time >= 0: %s", name[k],
                         (int)st_utf8_fit(f[c], len[c], 40), f[c], w);
    } else if (rc)
        st_csv_malformed(&r->rep, f[c], "%s '%.*s' is not %s", name[k],
                         (int)st_utf8_fit(f[c], len[c], 40), f[c], want);
    return rc == 0;
}

/* A time column: seconds, or milliseconds (Muri), or with a unit (csv). */
static st_value_rule time_rule(const reader *r)
{
    return (st_value_rule){.dim = ST_DIM_TIME,
                           .range = ST_R_NONNEG,
                           .lim = &st_lim_run,
                           .unit_flags = r->tf->units ? ST_UNIT_BARE_SI : ST_UNIT_PLAIN,
                           .scale = r->tf->unit_s};
}

/* The iterations and seconds per iteration where the format records them (0 and 0 when it does
 * not), and their product, the job's service, within the cluster run's bound: 1, or 0 after
 * reporting the row. */
static int iterations(reader *r, const char *const *f, const size_t *len, st_trace_job *j)
{
    int a = r->col[C_ITERS], b = r->col[C_ITER];
    if (a < 0 || b < 0)
        return 1;
    st_value_rule its = {.dim = ST_DIM_COUNT,
                         .range = ST_R_NONNEG,
                         .whole = 1,
                         .lim = &st_lim_whole,
                         .unit_flags = ST_UNIT_PLAIN},
                  it = time_rule(r);
    if (!field(r, f, len, C_ITERS, &its, "a whole number >= 0", &j->iterations) ||
        !field(r, f, len, C_ITER, &it, "a number >= 0", &j->iteration_s))
        return 0;
    /* The service is the job's run time in the replay (models/sched/muri.h): a product past the
     * bound, or past a double ("1e300" iterations of 1 h), left the replay with an end at
     * infinity and the unlocated "jobs wait that can never start". */
    double service = j->iterations * j->iteration_s;
    if (service > ST_LIM_SPAN_S) {
        char b0[48], b1[48], why[256];
        st_unit_format(service, ST_DIM_TIME, b0, sizeof b0);
        st_unit_format(ST_LIM_SPAN_S, ST_DIM_TIME, b1, sizeof b1);
        st_snprintf(why, sizeof why, "%s x %s: %s is beyond %s (at most %s: %s)", r->tf->iterations,
                    r->tf->iteration, b0, st_lim_run.what, b1, st_lim_run.how);
        st_csv_row_error(&r->rep, f[a], ST_ELIMIT, why);
        return 0;
    }
    return 1;
}

/* A name column's value: printable UTF-8 (csv_in.h's rules), else the row is malformed. */
static int name_ok(reader *r, const char *const *f, const size_t *len, int k)
{
    const char *name[C__N] = NAMES(r->tf);
    int c = r->col[k];
    char what[64];
    long bad = c >= 0 ? st_csv_bad_name(f[c], len[c], what, sizeof what) : -1;
    if (bad >= 0)
        st_csv_malformed(&r->rep, f[c] + bad,
                         "%s holds %s; names are printed, so they are UTF-8 text "
                         "without control characters",
                         name[k], what);
    return bad < 0;
}

/* The run time, where the format records an end (openb) the end less the start: 1, or 0 after
 * reporting the row. */
static int run_time(reader *r, const char *const *f, const size_t *len, const st_value_rule *tr,
                    st_trace_job *j)
{
    if (!r->tf->started)
        return field(r, f, len, C_DURATION, tr, "a number >= 0", &j->duration_s);
    int c = r->col[C_START];
    double start, end;
    if (len[c] == 0) {
        st_csv_malformed(&r->rep, f[c], "%s is empty: the job never started, so it has no run time",
                         r->tf->started);
        return 0;
    }
    if (!field(r, f, len, C_START, tr, "a number >= 0", &start) ||
        !field(r, f, len, C_DURATION, tr, "a number >= 0", &end))
        return 0;
    if (end < start) {
        st_csv_malformed(&r->rep, f[r->col[C_DURATION]], "%s %.17g is before %s %.17g",
                         r->tf->duration, end, r->tf->started, start);
        return 0;
    }
    j->duration_s = end - start;
    return 1;
}

/* The pool trace.pools maps type [p, p + n) to, or -1: through the index of its types, so that
 * a row costs the same whatever the map's size (a scan was rows x entries). */
static int32_t mapped(const reader *r, const char *p, size_t n)
{
    int32_t k = names_find(&r->types, p, n);
    return k >= 0 ? r->t->pools[k].pool : -1;
}

/* trace.pools' types into the reader's index, entry k at index k (the loader refuses a key named
 * twice). */
static void index_types(reader *r)
{
    for (size_t k = 0; k < r->t->n_pools; k++)
        name_of(r, &r->types, r->t->pools[k].type, strlen(r->t->pools[k].type));
}

/* "it maps A, B, ..." for trace.pools' types, cut to fit n bytes. */
static void map_names(const st_trace_cfg *t, char *out, size_t n)
{
    size_t at = (size_t)snprintf(out, n, "it maps");
    for (size_t k = 0; k < t->n_pools && at < n; k++) {
        int w = snprintf(out + at, n - at, "%s '%s'", k ? "," : "", t->pools[k].type);
        if (w < 0 || (size_t)w >= n - at) {
            snprintf(out + at, n - at, ", ...");
            return;
        }
        at += (size_t)w;
    }
}

/* Job j's pool through trace.pools (none: every job in the first): the first of the row's
 * '|'-separated GPU types the map names, or its `any` entry for a row that names none. A row
 * whose types the map does not name is malformed. 1, or 0 after reporting the row. */
static int row_pool(reader *r, const char *const *f, const size_t *len, st_trace_job *j)
{
    const st_trace_cfg *t = r->t;
    int c = r->col[C_TYPE];
    if (!t->n_pools)
        return 1;
    const char *at = c >= 0 ? f[c] : NULL, *p = at ? at : "";
    size_t n = c >= 0 ? len[c] : 0;
    const char *end = p + n;
    if (n == 0 && (j->pool = mapped(r, "any", 3)) >= 0)
        return 1;
    for (const char *bar; p < end; p = bar + 1) {
        bar = memchr(p, '|', (size_t)(end - p));
        bar = bar ? bar : end;
        if ((j->pool = mapped(r, p, (size_t)(bar - p))) >= 0)
            return 1;
    }
    if (n == 0)
        st_csv_malformed(&r->rep, at, "%s is empty (any GPU) and trace.pools has no 'any' entry",
                         r->tf->type);
    else
        st_csv_malformed(&r->rep, at, "%s '%.*s' names no GPU type trace.pools maps (%s)",
                         r->tf->type, (int)st_utf8_fit(at, n, 40), at, r->map_names);
    return 0;
}

/* The GPU share where the format records one (openb's gpu_milli, optional): a number from 0 to
 * 1000 thousandths of a GPU, else the row is malformed ("nan", "-5" and "99999999999" were read
 * unchecked). It is not used past the check: a sharing pod takes a whole GPU in the cluster run.
 * 1, or 0 after reporting the row. */
static int milli_ok(reader *r, const char *const *f, const size_t *len)
{
    int c = r->col[C_MILLI];
    if (c < 0)
        return 1;
    st_value_rule mr = {.dim = ST_DIM_COUNT, .range = ST_R_NONNEG, .unit_flags = ST_UNIT_PLAIN};
    double v;
    char why[256];
    if (st_limit_parse(r->tf->milli, f[c], len[c], &mr, &v, why, sizeof why) || v > 1000) {
        st_csv_malformed(&r->rep, f[c], "%s '%.*s' is not a number from 0 to 1000", r->tf->milli,
                         (int)st_utf8_fit(f[c], len[c], 40), f[c]);
        return 0;
    }
    return 1;
}

/* A row of no GPU where the format holds CPU jobs too (openb's CPU pods): counted, left out. */
static int cpu_row(reader *r, const char *const *f, const size_t *len)
{
    int c = r->col[C_GPUS];
    if (!r->tf->cpu_rows || len[c] != 1 || f[c][0] != '0')
        return 0;
    r->cpu_rows++;
    return 1;
}

static void row(reader *r, const char *p, size_t n)
{
    const char *f[ST_CSV_MAX_COLS];
    size_t len[ST_CSV_MAX_COLS];
    if (st_csv_row_bytes(&r->rep, p, n))
        return;
    int nf = st_csv_split(p, n, f, len, ST_CSV_MAX_COLS);
    for (int i = 0; i < nf && i < ST_CSV_MAX_COLS; i++) {
        const char *q = st_csv_quoted(f[i], len[i]);
        if (q) { /* a name with a quote in it, or a number after junk: nothing to read whole */
            int escaped = q + 1 < f[i] + len[i] && q[1] == '"';
            st_csv_malformed(&r->rep, q, "field %d: %s", i + 1,
                             escaped ? "an escaped quote (\"\") in a quoted field is not read"
                                     : "a quote that does not close its field before the comma");
            return;
        }
    }
    if (nf > r->n_header) { /* which field is which is no longer known */
        st_csv_malformed(&r->rep, NULL, "%d fields where the header row has %d", nf, r->n_header);
        return;
    }
    const char *name[C__N] = NAMES(r->tf);
    for (int k = 0; k < C__N; k++)
        if (r->col[k] >= nf) {
            st_csv_malformed(&r->rep, NULL, "%d fields, no '%s'", nf, name[k]);
            return;
        }
    st_value_rule tr = time_rule(r), gr = {.dim = ST_DIM_COUNT,
                                           .range = ST_R_MIN1,
                                           .whole = 1,
                                           .lim = &st_lim_job_gpus,
                                           .unit_flags = ST_UNIT_PLAIN};
    st_trace_job j = {.tenant = -1, .cls = -1, .line = r->rep.line_no};
    double g;
    if (cpu_row(r, f, len))
        return;
    if (!field(r, f, len, C_SUBMIT, &tr, "a number >= 0", &j.submit_s) ||
        !run_time(r, f, len, &tr, &j) ||
        !field(r, f, len, C_GPUS, &gr, "a whole number >= 1", &g) || !milli_ok(r, f, len) ||
        !iterations(r, f, len, &j) || !name_ok(r, f, len, C_TENANT) || !name_ok(r, f, len, C_CLS) ||
        (r->t->n_pools && !name_ok(r, f, len, C_TYPE)) /* read only then */ ||
        !row_pool(r, f, len, &j))
        return; /* before the names are added: a skipped row adds no tenant or class */
    j.gpus = (int64_t)g;
    int c = r->col[C_TENANT], k = r->col[C_CLS];
    j.tenant = c >= 0 ? name_of(r, &r->tenants, f[c], len[c]) : -1;
    j.cls = k >= 0 ? name_of(r, &r->classes, f[k], len[k]) : -1;
    r->jobs = st_xgrow(r->jobs, sizeof *r->jobs, r->n + 1, &r->cap);
    r->jobs[r->n++] = j;
}

/* Every line after the header (st_csv_each_row), the rows past ST_TRACE_MAX_ROWS an error. */
static void row_of(void *r, const char *p, size_t n)
{
    row(r, p, n);
}

static int rows(reader *r, st_csv *c, char *why, size_t wn)
{
    char msg[160];
    snprintf(msg, sizeof msg,
             "the trace has more than %u rows, the limit: the cluster run keeps about 430 bytes a "
             "job, 1.8 GB at the limit",
             (unsigned)ST_TRACE_MAX_ROWS);
    return st_csv_each_row(c, &r->rep, ST_TRACE_MAX_ROWS, msg, row_of, r, why, wn);
}

/* The header's columns: 0, or an error located in the file (a missing column, a repeated one,
 * too many) or at `at` (no GPU type column for trace.pools). */
static int header(reader *r, st_csv *c, const st_ynode *at, const char *p, size_t n)
{
    st_rd *rd = &r->ld->rd;
    st_trace_cfg *t = r->t;
    const char *want[C__N] = NAMES(r->tf);
    if (st_csv_read_header(rd->diag, t->file, c, p, n, want, C__N, r->col))
        return -1;
    const char *hf[ST_CSV_MAX_COLS];
    size_t hl[ST_CSV_MAX_COLS];
    r->n_header = st_csv_split(p, n, hf, hl, ST_CSV_MAX_COLS);
    char what[160];
    st_snprintf(what, sizeof what, "trace file '%s' (format %s)", at->text,
                st_trace_format_names[t->format]);
    for (int k = 0; k < C__N; k++)
        if (r->col[k] < 0 && (k < C_TENANT || (k == C_START && want[k]))) /* said in the file */
            return st_csv_no_column(rd->diag, t->file, c->line, p, n, what, want[k], want, C__N);
    if (t->n_pools && r->col[C_TYPE] < 0 && mapped(r, "any", 3) < 0)
        return st_rd_fail(rd, at, ST_EINVAL,
                          "trace file '%s' (format %s) has no GPU type column%s%s%s: trace.pools "
                          "can map its jobs only with an 'any' entry",
                          at->text, st_trace_format_names[t->format], want[C_TYPE] ? " '" : "",
                          want[C_TYPE] ? want[C_TYPE] : "", want[C_TYPE] ? "'" : "");
    return 0;
}

/* A file with no header row (empty, a byte-order mark alone, blank lines only): 1 after saying
 * so, with the columns the format's header must name. */
static int empty(reader *r, const st_ynode *at)
{
    const char *want[C__N] = NAMES(r->tf);
    char cols[160] = "";
    size_t len = 0;
    for (int k = 0; k < C__N && len < sizeof cols; k++)
        if (want[k] && (k < C_TENANT || k == C_START))
            len +=
                (size_t)snprintf(cols + len, sizeof cols - len, "%s%s", len ? ", " : "", want[k]);
    st_rd_fail(&r->ld->rd, at, ST_EINVAL,
               "trace file '%s' is empty: expected a header row naming its columns (format %s: "
               "%s), then one row per job",
               at->text, st_trace_format_names[r->t->format], cols);
    return 1;
}

/* The rows left out in one line each, whatever their count: the per-row warnings stop at
 * ST_CSV_SKIP_WARNINGS (and the loader's at 20), so the totals are said here. */
static void skipped_summary(reader *r, const st_ynode *at)
{
    if (r->cpu_rows)
        st_diag_add(&r->ld->s->warnings, 0, at->loc,
                    "trace file '%s': %zu row%s of no GPU (CPU jobs) left out", at->text,
                    r->cpu_rows, r->cpu_rows == 1 ? "" : "s");
    st_csv_skipped_summary(&r->rep, at->loc, "trace file", at->text);
}

/* Open the trace once: a missing file, a directory, a FIFO or a file over the cap is an error
 * at the `file` key, before a byte is read and without blocking. */
static int open_trace(st_ld *ld, const st_ynode *at, st_csv *c)
{
    char why[160];
    int rc = st_csv_open(c, ld->s->trace.file, why, sizeof why);
    if (rc == ST_ENOTFOUND)
        return st_rd_fail(&ld->rd, at, rc,
                          "trace file '%s' not found (looked for '%s'; relative paths start at "
                          "the scenario's folder)",
                          at->text, ld->s->trace.file);
    if (rc && strncmp(why, "is ", 3) == 0) /* a directory, a FIFO, too large */
        return st_rd_fail(&ld->rd, at, rc, "trace file '%s' %s", at->text, why);
    if (rc)
        return st_rd_fail(&ld->rd, at, rc, "cannot read trace file '%s': %s", at->text, why);
    return 0;
}

static void keep(st_ld *ld, reader *r)
{
    st_trace_cfg *t = r->t;
    ld->s->trace_jobs = r->jobs;
    ld->s->trace_tenants = r->tenants.v;
    ld->s->trace_classes = r->classes.v;
    t->jobs = r->jobs;
    t->n_jobs = r->n;
    t->tenants = r->tenants.v;
    t->n_tenants = r->tenants.n;
    t->classes = r->classes.v;
    t->n_classes = r->classes.n;
    free(r->tenants.slot);
    free(r->classes.slot);
    free(r->types.v);
    free(r->types.slot);
}

/* A trace left with no job: its header alone, every row a CPU pod (openb), or every row
 * malformed, said with each row's reason (csv_in.h), since a scenario that does not load prints
 * no warning (the CPU pods' count among them: "has no job row" was said of a file of CPU pods). */
static int no_job(reader *r, const st_ynode *at)
{
    size_t cpu = r->cpu_rows;
    if (!r->rep.skipped && cpu)
        return st_rd_fail(&r->ld->rd, at, ST_EINVAL,
                          "trace file '%s': its %zu row%s for no GPU (CPU pods are left out), so "
                          "no job is left",
                          at->text, cpu, cpu == 1 ? " asks" : "s ask");
    if (!r->rep.skipped)
        return st_rd_fail(&r->ld->rd, at, ST_EINVAL,
                          "trace file '%s' has no job row: expected at least one row after its "
                          "header",
                          at->text);
    char why[96], cpus[96] = "";
    if (cpu)
        snprintf(cpus, sizeof cpus, "; besides, %zu row%s for no GPU (CPU pods are left out)", cpu,
                 cpu == 1 ? " asks" : "s ask");
    int rc = st_rd_fail(&r->ld->rd, at, ST_EINVAL,
                        "trace file '%s' has no job row that could be read: %s%s", at->text,
                        st_csv_skipped_reason(&r->rep, why, sizeof why), cpus);
    st_csv_skipped_as_errors(&r->rep);
    return rc;
}

int st__trace_read(st_ld *ld, const st_ynode *at)
{
    st_trace_cfg *t = &ld->s->trace;
    st_csv c;
    if (open_trace(ld, at, &c)) {
        st_csv_close(&c);
        return -1;
    }
    reader r = {.ld = ld,
                .t = t,
                .tf = &formats[t->format],
                .rep = {.errors = ld->rd.diag,
                        .warnings = &ld->s->warnings,
                        .file = t->file,
                        .noun = "trace row",
                        .refuse = t->refuse_malformed}};
    map_names(t, r.map_names, sizeof r.map_names);
    index_types(&r);
    char why[160] = "";
    const char *p = "";
    size_t n = 0;
    int rc = st_csv_header_line(&c, &p, &n, why, sizeof why);
    if (rc == 0) /* said apart: "no column 'submit' in its header row" sent one to the header */
        rc = empty(&r, at);
    else if (rc > 0)
        rc = header(&r, &c, at, p, n) ? 1 : rows(&r, &c, why, sizeof why);
    if (rc < 0) /* a read error, or a file that grew past the cap */
        st_rd_fail(&ld->rd, at, rc, "trace file '%s' %s", at->text, why);
    st_csv_close(&c);
    t->skipped = r.rep.skipped;
    skipped_summary(&r, at);
    keep(ld, &r);
    if (!rc && !r.rep.stop && t->n_jobs == 0) /* nothing to schedule: say so, not an empty run */
        return no_job(&r, at);
    return rc || r.rep.stop ? -1 : 0;
}
