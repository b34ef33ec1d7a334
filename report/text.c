/* The human summary of a run: what a planner reads first on the terminal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/cost/cost.h"
#include "models/plant/plant.h"
#include "models/reliability/interval.h"
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "models/silicon/ub_cfg.h"
#include "report/figures.h"
#include "report/report.h"
#include "sim/strfmt.h"
#include "sim/units.h"
#include "sim/xalloc.h"

static const char *fmt(double v, st_dim d, char *buf, size_t n)
{
    if (d == ST_DIM_MONEY) /* grouped, as every other format shows money: 2,221,000 USD */
        st_fig_number_text(ST_FU_MONEY, v, buf, n);
    else
        st_unit_format(v, d, buf, n);
    return buf;
}

/* The step model's error band of the step time and MFU (models/forecast/band.h). */
static void band_text(FILE *out, const st_forecast *f)
{
    const st_step_result *r = &f->step;
    char basis[160];
    st_band_basis(&f->band, f->band_key, basis, sizeof basis);
    fprintf(out, "            error band %.4g-%.4g s, MFU %.4g-%.4g%% (%.0f%%, from %s)\n",
            r->step_time_s * f->band.lo, r->step_time_s * f->band.hi, 100 * r->mfu / f->band.hi,
            100 * r->mfu / f->band.lo, 100 * ST_BAND_LEVEL, basis);
}

static void step_text(FILE *out, const st_forecast *f, int explain)
{
    const st_step_result *r = &f->step;
    const st_step_breakdown *b = &r->b;
    char tok[40]; /* 6,457,000 tokens/s, not 6.457e+06 */
    st_fig_number_text(ST_FU_NUMBER, r->tokens_per_s, tok, sizeof tok);
    fprintf(out, "  step      %.4g s: MFU %.4g%%, HFU %.4g%%, %.4g TFLOP/s per GPU, %s tokens/s\n",
            r->step_time_s, r->mfu * 100, r->hfu * 100, r->tflops_per_gpu, tok);
    if (f->has_band)
        band_text(out, f);
    char t[6][40]; /* each term in the unit it reads best in, as the other formats: 381 us */
    fprintf(out,
            "            compute %s, TP/CP comm %s, PP comm %s, bubble %s,\n"
            "            DP comm exposed %s, optimizer %s (%lld micro-batch%s per step)\n",
            fmt(b->compute_s, ST_DIM_TIME, t[0], 40), fmt(b->tp_comm_s, ST_DIM_TIME, t[1], 40),
            fmt(b->pp_comm_s, ST_DIM_TIME, t[2], 40), fmt(b->bubble_s, ST_DIM_TIME, t[3], 40),
            fmt(b->dp_comm_exposed_s, ST_DIM_TIME, t[4], 40),
            fmt(b->optimizer_s, ST_DIM_TIME, t[5], 40), (long long)r->micro_per_step,
            r->micro_per_step == 1 ? "" : "es");
    if (b->straggler_s > 0)
        fprintf(out, "            wait for the slowest GPU %s (cluster.variability)\n",
                fmt(b->straggler_s, ST_DIM_TIME, t[0], 40));
    if (b->noise_s > 0)
        fprintf(out, "            wait for ranks detoured by system noise %s (%s)\n",
                fmt(b->noise_s, ST_DIM_TIME, t[0], 40), "cluster.variability.noise");
    if (b->noise_s > 0 && explain)
        fprintf(out,
                "  explain   noise: %lld stretches of %.3g s, each ended by a collective over %lld "
                "ranks:\n            %.4g s for every group at its own, %.4g s more for the "
                "slowest of %lld\n",
                (long long)r->noise.stretches, r->noise.tau_s, (long long)r->noise.group,
                r->noise.mean_s, r->noise.spread_s, (long long)r->noise.groups);
    if (b->overhead_s > 0)
        fprintf(out, "            per-step overhead %.4g s (cluster.calibration)\n", b->overhead_s);
    if (explain)
        fprintf(
            out,
            "  explain   closed form T_step = T_compute + T_comm - T_overlap = %.4g s (compute, "
            "TP and\n            ZeRO-3 comm, optimizer, and the DP all-reduce by 2(N-1)/N * "
            "S/B + alpha *\n            log2 N, no overlap)\n            simulated / closed "
            "form = %.3f\n",
            r->closed_form_s, r->closed_form_s > 0 ? r->step_time_s / r->closed_form_s : 0);
}

/* A job across pools: its replicas' step on each of its pools' types alone, the slowest of which
 * every rank waits for (docs/models/pools.md, "A job across pools"). */
static void pace_text(FILE *out, const st_forecast *f, const st_cluster_cfg *c, int explain)
{
    const st_workload_cfg *w = f->w;
    fprintf(out, "  pace      each pool's replicas alone:");
    for (int k = 0, n = 0; k < c->n_pools; k++)
        if (w->pool_gpus[k])
            fprintf(out, "%s %s %.4g s", n++ ? "," : "", c->pools[k].name, f->pool_step_s[k]);
    fprintf(out, "; every rank waits for %s\n", c->pools[f->pace_pool].name);
    if (!explain || !f->has_step)
        return;
    double peak = 0; /* every GPU at its own type's dense peak (pools.md, "MFU counts ...") */
    for (int k = 0; k < c->n_pools; k++)
        peak += (double)w->pool_gpus[k] * st_gpu_peak(c->pools[k].gpu, w->precision);
    double flops = f->mem.flops_per_token * (double)w->global_batch * (double)w->seq_len;
    fprintf(out,
            "  explain   MFU = F / (T x sum_k n_k P_k) = %.4g FLOP / (%.4g s x %.4g FLOP/s) = "
            "%.1f%%,\n            T the placed step of its pacing pool's replicas, P_k each "
            "type's dense peak\n",
            flops, f->step.step_time_s, peak, 100 * f->step.mfu);
}

/* One row of the replicas' table: mean, its interval (none from one replica) and percentiles,
 * all times scale. */
static void stat_text(FILE *out, const char *what, const st_life_stat *st, int64_t n, double scale)
{
    char ci[48] = "-";
    if (n >= 2)
        snprintf(ci, sizeof ci, "%.4g to %.4g", st->lo * scale, st->hi * scale);
    fprintf(out, "            %-14s %8.4g  %-19s %8.4g %8.4g %8.4g %8.4g\n", what, st->mean * scale,
            ci, st->p10 * scale, st->p50 * scale, st->p90 * scale, st->p99 * scale);
}

