/* Job lifetime under failures: Young's and Daly's intervals against Daly's worked examples, the
 * Monte Carlo against Daly's expected wall time, the Llama 3 interruption count, exact time
 * accounting, asynchronous checkpoints, the renewal path, determinism and refused specs. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/config/limits.h"
#include "models/reliability/interval.h"
#include "models/reliability/lifetime.h"
#include "models/reliability/spare_wait.h"
#include "models/reliability/spares.h"
#include "sim/err.h"
#include "sim/rng.h"
#include "sim/stats.h"

#define MIN  60.0
#define HOUR 3600.0
#define DAY  86400.0

/* Daly 2006's example job (Daly 2006, "A higher order estimate of the optimum checkpoint
 * interval"): 500 h of work, R = 10 min, checkpoint 5 min. */
#define DALY_TS    (500 * HOUR)
#define DALY_R     (10 * MIN)
#define DALY_DELTA (5 * MIN)

/* One exponential class of count 1 whose MTBF is the job's. */
static st_life_class one_class(double mtbf_s, double shape)
{
    return (st_life_class){.component = "job", .count = 1, .mtbf_s = mtbf_s, .shape = shape};
}

static st_life_spec job(double work_s, double every_s, double stall_s, double commit_s,
                        double down_s, const st_life_class *c, int nc)
{
    return (st_life_spec){.step_s = 1.0,
                          .steps = (int64_t)llround(work_s),
                          .ckpt_every_s = every_s,
                          .ckpt_stall_s = stall_s,
                          .ckpt_commit_s = commit_s,
                          .restart_s = down_s,
                          .classes = c,
                          .n_classes = nc};
}

static st_life_result run(const st_life_spec *s, uint64_t seed, uint64_t replica)
{
    st_life_result r;
    st_err err = {0};
    int rc = st_life_run(s, seed, replica, &r, &err);
    ck_assert_msg(rc == 0, "st_life_run: %s", err.msg);
    return r;
}

START_TEST(test_daly_interval_reproduces_the_worked_examples)
{
    /* Daly 2006, figure captions: tau_opt 117 min at M = 24 h, 57 min at
     * 6 h, 9.1 min at 15 min, for delta = 5 min. The rounding of the captions is below 0.6%. */
    static const double m[] = {24 * HOUR, 6 * HOUR, 15 * MIN}, tau[] = {117, 57, 9.1};
    for (int i = 0; i < 3; i++) {
        double t = st_daly_interval(DALY_DELTA, m[i]) / MIN;
        ck_assert_msg(fabs(t - tau[i]) <= 0.01 * tau[i], "M %g: %g min, Daly %g", m[i], t, tau[i]);
    }
}
END_TEST

START_TEST(test_young_interval_is_sqrt_two_delta_m)
{
    /* sqrt(2 * 5 min * 24 h) = sqrt(14400) min = 120 min exactly. */
    ck_assert_double_eq_tol(st_young_interval(DALY_DELTA, 24 * HOUR), 120 * MIN, 1e-9);
    ck_assert_double_eq(st_young_interval(0, HOUR), 0);
}
END_TEST

START_TEST(test_daly_interval_is_below_young_by_five_ninths_to_two_thirds_of_delta)
{
    /* With s = sqrt(delta / 2M), Young - Daly = (delta / 2)(4/3 - 2s/9), which lies between
     * 5 delta / 9 (s -> 1) and 2 delta / 3 (s -> 0). */
    for (double r = 1e-6; r < 2.0; r *= 1.7) {
        double m = HOUR, d = r * m, gap = st_young_interval(d, m) - st_daly_interval(d, m);
        ck_assert_msg(gap >= 5.0 / 9.0 * d * (1 - 1e-12) && gap <= 2.0 / 3.0 * d * (1 + 1e-12),
                      "delta/M %g: gap %g delta", r, gap / d);
    }
}
END_TEST

START_TEST(test_daly_interval_is_the_mtbf_once_delta_reaches_two_mtbf)
{
    ck_assert_double_eq(st_daly_interval(2 * HOUR, HOUR), HOUR);
    ck_assert_double_eq(st_daly_interval(10 * HOUR, HOUR), HOUR);
    ck_assert(st_daly_interval(1.999 * HOUR, HOUR) < st_young_interval(1.999 * HOUR, HOUR));
}
END_TEST

START_TEST(test_daly_expected_wall_tends_to_work_plus_checkpoints_without_failures)
{
    /* M -> inf: each segment takes tau + delta, so the wall time is Ts (1 + delta / tau). */
    double tau = 2 * HOUR;
    double w = st_daly_expected_wall(DALY_TS, tau, DALY_DELTA, DALY_R, 1e15);
    ck_assert_double_eq_tol(w / (DALY_TS * (1 + DALY_DELTA / tau)), 1, 1e-9);
    /* And grows with the failure rate. */
    ck_assert(st_daly_expected_wall(DALY_TS, tau, DALY_DELTA, DALY_R, HOUR) >
              st_daly_expected_wall(DALY_TS, tau, DALY_DELTA, DALY_R, 2 * HOUR));
}
END_TEST

/* Daly's job with tau_opt for mtbf, rounded so that work / tau is an integer (the condition
 * under which the formula is exact), run for n replicas: the mean wall time must be within 2%
 * of Daly's and within four standard errors of it (which a semantic slip such as failures not
 * striking during restarts, a factor e^(R/M), would break). */
static void check_against_daly(double work, double mtbf, int n)
{
    double tau = work / round(work / st_daly_interval(DALY_DELTA, mtbf));
    st_life_class c = one_class(mtbf, 1);
    st_life_spec s = job(work, tau, DALY_DELTA, DALY_DELTA, DALY_R, &c, 1);
    st_life_summary sum;
    st_err err = {0};
    ck_assert_int_eq(st_life_replicas(&s, 42, n, &sum, &err), 0);
    double daly = st_daly_expected_wall(work, tau, DALY_DELTA, DALY_R, mtbf);
    double se = (sum.wall_s.hi - sum.wall_s.mean) / 1.96; /* t ~ 1.96 at these n */
    ck_assert_msg(fabs(sum.wall_s.mean - daly) <= 0.02 * daly, "M %g: mean %g, Daly %g", mtbf,
                  sum.wall_s.mean, daly);
    ck_assert_msg(fabs(sum.wall_s.mean - daly) <= 4 * se, "M %g: mean %g, Daly %g, se %g", mtbf,
                  sum.wall_s.mean, daly, se);
}

