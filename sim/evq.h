/* Event queue: a pending-event set ordered by (time, prio, seq), with stable handles so an event
 * can be cancelled or moved in O(log n). An implicit 4-ary heap of inline keys over an event pool
 * owned by the queue; the engine (sim/engine.h) is its only intended user besides tests. */
#ifndef ST_SIM_EVQ_H
#define ST_SIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

/* Simulated time: integer nanoseconds since the start of the run (2^63 ns is 292 years). Integer
 * ticks keep event order exact and reports byte-identical across machines and compilers. */
typedef int64_t st_time;
#define ST_TIME_MAX INT64_MAX
#define ST_NS       ((st_time)1)
#define ST_US       ((st_time)1000)
#define ST_MS       ((st_time)1000000)
#define ST_SEC      ((st_time)1000000000)

/* An event's key. Events fire in increasing (t, prio, seq): prio breaks ties between events at
 * the same time (lower first, e.g. "repairs before arrivals"), seq is taken from an insertion
 * counter when the event is scheduled or rescheduled, so equal (t, prio) fire in schedule order.
 * seq only orders events that are pending together: the queue renumbers pending events by rank
 * when its counter runs out, which keeps every comparison (and so the firing order) unchanged. */
typedef struct st_ev_key {
    st_time t;
    unsigned prio;
    uint64_t seq;
} st_ev_key;
#define ST_EV_PRIO_MAX 255

/* The inline payload an event carries: plain data only, copied in when scheduled and handed to
 * the handler by const pointer. 32 bytes hold a model object pointer plus a few ids or numbers. */
typedef union st_payload {
    uint64_t u[4];
    int64_t i[4];
    double d[4];
    void *p[4];
    unsigned char bytes[32];
} st_payload;

/* A stable name for a pending event: a pool slot and that slot's generation. The generation
 * changes when the event fires or is cancelled, so a handle kept after that is detected as stale
 * instead of naming whatever event reuses the slot (generations are 32-bit: only a handle kept
 * across 2^32 reuses of its slot could alias). The all-zero handle, ST_EV_NONE, never names an
 * event and is a convenient "no event" value in model state. */
typedef struct st_ev_handle {
    uint32_t slot;
    uint32_t gen;
} st_ev_handle;
#define ST_EV_NONE ((st_ev_handle){0, 0})

/* A fired event, as pop returns it and handlers see it. Its handle is already stale. */
typedef struct st_event {
    st_time t;
    uint32_t kind;
    uint8_t prio;
    st_ev_handle handle;
    st_payload data;
} st_event;

typedef struct st_evq st_evq;

/* The most events one queue holds at once (2^28 - 1, some 10 GiB of pool); more is an ST_BUG. */
#define ST_EVQ_MAX_PENDING ((1u << 28) - 1)

/* A new, empty queue with room for `hint` pending events before it grows (0 is fine). Never
 * returns NULL (allocation failure aborts). */
st_evq *st_evq_new(size_t hint);

/* Free q and every pending event. st_evq_free(NULL) is a no-op. */
void st_evq_free(st_evq *q);

/* Schedule an event at time t with priority prio (0..ST_EV_PRIO_MAX, else ST_BUG) and an opaque
 * kind; data is copied (NULL means all zero). Returns its handle. The queue itself accepts any t;
 * refusing the past is the engine's job. At most ST_EVQ_MAX_PENDING events can be pending. */
st_ev_handle st_evq_push(st_evq *q, st_time t, unsigned prio, uint32_t kind,
                         const st_payload *data);

/* Remove the earliest pending event into *out. Returns 1, or 0 (out untouched) when empty. */
int st_evq_pop(st_evq *q, st_event *out);

/* As st_evq_pop(), but only an event at or before horizon: returns 0 (out untouched) when the
 * queue is empty or its earliest event is later. One call per event for the engine's loop. */
int st_evq_pop_until(st_evq *q, st_time horizon, st_event *out);

/* The key of the earliest pending event into *out. Returns 1, or 0 when the queue is empty. */
int st_evq_peek(const st_evq *q, st_ev_key *out);

/* Cancel a pending event. Returns 0, or ST_ENOTFOUND (a no-op) when h has fired, was cancelled
 * or is ST_EV_NONE: models cancel "their" completion event without tracking whether it already
 * fired. A handle whose slot this queue never issued is corrupt: ST_BUG. */
int st_evq_cancel(st_evq *q, st_ev_handle h);

/* Move a pending event to time t, keeping its handle, kind, prio and payload. It takes a fresh
 * seq, so it orders as if scheduled now among events at the same (t, prio). Returns 0, or
 * ST_ENOTFOUND when h is stale (nothing changes), with the same ST_BUG rule as cancel. */
int st_evq_reschedule(st_evq *q, st_ev_handle h, st_time t);

/* 1 if h names a pending event, else 0 (stale, ST_EV_NONE or never issued). */
int st_evq_pending(const st_evq *q, st_ev_handle h);

/* The key of a pending event into *out. Returns 0, or ST_ENOTFOUND when h is not pending. */
int st_evq_key(const st_evq *q, st_ev_handle h, st_ev_key *out);

/* The payload of a pending event, writable so a model can update it in place (for instance
 * together with a reschedule), or NULL when h is not pending. Valid until the next call that
 * schedules into q (the pool may move). */
st_payload *st_evq_payload(st_evq *q, st_ev_handle h);

/* Number of pending events. */
size_t st_evq_size(const st_evq *q);

/* Number of schedules and reschedules so far. */
uint64_t st_evq_seq(const st_evq *q);

/* Internal, for tests: verify the heap order, the heap <-> pool back-pointers and the free list.
 * Returns 0 when consistent, else a negative number naming the first broken invariant. O(n). */
int st__evq_check(const st_evq *q);

/* Internal, for tests: renumber once the insertion counter reaches limit (default and maximum
 * 2^28) instead, so tests reach the renumbering path quickly. limit must exceed the number of
 * events that will ever be pending at once. */
void st__evq_set_seq_limit(st_evq *q, uint64_t limit);

#endif
