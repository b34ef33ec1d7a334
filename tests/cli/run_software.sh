#!/usr/bin/env bash
# A workload's `software:` (docs/models/software.md): a published run written with its stack's
# row in place of the keys the row sets forecasts exactly what the file stating them does, for
# one run of each kind of stack (Megatron-LM 2022, Megatron-DeepSpeed, NeMo, Megatron-Bridge,
# torchtitan); a key the workload states wins over its row; a release between two rows takes the
# older one; and the row's overlaps are the stack's (Megatron-Bridge turns TP communication
# overlap on, which a file stating tp_comm_overlap: false turns off).
# Usage: run_software.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

expect() { # NAME WANT GOT
    n=$((n + 1))
    [ "$2" = "$3" ] || { echo "FAIL $1: expected '$2', got '$3'"; fail=$((fail + 1)); }
}

# figures FILE: the first job's step time and memory per GPU, at full precision.
figures() {
    "$strata" run --format json "$1" 2>/dev/null | python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(repr(j["step_time_s"]), repr(j["memory_per_gpu_bytes"]))'
}

# same NAME FILE SOFTWARE SED...: FILE with `software: SOFTWARE` after its precision line and
# the sed expressions applied forecasts what FILE does.
same() {
    local name=$1 file=$src/$2 sw=$3
    shift 3
    local args=(-e "s/^    precision: \(.*\)$/    precision: \1\n    software: $sw/")
    for e in "$@"; do args+=(-e "$e"); done
    sed "${args[@]}" "$file" >"$tmp/$name.yaml"
    grep -q "^    software: $sw\$" "$tmp/$name.yaml" || { echo "FAIL $name: no software line"; fail=$((fail + 1)); }
    expect "$name" "$(figures "$file")" "$(figures "$tmp/$name.yaml")"
}

same k22 scenarios/validation/k22-530b-dp8.yaml "megatron-lm 2022" \
    '/^    attention: unfused/d' 's/overlap_p2p: false, //' 's/, overlap_grad_reduce: false//'
same bloom scenarios/validation/bloom-176b-gbs2048.yaml "megatron-deepspeed 2022" \
    '/^    attention: unfused/d' 's/overlap_p2p: false, grad_collective: all-reduce, grad_accum: separate, //' \
    's/, overlap_grad_reduce: false//'
same nemo scenarios/validation/nemo-2502-b200-llama3-8b-8gpu.yaml "nemo 25.02" \
    '/^    attention: cudnn$/d' '/^    fp8_param_gather: true$/d' '/^    cudnn: 9.10 /d' \
    's/grad_reduce: bf16, overlap_param_gather: true, //'
# The Megatron-Bridge files name their release already: the variant drops that line (the
# function adds it back) and the keys the row sets.
same bridge scenarios/checks/bridge-2511/h100-llama3-70b-64gpu.yaml "megatron-bridge 25.11" \
    '/^    software: megatron-bridge 25.11$/d' \
    '/^    fp8_recipe: current$/d' '/^    fp8_param_gather: true$/d' '/^    attention: cudnn$/d' \
    's/grad_reduce: bf16, overlap_param_gather: true, //'
same torchtitan scenarios/checks/torchtitan/a100-llama2-13b-64gpu-noac.yaml "torchtitan 2024-04" \
    '/^    attention: flash2$/d' 's/, overlap_param_gather: true//'

# The row's own TP overlap: stating `tp_comm_overlap: false` (and dropping the userbuffers
# settings, which mean nothing without it) lengthens the step, and the plan line names the
# overlap only where it is on.
sed -e 's/parallel: { /parallel: { tp_comm_overlap: false, /' \
    -e 's/tp_comm_overlap_cfg: "[^"]*"/tp_comm_overlap_cfg: te-default/' "$tmp/bridge.yaml" >"$tmp/bridge-off.yaml"
grep -q 'tp_comm_overlap: false' "$tmp/bridge-off.yaml" || { echo "FAIL bridge: no overlap key"; fail=$((fail + 1)); }
read -r with _ <<<"$(figures "$tmp/bridge.yaml")"
read -r without _ <<<"$(figures "$tmp/bridge-off.yaml")"
expect "bridge TP overlap shortens the step" 1 "$(python3 -c "print(int($with < $without))")"
expect "bridge TP overlap on the plan line" 1 \
    "$("$strata" run "$tmp/bridge.yaml" 2>/dev/null | grep -c '^            seq .*TP comm overlap')"
