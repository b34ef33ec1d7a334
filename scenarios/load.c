/* Scenario loading: reads the file, parses it into a located tree, reads each section in
 * dependency order (hardware before cluster before workloads), and owns the result. */
#define _POSIX_C_SOURCE 200809L /* open, fstat, fdopen */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "scenarios/override.h"
#include "sim/xalloc.h"

/* 64-bit FNV-1a (Fowler, Noll, Vo): a fixed, documented hash, so reports name the file they
 * came from in a way that never changes between builds. */
static uint64_t fnv1a(const char *buf, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)buf[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? st_xstrndup(path, (size_t)(slash - path)) : st_xstrdup(".");
}

static const char *base_name(st_rd *rd, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    char *tmp = st_xstrndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
    const char *out = st_rd_strdup(rd, tmp);
    free(tmp);
    return out;
}

static int read_version(st_ld *ld, const st_ynode *n, void *base)
{
    (void)base;
    int64_t v;
    if (st_rd_int(&ld->rd, n, "version", ST_R_MIN1, 0, &v))
        return -1;
    if (v != ST_SCN_VERSION)
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "unsupported scenario version %lld; this strata reads version %d",
                          (long long)v, ST_SCN_VERSION);
    return 0;
}

static int read_seed(st_rd *rd, const st_ynode *n, void *base)
{
    int64_t v = 0;
    if (st_rd_int(rd, n, "seed", ST_R_NONNEG, 9007199254740992.0, &v))
        return -1;
    /* past 9e15 a double no longer holds every whole number (9007199254740993, +9007199254740993
       and 9.007199254740993e15 all read as 2^53): there a seed is its digits, and they must be
       the number run */
    const char *t = n->text;
    int digits = strspn(t, "0123456789") == strlen(t);
    if (v > 9000000000000000 && !digits)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "seed of '%s': above 9e15 a seed is written as its digits alone, at "
                          "most 9007199254740992 (a double does not hold every whole number there)",
                          t);
    if (v > 9000000000000000 && strtoull(t, NULL, 10) != (unsigned long long)v)
        return st_rd_fail(rd, n, ST_ELIMIT, "seed of '%s' is beyond the supported limit of %s", t,
                          "9007199254740992");
    ((st_scn *)base)->seed = (uint64_t)v;
    return 0;
}

static int fn_version(st_rd *rd, const st_ynode *n, void *base)
{
    return read_version(st__ld(rd), n, base);
}

/* The sections are only key-checked here; load_sections reads them by hand, in dependency
 * order. */
static const st_field top_fields[] = {
    ST_FFN("version", fn_version, .required = 1),
    ST_FSTR(st_scn, "name", name),
    ST_FFN("seed", read_seed),
    ST_FDIM(st_scn, "horizon", horizon_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_run),
    ST_FFN("cluster", st_rd_skip, .required = 1),
    ST_FFN("hardware", st_rd_skip),
    ST_FFN("workloads", st_rd_skip), /* required unless a trace gives the jobs: load_sections */
    ST_FFN("trace", st_rd_skip),
    ST_FFN("failures", st_rd_skip),
    ST_FFN("scheduler", st_rd_skip),
    ST_FFN("cost", st_rd_skip),
    ST_FFN("validation", st_rd_skip),
    ST_FFN("audit", st_rd_skip),
    ST_FEND,
};

/* Sections the loader reads and checks but no model uses yet: `check` and `run` warn once for
 * each one a scenario has, at its key, saying what the user should not expect. The issue that
 * lands a section's model deletes its line, and with it the warning. */
static const struct {
    const char *path, *effect;
} unmodelled[] = {
    {NULL, NULL},
};

/* The key node of `key` in mapping m, or NULL: warnings point at the key, not its value. */
static const st_ynode *key_node(const st_ynode *m, const char *key)
{
    for (size_t i = 0; m && m->kind == ST_YN_MAP && i < m->n; i++)
        if (strcmp(m->keys[i]->text, key) == 0)
            return m->keys[i];
    return NULL;
}

/* Whether warning a goes after b: the scenario's own by line and column, then those in other
 * files (a trace's rows) in the order they were read, which is theirs; a trace row's line is no
 * place in the scenario. */
static int warn_after(const st_err *a, const st_err *b, const char *path)
{
    int ra = !a->loc.file || strcmp(a->loc.file, path) != 0;
    int rb = !b->loc.file || strcmp(b->loc.file, path) != 0;
    if (ra != rb || ra)
        return ra > rb;
    return a->loc.line > b->loc.line || (a->loc.line == b->loc.line && a->loc.col > b->loc.col);
}

