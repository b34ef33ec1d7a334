#!/usr/bin/env bash
# A trace on a cluster of pools (docs/models/pools.md, "Traces on pools"): each job goes to the
# pool trace.pools maps its GPU type to (the first of a '|' list it maps; `any` for none), a
# type it does not map makes the row malformed, a job larger than its pool is never submitted,
# and scheduler.pools counts each pool's jobs; every policy runs the trace (`compare`), each
# finishing every job, with its pools' figures; Alibaba's openb pod list (format openb) reads its run time as deletion
# less scheduled time and leaves CPU pods out.
# Usage: run_trace_pools.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

expect() { # NAME WANT GOT
    n=$((n + 1))
    [ "$2" = "$3" ] || { echo "FAIL $1: expected '$2', got '$3'"; fail=$((fail + 1)); }
}

# scenario FILE FORMAT MAP: two pools of one node of 8 GPUs each, the trace FILE.
scenario() {
    cat >"$tmp/s.yaml" <<YAML
version: 1
cluster:
  pools:
    - { name: small, gpu: h100-sxm, nodes: 1 }
    - { name: big, gpu: b200, nodes: 1 }
  gpus_per_node: 8
trace: { file: $1, format: $2, pools: $3 }
scheduler: { policy: fifo }
YAML
}

# pool_jobs JSON: "name:jobs:finished" for each of scheduler.pools, space-separated.
pool_jobs() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["scheduler"]
print(" ".join("%s:%d:%d" % (p["name"], p["jobs"], p["finished"]) for p in d["pools"]),
      d["too_big"])' "$1"
}

# typed-pools.csv: T4 x2 and a 16-GPU T4 (too big for small), V100M32, V100M32|A10 and
# A10|V100M32 to big, an empty type to `any`, and P100, which the map does not name.
scenario "$src/tests/traces/typed-pools.csv" csv "{ T4: small, V100M32: big, A10: big, any: small }"
"$strata" run "$tmp/s.yaml" -o "$tmp/r.json" >/dev/null 2>"$tmp/e"
expect "typed trace runs" 0 $?
expect "each job in its type's pool" "small:3:3 big:3:3 1" "$(pool_jobs "$tmp/r.json")"
expect "an unmapped type is a malformed row" \
    "$src/tests/traces/typed-pools.csv:7:10: warning: malformed trace row: gpu_type 'P100' names no GPU type trace.pools maps (it maps 'T4', 'V100M32', 'A10', 'any'); row skipped" \
    "$(grep 'P100' "$tmp/e")"

# Every policy places the typed trace by pool and finishes every job it submits.
"$strata" compare "$tmp/s.yaml" --format csv -o "$tmp/c.csv" 2>/dev/null
expect "compare runs every policy" 0 $?
expect "compare has a row per registered policy" "fifo backfill sjf srtf srsf gang tiresias fair-share priority" \
    "$(awk -F, 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $1 }' "$tmp/c.csv")"
col=$(head -1 "$tmp/c.csv" | tr ',' '\n' | grep -n '^finished$' | cut -d: -f1)
expect "every policy finishes the six jobs" "6" \
    "$(awk -F, -v c="$col" 'NR > 1 { print $c }' "$tmp/c.csv" | sort -u | tr '\n' ' ' | sed 's/ $//')"

# compare gives each policy's pools their own figures: every policy puts the same jobs in each.
"$strata" compare "$tmp/s.yaml" --format json -o "$tmp/c.json" 2>/dev/null
expect "compare's pools per policy" "small:3:3 big:3:3" "$(python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["policies"]
print(" ".join(sorted({" ".join("%s:%d:%d" % (p["name"], p["jobs"], p["finished"])
                                for p in r["pools"]) for r in rows})))' "$tmp/c.json")"

# openb: pods 1 and 3 (no gpu_spec) to `any`, pod 2 (T4) to small, pod 4 never scheduled
# (malformed), pod 5 a CPU pod (left out).
scenario "$src/tests/traces/openb/openb_pod_list_default.csv" openb "{ T4: small, V100M32: big, any: small }"
"$strata" run "$tmp/s.yaml" -o "$tmp/r.json" >/dev/null 2>"$tmp/e"
expect "openb runs" 0 $?
expect "openb pods by pool" "small:3:3 big:0:0 0" "$(pool_jobs "$tmp/r.json")"
# a pool that finished no job has no wait (it read 0 s), in run's pools and compare's
has_wait='import json, sys
d = json.load(open(sys.argv[1]))
pools = d["scheduler"]["pools"] if "scheduler" in d else d["policies"][0]["pools"]
print(" ".join("%s:%s" % (p["name"], "mean_wait_s" in p) for p in pools))'
expect "openb: a pool that finished no job has no wait" "small:True big:False" \
    "$(python3 -c "$has_wait" "$tmp/r.json")"
