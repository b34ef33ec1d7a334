/* The sizing search (planner/size.h): GPU counts ascending, every plan on each, pruned before the
 * step model where a rule or the memory says no. docs/guide/sizing.md. */
#include "planner/size.h"
#include "models/plant/thermal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/cost/cost.h"
#include "models/fabric/leaf.h"
#include "models/fabric/topo.h"
#include "models/fabric/transport.h"
#include "models/forecast/band.h"
#include "models/forecast/netpower.h"
#include "models/plant/plant.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/noise.h"
#include "models/silicon/ops.h"
#include "models/silicon/parallel.h"
#include "models/silicon/plan_check.h"
#include "models/step/step.h"
#include "planner/size_counts.h"
#include "planner/size_fleet.h"
#include "planner/size_life.h"
#include "planner/size_platform.h"
#include "scenarios/software.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

/* What `strata size` shows while it searches: the cluster sizes searched so far, the count its
 * summary gives as "searched N of M cluster sizes" (those the doubling and bisection simulate;
 * not those compute alone rules out), against the number the search expects to search, which
 * grows where it searches more; its last report is the count searched, of itself. */
#define SIZE_PROGRESS "size: cluster sizes searched"

/* The plan axes searched besides tp and pp. Micro-batches of 1 to 8 sequences cover the sizes
 * Megatron-LM's published configurations use (Narayanan et al. 2021, arXiv:2104.04473, table 1:
 * 1 to 8); virtual stages 1, 2 and 4 the interleaved schedules of the same paper, section 2.2. */
static const int64_t mb_axis[] = {1, 2, 4, 8};
static const int64_t vs_axis[] = {1, 2, 4};

const char *st_size_bind_name(st_size_bind b)
{
    static const char *const names[ST_BIND__COUNT] = {
        "memory", "deadline", "power",   "gpus",    "racks",        "capex",
        "tco",    "fabric",   "storage", "cooling", "communication"};
    return b < ST_BIND__COUNT ? names[b] : "?";
}

/* One GPU count's search: the cluster shape, its step context and what it found. */
typedef struct size_count {
    size_t variant;     /* index into the spec's variants */
    st_cluster_cfg c;   /* the cluster (of the variant) with this many nodes */
    st_tier_cfg *tiers; /* c's storage tiers, the variant's bandwidth in (malloc'd) */
    double tier_bw;     /* checkpoint-tier write bandwidth the variant buys (bytes/s); 0: none */
    st__size_life life; /* failure terms, opened on the count's first plan that fits */
    int life_open;
    st_maxmin **spare; /* the search's spare max-min solver for the storage model's runs */
    st_step_ctx *ctx;
    int64_t nodes, gpus; /* the job's: it holds every GPU of the shape */
    int64_t *ids;        /* its GPUs in c's ids (the step's) */
    int64_t *cids;       /* and in whole's (the plant's) */
    /* Under --existing the grown fleet (size_fleet.h): c is then its view from the job's pool,
     * whole the fleet, which the plant, the switches and the cost read; else whole is &c. */
    int has_fleet;
    st__size_fleet fleet;
    const st_cluster_cfg *whole;
    double kept_w; /* the fleet's other nodes from idle to full draw (fleet_of) */
    st_plant_heat kept_heat;
    int64_t switches;
    int64_t ports;       /* the most ports one of its switches needs */
    int64_t optic_ports; /* its switch-side optical ports (models/forecast/netpower.h) */
    double optic_w;      /* their board power for the plant, W (0: no figure at the port rate) */
    int64_t cadences;    /* checkpoint cadences weighed */
    double best;         /* least objective of its configurations (INFINITY when none) */
    st_band band;        /* the step model's error band at this GPU type and count */
    double conf;         /* its upper end at the spec's confidence; 1 without one */
} size_count;

/* The searched axes of one plan besides the GPU count: dp follows from it. */
typedef struct plan_axes {
    int64_t tp, pp, ep, vs, mb;
    st_recompute rc;
} plan_axes;

/* Workload w with plan a on g GPUs, dp from the count. A mixture-of-experts model takes a's
 * expert parallelism, and sequence parallelism with tp > 1, which Megatron-Core requires of MoE
 * layers under tensor parallelism (the plan rules refuse the plan without it). */
static st_workload_cfg plan_of(const st_workload_cfg *w, int64_t g, const plan_axes *a)
{
    st_workload_cfg p = *w;
    int64_t cp = w->parallel.cp > 0 ? w->parallel.cp : 1;
    p.gpus = g;
    p.parallel.chunk_layers = NULL; /* the stated plan's layout: the searched ones split evenly */
    p.parallel.n_chunk_layers = 0;
    p.parallel.tp = a->tp;
    p.parallel.cp = cp;
    p.parallel.pp = a->pp;
    p.parallel.dp = g / (a->tp * cp * a->pp);
    p.parallel.virtual_stages = a->vs;
    p.parallel.microbatch = a->mb;
    p.parallel.recompute = a->rc;
    /* the searched levels are none, Megatron's selective (the attention core) and full, ordered
     * by what they keep; a stated module list is the stated plan's, as its layout is */
    p.parallel.recompute_modules = 0;
    if (w->model->experts > 0) {
        p.parallel.ep = a->ep;
        if (a->tp > 1)
            p.parallel.sequence_parallel = 1;
    }
    /* TP overlap needs sequence parallelism (plan_check.c): a workload that asks for the
     * overlap at tp 1 gets both on the larger tp the search tries, not every such plan refused */
    if (w->parallel.tp_comm_overlap && a->tp > 1)
        p.parallel.sequence_parallel = 1;
    /* the EP all-to-all overlap needs all-to-alls: kept where the plan has ep > 1 */
    if (a->ep <= 1) {
        p.parallel.ep_comm_overlap = 0;
        p.parallel.moe_dispatcher = ST_DISP_ALLTOALL; /* likewise DeepEP's and HybridEP's */
    }
    return p;
}

/* Whether plan p follows every plan rule on cluster c, the batch split included. */
static int rules_hold(const st_workload_cfg *p, const st_cluster_cfg *c)
{
    st_plan_issue is[1];
    if (p->gpus % (p->parallel.tp * p->parallel.cp * p->parallel.pp))
        return 0;
    return st_plan_check(p, c, is, 1) == 0 &&
           st_plan_check_batch(p, p->parallel.microbatch, is, 1) == 0;
}

/* What a configuration's energy reads of its plant: the PUE at its mean power, its GPUs' board
 * energy per step (0 where the plant was not run: no energy known) and the plant's power floor
 * per GPU (0: none), which a GPU that runs no step rests at. */
typedef struct plant_energy {
    double pue, step_j, floor_w;
} plant_energy;

/* The facility power of step r of a job on GPUs ids[0..gpus) of shape c, its switches' optics
 * net_w beside the racks (the plant's facility figure at its peak, the one `run` and `audit`
 * report: models/plant/plant.h; what its energy reads into *e), or 0 when the GPU states no
 * power limit. */
static double plant_of(const st_cluster_cfg *c, const int64_t *ids, int64_t gpus,
                       const st_step_result *r, double net_w, const st_size_spec *s,
                       plant_energy *e, st_plant_heat *heat)
{
    *e = (plant_energy){0, 0, 0};
    *heat = (st_plant_heat){NAN, NAN, NAN};
    if (!(c->gpu->tdp_w > 0))
        return 0;
    /* the job as `run` gives it to the plant: its phase offset drawn from its workload's index,
     * over run's window (the facility's mean, so its losses, cooling and peak, is the
     * waveform's over the window: another window gave another figure) */
    st_plant_job job = {r, ids, gpus, s->plant_id, 1.0, 0};
    st_plant_result pr;
    st_err err = {0};
    double w = NAN; /* unknown: the plant was not modelled (no power limit) or refused */
    if (st_plant_run_facility(c, &job, 1, s->seed, st_plant_window(c, &job, 1), net_w, &pr, &err) ==
        0) {
        w = pr.facility_peak.total_w;
        *heat = pr.heat;
        *e = (plant_energy){pr.pue, pr.jobs[0].step_energy_j, pr.floor_w};
    }
    st_plant_release(&pr);
    return w;
}

/* The hottest junction of step r's GPUs ids[0..gpus) on shape c at full clock, C, as the plant
 * gives `run` and `audit` its max_junction_c (models/plant/thermal.h); NaN without a power limit
 * (no plant). Where the plant runs for a plan, now or after the ranking (power_late). */
static double junction_of(const st_cluster_cfg *c, const int64_t *ids, int64_t gpus,
                          const st_step_result *r)
{
    if (!(c->gpu->tdp_w > 0))
        return NAN;
    st_plant_job job = {r, ids, gpus, 0, 1.0, 0};
    return st_plant_job_junction(c, &job);
}

