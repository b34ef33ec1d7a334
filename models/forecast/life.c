/* A training job's whole life after its step: data ingest and checkpoint costs where it is
 * placed, the checkpoint interval, the failure classes it is exposed to, and the fluid life
 * run (docs/models/storage-and-failures.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/forecast/ckpt_levels.h"
#include "models/forecast/forecast.h"
#include "models/reliability/interval.h"
#include "models/reliability/spare_wait.h"
#include "models/silicon/variability.h"
#include "sim/xalloc.h"

int64_t st_forecast_spare_take(const st_placement *at, const char *component)
{
    if (strcmp(component, "rack") == 0)
        return at->racks > 0 ? (at->nodes + at->racks - 1) / at->racks : 0;
    return strcmp(component, "leaf_switch") == 0 || strcmp(component, "spine_switch") == 0 ? 0 : 1;
}

/* A job with spares that cannot finish: how many of its nodes are out on average, how much of the
 * time that holds it, and how many spares would do (st_spares_needed). Returns 0, err left alone,
 * when the spares are not what stops it, so that the refusal names its checkpoints instead:
 * - it keeps at least the spares that hold it ST_SPARES_ENOUGH of the time or less: the waits
 *   stretch its wall by about that share at most, and a message that it needs no more spares
 *   than it has sends the planner to the wrong key;
 * - the same life (replica 0 of seed) with a spare always at hand (has_spares 0, no waits)
 *   does not finish either: spares would not make it (one more life, on the refusal only). */
static int never_up(const st_forecast *f, const st_life_spec *spec, uint64_t seed, st_err *err)
{
    st_spare_class *c =
        st_life_spare_classes(f->classes, f->spare_take, f->spare_repair, f->n_classes);
    double a = st_spares_out_mean(c, (size_t)f->n_classes);
    double held = st_spares_blocked(c, (size_t)f->n_classes, f->spares);
    int64_t need = st_spares_needed(c, (size_t)f->n_classes, ST_SPARES_ENOUGH);
    free(c);
    if (f->spares >= need)
        return 0;
    st_life_spec plenty = *spec;
    plenty.has_spares = 0;
    st_life_result r;
    st_err ignored = {0};
    if (st_life_run(&plenty, seed, 0, &r, &ignored))
        return 0;
    return st_err_set(err, ST_ERANGE, f->w->loc,
                      "workload '%s' never finishes: with an interruption every %.4g h, %.4g of "
                      "its nodes are out for repair on average, more than its %lld spare%s %.4g%% "
                      "of the time; %lld spare%s would hold it %.3g%% or less",
                      f->w->name, f->job_mtbf_s / 3600, a, (long long)f->spares,
                      f->spares == 1 ? "" : "s", 100 * held, (long long)need, need == 1 ? "" : "s",
                      100 * ST_SPARES_ENOUGH);
}

/* The failure classes of `fail` mapped to the components the job occupies at `at`: one class
 * per component kind it takes any of. */
static void exposure(st_forecast *f, const st_placement *at, const st_failures_cfg *fail)
{
    f->n_classes = 0;
    free(f->classes);
    free(f->mem_loss);
    free(f->spare_take);
    free(f->spare_repair);
    size_t room = fail && fail->n_classes > 0 ? (size_t)fail->n_classes : 1;
    f->classes = st_xcalloc(room, sizeof *f->classes);
    f->mem_loss = st_xcalloc(room, sizeof *f->mem_loss);
    f->spare_take = st_xcalloc(room, sizeof *f->spare_take);
    f->spare_repair = st_xcalloc(room, sizeof *f->spare_repair);
    for (int i = 0; fail && i < fail->n_classes; i++) {
        const st_failure_class *fc = &fail->classes[i];
        double n = st_placement_count(at, fc->component);
        if (n <= 0)
            continue;
        f->spare_take[f->n_classes] = st_forecast_spare_take(at, fc->component);
        f->spare_repair[f->n_classes] = fc->repair_s > 0 ? fc->repair_s : 0;
        f->classes[f->n_classes++] = (st_life_class){.component = fc->component,
                                                     .count = n,
                                                     .mtbf_s = fc->mtbf_s,
                                                     .shape = fc->weibull_shape};
    }
}

