/* The SVG chart writer (svg.h). Ticks are round numbers (1, 2 or 5 times a power of ten, about
 * five a axis: the "nice numbers" of Heckbert, "Nice Numbers for Graph Labels", Graphics Gems,
 * 1990); colours are the Okabe-Ito palette, told apart by colour-blind readers (Okabe and Ito,
 * "Color Universal Design", 2008). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "report/svg.h"
#include "report/xml.h"
#include "sim/xalloc.h"

/* Okabe-Ito's eight, then for a ninth series on (compare's nine policies) eight of Paul Tol's
 * "muted" scheme (Tol, "Colour Schemes", SRON/EPS/TN/09-002, 2021), chosen apart from the first
 * eight: no two series of a chart share a colour up to sixteen, and a line past the eighth is
 * dashed too, so the two sets are told apart by more than hue. */
static const char *const palette[] = {
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442",
    "#332288", "#882255", "#117733", "#999933", "#AA4499", "#44AA99", "#DDCC77", "#CC6677"};
#define N_PALETTE (sizeof palette / sizeof palette[0])
enum { N_OKABE_ITO = 8 };

enum { TOP = 34, RIGHT = 18, X_LABEL = 40, LEGEND_ROW = 18, CHAR_PX = 7 };

/* A linear axis from lo to hi with ticks every step, or a logarithmic one (log set) whose lo and
 * hi are powers of ten, ticked at 1, 2 and 5 times each power when it spans few decades. */
typedef struct axis {
    double lo, hi, step;
    int log;
} axis;

/* The plot area in px and its two axes. */
typedef struct plot {
    int w, h, x0, x1, y0, y1;
    axis ax, ay;
} plot;

static double nice_step(double span)
{
    double raw = span / 5, mag = pow(10, floor(log10(raw))), m = raw / mag;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * mag;
}

/* Round [lo, hi] out to whole ticks; an empty or flat range gets some width. */
static axis axis_of(double lo, double hi, int from_zero)
{
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    if (from_zero) {
        lo = fmin(lo, 0);
        hi = fmax(hi, 0);
    }
    /* A span under a millionth of the values is flat: its ticks would be lost in the doubles'
     * rounding. */
    if (!(hi - lo > 1e-6 * fmax(fabs(lo), fabs(hi))) || !(hi - lo > 1e-300)) {
        double d = fabs(hi) > 0 ? fabs(hi) / 10 : 1;
        lo = from_zero && lo >= 0 ? 0 : lo - d; /* all zeros from zero: [0, 1] */
        hi += d;
    }
    axis a = {.step = nice_step(hi - lo)};
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    return a;
}

/* Where v falls along axis a, from 0 to 1. */
static double at(const axis *a, double v)
{
    if (a->log)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static double px(const plot *p, double x)
{
    return p->x0 + at(&p->ax, x) * (p->x1 - p->x0);
}

static double py(const plot *p, double y)
{
    return p->y1 - at(&p->ay, y) * (p->y1 - p->y0);
}

static axis log_axis(double lo, double hi)
{
    if (!(lo > 0 && lo <= hi))
        lo = hi = 1;
    axis a = {.lo = pow(10, floor(log10(lo))), .hi = pow(10, ceil(log10(hi))), .log = 1};
    if (a.hi <= a.lo)
        a.hi = a.lo * 10;
    return a;
}

/* The next tick after v on axis a. */
static double next_tick(const axis *a, double v)
{
    if (!a->log)
        return v + a->step;
    double mag = pow(10, floor(log10(v) + 1e-9)), m = v / mag;
    if (log10(a->hi / a->lo) > 3.5) /* many decades: the powers of ten alone */
        return mag * 10;
    return m < 1.5 ? 2 * mag : m < 3.5 ? 5 * mag : 10 * mag;
}

static int tick_in(const axis *a, double v)
{
    return a->log ? v <= a->hi * (1 + 1e-9) : v <= a->hi + a->step * 1e-6;
}

/* A tick value: 4 significant digits, and 0 where rounding left a trace of the step; a whole
 * number from 10,000 up to 10^9 with its thousands set apart by commas, as the reports' tables
 * write one (1,445,000, not 1445000: docs/guide/reports.md); past it, 1e+09. */
static void tick_text(char *buf, size_t n, double v, double step)
{
    v = fabs(v) < step * 1e-9 ? 0.0 : v;
    if (!(v == floor(v) && fabs(v) >= 1e4 && fabs(v) < 1e9)) {
        snprintf(buf, n, v == floor(v) && fabs(v) < 1e9 ? "%.0f" : "%.4g", v);
        return;
    }
    st_fig_grouped(v, buf, n); /* as the tables group a whole number */
}

/* Legend rows needed for the names (NULL ones skipped) in width w. */
static int legend_rows(const char *const *names, size_t n, int w)
{
    int rows = 0, x = w;
    for (size_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        int iw = 30 + CHAR_PX * (int)strlen(names[i]);
        if (x + iw > w - RIGHT) {
            rows++;
            x = 10;
        }
        x += iw;
    }
    return rows;
}

static void legend(FILE *out, const plot *p, const char *const *names, const char *const *colors,
                   const int *dashed, size_t n)
{
    int x = p->w, y = p->y1 + X_LABEL - LEGEND_ROW / 2;
    for (size_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        int iw = 30 + CHAR_PX * (int)strlen(names[i]);
        if (x + iw > p->w - RIGHT) {
            x = 10;
            y += LEGEND_ROW;
        }
        fprintf(out,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>"
                "<text x=\"%d\" y=\"%d\" class=\"legend\">",
                x, y - 4, x + 18, y - 4, colors[i], dashed[i] ? " stroke-dasharray=\"4 3\"" : "",
                x + 22, y);
        st_xml_text(out, names[i]);
        fputs("</text>", out);
        x += iw;
    }
}

static void begin(FILE *out, const st_svg_frame *f, int w, int h)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>",
            f->id, w, h, w, h);
    st_xml_text(out, f->title);
    fprintf(out,
            "</title><rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>"
            "<text x=\"10\" y=\"20\" class=\"title\">",
            w, h);
    st_xml_text(out, f->title);
    fputs("</text>", out);
}