static void replicas_text(FILE *out, const st_life_summary *sm)
{
    if (sm->replicas >= 2)
        fprintf(out,
                "  replicas  %s lives: the mean, the 95%% CI of the mean, and percentiles "
                "of one life\n",
                st_fig_plain((double)sm->replicas).s);
    else
        fprintf(out, "  replicas  1 life: no confidence interval from one sample; its percentiles "
                     "are its own figures\n");
    fprintf(out, "            %-14s %8s  %-19s %8s %8s %8s %8s\n", "", "mean", "95% CI of mean",
            "P10", "P50", "P90", "P99");
    stat_text(out, "wall (days)", &sm->wall_s, sm->replicas, 1 / 86400.0);
    stat_text(out, "goodput (%)", &sm->goodput, sm->replicas, 100);
    stat_text(out, "interruptions", &sm->interruptions, sm->replicas, 1);
    stat_text(out, "lost work (h)", &sm->lost_work_s, sm->replicas, 1 / 3600.0);
}

/* Where the life above sits among the replicas' (it is replica 0 of them, models/forecast/
 * life.c): one draw of the failures, which a reader takes for the forecast unless told that,
 * on Llama 3 405B's example, its wall falls below the replicas' P10. */
static void life_rank_text(FILE *out, double wall_s, const st_life_summary *sm)
{
    const st_life_stat *w = &sm->wall_s;
    const char *where = wall_s < w->p10   ? "below their P10"
                        : wall_s > w->p90 ? "above their P90"
                                          : "between their P10 and P90";
    fprintf(out, "            one life: replica 0 of the %s below, its wall %s\n",
            st_fig_plain((double)sm->replicas).s, where);
}

/* Which rule set an `every: auto` interval, and how many steps it is. */
static const char *auto_text(const st_forecast *f, char *buf, size_t n)
{
    static const char *const rule[] = {"Daly", "commit time", "one step"};
    if (!f->w->checkpoint.every_auto)
        return "";
    if (!(f->interval_s > 0))
        return " (auto: nothing fails)";
    if (f->auto_rule == ST_AUTO_STEP)
        return " (auto: one step)";
    double steps = round(f->interval_s / f->eff_step_s);
    snprintf(buf, n, " (auto: %s, %.0f step%s)", rule[f->auto_rule], steps, steps == 1 ? "" : "s");
    return buf;
}

/* A job's checkpoints: mode, cadence and its rule, their costs, writers and tier load; with
 * explain, the optimum intervals. */
static void ckpt_text(FILE *out, const st_forecast *f, int explain)
{
    char a[32], b[32], c[32], d[32]; /* times as every report writes one: 5.419 ms, not s */
    const st_ckpt_cost *k = &f->ckpt;
    fprintf(out, "  saves     %s every %s%s: stall %s, restorable after %s, restore %s\n",
            st_ckpt_mode_names[f->w->checkpoint.mode], fmt(f->interval_s, ST_DIM_TIME, a, sizeof a),
            auto_text(f, (char[64]){0}, 64), fmt(k->stall_s, ST_DIM_TIME, b, sizeof b),
            fmt(k->commit_s, ST_DIM_TIME, c, sizeof c),
            fmt(k->restore_s, ST_DIM_TIME, d, sizeof d));
    fprintf(out, "            %s writer%s of %s; pre-flight dump (size / tier write) %s\n",
            st_fig_plain((double)k->writers).s, st_plural_s(k->writers),
            fmt(k->shard_bytes, ST_DIM_BYTES, a, sizeof a),
            fmt(k->dump_s, ST_DIM_TIME, b, sizeof b));
    if (f->levels.mem_every_s > 0)
        fprintf(out,
                "            in memory every %s (%.0f step%s, peer copies %lld): stall %s, "
                "restore %s\n",
                fmt(f->levels.mem_every_s, ST_DIM_TIME, a, sizeof a),
                round(f->levels.mem_every_s / f->eff_step_s),
                round(f->levels.mem_every_s / f->eff_step_s) == 1 ? "" : "s",
                (long long)f->levels.replicas, fmt(f->levels.mem_stall_s, ST_DIM_TIME, c, sizeof c),
                fmt(f->levels.mem_restore_s, ST_DIM_TIME, d, sizeof d));
    if (f->load.period_s > 0) {
        char wear[64] = "no flash wear charged (rented storage)", pct[32]; /* run_cost.c */
        if (f->levels.usd_per_day > 0 || !f->has_cost)
            snprintf(wear, sizeof wear, "%.4g USD/day of flash wear", f->levels.usd_per_day);
        fprintf(out, "            write load %s/day while training: %s of tier '%s' write, %s\n",
                fmt(f->load.bytes_per_day, ST_DIM_BYTES, a, sizeof a),
                (st_unit_percent(f->load.write_utilization, pct, sizeof pct), pct), f->load.tier,
                wear);
    }
    if (explain && f->young_interval_s > 0)
        fprintf(out,
                "  explain   optimum intervals for d = %.4g s, M = %s: Daly %s, Young "
                "sqrt(2 d M) %s\n",
                f->levels.cost_s, fmt(f->levels.disk_mtbf_s, ST_DIM_TIME, a, sizeof a),
                fmt(f->daly_interval_s, ST_DIM_TIME, b, sizeof b),
                fmt(f->young_interval_s, ST_DIM_TIME, (char[32]){0}, 32));
}

/* When the job ran in the cluster run, and what its preemptions, neighbours and failures did. */
static void runs_text(FILE *out, const st_forecast *f)
{
    char a[32], b[32];
    fprintf(out, "  runs      from t = %s (waited %s)", fmt(f->start_s, ST_DIM_TIME, a, sizeof a),
            fmt(f->wait_s, ST_DIM_TIME, b, sizeof b));
    if (f->has_end)
        fprintf(out, ", ends at t = %s", fmt(f->end_s, ST_DIM_TIME, a, sizeof a));
    else
        fprintf(out, ", still running at the horizon");
    /* the life above is the job alone on its GPUs; the cluster run's preemptions and neighbours
     * stretch it, so say by how much where they did */
    double ran = f->end_s - f->start_s;
    if (f->has_end && fabs(ran - f->life.wall_s) > 1e-6 * f->life.wall_s)
        fprintf(out, " (ran %s, %s alone)", fmt(ran, ST_DIM_TIME, a, sizeof a),
                fmt(f->life.wall_s, ST_DIM_TIME, b, sizeof b));
    if (f->preemptions > 0)
        fprintf(out, ", preempted %s time%s (%s of saves and restores)",
                st_fig_plain((double)f->preemptions).s, st_plural_s(f->preemptions),
                fmt(f->preempted_s, ST_DIM_TIME, b, sizeof b));
    if (f->slowest_rate > 0 && f->slowest_rate < 1)
        fprintf(out, ", at worst slowed to %.1f%% by its neighbours' traffic",
                f->slowest_rate * 100);
    if (f->interruptions > 0)
        fprintf(out, ", interrupted %s time%s by cluster failures (%s of work lost)",
                st_fig_plain((double)f->interruptions).s, st_plural_s(f->interruptions),
                fmt(f->lost_work_s, ST_DIM_TIME, b, sizeof b));
}

