/* Reads the operational sections: `trace`, `failures`, `scheduler` and `cost`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "models/cost/cost.h"
#include "models/place/policy.h"
#include "models/sched/policy.h"
#include "models/sched/tiresias.h"
#include "models/silicon/noise.h"
#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "scenarios/trace.h"
#include "sim/xalloc.h"

/* Component classes a failure rate can be given for; the failure model maps each onto the
 * parts a job occupies. */
static const char *const failure_components[] = {"gpu",          "node", "nic", "leaf_switch",
                                                 "spine_switch", "rack", NULL};

/* `scope: job`: each job's life draws its own failures; `cluster`: the cluster run draws them
 * on the cluster's components (models/config/config.h). */
static const char *const failure_scopes[] = {"job", "cluster", NULL};

/* ---- trace ------------------------------------------------------------------------------ */

/* The path only: the reader opens the file once (scenarios/trace.c), so that what it checks
 * (a regular file, within the size cap) is what it reads, and a FIFO put there cannot block. */
static int fn_trace_file(st_rd *rd, const st_ynode *n, void *base)
{
    return st__read_path(rd, n, "trace.file", "trace file", &((st_trace_cfg *)base)->file);
}

int st__read_path(st_rd *rd, const st_ynode *n, const char *key, const char *noun,
                  const char **path)
{
    st_ld *ld = st__ld(rd);
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    if (n->text[0] == '\0') /* joined, the scenario's folder: "trace file '' is a directory" */
        return st_rd_fail(rd, n, ST_EINVAL,
                          "%s is empty: expected the path of the %s (relative paths start at "
                          "the scenario's folder)",
                          key, noun);
    char buf[4096];
    int len = n->text[0] == '/' ? snprintf(buf, sizeof buf, "%s", n->text)
                                : snprintf(buf, sizeof buf, "%s/%s", ld->s->dir, n->text);
    if (len < 0 || (size_t)len >= sizeof buf)
        return st_rd_fail(rd, n, ST_ELIMIT, "%s path is longer than %zu bytes", noun,
                          sizeof buf - 1);
    *path = st_rd_strdup(rd, buf);
    return 0;
}

/* `malformed: skip` (a warning per row) or `refuse` (an error per row). */
static const char *const malformed_names[] = {"skip", "refuse", NULL};

/* ---- trace.models: trace job classes mapped to model presets ----------------------------- */

static int fn_tm_model(st_rd *rd, const st_ynode *n, void *base)
{
    st_trace_model *m = base;
    m->w.model_loc = n->loc;
    m->w.model = st__read_model(st__ld(rd), n, "model");
    return m->w.model ? 0 : -1;
}

static const st_field trace_model_fields[] = {
    ST_FSTR(st_trace_model, "class", cls_name),
    ST_FINT(st_trace_model, "min_gpus", min_gpus, ST_R_MIN1, .max = 1e9),
    ST_FINT(st_trace_model, "max_gpus", max_gpus, ST_R_MIN1, .max = 1e9),
    ST_FFN("model", fn_tm_model, .required = 1),
    ST_FINT(st_trace_model, "seq_len", w.seq_len, ST_R_MIN1, .max = 1e8),
    ST_FENUM(st_trace_model, "precision", w.precision, st_precision_names),
    ST_FINT(st_trace_model, "tp", w.parallel.tp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_trace_model, "pp", w.parallel.pp, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_trace_model, "zero", w.parallel.zero, ST_R_NONNEG, .max = 3),
    ST_FINT(st_trace_model, "microbatch", w.parallel.microbatch, ST_R_MIN1, .max = 1e6),
    ST_FENUM(st_trace_model, "recompute", w.parallel.recompute, st_recompute_names),
    ST_FINT(st_trace_model, "replica_batch", replica_batch, ST_R_MIN1, .max = 1e9),
    ST_FEND,
};

/* `models:` a list of mappings, each read into a template with the workloads' defaults; the
 * class names are matched against the trace once it is read (resolve_classes). */
