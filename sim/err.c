/* Error values: formatting and collection. */
#include "sim/err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/utf8.h"
#include "sim/xalloc.h"

/* The file names errors hold, each copied once and kept for the life of the process: an error
 * outlives the input it names (a scenario freed after a refused load, a trace file's name in
 * the scenario's string pool), so it cannot borrow the name. An open-addressed set keyed by the
 * name's FNV-1a hash; a process sees few distinct names (its scenario, its traces, --set
 * labels), so the set stays small and is never freed. */
static struct {
    char **slot;
    size_t n, cap;
} names;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static char **find_slot(char **slot, size_t cap, const char *name)
{
    for (size_t i = (size_t)fnv1a(name) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!slot[i] || strcmp(slot[i], name) == 0)
            return &slot[i];
}

static void names_grow(void)
{
    size_t cap = names.cap ? names.cap * 2 : 64;
    char **slot = st_xcalloc(cap, sizeof *slot);
    for (size_t i = 0; i < names.cap; i++)
        if (names.slot[i])
            *find_slot(slot, cap, names.slot[i]) = names.slot[i];
    free(names.slot);
    names.slot = slot;
    names.cap = cap;
}

const char *st_loc_file_keep(const char *file)
{
    if (!file)
        return NULL;
    if (2 * (names.n + 1) > names.cap)
        names_grow();
    char **at = find_slot(names.slot, names.cap, file);
    if (!*at) {
        *at = st_xstrdup(file);
        names.n++;
    }
    return *at;
}

static void vset(st_err *e, int code, st_loc at, const char *fmt, va_list ap)
{
    e->code = code;
    e->loc = at;
    e->loc.file = st_loc_file_keep(at.file);
    st_vsnprintf(e->msg, sizeof e->msg, fmt, ap);
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
        return st_snprintf(buf, n, "%s:%u:%u: error: %s", l->file, l->line, l->col, e->msg);
    if (l->file)
        return st_snprintf(buf, n, "%s: error: %s", l->file, e->msg);
    return st_snprintf(buf, n, "error: %s", e->msg);
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

/* Whether d already holds an error at e's place with e's message. */
static int held(const st_diag *d, const st_err *e)
{
    for (int i = 0; i < d->n; i++) {
        const st_err *h = &d->items[i];
        if (h->loc.file == e->loc.file && h->loc.line == e->loc.line && h->loc.col == e->loc.col &&
            strcmp(h->msg, e->msg) == 0)
            return 1;
    }
    return 0;
}

int st_diag_add(st_diag *d, int code, st_loc at, const char *fmt, ...)
{
    if (d->n >= ST_DIAG_MAX) {
        d->dropped++;
        return code;
    }
    va_list ap;
    va_start(ap, fmt);
    vset(&d->items[d->n], code, at, fmt, ap);
    va_end(ap);
    /* one node read again through a YAML alias (`<<: *base` in four workloads) gives the same
       error at the same place each time: said once, as the place it is fixed at is one */
    if (!held(d, &d->items[d->n]))
        d->n++;
    return code;
}

int st_diag_full(const st_diag *d)
{
    return d->n >= ST_DIAG_MAX;
}
