/* An inference service (models/serve/serve.h): its replicas' request streams (all at once, a
 * Poisson rate, a trace, a load curve under its autoscaler), each replica run by the engine
 * (serve_engine.c), the latencies over every request, the highest rate within the targets, and
 * power and energy per token. docs/models/inference.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/plant/dvfs.h"
#include "models/plant/gpu_power.h"
#include "models/plant/plant.h"
#include "models/serve/serve_internal.h"
#include "models/silicon/ops.h"
#include "models/silicon/variability.h"
#include "sim/rng.h"
#include "sim/stats.h"
#include "sim/xalloc.h"

/* The per-replica iteration figures from o, the sums over `replicas` replicas' runs: their
 * iterations and preemptions per replica, and the batch and time of an iteration over them all. */
static void iteration_figures(st_serve_result *out, const st__serve_replica_out *o,
                              int64_t replicas)
{
    out->iterations = o->iterations / replicas;
    out->preemptions = o->preemptions / replicas;
    out->batch_mean = o->iterations ? (double)o->batch_sum / (double)o->iterations : 0;
    out->iteration_mean_s = o->iterations ? o->pass_s / (double)o->iterations : 0;
}

/* A latency standing for w requests of the service (the replicas alike, one simulated). */
typedef struct wv {
    double v;
    int64_t w;
} wv;

static int cmp_wv(const void *a, const void *b)
{
    double x = ((const wv *)a)->v, y = ((const wv *)b)->v;
    return (x > y) - (x < y);
}

/* The value of 0-based rank r among x[0..n) sorted, each x[i] w times: never materialising the
 * copies (a day of a large fleet is hundreds of millions of requests). */
static double rank_value(const wv *x, int64_t n, int64_t r)
{
    for (int64_t i = 0; i < n - 1; i++) {
        if (r < x[i].w)
            return x[i].v;
        r -= x[i].w;
    }
    return x[n - 1].v;
}

/* Quantile f of the copies as GSL's gsl_stats_quantile_from_sorted_data takes it of the whole
 * sorted set (numpy's default): at index f (N - 1), interpolated linearly between its
 * neighbours (st_lerp, so the percentiles are ordered as their fractions). */
static double quantile(const wv *x, int64_t n, int64_t total, double f)
{
    double index = f * (double)(total - 1);
    int64_t lhs = (int64_t)index;
    double delta = index - (double)lhs;
    if (lhs >= total - 1)
        return rank_value(x, n, total - 1);
    return st_lerp(rank_value(x, n, lhs), rank_value(x, n, lhs + 1), delta);
}

static st_serve_pct pct_of(wv *x, int64_t n)
{
    st_serve_pct p = {0};
    int64_t total = 0;
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
        total += x[i].w;
        sum += x[i].v * (double)x[i].w;
    }
    if (total <= 0)
        return p;
    p.mean = sum / (double)total;
    qsort(x, (size_t)n, sizeof *x, cmp_wv);
    p.p50 = quantile(x, n, total, 0.50);
    p.p90 = quantile(x, n, total, 0.90);
    p.p99 = quantile(x, n, total, 0.99);
    return p;
}

/* The service's requests gathered from its simulated replicas: each request i of a replica
 * (of len_out[i] output tokens) standing for `copies` (or weight[i]) of the service's. */
typedef struct gather {
    wv *ttft, *tpot;
    int64_t n_ttft, n_tpot;
    int64_t requests, met;
    double tokens;
} gather;

