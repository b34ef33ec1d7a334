/* The JSON report: one cJSON tree with the stable keys of docs/guide/scenario-reference.md. Keys
 * whose model does not exist yet are left out, never written as zero. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/cost/cost.h"
#include "models/plant/plant.h"
#include "models/reliability/interval.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ub_cfg.h"
#include "report/report.h"
#include "sim/xalloc.h"

static void add_memory(cJSON *job, const st_forecast *f)
{
    const st_memory *m = &f->mem;
    static const char *const keys[ST_MEM__COUNT] = {"weights_bytes", "gradients_bytes",
                                                    "optimizer_bytes", "activations_bytes",
                                                    "reserved_bytes"};
    cJSON_AddNumberToObject(job, "memory_per_gpu_bytes", m->total);
    cJSON_AddBoolToObject(job, "fits", m->fits);
    cJSON *mem = cJSON_AddObjectToObject(job, "memory");
    for (int t = 0; t < ST_MEM__COUNT; t++)
        if (t != ST_MEM_RESERVED || m->term[t] > 0) /* none counted: absent, not zero */
            cJSON_AddNumberToObject(mem, keys[t], m->term[t]);
    cJSON_AddNumberToObject(mem, "capacity_bytes", m->capacity);
    if (!m->fits) {
        cJSON_AddStringToObject(mem, "overflow_term",
                                st_mem_term_name((st_mem_term)m->overflow_term));
        cJSON_AddNumberToObject(mem, "overflow_bytes", m->overflow_bytes);
    }
}

static void add_step(cJSON *j, const st_step_result *r)
{
    cJSON_AddNumberToObject(j, "step_time_s", r->step_time_s);
    cJSON_AddNumberToObject(j, "mfu", r->mfu);
    cJSON_AddNumberToObject(j, "hfu", r->hfu);
    cJSON_AddNumberToObject(j, "tokens_per_s", r->tokens_per_s);
    cJSON_AddNumberToObject(j, "tflops_per_gpu", r->tflops_per_gpu);
    cJSON_AddNumberToObject(j, "microbatches_per_step", (double)r->micro_per_step);
    cJSON *b = cJSON_AddObjectToObject(j, "breakdown");
    cJSON_AddNumberToObject(b, "compute_s", r->b.compute_s);
    cJSON_AddNumberToObject(b, "tp_comm_s", r->b.tp_comm_s);
    cJSON_AddNumberToObject(b, "pp_comm_s", r->b.pp_comm_s);
    cJSON_AddNumberToObject(b, "dp_comm_exposed_s", r->b.dp_comm_exposed_s);
    cJSON_AddNumberToObject(b, "bubble_s", r->b.bubble_s);
    cJSON_AddNumberToObject(b, "optimizer_s", r->b.optimizer_s);
    cJSON_AddNumberToObject(b, "straggler_s", r->b.straggler_s);
    if (r->b.noise_s > 0) /* cluster.variability.noise or the delivery model's */
        cJSON_AddNumberToObject(b, "noise_s", r->b.noise_s);
    if (r->b.overhead_s > 0) /* cluster.calibration's per-step overhead */
        cJSON_AddNumberToObject(b, "overhead_s", r->b.overhead_s);
    cJSON_AddNumberToObject(j, "closed_form_step_s", r->closed_form_s);
}

/* cluster.pools: each pool's name, GPU type, nodes and GPUs, in file order, and its racks and
 * their cooling where each pool has racks of its own (models/config/racks.h). */
static void add_pools(cJSON *cl, const st_cluster_cfg *c)
{
    cJSON *a = cJSON_AddArrayToObject(cl, "pools");
    for (int k = 0; k < c->n_pools; k++) {
        const st_pool_cfg *p = &c->pools[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "gpu", p->gpu->name);
        cJSON_AddNumberToObject(o, "nodes", (double)p->nodes);
        cJSON_AddNumberToObject(o, "gpus", (double)st_pools_gpus(c, k));
        if (!st_pools_one_node_shape(c)) { /* a cluster of one node states it nowhere */
            cJSON_AddNumberToObject(o, "gpus_per_node", (double)st_pools_gpus_per_node(c, k));
            cJSON_AddNumberToObject(o, "nvlink_domain", (double)st_pools_nvlink_domain(c, k));
            cJSON_AddNumberToObject(o, "nics_per_node", (double)st_pools_nics_per_node(c, k));
        }
        if (c->racks_by_pool) {
            cJSON_AddNumberToObject(o, "racks", (double)st_racks_pool_count(c, k));
            cJSON_AddStringToObject(o, "cooling", st_cooling_kind_names[p->racks.cooling]);
        }
        cJSON_AddItemToArray(a, o);
    }
}

/* The system noise the ranks are given (cluster.variability.noise or the delivery model's
 * profile), where there is any: an assumption the step rests on, stated with it. */
static void add_noise(cJSON *cl, const st_variability_cfg *v)
{
    if (!(v->noise_every_s > 0))
        return;
    cJSON *n = cJSON_AddObjectToObject(cl, "noise");
    cJSON_AddStringToObject(n, "profile", v->noise_profile ? v->noise_profile : "stated");
    cJSON_AddNumberToObject(n, "every_s", v->noise_every_s);
    cJSON_AddNumberToObject(n, "detour_s", v->noise_detour_s);
    cJSON_AddStringToObject(n, "pattern", v->noise_periodic ? "periodic" : "poisson");
    cJSON_AddBoolToObject(n, "cosched", v->noise_cosched != 0);
}

