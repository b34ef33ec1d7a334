/* Trace import (scenarios/trace.c): row counts and units of the Philly and Muri traces in the
 * repository, CRLF, the generic CSV's columns in any order with units, malformed rows reported
 * as FILE:LINE and skipped or refused, and a missing column. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "scenarios/scenario.h"

static st_scn *with_trace(const char *file, const char *format, const char *extra, st_diag *d)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 8 }\n"
             "trace: { file: %s/%s, format: %s%s }\n",
             ST_SOURCE_DIR, file, format, extra);
    st_scn *s = NULL;
    memset(d, 0, sizeof *d);
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, d);
    return s;
}

/* 82,247 jobs in well under a second; the first and the last rows as the file has them. */
START_TEST(test_philly_loads_every_row_fast)
{
    st_diag d;
    clock_t t0 = clock();
    st_scn *s = with_trace("scenarios/traces/philly/philly_jobs.csv", "philly", "", &d);
    double cpu_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 82247);
    ck_assert_uint_eq(t->skipped, 0);
    ck_assert_uint_eq(t->n_tenants, 15); /* the README's 15 virtual clusters */
    ck_assert_double_eq(t->jobs[0].submit_s, 0);
    ck_assert_double_eq(t->jobs[0].duration_s, 2240194);
    ck_assert_int_eq(t->jobs[0].gpus, 8);
    ck_assert_str_eq(t->tenants[t->jobs[0].tenant], "7f04ca");
    ck_assert_double_eq(t->jobs[82246].submit_s, 9408690);
    ck_assert_double_eq(t->jobs[82246].duration_s, 64);
    ck_assert_double_lt(cpu_s, 0.5);
    ck_assert_int_eq(st_scn_warnings(s)->n, 0);
    st_scn_free(s);
}
END_TEST

/* CRLF rows and milliseconds: job 1 of trace1 arrives at 201,694 s and runs 4,472,936 s. */
START_TEST(test_muri_reads_milliseconds_and_crlf)
{
    st_diag d;
    st_scn *s = with_trace("scenarios/traces/muri_philly/trace1.csv", "muri", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 1494);
    ck_assert_uint_eq(t->skipped, 0);
    ck_assert_double_eq(t->jobs[0].duration_s, 2868294);
    ck_assert_double_eq(t->jobs[1].submit_s, 201694);
    ck_assert_double_eq(t->jobs[1].duration_s, 4472936);
    ck_assert_int_eq(t->jobs[1].gpus, 8);
    ck_assert_int_eq(t->jobs[1].tenant, -1);
    ck_assert_uint_eq(t->n_tenants, 0);
    st_scn_free(s);
}
END_TEST

/* Muri's class, iterations and iteration time (ms) as replay: muri reads them; job 0 of trace1
 * is dqn, 5,853,661 iterations of 490 ms; the traces mix 8 models. */
START_TEST(test_muri_reads_model_and_iterations)
{
    st_diag d;
    st_scn *s = with_trace("scenarios/traces/muri_philly/trace1.csv", "muri", ", replay: muri", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_int_eq(t->replay, ST_REPLAY_MURI);
    ck_assert_uint_eq(t->n_classes, 8);
    ck_assert_str_eq(t->classes[t->jobs[0].cls], "dqn");
    ck_assert_double_eq(t->jobs[0].iterations, 5853661);
    ck_assert_double_eq_tol(t->jobs[0].iteration_s, 0.49, 1e-15);
    st_scn_free(s);
    /* the other formats record neither */
    s = with_trace("scenarios/traces/philly/philly_jobs.csv", "philly", "", &d);
    ck_assert_int_eq(st_scn_trace(s)->jobs[0].cls, -1);
    ck_assert_double_eq(st_scn_trace(s)->jobs[0].iterations, 0);
    ck_assert_uint_eq(st_scn_trace(s)->n_classes, 0);
    st_scn_free(s);
}
END_TEST

/* A Muri-format file of our own, CRLF: a bad iteration count, a negative iteration time and a
 * short row are skipped at their lines (a blank line is not a row); the skipped rows add no
 * class; units ms to s. */
START_TEST(test_muri_malformed_rows_and_units)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/muri-rows.csv", "muri", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 3);
    ck_assert_uint_eq(t->skipped, 3);
    ck_assert_uint_eq(t->n_classes, 3);
    ck_assert_double_eq(t->jobs[1].submit_s, 1.5);
    ck_assert_double_eq(t->jobs[1].duration_s, 4);
    ck_assert_double_eq_tol(t->jobs[1].iteration_s, 0.2, 1e-15);
    ck_assert_str_eq(t->classes[t->jobs[2].cls], "gpt2");
    ck_assert_int_eq(t->jobs[2].gpus, 16);
    const st_diag *w = st_scn_warnings(s); /* the summary first: it is in the scenario */
    ck_assert_int_eq(w->n, 4);
    ck_assert_ptr_nonnull(strstr(w->items[0].msg, "3 malformed rows skipped, the first at "));
    unsigned lines[] = {4, 5, 7};
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(w->items[i + 1].loc.line, lines[i]);
    ck_assert_str_eq(w->items[1].msg, "malformed trace row: iterations 'many' is not a whole "
                                      "number >= 0; row skipped");
    ck_assert_str_eq(w->items[2].msg, "malformed trace row: iteration_time '-5' is not a number "
                                      ">= 0; row skipped");
    ck_assert_str_eq(w->items[3].msg, "malformed trace row: 5 fields, no 'duration'; row skipped");
    st_scn_free(s);
}
END_TEST

