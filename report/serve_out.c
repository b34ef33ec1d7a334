/* An inference workload's service in the run report: its job object of the JSON report (whose
 * keys docs/guide/scenario-reference.md lists) and its lines of the text summary. */
#include <math.h>
#include <stdio.h>

#include "models/silicon/llm.h"
#include "report/figures.h"
#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/units.h"

static void add_pct(cJSON *o, const char *key, const st_serve_pct *p)
{
    cJSON *q = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(q, "mean", p->mean);
    cJSON_AddNumberToObject(q, "p50", p->p50);
    cJSON_AddNumberToObject(q, "p90", p->p90);
    cJSON_AddNumberToObject(q, "p99", p->p99);
}

static void add_autoscale(cJSON *j, const st_workload_cfg *w, const st_serve_result *r)
{
    const st_autoscale_cfg *a = &w->inference.autoscale;
    cJSON *o = cJSON_AddObjectToObject(j, "autoscale");
    cJSON_AddNumberToObject(o, "min", (double)a->min);
    cJSON_AddNumberToObject(o, "max", (double)a->max);
    cJSON_AddNumberToObject(o, "delay_s", r->cold.total_s);
    if (!r->cold.stated && r->cold.tier) { /* absent: the delay stated whole */
        cJSON *k = cJSON_AddObjectToObject(o, "cold_start");
        cJSON_AddStringToObject(k, "weights_tier", r->cold.tier);
        cJSON_AddNumberToObject(k, "weights_bytes", r->cold.weight_bytes);
        cJSON_AddNumberToObject(k, "init_s", r->cold.init_s);
        cJSON_AddNumberToObject(k, "weights_load_s", r->cold.load_s);
        cJSON_AddNumberToObject(k, "compile_s", r->cold.compile_s);
        cJSON_AddNumberToObject(k, "graph_capture_s", r->cold.graph_s);
    }
    cJSON_AddNumberToObject(o, "target_rate_per_s", r->scale_target_rate);
    cJSON_AddNumberToObject(o, "interval_s", a->interval_s);
    cJSON_AddNumberToObject(o, "window_s", a->window_s);
    cJSON_AddNumberToObject(o, "up_pods", (double)a->up_pods);
    cJSON_AddNumberToObject(o, "up_share", a->up_share);
    cJSON_AddNumberToObject(o, "up_period_s", a->up_period_s);
}

