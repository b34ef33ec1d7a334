/* Engine: handler dispatch, clock, run until empty / horizon / stop, and the causality checks. */
#include <check.h>
#include <signal.h>

#include "sim/engine.h"
#include "sim/err.h"

/* A recording model: every event it handles appends (time, tag, which handler) to a log. */
typedef struct logmodel {
    int id;
    int n;
    st_time t[64];
    uint64_t tag[64];
    int who[64];
    int stop_at_tag; /* call st_engine_stop() on this tag; -1 never */
    int kind;        /* its own kind, for handlers that schedule more */
} logmodel;

static void on_log(st_engine *eng, void *state, const st_event *ev)
{
    logmodel *m = state;
    ck_assert_int_eq(st_engine_now(eng), ev->t);
    ck_assert_int_lt(m->n, 64);
    m->t[m->n] = ev->t;
    m->tag[m->n] = ev->data.u[0];
    m->who[m->n] = m->id;
    m->n++;
    if ((int)ev->data.u[0] == m->stop_at_tag)
        st_engine_stop(eng);
}

static st_engine *eng;
static logmodel ma, mb;
static int ka, kb;

static void setup(void)
{
    eng = st_engine_new();
    ma = (logmodel){.id = 1, .stop_at_tag = -1};
    mb = (logmodel){.id = 2, .stop_at_tag = -1};
    ka = st_engine_register(eng, "a", on_log, &ma);
    kb = st_engine_register(eng, "b", on_log, &mb);
    ma.kind = ka;
    mb.kind = kb;
}

static void teardown(void)
{
    st_engine_free(eng);
    eng = NULL;
}

static st_ev_handle at(int kind, st_time t, uint64_t tag)
{
    st_payload p = {.u = {tag}};
    return st_engine_schedule(eng, kind, t, &p);
}

START_TEST(test_next_time_is_the_earliest_pending_event)
{
    ck_assert_int_eq(st_engine_next_time(eng), ST_TIME_MAX);
    at(ka, 50, 1);
    st_ev_handle h = at(kb, 20, 2);
    at(ka, 30, 3);
    ck_assert_int_eq(st_engine_next_time(eng), 20);
    st_engine_cancel(eng, h);
    ck_assert_int_eq(st_engine_next_time(eng), 30);
    st_engine_run(eng, 40);
    ck_assert_int_eq(st_engine_next_time(eng), 50);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(st_engine_next_time(eng), ST_TIME_MAX);
}
END_TEST

START_TEST(test_kinds_are_numbered_in_registration_order)
{
    ck_assert_int_eq(ka, 0);
    ck_assert_int_eq(kb, 1);
    ck_assert_str_eq(st_engine_kind_name(eng, kb), "b");
    ck_assert_ptr_null(st_engine_kind_name(eng, 2));
}
END_TEST

START_TEST(test_each_event_reaches_its_kinds_handler_and_state)
{
    at(ka, 30, 1);
    at(kb, 10, 2);
    at(ka, 20, 3);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY);
    ck_assert_int_eq(ma.n, 2);
    ck_assert_int_eq(mb.n, 1);
    ck_assert_uint_eq(mb.tag[0], 2);
    ck_assert_uint_eq(ma.tag[0], 3);
    ck_assert_uint_eq(ma.tag[1], 1);
    ck_assert_int_eq(st_engine_now(eng), 30);
    ck_assert_uint_eq(st_engine_fired(eng), 3);
}
END_TEST

START_TEST(test_equal_time_events_fire_in_schedule_order)
{
    for (uint64_t i = 0; i < 20; i++)
        at(i % 2 ? ka : kb, 100, i);
    st_engine_run(eng, ST_TIME_MAX);
    int ia = 0, ib = 0;
    for (uint64_t i = 0; i < 20; i++) {
        if (i % 2)
            ck_assert_uint_eq(ma.tag[ia++], i);
        else
            ck_assert_uint_eq(mb.tag[ib++], i);
    }
}
END_TEST

