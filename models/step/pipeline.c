/* The pipeline schedule of one training step: Megatron-LM's 1F1B and interleaved 1F1B task
 * orders, evaluated by list scheduling; the engine run (pipeline_engine.c) and the steady-state
 * shortcut (pipeline_periodic.c) give the same times. docs/models/pipeline.md. */
#include "models/step/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/parallel.h"
#include "models/step/pipeline_internal.h"
#include "sim/err.h"
#include "sim/xalloc.h"

/* Megatron's numbering of a stage's forward (or backward) iterations: groups of pp micro-batches
 * run chunk by chunk (get_model_chunk_id, get_microbatch_id_in_model_chunk); backwards visit
 * the chunks in reverse. Stepped one iteration at a time, so building needs no division. */
typedef struct iter {
    int64_t group, lc, r; /* iteration = (group * v + lc) * pp + r */
} iter;

static inline void iter_next(const pipe_plan *p, iter *it)
{
    if (++it->r < p->pp)
        return;
    it->r = 0;
    if (++it->lc < p->v)
        return;
    it->lc = 0;
    it->group++;
}

/* Put the next iteration of `kind` at the next position of stage s; round counts positions
 * from the end of the warm-up in rounds of T (the caller keeps it). */
static inline void put(pipe_plan *p, int64_t s, int64_t *pos, int kind, iter *it, int64_t round)
{
    int64_t lc = kind == KIND_B ? p->v - 1 - it->lc : it->lc;
    int64_t c = lc * p->pp + s, mb = it->group * p->pp + it->r, id = s * p->len + *pos;
    p->t[id] = (pipe_task){.prod = -1,
                           .cons = -1,
                           .cstage = -1,
                           .chunk = (int32_t)c,
                           .mb = (int32_t)mb,
                           .round = (int32_t)round,
                           .kind = (uint8_t)kind};
    p->idx[(kind * p->nchunk + c) * p->m + mb] = (int32_t)id;
    iter_next(p, it);
    (*pos)++;
}

/* Warm-up forwards, then one forward and one backward at a time, then the remaining backwards.
 * Rounds: T = 2 * rs * v positions, rs = pp under interleaving, else 1 (see find_period,
 * pipeline_periodic.c). */
static void build_stage(pipe_plan *p, int64_t s)
{
    int64_t total = p->m * p->v, w = p->warm[s], pos = 0, q = 0, round = 0;
    int64_t T = 2 * p->v * (p->v > 1 ? p->pp : 1);
    iter f = {0, 0, 0}, b = {0, 0, 0};
    for (int64_t i = 0; i < w; i++)
        put(p, s, &pos, KIND_F, &f, -((w - i + T - 1) / T));
    for (int64_t k = 0; k < total - w; k++) {
        put(p, s, &pos, KIND_F, &f, round);
        put(p, s, &pos, KIND_B, &b, round);
        if ((q += 2) == T) {
            q = 0;
            round++;
        }
    }
    for (int64_t k = total - w; k < total; k++) {
        put(p, s, &pos, KIND_B, &b, round);
        if (++q == T) {
            q = 0;
            round++;
        }
    }
}

/* Task pid's output goes to task id on stage s, which needs it (link_tasks); kind is id's. With
 * two stages the next stage is also the previous one: one link. */
static inline void feed(pipe_plan *p, int32_t pid, int32_t id, int64_t s, int kind)
{
    int64_t src = pid / p->len;
    p->t[id].prod = pid;
    p->t[pid].cons = id;
    p->t[pid].cstage = (int32_t)s;
    p->t[pid].link = src == s ? LINK_NONE : kind == KIND_F || p->pp == 2 ? LINK_NEXT : LINK_PREV;
}

/* Data dependencies: F of chunk c needs F of c - 1 (on the previous stage), B of c needs B of
 * c + 1 (on the next), and B of the last chunk needs its own F (the loss). Each output has
 * exactly one consumer. Walked chunk by chunk through idx, whose rows are the micro-batches of
 * one (kind, chunk) in order: no search and no test of each task's kind. */
