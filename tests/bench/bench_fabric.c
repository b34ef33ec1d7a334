/* Benchmark: ring all-reduce of 1 GiB on two-tier spine-leaf fabrics of 400 Gbit/s links with
 * 1 us per link, one GPU per node (512 and 4096 ranks), hierarchical on 8-GPU nodes (512 x 8 and
 * 4096 x 8), and the 4096-rank ring at 2:1 oversubscription under ECMP. Each case runs in its own
 * process so that its peak RSS is its own. One line per case:
 * `case: NAME sim_s: X wall_s: Y rss_mb: Z analytic_s: A diff: D closed_s: T`, where the analytic
 * time uses the same step-synchronous semantics (every step waits for its slowest hop), D is
 * sim / analytic - 1, and T the seed's closed form (st_coll_plan). Usage: bench_fabric [CASE].
 *
 * The derated cases set the NIC at 400 Gbit/s and let the transport's goodput factor derate it,
 * so their analytic time uses the same factor and checks the simulation against its own inputs.
 * `simgrid-ring-512` is the input a reference simulator is given: 512 hosts, 32 per leaf, every
 * link 50 GB/s of goodput and 1 us (the NIC is set to 50 GB/s over the goodput factor), ring
 * all-reduce of 1 GiB in lockstep. Its analytic time, 2(n-1) (4 x 1 us + S / (n x 50 GB/s)), is
 * what SimGrid's flow model gives a ring of 2(n-1) rounds of point-to-point messages on that
 * platform (a fat-tree or cluster of 512 hosts with 50GBps/1us links) with its LV08 corrections
 * off: --cfg=network/latency-factor:1 --cfg=network/bandwidth-factor:1
 * --cfg=network/weight-S:0 (docs/models/fabric.md, "Step semantics"). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "models/fabric/collective.h"
#include "models/fabric/transport.h"

typedef struct bcase {
    const char *name;
    int64_t nodes, gpn;
    double oversub;
    st_routing routing;
    st_coll_algo algo;
    int raw; /* the NIC's goodput is exactly 50 GB/s (no transport derating) */
} bcase;

static const bcase cases[] = {
    {"ring-512", 512, 1, 1, ST_ROUTING_ADAPTIVE, ST_COLL_RING, 0},
    {"ring-4096", 4096, 1, 1, ST_ROUTING_ADAPTIVE, ST_COLL_RING, 0},
    {"hier-512x8", 512, 8, 1, ST_ROUTING_ADAPTIVE, ST_COLL_HIER, 0},
    {"hier-4096x8", 4096, 8, 1, ST_ROUTING_ADAPTIVE, ST_COLL_HIER, 0},
    {"ring-4096-os2", 4096, 1, 2, ST_ROUTING_ECMP, ST_COLL_RING, 0},
    {"simgrid-ring-512", 512, 1, 1, ST_ROUTING_ADAPTIVE, ST_COLL_RING, 1},
};

enum { PER_LEAF = 32 };
static const double S = 1073741824.0; /* 1 GiB */
static const double LINK_LAT = 1e-6;  /* per link; switches add nothing */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const st_gpu_spec h100 = {
    .name = "h100-sxm", .nvlink_bw = 900e9, .arch = ST_GPU_ARCH_HOPPER, .nvswitch = 1};

/* A link's goodput in the simulation: 400 Gbit/s derated by RoCE v2's factor, or exactly it. */
static double link_goodput(const bcase *b)
{
    return b->raw ? 50e9 : 50e9 * st_transport_efficiency(ST_TRANSPORT_ROCE_V2);
}

static st_cluster_cfg cluster(const bcase *b)
{
    double eff = st_transport_efficiency(ST_TRANSPORT_ROCE_V2);
    return (st_cluster_cfg){
        .gpu = &h100,
        .nodes = b->nodes,
        .gpus_per_node = b->gpn,
        .nvlink_domain = b->gpn,
        .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                   .nic_bw = b->raw ? 50e9 / eff : 50e9,
                   .nics_per_node = (int)b->gpn,
                   .nodes_per_leaf = PER_LEAF,
                   .oversub = {b->oversub},
                   .n_oversub = 1,
                   .transport = ST_TRANSPORT_ROCE_V2,
                   .routing = b->routing,
                   .link_latency_s = LINK_LAT,
                   .switch_latency_s = 0},
    };
}

/* Step-synchronous alpha-beta: a ring of n ranks over links of goodput B with a slowest hop of
 * alpha takes 2(n-1) steps of alpha + S/(n B) (all-reduce), n-1 (reduce-scatter, all-gather).
 * Inter-leaf hops cross 4 links of 1 us each; an NVLink hop carries NCCL's per-hop latency
 * alone, none of the fabric's wire (docs/models/fabric.md, "Latency"), and none at all under
 * the ideal protocol these cases run. The hierarchical case adds its three phases. */
static double analytic(const bcase *b)
{
    double C = link_goodput(b);
    double NV = 450e9 * st_nvlink_efficiency(&h100);
    double N = (double)b->nodes, g = (double)b->gpn, a_net = 4 * LINK_LAT, a_nv = 0;
    double ring = 2 * (N - 1) / N * (S / g) / C + 2 * (N - 1) * a_net;
    if (b->gpn == 1)
        return ring;
    double rs = (g - 1) / g * S / NV + (g - 1) * a_nv;
    return rs + ring + rs;
}

static int run_case(const bcase *b)
{
    double t0 = now_s();
    st_cluster_cfg c = cluster(b);
    int64_t n = b->nodes * b->gpn;
    int64_t *g = malloc(sizeof *g * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        g[i] = i;
    st_coll_spec s = {.op = ST_COLL_ALL_REDUCE,
                      .algo = b->algo,
                      .proto = ST_COLL_PROTO_IDEAL,
                      .channels = 1,
                      .sync_steps = 1,
                      .gpus = g,
                      .n = n,
                      .bytes = S,
                      .key = 1};
    st_coll_report rep;
    st_err err = {0};
    if (st_coll_measure(&c, &s, &rep, &err) != 0) {
        fprintf(stderr, "bench_fabric: %s: %s\n", b->name, err.msg);
        free(g);
        return 1;
    }
    double wall = now_s() - t0, a = analytic(b);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("case: %s sim_s: %.9f wall_s: %.4f rss_mb: %.1f analytic_s: %.9f diff: %+.5f "
           "closed_s: %.6f goodput_Bps: %.6g\n",
           b->name, rep.sim_s, wall, (double)ru.ru_maxrss / 1024.0, a, rep.sim_s / a - 1,
           rep.plan.closed_s, link_goodput(b));
    fflush(stdout);
    free(g);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
            continue;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            _exit(run_case(&cases[i]));
        int status = 1;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            failed = 1;
    }
    return failed;
}