START_TEST(test_priority_breaks_ties_before_schedule_order)
{
    st_payload p1 = {.u = {1}}, p2 = {.u = {2}};
    st_engine_schedule_prio(eng, ka, 5, 10, &p1);
    st_engine_schedule_prio(eng, ka, 5, 1, &p2);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_uint_eq(ma.tag[0], 2);
    ck_assert_uint_eq(ma.tag[1], 1);
}
END_TEST

START_TEST(test_run_until_horizon_leaves_later_events_pending)
{
    at(ka, 10, 1);
    at(ka, 20, 2); /* exactly at the horizon: fires */
    at(ka, 21, 3);
    ck_assert_int_eq(st_engine_run(eng, 20), ST_RUN_HORIZON);
    ck_assert_int_eq(ma.n, 2);
    ck_assert_int_eq(st_engine_now(eng), 20);
    ck_assert_uint_eq(st_engine_size(eng), 1);

    ck_assert_int_eq(st_engine_run(eng, 1000), ST_RUN_EMPTY);
    ck_assert_int_eq(ma.n, 3);
    ck_assert_int_eq(st_engine_now(eng), 21);
}
END_TEST

START_TEST(test_horizon_with_no_event_before_it_advances_the_clock)
{
    at(ka, 500, 1);
    ck_assert_int_eq(st_engine_run(eng, 100), ST_RUN_HORIZON);
    ck_assert_int_eq(st_engine_now(eng), 100);
    ck_assert_int_eq(ma.n, 0);
}
END_TEST

START_TEST(test_stop_returns_after_the_current_handler)
{
    ma.stop_at_tag = 2;
    for (uint64_t i = 1; i <= 4; i++)
        at(ka, (st_time)i, i);
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_STOPPED);
    ck_assert_int_eq(ma.n, 2);
    ck_assert_int_eq(st_engine_now(eng), 2);
    ma.stop_at_tag = -1;
    ck_assert_int_eq(st_engine_run(eng, ST_TIME_MAX), ST_RUN_EMPTY); /* stop flag cleared */
    ck_assert_int_eq(ma.n, 4);
}
END_TEST

/* A "job" whose completion event is moved whenever its rate changes: the model pattern the
 * handles exist for. */
typedef struct job {
    st_ev_handle done;
    int completions;
    st_time done_at;
} job;

static void on_done(st_engine *e, void *state, const st_event *ev)
{
    (void)ev;
    job *j = state;
    j->completions++;
    j->done_at = st_engine_now(e);
}

static void on_rate_change(st_engine *e, void *state, const st_event *ev)
{
    job *j = state;
    ck_assert_int_eq(st_engine_reschedule(e, j->done, st_engine_now(e) + ev->data.i[0]), 0);
}

START_TEST(test_reschedule_moves_a_pending_completion)
{
    job j = {0};
    int kd = st_engine_register(eng, "done", on_done, &j);
    int kr = st_engine_register(eng, "rate", on_rate_change, &j);
    j.done = st_engine_schedule(eng, kd, 100, NULL);
    st_engine_schedule(eng, kr, 40, &(st_payload){.i = {200}}); /* slower: done at 240 */
    st_engine_schedule(eng, kr, 50, &(st_payload){.i = {10}});  /* faster: done at 60 */
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(j.completions, 1);
    ck_assert_int_eq(j.done_at, 60);
    ck_assert_int_eq(st_engine_cancel(eng, j.done), ST_ENOTFOUND); /* fired: harmless */
    ck_assert_int_eq(st_engine_reschedule(eng, j.done, 1000), ST_ENOTFOUND);
}
END_TEST

START_TEST(test_cancelled_event_never_fires)
{
    st_ev_handle h = at(ka, 10, 1);
    at(ka, 20, 2);
    ck_assert_int_eq(st_engine_pending(eng, h), 1);
    ck_assert_int_eq(st_engine_cancel(eng, h), 0);
    ck_assert_int_eq(st_engine_pending(eng, h), 0);
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_int_eq(ma.n, 1);
    ck_assert_uint_eq(ma.tag[0], 2);
}
END_TEST

