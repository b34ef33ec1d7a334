/* The software stacks' table (scenarios/software.h): a release finds the newest row at or before
 * it, releases compare as numbers, every row is well formed and cites a source, and the apply
 * step sets only what the workload did not state. */
#include <check.h>
#include <string.h>

#include "scenarios/catalog.h"
#include "scenarios/software.h"
#include "unit/check_util.h"

static const char *found(const char *stack, const char *release)
{
    int why = 0;
    const st_software *r = st_software_find(stack, release, &why);
    return r ? r->release : why == 1 ? "unknown" : why == 2 ? "unreadable" : "too old";
}

START_TEST(test_release_takes_the_newest_row_at_or_before_it)
{
    ck_assert_str_eq(found("megatron-bridge", "25.11"), "25.11");
    ck_assert_str_eq(found("megatron-bridge", "26.04.01"), "26.04");
    ck_assert_str_eq(found("megatron-bridge", "26.03"), "25.11");
    ck_assert_str_eq(found("megatron-bridge", "30.1"), "26.04");
    /* numbers, not text: 0.10 comes after 0.8 and 0.9 before it */
    ck_assert_str_eq(found("megatron-core", "0.10"), "0.8");
    ck_assert_str_eq(found("megatron-core", "0.7"), "0.6");
    ck_assert_str_eq(found("torchtitan", "2025-01"), "2024-04");
    ck_assert_str_eq(found("torchtitan", "2025-08-20"), "2025-08");
}
END_TEST

START_TEST(test_what_cannot_be_placed_is_refused)
{
    ck_assert_str_eq(found("megatron", "0.8"), "unknown");
    ck_assert_str_eq(found("NeMo", "25.02"), "unknown"); /* names are exact */
    ck_assert_str_eq(found("nemo", "v25.02"), "unreadable");
    ck_assert_str_eq(found("nemo", "25."), "unreadable");
    ck_assert_str_eq(found("nemo", "25..02"), "unreadable");
    ck_assert_str_eq(found("nemo", "1.2.3.4.5"), "unreadable");
    ck_assert_str_eq(found("nemo", "999999999999"), "unreadable");
    ck_assert_str_eq(found("nemo", "24.06"), "too old");
    ck_assert_str_eq(found("megatron-core", "0.3.9"), "too old");
}
END_TEST

/* The value splits into exactly two words, each kept whole: a word too long for its buffer is
 * refused rather than cut (a cut could end inside a UTF-8 character of an error message). */
START_TEST(test_value_splits_into_two_whole_words)
{
    st_software_words w;
    ck_assert(st_software_split("megatron-bridge 26.04", &w));
    ck_assert_str_eq(w.stack, "megatron-bridge");
    ck_assert_str_eq(w.release, "26.04");
    ck_assert(st_software_split("  nemo\t25.02 ", &w));
    ck_assert_str_eq(w.stack, "nemo");
    ck_assert_str_eq(w.release, "25.02");
    ck_assert(!st_software_split("nemo", &w));
    ck_assert(!st_software_split("nemo 25.02 extra", &w));
    ck_assert(!st_software_split("", &w));
    ck_assert(!st_software_split(NULL, &w));
    char long_word[80];
    memset(long_word, 'a', 64);
    strcpy(long_word + 64, " 1.0");
    ck_assert(!st_software_split(long_word, &w)); /* 64 bytes: one over */
    long_word[1] = ' ';
    ck_assert(!st_software_split(long_word, &w)); /* three words */
    memset(long_word, 'a', 63);
    strcpy(long_word + 63, " 1.0");
    ck_assert(st_software_split(long_word, &w)); /* 63 bytes fit */
    ck_assert_uint_eq(strlen(w.stack), 63);
}
END_TEST

START_TEST(test_rows_are_ordered_sourced_and_in_range)
{
    ck_assert_uint_ge(st_software_count(), 10);
    ck_assert_ptr_null(st_software_at(st_software_count()));
    for (size_t i = 0; i < st_software_count(); i++) {
        const st_software *r = st_software_at(i);
        ck_assert_msg(r->source && strlen(r->source) > 40, "%s %s: no source", r->stack,
                      r->release);
        /* each row is found by its own release: stacks are together, oldest first */
        int why = 0;
        ck_assert_ptr_eq(st_software_find(r->stack, r->release, &why), r);
        for (int a = 0; a < ST_SW_ARCHS; a++)
            ck_assert(r->attention[a] == ST_SW_KEEP ||
                      (st_sw_value(r->attention[a]) >= 0 &&
                       st_sw_value(r->attention[a]) <= ST_ATTN_CUDNN));
        ck_assert(r->fp8_recipe == ST_SW_KEEP || r->fp8_recipe == ST_SW(ST_FP8_DELAYED) ||
                  r->fp8_recipe == ST_SW(ST_FP8_CURRENT)); /* mxfp8 would refuse non-Blackwell */
        const signed char flags[] = {
            r->fp8_param_gather,     r->grad_bf16,   r->grad_accum_separate, r->overlap_grad_reduce,
            r->overlap_param_gather, r->overlap_p2p, r->tp_comm_overlap};
        for (size_t k = 0; k < sizeof flags; k++)
            ck_assert(flags[k] == ST_SW_KEEP || flags[k] == ST_SW_OFF || flags[k] == ST_SW_ON);
    }
    const char *names[8];
    ck_assert_uint_eq(st_software_stacks(names, 8), 6);
    ck_assert_str_eq(names[0], "megatron-lm");
    ck_assert_str_eq(names[5], "torchtitan");
}
END_TEST

