/* The checkpoint cycle of a job's life between interruptions: marks, stalls, commits, the job
 * up again, and whole cycles counted at once when nothing else can happen.
 * docs/models/storage-and-failures.md. */
#include "models/reliability/lifetime_internal.h"

/* The next point where progress needs attention: the next checkpoint or the end of the work. */
void st__life_schedule_mark(life *L, st_time now)
{
    st_time next = L->work;
    if (L->every > 0) {
        st_time k = (L->progress / L->every + 1) * L->every; /* <= work + every < 2^63 */
        if (k < next)
            next = k;
    }
    L->ev_mark =
        st_engine_schedule_prio(L->eng, L->k_mark, now + (next - L->progress), PRIO_JOB, NULL);
}

static void finish(life *L, st_time now)
{
    L->end = now;
    L->phase = PH_DONE;
    st_engine_stop(L->eng);
}

static void start_ckpt(life *L, st_time now)
{
    L->inflight = L->progress;
    L->phase = PH_STALL;
    L->t_phase = now;
    L->ev_stall = st_engine_schedule_prio(L->eng, L->k_stall, now + L->stall, PRIO_JOB, NULL);
    if (L->commit > L->stall)
        L->ev_commit =
            st_engine_schedule_prio(L->eng, L->k_commit, now + L->commit, PRIO_COMMIT, NULL);
}

static void commit_ckpt(life *L)
{
    L->committed = L->inflight;
    L->inflight = -1;
    L->checkpoints++;
}

/* Close the current phase at now: progress or stall up to now is counted. */
void st__life_settle(life *L, st_time now)
{
    st_time dt = now - L->t_phase;
    if (L->phase == PH_COMPUTE)
        L->progress += dt;
    else if (L->phase == PH_DOWN)
        L->downtime += dt;
    else if (L->phase != PH_DONE && L->phase != PH_SKIPPED)
        L->stalled += dt;
    L->t_phase = now;
}

/* Between failures the job repeats one cycle: a checkpoint starts, stalls `stall`, training
 * runs `every` to the next mark, and waits there if the checkpoint has not committed yet; so
 * cycles start every P = max(stall + every, commit), each adding `every` of progress, P - every
 * of stall and one committed checkpoint. At a checkpoint's start with none in flight, when the
 * next pending event (a failure: the job's own are all done) is later than k + 1 whole cycles,
 * count k of them at once and put the mark k P later: the same result, to the nanosecond, as
 * firing their 3k events (the unit suite compares the two). The last two intervals of the work
 * always run event by event, so the end is handled in one place. Returns 1 when it jumped. */
static int skip_cycles(life *L, st_time now)
{
    if (!L->skip || L->inflight >= 0 || L->every <= 0)
        return 0;
    st_time period = L->stall + L->every > L->commit ? L->stall + L->every : L->commit;
    st_time next = st_engine_next_time(L->eng), room = next - now;
    if (period <= 0 || room / period < 2)
        return 0;
    st_time k = room / period - 1, left = (L->work - L->progress) / L->every;
    if (left - 2 < k)
        k = left - 2;
    if (k < 1)
        return 0;
    L->progress += k * L->every;
    L->stalled += k * (period - L->every);
    L->checkpoints += k;
    L->committed = L->progress - L->every;
    L->phase = PH_SKIPPED;
    L->t_phase = now;
    L->ev_mark = st_engine_schedule_prio(L->eng, L->k_mark, now + k * period, PRIO_JOB, NULL);
    return 1;
}

void st__life_on_mark(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    st__life_settle(L, ev->t);
    if (L->every > 0 && L->progress % L->every == 0) {
        if (L->inflight >= 0)
            L->phase = PH_WAIT_START; /* the previous checkpoint must commit first */
        else if (L->phase == PH_SKIPPED || !skip_cycles(L, ev->t))
            start_ckpt(L, ev->t);
    } else {
        finish(L, ev->t); /* the end of the work, no checkpoint due there */
    }
}

void st__life_on_stall_end(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    st__life_settle(L, ev->t);
    if (L->commit <= L->stall)
        commit_ckpt(L);
    if (L->progress == L->work) {
        if (L->inflight < 0)
            finish(L, ev->t);
        else
            L->phase = PH_WAIT_END;
        return;
    }
    L->phase = PH_COMPUTE;
    st__life_schedule_mark(L, ev->t);
}

void st__life_on_commit(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    commit_ckpt(L);
    if (L->phase == PH_WAIT_START) {
        st__life_settle(L, ev->t);
        start_ckpt(L, ev->t);
    } else if (L->phase == PH_WAIT_END) {
        st__life_settle(L, ev->t);
        finish(L, ev->t);
    }
}

void st__life_on_up(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    st__life_settle(L, ev->t);
    if (ev->t > L->up_plain) /* the wait for a spare, past the plain downtime */
        L->spare_wait += ev->t - L->up_plain;
    L->phase = PH_COMPUTE;
    st__life_schedule_mark(L, ev->t);
}
