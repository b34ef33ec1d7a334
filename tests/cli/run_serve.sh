#!/usr/bin/env bash
# A kind: inference workload through the commands (docs/models/inference.md): the example's
# report in every format holds the serving figures and is byte-identical run to run; `sweep`
# walks the request rate, its throughput rising with it until the replicas saturate and its
# p99 time to first token never falling; a stream at the highest rate the report says meets the
# latency targets meets them; a closed loop of clients reports as one; a service shares a
# cluster run with training jobs or a trace's; and a service is sized. (`validate --serve` is validate.doc's: docs/guide/validation.md holds
# its rows.)
# Usage: run_serve.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
ex=$src/scenarios/examples/serve-llama3-70b.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
check() { # NAME CONDITION-STATUS
    n=$((n + 1))
    [ "$2" = 0 ] || { echo "FAIL $1"; fail=$((fail + 1)); }
}

"$strata" run --format json "$ex" >"$tmp/a.json"
check "run --format json" $?
"$strata" run --format json "$ex" >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json"
check "the same report twice" $?
python3 - "$tmp/a.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
i = j["inference"]
assert j["kind"] == "inference" and j["parallel"] == {"tp": 4, "pp": 1, "dp": 4}, j
for k in ("tokens_per_s", "requests_per_s", "kv_cache_bytes", "batch_mean", "max_rate_under_slo"):
    assert i[k] > 0, k
for k in ("ttft_s", "tpot_s"):
    assert 0 < i[k]["p50"] <= i[k]["p90"] <= i[k]["p99"], k
assert abs(i["tokens_per_s"] - i["requests_per_s"] * j["requests"]["output_tokens"]) < 1e-6 * i["tokens_per_s"]
assert i["slo"]["met"] is True and i["max_rate_under_slo"] >= j["requests"]["rate_per_s"]
PY
check "the JSON's serving figures" $?
for f in text csv markdown html; do
    "$strata" run --format $f "$ex" >"$tmp/r.$f" && grep -q "p99\|ttft" "$tmp/r.$f"
    check "run --format $f shows the latencies" $?
done
# One name, one meaning: gpu_mean_w is the job's GPUs together (jobs[].power), one GPU's mean
# a service's mean_power_per_gpu_w; a service has no peak of its GPUs together (the plant draws
# its mean: its "peak" equalled the mean) and no steps (its energy figure was "GPU energy per
# step"). A review find: the CSV had inference.gpu_mean_w 508.7 beside power.gpu_mean_w 8139.4.
grep -q '^jobs\[0\]\.inference\.mean_power_per_gpu_w,' "$tmp/r.csv" &&
    grep -q '^jobs\[0\]\.power\.gpu_mean_w,' "$tmp/r.csv" &&
    ! grep -q '^jobs\[0\]\.inference\.gpu_mean_w,\|^jobs\[0\]\.power\.gpu_peak_w,' "$tmp/r.csv" &&
    ! grep -q 'energy per step<' "$tmp/r.html"
check "a service's power figures: one meaning per name, no peak, no step" $?

# The rate walked: throughput up while below capacity, p99 TTFT never down.
"$strata" sweep "$ex" --set 'workloads[0].requests.rate=5/s,20/s,40/s,80/s' \
    --columns inference.tokens_per_s,inference.max_rate_under_slo -o "$tmp/s.csv" 2>/dev/null
check "sweep over the rate" $?
python3 - "$tmp/s.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok"] * 4, rows
tps = [float(r["chat.inference.tokens_per_s"]) for r in rows]
assert tps[0] < tps[1] < tps[2], tps
assert len({r["chat.inference.max_rate_under_slo"] for r in rows}) == 1, rows
PY
check "throughput rises with the rate" $?

# A column the run's report leaves out is empty, as in the JSON, not 0: a cost without a cost:
# section (with the warning a training cost column gets), a closed loop's clients for a stated
# rate (both read 0 before: a review find).
"$strata" sweep "$ex" --set 'workloads[0].requests.rate=10/s' --columns \
    inference.cost_per_million_tokens_usd,inference.max_concurrency_under_slo \
    -o "$tmp/e.csv" 2>"$tmp/e.err"
check "sweep of columns the report leaves out" $?
python3 - "$tmp/e.csv" "$tmp/e.err" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows[0]["chat.inference.cost_per_million_tokens_usd"] == "", rows
assert rows[0]["chat.inference.max_concurrency_under_slo"] == "", rows
assert "cost_per_million_tokens_usd: " in open(sys.argv[2]).read()
PY
check "they are empty, the cost one warned of" $?
# With prices, a service's own cost columns are its jobs[].cost, the run's JSON figures exactly.
"$strata" sweep "$src/scenarios/examples/serve-h100-train-b200.yaml" --set seed=1 \
    --columns cost.total_usd,cost.breakdown.capex_usd -o "$tmp/sc.csv" 2>/dev/null &&
    "$strata" run --format json "$src/scenarios/examples/serve-h100-train-b200.yaml" >"$tmp/sc.json"
check "sweep a service's cost columns" $?
python3 - "$tmp/sc.csv" "$tmp/sc.json" <<'PY'
import csv, json, sys
row = next(csv.DictReader(open(sys.argv[1])))
c = next(j for j in json.load(open(sys.argv[2]))["jobs"] if j["name"] == "chat")["cost"]
assert float(row["chat.cost.total_usd"]) == c["total_usd"] > 0, (row, c)
assert float(row["chat.cost.breakdown.capex_usd"]) == c["breakdown"]["capex_usd"], (row, c)
PY
check "a service's cost columns are its jobs[].cost" $?

# At the reported highest rate within the targets, the stream it is measured on meets them:
# one replica's share of it over the capacity's 1,000 requests (docs/models/inference.md, "A
# replica's capacity").
rate=$(python3 -c 'import json,sys; i=json.load(open(sys.argv[1]))["jobs"][0]; print(repr(i["inference"]["max_rate_under_slo"] / i["parallel"]["dp"]))' "$tmp/a.json")
sed "s|rate: 30/s, count: 2000|rate: $rate/s, count: 1000|; s|gpus: 16|gpus: 4|" "$ex" >"$tmp/at.yaml"
"$strata" run --format json "$tmp/at.yaml" | python3 -c 'import json,sys
assert json.load(sys.stdin)["jobs"][0]["inference"]["slo"]["met"] is True'
check "the highest rate within the targets meets them" $?

# Beside training: the service is a job of the cluster run. Under fair-share its tenant takes
# back what training borrowed (training preempted, then resumed); under fifo it waits for the
# training job, and every request of its stream waits past its time-to-first-token target;
# either way its replicas' figures are their own, and the plant counts its GPUs. compare puts
# the share of requests within the targets beside the training job's completion time.
both=$src/scenarios/examples/serve-beside-training.yaml
"$strata" run --format json "$both" >"$tmp/fs.json"
check "run beside training" $?
# Its preemption is a training job's checkpoint save and restore; only a trace job, which has
# no checkpoint, pays a restart instead, so the scheduler's line names restarts with a trace.
"$strata" run "$both" | grep -qx '  preempted [0-9.]* ms of saves and restores'
check "the scheduler's preempted line names no trace job where there is none" $?
sed 's/policy: fifo/policy: srtf/' "$src/scenarios/examples/philly-512gpu.yaml" \
    >"$src/scenarios/examples/.srtf-$$.yaml"
"$strata" run "$src/scenarios/examples/.srtf-$$.yaml" |
    grep -qx '  preempted [0-9.]* d of saves and restores (a trace job: its restarts)'
rc=$?
rm -f "$src/scenarios/examples/.srtf-$$.yaml"
check "and names a trace job's restarts under a trace" $rc
sed 's/policy: fair-share/policy: fifo/' "$both" >"$tmp/fifo.yaml"
"$strata" run --format json "$tmp/fifo.yaml" >"$tmp/fifo.json"
check "run beside training under fifo" $?
python3 - "$tmp/fs.json" "$tmp/fifo.json" <<'PY'
import json, sys
fs, fifo = (json.load(open(p)) for p in sys.argv[1:])
def job(t, name):
    return next(j for j in t["jobs"] if j["name"] == name)
