/* A loaded scenario: the typed, located configuration of one YAML file (format version 1,
 * docs/guide/scenario-reference.md). It owns everything parsed from the file; models hold const
 * pointers into it, so it must outlive every simulation built from it. */
#ifndef ST_SCENARIOS_SCENARIO_H
#define ST_SCENARIOS_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

#define ST_SCN_VERSION 1
/* More than 10^6 nodes (8 million GPUs at 8 a node, eight times the largest clusters planned)
 * is refused as absurd: the fabric model holds every link of the cluster, about 5 KB a node, so
 * the 10^7 once allowed needed some 50 GB whatever the job's size and aborted out of memory. */
#define ST_SCN_MAX_NODES     1000000
#define ST_SCN_MAX_NAMED     1000   /* entries in hardware.gpus, hardware.models, storage */
#define ST_SCN_MAX_WORKLOADS 100000 /* more jobs than that belong in a trace */

typedef struct st_scn st_scn;

/* Load and check the scenario in file `path`. Returns 0 and sets *out, or a negative ST_E*
 * code with up to ST_DIAG_MAX located errors in *diag (the first is the most useful). Never
 * exits or aborts on bad input. The caller frees *out with st_scn_free. */
int st_scn_load_file(const char *path, st_scn **out, st_diag *diag);

/* Same, from memory: `name` is used in messages and to resolve relative paths (trace file).
 * buf need not be NUL-terminated; it is copied. */
int st_scn_load_buffer(const char *name, const char *buf, size_t len, st_scn **out, st_diag *diag);

void st_scn_free(st_scn *s);

/* Warnings about a scenario that loaded: located notes (code 0), such as a section that is read
 * but not yet modelled, in file order. Borrowed from s. */
const st_diag *st_scn_warnings(const st_scn *s);

const char *st_scn_name(const st_scn *s);
const char *st_scn_path(const st_scn *s);
uint64_t st_scn_seed(const st_scn *s);
/* 64-bit FNV-1a hash of the file's bytes, for the report: a planner can tell which exact file
 * produced a report. */
uint64_t st_scn_hash(const st_scn *s);
double st_scn_horizon_s(const st_scn *s);

const st_cluster_cfg *st_scn_cluster(const st_scn *s);
size_t st_scn_workload_count(const st_scn *s);
/* Workload i in file order, or NULL when i >= st_scn_workload_count(s). */
const st_workload_cfg *st_scn_workload(const st_scn *s, size_t i);

/* Optional sections: NULL when the scenario leaves them out. */
const st_trace_cfg *st_scn_trace(const st_scn *s);
const st_failures_cfg *st_scn_failures(const st_scn *s);
/* Whether s states a failure of some kind (a component class or planned interruptions): without
 * one (no failures: section, or `failures: {}`) its lives draw none, which its reports say. */
int st_scn_states_failures(const st_scn *s);
const st_cost_cfg *st_scn_cost(const st_scn *s);
const st_sched_cfg *st_scn_sched(const st_scn *s);
/* The audit's targets (`audit:`, every key defaulted), or NULL: the audit's defaults. */
const st_audit_cfg *st_scn_audit(const st_scn *s);

/* The published measurement the scenario reproduces, or NULL when it has none. */
const st_validation_cfg *st_scn_validation(const st_scn *s);
/* The scenario spelling of a validation metric ("step_time_s", ..., "goodput"); "?" out of
 * range. */
const char *st_scn_metric_name(st_valid_metric m);

/* The engine's batch limits ic does not state (ic->batch_stated), vLLM's defaults for GPU type
 * gpu (st_inference_preset: large GPUs but the A100 get the large limits, an offline batch the
 * larger token budget). The loader sets them for the workload's pool; `strata size` again for
 * each type it tries, as `strata run` would on that type. */
void st_scn_engine_limits(st_inference_cfg *ic, const st_gpu_spec *gpu);

#endif