START_TEST(test_monte_carlo_mean_wall_matches_daly_at_m_24h)
{
    check_against_daly(DALY_TS, 24 * HOUR, 1000);
}
END_TEST

START_TEST(test_monte_carlo_mean_wall_matches_daly_at_m_6h)
{
    check_against_daly(DALY_TS, 6 * HOUR, 1000);
}
END_TEST

START_TEST(test_monte_carlo_mean_wall_matches_daly_at_m_15min)
{
    /* Here restarts are hit often (e^(R/M) = 1.95); 50 h of work keeps the run short. */
    check_against_daly(50 * HOUR, 15 * MIN, 1000);
}
END_TEST

START_TEST(test_without_failures_goodput_is_one_minus_the_stall_fraction)
{
    /* 1000 s of work, checkpoints every 90 s (11 of them, none at the end) or 100 s (10, the
     * last at the end), synchronous and asynchronous. */
    static const double every[] = {90, 100, 100, 0}, commit[] = {7, 7, 30, 7};
    static const int64_t nck[] = {11, 10, 10, 0};
    for (int i = 0; i < 4; i++) {
        st_life_spec s = job(1000, every[i], 7, commit[i], 60, NULL, 0);
        st_life_result r = run(&s, 1, 0);
        ck_assert_int_eq(r.interruptions, 0);
        ck_assert_int_eq(r.checkpoints, nck[i]);
        ck_assert_double_eq(r.lost_work_s, 0);
        ck_assert_double_eq(r.downtime_s, 0);
        ck_assert_double_eq_tol(r.goodput, 1 - r.ckpt_stall_s / r.wall_s, 1e-12);
        /* Every stall is 7 s; an asynchronous last checkpoint keeps the job until it commits. */
        double tail = every[i] == 100 ? commit[i] - 7 : 0;
        ck_assert_double_eq_tol(r.wall_s, 1000 + 7 * (double)nck[i] + tail, 1e-9);
    }
}
END_TEST

START_TEST(test_next_checkpoint_waits_for_the_previous_commit)
{
    /* Work 1000 s, a checkpoint every 100 s stalling 1 s and committing 150 s after its start.
     * Checkpoint k starts at 100 + 150 (k - 1): the next one is due 101 s after the previous
     * started but must wait for its commit. The tenth (at the end) commits at 1450 + 150. */
    st_life_spec s = job(1000, 100, 1, 150, 0, NULL, 0);
    st_life_result r = run(&s, 1, 0);
    ck_assert_int_eq(r.checkpoints, 10);
    ck_assert_double_eq_tol(r.wall_s, 1600, 1e-9);
    ck_assert_double_eq_tol(r.ckpt_stall_s, 600, 1e-9);
}
END_TEST

START_TEST(test_wall_time_is_work_plus_lost_plus_stall_plus_downtime)
{
    /* Failures often (MTBF 30 min), asynchronous checkpoints with waits, failures during
     * downtime: every tick must still be accounted for. */
    st_life_class c[] = {one_class(2 * HOUR, 1), {"node", 3, 6 * HOUR, 0.7}};
    st_life_spec s = job(20 * HOUR, 10 * MIN, 20, 12 * MIN, 5 * MIN, c, 2);
    s.detect_s = 60;
    s.restore_s = 120;
    for (uint64_t rep = 0; rep < 20; rep++) {
        st_life_result r = run(&s, 7, rep);
        double sum = 20 * HOUR + r.lost_work_s + r.ckpt_stall_s + r.downtime_s;
        ck_assert_double_eq_tol(r.wall_s, sum, 1e-6);
        ck_assert(r.interruptions > 0);
        /* The last downtime always runs its full length before the job can finish. */
        ck_assert(r.downtime_s >= 5 * MIN + 60 + 120 - 1e-9);
        ck_assert(r.goodput > 0 && r.goodput < 1);
    }
}
END_TEST

START_TEST(test_spare_nodes_add_the_wait_for_a_repair_and_no_more)
{
    /* 16 GPUs (one node taken out per failure) and 4 nodes (likewise), exponential, MTBF 2 h
     * for the job; a failure's node is out for 1 h, the plain downtime 5 min + 1 min. */
    st_life_class c[] = {{"gpu", 16, 32 * HOUR, 1}, {"node", 4, 8 * HOUR, 1}};
    const int64_t take[] = {1, 1};
    const double repair[] = {HOUR, HOUR};
    st_life_spec s = job(40 * HOUR, 20 * MIN, 10, 10, 5 * MIN, c, 2);
    s.detect_s = 60;
    s.take = take;
    s.repair_s = repair;
    for (uint64_t rep = 0; rep < 10; rep++) {
        st_life_result plain = run(&s, 3, rep);
        /* spares enough for every node out: the same life to the tick, no wait */
        s.has_spares = 1;
        s.spares = 1000;
        st_life_result many = run(&s, 3, rep);
        ck_assert_double_eq(many.wall_s, plain.wall_s);
        ck_assert_int_eq(many.interruptions, plain.interruptions);
        ck_assert_double_eq(many.spare_wait_s, 0);
        /* none: every restart waits for its own node's repair, R - (detect + restart), or
         * until the next failure cuts the wait short (its part so far counted) */
        s.spares = 0;
        st_life_result none = run(&s, 3, rep);
        double each = HOUR - (60 + 5 * MIN), k = none.spare_wait_s / each;
        ck_assert(none.interruptions > 0 && none.spare_wait_s > 0);
        ck_assert(k <= (double)none.interruptions && none.spare_wait_s < none.downtime_s);
        ck_assert(none.wall_s > plain.wall_s);
        double sum = 40 * HOUR + none.lost_work_s + none.ckpt_stall_s + none.downtime_s;
        ck_assert_double_eq_tol(none.wall_s, sum, 1e-6); /* the wait is downtime */
        /* one spare: between the two */
        s.spares = 1;
        st_life_result one = run(&s, 3, rep);
        ck_assert(one.spare_wait_s < none.spare_wait_s);
        s.has_spares = 0;
    }
}
END_TEST

