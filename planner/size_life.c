/* Failures in the sizing search's time to train (planner/size.h): for one GPU count, the job's
 * mean time between interruptions over the components its shape holds (the failure classes of
 * the scenario, models/reliability/lifetime.h), its checkpoint's stall, commit and restore on
 * the workload's tier (models/storage/storage.h), and, per plan, Daly's expected wall time
 * (models/reliability/interval.h) at the checkpoint cadence, searched, that trains soonest.
 * docs/guide/sizing.md, "Failures and checkpoints". */
#include "planner/size_life.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/topo.h"
#include "models/forecast/forecast.h"
#include "models/place/placement.h"
#include "models/reliability/interval.h"
#include "models/reliability/lifetime.h"
#include "models/reliability/spare_wait.h"
#include "models/silicon/variability.h"
#include "models/storage/storage.h"
#include "sim/xalloc.h"

/* The fixed cadences weighed beside Daly's optimum (and the workload's own, when it states
 * one): round values from minutes to hours. An assumption, not a published set: they let the
 * search show where a cadence other than Daly's trains sooner (a commit longer than Daly's
 * interval, a job shorter than it), and Daly's optimum is always among the candidates. */
static const double fixed_s[] = {600, 1800, 3600, 3 * 3600.0, 6 * 3600.0};
#define N_FIXED (sizeof fixed_s / sizeof fixed_s[0])

/* The life spec's failure classes for the components shape c's placement `at` holds. */
static st_life_class *classes_of(const st_placement *at, const st_failures_cfg *f, int *n)
{
    st_life_class *cl = st_xcalloc((size_t)f->n_classes + 1, sizeof *cl);
    *n = 0;
    for (int i = 0; i < f->n_classes; i++) {
        double k = st_placement_count(at, f->classes[i].component);
        if (k > 0)
            cl[(*n)++] = (st_life_class){.component = f->classes[i].component,
                                         .count = k,
                                         .mtbf_s = f->classes[i].mtbf_s,
                                         .shape = f->classes[i].weibull_shape};
    }
    return cl;
}

/* Fail-slow nodes (cluster.variability.slow_nodes) as the life model runs them
 * (models/forecast/life.c): stops as planned, each longer by the slow stretch's cost. Merged with
 * the planned stops into one Poisson stream, its downtimes the rate-weighted mean, which is what
 * the closed form's expectation reads. */
static void slow_nodes(st__size_life *l, const st_variability_cfg *v, int64_t nodes)
{
    double every, cost;
    if (!st_slow_nodes_of(v, nodes, &every, &cost))
        return;
    double rs = 1 / every, rp = l->planned_every_s > 0 ? 1 / l->planned_every_s : 0, r = rp + rs;
    l->planned_down_s += rs * cost / r;
    l->planned_restart_s += rs * cost / r;
    l->planned_every_s = 1 / r;
}

/* failures.spares in the closed form: the share of its time the job is held down for want of a
 * spare node (st_spares_blocked), the classes' takes and repairs as the life run has them
 * (st_forecast_spare_take). 0 without spares. */
static double spares_blocked(const st_placement *at, const st_failures_cfg *f, int64_t *needed)
{
    *needed = 0;
    if (!f->has_spares)
        return 0;
    st_spare_class *sc = st_xcalloc((size_t)f->n_classes + 1, sizeof *sc);
    size_t n = 0;
    for (int i = 0; i < f->n_classes; i++) {
        const st_failure_class *fc = &f->classes[i];
        double k = st_placement_count(at, fc->component);
        if (k > 0 && fc->mtbf_s > 0)
            sc[n++] = (st_spare_class){.rate_per_s = k / fc->mtbf_s,
                                       .take = st_forecast_spare_take(at, fc->component),
                                       .repair_s = fc->repair_s > 0 ? fc->repair_s : 0};
    }
    double b = st_spares_blocked(sc, n, f->spares);
    *needed = st_spares_needed(sc, n, ST_SPARES_ENOUGH);
    free(sc);
    return b;
}

