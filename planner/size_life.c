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
#include "models/place/placement.h"
#include "models/reliability/interval.h"
#include "models/reliability/lifetime.h"
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

int st__size_life_open(st__size_life *l, const st_cluster_cfg *c, const st_workload_cfg *p,
                       const st_memory *m, const st_failures_cfg *f, st_err *err)
{
    memset(l, 0, sizeof *l);
    if (!f || f->n_classes == 0)
        return 0;
    st_topo *t = NULL;
    int rc = st_topo_new(c, &t, err);
    if (rc)
        return rc;
    st_placement at;
    st_placement_init_range(&at, t, c, 0, p->gpus);
    int n = 0;
    st_life_class *cl = classes_of(&at, f, &n);
    st_life_spec spec = {.classes = cl, .n_classes = n, .step_s = 1, .steps = 1};
    l->mtbf_s = st_life_job_mtbf(&spec);
    l->on = n > 0 && isfinite(l->mtbf_s) && l->mtbf_s > 0;
    l->restart_s = f->detect_s + f->restart_s;
    if (l->on && p->checkpoint.enabled && c->n_tiers > 0) {
        st_ckpt_cost k;
        rc = st_storage_checkpoint(&at, p, m, NULL, NULL, &k, err);
        if (!rc) {
            l->has_ckpt = 1;
            l->stall_s = k.stall_s;
            l->commit_s = k.commit_s;
            l->restart_s += k.restore_s;
            l->restore_s = k.restore_s;
        }
    }
    free(cl);
    st_placement_release(&at);
    st_topo_free(t);
    return rc;
}

/* Cadence tau of training seconds as the life model takes it: whole steps, at least one, and
 * never shorter than a save takes to commit (one save in flight, st_ckpt_auto_interval). */
static double as_steps(double tau, double step_s, double commit_s)
{
    double s = ceil(tau / step_s - 1e-9) * step_s;
    if (s < step_s)
        s = step_s;
    while (s < commit_s)
        s += step_s;
    return s;
}

double st__size_life_train(const st__size_life *l, const st_workload_cfg *p, double work_s,
                           double step_s, double *every_s, int64_t *weighed)
{
    *every_s = 0;
    if (!l->on)
        return work_s;
    double M = l->mtbf_s, R = l->restart_s;
    if (!l->has_ckpt) { /* every interruption starts the work again */
        (*weighed)++;
        return st_daly_expected_wall(work_s, work_s, 0, R, M);
    }
    double cand[N_FIXED + 2];
    size_t n = 0;
    cand[n++] = st_ckpt_auto_interval(st_daly_interval(l->stall_s, M), l->commit_s, step_s, NULL);
    if (p->checkpoint.every_s > 0)
        cand[n++] = as_steps(p->checkpoint.every_s, step_s, l->commit_s);
    else if (p->checkpoint.every_steps > 0)
        cand[n++] = as_steps((double)p->checkpoint.every_steps * step_s, step_s, l->commit_s);
    for (size_t i = 0; i < N_FIXED; i++)
        cand[n++] = as_steps(fixed_s[i], step_s, l->commit_s);
    double best = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double tau = cand[i] < work_s ? cand[i] : work_s;
        double wall = st_daly_expected_wall(work_s, tau, l->stall_s, R, M);
        (*weighed)++;
        if (wall < best) { /* ties keep the first: Daly's, then the workload's, then in order */
            best = wall;
            *every_s = tau;
        }
    }
    return best;
}

double st__size_life_storage_s(const st__size_life *l, double work_s, double train_s,
                               double every_s)
{
    if (!l->on || !l->has_ckpt || !(every_s > 0) || !isfinite(train_s))
        return 0;
    double free_s =
        st_daly_expected_wall(work_s, every_s, 0, l->restart_s - l->restore_s, l->mtbf_s);
    return train_s > free_s ? train_s - free_s : 0;
}
