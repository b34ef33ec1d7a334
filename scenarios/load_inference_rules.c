/* The rules that tie a workload of `kind: inference` to the serving model (models/serve/serve.h):
 * the keys a service refuses, its model, plan and expert parallelism, its requests and their work
 * against the serving clock, and the serving engine's defaults for what it leaves out
 * (st_inference_preset_default). load_inference.c reads its mappings. */
#include <math.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/silicon/dispatch.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "scenarios/load_internal.h"
#include "scenarios/req_trace.h"

/* Keys of a training workload that mean nothing to a service: refused, not ignored. */
static const char *const training_only[] = {
    "seq_len",    "global_batch",    "fp8_recipe",      "fp8_param_gather",
    "kernels",    "steps",           "tokens",          "checkpoint",
    "data",       "memory_reserved", "capacity_factor", "pad_to_capacity",
    "mtp_layers", "software",        "collective",      NULL};

/* The plan keys a replica reads; the rest of `parallel` are training's. */
static const char *const plan_keys[] = {"tp", "pp", "dp", "ep", "moe_dispatcher", NULL};

static int refuse_keys(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    int bad = st__refuse_keys(ld, n, w, training_only);
    const st_ynode *par = st_ynode_get(n, "parallel");
    for (size_t k = 0; par && par->kind == ST_YN_MAP && k < par->n; k++) {
        const char *key = par->keys[k]->text;
        int ok = 0;
        for (int i = 0; plan_keys[i]; i++)
            ok |= strcmp(key, plan_keys[i]) == 0;
        if (!ok)
            bad = st_rd_fail(&ld->rd, par->keys[k], ST_EINVAL,
                             "workload '%s': parallel.%s does not apply to kind: inference (a "
                             "service reads tp, pp, dp, ep and moe_dispatcher)",
                             w->name, key);
    }
    return bad;
}

/* What the serving model covers: attention over the whole context (ordinary or multi-head
 * latent) or a sliding window of it (on one pipeline stage), a fused attention kernel, a dense
 * model or a mixture of experts whose experts split over the tensor-parallel ranks. */
static int check_model(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_llm_spec *m = w->model;
    if (st_llm_window_layers(m) > 0 && w->parallel.pp > 1)
        return st_rd_fail(&ld->rd, st__key_or(st_ynode_get(n, "parallel"), "pp"), ST_EINVAL,
                          "workload '%s': model '%s' has sliding-window layers, which the serving "
                          "model's KV cache covers on one pipeline stage only: parallel.pp must "
                          "be 1, found %lld",
                          w->name, m->name, (long long)w->parallel.pp);
    int64_t tp = w->parallel.tp > 1 ? w->parallel.tp : 1;
    if (m->experts > 0 && w->parallel.ep <= 1 && m->expert_ffn_hidden % tp)
        return st_rd_fail(&ld->rd, st__key_or(st_ynode_get(n, "parallel"), "tp"), ST_EINVAL,
                          "workload '%s': model '%s' is served with each expert split over the "
                          "tensor-parallel ranks, but its experts' width %lld does not split "
                          "over tp = %lld",
                          w->name, m->name, (long long)m->expert_ffn_hidden, (long long)tp);
    if (w->attention == ST_ATTN_UNFUSED)
        return st_rd_fail(&ld->rd, st__key_or(n, "attention"), ST_EINVAL,
                          "workload '%s': serving engines run a fused attention kernel: "
                          "attention: unfused does not apply to kind: inference",
                          w->name);
    return 0;
}

/* tp x pp x dp = gpus, dp derived when not stated; pipeline stages of whole layers, each
 * stage's tensor-parallel GPUs in one node or NVLink domain; the GPUs within its pool's (the
 * cluster's, of one type). */
