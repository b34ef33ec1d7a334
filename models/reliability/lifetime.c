/* A training job's life under failures, checkpoints and restarts: a fluid model on the engine
 * (progress linear between events), failures from merged Poisson or per-component renewal
 * processes; its Monte Carlo summary over replicas is life_replicas.c.
 * docs/models/storage-and-failures.md. */
#include "models/reliability/lifetime.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/limits.h"
#include "models/reliability/interval.h"
#include "models/reliability/spare_wait.h"
#include "models/reliability/spares.h"
#include "sim/engine.h"
#include "sim/gsl_guard.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

/* Durations are capped at 2^61 ns and the clock at 2^62 ns, so now + any duration stays below
 * 2^63 and no sum can overflow the engine's int64 clock. */
#define MAX_SPAN    ((st_time)1 << 61)
#define MAX_HORIZON ((st_time)1 << 62)

/* What the job is doing. Progress grows only in COMPUTE. */
enum {
    PH_COMPUTE,    /* training */
    PH_STALL,      /* paused while a checkpoint is taken */
    PH_WAIT_START, /* a checkpoint is due, the previous one has not committed yet */
    PH_WAIT_END,   /* all work done, the final checkpoint has not committed yet */
    PH_DOWN,       /* detect + restart + restore after a failure */
    PH_SKIPPED,    /* jumped over whole checkpoint cycles; their time is already counted */
    PH_DONE
};

/* At one nanosecond, a checkpoint that commits counts before a failure at that instant, and the
 * job's own events come before failures too. Such ties have probability ~1e-9 per event; the
 * order only has to be fixed, not clever. */
enum { PRIO_COMMIT = 0, PRIO_JOB = 1, PRIO_FAIL = 2 };

/* A class run as per-component renewal processes: one pending engine event per component. */
typedef struct wclass {
    st_rng *rng;
    double scale, shape;
    double loss;  /* st_life_class.mem_loss */
    int64_t take; /* nodes a failure takes out, and for how long (spares) */
    st_time repair;
} wclass;

/* A Poisson stream of announced stops (lifetime.h): planned interruptions, and exclusions of
 * fail-slow nodes. Each has its own random stream and engine event kind, so the failures' draws
 * and the other stream's are those of a job without it. */
enum { STOP_PLANNED, STOP_SLOW, N_STOPS };

typedef struct stop_stream {
    int kind;      /* its engine event kind */
    st_rng *rng;   /* gap_s 0: none */
    double gap_s;  /* mean gap, of wall time */
    st_time down;  /* the save's commit + restart + restore, and what the kind adds */
    int64_t count; /* stops made */
} stop_stream;

typedef struct life {
    st_engine *eng;
    int k_mark, k_stall, k_commit, k_up, k_fail, k_comp;
    /* The spec in ticks. */
    st_time work, every, stall, commit, down, horizon;
    stop_stream stops[N_STOPS];
    /* The in-memory level (mem = 0: none): a snapshot every `mem` ticks of progress, which
     * here runs mem_stall longer per snapshot interval (the work and `every` are stretched by
     * the same factor); work0 is the work unstretched, down_mem the downtime of a restore from
     * memory. */
    st_time mem, work0, down_mem;
    st_rng *mem_rng; /* draws whether a failure loses the in-memory copy */
    int mem_ok;      /* in a downtime: the in-memory copy survived every failure of it */
    /* Failure sources: the merged Poisson process (gap_s = 0: none; gap_loss its failures'
     * probability of losing the in-memory copy) and the renewal classes. */
    st_rng *rng;
    double gap_s, gap_loss;
    wclass *wc;
    int nwc;
    /* Spare nodes (has_spares): the nodes out, the merged exponential classes' rates, takes and
     * repairs (n_exp of them) to tell which failed, drawn from spare_rng, and the time the job
     * would be up without waiting for a spare (up_plain) and the waits summed. */
    st_spares spares;
    int has_spares, n_exp;
    double *exp_rate;
    wclass *exp_cls;
    st_rng *spare_rng;
    st_time up_plain, spare_wait;
    int skip; /* jump over whole checkpoint cycles when nothing else can happen (default) */
    /* State. inflight is the progress a checkpoint being written holds, -1 when none. */
    int phase;
    st_time t_phase, progress, committed, inflight;
    st_ev_handle ev_mark, ev_stall, ev_commit, ev_up;
    /* Totals, in ticks. */
    int64_t interruptions, checkpoints;
    st_time lost, downtime, stalled, end;
} life;

