/* Sizing a service (planner/size_serve.h): one replica per GPU type and tensor-parallel degree
 * (and, for a mixture of experts, one group per expert-parallel degree) simulated at the rates
 * the latency targets allow, then as many as the workload's rate needs. */
#include "planner/size_serve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost/cost.h"
#include "models/serve/serve.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "planner/size_platform.h"
#include "scenarios/scenario.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

static const char kv_short[] = "its KV cache cannot hold one request";
/* The loader's rule (scenarios/load_workload.c, check_fp4) for a type the search swaps in. */
static const char no_fp4[] = "precision: fp4 needs FP4 Tensor Cores, which this GPU lacks";
static const char no_fp4_experts[] =
    "expert_precision: fp4 needs FP4 Tensor Cores, which this GPU lacks";
static const char no_fp8_experts[] =
    "expert_precision: fp8 needs FP8 Tensor Cores, which this GPU lacks";

/* Why w cannot run on GPU type g at its stated precisions (the loader's rules, for every type
 * the search tries), or NULL. */
static const char *precision_missing(const st_workload_cfg *w, const st_gpu_spec *g)
{
    if (w->precision == ST_PREC_FP4 && !st_gpu_has_precision(g, ST_PREC_FP4))
        return no_fp4;
    if (!w->expert_precision_given || st_gpu_has_precision(g, w->expert_precision))
        return NULL;
    return w->expert_precision == ST_PREC_FP4 ? no_fp4_experts : no_fp8_experts;
}

#define SERVE_PROGRESS "size: service configurations"

/* Replicas the sizing adds, one at a time, where the stream over the replicas misses the
 * targets one replica met (size_row): a closed loop's clients, or a Poisson stream or trace
 * split at random over the replicas, each of which then sees bursts one replica alone did not. */
#define MORE_REPLICAS 4

/* One replica of tp x pp GPUs of type g (ep > 1: a group of ep replicas of one GPU sharing the
 * experts, the unit the search adds): what a unit carries, then the workload's stream over the
 * units it needs, for their latencies, throughput and power. A unit carries its replicas'
 * capacity within the targets (st_serve_capacity: the rate `strata run` reports over its
 * replicas), without them their offline rate; a closed loop's, its replicas' most clients
 * within the targets (st_serve_clients: the clients `strata run` reports over its replicas;
 * without targets, its engine's batch limit, max_seqs: more clients only queue); 0 where none
 * does. */
static int size_row_on(st_step_ctx *x, const st_cluster_cfg *c2, const st_workload_cfg *w,
                       uint64_t id, int64_t tp, int64_t pp, int64_t ep, uint64_t seed,
                       st_serve_size_row *row, st_err *err)
{
    int64_t per = ep > 1 ? ep : 1; /* replicas a unit */
    const st_inference_cfg *ic = &w->inference;
    const st_gpu_spec *g = c2->gpu;
    st_workload_cfg w2 = *w;
    w2.gpus = per * tp * pp;
    w2.parallel.tp = tp;
    w2.parallel.pp = pp;
    w2.parallel.ep = per;
    w2.parallel.dp = per;
    *row = (st_serve_size_row){.gpu = g, .tp = tp, .pp = pp, .ep = per};
    st_serve_memory m;
    st_serve_memory_of(&w2, g, &m);
    if (m.blocks < st_serve_blocks_longest(&m, st_req_longest(ic), ic->max_batch_tokens)) {
        row->why = kv_short;
        return 0;
    }
    int targets = ic->slo_ttft_s > 0 || ic->slo_tpot_s > 0, closed = ic->mode == ST_REQ_CLOSED;
    st_serve_result r;
    int rc = 0;
    double carries = 0, need = closed ? (double)ic->concurrency : ic->rate;
    if (closed && !targets) {
        carries = (double)ic->max_seqs;
    } else if (closed) {
        int64_t one;
        if ((rc = st_serve_clients(x, &w2, c2, seed, id, &one, err)))
            return rc;
        carries = (double)one * (double)per;
    } else if (targets) {
        st_serve_capacity_result cap;
        if ((rc = st_serve_capacity(x, &w2, c2, seed, id, &cap, err)))
            return rc;
        carries = cap.rate_per_s * (double)per;
    } else { /* what the unit completes with every request at once (a trace's at their mean
                lengths) */
        w2.inference.mode = ST_REQ_OFFLINE;
        w2.inference.concurrency = 0;
        if ((rc = st_serve_run(x, &w2, c2, seed, id, &r, err)))
            return rc;
        carries = r.requests_per_s;
    }
    if (!(carries > 0)) {
        row->why = closed ? "not even one client a replica meets the latency targets"
                          : "no rate meets the latency targets";
        return 0;
    }
    if (closed)
        row->clients_per_replica = (int64_t)carries / per;
    else
        row->rate_per_replica = carries / (double)per;
    row->fits = 1;
    int64_t units = (int64_t)ceil(need / carries * (1 - 1e-12));
    if (units < 1)
        units = 1;
    /* the workload's stream over that many replicas: its Poisson rate, its trace's rows, or its
       clients, judged here (its own searches not needed) */
    w2.inference = *ic;
    w2.inference.slo_ttft_s = w2.inference.slo_tpot_s = 0;
    if (!closed)
        w2.inference.mode = ic->mode == ST_REQ_TRACE ? ST_REQ_TRACE : ST_REQ_POISSON;
    for (int more = 0;; more++, units++) {
        row->replicas = units * per;
        w2.gpus = row->replicas * tp * pp;
        w2.parallel.dp = row->replicas;
        if ((rc = st_serve_run(x, &w2, c2, seed, id, &r, err)))
            return rc;
        /* The stream over the replicas can miss where one replica met: the p99 of many alike
           replicas reads their tail's top, one replica's between its top two requests, and a
           stream split at random loads some replicas above its mean. One more replica at a
           time, a few at most; a row that still misses is not one that serves it. */
        if (!targets || st_serve_meets(ic, &r))
            break;
        if (more == MORE_REPLICAS) {
            row->fits = 0;
            row->why = closed ? "the clients over the replicas one replica's loop asks for miss "
                                "the latency targets"
                              : "the stream over the replicas one replica's rate asks for misses "
                                "the latency targets";
            return 0;
        }
    }
    row->gpus = row->replicas * tp * pp;
    row->ttft_p99_s = r.ttft_s.p99;
    row->tpot_p99_s = r.tpot_s.p99;
    row->gpus_board_w = (double)row->gpus * r.gpu_mean_w;
    row->tokens_per_s = closed ? r.tokens_per_s : ic->rate * (double)ic->output_tokens;
    return 0;
}