/* A lower bound, W, on plant_of for step r on shape c (every GPU of it), without the waveform;
 * 0 when none holds. The plant's IT power is (base + GPUs x their power averaged over each
 * sample dt) / PSU efficiency, its peak the largest sample, and its PUE adds losses and cooling
 * (>= 1) (models/plant/waveform.c, plant.c). A phase of the step's profile (gpu_power.h) at
 * least two samples long, held whole by the window (window >= step + phase + a sample), holds a
 * whole sample: the peak is at least GPUs x that phase's power. A power floor, a burn or a
 * battery reshapes the waveform (plant.c's mitigation): no bound then. */
static double power_lb(const st_cluster_cfg *c, int64_t gpus, const st_step_result *r)
{
    st_plant_profile pf;
    if (!(c->gpu->tdp_w > 0) || c->racks.power_floor > 0 || c->racks.power_burn > 0 ||
        (c->racks.storage_energy_j > 0 && c->racks.storage_power_w > 0) ||
        st_plant_profile_of(r, c->gpu, &pf))
        return 0;
    st_plant_job job = {r, NULL, 0, 0, 1.0, 0};
    double dt = st_plant_preset_get()->dt_s, win = st_plant_window(c, &job, 1), top = 0;
    for (int i = 0; i < pf.n; i++)
        if (pf.dur_s[i] >= 2 * dt && win >= pf.period_s + pf.dur_s[i] + dt && pf.gpu_w[i] > top)
            top = pf.gpu_w[i];
    /* less a margin for the rounding of the waveform's interval means */
    return (double)gpus * top * (1 - 1e-9);
}

/* f's heat over the cooling budgets of s (the largest of total, air and liquid; INFINITY when
 * one is set and the plant has not run for f; 0 without a cooling budget). */
static double cooling_use(const st_size_cfg *f, const st_size_spec *s)
{
    const double heat[3] = {f->heat.total_w + f->kept_heat.total_w,
                            f->heat.air_w + f->kept_heat.air_w,
                            f->heat.liquid_w + f->kept_heat.liquid_w};
    const double cap[3] = {s->cooling_w, s->air_cooling_w, s->liquid_cooling_w};
    double u = 0;
    for (int i = 0; i < 3; i++)
        if (cap[i] > 0)
            u = fmax(u, isfinite(heat[i]) ? heat[i] / cap[i] : INFINITY);
    return u;
}

/* Whether s has a budget only the plant decides: power or cooling. */
static int plant_budget(const st_size_spec *s)
{
    return s->power_w > 0 || s->cooling_w > 0 || s->air_cooling_w > 0 || s->liquid_cooling_w > 0;
}

/* Whether f, powered, is within the budgets the plant decides. */
static int within_plant(const st_size_cfg *f, const st_size_spec *s)
{
    return (!(s->power_w > 0) || f->facility_w + f->kept_w <= s->power_w) && cooling_use(f, s) <= 1;
}

/* The binding constraint of configuration f under spec: a fabric that cannot be built, else the
 * one it breaks the most, else the one with the least slack; a deadline by what its time goes
 * to (st_size_time_bind). */
static st_size_bind binds_of(const st_size_cfg *f, const st_size_spec *s)
{
    if (f->ports > f->switch_ports)
        return ST_BIND_FABRIC;
    double u[ST_BIND__COUNT] = {
        [ST_BIND_MEMORY] = f->mem_bytes / f->mem_capacity,
        [ST_BIND_DEADLINE] = f->train_conf_s / s->deadline_s,
        [ST_BIND_POWER] =
            s->power_w > 0
                ? (isfinite(f->facility_w) ? (f->facility_w + f->kept_w) / s->power_w : INFINITY)
                : 0,
        [ST_BIND_GPUS] = s->gpus > 0 ? (double)f->fleet_gpus / (double)s->gpus : 0,
        [ST_BIND_RACKS] = s->racks > 0 ? (double)f->fleet_racks / (double)s->racks : 0,
        [ST_BIND_CAPEX] = s->capex_usd > 0 ? f->bought_usd / s->capex_usd : 0,
        [ST_BIND_TCO] = s->tco_usd_per_year > 0 ? f->per_year_usd / s->tco_usd_per_year : 0,
        [ST_BIND_COOLING] = cooling_use(f, s)}; /* communication, storage: the deadline's time */
    st_size_bind b = ST_BIND_MEMORY;
    for (int i = 1; i < ST_BIND__COUNT; i++)
        if (u[i] > 1 ? u[b] <= 1 || u[i] > u[b] : u[b] <= 1 && u[i] > u[b])
            b = (st_size_bind)i;
    return b == ST_BIND_DEADLINE ? st_size_time_bind(f) : b;
}

/* Variant v's delivery model: its own, else the scenario's (s->cost set). */
static st_delivery delivery_of(const st_size_spec *s, size_t v)
{
    return v < s->n_variants && s->variants[v].set_delivery ? s->variants[v].delivery
                                                            : s->cost->delivery;
}

/* The prices variant v pays for GPU type `gpu` on fabric fab into *out: the scenario's for the
 * type (st_cost_for_gpu), under the variant's delivery model (a committed price is a cloud
 * one: on-demand elsewhere), its switch class and optics by the fabric. */
static void cost_of_variant(const st_size_spec *s, size_t v, const char *gpu,
                            const st_fabric_cfg *fab, st_cost_cfg *out)
{
    st_cost_for_gpu(s->cost, gpu, out);
    out->delivery = delivery_of(s, v);
    if (out->delivery != ST_DELIVERY_CLOUD)
        out->pricing = ST_PRICING_ON_DEMAND;
    st_cost_for_parts(out, fab, out);
}

/* Whether the search needs the plant for f now (else after the ranking, power_late), with
 * in_time whether f meets the deadline. */
static int plant_now(const st_size_spec *s, const st_size_cfg *f, int in_time)
{
    /* The plant now only where the ranking needs it: on-premises prices count its energy (rented
     * GPUs' do not, models/cost/cost.c), or a power budget decides a plan that meets the deadline
     * and is not over the budget on its bound. The rows printed get it after the ranking
     * (power_late). */
    return s->rows == 0 || (s->cost && delivery_of(s, f->variant) == ST_DELIVERY_ON_PREM) ||
           (plant_budget(s) && in_time &&
            !(f->power_lb + f->kept_w > s->power_w && s->power_w > 0));
}

/* Whether f trains within the deadline. */
static int in_time_now(const st_size_cfg *f, const st_size_spec *s)
{
    return f->train_conf_s <= s->deadline_s;
}

/* Whether f is within the budgets the plant does not decide: racks, capex, TCO per year. An
 * unknown figure (no prices) never meets its budget; cmd_size refuses such a budget first. */
static int within_fixed(const st_size_cfg *f, const st_size_spec *s)
{
    return f->ports <= f->switch_ports && (!(s->racks > 0) || f->fleet_racks <= s->racks) &&
           (!(s->gpus > 0) || f->fleet_gpus <= s->gpus) &&
           (!(s->capex_usd > 0) || (f->bought_usd >= 0 && f->bought_usd <= s->capex_usd)) &&
           (!(s->tco_usd_per_year > 0) ||
            (f->per_year_usd >= 0 && f->per_year_usd <= s->tco_usd_per_year));
}

unsigned st_size_breaks(const st_size_cfg *f, const st_size_spec *s)
{
    unsigned b = 0;
    const double heat[3] = {f->heat.total_w + f->kept_heat.total_w,
                            f->heat.air_w + f->kept_heat.air_w,
                            f->heat.liquid_w + f->kept_heat.liquid_w};
    const double cap[3] = {s->cooling_w, s->air_cooling_w, s->liquid_cooling_w};
    /* the facility peak where the plant ran, else its lower bound where that is already over */
    double w = isfinite(f->facility_w) ? f->facility_w : f->power_lb > 0 ? f->power_lb : NAN;
    if (f->ports > f->switch_ports)
        b |= 1u << ST_BIND_FABRIC;
    if (!in_time_now(f, s))
        b |= 1u << ST_BIND_DEADLINE;
    if (s->power_w > 0 && w + f->kept_w > s->power_w)
        b |= 1u << ST_BIND_POWER;
    for (int i = 0; i < 3; i++)
        if (cap[i] > 0 && heat[i] > cap[i])
            b |= 1u << ST_BIND_COOLING;
    if (s->gpus > 0 && f->fleet_gpus > s->gpus)
        b |= 1u << ST_BIND_GPUS;
    if (s->racks > 0 && f->fleet_racks > s->racks)
        b |= 1u << ST_BIND_RACKS;
    if (s->capex_usd > 0 && !(f->bought_usd >= 0 && f->bought_usd <= s->capex_usd))
        b |= 1u << ST_BIND_CAPEX;
    if (s->tco_usd_per_year > 0 &&
        !(f->per_year_usd >= 0 && f->per_year_usd <= s->tco_usd_per_year))
        b |= 1u << ST_BIND_TCO;
    return b;
}

