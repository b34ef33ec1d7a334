/* A pattern answered from its shape's first instant (models/step/pattern_time.c, instant_time)
 * takes the time a fresh simulation of it takes, bit for bit, at byte counts from a few bytes
 * (LL) to gigabytes (Simple), on one context and on another context of the same class that
 * shares the memo; an all-reduce keeps no instant (its algorithm may change with its bytes). */
#include <check.h>
#include <string.h>

#include "hgx_cluster.h"
#include "models/step/step.h"
#include "models/step/step_internal.h"

typedef struct pat {
    st_coll_op op;
    int64_t n, stride, groups, gstride;
} pat;

/* Data-parallel all-gathers across nodes (one group per rail, and a ring through NVLink too),
 * pipeline sends between stages, an all-gather inside one node. */
static const pat pats[] = {{ST_COLL_ALL_GATHER, 16, 8, 8, 1},
                           {ST_COLL_ALL_GATHER, 8, 16, 16, 1},
                           {ST_COLL_REDUCE_SCATTER, 16, 8, 8, 1},
                           {ST_COLL_SEND_RECV, 2, 64, 64, 1},
                           {ST_COLL_ALL_GATHER, 8, 1, 1, 1}};

static const double sizes[] = {4096, 65536, 1e6, 33554432, 1.2e9, 7.3e9, 24};

static st_step_ctx *ctx(const st_cluster_cfg *c, st_step_memo *m)
{
    st_step_ctx *x = NULL;
    st_err e = {0};
    ck_assert_int_eq(st_step_ctx_new_shared(c, m, &x, &e), 0);
    return x;
}

static double time_of(st_step_ctx *x, const pat *p, double bytes)
{
    return st_step_pattern_s(x, p->op, p->n, p->stride, p->groups, p->gstride, bytes);
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

START_TEST(test_other_bytes_of_a_shape_take_a_fresh_runs_time)
{
    st_cluster_cfg c = hgx_cluster(16, 4, 2);
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++) {
        st_step_ctx *warm = ctx(&c, NULL);
        time_of(warm, &pats[p], 5e8); /* simulated: the shape's instant kept */
        st_coll_memo_key k = {.op = pats[p].op == ST_COLL_REDUCE_SCATTER ? ST_COLL_ALL_GATHER
                                                                         : pats[p].op,
                              .n = pats[p].n,
                              .stride = pats[p].stride,
                              .groups = pats[p].groups,
                              .gstride = pats[p].gstride};
        ck_assert_msg(st__shape_instant_find(warm->traces, &k), "pattern %zu kept no instant", p);
        for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++) {
            st_step_ctx *fresh = ctx(&c, NULL);
            double want = time_of(fresh, &pats[p], sizes[b]);
            double got = time_of(warm, &pats[p], sizes[b]);
            ck_assert_msg(same_bits(got, want), "pattern %zu, %g bytes: %.17g s, fresh %.17g s", p,
                          sizes[b], got, want);
            st_step_ctx_free(fresh);
        }
        st_step_ctx_free(warm);
    }
}
END_TEST

/* Contexts on two GPU counts of one class share the instants: the second answers from the
 * first's and still takes the fresh time. */
START_TEST(test_a_shared_instant_answers_another_gpu_count_alike)
{
    st_cluster_cfg small = hgx_cluster(16, 4, 2), big = hgx_cluster(32, 4, 2);
    const pat *p = &pats[0];
    st_step_memo *m = st_step_memo_new();
    st_step_ctx *a = ctx(&small, m), *b = ctx(&big, m);
    time_of(a, p, 5e8);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        st_step_ctx *fresh = ctx(&big, NULL);
        double want = time_of(fresh, p, sizes[s]);
        ck_assert(same_bits(time_of(b, p, sizes[s]), want));
        st_step_ctx_free(fresh);
    }
    st_step_ctx_free(a);
    st_step_ctx_free(b);
    st_step_memo_free(m);
}
END_TEST

START_TEST(test_an_all_reduce_keeps_no_instant)
{
    st_cluster_cfg c = hgx_cluster(16, 4, 2);
    st_step_ctx *x = ctx(&c, NULL);
    st_step_pattern_s(x, ST_COLL_ALL_REDUCE, 16, 8, 8, 1, 5e8);
    st_coll_memo_key k = {
        .op = ST_COLL_ALL_REDUCE, .n = 16, .stride = 8, .groups = 8, .gstride = 1};
    ck_assert_ptr_null(st__shape_instant_find(x->traces, &k));
    st_step_ctx_free(x);
}
END_TEST

Suite *shape_instant_suite(void)
{
    Suite *s = suite_create("shape_instant");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_other_bytes_of_a_shape_take_a_fresh_runs_time);
    tcase_add_test(tc, test_a_shared_instant_answers_another_gpu_count_alike);
    tcase_add_test(tc, test_an_all_reduce_keeps_no_instant);
    suite_add_tcase(s, tc);
    return s;
}
