/* A service under a load curve: the replicas its autoscaler keeps up over time, and the
 * requests one replica among them receives. A load balancer without state sends each request
 * to a replica at random, so while n replicas are up each receives a Poisson stream of rate
 * lambda(t) / n (a thinned Poisson process); one replica up all along is simulated, each of its
 * requests standing for the n(t) the fleet receives at that moment. docs/models/inference.md,
 * "A load curve and an autoscaler". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve.h"
#include "models/serve/serve_internal.h"
#include "sim/xalloc.h"

/* The curve's rate at t: linear between its points, held at its first and last. */
double st__serve_rate_at(const st_inference_cfg *ic, double t)
{
    const st_load_point *p = ic->load;
    int n = ic->n_load;
    if (t <= p[0].at_s)
        return p[0].rate;
    if (t >= p[n - 1].at_s)
        return p[n - 1].rate;
    int lo = 0, hi = n - 1; /* p[lo].at_s < t <= p[hi].at_s */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (p[mid].at_s < t)
            lo = mid;
        else
            hi = mid;
    }
    double f = (t - p[lo].at_s) / (p[hi].at_s - p[lo].at_s);
    return p[lo].rate + f * (p[hi].rate - p[lo].rate);
}

double st__serve_fleet_mean_rate(const st_inference_cfg *ic)
{
    const st_load_point *p = ic->load;
    double sum = 0;
    for (int i = 1; i < ic->n_load; i++)
        sum += 0.5 * (p[i - 1].rate + p[i].rate) * (p[i].at_s - p[i - 1].at_s);
    return sum / (p[ic->n_load - 1].at_s - p[0].at_s);
}

/* The integral of the curve's rate from its start + a to its start + b. */
static double integral(const st_inference_cfg *ic, double a, double b)
{
    const st_load_point *p = ic->load;
    double t0 = p[0].at_s, sum = 0;
    a += t0;
    b += t0;
    for (int i = 1; i < ic->n_load && p[i - 1].at_s < b; i++) {
        double lo = a > p[i - 1].at_s ? a : p[i - 1].at_s, hi = b < p[i].at_s ? b : p[i].at_s;
        if (hi > lo)
            sum += 0.5 * (st__serve_rate_at(ic, lo) + st__serve_rate_at(ic, hi)) * (hi - lo);
    }
    return sum;
}

