/* The cluster run's throughput. (a) The full Philly job list (82,247 jobs;
 * scenarios/traces/philly) on the trace's cluster, approximated as 311 x 8 GPUs (2,488 of
 * Philly's 2,490; Strata's clusters are uniform), under each registered policy with best-fit
 * placement, and the load of the trace itself. (b) A synthetic year on 100,000 GPUs
 * (below), on one GPU type and on three pools (issue 32). (a) runs twice: as recorded, and with
 * every job mapped to a step model (trace.models). Run from the source folder; `bench_cluster
 * year` runs (b) alone, `year-3pools` its pooled half alone, `philly` (a) alone, `philly-mapped`
 * the mapped half of (a). Prints `case: NAME wall_s: X events_per_s: Y rss_mb: Z`. (c) `strata
 * compare scenarios/examples/philly-512gpu.yaml` as the command runs it: every registered policy
 * over the Philly job list on 512 GPUs; `bench_cluster compare` runs it alone and prints `case:
 * compare-philly-512 policies: N wall_s: X cpu_s: Y`; `bench_cluster compare POLICY [N]` runs that
 * policy alone, N times (for a profile). `bench_cluster trace-load` times loading a generated trace
 * (below). (d) `bench_cluster workloads`: many training workloads of a scenario side by side,
 * each one started solving its thermal throttle and, across leaves, its neighbours' traffic:
 * `case: workloads-NAME jobs: N cpu_s: X` for 4,000 and 8,000 one-node jobs (the second's time
 * over the first's says how a run grows with its jobs: 2 when linear) and for 400 three-node
 * jobs on two-node leaves at 3:1, pairs of them sharing a leaf. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "models/forecast/run.h"
#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

static const char yaml[] = "version: 1\nname: philly-full\n"
                           "cluster: { gpu: h100-sxm, nodes: 311 }\n"
                           "trace: { file: scenarios/traces/philly/philly_jobs.csv, format: "
                           "philly }\n"
                           "scheduler: { placement: best-fit }\nhorizon: 400 d\n";

/* The same with every job mapped to a step model (trace.models): MPT-1B (the smallest preset,
 * so that even a one-GPU job fits), data-parallel over its GPUs with ZeRO-1; each job's recorded
 * duration is stretched by its placement's slowdown, memoised by placement shape. */
static const char mapped_yaml[] =
    "version: 1\nname: philly-full-mapped\n"
    "cluster: { gpu: h100-sxm, nodes: 311 }\n"
    "trace: { file: scenarios/traces/philly/philly_jobs.csv, format: philly, models: [ { model: "
    "mpt-1b, zero: 1 } ] }\n"
    "scheduler: { placement: best-fit }\nhorizon: 400 d\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024;
}

static int philly(const char *yaml, const char *label)
{
    st_scn *s = NULL;
    st_diag d = {0};
    double t0 = now_s();
    /* the scenario's folder is the working directory, so the relative path resolves there */
    if (st_scn_load_buffer("./philly-full.yaml", yaml, strlen(yaml), &s, &d)) {
        fprintf(stderr, "bench_cluster: run from the source folder (the trace did not load)\n");
        return 1;
    }
    printf("case: %s-load wall_s: %.4f events_per_s: 0 rss_mb: %.1f\n", label, now_s() - t0,
           rss_mb());
    for (size_t k = 0; st_sched_policy_names[k]; k++) {
        st_run_spec spec = {.c = st_scn_cluster(s),
                            .sched = st_scn_sched(s),
                            .policy = st_sched_policy_names[k],
                            .job_trace = st_scn_trace(s),
                            .horizon_s = st_scn_horizon_s(s),
                            .seed = 1};
        st_run run;
        st_err err = {0};
        t0 = now_s();
        if (st_run_forecast(&spec, &run, &err)) {
            fprintf(stderr, "bench_cluster: %s: %s\n", label, err.msg);
            return 1;
        }
        double wall = now_s() - t0;
        printf("case: %s-2488gpu-%s wall_s: %.4f events_per_s: %.4g rss_mb: %.1f\n", label,
               st_sched_policy_names[k], wall, (double)run.cluster.st.events / wall, rss_mb());
        st_run_release(&run);
    }
    st_scn_free(s);
    return 0;
}

