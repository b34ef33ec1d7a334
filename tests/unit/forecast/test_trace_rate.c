/* Placement changes speed for trace jobs and resumed jobs. On four 8-GPU servers, two to a leaf
 * behind 2:1 oversubscribed uplinks (scenarios/examples/placement-speed.yaml's cluster), a
 * one-server job takes server 0 and a two-server job then lands across both leaves under `pack`
 * and inside leaf 1 under `topology-aware`. (1) A trace job that trace.models maps to a step model
 * finishes later across the leaves (scenarios/examples/trace-models.yaml); an unmapped one runs
 * its recorded hour either way. (2) A
 * training job preempted and resumed across the leaves takes longer than one resumed inside
 * one. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/fabric/topo.h"
#include "models/forecast/run.h"
#include "models/forecast/trace_rate.h"
#include "scenarios/scenario.h"

static const char cluster[] = "version: 1\nname: trace-rate\n"
                              "cluster: { gpu: h100-sxm, nodes: 4, fabric: { nodes_per_leaf: 2, "
                              "oversubscription: 2:1 } }\n";

typedef struct ran {
    st_scn *s;
    st_run r;
} ran;

/* o->s's forecast under placement into o->r. */
static void run_scn(const char *placement, ran *o)
{
    st_run_spec sp = {.c = st_scn_cluster(o->s),
                      .w = st_scn_workload(o->s, 0),
                      .n = st_scn_workload_count(o->s),
                      .sched = st_scn_sched(o->s),
                      .placement = placement,
                      .job_trace = st_scn_trace(o->s),
                      .seed = st_scn_seed(o->s),
                      .trace_segments = 1};
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &o->r, &err) == 0, "forecast: %s", err.msg);
}

/* The scenario the cluster above and body make, run under placement. */
static void run_text(const char *body, const char *placement, ran *o)
{
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%s%s", cluster, body);
    st_diag d = {0};
    memset(o, 0, sizeof *o);
    int rc = st_scn_load_buffer(ST_SOURCE_DIR "/tests/traces/trace-rate.yaml", yaml, strlen(yaml),
                                &o->s, &d);
    ck_assert_msg(rc == 0, "load: %s", d.n ? d.items[0].msg : "?");
    run_scn(placement, o);
}

/* scenarios/examples/trace-models.yaml (its 2 h jobs; the two-server one mapped) under placement.
 */
static void run_example(const char *placement, ran *o)
{
    st_diag d = {0};
    memset(o, 0, sizeof *o);
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/trace-models.yaml", &o->s, &d), 0);
    run_scn(placement, o);
}

static void release(ran *o)
{
    st_run_release(&o->r);
    st_scn_free(o->s);
}

static const char unmapped[] = "trace: { file: placement-speed.csv, format: csv }\n";

/* The two-server trace job (the trace's second row, the run's job 1: no training workload). */
static const st_cluster_job_out *wide(const ran *o)
{
    ck_assert_uint_eq(o->r.cluster.n, 2);
    ck_assert_int_eq(o->r.cluster.job[1].state, ST_CJ_FINISHED);
    return &o->r.cluster.job[1];
}

/* Whether the two-server job's first stretch spans both leaves (16 GPUs to a leaf). */
static int across(const ran *o)
{
    for (size_t k = 0; k < o->r.cluster.n_seg; k++)
        if (o->r.cluster.seg[k].job == 1) {
            const int64_t *g = o->r.cluster.seg_gpus + o->r.cluster.seg[k].gpu_at;
            return g[0] / 16 != g[o->r.cluster.seg[k].n - 1] / 16;
        }
    return -1;
}

START_TEST(test_a_mapped_trace_job_across_two_oversubscribed_leaves_finishes_later)
{
    ran pack, topo;
    run_example("pack", &pack);
    run_example("topology-aware", &topo);
    ck_assert_int_eq(across(&pack), 1);
    ck_assert_int_eq(across(&topo), 0);
    double ep = wide(&pack)->end_s, et = wide(&topo)->end_s;
    ck_assert_msg(ep > et + 60, "end %.6g s across vs %.6g s inside", ep, et);
    /* inside one leaf it is the tightest placement's shape: its recorded hour exactly */
    ck_assert(et == 60 + 7200);
    /* the one-server job is not mapped (min_gpus 16): its hour either way */
    ck_assert(pack.r.cluster.job[0].end_s == 7200 && topo.r.cluster.job[0].end_s == 7200);
    release(&pack);
    release(&topo);
}
END_TEST

START_TEST(test_an_unmapped_trace_job_runs_its_recorded_duration_wherever_placed)
{
    ran pack, topo;
    run_text(unmapped, "pack", &pack);
    run_text(unmapped, "topology-aware", &topo);
    ck_assert_int_eq(across(&pack), 1);
    ck_assert(wide(&pack)->end_s == 60 + 3600);
    ck_assert(wide(&topo)->end_s == 60 + 3600);
    release(&pack);
    release(&topo);
}
END_TEST

/* srtf: `wide` (two servers) starts at 0 on servers 0 and 1 (leaf 0) under both placements;
 * `big` (all four servers, short) preempts it at 1 min; `pin` (one server) arrives meanwhile and,
 * shorter, goes first once `big` is done: server 0. `wide` resumes on servers 1 and 2 under pack
 * (across the leaves) and on servers 2 and 3 under topology-aware (leaf 1). */
