/* gang: gang scheduling in submit order without reservations. Every waiting job is offered the
 * cluster in submit order (ties by id), all of its GPUs at once or none; one that the placement
 * cannot fit now is passed over and later, smaller jobs may start in the GPUs it leaves (list
 * scheduling with first fit). Every policy of this folder places gangs all or nothing (the
 * cluster run refuses part of one), so what sets gang apart is the queue rule: fifo stops at
 * the first job that does not fit (head-of-line blocking); backfill lets a later job pass only
 * when it does not delay the head's reservation; gang reserves nothing, so a wide job may wait
 * for as long as narrower ones keep arriving. It promises no progress. Not preemptive. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "sim/xalloc.h"

typedef struct gang {
    st__queue q; /* waiting, in submit order */
    const st_sched_job **job;
    unsigned char *started;
} gang;

static int gang_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    gang *g = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    g->job = st_xcalloc(n, sizeof *g->job);
    g->started = st_xcalloc(n, 1);
    return 0;
}

static void gang_release(void *st)
{
    gang *g = st;
    st__queue_release(&g->q);
    free(g->job);
    free(g->started);
}

static void gang_arrival(void *st, const st_sched_job *job)
{
    gang *g = st;
    g->job[job->id] = job;
    st__queue_push(&g->q, job->id);
}

static void gang_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

static void gang_pick(void *st, st_sched_view *v)
{
    gang *g = st;
    for (size_t i = 0; i < g->q.n && st_sched_free_gpus(v) > 0; i++) {
        size_t id = g->q.id[i];
        if (g->job[id]->gpus <= st_sched_free_gpus(v) && st_sched_start(v, id))
            g->started[id] = 1;
    }
    st__queue_compact(&g->q, g->started);
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
