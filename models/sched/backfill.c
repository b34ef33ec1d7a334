/* backfill: EASY backfilling (Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995; as
 * described by Mu'alem and Feitelson, IEEE TPDS 12(6), 2001, section 2). Jobs start in submit
 * order. When the head job cannot start, it gets a reservation: the earliest time, by the running
 * jobs' estimated ends, at which enough GPUs are free for it (the shadow time), and the GPUs left
 * over then (the extra). A later job may jump ahead only if it can start now and does not delay
 * that reservation: it ends by its estimate before the shadow time, or it needs no more than the
 * extra GPUs. The estimate is the user's (cluster.h: a training job's forecast work, a trace
 * job's recorded duration); a job that overruns it is treated as ending now. No job starves: the
 * head's reservation only moves when running jobs overrun their estimates.
 *
 * A pick finds the jobs that may jump ahead without scanning the queue: the waiting jobs sit in
 * ordered sets by arrival, one per GPU count, each subtree holding its least estimate. The scan
 * it replaces started, down the queue, each job that fit the free GPUs and ended before the
 * shadow time or fit the extra GPUs; the free and extra GPUs only shrink, so a job passed over
 * would be passed over again later, and the next job it started is the earliest-arrived of the
 * sets' first fitting members: for a count within the extra GPUs the set's first member, for a
 * larger one within the free GPUs its first member that ends before the shadow time (a descent
 * that skips every subtree whose least estimate does not). So a pick costs O(log n) per GPU
 * count waiting, per job it starts, plus the reservation's O(r + k log r) over the r running. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "sim/sort.h"
#include "sim/xalloc.h"

/* A running job's estimated end and GPUs, sorted by end, then id. */
typedef struct ending {
    double end;
    size_t id;
    int64_t gpus;
} ending;

typedef struct backfill {
    const st_sched_job **job; /* by id, as they arrive */
    size_t *arr, n_arr, cap;  /* job ids in arrival order: arr[head ..) holds every waiting one */
    size_t head;
    uint64_t *seq, next, off; /* by id: its arrival's number; arr[k] is arrival off + k */
    unsigned char *state;     /* by id: B_NONE, B_WAIT, B_NEW or B_RUN */
    st__rset pool;
    size_t *root;    /* by GPU count: its waiting jobs by arrival, figure: the estimate */
    uint64_t *bits;  /* bit g: root[g] has members */
    int64_t max;     /* GPU counts 1 .. max */
    size_t *scratch; /* during a pick: the jobs taken out of their set */
    st__rset rpool;
    size_t run;                        /* the running jobs (steady runs), by eend then id */
    double *eend;                      /* by id: its expected end when it joined run */
    size_t *fresh, n_fresh, cap_fresh; /* started since the last reservation: join run there */
    int steady;                        /* st_sched_steady */
    ending *band;                      /* during a reservation */
} backfill;

/* A waiting job; one started at this pick; one in run. */
enum { B_NONE, B_WAIT, B_NEW, B_RUN };

static int backfill_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    backfill *b = st;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    b->max = p->total_gpus > 0 ? p->total_gpus : 0;
    b->job = st_xcalloc(n, sizeof *b->job);
    b->seq = st_xcalloc(n, sizeof *b->seq);
    b->state = st_xcalloc(n, 1);
    b->scratch = st_xmalloc(n * sizeof *b->scratch);
    st__rset_init(&b->pool, n);
    st__rset_init(&b->rpool, n);
    b->run = ST__RSET_NONE;
    b->eend = st_xcalloc(n, sizeof *b->eend);
    b->band = st_xmalloc(n * sizeof *b->band);
    b->root = st_xmalloc(((size_t)b->max + 1) * sizeof *b->root);
    for (int64_t g = 0; g <= b->max; g++)
        b->root[g] = ST__RSET_NONE;
    b->bits = st_xcalloc((size_t)b->max / 64 + 1, sizeof *b->bits);
    return 0;
}

static void backfill_release(void *st)
{
    backfill *b = st;
    if (!b->job)
        return;
    free(b->job);
    free(b->arr);
    free(b->seq);
    free(b->state);
    free(b->scratch);
    st__rset_release(&b->pool);
    st__rset_release(&b->rpool);
    free(b->eend);
    free(b->fresh);
    free(b->band);
    free(b->root);
    free(b->bits);
}

static void set_in(backfill *b, size_t id)
{
    int64_t g = b->job[id]->gpus;
    st__rset_add(&b->pool, &b->root[g], id, (st__rkey){b->seq[id], id}, g, b->job[id]->estimate_s);
    b->bits[g / 64] |= (uint64_t)1 << (g % 64);
}

static void set_out(backfill *b, size_t id)
{
    int64_t g = b->job[id]->gpus;
    st__rset_remove(&b->pool, &b->root[g], id);
    if (b->root[g] == ST__RSET_NONE)
        b->bits[g / 64] &= ~((uint64_t)1 << (g % 64));
}