/* The grid, the ticks and the axis labels; y ticks only when grid_y. */
static void axes(FILE *out, const plot *p, const st_svg_frame *f, int ticks_y)
{
    char t[40];
    fputs("<g class=\"axes\">", out);
    for (size_t c = 0; c < f->n_x_ticks; c++) {
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                px(p, (double)c), p->y0, px(p, (double)c), p->y1, px(p, (double)c), p->y1 + 15);
        st_xml_text(out, f->x_ticks[c]);
        fputs("</text>", out);
    }
    int k = 0; /* a bound on the ticks, whatever the axis */
    for (double v = p->ax.lo; !f->n_x_ticks && tick_in(&p->ax, v) && k < 64;
         v = next_tick(&p->ax, v), k++) {
        tick_text(t, sizeof t, v, p->ax.step);
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                px(p, v), p->y0, px(p, v), p->y1, px(p, v), p->y1 + 15, t);
    }
    k = 0;
    for (double v = p->ay.lo; ticks_y && tick_in(&p->ay, v) && k < 64;
         v = next_tick(&p->ay, v), k++) {
        tick_text(t, sizeof t, v, p->ay.step);
        fprintf(out,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                p->x0, py(p, v), p->x1, py(p, v), p->x0 - 5, py(p, v) + 4, t);
    }
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>"
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"label\">",
            p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0, (p->x0 + p->x1) / 2, p->y1 + 32);
    st_xml_text(out, f->x_label);
    fputs("</text>", out);
    if (f->y_label) {
        int cy = (p->y0 + p->y1) / 2;
        fprintf(out,
                "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" class=\"label\" "
                "transform=\"rotate(-90 14 %d)\">",
                cy, cy);
        st_xml_text(out, f->y_label);
        fputs("</text>", out);
    }
    fputs("</g>", out);
}

static void frame_size(const st_svg_frame *f, int *w, int *h)
{
    *w = f->width > 0 ? f->width : 760;
    *h = f->height > 0 ? f->height : 320;
}

/* The range of the series' x (or y) over the points drawn; only positive values when log. */
static void series_range(const st_svg_series *s, size_t n, double *lo, double *hi, int y, int log)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].n; k++) {
            double x = s[i].x[k], v = y ? s[i].y[k] : x;
            if (!isfinite(x) || !isfinite(s[i].y[k]) || (log && !(v > 0)))
                continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
}

/* Whether point k of s can be drawn on p's axes. */
static int drawable(const plot *p, const st_svg_series *s, size_t k)
{
    double x = s->x[k], y = s->y[k];
    return isfinite(x) && isfinite(y) && (!p->ax.log || x > 0) && (!p->ay.log || y > 0);
}

static void draw_series(FILE *out, const plot *p, const st_svg_series *s, const char *color,
                        int dashed)
{
    if (s->style != ST_SVG_DOTS) {
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"",
                color, dashed ? " stroke-dasharray=\"6 3\"" : "");
        for (size_t k = 0, first = 1; k < s->n; k++)
            if (drawable(p, s, k)) {
                fprintf(out, "%s%.1f,%.1f", first ? "" : " ", px(p, s->x[k]), py(p, s->y[k]));
                first = 0;
            }
        fputs("\"/>", out);
    }
    for (size_t k = 0; s->style != ST_SVG_LINE && k < s->n; k++)
        if (drawable(p, s, k))
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", px(p, s->x[k]),
                    py(p, s->y[k]), color);
}