/* Which typed price sets a configuration's cost under delivery c: the node's on premises, the
 * committed or on-demand GPU-hour's rented. */
static st_cost_key price_key(const st_cost_cfg *c)
{
    if (c->delivery == ST_DELIVERY_ON_PREM)
        return ST_COST_NODE;
    return c->delivery == ST_DELIVERY_CLOUD && c->pricing == ST_PRICING_COMMITTED
               ? ST_COST_COMMITTED
               : ST_COST_GPU_HOUR;
}

/* The capex and cost of configuration f (its time to train, its energy at step_j a step
 * stretched by its goodput, its tokens and metered peak) under s's prices for its GPU type
 * (st_cost_for_gpu: the scenario's for the type, else for every type, else the preset table's):
 * capex_usd, cost_usd and per_year_usd, left at -1 where a price the delivery reads is unknown
 * for the type, and on premises (cost) when no energy is known; price_source says where the
 * price that sets them came from. */
/* The GPUs of the spare nodes a job keeps (failures.spares) beside its own, on shape c: bought
 * or rented as its nodes are, and counted in the GPU budget. 0 without spares. */
static int64_t spare_gpus(const st_size_spec *s, const st_cluster_cfg *c)
{
    return s->failures && s->failures->has_spares ? s->failures->spares * c->gpus_per_node : 0;
}

/* Configuration f's energy at the facility over its time to train (st_plant_job_energy_j, as
 * `run` counts a job's): its steps and the work the failures make it redo at its step's energy
 * (st__size_life_busy_s), the rest of the time (downtime, restarts, checkpoint stalls, waits
 * for spares) its GPUs at rest (st_plant_resting_w), and its nodes' base power over the whole
 * time; 0 where the plant was not run. */
static double job_energy(const st_cluster_cfg *c, const st_workload_cfg *p, const plant_energy *e,
                         const st__size_life *l, const st_size_cfg *f)
{
    if (!(e->step_j > 0))
        return 0;
    double busy = st__size_life_busy_s(l, f->work_s, f->ckpt_every_s, f->mem_every_s);
    busy = busy < f->train_s ? busy : f->train_s;
    double rest_j = (f->train_s - busy) * (double)p->gpus * st_plant_resting_w(c->gpu, e->floor_w);
    return st_plant_job_energy_j(e->pue, f->steps * busy / f->work_s, e->step_j, rest_j,
                                 st_plant_job_base_w(c, p->gpus), f->train_s);
}

/* The whole persistent saves configuration f's work takes: at the cadence searched (with
 * failures), else at the plan's own interval (a time, or steps at f's step); none under `auto`
 * with nothing that needs a save, as `run` leaves it (models/forecast/life.c). */
static double saves_of(const st_workload_cfg *p, const st_size_cfg *f)
{
    const st_ckpt_cfg *ck = &p->checkpoint;
    double every = f->ckpt_every_s > 0 ? f->ckpt_every_s
                   : ck->every_s > 0   ? ck->every_s
                                       : (double)ck->every_steps * f->step_s;
    return every > 0 ? floor(f->work_s / every) : 0;
}

static void price(const size_count *k, const st_workload_cfg *p, const st_memory *m,
                  const st_size_spec *s, const plant_energy *e, double tps, st_size_cfg *f)
{
    st_cost_cfg c;
    cost_of_variant(s, k->variant, k->c.gpu->name, &k->c.fabric, &c);
    f->price_source = c.from[price_key(&c)].source;
    f->switch_source = c.delivery == ST_DELIVERY_ON_PREM
                           ? st_cost_price_source(c.part_from[ST_PART_SWITCH], c.switch_price_usd)
                           : NULL;
    /* The parts a row buys that may go unpriced: a missing switch or storage price is refused
     * (st_cost_missing), the tier's bandwidth bought only under --storage-bandwidth, which
     * needs its price. */
    static const st_cost_part maybe[] = {ST_PART_OPTIC, ST_PART_RACK, ST_PART_COOLING_AIR,
                                         ST_PART_COOLING_LIQUID};
    f->unpriced = 0;
    for (size_t q = 0; q < sizeof maybe / sizeof maybe[0] && c.delivery == ST_DELIVERY_ON_PREM; q++)
        if (st_cost_part_value(&c, maybe[q]) < 0)
            f->unpriced |= 1u << maybe[q];
    f->node_price_usd = st_cost_node_price(&c, k->c.gpus_per_node); /* a node's, as bought */
    f->switch_price_usd = c.switch_price_usd;
    f->switches = k->switches;
    /* The cluster its share is of: the shape, or under --existing the grown fleet, as `run`
     * prices a job of the fleet (models/forecast/run_cost.c): its share of the switches, racks,
     * cooling and staff is its GPUs over the fleet's, its nodes at its type's price (the fleet's
     * GPUs in nodes of its pool's size). failures.spares: nodes held beside the job's own,
     * priced as its nodes are. */
    int64_t all = st_pools_cluster_gpus(k->whole);
    f->share = (double)p->gpus / (double)all;
    st_cost_use u = {.gpus = p->gpus + spare_gpus(s, &k->c),
                     .cluster_gpus = all,
                     .cluster_nodes = st_pools_one_node_size(k->whole)
                                          ? (double)k->whole->nodes
                                          : (double)all / (double)k->c.gpus_per_node,
                     .node_gpus = k->c.gpus_per_node,
                     .cluster_switch = k->switches,
                     .held_s = f->train_s,
                     .energy_j = job_energy(&k->c, p, e, &k->life, f),
                     .tokens = f->steps * tps,
                     .peak_w = isfinite(f->facility_w) ? f->facility_w : 0,
                     .storage_bw_bps = k->tier_bw,
                     .optic_ports = k->optic_ports,
                     .racks = st_racks_count(k->whole),
                     .cooling_air_w = isfinite(f->heat.air_w) ? f->heat.air_w : 0,
                     .cooling_liquid_w = isfinite(f->heat.liquid_w) ? f->heat.liquid_w : 0};
    if (p->checkpoint.enabled && k->c.n_tiers > 0) /* as `run` counts a job's checkpoints */
        st_cost_use_checkpoints(&u, &c, m->checkpoint_bytes, saves_of(p, f),
                                k->life.plan.usd_per_save);
    if (c.node_price_usd >= 0 && c.switch_price_usd >= 0)
        f->capex_usd = st_cost_bought(&c, &u);
    const char *why;
    if (st_cost_missing(&c, &why))
        return;
    if (c.delivery != ST_DELIVERY_ON_PREM || u.energy_j > 0) {
        st_cost_result cr = st_cost_job(&c, &u);
        f->cost_usd = cr.total_usd;
        f->per_year_usd = cr.per_year_usd;
        f->breakdown = cr;
    }
}

/* Whether f is of the existing pool's GPU type (shape c's), growing that pool. */
static int grows_existing(const st_cluster_cfg *c, const st_size_spec *s)
{
    return s->existing_gpu && strcmp(c->gpu->name, s->existing_gpu->name) == 0;
}

/* What the fleet's nodes outside the job of shape k add to the facility from idle to full draw,
 * W, and to its heat into *heat: each node's base power and its GPUs at their TDP against at
 * idle, through the plant's steady facility model (PSUs, distribution, transformers, UPS and
 * cooling plant: models/plant/plant.h). Their own work is not known here, so it is taken at the
 * most it can draw; the row's plant has them idle, as `run` does with no job on them. 0 without
 * a fleet or a TDP. */
static double kept_draw(const size_count *k, st_plant_heat *heat)
{
    *heat = (st_plant_heat){0, 0, 0};
    if (!k->has_fleet || !(k->whole->gpu->tdp_w > 0))
        return 0;
    st_plant_facility lo, hi;
    st_plant_heat hlo, hhi;
    st_plant_facility_steady_heat(k->whole, st__size_fleet_others_w(&k->fleet, k->nodes, 0), 0, &lo,
                                  &hlo);
    st_plant_facility_steady_heat(k->whole, st__size_fleet_others_w(&k->fleet, k->nodes, 1), 0, &hi,
                                  &hhi);
    *heat = (st_plant_heat){hhi.total_w - hlo.total_w, hhi.air_w - hlo.air_w,
                            hhi.liquid_w - hlo.liquid_w};
    return hi.total_w - lo.total_w;
}

/* f's nodes bought and the fleet the GPU and rack budgets count, on shape k: with an existing
 * pool of N0 nodes, a shape of n nodes of its type grows it to max(n, N0), buying the excess;
 * one of another type is a pool of its own beside it, all n bought. The budgets count the grown
 * fleet, every pool of the scenario. Without one, the shape. */