static void gather_add(gather *g, const st__serve_replica_out *o, const int64_t *len_out,
                       const int64_t *weight, int64_t copies)
{
    g->ttft = st_xrealloc(g->ttft, (size_t)(g->n_ttft + o->n) * sizeof *g->ttft);
    g->tpot = st_xrealloc(g->tpot, (size_t)(g->n_tpot + o->n) * sizeof *g->tpot);
    for (int64_t i = 0; i < o->n; i++) {
        int64_t w = weight ? weight[i] : copies;
        if (w <= 0)
            continue;
        g->ttft[g->n_ttft++] = (wv){o->ttft[i], w};
        if (o->tpot[i] >= 0)
            g->tpot[g->n_tpot++] = (wv){o->tpot[i], w};
        g->requests += w;
        g->met += o->ok[i] ? w : 0;
        g->tokens += (double)w * (double)len_out[i];
    }
}

/* The latency percentiles, counts and SLO attainment into out; frees g's arrays. */
static void gather_finish(gather *g, st_serve_result *out)
{
    out->ttft_s = pct_of(g->ttft, g->n_ttft);
    out->tpot_s = pct_of(g->tpot, g->n_tpot);
    out->requests = g->requests;
    out->slo_attainment = g->requests > 0 ? (double)g->met / (double)g->requests : 0;
    free(g->ttft);
    free(g->tpot);
}

/* The service's span, its rates over it, and gather_finish's figures into out. */
static void gather_span(gather *g, double span_s, st_serve_result *out)
{
    out->span_s = span_s;
    out->requests_per_s = span_s > 0 ? (double)g->requests / span_s : 0;
    out->tokens_per_s = span_s > 0 ? g->tokens / span_s : 0;
    gather_finish(g, out);
}

/* ---- the service: replicas, request streams, the latency target ------------------------------ */

int64_t st_serve_replica_gpus(const st_workload_cfg *w)
{
    return (w->parallel.tp > 1 ? w->parallel.tp : 1) * (w->parallel.pp > 1 ? w->parallel.pp : 1);
}

/* The GPU a replica's kernels are timed on, as a training step's (models/step/step.c,
 * make_plan): at the clock the DVFS model gives a power limit (models/plant/dvfs.h; the compute
 * phases draw its power: *clock), at the pace of the slowest of its GPUs where their speeds
 * vary (cluster.variability; its tp x pp GPUs wait for it every iteration), and at the
 * cluster's own fitted throughput (cluster.calibration). Compute-bound kernels slow by the
 * clock; memory-bound ones and the collectives do not. */
static st_gpu_spec replica_gpu(const st_cluster_cfg *c, const st_workload_cfg *w, double *clock)
{
    *clock = st_plant_power_clock(c->gpu);
    double straggle = st_straggler_factor(c->variability.gpu_speed_cv, st_serve_replica_gpus(w));
    return st_gpu_at(c->gpu, *clock, straggle, &c->calib);
}

int64_t st_serve_replicas(const st_workload_cfg *w)
{
    return w->parallel.dp > 1 ? w->parallel.dp : 1;
}

/* Replica a's mean iteration as a step of the plant (models/plant/gpu_power.h), and one GPU's
 * mean board power and the energy per output token from it: its kernels at the compute power,
 * its all-reduces at the communication power, the time between iterations idle; the energy at
 * the wall adds the GPUs' share of their nodes' base power (CPUs, NICs, fans) and divides by
 * the power supplies' efficiency (docs/models/plant.md; the facility's cooling and conversion,
 * its PUE, are the plant run's). */
static void power_of(const st__serve_service *s, const st__serve_replica_out *a,
                     st_serve_result *out)
{
    double span = a->span_s, n = (double)(a->iterations > 0 ? a->iterations : 1);
    if (!(span > 0))
        return;
    st_step_result *c = &out->cycle;
    *c = (st_step_result){0}; /* out may be a search's scratch: every other part is 0 */
    c->step_time_s = span / n;
    c->b.compute_s = (a->busy_s - a->comm_s) / n;
    c->b.tp_comm_s = a->comm_s / n;
    c->b.bubble_s = span - a->busy_s > 0 ? (span - a->busy_s) / n : 0;
    st_plant_profile p;
    if (st_plant_profile_clocked(c, s->c->gpu, s->clock, &p) != 0)
        return;
    out->gpu_mean_w = p.energy_j / p.period_s;
    double g = (double)st_serve_replica_gpus(s->w);
    double gpn = (double)(s->c->gpus_per_node > 0 ? s->c->gpus_per_node : 1);
    double wall = (g * out->gpu_mean_w + g / gpn * s->c->node.base_power_w) * span /
                  st_plant_preset_get()->psu_efficiency;
    out->energy_per_token_j = a->tokens > 0 ? wall / a->tokens : 0;
}