int st__size_life_open(st__size_life *l, const st_cluster_cfg *c, const st_topo *t, int64_t first,
                       const st_workload_cfg *p, const st_memory *m, const st_failures_cfg *f,
                       st_maxmin **spare, st_err *err)
{
    memset(l, 0, sizeof *l);
    if (!f || f->n_classes == 0)
        return 0;
    int rc = 0;
    st_placement at;
    st_placement_init_range(&at, t, c, first, p->gpus);
    int n = 0;
    st_life_class *cl = classes_of(&at, f, &n);
    double *loss = st_xcalloc((size_t)n + 1, sizeof *loss);
    st_life_spec spec = {.classes = cl, .n_classes = n, .step_s = 1, .steps = 1};
    l->mtbf_s = st_life_job_mtbf(&spec);
    l->on = n > 0 && isfinite(l->mtbf_s) && l->mtbf_s > 0;
    l->restart_s = f->detect_s + f->restart_s;
    if (l->on && p->checkpoint.enabled && c->n_tiers > 0) {
        st_ckpt_cost k;
        rc = st_storage_checkpoint_reuse(&at, p, m, NULL, NULL, spare, &k, err);
        if (!rc) {
            l->has_ckpt = 1;
            l->stall_s = k.stall_s;
            l->commit_s = k.commit_s;
            st_ckpt_plan_make(p, &k, cl, loss, n, at.nodes, l->restart_s, 1, &l->plan);
            l->restart_s += k.restore_s;
            l->restore_s = k.restore_s;
        }
    }
    l->blocked = l->on ? spares_blocked(&at, f, &l->spares_needed) : 0;
    l->planned_every_s = f->planned_every_s;
    l->planned_restart_s = f->restart_s;
    l->planned_down_s = f->restart_s + (l->has_ckpt ? l->commit_s + l->restore_s : 0);
    slow_nodes(l, &c->variability, at.nodes);
    free(loss);
    free(cl);
    st_placement_release(&at);
    return rc;
}

/* Cadence tau of training seconds as the life model takes it: whole units (steps, or in-memory
 * intervals), at least one, and never shorter than floor_s (a save's commit:
 * st_ckpt_auto_interval). */
static double as_units(double tau, double unit_s, double floor_s)
{
    double s = ceil(tau / unit_s - 1e-9) * unit_s;
    if (s < unit_s)
        s = unit_s;
    if (s < floor_s)
        s = ceil(floor_s / unit_s - 1e-9) * unit_s;
    return s;
}

/* A workload's own cadence of one level (0: none stated). */
static double own(double every_s, int64_t every_steps, double step_s)
{
    return every_s > 0 ? every_s : (double)every_steps * step_s;
}

/* The in-memory cadences weighed: none without the level; else its Daly optimum, the
 * workload's own, one step and ten. Returns how many. */
static size_t mem_cadences(const st__size_life *l, const st_workload_cfg *p, double step_s,
                           double *out)
{
    const st_ckpt_plan *q = &l->plan;
    if (!q->two_level) {
        out[0] = 0;
        return 1;
    }
    size_t n = 0;
    st_ckpt_level_q lq = {.cost_s = q->mem_stall_s,
                          .mtbf_s = q->mem_mtbf_s,
                          .unit_s = step_s,
                          .commit_s = q->mem_commit_s};
    double opt = st_ckpt_level_interval(&lq, NULL);
    if (opt > 0)
        out[n++] = opt;
    const st_ckpt_mem_cfg *m = &p->checkpoint.memory;
    if (own(m->every_s, m->every_steps, step_s) > 0)
        out[n++] = as_units(own(m->every_s, m->every_steps, step_s), step_s, q->mem_commit_s);
    out[n++] = as_units(step_s, step_s, q->mem_commit_s);
    out[n++] = as_units(10 * step_s, step_s, q->mem_commit_s);
    return n;
}

/* The persistent cadences weighed against in-memory cadence mem_s (0: none). Returns how
 * many. */
static size_t disk_cadences(const st__size_life *l, const st_workload_cfg *p, double step_s,
                            double mem_s, double *out)
{
    double unit = mem_s > 0 ? mem_s : step_s;
    st_ckpt_level_q q = {.cost_s = l->plan.cost_s,
                         .mtbf_s = l->plan.disk_mtbf_s,
                         .unit_s = unit,
                         .commit_s = l->commit_s};
    size_t n = 0;
    out[n++] = st_ckpt_level_interval(&q, NULL); /* 0: nothing needs it, one at the end */
    double mine = own(p->checkpoint.every_s, p->checkpoint.every_steps, step_s);
    if (mine > 0)
        out[n++] = as_units(mine, unit, l->commit_s);
    for (size_t i = 0; i < N_FIXED; i++)
        out[n++] = as_units(fixed_s[i], unit, l->commit_s);
    return n;
}

