/* Where a step's ranks are: the distinct GPU lists a step context has been placed on, each kept
 * once and named by its index, so a collective pattern's memo key says exactly which GPUs it
 * ran over (models/step/coll_memo.h) without holding the list itself. */
#include <stdlib.h>
#include <string.h>

#include "models/fabric/topo.h"
#include "models/step/step_internal.h"
#include "sim/xalloc.h"

static int is_packed(const int64_t *gpus, int64_t n)
{
    for (int64_t r = 0; r < n; r++)
        if (gpus[r] != r)
            return 0;
    return 1;
}

static uint64_t hash_of(const int64_t *gpus, int64_t n, const int64_t *bg, size_t n_bg)
{
    uint64_t h = st_topo_flow_key((uint64_t)n, (uint64_t)n_bg);
    for (int64_t r = 0; r < n; r++)
        h = st_topo_flow_key(h, (uint64_t)gpus[r]);
    for (size_t i = 0; i < 2 * n_bg; i++)
        h = st_topo_flow_key(h, (uint64_t)bg[i]);
    return h;
}

static int same(const st__step_map *m, uint64_t h, const int64_t *gpus, int64_t n,
                const int64_t *bg, size_t n_bg)
{
    return m->hash == h && m->n == n && m->n_bg == n_bg &&
           memcmp(m->gpus, gpus, (size_t)n * sizeof *gpus) == 0 &&
           (!n_bg || memcmp(m->bg, bg, 2 * n_bg * sizeof *bg) == 0);
}

/* Map i + 1 into the index at its hash's first empty slot. */
static void index_put(st_step_ctx *x, size_t i)
{
    size_t mask = x->n_at - 1, k = (size_t)x->maps[i].hash & mask;
    while (x->map_at[k])
        k = (k + 1) & mask;
    x->map_at[k] = i + 1;
}

/* Room for one more map in the index, kept at most half full: a job placed on each of
 * thousands of distinct GPU lists (a cluster run of many workloads) finds its list in O(1),
 * where a scan of the lists made every placement O(lists). */
static void index_grow(st_step_ctx *x)
{
    if (2 * (x->n_maps + 1) <= x->n_at)
        return;
    free(x->map_at);
    x->n_at = x->n_at ? 2 * x->n_at : 16;
    x->map_at = st_xcalloc(x->n_at, sizeof *x->map_at);
    for (size_t i = 0; i < x->n_maps; i++)
        index_put(x, i);
}

int st_step_ctx_place_beside(st_step_ctx *x, const int64_t *gpus, int64_t n, const int64_t *bg,
                             size_t n_bg)
{
    x->place = 0;
    if (!gpus || (!n_bg && is_packed(gpus, n)))
        return 0;
    uint64_t h = hash_of(gpus, n, bg, n_bg);
    for (size_t k = x->n_at ? (size_t)h & (x->n_at - 1) : 0; x->n_at && x->map_at[k];
         k = (k + 1) & (x->n_at - 1))
        if (same(&x->maps[x->map_at[k] - 1], h, gpus, n, bg, n_bg)) {
            x->place = (int64_t)x->map_at[k];
            return 1;
        }
    index_grow(x);
    x->maps = st_xgrow(x->maps, sizeof *x->maps, x->n_maps + 1, &x->cap_maps);
    st__step_map *m = &x->maps[x->n_maps++];
    *m = (st__step_map){.n = n, .n_bg = n_bg, .hash = h};
    m->gpus = st_xmalloc((size_t)n * sizeof *gpus);
    memcpy(m->gpus, gpus, (size_t)n * sizeof *gpus);
    if (n_bg) {
        m->bg = st_xmalloc(2 * n_bg * sizeof *bg);
        memcpy(m->bg, bg, 2 * n_bg * sizeof *bg);
    }
    index_put(x, x->n_maps - 1);
    x->place = (int64_t)x->n_maps;
    return 1;
}

int st_step_ctx_place(st_step_ctx *x, const int64_t *gpus, int64_t n)
{
    return st_step_ctx_place_beside(x, gpus, n, NULL, 0);
}
