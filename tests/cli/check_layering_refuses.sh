#!/usr/bin/env bash
# The layering check must fail on an include that runs against the order: a copy of the tree
# gets one deliberately wrong include (silicon reaching up into the step model) and the check
# must exit 1 naming it, while the untouched copy passes.
# Usage: check_layering_refuses.sh SOURCE_DIR
set -u
src=${1:?usage: check_layering_refuses.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/cli"
cp -r "$src/sim" "$src/models" "$src/scenarios" "$src/cli" "$tmp/"
[ -d "$src/validate" ] && cp -r "$src/validate" "$tmp/"
[ -d "$src/planner" ] && cp -r "$src/planner" "$tmp/"
[ -d "$src/report" ] && cp -r "$src/report" "$tmp/"
cp "$src/tests/layering.rules" "$tmp/tests/"
check="$src/tests/cli/check_layering.sh"
"$check" "$tmp" >/dev/null || { echo "the untouched copy fails the check"; exit 1; }
printf '#include "models/step/step.h"\n' >>"$tmp/models/silicon/llm.c"
out=$("$check" "$tmp")
rc=$?
want='models/silicon/llm.c:[0-9]*: includes "models/step/step.h": models/silicon may not include models/step'
if [ $rc -ne 1 ] || ! echo "$out" | grep -q "$want"; then
    echo "expected exit 1 and '$want', got exit $rc:"
    echo "$out"
    exit 1
fi
echo "refused: $out"