/* A band [lo, hi] under key. */
static void add_pair(cJSON *j, const char *key, double lo, double hi)
{
    const double v[2] = {lo, hi};
    cJSON_AddItemToObject(j, key, cJSON_CreateDoubleArray(v, 2));
}

/* The step model's error band (models/forecast/band.h) of the step's figures: a rate's band is
 * the step time's inverted. */
static void add_band(cJSON *j, const st_forecast *f)
{
    const st_step_result *r = &f->step;
    const st_band *b = &f->band;
    char basis[160];
    st_band_basis(b, f->band_key, basis, sizeof basis);
    add_pair(j, "step_time_s_band", r->step_time_s * b->lo, r->step_time_s * b->hi);
    add_pair(j, "mfu_band", r->mfu / b->hi, r->mfu / b->lo);
    add_pair(j, "tokens_per_s_band", r->tokens_per_s / b->hi, r->tokens_per_s / b->lo);
    cJSON_AddNumberToObject(j, "band_level", ST_BAND_LEVEL);
    cJSON_AddNumberToObject(j, "band_runs", b->runs);
    cJSON_AddStringToObject(j, "band_basis", basis);
}

/* One figure over the replicas; one replica has no interval, so its keys are absent then. */
static void add_stat(cJSON *o, const char *key, const st_life_stat *st, int64_t n)
{
    cJSON *c = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(c, "mean", st->mean);
    if (n >= 2) {
        cJSON_AddNumberToObject(c, "ci95_lo", st->lo);
        cJSON_AddNumberToObject(c, "ci95_hi", st->hi);
    }
    cJSON_AddNumberToObject(c, "p10", st->p10);
    cJSON_AddNumberToObject(c, "p50", st->p50);
    cJSON_AddNumberToObject(c, "p90", st->p90);
    cJSON_AddNumberToObject(c, "p99", st->p99);
}

static const char *interval_rule(const st_forecast *f)
{
    const st_ckpt_cfg *ck = &f->w->checkpoint;
    if (ck->every_s > 0)
        return "time";
    if (ck->every_steps > 0)
        return "steps";
    if (!(f->interval_s > 0))
        return "auto-no-failures";
    return f->auto_rule == ST_AUTO_COMMIT ? "auto-commit"
           : f->auto_rule == ST_AUTO_STEP ? "auto-step"
                                          : "auto-daly";
}

/* The checkpoint object ck of a job with checkpoints: its mode, cadence and its rule, the
 * costs of one, how many, and the tier load they make. */
static void add_ckpt(cJSON *ck, const st_forecast *f)
{
    const st_life_result *l = &f->life;
    const st_ckpt_cost *k = &f->ckpt;
    cJSON_AddStringToObject(ck, "mode", st_ckpt_mode_names[f->w->checkpoint.mode]);
    cJSON_AddNumberToObject(ck, "interval_s", f->interval_s);
    cJSON_AddStringToObject(ck, "interval_rule", interval_rule(f));
    if (f->young_interval_s > 0) {
        cJSON_AddNumberToObject(ck, "daly_interval_s", f->daly_interval_s);
        cJSON_AddNumberToObject(ck, "young_interval_s", f->young_interval_s);
    }
    cJSON_AddNumberToObject(ck, "stall_s", k->stall_s);
    cJSON_AddNumberToObject(ck, "cost_s", f->levels.cost_s);
    cJSON_AddNumberToObject(ck, "write_cost_s", f->levels.write_cost_s);
    if (isfinite(f->levels.disk_mtbf_s))
        cJSON_AddNumberToObject(ck, "persistent_mtbf_s", f->levels.disk_mtbf_s);
    if (f->levels.mem_every_s > 0) {
        cJSON_AddNumberToObject(ck, "memory_interval_s", f->levels.mem_every_s);
        cJSON_AddNumberToObject(ck, "memory_stall_s", f->levels.mem_stall_s);
        cJSON_AddNumberToObject(ck, "memory_restore_s", f->levels.mem_restore_s);
        cJSON_AddNumberToObject(ck, "memory_replicas", (double)f->levels.replicas);
    }
    cJSON_AddNumberToObject(ck, "stall_fraction", l->wall_s > 0 ? l->ckpt_stall_s / l->wall_s : 0);
    cJSON_AddNumberToObject(ck, "dump_s", k->dump_s);
    cJSON_AddNumberToObject(ck, "write_s", k->write_s);
    cJSON_AddNumberToObject(ck, "commit_s", k->commit_s);
    cJSON_AddNumberToObject(ck, "restore_s", k->restore_s);
    cJSON_AddNumberToObject(ck, "writers", (double)k->writers);
    cJSON_AddNumberToObject(ck, "count", (double)l->checkpoints);
    if (f->load.period_s > 0) {
        cJSON_AddNumberToObject(ck, "bytes_per_day", f->load.bytes_per_day);
        cJSON_AddNumberToObject(ck, "write_usd_per_day", f->levels.usd_per_day);
        cJSON_AddNumberToObject(ck, "write_utilization", f->load.write_utilization);
    }
}

