#!/usr/bin/env bash
# check_doc_quotes.sh must fail on a quoted block that is not its command's output, and on a quote
# comment without a block; and pass on one that is. usage: check_doc_quotes_refuses.sh STRATA CHECK
set -uo pipefail
strata=$1 check=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/docs"
version=$("$strata" --version)
printf '%s\n' "<!-- quote: strata --version -->" '```' "$version" '```' >"$dir/docs/good.md"
"$check" "$strata" "$dir" >/dev/null || { echo "a matching quote was refused"; exit 1; }
printf '%s\n' "<!-- quote: strata --version -->" '```' "strata 0.0.0-typed-by-hand" '```' \
    >"$dir/docs/bad.md"
if "$check" "$strata" "$dir" >"$dir/out"; then
    echo "a block that differs from its command's output passed"; exit 1
fi
grep -q "docs/bad.md: the block differs" "$dir/out" || { cat "$dir/out"; exit 1; }
printf '%s\n' "<!-- quote: strata --version -->" "no block here" >"$dir/docs/bad.md"
if "$check" "$strata" "$dir" >"$dir/out"; then
    echo "a quote comment without a block passed"; exit 1
fi
echo "the docs quote check refuses a typed block and a quote without one"
