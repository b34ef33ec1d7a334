/* The scheduler orderings of issue 18 (`strata validate --sched`): published traces replayed
 * through the cluster run (models/sched/cluster.h) under several policies, each row an ordering
 * of their mean JCT that the literature reports and that must hold. The case files are the
 * scenarios of scenarios/validation/sched/ (their comments give the setups); what is replayed
 * beyond their cluster and trace (the service factor) sits in the case table below. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/cluster.h"
#include "models/sched/muri.h"
#include "scenarios/scenario.h"
#include "sim/xalloc.h"
#include "validate/validate_internal.h"

/* Muri's simulator (repository Rivendile/Muri, simulator/jobs.py, the Tiresias-derived runtime
 * model of its baselines) charges every job its iterations x iteration time x 1.015 of service;
 * the Philly replay keeps the recorded durations. */
#define MURI_SERVICE 1.015
#define HELIOS_SRC   "Hu et al. SC'21 s5 (Helios); Gu et al. NSDI'19 s6"
#define HELIOS(kind, vc, nodes)                                                                    \
    {                                                                                              \
        "philly-helios.yaml", 1, kind, vc, nodes, {"srtf", "sjf", "fifo"}, HELIOS_SRC              \
    }
/* A light VC is policy-independent: its mean JCTs under the three policies within 1%. */
#define HELIOS_SAME     1.01
#define MURI_REPLAY_SRC "Zhao et al. SIGCOMM'22 s6; Rivendile/Muri simulator"
/* A replay row: SRSF, SRTF and Tiresias-L (`tiresias`: the artifact's dlas-gpu), the order of
 * Muri's table of baselines. */
#define MURI_REPLAY(file)                                                                          \
    {                                                                                              \
        file, 1, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, MURI_REPLAY_SRC                     \
    }

/* The Helios setup on Philly (Hu et al., "Characterization and Prediction of Deep Learning
 * Workloads in Large-Scale GPU Datacenters", SC'21; repository S-Lab-System-Group/HeliosArtifact,
 * framework/QSSF Service): one cluster per virtual cluster (VC), its nodes of 8 GPUs from
 * data/philly_vc.csv, the jobs submitted from 2017-10-01 00:00 to 2017-11-30 23:59 (seconds from
 * the job list's first submission, 2017-09-04 10:30:41 UTC). This job list loads those VCs at
 * 5-37% of their GPUs, so a busy row shrinks its VC to a quarter of its nodes (a protocol
 * choice, as the trace's Pollux and Sia users shrink the cluster): 72-148% loaded, they queue. */
#define HELIOS_FROM_S 2294959
#define HELIOS_TO_S   7565299
#define HELIOS_SHRINK 4
enum { PLAIN, HELIOS_BUSY, HELIOS_LIGHT };
/* Muri's table of baselines orders mean JCT SRSF < SRTF < Tiresias-L on its traces. */
#define TIRESIAS_L "Zhao et al. SIGCOMM'22 s6, Tiresias-L"

