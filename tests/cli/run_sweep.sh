#!/usr/bin/env bash
# `strata sweep` (docs/guide/sweep.md): -j 1 and -j 2 give byte-identical rows; an interrupted
# sweep resumes from its journal, computing only the points it lacks, to the same file; bad
# points (a plan that does not fit, values that do not load) are rows with their reason; a
# path the scenario does not have is a located error (exit 2); the formats; --help. A worker
# killed from outside loses its one point, an error row naming the signal, and the sweep exits
# 1 saying so; a journal row of another build is not reused; a FIFO journal or a planted link
# is refused at once, a FIFO -o written through; non-ASCII names come out whole in every format; CSV and Markdown cells
# cannot run anything; progress on a terminal.
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

# An empty -o is a usage error before any point runs: it computed them all, failed with exit
# 1, and left ./.journal behind.
(cd "$tmp" && "$strata" sweep "$scn" "${grid[@]}" -o '' >/dev/null 2>"$tmp/e.err")
expect "empty -o: exit" 2 "$?"
expect "empty -o: message" "strata sweep: -o needs a file name, found ''" "$(head -1 "$tmp/e.err")"
expect "empty -o: no journal" "" "$(ls -A "$tmp" | grep -x '.journal')"

# Ctrl-C (SIGINT) ends a sweep as the signal does (exit 130), with one line on stderr saying how
# many of how many rows are out and how to resume: it said nothing, its CSV cut after some rows.
big=(--set 'cluster.nodes=1..10000+1' --set 'workloads[finetune].steps=100,200')
# The count is of whole rows out when the signal came: one being written then may be out and
# not counted, hence "at least" (the signals are never held around a write).
# at_least NAME ROWS MESSAGE-PREFIX MESSAGE-SUFFIX FILE: FILE is one line, the prefix, a count of
# ROWS or ROWS - 1, then the suffix.
at_least() {
    local line got
    line=$(cat "$5")
    got=${line#"$3"}
    got=${got%%[!0-9]*}
    expect "$1" "1 $3$got$4" "$(wc -l <"$5" | tr -d ' ') $line"
    [ -n "$got" ] && [ "$got" -le "$2" ] && [ "$got" -ge $(($2 - 1)) ] ||
        bad "$1: a count of $2 or $(($2 - 1)) rows, got '$got'"
}
timeout --preserve-status -s INT 1 "$strata" sweep "$scn" "${big[@]}" >"$tmp/int.csv" 2>"$tmp/int.err"
expect "interrupted: exit" 130 $?
at_least "interrupted: one line" $(($(wc -l <"$tmp/int.csv") - 1)) \
    "strata sweep: interrupted: at least " \
    " of 20000 rows written to stdout; no journal to resume from: with -o FILE each row is journalled, and the same command resumes" \
    "$tmp/int.err"
timeout --preserve-status -s INT 1 "$strata" sweep "$scn" "${big[@]}" -j 2 -o "$tmp/int-o.csv" \
    >/dev/null 2>"$tmp/int.err"
expect "interrupted -o: exit" 130 $?
at_least "interrupted -o: the journal's rows, and how to resume" \
    "$(wc -l <"$tmp/int-o.csv.journal" | tr -d ' ')" "strata sweep: interrupted: at least " \
    " of 20000 rows are in the journal $tmp/int-o.csv.journal, $tmp/int-o.csv is not written: the same command resumes from the journal, computing the rest" \
    "$tmp/int.err"

# A sweep whose stdout is a full pipe (its reader never reads) still ends on SIGTERM, at once:
# the signals were held around the write, which blocked with them held for good.
mkfifo "$tmp/full"
sleep 30 <"$tmp/full" &
reader=$!
# wide rows on two workers: some 300 kB in the 4 s, past a pipe's 64 kB even under ASan
wide=step_time_s,mfu,memory_per_gpu_bytes,fits,wall_s,goodput,hfu,tokens_per_s,tflops_per_gpu
wide=$wide,steps,lost_work_s,downtime_s,power.energy_j,thermal.junction_c,memory.capacity_bytes
wide=$wide,breakdown.compute_s,run.power.facility_peak_w,run.scheduler.makespan_s
timeout --preserve-status -k 8 -s TERM 4 "$strata" sweep "$scn" "${big[@]}" -j 2 --columns "$wide" \
    >"$tmp/full" 2>"$tmp/full.err"
expect "a full pipe: TERM ends it (not the KILL 8 s later)" 143 $?
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
expect "a full pipe: what it says" 1 "$(grep -c '^strata sweep: interrupted: at least [0-9]* of 20000 rows written to stdout' "$tmp/full.err")"

# A signal the sweep is started ignoring stays ignored, in it and its workers (a background job
# of a non-interactive shell ignores SIGINT): the handler took it over, and the sweep died.
(
    trap '' INT
    exec "$strata" sweep "$scn" "${big[@]}" -j 2 -o "$tmp/ign.csv" 2>"$tmp/ign.err"
) &
ign=$!
sleep 1
kill -INT "$ign"
sleep 1
kill -0 "$ign" 2>/dev/null
expect "SIGINT ignored: still running" 0 $?
before=$(wc -l <"$tmp/ign.csv.journal" | tr -d ' ')
sleep 1
after=$(wc -l <"$tmp/ign.csv.journal" | tr -d ' ')
[ "$after" -gt "$before" ] || bad "SIGINT ignored: its workers still compute ($before then $after rows)"
kill -TERM "$ign"
wait "$ign"
expect "SIGINT ignored: TERM still ends it" 143 $?
expect "SIGINT ignored: one line, at TERM" 1 "$(wc -l <"$tmp/ign.err" | tr -d ' ')"

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
# the torn line is cut off, not ended with a newline: torn inside its last cell (a reason), it
# had all its cells and a later run took its reason cut short
expect "a torn line is cut from the journal" "$(sort "$tmp/a.csv.journal")" \
    "$(sort "$tmp/b.csv.journal")"
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

# An edited file the points read computes them again: a calibration given with --calibration,
# and a swept trace.file (before, the journal was keyed by their paths and gave stale rows).
printf 'version: 1\ncalibration:\n  gpu: h100-sxm\n  compute_bf16: 0.9\n' >"$tmp/cal.yaml"
cal=(--calibration "$tmp/cal.yaml" --set 'workloads[finetune].global_batch=32,64')
"$strata" sweep "$scn" "${cal[@]}" -o "$tmp/cal.csv" 2>/dev/null || bad "calibrated sweep failed"
"$strata" sweep "$scn" "${cal[@]}" -o "$tmp/cal.csv" 2>"$tmp/cal.err"
expect "same calibration" "strata sweep: 2 points: 2 from the journal, 0 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/cal.err")"
printf 'version: 1\ncalibration:\n  gpu: h100-sxm\n  compute_bf16: 0.6\n' >"$tmp/cal.yaml"
"$strata" sweep "$scn" "${cal[@]}" -o "$tmp/cal.csv" 2>"$tmp/cal.err"
expect "edited calibration" "strata sweep: 2 points: 0 from the journal, 2 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/cal.err")"
"$strata" sweep "$scn" "${cal[@]}" -o "$tmp/cal2.csv" 2>/dev/null
expect "edited calibration's rows are a fresh sweep's" "$(cat "$tmp/cal2.csv")" "$(cat "$tmp/cal.csv")"
# --calibration is an input of every point, not an axis: no column, said once in the description;
# a file that does not load stops the sweep before it starts, as run's does (it was an invalid
# row a point, exit 0, blamed on a --set cluster.calibration the user never typed).
expect "--calibration is no column" "workloads[finetune].global_batch,status" \
    "$(head -1 "$tmp/cal2.csv" | cut -d, -f1-2)"