/* The checkpoint costs and the intervals the plan uses: a time, a step count, or `auto` for
 * the persistent level, and the in-memory level's when the workload states one. Fills the
 * spec's checkpoint terms and the classes' in-memory losses. */
static int checkpoints(st_forecast *f, const st_placement *at, const st_io_set *bg,
                       st_life_spec *spec, st_err *err)
{
    const st_workload_cfg *w = f->w;
    if (st_storage_checkpoint(at, w, &f->mem, &f->ingest, bg, &f->ckpt, err))
        return err->code;
    f->has_ckpt = 1;
    st_ckpt_plan_make(w, &f->ckpt, f->classes, f->mem_loss, f->n_classes, at->nodes,
                      spec->detect_s + spec->restart_s, f->eff_step_s, &f->levels);
    const st_ckpt_cfg *ck = &w->checkpoint;
    if (ck->every_s > 0)
        f->interval_s = ck->every_s;
    else if (ck->every_steps > 0) /* past the job's steps: none, held one step past its end
                                     (10^15 steps of a second overflowed the life's clock, a
                                     fuzzing find) */
        f->interval_s =
            (double)(ck->every_steps <= f->steps ? ck->every_steps : f->steps + 1) * f->eff_step_s;
    else if (ck->every_auto) {
        /* Daly's optimum for the persistent save's whole cost (its stall, the drain's hold on
         * the NICs, the flash its bytes wear) against the failures only it restores, in whole
         * in-memory intervals (steps), never shorter than a save's commit (one in flight at a
         * time). `auto` with nothing that needs it leaves the interval 0. The tier's share is
         * the audit's to hold (checkpoint write share): a floor here would trade the job's
         * time for the tier's, which is the operator's call. */
        st_auto_rule rule;
        f->interval_s = st_ckpt_plan_persistent(&f->levels, &f->ckpt, f->eff_step_s, &rule);
        f->auto_rule = (int)rule;
    }
    /* A cadence longer than the work takes no checkpoint and loads nothing. */
    double work_s = (double)f->steps * f->eff_step_s;
    st_storage_ckpt_load(at, w, &f->ckpt, f->interval_s <= work_s ? f->interval_s : 0, &f->load);
    f->levels.usd_per_day = f->load.bytes_per_day * f->levels.usd_per_byte;
    if (isfinite(f->levels.disk_mtbf_s)) {
        f->young_interval_s = st_young_interval(f->levels.cost_s, f->levels.disk_mtbf_s);
        f->daly_interval_s = st_daly_interval(f->levels.cost_s, f->levels.disk_mtbf_s);
    }
    spec->ckpt_every_s = f->interval_s;
    spec->ckpt_stall_s = f->ckpt.stall_s;
    spec->ckpt_commit_s = f->ckpt.commit_s;
    spec->restore_s = f->ckpt.restore_s;
    if (f->levels.mem_every_s > 0) {
        /* past the work: none, held a step past its end (as the persistent cadence) */
        spec->mem_every_s =
            f->levels.mem_every_s <= work_s ? f->levels.mem_every_s : work_s + f->eff_step_s;
        spec->mem_stall_s = f->levels.mem_stall_s;
        spec->mem_restore_s = f->levels.mem_restore_s;
        spec->mem_loss = f->mem_loss;
    }
    return 0;
}

/* An error the storage or life model gave without a place is the workload's: its location and
 * name go in front, so `run` says where, as `check` does. Returns rc. */
static int at_workload(const st_workload_cfg *w, int rc, st_err *err)
{
    if (rc && !err->loc.file) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        st_err_set(err, rc, w->loc, "workload '%s': %s", w->name, msg);
    }
    return rc;
}

