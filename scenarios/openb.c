/* The openb node and pod lists (openb.h). Units as the trace's README gives them: CPU in
 * milli-cores, memory in MiB, gpu_milli the share of each GPU in thousandths. */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/openb.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/csv_in.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

#define MAX_COLS 32

/* One CSV file read line by line (scenarios/csv_in.h: one open, the size cap, no NUL), and the
 * current row's fields. */
typedef struct csv {
    st_csv in;
    const char *path, *line;
    const char *f[MAX_COLS];
    size_t len[MAX_COLS];
    int nf;
    int col[8]; /* the wanted columns' indices */
} csv;

static int fail_at(st_diag *d, const csv *c, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* An error at byte `at` of the current line (NULL: its start); returns -1. */
static int fail_at(st_diag *d, const csv *c, const char *at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    st_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    st_diag_add(d, ST_EINVAL, (st_loc){c->path, c->in.line, at ? st_csv_col(c->line, at) : 1}, "%s",
                msg);
    return -1;
}

/* The next row that is not blank, split into c->f: 1, 0 at the end, or -1 after an error (a
 * read error, a NUL byte, a line over ST_CSV_MAX_LINE). */
static int next_row(csv *c, st_diag *d)
{
    const char *p;
    size_t n;
    char why[160];
    int rc;
    while ((rc = st_csv_next(&c->in, &p, &n, why, sizeof why)) > 0 && n == 0)
        ;
    if (rc < 0)
        return st_diag_add(d, rc, (st_loc){c->path, 0, 0}, "'%s' %s", c->path, why), -1;
    if (rc == 0)
        return 0;
    c->line = p;
    const char *nul = memchr(p, '\0', n);
    if (nul)
        return fail_at(d, c, nul, "malformed row: a NUL byte");
    if (c->in.overlong)
        return fail_at(d, c, NULL, "malformed row: longer than %d bytes", ST_CSV_MAX_LINE);
    c->nf = st_csv_split(p, n, c->f, c->len, MAX_COLS);
    c->nf = c->nf < MAX_COLS ? c->nf : MAX_COLS;
    return 1;
}

/* Open path and find the header's columns want[0..n); 0, or -1 after an error in d. */
static int open_csv(csv *c, const char *path, const char *const *want, int n, st_diag *d)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    char why[160];
    if (st_csv_open(&c->in, path, why, sizeof why))
        return st_diag_add(d, ST_EIO, (st_loc){path, 0, 0}, "cannot read '%s': %s", path, why), -1;
    int rc = next_row(c, d), first = 0;
    if (rc < 0)
        return -1;
    if (rc == 0) { /* not "the header row has no column": there is no header row */
        char cols[256] = "";
        size_t len = 0;
        for (int k = 0; k < n && len < sizeof cols; k++)
            len += (size_t)snprintf(cols + len, sizeof cols - len, "%s%s", k ? ", " : "", want[k]);
        return st_diag_add(d, ST_EINVAL, (st_loc){path, 0, 0},
                           "'%s' is empty: expected a header row naming its columns (%s)", path,
                           cols),
               -1;
    }
    int dup = st_csv_header(c->f, c->len, c->nf, want, n, c->col, &first);
    if (dup >= 0)
        return fail_at(d, c, c->f[dup],
                       "the header row names column '%.*s' twice (fields %d and %d): which one "
                       "to read is unclear",
                       (int)st_utf8_fit(c->f[dup], c->len[dup], 64), c->f[dup], first + 1, dup + 1);
    for (int k = 0; k < n; k++)
        if (c->col[k] < 0) { /* as a trace's header says it: at the cause, with what it holds */
            size_t hl = c->nf > 0 ? (size_t)(c->f[c->nf - 1] + c->len[c->nf - 1] - c->line) : 0;
            char *what = st_xasprintf("openb file '%s'", path); /* the path whole */
            int rc = st_csv_no_column(d, path, c->in.line, c->line, hl, what, want[k], want, n);
            free(what);
            return rc;
        }
    return 0;
}

/* Field k of the row as a whole number in [lo, hi] (a plain number: no unit, suffix or hex), or
 * an error at its column. */
