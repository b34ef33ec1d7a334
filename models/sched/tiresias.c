/* tiresias: two-dimensional least attained service with discretised queues, preemptive (Gu et
 * al., "Tiresias: A GPU Cluster Manager for Distributed Deep Learning", NSDI'19, section 3
 * (2DAS and its discretisation), the 2D-LAS of Tiresias-L). A job's attained service is its GPUs
 * times its executed time. K queues split it at K - 1 limits: a job is in the first queue whose
 * limit its service is below (the last queue has none). New jobs join the back of Q0; a job whose
 * service crosses its queue's limit is demoted to the back of its new queue at that instant (the
 * policy asks for a pick then, st_sched_wake_at). At every pick the queues are walked from Q0, each
 * in its order (FIFO), and a job whose GPUs still fit in the cluster's total is chosen, one that
 * does not is passed over and later ones may still be chosen; running jobs not chosen are
 * preempted, chosen waiting ones start. After each pick the running jobs of a queue stand
 * before its waiting ones (waiting jobs move to the back of their queue), so a job is not
 * preempted by one of its own queue behind it. Starvation (the paper's Algorithm 1): a job
 * outside Q0 that has waited, since it last entered Q0, knob times the time it has executed
 * since then is promoted to the back of Q0 and its service counted afresh.
 *
 * The rules beyond the paper follow the Tiresias artifact's dlas-gpu simulator and Muri's
 * replay of it (repository SymbioticLab/Tiresias, simulator/run_sim.py; Rivendile/Muri,
 * simulator/run_sim.py `dlas-gpu`): admission counts GPUs cluster-wide, skipped jobs do not
 * block, waiting jobs go to the back of their queue. Preemption pays its save and restore
 * through the cluster run (cluster.h's preempt_cost); `scheduler.preemption: false` keeps
 * running jobs chosen first. With the knob at 0 (the default) a long job may starve, so it
 * promises no progress.
 *
 * How a pick runs without scanning every job, each step giving the decision the old full scans
 * gave, bit for bit:
 * - Place. The queues are one order, (queue, part, seq): a queue's running jobs (part 0) before
 *   its waiting ones (part 1), each part by seq. A job joining a queue's back takes the next seq
 *   of a counter that only grows; the jobs preempted at a pick move to the front of their
 *   queue's waiting part, in their order, by seqs of a counter that only falls; the jobs that
 *   started (or were demoted and still run) move to the back of its running part, in their
 *   order. That is the partition the old code made of every queue after every pick, done to the
 *   few jobs that changed part.
 * - Waiting jobs are in an ordered set by place, running jobs in another with their GPUs in
 *   subtree sums, so the walk down the queues takes the running jobs before the next waiting
 *   job that fits a batch at a time (as shortest.c does): it goes job by job only from a batch
 *   that does not fit, which means some running job is preempted.
 * - A waiting job's service does not change while it waits, so only running jobs, and arrivals
 *   (a job requeued after a failure keeps its service), can cross a limit. Running jobs below
 *   the last queue are kept by a lower bound on when they cross (work done never grows faster
 *   than the clock, so the crossing time the rate-1 formula gives only moves later); only those
 *   whose bound has passed are tested, and the wake-up is the least exact figure among those
 *   whose bound lies below it. Waiting jobs that may earn promotion are kept likewise, by a
 *   lower bound on the instant they earn it. The bounds are loosened by more than any rounding
 *   of the figures they bound (SLACK), so the exact tests decide. */
#include <math.h>
#include <stdlib.h>

#include "models/sched/policy.h"
#include "models/sched/rankset.h"
#include "models/sched/tiresias.h"
#include "sim/sort.h"
#include "sim/xalloc.h"

/* The defaults: those of the Tiresias artifact (SymbioticLab/Tiresias, simulator/jobs.py:
 * num_queue = 3, queue_limit = [3250, 7200, ...] GPU-seconds; the first K - 1 limits are used),
 * which Muri's Tiresias-L baseline runs unchanged, with starvation promotion off as in both
 * artifacts' runs (solve_starvation = 0). */