static void link_tasks(pipe_plan *p)
{
    int64_t nc = p->nchunk, pp = p->pp, m = p->m;
    const int32_t *fw = p->idx, *bw = p->idx + nc * m; /* idx[(kind * nc + c) * m + mb] */
    for (int64_t id = 0; id < pp * p->len; id++)
        p->ready[id] = -1;
    for (int64_t mb = 0; mb < m; mb++)
        p->ready[fw[mb]] = 0; /* F of chunk 0: the input, there from the start */
    for (int64_t c = 0; c < nc; c++) {
        int64_t s = c % pp;
        const int32_t *f = fw + c * m, *b = bw + c * m;
        const int32_t *fin = c > 0 ? fw + (c - 1) * m : NULL;
        const int32_t *bin = c + 1 < nc ? bw + (c + 1) * m : fw + c * m;
        for (int64_t mb = 0; mb < m; mb++) {
            if (fin)
                feed(p, fin[mb], f[mb], s, KIND_F);
            feed(p, bin[mb], b[mb], s, KIND_B);
        }
    }
}

/* Lay out and order the tasks of x's spec for m micro-batches, all in one allocation. */
void st__pipe_plan_init(pipe_plan *p, const pipe_ctx *x, int64_t m)
{
    int64_t pp = x->pp, len = 2 * m * x->v, n = pp * len, nidx = 2 * x->nchunk * m;
    size_t sz = (size_t)(3 * n + 3 * pp) * sizeof(st_time) + (size_t)(3 * pp) * sizeof(int64_t) +
                (size_t)n * sizeof(pipe_task) + (size_t)nidx * sizeof(int32_t) + (size_t)pp;
    char *b = st_xmalloc(sz);
    *p = (pipe_plan){.pp = pp,
                     .v = x->v,
                     .m = m,
                     .nchunk = x->nchunk,
                     .len = len,
                     .p2p = x->p2p,
                     .dur = x->dur,
                     .block = b};
    p->start = (st_time *)b;
    p->ready = p->start + n;
    p->send_end = p->ready + n;
    p->free_at = p->send_end + n;
    p->link_free = p->free_at + pp;
    p->warm = (int64_t *)(p->link_free + 2 * pp);
    p->next = p->warm + pp;
    p->stack = p->next + pp;
    p->t = (pipe_task *)(p->stack + pp);
    p->idx = (int32_t *)(p->t + n);
    p->flag = (unsigned char *)(p->idx + nidx);
    for (int64_t s = 0; s < pp; s++) {
        p->warm[s] = st_pipe_warmup(pp, x->v, m, s);
        p->next[s] = 0;
        p->free_at[s] = p->link_free[2 * s] = p->link_free[2 * s + 1] = 0;
        p->flag[s] = 0;
        build_stage(p, s);
    }
    link_tasks(p);
}

void st__pipe_plan_release(pipe_plan *p)
{
    free(p->block);
    p->block = NULL;
}

/* ---- List scheduling: each stage runs its list in order, a task starting when the stream is
 * free and its input has arrived. Times are fixed by those two rules alone (a max-plus
 * recurrence), so any evaluation order that respects dependencies gives the engine's times;
 * this one advances a stage until it blocks and requeues a stage when its input arrives. */
