/* A serving replica, iteration by iteration: requests arrive, wait, are admitted into the
 * running batch while the token budget, the request cap and the KV-cache blocks allow, decode one
 * token per iteration, and leave with their last; a full cache pushes the latest admitted back
 * to the queue, to be recomputed. The scheduling is vLLM V1's (vllm/v1/core/sched/scheduler.py,
 * Scheduler.schedule: running requests first, in order, then waiting ones, none admitted in an
 * iteration that preempted); under pipeline parallelism its batch queue of pp batches in flight.
 * docs/models/inference.md, "The engine" and "Pipeline parallelism". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve_internal.h"
#include "sim/err.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

typedef struct req {
    double arrival_s, first_s, done_s; /* arrival_s: at the engine */
    double held_s;     /* waited before reaching it, for a cold start: in its time to first token */
    int64_t in, out;   /* its prompt and output tokens */
    int64_t computed;  /* tokens whose K and V are in the cache */
    int64_t generated; /* output tokens produced */
    int64_t blocks;    /* KV-cache blocks held */
    int64_t sched;     /* tokens scheduled in its batch in flight */
    int64_t batch;     /* that batch's number, 0 when none: not to be scheduled again */
} req;

/* A batch in the pipeline: its number and when its last stage ends. */
typedef struct flight {
    int64_t id;
    double end_s;
} flight;

/* One replica's run: its requests, the waiting queue (a ring: preempted requests go back to its
 * front), the running requests in admission order, the cache's free blocks, and under pipeline
 * parallelism the batches in flight (at most pp, oldest first) and when each stage is next
 * free. */
typedef struct engine {
    const st_inference_cfg *ic;
    const st_serve_memory *mem; /* how the cache counts its blocks */
    st__serve_cost *cost;
    req *r;
    int64_t n, next, done;
    int64_t cap;         /* > 0: requests in flight at most; next waits for a completion past it */
    const double *think; /* a closed loop's unit exponential draws, one a request: request i's
                            client thinks ic->think_s times draw i before sending it; NULL:
                            none */
    double *pend;        /* with think: the sends released and not yet due, a min-heap */
    int64_t pend_n;
    int64_t *wait, wait_head, wait_n;
    int64_t *run, run_n;
    int64_t free_blocks;
    double now;
    flight *fl;
    int64_t fl_head, fl_n, batch_id;
    double *stage_free;
    int64_t iterations, preemptions, batch_sum;
    double busy_s, comm_s, pass_s;
    int64_t tokens_out, tokens_all; /* output tokens produced so far, and in all: the progress */
    int64_t reported;               /* the iterations at the last report */
} engine;

/* The tokens q's cache must hold before it produces its next one. */
static int64_t target(const req *q)
{
    return q->in + q->generated;
}

static void push_back(engine *e, int64_t id)
{
    e->wait[(e->wait_head + e->wait_n++) % e->n] = id;
}

static void push_front(engine *e, int64_t id)
{
    e->wait_head = (e->wait_head + e->n - 1) % e->n;
    e->wait[e->wait_head] = id;
    e->wait_n++;
}

static int64_t pop_front(engine *e)
{
    int64_t id = e->wait[e->wait_head];
    e->wait_head = (e->wait_head + 1) % e->n;
    e->wait_n--;
    return id;
}

/* The last admitted running request not in a batch in flight (at index i or later) gives its
 * blocks back and waits again at the queue's front, its cache gone: it will recompute its
 * prompt and what it generated (vLLM V1's only preemption mode). Returns its index, or -1 when
 * every one from i on is in flight. */
static int64_t preempt_last(engine *e, int64_t i)
{
    int64_t j = e->run_n - 1;
    while (j >= i && e->r[e->run[j]].batch != 0 && e->r[e->run[j]].batch != e->batch_id)
        j--;
    if (j < i)
        return -1;
    int64_t id = e->run[j];
    req *q = &e->r[id];
    e->free_blocks += q->blocks;
    q->blocks = q->computed = q->sched = q->batch = 0;
    memmove(&e->run[j], &e->run[j + 1], (size_t)(e->run_n - j - 1) * sizeof *e->run);
    e->run_n--;
    push_front(e, id);
    e->preemptions++;
    return j;
}

