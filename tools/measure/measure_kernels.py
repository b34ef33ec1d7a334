#!/usr/bin/env python3
"""Measure what the step model's calibration tables need, on the GPU this runs on.

Issue 4 asks for the H200's GEMM efficiency over transformer shapes (BF16 and FP8), its
attention kernels and its HBM copy bandwidth, measured with one short prepared script and kept
in the repository as the H200 row's source (models/silicon/gemm_eff.c, docs/models/step-ops.md). This is that
script. It needs PyTorch with CUDA and nothing else, runs in about four minutes on one GPU, and
writes to $OUT (or the folder given as its only argument):

  kernels.csv   one row per measurement: section, name, m, n, k (or seq, blocks), value, unit
  summary.json  the figures the calibration tables take: BF16 and FP8 MAMF (the best fraction of
                the dense peak over the grid, with its shape), the sustained/burst ratio, the
                FlashAttention-style sweeps per backend, and the copy and triad bandwidths

Run on the device machine from the repository root:
  python3 tools/measure/measure_kernels.py "$OUT"

Timing: CUDA events around `reps` back-to-back launches after `warm` warm-ups, random normal
data (zeros run faster on Hopper and would flatter the GEMMs), the median of three such
batches. Clocks are left alone (docs: /work/.library/device/METHOD.md). Nothing here is fitted;
fitting the curve constants to these figures is done in models/silicon/gemm_eff.c by hand, with the
table of this run pasted beside it.
"""

import csv
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

DENSE_PEAK = {  # datasheet dense peaks, FLOP/s; the ratio is what the model's tables hold
    "NVIDIA H200": {"bf16": 989.4e12, "fp8": 1978.9e12},
    "NVIDIA H100 80GB HBM3": {"bf16": 989.4e12, "fp8": 1978.9e12},
}
HBM_DATASHEET = {"NVIDIA H200": 4.8e12, "NVIDIA H100 80GB HBM3": 3.35e12}


