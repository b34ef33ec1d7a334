/* Where a step's ranks are: the distinct GPU lists a step context has been placed on, each kept
 * once and named by its index, so a collective pattern's memo key says exactly which GPUs it
 * ran over (models/step/coll_memo.h) without holding the list itself. */
#include <stdlib.h>
#include <string.h>

#include "models/step/step_internal.h"
#include "sim/xalloc.h"

static int is_packed(const int64_t *gpus, int64_t n)
{
    for (int64_t r = 0; r < n; r++)
        if (gpus[r] != r)
            return 0;
    return 1;
}

static int same(const st__step_map *m, const int64_t *gpus, int64_t n, const int64_t *bg,
                size_t n_bg)
{
    return m->n == n && m->n_bg == n_bg && memcmp(m->gpus, gpus, (size_t)n * sizeof *gpus) == 0 &&
           (!n_bg || memcmp(m->bg, bg, 2 * n_bg * sizeof *bg) == 0);
}

int st_step_ctx_place_beside(st_step_ctx *x, const int64_t *gpus, int64_t n, const int64_t *bg,
                             size_t n_bg)
{
    x->place = 0;
    if (!gpus || (!n_bg && is_packed(gpus, n)))
        return 0;
    for (size_t i = 0; i < x->n_maps; i++)
        if (same(&x->maps[i], gpus, n, bg, n_bg)) {
            x->place = (int64_t)i + 1;
            return 1;
        }
    x->maps = st_xgrow(x->maps, sizeof *x->maps, x->n_maps + 1, &x->cap_maps);
    st__step_map *m = &x->maps[x->n_maps++];
    *m = (st__step_map){.n = n, .n_bg = n_bg};
    m->gpus = st_xmalloc((size_t)n * sizeof *gpus);
    memcpy(m->gpus, gpus, (size_t)n * sizeof *gpus);
    if (n_bg) {
        m->bg = st_xmalloc(2 * n_bg * sizeof *bg);
        memcpy(m->bg, bg, 2 * n_bg * sizeof *bg);
    }
    x->place = (int64_t)x->n_maps;
    return 1;
}

int st_step_ctx_place(st_step_ctx *x, const int64_t *gpus, int64_t n)
{
    return st_step_ctx_place_beside(x, gpus, n, NULL, 0);
}
