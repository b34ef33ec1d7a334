/* The pre-flight audit: per-level checks computed on the forecast with numbers (a full
 * baseboard, switches with the ports their fabric needs, tensor parallelism inside the NVLink
 * domain, memory that fits with headroom, a checkpoint that dumps fast enough and fits its tier,
 * ingest that keeps up, a checkpoint cadence that leaves its tier unsaturated, no two jobs on one
 * GPU at once, and the plant's feeds, ramp, cooling, junctions and UPS load), each with the value
 * and the limit it was held to. The targets are the scenario's `audit:` section (st_audit_cfg).
 * The report writers print the findings; they judge nothing. */
#ifndef ST_MODELS_FORECAST_AUDIT_H
#define ST_MODELS_FORECAST_AUDIT_H

#include <stddef.h>

#include "models/config/config.h"
#include "models/forecast/fabric_run.h"
#include "models/forecast/forecast.h"
#include "models/plant/plant.h"
#include "models/sched/cluster.h"
#include "models/serve/serve.h"

typedef enum st_audit_status { ST_AUDIT_PASS, ST_AUDIT_WARN, ST_AUDIT_FAIL } st_audit_status;

/* A finding. check names the check and, for a per-job one, the job ("memory per GPU: NAME");
 * check and message are whole texts, however long the names a user gave, held in the block
 * st_audit_run returns. */
typedef struct st_audit {
    const char *level; /* plant, silicon, fabric, storage, orchestration */
    const char *check;
    st_audit_status status;
    double value, limit;
    const char *message;
} st_audit;

/* A check the audit runs: its level, its name (a per-job check's finding adds ": JOB", as
 * "memory per GPU: pretrain") and what it is held against, in words for `strata audit --help`. */
typedef struct st_audit_check {
    const char *level, *name, *against;
} st_audit_check;

/* Every check, in report order; st_audit_run holds each finding to it (a finding whose level
 * and name are not here is an ST_BUG), so a help generated from it leaves none out. */
extern const st_audit_check st_audit_checks[];
extern const size_t st_audit_n_checks;

/* What the audit reads: the cluster, the targets (NULL: st_audit_cfg_default), and the n
 * workloads' results, indexed like the scenario's workloads: a training workload's forecast in
 * f[i] (f[i].w NULL for any other kind), a collective workload's result in coll[i] (coll NULL,
 * or coll[i].w NULL for any other kind). */
/* A service the audit holds to its latency targets. */
typedef struct st_audit_service {
    const st_workload_cfg *w;
    const st_serve_result *r;
} st_audit_service;

typedef struct st_audit_in {
    const st_cluster_cfg *c;
    const st_audit_cfg *targets;
    const st_forecast *f;
    const st_coll_result *coll;
    size_t n;
    /* The cluster run (NULL: none): training jobs hold their GPUs over its segments, workload i
     * being its job cluster_job[i] (-1: not in it), instead of f[i].gpus from f[i].start_s. */
    const st_cluster_result *cluster;
    const ptrdiff_t *cluster_job;
    const st_plant_result *plant; /* NULL: the plant was not modelled, its checks are left out */
    /* The run's services (kind: inference workloads), n_serve of them: each workload and what
     * its replicas served (models/serve/serve.h). */
    const st_audit_service *serve;
    size_t n_serve;
} st_audit_in;

/* The findings, in report order (the scenario-wide checks that come first, each training job's
 * checks in workload order, then the checks across jobs), into a malloc'd array the caller
 * frees with one free(), which frees their texts too; their count into *count. */
st_audit *st_audit_run(const st_audit_in *in, size_t *count);

/* "pass", "warn" or "fail". */
const char *st_audit_status_name(st_audit_status s);

#endif
