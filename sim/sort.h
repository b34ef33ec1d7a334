/* qsort that first checks whether the array is in order already; an ascending sort of doubles
 * that costs linear time. */
#ifndef ST_SIM_SORT_H
#define ST_SIM_SORT_H

#include <stddef.h>

/* Sort base[0..n) (elements of `size` bytes) by cmp, as qsort does, unless a pass finds it in
 * order already (cmp of each neighbour pair <= 0): the arrays the models sort (a step pattern's
 * ranks, a job's GPUs by rack) nearly always are, and the pass costs n comparisons where qsort
 * costs a library call and n log n. The result is qsort's whenever elements that compare equal
 * are identical, which the callers ensure; otherwise equal elements may keep an order qsort
 * would not give them. */
void st_sort_unless_sorted(void *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *));

/* Sort v[0..n) ascending by value (no NaN: an ST_BUG). The result is the one any correct sort
 * gives, to the bit: equal values are equal bits, except -0.0 and +0.0, which compare equal
 * (-0.0 comes first). A radix sort of the values' bits, six passes of 11 bits each
 * (passes over a digit all values share are skipped): a large array sorts in linear time, where
 * a comparison sort (GSL's gsl_sort is a heapsort) made a quantile over 82,000 job waits cost
 * more than the scheduling run that produced them. Allocates n doubles of scratch (aborts when
 * out of memory, as st_xmalloc does). */
void st_sort_doubles(double *v, size_t n);

/* Reorder v[0..n) (no NaN) so that v[k] is the value a sort would put there, every value
 * before it is not above it and every value after it is not below it (k < n, else an ST_BUG).
 * Quickselect with a three-way partition (Hoare, "Algorithm 65: Find", CACM 4(7), 1961; the
 * Dutch national flag for runs of equal values), median-of-three pivots, and a sort of the part
 * left once it takes more rounds than a logarithmic bound (so the worst case stays n log n):
 * expected linear time, for the few order statistics a quantile needs. */
void st_select_doubles(double *v, size_t n, size_t k);

/* The median of v[0..n) (no NaN), the mean of the middle two for even n, reordering v
 * (st_select_doubles); NaN when n is 0. */
double st_median_doubles(double *v, size_t n);

#endif
