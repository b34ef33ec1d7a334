/* The discrete-event engine: a clock, an event queue and a table of handlers. Like ROSS it knows
 * no model: models register a handler per event kind, schedule events carrying an inline payload,
 * and the engine fires them in (time, prio, seq) order. */
#ifndef ST_SIM_ENGINE_H
#define ST_SIM_ENGINE_H

#include <stdint.h>

#include "sim/evq.h"

typedef struct st_engine st_engine;

/* A handler fires one event. model_state is the pointer given at registration (borrowed; the
 * model owns it). ev and its payload are only valid during the call. A handler may schedule,
 * cancel and reschedule events and call st_engine_stop(); it must not call st_engine_run(). */
typedef void (*st_handler_fn)(st_engine *eng, void *model_state, const st_event *ev);

/* Why st_engine_run() returned. */
typedef enum st_run_end {
    ST_RUN_EMPTY,   /* no pending event left */
    ST_RUN_HORIZON, /* the next event is after the horizon; the clock now reads the horizon */
    ST_RUN_STOPPED  /* a handler called st_engine_stop() */
} st_run_end;

/* A new engine at time 0 with no handlers and no events. Never returns NULL. */
st_engine *st_engine_new(void);

/* Free eng and its pending events (payloads are plain data, so nothing else is released).
 * Model states are borrowed and left alone. st_engine_free(NULL) is a no-op. */
void st_engine_free(st_engine *eng);

/* Register a handler; returns its event kind, a small integer counting up from 0 in registration
 * order (so kinds are deterministic). name is borrowed (a string literal, typically) and only used
 * in messages. A NULL fn is an ST_BUG. */
int st_engine_register(st_engine *eng, const char *name, st_handler_fn fn, void *model_state);

/* Schedule an event of `kind` at absolute time `at` (>= now) with priority 0; data is copied
 * (NULL: all zero). Returns its handle. An unregistered kind or a time in the past is an ST_BUG:
 * both are programming errors in a model, and a silent clamp would corrupt causality. */
st_ev_handle st_engine_schedule(st_engine *eng, int kind, st_time at, const st_payload *data);

/* As st_engine_schedule(), at now + delay (delay >= 0). */
st_ev_handle st_engine_schedule_in(st_engine *eng, int kind, st_time delay, const st_payload *data);

/* As st_engine_schedule(), with a tie-break priority 0..ST_EV_PRIO_MAX: at equal times, lower
 * priorities fire first, whatever the order they were scheduled in. */
st_ev_handle st_engine_schedule_prio(st_engine *eng, int kind, st_time at, unsigned prio,
                                     const st_payload *data);

/* Cancel a pending event: 0, or ST_ENOTFOUND (no-op) when h already fired or was cancelled. */
int st_engine_cancel(st_engine *eng, st_ev_handle h);

/* Move a pending event to absolute time at (>= now, else ST_BUG), keeping its handle and payload;
 * it orders as if scheduled now. Returns 0, or ST_ENOTFOUND (no-op) when h is stale. */
int st_engine_reschedule(st_engine *eng, st_ev_handle h, st_time at);

/* The payload of a pending event, writable, or NULL when h is stale. Valid until the next
 * schedule. */
st_payload *st_engine_payload(st_engine *eng, st_ev_handle h);

/* 1 if h names a pending event, else 0. */
int st_engine_pending(const st_engine *eng, st_ev_handle h);

/* Fire events in order while the next one is at or before `horizon` (ST_TIME_MAX: no horizon).
 * Returns why it stopped (see st_run_end). Can be called again to continue: a stop request is
 * cleared on entry. Calling it from a handler is an ST_BUG. */
st_run_end st_engine_run(st_engine *eng, st_time horizon);

/* Ask st_engine_run() to return once the current handler is done. */
void st_engine_stop(st_engine *eng);

/* The clock: the time of the event being fired, or after a run, of the last event fired (or the
 * horizon, when the run ended there). */
st_time st_engine_now(const st_engine *eng);

/* Events fired since the engine was created. */
uint64_t st_engine_fired(const st_engine *eng);

/* The time of the earliest pending event, or ST_TIME_MAX when none is pending. Lets a model
 * that knows nothing else can happen before then jump over its own repetitive events. */
st_time st_engine_next_time(const st_engine *eng);

/* Number of pending events. */
size_t st_engine_size(const st_engine *eng);

/* The name given when `kind` was registered, or NULL for an unknown kind. */
const char *st_engine_kind_name(const st_engine *eng, int kind);

#endif
