#!/usr/bin/env bash
# The error band's residual table (models/forecast/band_rows.c) is tools/band_rows.sh's output
# for the model as built, never typed by hand, and the band holds its published runs at its level
# (`strata validate --band`: 75-85% inside with the run's own set left out, at least 75% with
# the run alone left out), and the calibrated band the calibration
# splits' predicted runs (75-85% over every set). Run from the source folder.
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
# The calibrated band holds the calibration splits' predicted runs at its level over every set:
# each run against the band its set's own transfer runs did not shape (docs/models/error-band.md).
pat='s/^calibration split band: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p'
read -r inside runs share < <(for d in scenarios/validation scenarios/checks/*/; do
    "$1" validate --calibration-split --dir "${d%/}" | sed -n "$pat"
done | awk '{ i += $1; n += $2 } END { printf "%d %d %.1f\n", i, n, n ? 100 * i / n : 0 }')
echo "calibration split band: $inside of $runs predicted runs inside the 80% band ($share%)"
awk -v p="$share" 'BEGIN { exit !(p >= 75 && p <= 85) }' ||
    { echo "the calibrated band misses its coverage goal (75-85%)"; exit 1; }