static void backfill_arrival(void *st, const st_sched_job *job)
{
    backfill *b = st;
    if (b->head > 64 && b->head > b->n_arr / 2) { /* drop the walked-past front */
        memmove(b->arr, b->arr + b->head, (b->n_arr - b->head) * sizeof *b->arr);
        b->n_arr -= b->head;
        b->off += b->head;
        b->head = 0;
    }
    b->arr = st_xgrow(b->arr, sizeof *b->arr, b->n_arr + 1, &b->cap);
    b->arr[b->n_arr++] = job->id;
    b->job[job->id] = job;
    b->seq[job->id] = b->next++;
    b->state[job->id] = B_WAIT;
    set_in(b, job->id);
}

/* A job started since the last reservation leaves the fresh list there (its entry is dropped). */
static void backfill_finish(void *st, const st_sched_job *job)
{
    backfill *b = st;
    if (b->state[job->id] == B_RUN)
        st__rset_remove(&b->rpool, &b->run, job->id);
    b->state[job->id] = B_NONE;
}

/* The earliest-arrived waiting job (an entry is stale once its job started, or arrived again
 * later); NONE when none waits. */
static size_t head_job(backfill *b)
{
    for (; b->head < b->n_arr; b->head++) {
        size_t id = b->arr[b->head];
        if (b->state[id] == B_WAIT && b->seq[id] == b->off + b->head)
            return id;
    }
    return ST__RSET_NONE;
}

/* Job id (out of its waiting set) started: it joins run at the next reservation, once the pick
 * that started it has re-timed it. A run whose rates change keeps no running set. */
static void started(backfill *b, size_t id)
{
    b->state[id] = b->steady ? B_NEW : B_NONE;
    if (!b->steady)
        return;
    b->fresh = st_xgrow(b->fresh, sizeof *b->fresh, b->n_fresh + 1, &b->cap_fresh);
    b->fresh[b->n_fresh++] = id;
}

/* The jobs started since, into run by their expected end now. */
static void admit_running(backfill *b, const st_sched_view *v)
{
    for (size_t k = 0; k < b->n_fresh; k++) {
        size_t id = b->fresh[k];
        if (b->state[id] != B_NEW)
            continue; /* finished since, or a duplicate of an entry already taken */
        b->eend[id] = st_sched_expected_end(v, id);
        st__rkey k = {st__rkey_double(b->eend[id]), id}; /* by expected end, then id */
        st__rset_add(&b->rpool, &b->run, id, k, b->job[id]->gpus, 0);
        b->state[id] = B_RUN;
    }
    b->n_fresh = 0;
}

static int by_end(const void *a, const void *b)
{
    const ending *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Sift e[i] down the min-heap e[0..n) ordered by by_end. */
static void sift(ending *e, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && by_end(&e[l], &e[m]) < 0)
            m = l;
        if (l + 1 < n && by_end(&e[l + 1], &e[m]) < 0)
            m = l + 1;
        if (m == i)
            return;
        ending t = e[i];
        e[i] = e[m];
        e[m] = t;
        i = m;
    }
}

/* The head job's shadow time and extra GPUs, from the running jobs' estimated ends, earliest
 * (then lowest id) first. Only the ends up to the shadow time are needed, so they are popped
 * from a heap, O(r + k log r) for k of them, rather than sorted: on 100,000 GPUs tens of
 * thousands of jobs run, and sorting them at every blocked pick was 80% of bench_cluster's
 * synthetic year. */
static void reservation_scan(const st_sched_view *v, int64_t need, double *shadow, int64_t *extra)
{
    size_t r = st_sched_n_running(v);
    ending *e = st_xmalloc((r ? r : 1) * sizeof *e);
    for (size_t k = 0; k < r; k++) {
        const st_sched_job *j = st_sched_running(v, k);
        e[k] = (ending){st_sched_expected_end(v, j->id), j->id, j->gpus};
    }
    for (size_t k = r / 2; k-- > 0;)
        sift(e, r, k);
    int64_t avail = st_sched_free_gpus(v);
    *shadow = st_sched_now(v);
    for (size_t n = r; n > 0 && avail < need;) {
        avail += e[0].gpus;
        *shadow = e[0].end;
        e[0] = e[--n];
        sift(e, n, 0);
    }
    *extra = avail - need; /* < 0 only when even an empty cluster cannot place it now */
    free(e);
}

/* The members of run whose expected end is below (or not above) x: their count and GPUs. Their
 * keys are (end, id): those below (end x, id 0), or (end x, the largest id) when x is in. */
static size_t count_below(const backfill *b, double x, int or_equal, int64_t *gpus)
{
    size_t n;
    st__rkey bound = {st__rkey_double(x), or_equal ? UINT64_MAX : 0};
    st__rset_below(&b->rpool, b->run, &bound, &n, gpus);
    return n;
}

/* reservation_scan's figures from run, without computing every running job's expected end.
 * A steady job's expected end is its start plus its estimate less its work before it (in
 * exact arithmetic; st_sched_expected_end rounds each term) unless it has overrun its estimate:
 * then it is now. So eend, taken once, is within D of the expected end now, clamped below at
 * now, and run's order is the exact one but among ends within 2 D of each other. The shortest
 * prefix of run that reaches the GPUs needed ends at e (or now, if later); the exact one then
 * ends within [e - 2 D, e + D] (a shorter or longer exact prefix would make run's longer or
 * shorter), so every member below e - 3 D is in it, every one above e + 2 D is not, and only the
 * band between (all of the overrun ones, when it reaches down to now) is ranked exactly. */