for t in (fs, fifo):
    assert t["scheduler"]["jobs"] == 2 and t["scheduler"]["finished"] == 2, t["scheduler"]
c, p = job(fs, "chat"), job(fs, "pretrain")
assert abs(c["start_s"] - 1200) < 1 and c["wait_s"] < 1, c
assert p["preemptions"] == 1, p
cf, pf = job(fifo, "chat"), job(fifo, "pretrain")
assert cf["wait_s"] > 3600 and abs(cf["start_s"] - pf["end_s"]) < 1, (cf, pf)
assert "preemptions" not in pf
# the replicas' figures are their own; the requests that waited past the target under fifo
# (all of its 10-minute stream: it waits hours) are out of its attainment
ci, cfi = dict(c["inference"]), dict(cf["inference"])
assert ci.pop("missed_waiting") == 0 and ci.pop("slo_attainment") == 1, c
assert cfi.pop("missed_waiting") == cfi["requests"] == 18000, cf
assert cfi.pop("slo_attainment") == 0, cf
# and its p99 targets are missed: more than 1% of its requests missed the first token's
assert ci["slo"]["met"] is True and cfi["slo"]["met"] is False, (ci["slo"], cfi["slo"])
ci.pop("slo"), cfi.pop("slo")
assert ci == {k: v for k, v in cfi.items() if k != "missed_waiting"}, "the replicas' figures do not depend on the policy"
# the plant counts the service: the facility draws more than the training job's GPUs alone
# (a service draws its mean steadily: it has no peak of its GPUs together, only their mean)
assert "gpu_peak_w" not in c["power"] and "gpu_peak_w" in p["power"], (c["power"], p["power"])
assert abs(c["power"]["gpu_mean_w"] - 16 * c["inference"]["mean_power_per_gpu_w"]) < 1e-6 * c["power"]["gpu_mean_w"]
# (a GPU draws one job at a time: where the service ran on GPUs the training job ran on before,
# the racks draw the hungrier of the two there, docs/models/plant.md)
assert fs["power"]["it_mean_w"] > p["power"]["gpu_mean_w"], fs["power"]
PY
check "the service shares the cluster run" $?
# and the answer in words says whether the service met its targets beside training: missed
# under fifo, every request having waited (a review found the headline silent on it)
"$strata" run --format markdown "$tmp/fifo.yaml" 2>/dev/null | sed -n 3p |
    grep -q "service chat serves output tokens at .*, its latency targets missed (0% of its requests within them)" &&
    "$strata" run --format markdown "$both" 2>/dev/null | sed -n 3p | grep -q "its latency targets met (100% of its requests within them)"
check "the summary says a service's targets beside training" $?

# An autoscaled service beside training holds its 16 GPUs for its span; the plant draws it at
# its peak fleet (all 16 serving), the hour its rack, cooling and utility demand are sized for,
# as `size` sizes serving at the peak, and not the day's mean fleet.
cat >"$tmp/auto.yaml" <<'EOF'
version: 1
name: auto-beside
seed: 1
cluster: { gpu: h100-sxm, nodes: 4 }
workloads:
  - name: pretrain
    model: llama3-8b
    seq_len: 8192
    global_batch: 32
    gpus: 16
    parallel: { tp: 2, dp: 8, zero: 1, microbatch: 1 }
    steps: 50
  - name: chat
    kind: inference
    model: llama3-70b
    precision: fp8
    gpus: 16
    parallel: { tp: 4 }
    requests:
      rate: [{ at: 0 h, rate: 5/s }, { at: 20 min, rate: 40/s }, { at: 40 min, rate: 5/s },
             { at: 1 h, rate: 5/s }]
      input_tokens: 1000
      output_tokens: 250
    slo: { ttft_p99: 2 s, tpot_p99: 50 ms }
    autoscale: { min: 1, delay: 5 min }
EOF
"$strata" run --format json "$tmp/auto.yaml" >"$tmp/auto.json"
check "run an autoscaled service beside training" $?
python3 - "$tmp/auto.json" <<'PY'
import json, sys
c = next(j for j in json.load(open(sys.argv[1]))["jobs"] if j["name"] == "chat")
i, w = c["inference"], c["power"]["gpu_mean_w"]
up = i["replicas_mean"] / 4
assert 0.3 < up < 0.95, i["replicas_mean"]
assert abs(w - 16 * i["mean_power_per_gpu_w"]) < 1e-6 * w, (w, i["mean_power_per_gpu_w"], up)
PY
check "the plant draws the service at its peak fleet" $?

# The GPUs of the replicas an autoscaler stops go back to the cluster: a 24-GPU training job
# starts at once beside the service's one replica up all along (it would wait the service's
# hour were the 16 GPUs held), and under fifo the replicas added for the peak wait for it,
# their share of the stream counted out of the attainment; a service of a higher class under
# priority takes them from training at once (preempting it) and misses nothing. Its replicas'
# stretches are parts of its job, not jobs of the scheduler's.
python3 - "$tmp/auto.yaml" "$tmp/lend.yaml" <<'PY'
import sys
y = open(sys.argv[1]).read()
y = y.replace("global_batch: 32\n    gpus: 16\n    parallel: { tp: 2, dp: 8,",
              "global_batch: 48\n    gpus: 24\n    parallel: { tp: 2, dp: 12,")
y = y.replace("steps: 50", "steps: 1500") + "scheduler: { policy: fifo, placement: pack }\n"
assert "gpus: 24" in y and "steps: 1500" in y
open(sys.argv[2], "w").write(y)
PY
sed 's/policy: fifo/policy: priority/; s/    autoscale: { min: 1, delay: 5 min }/&\n    priority: 10/' \
    "$tmp/lend.yaml" >"$tmp/lend-prio.yaml"
"$strata" run --format json "$tmp/lend.yaml" >"$tmp/lend.json" &&
    "$strata" run --format json "$tmp/lend-prio.yaml" >"$tmp/lend-prio.json"
check "run an autoscaled service beside training under fifo and priority" $?
python3 - "$tmp/lend.json" "$tmp/lend-prio.json" <<'PY'
import json, sys
fifo, prio = (json.load(open(p)) for p in sys.argv[1:])
def job(t, name):
    return next(j for j in t["jobs"] if j["name"] == name)
for t in (fifo, prio):
    assert t["scheduler"]["jobs"] == 2 and t["scheduler"]["finished"] == 2, t["scheduler"]
    assert job(t, "pretrain")["start_s"] == 0, job(t, "pretrain")
c, p = job(fifo, "chat")["inference"], job(fifo, "pretrain")
assert c["scale_up_wait_s"] > 600 and c["missed_waiting"] > 1000, c
assert "preemptions" not in p, p
cp, pp = job(prio, "chat")["inference"], job(prio, "pretrain")
assert cp["scale_up_wait_s"] == 0 and cp["missed_waiting"] == 0, cp
assert pp["preemptions"] >= 1, pp
assert c["slo_attainment"] < cp["slo_attainment"]
PY
check "an autoscaler's stopped replicas lend their GPUs to training" $?

# Beside a trace: the service's cluster job comes after the trace's jobs (ASan's suite holds the
# map that indexes them).
printf '%s\n' 'tenant,gpus,duration,submit' 'a,8,2 h,0' 'b,16,1 h,0' 'a,4,30 min,10 min' \
    'b,8,3 h,20 min' 'a,2,1 h,1 h' >"$tmp/jobs.csv"
printf '%s\n' 'version: 1' 'name: trace-and-service' 'cluster: { gpu: h100-sxm, nodes: 4 }' \
    "trace: { file: $tmp/jobs.csv, format: csv }" 'workloads:' '  - name: chat' \
    '    kind: inference' '    model: llama3-8b' '    precision: fp8' '    gpus: 8' \
    '    parallel: { tp: 2 }' \
    '    requests: { rate: 20/s, count: 400, input_tokens: 500, output_tokens: 100 }' \
    '    submit: 15 min' >"$tmp/trace.yaml"
