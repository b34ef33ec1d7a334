/* Strata's GSL error handler: record, never abort. */
#include "sim/gsl_guard.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>

static _Thread_local char last[128];

static void record(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)file;
    (void)line;
    snprintf(last, sizeof last, "%s (GSL error %d)", reason ? reason : "?", gsl_errno);
}

void st_gsl_guard(void)
{
    gsl_set_error_handler(record);
}

const char *st_gsl_last_error(void)
{
    return last;
}
