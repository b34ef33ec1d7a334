/* Muri's replay conventions (muri.h), following the artifact's code step by step (repository
 * Rivendile/Muri at 4e69a78, simulator/): jobs.py add_job (ms to s, iteration time x 1.015),
 * run_sim.py shortest_first_sim_jobs (the event loop: end events first, the overhead charge, a
 * stable re-sort, a scan against an empty cluster, every end time recomputed) and switch.py
 * ms_yarn_alloc_res (the `yarn` placement of cluster_spec/n8g8.csv; its CPU and memory checks
 * never bind on that cluster, 6 CPUs and 5-14 GB per GPU against 92 CPUs and 520 GB a node, so
 * they are not modelled). Doubles are updated in the artifact's order, so figures match it to
 * rounding. */
#include "models/sched/muri.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* jobs.py add_job: iteration_time x itertime_overhead_list[0] = 1.015, the runtime model of the
 * artifact's single-job baselines. */
#define MURI_SERVICE 1.015
/* run_sim.py: the overhead for a model the table lacks. */
#define MURI_DEFAULT_OVERHEAD_S 10.0

/* run_sim.py overhead_dict, seconds, by GPUs 1, 2, 4, 8, 16, 32. */
static const struct {
    const char *model;
    double s[6];
} overheads[] = {
    {"vgg16", {7, 7, 8, 9, 9, 10}},     {"vgg19", {7, 7, 8, 9, 10, 10}},
    {"resnet18", {4, 5, 5, 7, 7, 7}},   {"shufflenet_v2_x1_0", {4, 4, 5, 5, 7, 8}},
    {"bert", {10, 10, 10, 10, 10, 10}}, {"gpt2", {10, 10, 10, 10, 10, 10}},
    {"a2c", {38, 39, 39, 46, 46, 46}},  {"dqn", {5, 5, 6, 6, 8, 8}},
};

double st_muri_overhead_s(const char *model, int64_t gpus)
{
    static const int64_t sizes[6] = {1, 2, 4, 8, 16, 32};
    for (size_t m = 0; model && m < sizeof overheads / sizeof overheads[0]; m++)
        for (int k = 0; k < 6 && strcmp(model, overheads[m].model) == 0; k++)
            if (sizes[k] == gpus)
                return overheads[m].s[k];
    return MURI_DEFAULT_OVERHEAD_S;
}

enum { M_LATER, M_PENDING, M_RUNNING, M_DONE };

typedef struct mjob {
    int state;
    double rem_iter, iter_s, last, start, end;
} mjob;

/* A queue entry while sorting: its key, its place before the sort (the sort is stable), its id;
 * also the arrival order (key: submit time, pos: file order). */
typedef struct qent {
    double key;
    size_t pos, id;
} qent;

typedef struct replay {
    const st_muri_job *in;
    size_t n;
    mjob *j;
    size_t *queue, n_queue; /* the artifact's runnable_jobs, in its order */
    qent *scratch;
    int64_t *free, nodes, gpn;
    st_muri_order order;
    double busy_gpu_s;
    double frag_gpu_s, frag_now, frag_t; /* free GPUs no pending job fits, integrated */
    int64_t preemptions;
    uint64_t events;
} replay;

static int by_key(const void *a, const void *b)
{
    const qent *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* switch.py try_single_node_alloc / try_cross_node_alloc on the free counts (the scratch
 * array marks the idle nodes taken): 1 when placed. */
static int place(replay *r, int64_t need, char *taken)
{
    if (need <= r->gpn) {
        for (int64_t k = 0; k < r->nodes; k++)
            if (r->free[k] >= need) {
                r->free[k] -= need;
                return 1;
            }
        return 0;
    }
    int64_t full = need / r->gpn, last = need % r->gpn, got = 0, rest = -1;
    memset(taken, 0, (size_t)r->nodes);
    for (int64_t k = 0; k < r->nodes && got < full; k++)
        if (r->free[k] == r->gpn)
            taken[k] = 1, got++;
    for (int64_t k = 0; last && k < r->nodes && rest < 0; k++)
        if (!taken[k] && r->free[k] >= last)
            rest = k;
    if (got < full || (last && rest < 0))
        return 0;
    for (int64_t k = 0; k < r->nodes; k++)
        if (taken[k])
            r->free[k] = 0;
    if (rest >= 0)
        r->free[rest] -= last;
    return 1;
}

/* The jobs ending at t complete; every other running job is charged its overhead on the work
 * since its last event (run_sim.py: max(event_time - last_check_time - overhead, 0)). */
static void settle(replay *r, double t, double end_t)
{
    size_t k = 0;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t id = r->queue[q];
        mjob *j = &r->j[id];
        if (j->state == M_RUNNING) {
            r->busy_gpu_s += (t - j->last) * (double)r->in[id].gpus;
            if (j->end == end_t) {
                j->state = M_DONE;
                j->end = t;
                continue;
            }
            double work = fmax(t - j->last - r->in[id].overhead_s, 0);
            j->rem_iter -= work / j->iter_s;
        }
        j->last = t;
        r->queue[k++] = id;
    }
    r->n_queue = k;
}