static void fleet_of(const size_count *k, const st_size_spec *s, st_size_cfg *f)
{
    int64_t n0 = s->existing_nodes, n = f->nodes;
    f->added_nodes = n;
    f->fleet_gpus = f->gpus + spare_gpus(s, &k->c);
    f->fleet_racks = f->racks;
    if (!s->existing_gpu)
        return;
    int same = grows_existing(&k->c, s);
    f->added_nodes = same ? (n > n0 ? n - n0 : 0) : n;
    f->kept_w = k->kept_w;
    f->kept_heat = k->kept_heat;
    f->fleet_gpus = st_pools_cluster_gpus(k->whole) + spare_gpus(s, &k->c);
    f->fleet_racks = st_racks_count(k->whole);
}

/* What f buys (bought_usd) and the key it ranks by first (added_key). */
static void bought_of(const st_size_spec *s, st_size_cfg *f)
{
    f->bought_usd = f->capex_usd;
    f->added_key = 0;
    if (!s->existing_gpu)
        return;
    if (f->added_nodes == 0)
        f->bought_usd = 0; /* it runs on the pool already owned */
    else if (f->capex_usd >= 0)
        f->bought_usd = f->capex_usd * (double)f->added_nodes / (double)f->nodes;
    f->added_key = f->bought_usd >= 0 ? f->bought_usd : INFINITY;
}

/* Time, power and price of plan p, simulated, into f. */
static int evaluate(size_count *k, const st_workload_cfg *p, const st_memory *m,
                    const st_size_spec *s, st_size_cfg *f, st_err *err)
{
    st_step_result r;
    int rc = st_step_run(k->ctx, p, p->parallel.microbatch, &r, NULL, err);
    if (rc)
        return rc;
    double tps = (double)p->global_batch * (double)p->seq_len;
    plant_energy e = {0, 0, 0};
    *f = (st_size_cfg){.nodes = k->nodes,
                       .gpus = p->gpus,
                       .tp = p->parallel.tp,
                       .pp = p->parallel.pp,
                       .dp = p->parallel.dp,
                       .vs = p->parallel.virtual_stages,
                       .mb = p->parallel.microbatch,
                       .ep = p->model->experts > 0 ? p->parallel.ep : 0,
                       .recompute = p->parallel.recompute,
                       .mem_bytes = m->total,
                       .mem_capacity = m->capacity,
                       .step_s = r.step_time_s,
                       .cost_usd = -1,
                       .share = 1,
                       .heat = {NAN, NAN, NAN}};
    f->variant = k->variant;
    f->topology = k->c.fabric.topology;
    f->leaves_per_pod = k->c.fabric.leaves_per_pod;
    f->ports = k->ports;
    f->optic_w = k->optic_w;
    f->switch_ports = k->c.fabric.switch_ports > 0 ? k->c.fabric.switch_ports : INT64_MAX;
    f->steps = p->steps > 0 ? (double)p->steps : ceil(p->tokens / tps);
    f->work_s = f->steps * f->step_s;
    f->train_s = st__size_life_train(&k->life, p, f->work_s, f->step_s, &f->ckpt_every_s,
                                     &f->mem_every_s, &k->cadences);
    f->goodput = f->train_s > 0 ? f->work_s / f->train_s : 1;
    f->spares_held = s->failures && s->failures->has_spares ? k->life.blocked : -1;
    f->spares_needed = k->life.spares_needed;
    f->train_band[0] = f->train_s * k->band.lo;
    f->train_band[1] = f->train_s * k->band.hi;
    f->train_conf_s = f->train_s * k->conf;
    f->storage_s = st__size_life_storage_s(&k->life, f->work_s, f->train_s, f->ckpt_every_s);
    f->gpu_hours = (double)p->gpus * f->train_s / 3600.0;
    int64_t npr = k->c.racks.nodes_per_rack > 0 ? k->c.racks.nodes_per_rack : 1;
    f->racks = k->has_fleet ? (k->nodes + npr - 1) / npr : st_racks_count(&k->c);
    fleet_of(k, s, f);
    f->capex_usd = -1;
    f->per_year_usd = -1;
    f->step = r;
    f->facility_w = NAN;
    f->power_lb = power_lb(&k->c, p->gpus, &r);
    f->junction_c = NAN;
    int in_time = in_time_now(f, s);
    if (plant_now(s, f, in_time)) {
        f->facility_w = plant_of(k->whole, k->cids, p->gpus, &r, k->optic_w, s, &e, &f->heat);
        f->junction_c = junction_of(k->whole, k->cids, p->gpus, &r);
        f->powered = 1;
    }
    if (s->cost)
        price(k, p, m, s, &e, tps, f);
    bought_of(s, f);
    f->objective =
        s->goal == ST_SIZE_COST ? (f->cost_usd >= 0 ? f->cost_usd : INFINITY) : f->gpu_hours;
    f->binds = binds_of(f, s);
    f->feasible = in_time_now(f, s) && within_fixed(f, s) && within_plant(f, s);
    return 0;
}

static st_size_cfg *push(st_size_result *out)
{
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 64;
        out->cfg = st_xrealloc(out->cfg, out->cap * sizeof *out->cfg);
    }
    return &out->cfg[out->n++];
}

/* Prune or simulate plan p (recompute levels tried in order: once one fits, the ones that
 * recompute more are dominated, slower for no memory the plan needs). *fit says whether it fit. */
static int try_plan(size_count *k, const st_workload_cfg *p, const st_size_spec *s,
                    st_size_result *out, int *fit, st_err *err)
{
    out->considered++;
    if (*fit) {
        out->pruned_dominated++;
        return 0;
    }
    if (!rules_hold(p, &k->c)) {
        out->pruned_rule++;
        return 0;
    }
    st_memory m;
    st_memory_estimate(p, k->c.gpu, p->parallel.microbatch, &m);
    if (!m.fits) {
        out->pruned_memory++;
        return 0;
    }
    *fit = 1;
    if (!k->life_open) { /* the checkpoint's bytes are the model's state, whatever the plan */
        /* on the fabric the step context built from the same shape, not a copy of it */
        int e = st__size_life_open(&k->life, &k->c, st_step_ctx_topo(k->ctx), k->ids[0], p, &m,
                                   s->failures, k->spare, err);
        if (e)
            return e;
        k->life_open = 1;
    }
    st_size_cfg *f = push(out);
    int rc = evaluate(k, p, &m, s, f, err);
    if (rc) {
        out->n--;
        return rc;
    }
    if (f->objective < k->best)
        k->best = f->objective;
    return 0;
}

/* The virtual stages, micro-batches and recompute levels of plan a (tp, pp, ep set) on k. */
static int search_inner(size_count *k, const st_workload_cfg *w, const st_size_spec *s, plan_axes a,
                        st_size_result *out, st_err *err)
{
    int64_t g = k->gpus;
    /* a software row's attention kernel is the one it runs on this shape's GPU type */
    int attn = w->software && !w->attention_stated
                   ? (int)st_software_attention(w->software, k->c.gpu)
                   : (int)w->attention;
    for (size_t v = 0; v < sizeof vs_axis / sizeof *vs_axis; v++) {
        if (vs_axis[v] > 1 && a.pp == 1)
            continue;
        a.vs = vs_axis[v];
        for (size_t b = 0; b < sizeof mb_axis / sizeof *mb_axis; b++) {
            int fit = 0;
            a.mb = mb_axis[b];
            for (int rc = ST_RECOMPUTE_NONE; rc <= ST_RECOMPUTE_FULL; rc++) {
                a.rc = (st_recompute)rc;
                st_workload_cfg p = plan_of(w, g, &a);
                p.attention = (st_attention)attn;
                int e = try_plan(k, &p, s, out, &fit, err);
                if (e)
                    return e;
            }
        }
    }
    return 0;
}

/* Every plan of w on shape k: tp a power of two within the NVLink domain, pp dividing the
 * layers or a power of two (uneven stages, as Llama 3 405B's 126 layers on 16 stages, Dubey et
 * al. 2024, arXiv:2407.21783, section 3.3.2), for a mixture-of-experts model ep a power of two
 * up to its experts and a stage's GPUs, then virtual stages, micro-batch and recompute; the plan
 * rules (models/silicon/plan_check.h) decide the rest. */