static void warn_unmodelled(st_ld *ld, const st_ynode *root)
{
    for (int i = 0; unmodelled[i].path; i++) {
        const char *path = unmodelled[i].path, *dot;
        const st_ynode *at = root;
        while ((dot = strchr(path, '.')) && at) { /* down every mapping but the last key's */
            char head[32];
            snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
            at = st_ynode_get(at, head);
            path = dot + 1;
        }
        const st_ynode *key = key_node(at, path);
        if (key)
            st_diag_add(&ld->s->warnings, 0, key->loc,
                        "%s is read and checked but not yet modelled: %s", unmodelled[i].path,
                        unmodelled[i].effect);
    }
    /* In file order, as the errors are: an insertion sort of at most a handful. */
    st_diag *w = &ld->s->warnings;
    for (int i = 1; i < w->n; i++)
        for (int j = i; j > 0 && warn_after(&w->items[j - 1], &w->items[j], ld->s->path); j--) {
            st_err t = w->items[j];
            w->items[j] = w->items[j - 1];
            w->items[j - 1] = t;
        }
}

/* Read every section. Later sections refer to earlier ones (a workload's GPU count to the
 * cluster, its checkpoint tier to the storage list, a cluster's GPU to hardware.gpus); each is
 * read whatever happened before, and a check that needs a value an earlier error left unknown
 * is skipped (st_ld's flags and broken names, st_rd_failed), so the user sees every independent
 * error at once and no echo of one. */
static void load_sections(st_ld *ld, const st_ynode *root)
{
    st_scn *s = ld->s;
    /* An unknown top-level key is reported, and the sections are still read so the user sees
     * their errors too; a missing or wrong version stops here, since the rest of the file may
     * be in another format. */
    int top = st_rd_map(&ld->rd, root, top_fields, s, "the scenario");
    const st_ynode *v = st_ynode_get(root, "version");
    if (top && (!v || st_rd_failed(&ld->rd, v) || st_diag_full(ld->rd.diag)))
        return;
    const st_ynode *hw = st_ynode_get(root, "hardware");
    const st_ynode *hwm = st_ynode_get(hw, "models"), *wl = st_ynode_get(root, "workloads");
    /* Workloads point into the model table, so it is sized once, before any is read. */
    s->cap_models =
        (hwm && hwm->kind == ST_YN_SEQ ? hwm->n : 0) + (wl && wl->kind == ST_YN_SEQ ? wl->n : 0);
    s->models = st_xcalloc(s->cap_models ? s->cap_models : 1, sizeof *s->models);
    if (hw)
        st__load_hardware(ld, hw);
    st__load_cluster(ld, st_ynode_get(root, "cluster"));
    if (wl)
        st__load_workloads(ld, wl);
    const st_ynode *n;
    if ((n = st_ynode_get(root, "trace")))
        st__load_trace(ld, n);
    else if (!wl)
        st_rd_fail(&ld->rd, root, ST_EINVAL, "the scenario: missing required key 'workloads'");
    if ((n = st_ynode_get(root, "failures")))
        st__load_failures(ld, n);
    st__load_scheduler(ld, st_ynode_get(root, "scheduler"));
    if ((n = st_ynode_get(root, "cost")))
        st__load_cost(ld, n);
    if ((n = st_ynode_get(root, "validation")))
        st__load_validation(ld, n);
    if ((n = st_ynode_get(root, "audit")))
        st__load_audit(ld, n);
    warn_unmodelled(ld, root);
}