/* The plot of frame f with room for the legend of names. */
static plot layout(const st_svg_frame *f, const char *const *names, size_t n, int left)
{
    plot p;
    frame_size(f, &p.w, &p.h);
    p.x0 = left;
    p.x1 = p.w - RIGHT;
    p.y0 = TOP;
    p.y1 = p.h - X_LABEL - LEGEND_ROW * legend_rows(names, n, p.w);
    if (p.y1 < p.y0 + 40) { /* a legend that long grows the chart rather than the plot shrinking */
        p.h += p.y0 + 40 - p.y1;
        p.y1 = p.y0 + 40;
    }
    return p;
}

void st_svg_xy(FILE *out, const st_svg_frame *f, const st_svg_series *s, size_t n)
{
    const char **names = st_xcalloc(n ? n : 1, sizeof *names), **colors = NULL;
    int *dashed = st_xcalloc(n ? n : 1, sizeof *dashed);
    colors = st_xcalloc(n ? n : 1, sizeof *colors);
    for (size_t i = 0; i < n; i++) {
        names[i] = s[i].name;
        colors[i] = palette[i % N_PALETTE];
        dashed[i] = i % N_PALETTE >= N_OKABE_ITO;
    }
    plot p = layout(f, names, n, 78);
    double lo, hi;
    series_range(s, n, &lo, &hi, 0, f->log_x);
    p.ax = f->log_x ? log_axis(lo, hi) : axis_of(lo, hi, f->x_from_zero);
    if (f->n_x_ticks) /* categories: half a category's width either side of the first and last */
        p.ax = (axis){.lo = -0.5, .hi = (double)f->n_x_ticks - 0.5, .step = 1};
    series_range(s, n, &lo, &hi, 1, f->log_y);
    p.ay = f->log_y ? log_axis(lo, hi) : axis_of(lo, hi, f->y_from_zero);
    if (!f->log_y && f->y_cap > 0 && hi <= f->y_cap && p.ay.hi > f->y_cap) {
        p.ay.hi = f->y_cap; /* ticks stay on the step: the cap is a whole number of them below */
        p.ay.lo = fmin(p.ay.lo, p.ay.hi - p.ay.step);
    }
    begin(out, f, p.w, p.h);
    axes(out, &p, f, 1);
    for (size_t i = 0; i < n; i++)
        draw_series(out, &p, &s[i], colors[i], dashed[i]);
    legend(out, &p, names, colors, dashed, n);
    fputs("</svg>\n", out);
    free(names);
    free(colors);
    free(dashed);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Series i's values as CDF steps: (v_k, k/m) and (v_k, (k+1)/m) for the kept values. */
static void cdf_steps(const st_svg_series *s, double **xs, double **ys, size_t *n)
{
    double *v = st_xmalloc((s->n ? s->n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t k = 0; k < s->n; k++)
        if (isfinite(s->x[k]))
            v[m++] = s->x[k];
    qsort(v, m, sizeof *v, cmp_double);
    size_t steps = m > 1000 ? 1000 : m;
    *xs = st_xmalloc((2 * steps + 1) * sizeof **xs);
    *ys = st_xmalloc((2 * steps + 1) * sizeof **ys);
    *n = 0;
    for (size_t k = 0; k < steps; k++) {
        size_t at = steps == m ? k : (size_t)((double)(k + 1) / (double)steps * (double)m) - 1;
        double below = steps == m ? (double)k / (double)m : (double)k / (double)steps;
        double upto = steps == m ? (double)(k + 1) / (double)m : (double)(k + 1) / (double)steps;
        (*xs)[*n] = v[at];
        (*ys)[(*n)++] = below;
        (*xs)[*n] = v[at];
        (*ys)[(*n)++] = upto;
    }
    free(v);
}

int st_svg_flat(const st_svg_series *s, size_t n, int of_x, double *v)
{
    double first = NAN;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].n; k++) {
            double c = of_x ? s[i].x[k] : s[i].y[k];
            if (!isfinite(c) || !isfinite(of_x ? s[i].y[k] : s[i].x[k]))
                continue;
            if (isnan(first))
                first = c;
            else if (c != first)
                return 0;
        }
    if (v)
        *v = first;
    return 1;
}

void st_svg_cdf(FILE *out, const st_svg_frame *f, const st_svg_series *s, size_t n)
{
    st_svg_series *steps = st_xcalloc(n ? n : 1, sizeof *steps);
    for (size_t i = 0; i < n; i++) {
        double *xs, *ys;
        size_t m;
        cdf_steps(&s[i], &xs, &ys, &m);
        steps[i] = (st_svg_series){s[i].name, xs, ys, m, ST_SVG_LINE};
    }
    st_svg_frame fr = *f;
    fr.y_from_zero = 1;
    st_svg_xy(out, &fr, steps, n);
    for (size_t i = 0; i < n; i++) {
        free((void *)steps[i].x);
        free((void *)steps[i].y);
    }
    free(steps);
}