/* Wall time w of running and restarting, stretched by the spares' hold: the job runs only when
 * no more of its nodes are out than it has spares, a share `blocked` of the time. */
static double held(const st__size_life *l, double w)
{
    return l->blocked > 0 ? (l->blocked < 1 ? w / (1 - l->blocked) : INFINITY) : w;
}

static double daly_train(const st__size_life *l, const st_workload_cfg *p, double work_s,
                         double step_s, double *every_s, double *mem_every_s, int64_t *weighed)
{
    *every_s = *mem_every_s = 0;
    if (!l->on)
        return work_s;
    double M = l->mtbf_s, R = l->restart_s;
    if (!l->has_ckpt) { /* every interruption, planned ones too, starts the work again */
        (*weighed)++;
        if (l->planned_every_s > 0)
            M = 1 / (1 / M + 1 / l->planned_every_s);
        return st_daly_expected_wall(work_s, work_s, 0, R, M);
    }
    const st_ckpt_plan *q = &l->plan;
    double mems[4], disks[N_FIXED + 2], best = INFINITY;
    size_t nm = mem_cadences(l, p, step_s, mems);
    for (size_t i = 0; i < nm; i++) {
        size_t nd = disk_cadences(l, p, step_s, mems[i], disks);
        for (size_t j = 0; j < nd; j++) {
            double tau = disks[j] > 0 && disks[j] < work_s ? disks[j] : work_s;
            st_ckpt_wall_q w = {.work_s = work_s,
                                .mem_every_s = mems[i],
                                .mem_cost_s = q->mem_stall_s,
                                .mem_restart_s = R - l->restore_s + q->mem_restore_s,
                                .mem_mtbf_s = q->mem_mtbf_s,
                                .disk_every_s = tau,
                                .disk_cost_s = q->cost_s,
                                .disk_restart_s = R,
                                .disk_mtbf_s = q->disk_mtbf_s,
                                .planned_every_s = l->planned_every_s,
                                .planned_down_s = l->planned_down_s};
            double wall = st_ckpt_two_level_wall(&w);
            (*weighed)++;
            if (wall < best) { /* ties keep the first: the optima, then the workload's, ... */
                best = wall;
                *every_s = tau;
                *mem_every_s = mems[i];
            }
        }
    }
    return best;
}

double st__size_life_train(const st__size_life *l, const st_workload_cfg *p, double work_s,
                           double step_s, double *every_s, double *mem_every_s, int64_t *weighed)
{
    return held(l, daly_train(l, p, work_s, step_s, every_s, mem_every_s, weighed));
}

double st__size_life_busy_s(const st__size_life *l, double work_s, double every_s,
                            double mem_every_s)
{
    if (!l->on || !(work_s > 0))
        return work_s;
    if (!l->has_ckpt) { /* every interruption, planned ones too, loses all the work done */
        double M = l->mtbf_s;
        if (l->planned_every_s > 0)
            M = 1 / (1 / M + 1 / l->planned_every_s);
        return st_daly_expected_wall(work_s, work_s, 0, 0, M);
    }
    const st_ckpt_plan *q = &l->plan;
    st_ckpt_wall_q w = {.work_s = work_s,
                        .mem_every_s = mem_every_s,
                        .mem_mtbf_s = q->mem_mtbf_s,
                        .disk_every_s = every_s > 0 && every_s < work_s ? every_s : work_s,
                        .disk_mtbf_s = q->disk_mtbf_s};
    return st_ckpt_two_level_wall(&w);
}

double st__size_life_storage_s(const st__size_life *l, double work_s, double train_s,
                               double every_s)
{
    if (!l->on || !l->has_ckpt || !(every_s > 0) || !isfinite(train_s))
        return 0;
    double free_s =
        st_daly_expected_wall(work_s, every_s, 0, l->restart_s - l->restore_s, l->mtbf_s);
    if (l->planned_every_s > 0) /* planned stops with free saves: their restart alone */
        free_s /= 1 - fmin(l->planned_restart_s / l->planned_every_s, 1);
    free_s = held(l, free_s); /* the spares' hold is not the tier's */
    return train_s > free_s ? train_s - free_s : 0;
}
