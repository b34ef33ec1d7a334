/* The run's costs (run_internal.h): each finished training job's TCO under the scenario's
 * prices, its share of the facility's metered peak and the switches the cluster buys. Split
 * from run.c, which composes the forecast. */
#include <math.h>
#include <stdint.h>

#include "models/config/pools.h"
#include "models/cost/cost.h"
#include "models/fabric/topo.h"
#include "models/forecast/netpower.h"
#include "models/forecast/run.h"
#include "models/forecast/run_internal.h"

/* The switches a cluster buys: leaves, spines and cores, of its switches' ports
 * (models/fabric/topo.h). */
static int64_t cluster_switches(const st_cluster_cfg *c)
{
    st_topo *t = NULL;
    st_err err = {0};
    if (st_topo_new(c, &t, &err))
        return 0;
    int64_t n = st_topo_switches_bought(t, c->fabric.switch_ports);
    st_topo_free(t);
    return n;
}

/* Job i's share of the facility's metered peak demand: the facility figure at its peak (IT,
 * distribution, storage, transformers, UPS and the cooling plant: models/plant/plant.h), split by
 * the jobs' board peaks. 0 without the plant. */
static double job_peak_share(const st_run *out, size_t i)
{
    const st_plant_result *p = &out->plant;
    double all = 0, mine = 0;
    for (size_t k = 0; out->has_plant && k < p->n_jobs; k++) {
        all += p->jobs[k].peak_w;
        mine += p->jobs[k].id == i ? p->jobs[k].peak_w : 0;
    }
    if (!(all > 0))
        return 0;
    double metered = p->facility_peak.total_w;
    return metered * mine / all;
}

/* Workload i's facility energy over its life or span (the plant's job energy_j, run.c
 * job_energy), 0 without the plant. */
static double job_energy_j(const st_run *out, size_t i)
{
    for (size_t k = 0; out->has_plant && k < out->plant.n_jobs; k++)
        if (out->plant.jobs[k].id == i)
            return out->plant.jobs[k].energy_j;
    return 0;
}

/* The cluster every job's share is of, for the cost model: its GPUs and nodes; on premises
 * (on_prem) what it buys beyond its nodes too: its switches, their optical ports, and from the
 * plant (when it ran) its racks and the heat its cooling rejects to air and to liquid. */
static st_cost_use cluster_use(const st_run_spec *sp, const st_run *out, int on_prem)
{
    st_cost_use u = {.cluster_gpus = st_pools_cluster_gpus(sp->c),
                     .cluster_nodes = (double)sp->c->nodes,
                     .node_gpus = sp->c->gpus_per_node};
    if (!on_prem)
        return u;
    u.cluster_switch = cluster_switches(sp->c);
    u.optic_ports = st_forecast_switch_ports(sp->c);
    if (out->has_plant) {
        u.racks = out->plant.racks;
        u.cooling_air_w = out->plant.heat.air_w;
        u.cooling_liquid_w = out->plant.heat.liquid_w;
    }
    return u;
}

/* What job f used, for the cost model: its GPUs over its life, its facility energy (0 without
 * the plant), and its checkpoints' storage, egress and wear (st_cost_use_checkpoints, over the
 * checkpoints that became restorable in its life). */
static st_cost_use job_use(const st_run_spec *sp, const st_run *out, size_t i,
                           const st_cost_use *cluster)
{
    const st_forecast *f = &out->f[i];
    st_cost_use u = *cluster;
    u.gpus = f->w->gpus;
    if (f->has_spares) /* failures.spares: nodes held beside its own, priced as its nodes are */
        u.gpus += f->spares * st_pools_gpus_per_node(sp->c, f->w->pool);
    u.held_s = st__run_held_s(sp, out, i);
    u.tokens = (double)f->steps * (double)f->w->global_batch * (double)f->w->seq_len;
    u.peak_w = job_peak_share(out, i);
    u.energy_j = job_energy_j(out, i);
    if (f->has_ckpt)
        st_cost_use_checkpoints(&u, sp->cost, f->ckpt.size_bytes, (double)f->life.checkpoints,
                                f->levels.usd_per_save);
    return u;
}

/* The prices workload w pays: on a cluster of pools its own type's (st_cost_for_gpu, into
 * *typed), so its share of the nodes is at that type's node price and its GPU-hours at that
 * type's rate; else the scenario's. */