/* Ingest, checkpoints, failures and the whole run (st_forecast_life). */
static void life_text(FILE *out, const st_forecast *f, int explain, int failures_stated)
{
    const st_life_result *l = &f->life;
    char a[32], b[32];
    if (f->ingest.need_bps > 0)
        fprintf(out, "  ingest    needs %s, gets %s%s\n",
                fmt(f->ingest.need_bps, ST_DIM_BANDWIDTH, a, sizeof a),
                fmt(f->ingest.got_bps, ST_DIM_BANDWIDTH, b, sizeof b),
                f->ingest.slowdown > 1 ? ": INGEST-BOUND, the step slows" : "");
    if (f->ingest.slowdown > 1)
        fprintf(out, "            step %.4g s -> %.4g s (x%.3f)\n", f->step.step_time_s,
                f->eff_step_s, f->ingest.slowdown);
    if (f->has_ckpt)
        ckpt_text(out, f, explain);
    char planned[192] = "", slow[96] = "";
    if (l->slow > 0)
        snprintf(slow, sizeof slow, "%s%s slow-node exclusions", l->planned > 0 ? ", " : "",
                 st_fig_plain((double)l->slow).s);
    if (l->planned > 0 || l->slow > 0) /* no planned: " (N slow-node exclusions)" alone */
        snprintf(planned, sizeof planned, " (%s%s%s)",
                 l->planned > 0 ? st_fig_plain((double)l->planned).s : "",
                 l->planned > 0 ? " planned" : "", slow);
    /* without a failures: section no failure is drawn: "0 interruptions" read as a forecast
       that the cluster never fails (a plausibility review's find) */
    fprintf(out,
            "  life      %s step%s: %s wall, goodput %.2f%%, %s interruption%s%s, %s of work "
            "lost%s\n",
            st_fig_plain((double)f->steps).s, st_plural_s(f->steps),
            fmt(l->wall_s, ST_DIM_TIME, a, sizeof a), l->goodput * 100,
            st_fig_plain((double)l->interruptions).s, st_plural_s(l->interruptions), planned,
            fmt(l->lost_work_s, ST_DIM_TIME, b, sizeof b),
            failures_stated ? "" : " (no failure stated, so none is drawn)");
    if (f->summary.replicas >= 2)
        life_rank_text(out, l->wall_s, &f->summary);
    if (f->has_spares)
        fprintf(out, "            of the downtime, %s waiting for a spare node (%s on hand)\n",
                fmt(l->spare_wait_s, ST_DIM_TIME, a, sizeof a), st_fig_plain((double)f->spares).s);
    if (f->has_band) {
        char range[96]; /* the wall's own unit for both ends: "18.43 h to 1.238 d" read as a
                           jump, and "0.768 to 1.238 d" beside "23.4 h wall" as another figure */
        st_unit_format_range(f->wall_band[0], f->wall_band[1], l->wall_s, ST_DIM_TIME, range,
                             sizeof range);
        fprintf(out, "            wall %s (%.0f%%: the step's error band%s)\n", range,
                100 * ST_BAND_LEVEL, f->summary.replicas >= 2 ? " with the replicas' spread" : "");
    }
    runs_text(out, f);
    fprintf(out, "\n");
    if (f->summary.replicas >= 1)
        replicas_text(out, &f->summary);
}

/* " (layernorm, moe_act)": the recompute modules a plan names, in Megatron-Core's spelling. */
static void modules_text(unsigned mask, char *buf, size_t cap)
{
    size_t used = 0;
    for (int m = 0; st_recompute_module_names[m] && used < cap; m++)
        if ((mask >> m) & 1u) {
            int k = snprintf(buf + used, cap - used, "%s%s", used ? ", " : " (",
                             st_recompute_module_names[m]);
            used += k > 0 ? (size_t)k : 0;
        }
    if (used && used < cap)
        snprintf(buf + used, cap - used, ")");
}

/* What the job's `software:` row leaves in effect (scenarios/software.h), so that a planner sees
 * which kernel and overlaps the stack stood for; the plan line above gives the rest. */
static void software_text(FILE *out, const st_workload_cfg *w)
{
    const st_parallel_cfg *p = &w->parallel;
    fprintf(out, "  software  %s: attention %s, gradient reduce %s%s%s%s%s\n", w->software,
            st_attention_names[w->attention], p->grad_bf16 ? "bf16" : "fp32",
            p->overlap_grad_reduce ? " overlapped" : " after backward",
            p->overlap_param_gather && p->zero >= 1 ? ", weight gather overlapped" : "",
            p->tp_comm_overlap && p->tp > 1 ? ", TP communication overlapped" : "",
            p->overlap_p2p ? "" : ", blocking pipeline sends");
}

