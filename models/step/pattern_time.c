/* Collective pattern times for the step model: each pattern simulated on a fresh fabric over the
 * context's topology the first time it is asked for, then taken from the context's memo. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabsim.h"
#include "models/fabric/net.h"
#include "models/step/step_internal.h"
#include "sim/xalloc.h"

/* One pattern's run: when its last group ends, and the neighbours' flows kept going until
 * then. */
typedef struct run {
    st_fabsim *fs;
    st_time end;
    int64_t left; /* groups still running */
    const int64_t *bg;
    size_t n_bg;
    double chunk; /* bytes each neighbour flow sends before it starts again */
} run;

static void coll_done(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    run *r = ctx;
    if (now > r->end)
        r->end = now;
    if (--r->left == 0 && r->n_bg) /* the neighbours would send for ever: stop here */
        st_engine_stop(st_fabsim_engine(r->fs));
}

/* The neighbours' flows: each sends `chunk` bytes and starts again while the pattern runs, so
 * it loads the links it crosses for the whole pattern (a neighbour's cross-leaf ring busy the
 * whole time: the most its traffic can slow the job), and no transfer is ever left to complete
 * past the clock. */
static void bg_send(void *ctx, uint64_t tag, st_time now)
{
    (void)now;
    run *r = ctx;
    if (r->left == 0)
        return;
    size_t i = (size_t)tag;
    st_xfer_spec s = {.src = &r->bg[2 * i],
                      .dst = &r->bg[2 * i + 1],
                      .n = 1,
                      .bytes = r->chunk,
                      /* its path is the flow's own (its GPUs), not its place in the list */
                      .key = st_topo_flow_key(0x6e65696768626f72ULL ^ (uint64_t)r->bg[2 * i],
                                              (uint64_t)r->bg[2 * i + 1]),
                      .tag = i,
                      .done = bg_send,
                      .ctx = r};
    st_net_start(st_fabsim_net(r->fs), &s);
}

/* Start group g's collective s on cm, and note it in i (when not NULL) prepared for other
 * bytes: alike the group before, it shares that one's. Returns i, or NULL once a group's
 * collective cannot be prepared (i freed: the pattern keeps no instant). */
static st__instant *start_group(st_coll *cm, const st_coll_spec *s, st__instant *i)
{
    st_err err = {0};
    st_coll_prep *prev = i && i->n_prep ? i->prep[i->n_prep - 1] : NULL, *p = NULL;
    int64_t id = i ? st_coll_start_prepared(cm, s, prev, &p, &err) : st_coll_start(cm, s, &err);
    if (id < 0)
        ST_BUG("step pattern refused: %s", err.msg); /* ranks come from a checked plan */
    if (!i)
        return NULL;
    if (!p) {
        st__instant_free(i);
        return NULL;
    }
    if (p != prev) {
        i->prep = st_xgrow(i->prep, sizeof *i->prep, i->n_prep + 1, &i->prep_cap);
        i->prep[i->n_prep++] = p;
    }
    i->run = st_xgrow(i->run, sizeof *i->run, i->n_runs + 1, &i->run_cap);
    i->run[i->n_runs++] = i->n_prep - 1;
    i->n_x += st_coll_prep_transfers(p);
    return i;
}

/* When pattern i's transfers, started with `bytes` a rank, would all be through: each prepared
 * collective's members' bytes and transfers' latencies at those bytes, and the instant's rates,
 * into st_net_last_done_of. 1 and *end, else 0 (the instant does not decide it). */
static int instant_end(st_step_ctx *x, const st__instant *i, double bytes, st_time *end)
{
    if (!(bytes > 0) || isinf(bytes))
        return 0;
    if (!x->dry)
        x->dry = st_coll_new(NULL, x->topo, x->c);
    x->lat = st_xgrow(x->lat, sizeof *x->lat, i->n_x + 1, &x->lat_cap);
    double each = -1, b = 0;
    const double *lat = NULL;
    size_t xi = 0, nx = 0, cur = SIZE_MAX;
    for (size_t g = 0; g < i->n_runs; g++) {
        if (i->run[g] != cur) { /* runs of alike groups: each collective answered once */
            cur = i->run[g];
            nx = st_coll_prep_at(x->dry, i->prep[cur], bytes, &b, &lat);
            if (each >= 0 && b != each)
                return 0;
            each = b;
        }
        for (size_t t = 0; t < nx; t++)
            if (st_net_ns_of(lat[t], &x->lat[xi++]) < 0)
                return 0;
    }
    return st_net_last_done_of(i->n_x, i->rate, i->floor, x->lat, each, 0, end);
}

