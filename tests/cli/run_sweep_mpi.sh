#!/usr/bin/env bash
# `mpirun -n 2 strata sweep` (docs/guide/sweep.md, MPI): two ranks share the grid, rank 0 alone
# writes, and the rows are byte-identical to -j 2's in CSV and JSON, on stdout and with -o; an
# interrupted MPI sweep resumes from its journal; -j under mpirun is refused, as is any command
# other than sweep.
# Usage: run_sweep_mpi.sh STRATA SOURCE_DIR MPIRUN
set -u
strata=$1
src=$2
mpirun=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
scn=$src/scenarios/examples/quickstart.yaml
grid=(--set 'cluster.nodes=2..8*2' --set 'workloads[finetune].global_batch=32..128*2'
    --set 'workloads[0].parallel.recompute=selective,full')
mpi=("$mpirun" -n 2 --oversubscribe --allow-run-as-root)
# In a sanitizer build (./build.sh test-asan): Open MPI's own allocations are never freed by
# MPI_Finalize, so LeakSanitizer is told of its libraries (lsan-openmpi.supp), with the slow
# unwinder so that every stack reaches MPI_Init through libraries built without frame pointers.
# Without ASan these variables are not read.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$src/tests/cli/lsan-openmpi.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}

"$strata" sweep "$scn" "${grid[@]}" -j 2 >"$tmp/j2.csv" 2>/dev/null || bad "-j 2 failed"
"${mpi[@]}" "$strata" sweep "$scn" "${grid[@]}" >"$tmp/m2.csv" 2>"$tmp/m2.err" || bad "mpirun failed"
n=$((n + 1))
cmp -s "$tmp/j2.csv" "$tmp/m2.csv" || bad "2 ranks and -j 2: the CSV differs"
expect "rows" 19 "$(wc -l <"$tmp/m2.csv")"
expect "stderr" "strata sweep: 18 points: 0 from the journal, 18 computed on 2 MPI ranks" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/m2.err")"

"$strata" sweep "$scn" "${grid[@]}" -j 2 --format json >"$tmp/j2.json" 2>/dev/null
"${mpi[@]}" "$strata" sweep "$scn" "${grid[@]}" --format json -o "$tmp/m2.json" 2>/dev/null ||
    bad "mpirun -o failed"
n=$((n + 1))
cmp -s "$tmp/j2.json" "$tmp/m2.json" || bad "2 ranks and -j 2: the JSON differs"
expect "journal lines" 18 "$(wc -l <"$tmp/m2.json.journal")"

# Resume: 7 rows of the journal and a torn eighth; the ranks compute the other 11.
head -7 "$tmp/m2.json.journal" >"$tmp/r.json.journal"
sed -n 8p "$tmp/m2.json.journal" | head -c 40 >>"$tmp/r.json.journal"
"${mpi[@]}" "$strata" sweep "$scn" "${grid[@]}" --format json -o "$tmp/r.json" 2>"$tmp/r.err" ||
    bad "resume failed"
expect "resumed" "strata sweep: 18 points: 7 from the journal, 11 computed on 2 MPI ranks" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/r.err")"
n=$((n + 1))
cmp -s "$tmp/j2.json" "$tmp/r.json" || bad "resumed JSON differs"

"${mpi[@]}" "$strata" sweep "$scn" "${grid[@]}" -j 2 >/dev/null 2>"$tmp/j.err"
expect "-j under mpirun exit" 2 "$?"
expect "-j under mpirun says" 1 "$(grep -c 'each MPI rank is one worker' "$tmp/j.err")"

# Any other command under mpirun would run whole in every rank: each rank refuses (exit 2).
"${mpi[@]}" "$strata" run "$scn" -o "$tmp/run.json" >/dev/null 2>"$tmp/run.err"
expect "run under mpirun exit" 2 "$?"
expect "run under mpirun says" 2 "$(grep -c 'only `strata sweep` shares its work' "$tmp/run.err")"
n=$((n + 1))
[ ! -e "$tmp/run.json" ] || bad "run under mpirun wrote its report"

echo "$n checks, $fail failed"
[ "$fail" -eq 0 ]
