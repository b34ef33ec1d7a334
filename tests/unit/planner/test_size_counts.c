/* The sizes of the sizing search (planner/size_counts.c): whole units that some plan splits,
 * not powers of two, tried by doubling then bisection, which finds the smallest that meets in
 * a number of probes that grows with the logarithm of the range. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/size_counts.h"
#include "scenarios/scenario.h"

static st_scn *load_405b(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/scenarios/examples/llama3-405b-16k.yaml", ST_SOURCE_DIR);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(path, &s, &d), 0);
    return s;
}

/* Llama 3 405B (126 layers, 2,048 sequences a step) on 8-GPU nodes: pp may divide the layers
 * (7, 9, 14, 18, 21, 63 ...), so sizes between powers of two split, as 14,336 GPUs (tp 8, pp
 * 14, dp 128) do; every size is a whole unit, ascending, once; none is past the largest split
 * times the batch. */
START_TEST(test_sizes_between_powers_of_two)
{
    st_scn *s = load_405b();
    const st_cluster_cfg *c = st_scn_cluster(s);
    const st_workload_cfg *w = st_scn_workload(s, 0);
    int64_t *n = NULL;
    size_t k = st__size_candidates(c, w, 1, INT64_MAX, &n);
    int between = 0, has1792 = 0;
    for (size_t i = 0; i < k; i++) {
        ck_assert(i == 0 || n[i] > n[i - 1]);
        between += (n[i] & (n[i] - 1)) != 0;
        has1792 |= n[i] == 1792;
        ck_assert_int_le(n[i] * 8, 8 * 126 * 2048);
    }
    ck_assert(between > 0 && has1792);
    free(n);
    /* units of 32 nodes (a DGX SuperPOD scalable unit) and a budget of 20,000 GPUs */
    k = st__size_candidates(c, w, 32, 20000 / (8 * 32), &n);
    ck_assert_uint_gt(k, 0);
    for (size_t i = 0; i < k; i++) {
        ck_assert_int_eq(n[i] % 32, 0);
        ck_assert_int_le(n[i] * 8, 20000);
    }
    ck_assert_int_eq(n[k - 1], 2304); /* 18,432 GPUs (tp 8, pp 9, dp 256): the largest within */
    free(n);
    st_scn_free(s);
}
END_TEST

/* The candidates 1, 2, ..., 4000 nodes. */
static const int64_t *one_to_4000(void)
{
    static int64_t nodes[4000];
    for (int i = 0; i < 4000; i++)
        nodes[i] = i + 1;
    return nodes;
}

/* A probe that meets from size `from` on, and records what it was asked. */
typedef struct fake {
    int64_t from;
    const int64_t *nodes;
    double gain; /* the time to train falls by this share a doubling */
    int64_t over_from;
    int64_t cheapest; /* the size whose plans cost least (0: the smallest that meets) */
    int asked[4096];
} fake;

static int probe(void *ctx, size_t i, st__size_probe *p)
{
    fake *f = ctx;
    f->asked[i]++;
    p->over = f->over_from > 0 && f->nodes[i] >= f->over_from;
    p->meets = f->nodes[i] >= f->from && !p->over; /* over a budget: not feasible */
    p->best_train_s = 1e6 * pow(1 - f->gain, log2((double)f->nodes[i]));
    /* the least cost of what meets: falling to the size `cheapest`, rising after it */
    double n = (double)f->nodes[i], c = f->cheapest > 0 ? (double)f->cheapest : 1;
    p->best_feasible = p->meets ? fabs(n - c) + 1 : INFINITY;
    return 0;
}

/* Sizes 1..4000: the smallest that meets, whatever it is, in under 2 log2(4000) + 2 probes,
 * each size probed once at most. */
START_TEST(test_bisection_finds_the_smallest)
{
    const int64_t *nodes = one_to_4000();
    const int64_t from[] = {1, 2, 3, 777, 1024, 1025, 2049, 3999, 4000};
    for (size_t t = 0; t < sizeof from / sizeof *from; t++) {
        fake *f = calloc(1, sizeof *f);
        f->from = from[t];
        f->nodes = nodes;
        f->gain = 0.5;
        int64_t probed = 0;
        ck_assert_int_eq(st__size_bisect(4000, nodes, probe, f, &probed), 0);
        ck_assert_int_eq(f->asked[from[t] - 1], 1); /* the smallest that meets was probed */
        for (int64_t i = 0; i < from[t] - 1; i++)
            ck_assert_int_le(f->asked[i], 1);
        ck_assert_int_le(probed, 2 * 12 + 2);
        int64_t meets_probed = 0; /* and it is the only size at or above it needed besides the
                                     doubling's */
        for (int i = 0; i < 4000; i++)
            meets_probed += f->asked[i] && nodes[i] >= from[t];
        ck_assert_int_le(meets_probed, 13);
        free(f);
    }
}
END_TEST