/* Give request q n more tokens this iteration if the cache has their blocks (under admission:
 * reserve, the blocks of its whole prompt and output, taken at its admission); 0 if not. A
 * windowed layer's blocks behind its window go back first (need < 0 gives them back). */
static inline int take(engine *e, req *q, int64_t n)
{
    int reserve = e->ic->admission == ST_ADMIT_RESERVE;
    int64_t upto = reserve ? q->in + q->out : q->computed + n;
    int64_t need = st_serve_blocks(e->mem, q->computed, upto, reserve) - q->blocks;
    if (need > e->free_blocks)
        return 0;
    q->blocks += need;
    e->free_blocks -= need;
    q->sched = n;
    q->batch = e->batch_id;
    return 1;
}

/* The tokens request q finds in the prefix cache as it is admitted (requests.cached_prompt): its
 * share of the prompt, in whole blocks, at most its tokens less one, which the engine computes to
 * sample from (vLLM V1's KVCacheManager.get_computed_blocks: "When all tokens hit the cache, we
 * must recompute the last token", and a hit ends on a block's boundary). A request pushed back by
 * a preemption finds its prompt there again. */
static int64_t cached_tokens(const engine *e, const req *q)
{
    int64_t b = e->mem->block_tokens > 0 ? e->mem->block_tokens : 1;
    int64_t hit = (int64_t)(e->ic->cached_share * (double)q->in);
    if (hit > target(q) - 1)
        hit = target(q) - 1;
    return hit > 0 ? hit / b * b : 0;
}

/* Running requests first, each up to what it still needs (one token once decoding), the latest
 * admitted preempted while an earlier one lacks blocks; then, unless that happened, waiting
 * requests in order while the request cap and the budget allow. */
static void schedule(engine *e)
{
    const st_inference_cfg *ic = e->ic;
    int64_t budget = ic->max_batch_tokens;
    int preempted = 0;
    for (int64_t i = 0; i < e->run_n && budget > 0; i++) {
        req *q = &e->r[e->run[i]];
        if (q->batch != 0) /* in a batch in flight: its next token waits for that one */
            continue;
        int64_t want = target(q) - q->computed, n = want < budget ? want : budget;
        int64_t j = i + 1; /* past i: q kept its place */
        while (!take(e, q, n) && (j = preempt_last(e, i)) > i)
            preempted = 1;
        if (j == i) { /* q itself went back to the queue */
            preempted = 1;
            break;
        }
        budget -= n;
    }
    while (!preempted && e->wait_n > 0 && e->run_n < ic->max_seqs && budget > 0) {
        req *q = &e->r[e->wait[e->wait_head]];
        if (q->computed == 0)
            q->computed = cached_tokens(e, q);
        int64_t want = target(q) - q->computed;
        int64_t n = ic->chunked_prefill && want > budget ? budget : want;
        if (n > budget || !take(e, q, n))
            break;
        e->run[e->run_n++] = pop_front(e);
        budget -= n;
    }
}

/* The iteration the scheduled tokens make: decodes (one token of a request past its first
 * output, its cache read whole) and prefill chunks (attention over the chunk and its past). */
