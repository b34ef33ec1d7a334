/* The forecast of a whole scenario: training jobs' steps on each pool's step context, the
 * services, then the cluster run of the training jobs, the trace's jobs and the services
 * (run_lives.c), where each training job's life is forecast where and when it starts, then the
 * plant, the costs, the collective workloads together on the fabric, and the audit. */
#include "models/forecast/run.h"
#include "models/forecast/run_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/forecast/netpower.h"
#include "models/plant/dvfs.h"
#include "models/plant/plant.h"
#include "sim/intmath.h"
#include "sim/xalloc.h"

static void pool_steps_init(st__pool_steps *ps, const st_run_spec *sp)
{
    const st_cluster_cfg *c = sp->c;
    ps->n = st_pools_count(c);
    ps->view = c->n_pools > 0 ? st_xcalloc((size_t)ps->n, sizeof *ps->view) : NULL;
    for (int k = 0; ps->view && k < ps->n; k++)
        st_pools_view(c, k, &ps->view[k]);
    ps->step = st_xcalloc((size_t)ps->n, sizeof *ps->step);
    ps->pace = st_xcalloc(sp->n ? sp->n : 1, sizeof *ps->pace);
    for (size_t i = 0; i < sp->n; i++)
        ps->pace[i] = sp->w[i].pool;
}

static void pool_steps_release(st__pool_steps *ps)
{
    for (int k = 0; k < ps->n; k++)
        st_step_ctx_free(ps->step[k]);
    free(ps->step);
    free(ps->view);
    free(ps->pace);
}

const st_cluster_cfg *st__run_view_of(const st_run_spec *sp, const st__pool_steps *ps,
                                      const st_workload_cfg *w)
{
    return ps->view ? &ps->view[ps->pace[w - sp->w]] : sp->c;
}

/* Pool k's step context, made when first asked. */
static int pool_ctx(st__pool_steps *ps, const st_run_spec *sp, int k, st_err *err)
{
    return ps->step[k] ? 0 : st_step_ctx_new(ps->view ? &ps->view[k] : sp->c, &ps->step[k], err);
}

/* Whether forecast a (of one pool's type) sets a job across pools' figures rather than b: a
 * plan that does not fit on some type does not run, and that type's forecast says why; else
 * the slowest step, since every rank of a synchronous step waits for the slowest type. */
static int paces(const st_forecast *a, const st_forecast *b)
{
    if (a->mem.fits != b->mem.fits)
        return !a->mem.fits;
    return a->has_step && b->has_step && a->step.step_time_s > b->step.step_time_s;
}

/* Workload w as pool k's replicas run it, into *out: w at micro-batch mb; under an uneven split
 * (pool_batch), every replica at pool k's share, B_k / dp_k sequences, the job's own batch kept
 * for its rates (st_workload_cfg.split_batch). */
static void pool_share(const st_workload_cfg *w, const int64_t *batch, int k, int64_t mb,
                       st_workload_cfg *out)
{
    *out = *w;
    out->parallel.microbatch = mb;
    if (!batch)
        return;
    const st_parallel_cfg *p = &w->parallel;
    int64_t rep = p->tp * p->cp * p->pp, dp = w->gpus / rep, dp_k = w->pool_gpus[k] / rep;
    out->global_batch = batch[k] / dp_k * dp;
    out->split_batch = w->global_batch;
}

/* A training job across pools (docs/models/pools.md, "A job across pools"): its memory and
 * step on each of its pools' types (each at its replicas' share of the batch) at one
 * micro-batch (the smallest any type picks, under `auto`, so that it fits all), the slowest kept
 * in *out, its pool in ps->pace[i] and the workload it ran in *pace_w, and each type's step in
 * alone[k] (0 where it does not run). batch: each pool's share of the batch (NULL: even); mb:
 * the micro-batch (0: the plan's `auto`). */