/* A trace's rows that arrive before t (sorted: a binary search). */
static int64_t rows_before(const st_inference_cfg *ic, double t)
{
    int64_t lo = 0, hi = ic->n_trace;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ic->trace[mid].arrival_s < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

double st_serve_sent(const st_inference_cfg *ic, double a_s, double b_s)
{
    if (!(b_s > a_s))
        return 0;
    if (ic->n_load > 0)
        return integral(ic, a_s, b_s);
    if (ic->mode == ST_REQ_TRACE)
        return (double)(rows_before(ic, b_s) - rows_before(ic, a_s));
    if (ic->mode == ST_REQ_OFFLINE)
        return a_s <= 0 ? (double)ic->count : 0;
    double all = (double)ic->count;
    if (ic->concurrency > 0 && (double)ic->concurrency < all)
        all = (double)ic->concurrency; /* the rest wait for completions */
    if (ic->mode == ST_REQ_CLOSED)
        return a_s <= 0 ? all : 0;
    double sent = ic->rate * (b_s - (a_s > 0 ? a_s : 0));
    return sent < all ? sent : all;
}

static void record(st__serve_fleet *f, double t, int64_t n, size_t *cap)
{
    if (f->len > 0 && f->n[f->len - 1] == n)
        return;
    if (f->len > 0 && f->t[f->len - 1] == t) { /* two changes at one moment: the later holds */
        f->n[f->len - 1] = n;
        return;
    }
    if (f->len == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        f->t = st_xrealloc(f->t, *cap * sizeof *f->t);
        f->n = st_xrealloc(f->n, *cap * sizeof *f->n);
    }
    f->t[f->len] = t;
    f->n[f->len++] = n;
}

/* The replicas asked for at t: enough for the rate at `target` each, within the bounds. */
static int64_t wanted(const st_inference_cfg *ic, double t, double target)
{
    const st_autoscale_cfg *a = &ic->autoscale;
    double d = ceil(st__serve_rate_at(ic, t) / target - 1e-9);
    return d < (double)a->min ? a->min : d > (double)a->max ? a->max : (int64_t)d;
}

/* Launches made at one decision: ready together, delay_s later. */
typedef struct launch {
    double ready_s;
    int64_t n;
} launch;

/* One decision's changes to the replicas asked for: added, and removed (launches cancelled,
 * replicas stopped), for the scale-up limit's period. */
typedef struct change {
    double t;
    int64_t added, removed;
} change;

/* The most replicas a decision may ask for, from `now` asked for: the scale-up limit of the
 * horizontal pod autoscaler (calculateScaleUpLimitWithScalingRules): from the count at the
 * period's start (now, less what the period added, plus what it removed), the more of up_pods
 * more and up_share more of them. */
static int64_t up_limit(const st_autoscale_cfg *a, int64_t now, int64_t added, int64_t removed)
{
    if (!(a->up_period_s > 0)) /* no limit: the loader always sets one */
        return INT64_MAX;
    int64_t start = now - added + removed;
    double by_share = ceil((double)start * (1 + a->up_share) - 1e-9);
    int64_t by_pods = start + a->up_pods;
    return by_share > (double)by_pods ? (int64_t)by_share : by_pods;
}

/* The most entries a ring needs for what spans `span` seconds of decisions `interval` apart. */
static size_t ring_len(double span, double interval, int64_t steps)
{
    double k = floor(span / interval) + 2;
    return (size_t)(k < (double)steps + 2 ? k : (double)steps + 2);
}

/* Kubernetes' horizontal pod autoscaler at every interval: a scale-up launches the replicas
 * missing, as many as its rate limit allows (up_limit), ready delay_s later; a scale-down to
 * the most asked for over the window (its stabilisation, over the wants before the limit, as
 * the autoscaler records its recommendations) cancels launches not yet ready first, latest
 * first, then stops replicas at once. The service starts with what its first point asks for.
 * The window's wants are kept as a monotone queue and the period's changes as a FIFO with their
 * sums, so each decision costs O(1) amortised. */
static void autoscale(const st_inference_cfg *ic, double target, st__serve_fleet *f)
{
    const st_autoscale_cfg *a = &ic->autoscale;
    double t0 = ic->load[0].at_s, t1 = ic->load[ic->n_load - 1].at_s;
    int64_t steps = (int64_t)floor((t1 - t0) / a->interval_s);
    size_t cap = 0, lc = ring_len(a->delay_s, a->interval_s, steps),
           wc = ring_len(a->window_s, a->interval_s, steps),
           cc = ring_len(a->up_period_s, a->interval_s, steps);
    change *chg = st_xmalloc(cc * sizeof *chg); /* the period's changes, oldest first */
    size_t ch = 0, cn = 0;
    int64_t added = 0, removed = 0;
    launch *pend = st_xmalloc(lc * sizeof *pend);   /* a FIFO ring: ph first, pg groups */
    double *win_t = st_xmalloc(wc * sizeof *win_t); /* (time, want), wants decreasing */
    int64_t *win_w = st_xmalloc(wc * sizeof *win_w);
    size_t ph = 0, pg = 0, wh = 0, wn = 0;
    int64_t up = wanted(ic, t0, target), pn = 0; /* replicas up, and launched not yet up */
    record(f, t0, up, &cap);
    for (int64_t k = 1; k <= steps; k++) {
        double t = t0 + (double)k * a->interval_s;
        for (; pg > 0 && pend[ph % lc].ready_s <= t; ph++, pg--) {
            up += pend[ph % lc].n;
            pn -= pend[ph % lc].n;
            record(f, pend[ph % lc].ready_s, up, &cap);
        }
        int64_t d = wanted(ic, t, target);
        while (wn > 0 && win_t[wh % wc] <= t - a->window_s) /* out of the window */
            wh++, wn--;
        while (wn > 0 && win_w[(wh + wn - 1) % wc] <= d)
            wn--;
        win_t[(wh + wn) % wc] = t;
        win_w[(wh + wn) % wc] = d;
        wn++;
        int64_t keep = win_w[wh % wc]; /* the most asked for in the window */
        for (; cn > 0 && chg[ch % cc].t <= t - a->up_period_s; ch++, cn--) {
            added -= chg[ch % cc].added;
            removed -= chg[ch % cc].removed;
        }
        int64_t was = up + pn, lim = up_limit(a, was, added, removed);
        if (d > was && lim > was) {
            int64_t n = (d < lim ? d : lim) - was;
            pend[(ph + pg++) % lc] = (launch){t + a->delay_s, n};
            pn += n;
        } else if (keep < up + pn) {
            while (pn > 0 && up + pn > keep) {
                launch *l = &pend[(ph + pg - 1) % lc];
                int64_t c = l->n < up + pn - keep ? l->n : up + pn - keep;
                l->n -= c;
                pn -= c;
                if (l->n == 0)
                    pg--;
            }
            if (up > keep)
                record(f, t, up = keep, &cap);
        }
        if (up + pn != was) { /* this decision's change, for the periods it falls in */
            change c = {t, up + pn > was ? up + pn - was : 0, up + pn < was ? was - up - pn : 0};
            chg[(ch + cn++) % cc] = c;
            added += c.added;
            removed += c.removed;
        }
    }
    for (; pg > 0 && pend[ph % lc].ready_s <= t1; ph++, pg--)
        record(f, pend[ph % lc].ready_s, up += pend[ph % lc].n, &cap);
    free(pend);
    free(win_t);
    free(win_w);
    free(chg);
}

void st__serve_fleet_plan(const st_inference_cfg *ic, int64_t dp, double target, st__serve_fleet *f)
{
    *f = (st__serve_fleet){.start_s = ic->load[0].at_s, .end_s = ic->load[ic->n_load - 1].at_s};
    size_t cap = 0;
    if (ic->autoscale.on)
        autoscale(ic, target, f);
    else
        record(f, f->start_s, dp, &cap);
}

void st__serve_fleet_release(st__serve_fleet *f)
{
    free(f->t);
    free(f->n);
}

/* Walks the pieces on which one replica's rate lambda(t) / n(t) is linear: between the
 * curve's points and the fleet's changes, from the curve's start to its end. */
typedef struct walk {
    const st_inference_cfg *ic;
    const st__serve_fleet *f;
    int p;    /* the next curve point after a */
    size_t k; /* the fleet's entry in force on [a, b) */
    double a, b;
} walk;

static int walk_next(walk *w)
{
    if (w->b >= w->f->end_s)
        return 0;
    w->a = w->b;
    while (w->p < w->ic->n_load && w->ic->load[w->p].at_s <= w->a)
        w->p++;
    while (w->k + 1 < w->f->len && w->f->t[w->k + 1] <= w->a)
        w->k++;
    double b = w->f->end_s;
    if (w->p < w->ic->n_load && w->ic->load[w->p].at_s < b)
        b = w->ic->load[w->p].at_s;
    if (w->k + 1 < w->f->len && w->f->t[w->k + 1] < b)
        b = w->f->t[w->k + 1];
    w->b = b;
    return 1;
}

static walk walk_start(const st_inference_cfg *ic, const st__serve_fleet *f)
{
    return (walk){.ic = ic, .f = f, .b = f->start_s};
}

double st__serve_fleet_per_replica(const st_inference_cfg *ic, const st__serve_fleet *f)
{
    double sum = 0;
    for (walk w = walk_start(ic, f); walk_next(&w);) {
        double n = (double)w.f->n[w.k];
        sum += 0.5 * (st__serve_rate_at(ic, w.a) + st__serve_rate_at(ic, w.b)) / n * (w.b - w.a);
    }
    return sum;
}

double st__serve_fleet_replica_s(const st__serve_fleet *f, double until_s)
{
    double sum = 0;
    for (size_t k = 0; k < f->len; k++) {
        double b = k + 1 < f->len ? f->t[k + 1] : until_s;
        if (b > f->t[k])
            sum += (double)f->n[k] * (b - f->t[k]);
    }
    return sum;
}

int64_t st__serve_fleet_arrivals(const st_inference_cfg *ic, const st__serve_fleet *f, st_rng *rng,
                                 double **arrival, int64_t **weight)
{
    int64_t n = 0, cap = 0;
    double *t_out = NULL;
    int64_t *w_out = NULL;
    double e = st_rng_exponential(rng, 1.0); /* the unit-rate time to the next arrival */
    for (walk w = walk_start(ic, f); walk_next(&w);) {
        double reps = (double)f->n[w.k], a = w.a;
        double mu_b = st__serve_rate_at(ic, w.b) / reps;
        for (;;) {
            double mu_a = st__serve_rate_at(ic, a) / reps;
            double len = w.b - a, area = 0.5 * (mu_a + mu_b) * len;
            if (!(len > 0) || e > area) {
                e -= area > 0 ? area : 0;
                break;
            }
            /* mu_a x + m x^2 / 2 = e for x in [0, len], m the slope: the root written so that it
             * loses no digits when m is small or negative */
            double m = (mu_b - mu_a) / len, disc = mu_a * mu_a + 2 * m * e;
            double x = 2 * e / (mu_a + sqrt(disc > 0 ? disc : 0));
            a = x < len ? a + x : w.b;
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                t_out = st_xrealloc(t_out, (size_t)cap * sizeof *t_out);
                w_out = st_xrealloc(w_out, (size_t)cap * sizeof *w_out);
            }
            t_out[n] = a;
            w_out[n++] = f->n[w.k];
            e = st_rng_exponential(rng, 1.0);
        }
    }
    *arrival = t_out;
    *weight = w_out;
    return n;
}

