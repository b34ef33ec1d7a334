/* Job traces as CSV: the formats' columns, units and conventions, read in one pass over the file
 * held in memory (the 82,247 rows of Philly in a few tens of milliseconds).
 *   philly  the Philly job list (Jeon et al., ATC'19; github.com/msr-fiddle/philly-traces, CC BY
 *           4.0) as normalised from the Pollux artifact's copy: job_id, submit_unix, submit_s,
 *           duration_s, num_gpus, vc; seconds; the VC is the tenant.
 *   muri    the Philly-derived traces of Muri (Zhao et al., SIGCOMM'22; github.com/Rivendile/Muri,
 *           simulator/trace-data): submit_time and duration in milliseconds, num_gpu; CRLF;
 *           also model_name (the job's class), iterations and iteration_time (milliseconds),
 *           which the artifact's runtime model reads (`replay: muri`).
 *   csv     a header row naming submit, duration, gpus and optionally tenant, in any order;
 *           times in seconds, or with a unit ("2 h", sim/units.h). */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/trace.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/units.h"
#include "sim/xalloc.h"

/* A format's columns (tenant and the three after it may be NULL: none), the seconds per unit of
 * its times, and whether a time may carry its unit. The first three are required; an optional
 * column the header lacks is not read. */
typedef struct trace_format {
    const char *submit, *duration, *gpus, *tenant, *cls, *iterations, *iteration;
    double unit_s;
    int units;
} trace_format;

static const trace_format formats[] = {
    [ST_TRACE_PHILLY] = {"submit_s", "duration_s", "num_gpus", "vc", NULL, NULL, NULL, 1, 0},
    [ST_TRACE_MURI] = {"submit_time", "duration", "num_gpu", NULL, "model_name", "iterations",
                       "iteration_time", 1e-3, 0},
    [ST_TRACE_CSV] = {"submit", "duration", "gpus", "tenant", NULL, NULL, NULL, 1, 1},
};

enum { C_SUBMIT, C_DURATION, C_GPUS, C_TENANT, C_CLS, C_ITERS, C_ITER, C__N };

#define NAMES(tf)                                                                                  \
    {                                                                                              \
        (tf)->submit, (tf)->duration, (tf)->gpus, (tf)->tenant, (tf)->cls, (tf)->iterations,       \
            (tf)->iteration                                                                        \
    }

/* One line [p, end) split at commas into at most max fields; returns the count. */
static int split(const char *p, const char *end, const char **f, size_t *len, int max)
{
    int n = 0;
    while (n < max) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        const char *e = c ? c : end;
        f[n] = p;
        len[n++] = (size_t)(e - p);
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

/* The column indices of the format's names in the header, or -1 for a missing one. */
static void header(const char *p, const char *end, const trace_format *tf, int *col)
{
    const char *f[64];
    size_t len[64];
    int n = split(p, end, f, len, 64);
    const char *want[C__N] = NAMES(tf);
    for (int k = 0; k < C__N; k++) {
        col[k] = -1;
        for (int i = 0; want[k] && i < n; i++) {
            size_t l = len[i];
            while (l && (f[i][l - 1] == ' ' || f[i][l - 1] == '\r'))
                l--;
            if (l == strlen(want[k]) && memcmp(f[i], want[k], l) == 0)
                col[k] = i;
        }
    }
}

/* A plain number filling the whole field, or NAN; with units, also a time such as "2 h". */
static double number(const char *f, size_t len, int units)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return NAN;
    memcpy(buf, f, len);
    buf[len] = '\0';
    char *e;
    errno = 0;
    double v = strtod(buf, &e);
    if (!*e && !errno)
        return v;
    char why[160];
    return units && st_unit_parse(buf, ST_DIM_TIME, &v, why, sizeof why) == 0 ? v : NAN;
}

typedef struct st_names {
    const char **v;
    size_t n, cap;
} st_names;

typedef struct reader {
    st_ld *ld;
    st_trace_cfg *t;
    const trace_format *tf;
    int col[C__N];
    st_trace_job *jobs;
    size_t n, cap;
    st_names tenants, classes;
    int refused;
} reader;

/* The index of name [f, f + len) in the list, added when new. */
static int32_t name_of(reader *r, st_names *l, const char *f, size_t len)
{
    for (size_t i = l->n; i-- > 0;)
        if (strlen(l->v[i]) == len && memcmp(l->v[i], f, len) == 0)
            return (int32_t)i;
    char *name = st_xstrndup(f, len);
    l->v = st_xgrow(l->v, sizeof *l->v, l->n + 1, &l->cap);
    l->v[l->n] = st_rd_strdup(&r->ld->rd, name);
    free(name);
    return (int32_t)l->n++;
}

/* A malformed row: a warning (skipped) or an error (refused). */
static void malformed(reader *r, unsigned line, const char *what)
{
    st_loc at = {r->t->file, line, 1};
    const char *how = r->t->refuse_malformed ? "" : "; row skipped";
    if (r->t->refuse_malformed) {
        st_diag_add(r->ld->rd.diag, ST_EINVAL, at, "malformed trace row: %s", what);
        r->refused = 1;
    } else {
        st_diag_add(&r->ld->s->warnings, 0, at, "malformed trace row: %s%s", what, how);
    }
    r->t->skipped++;
}

