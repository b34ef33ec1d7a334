/* Allocation that never returns NULL: running out of memory exits (status 1) with a message
 * (Redis, git abort; exiting says it is the machine's limit, not a crash),
 * and invariant failures go through ST_BUG, which names the source line and aborts. */
#ifndef ST_SIM_XALLOC_H
#define ST_SIM_XALLOC_H

#include <stddef.h>

void *st_xmalloc(size_t n);
void *st_xcalloc(size_t count, size_t size);
void *st_xrealloc(void *p, size_t n);
char *st_xstrdup(const char *s);
char *st_xstrndup(const char *s, size_t n);

/* An array of n bytes, and such an array (p, holding `old` bytes) grown or shrunk to n bytes as
 * st_xrealloc does, for arrays of megabytes read at random: from 1 MiB on, aligned to and
 * rounded up to 2 MiB and marked for transparent huge pages (madvise MADV_HUGEPAGE, where the
 * system has it and allows it; otherwise plain pages). Each 2 MiB is then one page fault and
 * one TLB entry, not 512: the max-min solver's 10^5 links (8 MB) faulted in 4 KiB at a time and
 * missed the TLB on nearly every random access. Freed with free(). */
void *st_xmalloc_huge(size_t n);
void *st_xrealloc_huge(void *p, size_t old, size_t n);

/* Grow *cap (doubling, at least `need`) and reallocate p to *cap elements of `size` bytes:
 * the slow half of st_xgrow. */
void *st__xgrow(void *p, size_t size, size_t need, size_t *cap);

/* p with room for `need` elements of `size` bytes: p itself when *cap already holds them, else
 * grown as st__xgrow. Inline because the max-min solver and the network call it once per link
 * of every flow they add (hundreds of thousands of calls a sizing search), nearly always with
 * room to spare: the test costs less than the call. */
static inline void *st_xgrow(void *p, size_t size, size_t need, size_t *cap)
{
    return need <= *cap ? p : st__xgrow(p, size, need, cap);
}

_Noreturn void st__bug(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define ST_BUG(...) st__bug(__FILE__, __LINE__, __VA_ARGS__)

#endif
