/* Step-model throughput: configurations evaluated per second on one core, step simulation
 * included, the way a plan search uses it (one context per cluster, collectives memoised).
 * Prints `case: NAME configs_per_s: X`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "models/step/step.h"
#include "scenarios/catalog.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static st_cluster_cfg selene(int64_t nodes)
{
    st_cluster_cfg c = {0};
    c.gpu = st_catalog_gpu("a100-sxm-80g");
    c.nodes = nodes;
    c.gpus_per_node = 8;
    c.nvlink_domain = 8;
    c.fabric = (st_fabric_cfg){.topology = ST_TOPO_FAT_TREE_3,
                               .nic_bw = 25e9,
                               .nics_per_node = 8,
                               .nodes_per_leaf = 4,
                               .leaves_per_pod = 32,
                               .oversub = {1, 1, 1},
                               .n_oversub = 1,
                               .transport = ST_TRANSPORT_INFINIBAND,
                               .routing = ST_ROUTING_ADAPTIVE};
    return c;
}

/* Evaluate the plan variants of w (recompute x sequence parallelism x micro-batch x
 * interleaving) over and over for at least `seconds`; returns configurations per second. */
static double run_case(const st_cluster_cfg *c, st_workload_cfg w, double seconds)
{
    st_step_ctx *x = NULL;
    st_err err = {0};
    if (st_step_ctx_new(c, &x, &err)) {
        fprintf(stderr, "bench_step: %s\n", err.msg);
        return 0;
    }
    static const int64_t mbs[] = {1, 2, 4};
    long done = 0;
    double t0 = now_s(), t = t0;
    while (t - t0 < seconds) {
        for (int rc = 0; rc < 3; rc++)
            for (int sp = 0; sp < 2; sp++)
                for (int v = 1; v <= 2; v++)
                    for (int k = 0; k < 3; k++) {
                        w.parallel.recompute = (st_recompute)rc;
                        w.parallel.sequence_parallel = sp;
                        w.parallel.virtual_stages = v;
                        st_step_result r;
                        if (st_step_run(x, &w, mbs[k], &r, NULL, &err) == 0)
                            done++;
                    }
        t = now_s();
    }
    st_step_ctx_free(x);
    return (double)done / (t - t0);
}

int main(void)
{
    st_llm_spec gpt3 = *st_catalog_model("gpt3-175b"), gpt1t = *st_catalog_model("gpt-1t");
    st_cluster_cfg c1 = selene(128), c2 = selene(384);
    st_workload_cfg w = {.name = "gpt3",
                         .model = &gpt3,
                         .seq_len = 2048,
                         .global_batch = 1536,
                         .gpus = 1024,
                         .parallel = {.tp = 8,
                                      .cp = 1,
                                      .pp = 8,
                                      .dp = 16,
                                      .zero = 1,
                                      .overlap_grad_reduce = 1,
                                      .overlap_p2p = 1}};
    printf("case: gpt3-175b-1024 configs_per_s: %.0f\n", run_case(&c1, w, 3.0));
    w.name = "gpt-1t";
    w.model = &gpt1t;
    w.gpus = 3072;
    w.global_batch = 3072;
    w.parallel.pp = 64;
    w.parallel.dp = 6;
    printf("case: gpt-1t-3072 configs_per_s: %.0f\n", run_case(&c2, w, 3.0));
    return 0;
}
