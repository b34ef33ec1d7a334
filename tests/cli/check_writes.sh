#!/usr/bin/env bash
# Every write is checked and no file the user points at is replaced by something else (issue:
# `run` as robust as `check`). A full standard output fails the command; -o follows a symbolic
# link to its file, keeps the link, writes a FIFO as a FIFO, refuses a directory, and leaves no
# temporary file; no output may be an input (the scenario, its job trace, its calibration file,
# a service's request trace, a file a swept value names) or another output.
# usage: check_writes.sh STRATA SRCDIR
set -uo pipefail
strata=$1
cd "$2" || exit 2
scn=scenarios/examples/quickstart.yaml
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "check_writes: $*"; exit 1; }

if [ -w /dev/full ]; then
    for args in "run $scn" "run $scn --format json" "check $scn" "catalog" "--help" \
        "size $scn --deadline 30d" "size $scn --deadline 30d -o /dev/full"; do
        # shellcheck disable=SC2086
        "$strata" $args >/dev/full 2>"$dir/err" && fail "'strata $args > /dev/full' exited 0"
        grep -q "cannot write standard output: No space left on device" "$dir/err" ||
            fail "'strata $args > /dev/full' did not say why: $(cat "$dir/err")"
    done
    # size flushed its table itself, and main's check then knew only "write error"
    "$strata" size "$scn" --deadline 30d -o /dev/full >/dev/full 2>"$dir/err"
    grep -q "write error" "$dir/err" && fail "size > /dev/full said 'write error': $(cat "$dir/err")"
    grep -q "strata size: cannot write '/dev/full': No space left on device" "$dir/err" ||
        fail "size -o /dev/full did not say why: $(cat "$dir/err")"
    # a sweep says it once, with its cause (its own line, not main's again)
    "$strata" sweep "$scn" --set seed=1,2 >/dev/full 2>"$dir/err" && fail "sweep > /dev/full exited 0"
    [ "$(grep -c 'cannot write standard output: No space left on device' "$dir/err")" = 1 ] ||
        fail "sweep > /dev/full did not say it once: $(cat "$dir/err")"
fi

"$strata" run "$scn" --format json >"$dir/expected" || fail "run failed"
echo old >"$dir/real.json"
ln -s real.json "$dir/link.json"
"$strata" run "$scn" -o "$dir/link.json" >/dev/null || fail "-o onto a link failed"
[ -L "$dir/link.json" ] || fail "-o replaced the symbolic link"
cmp -s "$dir/real.json" "$dir/expected" || fail "-o did not write the link's file"

ln -s new.json "$dir/dangling.json"
"$strata" run "$scn" -o "$dir/dangling.json" >/dev/null || fail "-o onto a dangling link failed"
[ -L "$dir/dangling.json" ] && cmp -s "$dir/new.json" "$dir/expected" ||
    fail "-o onto a dangling link did not create the file it names"

mkfifo "$dir/fifo"
cat "$dir/fifo" >"$dir/got" &
reader=$!
"$strata" run "$scn" -o "$dir/fifo" >/dev/null || fail "-o onto a FIFO failed"
wait "$reader"
[ -p "$dir/fifo" ] || fail "-o replaced the FIFO with a regular file"
cmp -s "$dir/got" "$dir/expected" || fail "the FIFO's reader did not get the report"

echo old >"$dir/private.json"
chmod 600 "$dir/private.json"
"$strata" run "$scn" -o "$dir/private.json" >/dev/null || fail "-o onto a 0600 file failed"
[ "$(stat -c %a "$dir/private.json")" = 600 ] || fail "-o changed the mode of the file it replaced"

mkdir "$dir/sub"
"$strata" run "$scn" -o "$dir/sub" >/dev/null 2>"$dir/err" && fail "-o onto a directory exited 0"
grep -q "it is a directory" "$dir/err" || fail "-o onto a directory: $(cat "$dir/err")"

