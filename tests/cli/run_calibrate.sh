#!/usr/bin/env bash
# `strata calibrate` (docs/models/calibration.md, "Your own cluster"): it recovers a factor the
# model was given, fits the published nccl-tests sweeps and the llm-foundry H100 steps, writes a
# file run, size, sweep and compare read back, and refuses what no plausible factor explains
# and malformed input with file:line:col.
# Usage: run_calibrate.sh STRATA SOURCE_DIR
set -u
strata=$1
cd "$2" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}
expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {d = a - b; if (d < 0) d = -d; print (d <= t)}'; }
key() { sed -n "s/^  $2: \([0-9.e+-]*\).*/\1/p" "$1"; }
step_of() { "$strata" run "$@" --format json 2>/dev/null |
    python3 -c "import json, sys; print(json.load(sys.stdin)['jobs'][0]['step_time_s'])"; }
d=tests/data/calibrate
logs=tests/data/nccl-tests
mpt=scenarios/examples/calibrate/mpt-h100.yaml
run_gemm=tools/measure/runs/h200-2026-12-04/gemm.csv

# A factor the model is given comes back: the step of a cluster whose BF16 throughput is 0.9 of
# the model's, given as measured, fits compute_bf16 0.9.
printf 'version: 1\ncalibration:\n  gpu: h100-sxm\n  compute_bf16: 0.9\n' >"$tmp/given.yaml"
t=$(step_of scenarios/examples/quickstart.yaml --calibration "$tmp/given.yaml")
"$strata" calibrate scenarios/examples/quickstart.yaml --step "finetune=${t}s" -o "$tmp/back.yaml" ||
    bad "calibrate on a given factor failed"
expect "recovers compute_bf16 0.9" 1 "$(near "$(key "$tmp/back.yaml" compute_bf16)" 0.9 0.002)"

# The published 2-node A3 Mega sweep fits the network and a latency, within its bound, and the
# file reads back: run with it times the step's collectives on the calibrated network.
"$strata" calibrate $d/a3mega-2node.yaml --nccl-tests $logs/a3mega-2node-all_reduce_perf.log \
    -o "$tmp/a3.yaml" || bad "a3mega calibration failed"
expect "a3mega: network fitted" 1 "$(near "$(key "$tmp/a3.yaml" network)" 1.18 0.02)"
expect "a3mega: latency in us" 1 "$(near "$(key "$tmp/a3.yaml" latency)" 117 5)"
grep -q "median |error| 18.9% before, 5.4% after" "$tmp/a3.yaml" || bad "a3mega: fit error stated"
"$strata" check $d/a3mega-2node.yaml >/dev/null || bad "a3mega scenario"
a=$(step_of $d/a3mega-2node.yaml)
b=$(step_of $d/a3mega-2node.yaml --calibration "$tmp/a3.yaml")
expect "a3mega: the calibration moves the step" 1 "$(awk -v a="$a" -v b="$b" 'BEGIN {print (b != a)}')"
# ... as a scenario's own cluster.calibration too, relative to the scenario's folder
cp "$tmp/a3.yaml" "$tmp/cal.yaml"
sed 's/^  gpus_per_node: 8$/  gpus_per_node: 8\n  calibration: cal.yaml/' $d/a3mega-2node.yaml >"$tmp/s.yaml"
expect "a3mega: named in the scenario, the same step" "$b" "$(step_of "$tmp/s.yaml")"

# GB200 trays in one NVLink domain: the NVLink goodput stays the model's (within 0.5%).
"$strata" calibrate $d/gb200-tray-pair.yaml --nccl-tests $logs/gb200-nvl72-8gpu-all_reduce_perf.log \
    >"$tmp/gb.yaml" || bad "gb200 calibration failed"
expect "gb200: nvlink kept" 1 "$(key "$tmp/gb.yaml" nvlink)"

# AWS p5's 2-node sweep runs NVLS/tree over NVLink past the NICs' rate: refused, with the way out.
"$strata" calibrate $d/p5-2node.yaml --nccl-tests $logs/p5-2node-all_reduce_perf.log \
    >"$tmp/o" 2>"$tmp/e"
expect "p5: refused" 2 $?
grep -q "no network factor in 0.5-2 fits the nccl-tests bandwidths of all-reduce .*NCCL_ALGO=Ring" "$tmp/e" ||
    bad "p5: the message"
[ -s "$tmp/o" ] && bad "p5: nothing written"

# The nine llm-foundry H100 steps: BF16 compute from the steps, nine residuals, and run's band is
# the calibrated one: those residuals times the published scale-transfer runs.
steps=$(sed -n 's/^#       --step \([^ ]*\).*/--step \1/p' $mpt | tr '\n' ' ')
# shellcheck disable=SC2086
"$strata" calibrate $mpt $steps -o "$tmp/mpt.yaml" || bad "mpt calibration failed"
expect "mpt: compute_bf16" 1 "$(near "$(key "$tmp/mpt.yaml" compute_bf16)" 0.871 0.002)"
expect "mpt: nine residuals" 9 "$(sed -n 's/^  residuals: \[\(.*\)\]/\1/p' "$tmp/mpt.yaml" | tr ',' '\n' | wc -l)"
"$strata" run scenarios/validation/mpt-h100-7b-8gpu.yaml --calibration "$tmp/mpt.yaml" >"$tmp/r.txt" ||
    bad "run with the mpt calibration"
