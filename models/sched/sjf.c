/* sjf: shortest job first, an oracle baseline (Tiresias, Gu et al., NSDI'19, section 6; Muri,
 * Zhao et al., SIGCOMM'22, section 6). Waiting jobs are ordered by their true run time (the
 * oracle, st_sched_remaining_s: a trace job's recorded duration; a training job's forecast until
 * it is placed), shortest first, ties by id; every job that can be placed now starts, in that
 * order, and a job that cannot is passed over. Not preemptive. Long jobs may starve while short
 * ones keep arriving, so it promises no progress.
 *
 * The waiting jobs sit in an ordered set by that run time (taken at the first pick after they
 * arrive; a waiting job's does not change), so a pick starts the first that fits, again and
 * again, in O(log n) each, where a scan of the whole queue used to pass over every job too wide
 * for the free GPUs. */
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "sim/xalloc.h"

typedef struct sjf {
    st__rset pool;
    size_t wait;            /* the waiting jobs, by run time when they joined, then id */
    size_t *fresh, n_fresh; /* arrivals since the last pick (their keys need the view) */
    const st_sched_job **job;
    size_t *scratch;
} sjf;

static int sjf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    sjf *s = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    st__rset_init(&s->pool, n);
    s->wait = ST__RSET_NONE;
    s->fresh = st_xmalloc(n * sizeof *s->fresh);
    s->job = st_xcalloc(n, sizeof *s->job);
    s->scratch = st_xmalloc(n * sizeof *s->scratch);
    return 0;
}

static void sjf_release(void *st)
{
    sjf *s = st;
    if (!s->job)
        return;
    st__rset_release(&s->pool);
    free(s->fresh);
    free(s->job);
    free(s->scratch);
}

static void sjf_arrival(void *st, const st_sched_job *job)
{
    sjf *s = st;
    s->job[job->id] = job;
    s->fresh[s->n_fresh++] = job->id;
}

static void sjf_finish(void *st, const st_sched_job *job)
{
    (void)st;
    (void)job;
}

static void sjf_pick(void *st, st_sched_view *v)
{
    sjf *s = st;
    for (size_t i = 0; i < s->n_fresh; i++) {
        size_t id = s->fresh[i];
        st__rkey k = {st__rkey_double(st_sched_remaining_s(v, id)), id};
        st__rset_add(&s->pool, &s->wait, id, k, s->job[id]->gpus, 0);
    }
    s->n_fresh = 0;
    st__rset_start_fitting(&s->pool, &s->wait, v, s->scratch);
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
