/* Trace import (scenarios/trace.c): row counts and units of the Philly and Muri traces in the
 * repository, CRLF and CR-only line ends, the generic CSV's columns in any order with units,
 * malformed rows reported as FILE:LINE:COL and skipped or refused, a missing column, tenants hashed
 * in first-seen order, bounds that are errors whatever `malformed:` says, strict plain columns, and
 * --set values under the same bounds. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scenarios/override.h"
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

/* Lines ended by CR alone (classic Mac OS; Excel for Mac's "CSV (Macintosh)") are read as
 * lines: they read as one line before, and the file was refused. A malformed row is named at its
 * own line, and a blank line between rows is skipped as with LF. */
START_TEST(test_cr_only_lines_are_read)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/cr-only.csv", "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 3);
    ck_assert_uint_eq(t->skipped, 1);
    ck_assert_double_eq(t->jobs[0].duration_s, 7200);
    ck_assert_double_eq(t->jobs[1].submit_s, 60);
    ck_assert_double_eq(t->jobs[1].duration_s, 5400);
    ck_assert_int_eq(t->jobs[1].gpus, 16);
    ck_assert_double_eq(t->jobs[2].submit_s, 180);
    ck_assert_int_eq(t->jobs[2].gpus, 4);
    const st_diag *w = st_scn_warnings(s);
    ck_assert_int_eq(w->n, 2);
    ck_assert_uint_eq(w->items[1].loc.line, 4);
    ck_assert_uint_eq(w->items[1].loc.col, 11);
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

/* Fields quoted as RFC 4180 writes them (R's write.csv quotes every name) are read without their
 * quotes, a comma inside one its own; an escaped quote inside is malformed, said as such. The
 * header's quoted names read "no column 'submit'" before (a fuzzing find). */
START_TEST(test_quoted_fields_are_read)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/quoted.csv", "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 2);
    ck_assert_double_eq(t->jobs[0].duration_s, 3600);
    ck_assert_str_eq(t->tenants[t->jobs[0].tenant], "research, west");
    ck_assert_double_eq(t->jobs[1].submit_s, 10);
    ck_assert_int_eq(t->jobs[1].gpus, 4);
    ck_assert_str_eq(t->tenants[t->jobs[1].tenant], "prod");
    const st_diag *w = st_scn_warnings(s);
    ck_assert_int_eq(w->n, 2);
    ck_assert_uint_eq(w->items[1].loc.line, 4);
    ck_assert_uint_eq(w->items[1].loc.col, 15); /* the escaped quote */
    ck_assert_str_eq(w->items[1].msg, "malformed trace row: field 4: an escaped quote (\"\") in a "
                                      "quoted field is not read; row skipped");
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

/* A header without the format's column is one error naming it, located at the header row in the
 * trace file (it was at the scenario's `file` key) and saying what the row holds. */
START_TEST(test_missing_column_is_an_error)
{
    st_diag d;
    st_scn *s = with_trace("scenarios/traces/muri_philly/trace1.csv", "philly", "", &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "(format philly) has no column 'submit_s'"));
    ck_assert_ptr_nonnull(strstr(d.items[0].loc.file, "trace1.csv"));
    ck_assert_uint_eq(d.items[0].loc.line, 1);
}
END_TEST

/* A CSV written to a temporary file from text; its path in path[0..n). */
static void temp_csv(const char *text, char *path, size_t n)
{
    snprintf(path, n, "/tmp/strata-trace-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static st_scn *with_abs_trace(const char *path, const char *format, const char *extra, st_diag *d)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 8 }\n"
             "trace: { file: %s, format: %s%s }\n",
             path, format, extra);
    st_scn *s = NULL;
    memset(d, 0, sizeof *d);
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, d);
    return s;
}

/* A file of CR line ends that ends in CRLF (an editor's last line end) is read as CR lines; one
 * whose header is exactly the longest line (64 KiB) is read whole: the reader decided the line
 * end from a full buffer's read of 0 bytes, took it for the file's end, and dropped every row
 * past the first 128 KiB without a word (a review find). */