expect "mpt: nine steps" 9 "$(key "$tmp/mpt.yaml" steps)"
grep -q "from 9 runs measured on this cluster (cluster.calibration) and [0-9]* published runs forecast from a smaller scale" \
    "$tmp/r.txt" || bad "run: calibrated band"
"$strata" size scenarios/validation/mpt-h100-7b-8gpu.yaml --deadline 30d --calibration "$tmp/mpt.yaml" \
    >/dev/null 2>&1 || true
"$strata" compare scenarios/examples/queue.yaml --calibration "$tmp/given.yaml" --policies fifo \
    >/dev/null || bad "compare --calibration"
"$strata" sweep scenarios/examples/quickstart.yaml --calibration "$tmp/given.yaml" \
    --set 'workloads[finetune].global_batch=32' >"$tmp/sw.csv" 2>/dev/null || bad "sweep --calibration"
grep -q "cluster.calibration" "$tmp/sw.csv" && bad "sweep: the calibration as a column, not an input"

# Bad input: a row that is not one (file:line:col), an unknown job, a duration without its unit,
# nothing to fit, an output that is an input, a calibration of another GPU type.
sed '30s/^ *\([0-9]*\) .*/\1  x  float  sum  -1  fast  0  0  0  1  0  0  0/' $logs/a3mega-2node-all_reduce_perf.log >"$tmp/bad.log"
"$strata" calibrate $d/a3mega-2node.yaml --nccl-tests "all_reduce:$tmp/bad.log" >/dev/null 2>"$tmp/e"
expect "bad row exits 2" 2 $?
grep -q "bad.log:30:[0-9]*: error: expected an nccl-tests row .* found 'fast'" "$tmp/e" || bad "bad row: located"
"$strata" calibrate $mpt --step nope=1s >/dev/null 2>"$tmp/e"
expect "unknown job exits 2" 2 $?
grep -q "no training workload named 'nope'" "$tmp/e" || bad "unknown job: message"
# One job measured twice: each was the other's leave-one-out fit (residuals [1, 1] for one
# time given twice), and a second time's residual was dropped; refused, naming both.
"$strata" calibrate $mpt --step mpt-7b-8gpu=1s --step mpt-7b-8gpu=2s >"$tmp/o" 2>"$tmp/e"
expect "a job measured twice exits 2" 2 $?
grep -q "^strata calibrate: --step mpt-7b-8gpu=2s: job 'mpt-7b-8gpu' is measured already by --step mpt-7b-8gpu=1s" \
    "$tmp/e" || bad "a job measured twice: message $(cat "$tmp/e")"
[ -s "$tmp/o" ] && bad "a job measured twice: nothing written"
# One file given twice counted its rows twice: refused through any path, a symlink or a hard
# link (the same device and inode), naming both.
cp $run_gemm "$tmp/g.csv"
ln -s "$tmp/g.csv" "$tmp/g-sym.csv"
ln "$tmp/g.csv" "$tmp/g-hard.csv"
cp $logs/a3mega-2node-all_reduce_perf.log "$tmp/a.log"
ln "$tmp/a.log" "$tmp/a-hard.log"
twice() { # WHAT MESSAGE ARGS...: calibrate with ARGS exits 2 with MESSAGE and writes nothing
    local what=$1 msg=$2
    shift 2
    "$strata" calibrate "$@" >"$tmp/o" 2>"$tmp/e"
    expect "$what exits 2" 2 $?
    grep -qF "strata calibrate: $msg" "$tmp/e" || bad "$what: message $(cat "$tmp/e")"
    [ -s "$tmp/o" ] && bad "$what: nothing written"
}
twice "a GEMM file twice" "--gemm $tmp/g.csv is the file --gemm $tmp/g.csv reads already" \
    scenarios/examples/h200-4096-air.yaml --gemm "$tmp/g.csv" --gemm "$tmp/g.csv"
twice "a GEMM file and its symlink" "--gemm $tmp/g-sym.csv is the file --gemm $tmp/g.csv" \
    scenarios/examples/h200-4096-air.yaml --gemm "$tmp/g.csv" --gemm "$tmp/g-sym.csv"
twice "a GEMM file and its hard link" "--gemm $tmp/g-hard.csv is the file --gemm $tmp/g.csv" \
    scenarios/examples/h200-4096-air.yaml --gemm "$tmp/g.csv" --gemm "$tmp/g-hard.csv"
twice "a log twice, once with its OP" \
    "--nccl-tests all_reduce:$tmp/a.log is the file --nccl-tests $tmp/a.log reads already" \
    $d/a3mega-2node.yaml --nccl-tests "$tmp/a.log" --nccl-tests "all_reduce:$tmp/a.log"
twice "a log and its hard link" "--nccl-tests $tmp/a-hard.log is the file --nccl-tests $tmp/a.log" \
    $d/a3mega-2node.yaml --nccl-tests "$tmp/a.log" --nccl-tests "$tmp/a-hard.log"
