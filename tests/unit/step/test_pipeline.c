/* Pipeline schedule: the 1F1B and interleaved bubbles of Narayanan et al., a hand-computed case
 * with sends, link serialisation, the steady-state shortcut against the full event-by-event
 * run, traces, refused specs and determinism. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/step/pipeline.h"
#include "sim/err.h"
#include "sim/rng.h"

#define EPS 1e-12

/* A spec with every chunk's forward f and backward b seconds; the arrays live in the fixture. */
static double fwd[512], bwd[512];

static st_pipe_spec uniform(int64_t pp, int64_t v, int64_t m, double f, double b, double p2p)
{
    for (int64_t c = 0; c < pp * v; c++) {
        fwd[c] = f;
        bwd[c] = b;
    }
    return (st_pipe_spec){.pp = pp, .v = v, .m = m, .fwd_s = fwd, .bwd_s = bwd, .p2p_s = p2p};
}

static st_pipe_result run(const st_pipe_spec *s, int mode)
{
    st_pipe_result r;
    ck_assert_int_eq(st__pipe_simulate_mode(s, mode, &r, NULL), 0);
    return r;
}

/* Exact equality: both evaluations sum the same integer ticks, so they agree to the bit. */
static void assert_same(const st_pipe_result *a, const st_pipe_result *b, int64_t nchunk)
{
    ck_assert(a->makespan_s == b->makespan_s);
    ck_assert(a->compute_s == b->compute_s);
    ck_assert(a->bubble_s == b->bubble_s);
    ck_assert(a->p2p_exposed_s == b->p2p_exposed_s);
    for (int64_t c = 0; c < nchunk; c++) {
        ck_assert(a->last_bwd_end[c] == b->last_bwd_end[c]);
        ck_assert(a->first_fwd_start[c] == b->first_fwd_start[c]);
    }
}

START_TEST(test_1f1b_bubble_is_p_minus_1_over_m_plus_p_minus_1)
{
    /* Narayanan et al. SC21 section 2.2.1: with equal stage times and free sends the bubble is
     * (p - 1) forward-backward pairs, (p - 1) / (m + p - 1) of the step. */
    static const int64_t ps[] = {1, 2, 3, 4, 8, 16}, ms[] = {1, 3, 8, 17, 64, 200};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++) {
            int64_t p = ps[i], m = ms[j];
            st_pipe_spec s = uniform(p, 1, m, 0.010, 0.020, 0);
            for (int mode = ST__PIPE_FAST; mode <= ST__PIPE_ENGINE; mode++) {
                st_pipe_result r = run(&s, mode);
                ck_assert_double_eq_tol(r.bubble_s / r.makespan_s,
                                        (double)(p - 1) / (double)(m + p - 1), EPS);
                ck_assert_double_eq_tol(r.bubble_s, (double)(p - 1) * 0.030, EPS);
                ck_assert_double_eq_tol(r.compute_s, (double)m * 0.030, EPS);
                ck_assert_double_eq_tol(r.p2p_exposed_s, 0, EPS);
                st_pipe_result_release(&r);
            }
        }
}
END_TEST

START_TEST(test_interleaving_divides_the_bubble_by_v)
{
    /* Section 2.2.2: v chunks per stage, each 1/v of the stage, shrink the bubble v times. m is
     * a multiple of p; m == p is Megatron's all-forwards-first special case. */
    static const int64_t ps[] = {2, 4, 8}, vs[] = {2, 3, 4}, mult[] = {1, 2, 3, 12};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            for (size_t k = 0; k < 4; k++) {
                int64_t p = ps[i], v = vs[j], m = p * mult[k];
                st_pipe_spec plain = uniform(p, 1, m, 0.012, 0.024, 0);
                st_pipe_result r1 = run(&plain, ST__PIPE_FAST);
                st_pipe_spec inter = uniform(p, v, m, 0.012 / (double)v, 0.024 / (double)v, 0);
                st_pipe_result rv = run(&inter, ST__PIPE_FAST);
                ck_assert_double_eq_tol(rv.bubble_s, r1.bubble_s / (double)v, 1e-9);
                ck_assert_double_eq_tol(rv.compute_s, r1.compute_s, 1e-9);
                ck_assert_double_eq_tol(rv.bubble_s / rv.compute_s,
                                        (double)(p - 1) / (double)(v * m), 1e-9);
                st_pipe_result_release(&r1);
                st_pipe_result_release(&rv);
            }
}
END_TEST

