#!/usr/bin/env bash
# What `strata run` returns (cli/commands.c, `strata run --help`; scenario-reference.md, "Exit
# status"): 0 when the forecast is written, also when a plan does not fit or an audit check
# fails (the report says so); 1 on a simulation error or a report or trace that cannot be
# written; 2 on bad input or usage, an output whose folder is missing among them.
# Usage: run_exit.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=$src/tests/cli/run
fail=0
n=0

# expect STATUS PATTERN WHAT -- ARGS...: strata run ARGS exits STATUS and its stdout and stderr
# together match the extended regular expression PATTERN.
expect() {
    local want=$1 pattern=$2 what=$3
    shift 4
    n=$((n + 1))
    "$strata" run "$@" >"$tmp/out" 2>&1
    local got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $what: exit $got, expected $want"; sed 's/^/  /' "$tmp/out" | head -5
        fail=$((fail + 1))
    elif ! grep -Eq -- "$pattern" "$tmp/out"; then
        echo "FAIL $what: no line matches '$pattern'"; sed 's/^/  /' "$tmp/out" | head -5
        fail=$((fail + 1))
    fi
}

expect 0 'total .*DOES NOT FIT' "plan that does not fit" -- "$cases/nofit.yaml"
expect 0 '^  life +200 steps: .* 0 interruptions' "cadences past the work take no checkpoint" -- \
    "$cases/every_past_the_work.yaml"
expect 0 '^  FAIL  silicon +memory per GPU: too-big' "its audit failure" -- "$cases/nofit.yaml"
expect 0 '^  WARN  plant +rack heat against cooling: .* 26.47 kW of heat on average to 30 kW of air cooling; a rack.s peak draw, 33.6 kW, is above its own 30 kW of cooling' \
    "a rack whose peak passes its cooling says so, its mean within it" -- \
    "$src/scenarios/examples/finetune-70b-cloud.yaml"
expect 0 '^  PASS  orchestration +GPUs held by one job: no two of the 2 jobs' "two full-cluster jobs queue" -- \
    "$cases/overlap.yaml"
expect 0 'no two of the 2 jobs hold a GPU at the same time, over their 3 stretches' \
    "a preempted job's two stretches are one job" -- "$src/scenarios/examples/preemption.yaml"
# the alone figure is the JSON's alone_s (0.000811678 s) in the unit every other time of the
# text report takes, no longer a bare '0.000811678 s'
expect 0 '^  alone +811\.7 us on an idle fabric$' "a lone collective is slowed by nothing" -- \
    "$cases/one_collective.yaml"
expect 0 '"status":[[:space:]]*"fail"' "audit failure in JSON" -- "$cases/nofit.yaml" --format json
expect 1 "interleaved.yaml:[0-9]+:[0-9]+: error: workload 'odd': interleaving" \
    "simulation error" -- "$cases/interleaved.yaml"
if [ -w /dev/full ]; then # a write that fails once the forecast has run
    expect 1 "strata run: cannot write '/dev/full'" "report that cannot be written" -- \
        "$cases/nofit.yaml" -o /dev/full
    expect 1 "cannot write '/dev/full'" "trace that cannot be written" -- "$cases/overlap.yaml" \
        --trace /dev/full
fi
# lines of spaces and tabs before a trace's header are blank, skipped as empty lines are (the
# first was read as the header: "has no column 'submit'")
expect 0 '^scheduler: .*1 job' "blank lines of spaces before a trace header" -- \
    "$cases/trace_blank_spaces.yaml"
# a life that draws no failure says so, whether failures: is left out or empty
expect 0 '^  life .* 0 s of work lost \(no failure stated, so none is drawn\)$' \
    "an empty failures: section draws none, and says so" -- "$cases/failures_empty.yaml"
# a seed up to 2^53 is the one run, and every format prints its digits
expect 0 '"seed":[[:space:]]*9007199254740992,' "the largest seed, run and printed" -- \
    "$cases/seed_2p53.yaml" --format json
expect 0 '^seed,8000000000000001$' "a seed near 2^53 in the CSV" -- "$cases/seed_2p53.yaml" \
    --seed 8000000000000001 --format csv
