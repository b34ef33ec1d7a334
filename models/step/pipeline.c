/* The pipeline schedule of one training step: Megatron-LM's 1F1B and interleaved 1F1B task
 * orders, run on the engine (each task completion an event) or by the equivalent list-scheduling
 * sweep, with whole steady-state periods added instead of simulated. docs/pipeline.md. */
#include "models/step/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/err.h"
#include "sim/xalloc.h"

enum { KIND_F = 0, KIND_B = 1 };
enum { LINK_NONE = 0, LINK_NEXT = 1, LINK_PREV = 2 };

/* One compute task: the forward or backward pass of one model chunk for one micro-batch. */
typedef struct task {
    int32_t prod;   /* the task whose output this one needs, -1 for none */
    int32_t cons;   /* the task that needs this one's output, -1 for none */
    int32_t cstage; /* the stage of cons */
    int32_t chunk;  /* global model chunk, 0 .. pp*v-1 */
    int32_t mb;     /* micro-batch */
    int32_t round;  /* steady-state round (see find_period); negative in the warm-up */
    uint8_t kind;   /* KIND_F or KIND_B */
    uint8_t link;   /* how the output reaches cons: LINK_NONE (same stage) or a link */
} task;

/* What every evaluation of one spec shares: sizes and task times in engine ticks. */
typedef struct ctx {
    int64_t pp, v, m, nchunk;
    st_time p2p;
    st_time *dur;        /* [2 * nchunk]: by kind * nchunk + chunk */
    int64_t busiest;     /* the stage with the most compute (lowest on ties) */
    st_time busy_per_mb; /* its compute per micro-batch */
} ctx;

/* The schedule for m micro-batches: each stage's ordered task list, stage after stage (task id =
 * stage * len + position), and the times one evaluation gave them. */
typedef struct plan {
    int64_t pp, v, m, nchunk, len; /* len: tasks per stage, 2 * m * v */
    st_time p2p;
    const st_time *dur;
    st_time *start;     /* [pp * len] */
    st_time *ready;     /* [pp * len]: when the input arrived, -1 while it has not */
    st_time *send_end;  /* [pp * len]: when the output reached its consumer (tasks with one) */
    st_time *free_at;   /* [pp]: when the compute stream is next free */
    st_time *link_free; /* [2 * pp]: when each outgoing link is next free */
    int64_t *warm;      /* [pp]: warm-up forwards */
    int64_t *next;      /* [pp]: position of the next task to run */
    int64_t *stack;     /* [pp]: stages to advance (sweep) */
    int64_t nstack;
    task *t;             /* [pp * len] */
    int32_t *idx;        /* [2 * nchunk * m]: task id of (kind, chunk, micro-batch) */
    unsigned char *flag; /* [pp]: queued (sweep) or busy (engine) */
    void *block;
} plan;

static inline st_time tmax(st_time a, st_time b)
{
    return a > b ? a : b;
}

/* Forward passes a stage runs before its first backward: Megatron-LM's schedules.py,
 * forward_backward_pipelining_without_interleaving and ..._with_interleaving (counted in
 * chunk-micro-batches, and everything when m == pp under interleaving). */
static int64_t warmup(int64_t pp, int64_t v, int64_t m, int64_t s)
{
    int64_t total = m * v, w;
    if (v == 1)
        return pp - s - 1 < m ? pp - s - 1 : m;
    if (m == pp)
        return total;
    w = (pp - s - 1) * 2 + (v - 1) * pp;
    return w < total ? w : total;
}

/* Megatron's numbering of a stage's forward (or backward) iterations: groups of pp micro-batches
 * run chunk by chunk (get_model_chunk_id, get_microbatch_id_in_model_chunk); backwards visit
 * the chunks in reverse. Stepped one iteration at a time, so building needs no division. */
typedef struct iter {
    int64_t group, lc, r; /* iteration = (group * v + lc) * pp + r */
} iter;