/* ---- the replicas' stretches, for the cluster run ------------------------------------------- */

/* w's fleet at r's target rate into *f; 0 when its replicas are dp all along. */
static int fleet_of(const st_workload_cfg *w, const st_serve_result *r, st__serve_fleet *f)
{
    const st_inference_cfg *ic = &w->inference;
    if (ic->n_load == 0 || !ic->autoscale.on || !(r->scale_target_rate > 0))
        return 0;
    st__serve_fleet_plan(ic, st_serve_replicas(w), r->scale_target_rate, f);
    return f->len > 0;
}

size_t st_serve_ups(const st_workload_cfg *w, const st_serve_result *r, int64_t *base,
                    st_serve_up **out)
{
    st__serve_fleet f;
    *out = NULL;
    *base = st_serve_replicas(w);
    if (!fleet_of(w, r, &f))
        return 0;
    int64_t lo = f.n[0], hi = f.n[0];
    for (size_t k = 1; k < f.len; k++) {
        lo = f.n[k] < lo ? f.n[k] : lo;
        hi = f.n[k] > hi ? f.n[k] : hi;
    }
    *base = lo;
    double *open = st_xmalloc((size_t)(hi - lo + 1) * sizeof *open); /* replica lo + j's from */
    size_t n = 0, cap = 0;
    int64_t up = lo;
    for (size_t k = 0; k <= f.len; k++) { /* and once more at the end, down to lo */
        int64_t to = k < f.len ? f.n[k] : lo;
        double t = (k < f.len ? f.t[k] : f.end_s) - f.start_s;
        for (; up < to; up++)
            open[up - lo] = t;
        for (; up > to; up--) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                *out = st_xrealloc(*out, cap * sizeof **out);
            }
            (*out)[n++] = (st_serve_up){up - 1, open[up - 1 - lo], t};
        }
    }
    free(open);
    st__serve_fleet_release(&f);
    return n;
}