static void job_text(FILE *out, const st_cluster_cfg *c, const st_forecast *f, int explain,
                     int failures_stated)
{
    static const char *const recipe[][2] = {
        {" (delayed scaling)", " (delayed scaling, FP8 weights)"},
        {" (current scaling)", " (current scaling, FP8 weights)"},
        {" (MXFP8)", " (MXFP8, FP8 weights)"}};
    const st_workload_cfg *w = f->w;
    const st_parallel_cfg *p = &w->parallel;
    const st_memory *m = &f->mem;
    char a[32], b[32];
    fprintf(out, "\njob %s: %s, %.2f B parameters, %s GPU%s", w->name,
            w->model->name ? w->model->name : "custom model", m->params / 1e9,
            st_fig_plain((double)w->gpus).s, st_plural_s(w->gpus));
    if (c->n_pools > 0 && !w->pool_gpus) /* its pool's type: every figure below is that type's */
        fprintf(out, " of pool %s (%s)", c->pools[w->pool].name, c->pools[w->pool].gpu->name);
    for (int k = 0, n = 0; w->pool_gpus && k < c->n_pools; k++) /* a job across pools */
        if (w->pool_gpus[k]) {
            fprintf(out, "%s %lld of pool %s (%s", n++ ? " +" : ":", (long long)w->pool_gpus[k],
                    c->pools[k].name, c->pools[k].gpu->name);
            if (f->pool_batch) /* an uneven split: its replicas' share of the batch */
                fprintf(out, ", %lld sequences a step", (long long)f->pool_batch[k]);
            fputc(')', out);
        }
    if (w->pool_gpus)
        fprintf(out, ", paced by %s", c->pools[f->pace_pool].name);
    fputc('\n', out);
    char vs[64] = "";
    if (p->virtual_stages > 1)
        snprintf(vs, sizeof vs, " (interleaved, %lld chunks per stage)",
                 (long long)p->virtual_stages);
    char ep[256] = ""; /* only a mixture-of-experts model has expert parallelism and routing */
    char cf[96] = "";  /* token dropping, where the workload states a capacity */
    if (w->model->experts > 0 && w->capacity_factor > 0)
        snprintf(cf, sizeof cf, "capacity factor %.3g%s: the busiest rank %.3gx the mean rows",
                 w->capacity_factor, w->pad_to_capacity ? " padded" : "", st_moe_imbalance(w));
    char et[32] = ""; /* expert tensor parallelism, where the plan has it */
    if (w->model->experts > 0 && p->etp > 1)
        snprintf(et, sizeof et, ", etp %lld", (long long)p->etp);
    char disp[32] = ""; /* a dispatcher other than Megatron-Core's all-to-all */
    if (p->moe_dispatcher != ST_DISP_ALLTOALL)
        snprintf(disp, sizeof disp, "; %s dispatcher", st_moe_dispatcher_names[p->moe_dispatcher]);
    if (w->model->experts > 0 && p->ep > 1) /* one rank of every expert: nothing unequal */
        snprintf(ep, sizeof ep, ", ep %lld%s (routing imbalance %.3g%s%s%s%s)", (long long)p->ep,
                 et, st_moe_routing(w), w->routing_imbalance_given ? "" : ", default",
                 *cf ? "; " : "", cf, disp);
    else if (w->model->experts > 0)
        snprintf(ep, sizeof ep, ", ep 1%s%s%s%s", et, *cf ? " (" : "", cf, *cf ? ")" : "");
    fprintf(out,
            "  plan      tp %lld, cp %lld, pp %lld%s, dp %lld%s, zero %d, micro-batch %lld%s\n",
            (long long)p->tp, (long long)p->cp, (long long)p->pp, vs, (long long)p->dp, ep, p->zero,
            (long long)f->microbatch, p->microbatch ? "" : " (auto)");
    char cu[ST_CUDNN_TEXT] = ""; /* an older cuDNN release's sweep, where the workload states it */
    if (w->cudnn_release > 0)
        st_cudnn_text(w->cudnn_release, cu);
    char mods[128] = ""; /* the modules selective recompute repeats, where the plan names them */
    if (p->recompute == ST_RECOMPUTE_SELECTIVE && p->recompute_modules)
        modules_text(p->recompute_modules, mods, sizeof mods);
    int tpo = p->tp_comm_overlap && p->tp > 1, ub = tpo && p->tp_comm_overlap_cfg > 0;
    fprintf(out,
            "            seq %lld, global batch %lld, %s%s, recompute %s%s%s%s%s%s%s%s%s%s%s\n",
            (long long)w->seq_len, (long long)w->global_batch, st_precision_names[w->precision],
            w->precision == ST_PREC_FP8 ? recipe[w->fp8_recipe][w->fp8_param_gather != 0] : "",
            st_recompute_names[p->recompute], mods, p->adam_bf16 ? ", Adam moments bf16" : "",
            p->sequence_parallel ? ", sequence parallel" : "", tpo ? ", TP comm overlap" : "",
            ub ? " (" : "", ub ? st_ub_cfg_names[p->tp_comm_overlap_cfg] : "", ub ? ")" : "",
            p->cp_comm_overlap && p->cp > 1 ? ", CP comm overlap" : "", *cu ? ", cuDNN " : "", cu);
    if (w->software)
        software_text(out, w);
    fprintf(out, "  memory    per GPU on the most loaded pipeline stage:\n");
    for (int t = 0; t < ST_MEM__COUNT; t++)
        if (t != ST_MEM_RESERVED || m->term[t] > 0) /* none counted: not shown as zero */
            fprintf(out, "            %-17s %10s\n", st_mem_term_name((st_mem_term)t),
                    fmt(m->term[t], ST_DIM_BYTES, a, sizeof a));
    fprintf(out, "            %-17s %10s of %s: %s\n", "total",
            fmt(m->total, ST_DIM_BYTES, a, sizeof a), fmt(m->capacity, ST_DIM_BYTES, b, sizeof b),
            m->fits ? "fits" : "DOES NOT FIT");
    if (!m->fits)
        fprintf(out, "            over by %s; the %s term is where it overflows\n",
                fmt(m->overflow_bytes, ST_DIM_BYTES, a, sizeof a),
                st_mem_term_name((st_mem_term)m->overflow_term));
    double fpt = m->flops_per_token;
    fprintf(out, "  compute   %.4g %s per token (model FLOPs, PaLM definition)\n",
            fpt >= 1e12 ? fpt / 1e12 : fpt / 1e9, fpt >= 1e12 ? "TFLOP" : "GFLOP");
    fprintf(out, "  checkpoint %s (weights and optimizer states)\n",
            fmt(m->checkpoint_bytes, ST_DIM_BYTES, a, sizeof a));
    if (f->has_step)
        step_text(out, f, explain);
    if (f->pool_step_s)
        pace_text(out, f, c, explain);
    if (f->has_life)
        life_text(out, f, explain, failures_stated);
}

/* A collective workload: what ran, how long it took with its neighbours, and what it would
 * take alone; --explain adds the closed form T = 2(N-1)/N * S/B + alpha * log2(N_nodes) of the
 * enterprise AI-infrastructure guide the project follows, and its inputs. */
static void coll_text(FILE *out, const st_coll_result *r, int shared, int explain)
{
    const st_workload_cfg *w = r->w;
    const st_collective_cfg *cc = &w->collective;
    char size[32], alg[32], bus[32], t[4][32];
    fprintf(out, "\njob %s: %s of %s on %lld GPUs (GPUs %lld-%lld), %s, %s, %d channel%s\n",
            w->name, st_coll_op_name((st_coll_op)cc->op),
            fmt(cc->size_bytes, ST_DIM_BYTES, size, sizeof size), (long long)w->gpus,
            (long long)r->first_gpu, (long long)(r->first_gpu + w->gpus - 1),
            st_coll_algo_name(r->plan.algo), st_coll_proto_name(r->plan.proto), r->plan.channels,
            st_plural_s(r->plan.channels));
    fprintf(out, "  time      %s per iteration (%lld), from %s to %s\n",
            fmt(r->time_s, ST_DIM_TIME, t[0], sizeof t[0]), (long long)cc->iterations,
            fmt(r->start_s, ST_DIM_TIME, t[1], sizeof t[1]),
            fmt(r->end_s, ST_DIM_TIME, t[2], sizeof t[2]));
    fprintf(out, "  bandwidth algbw %s, busbw %s (nccl-tests definitions)\n",
            fmt(r->algbw, ST_DIM_BANDWIDTH, alg, sizeof alg),
            fmt(r->busbw, ST_DIM_BANDWIDTH, bus, sizeof bus));
    /* alone, the simulated time also pays what the closed form leaves out (a Simple ring's
     * NVLink pipeline fill): only beside other collectives is a longer time their traffic */
    fprintf(out, "  alone     %s on an idle fabric%s\n",
            fmt(r->plan.est_s, ST_DIM_TIME, t[3], sizeof t[3]),
            shared && r->time_s > r->plan.est_s * 1.001 ? ": slowed by other workloads' traffic"
                                                        : "");
    if (explain) {
        char b[32];
        fprintf(out,
                "  explain   closed form T = 2(N-1)/N * S/B + alpha * log2(N_nodes) = "
                "%.6g s\n            with N = %lld ranks, S = %s, B = %s per rank, "
                "alpha = %.3g us, N_nodes = %lld\n            simulated / closed form = %.3f\n",
                r->plan.closed_s, (long long)r->plan.ranks, size,
                fmt(r->plan.closed_b, ST_DIM_BANDWIDTH, b, sizeof b), r->plan.closed_alpha_s * 1e6,
                (long long)r->plan.groups, r->plan.closed_s > 0 ? r->time_s / r->plan.closed_s : 0);
    }
}

