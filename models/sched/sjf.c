/* sjf: shortest job first, an oracle baseline (Tiresias, Gu et al., NSDI'19, section 6; Muri,
 * Zhao et al., SIGCOMM'22, section 6). Waiting jobs are ordered by their true run time (the
 * oracle, st_sched_remaining_s: a trace job's recorded duration; a training job's forecast until
 * it is placed), shortest first, ties by id; every job that can be placed now starts, in that
 * order, and a job that cannot is passed over. Not preemptive. Long jobs may starve while short
 * ones keep arriving, so it promises no progress. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "sim/xalloc.h"

typedef struct sjf {
    st__queue wait, fresh; /* sorted waiting jobs; arrivals since the last pick */
    double *key;           /* by id: run time when it joined the queue */
    const st_sched_job **job;
    unsigned char *started;
} sjf;

static int sjf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    sjf *s = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    s->key = st_xcalloc(n, sizeof *s->key);
    s->job = st_xcalloc(n, sizeof *s->job);
    s->started = st_xcalloc(n, 1);
    return 0;
}

static void sjf_release(void *st)
{
    sjf *s = st;
    st__queue_release(&s->wait);
    st__queue_release(&s->fresh);
    free(s->key);
    free(s->job);
    free(s->started);
}

static void sjf_arrival(void *st, const st_sched_job *job)
{
    sjf *s = st;
    s->job[job->id] = job;
    st__queue_push(&s->fresh, job->id);
}

static void sjf_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

static int shorter(const void *ctx, size_t a, size_t b)
{
    const double *key = ctx;
    return key[a] < key[b] || (key[a] == key[b] && a < b);
}

static void sjf_pick(void *st, st_sched_view *v)
{
    sjf *s = st;
    for (size_t i = 0; i < s->fresh.n; i++) {
        size_t id = s->fresh.id[i];
        s->key[id] = st_sched_remaining_s(v, id);
        st__queue_insert(&s->wait, id, shorter, s->key);
    }
    s->fresh.n = 0;
    for (size_t i = 0; i < s->wait.n && st_sched_free_gpus(v) > 0; i++) {
        size_t id = s->wait.id[i];
        if (s->job[id]->gpus <= st_sched_free_gpus(v) && st_sched_start(v, id))
            s->started[id] = 1;
    }
    st__queue_compact(&s->wait, s->started);
}

const st_sched_policy st__sched_sjf = {
    .abi = ST_SCHED_ABI,
    .name = "sjf",
    .state_size = sizeof(sjf),
    .no_starvation = 0,
    .configure = sjf_configure,
    .release = sjf_release,
    .on_arrival = sjf_arrival,
    .on_finish = sjf_finish,
    .pick = sjf_pick,
};
