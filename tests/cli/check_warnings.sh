#!/usr/bin/env bash
# Sections read but not yet modelled: `strata check` and `strata run` print one
# "FILE:LINE:COL: warning: ..." line per section on stderr, in file order, and
# exit 0 as without them. Usage: check_warnings.sh STRATA WARN_DIR
set -u
strata=$1
cd "$2" || exit 2
fail=0
# Every section is modelled now (scheduler.preemption and scheduler.quotas were the last): the
# table is empty and the file that has them all gets none.
want=""
for cmd in check run; do
    err=$("$strata" $cmd unmodelled.yaml 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "FAIL strata $cmd: exit status $rc, want 0"
        fail=1
    fi
    if [ "$err" != "$want" ]; then
        printf 'FAIL strata %s: stderr\n%s\nwant\n%s\n' "$cmd" "$err" "$want"
        fail=1
    fi
done
# A scenario with none of those sections gets no warning.
err=$("$strata" check ../../scenarios/examples/quickstart.yaml 2>&1 >/dev/null)
if [ -n "$err" ]; then
    printf 'FAIL quickstart: unexpected stderr\n%s\n' "$err"
    fail=1
fi
# A price stated as 0 where the delivery reads it: one warning at the cost: section, exit 0.
err=$("$strata" check zero_price.yaml 2>&1 >/dev/null)
want="zero_price.yaml:7:7: warning: cost: gpu_hour_price is 0 USD/h, so that part of the cost is nothing; leave the key out to take the preset table's sourced price where it has one"
if [ "$err" != "$want" ]; then
    printf 'FAIL zero price: stderr\n%s\nwant\n%s\n' "$err" "$want"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "warnings ok"
[ "$fail" -eq 0 ]
