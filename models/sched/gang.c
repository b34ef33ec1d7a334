/* gang: gang scheduling in submit order without reservations. Every waiting job is offered the
 * cluster in submit order (ties by id), all of its GPUs at once or none; one that the placement
 * cannot fit now is passed over and later, smaller jobs may start in the GPUs it leaves (list
 * scheduling with first fit). Every policy of this folder places gangs all or nothing (the
 * cluster run refuses part of one), so what sets gang apart is the queue rule: fifo stops at
 * the first job that does not fit (head-of-line blocking); backfill lets a later job pass only
 * when it does not delay the head's reservation; gang reserves nothing, so a wide job may wait
 * for as long as narrower ones keep arriving. It promises no progress. Not preemptive.
 *
 * The waiting jobs sit in an ordered set by arrival, so a pick starts the first that fits, again
 * and again, in O(log n) each, instead of scanning past every job too wide for the free GPUs. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "sim/xalloc.h"

typedef struct gang {
    st__rset pool;
    size_t wait; /* the waiting jobs, in arrival order: keyed by their arrival's number (a job
                    requeued after a failure: its last) */
    uint64_t next;
    size_t *scratch;
} gang;

static int gang_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    gang *g = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    st__rset_init(&g->pool, n);
    g->wait = ST__RSET_NONE;
    g->scratch = st_xmalloc(n * sizeof *g->scratch);
    return 0;
}

static void gang_release(void *st)
{
    gang *g = st;
    if (!g->scratch)
        return;
    st__rset_release(&g->pool);
    free(g->scratch);
}

static void gang_arrival(void *st, const st_sched_job *job)
{
    gang *g = st;
    st__rset_add(&g->pool, &g->wait, job->id, (st__rkey){g->next++, job->id}, job->gpus, 0);
}

static void gang_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

static void gang_pick(void *st, st_sched_view *v)
{
    gang *g = st;
    st__rset_start_fitting(&g->pool, &g->wait, v, g->scratch);
}

const st_sched_policy st__sched_gang = {
    .abi = ST_SCHED_ABI,
    .name = "gang",
    .state_size = sizeof(gang),
    .no_starvation = 0,
    .configure = gang_configure,
    .release = gang_release,
    .on_arrival = gang_arrival,
    .on_finish = gang_finish,
    .pick = gang_pick,
};
