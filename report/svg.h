/* Charts as inline SVG (SVG 1.1, W3C): axes with round ticks, lines, dots, an empirical CDF and
 * horizontal stacked bars, each one <svg> element with an id, written to a stream. Plain data in,
 * text out: the writer knows no model and no report, so any report can draw with it. The same
 * input always gives the same bytes (fixed decimals, no clock, no locale: the caller runs in the
 * C locale, as strata does). */
#ifndef ST_REPORT_SVG_H
#define ST_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How a series is drawn. */
typedef enum st_svg_style { ST_SVG_LINE, ST_SVG_DOTS, ST_SVG_LINE_DOTS } st_svg_style;

/* One series: n points (x[i], y[i]), named in the legend (NULL: no legend entry). Points with a
 * non-finite coordinate are skipped. */
typedef struct st_svg_series {
    const char *name;
    const double *x, *y;
    size_t n;
    st_svg_style style;
} st_svg_series;

/* A chart's frame: the <svg> element's id (unique in the document), its title and axis labels
 * (units in the labels: the writer scales nothing), and its size in px (0: 760 x 320). */
typedef struct st_svg_frame {
    const char *id, *title, *x_label, *y_label;
    int width, height;
    int y_from_zero;  /* the y axis includes 0 */
    int x_from_zero;  /* the x axis includes 0 */
    int log_x, log_y; /* logarithmic axes (st_svg_xy; points at or below 0 are then skipped) */
    /* st_svg_xy: NULL, or the x axis is n_x_ticks categories, x = k drawn at x_ticks[k]'s tick
     * (the values of a sweep axis that are not numbers) */
    const char *const *x_ticks;
    size_t n_x_ticks;
    /* st_svg_xy: above 0, the most the y axis may show when no point passes it (a share's 100%:
     * a flat 100% series is not drawn on an axis up to 110%) */
    double y_cap;
} st_svg_frame;

/* The factor that puts values of at most top (seconds, or watts with power) into a unit that
 * reads at their size on an axis, and that unit into *unit: s, min, h or days; W, kW or MW.
 * So a 12-minute wall time is not drawn on an axis of days from 0.005 to 0.045. */
double st_svg_time_unit(double top, const char **unit);
double st_svg_power_unit(double top, const char **unit);

/* Whether every finite coordinate of the series (their y, or with of_x their x) is the same
 * value, *v (NaN where none is finite): a chart of it would be a frame with one flat line or
 * one vertical step, which the reports replace with a sentence (docs/guide/reports.md). */
int st_svg_flat(const st_svg_series *s, size_t n, int of_x, double *v);

/* Line and dot series on linear axes fitted to every series' points. */
void st_svg_xy(FILE *out, const st_svg_frame *f, const st_svg_series *s, size_t n);

/* Each series' x[0..n) as an empirical CDF (y ignored): the share of values at most x, a step
 * line from 0 to 1. Over 1000 values, the steps are drawn at every 1/1000 of the sorted values. */
void st_svg_cdf(FILE *out, const st_svg_frame *f, const st_svg_series *s, size_t n);

/* Horizontal stacked bars: one bar per category, made of n_parts parts, v[c * n_parts + p]
 * (negative or non-finite parts count as 0), its total written at its end. limit[c] (NULL, or NaN
 * for none) is a dashed mark on category c's bar, named limit_name in the legend. */
typedef struct st_svg_bars {
    const char *const *cats;
    size_t n_cats;
    const char *const *parts;
    size_t n_parts;
    const double *v;
    const double *limit;
    const char *limit_name;
} st_svg_bars;

void st_svg_bars_chart(FILE *out, const st_svg_frame *f, const st_svg_bars *b);

#endif