"$strata" calibrate $mpt --step mpt-7b-8gpu=1.2 >/dev/null 2>&1
expect "a step without its unit exits 2" 2 $?
"$strata" calibrate $mpt >/dev/null 2>&1
expect "nothing to fit exits 2" 2 $?
cp $mpt "$tmp/m.yaml"
"$strata" calibrate "$tmp/m.yaml" --step mpt-7b-8gpu=1.1546s -o "$tmp/m.yaml" >/dev/null 2>&1
expect "an output that is the scenario exits 2" 2 $?
cmp -s $mpt "$tmp/m.yaml" || bad "the scenario was overwritten"
printf 'version: 1\ncalibration:\n  gpu: b200\n' >"$tmp/b200.yaml"
"$strata" run scenarios/examples/quickstart.yaml --calibration "$tmp/b200.yaml" >/dev/null 2>"$tmp/e"
expect "another GPU's calibration exits 2" 2 $?
grep -q "b200.yaml:3:3: error: cluster.calibration was fitted on b200" "$tmp/e" || bad "another GPU: located"
: >"$tmp/empty.yaml"
"$strata" run scenarios/examples/quickstart.yaml --calibration "$tmp/empty.yaml" >/dev/null 2>"$tmp/e"
expect "an empty calibration file exits 2" 2 $?
grep -q "is empty: expected the calibration: mapping" "$tmp/e" || bad "empty calibration: message"
# A calibration that is not a regular file is said to be one ("a scenario is a file" named the
# wrong kind), by --calibration and by sweep's --set cluster.calibration alike.
"$strata" run scenarios/examples/quickstart.yaml --calibration /dev/null >/dev/null 2>"$tmp/e"
expect "a device as the calibration exits 2" 2 $?
expect "a device as the calibration: message" \
    "--calibration /dev/null: error: calibration file '/dev/null': not a regular file (a FIFO, socket or device); a calibration is a file" \
    "$(cat "$tmp/e")"
"$strata" sweep scenarios/examples/quickstart.yaml --set cluster.calibration=/dev/null >"$tmp/sw.csv" 2>/dev/null
expect "sweep: a device as the calibration: its row's reason" 1 \
    "$(grep -c "calibration file '/dev/null': not a regular file (a FIFO, socket or device); a calibration is a file\"$" "$tmp/sw.csv")"
# The H200's own kernel run (tools/measure): its GEMM grid, as the tool writes it for calibrate
# from the run's table, fits both precisions within 4% of the model (docs/models/calibration.md).
run=tools/measure/runs/h200-2026-12-04
python3 tools/measure/measure_kernels.py --gemm-csv $run "$tmp/gemm.csv" || bad "gemm.csv of the run"
cmp -s "$tmp/gemm.csv" $run/gemm.csv || bad "the run's gemm.csv is not what the tool writes"
python3 tools/measure/measure_kernels.py --help | grep -q "mamf_hot" || bad "measure --help lists sections"
python3 tools/measure/measure_kernels.py "$tmp" 10 nosuch 2>"$tmp/e"
expect "measure: an unknown section exits 2" 2 $?
grep -q "unknown nosuch; expected some of hbm" "$tmp/e" || bad "measure: unknown section named"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm $run/gemm.csv >"$tmp/h200.yaml" ||
    bad "h200 GEMM calibration failed"
expect "h200: compute_bf16" 1 "$(near "$(key "$tmp/h200.yaml" compute_bf16)" 0.974 0.002)"
expect "h200: compute_fp8" 1 "$(near "$(key "$tmp/h200.yaml" compute_fp8)" 1.000 0.002)"
printf 'm,n,k,precision,tflops\n' >"$tmp/head.csv"
"$strata" calibrate $mpt --gemm "$tmp/head.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM file without rows exits 2" 2 $?
# What a fuzzing helper found the readers let through, each now refused where it stands: a row
# nccl-tests marked wrong, a rank listed twice, a size past any GPU, ranks of another cluster;
# a GEMM file's duplicated column, hexadecimal, a NUL byte, a missing precision (no stale
# field quoted); and a spreadsheet's byte-order mark read as nothing.
log=$logs/a3mega-2node-all_reduce_perf.log
row=$(grep -n '^ *1048576 ' $log | cut -d: -f1)
rank=$(grep -n '^# *Rank *1 ' $log | head -1 | cut -d: -f1)
last=$(grep -n '^# *Rank ' $log | tail -1 | cut -d: -f1)
refused_log() { # NAME SED-SCRIPT WHAT MESSAGE: the log edited so is refused with MESSAGE
    sed "$2" $log >"$tmp/$1.log"
    "$strata" calibrate $d/a3mega-2node.yaml --nccl-tests "all_reduce:$tmp/$1.log" >/dev/null 2>"$tmp/e"
    expect "$3 exits 2" 2 $?
    grep -q "$1.log:$4" "$tmp/e" || bad "$3: message $(cat "$tmp/e")"
}
refused_log wrong "${row}s/ 0 *\$/ 3/" "a row nccl-tests found wrong" \
    "$row:[0-9]*: error: nccl-tests found 3 wrong results"
