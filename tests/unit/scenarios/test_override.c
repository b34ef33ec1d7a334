/* --set overrides (scenarios/override.c): keys by dotted path, list entries by name and by
 * index, keys the file leaves out, aliases left alone, and every wrong path a located error
 * with a suggestion. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/override.h"

static st_scn *load(const st_scn_set *sets, size_t n, st_diag *d, int want_ok)
{
    /* Both workloads share one parallel mapping through an alias. */
    static const char text[] =
        "version: 1\n"
        "cluster:\n"
        "  gpu: h100-sxm\n"
        "  nodes: 4\n"
        "workloads:\n"
        "  - name: pretrain\n"
        "    model: llama3-8b\n"
        "    seq_len: 4096\n"
        "    global_batch: 64\n"
        "    gpus: 16\n"
        "    parallel: &par { tp: 2, pp: 1, dp: 8, zero: 1, microbatch: 1 }\n"
        "    steps: 10\n"
        "  - name: tune\n"
        "    model: llama3-8b\n"
        "    seq_len: 4096\n"
        "    global_batch: 64\n"
        "    gpus: 16\n"
        "    parallel: *par\n"
        "    steps: 10\n";
    st_scn *s = NULL;
    memset(d, 0, sizeof *d);
    int rc = st_scn_load_buffer_set("t.yaml", text, strlen(text), sets, n, &s, d);
    if (want_ok)
        ck_assert_msg(rc == 0, "load failed: %s", d->n ? d->items[0].msg : "?");
    else
        ck_assert_msg(rc != 0, "load succeeded");
    return s;
}

static void first_error(const st_diag *d, const char *want)
{
    char line[512];
    ck_assert_int_ge(d->n, 1);
    st_err_format(&d->items[0], line, sizeof line);
    ck_assert_str_eq(line, want);
}

START_TEST(test_key_by_dotted_path)
{
    st_scn_set set = {"cluster.nodes", "8", "--set cluster.nodes=8", NULL};
    st_diag d;
    st_scn *s = load(&set, 1, &d, 1);
    ck_assert_int_eq(st_scn_cluster(s)->nodes, 8);
    st_scn_free(s);
}
END_TEST

START_TEST(test_entry_by_name_leaves_the_alias_elsewhere_alone)
{
    st_scn_set set = {"workloads[tune].parallel.tp", "4", "--set workloads[tune].parallel.tp=4",
                      NULL};
    st_scn_set dp = {"workloads[tune].parallel.dp", "4", "--set workloads[tune].parallel.dp=4",
                     NULL};
    st_scn_set both[2] = {set, dp};
    st_diag d;
    st_scn *s = load(both, 2, &d, 1);
    ck_assert_int_eq(st_scn_workload(s, 1)->parallel.tp, 4);
    ck_assert_int_eq(st_scn_workload(s, 1)->parallel.dp, 4);
    ck_assert_int_eq(st_scn_workload(s, 0)->parallel.tp, 2); /* the anchor's first user */
    st_scn_free(s);
}
END_TEST

START_TEST(test_entry_by_index)
{
    st_scn_set set = {"workloads[0].steps", "25", "--set workloads[0].steps=25", NULL};
    st_diag d;
    st_scn *s = load(&set, 1, &d, 1);
    ck_assert_int_eq(st_scn_workload(s, 0)->steps, 25);
    ck_assert_int_eq(st_scn_workload(s, 1)->steps, 10);
    st_scn_free(s);
}
END_TEST

START_TEST(test_key_the_file_leaves_out_is_added)
{
    st_scn_set set = {"cluster.fabric.oversubscription", "4",
                      "--set cluster.fabric.oversubscription=4", NULL};
    st_diag d;
    st_scn *s = load(&set, 1, &d, 1);
    ck_assert_double_eq(st_scn_cluster(s)->fabric.oversub[0], 4);
    st_scn_free(s);
}
END_TEST

START_TEST(test_value_is_read_by_the_loader_with_its_units_and_ranges)
{
    st_scn_set set = {"cluster.nodes", "-3", "--set cluster.nodes=-3", NULL};
    st_diag d;
    load(&set, 1, &d, 0);
    ck_assert_str_eq(d.items[0].loc.file, set.label);
    ck_assert_int_eq(d.items[0].loc.line, 0);
}
END_TEST

START_TEST(test_unknown_key_is_located_with_a_suggestion)
{
    st_scn_set set = {"cluster.fabrc.oversubscription", "2",
                      "--set cluster.fabrc.oversubscription=2", NULL};
    st_diag d;
    load(&set, 1, &d, 0);
    first_error(&d, "--set cluster.fabrc.oversubscription=2: error: unknown key 'fabrc' in "
                    "cluster; did you mean 'fabric'?");
}
END_TEST

START_TEST(test_path_errors_point_at_the_path_value_errors_at_the_value)
{
    st_scn_set key = {"cluster.nodez", "2", "--set cluster.nodez=2", "--set cluster.nodez"};
    st_diag d;
    load(&key, 1, &d, 0);
    first_error(&d, "--set cluster.nodez: error: unknown key 'nodez' in cluster; did you mean "
                    "'nodes'?");
    st_scn_set val = {"cluster.nodes", "two", "--set cluster.nodes=two", "--set cluster.nodes"};
    load(&val, 1, &d, 0);
    ck_assert_str_eq(d.items[0].loc.file, "--set cluster.nodes=two");
}
END_TEST

