/* Shared between the loader's files: the scenario's insides and the loading context.
 * Internal to scenarios/. */
#ifndef ST_SCENARIOS_LOAD_INTERNAL_H
#define ST_SCENARIOS_LOAD_INTERNAL_H

#include "models/config/frontend.h"
#include "scenarios/reader.h"
#include "scenarios/scenario.h"

struct st_scn {
    char *path, *dir; /* the file, and the folder relative paths resolve against */
    const char *name;
    uint64_t seed, hash;
    double horizon_s;
    st_cluster_cfg cluster;
    st_tier_cfg *tiers;
    st_pool_cfg *pools; /* cluster.pools, owned */
    st_workload_cfg *workloads;
    size_t n_workloads;
    st_gpu_spec *gpus; /* defined under hardware.gpus; capacity fixed before reading */
    size_t n_gpus;
    st_llm_spec *models; /* hardware.models and inline workload models */
    size_t n_models, cap_models;
    st_trace_cfg trace;
    st_trace_job *trace_jobs; /* trace.jobs, owned (scenarios/trace.c) */
    const char **trace_tenants;
    const char **trace_classes;
    st_trace_model *trace_models; /* trace.models, owned */
    st_trace_pool *trace_pools;   /* trace.pools, owned */
    st_failures_cfg failures;
    st_failure_class *classes;
    st_sched_cfg sched;
    st_quota *quotas;
    st_cost_cfg cost;
    st_typed_price cost_typed[ST_COST_MAX_TYPED]; /* cost's prices per GPU type */
    st_validation_cfg validation;
    st_audit_cfg audit;
    int has_validation, has_audit;
    int has_trace, has_failures, has_cost;
    st_strpool pool;
    st_diag warnings; /* what check and run print to stderr; no effect on the exit status */
};

/* Names of list entries (hardware.gpus, hardware.models, cluster.storage) that failed to
 * read, borrowed from the tree; `all` when the list itself failed. A reference to one of them
 * is not reported as unknown: its entry's error already says what is wrong. */
typedef struct st_broken {
    const char **names;
    size_t n, cap;
    int all; /* the list failed, or has an entry without a readable name (it may be any) */
} st_broken;

/* The reader plus the scenario being filled; custom field readers recover it from rd. The
 * flags say which values later sections depend on are unknown, so the checks that use them are
 * skipped rather than reporting echoes of the first error. */
typedef struct st_ld {
    st_rd rd;
    st_scn *s;
    st_broken bad_gpus, bad_models, bad_tiers;
    int size_bad;    /* cluster.nodes or cluster.gpus_per_node unknown */
    int cluster_bad; /* the cluster section reported an error */
} st_ld;

/* Record entry (a mapping) as broken in b, by its `name` when it has a readable one. */
void st__broken_add(st_broken *b, const st_ynode *entry);
/* True when name belongs to a broken entry of b (or b's whole list failed). */
int st__broken_has(const st_broken *b, const char *name);

static inline st_ld *st__ld(st_rd *rd)
{
    return (st_ld *)rd;
}

/* The path a file key's scalar n names (`key`, for messages), joined to the scenario's folder
 * unless absolute, into *path (the scenario's); the file is not touched: its reader opens it
 * once, so that what it checks is what it reads. Returns 0, or -1 after reporting (not a
 * scalar, "<key> is empty", or "<noun> path is longer than 4095 bytes"). */
int st__read_path(st_rd *rd, const st_ynode *n, const char *key, const char *noun,
                  const char **path);

/* The whole of the regular file at path (at most ST_YTREE_MAX_FILE bytes) into *out (malloc'd)
 * and *len: 0, or an error code with what went wrong in why ("cannot open: ...", "is a
 * directory", "not a regular file (a FIFO, socket or device); a <noun> is a file", "read error:
 * ...", "file is larger than ..."); noun is the file's kind: "scenario", "calibration". */
int st__read_file(const char *path, const char *noun, char **out, size_t *len, char *why, size_t n);

/* cluster.calibration (load_calib.c): its field reader, and the check, once the cluster's GPU is
 * known, that it was fitted on that GPU type (an error at the calibration otherwise). */
int st__fn_calibration(st_rd *rd, const st_ynode *n, void *base);
int st__check_calibration(st_ld *ld, const st_cluster_cfg *c);

