#!/usr/bin/env bash
# What is not a regular file is refused before a byte is read, by `check` and `run` alike: a
# directory ("is a directory", once "read error" without a reason) and a FIFO ("not a regular
# file", once a read that blocked until a writer came). Each must exit 2 at once.
# Usage: check_inputs.sh STRATA
set -u
strata=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir.yaml"
mkfifo "$tmp/fifo.yaml"
fail=0 n=0

# expect CMD FILE LINE: `strata CMD FILE` exits 2 within 10 s with exactly LINE on stderr.
expect() {
    n=$((n + 1))
    local err rc
    err=$(timeout 10 "$strata" "$1" "$2" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 2 ] || [ "$err" != "$3" ]; then
        echo "FAIL strata $1 $2: exit $rc, stderr:"
        printf '  %s\n' "$err"
        echo "  want exit 2 and: $3"
        fail=$((fail + 1))
    fi
}

for cmd in check run; do
    expect "$cmd" "$tmp/dir.yaml" "$tmp/dir.yaml: error: is a directory"
    expect "$cmd" "$tmp/fifo.yaml" \
        "$tmp/fifo.yaml: error: not a regular file (a FIFO, socket or device); a scenario is a file"
    expect "$cmd" "$tmp/absent.yaml" "$tmp/absent.yaml: error: cannot open: No such file or directory"
done
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
