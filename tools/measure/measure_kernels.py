#!/usr/bin/env python3
"""Measure what the step and serving models' calibration tables need, on the GPU this runs on.

Issue 30 (step 4) asks that compute be calibrated from microbenchmarks, with the GPU machine's
own runs where one is lent: GEMM efficiency over transformer shapes (BF16 and FP8), the fused
attention kernels, grouped (MoE expert) GEMMs at per-expert shapes, and HBM bandwidth; issue 33
adds what serving runs: decode's skinny GEMMs and its attention over a KV cache. This is that
one short prepared script. It needs PyTorch with CUDA and nothing else, runs in about five
minutes on one GPU, and writes to $OUT (or the folder given as its first argument):

  kernels.csv   one row per measurement: section, name, a, b, c (the shape: m, n, k; seq;
                experts and tokens per expert), value, unit
  summary.json  the figures the calibration tables take: BF16 and FP8 MAMF (the best fraction of
                the dense peak over the grid, with its shape), the sustained/burst ratio, the
                attention sweeps per backend, the copy and triad bandwidths, the library versions
  log.txt       what each section did, and the traceback of any that failed
  gemm.csv      the GEMM grid as `strata calibrate --gemm` reads it: the GPU's own calibration
                (python3 tools/measure/measure_kernels.py --gemm-csv RUN_DIR [PATH] rewrites
                it from a saved run's kernels.csv, without PyTorch)

Run on the device machine from the repository root:
  python3 tools/measure/measure_kernels.py "$OUT" [budget_seconds [section,section...]]

The sections run in order of use to the tables and each is written out as it ends, so a run cut
short keeps what it measured; one that fails records its error and the rest go on. A section is
skipped once the budget (default 420 s) is spent; each sustained run takes what is left, up
to 60 s. The third argument runs only the sections it names (--help lists them).

Timing: CUDA events around back-to-back launches after warm-ups, random normal data (zeros run
faster on Hopper and would flatter the GEMMs), the median of three batches. Kernels of a few
microseconds (decode's) are captured in a CUDA graph and replayed, so launch gaps stay out, and
rotate over copies of their operands worth over 1 GB, so the 50-60 MB L2 does not serve them.
Clocks are left alone. Nothing here is fitted; the fits to these figures live in
models/silicon/gemm_eff.c with the table of this run beside them.
"""

import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time
import traceback

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # --gemm-csv rewrites a saved run and needs neither PyTorch nor a GPU
    torch = F = None

DENSE_PEAK = {  # datasheet dense peaks, FLOP/s; the ratio is what the model's tables hold
    "NVIDIA H200": {"bf16": 989.4e12, "fp8": 1978.9e12},
    "NVIDIA H100 80GB HBM3": {"bf16": 989.4e12, "fp8": 1978.9e12},
    "NVIDIA H100 PCIe": {"bf16": 756.5e12, "fp8": 1513e12},
    "NVIDIA B200": {"bf16": 2250e12, "fp8": 4500e12},
    # Ampere has no FP8 Tensor Cores: its FP8 measurements fail, and log.txt says so
    "NVIDIA A100-SXM4-80GB": {"bf16": 312e12, "fp8": None},
    "NVIDIA A100-SXM4-40GB": {"bf16": 312e12, "fp8": None},
}
HBM_DATASHEET = {"NVIDIA H200": 4.8e12, "NVIDIA H100 80GB HBM3": 3.35e12,
                 "NVIDIA H100 PCIe": 2.0e12, "NVIDIA B200": 7.7e12,
                 "NVIDIA A100-SXM4-80GB": 2.039e12, "NVIDIA A100-SXM4-40GB": 1.555e12}
ROTATE_BYTES = 1.0e9  # operands rotated over at least this much memory: many times the L2

LOG = []


def log(msg):
    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    LOG.append(line)


def sync():
    torch.cuda.synchronize()


