/* Statistics records: Welford tallies, time-weighted averages, quantiles over stored samples
 * (GSL's definition, over samples sorted by sim/sort.c's radix sort, or with only the order
 * statistics a quantile reads selected). */
#include "sim/stats.h"

#include <math.h>
#include <stdlib.h>

#include "sim/sort.h"
#include "sim/xalloc.h"

void st_tally_init(st_tally *t)
{
    t->n = 0;
    t->mean = t->m2 = 0.0;
    t->min = INFINITY;
    t->max = -INFINITY;
}

void st_tally_add(st_tally *t, double x)
{
    if (isnan(x))
        ST_BUG("NaN observation");
    t->n++;
    double d = x - t->mean;
    t->mean += d / (double)t->n;
    t->m2 += d * (x - t->mean);
    if (x < t->min)
        t->min = x;
    if (x > t->max)
        t->max = x;
}

double st_tally_mean(const st_tally *t)
{
    return t->n ? t->mean : 0.0;
}

double st_tally_min(const st_tally *t)
{
    return t->n ? t->min : 0.0;
}

double st_tally_max(const st_tally *t)
{
    return t->n ? t->max : 0.0;
}

double st_tally_sum(const st_tally *t)
{
    return t->mean * (double)t->n;
}

double st_tally_var(const st_tally *t)
{
    return t->n > 1 ? t->m2 / (double)(t->n - 1) : 0.0;
}

double st_tally_sd(const st_tally *t)
{
    return sqrt(st_tally_var(t));
}

void st_timeavg_init(st_timeavg *a, st_time t0, double v0)
{
    if (isnan(v0))
        ST_BUG("NaN initial value");
    a->t0 = a->t_last = t0;
    a->v = a->min = a->max = v0;
    a->area = 0.0;
}

void st_timeavg_set(st_timeavg *a, st_time t, double v)
{
    if (t < a->t_last)
        ST_BUG("time-weighted value set at %lld ns, before its last change at %lld ns",
               (long long)t, (long long)a->t_last);
    if (isnan(v))
        ST_BUG("NaN value");
    a->area += a->v * (double)(t - a->t_last);
    a->t_last = t;
    a->v = v;
    if (v < a->min)
        a->min = v;
    if (v > a->max)
        a->max = v;
}

void st_timeavg_add(st_timeavg *a, st_time t, double dv)
{
    st_timeavg_set(a, t, a->v + dv);
}

/* Area in value x ns up to t_end, closing the open interval without modifying a. */
static double area_to(const st_timeavg *a, st_time t_end)
{
    if (t_end < a->t_last)
        ST_BUG("time-weighted value read at %lld ns, before its last change at %lld ns",
               (long long)t_end, (long long)a->t_last);
    return a->area + a->v * (double)(t_end - a->t_last);
}

double st_timeavg_integral(const st_timeavg *a, st_time t_end)
{
    return area_to(a, t_end) / (double)ST_SEC;
}

double st_timeavg_mean(const st_timeavg *a, st_time t_end)
{
    double area = area_to(a, t_end);
    if (t_end == a->t0)
        return a->v;
    return area / (double)(t_end - a->t0);
}

void st_samples_init(st_samples *s)
{
    s->v = NULL;
    s->n = s->cap = 0;
    s->sorted = 1;
}

void st_samples_release(st_samples *s)
{
    free(s->v);
    st_samples_init(s);
}

void st_samples_reserve(st_samples *s, size_t n)
{
    if (n > s->cap) {
        s->v = st_xrealloc(s->v, n * sizeof *s->v);
        s->cap = n;
    }
}

void st_samples_add(st_samples *s, double x)
{
    if (isnan(x))
        ST_BUG("NaN sample");
    s->v = st_xgrow(s->v, sizeof *s->v, s->n + 1, &s->cap);
    s->v[s->n++] = x;
    s->sorted = 0;
}

double st_lerp(double a, double b, double t)
{
    double v = t < 0.5 ? a + (b - a) * t : b - (b - a) * (1 - t);
    return v < a ? a : v > b ? b : v;
}

/* GSL's gsl_stats_quantile_from_sorted_data (index (n - 1) q, its integer part and the next),
 * with its interpolation replaced by st_lerp. */
static double sorted_quantile(const double *v, size_t n, double q)
{
    double index = q * (double)(n - 1);
    size_t lhs = (size_t)index;
    if (lhs + 1 >= n)
        return v[n - 1];
    return st_lerp(v[lhs], v[lhs + 1], index - (double)lhs);
}

double st_samples_quantile(st_samples *s, double q)
{
    if (!(q >= 0.0 && q <= 1.0))
        ST_BUG("quantile %g outside [0, 1]", q);
    if (!s->n)
        return 0.0;
    if (!s->sorted) {
        st_sort_doubles(s->v, s->n);
        s->sorted = 1;
    }
    return sorted_quantile(s->v, s->n, q);
}

/* v[pos] becomes the value a sort would put there, given that v[0..*from) are not above any of
 * v[*from..n) and that a position below *from that is asked for was placed before. */
static void place(double *v, size_t n, size_t pos, size_t *from)
{
    if (pos < *from)
        return;
    st_select_doubles(v + *from, n - *from, pos - *from);
    *from = pos + 1;
}

void st_samples_quantiles(st_samples *s, const double *q, size_t k, double *out)
{
    size_t from = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(q[i] >= 0.0 && q[i] <= 1.0) || (i && q[i] < q[i - 1]))
            ST_BUG("quantile %g outside [0, 1] or out of order", q[i]);
        if (s->n && !s->sorted) {
            /* the order statistics sorted_quantile reads: (int)(q (n - 1)) and the one after */
            size_t lhs = (size_t)(int)(q[i] * (double)(s->n - 1));
            place(s->v, s->n, lhs, &from);
            if (lhs + 1 < s->n)
                place(s->v, s->n, lhs + 1, &from);
        }
        out[i] = s->n ? sorted_quantile(s->v, s->n, q[i]) : 0.0;
    }
}