static st__serve_batch batch_of(const engine *e)
{
    /* sums in locals, the keys in an integer (exact, as the double they become is below 2^53):
     * one pass over the running requests every iteration, the engine's hottest loop */
    int64_t requests = 0, tokens = 0, sampled = 0, decodes = 0, keys = 0, keys_w = 0;
    double prefill = 0, prefill_w = 0;
    const int64_t id = e->batch_id, window = e->mem->window;
    for (int64_t i = 0; i < e->run_n; i++) {
        const req *q = &e->r[e->run[i]];
        if (q->sched <= 0 || q->batch != id)
            continue;
        requests++;
        tokens += q->sched;
        sampled += q->computed + q->sched == target(q);
        if (q->generated > 0 && q->sched == 1 && q->computed + 1 == target(q)) {
            decodes++;
            keys += q->computed + 1;
            keys_w += window > 0 && q->computed + 1 > window ? window : q->computed + 1;
        } else {
            prefill += st__serve_prefill_s(e->cost, q->sched, q->computed);
            if (window > 0)
                prefill_w += st__serve_prefill_window_s(e->cost, q->sched, q->computed, window);
        }
    }
    return (st__serve_batch){.requests = requests,
                             .tokens = tokens,
                             .sampled = sampled,
                             .decodes = decodes,
                             .decode_keys = (double)keys,
                             .prefill_attn_s = prefill,
                             .decode_keys_window = (double)keys_w,
                             .prefill_attn_window_s = prefill_w};
}

/* The pending sends' heap, smallest first. */
static void pend_push(engine *e, double t)
{
    int64_t i = e->pend_n++;
    for (; i > 0 && e->pend[(i - 1) / 2] > t; i = (i - 1) / 2)
        e->pend[i] = e->pend[(i - 1) / 2];
    e->pend[i] = t;
}

static double pend_pop(engine *e)
{
    double top = e->pend[0], last = e->pend[--e->pend_n];
    int64_t i = 0, n = e->pend_n;
    for (int64_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && e->pend[c + 1] < e->pend[c])
            c++;
        if (!(e->pend[c] < last))
            break;
        e->pend[i] = e->pend[c];
    }
    if (n > 0)
        e->pend[i] = last;
    return top;
}

/* Whether request next comes from a closed loop's pending sends: every one of a thinking loop
 * (start_thinking, release_next). */
static int from_pend(const engine *e)
{
    return e->think != NULL;
}

/* Under a cap, the e->done-th completion frees its place for request cap + done - 1, whose
 * client sends it now, or (thinking) its think time later: it reaches the engine the front end's
 * time per request after that, or at its own arrival if that is later (a capped Poisson
 * stream's). Thinking clients' sends come due out of order, so they wait in a heap and the next
 * request takes the earliest (the requests of a loop differ only in their draws). */
static void release_next(engine *e)
{
    int64_t k = e->cap + e->done - 1;
    if (e->cap <= 0 || k >= e->n)
        return;
    double at = e->now + e->ic->frontend_request_s;
    if (e->think) { /* the first cap draws are the clients' first thinks (start_thinking) */
        pend_push(e, at + e->ic->think_s * e->think[k]);
        return;
    }
    if (at > e->r[k].arrival_s)
        e->r[k].arrival_s = at;
}

/* Thinking clients think before their first request too, so the loop starts as it goes on,
 * each client at its own phase, not as one wave of prompts at once: the first cap sends join
 * the pending ones, think_s times draws 0 .. cap - 1 after their arrivals. */
static void start_thinking(engine *e)
{
    int64_t m = e->cap < e->n ? e->cap : e->n;
    for (int64_t i = 0; i < m; i++)
        pend_push(e, e->r[i].arrival_s + e->ic->think_s * e->think[i]);
}

/* Whether the next request is its client's to send: always without a cap, else while fewer
 * than cap are in flight. */
static int released(const engine *e)
{
    return e->next < e->n && (e->cap <= 0 || e->next < e->cap + e->done);
}

/* When the next released request reaches the engine. */
static double next_arrival(const engine *e)
{
    return from_pend(e) ? e->pend[0] : e->r[e->next].arrival_s;
}

/* Batch `id` ends at e->now: its tokens are in the cache, every request of it that reached its
 * target produced a token, and those with all their tokens leave. */
static void finish_batch(engine *e, int64_t id_batch)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < e->run_n; i++) {
        int64_t id = e->run[i];
        req *q = &e->r[id];
        if (q->batch != id_batch) {
            e->run[kept++] = id;
            continue;
        }
        q->computed += q->sched;
        int produced = q->sched > 0 && q->computed == target(q);
        q->sched = q->batch = 0;
        if (produced && ++q->generated == 1)
            q->first_s = e->now;
        e->tokens_out += produced;
        if (q->generated >= q->out) {
            q->done_s = e->now;
            e->free_blocks += q->blocks;
            q->blocks = 0;
            e->done++;
            release_next(e);
            continue;
        }
        e->run[kept++] = id;
    }
    e->run_n = kept;
}