refused_log dup "${rank}p" "a rank listed twice" "$((rank + 1)):[0-9]*: error: rank 1 is listed twice"
refused_log huge "${row}s/^ *1048576 /    1e308 /" "a size past 1 TiB" \
    "$row:[0-9]*: error: a size of '1e308' bytes is beyond 1 TiB"
refused_log third "${last}{p;s/Rank *[0-9]*/Rank 16/;s/ on [^ ]*/ on a-third-host/}" \
    "a log of a larger cluster" \
    " error: its 17 ranks on 3 hosts (at most 8 on one) do not fit the scenario's cluster of 2 nodes of 8 GPUs"
# Nine ranks on one host and seven on the other: 16 on 2 hosts average 8 a host, but one host
# runs more than a node's 8 GPUs.
refused_log crowded "${last}s/ on [^ ]*/ on a3mega-0/" "nine ranks on one 8-GPU host" \
    " error: its 16 ranks on 2 hosts (at most 9 on one) do not fit the scenario's cluster of 2 nodes of 8 GPUs"
# A row with a field more or less shifted the columns after it, and the error blamed #wrong
# ("nccl-tests found 297.86 wrong results"); now the counts, at the first field past the
# layout's or at the row's end. The layout is the column header's where the log has one: -R's
# timestamp (a date and a time) and the per-iteration columns are read, #wrong where they put it;
# without a header, nccl-tests' 13 fields. N/A in #wrong (unchecked) stays accepted.
r1g=$(grep -n '^ *1073741824 ' $log | cut -d: -f1)
r8g=$(grep -n '^ *8589934592 ' $log | cut -d: -f1)
hdr=$(grep -n '^# *size ' $log | cut -d: -f1)
len_of() { awk -v r="$1" 'NR == r {print length($0)}' $log; }
refused_log extra "${r1g}s/ 6759.0 / 6759.0 extra /" "an nccl-tests row with a token more" \
    "$r1g:$(($(len_of "$r1g") + 6)): error: expected 13 fields, as the column header on line $hdr names, found 14"
refused_log nocount "${r8g}s/  2147483648 / /" "an nccl-tests row without its count" \
    "$r8g:$(($(len_of "$r8g") - 11)): error: expected 13 fields, as the column header on line $hdr names, found 12"
refused_log nohead "${hdr}d;${r8g}s/  2147483648 / /" "a row without its count, no header" \
    "$((r8g - 1)):[0-9]*: error: expected 13 fields (size count type redop root, then time algbw busbw #wrong out of place and again in place), found 12"
# A row's count and type were not read, so a negative count or a type nccl-tests has none of
# loaded (exit 0): each is no row nccl-tests wrote, refused at the field.
refused_log negcount "${r8g}s/  8589934592    2147483648/  8589934592    -2147483648/" \
    "an nccl-tests row with a negative count" \
    "$r8g:17: error: expected the row's count, a whole number of elements from 0 to its size in bytes, found '-2147483648'"
refused_log badtype "${r8g}s/ float / floatyy /" "an nccl-tests row of an unknown type" \
    "$r8g:32: error: expected the row's data type as nccl-tests names it (int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16, f8e4m3, f8e5m2), found 'floatyy'"
# A NUL byte inside a row's time ("203.2" as "20\0" "3.2") was read as 20 us, and the fit took it
# (exit 0): refused at the byte, as the GEMM and trace readers refuse one.
refused_log nul "${row}s/ 203\\.2 / 20\\x003.2 /" "a NUL byte in an nccl-tests row" \
    "$row:59: error: expected a line of text, as nccl-tests prints, found a NUL byte"
# A line past 64 KiB was read cut there, its rest skipped (a row's later fields unread): refused
# at its start, as the GEMM and trace readers refuse one.
refused_log long "${row}s/\$/$(printf '%070000d' 0 | tr 0 ' ')x/" "an nccl-tests line past 64 KiB" \
    "$row:1: error: expected a line of text, as nccl-tests prints, found a line longer than 65536 bytes"
accepted_log() { # NAME AWK-SCRIPT WHAT: the log rewritten so fits the network as the log does
    awk "$2" $log >"$tmp/$1.log"
    "$strata" calibrate $d/a3mega-2node.yaml --nccl-tests "all_reduce:$tmp/$1.log" >"$tmp/o" 2>"$tmp/e" ||
        bad "$3: refused $(cat "$tmp/e")"
    grep -q "network: 1.17859 " "$tmp/o" || bad "$3: not the log's fit"
    n=$((n + 1))
}
# shellcheck disable=SC2016 # the $ are awk's
accepted_log na '/^ *[0-9]/ {$9 = "N/A"; $13 = "N/A"} {print}' "#wrong N/A"
# shellcheck disable=SC2016
accepted_log stamp '/^# *size / {$0 = $0 " timestamp"} /^ *[0-9]/ {$0 = $0 "  2026-01-02 03:04:05"} {print}' \
    "-R's timestamp column"
