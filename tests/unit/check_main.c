/* Runs the Check suites: all of them, or the one named on the command line (ctest runs one
 * suite per entry so a failure names its module). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#define ST_SUITE(n) Suite *n##_suite(void);
#include "suites.inc"
#undef ST_SUITE

static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
#define ST_SUITE(n) {#n, n##_suite},
#include "suites.inc"
#undef ST_SUITE
};

int main(int argc, char **argv)
{
    SRunner *sr = NULL;
    size_t n = sizeof suites / sizeof suites[0];
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], suites[i].name) != 0)
            continue;
        if (!sr)
            sr = srunner_create(suites[i].make());
        else
            srunner_add_suite(sr, suites[i].make());
    }
    if (!sr) {
        fprintf(stderr, "check_main: no suite named '%s'\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
