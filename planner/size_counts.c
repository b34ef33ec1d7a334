/* The cluster sizes of the sizing search: candidates in whole scalable units, tried by doubling
 * then bisection, so that the search answers "how many do I need" at any size in a number of
 * probes that grows with the logarithm of the range (docs/guide/sizing.md, "Cluster sizes"). */
#include "planner/size_counts.h"

#include <math.h>
#include <stdlib.h>

#include "models/silicon/llm.h"
#include "sim/xalloc.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The products tp x cp x pp of the splits the search tries (size.c's search_count: tp a power
 * of two within the NVLink domain, pp dividing the layers or a power of two) into m[], n of
 * them at most; returns how many. */
static size_t model_splits(const st_cluster_cfg *c, const st_workload_cfg *w, int64_t *m, size_t n)
{
    int64_t cp = w->parallel.cp > 0 ? w->parallel.cp : 1, layers = w->model->layers;
    size_t k = 0;
    for (int64_t tp = 1; tp <= c->nvlink_domain; tp *= 2)
        for (int64_t pp = 1; pp <= layers && k < n; pp++)
            if (!(layers % pp) || !(pp & (pp - 1)))
                m[k++] = tp * cp * pp;
    return k;
}

size_t st__size_candidates(const st_cluster_cfg *c, const st_workload_cfg *w, int64_t unit,
                           int64_t most_units, int64_t **out)
{
    /* Every plan's GPUs are a split's product times a dp that divides the global batch
     * (models/silicon/plan_check.h): the sizes are those products that fill whole units. */
    enum { MAX_SPLITS = 4096 };
    int64_t m[MAX_SPLITS], per_unit = unit * c->gpus_per_node;
    size_t nm = model_splits(c, w, m, MAX_SPLITS), n = 0, cap = 0;
    int64_t *v = NULL;
    for (int64_t d = 1; d <= w->global_batch; d++) {
        if (w->global_batch % d)
            continue;
        for (size_t i = 0; i < nm; i++) {
            int64_t g = m[i] * d;
            if (g % per_unit || g / per_unit > most_units)
                continue;
            v = st_xgrow(v, sizeof *v, n + 1, &cap);
            v[n++] = g / c->gpus_per_node;
        }
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_i64);
    size_t u = 0; /* each size once */
    for (size_t i = 0; i < n; i++)
        if (!u || v[i] != v[u - 1])
            v[u++] = v[i];
    *out = v;
    return u;
}

/* The first candidate of nodes[0 .. n) with at least `want` nodes; n when none. */
static size_t first_at_least(const int64_t *nodes, size_t n, int64_t want)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nodes[mid] < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Doubling on from candidate i, which met at least objective `last`, while each doubling's least
 * objective is below the one before. */
static int cheaper_above(size_t n, const int64_t *nodes, st__size_probe_fn probe, void *ctx,
                         int64_t *probed, size_t i, double last)
{
    for (size_t at = i;;) {
        size_t next = first_at_least(nodes, n, 2 * nodes[at]);
        if (next >= n)
            return 0;
        st__size_probe p;
        int rc = probe(ctx, next, &p);
        (*probed)++;
        if (rc || !(p.best_feasible < last))
            return rc;
        last = p.best_feasible;
        at = next;
    }
}

int st__size_bisect(size_t n, const int64_t *nodes, st__size_probe_fn probe, void *ctx,
                    int64_t *probed)
{
    if (n == 0)
        return 0;
    /* lo: the last that was too small (missed the deadline within the budgets); hi: the first
     * that met, or that was too large (over a budget that grows with the size); met: the first
     * the doubling found to meet (n: none) */
    size_t lo = n, hi = n, met = n, i = 0;
    double met_best = INFINITY, last = INFINITY;
    for (;;) {
        st__size_probe p;
        int rc = probe(ctx, i, &p);
        (*probed)++;
        if (rc)
            return rc;
        if (p.meets || p.over) {
            hi = i;
            met = p.meets ? i : n;
            met_best = p.best_feasible;
            break;
        }
        lo = i;
        /* the time no longer falling with the GPUs (the plans' scaling spent): no larger size
         * can help; a size on which no plan fits in memory says nothing of scaling */
        int spent = isfinite(p.best_train_s) && !(p.best_train_s < (1 - ST__SIZE_GAIN) * last);
        if (i + 1 == n || spent)
            return 0;
        if (isfinite(p.best_train_s))
            last = p.best_train_s;
        size_t next = first_at_least(nodes, n, 2 * nodes[i]);
        i = next < n ? next : n - 1;
    }
    while (lo < n && hi - lo > 1) { /* lo too small, hi met or too large: the smallest between */
        size_t mid = lo + (hi - lo) / 2;
        st__size_probe p;
        int rc = probe(ctx, mid, &p);
        (*probed)++;
        if (rc)
            return rc;
        if (p.meets || p.over)
            hi = mid;
        else
            lo = mid;
    }
    return met < n ? cheaper_above(n, nodes, probe, ctx, probed, met, met_best) : 0;
}
