/* Per-workload forecast: resolves the micro-batch, runs the memory model and simulates a step. */
#include "models/forecast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/reliability/interval.h"
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
    return rc;
}

/* ---- the whole life ------------------------------------------------------------------------ */

/* Distinct leaf switches under the job's GPUs (rail-optimized: a node touches one per NIC). */
static int64_t job_leaves(const st_topo *t, int64_t first_gpu, int64_t gpus)
{
    int64_t n_leaves = st_topo_switches(t, ST_LEVEL_NIC), count = 0;
    uint8_t *seen = st_xcalloc((size_t)(n_leaves > 0 ? n_leaves : 1), 1);
    for (int64_t g = first_gpu; g < first_gpu + gpus; g++) {
        int64_t l = st_topo_leaf_of(t, g);
        if (l >= 0 && l < n_leaves && !seen[l]) {
            seen[l] = 1;
            count++;
        }
    }
    free(seen);
    return count;
}

/* How many components of a class the job occupies: its GPUs, their nodes, the nodes' NICs, the
 * leaves its NICs hang from, every spine once it spans two leaves (ECMP spreads its flows over
 * all of them), and the racks of its nodes. */
static double occupied(const char *component, const st_topo *t, const st_cluster_cfg *c,
                       const st_workload_cfg *w, int64_t first_gpu)
{
    int64_t gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    int64_t nodes = (first_gpu + w->gpus - 1) / gpn - first_gpu / gpn + 1;
    int64_t per_rack = c->racks.nodes_per_rack > 0 ? c->racks.nodes_per_rack : 1;
    int64_t leaves = job_leaves(t, first_gpu, w->gpus);
    if (strcmp(component, "gpu") == 0)
        return (double)w->gpus;
    if (strcmp(component, "node") == 0)
        return (double)nodes;
    if (strcmp(component, "nic") == 0)
        return (double)(nodes * c->fabric.nics_per_node);
    if (strcmp(component, "leaf_switch") == 0)
        return (double)leaves;
    if (strcmp(component, "spine_switch") == 0)
        return leaves > 1 ? (double)st_topo_switches(t, ST_LEVEL_LEAF) : 0;
    if (strcmp(component, "rack") == 0)
        return (double)((first_gpu + w->gpus - 1) / gpn / per_rack - first_gpu / gpn / per_rack +
                        1);
    return 0;
}

int st_forecast_life(st_forecast *f, const st_topo *t, const st_cluster_cfg *c,
                     const st_failures_cfg *fail, int64_t first_gpu, uint64_t seed,
                     int64_t replicas, const st_io_set *bg, st_err *err)
{
    const st_workload_cfg *w = f->w;
    if (!f->has_step)
        return 0;
    st_storage_ingest(t, c, w, first_gpu, f->step.step_time_s, bg, &f->ingest);
    f->eff_step_s = f->step.step_time_s * f->ingest.slowdown;
    double tokens_per_step = (double)w->global_batch * (double)w->seq_len;
    f->steps = w->steps > 0 ? w->steps : (int64_t)ceil(w->tokens / tokens_per_step);
    if (f->steps < 1)
        f->steps = 1;
    st_life_spec spec = {.step_s = f->eff_step_s, .steps = f->steps, .classes = f->classes};
    f->n_classes = 0;
    for (int i = 0; fail && i < fail->n_classes && f->n_classes < 8; i++) {
        const st_failure_class *fc = &fail->classes[i];
        double n = occupied(fc->component, t, c, w, first_gpu);
        if (n <= 0)
            continue;
        f->classes[f->n_classes++] = (st_life_class){.component = fc->component,
                                                     .count = n,
                                                     .mtbf_s = fc->mtbf_s,
                                                     .shape = fc->weibull_shape};
    }
    spec.n_classes = f->n_classes;
    if (fail) {
        spec.detect_s = fail->detect_s;
        spec.restart_s = fail->restart_s;
    }
    f->job_mtbf_s = st_life_job_mtbf(&spec);
    if (w->checkpoint.enabled && c->n_tiers > 0) {
        if (st_storage_checkpoint(t, c, w, &f->mem, first_gpu, &f->ingest, bg, &f->ckpt, err))
            return err->code;
        f->has_ckpt = 1;
        const st_ckpt_cfg *ck = &w->checkpoint;
        if (ck->every_s > 0)
            f->interval_s = ck->every_s;
        else if (ck->every_steps > 0)
            f->interval_s = (double)ck->every_steps * f->eff_step_s;
        else if (ck->every_auto && isfinite(f->job_mtbf_s))
            /* Daly's optimum for the stall training sees; never shorter than the time a save
             * takes to become restorable (an async or two-stage drain), or saves would queue
             * behind each other and training would wait anyway. `auto` with nothing that can
             * fail leaves the interval 0: no checkpoint is worth its stall. */
            f->interval_s =
                fmax(st_daly_interval(f->ckpt.stall_s, f->job_mtbf_s), f->ckpt.commit_s);
        if (isfinite(f->job_mtbf_s)) {
            f->young_interval_s = st_young_interval(f->ckpt.stall_s, f->job_mtbf_s);
            f->daly_interval_s = st_daly_interval(f->ckpt.stall_s, f->job_mtbf_s);
        }
        spec.ckpt_every_s = f->interval_s;
        spec.ckpt_stall_s = f->ckpt.stall_s;
        spec.ckpt_commit_s = f->ckpt.commit_s;
        spec.restore_s = f->ckpt.restore_s;
    }
    int rc = st_life_run(&spec, seed, 0, &f->life, err);
    if (!rc && replicas >= 2)
        rc = st_life_replicas(&spec, seed, replicas, &f->summary, err);
    if (rc == ST_ERANGE)
        return st_err_set(err, ST_ERANGE, w->loc,
                          "workload '%s' never finishes: %.4g days of work with an interruption "
                          "every %.4g h on average%s cannot complete before the simulated "
                          "clock runs out (146 years); checkpoint more often",
                          w->name, (double)f->steps * f->eff_step_s / 86400, f->job_mtbf_s / 3600,
                          f->interval_s > 0 ? " and its checkpoint interval"
                                            : " and no checkpoints");
    if (rc)
        return rc;
    f->has_life = 1;
    return 0;
}
