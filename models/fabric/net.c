/* Flow-level network: each transfer is one max-min entity over the links its member flows cross,
 * with a completion event on the engine that is moved whenever a solve changes its rate. The
 * timing rules (settling, rounding, the latency stage) are in docs/models/flow-model.md. */
#include "models/fabric/net.h"
#include "models/fabric/net_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/maxmin.h"
#include "models/fabric/mm_trace.h"
#include "sim/xalloc.h"

/* The end-of-instant solve is an event of the net's one kind whose payload names generation 0,
 * which no transfer has; it fires after every other event of its nanosecond. */
#define SOLVE_GEN  0u
#define SOLVE_PRIO ST_EV_PRIO_MAX

/* Transfer ids carry the slot and its generation, kept non-negative (31 bits of generation). */
#define GEN_MASK 0x7fffffffu

static int64_t make_id(size_t slot, uint32_t gen)
{
    return (int64_t)(((uint64_t)gen << 32) | (uint64_t)slot);
}

static void on_event(st_engine *eng, void *state, const st_event *ev);

st_net *st_net_new(st_engine *eng, const st_topo *t)
{
    st_net *net = st_xcalloc(1, sizeof *net);
    net->eng = eng;
    net->topo = t;
    net->kind = st_engine_register(eng, "net.xfer_done", on_event, net);
    net->n_links = st_topo_link_count(t);
    net->mx = st_mmx_new(net->n_links, st_topo_capacities(t), NULL, NULL, 0, NULL);
    return net;
}

/* Level of a private rate-cap link: not a part of the fabric, so in no peak. */
#define LEVEL_PRIVATE 0xff

/* The per-link statistics' arrays, for the fabric's links and the private ones added so far. */
static void link_arrays(st_net *net)
{
    const st_topo *t = net->topo;
    size_t nl = (size_t)net->n_links;
    net->level = st_xmalloc(nl);
    net->hashed = st_xmalloc(nl);
    net->flows = st_xcalloc(nl, sizeof *net->flows);
    net->pend = st_xmalloc(nl * sizeof *net->pend);
    net->pend_flag = st_xcalloc(nl, 1);
    /* Level by level (the topology numbers its links so), each level's attributes at once. */
    for (int l = 0; l < ST_LEVEL__COUNT; l++) {
        int32_t a = st_topo_level_first(t, (st_level)l), b = st_topo_level_first(t, l + 1);
        if (a == b)
            continue;
        int hashed = st_topo_hashed(t, a) != 0;
        memset(net->level + a, l, (size_t)(b - a));
        memset(net->hashed + a, hashed, (size_t)(b - a));
    }
    int32_t fabric = st_topo_link_count(t);
    memset(net->level + fabric, LEVEL_PRIVATE, nl - (size_t)fabric);
    memset(net->hashed + fabric, 0, nl - (size_t)fabric);
}

void st_net_detach(st_net *net)
{
    net->detached = 1;
}

void st_net_free(st_net *net)
{
    if (!net)
        return;
    /* Pending completions point at this net; cancel them so the engine never fires one, unless
     * the engine goes with it (st_net_detach). */
    for (size_t i = 0; !net->detached && i < net->n_x; i++)
        if (net->x[i].state != X_FREE)
            st_engine_cancel(net->eng, net->x[i].ev);
    if (net->solve_due && !net->detached)
        st_engine_cancel(net->eng, net->solve_ev);
    st_mmx_free(net->mx);
    free(net->level);
    free(net->hashed);
    free(net->flows);
    free(net->pend);
    free(net->pend_flag);
    free(net->x);
    free(net->free_x);
    free(net->ent_x);
    free(net->route);
    free(net->wts);
    free(net->hops);
    free(net->free_caps);
    free(net->keep_link);
    free(net->keep_at);
    free(net->keep_n);
    free(net->a_sum);
    free(net->ld_rate);
    free(net->ld_floor);
    free(net->ld_lat);
    free(net);
}

static size_t take_slot(st_net *net)
{
    size_t s;
    if (net->n_free > 0) {
        s = net->free_x[--net->n_free];
    } else {
        net->x = st_xgrow(net->x, sizeof *net->x, net->n_x + 1, &net->x_cap);
        s = net->n_x++;
        net->x[s].gen = 1;
    }
    uint32_t gen = net->x[s].gen;
    net->x[s] = (transfer){.ent = -1, .ev = ST_EV_NONE, .cap_link = -1, .gen = gen};
    net->active++;
    return s;
}

