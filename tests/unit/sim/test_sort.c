/* st_sort_unless_sorted: an array out of order comes out as qsort leaves it; one in order is
 * left untouched, without a call to qsort's comparator beyond the check's n - 1. st_sort_doubles:
 * the order qsort gives, every value's bits kept, for small and large arrays of every sign,
 * magnitude and tie. st_select_doubles: the k-th value in its place, the rest on their side. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sort.h"

static int calls;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    calls++;
    return (x > y) - (x < y);
}

START_TEST(test_out_of_order_is_sorted_as_qsort_sorts)
{
    int a[] = {5, 3, 9, 1, 1, 7, 0, 8}, b[] = {5, 3, 9, 1, 1, 7, 0, 8};
    size_t n = sizeof a / sizeof *a;
    st_sort_unless_sorted(a, n, sizeof *a, cmp_int);
    qsort(b, n, sizeof *b, cmp_int);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(a[i], b[i]);
}
END_TEST

START_TEST(test_in_order_costs_one_pass)
{
    int a[] = {0, 1, 1, 2, 3, 5, 8, 13};
    size_t n = sizeof a / sizeof *a;
    calls = 0;
    st_sort_unless_sorted(a, n, sizeof *a, cmp_int);
    ck_assert_int_eq(calls, (int)n - 1);
    ck_assert_int_eq(a[7], 13);
    st_sort_unless_sorted(a, 0, sizeof *a, cmp_int); /* empty and single arrays: nothing */
    st_sort_unless_sorted(a, 1, sizeof *a, cmp_int);
    ck_assert_int_eq(calls, (int)n - 1);
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A value of every kind the sort must order: ties, zeros of both signs, infinities, subnormals,
 * negative and positive values of every exponent. */
static double any_double(uint64_t *x)
{
    static const double special[] = {0.0,       -0.0, INFINITY, -INFINITY, 4.9e-324,
                                     -4.9e-324, 1.0,  -1.0,     1e308,     -1e308};
    uint64_t r = xorshift(x);
    if (r % 4 == 0)
        return special[(r >> 8) % (sizeof special / sizeof *special)];
    if (r % 4 == 1)
        return (double)((r >> 8) % 50) - 25; /* many ties */
    uint64_t bits = xorshift(x);
    double d;
    memcpy(&d, &bits, sizeof d);
    return isnan(d) ? 2.5 : d;
}

START_TEST(test_doubles_sort_as_qsort_sorts)
{
    static const size_t sizes[] = {0, 1, 2, 3, 63, 64, 65, 1000, 70000};
    uint64_t x = 88172645463325252u;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        double *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = any_double(&x);
        st_sort_doubles(a, n);
        qsort(b, n, sizeof *b, cmp_double);
        size_t za = 0, zb = 0; /* negative zeros, counted: qsort may order zeros either way */
        for (size_t i = 0; i < n; i++) {
            if (a[i] == 0 || b[i] == 0) {
                ck_assert(a[i] == 0 && b[i] == 0);
                za += signbit(a[i]) != 0;
                zb += signbit(b[i]) != 0;
                continue;
            }
            ck_assert(memcmp(&a[i], &b[i], sizeof a[i]) == 0);
        }
        ck_assert_uint_eq(za, zb);
        for (size_t i = 1; i < n; i++) /* -0.0 before +0.0 */
            ck_assert(!(a[i - 1] == 0 && a[i] == 0 && !signbit(a[i - 1]) && signbit(a[i])));
        free(a);
        free(b);
    }
}
END_TEST

/* st_select_doubles: v[k] and the values on each side of it, against a sorted copy, on random
 * values with many ties, on sorted, reversed and constant arrays, for several k each. */
START_TEST(test_select_puts_the_kth_value_in_place)
{
    static const size_t sizes[] = {1, 2, 5, 17, 100, 5000};
    uint64_t x = 2463534242u;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int shape = 0; shape < 4; shape++)
            for (int trial = 0; trial < 8; trial++) {
                size_t n = sizes[s], k = (size_t)(xorshift(&x) % n);
                double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
                for (size_t i = 0; i < n; i++)
                    a[i] = shape == 0   ? (double)(xorshift(&x) % 7) /* ties */
                           : shape == 1 ? any_double(&x)
                           : shape == 2 ? (double)i        /* in order */
                                        : (double)(n - i); /* reversed */
                if (shape == 3 && trial % 2)
                    for (size_t i = 0; i < n; i++)
                        a[i] = 4.0; /* all equal */
                memcpy(b, a, n * sizeof *a);
                qsort(b, n, sizeof *b, cmp_double);
                st_select_doubles(a, n, k);
                ck_assert(a[k] == b[k]);
                for (size_t i = 0; i < n; i++)
                    ck_assert(i < k ? a[i] <= a[k] : i > k ? a[i] >= a[k] : 1);
                free(a);
                free(b);
            }
}
END_TEST

/* st_median_doubles: the middle value for odd n, the mean of the middle two for even n (the
 * lower one found among the values selection leaves before n / 2), NaN for none. */
START_TEST(test_median_of_odd_even_and_empty)
{
    double odd[] = {9, 1, 5, 3, 7};
    ck_assert(st_median_doubles(odd, 5) == 5);
    double even[] = {8, 2, 6, 4, 10, 1};
    ck_assert(st_median_doubles(even, 6) == 5); /* (4 + 6) / 2 */
    double ties[] = {3, 3, 1, 3};
    ck_assert(st_median_doubles(ties, 4) == 3);
    double one[] = {2.5};
    ck_assert(st_median_doubles(one, 1) == 2.5);
    ck_assert(isnan(st_median_doubles(one, 0)));
}
END_TEST

Suite *sort_suite(void)
{
    Suite *s = suite_create("sort");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_out_of_order_is_sorted_as_qsort_sorts);
    tcase_add_test(tc, test_in_order_costs_one_pass);
    tcase_add_test(tc, test_doubles_sort_as_qsort_sorts);
    tcase_add_test(tc, test_select_puts_the_kth_value_in_place);
    tcase_add_test(tc, test_median_of_odd_even_and_empty);
    suite_add_tcase(s, tc);
    return s;
}