static void add_plan(cJSON *j, const st_workload_cfg *w)
{
    const st_inference_cfg *ic = &w->inference;
    cJSON *par = cJSON_AddObjectToObject(j, "parallel");
    cJSON_AddNumberToObject(par, "tp", (double)w->parallel.tp);
    cJSON_AddNumberToObject(par, "pp", (double)w->parallel.pp);
    cJSON_AddNumberToObject(par, "dp", (double)w->parallel.dp);
    if (w->parallel.ep > 1) /* absent: each replica holds every expert it serves */
        cJSON_AddNumberToObject(par, "ep", (double)w->parallel.ep);
    /* a group's token exchange; absent: the all-to-all, or none inside a replica */
    if (w->parallel.ep > 1 && w->parallel.tp <= 1 && w->parallel.moe_dispatcher != ST_DISP_ALLTOALL)
        cJSON_AddStringToObject(par, "moe_dispatcher",
                                st_moe_dispatcher_names[w->parallel.moe_dispatcher]);
    cJSON *rq = cJSON_AddObjectToObject(j, "requests");
    cJSON_AddStringToObject(rq, "mode", st_req_mode_names[ic->mode]);
    /* absent: all at once (offline, or a trace's rows at one instant), a closed loop, a curve */
    if (st_inference_has_rate(ic))
        cJSON_AddNumberToObject(rq, "rate_per_s", ic->rate);
    if (ic->concurrency > 0) /* absent: no cap on the requests in flight */
        cJSON_AddNumberToObject(rq, "concurrency", (double)ic->concurrency);
    if (ic->think_s > 0) /* absent: clients that send at once */
        cJSON_AddNumberToObject(rq, "think_time_s", ic->think_s);
    if (ic->mode == ST_REQ_TRACE) { /* the path as the scenario writes it */
        cJSON_AddStringToObject(rq, "file", ic->trace_name);
        cJSON_AddStringToObject(rq, "format", st_req_format_names[ic->trace_format]);
        cJSON_AddNumberToObject(rq, "longest_tokens", (double)ic->longest);
    }
    if (ic->n_load == 0) /* a curve's requests are what its rates send */
        cJSON_AddNumberToObject(rq, "count", (double)ic->count);
    cJSON *load = ic->n_load > 0 ? cJSON_AddArrayToObject(rq, "load") : NULL;
    for (int i = 0; i < ic->n_load; i++) {
        cJSON *pt = cJSON_CreateObject();
        cJSON_AddNumberToObject(pt, "at_s", ic->load[i].at_s);
        cJSON_AddNumberToObject(pt, "rate_per_s", ic->load[i].rate);
        cJSON_AddItemToArray(load, pt);
    }
    cJSON_AddNumberToObject(rq, "input_tokens", (double)ic->input_tokens);
    cJSON_AddNumberToObject(rq, "output_tokens", (double)ic->output_tokens);
    if (ic->input_range > 0) /* absent: every request the same length */
        cJSON_AddNumberToObject(rq, "input_range_ratio", ic->input_range);
    if (ic->output_range > 0)
        cJSON_AddNumberToObject(rq, "output_range_ratio", ic->output_range);
    if (ic->cached_share > 0) /* absent: every prompt computed whole */
        cJSON_AddNumberToObject(rq, "cached_prompt", ic->cached_share);
    cJSON *b = cJSON_AddObjectToObject(j, "batching");
    cJSON_AddNumberToObject(b, "max_seqs", (double)ic->max_seqs);
    cJSON_AddNumberToObject(b, "max_batch_tokens", (double)ic->max_batch_tokens);
    cJSON_AddBoolToObject(b, "chunked_prefill", ic->chunked_prefill);
    if (ic->kv_free_share > 0) /* TensorRT-LLM's rule in place of gpu_memory_utilization */
        cJSON_AddNumberToObject(b, "kv_cache_free_fraction", ic->kv_free_share);
    else
        cJSON_AddNumberToObject(b, "gpu_memory_utilization", ic->gpu_memory_share);
    cJSON_AddNumberToObject(b, "block_size", (double)ic->block_tokens);
    cJSON_AddStringToObject(b, "admission", st_admission_names[ic->admission]);
    cJSON_AddStringToObject(b, "kv_cache_dtype", ic->kv_fp8 ? "fp8" : "bf16");
}

/* The GPU type a service runs on: its pool's, or the cluster's one type. */
static const st_gpu_spec *serve_gpu(const st_cluster_cfg *cl, const st_workload_cfg *w)
{
    return cl->n_pools > 0 ? cl->pools[w->pool].gpu : cl->gpu;
}

/* 0 where the service's GPU lacks the Tensor Cores of its `precision`: the serving model then
 * holds its weights and runs its GEMMs in bf16 (docs/guide/scenario-reference.md). */
static int serve_gpu_has_precision(const st_cluster_cfg *cl, const st_workload_cfg *w)
{
    const st_gpu_spec *g = serve_gpu(cl, w);
    return !g || st_gpu_has_precision(g, w->precision);
}