/* A trace's requests, each sent to the replica s->route names, every replica simulated: at the
 * trace's own times when rate is its mean rate, its times scaled by (its rate / rate) at another
 * (the SLO's search), all at once at 0. The per-replica figures are the replicas' mean. */
static void measure_trace(st__serve_service *s, double rate, st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    int64_t n = ic->n_trace, dp = s->dp;
    double k = rate > 0 && ic->rate > 0 ? ic->rate / rate : 0;
    int64_t *at = st_xcalloc((size_t)dp + 1, sizeof *at); /* each replica's first row */
    for (int64_t i = 0; i < n; i++)
        at[s->route[i] + 1]++;
    for (int64_t r = 0; r < dp; r++)
        at[r + 1] += at[r];
    double *arr = st_xmalloc((size_t)n * sizeof *arr);
    int64_t *in = st_xmalloc((size_t)n * sizeof *in), *len = st_xmalloc((size_t)n * sizeof *len);
    int64_t *fill = st_xmalloc((size_t)dp * sizeof *fill);
    memcpy(fill, at, (size_t)dp * sizeof *fill);
    for (int64_t i = 0; i < n; i++) { /* in arrival order within each replica */
        int64_t j = fill[s->route[i]]++;
        arr[j] = ic->trace[i].arrival_s * k;
        in[j] = ic->trace[i].in;
        len[j] = ic->trace[i].out;
    }
    gather g = {0};
    st__serve_replica_out sum = {0};
    double end = 0;
    for (int64_t r = 0; r < dp; r++) {
        int64_t m = at[r + 1] - at[r];
        if (m == 0)
            continue;
        st__serve_replica_out o;
        st__serve_stream str = {arr + at[r], in + at[r], len + at[r], m, 0, NULL, NULL};
        st__serve_replica(&s->cost, ic, &s->mem, &str, &o);
        gather_add(&g, &o, len + at[r], NULL, 1);
        end = o.first_s + o.span_s > end ? o.first_s + o.span_s : end;
        sum.busy_s += o.busy_s;
        sum.pass_s += o.pass_s;
        sum.comm_s += o.comm_s;
        sum.tokens += o.tokens;
        sum.iterations += o.iterations;
        sum.preemptions += o.preemptions;
        sum.batch_sum += o.batch_sum;
        st__serve_replica_release(&o);
    }
    gather_span(&g, end, out);
    out->replicas_mean = (double)dp;
    out->replicas_peak = dp;
    iteration_figures(out, &sum, dp);
    st__serve_replica_out mean = {.span_s = end,
                                  .busy_s = sum.busy_s / (double)dp,
                                  .comm_s = sum.comm_s / (double)dp,
                                  .tokens = sum.tokens / (double)dp,
                                  .iterations = (sum.iterations + dp - 1) / dp};
    power_of(s, &mean, out);
    free(at);
    free(fill);
    free(arr);
    free(in);
    free(len);
}

/* The service's figures for its count of requests (s->count), all at once (rate 0) or as a Poisson
 * stream of `rate` per second over all replicas. Requests go to replicas at random (a load balancer
 * without state), so each replica sees a Poisson stream of rate / dp: identical replicas, of
 * which one is simulated. All at once, count / dp each, the remainder one more on some: the
 * two kinds of replica are simulated, and the latencies are those of every request. */