static const st_cost_cfg *prices_of(const st_run_spec *sp, const st_workload_cfg *w,
                                    st_cost_cfg *typed)
{
    if (sp->c->n_pools <= 0)
        return sp->cost;
    st_cost_for_gpu(sp->cost, sp->c->pools[w->pool].gpu->name, typed);
    return typed;
}

/* u as a job on pool k buys its nodes: where the pools' nodes are of several sizes, the
 * cluster's GPUs counted in nodes of pool k's size, so that the job's GPU share of them is its
 * own nodes (its GPUs over its pool's gpus_per_node) at its type's node price. */
static void pool_nodes(const st_cluster_cfg *c, int k, st_cost_use *u)
{
    if (st_pools_one_node_size(c))
        return;
    u->node_gpus = st_pools_gpus_per_node(c, k);
    u->cluster_nodes = (double)u->cluster_gpus / (double)u->node_gpus;
}

/* b's figures added to a's (per_token_usd recomputed by the caller). */
static void cost_add(st_cost_result *a, const st_cost_result *b)
{
    a->total_usd += b->total_usd;
    a->per_year_usd += b->per_year_usd;
    a->capex_usd += b->capex_usd;
    a->energy_usd += b->energy_usd;
    a->demand_usd += b->demand_usd;
    a->maintenance_usd += b->maintenance_usd;
    a->staff_usd += b->staff_usd;
    a->gpu_usd += b->gpu_usd;
    a->storage_usd += b->storage_usd;
    a->egress_usd += b->egress_usd;
    a->wear_usd += b->wear_usd;
    a->capex_nodes_usd = st_cost_part_sum(a->capex_nodes_usd, b->capex_nodes_usd);
    a->capex_switches_usd = st_cost_part_sum(a->capex_switches_usd, b->capex_switches_usd);
    a->capex_optics_usd = st_cost_part_sum(a->capex_optics_usd, b->capex_optics_usd);
    a->capex_storage_usd = st_cost_part_sum(a->capex_storage_usd, b->capex_storage_usd);
    a->capex_racks_usd = st_cost_part_sum(a->capex_racks_usd, b->capex_racks_usd);
    a->capex_cooling_usd = st_cost_part_sum(a->capex_cooling_usd, b->capex_cooling_usd);
}

/* Workload w's cost of use u at its prices; a job across pools is priced share by share, each
 * pool's GPUs at its type's node price or GPU-hour rate with its share of the job's energy,
 * peak, storage and tokens, the shares summed: the prices other than a type's are the same in
 * every share, so the parts they price add up to the job's whole. */
static st_cost_result job_cost(const st_run_spec *sp, const st_workload_cfg *w,
                               const st_cost_use *u)
{
    st_cost_cfg typed;
    if (!w->pool_gpus) {
        st_cost_use one = *u;
        pool_nodes(sp->c, w->pool, &one);
        return st_cost_job(prices_of(sp, w, &typed), &one);
    }
    /* the capex parts start at none bought (0): a part some share buys with no price and no
     * share prices stays "not priced" rather than reading 0 (st_cost_part_sum) */
    st_cost_result sum = {0};
    for (int k = 0; k < sp->c->n_pools; k++) {
        if (!w->pool_gpus[k])
            continue;
        double s = (double)w->pool_gpus[k] / (double)w->gpus;
        st_cost_use uk = *u;
        uk.gpus = w->pool_gpus[k];
        uk.energy_j *= s;
        uk.peak_w *= s;
        uk.stored_bytes *= s;
        uk.egress_bytes *= s;
        uk.wear_usd *= s;
        uk.tokens *= s;
        pool_nodes(sp->c, k, &uk);
        st_cost_for_gpu(sp->cost, sp->c->pools[k].gpu->name, &typed);
        st_cost_result r = st_cost_job(&typed, &uk);
        cost_add(&sum, &r);
    }
    sum.per_token_usd = u->tokens > 0 ? sum.total_usd / u->tokens : 0;
    return sum;
}

/* Every finished life's TCO under the scenario's prices (models/cost/cost.h). On-premises needs
 * the plant's energy: without a power model a job's on-premises cost is not stated. */