def timed(fn, warm=3, reps=10, batches=3, graph=False):
    """Median seconds per call of fn over `batches` batches of `reps` calls; graph: the calls
    replayed from a CUDA graph, so a kernel shorter than the host's launch time (a small GEMM:
    tens of microseconds per call from Python on the device machine) is timed, not the host."""
    if graph:
        try:
            return timed_graph([fn], reps=reps, batches=batches)
        except Exception as e:  # not capturable: time the launches, and say so
            log(f"graph capture failed ({e}); timing launches")
            torch.cuda.synchronize()
    for _ in range(warm):
        fn()
    sync()
    per = []
    for _ in range(batches):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        sync()
        per.append(a.elapsed_time(b) / 1e3 / reps)
    return statistics.median(per)


def timed_graph(fns, reps=None, batches=5):
    """Median seconds per call over replays of one CUDA graph holding `reps` calls that cycle
    through `fns` (one per operand copy): no launch gaps, no operand served from L2."""
    reps = reps or len(fns)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up off the default stream, as capture requires
        for f in fns:
            f()
    torch.cuda.current_stream().wait_stream(side)
    sync()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(reps):
            fns[i % len(fns)]()
    g.replay()
    sync()
    per = []
    for _ in range(batches):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        sync()
        per.append(a.elapsed_time(b) / 1e3 / reps)
    del g
    return statistics.median(per)


def copies_for(nbytes, cap=64):
    return max(2, min(cap, math.ceil(ROTATE_BYTES / max(nbytes, 1))))


ONE = {}


def fp8_mm(a, b):
    """FP8 GEMM with per-tensor scales of 1, made once (a scale made per call is a kernel and
    an allocation of its own)."""
    if "s" not in ONE:
        ONE["s"] = torch.ones((), device="cuda", dtype=torch.float32)
    return torch._scaled_mm(a, b, scale_a=ONE["s"], scale_b=ONE["s"], out_dtype=torch.bfloat16)


def gemm_frac(m, n, k, prec, peak):
    """One GEMM of the grids, m x k by (n x k)^T on random data, replayed from a CUDA graph: its
    fraction of the precision's dense peak."""
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    if prec == "bf16":
        fn = lambda: torch.mm(a, b.t())
    else:
        a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        fn = lambda: fp8_mm(a8, b8.t())
    return 2.0 * m * n * k / timed(fn, graph=True) / peak[prec]


# ---- sections ------------------------------------------------------------------------------


def measure_hbm(rows, ctx):
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
    ds = ctx["hbm_datasheet"]
    return {"copy_tbps": copy_bw / 1e12, "triad_tbps": triad_bw / 1e12,
            "triad_frac": triad_bw / ds if ds else None}


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


def measure_gemms(rows, ctx):
    peak = ctx["peak"]
    best = {}
    for prec in ("bf16", "fp8"):
        for m, n, k in gemm_shapes():
            try:
                frac = gemm_frac(m, n, k, prec, peak)
            except Exception as e:  # no FP8 GEMM in this build: say so, skip the precision
                rows.append(["gemm", prec, m, n, k, "", f"unavailable: {e}"])
                break
            rows.append(["gemm", prec, m, n, k, f"{frac:.4f}", "fraction of dense peak"])
            if frac > best.get(prec, (0,))[0]:
                best[prec] = (frac, m, n, k)
    return {p: {"frac": v[0], "m": v[1], "n": v[2], "k": v[3]} for p, v in best.items()}


