/* The collective-pattern memo: it keeps growing past the old linear memo's 4,096 entries and
 * finds every pattern, tells patterns apart by every field (bytes bit for bit), and hands back
 * the remembered time on every later lookup. */
#include <check.h>
#include <math.h>

#include "models/step/coll_memo.h"

/* A distinct pattern for each i, spread over every field so that each takes part. */
static st_coll_memo_key key_of(int64_t i)
{
    return (st_coll_memo_key){.op = (st_coll_op)(i % ST_COLL_OP__COUNT),
                              .n = 2 + i % 7,
                              .stride = 1 + (i / 7) % 5,
                              .groups = 1 + (i / 35) % 3,
                              .gstride = 1 + i / 105,
                              .bytes = 1e6 * (double)(1 + i % 11)};
}

static double time_of(int64_t i)
{
    return 1e-6 * (double)(i + 1);
}

START_TEST(test_memo_grows_past_4096_patterns_and_finds_them_all)
{
    enum { N = 20000 };
    st_coll_memo *m = st_coll_memo_new();
    for (int64_t i = 0; i < N; i++) {
        st_coll_memo_key k = key_of(i);
        double t = -1;
        ck_assert_msg(!st_coll_memo_find(m, &k, &t), "pattern %lld found before it was put",
                      (long long)i);
        st_coll_memo_put(m, &k, time_of(i));
    }
    ck_assert_uint_eq(st_coll_memo_count(m), N);
    for (int64_t i = 0; i < N; i++) {
        st_coll_memo_key k = key_of(i);
        double t = -1;
        ck_assert_msg(st_coll_memo_find(m, &k, &t), "pattern %lld lost", (long long)i);
        ck_assert_double_eq(t, time_of(i));
    }
    st_coll_memo_free(m);
}
END_TEST

START_TEST(test_a_repeated_lookup_returns_the_memoised_value)
{
    st_coll_memo *m = st_coll_memo_new();
    st_coll_memo_key k = {
        .op = ST_COLL_ALL_REDUCE, .n = 8, .stride = 8, .groups = 8, .gstride = 1, .bytes = 3.25e8};
    st_coll_memo_put(m, &k, 0.0421875);
    for (int rep = 0; rep < 3; rep++) {
        double t = -1;
        ck_assert(st_coll_memo_find(m, &k, &t));
        ck_assert_double_eq(t, 0.0421875);
    }
    ck_assert_uint_eq(st_coll_memo_count(m), 1);
    st_coll_memo_free(m);
}
END_TEST

/* Changing any one field, or bytes by one unit in the last place, is another pattern. */
START_TEST(test_every_field_tells_patterns_apart)
{
    st_coll_memo *m = st_coll_memo_new();
    st_coll_memo_key k = {
        .op = ST_COLL_ALL_GATHER, .n = 4, .stride = 2, .groups = 3, .gstride = 1, .bytes = 1e9};
    st_coll_memo_put(m, &k, 1.0);
    st_coll_memo_key other[6];
    for (int f = 0; f < 6; f++)
        other[f] = k;
    other[0].op = ST_COLL_REDUCE_SCATTER;
    other[1].n = 5;
    other[2].stride = 3;
    other[3].groups = 4;
    other[4].gstride = 2;
    other[5].bytes = nextafter(k.bytes, INFINITY);
    for (int f = 0; f < 6; f++) {
        double t = -1;
        ck_assert_msg(!st_coll_memo_find(m, &other[f], &t), "field %d ignored", f);
        ck_assert_double_eq(t, -1);
    }
    st_coll_memo_free(m);
    st_coll_memo_free(NULL);
}
END_TEST

Suite *coll_memo_suite(void)
{
    Suite *s = suite_create("coll_memo");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_memo_grows_past_4096_patterns_and_finds_them_all);
    tcase_add_test(tc, test_a_repeated_lookup_returns_the_memoised_value);
    tcase_add_test(tc, test_every_field_tells_patterns_apart);
    suite_add_tcase(s, tc);
    return s;
}
