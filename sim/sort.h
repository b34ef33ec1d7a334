/* qsort that first checks whether the array is in order already. */
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

#endif
