#!/bin/sh
# One facility figure (issue 28): `run`'s power.facility_peak_w, the audit's cap check and
# `size`'s power column for the same cluster and plan are the plant's one facility peak (IT,
# distribution, transformers, UPS, cooling plant), and `size` takes facility.power_capacity as its
# budget. On the Llama 3 example with a 19 MW cap (it needs 20.6 MW) and the 4,096-H200 air
# example with 4.5 MW (it needs 5.4 MW), the audit fails; the heat to reject likewise (run, audit
# against a 15 MW cooling capacity, size).
# usage: run_facility_power.sh STRATA SRCDIR
set -eu
strata=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^cluster:$/cluster:\n  facility: { power_capacity: 19 MW, cooling_capacity: 15 MW }/' \
    "$src/scenarios/examples/llama3-405b-16k.yaml" >"$tmp/llama.yaml"
check() { # FILE TP PP VS: run, audit and size agree; the cap fails
    "$strata" run "$1" --format json >"$tmp/run.json" 2>/dev/null
    "$strata" audit "$1" >"$tmp/audit.txt" 2>/dev/null && { echo "audit passed $1"; exit 1; } || true
    "$strata" size "$1" --deadline 400d --top 1000 --format json >"$tmp/size.json"
    "$strata" size "$1" --deadline 90d --budget power=1GW --top 5 --format json >"$tmp/all.json"
    "$strata" size "$1" --deadline 400d --top 1 | grep -q '^cooling budget 15 MW of heat (the scenario.s facility.cooling_capacity), against the heat to reject (heat)$' ||
        { echo "size's text names the scenario's cooling capacity as its budget"; exit 1; }
    "$strata" size "$1" --deadline 400d --budget cooling=16MW --top 1 --format json |
        python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["cooling_budget_from"] == "--budget" and d["cooling_budget_w"] == 16e6, d' ||
        { echo "--budget cooling= wins over the scenario's"; exit 1; }
    python3 - "$tmp" "$2" "$3" "$4" <<'PY'
import json, re, sys
t, tp, pp, vs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
run = json.load(open(t + "/run.json"))
peak = run["power"]["facility_peak_w"]
cap = [a for a in run["audit"] if a["check"] == "facility peak against capacity"][0]
assert cap["value"] == peak and cap["status"] == "fail", (cap, peak)
m = re.search(r"facility peak ([0-9.]+) MW .* over the facility", open(t + "/audit.txt").read())
assert m and abs(float(m.group(1)) * 1e6 - peak) <= 5e-4 * peak, (m and m.group(1), peak)
size = json.load(open(t + "/size.json"))
assert size.get("power_budget_from") == "facility.power_capacity", size.get("power_budget_from")
assert size["power_budget_w"] == cap["limit"]
# likewise its cooling capacity the cooling budget, named as the scenario's (not --budget's);
# a cooling= in --budget takes its place
assert size.get("cooling_budget_from") == "facility.cooling_capacity", size.get("cooling_budget_from")
assert size["cooling_budget_w"] == 15e6 and "air_cooling_budget_w" not in size, size
assert json.load(open(t + "/all.json")).get("cooling_budget_from") == "facility.cooling_capacity"
assert not [r for r in size["ranked"] if r["feasible"] and r["facility_peak_w"] > cap["limit"]]
every = json.load(open(t + "/all.json"))
top = run["cluster"]["gpus"]  # the scenario's own size, among those searched
rows = [r for r in every["ranked"] if r["tp"] == tp and r["pp"] == pp and r["gpus"] == top and
        r["virtual_stages"] == vs and r["microbatch"] == 1 and r["recompute"] == "none"]
assert rows, "no size row for the scenario's plan"
f = rows[0]["facility_peak_w"]
# the sizing runs the plant over run's window and with run's phase stream: one figure, to
# rounding (a budget between two printed figures cannot pass one command and fail the other)
assert abs(f - peak) <= 1e-9 * peak, (f, peak)
# the heat to reject, one figure too: the audit's against facility.cooling_capacity, size's
heat = run["power"]["heat"]["total_w"]
assert abs(heat - run["power"]["heat"]["air_w"] - run["power"]["heat"]["liquid_w"]) <= 1e-9 * heat
ck = [a for a in run["audit"] if a["check"] == "facility heat against cooling"]
if ck:
    assert ck[0]["value"] == heat and ck[0]["status"] == ("fail" if heat > ck[0]["limit"] else "pass")
# the racks' heat is the steps' exact mean in both, the electrical rooms' losses the waveform's
# mean over the same window
assert abs(rows[0]["heat_w"] - heat) <= 1e-9 * heat, (rows[0]["heat_w"], heat)
print("facility peak: run %.0f W, audit %s MW, size %.0f W; heat %.0f W" % (peak, m.group(1), f, heat))
PY
}
check "$tmp/llama.yaml" 8 16 4
