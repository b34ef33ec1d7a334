/* GSL reports errors through one process-wide handler, and its default prints a line and aborts
 * the process (GSL manual, "Error handling"). Strata never runs under it: a model that calls a GSL
 * function able to fail calls st_gsl_guard() first, checks the status the function returns, and
 * turns a failure into an st_err. */
#ifndef ST_SIM_GSL_GUARD_H
#define ST_SIM_GSL_GUARD_H

/* Install Strata's GSL error handler, which records the error for st_gsl_last_error and
 * returns, so that the GSL call returns its status. Idempotent and cheap; main() calls it too. */
void st_gsl_guard(void);

/* GSL's reason for the last error it reported on this thread ("overflow", "domain error"), or
 * "" when there was none. */
const char *st_gsl_last_error(void);

#endif