/* size_row_on for GPU type g on c's shape, with one step context for every run it makes. */
static int size_row(const st_cluster_cfg *c, const st_workload_cfg *w, uint64_t id,
                    const st_gpu_spec *g, int64_t tp, int64_t pp, int64_t ep, uint64_t seed,
                    st_serve_size_row *row, st_err *err)
{
    st_cluster_cfg c2 = *c;
    c2.gpu = g;
    if (c2.calib.enabled && strcmp(g->name, c2.calib.gpu) != 0)
        c2.calib.enabled = 0; /* a calibration measures its own GPU type only (as size.c) */
    /* the engine's limits the scenario leaves to it are g's, as `strata run` on g sets them */
    st_workload_cfg wg = *w;
    st_scn_engine_limits(&wg.inference, g);
    if (!wg.inference.chunked_prefill &&
        wg.inference.max_batch_tokens < st_req_longest(&w->inference)) {
        *row = (st_serve_size_row){.gpu = g, .tp = tp, .pp = pp, .ep = ep > 1 ? ep : 1};
        row->why = "without chunked prefill, this type's default max_batch_tokens holds no whole "
                   "request";
        return 0;
    }
    st_step_ctx *x = NULL;
    int rc = st_step_ctx_new(&c2, &x, err);
    if (!rc)
        rc = size_row_on(x, &c2, &wg, id, tp, pp, ep, seed, row, err);
    st_step_ctx_free(x);
    return rc;
}

/* GPU-hour pricing of row's GPUs for an hour, where the scenario's delivery model has it, over
 * the tokens they serve in it: under a load curve the curve's mean rate of them (`served`, its
 * mean over its peak), the replicas sized for the peak held all along. */
static void price(const st_cost_cfg *cost, double served, st_serve_size_row *row)
{
    row->tokens_per_s *= served;
    if (!cost || cost->delivery == ST_DELIVERY_ON_PREM || !row->fits)
        return;
    st_cost_cfg typed;
    st_cost_for_gpu(cost, row->gpu->name, &typed);
    double tokens = row->tokens_per_s * 3600;
    st_cost_use u = {
        .gpus = row->gpus, .cluster_gpus = row->gpus, .held_s = 3600, .tokens = tokens};
    st_cost_result r = st_cost_job(&typed, &u);
    row->priced = 1;
    row->usd_per_hour = r.total_usd;
    row->usd_per_million_tokens = r.per_token_usd * 1e6;
}