"$strata" run --format json "$tmp/trace.yaml" >"$tmp/trace.json"
check "run a service beside a trace" $?
python3 - "$tmp/trace.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
c = next(j for j in t["jobs"] if j["name"] == "chat")
assert c["start_s"] >= 900 and t["scheduler"]["jobs"] == 6, (c, t["scheduler"])
PY
check "a service beside a trace is one more job of its run" $?

# (a 100-second stream: every policy reruns the service, and ASan's suite runs them all)
sed 's/count: 18000/count: 3000/' "$both" >"$tmp/short.yaml"
"$strata" compare "$tmp/short.yaml" --format json >"$tmp/cmp.json"
check "compare beside training" $?
python3 - "$tmp/cmp.json" <<'PY'
import json, sys
rows = {r["policy"]: r for r in json.load(open(sys.argv[1]))["policies"]}
assert len(rows) == 9 and all(0 <= r["slo_attainment"] <= 1 for r in rows.values()), rows
assert rows["fifo"]["slo_attainment"] == 0 and rows["fair-share"]["slo_attainment"] == 1, rows
assert rows["fair-share"]["mean_jct_s"] < rows["fifo"]["mean_jct_s"]
# the training job's own completion time beside the services' share: fair-share keeps the
# service within its targets by preempting the training job, which finishes later than under
# fifo (the mean JCT above averages the service's span in)
assert rows["fair-share"]["train_mean_jct_s"] > rows["fifo"]["train_mean_jct_s"] > 0, rows
PY
check "compare gives each policy's share of requests within the targets" $?

# Under the priority policy a service of a higher class than the training job preempts it when
# it arrives; of the same class it waits for it, and every request waits past its target.
sed 's/policy: fair-share/policy: priority/; s/    tenant: serving/&\n    priority: 10/' \
    "$tmp/short.yaml" >"$tmp/prio.yaml"
sed 's/policy: fair-share/policy: priority/' "$tmp/short.yaml" >"$tmp/prio0.yaml"
"$strata" run --format json "$tmp/prio.yaml" >"$tmp/prio.json" &&
    "$strata" run --format json "$tmp/prio0.yaml" >"$tmp/prio0.json"
check "run beside training under priority" $?
python3 - "$tmp/prio.json" "$tmp/prio0.json" <<'PY'
import json, sys
hi, same = (json.load(open(p)) for p in sys.argv[1:])
def job(t, name):
    return next(j for j in t["jobs"] if j["name"] == name)
c, p = job(hi, "chat"), job(hi, "pretrain")
assert abs(c["start_s"] - 1200) < 1 and p["preemptions"] == 1, (c, p)
assert c["inference"]["slo_attainment"] == 1
c0, p0 = job(same, "chat"), job(same, "pretrain")
assert "preemptions" not in p0 and abs(c0["start_s"] - p0["end_s"]) < 1, (c0, p0)
assert c0["inference"]["slo_attainment"] == 0
PY
check "a service of a higher class preempts training under priority" $?

# A request trace: every row a request; sized at its mean rate.
python3 - "$tmp/req.csv" <<'PY'
import random, sys
random.seed(5)
t, rows = 0.0, ["arrival,input_tokens,output_tokens"]
for i in range(600):
    t += random.expovariate(8)
    rows.append(f"{t:.6f},{random.randint(100, 1500)},{random.randint(10, 300)}")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
cat >"$tmp/trace.yaml" <<'EOF'
version: 1
name: trace
cluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }
workloads:
  - name: chat
    kind: inference
    model: llama3-8b
    precision: fp8
    gpus: 2
    requests: { file: req.csv }
    slo: { ttft_p99: 1 s }
EOF
"$strata" run --format json "$tmp/trace.yaml" >"$tmp/trace.json"
check "run a request trace" $?
python3 - "$tmp/trace.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r, i = j["requests"], j["inference"]
assert r["mode"] == "trace" and r["file"] == "req.csv" and r["count"] == 600, r
assert i["requests"] == 600 and 0 < i["slo_attainment"] <= 1, i
assert abs(i["requests_per_s"] * i["span_s"] - 600) < 1e-6
PY
check "a trace's rows are its requests" $?
"$strata" size "$tmp/trace.yaml" --top 1 | head -1 | grep -q "requests/s (its trace's mean)"
check "size a trace at its mean rate" $?
# A trace whose rows all arrive at one instant has no rate (a rate over 0 s is undefined): run
# says so and leaves rate_per_s out, size refuses it at its requests. Both once said 0 per
# second, and size sized for "0 requests/s (its trace's mean)" (a new user's review).
printf 'arrival,input_tokens,output_tokens\n5,100,50\n5,100,50\n5,100,50\n' >"$tmp/burst.csv"
sed 's/req.csv/burst.csv/' "$tmp/trace.yaml" >"$tmp/burst.yaml"
"$strata" run "$tmp/burst.yaml" | grep -q '^  requests  3 from the trace burst.csv (csv), all at one instant (no rate),' &&
    "$strata" run --format json "$tmp/burst.yaml" |
    python3 -c 'import json, sys; sys.exit("rate_per_s" in json.load(sys.stdin)["jobs"][0]["requests"])'
check "a trace at one instant has no rate in run's text and JSON" $?
"$strata" size "$tmp/burst.yaml" >/dev/null 2>"$tmp/e"
[ $? = 2 ] && grep -q "burst.yaml:10:15: error: workload 'chat': sizing a service needs the rate it must serve, and request trace 'burst.csv' has none: its 3 rows all arrive at one instant" "$tmp/e"
check "size refuses a trace at one instant, at its requests" $?

# Sizing a service: every GPU type and tp, the replicas its rate needs, each row's p99s within
# the targets; a configuration that cannot hold a request listed with why; the training
# search's options refused.
sed 's/count: 2000/count: 400/' "$ex" >"$tmp/small.yaml" # fewer requests: the same rules
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 --format json >"$tmp/sz.json"
check "size a service" $?
# a GPU type of another platform is sized on its own platform: GB200 beside the example's two
# 8-GPU HGX nodes in trays of 4 on its 72-GPU NVLink domain, so its tensor parallelism reaches
# past a tray, to the cluster's 16 GPUs (it stopped at 8, the HGX node's)
"$strata" size "$tmp/small.yaml" --gpu-types gb200 --top 20 --format json |
    python3 -c 'import json, sys
tps = sorted(r["tp"] for r in json.load(sys.stdin)["serving"])
sys.exit(tps != [1, 2, 4, 8, 16])'
check "size a service on its own platform: GB200 at tp 1 to 16 over its NVLink domain" $?
# its goal: gpus or cost, cost only where GPU-hours are priced (a review found --goal cost
# without prices ranking by GPUs under "ranked by cost"); gpus refused for training
"$strata" size "$tmp/small.yaml" --goal gpus --top 1 | head -1 | grep -q "ranked by gpus" &&
    ! "$strata" size "$tmp/small.yaml" --goal cost >/dev/null 2>"$tmp/e" && grep -q "needs GPU-hour prices" "$tmp/e" &&
    ! "$strata" size "$tmp/small.yaml" --goal gpu-hours >/dev/null 2>"$tmp/e" && grep -q "is a service, sized by gpus or cost" "$tmp/e" &&
    ! "$strata" size "$src/scenarios/examples/quickstart.yaml" --deadline 1h --goal gpus >/dev/null 2>&1