/* ---- (b) a synthetic year on 100,000 GPUs --------------------------------------------------
 * 12,500 nodes x 8 H100s, one million jobs arriving as a Poisson process over 365 days. 95% are
 * drawn from the Philly job list (a row chosen uniformly: its GPUs and duration, so the size and
 * duration mix is Philly's own); 5% are large LLM trainings whose step is the step model's on
 * their plan (three plans on 64, 256 and 1,024 GPUs, 60/30/10% of them), running a lognormal
 * number of hours (median 24, 48 and 96 h, sigma 0.5, about 87% of the GPUs busy) of whole steps,
 * checkpointing asynchronously every hour to a Tectonic-like tier. The cluster's GPUs, nodes, NICs
 * and leaf switches fail at Llama 3's rates (docs/models/storage-and-failures.md, "Llama 3
 * derivation"), failures `scope: cluster`, 5 min to detect, 10 min to restart, repaired after
 * detect + restart (the default). EASY backfill with best-fit placement. The pooled year
 * (year-100k-1m-3pools, issue 32's goal: under 30 s) is the same draws on 4,168 H100, 4,166 H200
 * and 4,166 B200 nodes (about a third each, one fabric): job i on pool i mod 3, an LLM job at its
 * plan's step on its pool's GPU type. */

/* The year's scenario, built by year_yaml: one type (12,500 H100 nodes), or three pools of
 * about a third each (H100, H200, B200, all 8-GPU nodes) with each LLM plan once per pool. The
 * pools' node counts are even so that no 2-node rack or leaf spans two pools. */
enum { N_LLM = 3, N_YEAR_POOLS = 3 };
static const char year_head[] = "version: 1\nname: synthetic-year-steps\n";
static const char year_one_type[] = "cluster:\n  gpu: h100-sxm\n  nodes: 12500\n";
static const char year_pools[] = "cluster:\n  pools:\n"
                                 "    - { name: h100, gpu: h100-sxm, nodes: 4168 }\n"
                                 "    - { name: h200, gpu: h200-sxm, nodes: 4166 }\n"
                                 "    - { name: b200, gpu: b200, nodes: 4166 }\n"
                                 "  gpus_per_node: 8\n";
static const char *const year_pool_names[N_YEAR_POOLS] = {"h100", "h200", "b200"};
static const char year_rest[] =
    "  racks: { nodes_per_rack: 2 }\n"
    "  fabric: { nodes_per_leaf: 2 }\n  storage:\n"
    "    - { name: tectonic, kind: parallel-fs, capacity: 240 PB, read: 7 TB/s, write: 2 TB/s, "
    "latency: 1 ms }\n"
    "workloads:\n";
static const char *const llm_names[N_LLM] = {"llm-8b-64", "llm-70b-256", "llm-405b-1024"};
static const char *const llm_bodies[N_LLM] = {
    "model: llama3-8b, seq_len: 4096, global_batch: 256, gpus: 64, steps: 1,"
    " parallel: { tp: 2, pp: 1, dp: 32, zero: 1, microbatch: 1, recompute: selective },"
    " checkpoint: { every: 1 h, mode: async, tier: tectonic } }\n",
    "model: llama3-70b, seq_len: 4096, global_batch: 256, gpus: 256,"
    " steps: 1, parallel: { tp: 8, pp: 4, dp: 8, zero: 1, microbatch: 1, recompute: selective },"
    " checkpoint: { every: 1 h, mode: async, tier: tectonic } }\n",
    "model: llama3-405b, seq_len: 8192, global_batch: 128, gpus: 1024,"
    " steps: 1, parallel: { tp: 8, pp: 16, dp: 8, zero: 2, microbatch: 1, virtual_stages: 4,"
    " sequence_parallel: true, recompute: selective },"
    " checkpoint: { every: 1 h, mode: async, tier: tectonic } }\n"};

/* The scenario text for n_pools (1: one type; N_YEAR_POOLS: the pools), into buf: its length,
 * or 0 when it does not fit. Workload p * N_LLM + k is plan k on pool p. */