static void free_slot(st_net *net, size_t s)
{
    transfer *x = &net->x[s];
    x->state = X_FREE;
    x->gen = (x->gen + 1) & GEN_MASK;
    if (x->gen == 0)
        x->gen = 1;
    net->free_x = st_xgrow(net->free_x, sizeof *net->free_x, net->n_free + 1, &net->free_cap);
    net->free_x[net->n_free++] = s;
    net->active--;
}

/* Bring remaining up to now at the rate that held since t_upd. */
static void settle(transfer *x, st_time now)
{
    if (now > x->t_upd && x->rate > 0) {
        if (isinf(x->rate)) {
            x->remaining = 0;
        } else {
            x->remaining -= x->rate * (double)(now - x->t_upd) / 1e9;
            if (x->remaining < 0)
                x->remaining = 0;
        }
    }
    x->t_upd = now;
}

/* Note a time held at the clock's end, and stop the run: what follows is no forecast (the
 * caller refuses it, st_net_clamped), and a million iterations at ST_TIME_MAX would otherwise
 * still be simulated one by one. */
static void clamp(st_net *net)
{
    net->clamped = 1;
    st_engine_stop(net->eng);
}

/* a + b nanoseconds, held at ST_TIME_MAX (and noted in net->clamped) when it is past the end of
 * st_time, 2^63 ns or about 292 years: signed overflow would wrap the clock into the past. */
static st_time sat_add(st_net *net, st_time a, st_time b)
{
    if (b > ST_TIME_MAX - a) {
        clamp(net);
        return ST_TIME_MAX;
    }
    return a + b;
}

/* Nanoseconds until `rem` bytes are through at `rate`, rounded up so that the bytes really are
 * done when the event fires. The femtosecond slack keeps a quotient that is whole in exact
 * arithmetic but lands a rounding error above it (2000000.0000000002) from costing a nanosecond.
 * A time past the end of st_time clamps to ST_TIME_MAX. */
st_time st__net_done_time(st_net *net, double rem, double rate, st_time now)
{
    if (rem <= 0 || isinf(rate))
        return now;
    double ns = ceil(rem * 1e9 / rate - 1e-6);
    if (isinf(ns)) /* a stream that never ends (storage's background load) or a starved one
                      (rate 0) waits for the next solve: no overflow */
        return ST_TIME_MAX;
    if (ns < 0)
        ns = 0;
    if (!(ns < (double)(ST_TIME_MAX - now))) {
        if (net)
            clamp(net);
        return ST_TIME_MAX;
    }
    return now + (st_time)ns;
}

int st_net_ns_of(double s, st_time *ns)
{
    if (!(s * 1e9 < (double)ST_TIME_MAX))
        return -1;
    *ns = (st_time)llround(s * 1e9);
    return 0;
}

/* A latency in whole nanoseconds, held at ST_TIME_MAX past the end of st_time. */
static st_time latency_ns(st_net *net, double s)
{
    st_time ns;
    if (st_net_ns_of(s, &ns) < 0) {
        clamp(net);
        return ST_TIME_MAX;
    }
    return ns;
}

static void arm(st_net *net, size_t s, st_time at)
{
    transfer *x = &net->x[s];
    if (st_engine_reschedule(net->eng, x->ev, at) == 0)
        return;
    st_payload p = {.u = {(uint64_t)s, x->gen}};
    x->ev = st_engine_schedule(net->eng, net->kind, at, &p);
}

/* Peak utilisation counts a link's load only once it has held for a positive time: when two
 * transfers end at the same nanosecond, the first end's re-solve briefly gives the second the
 * whole link, a state that never exists in time. So a solve only notes the links it visited,
 * and their loads are taken into the peaks at the next solve at a later time (or by a query
 * made later than the solve), when the loads are known to have lasted. */
static void note_solved(st_net *net, st_time now)
{
    if (net->times_only)
        return;
    const int32_t *links;
    size_t n = st_maxmin_solved_links(st_mmx_solver(net->mx), &links);
    for (size_t i = 0; i < n; i++) {
        if (net->pend_flag[links[i]])
            continue;
        net->pend_flag[links[i]] = 1;
        net->pend[net->n_pend++] = links[i];
    }
    net->t_pend = now;
}

static void peak(const st_net *net, int32_t l, double *max_util, double *level_util)
{
    if (net->level[l] == LEVEL_PRIVATE)
        return;
    const st_maxmin *mm = st_mmx_built(net->mx); /* built: a solve noted the link */
    double u = st_maxmin_load(mm, l) / st_maxmin_capacity(mm, l);
    if (u > *max_util)
        *max_util = u;
    if (u > level_util[net->level[l]])
        level_util[net->level[l]] = u;
}

