/* A training job across pools (docs/models/pools.md, "A job across pools"): its step is its
 * slowest type's, its MFU divides by every GPU's own peak, the plant draws each pool's GPUs at
 * their type's power over that step, and it is priced share by share. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "models/plant/gpu_power.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"
#include "unit/run_text.h"

/* Two pools of two 8-GPU nodes on one leaf, H100 (GPUs 0-15) then B200 (16-31); a Llama 3 8B
 * job of 16 GPUs (tp 2, dp 8) on `pool`, priced by the GPU-hour per type. */
static const char *const text =
    "version: 1\nname: s\nseed: 1\ncluster:\n  pools:\n"
    "    - { name: h100, gpu: h100-sxm, nodes: 2 }\n    - { name: b200, gpu: b200, nodes: 2 }\n"
    "  gpus_per_node: 8\n  racks: { nodes_per_rack: 4 }\n"
    "workloads:\n  - { name: j, model: llama3-8b, seq_len: 8192, global_batch: 16, gpus: 16,\n"
    "      parallel: { tp: 2, dp: 8, microbatch: 1, %s }, steps: 100,\n"
    "      pool: %s }\n"
    "cost: { delivery: cloud, gpu_hour_price: { h100-sxm: 2 USD/h, b200: 6 USD/h } }\n";

/* A run and its scenario released. */
static void finish(st_run *r, st_scn *s)
{
    st_run_release(r);
    st_scn_free(s);
}

static void forecast_with(const char *plan, const char *pool, st_scn **s, st_run *r)
{
    char buf[2048];
    ck_assert((size_t)snprintf(buf, sizeof buf, text, plan, pool) < sizeof buf);
    run_text(buf, s, r);
}

static void forecast(const char *pool, st_scn **s, st_run *r)
{
    forecast_with("zero: 1, recompute: selective", pool, s, r);
}

static double peak_w_of(const st_run *r)
{
    for (size_t k = 0; r->has_plant && k < r->plant.n_jobs; k++)
        if (r->plant.jobs[k].id == 0)
            return r->plant.jobs[k].peak_w;
    ck_abort_msg("no power for the job");
    return 0;
}

/* 8 H100 and 8 B200 against 16 H100 (one node of each pool against both H100 nodes, on one leaf:
 * the same shape to the fabric): the job across pools steps exactly as the H100 job, slower than
 * the B200 job; its MFU is the H100 job's times the H100 peak over the mean peak; its power is
 * 8 H100 and 8 B200 drawing over that step, one entry; its GPU-hours are each type's. */
START_TEST(test_a_job_across_pools_runs_at_its_slowest_types_pace)
{
    st_scn *sa = NULL, *sh = NULL, *sb = NULL;
    st_run a, h, b;
    forecast("{ h100: 8, b200: 8 }", &sa, &a);
    forecast("h100", &sh, &h);
    forecast("b200", &sb, &b);
    const st_forecast *fa = &a.f[0], *fh = &h.f[0], *fb = &b.f[0];
    ck_assert(fa->has_step && fh->has_step && fb->has_step);
    ck_assert_int_eq(fa->pace_pool, 0);
    ck_assert_msg(fa->step.step_time_s == fh->step.step_time_s, "across %g s, H100 %g s",
                  fa->step.step_time_s, fh->step.step_time_s);
    ck_assert(fb->step.step_time_s < fa->step.step_time_s);
    /* each type's step alone, as reported: the one-pool jobs' */
    ck_assert(fa->pool_step_s && fa->pool_step_s[0] == fh->step.step_time_s);
    ck_assert(fa->pool_step_s[1] == fb->step.step_time_s);
    const st_cluster_cfg *c = st_scn_cluster(sa);
    double ph = st_gpu_peak(c->pools[0].gpu, ST_PREC_BF16);
    double pb = st_gpu_peak(c->pools[1].gpu, ST_PREC_BF16);
    ck_assert_double_eq_tol(fa->step.mfu, fh->step.mfu * ph / ((ph + pb) / 2), 1e-12);
    ck_assert_double_eq_tol(fa->step.tflops_per_gpu, fh->step.tflops_per_gpu, 1e-9);
    st_plant_profile xh, xb;
    ck_assert_int_eq(st_plant_profile_clocked(&fa->step, c->pools[0].gpu, 1, &xh), 0);
    ck_assert_int_eq(st_plant_profile_clocked(&fa->step, c->pools[1].gpu, 1, &xb), 0);
    ck_assert_uint_eq(a.plant.n_jobs, 1);
    ck_assert_double_eq_tol(peak_w_of(&a), 8 * xh.peak_w + 8 * xb.peak_w, 1e-6);
    ck_assert_double_eq_tol(peak_w_of(&a), peak_w_of(&h) / 2 + 8 * xb.peak_w, 1e-6);
    /* the same life as the H100 job's: its GPU-hours cost (8 x 2 + 8 x 6) / (16 x 2) times */
    ck_assert(fa->has_cost && fh->has_cost);
    ck_assert_double_eq_tol(fa->cost.gpu_usd, fh->cost.gpu_usd * 2, 1e-9 * fh->cost.gpu_usd);
    ck_assert_double_eq_tol(fa->cost.total_usd - fa->cost.gpu_usd,
                            fh->cost.total_usd - fh->cost.gpu_usd, 1e-9 * fh->cost.total_usd);
    finish(&a, sa);
    finish(&h, sh);
    finish(&b, sb);
}
END_TEST

