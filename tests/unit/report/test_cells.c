/* The two cell writers every CSV and Markdown report goes through (report/leaves.c): a CSV
 * cell a spreadsheet would run is neutralised (OWASP "CSV Injection") while a number stays a
 * number, and a Markdown cell can form no HTML, link, code span or cell break (issue 27). Also:
 * a leaf's text comes back whole, never cut by the caller's buffer. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "sim/utf8.h"

typedef void (*cell_fn)(FILE *out, const char *s);

/* What fn writes for s; the caller frees it. */
static char *written(cell_fn fn, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    fn(out, s);
    ck_assert_int_eq(fclose(out), 0);
    return buf;
}

static const struct {
    const char *in, *out;
} csv_cases[] = {
    /* OWASP's first characters: a single quote before, and quoted */
    {"=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\""},
    {"+1+1", "\"'+1+1\""},
    {"-2+3+cmd|' /C calc'!A0", "\"'-2+3+cmd|' /C calc'!A0\""},
    {"@SUM(A1:A9)", "\"'@SUM(A1:A9)\""},
    {"\t=1", "\"'\t=1\""},
    {"\r=1", "\"'\r=1\""},
    {"-", "\"'-\""},
    {"=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""},
    /* not a JSON number, so text: neutralised */
    {"-inf", "\"'-inf\""},
    {"-nan", "\"'-nan\""},
    {"-.5", "\"'-.5\""},
    {"-1e", "\"'-1e\""},
    {"-3.5 ", "\"'-3.5 \""},
    {"-0x10", "\"'-0x10\""},
    /* a number stays the number */
    {"-3.5", "-3.5"},
    {"-0", "-0"},
    {"-1e-05", "-1e-05"},
    {"-1.25E+300", "-1.25E+300"},
    {"0.25", "0.25"},
    {"1e+20", "1e+20"},
    /* RFC 4180 as before */
    {"fifo", "fifo"},
    {"大规模语言模型🚀", "大规模语言模型🚀"},
    {"a,b", "\"a,b\""},
    {"say \"hi\"", "\"say \"\"hi\"\"\""},
    {"two\nlines", "\"two\nlines\""},
    {"", ""},
};

START_TEST(test_csv_cell_neutralises_formulas_and_keeps_numbers)
{
    for (size_t i = 0; i < sizeof csv_cases / sizeof csv_cases[0]; i++) {
        char *got = written(st_report_csv_cell, csv_cases[i].in);
        ck_assert_msg(strcmp(got, csv_cases[i].out) == 0, "csv cell of '%s': '%s', expected '%s'",
                      csv_cases[i].in, got, csv_cases[i].out);
        free(got);
    }
}
END_TEST

static const struct {
    const char *in, *out;
} md_cases[] = {
    {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
    {"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
    {"<javascript:alert(1)>", "&lt;javascript:alert(1)&gt;"},
    {"&lt;b&gt;", "&amp;lt;b&amp;gt;"},
    {"[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))"},
    {"![x](javascript:alert(1))", "!\\[x\\](javascript:alert(1))"},
    {"a|b", "a\\|b"},
    {"a\\|b", "a\\\\\\|b"}, /* a user's backslash cannot undo the pipe's escape */
    {"trailing\\", "trailing\\\\"},
    {"`code`", "\\`code\\`"},
    {"*b* **c**", "\\*b\\* \\*\\*c\\*\\*"},
    {"_i_ a_ _b", "\\_i\\_ a\\_ \\_b"},
    {"step_time_s", "step_time_s"}, /* inside a word: no emphasis, left as it is */
    {"大_规", "大\\_规"},           /* only ASCII neighbours count as a word */
    {"line\nbreak\rhere", "line break here"},
    {"jobs[0].name", "jobs\\[0\\].name"},
    {"数据中心🚀", "数据中心🚀"},
    {"", ""},
};

START_TEST(test_md_cell_forms_no_html_link_code_or_cell_break)
{
    for (size_t i = 0; i < sizeof md_cases / sizeof md_cases[0]; i++) {
        char *got = written(st_report_md_cell, md_cases[i].in);
        ck_assert_msg(strcmp(got, md_cases[i].out) == 0, "md cell of '%s': '%s', expected '%s'",
                      md_cases[i].in, got, md_cases[i].out);
        free(got);
    }
}
END_TEST

/* A leaf's text is returned whole whatever the buffer: a 100-character name in 64 bytes. The
 * buffer's copy, for a caller that reads it, is cut between characters and says so. */
START_TEST(test_value_text_is_whole_and_the_buffer_cut_on_a_boundary)
{
    char name[512] = "";
    for (int i = 0; i < 100; i++)
        strcat(name, i % 7 ? "训" : "🚀");
    cJSON *leaf = cJSON_CreateString(name);
    char buf[ST_REPORT_VALUE_MAX];
    const char *texts[] = {st_report_value_text(ST_DOC_RUN, "jobs[0].name", leaf, buf, sizeof buf),
                           st_report_value_exact(leaf, buf, sizeof buf)};
    for (int k = 0; k < 2; k++) {
        ck_assert_str_eq(texts[k], name);
        ck_assert_uint_eq(st_utf8_check(buf, strlen(buf)), strlen(buf));
        ck_assert_uint_lt(strlen(buf), sizeof buf);
        ck_assert_str_eq(buf + strlen(buf) - 3, ST_UTF8_CUT_MARK);
    }
    cJSON_Delete(leaf);
    cJSON *num = cJSON_CreateNumber(-3.5);
    ck_assert_str_eq(st_report_value_exact(num, buf, sizeof buf), "-3.5");
    ck_assert_str_eq(st_report_value_text(ST_DOC_RUN, "jobs[0].step_time_s", num, buf, sizeof buf),
                     "-3.5 s");
    cJSON_Delete(num);
}
END_TEST

Suite *cells_suite(void)
{
    Suite *s = suite_create("cells");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_csv_cell_neutralises_formulas_and_keeps_numbers);
    tcase_add_test(tc, test_md_cell_forms_no_html_link_code_or_cell_break);
    tcase_add_test(tc, test_value_text_is_whole_and_the_buffer_cut_on_a_boundary);
    suite_add_tcase(s, tc);
    return s;
}
