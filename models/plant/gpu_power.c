/* GPU power by activity, and a job's per-GPU power profile over one step. */
#include "models/plant/gpu_power.h"

#include "models/plant/thermal.h"
#include "sim/xalloc.h"

/* The power of each activity, as shares of the board's power limit (tdp_w) and idle power
 * (idle_w, an nvidia-smi reading per part in scenarios/catalog.c). */
static const st_plant_power_preset presets[ST_PLANT_ACT__COUNT] = {
    /* Dense GEMM-dominated forward and backward run at the board's power limit. Choukse et al.,
     * "Power Stabilization for AI Training Datacenters" (arXiv 2508.14318), abstract: "compute-
     * heavy phases require much more power than communication phases"; their production DGX
     * H100 telemetry puts the compute-heavy phase near TDP and the communication-heavy one near
     * idle (as the paper's published review on themoonlight.io summarises it). The Llama 3
     * paper (arXiv 2407.21783) section 3.3.4 sees H100 throughput follow DVFS with mid-day
     * temperature: the GPUs run at their power limit. The optimizer and the memory-bound
     * operators inside the compute time are counted here too: we found no published per-phase
     * measurement that separates them. */
    [ST_PLANT_ACT_COMPUTE] = {1.0, 0.0, "arXiv 2508.14318; arXiv 2407.21783 sec. 3.3.4"},
    /* GPUs waiting on collectives draw near their idle power: Choukse et al.'s communication-
     * heavy phase (above), and the drop Llama 3 section 3.3.4 describes when "all GPUs [wait]
     * for checkpointing or collective communications to finish". */
    [ST_PLANT_ACT_COMM] = {0.0, 1.0, "arXiv 2508.14318; arXiv 2407.21783 sec. 3.3.4"},
    /* A GPU in the pipeline bubble has no kernel to run: idle power (the same sources). */
    [ST_PLANT_ACT_IDLE] = {0.0, 1.0, "arXiv 2508.14318; arXiv 2407.21783 sec. 3.3.4"},
};

const st_plant_power_preset *st_plant_power_preset_of(st_plant_activity a)
{
    return &presets[a];
}

double st_plant_activity_w(const st_gpu_spec *g, st_plant_activity a)
{
    return presets[a].tdp_share * g->tdp_w + presets[a].idle_share * g->idle_w;
}

static void add_phase(st_plant_profile *p, double dur, double w)
{
    if (!(dur > 0))
        return;
    if (p->n >= ST_PLANT_MAX_PHASES)
        ST_BUG("a step profile of more than %d phases", ST_PLANT_MAX_PHASES);
    p->dur_s[p->n] = dur;
    p->gpu_w[p->n] = w;
    p->n++;
    p->period_s += dur;
    p->energy_j += dur * w;
    if (p->n == 1 || w > p->peak_w)
        p->peak_w = w;
    if (p->n == 1 || w < p->min_w)
        p->min_w = w;
}

int st_plant_profile_of(const st_step_result *r, const st_gpu_spec *g, st_plant_profile *out)
{
    return st_plant_profile_clocked(r, g, 1.0, out);
}

int st_plant_profile_clocked(const st_step_result *r, const st_gpu_spec *g, double clock,
                             st_plant_profile *out)
{
    *out = (st_plant_profile){0};
    const st_step_breakdown *b = &r->b;
    double cw = clock > 0 && clock < 1 ? st_plant_compute_w(g, clock)
                                       : st_plant_activity_w(g, ST_PLANT_ACT_COMPUTE);
    double mw = st_plant_activity_w(g, ST_PLANT_ACT_COMM);
    double iw = st_plant_activity_w(g, ST_PLANT_ACT_IDLE);
    add_phase(out, b->compute_s, cw);
    add_phase(out, b->tp_comm_s + b->pp_comm_s, mw);
    add_phase(out, b->bubble_s, iw);
    add_phase(out, b->straggler_s, iw); /* all but the slowest GPU wait, idle */
    add_phase(out, b->dp_comm_exposed_s, mw);
    add_phase(out, b->optimizer_s, cw);
    add_phase(out, b->noise_s, iw);    /* all but the detoured rank wait, idle */
    add_phase(out, b->overhead_s, iw); /* the calibrated per-step overhead: host-side, idle */
    return out->n ? 0 : -1;
}

void st_plant_profile_flatten(st_plant_profile *p)
{
    if (p->n == 0 || !(p->period_s > 0))
        return;
    double mean = p->energy_j / p->period_s;
    p->n = 1;
    p->dur_s[0] = p->period_s;
    p->gpu_w[0] = mean;
    p->peak_w = p->min_w = mean;
}

double st_plant_profile_energy(const st_plant_profile *p, double t)
{
    double e = 0;
    for (int i = 0; i < p->n && t > 0; i++) {
        double d = t < p->dur_s[i] ? t : p->dur_s[i];
        e += d * p->gpu_w[i];
        t -= d;
    }
    return e;
}
