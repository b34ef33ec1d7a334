/* Event queue: ordering, cancel, reschedule, stale handles, and a million random operations
 * checked against a brute-force reference. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>

#include "sim/err.h"
#include "sim/evq.h"
#include "sim/rng.h"

static st_evq *q;

/* Check's ck_assert_* reports every passing assertion to the parent process through a pipe (a
 * system call each), which would dominate loops of a million operations; these only call into
 * Check when they fail. */
#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c))                                                                                  \
            ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c);                                     \
    } while (0)
#define REQUIRE_EQ(a, b)                                                                           \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            ck_abort_msg("%s:%d: %s == %s (%lld != %lld)", __FILE__, __LINE__, #a, #b, a_, b_);    \
    } while (0)

static void setup(void)
{
    q = st_evq_new(0);
}

static void teardown(void)
{
    st_evq_free(q);
    q = NULL;
}

static st_ev_handle push_tag(st_time t, uint64_t tag)
{
    st_payload p = {.u = {tag, 0, 0, 0}};
    return st_evq_push(q, t, 0, 7, &p);
}

/* Pop one event and return its payload tag; fails the test when the queue is empty. */
static uint64_t pop_tag(st_time *t)
{
    st_event ev;
    ck_assert_int_eq(st_evq_pop(q, &ev), 1);
    if (t)
        *t = ev.t;
    return ev.data.u[0];
}

START_TEST(test_events_pop_in_time_order)
{
    const st_time ts[] = {50, 10, 40, 20, 30, 0, 60};
    for (uint64_t i = 0; i < 7; i++)
        push_tag(ts[i], i);
    st_time prev = -1, t;
    for (int i = 0; i < 7; i++) {
        pop_tag(&t);
        ck_assert_int_gt(t, prev);
        prev = t;
    }
    st_event ev;
    ck_assert_int_eq(st_evq_pop(q, &ev), 0);
}
END_TEST

START_TEST(test_equal_time_events_fire_in_schedule_order)
{
    push_tag(5, 100);
    for (uint64_t i = 0; i < 100; i++)
        push_tag(10, i);
    push_tag(1, 101);
    ck_assert_uint_eq(pop_tag(NULL), 101);
    ck_assert_uint_eq(pop_tag(NULL), 100);
    for (uint64_t i = 0; i < 100; i++)
        ck_assert_uint_eq(pop_tag(NULL), i);
}
END_TEST

START_TEST(test_lower_priority_fires_first_at_equal_time)
{
    st_payload a = {.u = {1}}, b = {.u = {2}}, c = {.u = {3}};
    st_evq_push(q, 10, 5, 0, &a);
    st_evq_push(q, 10, 0, 0, &b);
    st_evq_push(q, 9, 9, 0, &c);
    ck_assert_uint_eq(pop_tag(NULL), 3); /* time first */
    st_event ev;
    st_evq_pop(q, &ev);
    ck_assert_uint_eq(ev.data.u[0], 2);
    ck_assert_uint_eq(ev.prio, 0);
    st_evq_pop(q, &ev);
    ck_assert_uint_eq(ev.data.u[0], 1);
    ck_assert_uint_eq(ev.prio, 5);
}
END_TEST

START_TEST(test_popped_event_carries_kind_payload_and_stale_handle)
{
    st_payload p = {.d = {1.5, -2.0, 3.25, 0.0}};
    st_ev_handle h = st_evq_push(q, 42, 3, 99, &p);
    ck_assert_int_eq(st_evq_pending(q, h), 1);
    st_event ev;
    ck_assert_int_eq(st_evq_pop(q, &ev), 1);
    ck_assert_int_eq(ev.t, 42);
    ck_assert_uint_eq(ev.kind, 99);
    ck_assert_uint_eq(ev.prio, 3);
    ck_assert(ev.data.d[0] == 1.5 && ev.data.d[1] == -2.0 && ev.data.d[2] == 3.25);
    ck_assert_uint_eq(ev.handle.slot, h.slot);
    ck_assert_int_eq(st_evq_pending(q, h), 0);
    ck_assert_int_eq(st_evq_cancel(q, h), ST_ENOTFOUND);
}
END_TEST

START_TEST(test_null_payload_is_all_zero)
{
    st_payload p = {.u = {1, 2, 3, 4}};
    st_evq_push(q, 1, 0, 0, &p);
    st_event ev;
    st_evq_pop(q, &ev);
    st_evq_push(q, 2, 0, 0, NULL); /* reuses the slot that held p */
    st_evq_pop(q, &ev);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(ev.data.u[i], 0);
}
END_TEST

