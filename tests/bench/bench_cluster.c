/* The cluster run's throughput: the full Philly job list (82,247 jobs; scenarios/traces/philly)
 * on the trace's cluster, approximated as 311 x 8 GPUs (2,488 of Philly's 2,490; Strata's
 * clusters are uniform), under each registered policy with best-fit placement, and the load of
 * the trace itself. Run from the source folder. Prints
 * `case: NAME wall_s: X events_per_s: Y rss_mb: Z`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "models/forecast/run.h"
#include "models/sched/policy.h"
#include "scenarios/scenario.h"

static const char yaml[] = "version: 1\nname: philly-full\n"
                           "cluster: { gpu: h100-sxm, nodes: 311 }\n"
                           "trace: { file: scenarios/traces/philly/philly_jobs.csv, format: "
                           "philly }\n"
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

int main(void)
{
    st_scn *s = NULL;
    st_diag d = {0};
    double t0 = now_s();
    /* the scenario's folder is the working directory, so the relative path resolves there */
    if (st_scn_load_buffer("./philly-full.yaml", yaml, strlen(yaml), &s, &d)) {
        fprintf(stderr, "bench_cluster: run from the source folder (the trace did not load)\n");
        return 1;
    }
    printf("case: philly-load wall_s: %.4f events_per_s: 0 rss_mb: %.1f\n", now_s() - t0, rss_mb());
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
        if (st_run_forecast(&spec, &run, &err))
            return 1;
        double wall = now_s() - t0;
        printf("case: philly-2488gpu-%s wall_s: %.4f events_per_s: %.4g rss_mb: %.1f\n",
               st_sched_policy_names[k], wall, (double)run.cluster.st.events / wall, rss_mb());
        st_run_release(&run);
    }
    st_scn_free(s);
    return 0;
}
