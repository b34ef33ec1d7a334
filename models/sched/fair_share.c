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
 * tenants within theirs, so it promises no progress.
 *
 * The waiting jobs sit in an ordered set by that ranking, and those of each tenant with a quota
 * in one of their own, so that neither pass scans the queue: the first pass acts, at each step,
 * on the first-ranked job past the last one it acted on that fits in its tenant's quota (the
 * first fit of each tenant's set past that job: a tenant's room only shrinks as the pass goes
 * on, except a borrower's when it is preempted, and the scan never went back), and the second
 * starts the first-ranked job that fits in what is free, again and again. The borrower to
 * preempt is found among the tenants over their quota kept in order of their last-ranked
 * running job, not by a scan of the running jobs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "sim/xalloc.h"

typedef struct fair {
    const st_sched_job **job;
    size_t *seq, n_seq;    /* by id: arrival order */
    int64_t *quota, *used; /* by group: a tenant, then one for jobs without a tenant */
    int64_t *promised;     /* by group, during a pick */
    size_t groups;
    size_t *qg, n_qg; /* the groups with a quota */
    st__rset all, mine;
    size_t wait;          /* the waiting jobs, by rank */
    size_t *own;          /* by group: its waiting jobs, by rank (groups with a quota) */
    size_t *cand;         /* during the first pass, by place in qg: its next job to act on */
    st__rset runs, over;  /* running jobs by rank; groups by their last-ranked running job */
    size_t *run;          /* by group: its running jobs */
    size_t over_root;     /* the groups over their quota with a running job */
    size_t *worst;        /* by group in over: its last-ranked running job */
    size_t *back, n_back; /* preempted during a pick: they wait again after it */
    size_t *out, n_out;   /* promised during a pick: back into their group's set after it */
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
        if (f->quota[g] > 0)
            f->qg[f->n_qg++] = g;
}

/* Higher priority class first, then arrival order. */
static int ahead(const fair *f, size_t a, size_t b)
{
    if (f->job[a]->priority != f->job[b]->priority)
        return f->job[a]->priority > f->job[b]->priority;
    return f->seq[a] < f->seq[b];
}

/* Job id's rank as a key, in ahead's order (arrival numbers are unique). */
static st__rkey rank_key(const fair *f, size_t id)
{
    return (st__rkey){~st__rkey_int(f->job[id]->priority), f->seq[id]};
}

static int fair_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    fair *f = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    f->groups = p->n_tenants + 1;
    f->job = st_xcalloc(n, sizeof *f->job);
    f->seq = st_xcalloc(n, sizeof *f->seq);
    f->back = st_xmalloc(n * sizeof *f->back);
    f->out = st_xmalloc(n * sizeof *f->out);
    f->quota = st_xcalloc(f->groups, sizeof *f->quota);
    f->used = st_xcalloc(f->groups, sizeof *f->used);
    f->promised = st_xcalloc(f->groups, sizeof *f->promised);
    f->qg = st_xcalloc(f->groups, sizeof *f->qg);
    f->cand = st_xcalloc(f->groups, sizeof *f->cand);
    f->own = st_xmalloc(f->groups * sizeof *f->own);
    f->run = st_xmalloc(f->groups * sizeof *f->run);
    for (size_t g = 0; g < f->groups; g++)
        f->own[g] = f->run[g] = ST__RSET_NONE;
    f->worst = st_xcalloc(f->groups, sizeof *f->worst);
    st__rset_init(&f->runs, n);
    st__rset_init(&f->over, f->groups); /* by the rank of their last-ranked running job */
    f->over_root = ST__RSET_NONE;
    st__rset_init(&f->all, n);
    st__rset_init(&f->mine, n);
    f->wait = ST__RSET_NONE;
    set_quotas(f, p);
    return 0;
}

static void fair_release(void *st)
{
    fair *f = st;
    if (!f->job)
        return;
    free(f->job);
    free(f->seq);
    free(f->back);
    free(f->out);
    free(f->quota);
    free(f->used);
    free(f->promised);
    free(f->qg);
    free(f->cand);
    free(f->own);
    free(f->run);
    free(f->worst);
    st__rset_release(&f->runs);
    st__rset_release(&f->over);
    st__rset_release(&f->all);
    st__rset_release(&f->mine);
}

/* Job id waits: in the ranking, and in its group's when the group has a quota. */
static void wait_in(fair *f, size_t id)
{
    size_t g = group_of(f, f->job[id]);
    st__rset_add(&f->all, &f->wait, id, rank_key(f, id), f->job[id]->gpus, 0);
    if (f->quota[g] > 0)
        st__rset_add(&f->mine, &f->own[g], id, rank_key(f, id), f->job[id]->gpus, 0);
}

static void fair_arrival(void *st, const st_sched_job *job)
{
    fair *f = st;
    if (!f->job[job->id]) /* its first arrival: a job requeued after a failure keeps its place */
        f->seq[job->id] = f->n_seq++;
    f->job[job->id] = job;
    wait_in(f, job->id);
}

/* Job id starts (on) or stops running: its group's GPUs in use and running set, and the group's
 * place among those over their quota, follow. Without a tenant with a quota nothing is ever
 * reclaimed (only the first pass, for such tenants, preempts), so the running sets are not
 * kept then. */
static void running(fair *f, size_t id, int on)
{
    size_t g = group_of(f, f->job[id]);
    if (!f->n_qg) {
        f->used[g] += on ? f->job[id]->gpus : -f->job[id]->gpus;
        return;
    }
    if (st__rset_has(&f->over, g))
        st__rset_remove(&f->over, &f->over_root, g);
    if (on) {
        f->used[g] += f->job[id]->gpus;
        st__rset_add(&f->runs, &f->run[g], id, rank_key(f, id), f->job[id]->gpus, 0);
    } else {
        f->used[g] -= f->job[id]->gpus;
        st__rset_remove(&f->runs, &f->run[g], id);
    }
    if (f->used[g] > f->quota[g] && f->run[g] != ST__RSET_NONE) {
        f->worst[g] = st__rset_last(&f->runs, f->run[g]);
        st__rset_add(&f->over, &f->over_root, g, rank_key(f, f->worst[g]), 1, 0);
    }
}

