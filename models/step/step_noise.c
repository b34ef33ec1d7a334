/* What system noise (cluster.variability.noise) costs one step of a plan: the step's
 * synchronisation structure handed to the noise model (models/silicon/noise.h). Internal to
 * models/step/; docs/models/stragglers.md, "System noise". */
#include "models/silicon/noise.h"
#include "models/step/step_internal.h"

/* The collectives each micro-batch's pass over one layer ends stretches of work with, on the
 * ranks that wait for each other there: tensor- and context-parallel ones, the experts'
 * all-to-alls and expert-tensor-parallel ones (the operator graph's counts, models/silicon/
 * ops.h; a full recompute runs the forward's again). */
static int64_t layer_syncs(const step_plan *p, const st_layer_cost *lc)
{
    int full = p->w->parallel.recompute == ST_RECOMPUTE_FULL;
    int64_t n = lc->tp_colls_fwd + lc->tp_colls_bwd + lc->tp_colls_recompute;
    if (p->cp > 1)
        n += 2 + full;
    n += lc->ep_a2a_fwd + lc->ep_a2a_bwd + lc->ep_a2a_recompute;
    n += lc->etp_colls_fwd + lc->etp_colls_bwd + lc->etp_colls_recompute;
    return n;
}

double st__step_noise_s(const step_plan *p, const st_cluster_cfg *c, int64_t busiest,
                        st_step_result *out)
{
    const st_step_breakdown *b = &out->b;
    const st_variability_cfg *v = &c->variability;
    st_noise_sig z = {.every_s = v->noise_every_s,
                      .detour_s = v->noise_detour_s,
                      .periodic = v->noise_periodic,
                      .cosched = v->noise_cosched};
    if (!(z.every_s > 0))
        return 0;
    /* The widest group that synchronises within a layer: the tensor- and context-parallel
     * ranks, or the experts' all-to-all group where it is wider. */
    const st_parallel_cfg *par = &p->w->parallel;
    int64_t group = p->tp * p->cp;
    if (p->w->model->experts > 0 && par->ep > 1) {
        int64_t e = par->ep * (par->etp > 1 ? par->etp : 1);
        group = e > group ? e : group;
    }
    int64_t syncs = 0;
    for (int64_t ch = busiest; ch < p->chunks; ch += p->pp) {
        int64_t dense = chunk_dense(p, ch);
        syncs += (chunk_layers(p, ch) - dense) * layer_syncs(p, &p->lc) +
                 dense * layer_syncs(p, &p->lcd);
    }
    syncs *= p->m;
    /* Detours stop a rank wherever it is busy: its kernels, its collectives, its sends and its
     * optimizer; in the pipeline's bubble it waits anyway, so a detour there costs nothing. */
    double busy = b->compute_s + b->straggler_s + b->tp_comm_s + b->pp_comm_s +
                  b->dp_comm_exposed_s + b->optimizer_s;
    st_noise_sync s = {.tau_s = syncs > 0 ? busy / (double)syncs : busy,
                       .intervals = syncs > 0 ? syncs : 1,
                       .group = syncs > 0 ? group : 1,
                       .ranks = p->w->gpus};
    double mean, spread, t = st_noise_delay_parts(&z, &s, &mean, &spread);
    out->noise.stretches = s.intervals;
    out->noise.group = s.group;
    out->noise.groups = s.ranks / s.group;
    out->noise.tau_s = s.tau_s;
    out->noise.mean_s = mean;
    out->noise.spread_s = spread;
    return t;
}
