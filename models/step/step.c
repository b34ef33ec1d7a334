/* The step-level model: one plan's operator and collective costs, the pipeline schedule and the
 * data-parallel timelines (dp_timeline.c), joined into one training step
 * (docs/models/step-model.md). */
#include "models/step/step.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabsim.h"
#include "models/silicon/dispatch.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/plan_check.h"
#include "models/silicon/variability.h"
#include "models/step/step_internal.h"
#include "models/step/zero3.h"
#include "sim/xalloc.h"

int st_step_ctx_new(const st_cluster_cfg *c, st_step_ctx **out, st_err *err)
{
    return st_step_ctx_new_shared(c, NULL, out, err);
}

int st_step_ctx_new_shared(const st_cluster_cfg *c, st_step_memo *shared, st_step_ctx **out,
                           st_err *err)
{
    st_step_ctx *x = st_xcalloc(1, sizeof *x);
    x->c = c;
    int rc = st_topo_new(c, &x->topo, err);
    if (rc) {
        free(x);
        return rc;
    }
    x->memo = st_coll_memo_new();
    x->traces = st__shape_traces_new();
    x->closed = st_coll_memo_new();
    x->shared = shared;
    if (shared && (x->spare = st__step_memo_take_spare(shared)))
        st_maxmin_rebase(x->spare, st_topo_link_count(x->topo), st_topo_capacities(x->topo));
    *out = x;
    return 0;
}

const st_topo *st_step_ctx_topo(const st_step_ctx *x)
{
    return x->topo;
}

void st_step_ctx_free(st_step_ctx *x)
{
    if (!x)
        return;
    st_fabsim_free(x->planner); /* before the topology it runs on */
    st_coll_free(x->dry);
    free(x->lat);
    if (x->shared && x->spare) /* reset between pattern runs (st_mmx_free) */
        st__step_memo_give_spare(x->shared, x->spare);
    else
        st_maxmin_free(x->spare);
    free(x->sums);
    st_mm_trace_free(x->rec);
    st_topo_free(x->topo);
    st_coll_memo_free(x->memo);
    st__shape_traces_free(x->traces);
    st_coll_memo_free(x->closed);
    for (size_t i = 0; i < x->n_maps; i++) {
        free(x->maps[i].gpus);
        free(x->maps[i].bg);
    }
    free(x->maps);
    free(x->map_at);
    free(x);
}

/* What TP collective c adds to the pass beside GEMM h under Transformer Engine's overlap
 * (st_tp_hide): the pair's time less the GEMM's alone. Ring exchange runs the local shard's
 * piece first and then one piece per shard received, each of the tp - 1 sends beside the piece
 * before it; pipeline runs piece k's reduce-scatter beside piece k + 1 and leaves the last one
 * alone; bulk runs the collective beside the whole GEMM. A GEMM beside communication runs
 * slower by `slow`, its setting's (st_tp_hide.slow: st_gpu_ub_slowdown of the SMs the
 * communication holds, parallel.tp_comm_overlap_cfg). docs/models/step-model.md, "TP
 * communication overlap". */
static double tp_exposed(const st_tp_hide *h, double c, double slow)
{
    double g = h->split_s * (1 + slow), n = h->splits, a = g / n;
    double t;
    if (h->method == ST_TP_RING)
        t = a + (n - 1) * fmax(a, c / (n - 1));
    else if (h->method == ST_TP_PIPELINE)
        t = a + (n - 1) * fmax(a, c / n) + c / n;
    else
        t = fmax(g, c);
    return fmax(0, t - h->gemm_s);
}

/* One pass's TP collectives, n_ag all-gathers of ag seconds and n_rs reduce-scatters (or
 * all-reduces) of other seconds: counted whole, or under parallel.tp_comm_overlap each beside
 * the GEMM the layer pairs it with (hides; a collective with none, as MLA's attention, whole). */
static double tp_pass_s(const step_plan *p, const st_tp_hide *h, int n_hide, int n_ag, int n_rs,
                        double ag, double other)
{
    if (!p->w->parallel.tp_comm_overlap || n_hide == 0)
        return n_ag * ag + n_rs * other;
    double t = 0;
    for (int i = 0; i < n_hide; i++) {
        t += tp_exposed(&h[i], h[i].ag ? ag : other, h[i].slow);
        n_ag -= h[i].ag;
        n_rs -= !h[i].ag;
    }
    return t + n_ag * ag + n_rs * other;
}

/* What context parallelism's K/V exchange (an all-gather of `ring` seconds over cp ranks) adds
 * to a pass whose attention core takes `attn` under parallel.cp_comm_overlap: Transformer
 * Engine's ring attention (AttnFuncWithCPAndKVP2P) runs cp steps, the first on the rank's own
 * K/V block and each of the other cp - 1 on the block received during the step before, so each
 * of those waits for the longer of its send, ring / (cp - 1), and its share of the attention,
 * attn / cp, slowed while the send runs beside it (st_gpu_overlap_slowdown, as for the
 * data-parallel collectives). docs/models/step-model.md, "CP communication overlap". */
static double cp_exposed(double ring, double attn, int64_t cp, double s)
{
    double send = ring / (double)(cp - 1), share = attn / (double)cp;
    return (double)(cp - 1) * (fmax(send, st_z3_slowed(share, send, s)) - share);
}