static void flush_peaks(st_net *net, st_time now)
{
    if (now <= net->t_pend)
        return;
    for (size_t i = 0; i < net->n_pend; i++) {
        peak(net, net->pend[i], &net->max_util, net->level_util);
        net->pend_flag[net->pend[i]] = 0;
    }
    net->n_pend = 0;
}

/* Solve, then for every transfer whose rate changed: account its progress at the old rate up to
 * now, take the new rate, and move its completion event. Changed ids come ascending, so the
 * events are moved in a fixed order and the engine's sequence numbers are reproducible. */
static void resolve(st_net *net, st_time now)
{
    const int64_t *ch;
    const double *rate;
    flush_peaks(net, now);
    net->solves++;
    size_t n = st_mmx_solve(net->mx, &ch, &rate);
    for (size_t i = 0; i < n; i++) {
        size_t s = net->ent_x[ch[i]];
        transfer *x = &net->x[s];
        settle(x, now);
        x->rate = rate[i];
        arm(net, s, st__net_done_time(net, x->remaining, x->rate, now));
    }
    note_solved(net, now);
}

/* Starts and ends change the allocation; the solve waits for the end of the instant, so that
 * all the starts and ends of one nanosecond are solved once (the same fixed point as solving
 * after each: docs/models/flow-model.md, "Batched solves"). */
static void request_solve(st_net *net, st_time now)
{
    if (net->solve_due)
        return;
    net->solve_due = 1;
    st_payload p = {.u = {0, SOLVE_GEN}};
    net->solve_ev = st_engine_schedule_prio(net->eng, net->kind, now, SOLVE_PRIO, &p);
}

/* Solve now what is waiting for the end of the instant (a caller asking for a rate). */
static void solve_pending(st_net *net)
{
    if (!net->solve_due)
        return;
    st_engine_cancel(net->eng, net->solve_ev);
    net->solve_due = 0;
    resolve(net, st_engine_now(net->eng));
}

/* Route every member into net->route (member i's links follow member i-1's) and their lengths
 * into net->hops; returns the total. Member i's ECMP identity is (spec->key, i). */
static size_t route_members(st_net *net, const st_xfer_spec *spec)
{
    if (spec->n > (size_t)INT_MAX / ST_TOPO_MAX_HOPS)
        ST_BUG("transfer of %zu members; at most %d", spec->n, INT_MAX / ST_TOPO_MAX_HOPS);
    net->route =
        st_xgrow(net->route, sizeof *net->route, spec->n * ST_TOPO_MAX_HOPS + 1, &net->route_cap);
    net->wts = st_xgrow(net->wts, sizeof *net->wts, spec->n * ST_TOPO_MAX_HOPS + 1, &net->wts_cap);
    net->hops = st_xgrow(net->hops, sizeof *net->hops, spec->n, &net->hops_cap);
    size_t total = 0;
    if (spec->routes) { /* routed by the caller, GPU to GPU: every link of weight 1 */
        for (size_t i = 0; i < spec->n; i++) {
            int h = spec->hops[i];
            const int32_t *r = spec->routes + i * ST_TOPO_MAX_HOPS;
            for (int j = 0; j < h; j++) { /* a few links: no memcpy call a member */
                net->route[total + (size_t)j] = r[j];
                net->wts[total + (size_t)j] = 1.0;
            }
            net->hops[i] = (uint8_t)h;
            total += (size_t)h;
        }
        return total;
    }
    uint64_t pre = st_topo_flow_pre(spec->key); /* the transfer's half of its members' keys */
    for (size_t i = 0; i < spec->n; i++) {
        uint64_t key = st_topo_flow_key_of(pre, (uint64_t)i);
        int h = st_topo_route_w(net->topo, spec->src[i], spec->dst[i], key, net->route + total,
                                net->wts + total, ST_TOPO_MAX_HOPS, NULL);
        net->hops[i] = (uint8_t)h;
        total += (size_t)h;
    }
    return total;
}

/* Count this start's member flows that share a hashed link with any other active member flow
 * (docs/models/flow-model.md, "Statistics"). The new flows are added to the per-link counts first,
 * so two members of this transfer hashed onto one port both count. */
static void count_collisions(st_net *net, size_t n_members, size_t total)
{
    if (net->times_only)
        return;
    for (size_t k = 0; k < total; k++)
        if (net->hashed[net->route[k]])
            net->flows[net->route[k]]++;
    size_t k = 0;
    for (size_t i = 0; i < n_members; i++) {
        int hit = 0;
        for (int j = 0; j < net->hops[i]; j++, k++)
            if (net->hashed[net->route[k]] && net->flows[net->route[k]] > 1)
                hit = 1;
        net->collisions += (uint64_t)hit;
    }
}

