/* tiresias: two-dimensional least attained service with discretised queues, preemptive (Gu et
 * al., "Tiresias: A GPU Cluster Manager for Distributed Deep Learning", NSDI'19, section 3
 * (2DAS and its discretisation), the 2D-LAS of Tiresias-L). A job's attained service is its GPUs
 * times its executed time. K queues split it at K - 1 limits: a job is in the first queue whose
 * limit its service is below (the last queue has none). New jobs join the back of Q0; a job whose
 * service crosses its queue's limit is demoted to the back of its new queue at that instant (the
 * policy asks for a pick then, st_sched_wake_at). At every pick the queues are walked from Q0, each
 * in its order (FIFO), and a job whose GPUs still fit in the cluster's total is chosen, one that
 * does not is passed over and later ones may still be chosen; running jobs not chosen are
 * preempted, chosen waiting ones start. After each pick the running jobs of a queue stand
 * before its waiting ones (waiting jobs move to the back of their queue), so a job is not
 * preempted by one of its own queue behind it. Starvation (the paper's Algorithm 1): a job
 * outside Q0 that has waited, since it last entered Q0, knob times the time it has executed
 * since then is promoted to the back of Q0 and its service counted afresh.
 *
 * The rules beyond the paper follow the Tiresias artifact's dlas-gpu simulator and Muri's
 * replay of it (repository SymbioticLab/Tiresias, simulator/run_sim.py; Rivendile/Muri,
 * simulator/run_sim.py `dlas-gpu`): admission counts GPUs cluster-wide, skipped jobs do not
 * block, waiting jobs go to the back of their queue. Preemption pays its save and restore
 * through the cluster run (cluster.h's preempt_cost); `scheduler.preemption: false` keeps
 * running jobs chosen first. With the knob at 0 (the default) a long job may starve, so it
 * promises no progress. */
#include <math.h>
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/queue.h"
#include "models/sched/tiresias.h"
#include "sim/xalloc.h"

/* The defaults: those of the Tiresias artifact (SymbioticLab/Tiresias, simulator/jobs.py:
 * num_queue = 3, queue_limit = [3250, 7200, ...] GPU-seconds; the first K - 1 limits are used),
 * which Muri's Tiresias-L baseline runs unchanged, with starvation promotion off as in both
 * artifacts' runs (solve_starvation = 0). */
const st_tiresias_cfg st_tiresias_defaults = {
    .queues = 3, .limit_gpu_s = {3250, 7200}, .promote_knob = 0};

/* Service within this of a limit counts as crossing it: a wake-up lands on whole nanoseconds. */
#define EPS_GPU_S 1e-6

typedef struct tiresias {
    st_tiresias_cfg p;
    st__queue q[ST_TIRESIAS_MAX_QUEUES], fresh;
    const st_sched_job **job;
    unsigned char *qid, *chosen, *drop;
    double *base;  /* by id: executed time when its service was last counted from 0 */
    double *since; /* by id: when it last stopped running (or was promoted) */
    double *pend;  /* by id: time waited since it last entered Q0, before `since` */
    size_t *scratch;
    double wake; /* the wake-up asked for, 0: none */
} tiresias;

static int tiresias_configure(void *st, const st_sched_params *p, st_err *err)
{
    tiresias *t = st;
    t->p = p->cfg && p->cfg->tiresias.queues > 0 ? p->cfg->tiresias : st_tiresias_defaults;
    if (t->p.queues > ST_TIRESIAS_MAX_QUEUES)
        return st_err_set(err, ST_EINVAL, p->cfg->loc, "tiresias: at most %d queues",
                          ST_TIRESIAS_MAX_QUEUES);
    size_t n = p->n_jobs ? p->n_jobs : 1;
    t->job = st_xcalloc(n, sizeof *t->job);
    t->qid = st_xcalloc(n, 1);
    t->chosen = st_xcalloc(n, 1);
    t->drop = st_xcalloc(n, 1);
    t->base = st_xcalloc(n, sizeof *t->base);
    t->since = st_xcalloc(n, sizeof *t->since);
    t->pend = st_xcalloc(n, sizeof *t->pend);
    t->scratch = st_xcalloc(n, sizeof *t->scratch);
    return 0;
}

static void tiresias_release(void *st)
{
    tiresias *t = st;
    for (int k = 0; k < ST_TIRESIAS_MAX_QUEUES; k++)
        st__queue_release(&t->q[k]);
    st__queue_release(&t->fresh);
    free(t->job);
    free(t->qid);
    free(t->chosen);
    free(t->drop);
    free(t->base);
    free(t->since);
    free(t->pend);
    free(t->scratch);
}

static void tiresias_arrival(void *st, const st_sched_job *job)
{
    tiresias *t = st;
    t->job[job->id] = job;
    st__queue_push(&t->fresh, job->id);
}

static void tiresias_finish(void *st, const st_sched_job *job)
{
    tiresias *t = st;
    t->drop[job->id] = 1;
    st__queue_compact(&t->q[t->qid[job->id]], t->drop);
}

/* Job id's executed time since its service was last counted from 0, and that service. */
static double executed(const tiresias *t, const st_sched_view *v, size_t id)
{
    return st_sched_attained_s(v, id) - t->base[id];
}

static double service(const tiresias *t, const st_sched_view *v, size_t id)
{
    return executed(t, v, id) * (double)t->job[id]->gpus;
}

/* The queue job id's service puts it in. */
static int queue_of(const tiresias *t, const st_sched_view *v, size_t id)
{
    double s = service(t, v, id);
    int k = 0;
    while (k < t->p.queues - 1 && s >= t->p.limit_gpu_s[k] - EPS_GPU_S)
        k++;
    return k;
}

