/* srtf's and srsf's ranking (shortest.h), computed without sorting every job at every pick, with
 * the decisions of the full sort it replaces, bit for bit:
 *
 * - Waiting jobs sit in an ordered set by key. A waiting job's remaining time does not change
 *   while it waits (its work done, run time and owed restores change only while it runs, or as
 *   it starts or stops), so the key taken when it began waiting is the key a sort at any later
 *   pick would compute, to the bit; ties break on the id in both.
 * - Running jobs whose remaining time is exactly (end - now) / 1e9 s (st_sched_end_ticks) and
 *   below NEAR_TICKS sit in lists ordered by end, then id: one list for srtf, one per GPU count
 *   for srsf (its key, remaining time x GPUs, falls faster for a wider job, so jobs of different
 *   widths trade places as they run; jobs of one width never do). Within a list the key now is
 *   strictly increasing in the end (NEAR_TICKS says why), so a list's order is the sort's order at
 *   every pick without re-sorting. Every other running job (farther from its end, not yet timed,
 *   or in a run whose rates change) is loose: keyed afresh and re-sorted at every pick, as before.
 * - The walk down the merged ranking chooses, at each step, the first-ranked job not yet walked
 *   that fits in what is left (the budget only shrinks, so a job passed over never fits later).
 *   A waiting candidate that fits even after every running job not walked yet is chosen at once:
 *   whatever their ranks, they all fit after it too, so the walk would choose them all and it.
 *   Otherwise the running jobs ranked before it are taken a batch at a time (their GPUs from the
 *   lists' subtree sums, a list cut at the end whose key reaches the candidate's, cut_at; a list
 *   whose last member ranks first taken whole): when they all fit, all are chosen and nothing
 *   else can happen between them. A batch that does not fit means a running job is preempted at
 *   this pick: the one at which the GPUs pass the budget is found a run at a time (the members
 *   of the list whose head ranks first, up to the next head of another list), a run's first few
 *   members one by one, the rest of a long one from the list's sums.
 *
 * A pick without preemption so costs O((a + s + l) log n) for a arrivals, s starts and l lists,
 * plus the loose jobs; each preemption adds the runs it walks, O(log n) each. */
#include "models/sched/shortest.h"

#include <stdlib.h>

#include "sim/sort.h"
#include "sim/xalloc.h"

/* Where a job is: none of these (finished, or chosen at this pick), an arrival since the last
 * pick, one keyed at this pick but not yet in the waiting set (arrived, below), waiting, listed
 * or loose. */
enum { SH_NONE, SH_FRESH, SH_ARRIVED, SH_WAIT, SH_LIST, SH_LOOSE };

#define NONE  ST__RSET_NONE
#define STALE (SIZE_MAX - 1) /* a list's head not looked up since its cursor moved */

/* 2^20 s in ticks (12.1 days). Below it two remaining times a tick or more apart stay apart as
 * keys: x / 1e9 for x < 2^20 s has an ulp of 2^-33 s (0.12 ns), far below the 1 ns between
 * ticks, and times g it stays apart by g x 0.88 ns against the product's ulp of at most
 * g x 0.47 ns. So listed jobs of one list never tie on a key unless their ends are equal. */
#define NEAR_TICKS ((int64_t)1048576 * 1000000000)