static int search_count(size_count *k, const st_workload_cfg *w, const st_size_spec *s,
                        st_size_result *out, st_err *err)
{
    int64_t g = k->gpus, layers = w->model->layers;
    int64_t experts = w->model->experts > 0 ? w->model->experts : 1;
    for (int64_t tp = 1; tp <= k->c.nvlink_domain && tp <= g; tp *= 2)
        for (int64_t pp = 1; pp <= layers && tp * pp <= g; pp++) {
            if (layers % pp && (pp & (pp - 1)))
                continue;
            for (int64_t ep = 1; ep <= experts && ep <= g / pp; ep *= 2) {
                int e = search_inner(k, w, s, (plan_axes){.tp = tp, .pp = pp, .ep = ep}, out, err);
                if (e)
                    return e;
            }
        }
    return 0;
}

/* Variant v of cluster c into *out: its GPU type (on its own platform's node where that differs:
 * size_platform.h), every fabric tier's oversubscription, its transport and topology; with tiers
 * (room for c's), its checkpoint tier `tier`'s bandwidth, the read bandwidth scaled by the
 * write's ratio (the tier's media and front end, faster or slower alike: an assumption,
 * storage-and-failures.md models both as one tier's figures). */
static void variant_of(const st_cluster_cfg *c, const st_size_spec *s, size_t v, int tier,
                       st_tier_cfg *tiers, st_cluster_cfg *out)
{
    *out = *c;
    if (v >= s->n_variants)
        return;
    const st_size_variant *x = &s->variants[v];
    if (tiers && x->ckpt_write_bw > 0 && tier >= 0 && tier < c->n_tiers) {
        memcpy(tiers, c->tiers, (size_t)c->n_tiers * sizeof *tiers);
        tiers[tier].read_bw *= x->ckpt_write_bw / tiers[tier].write_bw; /* never below the */
        if (tiers[tier].read_bw < ST_LIM_MIN_RATE) /* slowest rate the models represent */
            tiers[tier].read_bw = ST_LIM_MIN_RATE;
        tiers[tier].write_bw = x->ckpt_write_bw;
        out->tiers = tiers;
    }
    if (x->gpu)
        out->gpu = x->gpu;
    if (x->racks)
        out->racks = *x->racks;
    if (x->gpu && c->calib.enabled && strcmp(x->gpu->name, c->calib.gpu) != 0)
        out->calib.enabled = 0;              /* a calibration measures its own GPU type only */
    if (x->gpu && c->node.base_power_of_gpu) /* not the scenario's: the platform's, as loaded */
        out->node.base_power_w = x->gpu->node_base_w;
    if (x->gpu) /* on its platform's node; under --existing a pool of its own node size */
        st__size_platform(c, x->gpu, out);
    if (x->oversub >= 1) {
        out->fabric.oversub[0] = x->oversub;
        out->fabric.n_oversub = 1;
    }
    if (x->set_transport) {
        out->fabric.transport = x->transport;
        if (!c->fabric.routing_given) /* the variant's transport brings its default routing */
            out->fabric.routing = st_transport_default_routing(x->transport);
    }
    if (x->set_topology) /* the same leaf switch: its nodes per leaf follow the wiring */
        st_leaf_retopology(&out->fabric, out->nodes, x->topology);
    if (x->set_delivery && !c->variability.noise_loc.line) /* the cluster states none: */
        st_noise_profile_apply(st_noise_profile_of_delivery(x->delivery), &out->variability);
}

/* Shape k's switches and the most ports one needs. */
static int ports_of(size_count *k, st_err *err)
{
    st_topo *t = NULL;
    int rc = st_topo_new(k->whole, &t, err);
    if (rc)
        return rc;
    k->switches = st_topo_switches_bought(t, k->c.fabric.switch_ports);
    k->ports = st_topo_most_ports(t, NULL);
    k->optic_ports = st_forecast_topo_ports(t);
    /* the switches' optics beside the racks, as `strata run` counts them (models/forecast):
     * once for the shape, not once for each configuration the plant runs on it */
    st_forecast_optics_w(k->whole, k->optic_ports, &k->optic_w);
    st_topo_free(t);
    return 0;
}

/* Shape k's fabric, grown with its size: a spine-leaf fabric whose spines would need more ports
 * than its switches have gets a third tier, pods of half a switch's ports of leaves (the pods
 * of a k-ary fat tree, each aggregation switch half down and half up: Al-Fares et al., "A
 * Scalable, Commodity Data Center Network Architecture", SIGCOMM 2008). Past what three tiers
 * of those switches reach, the fabric cannot be built: fabric binds (binds_of). */
static int fabric_of(size_count *k, st_err *err)
{
    int rc = ports_of(k, err);
    st_fabric_cfg *f = &k->c.fabric;
    if (rc || f->topology != ST_TOPO_SPINE_LEAF || !(f->switch_ports > 1) ||
        k->ports <= f->switch_ports)
        return rc;
    f->topology = ST_TOPO_FAT_TREE_3;
    f->leaves_per_pod = f->switch_ports / 2;
    if (k->has_fleet) { /* the fleet's fabric, which the view's copies */
        k->fleet.c.fabric.topology = f->topology;
        k->fleet.c.fabric.leaves_per_pod = f->leaves_per_pod;
    }
    return ports_of(k, err);
}

/* Shape k of cluster c's variant v with `nodes` nodes: its context (on the variant's memo),
 * GPU ids and switches. */
/* The step model's error band of workload w on `gpus` GPUs of type g, and its upper end at the
 * spec's confidence into *conf (1 without one). The CLI keeps the confidence where the residual
 * table reaches it (st_size_confidence_max). */
static st_band band_at(const st_size_spec *s, const st_workload_cfg *w, const st_cluster_cfg *c,
                       const st_gpu_spec *g, int64_t gpus, double *conf)
{
    st_band_key key = st_band_key_of(w, g);
    key.gpus = gpus;
    st_band b = {.lo = 1, .hi = 1};
    *conf = 1;
    const st_calib_cfg *cal = &c->calib; /* a GPU type calibrated on its steps: its band */
    int own = cal->enabled && strcmp(cal->gpu, g->name) == 0 && !st_band_of_calib(cal, &b);
    if (own && (!(s->confidence > 0) || !st_band_calibrated_upper(&b, s->confidence, conf)))
        return b;
    /* a confidence the calibrated band's runs do not reach: the public runs like the job */
    if (!own && st_band_of(key, &b))
        ST_BUG("the band's residual table has fewer than ST_BAND_MIN_RUNS runs");
    if (s->confidence > 0 && st_band_upper(key, s->confidence, conf, NULL))
        ST_BUG("a confidence the band's residual table does not reach");
    return b;
}

static int count_open(size_count *k, const st_cluster_cfg *c, const st_size_spec *s,
                      const st_workload_cfg *w, size_t v, int tier, int64_t nodes,
                      st_step_memo *memo, st_err *err)
{
    memset(k, 0, sizeof *k);
    k->variant = v;
    k->tiers = c->n_tiers > 0 ? st_xcalloc((size_t)c->n_tiers, sizeof *k->tiers) : NULL;
    variant_of(c, s, v, tier, k->tiers, &k->c);
    k->c.nodes = k->nodes = nodes;
    k->gpus = nodes * k->c.gpus_per_node;
    k->whole = &k->c;
    if (s->scenario) { /* the row on the grown fleet, its step on its pool's view */
        st__size_fleet_init(&k->fleet, s->scenario, s->existing_pool, &k->c, nodes);
        k->has_fleet = 1;
        k->c = k->fleet.view;
        k->whole = &k->fleet.c;
        k->kept_w = kept_draw(k, &k->kept_heat);
    }
    if (v < s->n_variants && s->variants[v].ckpt_write_bw > 0) /* a local-nvme tier's per node */
        k->tier_bw = s->variants[v].ckpt_write_bw *
                     (c->tiers[tier].kind == ST_TIER_LOCAL_NVME ? (double)nodes : 1.0);
    k->best = INFINITY;
    int64_t g = k->gpus;
    k->band = band_at(s, w, c, k->c.gpu, g, &k->conf);
    k->ids = st_xmalloc((size_t)g * sizeof *k->ids);
    k->cids = st_xmalloc((size_t)g * sizeof *k->cids);
    for (int64_t i = 0; i < g; i++) {
        k->ids[i] = k->has_fleet ? st__size_fleet_view_gpu(&k->fleet, i) : i;
        k->cids[i] = k->has_fleet ? st__size_fleet_gpu(&k->fleet, i) : i;
    }
    int rc = fabric_of(k, err);
    if (!rc)
        rc = st_step_ctx_new_shared(&k->c, memo, &k->ctx, err);
    if (!rc && k->has_fleet) /* where a placement on its pool, empty, puts it */
        st_step_ctx_place(k->ctx, k->ids, g);
    if (!rc) /* the rows report no closed-form step */
        st_step_ctx_skip_closed_form(k->ctx);
    return rc;
}