"$strata" sweep "$scn" "${cal[@]}" --format markdown 2>/dev/null >"$tmp/cal.md"
expect "--calibration said once" "2 points, each a full run of the scenario with --calibration $tmp/cal.yaml: workloads\\[finetune\\].global_batch in 32, 64." \
    "$(sed -n 3p "$tmp/cal.md")"
"$strata" sweep "$scn" --set cluster.nodes=2 --calibration "$tmp/none.yaml" >"$tmp/cal.out" 2>"$tmp/e.err"
expect "missing --calibration exit" 2 $?
expect "missing --calibration" "--calibration $tmp/none.yaml: error: calibration file '$tmp/none.yaml': cannot open: No such file or directory" \
    "$(cat "$tmp/e.err")"
expect "missing --calibration: no rows" "" "$(cat "$tmp/cal.out")"
printf 'version: 1\ncalibration: [\n' >"$tmp/badcal.yaml"
"$strata" sweep "$scn" --set cluster.nodes=2 --calibration "$tmp/badcal.yaml" >"$tmp/cal.out" 2>"$tmp/e.err"
expect "unreadable --calibration exit" 2 $?
expect "unreadable --calibration" "$tmp/badcal.yaml:3:1: error: yaml:" "$(cut -d' ' -f1-3 "$tmp/e.err")"
"$strata" sweep "$scn" "${cal[@]}" --set cluster.calibration=x.yaml >/dev/null 2>"$tmp/e.err"
expect "--calibration and a swept cluster.calibration exit" 2 $?
expect "--calibration and a swept cluster.calibration" "strata sweep: --set cluster.calibration: --calibration $tmp/cal.yaml already gives every point its calibration; give one or the other" \
    "$(head -1 "$tmp/e.err")"

# A journal row whose key is a point's but whose cells are not that point's row (an edited
# status, a value that is not the point's) is refused at its line, exit 2, the results left as
# they were: they were copied into the results (a status XX, a point of 999 steps off the grid).
st=(--set 'workloads[finetune].steps=1..20+1')
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" 2>/dev/null || bad "steps sweep failed"
cp "$tmp/t.csv.journal" "$tmp/t.keep"
cp "$tmp/t.csv" "$tmp/t.want"
sed -i '5s/ok/XX/' "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" >/dev/null 2>"$tmp/e.err"
expect "edited journal status exit" 2 $?
expect "edited journal status" "strata sweep: $tmp/t.csv.journal:5: a row that is not its point's: its status 'XX' is none a sweep writes (ok, does-not-fit, invalid or error); the journal was edited or damaged: delete the line (or the journal) and the point is computed again" \
    "$(cat "$tmp/e.err")"
cp "$tmp/t.keep" "$tmp/t.csv.journal"
sed -i '7s/\t[0-9.]*\t/\t999\t/' "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" >/dev/null 2>"$tmp/e.err"
expect "edited journal value exit" 2 $?
expect "edited journal value" "strata sweep: $tmp/t.csv.journal:7: a row that is not its point's: its workloads[finetune].steps is '999', where the point its key names has '7'; the journal was edited or damaged: delete the line (or the journal) and the point is computed again" \
    "$(cat "$tmp/e.err")"
expect "edited journal: the results left as they were" "$(cat "$tmp/t.want")" "$(cat "$tmp/t.csv")"
# ... and a row whose figures or reason a sweep never writes: a figure that is not a number, CR
# line ends (a reason of '\r' on every ok row), a reason that is not UTF-8 (all three were copied
# into the results, exit 0)
cp "$tmp/t.keep" "$tmp/t.csv.journal"
sed -i '3s/\t1\.[0-9]*\t/\tabc\t/' "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" >/dev/null 2>"$tmp/e.err"
expect "a journal figure that is not a number" "2 strata sweep: $tmp/t.csv.journal:3: a row that is not its point's: its finetune.step_time_s is 'abc', where a sweep writes a number, true, false or nothing; the journal was edited or damaged: delete the line (or the journal) and the point is computed again" \
    "$? $(cat "$tmp/e.err")"
cp "$tmp/t.keep" "$tmp/t.csv.journal"
sed -i 's/$/\r/' "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" >/dev/null 2>"$tmp/e.err"
expect "a journal with CR line ends" "2 strata sweep: $tmp/t.csv.journal:1: a row that is not its point's: it is ok with a reason, (a value with control characters or bytes that are not UTF-8); the journal was edited or damaged: delete the line (or the journal) and the point is computed again" \
    "$? $(cat "$tmp/e.err")"
cp "$tmp/t.keep" "$tmp/t.csv.journal"
sed -i "4s/ok\t/invalid\t/; 4s/\t\$/\tx$(printf '\xff')/" "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" >/dev/null 2>"$tmp/e.err"
expect "a journal reason that is not UTF-8" "2 $tmp/t.csv.journal:4" "$? $(grep -o "$tmp/t.csv.journal:4" "$tmp/e.err")"
grep -q "its reason is (a value with control characters or bytes that are not UTF-8)" "$tmp/e.err" ||
    bad "a journal reason that is not UTF-8: $(cat "$tmp/e.err")"
expect "damaged journal: the results left as they were" "$(cat "$tmp/t.want")" "$(cat "$tmp/t.csv")"
cp "$tmp/t.keep" "$tmp/t.csv.journal"
sed -i 7d "$tmp/t.csv.journal"
"$strata" sweep "$scn" "${st[@]}" -o "$tmp/t.csv" 2>"$tmp/e.err"
expect "edited line deleted: computed again" "strata sweep: 20 points: 19 from the journal, 1 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/e.err")"
expect "edited line deleted: the results" "$(cat "$tmp/t.want")" "$(cat "$tmp/t.csv")"

# JSON keeps a swept value as given: 0x2 and 02 are text (strtod read them as 2, so three
# points printed as the same one), 3 a number.
"$strata" sweep "$scn" --set 'cluster.nodes=0x2,02,3' --format json 2>/dev/null >"$tmp/v.json"
expect "JSON value cells as given" '["0x2", "02", 3]' \
    "$(python3 -c 'import json,sys; print(json.dumps([p["cluster.nodes"] for p in json.load(open(sys.argv[1]))["points"]]))' "$tmp/v.json")"

