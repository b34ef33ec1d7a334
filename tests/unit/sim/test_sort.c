/* st_sort_unless_sorted: an array out of order comes out as qsort leaves it; one in order is
 * left untouched, without a call to qsort's comparator beyond the check's n - 1. */
#include <check.h>
#include <stdlib.h>

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

Suite *sort_suite(void)
{
    Suite *s = suite_create("sort");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_out_of_order_is_sorted_as_qsort_sorts);
    tcase_add_test(tc, test_in_order_costs_one_pass);
    suite_add_tcase(s, tc);
    return s;
}