static int check_plan(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    const st_ynode *par = st_ynode_get(n, "parallel");
    st_parallel_cfg *p = &w->parallel;
    st_cluster_cfg room;
    st__pool_room(ld, w, &room);
    const st_cluster_cfg *c = &room;
    int64_t pp = p->pp > 1 ? p->pp : 1, replica = p->tp * pp;
    if (pp > w->model->layers)
        return st_rd_fail(&ld->rd, st__key_or(par, "pp"), ST_EINVAL,
                          "workload '%s': parallel.pp %lld is more stages than model '%s' has "
                          "layers (%lld)",
                          w->name, (long long)pp, w->model->name, (long long)w->model->layers);
    int64_t domain = c->nvlink_domain > c->gpus_per_node ? c->nvlink_domain : c->gpus_per_node;
    if (pp > 1 && domain > 0 && domain % p->tp != 0)
        return st_rd_fail(&ld->rd, st__key_or(par, "tp"), ST_EINVAL,
                          "workload '%s': parallel.tp %lld must divide the %lld GPUs of a node "
                          "(or NVLink domain) under pipeline parallelism: each stage's "
                          "tensor-parallel GPUs sit in one",
                          w->name, (long long)p->tp, (long long)domain);
    int dp_stated = par && st_ynode_get(par, "dp");
    if (!dp_stated && w->gpus % replica == 0)
        p->dp = w->gpus / replica;
    if (!dp_stated && w->gpus % replica != 0)
        return st_rd_fail(&ld->rd, st__key_or(n, "gpus"), ST_EINVAL,
                          "workload '%s': gpus %lld is not a multiple of parallel.tp x pp = "
                          "%lld (each replica is tp x pp GPUs)",
                          w->name, (long long)w->gpus, (long long)replica);
    if (replica * p->dp != w->gpus)
        return st_rd_fail(&ld->rd, st__key_or(n, "gpus"), ST_EINVAL,
                          "workload '%s': gpus %lld must be tp x pp x dp = %lld x %lld x %lld = "
                          "%lld",
                          w->name, (long long)w->gpus, (long long)p->tp, (long long)pp,
                          (long long)p->dp, (long long)(replica * p->dp));
    int64_t have = c->nodes * c->gpus_per_node;
    if (!ld->size_bad && w->gpus > have && ld->s->cluster.n_pools > 0)
        return st_rd_fail(&ld->rd, st__key_or(n, "gpus"), ST_EINVAL,
                          "workload '%s': asks for %lld GPUs, but its pool '%s' has %lld (%lld "
                          "nodes x %lld); a service runs inside one pool",
                          w->name, (long long)w->gpus, ld->s->cluster.pools[w->pool].name,
                          (long long)have, (long long)c->nodes, (long long)c->gpus_per_node);
    if (!ld->size_bad && w->gpus > have)
        return st_rd_fail(&ld->rd, st__key_or(n, "gpus"), ST_EINVAL,
                          "workload '%s': asks for %lld GPUs, but the cluster has %lld", w->name,
                          (long long)w->gpus, (long long)have);
    return 0;
}

/* Expert parallelism as the engines serve a mixture of experts: inside a replica of tp GPUs, ep
 * dividing tp (vLLM's -tp N --enable-expert-parallel; TensorRT-LLM's --tp N --ep M), each GPU
 * experts / ep of them; or over replicas of one GPU with attention data parallelism
 * (TensorRT-LLM's DEP: --tp N --ep N with enable_attention_dp; vLLM's --data-parallel-size N
 * --enable-expert-parallel; SGLang's --enable-dp-attention): ep replicas, every one its own
 * requests and KV cache, share each MoE layer's experts. docs/models/inference.md, "Expert
 * parallelism". */
