/* A queue of waiting job ids for the policies: kept in the order the policy chooses, with
 * removal from anywhere (a started job), shared by every policy file. */
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

/* Insert id before the first entry e with before(ctx, id, e) true (stable: after its equals). */
void st__queue_insert(st__queue *q, size_t id, int (*before)(const void *ctx, size_t a, size_t b),
                      const void *ctx);

/* Remove the entries whose flag in drop (indexed by job id) is set, keeping the order, and
 * clear those flags. */
void st__queue_compact(st__queue *q, unsigned char *drop);

#endif