static int by_key(const void *a, const void *b)
{
    const st__ranked *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int ranks_before(double ka, size_t a, double kb, size_t b)
{
    return ka < kb || (ka == kb && a < b);
}

int st__shortest_configure(st__shortest *s, const st_sched_params *p, int by_service,
                           int live_order)
{
    size_t n = p->n_jobs ? p->n_jobs : 1;
    size_t lists = by_service && p->total_gpus > 0 ? (size_t)p->total_gpus + 1 : 1;
    s->by_service = by_service;
    s->live_order = live_order;
    s->gpus = st_xcalloc(n, sizeof *s->gpus);
    s->key = st_xcalloc(n, sizeof *s->key);
    s->end = st_xcalloc(n, sizeof *s->end);
    s->where = st_xcalloc(n, 1);
    st__rset_init(&s->wpool, n); /* by key, then id */
    st__rset_init(&s->rpool, n); /* by end, then id */
    s->wait = NONE;
    s->rl = st_xcalloc(lists, sizeof *s->rl);
    for (size_t k = 0; k < lists; k++)
        s->rl[k].root = NONE;
    s->lists = st_xcalloc(lists, sizeof *s->lists);
    s->cur = st_xcalloc(lists, sizeof *s->cur);
    s->upto = st_xcalloc(lists, sizeof *s->upto);
    s->head = st_xcalloc(lists, sizeof *s->head);
    s->head_key = st_xcalloc(lists, sizeof *s->head_key);
    s->hpos = st_xcalloc(lists, sizeof *s->hpos);
    s->cur_gpus = st_xcalloc(lists, sizeof *s->cur_gpus);
    s->upto_gpus = st_xcalloc(lists, sizeof *s->upto_gpus);
    s->loose = st_xmalloc(n * sizeof *s->loose);
    s->fresh = st_xmalloc(n * sizeof *s->fresh);
    s->arrived = st_xmalloc(n * sizeof *s->arrived);
    s->list = st_xmalloc(n * sizeof *s->list);
    s->victim = st_xmalloc(n * sizeof *s->victim);
    s->live = st_xmalloc(n * sizeof *s->live);
    s->pos = st_xmalloc(n * sizeof *s->pos);
    return 0;
}

void st__shortest_release(st__shortest *s)
{
    if (!s->gpus) /* never configured */
        return;
    free(s->gpus);
    free(s->key);
    free(s->end);
    free(s->where);
    st__rset_release(&s->wpool);
    st__rset_release(&s->rpool);
    free(s->rl);
    free(s->lists);
    free(s->cur);
    free(s->upto);
    free(s->head);
    free(s->head_key);
    free(s->hpos);
    free(s->cur_gpus);
    free(s->upto_gpus);
    free(s->loose);
    free(s->fresh);
    free(s->arrived);
    free(s->list);
    free(s->victim);
    free(s->live);
    free(s->pos);
}

void st__shortest_arrival(st__shortest *s, const st_sched_job *job)
{
    s->gpus[job->id] = job->gpus;
    s->where[job->id] = SH_FRESH;
    s->fresh[s->n_fresh++] = job->id;
    s->pos[job->id] = s->n_live;
    s->live[s->n_live++] = job->id;
}

static size_t list_of(const st__shortest *s, size_t id)
{
    return s->by_service ? (size_t)s->gpus[id] : 0;
}

static void list_add(st__shortest *s, size_t id)
{
    size_t l = list_of(s, id);
    if (s->rl[l].root == NONE) {
        s->rl[l].at = s->n_lists;
        s->lists[s->n_lists++] = l;
    }
    st__rset_add(&s->rpool, &s->rl[l].root, id, (st__rkey){st__rkey_int(s->end[id]), id},
                 s->gpus[id], 0);
    s->where[id] = SH_LIST;
    s->list_gpus += s->gpus[id];
    size_t t = s->rl[l].tail, f = s->rl[l].front; /* the last and the first by (end, id) */
    int alone = st__rset_size(&s->rpool, s->rl[l].root) == 1;
    if (alone || s->end[id] > s->end[t] || (s->end[id] == s->end[t] && id > t))
        s->rl[l].tail = id;
    if (alone || s->end[id] < s->end[f] || (s->end[id] == s->end[f] && id < f))
        s->rl[l].front = id;
}

static void list_remove(st__shortest *s, size_t id)
{
    size_t l = list_of(s, id);
    st__rset_remove(&s->rpool, &s->rl[l].root, id);
    s->list_gpus -= s->gpus[id];
    if (s->rl[l].tail == id)
        s->rl[l].tail = st__rset_last(&s->rpool, s->rl[l].root);
    if (s->rl[l].front == id)
        s->rl[l].front = st__rset_at(&s->rpool, s->rl[l].root, 0);
    if (s->rl[l].root == NONE) {
        size_t at = s->rl[l].at, last = s->lists[--s->n_lists];
        s->lists[at] = last;
        s->rl[last].at = at;
    }
}

/* A loose running job leaves the loose list at the next pick, a fresh one the fresh list (an
 * entry whose job is no longer SH_LOOSE or SH_FRESH is dropped there). */
void st__shortest_finish(st__shortest *s, const st_sched_job *job)
{
    size_t id = job->id, at = s->pos[id], last = s->live[--s->n_live];
    if (s->where[id] == SH_WAIT)
        st__rset_remove(&s->wpool, &s->wait, id);
    else if (s->where[id] == SH_LIST)
        list_remove(s, id);
    s->where[id] = SH_NONE;
    s->live[at] = last;
    s->pos[last] = at;
}

static double key_of(const st__shortest *s, const st_sched_view *v, size_t id)
{
    double r = st_sched_remaining_s(v, id);
    return s->by_service ? r * (double)s->gpus[id] : r;
}

/* A listed job's key now, from its end and GPUs: st_sched_remaining_s's figure, secs(end -
 * now), to the bit. */
static double key_at(const st__shortest *s, int64_t end, int64_t gpus)
{
    double r = (double)(end - s->now) / 1e9;
    return s->by_service ? r * (double)gpus : r;
}

/* Listed job id's key, in list l: its GPU count is l's (srsf's lists are by GPU count; srtf's key
 * reads none), so its record is not read. */
static double near_key(const st__shortest *s, size_t id, size_t l)
{
    return key_at(s, s->end[id], (int64_t)l);
}

static void wait_again(st__shortest *s, size_t id)
{
    s->where[id] = SH_WAIT;
    st__rset_add(&s->wpool, &s->wait, id, (st__rkey){st__rkey_double(s->key[id]), id}, s->gpus[id],
                 0);
}

/* Loose jobs now near their end join their list, the rest are keyed and sorted (the finished and
 * preempted dropped); the arrivals join the waiting. */
static void settle(st__shortest *s, const st_sched_view *v)
{
    size_t m = 0;
    s->now = st_sched_clock(v);
    for (size_t k = 0; k < s->n_loose; k++) {
        size_t id = s->loose[k].id;
        int64_t end = s->loose[k].end;
        if (s->where[id] != SH_LOOSE)
            continue;
        if (end == INT64_MIN && !st_sched_end_ticks(v, id, &end))
            end = INT64_MIN; /* not timed yet, or the run's rates change: keyed afresh */
        if (end != INT64_MIN && end - s->now < NEAR_TICKS) {
            s->end[id] = end; /* near stays near: the end is fixed and now only grows */
            list_add(s, id);
            continue;
        }
        /* a timed one's key is st_sched_remaining_s's, secs(end - now), from its fixed end */
        s->key[id] = end != INT64_MIN ? key_at(s, end, s->gpus[id]) : key_of(s, v, id);
        s->loose[m++] = (st__ranked){s->key[id], id, end};
    }
    s->n_loose = m;
    st_sort_unless_sorted(s->loose, m, sizeof *s->loose, by_key);
    m = 0;
    for (size_t k = 0; k < s->n_fresh; k++) {
        size_t id = s->fresh[k];
        if (s->where[id] != SH_FRESH)
            continue; /* finished before this pick, or a duplicate of an entry already taken */
        s->key[id] = key_of(s, v, id);
        s->where[id] = SH_ARRIVED;
        s->arrived[m++] = (st__ranked){s->key[id], id, 0};
    }
    s->n_fresh = 0;
    s->n_arrived = m;
    st_sort_unless_sorted(s->arrived, m, sizeof *s->arrived, by_key);
}

/* The first-ranked waiting job that fits in b GPUs (NONE: none does), the arrivals not yet in
 * the waiting set included. */
static size_t first_waiting(const st__shortest *s, int64_t b)
{
    size_t w = st__rset_first(&s->wpool, s->wait, b, NULL, NULL);
    for (size_t k = 0; k < s->n_arrived; k++) { /* in rank order: the first that fits */
        size_t a = s->arrived[k].id;
        if (s->where[a] != SH_ARRIVED || s->gpus[a] > b)
            continue;
        return w == NONE || ranks_before(s->key[a], a, s->key[w], w) ? a : w;
    }
    return w;
}

/* The arrivals this pick did not choose join the waiting set. */
static void arrivals_wait(st__shortest *s)
{
    for (size_t k = 0; k < s->n_arrived; k++)
        if (s->where[s->arrived[k].id] == SH_ARRIVED)
            wait_again(s, s->arrived[k].id);
    s->n_arrived = 0;
}

/* The least end e in (b, a] whose key (key_at, gpus g) is not below pk, given that a's is not
 * and b's is (or b is below the range searched). */
static int64_t bisect_end(const st__shortest *s, int64_t g, double pk, int64_t b, int64_t a)
{
    while (a - b > 1) {
        int64_t m = b + (a - b) / 2;
        if (key_at(s, m, g) < pk)
            b = m;
        else
            a = m;
    }
    return a;
}

/* Where a list of GPU count g is cut by the rank (pk, probe): the key (end, id) below which its
 * members rank before it. The list's members end in (now, now + NEAR_TICKS), where key_at grows
 * strictly with the end (NEAR_TICKS says why), so they rank before (pk, probe) when they end
 * before the least end E whose key is not below pk, or end at E, its key is pk and their id is
 * below probe's: the cut is (E, probe) when E's key is pk, else (E, 0). E is found by a search
 * on the end from pk's own inverse, a few evaluations of key_at, so that the list's tree is cut
 * by integers rather than by a test that divides at every member it reads. */
static st__rkey cut_at(const st__shortest *s, int64_t g, double pk, size_t probe)
{
    int64_t lo = s->now + 1, hi = s->now + NEAR_TICKS - 1, e, step = 1;
    if (key_at(s, hi, g) < pk) /* every member ranks before it */
        return (st__rkey){st__rkey_int(hi + 1), 0};
    double x = (s->by_service ? pk / (double)g : pk) * 1e9; /* about E - now */
    e = x <= 1 ? lo : x >= (double)(hi - s->now) ? hi : s->now + (int64_t)x;
    if (key_at(s, e, g) < pk) { /* E is above e: gallop up to an end whose key is not below */
        while (e + step < hi && key_at(s, e + step, g) < pk) {
            e += step;
            step *= 2;
        }
        e = bisect_end(s, g, pk, e, e + step < hi ? e + step : hi);
    } else { /* E is e or below it: gallop down */
        while (e - step >= lo && !(key_at(s, e - step, g) < pk)) {
            e -= step;
            step *= 2;
        }
        e = bisect_end(s, g, pk, e - step >= lo ? e - step : lo - 1, e);
    }
    return (st__rkey){st__rkey_int(e), key_at(s, e, g) == pk ? probe : 0};
}

/* The GPUs of the running jobs not yet walked that rank before waiting job w (all of them, w
 * NONE), each list's cut kept in upto. */
static int64_t batch_gpus(st__shortest *s, size_t w)
{
    int64_t g = 0;
    for (size_t i = 0; i < s->n_lists; i++) {
        size_t l = s->lists[i], r = s->rl[l].root, f = s->rl[l].front, t = s->rl[l].tail;
        if (w == NONE) {
            s->upto[i] = st__rset_size(&s->rpool, r);
            s->upto_gpus[i] = st__rset_gpus(&s->rpool, r);
        } else if (!ranks_before(near_key(s, f, l), f, s->key[w], w)) {
            s->upto[i] = 0; /* its first ranks after w: none of it (srsf's wide jobs, mostly) */
            s->upto_gpus[i] = 0;
        } else if (ranks_before(near_key(s, t, l), t, s->key[w], w)) {
            s->upto[i] = st__rset_size(&s->rpool, r); /* its last ranks before w: all of it */
            s->upto_gpus[i] = st__rset_gpus(&s->rpool, r);
        } else { /* srsf's list: its jobs' GPUs (srtf: unused) */
            st__rkey cut = cut_at(s, (int64_t)s->lists[i], s->key[w], w);
            st__rset_below(&s->rpool, r, &cut, &s->upto[i], &s->upto_gpus[i]);
        }
        if (s->upto[i] < s->cur[i]) { /* walked already (all, under `preemption: false`) */
            s->upto[i] = s->cur[i];
            s->upto_gpus[i] = s->cur_gpus[i];
        }
        g += s->upto_gpus[i] - s->cur_gpus[i];
    }
    s->upto_loose = s->cur_loose;
    while (s->upto_loose < s->n_loose &&
           (w == NONE ||
            ranks_before(s->loose[s->upto_loose].key, s->loose[s->upto_loose].id, s->key[w], w)))
        g += s->gpus[s->loose[s->upto_loose++].id];
    return g;
}

static void take_batch(st__shortest *s, int64_t g)
{
    s->walked += g;
    for (size_t i = 0; i < s->n_lists; i++) {
        s->cur[i] = s->upto[i];
        s->cur_gpus[i] = s->upto_gpus[i];
        s->head[i] = STALE;
    }
    s->cur_loose = s->upto_loose;
}

/* The first-ranked running job not yet walked (NONE when none is left), its key, and where it
 * stands: its list's place, or SIZE_MAX for the loose list; skip: a place not to look at
 * (SIZE_MAX: the loose list; SIZE_MAX - 1: none). */
static size_t peek_running(st__shortest *s, double *key, size_t *from, size_t skip)
{
    size_t best = NONE;
    for (size_t i = 0; i < s->n_lists; i++) {
        if (i == skip)
            continue;
        if (s->head[i] == STALE) {
            s->head[i] = st__rset_seek(&s->rpool, s->rl[s->lists[i]].root, s->cur[i], &s->hpos[i]);
            if (s->head[i] != NONE)
                s->head_key[i] = near_key(s, s->head[i], s->lists[i]);
        }
        size_t id = s->head[i];
        if (id != NONE && (best == NONE || ranks_before(s->head_key[i], id, *key, best))) {
            best = id;
            *key = s->head_key[i];
            *from = i;
        }
    }
    if (s->cur_loose < s->n_loose && skip != SIZE_MAX) {
        const st__ranked *l = &s->loose[s->cur_loose];
        if (best == NONE || ranks_before(l->key, l->id, *key, best)) {
            best = l->id;
            *key = l->key;
            *from = SIZE_MAX;
        }
    }
    return best;
}

/* The walk moves past id, the head of its list (from, as peek_running returned it); the list's
 * next member is its head. */
static void walk_past(st__shortest *s, size_t id, size_t from)
{
    s->walked += s->gpus[id];
    if (from == SIZE_MAX) {
        s->cur_loose++;
        return;
    }
    size_t k = s->cur[from]++, r = s->rl[s->lists[from]].root;
    s->cur_gpus[from] += s->gpus[id];
    s->head[from] = st__rset_step(&s->rpool, r, k, &s->hpos[from]);
    if (s->head[from] != NONE)
        s->head_key[from] = near_key(s, s->head[from], s->lists[from]);
}

/* Most runs of a list are a member or two long: they are walked a member at a time, up to
 * RUN_STEPS, before the rest of a run is taken from the list's sums. */
enum { RUN_STEPS = 4 };

/* The first members of the run of list f, from its head x up to (k2, y) (y NONE: to its end),
 * walked one at a time: 1 with the one at which the GPUs pass the budget *b in *victim, else 0
 * with *more set when the run goes on past RUN_STEPS members. */
static int walk_run(st__shortest *s, size_t f, size_t x, double k2, size_t y, int64_t *b,
                    size_t *victim, int *more)
{
    for (int step = 0; step < RUN_STEPS; step++) {
        walk_past(s, x, f);
        if (s->gpus[x] > *b) {
            *victim = x;
            return 1;
        }
        *b -= s->gpus[x];
        x = s->head[f];
        if (x == NONE || (y != NONE && !ranks_before(s->head_key[f], x, k2, y))) {
            *more = 0;
            return 0;
        }
    }
    *more = 1;
    return 0;
}

/* The job, among the running ones not walked that rank before waiting job w, at which their
 * GPUs counted in rank order pass the budget *b (there is one): those before it are chosen (*b
 * pays for them) and it is passed over; the walk moves past it. The merged ranking is walked a
 * run at a time: the members of the list whose head ranks first, up to the next head of another
 * list or w, are all chosen when they fit, else the one at which they pass *b is found in the
 * list's GPU sums. */
static size_t overflow(st__shortest *s, int64_t *b, size_t w)
{
    double k1 = 0, k2 = 0;
    size_t f1 = 0, f2 = 0, n, x = NONE, id;
    int known = 0; /* x, the first not walked, is the last run's y */
    for (;;) {
        if (!known)
            x = peek_running(s, &k1, &f1, SIZE_MAX - 1);
        known = 0;
        if (f1 == SIZE_MAX) { /* a loose job: one at a time */
            walk_past(s, x, f1);
            if (s->gpus[x] > *b)
                return x;
            *b -= s->gpus[x];
            continue;
        }
        size_t y = peek_running(s, &k2, &f2, f1);
        if (w != NONE && (y == NONE || ranks_before(s->key[w], w, k2, y))) {
            y = w;
            k2 = s->key[w];
            f2 = SIZE_MAX - 1;
        }
        int more;
        if (walk_run(s, f1, x, k2, y, b, &id, &more))
            return id;
        if (!more && y != NONE && f2 != SIZE_MAX - 1) { /* the run ended at y: y heads the rest */
            x = y;
            k1 = k2;
            f1 = f2;
            known = 1;
            continue;
        }
        if (!more)
            continue;
        int64_t g, *cg = &s->cur_gpus[f1];
        size_t r = s->rl[s->lists[f1]].root;
        if (y == NONE) {
            n = st__rset_size(&s->rpool, r);
            g = st__rset_gpus(&s->rpool, r);
        } else {
            st__rkey cut = cut_at(s, (int64_t)s->lists[f1], k2, y);
            st__rset_below(&s->rpool, r, &cut, &n, &g);
        }
        if (g - *cg <= *b) { /* the whole run fits */
            *b -= g - *cg;
            id = NONE;
        } else {
            id = st__rset_reach(&s->rpool, r, *cg + *b + 1, &n, &g);
            *b -= g - s->gpus[id] - *cg;
        }
        s->cur[f1] = n;
        s->walked += g - *cg;
        *cg = g;
        s->head[f1] = STALE;
        if (id != NONE)
            return id;
    }
}

/* The member at index k of list place i: its tail when k is its last. */
static size_t member_at(const st__shortest *s, size_t i, size_t k)
{
    size_t l = s->lists[i], r = s->rl[l].root;
    st__rset_pos p;
    return k + 1 == st__rset_size(&s->rpool, r) ? s->rl[l].tail
                                                : st__rset_seek(&s->rpool, r, k, &p);
}

/* List place i's last batch member not yet passed from the end (upto[i] - 1, NONE when the walk
 * has reached cur[i]) into head[i], with its key. */
static void back_of(st__shortest *s, size_t i)
{
    s->head[i] = s->upto[i] > s->cur[i] ? member_at(s, i, s->upto[i] - 1) : NONE;
    if (s->head[i] != NONE)
        s->head_key[i] = near_key(s, s->head[i], s->lists[i]);
}

/* The last-ranked of the batch members not yet passed from the end: the lists' back_of and the
 * loose job before upto_loose; its key, and its place in *from (SIZE_MAX: the loose list). */
static size_t peek_back(const st__shortest *s, double *key, size_t *from)
{
    size_t best = NONE;
    for (size_t i = 0; i < s->n_lists; i++) {
        size_t id = s->head[i];
        if (id != NONE && (best == NONE || ranks_before(*key, best, s->head_key[i], id))) {
            best = id;
            *key = s->head_key[i];
            *from = i;
        }
    }
    if (s->upto_loose > s->cur_loose) {
        const st__ranked *l = &s->loose[s->upto_loose - 1];
        if (best == NONE || ranks_before(*key, best, l->key, l->id)) {
            best = l->id;
            *key = l->key;
            *from = SIZE_MAX;
        }
    }
    return best;
}

/* overflow's job found from the other end, where it mostly lies (an arrival that ranks ahead of a
 * full cluster's running jobs passes over one of the last): the batch batch_gpus left in upto (g
 * GPUs, more than *b) is walked back from its last-ranked member while the GPUs behind stay below
 * g - *b; the member at which they reach it is the one at which the GPUs counted from the front
 * pass *b. Those before it are chosen, it is passed over, those behind it are left to the walk. */
static size_t overflow_back(st__shortest *s, int64_t *b, int64_t g)
{
    int64_t behind = 0;
    double key = 0;
    size_t from = 0, id;
    for (size_t i = 0; i < s->n_lists; i++)
        back_of(s, i);
    for (;;) {
        id = peek_back(s, &key, &from); /* one is left: the batch's GPUs reach g - *b */
        if (behind + s->gpus[id] >= g - *b)
            break;
        behind += s->gpus[id];
        if (from == SIZE_MAX) {
            s->upto_loose--;
            continue;
        }
        s->upto[from]--;
        s->upto_gpus[from] -= s->gpus[id];
        back_of(s, from);
    }
    *b -= g - behind - s->gpus[id];
    take_batch(s, g - behind); /* the walk moves past it */
    return id;
}

static void add_victim(st__shortest *s, size_t id)
{
    /* srsf's order is the live list's; positions are below 2^53, exact as doubles */
    s->victim[s->n_victim++] = (st__ranked){s->live_order ? (double)s->pos[id] : 0, id, 0};
}

/* Under `preemption: false` every running job is chosen first: all walked. */
static int64_t keep_running(st__shortest *s, int64_t budget)
{
    for (size_t i = 0; i < s->n_lists; i++) {
        s->cur_gpus[i] = st__rset_gpus(&s->rpool, s->rl[s->lists[i]].root);
        s->cur[i] = st__rset_size(&s->rpool, s->rl[s->lists[i]].root);
        budget -= s->cur_gpus[i];
    }
    for (s->cur_loose = 0; s->cur_loose < s->n_loose; s->cur_loose++)
        budget -= s->gpus[s->loose[s->cur_loose].id];
    s->walked = s->run_gpus;
    return budget;
}

/* Waiting job w chosen: out of the set, into list, its GPUs off the budget *b. */
static void take(st__shortest *s, size_t w, int64_t *b, size_t *n)
{
    if (s->where[w] == SH_ARRIVED) /* never in the set: an arrival chosen at once */
        s->where[w] = SH_NONE;
    else
        st__rset_remove(&s->wpool, &s->wait, w);
    s->list[(*n)++] = w;
    *b -= s->gpus[w];
}

/* Choose down the merged ranking while GPUs remain (the file's comment says how). The chosen
 * waiting jobs leave the set (the arrivals not chosen join it), in rank order into list (returns
 * their count); the running jobs
 * not chosen go to victim, in rank order. */
static size_t choose(st__shortest *s, const st_sched_view *v)
{
    int64_t b = st_sched_total_gpus(v);
    size_t n = 0, w = NONE, r, from = 0;
    int stale = 1;
    for (size_t i = 0; i < s->n_lists; i++) {
        s->cur[i] = 0;
        s->cur_gpus[i] = 0;
        s->head[i] = STALE;
    }
    s->cur_loose = 0;
    s->n_victim = 0;
    s->walked = 0;
    s->run_gpus = s->list_gpus;
    for (size_t k = 0; k < s->n_loose; k++)
        s->run_gpus += s->gpus[s->loose[k].id];
    if (!st_sched_may_preempt(v)) /* `preemption: false`: the running jobs keep their GPUs */
        b = keep_running(s, b);
    while (b > 0) {
        /* w: the first-ranked waiting job that fits; it stays so while the shrinking budget
         * still holds it (one ranked before it that fits now fitted before) */
        if (stale || (w != NONE && s->gpus[w] > b))
            w = first_waiting(s, b);
        stale = 0;
        if (w != NONE && s->gpus[w] <= b - (s->run_gpus - s->walked)) {
            take(s, w, &b, &n); /* w fits even after every running job not walked yet */
            stale = 1;
            continue;
        }
        int64_t g = batch_gpus(s, w);
        if (g > b) { /* some running job before w is passed over: from the nearer end */
            add_victim(s, g - b <= b ? overflow_back(s, &b, g) : overflow(s, &b, w));
            continue;
        }
        take_batch(s, g);
        b -= g;
        if (w == NONE)
            break;
        if (s->gpus[w] > b)
            continue;
        take(s, w, &b, &n);
        stale = 1;
    }
    double k;
    while ((r = peek_running(s, &k, &from, SIZE_MAX - 1)) != NONE) { /* the budget is spent: */
        walk_past(s, r, from);                                       /* the rest are preempted */
        add_victim(s, r);
    }
    arrivals_wait(s);
    return n;
}

/* Preempt the running jobs not chosen, in rank order (srtf) or in the order of `live` (srsf);
 * each waits again with its key after its preemption (the restore it now owes included). */
static void preempt_victims(st__shortest *s, st_sched_view *v)
{
    if (s->live_order)
        st_sort_unless_sorted(s->victim, s->n_victim, sizeof *s->victim, by_key);
    for (size_t k = 0; k < s->n_victim; k++) {
        size_t id = s->victim[k].id;
        if (s->where[id] == SH_LIST)
            list_remove(s, id);
        st_sched_preempt(v, id);
        s->key[id] = key_of(s, v, id);
        wait_again(s, id);
    }
    size_t m = 0;
    for (size_t k = 0; k < s->n_loose; k++)
        if (s->where[s->loose[k].id] == SH_LOOSE)
            s->loose[m++] = s->loose[k];
    s->n_loose = m;
}

void st__shortest_pick(st__shortest *s, st_sched_view *v)
{
    settle(s, v);
    size_t n = choose(s, v);
    preempt_victims(s, v);
    for (size_t c = 0; c < n; c++) { /* the chosen waiting ones start, in rank order */
        size_t id = s->list[c];
        if (st_sched_start(v, id)) {
            s->where[id] = SH_LOOSE; /* its end is known from the next pick */
            s->loose[s->n_loose++] = (st__ranked){0, id, INT64_MIN};
        } else {
            wait_again(s, id); /* its key is unchanged: it never ran */
        }
    }
}
