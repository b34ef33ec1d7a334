/* The max-min solver's pool of edge lists (maxmin_internal.h): lists of 8 << c edges (class c)
 * cut from slabs of 64 KiB growing to 2 MiB, recycled through a free list per class, and
 * released with the solver in one pass over its slabs. */
#include <stdlib.h>

#include "models/fabric/maxmin_internal.h"
#include "sim/xalloc.h"

/* A solver's first slab is small and each next one twice as large, up to a huge page
 * (st_xmalloc_huge), so that a large solver's lists, which adds and fills read at random, sit on
 * few TLB entries, and a small one's few lists do not cost a 2 MiB page zeroed (bench_maxmin's
 * disjoint-1e4 case, 128 KiB of lists, took a quarter longer with one). A list of half the
 * largest slab or more is allocated on its own. */
#define SLAB_MIN ((size_t)64 << 10)
#define SLAB     ((size_t)2 << 20)

static size_t class_bytes(int c)
{
    return ((size_t)8 << c) * sizeof(mm_edge);
}

int st__mm_pool_class(size_t n)
{
    int c = 0;
    while (((size_t)8 << c) < n)
        c++;
    if (c >= MM_POOL_CLASSES)
        ST_BUG("edge list of %zu edges", n);
    return c;
}

/* Note block b (a slab, or a list of its own) for st__mm_pool_release. */
static void keep_block(mm_pool *p, void *b)
{
    p->block = st_xgrow(p->block, sizeof *p->block, p->n_block + 1, &p->block_cap);
    p->block[p->n_block++] = b;
}

mm_edge *st__mm_pool_get(mm_pool *p, int c)
{
    mm_edge *e = p->free[c];
    if (e) { /* the next free list of the class is in the first one's first bytes */
        p->free[c] = *(mm_edge **)(void *)e;
        return e;
    }
    size_t b = class_bytes(c);
    if (b >= SLAB / 2) {
        e = st_xmalloc_huge(b);
        keep_block(p, e);
        return e;
    }
    if (p->left < b) { /* the rest of the slab, less than a list of this class, is left unused */
        size_t s = p->slab ? p->slab : SLAB_MIN;
        while (s < 2 * b)
            s *= 2;
        if (s >= SLAB / 2) /* st_xmalloc_huge rounds 1 MiB to a huge page: take all of it */
            s = SLAB;
        p->next = st_xmalloc_huge(s);
        p->left = s;
        p->slab = s < SLAB ? 2 * s : SLAB;
        keep_block(p, p->next);
    }
    e = (mm_edge *)(void *)p->next;
    p->next += b;
    p->left -= b;
    return e;
}

void st__mm_pool_put(mm_pool *p, mm_edge *e, int c)
{
    *(mm_edge **)(void *)e = p->free[c];
    p->free[c] = e;
}

void st__mm_pool_release(mm_pool *p)
{
    for (size_t i = 0; i < p->n_block; i++)
        free(p->block[i]);
    free(p->block);
    *p = (mm_pool){0};
}