/* Replica 0 under seed, plus `replicas` of them summarised when replicas >= 1. */
static int lives(st_forecast *f, const st_life_spec *spec, uint64_t seed, int64_t replicas,
                 st_err *err)
{
    const st_workload_cfg *w = f->w;
    int rc = st_life_run(spec, seed, 0, &f->life, err);
    if (!rc && replicas >= 1)
        rc = st_life_replicas(spec, seed, replicas, &f->summary, err);
    if (!rc && f->has_band) { /* the wall's spread over the replicas, else the one life's wall */
        int many = f->summary.replicas >= 2;
        st_band_scale(f->band_key, &f->band, many ? f->summary.wall_q : &f->life.wall_s,
                      many ? ST_LIFE_WALL_QUANTILES : 1, f->wall_band);
    }
    if (rc == ST_ERANGE && f->has_spares && never_up(f, spec, seed, err))
        return err->code;
    if (rc == ST_ERANGE) { /* failures, planned stops and fail-slow exclusions together */
        double r = (f->job_mtbf_s > 0 && isfinite(f->job_mtbf_s) ? 1 / f->job_mtbf_s : 0) +
                   (spec->planned_every_s > 0 ? 1 / spec->planned_every_s : 0) +
                   (spec->slow_every_s > 0 ? 1 / spec->slow_every_s : 0);
        return st_err_set(
            err, ST_ERANGE, w->loc,
            "workload '%s' never finishes: %.4g days of work with an interruption "
            "every %.4g h on average%s cannot complete within the 146 years or the "
            "%d interruptions a life simulates; checkpoint more often",
            w->name, (double)f->steps * f->eff_step_s / 86400, r > 0 ? 1 / r / 3600 : INFINITY,
            f->interval_s > 0 ? " and its checkpoint interval" : " and no checkpoints",
            ST_LIM_LIFE_INTERRUPTIONS);
    }
    return at_workload(w, rc, err);
}

int st_forecast_life(st_forecast *f, const st_placement *at, const st_failures_cfg *fail,
                     uint64_t seed, int64_t replicas, const st_io_set *bg, st_err *err)
{
    const st_workload_cfg *w = f->w;
    if (!f->has_step)
        return 0;
    st_storage_ingest(at, w, f->step.step_time_s, bg, &f->ingest);
    f->eff_step_s = f->step.step_time_s * f->ingest.slowdown;
    double tokens_per_step = (double)w->global_batch * (double)w->seq_len;
    f->steps = w->steps > 0 ? w->steps : (int64_t)ceil(w->tokens / tokens_per_step);
    if (f->steps < 1)
        f->steps = 1;
    exposure(f, at, fail);
    st_life_spec spec = {.step_s = f->eff_step_s,
                         .steps = f->steps,
                         .classes = f->classes,
                         .n_classes = f->n_classes};
    if (fail) {
        spec.detect_s = fail->detect_s;
        spec.restart_s = fail->restart_s;
    }
    f->job_mtbf_s = st_life_job_mtbf(&spec);
    if (w->checkpoint.enabled && at->c->n_tiers > 0 && checkpoints(f, at, bg, &spec, err))
        return at_workload(w, err->code, err);
    /* `scope: cluster`: the cluster run draws the failures on the cluster's components
     * (models/sched/outage.h); the job's own life is failure-free, its interval still set for
     * its exposure. */
    if (fail && fail->cluster_scope)
        spec.n_classes = 0;
    else if (fail)
        spec.planned_every_s = fail->planned_every_s;
    if (fail && !fail->cluster_scope && fail->has_spares) { /* failures.spares */
        spec.has_spares = 1;
        spec.spares = fail->spares;
        spec.take = f->spare_take;
        spec.repair_s = f->spare_repair;
        f->has_spares = 1;
        f->spares = fail->spares;
    }
    if (!fail || !fail->cluster_scope) /* fail-slow nodes (docs/models/stragglers.md) */
        st_slow_nodes_of(&at->c->variability, at->nodes, &spec.slow_every_s, &spec.slow_cost_s);
    int rc = lives(f, &spec, seed, replicas, err);
    if (rc)
        return rc;
    f->has_life = 1;
    return 0;
}

void st_forecast_release(st_forecast *f)
{
    if (!f)
        return;
    free(f->classes);
    f->classes = NULL;
    free(f->mem_loss);
    f->mem_loss = NULL;
    free(f->spare_take);
    f->spare_take = NULL;
    free(f->spare_repair);
    f->spare_repair = NULL;
    f->n_classes = 0;
    free(f->gpus);
    f->gpus = NULL;
    free(f->pool_step_s);
    f->pool_step_s = NULL;
    free(f->step_w);
    f->step_w = NULL;
    free(f->pool_batch);
    f->pool_batch = NULL;
}