# shellcheck disable=SC2016
accepted_log periter '/^# *size / {$10 = "#wrong i_min i_max i_p99 i_cv%"; $14 = "#wrong i_min i_max i_p99 i_cv%"}
    /^ *[0-9]/ {$9 = "0 1 2 3 4.5"; $13 = "0 1 2 3 4.5"} {print}' "the per-iteration columns"
gemm() { # NAME CONTENT: calibrate the MPT scenario with that GEMM file; its stderr in $tmp/e
    printf "$2" >"$tmp/$1.csv"
    "$strata" calibrate $mpt --gemm "$tmp/$1.csv" >/dev/null 2>"$tmp/e"
}
gemm dupcol 'm,n,k,precision,time_us,m\n8192,8192,8192,bf16,1500,1\n'
expect "a column named twice exits 2" 2 $?
grep -q "dupcol.csv:1:[0-9]*: error: column 'm' is named twice" "$tmp/e" || bad "dup column: located"
gemm hex 'm,n,k,precision,time_us\n0x2000,8192,8192,bf16,1500\n'
expect "hexadecimal exits 2" 2 $?
gemm nul 'm,n,k,precision,time_us\n8192,8192,8192,bf16\0,1500\n'
expect "a NUL byte exits 2" 2 $?
gemm noprec 'm,n,k,time_us,precision\n8192,8192,8192,1500\n'
expect "a missing precision exits 2" 2 $?
grep -q "noprec.csv:2:20: error: expected 5 fields, as the header has, found 4" "$tmp/e" ||
    bad "missing precision: message $(cat "$tmp/e")"
# A header without a column is said as a trace's is, at the cause with what it found (it was
# "expected a header naming m, n, k, precision and time_us or tflops; 'm' is missing")
gemm upper 'M,N,K,precision,time_us\n8192,8192,8192,bf16,1500\n'
grep -q "upper.csv:1:1: error: GEMM sweep '.*upper.csv' (m, n, k, precision and time_us or tflops) has no column 'm' in its header row; it has 'M': column names are case-sensitive, so name it 'm'" "$tmp/e" ||
    bad "a header of M: message $(cat "$tmp/e")"
gemm semi 'm;n;k;precision;time_us\n8192;8192;8192;bf16;1500\n'
grep -q "semi.csv:1:1: error: .* it reads 'm;n;k;precision;time_us' as one column; the file's columns are separated by commas, not semicolons" "$tmp/e" ||
    bad "a header of semicolons: message $(cat "$tmp/e")"
# A line past 64 KiB (scenarios/csv_in.h) was read cut there and its rest skipped: a row of
# 70,000 spaces after its time was a GEMM, and a header's columns past the cut were missed. It
# is refused as the job traces refuse one (tests/cli/run_trace_files.sh), at its start.
awk 'NR == 3 { s = ""; for (i = 0; i < 70000; i++) s = s " "; $0 = $0 s } { print }' $run_gemm >"$tmp/long.csv"
"$strata" calibrate $mpt --gemm "$tmp/long.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM row past 64 KiB exits 2" 2 $?
expect "a GEMM row past 64 KiB says so" \
    "$tmp/long.csv:3:1: error: malformed GEMM row: a row longer than 65536 bytes" "$(head -1 "$tmp/e")"
awk 'NR == 1 { s = ""; for (i = 0; i < 70000; i++) s = s "x"; $0 = s "," $0 } { print }' $run_gemm >"$tmp/longhead.csv"
"$strata" calibrate $mpt --gemm "$tmp/longhead.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM header past 64 KiB exits 2" 2 $?
expect "a GEMM header past 64 KiB says so" \
    "$tmp/longhead.csv:1:1: error: malformed header row: a row longer than 65536 bytes" "$(head -1 "$tmp/e")"
# A header quoted as RFC 4180 writes it (a spreadsheet's export) is read, as the job traces read
# one: it was "'m' is missing". A row with both time_us and tflops that disagree is refused at
# its tflops field; before, time_us was taken without a word.
sed '1s/.*/"m","n","k","precision","time_us"/; 2s/bf16/"bf16"/' $run_gemm >"$tmp/quoted.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/quoted.csv" >/dev/null 2>"$tmp/e"
expect "a quoted GEMM header is read" 0 $?
awk -F, 'NR == 1 {print $0 ",tflops"; next} {printf "%s,%.3f\n", $0, 2 * $1 * $2 * $3 / $5 / 1e6 * (NR == 3 ? 2 : 1)}' \
    $run_gemm >"$tmp/both.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/both.csv" >/dev/null 2>"$tmp/e"
expect "time_us and tflops that disagree exit 2" 2 $?
grep -q "both.csv:3:$(($(sed -n 3p $run_gemm | wc -c) + 1)): error: time_us and tflops disagree: the 1536x4096x2048 GEMM in 35.432 us is 727.3 TFLOP/s, but tflops says 1454.61" \
    "$tmp/e" || bad "time_us and tflops disagree: message $(cat "$tmp/e")"
awk -F, 'NR == 1 {print $0 ",tflops"; next} {printf "%s,%.3f\n", $0, 2 * $1 * $2 * $3 / $5 / 1e6}' \
    $run_gemm >"$tmp/agree.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/agree.csv" >/dev/null 2>"$tmp/e"