static int check_ep(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_parallel_cfg *p = &w->parallel;
    const st_ynode *at = st__key_or(st_ynode_get(n, "parallel"), "ep");
    const st_llm_spec *m = w->model;
    const st_ynode *ri = st_ynode_get(n, "routing_imbalance");
    if (ri && p->ep <= 1)
        return st_rd_fail(&ld->rd, ri, ST_EINVAL,
                          "workload '%s': routing_imbalance is the most loaded GPU of an "
                          "expert-parallel group, and this service has none: it needs "
                          "parallel.ep above 1",
                          w->name);
    if (p->ep <= 1)
        return 0;
    const st_ynode *md = st_ynode_get(st_ynode_get(n, "parallel"), "moe_dispatcher");
    if (md && p->moe_dispatcher != ST_DISP_ALLTOALL && p->moe_dispatcher != ST_DISP_ALLGATHER)
        return st_rd_fail(&ld->rd, md, ST_EINVAL,
                          "workload '%s': a service exchanges its tokens by moe_dispatcher "
                          "alltoall or allgather, found %s (timed for training only)",
                          w->name, st_moe_dispatcher_names[p->moe_dispatcher]);
    if (md && p->tp > 1)
        return st_rd_fail(&ld->rd, md, ST_EINVAL,
                          "workload '%s': moe_dispatcher is the token exchange of a group of "
                          "attention-DP replicas (tp 1); with tp %lld the experts sit inside each "
                          "replica and no tokens are exchanged",
                          w->name, (long long)p->tp);
    if (m->experts <= 0)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': parallel.ep %lld spreads a mixture of experts' experts, "
                          "but model '%s' has none",
                          w->name, (long long)p->ep, m->name);
    int64_t tp = p->tp > 1 ? p->tp : 1;
    if (tp > 1 && tp % p->ep)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': parallel.ep %lld must divide parallel.tp %lld "
                          "(experts spread over a replica's GPUs), or come with tp 1 and divide "
                          "dp (attention data parallelism)",
                          w->name, (long long)p->ep, (long long)tp);
    if (tp == 1 && p->pp > 1)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': parallel.ep %lld over replicas of one GPU (attention "
                          "data parallelism) needs pp 1, found %lld",
                          w->name, (long long)p->ep, (long long)p->pp);
    if (tp > 1 && m->expert_ffn_hidden % (tp / p->ep))
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': the experts' width %lld of model '%s' does not split "
                          "over the tp / ep = %lld GPUs that hold each expert",
                          w->name, (long long)m->expert_ffn_hidden, m->name,
                          (long long)(tp / p->ep));
    if (m->experts % p->ep)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': model '%s' has %lld experts, which do not split over "
                          "parallel.ep %lld",
                          w->name, m->name, (long long)m->experts, (long long)p->ep);
    if (tp == 1 && p->dp % p->ep)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': parallel.ep %lld must divide the %lld replicas "
                          "(parallel.dp): each group of ep replicas shares its experts",
                          w->name, (long long)p->ep, (long long)p->dp);
    if (tp == 1 && w->inference.autoscale.on)
        return st_rd_fail(&ld->rd, st__key_or(n, "autoscale"), ST_EINVAL,
                          "workload '%s': autoscale with parallel.ep %lld is not modelled (its "
                          "replicas would come and go in whole expert-parallel groups)",
                          w->name, (long long)p->ep);
    if (ri && w->routing_imbalance > (double)p->ep)
        return st_rd_fail(&ld->rd, ri, ST_EINVAL,
                          "workload '%s': routing_imbalance %g is more than parallel.ep %lld: a "
                          "GPU receives at most every row of its group",
                          w->name, w->routing_imbalance, (long long)p->ep);
    return 0;
}

/* A trace's requests: the file's, which say their times, count and lengths. */
static int derive_trace(st_ld *ld, const st_ynode *req, st_inference_cfg *ic, const char *name)
{
    static const char *const theirs[] = {"rate", "count", "input_tokens", "output_tokens", NULL};
    for (int i = 0; theirs[i]; i++)
        if (st_ynode_get(req, theirs[i]))
            return st_rd_fail(&ld->rd, st_ynode_get(req, theirs[i]), ST_EINVAL,
                              "workload '%s': requests.%s does not apply to mode: trace (the "
                              "file gives each request's arrival and lengths)",
                              name, theirs[i]);
    const st_ynode *file = st_ynode_get(req, "file");
    if (!file)
        return st_rd_fail(&ld->rd, req, ST_EINVAL,
                          "workload '%s': requests of mode: trace need a 'file' (a CSV of "
                          "arrivals and lengths)",
                          name);
    return st__req_trace_read(ld, file, ic);
}

