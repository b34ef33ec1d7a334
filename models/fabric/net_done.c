/* A network's kept routes and the end of a pattern foreseen (net.h st_net_keep_routes,
 * st_net_last_done): every transfer's links and each link's members, kept as the transfers start,
 * give each one a floor under its rate, and from the rates of the first solve the instant the
 * last one ends, when it is certain, without running the engine. Split from net.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/net_internal.h"
#include "sim/xalloc.h"

/* Keep slot s's links (net->route: total of them), add its members to each fabric link's count
 * (net->wts), and note when it started (st_net_keep_routes). */
void st__net_keep_route(st_net *net, size_t s, size_t total, st_time now)
{
    net->keep_link =
        st_xgrow(net->keep_link, sizeof *net->keep_link, net->n_keep + total + 1, &net->keep_cap);
    net->keep_at = st_xgrow(net->keep_at, sizeof *net->keep_at, s + 1, &net->keep_slots_cap);
    net->keep_n = st_xgrow(net->keep_n, sizeof *net->keep_n, s + 1, &net->keep_n_cap);
    int32_t fabric = st_topo_link_count(net->topo);
    if (!net->a_sum && net->sum_pool && *net->sum_pool) {
        net->a_sum = *net->sum_pool;
        *net->sum_pool = NULL;
    } else if (!net->a_sum) {
        net->a_sum = st_xcalloc((size_t)fabric, sizeof *net->a_sum);
    }
    memcpy(net->keep_link + net->n_keep, net->route, total * sizeof *net->route);
    for (size_t k = 0; k < total; k++)
        if (net->route[k] < fabric) /* a private cap link: not counted */
            net->a_sum[net->route[k]] += net->wts[k];
    net->keep_at[s] = net->n_keep;
    net->keep_n[s] = total;
    net->n_keep += total;
    if (net->first_start < 0)
        net->first_start = now;
    net->last_start = now;
}

void st_net_keep_routes(st_net *net, int on)
{
    if (on) {
        if (net->n_x > 0 || net->solve_due)
            ST_BUG("st_net_keep_routes on a network that has started transfers");
        net->keep = 1;
        net->first_start = net->last_start = -1;
        return;
    }
    net->keep = 0;
    if (net->a_sum && net->sum_pool && !*net->sum_pool) { /* back, every entry 0 again */
        int32_t fabric = st_topo_link_count(net->topo);
        for (size_t k = 0; k < net->n_keep; k++)
            if (net->keep_link[k] < fabric)
                net->a_sum[net->keep_link[k]] = 0;
        *net->sum_pool = net->a_sum;
    } else {
        free(net->a_sum);
    }
    net->sum_pool = NULL;
    free(net->keep_link);
    free(net->keep_at);
    free(net->keep_n);
    net->keep_link = NULL;
    net->keep_at = net->keep_n = NULL;
    net->a_sum = NULL;
    net->n_keep = net->keep_cap = net->keep_slots_cap = net->keep_n_cap = 0;
}

void st_net_keep_routes_in(st_net *net, double **pool)
{
    st_net_keep_routes(net, 1);
    net->sum_pool = pool;
}

/* st_net_last_done: rates within SLOWEST_TIE of the least are the slowest ones (one level,
 * summed in a different order); every other must run above FASTER_GAP, clear of the refill
 * margin of a solve after removals (REMOVED_MARGIN, 1e-9, in maxmin.c). */
#define SLOWEST_TIE 1e-9
#define FASTER_GAP  1e-8

/* The lower bound of a transfer's rate for as long as it runs, from its kept links: on the link
 * it is bottlenecked at it has the largest rate, so its rate times that link's members is at
 * least the link's capacity, and no link gains members (none starts later). */
static double rate_floor(const st_net *net, size_t s, const double *cap)
{
    double g = INFINITY;
    for (size_t k = net->keep_at[s]; k < net->keep_at[s] + net->keep_n[s]; k++) {
        double share = cap[net->keep_link[k]] / net->a_sum[net->keep_link[k]];
        if (share < g)
            g = share;
    }
    return g;
}

/* st_net_last_done's decision over n transfers (rate, rate floor and latency each), every one
 * moving `bytes` a member from `now`: one function for the net's own transfers and for a
 * caller's copy of them (st_net_last_done_of), so both answer alike, bit for bit. done_time
 * clamps net when it is not NULL, as the net's own arithmetic does. */