expect "bridge TP overlap off the plan line" 0 \
    "$("$strata" run "$tmp/bridge-off.yaml" 2>/dev/null | grep -c '^            seq .*TP comm overlap')"

# A release between rows takes the older row: 26.04.01 is 26.04's, 25.12 is 25.11's.
sed 's/software: megatron-bridge 25.11/software: megatron-bridge 25.12/' "$tmp/bridge.yaml" >"$tmp/b2.yaml"
expect "25.12 takes 25.11's row" "$(figures "$tmp/bridge.yaml")" "$(figures "$tmp/b2.yaml")"

# A stated key wins: megatron-core 0.8 runs cuDNN attention on an H100, the workload says flash2.
cat >"$tmp/mc.yaml" <<YAML
version: 1
cluster: { gpu: h100-sxm, nodes: 1 }
workloads:
  - { name: pre, model: llama3-8b, gpus: 8, seq_len: 8192, software: megatron-core 0.8 }
YAML
expect "megatron-core 0.8 on H100" "  software  megatron-core 0.8: attention cudnn, gradient reduce fp32 after backward" \
    "$("$strata" run "$tmp/mc.yaml" 2>/dev/null | grep '^  software')"
sed 's/software: megatron-core 0.8 }/software: megatron-core 0.8, attention: flash2 }/' "$tmp/mc.yaml" >"$tmp/mc2.yaml"
expect "stated attention wins" "  software  megatron-core 0.8: attention flash2, gradient reduce fp32 after backward" \
    "$("$strata" run "$tmp/mc2.yaml" 2>/dev/null | grep '^  software')"
sed 's/megatron-core 0.8/megatron-core 0.6/' "$tmp/mc.yaml" >"$tmp/mc3.yaml"
expect "megatron-core 0.6 (TE before 1.8) on H100" "  software  megatron-core 0.6: attention flash2, gradient reduce fp32 after backward" \
    "$("$strata" run "$tmp/mc3.yaml" 2>/dev/null | grep '^  software')"
expect "jobs[].software" "megatron-core 0.6" \
    "$("$strata" run --format json "$tmp/mc3.yaml" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["software"])')"
expect "no software key, no jobs[].software" "False" \
    "$("$strata" run --format json "$src/scenarios/examples/quickstart.yaml" 2>/dev/null | python3 -c 'import json, sys; print("software" in json.load(sys.stdin)["jobs"][0])')"

# cudnn: an older release reads its own published sweep on Blackwell (slower attention, a longer
# step), a release past it the newest; Hopper keeps 9.19's for 9.10; reported in every format.
cat >"$tmp/cu.yaml" <<YAML
version: 1
cluster: { gpu: b200, nodes: 1 }
workloads:
  - { name: pre, model: llama3-8b, gpus: 8, seq_len: 16384, global_batch: 64, attention: cudnn,
      parallel: { zero: 1 } }
YAML
sed 's/attention: cudnn,$/attention: cudnn, cudnn: 9.10,/' "$tmp/cu.yaml" >"$tmp/cu910.yaml"
sed 's/attention: cudnn,$/attention: cudnn, cudnn: 9.11,/' "$tmp/cu.yaml" >"$tmp/cu911.yaml"
read -r newest _ <<<"$(figures "$tmp/cu.yaml")"
read -r old _ <<<"$(figures "$tmp/cu910.yaml")"
expect "cuDNN 9.10 is slower on B200" 1 "$(python3 -c "print(int($old > 1.02 * $newest))")"
expect "cuDNN 9.11 reads the newest sweep" "$(figures "$tmp/cu.yaml")" "$(figures "$tmp/cu911.yaml")"
sed 's/gpu: b200/gpu: h100-sxm/; s/zero: 1/zero: 1, tp: 4/' "$tmp/cu.yaml" >"$tmp/cuh.yaml"
sed 's/gpu: b200/gpu: h100-sxm/; s/zero: 1/zero: 1, tp: 4/' "$tmp/cu910.yaml" >"$tmp/cuh910.yaml"
h100="$(figures "$tmp/cuh.yaml")"
expect "the H100 file has a step" 1 "$([ -n "$h100" ] && echo 1)"
expect "cuDNN 9.10 on H100 reads 9.19's sweep" "$h100" "$(figures "$tmp/cuh910.yaml")"
expect "jobs[].cudnn" "9.10" \
    "$("$strata" run --format json "$tmp/cu910.yaml" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["cudnn"])')"
