#!/usr/bin/env bash
# `strata run --trace FILE [--trace-job NAME]` (scenario-reference.md, "The trace file"): the
# trace covers the whole step, so its last span ends at the report's step_time_s, and it holds
# the optimizer and the data-parallel thread; so also where the report's step is not the packed
# one from GPU 0: a job on a pool of a cluster of pools, a job across pools (its pacing pool's
# step, its batch split as stated or `balanced`), and a step with system noise or a calibrated
# overhead, each a span of its own; --trace-job picks the job; a name that is no training
# workload is a usage error (exit 2).
# Usage: run_trace.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
scn=$src/tests/golden/mixed.yaml

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

# The end of the trace's last span, in seconds: the largest ts + dur of the "X" events.
trace_end() {
    grep -o '"ph":"X","pid":[0-9]*,"tid":[0-9]*,"ts":[^,]*,"dur":[^}]*' "$1" |
        awk -F'[:,]' '{ e = $8 + $10; if (e > m) m = e } END { printf "%.9g\n", m / 1e6 }'
}

# The report's step_time_s of the job named $2 in JSON report $1.
step_time() {
    awk -v job="$2" '/"name":/ { gsub(/[",]/, "", $2); name = $2 }
        /"step_time_s":/ && name == job { gsub(/,/, "", $2); print $2; exit }' "$1"
}

# check_job NAME [ARGS...]: trace NAME's step in $scn (with ARGS) and compare it with the
# report.
check_job() {
    local job=$1
    shift
    n=$((n + 1))
    if ! "$strata" run "$scn" --format json --trace "$tmp/t.json" "$@" >"$tmp/r.json"; then
        bad "$job: run failed"; return
    fi
    grep -q "\"name\":\"$job: pipeline stage 0\"" "$tmp/t.json" || bad "$job: not the job traced"
    grep -q '"name":"optimizer"' "$tmp/t.json" || bad "$job: no optimizer span"
    grep -q '"args":{"name":"data-parallel communication"}' "$tmp/t.json" ||
        bad "$job: no data-parallel thread"
    local end step
    end=$(trace_end "$tmp/t.json")
    step=$(step_time "$tmp/r.json" "$job")
    awk -v a="$end" -v b="$step" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-6 * b) }' ||
        bad "$job: the trace ends at $end s, the step takes $step s"
}

check_job gpt13b                                           # the first training workload
check_job gpt13b-full-recompute --trace-job gpt13b-full-recompute
check_job tiny --trace-job tiny

# A cluster of pools: each job's step is its pool's, on the GPUs it was placed on (not the
# cluster's first GPUs, another pool's), and on its pacing pool for a job across pools.
scn=$src/scenarios/examples/mixed-h100-b200.yaml
check_job 8b-b200 --trace-job 8b-b200
check_job 70b-b200 --trace-job 70b-b200
scn=$src/scenarios/examples/across-pools-h100-b200.yaml
check_job 70b-across --trace-job 70b-across
check_job 70b-balanced --trace-job 70b-balanced
check_job 70b-b200 --trace-job 70b-b200
scn=$src/scenarios/examples/serve-h100-train-b200.yaml
check_job pretrain --trace-job pretrain
# A job placed over more leaves than the packed one: its collectives' slower step.
scn=$src/scenarios/examples/placement-speed.yaml
check_job wide --trace-job wide

# A cloud's system noise, and a calibrated per-step overhead: spans of their own at the end.
sed 's/delivery: bare-metal/delivery: cloud/' "$src/scenarios/examples/cloud-vs-bare-metal.yaml" \
    >"$tmp/cloud.yaml"
scn=$tmp/cloud.yaml
check_job pretrain
grep -q '"name":"system noise wait"' "$tmp/t.json" || bad "cloud: no system noise span"
sed 's/^  nodes: 2$/  nodes: 2\n  calibration: { gpu: h100-sxm, step_overhead: 40 ms }/' \
    "$src/scenarios/examples/quickstart.yaml" >"$tmp/calib.yaml"
scn=$tmp/calib.yaml
check_job finetune
grep -q '"name":"step overhead","ph":"X","pid":0,"tid":0,"ts":[0-9.e+]*,"dur":40000[,}]' \
    "$tmp/t.json" || bad "calibrated: no 40 ms step overhead span"
scn=$src/tests/golden/mixed.yaml

n=$((n + 1))
"$strata" run "$scn" --trace "$tmp/u.json" --trace-job nosuch >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no training workload named 'nosuch'; the training workloads are 'gpt13b'" "$tmp/err" ||
    bad "--trace-job nosuch: exit $rc, $(head -1 "$tmp/err")"
[ -e "$tmp/u.json" ] && bad "--trace-job nosuch: a trace was written"
n=$((n + 1))
"$strata" run "$scn" --trace-job tiny >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--trace-job needs --trace FILE" "$tmp/err" ||
    bad "--trace-job without --trace: exit $rc"
n=$((n + 1))
"$strata" run "$src/tests/golden/allreduce-contention.yaml" --trace "$tmp/c.json" \
    --trace-job job-a \
    >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "is a collective workload" "$tmp/err" || bad "collective --trace-job: exit $rc"

echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