expect "time_us and tflops that agree are read" 0 $?
# A row of the H200 run with a field more was read as if it had none (rc 0); one with a field
# less blamed the k column. Each names the counts, at the first field past the header's or at
# the row's end.
sed '3s/$/,99/' $run_gemm >"$tmp/extra.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/extra.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM row with a field more exits 2" 2 $?
grep -q "extra.csv:3:$(($(sed -n 3p $run_gemm | wc -c) + 1)): error: expected 5 fields, as the header has, found 6" \
    "$tmp/e" || bad "a field more: message $(cat "$tmp/e")"
sed '3s/,[^,]*$//' $run_gemm >"$tmp/short.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/short.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM row with a field less exits 2" 2 $?
grep -q "short.csv:3:$(sed -n 3p "$tmp/short.csv" | wc -c): error: expected 5 fields, as the header has, found 4" \
    "$tmp/e" || bad "a field less: message $(cat "$tmp/e")"
# A file cut off inside its last row was read, its time cut short with it: 7211.130 us became 7,
# a 16384^3 FP8 GEMM at 1.26 EFLOP/s, and the fit took it (exit 0). A row faster than the GPU's
# dense peak at its precision, cut or in another unit, is refused at its time (or tflops) field,
# saying both figures; a last row that only lacks its line end (an editor's save) is read.
head -c $(($(stat -c %s $run_gemm) - 8)) $run_gemm >"$tmp/cut.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/cut.csv" >"$tmp/o" 2>"$tmp/e"
expect "a GEMM file cut inside its last row exits 2" 2 $?
grep -q "cut.csv:$(wc -l <"$tmp/cut.csv" | awk '{print $1 + 1}'):23: error: the 16384x16384x16384 fp8 GEMM in 7 us is 1.257 EFLOP/s" "$tmp/e" ||
    bad "a GEMM file cut inside its last row: message $(cat "$tmp/e")"
expect "a GEMM file cut inside its last row: no calibration" "" "$(cat "$tmp/o")"
head -c $(($(stat -c %s $run_gemm) - 1)) $run_gemm >"$tmp/noeol.csv"
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/noeol.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM file without its last line end is read" 0 $?
sed 's/^16384,16384,16384,fp8,7211.130$/16384,16384,16384,fp8,7/' $run_gemm >"$tmp/fast.csv"
line=$(grep -n '^16384,16384,16384,fp8,7$' "$tmp/fast.csv" | cut -d: -f1)
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm "$tmp/fast.csv" >/dev/null 2>"$tmp/e"
expect "a GEMM faster than the peak exits 2" 2 $?
expect "a GEMM faster than the peak" "$tmp/fast.csv:$line:23: error: the 16384x16384x16384 fp8 GEMM in 7 us is 1.257 EFLOP/s, more than the h200-sxm's dense FP8 peak of 1.979 PFLOP/s: no timing of this GPU (a field cut short, or another unit?)" \
    "$(cat "$tmp/e")"
gemm peak 'm,n,k,precision,tflops\n8192,8192,8192,bf16,1500\n'
expect "a GEMM's tflops past the peak exits 2" 2 $?
# (each starts with its file, as every located error does: it was "strata calibrate: FILE:...")
grep -q "^$tmp/peak.csv:2:21: error: the 8192x8192x8192 bf16 GEMM in .* is 1.5 PFLOP/s, more than the h100-sxm's dense BF16 peak" "$tmp/e" ||
    bad "tflops past the peak: message $(cat "$tmp/e")"
# A step overhead past the hour a calibration file may hold (models/config/limits.c) is refused
# by the fit too, not written as a file the loader refuses.
"$strata" calibrate scenarios/examples/h200-4096-air.yaml --gemm $run_gemm --step pretrain=2h \
    >"$tmp/o" 2>"$tmp/e"
expect "an overhead past an hour exits 2" 2 $?
grep -q "error: the measured steps leave 7197 s a step the model does not time, more than the 3600 s the longest step overhead a calibration may add" \
    "$tmp/e" || bad "an overhead past an hour: message $(cat "$tmp/e")"
gemm bom '\357\273\277m,n,k,precision,time_us\n8192,8192,8192,bf16,1500\n'
expect "a byte-order mark is read past" 0 $?

# Each step gets its residual: the 13B step at 1.9 s, slow against the 7B's, alone fits a BF16
# factor under 0.5, so the 7B's leave-one-out refit was refused and its residual (the worst)
# dropped, leaving residuals: [2.09] of steps: 2. The refit searches the residuals' range then.
"$strata" calibrate $mpt --step mpt-7b-8gpu=1.1546s --step mpt-13b-8gpu=1.9s >"$tmp/two.yaml" ||
    bad "two steps, one slow: calibrate failed"
r=$(sed -n 's/^  residuals: \[\(.*\)\]/\1/p' "$tmp/two.yaml")
expect "two steps, one slow: two residuals" 2 "$(echo "$r" | tr ',' '\n' | wc -l)"
expect "two steps, one slow: the 7B's residual kept" 1 "$(near "${r%%,*}" 0.422 0.002)"
"$strata" run scenarios/validation/mpt-h100-7b-8gpu.yaml --calibration "$tmp/two.yaml" >/dev/null ||
    bad "two steps, one slow: the calibration loads back"
