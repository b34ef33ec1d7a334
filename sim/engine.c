/* The discrete-event engine: dispatches events from the queue to registered handlers and keeps
 * the clock. All model knowledge lives in the handlers. */
#include "sim/engine.h"

#include <stdlib.h>

#include "sim/xalloc.h"

typedef struct handler {
    st_handler_fn fn;
    void *state;
    const char *name;
} handler;

struct st_engine {
    st_evq *q;
    st_time now;
    uint64_t fired;
    handler *kinds;
    size_t nkinds, kinds_cap;
    int stop;
    int running; /* guards against re-entering st_engine_run() from a handler */
};

st_engine *st_engine_new(void)
{
    st_engine *eng = st_xcalloc(1, sizeof *eng);
    eng->q = st_evq_new(0);
    return eng;
}

void st_engine_free(st_engine *eng)
{
    if (!eng)
        return;
    st_evq_free(eng->q);
    free(eng->kinds);
    free(eng);
}

int st_engine_register(st_engine *eng, const char *name, st_handler_fn fn, void *model_state)
{
    if (!fn)
        ST_BUG("event kind '%s' registered without a handler", name ? name : "?");
    if (eng->nkinds >= INT32_MAX)
        ST_BUG("too many event kinds");
    eng->kinds = st_xgrow(eng->kinds, sizeof *eng->kinds, eng->nkinds + 1, &eng->kinds_cap);
    eng->kinds[eng->nkinds] = (handler){fn, model_state, name};
    return (int)eng->nkinds++;
}

st_ev_handle st_engine_schedule_prio(st_engine *eng, int kind, st_time at, unsigned prio,
                                     const st_payload *data)
{
    if (kind < 0 || (size_t)kind >= eng->nkinds)
        ST_BUG("schedule of unregistered event kind %d", kind);
    if (at < eng->now)
        ST_BUG("event '%s' scheduled in the past (at %lld ns, now %lld ns)",
               eng->kinds[kind].name ? eng->kinds[kind].name : "?", (long long)at,
               (long long)eng->now);
    return st_evq_push(eng->q, at, prio, (uint32_t)kind, data);
}

st_ev_handle st_engine_schedule(st_engine *eng, int kind, st_time at, const st_payload *data)
{
    return st_engine_schedule_prio(eng, kind, at, 0, data);
}

st_ev_handle st_engine_schedule_in(st_engine *eng, int kind, st_time delay, const st_payload *data)
{
    if (delay < 0 || delay > ST_TIME_MAX - eng->now)
        ST_BUG("event delay %lld ns out of range at %lld ns", (long long)delay,
               (long long)eng->now);
    return st_engine_schedule_prio(eng, kind, eng->now + delay, 0, data);
}

int st_engine_cancel(st_engine *eng, st_ev_handle h)
{
    return st_evq_cancel(eng->q, h);
}

int st_engine_reschedule(st_engine *eng, st_ev_handle h, st_time at)
{
    if (at < eng->now)
        ST_BUG("event rescheduled into the past (at %lld ns, now %lld ns)", (long long)at,
               (long long)eng->now);
    return st_evq_reschedule(eng->q, h, at);
}

st_payload *st_engine_payload(st_engine *eng, st_ev_handle h)
{
    return st_evq_payload(eng->q, h);
}

int st_engine_pending(const st_engine *eng, st_ev_handle h)
{
    return st_evq_pending(eng->q, h);
}

/* pop_until leaves an event past the horizon queued for the next run. */
st_run_end st_engine_run(st_engine *eng, st_time horizon)
{
    if (eng->running)
        ST_BUG("st_engine_run() called from a handler");
    eng->running = 1;
    eng->stop = 0;
    st_event ev;
    while (!eng->stop && st_evq_pop_until(eng->q, horizon, &ev)) {
        eng->now = ev.t;
        const handler *hd = &eng->kinds[ev.kind];
        hd->fn(eng, hd->state, &ev);
        eng->fired++;
    }
    eng->running = 0;
    if (eng->stop)
        return ST_RUN_STOPPED;
    if (st_evq_size(eng->q) == 0)
        return ST_RUN_EMPTY;
    if (horizon > eng->now)
        eng->now = horizon;
    return ST_RUN_HORIZON;
}

void st_engine_stop(st_engine *eng)
{
    eng->stop = 1;
}

st_time st_engine_now(const st_engine *eng)
{
    return eng->now;
}

uint64_t st_engine_fired(const st_engine *eng)
{
    return eng->fired;
}

st_time st_engine_next_time(const st_engine *eng)
{
    st_ev_key k;
    return st_evq_peek(eng->q, &k) ? k.t : ST_TIME_MAX;
}

size_t st_engine_size(const st_engine *eng)
{
    return st_evq_size(eng->q);
}

const char *st_engine_kind_name(const st_engine *eng, int kind)
{
    if (kind < 0 || (size_t)kind >= eng->nkinds)
        return NULL;
    return eng->kinds[kind].name;
}