static size_t year_yaml(char *buf, size_t cap, int n_pools)
{
    int len = snprintf(buf, cap, "%s%s%s", year_head, n_pools > 1 ? year_pools : year_one_type,
                       year_rest);
    for (int p = 0; p < n_pools && len > 0 && (size_t)len < cap; p++)
        for (int k = 0; k < N_LLM && len > 0 && (size_t)len < cap; k++)
            len +=
                snprintf(buf + len, cap - (size_t)len, "  - { name: %s%s%s, %s%s%s%s", llm_names[k],
                         n_pools > 1 ? "-" : "", n_pools > 1 ? year_pool_names[p] : "",
                         n_pools > 1 ? "pool: " : "", n_pools > 1 ? year_pool_names[p] : "",
                         n_pools > 1 ? ", " : "", llm_bodies[k]);
    return len > 0 && (size_t)len < cap ? (size_t)len : 0;
}

static const double llm_share[N_LLM] = {0.6, 0.3, 0.1};
static const double llm_median_h[N_LLM] = {24, 48, 96};

/* One LLM plan's step and checkpoint figures, from the forecast. */
typedef struct llm_plan {
    int64_t gpus;
    double step_s, every_s, stall_s, commit_s, restore_s;
} llm_plan;

typedef struct year_ctx {
    llm_plan plan[N_YEAR_POOLS * N_LLM]; /* plan k on pool p: plan[p * N_LLM + k] */
    signed char *cls;                    /* per job: its LLM plan, -1: a Philly job */
    int32_t *pool;                       /* per job: its pool (pooled runs), else NULL */
} year_ctx;

static double year_restorable(void *ctx, size_t i, double p)
{
    const year_ctx *y = ctx;
    if (y->cls[i] < 0)
        return 0;
    const llm_plan *l = &y->plan[y->cls[i]];
    if (p < l->every_s + l->commit_s)
        return 0;
    double cycle = l->every_s + l->stall_s > l->commit_s ? l->every_s + l->stall_s : l->commit_s;
    double k = floor((p - l->every_s - l->commit_s) / cycle) + 1;
    double back = l->every_s + (k - 1) * cycle + l->stall_s;
    return back < p ? back : p;
}

static void year_cost(void *ctx, size_t i, double *save_s, double *restore_s)
{
    const year_ctx *y = ctx;
    *save_s = y->cls[i] < 0 ? 0 : y->plan[y->cls[i]].commit_s;
    *restore_s = y->cls[i] < 0 ? 0 : y->plan[y->cls[i]].restore_s;
}

/* The three plans' steps and checkpoints through the forecast, on the 100,000-GPU cluster (on
 * each pool, for a pooled one: a plan runs at its pool's GPU type's step). */
static int year_plans(st_scn *s, year_ctx *y, int n_pools)
{
    size_t n = st_scn_workload_count(s);
    st_run_spec spec = {.c = st_scn_cluster(s), .w = st_scn_workload(s, 0), .n = n, .seed = 1};
    st_run run;
    st_err err = {0};
    if (st_run_forecast(&spec, &run, &err) || n != (size_t)(N_LLM * n_pools)) {
        fprintf(stderr, "bench_cluster: the LLM plans did not forecast: %s\n", err.msg);
        return 1;
    }
    for (size_t k = 0; k < n; k++) {
        const st_forecast *f = &run.f[k];
        y->plan[k] = (llm_plan){f->w->gpus,      f->eff_step_s,    f->interval_s,
                                f->ckpt.stall_s, f->ckpt.commit_s, f->ckpt.restore_s};
    }
    st_run_release(&run);
    return 0;
}

/* One LLM job of plan l: whole steps for a lognormal number of hours, plus its checkpoints'
 * stalls (one every every_s of training: the failure-free life's wall). */
static st_cluster_job llm_job(const llm_plan *l, double submit, double hours)
{
    double steps = ceil(hours * 3600 / l->step_s), work = steps * l->step_s;
    double d = work + floor(work / l->every_s) * l->stall_s;
    return (st_cluster_job){submit, d, d, l->gpus, 0, -1};
}

/* The million jobs. On n_pools > 1 pools, job i runs on pool i mod n_pools (round robin, drawing
 * nothing, so the draws and the jobs' mix are the one-type year's) and an LLM job at its pool's
 * plan. */