static double part(const st_svg_bars *b, size_t c, size_t k)
{
    double v = b->v[c * b->n_parts + k];
    return isfinite(v) && v > 0 ? v : 0;
}

/* The legend's names, colours and dash marks: the parts, then the limit when one is drawn. */
static size_t bar_legend(const st_svg_bars *b, const char **names, const char **colors, int *dashed)
{
    size_t n = 0;
    for (size_t k = 0; k < b->n_parts; k++, n++) {
        names[n] = b->parts[k];
        colors[n] = palette[k % N_PALETTE];
        dashed[n] = 0;
    }
    for (size_t c = 0; b->limit && c < b->n_cats; c++)
        if (isfinite(b->limit[c])) {
            names[n] = b->limit_name;
            colors[n] = "#444444";
            dashed[n++] = 1;
            break;
        }
    return n;
}

static void bar_row(FILE *out, const plot *p, const st_svg_bars *b, size_t c, int y)
{
    double at = 0;
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", p->x0 - 6, y + 12);
    st_xml_text(out, b->cats[c]);
    fputs("</text>", out);
    for (size_t k = 0; k < b->n_parts; k++) {
        double v = part(b, c, k);
        if (v > 0)
            fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>",
                    px(p, at), y, px(p, at + v) - px(p, at), palette[k % N_PALETTE]);
        at += v;
    }
    char label[40]; /* 14,270 from 10,000 up, as the tables show money: not 1.427e+04 */
    if (fabs(at) >= 1e4 && fabs(at) < 1e15) {
        snprintf(label, sizeof label, "%.4g", at);
        st_fig_grouped(strtod(label, NULL), label, sizeof label);
    } else {
        snprintf(label, sizeof label, "%.4g", at);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"value\">%s</text>", px(p, at) + 4, y + 12,
            label);
    if (b->limit && isfinite(b->limit[c]))
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444444\" "
                "stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
                px(p, b->limit[c]), y - 4, px(p, b->limit[c]), y + 20);
}

void st_svg_bars_chart(FILE *out, const st_svg_frame *f, const st_svg_bars *b)
{
    size_t nl = b->n_parts + 1, longest = 4;
    const char **names = st_xcalloc(nl, sizeof *names), **colors = st_xcalloc(nl, sizeof *colors);
    int *dashed = st_xcalloc(nl, sizeof *dashed);
    nl = bar_legend(b, names, colors, dashed);
    double hi = 0;
    for (size_t c = 0; c < b->n_cats; c++) {
        double t = 0;
        for (size_t k = 0; k < b->n_parts; k++)
            t += part(b, c, k);
        hi = fmax(hi, t);
        if (b->limit && isfinite(b->limit[c]))
            hi = fmax(hi, b->limit[c]);
        longest = strlen(b->cats[c]) > longest ? strlen(b->cats[c]) : longest;
    }
    st_svg_frame fr = *f;
    int w, h;
    frame_size(f, &w, &h);
    fr.height = TOP + 26 * (int)b->n_cats + 12 + X_LABEL + LEGEND_ROW * legend_rows(names, nl, w);
    int left = 12 + CHAR_PX * (int)longest;
    plot p = layout(&fr, names, nl, left < 60 ? 60 : left > 260 ? 260 : left);
    p.ax = axis_of(0, hi * 1.08, 1); /* room for the totals at the bars' ends */
    p.ay = axis_of(0, 1, 1);
    begin(out, &fr, p.w, p.h);
    axes(out, &p, &fr, 0);
    for (size_t c = 0; c < b->n_cats; c++)
        bar_row(out, &p, b, c, p.y0 + 8 + 26 * (int)c);
    legend(out, &p, names, colors, dashed, nl);
    fputs("</svg>\n", out);
    free(names);
    free(colors);
    free(dashed);
}

double st_svg_time_unit(double top, const char **unit)
{
    if (top >= 2 * 86400.0)
        return *unit = "days", 1 / 86400.0;
    if (top >= 2 * 3600.0)
        return *unit = "h", 1 / 3600.0;
    if (top >= 120)
        return *unit = "min", 1 / 60.0;
    return *unit = "s", 1;
}

double st_svg_power_unit(double top, const char **unit)
{
    if (top >= 1e6)
        return *unit = "MW", 1e-6;
    if (top >= 1e3)
        return *unit = "kW", 1e-3;
    return *unit = "W", 1;
}