/* Tensor-parallel collectives per layer (Korthikanti et al. 2022, section 4.2.2): two
 * all-reduces in forward and two in backward, or with sequence parallelism an all-gather and a
 * reduce-scatter in their place (and the inputs gathered again for the weight gradients);
 * full recomputation repeats the forward ones. Under FP8 the all-gathers move FP8
 * (models/silicon/ops_cost.c, st_ops_layer_cost). Context parallelism gathers K and V around its
 * ring in forward and reduces their gradients in backward (Megatron-Core's ring attention), counted
 * here as not overlapped. */
/* Megatron-Core's combined 1F1B schedule (overlap_moe_expert_parallel_comm, MCore 0.14;
 * megatron/core/pipeline_parallel/combined_1f1b.py) runs one micro-batch's layer forward beside
 * another's layer backward, sub-module by sub-module on two streams: the backward combine beside
 * the forward attention, the forward and backward dispatches beside the two MLP passes, the
 * forward combine beside the backward attention. A pair of passes then takes
 *     max(Af, a) + max(Mb + Mf, 2a) + max(Ab, a)
 * against Af + Ab + Mf + Mb + 4a whole (A attention side, M MLP side, a one all-to-all), the
 * overlapped compute slowed by st_gpu_overlap_slowdown (the all-to-all kernels' SMs). What the
 * pair's all-to-alls add to its compute: */
static double ep_pair_exposed_s(const step_plan *p, const st_layer_cost *lc, double a)
{
    double af = lc->fwd_s - lc->mlp_fwd_s, ab = lc->bwd_s - lc->mlp_bwd_s + lc->recompute_s;
    double m = lc->mlp_fwd_s + lc->mlp_bwd_s;
    double both = fmin(af, a) + fmin(m, 2 * a) + fmin(ab, a);
    return fmax(af, a) + fmax(m, 2 * a) + fmax(ab, a) - (af + ab + m) +
           st_gpu_overlap_slowdown(p->gpu, p->w->precision) * both;
}

/* The share of a stage's passes the combined schedule pairs: all but the warm-up's forwards
 * (and as many cool-down backwards) of the first stage, which has the most. */
static double ep_paired(const step_plan *p)
{
    double total = (double)p->m * (double)p->v;
    double w = (double)st_pipe_warmup(p->pp, p->v, p->m, 0);
    return total > 0 ? fmax(0, total - (w > 0 ? w : 1)) / total : 0;
}

/* One DeepEP or HybridEP exchange, the mean of a dispatch and a combine (each pass has one of
 * each): the rows each rank receives at the dispatcher's measured bandwidth for the GPU, the EP
 * group's size and whether its ep x etp consecutive GPUs span NVLink domains
 * (models/silicon/dispatch.c). Every EP group of the stage runs at once, as in the measurement;
 * other traffic on the fabric is not added. */
static double flex_a2a_s(const st_step_ctx *x, const step_plan *p, const st_layer_cost *lc)
{
    const st_parallel_cfg *par = &p->w->parallel;
    int across = st_moe_ep_across(par, x->c->nvlink_domain);
    st_moe_dispatcher d = (st_moe_dispatcher)lc->ep_flex;
    /* the NVLink domains (nodes) the EP group's ranks fall in: its ep ranks lie etp apart in
     * a block of ep x etp GPUs, each in its own domain once etp is a domain or more */
    double etp = par->etp > 1 ? (double)par->etp : 1.0, dom = (double)x->c->nvlink_domain;
    double nodes = across && dom > 0 ? ceil((double)par->ep * etp / dom) : 1.0;
    if (nodes > (double)par->ep)
        nodes = (double)par->ep;
    const st_llm_spec *m = p->w->model;
    double s =
        st_moe_flex_exchange_s(p->gpu, d, (double)par->ep, across, nodes, m, lc->ep_a2a_bytes);
    if (!(s >= 0))
        ST_BUG("moe_dispatcher %s unmeasured on %s: the plan rules refuse it",
               st_moe_dispatcher_names[d], p->gpu->name);
    return s;
}

/* One collective of op over every EP group of the stage at once (ep ranks etp apart; with one
 * block of ep x etp ranks, its etp groups), each rank's `bytes`. */
static double ep_groups_s(st_step_ctx *x, st_coll_op op, int64_t ep, int64_t etp, int64_t groups,
                          double bytes)
{
    return groups == 1 ? st__step_coll_time(x, op, ep, etp, etp, 1, bytes)
                       : st__step_coll_time(x, op, ep, etp, groups, ep * etp, bytes);
}

/* One exchange of the token dispatcher: an all-to-all; for DeepEP and HybridEP their measured
 * mean; for allgather the mean of its all-gather and reduce-scatter (a pass has one of each). */
