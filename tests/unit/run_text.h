/* What unit suites that forecast a whole scenario share: its YAML text loaded and run as `strata
 * run` runs it. Header-only, for the test binary alone. */
#ifndef ST_TESTS_RUN_TEXT_H
#define ST_TESTS_RUN_TEXT_H

#include <check.h>
#include <string.h>

#include "models/forecast/run.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"

/* Scenario text loaded into *s and forecast as `strata run` does into *r (the caller releases
 * both). */
static inline void run_text(const char *text, st_scn **s, st_run *r)
{
    st_diag d = {0};
    ck_assert_msg(st_scn_load_buffer("t.yaml", text, strlen(text), s, &d) == 0, "load: %s",
                  d.n ? d.items[0].msg : "?");
    st_run_spec sp = st_plan_run_spec(*s, st_scn_seed(*s));
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, r, &err) == 0, "forecast: %s", err.msg);
}

#endif