START_TEST(test_cr_lines_with_a_crlf_end_and_a_longest_header)
{
    char path[64];
    st_diag d;
    temp_csv("submit,duration,gpus\r0,2 h,8\r1 min,2 h,16\r\n", path, sizeof path);
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(st_scn_trace(s)->n_jobs, 2);
    ck_assert_int_eq(st_scn_trace(s)->jobs[1].gpus, 16);
    st_scn_free(s);
    unlink(path);
    size_t rows = 20000, head = 65536, cap = head + 1 + rows * 16 + 1, at;
    char *text = malloc(cap);
    at = (size_t)snprintf(text, cap, "submit,duration,gpus,");
    memset(text + at, 'x', head - at);
    at = head;
    text[at++] = '\r';
    for (size_t i = 0; i < rows; i++)
        at += (size_t)snprintf(text + at, cap - at, "%zu,1 h,8\r", i);
    text[at] = '\0';
    temp_csv(text, path, sizeof path);
    free(text);
    s = with_abs_trace(path, "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(st_scn_trace(s)->n_jobs, rows);
    ck_assert_uint_eq(st_scn_trace(s)->skipped, 0);
    st_scn_free(s);
    unlink(path);
}
END_TEST

/* A time column of a format that takes units says why a value is not a time: it said "duration
 * '2 GB' is not a number >= 0" of a column that takes '2 h' (a new user's walk). */
START_TEST(test_a_time_that_is_not_says_why)
{
    char path[64];
    st_diag d;
    temp_csv("submit,duration,gpus\n0,2 GB,8\n0,1 h,8\n", path, sizeof path);
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(st_scn_trace(s)->n_jobs, 1);
    const st_diag *w = st_scn_warnings(s);
    ck_assert_int_eq(w->n, 2);
    ck_assert_str_eq(w->items[1].msg,
                     "malformed trace row: duration '2 GB' is not a time >= 0: wrong dimension: "
                     "expected a time such as '30 s' or '15 min', found a size in bytes ('2 GB'); "
                     "row skipped");
    st_scn_free(s);
    unlink(path);
}
END_TEST

/* Every row malformed: the error at the `file` key, then each row's reason as an error at its
 * row and column, worded as refuse words it. Before, the error alone said "every row was
 * skipped", and the rows' warnings, of a scenario that did not load, were never printed. */
START_TEST(test_every_row_malformed_names_each_row)
{
    char path[64];
    temp_csv("submit,duration,gpus\n0,2 h,eight\n5,1 h,x\n", path, sizeof path);
    st_diag d;
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    unlink(path);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 3);
    ck_assert_str_eq(d.items[0].loc.file, "t.yaml");
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "its 2 rows were all malformed (each is listed"));
    unsigned lines[] = {2, 3};
    const char *why[] = {"malformed trace row: gpus 'eight' is not a whole number >= 1",
                         "malformed trace row: gpus 'x' is not a whole number >= 1"};
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(d.items[i + 1].loc.file, path);
        ck_assert_uint_eq(d.items[i + 1].loc.line, lines[i]);
        ck_assert_uint_eq(d.items[i + 1].loc.col, 7); /* the gpus field */
        ck_assert_str_eq(d.items[i + 1].msg, why[i]);
    }
}
END_TEST

/* A header whose name is a typo of the format's column: the did-you-mean is at the near name in
 * the trace file, and never names another column the format reads ('output_tokens' for a
 * missing 'input_tokens' would send the user to a column that is right). */