static const struct {
    const char *file;                         /* in the harness's folder */
    double service;                           /* run time = recorded duration x this */
    int helios;                               /* PLAIN, or a Helios VC row */
    const char *vc;                           /* its VC */
    int64_t nodes;                            /* its nodes in philly_vc.csv */
    const char *policies[ST_VALID_MAX_ORDER]; /* claimed order of mean JCT, lowest first */
    const char *source;
} sched_case[] = {
    {"philly-64x8.yaml",
     1,
     PLAIN,
     NULL,
     0,
     {"srtf", "sjf", "fifo"},
     "Gu et al. NSDI'19 s6; Hu et al. SC'21 s5"},
    /* Helios VCs (load on their own nodes, Oct-Nov 2017): the busiest shrunk, the lightest as
     * they are, where no job waits long enough for the order to matter */
    HELIOS(HELIOS_BUSY, "ee9e8c", 64),  /* 27% */
    HELIOS(HELIOS_BUSY, "7f04ca", 32),  /* 25% */
    HELIOS(HELIOS_BUSY, "2869ce", 16),  /* 37% */
    HELIOS(HELIOS_BUSY, "103959", 8),   /* 34% */
    HELIOS(HELIOS_BUSY, "0e4a51", 32),  /* 19% */
    HELIOS(HELIOS_BUSY, "6c71a0", 32),  /* 18% */
    HELIOS(HELIOS_LIGHT, "6214e9", 64), /* 9% */
    HELIOS(HELIOS_LIGHT, "b436b2", 64), /* 6% */
    HELIOS(HELIOS_LIGHT, "e13805", 16), /* 5% */
    HELIOS(HELIOS_LIGHT, "ed69ec", 8),  /* 8% */
    {"muri-trace1.yaml",
     MURI_SERVICE,
     PLAIN,
     NULL,
     0,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace2.yaml",
     MURI_SERVICE,
     PLAIN,
     NULL,
     0,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace3.yaml",
     MURI_SERVICE,
     PLAIN,
     NULL,
     0,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace4.yaml",
     MURI_SERVICE,
     PLAIN,
     NULL,
     0,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    /* `replay: muri`: the artifact's own runtime model and queue rules (models/sched/muri.h),
     * on the four traces and their batch-arrival twins */
    MURI_REPLAY("muri-replay-trace1.yaml"),
    MURI_REPLAY("muri-replay-trace2.yaml"),
    MURI_REPLAY("muri-replay-trace3.yaml"),
    MURI_REPLAY("muri-replay-trace4.yaml"),
    MURI_REPLAY("muri-replay-pr1.yaml"),
    MURI_REPLAY("muri-replay-pr2.yaml"),
    MURI_REPLAY("muri-replay-pr3.yaml"),
    MURI_REPLAY("muri-replay-pr4.yaml"),
    /* Tiresias-L (the artifact's dlas-gpu: tiresias at its defaults, models/sched/tiresias.c) */
    {"muri-trace1.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace2.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace3.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace4.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    /* the same jobs, all submitted at t = 0 (the artifact's traceN_pr.csv) */
    {"muri-pr1.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr2.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr3.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr4.yaml", MURI_SERVICE, PLAIN, NULL, 0, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
};

#define N_CASES (sizeof sched_case / sizeof sched_case[0])

/* The scenario's trace as cluster jobs, every duration times service. */
static st_cluster_job *trace_jobs(const st_trace_cfg *t, double service)
{
    st_cluster_job *j = st_xcalloc(t->n_jobs ? t->n_jobs : 1, sizeof *j);
    for (size_t k = 0; k < t->n_jobs; k++) {
        double d = t->jobs[k].duration_s * service;
        j[k] = (st_cluster_job){t->jobs[k].submit_s, d, d, t->jobs[k].gpus, 0, t->jobs[k].tenant};
    }
    return j;
}

/* Mean JCT of the jobs under policy, run to the end (no horizon). */
static int mean_jct(const st_scn *s, const st_cluster_cfg *c, const st_cluster_job *jobs, size_t n,
                    const char *policy, double *out, st_err *err)
{
    st_cluster_spec sp = {.c = c,
                          .sched = st_scn_sched(s),
                          .policy = policy,
                          .jobs = jobs,
                          .n = n,
                          .seed = st_scn_seed(s),
                          .tenants = st_scn_trace(s)->tenants,
                          .n_tenants = st_scn_trace(s)->n_tenants};
    st_cluster_result r;
    int rc = st_cluster_run(&sp, &r, err);
    *out = r.st.mean_jct_s;
    if (!rc && r.st.finished + r.st.too_big < n)
        rc = st_err_set(err, ST_EINVAL, (st_loc){0}, "%s: %zu jobs unfinished under %s",
                        st_scn_name(s), n - r.st.finished - r.st.too_big, policy);
    st_cluster_result_release(&r);
    return rc;
}

/* Mean JCT of the trace replayed with Muri's conventions under `policy` (srtf, srsf or
 * tiresias). */
static int muri_jct(const st_scn *s, const char *policy, double *out, st_err *err)
{
    const st_trace_cfg *t = st_scn_trace(s);
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_muri_job *j = st_xcalloc(t->n_jobs ? t->n_jobs : 1, sizeof *j);
    for (size_t k = 0; k < t->n_jobs; k++) {
        const st_trace_job *tj = &t->jobs[k];
        const char *model = tj->cls >= 0 ? t->classes[tj->cls] : NULL;
        j[k] = (st_muri_job){tj->submit_s,
                             tj->iterations,
                             tj->iteration_s,
                             tj->gpus,
                             st_muri_overhead_s(model, tj->gpus),
                             {t->file, tj->line, 1}};
    }
    st_cluster_stats st = {0};
    st_muri_order o;
    int rc = st_muri_order_of(policy, &o)
                 ? st_err_set(err, ST_EINVAL, (st_loc){0}, "Muri replay: no %s", policy)
                 : st_muri_replay(j, t->n_jobs, c->nodes, c->gpus_per_node, o, &st, err);
    *out = st.mean_jct_s;
    free(j);
    return rc;
}

/* A Helios row's jobs (its VC's, in the window) and its cluster (its nodes, shrunk when busy);
 * *n their count. */
static st_cluster_job *helios_jobs(const st_trace_cfg *t, size_t i, const st_cluster_job *all,
                                   size_t *n)
{
    st_cluster_job *j = st_xcalloc(t->n_jobs ? t->n_jobs : 1, sizeof *j);
    *n = 0;
    for (size_t k = 0; k < t->n_jobs; k++)
        if (all[k].tenant >= 0 && strcmp(t->tenants[all[k].tenant], sched_case[i].vc) == 0 &&
            all[k].submit_s >= HELIOS_FROM_S && all[k].submit_s <= HELIOS_TO_S)
            j[(*n)++] = all[k];
    return j;
}

/* The row's verdict: an ordering rises strictly; a light VC's figures agree within HELIOS_SAME
 * (predicted: the largest over the smallest). */
static void judge(size_t i, st_valid_row *r, int rc)
{
    if (sched_case[i].helios == HELIOS_LIGHT) {
        double lo = INFINITY, hi = 0;
        for (int k = 0; k < r->n_order; k++)
            lo = fmin(lo, r->order_value[k]), hi = fmax(hi, r->order_value[k]);
        r->bound_kind = ST_VALID_BOUND_FACTOR;
        r->bound = HELIOS_SAME;
        r->predicted = lo > 0 ? hi / lo : INFINITY;
        r->error = r->predicted - 1;
        r->pass = !rc && r->predicted <= HELIOS_SAME;
        return;
    }
    /* predicted: the largest ratio of a policy's mean JCT to the next one's; below 1 passes. */
    for (int k = 0; k + 1 < r->n_order; k++)
        r->predicted = fmax(r->predicted, r->order_value[k] / r->order_value[k + 1]);
    r->error = r->predicted - 1;
    r->pass = !rc && r->predicted < 1;
}

static int run_sched(const st_valid_harness *h, size_t i, st_valid_row *r, st_diag *d, st_err *err)
{
    const char *path = h->files[i];
    st_scn *s = NULL;
    if (st_scn_load_file(path, &s, d))
        return -1;
    if (!st_scn_trace(s)) {
        st_scn_free(s);
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "%s: no trace: section", path);
    }
    const st_trace_cfg *t = st_scn_trace(s);
    st_cluster_job *jobs = trace_jobs(t, sched_case[i].service);
    size_t n = t->n_jobs;
    st_cluster_cfg c = *st_scn_cluster(s);
    int rc = 0;
    snprintf(r->name, sizeof r->name, "%s%s", st_scn_name(s),
             strcmp(sched_case[i].source, TIRESIAS_L) == 0 ? "-tl" : "");
    if (sched_case[i].helios != PLAIN) {
        st_cluster_job *vc = helios_jobs(t, i, jobs, &n);
        free(jobs);
        jobs = vc;
        c.nodes = sched_case[i].nodes / (sched_case[i].helios == HELIOS_BUSY ? HELIOS_SHRINK : 1);
        snprintf(r->name, sizeof r->name, "helios-%s-%lldx8", sched_case[i].vc, (long long)c.nodes);
    }
    snprintf(r->set, sizeof r->set, "sched");
    snprintf(r->metric, sizeof r->metric, "mean JCT h");
    snprintf(r->source, sizeof r->source, "%s", sched_case[i].source);
    r->bound_kind = ST_VALID_BOUND_ORDER;
    r->published = 1;
    for (int k = 0; k < ST_VALID_MAX_ORDER && sched_case[i].policies[k] && !rc; k++) {
        r->order[k] = sched_case[i].policies[k];
        rc = t->replay == ST_REPLAY_MURI
                 ? muri_jct(s, r->order[k], &r->order_value[k], err)
                 : mean_jct(s, &c, jobs, n, r->order[k], &r->order_value[k], err);
        r->n_order = k + 1;
    }
    judge(i, r, rc);
    free(jobs);
    st_scn_free(s);
    return rc;
}

static const st__valid_ops sched_ops = {.run = run_sched};

st_valid_harness *st_valid_sched_new(const char *dir)
{
    st_valid_harness *h = st__valid_harness_new(&sched_ops, N_CASES);
    h->files = st_xcalloc(N_CASES, sizeof *h->files);
    for (size_t i = 0; i < N_CASES; i++) {
        h->files[i] = st_xmalloc(strlen(dir) + strlen(sched_case[i].file) + 2);
        sprintf(h->files[i], "%s/%s", dir, sched_case[i].file);
    }
    return h;
}
