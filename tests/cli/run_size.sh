#!/usr/bin/env bash
# `strata size` (docs/guide/sizing.md): the counts line adds up, the answer meets the deadline,
# a power budget binds the larger counts, the cost goal ranks by the cost: section's prices and
# is refused without one, the output is the same on every run, usage errors exit 2, --help.
# Usage: run_size.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
scn=$src/scenarios/examples/quickstart.yaml

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}

# expect NAME WANT GOT: one check.
expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}

# The first ranked row (the line after the first header).
first_row() { awk '/^rank +nodes/ {getline; print; exit}' "$1"; }
# FILE NAME: the cells of column NAME in the first table of FILE, one a line. Its cells carry
# their units ("1.328 h"), so they are cut where the heading is, not split at spaces: a cell ends
# where its right-aligned heading does and starts after the heading before it.
text_col() {
    awk -v want="$2" '
        /^rank +nodes/ && !h {h = $0 " "; e = index(h, " " want " "); if (!e) exit
            end = e + length(want); s = e; while (s > 1 && substr(h, s - 1, 1) == " ") s--; next}
        h && ($0 == "" || /^\(/) {exit}
        h {c = substr($0, s, end - s + 1); gsub(/^ +| +$/, "", c); print c}' "$1"
}
# A time cell ("11.44 min") in seconds.
secs() {
    awk '{m = $2 == "ms" ? 1e-3 : $2 == "s" ? 1 : $2 == "min" ? 60 : $2 == "h" ? 3600 : $2 == "d" ? 86400 : 0
        printf "%.6g\n", $1 * m}'
}

"$strata" size "$scn" --deadline 1h >"$tmp/a.txt" 2>"$tmp/a.err" || bad "size failed"
"$strata" size "$scn" --deadline 1h >"$tmp/b.txt" 2>/dev/null || bad "size failed twice"
# Progress on request (STRATA_PROGRESS=always), from the search's start; the answer unchanged.
STRATA_PROGRESS=always "$strata" size "$scn" --deadline 1h >"$tmp/p.txt" 2>"$tmp/p.err" ||
    bad "size with progress failed"
expect "progress" "strata: size: cluster sizes searched 0 of" \
    "$(head -1 "$tmp/p.err" | sed 's/ of .*/ of/')"
expect "progress leaves the answer" "$(cat "$tmp/a.txt")" "$(cat "$tmp/p.txt")"
# It counts what the summary counts, the sizes searched, and its last line is that count at 100%
# (two types of the 405B example: it ended at "21 of 30 (70%)" under "searched 12 of 190").
STRATA_PROGRESS=always "$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --gpu-types h100-sxm,gb200 >"$tmp/p2.txt" 2>"$tmp/p2.err" || bad "405B size with progress failed"
searched2=$(grep -o 'searched [0-9]* of' "$tmp/p2.txt" | head -1 | tr -dc '0-9')
expect "progress ends at the summary's count of sizes searched, 100%" \
    "strata: size: cluster sizes searched $searched2 of $searched2 (100%)" \
    "$(tail -1 "$tmp/p2.err" | sed 's/, [0-9]* s$//')"
expect "same output on every run" "$(cat "$tmp/a.txt")" "$(cat "$tmp/b.txt")"
expect "stderr" "" "$(cat "$tmp/a.err")"
# considered = evaluated + pruned, pruned = rule + memory + dominated
counts=$(sed -n 2p "$tmp/a.txt" | sed 's/[^0-9 ]//g' | tr -s ' ')
read -r searched candidates unit skipped bounded considered evaluated pruned rule mem dom <<<"$counts"
expect "searched + not needed = candidates" "$candidates" "$((searched + skipped))"
expect "unit: a node by default" 1 "$unit"
expect "considered = evaluated + pruned" "$considered" "$((evaluated + pruned))"
expect "pruned = rule + memory + dominated" "$pruned" "$((rule + mem + dom))"
[ "${mem:-0}" -gt 0 ] || bad "no plan pruned by memory: $counts"
row=$(first_row "$tmp/a.txt")
expect "the answer meets the deadline" "" "$(grep -o '(misses)' <<<"$row")"
grep -q '^Pareto front' "$tmp/a.txt" || bad "no Pareto front"

# The table's times and powers read at their size, each cell in the unit the Markdown and HTML
# give it: a 22-minute fine-tune on one 11 kW node read "train_d 0.01539" and "power_MW 0.01117",
# the --existing example's 1.3 h "0.05535". Every cell ends where its heading does.
"$strata" size "$scn" --deadline 1h --top 3 --format markdown >"$tmp/a.md" 2>/dev/null
md_col() { # FILE LABEL: the cells of the Markdown's first table's column LABEL, one a line
    python3 -c 'import sys
lines = open(sys.argv[1]).read().split("\n")
first = next(i for i, l in enumerate(lines) if l.startswith("| "))
rows = []
for l in lines[first:]:
    if not l.startswith("|"):
        break
    rows.append([c.strip() for c in l.strip().strip("|").split(" | ")])
k = rows[0].index(sys.argv[2])
print("\n".join(r[k] for r in rows[1:] if r[0].isdigit()))' "$@"
}
expect "size text: step, train and power as the Markdown gives them" \
    "$(for l in 'Step time' 'Time to train' 'Facility peak power'; do md_col "$tmp/a.md" "$l"; done)" \
    "$(for c in step train power; do text_col "$tmp/a.txt" $c | head -3; done)"
expect "size text: a fine-tune's time and power at their size" "22.16 min 11.17 kW" \
    "$(text_col "$tmp/a.txt" train | head -1) $(text_col "$tmp/a.txt" power | head -1)"
aligned() { # FILE: every row's cell of each unit column ends at its heading's end
    awk '/^rank +nodes/ {h = $0 " "; n = 0
            for (i = 1; i < length(h); i++) if (substr(h, i, 1) != " " && substr(h, i + 1, 1) == " ") {
                w = substr(h, 1, i); sub(/.* /, "", w)
                if (w ~ /^(step|train|band|conf|power|heat|air_heat|liquid_heat|ckpt_every|mem_every|kept_power)$/) e[++n] = i }
            next}
        /^ *[0-9]+ / && n {for (k = 1; k <= n; k++) if (substr($0, e[k], 1) == " " || substr($0 " ", e[k] + 1, 1) != " ") bad++}
        END {print bad + 0}' "$1"
}
expect "size text: the unit columns aligned" 0 "$(aligned "$tmp/a.txt")"
# A deadline no size within 2 nodes meets, even on compute (so each is simulated): every row misses
# it, and says what its time beyond compute goes to
# (the exposed communication, the storage or the rest: the deadline), with rows of more than one
# kind: communication, not fabric, which names only a fabric that cannot be built (a row binding
# its collectives read "fabric (misses)", a reader's "the fabric can't be built").
"$strata" size "$scn" --deadline 1s --budget gpus=16 --top 100 >"$tmp/c.txt" 2>/dev/null ||
    bad "short deadline failed"
expect "short deadline binds" 0 \
    "$(awk '$1 ~ /^[0-9]+$/' "$tmp/c.txt" | grep -Evc ' (deadline|communication|storage) \(misses\)$')"
expect "short deadline: communication and deadline rows" "communication deadline" \
    "$(awk '$1 ~ /^[0-9]+$/ {print $(NF - 1)}' "$tmp/c.txt" | sort -u | tr '\n' ' ' | sed 's/ $//')"
# and the header says so, naming the fastest row's time to train (the smallest train) as the
# table shows it (it said "0.0009493 d" under "deadline 1 s")
fastest=$(text_col "$tmp/c.txt" train | while read -r t; do
    echo "$(echo "$t" | secs) $t"; done | sort -g | head -1 | cut -d' ' -f2-)
expect "short deadline: no row meets it, the fastest named" \
    "the fastest found trains in $fastest on 2 nodes" \
    "$(grep -o "the fastest found trains in [^;]* on [0-9]* nodes*" "$tmp/c.txt")"
expect "short deadline: every row misses it, said in the header's units" 1 \
    "$(grep -c '^no row meets the deadline and the budgets: every row misses the deadline of 1 s; ' "$tmp/c.txt")"
# A power budget no row meets is named, not the deadline the rows meet: the verdict said "no
# row meets the deadline of 0.04167 d within the budgets ... on 1 nodes" under "deadline 1 h".
"$strata" size "$scn" --deadline 40h --budget power=1W >"$tmp/pw.txt" 2>/dev/null
expect "a power budget no row meets is what the verdict names" \
    "no row meets the deadline and the budgets: every row is over the power budget of 1 W, while every row meets the deadline of $(sed -n '1s/.*deadline \(.*\), goal.*/\1/p' "$tmp/pw.txt"); the fastest found trains in" \
    "$(grep -o '^no row meets.*the fastest found trains in' "$tmp/pw.txt")"
expect "one node is one node" 1 "$(grep -c 'trains in [^;]* on 1 node$' "$tmp/pw.txt")"
# a replica left one micro-batch says so in the singular
"$strata" size "$scn" --deadline 1s >"$tmp/mb.txt" 2>/dev/null
expect "one micro-batch, not micro-batches" 1 "$(grep -c 'leaves its replicas 1 micro-batch each' "$tmp/mb.txt")"