static void fabric_text(FILE *out, const st_fabric_result *f)
{
    /* each tier by the links it holds (topo.h st_level): "spine 0.0%" beside 82 collisions read
       as idle spines where it was the spine-core links a two-tier fabric does not have */
    static const char *const names[ST_LEVEL__COUNT] = {"NVLink", "NIC-leaf", "leaf-spine",
                                                       "spine-core", "storage"};
    fprintf(out, "\nfabric: peak link utilisation %.1f%%, %s ECMP collisions\n",
            f->max_utilization * 100, st_fig_plain((double)f->collisions).s);
    fprintf(out, "  per tier ");
    for (int l = 0; l < ST_LEVEL__COUNT; l++)
        fprintf(out, "%s%s %.1f%%", l ? ", " : "", names[l], f->level_utilization[l] * 100);
    fprintf(out, "\n");
}

/* The waveform with and without the mitigations, and what each burns or loses. */
static void mitigation_text(FILE *out, const st_plant_result *p)
{
    char a[32], b[32], d[32];
    if (!p->mitigated)
        return;
    fprintf(out, "\n  without the mitigations: swing %s, ramp %s/s, IT mean %s",
            fmt(p->bare.swing_w, ST_DIM_POWER, a, sizeof a),
            fmt(p->bare.ramp_w_per_s, ST_DIM_POWER, b, sizeof b),
            fmt(p->bare_it_mean_w, ST_DIM_POWER, d, sizeof d));
    if (p->floor_w > 0)
        fprintf(out, "; the %s floor burns %s more", fmt(p->floor_w, ST_DIM_POWER, a, sizeof a),
                fmt(p->floor_extra_w, ST_DIM_POWER, b, sizeof b));
    if (p->burn_w > 0)
        fprintf(out, "; the %s burn in the lulls burns %s more",
                fmt(p->burn_w, ST_DIM_POWER, a, sizeof a),
                fmt(p->burn_extra_w, ST_DIM_POWER, b, sizeof b));
    if (p->storage_energy_j > 0)
        fprintf(out, "; storage of %.4g kWh at %s loses %s", p->storage_energy_j / 3.6e6,
                fmt(p->storage_power_w, ST_DIM_POWER, a, sizeof a),
                fmt(p->storage_loss_w, ST_DIM_POWER, b, sizeof b));
}

/* The worst rack's peak, line current, breaker headroom and losses; the network beside them. */
static void racks_text(FILE *out, const st_plant_result *p, const st_cluster_cfg *c)
{
    char a[32], i[32]; /* currents at 4 digits, as the JSON's figures and the HTML give them */
    if (p->racks == 1)
        fprintf(out, "\n  the one rack %s, %s per line",
                fmt(p->rack_peak_w, ST_DIM_POWER, a, sizeof a),
                fmt(p->rack_current_a, ST_DIM_CURRENT, i, sizeof i));
    else
        fprintf(out, "\n  worst of %lld racks %s, %s per line", (long long)p->racks,
                fmt(p->rack_peak_w, ST_DIM_POWER, a, sizeof a),
                fmt(p->rack_current_a, ST_DIM_CURRENT, i, sizeof i));
    if (c->racks.breaker_a > 0)
        fprintf(out, ", %s left on its %.0f A breaker at 80%%",
                fmt(p->rack_headroom_a, ST_DIM_CURRENT, i, sizeof i), c->racks.breaker_a);
    if (p->rack_loss_w > 0)
        fprintf(out, ", %s lost in its distribution",
                fmt(p->rack_loss_w, ST_DIM_POWER, a, sizeof a));
    if (p->has_network)
        fprintf(out, "\n  network: optics of %s switch ports %s, beside the racks",
                st_fig_plain((double)p->switch_ports).s,
                fmt(p->network_w, ST_DIM_POWER, a, sizeof a));
}

/* The rack with the most heat for its cooling against it, the PUE and its parts, and the junctions.
 */