static int parse_doc(st_ld *ld, const char *buf, size_t len, const st_scn_set *sets, size_t n)
{
    st_scn *s = ld->s;
    st_ytree *tree = NULL;
    st_err err = {0};
    if (st_ytree_parse(s->path, buf, len, &tree, &err)) {
        st_diag_add(ld->rd.diag, err.code, err.loc, "%s", err.msg);
        return err.code;
    }
    st_ovr *ovr = NULL; /* --set overrides (override.c): a copy of the tree along each path */
    char hint[256];     /* a CSV given as the scenario, said so */
    const st_ynode *root = st__ovr_apply(&ovr, st_ytree_root(tree), sets, n, ld->rd.diag);
    if (n && !root)
        ; /* the override's error is recorded */
    else if (!root || st_ynode_is_null(root))
        st_rd_fail(&ld->rd, NULL, ST_EINVAL,
                   "empty scenario: expected a mapping with 'version', 'cluster' and "
                   "'workloads'");
    else if (root->kind != ST_YN_MAP)
        st_rd_fail(&ld->rd, root, ST_EINVAL,
                   "a scenario is a mapping with 'version', 'cluster' and 'workloads', "
                   "found %s%s",
                   st_ynode_kind_name(root),
                   root->kind == ST_YN_SCALAR ? st_ytree_csv_hint(buf, len, hint, sizeof hint)
                                              : "");
    else
        load_sections(ld, root);
    st__ovr_free(ovr);
    st_ytree_free(tree);
    return ld->rd.diag->n ? ld->rd.diag->items[0].code : 0;
}

int st_scn_load_buffer(const char *name, const char *buf, size_t len, st_scn **out, st_diag *diag)
{
    return st_scn_load_buffer_set(name, buf, len, NULL, 0, out, diag);
}

int st_scn_load_buffer_set(const char *name, const char *buf, size_t len, const st_scn_set *sets,
                           size_t n, st_scn **out, st_diag *diag)
{
    *out = NULL;
    st_scn *s = st_xcalloc(1, sizeof *s);
    s->path = st_xstrdup(name);
    s->dir = dir_of(name);
    s->hash = fnv1a(buf, len);
    s->seed = 1;
    s->horizon_s = 30 * 86400.0; /* scenario-reference.md: default horizon 30 d */
    st_ld ld = {.rd = {diag, &s->pool, s->path, {0}}, .s = s};
    int rc = parse_doc(&ld, buf, len, sets, n);
    st_rd_release(&ld.rd);
    free(ld.bad_gpus.names);
    free(ld.bad_models.names);
    free(ld.bad_tiers.names);
    if (rc) {
        st_scn_free(s); /* the errors hold their own copy of the file name (sim/err.h) */
        return rc;
    }
    if (!s->name)
        s->name = base_name(&ld.rd, s->path);
    *out = s;
    return 0;
}

/* Open path for reading, refusing what is not a regular file before a byte is read: a
 * directory, and a FIFO, socket or device, which could block forever or never end. The open
 * does not block (O_NONBLOCK) even on a FIFO without a writer; the flag does not change how a
 * regular file reads. noun names the file's kind in the message ("a calibration is a file").
 * NULL with why filled. */
static FILE *open_regular(const char *path, const char *noun, char *why, size_t n)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, n, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat sb;
    const char *bad = NULL, *kind = "";
    if (fstat(fd, &sb) != 0)
        bad = strerror(errno);
    else if (S_ISDIR(sb.st_mode))
        bad = "is a directory";
    else if (!S_ISREG(sb.st_mode)) {
        bad = "not a regular file (a FIFO, socket or device); a ";
        kind = noun;
    }
    FILE *f = bad ? NULL : fdopen(fd, "rb");
    if (!f) {
        snprintf(why, n, "%s%s%s", bad ? bad : strerror(errno), kind, *kind ? " is a file" : "");
        close(fd);
    }
    return f;
}

int st__read_file(const char *path, const char *noun, char **out, size_t *out_len, char *why,
                  size_t n)
{
    *out = NULL;
    *out_len = 0;
    FILE *f = open_regular(path, noun, why, n);
    if (!f)
        return ST_EIO;
    size_t cap = 0, len = 0;
    char *buf = NULL;
    for (;;) {
        buf = st_xgrow(buf, 1, len + 65536, &cap);
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0 || len > ST_YTREE_MAX_FILE)
            break;
    }
    int bad = ferror(f) ? errno : 0;
    fclose(f);
    int rc = 0;
    if (bad) {
        snprintf(why, n, "read error: %s", strerror(bad));
        rc = ST_EIO;
    } else if (len > ST_YTREE_MAX_FILE) { /* reading stopped there: the real size is larger */
        snprintf(why, n, "file is larger than the limit of %u bytes", ST_YTREE_MAX_FILE);
        rc = ST_ELIMIT;
    }
    if (rc)
        free(buf);
    else
        *out = buf, *out_len = len;
    return rc;
}

