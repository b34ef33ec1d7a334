/* Component failures and repairs in the cluster run (outage.h). */
#include "models/sched/outage.h"

#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "sim/err.h"
#include "sim/xalloc.h"

static int64_t at_least_1(int64_t x)
{
    return x > 0 ? x : 1;
}

/* GPUs one component of the named kind covers on c, and how many such components c has; 0
 * GPUs for a component that holds none (spine_switch) or an unknown name. */
static int64_t width_of(const st_cluster_cfg *c, const char *name, int64_t *count, int *nics)
{
    int64_t gpn = at_least_1(c->gpus_per_node), total = c->nodes * gpn, w = 0;
    *nics = 0;
    if (strcmp(name, "rack") == 0 && c->racks_by_pool && c->n_pools > 0) {
        *count = st_racks_count(c); /* racks of several sizes: st_outage_range asks racks.h */
        return gpn;
    }
    if (strcmp(name, "gpu") == 0)
        w = 1;
    else if (strcmp(name, "node") == 0)
        w = gpn;
    else if (strcmp(name, "leaf_switch") == 0)
        w = gpn * at_least_1(c->fabric.nodes_per_leaf);
    else if (strcmp(name, "rack") == 0 && c->racks.nodes_per_rack > 0)
        w = gpn * c->racks.nodes_per_rack;
    else if (strcmp(name, "nic") == 0 && c->fabric.nics_per_node > 0) {
        *nics = c->fabric.nics_per_node;
        *count = c->nodes * *nics;
        return at_least_1(gpn / *nics);
    }
    *count = w > 0 ? (total + w - 1) / w : 0;
    return w;
}

/* Components of the named kind on c, whose nodes are of several sizes, found by node (0 for a
 * kind that holds no GPU). */
static int64_t count_sized(const st_cluster_cfg *c, const char *name)
{
    if (strcmp(name, "gpu") == 0)
        return st_pools_cluster_gpus(c);
    if (strcmp(name, "node") == 0)
        return c->nodes;
    if (strcmp(name, "nic") == 0)
        return st_pools_cluster_nics(c);
    if (strcmp(name, "rack") == 0)
        return st_racks_count(c);
    int64_t per = at_least_1(c->fabric.nodes_per_leaf);
    return strcmp(name, "leaf_switch") == 0 ? (c->nodes + per - 1) / per : 0;
}

/* Component k's nodes [*a, *b) and, for a NIC, its share of its node's GPUs. */
static void range_sized(const st_outage_class *oc, int64_t k, int64_t *lo, int64_t *hi)
{
    const st_cluster_cfg *c = oc->racks_of;
    const char *name = oc->component;
    int64_t a = k, b = k + 1, per = 1;
    if (strcmp(name, "gpu") == 0) {
        *lo = k, *hi = k + 1;
        return;
    }
    if (strcmp(name, "nic") == 0) {
        int p = 0, top = c->n_pools - 1; /* NIC k's pool, by bisection as st_pools_of_gpu */
        while (p < top) {
            int mid = p + (top - p + 1) / 2;
            if (k >= st_pools_first_nic(c, mid))
                p = mid;
            else
                top = mid - 1;
        }
        int64_t nics = st_pools_nics_per_node(c, p), gpn = st_pools_gpus_per_node(c, p);
        int64_t i = k - st_pools_first_nic(c, p), r = i % nics;
        *lo = st_pools_first_gpu(c, p) + i / nics * gpn + r * gpn / nics;
        *hi = st_pools_first_gpu(c, p) + i / nics * gpn + (r + 1) * gpn / nics;
        *hi = *hi > *lo ? *hi : *lo + 1;
        return;
    }
    if (strcmp(name, "rack") == 0)
        a = st_racks_first_node(c, k), b = a + st_racks_nodes(c, k);
    else if (strcmp(name, "leaf_switch") == 0)
        per = at_least_1(c->fabric.nodes_per_leaf), a = k * per, b = a + per;
    b = b < c->nodes ? b : c->nodes;
    *lo = st_pools_node_first_gpu(c, a);
    *hi = st_pools_node_first_gpu(c, b);
}

