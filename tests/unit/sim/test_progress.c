/* The progress hook: reports reach the installed reporter, in order, and nowhere once it is
 * removed; installing returns the previous reporter. */
#include <check.h>
#include <string.h>

#include "sim/progress.h"

typedef struct seen {
    int n;
    int64_t done[8], total[8];
    char what[32];
} seen;

static void record(void *ctx, const char *what, int64_t done, int64_t total)
{
    seen *s = ctx;
    ck_assert_int_lt(s->n, 8);
    s->done[s->n] = done;
    s->total[s->n++] = total;
    strncpy(s->what, what, sizeof s->what - 1);
}

START_TEST(test_reports_reach_the_installed_reporter_only)
{
    seen s = {0};
    st_progress("nobody listens", 1, 2); /* no reporter: nothing happens */
    ck_assert(st_progress_set(record, &s) == NULL);
    st_progress("loop", 1, 3);
    st_progress("loop", 3, 3);
    ck_assert_int_eq(s.n, 2);
    ck_assert_int_eq(s.done[0], 1);
    ck_assert_int_eq(s.done[1], 3);
    ck_assert_int_eq(s.total[1], 3);
    ck_assert_str_eq(s.what, "loop");
    ck_assert(st_progress_set(NULL, NULL) == record);
    st_progress("loop", 2, 3);
    ck_assert_int_eq(s.n, 2);
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_reports_reach_the_installed_reporter_only);
    suite_add_tcase(s, tc);
    return s;
}
