#!/usr/bin/env bash
# docs/guide/validation.md is the output of `strata validate --markdown`, never typed by hand: this
# test fails when the file and the command disagree, or when a set whose goals are met today
# (the fabric set) stops meeting them. Run from the source folder, so the step cases are found.
# Usage: check_validation_doc.sh STRATA SRC
# (regenerate with: build/strata validate --markdown > docs/guide/validation.md)
set -u
cd "$2" || exit 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
env -u STRATA_OPENB "$1" validate --markdown >"$out" # the openb rows need a folder users have
rc=$?
if [ "$rc" -eq 2 ]; then
    echo "strata validate could not run its cases (exit 2)"
    exit 1
fi
if ! cmp -s "$out" docs/guide/validation.md; then
    echo "docs/guide/validation.md differs from 'strata validate --markdown':"
    diff docs/guide/validation.md "$out" | head -20
    exit 1
fi
"$1" validate --fabric >/dev/null || { echo "the fabric set misses its goals"; exit 1; }
# The informal out-of-sample checks must run (exit 0 or 1), whatever their errors.
for d in scenarios/checks/bridge-2511 scenarios/checks/bloom-prequel; do
    "$1" validate --step --dir "$d" >/dev/null
    [ $? -le 1 ] || { echo "$d could not run"; exit 1; }
done
"$1" validate --life >/dev/null || { echo "the checkpoint and failure sets miss their bounds"; exit 1; }
"$1" validate --sched >/dev/null || { echo "the scheduler orderings do not hold"; exit 1; }
# The plant set must run; its GB200 NVL72 rack row does not meet 120-132 kW yet (issue 17), so
# only the Llama 3 swing row is held to its bound here.
"$1" validate --plant >"$out"
[ $? -le 1 ] || { echo "the plant set could not run"; exit 1; }
grep -Eq '^llama3-405b-16k-swing +facility swing MW .* pass$' "$out" || { echo "the Llama 3 facility swing is under 10 MW"; exit 1; }
echo "docs/guide/validation.md matches; fabric, checkpoint, failure and scheduler sets within their goals"
