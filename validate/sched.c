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
#include "scenarios/scenario.h"
#include "sim/xalloc.h"
#include "validate/validate_internal.h"

/* Muri's simulator (repository Rivendile/Muri, simulator/jobs.py, the Tiresias-derived runtime
 * model of its baselines) charges every job its iterations x iteration time x 1.015 of service;
 * the Philly replay keeps the recorded durations. */
#define MURI_SERVICE 1.015
/* Muri's table of baselines orders mean JCT SRSF < SRTF < Tiresias-L on its traces. */
#define TIRESIAS_L "Zhao et al. SIGCOMM'22 s6, Tiresias-L"

static const struct {
    const char *file;                         /* in the harness's folder */
    double service;                           /* run time = recorded duration x this */
    const char *policies[ST_VALID_MAX_ORDER]; /* claimed order of mean JCT, lowest first */
    const char *source;
} sched_case[] = {
    {"philly-64x8.yaml", 1, {"srtf", "sjf", "fifo"}, "Gu et al. NSDI'19 s6; Hu et al. SC'21 s5"},
    {"muri-trace1.yaml",
     MURI_SERVICE,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace2.yaml",
     MURI_SERVICE,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace3.yaml",
     MURI_SERVICE,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    {"muri-trace4.yaml",
     MURI_SERVICE,
     {"srsf", "srtf", "sjf", "fifo"},
     "Zhao et al. SIGCOMM'22 s6"},
    /* Tiresias-L (the artifact's dlas-gpu: tiresias at its defaults, models/sched/tiresias.c) */
    {"muri-trace1.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace2.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace3.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-trace4.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    /* the same jobs, all submitted at t = 0 (the artifact's traceN_pr.csv) */
    {"muri-pr1.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr2.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr3.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
    {"muri-pr4.yaml", MURI_SERVICE, {"srsf", "srtf", "tiresias"}, TIRESIAS_L},
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
static int mean_jct(const st_scn *s, const st_cluster_job *jobs, size_t n, const char *policy,
                    double *out, st_err *err)
{
    st_cluster_spec sp = {.c = st_scn_cluster(s),
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
    int rc = 0;
    snprintf(r->name, sizeof r->name, "%s%s", st_scn_name(s),
             strcmp(sched_case[i].source, TIRESIAS_L) == 0 ? "-tl" : "");
    snprintf(r->set, sizeof r->set, "sched");
    snprintf(r->metric, sizeof r->metric, "mean JCT h");
    snprintf(r->source, sizeof r->source, "%s", sched_case[i].source);
    r->bound_kind = ST_VALID_BOUND_ORDER;
    r->published = 1;
    for (int k = 0; k < ST_VALID_MAX_ORDER && sched_case[i].policies[k] && !rc; k++) {
        r->order[k] = sched_case[i].policies[k];
        rc = mean_jct(s, jobs, t->n_jobs, r->order[k], &r->order_value[k], err);
        r->n_order = k + 1;
    }
    /* predicted: the largest ratio of a policy's mean JCT to the next one's; below 1 passes. */
    for (int k = 0; k + 1 < r->n_order; k++)
        r->predicted = fmax(r->predicted, r->order_value[k] / r->order_value[k + 1]);
    r->error = r->predicted - 1;
    r->pass = !rc && r->predicted < 1;
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