void st__run_cost(const st_run_spec *sp, st_run *out)
{
    if (!sp->cost)
        return;
    int on_prem = sp->cost->delivery == ST_DELIVERY_ON_PREM;
    st_cost_use cluster = cluster_use(sp, out, on_prem);
    for (size_t i = 0; i < sp->n; i++) {
        st_forecast *f = &out->f[i];
        if (!f->w || !f->has_life || !(f->life.wall_s > 0))
            continue;
        st_cost_use u = job_use(sp, out, i, &cluster);
        if (on_prem && !(u.energy_j > 0))
            continue;
        /* On a cluster of pools a job's nodes and GPU-hours are its own type's: its share of
         * the cluster's nodes (its GPUs over its pool's gpus_per_node) at that type's node
         * price, its GPU-hours at that type's rate. */
        f->cost = job_cost(sp, f->w, &u);
        f->has_cost = 1;
        if (!on_prem) /* rented storage wears the provider's drives (cost.md): the job's wear per
                         day is what its cost charges for it, none */
            f->levels.usd_per_day = 0;
        for (int e = 0; f->has_band && e < 2; e++) { /* held and powered for the band's wall */
            double k = f->wall_band[e] / f->life.wall_s;
            st_cost_use ue = u;
            ue.held_s *= k;
            ue.energy_j *= k;
            f->cost_band[e] = job_cost(sp, f->w, &ue).total_usd;
        }
        out->has_cost = 1;
        out->cost_total_usd += f->cost.total_usd;
    }
}

/* The GPU-seconds service i held in the cluster run: its base job's replicas over their span
 * and each autoscaled replica's stretch from the moment it asked for GPUs, its start (the
 * weights' load, the engine's warm-up) included, as the cluster's utilisation counts them; 0
 * when it has no cluster job. Its gpu_hours count replicas up, serving, alone. */
static double held_gpu_s(const st_run *out, size_t i)
{
    const st_run_serve *v = &out->serve[i];
    int64_t rg = st_serve_replica_gpus(v->w);
    double s = 0;
    if (!out->has_cluster || !out->cluster_job)
        return 0;
    if (out->cluster_job[i] >= 0)
        s += out->cluster.job[out->cluster_job[i]].held_s * (double)(v->base * rg);
    for (size_t u = 0; u < v->n_ups; u++)
        s += out->cluster.job[(size_t)v->first_up + u].held_s * (double)rg;
    return s;
}

/* Each service's TCO and its cost per million output tokens: its GPUs while it holds them (all
 * of them over its span, or each replica a load curve's autoscaler added from its start on:
 * held_gpu_s), at the scenario's prices.
 * On premises, as for a training job, with its facility energy (the plant's job energy_j: its
 * energy per token at the wall over every token it served, times the plant's PUE), its
 * share of the metered peak and the cluster's switches, racks and cooling; without the plant
 * its cost there is not stated. On a cluster of pools, at its pool's type's prices. */
void st__run_serve_cost(const st_run_spec *sp, st_run *out)
{
    for (size_t i = 0; i < sp->n; i++) /* what the bill counts, priced or not */
        if (out->serve[i].w)
            out->serve[i].held_gpu_hours = held_gpu_s(out, i) / 3600;
    if (!sp->cost)
        return;
    int on_prem = sp->cost->delivery == ST_DELIVERY_ON_PREM;
    if (on_prem && !out->has_plant)
        return;
    st_cost_use cluster = cluster_use(sp, out, on_prem);
    for (size_t i = 0; i < sp->n; i++) {
        st_run_serve *v = &out->serve[i];
        if (!v->w || !(v->r.span_s > 0) || !(v->r.tokens_per_s > 0))
            continue;
        st_cost_use u = cluster;
        u.gpus = v->w->gpus;
        pool_nodes(sp->c, v->w->pool, &u);
        double held = v->held_gpu_hours; /* its starts' GPU time too, as the bill has it */
        u.held_s = (held > 0 ? held : v->r.gpu_hours) * 3600 / (double)v->w->gpus;
        u.tokens = v->r.tokens_per_s * v->r.span_s;
        if (on_prem) {
            u.energy_j = job_energy_j(out, i);
            u.peak_w = job_peak_share(out, i);
            if (!(u.energy_j > 0))
                continue;
        }
        st_cost_cfg typed; /* its pool's type's prices, as a training job's */
        v->cost = st_cost_job(prices_of(sp, v->w, &typed), &u);
        /* held_s is its GPUs' hold over all of them (what its autoscaler kept up and started),
         * not the span it spent that cost over: a year at its rate is the span's, as a training
         * job's is its life's */
        v->cost.per_year_usd = v->cost.total_usd * ST_COST_YEAR_S / v->r.span_s;
        v->r.has_cost = 1;
        v->r.cost_per_million_tokens_usd = v->cost.per_token_usd * 1e6;
        out->has_cost = 1;
        out->cost_total_usd += v->cost.total_usd;
    }
}
