#!/usr/bin/env bash
# docs/validation.md is the output of `strata validate --markdown`, never typed by hand: this
# test fails when the file and the command disagree. Usage: check_validation_doc.sh STRATA SRC
# (regenerate with: build/strata validate --markdown > docs/validation.md)
set -u
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" validate --markdown >"$out"
rc=$?
if ! cmp -s "$out" "$2/docs/validation.md"; then
    echo "docs/validation.md differs from 'strata validate --markdown':"
    diff "$2/docs/validation.md" "$out" | head -20
    exit 1
fi
echo "docs/validation.md matches; validate exit status $rc"
exit "$rc"
