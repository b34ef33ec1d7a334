/* The terms of the HTML reports (report/glossary.h): one table, alphabetical, every definition
 * one sentence; a term's first use on a page marked as a whole word and only once, the longer
 * of two spellings that start at one place, the names that are English words (pack, priority)
 * only as a whole cell or a list's item; and a Terms section of the terms marked, and only
 * those. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/glossary.h"

/* What st_glossary_text writes for each of texts[0..n) in turn on one page; the caller frees it. */
static char *marked(st_glossary *g, const char *const *texts, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    for (size_t i = 0; i < n; i++) {
        st_glossary_text(g, out, texts[i]);
        fputc('\n', out);
    }
    ck_assert_int_eq(fclose(out), 0);
    return buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The text with its markup taken out. */
static char *text_of(const char *s)
{
    char *t = malloc(strlen(s) + 1), *o = t;
    for (int in = 0; *s; s++) {
        if (*s == '<')
            in = 1;
        else if (*s == '>')
            in = 0;
        else if (!in)
            *o++ = *s;
    }
    *o = '\0';
    return t;
}

START_TEST(test_table_is_alphabetical_and_each_definition_one_sentence)
{
    size_t n;
    const st_term *t = st_glossary_terms(&n);
    ck_assert_uint_gt(n, 40);
    ck_assert_uint_le(n, ST_GLOSSARY_MAX);
    for (size_t i = 0; i < n; i++) {
        if (i)
            ck_assert_msg(strcasecmp(t[i - 1].name, t[i].name) < 0, "'%s' before '%s'",
                          t[i - 1].name, t[i].name);
        size_t d = strlen(t[i].def);
        ck_assert_msg(d > 20 && t[i].def[d - 1] == '.', "%s: a sentence ending in '.'", t[i].id);
        ck_assert_msg(!strstr(t[i].def, ". "), "%s: one sentence", t[i].id);
        ck_assert_msg(t[i].spell[0] != NULL, "%s: no spelling", t[i].id);
        for (const char *c = t[i].id; *c; c++)
            ck_assert_msg((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-',
                          "%s: an id of a-z, 0-9 and -", t[i].id);
        for (size_t j = 0; j < i; j++) { /* no id, and no spelling, twice */
            ck_assert_str_ne(t[i].id, t[j].id);
            for (size_t a = 0; a < ST_TERM_SPELLINGS && t[i].spell[a]; a++)
                for (size_t b = 0; b < ST_TERM_SPELLINGS && t[j].spell[b]; b++)
                    ck_assert_msg(strcmp(t[i].spell[a], t[j].spell[b]) != 0, "'%s' twice",
                                  t[i].spell[a]);
        }
    }
}
END_TEST

START_TEST(test_first_use_marked_once_text_unchanged)
{
    st_glossary g = {0};
    static const char *const in[] = {"MFU 39.79%, goodput 94.51%", "Model FLOPs utilisation",
                                     "Goodput", "MFU's error band"};
    char *out = marked(&g, in, 4);
    ck_assert_uint_eq(count(out, "href=\"#term-mfu\""), 1);
    ck_assert_uint_eq(count(out, "href=\"#term-goodput\""), 1);
    ck_assert_ptr_nonnull(strstr(out, "<a class=\"term\" href=\"#term-mfu\"><abbr title=\"The "
                                      "model&#39;s FLOPs per second over the GPUs&#39; dense "
                                      "peak"));
    ck_assert_ptr_nonnull(strstr(out, "<abbr title=\"The range")); /* error band, still new */
    char *t = text_of(out);
    ck_assert_str_eq(t, "MFU 39.79%, goodput 94.51%\nModel FLOPs utilisation\nGoodput\n"
                        "MFU&#39;s error band\n");
    free(t);
    free(out);
}
END_TEST

START_TEST(test_whole_words_longest_spelling)
{
    st_glossary g = {0};
    static const char *const in[] = {"tp-run on ITx, stepping", "MTBF the persistent copy restores",
                                     "Job MTBF"};
    char *out = marked(&g, in, 3);
    ck_assert_ptr_null(strstr(out, "#term-tp\"")); /* a name, not a term */
    ck_assert_ptr_null(strstr(out, "#term-it-power"));
    ck_assert_ptr_null(strstr(out, "#term-step\""));
    ck_assert_ptr_nonnull(strstr(out, "<abbr title=\"The mean time between the failures the "
                                      "in-memory snapshots do not survive"));
    ck_assert_ptr_nonnull(strstr(out, "Job <a class=\"term\" href=\"#term-mtbf\">"));
    free(out);
}
END_TEST

START_TEST(test_english_words_only_as_items)
{
    st_glossary g = {0};
    static const char *const in[] = {"pack the GPUs by priority", "fifo, pack", "priority"};
    char *out = marked(&g, in, 3);
    ck_assert_ptr_nonnull(strstr(out, "pack the GPUs by priority\n")); /* prose: unmarked */
    ck_assert_ptr_nonnull(strstr(out, "</a>, <a class=\"term\" href=\"#term-pack\">"));
    ck_assert_ptr_nonnull(strstr(out, "<a class=\"term\" href=\"#term-priority\">"));
    free(out);
}
END_TEST

START_TEST(test_section_lists_the_terms_used_in_table_order)
{
    st_glossary g = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    st_glossary_section(&g, out); /* nothing marked: no section */
    fflush(out);
    ck_assert_uint_eq(len, 0);
    st_glossary_text(&g, out, "PUE 1.207, goodput 94.51% <&>");
    st_glossary_section(&g, out);
    ck_assert_int_eq(fclose(out), 0);
    ck_assert_ptr_nonnull(strstr(buf, "&lt;&amp;&gt;"));
    const char *good = strstr(buf, "<dt id=\"term-goodput\">Goodput</dt><dd>");
    const char *pue = strstr(buf, "<dt id=\"term-pue\">PUE (power usage effectiveness)</dt>");
    ck_assert_ptr_nonnull(good);
    ck_assert_ptr_nonnull(pue);
    ck_assert(good < pue);
    ck_assert_uint_eq(count(buf, "<dt "), 2);
    ck_assert_ptr_nonnull(strstr(buf, "<h2 id=\"terms\">Terms</h2>"));
    free(buf);
}
END_TEST

Suite *glossary_suite(void)
{
    Suite *s = suite_create("glossary");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_table_is_alphabetical_and_each_definition_one_sentence);
    tcase_add_test(tc, test_first_use_marked_once_text_unchanged);
    tcase_add_test(tc, test_whole_words_longest_spelling);
    tcase_add_test(tc, test_english_words_only_as_items);
    tcase_add_test(tc, test_section_lists_the_terms_used_in_table_order);
    suite_add_tcase(s, tc);
    return s;
}