/* Section readers; each reports into ld->rd.diag and returns non-zero on any error. */
int st__load_hardware(st_ld *ld, const st_ynode *n);
int st__load_cluster(st_ld *ld, const st_ynode *n);
int st__load_models(st_ld *ld, const st_ynode *n);
int st__load_workloads(st_ld *ld, const st_ynode *n);
int st__load_trace(st_ld *ld, const st_ynode *n);
int st__load_failures(st_ld *ld, const st_ynode *n);
int st__load_scheduler(st_ld *ld, const st_ynode *n);
int st__load_cost(st_ld *ld, const st_ynode *n);
int st__load_validation(st_ld *ld, const st_ynode *n);
int st__load_audit(st_ld *ld, const st_ynode *n); /* load_audit.c */

/* A workload's `model:` (what names the key in messages): a mapping read into the scenario's
 * model table, or a preset name looked up by st__find_model. NULL after reporting an error. */
const st_llm_spec *st__read_model(st_ld *ld, const st_ynode *n, const char *what);

/* Find a GPU by name among hardware.gpus, then the catalog. NULL if neither has it. */
const st_gpu_spec *st__find_gpu(const st_scn *s, const char *name);
/* Find a model by name among hardware.models, then the catalog. */
const st_llm_spec *st__find_model(const st_scn *s, const char *name);
/* Report an unknown GPU / model / tier name with the closest known one. */
int st__unknown_name(st_ld *ld, const st_ynode *n, const char *what, const char *const *names,
                     size_t count, const char *hint);

/* Report an unknown GPU name (a hardware.gpus entry with an error of its own is not reported
 * again): -1. load_cluster.c. */
int st__unknown_gpu(st_ld *ld, const st_ynode *n);

/* The value of n.map.sub.key (n.map.key when sub is NULL), or NULL where a step is absent. */
static inline const st_ynode *st__at_path(const st_ynode *n, const char *map, const char *sub,
                                          const char *key)
{
    const st_ynode *m = st_ynode_get(n, map);
    return st_ynode_get(sub ? st_ynode_get(m, sub) : m, key);
}

/* A rule reads key's value: it runs only when that value, and every other it names, read
 * cleanly (a failed value keeps its default, which would make the rule's message an echo). */
static inline int st__read_ok(st_ld *ld, const st_ynode *v)
{
    return v && !st_rd_failed(&ld->rd, v);
}

/* A rack's liquid fraction when left to its cooling kind: 0.8 of the heat to the liquid loop on
 * a liquid-cooled rack (docs/guide/scenario-reference.md), none on an air-cooled one. */
void st__derive_liquid_fraction(st_rack_cfg *r);

/* cluster.pools (load_cluster_pools.c): the field reader of the list; each pool's node (its
 * power besides the GPUs and its PCIe link) and racks, derived once cluster n's own are read
 * (the racks before cluster.racks' liquid fraction is derived); and the cluster settings of one
 * GPU type refused with pools. */
int st__fn_pools(st_rd *rd, const st_ynode *n, void *base);
void st__derive_pools(st_ld *ld, const st_ynode *n, st_cluster_cfg *c);
void st__derive_pool_racks(st_ld *ld, const st_ynode *n, st_cluster_cfg *c);
void st__check_pooled(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c);

/* Scalar n names an entry of cluster.pools: its index into *k, or -1 after reporting why (the
 * cluster has one type, or no pool of that name: the closest named). A workload's `pool:` and
 * trace.pools' values. */
int st__pool_named(st_ld *ld, const st_ynode *n, int *k);

/* The cluster as workload w's pool sees it (models/config/pools.h), with only that pool's nodes
 * and its name in view_of, into *out: what its plan must fit in, on its pool's GPU type
 * (load_pool_keys.c). A job across pools gets the whole cluster's nodes and no name: its shares
 * are held to their pools by st__span_check. A cluster of one type is copied as it is. */
void st__pool_room(const st_ld *ld, const st_workload_cfg *w, st_cluster_cfg *out);

/* The workload field readers of `pool` and `pool_batch` (load_pool_keys.c). */
int st__fn_pool(st_rd *rd, const st_ynode *n, void *base);
int st__fn_pool_batch(st_rd *rd, const st_ynode *n, void *base);

