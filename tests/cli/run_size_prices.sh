#!/usr/bin/env bash
# `strata size --goal cost` prices each GPU type with its own rows (docs/guide/sizing.md, "Prices
# per GPU type"): the preset table's node price per type, the scenario's per type over it and
# its price for every type over both; the ranking on cost follows them, each row names its
# price's source, and a type searched with no price is refused (exit 2), not priced at 0.
# Usage: run_size_prices.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

bad() {
    echo "FAIL $1"
    fail=$((fail + 1))
}
expect() {
    n=$((n + 1))
    [ "$2" = "$3" ] || bad "$1: expected '$2', got '$3'"
}

# quickstart's fine-tuning job bought on premises, staff left out so the nodes' price decides:
# on one node a B200 steps 1.77x an H100's speed for 1.94x its price with a switch (515,000 +
# 20,000 against 255,237.04 + 20,000 USD), so the table's prices rank the H100 first; a B200
# stated at 400,000 USD (420,000 with its switch, 1.53x) ranks it first.
scn() { # scn FILE NODE_PRICE_LINE
    sed -n '/^version:/,$p' "$src/scenarios/examples/quickstart.yaml" >"$1"
    printf 'cost:\n  delivery: on-prem\n%s  switch_price: 20000 USD\n  storage_price: 100 USD/TB\n  maintenance: 8%%\n  staff: 0 USD/y\n' "$2" >>"$1"
}
first() { # the variant and price source of the first ranked row
    "$strata" size "$1" --deadline 1h --goal cost --gpu-types h100-sxm,b200 --top 1 --format json \
        >"$tmp/o.json" 2>"$tmp/o.err" || { bad "size $1: $(cat "$tmp/o.err")"; return; }
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["ranked"][0]; print(r["variant"]+"|"+str(r["price_source"]))' "$tmp/o.json"
}

scn "$tmp/table.yaml" ""
got=$(first "$tmp/table.yaml")
expect "table prices: the H100 first (a B200's speed does not pay for its price)" \
    "h100-sxm|HGX H100 8-GPU, listing archived 31 Jan 2025 (Epoch AI)" "$got"

scn "$tmp/cheap.yaml" "  node_price: { b200: 400000 USD }
"
got=$(first "$tmp/cheap.yaml")
expect "a B200 at 400,000 USD: the B200 first, priced by the scenario" \
    "b200|the scenario's cost.node_price.b200 ($tmp/cheap.yaml:17)" "$got"

scn "$tmp/all.yaml" "  node_price: 300000 USD
"
got=$(first "$tmp/all.yaml")
expect "one price for every type (as before): the B200 first, priced by the scenario" \
    "b200|the scenario's cost.node_price ($tmp/all.yaml:17)" "$got"

# The text names each variant's price source once.
"$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types h100-sxm,b200 --top 1 \
    >"$tmp/t.txt" 2>/dev/null
expect "text: price of b200" 1 "$(grep -c '^price of b200: DGX B200 list' "$tmp/t.txt")"
expect "text: price of h100-sxm" 1 "$(grep -c '^price of h100-sxm: HGX H100' "$tmp/t.txt")"
# The parts bought but priced by neither the scenario nor the table are named once per variant
# (counted at 0 in the ranking), in the JSON row too; a scenario pricing them all names none.
expect "text: not priced for b200" 1 "$(grep -c '^not priced for b200, counted at 0: optic_price rack_price cooling_air_price cooling_liquid_price (state them in cost:)$' "$tmp/t.txt")"
"$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types b200 --top 1 --format json \
    >"$tmp/np.json" 2>/dev/null
expect "json: not_priced" "optic_price,rack_price,cooling_air_price,cooling_liquid_price" \
    "$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["ranked"][0]["not_priced"]))' "$tmp/np.json")"
# Markdown and HTML show the same list as the JSON, its names joined (not "null").
for fmt in markdown html; do
    "$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types b200 --top 1 \
        --format $fmt >"$tmp/np.$fmt" 2>/dev/null
    expect "$fmt: not_priced listed, never null" "yes|0" \
        "$(grep -q 'optic_price, rack_price, cooling_air_price, cooling_liquid_price' "$tmp/np.$fmt" && echo yes)|$(grep -c '>null<\|| null |' "$tmp/np.$fmt")"
done
sed 's/^  staff: 0 USD\/y$/  staff: 0 USD\/y\n  optic_price: 600 USD\n  rack_price: 25000 USD\n  cooling_air_price: 1500 USD\/kW\n  cooling_liquid_price: 1000 USD\/kW/' \
    "$tmp/table.yaml" >"$tmp/allparts.yaml"
