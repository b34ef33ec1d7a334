/* Reads a workload of `kind: inference` (load_workload.c reads the rest): its `requests`, `slo`,
 * `batching`, `autoscale` and `frontend` mappings. The rules that tie it to the serving model and
 * the serving engine's defaults for what it leaves out are load_inference_rules.c's. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/load_internal.h"

/* A rate of requests at `key`: "10/s", or a bare number of them per second; above 0, or (a
 * load curve's point: zero) at least 0. */
static int read_rate(st_rd *rd, const st_ynode *n, const char *key, int zero_ok, double *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, key))
        return -1;
    size_t len = strlen(n->text);
    char buf[64];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, n->text, len);
    buf[len] = 0;
    if (len >= 2 && strcmp(buf + len - 2, "/s") == 0)
        buf[len - 2] = 0;
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end || errno || !isfinite(v) || !(zero_ok ? v >= 0 : v > 0) || v > 1e9)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "%s: expected requests per second %s and at most 1e9, such as '10/s', "
                          "found '%s'",
                          key, zero_ok ? "at least 0" : "above 0", n->text);
    *out = v;
    return 0;
}

/* One point of a load curve: {at: TIME, rate: N/s}. */
static int fn_point_rate(st_rd *rd, const st_ynode *n, void *base)
{
    return read_rate(rd, n, "requests.rate[].rate", 1, &((st_load_point *)base)->rate);
}

static const st_field point_fields[] = {
    ST_FDIM(st_load_point, "at", at_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_span,
            .required = 1),
    ST_FFN("rate", fn_point_rate, .required = 1),
    ST_FEND,
};

/* A load curve: points in time order, linear between them, over at least some time, with some
 * rate somewhere. */
static int read_curve(st_rd *rd, const st_ynode *n, st_inference_cfg *ic)
{
    if (st_rd_list_limit(rd, n, "requests.rate", ST_MAX_LOAD_POINTS))
        return -1;
    if (n->n < 2)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "requests.rate: a load curve needs at least 2 points ({at, rate}), "
                          "found %zu",
                          n->n);
    double peak = 0;
    st_load_point *pts = st_rd_alloc(rd, n->n * sizeof *pts);
    for (size_t i = 0; i < n->n; i++) {
        st_load_point *p = &pts[i];
        if (st_rd_map(rd, n->kids[i], point_fields, p, "requests.rate[]"))
            return -1;
        if (i > 0 && !(p->at_s > pts[i - 1].at_s))
            return st_rd_fail(rd, n->kids[i], ST_EINVAL,
                              "requests.rate[%zu].at: expected later than the point before "
                              "(%g s), found %g s",
                              i, pts[i - 1].at_s, p->at_s);
        peak = p->rate > peak ? p->rate : peak;
    }
    ic->load = pts;
    if (!(peak > 0))
        return st_rd_fail(rd, n, ST_EINVAL,
                          "requests.rate: every point of the load curve is 0 requests per second");
    ic->n_load = (int)n->n;
    return 0;
}

/* requests.rate: one rate, or a load curve (a list of {at, rate}). */
static int fn_rate(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = base;
    if (n->kind == ST_YN_SEQ)
        return read_curve(rd, n, ic);
    return read_rate(rd, n, "requests.rate", 0, &ic->rate);
}

/* A length: a whole number of tokens, or a mapping {mean, range_ratio} of lengths uniform in
 * [mean (1 - r), mean (1 + r)] (vLLM's random dataset); r below 1. */
typedef struct len_cfg {
    int64_t mean;
    double range;
} len_cfg;

static const st_field len_fields[] = {
    ST_FINT(len_cfg, "mean", mean, ST_R_MIN1, .max = 1e7, .required = 1),
    ST_FDIM(len_cfg, "range_ratio", range, ST_DIM_RATIO, ST_R_FRAC),
    ST_FEND,
};