static double ep_exchange_s(st_step_ctx *x, const step_plan *p, const st_layer_cost *lc,
                            int64_t groups)
{
    const st_parallel_cfg *par = &p->w->parallel;
    int64_t ep = par->ep, etp = par->etp > 1 ? par->etp : 1;
    if (lc->ep_flex == ST_DISP_DEEPEP || lc->ep_flex == ST_DISP_HYBRIDEP)
        return flex_a2a_s(x, p, lc);
    if (lc->ep_flex == ST_DISP_ALLGATHER)
        return (ep_groups_s(x, ST_COLL_ALL_GATHER, ep, etp, groups, lc->ep_a2a_bytes) +
                ep_groups_s(x, ST_COLL_REDUCE_SCATTER, ep, etp, groups, lc->ep_a2a_bytes)) /
               2;
    return ep_groups_s(x, ST_COLL_ALL_TO_ALL, ep, etp, groups, lc->ep_a2a_bytes);
}

static void model_parallel_costs(st_step_ctx *x, const step_plan *p, const st_layer_cost *lc,
                                 double *mp_fwd_s, double *mp_bwd_s, double *ep_a2a_s)
{
    const st_workload_cfg *w = p->w;
    double ag = 0, other = 0, cp_unit = 0; /* one all-gather; one reduce-scatter or all-reduce */
    if (p->tp > 1) {
        if (w->parallel.sequence_parallel) {
            ag = st__step_coll_time(x, ST_COLL_ALL_GATHER, p->tp, 1, 1, 1, lc->tp_ag_bytes);
            other = st__step_coll_time(x, ST_COLL_REDUCE_SCATTER, p->tp, 1, 1, 1, lc->tp_bytes);
        } else {
            other = st__step_coll_time(x, ST_COLL_ALL_REDUCE, p->tp, 1, 1, 1, lc->tp_bytes);
        }
    }
    if (p->cp > 1) {
        /* K and V (st_llm_kv_pair_width: 2 kv_width, or MLA's K plus V), BF16 */
        double kv = 2.0 * (double)(w->seq_len / p->cp) * (double)p->mb *
                    (double)st_llm_kv_pair_width(w->model) / (double)p->tp * (double)p->cp;
        cp_unit = st__step_coll_time(x, ST_COLL_ALL_GATHER, p->cp, p->tp, p->tp, 1, kv);
    }
    /* The counts are the operator graph's (models/silicon/ops.c): what the layer's kernels need. */
    int recompute_all = w->parallel.recompute == ST_RECOMPUTE_FULL;
    double tp_fwd = tp_pass_s(p, lc->hide_fwd, lc->n_hide_fwd, lc->tp_ag_fwd,
                              lc->tp_colls_fwd - lc->tp_ag_fwd, ag, other);
    double tp_bwd = tp_pass_s(p, lc->hide_bwd, lc->n_hide_bwd, lc->tp_ag_bwd,
                              lc->tp_colls_bwd - lc->tp_ag_bwd, ag, other);
    double cp_fwd = cp_unit, cp_bwd = cp_unit;
    if (p->cp > 1 && w->parallel.cp_comm_overlap) {
        double s = st_gpu_overlap_slowdown(p->gpu, p->w->precision);
        cp_fwd = cp_exposed(cp_unit, lc->attn_fwd_s, p->cp, s);
        cp_bwd = cp_exposed(cp_unit, lc->attn_bwd_s, p->cp, s);
    }
    *mp_fwd_s = tp_fwd + cp_fwd;
    /* full recompute repeats the forward's collectives as they ran; selective's modules their
     * forward pairs, not hidden */
    double tp_re = recompute_all ? (lc->tp_colls_recompute ? tp_fwd : 0.0)
                                 : lc->tp_ag_recompute * ag +
                                       (lc->tp_colls_recompute - lc->tp_ag_recompute) * other;
    *mp_bwd_s = tp_bwd + tp_re +
                (recompute_all ? cp_bwd + cp_fwd : cp_bwd); /* 2 cp_unit without the overlap */
    *ep_a2a_s = 0;
    if (lc->ep_a2a_fwd) {
        /* Expert parallelism: every EP group of the stage (ep consecutive ranks) runs its
         * all-to-alls at once, counted whole, or beside the other micro-batch's compute under
         * the combined 1F1B schedule (ep_pair_s). */
        /* with expert tensor parallelism the EP group's ranks are etp apart (Megatron-Core's
         * expert rank order, etp innermost); the groups of the other etp offsets run at once
         * on other GPUs and are not simulated beside them */
        int64_t ep = w->parallel.ep, etp = w->parallel.etp > 1 ? w->parallel.etp : 1;
        int64_t groups = p->tp * p->cp * p->dp / (ep * etp);
        double a = ep_exchange_s(x, p, lc, groups);
        *ep_a2a_s = a;
        double fwd = lc->ep_a2a_fwd * a, bwd = lc->ep_a2a_bwd * a;
        if (w->parallel.ep_comm_overlap) {
            double f = ep_paired(p), half = ep_pair_exposed_s(p, lc, a) / 2;
            fwd = (1 - f) * fwd + f * half;
            bwd = (1 - f) * bwd + f * half;
        }
        *mp_fwd_s += fwd;
        *mp_bwd_s += bwd + lc->ep_a2a_recompute * a;
    }
    if (lc->etp_colls_fwd) {
        /* Expert tensor parallelism: the received rows gathered over etp consecutive ranks,
         * the experts' outputs reduce-scattered back, every such group of the stage at once */
        int64_t etp = w->parallel.etp, groups = p->tp * p->cp * p->dp / etp;
        double e =
            st__step_coll_time(x, ST_COLL_ALL_GATHER, etp, 1, groups, etp, lc->etp_bytes) +
            st__step_coll_time(x, ST_COLL_REDUCE_SCATTER, etp, 1, groups, etp, lc->etp_bytes);
        *mp_fwd_s += e;
        *mp_bwd_s += e * (lc->etp_colls_recompute ? 2 : 1);
    }
}

