/* The parallel plan's rules: what st_plan_fill derives, which key each broken rule names, the
 * order the checks run in, and the cap on issues written. */
#include <check.h>
#include <string.h>

#include "models/silicon/llm.h"
#include "models/silicon/plan_check.h"
#include "sim/err.h"

static const st_llm_spec model = {
    .layers = 8, .hidden = 1024, .heads = 16, .kv_heads = 4, .vocab = 51200};
static const st_cluster_cfg cluster = {.nodes = 4, .gpus_per_node = 8};

static st_workload_cfg training(int64_t gpus, int64_t tp, int64_t pp)
{
    return (st_workload_cfg){
        .name = "t",
        .model = &model,
        .seq_len = 2048,
        .gpus = gpus,
        .parallel = {.tp = tp, .cp = 1, .pp = pp, .virtual_stages = 1, .microbatch = 1}};
}

START_TEST(test_fill_derives_dp_gpus_and_global_batch)
{
    st_workload_cfg w = training(32, 2, 2);
    st_plan_fill(&w);
    ck_assert_int_eq(w.parallel.dp, 8);
    ck_assert_int_eq(w.global_batch, 8);
    w = training(0, 2, 1);
    w.parallel.dp = 3;
    w.parallel.microbatch = 2;
    st_plan_fill(&w);
    ck_assert_int_eq(w.gpus, 6);
    ck_assert_int_eq(w.global_batch, 6);
    /* 30 GPUs do not split over tp*pp = 4: dp stays 0 for the check to report. */
    w = training(30, 2, 2);
    st_plan_fill(&w);
    ck_assert_int_eq(w.parallel.dp, 0);
    st_plan_issue is;
    ck_assert_int_eq(st_plan_check(&w, &cluster, &is, 1), 1);
    ck_assert_str_eq(is.key, "gpus");
    ck_assert_str_eq(is.msg, "gpus (30) is not a multiple of tp*cp*pp = 4");
}
END_TEST

START_TEST(test_a_sound_plan_has_no_issues)
{
    st_workload_cfg w = training(32, 4, 2);
    st_plan_fill(&w);
    st_plan_issue is[4];
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 4), 0);
    ck_assert_int_eq(st_plan_check_batch(&w, w.parallel.microbatch, is, 4), 0);
}
END_TEST

/* A GPU-count issue comes first; shape issues are each reported, in order, up to cap. */
START_TEST(test_issues_name_their_key_in_order_up_to_cap)
{
    st_workload_cfg w = training(64, 2, 1);
    st_plan_fill(&w);
    st_plan_issue is[4];
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 4), 1);
    ck_assert_str_eq(is[0].msg, "asks for 64 GPUs, but the cluster has 32 (4 nodes x 8)");
    w = training(24, 3, 1); /* 16 heads and 4 K/V heads over tp 3 */
    w.parallel.virtual_stages = 2;
    st_plan_fill(&w);
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 4), 3);
    ck_assert_str_eq(is[0].key, "parallel.tp");
    ck_assert_str_eq(is[1].key, "parallel.tp");
    ck_assert_str_eq(is[1].msg, "the model's 4 K/V heads do not split over tp = 3");
    ck_assert_str_eq(is[2].key, "parallel.virtual_stages");
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 1), 1);
    ck_assert_str_eq(is[0].msg, "the model's 16 heads do not split over tp = 3");
}
END_TEST

START_TEST(test_a_plan_beyond_the_limit_is_refused_before_filling)
{
    st_workload_cfg w = training(0, 1000000, 1);
    w.parallel.cp = 1000000;
    st_plan_fill(&w);
    ck_assert_int_eq(w.gpus, 0);
    st_plan_issue is;
    ck_assert_int_eq(st_plan_check(&w, &cluster, &is, 1), 1);
    ck_assert_int_eq(is.code, ST_ELIMIT);
    ck_assert_str_eq(is.key, "parallel");
}
END_TEST

START_TEST(test_batch_splits_over_dp_then_into_groups_of_pp)
{
    st_workload_cfg w = training(16, 4, 2); /* dp 2 */
    w.parallel.virtual_stages = 2;
    w.global_batch = 5;
    st_plan_fill(&w);
    st_plan_issue is;
    ck_assert_int_eq(st_plan_check_batch(&w, 1, &is, 1), 1);
    ck_assert_str_eq(is.msg, "global_batch (5) must be a multiple of dp*microbatch = 2");
    w.global_batch = 6; /* 3 micro-batches, not a multiple of pp 2 */
    ck_assert_int_eq(st_plan_check_batch(&w, 1, &is, 1), 1);
    ck_assert_str_eq(is.key, "global_batch");
    ck_assert_str_eq(is.msg,
                     "interleaving needs micro-batches per step (3) to be a multiple of pp (2)");
    /* An automatic micro-batch leaves the interleaving rule to the size the step model picks. */
    ck_assert_int_eq(st_plan_check_batch(&w, 0, &is, 1), 0);
}
END_TEST

/* The shape and ZeRO rules read neither gpus nor dp, so a GPU-count issue does not hide them;
 * with no model (the loader's case when `model:` did not read) the model's rules are skipped
 * and the rest still run. */
START_TEST(test_a_gpu_count_issue_does_not_hide_the_shape_rules)
{
    st_workload_cfg w = training(30, 3, 1); /* 30 GPUs over tp 3: dp 10, but 16 heads */
    w.parallel.dp = 4;                      /* 3*4 = 12, not 30 */
    w.parallel.virtual_stages = 2;          /* without pp */
    st_plan_fill(&w);
    st_plan_issue is[4];
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 4), 4);
    ck_assert_str_eq(is[0].key, "parallel");
    ck_assert_str_eq(is[1].msg, "the model's 16 heads do not split over tp = 3");
    ck_assert_str_eq(is[3].key, "parallel.virtual_stages");
    w.model = NULL;
    ck_assert_int_eq(st_plan_check(&w, &cluster, is, 4), 2);
    ck_assert_str_eq(is[1].key, "parallel.virtual_stages");
}
END_TEST

Suite *plan_check_suite(void)
{
    Suite *s = suite_create("plan_check");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fill_derives_dp_gpus_and_global_batch);
    tcase_add_test(tc, test_a_sound_plan_has_no_issues);
    tcase_add_test(tc, test_issues_name_their_key_in_order_up_to_cap);
    tcase_add_test(tc, test_a_plan_beyond_the_limit_is_refused_before_filling);
    tcase_add_test(tc, test_batch_splits_over_dp_then_into_groups_of_pp);
    tcase_add_test(tc, test_a_gpu_count_issue_does_not_hide_the_shape_rules);
    suite_add_tcase(s, tc);
    return s;
}