void st__serve_measure(st__serve_service *s, double rate, st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    if (ic->mode == ST_REQ_TRACE) {
        measure_trace(s, rate, out);
        return;
    }
    int64_t N = s->count, dp = s->dp, nA = s->per_replica, nB = N / dp, kA = N % dp;
    if (kA == 0)
        kA = dp; /* every replica has nA = nB */
    double *arr = st_xcalloc((size_t)nA, sizeof *arr);
    for (int64_t i = 0; rate > 0 && i < nA; i++)
        arr[i] = (i ? arr[i - 1] : 0) + s->gaps[i] * (double)dp / rate;
    st__serve_replica_out a, b = {0};
    st__serve_stream sa = {arr, s->len_in, s->len_out, nA, 0, NULL, NULL}, sb = sa;
    st__serve_replica(&s->cost, ic, &s->mem, &sa, &a);
    int two = rate <= 0 && kA < dp && nB > 0;
    sb.n = nB;
    if (two)
        st__serve_replica(&s->cost, ic, &s->mem, &sb, &b);
    int64_t reps_b = two ? dp - kA : 0, reps_a = rate > 0 ? dp : kA;
    gather g = {0};
    gather_add(&g, &a, s->len_out, NULL, reps_a);
    if (two)
        gather_add(&g, &b, s->len_out, NULL, reps_b);
    double span = a.span_s > b.span_s ? a.span_s : b.span_s;
    gather_span(&g, span, out);
    out->replicas_mean = (double)dp;
    out->replicas_peak = dp;
    iteration_figures(out, &a, 1);
    power_of(s, &a, out);
    free(arr);
    st__serve_replica_release(&a);
    st__serve_replica_release(&b);
}

/* The first `count` requests' lengths, uniform between the stream's shortest and longest
 * (vLLM's random dataset), from their own stream (kind "inference", the workload, purpose
 * "lengths"), so the arrivals' draws do not move with them; a fixed length draws nothing. */
static void draw_lengths(st__serve_service *s, int64_t count, uint64_t seed, uint64_t id)
{
    const st_inference_cfg *ic = &s->w->inference;
    size_t n = (size_t)count;
    s->len_in = st_xmalloc(n * sizeof *s->len_in);
    s->len_out = st_xmalloc(n * sizeof *s->len_out);
    int64_t lo_i = st_req_len_lo(ic->input_tokens, ic->input_range),
            hi_i = st_req_len_hi(ic->input_tokens, ic->input_range);
    int64_t lo_o = st_req_len_lo(ic->output_tokens, ic->output_range),
            hi_o = st_req_len_hi(ic->output_tokens, ic->output_range);
    st_rng *r = ic->input_range > 0 || ic->output_range > 0
                    ? st_rng_new(seed, st_rng_tag("inference"), id, st_rng_tag("lengths"))
                    : NULL;
    for (size_t i = 0; i < n; i++) {
        s->len_in[i] = ic->input_range > 0
                           ? lo_i + (int64_t)st_rng_uniform_int(r, (uint32_t)(hi_i - lo_i + 1))
                           : ic->input_tokens;
        s->len_out[i] = ic->output_range > 0
                            ? lo_o + (int64_t)st_rng_uniform_int(r, (uint32_t)(hi_o - lo_o + 1))
                            : ic->output_tokens;
    }
    st_rng_free(r);
}

/* The first n requests' arrival gaps and lengths (a longer draw of the same streams keeps the
 * first n as they were). */
void st__serve_draw_stream(st__serve_service *s, int64_t n, uint64_t seed, uint64_t id)
{
    free(s->gaps);
    free(s->len_in);
    free(s->len_out);
    s->drawn = n;
    s->gaps = st_xmalloc((size_t)n * sizeof *s->gaps);
    st_rng *rng = st_rng_new(seed, st_rng_tag("inference"), id, st_rng_tag("arrival"));
    for (int64_t i = 0; i < n; i++)
        s->gaps[i] = st_rng_exponential(rng, 1.0);
    st_rng_free(rng);
    draw_lengths(s, n, seed, id);
}