static int forecast_span(const st_run_spec *sp, size_t i, st__pool_steps *ps, st_forecast *out,
                         const int64_t *batch, int64_t mb, double *alone, st_workload_cfg *pace_w,
                         st_err *err)
{
    const st_workload_cfg *w = &sp->w[i];
    int64_t agreed = mb;
    int rc = 0;
    for (int pass = 0; pass < 2 && !rc; pass++) { /* the second at the micro-batch agreed */
        int64_t mb = 0;
        int have = 0;
        for (int k = 0; k < ps->n && !rc; k++) {
            st_forecast f;
            st_workload_cfg one;
            if (!w->pool_gpus[k] || (rc = pool_ctx(ps, sp, k, err)))
                continue;
            pool_share(w, batch, k, agreed, &one);
            rc = st_forecast_job(ps->step[k], &one, &ps->view[k], &f, NULL, err);
            f.w = w;
            mb = !mb || f.microbatch < mb ? f.microbatch : mb;
            alone[k] = f.has_step ? f.step.step_time_s : 0;
            if (!rc && (!have || paces(&f, out))) {
                *out = f;
                *pace_w = one;
                ps->pace[i] = k;
                have = 1;
            }
        }
        if (agreed || rc)
            break;
        agreed = mb;
    }
    pace_w->parallel.microbatch = out->microbatch = agreed ? agreed : out->microbatch;
    return rc;
}

/* The most pace-setting pool of the split m (micro-batches a step per replica) at tau (each
 * pool's time per micro-batch), into *top, and the largest of the others' times, into *rest. */
static int slowest(const int64_t *m, const double *tau, int n, double *top, double *rest)
{
    int s = -1;
    *top = *rest = 0;
    for (int k = 0; k < n; k++) {
        double t = (double)m[k] * tau[k];
        if (!m[k])
            continue;
        if (s < 0 || t > *top) {
            *rest = s < 0 ? 0 : *top;
            *top = t;
            s = k;
        } else if (t > *rest) {
            *rest = t;
        }
    }
    return s;
}

/* The first pool job w spans whose nodes are larger than pool pace's, or -1. */
static int larger_than_pace(const st_cluster_cfg *c, const st_workload_cfg *w, int pace)
{
    for (int k = 0; k < c->n_pools; k++)
        if (w->pool_gpus[k] && st_pools_gpus_per_node(c, k) > st_pools_gpus_per_node(c, pace))
            return k;
    return -1;
}

/* `pool_batch: balanced` (docs/models/pools.md, "An uneven split"): each pool's share of job w's
 * batch from its replicas' even steps alone[k], taken as m_even micro-batches of alone[k] /
 * m_even each. From the even split, micro-batches move from the pool that paces the step to the
 * one that would then end soonest, in the least whole exchange (lcm(dp_s, dp_j) sequences of
 * micro-batch mb: the batch stays whole; pp times that under interleaving, whose schedule runs a
 * replica's micro-batches in groups of pp, st_plan_check_batch), while that shortens the
 * longest, and while the pool that would end last may pace it (on cluster c's nodes of several
 * sizes, a pool of the largest the job spans: larger_than_pace, pace_node_check); each move
 * costs a pass over the pools.
 * Returns the shares (malloc'd), or NULL where a pool's step is unknown (its type cannot hold the
 * plan) or the even split is already the best. */