/* Schedules a follow-up at the same instant; it must fire after everything already at now. */
static void on_chain(st_engine *e, void *state, const st_event *ev)
{
    logmodel *m = state;
    on_log(e, state, ev);
    if (ev->data.u[0] < 3)
        st_engine_schedule_in(e, m->kind, 0, &(st_payload){.u = {ev->data.u[0] + 10}});
}

START_TEST(test_event_scheduled_at_now_fires_after_pending_ones_at_now)
{
    int kc = st_engine_register(eng, "chain", on_chain, &ma);
    ma.kind = kc;
    for (uint64_t i = 1; i <= 3; i++)
        st_engine_schedule(eng, kc, 7, &(st_payload){.u = {i}});
    st_engine_run(eng, ST_TIME_MAX);
    const uint64_t want[] = {1, 2, 3, 11, 12};
    ck_assert_int_eq(ma.n, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(ma.tag[i], want[i]);
        ck_assert_int_eq(ma.t[i], 7);
    }
}
END_TEST

START_TEST(test_payload_of_pending_event_is_writable)
{
    st_ev_handle h = at(ka, 10, 1);
    st_engine_payload(eng, h)->u[0] = 42;
    st_engine_run(eng, ST_TIME_MAX);
    ck_assert_uint_eq(ma.tag[0], 42);
    ck_assert_ptr_null(st_engine_payload(eng, h));
}
END_TEST

static void on_schedule_in_past(st_engine *e, void *state, const st_event *ev)
{
    (void)state;
    st_engine_schedule(e, (int)ev->kind, ev->t - 1, NULL);
}

START_TEST(test_schedule_in_the_past_is_a_bug)
{
    int k = st_engine_register(eng, "bad", on_schedule_in_past, NULL);
    st_engine_schedule(eng, k, 10, NULL);
    st_engine_run(eng, ST_TIME_MAX);
}
END_TEST

START_TEST(test_unregistered_kind_is_a_bug)
{
    st_engine_schedule(eng, 7, 10, NULL);
}
END_TEST

START_TEST(test_register_without_handler_is_a_bug)
{
    st_engine_register(eng, "none", NULL, NULL);
}
END_TEST

START_TEST(test_free_null_is_noop)
{
    st_engine_free(NULL);
}
END_TEST

Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("dispatch");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_kinds_are_numbered_in_registration_order);
    tcase_add_test(tc, test_next_time_is_the_earliest_pending_event);
    tcase_add_test(tc, test_each_event_reaches_its_kinds_handler_and_state);
    tcase_add_test(tc, test_equal_time_events_fire_in_schedule_order);
    tcase_add_test(tc, test_priority_breaks_ties_before_schedule_order);
    tcase_add_test(tc, test_event_scheduled_at_now_fires_after_pending_ones_at_now);
    tcase_add_test(tc, test_payload_of_pending_event_is_writable);
    tcase_add_test(tc, test_free_null_is_noop);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_run_until_horizon_leaves_later_events_pending);
    tcase_add_test(tc, test_horizon_with_no_event_before_it_advances_the_clock);
    tcase_add_test(tc, test_stop_returns_after_the_current_handler);
    tcase_add_test(tc, test_reschedule_moves_a_pending_completion);
    tcase_add_test(tc, test_cancelled_event_never_fires);
    suite_add_tcase(s, tc);

    tc = tcase_create("bugs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test_raise_signal(tc, test_schedule_in_the_past_is_a_bug, SIGABRT);
    tcase_add_test_raise_signal(tc, test_unregistered_kind_is_a_bug, SIGABRT);
    tcase_add_test_raise_signal(tc, test_register_without_handler_is_a_bug, SIGABRT);
    suite_add_tcase(s, tc);
    return s;
}
