#!/usr/bin/env bash
# strata compare: --help, usage errors, the table in every format on the queue example, EASY
# backfill's shorter wait there, the Philly ordering SRTF < SJF < FIFO on mean JCT, -o, and
# --placements: each policy under each placement, topology-aware's shorter mean JCT on the
# placement-speed example; duplicate names refused; progress only on a terminal or on request.
# Usage: run_compare.sh STRATA SRC
set -u
strata=$1
cd "$2" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if ! eval "$1"; then echo "FAIL $2"; fail=$((fail + 1)); fi; }
q=scenarios/examples/queue.yaml
"$strata" compare --help >"$tmp/h" 2>&1; rc=$?
ok '[ $rc -eq 0 ] && grep -q "^usage: strata compare FILE" "$tmp/h"' "--help"
# The help's useful utilisation is what is computed: failures' costs come off it too (cluster
# failures with no preemption: fifo's useful 58.5% under its 67.88% utilisation).
tr '\n' ' ' <"$tmp/h" >"$tmp/h1"
ok 'grep -q "useful (GPU-seconds held less preemptions. saves and restores and what failures cost, over GPUs x makespan" "$tmp/h1"' "--help: useful less failures' costs"
# Its replicas' seeds start at the seed (--seed 5 --replicas 3: seeds 5-7), not at N.
ok 'grep -q "seeds S..S+N-1 (S: --seed, else the scenario.s)" "$tmp/h1"' "--help: replicas' seeds from the seed"
# Seeds past 2^53 cannot be held exactly by a report: replicas that would run one are refused.
"$strata" compare "$q" --seed 9007199254740992 --replicas 3 >"$tmp/o" 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "would run seeds past 2^53" "$tmp/e" && [ ! -s "$tmp/o" ]' "replicas past 2^53 refused"
"$strata" compare "$q" --policies fifo,nope >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "unknown policy '"'"'nope'"'"' (one of: fifo, backfill" "$tmp/e"' "unknown policy"
"$strata" compare "$q" --policies fifo,sjf,fifo >"$tmp/o" 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "policy '"'"'fifo'"'"' is named twice" "$tmp/e" && [ ! -s "$tmp/o" ]' "duplicate policy refused"
"$strata" compare "$q" --policies fifo --placements pack,random,pack >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "placement '"'"'pack'"'"' is named twice" "$tmp/e"' "duplicate placement refused"
# Progress: none where stderr is not a terminal; with STRATA_PROGRESS=always, a line per update
# from the start, and the table on stdout unchanged.
"$strata" compare "$q" --policies fifo,sjf >"$tmp/p1" 2>"$tmp/e"
ok '[ ! -s "$tmp/e" ]' "no progress off a terminal"
STRATA_PROGRESS=always "$strata" compare "$q" --policies fifo,sjf >"$tmp/p2" 2>"$tmp/e"
ok 'grep -q "^strata: compare: policy runs 0 of 2 (0%), 0 s$" "$tmp/e" && cmp -s "$tmp/p1" "$tmp/p2"' "progress on request"
"$strata" compare >/dev/null 2>&1; rc=$?
ok '[ $rc -eq 2 ]' "no file"
"$strata" compare "$q" >"$tmp/t"; rc=$?
ok '[ $rc -eq 0 ] && [ "$(grep -cE "^(fifo|backfill|sjf|srtf|srsf) +4 " "$tmp/t")" -eq 5 ]' "text: a row per policy"
"$strata" compare "$q" --policies fifo,backfill --format csv >"$tmp/c"
ok '[ "$(wc -l <"$tmp/c")" -eq 3 ] && head -1 "$tmp/c" | grep -q "^policy,placement,jobs,finished,unfinished,mean_wait_s"' "csv"
wait_of() { awk -F, -v p="$1" '$1 == p { print $6 }' "$tmp/c"; }
ok 'awk -v f="$(wait_of fifo)" -v b="$(wait_of backfill)" "BEGIN { exit !(b < f) }"' "backfill waits less than fifo"
"$strata" compare "$q" --format json >"$tmp/j"
all=$("$strata" compare "$q" --format csv | tail -n +2 | wc -l) # a row per registered policy
ok 'grep -q "\"policies\"" "$tmp/j" && [ "$(grep -c "\"policy\":" "$tmp/j")" -eq "$all" ] && [ "$all" -ge 5 ]' "json"
"$strata" compare "$q" --format markdown >"$tmp/m"
ok 'grep -q "^|---|---:|" "$tmp/m"' "markdown"
"$strata" compare "$q" -o "$tmp/out.txt" >"$tmp/none"
ok 'cmp -s "$tmp/out.txt" "$tmp/t" && [ ! -s "$tmp/none" ]' "-o writes the table instead of stdout"
"$strata" compare scenarios/examples/philly-512gpu.yaml --policies srtf,sjf,fifo --format csv >"$tmp/p"
ok 'awk -F, "NR == 2 { s = \$12 } NR == 3 { j = \$12 } NR == 4 { f = \$12 } END { exit !(s < j && j < f) }" "$tmp/p"' "Philly: SRTF < SJF < FIFO on mean JCT"
"$strata" compare "$q" --placements pack,nope >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "unknown placement '"'"'nope'"'"' (one of: pack" "$tmp/e"' "unknown placement"
"$strata" compare scenarios/examples/placement-speed.yaml --policies fifo,backfill \
    --placements pack,topology-aware --format csv >"$tmp/pl"
