/* The failures and announced stops of a job's life drawn on its engine: the merged Poisson
 * process, the per-component renewal classes (stationary from the first second) and the stop
 * streams, each on its own random stream. docs/models/storage-and-failures.md. */
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

#include "models/reliability/lifetime_internal.h"
#include "sim/xalloc.h"

/* Schedule kind dt_s seconds from now, unless that is past the horizon: such an event could
 * never fire before the run gives up, and leaving it out keeps the clock from overflowing. */
void st__life_schedule_after(life *L, int kind, double dt_s, const st_payload *data)
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
void st__life_start_failures(life *L, const st_life_spec *s, uint64_t seed, uint64_t replica,
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
        int64_t n = st__life_class_count(c);
        if (n == 0)
            continue;
        st_time repair = 0;
        int64_t take = L->has_spares ? s->take[i] : 0;
        if (L->has_spares)
            st__life_to_ticks(s->repair_s[i], "repair", &repair,
                              &(st_err){0}); /* st__life_load_spec checked it */
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
            st__life_schedule_after(L, L->k_comp, first_failure(w), &p);
    }
    static const char *const stop_tags[N_STOPS] = {"planned", "fail-slow"};
    for (int i = 0; i < N_STOPS; i++) {
        stop_stream *q = &L->stops[i];
        if (!(q->gap_s > 0))
            continue;
        q->rng = st_rng_new(seed, kind, replica, st_rng_tag(stop_tags[i]));
        st_payload p = {.u = {(uint64_t)i}};
        st__life_schedule_after(L, q->kind, st_rng_exponential(q->rng, q->gap_s), &p);
    }
    if (rate > 0) {
        L->gap_s = 1.0 / rate;
        L->gap_loss = lose / rate; /* a merged failure is class c's with probability rate_c/rate */
        L->rng = st_rng_new(seed, kind, replica, purpose);
        st__life_schedule_after(L, L->k_fail, st_rng_exponential(L->rng, L->gap_s), NULL);
    }
}
