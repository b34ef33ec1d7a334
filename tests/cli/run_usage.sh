#!/usr/bin/env bash
# Usage errors every command gives the same way (README.md, "Exit status"): exit 2 at once, with the
# command's name, what was wrong and the see --help line, before anything runs: an option of
# one value given twice (the last one silently won), a value missing, flags that run alone.
# Usage: run_usage.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
q=$src/scenarios/examples/quickstart.yaml
queue=$src/scenarios/examples/queue.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# expect LINE -- ARGS...: `strata ARGS` exits 2 within 10 s, its first stderr line LINE, its
# second the see --help line, and nothing on stdout.
expect() {
    local want=$1 out err rc
    shift 2
    n=$((n + 1))
    out=$(cd "$tmp" && timeout 10 "$strata" "$@" 2>"$tmp/err")
    rc=$?
    err=$(head -1 "$tmp/err")
    help=$(sed -n 2p "$tmp/err")
    if [ "$rc" -ne 2 ] || [ "$err" != "$want" ] || [ -n "$out" ] ||
        [ "$help" != "see 'strata $1 --help'" ]; then
        echo "FAIL strata $*: exit $rc, stderr '$err' / '$help', stdout ${#out} bytes"
        echo "  want exit 2 and: $want"
        fail=$((fail + 1))
    fi
}

expect "strata run: --seed is given twice; give it once" -- run "$q" --seed 1 --seed 2
expect "strata run: --format is given twice; give it once" -- run "$q" --format json --format text
expect "strata run: --output is given twice; give it once" -- run "$q" -o a.json --output b.json
expect "strata run: --replicas is given twice; give it once" -- run "$q" --replicas 2 --replicas 3
expect "strata compare: --format is given twice; give it once" -- \
    compare "$queue" --format json --format csv
expect "strata compare: --policies is given twice; give it once" -- \
    compare "$queue" --policies fifo --policies sjf
expect "strata size: --deadline is given twice; give it once" -- \
    size "$q" --deadline 1h --deadline 2h
expect "strata size: --existing is given twice; give it once" -- \
    size "$q" --existing a --existing b
expect "strata size: --output is given twice; give it once" -- size "$q" -o a --output b
expect "strata sweep: --jobs is given twice; give it once" -- \
    sweep "$q" --set cluster.nodes=2,4 -j 2 --jobs 3
expect "strata sweep: --format is given twice; give it once" -- \
    sweep "$q" --set cluster.nodes=2,4 --format csv --format json
expect "strata calibrate: --output is given twice; give it once" -- \
    calibrate "$src/scenarios/examples/calibrate/mpt-h100.yaml" -o a.yaml --output b.yaml
# --calibration '' read the working folder ("calibration file '/some/dir/': is a directory")
expect "strata run: --calibration needs a file name, found ''" -- run "$q" --calibration ''
expect "strata sweep: --calibration needs a file name, found ''" -- \
    sweep "$q" --set cluster.nodes=2,4 --calibration ''
expect "strata size: --calibration needs a file name, found ''" -- \
    size "$q" --deadline 30d --calibration ''
expect "strata compare: --calibration needs a file name, found ''" -- \
    compare "$queue" --calibration ''
expect "strata validate: --dir needs a directory" -- validate --dir
expect "strata validate: --openb needs a directory" -- validate --sched --openb
expect "strata validate: --residuals runs alone (with --dir at most)" -- \
    validate --residuals --fabric
expect "strata validate: --transfer-residuals runs alone (with --dir at most)" -- \
    validate --transfer-residuals --markdown
# A file's option took the next option as its name: `--trace --explain` wrote a file named
# --explain, `-o --format json` then found 'json' a second scenario file.
cal=$src/scenarios/examples/calibrate/mpt-h100.yaml
expect "strata run: --trace needs a file name, found the option '--explain'" -- \
    run "$q" --trace --explain
expect "strata run: -o needs a file name, found the option '--format'" -- run "$q" -o --format json
expect "strata run: --calibration needs a file name, found the option '--seed'" -- \
    run "$q" --calibration --seed 1
expect "strata sweep: -o needs a file name, found the option '-j'" -- \
    sweep "$q" --set cluster.nodes=2,4 -o -j 2
expect "strata size: --output needs a file name, found the option '--top'" -- \
    size "$q" --deadline 1d --output --top 3
expect "strata compare: -o needs a file name, found the option '--seed'" -- \
    compare "$queue" -o --seed 3
expect "strata calibrate: -o needs a file name, found the option '--step'" -- \
    calibrate "$cal" -o --step mpt-7b-8gpu=1s
expect "strata calibrate: --gemm needs a file name, found the option '-o'" -- \
    calibrate "$cal" --gemm -o c.yaml
expect "strata validate: --dir needs a directory, found the option '--markdown'" -- \
    validate --dir --markdown