static void sweep_stage(pipe_plan *p, int64_t s)
{
    /* The plan's arrays in locals: the stores below are st_time (int64_t) ones, which could
     * alias p's int64_t fields as far as the compiler knows, so it would reload p->len, p->t and
     * the rest after each. The arithmetic is send_output's and dur_of's, unchanged. */
    const pipe_task *t = p->t;
    const st_time *dur = p->dur;
    st_time *start = p->start, *ready = p->ready, *send_end = p->send_end;
    st_time *lf = p->link_free + s * 2; /* lf[LINK_NEXT - 1], lf[LINK_PREV - 1] */
    int64_t *next = p->next;
    unsigned char *flag = p->flag;
    const int64_t len = p->len, nchunk = p->nchunk, base = s * len;
    const st_time p2p = p->p2p;
    int64_t pos = next[s];
    st_time free_at = p->free_at[s];
    for (; pos < len; pos++) {
        int64_t id = base + pos;
        st_time r = ready[id];
        if (r < 0)
            break;
        const pipe_task *u = &t[id];
        st_time go = tmax(free_at, r);
        start[id] = go;
        free_at = go + dur[u->kind * nchunk + u->chunk];
        if (u->cons < 0)
            continue;
        st_time arrive = free_at;
        if (u->link != LINK_NONE) {
            st_time send = tmax(free_at, lf[u->link - 1]);
            lf[u->link - 1] = send + p2p;
            arrive = send + p2p;
        }
        send_end[id] = arrive;
        ready[u->cons] = arrive;
        int64_t cs = u->cstage;
        if (cs != s && !flag[cs] && next[cs] == u->cons - cs * len) {
            flag[cs] = 1;
            p->stack[p->nstack++] = cs;
        }
    }
    next[s] = pos;
    p->free_at[s] = free_at;
}

void st__pipe_check_finished(const pipe_plan *p)
{
    for (int64_t s = 0; s < p->pp; s++)
        if (p->next[s] != p->len)
            ST_BUG("pipeline schedule deadlocked: stage %lld stopped at task %lld of %lld",
                   (long long)s, (long long)p->next[s], (long long)p->len);
}

void st__pipe_sweep_run(pipe_plan *p)
{
    p->nstack = 0;
    for (int64_t s = p->pp - 1; s >= 0; s--) {
        p->stack[p->nstack++] = s;
        p->flag[s] = 1;
    }
    while (p->nstack > 0) {
        int64_t s = p->stack[--p->nstack];
        p->flag[s] = 0;
        sweep_stage(p, s);
    }
    st__pipe_check_finished(p);
}

void st__pipe_summarize(const pipe_plan *p, int64_t busiest, pipe_summary *out)
{
    out->makespan = 0;
    out->exposed = 0;
    for (int64_t s = 0; s < p->pp; s++)
        out->makespan = tmax(out->makespan, end_of(p, s * p->len + p->len - 1));
    for (int64_t pos = 0; pos < p->len; pos++)
        out->exposed += task_wait(p, busiest, busiest * p->len + pos);
    for (int64_t c = 0; c < p->nchunk; c++) {
        out->lbe[c] = end_of(p, p->idx[(KIND_B * p->nchunk + c) * p->m + p->m - 1]);
        out->ffs[c] = p->start[p->idx[(KIND_F * p->nchunk + c) * p->m]];
    }
}

/* ---- The API. */

/* Refuse what the schedule cannot run. The step bound keeps every tick sum below 2^62: a
 * makespan is at most the sum of all task and send times (a longest dependency chain). */
static int check_spec(const st_pipe_spec *s)
{
    if (!s || s->pp < 1 || s->v < 1 || s->m < 1 || !s->fwd_s || !s->bwd_s)
        return ST_EINVAL;
    if (s->v > 1 && s->m % s->pp != 0)
        return ST_EINVAL;
    if (s->pp > INT32_MAX / 2 / s->v || s->m > INT32_MAX / 2 / (s->pp * s->v))
        return ST_EINVAL;
    double work = 0;
    for (int64_t c = 0; c < s->pp * s->v; c++) {
        if (!(s->fwd_s[c] >= 0) || !(s->bwd_s[c] >= 0))
            return ST_EINVAL;
        if (isinf(s->fwd_s[c]) || isinf(s->bwd_s[c]))
            return ST_ELIMIT; /* a collective past the engine's clock (models/fabric/net.h) */
        work += s->fwd_s[c] + s->bwd_s[c];
    }
    if (!(s->p2p_s >= 0))
        return ST_EINVAL;
    work += 2.0 * (double)(s->pp * s->v) * s->p2p_s;
    if (!(work * (double)s->m * 1e9 <= ST_PIPE_MAX_WORK_NS))
        return ST_ELIMIT;
    return 0;
}

