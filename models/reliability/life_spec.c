/* A job's life spec checked and converted to engine ticks (lifetime_internal.h): its work,
 * checkpoint levels, downtimes, horizon, stops, spares and failure classes; and the job's MTBF.
 * docs/models/storage-and-failures.md. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

#include "models/reliability/lifetime_internal.h"
#include "sim/gsl_guard.h"

/* Durations are capped at 2^61 ns and the clock at 2^62 ns, so now + any duration stays below
 * 2^63 and no sum can overflow the engine's int64 clock. */
#define MAX_SPAN    ((st_time)1 << 61)
#define MAX_HORIZON ((st_time)1 << 62)

/* Seconds to engine ticks, rounded to the nearest nanosecond: the rounding error is at most
 * 0.5 ns per duration, 1e-13 of a one-hour checkpoint interval. */
int st__life_to_ticks(double s, const char *what, st_time *out, st_err *err)
{
    if (!(isfinite(s) && s >= 0))
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "lifetime: %s %g s is not finite and >= 0",
                          what, s);
    if (s * 1e9 > (double)MAX_SPAN)
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: %s %g s is over 2^61 ns (73 years)", what, s);
    *out = (st_time)llround(s * 1e9);
    return 0;
}

/* The number of components a class stands for (st_life_class.count). */
int64_t st__life_class_count(const st_life_class *c)
{
    int64_t n = (int64_t)llround(c->count);
    return (c->count > 0 && n < 1) ? 1 : n;
}

static int check_class(const st_life_class *c, int i, st_err *err)
{
    const char *name = c->component ? c->component : "?";
    if (!(isfinite(c->count) && c->count >= 0 && c->count <= (double)ST_EVQ_MAX_PENDING))
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: class %d '%s' count %g is not in [0, 2^28)", i, name,
                          c->count);
    if (!(isfinite(c->mtbf_s) && c->mtbf_s > 0))
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: class %d '%s' mtbf %g s is not finite and > 0", i, name,
                          c->mtbf_s);
    if (!(isfinite(c->shape) && c->shape > 0))
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: class %d '%s' shape %g is not finite and > 0", i, name,
                          c->shape);
    /* The scale is mtbf / Gamma(1 + 1/shape); below a shape of about 0.0059 that Gamma overflows
     * a double. The _e form reports it instead of calling GSL's error handler, which aborts. */
    gsl_sf_result g;
    st_gsl_guard();
    if (gsl_sf_gamma_e(1.0 + 1.0 / c->shape, &g) != GSL_SUCCESS || !isfinite(g.val))
        return st_err_set(err, ST_ELIMIT, (st_loc){0},
                          "lifetime: class %d '%s' shape %g is too small: the Weibull mean needs "
                          "Gamma(1 + 1/shape), which overflows below a shape of about 0.0059",
                          i, name, c->shape);
    return 0;
}

/* The failure classes of s, each checked (check_class), with their spares and in-memory loss;
 * the renewal components must fit the event queue. */
static int check_classes(const st_life_spec *s, st_err *err)
{
    int rc = 0;
    int64_t renewal = 0;
    for (int i = 0; i < s->n_classes; i++) {
        if ((rc = check_class(&s->classes[i], i, err)))
            return rc;
        if (s->has_spares &&
            (!s->take || !s->repair_s || s->take[i] < 0 ||
             (rc = st__life_to_ticks(s->repair_s[i], "repair", &(st_time){0}, err))))
            return rc ? rc
                      : st_err_set(err, ST_EINVAL, (st_loc){0},
                                   "lifetime: class %d: spares without its nodes taken and "
                                   "repair time",
                                   i);
        double p = s->mem_loss ? s->mem_loss[i] : 1;
        if (!(p >= 0 && p <= 1))
            return st_err_set(err, ST_EINVAL, (st_loc){0},
                              "lifetime: class %d in-memory loss %g is not in [0, 1]", i, p);
        if (s->classes[i].shape != 1.0)
            renewal += st__life_class_count(&s->classes[i]);
    }
    /* The job keeps at most seven events of its own pending (mark, stall end, commit, up,
     * merged failure, planned stop, slow node). */
    if (renewal > (int64_t)ST_EVQ_MAX_PENDING - 7)
        return st_err_set(err, ST_ELIMIT, (st_loc){0},
                          "lifetime: %lld non-exponential components are more than the event "
                          "queue holds",
                          (long long)renewal);
    return 0;
}

