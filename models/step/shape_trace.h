/* The step model's recordings of collective patterns' max-min solves by shape: a pattern's
 * memo key with its byte count left out (models/step/coll_memo.h). A pattern of a shape already
 * recorded follows that recording (models/fabric/mm_trace.h), so the plans of a search that
 * differ in micro-batch or tensor-parallel size, whose patterns differ in bytes alone, solve each
 * shape's max-min problems once. Internal to models/step/. */
#ifndef ST_MODELS_STEP_SHAPE_TRACE_H
#define ST_MODELS_STEP_SHAPE_TRACE_H

#include <stddef.h>

#include "models/fabric/collective.h"
#include "models/fabric/mm_trace.h"
#include "models/step/coll_memo.h"

/* The recordings kept are bounded: once they hold this many bytes together, a new shape's is
 * not kept and its patterns are solved in full, as without recordings. The sizing search of
 * Llama 3 405B on up to 20,000 GPUs of three types (tests/bench/bench_sweep), whose GPU counts
 * and variants share one table, keeps 53 MiB (st_mm_trace_bytes: the calls held). */
#define ST_SHAPE_TRACE_BUDGET ((size_t)256 << 20)

typedef struct st__shape_traces st__shape_traces;

/* An empty table. Never returns NULL. st__shape_traces_free(NULL) is a no-op; it frees the
 * recordings kept. */
st__shape_traces *st__shape_traces_new(void);
void st__shape_traces_free(st__shape_traces *s);

/* A shape keeps this many recordings at most: patterns of one shape whose byte counts change
 * their protocol, channels or order of ends make other calls, and each such kind is recorded
 * once (a follower tries every recording of its shape: a few). */
#define ST_SHAPE_TRACE_PER 8

/* The recordings of k's shape (k's bytes not read) into *t; returns how many (0: none). */
size_t st__shape_traces_find(const st__shape_traces *s, const st_coll_memo_key *k,
                             const st_mm_trace *const **t);

/* Keep recording t (owned by s from now) for k's shape, unless it is not whole, the shape has
 * ST_SHAPE_TRACE_PER already or t would pass ST_SHAPE_TRACE_BUDGET: then t is freed. */
void st__shape_traces_put(st__shape_traces *s, const st_coll_memo_key *k, st_mm_trace *t);

/* A shape's first instant (models/step/pattern_time.c): its groups' collectives prepared for any
 * byte count (st_coll_start_prepared), one for each run of alike groups, and what the solve of the
 * instant they all start in gave each of their transfers, in the order they start: its rate and
 * rate floor (st_net_last_read). Those depend on the transfers' links alone, so a pattern of the
 * shape with other bytes ends where st_net_last_done_of puts it, without a net. */
typedef struct st__instant {
    size_t n_runs, n_prep, n_x;
    size_t *run;          /* each group's collective: an index into prep, never decreasing */
    st_coll_prep **prep;  /* the distinct ones */
    double *rate, *floor; /* each transfer's, from the first solve */
    size_t run_cap, prep_cap;
} st__instant;

/* Free i and its arrays; NULL: no-op. */
void st__instant_free(st__instant *i);

/* The first instant kept for k's shape (k's bytes not read), or NULL. */
const st__instant *st__shape_instant_find(const st__shape_traces *s, const st_coll_memo_key *k);

/* Keep i (owned by s from now) for k's shape, unless the shape has one or the instants kept would
 * pass ST_SHAPE_INSTANT_BUDGET bytes together: then i is freed. */
void st__shape_instant_put(st__shape_traces *s, const st_coll_memo_key *k, st__instant *i);

/* The first instants kept are bounded like the recordings: the sizing search of Llama 3 405B on
 * three GPU types (tests/bench/bench_sweep) keeps 6 MiB of them. */
#define ST_SHAPE_INSTANT_BUDGET ((size_t)64 << 20)

/* Recordings kept, and their bytes. */
size_t st__shape_traces_count(const st__shape_traces *s);
size_t st__shape_traces_bytes(const st__shape_traces *s);

#endif
