/* srsf: shortest remaining service first, preemptive, an oracle baseline: a job's service is its
 * true remaining run time times its GPUs (the `shortest-gpu` scheduler of Muri's simulator, Zhao
 * et al., SIGCOMM'22, repository Rivendile/Muri, simulator/run_sim.py; Tiresias, Gu et al.,
 * NSDI'19, section 2.2, ranks by the same two-dimensional service). At every pick all unfinished
 * jobs, running or waiting, are ranked by remaining time x GPUs, smallest first, ties by id;
 * walking that ranking, each job whose GPUs still fit in the cluster's total is chosen, one that
 * does not is passed over (later ones may still be chosen, as in Muri's simulator). Running jobs
 * not chosen are preempted, then chosen waiting jobs start in rank order (one the placement
 * cannot fit now is passed over). Preemption costs, and `scheduler.preemption: false`, as in
 * srtf.c. Wide jobs may starve, so it promises no progress.
 *
 * Unlike srtf's, the ranking between a running and another job changes as they run (a wide
 * job's service falls faster), so every pick ranks all jobs afresh: O(n log n) per pick. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "sim/xalloc.h"

typedef struct rank {
    double key; /* remaining time x GPUs */
    size_t id;
} rank;

typedef struct srsf {
    const st_sched_job **job;
    size_t *live, n_live; /* arrived, unfinished jobs */
    size_t *pos;          /* by id: index in live */
    rank *r;
    unsigned char *chosen; /* by id, during a pick */
} srsf;

static int srsf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    srsf *s = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    s->job = st_xcalloc(n, sizeof *s->job);
    s->live = st_xcalloc(n, sizeof *s->live);
    s->pos = st_xcalloc(n, sizeof *s->pos);
    s->r = st_xcalloc(n, sizeof *s->r);
    s->chosen = st_xcalloc(n, 1);
    return 0;
}

static void srsf_release(void *st)
{
    srsf *s = st;
    free(s->job);
    free(s->live);
    free(s->pos);
    free(s->r);
    free(s->chosen);
}

static void srsf_arrival(void *st, const st_sched_job *job)
{
    srsf *s = st;
    s->job[job->id] = job;
    s->pos[job->id] = s->n_live;
    s->live[s->n_live++] = job->id;
}

static void srsf_finish(void *st, const st_sched_job *job)
{
    srsf *s = st;
    size_t at = s->pos[job->id], last = s->live[--s->n_live];
    s->live[at] = last;
    s->pos[last] = at;
}

static int by_rank(const void *a, const void *b)
{
    const rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static void srsf_pick(void *st, st_sched_view *v)
{
    srsf *s = st;
    size_t n = s->n_live, chosen = 0;
    for (size_t k = 0; k < n; k++) {
        size_t id = s->live[k];
        s->r[k] = (rank){st_sched_remaining_s(v, id) * (double)s->job[id]->gpus, id};
    }
    qsort(s->r, n, sizeof *s->r, by_rank);
    int64_t budget = st_sched_total_gpus(v);
    if (!st_sched_may_preempt(v)) /* `preemption: false`: the running jobs keep their GPUs */
        for (size_t k = 0; k < n; k++)
            if (st_sched_is_running(v, s->r[k].id)) {
                budget -= s->job[s->r[k].id]->gpus;
                s->chosen[s->r[k].id] = 1;
            }
    for (size_t k = 0; k < n && budget > 0; k++)
        if (!s->chosen[s->r[k].id] && s->job[s->r[k].id]->gpus <= budget) {
            budget -= s->job[s->r[k].id]->gpus;
            s->chosen[s->r[k].id] = 1;
        }
    for (size_t k = 0; k < n; k++) /* chosen ones move to the front, in rank order */
        if (s->chosen[s->r[k].id])
            s->r[chosen++] = s->r[k];
    for (size_t k = 0; k < n; k++) /* every running job not chosen is preempted */
        if (!s->chosen[s->live[k]] && st_sched_is_running(v, s->live[k]))
            st_sched_preempt(v, s->live[k]);
    for (size_t c = 0; c < chosen; c++) { /* then the chosen waiting ones start, in rank order */
        s->chosen[s->r[c].id] = 0;
        if (!st_sched_is_running(v, s->r[c].id))
            st_sched_start(v, s->r[c].id);
    }
}

const st_sched_policy st__sched_srsf = {
    .abi = ST_SCHED_ABI,
    .name = "srsf",
    .state_size = sizeof(srsf),
    .no_starvation = 0,
    .configure = srsf_configure,
    .release = srsf_release,
    .on_arrival = srsf_arrival,
    .on_finish = srsf_finish,
    .pick = srsf_pick,
};