/* The job in the cluster run: start, wait and end, its preemptions, the slowest rate its
 * neighbours left it, and the failures `scope: cluster` dealt it. */
static void add_schedule(cJSON *j, const st_forecast *f)
{
    cJSON_AddNumberToObject(j, "start_s", f->start_s);
    cJSON_AddNumberToObject(j, "wait_s", f->wait_s);
    if (f->has_end)
        cJSON_AddNumberToObject(j, "end_s", f->end_s);
    if (f->preemptions > 0) {
        cJSON_AddNumberToObject(j, "preemptions", (double)f->preemptions);
        cJSON_AddNumberToObject(j, "preempted_s", f->preempted_s);
    }
    if (f->slowest_rate > 0 && f->slowest_rate < 1) /* its neighbours' traffic slowed it */
        cJSON_AddNumberToObject(j, "slowest_rate", f->slowest_rate);
    if (f->interruptions > 0) { /* failures `scope: cluster` hit it */
        cJSON_AddNumberToObject(j, "cluster_interruptions", (double)f->interruptions);
        cJSON_AddNumberToObject(j, "cluster_lost_work_s", f->lost_work_s);
    }
}

/* Ingest, checkpoint costs and the life run (st_forecast_life). */
static void add_life(cJSON *j, cJSON *ck, const st_forecast *f)
{
    const st_life_result *l = &f->life;
    if (f->has_ckpt)
        add_ckpt(ck, f);
    if (f->ingest.need_bps > 0) {
        cJSON *in = cJSON_AddObjectToObject(j, "ingest");
        cJSON_AddNumberToObject(in, "need_bytes_per_s", f->ingest.need_bps);
        cJSON_AddNumberToObject(in, "got_bytes_per_s", f->ingest.got_bps);
        cJSON_AddNumberToObject(in, "slowdown", f->ingest.slowdown);
    }
    cJSON_AddNumberToObject(j, "steps", (double)f->steps);
    cJSON_AddNumberToObject(j, "effective_step_time_s", f->eff_step_s);
    if (isfinite(f->job_mtbf_s))
        cJSON_AddNumberToObject(j, "job_mtbf_s", f->job_mtbf_s);
    cJSON_AddNumberToObject(j, "wall_s", l->wall_s);
    if (f->has_band)
        add_pair(j, "wall_s_band", f->wall_band[0], f->wall_band[1]);
    cJSON_AddNumberToObject(j, "interruptions", (double)l->interruptions);
    if (l->planned > 0) /* `failures.planned_every` */
        cJSON_AddNumberToObject(j, "planned_interruptions", (double)l->planned);
    if (l->slow > 0) /* `cluster.variability.slow_nodes` */
        cJSON_AddNumberToObject(j, "slow_node_exclusions", (double)l->slow);
    cJSON_AddNumberToObject(j, "lost_work_s", l->lost_work_s);
    cJSON_AddNumberToObject(j, "downtime_s", l->downtime_s);
    if (f->has_spares) /* `failures.spares` */
        cJSON_AddNumberToObject(j, "spare_wait_s", l->spare_wait_s);
    cJSON_AddNumberToObject(j, "goodput", l->goodput);
    add_schedule(j, f);
    const st_life_summary *sm = &f->summary;
    if (sm->replicas >= 1) {
        cJSON *rp = cJSON_AddObjectToObject(j, "replicas");
        cJSON_AddNumberToObject(rp, "n", (double)sm->replicas);
        add_stat(rp, "wall_s", &sm->wall_s, sm->replicas);
        add_stat(rp, "goodput", &sm->goodput, sm->replicas);
        add_stat(rp, "interruptions", &sm->interruptions, sm->replicas);
        add_stat(rp, "lost_work_s", &sm->lost_work_s, sm->replicas);
    }
}

static cJSON *job_json(const st_forecast *f)
{
    const st_workload_cfg *w = f->w;
    const st_parallel_cfg *p = &w->parallel;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", w->name);
    cJSON_AddStringToObject(j, "kind", st_workload_kind_names[ST_WL_TRAINING]);
    cJSON_AddNumberToObject(j, "gpus", (double)w->gpus);
    cJSON_AddStringToObject(j, "model", w->model->name ? w->model->name : "custom");
    if (w->software) /* the workload's `software:` as written; absent: not stated */
        cJSON_AddStringToObject(j, "software", w->software);
    if (w->cudnn_release > 0) { /* the workload's `cudnn:` release; absent: the newest sweep */
        char rel[ST_CUDNN_TEXT];
        st_cudnn_text(w->cudnn_release, rel);
        cJSON_AddStringToObject(j, "cudnn", rel);
    }
    cJSON_AddNumberToObject(j, "params", f->mem.params);
    cJSON_AddNumberToObject(j, "flops_per_token", f->mem.flops_per_token);
    cJSON *par = cJSON_AddObjectToObject(j, "parallel");
    cJSON_AddNumberToObject(par, "tp", (double)p->tp);
    cJSON_AddNumberToObject(par, "cp", (double)p->cp);
    cJSON_AddNumberToObject(par, "pp", (double)p->pp);
    cJSON_AddNumberToObject(par, "dp", (double)p->dp);
    if (w->model->experts > 0) { /* absent for dense models: no expert parallelism, no routing */
        cJSON_AddNumberToObject(par, "ep", (double)(p->ep > 1 ? p->ep : 1));
        if (p->etp > 1) /* expert tensor parallelism; absent: 1 */
            cJSON_AddNumberToObject(par, "etp", (double)p->etp);
        cJSON_AddNumberToObject(par, "routing_imbalance", st_moe_routing(w));
        if (w->capacity_factor > 0) /* token dropping; absent: dropless */
            cJSON_AddNumberToObject(par, "capacity_factor", w->capacity_factor);
        if (p->ep > 1 && p->moe_dispatcher != ST_DISP_ALLTOALL) /* absent: the all-to-all */
            cJSON_AddStringToObject(par, "moe_dispatcher",
                                    st_moe_dispatcher_names[p->moe_dispatcher]);
    }
    if (p->tp_comm_overlap && p->tp > 1 && p->tp_comm_overlap_cfg > 0) /* absent: TE's own */
        cJSON_AddStringToObject(par, "tp_comm_overlap_cfg",
                                st_ub_cfg_names[p->tp_comm_overlap_cfg]);
    cJSON_AddNumberToObject(par, "microbatch", (double)f->microbatch);
    add_memory(j, f);
    if (f->has_step)
        add_step(j, &f->step);
    if (f->has_band)
        add_band(j, f);
    cJSON *ck = cJSON_AddObjectToObject(j, "checkpoint");
    cJSON_AddNumberToObject(ck, "size_bytes", f->mem.checkpoint_bytes);
    if (f->has_life)
        add_life(j, ck, f);
    return j;
}