static int whole(const csv *c, int k, const char *name, int64_t lo, int64_t hi, int64_t *v,
                 st_diag *d)
{
    int i = c->col[k];
    if (i >= c->nf)
        return fail_at(d, c, NULL, "malformed row: %d fields, no '%s'", c->nf, name);
    double x;
    if (st_unit_parse_n(c->f[i], c->len[i], ST_DIM_COUNT, ST_UNIT_PLAIN, &x, NULL, 0) ||
        x != floor(x) || x < (double)lo || x > (double)hi)
        return fail_at(d, c, c->f[i],
                       "malformed row: %s '%.*s' is not a whole number from %lld to "
                       "%lld",
                       name, (int)st_utf8_fit(c->f[i], c->len[i], 40), c->f[i], (long long)lo,
                       (long long)hi);
    *v = (int64_t)x;
    return 0;
}

/* A GPU model's name, printable (csv_in.h's rules: it reaches the report), by its index. */
static int32_t model_of(st_openb *o, const char *name, size_t len, const csv *c, st_diag *d)
{
    char what[64];
    long bad = st_csv_bad_name(name, len, what, sizeof what);
    if (bad >= 0)
        return fail_at(d, c, name + bad,
                       "malformed row: a GPU model's name holds %s; names are printed, so they "
                       "are UTF-8 text without control characters",
                       what);
    for (size_t i = 0; i < o->n_models; i++)
        if (strlen(o->models[i]) == len && strncmp(o->models[i], name, len) == 0)
            return (int32_t)i;
    if (o->n_models == 64)
        return fail_at(d, c, name, "more than 64 GPU models");
    o->models = realloc(o->models, (o->n_models + 1) * sizeof *o->models);
    if (!o->models)
        ST_BUG("out of memory");
    o->models[o->n_models] = st_xstrndup(name, len);
    return (int32_t)o->n_models++;
}

static int read_nodes(st_openb *o, csv *c, st_diag *d)
{
    size_t cap = 0;
    for (int rc; (rc = next_row(c, d)) != 0;) {
        int64_t cpu, mem, gpus;
        if (rc < 0 || whole(c, 1, "cpu_milli", 0, INT64_MAX / 4, &cpu, d) ||
            whole(c, 2, "memory_mib", 0, INT64_MAX / 4, &mem, d) ||
            whole(c, 3, "gpu", 0, ST_GS_MAX_GPUS, &gpus, d))
            return -1;
        int k = c->col[4];
        size_t len = k < c->nf ? c->len[k] : 0;
        int32_t model = gpus && len ? model_of(o, c->f[k], len, c, d) : -1;
        if (gpus && len && model < 0)
            return -1;
        o->nodes = st_xgrow(o->nodes, sizeof *o->nodes, o->n_nodes + 1, &cap);
        o->nodes[o->n_nodes++] = (st_gs_node){cpu, mem, (int)gpus, model};
    }
    return 0;
}

/* gpu_spec: the models separated by '|' as a mask over the model list (a model no node has
 * gets its own bit, so that no node matches it). */
static int spec_mask(st_openb *o, const char *s, size_t n, const csv *c, uint64_t *mask, st_diag *d)
{
    *mask = 0;
    for (const char *end = s + n; s < end;) {
        const char *bar = memchr(s, '|', (size_t)(end - s));
        size_t len = (size_t)((bar ? bar : end) - s);
        if (len) {
            int32_t m = model_of(o, s, len, c, d);
            if (m < 0)
                return -1;
            *mask |= (uint64_t)1 << m;
        }
        s += len + (bar != NULL);
    }
    return 0;
}