/* Fitting first, then by GPUs, power, type and tp: the GPU goal. */
static int cmp_gpus(const void *pa, const void *pb)
{
    const st_serve_size_row *a = pa, *b = pb;
    if (a->fits != b->fits)
        return b->fits - a->fits;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    if (a->gpus_board_w != b->gpus_board_w)
        return a->gpus_board_w < b->gpus_board_w ? -1 : 1;
    int n = strcmp(a->gpu->name, b->gpu->name);
    if (n)
        return n;
    if (a->tp != b->tp)
        return (a->tp > b->tp) - (a->tp < b->tp);
    if (a->pp != b->pp)
        return (a->pp > b->pp) - (a->pp < b->pp);
    return (a->ep > b->ep) - (a->ep < b->ep);
}

/* Expert-parallel groups are tried for a mixture of experts: 2, 4, 8 ... replicas of one GPU up
 * to a node's GPUs or its NVLink domain's (a GB200 NVL72's 72: TensorRT-LLM's DEP16 and DEP32
 * run there), within the cluster, where they split the experts (docs/models/inference.md,
 * "Expert parallelism"). */
static int ep_tried(const st_cluster_cfg *c, const st_workload_cfg *w, int64_t ep)
{
    int64_t domain = c->nvlink_domain > c->gpus_per_node ? c->nvlink_domain : c->gpus_per_node;
    return w->model->experts > 0 && ep <= domain && ep <= c->nodes * c->gpus_per_node &&
           w->model->experts % ep == 0;
}

/* The widest tensor parallelism tried: a node's GPUs, or its NVLink domain's where that joins
 * nodes (a GB200 NVL72's trays: TensorRT-LLM and vLLM run tensor parallelism over multi-node
 * NVLink), within the cluster. */
static int64_t tp_most(const st_cluster_cfg *c)
{
    int64_t d = c->nvlink_domain > c->gpus_per_node ? c->nvlink_domain : c->gpus_per_node;
    return d < c->nodes * c->gpus_per_node ? d : c->nodes * c->gpus_per_node;
}

/* Pipeline stages are tried only where a node's tensor parallelism cannot hold the model with
 * room for one request: 2, 4, 8 ... stages of a whole node each, while the cluster has the
 * GPUs and the model the layers (the way engines serve a model larger than a node: vLLM's
 * and TensorRT-LLM's tensor parallelism within a node, pipeline parallelism across). */
static int64_t stages_cap(const st_cluster_cfg *c, const st_workload_cfg *w)
{
    if (st_llm_window_layers(w->model) > 0) /* a sliding window is served on one stage only */
        return 1;
    return c->nodes < w->model->layers ? c->nodes : w->model->layers;
}

/* The cost goal: the priced rows' cost per hour first, the rest as cmp_gpus. */
static int cmp_cost(const void *pa, const void *pb)
{
    const st_serve_size_row *a = pa, *b = pb;
    if (a->fits == b->fits && a->priced && b->priced && a->usd_per_hour != b->usd_per_hour)
        return a->usd_per_hour < b->usd_per_hour ? -1 : 1;
    return cmp_gpus(pa, pb);
}

/* A stream the search cannot size: 0, or an error at the workload (an offline batch, a capped
 * Poisson stream) or its requests (a trace of no rate). */
static int unsized(const st_workload_cfg *w, st_err *err)
{
    const st_inference_cfg *ic = &w->inference;
    if (ic->mode == ST_REQ_OFFLINE)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "workload '%s': sizing a service needs the rate it must serve "
                          "(requests: { rate: ... }) or the clients of a closed loop "
                          "(requests: { concurrency: ... }); an offline batch has neither",
                          w->name);
    if (ic->mode == ST_REQ_POISSON && ic->concurrency > 0)
        return st_err_set(err, ST_EINVAL, w->loc,
                          "workload '%s': sizing a capped Poisson stream is not supported: size "
                          "its rate (drop concurrency) or its clients (drop rate)",
                          w->name);
    /* The replicas are the rate over one replica's capacity: a burst has no rate to divide,
       and sizing it for 0 requests/s would size for a stream that sends nothing. */
    if (ic->mode == ST_REQ_TRACE && !st_inference_has_rate(ic))
        return st_err_set(err, ST_EINVAL, ic->requests_loc,
                          "workload '%s': sizing a service needs the rate it must serve, and "
                          "request trace '%s' has none: its %lld row%s at one instant (a span "
                          "of 0 s)",
                          w->name, ic->trace_name, (long long)ic->n_trace,
                          ic->n_trace == 1 ? " arrives" : "s all arrive");
    return 0;
}