static int64_t *balance(const st_workload_cfg *w, const double *alone, int64_t mb, int n,
                        const st_cluster_cfg *c)
{
    const st_parallel_cfg *p = &w->parallel;
    int64_t rep = p->tp * p->cp * p->pp, dp = w->gpus / rep, m_even = w->global_batch / (dp * mb);
    int64_t u = p->virtual_stages > 1 ? p->pp : 1; /* micro-batches move u at a time */
    int64_t *m = st_xcalloc((size_t)n, sizeof *m), *d = st_xcalloc((size_t)n, sizeof *d);
    double *tau = st_xcalloc((size_t)n, sizeof *tau), top, rest;
    int ok = m_even > 0, moved = 0;
    for (int k = 0; k < n && ok; k++)
        if (w->pool_gpus[k]) {
            ok = alone[k] > 0;
            d[k] = w->pool_gpus[k] / rep;
            m[k] = m_even;
            tau[k] = alone[k] / (double)m_even;
        }
    for (int s; ok && (s = slowest(m, tau, n, &top, &rest)) >= 0;) {
        int best = -1;
        double after = top;
        for (int j = 0; j < n; j++) {
            if (!m[j] || j == s)
                continue;
            int64_t l = d[s] / st_gcd(d[s], d[j]) * d[j], ds = u * l / d[s], dj = u * l / d[j];
            if (m[s] - ds < 1)
                continue;
            double tj = (double)(m[j] + dj) * tau[j];
            double t = fmax(rest, fmax((double)(m[s] - ds) * tau[s], tj));
            if (t < after && (tj < t || larger_than_pace(c, w, j) < 0)) {
                after = t;
                best = j;
            }
        }
        if (best < 0)
            break;
        int64_t l = d[s] / st_gcd(d[s], d[best]) * d[best];
        m[s] -= u * l / d[s];
        m[best] += u * l / d[best];
        moved = 1;
    }
    int64_t *batch = ok && moved ? st_xcalloc((size_t)n, sizeof *batch) : NULL;
    for (int k = 0; batch && k < n; k++)
        batch[k] = d[k] * m[k] * mb;
    free(m);
    free(d);
    free(tau);
    return batch;
}

/* A job across pools runs where it lands on its pace pool's view, whose GPU ids are node x g_k
 * + slot: another pool's GPU at slot s of a node of g_j GPUs takes slot s g_k / g_j there
 * (st_pools_view_gpu), a place of its own on its own node while g_j <= g_k, but two GPUs of a
 * larger node would share one. So a job that runs is refused, at its `pool`, where its pace
 * pool's node is not the largest it uses (docs/models/pools.md, "A job across pools"); the pace
 * is known only here, from the step model. */
static int pace_node_check(const st_cluster_cfg *c, const st_forecast *f, int pace, st_err *err)
{
    const st_workload_cfg *w = f->w;
    int64_t g = st_pools_gpus_per_node(c, pace);
    int k = f->has_step ? larger_than_pace(c, w, pace) : -1;
    if (k >= 0)
        return st_err_set(err, ST_EINVAL, w->pool_loc,
                          "workload '%s': paced by pool '%s' (%lld GPUs a node), but it also "
                          "runs on pool '%s', whose nodes are larger (%lld): a job across "
                          "pools is timed on its pace pool's nodes, which must be the largest "
                          "it uses (docs/models/pools.md)",
                          w->name, c->pools[pace].name, (long long)g, c->pools[k].name,
                          (long long)st_pools_gpus_per_node(c, k));
    return 0;
}

/* Training workload i's memory and step on its pool's step context, or, a job across pools, on
 * each of its pools' (forecast_span), at the split its plan states or, `balanced`, at the one
 * balance finds from the even split's steps; the step traced into *trace when not NULL. */
static int forecast_training(const st_run_spec *sp, size_t i, st__pool_steps *ps, st_forecast *out,
                             st_pipe_trace *trace, st_err *err)
{
    const st_workload_cfg *w = &sp->w[i];
    double *alone = w->pool_gpus ? st_xcalloc((size_t)ps->n, sizeof *alone) : NULL;
    int64_t *batch = NULL;
    if (alone && w->pool_batch) {
        batch = st_xmalloc((size_t)ps->n * sizeof *batch);
        memcpy(batch, w->pool_batch, (size_t)ps->n * sizeof *batch);
    }
    st_workload_cfg pace_w;
    int64_t mb = w->parallel.microbatch;
    int rc = alone ? forecast_span(sp, i, ps, out, batch, mb, alone, &pace_w, err) : 0;
    if (!rc && alone && w->pool_batch_balanced &&
        (batch = balance(w, alone, out->microbatch, ps->n, sp->c)) !=
            NULL) { /* at the micro-batch found */
        rc = forecast_span(sp, i, ps, out, batch, out->microbatch, alone, &pace_w, err);
        /* a split that hands the pace to a pool of smaller nodes could not be placed
           (pace_node_check): balanced keeps the even one, which ran */
        if (!rc && out->has_step && larger_than_pace(sp->c, w, ps->pace[i]) >= 0) {
            free(batch);
            batch = NULL;
            rc = forecast_span(sp, i, ps, out, NULL, mb, alone, &pace_w, err);
        }
    }
    if (!rc && (!alone || trace)) { /* a job across pools traced on its pacing pool's type */
        rc = pool_ctx(ps, sp, ps->pace[i], err);
        if (!rc)
            rc = st_forecast_job(ps->step[ps->pace[i]], alone ? &pace_w : w,
                                 st__run_view_of(sp, ps, w), out, trace, err);
    }
    out->w = w;
    out->pace_pool = ps->pace[i];
    out->pool_step_s = alone;
    out->pool_batch = batch;
    if (batch) /* its steps wherever it lands are its pacing pool's replicas' */
        *(out->step_w = st_xmalloc(sizeof *out->step_w)) = pace_w;
    return rc || !alone ? rc : pace_node_check(sp->c, out, ps->pace[i], err);
}

