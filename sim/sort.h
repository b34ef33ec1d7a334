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

#endif