int st_serve_meets(const st_inference_cfg *ic, const st_serve_result *r)
{
    return (!(ic->slo_ttft_s > 0) || r->ttft_s.p99 <= ic->slo_ttft_s) &&
           (!(ic->slo_tpot_s > 0) || r->tpot_s.p99 <= ic->slo_tpot_s);
}

/* The service's rate (and output tokens) within the targets: its dp replicas' capacity, dp
 * times one's (`one`, st__serve_replica_capacity's). */
static void times_replicas(const st_serve_result *one, int64_t dp, st_serve_result *out)
{
    out->max_rate_under_slo = one->max_rate_under_slo * (double)dp;
    out->max_tokens_per_s_under_slo = one->max_tokens_per_s_under_slo * (double)dp;
}

/* The replicas a capped stream's `c` clients hold: each client keeps to one
 * replica, as a balancer that sends each request to the replica with the fewest in flight
 * keeps them (a completion frees a place on the replica the next request then goes to), so
 * min(dp, concurrency) replicas serve; all dp without a cap. */
int64_t st__serve_capped_replicas(const st__serve_service *s, int64_t c)
{
    return c > 0 && c < s->dp ? c : s->dp;
}

/* The service's figures for a stream held to `concurrency` requests in flight: a closed loop of
 * that many clients, or a Poisson stream so capped (its rate split over the replicas that
 * serve). The clients and the requests split over the serving replicas as evenly as they go
 * (replica r of h: C / h clients and N / h requests, one more of each while r is below the
 * remainder), each kind of replica simulated once; the iteration and power figures are the
 * first replica's, which has the most of both. */
void st__serve_measure_capped(st__serve_service *s, int64_t C, int64_t N, st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    int64_t h = st__serve_capped_replicas(s, C);
    double rate = ic->mode == ST_REQ_POISSON ? ic->rate : 0;
    double *arr = st_xcalloc((size_t)s->drawn, sizeof *arr);
    for (int64_t i = 0; rate > 0 && i < s->drawn; i++)
        arr[i] = (i ? arr[i - 1] : 0) + s->gaps[i] * (double)h / rate;
    gather g = {0};
    st__serve_replica_out first = {0};
    double span = 0;
    for (int64_t r = 0, k; r < h; r = k) {
        int64_t c = C / h + (r < C % h), m = N / h + (r < N % h);
        for (k = r + 1; k < h && C / h + (k < C % h) == c && N / h + (k < N % h) == m;)
            k++; /* replicas r .. k - 1 alike */
        if (m == 0)
            continue;
        st__serve_stream in = {
            arr, s->len_in, s->len_out, m, c, NULL, ic->mode == ST_REQ_CLOSED ? s->gaps : NULL};
        st__serve_replica_out o;
        st__serve_replica(&s->cost, ic, &s->mem, &in, &o);
        gather_add(&g, &o, s->len_out, NULL, k - r);
        span = o.span_s > span ? o.span_s : span;
        if (r == 0)
            first = o;
        else
            st__serve_replica_release(&o);
    }
    gather_span(&g, span, out);
    out->replicas_mean = (double)s->dp;
    out->replicas_peak = s->dp;
    iteration_figures(out, &first, 1);
    power_of(s, &first, out);
    free(arr);
    st__serve_replica_release(&first);
}

/* A steady stream: `count` requests all at once, at one Poisson rate, or held to a concurrency
 * (st__serve_measure_capped); the replicas' capacity within the latency target either way. */
