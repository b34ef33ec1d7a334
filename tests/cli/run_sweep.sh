#!/usr/bin/env bash
# `strata sweep` (docs/guide/sweep.md): -j 1 and -j 2 give byte-identical rows; an interrupted
# sweep resumes from its journal, computing only the points it lacks, to the same file; bad
# points (a plan that does not fit, values that do not load) are rows with their reason; a
# path the scenario does not have is a located error (exit 2); the formats; --help.
# Usage: run_sweep.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
scn=$src/scenarios/examples/quickstart.yaml
grid=(--set 'cluster.nodes=2..8*2' --set 'workloads[finetune].global_batch=32..128*2'
    --set 'workloads[0].parallel.recompute=selective,full')

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

# expect NAME WANT GOT: one check.
expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}

# Determinism: the same 18 rows whatever the number of workers, in point order.
"$strata" sweep "$scn" "${grid[@]}" -j 1 >"$tmp/j1.csv" 2>"$tmp/j1.err" || bad "-j 1 failed"
"$strata" sweep "$scn" "${grid[@]}" -j 2 >"$tmp/j2.csv" 2>"$tmp/j2.err" || bad "-j 2 failed"
"$strata" sweep "$scn" "${grid[@]}" -j 5 >"$tmp/j5.csv" 2>/dev/null || bad "-j 5 failed"
expect "-j 1 and -j 2 rows" "$(cat "$tmp/j1.csv")" "$(cat "$tmp/j2.csv")"
expect "-j 1 and -j 5 rows" "$(cat "$tmp/j1.csv")" "$(cat "$tmp/j5.csv")"
expect "rows" 19 "$(wc -l <"$tmp/j1.csv")"
expect "first row" "2,32,selective,ok" "$(sed -n 2p "$tmp/j1.csv" | cut -d, -f1-4)"
expect "last row" "8,128,full,ok" "$(sed -n 19p "$tmp/j1.csv" | cut -d, -f1-4)"
expect "stderr" "strata sweep: 18 points: 0 from the journal, 18 computed on 2 workers" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/j2.err")"

# Resume: a whole sweep, then one interrupted after 7 rows (its journal cut there, with a torn
# eighth line as a kill during a write leaves it) rerun to the same file, computing 11 points.
"$strata" sweep "$scn" "${grid[@]}" -j 2 -o "$tmp/a.csv" 2>/dev/null || bad "-o failed"
expect "-o file" "$(cat "$tmp/j1.csv")" "$(cat "$tmp/a.csv")"
expect "journal lines" 18 "$(wc -l <"$tmp/a.csv.journal")"
head -7 "$tmp/a.csv.journal" >"$tmp/b.csv.journal"
sed -n 8p "$tmp/a.csv.journal" | head -c 40 >>"$tmp/b.csv.journal"
"$strata" sweep "$scn" "${grid[@]}" -j 2 -o "$tmp/b.csv" 2>"$tmp/b.err" || bad "resume failed"
expect "resumed" "strata sweep: 18 points: 7 from the journal, 11 computed on 2 workers" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/b.err")"
expect "resumed file" "$(cat "$tmp/a.csv")" "$(cat "$tmp/b.csv")"
"$strata" sweep "$scn" "${grid[@]}" -o "$tmp/a.csv" 2>"$tmp/a.err" || bad "rerun failed"
expect "rerun" "strata sweep: 18 points: 18 from the journal, 0 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/a.err")"
# A grid that grows by one value reuses the points it shares.
"$strata" sweep "$scn" --set 'cluster.nodes=2..16*2' --set 'workloads[finetune].global_batch=32..128*2' \
    --set 'workloads[0].parallel.recompute=selective,full' -o "$tmp/a.csv" 2>"$tmp/g.err" ||
    bad "grown grid failed"
expect "grown grid" "strata sweep: 24 points: 18 from the journal, 6 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/g.err")"
# A changed scenario (another hash) computes everything again.
sed 's/steps: 500/steps: 400/' "$scn" >"$tmp/q.yaml"
cp "$tmp/a.csv.journal" "$tmp/c.csv.journal"
"$strata" sweep "$tmp/q.yaml" "${grid[@]}" -o "$tmp/c.csv" 2>"$tmp/c.err" || bad "changed failed"
expect "changed scenario" "strata sweep: 18 points: 0 from the journal, 18 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/c.err")"