START_TEST(test_single_stage_has_no_bubble)
{
    /* One stage: nothing to wait for, and chunk outputs stay on the GPU (no sends). */
    for (int64_t v = 1; v <= 4; v++)
        for (int64_t m = 1; m <= 40; m += 13) {
            st_pipe_spec s = uniform(1, v, m, 0.003, 0.007, 0.5);
            st_pipe_result r = run(&s, ST__PIPE_FAST);
            ck_assert_double_eq_tol(r.bubble_s, 0, EPS);
            ck_assert_double_eq_tol(r.p2p_exposed_s, 0, EPS);
            ck_assert_double_eq_tol(r.makespan_s, (double)(m * v) * 0.010, EPS);
            st_pipe_result_release(&r);
        }
}
END_TEST

START_TEST(test_two_stage_makespan_with_sends_matches_hand_computation)
{
    /* p = 2, m = 2, F = 1, B = 2, p2p = 0.5. Stage 0 runs F0 F1 B0 B1, stage 1 F0 B0 F1 B1:
     *   s0 F0 [0,1] -> sent [1,1.5]; s0 F1 [1,2] -> sent [2,2.5]
     *   s1 F0 [1.5,2.5]; s1 B0 [2.5,4.5] -> sent [4.5,5]; s1 F1 [4.5,5.5]; s1 B1 [5.5,7.5] ->
     *   sent [7.5,8]; s0 B0 [5,7]; s0 B1 [8,10].
     * Stage 0 waits 0.5 before each backward for a gradient already computed. */
    st_pipe_spec s = uniform(2, 1, 2, 1, 2, 0.5);
    for (int mode = ST__PIPE_FAST; mode <= ST__PIPE_ENGINE; mode++) {
        st_pipe_result r = run(&s, mode);
        ck_assert_double_eq_tol(r.makespan_s, 10, EPS);
        ck_assert_double_eq_tol(r.compute_s, 6, EPS);
        ck_assert_double_eq_tol(r.bubble_s, 4, EPS);
        ck_assert_double_eq_tol(r.p2p_exposed_s, 1, EPS);
        ck_assert_double_eq_tol(r.last_bwd_end[0], 10, EPS);
        ck_assert_double_eq_tol(r.last_bwd_end[1], 7.5, EPS);
        ck_assert_double_eq_tol(r.first_fwd_start[0], 0, EPS);
        ck_assert_double_eq_tol(r.first_fwd_start[1], 1.5, EPS);
        st_pipe_result_release(&r);
    }
}
END_TEST

static const st_pipe_span *find_span(const st_pipe_trace *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->spans[i].name, name) == 0)
            return &t->spans[i];
    return NULL;
}

START_TEST(test_sends_on_one_link_go_one_after_another)
{
    /* p = 2, m = 2, F = 1, B = 2, p2p = 10: F1's activations queue behind F0's on the link
     * 0 -> 1 ([1,11], then [11,21]), so stage 1 runs F1 at 21, not 12. Then B1 [22,24] is
     * sent [24,34] and stage 0's last backward runs [34,36]. */
    st_pipe_spec s = uniform(2, 1, 2, 1, 2, 10);
    st_pipe_trace t = {0};
    st_pipe_result r;
    ck_assert_int_eq(st_pipe_simulate(&s, &r, &t), 0);
    ck_assert_double_eq_tol(r.makespan_s, 36, EPS);
    const st_pipe_span *f1 = find_span(&t, "F 1.1"), *send = find_span(&t, "send F 1.0");
    ck_assert_ptr_nonnull(f1);
    ck_assert_ptr_nonnull(send);
    ck_assert_double_eq_tol(send->start_s, 11, EPS);
    ck_assert_int_eq(send->stream, 1);
    ck_assert_double_eq_tol(f1->start_s, 21, EPS);
    ck_assert_int_eq(f1->stage, 1);
    st_pipe_result_release(&r);
    st_pipe_trace_release(&t);
}
END_TEST