cJSON *st_report_serve_json(const st_cluster_cfg *cl, const st_run_serve *s)
{
    const st_workload_cfg *w = s->w;
    const st_inference_cfg *ic = &w->inference;
    const st_serve_result *r = &s->r;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", w->name);
    cJSON_AddStringToObject(j, "kind", st_workload_kind_names[ST_WL_INFERENCE]);
    cJSON_AddNumberToObject(j, "gpus", (double)w->gpus);
    cJSON_AddStringToObject(j, "model", w->model->name ? w->model->name : "custom");
    cJSON_AddStringToObject(j, "precision", st_precision_names[w->precision]);
    if (!serve_gpu_has_precision(cl, w)) /* the text's "weights and GEMMs in bf16" */
        cJSON_AddStringToObject(j, "gemm_precision", st_precision_names[ST_PREC_BF16]);
    if (w->expert_precision_given) { /* absent: the experts run at `precision` */
        cJSON_AddStringToObject(j, "expert_precision", st_precision_names[w->expert_precision]);
        cJSON_AddStringToObject(j, "expert_weights", st_weight_format_names[w->expert_weights]);
    }
    add_plan(j, w);
    if (ic->autoscale.on) /* absent: the replicas all up all along */
        add_autoscale(j, w, r);
    if (s->has_start) { /* beside training or trace jobs: its place in the cluster run */
        cJSON_AddNumberToObject(j, "start_s", s->start_s);
        cJSON_AddNumberToObject(j, "wait_s", s->wait_s);
        if (s->has_end)
            cJSON_AddNumberToObject(j, "end_s", s->end_s);
        if (s->preemptions > 0)
            cJSON_AddNumberToObject(j, "preemptions", (double)s->preemptions);
    }
    cJSON *in = cJSON_AddObjectToObject(j, "inference");
    cJSON_AddNumberToObject(in, "requests", (double)r->requests);
    cJSON_AddNumberToObject(in, "tokens_per_s", r->tokens_per_s);
    cJSON_AddNumberToObject(in, "requests_per_s", r->requests_per_s);
    add_pct(in, "ttft_s", &r->ttft_s);
    add_pct(in, "tpot_s", &r->tpot_s);
    cJSON_AddNumberToObject(in, "span_s", r->span_s);
    cJSON_AddNumberToObject(in, "replicas_mean", r->replicas_mean);
    cJSON_AddNumberToObject(in, "replicas_peak", (double)r->replicas_peak);
    cJSON_AddNumberToObject(in, "gpu_hours", r->gpu_hours);
    if (s->held_gpu_hours > 0) /* absent: no cluster job */
        cJSON_AddNumberToObject(in, "gpu_hours_held", s->held_gpu_hours);
    if (ic->autoscale.on && ic->autoscale.min == 0) { /* absent: never scaled to zero */
        cJSON_AddNumberToObject(in, "cold_starts", (double)r->cold_starts);
        cJSON_AddNumberToObject(in, "cold_start_total_s", r->cold_start_total_s);
        cJSON_AddNumberToObject(in, "gpu_hours_saved", r->gpu_hours_saved);
    }
    cJSON *tl = r->n_timeline > 0 ? cJSON_AddArrayToObject(in, "timeline") : NULL;
    for (int i = 0; i < r->n_timeline; i++) { /* absent: no autoscaler */
        cJSON *pt = cJSON_CreateObject();
        cJSON_AddNumberToObject(pt, "t_s", r->timeline[i].t_s);
        cJSON_AddNumberToObject(pt, "replicas_up", r->timeline[i].up);
        cJSON_AddNumberToObject(pt, "replicas_asked", r->timeline[i].asked);
        cJSON_AddItemToArray(tl, pt);
    }
    cJSON_AddNumberToObject(in, "kv_cache_bytes", r->kv_cache_bytes);
    cJSON_AddNumberToObject(in, "kv_cache_tokens", (double)r->kv_cache_tokens);
    cJSON_AddNumberToObject(in, "batch_mean", r->batch_mean);
    cJSON_AddNumberToObject(in, "iteration_mean_s", r->iteration_mean_s);
    cJSON_AddNumberToObject(in, "iterations", (double)r->iterations);
    cJSON_AddNumberToObject(in, "preemptions", (double)r->preemptions);
    cJSON *fe = cJSON_AddObjectToObject(in, "frontend");
    if (ic->frontend) /* absent: the figures stated, no row */
        cJSON_AddStringToObject(fe, "name", ic->frontend);
    cJSON_AddNumberToObject(fe, "request_s", ic->frontend_request_s);
    cJSON_AddNumberToObject(fe, "iteration_s", ic->frontend_iteration_s);
    cJSON_AddNumberToObject(in, "mean_power_per_gpu_w", r->gpu_mean_w);
    cJSON_AddNumberToObject(in, "it_energy_per_token_j", r->energy_per_token_j);
    if (r->has_cost) /* absent: no cost section, or on premises (needs the plant's energy) */
        cJSON_AddNumberToObject(in, "cost_per_million_tokens_usd", r->cost_per_million_tokens_usd);
    cJSON *m = cJSON_AddObjectToObject(in, "memory");
    cJSON_AddNumberToObject(m, "usable_bytes", r->mem.usable);
    cJSON_AddNumberToObject(m, "weights_bytes", r->mem.weights);
    cJSON_AddNumberToObject(m, "activations_bytes", r->mem.activations);
    cJSON_AddNumberToObject(m, "reserved_bytes", r->mem.reserved);
    cJSON_AddNumberToObject(m, "kv_cache_bytes", r->mem.kv_cache);
    if (s->has_start && s->n_ups > 0) /* an autoscaler's replicas in the cluster run */
        cJSON_AddNumberToObject(in, "scale_up_wait_s", s->scale_up_wait_s);
    if (r->has_slo) { /* absent: no latency target stated */
        cJSON *o = cJSON_AddObjectToObject(in, "slo");
        if (ic->slo_ttft_s > 0)
            cJSON_AddNumberToObject(o, "ttft_p99_s", ic->slo_ttft_s);
        if (ic->slo_tpot_s > 0)
            cJSON_AddNumberToObject(o, "tpot_p99_s", ic->slo_tpot_s);
        cJSON_AddBoolToObject(o, "met", r->slo_met);
        cJSON_AddNumberToObject(in, "slo_attainment", r->slo_attainment);
        if (s->has_start || s->missed_waiting > 0) /* beside training or a trace */
            cJSON_AddNumberToObject(in, "missed_waiting", s->missed_waiting);
        cJSON_AddNumberToObject(in, "max_rate_under_slo", r->max_rate_under_slo);
        cJSON_AddNumberToObject(in, "max_tokens_per_s_under_slo", r->max_tokens_per_s_under_slo);
        if (ic->mode == ST_REQ_CLOSED) /* absent: not a closed loop */
            cJSON_AddNumberToObject(in, "max_concurrency_under_slo",
                                    (double)r->max_concurrency_under_slo);
    }
    return j;
}