ok 'awk -F, "NR > 1 { p[NR] = \$1 \",\" \$2; j[NR] = \$12 } END { exit !(NR == 5 && p[2] == \"fifo,pack\" && p[3] == \"fifo,topology-aware\" && p[5] == \"backfill,topology-aware\" && j[3] < j[2] && j[5] < j[4]) }" "$tmp/pl"' "placements: topology-aware < pack on mean JCT"
# --replicas: every figure with its spread (text "±", CSV *_sd columns, JSON "spread"); the new
# columns; energy for every run whose GPU states its power (Philly's trace too); Muri's replay conventions: SRSF < SRTF < Tiresias-L on mean JCT, those three only.
"$strata" compare "$q" --policies fifo,srtf --replicas 3 >"$tmp/r"
ok 'grep -q "seeds 1-3" "$tmp/r" && grep -qE "^fifo +4 .*±" "$tmp/r" && grep -q "frag GPUs" "$tmp/r" && grep -q "useful" "$tmp/r" && grep -q "energy" "$tmp/r"' "replicas: text"
"$strata" compare "$q" --policies fifo --seed 5 --replicas 3 | head -1 >"$tmp/r5"
ok 'grep -q "seeds 5-7 " "$tmp/r5"' "replicas: seeds from --seed, as the help says"
"$strata" compare "$q" --policies fifo --replicas 2 --format csv >"$tmp/rc"
ok 'head -1 "$tmp/rc" | grep -q ",preemptions,fragmented_gpus,useful_utilization,energy_j,mean_wait_s_sd," && head -1 "$tmp/rc" | grep -q ",preemptions_sd,energy_j_sd,within_band$"' "replicas: csv"
"$strata" compare "$q" --policies fifo --replicas 2 --format json >"$tmp/rj"
ok 'grep -q "\"replicas\":\s*2" "$tmp/rj" && grep -q "\"spread\"" "$tmp/rj" && grep -q "\"fragmented_gpus\"" "$tmp/rj"' "replicas: json"
"$strata" compare "$q" --replicas 0 >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -qx "strata compare: --replicas must be at least 1, found .0." "$tmp/e"' "replicas 0 refused"
"$strata" compare "$q" --replicas 1e9 >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -qx "strata compare: --replicas: 1e9 is beyond the most replicas compare draws (at most 1000: every policy runs each of them)" "$tmp/e"' "replicas past the cap: the cap stated"
# The cluster's energy counts every job that ran, trace jobs included: Philly's trace alone has
# it, and SRTF's longer makespan (its preemptions' restarts) draws more than FIFO's.
ok 'head -1 "$tmp/p" | grep -q ",useful_utilization,energy_j$" && awk -F, "NR == 2 { s = \$NF } NR == 4 { f = \$NF } END { exit !(s > f && f > 0) }" "$tmp/p"' "Philly: an energy column, SRTF above FIFO"
# Goodput subtracts what a trace job's preemptions cost: below utilisation under SRTF.
ok 'awk -F, "NR == 2 { exit !(\$20 < \$17) }" "$tmp/p"' "Philly: SRTF's useful utilisation below its utilisation"
m=scenarios/validation/sched/muri-replay-trace3.yaml
"$strata" compare "$m" --policies srsf,srtf,tiresias --format csv >"$tmp/mu"
ok 'awk -F, "NR == 2 { a = \$12 } NR == 3 { b = \$12 } NR == 4 { c = \$12 } END { exit !(a < b && b < c && b > 193081.79 && b < 193081.80 && c > 347213.24 && c < 347213.25) }" "$tmp/mu"' "muri replay: srsf < srtf < tiresias, srtf and Tiresias-L as the artifact"
"$strata" compare "$m" --policies fifo >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "replay: muri), which run the artifact.s srtf, srsf and tiresias" "$tmp/e"' "muri replay: fifo refused, a usage error"
# Without --policies a Muri replay runs the artifact's three (every registered policy, its
# default elsewhere, failed here with exit 1); workloads beside its trace are a usage error.
"$strata" compare "$m" --format csv >"$tmp/mu3" 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 0 ] && [ "$(cut -d, -f1 "$tmp/mu3" | tail -n +2 | tr "\n" " ")" = "srtf srsf tiresias " ]' "muri replay: the artifact's policies by default"
sed -n '/^version:/,$p' "$m" | sed "s|file: \.\./\.\./traces/|file: $(cd "$(dirname "$m")/../../traces" && pwd)/|" >"$tmp/mw.yaml"
printf 'workloads:\n  - { name: w, model: llama3-8b, gpus: 8, steps: 10 }\n' >>"$tmp/mw.yaml"
"$strata" compare "$tmp/mw.yaml" >/dev/null 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "replays its trace alone" "$tmp/e"' "muri replay: workloads beside it refused, a usage error"
"$strata" compare "$m" --policies srtf --placements best-fit >"$tmp/o" 2>"$tmp/e"; rc=$?
ok '[ $rc -eq 2 ] && grep -q "placements: .*replay: muri.*no placement policy applies" "$tmp/e" && [ ! -s "$tmp/o" ]' "muri replay: --placements refused"
# The step model's error band: the queue example's training jobs have one, the band run prints
# (the widest of its jobs' ends, not a half-width around its middle), and each row's within_band
# names exactly the time, energy and money figures inside the best row's band.
"$strata" compare scenarios/examples/queue.yaml --format json >"$tmp/qb.json" 2>/dev/null
"$strata" run scenarios/examples/queue.yaml --format json >"$tmp/qr.json" 2>/dev/null
ok 'python3 - "$tmp/qb.json" "$tmp/qr.json" <<"PY"
import json, sys
d = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
lo, hi = d["band_below"], d["band_above"]
jobs = [j for j in r["jobs"] if "step_time_s_band" in j]
assert jobs and 0 < lo < 1 and 0 < hi, (lo, hi)
assert abs(hi - max(j["step_time_s_band"][1] / j["step_time_s"] - 1 for j in jobs)) < 1e-9
assert abs(lo - max(1 - j["step_time_s_band"][0] / j["step_time_s"] for j in jobs)) < 1e-9
pol = d["policies"]
for k in ("mean_jct_s", "makespan_s", "p95_wait_s", "energy_j"):
    best = min(p[k] for p in pol)
    for p in pol:
        assert (k in p["within_band"]) == (p[k] <= (1 + hi) * best), (k, p["policy"])