static st_cluster_job *year_jobs(const st_trace_cfg *t, year_ctx *y, size_t n, int n_pools)
{
    st_cluster_job *j = st_xcalloc(n, sizeof *j);
    y->cls = st_xcalloc(n, 1);
    y->pool = n_pools > 1 ? st_xcalloc(n, sizeof *y->pool) : NULL;
    st_rng *r = st_rng_new(1, st_rng_tag("bench-year"), 0, st_rng_tag("jobs"));
    double at = 0, gap = 365 * 86400.0 / (double)n;
    for (size_t i = 0; i < n; i++) {
        at += st_rng_exponential(r, gap);
        int q = (int)(i % (size_t)n_pools);
        if (y->pool)
            y->pool[i] = q;
        y->cls[i] = -1;
        if (st_rng_uniform(r) < 0.05) {
            double u = st_rng_uniform(r);
            int k = u < llm_share[0] ? 0 : u < llm_share[0] + llm_share[1] ? 1 : 2;
            y->cls[i] = (signed char)(q * N_LLM + k);
            j[i] =
                llm_job(&y->plan[y->cls[i]], at, llm_median_h[k] * exp(st_rng_normal(r, 0, 0.5)));
            continue;
        }
        const st_trace_job *p = &t->jobs[st_rng_uniform_int(r, (uint32_t)t->n_jobs)];
        j[i] = (st_cluster_job){at, p->duration_s, p->duration_s, p->gpus, 0, p->tenant};
    }
    st_rng_free(r);
    return j;
}

/* The year on n_pools pools (1: one type), printed as case `label`. */
static int year_case(const char *label, int n_pools)
{
    double t0 = now_s();
    st_scn *s = NULL, *ph = NULL;
    st_diag d = {0};
    static char text[8192];
    size_t len = year_yaml(text, sizeof text, n_pools);
    if (!len || st_scn_load_buffer("./synthetic-year.yaml", text, len, &s, &d) ||
        st_scn_load_buffer("./philly-full.yaml", yaml, strlen(yaml), &ph, &d)) {
        fprintf(stderr, "bench_cluster: run from the source folder (the trace did not load)\n");
        return 1;
    }
    const st_trace_cfg *philly_trace = st_scn_trace(ph);
    year_ctx y = {0};
    if (year_plans(s, &y, n_pools))
        return 1;
    size_t n = 1000000;
    st_cluster_job *jobs = year_jobs(philly_trace, &y, n, n_pools);
    /* Llama 3's per-component rates (Table 5 over 54 days of 16,384 GPUs). */
    static const st_failure_class rates[] = {{"gpu", 79230 * 3600.0, 1, -1, {0}, {0}},
                                             {"node", 24351 * 3600.0, 1, -1, {0}, {0}},
                                             {"nic", 3033381 * 3600.0, 1, -1, {0}, {0}},
                                             {"leaf_switch", 37917 * 3600.0, 1, -1, {0}, {0}}};
    st_failures_cfg fail = {rates, 4, 5 * 60.0, 10 * 60.0, 1, {0}, 0, 0, 0, {0}};
    st_outage_class oc[4];
    st_outage_spec os = {oc, st_outage_classes(st_scn_cluster(s), &fail, oc), fail.detect_s,
                         fail.restart_s};
    st_cluster_spec sp = {.c = st_scn_cluster(s),
                          .policy = "backfill",
                          .placement = "best-fit",
                          .jobs = jobs,
                          .n = n,
                          .seed = 1,
                          .preempt_cost = year_cost,
                          .ctx = &y,
                          .outages = &os,
                          .restorable = year_restorable,
                          .pool = y.pool};
    st_cluster_result r;
    st_err err = {0};
    int rc = st_cluster_run(&sp, &r, &err);
    double wall = now_s() - t0;
    if (rc)
        fprintf(stderr, "bench_cluster: year: %s\n", err.msg);
    else
        printf("case: %s wall_s: %.3f events_per_s: %.4g rss_mb: %.1f\n", label, wall,
               (double)r.st.events / wall, rss_mb());
    fprintf(stderr,
            "  %zu jobs, %zu finished, makespan %.1f d, utilisation %.1f%%, mean wait %.0f s, "
            "%lld failures, %lld interruptions, %.0f h lost, %llu events\n",
            r.st.jobs, r.st.finished, r.st.makespan_s / 86400, r.st.utilization * 100,
            r.st.mean_wait_s, (long long)r.st.failures, (long long)r.st.interruptions,
            r.st.lost_work_s / 3600, (unsigned long long)r.st.events);
    st_cluster_result_release(&r);
    free(jobs);
    free(y.cls);
    free(y.pool);
    st_scn_free(s);
    st_scn_free(ph);
    return rc;
}

