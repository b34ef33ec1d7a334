/* The cluster run (cluster.h) on one engine. cluster.finish and cluster.release (priority 0)
 * free a job's GPUs, when it is done or when a preempted job's save is; cluster.arrival (1)
 * submits the next job in submit order; cluster.wake (1) is a time a policy asked for;
 * cluster.decide (2), one per instant at most, asks the policy to pick once every finish,
 * release, arrival and wake of that instant has fired (at the end of the handler that asks for
 * it, when nothing else is pending at that instant: decide_after); cluster.rate (3) re-rates the
 * running jobs after a start or a stop. Failures and repairs are cluster_fail.c's. Times are
 * integer nanoseconds, so work done and left add up exactly. */
#include <stdlib.h>
#include <string.h>

#include "models/sched/cluster_internal.h"
#include "sim/sort.h"
#include "sim/stats.h"
#include "sim/xalloc.h"

double st_sched_now(const st_sched_view *v)
{
    return secs(st_engine_now(v->eng));
}

/* In a partition's pick (v->cur, cluster_parts.c) a policy sees its pool's counts and jobs, the
 * ids it passes being the partition's own (st__cl_gid); its free GPUs leave out those held for a
 * job across pools (cluster_pools.c). */
int64_t st_sched_free_gpus(const st_sched_view *v)
{
    return v->cur ? st__cl_free(v, (int)(v->cur - v->parts)) : v->pool.free;
}

int64_t st_sched_total_gpus(const st_sched_view *v)
{
    return v->cur ? st__cl_pool_gpus(v, (int)(v->cur - v->parts)) : v->pool.total;
}

size_t st_sched_n_running(const st_sched_view *v)
{
    return v->cur ? v->cur->n_running : v->n_running;
}

const st_sched_job *st_sched_running(const st_sched_view *v, size_t k)
{
    return v->cur ? &v->cur->sj[v->cur->running[k]] : &v->sj[v->running[k]];
}

int st_sched_is_running(const st_sched_view *v, size_t id)
{
    return v->js[st__cl_gid(v, id)].state == J_RUNNING;
}

/* Work done by now, in ticks. */
/* Run time done in wall ticks dt at job j's rate. */
static st_time at_rate(const jstate *j, st_time dt)
{
    return j->rate == 1 ? dt : (st_time)llround((double)dt * j->rate);
}

static st_time done_by_now(const st_sched_view *v, size_t id)
{
    const jstate *j = &v->js[id];
    return j->done + (j->state == J_RUNNING ? at_rate(j, st_engine_now(v->eng) - j->seg_start) : 0);
}

/* What the estimate leaves is run time; a running job does it at its rate (a neighbour's
 * traffic slows it), so its wall time is that over the rate. */
double st_sched_expected_end(const st_sched_view *v, size_t id)
{
    id = st__cl_gid(v, id);
    const jstate *j = &v->js[id];
    double left = v->sj[id].estimate_s - secs(done_by_now(v, id));
    if (j->state == J_RUNNING && j->rate != 1)
        left /= j->rate;
    return st_sched_now(v) + (left > 0 ? left : 0);
}

double st_sched_remaining_s(const st_sched_view *v, size_t id)
{
    id = st__cl_gid(v, id);
    const jstate *j = &v->js[id];
    if (j->duration < 0)
        return v->sj[id].estimate_s + secs(j->owed + j->owed_fail);
    return secs(j->duration + j->extra + j->owed + j->owed_fail - done_by_now(v, id));
}

int64_t st_sched_clock(const st_sched_view *v)
{
    return st_engine_now(v->eng);
}

/* Without a rate hook a running job's rate stays 1 (want_rate), so its work done grows tick for
 * tick with the clock and st_sched_remaining_s's difference is end - now in integers. */
int st_sched_end_ticks(const st_sched_view *v, size_t id, int64_t *end)
{
    const jstate *j = &v->js[st__cl_gid(v, id)];
    if (j->state != J_RUNNING || j->duration < 0 || !st_sched_steady(v))
        return 0;
    *end = j->duration + j->extra + j->owed + j->owed_fail - j->done + j->seg_start;
    return 1;
}

int st_sched_steady(const st_sched_view *v)
{
    return !v->sp->rate;
}