expect "no cudnn key, no jobs[].cudnn" "False" \
    "$("$strata" run --format json "$tmp/cu.yaml" 2>/dev/null | python3 -c 'import json, sys; print("cudnn" in json.load(sys.stdin)["jobs"][0])')"
expect "cuDNN on the plan line" 1 \
    "$("$strata" run "$tmp/cu910.yaml" 2>/dev/null | grep -c '^            seq .*, cuDNN 9.10$')"

# Sizing across GPU types gives each type its row's kernel: megatron-core 0.6 runs
# FlashAttention-2 on an H100 and leaves a B200 its own default, as the workload stating each
# kernel on one type alone does.
cat >"$tmp/sz.yaml" <<YAML
version: 1
cluster: { gpu: h100-sxm, nodes: 8 }
workloads:
  - { name: pre, model: llama3-8b, seq_len: 8192, global_batch: 256, tokens: 2B, gpus: 8,
      software: megatron-core 0.6 }
YAML
top() { # FILE GPU: the first ranked row's step_s and variant
    "$strata" size "$1" --deadline 30d --gpu-types "$2" --top 1 --format csv 2>/dev/null |
        python3 -c 'import csv, sys
r = [r for r in csv.DictReader(sys.stdin) if r["table"] == "ranked"][0]
print(r["step_time_s"], r["variant"])'
}
sed 's/software: megatron-core 0.6 }/software: megatron-core 0.6, attention: ATT }/' "$tmp/sz.yaml" >"$tmp/sz-att.yaml"
sed 's/ATT/flash2/' "$tmp/sz-att.yaml" >"$tmp/sz-fa2.yaml"
sed 's/ATT/flash/' "$tmp/sz-att.yaml" >"$tmp/sz-fa.yaml"
both=$("$strata" size "$tmp/sz.yaml" --deadline 30d --gpu-types h100-sxm,b200 --top 400 --format csv 2>/dev/null)
best() { # GPU: the best step_s of that variant among both's rows
    printf '%s\n' "$both" | python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if r["table"] == "ranked" and r["variant"] == sys.argv[1]]
print(min(rows, key=lambda r: float(r["gpu_hours"]))["step_time_s"], sys.argv[1])' "$1"
}
h100=$(top "$tmp/sz-fa2.yaml" h100-sxm) b200=$(top "$tmp/sz-fa.yaml" b200)
expect "size: H100 row found" "h100-sxm" "${h100#* }"
expect "size: B200 row found" "b200" "${b200#* }"
expect "size: H100 takes the row's flash2" "$h100" "$(best h100-sxm)"
expect "size: B200 keeps its default" "$b200" "$(best b200)"

# The catalog lists every row: a header line, a column line and twelve rows.
expect "catalog software rows" 14 "$("$strata" catalog software | wc -l)"

# The userbuffers catalog: TE's defaults (16 SMs with the margin for bulk and pipeline), and a
# preset a NeMo file states, each name a row a scenario can name.
ub=$("$strata" catalog userbuffers)
expect "catalog userbuffers: TE's defaults" 1 \
    "$(grep -c '^r1  *b16m  *b16m  *p16m  *r1  *r1  *b16m  *b16m  *p16m  *r1  *te-default$' <<<"$ub")"
expect "catalog userbuffers: NeMo's GPT-3 175B H100 FP8 at v2.2.0" 1 \
    "$(grep -c '^r1  *b4  *b4  *p24m  *r1  *r1  *b2  *b4  *r1m  *r1  *nemo v2.2.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048$' <<<"$ub")"
name=$(sed -n 's/.*tp_comm_overlap_cfg: "\([^"]*\)".*/\1/p' "$src/scenarios/validation/nemo-2502-h100-gpt3-175b-512gpu.yaml")
expect "catalog userbuffers: the file's preset is listed" 1 "$(grep -c " $name\$" <<<"$ub")"

echo "$((n - fail)) of $n checks passed"
[ "$fail" -eq 0 ]