/* Check the spec and convert it to ticks in L. */
int st__life_load_spec(life *L, const st_life_spec *s, st_err *err)
{
    if (!(isfinite(s->step_s) && s->step_s > 0) || s->steps < 1)
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: step time %g s and steps %lld must both be positive",
                          s->step_s, (long long)s->steps);
    if (!(s->ckpt_commit_s >= s->ckpt_stall_s))
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: checkpoint commit %g s is shorter than its stall %g s",
                          s->ckpt_commit_s, s->ckpt_stall_s);
    if (s->n_classes < 0 || (s->n_classes > 0 && !s->classes))
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "lifetime: %d classes without an array",
                          s->n_classes);
    st_time detect = 0, restart = 0, restore = 0, mem_restore = 0, slow_cost = 0;
    int rc;
    if (!(isfinite(s->mem_every_s) && s->mem_every_s >= 0 && isfinite(s->mem_stall_s) &&
          s->mem_stall_s >= 0))
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: in-memory interval %g s and stall %g s must be finite and "
                          ">= 0",
                          s->mem_every_s, s->mem_stall_s);
    /* The in-memory snapshots' stall, spread over the training (lifetime.h). 1 without them,
     * which leaves every figure of a one-level job as it was. */
    double g = s->mem_every_s > 0 ? 1 + s->mem_stall_s / s->mem_every_s : 1;
    if ((rc = st__life_to_ticks((double)s->steps * s->step_s, "work", &L->work0, err)) ||
        (rc = st__life_to_ticks((double)s->steps * s->step_s * g, "work", &L->work, err)) ||
        (rc = st__life_to_ticks(s->ckpt_every_s * g, "checkpoint interval", &L->every, err)) ||
        (rc = st__life_to_ticks(s->mem_every_s > 0 ? s->mem_every_s + s->mem_stall_s : 0,
                                "in-memory interval", &L->mem, err)) ||
        (rc = st__life_to_ticks(s->mem_restore_s, "in-memory restore time", &mem_restore, err)) ||
        (rc = st__life_to_ticks(s->ckpt_stall_s, "checkpoint stall", &L->stall, err)) ||
        (rc = st__life_to_ticks(s->ckpt_commit_s, "checkpoint commit", &L->commit, err)) ||
        (rc = st__life_to_ticks(s->detect_s, "detect time", &detect, err)) ||
        (rc = st__life_to_ticks(s->restart_s, "restart time", &restart, err)) ||
        (rc = st__life_to_ticks(s->restore_s, "restore time", &restore, err)) ||
        (rc = st__life_to_ticks(s->horizon_s, "horizon", &L->horizon, err)) ||
        (rc = st__life_to_ticks(s->planned_every_s, "planned interval", &(st_time){0}, err)) ||
        (rc = st__life_to_ticks(s->slow_every_s, "fail-slow interval", &(st_time){0}, err)) ||
        (rc = st__life_to_ticks(s->slow_cost_s, "fail-slow stretch", &slow_cost, err)))
        return rc;
    L->stops[STOP_PLANNED].gap_s = s->planned_every_s;
    L->stops[STOP_SLOW].gap_s = s->slow_every_s;
    if (L->work < 1)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "lifetime: work %g s is under 1 ns",
                          (double)s->steps * s->step_s);
    /* An interval of a whole number of steps divides the work exactly in seconds, but the two
     * are rounded to nanoseconds apart: within half a nanosecond per interval, the work is the
     * multiple, so the checkpoint due at the very end is not lost to rounding. */
    if (L->every > 0) {
        st_time k = (L->work + L->every / 2) / L->every;
        st_time gap = k * L->every - L->work;
        if (k >= 1 && (gap < 0 ? -gap : gap) <= (k + 1) / 2)
            L->work = k * L->every;
    }
    L->down = detect + restart + restore; /* each <= 2^61, so no overflow; checked below */
    L->down_mem = detect + restart + mem_restore;
    L->stops[STOP_PLANNED].down = L->commit + restart + restore;
    L->stops[STOP_SLOW].down = L->stops[STOP_PLANNED].down + slow_cost;
    if (L->down > MAX_SPAN || L->down_mem > MAX_SPAN || L->stops[STOP_SLOW].down > MAX_SPAN)
        return st_err_set(err, ST_EINVAL, (st_loc){0},
                          "lifetime: detect (or a planned stop's save) + restart + restore is "
                          "over 2^61 ns (73 years)");
    if (L->horizon == 0)
        L->horizon = MAX_HORIZON;
    L->has_spares = s->has_spares;
    L->spares.on_hand = s->has_spares ? s->spares : -1;
    if (s->has_spares && s->spares < 0)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "lifetime: %lld spare nodes",
                          (long long)s->spares);
    return check_classes(s, err);
}

double st_life_job_mtbf(const st_life_spec *s)
{
    double rate = 0;
    for (int i = 0; i < s->n_classes; i++)
        rate += (double)st__life_class_count(&s->classes[i]) / s->classes[i].mtbf_s;
    return rate > 0 ? 1.0 / rate : INFINITY;
}