/* A start or a stop changes what the running jobs share: ask their rates once this instant is
 * decided (sp->rate). */
static void want_rate(st_sched_view *v)
{
    if (!v->sp->rate || v->rate_pending)
        return;
    v->rate_pending = 1;
    st_engine_schedule_prio(v->eng, v->k_rate, st_engine_now(v->eng), PRIO_RATE, NULL);
}

void st__cl_want_decide(st_sched_view *v)
{
    if (v->decide_pending)
        return;
    v->decide_pending = 1;
    st_engine_schedule_prio(v->eng, v->k_decide, st_engine_now(v->eng), PRIO_DECIDE, NULL);
}

void st__cl_stop(st_sched_view *v)
{
    v->stopped = 1;
    st_engine_stop(v->eng);
}

static void decide(st_sched_view *v);

/* The decision an arrival, finish, release or wake asks for, at the end of its handler: made at
 * once when nothing else is pending at this instant (no decision yet, the run not stopping), as
 * the cluster.decide event would have been the next to fire, nothing else at this instant
 * before it; else that event, after the rest of the instant. One event less per decision (half
 * of the run's events on a trace), and the same order of everything else: the events scheduled
 * later keep their order among themselves. */
static void decide_after(st_sched_view *v)
{
    if (!v->decide_pending && !v->stopped && st_engine_next_time(v->eng) > st_engine_now(v->eng)) {
        decide(v);
        return;
    }
    st__cl_want_decide(v);
}

double st_sched_attained_s(const st_sched_view *v, size_t id)
{
    return secs(done_by_now(v, st__cl_gid(v, id)));
}

int64_t st_sched_releasing_gpus(const st_sched_view *v)
{
    return v->cur ? v->cur->releasing : v->releasing;
}

int st_sched_may_preempt(const st_sched_view *v)
{
    return !v->sp->sched || v->sp->sched->preemption != 0; /* < 0: unset */
}

void st_sched_wake_at(st_sched_view *v, double t_s)
{
    st_time t = ticks(t_s), now = st_engine_now(v->eng);
    st_payload p = {.u = {v->cur ? (uint64_t)(v->cur - v->parts) + 1 : 0}};
    st_engine_schedule_prio(v->eng, v->k_wake, t > now ? t : now + 1, PRIO_ARRIVAL, &p);
}

/* A policy's wake-up: a pick at this instant, after its finishes and arrivals (its partition's,
 * u[0] - 1, on a cluster of pools). */
static void on_wake(st_engine *eng, void *st, const st_event *ev)
{
    (void)eng;
    st__cl_dirty_part(st, (int)ev->data.u[0] - 1);
    decide_after(st);
}

static void open_segment(st_sched_view *v, size_t id)
{
    st_cluster_result *r = v->out;
    if (!v->js[id].keep)
        return;
    r->seg = st_xgrow(r->seg, sizeof *r->seg, r->n_seg + 1, &v->seg_cap);
    size_t at = r->n_seg ? r->seg[r->n_seg - 1].gpu_at + (size_t)r->seg[r->n_seg - 1].n : 0;
    int64_t n = v->sj[id].gpus;
    r->seg_gpus = st_xgrow(r->seg_gpus, sizeof *r->seg_gpus, at + (size_t)n, &v->seg_gpus_cap);
    memcpy(r->seg_gpus + at, v->gpus + v->js[id].gpu_off, (size_t)n * sizeof *r->seg_gpus);
    r->seg[r->n_seg] = (st_cluster_seg){id, st_sched_now(v), st_sched_now(v), at, n};
    v->js[id].seg = r->n_seg++;
}

/* Job id off the running list: it does no more work. */
void st__cl_stop_work(st_sched_view *v, size_t id)
{
    jstate *j = &v->js[id];
    j->done += at_rate(j, st_engine_now(v->eng) - j->seg_start);
    size_t last = v->running[--v->n_running];
    v->running[j->run_pos] = last;
    v->js[last].run_pos = j->run_pos;
    st__cl_parts_running(v, id, 0);
}

/* Job id's GPUs back to the pool now; its stretch (seg_start less any restore: the time it held
 * them) ends. */