/* The request stream: its mode from the rate or the file when not stated; the count's default;
 * the lengths, required but for a trace. */
static int derive_requests(st_ld *ld, const st_ynode *req, st_inference_cfg *ic, const char *name)
{
    const st_ynode *mode = st_ynode_get(req, "mode"), *rate = st_ynode_get(req, "rate");
    const st_ynode *conc = st_ynode_get(req, "concurrency");
    if (!mode)
        ic->mode = st_ynode_get(req, "file") ? ST_REQ_TRACE
                   : rate                    ? ST_REQ_POISSON
                   : conc                    ? ST_REQ_CLOSED
                                             : ST_REQ_OFFLINE;
    if (conc && ic->mode != ST_REQ_CLOSED && ic->mode != ST_REQ_POISSON)
        return st_rd_fail(&ld->rd, conc, ST_EINVAL,
                          "workload '%s': requests.concurrency applies to mode: closed (that many "
                          "clients, each sending its next request as its last completes) or "
                          "poisson (the stream held to that many in flight), not to mode: %s",
                          name, st_req_mode_names[ic->mode]);
    if (ic->mode == ST_REQ_TRACE)
        return derive_trace(ld, req, ic, name);
    static const char *const trace_only[] = {"file", "format", "malformed", NULL};
    for (int i = 0; trace_only[i]; i++)
        if (st_ynode_get(req, trace_only[i]))
            return st_rd_fail(&ld->rd, st_ynode_get(req, trace_only[i]), ST_EINVAL,
                              "workload '%s': requests.%s applies to mode: trace", name,
                              trace_only[i]);
    static const char *const lengths[] = {"input_tokens", "output_tokens", NULL};
    for (int i = 0; lengths[i]; i++)
        if (!st_ynode_get(req, lengths[i]))
            return st_rd_fail(&ld->rd, req, ST_EINVAL, "requests: missing required key '%s'",
                              lengths[i]);
    if (ic->mode == ST_REQ_OFFLINE && rate)
        return st_rd_fail(&ld->rd, rate, ST_EINVAL,
                          "workload '%s': requests.rate applies to mode: poisson (mode: offline "
                          "sends every request at once)",
                          name);
    if (ic->mode == ST_REQ_POISSON && !rate)
        return st_rd_fail(&ld->rd, req, ST_EINVAL,
                          "workload '%s': requests of mode: poisson need a 'rate' (requests per "
                          "second, such as 10/s)",
                          name);
    if (ic->mode == ST_REQ_CLOSED && rate)
        return st_rd_fail(&ld->rd, rate, ST_EINVAL,
                          "workload '%s': requests.rate applies to mode: poisson (mode: closed "
                          "sends a client's next request as its last completes; a rate and a "
                          "concurrency together are a Poisson stream held to that many in flight)",
                          name);
    const st_ynode *think = st_ynode_get(req, "think_time");
    if (think && ic->mode != ST_REQ_CLOSED)
        return st_rd_fail(&ld->rd, think, ST_EINVAL,
                          "workload '%s': requests.think_time applies to mode: closed (a client's "
                          "pause between a completion and its next request), not to mode: %s",
                          name, st_req_mode_names[ic->mode]);
    if (ic->mode == ST_REQ_CLOSED && !conc)
        return st_rd_fail(&ld->rd, req, ST_EINVAL,
                          "workload '%s': requests of mode: closed need a 'concurrency' (the "
                          "clients, each with one request in flight)",
                          name);
    if (ic->n_load > 0 && conc)
        return st_rd_fail(&ld->rd, conc, ST_EINVAL,
                          "workload '%s': requests.concurrency does not apply to a load curve "
                          "(its requests arrive at its rates, none held back)",
                          name);
    if (ic->n_load > 0 && st_ynode_get(req, "count"))
        return st_rd_fail(&ld->rd, st_ynode_get(req, "count"), ST_EINVAL,
                          "workload '%s': requests.count does not apply to a load curve (its "
                          "requests arrive at its rates from its first point to its last)",
                          name);
    if (!st_ynode_get(req, "count")) /* a load curve's: the requests a replica's capacity and
                                        its rate within the SLO are measured on */
        ic->count = st_inference_preset_default.count;
    return 0;
}

