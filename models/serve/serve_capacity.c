/* A replica's capacity within the latency targets (models/serve/serve.h): the highest Poisson
 * rate (st_serve_capacity) and the most clients of a closed loop (st_serve_clients), each searched
 * over one replica of the service serve.c measures. docs/models/inference.md. */
#include <math.h>
#include <stdlib.h>

#include "models/serve/serve_internal.h"
#include "sim/xalloc.h"

/* Bisections of the rate between what meets the target and what does not; the answer is the
 * highest rate found to meet it, to 1 part in 2^SLO_STEPS of the offline rate. */
#define SLO_STEPS 12

/* The highest Poisson rate at which the p99s meet the target, at most the rate the replicas
 * complete the same requests at when all arrive at once (offline_rps: their capacity). A
 * target the service misses even at 1 / 2^SLO_STEPS of that gives 0. */
static void search_slo(st__serve_service *s, double offline_rps, st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    st_serve_result r = {0};
    double lo = offline_rps / (double)(1 << SLO_STEPS), hi = offline_rps;
    st__serve_measure(s, hi, &r);
    if (st_serve_meets(ic, &r)) {
        out->max_rate_under_slo = hi;
        out->max_tokens_per_s_under_slo = r.tokens_per_s;
        return;
    }
    st__serve_measure(s, lo, &r);
    if (!st_serve_meets(ic, &r))
        return; /* 0: not even at a trickle */
    double best_tps = r.tokens_per_s;
    for (int i = 0; i < SLO_STEPS; i++) {
        double mid = 0.5 * (lo + hi);
        st__serve_measure(s, mid, &r);
        if (st_serve_meets(ic, &r)) {
            lo = mid;
            best_tps = r.tokens_per_s;
        } else {
            hi = mid;
        }
    }
    out->max_rate_under_slo = lo;
    out->max_tokens_per_s_under_slo = best_tps;
}

/* One replica's capacity within the targets (docs/models/inference.md, "A replica's capacity"):
 * search_slo over one replica alone, serving the first ST_SERVE_CAPACITY_REQUESTS requests of
 * the workload's streams (seed, id) (a trace: all its rows, at its shape), between 1 / 2^SLO_STEPS
 * of and the rate it completes them all at once. Neither the replicas (dp) nor the stream's own
 * count enter: what `strata run` multiplies by dp and `strata size` divides the rate by. Shares
 * s's cost tables (filled per token count, the same whoever fills them) and draws its own
 * requests, leaving s's. */
void st__serve_replica_capacity(const st__serve_service *s, uint64_t seed, uint64_t id,
                                st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    st__serve_service one = *s;
    one.dp = 1;
    one.drawn = 0;
    one.gaps = NULL;
    one.len_in = one.len_out = one.route = NULL;
    if (ic->mode == ST_REQ_TRACE) {
        one.route = st_xcalloc((size_t)ic->n_trace, sizeof *one.route); /* every row to it */
    } else {
        one.count = one.per_replica = ST_SERVE_CAPACITY_REQUESTS;
        st__serve_draw_stream(&one, one.count, seed, id);
    }
    st_serve_result off = {0};
    *out = (st_serve_result){0};
    st__serve_measure(&one, 0, &off);
    search_slo(&one, off.requests_per_s, out);
    free(one.gaps);
    free(one.len_in);
    free(one.len_out);
    free(one.route);
}

/* A closed loop of c clients as the stated one scaled: each client sends count / concurrency
 * requests (the stated loop's share, at least one request in all), so the loop's start, every
 * client at once, is the same share of its requests whatever c. Draws more of the streams
 * where the busiest replica needs them. */
