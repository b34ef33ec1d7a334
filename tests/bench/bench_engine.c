/* Benchmark: the engine (event queue + handler dispatch) against a bare implicit 4-ary heap on
 * the classic hold model, and with cancellations mixed in. Prints one line per case:
 * `case: hold-1e4 events_per_s: X baseline_events_per_s: Y ratio: Z`. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/engine.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

/* The hold model: prefill N events at Exp(mean 1 us) times, then repeatedly take the earliest
 * event and schedule it again at its time + Exp(mean 1 us), M times; the pending count stays N.
 *
 * Cancel mode: the same, and after every second fired event one pending event picked uniformly
 * at random is cancelled and a replacement is scheduled at now + Exp(mean 1 us), so N still
 * stays constant. That is the "a job's completion moved" pattern, done the hard way (cancel +
 * schedule exercises the free list as well as the sift). The baseline of a cancel case is the
 * bare heap in hold mode with the same N and M: it cannot cancel, so the ratio says what the
 * cancellations cost on top of the plain hold work.
 *
 * Random numbers are drawn before timing into arrays that both runs read in the same order, so
 * RNG cost is excluded from both and both see identical event sequences (checked: the two runs
 * must end at the same simulated time). */
enum { NDELTA = 1 << 16, NPICK = 1 << 16 };
static st_time deltas[NDELTA];
static uint32_t picks[NPICK]; /* uniform 32-bit fractions, scaled to the pending count */

