/* priority: strict priority with preemption, as Kubernetes' scheduler runs pods of a
 * PriorityClass (kubernetes.io, "Pod Priority and Preemption"): waiting jobs are ranked by their
 * workload's `priority` (higher first; trace jobs 0), then arrival; each that fits the free GPUs
 * starts, in that order. A job that does not fit preempts running jobs of strictly lower
 * priority (the lowest first, the latest started among equals: the least work lost), but only
 * when those it preempts, with the free GPUs and those still being saved, cover what it needs
 * (preempting without making room would lose work for nothing); it then claims them, and no
 * job ranked after it may take them while the preempted jobs save their checkpoints (nor while
 * the placement finds no room for it on GPUs that are free in number). A job nothing could make
 * room for is passed over, so smaller jobs ranked after it still start (the
 * scheduler does not hold a queue's head, as Kubernetes does not). With `scheduler.preemption:
 * false` it only ranks. A low-priority job may starve while higher ones keep arriving, so it
 * promises no progress.
 *
 * Cost: a preemption is considered only for waiting jobs ranked above the lowest running
 * priority (a job can preempt only a lower one) or as high as one that preempted and waits for
 * the GPUs it freed, walked in rank order; the rest start from an
 * ordered set by (priority, arrival), the first that fits found in O(log n), so a trace's many
 * jobs of one priority cost what sjf's do, and the walk is over the few prioritised jobs. */
#include <stdint.h>
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "sim/xalloc.h"

typedef struct prio {
    st__rset pool;
    size_t wait;     /* waiting jobs: higher priority, then earlier arrival, first */
    size_t run;      /* running jobs: lower priority, then later start, first (victims first) */
    uint64_t *order; /* by id: its arrival's rank */
    uint64_t arrivals, starts;
    const st_sched_job **job;
    size_t *scratch;
    unsigned char *claims;        /* by id: it preempted, and has not started since */
    size_t *claimant, n_claimant; /* those ids */
} prio;

static st__rkey wait_key(const prio *s, size_t id)
{
    return (st__rkey){st__rkey_int(-s->job[id]->priority), s->order[id]};
}

static int prio_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    prio *s = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    st__rset_init(&s->pool, n);
    s->wait = s->run = ST__RSET_NONE;
    s->order = st_xcalloc(n, sizeof *s->order);
    s->job = st_xcalloc(n, sizeof *s->job);
    s->scratch = st_xmalloc(n * sizeof *s->scratch);
    s->claims = st_xcalloc(n, 1);
    s->claimant = st_xmalloc(n * sizeof *s->claimant);
    return 0;
}

static void prio_release(void *st)
{
    prio *s = st;
    if (!s->job)
        return;
    st__rset_release(&s->pool);
    free(s->order);
    free(s->job);
    free(s->scratch);
    free(s->claims);
    free(s->claimant);
}

static void prio_arrival(void *st, const st_sched_job *job)
{
    prio *s = st;
    s->job[job->id] = job;
    s->order[job->id] = s->arrivals++;
    st__rset_add(&s->pool, &s->wait, job->id, wait_key(s, job->id), job->gpus, 0);
}

static void prio_finish(void *st, const st_sched_job *job)
{
    prio *s = st;
    if (st__rset_has(&s->pool, job->id))
        st__rset_remove(&s->pool, &s->run, job->id);
}

/* Start waiting job id: 1 when placed (it moves to the running set), 0 when not now. */
static int start(prio *s, st_sched_view *v, size_t id)
{
    if (!st_sched_start(v, id))
        return 0;
    st__rset_remove(&s->pool, &s->wait, id);
    if (s->claims[id]) { /* its claim is served */
        s->claims[id] = 0;
        size_t k = 0;
        while (s->claimant[k] != id)
            k++;
        s->claimant[k] = s->claimant[--s->n_claimant];
    }
    st__rkey k = {st__rkey_int(s->job[id]->priority), UINT64_MAX - s->starts++};
    st__rset_add(&s->pool, &s->run, id, k, s->job[id]->gpus, 0);
    return 1;
}

/* Make room for waiting job id of priority p, short of `short_by` GPUs: the running jobs of
 * lower priority, victims first, until their GPUs cover it; preempted (back to the waiting set)
 * only if they do. Returns 1 when it preempted. */