/* A power budget the doubling overshoots: sizes from 1,500 meet the deadline, sizes from 1,700
 * break the budget. The doubling ends on 2,048 (over), 1,024 too small: the bisection between
 * them finds 1,500, the only window that meets both. */
START_TEST(test_bisection_below_a_budget)
{
    const int64_t *nodes = one_to_4000();
    fake *f = calloc(1, sizeof *f);
    f->from = 1500;
    f->over_from = 1700;
    f->nodes = nodes;
    f->gain = 0.5;
    int64_t probed = 0;
    ck_assert_int_eq(st__size_bisect(4000, nodes, probe, f, &probed), 0);
    ck_assert_int_eq(f->asked[1500 - 1], 1);
    ck_assert_int_eq(f->asked[1499 - 1], 1); /* the size below it was tried and missed */
    ck_assert_int_le(probed, 12 + 11);
    free(f);
}
END_TEST

/* A larger size whose plans split better can cost less than the smallest that meets: from the
 * first size the doubling found to meet, the search doubles on while the least cost falls, so
 * it reaches the cheapest size 1,000 (cost falling to it) and stops one doubling past it. */
START_TEST(test_doubling_on_while_cheaper)
{
    const int64_t *nodes = one_to_4000();
    fake *f = calloc(1, sizeof *f);
    f->from = 100;
    f->nodes = nodes;
    f->gain = 0.5;
    f->cheapest = 1000;
    int64_t probed = 0;
    ck_assert_int_eq(st__size_bisect(4000, nodes, probe, f, &probed), 0);
    ck_assert_int_eq(f->asked[100 - 1], 1);                      /* the smallest that meets */
    ck_assert_int_eq(f->asked[512 - 1] + f->asked[1024 - 1], 2); /* 128 met; 256, 512, 1024 */
    ck_assert_int_eq(f->asked[2048 - 1], 1); /* dearer than 1,024: the last probed */
    ck_assert_int_eq(f->asked[4000 - 1], 0);
    free(f);
}
END_TEST

/* The doubling stops where no larger size can help: a doubling that gains under 5% of the time
 * to train, or a growing budget broken; and nothing meets then. */
START_TEST(test_doubling_stops_when_larger_cannot_help)
{
    const int64_t *nodes = one_to_4000();
    fake *f = calloc(1, sizeof *f);
    f->from = INT64_MAX;
    f->nodes = nodes;
    f->gain = 0.04; /* under ST__SIZE_GAIN */
    int64_t probed = 0;
    ck_assert_int_eq(st__size_bisect(4000, nodes, probe, f, &probed), 0);
    ck_assert_int_eq(probed, 2); /* 1 node, then 2: gained 4% */
    memset(f->asked, 0, sizeof f->asked);
    f->gain = 0.5;
    f->over_from = 16;
    probed = 0;
    ck_assert_int_eq(st__size_bisect(4000, nodes, probe, f, &probed), 0);
    ck_assert_int_eq(probed, 8); /* 1, 2, 4, 8, 16 breaks the budget, then 12, 10 and 11 */
    for (int i = 16; i < 4000; i++)
        ck_assert_int_eq(f->asked[i], 0); /* nothing past 16 */
    ck_assert_int_eq(f->asked[31], 0);
    free(f);
}
END_TEST

Suite *size_counts_suite(void)
{
    Suite *s = suite_create("size_counts");
    TCase *tc = tcase_create("counts");
    tcase_add_test(tc, test_sizes_between_powers_of_two);
    tcase_add_test(tc, test_bisection_finds_the_smallest);
    tcase_add_test(tc, test_doubling_stops_when_larger_cannot_help);
    tcase_add_test(tc, test_doubling_on_while_cheaper);
    tcase_add_test(tc, test_bisection_below_a_budget);
    suite_add_tcase(s, tc);
    return s;
}