/* Every training workload's memory and step on its pool's step context (each fabric is built
 * once), on the packed placement from GPU 0; ps keeps the contexts for the steps where the jobs
 * land. The step of the one sp->trace_job names (the first when NULL) goes to out->trace when
 * asked. */
static int forecast_steps(const st_run_spec *sp, st_run *out, st__pool_steps *ps, st_err *err)
{
    int rc = 0;
    for (size_t i = 0; i < sp->n && !rc; i++) {
        const st_workload_cfg *w = &sp->w[i];
        if (w->kind != ST_WL_TRAINING)
            continue;
        int want = sp->trace && !out->has_trace &&
                   (!sp->trace_job || (w->name && strcmp(w->name, sp->trace_job) == 0));
        rc = forecast_training(sp, i, ps, &out->f[i], want ? &out->trace : NULL, err);
        if (!rc && want) {
            out->has_trace = 1;
            out->trace_job = i;
        }
    }
    return rc;
}

/* One GPU's draw, W, of a job on pool view pc while it runs no step: idle power, or the
 * hardware floor where one is set, which holds whatever the GPU runs; the software burn is the
 * job's own and stops with it (models/plant/mitigate.h). Adds to *base_w the base power of the
 * nodes its n GPUs there fill (CPUs, NICs, fans: node.base_power), which draw over its whole
 * life, through the same PSUs, as the rack totals count them. */
static double resting_w(const st_cluster_cfg *pc, const st_run *out, double *base_w, int64_t n)
{
    *base_w += st_plant_job_base_w(pc, n);
    return st_plant_resting_w(pc->gpu, out->plant.floor_w);
}

/* Each job's energy over its life at the facility: its IT wall energy (its steps and the work
 * lost and redone at its step's energy, downtime and checkpoint stalls with its GPUs idle or
 * at the power floor) times the PUE, and per token trained. */
static void job_energy(const st_run_spec *sp, const st__pool_steps *ps, st_run *out)
{
    double pue = out->plant.pue;
    for (size_t k = 0; k < out->plant.n_jobs; k++) {
        st_plant_job_power *p = &out->plant.jobs[k];
        const st_forecast *f = &out->f[p->id];
        const st_serve_result *v = out->serve[p->id].w ? &out->serve[p->id].r : NULL;
        if (v) { /* a service: every token it served at its energy at the wall, times the PUE */
            double tokens = v->tokens_per_s * v->span_s;
            p->energy_j = tokens > 0 ? pue * v->energy_per_token_j * tokens : 0;
            p->energy_per_token_j = tokens > 0 ? p->energy_j / tokens : 0;
            out->plant.energy_j += p->energy_j;
            continue;
        }
        double step = f->step.step_time_s, steps = f->has_life ? (double)f->steps : 0;
        if (!f->has_life || !(step > 0))
            continue;
        /* The work lost is redone (under `scope: cluster` the life holds the run's:
         * run_lives_record.c, take_run_failures), and the run's failures' detection, restarts and
         * restores leave its GPUs without a step. */
        const st_cluster_job_out *o = st__run_cluster_failures(sp, out, p->id);
        double lost = f->life.lost_work_s;
        double down = f->life.downtime_s + (o ? o->failed_s - o->lost_work_s : 0);
        double work = steps + lost / step;
        /* Down, restarting or stalled on a checkpoint the job runs no step (resting_w). */
        double idle = 0, base_w = 0;
        for (int k = 0; k < ps->n; k++) { /* its pool's, or each a job across pools has */
            const int64_t *pg = f->w->pool_gpus;
            int64_t n = pg ? pg[k] : k == ps->pace[p->id] ? f->w->gpus : 0;
            const st_cluster_cfg *pc = ps->view ? &ps->view[k] : sp->c;
            if (n)
                idle += (down + f->life.ckpt_stall_s) * (double)n * resting_w(pc, out, &base_w, n);
        }
        p->energy_j = st_plant_job_energy_j(pue, work, p->step_energy_j, idle, base_w,
                                            st__run_held_s(sp, out, p->id));
        double tokens = steps * (double)f->w->global_batch * (double)f->w->seq_len;
        p->energy_per_token_j = tokens > 0 ? p->energy_j / tokens : 0;
        out->plant.energy_j += p->energy_j;
    }
}