assert all("utilization" not in p["within_band"] for p in pol)
PY' "compare: within_band is the band of the best"
# HTML: the figures within the band are a table of their own, a row a policy, not a column of
# the policies' table (a list there squeezed each row to several screens)
"$strata" compare scenarios/examples/queue.yaml --format html -o "$tmp/qb.html" 2>/dev/null
ok 'python3 - "$tmp/qb.html" <<"PY"
import re, sys
s = open(sys.argv[1]).read()
pol = re.search(r"<table[^>]*table-policies.*?</table>", s, re.S).group(0)
band = re.search(r"<table[^>]*table-within-band.*?</table>", s, re.S).group(0)
assert "within the error band" not in pol
assert band.count("<tr") == 1 + len(re.findall(r"<tr", pol)) - 1, (band.count("<tr"), pol.count("<tr"))
PY' "compare html: within the band in its own table"
"$strata" compare scenarios/examples/queue.yaml >"$tmp/qb.txt" 2>/dev/null
ok 'grep -q "^error band -[0-9]*%/+[0-9]*% " "$tmp/qb.txt" && grep -q "^  Mean job completion time: " "$tmp/qb.txt"' "compare: the band under the text table"
"$strata" compare scenarios/examples/philly-512gpu.yaml --policies fifo --format json >"$tmp/pb.json" 2>/dev/null
ok '! grep -q band_above "$tmp/pb.json"' "compare: trace jobs alone have no band"
# A run in which no job finishes (a service alone, its replicas up and down) has no waits or
# completion times to show: absent, not 0 s (a review found "JCT mean 0 s" where run says "no
# job, so no JCT").
"$strata" compare scenarios/examples/serve-scale-to-zero.yaml --policies fifo,srtf --format json >"$tmp/z.json" 2>/dev/null
"$strata" compare scenarios/examples/serve-scale-to-zero.yaml --policies fifo,srtf >"$tmp/z.txt" 2>/dev/null
ok 'python3 -c "import json,sys; p = json.load(open(sys.argv[1]))[\"policies\"]; assert all(r[\"finished\"] == 0 and \"mean_jct_s\" not in r and \"mean_wait_s\" not in r and \"makespan_s\" in r for r in p)" "$tmp/z.json" && ! grep -q "JCT mean" "$tmp/z.txt"' "compare: no finished job, no wait or JCT"
# CSV holds each pool's figures too, as the text's "by pool" table: pool.NAME.KEY columns, each
# row as many cells as the header (a new-user walk found no pool in the CSV)
"$strata" compare scenarios/examples/mixed-h100-b200.yaml --format csv >"$tmp/mp.csv" 2>/dev/null
ok 'head -1 "$tmp/mp.csv" | grep -q ",pool.h100.jobs,pool.h100.finished,pool.h100.mean_wait_s,pool.h100.utilization,pool.b200.jobs," && python3 -c "import csv, sys; r = list(csv.reader(open(sys.argv[1]))); sys.exit(not (len(r) > 1 and all(len(x) == len(r[0]) for x in r)))" "$tmp/mp.csv"' "compare: CSV has each pool's columns"