def sdpa_backends():
    from torch.nn.attention import SDPBackend
    return {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def measure_attention(rows, ctx):
    """The FlashAttention papers' sweep: causal, head dim 128, 16 heads, batch x seq = 16k
    tokens, seq 512..16k; forward and backward per SDPA backend; FLOPs counted the papers' way
    (4 b h s^2 d, halved for causal; backward 2.5 x forward). torch's `flash` backend is
    FlashAttention-2."""
    from torch.nn.attention import sdpa_kernel
    out = {}
    heads, d = 16, 128
    for name, be in sdpa_backends().items():
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
                rows.append(["attention", name, seq, "", "", "", f"unavailable: {e}"])
                break
            tf_f, tf_b = flops / t_f, 2.5 * flops / t_b
            rows.append(["attention-fwd", name, seq, b, heads, f"{tf_f / 1e12:.1f}", "TFLOP/s"])
            rows.append(["attention-bwd", name, seq, b, heads, f"{tf_b / 1e12:.1f}", "TFLOP/s"])
            sweep.append({"seq": seq, "fwd_tflops": tf_f / 1e12, "bwd_tflops": tf_b / 1e12})
        out[name] = sweep
    return out


def measure_attention_gqa(rows, ctx):
    """NVIDIA's cudnn-frontend sweep shape, which the H200 cuDNN row quotes: Llama 3.1
    attention, batch 1, 64 query and 8 K/V heads of 128, causal, seq 2k..32k; the same FLOP
    count. Comparing it with NVIDIA's published H200 figures checks this machine and library."""
    from torch.nn.attention import sdpa_kernel
    out = {}
    hq, hkv, d = 64, 8, 128
    for name in ("cudnn", "flash"):
        be = sdpa_backends()[name]
        sweep = []
        for seq in (2048, 4096, 8192, 16384, 32768):
            q = torch.randn(1, hq, seq, d, device="cuda", dtype=torch.bfloat16,
                            requires_grad=True)
            k, v = (torch.randn(1, hkv, seq, d, device="cuda", dtype=torch.bfloat16,
                                requires_grad=True) for _ in range(2))
            flops = 4.0 * hq * seq * seq * d / 2
            try:
                with sdpa_kernel(be):
                    f = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                                               enable_gqa=True)
                    o = f()
                    g = torch.randn_like(o)
                    t_f = timed(f, warm=2, reps=5)
                    t_b = timed(lambda: torch.autograd.grad(f(), (q, k, v), g), warm=2, reps=5)
                t_b = max(t_b - t_f, 1e-9)
            except Exception as e:
                rows.append(["attention-gqa", name, seq, "", "", "", f"unavailable: {e}"])
                break
            tf_f, tf_b = flops / t_f, 2.5 * flops / t_b
            rows.append(["attention-gqa-fwd", name, seq, hq, hkv, f"{tf_f / 1e12:.1f}",
                         "TFLOP/s"])
            rows.append(["attention-gqa-bwd", name, seq, hq, hkv, f"{tf_b / 1e12:.1f}",
                         "TFLOP/s"])
            sweep.append({"seq": seq, "fwd_tflops": tf_f / 1e12, "bwd_tflops": tf_b / 1e12})
        out[name] = sweep
    return out


# Expert shapes (hidden, expert FFN width) of the catalog's MoE models: GPT-OSS 120B (OpenAI
# model card), DeepSeek-V3 (arXiv 2412.19437), Mixtral 8x7B (arXiv 2401.04088). fc1 is gated:
# n = 2 x FFN.
MOE_SHAPES = {"gpt-oss-120b": (2880, 2880), "deepseek-v3": (7168, 2048),
              "mixtral-8x7b": (4096, 14336)}