static int last_done(st_net *net, size_t n, const double *rate, const double *floor,
                     const st_time *lat, double bytes, st_time now, st_time *end)
{
    if (n == 0 || !(bytes > 0))
        return 0;
    double m = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!(rate[i] > 0) || isinf(rate[i]))
            return 0;
        m = rate[i] < m ? rate[i] : m;
    }
    /* The slowest: within SLOWEST_TIE of the least rate m (the same level, summed in another
     * order). Each shares a link that saturated at that level with slowest ones only, so none of
     * its links loses a member before they all end; they must all have been armed for one
     * instant d, and a removal's refill (at or above the removed rate less REMOVED_MARGIN,
     * maxmin.c) never reaches them while every other transfer runs above FASTER_GAP. */
    const double tie = m * (1 + SLOWEST_TIE), gap = m * (1 + FASTER_GAP);
    st_time d = -1, lat_k = 0;
    for (size_t i = 0; i < n; i++) {
        if (rate[i] > tie)
            continue;
        st_time di = st__net_done_time(net, bytes, rate[i], now);
        if ((d >= 0 && di != d) || di == ST_TIME_MAX || di <= now)
            return 0;
        d = di;
        lat_k = lat[i] > lat_k ? lat[i] : lat_k;
    }
    if (lat_k > ST_TIME_MAX - d)
        return 0;
    st_time last = d + lat_k;
    /* Every other one ends by bytes over its rate floor (its rate may fall as others leave, never
     * below it), a nanosecond of rounding and a relative 1e-9 of the solver's arithmetic above
     * that: when that is no later than `last`, `last` is the answer. One whose bytes are through
     * within the instant (a sub-femtosecond transfer) would have left the links already: no
     * answer then. */
    for (size_t i = 0; i < n; i++) {
        if (rate[i] <= tie)
            continue;
        if (rate[i] <= gap || st__net_done_time(net, bytes, rate[i], now) <= now)
            return 0;
        double bound = (double)now + bytes * 1e9 / floor[i] * (1 + 1e-9) + 2.0 + (double)lat[i];
        if (!(bound <= (double)last))
            return 0;
    }
    *end = last;
    return 1;
}

int st_net_last_done_of(size_t n, const double *rate, const double *floor, const st_time *lat,
                        double bytes, st_time now, st_time *end)
{
    return last_done(NULL, n, rate, floor, lat, bytes, now, end);
}

int st_net_last_done(st_net *net, st_time *end)
{
    st_time now = st_engine_now(net->eng);
    net->ld_n = 0;
    if (!net->keep || net->solve_due || net->first_start != now || net->last_start != now)
        return 0;
    /* Every transfer moving, uncapped, from this instant, with the same bytes a member. */
    net->ld_rate = st_xgrow(net->ld_rate, sizeof *net->ld_rate, net->n_x + 1, &net->ld_cap);
    size_t cap = net->ld_cap;
    net->ld_floor = st_xrealloc(net->ld_floor, cap * sizeof *net->ld_floor);
    net->ld_lat = st_xrealloc(net->ld_lat, cap * sizeof *net->ld_lat);
    const double *link_cap = st_topo_capacities(net->topo);
    double bytes = -1;
    size_t n = 0;
    for (size_t s = 0; s < net->n_x; s++) {
        const transfer *x = &net->x[s];
        if (x->state == X_FREE)
            continue;
        if (x->state != X_BYTES || x->cap_link >= 0 || x->t_upd != now ||
            (bytes >= 0 && x->remaining != bytes))
            return 0;
        bytes = x->remaining;
        net->ld_rate[n] = x->rate;
        net->ld_floor[n] = rate_floor(net, s, link_cap);
        net->ld_lat[n++] = x->lat;
    }
    net->ld_n = n;
    return last_done(net, n, net->ld_rate, net->ld_floor, net->ld_lat, bytes, now, end);
}

size_t st_net_last_read(const st_net *net, const double **rate, const double **floor)
{
    *rate = net->ld_rate;
    *floor = net->ld_floor;
    return net->n_free ? 0 : net->ld_n;
}