# A value is what the loader reads: white space around it dropped (' 2' was a JSON string and a
# point of its own), and two values it reads alike (2 and 2.0) are refused as one point twice.
"$strata" sweep "$scn" --set 'cluster.nodes= 2,4 ' --format json 2>/dev/null >"$tmp/v.json"
expect "JSON values trimmed" '[2, 4]' \
    "$(python3 -c 'import json,sys; print(json.dumps([p["cluster.nodes"] for p in json.load(open(sys.argv[1]))["points"]]))' "$tmp/v.json")"
"$strata" sweep "$scn" --set 'cluster.nodes=2, 2.0' >"$tmp/v.csv" 2>"$tmp/e.err"
expect "one value twice exit" 2 $?
expect "one value twice" "strata sweep: --set cluster.nodes=2, 2.0: '2' and '2.0' are the same value given twice: the scenario reads them alike" \
    "$(head -1 "$tmp/e.err")"

# A killed sweep: the journal holds whole rows only, and the rerun completes the same file.
"$strata" sweep "$scn" --set 'workloads[0].steps=1..400+1' -j 2 >"$tmp/k.want" 2>/dev/null
"$strata" sweep "$scn" --set 'workloads[0].steps=1..400+1' -j 2 -o "$tmp/k.csv" 2>/dev/null &
pid=$!
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
# grep -c prints 0 and fails on an empty journal (a kill before the first row, as under ASan on
# a loaded machine): `|| echo 0` would then print a second 0.
done_rows=$(grep -c . "$tmp/k.csv.journal" 2>/dev/null)
done_rows=${done_rows:-0}
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
# A text cell starting with '-' is a formula to a spreadsheet: quoted, after a single quote.
expect "bad value's reason" \
    "\"'--set cluster.nodes=0: error: nodes must be at least 1, found '0'\"" \
    "$(row 'llama3-8b,2,0' 11-)"
expect "does not fit" "does-not-fit,,,312438590464,false" "$(row 'llama3-70b,2,2' 4-8)"
expect "ok" "ok" "$(row 'llama3-8b,2,2' 4)"

# A path the scenario does not have: one located error, with a suggestion, exit 2.
"$strata" sweep "$scn" --set 'cluster.fabrc.oversubscription=1,2' >/dev/null 2>"$tmp/e.err"
expect "unknown key exit" 2 $?
expect "unknown key" "--set cluster.fabrc.oversubscription: error: unknown key 'fabrc' in cluster; did you mean 'fabric'?" \
    "$(cat "$tmp/e.err")"
"$strata" sweep "$scn" --set 'workloads[fintune].steps=1,2' >/dev/null 2>"$tmp/e.err"
expect "unknown entry" "--set workloads[fintune].steps: error: workloads[fintune]: the list has no entry named 'fintune'; did you mean 'finetune'?" \
    "$(cat "$tmp/e.err")"
# A path's character that no key holds is quoted whole (it was '\xc3' of 'é'), and a selection
# by a name too long for one says so (it said "needs an index or a name, then ']'" of both).
"$strata" sweep "$scn" --set 'é=1' >/dev/null 2>"$tmp/e.err"
expect "a path's UTF-8 character" "2 strata sweep: --set é=1: expected a key at character 1 of the path, found 'é'" \
    "$? $(head -1 "$tmp/e.err")"
"$strata" sweep "$scn" --set 'workloads[café].é=1' >/dev/null 2>"$tmp/e.err"
expect "a path's character counted as one" "strata sweep: --set workloads[café].é=1: expected a key at character 17 of the path, found 'é'" \
    "$(head -1 "$tmp/e.err")"
long=$(printf 'a%.0s' $(seq 300))
"$strata" sweep "$scn" --set "workloads[$long].steps=1" >/dev/null 2>"$tmp/e.err"
expect "a selection's name too long" "2 strata sweep: --set workloads[$long].steps=1: the name in '[...]' at character 10 of the path has 300 bytes, more than the 127 a selection by name holds: select the entry by its index ([0] is the first)" \
    "$? $(head -1 "$tmp/e.err")"
# One key under two spellings (an entry by name and by index, a zero-padded index): the later
# --set won on every point, and the earlier's column said values no row ran, exit 0.
for p2 in 'workloads[finetune].steps' 'workloads[00].steps'; do
    "$strata" sweep "$scn" --set 'workloads[0].steps=2,3' --set "$p2=4,5" >"$tmp/r.out" 2>"$tmp/e.err"
    expect "$p2 beside workloads[0].steps exit" 2 $?
    expect "$p2 beside workloads[0].steps" "--set $p2: error: $p2 and the earlier --set's workloads[0].steps are one key (workloads[0].steps): swept twice, a row's column would say a value the row did not run" \
        "$(cat "$tmp/e.err")"
    expect "$p2 beside workloads[0].steps: no rows" "" "$(cat "$tmp/r.out")"
done
"$strata" sweep "$scn" --set 'workloads[finetune].steps=2,3' --set 'workloads[0].global_batch=32,64' \
    >/dev/null 2>&1
expect "two keys of one entry, by name and index" 0 $?
# An index padded past nine digits is the entry its value names, for the load as for the key
# check above: the load refused `[0000000000]` as "no such entry" that the check called entry 0.
"$strata" sweep "$scn" --set 'workloads[0000000000].steps=2,3' >"$tmp/r.out" 2>"$tmp/e.err"
expect "a ten-digit zero-padded index: exit" 0 $?
expect "a ten-digit zero-padded index: rows" "$(printf '2,ok\n3,ok')" "$(sed -n 2,3p "$tmp/r.out" | cut -d, -f1,2)"
"$strata" sweep "$scn" --set 'workloads[0].steps=2,3' --set 'workloads[0000000000].steps=4,5' \
    >/dev/null 2>"$tmp/e.err"
expect "a ten-digit zero-padded index beside workloads[0]" "--set workloads[0000000000].steps: error: workloads[0000000000].steps and the earlier --set's workloads[0].steps are one key (workloads[0].steps): swept twice, a row's column would say a value the row did not run" \
    "$(cat "$tmp/e.err")"
"$strata" sweep "$scn" --set 'workloads[0000000001].steps=2,3' >/dev/null 2>"$tmp/e.err"
expect "a ten-digit zero-padded index past the end" "--set workloads[0000000001].steps: error: workloads[0000000001]: no such entry" \
    "$(cut -d';' -f1 "$tmp/e.err")"
"$strata" sweep "$scn" --set 'cluster.nodes=1..4*1' >/dev/null 2>"$tmp/e.err"
expect "bad range exit" 2 $?
expect "bad range" "strata sweep: --set cluster.nodes=1..4*1: range '1..4*1': the factor must be more than 1 and the start more than 0" \
    "$(head -1 "$tmp/e.err")"
# A range reads its numbers as a single value does (the loader's grammar): hex, NaN or a number
# past a double is a usage error naming the --set, not one literal point run as invalid, exit 0.
for r in '0x10..32*2|0x10' '1e400..1e401*2|1e400' 'nan..8+1|nan'; do
    "$strata" sweep "$scn" --set "cluster.nodes=${r%|*}" >"$tmp/r.out" 2>"$tmp/e.err"
    expect "range ${r%|*} exit" 2 $?
    expect "range ${r%|*}" "strata sweep: --set cluster.nodes=${r%|*}: range '${r%|*}': '${r#*|}' is not a plain decimal number, as a scenario's numbers are (no hex, NaN or infinity, none past a double's range)" \
        "$(head -1 "$tmp/e.err")"
    expect "range ${r%|*}: no rows" "" "$(cat "$tmp/r.out")"