/* A workload that states only `attention` and parallel.overlap_p2p. */
static int stated(const void *ctx, const char *key)
{
    (void)ctx;
    return strcmp(key, "attention") == 0 || strcmp(key, "parallel.overlap_p2p") == 0;
}

START_TEST(test_apply_sets_only_what_is_not_stated)
{
    int why = 0;
    const st_software *r = st_software_find("nemo", "24.07", &why);
    ck_assert_ptr_nonnull(r);
    st_workload_cfg w = {.attention = ST_ATTN_FLASH2, .precision = ST_PREC_BF16};
    w.parallel = (st_parallel_cfg){.tp = 4, .zero = 1, .overlap_p2p = 0};
    st_software_apply(r, st_catalog_gpu("h100-sxm"), &w, stated, NULL);
    ck_assert_int_eq(w.attention, ST_ATTN_FLASH2); /* stated: kept */
    ck_assert_int_eq(w.parallel.overlap_p2p, 0);   /* stated: kept */
    ck_assert_int_eq(w.parallel.overlap_grad_reduce, 1);
    ck_assert_int_eq(w.parallel.overlap_param_gather, 1);
    /* bf16: the FP8 settings stay untouched */
    ck_assert_int_eq(w.fp8_param_gather, 0);
    /* nemo 25.02's TP overlap needs sequence parallelism at tp 4: not set without it */
    r = st_software_find("nemo", "25.02", &why);
    st_workload_cfg v = {.precision = ST_PREC_FP8, .fp8_recipe = ST_FP8_CURRENT};
    v.parallel = (st_parallel_cfg){.tp = 4, .zero = 0};
    st_software_apply(r, st_catalog_gpu("b200"), &v, stated, NULL);
    ck_assert_int_eq(v.parallel.tp_comm_overlap, 0);
    ck_assert_int_eq(v.parallel.overlap_param_gather, 0); /* zero 0: nothing is gathered */
    ck_assert_int_eq(v.fp8_recipe, ST_FP8_DELAYED);
    ck_assert_int_eq(v.fp8_param_gather, 1);
    ck_assert_int_eq(v.parallel.grad_bf16, 1);
    v.parallel.sequence_parallel = 1;
    st_software_apply(r, st_catalog_gpu("b200"), &v, stated, NULL);
    ck_assert_int_eq(v.parallel.tp_comm_overlap, 1);
}
END_TEST

static int nothing_stated(const void *ctx, const char *key)
{
    (void)ctx;
    (void)key;
    return 0;
}

START_TEST(test_attention_follows_the_architecture)
{
    int why = 0;
    const st_software *r = st_software_find("megatron-core", "0.8", &why);
    st_workload_cfg a = {.attention = ST_ATTN_FLASH}, h = a, b = a, m = a;
    st_software_apply(r, st_catalog_gpu("a100-sxm-80g"), &a, nothing_stated, NULL);
    st_software_apply(r, st_catalog_gpu("h100-sxm"), &h, nothing_stated, NULL);
    st_software_apply(r, st_catalog_gpu("b200"), &b, nothing_stated, NULL);
    st_software_apply(r, st_catalog_gpu("mi300x"), &m, nothing_stated, NULL);
    ck_assert_int_eq(a.attention, ST_ATTN_FLASH2);
    ck_assert_int_eq(h.attention, ST_ATTN_CUDNN);
    ck_assert_int_eq(b.attention, ST_ATTN_CUDNN);
    ck_assert_int_eq(m.attention, ST_ATTN_FLASH); /* no row for CDNA3: the GPU's default */
}
END_TEST

Suite *software_suite(void)
{
    Suite *s = suite_create("software");
    TCase *tc = tcase_create("rows");
    tcase_add_test(tc, test_release_takes_the_newest_row_at_or_before_it);
    tcase_add_test(tc, test_what_cannot_be_placed_is_refused);
    tcase_add_test(tc, test_value_splits_into_two_whole_words);
    tcase_add_test(tc, test_rows_are_ordered_sourced_and_in_range);
    tcase_add_test(tc, test_apply_sets_only_what_is_not_stated);
    tcase_add_test(tc, test_attention_follows_the_architecture);
    suite_add_tcase(s, tc);
    return s;
}
