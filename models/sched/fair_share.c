/* fair-share: per-tenant GPU quotas with borrowing of idle quota, preemption to reclaim it, and
 * priority classes; the capacity-scheduling model of Hadoop YARN's CapacityScheduler (queues
 * with guaranteed capacity that may use idle capacity elastically, preempting to give it back)
 * and of Kubernetes Kueue's cohorts (borrowing of unused nominal quota, reclaimed by
 * preemption). A tenant's quota is its share (`scheduler.quotas`) of the cluster's GPUs,
 * rounded down; a tenant the quotas do not name, and jobs without a tenant, have none: they run
 * only on borrowed GPUs.
 *
 * Waiting jobs are ranked by priority class (higher first: the workload's `priority`), then
 * submit order. Each pick makes two passes down that ranking. First, every job that fits in
 * its tenant's quota (the GPUs its running jobs hold, plus those already promised to its
 * waiting ones, plus its own) is started, or, when too few GPUs are free, promised the GPUs it
 * needs: the free ones, those preempted jobs are still saving, and, short of those, GPUs
 * reclaimed by preempting jobs of tenants running over their quota (lowest priority class
 * first, then the most recently submitted). Then every other job that fits in what is free
 * after the promises starts, borrowing. Preemption pays its save and restore through the run
 * (cluster.h's preempt_cost); with `scheduler.preemption: false` nothing is reclaimed and a
 * tenant waits for borrowed GPUs to come back as jobs end. Quotas add up to at most the
 * cluster (the loader checks it), so what tenants hold beyond their quotas always covers a
 * tenant's claim within its own. Jobs of a tenant without quota may wait forever behind
 * tenants within theirs, so it promises no progress. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "sim/xalloc.h"

typedef struct fair {
    st__queue wait;
    const st_sched_job **job;
    size_t *seq, n_seq;    /* by id: arrival order */
    int64_t *quota, *used; /* by group: a tenant, then one for jobs without a tenant */
    int64_t *promised;     /* by group, during a pick */
    size_t groups;
    int any_quota; /* some tenant has a quota: else every job borrows */
    unsigned char *started;
    size_t *back, n_back; /* preempted during a pick: they wait again after it */
} fair;

static size_t group_of(const fair *f, const st_sched_job *j)
{
    return j->tenant >= 0 && (size_t)j->tenant < f->groups - 1 ? (size_t)j->tenant : f->groups - 1;
}

/* Each named tenant's quota in GPUs: share x total, rounded down (so they never add up to more
 * than the cluster). */
static void set_quotas(fair *f, const st_sched_params *p)
{
    if (!p->cfg)
        return;
    for (int q = 0; q < p->cfg->n_quotas; q++)
        for (size_t t = 0; t < p->n_tenants; t++)
            if (strcmp(p->cfg->quotas[q].tenant, p->tenants[t]) == 0)
                f->quota[t] =
                    (int64_t)floor(p->cfg->quotas[q].share * (double)p->total_gpus + 1e-9);
    for (size_t g = 0; g < f->groups; g++)
        f->any_quota |= f->quota[g] > 0;
}

static int fair_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    fair *f = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    f->groups = p->n_tenants + 1;
    f->job = st_xcalloc(n, sizeof *f->job);
    f->seq = st_xcalloc(n, sizeof *f->seq);
    f->started = st_xcalloc(n, 1);
    f->back = st_xcalloc(n, sizeof *f->back);
    f->quota = st_xcalloc(f->groups, sizeof *f->quota);
    f->used = st_xcalloc(f->groups, sizeof *f->used);
    f->promised = st_xcalloc(f->groups, sizeof *f->promised);
    set_quotas(f, p);
    return 0;
}

static void fair_release(void *st)
{
    fair *f = st;
    st__queue_release(&f->wait);
    free(f->job);
    free(f->seq);
    free(f->started);
    free(f->back);
    free(f->quota);
    free(f->used);
    free(f->promised);
}

