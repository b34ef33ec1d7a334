/* qsort that first checks whether the array is in order already (sim/sort.h). */
#include "sim/sort.h"

#include <stdlib.h>

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
