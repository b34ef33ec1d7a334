/* System noise and a synchronous job (models/silicon/noise.h): the closed form against its
 * exact edge and against sampling each rank's detours, then the step model's use of it (the
 * wait split out as noise_s, the parts still adding up), the loader's forms and errors, and
 * the delivery model's profile (docs/models/stragglers.md, "System noise"). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/silicon/noise.h"
#include "models/step/step.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"

/* Periodic noise at a random phase, one stretch shorter than the period, all ranks meeting at
 * its end: a rank is hit with probability tau / period, so the step loses d (1 - (1 -
 * tau / period)^n), Hoefler et al.'s (SC'10) probability that any of n processes is hit. */
START_TEST(test_one_stretch_is_the_chance_that_any_rank_is_hit)
{
    st_noise_sig z = {.every_s = 1e-3, .detour_s = 25e-6, .periodic = 1};
    for (int64_t n = 1; n <= 1 << 16; n *= 16) {
        st_noise_sync s = {.tau_s = 1e-4, .intervals = 1, .group = 1, .ranks = n};
        ASSERT_REL(st_noise_delay(&z, &s), 25e-6 * (1 - pow(0.9, (double)n)), 1e-12);
    }
    /* two and a half periods: two detours each, a third for half of them */
    st_noise_sync s = {.tau_s = 2.5e-3, .intervals = 1, .group = 1, .ranks = 2};
    ASSERT_REL(st_noise_delay(&z, &s), 25e-6 * (2 + 0.75), 1e-12);
    /* no noise, no time, no ranks: nothing lost */
    st_noise_sig none = {0};
    ck_assert_double_eq(st_noise_delay(&none, &s), 0);
    s.tau_s = 0;
    ck_assert_double_eq(st_noise_delay(&z, &s), 0);
}
END_TEST

/* The closed form against a seeded sampling of every rank's detours, Poisson and periodic, one
 * stretch and many (the central-limit and Blom steps), within 4% (100 sampled steps each: a
 * few million draws, well inside Check's time limit under the sanitizers). */
START_TEST(test_the_closed_form_matches_sampling)
{
    static const struct {
        double every, tau;
        int periodic;
        int64_t intervals, group, ranks;
    } c[] = {
        {1e-3, 5e-4, 0, 1, 1, 512},    /* one stretch, Poisson: exact */
        {1e-2, 3e-3, 1, 100, 8, 512},  /* TP 8, periodic, 0.3 periods a stretch */
        {1e-2, 3e-3, 0, 100, 8, 512},  /* the same, Poisson */
        {1e-3, 2.2e-3, 0, 50, 4, 256}, /* two detours a stretch */
        {1e-1, 1e-3, 1, 500, 16, 64},  /* rare detours */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        st_noise_sig z = {.every_s = c[i].every, .detour_s = 1e-5, .periodic = c[i].periodic};
        st_noise_sync s = {.tau_s = c[i].tau,
                           .intervals = c[i].intervals,
                           .group = c[i].group,
                           .ranks = c[i].ranks};
        double closed = st_noise_delay(&z, &s), sampled = st_noise_delay_sampled(&z, &s, 7, 100);
        ck_assert_msg(fabs(closed / sampled - 1) < 0.04, "case %zu: closed %g, sampled %g", i,
                      closed, sampled);
    }
}
END_TEST

/* Ferreira, Bridges and Brightwell, "Characterizing Application Sensitivity to OS Interference
 * Using Kernel-Level Noise Injection" (SC'08): "2.5% net processor noise at 10,000 nodes can
 * have no impact or can result in a factor of 20 slowdown, depending solely on how the noise is
 * generated". Both signatures below are 2.5% of a rank's time. A bulk-synchronous code with a
 * global collective every millisecond loses just that 2.5% to 1 kHz x 25 us detours (every rank
 * is hit once per stretch, the slowest no later than the rest), but 3.5x to 10 Hz x 2.5 ms
 * ones (some one of 10,000 ranks is nearly always in a detour); one that synchronises every
 * 125 us, 21x. */