static const char *const level_names[ST_LEVEL__COUNT] = {"nvlink", "nic", "leaf", "spine",
                                                         "storage"};

static cJSON *coll_json(const st_coll_result *r)
{
    const st_workload_cfg *w = r->w;
    const st_collective_cfg *cc = &w->collective;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", w->name);
    cJSON_AddStringToObject(j, "kind", st_workload_kind_names[ST_WL_COLLECTIVE]);
    cJSON_AddNumberToObject(j, "gpus", (double)w->gpus);
    cJSON_AddNumberToObject(j, "start_s", r->start_s);
    cJSON_AddNumberToObject(j, "end_s", r->end_s);
    cJSON *c = cJSON_AddObjectToObject(j, "collective");
    cJSON_AddStringToObject(c, "op", st_coll_op_name((st_coll_op)cc->op));
    cJSON_AddStringToObject(c, "algo", st_coll_algo_name(r->plan.algo));
    cJSON_AddStringToObject(c, "protocol", st_coll_proto_name(r->plan.proto));
    cJSON_AddNumberToObject(c, "channels", r->plan.channels);
    cJSON_AddNumberToObject(c, "size_bytes", cc->size_bytes);
    cJSON_AddNumberToObject(c, "iterations", (double)cc->iterations);
    cJSON_AddNumberToObject(c, "time_s", r->time_s);
    cJSON_AddNumberToObject(c, "algbw_bytes_per_s", r->algbw);
    cJSON_AddNumberToObject(c, "busbw_bytes_per_s", r->busbw);
    cJSON_AddNumberToObject(c, "alone_s", r->plan.est_s);
    cJSON_AddNumberToObject(c, "closed_form_s", r->plan.closed_s);
    return j;
}

static cJSON *fabric_json(const st_fabric_result *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "max_link_utilization", f->max_utilization);
    cJSON_AddNumberToObject(o, "collisions", (double)f->collisions);
    cJSON *lv = cJSON_AddObjectToObject(o, "utilization_by_level");
    for (int l = 0; l < ST_LEVEL__COUNT; l++)
        cJSON_AddNumberToObject(lv, level_names[l], f->level_utilization[l]);
    return o;
}

/* The swing's mitigations (models/plant/mitigate.h): the waveform without them, and what the
 * floor, the burn and the storage cost. */
static void mitigation_json(cJSON *m, const st_plant_result *p)
{
    cJSON *w = cJSON_AddObjectToObject(m, "without");
    cJSON_AddNumberToObject(w, "swing_w", p->bare.swing_w);
    cJSON_AddNumberToObject(w, "ramp_w_per_s", p->bare.ramp_w_per_s);
    cJSON_AddNumberToObject(w, "it_mean_w", p->bare_it_mean_w);
    if (p->floor_w > 0) {
        cJSON_AddNumberToObject(m, "power_floor_w", p->floor_w);
        cJSON_AddNumberToObject(m, "floor_extra_w", p->floor_extra_w);
    }
    if (p->burn_w > 0) {
        cJSON_AddNumberToObject(m, "power_burn_w", p->burn_w);
        cJSON_AddNumberToObject(m, "burn_extra_w", p->burn_extra_w);
    }
    if (p->storage_energy_j > 0) {
        cJSON_AddNumberToObject(m, "storage_energy_j", p->storage_energy_j);
        cJSON_AddNumberToObject(m, "storage_power_w", p->storage_power_w);
        cJSON_AddNumberToObject(m, "storage_loss_w", p->storage_loss_w);
    }
}

/* The worst rack (rk): its count, peak, line current, breaker headroom and losses, and its heat
 * against its cooling. */