/* Without ZeRO or recomputation the plan's 99 GB fit a B200's HBM but not an H100's: across both it
 * does not run, and the H100's memory is what it reports. */
START_TEST(test_a_plan_one_type_cannot_hold_does_not_run)
{
    st_scn *s = NULL;
    st_run r;
    forecast_with("recompute: none", "{ h100: 8, b200: 8 }", &s, &r);
    ck_assert(!r.f[0].mem.fits && !r.f[0].has_step);
    ck_assert_int_eq(r.f[0].pace_pool, 0);
    ck_assert(r.f[0].mem.capacity < 100e9); /* the H100's 80 GiB, not the B200's */
    finish(&r, s);
}
END_TEST

/* An uneven split (pool_batch): 8 H100 and 8 B200, 4 DP replicas each, the B200s' replicas given
 * 3 sequences each and the H100s' 1 (16 in all). Its step is the slower of the two pools'
 * replicas at their shares, each the one-pool job of that per-replica batch (global batch
 * share x 8 replicas); its throughput and MFU count the job's 16 sequences. */
START_TEST(test_an_uneven_split_runs_each_pools_share)
{
    static const char *const plan = "zero: 1, recompute: selective";
    st_scn *sa = NULL, *sh = NULL, *sb = NULL;
    st_run a, h, b;
    forecast_with(plan, "{ h100: 8, b200: 8 }, pool_batch: { h100: 4, b200: 12 }", &sa, &a);
    /* the shares alone: global batch 8 (1 a replica) on the H100s, 24 (3) on the B200s */
    char buf[2048];
    ck_assert((size_t)snprintf(buf, sizeof buf, text, plan, "h100") < sizeof buf);
    char *g = strstr(buf, "global_batch: 16");
    ck_assert(g);
    memcpy(g, "global_batch:  8", 16);
    run_text(buf, &sh, &h);
    ck_assert((size_t)snprintf(buf, sizeof buf, text, plan, "b200") < sizeof buf);
    g = strstr(buf, "global_batch: 16");
    memcpy(g, "global_batch: 24", 16);
    run_text(buf, &sb, &b);
    const st_forecast *fa = &a.f[0], *fh = &h.f[0], *fb = &b.f[0];
    ck_assert(fa->has_step && fh->has_step && fb->has_step);
    ck_assert(fa->pool_step_s[0] == fh->step.step_time_s);
    ck_assert(fa->pool_step_s[1] == fb->step.step_time_s);
    double slow =
        fh->step.step_time_s > fb->step.step_time_s ? fh->step.step_time_s : fb->step.step_time_s;
    ck_assert_msg(fa->step.step_time_s == slow, "%g s, shares %g and %g s", fa->step.step_time_s,
                  fh->step.step_time_s, fb->step.step_time_s);
    ck_assert_double_eq_tol(fa->step.tokens_per_s, 16 * 8192 / slow, 1e-9 * fa->step.tokens_per_s);
    const st_cluster_cfg *c = st_scn_cluster(sa);
    double ph = st_gpu_peak(c->pools[0].gpu, ST_PREC_BF16);
    double pb = st_gpu_peak(c->pools[1].gpu, ST_PREC_BF16);
    double flops = st_llm_flops_per_token(a.f[0].w->model, 8192) * 16 * 8192;
    ck_assert_double_eq_tol(fa->step.mfu, flops / (slow * 8 * (ph + pb)), 1e-12);
    finish(&a, sa);
    finish(&h, sh);
    finish(&b, sb);
}
END_TEST

