/* backfill: EASY backfilling (Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995; as
 * described by Mu'alem and Feitelson, IEEE TPDS 12(6), 2001, section 2). Jobs start in submit
 * order. When the head job cannot start, it gets a reservation: the earliest time, by the running
 * jobs' estimated ends, at which enough GPUs are free for it (the shadow time), and the GPUs left
 * over then (the extra). A later job may jump ahead only if it can start now and does not delay
 * that reservation: it ends by its estimate before the shadow time, or it needs no more than the
 * extra GPUs. The estimate is the user's (cluster.h: a training job's forecast work, a trace
 * job's recorded duration); a job that overruns it is treated as ending now. No job starves: the
 * head's reservation only moves when running jobs overrun their estimates. */
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "sim/xalloc.h"

typedef struct backfill {
    st__queue q;
    const st_sched_job **job; /* by id, as they arrive */
    unsigned char *started;   /* by id, for the queue's compaction */
} backfill;

static int backfill_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    backfill *b = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    b->job = st_xcalloc(n, sizeof *b->job);
    b->started = st_xcalloc(n, 1);
    return 0;
}

static void backfill_release(void *st)
{
    backfill *b = st;
    st__queue_release(&b->q);
    free(b->job);
    free(b->started);
}

static void backfill_arrival(void *st, const st_sched_job *job)
{
    backfill *b = st;
    b->job[job->id] = job;
    st__queue_push(&b->q, job->id);
}

static void backfill_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

/* A running job's estimated end and GPUs, sorted by end, then id. */
typedef struct ending {
    double end;
    size_t id;
    int64_t gpus;
} ending;

static int by_end(const void *a, const void *b)
{
    const ending *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Sift e[i] down the min-heap e[0..n) ordered by by_end. */
static void sift(ending *e, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && by_end(&e[l], &e[m]) < 0)
            m = l;
        if (l + 1 < n && by_end(&e[l + 1], &e[m]) < 0)
            m = l + 1;
        if (m == i)
            return;
        ending t = e[i];
        e[i] = e[m];
        e[m] = t;
        i = m;
    }
}

/* The head job's shadow time and extra GPUs, from the running jobs' estimated ends, earliest
 * (then lowest id) first. Only the ends up to the shadow time are needed, so they are popped
 * from a heap, O(r + k log r) for k of them, rather than sorted: on 100,000 GPUs tens of
 * thousands of jobs run, and sorting them at every blocked pick was 80% of bench_cluster's
 * synthetic year. */
static void reservation(const st_sched_view *v, int64_t need, double *shadow, int64_t *extra)
{
    size_t r = st_sched_n_running(v);
    ending *e = st_xcalloc(r ? r : 1, sizeof *e);
    for (size_t k = 0; k < r; k++) {
        const st_sched_job *j = st_sched_running(v, k);
        e[k] = (ending){st_sched_expected_end(v, j->id), j->id, j->gpus};
    }
    for (size_t k = r / 2; k-- > 0;)
        sift(e, r, k);
    int64_t avail = st_sched_free_gpus(v);
    *shadow = st_sched_now(v);
    for (size_t n = r; n > 0 && avail < need;) {
        avail += e[0].gpus;
        *shadow = e[0].end;
        e[0] = e[--n];
        sift(e, n, 0);
    }
    *extra = avail - need; /* < 0 only when even an empty cluster cannot place it now */
    free(e);
}

static void backfill_pick(void *st, st_sched_view *v)
{
    backfill *b = st;
    size_t i = 0;
    while (i < b->q.n && st_sched_start(v, b->q.id[i]))
        b->started[b->q.id[i++]] = 1;
    if (i < b->q.n) {
        double shadow, now = st_sched_now(v);
        int64_t extra;
        reservation(v, b->job[b->q.id[i]]->gpus, &shadow, &extra);
        for (size_t k = i + 1; k < b->q.n && st_sched_free_gpus(v) > 0; k++) {
            const st_sched_job *j = b->job[b->q.id[k]];
            int before = now + j->estimate_s <= shadow, spare = j->gpus <= extra;
            if (j->gpus > st_sched_free_gpus(v) || !(before || spare))
                continue;
            if (!st_sched_start(v, j->id))
                continue;
            b->started[j->id] = 1;
            if (!before)
                extra -= j->gpus;
        }
    }
    st__queue_compact(&b->q, b->started);
}

const st_sched_policy st__sched_backfill = {
    .abi = ST_SCHED_ABI,
    .name = "backfill",
    .state_size = sizeof(backfill),
    .no_starvation = 1,
    .configure = backfill_configure,
    .release = backfill_release,
    .on_arrival = backfill_arrival,
    .on_finish = backfill_finish,
    .pick = backfill_pick,
};