/* The generic CSV with CRLF line ends, a blank line, columns in another order and times with
 * units: three rows. */
START_TEST(test_csv_crlf_and_units)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/crlf.csv", "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 3);
    ck_assert_uint_eq(t->skipped, 0);
    ck_assert_double_eq(t->jobs[0].duration_s, 5400);
    ck_assert_double_eq(t->jobs[1].submit_s, 3600);
    ck_assert_int_eq(t->jobs[1].gpus, 8);
    ck_assert_double_eq(t->jobs[2].submit_s, 2 * 86400);
    ck_assert_double_eq(t->jobs[2].duration_s, 86400);
    ck_assert_uint_eq(t->n_tenants, 2);
    ck_assert_str_eq(t->tenants[t->jobs[2].tenant], "team-a");
    ck_assert_int_eq(st_scn_warnings(s)->n, 0);
    st_scn_free(s);
}
END_TEST

/* Columns in any order, times with units; each malformed row a warning at its line. */
START_TEST(test_malformed_rows_are_skipped_with_their_line)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/malformed.csv", "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 3);
    ck_assert_uint_eq(t->skipped, 5);
    ck_assert_double_eq(t->jobs[1].submit_s, 10);
    ck_assert_double_eq(t->jobs[1].duration_s, 7200);
    ck_assert_double_eq(t->jobs[2].duration_s, 60);
    ck_assert_int_eq(t->jobs[2].gpus, 16);
    ck_assert_str_eq(t->tenants[t->jobs[2].tenant], "research");
    const st_diag *w = st_scn_warnings(s);
    ck_assert_int_eq(w->n, 6);
    ck_assert_str_eq(w->items[0].loc.file, "t.yaml"); /* the summary, at the `file` key */
    ck_assert_uint_eq(w->items[0].loc.line, 3);
    ck_assert_ptr_nonnull(strstr(w->items[0].msg, "5 malformed rows skipped, the first at "));
    ck_assert_ptr_nonnull(strstr(w->items[0].msg, "tests/traces/malformed.csv:4"));
    unsigned lines[] = {4, 5, 6, 7, 9}, cols[] = {4, 4, 1, 1, 6};
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(w->items[i + 1].loc.line, lines[i]);
        ck_assert_uint_eq(w->items[i + 1].loc.col, cols[i]); /* the field's column */
        ck_assert_ptr_nonnull(strstr(w->items[i + 1].loc.file, "malformed.csv"));
        ck_assert_ptr_nonnull(strstr(w->items[i + 1].msg, "row skipped"));
    }
    ck_assert_str_eq(w->items[1].msg,
                     "malformed trace row: gpus '0' is not a whole number >= 1; row skipped");
    ck_assert_str_eq(w->items[3].msg, "malformed trace row: 2 fields, no 'duration'; row skipped");
    st_scn_free(s);
}
END_TEST

/* With `malformed: refuse` the first malformed row is an error and the scenario does not load. */
START_TEST(test_malformed_rows_refused_by_the_flag)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/malformed.csv", "csv", ", malformed: refuse", &d);
    ck_assert_ptr_null(s);
    ck_assert_int_ge(d.n, 1);
    ck_assert_uint_eq(d.items[0].loc.line, 4);
    ck_assert_str_eq(d.items[0].msg, "malformed trace row: gpus '0' is not a whole number >= 1");
    /* The scenario, whose pool held the trace's path, is freed: the error keeps its own name. */
    ck_assert_str_eq(d.items[0].loc.file, ST_SOURCE_DIR "/tests/traces/malformed.csv");
}
END_TEST

/* A header without the format's column is one located error naming it. */
START_TEST(test_missing_column_is_an_error)
{
    st_diag d;
    st_scn *s = with_trace("scenarios/traces/muri_philly/trace1.csv", "philly", "", &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "(format philly) has no column 'submit_s'"));
    ck_assert_uint_eq(d.items[0].loc.line, 3);
}
END_TEST

Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_philly_loads_every_row_fast);
    tcase_add_test(tc, test_muri_reads_milliseconds_and_crlf);
    tcase_add_test(tc, test_muri_reads_model_and_iterations);
    tcase_add_test(tc, test_muri_malformed_rows_and_units);
    tcase_add_test(tc, test_csv_crlf_and_units);
    tcase_add_test(tc, test_malformed_rows_are_skipped_with_their_line);
    tcase_add_test(tc, test_malformed_rows_refused_by_the_flag);
    tcase_add_test(tc, test_missing_column_is_an_error);
    suite_add_tcase(s, tc);
    return s;
}
