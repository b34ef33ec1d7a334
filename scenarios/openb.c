/* The openb node and pod lists (openb.h). Units as the trace's README gives them: CPU in
 * milli-cores, memory in MiB, gpu_milli the share of each GPU in thousandths. */
#define _POSIX_C_SOURCE 200809L
#include "scenarios/openb.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

#define MAX_COLS 32

/* One CSV file held in memory, read line by line. */
typedef struct csv {
    const char *path;
    char *buf, *p, *end;
    unsigned line;
    int col[8]; /* the wanted columns' indices */
} csv;

static char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, got;
    *n = 0;
    do {
        buf = st_xgrow(buf, 1, *n + 65537, &cap);
        got = fread(buf + *n, 1, cap - *n - 1, fp);
        *n += got;
    } while (got > 0);
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[*n] = '\0';
    return buf;
}

/* The next line's fields (CR dropped), NUL-terminated in place; the count, -1 at the end. */
static int next_line(csv *c, char **f)
{
    if (c->p >= c->end)
        return -1;
    char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p)), *e = nl ? nl : c->end;
    if (e > c->p && e[-1] == '\r')
        e[-1] = '\0';
    *e = '\0';
    int n = 0;
    for (char *q = c->p; n < MAX_COLS;) {
        f[n++] = q;
        char *comma = strchr(q, ',');
        if (!comma)
            break;
        *comma = '\0';
        q = comma + 1;
    }
    c->p = nl ? nl + 1 : c->end;
    c->line++;
    return n;
}

/* Open path and find the header's columns want[0..n); 0, or -1 after an error in d. */
static int open_csv(csv *c, const char *path, const char *const *want, int n, st_diag *d)
{
    size_t len;
    memset(c, 0, sizeof *c);
    c->path = path;
    if (!(c->buf = slurp(path, &len)))
        return st_diag_add(d, ST_EIO, (st_loc){path, 0, 0}, "cannot read '%s': %s", path,
                           strerror(errno)),
               -1;
    c->p = c->buf;
    c->end = c->buf + len;
    char *f[MAX_COLS];
    int nf = next_line(c, f);
    for (int k = 0; k < n; k++) {
        c->col[k] = -1;
        for (int i = 0; i < nf; i++)
            if (strcmp(f[i], want[k]) == 0)
                c->col[k] = i;
        if (c->col[k] < 0)
            return st_diag_add(d, ST_EINVAL, (st_loc){path, 1, 1},
                               "the header row has no column '%s'", want[k]),
                   -1;
    }
    return 0;
}

/* Field k of the row as a whole number in [lo, hi], or an error at its column. */
static int whole(const csv *c, char **f, int nf, int k, const char *name, int64_t lo, int64_t hi,
                 int64_t *v, st_diag *d)
{
    int i = c->col[k];
    unsigned col = 1;
    for (int j = 0; j < i && j < nf; j++)
        col += (unsigned)strlen(f[j]) + 1;
    if (i >= nf)
        return st_diag_add(d, ST_EINVAL, (st_loc){c->path, c->line, col},
                           "malformed row: %d fields, no '%s'", nf, name),
               -1;
    char *e;
    errno = 0;
    long long x = strtoll(f[i], &e, 10);
    if (!*f[i] || *e || errno || x < lo || x > hi)
        return st_diag_add(d, ST_EINVAL, (st_loc){c->path, c->line, col},
                           "malformed row: %s '%.40s' is not a whole number from %lld to %lld",
                           name, f[i], (long long)lo, (long long)hi),
               -1;
    *v = x;
    return 0;
}

static int32_t model_of(st_openb *o, const char *name, size_t len, const csv *c, st_diag *d)
{
    for (size_t i = 0; i < o->n_models; i++)
        if (strlen(o->models[i]) == len && strncmp(o->models[i], name, len) == 0)
            return (int32_t)i;
    if (o->n_models == 64)
        return st_diag_add(d, ST_ELIMIT, (st_loc){c->path, c->line, 1}, "more than 64 GPU models"),
               -1;
    o->models = realloc(o->models, (o->n_models + 1) * sizeof *o->models);
    if (!o->models)
        ST_BUG("out of memory");
    o->models[o->n_models] = st_xstrndup(name, len);
    return (int32_t)o->n_models++;
}

