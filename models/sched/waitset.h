/* The GPU counts of the jobs waiting in a cluster run, as a multiset with its least member, so
 * that the run can tell at every decision whether the free GPUs are too few for every waiting
 * job (its fragmentation figure, cluster.h). Internal to models/sched. */
#ifndef ST_MODELS_SCHED_WAITSET_H
#define ST_MODELS_SCHED_WAITSET_H

#include <stdint.h>

typedef struct st__waitset {
    int64_t *count; /* count[g]: waiting jobs of g GPUs, 1 <= g <= max */
    uint64_t *bits; /* bit g: count[g] > 0 */
    int64_t max;
} st__waitset;

/* An empty set of counts 1 .. max. */
void st__waitset_init(st__waitset *w, int64_t max);
void st__waitset_release(st__waitset *w);
/* A job of g GPUs (1 <= g <= max) starts or stops waiting. */
void st__waitset_add(st__waitset *w, int64_t g);
void st__waitset_remove(st__waitset *w, int64_t g);
/* The fewest GPUs a waiting job asks for; 0 when none waits. */
int64_t st__waitset_min(const st__waitset *w);

#endif
