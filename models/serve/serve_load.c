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

/* Launches made at one decision: ready together. */
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

/* The most entries a ring needs for what spans `span` seconds of decisions `interval` apart,
 * twice that (a request at zero replicas adds one entry between two decisions). */
static size_t ring_len(double span, double interval, int64_t steps)
{
    double k = floor(span / interval) + 2;
    return 2 * (size_t)(k < (double)steps + 2 ? k : (double)steps + 2);
}

/* The first request the whole fleet receives after z, e a unit exponential draw: where the
 * curve's integral from z reaches e (the root as st__serve_fleet_arrivals takes it); INFINITY
 * when that is past the curve's end. */
static double first_after(const st_inference_cfg *ic, double z, double e)
{
    const st_load_point *p = ic->load;
    int i = 1, hi_i = ic->n_load - 1; /* the first point after z (a binary search) */
    while (i < hi_i) {
        int mid = (i + hi_i) / 2;
        if (p[mid].at_s <= z)
            i = mid + 1;
        else
            hi_i = mid;
    }
    for (; i < ic->n_load; i++) {
        double lo = z > p[i - 1].at_s ? z : p[i - 1].at_s, hi = p[i].at_s;
        if (!(hi > lo))
            continue;
        double mu_a = st__serve_rate_at(ic, lo), mu_b = st__serve_rate_at(ic, hi);
        double area = 0.5 * (mu_a + mu_b) * (hi - lo);
        if (e > area) {
            e -= area;
            continue;
        }
        double m = (mu_b - mu_a) / (hi - lo), disc = mu_a * mu_a + 2 * m * e;
        double x = 2 * e / (mu_a + sqrt(disc > 0 ? disc : 0));
        return x < hi - lo ? lo + x : hi;
    }
    return INFINITY;
}

/* The autoscaler's state over the decisions: the launches not yet ready (a FIFO), the window's
 * wants (a monotone queue), the scale-up period's changes (a FIFO with their sums), and at
 * min 0 the cold stretches and the next request at zero replicas. */
typedef struct scaler {
    const st_autoscale_cfg *a;
    const st_serve_cold *cold;
    st__serve_fleet *f;
    size_t cap, cold_cap;
    launch *pend; /* pend[ph .. ph + pg) */
    size_t ph, pg, pcap;
    double *win_t; /* (time, want), wants decreasing */
    int64_t *win_w;
    size_t wh, wn, wc;
    change *chg; /* the period's changes, oldest first */
    size_t ch, cn, cc;
    int64_t added, removed;
    int64_t up, pn;   /* replicas up, and launched not yet up */
    double tier_free; /* when the weights' tier has read every launch's so far */
} scaler;

/* When a launch at t of n replicas is ready: its engine started, then its weights read from
 * the tier once the tier has read the launches before it (n replicas' at once, n times one's
 * time), then compiled and captured (st_serve_cold). A replica's own drives (local-nvme) are
 * read by it alone. A stated delay: t + the delay. */
static double ready_at(scaler *z, double t, int64_t n)
{
    const st_serve_cold *c = z->cold;
    if (c->stated || !c->shared)
        return t + c->total_s;
    if (t + c->init_s >= z->tier_free) { /* the tier idle: as one replica alone, n times */
        z->tier_free = t + c->init_s + (double)n * c->load_s;
        return n == 1 ? t + c->total_s : z->tier_free + c->warm_s;
    }
    z->tier_free += (double)n * c->load_s;
    return z->tier_free + c->warm_s;
}

/* Launch n replicas at t (first: for the request that arrived then at zero replicas). */
static void launch_add(scaler *z, double t, int64_t n, int first)
{
    if (z->up + z->pn == 0) { /* no replica up or coming: a cold stretch opens */
        st__serve_fleet *f = z->f;
        if (f->n_cold == z->cold_cap) {
            z->cold_cap = z->cold_cap ? 2 * z->cold_cap : 16;
            f->cold = st_xrealloc(f->cold, z->cold_cap * sizeof *f->cold);
        }
        f->cold[f->n_cold++] = (st__serve_cold_run){t, INFINITY, n, first};
    }
    if (z->ph + z->pg == z->pcap) {
        if (z->ph > 0) {
            memmove(z->pend, z->pend + z->ph, z->pg * sizeof *z->pend);
            z->ph = 0;
        } else {
            z->pcap = z->pcap ? 2 * z->pcap : 16;
            z->pend = st_xrealloc(z->pend, z->pcap * sizeof *z->pend);
        }
    }
    z->pend[z->ph + z->pg++] = (launch){ready_at(z, t, n), n};
    z->pn += n;
}