# 10 kW: one node's plans fit it, two nodes' do not.
"$strata" size "$scn" --deadline 1h --budget power=10kW,gpus=16 --top 100 >"$tmp/p.txt" \
    2>/dev/null || bad "power budget failed"
two=$(awk '$2 == 2 && $1 ~ /^[0-9]+$/' "$tmp/p.txt" | grep -vc 'power (over)')
expect "two nodes bind on power" 0 "$two"

# What binds a row, and whether it is over it or misses it, is the same in every format: the
# text's "power (over)" is JSON and CSV binds "power" with unmet "over", and a Markdown column of
# its own (the machine formats said "power" alone, the over or misses left to the text). Under
# 20 min and 22.2 kW some rows meet both, some are over the budget, some miss the deadline.
for f in text json csv markdown; do
    "$strata" size "$scn" --deadline 20min --budget power=22.2kW --top 1000 --format $f \
        >"$tmp/bind.$f" 2>/dev/null || bad "binds: --format $f failed"
done
cat >"$tmp/bind.py" <<'PY'
import csv, json, re, sys
d = sys.argv[1]
text = {}
for line in open(d + "/bind.text"):
    m = re.match(r"^ +(\d+) .* (\w+)(?: \((over|misses)\))?$", line)
    if m and int(m.group(1)) not in text:
        text[int(m.group(1))] = (m.group(2), m.group(3))
js = {r["rank"]: (r["binds"], r.get("unmet")) for r in json.load(open(d + "/bind.json"))["ranked"]}
cs = {int(r["rank"]): (r["binds"], r.get("unmet") or None)
      for r in csv.DictReader(open(d + "/bind.csv")) if r["table"] == "ranked"}
rows = [l.split(" | ") for l in open(d + "/bind.markdown") if l.startswith("| ")]
head = [h.strip("| \n") for h in rows[0]]
b = head.index("What binds")
u = head.index("How it breaks what binds (over, misses, unbuildable)")
md = {}
for r in rows[1:]:
    r = [c.strip("| \n") for c in r]
    if r[0].isdigit() and int(r[0]) not in md:
        md[int(r[0])] = (r[b], None if r[u] == "-" else r[u])
states = {v[1] for v in js.values()}
ok = js == cs and all(text.get(k) == md.get(k) == js[k] for k in js) and {"over", "misses", None} <= states
print("ok" if ok else "differ")
PY
expect "binds and unmet: text, JSON, CSV and Markdown agree, with rows over, missing and meeting" \
    ok "$(python3 "$tmp/bind.py" "$tmp")"

# What --top leaves out of the ranked rows is said in every format: JSON left_out, a CSV column
# on every line, the line under the table in text, Markdown and HTML (the CSV held 10 rows and
# nothing said that 201 were left out).
for f in text json csv markdown html; do
    "$strata" size "$scn" --deadline 1h --format $f >"$tmp/cut.$f" 2>/dev/null || bad "cut: --format $f"
done
note='(the first 10 of the 211 configurations evaluated, 201 left out; a larger --top lists more)'
expect "what --top leaves out: JSON, CSV, text, Markdown, HTML" "201 201 201 1 1 1" \
    "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["left_out"], d["search"]["evaluated"] - len(d["ranked"]))' "$tmp/cut.json") $(
        python3 -c 'import csv, sys
print(" ".join(sorted({r.get("left_out", "none") for r in csv.DictReader(open(sys.argv[1]))})))' "$tmp/cut.csv") $(
        grep -cxF "$note" "$tmp/cut.text") $(grep -cxF "$note" "$tmp/cut.markdown") $(grep -cF "$note" "$tmp/cut.html")"

# The cost goal: a cloud price gives cost_usd = GPU-hours x price.
sed 's/^workloads:/cost: { delivery: cloud, gpu_hour_price: 2 USD\/h }\nworkloads:/' "$scn" \
    >"$tmp/cost.yaml"
"$strata" size "$tmp/cost.yaml" --deadline 1h >"$tmp/k.txt" 2>/dev/null || bad "cost goal failed"
expect "goal defaults to cost" "goal cost" "$(sed -n 1p "$tmp/k.txt" | grep -o 'goal cost')"
read -r gh usd <<<"$(text_col "$tmp/k.txt" gpu_hours | head -1) $(text_col "$tmp/k.txt" cost_usd | head -1)"
ok=$(awk -v g="$gh" -v u="$usd" 'BEGIN {d = u - 2 * g; print (d < 0.01 * u && -d < 0.01 * u)}')
expect "cost = 2 USD x GPU-hours" 1 "$ok"
"$strata" size "$scn" --deadline 1h --goal cost >/dev/null 2>"$tmp/e.err"
expect "cost goal without cost: exits 2" 2 $?
grep -q "error: the cost goal needs the scenario's cost: section" "$tmp/e.err" ||
    bad "cost goal error: $(cat "$tmp/e.err")"

# JSON and CSV: the same search as the text; the CSV's rows are the ranked table's, then the
# front's, each with its table; -o writes the file.
"$strata" size "$scn" --deadline 1h --top 3 --format json >"$tmp/s.json" 2>/dev/null ||
    bad "json failed"
expect "json evaluated" "$evaluated" "$(grep -o '"evaluated":[^,]*' "$tmp/s.json" | tr -dc 0-9)"
expect "json ranked rows" 3 "$(sed -n '/"ranked":/,/^	"front":/p' "$tmp/s.json" | grep -c '"rank":')"
"$strata" size "$scn" --deadline 1h --top 3 --format csv -o "$tmp/s.csv" 2>/dev/null ||
    bad "csv failed"
expect "csv header" "table,rank,nodes,gpus,tp,pp,dp" "$(sed -n 1p "$tmp/s.csv" | cut -d, -f1-7)"
expect "csv ranked" "ranked ranked ranked" "$(sed -n 2,4p "$tmp/s.csv" | cut -d, -f1 | paste -sd' ')"
front=$(sed -n '/^Pareto front/,$p' "$tmp/a.txt" | tail -n +3 | wc -l)
expect "csv front rows" "$front" "$(grep -c '^front,' "$tmp/s.csv")"
expect "csv first = text first" "$(first_row "$tmp/a.txt" | awk '{print $2, $3, $4, $5}')" \
    "$(sed -n 2p "$tmp/s.csv" | awk -F, '{print $3, $4, $5, $6}')"

# Budgets on racks, capex and TCO a year; GPU types searched beside the scenario's.
"$strata" size "$scn" --deadline 1h --budget racks=0 >/dev/null 2>&1
expect "racks=0 exits 2" 2 $?
"$strata" size "$scn" --deadline 1h --budget capex=1000000USD >/dev/null 2>"$tmp/e.err"
expect "capex without prices exits 2" 2 $?
grep -q "error: a capex budget needs the scenario's cost: section with node_price and switch_price" \
    "$tmp/e.err" || bad "capex error: $(cat "$tmp/e.err")"
"$strata" size "$tmp/cost.yaml" --deadline 1h --budget tco=1USD --top 1 >"$tmp/t.txt" 2>/dev/null
expect "a tiny tco budget binds, the row over it" "tco (over)" "$(first_row "$tmp/t.txt" | grep -o 'tco (over)')"
"$strata" size "$scn" --deadline 1h --gpu-types h100-sxm,h200-sxm --top 200 >"$tmp/g.txt" \
    2>/dev/null || bad "--gpu-types failed"
expect "two variants" "2 hardware variants" "$(sed -n 2p "$tmp/g.txt" | grep -o '2 hardware variants')"
expect "h200 rows" 1 "$(grep -c ' h200-sxm ' "$tmp/g.txt" | awk '{print ($1 > 0)}')"
"$strata" size "$scn" --deadline 1h --gpu-types h900 >/dev/null 2>&1
expect "unknown GPU type exits 2" 2 $?
# ... with the suggestion the scenario's loader makes (sweep --set cluster.gpu=h100 had one,
# size --gpu-types h100 none)
"$strata" size "$scn" --deadline 1h --gpu-types h100 >/dev/null 2>"$tmp/e"
expect "unknown GPU type: the loader's suggestion" \
    "strata size: --gpu-types: unknown GPU 'h100'; did you mean 'h100-sxm' or 'h100-pcie'? (\`strata catalog\` lists the known GPUs)" \
    "$(head -1 "$tmp/e")"
# --unit names the units it takes (it said "expected a number, found 'racks'")
"$strata" size "$scn" --deadline 1h --unit racks >/dev/null 2>"$tmp/e"
expect "--unit: the units" \
    "2 strata size: --unit takes node, rack, leaf or a whole number of nodes, found 'racks'; did you mean 'rack'?" \
    "$? $(head -1 "$tmp/e")"
# A GPU budget below one unit says so at the option, with the least it takes (it said no
# cluster "splits workload 'finetune'", located at the workload).
"$strata" size "$scn" --deadline 1h --budget gpus=4 >/dev/null 2>"$tmp/e"
expect "a GPU budget below one node" \
    "2 --budget: error: gpus=4 is below one unit, a node of 8 GPUs: no cluster fits it; give gpus=8 or more" \
    "$? $(head -1 "$tmp/e")"
"$strata" size "$scn" --deadline 1h --unit 4 --budget gpus=20 >/dev/null 2>"$tmp/e"
expect "a GPU budget below one unit of 4 nodes" 1 \
    "$(grep -c "gpus=20 is below one unit, 4 nodes of 8 GPUs: no cluster fits it; give gpus=32 or more" "$tmp/e")"