static int fn_trace_models(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_trace_cfg *t = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "trace.models") ||
        st_rd_list_limit(rd, n, "trace.models", ST_SCN_MAX_NAMED))
        return -1;
    st_trace_model *m = st_xcalloc(n->n ? n->n : 1, sizeof *m);
    ld->s->trace_models = m;
    int bad = 0;
    for (size_t i = 0; i < n->n; i++) {
        m[i].loc = n->kids[i]->loc;
        m[i].cls = -1;
        m[i].w.loc = m[i].loc;
        st__workload_defaults(&m[i].w);
        m[i].w.kind = ST_WL_TRAINING;
        bad |= st_rd_map(rd, n->kids[i], trace_model_fields, &m[i], "trace.models entry") != 0;
        if (m[i].min_gpus && m[i].max_gpus && m[i].min_gpus > m[i].max_gpus)
            bad |= st_rd_fail(rd, st_ynode_get(n->kids[i], "max_gpus"), ST_EINVAL,
                              "trace.models: max_gpus %lld is below min_gpus %lld",
                              (long long)m[i].max_gpus, (long long)m[i].min_gpus) != 0;
    }
    t->models = m;
    t->n_models = n->n;
    return bad ? -1 : 0;
}

/* Each entry's `class:` against the trace's class names (Muri's model_name column). */
static int resolve_classes(st_ld *ld, const st_ynode *list)
{
    st_trace_cfg *t = &ld->s->trace;
    st_trace_model *m = ld->s->trace_models;
    int bad = 0;
    for (size_t i = 0; list && list->kind == ST_YN_SEQ && i < t->n_models; i++) {
        if (!m[i].cls_name)
            continue;
        const st_ynode *at = st_ynode_get(list->kids[i], "class");
        if (!t->n_classes) {
            bad = st_rd_fail(&ld->rd, at, ST_EINVAL,
                             "trace.models: format %s records no job class; map by min_gpus and "
                             "max_gpus instead",
                             st_trace_format_names[t->format]);
            continue;
        }
        for (size_t k = 0; k < t->n_classes && m[i].cls < 0; k++)
            if (strcmp(t->classes[k], m[i].cls_name) == 0)
                m[i].cls = (int32_t)k;
        if (m[i].cls < 0)
            bad = st_rd_fail(&ld->rd, at, ST_EINVAL,
                             "trace.models: class '%s' is not in the trace (its first class is "
                             "'%s')",
                             m[i].cls_name, t->classes[0]);
    }
    return bad;
}

/* replay: muri places every job on the scenario's cluster, and the artifact's loop waits forever
 * for one that can never fit, so a job larger than the cluster is refused here, at its row, for
 * `check` as for `compare` (models/sched/muri.c refuses it at run time too). Whether a job of
 * more than a node fits whole nodes depends on the baseline compare runs; that stays its check. */
static int muri_fits(st_ld *ld)
{
    const st_trace_cfg *t = &ld->s->trace;
    const st_cluster_cfg *c = &ld->s->cluster;
    if (t->replay != ST_REPLAY_MURI || ld->size_bad || c->nodes < 1 || c->gpus_per_node < 1)
        return 0;
    for (size_t i = 0; i < t->n_jobs; i++)
        if (t->jobs[i].gpus > c->nodes * c->gpus_per_node)
            return st_diag_add(ld->rd.diag, ST_EINVAL, (st_loc){t->file, t->jobs[i].line, 1},
                               "num_gpu: %lld GPUs, more than the cluster's %lld (%lld nodes of "
                               "%lld), which replay: muri cannot place",
                               (long long)t->jobs[i].gpus, (long long)(c->nodes * c->gpus_per_node),
                               (long long)c->nodes, (long long)c->gpus_per_node),
                   -1;
    return 0;
}

/* ---- trace.pools: the trace's GPU types mapped to the cluster's pools --------------------- */

/* `pools: {TYPE: POOL, ...}`: a job whose GPU type column names TYPE runs on POOL; `any` takes
 * the jobs that name none (docs/models/pools.md, "Traces on pools"). */
static int fn_trace_pools(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_trace_cfg *t = base;
    if (st_rd_expect(rd, n, ST_YN_MAP, "trace.pools") ||
        st_rd_list_limit(rd, n, "trace.pools", ST_SCN_MAX_NAMED))
        return -1;
    st_trace_pool *m = st_xcalloc(n->n ? n->n : 1, sizeof *m);
    ld->s->trace_pools = m;
    int bad = 0;
    for (size_t i = 0; i < n->n; i++) {
        int k = 0;
        m[i] = (st_trace_pool){n->keys[i]->text, 0, n->keys[i]->loc};
        const char *t = n->keys[i]->text;
        if (!*t || strchr(t, '|')) { /* a row's types are split at '|': such a key never matches */
            bad =
                st_rd_fail(rd, n->keys[i], ST_EINVAL, "trace.pools: GPU type '%s' %s", t,
                           *t ? "holds '|', which separates a row's types"
                              : "is empty; the rows that name no type go to the 'any' entry") != 0;
            continue;
        }
        if (st_rd_expect(rd, n->kids[i], ST_YN_SCALAR, "trace.pools value") ||
            st__pool_named(ld, n->kids[i], &k))
            bad = 1;
        m[i].pool = k;
    }
    t->pools = m;
    t->n_pools = n->n;
    return bad ? -1 : 0;
}