START_TEST(test_a_near_column_name_is_suggested_where_it_is)
{
    char path[64];
    temp_csv("gpus,sumbit,duration\n0,2 h,8\n", path, sizeof path);
    st_diag d;
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    unlink(path);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].loc.file, path);
    ck_assert_uint_eq(d.items[0].loc.line, 1);
    ck_assert_uint_eq(d.items[0].loc.col, 6);
    ck_assert_ptr_nonnull(
        strstr(d.items[0].msg, "has no column 'submit' in its header row; did you mean 'sumbit'?"));
    temp_csv("gpus,submit,xyz\n0,2 h,8\n", path, sizeof path);
    s = with_abs_trace(path, "csv", "", &d);
    unlink(path);
    ck_assert_ptr_null(s);
    ck_assert_uint_eq(d.items[0].loc.col, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg,
                                 "has no column 'duration' in its header row, which reads "
                                 "'gpus,submit,xyz'"));
}
END_TEST

/* A file with no header row (nothing, a byte-order mark alone, blank lines only) is said to be
 * empty; before, each read "has no column 'submit' in its header row", as if a header were
 * there. Blank lines before a header are skipped, as between rows. */
START_TEST(test_an_empty_file_is_said_to_be_empty)
{
    static const char *const empty[] = {"", "\xEF\xBB\xBF", "\n\n", "\r\n\r\n", "\xEF\xBB\xBF\n\n"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        char path[64];
        temp_csv(empty[i], path, sizeof path);
        st_diag d;
        st_scn *s = with_abs_trace(path, "csv", "", &d);
        unlink(path);
        ck_assert_ptr_null(s);
        ck_assert_int_eq(d.n, 1);
        ck_assert_uint_eq(d.items[0].loc.line, 3); /* the `file` key */
        ck_assert_msg(strstr(d.items[0].msg,
                             "is empty: expected a header row naming its columns (format csv: "
                             "submit, duration, gpus), then one row per job"),
                      "case %zu: %s", i, d.items[0].msg);
    }
    char path[64];
    temp_csv("\n\r\nsubmit,duration,gpus\n0,60,1\n", path, sizeof path);
    st_diag d;
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    unlink(path);
    ck_assert_msg(s != NULL, "%s", d.n ? d.items[0].msg : "");
    ck_assert_uint_eq(st_scn_trace(s)->n_jobs, 1);
    st_scn_free(s);
}
END_TEST

/* 3,000 tenants over 9,000 rows in a scrambled order: each job's index names its own tenant, and
 * the names stand in first-seen order (the hash index never reaches the order). */
START_TEST(test_tenants_hashed_in_first_seen_order)
{
    size_t cap = 9000 * 32, used = 0;
    char *text = malloc(cap);
    used += (size_t)snprintf(text, cap, "submit,duration,gpus,tenant\n");
    for (int i = 0; i < 9000; i++)
        used += (size_t)snprintf(text + used, cap - used, "%d,60,1,t%d\n", i, (i * 7919) % 3000);
    char path[64];
    temp_csv(text, path, sizeof path);
    free(text);
    st_diag d;
    st_scn *s = with_abs_trace(path, "csv", "", &d);
    unlink(path);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 9000);
    ck_assert_uint_eq(t->n_tenants, 3000);
    char want[32];
    for (int i = 0; i < 9000; i++) {
        snprintf(want, sizeof want, "t%d", (i * 7919) % 3000);
        ck_assert_str_eq(t->tenants[t->jobs[i].tenant], want);
        ck_assert_uint_eq(t->jobs[i].line, (unsigned)i + 2); /* each job keeps its row's line */
    }
    for (int k = 0; k < 3000; k++) { /* 7919 is prime to 3000: rows 0..2999 are all new */
        snprintf(want, sizeof want, "t%d", (k * 7919) % 3000);
        ck_assert_str_eq(t->tenants[k], want);
    }
    st_scn_free(s);
}
END_TEST

/* A value past a model's bound is an error at its field even under `malformed: skip`: the row
 * is well formed, and skipping it would change the workload unseen. */