static void serve_steady(st__serve_service *s, uint64_t seed, uint64_t id, st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    if (ic->mode == ST_REQ_TRACE) { /* a load balancer without state: each row to a replica at
                                       random, from the stream (inference, id, route) */
        st_rng *rng = st_rng_new(seed, st_rng_tag("inference"), id, st_rng_tag("route"));
        s->route = st_xmalloc((size_t)ic->n_trace * sizeof *s->route);
        for (int64_t i = 0; i < ic->n_trace; i++)
            s->route[i] = s->dp > 1 ? (int64_t)st_rng_uniform_int(rng, (uint32_t)s->dp) : 0;
        st_rng_free(rng);
    } else {
        s->count = ic->count;
        s->per_replica = (ic->count + s->dp - 1) / s->dp;
        int64_t held = st__serve_capped_replicas(s, ic->concurrency);
        /* the first per_replica as without a cap */
        st__serve_draw_stream(s, (ic->count + held - 1) / held, seed, id);
    }
    if (ic->concurrency > 0)
        st__serve_measure_capped(s, ic->concurrency, ic->count, out);
    else
        st__serve_measure(s, ic->mode != ST_REQ_OFFLINE ? ic->rate : 0, out);
    if (out->has_slo) {
        out->slo_met = st_serve_meets(ic, out);
        st_serve_result one;
        st__serve_replica_capacity(s, seed, id, &one);
        times_replicas(&one, s->dp, out);
        if (ic->mode == ST_REQ_CLOSED)
            out->max_concurrency_under_slo = s->dp * st__serve_replica_clients(s, seed, id);
    }
}

/* A replica simulates at most this many requests, and requests times their tokens: about a
 * gigabyte and two minutes of CPU (scenarios/load_inference_rules.c checks a steady stream's). */
#define MAX_REPLICA_REQUESTS 1e7
#define MAX_REPLICA_TOKENS   1e10

/* The autoscaled fleet at ST_SERVE_TIMELINE instants evenly over the curve, for the report's
 * chart: the replicas up (one walk along the fleet's changes) and those the load asks for. */
static void timeline(const st_inference_cfg *ic, const st__serve_fleet *f, double target,
                     st_serve_result *out)
{
    double span = f->end_s - f->start_s;
    size_t k = 0;
    for (int i = 0; i < ST_SERVE_TIMELINE; i++) {
        double t = f->start_s + span * (double)i / (ST_SERVE_TIMELINE - 1);
        while (k + 1 < f->len && f->t[k + 1] <= t)
            k++;
        out->timeline[i] =
            (st_serve_point){t - f->start_s, (double)f->n[k], st__serve_rate_at(ic, t) / target};
    }
    out->n_timeline = ST_SERVE_TIMELINE;
}

/* A replica's start under w's autoscaler (st_serve_cold): its stated delay, or its parts: the
 * preset's engine steps (models/config/config.c, st_inference_preset_default) and its weights
 * read from the tier, one replica's (the GPU's share times its GPUs) at the tier's read
 * bandwidth plus its latency; a local-nvme tier's figures are a node's, and the replica's nodes
 * read their shares at once. */
static st_serve_cold cold_of(const st__serve_service *s, uint64_t seed, uint64_t id)
{
    const st_autoscale_cfg *a = &s->w->inference.autoscale;
    const st_inference_preset *pre = &st_inference_preset_default;
    double g = (double)st_serve_replica_gpus(s->w);
    st_serve_cold c = {.seed = seed, .id = id, .weight_bytes = s->mem.weights * g};
    if (a->delay_set || a->weights_tier < 0 || a->weights_tier >= s->c->n_tiers) {
        c.stated = 1;
        c.init_s = c.total_s = a->delay_s;
        return c;
    }
    const st_tier_cfg *t = &s->c->tiers[a->weights_tier];
    double bw = t->read_bw;
    c.tier = t->name;
    c.shared = t->kind != ST_TIER_LOCAL_NVME;
    if (!c.shared) {
        double gpn = (double)(s->c->gpus_per_node > 0 ? s->c->gpus_per_node : 1);
        bw *= ceil(g / gpn);
    }
    c.load_s = c.weight_bytes / bw + t->latency_s;
    c.init_s = pre->cold_init_s;
    c.compile_s = pre->cold_compile_s;
    c.graph_s = pre->cold_graph_s;
    c.warm_s = c.compile_s + c.graph_s;
    c.total_s = c.init_s + c.load_s + c.warm_s;
    return c;
}