"$strata" size "$tmp/allparts.yaml" --deadline 1h --goal cost --gpu-types b200 --top 1 \
    >"$tmp/ap.txt" 2>"$tmp/ap.err" || bad "every part priced: $(cat "$tmp/ap.err")"
expect "every part priced: no not-priced line" 0 "$(grep -c '^not priced' "$tmp/ap.txt")"

# An MI300X has no sourced server price: searched under the cost goal, it is refused by name.
"$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types h100-sxm,mi300x \
    >/dev/null 2>"$tmp/e.err"
expect "a type without a price exits 2" 2 $?
n=$((n + 1))
grep -q "error: GPU type 'mi300x' has no 'node_price' under delivery 'on-prem' (the preset table has no sourced price for its GPU type): state it in cost:, for every type or per type, such as node_price: {mi300x: 300000 USD}" \
    "$tmp/e.err" || bad "mi300x refused: $(cat "$tmp/e.err")"
# Under the GPU-hours goal it is searched, its cost unknown (null), not 0 (its node's power
# besides the GPUs stated: the catalog has no MI300X platform figure).
sed 's/^  nodes: 2$/  nodes: 2\n  node: { base_power: 2.5 kW }/' "$tmp/table.yaml" >"$tmp/mi.yaml"
"$strata" size "$tmp/mi.yaml" --deadline 1h --goal gpu-hours --gpu-types mi300x --top 1 --format json \
    >"$tmp/h.json" 2>"$tmp/h.err" || bad "gpu-hours goal with an unpriced type failed: $(cat "$tmp/h.err")"
expect "unpriced type: cost null" "None|None" \
    "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["ranked"][0]; print(str(r["cost_usd"])+"|"+str(r["price_source"]))' "$tmp/h.json")"

# The H200 has its own row (an HGX H200, Jan 2025), which its rows name.
"$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types h100-sxm,h200-sxm --top 1 \
    >"$tmp/h2.txt" 2>/dev/null || bad "h200 priced from the table failed"
expect "text: price of h200-sxm" 1 "$(grep -c '^price of h200-sxm: HGX H200 8-GPU' "$tmp/h2.txt")"

# The switch follows the fabric: an InfiniBand 400G cluster that states no switch_price buys the
# table's NDR switch (36,000 USD); searched over --transport, a RoCE variant has no sourced
# switch price and is refused by name under the cost goal, not priced at the IB row or at 0.
sed -e 's/^  nodes: 2$/  nodes: 2\n  fabric: { nic: 400 Gbit\/s, transport: infiniband }/' \
    -e '/switch_price/d' "$tmp/table.yaml" >"$tmp/ib.yaml"
"$strata" size "$tmp/ib.yaml" --deadline 1h --goal cost --top 1 >"$tmp/ib.txt" 2>"$tmp/ib.err" ||
    bad "ib fabric without switch_price: $(cat "$tmp/ib.err")"
expect "ib: switches at the NDR row" 1 "$(grep -cE 'switch(es)? x 36,000 ' "$tmp/ib.txt")"
expect "ib: the switch price's source named" 1 \
    "$(grep -c '^switch price: 64-port NDR IB switch, FS.com list Aug 2024' "$tmp/ib.txt")"
expect "text: the scenario's switch price named per variant" 1 \
    "$(grep -c "^switch price of b200: the scenario's cost: section" "$tmp/t.txt")"
"$strata" size "$tmp/ib.yaml" --deadline 1h --goal cost --transport infiniband,roce-v2 \
    >/dev/null 2>"$tmp/r.err"
expect "a RoCE variant without a switch price exits 2" 2 $?
n=$((n + 1))
grep -q "error: the roce-v2 fabric has no 'switch_price' (the preset table has no sourced price for its switch class): state it in cost:, such as switch_price: 30000 USD" \
    "$tmp/r.err" || bad "roce refused: $(cat "$tmp/r.err")"

# Rented (--delivery cloud), each type's GPU-hour comes from its own row of one provider's list
# (Oracle Cloud 2026: H100 10, B200 14 USD/h); the cost line shows GPU-hours times that rate
# under the variant's own delivery model, not the scenario's on-premises parts.
"$strata" size "$tmp/table.yaml" --deadline 1h --goal cost --gpu-types h100-sxm,b200 \
    --delivery cloud --top 2 >"$tmp/c.txt" 2>"$tmp/c.err" || bad "cloud delivery: $(cat "$tmp/c.err")"
expect "cloud: the B200's rate named" 1 \
    "$(grep -c '^price of b200/cloud: Oracle Cloud BM.GPU.B200.8 list, 2026$' "$tmp/c.txt")"
