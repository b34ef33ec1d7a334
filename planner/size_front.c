/* The sizing search's Pareto front of time to train against its objective (planner/size.h). */
#include <math.h>
#include <stdlib.h>

#include "planner/size.h"
#include "sim/xalloc.h"

static const st_size_cfg *front_base;

/* By time to train, then objective, then rank: the sweep below keeps the first of equals. */
static int by_time(const void *pa, const void *pb)
{
    const st_size_cfg *a = &front_base[*(const size_t *)pa], *b = &front_base[*(const size_t *)pb];
    if (a->train_s != b->train_s)
        return a->train_s < b->train_s ? -1 : 1;
    if (a->objective != b->objective)
        return a->objective < b->objective ? -1 : 1;
    size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
    return x < y ? -1 : x > y;
}

void st_size_front(st_size_cfg *cfg, size_t n, double power_w)
{
    size_t *ix = st_xmalloc((n ? n : 1) * sizeof *ix), m = 0;
    for (size_t i = 0; i < n; i++) {
        cfg[i].front = 0;
        if (!(power_w > 0) || cfg[i].facility_w <= power_w)
            ix[m++] = i;
    }
    front_base = cfg;
    qsort(ix, m, sizeof *ix, by_time);
    /* In time order a point is on the front when it costs less than every faster one. */
    double least = INFINITY;
    for (size_t j = 0; j < m; j++)
        if (cfg[ix[j]].objective < least) {
            least = cfg[ix[j]].objective;
            cfg[ix[j]].front = 1;
        }
    free(ix);
}
