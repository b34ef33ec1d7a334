/* libFuzzer harness for `strata run` without its writers: any bytes the loader accepts as a
 * small scenario must forecast to finite figures or fail with one located error, never crash,
 * hang, leak or overflow. Build and run: docs/dev/fuzzing.md. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/run.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"
#include "sim/err.h"
#include "tests/fuzz/fuzz_base.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_run: contract broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The scenario's name places it in tests/fuzz/seeds, so the trace files the seeds name
 * (`../../traces/...`) are read from tests/traces wherever the fuzzer runs. */
static const char name[] = ST_FUZZ_SCENARIO;

/* Sizes past which one forecast may take longer than a few milliseconds: the harness skips such
 * scenarios (they are not findings; tests/bench times the large ones). */
enum {
    MAX_GPUS = 512,   /* in the cluster: placement, the fabric and the collectives grow with it */
    MAX_STEPS = 5000, /* a life's events grow with its steps over the checkpoint interval */
    MAX_BATCH = 4096, /* `microbatch: auto` simulates a step per divisor of batch / dp */
    MAX_ITERATIONS = 64, /* a collective workload runs each iteration on the engine */
    MAX_WORKLOADS = 8,
    MAX_TRACE_JOBS = 2000,      /* the cluster run's events grow with the trace's jobs */
    MAX_SERVE_TOKENS = 2000000, /* a replica's iterations visit its requests' tokens */
};

/* The job's failures may not outnumber what a quick life can simulate: a class's interruptions
 * are about the job's wall time over its MTBF, so the harness keeps each MTBF at an hour or more
 * and the replicas to the default. */
#define MIN_MTBF_S 3600.0

static int too_big(const st_scn *s)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    if ((double)c->nodes * (double)c->gpus_per_node > MAX_GPUS)
        return 1;
    size_t n = st_scn_workload_count(s);
    if (n > MAX_WORKLOADS)
        return 1;
    for (size_t i = 0; i < n; i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind == ST_WL_COLLECTIVE) {
            if (w->collective.iterations > MAX_ITERATIONS)
                return 1;
            continue;
        }
        if (w->kind == ST_WL_INFERENCE) {
            const st_inference_cfg *ic = &w->inference;
            double sent = (double)ic->count; /* a curve's: its integral, at most the whole
                                                service's (one replica's share is what runs) */
            for (int k = 1; k < ic->n_load; k++)
                sent += 0.5 * (ic->load[k - 1].rate + ic->load[k].rate) *
                        (ic->load[k].at_s - ic->load[k - 1].at_s);
            if (sent * (double)(ic->input_tokens + ic->output_tokens) > MAX_SERVE_TOKENS)
                return 1;
            continue;
        }
        double tokens = (double)w->global_batch * (double)w->seq_len;
        double steps = w->steps > 0 ? (double)w->steps : ceil(w->tokens / tokens);
        if (steps > MAX_STEPS || w->global_batch > MAX_BATCH)
            return 1;
    }
    const st_trace_cfg *t = st_scn_trace(s);
    if (t && t->n_jobs > MAX_TRACE_JOBS)
        return 1;
    const st_failures_cfg *f = st_scn_failures(s);
    for (int i = 0; f && i < f->n_classes; i++)
        if (f->classes[i].mtbf_s < MIN_MTBF_S)
            return 1;
    return 0;
}

/* A forecast that succeeded holds finite, non-negative figures. */
static void check_forecast(const st_run *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const st_forecast *f = &r->f[i];
        if (f->has_step) {
            CHECK(isfinite(f->step.step_time_s) && f->step.step_time_s > 0);
        }
        if (f->has_life) {
            CHECK(isfinite(f->life.wall_s) && f->life.wall_s > 0);
            CHECK(f->life.goodput >= 0 && f->life.goodput <= 1 + 1e-9);
            CHECK(f->life.interruptions >= 0 && f->life.lost_work_s >= 0);
        }
        const st_run_serve *v = &r->serve[i];
        if (v->w) {
            const st_serve_result *q = &v->r;
            CHECK(isfinite(q->tokens_per_s) && q->tokens_per_s >= 0); /* 0: a curve too thin
                                                                          to send a request */
            CHECK(q->slo_attainment >= 0 && q->slo_attainment <= 1);
            const st_autoscale_cfg *as = &v->w->inference.autoscale;
            int64_t least = as->on && as->min == 0 ? 0 : 1; /* min 0: it may scale to zero */
            CHECK(q->replicas_mean >= (double)least &&
                  q->replicas_mean <= (double)v->w->parallel.dp + 1e-9);
            CHECK(q->replicas_peak >= least && q->replicas_peak <= v->w->parallel.dp);
            CHECK(q->cold_starts >= 0 && (least == 0 || q->cold_starts == 0));
            CHECK(isfinite(q->cold_start_total_s) && q->cold_start_total_s >= 0);
            CHECK(isfinite(q->gpu_hours_saved) && q->gpu_hours_saved >= 0);
            CHECK(!as->on || (isfinite(q->cold.total_s) && q->cold.total_s >= 0));
            CHECK(isfinite(q->gpu_hours) && q->gpu_hours >= 0);
            CHECK(q->ttft_s.p50 >= 0 && q->ttft_s.p50 <= q->ttft_s.p99 && isfinite(q->ttft_s.p99));
            CHECK(q->tpot_s.p50 >= 0 && q->tpot_s.p50 <= q->tpot_s.p99 && isfinite(q->tpot_s.p99));
            CHECK(q->kv_cache_tokens > 0 && q->preemptions >= 0);
            CHECK(q->max_rate_under_slo >= 0 && isfinite(q->max_rate_under_slo));
        }
        const st_coll_result *c = &r->coll[i];
        if (c->w) {
            CHECK(isfinite(c->time_s) && c->time_s >= 0);
            CHECK(isfinite(c->end_s) && c->end_s >= c->start_s);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    st_diag diag = {0};
    st_scn *s = NULL;
    if (st_scn_load_buffer(name, (const char *)data, size, &s, &diag) || too_big(s)) {
        st_scn_free(s);
        return 0;
    }
    /* What `strata run` asks for (planner/run_spec.c), so the harness cannot drift from it, and
     * the step's trace, which `run --trace` keeps. */
    st_run_spec spec = st_plan_run_spec(s, st_scn_seed(s));
    spec.trace = 1;
    st_run run;
    st_err err = {0};
    int rc = st_run_forecast(&spec, &run, &err);
    if (rc == 0) {
        check_forecast(&run);
    } else {
        /* `run` says where, as `check` does (issue 16, item 8): every model error that reaches
         * the user names its place in the scenario. */
        char line[512];
        CHECK(rc < 0 && err.code == rc);
        CHECK(st_err_format(&err, line, sizeof line) > 0 && strstr(line, "error: "));
        if (!err.loc.file || err.loc.line == 0) {
            fprintf(stderr, "fuzz_run: unlocated run error: %s\n", line);
            abort();
        }
    }
    st_run_release(&run);
    st_scn_free(s);
    return 0;
}
