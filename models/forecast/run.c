/* The forecast of a whole scenario: training jobs' steps on one step context, their placement by
 * the scheduler policy, every job's ingest as the others' background, their lives, then the
 * collective workloads together on the fabric, then the audit. */
#include "models/forecast/run.h"

#include <stdlib.h>
#include <string.h>

#include "models/place/policy.h"
#include "models/sched/policy.h"
#include "sim/xalloc.h"

/* Every training workload's memory and step on one step context (the fabric is built once).
 * The step of the one sp->trace_job names (the first when NULL) goes to out->trace when asked. */
static int forecast_steps(const st_run_spec *sp, st_run *out, st_err *err)
{
    st_step_ctx *x = NULL;
    int rc = 0;
    for (size_t i = 0; i < sp->n && !rc; i++) {
        const st_workload_cfg *w = &sp->w[i];
        if (w->kind != ST_WL_TRAINING)
            continue;
        if (!x && (rc = st_step_ctx_new(sp->c, &x, err)))
            break;
        int want = sp->trace && !out->has_trace &&
                   (!sp->trace_job || (w->name && strcmp(w->name, sp->trace_job) == 0));
        rc = st_forecast_job(x, w, sp->c, &out->f[i], want ? &out->trace : NULL, err);
        if (!rc && want) {
            out->has_trace = 1;
            out->trace_job = i;
        }
    }
    st_step_ctx_free(x);
    return rc;
}

/* The training jobs that run, placed by the scheduler policy in workload order: a job whose
 * plan does not fit has no step and takes no GPUs, and one larger than the cluster is never
 * placed (its live[i] stays 0). */
static int place_jobs(const st_run_spec *sp, const st_topo *t, st_run *out, st_placement *at,
                      int *live, st_err *err)
{
    st_scheduler sch;
    int rc = st_scheduler_init(&sch, sp->sched, sp->c, err);
    for (size_t i = 0; i < sp->n && !rc; i++) {
        const st_workload_cfg *w = &sp->w[i];
        if (w->kind != ST_WL_TRAINING || !out->f[i].has_step)
            continue;
        st_sched_start start = {.gpus = st_xmalloc((size_t)w->gpus * sizeof(int64_t))};
        st_sched_job job = {.id = i, .w = w};
        if (st_scheduler_submit(&sch, &job, &start) == 0) {
            st_placement_init(&at[i], t, sp->c, start.gpus, w->gpus);
            live[i] = 1;
            out->f[i].gpus = start.gpus; /* the audit checks who holds which GPU when */
            out->f[i].start_s = start.start_s;
        } else {
            free(start.gpus);
        }
    }
    st_scheduler_release(&sch);
    return rc;
}

/* Each live job's ingest stream at the need its step sets: the background the other jobs'
 * storage questions are asked against. hosts[i] holds stream i's member GPUs. */
static void ingest_streams(const st_run_spec *sp, const st_run *out, const st_placement *at,
                           const int *live, st_io *io, int *has, int64_t **hosts)
{
    for (size_t i = 0; i < sp->n; i++) {
        if (!live[i])
            continue;
        const st_workload_cfg *w = &sp->w[i];
        double step = out->f[i].step.step_time_s;
        double need = w->data.enabled && step > 0 ? (double)w->global_batch * (double)w->seq_len /
                                                        step * w->data.bytes_per_token
                                                  : 0;
        hosts[i] = st_xmalloc((size_t)w->gpus * sizeof *hosts[i]);
        has[i] = st_storage_ingest_stream(&at[i], w, need, hosts[i], &io[i]) > 0;
    }
}

/* Every live training job's whole life, with every other job's ingest running beside it (they
 * share the tiers and the fabric). */