/* A job the closed form lets through but that never finishes stops at the most interruptions a
 * life simulates, not at the clock's end (a fuzzing find: 32 GPUs failing every hour or so, nodes
 * out for 2-12 h, 87 spares held 97% of the time, a restart longer than the gap between
 * failures; it simulated 42 million interruptions, 146 years, for 30 s of CPU). */
START_TEST(test_a_life_past_its_interruption_cap_stops_unfinished)
{
    st_life_class c[] = {{"gpu", 32, HOUR, 70}, {"node", 4, 5 * HOUR, 1}, {"rack", 1, 5 * HOUR, 1}};
    const int64_t take[] = {1, 1, 4};
    const double repair[] = {3 * HOUR, 2 * HOUR, 12 * HOUR};
    st_life_spec s = job(3112 * 1.777, 2 * MIN, 0.225, 0.5, 5 * MIN, c, 3);
    s.detect_s = 2 * MIN;
    s.take = take;
    s.repair_s = repair;
    s.has_spares = 1;
    s.spares = 87;
    st_life_result r;
    st_err err = {0};
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ERANGE);
    char want[64];
    snprintf(want, sizeof want, "(%d interruptions)", ST_LIM_LIFE_INTERRUPTIONS + 1);
    ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
}
END_TEST

START_TEST(test_planned_stops_save_then_cost_the_restart_and_restore_and_lose_nothing)
{
    /* Llama 3 counted 47 planned interruptions beside its 419 failures (arXiv 2407.21783,
     * section 3.3.4). With no failing class, every interruption is planned: each saves first
     * (the 30 s commit of the asynchronous save), restarts (10 min) and restores (60 s), with no
     * detection (10 min here, which must not count) and no work lost. Over the replicas their
     * count is the wall time over the mean gap (Wald's identity for the Poisson process). */
    st_life_spec s = job(100 * HOUR, HOUR, 0, 30, 10 * MIN, NULL, 0);
    s.detect_s = 10 * MIN;
    s.restore_s = 60;
    s.planned_every_s = 5 * HOUR;
    double n = 0, expect = 0;
    for (uint64_t rep = 0; rep < 200; rep++) {
        st_life_result r = run(&s, 11, rep);
        ck_assert_int_eq(r.interruptions, r.planned);
        ck_assert(r.lost_work_s == 0);
        ck_assert_double_eq_tol(r.downtime_s, (double)r.planned * (30 + 10 * MIN + 60), 1e-6);
        ck_assert_double_eq_tol(r.wall_s, 100 * HOUR + r.ckpt_stall_s + r.downtime_s, 1e-6);
        n += (double)r.planned;
        expect += r.wall_s / (5 * HOUR);
    }
    ck_assert_msg(fabs(n / expect - 1) < 0.03, "planned %g against %g", n, expect);
    /* A job that checkpoints with no cadence (`every: auto` without failures) saves at the
     * announced stop: it loses nothing (a fuzzing find: it lost every stop's work and never
     * finished). */
    st_life_spec saves = job(20 * HOUR, 0, 0, 30, 10 * MIN, NULL, 0);
    saves.planned_every_s = 5 * HOUR;
    st_life_result sv = run(&saves, 11, 0);
    ck_assert(sv.planned > 0 && sv.lost_work_s == 0);
    /* A job that takes no checkpoint cannot save: a planned stop loses its work. */
    st_life_spec none = job(20 * HOUR, 0, 0, 0, 10 * MIN, NULL, 0);
    none.planned_every_s = 5 * HOUR;
    st_life_result r = run(&none, 11, 0);
    ck_assert(r.planned > 0 && r.lost_work_s > 0);
}
END_TEST

/* Fail-slow nodes (slow_every_s, slow_cost_s; docs/models/stragglers.md) are stops as planned
 * ones are, each down longer by the slow stretch's cost: with neither failures nor planned
 * stops every interruption is one, the downtime is their count times commit + restart +
 * restore + cost, and their count is the time up over the mean gap. Beside planned stops their
 * streams are apart: the planned draws are those of the job without slow nodes. */
START_TEST(test_slow_nodes_are_excluded_by_a_stop_charged_with_their_stretch)
{
    st_life_spec s = job(100 * HOUR, HOUR, 0, 30, 10 * MIN, NULL, 0);
    s.restore_s = 60;
    s.slow_every_s = 4 * HOUR;
    s.slow_cost_s = 20 * MIN;
    double n = 0, expect = 0;
    for (uint64_t rep = 0; rep < 200; rep++) {
        st_life_result r = run(&s, 13, rep);
        ck_assert_int_eq(r.interruptions, r.slow);
        ck_assert_int_eq(r.planned, 0);
        ck_assert(r.lost_work_s == 0);
        ck_assert_double_eq_tol(r.downtime_s, (double)r.slow * (30 + 10 * MIN + 60 + 20 * MIN),
                                1e-6);
        ck_assert_double_eq_tol(r.wall_s, 100 * HOUR + r.ckpt_stall_s + r.downtime_s, 1e-6);
        n += (double)r.slow;
        expect += (r.wall_s - r.downtime_s) / (4 * HOUR); /* none counts while down */
    }
    ck_assert_msg(fabs(n / expect - 1) < 0.03, "slow %g against %g", n, expect);
    st_life_spec p = job(100 * HOUR, HOUR, 0, 30, 10 * MIN, NULL, 0);
    p.planned_every_s = 5 * HOUR;
    st_life_result a = run(&p, 13, 0);
    p.slow_every_s = 1e5 * HOUR; /* a stream that hardly ever comes (11 years on average) */
    p.slow_cost_s = 20 * MIN;
    st_life_result b = run(&p, 13, 0);
    ck_assert_int_eq(b.slow, 0);
    ck_assert_int_eq(a.planned, b.planned);
    ck_assert_double_eq(a.wall_s, b.wall_s);
}
END_TEST