/* A trace on a cluster of several pools: each job's pool from trace.pools, which such a cluster
 * needs; trace.models and replay: muri time a job on one GPU type, and are refused there. */
static int trace_on_pools(st_ld *ld, const st_ynode *n)
{
    const st_trace_cfg *t = &ld->s->trace;
    if (ld->s->cluster.n_pools < 2 || !t->n_pools) {
        if (ld->s->cluster.n_pools > 1)
            return st_rd_fail(&ld->rd, n, ST_EINVAL,
                              "trace: the cluster has %d pools; say which pool each trace job "
                              "runs on with trace.pools: {GPU_TYPE: POOL, ..., any: POOL}",
                              ld->s->cluster.n_pools);
        return 0;
    }
    if (t->n_models)
        return st_rd_fail(&ld->rd, st_ynode_get(n, "models"), ST_EINVAL,
                          "trace.models on a cluster of several pools is not modelled (a trace "
                          "job's speed is timed on one GPU type); drop trace.models, so each job "
                          "runs its recorded duration");
    if (t->replay == ST_REPLAY_MURI)
        return st_rd_fail(&ld->rd, st_ynode_get(n, "replay"), ST_EINVAL,
                          "replay: muri places jobs on one GPU type, not on pools");
    return 0;
}

static const st_field trace_fields[] = {
    ST_FFN("file", fn_trace_file, .required = 1),
    ST_FFN("models", fn_trace_models),
    ST_FFN("pools", fn_trace_pools),
    ST_FENUM(st_trace_cfg, "format", format, st_trace_format_names),
    ST_FENUM(st_trace_cfg, "malformed", refuse_malformed, malformed_names),
    ST_FENUM(st_trace_cfg, "replay", replay, st_trace_replay_names),
    ST_FEND,
};

int st__load_trace(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    s->trace.format = ST_TRACE_CSV;
    s->trace.loc = n->loc;
    if (st_rd_map(&ld->rd, n, trace_fields, &s->trace, "trace") || trace_on_pools(ld, n))
        return -1;
    s->has_trace = 1;
    const st_ynode *rp = st_ynode_get(n, "replay");
    if (s->trace.replay == ST_REPLAY_MURI && s->trace.format != ST_TRACE_MURI)
        return st_rd_fail(&ld->rd, rp, ST_EINVAL,
                          "replay: muri reads the Muri trace's model_name, iterations and "
                          "iteration_time; it needs format: muri, not %s",
                          st_trace_format_names[s->trace.format]);
    if (s->trace.replay == ST_REPLAY_MURI && s->trace.n_models)
        return st_rd_fail(&ld->rd, st_ynode_get(n, "models"), ST_EINVAL,
                          "trace.models gives jobs a placement-dependent speed, which replay: muri "
                          "(the artifact's runtime model) does not have; drop one of them");
    if (st__trace_read(ld, st_ynode_get(n, "file")) || muri_fits(ld))
        return -1;
    return resolve_classes(ld, st_ynode_get(n, "models")) ? -1 : 0;
}

/* ---- failures --------------------------------------------------------------------------- */