START_TEST(test_the_same_share_of_noise_costs_nothing_or_twentyfold)
{
    st_noise_sig fine = {.every_s = 1e-3, .detour_s = 25e-6, .periodic = 1};
    st_noise_sig coarse = {.every_s = 0.1, .detour_s = 2.5e-3, .periodic = 1};
    for (int grain = 0; grain < 2; grain++) {
        double tau = grain ? 125e-6 : 1e-3;
        /* 10,000 ranks whose every stretch ends in a collective over all of them */
        st_noise_sync s = {.tau_s = tau, .intervals = 1000, .group = 10000, .ranks = 10000};
        double slow_fine = 1 + st_noise_delay(&fine, &s) / (1000 * tau);
        double slow_coarse = 1 + st_noise_delay(&coarse, &s) / (1000 * tau);
        if (!grain) {
            ck_assert_msg(slow_fine <= 1.026, "1 kHz x 25 us: %g", slow_fine);
            ck_assert_msg(slow_coarse > 3.4 && slow_coarse < 3.6, "10 Hz x 2.5 ms: %g",
                          slow_coarse);
        } else {
            ck_assert_msg(slow_coarse > 20, "10 Hz x 2.5 ms at 125 us: %g", slow_coarse);
        }
    }
}
END_TEST

/* Co-scheduled noise (every rank detoured at the same moments: Beckman et al., "Benchmarking
 * the effects of operating system interference on extreme-scale parallel machines", Cluster
 * Computing 2008, "synchronizing the noise can significantly reduce its negative influence")
 * costs each stretch its own mean share, whatever the ranks; sampling agrees. */
START_TEST(test_coscheduled_noise_costs_its_mean_share)
{
    st_noise_sig z = {.every_s = 1e-2, .detour_s = 1e-4, .periodic = 0, .cosched = 1};
    st_noise_sync s = {.tau_s = 3e-3, .intervals = 400, .group = 8, .ranks = 4096};
    ASSERT_REL(st_noise_delay(&z, &s), 400 * 3e-3 * 1e-4 / 1e-2, 1e-12);
    ASSERT_REL(st_noise_delay_sampled(&z, &s, 11, 100), st_noise_delay(&z, &s), 0.04);
    z.cosched = 0; /* the same noise at random phases costs more */
    ck_assert(st_noise_delay(&z, &s) > 2 * 400 * 3e-3 * 1e-4 / 1e-2);
    /* the two parts --explain prints add up to it; one stretch over all ranks has no spread */
    double mean, spread;
    ASSERT_REL(st_noise_delay_parts(&z, &s, &mean, &spread), mean + spread, 1e-15);
    ck_assert(mean > 0 && spread > 0);
    s.intervals = 1;
    st_noise_delay_parts(&z, &s, &mean, &spread);
    ck_assert_double_eq(spread, 0);
    ck_assert_double_eq(mean, st_noise_delay(&z, &s));
}
END_TEST

/* More ranks, more loss; and at least the mean share every rank loses on its own. */
START_TEST(test_the_loss_grows_with_ranks_and_is_at_least_the_mean)
{
    st_noise_sig z = {.every_s = 1e-2, .detour_s = 1e-4, .periodic = 0};
    double last = 0;
    for (int64_t n = 8; n <= 1 << 17; n *= 8) {
        st_noise_sync s = {.tau_s = 2e-3, .intervals = 1000, .group = 8, .ranks = n};
        double t = st_noise_delay(&z, &s);
        ck_assert(t > last);
        ck_assert(t >= 1000 * 2e-3 * 1e-4 / 1e-2);
        last = t;
    }
}
END_TEST

static st_scn *load(const char *yaml)
{
    st_scn *s = NULL;
    st_diag d = {0};
    int rc = st_scn_load_buffer("noise.yaml", yaml, strlen(yaml), &s, &d);
    ck_assert_msg(rc == 0, "load: %s", d.n ? d.items[0].msg : "?");
    return s;
}

#define SCN(var, cost)                                                                             \
    "version: 1\n"                                                                                 \
    "cluster: { gpu: h100-sxm, nodes: 16" var " }\n"                                               \
    "workloads:\n"                                                                                 \
    "  - { name: ft, model: llama3-8b, gpus: 128, global_batch: 256,\n"                            \
    "      parallel: { tp: 4, pp: 2, dp: 16, sequence_parallel: true } }\n" cost

static st_step_result step_of(st_scn *s)
{
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_step_ctx_new(st_scn_cluster(s), &x, &err), 0);
    st_step_result r;
    ck_assert_msg(st_step_run(x, st_scn_workload(s, 0), 1, &r, NULL, &err) == 0, "%s", err.msg);
    st_step_ctx_free(x);
    return r;
}

/* Noise lengthens the step by its wait and by nothing else: every other part is as without
 * it, and the parts still add up to the step. */