static int forecast_lives(const st_run_spec *sp, st_run *out, st_err *err)
{
    int any = 0;
    for (size_t i = 0; i < sp->n; i++)
        any |= out->f[i].has_step;
    if (!any)
        return 0;
    st_topo *t = NULL;
    int rc = st_topo_new(sp->c, &t, err);
    if (rc)
        return rc;
    size_t n = sp->n;
    st_placement *at = st_xcalloc(n, sizeof *at);
    int *live = st_xcalloc(n, sizeof *live), *has = st_xcalloc(n, sizeof *has);
    st_io *io = st_xcalloc(n, sizeof *io), *bg = st_xcalloc(n + 1, sizeof *bg);
    int64_t **hosts = st_xcalloc(n, sizeof *hosts);
    rc = place_jobs(sp, t, out, at, live, err);
    if (!rc) /* the heat of where they run may slow them: before their ingest and lives */
        rc = st_forecast_throttle(sp->c, out->f, n, err);
    if (!rc)
        ingest_streams(sp, out, at, live, io, has, hosts);
    for (size_t i = 0; i < n && !rc; i++) {
        if (!live[i])
            continue;
        st_io_set set = {bg, 0};
        for (size_t k = 0; k < n; k++)
            if (k != i && has[k])
                bg[set.n++] = io[k];
        rc = st_forecast_life(&out->f[i], &at[i], sp->failures, sp->seed, sp->replicas, &set, err);
    }
    for (size_t i = 0; i < n; i++) {
        free(hosts[i]);
        st_placement_release(&at[i]);
    }
    free(hosts);
    free(bg);
    free(io);
    free(has);
    free(live);
    free(at);
    st_topo_free(t);
    return rc;
}

/* Each job's energy over its life at the facility: its IT wall energy (its steps and the work
 * lost and redone at its step's energy, downtime and checkpoint stalls with its GPUs idle)
 * times the PUE, and per token trained. */
static void job_energy(const st_run_spec *sp, st_run *out)
{
    double eta = st_plant_preset_get()->psu_efficiency, pue = out->plant.pue;
    for (size_t k = 0; k < out->plant.n_jobs; k++) {
        st_plant_job_power *p = &out->plant.jobs[k];
        const st_forecast *f = &out->f[p->id];
        double step = f->step.step_time_s, steps = f->has_life ? (double)f->steps : 0;
        if (!f->has_life || !(step > 0))
            continue;
        double work = steps + f->life.lost_work_s / step;
        double idle =
            (f->life.downtime_s + f->life.ckpt_stall_s) * (double)f->w->gpus * sp->c->gpu->idle_w;
        p->energy_j = pue * (work * p->step_energy_j + idle) / eta;
        double tokens = steps * (double)f->w->global_batch * (double)f->w->seq_len;
        p->energy_per_token_j = tokens > 0 ? p->energy_j / tokens : 0;
        out->plant.energy_j += p->energy_j;
    }
}

/* The plant: every placed training job's power by its step, the racks and the facility
 * waveform (models/plant/plant.h). Left out when no job runs or the GPU states no power limit. */
static int forecast_plant(const st_run_spec *sp, st_run *out, st_err *err)
{
    st_plant_job *jobs = st_xcalloc(sp->n ? sp->n : 1, sizeof *jobs);
    size_t k = 0;
    for (size_t i = 0; i < sp->n; i++)
        if (out->f[i].has_step && out->f[i].gpus)
            jobs[k++] =
                (st_plant_job){&out->f[i].step, out->f[i].gpus, sp->w[i].gpus, i, out->f[i].clock};
    int rc = 0;
    if (k && sp->c->gpu->tdp_w > 0) {
        rc = st_plant_run(sp->c, jobs, k, sp->seed, &out->plant, err);
        out->has_plant = rc == 0;
        if (out->has_plant)
            job_energy(sp, out);
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

int st_run_forecast(const st_run_spec *sp, st_run *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    out->n = sp->n;
    out->f = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->f);
    out->coll = st_xcalloc(sp->n ? sp->n : 1, sizeof *out->coll);
    int rc = forecast_steps(sp, out, err);
    if (!rc)
        rc = forecast_lives(sp, out, err);
    if (!rc)
        rc = forecast_plant(sp, out, err);
    if (!rc)
        rc = forecast_collectives(sp, out, err);
    if (!rc)
        out->audit = st_audit_run(&(st_audit_in){sp->c, sp->audit, out->f, out->coll, out->n,
                                                 out->has_plant ? &out->plant : NULL},
                                  &out->n_audit);
    return rc;
}

void st_run_release(st_run *r)
{
    for (size_t i = 0; r->f && i < r->n; i++)
        st_forecast_release(&r->f[i]);
    free(r->f);
    free(r->coll);
    free(r->audit);
    st_plant_release(&r->plant);
    st_pipe_trace_release(&r->trace);
    memset(r, 0, sizeof *r);
}
