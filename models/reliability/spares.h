/* A job's spare nodes (failures.spares): the nodes a failure takes out wait for their repair,
 * and the job restarts only once every node it lost is replaced by a spare on hand. The nodes
 * out are a min-heap of their repair ends. docs/models/storage-and-failures.md, "Spare nodes". */
#ifndef ST_MODELS_RELIABILITY_SPARES_H
#define ST_MODELS_RELIABILITY_SPARES_H

#include <stddef.h>
#include <stdint.h>

#include "sim/evq.h"

typedef struct st_spares {
    st_time *back; /* the nodes out: when each is repaired, a min-heap */
    size_t n, cap;
    int64_t on_hand; /* spare nodes the job keeps; < 0: as many as it needs */
} st_spares;

/* k nodes go out until back (each a repair of the same length). */
void st_spares_take(st_spares *s, st_time back, int64_t k);

/* At `now`, for a job that could be up at `when` (>= now): the earliest time from `when` at
 * which no more of its nodes are out than it has spares. A node repaired by `now` is a spare
 * again and leaves the heap; the others stay, to be counted again by a failure before they are
 * back. `when` itself with spares enough. */
st_time st_spares_ready(st_spares *s, st_time now, st_time when);

void st_spares_release(st_spares *s);

#endif