/* Higher priority class first, then arrival order. */
static int ahead(const void *ctx, size_t a, size_t b)
{
    const fair *f = ctx;
    if (f->job[a]->priority != f->job[b]->priority)
        return f->job[a]->priority > f->job[b]->priority;
    return f->seq[a] < f->seq[b];
}

static void fair_arrival(void *st, const st_sched_job *job)
{
    fair *f = st;
    if (!f->job[job->id]) /* its first arrival: a job requeued after a failure keeps its place */
        f->seq[job->id] = f->n_seq++;
    f->job[job->id] = job;
    st__queue_insert(&f->wait, job->id, ahead, f);
}

static void fair_finish(void *st, const st_sched_job *job)
{
    fair *f = st;
    f->used[group_of(f, job)] -= job->gpus;
}

static int start(fair *f, st_sched_view *v, size_t id)
{
    if (!st_sched_start(v, id))
        return 0;
    f->used[group_of(f, f->job[id])] += f->job[id]->gpus;
    f->started[id] = 1;
    return 1;
}

/* The running job to preempt for group g: of a tenant over its quota, the lowest priority
 * class, then the latest arrival; SIZE_MAX when none. */
static size_t victim(const fair *f, const st_sched_view *v, size_t g)
{
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < st_sched_n_running(v); k++) {
        size_t id = st_sched_running(v, k)->id, h = group_of(f, f->job[id]);
        if (h == g || f->used[h] <= f->quota[h])
            continue;
        if (best == SIZE_MAX || ahead(f, best, id))
            best = id;
    }
    return best;
}

/* Preempt borrowers until need GPUs are on their way back (or none is left to preempt). */
static void reclaim(fair *f, st_sched_view *v, size_t g, int64_t need)
{
    while (need > 0) {
        size_t id = victim(f, v, g);
        if (id == SIZE_MAX)
            return;
        st_sched_preempt(v, id);
        f->used[group_of(f, f->job[id])] -= f->job[id]->gpus;
        f->back[f->n_back++] = id;
        need -= f->job[id]->gpus;
    }
}

/* The first pass: jobs within their tenant's quota start, or are promised GPUs. Returns the
 * GPUs promised in all. */
static int64_t within_quota(fair *f, st_sched_view *v)
{
    int64_t promised = 0;
    for (size_t i = 0; i < f->wait.n && f->any_quota; i++) {
        size_t id = f->wait.id[i], g = group_of(f, f->job[id]);
        int64_t need = f->job[id]->gpus;
        if (f->used[g] + f->promised[g] + need > f->quota[g])
            continue;
        if (need <= st_sched_free_gpus(v) - promised && start(f, v, id))
            continue;
        int64_t short_by = need - (st_sched_free_gpus(v) + st_sched_releasing_gpus(v) - promised);
        if (short_by > 0 && st_sched_may_preempt(v))
            reclaim(f, v, g, short_by);
        f->promised[g] += need;
        promised += need;
    }
    return promised;
}

static void fair_pick(void *st, st_sched_view *v)
{
    fair *f = st;
    memset(f->promised, 0, f->groups * sizeof *f->promised);
    int64_t promised = within_quota(f, v);
    for (size_t i = 0; i < f->wait.n && st_sched_free_gpus(v) > promised; i++) { /* borrowing */
        size_t id = f->wait.id[i];
        if (!f->started[id] && f->job[id]->gpus <= st_sched_free_gpus(v) - promised)
            start(f, v, id);
    }
    st__queue_compact(&f->wait, f->started);
    for (size_t k = 0; k < f->n_back; k++)
        st__queue_insert(&f->wait, f->back[k], ahead, f);
    f->n_back = 0;
}

const st_sched_policy st__sched_fair_share = {
    .abi = ST_SCHED_ABI,
    .name = "fair-share",
    .state_size = sizeof(fair),
    .no_starvation = 0,
    .configure = fair_configure,
    .release = fair_release,
    .on_arrival = fair_arrival,
    .on_finish = fair_finish,
    .pick = fair_pick,
};
