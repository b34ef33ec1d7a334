/* The cluster run's jobs from a scenario's forecast (run_lives.c): the training workloads with a
 * step, the trace's jobs and the services' replicas and stretches, with their tenants, their
 * after-jobs and their GPUs by pool. */
#include "models/forecast/run_lives_internal.h"

#include <math.h>
#include <string.h>

#include "models/forecast/trace_rate.h"
#include "sim/xalloc.h"

/* The run's tenant names for the scheduler: the trace's, numbered as the trace numbers them,
 * then each training workload's `tenant` not among them (*n of them; free the array only). */
const char **st__lives_tenant_names(const st_run_spec *sp, size_t *n)
{
    size_t nt = sp->job_trace ? sp->job_trace->n_tenants : 0, k = nt;
    const char **t = st_xcalloc(nt + sp->n + 1, sizeof *t);
    for (size_t i = 0; i < nt; i++)
        t[i] = sp->job_trace->tenants[i];
    for (size_t i = 0; i < sp->n; i++) {
        size_t j = 0;
        while (sp->w[i].tenant && j < k && strcmp(t[j], sp->w[i].tenant) != 0)
            j++;
        if (sp->w[i].tenant && j == k)
            t[k++] = sp->w[i].tenant;
    }
    *n = k;
    return t;
}

/* The index of tenant name in t[0..n), -1 when it has none. */
static int32_t tenant_index(const char **t, size_t n, const char *name)
{
    for (size_t j = 0; name && j < n; j++)
        if (strcmp(t[j], name) == 0)
            return (int32_t)j;
    return -1;
}

/* The stretches of the services' replicas, all together: each a cluster job of its own. */
size_t st__lives_service_ups(const st_run_spec *sp, const st_run *out)
{
    size_t n = 0;
    for (size_t i = 0; i < sp->n; i++)
        n += out->serve[i].w ? out->serve[i].n_ups : 0;
    return n;
}

/* Which of the nj cluster jobs are a service's replica stretches (parts of its job), or NULL
 * when none is. */
unsigned char *st__lives_service_parts(const st_run_spec *sp, const st_run *out, size_t nj)
{
    if (!st__lives_service_ups(sp, out))
        return NULL;
    unsigned char *part = st_xcalloc(nj, 1);
    for (size_t i = 0; i < sp->n; i++)
        for (size_t u = 0; out->serve[i].w && u < out->serve[i].n_ups; u++)
            part[(size_t)out->serve[i].first_up + u] = 1;
    return part;
}

/* Each cluster job's after-job (st_cluster_spec.after): a replica stretch waits for its
 * service's base job to start, since no replica serves before the service does; -1 for the
 * rest. NULL when no service has stretches. */
int32_t *st__lives_service_after(const st_run_spec *sp, const st_run *out, size_t nj)
{
    if (!st__lives_service_ups(sp, out))
        return NULL;
    int32_t *after = st_xmalloc(nj * sizeof *after);
    for (size_t k = 0; k < nj; k++)
        after[k] = -1;
    for (size_t i = 0; i < sp->n; i++)
        for (size_t u = 0; out->serve[i].w && u < out->serve[i].n_ups; u++)
            after[(size_t)out->serve[i].first_up + u] = (int32_t)out->cluster_job[i];
    return after;
}

/* The cluster run's jobs: the training workloads with a step (their run time from
 * st__lives_life_at, their estimate the forecast work: steps x step time, without failures), then
 * the trace's jobs (their recorded duration as estimate, and as run time unless trace.models maps
 * them: then st__lives_life_at gives it at their first start). */
st_cluster_job *st__lives_cluster_jobs(const st_run_spec *sp, st_run *out, size_t *workload,
                                       size_t *n_train, size_t *n, const char **tn, size_t ntn,
                                       const st_trace_rate *tr)
{
    size_t nt = sp->job_trace ? sp->job_trace->n_jobs : 0, k = 0;
    st_cluster_job *j = st_xcalloc(sp->n + nt + st__lives_service_ups(sp, out) + 1, sizeof *j);
    for (size_t i = 0; i < sp->n; i++) {
        const st_workload_cfg *w = &sp->w[i];
        out->cluster_job[i] = -1;
        if (w->kind != ST_WL_TRAINING || !out->f[i].has_step)
            continue;
        double tokens_per_step = (double)w->global_batch * (double)w->seq_len;
        double steps = w->steps > 0 ? (double)w->steps : ceil(w->tokens / tokens_per_step);
        j[k] = (st_cluster_job){.submit_s = w->submit_s,
                                .duration_s = -1,
                                .estimate_s = (steps < 1 ? 1 : steps) * out->f[i].step.step_time_s,
                                .gpus = w->gpus,
                                .priority = w->priority,
                                .tenant = tenant_index(tn, ntn, w->tenant)};
        out->cluster_job[i] = (ptrdiff_t)k;
        workload[k++] = i;
    }
    *n_train = k;
    for (size_t t = 0; t < nt; t++) {
        const st_trace_job *tj = &sp->job_trace->jobs[t];
        double d =
            st_trace_rate_mapped(tr, t) ? -1 : tj->duration_s; /* mapped: st__lives_life_at */
        j[k++] = (st_cluster_job){tj->submit_s, d, tj->duration_s, tj->gpus, 0, tj->tenant};
    }
    /* the services: each holds its GPUs for its serving span; under an autoscaler, the
     * replicas up all along do, and each other replica holds its own while it is up */
    for (size_t i = 0; i < sp->n; i++) {
        st_run_serve *v = &out->serve[i];
        if (!v->w || !(v->r.span_s > 0))
            continue;
        int64_t rg = st_serve_replica_gpus(v->w);
        st_cluster_job one = {.submit_s = v->w->submit_s,
                              .duration_s = v->r.span_s,
                              .estimate_s = v->r.span_s,
                              .gpus = v->base * rg,
                              .priority = v->w->priority,
                              .tenant = tenant_index(tn, ntn, v->w->tenant)};
        if (v->base > 0 || v->n_ups == 0) {
            j[k] = one;
            out->cluster_job[i] = (ptrdiff_t)k;
            workload[k++] = i;
        } /* else scaled to zero at times (autoscale.min 0): no replica up all along, no base
             job; its stretches need wait for none */
        v->first_up = (ptrdiff_t)k;
        for (size_t u = 0; u < v->n_ups; u++) {
            double at, d;
            st__run_up_job(v, u, &at, &d);
            j[k] = one;
            j[k].submit_s = v->w->submit_s + at;
            j[k].duration_s = j[k].estimate_s = d;
            j[k].gpus = rg;
            workload[k++] = i;
        }
    }
    *n = k;
    return j;
}

/* Each cluster job's GPUs by pool when it is a training job across pools (cluster.h's span;
 * malloc'd), or NULL when none is. */
const int64_t **st__lives_job_spans(const st_run_spec *sp, const size_t *workload, size_t n_train,
                                    size_t nj)
{
    const int64_t **span = NULL;
    for (size_t k = 0; k < n_train; k++) {
        const int64_t *g = sp->w[workload[k]].pool_gpus;
        if (g && !span)
            span = st_xcalloc(nj, sizeof *span);
        if (g)
            span[k] = g;
    }
    return span;
}
