/* Jobs held for another job's first start (st_cluster_spec.after): a service's replica stretch
 * is asked for at its planned time, but a replica cannot serve before the service has started,
 * so it waits for the service's base job. The relation is inverted once, so a first start
 * finds the jobs held for it in time proportional to their number. */
#include <stdlib.h>

#include "models/sched/cluster_internal.h"
#include "sim/xalloc.h"

/* Job id's after-job, or -1 (none, or out of range: not a job of this run). */
static ptrdiff_t after_of(const st_sched_view *v, size_t id)
{
    int32_t a = v->sp->after ? v->sp->after[id] : -1;
    return a >= 0 && (size_t)a < v->sp->n && (size_t)a != id ? (ptrdiff_t)a : -1;
}

void st__cl_after_setup(st_sched_view *v)
{
    size_t n = v->sp->n;
    v->kid_off = v->kids = NULL;
    if (!v->sp->after)
        return;
    v->kid_off = st_xcalloc(n + 1, sizeof *v->kid_off);
    for (size_t i = 0; i < n; i++) /* counts, at their after-job's slot + 1 */
        if (after_of(v, i) >= 0)
            v->kid_off[after_of(v, i) + 1]++;
    for (size_t j = 0; j < n; j++)
        v->kid_off[j + 1] += v->kid_off[j];
    v->kids = st_xmalloc((v->kid_off[n] ? v->kid_off[n] : 1) * sizeof *v->kids);
    size_t *at = st_xmalloc((n ? n : 1) * sizeof *at);
    for (size_t j = 0; j < n; j++)
        at[j] = v->kid_off[j];
    for (size_t i = 0; i < n; i++) /* in id order: the unholds of one start fire in it */
        if (after_of(v, i) >= 0)
            v->kids[at[after_of(v, i)]++] = i;
    free(at);
}

int st__cl_after_holds(st_sched_view *v, size_t id)
{
    ptrdiff_t a = after_of(v, id);
    if (a < 0 || v->js[a].started)
        return 0;
    v->js[id].on_hold = 1;
    return 1;
}

void st__cl_after_started(st_sched_view *v, size_t id)
{
    if (!v->kid_off)
        return;
    /* Events, not arrivals here: the policy is picking (this start is one of its picks), and
     * its queue must not change under it. They fire at this instant, before its decision. */
    for (size_t k = v->kid_off[id]; k < v->kid_off[id + 1]; k++)
        if (v->js[v->kids[k]].on_hold)
            st_engine_schedule_prio(v->eng, v->k_unhold, st_engine_now(v->eng), PRIO_ARRIVAL,
                                    &(st_payload){.u = {v->kids[k]}});
}

void st__cl_after_release(st_sched_view *v)
{
    free(v->kid_off);
    free(v->kids);
    v->kid_off = v->kids = NULL;
}
