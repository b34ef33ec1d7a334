#define _POSIX_C_SOURCE 200809L
/* UTF-8 boundaries, well-formedness and bounded formatting: a cut never leaves half a character,
 * and says that it cut. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/err.h"
#include "sim/utf8.h"

/* 16 Chinese characters, 3 bytes each: the job name that made the JSON report unparseable. */
static const char han[] = "训练任务训练任务训练任务训练任务";

START_TEST(test_fit_backs_off_to_a_character_boundary)
{
    ck_assert_uint_eq(strlen(han), 48);
    ck_assert_uint_eq(st_utf8_fit(han, 48, 64), 48);
    ck_assert_uint_eq(st_utf8_fit(han, 48, 48), 48);
    ck_assert_uint_eq(st_utf8_fit(han, 48, 47), 45);
    ck_assert_uint_eq(st_utf8_fit(han, 48, 46), 45);
    ck_assert_uint_eq(st_utf8_fit(han, 48, 45), 45);
    ck_assert_uint_eq(st_utf8_fit("ab\xf0\x9f\x98\x80", 6, 5), 2); /* a 4-byte emoji */
    ck_assert_uint_eq(st_utf8_fit("abc", 3, 1), 1);
}
END_TEST

START_TEST(test_check_finds_the_first_ill_formed_byte)
{
    ck_assert_uint_eq(st_utf8_check(han, 48), 48);
    ck_assert_uint_eq(st_utf8_check("ok", 2), 2);
    ck_assert_uint_eq(st_utf8_check("ab\xff", 3), 2);            /* never a UTF-8 byte */
    ck_assert_uint_eq(st_utf8_check("a\xc0\xaf", 3), 1);         /* overlong '/' */
    ck_assert_uint_eq(st_utf8_check("a\xed\xa0\x80", 4), 1);     /* a surrogate */
    ck_assert_uint_eq(st_utf8_check("a\xf4\x90\x80\x80", 5), 1); /* past U+10FFFF */
    ck_assert_uint_eq(st_utf8_check("a\xe8\xae", 3), 1);         /* cut short */
    ck_assert_uint_eq(st_utf8_check("\xe8\xae\xad\x80", 4), 3);  /* a stray continuation */
    ck_assert_uint_eq(st_utf8_check("\xf0\x9f\x98\x80", 4), 4);  /* U+1F600 */
}
END_TEST

/* Each ill-formed sequence is named by its own bytes: libyaml named 0xff of C0 AF, 0x00 of a
 * surrogate, and the byte after a Latin-1 one. */