done

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
# the scenario's name as the title, the answer in words (points and axes), then the table
expect "markdown title" "# quickstart" "$(sed -n 1p "$tmp/s.md")"
expect "markdown summary" "2 points, each a full run of the scenario: cluster.nodes in 2, 4." "$(sed -n 3p "$tmp/s.md")"
expect "markdown" "|---|---|" "$(sed -n 6p "$tmp/s.md" | cut -c1-9)"
"$strata" sweep --help >"$tmp/h.txt"
expect "help exit" 0 $?
grep -q -- '--set PATH=VALUES' "$tmp/h.txt" || bad "help lacks --set"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --format yaml >/dev/null 2>&1
expect "bad format" 2 $?

# A reader's formats say a figure's boolean as every report does (yes, no: run's and size's
# HTML and Markdown), CSV and JSON keep true and false; one point is "1 point".
"$strata" sweep "$scn" --set 'workloads[finetune].model=llama3-8b,llama3-70b' --format markdown \
    2>/dev/null >"$tmp/b.md"
expect "markdown fits" "yes no" "$(awk -F' [|] ' 'NR > 6 { printf "%s%s", s, $6; s = " " }' "$tmp/b.md")"
"$strata" sweep "$scn" --set 'workloads[finetune].model=llama3-8b,llama3-70b' --format html \
    2>/dev/null >"$tmp/b.html"
expect "html fits" "yes no" "$(grep -o '<td>\(yes\|no\|true\|false\)</td>' "$tmp/b.html" |
    sed 's/<[^>]*>//g' | paste -sd' ')"
"$strata" sweep "$scn" --set 'workloads[finetune].model=llama3-8b,llama3-70b' 2>/dev/null >"$tmp/b.csv"
expect "csv fits" "true false" "$(cut -d, -f6 "$tmp/b.csv" | tail -2 | paste -sd' ')"
# -j 3 on one point starts one worker, and says so
"$strata" sweep "$scn" --set 'cluster.nodes=2' -j 3 --format markdown >"$tmp/one.md" 2>"$tmp/one.err"
expect "one point" "strata sweep: 1 point: 0 from the journal, 1 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/one.err")"
expect "one point's summary" "1 point, a full run of the scenario: cluster.nodes in 2." \
    "$(sed -n 3p "$tmp/one.md")"
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
# A cost breakdown's column takes the JSON report's path (cost.breakdown.X); its old name is
# refused with the new one as the suggestion.
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns cost.capex_usd >/dev/null 2>"$tmp/e.err"
expect "renamed column exit" 2 $?
expect "renamed column" "--columns: error: 'cost.capex_usd' is not a report key a sweep row can hold; did you mean 'cost.breakdown.capex_usd'? (strata sweep --help lists them)" \
    "$(head -1 "$tmp/e.err")"
# A column named with its job before it, as the table heads it, is told its name.
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns finetune.tokens_per_s >/dev/null \
    2>"$tmp/e.err"
expect "job-named column" "--columns: error: 'finetune.tokens_per_s': a column is named without its job ('tokens_per_s'), and every job gets it" \
    "$(head -1 "$tmp/e.err")"
# A replicas' statistic is refused: a sweep runs no replicas, and the column was empty on every
# row with no word of why (--help and the guide gave it as an example).
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns mfu,replicas.wall_s.p90 >"$tmp/e.csv" \
    2>"$tmp/e.err"
expect "replicas column: exit" 2 $?
expect "replicas column: message" "--columns: error: 'replicas.wall_s.p90': a sweep runs each point once, never replicas, so the column would be empty on every row: \`strata run --replicas N\` gives the replicas' statistics of one point" \
    "$(head -1 "$tmp/e.err")"
expect "replicas column: no rows" "" "$(cat "$tmp/e.csv")"
# ... and no replicas' key is suggested: 'replicas.mean' was told "did you mean 'replicas.n'?",
# which is refused in turn; 'replicas.wall_s' was sent to its .mean; and a job's name, jobs[] or
# run. before it was hinted to 'replicas.n', refused in turn (a review found).
for c in replicas.mean replicas.wall_s finetune.replicas.n 'jobs[].replicas.n' run.replicas.n; do
    "$strata" sweep "$scn" --set 'cluster.nodes=2' --columns "$c" >/dev/null 2>"$tmp/e.err"
    expect "--columns $c: refused as a replicas' figure" "2 --columns: error: '$c': a sweep runs each point once, never replicas, so the column would be empty on every row: \`strata run --replicas N\` gives the replicas' statistics of one point" \
        "$? $(head -1 "$tmp/e.err")"
done
"$strata" sweep --help | grep -q 'replicas.wall_s.p90\|not a regular file$'
expect "--help: no replicas example, no 'not a regular file' exit" 1 $?
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns mfu,mfu >/dev/null 2>&1
expect "repeated column exit" 2 $?
# --resume, which a sweep does not need, says how it resumes (it said only "unknown option")
"$strata" sweep "$scn" --set 'cluster.nodes=2' --resume >/dev/null 2>"$tmp/e.err"
expect "--resume: how a sweep resumes" "2 1" \
    "$? $(grep -c "unknown option '--resume': a sweep given -o FILE journals each row to FILE.journal, and the same command run again resumes from it" "$tmp/e.err")"
# The list is the report's rows that are sweep columns (report/figures_table.c), generated: a
# training job's and a service's, the latency percentiles among the latter.
keys=$(sed -n '/^columns of a /,$p' "$tmp/h.txt" | grep -v '^columns of' | tr ' ,' '\n' | grep . | sort -u)
expect "help lists 50 keys" 50 "$(echo "$keys" | wc -l)"
expect "help lists the service's p99 time to first token" 1 "$(grep -c 'inference.ttft_s.p99' "$tmp/h.txt")"
"$strata" sweep "$scn" --set 'cluster.nodes=2' --columns "$(echo "$keys" | paste -sd,)" \
    >/dev/null 2>&1
expect "every listed key is taken" 0 $?

# Every number or boolean of a job in the run's JSON report is a column, by its path after
# jobs[] (cost.breakdown.wear_usd, thermal.junction_c, memory.capacity_bytes, breakdown.* and a
# statistic of replicas were refused), and the run's own figures are columns after run., one a
# row: each cell the number run --format json prints for the same scenario.
printf 'cost:\n  delivery: cloud\n' | cat "$scn" - >"$tmp/qc.yaml"
cols=cost.breakdown.wear_usd,thermal.junction_c,memory.capacity_bytes,breakdown.compute_s
cols=$cols,run.power.facility_peak_w,run.scheduler.makespan_s,run.scheduler.utilization
cols=$cols,run.scheduler.energy_j
"$strata" sweep "$scn" --set cost.delivery=cloud --columns "$cols" --format json \
    >"$tmp/any.json" 2>"$tmp/any.err" || bad "any report key: $(cat "$tmp/any.err")"
