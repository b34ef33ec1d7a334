/* A max-min solver (models/fabric/maxmin.h) that can record its calls and their answers, or
 * follow such a recording instead of solving. The solver is a deterministic function of the
 * sequence of calls made to it, so while a run makes the same calls as the recorded one (the
 * same links and weights added in the same order, the same removals, solves at the same
 * points) the recorded answers are its answers, bit for bit. On the first call that differs,
 * the follower builds the real solver by replaying the recorded calls up to there and goes on
 * solving. A step model's collective pattern makes the same calls whatever its byte count as
 * long as its transfers end in the same order and instants (models/step/pattern_time.c), so a
 * pattern of one shape is solved once and followed after that: docs/models/flow-model.md,
 * "Recorded solves". */
#ifndef ST_MODELS_FABRIC_MM_TRACE_H
#define ST_MODELS_FABRIC_MM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/maxmin.h"

/* The calls one solver received and what it answered. */
typedef struct st_mm_trace st_mm_trace;

/* An empty recording. Never returns NULL. st_mm_trace_free(NULL) is a no-op. */
st_mm_trace *st_mm_trace_new(void);
void st_mm_trace_free(st_mm_trace *t);

/* Empty t, keeping its allocations: a caller recording run after run into one scratch
 * recording grows its arrays once, not on every run (st_mm_trace_copy keeps a run's calls). */
void st_mm_trace_clear(st_mm_trace *t);

/* A copy of t's calls in arrays of their exact sizes. Never returns NULL. */
st_mm_trace *st_mm_trace_copy(const st_mm_trace *t);

/* t's calls moved out in arrays cut to their exact sizes (st_mm_trace_copy's, without the copy:
 * a pattern's recording holds 10^5 links), and t left empty with new arrays of the room it had,
 * so that the next recording into it does not grow them again. Never returns NULL. */
st_mm_trace *st_mm_trace_take(st_mm_trace *t);

/* The bytes t's calls take (as st_mm_trace_copy holds them, whatever room t has to spare), for
 * a caller keeping its memory of recordings bounded. */
size_t st_mm_trace_bytes(const st_mm_trace *t);

/* Calls recorded. */
size_t st_mm_trace_calls(const st_mm_trace *t);

/* Whether t holds every call of its run: a recording stops (and is of no use to follow) once its
 * calls outgrow ST_MM_TRACE_CAP bytes (st_mm_trace_bytes), so that a run of millions of transfers
 * costs no more memory than its solver does. */
#define ST_MM_TRACE_CAP ((size_t)64 << 20)
int st_mm_trace_whole(const st_mm_trace *t);

/* A solver over n_links links with the given capacities (borrowed: they must stay valid and
 * unchanged while it lives; finite and > 0). With rec (empty, borrowed), every call and answer
 * is appended to it, whoever answered. With follow[0..n_follow) (borrowed recordings), a call
 * is answered from a recording that matched every call so far and this one; once none does, by
 * the real solver, which is only built then. With pool (borrowed; NULL: none), the real solver
 * is the one *pool holds if any (taken, *pool set to NULL), made on the same links and
 * capacities, and on st_mmx_free it is reset (st_maxmin_reset) into an empty *pool instead of
 * freed. Never returns NULL. */
typedef struct st_mmx st_mmx;
st_mmx *st_mmx_new(int32_t n_links, const double *capacity, st_mm_trace *rec,
                   const st_mm_trace *const *follow, size_t n_follow, st_maxmin **pool);
void st_mmx_free(st_mmx *x);

/* Name x's links in the recordings it makes and follows by segment: first[0..n) (ascending,
 * first[0] = 0, n <= 8) start the segments, and a link is its segment and its offset into it.
 * Solvers whose links differ by a shift per segment, with the same capacities (a fabric's
 * levels on two GPU counts whose routes between the GPUs of a pattern agree: st_topo_sig_of),
 * then make the same recorded calls for the same pattern, and as the solver's answers depend on
 * its links' capacities and order alone, one follows the other's recording. Before any call;
 * without it, one segment: link ids as they are. */
void st_mmx_segments(st_mmx *x, const int32_t *first, int n);

/* As st_maxmin_add_link, st_maxmin_set_capacity, st_maxmin_add (weights NULL: all 1) and
 * st_maxmin_remove. */
int32_t st_mmx_add_link(st_mmx *x, double capacity);
void st_mmx_set_capacity(st_mmx *x, int32_t link, double capacity);
int64_t st_mmx_add(st_mmx *x, const int32_t *links, const double *weights, int n);
void st_mmx_remove(st_mmx *x, int64_t id);

/* As st_maxmin_solve, with the changed entities' new rates into *rates (same order). Both
 * arrays are valid until the next call on x. */
size_t st_mmx_solve(st_mmx *x, const int64_t **changed, const double **rates);

/* The real solver, built now if it was not (replaying what was followed so far), for the
 * queries st_mmx does not answer (an entity's links; loads only on a solver that neither
 * records nor follows: one that does keeps none, st_maxmin_drop_loads). Never NULL. */
st_maxmin *st_mmx_solver(st_mmx *x);

/* The real solver if it is built, else NULL. */
const st_maxmin *st_mmx_built(const st_mmx *x);

/* Whether the solver answers now (no recording followed, or none matched a call). */
int st_mmx_diverged(const st_mmx *x);

#endif