START_TEST(test_why_names_the_bytes_at_fault)
{
    static const struct {
        const char *s, *want;
    } cases[] = {
        {"a\xc0\xaf", "bytes 0xC0 0xAF are an overlong form of U+002F, which UTF-8 forbids"},
        {"\xe0\x80\xaf",
         "bytes 0xE0 0x80 0xAF are an overlong form of U+002F, which UTF-8 forbids"},
        {"\xed\xa0\x80",
         "bytes 0xED 0xA0 0x80 are a UTF-16 surrogate (U+D800), which UTF-8 does not encode"},
        {"\xf4\x90\x80\x80", "bytes 0xF4 0x90 0x80 0x80 are past U+10FFFF, the last code point"},
        {"caf\xe9\n", "byte 0xE9 starts a 3-byte sequence, but byte 0x0A follows it (a file saved "
                      "as Latin-1 or Windows-1252?)"},
        {"caf\xe9", "byte 0xE9 starts a 3-byte sequence, but the text ends after 1 byte of it"},
        /* cut short, its second byte already wrong: those two are named, not the byte after */
        {"x\xe0\x80\n", "bytes 0xE0 0x80 begin an overlong form, which UTF-8 forbids"},
        {"x\xed\xa0\n", "bytes 0xED 0xA0 begin a UTF-16 surrogate, which UTF-8 does not encode"},
        {"\x80", "byte 0x80 continues a character that no lead byte starts"},
        {"\xff", "byte 0xFF never appears in UTF-8"},
        {"\xc1", "byte 0xC1 never appears in UTF-8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = strlen(cases[i].s), at = st_utf8_check(cases[i].s, len);
        char buf[192];
        ck_assert_uint_lt(at, len);
        ck_assert_str_eq(st_utf8_why(cases[i].s, len, at, buf, sizeof buf), cases[i].want);
    }
    size_t n = 0;
    ck_assert_str_eq(st_utf8_foreign_bom("\xff\xfe\0\0", 4, &n), "UTF-32LE");
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(st_utf8_foreign_bom("\xfe\xff\0v", 4, &n), "UTF-16BE");
    ck_assert_ptr_null(st_utf8_foreign_bom("\xef\xbb\xbfv", 4, &n));
}
END_TEST

START_TEST(test_snprintf_cuts_whole_characters_and_marks_the_cut)
{
    char buf[20];
    int full = st_snprintf(buf, sizeof buf, "job %s", han);
    ck_assert_int_eq(full, 52);
    /* 19 bytes of room, 3 for the mark: "job " and 4 characters are 16 bytes. */
    ck_assert_str_eq(buf, "job 训练任务...");
    ck_assert_uint_eq(st_utf8_check(buf, strlen(buf)), strlen(buf));
    char tiny[3];
    st_snprintf(tiny, sizeof tiny, "%s", han); /* no room for a character or the mark */
    ck_assert_str_eq(tiny, "");
    char two[4];
    st_snprintf(two, sizeof two, "a%s", han);
    ck_assert_str_eq(two, "a");
    ck_assert_int_eq(st_snprintf(buf, sizeof buf, "%s", "fits"), 4);
    ck_assert_str_eq(buf, "fits");
}
END_TEST

START_TEST(test_error_messages_stay_well_formed)
{
    st_err e;
    char name[400] = "";
    for (int i = 0; i < 8; i++)
        strcat(name, han);
    st_err_set(&e, ST_EINVAL, (st_loc){"a.yaml", 3, 4}, "workload '%s' is wrong", name);
    ck_assert_uint_eq(st_utf8_check(e.msg, strlen(e.msg)), strlen(e.msg));
    ck_assert_ptr_nonnull(strstr(e.msg, ST_UTF8_CUT_MARK));
    char line[100];
    st_err_format(&e, line, sizeof line);
    ck_assert_uint_eq(st_utf8_check(line, strlen(line)), strlen(line));
}
END_TEST

START_TEST(test_an_error_keeps_its_file_name_after_the_name_is_freed)
{
    char *file = strdup("scratch/trace.csv");
    st_err e;
    st_err_set(&e, ST_EINVAL, (st_loc){file, 2, 1}, "malformed trace row");
    ck_assert_ptr_ne(e.loc.file, file);
    memset(file, 'x', strlen(file));
    free(file);
    ck_assert_str_eq(e.loc.file, "scratch/trace.csv");
    st_err again;
    st_err_set(&again, ST_EINVAL, (st_loc){"scratch/trace.csv", 3, 1}, "again");
    ck_assert_ptr_eq(again.loc.file, e.loc.file); /* one copy per name */
}
END_TEST

/* One line of UTF-8 (a sweep's journal cell): ill-formed bytes and every control character, a
 * tab and a newline too, as \xNN; well-formed text, C1 aside, as it is. */
START_TEST(test_one_line_escapes_what_would_split_or_break_a_cell)
{
    char *a = st_utf8_one_line("plan\xff.yaml:\t1\n\r caf\xc3\xa9");
    ck_assert_str_eq(a, "plan\\xff.yaml:\\x09"
                        "1\\x0a\\x0d caf\xc3\xa9");
    free(a);
    char *b = st_utf8_one_line("\xc2\x85 ok");
    ck_assert_str_eq(b, "\\xc2\\x85 ok");
    free(b);
    char *c = st_utf8_one_line("");
    ck_assert_str_eq(c, "");
    free(c);
}
END_TEST

Suite *utf8_suite(void)
{
    Suite *s = suite_create("utf8");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fit_backs_off_to_a_character_boundary);
    tcase_add_test(tc, test_check_finds_the_first_ill_formed_byte);
    tcase_add_test(tc, test_one_line_escapes_what_would_split_or_break_a_cell);
    tcase_add_test(tc, test_why_names_the_bytes_at_fault);
    tcase_add_test(tc, test_snprintf_cuts_whole_characters_and_marks_the_cut);
    tcase_add_test(tc, test_error_messages_stay_well_formed);
    tcase_add_test(tc, test_an_error_keeps_its_file_name_after_the_name_is_freed);
    suite_add_tcase(s, tc);
    return s;
}