/* Time job id has waited since it last entered Q0. */
static double waited(const tiresias *t, const st_sched_view *v, size_t id, double now)
{
    return t->pend[id] + (st_sched_is_running(v, id) ? 0 : now - t->since[id]);
}

/* Demotions (lowest queues first), then promotions; each mover joins the back of its queue. */
static void requeue(tiresias *t, const st_sched_view *v, double now)
{
    for (int q = t->p.queues - 2; q >= 0; q--) {
        size_t k = 0;
        for (size_t i = 0; i < t->q[q].n; i++) {
            size_t id = t->q[q].id[i];
            int to = queue_of(t, v, id);
            if (to > q) {
                st__queue_push(&t->q[to], id);
                t->qid[id] = (unsigned char)to;
            } else {
                t->q[q].id[k++] = id;
            }
        }
        t->q[q].n = k;
    }
    if (t->p.promote_knob <= 0)
        return;
    for (int q = 1; q < t->p.queues; q++) {
        size_t k = 0;
        for (size_t i = 0; i < t->q[q].n; i++) {
            size_t id = t->q[q].id[i];
            double e = executed(t, v, id);
            if (st_sched_is_running(v, id) || e <= 0 ||
                waited(t, v, id, now) < t->p.promote_knob * e) {
                t->q[q].id[k++] = id;
                continue;
            }
            t->base[id] += e;
            t->pend[id] = 0;
            t->since[id] = now;
            t->qid[id] = 0;
            st__queue_push(&t->q[0], id);
        }
        t->q[q].n = k;
    }
}

/* Choose down the queues while GPUs remain (the running jobs first under `preemption: false`);
 * returns how many it chose, in scratch. */
static size_t choose(tiresias *t, const st_sched_view *v)
{
    int64_t budget = st_sched_total_gpus(v);
    size_t n = 0;
    int keep = !st_sched_may_preempt(v);
    for (int pass = keep ? 0 : 1; pass < 2; pass++)
        for (int q = 0; q < t->p.queues; q++)
            for (size_t i = 0; i < t->q[q].n && budget > 0; i++) {
                size_t id = t->q[q].id[i];
                if (t->chosen[id] || (pass == 0 && !st_sched_is_running(v, id)) ||
                    t->job[id]->gpus > budget)
                    continue;
                budget -= t->job[id]->gpus;
                t->chosen[id] = 1;
                t->scratch[n++] = id;
            }
    return n;
}

/* Each queue's running jobs before its waiting ones, each in its order. */
static void running_first(tiresias *t, const st_sched_view *v)
{
    for (int q = 0; q < t->p.queues; q++) {
        size_t k = 0, w = 0, n = t->q[q].n;
        for (size_t i = 0; i < n; i++) {
            size_t id = t->q[q].id[i];
            if (st_sched_is_running(v, id))
                t->q[q].id[k++] = id;
            else
                t->scratch[w++] = id;
        }
        for (size_t i = 0; i < w; i++)
            t->q[q].id[k + i] = t->scratch[i];
    }
}

/* The next instant a running job crosses its queue's limit or a waiting one earns promotion. */
static void ask_wake(tiresias *t, st_sched_view *v, double now)
{
    double next = INFINITY;
    for (int q = 0; q < t->p.queues; q++)
        for (size_t i = 0; i < t->q[q].n; i++) {
            size_t id = t->q[q].id[i];
            double g = (double)t->job[id]->gpus, e = executed(t, v, id);
            if (st_sched_is_running(v, id) && q < t->p.queues - 1)
                next = fmin(next, now + (t->p.limit_gpu_s[q] - e * g) / g);
            else if (!st_sched_is_running(v, id) && q > 0 && e > 0 && t->p.promote_knob > 0)
                next = fmin(next, now + t->p.promote_knob * e - waited(t, v, id, now));
        }
    if (isfinite(next) && (t->wake <= now || next < t->wake)) {
        st_sched_wake_at(v, next);
        t->wake = next;
    }
}

static void tiresias_pick(void *st, st_sched_view *v)
{
    tiresias *t = st;
    double now = st_sched_now(v);
    for (size_t i = 0; i < t->fresh.n; i++) {
        size_t id = t->fresh.id[i];
        t->since[id] = now;
        t->qid[id] = 0; /* a job requeued after a failure may come from a lower queue */
        st__queue_push(&t->q[0], id);
    }
    t->fresh.n = 0;
    requeue(t, v, now);
    size_t n = choose(t, v);
    for (int q = 0; q < t->p.queues; q++)
        for (size_t i = 0; i < t->q[q].n; i++) {
            size_t id = t->q[q].id[i];
            if (!t->chosen[id] && st_sched_is_running(v, id)) {
                st_sched_preempt(v, id);
                t->since[id] = now;
            }
        }
    for (size_t c = 0; c < n; c++) {
        size_t id = t->scratch[c];
        t->chosen[id] = 0;
        if (!st_sched_is_running(v, id) && st_sched_start(v, id) && executed(t, v, id) > 0)
            t->pend[id] += now - t->since[id]; /* a job that ran before waited this long again */
    }
    running_first(t, v);
    ask_wake(t, v, now);
}

const st_sched_policy st__sched_tiresias = {
    .abi = ST_SCHED_ABI,
    .name = "tiresias",
    .state_size = sizeof(tiresias),
    .no_starvation = 0,
    .configure = tiresias_configure,
    .release = tiresias_release,
    .on_arrival = tiresias_arrival,
    .on_finish = tiresias_finish,
    .pick = tiresias_pick,
};
