/* srtf: shortest remaining time first, preemptive, an oracle baseline (Tiresias, Gu et al.,
 * NSDI'19, section 6; the `shortest` scheduler of Muri's simulator, Zhao et al., SIGCOMM'22). At
 * every pick all unfinished jobs, running or waiting, are ranked by their true remaining run
 * time (st_sched_remaining_s), shortest first, ties by id; walking that ranking, each job whose
 * GPUs still fit in the cluster's total is chosen, and one that does not fit is passed over
 * (later, smaller jobs may still be chosen, as in Muri's simulator). Running jobs not chosen are
 * preempted, then chosen waiting jobs start in rank order (one the placement cannot fit now is
 * passed over). A preempted job pays its checkpoint save and restore through the
 * run (cluster.h's preempt_cost): a job still saving is passed over until its GPUs are free. With
 * `scheduler.preemption: false` running jobs are never preempted: they are chosen first and the
 * ranking fills what they leave. Long jobs may starve, so it promises no progress.
 *
 * Waiting jobs keep their remaining time, sorted by it. Running jobs are kept sorted by their
 * remaining time too, taken afresh at every pick: at rate 1 they all run down together and the
 * order holds, but a neighbour's traffic slows some (cluster.h's rate hook), and a slowed job's
 * remaining time then falls behind the others' while they run. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "sim/xalloc.h"

typedef struct srtf {
    st__queue wait, run, fresh; /* wait and run by remaining time; new arrivals */
    double *key;                /* by id: remaining time (running: at the last pick) */
    const st_sched_job **job;
    unsigned char *chosen, *drop;
    size_t *scratch;
} srtf;

static int srtf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    srtf *s = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    s->key = st_xcalloc(n, sizeof *s->key);
    s->job = st_xcalloc(n, sizeof *s->job);
    s->chosen = st_xcalloc(n, 1);
    s->drop = st_xcalloc(n, 1);
    s->scratch = st_xcalloc(n, sizeof *s->scratch);
    return 0;
}

static void srtf_release(void *st)
{
    srtf *s = st;
    st__queue_release(&s->wait);
    st__queue_release(&s->run);
    st__queue_release(&s->fresh);
    free(s->key);
    free(s->job);
    free(s->chosen);
    free(s->drop);
    free(s->scratch);
}

static void srtf_arrival(void *st, const st_sched_job *job)
{
    srtf *s = st;
    s->job[job->id] = job;
    st__queue_push(&s->fresh, job->id);
}

static void srtf_finish(void *st, const st_sched_job *job)
{
    srtf *s = st;
    s->drop[job->id] = 1;
    st__queue_compact(&s->run, s->drop);
}

static int lower(const void *ctx, size_t a, size_t b)
{
    const double *key = ctx;
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

/* The running jobs by their remaining time now, ties by id: an insertion sort, one pass when
 * no rate moved them. */
static void sort_running(srtf *s, const st_sched_view *v)
{
    size_t *r = s->run.id;
    for (size_t k = 0; k < s->run.n; k++)
        s->key[r[k]] = st_sched_remaining_s(v, r[k]);
    for (size_t k = 1; k < s->run.n; k++)
        for (size_t i = k; i > 0 && lower(s->key, r[i], r[i - 1]); i--) {
            size_t t = r[i];
            r[i] = r[i - 1];
            r[i - 1] = t;
        }
}

/* Choose jobs down the merged ranking while GPUs remain; returns how many it chose. */
static size_t choose(srtf *s, const st_sched_view *v)
{
    int64_t budget = st_sched_total_gpus(v);
    size_t i = 0, k = 0, n = 0;
    if (!st_sched_may_preempt(v)) /* `preemption: false`: the running jobs keep their GPUs */
        for (; k < s->run.n; k++) {
            budget -= s->job[s->run.id[k]]->gpus;
            s->chosen[s->run.id[k]] = 1;
            s->scratch[n++] = s->run.id[k];
        }
    while (budget > 0 && (i < s->wait.n || k < s->run.n)) {
        size_t w = i < s->wait.n ? s->wait.id[i] : 0, r = k < s->run.n ? s->run.id[k] : 0;
        /* the running job's remaining time from the run's integer clock, not key - now: equal
         * remaining times must compare equal (ties by id), or two jobs preempt each other at one
         * instant forever on a rounding difference */
        double kw = i < s->wait.n ? s->key[w] : 0,
               kr = k < s->run.n ? st_sched_remaining_s(v, r) : 0;
        int take_wait = k >= s->run.n || (i < s->wait.n && (kw < kr || (kw == kr && w < r)));
        size_t id = take_wait ? w : r;
        take_wait ? i++ : k++;
        if (s->job[id]->gpus <= budget) {
            budget -= s->job[id]->gpus;
            s->chosen[id] = 1;
            s->scratch[n++] = id;
        }
    }
    return n;
}

static void srtf_pick(void *st, st_sched_view *v)
{
    srtf *s = st;
    for (size_t i = 0; i < s->fresh.n; i++) {
        size_t id = s->fresh.id[i];
        s->key[id] = st_sched_remaining_s(v, id);
        st__queue_insert(&s->wait, id, lower, s->key);
    }
    s->fresh.n = 0;
    sort_running(s, v);
    size_t n = choose(s, v);
    for (size_t k = 0; k < s->run.n; k++) { /* preempt the running jobs not chosen */
        size_t id = s->run.id[k];
        if (s->chosen[id])
            continue;
        st_sched_preempt(v, id);
        s->drop[id] = 1;
        s->key[id] = st_sched_remaining_s(v, id);
        st__queue_insert(&s->wait, id, lower, s->key);
    }
    st__queue_compact(&s->run, s->drop);
    for (size_t c = 0; c < n; c++) { /* start the chosen waiting ones, in rank order */
        size_t id = s->scratch[c];
        s->chosen[id] = 0;
        if (st_sched_is_running(v, id) || !st_sched_start(v, id))
            continue;
        s->drop[id] = 1;
        s->key[id] = st_sched_remaining_s(v, id);
        st__queue_insert(&s->run, id, lower, s->key);
    }
    st__queue_compact(&s->wait, s->drop);
}

const st_sched_policy st__sched_srtf = {
    .abi = ST_SCHED_ABI,
    .name = "srtf",
    .state_size = sizeof(srtf),
    .no_starvation = 0,
    .configure = srtf_configure,
    .release = srtf_release,
    .on_arrival = srtf_arrival,
    .on_finish = srtf_finish,
    .pick = srtf_pick,
};