# An output whose folder is missing or read-only is a usage error before the command runs (a
# long run used to end in "cannot create a temporary file next to it", its work lost).
for cmd in "run $scn" "size scenarios/examples/llama3-405b-16k.yaml --deadline 90d" \
    "sweep $scn --set seed=1,2" "compare scenarios/examples/philly-512gpu.yaml"; do
    # shellcheck disable=SC2086
    "$strata" $cmd -o "$dir/missing/out.json" >/dev/null 2>"$dir/err"
    rc=$?
    [ "$rc" = 2 ] && grep -q "its folder '$dir/missing' does not exist" "$dir/err" ||
        fail "'$cmd' -o in a missing folder: exit $rc, $(cat "$dir/err")"
done
# A read-only folder is checked as a user it is read-only to: ourselves, or nobody when we are
# root (root writes anywhere) and can become nobody with the binary and the scenario still in
# reach (a clone in a mktemp folder of mode 700 is not: then the cases are skipped).
user=
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null &&
        setpriv --reuid 65534 --regid 65534 --clear-groups "$strata" check "$scn" >/dev/null 2>&1; then
        user="setpriv --reuid 65534 --regid 65534 --clear-groups"
    fi
fi
if [ "$(id -u)" != 0 ] || [ -n "$user" ]; then
    chmod 777 "$dir"
    mkdir "$dir/ro" && echo old >"$dir/target.json" && chmod 666 "$dir/target.json" &&
        ln -s "$dir/target.json" "$dir/ro/link.json" && chmod 555 "$dir/ro"
    # shellcheck disable=SC2086
    $user "$strata" run "$scn" -o "$dir/ro/out.json" >/dev/null 2>"$dir/err"
    rc=$?
    [ "$rc" = 2 ] && grep -q "is not writable" "$dir/err" ||
        fail "-o in a read-only folder: exit $rc, $(cat "$dir/err")"
    # a link there to a file in a writable folder is written through the link, as before
    # shellcheck disable=SC2086
    $user "$strata" run "$scn" -o "$dir/ro/link.json" >/dev/null 2>"$dir/err" ||
        fail "-o through a link in a read-only folder: $(cat "$dir/err")"
    cmp -s "$dir/target.json" <("$strata" run "$scn" --format json) 2>/dev/null ||
        cmp -s "$dir/target.json" "$dir/expected" ||
        fail "-o through a link did not write the link's file"
    # and /dev/stdout, a link into /dev, onto a file the shell opened (one the user may write:
    # the writer reopens it through the link)
    : >"$dir/stdout.json" && chmod 666 "$dir/stdout.json"
    # shellcheck disable=SC2086
    $user "$strata" run "$scn" --format json -o /dev/stdout >"$dir/stdout.json" 2>"$dir/err" ||
        fail "-o /dev/stdout redirected to a file: $(cat "$dir/err")"
    cmp -s "$dir/stdout.json" "$dir/expected" || fail "-o /dev/stdout did not write the report"
    chmod 755 "$dir/ro" "$dir"
fi

# No output replaces an input or another output: the scenario itself, through a link, the job
# trace, -o and --trace naming one new file; each refused before anything is written (exit 2).
cp "$scn" "$dir/s.yaml"
ln -s s.yaml "$dir/s-link.yaml"
sum=$(cksum <"$dir/s.yaml")
refused() { # WANT ARGS...: exit 2 with WANT on stderr
    local want=$1
    shift
    "$strata" "$@" >/dev/null 2>"$dir/err"
    local rc=$?
    [ "$rc" -eq 2 ] || fail "'strata $*' exited $rc, want 2"
    grep -qF -e "$want" "$dir/err" || fail "'strata $*': $(cat "$dir/err")"
}
refused "-o '$dir/s.yaml' is the scenario" run "$dir/s.yaml" -o "$dir/s.yaml"
refused "is the scenario" run "$dir/s.yaml" --format html -o "$dir/s-link.yaml"
refused "--trace '$dir/s.yaml' is the scenario" run "$dir/s.yaml" --trace "$dir/s.yaml"
refused "--trace '$dir/./t.json' is also -o's file" run "$dir/s.yaml" -o "$dir/t.json" \
    --trace "$dir/./t.json"