# Llama 3 405B within 90 days, 30 MW and 20,000 GPUs, failures counted: the answer is the
# published scale and plan (16,384 GPUs, tp 8, pp 16, dp 128, arXiv:2407.21783 table 4), and no
# size under 8,192 GPUs, which its FLOPs at the H100's peak alone put past 90 days, is simulated.
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --top 1 --format csv >"$tmp/l.csv" 2>/dev/null ||
    bad "405B sizing failed"
expect "405B answer" "16384,8,16,128,true" \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" {print $4 "," $5 "," $6 "," $7 "," $c["feasible"]}' "$tmp/l.csv")"
# columns by their header's names
col() { awk -F, -v want="$1" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $1 == "ranked" {n = split(want, w, " "); for (i = 1; i <= n; i++) printf "%s%s", $c[w[i]], i < n ? " " : "\n"}' "$2"; }
read -r l_goodput l_train <<<"$(col "expected_goodput train_s" "$tmp/l.csv")"
expect "405B goodput under 1" 1 "$(awk -v g="$l_goodput" 'BEGIN {print (g < 1 && g > 0.9)}')"
# docs/guide/sizing.md quotes the closed form's goodput and days for this answer, and those of
# `strata run`'s Monte Carlo: each as the doc words it, against what the commands print.
doc=$(tr '\n' ' ' <"$src/docs/guide/sizing.md")
expect "sizing.md: the closed form's figures" \
    "$(sed -n 's/.*published plan it gives \([0-9.]*%\) goodput and \([0-9.]*\) days.*/\1 \2/p' <<<"$doc")" \
    "$(awk -v g="$l_goodput" -v t="$l_train" 'BEGIN {printf "%.2f%% %.2f", g * 100, t / 86400}')"
"$strata" run "$src/scenarios/examples/llama3-405b-16k.yaml" >"$tmp/l.txt" 2>/dev/null ||
    bad "405B run failed"
expect "sizing.md: strata run's figures" \
    "$(sed -n 's/.*the Monte Carlo of `strata run` gives \([0-9.]*%\) and \([0-9.]*\) days.*/\1 \2/p' <<<"$doc")" \
    "$(awk '/^  life / {for (i = 1; i < NF; i++) { if ($(i + 1) == "d") d = $i; if ($i == "goodput") g = $(i + 1) }
        sub(/,$/, "", g); printf "%s %.1f", g, d}' "$tmp/l.txt")"
expect "sizing.md: the answer's days" \
    "$(awk -v t="$l_train" 'BEGIN {printf "%.2f days with failures", t / 86400}')" \
    "$(grep -o '^[0-9.]* days with failures' "$src/docs/guide/sizing.md")"
expect "no size under 8,192 GPUs simulated (compute alone misses 90 d)" "" \
    "$(awk -F, '($1 == "ranked" || $1 == "front") && $4 < 8192' "$tmp/l.csv")"

# The text table shows both cadences of a two-level checkpoint: the persistent one (ckpt_every)
# and the in-memory one (mem_every), a few steps for the 405B example's `memory: { every: auto }`; a
# workload without an in-memory level has no such column.
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --top 1 >"$tmp/lm.txt" 2>/dev/null || bad "405B text failed"
read -r lm_mem lm_step lm_ckpt <<<"$(for c in mem_every step ckpt_every; do
    text_col "$tmp/lm.txt" $c | head -1 | secs; done | paste -sd' ')"
expect "size text: in-memory cadence a few steps, under the persistent one" 1 \
    "$(awk -v m="${lm_mem:-0}" -v s="${lm_step:-0}" -v p="${lm_ckpt:-0}" \
        'BEGIN {print (s > 0 && m >= s && m <= 10 * s && m < p)}')"
expect "size text: no in-memory column without checkpoint.memory" 0 "$(grep -c 'mem_every' "$tmp/a.txt")"
# The table's whole numbers are grouped as every count in the reports (16,384 GPUs, as the
# Markdown, the HTML and the counts line say it; it read 16384), under headings that still align,
# while the CSV keeps the raw 16384 (above).
expect "size text: the plan's numbers grouped" "2048 16,384 8 16 128" \
    "$(first_row "$tmp/lm.txt" | awk '{print $2, $3, $4, $5, $6}')"
expect "size text: a grouped column under its heading" "16,384" "$(text_col "$tmp/lm.txt" gpus | head -1)"

# The audit's memory headroom (audit.memory_headroom, 10% by default): the text names exactly the
# rows shown that leave less of their HBM free, by the JSON's own figures, whose capacity is the
# one `strata run` reports; the audit's threshold stated lower names fewer rows, and only those.
for h in default 2; do
    f=$src/scenarios/examples/llama3-405b-16k.yaml
    if [ $h != default ]; then
        { cat "$f"; printf 'audit: { memory_headroom: %s%% }\n' $h; } >"$tmp/h$h.yaml"
        f=$tmp/h$h.yaml
    fi
    "$strata" size "$f" --deadline 90d --budget power=30MW,gpus=20000 --top 5 >"$tmp/h.txt" \
        -o "$tmp/h.json" 2>/dev/null || bad "405B headroom $h failed"
    expect "size: rows under memory_headroom ($h)" \
        "$(python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))
low = [str(i + 1) for i, r in enumerate(t["ranked"][:5])
       if 1 - r["memory_per_gpu_bytes"] / r["memory_capacity_bytes"] < t["memory_headroom"]]