const st_tiresias_cfg st_tiresias_defaults = {
    .queues = 3, .limit_gpu_s = {3250, 7200}, .promote_knob = 0};

/* Service within this of a limit counts as crossing it: a wake-up lands on whole nanoseconds. */
#define EPS_GPU_S 1e-6

#define NONE ST__RSET_NONE

/* How far below a figure of magnitude m its lower bound is set: above the rounding of any of the
 * sums it is computed from, whose terms are times below 2^63 ns (2.9e-6 s of rounding at most)
 * or of magnitude m. */
#define SLACK(m) (1e-4 + 1e-12 * (m))

/* Where a job is: none of these (finished, or chosen at this pick), an arrival since the last
 * pick, one admitted at this pick but not yet in the waiting set (arrived), waiting, running. */
enum { T_NONE, T_FRESH, T_ARRIVED, T_WAIT, T_RUN };
enum { PART_RUN, PART_WAIT };

typedef struct tiresias {
    st_tiresias_cfg p;
    const st_sched_job **job;
    unsigned char *qid, *part, *where;
    int64_t *seq, hi, lo; /* by id: its place's seq; the counters for a back and a front */
    st__rset wpool, rpool, cpool, ppool;
    size_t wait, run; /* waiting jobs, running jobs: by place */
    size_t cross;     /* running jobs below the last queue: by cross_at */
    size_t prom;      /* waiting jobs that may earn promotion: by prom_at */
    double *cross_at; /* by id: a lower bound on when it crosses its limit, and on the figure */
    double *prom_at;  /* by id: a lower bound on when it earns promotion, and on the figure */
    double *base;     /* by id: executed time when its service was last counted from 0 */
    double *since;    /* by id: when it last stopped running (or was promoted) */
    double *pend;     /* by id: time waited since it last entered Q0, before `since` */
    size_t *fresh, n_fresh;
    size_t *arrived, n_arrived; /* during a pick: the admitted arrivals, in place order; they join
                                   the waiting set only when not chosen (most start at once) */
    size_t *list, *victim, *moved, *dem; /* a pick's scratch */
    size_t n_victim, n_dem;
    struct placed *tmp;
    double wake; /* the wake-up asked for, 0: none */
} tiresias;

/* A job's place (and, when demoted, its new queue), for sorting. */
typedef struct placed {
    int q, part, to;
    int64_t seq;
    size_t id;
} placed;

/* Job id's place as a key: (queue, part), then seq (unique: each is taken from a counter once). */
static st__rkey place_key(const tiresias *t, size_t id)
{
    return (st__rkey){(uint64_t)t->qid[id] << 1 | t->part[id], st__rkey_int(t->seq[id])};
}