static inline void iter_next(const plan *p, iter *it)
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
static inline void put(plan *p, int64_t s, int64_t *pos, int kind, iter *it, int64_t round)
{
    int64_t lc = kind == KIND_B ? p->v - 1 - it->lc : it->lc;
    int64_t c = lc * p->pp + s, mb = it->group * p->pp + it->r, id = s * p->len + *pos;
    p->t[id] = (task){.prod = -1,
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
 * Rounds: T = 2 * rs * v positions, rs = pp under interleaving, else 1 (see find_period). */
static void build_stage(plan *p, int64_t s)
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

/* Data dependencies: F of chunk c needs F of c - 1 (on the previous stage), B of c needs B of
 * c + 1 (on the next), and B of the last chunk needs its own F (the loss). Each output has
 * exactly one consumer. */
static void link_tasks(plan *p)
{
    int64_t nc = p->nchunk, pp = p->pp;
    for (int64_t s = 0; s < pp; s++) {
        int64_t prev = s == 0 ? pp - 1 : s - 1, next = s == pp - 1 ? 0 : s + 1;
        for (int64_t id = s * p->len; id < (s + 1) * p->len; id++) {
            task *u = &p->t[id];
            int64_t pk = u->kind, pc = u->kind == KIND_F ? u->chunk - 1 : u->chunk + 1;
            int64_t src = u->kind == KIND_F ? prev : next;
            if (u->kind == KIND_B && u->chunk == nc - 1) {
                pk = KIND_F;
                pc = nc - 1;
                src = s;
            }
            p->ready[id] = pc < 0 ? 0 : -1;
            if (pc < 0)
                continue;
            int32_t pid = p->idx[(pk * nc + pc) * p->m + u->mb];
            u->prod = pid;
            p->t[pid].cons = (int32_t)id;
            p->t[pid].cstage = (int32_t)s;
            /* With two stages the next stage is also the previous one: one link. */
            p->t[pid].link = src == s                       ? LINK_NONE
                             : u->kind == KIND_F || pp == 2 ? LINK_NEXT
                                                            : LINK_PREV;
        }
    }
}

/* Lay out and order the tasks of x's spec for m micro-batches, all in one allocation. */
static void plan_init(plan *p, const ctx *x, int64_t m)
{
    int64_t pp = x->pp, len = 2 * m * x->v, n = pp * len, nidx = 2 * x->nchunk * m;
    size_t sz = (size_t)(3 * n + 3 * pp) * sizeof(st_time) + (size_t)(3 * pp) * sizeof(int64_t) +
                (size_t)n * sizeof(task) + (size_t)nidx * sizeof(int32_t) + (size_t)pp;
    char *b = st_xmalloc(sz);
    *p = (plan){.pp = pp,
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
    p->t = (task *)(p->stack + pp);
    p->idx = (int32_t *)(p->t + n);
    p->flag = (unsigned char *)(p->idx + nidx);
    for (int64_t s = 0; s < pp; s++) {
        p->warm[s] = warmup(pp, x->v, m, s);
        p->next[s] = 0;
        p->free_at[s] = p->link_free[2 * s] = p->link_free[2 * s + 1] = 0;
        p->flag[s] = 0;
        build_stage(p, s);
    }
    link_tasks(p);
}

static void plan_release(plan *p)
{
    free(p->block);
    p->block = NULL;
}

static inline st_time dur_of(const plan *p, int64_t id)
{
    return p->dur[p->t[id].kind * p->nchunk + p->t[id].chunk];
}

static inline st_time end_of(const plan *p, int64_t id)
{
    return p->start[id] + dur_of(p, id);
}

/* Task id of stage s (which has a consumer) finished at `end`: send its output and return when
 * it arrives. Each link is a FIFO server fed by one stage's stream in that stream's order, so
 * the send starts when both the data and the link are free; the sender's compute goes on
 * meanwhile. Output that stays on the stage is not sent. */
static st_time send_output(plan *p, int64_t s, int64_t id, st_time end)
{
    const task *u = &p->t[id];
    if (u->link == LINK_NONE)
        return p->send_end[id] = end;
    st_time *lf = &p->link_free[s * 2 + (u->link - 1)];
    st_time go = tmax(end, *lf);
    *lf = go + p->p2p;
    return p->send_end[id] = go + p->p2p;
}

/* ---- List scheduling: each stage runs its list in order, a task starting when the stream is
 * free and its input has arrived. Times are fixed by those two rules alone (a max-plus
 * recurrence), so any evaluation order that respects dependencies gives the engine's times;
 * this one advances a stage until it blocks and requeues a stage when its input arrives. */
static void sweep_stage(plan *p, int64_t s)
{
    int64_t pos = p->next[s], base = s * p->len;
    st_time free_at = p->free_at[s];
    for (; pos < p->len; pos++) {
        int64_t id = base + pos;
        if (p->ready[id] < 0)
            break;
        const task *u = &p->t[id];
        p->start[id] = tmax(free_at, p->ready[id]);
        free_at = p->start[id] + dur_of(p, id);
        if (u->cons < 0)
            continue;
        p->ready[u->cons] = send_output(p, s, id, free_at);
        int64_t cs = u->cstage;
        if (cs != s && !p->flag[cs] && p->next[cs] == u->cons - cs * p->len) {
            p->flag[cs] = 1;
            p->stack[p->nstack++] = cs;
        }
    }
    p->next[s] = pos;
    p->free_at[s] = free_at;
}

static void check_finished(const plan *p)
{
    for (int64_t s = 0; s < p->pp; s++)
        if (p->next[s] != p->len)
            ST_BUG("pipeline schedule deadlocked: stage %lld stopped at task %lld of %lld",
                   (long long)s, (long long)p->next[s], (long long)p->len);
}

static void sweep_run(plan *p)
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
    check_finished(p);
}

/* ---- The same schedule on the engine: a "done" event per task and an "arrive" event per
 * send. A stage starts its next task when the later of the two (stream free, input arrived)
 * fires, which is the sweep's max(). */
typedef struct eng_run {
    plan *p;
    st_engine *eng;
    int k_done, k_arrive;
    st_pipe_trace *trace;
} eng_run;

static void trace_add(st_pipe_trace *tr, int64_t stage, int stream, const char *what, const task *u,
                      st_time start, st_time dur)
{
    tr->spans = st_xgrow(tr->spans, sizeof *tr->spans, tr->n + 1, &tr->cap);
    st_pipe_span *sp = &tr->spans[tr->n++];
    memset(sp, 0, sizeof *sp);
    sp->stage = stage;
    sp->stream = stream;
    char name[48]; /* the longest possible name, cut to the span's field */
    snprintf(name, sizeof name, "%s%c %ld.%ld", what, u->kind == KIND_F ? 'F' : 'B', (long)u->mb,
             (long)u->chunk);
    snprintf(sp->name, sizeof sp->name, "%.*s", (int)sizeof sp->name - 1, name);
    sp->start_s = (double)start * 1e-9;
    sp->dur_s = (double)dur * 1e-9;
}

static void eng_try_start(eng_run *r, int64_t s)
{
    plan *p = r->p;
    if (p->flag[s] || p->next[s] >= p->len)
        return;
    int64_t id = s * p->len + p->next[s];
    if (p->ready[id] < 0)
        return;
    st_time now = st_engine_now(r->eng);
    st_payload pl = {.i = {id}};
    p->start[id] = now;
    p->flag[s] = 1;
    st_engine_schedule(r->eng, r->k_done, now + dur_of(p, id), &pl);
}

static void on_done(st_engine *eng, void *state, const st_event *ev)
{
    eng_run *r = state;
    plan *p = r->p;
    int64_t id = ev->data.i[0], s = id / p->len;
    const task *u = &p->t[id];
    if (r->trace)
        trace_add(r->trace, s, 0, "", u, p->start[id], dur_of(p, id));
    p->flag[s] = 0;
    p->next[s]++;
    if (u->cons >= 0) {
        st_time at = send_output(p, s, id, ev->t);
        if (u->link == LINK_NONE) {
            p->ready[u->cons] = at;
        } else {
            st_payload pl = {.i = {u->cons}};
            if (r->trace)
                trace_add(r->trace, s, u->link, "send ", u, at - p->p2p, p->p2p);
            st_engine_schedule(eng, r->k_arrive, at, &pl);
        }
    }
    eng_try_start(r, s);
}

static void on_arrive(st_engine *eng, void *state, const st_event *ev)
{
    eng_run *r = state;
    (void)eng;
    r->p->ready[ev->data.i[0]] = ev->t;
    eng_try_start(r, ev->data.i[0] / r->p->len);
}

static void engine_run(plan *p, st_pipe_trace *trace)
{
    eng_run r = {.p = p, .eng = st_engine_new(), .trace = trace};
    r.k_done = st_engine_register(r.eng, "pipe.done", on_done, &r);
    r.k_arrive = st_engine_register(r.eng, "pipe.arrive", on_arrive, &r);
    for (int64_t s = 0; s < p->pp; s++)
        eng_try_start(&r, s);
    st_engine_run(r.eng, ST_TIME_MAX);
    st_engine_free(r.eng);
    check_finished(p);
}

/* ---- Results of an evaluated plan, in ticks. */
typedef struct summary {
    st_time makespan;
    st_time exposed; /* p2p waits of the busiest stage */
    st_time *lbe;    /* [nchunk]: last backward end per chunk, owned by the caller */
    st_time *ffs;    /* [nchunk]: first forward start per chunk, owned by the caller */
} summary;

/* How long task id waited for a send once its producer's data was computed and its own stream
 * was free (0 when its input came from the same stage or from nowhere). */
static st_time task_wait(const plan *p, int64_t s, int64_t id)
{
    const task *u = &p->t[id];
    if (u->prod < 0 || p->t[u->prod].link == LINK_NONE)
        return 0;
    st_time before = id > s * p->len ? end_of(p, id - 1) : 0;
    return p->start[id] - tmax(before, end_of(p, u->prod));
}

static void summarize(const plan *p, int64_t busiest, summary *out)
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

/* ---- The steady state. Rounds are numbered per stage from the end of its warm-up: round j of
 * stage s is positions warm[s] + j*T .. + T-1, where T = 2 * rs * v and rs is 1 under 1F1B and
 * pp under interleaving (Megatron's groups of pp micro-batches). In the steady region position
 * q + T holds the same pass of the same chunk as q, rs micro-batches later. The times become
 * periodic: after a transient, round j runs exactly lambda after round j - c, for a period of
 * c rounds (c > 1 happens, e.g. 1F1B with sends, whose critical cycle spans the pipeline).
 * docs/pipeline.md has the argument that makes the shortcut exact. */
typedef struct period {
    int64_t j;      /* the last round of the window that proved the period */
    int64_t c;      /* rounds per period */
    st_time lambda; /* how much later each round runs than the one c rounds before */
    st_time wait;   /* p2p waits of the busiest stage in one period (rounds j-c+1 .. j) */
} period;

static inline int64_t imin(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* reach[r] = the largest r - r' over the tasks of rounds >= r (cool-down included) and the
 * rounds r' of what each of them reads: its stream predecessor, its producer, the previous send
 * on its link. That much history determines everything after round r. Only interleaving's
 * wrap-around (stage 0 reading stage pp-1) reads ahead in the steady rounds (< ns), by less than
 * a round; the argument in docs/pipeline.md needs that, so it is checked here. */
static void reach_suffix(const plan *p, int64_t *reach, int64_t nr, int64_t ns)
{
    for (int64_t s = 0; s < p->pp; s++) {
        int64_t last[2] = {-1, -1};
        for (int64_t id = s * p->len; id < (s + 1) * p->len; id++) {
            const task *u = &p->t[id];
            int64_t r = u->round, lo = r;
            int sends = u->cons >= 0 && u->link != LINK_NONE;
            if (id > s * p->len)
                lo = imin(lo, p->t[id - 1].round);
            if (u->prod >= 0) {
                lo = imin(lo, p->t[u->prod].round);
                if (r >= 0 && r < ns && p->t[u->prod].round > r + 1)
                    ST_BUG("pipeline task reads more than a round ahead");
            }
            if (sends && last[u->link - 1] >= 0)
                lo = imin(lo, p->t[last[u->link - 1]].round);
            if (r >= 0 && r - lo > reach[r])
                reach[r] = r - lo;
            if (sends)
                last[u->link - 1] = id;
        }
    }
    for (int64_t r = nr - 2; r >= 0; r--)
        if (reach[r + 1] > reach[r])
            reach[r] = reach[r + 1];
}

/* A hash of round j's times relative to its first task on stage 0 (*first): two rounds with
 * equal hashes are probably shifts of each other, which rounds_shifted() then checks. */
static uint64_t round_hash(const plan *p, int64_t T, int64_t j, st_time *first)
{
    uint64_t h = 14695981039346656037u;
    *first = p->start[p->warm[0] + j * T];
    for (int64_t s = 0; s < p->pp; s++) {
        int64_t base = s * p->len + p->warm[s] + j * T;
        for (int64_t id = base; id < base + T; id++) {
            h = (h ^ (uint64_t)(p->start[id] - *first)) * 1099511628211u;
            if (p->t[id].cons >= 0)
                h = (h ^ (uint64_t)(p->send_end[id] - *first)) * 1099511628211u;
        }
    }
    return h;
}

/* 1 if every task of round j, on every stage, starts and delivers its output exactly lambda
 * after its counterpart of round j - c. */
static int rounds_shifted(const plan *p, int64_t T, int64_t j, int64_t c, st_time lambda)
{
    int64_t dmb = c * T / 2 / p->v; /* c rounds later is dmb micro-batches later */
    for (int64_t s = 0; s < p->pp; s++) {
        int64_t base = s * p->len + p->warm[s] + j * T;
        for (int64_t id = base; id < base + T; id++) {
            int64_t was = id - c * T;
            const task *u = &p->t[id], *w = &p->t[was];
            if (u->kind != w->kind || u->chunk != w->chunk || u->mb != w->mb + dmb)
                ST_BUG("pipeline steady state is not periodic in its positions");
            if (p->start[id] - p->start[was] != lambda ||
                (u->cons >= 0 && p->send_end[id] - p->send_end[was] != lambda))
                return 0;
        }
    }
    return 1;
}

/* 1 if rounds j-r+1 .. j are each the round c before shifted by one lambda. */
static int window_periodic(const plan *p, int64_t T, int64_t j, int64_t r, int64_t c,
                           const uint64_t *hash, const st_time *first)
{
    st_time lambda = first[j] - first[j - c];
    for (int64_t i = j - r + 1; i <= j; i++)
        if (hash[i] != hash[i - c] || first[i] - first[i - c] != lambda)
            return 0;
    for (int64_t i = j - r + 1; i <= j; i++)
        if (!rounds_shifted(p, T, i, c, lambda))
            return 0;
    return 1;
}

/* Find the earliest round j, with one fully steady round after it, and the shortest period c
 * such that the window before j repeats (window_periodic). Returns 1 and fills *out, or 0.
 * Periods longer than 4 pp + 4 rounds are not looked for (none has been seen beyond pp): that
 * keeps the search linear in the rounds, and such a spec is simply simulated in full. */
static int find_period(const plan *p, int64_t T, int64_t busiest, period *out)
{
    int64_t ns = INT64_MAX, nr = (p->len - 1) / T + 1, found = 0;
    for (int64_t s = 0; s < p->pp; s++)
        ns = imin(ns, 2 * (p->m * p->v - p->warm[s]) / T);
    if (ns < 3)
        return 0;
    int64_t *reach = st_xcalloc((size_t)nr, sizeof *reach);
    uint64_t *hash = st_xmalloc((size_t)ns * sizeof *hash);
    st_time *first = st_xmalloc((size_t)ns * sizeof *first);
    reach_suffix(p, reach, nr, ns);
    hash[0] = round_hash(p, T, 0, &first[0]);
    for (int64_t j = 1; j <= ns - 2 && !found; j++) {
        hash[j] = round_hash(p, T, j, &first[j]);
        for (int64_t c = 1; !found && c <= 4 * p->pp + 4; c++) {
            /* Rounds after j are like those after j - c: what they read reaches back
             * reach[j + 1 - c] rounds, and the window must start at round c or later. */
            int64_t r = reach[j + 1 - c];
            if (j - r + 1 < c)
                break;
            found = window_periodic(p, T, j, r, c, hash, first);
            if (found)
                *out = (period){.j = j, .c = c, .lambda = first[j] - first[j - c]};
        }
    }
    for (int64_t q = 0; found && q < out->c * T; q++)
        out->wait +=
            task_wait(p, busiest, busiest * p->len + p->warm[busiest] + (out->j + 1) * T - 1 - q);
    free(reach);
    free(hash);
    free(first);
    return (int)found;
}

/* The smallest m1 (a whole number of rounds short of m) whose schedule has k steady rounds on
 * every stage, and not the m == pp special case of interleaving. */
static int64_t shortened_m(const ctx *x, int64_t rs, int64_t k)
{
    int64_t w0 = x->v == 1 ? x->pp - 1 : 2 * (x->pp - 1) + (x->v - 1) * x->pp;
    int64_t m1 = (w0 + k * rs * x->v + x->v - 1) / x->v;
    m1 = (m1 + rs - 1) / rs * rs;
    if (x->v > 1 && m1 == x->pp)
        m1 += x->pp;
    return m1;
}

/* Simulate m1 micro-batches; when a period shows, make the number of missing rounds a multiple
 * of it (simulating up to c - 1 rounds more) and add them as whole periods. Returns the
 * micro-batches simulated, or 0 when no period showed (or the remainder left nothing to skip). */
static int64_t try_shortcut(const ctx *x, int64_t rs, int64_t m1, summary *sm)
{
    int64_t T = 2 * rs * x->v;
    period per;
    plan p;
    plan_init(&p, x, m1);
    sweep_run(&p);
    int found = find_period(&p, T, x->busiest, &per);
    int64_t rem = found ? (x->m - m1) / rs % per.c : 0;
    if (rem) {
        plan_release(&p);
        m1 += rem * rs;
        if (m1 >= x->m)
            return 0;
        plan_init(&p, x, m1); /* same rounds up to per.j, so per still holds */
        sweep_run(&p);
    }
    if (found) {
        int64_t periods = (x->m - m1) / rs / per.c;
        summarize(&p, x->busiest, sm);
        sm->makespan += periods * per.lambda;
        sm->exposed += periods * per.wait;
        for (int64_t c = 0; c < x->nchunk; c++)
            sm->lbe[c] += periods * per.lambda;
    }
    plan_release(&p);
    return found ? m1 : 0;
}

/* Steady rounds of the first shortened run, doubled after each run that shows no period while
 * a run stays within half of m (so a spec whose period never shows costs at most about twice
 * the full sweep). Plain 1F1B with sends is periodic only over about pp rounds: its critical
 * cycle runs a micro-batch's forwards down the pipeline and its backwards back up, pp rounds
 * long, so it starts there; other schedules usually repeat from the second or third round. */
static int64_t run_fast(const ctx *x, summary *sm)
{
    int64_t rs = x->v > 1 ? x->pp : 1;
    int64_t k = x->v == 1 && x->p2p > 0 ? 2 * x->pp + 4 : 4;
    for (;; k *= 2) {
        int64_t m1 = shortened_m(x, rs, k), done;
        if (2 * m1 > x->m)
            break;
        if ((done = try_shortcut(x, rs, m1, sm)) > 0)
            return done;
    }
    plan p;
    plan_init(&p, x, x->m);
    sweep_run(&p);
    summarize(&p, x->busiest, sm);
    plan_release(&p);
    return x->m;
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
        if (!isfinite(s->fwd_s[c]) || !isfinite(s->bwd_s[c]) || s->fwd_s[c] < 0 || s->bwd_s[c] < 0)
            return ST_EINVAL;
        work += s->fwd_s[c] + s->bwd_s[c];
    }
    if (!isfinite(s->p2p_s) || s->p2p_s < 0)
        return ST_EINVAL;
    work += 2.0 * (double)(s->pp * s->v) * s->p2p_s;
    if (work * (double)s->m * 1e9 > 4.0e18)
        return ST_EINVAL;
    return 0;
}

static void ctx_init(ctx *x, const st_pipe_spec *s)
{
    *x = (ctx){.pp = s->pp,
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

static int64_t run_full(const ctx *x, int mode, summary *sm, st_pipe_trace *trace)
{
    plan p;
    plan_init(&p, x, x->m);
    if (mode == ST__PIPE_ENGINE)
        engine_run(&p, trace);
    else
        sweep_run(&p);
    summarize(&p, x->busiest, sm);
    plan_release(&p);
    return x->m;
}

int st__pipe_simulate_mode(const st_pipe_spec *spec, int mode, st_pipe_result *out,
                           st_pipe_trace *trace)
{
    memset(out, 0, sizeof *out);
    int rc = check_spec(spec);
    if (rc)
        return rc;
    ctx x;
    ctx_init(&x, spec);
    summary sm = {.lbe = st_xmalloc((size_t)x.nchunk * sizeof *sm.lbe),
                  .ffs = st_xmalloc((size_t)x.nchunk * sizeof *sm.ffs)};
    if (trace)
        mode = ST__PIPE_ENGINE;
    int64_t simulated = mode == ST__PIPE_FAST ? run_fast(&x, &sm) : run_full(&x, mode, &sm, trace);
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