print("%g" % (100 * t["memory_headroom"]), ", ".join(low))' "$tmp/h.json")" \
        "$(sed -n 's/^memory: rows\? \([0-9, ]*\) leaves\? under audit.memory_headroom of HBM free (\([0-9.]*\)%.*/\2 \1/p' "$tmp/h.txt")"
done
expect "size: memory capacity is run's" \
    "$("$strata" run "$src/scenarios/examples/llama3-405b-16k.yaml" --format json 2>/dev/null |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["memory"]["capacity_bytes"])')" \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ranked"][0]["memory_capacity_bytes"])' "$tmp/h.json")"

# Under --topologies spine-leaf the 16,384-GPU example's 1,024 leaves (2 nodes each) would need
# spines of 1,024 ports, past the 576 of its chassis (cluster.fabric.switch_ports): the fabric
# grows a third tier (pods of 288 leaves), so every such row is fat-tree-3 and none binds on its
# switches' ports; the answer is the scenario's own fat-tree-3 (192 leaves a pod).
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --topologies fat-tree-3,spine-leaf --top 1000 --format csv \
    >"$tmp/r.csv" 2>/dev/null || bad "405B spine-leaf sizing failed"
expect "spine-leaf at 16,384 GPUs grows a third tier" "spine-leaf fat-tree-3" \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" && $3 == "spine-leaf" && $5 == 16384 {print $3, $c["topology"]}' "$tmp/r.csv" | sort -u)"
expect "grown spine-leaf rows feasible" 1 \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" && $3 == "spine-leaf" && $5 == 16384 && $c["feasible"] == "true"' "$tmp/r.csv" | head -1 | wc -l)"
expect "spine-leaf: the answer stays fat-tree-3" "fat-tree-3,16384,true" \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" && $2 == 1 {print $3 "," $5 "," $c["feasible"]}' "$tmp/r.csv")"

# Against Llama 3's published design (docs/guide/sizing.md): its tokens by the time Meta's
# throughput at 16,384 GPUs needs for them at 90% goodput, in 32-node units: within 15% of 16,384
# GPUs, whole units, the deadline binding.
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 80.37d --unit 32 \
    --top 1 --format csv >"$tmp/m.csv" 2>/dev/null || bad "405B published-design sizing failed"
read -r mn mg mf mb <<<"$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" && $2 == 1 {print $3, $4, $c["feasible"], $c["binds"]}' "$tmp/m.csv")"
expect "published design: whole 32-node units" 0 "$((mn % 32))"
expect "published design: within 15% of 16,384 GPUs" 1 \
    "$(awk -v g="$mg" 'BEGIN {print (g >= 0.85 * 16384 && g <= 1.15 * 16384)}')"
expect "published design: feasible, the deadline binds" "true deadline" "$mf $mb"

# The README's second sizing command: under 19 MW, where 16,384 GPUs need 20.6 MW, the answer is
# 1,792 nodes (pp 14), a size between powers of two that meets both the deadline and the budget.
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 130d --budget power=19MW \
    --top 1 --format csv >"$tmp/p19.csv" 2>/dev/null || bad "405B under 19 MW failed"
expect "README: 19 MW answers 1,792 nodes, feasible" "1792 14 true" \
    "$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == "ranked" && $2 == 1 {print $3, $6, $c["feasible"]}' "$tmp/p19.csv")"
grep -q -- '--deadline 130d --budget power=19MW$' "$src/README.md" || bad "README lacks the 19 MW command"

# --unit with a suffix is the count it reads as: 2K is 2,000 nodes (it was checked as 2,000 and
# searched in units of 2, strtod reading the text again).
"$strata" size "$src/scenarios/examples/quickstart.yaml" --deadline 30d --unit 2K >/dev/null 2>"$tmp/u.err"
expect "--unit 2K is 2,000 nodes" 1 "$(grep -c 'whole units of 2000 nodes' "$tmp/u.err")"

# Usage errors.
for args in "" "--deadline 0s" "--deadline 1h --budget foo=1" "--deadline 1h --budget power=x" \
    "--deadline 1h --goal fast" "--deadline 1h --top 0" "--deadline 1h --workload nope" \
    "--deadline 1h --format xml" "--deadline 1h --oversubscription 0.5" \
    "--deadline 1h --unit 0" "--deadline 1h --unit half" "--deadline 1h --unit 1.5" \
    "--deadline 1h --transport ethernet" "--deadline 1h --gpu-types ," \
    "--deadline 1h --gpu-types h100-sxm," "--deadline 1h --gpu-types h100-sxm,h100-sxm" \
    "--deadline 1h --oversubscription 1,,2" "--deadline 1h --oversubscription 2,2" \
    "--deadline 1h --transport roce-v2,roce-v2" "--deadline 1h --budget racks=2,racks=3" \
    "--deadline 1h --budget racks=2 --budget racks=3" "--deadline 1h --budget ,gpus=8" \
    "--deadline 1h --storage-bandwidth ," "--deadline 1h --storage-bandwidth 1GB/s,,2GB/s" \
    "--deadline 1h --storage-bandwidth 1GB/s," "--deadline 1h --storage-bandwidth 1000MB/s,1GB/s" \
    "--deadline 1h --storage-bandwidth fast" "--deadline 1h --storage-bandwidth 0GB/s" \
    "--deadline 1h --storage-bandwidth 5GB" "--deadline 1h --storage-bandwidth 1B/s"; do
    # shellcheck disable=SC2086
    "$strata" size "$scn" $args >/dev/null 2>&1
    expect "usage error: '$args'" 2 $?
done
# Range errors state the true bound, from the shared value parser (models/config/limits.h); a
# value too large for a double is past the bound, not "expected a time above 0".
while IFS='|' read -r args want; do
    # shellcheck disable=SC2086
    "$strata" size "$scn" $args >/dev/null 2>"$tmp/e"
    expect "range error: '$args'" "strata size: $want" "$(head -1 "$tmp/e")"
done <<'EOF'
--deadline 1e308y|--deadline: 1e308y is beyond the longest duration the life model represents (at most 73.12 y: 2^61 ns)
--deadline 0d|--deadline must be greater than zero, found '0d'
--deadline 1h --budget gpus=2e9|--budget gpus: 2e9 is beyond the most GPUs a budget names (at most 1B: the largest plan, 10^9 GPUs)
--deadline 1h --budget racks=0|--budget racks must be at least 1, found '0'
--deadline 1h --unit 99999999999|--unit: 99999999999 is beyond the most nodes a scalable unit holds (at most 1B: no more nodes than the largest plan's 10^9 GPUs)
--deadline 1h --budget power=-5MW|--budget power must be greater than zero, found '-5MW'
--deadline 1h --top 1001|--top: 1001 is beyond the most rows --top ranks (at most 1000: a ranked table stays one a reader can scan)
--deadline 1h --oversubscription 0x10|--oversubscription: expected a number, found '0x10'
--deadline 1h --oversubscription 65|--oversubscription: 65 is beyond the largest oversubscription size tries (at most 64: 64:1, past any fabric built)
--deadline 1h --storage-bandwidth 1kB/s|--storage-bandwidth: 1kB/s is below the slowest rate the models represent (at least 433.7 kB/s: 1 PB must move within 2^61 ns)
EOF
"$strata" size --help | grep -q '^usage: strata size FILE --deadline' || bad "--help"
# README's `strata size` lines name every option the usage names.
readme=$(sed -n '/^strata size FILE/,/^strata check/p' "$src/README.md")
for opt in $("$strata" size --help | sed -n '1,/^$/p' | grep -o -- '--[a-z-]*' | sort -u); do
    n=$((n + 1))
    grep -q -- "\[$opt \|$opt " <<<"$readme" || bad "README's strata size lacks $opt"
done
"$strata" size "$scn" --deadline 1h --gpu-types h100-sxm,h100-sxm >/dev/null 2>"$tmp/e"
expect "a GPU type twice says so" "strata size: --gpu-types: 'h100-sxm' is given twice" "$(head -1 "$tmp/e")"
"$strata" size "$scn" --deadline 1h --budget racks=2,racks=3 >/dev/null 2>"$tmp/e"
expect "a budget twice says so" "strata size: --budget: racks is given twice (found 'racks=3')" "$(head -1 "$tmp/e")"

# --storage-bandwidth: the variant string names the tier's bandwidth; without
# cost.storage_bandwidth_price the cost goal is an error located at the cost: section.
cat >"$tmp/tier.yaml" <<'EOF'
version: 1
name: size-tier
cluster:
  gpu: h100-sxm
  nodes: 2
  storage: [ { name: fs, kind: parallel-fs, read: 10 GB/s, write: 2 GB/s } ]
workloads:
  - name: train
    model: llama3-8b
    seq_len: 4096
    global_batch: 64
    gpus: 8
    parallel: { tp: 1, pp: 1, dp: 8, zero: 1, microbatch: 1 }
    tokens: 2B
    checkpoint: { every: 1 h, mode: sync, tier: fs }
failures: { gpu: { mtbf: 200 h }, detect: 1 min, restart: 4 min }
EOF
"$strata" size "$tmp/tier.yaml" --deadline 30d --storage-bandwidth 1GB/s,1TB/s --top 1 \
    --format csv >"$tmp/t.csv" 2>/dev/null || bad "storage-bandwidth sizing failed"
expect "the faster tier wins gpu-hours" "ckpt1000GB/s" \
    "$(awk -F, '$1 == "ranked" {print $3}' "$tmp/t.csv")"
printf 'cost: { delivery: on-prem, node_price: 300000 USD, switch_price: 30000 USD, storage_price: 100 USD/TB, maintenance: 8%%, staff: 0 USD/h }\n' >>"$tmp/tier.yaml"
"$strata" size "$tmp/tier.yaml" --deadline 30d --storage-bandwidth 1GB/s >/dev/null 2>"$tmp/e"
expect "missing storage_bandwidth_price exits 2" 2 $?
expect "missing storage_bandwidth_price is located" "$tmp/tier.yaml:17:" \
    "$(head -1 "$tmp/e" | grep -o "^$tmp/tier.yaml:[0-9]*:")"
# Priced nodes and switches but no bandwidth price, under the gpu-hours goal: the purchase price is the
# node's and its switch's, 300,000 + 30,000 USD (it was null: the unset price's -1 sentinel times the
# bandwidth), and, as `run` buys them, two checkpoints' storage: 2 x 112.4 GB (llama3-8b's 8.03B
# parameters at 14 bytes) at 100 USD/TB, 22.48 USD.
"$strata" size "$tmp/tier.yaml" --deadline 30d --goal gpu-hours --storage-bandwidth 1GB/s,1TB/s \
    --top 1 --format csv >"$tmp/c.csv" 2>/dev/null || bad "gpu-hours sizing with prices failed"
col=$(head -1 "$tmp/c.csv" | tr ',' '\n' | grep -n '^purchase_usd$' | cut -d: -f1)
expect "purchase price without a bandwidth price is nodes + switches + two checkpoints" 330022.4847 \
    "$(awk -F, -v c="$col" '$1 == "ranked" {printf "%.4f", $c}' "$tmp/c.csv")"

# --topologies: every row's variant names its topology in the CSV, JSON and Markdown; on 8
# nodes over 4:1 spines the rail-optimized fabric keeps the data-parallel ring on its rails and
# is the answer (tests/unit/planner/test_size_topology.c checks the step); a name
# cluster.fabric.topology does not take, or one given twice, is a usage error.
cat >"$tmp/topo.yaml" <<'EOF'
version: 1
name: size-topology
cluster: { gpu: h100-sxm, nodes: 8, fabric: { oversubscription: 4 } }
workloads:
  - name: train
    model: llama3-8b
    seq_len: 4096
    global_batch: 512
    gpus: 64
    parallel: { tp: 1, pp: 1, dp: 64, zero: 1, microbatch: 1 }
    tokens: 20B
EOF
for f in csv json markdown; do
    "$strata" size "$tmp/topo.yaml" --deadline 8h --topologies spine-leaf,rail-optimized \
        --top 400 --format $f >"$tmp/topo.$f" 2>/dev/null || bad "--topologies $f failed"
done
expect "rails are the answer" "rail-optimized,8,64" \
    "$(awk -F, '$1 == "ranked" && $2 == 1 {print $3 "," $4 "," $5}' "$tmp/topo.csv")"
expect "csv variants" "rail-optimized spine-leaf" \
    "$(awk -F, '$1 == "ranked" {print $3}' "$tmp/topo.csv" | sort -u | paste -sd' ')"
expect "json variants" 2 "$(grep -o '"variant":[[:space:]]*"[a-z-]*"' "$tmp/topo.json" | sort -u | wc -l)"
expect "markdown's first row, ranked and on the front" 2 "$(grep -c '^| 1 | rail-optimized | 8 | 64 |' "$tmp/topo.markdown")"
"$strata" size "$tmp/topo.yaml" --deadline 8h --topologies fat-tree >/dev/null 2>"$tmp/e"
expect "an unknown topology exits 2" 2 $?
expect "an unknown topology says so" \
    "strata size: --topologies takes spine-leaf, rail-optimized or fat-tree-3 (cluster.fabric.topology's names), found 'fat-tree'" \
    "$(head -1 "$tmp/e")"
"$strata" size "$tmp/topo.yaml" --deadline 8h --topologies rail-optimized,rail-optimized \
    >/dev/null 2>"$tmp/e"
expect "a topology twice says so" "strata size: --topologies: 'rail-optimized' is given twice" \
    "$(head -1 "$tmp/e")"
"$strata" size "$tmp/topo.yaml" --deadline 8h --topologies , >/dev/null 2>&1
expect "an empty topology exits 2" 2 $?

# --confidence: the deadline holds each row's time to train at the band's upper end, so a row is
# feasible only when that time is within it, and the smallest size that meets the deadline is
# no smaller than the point forecast's.
col() { awk -F, -v k="$2" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $1 == "ranked" {print $c["gpus"], $c[k], $c["feasible"]}' "$1"; }
"$strata" size "$scn" --deadline 25min --top 1000 --format csv >"$tmp/c0.csv" 2>/dev/null ||
    bad "size without --confidence failed"
"$strata" size "$scn" --deadline 25min --top 1000 --confidence 0.9 --format csv >"$tmp/c9.csv" \
    2>/dev/null || bad "size --confidence failed"
expect "confidence: feasible rows within the deadline at the band's end" 0 \
    "$(col "$tmp/c9.csv" train_s_at_confidence | awk '$3 == "true" && $2 > 1500' | wc -l)"
expect "confidence: rows over the deadline at the band's end miss" 0 \
    "$(col "$tmp/c9.csv" train_s_at_confidence | awk '$3 == "false" && $2 <= 1500' | wc -l)"
min0=$(col "$tmp/c0.csv" train_s | awk '$3 == "true" {print $1}' | sort -n | head -1)
min9=$(col "$tmp/c9.csv" train_s | awk '$3 == "true" {print $1}' | sort -n | head -1)
expect "confidence: a larger smallest size than the point forecast's" 1 \
    "$(awk -v a="${min0:-0}" -v b="${min9:-0}" 'BEGIN {print (b > a && a > 0)}')"
"$strata" size "$scn" --deadline 1h --confidence 0.995 >/dev/null 2>"$tmp/e.err"
expect "confidence past the table exits 2" 2 $?
grep -q -- "--confidence: 0.995 is beyond" "$tmp/e.err" || bad "confidence past the table: message"

# --delivery: each delivery model a variant, at its own prices and, where the cluster states no
# noise, its noise profile: the same plan takes longer on cloud VMs (docs/models/stragglers.md).
sed 's/^cost:.*//' "$scn" >"$tmp/d.yaml"
echo "cost: { delivery: cloud, gpu_hour_price: 2.5 USD/h }" >>"$tmp/d.yaml"
"$strata" size "$tmp/d.yaml" --deadline 25min --delivery bare-metal,cloud --top 1000 \
    --format csv >"$tmp/d.csv" 2>/dev/null || bad "size --delivery failed"
step_of() { awk -F, -v v="$1" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $1 == "ranked" && $c["variant"] == v && $c["gpus"] == 8 && $c["tp"] == 1 && $c["pp"] == 1 &&
    $c["microbatch"] == 1 && $c["recompute"] == "none" {print $c["step_time_s"]; exit}' "$tmp/d.csv"; }
expect "delivery: the plan on cloud VMs is slower than on bare metal" 1 \
    "$(awk -v a="$(step_of bare-metal)" -v b="$(step_of cloud)" 'BEGIN {print (a > 0 && b > a)}')"
"$strata" size "$tmp/d.yaml" --deadline 25min --delivery on-prem >/dev/null 2>"$tmp/d.err"
expect "delivery: on premises without a switch price exits 2" 2 $?
grep -q "no 'switch_price'" "$tmp/d.err" || bad "delivery on-prem: message $(cat "$tmp/d.err")"
for args in "--delivery rented" "--delivery cloud,cloud" "--delivery ,cloud"; do
    # shellcheck disable=SC2086
    "$strata" size "$tmp/d.yaml" --deadline 25min $args >/dev/null 2>&1
    expect "usage error: '$args'" 2 $?
done

# --existing POOL (sizing.md, "Growing an existing fleet"): a loose deadline is met on the pool
# kept (nothing bought); a tight one adds nodes, of its type or a new pool's; the GPU budget
# counts the grown fleet, every pool (4,096 H100 and the B200 wing's 1,024 fit 5,120, not
# 5,119); a pool
# the scenario lacks, a one-type scenario and a power budget are usage errors; a pooled
# scenario without --existing is refused.
mixed=$src/scenarios/examples/mixed-h100-b200.yaml
first_row() { # ARGS...: pool kept, then rank 1's added nodes, type, bought_usd, feasible, binds
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --top 1 --format json "$@" \
        2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin); r = d["ranked"][0]
print(d["existing"]["pool"], r["added_nodes"], r["added_gpu"], round(r["bought_usd"], 2), r["feasible"],
      r["binds"])'
}
expect "--existing: a loose deadline buys nothing" "h100 0 h100-sxm 0 True memory" \
    "$(first_row --deadline 3d)"
expect "--existing: a tight deadline grows the pool" "h100 256 h100-sxm 70140781.02 True gpus" \
    "$(first_row --deadline 1.5h --budget gpus=5120)"
expect "--existing: the GPU budget counts the pool kept" "h100 256 b200 136640197.55 False gpus" \
    "$(first_row --deadline 1.5h --budget gpus=5119)"
# Under --existing the cost lines price a row's nodes, the kept ones among them, and its share
# of the grown fleet's switches (its GPUs over the fleet's), and do not say they are bought:
# what a row buys is its bought_usd.
"$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 3d --top 1 >"$tmp/ex.txt" \
    2>/dev/null
expect "--existing: the cost line prices the kept nodes" "1 0" \
    "$(grep -c '^  rank 1 h100-sxm: priced 64 nodes x 255,237 + 0.1667 of 240 switches' "$tmp/ex.txt") $(grep -c ': bought ' "$tmp/ex.txt")"
"$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --top 3 >"$tmp/ex15.txt" \
    2>/dev/null
expect "--existing text: the first row's time and powers at their size, aligned" \
    "1.328 h 6.695 MW 1.18 MW 0" \
    "$(text_col "$tmp/ex15.txt" train | head -1) $(text_col "$tmp/ex15.txt" power | head -1) $(text_col "$tmp/ex15.txt" kept_power | head -1) $(aligned "$tmp/ex15.txt")"
# A power budget counts the grown fleet: the row's facility peak with every other node idle, as
# `run` gives it (6.736 MW for the new B200 pool), plus what those nodes add at full draw
# (kept_facility_w: the 256 H100 nodes and the B200 wing's 128, 2.796 MW), 9.53 MW: it fits
# 9.6 MW, not 9.5 MW; growing the H100 pool to 512 nodes still has the B200 wing beside it.
b200_row() { # BUDGET: the first B200 row's feasible, binds and kept_facility_w > 1 MW
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --top 12 \
        --budget power="$1" --format json 2>/dev/null | python3 -c 'import json, sys
rows = json.load(sys.stdin)["ranked"]
b = [r for r in rows if r["added_gpu"] == "b200"][0]
h = [r for r in rows if r["added_gpu"] == "h100-sxm"][0]
print(b["feasible"], b["binds"], b["kept_facility_w"] > 1e6, h["feasible"], h["kept_facility_w"] > 1e6)'
}
expect "--existing: 9.6 MW holds the B200 pool beside the rest at full draw" "True power True True True" "$(b200_row 9.6MW)"
expect "--existing: 9.5 MW does not" "False power True True True" "$(b200_row 9.5MW)"
# Each variant's nodes fill the racks of the pool of its type: the H100 rows the H100 wing's
# air-cooled racks of two, the B200 rows the cluster's racks of four that the B200 pool takes.
racks_by_type=$("$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h \
    --top 12 --format json 2>/dev/null | python3 -c 'import json, sys
rows = json.load(sys.stdin)["ranked"]
print(*sorted({"%s %d" % (r["added_gpu"], r["nodes"] // r["racks"]) for r in rows}))')
expect "--existing: each type's rows fill its pool's racks" "b200 4 h100-sxm 2" "$racks_by_type"
# A rack budget counts the grown fleet's racks: 128 air racks of the 256 H100 nodes, 32 of the
# B200 wing's 128 and 64 of the 256 B200 nodes added, 224 in all (a fuzzing find: 128 + 64 were
# counted as 128).
b200_racks() { # BUDGET: whether any 256-node B200 row is feasible
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --top 20 \
        --budget racks="$1" --format json 2>/dev/null | python3 -c 'import json, sys
rows = json.load(sys.stdin)["ranked"]
print(any(r["feasible"] for r in rows if r["added_gpu"] == "b200" and r["added_nodes"] == 256))'
}
expect "--existing: 224 racks hold the fleet's racks and the B200 ones added" "True" "$(b200_racks 224)"
expect "--existing: 223 do not" "False" "$(b200_racks 223)"
# The kept pool's own racks, not the first pool of its type's: its 64 nodes in racks of 8, beside
# the other pools' 2 + 4 racks, fit 14 racks, not 13.
kept2=$src/tests/data/size/kept-second-pool.yaml
expect "--existing: the kept pool keeps its racks" "racks" \
    "$("$strata" size "$kept2" --existing big --workload t --deadline 1d --budget racks=14 --top 1 \
        --format json 2>/dev/null | python3 -c 'import json, sys
r = json.load(sys.stdin)["ranked"][0]
print(r["binds"] if r["feasible"] else "infeasible")')"
expect "--existing: the fleet's racks do not fit one fewer" "infeasible" \
    "$("$strata" size "$kept2" --existing big --workload t --deadline 1d --budget racks=13 --top 1 \
        --format json 2>/dev/null | python3 -c 'import json, sys
r = json.load(sys.stdin)["ranked"][0]
print(r["binds"] if r["feasible"] else "infeasible")')"
# --unit rack sizes each type in its own racks (the kept H100s' of 2 nodes, the B200 pool's of
# 4): sizes between those of 2-node units for both (56) and of 4-node units (52); it was
# refused, one unit for both.
unit_cands() { # UNIT: the search's candidate sizes
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --unit "$1" \
        --format json 2>/dev/null | python3 -c 'import json, sys
print(json.load(sys.stdin)["search"]["candidates"])'
}
expect "--existing: --unit rack sizes each type in its own racks (54 sizes)" "56 54 52" \
    "$(unit_cands 2) $(unit_cands rack) $(unit_cands 4)"
expect "--existing: --unit rack names each type's own rack" 1 \
    "$("$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --unit rack \
        2>/dev/null | grep -c 'in whole units of 2 nodes (each type.s own rack)')"
# A type whose platform has nodes of another size joins as a pool of its own node size (it was
# refused while the pools shared one): a GB200 wing of 4-GPU trays beside the kept 8-GPU H100
# nodes, 512 trays holding 2,048 GPUs, whose GPU budget counts the kept 2,048 H100s, the B200
# wing's 1,024 and its own 2,048 (5,120 fits it, 5,119 not).
gb_wing() { # BUDGET: the first row adding 512 GB200 trays: feasible, binds, GPUs a tray
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --gpu-types gb200 \
        --top 40 --budget gpus="$1" --format json 2>/dev/null | python3 -c 'import json, sys
r = [r for r in json.load(sys.stdin)["ranked"] if r["added_gpu"] == "gb200" and r["added_nodes"] == 512][0]
print(r["feasible"], r["binds"], r["gpus"] // r["nodes"])'
}
expect "--existing: a GB200 wing of 4-GPU trays beside 8-GPU H100 nodes" "True gpus 4" "$(gb_wing 5120)"
expect "--existing: the GB200 wing's GPUs and the fleet's fill 5,120" "False gpus 4" "$(gb_wing 5119)"
# and a cooling budget their heat: the grown fleet's 4.99 MW of heat with the new B200 pool's job
# fits 6.5 MW with the other nodes' added at full draw, not 6 MW.
b200_cool() { # BUDGET: the first B200 row's feasible and binds
    "$strata" size "$mixed" --existing h100 --workload 70b-h100 --deadline 1.5h --top 12 \
        --budget cooling="$1" --format json 2>/dev/null | python3 -c 'import json, sys
b = [r for r in json.load(sys.stdin)["ranked"] if r["added_gpu"] == "b200"][0]
print(b["feasible"], b["binds"])'
}
expect "--existing: 6.5 MW of cooling holds the B200 pool beside the rest" "True cooling" "$(b200_cool 6.5MW)"
expect "--existing: 6 MW does not" "False cooling" "$(b200_cool 6MW)"
# One definition per figure: a row under --existing is its plan on the grown fleet, so `strata
# run` of that fleet (every pool of the scenario, the kept one grown or the new one added, the
# row's job alone on it) prints the same step, time to train and cost. A GB200 wing added beside
# the H100 pool and the GB200 pool of mixed-h100-gb200 (its leaves shared with them: a row sized
# on the wing alone stepped 1.474 s against run's 1.68), the H100 pool grown beside the GB200
# wing, and the B200 pool of serve-h100-train-b200 kept beside the H100 pool (its staff share
# counted over the B200s alone: 213 USD against run's 144.7).
gb=$src/scenarios/examples/mixed-h100-gb200.yaml
same_as_run() { # SIZE_JSON RUN_YAML GPU TP PP VS MB: "same" when that row matches run's job
    python3 - "$strata" "$@" <<'PY'
import json, subprocess, sys
strata, sz, yml, gpu = sys.argv[1:5]
tp, pp, vs, mb = map(int, sys.argv[5:9])
run = json.loads(subprocess.run([strata, "run", yml, "--format", "json"], capture_output=True,
                                text=True).stdout)["jobs"][0]
rows = [r for r in json.load(open(sz))["ranked"] if r["gpus"] == run["gpus"]
        and (r["tp"], r["pp"], r["virtual_stages"], r["microbatch"]) == (tp, pp, vs, mb)
        and r["recompute"] == "none" and r["added_gpu"] == gpu]
if not rows:
    print("no row"); sys.exit()
r = rows[0]
# to the 4 figures the reports print: without failures the search leaves out the async saves'
# stalls (3 ms over the B200 job's hour) and their flash wear (0.01 USD), which run counts
got = ["%.4g" % x for x in (r["step_time_s"], r["train_s"], r["cost_usd"])]
want = ["%.4g" % x for x in (run["step_time_s"], run["wall_s"], run["cost"]["total_usd"])]
print("same" if got == want else "size %s, run %s" % (got, want))
PY
}
served=$src/scenarios/examples/serve-h100-train-b200.yaml
"$strata" size "$gb" --existing h100 --workload 70b-h100 --deadline 1.5h --top 1000 --format json \
    >"$tmp/gb.json" 2>/dev/null
# fleet POOLS JOB_POOL GPUS PARALLEL: mixed-h100-gb200's cluster with POOLS and its Llama 3 70B job
fleet() {
    cat <<EOF
version: 1
seed: 7
cluster:
  pools:
$1
  racks: { nodes_per_rack: 2, cooling: { kind: air } }
  fabric: { nic: 400 Gbit/s, topology: fat-tree-3, transport: roce-v2 }
  storage:
    - { name: lustre, kind: parallel-fs, capacity: 20 PB, read: 2 TB/s, write: 1 TB/s, latency: 1 ms }
workloads:
  - { name: 70b-h100, pool: $2, model: llama3-70b, seq_len: 8192, global_batch: 512, gpus: $3,
      parallel: { $4, zero: 1, sequence_parallel: true, recompute: none },
      steps: 3000, checkpoint: { every: 2 h, mode: async, tier: lustre } }
scheduler: { policy: backfill, placement: best-fit }
cost: { delivery: on-prem, switch_price: 30000 USD, storage_price: 100 USD/TB, maintenance: 8%,
        staff: 2000000 USD/y }
EOF
}
gbr='racks: { nodes_per_rack: 18, cooling: { kind: liquid } }'
fleet "    - { name: h100, gpu: h100-sxm, nodes: 256 }
    - { name: gb200, gpu: gb200, nodes: 144, $gbr }
    - { name: added, gpu: gb200, nodes: 512, $gbr }" added 2048 \
    "tp: 4, pp: 4, dp: 128, microbatch: 1, virtual_stages: 4" >"$tmp/gb-wing.yaml"
expect "--existing: a new pool's row is run's on the grown fleet" same \
    "$(same_as_run "$tmp/gb.json" "$tmp/gb-wing.yaml" gb200 4 4 4 1)"
fleet "    - { name: h100, gpu: h100-sxm, nodes: 512 }
    - { name: gb200, gpu: gb200, nodes: 144, $gbr }" h100 4096 \
    "tp: 8, pp: 8, dp: 64, microbatch: 1, virtual_stages: 4" >"$tmp/gb-grown.yaml"
expect "--existing: a grown pool's row is run's on the grown fleet" same \
    "$(same_as_run "$tmp/gb.json" "$tmp/gb-grown.yaml" h100-sxm 8 8 4 1)"
"$strata" size "$served" --existing b200 --deadline 2h --top 1000 --format json >"$tmp/sht.json" \
    2>/dev/null
cat >"$tmp/sht.yaml" <<'EOF'
version: 1
seed: 1
cluster:
  pools:
    - { name: h100, gpu: h100-sxm, nodes: 4 }
    - { name: b200, gpu: b200, nodes: 8 }
  gpus_per_node: 8
  racks: { nodes_per_rack: 4, cooling: { kind: liquid, liquid_fraction: 80% } }
  storage:
    - { name: lustre, kind: parallel-fs, capacity: 2 PB, read: 400 GB/s, write: 200 GB/s, latency: 1 ms }
workloads:
  - { name: pretrain, pool: b200, model: llama3-8b, seq_len: 8192, global_batch: 256, gpus: 64,
      parallel: { tp: 1, pp: 1, dp: 64, zero: 1, microbatch: 2, sequence_parallel: false,
                  recompute: none },
      steps: 2000, checkpoint: { every: 30 min, mode: async, tier: lustre } }
scheduler: { policy: fifo, placement: pack }
cost: { delivery: on-prem, switch_price: 30000 USD, storage_price: 100 USD/TB, maintenance: 8%,
        staff: 2000000 USD/y }
EOF
expect "--existing: a row on the pool kept is run's beside the other pools" same \
    "$(same_as_run "$tmp/sht.json" "$tmp/sht.yaml" b200 1 1 1 2)"
# A cooling budget is echoed with the heat it is held against, in the text's own column (the
# JSON's heat_air_w): the air-cooled example's rows within 0.05 MW of air heat, the first under it.
air=$src/scenarios/examples/h200-4096-air.yaml
"$strata" size "$air" --deadline 60d --budget air_cooling=0.05MW --top 3 >"$tmp/air.txt" \
    2>/dev/null || bad "air cooling budget failed"
expect "cooling budget line" "air_cooling budget 50 kW of heat (--budget air_cooling=), against the heat to reject (air_heat)" \
    "$(grep '^air_cooling budget' "$tmp/air.txt")"
air_heat=$(text_col "$tmp/air.txt" air_heat | head -1)
[ -n "$air_heat" ] || bad "no air_heat column"
json_heat=$("$strata" size "$air" --deadline 60d --budget air_cooling=0.05MW --top 3 --format json \
    2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["ranked"][0]["heat_air_w"])')
expect "air_heat is the JSON's heat_air_w, in kW at its size" \
    "$(awk -v w="$json_heat" 'BEGIN {printf "%.4g kW", w / 1e3}')" "$air_heat"
expect "the first row within the budget" 1 "$(awk -v w="$json_heat" 'BEGIN {print (w > 0 && w <= 5e4)}')"
for args in "$scn --existing x" "$mixed --existing h200"; do
    n=$((n + 1))
    "$strata" size $args --deadline 1h >/dev/null 2>&1
    [ $? -eq 2 ] || bad "usage error: '$args'"
done
"$strata" size "$mixed" --deadline 1h >/dev/null 2>"$tmp/e"
expect "a pooled scenario without --existing is refused" \
    "$mixed:16:5: error: strata size: sizing designs a cluster of one GPU type, and this one has cluster.pools: keep one pool and search what to add with --existing POOL, or size a one-type scenario" \
    "$(head -1 "$tmp/e")"
# a service on a cluster of pools: refused with its own way out (with --existing too)
served=$src/scenarios/examples/serve-h100-train-b200.yaml
for extra in "" "--existing h100"; do
    "$strata" size "$served" --workload chat $extra >/dev/null 2>"$tmp/e"
    rc=$?
    expect "a service on pools is refused (${extra:-no --existing})" \
        "2 $served:14:5: error: strata size: sizing a service designs a cluster of one GPU type, and this one has cluster.pools: size the service on a one-type scenario, naming the types to compare with --gpu-types" \
        "$rc $(head -1 "$tmp/e")"
done
# a mixture of experts is also sized in groups of replicas sharing the experts (parallel.ep):
# DeepSeek-V3 on H200 at 20 requests/s, where one group of eight meets the targets that two
# tensor-parallel replicas of eight need
dep=$src/scenarios/examples/serve-deepseek-dep-h200.yaml
expect "a service's sizing tries expert-parallel groups" "8 8 8 | 1 8 16" \
    "$("$strata" size "$dep" --format json | python3 -c 'import json, sys
r = [x for x in json.load(sys.stdin)["serving"] if x["fits"]]
print(r[0]["ep"], r[0]["replicas"], r[0]["gpus"], "|", r[1]["ep"], r[1]["tp"], r[1]["gpus"])')"
# on a GB200 NVL72 rack the groups grow to the NVLink domain, past a tray's four GPUs
cat >"$tmp/nvl72.yaml" <<'EOF'
version: 1
cluster: { gpu: gb200, nodes: 18, gpus_per_node: 4, nvlink_domain: 72 }
workloads:
  - name: chat
    kind: inference
    model: deepseek-v3
    precision: fp4
    gpus: 8
    requests: { rate: 60/s, count: 1000, input_tokens: 1000, output_tokens: 200 }
    slo: { ttft_p99: 5 s, tpot_p99: 100 ms }
EOF
expect "a service's sizing tries groups up to the NVLink domain" "2 4 8 16 32 64" \
    "$("$strata" size "$tmp/nvl72.yaml" --top 100 --format json | python3 -c 'import json, sys
print(*sorted({x["ep"] for x in json.load(sys.stdin)["serving"] if x["ep"] > 1}))')"

# a service's stated expert precision holds on every GPU type tried: FP4 experts skip Hopper
cat >"$tmp/oss.yaml" <<'EOF'
version: 1
cluster: { gpu: b200, nodes: 1, gpus_per_node: 8 }
workloads:
  - name: chat
    kind: inference
    model: gpt-oss-120b
    precision: bf16
    expert_precision: fp4
    gpus: 1
    requests: { rate: 5/s, count: 200, input_tokens: 1000, output_tokens: 200 }
    slo: { ttft_p99: 5 s, tpot_p99: 100 ms }
EOF
expect "FP4 experts are not sized on a GPU without FP4" "b200 | h100-sxm" \
    "$("$strata" size "$tmp/oss.yaml" --gpu-types b200,h100-sxm --format json | python3 -c 'import json, sys
r = json.load(sys.stdin)["serving"]
print(*sorted({x["gpu"] for x in r if x["fits"]}), "|", *sorted({x["gpu"] for x in r if not x["fits"] and "expert_precision" in x.get("why", "")}))')"

# each GPU type tried takes the engine's batch limits `strata run` gives it on that type (vLLM's
# defaults differ on an A100 from an H100): the same search from a scenario on either type
# gives the same rows (an A100 was sized with the H100's limits: 0.3993/s a replica, not 0.7068)
serve70=$src/scenarios/examples/serve-llama3-70b.yaml
sed 's/gpu: h100-sxm/gpu: a100-sxm-40g/' "$serve70" >"$tmp/serve-a100.yaml"
"$strata" size "$serve70" --gpu-types a100-sxm-40g,h100-sxm --format csv -o "$tmp/h.csv" &&
    "$strata" size "$tmp/serve-a100.yaml" --gpu-types a100-sxm-40g,h100-sxm --format csv \
        -o "$tmp/a.csv" || bad "service size on two types failed"
expect "a type's engine limits are its own, whatever the scenario's type" \
    "$(grep -v '^scenario\|serve-' "$tmp/h.csv" | md5sum)" "$(grep -v '^scenario\|serve-' "$tmp/a.csv" | md5sum)"
# the serving rows' CSV carries every digit its JSON has (it cut them to 10: 5.309008954)
"$strata" size "$serve70" --top 3 --format json -o "$tmp/s.json" &&
    "$strata" size "$serve70" --top 3 --format csv -o "$tmp/s3.csv" || bad "service size failed"
expect "a service's CSV cells are its JSON's numbers" "ok" "$(python3 -c 'import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["table"] == "serving"]
want = json.load(open(sys.argv[2]))["serving"]
bad = [(k, c[k], w[k]) for c, w in zip(rows, want) for k in w
       if isinstance(w[k], float) and float(c[k]) != w[k]]
print("ok" if len(rows) == 3 and not bad else bad or "no rows")' "$tmp/s3.csv" "$tmp/s.json")"
# a Poisson stream split over the replicas can miss the p99 one replica met: the search adds
# replicas until it meets (76 A100 replicas of tp 4 read 2.415 s against the 2 s target)
sed -e 's/gpu: h100-sxm/gpu: a100-sxm-40g/' \
    -e 's/    slo:/    batching: { max_seqs: 1024, max_batch_tokens: 8192 }\n    slo:/' \
    "$serve70" >"$tmp/p99.yaml"
expect "every row that serves a rate meets its p99 targets" "ok" \
    "$("$strata" size "$tmp/p99.yaml" --format json | python3 -c 'import json, sys
r = [x for x in json.load(sys.stdin)["serving"] if x["fits"]]
bad = [x for x in r if x["ttft_p99_s"] > 2 or x["tpot_p99_s"] > 0.05]
print("ok" if r and not bad else bad or "no rows")')"

# failures.spares: the search's closed form (the share of the time more nodes are out than
# spares, P(Poisson(A) > N)) against the run's life replayed: their goodputs at 16,384 GPUs
# agree within 3% of the replicas' mean at 24 spares (most of the time down for spares is
# the closed form's) and at 64 (none); and the cost counts the spares' GPUs.
sed -e 's/  gpu: { mtbf: 79230 h }/  gpu: { mtbf: 79230 h, repair: 3 d }/' \
    -e 's/  node: { mtbf: 24351 h }/  node: { mtbf: 24351 h, repair: 3 d }/' \
    -e 's/  nic: { mtbf: 3033381 h }/  nic: { mtbf: 3033381 h, repair: 3 d }/' \
    -e 's/^failures:/failures:\n  spares: 24/' "$src/scenarios/examples/llama3-405b-16k.yaml" >"$tmp/spares.yaml"
sed 's/  spares: 24/  spares: 64/' "$tmp/spares.yaml" >"$tmp/spares64.yaml"
for f in spares spares64; do
    "$strata" size "$tmp/$f.yaml" --deadline 1000d --unit 2048 --top 1 --format json >"$tmp/$f-size.json"
    "$strata" run "$tmp/$f.yaml" --replicas 100 --format json >"$tmp/$f-mc.json"
    expect "size's goodput with $f, the run's replicas'" ok "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["ranked"][0]
m = json.load(open(sys.argv[2]))["jobs"][0]["replicas"]["goodput"]["mean"]
print("ok" if s["gpus"] == 16384 and abs(s["expected_goodput"] / m - 1) < 0.03 else (s["expected_goodput"], m))' \
        "$tmp/$f-size.json" "$tmp/$f-mc.json")"
done
expect "24 spares hold the job down" ok "$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["ranked"][0]["expected_goodput"]
b = json.load(open(sys.argv[2]))["ranked"][0]["expected_goodput"]
print("ok" if a < 0.8 < 0.9 < b else (a, b))' "$tmp/spares-size.json" "$tmp/spares64-size.json")"
expect "the share of the time held for a spare stretches the time to train" ok "$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["ranked"][0]
b = json.load(open(sys.argv[2]))["ranked"][0]
h = a["spares_held_share"]
print("ok" if 0.2 < h < 0.3 and b["spares_held_share"] < 1e-6 and abs(a["expected_goodput"] / b["expected_goodput"] - (1 - h)) < 1e-6 else (h, a["expected_goodput"], b["expected_goodput"]))' "$tmp/spares-size.json" "$tmp/spares64-size.json")"
expect "the text says what the spares hold" 1 "$("$strata" size "$tmp/spares.yaml" --deadline 1000d --unit 2048 --top 1 | grep -c '^spares: 24 nodes kept .* waits for one 24% of its time to train .*; 33 would hold it 1% or less')"
# a job whose nodes fail faster than their repairs end never comes back up: refused before its
# life is simulated failure by failure to the clock's end (a fuzzing find), with the count of
# spares that would do
"$strata" run "$src/tests/fuzz/seeds/spares-never-up.yaml" >/dev/null 2>"$tmp/never.err"
expect "a job that never comes back up is refused" "1 1" "$? $(grep -c '240 of its nodes are out for repair on average, more than its 0 spares 100% of the time; 277 spares would hold it 1% or less' "$tmp/never.err")"
# the GPU budget counts them too: 16,384 + 24 x 8 fit 16,576 and not one GPU less
expect "the GPU budget counts the spares" "16384 gpus" "$("$strata" size "$tmp/spares.yaml" --deadline 1000d --unit 2048 --budget gpus=16576 --top 1 --format json | python3 -c 'import json, sys
r = json.load(sys.stdin)["ranked"][0]
print(r["gpus"], r["binds"])')"
"$strata" size "$tmp/spares.yaml" --deadline 1000d --unit 2048 --budget gpus=16575 >/dev/null 2>"$tmp/spares-budget.err"
expect "a GPU budget short of the spares" "2 1" "$? $(grep -c 'counts the GPUs of failures.spares' "$tmp/spares-budget.err")"
# (its cost over the GPU-hour rate, to the whole GPU: the checkpoints' storage and egress add 0.2)
(cat "$tmp/spares.yaml"; echo 'cost: { delivery: cloud, gpu_hour_price: 2.5 USD/h }') >"$tmp/spares-size-cost.yaml"
"$strata" size "$tmp/spares-size-cost.yaml" --deadline 1000d --unit 2048 --top 1 --format json >"$tmp/spares-size-cost.json"
expect "size prices the spares as the job's nodes" 16576 "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["ranked"][0]
print(round(s["cost_usd"] / (s["train_s"] / 3600 * 2.5)))' "$tmp/spares-size-cost.json")"
"$strata" run "$tmp/spares.yaml" --format json >"$tmp/spares.json"
expect "a run with spares" 0 $?
expect "the wait for a spare, within the downtime" ok "$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("ok" if 0 < j["spare_wait_s"] < j["downtime_s"] else j)' "$tmp/spares.json")"
# the spares are priced as the job's nodes: 24 nodes of 8 GPUs held beside its 16,384
(cat "$tmp/spares.yaml"; echo 'cost: { delivery: cloud, gpu_hour_price: 2.5 USD/h }') >"$tmp/spares-cost.yaml"
"$strata" run "$tmp/spares-cost.yaml" --format json >"$tmp/spares-cost.json"
expect "spares priced as the job's nodes" 16576 "$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["cost"]["breakdown"]["gpu_usd"] / (j["wall_s"] / 3600 * 2.5), 6))' "$tmp/spares-cost.json" | sed 's/\.0$//')"
# Each variant has its own sizes: under a budget of 4 GPUs the H100's 8-GPU node has none and
# GB200's 4-GPU tray one; the H100 is said to have no rows, not dropped without a word.
expect "a variant with no size of whole units is named as having no rows" 1 \
    "$("$strata" size "$src/scenarios/examples/quickstart.yaml" --deadline 300d \
        --gpu-types h100-sxm,gb200 --budget gpus=4 2>/dev/null |
        grep -c '^1 of the hardware variants has no size of whole units within the budgets')"
# An FP8 training job is not sized on a GPU without FP8 Tensor Cores (it was, at the BF16 peak
# under an FP8 label): the type is refused as the loader refuses it for the scenario's GPU.
"$strata" size "$src/scenarios/examples/gb200-64gpu.yaml" --deadline 30d \
    --gpu-types gb200,a100-sxm-80g >/dev/null 2>"$tmp/fp8.err"
expect "fp8 training refuses a GPU type without FP8 Tensor Cores" "2 1" \
    "$? $(grep -c -- "--gpu-types a100-sxm-80g: workload 'pretrain' trains in fp8, which needs FP8 Tensor Cores" "$tmp/fp8.err")"
# A row that meets the deadline at its point forecast but not across its error band says so (a
# VP read "4 of 223 meet the 90 d deadline" of rows whose bands ran to 99-113 d).
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --format html -o "$tmp/band.html" 2>/dev/null
"$strata" size "$src/scenarios/examples/llama3-405b-16k.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 >"$tmp/band.txt" 2>/dev/null
expect "the summary says the first row meets the deadline at its point forecast only" "1 1 1" \
    "$(bash "$src/tests/cli/unterm.sh" "$tmp/band.html" | grep -c 'it meets the deadline at its point forecast only: its 80% error band, 61.62 to 99.34 d, reaches past it') $(grep -c '4 of 223 configurations evaluated meet the 90 d deadline and the budgets (0 of them across their whole 80% error band)' "$tmp/band.html") $(grep -c '^band: .*the deadline holds train, the point forecast: 0 of the 4 rows within it keep their whole band within it too' "$tmp/band.txt")"
# Every budget --budget names is said in every format (gpus=, racks=, capex= and tco= were in none:
# "the budgets" with no figure to check a row against).
op="$src/scenarios/examples/llama3-405b-16k-onprem.yaml"
bud="gpus=20000,racks=2000,capex=900000000USD,tco=500000000USD"
"$strata" size "$op" --deadline 120d --budget "$bud" >"$tmp/bud.txt" 2>/dev/null
"$strata" size "$op" --deadline 120d --budget "$bud" --format json >"$tmp/bud.json" 2>/dev/null
"$strata" size "$op" --deadline 120d --budget "$bud" --format markdown >"$tmp/bud.md" 2>/dev/null
"$strata" size "$op" --deadline 120d --budget "$bud" --format html >"$tmp/bud.html" 2>/dev/null
words="20,000 GPUs, 2000 racks, capex 900,000,000 USD, tco 500,000,000 USD/year"
expect "text: the budgets" 1 "$(grep -c "^budgets: $words (--budget)" "$tmp/bud.txt")"
expect "json: the budgets" "20000 2000 900000000 500000000" \
    "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["gpu_budget"], d["rack_budget"], d["capex_budget_usd"], d["tco_budget_usd_per_year"])' "$tmp/bud.json")"
expect "markdown and html: the budgets" "1 1" \
    "$(grep -c "deadline 120 d, budgets: $words\." "$tmp/bud.md") $(bash "$src/tests/cli/unterm.sh" "$tmp/bud.html" | grep -c "deadline 120 d · budgets: $words")"
# A fabric whose switches need more ports than it has cannot be built: it binds fabric, and its
# unmet says unbuildable (it said "misses", as if a deadline were), in the text and the JSON.
cat >"$tmp/unb.yaml" <<'EOF2'
version: 1
cluster:
  gpu: h100-sxm
  nodes: 4
  fabric: { nics_per_node: 1, nodes_per_leaf: 1, switch_ports: 2 }
workloads:
  - { name: train, model: llama3-8b, seq_len: 4096, global_batch: 64, gpus: 8, tokens: 2B }
EOF2
"$strata" size "$tmp/unb.yaml" --deadline 3h --top 100 >"$tmp/unb.txt" 2>/dev/null
"$strata" size "$tmp/unb.yaml" --deadline 3h --top 100 --format json >"$tmp/unb.json" 2>/dev/null
expect "an unbuildable fabric: text and JSON agree" "yes" \
    "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["ranked"] if r["binds"] == "fabric"]
ok = rows and all(r["unmet"] == "unbuildable" and not r["feasible"] for r in rows)
print("yes" if ok and open(sys.argv[2]).read().count("fabric (unbuildable)") == len(rows) else "no")' "$tmp/unb.json" "$tmp/unb.txt")"
echo "$n checks, $fail failed"
[ "$fail" -eq 0 ]