"$strata" run "$tmp/qc.yaml" --format json >"$tmp/any-run.json" 2>/dev/null
expect "any report key: the run report's numbers" "ok" "$(python3 -c '
import json, sys
sw, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
p, j = sw["points"][0], run["jobs"][0]
want = {"finetune.cost.breakdown.wear_usd": j["cost"]["breakdown"]["wear_usd"],
        "finetune.thermal.junction_c": j["thermal"]["junction_c"],
        "finetune.memory.capacity_bytes": j["memory"]["capacity_bytes"],
        "finetune.breakdown.compute_s": j["breakdown"]["compute_s"],
        "run.power.facility_peak_w": run["power"]["facility_peak_w"],
        "run.scheduler.makespan_s": run["scheduler"]["makespan_s"],
        "run.scheduler.utilization": run["scheduler"]["utilization"],
        "run.scheduler.energy_j": run["scheduler"]["energy_j"]}
bad = [k for k in want if p.get(k) != want[k]]
print("ok" if not bad and sw["columns"][-2] == "run.scheduler.energy_j" else bad)' "$tmp/any.json" "$tmp/any-run.json")"
"$strata" sweep "$scn" --set cluster.nodes=2 --columns run.power.facility_peak_w,mfu \
    >"$tmp/run.csv" 2>/dev/null
expect "a run column after the jobs'" "cluster.nodes,status,finetune.mfu,run.power.facility_peak_w,reason" \
    "$(head -1 "$tmp/run.csv")"
# A scenario of a trace's jobs alone (its rows held nothing, with a warning) sweeps the
# scheduler's figures; the warning says how.
philly=$src/scenarios/examples/philly-512gpu.yaml
"$strata" sweep "$philly" --set scheduler.policy=fifo,sjf >/dev/null 2>"$tmp/ph.err"
expect "trace alone: the warning names run. columns" 1 "$(grep -c 'columns named run\. and their path' "$tmp/ph.err")"
"$strata" sweep "$philly" --set scheduler.policy=fifo,sjf \
    --columns run.scheduler.makespan_s,run.scheduler.utilization >"$tmp/ph.csv" 2>"$tmp/ph.err"
expect "trace alone: no warning with run columns" "" "$(grep warning "$tmp/ph.err")"
expect "trace alone: the run's figures" 1 "$(sed -n 2p "$tmp/ph.csv" |
    awk -F, '{ print ($3 > 0 && $4 > 0 && $4 <= 1) }')"
# What no column holds says what it is: text, a list, statistics not named down to one.
for c in "name|'name' is text" "step_time_s_band[]|is a list in the report" \
    "inference.ttft_s|is statistics: a column holds one of them" \
    "run.jobs[].mfu|a job's figure is named by its path after jobs[] ('mfu')" \
    "run.power.facility_pek_w|did you mean 'run.power.facility_peak_w'?"; do
    "$strata" sweep "$scn" --set cluster.nodes=2 --columns "${c%%|*}" >/dev/null 2>"$tmp/e.err"
    expect "--columns ${c%%|*}: refused" "2 1" "$? $(grep -cF -- "${c#*|}" "$tmp/e.err")"
done

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

# A worker killed from outside (kill -9, as the OOM killer does; SIGABRT, as a crash does)
# loses the one point it was on: that point is an error row naming the signal, every other
# row is there and as a whole sweep has it, the sweep exits 1 and says how many failed, and the
# journal lacks the failed point, so the same command computes it alone. Points of the 405B
# example take a quarter of a second each, so the worker killed is almost surely computing one;
# when it was between two (it had no point), nothing is lost and the kill is tried again.
big=$src/scenarios/examples/llama3-405b-16k.yaml
"$strata" sweep "$big" --set 'seed=1..8+1' -j 2 >"$tmp/big.want" 2>/dev/null || bad "405B sweep failed"
# children PID: the processes whose parent is PID (from /proc: pgrep may not be installed).
children() {
    local f p c s pp rest
    for f in /proc/[0-9]*/stat; do
        read -r p c s pp rest 2>/dev/null <"$f" && [ "$pp" = "$1" ] && echo "$p"
    done
}
# kill_one SIG NAME: sweep to NAME.csv -j 2, send SIG to a worker once a row is journalled.
kill_one() {
    local try pid k
    for try in 1 2 3; do
        rm -f "$tmp/$2.csv" "$tmp/$2.csv.journal"
        "$strata" sweep "$big" --set 'seed=1..8+1' -j 2 -o "$tmp/$2.csv" 2>"$tmp/$2.err" &
        pid=$!
        for _ in $(seq 600); do
            [ -s "$tmp/$2.csv.journal" ] && break
            sleep 0.05
        done
        k=$(children $pid | head -1)
        [ -n "$k" ] && kill "-$1" "$k"
        wait $pid
        echo $? >"$tmp/$2.rc"
        grep -q ',error,' "$tmp/$2.csv" && return
    done
}
for sig in KILL:9 ABRT:6; do
    name=${sig%:*}
    kill_one "$name" "$name"
    expect "killed worker ($name): exit" 1 "$(cat "$tmp/$name.rc")"
    expect "killed worker ($name): rows" 9 "$(wc -l <"$tmp/$name.csv")"
    expect "killed worker ($name): error rows" 1 "$(grep -c ',error,' "$tmp/$name.csv")"
    expect "killed worker ($name): reason" \
        "the worker process computing this point was killed by signal ${sig#*:} (SIG$name)" \
        "$(grep ',error,' "$tmp/$name.csv" | awk -F, '{ print $NF }')"
    expect "killed worker ($name): the other rows" "$(grep -v "^$(grep ',error,' "$tmp/$name.csv" |
        cut -d, -f1)," "$tmp/big.want")" "$(grep -v ',error,' "$tmp/$name.csv")"
    expect "killed worker ($name): says so" \
        "strata sweep: error: 1 of 8 points failed: the worker process computing it died (the reason column says how); the journal lacks them, so the same command computes them again" \
        "$(grep 'failed' "$tmp/$name.err")"
    expect "killed worker ($name): journal" 7 "$(wc -l <"$tmp/$name.csv.journal")"
done
"$strata" sweep "$big" --set 'seed=1..8+1' -j 2 -o "$tmp/KILL.csv" 2>"$tmp/KILL.err"
expect "killed worker: rerun exit" 0 $?
expect "killed worker: rerun computes the failed point" \
    "strata sweep: 8 points: 7 from the journal, 1 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/KILL.err")"
expect "killed worker: rerun's file" "$(cat "$tmp/big.want")" "$(cat "$tmp/KILL.csv")"