static void cooling_text(FILE *out, const st_run *r, const st_cluster_cfg *c)
{
    const st_plant_result *p = &r->plant;
    char a[32], b[32], d[32], e[32];
    const st_plant_rack_heat *h = &p->rack_heat;
    fprintf(out,
            "\n  cooling: the rack nearest its limit gives %s of heat against %s of %s cooling",
            fmt(h->heat_w, ST_DIM_POWER, a, sizeof a),
            fmt(h->capacity_w, ST_DIM_POWER, b, sizeof b), st_cooling_kind_names[h->cooling]);
    char air[ST_FIG_TEXT_MAX], liquid[ST_FIG_TEXT_MAX]; /* as every format shows a flow */
    st_fig_number_text(ST_FU_FLOW, h->air_flow_m3_s, air, sizeof air);
    st_fig_number_text(ST_FU_FLOW, h->liquid_flow_m3_s, liquid, sizeof liquid);
    fprintf(out, " (air %s, liquid %s)", air, liquid);
    /* the facility's mean over the IT mean: its parts are the mean's (power.facility_mean), the
     * transformers' and the UPS's below the peak's that the facility peak line gives */
    fprintf(out,
            "\n  PUE %.3f, its parts at the mean power: cooling plant %s (fans %s, pumps %s, "
            "chiller %s)",
            p->pue, fmt(p->cooling.total_w, ST_DIM_POWER, a, sizeof a),
            fmt(p->cooling.fans_w, ST_DIM_POWER, b, sizeof b),
            fmt(p->cooling.pumps_w, ST_DIM_POWER, d, sizeof d),
            fmt(p->cooling.chiller_w, ST_DIM_POWER, e, sizeof e));
    fprintf(out, ", transformers %s", fmt(p->transformer_loss_w, ST_DIM_POWER, a, sizeof a));
    /* an unstated rating is sized to the peak (plant.md), so a steady load reads 100%: say so */
    fprintf(out, ", UPS %s at %.4g%% %s%s", fmt(p->ups.loss_w, ST_DIM_POWER, a, sizeof a),
            p->ups.load * 100, st_report_ups_sized(c) ? ST_REPORT_UPS_SIZED : "load",
            p->ups.systems == 2 ? " on each of two (2n)" : "");
    if (p->energy_j > 0) { /* power.energy_j: the jobs' lives, not the cluster run's makespan */
        fprintf(out, ", the jobs' energy over their whole lives %s",
                fmt(p->energy_j, ST_DIM_ENERGY, a, sizeof a));
        if (r->has_energy && r->cluster.st.unfinished) /* scheduler.energy_j stops there */
            fprintf(out, " (they run past the horizon, where the cluster's stops)");
    }
    fprintf(out, "\nthermal: hottest junction %.4g C, %.4g%% of the jobs' GPUs throttled\n",
            p->max_junction_c, p->throttle_fraction * 100);
    /* each job by its name, as every other section names it (the plant's id is its workload's
     * index); a service's energy is per output token served */
    for (size_t k = 0; k < p->n_jobs; k++) {
        const st_plant_job_power *j = &p->jobs[k];
        size_t i = (size_t)j->id;
        const st_workload_cfg *w = i >= r->n ? NULL : r->f[i].w ? r->f[i].w : r->serve[i].w;
        int service = i < r->n && !r->f[i].w && r->serve[i].w;
        if (!w || !(service || j->clock < 1 || j->energy_per_token_j > 0))
            continue;
        fprintf(out, "  job %s: junction %.4g C, clock %.4g%%", w->name, j->junction_c,
                j->clock * 100);
        if (j->energy_per_token_j > 0)
            fprintf(out, ", %.4g J per %stoken at the facility", j->energy_per_token_j,
                    service ? "output " : "");
        fputc('\n', out);
    }
}

/* The plant: facility power and its swing, the mitigations, the racks, cooling and PUE. */
static void power_text(FILE *out, const st_run *r, const st_cluster_cfg *c)
{
    const st_plant_result *p = &r->plant;
    char a[32], b[32], d[32], e[32], g[32], h[32];
    const st_plant_facility *f = &p->facility_peak;
    fprintf(out, "\npower: IT peak %s (window mean %s), facility peak %s (window mean %s)\n",
            fmt(p->it_peak_w, ST_DIM_POWER, a, sizeof a),
            fmt(p->it_mean_w, ST_DIM_POWER, b, sizeof b),
            fmt(f->total_w, ST_DIM_POWER, d, sizeof d),
            fmt(p->facility_mean.total_w, ST_DIM_POWER, e, sizeof e));
    /* the terms the plant models (the JSON's facility_peak): distribution losses with a stated
     * distribution_resistance, storage's with racks.storage; a 0 W read as measured */
    fprintf(out, "  facility peak = IT %s", fmt(f->it_w, ST_DIM_POWER, a, sizeof a));
    if (st_plant_models_distribution(c))
        fprintf(out, " + distribution %s", fmt(f->distribution_w, ST_DIM_POWER, b, sizeof b));
    if (st_plant_models_storage(c))
        fprintf(out, " + storage %s", fmt(f->storage_w, ST_DIM_POWER, d, sizeof d));
    fprintf(out, " + transformers %s + UPS %s + cooling plant %s%s\n",
            fmt(f->transformer_w, ST_DIM_POWER, e, sizeof e),
            fmt(f->ups_w, ST_DIM_POWER, g, sizeof g), fmt(f->cooling_w, ST_DIM_POWER, h, sizeof h),
            st_plant_models_distribution(c)
                ? ""
                : " (distribution losses not modelled: no racks.distribution_resistance above 0)");
    if (p->wave.swing_w > 0)
        /* a job's GPUs change phase within one 1 ms sample, so its whole swing is one sample's
         * ramp: an upper bound at that resolution (plant.md), which 10 GW/s on a 20 MW site needs
         * said beside it */
        fprintf(out,
                "  swing %s at %.4g Hz (%.4g%% of it in 0.1-20 Hz), ramp %s/s (its steepest 1 ms "
                "step: an upper bound)",
                fmt(p->wave.swing_w, ST_DIM_POWER, a, sizeof a), p->wave.dominant_hz,
                p->wave.band_share * 100, fmt(p->wave.ramp_w_per_s, ST_DIM_POWER, b, sizeof b));
    else /* steady jobs alone (inference services): a flat draw */
        fprintf(out, "  swing none: a steady draw");
    if (c->facility.ramp_limit_w_per_s > 0)
        fprintf(out, " against a limit of %s/s",
                fmt(c->facility.ramp_limit_w_per_s, ST_DIM_POWER, d, sizeof d));
    mitigation_text(out, p);
    racks_text(out, p, c);
    cooling_text(out, r, c);
}

/* v USD in the rounding every other format shows money in (st_fig_money). */
#define USD_MAX 40
static const char *usd(double v, char *buf)
{
    return st_fig_money(v, buf, USD_MAX);
}

/* A capex part (st_cost_result): its cost, or that it has no price (NaN), never a 0 that reads
 * as bought for nothing. */
static const char *part_usd(double v, char *buf)
{
    return isnan(v) ? "not priced" : usd(v, buf);
}

/* One job's TCO k, a training job's or a service's (tokens: the tokens its cost is per, "tokens"
 * trained or "output tokens" served, as its power line and the HTML's serving row say), with its
 * error band (NULL: none) and on premises (on_prem) its capex part by part. */
static void job_cost_text(FILE *out, const char *name, const char *tokens, const st_cost_result *k,
                          const double *band, int on_prem)
{
    char m[11][USD_MAX];
    /* per million tokens, as the industry quotes it: per token reads 6.234e-07 */
    fprintf(out, "  %s: %s USD, %.4g USD per million %s, %s USD/year at this rate", name,
            usd(k->total_usd, m[0]), k->per_token_usd * 1e6, tokens, usd(k->per_year_usd, m[1]));
    fprintf(out,
            " (capex %s, energy %s, demand %s, maintenance %s, staff %s, gpu %s, storage %s, "
            "egress %s, flash wear %s)\n",
            usd(k->capex_usd, m[2]), usd(k->energy_usd, m[3]), usd(k->demand_usd, m[4]),
            usd(k->maintenance_usd, m[5]), usd(k->staff_usd, m[6]), usd(k->gpu_usd, m[7]),
            usd(k->storage_usd, m[8]), usd(k->egress_usd, m[9]), usd(k->wear_usd, m[10]));
    if (band)
        fprintf(out, "    error band %s to %s USD (%.0f%%: the wall time's band)\n",
                usd(band[0], m[0]), usd(band[1], m[1]), 100 * ST_BAND_LEVEL);
    if (on_prem)
        fprintf(out,
                "    capex: nodes %s, switches %s, optics %s, storage %s, racks %s, "
                "cooling %s\n",
                part_usd(k->capex_nodes_usd, m[0]), part_usd(k->capex_switches_usd, m[1]),
                part_usd(k->capex_optics_usd, m[2]), part_usd(k->capex_storage_usd, m[3]),
                part_usd(k->capex_racks_usd, m[4]), part_usd(k->capex_cooling_usd, m[5]));
}

