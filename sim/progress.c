/* The one progress reporter of the process (sim/progress.h). */
#include "sim/progress.h"

#include <stddef.h>

static st_progress_fn reporter;
static void *reporter_ctx;

st_progress_fn st_progress_set(st_progress_fn fn, void *ctx)
{
    st_progress_fn old = reporter;
    reporter = fn;
    reporter_ctx = ctx;
    return old;
}

void st_progress(const char *what, int64_t done, int64_t total)
{
    if (reporter)
        reporter(reporter_ctx, what, done, total);
}