static void fair_finish(void *st, const st_sched_job *job)
{
    running(st, job->id, 0);
}

/* Start waiting job id: out of the ranking (and its group's set, unless taken out already). */
static int start(fair *f, st_sched_view *v, size_t id)
{
    if (!st_sched_start(v, id))
        return 0;
    size_t g = group_of(f, f->job[id]);
    running(f, id, 1);
    st__rset_remove(&f->all, &f->wait, id);
    if (st__rset_has(&f->mine, id))
        st__rset_remove(&f->mine, &f->own[g], id);
    return 1;
}

/* The running job to preempt for group g: of a tenant over its quota, the lowest priority
 * class, then the latest arrival (the last-ranked running job of the last group in over, or of
 * the one before it when that is g); SIZE_MAX when none. */
static size_t victim(const fair *f, size_t g)
{
    size_t n = st__rset_size(&f->over, f->over_root);
    size_t h = st__rset_last(&f->over, f->over_root);
    if (h == g)
        h = n > 1 ? st__rset_at(&f->over, f->over_root, n - 2) : ST__RSET_NONE;
    return h == ST__RSET_NONE ? SIZE_MAX : f->worst[h];
}

/* Group qg[i]'s next job to act on: its first past job `pos` within its room. */
static void candidate(fair *f, size_t i, size_t pos)
{
    size_t g = f->qg[i];
    st__rkey after = pos != ST__RSET_NONE ? rank_key(f, pos) : (st__rkey){0, 0};
    f->cand[i] = st__rset_first_after(&f->mine, f->own[g], pos != ST__RSET_NONE ? &after : NULL,
                                      f->quota[g] - f->used[g] - f->promised[g]);
}

/* Preempt borrowers until need GPUs are on their way back (or none is left to preempt); each
 * preempted one's group has room again from the job acted on. */
static void reclaim(fair *f, st_sched_view *v, size_t g, int64_t need, size_t pos)
{
    while (need > 0) {
        size_t id = victim(f, g);
        if (id == SIZE_MAX)
            return;
        size_t h = group_of(f, f->job[id]);
        st_sched_preempt(v, id);
        running(f, id, 0);
        f->back[f->n_back++] = id;
        need -= f->job[id]->gpus;
        for (size_t i = 0; i < f->n_qg; i++)
            if (f->qg[i] == h)
                candidate(f, i, pos);
    }
}

/* The first pass: jobs within their tenant's quota start, or are promised GPUs, in rank order.
 * Returns the GPUs promised in all. */
static int64_t within_quota(fair *f, st_sched_view *v)
{
    int64_t promised = 0;
    for (size_t i = 0; i < f->n_qg; i++)
        candidate(f, i, ST__RSET_NONE);
    for (;;) {
        size_t at = SIZE_MAX, id = ST__RSET_NONE;
        for (size_t i = 0; i < f->n_qg; i++)
            if (f->cand[i] != ST__RSET_NONE && (id == ST__RSET_NONE || ahead(f, f->cand[i], id)))
                id = f->cand[at = i];
        if (id == ST__RSET_NONE)
            return promised;
        size_t g = group_of(f, f->job[id]);
        int64_t need = f->job[id]->gpus;
        st__rset_remove(&f->mine, &f->own[g], id);
        if (!(need <= st_sched_free_gpus(v) - promised && start(f, v, id))) {
            f->out[f->n_out++] = id;
            int64_t short_by =
                need - (st_sched_free_gpus(v) + st_sched_releasing_gpus(v) - promised);
            if (short_by > 0 && st_sched_may_preempt(v))
                reclaim(f, v, g, short_by, id);
            f->promised[g] += need;
            promised += need;
        }
        candidate(f, at, id);
    }
}

static void fair_pick(void *st, st_sched_view *v)
{
    fair *f = st;
    size_t id;
    memset(f->promised, 0, f->groups * sizeof *f->promised);
    int64_t promised = within_quota(f, v);
    while (st_sched_free_gpus(v) > promised && /* borrowing: whatever fits in what is left */
           (id = st__rset_first(&f->all, f->wait, st_sched_free_gpus(v) - promised, NULL, NULL)) !=
               ST__RSET_NONE) {
        if (!start(f, v, id)) {
            st__rset_remove(&f->all, &f->wait, id); /* passed over: back after the pass */
            f->back[f->n_back++] = id;
        }
    }
    for (size_t k = 0; k < f->n_out; k++) /* the promised that did not start */
        if (st__rset_has(&f->all, f->out[k]))
            st__rset_add(&f->mine, &f->own[group_of(f, f->job[f->out[k]])], f->out[k],
                         rank_key(f, f->out[k]), f->job[f->out[k]]->gpus, 0);
    f->n_out = 0;
    for (size_t k = 0; k < f->n_back; k++) {
        id = f->back[k];
        if (!st__rset_has(&f->all, id))
            st__rset_add(&f->all, &f->wait, id, rank_key(f, id), f->job[id]->gpus, 0);
        if (st__rset_has(&f->all, id) && f->quota[group_of(f, f->job[id])] > 0 &&
            !st__rset_has(&f->mine, id))
            st__rset_add(&f->mine, &f->own[group_of(f, f->job[id])], id, rank_key(f, id),
                         f->job[id]->gpus, 0);
    }
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