/* Activations sent between stages: one micro-batch's s*b*h values in BF16, split over the
 * tensor-parallel ranks (sequence parallelism, or Megatron's scatter/gather otherwise), with
 * every data-parallel replica sending at once. */
static double p2p_cost(st_step_ctx *x, const step_plan *p)
{
    if (p->pp < 2)
        return 0;
    const st_workload_cfg *w = p->w;
    double bytes = (double)(w->seq_len / p->cp) * (double)p->mb * (double)w->model->hidden * 2.0 /
                   (double)p->tp;
    int64_t stage = p->tp * p->cp * p->dp;
    return st__step_coll_time(x, ST_COLL_SEND_RECV, 2, stage, stage, 1, bytes);
}

/* An MoE model's terms of the plan: experts split over ep, not tp (expert tensor parallelism
 * 1), the rest over tp; and its first dense_layers layers dense: the dense MLP's operators, TP
 * collectives and parameters (over tp), no all-to-alls. */
static void moe_plan(st_step_ctx *x, int64_t mb, step_plan *p)
{
    const st_workload_cfg *w = p->w;
    int64_t ep = w->parallel.ep > 1 ? w->parallel.ep : 1;
    int64_t etp = w->parallel.etp > 1 ? w->parallel.etp : 1;
    double all = (double)w->model->experts * st_llm_expert_params(w->model);
    p->expert_params = all / (double)(ep * etp); /* each expert split over etp ranks */
    p->layer_params = (st_llm_layer_params(w->model) - all) / (double)p->tp + p->expert_params;
    p->emp = ep * etp;
    p->edp = p->tp * p->cp * p->dp / p->emp;
    p->dense = st_llm_dense_layers(w->model);
    if (p->dense <= 0)
        return;
    st_ops_layer_cost_kind(w, p->gpu, mb, 1, &p->lcd);
    p->dense_params = st_llm_dense_layer_params(w->model) / (double)p->tp;
    double none;
    model_parallel_costs(x, p, &p->lcd, &p->mpd_fwd_s, &p->mpd_bwd_s, &none);
}

/* Activation offload (parallel.offload_layers, Megatron-Core's cpu_offloading_num_layers): each
 * offloaded layer's activations go to host memory while the next layer's forward runs and come
 * back while the following layer's backward runs, over the GPU's host link (the node's
 * pcie_bw, else the GPU's: PCIe, or NVLink-C2C on Grace parts); a copy longer than the layer
 * it hides behind shows, per offloaded layer and micro-batch. The plan has pp = 1 and no
 * recomputation (models/silicon/plan_check.c). */
static void offload_cost(st_step_ctx *x, int64_t mb, step_plan *p)
{
    int64_t n = p->w->parallel.offload_layers;
    if (n <= 0)
        return;
    double bw = x->c->node.pcie_bw > 0 ? x->c->node.pcie_bw : x->c->gpu->pcie_bw;
    double copy = st_memory_layer_activations(p->w, mb) / bw;
    p->offload_f = (double)n * fmax(0, copy - layer_fwd_s(p, 0));
    p->offload_b = (double)n * fmax(0, copy - layer_bwd_s(p, 0));
}

/* Multi-token prediction (mtp_layers D): D modules after the last layer, each a layer of the
 * model's last kind (the MoE kind of an MoE model: DeepSeek-V3's MTP block is one) with its
 * collectives, and the operators around it (st_ops_mtp_forward); their parameters are the
 * layer's, two norms and the 2h x h projection over tp, and with pp > 1 and an untied
 * embedding a copy of the input embedding the modules share (models/silicon/parallel.c). */
static void mtp_plan(int64_t mb, step_plan *p)
{
    const st_workload_cfg *w = p->w;
    p->mtp = w->mtp_layers > 0 ? w->mtp_layers : 0;
    if (!p->mtp)
        return;
    double f, b, fl, d = (double)p->mtp, h = (double)w->model->hidden;
    st_ops_mtp_cost(w, p->gpu, mb, &f, &b, &fl);
    p->mtp_f = d * f;
    p->mtp_b = d * b;
    p->mtp_flops = d * fl;
    p->mtp_params =
        d * (p->layer_params + 2.0 * st_llm_norm_params(w->model) + 2.0 * h * h / (double)p->tp) +
        (p->pp > 1 && !w->model->tied_embeddings ? p->embed_params : 0);
}