static const st_field class_fields[] = {
    ST_FDIM(st_failure_class, "mtbf", mtbf_s, ST_DIM_TIME, ST_R_POS, .required = 1),
    ST_FDIM(st_failure_class, "shape", weibull_shape, ST_DIM_RATIO, ST_R_POS, .lim = &st_lim_shape),
    ST_FDIM(st_failure_class, "repair", repair_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FEND,
};

static int read_class(st_ld *ld, const st_ynode *key, const st_ynode *val)
{
    st_scn *s = ld->s;
    st_failure_class *c = &s->classes[s->failures.n_classes];
    c->component = st_rd_strdup(&ld->rd, key->text);
    c->weibull_shape = 1; /* exponential lifetimes unless a Weibull shape is given */
    c->repair_s = -1;     /* not given: models/sched/outage.h's default */
    c->loc = val->loc;
    char what[64];
    snprintf(what, sizeof what, "failures.%s", key->text);
    if (st_rd_map(&ld->rd, val, class_fields, c, what))
        return -1;
    c->mtbf_loc = st_ynode_get(val, "mtbf")->loc; /* required: the map read it */
    s->failures.n_classes++;
    return 0;
}

static int failures_key(st_ld *ld, const st_ynode *key, const st_ynode *val)
{
    st_failures_cfg *f = &ld->s->failures;
    if (strcmp(key->text, "detect") == 0)
        return st_rd_dim_lim(&ld->rd, val, "detect", ST_DIM_TIME, ST_R_NONNEG, &st_lim_span,
                             &f->detect_s);
    if (strcmp(key->text, "restart") == 0)
        return st_rd_dim_lim(&ld->rd, val, "restart", ST_DIM_TIME, ST_R_NONNEG, &st_lim_span,
                             &f->restart_s);
    if (strcmp(key->text, "planned_every") == 0)
        return st_rd_dim_lim(&ld->rd, val, "planned_every", ST_DIM_TIME, ST_R_POS, &st_lim_span,
                             &f->planned_every_s);
    if (strcmp(key->text, "scope") == 0)
        return st_rd_enum(&ld->rd, val, "scope", failure_scopes, &f->cluster_scope);
    if (strcmp(key->text, "spares") == 0) {
        f->has_spares = 1;
        f->spares_loc = val->loc;
        return st_rd_int(&ld->rd, val, "spares", ST_R_NONNEG, 1e6, &f->spares);
    }
    for (int i = 0; failure_components[i]; i++)
        if (strcmp(key->text, failure_components[i]) == 0)
            return read_class(ld, key, val);
    const char *all[16] = {"detect", "restart", "planned_every", "scope", "spares"};
    size_t k = 5;
    for (int i = 0; failure_components[i]; i++)
        all[k++] = failure_components[i];
    char near[200];
    st_did_you_mean(key->text, all, k, near, sizeof near);
    return st_rd_fail(&ld->rd, key, ST_EINVAL,
                      "unknown key '%s' in failures%s (components: gpu, node, nic, "
                      "leaf_switch, spine_switch, rack; timings: detect, restart, planned_every; "
                      "scope, spares)",
                      key->text, near);
}

/* failures.spares: a job's own spares (scope: job), each node a failure takes out back after
 * its class's stated repair time; no default repair time is sourced (scenario-reference.md). */
static int spares_check(st_ld *ld, const st_ynode *n)
{
    const st_scn *s = ld->s;
    const st_ynode *sp = st_ynode_get(n, "spares");
    if (s->failures.cluster_scope)
        return st_rd_fail(&ld->rd, sp, ST_EINVAL,
                          "failures.spares: under `scope: cluster` the cluster's free nodes are "
                          "the spares; spares apply to `scope: job`");
    for (int i = 0; i < s->failures.n_classes; i++) {
        const st_failure_class *c = &s->classes[i];
        if (c->repair_s < 0 && strcmp(c->component, "leaf_switch") != 0 &&
            strcmp(c->component, "spine_switch") != 0)
            return st_rd_fail(&ld->rd, sp, ST_EINVAL,
                              "failures.spares needs failures.%s.repair: how long a node its "
                              "failure takes out is away before it is a spare again (no "
                              "default is published)",
                              c->component);
    }
    return 0;
}

int st__load_failures(st_ld *ld, const st_ynode *n)
{
    st_scn *s = ld->s;
    if (st_rd_expect(&ld->rd, n, ST_YN_MAP, "failures"))
        return -1;
    /* Llama 3 (arXiv 2407.21783, section 3.3.4) reports automated detection and restart in
     * minutes; the defaults are 5 min and 10 min (docs/guide/scenario-reference.md). */
    s->failures.detect_s = 5 * 60.0;
    s->failures.restart_s = 10 * 60.0;
    s->failures.loc = n->loc;
    s->classes = st_xcalloc(n->n ? n->n : 1, sizeof *s->classes);
    s->failures.classes = s->classes;
    int bad = 0;
    for (size_t i = 0; i < n->n; i++)
        bad |= failures_key(ld, n->keys[i], n->kids[i]) != 0;
    /* One downtime (detect + restart, then the restore) is one duration of the life model. */
    const st_ynode *det = st_ynode_get(n, "detect"), *re = st_ynode_get(n, "restart");
    if (!bad && s->failures.detect_s + s->failures.restart_s > ST_LIM_SPAN_S) {
        char b[48];
        st_unit_format(ST_LIM_SPAN_S, ST_DIM_TIME, b, sizeof b);
        bad = st_rd_fail(&ld->rd, re ? re : det, ST_ELIMIT,
                         "detect + restart is beyond %s (at most %s: %s)", st_lim_span.what, b,
                         st_lim_span.how);
    }
    /* The cluster run draws each class as one merged Poisson process (models/sched/outage.h). */
    for (int i = 0; !bad && s->failures.cluster_scope && i < s->failures.n_classes; i++)
        if (s->classes[i].weibull_shape != 1)
            bad = st_rd_fail(
                &ld->rd, st_ynode_get(st_ynode_get(n, s->classes[i].component), "shape"), ST_EINVAL,
                "failures.%s.shape: `scope: cluster` draws exponential lifetimes "
                "only (shape 1), found %g",
                s->classes[i].component, s->classes[i].weibull_shape);
    if (!bad && s->failures.has_spares)
        bad = spares_check(ld, n);
    s->has_failures = !bad;
    return bad ? -1 : 0;
}

/* ---- scheduler -------------------------------------------------------------------------- */

/* The names come from the scheduler registry (models/sched/registry.c): a policy registered
 * there is accepted here with no loader edit. */
static int fn_policy(st_rd *rd, const st_ynode *n, void *base)
{
    st_sched_cfg *c = base;
    int i;
    if (st_rd_enum(rd, n, "scheduler policy", st_sched_policy_names, &i))
        return -1;
    c->policy = st_sched_policy_names[i];
    c->policy_loc = n->loc;
    return 0;
}

/* The placement policies' names come from models/place/registry.c likewise. */
static int fn_placement(st_rd *rd, const st_ynode *n, void *base)
{
    st_sched_cfg *c = base;
    int i;
    if (st_rd_enum(rd, n, "placement policy", st_place_policy_names, &i))
        return -1;
    c->placement = st_place_policy_names[i];
    return 0;
}

static int fn_quotas(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_sched_cfg *c = base;
    if (st_rd_expect(rd, n, ST_YN_MAP, "quotas"))
        return -1;
    ld->s->quotas = st_xcalloc(n->n ? n->n : 1, sizeof *ld->s->quotas);
    double sum = 0;
    for (size_t i = 0; i < n->n; i++) {
        st_quota *q = &ld->s->quotas[i];
        q->tenant = st_rd_strdup(rd, n->keys[i]->text);
        q->loc = n->kids[i]->loc;
        char what[96];
        snprintf(what, sizeof what, "quota of '%s'", q->tenant);
        if (st_rd_dim(rd, n->kids[i], what, ST_DIM_RATIO, ST_R_FRAC, 0, &q->share))
            return -1;
        sum += q->share;
    }
    if (sum > 1 + 1e-9)
        return st_rd_fail(rd, n, ST_ERANGE, "quotas add up to %.4g%%, more than 100%%", sum * 100);
    c->quotas = ld->s->quotas;
    c->n_quotas = (int)n->n;
    return 0;
}

/* `tiresias.queue_limits`: the attained-service limits between its queues, in GPU-time
 * ("3250 s" is 3,250 GPU-seconds), increasing; K - 1 of them make K queues. */
static int fn_queue_limits(st_rd *rd, const st_ynode *n, void *base)
{
    st_tiresias_cfg *t = &((st_sched_cfg *)base)->tiresias;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "queue_limits"))
        return -1;
    if (n->n == 0 || n->n > ST_TIRESIAS_MAX_QUEUES - 1)
        return st_rd_fail(rd, n, ST_EINVAL, "queue_limits: expected 1 to %d limits, found %zu",
                          ST_TIRESIAS_MAX_QUEUES - 1, n->n);
    for (size_t i = 0; i < n->n; i++) {
        if (st_rd_dim(rd, n->kids[i], "queue limit", ST_DIM_TIME, ST_R_POS, 0, &t->limit_gpu_s[i]))
            return -1;
        if (i > 0 && t->limit_gpu_s[i] <= t->limit_gpu_s[i - 1])
            return st_rd_fail(rd, n->kids[i], ST_EINVAL,
                              "queue_limits: expected each limit above the one before, found %g s "
                              "after %g s",
                              t->limit_gpu_s[i], t->limit_gpu_s[i - 1]);
    }
    t->queues = (int)n->n + 1;
    return 0;
}