# A journal row of another build of strata is not reused, whatever the version string says: one
# keyed as a build with strata_version 0.1.0 was keyed before build identities, and one keyed by
# another identity; both hold made-up figures that must not reach the output.
"$strata" sweep "$scn" --set 'cluster.nodes=1,2' --format json >"$tmp/id.json" 2>/dev/null
"$strata" sweep "$scn" --set 'cluster.nodes=1,2' >"$tmp/id.want" 2>/dev/null
python3 - "$tmp/id.json" "$tmp/id.csv.journal" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def fnv(h, b):
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
def key(head, cols, value):
    h = fnv(0xcbf29ce484222325, head)
    for c in cols:
        h = fnv(h, c.encode() + b"\n")
    return "%016x" % fnv(h, b"cluster.nodes=" + value.encode() + b"\n")
cols, hs = doc["columns"], doc["scenario_hash"]
with open(sys.argv[2], "w") as j:
    for v in ("1", "2"):
        cells = [v, "ok"] + ["999"] * (len(cols) - 3) + [""]
        old = key((hs + " 0.1.0\n").encode(), cols, v)
        other = key((hs + " " + "0" * 16 + "  " + "f" * 64 + "\n").encode(), cols, v)
        for k in (old, other):
            j.write(k + "\t" + "\t".join(cells) + "\n")
PY
"$strata" sweep "$scn" --set 'cluster.nodes=1,2' -o "$tmp/id.csv" 2>"$tmp/id.err"
expect "another build's rows" "strata sweep: 2 points: 0 from the journal, 2 computed on 1 worker" \
    "$(sed 's/ in [0-9.]* s$//' "$tmp/id.err")"
expect "another build's figures unused" "$(cat "$tmp/id.want")" "$(cat "$tmp/id.csv")"

# A FIFO never blocks a sweep: as the scenario, as the journal; as -o it is written through at
# the end, as every command's -o is (it was refused, where size -o wrote it), with no journal;
# a symbolic link planted as the journal is refused, and the file it names is left alone; an
# output that is the scenario is refused.
mkfifo "$tmp/fifo.yaml" "$tmp/fo.csv" "$tmp/fj.csv.journal"
timeout 10 "$strata" sweep "$tmp/fifo.yaml" --set cluster.nodes=1,2 >/dev/null 2>"$tmp/e.err"
expect "FIFO scenario exit" 2 $?
expect "FIFO scenario" "$tmp/fifo.yaml: error: not a regular file (a FIFO, socket or device); a scenario is a file" \
    "$(cat "$tmp/e.err")"
timeout 20 cat "$tmp/fo.csv" >"$tmp/fo.got" & # a build that refuses the FIFO never opens it
reader=$!
timeout 10 "$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/fo.csv" >/dev/null 2>"$tmp/e.err"
expect "FIFO -o exit" 0 $?
wait $reader
expect "FIFO -o: the rows through it" 3 "$(wc -l <"$tmp/fo.got")"
expect "FIFO -o: no journal, said" "1 0" "$(grep -c "no journal to resume from" "$tmp/e.err") $(ls "$tmp" | grep -c 'fo.csv.journal')"
[ -p "$tmp/fo.csv" ] || bad "FIFO -o: replaced"
# ... and a device as size's: /dev/full fails at the write (exit 1, why), not refused (exit 2)
if [ -w /dev/full ]; then
    "$strata" sweep "$scn" --set cluster.nodes=1 -o /dev/full >/dev/null 2>"$tmp/e.err"
    expect "-o /dev/full exit, as size's" 1 $?
    expect "-o /dev/full: why" 1 "$(grep -c "strata sweep: cannot write '/dev/full': No space left on device" "$tmp/e.err")"
fi
timeout 10 "$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/fj.csv" >/dev/null 2>"$tmp/e.err"
expect "FIFO journal exit" 2 $?
expect "FIFO journal" "strata sweep: the journal '$tmp/fj.csv.journal': not a regular file (a FIFO, socket, device or directory); a sweep appends its rows to a file" \
    "$(cat "$tmp/e.err")"
echo precious >"$tmp/precious"
ln -s "$tmp/precious" "$tmp/l.csv.journal"
"$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/l.csv" >/dev/null 2>"$tmp/e.err"
expect "planted journal link exit" 2 $?
expect "planted journal link" "strata sweep: $tmp/l.csv.journal: the journal is a symbolic link; a journal is never written through one (remove it)" \
    "$(cat "$tmp/e.err")"
expect "planted link's target untouched" precious "$(cat "$tmp/precious")"
# A file at RESULTS.journal that is no journal (the rows of `-o r.csv.journal`, any file of the
# user's) is refused and left as it was: a sweep appended journal rows to it.
"$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/fr.csv.journal" >/dev/null 2>&1
cp "$tmp/fr.csv.journal" "$tmp/fr.rows"
"$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/fr.csv" >/dev/null 2>"$tmp/e.err"
expect "foreign journal exit" 2 $?
expect "foreign journal" "strata sweep: $tmp/fr.csv.journal: not a sweep journal (its first line is no journal row), and a sweep appends to nothing else: move it, or choose another -o" \
    "$(cat "$tmp/e.err")"
n=$((n + 1))
cmp -s "$tmp/fr.rows" "$tmp/fr.csv.journal" || bad "foreign journal: the file was changed"
# -o that names another sweep's journal is refused, the journal left as it was: the results
# written over it lost the rows that sweep resumes from.
"$strata" sweep "$scn" --set cluster.nodes=2,4 -o "$tmp/oj.csv" >/dev/null 2>&1
cp "$tmp/oj.csv.journal" "$tmp/oj.keep"
"$strata" sweep "$scn" --set cluster.nodes=2,4 -o "$tmp/oj.csv.journal" >/dev/null 2>"$tmp/e.err"
expect "-o a journal exit" 2 $?
expect "-o a journal" "strata sweep: -o '$tmp/oj.csv.journal': a sweep's journal (its first line is a journal row); the rows would replace those its sweep resumes from: choose another -o" \
    "$(cat "$tmp/e.err")"
n=$((n + 1))
cmp -s "$tmp/oj.keep" "$tmp/oj.csv.journal" || bad "-o a journal: the journal was changed"
# an -o whose extension sweep cannot write is refused (r.xml got CSV); --format says what it gets
"$strata" sweep "$scn" --set cluster.nodes=2,4 -o "$tmp/r.xml" >/dev/null 2>"$tmp/e.err"
expect "-o r.xml exit" 2 $?
expect "-o r.xml" "strata sweep: -o '$tmp/r.xml': sweep writes no .xml file: name it .csv, .json, .md or .html, or give the --format it gets" \
    "$(head -1 "$tmp/e.err")"
