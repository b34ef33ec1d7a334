/* The max-min solver's pool of edge lists (maxmin_internal.h): lists of 8 << c edges (class c)
 * cut from 2 MiB slabs, recycled through a free list per class, and released with the solver in
 * one pass over its slabs. */
#include <stdlib.h>

#include "models/fabric/maxmin_internal.h"
#include "sim/xalloc.h"

/* A slab's bytes: a huge page (st_xmalloc_huge), so the lists that adds and fills read at random
 * sit on few TLB entries. A list of half a slab or more is allocated on its own. */
#define SLAB ((size_t)2 << 20)

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
        p->next = st_xmalloc_huge(SLAB);
        p->left = SLAB;
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
