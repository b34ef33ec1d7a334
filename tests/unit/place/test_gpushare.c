/* GPU-sharing placement (models/place/gpushare.c): a hand-sized list where placing the second
 * half-GPU pod on the other node strands the whole-GPU pod (best-fit, packing and fgd pack it,
 * random does so half the time), the CPU, memory and GPU-model constraints, and the tuning to a
 * multiple of the capacity. */
#include <check.h>
#include <math.h>

#include "models/place/gpushare.h"

/* Two one-GPU nodes; pods 0.5, 0.5, then 1 GPU, in this order. */
static const st_gs_node two[2] = {{32000, 65536, 1, 0}, {32000, 65536, 1, 0}};
static const st_gs_pod halves[3] = {
    {1000, 1024, 1, 500, 0}, {1000, 1024, 1, 500, 0}, {1000, 1024, 1, 1000, 0}};

static double alloc_of(st_gs_policy policy, uint64_t seed, size_t *failed)
{
    static const double at[1] = {1.0};
    st_gs_spec sp = {.nodes = two,
                     .n_nodes = 2,
                     .pods = halves,
                     .n_pods = 3,
                     .policy = policy,
                     .keep_order = 1,
                     .seed = seed,
                     .at = at,
                     .n_at = 1};
    st_gs_result r;
    st_err err = {0};
    ck_assert_int_eq(st_gs_run(&sp, &r, &err), 0);
    ck_assert_int_eq(r.capacity_milli, 2000);
    *failed = r.failed;
    return r.alloc[0];
}

START_TEST(test_packing_policies_fill_what_random_strands)
{
    size_t failed;
    for (int p = ST_GS_BEST_FIT; p <= ST_GS_FGD; p++) {
        ck_assert_double_eq(alloc_of((st_gs_policy)p, 1, &failed), 1.0);
        ck_assert_uint_eq(failed, 0);
    }
    double sum = 0;
    int stranded = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        double a = alloc_of(ST_GS_RANDOM, seed, &failed);
        ck_assert(a == 1.0 || (a == 0.5 && failed == 1));
        stranded += a < 1;
        sum += a;
    }
    ck_assert_int_gt(stranded, 16); /* about half of 64 */
    ck_assert_int_lt(stranded, 48);
    ck_assert_double_lt(sum / 64, 1.0);
}
END_TEST

/* A pod fits only where CPU, memory and its GPU model all are. */
START_TEST(test_cpu_memory_and_model_constraints)
{
    static const st_gs_node nodes[2] = {{8000, 16384, 1, 0}, {64000, 262144, 2, 1}};
    static const st_gs_pod pods[4] = {
        {16000, 1024, 1, 1000, 1u << 0}, /* model 0 only, but needs 16 cores: fails */
        {1000, 1 << 20, 1, 100, 0},      /* 1 TiB of memory: fails */
        {1000, 1024, 2, 1000, 1u << 1},  /* model 1, two GPUs: node 1 */
        {1000, 1024, 1, 1000, 1u << 2},  /* a model no node has: fails */
    };
    for (int p = 0; p < ST_GS__N; p++) {
        st_gs_spec sp = {.nodes = nodes,
                         .n_nodes = 2,
                         .pods = pods,
                         .n_pods = 4,
                         .policy = (st_gs_policy)p,
                         .keep_order = 1,
                         .seed = 7};
        st_gs_result r;
        st_err err = {0};
        ck_assert_int_eq(st_gs_run(&sp, &r, &err), 0);
        ck_assert_uint_eq(r.placed, 1);
        ck_assert_uint_eq(r.failed, 3);
    }
}
END_TEST

/* Tuned to 1.3 x 2,000 milli-GPU: copies are appended while the request stays under 2,600;
 * with tune 0 none are. */
START_TEST(test_tuning_appends_copies_up_to_the_load)
{
    static const double at[2] = {1.0, 1.3};
    st_gs_spec sp = {.nodes = two,
                     .n_nodes = 2,
                     .pods = halves,
                     .n_pods = 3,
                     .policy = ST_GS_BEST_FIT,
                     .tune = 1.3,
                     .seed = 3,
                     .at = at,
                     .n_at = 2};
    st_gs_result r;
    st_err err = {0};
    ck_assert_int_eq(st_gs_run(&sp, &r, &err), 0);
    /* 2,000 milli in the list: room for one half-GPU copy (2,500), never a whole one (3,000);
     * the first draw that does not fit ends the tuning, as in the artifact */
    ck_assert_uint_ge(r.arrived, 3);
    ck_assert_uint_le(r.arrived, 4);
    sp.tune = 0;
    ck_assert_int_eq(st_gs_run(&sp, &r, &err), 0);
    ck_assert_uint_eq(r.arrived, 3);
    ck_assert_double_le(r.alloc[1], 1.0);
    st_gs_node big = {1000, 1000, ST_GS_MAX_GPUS + 1, 0};
    sp.nodes = &big;
    sp.n_nodes = 1;
    ck_assert_int_eq(st_gs_run(&sp, &r, &err), ST_EINVAL);
}
END_TEST

Suite *gpushare_suite(void)
{
    Suite *s = suite_create("gpushare");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_packing_policies_fill_what_random_strands);
    tcase_add_test(tc, test_cpu_memory_and_model_constraints);
    tcase_add_test(tc, test_tuning_appends_copies_up_to_the_load);
    suite_add_tcase(s, tc);
    return s;
}