static void racks_json(cJSON *rk, const st_plant_result *p, const st_cluster_cfg *c)
{
    cJSON_AddNumberToObject(rk, "count", (double)p->racks);
    cJSON_AddNumberToObject(rk, "peak_w", p->rack_peak_w);
    cJSON_AddNumberToObject(rk, "line_current_a", p->rack_current_a);
    if (c->racks.breaker_a > 0) {
        cJSON_AddNumberToObject(rk, "breaker_a", c->racks.breaker_a);
        cJSON_AddNumberToObject(rk, "headroom_a", p->rack_headroom_a);
    }
    if (st_plant_models_distribution(c)) /* not modelled otherwise, not measured to be 0 */
        cJSON_AddNumberToObject(rk, "loss_w", p->rack_loss_w);
    const st_plant_rack_heat *h = &p->rack_heat;
    cJSON *co = cJSON_AddObjectToObject(rk, "cooling");
    cJSON_AddNumberToObject(co, "heat_w", h->heat_w);
    cJSON_AddNumberToObject(co, "capacity_w", h->capacity_w);
    cJSON_AddNumberToObject(co, "air_w", h->air_w);
    cJSON_AddNumberToObject(co, "liquid_w", h->liquid_w);
    cJSON_AddNumberToObject(co, "air_flow_m3_per_s", h->air_flow_m3_s);
    cJSON_AddNumberToObject(co, "liquid_flow_m3_per_s", h->liquid_flow_m3_s);
    cJSON_AddNumberToObject(co, "air_inlet_c", h->air_in_c);
    cJSON_AddNumberToObject(co, "liquid_inlet_c", h->liquid_in_c);
}

/* The plant (models/plant/plant.h): the facility waveform and the most loaded rack. */
static cJSON *power_json(const st_plant_result *p, const st_cluster_cfg *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "it_peak_w", p->it_peak_w);
    cJSON_AddNumberToObject(o, "it_mean_w", p->it_mean_w);
    cJSON_AddNumberToObject(o, "facility_peak_w", p->facility_peak.total_w);
    cJSON_AddNumberToObject(o, "facility_mean_w", p->facility_mean.total_w);
    const st_plant_facility *f = &p->facility_peak;
    cJSON *fp = cJSON_AddObjectToObject(o, "facility_peak");
    cJSON_AddNumberToObject(fp, "it_w", f->it_w);
    /* the terms the plant models: a rack's I2R losses with a stated distribution_resistance,
     * its energy storage's with racks.storage (absent otherwise: a 0 read as measured) */
    if (st_plant_models_distribution(c))
        cJSON_AddNumberToObject(fp, "distribution_w", f->distribution_w);
    if (st_plant_models_storage(c))
        cJSON_AddNumberToObject(fp, "storage_w", f->storage_w);
    cJSON_AddNumberToObject(fp, "transformer_w", f->transformer_w);
    cJSON_AddNumberToObject(fp, "ups_w", f->ups_w);
    cJSON_AddNumberToObject(fp, "cooling_w", f->cooling_w);
    cJSON_AddNumberToObject(o, "swing_w", p->wave.swing_w);
    cJSON_AddNumberToObject(o, "ramp_w_per_s", p->wave.ramp_w_per_s);
    if (c->facility.ramp_limit_w_per_s > 0)
        cJSON_AddNumberToObject(o, "ramp_limit_w_per_s", c->facility.ramp_limit_w_per_s);
    if (c->facility.power_capacity_w > 0)
        cJSON_AddNumberToObject(o, "power_capacity_w", c->facility.power_capacity_w);
    cJSON *heat = cJSON_AddObjectToObject(o, "heat");
    cJSON_AddNumberToObject(heat, "air_w", p->heat.air_w);
    cJSON_AddNumberToObject(heat, "liquid_w", p->heat.liquid_w);
    cJSON_AddNumberToObject(heat, "total_w", p->heat.total_w);
    if (p->wave.swing_w > 0) { /* a steady draw has no swing to have a frequency */
        cJSON_AddNumberToObject(o, "swing_hz", p->wave.dominant_hz);
        cJSON_AddNumberToObject(o, "utility_band_share", p->wave.band_share);
    }
    if (st_plant_models_distribution(c))
        cJSON_AddNumberToObject(o, "distribution_loss_w", p->loss_at_peak_w);
    cJSON_AddNumberToObject(o, "window_s", p->window_s);
    racks_json(cJSON_AddObjectToObject(o, "racks"), p, c);
    if (p->has_network) {
        cJSON *nw = cJSON_AddObjectToObject(o, "network");
        cJSON_AddNumberToObject(nw, "switch_ports", (double)p->switch_ports);
        cJSON_AddNumberToObject(nw, "optics_w", p->network_w);
    }
    cJSON *pl = cJSON_AddObjectToObject(o, "cooling_plant");
    cJSON_AddNumberToObject(pl, "fans_w", p->cooling.fans_w);
    cJSON_AddNumberToObject(pl, "pumps_w", p->cooling.pumps_w);
    cJSON_AddNumberToObject(pl, "chiller_w", p->cooling.chiller_w);
    cJSON_AddNumberToObject(o, "transformer_loss_w", p->transformer_loss_w);
    cJSON *ups = cJSON_AddObjectToObject(o, "ups");
    cJSON_AddNumberToObject(ups, "loss_w", p->ups.loss_w);
    cJSON_AddNumberToObject(ups, "load", p->ups.load);
    cJSON_AddNumberToObject(ups, "rating_w", p->ups.rating_w);
    cJSON_AddNumberToObject(ups, "systems", p->ups.systems);
    cJSON_AddNumberToObject(o, "pue", p->pue);
    cJSON_AddNumberToObject(o, "energy_j", p->energy_j);
    if (p->mitigated)
        mitigation_json(cJSON_AddObjectToObject(o, "mitigation"), p);
    return o;
}

