/* The waiting jobs' GPU counts (waitset.h): a count per size and a bit per non-empty size, so
 * the least is a scan of 64-bit words (1,563 of them for 100,000 GPUs, and the first usually
 * holds it). */
#include "models/sched/waitset.h"

#include <stdlib.h>

#include "sim/xalloc.h"

void st__waitset_init(st__waitset *w, int64_t max)
{
    w->max = max > 0 ? max : 0;
    w->count = st_xcalloc((size_t)w->max + 1, sizeof *w->count);
    w->bits = st_xcalloc((size_t)w->max / 64 + 1, sizeof *w->bits);
}

void st__waitset_release(st__waitset *w)
{
    free(w->count);
    free(w->bits);
}

void st__waitset_add(st__waitset *w, int64_t g)
{
    if (g < 1 || g > w->max)
        ST_BUG("waiting job of %lld GPUs", (long long)g);
    if (w->count[g]++ == 0)
        w->bits[g / 64] |= (uint64_t)1 << (g % 64);
}

void st__waitset_remove(st__waitset *w, int64_t g)
{
    if (g < 1 || g > w->max || w->count[g] == 0)
        ST_BUG("no waiting job of %lld GPUs", (long long)g);
    if (--w->count[g] == 0)
        w->bits[g / 64] &= ~((uint64_t)1 << (g % 64));
}

int64_t st__waitset_min(const st__waitset *w)
{
    for (int64_t k = 0; k <= w->max / 64; k++)
        if (w->bits[k])
            return k * 64 + __builtin_ctzll(w->bits[k]);
    return 0;
}