/* Each priced job's TCO and the scenario's total (models/cost/cost.h), in USD; on premises its
 * capex part by part and where each price came from. */
static void cost_text(FILE *out, const st_run *r, const st_cost_cfg *c, const st_cluster_cfg *cl)
{
    char m[USD_MAX];
    fprintf(out, "\ncost (%s): total %s USD\n", st_delivery_names[c->delivery],
            usd(r->cost_total_usd, m));
    int on_prem = c->delivery == ST_DELIVERY_ON_PREM;
    for (size_t i = 0; i < r->n; i++) {
        const st_forecast *f = &r->f[i];
        if (f->w && f->has_cost)
            job_cost_text(out, f->w->name, "tokens", &f->cost, f->has_band ? f->cost_band : NULL,
                          on_prem);
        else if (r->serve && r->serve[i].w && r->serve[i].r.has_cost)
            job_cost_text(out, r->serve[i].w->name, "output tokens", &r->serve[i].cost, NULL,
                          on_prem);
    }
    if (!on_prem)
        return;
    for (int k = 0; k < cl->n_pools; k++) { /* each pool's nodes at its own type's price */
        st_cost_cfg typed;
        st_cost_for_gpu(c, cl->pools[k].gpu->name, &typed);
        fprintf(out, "  prices: node_price (pool %s): %s\n", cl->pools[k].name,
                st_cost_price_source(typed.from[ST_COST_NODE], typed.node_price_usd));
    }
    if (!cl->n_pools)
        fprintf(out, "  prices: node_price: %s\n",
                st_cost_price_source(c->from[ST_COST_NODE], c->node_price_usd));
    for (int k = 0; k < ST_COST__PARTS; k++)
        fprintf(out, "  prices: %s: %s\n", st_cost_part_names[k],
                st_cost_price_source(c->part_from[k], st_cost_part_value(c, (st_cost_part)k)));
}

/* The cluster run's energy (models/forecast/cluster_energy.h), when it has one. */
static void cluster_energy_text(FILE *out, const st_run *r)
{
    const st_cluster_energy *e = &r->energy;
    char a[32], b[32], m[32];
    if (!r->has_energy)
        return;
    /* scheduler.energy_j: the cluster's, every GPU busy or idle, over the run's own window (a
     * job's power.energy_j covers its whole life, which may run past the horizon) */
    char w[32];
    fprintf(out,
            "  energy    %s at the facility, the cluster's over the %s (%s): IT mean %s, "
            "facility mean %s",
            fmt(e->energy_j, ST_DIM_ENERGY, a, sizeof a),
            r->cluster.st.unfinished ? "run to the horizon" : "makespan",
            fmt(r->cluster.st.makespan_s, ST_DIM_TIME, w, sizeof w),
            fmt(e->it_mean_w, ST_DIM_POWER, b, sizeof b),
            fmt(e->facility_mean_w, ST_DIM_POWER, m, sizeof m));
    if (e->has_cost)
        fprintf(out, ", %s of electricity", fmt(e->energy_usd, ST_DIM_MONEY, a, sizeof a));
    fprintf(out, "\n");
}

/* Each pool's share of the cluster run, a line a pool (docs/models/pools.md). */
static void pools_share_text(FILE *out, const st_cluster_result *c, const st_cluster_cfg *cfg)
{
    char a[32];
    for (int k = 0; k < c->n_pool && k < cfg->n_pools; k++) {
        const st_cluster_pool_stats *p = &c->pool[k];
        fprintf(out, "  pool      %s: %s job%s, %s finished", cfg->pools[k].name,
                st_fig_plain((double)p->jobs).s, p->jobs == 1 ? "" : "s",
                st_fig_plain((double)p->finished).s);
        if (p->finished)
            fprintf(out, ", wait mean %s", fmt(p->mean_wait_s, ST_DIM_TIME, a, sizeof a));
        st_fig_number_text(ST_FU_SHARE, p->utilization, a, sizeof a);
        fprintf(out, ", utilisation %s\n", a); /* 4 digits, as every other format */
    }
}

/* The waits, times queued and completion times: figures over the finished jobs, so none where
 * no job finished (not 0 s, which reads as jobs that never waited). */
static void finished_text(FILE *out, const st_cluster_stats *s)
{
    char a[32], b[32], m[32];
    if (!s->finished) {
        fprintf(out, "  wait      %s, so no wait or JCT\n", s->jobs ? "no job finished" : "no job");
        return;
    }
    fprintf(out, "  wait      to first start mean %s, p95 %s; JCT mean %s\n",
            fmt(s->mean_wait_s, ST_DIM_TIME, a, sizeof a),
            fmt(s->p95_wait_s, ST_DIM_TIME, b, sizeof b),
            fmt(s->mean_jct_s, ST_DIM_TIME, m, sizeof m));
    fprintf(out, "  queued    in all (first start and re-queues) mean %s, p95 %s\n",
            fmt(s->mean_queued_s, ST_DIM_TIME, a, sizeof a),
            fmt(s->p95_queued_s, ST_DIM_TIME, b, sizeof b));
}