/* The iterations and seconds per iteration where the format records them: 1 and both (0 when
 * it does not), or 0 after reporting the row malformed. */
static int iterations(reader *r, const char **f, const size_t *len, unsigned line, double *its,
                      double *it_s)
{
    int a = r->col[C_ITERS], b = r->col[C_ITER];
    if (a < 0 || b < 0)
        return 1;
    *its = number(f[a], len[a], 0);
    *it_s = number(f[b], len[b], 0) * r->tf->unit_s;
    const char *bad = !(*its >= 0 && isfinite(*its))     ? r->tf->iterations
                      : !(*it_s >= 0 && isfinite(*it_s)) ? r->tf->iteration
                                                         : NULL;
    if (!bad)
        return 1;
    int k = bad == r->tf->iterations ? a : b;
    char what[160];
    snprintf(what, sizeof what, "%s '%.*s' is not a number >= 0", bad,
             (int)(len[k] < 40 ? len[k] : 40), f[k]);
    malformed(r, line, what);
    return 0;
}

static void row(reader *r, const char *p, const char *end, unsigned line)
{
    const char *f[64];
    size_t len[64];
    int n = split(p, end, f, len, 64);
    char what[160];
    if (memchr(p, '"', (size_t)(end - p))) {
        malformed(r, line, "quoted fields are not read");
        return;
    }
    const char *name[C__N] = NAMES(r->tf);
    for (int k = 0; k < C__N; k++)
        if (r->col[k] >= n) {
            snprintf(what, sizeof what, "%d fields, no '%s'", n, name[k]);
            malformed(r, line, what);
            return;
        }
    int u = r->tf->units;
    double sub = number(f[r->col[C_SUBMIT]], len[r->col[C_SUBMIT]], u) * r->tf->unit_s;
    double dur = number(f[r->col[C_DURATION]], len[r->col[C_DURATION]], u) * r->tf->unit_s;
    double g = number(f[r->col[C_GPUS]], len[r->col[C_GPUS]], 0);
    const char *bad = !(sub >= 0 && isfinite(sub))             ? r->tf->submit
                      : !(dur >= 0 && isfinite(dur))           ? r->tf->duration
                      : !(g >= 1 && g <= 1e7 && g == floor(g)) ? r->tf->gpus
                                                               : NULL;
    if (bad) {
        int k = bad == r->tf->submit ? C_SUBMIT : bad == r->tf->duration ? C_DURATION : C_GPUS;
        snprintf(what, sizeof what, "%s '%.*s' is not %s", bad,
                 (int)(len[r->col[k]] < 40 ? len[r->col[k]] : 40), f[r->col[k]],
                 k == C_GPUS ? "a whole number >= 1" : "a number >= 0");
        malformed(r, line, what);
        return;
    }
    double its = 0, it_s = 0;
    if (!iterations(r, f, len, line, &its, &it_s))
        return; /* before the names: a skipped row adds no tenant or class */
    int c = r->col[C_TENANT], k = r->col[C_CLS];
    int32_t tenant = c >= 0 ? name_of(r, &r->tenants, f[c], len[c]) : -1;
    int32_t cls = k >= 0 ? name_of(r, &r->classes, f[k], len[k]) : -1;
    r->jobs = st_xgrow(r->jobs, sizeof *r->jobs, r->n + 1, &r->cap);
    r->jobs[r->n++] = (st_trace_job){sub, dur, (int64_t)g, tenant, cls, its, it_s};
}

static char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        buf = st_xgrow(buf, 1, *n + 65536, &cap);
        size_t got = fread(buf + *n, 1, cap - *n, fp);
        *n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Every line after the header; a CR before the LF is dropped, blank lines are skipped. */
static void rows(reader *r, const char *p, const char *end)
{
    unsigned line = 2;
    while (p < end && !r->refused) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *le = e > p && e[-1] == '\r' ? e - 1 : e;
        if (le > p)
            row(r, p, le, line);
        line++;
        p = nl ? nl + 1 : end;
    }
}

int st__trace_read(st_ld *ld, const st_ynode *at)
{
    st_trace_cfg *t = &ld->s->trace;
    size_t n = 0;
    char *buf = slurp(t->file, &n);
    if (!buf)
        return st_rd_fail(&ld->rd, at, ST_EIO, "cannot read trace file '%s': %s", at->text,
                          strerror(errno));
    reader r = {.ld = ld, .t = t, .tf = &formats[t->format]};
    const char *end = buf + n, *nl = memchr(buf, '\n', n);
    const char *he = nl ? nl : end;
    header(buf, he, r.tf, r.col);
    const char *name[C__N] = NAMES(r.tf);
    for (int k = 0; k < C_TENANT; k++)
        if (r.col[k] < 0) {
            free(buf);
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "trace file '%s' (format %s) has no column '%s' in its header row",
                              at->text, st_trace_format_names[t->format], name[k]);
        }
    rows(&r, nl ? nl + 1 : end, end);
    free(buf);
    ld->s->trace_jobs = r.jobs;
    ld->s->trace_tenants = r.tenants.v;
    ld->s->trace_classes = r.classes.v;
    t->jobs = r.jobs;
    t->n_jobs = r.n;
    t->tenants = r.tenants.v;
    t->n_tenants = r.tenants.n;
    t->classes = r.classes.v;
    t->n_classes = r.classes.n;
    return r.refused ? -1 : 0;
}
