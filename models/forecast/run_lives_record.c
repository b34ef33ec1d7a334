/* What the cluster run gives back to each job (run_lives.c): a training job's start, wait, end
 * and preemptions, a service's record, and under `scope: cluster` the failures' costs its life
 * takes. */
#include "models/forecast/run_lives_internal.h"

#include <math.h>

/* Under `scope: cluster`, the cluster run's figures for workload i (its life is failure-free:
 * what failures cost it is there); NULL otherwise, or when it never reached the cluster run. */
const st_cluster_job_out *st__run_cluster_failures(const st_run_spec *sp, const st_run *out,
                                                   size_t i)
{
    if (!sp->failures || !sp->failures->cluster_scope || !out->has_cluster ||
        out->cluster_job[i] < 0)
        return NULL;
    return &out->cluster.job[out->cluster_job[i]];
}

/* The seconds job i held its GPUs: its life, or under `scope: cluster` the cluster run's held
 * span when longer (failures' lost work, detection, restarts and restores, preemptions' saves). */
double st__run_held_s(const st_run_spec *sp, const st_run *out, size_t i)
{
    const st_cluster_job_out *o = st__run_cluster_failures(sp, out, i);
    double wall = out->f[i].life.wall_s;
    return o && o->held_s > wall ? o->held_s : wall;
}

/* Under `scope: cluster`, job f's life takes what the run's failures (o's) cost it, its own
 * life having drawn none: their interruptions and lost work, its wall the span it held its GPUs
 * (for a finished job held = wall + failed; one cut by the horizon is judged on what it held),
 * its error band's ends scaled with it, its goodput their share of that span. One definition of
 * each life figure whichever scope draws the failures (the energy and cost read them so). */
static void take_run_failures(st_forecast *f, const st_cluster_job_out *o)
{
    if (o->failed_s > 0 && o->held_s > 0)
        f->life.goodput *= fmax(o->held_s - o->failed_s, 0) / o->held_s;
    f->life.interruptions += o->interruptions;
    f->life.lost_work_s += o->lost_work_s;
    if (o->held_s > f->life.wall_s && f->life.wall_s > 0) {
        double k = o->held_s / f->life.wall_s;
        f->wall_band[0] *= k;
        f->wall_band[1] *= k;
        f->life.wall_s = o->held_s;
    }
}

/* Each training job's start, wait and end from the cluster run; under `scope: cluster` its
 * life takes the run's failures (take_run_failures). */
void st__lives_record_starts(const st_run_spec *sp, st_run *out)
{
    for (size_t i = 0; i < sp->n; i++) {
        const st_run_serve *z = &out->serve[i];
        if (out->cluster_job[i] < 0 && z->w && z->base == 0 && z->n_ups > 0 && z->r.span_s > 0) {
            /* no base job: the service starts with its first stretch */
            const st_cluster_job_out *first = &out->cluster.job[z->first_up];
            st_run_serve *v = &out->serve[i];
            st__run_record_service(v, first, first);
            for (size_t u = 0; v->has_end && u < v->n_ups; u++) { /* it ends with its last */
                const st_cluster_job_out *o = &out->cluster.job[(size_t)v->first_up + u];
                v->has_end = o->state == ST_CJ_FINISHED;
                v->end_s = o->end_s > v->end_s ? o->end_s : v->end_s;
            }
            continue;
        }
        if (out->cluster_job[i] < 0)
            continue;
        const st_cluster_job_out *o = &out->cluster.job[out->cluster_job[i]];
        if (out->serve[i].w) {
            st_run_serve *v = &out->serve[i];
            st__run_record_service(v, o, v->n_ups ? &out->cluster.job[v->first_up] : NULL);
            continue;
        }
        st_forecast *f = &out->f[i];
        if (o->state == ST_CJ_WAITING || o->state == ST_CJ_TOO_BIG)
            continue;
        f->start_s = o->start_s;
        f->wait_s = o->wait_s;
        f->has_end = o->state == ST_CJ_FINISHED;
        f->end_s = o->end_s;
        f->preemptions = o->preemptions;
        f->preempted_s = o->preempted_s;
        f->interruptions = o->interruptions;
        f->lost_work_s = o->lost_work_s;
        f->slowest_rate = o->slowest_rate;
        if (st__run_cluster_failures(sp, out, i))
            take_run_failures(f, o);
    }
}
