/* The openb node and pod lists (scenarios/openb.c) on a hand-written fixture in the trace's
 * format (tests/traces/openb: our own rows, the trace's licence keeps its data out): row counts,
 * units, CRLF, GPU-model masks, and a malformed row located FILE:LINE:COL. */
#include <check.h>
#include <string.h>

#include "scenarios/openb.h"

START_TEST(test_fixture_loads_with_its_units)
{
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(ST_SOURCE_DIR "/tests/traces/openb", NULL, NULL, &o, &d), 0);
    ck_assert_uint_eq(o.n_nodes, 4);
    ck_assert_uint_eq(o.n_pods, 5); /* CRLF rows */
    ck_assert_int_eq(o.nodes[2].cpu_milli, 96000);
    ck_assert_int_eq(o.nodes[2].mem_mib, 393216);
    ck_assert_int_eq(o.nodes[2].gpus, 8);
    ck_assert_str_eq(o.models[o.nodes[2].model], "V100M32");
    ck_assert_int_eq(o.nodes[3].gpus, 0);
    ck_assert_int_eq(o.nodes[3].model, -1);
    ck_assert_int_eq(o.pods[0].gpu_milli, 500);
    ck_assert_uint_eq(o.pods[0].models, 0);
    ck_assert_uint_eq(o.pods[1].models, 1u << o.nodes[0].model); /* T4 */
    ck_assert_uint_eq(o.n_models, 3); /* T4, V100M32, and the A10 only a pod names */
    ck_assert_uint_eq(o.pods[3].models, (1u << 1) | (1u << 2));
    ck_assert_int_eq(o.pods[3].gpus, 8);
    ck_assert_int_eq(o.pods[4].gpus, 0);
    ck_assert_int_eq(o.pods[4].gpu_milli, 0);
    st_openb_free(&o);
}
END_TEST

START_TEST(test_malformed_row_is_located)
{
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(ST_SOURCE_DIR "/tests/traces/openb-bad", NULL, NULL, &o, &d),
                     -1);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].loc.file, "openb_pod_list_default.csv"));
    ck_assert_uint_eq(d.items[0].loc.line, 3);
    ck_assert_uint_eq(d.items[0].loc.col, 19);
    ck_assert_str_eq(d.items[0].msg,
                     "malformed row: num_gpu 'two' is not a whole number from 0 to 8");
    st_openb_free(&o);
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(st_openb_load(ST_SOURCE_DIR "/tests/traces/none", NULL, NULL, &o, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "cannot read"));
    st_openb_free(&o);
}
END_TEST

Suite *openb_suite(void)
{
    Suite *s = suite_create("openb");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture_loads_with_its_units);
    tcase_add_test(tc, test_malformed_row_is_located);
    suite_add_tcase(s, tc);
    return s;
}