# an output that cannot be written where it is named is a usage error, before anything runs
expect 2 "strata run: -o needs a file name, found ''" "an empty -o" -- "$cases/nofit.yaml" -o ''
expect 2 "strata run: --trace needs a file name, found ''" "an empty --trace" -- \
    "$cases/overlap.yaml" --trace ''

expect 2 "strata run: -o '$tmp/no/such/dir/r.json': its folder '$tmp/no/such/dir' does not exist" \
    "report in a missing folder" -- "$cases/nofit.yaml" -o "$tmp/no/such/dir/r.json"
expect 2 "strata run: --trace '$tmp/no/such/dir/t.json': its folder .* does not exist" \
    "trace in a missing folder" -- "$cases/overlap.yaml" --trace "$tmp/no/such/dir/t.json"
# a name ending in '/' is a folder's, not a file's (it was "its folder 'nofile' does not exist")
expect 2 "strata run: -o '$tmp/nofile/' names a folder, not a file: name the file to write" \
    "a report named as a folder" -- "$cases/nofit.yaml" -o "$tmp/nofile/"
expect 2 "strata run: --trace '$tmp/nofile/' names a folder, not a file: name the file to write" \
    "a trace named as a folder" -- "$cases/overlap.yaml" --trace "$tmp/nofile/"
expect 2 "^$src/tests/bad/bad_boolean.yaml:[0-9]+:[0-9]+: error:" "bad input" -- \
    "$src/tests/bad/bad_boolean.yaml"
expect 2 "unknown option '--frobnicate'" "usage error" -- "$cases/nofit.yaml" --frobnicate
expect 2 "--trace: .* has no training workload" "--trace with nothing to trace" -- \
    "$src/scenarios/examples/philly-512gpu.yaml" --trace "$tmp/t.json"
[ ! -e "$tmp/t.json" ] || { echo "FAIL a refused --trace wrote its file"; fail=$((fail + 1)); }
expect 2 "--replicas: under failures.scope: cluster" "--replicas under cluster failures" -- \
    "$src/scenarios/examples/cluster-failures.yaml" --replicas 3
expect 0 "^exit status:" "--help" -- --help
expect 0 "0 +the forecast was written, also when a plan does not fit" "--help: 0" -- --help
expect 0 "check fails: the report says so" "--help: audit" -- --help
expect 0 "1 +a simulation error" "--help: 1" -- --help
expect 0 "2 +bad input or usage" "--help: 2" -- --help

# `strata audit FILE`: 1 when a check fails, 0 when none does, 2 on bad input.
audit_expect() {
    want=$1 pattern=$2 what=$3
    shift 3
    n=$((n + 1))
    "$strata" audit "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
        echo "FAIL audit $what: exit $rc (want $want), output:"
        cat "$tmp/out"
        fail=$((fail + 1))
    fi
}
audit_expect 1 "^FAIL +plant +rack heat against cooling" "air past capacity" \
    "$src/scenarios/examples/rack-cooling-air.yaml"
audit_expect 0 "^0 FAIL, 0 WARN of 8 checks$" "the same rack on liquid" "$src/scenarios/examples/rack-cooling-liquid.yaml"
# the closing line counts the WARNs as the reports' summary does ("12 checks, 0 failed" hid one)
audit_expect 0 "^0 FAIL, 1 WARN of 12 checks$" "a WARN is counted" "$src/scenarios/examples/llama3-405b-16k.yaml"
audit_expect 2 "error:" "bad input" "$src/tests/bad/bad_boolean.yaml"
# A rack's step peak past its own rating warns (it passed while its message reported the
# breach); a mixed cluster's B200 liquid rack's peak is not held to an H100 air rack's rating.
audit_expect 0 "^WARN +plant +rack heat against cooling: .*33.6 kW, is above its own 30 kW" \
    "a rack's peak past its cooling" "$src/scenarios/examples/cloud-vs-bare-metal.yaml"
# A service that misses its latency targets fails the audit (the summary said so while the audit
# read 0 FAIL); one within them passes.
audit_expect 1 "^FAIL +orchestration +service latency targets: chat: its p99s miss .* up to 78.12 requests/s; the load reaches 90 requests/s" \
    "a service past its targets" "$src/scenarios/examples/serve-diurnal.yaml"
