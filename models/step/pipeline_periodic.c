/* The pipeline's exact steady-state shortcut: simulate a shortened run, find the period after
 * which every round repeats shifted by a constant, and add the missing rounds as whole periods.
 * docs/models/pipeline.md proves it exact. */
#include <stdlib.h>

#include "models/step/pipeline_internal.h"
#include "sim/xalloc.h"

/* ---- The steady state. Rounds are numbered per stage from the end of its warm-up: round j of
 * stage s is positions warm[s] + j*T .. + T-1, where T = 2 * rs * v and rs is 1 under 1F1B and
 * pp under interleaving (Megatron's groups of pp micro-batches). In the steady region position
 * q + T holds the same pass of the same chunk as q, rs micro-batches later. The times become
 * periodic: after a transient, round j runs exactly lambda after round j - c, for a period of
 * c rounds (c > 1 happens, e.g. 1F1B with sends, whose critical cycle spans the pipeline).
 * docs/models/pipeline.md has the argument that makes the shortcut exact. */
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
 * a round; the argument in docs/models/pipeline.md needs that, so it is checked here. */
static void reach_suffix(const pipe_plan *p, int64_t *reach, int64_t nr, int64_t ns)
{
    /* Local copies: p escapes to other files, so the compiler cannot tell that the stores to
     * reach[] leave p->len and p->t alone, and would reload them on every task. */
    const pipe_task *t = p->t;
    const int64_t len = p->len;
    for (int64_t s = 0; s < p->pp; s++) {
        int64_t last[2] = {-1, -1};
        for (int64_t id = s * len; id < (s + 1) * len; id++) {
            const pipe_task *u = &t[id];
            int64_t r = u->round, lo = r;
            int sends = u->cons >= 0 && u->link != LINK_NONE;
            if (id > s * len)
                lo = imin(lo, t[id - 1].round);
            if (u->prod >= 0) {
                lo = imin(lo, t[u->prod].round);
                if (r >= 0 && r < ns && t[u->prod].round > r + 1)
                    ST_BUG("pipeline task reads more than a round ahead");
            }
            if (sends && last[u->link - 1] >= 0)
                lo = imin(lo, t[last[u->link - 1]].round);
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
static uint64_t round_hash(const pipe_plan *p, int64_t T, int64_t j, st_time *first)
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
static int rounds_shifted(const pipe_plan *p, int64_t T, int64_t j, int64_t c, st_time lambda)
{
    int64_t dmb = c * T / 2 / p->v; /* c rounds later is dmb micro-batches later */
    for (int64_t s = 0; s < p->pp; s++) {
        int64_t base = s * p->len + p->warm[s] + j * T;
        for (int64_t id = base; id < base + T; id++) {
            int64_t was = id - c * T;
            const pipe_task *u = &p->t[id], *w = &p->t[was];
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
static int window_periodic(const pipe_plan *p, int64_t T, int64_t j, int64_t r, int64_t c,
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
static int find_period(const pipe_plan *p, int64_t T, int64_t busiest, period *out)
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
static int64_t shortened_m(const pipe_ctx *x, int64_t rs, int64_t k)
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
static int64_t try_shortcut(const pipe_ctx *x, int64_t rs, int64_t m1, pipe_summary *sm)
{
    int64_t T = 2 * rs * x->v;
    period per;
    pipe_plan p;
    st__pipe_plan_init(&p, x, m1);
    st__pipe_sweep_run(&p);
    int found = find_period(&p, T, x->busiest, &per);
    int64_t rem = found ? (x->m - m1) / rs % per.c : 0;
    if (rem) {
        st__pipe_plan_release(&p);
        m1 += rem * rs;
        if (m1 >= x->m)
            return 0;
        st__pipe_plan_init(&p, x, m1); /* same rounds up to per.j, so per still holds */
        st__pipe_sweep_run(&p);
    }
    if (found) {
        int64_t periods = (x->m - m1) / rs / per.c;
        st__pipe_summarize(&p, x->busiest, sm);
        sm->makespan += periods * per.lambda;
        sm->exposed += periods * per.wait;
        for (int64_t c = 0; c < x->nchunk; c++)
            sm->lbe[c] += periods * per.lambda;
    }
    st__pipe_plan_release(&p);
    return found ? m1 : 0;
}

/* Steady rounds of the first shortened run, doubled after each run that shows no period while
 * a run stays within half of m (so a spec whose period never shows costs at most about twice
 * the full sweep). Plain 1F1B with sends is periodic only over about pp rounds: its critical
 * cycle runs a micro-batch's forwards down the pipeline and its backwards back up, pp rounds
 * long, so it starts there; other schedules usually repeat from the second or third round. */
int64_t st__pipe_run_fast(const pipe_ctx *x, pipe_summary *sm)
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
    pipe_plan p;
    st__pipe_plan_init(&p, x, x->m);
    st__pipe_sweep_run(&p);
    st__pipe_summarize(&p, x->busiest, sm);
    st__pipe_plan_release(&p);
    return x->m;
}
