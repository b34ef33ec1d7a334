#!/usr/bin/env bash
# The error band's residual table (models/forecast/band_rows.c) is tools/band_rows.sh's output
# for the model as built, never typed by hand, and the band holds its published runs at its level
# (`strata validate --band`: 75-85% inside, leave-one-out). Run from the source folder.
# Usage: check_band_rows.sh STRATA SRC
# (regenerate with: tools/band_rows.sh build/strata > models/forecast/band_rows.c, then rebuild)
set -u
cd "$2" || exit 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
tools/band_rows.sh "$1" >"$out" || { echo "tools/band_rows.sh failed"; exit 1; }
if ! cmp -s "$out" models/forecast/band_rows.c; then
    echo "models/forecast/band_rows.c differs from tools/band_rows.sh's output (regenerate it):"
    diff models/forecast/band_rows.c "$out" | head -20
    exit 1
fi
"$1" validate --band || { echo "the error band misses its coverage goal"; exit 1; }
