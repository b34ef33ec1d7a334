/* Tiresias-L in Muri's replay (muri.h), following the artifact's code step by step (repository
 * Rivendile/Muri at 4e69a78, simulator/run_sim.py dlas_sim_jobs, run as dlas_sim_jobs(True) for
 * `--schedule=dlas-gpu`: attained service in GPU-seconds, no starvation promotion; jobs.py
 * num_queue and queue_limit; cluster.py empty_infra). Per event, in the artifact's order:
 *   1. the next event is the earliest of the next arrival and the earliest planned end (both at
 *      one instant: one event), unless a queue jump comes strictly earlier; arrivals are grouped
 *      into start events as muri.c says, planned ends compared exactly (this loop takes the
 *      minimum, not util.py's grouping);
 *   2. the jobs ending there complete (uncharged) and leave runnable_jobs and their queue;
 *   3. arrivals join runnable_jobs and the back of Q0;
 *   4. every running job, in runnable_jobs order, is charged its restart overhead on the work
 *      since its last event (max(elapsed - overhead, 0)) while its executed_time grows by the
 *      whole elapsed time, and is demoted one queue (to its back) if executed_time x GPUs has
 *      reached its queue's limit;
 *   5. the queues are scanned from Q0, each in its order, against the cluster's GPU count alone
 *      (`CLUSTER.free_gpu`; the node placement is commented out in this path): a job that fits
 *      runs, one that does not is skipped (preempted if it ran) and later ones may still run;
 *   6. each queue's pending jobs move, in their order, to its back;
 *   7. every running job's end is now + remaining iterations x iteration time, and its next
 *      queue jump now + ceil(limit / GPUs) - executed_time.
 * Doubles are combined in the artifact's order, so figures match it to rounding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/muri_run.h"
#include "sim/xalloc.h"

/* jobs.py: num_queue = 3, queue_limit = [3250, 7200, 18000] GPU-seconds; the loop demotes only
 * below the last queue, so the first two limits are used. */
#define DLAS_QUEUES 3
static const double dlas_limit_gpu_s[DLAS_QUEUES - 1] = {3250, 7200};

typedef struct dlas {
    st__muri_run *r;
    size_t *q[DLAS_QUEUES], len[DLAS_QUEUES]; /* JOBS.queues */
    size_t *tmp;
    double end_t, jump_t; /* the planned end event, the next queue jump */
} dlas;

/* list.remove(id) on a queue. */
static void q_remove(dlas *d, int k, size_t id)
{
    for (size_t i = 0; i < d->len[k]; i++)
        if (d->q[k][i] == id) {
            memmove(&d->q[k][i], &d->q[k][i + 1], (d->len[k] - i - 1) * sizeof *d->q[k]);
            d->len[k]--;
            return;
        }
}

/* The jobs planned to end at the event complete at t and leave runnable_jobs and their queue. */
static void end_jobs(dlas *d, double t)
{
    st__muri_run *r = d->r;
    size_t k = 0;
    for (size_t i = 0; i < r->n_queue; i++) {
        size_t id = r->queue[i];
        st__muri_job *j = &r->j[id];
        if (j->state == ST__MURI_RUNNING && j->end == d->end_t) {
            r->busy_gpu_s += (t - j->last) * (double)r->in[id].gpus;
            j->held += t - j->last;
            j->state = ST__MURI_DONE;
            j->end = t;
            q_remove(d, j->q, id);
            continue;
        }
        r->queue[k++] = id;
    }
    r->n_queue = k;
}

/* Step 4: the overhead charge, executed_time and demotion for every running job. */
static void update(dlas *d, double t)
{
    st__muri_run *r = d->r;
    for (size_t i = 0; i < r->n_queue; i++) {
        size_t id = r->queue[i];
        st__muri_job *j = &r->j[id];
        if (j->state == ST__MURI_RUNNING) {
            double g = (double)r->in[id].gpus;
            r->busy_gpu_s += (t - j->last) * g;
            j->held += t - j->last;
            j->rem_iter -= fmax(t - j->last - r->in[id].overhead_s, 0) / j->iter_s;
            j->executed = j->executed + t - j->last;
            if (j->q < DLAS_QUEUES - 1 && j->executed * g >= dlas_limit_gpu_s[j->q]) {
                q_remove(d, j->q, id);
                j->q++;
                d->q[j->q][d->len[j->q]++] = id;
            }
        }
        j->last = t;
    }
}

