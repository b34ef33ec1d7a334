/* What several unit suites share: the relative-tolerance assertion. Header-only, for the test
 * binary alone (the step suites' cluster is in unit/step/hgx_cluster.h, the operator lookup in
 * unit/silicon/ops_find.h). */
#ifndef ST_TESTS_CHECK_UTIL_H
#define ST_TESTS_CHECK_UTIL_H

#include <check.h>
#include <math.h>

/* got within a relative tol of want (want != 0), printing both on failure. */
#define ASSERT_REL(got, want, tol)                                                                 \
    ck_assert_msg(fabs((got) / (want)-1.0) <= (tol), "%s = %.12g, want %.12g within %g", #got,     \
                  (double)(got), (double)(want), (double)(tol))

#endif
