/* Every policy's whole schedule, pinned: each registered policy runs a hostile synthetic job
 * list (bursts at one instant, equal run times, jobs past 12 and past 97 days whose keys tie as
 * doubles, GPU counts that fit nothing but an empty node) on 64 GPUs under nine setups
 * (preemption costs, `preemption: false`, rates, failures, tiresias promotion, quotas with
 * priority classes, run times known only at the start, re-timing, round figures that end jobs
 * just as a reservation starts), and a digest of every job's
 * outcome and every stretch it ran, GPUs included, must equal the one the policies gave before
 * they kept ordered structures (main at d075433, where each pick sorted or scanned the queue).
 * So any change to a decision, a tie-break or an order of preemption shows here; the hand-sized
 * schedules of test_policies.c and test_tiresias.c say what the decisions are. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/sched/cluster.h"
#include "models/sched/outage.h"
#include "models/sched/policy.h"

enum { N_JOBS = 500, N_SETUPS = 9, N_POLICIES = 8 };

/* The digests from d075433, by setup, then policy in registry order; those of the preempting
 * policies (srtf, srsf, tiresias, fair-share) under setups 1 and 7, whose preemptions cost a
 * save and a restore, renewed when a preemption during a restore stopped re-running the
 * restore's unrun part as work (test_cluster_figures.c: the job ends that much sooner). */
static const uint64_t pinned[N_SETUPS][N_POLICIES] = {
    {0x398f154bdeca7217u, 0x93402086a743a074u, 0xe5d16ac66a08c84cu, 0xce973ef248aae3f0u,
     0xd1e4affac2eb3c30u, 0x0dc5179245e5e786u, 0x07859f3f8801c731u, 0x2388e1270e59c642u},
    {0x61ab80b3f0e6f5acu, 0xfaa596bccb1f1034u, 0x9063234739f78a92u, 0x43aec14b3e162ae4u,
     0x19f7be566a898f87u, 0xe1d47ca039931e44u, 0xe7c45f650ab734aau, 0x2d8480063f23bbb2u},
    {0xdafd1cd9ec505c3bu, 0x87c59a4ccb8cf70eu, 0xffc7421d4eaafe8fu, 0xffc7421d4eaafe8fu,
     0xd5598c3b78a65d67u, 0xa459ee885d6f0cadu, 0xa459ee885d6f0cadu, 0xb5b90b1bf8dff409u},
    {0x66a492183017fe0eu, 0x7bac0142ef9ee32cu, 0xf71178bf0f7da45du, 0x2af3032492dd0ba1u,
     0x33c27ef61ddbf530u, 0x3dfb64a7abfc46b7u, 0x85964e946a04ad9bu, 0x95540423a3057608u},
    {0x989a3ea5406ecedau, 0x13a8635c3ce310e7u, 0xe83cc65b10606608u, 0x25e4d8929e61220du,
     0x5ba1ed3bde5ede4eu, 0xd1923fb95056f704u, 0xa5021d3e0801a53au, 0xcdc50b78ab9260b7u},
    {0x04ab7ad5c59f46ecu, 0xc2b6697a78fba6afu, 0x21756ec5d4d6a533u, 0xd402e8b7bbae00e0u,
     0x0212e3f0ff82f396u, 0x2274824032c835c8u, 0x1ae86503dc6ab589u, 0xbbcd8aa9395b3554u},
    {0xc723bd152d52791eu, 0x7de99d828a0b53bcu, 0xe8929913df7f4bf4u, 0xa0e902aa4001fc07u,
     0xf1d778574e9de111u, 0x9b4bc9b3b99fc7c6u, 0xe1e6153218c82f09u, 0x2562f7e64fb8dd1cu},
    {0xbaec0c12ba0bd73du, 0x6c7faf49b1edf000u, 0x40ef8756833b3fc4u, 0x4369c06c059cac73u,
     0x4f78d99b98ec3761u, 0x91e1b6f01ff7ce36u, 0x9fe824560df75878u, 0x271ace6c801be1c1u},
    {0xf9fe32f6d3936ce8u, 0x90eaca80e610dbe0u, 0xc474927ddadad590u, 0xbd5ab7eaf4384fa9u,
     0x54eafa6b1c39d2abu, 0xc601af158e3491dau, 0x178ebda1434f70dfu, 0xacfe9d8ab0a312bfu},
};

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* A uniform draw in [0, 1) from the k-th value of stream s. */
static double draw(uint64_t s, uint64_t k)
{
    return (double)(mix(s * 1000003u + k) >> 11) * 0x1p-53;
}

