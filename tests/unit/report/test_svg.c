/* The SVG chart writer (report/svg.h) and XML escaping (report/xml.h): names are escaped, the
 * axes' ticks are round numbers covering the data, a flat or near-flat range still draws (it
 * looped once), log axes tick at powers of ten, bars carry their totals and limits, and the
 * same input gives the same bytes. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "report/xml.h"

/* What fn wrote, as a malloc'd string. */
#define CAPTURE(buf, call)                                                                         \
    do {                                                                                           \
        size_t len_;                                                                               \
        FILE *out = open_memstream(&(buf), &len_);                                                 \
        call;                                                                                      \
        fclose(out);                                                                               \
    } while (0)

START_TEST(test_text_is_escaped)
{
    char *b = NULL;
    CAPTURE(b, st_xml_text(out, "a<b & \"c\" 'd'>\x01"));
    ck_assert_str_eq(b, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt; ");
    free(b);
}
END_TEST

START_TEST(test_ticks_are_round_and_cover_the_data)
{
    const double x[] = {0.3, 1.7, 9.2}, y[] = {12, 47, 3};
    st_svg_series s = {"job <a>", x, y, 3, ST_SVG_LINE_DOTS};
    st_svg_frame f = {.id = "c1", .title = "T", .x_label = "x", .y_label = "y"};
    char *b = NULL, *c = NULL;
    CAPTURE(b, st_svg_xy(out, &f, &s, 1));
    CAPTURE(c, st_svg_xy(out, &f, &s, 1));
    ck_assert_str_eq(b, c); /* deterministic */
    ck_assert_ptr_nonnull(strstr(b, "id=\"c1\""));
    ck_assert_ptr_nonnull(strstr(b, "job &lt;a&gt;"));
    ck_assert_ptr_nonnull(strstr(b, ">10</text>")); /* x ticks 0, 2, ..., 10 */
    ck_assert_ptr_nonnull(strstr(b, ">50</text>")); /* y ticks 0, 10, ..., 50 */
    ck_assert_ptr_null(strstr(b, ">12</text>"));
    ck_assert_int_eq((int)(strstr(b, "<circle") != NULL), 1);
    free(b);
    free(c);
}
END_TEST

START_TEST(test_flat_and_near_flat_ranges_draw)
{
    const double x[] = {0.0177, 0.0177 * (1 + 1e-13), 0.0177}, y[] = {0, 0.5, 1};
    st_svg_series s = {"flat", x, y, 3, ST_SVG_LINE};
    st_svg_frame f = {.id = "c2", .title = "T", .x_label = "x"};
    char *b = NULL;
    CAPTURE(b, st_svg_xy(out, &f, &s, 1));
    ck_assert_ptr_nonnull(strstr(b, "</svg>"));
    free(b);
    const double zeros[] = {0, 0, 0};
    st_svg_series z = {"waits", zeros, zeros, 3, ST_SVG_LINE};
    f.x_from_zero = 1;
    CAPTURE(b, st_svg_cdf(out, &f, &z, 1));
    ck_assert_ptr_nonnull(strstr(b, ">0</text>"));
    ck_assert_ptr_null(strstr(b, ">-1</text>")); /* from zero: [0, 1], not [-1, 1] */
    free(b);
}
END_TEST

START_TEST(test_log_axes_tick_at_powers_of_ten)
{
    const double x[] = {73, 8000, 400}, y[] = {2.9e7, 2e7, 7e8};
    st_svg_series s = {"configs", x, y, 3, ST_SVG_DOTS};
    st_svg_frame f = {.id = "c3", .title = "T", .x_label = "x", .log_x = 1, .log_y = 1};
    char *b = NULL;
    CAPTURE(b, st_svg_xy(out, &f, &s, 1));
    ck_assert_ptr_nonnull(strstr(b, ">10</text>"));
    ck_assert_ptr_nonnull(strstr(b, ">10,000</text>"));
    ck_assert_ptr_nonnull(strstr(b, ">20,000,000</text>")); /* 2 decades: 1, 2, 5 */
    ck_assert_ptr_nonnull(strstr(b, ">1e+09</text>"));
    free(b);
}
END_TEST

START_TEST(test_bars_show_totals_and_limits)
{
    static const char *const cats[] = {"pretrain"}, *const parts[] = {"compute", "comm"};
    const double v[] = {3.5, 1.25}, lim[] = {6};
    st_svg_bars bars = {cats, 1, parts, 2, v, lim, "capacity"};
    st_svg_frame f = {.id = "c4", .title = "T", .x_label = "s"};
    char *b = NULL;
    CAPTURE(b, st_svg_bars_chart(out, &f, &bars));
    ck_assert_ptr_nonnull(strstr(b, ">4.75</text>"));
    ck_assert_ptr_nonnull(strstr(b, "stroke-dasharray"));
    ck_assert_ptr_nonnull(strstr(b, ">capacity</text>"));
    free(b);
}
END_TEST

/* A tick from 10,000 up has its thousands set apart, as the reports' tables write a number
 * (a review found 1445000 on a sweep's axis); a series whose values are all one is flat. */
START_TEST(test_big_ticks_are_grouped_and_flat_series_are_told)
{
    const double x[] = {0, 1}, y[] = {1410000, 1445000}, same[] = {42.5, 42.5};
    st_svg_series s = {"cost", x, y, 2, ST_SVG_LINE}, f2 = {"flat", x, same, 2, ST_SVG_LINE};
    st_svg_frame f = {.id = "c6", .title = "T", .x_label = "x", .y_label = "y"};
    char *b = NULL;
    CAPTURE(b, st_svg_xy(out, &f, &s, 1));
    ck_assert_ptr_nonnull(strstr(b, ">1,445,000</text>"));
    ck_assert_ptr_null(strstr(b, ">1445000</text>"));
    free(b);
    double v = 0;
    ck_assert_int_eq(st_svg_flat(&f2, 1, 0, &v), 1);
    ck_assert(v == 42.5);
    ck_assert_int_eq(st_svg_flat(&s, 1, 0, NULL), 0);
    ck_assert_int_eq(st_svg_flat(&s, 1, 1, NULL), 0);
    st_svg_series both[2] = {f2, f2};
    ck_assert_int_eq(st_svg_flat(both, 2, 0, NULL), 1);
    both[1] = s;
    ck_assert_int_eq(st_svg_flat(both, 2, 0, NULL), 0);
}
END_TEST

/* A chart of more than eight series gives each its own colour (compare's nine policies drew
 * fifo and priority alike). */
START_TEST(test_nine_series_nine_colours)
{
    const double x[] = {0, 1}, y[] = {0, 1};
    st_svg_series s[9];
    for (int i = 0; i < 9; i++)
        s[i] = (st_svg_series){"p", x, y, 2, ST_SVG_LINE};
    st_svg_frame f = {.id = "c7", .title = "T", .x_label = "x", .y_label = "y"};
    char *b = NULL;
    CAPTURE(b, st_svg_xy(out, &f, s, 9));
    char seen[9][16];
    int n = 0;
    for (const char *p = strstr(b, "<polyline"); p; p = strstr(p + 1, "<polyline")) {
        const char *c = strstr(p, "stroke=\"");
        ck_assert_ptr_nonnull(c);
        ck_assert_int_lt(n, 9);
        snprintf(seen[n], sizeof seen[n], "%.7s", c + 8);
        for (int k = 0; k < n; k++)
            ck_assert_str_ne(seen[k], seen[n]);
        n++;
    }
    ck_assert_int_eq(n, 9);
    free(b);
}
END_TEST

Suite *svg_suite(void)
{
    Suite *s = suite_create("svg");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_text_is_escaped);
    tcase_add_test(tc, test_ticks_are_round_and_cover_the_data);
    tcase_add_test(tc, test_flat_and_near_flat_ranges_draw);
    tcase_add_test(tc, test_log_axes_tick_at_powers_of_ten);
    tcase_add_test(tc, test_bars_show_totals_and_limits);
    tcase_add_test(tc, test_big_ticks_are_grouped_and_flat_series_are_told);
    tcase_add_test(tc, test_nine_series_nine_colours);
    suite_add_tcase(s, tc);
    return s;
}