static const st_field tiresias_fields[] = {
    ST_FFN("queue_limits", fn_queue_limits),
    ST_FDIM(st_sched_cfg, "promote_knob", tiresias.promote_knob, ST_DIM_RATIO, ST_R_NONNEG,
            .max = 1e6),
    ST_FEND,
};

static const st_field sched_fields[] = {
    ST_FFN("policy", fn_policy),
    ST_FFN("placement", fn_placement),
    ST_FBOOL(st_sched_cfg, "preemption", preemption),
    ST_FFN("quotas", fn_quotas),
    ST_FMAP("tiresias", tiresias_fields),
    ST_FEND,
};

int st__load_scheduler(st_ld *ld, const st_ynode *n)
{
    st_sched_cfg *c = &ld->s->sched;
    c->policy = "fifo"; /* first come, first served: what a cluster does with no policy */
    c->preemption = -1; /* unset: each preemptive policy preempts */
    c->tiresias = st_tiresias_defaults;
    if (!n)
        return 0;
    c->loc = n->loc;
    int rc = st_rd_map(&ld->rd, n, sched_fields, c, "scheduler");
    const st_ynode *q = st_ynode_get(n, "quotas");
    if (!rc && q && c->n_quotas > 0 && strcmp(c->policy, "fair-share") != 0)
        st_diag_add(&ld->s->warnings, 0, q->loc,
                    "scheduler.quotas: policy '%s' reads no quotas (fair-share does)", c->policy);
    return rc;
}