/* The plant: every placed training job's power by its step, the racks and the facility
 * waveform (models/plant/plant.h). Left out when no job runs or the GPU states no power limit. */
static int forecast_plant(const st_run_spec *sp, const st__pool_steps *ps, st_run *out, st_err *err)
{
    st_plant_job *jobs = st_xcalloc((sp->n ? sp->n : 1) * (size_t)ps->n, sizeof *jobs);
    size_t k = 0;
    for (size_t i = 0; i < sp->n; i++) {
        if (out->f[i].has_step && out->f[i].gpus)
            k += st_forecast_plant_jobs(sp->c, &out->f[i], i, jobs + k);
        else if (out->serve[i].w && out->serve[i].gpus) { /* every replica that ran at its mean
                                                               iteration, at its serving clock */
            st_run_serve *v = &out->serve[i];
            const st_gpu_spec *gpu = st__run_view_of(sp, ps, v->w)->gpu; /* its pool's */
            int64_t g = st__run_service_placed(v);
            jobs[k++] =
                (st_plant_job){&v->r.cycle, v->gpus, g, i, st_plant_power_clock(gpu), .steady = 1};
        }
    }
    int rc = 0;
    if (k && sp->c->gpu->tdp_w > 0) {
        /* the switches' optics beside the racks, when the fabric's port rate has a figure */
        int64_t ports = 0;
        double net_w = 0;
        int net = st_forecast_switch_optics(sp->c, &ports, &net_w);
        rc = st_plant_run_network(sp->c, jobs, k, sp->seed, net_w, &out->plant, err);
        if (!rc) /* a job across pools' parts as one job */
            out->plant.n_jobs = st_forecast_plant_merge(out->plant.jobs, out->plant.n_jobs);
        out->has_plant = rc == 0;
        out->plant.has_network = net;
        out->plant.switch_ports = ports;
        if (out->has_plant)
            job_energy(sp, ps, out);
    }
    free(jobs);
    return rc;
}

/* The collective workloads, together on one fabric. */
static int forecast_collectives(const st_run_spec *sp, st_run *out, st_err *err)
{
    const st_workload_cfg **colls = st_xcalloc(sp->n ? sp->n : 1, sizeof *colls);
    size_t *where = st_xcalloc(sp->n ? sp->n : 1, sizeof *where), k = 0;
    for (size_t i = 0; i < sp->n; i++)
        if (sp->w[i].kind == ST_WL_COLLECTIVE) {
            where[k] = i;
            colls[k++] = &sp->w[i];
        }
    int rc = 0;
    if (k) {
        st_coll_result *res = st_xcalloc(k, sizeof *res);
        rc = st_fabric_run(sp->c, colls, k, res, &out->fab, err);
        for (size_t j = 0; j < k; j++)
            out->coll[where[j]] = res[j];
        out->has_fabric = 1;
        free(res);
    }
    free(colls);
    free(where);
    return rc;
}