def timed(fn, warm=3, reps=10, batches=3):
    """Median seconds per call of fn over `batches` batches of `reps` calls."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    per = []
    for _ in range(batches):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        torch.cuda.synchronize()
        per.append(a.elapsed_time(b) / 1e3 / reps)
    return statistics.median(per)


def gemm_shapes():
    """Transformer GEMMs: tokens m against the layer's (n, k) for hidden sizes 4k-16k, both
    forward (m x k by k x n) and weight-gradient (n x m by m x k) orientations, plus a square
    grid for the MAMF search."""
    shapes = set()
    for h in (4096, 8192, 12288, 16384):
        for m in (2048, 4096, 8192, 16384):
            for n, k in ((3 * h // 8, h), (h, h // 8), (4 * h // 8, h), (h, 4 * h // 8)):
                shapes.add((m, n, k))
                shapes.add((n, k, m))
    for s in (1024, 2048, 4096, 6144, 8192, 12288, 16384):
        shapes.add((s, s, s))
    return sorted(shapes)


def fp8_mm(a, b):
    scale = torch.ones((), device="cuda", dtype=torch.float32)
    return torch._scaled_mm(a, b, scale_a=scale, scale_b=scale, out_dtype=torch.bfloat16)


def measure_gemms(rows, peak):
    best = {}
    for prec in ("bf16", "fp8"):
        for m, n, k in gemm_shapes():
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
            if prec == "bf16":
                fn = lambda: torch.mm(a, b.t())
            else:
                try:
                    a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
                    fn = lambda: fp8_mm(a8, b8.t())
                    fn()
                except Exception as e:  # no FP8 GEMM in this build: say so, skip the precision
                    rows.append(["gemm", prec, m, n, k, "", f"unavailable: {e}"])
                    break
            t = timed(fn)
            frac = 2.0 * m * n * k / t / peak[prec]
            rows.append(["gemm", prec, m, n, k, f"{frac:.4f}", "fraction of dense peak"])
            if frac > best.get(prec, (0,))[0]:
                best[prec] = (frac, m, n, k)
            del a, b
    return {p: {"frac": v[0], "m": v[1], "n": v[2], "k": v[3]} for p, v in best.items()}


def smi_clock():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
                              "--format=csv,noheader,nounits"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
        return out
    except Exception as e:
        return f"unavailable: {e}"


def measure_sustained(rows, peak, seconds=60.0):
    """8192^3 BF16 products back to back for `seconds`: the first two seconds' rate against
    the last ten's, the sustained/burst ratio (Azure's method: minutes of the same GEMM)."""
    s = 8192
    a = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    flops = 2.0 * s * s * s
    samples = []
    t0 = time.time()
    clock_start = smi_clock()
    while time.time() - t0 < seconds:
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(20):
            torch.mm(a, b)
        e1.record()
        torch.cuda.synchronize()
        samples.append((time.time() - t0, 20 * flops / (e0.elapsed_time(e1) / 1e3)))
    clock_end = smi_clock()
    first = [r for t, r in samples if t <= 2.0] or [samples[0][1]]
    last = [r for t, r in samples if t >= seconds - 10.0]
    burst, sustained = max(first), statistics.mean(last)
    rows.append(["sustained", "bf16-8192", s, s, s, f"{burst / peak['bf16']:.4f}", "first 2 s"])
    rows.append(["sustained", "bf16-8192", s, s, s, f"{sustained / peak['bf16']:.4f}",
                 "last 10 s"])
    return {"burst_frac": burst / peak["bf16"], "sustained_frac": sustained / peak["bf16"],
            "ratio": sustained / burst, "seconds": seconds, "smi_before": clock_start,
            "smi_after": clock_end}


def measure_attention(rows, peak):
    """The FlashAttention papers' sweep: causal, head dim 128, 16 heads, batch x seq = 16k
    tokens, seq 512..16k; forward and backward per SDPA backend; FLOPs counted the papers' way
    (4 b h s^2 d, halved for causal; backward 2.5 x forward)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backends = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
                "efficient": SDPBackend.EFFICIENT_ATTENTION}
    out = {}
    heads, d = 16, 128
    for name, be in backends.items():
        sweep = []
        for seq in (512, 1024, 2048, 4096, 8192, 16384):
            b = 16384 // seq
            q, k, v = (torch.randn(b, heads, seq, d, device="cuda", dtype=torch.bfloat16,
                                   requires_grad=True) for _ in range(3))
            flops = 4.0 * b * heads * seq * seq * d / 2
            try:
                with sdpa_kernel(be):
                    o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                    g = torch.randn_like(o)
                    t_f = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
                    t_b = timed(lambda: torch.autograd.grad(
                        F.scaled_dot_product_attention(q, k, v, is_causal=True), (q, k, v), g))
                t_b = max(t_b - t_f, 1e-9)  # the timed backward includes its forward
            except Exception as e:
                rows.append(["attention", name, seq, b * heads * ((seq + 127) // 128), "", "",
                             f"unavailable: {e}"])
                break
            tf_f, tf_b = flops / t_f, 2.5 * flops / t_b
            rows.append(["attention-fwd", name, seq, "", "", f"{tf_f / 1e12:.1f}", "TFLOP/s"])
            rows.append(["attention-bwd", name, seq, "", "", f"{tf_b / 1e12:.1f}", "TFLOP/s"])
            sweep.append({"seq": seq, "fwd_tflops": tf_f / 1e12, "bwd_tflops": tf_b / 1e12,
                          "fwd_frac": tf_f / peak["bf16"], "bwd_frac": tf_b / peak["bf16"]})
        out[name] = sweep
    return out


def measure_hbm(rows, datasheet):
    """Copy (read + write) and triad (two reads, one write) over 2 GiB vectors."""
    n = (2 << 30) // 4
    a = torch.empty(n, device="cuda", dtype=torch.float32).normal_()
    b = torch.empty_like(a).normal_()
    c = torch.empty_like(a)
    t_copy = timed(lambda: c.copy_(a))
    t_triad = timed(lambda: torch.add(a, b, alpha=3.0, out=c))
    copy_bw, triad_bw = 2 * 4 * n / t_copy, 3 * 4 * n / t_triad
    rows.append(["hbm", "copy", n, "", "", f"{copy_bw / 1e12:.3f}", "TB/s"])
    rows.append(["hbm", "triad", n, "", "", f"{triad_bw / 1e12:.3f}", "TB/s"])
    return {"copy_tbps": copy_bw / 1e12, "triad_tbps": triad_bw / 1e12,
            "triad_frac": triad_bw / datasheet if datasheet else None}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    name = torch.cuda.get_device_name(0)
    peak = DENSE_PEAK.get(name, DENSE_PEAK["NVIDIA H200"])
    rows = []
    summary = {"gpu": name, "torch": torch.__version__, "cuda": torch.version.cuda,
               "peak_flops": peak, "smi_idle": smi_clock(),
               "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    t0 = time.time()
    summary["hbm"] = measure_hbm(rows, HBM_DATASHEET.get(name))
    summary["mamf"] = measure_gemms(rows, peak)
    summary["attention"] = measure_attention(rows, peak)
    summary["sustained"] = measure_sustained(rows, peak)
    summary["wall_s"] = time.time() - t0
    with open(os.path.join(out_dir, "kernels.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["section", "name", "m_or_seq", "n", "k", "value", "unit"])
        w.writerows(rows)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(json.dumps({k: summary[k] for k in ("gpu", "mamf", "hbm", "sustained", "wall_s")},
                     indent=2))


if __name__ == "__main__":
    main()