static void count_close(size_count *k)
{
    st_step_ctx_free(k->ctx);
    free(k->ids);
    free(k->cids);
    free(k->tiers);
    if (k->has_fleet)
        st__size_fleet_release(&k->fleet);
}

/* Ranked: feasible first by objective, then time to train; ties by the plan, so the order is
 * the same on every run. */
static int rank_cmp(const void *pa, const void *pb)
{
    const st_size_cfg *a = pa, *b = pb;
    if (a->feasible != b->feasible)
        return b->feasible - a->feasible;
    if (a->feasible && a->added_key != b->added_key) /* --existing: what it buys first */
        return a->added_key < b->added_key ? -1 : 1;
    double ka = a->feasible ? a->objective : a->train_s,
           kb = b->feasible ? b->objective : b->train_s;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (a->train_s != b->train_s)
        return a->train_s < b->train_s ? -1 : 1;
    const int64_t x[] = {(int64_t)a->variant, a->gpus, a->tp, a->pp, a->ep, a->vs, a->mb,
                         a->recompute};
    const int64_t y[] = {(int64_t)b->variant, b->gpus, b->tp, b->pp, b->ep, b->vs, b->mb,
                         b->recompute};
    for (size_t i = 0; i < sizeof x / sizeof *x; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The scalable unit in nodes of shape v (a variant of c): its own rack or leaf, or the spec's
 * count, else one node; a count on a platform of another node size is as many of its nodes as
 * hold the same GPUs (32 HGX nodes are 64 GB200 trays), one node for one. */
static int64_t unit_of(const st_size_spec *s, const st_cluster_cfg *c, const st_cluster_cfg *v)
{
    if (s->unit == ST_SIZE_UNIT_RACK && v->racks.nodes_per_rack > 0)
        return v->racks.nodes_per_rack;
    if (s->unit == ST_SIZE_UNIT_LEAF && v->fabric.nodes_per_leaf > 0)
        return v->fabric.nodes_per_leaf;
    int64_t u = s->unit_nodes > 0 ? s->unit_nodes : 1;
    if (u == 1 || v->gpus_per_node == c->gpus_per_node)
        return u;
    return (u * c->gpus_per_node + v->gpus_per_node - 1) / v->gpus_per_node;
}

/* The most units the GPU and rack budgets allow; INT64_MAX when neither is set. */
static int64_t most_units(const st_cluster_cfg *c, const st_size_spec *s, int64_t unit)
{
    int64_t most = INT64_MAX;
    if (s->gpus > 0) /* the spares' GPUs first: they come with every size */
        most = s->gpus > spare_gpus(s, c) ? (s->gpus - spare_gpus(s, c)) / (c->gpus_per_node * unit)
                                          : 0;
    if (s->racks > 0 && c->racks.nodes_per_rack > 0 &&
        s->racks * c->racks.nodes_per_rack / unit < most)
        most = s->racks * c->racks.nodes_per_rack / unit;
    return most;
}

/* One variant's sizes: its candidates in its own nodes, its GPUs a node, and whether its unit
 * differs from the scenario's (its platform's node, or its own racks or leaf). */
typedef struct variant_sizes {
    int64_t *nodes; /* malloc'd, ascending */
    size_t n;
    int64_t gpn;
    int reshaped;
} variant_sizes;

/* Variant v's sizes on its own shape (variant_of), in units of its own. */
static variant_sizes sizes_of(const st_cluster_cfg *c, const st_workload_cfg *w,
                              const st_size_spec *s, size_t v)
{
    st_cluster_cfg vc;
    variant_of(c, s, v, -1, NULL, &vc);
    int64_t unit = unit_of(s, c, &vc);
    variant_sizes z = {.gpn = vc.gpus_per_node,
                       .reshaped =
                           vc.gpus_per_node != c->gpus_per_node || unit != unit_of(s, c, c)};
    z.n = st__size_candidates(&vc, w, unit, most_units(&vc, s, unit), &z.nodes);
    return z;
}

/* What the plant, after the ranking, needs: the cluster and the spec. */
typedef struct size_late {
    const st_cluster_cfg *c;
    const st_size_spec *s;
} size_late;

/* Configuration f's facility power, junction and binds by the plant, when the search left them
 * out. */
static void power_late(const size_late *l, st_size_cfg *f)
{
    if (f->powered)
        return;
    st_cluster_cfg shape, *whole = &shape;
    st__size_fleet fleet = {0};
    variant_of(l->c, l->s, f->variant, -1, NULL, &shape); /* the plant reads no storage tier */
    shape.nodes = f->nodes;
    if (l->s->scenario) { /* the grown fleet, as the search ran it (count_open) */
        st__size_fleet_init(&fleet, l->s->scenario, l->s->existing_pool, &shape, f->nodes);
        whole = &fleet.c;
    }
    whole->fabric.topology = f->topology; /* as the search grew it (fabric_of) */
    whole->fabric.leaves_per_pod = f->leaves_per_pod;
    int64_t *ids = st_xmalloc((size_t)f->gpus * sizeof *ids);
    for (int64_t i = 0; i < f->gpus; i++)
        ids[i] = l->s->scenario ? st__size_fleet_gpu(&fleet, i) : i;
    plant_energy e;
    f->facility_w = plant_of(whole, ids, f->gpus, &f->step, f->optic_w, l->s, &e, &f->heat);
    f->junction_c = junction_of(whole, ids, f->gpus, &f->step);
    free(ids);
    if (l->s->scenario)
        st__size_fleet_release(&fleet);
    f->powered = 1;
    f->binds = binds_of(f, l->s);
}

/* Whether f is within every budget (the plant's: power over its bound, else by the plant;
 * racks, GPUs, capex, the yearly cost) and its switches have the ports it needs: the front is
 * of the plans within the budgets (docs/guide/sizing.md), and a fabric that cannot be built is
 * on none. */
static int within_power(st_size_cfg *f, void *ctx)
{
    const size_late *l = ctx;
    if (!within_fixed(f, l->s))
        return 0;
    if (!plant_budget(l->s))
        return 1;
    if (!f->powered && l->s->power_w > 0 && f->power_lb + f->kept_w > l->s->power_w)
        return 0;
    power_late(l, f);
    return within_plant(f, l->s);
}

/* Rank the n configurations, mark the front and complete the rows asked for. */
static void finish(const st_cluster_cfg *c, const st_size_spec *spec, st_size_result *out)
{
    size_late l = {c, spec};
    qsort(out->cfg, out->n, sizeof *out->cfg, rank_cmp);
    st_size_front_by(out->cfg, out->n, within_power, &l);
    for (size_t i = 0; i < out->n; i++)
        if (i < spec->rows || out->cfg[i].front)
            power_late(&l, &out->cfg[i]);
}

/* The least power a shape of `nodes` nodes of cluster c draws, W: every node's base power and
 * every GPU idle, through the power supplies, as the plant counts IT power
 * (models/plant/plant.c); the facility adds its losses and cooling to that (PUE >= 1), so no
 * plan on the shape, nor on a larger one, draws less. */
static double power_floor(const st_cluster_cfg *c, int64_t nodes)
{
    return (double)nodes * (c->node.base_power_w + (double)c->gpus_per_node * c->gpu->idle_w) /
           st_plant_preset_get()->psu_efficiency;
}

/* Whether f (on a shape of cluster c's variant) breaks a budget that grows with the cluster:
 * power (over its shape's floor, or its plan's lower bound: figures every configuration has
 * whether the plant ran for it or not, so the sizes searched do not depend on the rows asked
 * for), cooling in all (over the floor: all the power drawn is heat), capex or the yearly cost. */
static int over_growing(const st_size_cfg *f, const st_cluster_cfg *c, const st_size_spec *s)
{
    double floor = power_floor(c, f->nodes); /* every watt drawn is heat to reject as well */
    return (s->power_w > 0 && fmax(f->power_lb, floor) + f->kept_w > s->power_w) ||
           (s->cooling_w > 0 && floor > s->cooling_w) ||
           (s->capex_usd > 0 && f->bought_usd > s->capex_usd) ||
           (s->gpus > 0 && f->fleet_gpus > s->gpus) ||
           (s->racks > 0 && f->fleet_racks > s->racks) ||
           (s->tco_usd_per_year > 0 && f->per_year_usd > s->tco_usd_per_year);
}

/* Whether f, a plan that meets the deadline (the plant has run for it under a power or cooling
 * budget: plant_now), breaks a budget that grows with the cluster by its own figures: power,
 * cooling, capex or the yearly cost. */
static int over_grown(const st_size_cfg *f, const st_cluster_cfg *c, const st_size_spec *s)
{
    return over_growing(f, c, s) || !within_plant(f, s) ||
           (s->capex_usd > 0 && !(f->bought_usd >= 0 && f->bought_usd <= s->capex_usd)) ||
           (s->tco_usd_per_year > 0 &&
            !(f->per_year_usd >= 0 && f->per_year_usd <= s->tco_usd_per_year));
}

/* One variant's search over its candidate sizes (st__size_bisect's probe context). */
typedef struct variant_search {
    const st_cluster_cfg *c;
    const st_workload_cfg *w;
    const st_size_spec *spec;
    size_t v;
    int64_t gpn; /* the variant's GPUs a node (size_platform.h) */
    const int64_t *nodes;
    st_step_memo *memo; /* one memo of collective times over every variant's sizes: keyed by
                           fabric and GPU class, so variants alike on both share entries */
    st_maxmin *spare;   /* the storage model's max-min solver, rebased onto each size's fabric */
    st_size_result *out;
    st_err *err;
    int64_t done, total; /* progress: the sizes searched over every variant (counts_searched)
                            and the count expected, grown where the search needs more */
    int64_t bounded;     /* sizes ruled out by compute alone, not simulated */
    int prune_bound;     /* some size can meet the deadline on compute: rule out those that
                            cannot (else every size is simulated, to show what the best do) */
} variant_search;

/* Every plan of variant x's candidate i, into x->out; what it found into *p. */
/* The least time to train workload w on `nodes` nodes of variant v, as the deadline holds it:
 * its model FLOPs over every GPU at its dense peak for the precision (MFU 1; failures and
 * stalls only add), times the band's upper end at the spec's confidence. */
static double compute_bound_s(const variant_search *x, int64_t nodes)
{
    const st_workload_cfg *w = x->w;
    const st_gpu_spec *g = x->v < x->spec->n_variants && x->spec->variants[x->v].gpu
                               ? x->spec->variants[x->v].gpu
                               : x->c->gpu;
    double tps = (double)w->global_batch * (double)w->seq_len, conf;
    double steps = w->steps > 0 ? (double)w->steps : ceil(w->tokens / tps);
    double flops = steps * tps * st_llm_flops_per_token(w->model, w->seq_len);
    int64_t gpus = nodes * x->gpn;
    band_at(x->spec, w, x->c, g, gpus, &conf);
    return flops / ((double)gpus * st_gpu_peak(g, w->precision)) * conf;
}

static int probe_size(void *ctx, size_t i, st__size_probe *p)
{
    variant_search *x = ctx;
    if (x->prune_bound && compute_bound_s(x, x->nodes[i]) > x->spec->deadline_s) {
        /* no plan can meet it: not simulated (and no larger size is ruled out by it) */
        *p = (st__size_probe){.best_train_s = INFINITY, .best_feasible = INFINITY};
        x->bounded++;
        return 0;
    }
    size_count k;
    size_t first = x->out->n;
    int rc = count_open(&k, x->c, x->spec, x->w, x->v, x->w->checkpoint.tier, x->nodes[i], x->memo,
                        x->err);
    k.spare = &x->spare;
    if (!rc)
        rc = search_count(&k, x->w, x->spec, x->out, x->err);
    x->out->cadences += k.cadences;
    *p = (st__size_probe){
        .best_train_s = INFINITY, .best_feasible = INFINITY, .over = x->out->n > first};
    int in_time = 0, in_time_over = 1; /* every plan that meets the deadline over a budget */
    for (size_t j = first; j < x->out->n; j++) {
        const st_size_cfg *f = &x->out->cfg[j];
        p->meets |= f->feasible;
        if (f->feasible && f->objective < p->best_feasible)
            p->best_feasible = f->objective;
        p->over &= over_growing(f, &k.c, x->spec);
        if (f->train_conf_s <= x->spec->deadline_s) {
            in_time = 1;
            in_time_over &= over_grown(f, &k.c, x->spec);
        }
        if (f->train_s < p->best_train_s)
            p->best_train_s = f->train_s;
    }
    /* a size whose plans that meet the deadline all break a growing budget is too large, as
     * one whose every plan does */
    p->over |= !p->meets && in_time && in_time_over;
    count_close(&k);
    if (++x->done >= x->total) /* more than expected: the total grows, not past the count */
        x->total = x->done + 1;
    st_progress(SIZE_PROGRESS, x->done, x->total);
    return rc;
}

/* Variant v's sizes in whole units: the smallest that meets the deadline and the budgets, by
 * doubling then bisection (size_counts.h); every size's plans share the search's memo of
 * collective times (a pattern over the GPUs another size or variant has too is simulated once,
 * where their fabrics route those GPUs alike and their GPUs run collectives alike:
 * models/step/step.h). Returns 0 or an error. */
static int search_variant(variant_search *x, const int64_t *nodes, size_t nc)
{
    x->nodes = nodes;
    x->prune_bound = compute_bound_s(x, nodes[nc - 1]) <= x->spec->deadline_s;
    int64_t probed = 0;
    int rc = st__size_bisect(nc, nodes, probe_size, x, &probed);
    x->out->counts_searched += probed - x->bounded;
    x->out->counts_bounded += x->bounded;
    x->out->counts_skipped += (int64_t)nc - probed + x->bounded;
    x->bounded = 0;
    return rc;
}

/* Whether a variant of spec sets the checkpoint tier's bandwidth. */
static int varies_storage(const st_size_spec *s)
{
    for (size_t v = 0; v < s->n_variants; v++)
        if (s->variants[v].ckpt_write_bw > 0)
            return 1;
    return 0;
}

/* A bandwidth variant needs a checkpoint tier to apply to, and, where its price counts (on
 * premises under the cost goal or a TCO budget, or a capex budget), that price: there is no
 * published one (models/cost/prices.c's hardware prices). 0, or ST_EINVAL located. */
static int storage_check(const st_workload_cfg *w, const st_size_spec *s, st_err *err)
{
    if (!varies_storage(s))
        return 0;
    if (!w->checkpoint.enabled)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "--storage-bandwidth needs workload '%s' to checkpoint to a storage "
                          "tier (a checkpoint: section), found none",
                          w->name);
    int on_prem = 0;
    for (size_t v = 0; s->cost && v < (s->n_variants ? s->n_variants : 1); v++)
        on_prem |= delivery_of(s, v) == ST_DELIVERY_ON_PREM;
    int priced =
        s->capex_usd > 0 || (on_prem && (s->goal == ST_SIZE_COST || s->tco_usd_per_year > 0));
    if (priced && s->cost->storage_bw_usd_per_bps < 0)
        return st_err_set(err, ST_EINVAL, s->cost->loc,
                          "--storage-bandwidth with a %s needs cost: storage_bandwidth_price "
                          "(such as 5000 USD/(GB/s)): a hardware price with no published default",
                          s->capex_usd > 0          ? "capex budget"
                          : s->goal == ST_SIZE_COST ? "cost goal"
                                                    : "tco budget");
    return 0;
}

/* Where the ranking or a budget reads prices (the cost goal, a tco or a capex budget), every GPU
 * type searched must have them (st_cost_for_gpu: the scenario's for the type, for every type, or
 * the preset table's): a type without is refused, not priced at 0. 0, or ST_EINVAL located at
 * the cost: section. */
static int price_check(const st_cluster_cfg *c, const st_size_spec *s, st_err *err)
{
    if (!s->cost || !(s->goal == ST_SIZE_COST || s->tco_usd_per_year > 0 || s->capex_usd > 0))
        return 0;
    size_t nv = s->n_variants ? s->n_variants : 1;
    for (size_t v = 0; v < nv; v++) {
        const st_gpu_spec *g =
            v < s->n_variants && s->variants[v].gpu ? s->variants[v].gpu : c->gpu;
        st_cost_cfg p;
        st_fabric_cfg fab = c->fabric; /* the variant's transport picks its switch class */
        if (v < s->n_variants && s->variants[v].set_transport)
            fab.transport = s->variants[v].transport;
        cost_of_variant(s, v, g->name, &fab, &p);
        const char *why = NULL, *key = st_cost_missing(&p, &why);
        if (!key && s->capex_usd > 0 && p.node_price_usd < 0)
            key = "node_price", why = "the preset table has no sourced price for its GPU type";
        if (!key && s->capex_usd > 0 && p.switch_price_usd < 0)
            key = "switch_price", why = "the capex budget counts the switches";
        if (key && !strcmp(key, "switch_price"))
            return st_err_set(err, ST_EINVAL, s->cost->loc,
                              "the %s fabric has no 'switch_price' (the preset table has no "
                              "sourced price for its switch class): state it in cost:, such as "
                              "switch_price: 30000 USD",
                              st_transport_names[fab.transport]);
        if (key)
            return st_err_set(err, ST_EINVAL, s->cost->loc,
                              "GPU type '%s' has no '%s' under delivery '%s' (%s): state it in "
                              "cost:, for every type or per type, such as %s: {%s: %s}",
                              g->name, key, st_delivery_names[p.delivery], why, key, g->name,
                              strstr(key, "gpu_hour") ? "2.5 USD/h" : "300000 USD");
    }
    return 0;
}

/* A GPU variant on a cluster whose node power is its GPU platform's (base_power not stated)
 * takes the variant's platform figure, which must exist, as the loader asks of the scenario's
 * own GPU (scenarios/load_cluster.c); the variant is sized on its platform's node
 * (size_platform.c), under --existing too, where it is a pool of its own node size beside the
 * kept one (docs/models/pools.md). 0, or ST_EINVAL located. */
static int gpu_check(const st_cluster_cfg *c, const st_size_spec *s, st_err *err)
{
    for (size_t v = 0; v < s->n_variants && c->node.base_power_of_gpu; v++) {
        const st_gpu_spec *g = s->variants[v].gpu;
        if (g && !(g->node_base_w > 0))
            return st_err_set(err, ST_EINVAL, c->gpu_loc,
                              "--gpu %s: no platform figure for a node of %lld such GPUs' power "
                              "besides the GPUs: give cluster.node.base_power",
                              g->name, (long long)c->gpus_per_node);
    }
    return 0;
}

/* A GPU type the search tries must have the Tensor Cores the workload's precision needs, as the
 * loader asks of the scenario's own GPU (scenarios/load_workload.c): FP8 training from compute
 * capability 8.9, MXFP8 on Blackwell. 0, or ST_EINVAL located at the workload. */
static int precision_check(const st_workload_cfg *w, const st_size_spec *s, st_err *err)
{
    for (size_t v = 0; v < s->n_variants; v++) {
        const st_gpu_spec *g = s->variants[v].gpu;
        if (!g)
            continue;
        if (w->precision == ST_PREC_FP8 && !st_gpu_has_precision(g, ST_PREC_FP8))
            return st_err_set(err, ST_EINVAL, w->loc,
                              "--gpu-types %s: workload '%s' trains in fp8, which needs FP8 Tensor "
                              "Cores (Transformer Engine: compute capability 8.9 or higher); %s "
                              "has none: leave it out, or size a bf16 copy of the workload",
                              g->name, w->name, g->name);
        if (w->precision == ST_PREC_FP8 && w->fp8_recipe == ST_FP8_MXFP8 && !st_gpu_is_blackwell(g))
            return st_err_set(err, ST_EINVAL, w->loc,
                              "--gpu-types %s: workload '%s' scales FP8 as mxfp8, which needs "
                              "Blackwell Tensor Cores (b200, gb200): leave it out, or size a "
                              "copy with fp8_recipe: delayed or current",
                              g->name, w->name);
    }
    return 0;
}

/* When the GPU or rack budget is below one unit of every variant (--budget gpus=4 on 8-GPU
 * nodes), no size is searched whatever the workload: that budget is the error, located at the
 * option, with the least it takes; else 0. */
static int below_one_unit(const st_cluster_cfg *c, const st_size_spec *s, size_t nv, st_err *err)
{
    int64_t least_gpus = INT64_MAX, least_racks = INT64_MAX, unit = 0, gpn = 0;
    for (size_t v = 0; v < nv; v++) {
        st_cluster_cfg vc;
        variant_of(c, s, v, -1, NULL, &vc);
        int64_t u = unit_of(s, c, &vc);
        if (most_units(&vc, s, u) > 0)
            return 0;
        if (u * vc.gpus_per_node + spare_gpus(s, &vc) < least_gpus) {
            least_gpus = u * vc.gpus_per_node + spare_gpus(s, &vc);
            unit = u;
            gpn = vc.gpus_per_node;
        }
        if (vc.racks.nodes_per_rack > 0) {
            int64_t r = (u + vc.racks.nodes_per_rack - 1) / vc.racks.nodes_per_rack;
            least_racks = r < least_racks ? r : least_racks;
        }
    }
    const char *each = nv > 1 ? " (the least of the types searched)" : "";
    if (s->gpus > 0 && s->gpus < least_gpus) {
        int64_t sg = least_gpus - unit * gpn;
        char what[160];
        if (unit == 1)
            snprintf(what, sizeof what, "a node of %lld GPUs", (long long)gpn);
        else
            snprintf(what, sizeof what, "%lld nodes of %lld GPUs", (long long)unit, (long long)gpn);
        char spares[120] = "";
        if (sg > 0)
            snprintf(spares, sizeof spares,
                     ", and %lld more (the GPU budget counts the GPUs of failures.spares too)",
                     (long long)sg);
        return st_err_set(err, ST_EINVAL, (st_loc){"--budget", 0, 0},
                          "gpus=%lld is below one unit, %s%s%s: no cluster fits it; give "
                          "gpus=%lld or more",
                          (long long)s->gpus, what, spares, each, (long long)least_gpus);
    }
    if (s->racks > 0 && least_racks != INT64_MAX && s->racks < least_racks)
        return st_err_set(err, ST_EINVAL, (st_loc){"--budget", 0, 0},
                          "racks=%lld is below one unit of %lld nodes (%lld racks)%s: no cluster "
                          "fits it; give racks=%lld or more, or a smaller --unit",
                          (long long)s->racks, (long long)unit, (long long)least_racks, each,
                          (long long)least_racks);
    return 0;
}

static void free_sizes(variant_sizes *z, size_t nv)
{
    for (size_t v = 0; v < nv; v++)
        free(z[v].nodes);
    free(z);
}

int st_size_search(const st_cluster_cfg *c, const st_workload_cfg *w, const st_size_spec *spec,
                   st_size_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    if (spec->goal == ST_SIZE_COST && !spec->cost)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "the cost goal needs the scenario's cost: section");
    if ((spec->tco_usd_per_year > 0 || spec->capex_usd > 0) && !spec->cost)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "a %s budget needs the scenario's cost: section%s",
                          spec->capex_usd > 0 ? "capex" : "tco",
                          spec->capex_usd > 0 ? " with node_price and switch_price" : "");
    if (price_check(c, spec, err) || storage_check(w, spec, err) || gpu_check(c, spec, err) ||
        precision_check(w, spec, err))
        return ST_EINVAL;
    int64_t unit = unit_of(spec, c, c);
    size_t nv = spec->n_variants ? spec->n_variants : 1, nc = 0, most = 0;
    variant_sizes *z = st_xcalloc(nv, sizeof *z);
    for (size_t v = 0; v < nv; v++) {
        z[v] = sizes_of(c, w, spec, v);
        nc += z[v].n;
        most = z[v].n > most ? z[v].n : most;
    }
    if (nc == 0) {
        free_sizes(z, nv);
        if (below_one_unit(c, spec, nv, err))
            return ST_EINVAL;
        int64_t sg = spare_gpus(spec, c);
        return st_err_set(
            err, ST_EINVAL, w->loc,
            "no cluster of whole units of %lld node%s%s within the budgets splits "
            "workload '%s' (global batch %lld) into a plan%s",
            (long long)unit, unit == 1 ? "" : "s", nv > 1 ? " (or each type's own)" : "", w->name,
            (long long)w->global_batch,
            sg > 0 && spec->gpus > 0 ? " (the GPU budget counts the GPUs of failures.spares too)"
                                     : "");
    }
    out->unit_nodes = unit;
    out->candidates = (int64_t)nc; /* each variant's sizes, in its own nodes */
    /* the probes' expected count: doubling then bisection, about 2 log2 of the candidates */
    int64_t per = 2 * (int64_t)ceil(log2((double)most + 1)) + 1;
    variant_search x = {.c = c,
                        .w = w,
                        .spec = spec,
                        .memo = st_step_memo_new(),
                        .out = out,
                        .err = err,
                        .total = per * (int64_t)nv};
    int rc = 0;
    st_progress(SIZE_PROGRESS, 0, x.total);
    for (size_t v = 0; v < nv && !rc; v++) {
        x.v = v;
        x.gpn = z[v].gpn;
        out->reshaped |= z[v].reshaped;
        if (z[v].n) /* a variant no size of whole units splits: none of its rows */
            rc = search_variant(&x, z[v].nodes, z[v].n);
        else
            out->unsplit++;
        /* the rest expected: the variants left at the estimate each */
        x.total = x.done + per * (int64_t)(nv - v - 1) + 1;
    }
    st_progress(SIZE_PROGRESS, x.done, x.done); /* the loop ends at the count searched */
    st_step_memo_free(x.memo);
    st_maxmin_free(x.spare);
    free_sizes(z, nv);
    if (rc) {
        st_size_release(out);
        return rc;
    }
    finish(c, spec, out);
    return 0;
}

void st_size_release(st_size_result *r)
{
    free(r->cfg);
    memset(r, 0, sizeof *r);
}