int st_outage_classes(const st_cluster_cfg *c, const st_failures_cfg *fail, st_outage_class *out)
{
    int n = 0;
    for (int i = 0; fail && i < fail->n_classes; i++) {
        const st_failure_class *fc = &fail->classes[i];
        int64_t count = 0;
        int nics = 0;
        int64_t w = width_of(c, fc->component, &count, &nics);
        int sized = !st_pools_one_node_size(c);
        if (sized)
            count = count_sized(c, fc->component), w = count > 0, nics = 0;
        if (w <= 0 || count <= 0)
            continue;
        out[n++] = (st_outage_class){
            .component = fc->component,
            .count = count,
            .width = w,
            .nics = nics,
            .per_node = at_least_1(c->gpus_per_node),
            .racks_of =
                sized || (strcmp(fc->component, "rack") == 0 && c->racks_by_pool && c->n_pools > 0)
                    ? c
                    : NULL,
            .mtbf_s = fc->mtbf_s,
            .repair_s = fc->repair_s >= 0 ? fc->repair_s : fail->detect_s + fail->restart_s,
            .loc = fc->mtbf_loc};
    }
    return n;
}

void st_outage_range(const st_outage_class *oc, int64_t k, int64_t total, int64_t *first,
                     int64_t *n)
{
    int64_t lo, hi;
    if (oc->racks_of && !st_pools_one_node_size(oc->racks_of)) {
        range_sized(oc, k, &lo, &hi);
    } else if (oc->nics > 0) { /* NIC k % nics of node k / nics: its share of the node's GPUs */
        int64_t node = k / oc->nics, r = k % oc->nics;
        lo = node * oc->per_node + r * oc->per_node / oc->nics;
        hi = node * oc->per_node + (r + 1) * oc->per_node / oc->nics;
        if (hi <= lo)
            hi = lo + 1;
    } else if (oc->racks_of) {
        lo = st_racks_first_node(oc->racks_of, k) * oc->per_node;
        hi = lo + st_racks_nodes(oc->racks_of, k) * oc->per_node;
    } else {
        lo = k * oc->width;
        hi = lo + oc->width;
    }
    if (hi > total)
        hi = total;
    *first = lo;
    *n = hi > lo ? hi - lo : 0;
}

void st_outages_init(st_outages *o, const st_outage_spec *sp, int64_t total, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    o->sp = sp;
    o->total = total;
    int n = sp ? sp->n_classes : 0;
    o->rng = st_xcalloc(n ? (size_t)n : 1, sizeof *o->rng);
    for (int k = 0; k < n; k++)
        o->rng[k] =
            st_rng_new(seed, st_rng_tag("cluster-outage"), (uint64_t)k, st_rng_tag("failure"));
    o->down = st_xcalloc(total > 0 ? (size_t)total : 1, sizeof *o->down);
}

void st_outages_release(st_outages *o)
{
    for (int k = 0; o->sp && k < o->sp->n_classes; k++)
        st_rng_free(o->rng[k]);
    free(o->rng);
    free(o->down);
    memset(o, 0, sizeof *o);
}

double st_outages_gap(st_outages *o, int k)
{
    const st_outage_class *oc = &o->sp->classes[k];
    return st_rng_exponential(o->rng[k], oc->mtbf_s / (double)oc->count);
}

int64_t st_outages_pick(st_outages *o, int k)
{
    const st_outage_class *oc = &o->sp->classes[k];
    if (oc->count <= 1)
        return 0;
    if (oc->count <= (int64_t)UINT32_MAX)
        return (int64_t)st_rng_uniform_int(o->rng[k], (uint32_t)oc->count);
    int64_t pick = (int64_t)(st_rng_uniform(o->rng[k]) * (double)oc->count);
    return pick < oc->count ? pick : oc->count - 1;
}