expect "cloud: the H100's rate named" 1 \
    "$(grep -c '^price of h100-sxm/cloud: Oracle Cloud BM.GPU.H100.8 list, 2026$' "$tmp/c.txt")"
expect "cloud: GPU-hours times the B200 rate" 1 \
    "$(grep -cE '^  rank [0-9]+ b200/cloud: over [0-9.e+]+ (s|min|h|d): GPU-hours [0-9.e+]+ x 14 USD/h = ' "$tmp/c.txt")"
expect "cloud: GPU-hours times the H100 rate" 1 \
    "$(grep -cE '^  rank [0-9]+ h100-sxm/cloud: over [0-9.e+]+ (s|min|h|d): GPU-hours [0-9.e+]+ x 10 USD/h = ' "$tmp/c.txt")"
expect "cloud: nothing bought" 0 "$(grep -c 'cloud: bought' "$tmp/c.txt")"

# The cost example is llama3-405b-16k.yaml bought on premises: the two files hold the same
# scenario but their header comments and the cost: section (its two-level checkpoints too: the
# single-level save once wrote 5.68 TB every 27 s in the sizing guide's cost ranking).
body() { sed -n '/^version:/,$p' "$1" | sed -e '/^name:/d' -e '/^# Node prices/,$d' -e '/^$/d'; }
expect "llama3-405b-16k-onprem.yaml is llama3-405b-16k.yaml but its cost:" "" \
    "$(diff <(body "$src/scenarios/examples/llama3-405b-16k.yaml") \
        <(body "$src/scenarios/examples/llama3-405b-16k-onprem.yaml"))"

# One energy: the sizing row of the example's own plan (2,048 H100 nodes, tp 8, pp 16) costs its
# energy as `run` does (st_plant_job_energy_j: the nodes' base power too; before, size left it
# out and priced 1.75 M USD against run's 3.00 M). Size's GPUs rest, as run's do, while down,
# restarting or stalled (it counted that time at the step's power: 3.07 M, 2.4% over run's); its
# expected time to train is 0.6% longer than run's one draw, so the two agree within 2%.
e_size=$("$strata" size "$src/scenarios/examples/llama3-405b-16k-onprem.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --top 1 2>/dev/null | sed -n 's/^ *rank 1: .* energy \([0-9.,e+]*\) + .*/\1/p' | tr -d ,)
e_run=$("$strata" run "$src/scenarios/examples/llama3-405b-16k-onprem.yaml" --format json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["cost"]["breakdown"]["energy_usd"])')
expect "size prices the example's energy as run does (size/run in 0.98 to 1.02)" ok \
    "$(python3 -c "import sys; r=float(sys.argv[1])/float(sys.argv[2]); print('ok' if 0.98 <= r <= 1.02 else r)" "${e_size:-nan}" "${e_run:-1}")"

# A row's cost is `run`'s for the same plan, checkpoints' egress and storage in (size charged
# neither: with `egress: checkpoints` it ranked first a 40-GPU plan that `run` prices at 11,856
# USD, 5,382 of them egress, over a 128-GPU one at 8,527; a review find).
sed 's/egress: final/egress: checkpoints/' "$src/scenarios/examples/finetune-70b-cloud.yaml" >"$tmp/eg.yaml"
"$strata" size "$tmp/eg.yaml" --deadline 40h --top 1 -o "$tmp/eg.json" >/dev/null 2>&1 ||
    bad "egress size failed"
read -r eg_nodes eg_gpus eg_tp eg_pp eg_dp eg_vs eg_rc eg_usd <<<"$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["ranked"][0]
print(r["nodes"], r["gpus"], r["tp"], r["pp"], r["dp"], r["virtual_stages"], r["recompute"], r["cost_usd"])' "$tmp/eg.json")"
w='workloads[finetune]'
eg_run=$("$strata" sweep "$tmp/eg.yaml" --set cluster.nodes="$eg_nodes" --set "$w.gpus=$eg_gpus" \
    --set "$w.parallel.tp=$eg_tp" --set "$w.parallel.pp=$eg_pp" --set "$w.parallel.dp=$eg_dp" \
    --set "$w.parallel.virtual_stages=$eg_vs" --set "$w.parallel.recompute=$eg_rc" \
    --columns cost.total_usd,cost.breakdown.egress_usd 2>/dev/null | tail -1 | awk -F, '{print $(NF - 2), $(NF - 1)}')
read -r run_usd run_egress <<<"$eg_run"
n=$((n + 1))
[ "$(awk -v a="${eg_usd:-0}" -v b="${run_usd:-1}" -v e="${run_egress:-0}" \
    'BEGIN {print (e > 100 && a / b - 1 < 1e-3 && b / a - 1 < 1e-3)}')" = 1 ] ||
    bad "size's cost is run's, egress in: size $eg_usd, run $run_usd (egress $run_egress)"

# A node price is listed with the GPUs it buys, which the cost model charges per GPU of the
# cluster's node: a GB200 NVL72 tray of 4, an HGX H100 server of 8. A 405B search with GB200s
# beside the example's 8-GPU nodes searches GB200 trays of 4, each bought at a tray's price (it
# once bought 8-GPU "nodes" at one tray's price, half the GPUs', then at two; the GB200 was
# searched on 8-GPU boxes with an NVLink domain of 8, not its NVL72's 72).
# The capacity column is labelled for what it is, the CUDA total the memory model fills, to the
# digits docs/guide/catalog.md gives it: an 80 GB H100 read "85.0" under "HBM GB".
expect "catalog gpus: capacity GB, not HBM GB, 85.05 for an 80 GB H100" "1 0 1" \
    "$("$strata" catalog gpus | grep -c '^name .* capacity GB  HBM TB/s ') $("$strata" catalog gpus |
        grep -c ' HBM GB ') $("$strata" catalog gpus | grep -c '^h100-sxm .* 85\.05  ')"
