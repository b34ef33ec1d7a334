/* CSV and Markdown cells (report/csv.h, report/md.h): a text cell a spreadsheet would evaluate
 * is neutralised and a number is not; RFC 4180 quoting; Markdown forms no HTML, no link and no
 * extra cell; UTF-8 passes through whole. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/csv.h"
#include "report/md.h"

/* What fn wrote for s, malloc'd. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len;
    FILE *out = open_memstream(&buf, &len);
    fn(out, s);
    fclose(out);
    return buf;
}

static void csv_is(const char *s, const char *want)
{
    char *got = written(st_csv_cell, s);
    ck_assert_str_eq(got, want);
    free(got);
}

static void md_is(const char *s, const char *want)
{
    char *got = written(st_md_text, s);
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(test_csv_formula_cells_are_neutralised)
{
    csv_is("=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
    csv_is("+1+2", "\"'+1+2\"");
    csv_is("-2+3", "\"'-2+3\"");
    csv_is("@SUM(A1)", "\"'@SUM(A1)\"");
    csv_is("\tx", "\"'\tx\"");
    csv_is("\rx", "\"'\rx\"");
    csv_is("-inf", "\"'-inf\""); /* not a finite number: text */
    csv_is("=\"a\",b", "\"'=\"\"a\"\",b\"");
}
END_TEST

START_TEST(test_csv_numbers_and_plain_text_are_kept)
{
    csv_is("-2", "-2");
    csv_is("-1.5e-3", "-1.5e-3");
    csv_is("+7", "+7");
    csv_is("73116659008", "73116659008");
    csv_is("ok", "ok");
    csv_is("", "");
    csv_is("a,b", "\"a,b\"");
    csv_is("say \"hi\"", "\"say \"\"hi\"\"\"");
    csv_is("训练 = x", "训练 = x");
    ck_assert(st_csv_is_number("-2") && st_csv_is_number("1e9"));
    ck_assert(!st_csv_is_number(" 2") && !st_csv_is_number("2 ") && !st_csv_is_number("nan") &&
              !st_csv_is_number(""));
}
END_TEST

START_TEST(test_markdown_forms_no_html_no_link_no_cell)
{
    md_is("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
    md_is("<javascript:alert(1)>", "&lt;javascript:alert(1)&gt;");
    md_is("[x](javascript:alert(1))", "[x]\\(javascript:alert(1))");
    md_is("![i](javascript:x)", "![i]\\(javascript:x)");
    md_is("a|b", "a\\|b");
    md_is("&amp;", "&amp;amp;");
    md_is("l1\nl2\r", "l1 l2 ");
    md_is("workloads[finetune].parallel.tp (x)", "workloads[finetune].parallel.tp (x)");
    md_is("训练作业", "训练作业");
}
END_TEST

Suite *cells_suite(void)
{
    Suite *s = suite_create("cells");
    TCase *tc = tcase_create("cells");
    tcase_add_test(tc, test_csv_formula_cells_are_neutralised);
    tcase_add_test(tc, test_csv_numbers_and_plain_text_are_kept);
    tcase_add_test(tc, test_markdown_forms_no_html_no_link_no_cell);
    suite_add_tcase(s, tc);
    return s;
}