static const char *fmt(double v, st_dim d, char *buf, size_t n)
{
    st_unit_format(v, d, buf, n);
    return buf;
}

/* Latencies in the unit each reads best in, as the other formats show them: 96.92 ms, not
 * 0.09692 s. */
static void pct_text(FILE *out, const char *label, const st_serve_pct *p)
{
    char a[40], b[40], c[40];
    fprintf(out, "  %-9s p50 %s, p90 %s, p99 %s\n", label, fmt(p->p50, ST_DIM_TIME, a, sizeof a),
            fmt(p->p90, ST_DIM_TIME, b, sizeof b), fmt(p->p99, ST_DIM_TIME, c, sizeof c));
}

/* A trace's requests: their span and mean rate, or, all at one instant, no rate (a rate over
 * 0 s is undefined; "0 per second" read as a stream that sends nothing). */
static void trace_text(FILE *out, const st_inference_cfg *ic)
{
    char a[32];
    fprintf(out, "  requests  %s from the trace %s (%s)", st_fig_plain((double)ic->n_trace).s,
            ic->trace_name, st_req_format_names[ic->trace_format]);
    if (!st_inference_has_rate(ic)) {
        fputs(ic->n_trace == 1 ? ", at one instant (no rate)" : ", all at one instant (no rate)",
              out);
        return;
    }
    fprintf(out, " over %s, %.4g per second",
            fmt(ic->trace[ic->n_trace - 1].arrival_s, ST_DIM_TIME, a, sizeof a), ic->rate);
}

/* ", 3.997 held (their starts too, as the cost bills them)" where the cluster run held its
 * GPUs longer than its replicas were up; "" otherwise. */
static const char *held_text(const st_run_serve *s, char *buf, size_t n)
{
    if (!(s->held_gpu_hours > s->r.gpu_hours * (1 + 1e-9)))
        return "";
    snprintf(buf, n, ", %.4g held (their starts too, as the cost bills them)", s->held_gpu_hours);
    return buf;
}

