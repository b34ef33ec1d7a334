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

#include "models/sched/muri_run.h"
#include "sim/xalloc.h"

/* jobs.py add_job: iteration_time x itertime_overhead_list[0] = 1.015, the runtime model of the
 * artifact's single-job baselines. It computes in whole milliseconds (only digit strings become
 * numbers): submit_time / 1000 and iteration_time x 1.015 / 1000, which the replay redoes from
 * the trace's seconds (a millisecond count times 1e-3 rounds back to it), since the last bit of
 * a double decides ties between equal jobs on the batch-arrival traces. */
#define MURI_SERVICE 1.015
/* util.py search_dict_list: events (arrivals; SRTF's and SRSF's ends) within this relative
 * distance are one event. */
#define MURI_EVENT_REL_TOL 1e-9
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

int st_muri_order_of(const char *policy, st_muri_order *out)
{
    static const struct {
        const char *name;
        st_muri_order order;
    } names[] = {{"srtf", ST_MURI_SRTF}, {"srsf", ST_MURI_SRSF}, {"tiresias", ST_MURI_TIRESIAS_L}};
    for (size_t k = 0; policy && k < sizeof names / sizeof names[0]; k++)
        if (strcmp(policy, names[k].name) == 0) {
            *out = names[k].order;
            return 0;
        }
    return -1;
}

enum {
    M_LATER = ST__MURI_LATER,
    M_PENDING = ST__MURI_PENDING,
    M_RUNNING = ST__MURI_RUNNING,
    M_DONE = ST__MURI_DONE
};

typedef st__muri_job mjob;
typedef st__muri_ent qent;
typedef st__muri_run replay;

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

/* The jobs of the end event complete at t when `ending`; every other running job is charged
 * its overhead on the work since its last event (run_sim.py: max(event_time - last_check_time -
 * overhead, 0)). */