/* Seconds to engine ticks, rounded to the nearest nanosecond: the rounding error is at most
 * 0.5 ns per duration, 1e-13 of a one-hour checkpoint interval. */
static int to_ticks(double s, const char *what, st_time *out, st_err *err)
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
static int64_t class_count(const st_life_class *c)
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

/* Check the spec and convert it to ticks in L. */
static int load_spec(life *L, const st_life_spec *s, st_err *err)
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
    if ((rc = to_ticks((double)s->steps * s->step_s, "work", &L->work0, err)) ||
        (rc = to_ticks((double)s->steps * s->step_s * g, "work", &L->work, err)) ||
        (rc = to_ticks(s->ckpt_every_s * g, "checkpoint interval", &L->every, err)) ||
        (rc = to_ticks(s->mem_every_s > 0 ? s->mem_every_s + s->mem_stall_s : 0,
                       "in-memory interval", &L->mem, err)) ||
        (rc = to_ticks(s->mem_restore_s, "in-memory restore time", &mem_restore, err)) ||
        (rc = to_ticks(s->ckpt_stall_s, "checkpoint stall", &L->stall, err)) ||
        (rc = to_ticks(s->ckpt_commit_s, "checkpoint commit", &L->commit, err)) ||
        (rc = to_ticks(s->detect_s, "detect time", &detect, err)) ||
        (rc = to_ticks(s->restart_s, "restart time", &restart, err)) ||
        (rc = to_ticks(s->restore_s, "restore time", &restore, err)) ||
        (rc = to_ticks(s->horizon_s, "horizon", &L->horizon, err)) ||
        (rc = to_ticks(s->planned_every_s, "planned interval", &(st_time){0}, err)) ||
        (rc = to_ticks(s->slow_every_s, "fail-slow interval", &(st_time){0}, err)) ||
        (rc = to_ticks(s->slow_cost_s, "fail-slow stretch", &slow_cost, err)))
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
    int64_t renewal = 0;
    for (int i = 0; i < s->n_classes; i++) {
        if ((rc = check_class(&s->classes[i], i, err)))
            return rc;
        if (s->has_spares && (!s->take || !s->repair_s || s->take[i] < 0 ||
                              (rc = to_ticks(s->repair_s[i], "repair", &(st_time){0}, err))))
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
            renewal += class_count(&s->classes[i]);
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

double st_life_job_mtbf(const st_life_spec *s)
{
    double rate = 0;
    for (int i = 0; i < s->n_classes; i++)
        rate += (double)class_count(&s->classes[i]) / s->classes[i].mtbf_s;
    return rate > 0 ? 1.0 / rate : INFINITY;
}

/* Schedule kind dt_s seconds from now, unless that is past the horizon: such an event could
 * never fire before the run gives up, and leaving it out keeps the clock from overflowing. */
static void schedule_after(life *L, int kind, double dt_s, const st_payload *data)
{
    st_time now = st_engine_now(L->eng);
    if (!(dt_s * 1e9 <= (double)(L->horizon - now)))
        return;
    st_time at = now + (st_time)llround(dt_s * 1e9);
    if (at <= L->horizon)
        st_engine_schedule_prio(L->eng, kind, at, PRIO_FAIL, data);
}

/* The logarithm of a draw from Gamma(a, 1), a > 0, by Marsaglia and Tsang's squeeze method ("A
 * simple method for generating gamma variables", ACM TOMS 26(3), 2000), with their boost for
 * a < 1: G(a) = G(a + 1) U^(1/a), taken as log G(a + 1) + log(U) / a, because U^(1/a) underflows
 * to 0 once 1/a passes about 1e3 (a Weibull shape of 1,000 made every first failure 0 s). sim/rng
 * has no gamma draw, and its streams are opaque, so the method is built on st_rng_normal and
 * st_rng_uniform_pos. */
static double log_gamma_draw(st_rng *r, double a)
{
    double log_boost = 0.0;
    if (a < 1.0) {
        log_boost = log(st_rng_uniform_pos(r)) / a;
        a += 1.0;
    }
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = st_rng_normal(r, 0.0, 1.0), v = 1.0 + c * x;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = st_rng_uniform_pos(r);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return log_boost + log(d * v);
    }
}

