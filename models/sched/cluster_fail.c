/* Component failures and repairs in the cluster run (cluster.h's outages; docs/models/scheduler.md,
 * "Failures and repairs"): each class a seeded Poisson process, a failed component's GPUs out of
 * the pool until repaired, the jobs on them rolled back to their last restorable checkpoint. */
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/sched/cluster_internal.h"
#include "sim/xalloc.h"

/* A job's GPUs leave it: each goes back to the pool unless a failed component covers it (it
 * returns at its repair). */
void st__cl_gpus_back(st_sched_view *v, const int64_t *gpus, int64_t n)
{
    for (int64_t k = 0; k < n; k++) {
        v->owner[gpus[k]] = 0;
        if (!v->outs.down[gpus[k]])
            st__cl_give(v, &gpus[k], 1);
    }
}

/* A failed job waits again: to the policy it is a job that ended and arrived anew (every
 * policy's bookkeeping takes that), same id and submit, at once, so that no policy still counts
 * it as running; while its GPUs are held for the detection, starting it does nothing, as for a
 * preempted job saving. */
static void requeue(st_sched_view *v, size_t id)
{
    st__cl_parts_finish(v, id);
    st__cl_parts_arrival(v, id);
}

void st__cl_unpay(st_sched_view *v, size_t id, st_time u)
{
    jstate *j = &v->js[id];
    st_cluster_job_out *o = &v->out->job[id];
    j->extra -= u;
    if (j->fail_paid) {
        o->failed_s -= secs(u);
    } else {
        o->preempted_s -= secs(u);
        v->out->st.preempted_s -= secs(u);
    }
}

/* Running job id loses the progress past its last restorable checkpoint (never before what a
 * previous checkpoint or preemption save kept), holds its GPUs until the failure is detected,
 * and owes its restart and restore. A job not running (saving, or already held) is untouched:
 * its work had stopped. */
static void interrupt(st_sched_view *v, size_t id)
{
    jstate *j = &v->js[id];
    if (j->state != J_RUNNING || j->duration < 0)
        return;
    const st_outage_spec *os = v->sp->outages;
    st_engine_cancel(v->eng, j->fin);
    st__cl_stop_work(v, id);
    st_time p = j->done - j->extra, back = j->kept; /* p < kept: it failed during its restore */
    if (v->sp->restorable && p > back) { /* the hook counts at its first placement's pace */
        st_time r = ticks(v->sp->restorable(v->sp->ctx, id, secs(p) / j->scale) * j->scale);
        back = r > back && r <= p ? r : back;
    }
    double lost = p > back ? secs(p - back) : 0, save = 0, restore = 0;
    st_cluster_job_out *o = &v->out->job[id];
    if (p < j->kept)
        st__cl_unpay(v, id, j->kept - p);
    j->done = j->extra + back;
    j->kept = back;
    if (v->sp->preempt_cost)
        v->sp->preempt_cost(v->sp->ctx, id, &save, &restore);
    j->owed_fail = cost_ticks(os->restart_s) + cost_ticks(restore);
    o->interruptions++;
    o->lost_work_s += lost;
    o->failed_s += lost + secs(cost_ticks(os->detect_s));
    v->out->st.interruptions++;
    v->out->st.lost_work_s += lost;
    st_time td = cost_ticks(os->detect_s);
    if (td > 0) { /* hung on its GPUs until the failure is noticed */
        j->state = J_SAVING;
        v->n_saving++;
        j->rel = 0; /* a down GPU does not come back at the release: only the others count */
        for (int64_t k = 0; k < v->sj[id].gpus; k++)
            j->rel += v->outs.down[v->gpus[j->gpu_off + (size_t)k]] == 0;
        st__cl_releasing(v, id, j->rel);
        st_payload pl = {.u = {id}};
        st_engine_schedule_prio(v->eng, v->k_release, st_engine_now(v->eng) + td, PRIO_FINISH, &pl);
    } else {
        st__cl_give_back(v, id);
        j->state = J_WAITING;
        st__cl_wait(v, id, 1);
    }
    requeue(v, id);
}

/* Class k's next failure, after an exponential gap. */
static void next_failure(st_sched_view *v, int k)
{
    double gap = st_outages_gap(&v->outs, k);
    /* A gap past the longest span the models hold (2^61 ns, models/config/limits.h) is past any
     * run: the class fails no more. Scheduling it would overflow the engine's clock. */
    if (!(gap < ST_LIM_SPAN_S))
        return;
    st_payload p = {.u = {(uint64_t)k}};
    st_engine_schedule_prio(v->eng, v->k_fail, st_engine_now(v->eng) + ticks(gap), PRIO_FINISH, &p);
}

/* The failure events' cap (ST_OUTAGE_MAX_FAILURES): one past it stops the run with ST_ERANGE,
 * located at the class's mtbf, rather than drawing failures until the horizon. */
static int too_many_failures(st_sched_view *v, const st_outage_class *oc)
{
    if (++v->n_draws <= v->max_draws)
        return 0;
    v->rc = st_err_set(v->err, ST_ERANGE, oc->loc,
                       "failures.%s: the cluster run drew %lld failures by %.4g days and its "
                       "jobs have not finished: more than the run draws; check the mtbf and "
                       "its unit (a failure every %.4g s across the class's %lld components)",
                       oc->component, (long long)v->max_draws, st_sched_now(v) / 86400,
                       oc->mtbf_s / (double)oc->count, (long long)oc->count);
    st__cl_stop(v);
    return 1;
}

/* Before the run: each class's expected failures, count / mtbf over the run's span (the
 * horizon; without one, the last submit, plus the jobs' estimated GPU-seconds spread over the
 * cluster's GPUs, plus the longest estimate: the run's length were the cluster kept busy),
 * refused past the cap: a rate such as a GPU MTBF of 1 ns would
 * otherwise be drawn failure by failure (the life model refuses a job's own rate likewise,
 * from its expected wall time, models/reliability/life_check.c,
 * st__life_check_finishes). */
