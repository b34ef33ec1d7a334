/* Benchmark: max-min solves of ring all-reduce transfers on a 4096-node, 8-GPU, 8-NIC spine-leaf
 * fabric, and an incremental solve among many disjoint entities. Prints one line per case:
 * `case: NAME members: M links: L route_ms: X solve_ms: Y start_ms: Z finish_ms: W`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "models/fabric/maxmin.h"
#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"

enum { NODES = 4096, GPN = 8 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static st_topo *make_topo(void)
{
    static const st_gpu_spec gpu = {.name = "bench", .nvlink_bw = 900e9};
    st_cluster_cfg c = {
        .gpu = &gpu,
        .nodes = NODES,
        .gpus_per_node = GPN,
        .nvlink_domain = GPN,
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = 50e9,
                   .nics_per_node = GPN,
                   .nodes_per_leaf = 32,
                   .transport = ST_TRANSPORT_ROCE_V2,
                   .routing = ST_ROUTING_ECMP,
                   .link_latency_s = 1e-6,
                   .switch_latency_s = 0.5e-6},
    };
    st_topo *t = NULL;
    st_err err = {0};
    if (st_topo_new(&c, &t, &err) != 0) {
        fprintf(stderr, "bench_maxmin: %s\n", err.msg);
        exit(1);
    }
    return t;
}

/* `rails` rings of 4096 ranks: ring k links local GPU k of node r to local GPU k of node r + 1,
 * which the fabric carries over NIC k (the GPUs are on different NVLink domains). */
static size_t ring(int rails, int64_t *src, int64_t *dst)
{
    size_t n = 0;
    for (int k = 0; k < rails; k++)
        for (int64_t r = 0; r < NODES; r++, n++) {
            src[n] = r * GPN + k;
            dst[n] = ((r + 1) % NODES) * GPN + k;
        }
    return n;
}

/* The solver alone: route every member, then time one add + solve and one remove + solve. */
static void bench_solver(const st_topo *t, const char *name, int rails)
{
    int64_t *src = malloc(sizeof *src * NODES * GPN), *dst = malloc(sizeof *dst * NODES * GPN);
    size_t n = ring(rails, src, dst);
    int32_t *links = malloc(sizeof *links * n * ST_TOPO_MAX_HOPS);
    st_maxmin *m = st_maxmin_new(st_topo_link_count(t), st_topo_capacities(t));
    double t0 = now_s();
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)st_topo_route(t, src[i], dst[i], st_topo_flow_key(1, i), links + total,
                                       ST_TOPO_MAX_HOPS, NULL);
    double t1 = now_s();
    int64_t id = st_maxmin_add(m, links, NULL, (int)total);
    st_maxmin_solve(m, NULL);
    double t2 = now_s();
    double rate = st_maxmin_rate(m, id);
    size_t solved = st_maxmin_solved_links(m, NULL);
    st_maxmin_remove(m, id);
    st_maxmin_solve(m, NULL);
    double t3 = now_s();
    printf("case: solver-%s members: %zu links: %zu route_ms: %.3f solve_ms: %.3f "
           "finish_ms: %.3f rate_gbps: %.3f\n",
           name, n, solved, 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2), rate * 8e-9);
    st_maxmin_free(m);
    free(links);
    free(src);
    free(dst);
}

/* The whole path through st_net: st_net_start (routes, collisions, solve, event) and the run to
 * completion (remove, solve, done). */
static void bench_net(const st_topo *t, const char *name, int rails)
{
    int64_t *src = malloc(sizeof *src * NODES * GPN), *dst = malloc(sizeof *dst * NODES * GPN);
    size_t n = ring(rails, src, dst);
    st_engine *eng = st_engine_new();
    st_net *net = st_net_new(eng, t);
    st_xfer_spec s = {.src = src, .dst = dst, .n = n, .bytes = 1e9, .key = 1};
    double t0 = now_s();
    st_net_start(net, &s);
    double t1 = now_s();
    st_engine_run(eng, ST_TIME_MAX);
    double t2 = now_s();
    printf("case: net-%s members: %zu start_ms: %.3f finish_ms: %.3f collisions: %llu "
           "max_util: %.3f sim_ms: %.6f\n",
           name, n, 1e3 * (t1 - t0), 1e3 * (t2 - t1), (unsigned long long)st_net_collisions(net),
           st_net_max_utilization(net), (double)st_engine_now(eng) / 1e6);
    st_net_free(net);
    st_engine_free(eng);
    free(src);
    free(dst);
}

/* 10^4 entities on disjoint links, then one more on one of them: the solve visits two. */
static void bench_incremental(void)
{
    enum { N = 10000, REPS = 1000 };
    double *cap = malloc(sizeof *cap * N);
    for (int i = 0; i < N; i++)
        cap[i] = 50e9;
    st_maxmin *m = st_maxmin_new(N, cap);
    for (int32_t i = 0; i < N; i++)
        st_maxmin_add(m, &i, NULL, 1);
    st_maxmin_solve(m, NULL);
    double t0 = now_s();
    for (int r = 0; r < REPS; r++) {
        int32_t l = (int32_t)(r * 7 % N);
        int64_t id = st_maxmin_add(m, &l, NULL, 1);
        st_maxmin_solve(m, NULL);
        st_maxmin_remove(m, id);
        st_maxmin_solve(m, NULL);
    }
    double t1 = now_s();
    printf("case: disjoint-1e4 entities: %d solved_entities: %zu us_per_add_remove: %.3f\n", N,
           st_maxmin_solved_entities(m), 1e6 * (t1 - t0) / REPS);
    st_maxmin_free(m);
    free(cap);
}

int main(void)
{
    st_topo *t = make_topo();
    bench_solver(t, "ring-4096", 1);
    bench_solver(t, "ring-8x4096", GPN);
    bench_net(t, "ring-4096", 1);
    bench_net(t, "ring-8x4096", GPN);
    bench_incremental();
    st_topo_free(t);
    return 0;
}