/* The batch's time through every stage, each stage starting once the one before has handed it
 * over and the stage has finished the batch before (a flow shop): when its last stage ends. The
 * host's time on the iteration (the front end's, st_inference_cfg.frontend_iteration_s) comes
 * first, the GPUs idle through it. The stages' kernel and all-reduce time, averaged over the
 * replica's GPUs, is what the plant sees; its time through them, an iteration's. One stage: the
 * iteration as it is. */
static double run_batch(engine *e, const st__serve_batch *b)
{
    st__serve_cost *c = e->cost;
    double host = e->ic->frontend_iteration_s;
    if (c->pp == 1) {
        double comm, dt = st__serve_iteration_s(c, b, &comm);
        e->stage_free[0] = e->now + host + dt;
        e->busy_s += dt;
        e->comm_s += comm;
        e->pass_s += host + dt;
        return e->stage_free[0];
    }
    double t = e->now + host, busy = 0, comm_all = 0;
    for (int64_t k = 0; k < c->pp; k++) {
        double comm, dt = st__serve_stage_s(c, b, k, &comm);
        double start = t > e->stage_free[k] ? t : e->stage_free[k];
        e->stage_free[k] = start + dt;
        t = e->stage_free[k] + (k < c->pp - 1 ? st__serve_handover_s(c, b->tokens, k) : 0);
        busy += dt;
        comm_all += comm;
    }
    e->busy_s += busy / (double)c->pp;
    e->comm_s += comm_all / (double)c->pp;
    e->pass_s += t - e->now;
    return t;
}

/* Batches leave the pipeline oldest first; at most pp are in it (vLLM V1's batch queue of
 * pipeline_parallel_size, vllm/v1/engine/core.py step_with_batch_queue). A new one is
 * scheduled when the first stage is free and the pipeline has room, from the requests in no
 * batch in flight; with one stage, the next iteration starts as the last ends. */
/* A replica's run reports its output tokens as progress every 2^12 iterations (a run of 10^9
 * tokens takes tens of seconds; a report costs the front end a clock read). */
#define SERVE_PROGRESS     "serving: output tokens"
#define SERVE_PROGRESS_GAP 4096

static void run_engine(engine *e)
{
    int64_t pp = e->cost->pp;
    e->now = e->n > 0 ? e->r[0].arrival_s : 0;
    for (int64_t k = 0; k < pp; k++)
        e->stage_free[k] = e->now;
    e->tokens_all = e->tokens_out = e->reported = 0;
    for (int64_t i = 0; i < e->n; i++)
        e->tokens_all += e->r[i].out;
    while (e->done < e->n) {
        if (e->iterations >= e->reported + SERVE_PROGRESS_GAP) {
            e->reported = e->iterations;
            st_progress(SERVE_PROGRESS, e->tokens_out, e->tokens_all);
        }
        while (e->fl_n > 0 && e->fl[e->fl_head].end_s <= e->now) {
            finish_batch(e, e->fl[e->fl_head].id);
            e->fl_head = (e->fl_head + 1) % pp;
            e->fl_n--;
        }
        if (e->done >= e->n)
            break;
        while (released(e) && next_arrival(e) <= e->now) {
            if (from_pend(e))
                e->r[e->next].arrival_s = pend_pop(e);
            push_back(e, e->next++);
        }
        double oldest = e->fl_n > 0 ? e->fl[e->fl_head].end_s : INFINITY;
        if (e->fl_n == pp) { /* full: the oldest batch must leave first */
            e->now = oldest;
            continue;
        }
        e->batch_id++;
        schedule(e);
        st__serve_batch b = batch_of(e);
        if (b.tokens <= 0) { /* nothing to schedule until a batch leaves or a request comes */
            double arrive = released(e) ? next_arrival(e) : INFINITY;
            if (e->fl_n == 0 && !(arrive < INFINITY)) /* the loader checked that one request
                                                         fits the cache */
                ST_BUG("serving replica scheduled nothing with %lld waiting",
                       (long long)(e->wait_n + e->run_n));
            e->now = oldest < arrive ? oldest : arrive;
            continue;
        }
        double end = run_batch(e, &b);
        e->fl[(e->fl_head + e->fl_n++) % pp] = (flight){e->batch_id, end};
        e->iterations++;
        e->batch_sum += b.requests;
        e->now = e->stage_free[0];
    }
    st_progress(SERVE_PROGRESS, e->tokens_all, e->tokens_all); /* the loop ends */
}