static int by_place(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    if (x->q != y->q)
        return x->q < y->q ? -1 : 1;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The old demotion order: the lowest queue first, each in its order. */
static int by_place_lowest_first(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    return x->q != y->q ? (x->q < y->q ? 1 : -1) : by_place(a, b);
}

static placed place_of(const tiresias *t, size_t id, int to)
{
    return (placed){t->qid[id], t->part[id], to, t->seq[id], id};
}

static int tiresias_configure(void *st, const st_sched_params *p, st_err *err)
{
    tiresias *t = st;
    t->p = p->cfg && p->cfg->tiresias.queues > 0 ? p->cfg->tiresias : st_tiresias_defaults;
    if (t->p.queues > ST_TIRESIAS_MAX_QUEUES)
        return st_err_set(err, ST_EINVAL, p->cfg->loc, "tiresias: at most %d queues",
                          ST_TIRESIAS_MAX_QUEUES);
    size_t n = p->n_jobs ? p->n_jobs : 1;
    t->job = st_xcalloc(n, sizeof *t->job);
    t->qid = st_xcalloc(n, 1);
    t->part = st_xcalloc(n, 1);
    t->where = st_xcalloc(n, 1);
    t->seq = st_xcalloc(n, sizeof *t->seq);
    st__rset_init(&t->wpool, n);
    st__rset_init(&t->rpool, n);
    st__rset_init(&t->cpool, n);
    st__rset_init(&t->ppool, n);
    t->wait = t->run = t->cross = t->prom = NONE;
    t->cross_at = st_xcalloc(n, sizeof *t->cross_at);
    t->prom_at = st_xcalloc(n, sizeof *t->prom_at);
    t->base = st_xcalloc(n, sizeof *t->base);
    t->since = st_xcalloc(n, sizeof *t->since);
    t->pend = st_xcalloc(n, sizeof *t->pend);
    t->fresh = st_xmalloc(n * sizeof *t->fresh);
    t->arrived = st_xmalloc(n * sizeof *t->arrived);
    t->list = st_xmalloc(n * sizeof *t->list);
    t->victim = st_xmalloc(n * sizeof *t->victim);
    t->moved = st_xmalloc(n * sizeof *t->moved);
    t->dem = st_xmalloc(n * sizeof *t->dem);
    t->tmp = st_xmalloc(n * sizeof *t->tmp);
    return 0;
}

static void tiresias_release(void *st)
{
    tiresias *t = st;
    if (!t->job) /* refused by configure */
        return;
    free(t->job);
    free(t->qid);
    free(t->part);
    free(t->where);
    free(t->seq);
    st__rset_release(&t->wpool);
    st__rset_release(&t->rpool);
    st__rset_release(&t->cpool);
    st__rset_release(&t->ppool);
    free(t->cross_at);
    free(t->prom_at);
    free(t->base);
    free(t->since);
    free(t->pend);
    free(t->fresh);
    free(t->arrived);
    free(t->list);
    free(t->victim);
    free(t->moved);
    free(t->dem);
    free(t->tmp);
}

static void tiresias_arrival(void *st, const st_sched_job *job)
{
    tiresias *t = st;
    t->job[job->id] = job;
    t->where[job->id] = T_FRESH;
    t->fresh[t->n_fresh++] = job->id;
}

/* Job id's executed time since its service was last counted from 0, and that service. */
static double executed(const tiresias *t, const st_sched_view *v, size_t id)
{
    return st_sched_attained_s(v, id) - t->base[id];
}

static double service(const tiresias *t, const st_sched_view *v, size_t id)
{
    return executed(t, v, id) * (double)t->job[id]->gpus;
}

/* The queue job id's service puts it in. */
static int queue_of(const tiresias *t, const st_sched_view *v, size_t id)
{
    double s = service(t, v, id);
    int k = 0;
    while (k < t->p.queues - 1 && s >= t->p.limit_gpu_s[k] - EPS_GPU_S)
        k++;
    return k;
}

/* Time job id has waited since it last entered Q0. */
static double waited(const tiresias *t, const st_sched_view *v, size_t id, double now)
{
    return t->pend[id] + (st_sched_is_running(v, id) ? 0 : now - t->since[id]);
}

/* When running job id's service reaches its queue's limit, were it to run at rate 1 from now:
 * the figure the wake-up is the least of. */
static double crossing(const tiresias *t, const st_sched_view *v, size_t id, double now)
{
    double g = (double)t->job[id]->gpus, e = executed(t, v, id);
    return now + (t->p.limit_gpu_s[t->qid[id]] - e * g) / g;
}

/* When waiting job id earns promotion, as the wake-up counts it. */
static double earning(const tiresias *t, const st_sched_view *v, size_t id, double now)
{
    return now + t->p.promote_knob * executed(t, v, id) - waited(t, v, id, now);
}

/* Running job id into the crossing set when below the last queue, bounded from its figure
 * now: the figure only grows while it runs, and its service reaches the limit less EPS_GPU_S
 * no earlier than EPS_GPU_S / GPUs before the figure. */
static void cross_put(tiresias *t, const st_sched_view *v, size_t id, double now)
{
    if (t->qid[id] >= t->p.queues - 1)
        return;
    double g = (double)t->job[id]->gpus, x = crossing(t, v, id, now);
    double m = fabs(x) + t->p.limit_gpu_s[t->qid[id]] / g + fabs(executed(t, v, id));
    t->cross_at[id] = x - EPS_GPU_S / g - SLACK(m);
    st__rset_add(&t->cpool, &t->cross, id, (st__rkey){st__rkey_double(t->cross_at[id]), id}, 1, 0);
}

/* Waiting job id into the promotion set when it may earn promotion (outside Q0, with executed
 * time), bounded from since + knob x executed - pend, the instant it earns it. */
static void prom_put(tiresias *t, const st_sched_view *v, size_t id)
{
    double e = executed(t, v, id), ke = t->p.promote_knob * e;
    if (!(t->p.promote_knob > 0) || t->qid[id] == 0 || !(e > 0))
        return;
    double x = t->since[id] + ke - t->pend[id];
    t->prom_at[id] = x - SLACK(fabs(t->since[id]) + fabs(ke) + fabs(t->pend[id]) + fabs(x));
    st__rset_add(&t->ppool, &t->prom, id, (st__rkey){st__rkey_double(t->prom_at[id]), id}, 1, 0);
}

static void drop(st__rset *pool, size_t *root, size_t id)
{
    if (st__rset_has(pool, id))
        st__rset_remove(pool, root, id);
}

static void tiresias_finish(void *st, const st_sched_job *job)
{
    tiresias *t = st;
    size_t id = job->id;
    if (t->where[id] == T_RUN)
        st__rset_remove(&t->rpool, &t->run, id);
    else if (t->where[id] == T_WAIT)
        st__rset_remove(&t->wpool, &t->wait, id);
    drop(&t->cpool, &t->cross, id);
    drop(&t->ppool, &t->prom, id);
    t->where[id] = T_NONE;
}

static void to_back(tiresias *t, size_t id, int q)
{
    t->qid[id] = (unsigned char)q;
    t->part[id] = PART_WAIT;
    t->seq[id] = ++t->hi;
}

static void wait_add(tiresias *t, size_t id)
{
    t->where[id] = T_WAIT;
    st__rset_add(&t->wpool, &t->wait, id, place_key(t, id), t->job[id]->gpus, 0);
}

/* The arrivals join the back of Q0 (a job requeued after a failure may come from a lower queue),
 * into moved and arrived; returns their count. They are in the waiting set's order, but out of
 * the set until the pick has chosen (arrivals_wait). */
static size_t admit(tiresias *t, double now)
{
    size_t m = 0;
    for (size_t k = 0; k < t->n_fresh; k++) {
        size_t id = t->fresh[k];
        if (t->where[id] != T_FRESH)
            continue; /* finished before this pick, or a duplicate of an entry already taken */
        t->since[id] = now;
        to_back(t, id, 0);
        t->where[id] = T_ARRIVED;
        t->moved[m++] = id;
    }
    t->n_fresh = 0;
    for (size_t k = 0; k < m; k++)
        t->arrived[k] = t->moved[k];
    t->n_arrived = m;
    return m;
}

/* The first waiting job in place order that fits in b GPUs (NONE: none does), the arrivals not
 * yet in the waiting set included (they follow each other in place order). */
static size_t first_waiting(const tiresias *t, int64_t b)
{
    size_t w = st__rset_first(&t->wpool, t->wait, b, NULL, NULL);
    for (size_t k = 0; k < t->n_arrived; k++) {
        size_t a = t->arrived[k];
        if (t->where[a] != T_ARRIVED || t->job[a]->gpus > b)
            continue;
        if (w == NONE)
            return a;
        st__rkey ka = place_key(t, a), kw = place_key(t, w);
        return st__rkey_less(&ka, &kw) ? a : w;
    }
    return w;
}

/* The arrivals this pick did not choose join the waiting set. */
static void arrivals_wait(tiresias *t)
{
    for (size_t k = 0; k < t->n_arrived; k++)
        if (t->where[t->arrived[k]] == T_ARRIVED)
            wait_add(t, t->arrived[k]);
    t->n_arrived = 0;
}

/* Job id to the back of queue q; a running one is remembered for rekey. */
static void demote_to(tiresias *t, const st_sched_view *v, size_t id, int q, double now)
{
    if (t->where[id] == T_RUN) {
        st__rset_remove(&t->rpool, &t->run, id);
        to_back(t, id, q);
        st__rset_add(&t->rpool, &t->run, id, place_key(t, id), t->job[id]->gpus, 0);
        cross_put(t, v, id, now);
        t->dem[t->n_dem++] = id;
        return;
    }
    if (t->where[id] == T_WAIT) /* (an arrival is not in the set yet) */
        st__rset_remove(&t->wpool, &t->wait, id);
    to_back(t, id, q);
    wait_add(t, id);
    prom_put(t, v, id);
}

/* Demotions: the arrivals (moved[0 .. nf)) and the running jobs whose crossing bound has passed
 * are tested; the movers join the back of their new queue, the lowest queue's first, each
 * queue's in its order (the old loop from Q(K-2) down to Q0). */
static void demote(tiresias *t, const st_sched_view *v, double now, size_t nf)
{
    size_t m = nf, c, d = 0;
    t->n_dem = 0;
    if (t->p.queues < 2)
        return;
    while ((c = st__rset_first(&t->cpool, t->cross, INT64_MAX, NULL, NULL)) != NONE &&
           t->cross_at[c] <= now) {
        st__rset_remove(&t->cpool, &t->cross, c);
        t->moved[m++] = c;
    }
    for (size_t k = 0; k < m; k++) {
        size_t id = t->moved[k];
        int to = queue_of(t, v, id);
        if (to > t->qid[id])
            t->tmp[d++] = place_of(t, id, to);
        else if (t->where[id] == T_RUN)
            cross_put(t, v, id, now); /* not yet: a tighter bound */
    }
    st_sort_unless_sorted(t->tmp, d, sizeof *t->tmp, by_place_lowest_first);
    for (size_t k = 0; k < d; k++)
        demote_to(t, v, t->tmp[k].id, t->tmp[k].to, now);
}

/* Promotions: the waiting jobs whose bound has passed are tested (the old condition); those that
 * earned it join the back of Q0 in queue order, their service counted afresh. */
static void promote(tiresias *t, const st_sched_view *v, double now)
{
    size_t m = 0, c, np = 0;
    while ((c = st__rset_first(&t->ppool, t->prom, INT64_MAX, NULL, NULL)) != NONE &&
           t->prom_at[c] <= now) {
        st__rset_remove(&t->ppool, &t->prom, c);
        t->moved[m++] = c;
    }
    for (size_t k = 0; k < m; k++) {
        size_t id = t->moved[k];
        double e = executed(t, v, id);
        if (st_sched_is_running(v, id) || e <= 0 || waited(t, v, id, now) < t->p.promote_knob * e)
            prom_put(t, v, id); /* not yet */
        else
            t->tmp[np++] = place_of(t, id, 0);
    }
    st_sort_unless_sorted(t->tmp, np, sizeof *t->tmp, by_place);
    for (size_t k = 0; k < np; k++) {
        size_t id = t->tmp[k].id;
        double e = executed(t, v, id);
        st__rset_remove(&t->wpool, &t->wait, id);
        t->base[id] += e;
        t->pend[id] = 0;
        t->since[id] = now;
        to_back(t, id, 0);
        wait_add(t, id);
    }
}

/* The running jobs not yet walked (past the first c, cg GPUs) that stand before waiting job w
 * (all of them, w NONE): the walk's new count in *c and GPUs in *cg; returns their GPUs. */
static int64_t batch(tiresias *t, size_t w, size_t c, int64_t cg, size_t *nc, int64_t *ncg)
{
    if (w == NONE) {
        *nc = st__rset_size(&t->rpool, t->run);
        *ncg = st__rset_gpus(&t->rpool, t->run);
    } else {
        st__rkey k = place_key(t, w);
        st__rset_below(&t->rpool, t->run, &k, nc, ncg);
    }
    if (*nc < c) { /* walked already (all, under `preemption: false`) */
        *nc = c;
        *ncg = cg;
    }
    return *ncg - cg;
}

/* Choose down the queues while GPUs remain (the running jobs first under `preemption: false`):
 * the next job chosen is the first in place order not yet walked that fits in what is left,
 * since the budget only shrinks. The running jobs before the next waiting candidate are taken a
 * batch at a time when they all fit; when they do not, those before the one at which their GPUs
 * pass the budget are taken, and that one is passed over. The chosen waiting jobs leave the
 * waiting set, into list (returns their count); the running jobs not chosen go to victim, in
 * place order. */
static size_t choose(tiresias *t, const st_sched_view *v)
{
    int64_t b = st_sched_total_gpus(v), cg = 0, ncg;
    size_t n = 0, w = NONE, c = 0, nc, r;
    int stale = 1;
    t->n_victim = 0;
    if (!st_sched_may_preempt(v)) {
        c = st__rset_size(&t->rpool, t->run);
        cg = st__rset_gpus(&t->rpool, t->run);
        b -= cg;
    }
    while (b > 0) {
        if (stale || (w != NONE && t->job[w]->gpus > b))
            w = first_waiting(t, b);
        stale = 0;
        int64_t g = batch(t, w, c, cg, &nc, &ncg);
        if (g > b) { /* a running job before w does not fit: the ones before it do */
            r = st__rset_reach(&t->rpool, t->run, cg + b + 1, &nc, &ncg);
            b -= ncg - t->job[r]->gpus - cg;
            t->victim[t->n_victim++] = r;
            c = nc;
            cg = ncg;
            continue;
        }
        b -= g;
        c = nc;
        cg = ncg;
        if (w == NONE)
            break;
        if (t->job[w]->gpus > b)
            continue;
        if (t->where[w] == T_ARRIVED) /* never in the set: an arrival chosen at once */
            t->where[w] = T_NONE;
        else
            st__rset_remove(&t->wpool, &t->wait, w);
        t->list[n++] = w;
        b -= t->job[w]->gpus;
        stale = 1;
    }
    while ((r = st__rset_at(&t->rpool, t->run, c++)) != NONE) /* the budget is spent */
        t->victim[t->n_victim++] = r;
    arrivals_wait(t);
    return n;
}

/* The victims are preempted in place order; they wait again, in the waiting set after rekey. */
static void preempt(tiresias *t, st_sched_view *v, double now)
{
    for (size_t k = 0; k < t->n_victim; k++) {
        size_t id = t->victim[k];
        st_sched_preempt(v, id);
        t->since[id] = now;
        st__rset_remove(&t->rpool, &t->run, id);
        drop(&t->cpool, &t->cross, id);
        t->where[id] = T_WAIT;
    }
}

/* The chosen waiting jobs start, in order; the started go to moved (returns their count), the
 * others back to the waiting set at their place. */
static size_t start(tiresias *t, st_sched_view *v, double now, size_t n)
{
    size_t m = 0;
    for (size_t c = 0; c < n; c++) {
        size_t id = t->list[c];
        if (!st_sched_start(v, id)) {
            wait_add(t, id);
            continue;
        }
        if (executed(t, v, id) > 0)
            t->pend[id] += now - t->since[id]; /* a job that ran before waited this long again */
        t->where[id] = T_RUN;
        drop(&t->ppool, &t->prom, id);
        t->moved[m++] = id;
    }
    return m;
}

/* Each queue's running jobs before its waiting ones, each in its order (the file's comment):
 * the preempted from a running part to the front of their waiting part, the started (moved[0 ..
 * ns)) and the demoted that still run to the back of their running part. */
static void rekey(tiresias *t, const st_sched_view *v, double now, size_t ns)
{
    for (size_t k = t->n_victim; k-- > 0;) {
        size_t id = t->victim[k];
        if (t->part[id] == PART_RUN) {
            t->part[id] = PART_WAIT;
            t->seq[id] = --t->lo;
        }
    }
    for (size_t k = 0; k < t->n_victim; k++) {
        wait_add(t, t->victim[k]);
        prom_put(t, v, t->victim[k]);
    }
    size_t m = 0;
    for (size_t k = 0; k < ns; k++)
        t->tmp[m++] = place_of(t, t->moved[k], 1);
    for (size_t k = 0; k < t->n_dem; k++)
        if (t->where[t->dem[k]] == T_RUN)
            t->tmp[m++] = place_of(t, t->dem[k], 0);
    st_sort_unless_sorted(t->tmp, m, sizeof *t->tmp, by_place);
    for (size_t k = 0; k < m; k++) {
        size_t id = t->tmp[k].id;
        if (!t->tmp[k].to) /* a demoted one: already in the running set */
            st__rset_remove(&t->rpool, &t->run, id);
        t->part[id] = PART_RUN;
        t->seq[id] = ++t->hi;
        st__rset_add(&t->rpool, &t->run, id, place_key(t, id), t->job[id]->gpus, 0);
        if (t->tmp[k].to) /* a started one */
            cross_put(t, v, id, now);
    }
}

/* The least figure over the crossing set (crossing_set) or the promotion set, whose bounds lie
 * below the figures: walked in bound order until a bound passes the least found. A crossing
 * bound well below its figure now (a job slowed by its rate runs later than the rate-1 formula
 * said) is raised; an earning figure does not move while the job waits. */
static double least(tiresias *t, const st_sched_view *v, double now, int crossing_set)
{
    st__rset *pool = crossing_set ? &t->cpool : &t->ppool;
    size_t *root = crossing_set ? &t->cross : &t->prom, m = 0;
    const double *key = crossing_set ? t->cross_at : t->prom_at;
    double best = INFINITY;
    st__rset_pos p;
    for (size_t k = 0, c = st__rset_seek(pool, *root, 0, &p); c != NONE && key[c] <= best;
         c = st__rset_step(pool, *root, k++, &p)) {
        double x = crossing_set ? crossing(t, v, c, now) : earning(t, v, c, now);
        best = fmin(best, x);
        if (crossing_set && x - key[c] > 1 + SLACK(fabs(x)))
            t->moved[m++] = c;
    }
    for (size_t k = 0; k < m; k++) {
        st__rset_remove(pool, root, t->moved[k]);
        cross_put(t, v, t->moved[k], now);
    }
    return best;
}

/* The next instant a running job crosses its queue's limit or a waiting one earns promotion. */
static void ask_wake(tiresias *t, st_sched_view *v, double now)
{
    double next = least(t, v, now, 1);
    if (t->p.promote_knob > 0)
        next = fmin(next, least(t, v, now, 0));
    if (isfinite(next) && (t->wake <= now || next < t->wake)) {
        st_sched_wake_at(v, next);
        t->wake = next;
    }
}

static void tiresias_pick(void *st, st_sched_view *v)
{
    tiresias *t = st;
    double now = st_sched_now(v);
    demote(t, v, now, admit(t, now));
    if (t->p.promote_knob > 0)
        promote(t, v, now);
    size_t n = choose(t, v);
    preempt(t, v, now);
    rekey(t, v, now, start(t, v, now, n));
    ask_wake(t, v, now);
}

const st_sched_policy st__sched_tiresias = {
    .abi = ST_SCHED_ABI,
    .name = "tiresias",
    .state_size = sizeof(tiresias),
    .no_starvation = 0,
    .configure = tiresias_configure,
    .release = tiresias_release,
    .on_arrival = tiresias_arrival,
    .on_finish = tiresias_finish,
    .pick = tiresias_pick,
};