/* After a run that its first instant decided (st_net_last_done): keep that instant for k's
 * shape (i: its collectives as prepared when they started; owned from here), once it answers the
 * run's end itself, so that the shape's patterns with other bytes are answered from it
 * (instant_time). */
static void keep_instant(st_step_ctx *x, const st_coll_memo_key *k, st__shape_traces *tr,
                         const st_net *net, st_time end, st__instant *i)
{
    const double *rate, *floor;
    size_t n = st_net_last_read(net, &rate, &floor);
    st_time at;
    if (n == 0 || i->n_x != n) {
        st__instant_free(i);
        return;
    }
    i->rate = st_xmalloc(n * sizeof *i->rate);
    i->floor = st_xmalloc(n * sizeof *i->floor);
    memcpy(i->rate, rate, n * sizeof *rate);
    memcpy(i->floor, floor, n * sizeof *floor);
    if (!instant_end(x, i, k->bytes, &at) || at != end) {
        st__instant_free(i); /* not the run's own answer: nothing to keep */
        return;
    }
    st__shape_instant_put(tr, k, i);
}

/* Pattern k's time from its shape's first instant, where one is kept and decides it: the
 * transfers the pattern starts are the instant's, so the solve would give each the rate it
 * gave them, and st_net_last_done_of answers as the net would. 1 and *t, else 0 (simulate). */
static int instant_time(st_step_ctx *x, const st_coll_memo_key *k, const st__shape_traces *tr,
                        double *t)
{
    const st__instant *i = st__shape_instant_find(tr, k);
    const st__step_map *m = x->place ? &x->maps[x->place - 1] : NULL;
    st_time end;
    if (!i || (m && m->n_bg) || !instant_end(x, i, k->bytes, &end))
        return 0;
    *t = (double)end * 1e-9;
    return 1;
}

/* Run the pattern on a fresh engine and network over the context's fabric, so every group's
 * flows are present together and share NICs and uplinks as they would. */
static double simulate_pattern(st_step_ctx *x, const st_coll_memo_key *k, st__shape_traces *tr)
{
    st_fabsim *fs = st_fabsim_new(x->topo, x->c);
    /* A pattern follows the recordings of its shape's max-min solves and solves only from
     * where its calls differ from all of them (the same times, bit for bit); a run that did
     * solve is kept as one more recording of the shape (models/step/shape_trace.h). */
    const st_mm_trace *const *follow;
    size_t n_follow = st__shape_traces_find(tr, k, &follow);
    /* Recorded into the context's scratch, whose arrays grew on earlier runs, and taken out
     * at their exact size if kept, the scratch given new arrays of its room (st_mm_trace_take):
     * grown afresh for each run, a recording's arrays were reallocated a dozen times. */
    if (!x->rec)
        x->rec = st_mm_trace_new();
    st_mm_trace *rec = x->rec;
    st_mm_trace_clear(rec);
    st_net_trace(st_fabsim_net(fs), rec, follow, n_follow, &x->spare);
    st_net_keep_routes_in(st_fabsim_net(fs), &x->sums);
    int64_t *gpus = st_xmalloc((size_t)(k->n * k->groups) * sizeof *gpus);
    const st__step_map *m = x->place ? &x->maps[x->place - 1] : NULL;
    run rr = {.fs = fs, .left = k->groups, .bg = m ? m->bg : NULL, .n_bg = m ? m->n_bg : 0};
    rr.chunk = k->bytes;
    /* A shape without an instant yet prepares its collectives as they start, for keep_instant;
     * neighbours' flows make the first solve no answer, and an all-reduce's algorithm may
     * change with its bytes. */
    st__instant *inst =
        rr.n_bg == 0 && k->op != ST_COLL_ALL_REDUCE && !st__shape_instant_find(tr, k)
            ? st_xcalloc(1, sizeof *inst)
            : NULL;
    for (int64_t g = 0; g < k->groups; g++) {
        int64_t *r = gpus + g * k->n;
        for (int64_t i = 0; i < k->n; i++)
            r[i] = st__step_gpu_of(x, g * k->gstride + i * k->stride);
        st_coll_spec s = {.op = k->op,
                          .gpus = r,
                          .n = k->n,
                          .bytes = k->bytes,
                          .key = (uint64_t)g + 1,
                          .done = coll_done,
                          .ctx = &rr};
        inst = start_group(st_fabsim_coll(fs), &s, inst);
    }
    for (size_t i = 0; i < rr.n_bg; i++)
        bg_send(&rr, i, 0);
    /* Through the start's instant and its solve. A pattern whose groups run one phase each with
     * no neighbours' flows then often has its answer (st_net_last_done): the slowest groups end
     * where that solve put them and every other is bounded before them; else it runs on. */
    st_net *net = st_fabsim_net(fs);
    st_engine_run(st_fabsim_engine(fs), 0);
    st_time last = 0;
    if (rr.n_bg == 0 && st_coll_last_phases(st_fabsim_coll(fs)) && st_net_last_done(net, &last)) {
        rr.end = last;
        if (inst && !st_net_clamped(net))
            keep_instant(x, k, tr, net, last, inst);
        else
            st__instant_free(inst);
    } else {
        st__instant_free(inst);
        st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
    }
    st_net_keep_routes(net, 0);
    /* Past the end of the engine's clock the time was held there, not wrapped: +inf, which the
     * step model refuses. */
    double t = st_net_clamped(net) ? INFINITY : (double)rr.end * 1e-9;
    int followed = st_net_followed(net);
    st_fabsim_free(fs);
    /* Followed: a recording made every call, this one adds nothing; cut: of no use. */
    if (!followed && st_mm_trace_whole(rec))
        st__shape_traces_put(tr, k, st_mm_trace_take(rec));
    free(gpus);
    return t;
}