def measure_grouped(rows, ctx):
    """Grouped expert GEMMs as Megatron-Core/torchtitan run them (torch._grouped_mm, CUTLASS's
    grouped kernel), against the same GEMMs one launch per expert (replayed from a CUDA graph):
    local experts 4/16/32, 64-4096 tokens each,
    even routing. Fractions of the dense BF16 peak."""
    peak = ctx["peak"]["bf16"]
    out = []
    fp8_ok = hasattr(torch, "_scaled_grouped_mm")
    for model, (h, f) in MOE_SHAPES.items():
        for op, n, k in (("fc1", 2 * f, h), ("fc2", h, f)):
            for e in (4, 16, 32):
                for m in (64, 256, 1024, 4096):
                    tokens = e * m
                    a = torch.randn(tokens, k, device="cuda", dtype=torch.bfloat16)
                    w = torch.randn(e, n, k, device="cuda", dtype=torch.bfloat16)
                    offs = (torch.arange(1, e + 1, device="cuda", dtype=torch.int32) * m)
                    flops = 2.0 * tokens * n * k
                    rec = {"model": model, "op": op, "experts": e, "m": m, "n": n, "k": k}
                    fg = lambda: torch._grouped_mm(a, w.transpose(-2, -1), offs=offs)
                    fl = lambda: [torch.mm(a[i * m:(i + 1) * m], w[i].t()) for i in range(e)]
                    for name, fn in (("grouped", fg), ("loop", fl)):
                        try:
                            if name == "loop":
                                t = timed_graph([fn], reps=2, batches=3)
                            else:
                                t = timed(fn, warm=2, reps=5, graph=True)
                            frac = flops / t / peak
                            rec[name] = frac
                            rows.append(["grouped-bf16-" + name, f"{model}/{op}", e, m,
                                         f"{n}x{k}", f"{frac:.4f}", "fraction of dense peak"])
                        except Exception as ex:
                            rows.append(["grouped-bf16-" + name, f"{model}/{op}", e, m,
                                         f"{n}x{k}", "", f"unavailable: {ex}"])
                    if fp8_ok:
                        try:
                            a8 = a.to(torch.float8_e4m3fn)
                            w8 = w.to(torch.float8_e4m3fn)
                            sa = torch.ones(tokens, device="cuda", dtype=torch.float32)
                            sb = torch.ones(e, n, device="cuda", dtype=torch.float32)
                            f8 = lambda: torch._scaled_grouped_mm(
                                a8, w8.transpose(-2, -1), sa, sb, offs=offs,
                                out_dtype=torch.bfloat16)
                            t = timed(f8, warm=2, reps=5, graph=True)
                            frac = flops / t / ctx["peak"]["fp8"]
                            rec["fp8-grouped"] = frac
                            rows.append(["grouped-fp8-grouped", f"{model}/{op}", e, m, f"{n}x{k}",
                                         f"{frac:.4f}", "fraction of dense FP8 peak"])
                            del a8, w8
                        except Exception as ex:
                            fp8_ok = False
                            rows.append(["grouped-fp8-grouped", f"{model}/{op}", e, m, f"{n}x{k}",
                                         "", f"unavailable: {ex}"])
                    out.append(rec)
                    del a, w
            torch.cuda.empty_cache()
    return out


# Decode's linear layers: Llama 3 70B (hidden 8192, FFN 28672, 64 query and 8 K/V heads of
# 128; arXiv 2407.21783) at TP 1 and TP 8, (n, k) per rank.
DECODE_LAYERS = {
    "tp1/qkv": (10240, 8192), "tp1/o": (8192, 8192), "tp1/fc1": (57344, 8192),
    "tp1/fc2": (8192, 28672), "tp8/qkv": (1280, 8192), "tp8/o": (8192, 1024),
    "tp8/fc1": (7168, 8192), "tp8/fc2": (8192, 3584),
}


def measure_decode_gemms(rows, ctx):
    """Skinny GEMMs of m = 1..512 tokens against a layer's weights, BF16 and FP8: the achieved
    weight-read bandwidth (weight bytes over time, against the datasheet HBM bandwidth) and the
    fraction of the dense peak, which together show where decode leaves the bandwidth bound."""
    out = []
    ds = ctx["hbm_datasheet"] or 1
    for layer, (n, k) in DECODE_LAYERS.items():
        for prec in ("bf16", "fp8"):
            elem = 2 if prec == "bf16" else 1
            wbytes = n * k * elem
            c = copies_for(wbytes)
            try:
                ws = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(c)]
                if prec == "fp8":
                    ws = [x.to(torch.float8_e4m3fn) for x in ws]
            except Exception as ex:
                rows.append(["decode-gemm-" + prec, layer, "", n, k, "", f"unavailable: {ex}"])
                continue
            for m in (1, 4, 16, 32, 64, 128, 256, 512):
                try:
                    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                    if prec == "bf16":
                        fns = [lambda w=w: torch.mm(x, w.t()) for w in ws]
                    else:
                        if m % 16:
                            continue  # cuBLASLt FP8 wants dimensions in multiples of 16
                        x8 = x.to(torch.float8_e4m3fn)
                        fns = [lambda w=w: fp8_mm(x8, w.t()) for w in ws]
                    t = timed_graph(fns)
                    bw = (wbytes + m * k * elem + 2 * m * n) / t
                    frac = 2.0 * m * n * k / t / ctx["peak"][prec]
                    rows.append(["decode-gemm-" + prec, layer, m, n, k, f"{bw / ds:.4f}",
                                 "fraction of datasheet HBM"])
                    rows.append(["decode-gemm-" + prec + "-flops", layer, m, n, k,
                                 f"{frac:.4f}", "fraction of dense peak"])
                    rows.append(["decode-gemm-" + prec + "-time", layer, m, n, k,
                                 f"{t * 1e6:.2f}", "us"])
                    out.append({"layer": layer, "prec": prec, "m": m, "n": n, "k": k,
                                "us": t * 1e6, "hbm_frac": bw / ds, "peak_frac": frac})
                except Exception as ex:
                    rows.append(["decode-gemm-" + prec, layer, m, n, k, "",
                                 f"unavailable: {ex}"])
            del ws
            torch.cuda.empty_cache()
    return out


