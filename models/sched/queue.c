/* The policies' waiting queue (queue.h). */
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

void st__queue_insert(st__queue *q, size_t id, int (*before)(const void *ctx, size_t a, size_t b),
                      const void *ctx)
{
    size_t lo = 0, hi = q->n; /* binary search: the first entry id goes before */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(ctx, id, q->id[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    q->id = st_xgrow(q->id, sizeof *q->id, q->n + 1, &q->cap);
    memmove(q->id + lo + 1, q->id + lo, (q->n - lo) * sizeof *q->id);
    q->id[lo] = id;
    q->n++;
}

void st__queue_compact(st__queue *q, unsigned char *drop)
{
    size_t k = 0;
    for (size_t i = 0; i < q->n; i++) {
        if (drop[q->id[i]]) {
            drop[q->id[i]] = 0;
            continue;
        }
        q->id[k++] = q->id[i];
    }
    q->n = k;
}