expect "strata run: -o needs a file name, found '-'; to write to standard output, leave -o out" \
    -- run "$q" -o -
expect "strata sweep: --output needs a file name, found '-'; to write to standard output, leave -o out" \
    -- sweep "$q" --set cluster.nodes=2,4 --output -
# A name's option took the next option as the name: `size --existing --deadline 30d` then
# refused '30d' as a second scenario file, `run --trace-job --format json` refused 'json'.
expect "strata size: --existing needs a pool's name, found the option '--deadline'" -- \
    size "$q" --existing --deadline 30d
expect "strata size: --workload needs a workload's name, found the option '--top'" -- \
    size "$q" --deadline 1d --workload --top 3
expect "strata size: --existing needs a pool's name, found ''" -- size "$q" --existing ''
expect "strata run: --trace-job needs a workload's name, found the option '-o'" -- \
    run "$q" --trace t.json --trace-job -o x.json
expect "strata compare: --policies needs a comma-separated list of names, found the option '--format'" \
    -- compare "$queue" --policies --format json
expect "strata sweep: --columns needs a comma-separated list of report keys, found the option '--format'" \
    -- sweep "$q" --set cluster.nodes=2,4 --columns --format csv
expect "strata calibrate: --step needs JOB=DURATION, such as pretrain=6.9s, found the option '--gemm'" \
    -- calibrate "$cal" --step --gemm x.csv
expect "strata compare: expected one scenario file, found a second: 'x.yaml'" -- \
    compare "$queue" x.yaml
# a time's value says it takes a time: "expected a number", then "missing unit" for '90'
expect "strata size: --deadline: expected a time such as '30 s' or '15 min', found 'soon'" -- \
    size "$q" --deadline soon
# a value refused says what it found, as size's and sweep's --format do
expect "strata run: --seed takes a whole number from 0 to 2^53, found 'abc'" -- run "$q" --seed abc
expect "strata run: --format takes text, json, html, markdown or csv, found 'pdf'" -- \
    run "$q" --format pdf
expect "strata compare: --seed takes a whole number from 0 to 2^53, found '-1'" -- \
    compare "$queue" --seed -1
# compare said "unknown option '-o' (or its value is missing)"
expect "strata compare: -o needs a file name" -- compare "$queue" -o
expect "strata compare: --policies needs a comma-separated list of names" -- \
    compare "$queue" --policies
expect "strata compare: --placements needs a comma-separated list of names" -- \
    compare "$queue" --placements
# A name this system cannot open was found only after the whole run ("File name too long").
long=$(printf 'c%.0s' {1..256}).json
deep=$(printf './%.0s' {1..2100})o.json
too_long="is 261 bytes long, longer than the 255 a file's name may have here (NAME_MAX)"
expect "strata run: -o: the name 'cccccccccccccccccccccccc...' $too_long" -- run "$q" -o "$long"
expect "strata run: --trace: the name 'cccccccccccccccccccccccc...' $too_long" -- \
    run "$q" --trace "$long"
expect "strata size: -o: the name 'cccccccccccccccccccccccc...' $too_long" -- \
    size "$q" --deadline 1d -o "$long"
expect "strata compare: -o: the name 'cccccccccccccccccccccccc...' $too_long" -- \
    compare "$queue" -o "$long"
expect "strata calibrate: -o: the name 'cccccccccccccccccccccccc...' $too_long" -- \
    calibrate "$cal" --step mpt-7b-8gpu=1s -o "$long"
expect "strata sweep: -o: the name 'cccccccccccccccccccccccc...' $too_long" -- \
    sweep "$q" --set cluster.nodes=2,4 -o "$long"
# it said "its folder '././.../.' does not exist"
expect "strata run: -o: the path is 4206 bytes long, longer than the 4095 a path may have here (PATH_MAX)" \
    -- run "$q" -o "$deep"
n=$((n + 1))
ls -A "$tmp" | grep -q -- '^-\|^c' && { echo "FAIL a refused name was written: $(ls -A "$tmp")"; fail=$((fail + 1)); }
# An unknown option names the nearest of the command's own options; `--seed=5` the form to use.
expect "strata run: unknown option '--formt'; did you mean '--format'?" -- run "$q" --formt json
expect "strata run: unknown option '--replica'; did you mean '--replicas'?" -- \
    run "$q" --replica 3
expect "strata size: unknown option '--deadlin'; did you mean '--deadline'?" -- \
    size "$q" --deadlin 1d
expect "strata compare: unknown option '--polices'; did you mean '--policies'?" -- \
    compare "$queue" --polices fifo
expect "strata validate: unknown option '--markdwn'; did you mean '--markdown'?" -- \
    validate --markdwn
expect "strata run: '--seed=5': the '=' form is not supported: use '--seed 5'" -- run "$q" --seed=5
expect "strata run: '--format=json': the '=' form is not supported: use '--format json'" -- \
    run "$q" --format=json
