/* A service in the run beside training or a trace: its place in the cluster run, the requests
 * its wait there made miss their target, and the services' share within their targets
 * together (docs/models/inference.md, "Sharing the cluster"). Split from run.c. */
#include "models/forecast/run_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve.h"
#include "sim/xalloc.h"

/* The share of requests a p99 target lets miss it. */
#define P99_MISS 0.01

/* Requests of service v that arrive while it waits in the scheduler's queue for longer than its
 * time-to-first-token target T before it starts (or resumes after a preemption): those that
 * arrive in the first wait's first W - T seconds, and, at the stream's mean rate, in re-queues
 * (with the saves and restores of its preemptions) past T. Whatever its replicas then do, each
 * misses the target; those that wait less than T may still miss it behind the backlog, which
 * the count leaves out: a lower bound. A service that never starts misses every request. */
static double missed_waiting(const st_run_serve *v, const st_cluster_job_out *o)
{
    const st_inference_cfg *ic = &v->w->inference;
    double T = ic->slo_ttft_s, n = (double)v->r.requests;
    if (!v->r.has_slo || !(n > 0))
        return 0;
    if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG)
        return n; /* whatever its targets: it served none */
    if (!(T > 0))
        return 0;
    double again = o->queued_s - o->wait_s + o->preempted_s, span = v->r.span_s;
    double miss = st_serve_sent(ic, 0, o->wait_s - T);
    if (again > T && span > 0)
        miss += n / span * (again - T);
    return miss < n ? miss : n;
}

/* The finished cluster jobs that are not a service's (its job up all along or a replica's
 * stretch): their count and mean completion time, into s. */
static void training_beside(const st_run *out, st_run_serving *s)
{
    const st_cluster_result *c = &out->cluster;
    char *service = st_xcalloc(c->n ? c->n : 1, 1);
    for (size_t i = 0; i < out->n; i++) {
        const st_run_serve *v = &out->serve[i];
        if (!v->w)
            continue;
        if (out->cluster_job[i] >= 0)
            service[out->cluster_job[i]] = 1;
        for (size_t u = 0; u < v->n_ups && v->first_up >= 0; u++)
            if ((size_t)v->first_up + u < c->n)
                service[(size_t)v->first_up + u] = 1;
    }
    double sum = 0;
    for (size_t k = 0; k < c->n; k++) {
        const st_cluster_job_out *o = &c->job[k];
        if (service[k] || o->state != ST_CJ_FINISHED)
            continue;
        s->train_jobs++;
        sum += o->end_s - (o->start_s - o->wait_s); /* end - submit */
    }
    s->train_mean_jct_s = s->train_jobs ? sum / (double)s->train_jobs : 0;
    free(service);
}

/* The services with a latency target together: their requests within it over their requests,
 * and the training jobs finished beside them; and the services scaled to zero with their
 * stretches. */
void st__run_serving_totals(st_run *out)
{
    double met = 0;
    for (size_t i = 0; i < out->n; i++) {
        const st_run_serve *v = &out->serve[i];
        if (v->w && v->base == 0 && v->n_ups > 0) {
            out->serving.zero_services++;
            out->serving.zero_stretches += v->n_ups;
        }
        if (!v->w || !v->r.has_slo)
            continue;
        out->has_serving = 1;
        out->serving.requests += (double)v->r.requests;
        met += v->r.slo_attainment * (double)v->r.requests;
    }
    if (out->serving.requests > 0)
        out->serving.slo_attainment = met / out->serving.requests;
    if (out->has_serving && out->has_cluster)
        training_beside(out, &out->serving);
}

/* The seconds from the first point of w's load curve to its last. */
static double curve_s(const st_workload_cfg *w)
{
    const st_inference_cfg *ic = &w->inference;
    return ic->n_load > 1 ? ic->load[ic->n_load - 1].at_s - ic->load[0].at_s : 0;
}

void st__run_service_ups(st_run_serve *v)
{
    v->n_ups = st_serve_ups(v->w, &v->r, &v->base, &v->ups);
}

void st__run_up_job(const st_run_serve *v, size_t j, double *submit_s, double *duration_s)
{
    const st_serve_up *u = &v->ups[j];
    double ask = u->from_s > 0 ? u->from_s - v->r.cold.total_s : 0;
    ask = ask > 0 ? ask : 0;
    double curve = curve_s(v->w), to = u->to_s;
    if (to >= curve) /* up at the curve's end: it serves until its last requests are done */
        to = v->r.span_s > curve ? v->r.span_s : curve;
    *submit_s = ask;
    *duration_s = to - ask;
}

