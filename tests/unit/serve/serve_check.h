/* What the serving suites share: a scenario from YAML text, asserted to load, and one service
 * served on a fresh step context over its cluster. Header-only, for the test binary alone. */
#ifndef ST_TESTS_SERVE_CHECK_H
#define ST_TESTS_SERVE_CHECK_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "models/serve/serve.h"
#include "scenarios/scenario.h"

static inline st_scn *serve_scenario(const char *yaml)
{
    st_scn *s = NULL;
    st_diag d = {0};
    int rc = st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d);
    ck_assert_msg(rc == 0, "load: %s", d.n ? d.items[0].msg : "?");
    return s;
}

/* serve_scenario of the YAML text fmt formats (ASCII), asserted to fit its buffer whole: a text
 * cut short would load as another scenario, or not at all. */
static inline st_scn *serve_scenariof(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ck_assert_msg(n >= 0 && (size_t)n < sizeof buf, "scenario text of %d bytes", n);
    return serve_scenario(buf);
}

/* Workload 0 of s served with arrivals drawn from `seed`: st_serve_run's code. */
static inline int serve_run(const st_scn *s, uint64_t seed, st_serve_result *r, st_err *err)
{
    st_step_ctx *x = NULL;
    ck_assert_int_eq(st_step_ctx_new(st_scn_cluster(s), &x, err), 0);
    int rc = st_serve_run(x, st_scn_workload(s, 0), st_scn_cluster(s), seed, 0, r, err);
    st_step_ctx_free(x);
    return rc;
}

#endif