START_TEST(test_planned_stops_and_failures_together_account_for_every_tick)
{
    /* Failures (two classes, one Weibull), two-level checkpoints and planned stops at once:
     * wall = work + lost + stall + downtime still holds, failures still strike, and a planned
     * stop never adds lost work (the same seed without planned stops loses no less per
     * failure on average; here it is enough that the identity holds and both kinds occur). */
    st_life_class c[] = {one_class(2 * HOUR, 1), {"node", 3, 6 * HOUR, 0.7}};
    double loss[] = {0.5, 1};
    st_life_spec s = job(20 * HOUR, 10 * MIN, 20, 12 * MIN, 5 * MIN, c, 2);
    s.detect_s = 60;
    s.restore_s = 120;
    s.mem_every_s = 60;
    s.mem_stall_s = 1;
    s.mem_restore_s = 5;
    s.mem_loss = loss;
    s.planned_every_s = 3 * HOUR;
    int64_t planned = 0, failures = 0;
    for (uint64_t rep = 0; rep < 20; rep++) {
        st_life_result r = run(&s, 7, rep);
        double sum = 20 * HOUR + r.lost_work_s + r.ckpt_stall_s + r.downtime_s;
        ck_assert_double_eq_tol(r.wall_s, sum, 1e-6);
        planned += r.planned;
        failures += r.interruptions - r.planned;
    }
    ck_assert(planned > 0 && failures > 0);
}
END_TEST

START_TEST(test_failure_before_commit_rolls_back_to_the_previous_checkpoint)
{
    /* A checkpoint at 600 s of 1000 s of work that stalls nothing and would commit only after
     * 10^6 s: every failure (MTBF 500 s) strikes before it commits, so each must throw away all
     * the work since the start, exactly as if the job took no checkpoint at all. Same seed,
     * same failure times: the two runs must agree to the tick. Rolling back to the uncommitted
     * checkpoint would make the first job finish sooner. */
    st_life_class c = one_class(500, 1);
    st_life_spec async = job(1000, 600, 0, 1e6, 30, &c, 1);
    st_life_spec none = job(1000, 0, 0, 0, 30, &c, 1);
    int64_t total = 0;
    for (uint64_t rep = 0; rep < 50; rep++) {
        st_life_result a = run(&async, 3, rep), b = run(&none, 3, rep);
        ck_assert_int_eq(a.checkpoints, 0);
        ck_assert_int_eq(a.interruptions, b.interruptions);
        ck_assert(a.wall_s == b.wall_s);
        ck_assert(a.lost_work_s == b.lost_work_s);
        total += a.interruptions;
    }
    ck_assert(total > 50); /* the case did exercise failures */
}
END_TEST