int st_scn_load_file_set(const char *path, const st_scn_set *sets, size_t n, st_scn **out,
                         st_diag *diag)
{
    *out = NULL;
    char *buf, why[256];
    size_t len;
    int rc = st__read_file(path, "scenario", &buf, &len, why, sizeof why);
    if (rc)
        return st_diag_add(diag, rc, (st_loc){path, 0, 0}, "%s", why);
    rc = st_scn_load_buffer_set(path, buf, len, sets, n, out, diag);
    free(buf);
    return rc;
}

int st_scn_load_file(const char *path, st_scn **out, st_diag *diag)
{
    return st_scn_load_file_set(path, NULL, 0, out, diag);
}

void st_scn_free(st_scn *s)
{
    if (!s)
        return;
    st_strpool_release(&s->pool);
    free(s->path);
    free(s->dir);
    free(s->tiers);
    free(s->pools);
    free(s->workloads);
    free(s->gpus);
    free(s->models);
    free(s->classes);
    free(s->quotas);
    free(s->trace_jobs);
    free(s->trace_tenants);
    free(s->trace_classes);
    free(s->trace_models);
    free(s->trace_pools);
    free(s);
}

const st_gpu_spec *st__find_gpu(const st_scn *s, const char *name)
{
    for (size_t i = s->n_gpus; i-- > 0;)
        if (s->gpus[i].name && strcmp(s->gpus[i].name, name) == 0)
            return &s->gpus[i];
    return st_catalog_gpu(name);
}

const st_llm_spec *st__find_model(const st_scn *s, const char *name)
{
    for (size_t i = s->n_models; i-- > 0;)
        if (s->models[i].name && strcmp(s->models[i].name, name) == 0)
            return &s->models[i];
    return st_catalog_model(name);
}

void st__broken_add(st_broken *b, const st_ynode *entry)
{
    const st_ynode *name = st_ynode_get(entry, "name");
    if (!name || name->kind != ST_YN_SCALAR) {
        b->all = 1; /* nameless: it may be the entry any unknown name was meant for */
        return;
    }
    b->names = st_xgrow(b->names, sizeof *b->names, b->n + 1, &b->cap);
    b->names[b->n++] = name->text;
}

int st__broken_has(const st_broken *b, const char *name)
{
    if (b->all)
        return 1;
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->names[i], name) == 0)
            return 1;
    return 0;
}

int st__unknown_name(st_ld *ld, const st_ynode *n, const char *what, const char *const *names,
                     size_t count, const char *hint)
{
    char near[200];
    st_did_you_mean(n->text, names, count, near, sizeof near);
    return st_rd_fail(&ld->rd, n, ST_ENOTFOUND, "unknown %s '%s'%s%s", what, n->text, near, hint);
}

const st_diag *st_scn_warnings(const st_scn *s)
{
    return &s->warnings;
}

const char *st_scn_name(const st_scn *s)
{
    return s->name;
}
const char *st_scn_path(const st_scn *s)
{
    return s->path;
}
uint64_t st_scn_seed(const st_scn *s)
{
    return s->seed;
}
uint64_t st_scn_hash(const st_scn *s)
{
    return s->hash;
}
double st_scn_horizon_s(const st_scn *s)
{
    return s->horizon_s;
}
const st_cluster_cfg *st_scn_cluster(const st_scn *s)
{
    return &s->cluster;
}
size_t st_scn_workload_count(const st_scn *s)
{
    return s->n_workloads;
}
const st_workload_cfg *st_scn_workload(const st_scn *s, size_t i)
{
    /* A trace alone has no workloads, and no array: &NULL[0] is undefined (UBSan, fuzz_run). */
    return i < s->n_workloads ? &s->workloads[i] : NULL;
}
const st_trace_cfg *st_scn_trace(const st_scn *s)
{
    return s->has_trace ? &s->trace : NULL;
}
const st_validation_cfg *st_scn_validation(const st_scn *s)
{
    return s->has_validation ? &s->validation : NULL;
}

const st_cost_cfg *st_scn_cost(const st_scn *s)
{
    return s->has_cost ? &s->cost : NULL;
}
const st_audit_cfg *st_scn_audit(const st_scn *s)
{
    return s->has_audit ? &s->audit : NULL;
}
const st_sched_cfg *st_scn_sched(const st_scn *s)
{
    return &s->sched;
}

const st_failures_cfg *st_scn_failures(const st_scn *s)
{
    return s->has_failures ? &s->failures : NULL;
}

int st_scn_states_failures(const st_scn *s)
{
    return s->has_failures && (s->failures.n_classes > 0 || s->failures.planned_every_s > 0);
}
