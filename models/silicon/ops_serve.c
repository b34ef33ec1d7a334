/* The attention of an inference iteration and the KV cache it reads (models/silicon/ops.h,
 * "Serving"): the same fused-kernel sweeps and roofline as training's core, on the shapes a
 * serving engine runs. docs/models/inference.md. */
#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "models/silicon/ops_internal.h"

/* The query/key dimensions of one GPU of w (its tp): a sequence of one token, whose seq_len the
 * graph builder would otherwise read. */
static dims dims_of(const st_workload_cfg *w)
{
    st_workload_cfg one = *w;
    one.seq_len = 1;
    one.parallel.cp = 1;
    one.parallel.sequence_parallel = 0;
    return st__ops_dims_of(&one, 1);
}

/* Bytes of one cached K or V element: BF16, or FP8 under kv_cache_dtype: fp8. */
static double kv_elem(const st_workload_cfg *w)
{
    return w->inference.kv_fp8 ? 1.0 : 2.0;
}

/* The fused core of `queries` new tokens reading `keys` keys, `pairs` query-key pairs among
 * them, QK^T over da and PV over dv. The core's `flops` is the full square the training graph
 * counts, timed at half (the causal mask), so twice the work goes in: 4 pairs (da + dv). Bytes:
 * a query head's Q and O in BF16 (2 bytes), a KV group's K and V at the cache's width, and the
 * fp32 log-sum-exp per query and head, as the training core counts them. The kernel's sweep is
 * read at `sweep_keys`: all the keys, or a windowed layer's st__attn_window_sweep_keys. */
static double core_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double queries,
                        double keys, double pairs, double sweep_keys)
{
    dims d = dims_of(w);
    st_op op = {.name = "attn",
                .kind = ST_OP_ATTN,
                .prec = ST_PREC_BF16,
                .attn_kernel = (int)w->attention,
                .attn_release = w->cudnn_release,
                .m = d.heads,
                .n = queries,
                .k = sweep_keys,
                .head_dim = st__ops_head_dim(&d)};
    op.flops = 4.0 * pairs * (d.da + d.dv);
    op.bytes =
        2.0 * queries * (d.da + d.dv) + kv_elem(w) * keys * 2.0 * d.dkv + 4.0 * queries * d.heads;
    return st__ops_time_forward(gpu, &op);
}

/* Every query against the cached keys and, causally, against the new ones before it:
 * q (past + q/2) pairs. Multi-head latent attention prefills as ordinary attention over its
 * heads' keys and values, the cached ones up-projected from their latents first (vLLM's MLA
 * backends: a chunk after a cached context runs the key/value up projection over that context,
 * in BF16, the absorbed weights' precision). */
double st_ops_attn_prefill_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double queries,
                                double past)
{
    if (!(queries > 0))
        return 0;
    double t = core_time(w, gpu, queries, past + queries, queries * (past + queries / 2.0),
                         past + queries);
    if (past > 0 && st_llm_is_mla(w->model)) {
        dims d = dims_of(w);
        t += st_ops_gemm_time(gpu, ST_PREC_BF16, past, d.kv_up, d.kvl);
    }
    return t;
}

/* The query-key pairs of `queries` new tokens after `past` on a layer whose queries see at
 * most `window` keys each (themselves included): the query at position p sees min(p + 1,
 * window), summed over p = past .. past + queries - 1. */
static double window_pairs(double queries, double past, double window)
{
    double a = past + 1, b = past + queries, s = 0; /* keys of the first and last query */
    if (a <= window) { /* the ones inside the window's first fill: a + ... + min(b, window) */
        double e = b < window ? b : window;
        s += (a + e) * (e - a + 1) / 2;
    }
    double from = a > window + 1 ? a : window + 1; /* the ones that see a full window */
    if (b >= from)
        s += (b - from + 1) * window;
    return s;
}