# a step 10 times what the others calibrate the model to: refused, not written as a residual the
# loader would refuse
steps10=$(sed -n 's/^#       --step \([^ ]*\).*/--step \1/p' $mpt | sed '1s/=1.1546s/=11.546s/' | tr '\n' ' ')
# shellcheck disable=SC2086
"$strata" calibrate $mpt $steps10 >/dev/null 2>"$tmp/e"
expect "a step far from the others exits 2" 2 $?
grep -q "workload 'mpt-7b-8gpu': its measured step is .* times" "$tmp/e" || bad "far step: message"
# a job name with a quote still reads back
sed 's/name: finetune/name: "fine\\"tune"/' scenarios/examples/quickstart.yaml >"$tmp/q.yaml"
"$strata" calibrate "$tmp/q.yaml" --step 'fine"tune=1.6s' -o "$tmp/q-cal.yaml" || bad "quoted job"
"$strata" run "$tmp/q.yaml" --calibration "$tmp/q-cal.yaml" >/dev/null || bad "quoted job: reads back"
# A log whose path is no text (a byte that is not UTF-8, ESC, DEL): the calibration it writes
# is UTF-8 and loads back (it was refused: "not a text file", "a control character").
# U+FFFE (libyaml refuses it) and U+2028 (a line break to YAML) too.
for nm in $'bad\xff.log' $'esc\x1b.log' $'del\x7f.log' $'nc\xef\xbf\xbe.log' $'ls\xe2\x80\xa8x: 1.log'; do
    cp "$logs/a3mega-2node-all_reduce_perf.log" "$tmp/$nm"
    "$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "all_reduce:$tmp/$nm" \
        -o "$tmp/odd.yaml" 2>/dev/null || bad "odd log path $(printf %q "$nm"): calibrate failed"
    "$strata" run "$d/a3mega-2node.yaml" --calibration "$tmp/odd.yaml" \
        >/dev/null 2>&1 || bad "odd log path $(printf %q "$nm"): its calibration does not load back"
    n=$((n + 1))
done
# A workload whose name holds '=': --step splits at the last one (a duration holds none).
sed 's/name: finetune/name: "a=b"/' scenarios/examples/quickstart.yaml >"$tmp/eq.yaml"
"$strata" calibrate "$tmp/eq.yaml" --step 'a=b=1.6s' -o "$tmp/eq-cal.yaml" 2>"$tmp/eq.err" ||
    bad "--step on a name with '=': $(cat "$tmp/eq.err")"
n=$((n + 1))
# An OP must be a whole name (my_all_reduce_x was read as all_reduce), and a value that names
# no file says so (it said only "No such file or directory").
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "my_all_reduce_x:$logs/a3mega-2node-all_reduce_perf.log" \
    >/dev/null 2>"$tmp/op.err"
expect "an OP inside another name refused" "2 1" "$? $(grep -c 'expected all_reduce, all_gather' "$tmp/op.err")"
# ... as the command's other usage errors are: its name first, then where to look (it was a
# bare 'error: ...')
grep -q "^strata calibrate: --nccl-tests my_all_reduce_x:.*: expected all_reduce, all_gather" "$tmp/op.err" &&
    grep -q "^see 'strata calibrate --help'" "$tmp/op.err" || bad "a bad OP: not as a usage error $(cat "$tmp/op.err")"
n=$((n + 1))
# An empty OP (':LOG') names none, as 'bogus:LOG' does: it was read as if none were given.
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests ":$logs/a3mega-2node-all_reduce_perf.log" \
    >"$tmp/o" 2>"$tmp/op.err"
expect "an empty OP refused" "2 strata calibrate: --nccl-tests :$logs/a3mega-2node-all_reduce_perf.log: expected all_reduce, all_gather, reduce_scatter, alltoall or broadcast before the ':'" \
    "$? $(head -1 "$tmp/op.err")"
expect "an empty OP: nothing written" "" "$(cat "$tmp/o")"
# An OP that contradicts the log is refused, naming both (all_gather: on all_reduce_perf's log
# was taken: op all-gather, network 0.959 where the log's own all-reduce fits 1.18); where
# they agree, or neither the log nor its name says, it is taken.
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "all_gather:$logs/a3mega-2node-all_reduce_perf.log" \
    >"$tmp/o" 2>"$tmp/op.err"
expect "an OP the log contradicts refused" 2 $?
grep -qF "$logs/a3mega-2node-all_reduce_perf.log:1:29: error: --nccl-tests all_gather: says all-gather, but the log names all_reduce_perf (all-reduce)" "$tmp/op.err" ||
    bad "an OP the log contradicts: the message $(cat "$tmp/op.err")"
[ -s "$tmp/o" ] && bad "an OP the log contradicts: nothing written"
grep -v '_perf' "$logs/a3mega-2node-all_reduce_perf.log" >"$tmp/run-all_gather_perf.log"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "broadcast:$tmp/run-all_gather_perf.log" \
    >/dev/null 2>"$tmp/op.err"
