/* libFuzzer harness for job traces: any bytes as a trace file, in any of the formats, skipped
 * or refused when malformed, must load to finite jobs with well-formed names or fail with
 * located errors, and a trace that loads must run through the cluster's scheduler under any
 * policy to finite figures or a located error; never a crash, a hang, a leak or undefined
 * behaviour. The first byte chooses the format, the malformed mode, the placement and the
 * policy; the rest is the file. Build and run: docs/dev/fuzzing.md. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, ftruncate, pwrite */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/forecast/run.h"
#include "models/place/policy.h"
#include "models/sched/policy.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"
#include "sim/err.h"
#include "sim/utf8.h"
#include "tests/fuzz/fuzz_base.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_trace: contract broken: %s (%s:%d)\n", #cond, __FILE__,          \
                    __LINE__);                                                                     \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The trace file every input is written to: made once per process, removed at its exit. */
static char path[64];
static int fd = -1;

static void remove_file(void)
{
    unlink(path);
}

static void write_trace(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/strata-fuzz-trace-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (strlen(path) >= sizeof path - 1 || (fd = mkstemp(path)) < 0) {
            snprintf(path, sizeof path, "/tmp/strata-fuzz-trace-XXXXXX");
            fd = mkstemp(path);
        }
        CHECK(fd >= 0);
        atexit(remove_file);
    }
    CHECK(ftruncate(fd, 0) == 0);
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        CHECK(w > 0);
        done += (size_t)w;
    }
}

/* A scenario of 8 nodes of 8 GPUs (two leaves) reading the trace as the option byte says: bits
 * 0-1 the format (csv, or with bit 7 set openb; philly, muri, or muri replayed with the
 * artifact's conventions), bit 2
 * `malformed: refuse`, bits 3-4 the placement, bits 5-7 the policy. Step models for the trace's
 * jobs (trace.models) are left to fuzz_run's seeds: each costs a step simulation per placement
 * shape, which would hold this harness to a few executions a second. */
static size_t scenario(uint8_t opt, char *yaml, size_t n)
{
    static const char *const formats[] = {"csv", "philly", "muri", "muri", "openb"};
    int format = (opt & 3) == 0 && (opt & 128) ? 4 : opt & 3;
    size_t np = 0, nq = 0;
    while (st_sched_policy_names[np])
        np++;
    while (st_place_policy_names[nq])
        nq++;
    const char *policy = st_sched_policy_names[(opt >> 5) % np];
    const char *placement = st_place_policy_names[((opt >> 3) & 3) % nq];
    int replay = (opt & 3) == 3;
    int len = snprintf(yaml, n,
                       "version: 1\ncluster: { gpu: h100-sxm, nodes: 8, fabric: { nodes_per_leaf: "
                       "4 } }\ntrace: { file: \"%s\", format: %s, malformed: %s%s }\n"
                       "scheduler: { policy: %s, placement: %s }\nhorizon: 30 d\n",
                       path, formats[format], opt & 4 ? "refuse" : "skip",
                       replay ? ", replay: muri" : "", replay ? "srtf" : policy, placement);
    CHECK(len > 0 && (size_t)len < n);
    return (size_t)len;
}

/* What a trace that loaded hands out: finite jobs, and names that are whole UTF-8. */
static void check_trace(const st_trace_cfg *t)
{
    for (size_t i = 0; i < t->n_jobs; i++) {
        const st_trace_job *j = &t->jobs[i];
        CHECK(isfinite(j->submit_s) && j->submit_s >= 0);
        CHECK(isfinite(j->duration_s) && j->duration_s >= 0);
        CHECK(j->gpus >= 1);
        CHECK(j->tenant < (int32_t)t->n_tenants && j->cls < (int32_t)t->n_classes);
        CHECK(j->pool == 0); /* one GPU type: every job in its one pool */
    }
    for (size_t i = 0; i < t->n_tenants; i++)
        CHECK(st_utf8_check(t->tenants[i], strlen(t->tenants[i])) == strlen(t->tenants[i]));
    for (size_t i = 0; i < t->n_classes; i++)
        CHECK(st_utf8_check(t->classes[i], strlen(t->classes[i])) == strlen(t->classes[i]));
}

static void check_error(const st_err *e)
{
    char line[1024];
    CHECK(e->code < 0);
    CHECK(e->loc.file != NULL); /* the scenario's or the trace's */
    CHECK(st_err_format(e, line, sizeof line) > 0 && strstr(line, "error: ") != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    write_trace(data + 1, size - 1);
    char yaml[512];
    size_t len = scenario(data[0], yaml, sizeof yaml);
    st_diag diag = {0};
    st_scn *s = NULL;
    if (st_scn_load_buffer(ST_FUZZ_SCENARIO, yaml, len, &s, &diag)) {
        CHECK(s == NULL && diag.n >= 1);
        for (int i = 0; i < diag.n; i++)
            check_error(&diag.items[i]);
        return 0;
    }
    check_trace(st_scn_trace(s));
    st_run_spec spec = st_plan_run_spec(s, st_scn_seed(s));
    st_run run;
    st_err err = {0};
    int rc = st_run_forecast(&spec, &run, &err);
    if (rc == 0) {
        const st_cluster_stats *c = &run.cluster.st;
        CHECK(!run.has_cluster || (isfinite(c->makespan_s) && c->makespan_s >= 0));
    } else {
        CHECK(rc < 0 && err.code == rc);
        check_error(&err);
    }
    st_run_release(&run);
    st_scn_free(s);
    return 0;
}