/* ---- (c) compare's policies on the Philly example ------------------------------------------ */

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Minor page faults so far: first touches of memory the run allocates. */
static long minflt(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* Each policy as `strata compare` runs it (st_plan_run_spec at the scenario's seed), the trace
 * loaded once as the command loads it; the time is the runs', each policy's on its own line. */
static int compare_philly_512(const char *only, int reps)
{
    st_scn *s = NULL;
    st_diag d = {0};
    if (st_scn_load_file("scenarios/examples/philly-512gpu.yaml", &s, &d)) {
        fprintf(stderr, "bench_cluster: run from the source folder (the example did not load)\n");
        return 1;
    }
    double t0 = now_s(), c0 = cpu_s();
    size_t k = 0, ran = 0;
    for (; st_sched_policy_names[k]; k++) {
        if (only && strcmp(only, st_sched_policy_names[k]) != 0)
            continue;
        for (int r = 0; r < reps; r++, ran++) {
            st_run_spec spec = st_plan_run_spec(s, st_scn_seed(s));
            spec.policy = st_sched_policy_names[k];
            st_run run;
            st_err err = {0};
            double t1 = now_s(), c1 = cpu_s();
            long f1 = minflt();
            if (st_run_forecast(&spec, &run, &err)) {
                fprintf(stderr, "bench_cluster: compare: %s\n", err.msg);
                st_scn_free(s);
                return 1;
            }
            uint64_t events = run.cluster.st.events;
            st_run_release(&run);
            printf(
                "case: compare-philly-512-%s wall_s: %.4f cpu_s: %.4f faults: %ld events: %llu\n",
                spec.policy, now_s() - t1, cpu_s() - c1, minflt() - f1, (unsigned long long)events);
        }
    }
    st_scn_free(s);
    if (only && !ran) {
        fprintf(stderr, "bench_cluster: compare: no policy '%s'\n", only);
        return 1;
    }
    if (!only)
        printf("case: compare-philly-512 policies: %zu wall_s: %.4f cpu_s: %.4f rss_mb: %.1f\n", k,
               now_s() - t0, cpu_s() - c0, rss_mb());
    return 0;
}

/* ---- trace-load: reading a large trace ------------------------------------------------------
 * A generated CSV of ROWS jobs (default 1,000,000) over TENANTS tenants (default 100,000,
 * first seen in a scrambled order), loaded as a scenario's trace: the tenant lookup and the
 * reader's memory, which grew with the file. `bench_cluster trace-load [ROWS TENANTS]`; rss_mb
 * is the resident memory the loaded scenario holds (peak_rss_mb the process's peak). */

/* Resident memory now, from /proc (MB; 0 where there is none). */
static double rss_now_mb(void)
{
    long pages = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &pages, &res) != 2)
        res = 0;
    fclose(f);
    return (double)res * 4096 / 1048576;
}

static int trace_load(long rows, long tenants)
{
    char dir[] = "/tmp/bench-trace-XXXXXX", path[64], text[256];
    if (!mkdtemp(dir))
        return perror("bench_cluster: mkdtemp"), 1;
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return perror("bench_cluster: trace"), 1;
    fputs("submit,duration,gpus,tenant\n", f);
    for (long i = 0; i < rows; i++) /* 7919 is prime: tenants first appear scrambled */
        fprintf(f, "%ld,%ld,%ld,tenant-%ld\n", i * 3, 600 + i % 7200, 1 + i % 8,
                (i * 7919) % tenants);
    if (fclose(f))
        return perror("bench_cluster: trace"), 1;
    snprintf(text, sizeof text,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 64 }\ntrace: { file: %s }\n", path);
    st_scn *s = NULL;
    st_diag d = {0};
    double rss0 = rss_now_mb(), c0 = cpu_s(), t0 = now_s();
    int rc = st_scn_load_buffer("trace-load.yaml", text, strlen(text), &s, &d);
    double wall = now_s() - t0, cpu = cpu_s() - c0, rss = rss_now_mb() - rss0;
    if (rc)
        fprintf(stderr, "bench_cluster: trace-load: %s\n", d.n ? d.items[0].msg : "?");
    else
        printf("case: trace-load rows: %ld tenants: %zu wall_s: %.3f cpu_s: %.3f rss_mb: %.1f "
               "peak_rss_mb: %.1f\n",
               rows, st_scn_trace(s)->n_tenants, wall, cpu, rss, rss_mb());
    st_scn_free(s);
    remove(path);
    rmdir(dir);
    return rc != 0;
}