refused "-o '$dir/s.yaml' is the scenario" size "$dir/s.yaml" --deadline 30d -o "$dir/s.yaml"
philly=scenarios/examples/philly-512gpu.yaml
trace=scenarios/traces/philly/philly_jobs.csv
tsum=$(cksum <"$trace")
refused "is the job trace" compare "$philly" --policies fifo -o "$trace"
refused "is the job trace" run "$philly" -o "$trace"
# The calibration file --calibration names (every command that takes it), a job trace a swept
# value names, and a service's request trace.
cp scenarios/examples/calibrate/mpt-h100.yaml "$dir/cal-scn.yaml"
"$strata" calibrate scenarios/examples/calibrate/mpt-h100.yaml --step mpt-7b-8gpu=1.1546s \
    -o "$dir/cal.yaml" >/dev/null 2>&1 || fail "calibrate did not write its file"
csum=$(cksum <"$dir/cal.yaml")
mpt=scenarios/validation/mpt-h100-7b-8gpu.yaml
refused "is the calibration file" run "$mpt" --calibration "$dir/cal.yaml" -o "$dir/cal.yaml"
refused "is the calibration file" size "$mpt" --deadline 30d --calibration "$dir/cal.yaml" \
    -o "$dir/cal.yaml"
refused "is the calibration file" compare "$philly" --policies fifo --calibration \
    "$dir/cal.yaml" -o "$dir/cal.yaml"
refused "is the calibration file" sweep "$mpt" --set cluster.nodes=1 --calibration \
    "$dir/cal.yaml" -o "$dir/cal.yaml"
[ "$(cksum <"$dir/cal.yaml")" = "$csum" ] || fail "a refused output changed the calibration file"
cp scenarios/examples/trace-models.yaml scenarios/examples/trace-models.csv "$dir/"
cp "$dir/trace-models.csv" "$dir/keep.csv"
ksum=$(cksum <"$dir/keep.csv")
refused "is the job trace" sweep "$dir/trace-models.yaml" --set trace.file=keep.csv \
    -o "$dir/keep.csv"
[ "$(cksum <"$dir/keep.csv")" = "$ksum" ] || fail "a refused sweep changed a swept job trace"
rsum=$(cksum <tests/traces/requests-azure.csv)
refused "is the request trace" run tests/fuzz/seeds/serving-trace.yaml \
    -o tests/traces/requests-azure.csv
[ "$(cksum <tests/traces/requests-azure.csv)" = "$rsum" ] || fail "a refused run changed a request trace"
[ "$(cksum <"$dir/s.yaml")" = "$sum" ] || fail "a refused output changed the scenario"
[ "$(cksum <"$trace")" = "$tsum" ] || fail "a refused output changed the job trace"
[ ! -e "$dir/t.json" ] || fail "a refused run wrote its -o file"

"$strata" run "$scn" -o /dev/null >/dev/null || fail "-o /dev/null failed"
[ -c /dev/null ] || fail "-o /dev/null replaced the device"
# A name of 250 bytes, legal, whose NAME.tmp.XXXXXX would not be: written through a shorter
# temporary name (it failed: "cannot create a temporary file ...: File name too long").
long="$dir/$(printf 'a%.0s' $(seq 1 250)).json"
"$strata" run "$scn" -o "$long" >/dev/null || fail "-o with a 250-byte name failed"
[ -s "$long" ] || fail "-o with a 250-byte name wrote nothing"
leftover=$(find "$dir" -name '*.tmp.*' -o -name '.strata.*' | head -1)
[ -z "$leftover" ] || fail "a temporary file was left behind: $leftover"
echo "writes are checked; links, FIFOs and devices are written through, not replaced"
