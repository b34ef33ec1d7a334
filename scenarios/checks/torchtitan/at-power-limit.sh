#!/usr/bin/env bash
# The torchtitan check set with each GPU's power limit applied. `strata validate --step` times a
# case's step at full clock; `strata run` gives the step at the clock the plant's DVFS model sets
# for the GPU's power limit (0.744 at the 500 W these H100s ran at, docs/models/plant.md), which
# is what the published runs measured. Prints a markdown table of the published step time, the
# step time `strata run` reports (four significant figures) and the error, then the errors'
# mean, median and max. Run from the source folder with strata on PATH (README.md quotes it).
set -uo pipefail
for f in scenarios/checks/torchtitan/*.yaml; do
    published=$(sed -n 's/^  published: //p' "$f")
    step=$(strata run "$f" | sed -n 's/^  step *\([0-9.]*\) s:.*/\1/p')
    [ -n "$published" ] && [ -n "$step" ] || { echo "$f: no published or predicted step" >&2; exit 2; }
    echo "$(basename "$f" .yaml) $published $step"
done | awk '
BEGIN { print "| case | published | strata run | error |"; print "|---|---|---|---|" }
{
    e = 100 * ($3 / $2 - 1); a[NR] = e < 0 ? -e : e; s += a[NR]
    printf "| %s | %.4g | %.4g | %+.1f%% |\n", $1, $2, $3, e
}
END {
    for (i = 2; i <= NR; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf "\n%d cases, mean |error| %.1f%%, median %.1f%%, max %.1f%%\n", NR, s / NR, m, a[NR]
}'