/* Simulated once per distinct pattern and then remembered: a plan search asks for the same few
 * collectives thousands of times, and a sizing search for thousands of distinct ones, most of
 * them again on every larger GPU count (the memo its contexts share). */
double st__step_coll_time(st_step_ctx *x, st_coll_op op, int64_t n, int64_t stride, int64_t groups,
                          int64_t gstride, double bytes)
{
    if (n < 2 || bytes <= 0)
        return 0;
    /* A reduce-scatter runs the flows of the all-gather of the same bytes: one ring, n - 1 steps
     * of bytes / n, the same protocol, channels and latencies (models/fabric/coll_layout.c,
     * build_ring, reads the op only for all-reduce). One key for both: the memo and the shape
     * recordings serve each from the other's runs. */
    if (op == ST_COLL_REDUCE_SCATTER)
        op = ST_COLL_ALL_GATHER;
    st_coll_memo_key k = {.op = op,
                          .n = n,
                          .stride = stride,
                          .groups = groups,
                          .gstride = gstride,
                          .bytes = bytes,
                          .place = x->place};
    st_coll_memo *memo = x->memo;
    st__shape_traces *traces = x->traces;
    if (x->shared && !x->place) { /* rank r on GPU r: the pattern spans GPUs 0 .. its last */
        memo = st__step_memo_times(x->shared);
        traces = st__step_memo_traces(x->shared);
        k.fabric = st__step_memo_class(x, (groups - 1) * gstride + (n - 1) * stride + 1);
    }
    double t, lat = x->c->calib.enabled ? x->c->calib.latency_s : 0; /* the cluster's own */
    if (st_coll_memo_find(memo, &k, &t))
        return t + lat;
    if (!instant_time(x, &k, traces, &t))
        t = simulate_pattern(x, &k, traces);
    st_coll_memo_put(memo, &k, t);
    return t + lat;
}

double st_step_allreduce_s(st_step_ctx *x, int64_t n, double bytes)
{
    return st__step_coll_time(x, ST_COLL_ALL_REDUCE, n, 1, 1, 1, bytes);
}

double st_step_pattern_s(st_step_ctx *x, st_coll_op op, int64_t n, int64_t stride, int64_t groups,
                         int64_t gstride, double bytes)
{
    return st__step_coll_time(x, op, n, stride, groups, gstride, bytes);
}