/* Re-sort the queue (stably) and scan it against an empty cluster: who runs from t, and each
 * running job's end, now + what is left. */
static void schedule(replay *r, double t, char *taken)
{
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t id = r->queue[q];
        double key = r->j[id].rem_iter * r->j[id].iter_s; /* run_sim.py remaining_time */
        if (r->order == ST_MURI_SRSF)
            key *= (double)r->in[id].gpus; /* remaining_gputime */
        r->scratch[q] = (qent){key, q, id};
    }
    qsort(r->scratch, r->n_queue, sizeof *r->scratch, by_key);
    for (size_t q = 0; q < r->n_queue; q++)
        r->queue[q] = r->scratch[q].id;
    int64_t left = r->nodes * r->gpn;
    for (int64_t k = 0; k < r->nodes; k++)
        r->free[k] = r->gpn;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t id = r->queue[q];
        mjob *j = &r->j[id];
        int fits = left >= r->in[id].gpus && place(r, r->in[id].gpus, taken);
        if (fits) {
            left -= r->in[id].gpus;
            if (j->state == M_PENDING && j->start < 0)
                j->start = t;
            j->state = M_RUNNING;
            j->end = t + j->rem_iter * j->iter_s;
        } else if (j->state == M_RUNNING) {
            j->state = M_PENDING;
            r->preemptions++;
        }
    }
    int64_t least = INT64_MAX; /* the fragmentation level until the next event */
    for (size_t q = 0; q < r->n_queue; q++)
        if (r->j[r->queue[q]].state == M_PENDING && r->in[r->queue[q]].gpus < least)
            least = r->in[r->queue[q]].gpus;
    r->frag_gpu_s += r->frag_now * (t - r->frag_t);
    r->frag_now = least != INT64_MAX && least > left ? (double)left : 0;
    r->frag_t = t;
}

/* The earliest planned end among the running jobs, or INFINITY. */
static double next_end(const replay *r)
{
    double e = INFINITY;
    for (size_t q = 0; q < r->n_queue; q++)
        if (r->j[r->queue[q]].state == M_RUNNING)
            e = fmin(e, r->j[r->queue[q]].end);
    return e;
}

/* The artifact's event loop; 0, or -1 when jobs wait that can never start. */
static int loop(replay *r)
{
    /* arrival order: submit time, then file order (the artifact sorts its list stably) */
    size_t *arr = st_xcalloc(r->n ? r->n : 1, sizeof *arr), next = 0;
    for (size_t i = 0; i < r->n; i++)
        r->scratch[i] = (qent){r->in[i].submit_s, i, i};
    qsort(r->scratch, r->n, sizeof *r->scratch, by_key);
    for (size_t i = 0; i < r->n; i++)
        arr[i] = r->scratch[i].id;
    char *taken = st_xcalloc((size_t)r->nodes, 1);
    int rc = 0;
    while (next < r->n || r->n_queue) {
        double start_t = next < r->n ? r->in[arr[next]].submit_s : INFINITY, end_t = next_end(r);
        if (isinf(start_t) && isinf(end_t)) {
            rc = -1; /* "This cluster is not large enough to run the job" */
            break;
        }
        double t = fmin(start_t, end_t);
        settle(r, t, end_t <= start_t ? end_t : NAN);
        while (next < r->n && r->in[arr[next]].submit_s == t) {
            size_t id = arr[next++];
            r->j[id].state = M_PENDING;
            r->j[id].last = t;
            r->queue[r->n_queue++] = id;
        }
        schedule(r, t, taken);
        r->events++;
    }
    free(taken);
    free(arr);
    return rc;
}