static void want_push(scaler *z, double t, int64_t d);

/* The launches ready by t come up; one ending a cold stretch closes it, and the requests held
 * for it, reaching its replicas now, ask for them again (a want of its replicas at its ready
 * time), so the window keeps them up at least a window past it, as Knative's keeps a replica
 * with requests in flight. */
static void launches_ready(scaler *z, double t)
{
    for (; z->pg > 0 && z->pend[z->ph].ready_s <= t; z->ph++, z->pg--) {
        launch *l = &z->pend[z->ph];
        if (z->up == 0 && z->f->n_cold > 0 && z->f->cold[z->f->n_cold - 1].to == INFINITY) {
            z->f->cold[z->f->n_cold - 1].to = l->ready_s;
            z->f->cold[z->f->n_cold - 1].n = l->n;
            want_push(z, l->ready_s, l->n);
        }
        z->up += l->n;
        z->pn -= l->n;
        record(z->f, l->ready_s, z->up, &z->cap);
    }
}

/* A want of d replicas at t (t at or after every want before it) into the window. */
static void want_push(scaler *z, double t, int64_t d)
{
    while (z->wn > 0 && z->win_w[(z->wh + z->wn - 1) % z->wc] <= d)
        z->wn--;
    z->win_t[(z->wh + z->wn) % z->wc] = t;
    z->win_w[(z->wh + z->wn) % z->wc] = d;
    z->wn++;
}

static void change_push(scaler *z, double t, int64_t added, int64_t removed)
{
    z->chg[(z->ch + z->cn++) % z->cc] = (change){t, added, removed};
    z->added += added;
    z->removed += removed;
}

double st__serve_fleet_zero_s(const st__serve_fleet *f, double from, double to)
{
    double sum = 0;
    to = to < f->end_s ? to : f->end_s;
    for (size_t k = 0; k < f->len; k++) {
        double a = f->t[k] > from ? f->t[k] : from, b = k + 1 < f->len ? f->t[k + 1] : f->end_s;
        b = b < to ? b : to;
        if (f->n[k] == 0 && b > a)
            sum += b - a;
    }
    for (size_t k = 0; k < f->n_cold; k++) {
        double a = f->cold[k].from > from ? f->cold[k].from : from;
        double b = f->cold[k].to < to ? f->cold[k].to : to;
        if (b > a)
            sum -= b - a;
    }
    return sum > 0 ? sum : 0;
}

/* Kubernetes' horizontal pod autoscaler at every interval: a scale-up launches the replicas
 * missing, as many as its rate limit allows (up_limit), ready as `cold` says (ready_at); a
 * scale-down to the most asked for over the window (its stabilisation, over the wants before the
 * limit, as the autoscaler records its recommendations) cancels launches not yet ready first,
 * latest first, then stops replicas at once, but never the last launch a stretch with no
 * replica up waits for. The service starts with what its first point asks for. At min 0, the
 * first request at zero replicas launches one at once, beside the decisions and past their limit
 * (Knative's activator holds the request and has the autoscaler scale from zero: knative.dev/
 * docs/serving/autoscaling/scale-to-zero), and its want of one stays in the window. The window's
 * wants are kept as a monotone queue and the period's changes as a FIFO with their sums, so
 * each decision costs O(1) amortised. */