/* Steps 5 and 6: the scan against the GPU count, then each queue's pending jobs to its back;
 * the GPUs left free. */
static int64_t scan(dlas *d, double t)
{
    st__muri_run *r = d->r;
    int64_t left = r->nodes * r->gpn;
    for (int k = 0; k < DLAS_QUEUES; k++) {
        for (size_t i = 0; i < d->len[k]; i++) {
            size_t id = d->q[k][i];
            st__muri_job *j = &r->j[id];
            if (left >= r->in[id].gpus) {
                if (j->state == ST__MURI_PENDING && j->start < 0)
                    j->start = t;
                j->state = ST__MURI_RUNNING;
                left -= r->in[id].gpus;
            } else if (j->state == ST__MURI_RUNNING) {
                j->state = ST__MURI_PENDING;
                r->preemptions++;
            }
        }
        size_t run = 0, pend = 0;
        for (size_t i = 0; i < d->len[k]; i++) {
            size_t id = d->q[k][i];
            if (r->j[id].state == ST__MURI_PENDING)
                d->tmp[pend++] = id;
            else
                d->q[k][run++] = id;
        }
        memcpy(&d->q[k][run], d->tmp, pend * sizeof *d->tmp);
    }
    return left;
}

/* Step 7: every running job's planned end and the earliest; the next queue jump. */
static void plan(dlas *d, double t)
{
    st__muri_run *r = d->r;
    d->end_t = d->jump_t = INFINITY;
    for (size_t i = 0; i < r->n_queue; i++) {
        size_t id = r->queue[i];
        st__muri_job *j = &r->j[id];
        if (j->state != ST__MURI_RUNNING)
            continue;
        j->end = t + j->rem_iter * j->iter_s;
        d->end_t = fmin(d->end_t, j->end);
        if (j->q < DLAS_QUEUES - 1) {
            double step = ceil(dlas_limit_gpu_s[j->q] / (double)r->in[id].gpus);
            d->jump_t = fmin(d->jump_t, step - j->executed + t);
        }
    }
}

/* One event at the earliest of the next arrival, the planned end and the queue jump: 0, or -1
 * or -2 as st__muri_dlas. */
static int event(dlas *d, const size_t *arr, size_t *next)
{
    st__muri_run *r = d->r;
    double start_t = *next < r->n ? r->at[*next] : INFINITY;
    if (isinf(start_t) && isinf(d->end_t))
        return -1; /* "This cluster is not large enough to run the job" */
    double t = fmin(start_t, d->end_t);
    int ends = d->end_t <= start_t, starts = start_t <= d->end_t;
    if (t > d->jump_t) {
        if (ends && starts)
            return -2; /* the artifact's start event would keep this end list */
        t = d->jump_t, ends = starts = 0;
    }
    if (ends)
        end_jobs(d, t);
    while (starts && *next < r->n && r->at[*next] == t) {
        size_t id = arr[(*next)++];
        r->j[id] = (st__muri_job){.state = ST__MURI_PENDING,
                                  .rem_iter = r->j[id].rem_iter,
                                  .iter_s = r->j[id].iter_s,
                                  .last = t,
                                  .start = -1};
        r->queue[r->n_queue++] = id;
        d->q[0][d->len[0]++] = id;
    }
    update(d, t);
    st__muri_frag(r, t, scan(d, t));
    plan(d, t);
    r->events++;
    return 0;
}

int st__muri_dlas(st__muri_run *r, const size_t *arr)
{
    dlas d = {.r = r, .end_t = INFINITY, .jump_t = INFINITY};
    size_t n = r->n ? r->n : 1, next = 0;
    for (int k = 0; k < DLAS_QUEUES; k++)
        d.q[k] = st_xcalloc(n, sizeof *d.q[k]);
    d.tmp = st_xcalloc(n, sizeof *d.tmp);
    int rc = 0;
    while (!rc && (next < r->n || r->n_queue))
        rc = event(&d, arr, &next);
    for (int k = 0; k < DLAS_QUEUES; k++)
        free(d.q[k]);
    free(d.tmp);
    return rc;
}