check "a service's goal is gpus or cost, cost where GPU-hours are priced" $?
python3 - "$tmp/sz.json" <<'PY'
import json, math, sys
t = json.load(open(sys.argv[1]))
rows = t["serving"]
assert {r["gpu"] for r in rows} == {"h100-sxm", "b200"} and len(rows) == 8, rows
fit = [r for r in rows if r["fits"]]
assert fit and all(r["gpus"] == r["replicas"] * r["tp"] * r["pp"] and r["pp"] == 1 for r in fit)
assert all(r["replicas"] == math.ceil(t["rate_per_s"] / r["rate_per_replica"]) for r in fit)
assert all(r["ttft_p99_s"] <= t["ttft_p99_target_s"] and r["tpot_p99_s"] <= t["tpot_p99_target_s"] for r in fit)
assert [r["gpus"] for r in fit] == sorted(r["gpus"] for r in fit), "ranked by GPUs"
assert all(r["fits"] for r in rows[:len(fit)]) and all("why" in r for r in rows[len(fit):])
PY
check "the service's sizing rows" $?
# One definition of a replica's capacity: `strata size`'s rate per replica is `strata run`'s
# highest rate within the targets over its replicas, for the same GPU type and plan, whatever
# the stream's count (sized at 400 requests, run at 2,000 and at 400); they once differed by 3%
# (9.616 and 9.90 requests/s), each measured on its own number of requests.
"$strata" run --format json "$tmp/small.yaml" >"$tmp/small.json"
python3 - "$tmp/sz.json" "$tmp/a.json" "$tmp/small.json" <<'PY'
import json, sys
row = next(r for r in json.load(open(sys.argv[1]))["serving"] if r["gpu"] == "h100-sxm" and r["tp"] == 4)
for f in sys.argv[2:]:
    j = json.load(open(f))["jobs"][0]
    run = j["inference"]["max_rate_under_slo"] / j["parallel"]["dp"]
    assert abs(row["rate_per_replica"] / run - 1) < 1e-12, (f, row["rate_per_replica"], run)
PY
check "size's rate per replica is run's capacity over its replicas" $?
# ... for a service that is not the scenario's first workload too: both draw its requests from
# its own streams, by its place in the file (size once drew the first workload's).
python3 - "$ex" "$tmp/second.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read().replace("nodes: 2", "nodes: 3").replace("  - name: chat\n", """  - name: small
    kind: inference
    model: llama3-8b
    precision: fp8
    gpus: 1
    requests: { rate: 2/s, count: 100, input_tokens: 500, output_tokens: 100 }
  - name: chat