/* Under an autoscaler, the requests its replicas missed the time-to-first-token target by in the
 * cluster run, each cluster job for its own replicas: the base job's `base` replicas over the
 * span, each stretch's one over its own. A job that waits W serves W late (a stretch's delay
 * is the plan's), so the requests its replicas' share of the stream sends them in the first
 * W - T seconds after its planned start wait past T; those of a re-queue (a preemption's) past
 * T at its mean share; all of its share when it never starts. A lower bound, as
 * missed_waiting's. */
static double missed_ups(const st_run_serve *v, const st_cluster_job_out *base,
                         const st_cluster_job_out *uo)
{
    double T = v->w->inference.slo_ttft_s, miss = 0;
    size_t n = v->n_ups + 1; /* holder 0: the base job; holder j + 1: stretch j */
    double *a = st_xmalloc(2 * n * sizeof *a), *b = st_xmalloc(2 * n * sizeof *b);
    double *sent = st_xmalloc(2 * n * sizeof *sent);
    for (size_t h = 0; h < n; h++) {
        const st_cluster_job_out *o = h ? &uo[h - 1] : base;
        double sub = 0, dur = v->r.span_s, from = 0;
        if (h) {
            st__run_up_job(v, h - 1, &sub, &dur);
            from = v->ups[h - 1].from_s;
        }
        double to = sub + dur, late = o->wait_s - (T > 0 ? T : 0);
        a[2 * h] = a[2 * h + 1] = from;
        b[2 * h] = to; /* its share over its stretch */
        b[2 * h + 1] = late > 0 ? (from + late < to ? from + late : to) : from; /* and late */
    }
    st_serve_replica_sent(v->w, &v->r, a, b, 2 * n, sent);
    for (size_t h = 0; h < n; h++) {
        const st_cluster_job_out *o = h ? &uo[h - 1] : base;
        double k = h ? 1 : (double)v->base, len = b[2 * h] - a[2 * h];
        if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG) {
            miss += k * sent[2 * h];
            continue;
        }
        if (!(T > 0))
            continue;
        miss += k * sent[2 * h + 1];
        double again = o->queued_s - o->wait_s + o->preempted_s;
        if (again > T && len > 0)
            miss += k * sent[2 * h] / len * (again - T);
    }
    free(a);
    free(b);
    free(sent);
    return miss;
}

/* A service's start, wait, end and preemptions from the cluster run, and its requests that the
 * waits made miss their target, out of its slo_attainment. */
/* A wait of the cluster run, less than a microsecond taken as none: a stretch is asked for at
 * its ready time less its start (st__run_up_job), which a modelled start (a sum of parts, not a
 * stated delay) leaves off its launch by a rounding error. */
static double settled(double wait_s)
{
    return fabs(wait_s) < 1e-6 ? 0 : wait_s;
}

void st__run_record_service(st_run_serve *v, const st_cluster_job_out *o,
                            const st_cluster_job_out *ups)
{
    double n = (double)v->r.requests;
    double miss = !ups ? missed_waiting(v, o) : v->r.has_slo && n > 0 ? missed_ups(v, o, ups) : 0;
    v->missed_waiting = miss < n ? miss : n;
    if (v->missed_waiting > 0)
        v->r.slo_attainment *= 1 - v->missed_waiting / n;
    /* The targets are p99s: more than 1% of the requests missing the time to first token while
     * the service waits for GPUs (or every request, never served) misses them, whatever its
     * replicas' own p99 (a service that waited 2.4 h behind training was "met" at 0% within) */
    if (v->r.slo_met && v->missed_waiting > P99_MISS * n)
        v->r.slo_met = 0;
    for (size_t j = 0; ups && j < v->n_ups; j++) {
        v->preemptions += ups[j].preemptions;
        if (ups[j].state != ST_CJ_WAITING && ups[j].state != ST_CJ_TOO_BIG)
            v->scale_up_wait_s += settled(ups[j].wait_s);
    }
    if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG)
        return;
    v->has_start = 1;
    v->start_s = o->start_s;
    v->wait_s = settled(o->wait_s);
    v->has_end = o->state == ST_CJ_FINISHED;
    v->end_s = o->end_s;
    v->preemptions += o->preemptions;
}

int64_t st__run_service_placed(st_run_serve *v)
{
    if (!v->gpus)
        return 0;
    int64_t dp = st_serve_replicas(v->w), rg = st_serve_replica_gpus(v->w), m = 0;
    for (int64_t r = 0; r < dp; r++)
        if (v->seen[r]) {
            v->seen[r] = 0;
            memmove(v->gpus + m * rg, v->gpus + r * rg, (size_t)rg * sizeof *v->gpus);
            v->seen[m++] = 1; /* the first m slots now: m <= r */
        }
    return m * rg;
}