void st__serve_replica_release(st__serve_replica_out *o)
{
    free(o->ttft);
    free(o->tpot);
    free(o->ok);
}

void st__serve_replica(st__serve_cost *cost, const st_inference_cfg *ic, const st_serve_memory *mem,
                       const st__serve_stream *in, st__serve_replica_out *o)
{
    const double *arrival = in->arrival;
    const int64_t *len_in = in->len_in, *len_out = in->len_out, n = in->n;
    engine e = {.ic = ic,
                .mem = mem,
                .cost = cost,
                .n = n,
                .cap = in->cap,
                .think = in->cap > 0 && ic->think_s > 0 ? in->think : NULL,
                .free_blocks = mem->blocks};
    if (e.think)
        e.pend = st_xmalloc((size_t)(in->cap > 0 ? in->cap : 1) * sizeof *e.pend);
    e.fl = st_xmalloc((size_t)cost->pp * sizeof *e.fl);
    e.stage_free = st_xmalloc((size_t)cost->pp * sizeof *e.stage_free);
    e.r = st_xcalloc((size_t)n, sizeof *e.r);
    e.wait = st_xmalloc((size_t)n * sizeof *e.wait);
    e.run = st_xmalloc((size_t)n * sizeof *e.run);
    for (int64_t i = 0; i < n; i++) {
        double at = in->ready && in->ready[i] > arrival[i] ? in->ready[i] : arrival[i];
        e.r[i] =
            (req){.arrival_s = at, .held_s = at - arrival[i], .in = len_in[i], .out = len_out[i]};
    }
    if (e.think)
        start_thinking(&e);
    run_engine(&e);
    memset(o, 0, sizeof *o);
    o->n = n;
    o->ttft = st_xmalloc((size_t)n * sizeof *o->ttft);
    o->tpot = st_xmalloc((size_t)n * sizeof *o->tpot);
    o->ok = st_xmalloc((size_t)n * sizeof *o->ok);
    double last = 0;
    for (int64_t i = 0; i < n; i++) {
        const req *q = &e.r[i];
        o->ttft[i] = q->first_s - q->arrival_s + q->held_s + ic->frontend_request_s;
        o->tpot[i] = q->out > 1 ? (q->done_s - q->first_s) / (double)(q->out - 1) : -1;
        o->ok[i] = (!(ic->slo_ttft_s > 0) || o->ttft[i] <= ic->slo_ttft_s) &&
                   (!(ic->slo_tpot_s > 0) || o->tpot[i] <= ic->slo_tpot_s);
        o->tokens += (double)q->out;
        last = q->done_s > last ? q->done_s : last;
    }
    /* from the first arrival: a thinking loop's earliest first send (start_thinking) */
    o->first_s = n > 0 ? (e.think ? e.r[0].arrival_s : arrival[0]) : 0;
    o->span_s = last - o->first_s;
    o->busy_s = e.busy_s;
    o->pass_s = e.pass_s;
    o->comm_s = e.comm_s;
    o->iterations = e.iterations;
    o->preemptions = e.preemptions;
    o->batch_sum = e.batch_sum;
    free(e.r);
    free(e.wait);
    free(e.run);
    free(e.fl);
    free(e.stage_free);
    free(e.pend);
}