/* The chunk reads its own keys and the window - 1 before its first query. */
double st_ops_attn_prefill_window_time(const st_workload_cfg *w, const st_gpu_spec *gpu,
                                       double queries, double past, double window)
{
    if (!(queries > 0))
        return 0;
    if (past + queries <= window) /* no query reaches past the window: the causal core */
        return st_ops_attn_prefill_time(w, gpu, queries, past);
    double keys = queries + (past < window - 1 ? past : window - 1);
    return core_time(w, gpu, queries, keys, window_pairs(queries, past, window),
                     st__attn_window_sweep_keys(window, keys));
}

/* A decode kernel (FlashAttention's or FlashInfer's paged decode) reads every cached K and V
 * once and does 2 (da + dv) FLOPs per key: per byte of cache, (da + dv) / (2 dkv) FLOPs, the
 * query heads per KV group (1 to 8 for the catalog's models), against the tens to hundreds of
 * FLOPs per byte a GPU's ridge point sits at. So the time is the bytes at the bandwidth the
 * decode kernel achieves (st_decode_attn_efficiency: below the part's HBM share on MI300X); the
 * compute term is left out.
 * Multi-head latent attention decodes absorbed (DeepSeek-V2, arXiv 2405.04434, section 2.1.3;
 * FlashMLA): each of the rank's heads scores its query against the cached latent and rotary key
 * (kv_lora_rank + qk_rope_head_dim wide) and sums the latents, 2 (2 kv_lora_rank +
 * qk_rope_head_dim) FLOPs a head per cached token, one latent read by every head: at 16 heads
 * a rank about 30 FLOPs a byte, at 128 about 240, near a GPU's ridge. So its time is the larger
 * of its cache's bytes and its work at FlashMLA's share of the peak. */
void st_ops_attn_decode_of(const st_workload_cfg *w, st_ops_decode *out)
{
    dims d = dims_of(w);
    *out = (st_ops_decode){
        .elem = kv_elem(w), .qo = d.da + d.dv, .heads = d.heads, .kvw = 2.0 * d.dkv};
    if (d.mla) {
        out->kvw = d.kvl + d.rope_d;
        out->qo = d.heads * (2.0 * d.kvl + d.rope_d);
        out->flops = d.heads * 2.0 * (2.0 * d.kvl + d.rope_d);
    }
}

double st_ops_attn_decode_time_of(const st_ops_decode *d, const st_gpu_spec *gpu, double seqs,
                                  double keys)
{
    if (!(seqs > 0))
        return 0;
    st_op op = {.name = "attn_decode", .kind = ST_OP_MEMORY};
    op.bytes = d->elem * keys * d->kvw + 2.0 * seqs * d->qo + 4.0 * seqs * d->heads;
    if (!(d->flops > 0)) /* the paged kernel at its own share of the bandwidth */
        return st__ops_stream_s(gpu, op.bytes, st_decode_attn_efficiency(gpu));
    double t = st__ops_time_forward(gpu, &op);
    if (t > 0) { /* as a GEMM's, one kernel boundary either way */
        double work =
            d->flops * keys /
            (st_gpu_peak(gpu, st_mla_decode_mma(gpu, d->elem)) * st_mla_decode_efficiency(gpu));
        double k = st_kernel_boundary_s(gpu);
        t = st__ops_stream_and_compute(work, t - k) + k;
    }
    return t;
}

double st_ops_attn_decode_time(const st_workload_cfg *w, const st_gpu_spec *gpu, double seqs,
                               double keys)
{
    st_ops_decode d;
    st_ops_attn_decode_of(w, &d);
    return st_ops_attn_decode_time_of(&d, gpu, seqs, keys);
}

/* Multi-head latent attention caches one latent and rotary key a token, whole on every
 * tensor-parallel rank (the heads share it: vLLM's MLAAttentionSpec, one KV head). */
double st_ops_kv_bytes_per_token(const st_workload_cfg *w)
{
    dims d = dims_of(w);
    if (d.mla)
        return (double)w->model->layers * (d.kvl + d.rope_d) * kv_elem(w);
    return (double)w->model->layers * 2.0 * d.dkv * kv_elem(w);
}