/* The autoscaler's decisions over a curve at most: the fleet's timeline keeps up to two
 * entries per decision (models/serve/serve_load.c), so 10^7 of them is a few hundred
 * megabytes at worst, a year of 15 s decisions about 2 x 10^6. */
#define MAX_DECISIONS 1e7

/* The autoscaler's bounds and defaults: at most the replicas the service's GPUs make, a target
 * stated or taken from the latency target, over a load curve. */
static int derive_autoscale(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    st_autoscale_cfg *a = &w->inference.autoscale;
    const st_ynode *an = st_ynode_get(n, "autoscale");
    if (!a->on)
        return 0;
    const st_inference_preset *pre = &st_inference_preset_default;
    if (w->inference.n_load == 0)
        return st_rd_fail(&ld->rd, an, ST_EINVAL,
                          "workload '%s': autoscale follows a load curve: give requests.rate as "
                          "points [{at, rate}, ...]",
                          w->name);
    if (!st_ynode_get(an, "max"))
        a->max = w->parallel.dp;
    if (!st_ynode_get(an, "min"))
        a->min = 1;
    a->delay_set = st_ynode_get(an, "delay") != NULL;
    if (!a->delay_set && a->weights_tier < 0)
        return st_rd_fail(&ld->rd, an, ST_EINVAL,
                          "workload '%s': autoscale needs a weights_tier (the cluster.storage "
                          "tier its replicas load their weights from, to model a cold start) or "
                          "a delay (a replica's start stated whole)",
                          w->name);
    if (!st_ynode_get(an, "interval"))
        a->interval_s = pre->scale_interval_s;
    if (!st_ynode_get(an, "window"))
        a->window_s = pre->scale_window_s;
    if (!st_ynode_get(an, "up_pods"))
        a->up_pods = pre->scale_up_pods;
    if (!st_ynode_get(an, "up_share"))
        a->up_share = pre->scale_up_share;
    if (!st_ynode_get(an, "up_period"))
        a->up_period_s = pre->scale_up_period_s;
    if (a->up_pods == 0 && !(a->up_share > 0))
        return st_rd_fail(&ld->rd, st__key_or(an, "up_pods"), ST_EINVAL,
                          "workload '%s': autoscale.up_pods and up_share are both 0: the "
                          "autoscaler could never add a replica",
                          w->name);
    if (a->max > w->parallel.dp)
        return st_rd_fail(&ld->rd, st__key_or(an, "max"), ST_EINVAL,
                          "workload '%s': autoscale.max %lld is more than the %lld replicas its "
                          "gpus make (gpus / tp)",
                          w->name, (long long)a->max, (long long)w->parallel.dp);
    if (a->min > a->max)
        return st_rd_fail(&ld->rd, st__key_or(an, "min"), ST_EINVAL,
                          "workload '%s': autoscale.min %lld is more than its max %lld", w->name,
                          (long long)a->min, (long long)a->max);
    const st_inference_cfg *ic = &w->inference;
    double decisions = (ic->load[ic->n_load - 1].at_s - ic->load[0].at_s) / a->interval_s;
    if (decisions > MAX_DECISIONS)
        return st_rd_fail(&ld->rd, st__key_or(an, "interval"), ST_EINVAL,
                          "workload '%s': autoscale.interval %g s over a load curve of %g s makes "
                          "%.4g decisions; at most 1e7 (a longer interval)",
                          w->name, a->interval_s, decisions * a->interval_s, decisions);
    if (!(a->target_rate > 0) && !(ic->slo_ttft_s > 0 || ic->slo_tpot_s > 0))
        return st_rd_fail(&ld->rd, an, ST_EINVAL,
                          "workload '%s': autoscale needs a target_rate (requests per second a "
                          "replica is given) or an slo to take it from",
                          w->name);
    return 0;
}

