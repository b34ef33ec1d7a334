/* Allocation that aborts on exhaustion, and the ST_BUG reporter. */
#include "sim/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void oom(size_t n)
{
    fprintf(stderr, "strata: out of memory (allocating %zu bytes)\n", n);
    abort();
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
