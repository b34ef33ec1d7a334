/* Progress of long loops, for a front end that wants to show it. Models report how far a loop
 * has come; the front end installs a reporter and decides whether and how to show it (the CLI:
 * on stderr, only when stderr is a terminal). With no reporter installed a report costs one
 * test of a pointer. One reporter per process, not thread-safe, like the rest of sim/. */
#ifndef ST_SIM_PROGRESS_H
#define ST_SIM_PROGRESS_H

#include <stdint.h>

/* Called with what is going on ("life replicas"), how much is done and the total. done ==
 * total is the last call of a loop. */
typedef void (*st_progress_fn)(void *ctx, const char *what, int64_t done, int64_t total);

/* Install fn (NULL: none) with its context; returns the previous reporter. */
st_progress_fn st_progress_set(st_progress_fn fn, void *ctx);

/* Report done of total to the installed reporter, if any. */
void st_progress(const char *what, int64_t done, int64_t total);

#endif
