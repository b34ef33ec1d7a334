/* Per-workload forecast: resolves the micro-batch, runs the memory model and simulates a step. */
#include "models/forecast/forecast.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static int fits(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t b)
{
    st_memory m;
    st_memory_estimate(w, gpu, b, &m);
    return m.fits;
}

/* Divisors of the per-replica batch in increasing order, each offered to try() until one does
 * not fit (memory grows with the micro-batch, so no larger one fits either). The large
 * divisors n/i are collected on the way up to sqrt(n): a number below 10^9 has at most 1344
 * divisors. Returns how many fitted. */
typedef int (*try_fn)(void *ctx, int64_t b);

static int for_each_fitting(const st_workload_cfg *w, const st_gpu_spec *gpu, try_fn try, void *ctx)
{
    int64_t n = w->global_batch / w->parallel.dp, big[2048];
    int n_big = 0, count = 0;
    for (int64_t i = 1; i * i <= n; i++) {
        if (n % i)
            continue;
        if (!fits(w, gpu, i))
            return count;
        if (try(ctx, i))
            return -1;
        count++;
        if (i * i != n && n_big < 2048)
            big[n_big++] = n / i;
    }
    while (n_big-- > 0) {
        if (!fits(w, gpu, big[n_big]))
            break;
        if (try(ctx, big[n_big]))
            return -1;
        count++;
    }
    return count;
}

/* Keeps the fastest simulated step among the sizes it is offered (the largest size when there
 * is no step context). */
typedef struct pick {
    st_step_ctx *x;
    const st_workload_cfg *w;
    int64_t best;
    double best_s;
    st_err *err;
} pick;

static int try_size(void *ctx, int64_t b)
{
    pick *p = ctx;
    if (!p->x) {
        p->best = b;
        return 0;
    }
    st_step_result r;
    st_err ignored = {0};
    if (st_step_run(p->x, p->w, b, &r, NULL, &ignored))
        return 0; /* a size the pipeline cannot take (interleaving) is simply not a candidate */
    if (p->best == 0 || r.step_time_s < p->best_s) {
        p->best = b;
        p->best_s = r.step_time_s;
    }
    return 0;
}

int st_forecast_job(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                    st_forecast *out, st_pipe_trace *trace, st_err *err)
{
    memset(out, 0, sizeof *out);
    out->clock = 1;
    out->w = w;
    out->microbatch = w->parallel.microbatch;
    if (!out->microbatch) {
        pick p = {.x = x, .w = w, .err = err};
        if (for_each_fitting(w, c->gpu, try_size, &p) < 0)
            return err->code;
        out->microbatch = p.best ? p.best : 1;
    }
    st_memory_estimate(w, c->gpu, out->microbatch, &out->mem);
    if (!x || !out->mem.fits)
        return 0; /* a plan that does not fit does not run: no step to forecast */
    int rc = st_step_run(x, w, out->microbatch, &out->step, trace, err);
    out->has_step = rc == 0;
    out->band_key = st_band_key_of(w, c->gpu);
    /* A cluster calibrated on its own steps gets the calibrated band: the public runs'
     * residuals hold the model's error on each set, which the calibration has taken out. */
    out->has_band = out->has_step && (!st_band_of_calib(&c->calib, &out->band) ||
                                      !st_band_of(out->band_key, &out->band));
    return rc;
}
