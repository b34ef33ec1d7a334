/* A training job's life under failures, checkpoints and restarts: a fluid model on the engine
 * (progress linear between events), failures from merged Poisson or per-component renewal
 * processes; one replica's run here, its steps in life_spec.c, life_failures.c, life_cycle.c,
 * life_interrupt.c and life_check.c; its Monte Carlo summary over replicas is life_replicas.c.
 * docs/models/storage-and-failures.md. */
#include "models/reliability/lifetime.h"

#include <stdlib.h>
#include <string.h>

#include "models/reliability/lifetime_internal.h"

static void release(life *L)
{
    st_engine_free(L->eng);
    st_rng_free(L->rng);
    st_rng_free(L->mem_rng);
    for (int i = 0; i < N_STOPS; i++)
        st_rng_free(L->stops[i].rng);
    for (int i = 0; i < L->nwc; i++)
        st_rng_free(L->wc[i].rng);
    free(L->wc);
    free(L->exp_rate);
    free(L->exp_cls);
    st_rng_free(L->spare_rng);
    st_spares_release(&L->spares);
}

static void fill_result(const life *L, st_life_result *out)
{
    out->wall_s = (double)L->end * 1e-9;
    out->interruptions = L->interruptions;
    out->planned = L->stops[STOP_PLANNED].count;
    out->slow = L->stops[STOP_SLOW].count;
    out->lost_work_s = (double)L->lost * 1e-9;
    out->downtime_s = (double)L->downtime * 1e-9;
    /* The in-memory snapshots' stall was run as part of the (stretched) work: it is stall. */
    st_time snaps = L->mem > 0 ? L->work - L->work0 : 0;
    out->ckpt_stall_s = (double)(L->stalled + snaps) * 1e-9;
    out->checkpoints = L->checkpoints;
    out->spare_wait_s = (double)L->spare_wait * 1e-9;
    /* The work in the engine's whole nanoseconds over the wall in the same units: steps * step_s
     * itself can sit a fraction of a nanosecond above the rounded wall, which would read as a
     * goodput above 1 in a run with nothing to lose. */
    st_time work = L->end - L->lost - L->downtime - L->stalled - snaps;
    out->goodput = L->end > 0 ? (double)work / (double)L->end : 1;
}

int st__life_run_mode(const st_life_spec *s, uint64_t master_seed, uint64_t replica, int mode,
                      st_life_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    life L = {.inflight = -1, .skip = !(mode & ST__LIFE_NOSKIP)};
    int rc = st__life_load_spec(&L, s, err);
    if (!rc)
        rc = st__life_check_finishes(&L, s, err);
    if (rc)
        return rc;
    L.eng = st_engine_new();
    L.k_mark = st_engine_register(L.eng, "life-mark", st__life_on_mark, &L);
    L.k_stall = st_engine_register(L.eng, "life-stall-end", st__life_on_stall_end, &L);
    L.k_commit = st_engine_register(L.eng, "life-commit", st__life_on_commit, &L);
    L.k_up = st_engine_register(L.eng, "life-up", st__life_on_up, &L);
    L.k_fail = st_engine_register(L.eng, "life-failure", st__life_on_fail, &L);
    L.k_comp = st_engine_register(L.eng, "life-component-failure", st__life_on_comp_fail, &L);
    L.stops[STOP_PLANNED].kind = st_engine_register(L.eng, "life-planned", st__life_on_stop, &L);
    L.stops[STOP_SLOW].kind = st_engine_register(L.eng, "life-fail-slow", st__life_on_stop, &L);
    st__life_start_failures(&L, s, master_seed, replica, mode);
    L.phase = PH_COMPUTE;
    st__life_schedule_mark(&L, 0);
    st_engine_run(L.eng, L.horizon);
    if (L.phase != PH_DONE) {
        rc = st_err_set(err, ST_ERANGE, (st_loc){0},
                        "lifetime: the job is not done after %g s (%lld interruptions)",
                        (double)st_engine_now(L.eng) * 1e-9, (long long)L.interruptions);
    } else {
        fill_result(&L, out);
    }
    release(&L);
    return rc;
}

int st_life_run(const st_life_spec *s, uint64_t master_seed, uint64_t replica, st_life_result *out,
                st_err *err)
{
    return st__life_run_mode(s, master_seed, replica, ST__LIFE_AUTO, out, err);
}