static int make_plan(st_step_ctx *x, const st_workload_cfg *w, int64_t mb, double clock,
                     step_plan *p, st_err *err)
{
    const st_parallel_cfg *par = &w->parallel;
    memset(p, 0, sizeof *p);
    *p = (step_plan){.w = w,
                     .tp = par->tp,
                     .cp = par->cp,
                     .pp = par->pp,
                     .dp = par->dp,
                     .v = par->virtual_stages,
                     .mb = mb,
                     .layers = w->model->layers};
    p->chunks = p->pp * p->v;
    p->split = st_chunk_split_of(p->layers, par);
    /* The clock enters through the GPU the operators are timed on (st_gpu_sustained); the
     * collective memo keeps its key, since no collective time depends on the SM clock here. The
     * slowest of the job's GPUs (cluster.variability) sets every kernel's pace, as a clock
     * share of 1/straggle would. */
    p->straggle = st_straggler_factor(x->c->variability.gpu_speed_cv, w->gpus);
    p->mean_clock = clock > 0 && clock < 1 ? clock : 0;
    p->gpu_at = st_gpu_at(x->c->gpu, clock, p->straggle, &x->c->calib);
    p->gpu = &p->gpu_at;
    /* The batch-split rules are the plan's (models/silicon/plan_check.c), stated once. */
    st_plan_issue is;
    if (st_plan_check_batch(w, mb, &is, 1))
        return st_err_set(err, is.code, w->parallel.loc, "workload '%s': %s", w->name, is.msg);
    p->m = w->global_batch / (p->dp * mb);
    st_ops_layer_cost(w, p->gpu, mb, &p->lc);
    st_ops_edge_cost(w, p->gpu, mb, &p->embed_f, &p->embed_b, &p->head_f, &p->head_b);
    p->layer_params = st_llm_layer_params(w->model) / (double)p->tp;
    if (w->model->experts > 0)
        moe_plan(x, mb, p);
    p->embed_params = (double)w->model->vocab * (double)w->model->hidden / (double)p->tp;
    model_parallel_costs(x, p, &p->lc, &p->mp_fwd_s, &p->mp_bwd_s, &p->ep_a2a_s);
    p->p2p_s = p2p_cost(x, p);
    offload_cost(x, mb, p);
    mtp_plan(mb, p);
    /* Blocking sends (Megatron-LM's p2p_communication: batch_isend_irecv, then wait, on the
     * compute stream): a stage pairs its forward's send with the next backward's receive, and
     * its backward's send with the next forward's receive, and waits for each exchange, so
     * every chunk's forward and backward take one send longer; nothing is left in flight. */
    if (!w->parallel.overlap_p2p && p->pp > 1) {
        p->p2p_block = p->p2p_s;
        p->p2p_s = 0;
    }
    return 0;
}

/* Per-chunk forward and backward times of one micro-batch: its layers' kernels and
 * model-parallel collectives, the embedding on the first chunk, the output layer and loss on
 * the last, and under ZeRO-3 its gathers and reduce-scatters, whose share of the passes it also
 * writes to zero3[c] for the breakdown and whose own time to zero3_all[c] for the closed form. */
static void chunk_costs(st_step_ctx *x, const step_plan *p, double *fwd, double *bwd, double *zero3,
                        double *zero3_all)
{
    int sharded = p->w->parallel.zero >= 3 && p->dp * p->cp >= 2;
    for (int64_t c = 0; c < p->chunks; c++) {
        if (sharded) {
            zero3[c] = st__step_zero3_passes(x, p, c, &fwd[c], &bwd[c], &zero3_all[c]);
        } else {
            /* Its dense layers at the dense layer's cost, the rest at the MoE layer's. */
            double n = (double)(chunk_layers(p, c) - chunk_dense(p, c));
            double nd = (double)chunk_dense(p, c);
            zero3[c] = zero3_all[c] = 0;
            fwd[c] = n * layer_fwd_s(p, 0) + (c == 0 ? p->embed_f : 0) +
                     (c == p->chunks - 1 ? p->head_f : 0);
            bwd[c] = n * layer_bwd_s(p, 0) + (c == 0 ? p->embed_b : 0) +
                     (c == p->chunks - 1 ? p->head_b : 0);
            if (nd > 0) {
                fwd[c] += nd * layer_fwd_s(p, 1);
                bwd[c] += nd * layer_bwd_s(p, 1);
            }
        }
        if (c == p->chunks - 1 && p->mtp) { /* the MTP modules after the last layer */
            fwd[c] += (double)p->mtp * layer_fwd_s(p, 0) + p->mtp_f;
            bwd[c] += (double)p->mtp * layer_bwd_s(p, 0) + p->mtp_b;
        }
        fwd[c] += p->p2p_block + (c == 0 ? p->offload_f : 0); /* offload: pp = 1, one chunk */
        bwd[c] += p->p2p_block + (c == 0 ? p->offload_b : 0);
        /* With grad_accum: separate, every micro-batch's backward ends with a pass adding the
         * chunk's new bf16 gradients into the fp32 accumulator. */
        bwd[c] += st_ops_grad_accum_time(p->w, p->gpu, chunk_params(p, c));
    }
}

/* MFU, HFU and throughput from the step time (PaLM's definitions: model FLOPs per token,
 * attention included, over the dense peak of the precision used; HFU adds recomputation). */