static const char resumed[] =
    "workloads:\n"
    "  - { name: wide, model: llama3-8b, seq_len: 4096, global_batch: 32, gpus: 16, parallel: "
    "{ tp: 1, dp: 16, zero: 1, recompute: selective }, steps: 2000 }\n"
    "  - { name: big, model: llama3-8b, seq_len: 4096, global_batch: 32, gpus: 32, parallel: "
    "{ tp: 1, dp: 32, zero: 1, recompute: selective }, steps: 300, submit: 1 min }\n"
    "  - { name: pin, model: llama3-8b, seq_len: 4096, global_batch: 32, gpus: 8, parallel: "
    "{ tp: 1, dp: 8, zero: 1, recompute: selective }, steps: 100, submit: 2 min }\n"
    "scheduler: { policy: srtf }\n";

/* Whether job 0's last stretch spans both leaves. */
static int resumed_across(const ran *o)
{
    int at = -1;
    for (size_t k = 0; k < o->r.cluster.n_seg; k++)
        if (o->r.cluster.seg[k].job == 0) {
            const int64_t *g = o->r.cluster.seg_gpus + o->r.cluster.seg[k].gpu_at;
            at = g[0] / 16 != g[o->r.cluster.seg[k].n - 1] / 16;
        }
    return at;
}

START_TEST(test_a_job_resumed_across_two_leaves_takes_longer_than_inside_one)
{
    ran pack, topo;
    run_text(resumed, "pack", &pack);
    run_text(resumed, "topology-aware", &topo);
    const st_forecast *wp = &pack.r.f[0], *wt = &topo.r.f[0];
    ck_assert_int_eq(wp->preemptions, 1);
    ck_assert_int_eq(wt->preemptions, 1);
    /* same first placement, so the same first step */
    ck_assert(wp->step.step_time_s == wt->step.step_time_s);
    ck_assert_int_eq(resumed_across(&pack), 1);
    ck_assert_int_eq(resumed_across(&topo), 0);
    ck_assert(wp->has_end && wt->has_end);
    ck_assert_msg(wp->end_s > wt->end_s + 60, "end %.6g s across vs %.6g s inside", wp->end_s,
                  wt->end_s);
    release(&pack);
    release(&topo);
}
END_TEST

/* The slowdown is memoised by placement shape: servers 1 and 2 and servers 0 and 2 are both one
 * server on each leaf, so the second is not simulated again and gets the same slowdown; the
 * whole of leaf 1 has the tight shape and a slowdown of exactly 1. The plan is fitted to the
 * job: tp = gcd(tp, GPUs). */
START_TEST(test_the_slowdown_is_memoised_by_placement_shape)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/examples/trace-models.yaml", &s, &d), 0);
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_topo *t = NULL;
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_topo_new(c, &t, &err), 0);
    ck_assert_int_eq(st_step_ctx_new(c, &x, &err), 0);
    st_trace_rate r;
    ck_assert_msg(st_trace_rate_init(&r, st_scn_trace(s), c, t, x, &err) == 0, "%s", err.msg);
    ck_assert(!st_trace_rate_mapped(&r, 0) && st_trace_rate_mapped(&r, 1));
    ck_assert_uint_eq(r.n_plans, 1);
    ck_assert_int_eq(r.plan[0].w.parallel.dp, 16);
    ck_assert_int_eq(r.plan[0].w.global_batch, 32); /* dp x replica_batch 2 */
    int64_t a[16], b[16], leaf1[16];
    for (int k = 0; k < 16; k++) {
        a[k] = 8 + k;             /* servers 1 and 2 */
        b[k] = k < 8 ? k : 8 + k; /* servers 0 and 2 */
        leaf1[k] = 16 + k;        /* servers 2 and 3 */
    }
    double sa = 0, sb = 0, sl = 0, s0 = 0;
    ck_assert_int_eq(st_trace_rate_slowdown(&r, 1, a, &sa, &err), 0);
    ck_assert_uint_eq(r.timed, 1);
    ck_assert_int_eq(st_trace_rate_slowdown(&r, 1, b, &sb, &err), 0);
    ck_assert_uint_eq(r.timed, 1);
    ck_assert(sa > 1.05 && sb == sa);
    ck_assert_int_eq(st_trace_rate_slowdown(&r, 1, leaf1, &sl, &err), 0);
    ck_assert(sl == 1);
    /* an unmapped job: 1, nothing simulated */
    ck_assert_int_eq(st_trace_rate_slowdown(&r, 0, a, &s0, &err), 0);
    ck_assert(s0 == 1);
    st_trace_rate_release(&r);
    st_step_ctx_free(x);
    st_topo_free(t);
    st_scn_free(s);
}
END_TEST

Suite *trace_rate_suite(void)
{
    Suite *s = suite_create("trace_rate");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_mapped_trace_job_across_two_oversubscribed_leaves_finishes_later);
    tcase_add_test(tc, test_an_unmapped_trace_job_runs_its_recorded_duration_wherever_placed);
    tcase_add_test(tc, test_a_job_resumed_across_two_leaves_takes_longer_than_inside_one);
    tcase_add_test(tc, test_the_slowdown_is_memoised_by_placement_shape);
    suite_add_tcase(s, tc);
    return s;
}