expect "-o r.xml: nothing written" "" "$(ls "$tmp" | grep '^r\.xml')"
# and so is one that run, size, compare or calibrate writes (they overwrote it)
cal=$src/scenarios/examples/calibrate/mpt-h100.yaml
for cmd in "run $scn -o" "size $scn --deadline 30d -o" "compare $scn -o" "run $scn --trace" \
    "calibrate $cal --step mpt-7b-8gpu=1s -o"; do
    # shellcheck disable=SC2086
    "$strata" $cmd "$tmp/oj.csv.journal" >/dev/null 2>"$tmp/e.err"
    expect "$cmd a journal exit" 2 $?
    what=${cmd##* }
    expect "$cmd a journal" "strata ${cmd%% *}: $what '$tmp/oj.csv.journal': a sweep's journal (its first line is a journal row); writing it would lose the rows its sweep resumes from: choose another name" \
        "$(head -1 "$tmp/e.err")"
    n=$((n + 1))
    cmp -s "$tmp/oj.keep" "$tmp/oj.csv.journal" || bad "$cmd a journal: the journal was changed"
done
expect "-o a journal: no journal of its own" "" "$(ls "$tmp" | grep -F oj.csv.journal.journal)"
# ...but a journal whose first row a kill tore inside its key is still the sweep's own
printf 'c276e1665c' >"$tmp/tj.csv.journal"
"$strata" sweep "$scn" --set cluster.nodes=1,2 -o "$tmp/tj.csv" >/dev/null 2>&1
expect "torn first journal row exit" 0 $?
cp "$scn" "$tmp/self.yaml"
"$strata" sweep "$tmp/self.yaml" --set cluster.nodes=1,2 -o "$tmp/self.yaml" >/dev/null 2>"$tmp/e.err"
expect "-o the scenario exit" 2 $?
n=$((n + 1))
cmp -s "$scn" "$tmp/self.yaml" || bad "-o the scenario: the scenario was changed"

# Usage: a sweep needs a --set; -j says its true bounds.
"$strata" sweep "$scn" >/dev/null 2>"$tmp/e.err"
expect "no --set exit" 2 $?
expect "no --set" "strata sweep: expected at least one --set PATH=V1,V2,... to sweep (\`strata run FILE\` runs the file as it is)" \
    "$(head -1 "$tmp/e.err")"
# -j through the shared value parser: each message states the true bound.
for jw in "0|-j must be at least 1, found '0'" \
    "257|-j: 257 is beyond the most worker processes sweep starts (at most 256: one process a point in flight)" \
    "x|-j: expected a number, found 'x'" "1.5|-j: expected a whole number, found '1.5'"; do
    j=${jw%%|*}
    "$strata" sweep "$scn" --set cluster.nodes=1 -j "$j" >/dev/null 2>"$tmp/e.err"
    expect "-j $j" "strata sweep: ${jw#*|}" "$(head -1 "$tmp/e.err")"
done
"$strata" sweep "$scn" --set cluster.nodes=1,2 -j 256 >/dev/null 2>&1
expect "-j 256 is taken" 0 $?

# Non-ASCII names and values come out whole: a 16-character Chinese workload name and values of
# 1,201 and 601 bytes (longer than the fixed cell and label buffers there were, and not a whole
# number of 3-byte characters from their start) through every format: valid UTF-8 everywhere, the JSON parses, the value
# whole in it. A --set value that is not UTF-8 is refused.
zh=训练作业名称测试中文字符十六个字
sed "s/name: finetune/name: $zh/" "$scn" >"$tmp/zh.yaml"
long=a$(printf '值%.0s' $(seq 400))
mid=a$(printf '值%.0s' $(seq 200))
for f in csv json markdown html; do
    "$strata" sweep "$tmp/zh.yaml" --set cluster.nodes=2,1 --set "name=$long,$mid" --format $f \
        >"$tmp/zh.$f" 2>/dev/null
    expect "non-ASCII $f exit" 0 $?
    python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$tmp/zh.$f" 2>/dev/null
    expect "non-ASCII $f is UTF-8" 0 $?
done
expect "non-ASCII json" "$long $zh.step_time_s" "$(python3 -c 'import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
print(d["points"][0]["name"], d["columns"][3])' "$tmp/zh.json")"
"$strata" sweep "$scn" --set "name=$(printf 'a\377b')" >/dev/null 2>"$tmp/e.err"
expect "not UTF-8 exit" 2 $?
expect "not UTF-8" "strata sweep: --set: not valid UTF-8 (byte 7)" "$(head -1 "$tmp/e.err")"

# Text cells cannot run: a CSV cell that a spreadsheet reads as a formula is quoted after a
# single quote (OWASP), a negative number stays a number; Markdown escapes HTML and
# the brackets that would make a link (report/report.h's cells).
sed 's/name: finetune/name: "=HYPERLINK(x)"/' "$scn" >"$tmp/inj.yaml"
"$strata" sweep "$tmp/inj.yaml" --set 'name=@SUM(1+1),-2,+cmd|x,<script>x</script>' \
    --columns step_time_s >"$tmp/inj.csv" 2>/dev/null
expect "CSV header neutralised" "name,status,\"'=HYPERLINK(x).step_time_s\",reason" \
    "$(sed -n 1p "$tmp/inj.csv")"
expect "CSV @ neutralised" "\"'@SUM(1+1)\"" "$(sed -n 2p "$tmp/inj.csv" | cut -d, -f1)"
expect "CSV negative number kept" "-2" "$(sed -n 3p "$tmp/inj.csv" | cut -d, -f1)"
expect "CSV + neutralised" "\"'+cmd|x\"" "$(sed -n 4p "$tmp/inj.csv" | cut -d, -f1)"
"$strata" sweep "$scn" --set 'name=<script>alert(1)</script>,[x](javascript:alert(1)),<javascript:x>' \
    --columns step_time_s --format markdown >"$tmp/inj.md" 2>/dev/null
expect "Markdown script" "| &lt;script&gt;alert(1)&lt;/script&gt; |" "$(sed -n 7p "$tmp/inj.md" | cut -d'|' -f1-2)|"
expect "Markdown link" '| \[x\](javascript:alert(1)) |' "$(sed -n 8p "$tmp/inj.md" | cut -d'|' -f1-2)|"
expect "Markdown autolink" '| &lt;javascript:x&gt; |' "$(sed -n 9p "$tmp/inj.md" | cut -d'|' -f1-2)|"

# Progress on a terminal only, after its first second: on a pseudo-terminal (script(1)) the line
# counts the points. STRATA_PROGRESS=always draws it from the start, so the check does not hang
# on how fast 24 points run; =never draws none, even on a terminal.
if command -v script >/dev/null 2>&1; then
    script -qfec "env STRATA_PROGRESS=always $strata sweep $big --set seed=1..24+1 -o $tmp/p.csv" \
        /dev/null >"$tmp/p.tty" 2>&1
    n=$((n + 1))
    grep -q 'strata sweep: [0-9]* of 24 points, 0 failed, [0-9]* s' "$tmp/p.tty" ||
        bad "no progress line on a terminal: $(tr '\r' '\n' <"$tmp/p.tty" | head -3)"
    script -qfec "env STRATA_PROGRESS=never $strata sweep $big --set seed=1..24+1 -o $tmp/q.csv" \
        /dev/null >"$tmp/q.tty" 2>&1
    n=$((n + 1))
    ! grep -q 'of 24 points' "$tmp/q.tty" || bad "STRATA_PROGRESS=never drew a progress line"
fi
# Off a terminal, STRATA_PROGRESS=always writes a line per update, for logs.
STRATA_PROGRESS=always "$strata" sweep "$big" --set seed=1..4+1 -o "$tmp/r.csv" 2>"$tmp/r.err"
expect "progress lines off a terminal under always" 1 \
    "$(grep -qE '^strata sweep: [0-4] of 4 points, 0 failed, [0-9]+ s$' "$tmp/r.err" && echo 1)"
# The killed sweeps above ran past a second with stderr in a file: their summary lines alone.
expect "no progress off a terminal" 2 "$(wc -l <"$tmp/ABRT.err")"
# A figure is the same number in a sweep's point and in the run of that point: its CSV and JSON
# cells are the run's JSON text, every digit (they were 6 significant digits).
"$strata" sweep "$scn" --set 'workloads[0].gpus=16' --columns step_time_s,mfu,wall_s \
    >"$tmp/x.csv" 2>/dev/null
"$strata" run --format json "$scn" >"$tmp/x.json"
for k in step_time_s mfu wall_s; do
    col=$(head -1 "$tmp/x.csv" | tr ',' '\n' | grep -n "\.$k\$" | cut -d: -f1)
    expect "sweep's $k is the run's JSON text" \
        "$(grep -m1 "\"$k\":" "$tmp/x.json" | sed 's/.*:[[:space:]]*//; s/,$//')" \
        "$(sed -n 2p "$tmp/x.csv" | cut -d, -f"$col")"
