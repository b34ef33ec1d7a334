/* A service in the run beside training or a trace: its place in the cluster run, the requests
 * its wait there made miss their target, and the services' share within their targets
 * together (docs/models/inference.md, "Sharing the cluster"). Split from run.c. */
#include "models/forecast/run_internal.h"
#include "models/plant/gpu_power.h"
#include "models/serve/serve.h"

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

/* The services with a latency target together: their requests within it over their requests. */
void st__run_serving_totals(st_run *out)
{
    double met = 0;
    for (size_t i = 0; i < out->n; i++) {
        const st_run_serve *v = &out->serve[i];
        if (!v->w || !v->r.has_slo)
            continue;
        out->has_serving = 1;
        out->serving.requests += (double)v->r.requests;
        met += v->r.slo_attainment * (double)v->r.requests;
    }
    if (out->serving.requests > 0)
        out->serving.slo_attainment = met / out->serving.requests;
}

/* A service's start, wait, end and preemptions from the cluster run, and its requests that the
 * wait made miss their target, out of its slo_attainment. */
void st__run_record_service(st_run_serve *v, const st_cluster_job_out *o)
{
    v->missed_waiting = missed_waiting(v, o);
    if (v->missed_waiting > 0)
        v->r.slo_attainment *= 1 - v->missed_waiting / (double)v->r.requests;
    if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG)
        return;
    v->has_start = 1;
    v->start_s = o->start_s;
    v->wait_s = o->wait_s;
    v->has_end = o->state == ST_CJ_FINISHED;
    v->end_s = o->end_s;
    v->preemptions = o->preemptions;
}

/* A service holds all its `gpus` in the cluster run for its whole span, but under a load curve's
 * autoscaler only replicas_mean of its dp replicas run on average: the GPUs of the others idle,
 * neither lent to training nor drawing a running replica's power. Over all its GPUs, its mean
 * iteration then keeps the running share `up` of the compute and communication time and idles
 * the rest; the plant's power is linear in those times (models/plant/gpu_power.h), so one
 * GPU's mean is up x a running GPU's + (1 - up) x idle. Without an autoscaler up is 1 and the
 * held iteration is the replicas' own. */
void st__run_service_held(st_run_serve *v, const st_gpu_spec *g)
{
    v->held = v->r.cycle;
    v->held_w = v->r.gpu_mean_w;
    int64_t dp = v->w->parallel.dp > 1 ? v->w->parallel.dp : 1;
    double up = v->r.replicas_mean / (double)dp;
    if (!(up >= 0 && up < 1))
        return;
    st_step_result *c = &v->held;
    c->b.compute_s *= up;
    c->b.tp_comm_s *= up;
    c->b.bubble_s = c->step_time_s - c->b.compute_s - c->b.tp_comm_s;
    st_plant_profile p;
    if (st_plant_profile_of(c, g, &p) == 0)
        v->held_w = p.energy_j / p.period_s;
}
