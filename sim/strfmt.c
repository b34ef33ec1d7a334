/* Formatting into a string of the text's own length (strfmt.h). */
#include "sim/strfmt.h"

#include <stdio.h>

#include "sim/xalloc.h"

char *st_xvasprintf(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        ST_BUG("the format '%s' does not print", fmt);
    char *s = st_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *st_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = st_xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

const char *st_plural_s(long long n)
{
    return n == 1 ? "" : "s";
}
