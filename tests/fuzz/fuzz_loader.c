/* libFuzzer harness for the scenario loader: any bytes must give either a scenario or located
 * errors, never a crash, a hang, a leak or undefined behaviour. Build and run: docs/dev/fuzzing.md.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "scenarios/scenario.h"
#include "sim/err.h"
#include "tests/fuzz/fuzz_base.h"

/* The harness checks the loader's contract itself, so a broken promise stops the run even
 * where no sanitizer would notice (a stale but still mapped pointer, a missing error). */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_loader: contract broken: %s (%s:%d)\n", #cond, __FILE__,         \
                    __LINE__);                                                                     \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Named as if in tests/fuzz/seeds, so the trace files the seeds name are read (fuzz_base.h). */
static const char name[] = ST_FUZZ_SCENARIO;

/* Read every string and located value the scenario hands out, so the sanitizers see a
 * dangling or uninitialised pointer in what the models would later read. */
static size_t touch_str(const char *s)
{
    return s ? strlen(s) : 0;
}

static size_t touch_scenario(const st_scn *s)
{
    size_t sum = touch_str(st_scn_name(s)) + touch_str(st_scn_path(s));
    const st_cluster_cfg *c = st_scn_cluster(s);
    CHECK(c != NULL && c->gpu != NULL);
    CHECK(c->nodes >= 1 && c->gpus_per_node >= 1);
    sum += touch_str(c->gpu->name);
    for (int i = 0; i < c->n_tiers; i++)
        sum += touch_str(c->tiers[i].name);
    size_t n = st_scn_workload_count(s);
    const st_trace_cfg *t = st_scn_trace(s);
    CHECK(n >= 1 || t != NULL); /* a trace alone is a scenario */
    for (size_t i = 0; i < n; i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        CHECK(w->name != NULL && w->tenant != NULL);
        CHECK(w->gpus >= 1 && w->gpus <= c->nodes * c->gpus_per_node);
        sum += touch_str(w->name) + touch_str(w->tenant);
        if (w->kind == ST_WL_COLLECTIVE) { /* no model; every GPU is a rank */
            CHECK(w->model == NULL && w->collective.iterations >= 1);
            continue;
        }
        CHECK(w->model != NULL);
        CHECK(w->parallel.tp * w->parallel.cp * w->parallel.pp * w->parallel.dp == w->gpus);
        sum += touch_str(w->model->name);
        if (w->checkpoint.enabled)
            CHECK(w->checkpoint.tier >= 0 && w->checkpoint.tier < c->n_tiers);
        if (w->data.enabled)
            CHECK(w->data.tier >= 0 && w->data.tier < c->n_tiers);
    }
    if (t) {
        sum += touch_str(t->file);
        for (size_t i = 0; i < t->n_tenants; i++)
            sum += touch_str(t->tenants[i]);
        for (size_t i = 0; i < t->n_classes; i++)
            sum += touch_str(t->classes[i]);
    }
    const st_failures_cfg *f = st_scn_failures(s);
    if (f)
        for (int i = 0; i < f->n_classes; i++)
            sum += touch_str(f->classes[i].component);
    const st_sched_cfg *sc = st_scn_sched(s);
    sum += touch_str(sc->policy);
    for (int i = 0; i < sc->n_quotas; i++)
        sum += touch_str(sc->quotas[i].tenant);
    (void)st_scn_cost(s);
    return sum + (size_t)st_scn_seed(s) + (size_t)st_scn_hash(s) + (size_t)st_scn_horizon_s(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    st_diag diag = {0};
    st_scn *s = NULL;
    int rc = st_scn_load_buffer(name, (const char *)data, size, &s, &diag);
    if (rc == 0) {
        CHECK(s != NULL && diag.n == 0);
        volatile size_t sink = touch_scenario(s);
        (void)sink;
    } else {
        CHECK(rc < 0 && s == NULL && diag.n >= 1);
    }
    /* Every error must format, and name the scenario, a trace file under the source folder or
     * no file; the name must outlive the freed scenario (ASan sees a read of a freed one). */
    for (int i = 0; i < diag.n; i++) {
        char line[512];
        const st_err *e = &diag.items[i];
        CHECK(e->code < 0);
        CHECK(e->loc.file == NULL || strcmp(e->loc.file, name) == 0 ||
              strncmp(e->loc.file, ST_SOURCE_DIR "/", strlen(ST_SOURCE_DIR) + 1) == 0);
        int len = st_err_format(e, line, sizeof line);
        CHECK(len > 0 && strstr(line, "error: ") != NULL);
    }
    st_scn_free(s);
    return 0;
}