# A killed sweep: the journal holds whole rows only, and the rerun completes the same file.
"$strata" sweep "$scn" --set 'workloads[0].steps=1..400+1' -j 2 >"$tmp/k.want" 2>/dev/null
"$strata" sweep "$scn" --set 'workloads[0].steps=1..400+1' -j 2 -o "$tmp/k.csv" 2>/dev/null &
pid=$!
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
done_rows=$(grep -c . "$tmp/k.csv.journal" 2>/dev/null || echo 0)
"$strata" sweep "$scn" --set 'workloads[0].steps=1..400+1' -j 2 -o "$tmp/k.csv" 2>"$tmp/k.err"
expect "killed then resumed" "$(cat "$tmp/k.want")" "$(cat "$tmp/k.csv")"
whole=$(awk -F'\t' 'NF == 10' "$tmp/k.csv.journal" | wc -l)
expect "journal rows after the kill" 400 "$whole"
[ -n "${SWEEP_VERBOSE:-}" ] && echo "killed after $done_rows rows: $(cat "$tmp/k.err")"
case $(cat "$tmp/k.err") in
*"400 points: "*" from the journal, "*" computed"*) n=$((n + 1)) ;;
*) bad "killed: $(cat "$tmp/k.err")" ;;
esac
[ "$done_rows" -le 400 ] || bad "journal over-full: $done_rows"

# Bad points are rows with their reason.
"$strata" sweep "$scn" --set 'workloads[finetune].model=llama3-8b,llama3-70b' \
    --set 'workloads[finetune].parallel.tp=1,2' --set 'cluster.nodes=2,0' >"$tmp/bad.csv" 2>/dev/null
rc=$?
expect "bad points exit" 0 $rc
expect "bad rows" 9 "$(wc -l <"$tmp/bad.csv")"
row() { grep "^$1," "$tmp/bad.csv" | cut -d, -f"$2"; }
expect "invalid plan" "invalid" "$(row 'llama3-8b,1,2' 4)"
expect "invalid plan's reason" \
    "\"$scn:14:15: error: workload 'finetune': tp*cp*pp*dp = 1*1*1*8 = 8, but gpus is 16\"" \
    "$(row 'llama3-8b,1,2' 11-)"
expect "bad value's reason" \
    "\"--set cluster.nodes=0: error: nodes must be at least 1, found '0'\"" \
    "$(row 'llama3-8b,2,0' 11-)"
expect "does not fit" "does-not-fit,,,312819590464,false" "$(row 'llama3-70b,2,2' 4-8)"
expect "ok" "ok" "$(row 'llama3-8b,2,2' 4)"

# A path the scenario does not have: one located error, with a suggestion, exit 2.
"$strata" sweep "$scn" --set 'cluster.fabrc.oversubscription=1,2' >/dev/null 2>"$tmp/e.err"
expect "unknown key exit" 2 $?
expect "unknown key" "--set cluster.fabrc.oversubscription: error: unknown key 'fabrc' in cluster; did you mean 'fabric'?" \
    "$(cat "$tmp/e.err")"
"$strata" sweep "$scn" --set 'workloads[fintune].steps=1,2' >/dev/null 2>"$tmp/e.err"
expect "unknown entry" "--set workloads[fintune].steps: error: workloads[fintune]: the list has no entry named 'fintune'; did you mean 'finetune'?" \
    "$(cat "$tmp/e.err")"
"$strata" sweep "$scn" --set 'cluster.nodes=1..4*1' >/dev/null 2>"$tmp/e.err"
expect "bad range exit" 2 $?
expect "bad range" "strata sweep: --set cluster.nodes=1..4*1: range '1..4*1': the factor must be more than 1 and the start more than 0" \
    "$(head -1 "$tmp/e.err")"

