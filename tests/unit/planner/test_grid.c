/* The sweep grid (planner/grid.c): value lists, geometric and arithmetic ranges, the numbering
 * of the points (last --set fastest), and every malformed axis refused with its reason. */
#include <check.h>
#include <string.h>

#include "planner/grid.h"

static void values_are(const st_grid_axis *a, const char *const *want, size_t n)
{
    ck_assert_uint_eq(a->n, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(a->values[i], want[i]);
}

START_TEST(test_lists_and_ranges)
{
    st_grid g = {0};
    char why[256];
    ck_assert_int_eq(st_grid_add(&g, "cluster.nodes=256..2048*2", why, sizeof why), 0);
    ck_assert_int_eq(
        st_grid_add(&g, "workloads[pretrain].parallel.tp=1,4..8+2,16", why, sizeof why), 0);
    ck_assert_int_eq(st_grid_add(&g, "x.y=0..1+0.25,100 Gb/s", why, sizeof why), 0);
    static const char *const nodes[] = {"256", "512", "1024", "2048"};
    static const char *const tp[] = {"1", "4", "6", "8", "16"};
    static const char *const xy[] = {"0", "0.25", "0.5", "0.75", "1", "100 Gb/s"};
    values_are(&g.ax[0], nodes, 4);
    values_are(&g.ax[1], tp, 5);
    values_are(&g.ax[2], xy, 6);
    /* a '+' in an exponent is the number's, not the step's */
    ck_assert_int_eq(st_grid_add(&g, "e=1e+1..1e+2+3e+1", why, sizeof why), 0);
    static const char *const e[] = {"10", "40", "70", "100"};
    values_are(&g.ax[3], e, 4);
    ck_assert_uint_eq(g.n_points, 4 * 5 * 6 * 4);
    /* two dots after no number are a value's: a relative path, a dotted name */
    ck_assert_int_eq(st_grid_add(&g, "trace.file=../a.csv,b..c.csv,..", why, sizeof why), 0);
    static const char *const files[] = {"../a.csv", "b..c.csv", ".."};
    values_are(&g.ax[4], files, 3);
    /* strings as written (case counts), numbers of different dimensions apart */
    ck_assert_int_eq(st_grid_add(&g, "n=llama3-8b,Llama3-8b,1 s,1 GB,1", why, sizeof why), 0);
    ck_assert_uint_eq(g.ax[5].n, 5);
    st_grid_free(&g);
}
END_TEST

/* White space around a value is the loader's to drop, so it is the grid's too: ' 2' was a point of
 * its own beside '2', a CSV cell '4 ' and a JSON string. */
START_TEST(test_values_are_trimmed)
{
    st_grid g = {0};
    char why[256];
    ck_assert_int_eq(st_grid_add(&g, "a= 2 ,4\t, 8..16*2 ,100 Gb/s ", why, sizeof why), 0);
    static const char *const a[] = {"2", "4", "8", "16", "100 Gb/s"};
    values_are(&g.ax[0], a, 5);
    st_grid_free(&g);
}
END_TEST

START_TEST(test_range_steps_are_counted_not_summed)
{
    st_grid g = {0};
    char why[256];
    ck_assert_int_eq(st_grid_add(&g, "a=0..1+0.1", why, sizeof why), 0);
    ck_assert_uint_eq(g.ax[0].n, 11);
    ck_assert_str_eq(g.ax[0].values[10], "1");
    ck_assert_str_eq(g.ax[0].values[3], "0.3");
    st_grid_free(&g);
}
END_TEST

START_TEST(test_last_axis_varies_fastest)
{
    st_grid g = {0};
    char why[256];
    st_grid_add(&g, "a=1,2", why, sizeof why);
    st_grid_add(&g, "b=x,y,z", why, sizeof why);
    /* points 0..5: (1,x) (1,y) (1,z) (2,x) (2,y) (2,z) */
    ck_assert_uint_eq(st_grid_value(&g, 4, 0), 1);
    ck_assert_uint_eq(st_grid_value(&g, 4, 1), 1);
    ck_assert_uint_eq(st_grid_value(&g, 2, 0), 0);
    ck_assert_uint_eq(st_grid_value(&g, 2, 1), 2);
    st_grid_free(&g);
}
END_TEST

static void refused(const char *arg, const char *want)
{
    st_grid g = {0};
    char why[256] = "";
    st_grid_add(&g, "taken=1", why, sizeof why);
    ck_assert_int_eq(st_grid_add(&g, arg, why, sizeof why), -1);
    ck_assert_str_eq(why, want);
    ck_assert_uint_eq(g.n_ax, 1);
    st_grid_free(&g);
}

START_TEST(test_malformed_axes_are_refused_with_their_reason)
{
    refused("cluster.nodes", "expected PATH=VALUE,VALUE,..., found no '='");
    refused("cluster..nodes=1", "expected a key at character 9 of the path, found '.'");
    refused("a=1,,2", "an empty value in '1,,2'");
    refused("a=", "an empty value in ''");
    refused("a=8..2*2", "range '8..2*2': expected A..B*FACTOR or A..B+STEP with numbers A <= B");
    refused("a=1..8*1", "range '1..8*1': the factor must be more than 1 and the start more than 0");
    refused("a=0..8*2", "range '0..8*2': the factor must be more than 1 and the start more than 0");
    refused("a=1..8+0", "range '1..8+0': the step must be more than 0");
    refused("a=1..8", "range '1..8': expected A..B*FACTOR or A..B+STEP with numbers A <= B");
    refused("a=1..1e6+1", "more than 10000 values, the most one --set may have");
    /* a range's numbers are the loader's (sim/units.h): what it refuses as a value (hex, NaN,
     * infinity, past a double) is a refused range, not one literal point run as invalid */
    refused("a=0x10..32*2", "range '0x10..32*2': '0x10' is not a plain decimal number, as a "
                            "scenario's numbers are (no hex, NaN or infinity, none past a "
                            "double's range)");
    refused("a=1e400..1e401*2", "range '1e400..1e401*2': '1e400' is not a plain decimal number, "
                                "as a scenario's numbers are (no hex, NaN or infinity, none past "
                                "a double's range)");
    refused("a=nan..8+1", "range 'nan..8+1': 'nan' is not a plain decimal number, as a "
                          "scenario's numbers are (no hex, NaN or infinity, none past a "
                          "double's range)");
    refused("a=1..inf*2", "range '1..inf*2': 'inf' is not a plain decimal number, as a "
                          "scenario's numbers are (no hex, NaN or infinity, none past a "
                          "double's range)");
    refused("taken=2,3", "taken is swept by an earlier --set");
    refused("a=2,3,2", "the value '2' is given twice");
    refused("a=4,1..8*2", "the value '4' is given twice");
    /* a value as the loader reads it: white space dropped, numbers by value, units by value */
    refused("a=2, 2", "the value '2' is given twice");
    refused("a=1.0,1",
            "'1.0' and '1' are the same value given twice: the scenario reads them alike");
    refused("a=1us,1000 ns",
            "'1us' and '1000 ns' are the same value given twice: the scenario reads them alike");
    refused("a=2000,2K", "'2000' and '2K' are the same value given twice: the scenario reads them "
                         "alike");
    refused("a=x, ,y", "an empty value in 'x, ,y'");
    /* what a file's values may not hold (a fuzzing find: ESC reached the CSV), and a key longer
     * than any the scenario has, named as such */
    refused("workloads[0].name=a\x1b[2J", "a control character (U+001B): values are printed to "
                                          "terminals and reports, so they hold none but tab and "
                                          "line breaks");
    refused("workloads[0].name=a\xc2\x9b", "a control character (U+009B): values are printed to "
                                           "terminals and reports, so they hold none but tab "
                                           "and line breaks");
    char key[300];
    memset(key, 'k', 200);
    strcpy(key + 200, "=1");
    refused(key, "the key at character 1 of the path has 200 characters, more than the 127 any "
                 "key of the scenario has");
}
END_TEST

START_TEST(test_grid_size_is_capped)
{
    st_grid g = {0};
    char why[256];
    ck_assert_int_eq(st_grid_add(&g, "a=1..1000+1", why, sizeof why), 0);
    ck_assert_int_eq(st_grid_add(&g, "b=1..1000+1", why, sizeof why), 0);
    ck_assert_int_eq(st_grid_add(&g, "c=1,2", why, sizeof why), -1);
    ck_assert_str_eq(why,
                     "the grid would have 2000000 points, more than the 1000000 a sweep may have");
    st_grid_free(&g);
}
END_TEST

Suite *grid_suite(void)
{
    Suite *s = suite_create("grid");
    TCase *tc = tcase_create("axes");
    tcase_add_test(tc, test_lists_and_ranges);
    tcase_add_test(tc, test_values_are_trimmed);
    tcase_add_test(tc, test_range_steps_are_counted_not_summed);
    tcase_add_test(tc, test_last_axis_varies_fastest);
    tcase_add_test(tc, test_malformed_axes_are_refused_with_their_reason);
    tcase_add_test(tc, test_grid_size_is_capped);
    suite_add_tcase(s, tc);
    return s;
}