START_TEST(test_same_seed_and_replica_repeat_and_replicas_differ)
{
    st_life_class c = one_class(6 * HOUR, 1);
    st_life_spec s = job(DALY_TS, 2 * HOUR, DALY_DELTA, DALY_DELTA, DALY_R, &c, 1);
    st_life_result a = run(&s, 11, 5), b = run(&s, 11, 5), d = run(&s, 11, 6), e = run(&s, 12, 5);
    ck_assert(a.wall_s == b.wall_s && a.interruptions == b.interruptions &&
              a.lost_work_s == b.lost_work_s && a.downtime_s == b.downtime_s);
    ck_assert(a.wall_s != d.wall_s);
    ck_assert(a.wall_s != e.wall_s);
    st_life_summary s1, s2;
    ck_assert_int_eq(st_life_replicas(&s, 11, 20, &s1, NULL), 0);
    ck_assert_int_eq(st_life_replicas(&s, 11, 20, &s2, NULL), 0);
    ck_assert(s1.wall_s.mean == s2.wall_s.mean && s1.wall_s.hi == s2.wall_s.hi);
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The percentiles are those of the replicas' own values. With 201 replicas, (n - 1) q is a
 * whole number for q = 0.1, 0.5, 0.9 and 0.99, so each is one order statistic of the values
 * st_life_run gives (sorted here with qsort, not GSL); with 4 it falls between two, and the
 * definition interpolates linearly, x[0.3] = x[0] + 0.3 (x[1] - x[0]) for P10. The spread of
 * single lives is wide where the interval of the mean is narrow. */
START_TEST(test_replica_percentiles_are_order_statistics_of_the_replicas)
{
    st_life_class c = one_class(6 * HOUR, 1);
    st_life_spec s = job(DALY_TS, 2 * HOUR, DALY_DELTA, DALY_DELTA, DALY_R, &c, 1);
    enum { N = 201 };
    double wall[N], lost[N], good[N];
    for (int i = 0; i < N; i++) {
        st_life_result r = run(&s, 7, (uint64_t)i);
        wall[i] = r.wall_s;
        lost[i] = r.lost_work_s;
        good[i] = r.goodput;
    }
    qsort(wall, N, sizeof *wall, cmp_double);
    qsort(lost, N, sizeof *lost, cmp_double);
    qsort(good, N, sizeof *good, cmp_double);
    st_life_summary sum, again;
    ck_assert_int_eq(st_life_replicas(&s, 7, N, &sum, NULL), 0);
    ck_assert_double_eq(sum.wall_s.p10, wall[20]);
    ck_assert_double_eq(sum.wall_s.p50, wall[100]);
    ck_assert_double_eq(sum.wall_s.p90, wall[180]);
    ck_assert_double_eq(sum.wall_s.p99, wall[198]);
    ck_assert_double_eq(sum.lost_work_s.p90, lost[180]);
    ck_assert_double_eq(sum.goodput.p10, good[20]);
    ck_assert(sum.wall_s.p10 < sum.wall_s.lo && sum.wall_s.hi < sum.wall_s.p90);
    ck_assert(sum.interruptions.p10 <= sum.interruptions.p50 &&
              sum.interruptions.p50 <= sum.interruptions.p90 &&
              sum.interruptions.p90 <= sum.interruptions.p99);
    ck_assert_int_eq(st_life_replicas(&s, 7, N, &again, NULL), 0);
    ck_assert(again.wall_s.p99 == sum.wall_s.p99 && again.goodput.p10 == sum.goodput.p10);
    double w4[4];
    for (int i = 0; i < 4; i++)
        w4[i] = run(&s, 7, (uint64_t)i).wall_s;
    qsort(w4, 4, sizeof *w4, cmp_double);
    ck_assert_int_eq(st_life_replicas(&s, 7, 4, &sum, NULL), 0);
    ck_assert_double_eq_tol(sum.wall_s.p10, w4[0] + 0.3 * (w4[1] - w4[0]), 1e-9 * w4[0]);
    ck_assert_double_eq_tol(sum.wall_s.p50, (w4[1] + w4[2]) / 2, 1e-9 * w4[0]);
}
END_TEST

/* One replica is a summary too: its percentiles are its own figures, and it has no interval
 * (NaN, which the writers leave out) rather than a zero-width one. */
START_TEST(test_one_replica_is_summarised_without_an_interval)
{
    st_life_class c = one_class(6 * HOUR, 1);
    st_life_spec s = job(DALY_TS, 2 * HOUR, DALY_DELTA, DALY_DELTA, DALY_R, &c, 1);
    st_life_result r = run(&s, 3, 0);
    st_life_summary sum;
    st_err err = {0};
    ck_assert_int_eq(st_life_replicas(&s, 3, 1, &sum, &err), 0);
    ck_assert_int_eq(sum.replicas, 1);
    ck_assert(sum.wall_s.mean == r.wall_s && sum.wall_s.p10 == r.wall_s &&
              sum.wall_s.p50 == r.wall_s && sum.wall_s.p90 == r.wall_s &&
              sum.wall_s.p99 == r.wall_s);
    ck_assert(sum.interruptions.p99 == (double)r.interruptions);
    ck_assert(sum.lost_work_s.p50 == r.lost_work_s && sum.goodput.p50 == r.goodput);
    ck_assert(isnan(sum.wall_s.lo) && isnan(sum.wall_s.hi) && isnan(sum.goodput.lo));
}
END_TEST

START_TEST(test_weibull_shape_one_agrees_with_the_poisson_path)
{
    /* The same exponential classes, merged into one Poisson process or run as 1,100 renewal
     * processes: the means must agree within the two estimates' combined uncertainty. */
    st_life_class c[] = {{"gpu", 1000, 2000 * HOUR, 1}, {"node", 100, 400 * HOUR, 1}};
    st_life_spec s = job(100 * HOUR, HOUR, 30, 30, 10 * MIN, c, 2);
    st_tally w[2], n[2];
    for (int mode = 0; mode < 2; mode++) {
        st_tally_init(&w[mode]);
        st_tally_init(&n[mode]);
        for (uint64_t rep = 0; rep < 300; rep++) {
            st_life_result r;
            ck_assert_int_eq(st__life_run_mode(&s, 5, rep, mode, &r, NULL), 0);
            st_tally_add(&w[mode], r.wall_s);
            st_tally_add(&n[mode], (double)r.interruptions);
        }
    }
    for (int k = 0; k < 2; k++) {
        st_tally *t = k ? n : w;
        double se = sqrt((st_tally_var(&t[0]) + st_tally_var(&t[1])) / 300.0);
        ck_assert_msg(fabs(st_tally_mean(&t[0]) - st_tally_mean(&t[1])) <= 4 * se,
                      "%s: %g vs %g (se %g)", k ? "interruptions" : "wall", st_tally_mean(&t[0]),
                      st_tally_mean(&t[1]), se);
    }
    /* About 0.7 failures per hour over ~150 h: the comparison has failures to compare. */
    ck_assert(st_tally_mean(&n[0]) > 50);
}
END_TEST

START_TEST(test_weibull_class_of_ten_thousand_components_runs_at_its_rate)
{
    /* 10^4 GPUs with an infant-mortality shape 0.7, started stationary: the job sees failures
     * at count / mtbf from the start, so interruptions / wall is near 10^4 / mtbf. */
    st_life_class c = {"gpu", 1e4, 1e4 * 4 * HOUR, 0.7};
    st_life_spec s = job(200 * HOUR, HOUR, 10, 10, 5 * MIN, &c, 1);
    double n = 0, w = 0;
    for (uint64_t rep = 0; rep < 10; rep++) {
        st_life_result r = run(&s, 9, rep);
        n += (double)r.interruptions;
        w += r.wall_s;
    }
    double rate = n / w * 4 * HOUR; /* failures per 4 h: 1 expected */
    ck_assert_msg(fabs(rate - 1) < 0.1, "rate %g per mtbf", rate);
}
END_TEST

START_TEST(test_a_nearly_deterministic_weibull_class_runs_at_its_rate)
{
    /* Shapes of 1,000 and 1e300 make lifetimes nearly the mean itself; started stationary, the
     * 10^4 GPUs still fail at count / mtbf (Cox's equilibrium renewal process). The first
     * failure's U^k boost underflowed to 0 here, so every GPU failed at t = 0 and the rate
     * doubled. */
    const double shapes[] = {1000, 1e300};
    for (int k = 0; k < 2; k++) {
        st_life_class c = {"gpu", 1e4, 1e4 * 4 * HOUR, shapes[k]};
        st_life_spec s = job(200 * HOUR, HOUR, 10, 10, 5 * MIN, &c, 1);
        double n = 0, w = 0;
        for (uint64_t rep = 0; rep < 10; rep++) {
            st_life_result r = run(&s, 9, rep);
            n += (double)r.interruptions;
            w += r.wall_s;
        }
        double rate = n / w * 4 * HOUR; /* failures per 4 h: 1 expected */
        ck_assert_msg(fabs(rate - 1) < 0.1, "shape %g: rate %g per mtbf", shapes[k], rate);
    }
}
END_TEST

/* Llama 3's 54-day interruption log (arXiv 2407.21783, Table 5) as classes:
 * docs/models/storage-and-failures.md, "Llama 3 derivation". */
static void llama3_classes(st_life_class c[4])
{
    double p = 54 * DAY;
    c[0] = (st_life_class){"gpu", 16384, p * 16384 / 268, 1};
    c[1] = (st_life_class){"node", 2048, p * 2048 / 109, 1};
    c[2] = (st_life_class){"nic", 16384, p * 16384 / 7, 1};
    c[3] = (st_life_class){"leaf_switch", 1024, p * 1024 / 35, 1};
}

START_TEST(test_llama3_job_sees_419_interruptions_in_54_days)
{
    st_life_class c[4];
    llama3_classes(c);
    st_life_spec s = job(1, HOUR, 10, 10, 0, c, 4);
    double m = st_life_job_mtbf(&s);
    ck_assert_double_eq_tol(m / (54 * DAY / 419), 1, 1e-12);
    /* Hourly checkpoints stalling 10 s, 10 min to detect and 15 min to restart (MegaScale's
     * bounds, NSDI'24). Choose the work so Daly's expected wall time is 54 days. */
    s.detect_s = 10 * MIN;
    s.restart_s = 15 * MIN;
    double per_hour = st_daly_expected_wall(HOUR, HOUR, 10, 25 * MIN, m);
    s.step_s = 10;
    s.steps = (int64_t)llround(54 * DAY / per_hour) * 360;
    st_life_summary sum;
    ck_assert_int_eq(st_life_replicas(&s, 2024, 300, &sum, NULL), 0);
    double n = sum.interruptions.mean;
    ck_assert_msg(fabs(n - 419) <= 1.96 * sqrt(419.0), "mean interruptions %g", n);
    /* Wald's identity for a Poisson process stopped at the finish: E[N] = E[wall] / M. */
    ck_assert_msg(fabs(n / (sum.wall_s.mean / m) - 1) < 0.02, "N %g, wall/M %g", n,
                  sum.wall_s.mean / m);
}
END_TEST

/* A job that on average cannot finish by the horizon, or only through more failures than a life
 * simulates, is refused before it is simulated, in microseconds instead of the hours a
 * failure-by-failure run to the horizon took (a GPU MTBF of 1 ns: about 10^5 years of wall
 * time). One that can finish is still simulated. */
START_TEST(test_a_job_that_cannot_finish_is_refused_before_simulating)
{
    st_life_class gpus = {"gpu", 16, 1e-9, 1};
    st_life_spec s = job(DAY, HOUR, 10, 10, 5 * MIN, &gpus, 1);
    st_life_result r;
    st_err err = {0};
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ERANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "expected wall time"));
    ck_assert_double_eq(r.wall_s, 0);
    /* Daly's expected wall time just past a horizon refuses; just inside it simulates. */
    st_life_class one = one_class(10 * HOUR, 1);
    s = job(100 * HOUR, HOUR, 10, 10, 5 * MIN, &one, 1);
    double m = st_life_job_mtbf(&s), e = st_daly_expected_wall(100 * HOUR, HOUR, 10, 5 * MIN, m);
    s.horizon_s = 0.99 * e;
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ERANGE);
    s.horizon_s = 10 * e;
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), 0);
    /* 2x10^7 s of work, failing every 10 s, checkpointed every second: it would finish in about
     * 2.3x10^7 s, well inside the horizon, through 2.3 million failures, past the cap
     * (ST_LIM_FAILURES): refused, not simulated for seconds. */
    st_life_class often = one_class(10, 1);
    s = job(2e7, 1, 0, 0, 1, &often, 1);
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ELIMIT);
    ck_assert_msg(strstr(err.msg, "2.32e+06 interruptions"), "%s", err.msg);
    /* Planned stops count beside them: a job that saves at every stop (its checkpoint commits,
     * with no cadence) and is stopped every 10 s over 10^8 s of work goes through about 10^7
     * stops; refused, not simulated for minutes (a fuzzing find: planned_every 1 s hung run). */
    s = job(1e8, 0, 0, 30, 1, NULL, 0);
    s.planned_every_s = 10;
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ELIMIT);
    ck_assert_msg(strstr(err.msg, "announced stops"), "%s", err.msg);
}
END_TEST