static void rates(const step_plan *p, const st_cluster_cfg *c, st_step_result *out)
{
    const st_workload_cfg *w = p->w;
    /* one pool's view of a job whose pools split its batch unevenly: its step is this pool's
     * replicas', its work the whole batch's, each replica's recomputation its own share's */
    double share = w->split_batch > 0 ? (double)w->split_batch / (double)w->global_batch : 1;
    double gpus = (double)w->gpus, tokens = (double)w->global_batch * share * (double)w->seq_len;
    double model = st_llm_flops_per_token(w->model, w->seq_len) * tokens;
    double per_pass = p->lc.recompute_flops * (double)(p->layers - p->dense) +
                      p->lcd.recompute_flops * (double)p->dense;
    double recompute = per_pass * (double)p->m * (double)p->dp * (double)p->tp * (double)p->cp *
                       share; /* every GPU's share, summed */
    /* Multi-token prediction's modules run on the last stage's GPUs: work beyond the model's
     * FLOPs per token, in HFU as recomputation is, not in MFU. */
    double mtp = ((double)p->mtp * (p->lc.fwd_flops + p->lc.bwd_flops + p->lc.recompute_flops) +
                  p->mtp_flops) *
                 (double)p->m * (double)p->dp * (double)p->tp * (double)p->cp * share;
    /* a job across pools divides by its GPUs' mean peak: every rank runs at its slowest
     * type's pace, and the faster types' idle share is lost utilisation (pools.md) */
    double peak = (w->pool_gpus ? w->pool_peak : st_gpu_peak(c->gpu, w->precision)) * gpus;
    double t = out->step_time_s;
    out->mfu = model / (t * peak);
    out->hfu = (model + recompute + mtp) / (t * peak);
    out->tflops_per_gpu = model / gpus / t / 1e12;
    out->tokens_per_s = tokens / t;
}

/* One micro-batch's kernels on the stage of chunk `first` (its chunks first, first + pp, ...)
 * with the GPU at clock share `clock`: its layers of each kind, the embedding and the output
 * layer. */
static double stage_kernels(const step_plan *p, int64_t first, double clock)
{
    st_gpu_spec g = p->gpu_at;
    g.clock = clock;
    st_layer_cost lc, lcd;
    st_ops_layer_cost(p->w, &g, p->mb, &lc);
    st_ops_layer_cost_kind(p->w, &g, p->mb, 1, &lcd);
    double ef, eb, hf, hb, mtf = 0, mtb = 0, mfl, t = 0;
    st_ops_edge_cost(p->w, &g, p->mb, &ef, &eb, &hf, &hb);
    if (p->mtp)
        st_ops_mtp_cost(p->w, &g, p->mb, &mtf, &mtb, &mfl);
    for (int64_t c = first; c < p->chunks; c += p->pp) {
        double nd = (double)chunk_dense(p, c), n = (double)chunk_layers(p, c) - nd;
        t += n * (lc.fwd_s + lc.bwd_s + lc.recompute_s) +
             nd * (lcd.fwd_s + lcd.bwd_s + lcd.recompute_s) + (c == 0 ? ef + eb : 0) +
             (c == p->chunks - 1 ? hf + hb : 0);
        if (c == p->chunks - 1 && p->mtp)
            t += (double)p->mtp * (lc.fwd_s + lc.bwd_s + lc.recompute_s) + mtf + mtb;
    }
    return t;
}

/* The busiest stage's share of compute, model-parallel and ZeRO-3 time, for the breakdown.
 * The pipeline run sees each chunk's time as one block; the parts that are communication are
 * taken back out of the busiest stage's compute: its tensor- and context-parallel collectives
 * into tp_comm_s, its blocking sends into pp_comm_s, and its ZeRO-3 weight gathers and gradient
 * reduce-scatters (what they add to its passes, data-parallel traffic) into dp_comm_exposed_s,
 * which the caller has set to what is left after the pipeline. */
static void breakdown(const step_plan *p, const st_pipe_result *pr, const double *zero3,
                      st_step_result *out)
{
    double layers = 0, dense = 0, z3 = 0;
    for (int64_t c = pr->busiest; c < p->chunks; c += p->pp) {
        dense += (double)chunk_dense(p, c);
        layers += (double)(chunk_layers(p, c) - chunk_dense(p, c));
        z3 += zero3[c];
    }
    if (pr->busiest == p->pp - 1) /* the last stage: its MTP modules' layers too */
        layers += (double)p->mtp;
    /* The dense layers' collectives are the dense layer's. */
    double mp = (layers * (p->mp_fwd_s + p->mp_bwd_s) + dense * (p->mpd_fwd_s + p->mpd_bwd_s)) *
                (double)p->m;
    z3 *= (double)p->m;
    st_step_breakdown *b = &out->b;
    double blocked = p->p2p_block * 2.0 * (double)p->v * (double)p->m;
    b->tp_comm_s = fmin(mp, pr->compute_s);
    z3 = fmin(z3, pr->compute_s - b->tp_comm_s);
    blocked = fmin(blocked, pr->compute_s - b->tp_comm_s - z3);
    b->compute_s = pr->compute_s - b->tp_comm_s - z3 - blocked;
    b->dp_comm_exposed_s += z3;
    b->pp_comm_s = pr->p2p_exposed_s + blocked;
    b->bubble_s = fmax(0, pr->bubble_s - pr->p2p_exposed_s);
    /* What the busiest stage's kernels would take at the mean GPU's speed is compute; the rest
     * of the slowest GPU's kernel time (its compute-bound kernels at its clock; memory-bound
     * ones keep HBM's pace) is the others' wait for it. */
    if (p->straggle > 1) {
        double slow = stage_kernels(p, pr->busiest, p->gpu_at.clock);
        double kept = slow > 0 ? stage_kernels(p, pr->busiest, p->mean_clock) / slow : 1;
        b->straggler_s = fmax(0, b->compute_s * (1 - kept));
        b->compute_s -= b->straggler_s;
    }
}