expect "catalog gpus: a GB200 node is a tray of 4 on a 72-GPU NVLink domain" 1 \
    "$("$strata" catalog gpus | grep -c '^gb200 .* 4/72$')"
expect "catalog prices: a monthly price says its month" 1 \
    "$("$strata" catalog prices | grep -c '^storage_month_price  *(site)  *0.023 USD/GiB-month ')"
expect "catalog prices: a GB200 tray of 4 GPUs" 1 \
    "$("$strata" catalog prices | grep -c '^node_price  *gb200, 4 GPUs  *166666.67 USD ')"
gb_out=$("$strata" size "$src/scenarios/examples/llama3-405b-16k-onprem.yaml" --deadline 90d \
    --budget power=30MW,gpus=20000 --gpu-types gb200 --top 1 2>/dev/null)
expect "a GB200 is searched in trays of 4 GPUs, each bought at a tray's price" 1 \
    "$(printf '%s\n' "$gb_out" | awk '$1 == 1 && $NF != "" && $3 == 4 * $2 {n++}
        /^  rank 1 gb200: bought [0-9,]* nodes x 166,667 / {m++} END {print (n >= 1 && m == 1)}')"

# A part bought with no price says so in every format: the example prices no optics, racks or
# cooling, so each capex part is null in JSON and "not priced" in text, markdown and HTML, never
# a 0 USD that reads as bought for nothing (they were 0 everywhere); the capex sums the priced.
op="$src/scenarios/examples/llama3-405b-16k-onprem.yaml"
expect "text: unpriced capex parts say so" 1 "$("$strata" run "$op" 2>/dev/null |
    grep -c '^    capex: nodes [0-9,]*, switches [0-9,]*, optics not priced, storage [0-9.,]*, racks not priced, cooling not priced$')"
expect "markdown: unpriced capex parts say so" 3 "$("$strata" run "$op" --format markdown 2>/dev/null |
    grep -c '| not priced | jobs.*cost.capex.\(optics\|racks\|cooling\)_usd |$')"
expect "HTML: unpriced capex parts say so" 3 "$("$strata" run "$op" --format html 2>/dev/null |
    grep -o 'capital cost</td><td[^>]*>not priced<' | wc -l | tr -d ' ')"
expect "JSON: unpriced capex parts are null, the priced ones sum to capex" ok "$("$strata" run "$op" --format json 2>/dev/null |
    python3 -c 'import json, sys
c = json.load(sys.stdin)["jobs"][0]["cost"]
k = c["capex"]
assert k["optics_usd"] is None and k["racks_usd"] is None and k["cooling_usd"] is None, k
s = sum(v for v in k.values() if v is not None)
assert abs(s - c["breakdown"]["capex_usd"]) <= 1e-9 * s, (s, c["breakdown"])
print("ok")')"

# The front is of the plans within the budgets: under a capex or a yearly-cost budget no front
# row is over it (rows that broke one were drawn on the front, which only power respected).
for budget in "tco=2.2e8 USD" "capex=600000000 USD"; do
    expect "no front row over --budget $budget" ok "$("$strata" size "$op" --deadline 90d \
        --budget "$budget" --gpu-types h100-sxm,b200 --top 8 --format json 2>/dev/null |
        python3 -c 'import json, sys
d = json.load(sys.stdin)
front = d["front"]
assert front and all(r["feasible"] or r["binds"] == "deadline" for r in front), \
    [(r["rank"], r["binds"]) for r in front]
print("ok")')"
done

echo "$((n - fail)) of $n passed"
[ "$fail" -eq 0 ]