void st__cl_give_back(st_sched_view *v, size_t id)
{
    jstate *j = &v->js[id];
    st_time now = st_engine_now(v->eng);
    v->busy_gpu_s += secs(now - j->hold_start) * (double)v->sj[id].gpus;
    st__cl_parts_busy(v, id, secs(now - j->hold_start) * (double)v->sj[id].gpus);
    if (j->held) /* (its first is stored: 0 + x is x, for the x >= +0 of secs) */
        v->out->job[id].held_s += secs(now - j->hold_start);
    else
        v->out->job[id].held_s = secs(now - j->hold_start);
    j->held = 1;
    if (v->has_out)
        st__cl_gpus_back(v, v->gpus + j->gpu_off, v->sj[id].gpus);
    else
        st__cl_give(v, v->gpus + j->gpu_off, v->sj[id].gpus);
    if (j->keep)
        v->out->seg[j->seg].end_s = secs(now);
    j->hold_start = now; /* holding nothing, it waits from now (unless it is done) */
    if (v->sp->stop)
        v->sp->stop(v->sp->ctx, id, secs(now));
    want_rate(v);
}

/* End job id's current stretch now: no more work, GPUs back to the pool. */
static void stop_running(st_sched_view *v, size_t id)
{
    st__cl_stop_work(v, id);
    st__cl_give_back(v, id);
}

static void schedule_finish(st_sched_view *v, size_t id)
{
    jstate *j = &v->js[id];
    st_payload p = {.u = {id}};
    st_time left = j->duration + j->extra - j->done;
    if (j->rate != 1) { /* a slow rate can stretch it past the clock: held as ticks() holds */
        double l = ceil((double)left / j->rate);
        left = l < (double)ST__CL_FAR ? (st_time)l : ST__CL_FAR;
    }
    st_time at = left < ST__CL_FAR - j->seg_start ? j->seg_start + left : ST__CL_FAR;
    j->fin = st_engine_schedule_prio(v->eng, v->k_finish, at, PRIO_FINISH, &p);
}

/* The run times of the jobs first started at this instant, now that all of them hold their
 * GPUs, and their finish events. */
static void settle_pending(st_sched_view *v)
{
    for (size_t k = 0; k < v->n_pending; k++) {
        size_t id = v->pending[k];
        jstate *j = &v->js[id];
        j->pending = 0;
        if (j->state != J_RUNNING || j->duration >= 0 || v->rc)
            continue; /* preempted in the same pick: asked again at its next start */
        double d = 0;
        if ((v->rc = v->sp->duration(v->sp->ctx, id, st_sched_now(v), &d, v->err))) {
            st__cl_stop(v);
            continue;
        }
        j->duration = j->base = ticks(d > 0 ? d : 0);
        v->out->job[id].duration_s = secs(j->duration);
        schedule_finish(v, id);
    }
    v->n_pending = 0;
}

/* Resumed job id's run time on its new GPUs g (sp->retime): its run time, work done and kept
 * progress rescaled from its old placement's to the new one's. Returns 0 or the hook's error. */
static int retime(st_sched_view *v, size_t id, const int64_t *g)
{
    jstate *j = &v->js[id];
    double s = 1;
    if (!v->sp->retime || j->duration < 0)
        return 0;
    if ((v->rc = v->sp->retime(v->sp->ctx, id, g, st_sched_now(v), &s, v->err))) {
        st__cl_stop(v);
        return v->rc;
    }
    s = s > 0 && isfinite(s) ? s : 1;
    if (s == j->scale)
        return 0;
    double f = s / j->scale;
    st_time p = j->done - j->extra; /* progress, restores left out */
    j->done = j->extra + ticks_scaled(p, f);
    j->kept = ticks_scaled(j->kept, f);
    j->duration = ticks_scaled(j->base, s);
    j->scale = s;
    return 0;
}

