/* fifo: strict first come, first served. Jobs start in submit order; when the job at the head of
 * the queue cannot be placed, nothing behind it starts, however small (head-of-line blocking, the
 * baseline of Tiresias, Gu et al., NSDI'19, section 6). No job starves: the head starts as soon
 * as the running jobs free enough GPUs. */
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"

typedef struct fifo {
    st__queue q;
    size_t head; /* q.id[head..n) wait; those before it have started */
} fifo;

static int fifo_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)st;
    (void)p;
    (void)err;
    return 0;
}

static void fifo_release(void *st)
{
    fifo *f = st;
    st__queue_release(&f->q);
}

static void fifo_arrival(void *st, const st_sched_job *job)
{
    fifo *f = st;
    if (f->head == f->q.n) { /* empty: reuse the array from the start */
        f->head = 0;
        f->q.n = 0;
    }
    st__queue_push(&f->q, job->id);
}

static void fifo_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

static void fifo_pick(void *st, st_sched_view *v)
{
    fifo *f = st;
    while (f->head < f->q.n && st_sched_start(v, f->q.id[f->head]))
        f->head++;
}

const st_sched_policy st__sched_fifo = {
    .abi = ST_SCHED_ABI,
    .name = "fifo",
    .state_size = sizeof(fifo),
    .no_starvation = 1,
    .configure = fifo_configure,
    .release = fifo_release,
    .on_arrival = fifo_arrival,
    .on_finish = fifo_finish,
    .pick = fifo_pick,
};