/* One replica's rate lambda(t) / n(t) integrated from the fleet's start to each piece's start:
 * the pieces of `walk`, on which that rate is linear, so the trapezoid is exact. */
typedef struct share_curve {
    double *t, *c, *mu_a, *mu_b; /* piece j: [t[j], t[j + 1]), integral c[j] at its start */
    size_t n;
} share_curve;

static void share_curve_of(const st_inference_cfg *ic, const st__serve_fleet *f, share_curve *s)
{
    size_t cap = 0;
    double sum = 0;
    memset(s, 0, sizeof *s);
    for (walk w = walk_start(ic, f); walk_next(&w);) {
        if (s->n + 1 >= cap) {
            cap = cap ? 2 * cap : 64;
            s->t = st_xrealloc(s->t, cap * sizeof *s->t);
            s->c = st_xrealloc(s->c, cap * sizeof *s->c);
            s->mu_a = st_xrealloc(s->mu_a, cap * sizeof *s->mu_a);
            s->mu_b = st_xrealloc(s->mu_b, cap * sizeof *s->mu_b);
        }
        double reps = (double)f->n[w.k];
        s->t[s->n] = w.a;
        s->c[s->n] = sum;
        s->mu_a[s->n] = st__serve_rate_at(ic, w.a) / reps;
        s->mu_b[s->n] = st__serve_rate_at(ic, w.b) / reps;
        sum += 0.5 * (s->mu_a[s->n] + s->mu_b[s->n]) * (w.b - w.a);
        s->t[++s->n] = w.b; /* the end of the last piece */
        s->c[s->n] = sum;
    }
}

/* The integral from the fleet's start to t (clamped to the pieces). */
static double share_at(const share_curve *s, double t)
{
    if (s->n == 0 || t <= s->t[0])
        return 0;
    if (t >= s->t[s->n])
        return s->c[s->n];
    size_t lo = 0, hi = s->n; /* t[lo] <= t < t[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (s->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double len = s->t[lo + 1] - s->t[lo], x = t - s->t[lo];
    double mu = s->mu_a[lo] + (s->mu_b[lo] - s->mu_a[lo]) * (len > 0 ? x / len : 0);
    return s->c[lo] + 0.5 * (s->mu_a[lo] + mu) * x;
}

void st_serve_replica_sent(const st_workload_cfg *w, const st_serve_result *r, const double *a,
                           const double *b, size_t n, double *sent)
{
    const st_inference_cfg *ic = &w->inference;
    st__serve_fleet f;
    if (!fleet_of(w, r, &f)) {
        for (size_t i = 0; i < n; i++)
            sent[i] = st_serve_sent(ic, a[i], b[i]) / (double)st_serve_replicas(w);
        return;
    }
    share_curve s;
    share_curve_of(ic, &f, &s);
    for (size_t i = 0; i < n; i++)
        sent[i] = b[i] > a[i] ? share_at(&s, f.start_s + b[i]) - share_at(&s, f.start_s + a[i]) : 0;
    free(s.t);
    free(s.c);
    free(s.mu_a);
    free(s.mu_b);
    st__serve_fleet_release(&f);
}