static int check_rates(st_sched_view *v)
{
    const st_outage_spec *os = v->sp->outages;
    double span = v->sp->horizon_s, last = 0, gpu_s = 0, longest = 0;
    for (size_t k = 0; !(span > 0) && k < v->n_order; k++) {
        const st_sched_job *j = &v->sj[v->order[k]];
        double e = j->estimate_s > 0 ? j->estimate_s : 0;
        last = j->submit_s > last ? j->submit_s : last;
        gpu_s += e * (double)j->gpus;
        longest = e > longest ? e : longest;
    }
    if (!(span > 0)) /* the length of a schedule that keeps every GPU busy, then the longest job */
        span = last + (v->pool.total > 0 ? gpu_s / (double)v->pool.total : 0) + longest;
    for (int k = 0; k < os->n_classes; k++) {
        const st_outage_class *oc = &os->classes[k];
        double expect = (double)oc->count / oc->mtbf_s * span;
        if (expect > (double)v->max_draws)
            return v->rc = st_err_set(
                       v->err, ST_ERANGE, oc->loc,
                       "failures.%s: %lld components failing every %.4g s each give %.4g "
                       "failures expected over the run's %.4g days%s, more than the cluster "
                       "run draws (%lld); the jobs would never finish: check the mtbf and its unit",
                       oc->component, (long long)oc->count, oc->mtbf_s, expect, span / 86400,
                       v->sp->horizon_s > 0 ? " (its horizon)" : "", (long long)v->max_draws);
    }
    return 0;
}

/* A component of class u[0] fails: one that still has a GPU up (one wholly down already cannot
 * fail again: the draw is thinned). Its GPUs leave the pool or the jobs on them are interrupted;
 * its repair is scheduled. */
static void on_failure(st_engine *eng, void *st, const st_event *ev)
{
    st_sched_view *v = st;
    int k = (int)ev->data.u[0];
    const st_outage_class *oc = &v->sp->outages->classes[k];
    if (too_many_failures(v, oc))
        return;
    next_failure(v, k);
    int64_t comp = st_outages_pick(&v->outs, k), lo, n, up = 0;
    st_outage_range(oc, comp, v->pool.total, &lo, &n);
    for (int64_t g = lo; g < lo + n; g++)
        up += v->outs.down[g] == 0;
    if (!up)
        return;
    v->out->st.failures++;
    /* Every GPU down first, so that an interrupted job's release counts only those that come
     * back; one held by a job already saving or held will not come back at its release. */
    for (int64_t g = lo; g < lo + n; g++) {
        if (v->outs.down[g]++ > 0)
            continue;
        if (!v->owner[g])
            st__cl_take(v, &g, 1);
        else if (v->js[v->owner[g] - 1].state == J_SAVING) {
            v->js[v->owner[g] - 1].rel--;
            st__cl_releasing_gpu(v, (size_t)v->owner[g] - 1, g);
        }
    }
    for (int64_t g = lo; g < lo + n; g++)
        if (v->owner[g])
            interrupt(v, (size_t)v->owner[g] - 1);
    st_cluster_result *r = v->out;
    if (v->sp->keep_segments) {
        r->outage = st_xgrow(r->outage, sizeof *r->outage, r->n_outage + 1, &v->outage_cap);
        r->outage[r->n_outage++] = (st_cluster_outage){
            lo, n, st_sched_now(v), secs(st_engine_now(eng) + ticks(oc->repair_s)), k};
    }
    st_payload p = {.u = {(uint64_t)lo, (uint64_t)n}};
    st_engine_schedule_prio(eng, v->k_repair, st_engine_now(eng) + ticks(oc->repair_s), PRIO_FINISH,
                            &p);
    st__cl_dirty_gpus(v, lo, n);
    st__cl_want_decide(v);
}

/* A failed component is repaired: its GPUs that no other failure covers are free again. */
static void on_repair(st_engine *eng, void *st, const st_event *ev)
{
    (void)eng;
    st_sched_view *v = st;
    int64_t lo = (int64_t)ev->data.u[0], n = (int64_t)ev->data.u[1];
    for (int64_t g = lo; g < lo + n; g++)
        if (--v->outs.down[g] == 0 && !v->owner[g])
            st__cl_give(v, &g, 1);
    st__cl_dirty_gpus(v, lo, n);
    st__cl_want_decide(v);
}

/* The failure model's state and each class's first failure. */
void st__cl_start_outages(st_sched_view *v)
{
    const st_outage_spec *os = v->sp->outages;
    v->has_out = os && os->n_classes > 0;
    if (!v->has_out)
        return;
    v->out->st.outages = 1;
    st_outages_init(&v->outs, os, v->pool.total, v->sp->seed);
    v->owner = st_xcalloc(v->pool.total > 0 ? (size_t)v->pool.total : 1, sizeof *v->owner);
    v->n_left = v->n_order;
    v->max_draws = v->sp->max_failures > 0 ? v->sp->max_failures : ST_OUTAGE_MAX_FAILURES;
    if (check_rates(v))
        return;
    v->k_fail = st_engine_register(v->eng, "cluster.failure", on_failure, v);
    v->k_repair = st_engine_register(v->eng, "cluster.repair", on_repair, v);
    for (int k = 0; k < os->n_classes && v->n_left; k++)
        next_failure(v, k);
}

/* What the failure model holds (cluster_internal.h). */
void st__cl_stop_outages(st_sched_view *v)
{
    if (!v->has_out)
        return;
    st_outages_release(&v->outs);
    free(v->owner);
}
