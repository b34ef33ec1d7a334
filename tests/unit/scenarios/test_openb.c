/* The openb node and pod lists (scenarios/openb.c) on a hand-written fixture in the trace's
 * format (tests/traces/openb: our own rows, the trace's licence keeps its data out): row counts,
 * units, CRLF, GPU-model masks, a malformed row located FILE:LINE:COL, and the rules every CSV
 * input shares (scenarios/csv_in.h): no repeated column, no NUL, no hex, printable names, and a
 * FIFO refused without blocking. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A folder holding the fixture's node list and the given pod list (bytes, len). */
static void pods_dir(char *dir, size_t n, const char *pods, size_t len)
{
    snprintf(dir, n, "/tmp/strata-openb-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/" ST_OPENB_NODES, dir);
    FILE *f = fopen(path, "wb");
    fputs("sn,cpu_milli,memory_mib,gpu,model\nnode-a,32000,131072,1,T4\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/" ST_OPENB_PODS, dir);
    f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(pods, 1, len, f), len);
    fclose(f);
}

static void remove_dir(const char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "%s/" ST_OPENB_NODES, dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/" ST_OPENB_PODS, dir);
    unlink(path);
    rmdir(dir);
}

/* The first error reading a pod list of these bytes. */
static void pods_refused(const char *pods, size_t len, unsigned line, unsigned col, const char *msg)
{
    char dir[64];
    pods_dir(dir, sizeof dir, pods, len);
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(dir, NULL, NULL, &o, &d), -1);
    ck_assert_uint_eq(d.items[0].loc.line, line);
    ck_assert_uint_eq(d.items[0].loc.col, col);
    ck_assert_str_eq(d.items[0].msg, msg);
    st_openb_free(&o);
    remove_dir(dir);
}

#define HEAD "cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"

START_TEST(test_csv_rules_hold_for_openb)
{
    static const char dup[] = "cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,num_gpu\n";
    pods_refused(dup, sizeof dup - 1, 1, 49,
                 "the header row names column 'num_gpu' twice (fields 3 and 6): which one to read "
                 "is unclear");
    static const char hex[] = HEAD "4000,8192,0x1,1000,\n";
    pods_refused(hex, sizeof hex - 1, 2, 11,
                 "malformed row: num_gpu '0x1' is not a whole number from 0 to 8");
    static const char nul[] = HEAD "4000,8192,1,1000,T4\0\n";
    pods_refused(nul, sizeof nul - 1, 2, 20, "malformed row: a NUL byte");
    static const char latin1[] = HEAD "4000,8192,1,1000,T4|A\xe9\n";
    pods_refused(latin1, sizeof latin1 - 1, 2, 22,
                 "malformed row: a GPU model's name holds a byte that is not UTF-8 (0xE9); names "
                 "are printed, so they are UTF-8 text without control characters");
    /* a missing column is said as a trace's header says it, at the cause: it was "the header
     * row has no column 'num_gpu'" at 1:1 of a header naming 'Num_gpu' */
    static const char cased[] = "cpu_milli,memory_mib,Num_gpu,gpu_milli,gpu_spec\n";
    char dir[64];
    pods_dir(dir, sizeof dir, cased, sizeof cased - 1);
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(dir, NULL, NULL, &o, &d), -1);
    ck_assert_uint_eq(d.items[0].loc.line, 1);
    ck_assert_uint_eq(d.items[0].loc.col, 22);
    ck_assert_msg(strstr(d.items[0].msg, ST_OPENB_PODS "' has no column 'num_gpu' in its header "
                                                       "row; it has 'Num_gpu': column names are "
                                                       "case-sensitive"),
                  "%s", d.items[0].msg);
    st_openb_free(&o);
    remove_dir(dir);
}
END_TEST

