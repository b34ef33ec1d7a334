/* What interrupts a job's life: a failure (merged or a renewal component's), which loses the
 * work since the newest surviving copy and takes it down, waiting for spares; and an announced
 * stop, at which it saves. docs/models/storage-and-failures.md. */
#include "models/config/limits.h"
#include "models/reliability/lifetime_internal.h"

/* One more interruption; past the most a life simulates (ST_LIM_LIFE_INTERRUPTIONS) the run stops
 * unfinished. */
static void count_interruption(life *L)
{
    if (++L->interruptions > ST_LIM_LIFE_INTERRUPTIONS)
        st_engine_stop(L->eng);
}

/* Whether a failure whose class loses the in-memory copy with probability p loses it: always
 * without an in-memory level (every restore is from the persistent checkpoint). */
static int loses_memory(life *L, double p)
{
    if (L->mem <= 0 || p >= 1)
        return 1;
    return p > 0 && st_rng_uniform(L->mem_rng) < p;
}

/* A failure hits the job: work since the newest copy that survived it (the last restorable
 * checkpoint, or the newest in-memory snapshot when the failure keeps it) is lost, a checkpoint
 * being written is abandoned, and the downtime starts, or starts over when one was under way.
 * A failure in a downtime that loses the in-memory copy being restored rolls back to the
 * persistent checkpoint. */
static void interrupt(life *L, st_time now, int lose, const wclass *c)
{
    count_interruption(L);
    st__life_settle(L, now);
    if (L->phase == PH_DOWN && now > L->up_plain) /* it came while the job waited for a spare */
        L->spare_wait += now - L->up_plain;
    st_time back = L->committed;
    if (!lose && L->mem > 0 && L->progress / L->mem * L->mem > back)
        back = L->progress / L->mem * L->mem;
    if (L->phase != PH_DOWN) {
        L->inflight = -1;
        st_engine_cancel(L->eng, L->ev_mark);
        st_engine_cancel(L->eng, L->ev_stall);
        st_engine_cancel(L->eng, L->ev_commit);
        L->phase = PH_DOWN;
        L->mem_ok = 1;
    }
    if (L->progress > back) {
        L->lost += L->progress - back;
        L->progress = back;
    }
    L->mem_ok = L->mem_ok && !lose;
    st_time down = L->mem_ok ? L->down_mem : L->down, up = now + down;
    L->up_plain = up;
    if (L->has_spares) { /* its nodes go out; the job comes up on spares, or waits */
        if (c)
            st_spares_take(&L->spares, now + c->repair, c->take);
        up = st_spares_ready(&L->spares, now, up);
    }
    if (st_engine_reschedule(L->eng, L->ev_up, up) != 0)
        L->ev_up = st_engine_schedule_prio(L->eng, L->k_up, up, PRIO_JOB, NULL);
}

/* Which merged exponential class a failure is: class c with probability rate_c / rate. */
static const wclass *merged_class(life *L)
{
    if (!L->has_spares || L->n_exp == 0)
        return NULL;
    double total = 0, u;
    for (int i = 0; i < L->n_exp; i++)
        total += L->exp_rate[i];
    u = st_rng_uniform(L->spare_rng) * total;
    for (int i = 0; i < L->n_exp - 1; i++)
        if ((u -= L->exp_rate[i]) < 0)
            return &L->exp_cls[i];
    return &L->exp_cls[L->n_exp - 1];
}

void st__life_on_fail(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    interrupt(L, ev->t, loses_memory(L, L->gap_loss), merged_class(L));
    st__life_schedule_after(L, L->k_fail, st_rng_exponential(L->rng, L->gap_s), NULL);
}

/* A component of a renewal class failed: it is replaced by a new one, whose lifetime starts
 * now. */
void st__life_on_comp_fail(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    wclass *c = &L->wc[ev->data.u[0]];
    interrupt(L, ev->t, loses_memory(L, c->loss), c);
    st__life_schedule_after(L, L->k_comp, st_rng_weibull(c->rng, c->scale, c->shape), &ev->data);
}

/* Whether the job can save at an announced stop: it checkpoints at all (a cadence, in-memory
 * snapshots, or a checkpoint whose write stalls or commits), even where its cadence is none
 * (`every: auto` without failure classes): its tier takes the save. */
int st__life_saves_at_stop(const life *L)
{
    return L->every > 0 || L->mem > 0 || L->stall > 0 || L->commit > 0;
}

/* An announced stop at t, down for `down`: the job saves where it is, to the persistent tier, and
 * is down for the save's commit, the restart and the restore (and what the stop's kind adds);
 * the time between the stop and the job running again is downtime. */
static void announced_stop(life *L, st_time t, st_time down)
{
    st__life_settle(L, t);
    count_interruption(L);
    L->inflight = -1;
    st_engine_cancel(L->eng, L->ev_mark);
    st_engine_cancel(L->eng, L->ev_stall);
    st_engine_cancel(L->eng, L->ev_commit);
    if (st__life_saves_at_stop(L)) { /* the save at the stop */
        L->committed = L->progress;
        L->checkpoints++;
    } else if (L->progress > L->committed) { /* no checkpoints: nothing to save to */
        L->lost += L->progress - L->committed;
        L->progress = L->committed;
    }
    L->phase = PH_DOWN;
    L->mem_ok = 0; /* the hosts rebooted: a failure in this downtime restores the save */
    L->up_plain = t + down;
    if (st_engine_reschedule(L->eng, L->ev_up, t + down) != 0)
        L->ev_up = st_engine_schedule_prio(L->eng, L->k_up, t + down, PRIO_JOB, NULL);
}

/* A stop of stream ev->data.u[0]: a planned interruption (lifetime.h, planned_every_s), or a
 * fail-slow node's exclusion (slow_every_s), whose slow stretch its longer downtime holds.
 * Nothing to stop while the job is down or only waits for its final save to commit. */
void st__life_on_stop(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    stop_stream *q = &L->stops[ev->data.u[0]];
    st__life_schedule_after(L, q->kind, st_rng_exponential(q->rng, q->gap_s), &ev->data);
    if (L->phase == PH_DOWN || L->phase == PH_WAIT_END)
        return;
    q->count++;
    announced_stop(L, ev->t, q->down);
}