/* ---- validation ------------------------------------------------------------------------ */

const char *st_scn_metric_name(st_valid_metric m)
{
    if ((int)m < 0 || (int)m >= (0 ST_VALID_METRICS(ST__ENUM_COUNT)))
        return "?";
    return st_valid_metric_names[m];
}

static const st_field validation_fields[] = {
    ST_FSTR(st_validation_cfg, "set", set, .required = 1),
    ST_FSTR(st_validation_cfg, "source", source, .required = 1),
    ST_FENUM(st_validation_cfg, "metric", metric, st_valid_metric_names, .required = 1),
    ST_FDIM(st_validation_cfg, "published", published, ST_DIM_RATIO, ST_R_POS, .required = 1),
    ST_FDIM(st_validation_cfg, "period", period_s, ST_DIM_TIME, ST_R_POS),
    ST_FEND,
};

int st__load_validation(st_ld *ld, const st_ynode *n)
{
    st_validation_cfg *v = &ld->s->validation;
    v->loc = n->loc;
    if (st_rd_map(&ld->rd, n, validation_fields, v, "validation"))
        return -1;
    ld->s->has_validation = 1;
    return 0;
}

/* ---- cost ------------------------------------------------------------------------------- */

/* Every price of cost: at most 1e15 in its SI unit (USD, USD per second, per joule, per byte
 * ...): far above any real price (a trillion-dollar node is 1e12), and low enough that a job's
 * totals, prices times at most 1e9 GPUs over at most 2^61 ns, stay finite: a price of 1e308
 * printed a cost of inf. */
#define ST_COST_MAX 1e15

/* A typed price (models/config/config.h, ST_COST_TYPED): one value for every GPU type
 * (`node_price: 300000 USD`), or a mapping of GPU types to values (`node_price: {h100-sxm:
 * 255237 USD, b200: 515000 USD}`), each a catalog or hardware.gpus name. */
