/* A queue of waiting job ids in arrival order, for fifo (the other policies keep theirs in ordered
 * sets, rankset.h, which find a job that fits without a scan). */
#ifndef ST_MODELS_SCHED_QUEUE_H
#define ST_MODELS_SCHED_QUEUE_H

#include <stddef.h>

typedef struct st__queue {
    size_t *id;
    size_t n, cap;
} st__queue;

/* Free the ids; the queue is empty afterwards. */
void st__queue_release(st__queue *q);

/* Append id at the back. */
void st__queue_push(st__queue *q, size_t id);

#endif