START_TEST(test_bad_specs_are_refused)
{
    st_life_class c = one_class(HOUR, 1), bad = one_class(-1, 1), flat = one_class(HOUR, 0);
    st_life_result r;
    st_err err = {0};
    st_life_spec s = job(1000, 100, 10, 5, 0, NULL, 0); /* commit before the stall ends */
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    ck_assert_double_eq(r.wall_s, 0);
    s = job(1000, 100, 10, 10, 0, NULL, 0);
    s.steps = 0;
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    s = job(1000, 100, 10, 10, 0, &bad, 1);
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    s = job(1000, 100, 10, 10, 0, &flat, 1);
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    s = job(1000, NAN, 10, 10, 0, NULL, 0);
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    s = job(1000, 100, 10, 10, 1e12, NULL, 0); /* a downtime of 31,700 years */
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_EINVAL);
    /* No checkpoints, 10^5 s of work and failures every 100 s: hopeless within 10^6 s. */
    s = job(1e5, 0, 0, 0, 0, &c, 1);
    c.mtbf_s = 100;
    s.horizon_s = 1e6;
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), ST_ERANGE);
    st_life_summary sum;
    s = job(1000, 100, 10, 10, 0, NULL, 0);
    ck_assert_int_eq(st_life_replicas(&s, 1, 0, &sum, &err), ST_EINVAL);
}
END_TEST

/* Jumping over whole checkpoint cycles between failures is an optimisation only: over random
 * specs (sync and async, commit shorter and longer than a cycle, exponential and Weibull
 * classes, intervals that do and do not divide the work) every figure equals the event-by-event
 * run exactly, while the jump does fire fewer events. */