int st_sched_start(st_sched_view *v, size_t id)
{
    id = st__cl_gid(v, id);
    jstate *j = &v->js[id];
    if (j->state == J_SAVING)
        return 0; /* its GPUs are still writing its checkpoint */
    if (j->state != J_WAITING)
        ST_BUG("job %zu is not waiting", id);
    int64_t *g = v->gpus + j->gpu_off;
    if (v->rc || st__cl_choose(v, id, g))
        return 0;
    if (j->started && retime(v, id, g))
        return 0; /* a resume: its run time where it lands now (the hook failed: nothing taken) */
    st_time now = st_engine_now(v->eng);
    st__cl_take(v, g, v->sj[id].gpus);
    st__cl_wait(v, id, 0);
    for (int64_t k = 0; v->has_out && k < v->sj[id].gpus; k++)
        v->owner[g[k]] = (int32_t)(id + 1);
    st_cluster_job_out *o = &v->out->job[id];
    if (!j->started) { /* the first start */
        j->started = 1;
        o->state = ST_CJ_RUNNING;
        o->start_s = secs(now);
        o->wait_s = o->start_s - v->sj[id].submit_s;
        o->queued_s = o->wait_s;
        st__cl_after_started(v, id);
    } else { /* a restart: it waited since it gave its GPUs back (st__cl_give_back) */
        o->queued_s += secs(now - j->hold_start);
        v->requeued = 1;
    }
    j->state = J_RUNNING;
    j->seg_start = j->hold_start = now;
    j->rate = 1;   /* its run time is its own at this placement; cluster.rate asks again */
    if (j->owed) { /* the restore is work it does first on these GPUs */
        j->extra += j->owed;
        o->preempted_s += secs(j->owed);
        v->out->st.preempted_s += secs(j->owed);
        j->owed = 0;
        j->fail_paid = 0;
    }
    if (j->owed_fail) { /* so are a failure's restart and restore */
        j->extra += j->owed_fail;
        o->failed_s += secs(j->owed_fail);
        j->owed_fail = 0;
        j->fail_paid = 1;
    } /* (none owed: the figures, never -0.0, would add +0.0: they are left as they are) */
    j->run_pos = (uint32_t)v->n_running;
    v->running[v->n_running++] = id;
    st__cl_parts_running(v, id, 1);
    open_segment(v, id);
    if (v->sp->start)
        v->sp->start(v->sp->ctx, id, g, secs(now));
    want_rate(v);
    if (j->duration < 0 && !j->pending) {
        j->pending = 1;
        v->pending[v->n_pending++] = id;
    } else if (j->duration >= 0) {
        schedule_finish(v, id);
    }
    return 1;
}

void st_sched_preempt(st_sched_view *v, size_t id)
{
    id = st__cl_gid(v, id);
    jstate *j = &v->js[id];
    if (j->state != J_RUNNING)
        ST_BUG("job %zu is not running", id);
    st_engine_cancel(v->eng, j->fin);
    double save = 0, restore = 0;
    if (v->sp->preempt_cost)
        v->sp->preempt_cost(v->sp->ctx, id, &save, &restore);
    st_time ts = cost_ticks(save);
    j->owed = cost_ticks(restore);
    v->out->job[id].preemptions++;
    v->out->st.preemptions++;
    v->out->job[id].preempted_s += secs(ts);
    v->out->st.preempted_s += secs(ts);
    st__cl_stop_work(v, id);
    if (j->done - j->extra < j->kept) /* during its restore: the checkpoint it holds is kept */
        st__cl_unpay(v, id, j->kept - (j->done - j->extra));
    j->kept = j->done - j->extra; /* its save is a checkpoint a later failure returns to */
    if (ts > 0) {                 /* it keeps its GPUs while it writes its checkpoint */
        j->state = J_SAVING;
        v->n_saving++;
        st__cl_releasing(v, id, j->rel = v->sj[id].gpus);
        st_payload p = {.u = {id}};
        st_engine_schedule_prio(v->eng, v->k_release, st_engine_now(v->eng) + ts, PRIO_FINISH, &p);
        return;
    }
    st__cl_give_back(v, id);
    j->state = J_WAITING;
    st__cl_wait(v, id, 1);
    st__cl_dirty_job(v, id);
    st__cl_want_decide(v);
}

/* A preempted job's save is done: its GPUs go back, and it may start again. */
static void on_release(st_engine *eng, void *st, const st_event *ev)
{
    (void)eng;
    st_sched_view *v = st;
    size_t id = (size_t)ev->data.u[0];
    st__cl_give_back(v, id);
    st__cl_releasing(v, id, -v->js[id].rel);
    v->js[id].rel = 0;
    v->js[id].state = J_WAITING;
    v->n_saving--;
    st__cl_wait(v, id, 1);
    st__cl_dirty_job(v, id);
    decide_after(v);
}