static void ctx_init(pipe_ctx *x, const st_pipe_spec *s)
{
    *x = (pipe_ctx){.pp = s->pp,
                    .v = s->v,
                    .m = s->m,
                    .nchunk = s->pp * s->v,
                    .p2p = (st_time)llround(s->p2p_s * 1e9)};
    x->dur = st_xmalloc((size_t)(2 * x->nchunk) * sizeof *x->dur);
    for (int64_t c = 0; c < x->nchunk; c++) {
        x->dur[KIND_F * x->nchunk + c] = (st_time)llround(s->fwd_s[c] * 1e9);
        x->dur[KIND_B * x->nchunk + c] = (st_time)llround(s->bwd_s[c] * 1e9);
    }
    x->busy_per_mb = -1;
    for (int64_t st = 0; st < x->pp; st++) {
        st_time busy = 0;
        for (int64_t c = st; c < x->nchunk; c += x->pp)
            busy += x->dur[KIND_F * x->nchunk + c] + x->dur[KIND_B * x->nchunk + c];
        if (busy > x->busy_per_mb) {
            x->busy_per_mb = busy;
            x->busiest = st;
        }
    }
}

static int64_t run_full(const pipe_ctx *x, int mode, pipe_summary *sm, st_pipe_trace *trace)
{
    pipe_plan p;
    st__pipe_plan_init(&p, x, x->m);
    if (mode == ST__PIPE_ENGINE)
        st__pipe_engine_run(&p, trace);
    else
        st__pipe_sweep_run(&p);
    st__pipe_summarize(&p, x->busiest, sm);
    st__pipe_plan_release(&p);
    return x->m;
}

int st__pipe_simulate_mode(const st_pipe_spec *spec, int mode, st_pipe_result *out,
                           st_pipe_trace *trace)
{
    memset(out, 0, sizeof *out);
    int rc = check_spec(spec);
    if (rc)
        return rc;
    pipe_ctx x;
    ctx_init(&x, spec);
    pipe_summary sm = {.lbe = st_xmalloc((size_t)x.nchunk * sizeof *sm.lbe),
                       .ffs = st_xmalloc((size_t)x.nchunk * sizeof *sm.ffs)};
    if (trace)
        mode = ST__PIPE_ENGINE;
    int64_t simulated =
        mode == ST__PIPE_FAST ? st__pipe_run_fast(&x, &sm) : run_full(&x, mode, &sm, trace);
    st_time compute = x.m * x.busy_per_mb;
    out->makespan_s = (double)sm.makespan * 1e-9;
    out->compute_s = (double)compute * 1e-9;
    out->busiest = x.busiest;
    out->bubble_s = (double)(sm.makespan - compute) * 1e-9;
    out->p2p_exposed_s = (double)sm.exposed * 1e-9;
    out->last_bwd_end = st_xmalloc((size_t)x.nchunk * sizeof *out->last_bwd_end);
    out->first_fwd_start = st_xmalloc((size_t)x.nchunk * sizeof *out->first_fwd_start);
    for (int64_t c = 0; c < x.nchunk; c++) {
        out->last_bwd_end[c] = (double)sm.lbe[c] * 1e-9;
        out->first_fwd_start[c] = (double)sm.ffs[c] * 1e-9;
    }
    out->simulated_m = simulated;
    free(sm.lbe);
    free(sm.ffs);
    free(x.dur);
    return 0;
}

int st_pipe_simulate(const st_pipe_spec *spec, st_pipe_result *out, st_pipe_trace *trace)
{
    return st__pipe_simulate_mode(spec, ST__PIPE_FAST, out, trace);
}

void st_pipe_result_release(st_pipe_result *r)
{
    if (!r)
        return;
    free(r->last_bwd_end);
    free(r->first_fwd_start);
    memset(r, 0, sizeof *r);
}

void st_pipe_trace_release(st_pipe_trace *t)
{
    if (!t)
        return;
    free(t->spans);
    memset(t, 0, sizeof *t);
}