START_TEST(test_a_bound_is_an_error_whatever_malformed_says)
{
    st_diag d;
    st_scn *s = with_trace("tests/traces/past-clock.csv", "csv", "", &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_int_eq(d.items[0].code, ST_ELIMIT);
    ck_assert_uint_eq(d.items[0].loc.line, 3);
    ck_assert_uint_eq(d.items[0].loc.col, 1);
    ck_assert_str_eq(d.items[0].msg,
                     "submit: 300 y is beyond the longest time the cluster run represents (at "
                     "most 73.12 y: 2^61 ns, so a start by the horizon plus a run time stays "
                     "within its int64 ns clock)");
    /* at the bound itself a row is taken */
    char path[64];
    temp_csv("submit,duration,gpus\n2305843009.213693952,2305843009.213693952,1000000000\n", path,
             sizeof path);
    s = with_abs_trace(path, "csv", ", malformed: refuse", &d);
    unlink(path);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(st_scn_trace(s)->jobs[0].gpus, 1000000000);
    st_scn_free(s);
}
END_TEST

/* The formats without units take plain numbers only: a unit, a suffix, hex or trailing bytes
 * make the row malformed; the generic CSV takes a unit on its times. */
START_TEST(test_plain_columns_are_strict)
{
    char path[64];
    temp_csv("job_id,submit_unix,submit_s,duration_s,num_gpus,vc\n"
             "1,0,10 s,60,1,a\n2,0,10,60,1K,a\n3,0,10,0x3c,1,a\n4,0,10,60,1;,a\n5,0,10,60,1,a\n",
             path, sizeof path);
    st_diag d;
    st_scn *s = with_abs_trace(path, "philly", "", &d);
    unlink(path);
    ck_assert_ptr_nonnull(s);
    const st_trace_cfg *t = st_scn_trace(s);
    ck_assert_uint_eq(t->n_jobs, 1);
    ck_assert_uint_eq(t->skipped, 4);
    ck_assert_uint_eq(t->jobs[0].line, 6);
    st_scn_free(s);
}
END_TEST

/* A --set value goes through the same rows as the file's: a horizon past the cluster run's
 * clock is refused with the bound, located at the --set. */
START_TEST(test_set_values_meet_the_same_bounds)
{
    static const char yaml[] = "version: 1\ncluster: { gpu: h100-sxm, nodes: 8 }\n"
                               "trace: { file: " ST_SOURCE_DIR "/tests/traces/crlf.csv }\n";
    st_scn_set set = {"horizon", "1e308 y", "--set horizon=1e308 y", NULL};
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_ne(st_scn_load_buffer_set("t.yaml", yaml, strlen(yaml), &set, 1, &s, &d), 0);
    char line[512];
    st_err_format(&d.items[0], line, sizeof line);
    ck_assert_str_eq(line, "--set horizon=1e308 y: error: horizon: 1e308 y is beyond the longest "
                           "time the cluster run represents (at most 73.12 y: 2^61 ns, so a start "
                           "by the horizon plus a run time stays within its int64 ns clock)");
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
    tcase_add_test(tc, test_cr_only_lines_are_read);
    tcase_add_test(tc, test_cr_lines_with_a_crlf_end_and_a_longest_header);
    tcase_add_test(tc, test_a_time_that_is_not_says_why);
    tcase_add_test(tc, test_malformed_rows_are_skipped_with_their_line);
    tcase_add_test(tc, test_quoted_fields_are_read);
    tcase_add_test(tc, test_malformed_rows_refused_by_the_flag);
    tcase_add_test(tc, test_every_row_malformed_names_each_row);
    tcase_add_test(tc, test_missing_column_is_an_error);
    tcase_add_test(tc, test_an_empty_file_is_said_to_be_empty);
    tcase_add_test(tc, test_tenants_hashed_in_first_seen_order);
    tcase_add_test(tc, test_a_bound_is_an_error_whatever_malformed_says);
    tcase_add_test(tc, test_plain_columns_are_strict);
    tcase_add_test(tc, test_set_values_meet_the_same_bounds);
    tcase_add_test(tc, test_a_near_column_name_is_suggested_where_it_is);
    suite_add_tcase(s, tc);
    return s;
}