/* Job id joins the waiting jobs and its policy's queue. */
static void enter_queue(st_sched_view *v, size_t id)
{
    v->js[id].state = J_WAITING;
    st__cl_wait(v, id, 1);
    st__cl_parts_arrival(v, id);
}

static void on_arrival(st_engine *eng, void *st, const st_event *ev)
{
    st_sched_view *v = st;
    size_t k = (size_t)ev->data.u[0], id = v->order[k];
    if (!st__cl_after_holds(v, id))
        enter_queue(v, id);
    if (k + 1 < v->n_order) {
        st_payload p = {.u = {k + 1}};
        st_engine_schedule_prio(eng, v->k_arrive, v->arrive[k + 1], PRIO_ARRIVAL, &p);
        /* Its record, which its arrival reads first: loaded while the run goes on (it was a
         * cache miss the handler waited on, half of its time, when its submit time came
         * from it). */
        __builtin_prefetch(&v->sj[v->order[k + 1]]);
    }
    decide_after(v);
}

/* A held job's after-job has started (cluster_after.c): it queues now. */
static void on_unhold(st_engine *eng, void *st, const st_event *ev)
{
    (void)eng;
    st_sched_view *v = st;
    size_t id = (size_t)ev->data.u[0];
    v->js[id].on_hold = 0;
    enter_queue(v, id);
    decide_after(v);
}

static void on_finish(st_engine *eng, void *st, const st_event *ev)
{
    st_sched_view *v = st;
    size_t id = (size_t)ev->data.u[0];
    stop_running(v, id);
    v->js[id].state = J_FINISHED;
    v->out->job[id].state = ST_CJ_FINISHED;
    v->out->job[id].end_s = secs(st_engine_now(eng));
    st__cl_parts_finish(v, id);
    if (v->has_out && --v->n_left == 0)
        st__cl_stop(v); /* nothing is left for a failure to hit */
    decide_after(v);
}

/* The fragmentation level from now to the next event (every change of the free GPUs or of the
 * waiting jobs is followed by a decision at its instant): free GPUs while some job waits and
 * even the smallest waiting one asks for more. */
static void fragmentation(st_sched_view *v)
{
    double now = st_sched_now(v);
    v->frag_gpu_s += v->frag_now * (now - v->frag_t);
    int64_t least = st__waitset_min(&v->waiting);
    v->frag_now = v->parts ? (double)v->frag_sum : least > v->pool.free ? (double)v->pool.free : 0;
    v->frag_t = now;
}

static void decide(st_sched_view *v)
{
    v->decide_pending = 0;
    if (v->parts)
        st__cl_parts_pick(v);
    else
        v->pol->pick(v->pst, v);
    settle_pending(v);
    fragmentation(v);
}

static void on_decide(st_engine *eng, void *st, const st_event *ev)
{
    (void)eng;
    (void)ev;
    decide(st);
}

/* cluster.rate: every running job's rate now, from the spec's hook; a job whose rate changed
 * keeps the run time it did at the old one and has its finish moved. */
static void on_rate(st_engine *eng, void *st, const st_event *ev)
{
    (void)ev;
    st_sched_view *v = st;
    v->rate_pending = 0;
    st_time now = st_engine_now(eng);
    for (size_t k = 0; k < v->n_running && !v->rc; k++) {
        size_t id = v->running[k];
        jstate *j = &v->js[id];
        if (j->duration < 0)
            continue;
        double r = v->sp->rate(v->sp->ctx, id, secs(now));
        r = r > 0 && r <= 1 ? r : 1;
        if (r == j->rate)
            continue;
        st_engine_cancel(eng, j->fin);
        j->done += at_rate(j, now - j->seg_start);
        j->seg_start = now;
        j->rate = r;
        schedule_finish(v, id);
        st_cluster_job_out *o = &v->out->job[id];
        o->rate_changes++;
        o->slowest_rate = r < o->slowest_rate ? r : o->slowest_rate;
    }
}

/* Jobs in submit order, ties by id: the order arrivals fire in. */
typedef struct arrival {
    double submit_s;
    size_t id;
} arrival;