/* A replica's simulation visits each running request once per iteration, so its work is about
 * its requests times their tokens: at most 10^10 (about two minutes of CPU), and it keeps about
 * 100 bytes per request: at most 10^7 of them (a gigabyte), whatever the service's size (the
 * replicas are simulated as one). */
#define MAX_REPLICA_TOKENS   1e10
#define MAX_REPLICA_REQUESTS 1e7

static int check_work(st_ld *ld, const st_ynode *req, const st_workload_cfg *w)
{
    const st_inference_cfg *ic = &w->inference;
    /* a capped stream's requests go to the replicas its clients hold, all of them or fewer */
    int64_t reps = w->parallel.dp;
    if (ic->concurrency > 0 && ic->concurrency < reps)
        reps = ic->concurrency;
    /* each replica is simulated with count / dp of the requests: with fewer requests than
     * replicas one request a replica told a throughput 1,000 times the rate offered (a fuzzing
     * find) */
    /* a load curve sends its mean rate over its span; fewer requests than replicas left each
     * replica none and the plant no step to draw (a fuzzing find) */
    if (ic->n_load > 1) {
        const st_load_point *p = ic->load;
        double span = p[ic->n_load - 1].at_s - p[0].at_s;
        double sent = st_inference_mean_rate(ic) * span;
        if (sent < (double)w->parallel.dp)
            return st_rd_fail(&ld->rd, st__key_or(req, "rate"), ST_EINVAL,
                              "workload '%s': its load curve sends %.4g requests over its %.4g s, "
                              "fewer than its %lld replicas: a longer curve or higher rates",
                              w->name, sent, span, (long long)w->parallel.dp);
    }
    if (ic->mode != ST_REQ_TRACE && ic->n_load == 0 && ic->count < reps)
        return st_rd_fail(&ld->rd, st__key_or(req, "count"), ST_EINVAL,
                          "workload '%s': requests.count %lld is below its %lld replicas; each "
                          "replica is simulated with its share of the requests, so give at least "
                          "one a replica (hundreds for its percentiles)",
                          w->name, (long long)ic->count, (long long)reps);
    double per = ceil((double)ic->count / (double)reps);
    double work = per * (double)st_req_longest(ic);
    /* and its time must fit the serving clock's span, whatever the GPU's figures say: a replica
     * runs no faster than a forward pass (a third of PaLM's training FLOPs a token) at its GPUs'
     * peak (a GPU of 1 FLOP/s reported a stream served over 1.8e14 s: a fuzzing find) */
    const st_cluster_cfg *c = &ld->s->cluster;
    const st_gpu_spec *g = st_pools_gpu_of_workload(c, w);
    int64_t dp = w->parallel.dp > 1 ? w->parallel.dp : 1;
    if (g && w->model && w->gpus > 0) {
        double peak = fmax(fmax(g->peak_bf16, g->peak_fp8), g->peak_fp4) * (double)(w->gpus / dp);
        double least = work * st_llm_flops_per_token(w->model, st_req_longest(ic)) / 3 / peak;
        if (peak > 0 && least > ST_LIM_SPAN_S) {
            char b[48], span[48];
            st_unit_format(least, ST_DIM_TIME, b, sizeof b);
            st_unit_format(ST_LIM_SPAN_S, ST_DIM_TIME, span, sizeof span);
            return st_rd_fail(&ld->rd, st__key_or(req, "count"), ST_ELIMIT,
                              "workload '%s': a replica's %.4g requests take at least %s at its "
                              "GPUs' peak, beyond %s (at most %s: %s)",
                              w->name, per, b, st_lim_span.what, span, st_lim_span.how);
        }
    }
    if (work <= MAX_REPLICA_TOKENS && per <= MAX_REPLICA_REQUESTS)
        return 0;
    return st_rd_fail(&ld->rd, st__key_or(req, "count"), ST_EINVAL,
                      "workload '%s': each replica would serve %.4g requests of %lld tokens, "
                      "%.3g tokens in all; the serving model simulates at most 1e7 requests and "
                      "1e10 tokens per replica (fewer requests, or more replicas)",
                      w->name, per, (long long)(ic->input_tokens + ic->output_tokens), work);
}