static void predraw(void)
{
    st_rng *r = st_rng_new(1, st_rng_tag("bench"), 0, st_rng_tag("hold"));
    for (int i = 0; i < NDELTA; i++)
        deltas[i] = (st_time)llround(st_rng_exponential(r, 1000.0));
    for (int i = 0; i < NPICK; i++)
        picks[i] = (uint32_t)(st_rng_uniform(r) * 4294967296.0);
    st_rng_free(r);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- The bare heap: (time, seq) keys in a plain array, no handles, no pool, no payload. By
 * default it is tuned like sim/evq.c (families of four children on one cache line, the
 * grandchildren prefetched on large heaps, hole moves, a tournament over four children), so the
 * ratio measures the engine's extra work (handles, back-pointers, payloads, dispatch) rather
 * than a difference in heap tuning. --plain-baseline drops the alignment and the prefetch: the
 * textbook heap. */
typedef struct bkey {
    st_time t;
    uint64_t seq;
} bkey;

static int tuned_baseline = 1;

static inline int bless(const bkey *a, const bkey *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void bpush(bkey *h, size_t *n, bkey x)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!bless(&x, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static inline size_t bmin_child(const bkey *h, size_t n, size_t c)
{
    if (c + 3 < n) {
        size_t a = bless(&h[c + 1], &h[c]) ? c + 1 : c;
        size_t b = bless(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;
        return bless(&h[b], &h[a]) ? b : a;
    }
    size_t m = c;
    for (size_t k = c + 1; k < n; k++)
        if (bless(&h[k], &h[m]))
            m = k;
    return m;
}

static inline bkey bpop(bkey *h, size_t *n, int prefetch)
{
    bkey top = h[0], x = h[--*n];
    size_t i = 0, c;
    while ((c = 4 * i + 1) < *n) {
        size_t g = 4 * c + 1;
        if (prefetch && g + 15 < *n) {
            const char *k = (const char *)&h[g];
            __builtin_prefetch(k);
            __builtin_prefetch(k + 64);
            __builtin_prefetch(k + 128);
            __builtin_prefetch(k + 192);
        }
        size_t m = bmin_child(h, *n, c);
        if (!bless(&h[m], &x))
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = x;
    return top;
}

/* Runs the bare hold model; returns the seconds taken by the M operations, the last time in
 * *t_end. */
static double bare_hold(size_t npend, uint64_t m, st_time *t_end)
{
    char *raw = st_xmalloc(sizeof(bkey) * (npend + 1) + 64);
    bkey *h = (bkey *)raw;
    if (tuned_baseline) { /* element 1 on a line boundary, as sim/evq.c does */
        size_t mis = (uintptr_t)(raw + sizeof(bkey)) % 64;
        h = (bkey *)(raw + (mis ? 64 - mis : 0));
    }
    int prefetch = tuned_baseline && npend >= ((size_t)1 << 15);
    size_t n = 0, di = 0;
    uint64_t seq = 0;
    for (size_t i = 0; i < npend; i++)
        bpush(h, &n, (bkey){deltas[di++ % NDELTA], seq++});
    double t0 = now_s();
    bkey k = {0, 0};
    for (uint64_t i = 0; i < m; i++) {
        k = bpop(h, &n, prefetch);
        bpush(h, &n, (bkey){k.t + deltas[di++ % NDELTA], seq++});
    }
    double dt = now_s() - t0;
    *t_end = k.t;
    free(raw);
    return dt;
}

/* ---- The engine run: one handler, the model state below. */
typedef struct hold_model {
    int kind;
    int cancel;
    uint64_t left; /* events still to fire */
    uint64_t fired;
    size_t di, pi;     /* next pre-drawn delta and pick */
    st_ev_handle *tok; /* cancel mode: the pending handle of each of the N tokens */
    size_t ntok;
} hold_model;

static void on_hold(st_engine *eng, void *state, const st_event *ev)
{
    hold_model *m = state;
    st_time d = deltas[m->di++ % NDELTA];
    st_ev_handle h = st_engine_schedule(eng, m->kind, ev->t + d, &ev->data);
    if (m->cancel) {
        m->tok[ev->data.u[0]] = h;
        if (++m->fired & 1) {
            size_t k = (size_t)(((uint64_t)picks[m->pi++ % NPICK] * m->ntok) >> 32);
            if (st_engine_cancel(eng, m->tok[k]) != 0)
                ST_BUG("bench: token %zu not pending", k);
            st_payload p = {.u = {k}};
            st_time at = ev->t + deltas[m->di++ % NDELTA];
            m->tok[k] = st_engine_schedule(eng, m->kind, at, &p);
        }
    }
    if (--m->left == 0)
        st_engine_stop(eng);
}

static double engine_hold(size_t npend, uint64_t nev, int cancel, st_time *t_end)
{
    st_engine *eng = st_engine_new();
    hold_model m = {.cancel = cancel, .left = nev, .ntok = npend};
    m.kind = st_engine_register(eng, "hold", on_hold, &m);
    m.tok = st_xmalloc(sizeof *m.tok * npend);
    for (size_t i = 0; i < npend; i++) {
        st_payload p = {.u = {i}};
        m.tok[i] = st_engine_schedule(eng, m.kind, deltas[m.di++ % NDELTA], &p);
    }
    double t0 = now_s();
    if (st_engine_run(eng, ST_TIME_MAX) != ST_RUN_STOPPED)
        ST_BUG("bench: engine ran dry");
    double dt = now_s() - t0;
    *t_end = st_engine_now(eng);
    free(m.tok);
    st_engine_free(eng);
    return dt;
}

/* Best of `reps` runs of each, alternating so background load hits both alike. */
static void run_case(const char *name, size_t npend, uint64_t nev, int cancel, int reps)
{
    double best_e = INFINITY, best_b = INFINITY;
    for (int r = 0; r < reps; r++) {
        st_time te, tb;
        double e = engine_hold(npend, nev, cancel, &te);
        double b = bare_hold(npend, nev, &tb);
        if (!cancel && te != tb)
            ST_BUG("bench: engine and bare heap diverged (%lld vs %lld ns)", (long long)te,
                   (long long)tb);
        best_e = e < best_e ? e : best_e;
        best_b = b < best_b ? b : best_b;
    }
    double eps = (double)nev / best_e, bps = (double)nev / best_b;
    printf("case: %s events_per_s: %.4g baseline_events_per_s: %.4g ratio: %.3f\n", name, eps, bps,
           eps / bps);
    fflush(stdout);
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_engine [--pending N --events M [--mode hold|cancel]] "
                    "[--reps R] [--plain-baseline]\n"
                    "with no --pending: the standard set hold/cancel at N = 1e4 and 1e6\n");
    return 2;
}

int main(int argc, char **argv)
{
    double npend = 0, nev = 0;
    int cancel = 0, reps = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--plain-baseline") == 0) {
            tuned_baseline = 0;
            continue;
        }
        if (!v)
            return usage();
        if (strcmp(a, "--pending") == 0)
            npend = atof(v);
        else if (strcmp(a, "--events") == 0)
            nev = atof(v);
        else if (strcmp(a, "--reps") == 0)
            reps = atoi(v);
        else if (strcmp(a, "--mode") == 0 && (!strcmp(v, "hold") || !strcmp(v, "cancel")))
            cancel = strcmp(v, "cancel") == 0;
        else
            return usage();
        i++;
    }
    if (npend < 0 || nev < 0 || reps < 1 || (nev > 0 && npend < 1))
        return usage();
    predraw();
    if (npend >= 1) {
        char name[64];
        int e = (int)lround(log10(npend));
        if (pow(10.0, e) == npend)
            snprintf(name, sizeof name, "%s-1e%d", cancel ? "cancel" : "hold", e);
        else
            snprintf(name, sizeof name, "%s-%.0f", cancel ? "cancel" : "hold", npend);
        run_case(name, (size_t)npend, nev > 0 ? (uint64_t)nev : 10000000, cancel, reps);
        return 0;
    }
    run_case("hold-1e4", 10000, 10000000, 0, reps);
    run_case("hold-1e6", 1000000, 5000000, 0, reps);
    run_case("cancel-1e4", 10000, 10000000, 1, reps);
    run_case("cancel-1e6", 1000000, 5000000, 1, reps);
    return 0;
}