static int by_submit(const void *a, const void *b)
{
    const arrival *x = a, *y = b;
    if (x->submit_s != y->submit_s)
        return x->submit_s < y->submit_s ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

_Static_assert(sizeof(jstate) % JSTATE_ALIGN == 0, "a job's state is whole cache lines");

/* n job states, zeroed, each on its own cache lines (aligned_alloc; where it fails, calloc's
 * alignment does, or st_xcalloc's abort). */
static jstate *alloc_states(size_t n)
{
    void *p = n <= SIZE_MAX / sizeof(jstate) ? aligned_alloc(JSTATE_ALIGN, n * sizeof(jstate)) : 0;
    if (!p)
        return st_xcalloc(n, sizeof(jstate));
    memset(p, 0, n * sizeof(jstate));
    return p;
}

/* Job states, the policy's view of each job, their GPU slots and the arrival order. A job
 * asking for more GPUs than the cluster has (or none) is never submitted. */
static void setup_jobs(st_sched_view *v)
{
    const st_cluster_spec *sp = v->sp;
    size_t n = sp->n, slots = 0, kept = 0, kept_slots = 0;
    v->sj = st_xmalloc((n ? n : 1) * sizeof *v->sj);
    v->js = alloc_states(n ? n : 1);
    v->running = st_xmalloc((n ? n : 1) * sizeof *v->running);
    v->order = st_xmalloc((n ? n : 1) * sizeof *v->order);
    v->pending = st_xmalloc((n ? n : 1) * sizeof *v->pending);
    for (size_t i = 0; i < n; i++) {
        const st_cluster_job *j = &sp->jobs[i];
        v->sj[i] = (st_sched_job){i, j->gpus, j->submit_s, j->estimate_s, j->priority, j->tenant};
        v->js[i].duration = j->duration_s < 0 ? -1 : ticks(j->duration_s);
        v->js[i].gpu_off = slots;
        v->js[i].rate = 1;
        v->js[i].scale = 1;
        v->js[i].base = v->js[i].duration;
        v->out->job[i].state = ST_CJ_WAITING;
        v->out->job[i].slowest_rate = 1;
        if (j->gpus < 1 || j->gpus > st__cl_room(v, i)) {
            v->js[i].state = J_TOO_BIG;
            v->out->job[i].state = ST_CJ_TOO_BIG;
            continue;
        }
        slots += (size_t)j->gpus;
        v->order[v->n_order++] = i;
        v->js[i].keep = sp->keep_segments || i < sp->keep_first;
        kept += v->js[i].keep;
        kept_slots += v->js[i].keep ? (size_t)j->gpus : 0;
    }
    v->gpus = st_xmalloc((slots ? slots : 1) * sizeof *v->gpus);
    if (kept) { /* a stretch per first start at least: room for them at once */
        v->out->seg = st_xgrow(v->out->seg, sizeof *v->out->seg, kept, &v->seg_cap);
        v->out->seg_gpus =
            st_xgrow(v->out->seg_gpus, sizeof *v->out->seg_gpus, kept_slots, &v->seg_gpus_cap);
    }
    arrival *a = st_xmalloc((v->n_order ? v->n_order : 1) * sizeof *a);
    for (size_t k = 0; k < v->n_order; k++)
        a[k] = (arrival){sp->jobs[v->order[k]].submit_s, v->order[k]};
    st_sort_unless_sorted(a, v->n_order, sizeof *a, by_submit); /* a trace is in order already */
    v->arrive = st_xmalloc((v->n_order ? v->n_order : 1) * sizeof *v->arrive);
    for (size_t k = 0; k < v->n_order; k++) {
        v->order[k] = a[k].id;
        v->arrive[k] = ticks(a[k].submit_s);
    }
    free(a);
}

/* The GPU-time shares over the makespan: utilisation, fragmented GPUs (the waiting set's
 * integral, closed at the makespan) and goodput (utilisation less what preemptions' saves and
 * restores and failures cost). */
static void gpu_shares(const st_sched_view *v, st_cluster_stats *s, double lost)
{
    s->utilization = s->makespan_s > 0 && v->pool.total > 0
                         ? v->busy_gpu_s / ((double)v->pool.total * s->makespan_s)
                         : 0;
    double frag = v->frag_gpu_s + v->frag_now * fmax(s->makespan_s - v->frag_t, 0);
    s->fragmented_gpus = s->makespan_s > 0 ? frag / s->makespan_s : 0;
    s->goodput = s->makespan_s > 0 && v->pool.total > 0
                     ? (v->busy_gpu_s - lost) / ((double)v->pool.total * s->makespan_s)
                     : 0;
}

/* The finished jobs' whole times queued: their mean and p95, the waits' own when no job was
 * re-queued (each job's time queued is then its wait, and no second sample set is needed). */
static void queued_stats(const st_sched_view *v, st_cluster_stats *s)
{
    s->mean_queued_s = s->mean_wait_s;
    s->p95_queued_s = s->p95_wait_s;
    if (!v->requeued)
        return;
    const st_cluster_result *r = v->out;
    st_samples q;
    st_samples_init(&q);
    st_samples_reserve(&q, s->finished);
    double sum = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->job[i].state == ST_CJ_FINISHED && !(v->sp->part && v->sp->part[i])) {
            st_samples_add(&q, r->job[i].queued_s);
            sum += r->job[i].queued_s;
        }
    const double p95 = 0.95;
    st_samples_quantiles(&q, &p95, 1, &s->p95_queued_s);
    s->mean_queued_s = s->finished ? sum / (double)s->finished : 0;
    st_samples_release(&q);
}