/* calc.py's quantile: the sorted value at index int(q n). */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void quantiles(double *v, size_t n, double *p50, double *p95, double *p99)
{
    qsort(v, n, sizeof *v, by_value);
    *p50 = n ? v[(size_t)(0.5 * (double)n)] : 0;
    *p95 = n ? v[(size_t)(0.95 * (double)n)] : 0;
    *p99 = n ? v[(size_t)(0.99 * (double)n)] : 0;
}

static void summarise(const replay *r, st_cluster_stats *st)
{
    double *wait = st_xcalloc(r->n ? r->n : 1, sizeof *wait);
    double *jct = st_xcalloc(r->n ? r->n : 1, sizeof *jct), sw = 0, sc = 0;
    st->jobs = r->n;
    for (size_t i = 0; i < r->n; i++) {
        const mjob *j = &r->j[i];
        if (j->state != M_DONE) {
            st->unfinished++;
            continue;
        }
        wait[st->finished] = j->start - r->in[i].submit_s;
        jct[st->finished++] = j->end - r->in[i].submit_s;
        sw += j->start - r->in[i].submit_s;
        sc += j->end - r->in[i].submit_s;
        st->makespan_s = fmax(st->makespan_s, j->end);
    }
    double f = st->finished ? (double)st->finished : 1;
    st->mean_wait_s = sw / f;
    st->mean_jct_s = sc / f;
    quantiles(wait, st->finished, &st->p50_wait_s, &st->p95_wait_s, &st->p99_wait_s);
    quantiles(jct, st->finished, &st->p50_jct_s, &st->p95_jct_s, &st->p99_jct_s);
    double cap = (double)(r->nodes * r->gpn) * st->makespan_s, work = 0;
    for (size_t i = 0; i < r->n; i++) /* the service each job needed, without the overheads */
        work += r->in[i].iterations * r->j[i].iter_s * (double)r->in[i].gpus;
    st->utilization = cap > 0 ? r->busy_gpu_s / cap : 0;
    st->goodput = cap > 0 && !st->unfinished ? work / cap : 0;
    st->fragmented_gpus = st->makespan_s > 0 ? r->frag_gpu_s / st->makespan_s : 0;
    st->preemptions = r->preemptions;
    st->events = r->events;
    st->free_at_end = r->nodes * r->gpn;
    free(wait);
    free(jct);
}

int st_muri_replay(const st_muri_job *jobs, size_t n, int64_t nodes, int64_t gpus_per_node,
                   st_muri_order order, st_cluster_stats *st, st_err *err)
{
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < n; i++)
        if (jobs[i].gpus < 1 || jobs[i].gpus > nodes * gpus_per_node ||
            (jobs[i].gpus > gpus_per_node && jobs[i].gpus % gpus_per_node))
            return st_err_set(err, ST_EINVAL, (st_loc){0},
                              "Muri replay: job %zu asks for %lld GPUs, which the artifact's "
                              "placement cannot give on %lld nodes of %lld",
                              i, (long long)jobs[i].gpus, (long long)nodes,
                              (long long)gpus_per_node);
    replay r = {.in = jobs, .n = n, .nodes = nodes, .gpn = gpus_per_node, .order = order};
    r.j = st_xcalloc(n ? n : 1, sizeof *r.j);
    r.queue = st_xcalloc(n ? n : 1, sizeof *r.queue);
    r.free = st_xcalloc((size_t)nodes, sizeof *r.free);
    r.scratch = st_xcalloc(n ? n : 1, sizeof *r.scratch);
    for (size_t i = 0; i < n; i++)
        r.j[i] = (mjob){.rem_iter = jobs[i].iterations,
                        .iter_s = jobs[i].iteration_s * MURI_SERVICE,
                        .start = -1};
    int rc = loop(&r) ? st_err_set(err, ST_EINVAL, (st_loc){0},
                                   "Muri replay: jobs wait that can never start")
                      : 0;
    summarise(&r, st);
    free(r.j);
    free(r.queue);
    free(r.free);
    free(r.scratch);
    return rc;
}
