/* Formatting into a string of the length the text has: for text that holds what a user named (a
 * job, a scenario, a file), which no fixed buffer can bound; a fixed buffer that must cut goes
 * through st_snprintf (sim/utf8.h) instead, which cuts between characters and says so. */
#ifndef ST_SIM_STRFMT_H
#define ST_SIM_STRFMT_H

#include <stdarg.h>

/* The text fmt makes, malloc'd (the caller frees it). Running out of memory aborts, as
 * st_xmalloc does; a format that vsnprintf refuses is an ST_BUG. */
char *st_xasprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
char *st_xvasprintf(const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 0)))
#endif
    ;

/* The plural ending of a count's noun: "" for 1, "s" for any other, so a report reads "1 step"
 * and "8 steps", never "1 steps". */
const char *st_plural_s(long long n);

#endif