/* The quantiles of the finished jobs' waits and JCTs, and their means from their sums (sw, sc). */
static void wait_jct_stats(st_cluster_stats *s, st_samples *wait, st_samples *jct, double sw,
                           double sc)
{
    const double q[3] = {0.5, 0.95, 0.99};
    double w[3], c[3];
    st_samples_quantiles(wait, q, 3, w);
    st_samples_quantiles(jct, q, 3, c);
    s->p50_wait_s = w[0];
    s->p95_wait_s = w[1];
    s->p99_wait_s = w[2];
    s->p50_jct_s = c[0];
    s->p95_jct_s = c[1];
    s->p99_jct_s = c[2];
    s->mean_wait_s = s->finished ? sw / (double)s->finished : 0;
    s->mean_jct_s = s->finished ? sc / (double)s->finished : 0;
}

/* The figures over the finished jobs, once the run is over; jobs still running are cut at the
 * end (their GPU time up to it counts). One pass over the jobs gathers every figure; each sum
 * is in job order, so no figure depends on the order of anything else. */
static void summarise(st_sched_view *v)
{
    st_cluster_result *r = v->out;
    st_cluster_stats *s = &r->st;
    st_samples wait, jct;
    st_samples_init(&wait);
    st_samples_init(&jct);
    st_samples_reserve(&wait, r->n);
    st_samples_reserve(&jct, r->n);
    double last = 0, end = st_sched_now(v);
    s->free_at_end = v->pool.free;
    while (v->n_running)
        stop_running(v, v->running[v->n_running - 1]);
    for (size_t i = 0; v->n_saving && i < r->n; i++)
        if (v->js[i].state == J_SAVING) /* its save cut by the horizon */
            st__cl_give_back(v, i);
    s->jobs = r->n;
    double lost = 0;       /* GPU-seconds of saves and restores, and of what failures cost */
    double sw = 0, sc = 0; /* waits and JCTs */
    for (size_t i = 0; i < r->n; i++) {
        const st_cluster_job_out *o = &r->job[i];
        lost += (o->preempted_s + o->failed_s) * (double)v->sj[i].gpus;
        if ((v->sp->part && v->sp->part[i])) { /* its GPU time only */
            r->job[i].part = 1;
            s->jobs--;
            if (o->state == ST_CJ_FINISHED && o->end_s > last)
                last = o->end_s;
            continue;
        }
        if (o->state == ST_CJ_TOO_BIG) {
            s->too_big++;
            continue;
        }
        if (o->state != ST_CJ_FINISHED) {
            s->unfinished++;
            continue;
        }
        s->finished++;
        double jc = o->end_s - v->sj[i].submit_s;
        st_samples_add(&wait, o->wait_s);
        st_samples_add(&jct, jc);
        sw += o->wait_s;
        sc += jc;
        last = o->end_s > last ? o->end_s : last;
    }
    s->makespan_s = s->unfinished ? end : last;
    gpu_shares(v, s, lost);
    wait_jct_stats(s, &wait, &jct, sw, sc);
    queued_stats(v, s);
    s->events = st_engine_fired(v->eng);
    st__cl_parts_stats(v);
    st_samples_release(&wait);
    st_samples_release(&jct);
}