/* The inference workloads, each on its own GPUs from GPU 0 (a replica's tensor-parallel ranks
 * on one context of the cluster's fabric), each on its pool's view of the cluster: its GPU
 * type's memory, kernels, NVLink and power. One context per pool that serves, apart from the
 * training jobs' (ps), whose placements the cluster run moves. */
static int forecast_serving(const st_run_spec *sp, const st__pool_steps *ps, st_run *out,
                            st_err *err)
{
    st_step_ctx **x = st_xcalloc((size_t)ps->n, sizeof *x);
    int rc = 0;
    for (size_t i = 0; i < sp->n && !rc; i++) {
        const st_workload_cfg *w = &sp->w[i];
        if (w->kind != ST_WL_INFERENCE)
            continue;
        const st_cluster_cfg *c = st__run_view_of(sp, ps, w);
        if (!x[w->pool] && (rc = st_step_ctx_new(c, &x[w->pool], err)))
            break;
        out->serve[i].w = w;
        rc = st_serve_run(x[w->pool], w, c, sp->seed, (uint64_t)i, &out->serve[i].r, err);
        if (!rc)
            st__run_service_ups(&out->serve[i]);
    }
    for (int k = 0; k < ps->n; k++)
        st_step_ctx_free(x[k]);
    free(x);
    return rc;
}

/* The pre-flight audit of the whole run: its training jobs, collectives, services, cluster run
 * and plant. */
static void audit(const st_run_spec *sp, st_run *out)
{
    st_audit_service *sv = st_xcalloc(out->n ? out->n : 1, sizeof *sv);
    size_t n_sv = 0;
    for (size_t i = 0; out->serve && i < out->n; i++)
        if (out->serve[i].w)
            sv[n_sv++] = (st_audit_service){out->serve[i].w, &out->serve[i].r};
    out->audit =
        st_audit_run(&(st_audit_in){sp->c, sp->audit, out->f, out->coll, out->n,
                                    out->has_cluster ? &out->cluster : NULL, out->cluster_job,
                                    out->has_plant ? &out->plant : NULL, sv, n_sv},
                     &out->n_audit);
    free(sv);
}

int st_run_forecast(const st_run_spec *sp, st_run *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    out->n = sp->n;
    out->f = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->f);
    out->coll = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->coll);
    out->serve = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->serve);
    out->cluster_job = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->cluster_job);
    st__pool_steps ps;
    pool_steps_init(&ps, sp);
    int rc = forecast_steps(sp, out, &ps, err);
    if (!rc) /* before the cluster run: a service holds its GPUs for its serving span */
        rc = forecast_serving(sp, &ps, out, err);
    if (!rc && !ps.step[0] && sp->job_trace && sp->job_trace->n_models && sp->job_trace->n_jobs)
        rc = st_step_ctx_new(sp->c, &ps.step[0], err); /* the mapped trace jobs' (trace.models) */
    if (!rc)
        rc = st__run_lives(sp, out, &ps, err);
    if (!rc)
        rc = forecast_plant(sp, &ps, out, err);
    pool_steps_release(&ps);
    if (!rc)
        st__run_cost(sp, out);
    if (!rc)
        rc = forecast_collectives(sp, out, err);
    if (!rc)
        st__run_serve_cost(sp, out);
    if (!rc)
        st__run_serving_totals(out);
    if (!rc)
        audit(sp, out);
    return rc;
}

void st_run_release(st_run *r)
{
    for (size_t i = 0; r->f && i < r->n; i++)
        st_forecast_release(&r->f[i]);
    free(r->f);
    free(r->coll);
    for (size_t i = 0; r->serve && i < r->n; i++) {
        free(r->serve[i].gpus);
        free(r->serve[i].seen);
        free(r->serve[i].ups);
    }
    free(r->serve);
    free(r->cluster_job);
    st_cluster_result_release(&r->cluster);
    free(r->audit);
    st_plant_release(&r->plant);
    st_pipe_trace_release(&r->trace);
    memset(r, 0, sizeof *r);
}