def measure_decode_attention(rows, ctx):
    """One new query token per sequence against a contiguous BF16 KV cache: Llama 3 70B's
    64 query and 8 K/V heads of 128 (TP 1), batch 8-128, context 1k-16k. Bytes: K and V read
    once; the achieved bandwidth against the datasheet."""
    from torch.nn.attention import sdpa_kernel
    ds = ctx["hbm_datasheet"] or 1
    out = []
    hq, hkv, d = 64, 8, 128
    for name in ("flash", "efficient", "cudnn"):
        be = sdpa_backends()[name]
        for bsz in (8, 32, 128):
            for ctxlen in (1024, 4096, 16384):
                kvbytes = 2 * bsz * hkv * ctxlen * d * 2
                if kvbytes > 4.5e9:
                    continue
                c = copies_for(kvbytes, cap=32)
                try:
                    q = torch.randn(bsz, hq, 1, d, device="cuda", dtype=torch.bfloat16)
                    kv = [(torch.randn(bsz, hkv, ctxlen, d, device="cuda", dtype=torch.bfloat16),
                           torch.randn(bsz, hkv, ctxlen, d, device="cuda", dtype=torch.bfloat16))
                          for _ in range(c)]
                    with sdpa_kernel(be):
                        fns = [lambda k=k, v=v: F.scaled_dot_product_attention(
                            q, k, v, enable_gqa=True) for k, v in kv]
                        t = timed_graph(fns)
                    bw = kvbytes / t
                    rows.append(["decode-attn", name, bsz, ctxlen, f"{hq}/{hkv}",
                                 f"{bw / ds:.4f}", "fraction of datasheet HBM"])
                    out.append({"backend": name, "batch": bsz, "ctx": ctxlen,
                                "us": t * 1e6, "hbm_frac": bw / ds})
                    del kv
                except Exception as ex:
                    rows.append(["decode-attn", name, bsz, ctxlen, f"{hq}/{hkv}", "",
                                 f"unavailable: {ex}"])
                    break
        torch.cuda.empty_cache()
    return out


def smi_clock():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
                               "--format=csv,noheader,nounits"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except Exception as e:
        return f"unavailable: {e}"


def square_gemm(prec, s=8192):
    """One s^3 product on random data in prec, as a callable: the load the sustained runs and
    the heat keep the board under."""
    a = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    if prec == "fp8":
        a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        return lambda: fp8_mm(a, b.t())
    return lambda: torch.mm(a, b)