/* The engine's limits the workload leaves out: vLLM V1's for its pool's GPU and the stream's
 * kind; without chunked prefill a whole request must fit one iteration's budget (vLLM asks
 * max_num_batched_tokens >= max_model_len then). */
void st_scn_engine_limits(st_inference_cfg *ic, const st_gpu_spec *gpu)
{
    const st_inference_preset *pre = &st_inference_preset_default;
    int large = gpu && gpu->hbm_bytes >= pre->large_gpu_bytes && gpu->arch != ST_GPU_ARCH_AMPERE;
    int offline = ic->mode == ST_REQ_OFFLINE;
    if (!(ic->batch_stated & ST_BATCH_STATED_SEQS))
        ic->max_seqs = large ? pre->max_seqs_large : pre->max_seqs_small;
    if (!(ic->batch_stated & ST_BATCH_STATED_TOKENS))
        ic->max_batch_tokens =
            large ? (offline ? pre->batch_tokens_offline_large : pre->batch_tokens_server_large)
                  : (offline ? pre->batch_tokens_offline_small : pre->batch_tokens_server_small);
}

static int derive_batching(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    const st_inference_preset *pre = &st_inference_preset_default;
    st_inference_cfg *ic = &w->inference;
    const st_ynode *b = st_ynode_get(n, "batching");
    st_cluster_cfg room;
    st__pool_room(ld, w, &room);
    ic->batch_stated = (b && st_ynode_get(b, "max_seqs") ? ST_BATCH_STATED_SEQS : 0) |
                       (b && st_ynode_get(b, "max_batch_tokens") ? ST_BATCH_STATED_TOKENS : 0);
    st_scn_engine_limits(ic, room.gpu);
    if (!b || !st_ynode_get(b, "chunked_prefill"))
        ic->chunked_prefill = 1;
    if (!b || !st_ynode_get(b, "gpu_memory_utilization"))
        ic->gpu_memory_share = pre->gpu_memory_share;
    if (!b || !st_ynode_get(b, "block_size"))
        ic->block_tokens = pre->block_tokens;
    int64_t whole = st_req_longest(ic);
    if (!ic->chunked_prefill && ic->max_batch_tokens < whole)
        return st_rd_fail(&ld->rd, st__key_or(b, "max_batch_tokens"), ST_EINVAL,
                          "workload '%s': without chunked prefill an iteration must hold a whole "
                          "request: max_batch_tokens %lld is less than the longest request's "
                          "input + output tokens %lld",
                          w->name, (long long)ic->max_batch_tokens, (long long)whole);
    return 0;
}

/* The experts of a mixed-precision checkpoint (expert_precision, expert_weights): a mixture of
 * experts; MMAs the GPU has (fp4: FP4 Tensor Cores, fp8: FP8 ones); weights no wider than the
 * MMAs' inputs (an engine widens narrow weights in its kernel, never narrows them). Unstated,
 * expert_precision is `precision` and expert_weights expert_precision. */