static int typed_price(st_rd *rd, const st_ynode *n, st_cost_cfg *c, st_cost_key k, st_dim dim)
{
    st_ld *ld = st__ld(rd);
    const char *key = st_cost_key_names[k];
    double *v = k == ST_COST_NODE       ? &c->node_price_usd
                : k == ST_COST_GPU_HOUR ? &c->gpu_hour_usd_per_s
                                        : &c->committed_gpu_hour_usd_per_s;
    char what[160];
    if (n->kind != ST_YN_MAP) {
        if (st_rd_dim(rd, n, key, dim, ST_R_NONNEG, ST_COST_MAX, v))
            return -1;
        snprintf(what, sizeof what, "the scenario's cost.%s (%s:%u)", key, n->loc.file,
                 n->loc.line);
        c->from[k] = (st_price_from){ST_PRICE_ALL, st_rd_strdup(rd, what)};
        return 0;
    }
    if (n->n == 0)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "cost.%s: expected a price, or a mapping of GPU types to prices, found "
                          "an empty mapping",
                          key);
    for (size_t i = 0; i < n->n; i++) {
        const char *gpu = n->keys[i]->text;
        if (!st__find_gpu(ld->s, gpu)) {
            const char *names[64];
            size_t m = st_catalog_gpu_names(names, 64);
            char dym[160];
            return st_rd_fail(rd, n->keys[i], ST_EINVAL, "cost.%s: unknown GPU type '%s'%s", key,
                              gpu, st_did_you_mean(gpu, names, m, dym, sizeof dym));
        }
        if (c->n_typed >= ST_COST_MAX_TYPED)
            return st_rd_fail(rd, n, ST_EINVAL, "cost.%s: more than %d prices per GPU type", key,
                              ST_COST_MAX_TYPED);
        st_typed_price *t = &ld->s->cost_typed[c->n_typed];
        snprintf(what, sizeof what, "cost.%s of '%s'", key, gpu);
        if (st_rd_dim(rd, n->kids[i], what, dim, ST_R_NONNEG, ST_COST_MAX, &t->value))
            return -1;
        snprintf(what, sizeof what, "the scenario's cost.%s.%s (%s:%u)", key, gpu,
                 n->kids[i]->loc.file, n->kids[i]->loc.line);
        t->key = k;
        t->gpu = st_rd_strdup(rd, gpu);
        t->source = st_rd_strdup(rd, what);
        t->loc = n->kids[i]->loc;
        c->n_typed++;
    }
    c->typed = ld->s->cost_typed;
    return 0;
}

static int fn_node_price(st_rd *rd, const st_ynode *n, void *base)
{
    return typed_price(rd, n, base, ST_COST_NODE, ST_DIM_MONEY);
}

static int fn_gpu_hour_price(st_rd *rd, const st_ynode *n, void *base)
{
    return typed_price(rd, n, base, ST_COST_GPU_HOUR, ST_DIM_PRICE_TIME);
}

static int fn_committed_price(st_rd *rd, const st_ynode *n, void *base)
{
    return typed_price(rd, n, base, ST_COST_COMMITTED, ST_DIM_PRICE_TIME);
}