static void make_jobs(st_cluster_job *j, int setup)
{
    double at = 0;
    for (uint64_t i = 0; i < N_JOBS; i++) {
        uint64_t s = (uint64_t)setup * 7919u + i;
        if (draw(s, 0) < 0.6)
            at += floor(-log(1 - draw(s, 1)) * 300); /* whole seconds: bursts at one instant */
        double u = draw(s, 2), d;
        int64_t g = u < 0.4    ? 1
                    : u < 0.6  ? 2
                    : u < 0.75 ? 4
                    : u < 0.85 ? 8
                               : 1 + (int64_t)(draw(s, 3) * 64);
        double v = draw(s, 4);
        if (v < 0.25)
            d = 600 * (double)(1 + (int)(draw(s, 5) * 5)); /* equal run times */
        else if (v < 0.35)
            d = 9e6 + 1e-9 * floor(draw(s, 5) * 1000); /* past 97 days, a nanosecond apart */
        else if (v < 0.45)
            d = 1.2e6 + 0.123456789 * floor(draw(s, 5) * 3); /* past 12 days */
        else
            d = -log(1 - draw(s, 5)) * 3000 + 0.5;
        int unknown = setup == 6 && draw(s, 6) < 0.3;
        double estimate = draw(s, 7) < 0.5 ? d : d * (0.5 + draw(s, 10)); /* exact or not */
        if (setup == 8) { /* round figures: jobs that end just as a reservation starts */
            at = 60 * floor(at / 60);
            d = estimate = 600 * (double)(1 + (int)(draw(s, 5) * 6));
        }
        j[i] = (st_cluster_job){at, unknown ? -1 : d,          estimate,
                                g,  (int64_t)(draw(s, 8) * 3), (int32_t)(draw(s, 9) * 4) - 1};
    }
}

/* The hooks: a save and restore by job, a rate by job and hour, a re-timing by first GPU, a run
 * time from the estimate, checkpoints every 10 minutes. */
static void cost(void *ctx, size_t i, double *save_s, double *restore_s)
{
    (void)ctx;
    *save_s = (double)(mix(i) % 5) * 7.5;
    *restore_s = (double)(mix(i + 9) % 4) * 11;
}

static double rate(void *ctx, size_t i, double now_s)
{
    (void)ctx;
    uint64_t h = mix(i * 31 + (uint64_t)(now_s / 3600));
    return h % 3 == 0 ? 1 : 0.25 + (double)(h % 7) / 10;
}

static int retime(void *ctx, size_t i, const int64_t *gpus, double now_s, double *scale,
                  st_err *err)
{
    (void)ctx;
    (void)i;
    (void)now_s;
    (void)err;
    *scale = 1 + (double)((uint64_t)gpus[0] % 3) * 0.125;
    return 0;
}

static int duration(void *ctx, size_t i, double now_s, double *d, st_err *err)
{
    (void)now_s;
    (void)err;
    const st_cluster_job *j = ctx;
    *d = j[i].estimate_s * (1 + (double)(mix(i) % 3) / 4);
    return 0;
}

static double restorable(void *ctx, size_t i, double progress_s)
{
    (void)ctx;
    (void)i;
    return floor(progress_s / 600) * 600;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * 0x100000001b3u;
    return h;
}