def sustained_run(rows, prec, seconds, peak, calls):
    """8192^3 products in prec back to back for `seconds`, `calls` a timed batch: the first two
    seconds' rate against the last ten's, the sustained/burst ratio (Azure's method: minutes of
    the same GEMM), with nvidia-smi's clock, power and temperature every 5 s."""
    s = 8192
    fn = square_gemm(prec, s)
    flops = 2.0 * s * s * s
    samples, smi = [], []
    clock_start = smi_clock()
    t0 = time.time()
    next_smi = 5.0
    while time.time() - t0 < seconds:
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(calls):
            fn()
        e1.record()
        sync()
        el = time.time() - t0
        samples.append((el, calls * flops / (e0.elapsed_time(e1) / 1e3)))
        if el >= next_smi:
            smi.append([round(el, 1), smi_clock()])
            next_smi += 5.0
    first = [r for t, r in samples if t <= 2.0] or [samples[0][1]]
    last = [r for t, r in samples if t >= seconds - 10.0] or [samples[-1][1]]
    burst, sustained = max(first), statistics.mean(last)
    rows.append(["sustained", f"{prec}-{s}", s, s, s, f"{burst / peak:.4f}", "first 2 s"])
    rows.append(["sustained", f"{prec}-{s}", s, s, s, f"{sustained / peak:.4f}",
                 f"last 10 s of {seconds:.0f} s"])
    return {"burst_frac": burst / peak, "sustained_frac": sustained / peak,
            "ratio": sustained / burst, "seconds": seconds, "smi_before": clock_start,
            "smi_after": smi_clock(), "smi_every_5s": smi}


def measure_sustained(rows, ctx):
    """The sustained run in BF16."""
    return sustained_run(rows, "bf16", ctx["sustained_s"], ctx["peak"]["bf16"], calls=20)


def measure_mamf_search(rows, ctx):
    """A finer MAMF search than the transformer grid's: Bekman's published best shapes for the
    H100/H200 (2048x2048x13312 BF16; 1024x9216x14336 and 1280x4096x12032 FP8) and the
    neighbourhood m 1024-4096 by 256, n 2048-8192, k 12288-16384, both precisions."""
    peak = ctx["peak"]
    shapes = {(2048, 2048, 13312), (1024, 9216, 14336), (1280, 4096, 12032)}
    for m in range(1024, 4097, 256):
        for n in (2048, 4096, 6144, 8192):
            for k in (12288, 13312, 14336, 16384):
                shapes.add((m, n, k))
    best = {}
    for prec in ("bf16", "fp8"):
        for m, n, k in sorted(shapes):
            frac = gemm_frac(m, n, k, prec, peak)
            rows.append(["mamf-search", prec, m, n, k, f"{frac:.4f}", "fraction of dense peak"])
            if frac > best.get(prec, (0,))[0]:
                best[prec] = (frac, m, n, k)
    return {p: {"frac": v[0], "m": v[1], "n": v[2], "k": v[3]} for p, v in best.items()}


def measure_latency(rows, ctx):
    """What a small kernel costs beyond its bytes: device copies of 1 MB to 2 GB, and BF16
    GEMVs (m = 1) over weights of 1 MB to 512 MB, each replayed from a CUDA graph over rotated
    copies; time against bytes gives a fixed cost per kernel and the large-size bandwidth."""
    out = []
    ds = ctx["hbm_datasheet"] or 1
    for mb in (1, 2, 4, 8, 16, 32, 64, 128, 512, 2048):
        nbytes = mb << 20
        c = copies_for(nbytes, cap=512)
        src = [torch.empty(nbytes // 2, device="cuda", dtype=torch.bfloat16).normal_()
               for _ in range(c)]
        dst = [torch.empty_like(x) for x in src]
        fns = [lambda s=s, d=d: d.copy_(s) for s, d in zip(src, dst)]
        t = timed_graph(fns)
        rows.append(["latency-copy", "bf16", nbytes, "", "", f"{t * 1e6:.2f}", "us"])
        out.append({"kind": "copy", "bytes": 2 * nbytes, "us": t * 1e6,
                    "hbm_frac": 2 * nbytes / t / ds})
        del src, dst
    for n, k in ((512, 1024), (1024, 1024), (1024, 2048), (2048, 2048), (2048, 4096),
                 (4096, 4096), (4096, 8192), (8192, 8192), (8192, 16384), (16384, 16384)):
        wbytes = 2 * n * k
        c = copies_for(wbytes, cap=512)
        ws = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(c)]
        for m in (1, 16):
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            fns = [lambda w=w: torch.mm(x, w.t()) for w in ws]
            t = timed_graph(fns)
            rows.append(["latency-gemv", f"m{m}", n, k, wbytes, f"{t * 1e6:.2f}", "us"])
            out.append({"kind": f"gemv-m{m}", "n": n, "k": k, "bytes": wbytes, "us": t * 1e6,
                        "hbm_frac": wbytes / t / ds})
        del ws
        torch.cuda.empty_cache()
    return out