/* pool_batch: balanced on the same job finds that split, B200 replicas 3 sequences and H100
 * ones 1 (a B200 of this plan is more than 1.5 times an H100's speed), and steps as it. */
START_TEST(test_a_balanced_split_finds_the_shares)
{
    st_scn *se = NULL, *sb = NULL, *sx = NULL;
    st_run e, b, x;
    forecast_with("zero: 1, recompute: selective", "{ h100: 8, b200: 8 }", &se, &e);
    forecast_with("zero: 1, recompute: selective", "{ h100: 8, b200: 8 }, pool_batch: balanced",
                  &sb, &b);
    forecast_with("zero: 1, recompute: selective",
                  "{ h100: 8, b200: 8 }, pool_batch: { h100: 4, b200: 12 }", &sx, &x);
    const double *t = e.f[0].pool_step_s; /* the even split's, 2 micro-batches a replica */
    ck_assert(t[0] / 2 > 1.5 * t[1] / 2);
    ck_assert(b.f[0].pool_batch && b.f[0].pool_batch[0] == 4 && b.f[0].pool_batch[1] == 12);
    ck_assert(b.f[0].step.step_time_s == x.f[0].step.step_time_s);
    ck_assert(b.f[0].step.step_time_s < e.f[0].step.step_time_s);
    finish(&e, se);
    finish(&b, sb);
    finish(&x, sx);
}
END_TEST

/* Under interleaving a replica's micro-batches run in groups of pp (Megatron's schedule), so
 * the balance moves them pp at a time: every pool's share a multiple of pp micro-batches, and
 * the job runs (moving one at a time, it stopped at a share the plan check refuses). The same
 * pools, a Llama 3 8B job of tp 2, pp 2 interleaved twice, dp 4: 2 replicas a pool. */
START_TEST(test_a_balanced_split_keeps_interleavings_groups)
{
    const char *t =
        "version: 1\nname: s\nseed: 1\ncluster:\n  pools:\n"
        "    - { name: h100, gpu: h100-sxm, nodes: 2 }\n    - { name: b200, gpu: b200, nodes: 2 }\n"
        "  gpus_per_node: 8\n  racks: { nodes_per_rack: 4 }\n"
        "workloads:\n  - { name: j, model: llama3-8b, seq_len: 8192, global_batch: 16, gpus: 16,\n"
        "      parallel: { tp: 2, pp: 2, virtual_stages: 2, dp: 4, microbatch: 1, zero: 1,\n"
        "                  recompute: selective }, steps: 100,\n"
        "      pool: { h100: 8, b200: 8 }, pool_batch: balanced }\n";
    st_scn *sb = NULL;
    st_run b;
    run_text(t, &sb, &b);
    const st_forecast *f = &b.f[0];
    ck_assert(f->has_step && f->pool_batch);
    /* micro-batch 1 on 2 replicas: a pool's share of B sequences is B / 2 micro-batches each */
    ck_assert_int_eq((f->pool_batch[0] / 2) % 2, 0);
    ck_assert_int_eq((f->pool_batch[1] / 2) % 2, 0);
    ck_assert(f->pool_batch[1] > f->pool_batch[0]);
    finish(&b, sb);
}
END_TEST

Suite *span_suite(void)
{
    Suite *s = suite_create("span");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_job_across_pools_runs_at_its_slowest_types_pace);
    tcase_add_test(tc, test_a_plan_one_type_cannot_hold_does_not_run);
    tcase_add_test(tc, test_an_uneven_split_runs_each_pools_share);
    tcase_add_test(tc, test_a_balanced_split_finds_the_shares);
    tcase_add_test(tc, test_a_balanced_split_keeps_interleavings_groups);
    suite_add_tcase(s, tc);
    return s;
}