/* The first failure of a component that has been in service for a long time: the forward
 * recurrence time of a stationary renewal process, with density S(x) / mean (D. R. Cox,
 * "Renewal Theory", 1962, the equilibrium renewal process). For a Weibull of scale l and shape k
 * its distribution function is P(1/k, (x/l)^k), the regularised incomplete gamma, so x = l G^(1/k)
 * with G ~ Gamma(1/k, 1), computed as l exp(log G / k) so that no power underflows. Starting
 * stationary makes the class fail at count/mtbf on average from the first second, as the
 * published per-period failure counts that set the rates assume. */
static double first_failure(wclass *c)
{
    return c->scale * exp(log_gamma_draw(c->rng, 1.0 / c->shape) / c->shape);
}

/* Failure streams: one for the merged Poisson process, one per renewal class, all keyed by
 * (master_seed, "lifetime", replica) so replicas are independent and a class added at the end
 * leaves the others' draws unchanged. */
static void start_failures(life *L, const st_life_spec *s, uint64_t seed, uint64_t replica,
                           int mode)
{
    uint32_t kind = st_rng_tag("lifetime"), purpose = st_rng_tag("failure");
    uint64_t class_seed = st_rng_stream_seed(seed, kind, replica, purpose);
    double rate = 0, lose = 0;
    L->wc = st_xcalloc((size_t)s->n_classes + 1, sizeof *L->wc);
    if (L->has_spares) { /* which merged failure is whose: its own stream */
        L->exp_rate = st_xcalloc((size_t)s->n_classes + 1, sizeof *L->exp_rate);
        L->exp_cls = st_xcalloc((size_t)s->n_classes + 1, sizeof *L->exp_cls);
        L->spare_rng = st_rng_new(seed, kind, replica, st_rng_tag("spare-class"));
    }
    if (L->mem > 0) /* its own stream: the failures' draws stay those of a one-level job */
        L->mem_rng = st_rng_new(seed, kind, replica, st_rng_tag("memory-loss"));
    for (int i = 0; i < s->n_classes; i++) {
        const st_life_class *c = &s->classes[i];
        int64_t n = class_count(c);
        if (n == 0)
            continue;
        st_time repair = 0;
        int64_t take = L->has_spares ? s->take[i] : 0;
        if (L->has_spares)
            to_ticks(s->repair_s[i], "repair", &repair, &(st_err){0}); /* load_spec checked it */
        if (c->shape == 1.0 && !(mode & ST__LIFE_RENEWAL)) {
            rate += (double)n / c->mtbf_s;
            lose += (double)n / c->mtbf_s * (s->mem_loss ? s->mem_loss[i] : 1);
            if (L->has_spares) {
                L->exp_rate[L->n_exp] = (double)n / c->mtbf_s;
                L->exp_cls[L->n_exp++] = (wclass){.take = take, .repair = repair};
            }
            continue;
        }
        /* Weibull mean = scale * Gamma(1 + 1/k), so scale = mtbf / Gamma(1 + 1/k). */
        wclass *w = &L->wc[L->nwc];
        w->rng = st_rng_new(class_seed, st_rng_tag("lifetime-class"), (uint64_t)i, purpose);
        w->shape = c->shape;
        w->loss = s->mem_loss ? s->mem_loss[i] : 1;
        w->scale = c->mtbf_s / gsl_sf_gamma(1.0 + 1.0 / c->shape); /* check_class: finite */
        w->take = take;
        w->repair = repair;
        st_payload p = {.u = {(uint64_t)L->nwc}};
        L->nwc++;
        for (int64_t j = 0; j < n; j++)
            schedule_after(L, L->k_comp, first_failure(w), &p);
    }
    static const char *const stop_tags[N_STOPS] = {"planned", "fail-slow"};
    for (int i = 0; i < N_STOPS; i++) {
        stop_stream *q = &L->stops[i];
        if (!(q->gap_s > 0))
            continue;
        q->rng = st_rng_new(seed, kind, replica, st_rng_tag(stop_tags[i]));
        st_payload p = {.u = {(uint64_t)i}};
        schedule_after(L, q->kind, st_rng_exponential(q->rng, q->gap_s), &p);
    }
    if (rate > 0) {
        L->gap_s = 1.0 / rate;
        L->gap_loss = lose / rate; /* a merged failure is class c's with probability rate_c/rate */
        L->rng = st_rng_new(seed, kind, replica, purpose);
        schedule_after(L, L->k_fail, st_rng_exponential(L->rng, L->gap_s), NULL);
    }
}