START_TEST(test_the_step_waits_for_detoured_ranks)
{
    st_scn *a = load(SCN("", "")),
           *b = load(SCN(", variability: { noise: { every: 10 ms, detour: 100 us } }", ""));
    st_step_result r0 = step_of(a), r1 = step_of(b);
    ck_assert_double_eq(r0.b.noise_s, 0);
    ck_assert(r1.b.noise_s > 0);
    ck_assert_double_eq(r1.b.compute_s, r0.b.compute_s);
    ck_assert_double_eq(r1.b.bubble_s, r0.b.bubble_s);
    ASSERT_REL(r1.step_time_s, r0.step_time_s + r1.b.noise_s, 1e-12);
    /* 1% of each rank's time as detours costs the step at least 1% of its busy time */
    const st_step_breakdown *k = &r1.b;
    double busy =
        k->compute_s + k->tp_comm_s + k->pp_comm_s + k->dp_comm_exposed_s + k->optimizer_s;
    ck_assert(k->noise_s >= 0.01 * busy);
    ASSERT_REL(k->compute_s + k->tp_comm_s + k->pp_comm_s + k->dp_comm_exposed_s + k->bubble_s +
                   k->optimizer_s + k->straggler_s + k->noise_s,
               r1.step_time_s, 1e-6);
    /* co-scheduled, the same detours cost just their share of the busy time, 1% */
    st_scn *c =
        load(SCN(", variability: { noise: { every: 10 ms, detour: 100 us, cosched: true } }", ""));
    st_step_result r2 = step_of(c);
    ASSERT_REL(r2.b.noise_s, 0.01 * busy, 1e-9);
    ck_assert(r2.b.noise_s < r1.b.noise_s);
    st_scn_free(c);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* A cloud delivery brings its profile's noise; stating `none` (or a signature) overrides it;
 * bare metal has none. */
START_TEST(test_delivery_selects_a_noise_profile)
{
#define CLOUD "cost: { delivery: cloud, gpu_hour_price: 2.5 USD/h }\n"
    st_scn *bare = load(SCN("", "cost: { delivery: bare-metal, gpu_hour_price: 2.5 USD/h }\n"));
    st_scn *cloud = load(SCN("", CLOUD));
    st_scn *quiet = load(SCN(", variability: { noise: none }", CLOUD));
    const st_variability_cfg *v = &st_scn_cluster(cloud)->variability;
    ck_assert_str_eq(v->noise_profile, "cloud-vm");
    ck_assert(v->noise_every_s > 0 && v->noise_detour_s > 0);
    ck_assert_double_eq(st_scn_cluster(bare)->variability.noise_every_s, 0);
    ck_assert_double_eq(st_scn_cluster(quiet)->variability.noise_every_s, 0);
    st_step_result rb = step_of(bare), rc = step_of(cloud), rq = step_of(quiet);
    ck_assert_double_eq(rb.b.noise_s, 0);
    ck_assert_double_eq(rq.b.noise_s, 0);
    ck_assert(rc.step_time_s > rb.step_time_s);
    st_scn_free(bare);
    st_scn_free(cloud);
    st_scn_free(quiet);
#undef CLOUD
}
END_TEST

static void refused(const char *var, const char *want)
{
    const char *y = NULL;
    char buf[1024];
    snprintf(buf, sizeof buf, SCN("%s", ""), var);
    y = buf;
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_ne(st_scn_load_buffer("noise.yaml", y, strlen(y), &s, &d), 0);
    ck_assert_ptr_null(s);
    ck_assert(d.n >= 1);
    ck_assert_int_eq(d.items[0].loc.line, 2);
    ck_assert_msg(strstr(d.items[0].msg, want) != NULL, "%s", d.items[0].msg);
}

START_TEST(test_bad_noise_is_refused_at_its_value)
{
    refused(", variability: { noise: loud }", "expected a profile (none, cloud-vm");
    refused(", variability: { noise: { every: 1 ms, detour: 2 ms } }", "expected detour < every");
    refused(", variability: { noise: { every: 1 ms } }", "detour");
    refused(", variability: { noise: { every: 1 ms, detour: 1 us, pattern: bursty } }", "pattern");
}
END_TEST

Suite *noise_suite(void)
{
    Suite *s = suite_create("noise");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_one_stretch_is_the_chance_that_any_rank_is_hit);
    tcase_add_test(tc, test_the_closed_form_matches_sampling);
    tcase_add_test(tc, test_the_loss_grows_with_ranks_and_is_at_least_the_mean);
    tcase_add_test(tc, test_the_same_share_of_noise_costs_nothing_or_twentyfold);
    tcase_add_test(tc, test_coscheduled_noise_costs_its_mean_share);
    tcase_add_test(tc, test_the_step_waits_for_detoured_ranks);
    tcase_add_test(tc, test_delivery_selects_a_noise_profile);
    tcase_add_test(tc, test_bad_noise_is_refused_at_its_value);
    suite_add_tcase(s, tc);
    return s;
}