/* An empty pod list (or blank lines only) is said to be empty, not to lack a column. */
START_TEST(test_empty_pod_list_is_said_to_be_empty)
{
    static const char *const empty[] = {"", "\n\n"};
    for (size_t i = 0; i < 2; i++) {
        char dir[64];
        pods_dir(dir, sizeof dir, empty[i], strlen(empty[i]));
        st_openb o;
        st_diag d = {0};
        ck_assert_int_eq(st_openb_load(dir, NULL, NULL, &o, &d), -1);
        ck_assert_int_eq(d.n, 1);
        ck_assert_msg(strstr(d.items[0].msg, ST_OPENB_PODS "' is empty: expected a header row "
                                                           "naming its columns (cpu_milli,"),
                      "%s", d.items[0].msg);
        st_openb_free(&o);
        remove_dir(dir);
    }
}
END_TEST

#define NODES "sn,cpu_milli,memory_mib,gpu,model\n"

/* The first error reading these node and pod lists: at the file `file`, no line, saying msg. */
static void lists_refused(const char *nodes, const char *pods, const char *file, const char *msg)
{
    char dir[64], path[128];
    pods_dir(dir, sizeof dir, pods, strlen(pods));
    snprintf(path, sizeof path, "%s/" ST_OPENB_NODES, dir);
    FILE *f = fopen(path, "wb");
    fputs(nodes, f);
    fclose(f);
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(dir, NULL, NULL, &o, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.items[0].loc.file, file));
    ck_assert_uint_eq(d.items[0].loc.line, 0);
    ck_assert_str_eq(d.items[0].msg, msg);
    st_openb_free(&o);
    remove_dir(dir);
}

/* Lists with no GPU to place on, or no pod asking for one: an error at the file as the load
 * reads them (the placement said "the nodes have no GPU" of no file, after validate's other
 * rows; pods of no GPU read 0% for every ordering, and each claim "pass"). */
START_TEST(test_lists_without_a_gpu_are_refused_at_their_file)
{
    static const char pods[] = HEAD "4000,8192,1,1000,T4\n";
    lists_refused(NODES, pods, ST_OPENB_NODES,
                  "the node list has no row after its header: expected one row per node, at "
                  "least one with a GPU");
    lists_refused(NODES "node-a,32000,131072,0,\nnode-b,32000,131072,0,\n", pods, ST_OPENB_NODES,
                  "the node list's 2 nodes have no GPU (gpu is 0 in every row): the placement "
                  "needs at least one");
    static const char nodes[] = NODES "node-a,32000,131072,1,T4\n";
    lists_refused(nodes, HEAD, ST_OPENB_PODS,
                  "the pod list has no row after its header: expected one row per pod, at least "
                  "one asking for a GPU");
    lists_refused(nodes, HEAD "4000,8192,0,0,\n", ST_OPENB_PODS,
                  "the pod list's 1 pod asks for no GPU (num_gpu is 0 in every row): the "
                  "placement allocates GPUs");
}
END_TEST

/* A FIFO as the pod list: refused at once (the open does not wait for a writer). */
START_TEST(test_fifo_pod_list_is_refused_without_blocking)
{
    char dir[64], path[128];
    pods_dir(dir, sizeof dir, "", 0);
    snprintf(path, sizeof path, "%s/" ST_OPENB_PODS, dir);
    unlink(path);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    st_openb o;
    st_diag d = {0};
    ck_assert_int_eq(st_openb_load(dir, NULL, NULL, &o, &d), -1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "is not a regular file (a FIFO"));
    st_openb_free(&o);
    remove_dir(dir);
}
END_TEST

Suite *openb_suite(void)
{
    Suite *s = suite_create("openb");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fixture_loads_with_its_units);
    tcase_add_test(tc, test_malformed_row_is_located);
    tcase_add_test(tc, test_csv_rules_hold_for_openb);
    tcase_add_test(tc, test_fifo_pod_list_is_refused_without_blocking);
    tcase_add_test(tc, test_empty_pod_list_is_said_to_be_empty);
    tcase_add_test(tc, test_lists_without_a_gpu_are_refused_at_their_file);
    suite_add_tcase(s, tc);
    return s;
}