/* A load curve: the replicas its autoscaler keeps up (or dp all along), one of them simulated
 * over the span with its share of the rate, each of its requests weighed by the replicas up
 * when it arrives (serve_load.c); one's capacity within the targets (st__serve_replica_capacity),
 * times dp, the service's. */
static int serve_curve(st__serve_service *s, uint64_t seed, uint64_t id, st_serve_result *out,
                       st_err *err)
{
    const st_inference_cfg *ic = &s->w->inference;
    st_serve_result one = {0};
    const st_autoscale_cfg *as = &ic->autoscale;
    if (out->has_slo || (as->on && !(as->target_rate > 0)))
        st__serve_replica_capacity(s, seed, id, &one);
    double target = as->target_rate > 0
                        ? as->target_rate
                        : st_inference_preset_default.scale_utilization * one.max_rate_under_slo;
    if (as->on && !(target > 0))
        return st_err_set(err, ST_EINVAL, as->loc,
                          "workload '%s': one replica misses the slo even at a trickle of "
                          "requests, so the autoscaler has no rate to scale at: state "
                          "autoscale.target_rate, or loosen the slo",
                          s->w->name);
    out->scale_target_rate = as->on ? target : 0;
    if (as->on)
        out->cold = cold_of(s, seed, id);
    st__serve_fleet f;
    st__serve_fleet_plan(ic, s->dp, target, &out->cold, &f);
    for (size_t k = 0; k < f.n_cold; k++)
        if (f.cold[k].from < f.end_s) {
            out->cold_starts++;
            out->cold_start_total_s += f.cold[k].to - f.cold[k].from;
        }
    out->gpu_hours_saved = (double)st_serve_replica_gpus(s->w) * f.zero_s / 3600;
    if (as->on)
        timeline(ic, &f, target, out);
    double expect = st__serve_fleet_per_replica(ic, &f);
    double tokens = (double)st_req_longest(ic);
    if (expect > MAX_REPLICA_REQUESTS || expect * tokens > MAX_REPLICA_TOKENS) {
        st__serve_fleet_release(&f);
        return st_err_set(err, ST_EINVAL, ic->requests_loc,
                          "workload '%s': each replica would serve about %.4g requests of up to "
                          "%.0f tokens over the load curve; the serving model simulates at most "
                          "1e7 requests and 1e10 tokens per replica (a shorter curve, or more "
                          "replicas)",
                          s->w->name, expect, tokens);
    }
    double *arr = NULL, *ready = NULL;
    int64_t *weight = NULL;
    st_rng *rng = st_rng_new(seed, st_rng_tag("inference"), id, st_rng_tag("arrival"));
    int64_t n = st__serve_fleet_arrivals(ic, &f, rng, &arr, &weight, &ready);
    st_rng_free(rng);
    s->per_replica = n;
    draw_lengths(s, n, seed, id);
    st__serve_replica_out a;
    st__serve_stream str = {arr, s->len_in, s->len_out, n, 0, ready, NULL};
    st__serve_replica(&s->cost, ic, &s->mem, &str, &a);
    gather g = {0};
    gather_add(&g, &a, s->len_out, weight, 1);
    double end = n > 0 ? a.first_s + a.span_s : f.end_s;
    end = end > f.end_s ? end : f.end_s;
    double span = end - f.start_s, rs = st__serve_fleet_replica_s(&f, end);
    gather_span(&g, span, out);
    out->replicas_mean = span > 0 ? rs / span : (double)f.n[0];
    for (size_t k = 0; k < f.len; k++)
        out->replicas_peak = f.n[k] > out->replicas_peak ? f.n[k] : out->replicas_peak;
    iteration_figures(out, &a, 1);
    /* a running replica's power: over the time it is up (or starting), not the stretches at
     * zero replicas between its requests, when its GPUs are given back (held() in
     * models/forecast/run_serve.c weighs the placed GPUs' time up and idle) */
    st__serve_replica_out up = a;
    up.span_s -= st__serve_fleet_zero_s(&f, a.first_s, a.first_s + a.span_s);
    power_of(s, &up, out);
    if (out->has_slo) {
        out->slo_met = st_serve_meets(ic, out);
        times_replicas(&one, s->dp, out);
    }
    st__serve_replica_release(&a);
    free(arr);
    free(ready);
    free(weight);
    st__serve_fleet_release(&f);
    return 0;
}