/* ---- (d) many workloads in one scenario ---------------------------------------------------- */

/* n training workloads of `nodes` 8-GPU nodes each on n x nodes nodes, `fabric` the cluster's
 * fabric mapping; the run's CPU time. */
static int workloads_case(const char *label, int n, int nodes, const char *fabric)
{
    size_t cap = 512 + (size_t)n * 320, at = 0;
    char *y = st_xmalloc(cap);
    at += (size_t)snprintf(y + at, cap - at,
                           "version: 1\nname: many\ncluster:\n  gpu: h100-sxm\n  nodes: %d\n"
                           "  gpus_per_node: 8\n  fabric: %s\nworkloads:\n",
                           n * nodes, fabric);
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(
            y + at, cap - at,
            "  - { name: j%d, model: llama3-8b, seq_len: 4096, global_batch: "
            "%d, precision: bf16, gpus: %d, tokens: %d00000000, parallel: { tp: 1, pp: 1, dp: "
            "%d, zero: 1, microbatch: 1 } }\n",
            i, 16 * nodes, 8 * nodes, 1 + i % 7, 8 * nodes);
    st_scn *s = NULL;
    st_diag d = {0};
    if (st_scn_load_buffer("many.yaml", y, at, &s, &d)) {
        fprintf(stderr, "bench_cluster: %s did not load\n", label);
        return 1;
    }
    free(y);
    st_run_spec spec = st_plan_run_spec(s, 1); /* as `strata run` forecasts it */
    st_run run;
    st_err err = {0};
    clock_t c0 = clock();
    if (st_run_forecast(&spec, &run, &err)) {
        fprintf(stderr, "bench_cluster: %s: %s\n", label, err.msg);
        return 1;
    }
    printf("case: workloads-%s jobs: %d cpu_s: %.3f\n", label, n,
           (double)(clock() - c0) / CLOCKS_PER_SEC);
    st_run_release(&run);
    st_scn_free(s);
    return 0;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int rc = 0;
    if (!only || strcmp(only, "philly") == 0)
        rc = philly(yaml, "philly");
    if (!rc && (!only || strcmp(only, "philly") == 0 || strcmp(only, "philly-mapped") == 0))
        rc = philly(mapped_yaml, "philly-mapped");
    if (!rc && (!only || strcmp(only, "year") == 0))
        rc = year_case("year-100k-1m-backfill", 1);
    if (!rc && (!only || strcmp(only, "year") == 0 || strcmp(only, "year-3pools") == 0))
        rc = year_case("year-100k-1m-3pools", N_YEAR_POOLS);
    if (!rc && (!only || strcmp(only, "compare") == 0))
        rc = compare_philly_512(only && argc > 2 ? argv[2] : NULL, argc > 3 ? atoi(argv[3]) : 1);
    if (!rc && (!only || strcmp(only, "trace-load") == 0))
        rc = trace_load(argc > 3 ? atol(argv[2]) : 1000000, argc > 3 ? atol(argv[3]) : 100000);
    if (!rc && (!only || strcmp(only, "workloads") == 0))
        rc = workloads_case("4000x1node", 4000, 1, "{}");
    /* twice the jobs: its CPU time over the 4000's says how the run grows (2 when linear) */
    if (!rc && (!only || strcmp(only, "workloads") == 0))
        rc = workloads_case("8000x1node", 8000, 1, "{}");
    if (!rc && (!only || strcmp(only, "workloads") == 0))
        rc = workloads_case("400x3nodes-chain", 400, 3,
                            "{ nodes_per_leaf: 2, oversubscription: 3 }");
    return rc;
}