expect "an OP the file's name contradicts refused" "2 1" "$? $(grep -c "broadcast: says broadcast, but the file's name says all_gather (all-gather)" "$tmp/op.err")"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "all_reduce:$logs/a3mega-2node-all_reduce_perf.log" \
    -o "$tmp/agree.yaml" 2>"$tmp/op.err" || bad "an OP the log agrees with: $(cat "$tmp/op.err")"
grep -q "op: all-reduce" "$tmp/agree.yaml" || bad "an OP the log agrees with: its op"
grep -v '_perf' "$logs/a3mega-2node-all_reduce_perf.log" >"$tmp/run.log"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "reduce_scatter:$tmp/run.log" \
    -o "$tmp/said.yaml" 2>"$tmp/op.err" || bad "an OP where nothing says: $(cat "$tmp/op.err")"
grep -q "op: reduce-scatter" "$tmp/said.yaml" || bad "an OP where nothing says: its op"
# With an OP:, only the log's own NAME_perf token and its base name can contradict it, and a
# base name naming two collectives says nothing: a folder named for all_reduce refused an
# all_gather: log in it, my_all_gather_perf_x read as all_gather_perf, and
# all_gather_vs_all_reduce.log read as all_reduce (the first in strata's table).
mkdir -p "$tmp/all_reduce_vs_ag"
cp "$tmp/run.log" "$tmp/all_reduce_vs_ag/n2.log"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "all_gather:$tmp/all_reduce_vs_ag/n2.log" \
    -o "$tmp/dir.yaml" 2>"$tmp/op.err" || bad "an OP: in a folder named for another: $(cat "$tmp/op.err")"
grep -q "op: all-gather" "$tmp/dir.yaml" || bad "an OP: in a folder named for another: its op"
{ echo "# ./my_all_gather_perf_x -b 8"; cat "$tmp/run.log"; } >"$tmp/wrapped.log"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "reduce_scatter:$tmp/wrapped.log" \
    -o "$tmp/wrapped.yaml" 2>"$tmp/op.err" || bad "an OP: and a _perf inside another name: $(cat "$tmp/op.err")"
grep -q "op: reduce-scatter" "$tmp/wrapped.yaml" || bad "an OP: and a _perf inside another name: its op"
cp "$tmp/run.log" "$tmp/all_gather_vs_all_reduce.log"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "broadcast:$tmp/all_gather_vs_all_reduce.log" \
    >/dev/null 2>"$tmp/op.err"
grep -q "file's name says" "$tmp/op.err" && bad "a base name of two collectives contradicts an OP: $(cat "$tmp/op.err")"
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "$tmp/all_gather_vs_all_reduce.log" \
    >/dev/null 2>"$tmp/op.err"
expect "a base name of two collectives says neither" "2 1" "$? $(grep -c 'which collective does this log time?' "$tmp/op.err")"
# A network no factor fits names the collective fitted: a broadcast's refusal talked of a 2-node
# all-reduce run on NVLS or tree, which a broadcast never runs.
for op in broadcast alltoall; do
    "$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "$op:$tmp/run.log" >/dev/null 2>"$tmp/op.err"
    expect "$op: no network factor" 2 $?
    name=$op
    [ $op = alltoall ] && name=all-to-all
    grep -q "no network factor .* fits the nccl-tests bandwidths of $name (" "$tmp/op.err" ||
        bad "$op: the message names it $(cat "$tmp/op.err")"
    grep -q "all-reduce\|NVLS" "$tmp/op.err" && bad "$op: the message talks of an all-reduce $(cat "$tmp/op.err")"
done
"$strata" calibrate "$d/a3mega-2node.yaml" --gemm '' >/dev/null 2>"$tmp/op.err"
expect "an empty --gemm named" "2 1" "$? $(grep -c "gemm '': expected a file" "$tmp/op.err")"
"$strata" calibrate --help | grep -q '^usage: strata calibrate FILE' || bad "--help"
# An -o in a missing folder is refused before anything is fitted (exit 2), as every command's
# is, and --help says so (it said 1, "the file could not be written"); a write that fails is 1.
"$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "$logs/a3mega-2node-all_reduce_perf.log" \
    -o /nonexistent/x >/dev/null 2>"$tmp/op.err"
expect "-o in a missing folder" "2 1" "$? $(grep -c "its folder '/nonexistent' does not exist" "$tmp/op.err")"
expect "--help: an -o whose folder is missing is 2" 1 \
    "$("$strata" calibrate --help | tr '\n' ' ' | grep -c '2 bad input or usage (an -o that is an input, or whose folder is missing or read-only')"
if [ -w /dev/full ]; then
    "$strata" calibrate "$d/a3mega-2node.yaml" --nccl-tests "$logs/a3mega-2node-all_reduce_perf.log" \
        -o /dev/full >/dev/null 2>&1
    expect "-o /dev/full: the file could not be written" 1 $?
fi

echo "$n checks, $fail failed"
[ "$fail" -eq 0 ]