static int read_len(st_rd *rd, const st_ynode *n, const char *key, int64_t *mean, double *range)
{
    if (n->kind != ST_YN_MAP)
        return st_rd_int(rd, n, key, ST_R_MIN1, 1e7, mean);
    len_cfg l = {0};
    if (st_rd_map(rd, n, len_fields, &l, key))
        return -1;
    if (!(l.range < 1))
        return st_rd_fail(rd, st_ynode_get(n, "range_ratio"), ST_EINVAL,
                          "%s.range_ratio: expected below 1 (lengths from mean x (1 - r) to mean "
                          "x (1 + r)), found %g",
                          key, l.range);
    *mean = l.mean;
    *range = l.range;
    return 0;
}

static int fn_input(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = base;
    return read_len(rd, n, "requests.input_tokens", &ic->input_tokens, &ic->input_range);
}

static int fn_output(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = base;
    return read_len(rd, n, "requests.output_tokens", &ic->output_tokens, &ic->output_range);
}

/* A request trace's path, joined to the scenario's folder; the file is read once the mode is
 * known (scenarios/req_trace.c). */
static int fn_file(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = base;
    if (st__read_path(rd, n, "requests.file", "request trace", &ic->trace_file))
        return -1;
    ic->trace_name = st_rd_strdup(rd, n->text);
    return 0;
}

static const char *const malformed_names[] = {"skip", "refuse", NULL};

/* input_tokens and output_tokens are required but for a trace (derive_requests). */
static const st_field request_fields[] = {
    ST_FENUM(st_inference_cfg, "mode", mode, st_req_mode_names),
    ST_FFN("rate", fn_rate),
    ST_FINT(st_inference_cfg, "count", count, ST_R_MIN1, .max = 1e12),
    ST_FINT(st_inference_cfg, "concurrency", concurrency, ST_R_MIN1, .max = 1e7),
    ST_FDIM(st_inference_cfg, "think_time", think_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span),
    ST_FFN("input_tokens", fn_input),
    ST_FFN("output_tokens", fn_output),
    ST_FDIM(st_inference_cfg, "cached_prompt", cached_share, ST_DIM_RATIO, ST_R_FRAC),
    ST_FFN("file", fn_file),
    ST_FENUM(st_inference_cfg, "format", trace_format, st_req_format_names),
    ST_FENUM(st_inference_cfg, "malformed", refuse_malformed, malformed_names),
    ST_FEND,
};

static const st_field slo_fields[] = {
    ST_FDIM(st_inference_cfg, "ttft_p99", slo_ttft_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span),
    ST_FDIM(st_inference_cfg, "tpot_p99", slo_tpot_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span),
    ST_FEND,
};

/* kv_cache_dtype as vLLM spells it: auto (the model's activations', BF16 here), bf16 or fp8. */
static int fn_kv_dtype(st_rd *rd, const st_ynode *n, void *base)
{
    static const char *const names[] = {"auto", "bf16", "fp8", NULL};
    int v = 0;
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "batching.kv_cache_dtype") ||
        st_rd_enum(rd, n, "kv_cache_dtype", names, &v))
        return -1;
    ((st_inference_cfg *)base)->kv_fp8 = v == 2;
    return 0;
}

/* The token budget sizes the replica's per-count memo (models/serve/serve_cost.c): 2^20 tokens,
 * 64 times vLLM's largest default, keeps it within tens of megabytes. */
static const st_field batching_fields[] = {
    ST_FINT(st_inference_cfg, "max_seqs", max_seqs, ST_R_MIN1, .max = 1048576),
    ST_FINT(st_inference_cfg, "max_batch_tokens", max_batch_tokens, ST_R_MIN1, .max = 1048576),
    ST_FBOOL(st_inference_cfg, "chunked_prefill", chunked_prefill),
    ST_FDIM(st_inference_cfg, "gpu_memory_utilization", gpu_memory_share, ST_DIM_RATIO, ST_R_FRAC),
    ST_FINT(st_inference_cfg, "block_size", block_tokens, ST_R_MIN1, .max = 1024),
    ST_FDIM(st_inference_cfg, "kv_cache_free_fraction", kv_free_share, ST_DIM_RATIO, ST_R_FRAC),
    ST_FENUM(st_inference_cfg, "admission", admission, st_admission_names),
    ST_FFN("kv_cache_dtype", fn_kv_dtype),
    ST_FEND,
};