done
# The Markdown table writes a figure as the HTML's points table does (its unit's digits and unit,
# a share in percent, a count grouped), not 0.57206 or 2.5364e+07.
"$strata" sweep "$scn" --set 'workloads[finetune].steps=1234567' --columns steps,mfu \
    --format markdown 2>/dev/null >"$tmp/x.md"
expect "markdown: a figure as the HTML writes it" "| 1234567 | ok | 1,234,567 | 57.21% |  |" \
    "$(tail -1 "$tmp/x.md")"
# ... whatever the job's name: a 250-character name's column path was cut in a 256-byte buffer,
# its row not found, and the cell printed a bare 1.49
long=$(printf 'j%.0s' $(seq 250))
sed "s/- name: finetune/- name: $long/" "$src/scenarios/examples/quickstart.yaml" >"$tmp/longname.yaml"
"$strata" sweep "$tmp/longname.yaml" --set 'workloads[0].steps=500' --columns step_time_s \
    --format markdown 2>/dev/null >"$tmp/ln.md"
expect "markdown: a long job name's figure keeps its unit" "| 500 | ok | 1.49 s |  |" "$(tail -1 "$tmp/ln.md")"
# A scenario of a trace alone has no job whose figures a row could hold: the sweep says so and
# names the run's own columns and compare, which reports the cluster run (its rows were the
# swept values alone).
expect "a trace alone warns its rows hold no figures" \
    "strata sweep: warning: $src/scenarios/examples/philly-512gpu.yaml has no training workload or service, so its rows hold no job figures; the run's own are columns named run. and their path (--columns run.scheduler.makespan_s,run.scheduler.utilization,run.scheduler.energy_j), and \`strata compare\` reports the cluster run under each policy" \
    "$("$strata" sweep "$src/scenarios/examples/philly-512gpu.yaml" --set scheduler.policy=fifo,sjf 2>&1 >/dev/null | grep warning)"
# A sweep of a cost: key asks what it does to the bill: its default columns end with the cost
# (a sweep of cost.delivery printed step and wall time alone); a sweep of anything else does not.
expect "a cost sweep's default columns hold the cost" "pretrain.goodput,pretrain.cost.total_usd,reason" \
    "$("$strata" sweep "$src/scenarios/examples/cloud-vs-bare-metal.yaml" \
        --set cost.delivery=bare-metal,cloud 2>/dev/null | head -1 | sed 's/.*pretrain.wall_s,//')"
expect "a service's too" "chat.inference.cost_per_million_tokens_usd,reason" \
    "$("$strata" sweep "$src/scenarios/examples/serve-llama3-70b.yaml" \
        --set cost.delivery=bare-metal,cloud 2>/dev/null | head -1 | sed 's/.*batch_mean,//')"
expect "other sweeps' defaults hold no cost" "" \
    "$("$strata" sweep "$src/scenarios/examples/cloud-vs-bare-metal.yaml" --set seed=1 \
        2>/dev/null | head -1 | grep cost)"
# A closed standard output or error is /dev/null: the CSV went into the first worker's socket
# (a bogus "worker died" row, exit 1), stderr's summary into the journal, and a command writing
# only -o failed at exit on "Bad file descriptor".
"$strata" sweep "$scn" --set cluster.nodes=2,4 >&- 2>"$tmp/closed.err"
expect "a sweep with stdout closed" "0 strata sweep: 2 points: 0 from the journal, 2 computed on 1 worker" \
    "$? $(sed 's/ in [0-9.]* s$//' "$tmp/closed.err")"
"$strata" sweep "$scn" --set cluster.nodes=2,4 -o "$tmp/closed.csv" 2>&-
expect "a sweep with stderr closed: the journal holds rows alone" "0 0" \
    "$? $(grep -c 'strata sweep' "$tmp/closed.csv.journal")"
"$strata" run "$scn" --format html -o "$tmp/closed.html" >&-
expect "run -o with stdout closed" 0 $?
# A file name that is not UTF-8 reaches a reason cell as stderr shows it (\xff): every format
# stays UTF-8, and the journal's row is taken back on a rerun.
bad_name=$tmp/$(printf 'plan\xff.yaml')
cp "$scn" "$bad_name"
for f in json csv markdown html; do
    "$strata" sweep "$bad_name" --set 'workloads[finetune].parallel.tp=2,4' --format $f \
        -o "$tmp/u8.$f" 2>/dev/null
    iconv -f utf-8 -t utf-8 "$tmp/u8.$f" >/dev/null 2>&1 || bad "a non-UTF-8 file name: $f is not UTF-8"
done
expect "a non-UTF-8 file name in a reason" 'plan\xff.yaml:14:15: error:' \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["points"][1]["reason"].split("/")[-1][:27])' "$tmp/u8.json")"
"$strata" sweep "$bad_name" --set 'workloads[finetune].parallel.tp=2,4' --format json -o "$tmp/u8.json" 2>"$tmp/u8.err"
expect "a non-UTF-8 file name: the journal's rows taken back" "0 strata sweep: 2 points: 2 from the journal, 0 computed on 1 worker" \
    "$? $(sed 's/ in [0-9.]* s$//' "$tmp/u8.err")"
# a service's power.energy_j is run's figure in a sweep too (it was left empty)
cp "$src/scenarios/examples/serve-beside-training.yaml" "$tmp/sbt.yaml"
sweep_e=$("$strata" sweep "$tmp/sbt.yaml" --set seed=1 --columns power.energy_j 2>/dev/null |
    awk -F, 'NR == 2 {print $4}')
run_e=$("$strata" run "$tmp/sbt.yaml" --format json 2>/dev/null | python3 -c '
import json, sys
print(repr([j for j in json.load(sys.stdin)["jobs"] if j["name"] == "chat"][0]["power"]["energy_j"]))')
expect "a service's power.energy_j in a sweep is run's" "$run_e" "$sweep_e"
echo "$n checks, $fail failed"
[ $fail -eq 0 ]
