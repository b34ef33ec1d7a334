/* Error values: formatting and collection. */
#include "sim/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vset(st_err *e, int code, st_loc at, const char *fmt, va_list ap)
{
    e->code = code;
    e->loc = at;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int st_err_set(st_err *e, int code, st_loc at, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vset(e, code, at, fmt, ap);
        va_end(ap);
    }
    return code;
}

int st_err_format(const st_err *e, char *buf, size_t n)
{
    const st_loc *l = &e->loc;
    if (l->file && l->line)
        return snprintf(buf, n, "%s:%u:%u: error: %s", l->file, l->line, l->col, e->msg);
    if (l->file)
        return snprintf(buf, n, "%s: error: %s", l->file, e->msg);
    return snprintf(buf, n, "error: %s", e->msg);
}

const char *st_strerror(int code)
{
    switch (code) {
#define ST__ERR_CASE(name, value, text)                                                            \
    case value:                                                                                    \
        return text;
        ST_ERRORS(ST__ERR_CASE)
#undef ST__ERR_CASE
    }
    return "unknown error";
}

int st_diag_add(st_diag *d, int code, st_loc at, const char *fmt, ...)
{
    if (d->n >= ST_DIAG_MAX) {
        d->dropped++;
        return code;
    }
    va_list ap;
    va_start(ap, fmt);
    vset(&d->items[d->n++], code, at, fmt, ap);
    va_end(ap);
    return code;
}

int st_diag_full(const st_diag *d)
{
    return d->n >= ST_DIAG_MAX;
}