static int read_nodes(st_openb *o, csv *c, st_diag *d)
{
    char *f[MAX_COLS];
    size_t cap = 0;
    for (int nf; (nf = next_line(c, f)) >= 0;) {
        if (nf == 1 && !*f[0])
            continue; /* a blank line */
        int64_t cpu, mem, gpus;
        if (whole(c, f, nf, 1, "cpu_milli", 0, INT64_MAX / 4, &cpu, d) ||
            whole(c, f, nf, 2, "memory_mib", 0, INT64_MAX / 4, &mem, d) ||
            whole(c, f, nf, 3, "gpu", 0, ST_GS_MAX_GPUS, &gpus, d))
            return -1;
        const char *m = c->col[4] < nf ? f[c->col[4]] : "";
        int32_t model = gpus && *m ? model_of(o, m, strlen(m), c, d) : -1;
        if (gpus && *m && model < 0)
            return -1;
        o->nodes = st_xgrow(o->nodes, sizeof *o->nodes, o->n_nodes + 1, &cap);
        o->nodes[o->n_nodes++] = (st_gs_node){cpu, mem, (int)gpus, model};
    }
    return 0;
}

/* gpu_spec: the models separated by '|' as a mask over the model list (a model no node has
 * gets its own bit, so that no node matches it). */
static int spec_mask(st_openb *o, const char *s, const csv *c, uint64_t *mask, st_diag *d)
{
    *mask = 0;
    while (*s) {
        size_t len = strcspn(s, "|");
        if (len) {
            int32_t m = model_of(o, s, len, c, d);
            if (m < 0)
                return -1;
            *mask |= (uint64_t)1 << m;
        }
        s += len + (s[len] == '|');
    }
    return 0;
}

static int read_pods(st_openb *o, csv *c, st_diag *d)
{
    char *f[MAX_COLS];
    size_t cap = 0;
    for (int nf; (nf = next_line(c, f)) >= 0;) {
        if (nf == 1 && !*f[0])
            continue;
        int64_t cpu, mem, gpus, milli;
        if (whole(c, f, nf, 0, "cpu_milli", 0, INT64_MAX / 4, &cpu, d) ||
            whole(c, f, nf, 1, "memory_mib", 0, INT64_MAX / 4, &mem, d) ||
            whole(c, f, nf, 2, "num_gpu", 0, ST_GS_MAX_GPUS, &gpus, d) ||
            whole(c, f, nf, 3, "gpu_milli", 0, ST_GS_MILLI, &milli, d))
            return -1;
        if (gpus > 1 && milli != ST_GS_MILLI)
            return st_diag_add(d, ST_EINVAL, (st_loc){c->path, c->line, 1},
                               "malformed row: a %lld-GPU pod with gpu_milli %lld (only a "
                               "one-GPU pod shares a GPU)",
                               (long long)gpus, (long long)milli),
                   -1;
        uint64_t mask = 0;
        if (c->col[4] < nf && spec_mask(o, f[c->col[4]], c, &mask, d))
            return -1;
        o->pods = st_xgrow(o->pods, sizeof *o->pods, o->n_pods + 1, &cap);
        o->pods[o->n_pods++] = (st_gs_pod){cpu, mem, (int)gpus, gpus ? milli : 0, mask};
    }
    return 0;
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
    int rc = open_csv(&c, o->node_path, node_cols, 5, d) || read_nodes(o, &c, d);
    free(c.buf);
    if (!rc) {
        rc = open_csv(&c, o->pod_path, pod_cols, 5, d) || read_pods(o, &c, d);
        free(c.buf);
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
