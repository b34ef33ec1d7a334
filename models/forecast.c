/* Per-workload forecast: resolves the micro-batch and runs the memory model. */
#include "models/forecast.h"

#include <string.h>

static int fits(const st_workload_cfg *w, const st_gpu_spec *gpu, int64_t b)
{
    st_memory m;
    st_memory_estimate(w, gpu, b, &m);
    return m.fits;
}

/* Divisors of the per-replica batch in increasing order, tried until one does not fit (memory
 * grows with the micro-batch, so no larger one fits either). The large divisors n/i are
 * collected on the way up to sqrt(n): a number below 10^9 has at most 1344 divisors. */
static int64_t pick_microbatch(const st_workload_cfg *w, const st_gpu_spec *gpu)
{
    int64_t n = w->global_batch / w->parallel.dp, best = 1;
    int64_t big[2048];
    int n_big = 0;
    for (int64_t i = 1; i * i <= n; i++) {
        if (n % i)
            continue;
        if (!fits(w, gpu, i))
            return best;
        best = i;
        if (i * i != n && n_big < 2048)
            big[n_big++] = n / i;
    }
    while (n_big-- > 0) {
        if (!fits(w, gpu, big[n_big]))
            break;
        best = big[n_big];
    }
    return best;
}

void st_forecast_job(const st_workload_cfg *w, const st_cluster_cfg *c, st_forecast *out)
{
    memset(out, 0, sizeof *out);
    out->w = w;
    out->microbatch = w->parallel.microbatch ? w->parallel.microbatch : pick_microbatch(w, c->gpu);
    st_memory_estimate(w, c->gpu, out->microbatch, &out->mem);
}