/* A random spec: p, v, m, and chunk times of one of four shapes (uniform; first and last chunk
 * heavier, as the embedding and the output layer make them; random per chunk; every stage's
 * first chunk doubled), sends free, small or larger than a pass. */
static st_pipe_spec random_spec(st_rng *g, int shape)
{
    int64_t p = 1 + st_rng_uniform_int(g, 12), v = 1 + st_rng_uniform_int(g, 4);
    int64_t m = v > 1 ? p * (1 + st_rng_uniform_int(g, 24)) : 1 + st_rng_uniform_int(g, 200);
    double base = 1e-3 * (0.5 + st_rng_uniform(g)), p2p = 0;
    st_pipe_spec s = uniform(p, v, m, base, 2 * base, 0);
    for (int64_t c = 0; c < p * v; c++) {
        if (shape == 2) {
            fwd[c] = base * (0.5 + st_rng_uniform(g));
            bwd[c] = base * (1 + 2 * st_rng_uniform(g));
        } else if (shape == 3 && c % p == 0) {
            fwd[c] *= 2;
            bwd[c] *= 2;
        }
    }
    if (shape == 1) {
        fwd[0] *= 1.3;
        bwd[0] *= 1.2;
        fwd[p * v - 1] *= 1.7;
        bwd[p * v - 1] *= 1.5;
    }
    switch (st_rng_uniform_int(g, 3)) {
    case 1:
        p2p = 0.3 * base * st_rng_uniform(g);
        break;
    case 2:
        p2p = 5 * base * st_rng_uniform(g);
        break;
    }
    s.p2p_s = p2p;
    return s;
}

/* The steady-state shortcut against the event-by-event run and the full sweep, exactly, on
 * random specs of the loop's shape; returns how many took the shortcut. */
static int compare_modes(int shape, int n)
{
    st_rng *g = st_rng_new(7, st_rng_tag("test"), (uint64_t)shape, st_rng_tag("pipe"));
    int shortcut = 0;
    for (int i = 0; i < n; i++) {
        st_pipe_spec s = random_spec(g, shape);
        st_pipe_result fast = run(&s, ST__PIPE_FAST), sweep = run(&s, ST__PIPE_SWEEP);
        st_pipe_result eng = run(&s, ST__PIPE_ENGINE);
        assert_same(&fast, &eng, s.pp * s.v);
        assert_same(&sweep, &eng, s.pp * s.v);
        ck_assert_int_eq(eng.simulated_m, s.m);
        shortcut += fast.simulated_m < s.m;
        st_pipe_result_release(&fast);
        st_pipe_result_release(&sweep);
        st_pipe_result_release(&eng);
    }
    st_rng_free(g);
    return shortcut;
}

START_TEST(test_fast_path_equals_full_simulation_on_uniform_specs)
{
    ck_assert_int_gt(compare_modes(0, 400), 100);
}
END_TEST

START_TEST(test_fast_path_equals_full_simulation_on_non_uniform_specs)
{
    for (int shape = 1; shape <= 3; shape++)
        ck_assert_int_gt(compare_modes(shape, 300), 50);
}
END_TEST

