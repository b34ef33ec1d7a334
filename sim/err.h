/* Error values shared by every library folder: a code, where in the input, and a message.
 * Library code never exits; it returns 0 or a negative ST_E* code and fills an st_err. */
#ifndef ST_SIM_ERR_H
#define ST_SIM_ERR_H

#include <stddef.h>

/* X-macro: one line per code, so the enum and st_strerror() cannot drift apart. */
#define ST_ERRORS(X)                                                                               \
    X(ST_OK, 0, "ok")                                                                              \
    X(ST_EINVAL, -1, "invalid input")                                                              \
    X(ST_ESYNTAX, -2, "syntax error")                                                              \
    X(ST_EUNIT, -3, "bad unit")                                                                    \
    X(ST_ERANGE, -4, "value out of range")                                                         \
    X(ST_ELIMIT, -5, "input too large")                                                            \
    X(ST_EIO, -6, "input/output error")                                                            \
    X(ST_ENOTFOUND, -7, "not found")                                                               \
    X(ST_ESIM, -8, "simulation error")

enum {
#define ST__ERR_ENUM(name, value, text) name = value,
    ST_ERRORS(ST__ERR_ENUM)
#undef ST__ERR_ENUM
};

/* A position in an input file. line and col are 1-based; 0 means "unknown". In a config value
 * the file name is borrowed from the scenario and lives as long as that; an st_err's (and so a
 * diagnostic's) is its own copy, kept for the life of the process, so an error may be printed
 * after the input it names is freed. */
typedef struct st_loc {
    const char *file;
    unsigned line, col;
} st_loc;

typedef struct st_err {
    int code;
    st_loc loc;
    char msg[256];
} st_err;

/* Fill *e (if e is not NULL) with code, location and a printf-style message, cutting the
 * message at a character boundary to fit (sim/utf8.h). The location's file name is kept as
 * st_loc_file_keep does. Returns code, so callers can write `return st_err_set(...)`. */
int st_err_set(st_err *e, int code, st_loc at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A copy of file (NULL for NULL) that lives until the process ends: one per distinct name, so
 * keeping the same name again costs a hash lookup and no memory. Not thread-safe. */
const char *st_loc_file_keep(const char *file);

/* Write "file:line:col: error: msg" (parts without a location are left out) into buf, cut at
 * a character boundary when it does not fit. Returns the length it would have had, like
 * snprintf. */
int st_err_format(const st_err *e, char *buf, size_t n);

/* The fixed text of a code, "unknown error" for a code not in ST_ERRORS. */
const char *st_strerror(int code);

/* Up to ST_DIAG_MAX errors collected from one input, in the order found. A loader keeps going
 * after an error so the user sees several at once; `dropped` counts the ones past the cap. */
#define ST_DIAG_MAX 20
typedef struct st_diag {
    st_err items[ST_DIAG_MAX];
    int n;
    int dropped;
} st_diag;

/* Append an error to d and return its code. */
int st_diag_add(st_diag *d, int code, st_loc at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* True once d holds ST_DIAG_MAX errors: a loader stops there. */
int st_diag_full(const st_diag *d);

#endif