static const st_field cost_fields[] = {
    ST_FENUM(st_cost_cfg, "delivery", delivery, st_delivery_names),
    ST_FFN("node_price", fn_node_price),
    ST_FDIM(st_cost_cfg, "switch_price", switch_price_usd, ST_DIM_MONEY, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "storage_price", storage_price_usd_per_byte, ST_DIM_PRICE_BYTES,
            ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "electricity", electricity_usd_per_j, ST_DIM_PRICE_ENERGY, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FFN("gpu_hour_price", fn_gpu_hour_price),
    ST_FDIM(st_cost_cfg, "amortization", amortization_s, ST_DIM_TIME, ST_R_POS),
    ST_FDIM(st_cost_cfg, "storage_month_price", storage_month_usd_per_byte, ST_DIM_PRICE_BYTES,
            ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "egress_price", egress_usd_per_byte, ST_DIM_PRICE_BYTES, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "demand_charge", demand_usd_per_w_month, ST_DIM_PRICE_DEMAND, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "maintenance", maintenance_per_year, ST_DIM_RATIO, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "staff", staff_usd_per_s, ST_DIM_PRICE_TIME, ST_R_NONNEG,
            .max = ST_COST_MAX),
    ST_FENUM(st_cost_cfg, "pricing", pricing, st_pricing_names),
    ST_FFN("committed_gpu_hour_price", fn_committed_price),
    ST_FDIM(st_cost_cfg, "commitment", commitment_s, ST_DIM_TIME, ST_R_POS),
    ST_FENUM(st_cost_cfg, "egress", egress, st_egress_names),
    ST_FDIM(st_cost_cfg, "storage_bandwidth_price", storage_bw_usd_per_bps, ST_DIM_PRICE_BANDWIDTH,
            ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "optic_price", optic_usd, ST_DIM_MONEY, ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "rack_price", rack_usd, ST_DIM_MONEY, ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "cooling_air_price", cooling_air_usd_per_w, ST_DIM_PRICE_POWER,
            ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FDIM(st_cost_cfg, "cooling_liquid_price", cooling_liquid_usd_per_w, ST_DIM_PRICE_POWER,
            ST_R_NONNEG, .max = ST_COST_MAX),
    ST_FEND,
};

/* A price stated as 0 where the delivery reads it makes that part of the cost nothing (a node
 * price of 0 a cost of no capital, a GPU-hour rate of 0 a cloud bill of 0): allowed, since a
 * planner may mean it, and said once as a warning at the cost: section, since a 0 more often
 * stands for "unknown", which the key left out says (the preset table's price, or a refusal). */
static void warn_zero_prices(st_ld *ld, const st_ynode *n, const st_cost_cfg *c)
{
    static const char *const what = "so that part of the cost is nothing; leave the key out to "
                                    "take the preset table's sourced price where it has one";
    if (c->delivery == ST_DELIVERY_ON_PREM && c->node_price_usd == 0)
        st_diag_add(&ld->s->warnings, 0, n->loc, "cost: node_price is 0 USD, %s", what);
    if (c->delivery == ST_DELIVERY_ON_PREM && c->switch_price_usd == 0)
        st_diag_add(&ld->s->warnings, 0, n->loc, "cost: switch_price is 0 USD, %s", what);
    if (c->delivery != ST_DELIVERY_ON_PREM && c->pricing != ST_PRICING_COMMITTED &&
        c->gpu_hour_usd_per_s == 0)
        st_diag_add(&ld->s->warnings, 0, n->loc, "cost: gpu_hour_price is 0 USD/h, %s", what);
    if (c->pricing == ST_PRICING_COMMITTED && c->committed_gpu_hour_usd_per_s == 0)
        st_diag_add(&ld->s->warnings, 0, n->loc, "cost: committed_gpu_hour_price is 0 USD/h, %s",
                    what);
}

int st__load_cost(st_ld *ld, const st_ynode *n)
{
    st_cost_cfg *c = &ld->s->cost;
    st_cost_defaults(c); /* the sourced prices (models/cost/prices.c); the others unset */
    c->loc = n->loc;
    if (st_rd_map(&ld->rd, n, cost_fields, c, "cost"))
        return -1;
    /* The delivery model's noise where the cluster states none (docs/models/stragglers.md) */
    st_variability_cfg *v = &ld->s->cluster.variability;
    if (!v->noise_loc.line)
        st_noise_profile_apply(st_noise_profile_of_delivery(c->delivery), v);
    if (c->pricing == ST_PRICING_COMMITTED && c->delivery != ST_DELIVERY_CLOUD)
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "cost: pricing 'committed' is a cloud price, but delivery is '%s' "
                          "(bare metal's rate is already per GPU-month)",
                          st_delivery_names[c->delivery]);
    /* The typed prices of the cluster's GPU type; another type's (a sizing search's) are
     * resolved the same way where it is priced (planner/size.c). */
    const char *gpu = ld->s->cluster.gpu ? ld->s->cluster.gpu->name : NULL;
    st_cost_for_gpu(c, gpu, c);
    st_cost_for_parts(c, &ld->s->cluster.fabric, c); /* the switch and optics by the fabric */
    const char *why = NULL, *key = st_cost_missing(c, &why);
    /* Every pool's type is priced by its own rows (models/forecast/run_cost.c): the first that
     * lacks one is named. */
    const st_cluster_cfg *cl = &ld->s->cluster;
    for (int k = 1; !key && k < cl->n_pools; k++) {
        st_cost_cfg typed;
        st_cost_for_gpu(c, cl->pools[k].gpu->name, &typed);
        if ((key = st_cost_missing(&typed, &why)))
            gpu = cl->pools[k].gpu->name;
    }
    if (key && gpu && (!strcmp(key, "node_price") || strstr(key, "gpu_hour_price")))
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "cost: delivery '%s' needs '%s' for GPU '%s' (%s): state it for every "
                          "type or per type, such as %s: {%s: %s}",
                          st_delivery_names[c->delivery], key, gpu, why, key, gpu,
                          strcmp(key, "node_price") ? "2.5 USD/h" : "300000 USD");
    if (key) { /* every price it lacks at once, not one per run */
        const char *keys[8];
        size_t m = st_cost_missing_all(c, keys, 8);
        char list[200] = "";
        for (size_t i = 0; i < m; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'",
                     i == 0       ? ""
                     : i + 1 == m ? " and "
                                  : ", ",
                     keys[i]);
        return st_rd_fail(&ld->rd, n, ST_EINVAL, "cost: delivery '%s' needs %s (%s)",
                          st_delivery_names[c->delivery], m ? list : key,
                          m > 1 ? "none has a published default: hardware prices depend on "
                                  "what is bought, maintenance and staff on the site"
                                : why);
    }
    warn_zero_prices(ld, n, c);
    ld->s->has_cost = 1;
    return 0;
}