/* The next point where progress needs attention: the next checkpoint or the end of the work. */
static void schedule_mark(life *L, st_time now)
{
    st_time next = L->work;
    if (L->every > 0) {
        st_time k = (L->progress / L->every + 1) * L->every; /* <= work + every < 2^63 */
        if (k < next)
            next = k;
    }
    L->ev_mark =
        st_engine_schedule_prio(L->eng, L->k_mark, now + (next - L->progress), PRIO_JOB, NULL);
}

static void finish(life *L, st_time now)
{
    L->end = now;
    L->phase = PH_DONE;
    st_engine_stop(L->eng);
}

static void start_ckpt(life *L, st_time now)
{
    L->inflight = L->progress;
    L->phase = PH_STALL;
    L->t_phase = now;
    L->ev_stall = st_engine_schedule_prio(L->eng, L->k_stall, now + L->stall, PRIO_JOB, NULL);
    if (L->commit > L->stall)
        L->ev_commit =
            st_engine_schedule_prio(L->eng, L->k_commit, now + L->commit, PRIO_COMMIT, NULL);
}

static void commit_ckpt(life *L)
{
    L->committed = L->inflight;
    L->inflight = -1;
    L->checkpoints++;
}

/* Close the current phase at now: progress or stall up to now is counted. */
static void settle(life *L, st_time now)
{
    st_time dt = now - L->t_phase;
    if (L->phase == PH_COMPUTE)
        L->progress += dt;
    else if (L->phase == PH_DOWN)
        L->downtime += dt;
    else if (L->phase != PH_DONE && L->phase != PH_SKIPPED)
        L->stalled += dt;
    L->t_phase = now;
}

/* Between failures the job repeats one cycle: a checkpoint starts, stalls `stall`, training
 * runs `every` to the next mark, and waits there if the checkpoint has not committed yet; so
 * cycles start every P = max(stall + every, commit), each adding `every` of progress, P - every
 * of stall and one committed checkpoint. At a checkpoint's start with none in flight, when the
 * next pending event (a failure: the job's own are all done) is later than k + 1 whole cycles,
 * count k of them at once and put the mark k P later: the same result, to the nanosecond, as
 * firing their 3k events (the unit suite compares the two). The last two intervals of the work
 * always run event by event, so the end is handled in one place. Returns 1 when it jumped. */
static int skip_cycles(life *L, st_time now)
{
    if (!L->skip || L->inflight >= 0 || L->every <= 0)
        return 0;
    st_time period = L->stall + L->every > L->commit ? L->stall + L->every : L->commit;
    st_time next = st_engine_next_time(L->eng), room = next - now;
    if (period <= 0 || room / period < 2)
        return 0;
    st_time k = room / period - 1, left = (L->work - L->progress) / L->every;
    if (left - 2 < k)
        k = left - 2;
    if (k < 1)
        return 0;
    L->progress += k * L->every;
    L->stalled += k * (period - L->every);
    L->checkpoints += k;
    L->committed = L->progress - L->every;
    L->phase = PH_SKIPPED;
    L->t_phase = now;
    L->ev_mark = st_engine_schedule_prio(L->eng, L->k_mark, now + k * period, PRIO_JOB, NULL);
    return 1;
}

static void on_mark(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    settle(L, ev->t);
    if (L->every > 0 && L->progress % L->every == 0) {
        if (L->inflight >= 0)
            L->phase = PH_WAIT_START; /* the previous checkpoint must commit first */
        else if (L->phase == PH_SKIPPED || !skip_cycles(L, ev->t))
            start_ckpt(L, ev->t);
    } else {
        finish(L, ev->t); /* the end of the work, no checkpoint due there */
    }
}

