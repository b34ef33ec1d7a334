/* The sizing search's Pareto front of time to train against its objective (planner/size.h). */
#include <math.h>
#include <stdlib.h>

#include "planner/size.h"
#include "sim/xalloc.h"

/* A configuration's point and its rank, sorted on their own (no state outside the call). */
typedef struct front_pt {
    double t, obj;
    size_t i;
} front_pt;

/* By time to train, then objective, then rank: the sweep below keeps the first of equals. */
static int by_time(const void *pa, const void *pb)
{
    const front_pt *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->obj != b->obj)
        return a->obj < b->obj ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

void st_size_front(st_size_cfg *cfg, size_t n, double power_w)
{
    front_pt *pt = st_xmalloc((n ? n : 1) * sizeof *pt);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        cfg[i].front = 0;
        if (!(power_w > 0) || cfg[i].facility_w <= power_w)
            pt[m++] = (front_pt){cfg[i].train_s, cfg[i].objective, i};
    }
    qsort(pt, m, sizeof *pt, by_time);
    /* In time order a point is on the front when it costs less than every faster one. */
    double least = INFINITY;
    for (size_t j = 0; j < m; j++)
        if (pt[j].obj < least) {
            least = pt[j].obj;
            cfg[pt[j].i].front = 1;
        }
    free(pt);
}