START_TEST(test_cancel_removes_only_that_event)
{
    st_ev_handle h[5];
    for (uint64_t i = 0; i < 5; i++)
        h[i] = push_tag(10 * (st_time)i, i);
    ck_assert_int_eq(st_evq_cancel(q, h[2]), 0);
    ck_assert_uint_eq(st_evq_size(q), 4);
    ck_assert_int_eq(st__evq_check(q), 0);
    const uint64_t want[] = {0, 1, 3, 4};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(pop_tag(NULL), want[i]);
}
END_TEST

START_TEST(test_cancel_of_head_promotes_next_earliest)
{
    st_ev_handle head = push_tag(1, 1);
    for (uint64_t i = 2; i < 40; i++)
        push_tag((st_time)(100 - i), i);
    ck_assert_int_eq(st_evq_cancel(q, head), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
    st_time t;
    ck_assert_uint_eq(pop_tag(&t), 39);
    ck_assert_int_eq(t, 61);
}
END_TEST

START_TEST(test_cancel_of_last_heap_entry)
{
    for (uint64_t i = 0; i < 20; i++)
        push_tag((st_time)i, i);
    st_ev_handle last = push_tag(1000, 20); /* the largest key sits in the last heap slot */
    ck_assert_int_eq(st_evq_cancel(q, last), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
    ck_assert_uint_eq(st_evq_size(q), 20);
    for (uint64_t i = 0; i < 20; i++)
        ck_assert_uint_eq(pop_tag(NULL), i);
}
END_TEST

START_TEST(test_cancel_of_only_event_empties_queue)
{
    st_ev_handle h = push_tag(5, 1);
    ck_assert_int_eq(st_evq_cancel(q, h), 0);
    ck_assert_uint_eq(st_evq_size(q), 0);
    ck_assert_int_eq(st_evq_peek(q, &(st_ev_key){0}), 0);
}
END_TEST

START_TEST(test_stale_handle_is_a_safe_noop_even_after_slot_reuse)
{
    st_ev_handle old = push_tag(5, 1);
    ck_assert_int_eq(st_evq_cancel(q, old), 0);
    ck_assert_int_eq(st_evq_cancel(q, old), ST_ENOTFOUND);
    st_ev_handle fresh = push_tag(6, 2); /* takes the freed slot */
    ck_assert_uint_eq(fresh.slot, old.slot);
    ck_assert_uint_ne(fresh.gen, old.gen);
    ck_assert_int_eq(st_evq_cancel(q, old), ST_ENOTFOUND);
    ck_assert_int_eq(st_evq_reschedule(q, old, 1), ST_ENOTFOUND);
    ck_assert_ptr_null(st_evq_payload(q, old));
    ck_assert_int_eq(st_evq_pending(q, fresh), 1);
    ck_assert_uint_eq(pop_tag(NULL), 2);
}
END_TEST

START_TEST(test_none_handle_is_never_pending)
{
    push_tag(1, 1);
    ck_assert_int_eq(st_evq_pending(q, ST_EV_NONE), 0);
    ck_assert_int_eq(st_evq_cancel(q, ST_EV_NONE), ST_ENOTFOUND);
    ck_assert_int_eq(st_evq_reschedule(q, ST_EV_NONE, 3), ST_ENOTFOUND);
    ck_assert_uint_eq(st_evq_size(q), 1);
}
END_TEST

START_TEST(test_handle_never_issued_is_a_bug)
{
    push_tag(1, 1);
    st_evq_cancel(q, (st_ev_handle){12345, 1});
}
END_TEST

START_TEST(test_reschedule_earlier_moves_event_ahead)
{
    for (uint64_t i = 0; i < 30; i++)
        push_tag(100 + (st_time)i, i);
    st_ev_handle h = push_tag(500, 99);
    ck_assert_int_eq(st_evq_reschedule(q, h, 50), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
    st_time t;
    ck_assert_uint_eq(pop_tag(&t), 99);
    ck_assert_int_eq(t, 50);
}
END_TEST

START_TEST(test_reschedule_later_moves_event_behind)
{
    st_ev_handle h = push_tag(1, 99);
    for (uint64_t i = 0; i < 30; i++)
        push_tag(100 + (st_time)i, i);
    ck_assert_int_eq(st_evq_reschedule(q, h, 115), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
    for (uint64_t i = 0; i <= 15; i++)
        ck_assert_uint_eq(pop_tag(NULL), i);
    st_time t;
    ck_assert_uint_eq(pop_tag(&t), 99); /* after the event already at 115: fresh seq */
    ck_assert_int_eq(t, 115);
    ck_assert_uint_eq(pop_tag(NULL), 16);
}
END_TEST

START_TEST(test_reschedule_keeps_handle_kind_prio_and_payload)
{
    st_payload p = {.u = {77, 88}};
    st_ev_handle h = st_evq_push(q, 10, 4, 3, &p);
    push_tag(20, 1);
    ck_assert_int_eq(st_evq_reschedule(q, h, 30), 0);
    ck_assert_int_eq(st_evq_pending(q, h), 1);
    st_ev_key k;
    ck_assert_int_eq(st_evq_key(q, h, &k), 0);
    ck_assert_int_eq(k.t, 30);
    ck_assert_uint_eq(k.prio, 4);
    st_evq_payload(q, h)->u[1] = 89;
    ck_assert_uint_eq(pop_tag(NULL), 1);
    st_event ev;
    st_evq_pop(q, &ev);
    ck_assert_uint_eq(ev.kind, 3);
    ck_assert_uint_eq(ev.prio, 4);
    ck_assert_uint_eq(ev.data.u[0], 77);
    ck_assert_uint_eq(ev.data.u[1], 89);
}
END_TEST

START_TEST(test_reschedule_to_same_time_goes_behind_equal_events)
{
    st_ev_handle h = push_tag(10, 0);
    push_tag(10, 1);
    push_tag(10, 2);
    ck_assert_int_eq(st_evq_reschedule(q, h, 10), 0);
    ck_assert_uint_eq(pop_tag(NULL), 1);
    ck_assert_uint_eq(pop_tag(NULL), 2);
    ck_assert_uint_eq(pop_tag(NULL), 0);
}
END_TEST

START_TEST(test_many_events_pop_sorted)
{
    st_rng *r = st_rng_new(1, 1, 1, 1);
    for (uint64_t i = 0; i < 200000; i++)
        push_tag((st_time)st_rng_uniform_int(r, 50000), i);
    REQUIRE_EQ(st__evq_check(q), 0);
    st_event prev, ev;
    st_evq_pop(q, &prev);
    while (st_evq_pop(q, &ev)) {
        REQUIRE(ev.t > prev.t || (ev.t == prev.t && ev.data.u[0] > prev.data.u[0]));
        prev = ev;
    }
    st_rng_free(r);
}
END_TEST

/* Above 2^15 pending events the sifts take their prefetching path; cancel and reschedule there
 * must keep the heap and the back-pointers consistent too. */
START_TEST(test_large_queue_cancel_and_reschedule_keep_order)
{
    enum { N = 100000 };
    st_rng *r = st_rng_new(3, 1, 1, 1);
    st_ev_handle *h = malloc(sizeof *h * N);
    unsigned char *gone = calloc(N, 1);
    for (uint64_t i = 0; i < N; i++)
        h[i] = push_tag((st_time)st_rng_uniform_int(r, 1000000), i);
    size_t cancelled = 0;
    for (int k = 0; k < 20000; k++) {
        uint32_t i = st_rng_uniform_int(r, N);
        if (!gone[i]) {
            REQUIRE_EQ(st_evq_cancel(q, h[i]), 0);
            gone[i] = 1;
            cancelled++;
        }
        uint32_t j = st_rng_uniform_int(r, N);
        if (!gone[j])
            REQUIRE_EQ(st_evq_reschedule(q, h[j], (st_time)st_rng_uniform_int(r, 1000000)), 0);
    }
    ck_assert_int_eq(st__evq_check(q), 0);
    ck_assert_uint_eq(st_evq_size(q), N - cancelled);
    st_event ev;
    st_time prev = -1;
    size_t n = 0;
    while (st_evq_pop(q, &ev)) {
        REQUIRE(ev.t >= prev && !gone[ev.data.u[0]]);
        prev = ev.t;
        n++;
    }
    ck_assert_uint_eq(n, N - cancelled);
    free(gone);
    free(h);
    st_rng_free(r);
}
END_TEST

/* The reference for the random test: the live events in no order, each with the key the queue
 * must have given it. Pops are checked against a linear scan for the minimum, which is slow but
 * obviously right; the sawtooth below keeps the live set under ~2000 so the scan stays cheap. */
typedef struct ref_ev {
    st_time t;
    unsigned prio;
    uint64_t seq; /* a plain 64-bit counter: the queue's renumbered seqs must order the same */
    st_ev_handle h;
    uint64_t tag;
} ref_ev;

typedef struct ref {
    ref_ev *v;
    size_t n;
    uint64_t seq;
    st_ev_handle dead[256]; /* recently fired or cancelled handles, for stale-handle checks */
    size_t ndead;
} ref;

static int ref_less(const ref_ev *a, const ref_ev *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return a->seq < b->seq;
}

static void ref_kill(ref *R, size_t i)
{
    R->dead[R->ndead++ % 256] = R->v[i].h;
    R->v[i] = R->v[--R->n];
}

static void op_schedule(ref *R, st_rng *r, st_time base, uint64_t tag)
{
    st_time t = base + st_rng_uniform_int(r, 64);
    unsigned prio = st_rng_uniform_int(r, 3);
    st_payload p = {.u = {tag}};
    ref_ev e = {t, prio, R->seq++, ST_EV_NONE, tag};
    e.h = st_evq_push(q, t, prio, 0, &p);
    R->v[R->n++] = e;
}

static void op_pop(ref *R, st_time *base)
{
    st_event ev;
    if (!R->n) {
        REQUIRE_EQ(st_evq_pop(q, &ev), 0);
        return;
    }
    size_t m = 0;
    for (size_t i = 1; i < R->n; i++)
        if (ref_less(&R->v[i], &R->v[m]))
            m = i;
    st_ev_key k; /* after a pop, the peek of a vacant root */
    REQUIRE_EQ(st_evq_peek(q, &k), 1);
    REQUIRE_EQ(k.t, R->v[m].t);
    REQUIRE_EQ(k.prio, R->v[m].prio);
    REQUIRE_EQ(st_evq_pop(q, &ev), 1);
    REQUIRE_EQ(ev.t, R->v[m].t);
    REQUIRE_EQ(ev.data.u[0], R->v[m].tag);
    REQUIRE_EQ(ev.handle.slot, R->v[m].h.slot);
    *base = ev.t;
    ref_kill(R, m);
}

static void op_cancel_or_move(ref *R, st_rng *r, st_time base, int move)
{
    if (!R->n)
        return;
    size_t i = st_rng_uniform_int(r, (uint32_t)R->n);
    if (move) {
        st_time t = base + st_rng_uniform_int(r, 64);
        REQUIRE_EQ(st_evq_reschedule(q, R->v[i].h, t), 0);
        R->v[i].t = t;
        R->v[i].seq = R->seq++;
    } else {
        REQUIRE_EQ(st_evq_cancel(q, R->v[i].h), 0);
        ref_kill(R, i);
    }
}

static void op_stale(ref *R, st_rng *r)
{
    if (!R->ndead)
        return;
    size_t k = R->ndead < 256 ? R->ndead : 256;
    st_ev_handle h = R->dead[st_rng_uniform_int(r, (uint32_t)k)];
    REQUIRE_EQ(st_evq_pending(q, h), 0);
    REQUIRE_EQ(st_evq_cancel(q, h), ST_ENOTFOUND);
    REQUIRE_EQ(st_evq_reschedule(q, h, 0), ST_ENOTFOUND);
}

/* Loop 0 runs with the queue's real 28-bit seq counter; loop 1 makes it renumber every few
 * thousand schedules, so the renumbering is checked against the reference as often as anything. */
START_TEST(test_million_random_operations_match_reference)
{
    enum { OPS = 1000000, HIGH = 2000 };
    if (_i == 1)
        st__evq_set_seq_limit(q, 2 * HIGH + 100);
    /* Shrinking still schedules now and then, so the live set can overshoot HIGH a little. */
    ref R = {.v = malloc(sizeof(ref_ev) * 2 * HIGH)};
    st_rng *r = st_rng_new(20240601, 1, 0, 2);
    st_time base = 0;
    int growing = 1;
    for (uint64_t op = 0; op < OPS; op++) {
        if (growing && R.n >= HIGH)
            growing = 0;
        if (!growing && R.n == 0)
            growing = 1;
        /* Growing: 50% schedule; shrinking: 20%. The rest: pop, cancel, move, stale handle. */
        uint32_t x = st_rng_uniform_int(r, 100);
        if (x < (growing ? 50u : 20u) && R.n < 2 * HIGH)
            op_schedule(&R, r, base, op);
        else if (x < 70)
            op_pop(&R, &base);
        else if (x < 82)
            op_cancel_or_move(&R, r, base, 0);
        else if (x < 96)
            op_cancel_or_move(&R, r, base, 1);
        else
            op_stale(&R, r);
        REQUIRE_EQ(st_evq_size(q), R.n);
        if (op % 65536 == 0)
            REQUIRE_EQ(st__evq_check(q), 0);
    }
    REQUIRE_EQ(st_evq_seq(q), R.seq);
    while (R.n)
        op_pop(&R, &base);
    REQUIRE_EQ(st__evq_check(q), 0);
    st_rng_free(r);
    free(R.v);
}
END_TEST

/* A pop leaves the root vacant for the next push (evq.c): whatever comes next, a peek, a push
 * earlier or later than every pending event, a cancel, the queue gives the same order. */
START_TEST(test_a_pop_then_a_peek_push_or_cancel_keep_the_order)
{
    st_ev_handle h[6];
    for (uint64_t i = 0; i < 6; i++)
        h[i] = push_tag((st_time)(10 * (i + 1)), i);
    ck_assert_uint_eq(pop_tag(NULL), 0);
    st_ev_key k;
    ck_assert_int_eq(st_evq_peek(q, &k), 1);
    ck_assert_int_eq(k.t, 20);
    ck_assert_uint_eq(st_evq_size(q), 5);
    ck_assert_int_eq(st__evq_check(q), 0);
    push_tag(15, 6); /* earlier than all: into the vacant root */
    ck_assert_int_eq(st_evq_peek(q, &k), 1);
    ck_assert_int_eq(k.t, 15);
    ck_assert_uint_eq(pop_tag(NULL), 6);
    push_tag(100, 7); /* later than all: sifted down from the root */
    ck_assert_int_eq(st__evq_check(q), 0);
    ck_assert_uint_eq(pop_tag(NULL), 1);
    ck_assert_int_eq(st_evq_cancel(q, h[2]), 0); /* with the root vacant */
    ck_assert_int_eq(st_evq_reschedule(q, h[5], 35), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
    const uint64_t order[] = {5, 3, 4, 7};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(pop_tag(NULL), order[i]);
    ck_assert_int_eq(st_evq_peek(q, &k), 0);
    ck_assert_uint_eq(st_evq_size(q), 0);
    ck_assert_int_eq(st__evq_check(q), 0);
}
END_TEST

START_TEST(test_free_null_is_noop)
{
    st_evq_free(NULL);
}
END_TEST

Suite *evq_suite(void)
{
    Suite *s = suite_create("evq");
    TCase *tc = tcase_create("order");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_events_pop_in_time_order);
    tcase_add_test(tc, test_equal_time_events_fire_in_schedule_order);
    tcase_add_test(tc, test_lower_priority_fires_first_at_equal_time);
    tcase_add_test(tc, test_popped_event_carries_kind_payload_and_stale_handle);
    tcase_add_test(tc, test_null_payload_is_all_zero);
    tcase_add_test(tc, test_many_events_pop_sorted);
    tcase_add_test(tc, test_large_queue_cancel_and_reschedule_keep_order);
    tcase_add_test(tc, test_a_pop_then_a_peek_push_or_cancel_keep_the_order);
    tcase_add_test(tc, test_free_null_is_noop);
    suite_add_tcase(s, tc);

    tc = tcase_create("cancel");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_cancel_removes_only_that_event);
    tcase_add_test(tc, test_cancel_of_head_promotes_next_earliest);
    tcase_add_test(tc, test_cancel_of_last_heap_entry);
    tcase_add_test(tc, test_cancel_of_only_event_empties_queue);
    tcase_add_test(tc, test_stale_handle_is_a_safe_noop_even_after_slot_reuse);
    tcase_add_test(tc, test_none_handle_is_never_pending);
    tcase_add_test_raise_signal(tc, test_handle_never_issued_is_a_bug, SIGABRT);
    suite_add_tcase(s, tc);

    tc = tcase_create("reschedule");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_reschedule_earlier_moves_event_ahead);
    tcase_add_test(tc, test_reschedule_later_moves_event_behind);
    tcase_add_test(tc, test_reschedule_keeps_handle_kind_prio_and_payload);
    tcase_add_test(tc, test_reschedule_to_same_time_goes_behind_equal_events);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_million_random_operations_match_reference, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
