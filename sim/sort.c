/* qsort that first checks whether the array is in order already, and a radix sort of doubles
 * (sim/sort.h). */
#include "sim/sort.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

void st_sort_unless_sorted(void *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *))
{
    const char *p = base;
    for (size_t i = 1; i < n; i++)
        if (cmp(p + (i - 1) * size, p + i * size) > 0) {
            qsort(base, n, size, cmp);
            return;
        }
}

/* A double's bits as an unsigned key in the values' order: a positive value's sign bit set, a
 * negative value's bits all flipped (so that larger magnitudes sort first). -0.0 sorts just
 * before +0.0, an order a comparison sort may give them too (they compare equal). */
static uint64_t key_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static double value_of(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

enum { RADIX_BITS = 11, RADIX = 1 << RADIX_BITS, PASSES = 6 }; /* 6 x 11 >= 64 bits */

/* Small arrays: insertion sort on the keys, cheaper than the passes' histograms. */
static void insertion(uint64_t *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = k[i];
        size_t j = i;
        for (; j > 0 && k[j - 1] > x; j--)
            k[j] = k[j - 1];
        k[j] = x;
    }
}

/* LSD radix sort of k[0..n) with scratch t: stable per pass, so the keys end ascending. The
 * histograms of all passes are taken in one read of the keys. */
static void radix(uint64_t *k, uint64_t *t, size_t n)
{
    static const int shift[PASSES] = {0, 11, 22, 33, 44, 55};
    size_t *count = st_xcalloc((size_t)PASSES * RADIX, sizeof *count);
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < PASSES; p++)
            count[p * RADIX + ((k[i] >> shift[p]) & (RADIX - 1))]++;
    uint64_t *from = k, *to = t;
    for (int p = 0; p < PASSES; p++) {
        size_t *c = count + p * RADIX, sum = 0;
        if (c[(from[0] >> shift[p]) & (RADIX - 1)] == n)
            continue; /* every key has this digit: the pass would leave the order as it is */
        for (size_t d = 0; d < RADIX; d++) {
            size_t m = c[d];
            c[d] = sum;
            sum += m;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i] >> shift[p]) & (RADIX - 1)]++] = from[i];
        uint64_t *x = from;
        from = to;
        to = x;
    }
    if (from != k)
        memcpy(k, from, n * sizeof *k);
    free(count);
}

static void swap(double *v, size_t a, size_t b)
{
    double t = v[a];
    v[a] = v[b];
    v[b] = t;
}

/* The middle value of v[a], v[b], v[c]. */
static double median3(const double *v, size_t a, size_t b, size_t c)
{
    double x = v[a], y = v[b], z = v[c];
    if (x < y)
        return y < z ? y : x < z ? z : x;
    return x < z ? x : y < z ? z : y;
}

/* Partition v[lo..hi) around p: values below p to [lo, *lt), equal to [*lt, *gt), above to
 * [*gt, hi) (Dijkstra's three-way partition). */
static void partition3(double *v, size_t lo, size_t hi, double p, size_t *lt, size_t *gt)
{
    size_t i = lo, a = lo, b = hi;
    while (i < b) {
        if (v[i] < p)
            swap(v, a++, i++);
        else if (v[i] > p)
            swap(v, i, --b);
        else
            i++;
    }
    *lt = a;
    *gt = b;
}

void st_select_doubles(double *v, size_t n, size_t k)
{
    if (k >= n)
        ST_BUG("order statistic %zu of %zu values", k, n);
    if (k == 0) { /* the least: one scan (a quantile's second order statistic is often it) */
        size_t m = 0;
        for (size_t i = 1; i < n; i++)
            m = v[i] < v[m] ? i : m;
        swap(v, 0, m);
        return;
    }
    size_t lo = 0, hi = n, rounds = 8;
    for (size_t m = n; m > 1; m >>= 1)
        rounds += 2; /* 2 log2 n + 8 rounds, then a sort of what is left */
    while (hi - lo > 16) {
        if (rounds-- == 0) {
            st_sort_doubles(v + lo, hi - lo);
            return;
        }
        size_t lt, gt;
        partition3(v, lo, hi, median3(v, lo, lo + (hi - lo) / 2, hi - 1), &lt, &gt);
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return; /* v[k] equals the pivot, in its place */
    }
    for (size_t i = lo + 1; i < hi; i++) /* a few left: insertion sort */
        for (size_t j = i; j > lo && v[j - 1] > v[j]; j--)
            swap(v, j - 1, j);
}

void st_sort_doubles(double *v, size_t n)
{
    if (n < 2)
        return;
    uint64_t *k = st_xmalloc(2 * n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            ST_BUG("NaN in a sort of doubles");
        k[i] = key_of(v[i]);
    }
    if (n < 64)
        insertion(k, n);
    else
        radix(k, k + n, n);
    for (size_t i = 0; i < n; i++)
        v[i] = value_of(k[i]);
    free(k);
}

double st_median_doubles(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    st_select_doubles(v, n, n / 2);
    double hi = v[n / 2];
    if (n % 2)
        return hi;
    double lo = v[0]; /* the largest of the lower half, which selection left before n / 2 */
    for (size_t i = 1; i < n / 2; i++)
        lo = v[i] > lo ? v[i] : lo;
    return (lo + hi) / 2;
}