static void measure_clients(st__serve_service *s, int64_t c, uint64_t seed, uint64_t id,
                            st_serve_result *out)
{
    const st_inference_cfg *ic = &s->w->inference;
    double share = (double)ic->count / (double)ic->concurrency;
    int64_t n = (int64_t)ceil(share * (double)c - 1e-9);
    n = n > 1 ? n : 1;
    int64_t h = st__serve_capped_replicas(s, c), busiest = (n + h - 1) / h;
    if (busiest > s->drawn)
        st__serve_draw_stream(s, busiest, seed, id);
    *out = (st_serve_result){0};
    st__serve_measure_capped(s, c, n, out);
}

/* One replica's client capacity within the targets (docs/models/inference.md, "A replica's
 * clients"): the most clients of a closed loop on one replica alone, scaled as measure_clients
 * does (each client the stated loop's count / concurrency requests, the first of the
 * workload's streams (seed, id), as st__serve_replica_capacity's are), whose p99s meet the target,
 * up to the engine's batch limit (max_seqs: more clients only queue inside it, its batch and time
 * per token unchanged). The search starts at the stated concurrency (the limit, if that is past
 * it): a loop that meets the target doubles its clients until one does not or the limit is
 * reached, one that misses bisects down to one client, the least latency a client can see: a
 * target missed there gives 0. The latencies grow with the clients, as the batch and the queue
 * do, so the answer is one interval's edge. Neither the replicas (dp) nor the stated loop's
 * verdict over them enter: what `strata run` multiplies by dp and `strata size` divides the
 * clients by. Shares s's cost tables and draws its own requests, leaving s's. */
int64_t st__serve_replica_clients(const st__serve_service *s, uint64_t seed, uint64_t id)
{
    const st_inference_cfg *ic = &s->w->inference;
    st__serve_service one = *s;
    one.dp = 1;
    one.drawn = 0;
    one.gaps = NULL;
    one.len_in = one.len_out = one.route = NULL;
    int64_t cap = ic->max_seqs, C = ic->concurrency < cap ? ic->concurrency : cap, lo, hi;
    st_serve_result r;
    measure_clients(&one, C, seed, id, &r);
    if (st_serve_meets(ic, &r)) { /* C meets: find one that does not */
        for (lo = C, hi = C; hi < cap; lo = hi) {
            hi = 2 * hi < cap ? 2 * hi : cap;
            measure_clients(&one, hi, seed, id, &r);
            if (!st_serve_meets(ic, &r))
                break;
        }
        if (lo == hi)
            lo = cap; /* the limit meets it */
    } else {
        lo = 1;
        hi = C;
        if (lo < hi)
            measure_clients(&one, lo, seed, id, &r);
        if (lo == hi || !st_serve_meets(ic, &r))
            lo = hi = 0; /* not even one client */
    }
    while (hi - lo > 1) { /* lo meets, hi does not */
        int64_t mid = lo + (hi - lo) / 2;
        measure_clients(&one, mid, seed, id, &r);
        *(st_serve_meets(ic, &r) ? &lo : &hi) = mid;
    }
    free(one.gaps);
    free(one.len_in);
    free(one.len_out);
    return lo;
}

int st_serve_capacity(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                      uint64_t seed, uint64_t id, st_serve_capacity_result *out, st_err *err)
{
    *out = (st_serve_capacity_result){0};
    st__serve_service s;
    int rc = st__serve_service_open(&s, x, w, c, err);
    if (rc)
        return rc;
    st_serve_result one;
    st__serve_replica_capacity(&s, seed, id, &one);
    out->rate_per_s = one.max_rate_under_slo;
    out->tokens_per_s = one.max_tokens_per_s_under_slo;
    st__serve_service_close(&s);
    return 0;
}

int st_serve_clients(st_step_ctx *x, const st_workload_cfg *w, const st_cluster_cfg *c,
                     uint64_t seed, uint64_t id, int64_t *out, st_err *err)
{
    *out = 0;
    st__serve_service s;
    int rc = st__serve_service_open(&s, x, w, c, err);
    if (rc)
        return rc;
    *out = st__serve_replica_clients(&s, seed, id);
    st__serve_service_close(&s);
    return 0;
}