/* Service w on c's GPU type, its replicas' collectives on x: its replicas' GPU, memory and
 * cost tables into *s (close with st__serve_service_close), or an error located at w where the KV
 * cache cannot hold its longest request (s then needs no closing). */
int st__serve_service_open(st__serve_service *s, st_step_ctx *x, const st_workload_cfg *w,
                           const st_cluster_cfg *c, st_err *err)
{
    const st_inference_cfg *ic = &w->inference;
    *s = (st__serve_service){.w = w, .c = c, .dp = st_serve_replicas(w)};
    s->gpu = replica_gpu(c, w, &s->clock);
    st_serve_memory_of(w, c->gpu, &s->mem);
    int64_t longest = st_req_longest(ic);
    int64_t need = st_serve_blocks_longest(&s->mem, longest, ic->max_batch_tokens);
    char split[64] = " (its trace's)";
    if (ic->mode != ST_REQ_TRACE)
        snprintf(split, sizeof split, " (input %lld + output %lld)",
                 (long long)st_req_len_hi(ic->input_tokens, ic->input_range),
                 (long long)st_req_len_hi(ic->output_tokens, ic->output_range));
    if (s->mem.blocks < need)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "workload '%s': the KV cache holds %lld tokens per replica, but its "
                          "longest request needs %lld%s: of each GPU's %.4g GB usable, weights "
                          "take %.4g GB, activations %.4g GB and reserved %.4g GB",
                          w->name, (long long)st_serve_kv_tokens(&s->mem), (long long)longest,
                          split, s->mem.usable / 1e9, s->mem.weights / 1e9,
                          s->mem.activations / 1e9, s->mem.reserved / 1e9);
    int64_t domain = c->nvlink_domain > c->gpus_per_node ? c->nvlink_domain : c->gpus_per_node;
    st__serve_cost_init(&s->cost, w, &s->gpu, domain, x);
    return 0;
}

void st__serve_service_close(st__serve_service *s)
{
    st__serve_cost_release(&s->cost);
    free(s->gaps);
    free(s->len_in);
    free(s->len_out);
    free(s->route);
}

int st_serve_run(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c, uint64_t seed,
                 uint64_t id, st_serve_result *out, st_err *err)
{
    const st_inference_cfg *ic = &w->inference;
    memset(out, 0, sizeof *out);
    st__serve_service s;
    int rc = st__serve_service_open(&s, x, w, c, err);
    out->mem = s.mem;
    if (rc)
        return rc;
    out->has_slo = ic->slo_ttft_s > 0 || ic->slo_tpot_s > 0;
    if (ic->n_load > 0)
        rc = serve_curve(&s, seed, id, out, err);
    else
        serve_steady(&s, seed, id, out);
    out->mem = s.mem;
    out->kv_cache_bytes = s.mem.kv_replica;
    out->kv_cache_tokens = st_serve_kv_tokens(&s.mem);
    out->gpu_hours = (double)st_serve_replica_gpus(w) * out->replicas_mean * out->span_s / 3600;
    st__serve_service_close(&s);
    return rc;
}