# The summary names a lowest policy only where a reader sees it lower: preemption.yaml's
# makespans differ by 1.1 s and all read 1.815 h (a new-user walk found "lowest makespan: fifo").
"$strata" compare scenarios/examples/preemption.yaml --format markdown >"$tmp/pm.md" 2>/dev/null
ok 'sed -n 3p "$tmp/pm.md" | grep -q "makespan the same under every policy (1.815 h); lowest mean wait to first start: srtf, srsf and tiresias"' "compare: values that read the same are a tie"
# Under --placements the summary counts what its rows are, runs of a policy under a placement
# (a user walk found "2 policies" over one policy's two runs), in Markdown and HTML alike.
for f in markdown html; do
    "$strata" compare scenarios/examples/trace-models.yaml --policies fifo \
        --placements pack,topology-aware --format $f >"$tmp/tp.$f" 2>/dev/null
    ok 'bash tests/cli/unterm.sh "$tmp/tp.$f" | grep -q "1 policy under 2 placements (2 runs) on the same 2 jobs; lowest mean job completion time: fifo/topology-aware" && ! grep -q "2 policies" "$tmp/tp.$f"' "compare: $f summary counts policies and placements"
done
"$strata" compare scenarios/examples/placement-speed.yaml --policies fifo,backfill \
    --placements pack,topology-aware --format markdown >"$tmp/tp2.md" 2>/dev/null