static void on_stall_end(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    settle(L, ev->t);
    if (L->commit <= L->stall)
        commit_ckpt(L);
    if (L->progress == L->work) {
        if (L->inflight < 0)
            finish(L, ev->t);
        else
            L->phase = PH_WAIT_END;
        return;
    }
    L->phase = PH_COMPUTE;
    schedule_mark(L, ev->t);
}

static void on_commit(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    commit_ckpt(L);
    if (L->phase == PH_WAIT_START) {
        settle(L, ev->t);
        start_ckpt(L, ev->t);
    } else if (L->phase == PH_WAIT_END) {
        settle(L, ev->t);
        finish(L, ev->t);
    }
}

static void on_up(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    settle(L, ev->t);
    if (ev->t > L->up_plain) /* the wait for a spare, past the plain downtime */
        L->spare_wait += ev->t - L->up_plain;
    L->phase = PH_COMPUTE;
    schedule_mark(L, ev->t);
}

/* One more interruption; past the most a life simulates (ST_LIM_LIFE_INTERRUPTIONS) the run stops
 * unfinished. */
static void count_interruption(life *L)
{
    if (++L->interruptions > ST_LIM_LIFE_INTERRUPTIONS)
        st_engine_stop(L->eng);
}

/* Whether a failure whose class loses the in-memory copy with probability p loses it: always
 * without an in-memory level (every restore is from the persistent checkpoint). */
static int loses_memory(life *L, double p)
{
    if (L->mem <= 0 || p >= 1)
        return 1;
    return p > 0 && st_rng_uniform(L->mem_rng) < p;
}

/* A failure hits the job: work since the newest copy that survived it (the last restorable
 * checkpoint, or the newest in-memory snapshot when the failure keeps it) is lost, a checkpoint
 * being written is abandoned, and the downtime starts, or starts over when one was under way.
 * A failure in a downtime that loses the in-memory copy being restored rolls back to the
 * persistent checkpoint. */
static void interrupt(life *L, st_time now, int lose, const wclass *c)
{
    count_interruption(L);
    settle(L, now);
    if (L->phase == PH_DOWN && now > L->up_plain) /* it came while the job waited for a spare */
        L->spare_wait += now - L->up_plain;
    st_time back = L->committed;
    if (!lose && L->mem > 0 && L->progress / L->mem * L->mem > back)
        back = L->progress / L->mem * L->mem;
    if (L->phase != PH_DOWN) {
        L->inflight = -1;
        st_engine_cancel(L->eng, L->ev_mark);
        st_engine_cancel(L->eng, L->ev_stall);
        st_engine_cancel(L->eng, L->ev_commit);
        L->phase = PH_DOWN;
        L->mem_ok = 1;
    }
    if (L->progress > back) {
        L->lost += L->progress - back;
        L->progress = back;
    }
    L->mem_ok = L->mem_ok && !lose;
    st_time down = L->mem_ok ? L->down_mem : L->down, up = now + down;
    L->up_plain = up;
    if (L->has_spares) { /* its nodes go out; the job comes up on spares, or waits */
        if (c)
            st_spares_take(&L->spares, now + c->repair, c->take);
        up = st_spares_ready(&L->spares, now, up);
    }
    if (st_engine_reschedule(L->eng, L->ev_up, up) != 0)
        L->ev_up = st_engine_schedule_prio(L->eng, L->k_up, up, PRIO_JOB, NULL);
}

/* Which merged exponential class a failure is: class c with probability rate_c / rate. */
static const wclass *merged_class(life *L)
{
    if (!L->has_spares || L->n_exp == 0)
        return NULL;
    double total = 0, u;
    for (int i = 0; i < L->n_exp; i++)
        total += L->exp_rate[i];
    u = st_rng_uniform(L->spare_rng) * total;
    for (int i = 0; i < L->n_exp - 1; i++)
        if ((u -= L->exp_rate[i]) < 0)
            return &L->exp_cls[i];
    return &L->exp_cls[L->n_exp - 1];
}