def measure_sustained_fp8(rows, ctx):
    """The sustained run in FP8 (per-tensor scaled): Azure's H200 ratio was measured in FP8,
    the transformer grid's in BF16; this says whether the precision moves it."""
    return sustained_run(rows, "fp8", min(60.0, ctx.get("sustained_s", 60.0)),
                         ctx["peak"]["fp8"], calls=40)


def heat(seconds, prec):
    """Back-to-back 8192^3 GEMMs for `seconds`: the board at its power limit and temperature, as
    minutes into a training step."""
    fn = square_gemm(prec)
    t0 = time.time()
    while time.time() - t0 < seconds:
        for _ in range(20):
            fn()
        sync()


def measure_gemms_hot(rows, ctx):
    """The transformer grid again, each precision after 45 s of heat: the sustained state a
    training step's kernels run in, against which the step model's operator times (curve x
    sustained factor) are checked."""
    peak = ctx["peak"]
    out = {}
    for prec in ("bf16", "fp8"):
        heat(45.0, prec)
        out[prec] = smi_clock()
        for m, n, k in gemm_shapes():
            frac = gemm_frac(m, n, k, prec, peak)
            rows.append(["gemm-hot", prec, m, n, k, f"{frac:.4f}", "fraction of dense peak"])
        out[prec + "_after"] = smi_clock()
    return out


SECTIONS = [("hbm", measure_hbm), ("mamf", measure_gemms), ("attention", measure_attention),
            ("attention_gqa", measure_attention_gqa), ("grouped", measure_grouped),
            ("decode_gemm", measure_decode_gemms), ("decode_attn", measure_decode_attention),
            ("sustained", measure_sustained), ("mamf_search", measure_mamf_search),
            ("latency", measure_latency), ("sustained_fp8", measure_sustained_fp8),
            ("mamf_hot", measure_gemms_hot)]


