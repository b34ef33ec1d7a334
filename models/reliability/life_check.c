/* Before a job's life is simulated: whether it is expected to finish by the horizon through
 * fewer interruptions than a life simulates (Daly's expected wall time, stretched by the stops
 * and the waits for spares). docs/models/storage-and-failures.md. */
#include <math.h>
#include <stdlib.h>

#include "models/config/limits.h"
#include "models/reliability/interval.h"
#include "models/reliability/lifetime_internal.h"
#include "models/reliability/spare_wait.h"
#include "sim/xalloc.h"

/* With spares, the share of the time more of the job's nodes are out for repair than it keeps
 * (st_spares_blocked): it cannot run then. 0 without spares. */
static double spares_held(const st_life_spec *s)
{
    if (!s->has_spares || !s->take || !s->repair_s)
        return 0;
    st_spare_class *c = st_life_spare_classes(s->classes, s->take, s->repair_s, s->n_classes);
    double b = st_spares_blocked(c, (size_t)s->n_classes, s->spares);
    free(c);
    return b;
}

st_spare_class *st_life_spare_classes(const st_life_class *cl, const int64_t *take,
                                      const double *repair_s, int n)
{
    st_spare_class *c = st_xcalloc((size_t)(n > 0 ? n : 0) + 1, sizeof *c);
    for (int i = 0; i < n; i++)
        c[i] = (st_spare_class){.rate_per_s = cl[i].mtbf_s > 0 ? cl[i].count / cl[i].mtbf_s : 0,
                                .take = take[i],
                                .repair_s = repair_s[i]};
    return c;
}

/* Before simulating: would the job, on average, finish by the horizon, through fewer failures
 * than a life simulates (ST_LIM_FAILURES; 6.8 million took 2 s, refused with ST_ELIMIT)? Daly's
 * expected wall time (st_daly_expected_wall) for the job's failure rate, its checkpoint interval
 * (the whole work without checkpoints), stall and downtime, stretched by the share of the time it
 * waits for a spare node (spares_held; the sizing search's closed form). Exact for exponential
 * classes; for Weibull ones it takes their long-run rate. A job whose expected wall time is past
 * the horizon would otherwise be simulated failure by failure up to the horizon (139 s for a GPU
 * MTBF of 1 minute, and practically forever for 1 ns, or for nodes that fail faster than their
 * repairs end and never leave the job enough spares), to the same answer. */
int st__life_check_finishes(const life *L, const st_life_spec *s, st_err *err)
{
    double m = st_life_job_mtbf(s), work = (double)s->steps * s->step_s;
    /* The announced stops (planned, fail-slow exclusions) per second up and their downtime per
     * second up: each costs its downtime where the job saves at it, and loses the work since its
     * last save as a failure does where it cannot (announced_stop). */
    double stops = 0, stops_down = 0;
    for (int i = 0; i < N_STOPS; i++)
        if (L->stops[i].gap_s > 0) {
            stops += 1 / L->stops[i].gap_s;
            stops_down += (double)L->stops[i].down * 1e-9 / L->stops[i].gap_s;
        }
    if (!st__life_saves_at_stop(L) && stops > 0) {
        m = 1 / ((isfinite(m) ? 1 / m : 0) + stops);
        stops = stops_down = 0;
    }
    if (!isfinite(m) && !(stops > 0))
        return 0;
    int ckpts = s->ckpt_every_s > 0 && s->ckpt_every_s < work;
    double tau = ckpts ? s->ckpt_every_s : work, d = ckpts ? s->ckpt_stall_s : 0;
    double down = s->detect_s + s->restart_s + (ckpts ? s->restore_s : 0);
    double expect =
               isfinite(m) ? st_daly_expected_wall(work, tau, d, down, m) : work + work / tau * d,
           horizon = (double)L->horizon * 1e-9, held = spares_held(s);
    expect *= 1 + stops_down; /* each stop's downtime, per second up */
    expect = held <= 0 ? expect : held < 1 ? expect / (1 - held) : INFINITY;
    double n = (isfinite(m) ? expect / m : 0) + expect / (1 + stops_down) * stops;
    if (expect <= horizon && n > ST_LIM_FAILURES)
        return st_err_set(err, ST_ELIMIT, (st_loc){0},
                          "its expected wall time, %.4g days (Daly 2006 for an interruption every "
                          "%.4g h, failures and announced stops), holds %.3g interruptions, more "
                          "than the %d a life simulates; check the failure classes' mtbf, "
                          "planned_every and their units",
                          expect / 86400, expect / n / 3600, n, ST_LIM_FAILURES);
    if (expect <= horizon)
        return 0;
    double every = n > 0 ? expect / n : m;
    if (held > 0)
        return st_err_set(err, ST_ERANGE, (st_loc){0},
                          "lifetime: the job's expected wall time, %.3g s (Daly 2006 for an "
                          "interruption every %.3g s, waiting for a spare node %.3g%% of the "
                          "time), is past the horizon of %.3g s",
                          expect, every, 100 * held, horizon);
    return st_err_set(err, ST_ERANGE, (st_loc){0},
                      "lifetime: the job's expected wall time, %.3g s (Daly 2006 for an "
                      "interruption every %.3g s), is past the horizon of %.3g s",
                      expect, every, horizon);
}
