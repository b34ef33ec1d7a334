/* fifo's waiting queue (queue.h). */
#include "models/sched/queue.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

void st__queue_release(st__queue *q)
{
    free(q->id);
    memset(q, 0, sizeof *q);
}

void st__queue_push(st__queue *q, size_t id)
{
    q->id = st_xgrow(q->id, sizeof *q->id, q->n + 1, &q->cap);
    q->id[q->n++] = id;
}