audit_expect 0 "^PASS +orchestration +service latency targets: chat: its p99s meet" \
    "a service within its targets" "$src/scenarios/examples/serve-llama3-70b.yaml"
audit_expect 0 "^PASS +plant +rack heat against cooling: [^;(]*air cooling$" \
    "peaks against their own rack's cooling" "$src/scenarios/examples/mixed-h100-b200.yaml"
audit_expect 0 "exit status:" "--help" --help
# The help lists every check the audit runs (a user walk found the facility's cooling and UPS
# checks missing): quickstart with a facility's capacities and UPS rating runs nine plant
# checks, each of which the help names at its level.
"$strata" audit --help >"$tmp/ah" 2>&1
sed -n '/^cluster:/,/^workloads:/p' "$src/scenarios/examples/quickstart.yaml" | sed '$d' >"$tmp/fac.yaml"
{
    sed -n '1,/^cluster:/p' "$src/scenarios/examples/quickstart.yaml" | sed '$d'
    cat "$tmp/fac.yaml"
    echo "  racks: { nodes_per_rack: 2, feed: { breaker: 60 A } }"
    echo "  facility: { power_capacity: 20 kW, cooling_capacity: 10 kW, air_cooling_capacity: 10 kW,"
    echo "              liquid_cooling_capacity: 10 kW, ramp_limit: 1 MW/s, ups: { rating: 15 kW } }"
    sed -n '/^workloads:/,$p' "$src/scenarios/examples/quickstart.yaml"
} >"$tmp/facility.yaml"
"$strata" audit "$tmp/facility.yaml" >"$tmp/fa" 2>&1
n=$((n + 1))
if [ "$(grep -c '^[A-Z]*  *plant ' "$tmp/fa")" -ne 9 ]; then
    echo "FAIL audit: the facility example runs 9 plant checks"; cat "$tmp/fa"; fail=$((fail + 1))
fi
while read -r _ level check; do
    n=$((n + 1))
    name=${check%%: *}
    if ! grep -qF "  $(printf '%-14s %s' "$level" "$name")" "$tmp/ah"; then
        echo "FAIL audit --help does not list $level check '$name'"
        fail=$((fail + 1))
    fi
done < <(grep -E '^(PASS|WARN|FAIL) ' "$tmp/fa" | sed 's/^\([A-Z]*\)  *\([a-z]*\)  *\(.*\)$/\1 \2 \3/')
n=$((n + 1)) # `strata help audit` is the same help, its list included
if ! "$strata" help audit | cmp -s - "$tmp/ah"; then
    echo "FAIL strata help audit differs from strata audit --help"; fail=$((fail + 1))
fi

# `strata audit` forecasts what `strata run` does (planner/run_spec.c): the same checks, word
# for word, on every example, including those with a trace, a horizon or a cost section.
for f in "$src"/scenarios/examples/*.yaml; do
    n=$((n + 1))
    a=$("$strata" audit "$f" 2>/dev/null | grep -E '^(PASS|WARN|FAIL)')
    r=$("$strata" run "$f" 2>/dev/null | sed -n '/^audit/,/^$/p' | grep -E '^  (PASS|WARN|FAIL)' |
        sed 's/^  //')
    if [ -z "$a" ] || [ "$a" != "$r" ]; then
        echo "FAIL audit and run's audit differ: $(basename "$f")"
        fail=$((fail + 1))
    fi
    # an example whose audit fails says so in its header, with the figure the audit prints (the
    # ones about cooling and power name their failure in their own words)
    if printf '%s\n' "$a" | grep -q '^FAIL' && grep -q '^# Its pre-flight audit fails' "$f"; then
        j=$(sed -n 's/^# GPU junction reaches \([0-9.]*\) C .*/\1/p' "$f")
        printf '%s\n' "$a" | grep -q "^FAIL  plant  *junction temperature: hottest GPU junction $j C " || {
            echo "FAIL $(basename "$f"): its header's junction $j C is not its audit's"
            fail=$((fail + 1))
        }
    elif printf '%s\n' "$a" | grep -q '^FAIL' &&
        ! grep -Eqi '^#.*(audit|fails|over the facility|cooling limit)' "$f"; then
        echo "FAIL $(basename "$f"): its audit fails and its header does not say why"
        fail=$((fail + 1))
    fi
done

echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