# The file's warnings are said once, not once a point.
printf 'submit,duration,gpus\n0,10,1\nx,10,1\n' >"$tmp/w.csv"
{ cat "$scn"; echo "trace: { file: $tmp/w.csv, format: csv }"; } >"$tmp/w.yaml"
"$strata" sweep "$tmp/w.yaml" --set 'cluster.nodes=2,4,8' >/dev/null 2>"$tmp/w.err"
expect "warnings once" 1 "$(grep -c 'warning: malformed trace row' "$tmp/w.err")"

# Formats and help.
"$strata" sweep "$scn" --set 'cluster.nodes=2,4' --format json >"$tmp/s.json" 2>/dev/null
expect "json" '"status":	"ok",' "$(grep -m1 -o '"status":.*' "$tmp/s.json")"
expect "json numbers" '"cluster.nodes":	4,' "$(grep -o '"cluster.nodes":.*' "$tmp/s.json" | tail -1)"
"$strata" sweep "$scn" --set 'cluster.nodes=2,4' --format markdown >"$tmp/s.md" 2>/dev/null
expect "markdown" "|---|---|" "$(sed -n 2p "$tmp/s.md" | cut -c1-9)"
"$strata" sweep --help >"$tmp/h.txt"
expect "help exit" 0 $?
grep -q -- '--set PATH=VALUES' "$tmp/h.txt" || bad "help lacks --set"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --format yaml >/dev/null 2>&1
expect "bad format" 2 $?

# --columns: the keys chosen, in their order; cost keys priced (16 GPUs x wall_s x 2 USD/h);
# an unknown or repeated key is a usage error; every key --help lists is one it takes.
"$strata" sweep "$scn" --set 'cost.delivery=cloud' --set 'cost.gpu_hour_price=2 USD/h' \
    --columns cost.total_usd,wall_s,steps >"$tmp/c.csv" 2>/dev/null || bad "--columns failed"
expect "columns header" "cost.delivery,cost.gpu_hour_price,status,finetune.cost.total_usd,finetune.wall_s,finetune.steps,reason" \
    "$(sed -n 1p "$tmp/c.csv")"
expect "columns cost" 1 "$(sed -n 2p "$tmp/c.csv" |
    awk -F, '{ d = $4 - 16 * $5 / 3600 * 2; print (d < 1e-4 && d > -1e-4) }')"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns step_tme_s >/dev/null 2>"$tmp/e.err"
expect "unknown column exit" 2 $?
expect "unknown column" "--columns: error: 'step_tme_s' is not a report key a sweep row can hold; did you mean 'step_time_s'? (strata sweep --help lists them)" \
    "$(head -1 "$tmp/e.err")"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns mfu,mfu >/dev/null 2>&1
expect "repeated column exit" 2 $?
keys=$(sed -n '/--columns KEYS/,/^$/p' "$tmp/h.txt" | tr ' ,()' '\n' | grep -E '^[a-z_.]+_[a-z_.]+$|^mfu$|^hfu$|^fits$|^steps$|^interruptions$|^goodput$' | sort -u)
expect "help lists 25 keys" 25 "$(echo "$keys" | wc -l)"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns "$(echo "$keys" | paste -sd,)" \
    >/dev/null 2>&1
expect "every listed key is taken" 0 $?

# A cost column on a scenario with no cost: section is empty on every row: a warning says so;
# none with a cost: section, nor for the other columns.
"$strata" sweep "$scn" --set cluster.nodes=1,2 --columns step_time_s,cost.total_usd \
    >/dev/null 2>"$tmp/cw"
expect "cost column without cost: warns" \
    "strata sweep: warning: --columns cost.total_usd: $scn has no cost: section, so the column is empty on every row" \
    "$(grep warning "$tmp/cw")"
"$strata" sweep "$src/scenarios/examples/finetune-70b-cloud.yaml" --set cluster.nodes=8,16 \
    --columns cost.total_usd >/dev/null 2>"$tmp/cw"
expect "cost column with cost: is quiet" "" "$(grep warning "$tmp/cw")"
"$strata" sweep "$scn" --set cluster.nodes=1,2 >/dev/null 2>"$tmp/cw"
expect "default columns are quiet" "" "$(grep warning "$tmp/cw")"
echo "$n checks, $fail failed"
[ $fail -eq 0 ]
