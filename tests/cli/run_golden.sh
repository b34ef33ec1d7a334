#!/usr/bin/env bash
# Golden reports: `strata run X.yaml --format json` must equal X.json byte for byte, twice in a
# row, and the file written with -o must equal stdout. Every example must also run.
# Usage: run_golden.sh STRATA SOURCE_DIR   (UPDATE_GOLDEN=1 rewrites the .json files)
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
cd "$src/tests/golden" || exit 2
for f in *.yaml; do
    n=$((n + 1))
    g=${f%.yaml}.json
    "$strata" run "$f" --format json -o "$tmp/a.json" >"$tmp/out1.json" || { echo "FAIL $f: run failed"; fail=$((fail + 1)); continue; }
    "$strata" run "$f" --format json >"$tmp/out2.json"
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$tmp/out1.json" "$g"; fi
    if ! cmp -s "$tmp/out1.json" "$tmp/out2.json"; then
        echo "FAIL $f: two runs differ"; fail=$((fail + 1))
    elif ! cmp -s "$tmp/out1.json" "$tmp/a.json"; then
        echo "FAIL $f: -o file differs from stdout"; fail=$((fail + 1))
    elif ! cmp -s "$tmp/out1.json" "$g"; then
        echo "FAIL $f: differs from $g"; diff "$g" "$tmp/out1.json" | head -20; fail=$((fail + 1))
    fi
    "$strata" run "$f" --format json --seed 12345 >"$tmp/seed.json"
    if cmp -s "$tmp/out1.json" "$tmp/seed.json"; then
        echo "FAIL $f: --seed did not change the report"; fail=$((fail + 1))
    fi
done
for f in "$src"/scenarios/examples/*.yaml; do
    n=$((n + 1))
    if ! "$strata" run "$f" >/dev/null; then echo "FAIL example $f"; fail=$((fail + 1)); fi
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