void st__net_check_spec(const st_xfer_spec *spec)
{
    if (!spec)
        ST_BUG("st_net_start without a spec");
    if (spec->n > 0 && (!spec->src || !spec->dst))
        ST_BUG("transfer of %zu members without src or dst", spec->n);
    if (!(spec->bytes >= 0) || isinf(spec->bytes))
        ST_BUG("transfer of %g bytes", spec->bytes);
    if (!(spec->latency_s >= 0) || isinf(spec->latency_s))
        ST_BUG("transfer latency of %g s", spec->latency_s);
    if (!(spec->max_rate >= 0) || isinf(spec->max_rate))
        ST_BUG("transfer rate cap of %g bytes/s", spec->max_rate);
}

/* A private link of capacity cap for one transfer's rate limit: a free one reused, or a new one
 * appended to the solver (and to the per-link arrays, as a link in no level). */
static int32_t take_cap_link(st_net *net, double cap)
{
    if (net->n_free_caps > 0) {
        int32_t l = net->free_caps[--net->n_free_caps];
        st_mmx_set_capacity(net->mx, l, cap);
        return l;
    }
    int32_t l = st_mmx_add_link(net->mx, cap);
    size_t nl = (size_t)l + 1;
    net->n_links = (int32_t)nl;
    if (!net->level) /* not made yet: made with this link when they are */
        return l;
    net->level = st_xrealloc(net->level, nl);
    net->hashed = st_xrealloc(net->hashed, nl);
    net->flows = st_xrealloc(net->flows, nl * sizeof *net->flows);
    net->pend = st_xrealloc(net->pend, nl * sizeof *net->pend);
    net->pend_flag = st_xrealloc(net->pend_flag, nl);
    net->level[l] = LEVEL_PRIVATE;
    net->hashed[l] = 0;
    net->flows[l] = 0;
    net->pend_flag[l] = 0;
    return l;
}

int64_t st_net_start(st_net *net, const st_xfer_spec *spec)
{
    st__net_check_spec(spec);
    if (!net->times_only && !net->level)
        link_arrays(net);
    st_time now = st_engine_now(net->eng);
    size_t s = take_slot(net);
    transfer *x = &net->x[s];
    *x = (transfer){.ent = -1,
                    .ev = ST_EV_NONE,
                    .gen = x->gen,
                    .tag = spec->tag,
                    .done = spec->done,
                    .ctx = spec->ctx,
                    .t_upd = now,
                    .lat = latency_ns(net, spec->latency_s),
                    .cap_link = -1};
    int64_t id = make_id(s, x->gen);
    if (spec->bytes == 0 || spec->n == 0) {
        x->state = X_LATENCY;
        arm(net, s, sat_add(net, now, x->lat));
        return id;
    }
    x->state = X_BYTES;
    x->remaining = spec->bytes;
    size_t total = route_members(net, spec);
    count_collisions(net, spec->n, total);
    if (spec->max_rate > 0) {
        /* Every member crosses the private link once: n members at rate r load it with n r. */
        x->cap_link = take_cap_link(net, spec->max_rate * (double)spec->n);
        net->route[total] = x->cap_link;
        net->wts[total++] = (double)spec->n;
    }
    if (net->keep)
        st__net_keep_route(net, s, total, now);
    /* Routed by the caller and uncapped, every weight is 1: none passed, which the solver and
     * a recording take as all ones without reading them (a cap's private link weighs n). */
    int ones = spec->routes && x->cap_link < 0;
    int64_t ent = st_mmx_add(net->mx, net->route, ones ? NULL : net->wts, (int)total);
    net->ent_x = st_xgrow(net->ent_x, sizeof *net->ent_x, (size_t)ent + 1, &net->ent_x_cap);
    net->ent_x[ent] = s;
    x->ent = ent;
    request_solve(net, now);
    return id;
}

/* The last byte is through: the transfer leaves the links, and everyone it shared them with is
 * re-solved at this instant. */
static void bytes_done(st_net *net, size_t s, st_time now)
{
    transfer *x = &net->x[s];
    if (!net->times_only) {
        const int32_t *links;
        const double *w;
        int n = st_maxmin_entity_links(st_mmx_solver(net->mx), x->ent, &links, &w);
        for (int j = 0; j < n; j++)
            if (net->hashed[links[j]])
                net->flows[links[j]] -= (uint32_t)w[j];
    }
    st_mmx_remove(net->mx, x->ent);
    if (x->cap_link >= 0) {
        net->free_caps = st_xgrow(net->free_caps, sizeof *net->free_caps, net->n_free_caps + 1,
                                  &net->free_caps_cap);
        net->free_caps[net->n_free_caps++] = x->cap_link;
        x->cap_link = -1;
    }
    x->ent = -1;
    x->remaining = 0;
    x->rate = 0;
    x->t_upd = now;
    x->state = X_LATENCY;
    request_solve(net, now);
}