static void reservation(backfill *b, const st_sched_view *v, int64_t need, double *shadow,
                        int64_t *extra)
{
    if (!b->steady) {
        reservation_scan(v, need, shadow, extra);
        return;
    }
    admit_running(b, v);
    int64_t avail = st_sched_free_gpus(v), g0 = 0, g1;
    double now = st_sched_now(v);
    size_t n, i0 = 0, i1;
    *shadow = now;
    size_t last = st__rset_reach(&b->rpool, b->run, need - avail, &n, &g1);
    if (avail < need && last == ST__RSET_NONE && n) /* all of them: up to the latest */
        last = st__rset_at(&b->rpool, b->run, n - 1);
    if (avail < need && last != ST__RSET_NONE) {
        double e = fmax(b->eend[last], now), d = 1e-4 + 1e-12 * (fabs(now) + fabs(e));
        if (e - 3 * d > now)
            i0 = count_below(b, e - 3 * d, 0, &g0);
        i1 = count_below(b, e + 2 * d, 1, &g1);
        for (size_t k = i0; k < i1; k++) {
            size_t id = st__rset_at(&b->rpool, b->run, k);
            b->band[k - i0] = (ending){st_sched_expected_end(v, id), id, b->job[id]->gpus};
        }
        st_sort_unless_sorted(b->band, i1 - i0, sizeof *b->band, by_end);
        avail += g0;
        for (size_t k = 0; k < i1 - i0 && avail < need; k++) {
            avail += b->band[k].gpus;
            *shadow = b->band[k].end;
        }
    }
    *extra = avail - need;
}

/* What a job must end by to jump ahead on more GPUs than the extra. */
typedef struct window {
    double now, shadow;
} window;

static int ends_before(const void *ctx, double estimate_s)
{
    const window *w = ctx;
    return w->now + estimate_s <= w->shadow;
}

/* The earliest-arrived waiting job that fits in free GPUs and ends before the shadow time or
 * fits in extra GPUs; NONE when none does. */
static size_t next_jump(const backfill *b, int64_t free, int64_t extra, const window *w)
{
    size_t best = ST__RSET_NONE;
    int64_t top = free < b->max ? free : b->max;
    for (int64_t k = 0; k <= top / 64; k++)
        for (uint64_t m = b->bits[k]; m; m &= m - 1) {
            int64_t g = k * 64 + __builtin_ctzll(m);
            if (g > top)
                break;
            size_t id =
                st__rset_first(&b->pool, b->root[g], INT64_MAX, g <= extra ? NULL : ends_before, w);
            if (id != ST__RSET_NONE && (best == ST__RSET_NONE || b->seq[id] < b->seq[best]))
                best = id;
        }
    return best;
}

static void backfill_pick(void *st, st_sched_view *v)
{
    backfill *b = st;
    size_t h, n = 0;
    b->steady = st_sched_steady(v);
    while ((h = head_job(b)) != ST__RSET_NONE && st_sched_start(v, h)) {
        set_out(b, h);
        started(b, h);
    }
    if (h == ST__RSET_NONE)
        return;
    if (st_sched_free_gpus(v) == 0) { /* no job can jump ahead: the reservation would go unused */
        if (b->steady)
            admit_running(b, v); /* (the jobs started join run when they would have) */
        return;
    }
    window w = {st_sched_now(v), 0};
    int64_t extra;
    reservation(b, v, b->job[h]->gpus, &w.shadow, &extra);
    /* The head stays where it is and the jobs behind it are asked: it is out of its set while
     * they are, unless it is wider than the free GPUs, a count next_jump (the free GPUs only
     * shrink) never looks at. */
    if (b->job[h]->gpus <= st_sched_free_gpus(v)) {
        set_out(b, h);
        b->scratch[n++] = h;
    }
    size_t id;
    while (st_sched_free_gpus(v) > 0 &&
           (id = next_jump(b, st_sched_free_gpus(v), extra, &w)) != ST__RSET_NONE) {
        const st_sched_job *j = b->job[id];
        int before = w.now + j->estimate_s <= w.shadow;
        set_out(b, id);
        if (!st_sched_start(v, id)) {
            b->scratch[n++] = id; /* the placement cannot fit it now: passed over */
            continue;
        }
        started(b, id);
        if (!before)
            extra -= j->gpus;
    }
    for (size_t k = 0; k < n; k++)
        set_in(b, b->scratch[k]);
}

const st_sched_policy st__sched_backfill = {
    .abi = ST_SCHED_ABI,
    .name = "backfill",
    .state_size = sizeof(backfill),
    .no_starvation = 1,
    .configure = backfill_configure,
    .release = backfill_release,
    .on_arrival = backfill_arrival,
    .on_finish = backfill_finish,
    .pick = backfill_pick,
};
