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

void st_size_front_by(st_size_cfg *cfg, size_t n, int (*within)(st_size_cfg *, void *), void *ctx)
{
    front_pt *pt = st_xmalloc((n ? n : 1) * sizeof *pt);
    for (size_t i = 0; i < n; i++) {
        cfg[i].front = 0;
        pt[i] = (front_pt){cfg[i].train_s, cfg[i].objective, i};
    }
    qsort(pt, n, sizeof *pt, by_time);
    /* In time order a point is on the front when it costs less than every faster one within the
     * budgets; whether it is within is asked only of those that cost less, since the others
     * cannot be on it and do not move the least. */
    double least = INFINITY;
    for (size_t j = 0; j < n; j++)
        if (pt[j].obj < least && within(&cfg[pt[j].i], ctx)) {
            least = pt[j].obj;
            cfg[pt[j].i].front = 1;
        }
    free(pt);
}

static int within_budget(st_size_cfg *f, void *ctx)
{
    double power_w = *(const double *)ctx;
    return !(power_w > 0) || f->facility_w <= power_w;
}

void st_size_front(st_size_cfg *cfg, size_t n, double power_w)
{
    st_size_front_by(cfg, n, within_budget, &power_w);
}