ok 'sed -n 3p "$tmp/tp2.md" | grep -q "^2 policies under 2 placements (4 runs) on the same 2 jobs;.* makespan the same under every run "' "compare: placements' runs that read the same"
# A run under --placements has one name in every format, the summary's (st_compare_row_name):
# the tables said "fifo, pack" where the summary said "fifo/pack", and the HTML's band and pool
# tables "fifo" for either run.
"$strata" compare scenarios/examples/placement-speed.yaml --policies fifo,backfill \
    --placements pack,topology-aware >"$tmp/tp2.txt" 2>/dev/null
"$strata" compare scenarios/examples/placement-speed.yaml --policies fifo,backfill \
    --placements pack,topology-aware --format html >"$tmp/tp2.html" 2>/dev/null
ok '[ "$(grep -c "^backfill/topology-aware  " "$tmp/tp2.txt")" -eq 1 ] && grep -q "^| backfill/topology-aware *| " "$tmp/tp2.md" && ! grep -q ", pack\|, topology-aware" "$tmp/tp2.txt" "$tmp/tp2.md" && grep -q "<td>backfill/topology-aware</td>" "$tmp/tp2.html" && grep -q "title=\"backfill/topology-aware: Makespan\"" "$tmp/tp2.html"' "compare: a run's name the same in the table, the summary and the HTML"
# A CSV given as the scenario (a trace, say) is said to look like one: it read "value of 96078
# bytes exceeds the limit of 65536 bytes", the YAML reader's word for its one long value.
"$strata" compare scenarios/traces/muri_philly/trace1.csv >/dev/null 2>"$tmp/csv.err"
rc=$?
ok '[ $rc -eq 2 ]' "compare: a CSV as the scenario exits 2"
ok 'head -1 "$tmp/csv.err" | grep -q "^scenarios/traces/muri_philly/trace1.csv:1:1: error: a scenario is a mapping with .version., .cluster. and .workloads., found one value (96078 bytes); it looks like a CSV file (.job_id,num_gpu,"' "compare: a CSV as the scenario is said to look like one"
# The text ends with the answer in words the Markdown opens with; a service's share of requests
# within its targets is part of that answer, and every policy tied for the lead at the same
# price is named (it named srtf alone of srtf, srsf and fair-share).
"$strata" compare scenarios/examples/serve-beside-training.yaml >"$tmp/sb.txt" 2>/dev/null
"$strata" compare scenarios/examples/serve-beside-training.yaml --format markdown >"$tmp/sb.md" 2>/dev/null
ok '[ "$(tail -1 "$tmp/sb.txt")" = "$(sed -n 3p "$tmp/sb.md")" ]' "compare: the text ends with the markdown's summary"
ok 'grep -q "; most service requests within their targets: srtf, srsf and fair-share (100%; 0% under fifo, backfill, sjf and 3 others)\. srtf, srsf and fair-share pay for their lead with preemptions 1 against 0\.$" "$tmp/sb.txt"' "compare: the summary says the services' share and names every tied leader"
# A share reads the same in the table as in the summary (4 significant digits, st_unit_percent):
# the table said 100.00% and 0.00% where the summary said 100% and 0%, and a pool's utilisation
# 40.90% where its HTML says 40.9%.
ok 'awk "\$1 == \"srtf\"" "$tmp/sb.txt" | grep -q " 100%  " && awk "\$1 == \"fifo\"" "$tmp/sb.txt" | grep -q " 0%  " && grep -q "^| srtf .* | *100% | " "$tmp/sb.md" && ! grep -q "0\.00%" "$tmp/sb.txt" "$tmp/sb.md"' "compare: the table's shares as the summary writes them"
"$strata" compare scenarios/examples/mixed-h100-b200.yaml --policies fifo >"$tmp/mh.txt" 2>/dev/null
ok 'grep -q "^fifo  *h100  *3  *3  *19.63 min  *40.9%$" "$tmp/mh.txt"' "compare: a pool's utilisation as every share is written"
echo "$((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