/* The GPUs' heat (models/plant/thermal.h). */
static cJSON *thermal_json(const st_plant_result *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "max_junction_c", p->max_junction_c);
    cJSON_AddNumberToObject(o, "throttle_fraction", p->throttle_fraction);
    return o;
}

/* A job across pools: its GPUs in each (pools[]) and the pool whose type paces it. */
static void add_span(cJSON *j, const st_forecast *f, const st_cluster_cfg *c)
{
    cJSON *a = cJSON_AddArrayToObject(j, "pools");
    for (int k = 0; k < c->n_pools; k++) {
        if (!f->w->pool_gpus[k])
            continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", c->pools[k].name);
        cJSON_AddNumberToObject(e, "gpus", (double)f->w->pool_gpus[k]);
        if (f->pool_batch)
            cJSON_AddNumberToObject(e, "batch", (double)f->pool_batch[k]);
        if (f->pool_step_s && f->pool_step_s[k] > 0)
            cJSON_AddNumberToObject(e, "step_time_s", f->pool_step_s[k]);
        cJSON_AddItemToArray(a, e);
    }
    cJSON_AddStringToObject(j, "pace_pool", c->pools[f->pace_pool].name);
}

/* Job i's own power, when the plant ran it. A service has no gpu_peak_w: its replicas' iterations
 * are not in step, so the plant draws its GPUs at their mean (st_plant_job.steady) and its
 * "peak" would be gpu_mean_w again. */
static void add_job_power(cJSON *job, const st_run *r, size_t i)
{
    int service = !r->f[i].w && r->serve[i].w;
    for (size_t k = 0; r->has_plant && k < r->plant.n_jobs; k++) {
        const st_plant_job_power *p = &r->plant.jobs[k];
        if (p->id != i)
            continue;
        cJSON *o = cJSON_AddObjectToObject(job, "power");
        if (!service)
            cJSON_AddNumberToObject(o, "gpu_peak_w", p->peak_w);
        cJSON_AddNumberToObject(o, "gpu_mean_w", p->mean_w);
        cJSON_AddNumberToObject(o, "step_energy_j", p->step_energy_j);
        if (p->energy_j > 0) {
            cJSON_AddNumberToObject(o, "energy_j", p->energy_j);
            cJSON_AddNumberToObject(o, "energy_per_token_j", p->energy_per_token_j);
        }
        cJSON *t = cJSON_AddObjectToObject(job, "thermal");
        cJSON_AddNumberToObject(t, "junction_c", p->junction_c);
        cJSON_AddNumberToObject(t, "clock", p->clock);
    }
}

/* A job's TCO c (models/cost/cost.h) with its error band (NULL: none); on premises (on_prem)
 * with its capital cost part by part. A training job's and a service's alike. */
static void add_cost(cJSON *job, const st_cost_result *c, const double *band, int on_prem)
{
    cJSON *o = cJSON_AddObjectToObject(job, "cost");
    cJSON_AddNumberToObject(o, "total_usd", c->total_usd);
    if (band)
        add_pair(o, "total_usd_band", band[0], band[1]);
    cJSON_AddNumberToObject(o, "per_token_usd", c->per_token_usd);
    cJSON_AddNumberToObject(o, "per_year_usd", c->per_year_usd);
    cJSON *b = cJSON_AddObjectToObject(o, "breakdown");
    cJSON_AddNumberToObject(b, "capex_usd", c->capex_usd);
    cJSON_AddNumberToObject(b, "energy_usd", c->energy_usd);
    cJSON_AddNumberToObject(b, "demand_usd", c->demand_usd);
    cJSON_AddNumberToObject(b, "maintenance_usd", c->maintenance_usd);
    cJSON_AddNumberToObject(b, "staff_usd", c->staff_usd);
    cJSON_AddNumberToObject(b, "gpu_usd", c->gpu_usd);
    cJSON_AddNumberToObject(b, "storage_usd", c->storage_usd);
    cJSON_AddNumberToObject(b, "egress_usd", c->egress_usd);
    cJSON_AddNumberToObject(b, "wear_usd", c->wear_usd);
    if (!on_prem)
        return;
    cJSON *k = cJSON_AddObjectToObject(o, "capex");
    cJSON_AddNumberToObject(k, "nodes_usd", c->capex_nodes_usd);
    cJSON_AddNumberToObject(k, "switches_usd", c->capex_switches_usd);
    cJSON_AddNumberToObject(k, "optics_usd", c->capex_optics_usd);
    cJSON_AddNumberToObject(k, "storage_usd", c->capex_storage_usd);
    cJSON_AddNumberToObject(k, "racks_usd", c->capex_racks_usd);
    cJSON_AddNumberToObject(k, "cooling_usd", c->capex_cooling_usd);
}