static void autoscale(const st_inference_cfg *ic, double target, const st_serve_cold *cold,
                      st__serve_fleet *f)
{
    const st_autoscale_cfg *a = &ic->autoscale;
    double t0 = ic->load[0].at_s, t1 = ic->load[ic->n_load - 1].at_s;
    int64_t steps = (int64_t)floor((t1 - t0) / a->interval_s);
    scaler z = {.a = a, .cold = cold, .f = f, .tier_free = -INFINITY};
    z.wc = ring_len(a->window_s, a->interval_s, steps);
    z.cc = ring_len(a->up_period_s, a->interval_s, steps);
    z.chg = st_xmalloc(z.cc * sizeof *z.chg);
    z.win_t = st_xmalloc(z.wc * sizeof *z.win_t);
    z.win_w = st_xmalloc(z.wc * sizeof *z.win_w);
    st_rng *wake =
        a->min == 0 ? st_rng_new(cold->seed, st_rng_tag("inference"), cold->id, st_rng_tag("wake"))
                    : NULL;
    double next_req = INFINITY; /* the fleet's next request while none is up or coming */
    z.up = wanted(ic, t0, target);
    record(f, t0, z.up, &z.cap);
    if (wake && z.up == 0)
        next_req = first_after(ic, t0, st_rng_exponential(wake, 1.0));
    for (int64_t k = 1; k <= steps + 1; k++) { /* k = steps + 1: the curve's end */
        double t = k <= steps ? t0 + (double)k * a->interval_s : t1;
        if (z.up + z.pn == 0 && next_req < t) { /* a request at zero replicas: one starts */
            want_push(&z, next_req, 1);
            launch_add(&z, next_req, 1, 1);
            change_push(&z, next_req, 1, 0);
        }
        next_req = INFINITY;
        if (k > steps)
            break;
        launches_ready(&z, t);
        int64_t d = wanted(ic, t, target);
        while (z.wn > 0 && z.win_t[z.wh % z.wc] <= t - a->window_s) /* out of the window */
            z.wh++, z.wn--;
        want_push(&z, t, d);
        int64_t keep = z.win_w[z.wh % z.wc];   /* the most asked for in the window */
        if (z.up == 0 && z.pn > 0 && keep < 1) /* requests may wait on the launch */
            keep = 1;
        for (; z.cn > 0 && z.chg[z.ch % z.cc].t <= t - a->up_period_s; z.ch++, z.cn--) {
            z.added -= z.chg[z.ch % z.cc].added;
            z.removed -= z.chg[z.ch % z.cc].removed;
        }
        int64_t was = z.up + z.pn, lim = up_limit(a, was, z.added, z.removed);
        if (d > was && lim > was) {
            launch_add(&z, t, (d < lim ? d : lim) - was, 0);
        } else if (keep < z.up + z.pn) {
            while (z.pn > 0 && z.up + z.pn > keep) {
                launch *l = &z.pend[z.ph + z.pg - 1];
                int64_t c = l->n < z.up + z.pn - keep ? l->n : z.up + z.pn - keep;
                l->n -= c;
                z.pn -= c;
                if (l->n == 0)
                    z.pg--;
            }
            if (z.up > keep)
                record(f, t, z.up = keep, &z.cap);
        }
        if (z.up + z.pn != was) /* this decision's change, for the periods it falls in */
            change_push(&z, t, z.up + z.pn > was ? z.up + z.pn - was : 0,
                        z.up + z.pn < was ? was - z.up - z.pn : 0);
        if (wake && z.up + z.pn == 0)
            next_req = first_after(ic, t, st_rng_exponential(wake, 1.0));
    }
    launches_ready(&z, t1);
    if (f->n_cold > 0 && f->cold[f->n_cold - 1].to == INFINITY && z.pg > 0) {
        /* a stretch its launch ends after the curve: its requests wait until then */
        f->cold[f->n_cold - 1].to = z.pend[z.ph].ready_s;
        f->cold[f->n_cold - 1].n = z.pend[z.ph].n;
    }
    st_rng_free(wake);
    free(z.pend);
    free(z.win_t);
    free(z.win_w);
    free(z.chg);
}

void st__serve_fleet_plan(const st_inference_cfg *ic, int64_t dp, double target,
                          const st_serve_cold *cold, st__serve_fleet *f)
{
    *f = (st__serve_fleet){.start_s = ic->load[0].at_s, .end_s = ic->load[ic->n_load - 1].at_s};
    size_t cap = 0;
    st_serve_cold stated = {
        .stated = 1, .init_s = ic->autoscale.delay_s, .total_s = ic->autoscale.delay_s};
    if (ic->autoscale.on)
        autoscale(ic, target, cold ? cold : &stated, f);
    else
        record(f, f->start_s, dp, &cap);
    f->zero_s = st__serve_fleet_zero_s(f, -INFINITY, f->end_s);
}

void st__serve_fleet_release(st__serve_fleet *f)
{
    free(f->t);
    free(f->n);
    free(f->cold);
}

/* Walks the pieces on which one replica's rate lambda(t) / n(t) is linear: between the
 * curve's points, the fleet's changes and its cold stretches' starts, from the curve's start to
 * its end. On a piece with no replica up the rate is lambda / (the replicas coming) in a cold
 * stretch, whose requests wait for them, and 0 outside one (reps 0). */