START_TEST(test_skipping_checkpoint_cycles_changes_no_result)
{
    uint64_t x = 0x243f6a8885a308d3u;
    for (int i = 0; i < 300; i++) {
        double u[8];
        for (int j = 0; j < 8; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
            u[j] = (double)(x >> 11) / 9007199254740992.0;
        }
        st_life_class cls[2] = {
            {.component = "gpu",
             .count = 1 + floor(u[0] * 3000),
             .mtbf_s = 5e6 + u[1] * 5e7,
             .shape = 1},
            {.component = "node",
             .count = 1 + floor(u[2] * 50),
             .mtbf_s = 1e6 + u[3] * 1e7,
             .shape = i % 3 == 0 ? 0.7 : 1},
        };
        double every = 60 + u[4] * 3600, stall = u[5] * 120;
        st_life_spec s = {.step_s = 1 + u[6] * 10,
                          .steps = i % 5 == 0 ? 100 : 2000 + (int64_t)(u[7] * 200000),
                          .ckpt_every_s = i % 5 == 0 ? 0 : every,
                          .ckpt_stall_s = stall,
                          .ckpt_commit_s = stall + (i % 2 ? u[6] * 2 * every : 0),
                          .detect_s = 60,
                          .restart_s = 300,
                          .restore_s = 30,
                          .classes = cls,
                          .n_classes = 2};
        st_life_result a, b;
        st_err err = {0};
        ck_assert_int_eq(st__life_run_mode(&s, 11, (uint64_t)i, ST__LIFE_AUTO, &a, &err), 0);
        ck_assert_int_eq(st__life_run_mode(&s, 11, (uint64_t)i, ST__LIFE_NOSKIP, &b, &err), 0);
        ck_assert_msg(a.wall_s == b.wall_s && a.interruptions == b.interruptions &&
                          a.lost_work_s == b.lost_work_s && a.downtime_s == b.downtime_s &&
                          a.ckpt_stall_s == b.ckpt_stall_s && a.checkpoints == b.checkpoints &&
                          a.goodput == b.goodput,
                      "spec %d: skipped wall %.9f, %lld ckpts; event by event %.9f, %lld", i,
                      a.wall_s, (long long)a.checkpoints, b.wall_s, (long long)b.checkpoints);
    }
}
END_TEST

/* An interval of a whole number of steps ends exactly at the end of the work in seconds; the
 * nanosecond roundings of the two must not drop the final checkpoint. The figures are a real
 * forecast's (tests/golden/life.yaml at 1000 steps, every 100 steps): 100 x step and
 * 1000 x step round to nanoseconds 1 ns apart from a multiple, and the last save was lost. */
START_TEST(test_a_step_count_interval_keeps_the_checkpoint_at_the_end)
{
    double step = 0x1.ed7c4e052509bp+1;
    st_life_spec s = {.step_s = step,
                      .steps = 1000,
                      .ckpt_every_s = 100 * step,
                      .ckpt_stall_s = 0x1.e581fd90e4ea2p+2,
                      .ckpt_commit_s = 0x1.0958ad313740cp+4};
    st_life_result r;
    st_err err = {0};
    ck_assert_int_eq(st_life_run(&s, 1, 0, &r, &err), 0);
    ck_assert_int_eq(r.checkpoints, 10);
}
END_TEST

START_TEST(test_auto_interval_is_whole_steps_at_least_one_step_and_the_commit)
{
    st_auto_rule r;
    /* Llama 3's validation case before the rule: Daly 10.98 s for the 5.4 ms copy, a 2.85 s
     * commit and a 13.04 s step. One step, not 11 s. */
    ck_assert_double_eq(st_ckpt_auto_interval(10.98, 2.85, 13.04, &r), 13.04);
    ck_assert_int_eq(r, ST_AUTO_STEP);
    /* Daly binds: 100 s is 7.7 steps of 13 s, the nearest whole number is 8. */
    ck_assert_double_eq(st_ckpt_auto_interval(100, 2.8, 13, &r), 104);
    ck_assert_int_eq(r, ST_AUTO_DALY);
    /* The commit binds: 30 s needs 3 steps of 13 s even though Daly rounds to 2. */
    ck_assert_double_eq(st_ckpt_auto_interval(20, 30, 13, &r), 39);
    ck_assert_int_eq(r, ST_AUTO_COMMIT);
    /* A commit of exactly two steps, give or take the last bit, is two steps. */
    ck_assert_double_eq(st_ckpt_auto_interval(1, 0.3 * 3 / 0.3 * 2, 3, &r), 6);
    ck_assert_int_eq(r, ST_AUTO_COMMIT);
    ck_assert_double_eq(st_ckpt_auto_interval(1, 6 * (1 + 1e-15), 3, NULL), 6);
    /* Without a rule pointer; Daly's optimum below half a step still takes one step. */
    ck_assert_double_eq(st_ckpt_auto_interval(0, 0, 2.5, NULL), 2.5);
}
END_TEST

/* The nodes out as the closed form takes them, replayed: Poisson failures of one node each at
 * `rate`, each out for exactly R; the share of the time more than N are out. */
static double replayed_blocked(double rate, double R, int64_t N, int n_fail)
{
    st_rng *g = st_rng_new(7, st_rng_tag("test"), 0, 0);
    double *back = malloc((size_t)n_fail * sizeof *back), t = 0, over = 0, last = 0;
    int head = 0, tail = 0; /* a deterministic repair: the nodes come back in failure order */
    for (int i = 0; i < n_fail; i++) {
        double next = t + st_rng_exponential(g, 1 / rate);
        while (head < tail && back[head] <= next) { /* each return up to the next failure */
            if (tail - head > N)
                over += back[head] - last;
            last = back[head++];
        }
        if (tail - head > N)
            over += next - last;
        last = t = next;
        back[tail++] = t + R;
    }
    free(back);
    st_rng_free(g);
    return over / t;
}