static int read_pods(st_openb *o, csv *c, st_diag *d)
{
    size_t cap = 0;
    for (int rc; (rc = next_row(c, d)) != 0;) {
        int64_t cpu = 0, mem = 0, gpus = 0, milli = 0;
        if (rc < 0 || whole(c, 0, "cpu_milli", 0, INT64_MAX / 4, &cpu, d) ||
            whole(c, 1, "memory_mib", 0, INT64_MAX / 4, &mem, d) ||
            whole(c, 2, "num_gpu", 0, ST_GS_MAX_GPUS, &gpus, d) ||
            whole(c, 3, "gpu_milli", 0, ST_GS_MILLI, &milli, d))
            return -1;
        if (gpus > 1 && milli != ST_GS_MILLI)
            return fail_at(d, c, NULL,
                           "malformed row: a %lld-GPU pod with gpu_milli %lld (only a one-GPU "
                           "pod shares a GPU)",
                           (long long)gpus, (long long)milli);
        uint64_t mask = 0;
        int k = c->col[4];
        if (k < c->nf && spec_mask(o, c->f[k], c->len[k], c, &mask, d))
            return -1;
        o->pods = st_xgrow(o->pods, sizeof *o->pods, o->n_pods + 1, &cap);
        o->pods[o->n_pods++] = (st_gs_pod){cpu, mem, (int)gpus, gpus ? milli : 0, mask};
    }
    return 0;
}

/* A node list with a GPU, or an error at its file: the placement tunes its pods to the GPUs'
 * capacity, and with none it failed "the nodes have no GPU", naming no file, after `validate`
 * had printed the other sets' rows. */
static int some_gpu(const st_openb *o, st_diag *d)
{
    for (size_t i = 0; i < o->n_nodes; i++)
        if (o->nodes[i].gpus > 0)
            return 0;
    if (!o->n_nodes)
        return st_diag_add(d, ST_EINVAL, (st_loc){o->node_path, 0, 0},
                           "the node list has no row after its header: expected one row per "
                           "node, at least one with a GPU"),
               -1;
    return st_diag_add(d, ST_EINVAL, (st_loc){o->node_path, 0, 0},
                       "the node list's %zu node%s no GPU (gpu is 0 in every row): the "
                       "placement needs at least one",
                       o->n_nodes, o->n_nodes == 1 ? " has" : "s have"),
           -1;
}

/* A pod list with a pod that asks for a GPU, or an error at its file: with none, every
 * ordering's allocation was 0% and each claim read "pass". */
static int some_gpu_pod(const st_openb *o, st_diag *d)
{
    for (size_t i = 0; i < o->n_pods; i++)
        if (o->pods[i].gpus > 0)
            return 0;
    if (!o->n_pods)
        return st_diag_add(d, ST_EINVAL, (st_loc){o->pod_path, 0, 0},
                           "the pod list has no row after its header: expected one row per "
                           "pod, at least one asking for a GPU"),
               -1;
    return st_diag_add(d, ST_EINVAL, (st_loc){o->pod_path, 0, 0},
                       "the pod list's %zu pod%s for no GPU (num_gpu is 0 in every row): the "
                       "placement allocates GPUs",
                       o->n_pods, o->n_pods == 1 ? " asks" : "s ask"),
           -1;
}

static char *join(const char *dir, const char *name)
{
    char *p = st_xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

int st_openb_load(const char *dir, const char *nodes, const char *pods, st_openb *o, st_diag *d)
{
    static const char *const node_cols[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
    static const char *const pod_cols[] = {"cpu_milli", "memory_mib", "num_gpu", "gpu_milli",
                                           "gpu_spec"};
    memset(o, 0, sizeof *o);
    o->node_path = join(dir, nodes ? nodes : ST_OPENB_NODES);
    o->pod_path = join(dir, pods ? pods : ST_OPENB_PODS);
    csv c;
    int rc = open_csv(&c, o->node_path, node_cols, 5, d) || read_nodes(o, &c, d) || some_gpu(o, d);
    st_csv_close(&c.in);
    if (!rc) {
        rc = open_csv(&c, o->pod_path, pod_cols, 5, d) || read_pods(o, &c, d) || some_gpu_pod(o, d);
        st_csv_close(&c.in);
    }
    if (rc) {
        char *np = o->node_path, *pp = o->pod_path; /* the errors' locations point at them */
        o->node_path = o->pod_path = NULL;
        st_openb_free(o);
        o->node_path = np;
        o->pod_path = pp;
        return -1;
    }
    return 0;
}

void st_openb_free(st_openb *o)
{
    free(o->nodes);
    free(o->pods);
    for (size_t i = 0; i < o->n_models; i++)
        free(o->models[i]);
    free(o->models);
    free(o->node_path);
    free(o->pod_path);
    memset(o, 0, sizeof *o);
}
