/* Allocation (sim/xalloc.h): st_xrealloc_huge keeps an array's contents as it grows from plain
 * pages onto huge ones and back, and a huge array is aligned to its 2 MiB pages. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/xalloc.h"

START_TEST(test_a_huge_array_keeps_its_contents_as_it_grows_and_shrinks)
{
    /* 64 KiB (plain), 4 MiB and 9 MiB (huge), back to 64 KiB: each step keeps what it held. */
    const size_t sizes[] = {(size_t)64 << 10, (size_t)4 << 20, (size_t)9 << 20, (size_t)64 << 10};
    uint32_t *a = NULL;
    size_t n = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t m = sizes[s] / sizeof *a;
        a = st_xrealloc_huge(a, n * sizeof *a, m * sizeof *a);
        size_t wrong = 0; /* one assertion, not a million: Check marks each one with a write */
        for (size_t i = 0; i < (n < m ? n : m); i++)
            wrong += a[i] != (uint32_t)(i * 2654435761u);
        ck_assert_uint_eq(wrong, 0);
        for (size_t i = n; i < m; i++)
            a[i] = (uint32_t)(i * 2654435761u);
        if (sizes[s] >= (size_t)1 << 20)
            ck_assert_uint_eq((uintptr_t)a % ((uintptr_t)2 << 20), 0);
        n = m;
    }
    free(a);
    free(st_xmalloc_huge(0)); /* plain, and freed as any other */
}
END_TEST

Suite *xalloc_suite(void)
{
    Suite *s = suite_create("xalloc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_a_huge_array_keeps_its_contents_as_it_grows_and_shrinks);
    suite_add_tcase(s, tc);
    return s;
}
