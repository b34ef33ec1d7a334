/* Collective pattern times for the step model: each pattern simulated on a fresh fabric over the
 * context's topology the first time it is asked for, then taken from the context's memo. */
#include <math.h>
#include <stdlib.h>

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
                      .key = st_topo_flow_key(0x6e65696768626f72ULL, i),
                      .tag = i,
                      .done = bg_send,
                      .ctx = r};
    st_net_start(st_fabsim_net(r->fs), &s);
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
    st_mm_trace *rec = st_mm_trace_new();
    st_net_trace(st_fabsim_net(fs), rec, follow, n_follow, &x->spare);
    st_net_keep_routes_in(st_fabsim_net(fs), &x->sums);
    int64_t *gpus = st_xmalloc((size_t)(k->n * k->groups) * sizeof *gpus);
    const st__step_map *m = x->place ? &x->maps[x->place - 1] : NULL;
    run rr = {.fs = fs, .left = k->groups, .bg = m ? m->bg : NULL, .n_bg = m ? m->n_bg : 0};
    rr.chunk = k->bytes;
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
        st_err err = {0};
        if (st_coll_start(st_fabsim_coll(fs), &s, &err) < 0)
            ST_BUG("step pattern refused: %s", err.msg); /* ranks come from a checked plan */
    }
    for (size_t i = 0; i < rr.n_bg; i++)
        bg_send(&rr, i, 0);
    /* Through the start's instant and its solve. A pattern whose groups run one phase each with
     * no neighbours' flows then often has its answer (st_net_last_done): the slowest groups end
     * where that solve put them and every other is bounded before them; else it runs on. */
    st_net *net = st_fabsim_net(fs);
    st_engine_run(st_fabsim_engine(fs), 0);
    st_time last = 0;
    if (rr.n_bg == 0 && st_coll_last_phases(st_fabsim_coll(fs)) && st_net_last_done(net, &last))
        rr.end = last;
    else
        st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
    st_net_keep_routes(net, 0);
    /* Past the end of the engine's clock the time was held there, not wrapped: +inf, which the
     * step model refuses. */
    double t = st_net_clamped(net) ? INFINITY : (double)rr.end * 1e-9;
    int followed = st_net_followed(net);
    st_fabsim_free(fs);
    if (followed) /* a recording made every call: this one adds nothing */
        st_mm_trace_free(rec);
    else
        st__shape_traces_put(tr, k, rec);
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