/* A training job across pools (its pool_gpus read), checked against its plan once that is
 * derived: its shares and pool_batch; sets its mean peak, pool_peak. 0, or -1 after reporting
 * why (at workload mapping n's `pool` or `pool_batch`). */
int st__span_check(st_ld *ld, const st_ynode *n, st_workload_cfg *w);

/* A workload's defaults before its keys are read (seq_len 2048, every degree 1, overlaps on),
 * at its w->loc: the workloads' and trace.models' entries start from the same. */
void st__workload_defaults(st_workload_cfg *w);

/* The value of `key` in mapping map, else map itself: where a message about the key points. */
static inline const st_ynode *st__key_or(const st_ynode *map, const char *key)
{
    const st_ynode *v = st_ynode_get(map, key);
    return v ? v : map;
}

/* Whether node v stands before mapping m's start in m's file. A value written in m stands after
 * m's start, and an alias can only name an anchor that ended before it: so a value of m that
 * stands before m came into m through a `<<` merge key, from an anchor earlier in the file. An
 * override's value (located at its --set label, another "file") is its own. */
static inline int st__stands_before(const st_ynode *v, const st_ynode *m)
{
    return v->loc.file == m->loc.file &&
           (v->loc.line < m->loc.line || (v->loc.line == m->loc.line && v->loc.col < m->loc.col));
}

/* Where "duplicate ... name" points for list entry m: its `name` value (else m), or m itself
 * when m is an alias's use or its name came through a merge key. A duplicate is about the second
 * occurrence, and a use's or a merged value sits at its anchor, which may be the first:
 * `- *w` after `- &w { name: ft }` is at the `*w`, `- { <<: *w }` at its `{`. */
static inline const st_ynode *st__name_at(const st_ynode *m)
{
    const st_ynode *name = st_ynode_get(m, "name");
    return m->alias || !name || st__stands_before(name, m) ? m : name;
}

/* Kind: collective workloads (load_collective.c). st__fn_collective reads the `collective`
 * mapping into the workload (a field reader); st__derive_collective checks workload n's keys
 * (none of workload_fields' training keys, its GPUs in the cluster, the collective model's
 * rules) once read, and st__check_collective_room that the clean ones (clean[i]) fit together,
 * each starting on a fresh node. Each returns non-zero after reporting. */
int st__fn_collective(st_rd *rd, const st_ynode *n, void *base);
int st__derive_collective(st_ld *ld, const st_ynode *n, st_workload_cfg *w,
                          const st_field *workload_fields);
int st__check_collective_room(st_ld *ld, const st_ynode *n, const char *clean);
/* Each of keys[] (NULL-ended) that workload mapping n states, refused as not applying to w's
 * kind (load_collective.c); non-zero when one was. */
int st__refuse_keys(st_ld *ld, const st_ynode *n, const st_workload_cfg *w,
                    const char *const *keys);

/* Kind: inference workloads: the field readers of `requests`, `slo` (load_inference.c),
 * `batching`, `frontend` and `autoscale`, and the checks of workload n once read
 * (load_inference_rules.c: no training keys, a model and plan the serving model covers, the
 * engine's defaults filled in). Each returns non-zero after reporting. */
int st__fn_requests(st_rd *rd, const st_ynode *n, void *base);
int st__fn_slo(st_rd *rd, const st_ynode *n, void *base);
int st__fn_batching(st_rd *rd, const st_ynode *n, void *base);
int st__fn_frontend(st_rd *rd, const st_ynode *n, void *base);
/* A serving stack's figures (models/config/frontend.h) into ic: its name and host times. */
void st__use_frontend(st_inference_cfg *ic, const st_frontend *f);
int st__fn_autoscale(st_rd *rd, const st_ynode *n, void *base);

/* The keys of a workload's `parallel:` mapping (load_parallel.c), read into its
 * st_parallel_cfg. */
extern const st_field st__parallel_fields[];

/* A `tier:` value: the index of the cluster.storage tier n names into *out, or an error at n
 * (an unknown name, with the names it might have meant). */
int st__tier_named(st_rd *rd, const st_ynode *n, int *out);
int st__derive_inference(st_ld *ld, const st_ynode *n, st_workload_cfg *w,
                         const st_field *workload_fields);

#endif