/* Job i's TCO, when the run priced it: a training job's or a service's. */
static void add_job_cost(cJSON *job, const st_run *r, size_t i, const st_cost_cfg *prices)
{
    int on_prem = prices && prices->delivery == ST_DELIVERY_ON_PREM;
    const st_forecast *f = &r->f[i];
    if (f->w && f->has_cost)
        add_cost(job, &f->cost, f->has_band ? f->cost_band : NULL, on_prem);
    else if (r->serve && r->serve[i].w && r->serve[i].r.has_cost)
        add_cost(job, &r->serve[i].cost, NULL, on_prem);
}

/* The sources of the on-premises prices of cost c into o: the node's (on cluster cl's pools,
 * each pool's at its own type's price, as the text gives them) and each part's. */
static void cost_sources(cJSON *o, const st_cost_cfg *c, const st_cluster_cfg *cl)
{
    cJSON *src = cJSON_AddObjectToObject(o, "sources");
    if (!cl->n_pools)
        cJSON_AddStringToObject(src, "node_price",
                                st_cost_price_source(c->from[ST_COST_NODE], c->node_price_usd));
    cJSON *pools = cl->n_pools ? cJSON_AddArrayToObject(src, "pools") : NULL;
    for (int k = 0; k < cl->n_pools; k++) {
        st_cost_cfg typed;
        st_cost_for_gpu(c, cl->pools[k].gpu->name, &typed);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", cl->pools[k].name);
        cJSON_AddStringToObject(
            p, "node_price", st_cost_price_source(typed.from[ST_COST_NODE], typed.node_price_usd));
        cJSON_AddItemToArray(pools, p);
    }
    for (int k = 0; k < ST_COST__PARTS; k++)
        cJSON_AddStringToObject(
            src, st_cost_part_names[k],
            st_cost_price_source(c->part_from[k], st_cost_part_value(c, (st_cost_part)k)));
}

/* The cluster run's energy (models/forecast/cluster_energy.h) into o, when it has one. */
static void cluster_energy_json(cJSON *o, const st_run *r)
{
    const st_cluster_energy *e = &r->energy;
    if (!r->has_energy)
        return;
    cJSON_AddNumberToObject(o, "energy_j", e->energy_j);
    cJSON_AddNumberToObject(o, "it_mean_w", e->it_mean_w);
    cJSON_AddNumberToObject(o, "facility_mean_w", e->facility_mean_w);
    if (e->has_cost)
        cJSON_AddNumberToObject(o, "energy_usd", e->energy_usd);
}

/* scheduler.pools: each pool's share of the cluster run's figures, on a cluster of several
 * (docs/models/pools.md, "Scheduling by pool"). */
static void add_pool_stats(cJSON *o, const st_cluster_result *c, const st_cluster_cfg *cfg)
{
    cJSON *a = cJSON_AddArrayToObject(o, "pools");
    for (int k = 0; k < c->n_pool && k < cfg->n_pools; k++) {
        const st_cluster_pool_stats *p = &c->pool[k];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", cfg->pools[k].name);
        cJSON_AddNumberToObject(e, "jobs", (double)p->jobs);
        cJSON_AddNumberToObject(e, "finished", (double)p->finished);
        if (p->finished) /* over its finished jobs: none, no wait */
            cJSON_AddNumberToObject(e, "mean_wait_s", p->mean_wait_s);
        cJSON_AddNumberToObject(e, "utilization", p->utilization);
        cJSON_AddItemToArray(a, e);
    }
}

/* The figures over the finished jobs: their waits, times queued and completion times. */
static void finished_json(cJSON *o, const st_cluster_stats *s)
{
    cJSON_AddNumberToObject(o, "mean_wait_s", s->mean_wait_s);
    cJSON_AddNumberToObject(o, "p95_wait_s", s->p95_wait_s);
    cJSON_AddNumberToObject(o, "mean_queued_s", s->mean_queued_s);
    cJSON_AddNumberToObject(o, "p95_queued_s", s->p95_queued_s);
    cJSON_AddNumberToObject(o, "mean_jct_s", s->mean_jct_s);
}

/* The cluster run's figures (models/sched/cluster.h). */
static cJSON *scheduler_json(const st_run *r, const st_cluster_cfg *cfg)
{
    const st_cluster_result *c = &r->cluster;
    const st_cluster_stats *s = &c->st;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "policy", c->policy);
    cJSON_AddStringToObject(o, "placement", c->placement);
    cJSON_AddNumberToObject(o, "jobs", (double)s->jobs);
    cJSON_AddNumberToObject(o, "finished", (double)s->finished);
    cJSON_AddNumberToObject(o, "unfinished", (double)s->unfinished);
    cJSON_AddNumberToObject(o, "too_big", (double)s->too_big);
    if (r->serving.zero_services) { /* absent: every service has a job of its own */
        cJSON_AddNumberToObject(o, "services_scaled_to_zero", (double)r->serving.zero_services);
        cJSON_AddNumberToObject(o, "replica_stretches", (double)r->serving.zero_stretches);
    }
    if (s->finished) /* absent when no job completed: the waits and times are over those */
        finished_json(o, s);
    cJSON_AddNumberToObject(o, "makespan_s", s->makespan_s);
    cJSON_AddNumberToObject(o, "utilization", s->utilization);
    if (c->n_pool > 0)
        add_pool_stats(o, c, cfg);
    cJSON_AddNumberToObject(o, "preemptions", (double)s->preemptions);
    if (s->preemptions > 0)
        cJSON_AddNumberToObject(o, "preempted_s", s->preempted_s);
    if (s->outages) {
        cJSON_AddNumberToObject(o, "failures", (double)s->failures);
        cJSON_AddNumberToObject(o, "interruptions", (double)s->interruptions);
        cJSON_AddNumberToObject(o, "lost_work_s", s->lost_work_s);
    }
    cluster_energy_json(o, r);
    return o;
}