static uint64_t digest(const st_cluster_result *r)
{
    uint64_t h = 0xcbf29ce484222325u;
    char line[512];
    for (size_t i = 0; i < r->n; i++) {
        const st_cluster_job_out *o = &r->job[i];
        int n =
            snprintf(line, sizeof line, "%d %.17g %.17g %.17g %lld %.17g %lld %.17g %.17g\n",
                     (int)o->state, o->start_s, o->end_s, o->duration_s, (long long)o->preemptions,
                     o->preempted_s, (long long)o->interruptions, o->held_s, o->failed_s);
        h = fnv(h, line, (size_t)n);
    }
    for (size_t k = 0; k < r->n_seg; k++) {
        const st_cluster_seg *s = &r->seg[k];
        int n = snprintf(line, sizeof line, "%zu %.17g %.17g:", s->job, s->start_s, s->end_s);
        h = fnv(h, line, (size_t)n);
        h = fnv(h, r->seg_gpus + s->gpu_at, (size_t)s->n * sizeof *r->seg_gpus);
    }
    return h;
}

START_TEST(test_every_schedule_is_unchanged)
{
    int setup = _i;
    st_cluster_cfg c = {.nodes = 8, .gpus_per_node = 8, .nvlink_domain = 8};
    c.fabric.nodes_per_leaf = 2;
    static st_cluster_job jobs[N_JOBS];
    make_jobs(jobs, setup);
    static const char *const tenants[] = {"a", "b", "c"};
    static const st_quota quotas[] = {{.tenant = "a", .share = 0.5},
                                      {.tenant = "b", .share = 0.25}};
    st_sched_cfg sc = {.preemption = setup == 2 ? 0 : -1, .quotas = quotas, .n_quotas = 2};
    if (setup == 4)
        sc.tiresias =
            (st_tiresias_cfg){.queues = 4, .limit_gpu_s = {500, 3000, 20000}, .promote_knob = 1.5};
    static const st_failure_class rates[] = {{"gpu", 30 * 86400.0, 1, -1, {0}, {0}},
                                             {"node", 20 * 86400.0, 1, -1, {0}, {0}}};
    st_failures_cfg fail = {rates, 2, 60, 120, 1, {0}, 0, 0, 0, {0}};
    st_outage_class oc[2];
    st_outage_spec os = {oc, st_outage_classes(&c, &fail, oc), fail.detect_s, fail.restart_s};
    st_cluster_spec sp = {.c = &c,
                          .sched = &sc,
                          .placement = setup == 5 ? "best-fit" : "pack",
                          .jobs = jobs,
                          .n = N_JOBS,
                          .seed = (uint64_t)setup,
                          .keep_segments = 1,
                          .ctx = jobs,
                          .tenants = tenants,
                          .n_tenants = 3,
                          .horizon_s = 1e7};
    sp.preempt_cost = setup == 1 || setup == 7 ? cost : NULL;
    sp.rate = setup == 3 ? rate : NULL;
    if (setup == 5 || setup == 7) {
        sp.outages = &os;
        sp.restorable = restorable;
    }
    if (setup == 6) {
        sp.duration = duration;
        sp.retime = retime;
    }
    for (int k = 0; k < N_POLICIES; k++) {
        sp.policy = st_sched_policy_names[k];
        st_cluster_result r;
        st_err err = {0};
        int rc = st_cluster_run(&sp, &r, &err);
        uint64_t h = rc ? (uint64_t)rc : digest(&r);
        ck_assert_msg(h == pinned[setup][k], "setup %d, %s: digest 0x%016llxu, pinned 0x%016llxu",
                      setup, sp.policy, (unsigned long long)h,
                      (unsigned long long)pinned[setup][k]);
        st_cluster_result_release(&r);
    }
}
END_TEST

Suite *schedule_digest_suite(void)
{
    Suite *s = suite_create("schedule_digest");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_every_schedule_is_unchanged, 0, N_SETUPS);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