static void on_event(st_engine *eng, void *state, const st_event *ev)
{
    st_net *net = state;
    if (ev->data.u[1] == SOLVE_GEN) {
        net->solve_due = 0;
        resolve(net, ev->t);
        return;
    }
    size_t s = (size_t)ev->data.u[0];
    if (s >= net->n_x || net->x[s].gen != ev->data.u[1] || net->x[s].state == X_FREE)
        ST_BUG("net event for transfer slot %zu, which is not running", s);
    net->x[s].ev = ST_EV_NONE;
    if (net->x[s].state == X_BYTES) {
        bytes_done(net, s, ev->t);
        if (net->x[s].lat > 0) {
            arm(net, s, sat_add(net, ev->t, net->x[s].lat));
            return;
        }
    }
    /* Free the slot before the callback: it may well start the next transfer. */
    transfer x = net->x[s];
    free_slot(net, s);
    if (x.done)
        x.done(x.ctx, x.tag, st_engine_now(eng));
}

static const transfer *find(const st_net *net, int64_t id)
{
    if (id < 0)
        return NULL;
    size_t s = (size_t)((uint64_t)id & 0xffffffffu);
    uint32_t gen = (uint32_t)((uint64_t)id >> 32);
    if (s >= net->n_x || net->x[s].gen != gen || net->x[s].state == X_FREE)
        return NULL;
    return &net->x[s];
}

double st_net_rate(st_net *net, int64_t xfer)
{
    solve_pending(net);
    const transfer *x = find(net, xfer);
    return x && x->state == X_BYTES ? x->rate : 0;
}

double st_net_remaining(st_net *net, int64_t xfer)
{
    solve_pending(net);
    const transfer *x = find(net, xfer);
    if (!x || x->state != X_BYTES)
        return 0;
    transfer y = *x;
    settle(&y, st_engine_now(net->eng));
    return y.remaining;
}

size_t st_net_active(const st_net *net)
{
    return net->active;
}

/* The peaks, including the loads noted but not yet flushed if they have lasted until now. */
static void peaks(const st_net *net, double *max_util, double *level_util)
{
    if (net->times_only)
        ST_BUG("peak utilisation asked of a network that keeps times only (st_net_trace)");
    *max_util = net->max_util;
    for (int i = 0; i < ST_LEVEL__COUNT; i++)
        level_util[i] = net->level_util[i];
    if (st_engine_now(net->eng) <= net->t_pend)
        return;
    for (size_t i = 0; i < net->n_pend; i++)
        peak(net, net->pend[i], max_util, level_util);
}

double st_net_max_utilization(const st_net *net)
{
    double m, lv[ST_LEVEL__COUNT];
    peaks(net, &m, lv);
    return m;
}

double st_net_level_utilization(const st_net *net, st_level level)
{
    if ((int)level < 0 || level >= ST_LEVEL__COUNT)
        return 0;
    double m, lv[ST_LEVEL__COUNT];
    peaks(net, &m, lv);
    return lv[level];
}

uint64_t st_net_collisions(const st_net *net)
{
    if (net->times_only)
        ST_BUG("collisions asked of a network that keeps times only (st_net_trace)");
    return net->collisions;
}

uint64_t st_net_solves(const st_net *net)
{
    return net->solves;
}

int st_net_clamped(const st_net *net)
{
    return net->clamped;
}

void st_net_trace(st_net *net, st_mm_trace *rec, const st_mm_trace *const *follow, size_t n_follow,
                  st_maxmin **pool)
{
    if (net->n_x > 0 || net->solve_due)
        ST_BUG("st_net_trace on a network that has started transfers");
    st_mmx_free(net->mx);
    net->mx = st_mmx_new(net->n_links, st_topo_capacities(net->topo), rec, follow, n_follow, pool);
    /* Recorded links by level, and the private rate-cap links after them: recordings made on
     * one GPU count serve another whose routes are the same but for each level's first id. */
    int32_t first[ST_LEVEL__COUNT + 1];
    for (int l = 0; l <= ST_LEVEL__COUNT; l++)
        first[l] = st_topo_level_first(net->topo, (st_level)l);
    st_mmx_segments(net->mx, first, ST_LEVEL__COUNT + 1);
    net->times_only = 1;
}

int st_net_followed(const st_net *net)
{
    return !st_mmx_diverged(net->mx);
}
