/* Benchmark: one step's pipeline schedule (models/step/pipeline.h), the inner loop of the step
 * model, for the plans the targets name. Prints one line per case: `case: NAME sims_per_s:
 * X sweep_sims_per_s: Y engine_sims_per_s: Z simulated_m: M` (X: st_pipe_simulate as the step model
 * calls it; Y: list scheduling of all m micro-batches; Z: every task as engine events, what a trace
 * costs). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/step/pipeline.h"
#include "sim/xalloc.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A plan: pp stages of v chunks, every chunk `fwd` / `bwd` seconds, the first chunk carrying the
 * embedding and the last the output layer and loss (extra time on both), sends of p2p seconds. */
typedef struct bcase {
    const char *name;
    int64_t pp, v, m;
    double fwd, bwd, first_extra, last_extra, p2p;
} bcase;

/* GPT-3 175B (96 layers, h 12288, s 2048, micro-batch 1) on 1024 A100: TP8 PP8 DP16, global
 * batch 1536 -> m = 96 per replica, v = 3 (4 layers per chunk). A layer's forward is about
 * 7.6 TFLOP / 8 GPUs at ~150 TFLOP/s = 6.3 ms; backward 2x plus full recomputation 1x. The
 * 50 MB activation, split 8 ways by sequence parallelism, crosses a 25 GB/s link in 0.25 ms.
 * 1T (128 layers, h 25600) on 3072 A100: TP8 PP64 DP6, 2 layers per stage, 27 ms a layer;
 * global batch 512 does not split into 6 replicas evenly, so m = 128 (a batch of 768). */
static const bcase cases[] = {
    {"pipe-gpt3-pp8-v3-m96", 8, 3, 96, 0.0252, 0.0756, 0.001, 0.004, 0.00025},
    {"pipe-1t-pp64-m128", 64, 1, 128, 0.054, 0.162, 0.001, 0.006, 0.0005},
    /* Not a target: GPT-3's plan with ten times the micro-batches, to show that the cost of
     * st_pipe_simulate stays flat in m while the full evaluations grow. */
    {"pipe-gpt3-pp8-v3-m960", 8, 3, 960, 0.0252, 0.0756, 0.001, 0.004, 0.00025},
};

static double rate(const st_pipe_spec *s, int mode, int64_t *simulated_m)
{
    double t0 = now_s(), t;
    long n = 0;
    do {
        st_pipe_result r;
        if (st__pipe_simulate_mode(s, mode, &r, NULL) != 0) {
            fprintf(stderr, "bench_pipeline: spec refused\n");
            exit(1);
        }
        *simulated_m = r.simulated_m;
        st_pipe_result_release(&r);
        n++;
        t = now_s() - t0;
    } while (t < 0.5);
    return (double)n / t;
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bcase *b = &cases[i];
        int64_t nc = b->pp * b->v, sim_fast, sim_other;
        double *fwd = st_xmalloc((size_t)nc * sizeof *fwd), *bwd = st_xmalloc((size_t)nc * 8);
        for (int64_t c = 0; c < nc; c++) {
            fwd[c] = b->fwd;
            bwd[c] = b->bwd;
        }
        fwd[0] += b->first_extra;
        bwd[0] += 2 * b->first_extra;
        fwd[nc - 1] += b->last_extra;
        bwd[nc - 1] += 2 * b->last_extra;
        st_pipe_spec s = {
            .pp = b->pp, .v = b->v, .m = b->m, .fwd_s = fwd, .bwd_s = bwd, .p2p_s = b->p2p};
        double fast = rate(&s, ST__PIPE_FAST, &sim_fast);
        double sweep = rate(&s, ST__PIPE_SWEEP, &sim_other);
        double engine = rate(&s, ST__PIPE_ENGINE, &sim_other);
        printf("case: %s sims_per_s: %.0f sweep_sims_per_s: %.0f engine_sims_per_s: %.0f "
               "simulated_m: %lld\n",
               b->name, fast, sweep, engine, (long long)sim_fast);
        free(fwd);
        free(bwd);
    }
    return 0;
}
