#!/usr/bin/env bash
# Every malformed scenario in tests/bad must be refused with exit status 2 and, as the first
# line on stderr, exactly the line in its .expect file. An .expect file with several lines
# requires all of them, in order, and nothing else on stderr: the errors one `strata check`
# reports together, with no echo of one of them. Usage: run_bad.sh STRATA BAD_DIR
set -u
strata=$1
cd "$2" || exit 2
fail=0
n=0
for f in *.yaml; do
    n=$((n + 1))
    expect=${f%.yaml}.expect
    if [ ! -f "$expect" ]; then
        echo "FAIL $f: no $expect"
        fail=$((fail + 1))
        continue
    fi
    err=$("$strata" check "$f" 2>&1 >/dev/null)
    rc=$?
    if [ "$(grep -c '' "$expect")" -gt 1 ]; then
        first=$err # every line, compared whole
        want=$(cat "$expect")
    else
        first=$(printf '%s\n' "$err" | head -n 1)
        want=$(head -n 1 "$expect")
    fi
    if [ "$rc" -ne 2 ]; then
        echo "FAIL $f: exit status $rc, want 2"
        printf '%s\n' "$err" | head -n 5
        fail=$((fail + 1))
    elif [ "$first" != "$want" ]; then
        echo "FAIL $f"
        printf '  got:\n%s\n  want:\n%s\n' "$first" "$want"
        fail=$((fail + 1))
    fi
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