START_TEST(test_unknown_entry_name_suggests_the_names)
{
    st_scn_set set = {"workloads[pretrian].parallel.tp", "4", "--set x", NULL};
    st_diag d;
    load(&set, 1, &d, 0);
    first_error(&d, "--set x: error: workloads[pretrian]: the list has no entry named "
                    "'pretrian'; did you mean 'pretrain'?");
}
END_TEST

/* The canonical form of path in a two-entry list (malloc'd, as st_scn_set_canon). */
static char *canon(const char *path)
{
    static const char text[] = "workloads: [{name: a}, {name: b}]\n";
    st_ytree *t = NULL;
    st_err err;
    ck_assert_int_eq(st_ytree_parse("t.yaml", text, strlen(text), &t, &err), 0);
    char *out = st_scn_set_canon(st_ytree_root(t), path);
    st_ytree_free(t);
    return out;
}

/* An index with leading zeros is the entry its value names, for the load as for the canonical
 * form sweep compares keys by: the load refused `[0000000001]` (ten digits) as "no such entry"
 * while the canonical form called it `[1]`. Ten digits after the zeros are past any list. */
START_TEST(test_leading_zeros_name_one_entry_everywhere)
{
    st_scn_set set = {"workloads[0000000001].steps", "25", "--set x", NULL};
    st_diag d;
    st_scn *s = load(&set, 1, &d, 1);
    ck_assert_int_eq(st_scn_workload(s, 0)->steps, 10);
    ck_assert_int_eq(st_scn_workload(s, 1)->steps, 25);
    st_scn_free(s);
    char *c = canon("workloads[0000000001].steps");
    ck_assert_str_eq(c, "workloads[1].steps");
    free(c);
    st_scn_set far = {"workloads[1000000000].steps", "25", "--set y", NULL};
    load(&far, 1, &d, 0);
    first_error(&d, "--set y: error: workloads[1000000000]: no such entry; the list has 2 entries, "
                    "[0] to [1]");
    c = canon("workloads[0001000000000].steps"); /* unresolved: kept, less its zeros */
    ck_assert_str_eq(c, "workloads[1000000000].steps");
    free(c);
}
END_TEST

START_TEST(test_index_past_the_end_says_how_many)
{
    st_scn_set set = {"workloads[2].steps", "4", "--set y", NULL};
    st_diag d;
    load(&set, 1, &d, 0);
    first_error(&d, "--set y: error: workloads[2]: no such entry; the list has 2 entries, [0] "
                    "to [1]");
}
END_TEST

START_TEST(test_below_a_value_or_selecting_in_a_mapping_is_refused)
{
    st_scn_set set = {"cluster.nodes.x", "4", "--set z", NULL};
    st_diag d;
    load(&set, 1, &d, 0);
    first_error(&d, "--set z: error: cluster.nodes is a value, not a mapping with keys");
    st_scn_set sel = {"cluster[0].nodes", "4", "--set z", NULL};
    load(&sel, 1, &d, 0);
    first_error(&d, "--set z: error: cluster is a mapping, not a list: [...] selects a list's "
                    "entry");
}
END_TEST

START_TEST(test_path_syntax)
{
    char why[256];
    ck_assert_int_eq(st_scn_set_check("workloads[pretrain].parallel.tp", why, sizeof why), 0);
    ck_assert_int_eq(st_scn_set_check("workloads[0][1].a_b-c", why, sizeof why), 0);
    ck_assert_int_ne(st_scn_set_check("cluster..nodes", why, sizeof why), 0);
    ck_assert_str_eq(why, "expected a key at character 9 of the path, found '.'");
    ck_assert_int_ne(st_scn_set_check("workloads[].x", why, sizeof why), 0);
    ck_assert_int_ne(st_scn_set_check("workloads[a", why, sizeof why), 0);
    ck_assert_int_ne(st_scn_set_check("cluster.", why, sizeof why), 0);
    ck_assert_str_eq(why, "expected a key at character 9 of the path, found its end");
    ck_assert_int_ne(st_scn_set_check("a b", why, sizeof why), 0);
    ck_assert_str_eq(why, "expected '.' or '[' at character 2 of the path, found ' '");
}
END_TEST

Suite *override_suite(void)
{
    Suite *s = suite_create("override");
    TCase *tc = tcase_create("paths");
    tcase_add_test(tc, test_key_by_dotted_path);
    tcase_add_test(tc, test_entry_by_name_leaves_the_alias_elsewhere_alone);
    tcase_add_test(tc, test_entry_by_index);
    tcase_add_test(tc, test_key_the_file_leaves_out_is_added);
    tcase_add_test(tc, test_value_is_read_by_the_loader_with_its_units_and_ranges);
    tcase_add_test(tc, test_unknown_key_is_located_with_a_suggestion);
    tcase_add_test(tc, test_path_errors_point_at_the_path_value_errors_at_the_value);
    tcase_add_test(tc, test_unknown_entry_name_suggests_the_names);
    tcase_add_test(tc, test_index_past_the_end_says_how_many);
    tcase_add_test(tc, test_leading_zeros_name_one_entry_everywhere);
    tcase_add_test(tc, test_below_a_value_or_selecting_in_a_mapping_is_refused);
    tcase_add_test(tc, test_path_syntax);
    suite_add_tcase(s, tc);
    return s;
}