/* The policy and placement the spec names, or a located error. */
static int find_policies(const st_cluster_spec *sp, const st_sched_policy **pol,
                         const st_place_policy **pl, st_err *err)
{
    const st_sched_cfg *cfg = sp->sched;
    st_loc at = cfg ? cfg->loc : (st_loc){0};
    const char *pn = sp->policy ? sp->policy : cfg && cfg->policy ? cfg->policy : "fifo";
    const char *qn = sp->placement           ? sp->placement
                     : cfg && cfg->placement ? cfg->placement
                                             : "pack";
    if (!(*pol = st_sched_policy_get(pn)))
        return st_err_set(err, ST_EINVAL, at, "unknown scheduler policy '%s'", pn);
    if (!(*pl = st_place_policy_find(qn)))
        return st_err_set(err, ST_EINVAL, at, "unknown placement policy '%s'", qn);
    return 0;
}

int st_cluster_run(const st_cluster_spec *sp, st_cluster_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    out->n = sp->n;
    out->job = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->job);
    const st_sched_policy *pol;
    const st_place_policy *pl;
    int rc = find_policies(sp, &pol, &pl, err);
    if (rc)
        return rc;
    out->policy = pol->name;
    out->placement = pl->name;
    st_sched_view v = {.sp = sp, .pol = pol, .out = out, .err = err};
    st_cluster_cfg flat;
    st_pool_init(&v.pool, st__cl_whole(sp->c, &flat));
    st_placer_init(&v.place, pl, st__cl_whole(sp->c, &flat));
    st__waitset_init(&v.waiting, v.pool.total);
    st_placer_seed(&v.place, sp->seed);
    st__cl_pools_init(&v, pl);
    setup_jobs(&v);
    st__cl_after_setup(&v);
    if (v.n_pools > 1) {
        rc = st__cl_parts_init(&v, err);
    } else {
        v.pst = st_xcalloc(1, pol->state_size ? pol->state_size : 1);
        st_sched_params prm = {sp->sched, v.pool.total, sp->n,
                               sp->seed,  sp->tenants,  sp->n_tenants};
        rc = pol->configure(v.pst, &prm, err);
    }
    if (!rc) {
        v.eng = st_engine_new();
        v.k_finish = st_engine_register(v.eng, "cluster.finish", on_finish, &v);
        v.k_arrive = st_engine_register(v.eng, "cluster.arrival", on_arrival, &v);
        v.k_decide = st_engine_register(v.eng, "cluster.decide", on_decide, &v);
        v.k_release = st_engine_register(v.eng, "cluster.release", on_release, &v);
        v.k_rate = st_engine_register(v.eng, "cluster.rate", on_rate, &v);
        v.k_wake = st_engine_register(v.eng, "cluster.wake", on_wake, &v);
        v.k_unhold = st_engine_register(v.eng, "cluster.unhold", on_unhold, &v);
        st__cl_start_outages(&v);
        if (v.n_order && !v.rc)
            st_engine_schedule_prio(v.eng, v.k_arrive, v.arrive[0], PRIO_ARRIVAL,
                                    &(st_payload){.u = {0}});
        st_engine_run(v.eng, sp->horizon_s > 0 ? ticks(sp->horizon_s) : ST_TIME_MAX);
        rc = v.rc;
        summarise(&v);
        st__cl_stop_outages(&v);
        st_engine_free(v.eng);
    }
    if (v.pst)
        pol->release(v.pst);
    free(v.pst);
    st__cl_parts_release(&v);
    st__cl_after_release(&v);
    st_placer_release(&v.place);
    st__cl_pools_release(&v);
    st__waitset_release(&v.waiting);
    st_pool_release(&v.pool);
    free(v.sj);
    free(v.js);
    free(v.running);
    free(v.order);
    free(v.arrive);
    free(v.pending);
    free(v.gpus);
    return rc;
}

void st_cluster_result_release(st_cluster_result *r)
{
    free(r->job);
    free(r->seg);
    free(r->seg_gpus);
    free(r->outage);
    free(r->pool);
    memset(r, 0, sizeof *r);
}
