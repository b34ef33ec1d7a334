/* A transfer alone on the fabric (st_net_alone, st_net_alone_both): the max-min solve of one
 * entity, the least level of its links, without a net or an engine. Split from net.c: the
 * storage model times a checkpoint's thousands of writers this way on every sizing probe. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/net_internal.h"
#include "models/fabric/topo.h"
#include "sim/xalloc.h"

/* A lone stream's links as the solver merges an entity's (maxmin.c, merge_links): each link's
 * summed weight in the order the members cross it (sum, zero over every link of the topology
 * to begin with), and the links as first crossed (seen, room for every hop of n members: no
 * growth check a hop, for the 10^4 members of a storage stream). */
typedef struct alone_sums {
    double *sum;
    int32_t *seen;
    size_t n_seen;
} alone_sums;

static void sums_init(alone_sums *a, const st_topo *t, size_t n)
{
    size_t nl = (size_t)st_topo_link_count(t);
    a->sum = st_xcalloc(nl ? nl : 1, sizeof *a->sum);
    a->seen = st_xmalloc(n * ST_TOPO_MAX_HOPS * sizeof *a->seen);
    a->n_seen = 0;
}

static inline void sums_add(alone_sums *a, const int32_t *links, const double *wts, int h)
{
    double *sum = a->sum; /* in locals: the stores below would reload them through a */
    int32_t *seen = a->seen;
    size_t n_seen = a->n_seen;
    for (int j = 0; j < h; j++) {
        int32_t l = links[j];
        double w = wts[j], s = sum[l];
        if (!(w > 0) || isinf(w))
            ST_BUG("entity crosses link %d with weight %g; it must be finite and > 0", (int)l, w);
        if (s == 0)
            seen[n_seen++] = l;
        sum[l] = s + w;
    }
    a->n_seen = n_seen;
}

/* sums_add for links of weight 1 each. */
static inline void sums_add_ones(alone_sums *a, const int32_t *links, int h)
{
    double *sum = a->sum;
    int32_t *seen = a->seen;
    size_t n_seen = a->n_seen;
    for (int j = 0; j < h; j++) {
        double s = sum[links[j]];
        if (s == 0)
            seen[n_seen++] = links[j];
        sum[links[j]] = s + 1.0;
    }
    a->n_seen = n_seen;
}

/* The solve of a lone entity (maxmin_fill.c, fill_one), given the least level of its links, each
 * its capacity over its weight (the same least whatever order the links come in: all finite and
 * positive): a rate cap is a private link of n x max_rate crossed with weight n. st_net_alone's
 * answer. */
static int alone_answer(double least, const st_xfer_spec *spec, st_time now, double *rate,
                        st_time *bytes_at)
{
    if (spec->max_rate > 0) {
        double n = (double)spec->n, lvl = spec->max_rate * n / n;
        if (lvl < least)
            least = lvl;
    }
    if (!(least > 0) || isinf(least))
        return -1;
    *rate = least;
    *bytes_at = st__net_done_time(NULL, spec->bytes, least, now);
    return *bytes_at == ST_TIME_MAX ? -1 : 0;
}

/* alone_answer over a's links, which it frees. */
static int sums_answer(alone_sums *a, const st_topo *t, const st_xfer_spec *spec, st_time now,
                       double *rate, st_time *bytes_at)
{
    const double *cap = st_topo_capacities(t);
    double least = INFINITY;
    for (size_t k = 0; k < a->n_seen; k++) {
        double lvl = cap[a->seen[k]] / a->sum[a->seen[k]];
        if (lvl < least)
            least = lvl;
    }
    free(a->sum);
    free(a->seen);
    return alone_answer(least, spec, now, rate, bytes_at);
}

/* The least level of the read back of the write whose links a holds (every weight 1, so each
 * sum counts the members crossing the link): each link's twin in the read (st_topo_link_back)
 * carries the same members, each at the read's weight, summed member by member as the solver
 * would (k additions of one weight: the same sum whichever members they are). */
static double read_back_least(const alone_sums *a, const st_topo *t, int tier)
{
    const double *cap = st_topo_capacities(t);
    double least = INFINITY;
    for (size_t k = 0; k < a->n_seen; k++) {
        double w, sum = 0, members = a->sum[a->seen[k]];
        int32_t l = st_topo_link_back(t, tier, a->seen[k], &w);
        if (w == 1.0)
            sum = members; /* members x 1, exact */
        else
            for (double i = 0; i < members; i++)
                sum += w;
        double lvl = cap[l] / sum;
        if (lvl < least)
            least = lvl;
    }
    return least;
}

/* Whether st_net_alone leaves spec to the net: no bytes, no members, or routed by the caller. */
static int alone_refused(const st_xfer_spec *spec)
{
    st__net_check_spec(spec);
    if (spec->bytes == 0 || spec->n == 0 || spec->routes)
        return 1;
    if (spec->n > (size_t)INT_MAX / ST_TOPO_MAX_HOPS)
        ST_BUG("transfer of %zu members; at most %d", spec->n, INT_MAX / ST_TOPO_MAX_HOPS);
    return 0;
}

int st_net_alone(const st_topo *t, const st_xfer_spec *spec, st_time now, double *rate,
                 st_time *bytes_at)
{
    if (alone_refused(spec))
        return -1;
    alone_sums a;
    sums_init(&a, t, spec->n);
    int32_t links[ST_TOPO_MAX_HOPS];
    double wts[ST_TOPO_MAX_HOPS];
    uint64_t pre = st_topo_flow_pre(spec->key);
    for (size_t i = 0; i < spec->n; i++) {
        uint64_t key = st_topo_flow_key_of(pre, (uint64_t)i);
        int h =
            st_topo_route_w(t, spec->src[i], spec->dst[i], key, links, wts, ST_TOPO_MAX_HOPS, NULL);
        sums_add(&a, links, wts, h);
    }
    return sums_answer(&a, t, spec, now, rate, bytes_at);
}

void st_net_alone_both(const st_topo *t, const st_xfer_spec *spec, int tier, st_time now,
                       double rate[2], st_time bytes_at[2], int rc[2])
{
    rc[0] = rc[1] = -1;
    if (alone_refused(spec))
        return;
    int64_t ep = st_topo_storage_endpoint(t, tier), gpus = st_topo_gpus(t);
    alone_sums a;
    sums_init(&a, t, spec->n);
    int32_t links[ST_TOPO_MAX_HOPS];
    uint64_t pre = st_topo_flow_pre(spec->key);
    for (size_t i = 0; i < spec->n; i++) {
        if (spec->dst[i] != ep || spec->src[i] < 0 || spec->src[i] >= gpus)
            ST_BUG("member %zu of a write to tier %d runs %lld -> %lld", i, tier,
                   (long long)spec->src[i], (long long)spec->dst[i]);
        uint64_t key = st_topo_flow_key_of(pre, (uint64_t)i);
        /* every weight 1, which read_back_least counts the members by */
        int h = st_topo_write_route(t, spec->src[i], tier, key, links);
        sums_add_ones(&a, links, h);
    }
    double read_least = read_back_least(&a, t, tier);
    rc[0] = sums_answer(&a, t, spec, now, &rate[0], &bytes_at[0]);
    rc[1] = alone_answer(read_least, spec, now, &rate[1], &bytes_at[1]);
}