static void settle(replay *r, double t, int ending)
{
    size_t k = 0;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t id = r->queue[q];
        mjob *j = &r->j[id];
        if (j->state == M_RUNNING) {
            r->busy_gpu_s += (t - j->last) * (double)r->in[id].gpus;
            j->held += t - j->last;
            if (ending && j->ends) {
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
    /* the stable sort, by insertion: the queue was sorted at the last event, only running
     * jobs' keys fell and arrivals are at its back, so it is near linear */
    for (size_t q = 1; q < r->n_queue; q++) {
        qent e = r->scratch[q];
        size_t k = q;
        for (; k > 0 && by_key(&r->scratch[k - 1], &e) > 0; k--)
            r->scratch[k] = r->scratch[k - 1];
        r->scratch[k] = e;
    }
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
    st__muri_frag(r, t, left);
}

void st__muri_frag(st__muri_run *r, double t, int64_t left)
{
    int64_t least = INT64_MAX; /* the fragmentation level until the next event */
    for (size_t q = 0; q < r->n_queue; q++)
        if (r->j[r->queue[q]].state == M_PENDING && r->in[r->queue[q]].gpus < least)
            least = r->in[r->queue[q]].gpus;
    r->frag_gpu_s += r->frag_now * (t - r->frag_t);
    r->frag_now = least != INT64_MAX && least > left ? (double)left : 0;
    r->frag_t = t;
}

/* util.py search_dict_list, which groups the events: math.isclose(a, b, rel_tol=1e-9), as
 * CPython computes it. */
static int isclose(double a, double b)
{
    double d = fabs(b - a);
    return a == b || d <= fabs(MURI_EVENT_REL_TOL * b) || d <= fabs(MURI_EVENT_REL_TOL * a);
}

/* shortest_first_sim_jobs' end events: each running job, in queue order, joins the first event
 * made whose time is close to its planned end, else makes one at its end; the earliest event's
 * jobs will end there, at its time (r->end_t; INFINITY when none runs). */
static void group_ends(replay *r)
{
    size_t ng = 0, best = 0;
    for (size_t q = 0; q < r->n_queue; q++) {
        mjob *j = &r->j[r->queue[q]];
        j->ends = 0;
        if (j->state != M_RUNNING)
            continue;
        size_t g = 0;
        while (g < ng && !isclose(r->gtime[g], j->end))
            g++;
        if (g == ng)
            r->gtime[ng++] = j->end;
        r->grp[r->queue[q]] = g;
        if (r->gtime[g] < r->gtime[best])
            best = g;
    }
    r->end_t = ng ? r->gtime[best] : INFINITY;
    for (size_t q = 0; q < r->n_queue; q++)
        if (r->j[r->queue[q]].state == M_RUNNING && r->grp[r->queue[q]] == best)
            r->j[r->queue[q]].ends = 1;
}

/* The artifact's shortest_first_sim_jobs over the jobs arriving in the order `arr`; 0, or -1
 * when jobs wait that can never start. */
static int srtf_loop(replay *r, const size_t *arr)
{
    size_t next = 0;
    char *taken = st_xcalloc((size_t)r->nodes, 1);
    int rc = 0;
    while (next < r->n || r->n_queue) {
        double start_t = next < r->n ? r->at[next] : INFINITY, end_t = r->end_t;
        if (isinf(start_t) && isinf(end_t)) {
            rc = -1; /* "This cluster is not large enough to run the job" */
            break;
        }
        double t = fmin(start_t, end_t);
        settle(r, t, end_t <= start_t);
        while (next < r->n && r->at[next] == t) {
            size_t id = arr[next++];
            r->j[id].state = M_PENDING;
            r->j[id].last = t;
            r->queue[r->n_queue++] = id;
        }
        schedule(r, t, taken);
        group_ends(r);
        r->events++;
    }
    free(taken);
    return rc;
}

/* The arrival order (submit time, then file order: the artifact sorts its list stably) and the
 * start events: a job whose submit time is close (isclose) to the last event's joins it, else
 * makes one (jobs.py prepare_job_start_events; a later event cannot be closer, as the times
 * rise), so jobs a few milliseconds apart late in a trace arrive together, at the first one's
 * time. Then the order's event loop; 0, -1 or -2 as st__muri_dlas. */
static int loop(replay *r)
{
    size_t *arr = st_xcalloc(r->n ? r->n : 1, sizeof *arr);
    for (size_t i = 0; i < r->n; i++)
        r->scratch[i] = (qent){r->in[i].submit_s, i, i};
    qsort(r->scratch, r->n, sizeof *r->scratch, by_key);
    for (size_t i = 0; i < r->n; i++) /* jobs.py prepare_job_start_events */
        arr[i] = r->scratch[i].id, r->at[i] = i && isclose(r->at[i - 1], r->in[arr[i]].submit_s)
                                                  ? r->at[i - 1]
                                                  : r->in[arr[i]].submit_s;
    int rc = r->order == ST_MURI_TIRESIAS_L ? st__muri_dlas(r, arr) : srtf_loop(r, arr);
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
    double *jct = st_xcalloc(r->n ? r->n : 1, sizeof *jct), sw = 0, sc = 0, sq = 0;
    double *queued = st_xcalloc(r->n ? r->n : 1, sizeof *queued);
    st->jobs = r->n;
    for (size_t i = 0; i < r->n; i++) {
        const mjob *j = &r->j[i];
        if (j->state != M_DONE) {
            st->unfinished++;
            continue;
        }
        wait[st->finished] = j->start - r->in[i].submit_s;
        /* its whole time queued: what of its life it did not run (never below its wait) */
        queued[st->finished] = fmax(j->end - r->in[i].submit_s - j->held, wait[st->finished]);
        sq += queued[st->finished];
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
    double q50, q99;
    st->mean_queued_s = sq / f;
    quantiles(queued, st->finished, &q50, &st->p95_queued_s, &q99);
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
    free(queued);
    free(jct);
}

int st_muri_replay(const st_muri_job *jobs, size_t n, int64_t nodes, int64_t gpus_per_node,
                   st_muri_order order, st_cluster_stats *st, st_err *err)
{
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < n; i++) /* Tiresias-L counts GPUs only: no node rule */
        if (jobs[i].gpus < 1 || jobs[i].gpus > nodes * gpus_per_node ||
            (order != ST_MURI_TIRESIAS_L && jobs[i].gpus > gpus_per_node &&
             jobs[i].gpus % gpus_per_node))
            return st_err_set(err, ST_EINVAL, jobs[i].loc,
                              "Muri replay: job %zu asks for %lld GPUs, which the artifact's "
                              "placement cannot give on %lld nodes of %lld",
                              i, (long long)jobs[i].gpus, (long long)nodes,
                              (long long)gpus_per_node);
    st_muri_job *art = st_xcalloc(n ? n : 1, sizeof *art);
    for (size_t i = 0; i < n; i++) /* the artifact's own arithmetic on whole milliseconds */
        art[i] = jobs[i], art[i].submit_s = round(jobs[i].submit_s * 1000) / 1000;
    replay r = {.in = art, .n = n, .nodes = nodes, .gpn = gpus_per_node, .order = order};
    r.j = st_xcalloc(n ? n : 1, sizeof *r.j);
    r.queue = st_xcalloc(n ? n : 1, sizeof *r.queue);
    r.free = st_xcalloc((size_t)nodes, sizeof *r.free);
    r.scratch = st_xcalloc(n ? n : 1, sizeof *r.scratch);
    r.at = st_xcalloc(n ? n : 1, sizeof *r.at);
    r.gtime = st_xcalloc(n ? n : 1, sizeof *r.gtime);
    r.grp = st_xcalloc(n ? n : 1, sizeof *r.grp);
    r.end_t = INFINITY;
    for (size_t i = 0; i < n; i++)
        r.j[i] = (mjob){.rem_iter = jobs[i].iterations,
                        .iter_s = round(jobs[i].iteration_s * 1000) * MURI_SERVICE / 1000,
                        .start = -1};
    int rc = loop(&r);
    st_loc file = {n ? jobs[0].loc.file : NULL, 0, 0}; /* the trace, for what no one row causes */
    if (rc == -2)
        rc = st_err_set(err, ST_EINVAL, file,
                        "Muri replay: an arrival and a planned end fall at the same instant, "
                        "behind a queue jump, where the artifact's dlas-gpu loop would carry a "
                        "stale end list; not replayed");
    else if (rc)
        rc = st_err_set(err, ST_EINVAL, file, "Muri replay: jobs wait that can never start");
    summarise(&r, st);
    free(r.j);
    free(r.queue);
    free(r.free);
    free(r.scratch);
    free(r.at);
    free(r.gtime);
    free(r.grp);
    free(art);
    return rc;
}