static void on_fail(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    interrupt(L, ev->t, loses_memory(L, L->gap_loss), merged_class(L));
    schedule_after(L, L->k_fail, st_rng_exponential(L->rng, L->gap_s), NULL);
}

/* A component of a renewal class failed: it is replaced by a new one, whose lifetime starts
 * now. */
static void on_comp_fail(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    wclass *c = &L->wc[ev->data.u[0]];
    interrupt(L, ev->t, loses_memory(L, c->loss), c);
    schedule_after(L, L->k_comp, st_rng_weibull(c->rng, c->scale, c->shape), &ev->data);
}

/* Whether the job can save at an announced stop: it checkpoints at all (a cadence, in-memory
 * snapshots, or a checkpoint whose write stalls or commits), even where its cadence is none
 * (`every: auto` without failure classes): its tier takes the save. */
static int saves_at_stop(const life *L)
{
    return L->every > 0 || L->mem > 0 || L->stall > 0 || L->commit > 0;
}

/* An announced stop at t, down for `down`: the job saves where it is, to the persistent tier, and
 * is down for the save's commit, the restart and the restore (and what the stop's kind adds);
 * the time between the stop and the job running again is downtime. */
static void announced_stop(life *L, st_time t, st_time down)
{
    settle(L, t);
    count_interruption(L);
    L->inflight = -1;
    st_engine_cancel(L->eng, L->ev_mark);
    st_engine_cancel(L->eng, L->ev_stall);
    st_engine_cancel(L->eng, L->ev_commit);
    if (saves_at_stop(L)) { /* the save at the stop */
        L->committed = L->progress;
        L->checkpoints++;
    } else if (L->progress > L->committed) { /* no checkpoints: nothing to save to */
        L->lost += L->progress - L->committed;
        L->progress = L->committed;
    }
    L->phase = PH_DOWN;
    L->mem_ok = 0; /* the hosts rebooted: a failure in this downtime restores the save */
    L->up_plain = t + down;
    if (st_engine_reschedule(L->eng, L->ev_up, t + down) != 0)
        L->ev_up = st_engine_schedule_prio(L->eng, L->k_up, t + down, PRIO_JOB, NULL);
}

/* A stop of stream ev->data.u[0]: a planned interruption (lifetime.h, planned_every_s), or a
 * fail-slow node's exclusion (slow_every_s), whose slow stretch its longer downtime holds.
 * Nothing to stop while the job is down or only waits for its final save to commit. */
static void on_stop(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    life *L = state;
    stop_stream *q = &L->stops[ev->data.u[0]];
    schedule_after(L, q->kind, st_rng_exponential(q->rng, q->gap_s), &ev->data);
    if (L->phase == PH_DOWN || L->phase == PH_WAIT_END)
        return;
    q->count++;
    announced_stop(L, ev->t, q->down);
}

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
static int check_finishes(const life *L, const st_life_spec *s, st_err *err)
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
    if (!saves_at_stop(L) && stops > 0) {
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

int st__life_run_mode(const st_life_spec *s, uint64_t master_seed, uint64_t replica, int mode,
                      st_life_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    life L = {.inflight = -1, .skip = !(mode & ST__LIFE_NOSKIP)};
    int rc = load_spec(&L, s, err);
    if (!rc)
        rc = check_finishes(&L, s, err);
    if (rc)
        return rc;
    L.eng = st_engine_new();
    L.k_mark = st_engine_register(L.eng, "life-mark", on_mark, &L);
    L.k_stall = st_engine_register(L.eng, "life-stall-end", on_stall_end, &L);
    L.k_commit = st_engine_register(L.eng, "life-commit", on_commit, &L);
    L.k_up = st_engine_register(L.eng, "life-up", on_up, &L);
    L.k_fail = st_engine_register(L.eng, "life-failure", on_fail, &L);
    L.k_comp = st_engine_register(L.eng, "life-component-failure", on_comp_fail, &L);
    L.stops[STOP_PLANNED].kind = st_engine_register(L.eng, "life-planned", on_stop, &L);
    L.stops[STOP_SLOW].kind = st_engine_register(L.eng, "life-fail-slow", on_stop, &L);
    start_failures(&L, s, master_seed, replica, mode);
    L.phase = PH_COMPUTE;
    schedule_mark(&L, 0);
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
