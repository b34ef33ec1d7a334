/* Allocation that exits (status 1) on exhaustion, and the ST_BUG reporter. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE, a Linux extension */
#include "sim/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* A transparent huge page on x86-64 and most Linux ports: st_xmalloc_huge's alignment. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Out of memory is the machine's limit, not a bug: say so and exit 1 (a simulation that could
 * not run, as the commands' exit statuses say), not abort() as a crash would. Outputs are
 * written atomically (a temporary file renamed into place), so none is left half-written. */
static _Noreturn void oom(size_t n)
{
    fprintf(stderr,
            "strata: out of memory (allocating %zu bytes): the scenario needs more memory than "
            "this machine gives; a smaller cluster (nodes), fewer jobs or replicas need less\n",
            n);
    exit(1);
}

void *st_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *st_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        oom(count * size);
    return p;
}

void *st_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

void *st_xmalloc_huge(size_t n)
{
    if (n < HUGE_PAGE / 2) /* a huge page would be mostly waste */
        return st_xmalloc(n);
    size_t r = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, r);
    if (!p)
        oom(r);
#if defined(MADV_HUGEPAGE)
    (void)madvise(p, r, MADV_HUGEPAGE); /* a hint: refused, the pages are plain ones */
#endif
    return p;
}

void *st_xrealloc_huge(void *p, size_t old, size_t n)
{
    if (n < HUGE_PAGE / 2)
        return st_xrealloc(p, n);
    void *q = st_xmalloc_huge(n);
    if (p)
        memcpy(q, p, old < n ? old : n);
    free(p);
    return q;
}

char *st_xstrdup(const char *s)
{
    return st_xstrndup(s, strlen(s));
}

char *st_xstrndup(const char *s, size_t n)
{
    char *d = st_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void *st__xgrow(void *p, size_t size, size_t need, size_t *cap)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    if (c > ((size_t)-1) / size)
        oom((size_t)-1);
    *cap = c;
    return st_xrealloc(p, c * size);
}

void st__bug(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "strata: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
