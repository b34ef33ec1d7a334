/* What the serving suites share: a scenario from YAML text, asserted to load, and one service
 * served on a fresh step context over its cluster. Header-only, for the test binary alone. */
#ifndef ST_TESTS_SERVE_CHECK_H
#define ST_TESTS_SERVE_CHECK_H

#include <check.h>
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