expect "strata catalog: expected 'gpus', 'models', 'software', 'frontends', 'prices' or 'userbuffers', found 'gpu'; did you mean 'gpus'?" \
    -- catalog gpu
cp "$q" "$tmp/q.yaml"
expect "strata size: q.yaml has no training or inference workload named finetun; did you mean 'finetune'?" \
    -- size q.yaml --deadline 1d --workload finetun
expect "strata size: --existing: $src/scenarios/examples/mixed-h100-b200.yaml has no pool 'h10'; did you mean 'h100'?" \
    -- size "$src/scenarios/examples/mixed-h100-b200.yaml" --deadline 30d --existing h10
expect "strata size: --budget takes power=P, gpus=N, racks=N, capex=USD, tco=USD (a year), cooling=P, air_cooling=P and liquid_cooling=P, found 'powr=1MW'; did you mean 'power'?" \
    -- size "$q" --deadline 1d --budget powr=1MW
expect "strata calibrate: --step mpt-7b-8gp=1s: no training workload named 'mpt-7b-8gp' in the scenario; did you mean 'mpt-7b-8gpu' or 'mpt-7b-8gpu-seq32k'?" \
    -- calibrate "$cal" --step mpt-7b-8gp=1s
# a command's name mistyped
for typo in rnu Run; do
    n=$((n + 1))
    err=$("$strata" "$typo" "$q" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 2 ] || [ "$(head -1 <<<"$err")" != "strata: '$typo' is not a strata command; did you mean 'run'?" ]; then
        echo "FAIL strata $typo: exit $rc, stderr '$err'"
        fail=$((fail + 1))
    fi
done
# validate took a flag twice, and a --dir that is not there ran each set to "no case files"
expect "strata validate: --markdown is given twice; give it once" -- validate --markdown --markdown
expect "strata validate: --dir is given twice; give it once" -- validate --dir a --dir b
expect "strata validate: --dir '$tmp/absent': no such directory" -- validate --dir "$tmp/absent"
# STRATA_PROGRESS of another value was silently auto
for v in sometimes ALWAYS; do
    n=$((n + 1))
    err=$(STRATA_PROGRESS=$v "$strata" check "$q" 2>&1 >/dev/null)
    [ "$err" = "strata: warning: STRATA_PROGRESS='$v' is not one of auto, always or never; progress shows on a terminal only, as auto" ] ||
        { echo "FAIL STRATA_PROGRESS=$v: stderr '$err'"; fail=$((fail + 1)); }
done
# a bad openb folder is refused before the other sets run (it came after their rows)
n=$((n + 1))
out=$(timeout 60 "$strata" validate --sched --openb "$tmp/absent" 2>/dev/null)
rc=$?
if [ "$rc" -ne 2 ] || [ -n "$out" ]; then
    echo "FAIL validate --openb on a missing folder: exit $rc after ${#out} bytes of sets, want 2 first"
    fail=$((fail + 1))
fi
# ... and so is a node list of no GPU, at its file: it printed the other sets' rows, then
# "strata validate: the nodes have no GPU", naming no file
n=$((n + 1))
mkdir -p "$tmp/ob"
cp "$src/tests/traces/openb/"*.csv "$tmp/ob/"
head -1 "$src/tests/traces/openb/openb_node_list_gpu_node.csv" >"$tmp/ob/openb_node_list_gpu_node.csv"
out=$(timeout 60 "$strata" validate --sched --openb "$tmp/ob" 2>"$tmp/ob.err")
rc=$?
want="$tmp/ob/openb_node_list_gpu_node.csv: error: the node list has no row after its header: expected one row per node, at least one with a GPU"
if [ "$rc" -ne 2 ] || [ -n "$out" ] || [ "$(head -1 "$tmp/ob.err")" != "$want" ]; then
    echo "FAIL validate --openb, nodes of no GPU: exit $rc after ${#out} bytes, stderr $(head -1 "$tmp/ob.err")"
    fail=$((fail + 1))
fi
# a case file that does not load is refused before the table: its header came first
n=$((n + 1))
mkdir -p "$tmp/broken" && printf 'bad: [\n' >"$tmp/broken/case.yaml"
out=$(timeout 60 "$strata" validate --step --dir "$tmp/broken" 2>"$tmp/err")
rc=$?
if [ "$rc" -ne 2 ] || [ -n "$out" ] || ! grep -q "^$tmp/broken/case.yaml:2:1: error" "$tmp/err"; then
    echo "FAIL validate --step on a broken case: exit $rc after ${#out} bytes, stderr $(head -1 "$tmp/err")"
    fail=$((fail + 1))
fi
# an option of a list may be given again: its values add up
n=$((n + 1))
"$strata" size "$q" --deadline 1h --gpu-types h100-sxm --gpu-types b200 >/dev/null 2>&1 ||
    { echo "FAIL size --gpu-types twice: refused"; fail=$((fail + 1)); }
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