START_TEST(test_fast_path_skips_most_of_a_long_steady_state)
{
    /* GPT-3 175B's plan (PP8, v = 3, m = 96) with the edge layers heavier and cheap sends, and
     * a long plain 1F1B pipeline with and without sends. */
    struct {
        int64_t p, v, m;
        double p2p;
    } cases[] = {{8, 3, 96, 2.5e-4}, {4, 1, 400, 0}, {4, 1, 400, 1e-3}, {8, 2, 800, 1e-3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        st_pipe_spec s = uniform(cases[i].p, cases[i].v, cases[i].m, 0.025, 0.075, cases[i].p2p);
        fwd[0] += 0.001;
        bwd[s.pp * s.v - 1] += 0.008;
        st_pipe_result fast = run(&s, ST__PIPE_FAST), eng = run(&s, ST__PIPE_ENGINE);
        ck_assert_int_le(fast.simulated_m, s.m / 2);
        assert_same(&fast, &eng, s.pp * s.v);
        st_pipe_result_release(&fast);
        st_pipe_result_release(&eng);
    }
}
END_TEST

START_TEST(test_last_backward_ends_come_in_reverse_chunk_order)
{
    /* Chunk c's last backward needs chunk c + 1's, so they end in reverse order, and chunk 0's
     * closes the step. */
    st_rng *g = st_rng_new(11, st_rng_tag("test"), 0, st_rng_tag("lbe"));
    for (int i = 0; i < 200; i++) {
        st_pipe_spec s = random_spec(g, i % 4);
        st_pipe_result r = run(&s, ST__PIPE_FAST);
        ck_assert_double_eq_tol(r.last_bwd_end[0], r.makespan_s, EPS);
        for (int64_t c = 0; c + 1 < s.pp * s.v; c++)
            ck_assert_double_gt(r.last_bwd_end[c], r.last_bwd_end[c + 1]);
        ck_assert_double_eq_tol(r.compute_s + r.bubble_s, r.makespan_s, 1e-9);
        ck_assert_double_le(r.p2p_exposed_s, r.bubble_s + 1e-9);
        if (s.p2p_s == 0)
            ck_assert_double_eq(r.p2p_exposed_s, 0);
        st_pipe_result_release(&r);
    }
    st_rng_free(g);
}
END_TEST

static void assert_refused_with(const st_pipe_spec *s, int code)
{
    st_pipe_result r;
    st_pipe_trace t = {0};
    memset(&r, 0x5a, sizeof r);
    ck_assert_int_eq(st_pipe_simulate(s, &r, &t), code);
    ck_assert_ptr_null(r.last_bwd_end);
    ck_assert_ptr_null(r.first_fwd_start);
    ck_assert_int_eq(r.simulated_m, 0);
    ck_assert_uint_eq(t.n, 0);
    st_pipe_result_release(&r);
}

static void assert_refused(const st_pipe_spec *s)
{
    assert_refused_with(s, ST_EINVAL);
}

START_TEST(test_bad_specs_are_refused)
{
    st_pipe_spec ok = uniform(4, 2, 8, 1e-3, 2e-3, 1e-4), s;
    assert_refused(NULL);
    s = ok, s.pp = 0, assert_refused(&s);
    s = ok, s.v = 0, assert_refused(&s);
    s = ok, s.m = 0, assert_refused(&s);
    s = ok, s.m = 6, assert_refused(&s); /* interleaving needs m % pp == 0 */
    s = ok, s.fwd_s = NULL, assert_refused(&s);
    s = ok, s.bwd_s = NULL, assert_refused(&s);
    s = ok, s.p2p_s = -1e-6, assert_refused(&s);
    s = ok, s.p2p_s = NAN, assert_refused(&s);
    s = ok, s.m = (int64_t)1 << 40, assert_refused(&s); /* too many tasks */
    /* A step beyond 2^62 ns is a limit, not an inconsistency: the step model says so. */
    s = ok, s.m = 4000, s.p2p_s = 1e9, assert_refused_with(&s, ST_ELIMIT);
    s = ok, fwd[3] = -1e-3, assert_refused(&s);
    s = ok, fwd[3] = 1e-3, bwd[5] = INFINITY, assert_refused_with(&s, ST_ELIMIT);
    bwd[5] = 2e-3;
    st_pipe_result r = run(&ok, ST__PIPE_FAST); /* the arrays are sound again */
    st_pipe_result_release(&r);
    st_pipe_result_release(NULL);
    st_pipe_trace_release(NULL);
}
END_TEST

START_TEST(test_results_and_traces_are_deterministic)
{
    st_pipe_spec s = uniform(4, 2, 16, 2e-3, 5e-3, 7e-4);
    fwd[0] = 3e-3;
    st_pipe_trace t1 = {0}, t2 = {0};
    st_pipe_result a, b;
    ck_assert_int_eq(st_pipe_simulate(&s, &a, &t1), 0);
    ck_assert_int_eq(st_pipe_simulate(&s, &b, &t2), 0);
    assert_same(&a, &b, 8);
    ck_assert_uint_eq(t1.n, t2.n);
    ck_assert_int_eq(memcmp(t1.spans, t2.spans, t1.n * sizeof *t1.spans), 0);
    st_pipe_result c = run(&s, ST__PIPE_FAST);
    assert_same(&a, &c, 8);
    st_pipe_result_release(&a);
    st_pipe_result_release(&b);
    st_pipe_result_release(&c);
    st_pipe_trace_release(&t1);
    st_pipe_trace_release(&t2);
}
END_TEST

/* Per stage and stream, spans in start order never overlap; returns the stage's compute. */
static double check_stream(const st_pipe_trace *t, int64_t stage, int stream, double *last_end)
{
    double end = 0, busy = 0;
    for (size_t i = 0; i < t->n; i++) {
        const st_pipe_span *sp = &t->spans[i];
        if (sp->stage != stage || sp->stream != stream)
            continue;
        ck_assert_double_ge(sp->start_s, end - 1e-12); /* spans of a stream come in order */
        end = sp->start_s + sp->dur_s;
        busy += sp->dur_s;
    }
    if (end > *last_end)
        *last_end = end;
    return busy;
}

START_TEST(test_trace_covers_every_task_and_streams_never_overlap)
{
    st_rng *g = st_rng_new(5, st_rng_tag("test"), 0, st_rng_tag("trace"));
    for (int i = 0; i < 60; i++) {
        st_pipe_spec s = random_spec(g, i % 4);
        st_pipe_trace t = {0};
        st_pipe_result r;
        ck_assert_int_eq(st_pipe_simulate(&s, &r, &t), 0);
        ck_assert_int_eq(r.simulated_m, s.m);
        size_t sends = s.pp > 1 ? (size_t)(2 * s.m * (s.pp * s.v - 1)) : 0;
        ck_assert_uint_eq(t.n, (size_t)(2 * s.m * s.pp * s.v) + sends);
        double end = 0, most = 0;
        for (int64_t st = 0; st < s.pp; st++) {
            double busy = check_stream(&t, st, 0, &end);
            most = busy > most ? busy : most;
            check_stream(&t, st, 1, &end);
            check_stream(&t, st, 2, &end);
        }
        ck_assert_double_eq_tol(most, r.compute_s, 1e-9);
        ck_assert_double_eq_tol(end, r.makespan_s, 1e-9);
        st_pipe_result_release(&r);
        st_pipe_trace_release(&t);
    }
    st_rng_free(g);
}
END_TEST

Suite *pipeline_suite(void)
{
    Suite *s = suite_create("pipeline");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_1f1b_bubble_is_p_minus_1_over_m_plus_p_minus_1);
    tcase_add_test(tc, test_interleaving_divides_the_bubble_by_v);
    tcase_add_test(tc, test_single_stage_has_no_bubble);
    tcase_add_test(tc, test_two_stage_makespan_with_sends_matches_hand_computation);
    tcase_add_test(tc, test_sends_on_one_link_go_one_after_another);
    tcase_add_test(tc, test_fast_path_equals_full_simulation_on_uniform_specs);
    tcase_add_test(tc, test_fast_path_equals_full_simulation_on_non_uniform_specs);
    tcase_add_test(tc, test_fast_path_skips_most_of_a_long_steady_state);
    tcase_add_test(tc, test_last_backward_ends_come_in_reverse_chunk_order);
    tcase_add_test(tc, test_bad_specs_are_refused);
    tcase_add_test(tc, test_results_and_traces_are_deterministic);
    tcase_add_test(tc, test_trace_covers_every_task_and_streams_never_overlap);
    suite_add_tcase(s, tc);
    return s;
}