START_TEST(test_spares_blocked_share_matches_its_queue_replayed)
{
    /* 20 nodes out on average (as Llama 3 405B at a 3-day repair) */
    double R = 3 * DAY, rate = 20 / R;
    st_spare_class c = {.rate_per_s = rate, .take = 1, .repair_s = R};
    ck_assert_double_eq_tol(st_spares_out_mean(&c, 1), 20, 1e-9);
    for (int64_t N = 16; N <= 32; N += 8) {
        double f = st_spares_blocked(&c, 1, N), mc = replayed_blocked(rate, R, N, 4000000);
        ck_assert_msg(fabs(f - mc) <= 0.03 * mc + 1e-3, "N %lld: closed form %g, replayed %g",
                      (long long)N, f, mc);
    }
    /* a switch takes no node; spares far above the nodes out never hold the job */
    st_spare_class sw = {.rate_per_s = rate, .take = 0, .repair_s = R};
    ck_assert_double_eq(st_spares_blocked(&sw, 1, 0), 0);
    ck_assert_double_lt(st_spares_blocked(&c, 1, 200), 1e-12);
    /* the fewest spares that hold the job 1% or less: the first count under the share */
    int64_t need = st_spares_needed(&c, 1, 0.01);
    ck_assert(st_spares_blocked(&c, 1, need) <= 0.01 && st_spares_blocked(&c, 1, need - 1) > 0.01);
    ck_assert_int_eq(st_spares_needed(&sw, 1, 0.01), 0);
    /* a rack's four nodes at once count four times over */
    st_spare_class rack = {.rate_per_s = rate / 4, .take = 4, .repair_s = R};
    ck_assert_double_eq_tol(st_spares_out_mean(&rack, 1), 20, 1e-9);
}
END_TEST

static int by_time(const void *a, const void *b)
{
    const st_time *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

/* The time a job with spares comes back up is the (n - spares)-th repair end of the n nodes out
 * (a selection, not a sort): against the sorted list, over random heaps with many equal ends (a
 * rack's nodes out together, repairs of one length). */
START_TEST(test_spares_ready_is_the_repair_the_job_waits_for)
{
    st_rng *g = st_rng_new(3, st_rng_tag("test"), 0, 0);
    st_time ref[400];
    for (int it = 0; it < 3000; it++) {
        st_spares s = {.on_hand = (int64_t)st_rng_uniform_int(g, 12)};
        size_t n = 0;
        int groups = 1 + (int)st_rng_uniform_int(g, 60);
        for (int k = 0; k < groups; k++) {
            st_time back = 10 + (st_time)st_rng_uniform_int(g, 50);
            int64_t take = 1 + (int64_t)st_rng_uniform_int(g, 6);
            st_spares_take(&s, back, take);
            for (int64_t j = 0; j < take; j++)
                ref[n++] = back;
        }
        st_time when = (st_time)st_rng_uniform_int(g, 40);
        qsort(ref, n, sizeof *ref, by_time);
        st_time want = (int64_t)n > s.on_hand ? ref[n - (size_t)s.on_hand - 1] : when;
        want = want > when ? want : when;
        ck_assert_int_eq(st_spares_ready(&s, 0, when), want);
        st_spares_release(&s);
    }
    st_rng_free(g);
}
END_TEST

Suite *lifetime_suite(void)
{
    Suite *s = suite_create("lifetime");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_daly_interval_reproduces_the_worked_examples);
    tcase_add_test(tc, test_auto_interval_is_whole_steps_at_least_one_step_and_the_commit);
    tcase_add_test(tc, test_young_interval_is_sqrt_two_delta_m);
    tcase_add_test(tc, test_daly_interval_is_below_young_by_five_ninths_to_two_thirds_of_delta);
    tcase_add_test(tc, test_daly_interval_is_the_mtbf_once_delta_reaches_two_mtbf);
    tcase_add_test(tc, test_daly_expected_wall_tends_to_work_plus_checkpoints_without_failures);
    tcase_add_test(tc, test_monte_carlo_mean_wall_matches_daly_at_m_24h);
    tcase_add_test(tc, test_monte_carlo_mean_wall_matches_daly_at_m_6h);
    tcase_add_test(tc, test_monte_carlo_mean_wall_matches_daly_at_m_15min);
    tcase_add_test(tc, test_without_failures_goodput_is_one_minus_the_stall_fraction);
    tcase_add_test(tc, test_next_checkpoint_waits_for_the_previous_commit);
    tcase_add_test(tc, test_wall_time_is_work_plus_lost_plus_stall_plus_downtime);
    tcase_add_test(tc, test_planned_stops_save_then_cost_the_restart_and_restore_and_lose_nothing);
    tcase_add_test(tc, test_slow_nodes_are_excluded_by_a_stop_charged_with_their_stretch);
    tcase_add_test(tc, test_planned_stops_and_failures_together_account_for_every_tick);
    tcase_add_test(tc, test_failure_before_commit_rolls_back_to_the_previous_checkpoint);
    tcase_add_test(tc, test_same_seed_and_replica_repeat_and_replicas_differ);
    tcase_add_test(tc, test_replica_percentiles_are_order_statistics_of_the_replicas);
    tcase_add_test(tc, test_one_replica_is_summarised_without_an_interval);
    tcase_add_test(tc, test_weibull_shape_one_agrees_with_the_poisson_path);
    tcase_add_test(tc, test_weibull_class_of_ten_thousand_components_runs_at_its_rate);
    tcase_add_test(tc, test_a_nearly_deterministic_weibull_class_runs_at_its_rate);
    tcase_add_test(tc, test_llama3_job_sees_419_interruptions_in_54_days);
    tcase_add_test(tc, test_bad_specs_are_refused);
    tcase_add_test(tc, test_a_job_that_cannot_finish_is_refused_before_simulating);
    tcase_add_test(tc, test_skipping_checkpoint_cycles_changes_no_result);
    tcase_add_test(tc, test_a_step_count_interval_keeps_the_checkpoint_at_the_end);
    tcase_add_test(tc, test_spare_nodes_add_the_wait_for_a_repair_and_no_more);
    tcase_add_test(tc, test_a_life_past_its_interruption_cap_stops_unfinished);
    tcase_add_test(tc, test_spares_blocked_share_matches_its_queue_replayed);
    tcase_add_test(tc, test_spares_ready_is_the_repair_the_job_waits_for);
    suite_add_tcase(s, tc);
    return s;
}