static int fn_target_rate(st_rd *rd, const st_ynode *n, void *base)
{
    return read_rate(rd, n, "autoscale.target_rate", 0, &((st_autoscale_cfg *)base)->target_rate);
}

static int fn_weights_tier(st_rd *rd, const st_ynode *n, void *base)
{
    return st__tier_named(rd, n, &((st_autoscale_cfg *)base)->weights_tier);
}

static const st_field autoscale_fields[] = {
    ST_FINT(st_autoscale_cfg, "min", min, ST_R_NONNEG, .max = 1e9),
    ST_FINT(st_autoscale_cfg, "max", max, ST_R_MIN1, .max = 1e9),
    ST_FDIM(st_autoscale_cfg, "delay", delay_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FFN("weights_tier", fn_weights_tier),
    ST_FFN("target_rate", fn_target_rate),
    ST_FDIM(st_autoscale_cfg, "interval", interval_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span),
    ST_FDIM(st_autoscale_cfg, "window", window_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_span),
    ST_FINT(st_autoscale_cfg, "up_pods", up_pods, ST_R_NONNEG, .max = 1e9),
    ST_FDIM(st_autoscale_cfg, "up_share", up_share, ST_DIM_RATIO, ST_R_NONNEG, .max = 1e4),
    ST_FDIM(st_autoscale_cfg, "up_period", up_period_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span),
    ST_FEND,
};

int st__fn_autoscale(st_rd *rd, const st_ynode *n, void *base)
{
    st_autoscale_cfg *a = &((st_workload_cfg *)base)->inference.autoscale;
    a->loc = n->loc;
    a->on = 1;
    a->weights_tier = -1;
    return st_rd_map(rd, n, autoscale_fields, a, "autoscale");
}

int st__fn_requests(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = &((st_workload_cfg *)base)->inference;
    ic->requests_loc = n->loc;
    return st_rd_map(rd, n, request_fields, ic, "requests");
}

int st__fn_slo(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = &((st_workload_cfg *)base)->inference;
    ic->slo_loc = n->loc;
    return st_rd_map(rd, n, slo_fields, ic, "slo");
}

int st__fn_batching(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = &((st_workload_cfg *)base)->inference;
    return st_rd_map(rd, n, batching_fields, ic, "batching");
}

/* A planner's own measurement of their stack: both figures, no default for either. */
static const st_field frontend_fields[] = {
    ST_FDIM(st_inference_cfg, "request", frontend_request_s, ST_DIM_TIME, ST_R_NONNEG,
            .lim = &st_lim_span, .required = 1),
    ST_FDIM(st_inference_cfg, "iteration", frontend_iteration_s, ST_DIM_TIME, ST_R_NONNEG,
            .lim = &st_lim_span, .required = 1),
    ST_FEND,
};

void st__use_frontend(st_inference_cfg *ic, const st_frontend *f)
{
    ic->frontend = f->name;
    ic->frontend_request_s = st_frontend_request_s(f);
    ic->frontend_iteration_s = st_frontend_iteration_s(f);
}

/* `frontend:` a serving stack's row by name, or a mapping of the figures measured on one. */
int st__fn_frontend(st_rd *rd, const st_ynode *n, void *base)
{
    st_inference_cfg *ic = &((st_workload_cfg *)base)->inference;
    if (n->kind == ST_YN_MAP) {
        ic->frontend = NULL;
        return st_rd_map(rd, n, frontend_fields, ic, "frontend");
    }
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "frontend"))
        return -1;
    const st_frontend *f = st_frontend_find(n->text);
    if (!f) {
        char names[160];
        st_frontend_names(names, sizeof names);
        return st_rd_fail(rd, n, ST_EINVAL,
                          "frontend: expected a serving stack (%s) or a mapping { request, "
                          "iteration } of its measured times, found '%s'",
                          names, n->text);
    }
    st__use_frontend(ic, f);
    return 0;
}
