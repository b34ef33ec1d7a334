/* A sweep's journal key (planner/sweep.h): it changes with the build identity, so a row another
 * build computed is never taken for this one's; the identity is a SHA-256 in hex; a failed
 * point's row has the point's values, `error` and the reason. */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/sweep.h"

static const char *const quickstart = ST_SOURCE_DIR "/scenarios/examples/quickstart.yaml";

/* One figure column per training job, whose cell is always "7". */
static void seven(const void *ctx, size_t k, st_sweep_at *at, size_t i, char *buf, size_t len)
{
    (void)ctx, (void)k, (void)at, (void)i;
    snprintf(buf, len, "7");
}
static const char *const fig_names[] = {"seven"};
static const st_sweep_figs figs = {.n = 1, .names = fig_names, .cell = seven};

START_TEST(test_key_changes_with_the_build)
{
    st_grid g = {0};
    char why[256], k0[17], k1[17], other[17];
    ck_assert_int_eq(st_grid_add(&g, "cluster.nodes=1,2", why, sizeof why), 0);
    st_sweep sw;
    st_diag d = {0};
    ck_assert_int_eq(st_sweep_open(&sw, quickstart, &g, &figs, NULL, &d), 0);
    st_sweep_key(&sw, 0, k0);
    st_sweep_key(&sw, 1, k1);
    ck_assert_str_ne(k0, k1);
    const char *build = sw.build;
    sw.build = "0.1.0"; /* another build, whatever the version string */
    st_sweep_key(&sw, 0, other);
    ck_assert_str_ne(k0, other);
    sw.build = build;
    st_sweep_key(&sw, 0, other);
    ck_assert_str_eq(k0, other);
    st_sweep_close(&sw);
    st_grid_free(&g);
}
END_TEST

START_TEST(test_build_identity_is_a_sha256)
{
    const char *id = st_sweep_build_id();
    ck_assert_uint_eq(strlen(id), 64);
    for (const char *c = id; *c; c++)
        ck_assert(isxdigit((unsigned char)*c) && !isupper((unsigned char)*c));
}
END_TEST

START_TEST(test_failed_point_row)
{
    st_grid g = {0};
    char why[256];
    ck_assert_int_eq(st_grid_add(&g, "cluster.nodes=1,2", why, sizeof why), 0);
    st_sweep sw;
    st_diag d = {0};
    ck_assert_int_eq(st_sweep_open(&sw, quickstart, &g, &figs, NULL, &d), 0);
    char **cells = calloc(sw.n_cols, sizeof *cells);
    st_sweep_point_failed(&sw, 1, "killed by signal 9 (SIGKILL)", cells);
    ck_assert_str_eq(cells[0], "2");
    ck_assert_str_eq(cells[1], ST_SWEEP_ERROR);
    ck_assert_str_eq(cells[2], "");
    ck_assert_str_eq(cells[sw.n_cols - 1], "killed by signal 9 (SIGKILL)");
    for (size_t c = 0; c < sw.n_cols; c++)
        free(cells[c]);
    free(cells);
    st_sweep_close(&sw);
    st_grid_free(&g);
}
END_TEST

Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_test(tc, test_key_changes_with_the_build);
    tcase_add_test(tc, test_build_identity_is_a_sha256);
    tcase_add_test(tc, test_failed_point_row);
    suite_add_tcase(s, tc);
    return s;
}