def write(out_dir, rows, summary):
    with open(os.path.join(out_dir, "kernels.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["section", "name", "a", "b", "c", "value", "unit"])
        w.writerows(rows)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(out_dir, "log.txt"), "w") as f:
        f.write("\n".join(LOG) + "\n")


def write_gemm_csv(rows, peak, path):
    """The GEMM grid as `strata calibrate --gemm` reads it (m, n, k, precision, time_us per
    call): the run's own cluster calibration (docs/models/calibration.md, "Your own
    cluster")."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["m", "n", "k", "precision", "time_us"])
        for sec, prec, m, n, k, value, _ in rows:
            if sec == "gemm" and value:
                t = 2.0 * float(m) * float(n) * float(k) / (float(value) * peak[prec])
                w.writerow([m, n, k, prec, f"{t * 1e6:.3f}"])


def gemm_csv_of_run(run_dir, path=None):
    """--gemm-csv RUN_DIR [PATH]: gemm.csv (at PATH, else in RUN_DIR) from a saved run's
    kernels.csv and its first summary's peaks."""
    if not os.path.isfile(os.path.join(run_dir, "kernels.csv")):
        sys.exit(f"{run_dir}: no kernels.csv (give the folder a run of this script wrote)")
    summaries = sorted(f for f in os.listdir(run_dir) if f.startswith("summary"))
    if not summaries:
        sys.exit(f"{run_dir}: no summary*.json to take the peaks from")
    with open(os.path.join(run_dir, summaries[0])) as f:
        peak = json.load(f)["peak_flops"]
    with open(os.path.join(run_dir, "kernels.csv"), newline="") as f:
        rows = list(csv.reader(f))[1:]
    write_gemm_csv(rows, peak, path or os.path.join(run_dir, "gemm.csv"))


def parse_args():
    import argparse
    names = [k for k, _ in SECTIONS]
    ap = argparse.ArgumentParser(
        description="Measure a GPU's GEMM, attention, HBM and sustained rates for Strata's "
        "calibration tables (docs/models/step-ops.md, 'Measured on an H200').")
    ap.add_argument("out_dir", nargs="?", default=os.environ.get("OUT", "."),
                    help="folder for kernels.csv, summary.json, log.txt and gemm.csv "
                    "(default: $OUT, else .)")
    ap.add_argument("budget", nargs="?", type=float, default=420.0,
                    help="seconds after which no further section starts (default 420)")
    ap.add_argument("sections", nargs="?", default=None,
                    help="comma-separated sections to run, of: " + ", ".join(names))
    ap.add_argument("--gemm-csv", nargs="+", metavar=("RUN_DIR", "PATH"),
                    help="write gemm.csv (at PATH, else in RUN_DIR) from a saved run, "
                    "without PyTorch or a GPU")
    a = ap.parse_args()
    if a.gemm_csv and len(a.gemm_csv) > 2:
        ap.error("--gemm-csv takes RUN_DIR and at most one PATH")
    if not (a.budget > 0):
        ap.error(f"budget: expected seconds above 0, got {a.budget:g}")
    a.only = set(a.sections.split(",")) if a.sections else None
    if a.only and not a.only <= set(names):
        ap.error("sections: unknown " + ", ".join(sorted(a.only - set(names))) +
                 "; expected some of " + ", ".join(names))
    return a


def main():
    a = parse_args()
    if a.gemm_csv:
        gemm_csv_of_run(a.gemm_csv[0], a.gemm_csv[1] if len(a.gemm_csv) == 2 else None)
        return
    if torch is None:
        sys.exit("measure_kernels.py needs PyTorch with CUDA (or --gemm-csv RUN_DIR)")
    out_dir, budget, only = a.out_dir, a.budget, a.only
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    name = torch.cuda.get_device_name(0)
    if name not in DENSE_PEAK:  # a fraction of a guessed peak would be a wrong figure
        sys.exit(f"no datasheet peaks for '{name}': add its dense BF16 and FP8 FLOP/s to "
                 "DENSE_PEAK")
    ctx = {"peak": DENSE_PEAK[name],
           "hbm_datasheet": HBM_DATASHEET.get(name)}
    props = torch.cuda.get_device_properties(0)
    summary = {"gpu": name, "sms": props.multi_processor_count,
               "memory_gib": props.total_memory / 2**30, "torch": torch.__version__,
               "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
               "peak_flops": ctx["peak"], "smi_idle": smi_clock(),
               "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    rows = []
    t0 = time.time()
    for key, fn in SECTIONS:
        if only and key not in only:
            continue
        left = budget - (time.time() - t0)
        if key in ("sustained", "sustained_fp8"):
            ctx["sustained_s"] = min(60.0, left - 5.0)
            if ctx["sustained_s"] < 20.0:
                log(f"{key}: skipped, {left:.0f} s of the budget left")
                continue
        elif left < 15.0:
            log(f"{key}: skipped, {left:.0f} s of the budget left")
            continue
        s0 = time.time()
        try:
            summary[key] = fn(rows, ctx)
            log(f"{key}: {time.time() - s0:.1f} s")
        except Exception:
            summary[key] = {"error": traceback.format_exc()}
            log(f"{key}: FAILED after {time.time() - s0:.1f} s\n{traceback.format_exc()}")
        torch.cuda.empty_cache()
        summary["wall_s"] = time.time() - t0
        write(out_dir, rows, summary)
        write_gemm_csv(rows, ctx["peak"], os.path.join(out_dir, "gemm.csv"))
    brief = {k: summary.get(k) for k in ("gpu", "torch", "cudnn", "mamf", "hbm", "sustained",
                                         "wall_s")}
    print(json.dumps(brief, indent=1))


if __name__ == "__main__":
    main()