"$strata" compare "$tmp/s.yaml" --format json -o "$tmp/c.json" 2>/dev/null
expect "openb: nor in compare's pools" "small:True big:False" "$(python3 -c "$has_wait" "$tmp/c.json")"
"$strata" compare "$tmp/s.yaml" 2>/dev/null | awk '$1 == "fifo" && $2 == "big" { print $5 }' >"$tmp/o"
expect "openb: compare's pool table shows no wait as -" "-" "$(cat "$tmp/o")"
expect "openb: a CPU pod is left out" \
    "$tmp/s.yaml:7:16: warning: trace file '$src/tests/traces/openb/openb_pod_list_default.csv': 1 row of no GPU (CPU jobs) left out" \
    "$(grep 'no GPU' "$tmp/e")"
expect "openb: a pod never scheduled has no run time" \
    "$src/tests/traces/openb/openb_pod_list_default.csv:5:56: warning: malformed trace row: scheduled_time is empty: the job never started, so it has no run time; row skipped" \
    "$(grep 'scheduled_time' "$tmp/e")"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["scheduler"]
sys.exit(0 if d["makespan_s"] == 100 else 1)' "$tmp/r.json"
expect "openb: run time is deletion less scheduled (makespan 100 s)" 0 $?

# Hostile openb rows: a deletion before the scheduling, and a gpu_spec that is not UTF-8 (whose
# warning must stay UTF-8), each malformed where it is.
printf 'name,num_gpu,gpu_spec,creation_time,deletion_time,scheduled_time\r\np1,1,T4,0,100,50\r\np2,2,T4,10,5,8\r\np3,1,\377,1,50,20\r\n' >"$tmp/h.csv"
scenario "$tmp/h.csv" openb "{ T4: small, any: big }"
"$strata" check "$tmp/s.yaml" >/dev/null 2>"$tmp/e"
expect "openb: deletion before scheduling is malformed" \
    "$tmp/h.csv:3:12: warning: malformed trace row: deletion_time 5 is before scheduled_time 8; row skipped" \
    "$(grep 'before scheduled' "$tmp/e")"
expect "openb: a gpu_spec that is not UTF-8 is malformed" \
    "$tmp/h.csv:4:6: warning: malformed trace row: gpu_spec holds a byte that is not UTF-8 (0xFF); names are printed, so they are UTF-8 text without control characters; row skipped" \
    "$(grep 'not UTF-8' "$tmp/e")"
iconv -f UTF-8 -t UTF-8 "$tmp/e" >/dev/null 2>&1
expect "openb: the warnings are UTF-8" 0 $?

# gpu_milli, where the header names it, is a GPU's share in thousandths: a number from 0 to 1000
# (it was read unchecked: nan, -5 and 99999999999 made jobs); others are malformed at the field.
printf 'name,num_gpu,gpu_milli,gpu_spec,creation_time,deletion_time,scheduled_time\np1,1,500,T4,0,100,50\np2,1,nan,T4,0,100,50\np3,1,-5,,0,100,50\np4,1,99999999999,,0,100,50\np5,1,1000,,0,100,50\n' >"$tmp/m.csv"
scenario "$tmp/m.csv" openb "{ T4: small, any: big }"
"$strata" check "$tmp/s.yaml" >"$tmp/o" 2>"$tmp/e"
expect "openb: a gpu_milli of nan, -5 or 99999999999 is malformed" \
    "$tmp/m.csv:3:6: warning: malformed trace row: gpu_milli 'nan' is not a number from 0 to 1000; row skipped
$tmp/m.csv:4:6: warning: malformed trace row: gpu_milli '-5' is not a number from 0 to 1000; row skipped
$tmp/m.csv:5:6: warning: malformed trace row: gpu_milli '99999999999' is not a number from 0 to 1000; row skipped" \
    "$(grep 'gpu_milli' "$tmp/e")"
expect "openb: the rows of gpu_milli 500 and 1000 are read" 1 "$(grep -c 'a trace of 2 jobs' "$tmp/o")"

# Pools of different node sizes in either order: the default leaf fits every pool's NICs (the
# first pool's counted alone: the GB200 trays first made a leaf of 8 H100 nodes, 128 ports of
# a 64-port switch, and moved every step).
sed -n '/^cluster:/,$p' "$src/scenarios/examples/mixed-h100-gb200.yaml" |
    awk '/^    - \{ name: h100/ {h = $0; next} /^        racks: \{ nodes_per_rack: 18/ {print; print h; next} {print}' \
        >"$tmp/rev.body"
{ echo "version: 1"; echo "name: rev"; echo "seed: 7"; cat "$tmp/rev.body"; } >"$tmp/rev.yaml"
expect "pools of two node sizes listed GB200 first: the default leaf fits" \
    "PASS  fabric        switch ports: a leaf needs 64 ports, within the 64 of a switch" \
    "$("$strata" audit "$tmp/rev.yaml" 2>&1 | grep 'switch ports' | sed 's/^ *//')"
# A CR inside a quoted header name is not a file of CR line ends.
printf 'submit,duration,"gp\rus"\n0,2 h,8\n' >"$tmp/cr.csv"
scenario "$tmp/cr.csv" csv '{ any: small }'
expect "a CR inside a quoted header name" "a carriage return (CR) inside a quoted column name" \
    "$("$strata" run "$tmp/s.yaml" 2>&1 | grep -o 'a carriage return (CR) inside a quoted column name')"

echo "$((n - fail)) of $n passed"
[ "$fail" -eq 0 ]