int st_size_serving(const st_cluster_cfg *c, const st_workload_cfg *w, uint64_t id,
                    const st_gpu_spec *const *types, size_t n_types, const st_cost_cfg *cost,
                    int cost_goal, uint64_t seed, st_serve_size *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    if (unsized(w, err))
        return err->code;
    st_workload_cfg steady = *w; /* a load curve is sized for its peak, a steady stream's */
    double served = 1;           /* the share of the peak's requests the curve sends, on average */
    if (w->inference.n_load > 0) {
        st_inference_cfg *ic = &steady.inference;
        for (int i = 0; i < ic->n_load; i++)
            ic->rate = ic->load[i].rate > ic->rate ? ic->load[i].rate : ic->rate;
        if (ic->rate > 0)
            served = st_inference_mean_rate(&w->inference) / ic->rate;
        ic->n_load = 0;
        ic->autoscale.on = 0;
        ic->count = st_inference_preset_default.count;
    }
    w = &steady;
    out->rate = w->inference.mode == ST_REQ_CLOSED ? 0 : w->inference.rate;
    out->clients = w->inference.mode == ST_REQ_CLOSED ? w->inference.concurrency : 0;
    size_t nt = n_types ? n_types : 1, cap = 0;
    for (size_t t = 0; t < nt; t++) { /* each type on its own platform's node */
        st_cluster_cfg ct = *c;
        st__size_platform(c, n_types ? types[t] : c->gpu, &ct);
        for (int64_t tp = 1; tp <= tp_most(&ct); tp *= 2)
            cap++;
        for (int64_t pp = 2; pp <= stages_cap(&ct, w); pp *= 2)
            cap++;
        for (int64_t ep = 2; ep_tried(&ct, w, ep); ep *= 2)
            cap++;
    }
    out->row = st_xcalloc(cap ? cap : 1, sizeof *out->row);
    /* each configuration is one replica's search and a run of the whole stream: seconds, shown
       on a terminal (the pipelined rows, tried only where no node holds the model, counted in
       the total as if all were) */
    int64_t total = (int64_t)cap;
    st_progress(SERVE_PROGRESS, 0, total);
    for (size_t t = 0; t < nt; t++) {
        const st_gpu_spec *g = n_types ? types[t] : c->gpu;
        st_cluster_cfg ct = *c; /* the type's own platform's node: its GPUs a node, NVLink
                                   domain and node power (size_platform.h) */
        st__size_platform(c, g, &ct);
        int64_t max_pp = stages_cap(&ct, w), tp_top = 1;
        for (int64_t tp = 1; tp <= tp_most(&ct); tp *= 2)
            tp_top = tp;
        int held = 0; /* some single-stage replica's cache holds a request */
        const char *missing = precision_missing(w, g);
        if (missing) { /* one row says why */
            out->row[out->n++] =
                (st_serve_size_row){.gpu = g, .tp = 1, .pp = 1, .ep = 1, .why = missing};
            continue;
        }
        for (int64_t tp = 1; tp <= tp_most(&ct); tp *= 2) {
            st_serve_size_row *row = &out->row[out->n++];
            int rc = size_row(&ct, w, id, g, tp, 1, 1, seed, row, err);
            if (rc)
                return rc;
            st_progress(SERVE_PROGRESS, (int64_t)out->n, total);
            held |= row->fits || row->why != kv_short;
            price(cost, served, row);
        }
        for (int64_t pp = 2; !held && pp <= max_pp; pp *= 2) {
            st_serve_size_row *row = &out->row[out->n++];
            int rc = size_row(&ct, w, id, g, tp_top, pp, 1, seed, row, err);
            if (rc)
                return rc;
            st_progress(SERVE_PROGRESS, (int64_t)out->n, total);
            held = row->fits || row->why != kv_short;
            price(cost, served, row);
        }
        for (int64_t ep = 2; ep_tried(&ct, w, ep); ep *= 2) {
            st_serve_size_row *row = &out->row[out->n++];
            int rc = size_row(&ct, w, id, g, 1, 1, ep, seed, row, err);
            if (rc)
                return rc;
            st_progress(SERVE_PROGRESS, (int64_t)out->n, total);
            price(cost, served, row);
        }
    }
    st_progress(SERVE_PROGRESS, total, total); /* the loop ends */
    qsort(out->row, out->n, sizeof *out->row, cost_goal ? cmp_cost : cmp_gpus);
    out->tried = out->n;
    for (size_t i = 0; i < out->n; i++)
        out->serve += out->row[i].fits != 0;
    return 0;
}

void st_serve_size_keep(st_serve_size *z, size_t top)
{
    size_t kept = 0, fit = 0;
    for (size_t i = 0; i < z->n; i++)
        if (!z->row[i].fits || fit++ < top)
            z->row[kept++] = z->row[i];
    z->n = kept;
}

void st_serve_size_release(st_serve_size *s)
{
    free(s->row);
    memset(s, 0, sizeof *s);
}
