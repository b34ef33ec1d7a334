#!/usr/bin/env bash
# `strata size` (docs/guide/sizing.md): the counts line adds up, the answer meets the deadline,
# a power budget binds the larger counts, the cost goal ranks by the cost: section's prices and
# is refused without one, the output is the same on every run, usage errors exit 2, --help.
# Usage: run_size.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
scn=$src/scenarios/examples/quickstart.yaml

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

# expect NAME WANT GOT: one check.
expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}

# The first ranked row (the line after the first header).
first_row() { awk '/^rank +nodes/ {getline; print; exit}' "$1"; }

"$strata" size "$scn" --deadline 1h >"$tmp/a.txt" 2>"$tmp/a.err" || bad "size failed"
"$strata" size "$scn" --deadline 1h >"$tmp/b.txt" 2>/dev/null || bad "size failed twice"
expect "same output on every run" "$(cat "$tmp/a.txt")" "$(cat "$tmp/b.txt")"
expect "stderr" "" "$(cat "$tmp/a.err")"
# considered = evaluated + pruned, pruned = rule + memory + dominated
counts=$(sed -n 2p "$tmp/a.txt" | sed 's/[^0-9 ]//g' | tr -s ' ')
read -r searched skipped considered evaluated pruned rule mem dom <<<"$counts"
expect "considered = evaluated + pruned" "$considered" "$((evaluated + pruned))"
expect "pruned = rule + memory + dominated" "$pruned" "$((rule + mem + dom))"
[ "${mem:-0}" -gt 0 ] || bad "no plan pruned by memory: $counts"
row=$(first_row "$tmp/a.txt")
expect "the answer meets the deadline" "" "$(grep -o '(misses)' <<<"$row")"
grep -q '^Pareto front' "$tmp/a.txt" || bad "no Pareto front"

# A deadline nothing meets: every row says the deadline binds and misses.
"$strata" size "$scn" --deadline 1s >"$tmp/c.txt" 2>/dev/null || bad "short deadline failed"
expect "short deadline binds" "deadline (misses)" "$(first_row "$tmp/c.txt" | grep -o 'deadline (misses)')"

# 10 kW: one node's plans fit it, two nodes' do not.
"$strata" size "$scn" --deadline 1h --budget power=10kW,gpus=16 --top 100 >"$tmp/p.txt" \
    2>/dev/null || bad "power budget failed"
two=$(awk '$2 == 2 && $1 ~ /^[0-9]+$/' "$tmp/p.txt" | grep -vc 'power (misses)')
expect "two nodes bind on power" 0 "$two"

# The cost goal: a cloud price gives cost_usd = GPU-hours x price.
sed 's/^workloads:/cost: { delivery: cloud, gpu_hour_price: 2 USD\/h }\nworkloads:/' "$scn" \
    >"$tmp/cost.yaml"
"$strata" size "$tmp/cost.yaml" --deadline 1h >"$tmp/k.txt" 2>/dev/null || bad "cost goal failed"
expect "goal defaults to cost" "goal cost" "$(sed -n 1p "$tmp/k.txt" | grep -o 'goal cost')"
read -r gh usd <<<"$(first_row "$tmp/k.txt" | awk '{print $12, $13}')"
ok=$(awk -v g="$gh" -v u="$usd" 'BEGIN {d = u - 2 * g; print (d < 0.01 * u && -d < 0.01 * u)}')
expect "cost = 2 USD x GPU-hours" 1 "$ok"
"$strata" size "$scn" --deadline 1h --goal cost >/dev/null 2>"$tmp/e.err"
expect "cost goal without cost: exits 2" 2 $?
grep -q "error: the cost goal needs the scenario's cost: section" "$tmp/e.err" ||
    bad "cost goal error: $(cat "$tmp/e.err")"

# Usage errors.
for args in "" "--deadline 0s" "--deadline 1h --budget foo=1" "--deadline 1h --budget power=x" \
    "--deadline 1h --goal fast" "--deadline 1h --top 0" "--deadline 1h --workload nope"; do
    # shellcheck disable=SC2086
    "$strata" size "$scn" $args >/dev/null 2>&1
    expect "usage error: '$args'" 2 $?
done
"$strata" size --help | grep -q '^usage: strata size FILE --deadline' || bad "--help"

echo "$n checks, $fail failed"
[ "$fail" -eq 0 ]