void st_step_ctx_skip_closed_form(st_step_ctx *x)
{
    x->skip_closed = 1;
}

/* The enterprise AI-infrastructure guide's T_step = T_compute + T_comm - T_overlap: T_compute the
 * busiest stage's kernels (no bubble), T_comm its tensor-parallel time, ZeRO-3's gathers and
 * reduce-scatters (zero3_s) and the gradient all-reduce by the guide's 2(N-1)/N * S/B + alpha *
 * log2(N_nodes) (the collective model's closed form), T_overlap 0: the formula has no way to know
 * what hides behind what, which is what the simulation adds. */
static double guide_closed_form(st_step_ctx *x, const step_plan *p, const st_step_result *r,
                                double zero3_s)
{
    double dp = 0;
    int64_t n = p->dp * p->cp;
    /* A plan on the idle fabric is a function of its ranks and bytes alone: remembered by them,
     * as the collective times are (plans that differ in micro-batch or recomputation share it). */
    st_coll_memo_key k = {.op = ST_COLL_ALL_REDUCE,
                          .n = n,
                          .stride = p->tp,
                          .groups = 1,
                          .gstride = 1,
                          .bytes = chunk_params(p, 0) * (double)p->v * grad_bytes(p),
                          .place = x->place};
    if (n > 1 && !st_coll_memo_find(x->closed, &k, &dp)) {
        /* Planning starts nothing, so one idle fabric serves every step of the context. */
        if (!x->planner)
            x->planner = st_fabsim_new(x->topo, x->c);
        int64_t *gpus = st_xmalloc((size_t)n * sizeof *gpus);
        for (int64_t i = 0; i < n; i++)
            gpus[i] = st__step_gpu_of(x, i * p->tp);
        st_coll_spec s = {.op = ST_COLL_ALL_REDUCE, .gpus = gpus, .n = n, .bytes = k.bytes};
        st_coll_plan plan;
        st_err err = {0};
        if (st_coll_plan_of(st_fabsim_coll(x->planner), &s, &plan, &err) == 0)
            dp = plan.closed_s;
        free(gpus);
        st_coll_memo_put(x->closed, &k, dp);
    }
    return r->b.compute_s + r->b.tp_comm_s + zero3_s + r->b.optimizer_s + dp;
}

/* When every stage's gradient reduction is over after the pipeline run pr (the step waits for
 * the last): each stage's end, the later of its reduction's and its slowed last backward's, in
 * stage_end[0..pp), and the latest of them and the pipeline's makespan returned. */
static double reduce_ends(st_step_ctx *x, const step_plan *p, const st_pipe_result *pr,
                          const double *bwd, double *stage_end)
{
    double end = pr->makespan_s;
    for (int64_t s = 0; s < p->pp; s++) {
        double compute_end, reduced = st__step_stage_reduce_end(x, p, pr, bwd, s, &compute_end);
        stage_end[s] = fmax(reduced, compute_end);
        end = fmax(end, stage_end[s]);
    }
    return end;
}

static void tail_span(st_pipe_trace *t, int64_t stage, int stream, const char *name, double start_s,
                      double dur_s)
{
    if (dur_s <= 0)
        return;
    t->spans = st_xgrow(t->spans, sizeof *t->spans, t->n + 1, &t->cap);
    st_pipe_span *sp = &t->spans[t->n++];
    memset(sp, 0, sizeof *sp);
    sp->stage = stage;
    sp->stream = stream;
    snprintf(sp->name, sizeof sp->name, "%s", name);
    sp->start_s = start_s;
    sp->dur_s = dur_s;
}

/* The step after the pipeline, in the order Megatron-LM's finalize_model_grads and optimizer
 * step run it (megatron/core/distributed/finalize_model_grads.py): each stage's gradient
 * reduction left over after its last backward, then, once every stage is done, the tied
 * embedding's all-reduce between the first and last stages, the optimizer on every stage, and
 * the distributed optimizer's exposed weight all-gather; then the waits the step adds on every
 * stage though no kernel of its own runs in them: the cluster's calibrated per-step overhead
 * and the wait for ranks detoured by system noise. then[] = {embedding sync, optimizer, weight
 * all-gather, overhead, noise} seconds; the last span ends at the step time. */
