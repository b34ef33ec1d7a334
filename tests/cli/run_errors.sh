#!/usr/bin/env bash
# Scenarios that `strata check` may accept but `strata run` cannot forecast (tests/run_bad): each
# must end with the exit status on the first line of its .expect file ("exit 1" or "exit 2") and,
# as the first line on stderr, exactly the second line; never a crash, an abort or a hang.
# Usage: run_errors.sh STRATA RUN_BAD_DIR
set -u
strata=$1
cd "$2" || exit 2
fail=0 n=0
for f in *.yaml; do
    n=$((n + 1))
    expect=${f%.yaml}.expect
    if [ ! -f "$expect" ]; then
        echo "FAIL $f: no $expect"
        fail=$((fail + 1))
        continue
    fi
    want_rc=$(sed -n '1s/^exit //p' "$expect")
    want=$(sed -n 2p "$expect")
    err=$(timeout 60 "$strata" run "$f" 2>&1 >/dev/null)
    rc=$?
    first=$(printf '%s\n' "$err" | head -n 1)
    if [ "$rc" != "$want_rc" ]; then
        echo "FAIL $f: exit status $rc, want $want_rc"
        printf '%s\n' "$err" | head -n 5
        fail=$((fail + 1))
    elif [ "$first" != "$want" ]; then
        echo "FAIL $f"
        echo "  got:  $first"
        echo "  want: $want"
        fail=$((fail + 1))
    fi
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