typedef struct walk {
    const st_inference_cfg *ic;
    const st__serve_fleet *f;
    int p;    /* the next curve point after a */
    size_t k; /* the fleet's entry in force on [a, b) */
    size_t c; /* the first cold stretch ending after a */
    double a, b;
    int64_t reps;                   /* replicas the piece's requests share */
    const st__serve_cold_run *cold; /* the cold stretch the piece lies in, or NULL */
} walk;

static int walk_next(walk *w)
{
    const st__serve_fleet *f = w->f;
    if (w->b >= f->end_s)
        return 0;
    w->a = w->b;
    while (w->p < w->ic->n_load && w->ic->load[w->p].at_s <= w->a)
        w->p++;
    while (w->k + 1 < f->len && f->t[w->k + 1] <= w->a)
        w->k++;
    while (w->c < f->n_cold && f->cold[w->c].to <= w->a)
        w->c++;
    double b = f->end_s;
    if (w->p < w->ic->n_load && w->ic->load[w->p].at_s < b)
        b = w->ic->load[w->p].at_s;
    if (w->k + 1 < f->len && f->t[w->k + 1] < b)
        b = f->t[w->k + 1];
    w->cold = NULL;
    if (w->c < f->n_cold) {
        const st__serve_cold_run *r = &f->cold[w->c];
        if (r->from > w->a && r->from < b)
            b = r->from;
        else if (r->from <= w->a)
            w->cold = r;
    }
    w->b = b;
    w->reps = f->n[w->k] > 0 ? f->n[w->k] : w->cold ? w->cold->n : 0;
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
        if (w.reps == 0)
            continue;
        double n = (double)w.reps;
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

/* Appends one arrival (at t, standing for w of the fleet's, reaching the engine at r). */
static void arrival_add(int64_t *n, int64_t *cap, double **t_out, int64_t **w_out, double **r_out,
                        double t, int64_t w, double r)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *t_out = st_xrealloc(*t_out, (size_t)*cap * sizeof **t_out);
        *w_out = st_xrealloc(*w_out, (size_t)*cap * sizeof **w_out);
        *r_out = st_xrealloc(*r_out, (size_t)*cap * sizeof **r_out);
    }
    (*t_out)[*n] = t;
    (*w_out)[*n] = w;
    (*r_out)[(*n)++] = r;
}

int64_t st__serve_fleet_arrivals(const st_inference_cfg *ic, const st__serve_fleet *f, st_rng *rng,
                                 double **arrival, int64_t **weight, double **ready)
{
    int64_t n = 0, cap = 0;
    double *t_out = NULL, *r_out = NULL;
    int64_t *w_out = NULL;
    double e = st_rng_exponential(rng, 1.0); /* the unit-rate time to the next arrival */
    for (walk w = walk_start(ic, f); walk_next(&w);) {
        if (w.reps == 0) /* none up, none coming: no request arrives (the first starts one) */
            continue;
        double reps = (double)w.reps, a = w.a, held = w.cold ? w.cold->to : -INFINITY;
        if (w.cold && w.cold->first && a == w.cold->from) { /* the request that started it */
            arrival_add(&n, &cap, &t_out, &w_out, &r_out, a, w.reps, held);
            e = st_rng_exponential(rng, 1.0);
        }
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
            arrival_add(&n, &cap, &t_out, &w_out, &r_out, a, w.reps, held > a ? held : a);
            e = st_rng_exponential(rng, 1.0);
        }
    }
    *arrival = t_out;
    *weight = w_out;
    *ready = r_out;
    return n;
}

/* ---- the replicas' stretches, for the cluster run ------------------------------------------- */

/* w's fleet at r's target rate into *f; 0 when its replicas are dp all along. */
static int fleet_of(const st_workload_cfg *w, const st_serve_result *r, st__serve_fleet *f)
{
    const st_inference_cfg *ic = &w->inference;
    if (ic->n_load == 0 || !ic->autoscale.on || !(r->scale_target_rate > 0))
        return 0;
    st__serve_fleet_plan(ic, st_serve_replicas(w), r->scale_target_rate, &r->cold, f);
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
        double reps = (double)w.reps;
        s->t[s->n] = w.a;
        s->c[s->n] = sum;
        s->mu_a[s->n] = reps > 0 ? st__serve_rate_at(ic, w.a) / reps : 0;
        s->mu_b[s->n] = reps > 0 ? st__serve_rate_at(ic, w.b) / reps : 0;
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