static int derive_expert_precision(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    const st_ynode *ep = st_ynode_get(n, "expert_precision"),
                   *ew = st_ynode_get(n, "expert_weights");
    if (!ep && !ew)
        return 0;
    const st_ynode *at = ep ? ep : ew;
    if (w->model->experts <= 0)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': %s needs a mixture of experts; model '%s' is dense",
                          w->name, ep ? "expert_precision" : "expert_weights", w->model->name);
    if (!ep)
        w->expert_precision = w->precision;
    if (!ew)
        w->expert_weights = w->expert_precision;
    w->expert_precision_given = 1;
    st_cluster_cfg room;
    st__pool_room(ld, w, &room);
    const st_gpu_spec *gpu = room.gpu;
    st_precision p = w->expert_precision;
    if (gpu && !st_gpu_has_precision(gpu, p))
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': expert_precision: %s needs %s Tensor Cores, which %s "
                          "lacks (its experts' weights may still be stored narrow: "
                          "expert_weights)",
                          w->name, st_precision_names[p], p == ST_PREC_FP4 ? "FP4" : "FP8",
                          gpu->name);
    if (st_ops_stored_bytes(w->expert_weights) > st_ops_stored_bytes(p))
        return st_rd_fail(&ld->rd, ew ? ew : at, ST_EINVAL,
                          "workload '%s': expert_weights: %s is wider than expert_precision: %s "
                          "(weights are read at most at the MMAs' width)",
                          w->name, st_weight_format_names[w->expert_weights],
                          st_precision_names[p]);
    return 0;
}

/* A group of attention-DP replicas (tp 1, ep > 1) exchanges its tokens as its engine would,
 * unless the service states how (models/silicon/dispatch.h, st_moe_serve_dispatcher). */
static void default_dispatcher(const st_ynode *n, st_workload_cfg *w)
{
    st_parallel_cfg *p = &w->parallel;
    p->moe_dispatcher_given = st_ynode_get(st_ynode_get(n, "parallel"), "moe_dispatcher") != NULL;
    if (p->ep > 1 && p->tp <= 1)
        p->moe_dispatcher = st_moe_serve_dispatcher(w);
}

int st__derive_inference(st_ld *ld, const st_ynode *n, st_workload_cfg *w,
                         const st_field *workload_fields)
{
    int bad = refuse_keys(ld, n, w);
    static const char *const required[] = {"model", "gpus", "requests", NULL};
    for (int i = 0; required[i]; i++)
        if (!st_ynode_get(n, required[i]) && !st_rd_misspelt(n, workload_fields, required[i]))
            bad = st_rd_fail(&ld->rd, n, ST_EINVAL, "workload '%s': kind: inference needs '%s'",
                             w->name, required[i]);
    static const char *const keys[] = {
        "model",          "gpus", "parallel",  "requests", "batching",          "attention",
        "precision",      "slo",  "autoscale", "pool",     "routing_imbalance", "expert_precision",
        "expert_weights", NULL};
    if (bad || st_rd_any_failed(&ld->rd, n, keys) || !w->model || ld->cluster_bad)
        return -1;
    if (check_model(ld, n, w) || check_plan(ld, n, w) || check_ep(ld, n, w) ||
        derive_expert_precision(ld, n, w))
        return -1;
    default_dispatcher(n, w);
    const st_ynode *req = st_ynode_get(n, "requests");
    if (derive_requests(ld, req, &w->inference, w->name) || check_work(ld, req, w) ||
        derive_autoscale(ld, n, w))
        return -1;
    if (!st_ynode_get(n, "frontend")) {
        const st_inference_preset *pre = &st_inference_preset_default;
        st__use_frontend(&w->inference, st_frontend_find(w->inference.mode == ST_REQ_OFFLINE
                                                             ? pre->frontend_offline
                                                             : pre->frontend_online));
    }
    return derive_batching(ld, n, w) ? -1 : 0;
}