static void trace_tail(st_pipe_trace *t, const step_plan *p, double makespan_s,
                       const double *stage_end, const double then[5])
{
    double end = makespan_s;
    for (int64_t s = 0; s < p->pp; s++) {
        tail_span(t, s, ST_PIPE_STREAM_DP, "DP grad reduce", makespan_s, stage_end[s] - makespan_s);
        end = fmax(end, stage_end[s]);
    }
    for (int64_t s = 0; s < p->pp; s++) {
        if (s == 0 || s == p->pp - 1)
            tail_span(t, s, ST_PIPE_STREAM_DP, "embedding all-reduce", end, then[0]);
        tail_span(t, s, 0, "optimizer", end + then[0], then[1]);
        tail_span(t, s, ST_PIPE_STREAM_DP, "DP weight all-gather", end + then[0] + then[1],
                  then[2]);
        double waits = end + then[0] + then[1] + then[2];
        tail_span(t, s, 0, "step overhead", waits, then[3]);
        tail_span(t, s, 0, "system noise wait", waits + then[3], then[4]);
    }
}

int st_step_run(st_step_ctx *x, const st_workload_cfg *w, int64_t microbatch, st_step_result *out,
                st_pipe_trace *trace, st_err *err)
{
    return st_step_run_at(x, w, microbatch, 1.0, out, trace, err);
}

int st_step_run_at(st_step_ctx *x, const st_workload_cfg *w, int64_t microbatch, double clock,
                   st_step_result *out, st_pipe_trace *trace, st_err *err)
{
    step_plan p;
    memset(out, 0, sizeof *out);
    int rc = make_plan(x, w, microbatch, clock, &p, err);
    if (rc)
        return rc;
    double *fwd = st_xcalloc((size_t)p.chunks, sizeof *fwd);
    double *bwd = st_xcalloc((size_t)p.chunks, sizeof *bwd);
    double *zero3 = st_xcalloc((size_t)p.chunks, sizeof *zero3);
    double *zero3_all = st_xcalloc((size_t)p.chunks, sizeof *zero3_all);
    chunk_costs(x, &p, fwd, bwd, zero3, zero3_all);
    st_pipe_spec spec = {
        .pp = p.pp, .v = p.v, .m = p.m, .fwd_s = fwd, .bwd_s = bwd, .p2p_s = p.p2p_s};
    st_pipe_result pr = {0};
    rc = st_pipe_simulate(&spec, &pr, trace);
    if (rc == ST_ELIMIT) {
        st_err_set(err, rc, w->loc,
                   "workload '%s': one step's tasks and sends take over %.3g years together, "
                   "more than the pipeline schedule represents (4e18 ns); a latency, rate or "
                   "peak this far from real hardware cannot be forecast",
                   w->name, ST_PIPE_MAX_WORK_NS * 1e-9 / (365 * 86400.0));
    } else if (rc && p.m > 0 && p.pp * p.v > INT32_MAX / 2 / p.m) { /* pipeline.c's task bound */
        st_err_set(err, ST_ELIMIT, w->loc,
                   "workload '%s': %lld micro-batches per step through %lld pipeline chunks are "
                   "more tasks than the pipeline schedule holds (2^30)",
                   w->name, (long long)p.m, (long long)(p.pp * p.v));
    } else if (rc) {
        st_err_set(err, rc, w->parallel.loc, "workload '%s': the pipeline cannot run this plan",
                   w->name);
    } else {
        double *stage_end = st_xcalloc((size_t)p.pp, sizeof *stage_end);
        double end = reduce_ends(x, &p, &pr, bwd, stage_end);
        double gather = st__step_param_gather_s(x, &p, &pr);
        double dp_after = end - pr.makespan_s + gather;
        out->b.dp_comm_exposed_s = dp_after;
        out->b.optimizer_s = st_ops_optimizer_time(w, p.gpu);
        double sync = st__step_embedding_sync_s(x, &p);
        breakdown(&p, &pr, zero3, out);
        out->b.pp_comm_s += sync; /* traffic between pipeline stages, like the sends */
        out->microbatch = microbatch;
        out->micro_per_step = p.m;
        /* the cluster's own per-step overhead (data loading, logging, launch gaps), where its
         * calibration fitted one */
        out->b.overhead_s = x->c->calib.enabled ? x->c->calib.step_overhead_s : 0;
        out->b.noise_s = st__step_noise_s(&p, x->c, pr.busiest, out);
        if (trace) /* after the noise, which the breakdown gives: its span is the tail's last */
            trace_tail(
                trace, &p, pr.makespan_s, stage_end,
                (double[5]){sync, out->b.optimizer_s, gather, out->b.overhead_s, out->b.noise_s});
        free(stage_end);
        out->step_time_s = pr.makespan_s + sync + dp_after + out->b.optimizer_s +
                           out->b.overhead_s + out->b.noise_s;
        if (!isfinite(out->step_time_s) || out->step_time_s * 1e9 > 4.0e18)
            rc = st_err_set(err, ST_ELIMIT, w->loc,
                            "workload '%s': one step would last past the simulated clock's "
                            "range (about 127 years): its collectives cannot finish at this NIC "
                            "rate and link latency",
                            w->name);
        rates(&p, x->c, out);
        double zero3_s = 0; /* the busiest stage's ZeRO-3 collectives, none hidden */
        for (int64_t c = pr.busiest; c < p.chunks; c += p.pp)
            zero3_s += zero3_all[c] * (double)p.m;
        out->closed_form_s = x->skip_closed ? NAN : guide_closed_form(x, &p, out, zero3_s);
    }
    st_pipe_result_release(&pr);
    free(fwd);
    free(bwd);
    free(zero3);
    free(zero3_all);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}
