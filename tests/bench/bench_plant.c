/* The plant's facility waveform at scale: 100,000 H100s in 12,500 nodes and 3,125 racks, ten
 * training jobs of 10,000 GPUs with steps from 1.3 to 7.1 s, one simulated hour at 1 ms (3.6
 * million samples), distribution losses on, then its FFT. Prints
 * `case: waveform-100k wall_s: X rss_mb: Y` (goal: under 2 s and 200 MB). Then the thermal
 * throttle's solve over many small jobs, 2,000 of one node each (`case: throttle-2000jobs
 * jobs: N cpu_s: X`): each job's trial clocks once recomputed every rack and junction of the
 * cluster, so 800 jobs took 37 s in `strata run`; now its own racks (well under a second). And
 * one job start's solve among the jobs its racks reach (`case: throttle-one-start jobs: N
 * cpu_s_per_start: X`), where each start once solved all 2,000. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "models/plant/plant.h"
#include "models/plant/thermal.h"
#include "scenarios/catalog.h"

#define JOBS     10
#define JOB_GPUS 10000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* nodes DGX H100s, four to a rack on 63 A three-phase feeds. */
static st_cluster_cfg h100_cluster(int64_t nodes)
{
    st_cluster_cfg c = {0};
    c.gpu = st_catalog_gpu("h100-sxm");
    c.nodes = nodes;
    c.gpus_per_node = 8;
    c.node.base_power_w = 2500;
    c.racks = (st_rack_cfg){.nodes_per_rack = 4,
                            .feed_voltage_v = 415,
                            .feed_phases = 3,
                            .power_factor = 0.95,
                            .breaker_a = 63};
    return c;
}

/* 2,000 jobs of 8 GPUs, one a node, on 2,000 nodes: the throttle's solve alone, CPU time. */
static int throttle_many(void)
{
    enum { N = 2000 };
    st_cluster_cfg c = h100_cluster(N);
    int64_t *ids = malloc((size_t)N * 8 * sizeof *ids);
    st_step_result *steps = calloc(N, sizeof *steps);
    st_plant_job *jobs = calloc(N, sizeof *jobs);
    double *clock_f = calloc(N, sizeof *clock_f);
    if (!ids || !steps || !jobs || !clock_f)
        return 1;
    for (int j = 0; j < N; j++) {
        for (int g = 0; g < 8; g++)
            ids[j * 8 + g] = (int64_t)j * 8 + g;
        st_step_breakdown *b = &steps[j].b;
        b->compute_s = 1.0 + 0.001 * j;
        b->tp_comm_s = 0.1;
        b->optimizer_s = 0.01;
        steps[j].step_time_s = b->compute_s + b->tp_comm_s + b->optimizer_s;
        jobs[j] = (st_plant_job){&steps[j], ids + j * 8, 8, (uint64_t)j, 1, 0};
    }
    clock_t t0 = clock();
    st_plant_throttle(&c, jobs, N, clock_f);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("case: throttle-2000jobs jobs: %d cpu_s: %.4f clock0: %.4f\n", N, cpu, clock_f[0]);
    /* What `strata run` pays at each job start: that job's clock, solved among the jobs its
     * racks reach (st_plant_coupled) rather than among all 2,000, a hundred starts. */
    enum { STARTS = 100 };
    double one = 0;
    t0 = clock();
    for (int r = 0; r < STARTS; r++) {
        size_t me = (size_t)(r * 19) % N, kept = st_plant_coupled(&c, jobs, N, &me, 1);
        st_plant_throttle(&c, jobs, kept, clock_f);
        one += clock_f[me];
        for (int j = 0; j < N; j++) /* put the list back for the next start */
            jobs[j] = (st_plant_job){&steps[j], ids + j * 8, 8, (uint64_t)j, 1, 0};
    }
    cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("case: throttle-one-start jobs: %d starts: %d cpu_s_per_start: %.6f clock_mean: %.4f\n",
           N, STARTS, cpu / STARTS, one / STARTS);
    free(ids);
    free(steps);
    free(jobs);
    free(clock_f);
    return 0;
}

int main(void)
{
    st_cluster_cfg c = h100_cluster(12500);
    c.racks.distribution_resistance_ohm = 0.005;
    static int64_t ids[JOBS][JOB_GPUS];
    st_step_result steps[JOBS] = {0};
    st_plant_job jobs[JOBS];
    for (int j = 0; j < JOBS; j++) {
        for (int g = 0; g < JOB_GPUS; g++)
            ids[j][g] = (int64_t)j * JOB_GPUS + g;
        st_step_breakdown *b = &steps[j].b;
        b->compute_s = 0.8 + 0.4 * j;
        b->tp_comm_s = 0.1 + 0.02 * j;
        b->bubble_s = 0.2 + 0.1 * j;
        b->dp_comm_exposed_s = 0.15 + 0.05 * j;
        b->optimizer_s = 0.01;
        steps[j].step_time_s =
            b->compute_s + b->tp_comm_s + b->bubble_s + b->dp_comm_exposed_s + b->optimizer_s;
        jobs[j] = (st_plant_job){&steps[j], ids[j], JOB_GPUS, (uint64_t)j, 1, 0};
    }
    double t0 = now_s();
    st_plant_result r;
    st_err err = {0};
    if (st_plant_run_window(&c, jobs, JOBS, 1, 3600.0, &r, &err)) {
        fprintf(stderr, "bench_plant: %s\n", err.msg);
        return 1;
    }
    double wall = now_s() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("case: waveform-100k wall_s: %.3f rss_mb: %.1f peak_mw: %.3f swing_mw: %.3f hz: %.4f\n",
           wall, (double)ru.ru_maxrss / 1024.0, r.wave.peak_w / 1e6, r.wave.swing_w / 1e6,
           r.wave.dominant_hz);
    st_plant_release(&r);
    return throttle_many();
}