static int preempt_for(prio *s, st_sched_view *v, int64_t p, int64_t short_by)
{
    size_t n = 0;
    int64_t got = 0;
    st__rset_pos pos;
    for (size_t k = 0, id = st__rset_seek(&s->pool, s->run, 0, &pos);
         id != ST__RSET_NONE && got < short_by && s->job[id]->priority < p;
         id = st__rset_step(&s->pool, s->run, k++, &pos)) {
        s->scratch[n++] = id;
        got += s->job[id]->gpus;
    }
    if (got < short_by)
        return 0;
    for (size_t k = 0; k < n; k++) {
        size_t id = s->scratch[k];
        st__rset_remove(&s->pool, &s->run, id);
        st_sched_preempt(v, id);
        st__rset_add(&s->pool, &s->wait, id, wait_key(s, id), s->job[id]->gpus, 0);
    }
    return 1;
}

/* The lowest priority a waiting job may have and still be walked: above the lowest running
 * (it might preempt), or as high as a job that preempted and waits for the GPUs it freed (its
 * claim must hold, in every pick until it starts, though its victims no longer run). */
static int64_t walk_floor(const prio *s)
{
    st__rset_pos pos;
    size_t id = st__rset_seek(&s->pool, s->run, 0, &pos);
    int64_t f = id == ST__RSET_NONE ? INT64_MAX : s->job[id]->priority + 1;
    for (size_t k = 0; k < s->n_claimant; k++)
        f = s->job[s->claimant[k]]->priority < f ? s->job[s->claimant[k]]->priority : f;
    return f;
}

/* The waiting jobs that could preempt or hold a claim (walk_floor), in rank order: each
 * starts, or claims GPUs being freed, or preempts to claim them, or is passed over. Returns the
 * GPUs claimed, and in *last the key of the last one walked (NULL key: none). */
static int64_t walk_preemptors(prio *s, st_sched_view *v, st__rkey *last, int *walked)
{
    int64_t claimed = 0;
    *walked = 0;
    for (;;) {
        size_t id = *walked ? st__rset_first_after(&s->pool, s->wait, last, INT64_MAX)
                            : st__rset_first(&s->pool, s->wait, INT64_MAX, NULL, NULL);
        if (id == ST__RSET_NONE || s->job[id]->priority < walk_floor(s))
            return claimed;
        *last = wait_key(s, id);
        *walked = 1;
        int64_t need = s->job[id]->gpus, free_now = st_sched_free_gpus(v) - claimed;
        if (need <= free_now) { /* started; or the placement has no room for it now, and it
                                   keeps its claim, so that jobs it may have preempted do not
                                   take their GPUs back at once (a livelock at one instant) */
            if (!start(s, v, id))
                claimed += need;
            continue;
        }
        int64_t coming = free_now + st_sched_releasing_gpus(v);
        if (need <= coming) {
            claimed += need;
        } else if (st_sched_may_preempt(v) &&
                   preempt_for(s, v, s->job[id]->priority, need - coming)) {
            claimed += need;
            if (!s->claims[id]) {
                s->claims[id] = 1;
                s->claimant[s->n_claimant++] = id;
            }
        }
    }
}

static void prio_pick(void *st, st_sched_view *v)
{
    prio *s = st;
    st__rkey last = {0, 0};
    int walked = 0;
    int64_t claimed = walk_preemptors(s, v, &last, &walked);
    /* the rest: the first after the last walked that fits what is free and unclaimed, again
     * and again (the unclaimed GPUs only shrink, so one skipped would not fit later); one the
     * placement cannot fit now stays waiting, passed over as `last` moves past it */
    for (;;) {
        int64_t b = st_sched_free_gpus(v) - claimed;
        if (b <= 0)
            return;
        size_t id = walked ? st__rset_first_after(&s->pool, s->wait, &last, b)
                           : st__rset_first(&s->pool, s->wait, b, NULL, NULL);
        if (id == ST__RSET_NONE)
            return;
        last = wait_key(s, id);
        walked = 1;
        start(s, v, id);
    }
}

const st_sched_policy st__sched_priority = {
    .abi = ST_SCHED_ABI,
    .name = "priority",
    .state_size = sizeof(prio),
    .no_starvation = 0,
    .configure = prio_configure,
    .release = prio_release,
    .on_arrival = prio_arrival,
    .on_finish = prio_finish,
    .pick = prio_pick,
};