/* The cluster run's figures (models/sched/cluster.h); traced: the scenario has trace jobs. */
static void scheduler_text(FILE *out, const st_run *r, const st_cluster_cfg *cfg, int traced)
{
    const st_cluster_result *c = &r->cluster;
    const st_cluster_stats *s = &c->st;
    char a[32];
    /* counts grouped as compare's header and every other format groups them: 82,247 jobs */
    fprintf(out, "\nscheduler: %s, placement %s: %s job%s, %s finished", c->policy, c->placement,
            st_fig_plain((double)s->jobs).s, s->jobs == 1 ? "" : "s",
            st_fig_plain((double)s->finished).s);
    /* a service scaled to zero has no job of its own, only its replicas' stretches: say so,
     * since they fill the makespan, utilisation and energy below */
    size_t zero = r->serving.zero_services, stretches = r->serving.zero_stretches;
    if (zero)
        fprintf(out,
                " (and %s service%s scaled to zero: %s replica stretches, in the "
                "utilisation and energy, not in the waits and JCT)",
                st_fig_plain((double)zero).s, zero == 1 ? "" : "s",
                st_fig_plain((double)stretches).s);
    if (s->unfinished)
        fprintf(out, ", %s unfinished at the horizon", st_fig_plain((double)s->unfinished).s);
    if (s->too_big)
        fprintf(out, ", %s larger than %s", st_fig_plain((double)s->too_big).s,
                c->n_pool ? "their pool" : "the cluster");
    fputc('\n', out);
    finished_text(out, s);
    /* with a job still running at the horizon there is no last finish: the run's figures stop
     * at the horizon, which is what makespan_s holds then (scheduler.md, Metrics) */
    char u[32];
    st_fig_number_text(ST_FU_SHARE, s->utilization, u, sizeof u);
    fprintf(out, "  cluster   %s %s, utilisation %s, %s preemption%s\n",
            s->unfinished ? "ran to the horizon," : "makespan",
            fmt(s->makespan_s, ST_DIM_TIME, a, sizeof a), u, st_fig_plain((double)s->preemptions).s,
            st_plural_s(s->preemptions));
    pools_share_text(out, c, cfg);
    if (s->preemptions > 0) /* a trace job has no checkpoint: it pays its restart instead */
        fprintf(out, "  preempted %s of saves and restores%s\n",
                fmt(s->preempted_s, ST_DIM_TIME, a, sizeof a),
                traced ? " (a trace job: its restarts)" : "");
    if (s->outages)
        fprintf(out, "  failures  %s component failure%s, %s job interruption%s, %s of work lost\n",
                st_fig_plain((double)s->failures).s, st_plural_s(s->failures),
                st_fig_plain((double)s->interruptions).s, st_plural_s(s->interruptions),
                fmt(s->lost_work_s, ST_DIM_TIME, a, sizeof a));
    cluster_energy_text(out, r);
}

static void audit_text(FILE *out, const st_run *r)
{
    fprintf(out, "\naudit\n");
    for (size_t i = 0; i < r->n_audit; i++) {
        const st_audit *a = &r->audit[i];
        fprintf(out, "  %-4s  %-13s %s: %s\n",
                a->status == ST_AUDIT_PASS   ? "PASS"
                : a->status == ST_AUDIT_WARN ? "WARN"
                                             : "FAIL",
                a->level, a->check, a->message);
    }
}

/* The system noise the ranks are given, where there is any (docs/models/stragglers.md). */
static void noise_text(FILE *out, const st_variability_cfg *v)
{
    if (!(v->noise_every_s > 0))
        return;
    char every[32], detour[32];
    fprintf(out, "noise:   %s%s: %s detours every %s per rank, %s%s\n",
            v->noise_profile ? v->noise_profile : "stated",
            v->noise_profile ? " profile" : " signature",
            fmt(v->noise_detour_s, ST_DIM_TIME, detour, sizeof detour),
            fmt(v->noise_every_s, ST_DIM_TIME, every, sizeof every),
            v->noise_periodic ? "periodic" : "at random", v->noise_cosched ? ", co-scheduled" : "");
}

/* A cluster of pools: each pool's nodes and GPU type (and its racks where each pool has racks of
 * its own), then the GPUs in all. */
static void pools_text(FILE *out, const st_cluster_cfg *c)
{
    fprintf(out, "cluster: %lld node%s:", (long long)c->nodes, st_plural_s(c->nodes));
    for (int k = 0; k < c->n_pools; k++) {
        const st_pool_cfg *p = &c->pools[k];
        fprintf(out, "%s %s (%lld x %lld %s", k ? "," : "", p->name, (long long)p->nodes,
                (long long)st_pools_gpus_per_node(c, k), p->gpu->name);
        if (!st_pools_one_node_shape(c)) /* a pool's NICs move its step and its switch ports */
            fprintf(out, " + %lld NIC%s", (long long)st_pools_nics_per_node(c, k),
                    st_plural_s(st_pools_nics_per_node(c, k)));
        if (st_pools_nvlink_domain(c, k) > st_pools_gpus_per_node(c, k))
            fprintf(out, ", NVLink domains of %lld", (long long)st_pools_nvlink_domain(c, k));
        if (c->racks_by_pool) {
            int64_t r = st_racks_pool_count(c, k);
            fprintf(out, " in %lld %s-cooled rack%s of %lld", (long long)r,
                    st_cooling_kind_names[p->racks.cooling], r == 1 ? "" : "s",
                    (long long)p->racks.nodes_per_rack);
        }
        fputc(')', out);
    }
    fprintf(out, " = %s GPUs\n", st_fig_plain((double)st_pools_cluster_gpus(c)).s);
}

static void report_text(FILE *out, const st_report *rep)
{
    const st_scn *s = rep->s;
    const st_run *r = rep->run;
    const st_cluster_cfg *c = st_scn_cluster(s);
    char hbm[32];
    fprintf(out, "strata %s: scenario '%s', seed %llu\n", STRATA_VERSION, st_scn_name(s),
            (unsigned long long)rep->seed);
    if (c->n_pools > 0)
        pools_text(out, c);
    else
        fprintf(out, "cluster: %s node%s x %lld %s = %s GPUs, %s of memory each (CUDA's total)\n",
                st_fig_plain((double)c->nodes).s, st_plural_s(c->nodes),
                (long long)c->gpus_per_node, c->gpu->name,
                st_fig_plain((double)(c->nodes * c->gpus_per_node)).s,
                fmt(c->gpu->hbm_bytes, ST_DIM_BYTES, hbm, sizeof hbm));
    noise_text(out, &c->variability);
    size_t colls = 0; /* the collective workloads, which share the fabric with each other */
    for (size_t i = 0; i < r->n; i++)
        colls += !r->f[i].w && !r->serve[i].w;
    for (size_t i = 0; i < r->n; i++) {
        if (r->f[i].w)
            job_text(out, c, &r->f[i], rep->explain, st_scn_states_failures(rep->s));
        else if (r->serve[i].w)
            st_report_serve_text(out, c, &r->serve[i]);
        else
            coll_text(out, &r->coll[i], colls > 1, rep->explain);
    }
    if (r->has_cluster)
        scheduler_text(out, r, c, st_scn_trace(s) != NULL);
    if (r->has_fabric)
        fabric_text(out, &r->fab);
    if (r->has_plant)
        power_text(out, r, c);
    if (r->has_cost)
        cost_text(out, r, st_scn_cost(s), c);
    audit_text(out, r);
}

char *st_report_text(const st_report *rep)
{
    char *buf;
    size_t len;
    FILE *out = st_report_open(&buf, &len);
    report_text(out, rep);
    return st_report_close(out, &buf);
}