static cJSON *audit_json(const st_run *r)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < r->n_audit; i++) {
        const st_audit *a = &r->audit[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "level", a->level);
        cJSON_AddStringToObject(o, "check", a->check);
        cJSON_AddStringToObject(o, "status", st_audit_status_name(a->status));
        cJSON_AddNumberToObject(o, "value", a->value);
        cJSON_AddNumberToObject(o, "limit", a->limit);
        cJSON_AddStringToObject(o, "message", a->message);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

cJSON *st_report_json_tree(const st_report *rep)
{
    const st_scn *s = rep->s;
    const st_run *r = rep->run;
    cJSON *root = cJSON_CreateObject();
    char hash[24];
    snprintf(hash, sizeof hash, "%016" PRIx64, st_scn_hash(s));
    cJSON_AddStringToObject(root, "strata_version", STRATA_VERSION);
    cJSON_AddStringToObject(root, "scenario", st_scn_name(s));
    cJSON_AddStringToObject(root, "scenario_hash", hash);
    cJSON_AddNumberToObject(root, "seed", (double)rep->seed);
    const st_cluster_cfg *c = st_scn_cluster(s);
    cJSON *cl = cJSON_AddObjectToObject(root, "cluster");
    cJSON_AddStringToObject(cl, "gpu", c->gpu->name);
    cJSON_AddNumberToObject(cl, "nodes", (double)c->nodes);
    cJSON_AddNumberToObject(cl, "gpus", (double)st_pools_cluster_gpus(c));
    if (c->n_pools > 0)
        add_pools(cl, c);
    add_noise(cl, &c->variability);
    cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
    for (size_t i = 0; i < r->n; i++) {
        cJSON *j = r->f[i].w       ? job_json(&r->f[i])
                   : r->serve[i].w ? st_report_serve_json(c, &r->serve[i])
                                   : coll_json(&r->coll[i]);
        add_job_power(j, r, i);
        const st_workload_cfg *w = r->f[i].w ? r->f[i].w : r->serve[i].w;
        if (c->n_pools > 0 && w) /* a training job's pool or a service's */
            cJSON_AddStringToObject(j, "pool", c->pools[w->pool].name);
        if (c->n_pools > 0 && w && w->pool_gpus)
            add_span(j, &r->f[i], c);
        add_job_cost(j, r, i, st_scn_cost(s));
        cJSON_AddItemToArray(jobs, j);
    }
    if (r->has_cluster)
        cJSON_AddItemToObject(root, "scheduler", scheduler_json(r, c));
    if (r->has_fabric)
        cJSON_AddItemToObject(root, "fabric", fabric_json(&r->fab));
    if (r->has_plant)
        cJSON_AddItemToObject(root, "power", power_json(&r->plant, c));
    if (r->has_plant)
        cJSON_AddItemToObject(root, "thermal", thermal_json(&r->plant));
    if (r->has_cost) {
        cJSON *co = cJSON_AddObjectToObject(root, "cost");
        cJSON_AddStringToObject(co, "delivery", st_delivery_names[st_scn_cost(s)->delivery]);
        cJSON_AddNumberToObject(co, "total_usd", r->cost_total_usd);
        if (st_scn_cost(s)->delivery == ST_DELIVERY_ON_PREM)
            cost_sources(co, st_scn_cost(s), c);
    }
    cJSON_AddItemToObject(root, "audit", audit_json(r));
    return root;
}

char *st_report_json(const st_report *rep)
{
    return st_report_json_print(st_report_json_tree(rep));
}

/* Whole numbers cJSON would print inexactly as their digits (st_report_whole_digits): a seed
 * of 8000000000000001 came out as 8e+15, and a rerun from the report ran another seed. */
static void whole_numbers_exact(cJSON *parent)
{
    for (cJSON *c = parent->child, *next; c; c = next) {
        next = c->next;
        double v = c->valuedouble;
        if (cJSON_IsObject(c) || cJSON_IsArray(c))
            whole_numbers_exact(c);
        else if (cJSON_IsNumber(c) && st_report_whole_digits(v)) {
            char buf[32];
            snprintf(buf, sizeof buf, "%.0f", v);
            cJSON *raw = cJSON_CreateRaw(buf);
            if (!raw)
                ST_BUG("cJSON_CreateRaw failed");
            raw->string = c->string; /* the key moves with it: replacing does not copy it */
            raw->type |= c->type & cJSON_StringIsConst;
            c->string = NULL;
            cJSON_ReplaceItemViaPointer(parent, c, raw);
        }
    }
}

char *st_report_json_print(cJSON *root)
{
    whole_numbers_exact(root);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        ST_BUG("cJSON_Print failed");
    size_t len = strlen(text);
    char *out = st_xmalloc(len + 2);
    memcpy(out, text, len);
    memcpy(out + len, "\n", 2);
    cJSON_free(text);
    return out;
}