""")
open(sys.argv[2], "w").write(s)
PY
"$strata" run --format json "$tmp/second.yaml" >"$tmp/second.json" &&
    "$strata" size "$tmp/second.yaml" --workload chat --gpu-types h100-sxm --format json >"$tmp/second-sz.json" &&
    python3 - "$tmp/second-sz.json" "$tmp/second.json" <<'PY'
import json, sys
row = next(r for r in json.load(open(sys.argv[1]))["serving"] if r["tp"] == 4)
j = next(j for j in json.load(open(sys.argv[2]))["jobs"] if j["name"] == "chat")
run = j["inference"]["max_rate_under_slo"] / j["parallel"]["dp"]
assert abs(row["rate_per_replica"] / run - 1) < 1e-12, (row["rate_per_replica"], run)
PY
check "size's rate per replica is run's for a service listed second" $?
# Markdown, HTML and CSV are the JSON's rows: every key any row has, a row that cannot serve with
# its why; -o FILE takes them in stdout's place; Markdown and HTML open with the answer in words.
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 --format csv >"$tmp/sz.csv"
python3 - "$tmp/sz.json" "$tmp/sz.csv" <<'PY'
import csv, json, sys
rows = json.load(open(sys.argv[1]))["serving"]
got = list(csv.DictReader(open(sys.argv[2])))
assert len(got) == len(rows) and all(g["table"] == "serving" for g in got), got
assert all(g["gpu"] == r["gpu"] and g["fits"] == str(r["fits"]).lower() for g, r in zip(got, rows))
assert all(float(g["gpus"]) == r["gpus"] for g, r in zip(got, rows) if r["fits"])
assert all(g["why"] == r["why"] for g, r in zip(got, rows) if not r["fits"])
PY
check "a service's sizing as CSV: the JSON's rows" $?
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 --format markdown -o "$tmp/sz.md" >"$tmp/sz.out"
[ ! -s "$tmp/sz.out" ] && grep -q '^| GPU | Tensor parallel | Pipeline stages | Expert-parallel group | Can serve |' "$tmp/sz.md" && [ "$(sed -n 1p "$tmp/sz.md")" = "# serve-llama3-70b" ] && grep -q '^Sizing service chat: 30 requests/s, ' "$tmp/sz.md"
check "a service's sizing as Markdown, to -o FILE" $?
# The targets, latencies and power in the units run and the Markdown give them: the text said
# "per output token <= 0.05 s" and "0.365s" where run says "p99 tpot <= 50 ms", and the Markdown
# "at most 0.05 s" beside its own summary's "(target 50 ms)".
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 >"$tmp/sz.txt"
head -1 "$tmp/sz.txt" | grep -q ', p99 time to first token <= 2 s, per output token <= 50 ms; ranked' &&
    grep -q '^Sizing service chat: 30 requests/s, P99 time to first token at most 2 s, P99 time per output token at most 50 ms; ' "$tmp/sz.md" &&
    python3 - "$tmp/sz.txt" "$tmp/sz.md" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
h = next(l for l in lines if l.startswith("rank "))
rows = [l for l in lines[lines.index(h) + 1:] if l[:1].isdigit()]
def cells(head):  # a right-aligned column 10 wide: its cells end where its heading does
    end = h.index(head) + len(head)
    return [r[end - 10:end].strip() for r in rows]
text = [cells("p99 ttft"), cells("p99 tpot"), cells("GPUs power")]
md = [l.strip().strip("|").split(" | ") for l in open(sys.argv[2]) if l.startswith("| ")]
k = [c.strip() for c in md[0]]
fit = [r for r in md[1:] if r[k.index("Can serve")].strip() == "yes"]
want = [[r[k.index(c)].strip() for r in fit] for c in
        ("P99 time to first token", "P99 time per output token", "Its GPUs' board power")]
assert text == want and text[0] and all(c.endswith(("ms", " s")) for c in text[0] + text[1]), (text, want)
PY
check "a service's sizing: targets, latencies and power in the Markdown's units" $?
# Each row is a fleet of its own, not bounded by the scenario's cluster: a row of 478 GPUs on the
# 16-GPU example read "Can serve: yes" with no word that it is a new fleet. Every format says so.
fleet="Each row is a fleet of its own, sized to the load: the scenario's cluster bounds a replica (its tensor parallelism and pipeline stages) but not how many replicas, so a row may need more GPUs than the cluster holds (strata run serves the replicas the scenario states)"
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 --format html >"$tmp/szf.html"
grep -qxF "$fleet" "$tmp/sz.txt" && grep -qF "; ranked by gpus. $fleet." "$tmp/sz.md" &&
    bash "$src/tests/cli/unterm.sh" "$tmp/szf.html" | sed 's/&#39;/'"'"'/g' | grep -qF "<p class=\"meta\">$fleet</p>"
check "a service's sizing: every format says each row is a fleet of its own" $?
"$strata" size "$tmp/small.yaml" --gpu-types h100-sxm,b200 --top 20 --format html >"$tmp/sz.html"
python3 "$src/tests/cli/check_report.py" html "$tmp/sz.html" "$tmp/sz.json" "" 40 serve-llama3-70b >/dev/null &&
    bash "$src/tests/cli/unterm.sh" "$tmp/sz.html" >"$tmp/sz.words.html" &&
    grep -q 'id="summary">Best for the gpus goal: 5 GPUs of b200 (tp 1, 5 replicas) serve 30 requests/s of chat within a P99 time to first token of ' "$tmp/sz.words.html" &&
    [ "$(sed -n 3p "$tmp/sz.md")" = "$(sed -n 's/.*id="summary">\([^<]*\)<.*/\1/p' "$tmp/sz.words.html")" ]
check "a service's sizing as HTML: the JSON's numbers, the same answer in words as Markdown" $?
# a service no configuration serves says so, naming the first one's reason
sed 's/ttft_p99: [^,}]*/ttft_p99: 1 ms/' "$tmp/small.yaml" >"$tmp/tight.yaml"
"$strata" size "$tmp/tight.yaml" --gpu-types h100-sxm --format markdown | sed -n 3p | grep -q '^No configuration tried serves 30 requests/s of chat; the first, h100-sxm at tp 1: '
check "a service no configuration serves: the summary says why" $?
# In NVFP4 a type without FP4 Tensor Cores is one row saying why; a cluster calibration is
# applied to its own GPU type's rows only (compute 0.5 halves h100's prompt rate, not b200's).
sed 's/precision: fp8/precision: fp4/; s/gpu: h100-sxm/gpu: b200/' "$tmp/small.yaml" >"$tmp/fp4.yaml"
"$strata" size "$tmp/fp4.yaml" --gpu-types h100-sxm,b200 --top 20 --format json >"$tmp/fp4.json"
check "size an FP4 service" $?
sed 's/^  nodes: 2$/  nodes: 2\n  calibration: { gpu: h100-sxm, compute_fp8: 0.5 }/' "$tmp/small.yaml" \
    >"$tmp/cal.yaml"
"$strata" size "$tmp/cal.yaml" --gpu-types h100-sxm,b200 --top 20 --format json >"$tmp/cal.json"
check "size a calibrated cluster's service" $?
python3 - "$tmp/fp4.json" "$tmp/sz.json" "$tmp/cal.json" <<'PY'
import json, sys
fp4, plain, cal = (json.load(open(p))["serving"] for p in sys.argv[1:])
h = [r for r in fp4 if r["gpu"] == "h100-sxm"]
assert len(h) == 1 and not h[0]["fits"] and "FP4" in h[0]["why"], h
assert any(r["fits"] for r in fp4 if r["gpu"] == "b200")
key = lambda rows: {(r["gpu"], r["tp"]): r["rate_per_replica"] for r in rows if r["fits"]}
p, c = key(plain), key(cal)
assert all(c[k] == p[k] for k in p if k[0] == "b200" and k in c), "b200 rows untouched"
assert all(c[k] < p[k] for k in p if k[0] == "h100-sxm" and k in c), "h100 rows calibrated"
PY
check "FP4 and calibration in a service's sizing" $?
"$strata" size "$ex" --deadline 1d >/dev/null 2>&1
[ $? = 2 ]
check "size refuses --deadline on a service" $?

# A closed loop of clients is sized by the clients one replica holds within the targets: the
# replicas at least the clients over that, every row's whole loop within the targets, and the
# text's column names it; a capped Poisson stream (a rate and a concurrency) is refused.
clients=$src/scenarios/examples/serve-clients-h100.yaml
sed 's/concurrency: 25, count: 1000, input_tokens: 1000, output_tokens: 250/concurrency: 60, count: 1200, input_tokens: 500, output_tokens: 100/' \
    "$clients" >"$tmp/loop.yaml" # shorter: the same rules, a fifth of the search
"$strata" size "$tmp/loop.yaml" --gpu-types h100-sxm,b200 --format json >"$tmp/loop.json"
check "size a closed loop" $?
python3 - "$tmp/loop.json" <<'PY'
import json, math, sys
t = json.load(open(sys.argv[1]))
assert t["clients"] == 60 and "rate_per_s" not in t, t
fit = [r for r in t["serving"] if r["fits"]]
assert fit and all("rate_per_replica" not in r for r in fit)
assert all(r["replicas"] >= math.ceil(60 / r["clients_per_replica"]) for r in fit), fit
assert all(r["ttft_p99_s"] <= t["ttft_p99_target_s"] and r["tpot_p99_s"] <= t["tpot_p99_target_s"] for r in fit)
PY
check "the closed loop's sizing rows" $?
# One definition of a replica's clients: `strata size`'s clients per replica is `strata run`'s
# most clients within the targets over its replicas, for the same GPU type and plan, whatever
# the replicas (run on two replicas of tp 2 and on one); run once searched the clients over all
# its replicas and said 123 on two where size said 61 a replica.
sed 's/gpus: 2$/gpus: 4/' "$tmp/loop.yaml" >"$tmp/loop2.yaml"
"$strata" run --format json "$tmp/loop.yaml" >"$tmp/loop1-run.json" &&
    "$strata" run --format json "$tmp/loop2.yaml" >"$tmp/loop2-run.json" &&
    python3 - "$tmp/loop.json" "$tmp/loop1-run.json" "$tmp/loop2-run.json" <<'PY'
import json, sys
row = next(r for r in json.load(open(sys.argv[1]))["serving"] if r["gpu"] == "h100-sxm" and r["tp"] == 2)
dps = []
for f in sys.argv[2:]:
    j = json.load(open(f))["jobs"][0]
    dp = j["parallel"]["dp"]
    dps.append(dp)
    assert j["inference"]["max_concurrency_under_slo"] == dp * row["clients_per_replica"], (f, row["clients_per_replica"], j["inference"]["max_concurrency_under_slo"], dp)
assert dps == [1, 2], dps
PY
check "size's clients per replica is run's most clients over its replicas" $?
"$strata" size "$tmp/loop.yaml" --gpu-types b200 --top 1 >"$tmp/loop.txt" &&
    grep -q "60 clients in a closed loop" "$tmp/loop.txt" && grep -q "clients/replica" "$tmp/loop.txt"
check "the closed loop's sizing text" $?
sed 's/concurrency: 60,/concurrency: 60, rate: 5\/s,/' "$tmp/loop.yaml" >"$tmp/capped.yaml"
"$strata" size "$tmp/capped.yaml" >/dev/null 2>"$tmp/e"
[ $? = 2 ] && grep -q "sizing a capped Poisson stream is not supported" "$tmp/e"
check "size refuses a capped Poisson stream" $?

# A load curve and its autoscaler (the diurnal example's day shrunk to 24 minutes): the
# replicas kept up below the eight its GPUs make, their GPU-hours tp x mean x span, and a share
# of requests within the targets that falls when the ramps outrun the replicas' start; without
# the autoscaler all eight all along, all but a few requests within the targets (at the peak's
# 11.25 requests/s a replica's p99 time per token is just over 50 ms, the serving stack's host
# time per iteration included), costing more per token; sizing it sizes the curve's peak.
sed 's/ h, rate/ min, rate/' "$src/scenarios/examples/serve-diurnal.yaml" >"$tmp/day.yaml"
grep -v '^    autoscale:' "$tmp/day.yaml" >"$tmp/fixed.yaml"
"$strata" run --format json "$tmp/day.yaml" >"$tmp/day.json" &&
    "$strata" run --format json "$tmp/fixed.yaml" >"$tmp/fixed.json"
check "run a load curve, autoscaled and not" $?
python3 - "$tmp/day.json" "$tmp/fixed.json" <<'PY'
import json, sys
a, f = (json.load(open(p))["jobs"][0] for p in sys.argv[1:])
i, k = a["inference"], f["inference"]
assert [p["rate_per_s"] for p in a["requests"]["load"]] == [30, 12, 60, 90, 70, 30], a["requests"]
assert "count" not in a["requests"] and "rate_per_s" not in a["requests"]
s = a["autoscale"]
assert (s["min"], s["max"], s["delay_s"], s["interval_s"], s["window_s"]) == (2, 8, 300, 15, 300), s
assert abs(s["target_rate_per_s"] - 0.7 * i["max_rate_under_slo"] / 8) < 1e-9 * s["target_rate_per_s"]
assert 2 <= i["replicas_mean"] < 8 and i["replicas_peak"] <= 8, i
assert abs(i["gpu_hours"] - 4 * i["replicas_mean"] * i["span_s"] / 3600) < 1e-9 * i["gpu_hours"]
# a day's ramps shrunk 60 times outrun a 5-minute start: requests queue behind too few
assert 0 < i["slo_attainment"] < 0.7 and k["slo_attainment"] > i["slo_attainment"] + 0.2, (i, k)
tl = i["timeline"]
assert len(tl) == 145 and tl[0]["t_s"] == 0 and abs(tl[-1]["t_s"] - 1440) < 1e-9, tl[-1]
assert all(2 <= p["replicas_up"] <= 8 for p in tl) and max(p["replicas_asked"] for p in tl) > 8
assert abs(tl[0]["replicas_asked"] * s["target_rate_per_s"] - 30) < 1e-9
assert "autoscale" not in f and "timeline" not in k
assert k["replicas_mean"] == 8 and k["replicas_peak"] == 8, k
assert k["gpu_hours"] > i["gpu_hours"]
assert k["cost_per_million_tokens_usd"] > i["cost_per_million_tokens_usd"]
assert abs(k["requests_per_s"] / i["requests_per_s"] - 1) < 0.02
# the bill holds each added replica's 5-minute start besides its GPU-hours up (a fixed fleet's
# GPU-hours are its hold, which gives the rate): the starts were not billed
rate = f["cost"]["breakdown"]["gpu_usd"] / k["gpu_hours"]
assert a["cost"]["breakdown"]["gpu_usd"] > 1.01 * rate * i["gpu_hours"], (a["cost"], rate, i)
# its cost a year at its rate over its span, not its GPUs' mean hold (it was 3.4x too high)
c = a["cost"]
assert abs(c["per_year_usd"] - c["total_usd"] * 365 * 86400 / i["span_s"]) < 1e-9 * c["per_year_usd"], c
PY
check "an autoscaled curve keeps fewer GPUs up than a fixed fleet" $?
"$strata" size "$tmp/day.yaml" --top 1 | head -1 | grep -q "90 requests/s (its load curve's peak)"
check "size a load curve for its peak" $?
# and prices the replicas it holds for the peak over the tokens the curve sends on average, as
# run prices its fixed fleet: per GPU held, the same cost per token (a review found size
# billing the peak's tokens around the clock, 39% under run's)
"$strata" size "$tmp/day.yaml" --format json >"$tmp/day-size.json"
python3 - "$tmp/day-size.json" "$tmp/fixed.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["serving"]
f = json.load(open(sys.argv[2]))["jobs"][0]
r = next(r for r in rows if r["fits"] and r["tp"] == 4 and r["pp"] == 1 and r.get("ep", 1) == 1)
run = f["inference"]["cost_per_million_tokens_usd"] / f["gpus"]
size = r["usd_per_million_tokens"] / r["gpus"]
assert abs(size / run - 1) < 0.02, (size, run, r)
PY
check "size prices a load curve over its mean rate, as run" $?

# A model no node holds: Llama 3.1 405B in BF16 on H100 is served across two nodes, a node's
# tensor parallelism over two pipeline stages, in `run` and in `size`.
cat >"$tmp/big.yaml" <<'EOF'
version: 1
cluster: { gpu: h100-sxm, nodes: 2 }
workloads:
  - name: chat
    kind: inference
    model: llama3-405b
    gpus: 16
    parallel: { tp: 8, pp: 2 }
    requests: { rate: 1, count: 100, input_tokens: 1000, output_tokens: 100 }
    slo: { ttft_p99: 5 s, tpot_p99: 100 ms }
EOF
"$strata" run "$tmp/big.yaml" | grep -q "served by 1 replica of 16 GPUs (tp 8, pp 2), bf16"
check "run a replica of two pipeline stages" $?
"$strata" size "$tmp/big.yaml" --format json >"$tmp/big.json"
check "size a model no node holds" $?
python3 - "$tmp/big.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["serving"]
fit = [r for r in rows if r["fits"]]
assert [(r["tp"], r["pp"]) for r in fit] == [(8, 2)], rows
assert all(r["pp"] == 1 and "KV cache" in r["why"] for r in rows if not r["fits"]), rows
assert fit[0]["gpus"] == 16 * fit[0]["replicas"]
PY
check "size pipelines a node's tensor parallelism" $?

# On premises, beside a training job (so the plant runs): the service is priced with its facility
# energy, its own cost part by part (jobs[].cost) summing with the training job's to the run's
# total; a dearer tariff makes its tokens dearer.
python3 - "$src/scenarios/examples/serve-beside-training.yaml" "$tmp" <<'PY'
import re, sys
s = re.sub(r"cost:\n(  .*\n)*", "", open(sys.argv[1]).read())
prem = ("cost:\n  delivery: on-prem\n  switch_price: 30000 USD\n  storage_price: 100 USD/TB\n"
        "  maintenance: 8%\n  staff: 5000000 USD/y\n")
open(sys.argv[2] + "/prem.yaml", "w").write(s + prem)
open(sys.argv[2] + "/prem2.yaml", "w").write(s + prem + "  electricity: 0.5 USD/kWh\n")
PY
"$strata" run --format json "$tmp/prem.yaml" >"$tmp/prem.json" &&
    "$strata" run --format json "$tmp/prem2.yaml" >"$tmp/prem2.json"
check "run a service on premises" $?
python3 - "$tmp/prem.json" "$tmp/prem2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def service(d):
    [j] = [j for j in d["jobs"] if "inference" in j]
    i = j["inference"]
    return i["cost_per_million_tokens_usd"] * i["tokens_per_s"] * i["span_s"] / 1e6
[c] = [j["cost"] for j in a["jobs"] if "inference" in j]
assert abs(c["total_usd"] - service(a)) < 1e-9 * service(a), (c, service(a))
b = c["breakdown"]
assert abs(sum(b.values()) - c["total_usd"]) < 1e-9 * c["total_usd"], c
assert c["capex"]["nodes_usd"] > 0 and b["energy_usd"] > 0, c
jobs = sum(j["cost"]["total_usd"] for j in a["jobs"] if "cost" in j)
assert service(a) > 0 and abs(a["cost"]["total_usd"] - jobs) < 1e-9 * jobs, a["cost"]
assert service(json.load(open(sys.argv[2]))) > service(a)
PY
check "price a service on premises with its facility energy, part by part" $?
"$strata" run "$tmp/prem.yaml" | grep -qE '^  chat: [0-9.,]+ USD, [0-9.]+ USD per million output tokens, .*\(capex [0-9.]+, energy'
check "the text report prices the service's parts beside the training job's" $?
# Alone, a service still runs through the cluster run: the plant draws it, steadily.
{
    cat "$ex"
    printf 'cost:\n  delivery: on-prem\n  switch_price: 30000 USD\n  storage_price: 100 USD/TB\n'
    printf '  maintenance: 8%%\n  staff: 5000000 USD/y\n'
} >"$tmp/alone.yaml"
"$strata" run --format json "$tmp/alone.yaml" >"$tmp/alone.json" &&
    "$strata" run "$tmp/alone.yaml" | grep -q '^  swing none: a steady draw$'
check "run a service alone on premises" $?
python3 - "$tmp/alone.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
i = d["jobs"][0]["inference"]
assert i["cost_per_million_tokens_usd"] > 0 and d["power"]["swing_w"] == 0, d["power"]
assert d["power"]["facility_peak_w"] > d["power"]["it_peak_w"] > 0
PY
check "a service alone draws the plant and is priced on premises" $?

# A service's heat counts in the thermal throttle of a training job that starts beside it: one
# air-cooled rack of 8 kW holds both nodes; alone the training node stays under 87 C at full
# clock, beside the service its rack's heat passes the capacity and its clock drops.
cat >"$tmp/heat.yaml" <<'EOF'
version: 1
name: heat
seed: 1
cluster:
  gpu: h100-sxm
  nodes: 2
  gpus_per_node: 8
  racks: { nodes_per_rack: 2, cooling: { kind: air, capacity: 8 kW } }
workloads:
  - name: pretrain
    model: llama3-8b
    gpus: 8
    global_batch: 64
    seq_len: 4096
    steps: 200
    submit: 10 s
    parallel: { tp: 1, dp: 8, microbatch: 1, zero: 1 }
  - name: chat
    kind: inference
    model: llama3-8b
    precision: fp8
    gpus: 8
    parallel: { tp: 1 }
    requests: { rate: 200/s, count: 20000, input_tokens: 1000, output_tokens: 250 }
EOF
sed '/- name: chat/,$d' "$tmp/heat.yaml" >"$tmp/heat-alone.yaml"
"$strata" run --format json "$tmp/heat.yaml" >"$tmp/heat.json" &&
    "$strata" run --format json "$tmp/heat-alone.yaml" >"$tmp/heat-alone.json"
check "run a training job beside a service in one hot rack" $?
python3 - "$tmp/heat.json" "$tmp/heat-alone.json" <<'PY'
import json, sys
both, alone = (json.load(open(p)) for p in sys.argv[1:])
t = both["jobs"][0]["thermal"]
a = alone["jobs"][0]["thermal"]
# the figures docs/models/inference.md quotes: 84.9 C alone, 94% of the clock beside it
assert a["clock"] == 1 and abs(a["junction_c"] - 84.9) < 0.05, a
assert abs(t["clock"] - 0.94) < 0.005 and abs(t["junction_c"] - 87.2) < 0.05, t
assert both["thermal"]["throttle_fraction"] == 0.5, both["thermal"]
PY
check "a service's heat throttles the training job beside it" $?

# On a cluster of pools (docs/models/pools.md): the example serves on its H100 pool beside
# training on its B200 pool; the report names each job's pool (text header and jobs[].pool), the
# service serves as it does on a cluster of H100s alone, and the cluster run counts it in its own
# pool. A service that names no pool runs on the first one.
mixed=$src/scenarios/examples/serve-h100-train-b200.yaml
"$strata" run --format json "$mixed" >"$tmp/mixed.json" &&
    "$strata" run "$mixed" >"$tmp/mixed.txt"
check "run a service on a pool beside training on another" $?
grep -q '^job chat: llama3-70b served by 8 replicas of 4 GPUs (tp 4), fp8 on pool h100 (h100-sxm)$' "$tmp/mixed.txt"
check "the text report names the service's pool" $?
# its thermal section names each job as every other section does, the service too (JSON:
# jobs[i].thermal), not by its index in the workloads ("job 1:")
grep -q '^  job chat: junction [0-9.]* C, clock 100%, [0-9.]* J per output token at the facility$' "$tmp/mixed.txt" &&
    grep -q '^  job pretrain: junction [0-9.]* C, clock 100%, [0-9.]* J per token at the facility$' \
        "$tmp/mixed.txt" && ! grep -q '^  job [0-9]' "$tmp/mixed.txt"
check "the thermal section names the jobs, the service too" $?
# the service alone on 4 H100 nodes: the chat workload, the cluster's pools made one type
python3 - "$mixed" "$tmp/h100.yaml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"  pools:\n(    - .*\n)+", "  gpu: h100-sxm\n  nodes: 4\n", text)
text = re.sub(r"    pool: h100\n", "", text)
text = text[: text.index("  - name: pretrain")] + text[text.index("\nscheduler:") + 1 :]
open(sys.argv[2], "w").write(text)
PY
sed '/^    pool: h100$/d' "$mixed" >"$tmp/first.yaml"
"$strata" run --format json "$tmp/h100.yaml" >"$tmp/h100.json" &&
    "$strata" run --format json "$tmp/first.yaml" >"$tmp/first.json"
check "the pooled service alone on H100s, and with no pool named" $?
python3 - "$tmp/mixed.json" "$tmp/h100.json" "$tmp/first.json" <<'PY'
import json, sys
mixed, alone, first = (json.load(open(p)) for p in sys.argv[1:])
def job(t, name):
    return next(j for j in t["jobs"] if j["name"] == name)
c, p = job(mixed, "chat"), job(mixed, "pretrain")
assert c["pool"] == "h100" and p["pool"] == "b200", (c.get("pool"), p.get("pool"))
assert [q["jobs"] for q in mixed["scheduler"]["pools"]] == [1, 1], mixed["scheduler"]["pools"]
a = job(alone, "chat")
assert "pool" not in a and alone["cluster"]["gpu"] == "h100-sxm"
for k in ("tokens_per_s", "requests_per_s", "ttft_s", "tpot_s", "kv_cache_bytes", "memory",
          "max_rate_under_slo", "mean_power_per_gpu_w", "it_energy_per_token_j"):
    assert c["inference"][k] == a["inference"][k], (k, c["inference"][k], a["inference"][k])
assert c["wait_s"] == 0 and p["wait_s"] == 0, "each pool runs its own job at once"
assert job(first, "chat")["pool"] == "h100" and job(first, "chat")["inference"] == c["inference"]
PY
check "the pooled service serves as on H100s alone, in its own pool" $?

# A closed loop of clients (requests.concurrency): its report names the mode and the clients and
# no rate, its text says so, and a sweep over the clients raises the throughput.
cat >"$tmp/closed.yaml" <<'EOF'
version: 1
name: closed
cluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }
workloads:
  - name: chat
    kind: inference
    model: llama3-8b
    precision: fp8
    gpus: 1
    requests: { concurrency: 4, count: 200, input_tokens: 500, output_tokens: 100 }
EOF
"$strata" run --format json "$tmp/closed.yaml" >"$tmp/closed.json" &&
    "$strata" run "$tmp/closed.yaml" | grep -q '^  requests  200 from 4 clients in a closed loop'
check "run a closed loop" $?
python3 - "$tmp/closed.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
rq, i = j["requests"], j["inference"]
assert rq["mode"] == "closed" and rq["concurrency"] == 4 and "rate_per_s" not in rq, rq
assert i["requests"] == 200 and 3 < i["batch_mean"] <= 4, i
assert i["frontend"]["name"] == "triton-trtllm", i["frontend"]
PY
check "the closed loop's JSON" $?
"$strata" sweep "$tmp/closed.yaml" --set 'workloads[0].requests.concurrency=1,8,64' \
    --columns inference.tokens_per_s -o "$tmp/c.csv" 2>/dev/null
check "sweep over the clients" $?
python3 - "$tmp/c.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok"] * 3, rows
tps = [float(r["chat.inference.tokens_per_s"]) for r in rows]
assert tps[0] < tps[1] < tps[2], tps
PY
check "throughput rises with the clients" $?

# The serving stacks' table: none, and Triton's with the figures docs/guide quotes.
"$strata" catalog frontends | grep -Eq '^triton-trtllm +11\.67 +1\.209 +13\.68 +1\.86 ' &&
    "$strata" catalog frontends | grep -Eq '^none +0 +0 '
check "catalog frontends lists the serving stacks" $?

# Scale to zero (serve-scale-to-zero.yaml): every format carries the cold-start figures, and a
# sweep of autoscale.min from 0 to 1 holds a replica between the bursts: more GPU-hours, every
# request within the targets where the cold starts made some miss them.
z=$src/scenarios/examples/serve-scale-to-zero.yaml
"$strata" run --format text "$z" >"$tmp/z.txt" && grep -Eq '^  zero      4 cold starts' "$tmp/z.txt" &&
    grep -Eq '^  start     .*the weights .* from models' "$tmp/z.txt"
check "run --format text shows the cold starts" $?
for f in json csv markdown html; do
    "$strata" run --format $f "$z" >"$tmp/z.$f" && grep -q "cold_start_total_s" "$tmp/z.$f" &&
        grep -q "gpu_hours_saved" "$tmp/z.$f" && grep -q "weights_load_s" "$tmp/z.$f"
    check "run --format $f shows the cold starts" $?
done
"$strata" sweep "$z" --set 'workloads[0].autoscale.min=0,1' \
    --columns inference.gpu_hours,inference.slo_attainment -o "$tmp/z.csv" 2>/dev/null
check "sweep over autoscale.min" $?
python3 - "$tmp/z.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok"] * 2, rows
gh = [float(r["evals.inference.gpu_hours"]) for r in rows]
att = [float(r["evals.inference.slo_attainment"]) for r in rows]
assert gh[0] < 0.1 * gh[1], gh
assert att[0] < 0.9 and att[1] == 1, att
PY
check "scale to zero saves GPU-hours for the requests its starts hold" $?

# A running replica's GPU power and energy per token are over the time it is up: the stretches
# at zero replicas between the bursts, its GPUs given back, read as its own made them an idle
# H100's (99.7 W against the catalog's 70 W idle, 31.6 J a token; a review find). Served
# steadily at the bursts' 3/s the same replica draws 536 W.
python3 - "$tmp/z.json" <<'PY'
import json, sys
i = json.load(open(sys.argv[1]))["jobs"][0]["inference"]
assert i["mean_power_per_gpu_w"] > 3 * 70 and i["it_energy_per_token_j"] < 10, i
PY
check "a scaled-to-zero replica's power is its running time's" $?

# The summary sentence counts the services apart from the training jobs: the scheduler counts a
# service as a job but not one scaled to zero ("Runs 0 jobs" read that day; a review find). A
# run of services alone leads with what they serve, not the scheduler's makespan and policy (a
# review found the serving page's headline in scheduler terms, its P99s and capacity only in a
# table).
"$strata" run --format markdown "$z" | grep -q '^Serves llama3-70b (job evals) on 8 h100-sxm GPUs at ' &&
    "$strata" run --format markdown "$ex" | grep -q '^Serves llama3-70b (job chat) on 16 h100-sxm GPUs at 29 requests/s (7251 output tokens/s): P99 time to first token 248.6 ms, per output token 33.42 ms, latency targets met (100% of requests within them), at most 39.06 requests/s within the targets; ' &&
    ! "$strata" run --format markdown "$ex" | sed -n 3p | grep -q 'makespan\|fifo' &&
    "$strata" compare "$z" --policies fifo,srtf --format markdown 2>/dev/null |
    grep -q '^2 policies on the same services;'
check "the summary counts services apart" $?

# A replica's run shows its output tokens as progress when asked (STRATA_PROGRESS=always; on
# a terminal after a second), and says nothing on stderr otherwise.
STRATA_PROGRESS=always "$strata" run "$ex" >/dev/null 2>"$tmp/prog.err"
grep -q '^strata: serving: output tokens [0-9]* of [0-9]* ' "$tmp/prog.err"
check "STRATA_PROGRESS=always: the service's tokens as progress" $?
"$strata" run "$ex" >/dev/null 2>"$tmp/quiet.err"
[ ! -s "$tmp/quiet.err" ]
check "off a terminal: no progress" $?

# A service's sizing counts every configuration it tried whatever --top keeps, and keeps the
# ones that cannot serve, each with why: at --top 2 it said "2 of 2 configurations tried serve
# it" and dropped the A100's "lacks FP8" line.
"$strata" size "$src/scenarios/examples/serve-gpt-oss-b200.yaml" --gpu-types h100-sxm,b200,a100-sxm-80g \
    --top 2 >"$tmp/top2.txt" 2>/dev/null &&
    grep -q "^(the first 2 of the 14 configurations that serve it, 12 left out; a larger --top lists more)$" "$tmp/top2.txt" &&
    grep -q "^  a100-sxm-80g tp 1 pp 1 ep 1: expert_precision: fp8 needs FP8" "$tmp/top2.txt" &&
    "$strata" size "$src/scenarios/examples/serve-gpt-oss-b200.yaml" --gpu-types h100-sxm,b200,a100-sxm-80g \
        --top 2 --format json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
fits = [r for r in d["serving"] if r["fits"]]
assert d["tried"] == 15 and d["serve"] == 14 and len(fits) == 2, (d["tried"], d["serve"], len(fits))
assert [r["gpu"] for r in d["serving"] if not r["fits"]] == ["a100-sxm-80g"]' &&
    "$strata" size "$src/scenarios/examples/serve-gpt-oss-b200.yaml" --gpu-types h100-sxm,b200,a100-sxm-80g \
        --top 2 --format markdown 2>/dev/null | grep -q "14 of 15 configurations tried serve it"
check "size of a service counts all it tried, whatever --top keeps" $?

# What --top leaves out is said in every format: JSON and CSV left_out (the CSV on every line),
# the text's, Markdown's and HTML's line under the table (the CSV kept the top rows and the
# ones that cannot serve, and nothing told its reader that 12 were left out).
serve_top() {
    "$strata" size "$src/scenarios/examples/serve-gpt-oss-b200.yaml" --gpu-types h100-sxm,b200,a100-sxm-80g \
        --top 2 "$@" 2>/dev/null
}
serve_top --format json >"$tmp/top2.json" && serve_top --format csv >"$tmp/top2.csv" &&
    serve_top --format markdown >"$tmp/top2.md" && serve_top --format html >"$tmp/top2.html" &&
    python3 - "$tmp/top2.json" "$tmp/top2.csv" <<'PY' &&
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
fits = [r for r in d["serving"] if r["fits"]]
assert d["left_out"] == d["serve"] - len(fits) == 12, d["left_out"]
assert len(rows) == len(d["serving"]) and {r["left_out"] for r in rows} == {"12"}, rows
PY
    grep -q "^(the first 2 of the 14 configurations that serve it, 12 left out; a larger --top lists more)$" "$tmp/top2.md" &&
    grep -q "(the first 2 of the 14 configurations that serve it, 12 left out; a larger --top lists more)" "$tmp/top2.html"
check "size of a service: what --top leaves out, in JSON, CSV, Markdown and HTML" $?

# the GPU-hours a service's cost bills are a figure of the report: an autoscaled replica's start
# holds its GPUs too (3.648 GPU-hours up read beside 39.97 USD at 10 USD/h)
"$strata" run "$src/scenarios/examples/serve-scale-to-zero.yaml" --format json 2>/dev/null |
    python3 -c 'import json, sys
j = [j for j in json.load(sys.stdin)["jobs"] if j.get("kind") == "inference"][0]
held, up = j["inference"]["gpu_hours_held"], j["inference"]["gpu_hours"]
sys.exit(not (held > up and abs(j["cost"]["breakdown"]["gpu_usd"] - 10 * held) < 1e-9 * held))'
check "a service's cost bills the GPU-hours it held, which the report gives" $?

# An FP8 service on a GPU without FP8 Tensor Cores is served as BF16 by the model, and its job
# line says so (it said fp8 while holding 2-byte weights).
sed 's/gpu: h100-sxm/gpu: a100-sxm-80g/' "$src/scenarios/examples/serve-llama3-70b.yaml" >"$tmp/a100-fp8.yaml"
"$strata" run "$tmp/a100-fp8.yaml" 2>/dev/null |
    grep -q '^job chat: .*, fp8 (weights and GEMMs in bf16: a100-sxm-80g has no FP8 Tensor Cores)$'
check "an fp8 service on an A100 says it runs as bf16" $?
# ... in every format, the JSON's gemm_precision (the HTML and Markdown read it from there), and
# an fp8 service on an H100 has no such key
"$strata" run "$tmp/a100-fp8.yaml" --format json 2>/dev/null |
    python3 -c 'import json, sys
j = [j for j in json.load(sys.stdin)["jobs"] if j.get("kind") == "inference"][0]
sys.exit(not (j["precision"] == "fp8" and j["gemm_precision"] == "bf16"))' &&
    "$strata" run "$tmp/a100-fp8.yaml" --format markdown 2>/dev/null | grep -q "| bf16 | jobs.*gemm_precision |$" &&
    "$strata" run "$src/scenarios/examples/serve-llama3-70b.yaml" --format json 2>/dev/null |
    python3 -c 'import json, sys
sys.exit(any("gemm_precision" in j for j in json.load(sys.stdin)["jobs"]))'
check "an fp8 service on an A100: gemm_precision bf16 in JSON and Markdown, none on an H100" $?
# a service's size table gives its money as every other money figure, grouped (a rank of 1,432
# replicas read 1.432e+04 USD/h)
"$strata" size "$src/scenarios/examples/serve-diurnal.yaml" >"$tmp/sd.txt" 2>/dev/null &&
    grep -q '^4  .* 14,320 ' "$tmp/sd.txt" && ! grep -q 'e+0' "$tmp/sd.txt"
check "size of a service: USD/h grouped, never in e-notation" $?
echo "$n serving checks, $fail failed"
[ "$fail" = 0 ]