void st_report_serve_text(FILE *out, const st_cluster_cfg *cl, const st_run_serve *s)
{
    const st_workload_cfg *w = s->w;
    const st_inference_cfg *ic = &w->inference;
    const st_serve_result *r = &s->r;
    char a[32], b[32], c[32], d[32], e[32], f[32], held[96];
    int64_t pp = w->parallel.pp > 1 ? w->parallel.pp : 1;
    /* ", pp N, ep M, allgather exchange": at most 71 bytes for any two int64s, never cut */
    char stages[80] = "";
    int at = pp > 1 ? snprintf(stages, sizeof stages, ", pp %lld", (long long)pp) : 0;
    if (w->parallel.ep > 1) /* the experts spread over ep GPUs of a replica, or of a group */
        at += snprintf(stages + at, sizeof stages - (size_t)at, ", ep %lld",
                       (long long)w->parallel.ep);
    if (w->parallel.ep > 1 && w->parallel.tp <= 1) /* a group's token exchange */
        snprintf(stages + at, sizeof stages - (size_t)at, ", %s exchange",
                 st_moe_dispatcher_names[w->parallel.moe_dispatcher]);
    fprintf(out, "\njob %s: %s served by %lld replica%s of %lld GPU%s (tp %lld%s), %s", w->name,
            w->model->name ? w->model->name : "custom", (long long)w->parallel.dp,
            st_plural_s(w->parallel.dp), (long long)(w->parallel.tp * pp),
            st_plural_s(w->parallel.tp * pp), (long long)w->parallel.tp, stages,
            st_precision_names[w->precision]);
    if (w->expert_precision_given)
        fprintf(out, " (experts %s, weights %s)", st_precision_names[w->expert_precision],
                st_weight_format_names[w->expert_weights]);
    const st_gpu_spec *g = serve_gpu(cl, w);
    if (!serve_gpu_has_precision(cl, w))
        fprintf(out, " (weights and GEMMs in bf16: %s has no %s Tensor Cores)", g->name,
                w->precision == ST_PREC_FP4 ? "FP4" : "FP8");
    if (cl->n_pools > 0) /* its pool's GPU type: every figure below is that type's */
        fprintf(out, " on pool %s (%s)", cl->pools[w->pool].name, cl->pools[w->pool].gpu->name);
    fputc('\n', out);
    /* the counts grouped as the HTML and Markdown group them: 4,739,757 requests */
    if (ic->mode == ST_REQ_TRACE)
        trace_text(out, ic);
    else if (ic->n_load > 0)
        fprintf(out, "  requests  %s over %s of a load curve of %d points (Poisson)",
                st_fig_plain((double)r->requests).s,
                fmt(ic->load[ic->n_load - 1].at_s - ic->load[0].at_s, ST_DIM_TIME, a, sizeof a),
                ic->n_load);
    else if (ic->mode == ST_REQ_POISSON && ic->concurrency > 0)
        fprintf(out, "  requests  %s at %s per second (Poisson), at most %s in flight",
                st_fig_plain((double)ic->count).s, st_fig_plain(ic->rate).s,
                st_fig_plain((double)ic->concurrency).s);
    else if (ic->mode == ST_REQ_POISSON)
        fprintf(out, "  requests  %s at %s per second (Poisson)", st_fig_plain((double)ic->count).s,
                st_fig_plain(ic->rate).s);
    else if (ic->mode == ST_REQ_CLOSED)
        fprintf(out, "  requests  %s from %s client%s in a closed loop%s%s",
                st_fig_plain((double)ic->count).s, st_fig_plain((double)ic->concurrency).s,
                ic->concurrency == 1 ? "" : "s", ic->think_s > 0 ? ", thinking on average " : "",
                ic->think_s > 0 ? fmt(ic->think_s, ST_DIM_TIME, a, sizeof a) : "");
    else
        fprintf(out, "  requests  %s all at once (offline)", st_fig_plain((double)ic->count).s);
    fprintf(out, ", %s tokens in", st_fig_plain((double)ic->input_tokens).s);
    if (ic->input_range > 0)
        fprintf(out, " (%s-%s)",
                st_fig_plain((double)st_req_len_lo(ic->input_tokens, ic->input_range)).s,
                st_fig_plain((double)st_req_len_hi(ic->input_tokens, ic->input_range)).s);
    fprintf(out, ", %s out", st_fig_plain((double)ic->output_tokens).s);
    if (ic->output_range > 0)
        fprintf(out, " (%s-%s)",
                st_fig_plain((double)st_req_len_lo(ic->output_tokens, ic->output_range)).s,
                st_fig_plain((double)st_req_len_hi(ic->output_tokens, ic->output_range)).s);
    if (ic->mode == ST_REQ_TRACE)
        fprintf(out, " on average, %s in all at the longest", st_fig_plain((double)ic->longest).s);
    if (ic->cached_share > 0) {
        char pct[32];
        st_unit_percent(ic->cached_share, pct, sizeof pct);
        fprintf(out, ", %s of each prompt in the prefix cache", pct);
    }
    fputc('\n', out);
    char tok[40], span[32];
    st_fig_number_text(ST_FU_NUMBER, r->tokens_per_s, tok, sizeof tok); /* 45,110, not 4.511e+04 */
    fprintf(out, "  serving   %s output tokens/s, %.4g requests/s, over %s\n", tok,
            r->requests_per_s, fmt(r->span_s, ST_DIM_TIME, span, sizeof span));
    if (ic->autoscale.on) {
        fprintf(out,
                "  replicas  %.4g up on average, %lld at most (autoscaled from %lld to %lld at "
                "%.4g requests/s each, %s to start), %.4g GPU-hours up%s\n",
                r->replicas_mean, (long long)r->replicas_peak, (long long)ic->autoscale.min,
                (long long)ic->autoscale.max, r->scale_target_rate,
                fmt(r->cold.total_s, ST_DIM_TIME, a, sizeof a), r->gpu_hours,
                held_text(s, held, sizeof held));
        /* a load that asks for more replicas than ran: the answer to a missed target (the
         * summary's words, report/summary.c, from the same timeline) */
        double asked = 0;
        for (int k = 0; k < r->n_timeline; k++)
            asked = r->timeline[k].asked > asked ? r->timeline[k].asked : asked;
        if (asked > (double)r->replicas_peak && r->replicas_peak > 0)
            fprintf(out,
                    "            its load asks for up to %.4g at its peak, more than the %lld "
                    "that ran\n",
                    asked, (long long)r->replicas_peak);
    }
    if (ic->autoscale.on && !r->cold.stated && r->cold.tier)
        fprintf(out,
                "  start     %s: the engine %s, the weights %s (%s from %s), compile %s, "
                "CUDA graphs %s\n",
                fmt(r->cold.total_s, ST_DIM_TIME, a, sizeof a),
                fmt(r->cold.init_s, ST_DIM_TIME, b, sizeof b),
                fmt(r->cold.load_s, ST_DIM_TIME, c, sizeof c),
                fmt(r->cold.weight_bytes, ST_DIM_BYTES, d, sizeof d), r->cold.tier,
                fmt(r->cold.compile_s, ST_DIM_TIME, e, sizeof e),
                fmt(r->cold.graph_s, ST_DIM_TIME, f, sizeof f));
    if (ic->autoscale.on && ic->autoscale.min == 0)
        fprintf(out,
                "  zero      %s cold starts from no replica up, %s in all; %.4g GPU-hours "
                "saved with none up or starting\n",
                st_fig_plain((double)r->cold_starts).s,
                fmt(r->cold_start_total_s, ST_DIM_TIME, a, sizeof a), r->gpu_hours_saved);
    pct_text(out, "ttft", &r->ttft_s);
    if (s->missed_waiting > 0) /* the percentiles are the replicas' own (models/serve/serve.h) */
        fprintf(out,
                "            at the replicas, from a request's arrival there; the %.4g that "
                "waited past the target for GPUs first are counted in slo below\n",
                s->missed_waiting);
    pct_text(out, "tpot", &r->tpot_s);
    fprintf(out,
            "  batch     %.4g requests per iteration on average, %s per iteration, %s "
            "preemptions per replica\n",
            r->batch_mean, fmt(r->iteration_mean_s, ST_DIM_TIME, a, sizeof a),
            st_fig_plain((double)r->preemptions).s);
    fprintf(out, "  frontend  %s: %s per request, %s per iteration on the host\n",
            ic->frontend ? ic->frontend : "as stated",
            fmt(ic->frontend_request_s, ST_DIM_TIME, a, sizeof a),
            fmt(ic->frontend_iteration_s, ST_DIM_TIME, b, sizeof b));
    fprintf(out,
            "  memory    per GPU: weights %s, activations %s, reserved %s, KV cache %s of %s "
            "usable\n",
            fmt(r->mem.weights, ST_DIM_BYTES, a, sizeof a),
            fmt(r->mem.activations, ST_DIM_BYTES, b, sizeof b),
            fmt(r->mem.reserved, ST_DIM_BYTES, c, sizeof c),
            fmt(r->mem.kv_cache, ST_DIM_BYTES, d, sizeof d),
            fmt(r->mem.usable, ST_DIM_BYTES, e, sizeof e));
    fprintf(out, "  kv cache  %s tokens per replica (%s)\n",
            st_fig_plain((double)r->kv_cache_tokens).s,
            fmt(r->kv_cache_bytes, ST_DIM_BYTES, b, sizeof b));
    fprintf(out,
            "  power     %s per GPU on average, IT energy %s per output token (before the PUE)",
            fmt(r->gpu_mean_w, ST_DIM_POWER, c, sizeof c),
            fmt(r->energy_per_token_j, ST_DIM_ENERGY, d, sizeof d));
    if (r->has_cost)
        fprintf(out, ", %.4g USD per million output tokens", r->cost_per_million_tokens_usd);
    fputc('\n', out);
    if (s->has_start) {
        fprintf(out, "  runs      from t = %s (waited %s)",
                fmt(s->start_s, ST_DIM_TIME, a, sizeof a),
                fmt(s->wait_s, ST_DIM_TIME, b, sizeof b));
        if (s->has_end)
            fprintf(out, ", ends at t = %s", fmt(s->end_s, ST_DIM_TIME, c, sizeof c));
        if (s->preemptions > 0)
            fprintf(out, ", preempted %s time%s", st_fig_plain((double)s->preemptions).s,
                    st_plural_s(s->preemptions));
        if (s->n_ups > 0)
            fprintf(out, "; the replicas its autoscaler added waited %s for GPUs in all",
                    fmt(s->scale_up_wait_s, ST_DIM_TIME, d, sizeof d));
        if (s->missed_waiting > 0) /* a count, grouped as every format shows it: 21,495 */
            fprintf(out, "; %s requests waited past the time-to-first-token target",
                    st_fig_plain(round(s->missed_waiting)).s);
        fputc('\n', out);
    }
    if (!r->has_slo)
        return;
    fputs("  slo      ", out);
    char t[40];
    if (ic->slo_ttft_s > 0)
        fprintf(out, " p99 ttft <= %s%s", fmt(ic->slo_ttft_s, ST_DIM_TIME, t, sizeof t),
                ic->slo_tpot_s > 0 ? "," : "");
    if (ic->slo_tpot_s > 0)
        fprintf(out, " p99 tpot <= %s", fmt(ic->slo_tpot_s, ST_DIM_TIME, t, sizeof t));
    /* the share within, stated as such: "missed, by 95% of its requests" read as 95% missed */
    const char *what = ic->slo_ttft_s > 0 && ic->slo_tpot_s > 0 ? "both" : "it";
    char most[40];
    st_fig_number_text(ST_FU_NUMBER, r->max_tokens_per_s_under_slo, most, sizeof most);
    fprintf(out,
            ": %s at this stream, %.4g%% of its requests within %s; at most %.4g requests/s "
            "(%s output tokens/s) meet %s",
            r->slo_met ? "met" : "missed", 100 * r->slo_attainment, what, r->max_rate_under_slo,
            most, what);
    if (ic->mode == ST_REQ_CLOSED)
        fprintf(out, ", and at most %s client%s of the loop",
                st_fig_plain((double)r->max_concurrency_under_slo).s,
                r->max_concurrency_under_slo == 1 ? "" : "s");
    fputc('\n', out);
}
