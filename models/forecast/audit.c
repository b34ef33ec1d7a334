/* Pre-flight audit checks, the per-level checks of the enterprise AI-infrastructure guide the
 * project starts from (audit.h), each with the value and the limit it was held to. */
#include "models/forecast/audit.h"

#include <stdio.h>

#include "models/silicon/gpu.h"
#include "sim/xalloc.h"

#include "sim/units.h"

const char *st_audit_status_name(st_audit_status s)
{
    static const char *const names[] = {"pass", "warn", "fail"};
    return names[s];
}

static st_audit *add(st_audit *out, size_t *k, size_t cap, const char *level, const char *check,
                     st_audit_status st, double value, double limit)
{
    if (*k >= cap)
        return NULL;
    st_audit *a = &out[(*k)++];
    a->level = level;
    snprintf(a->check, sizeof a->check, "%s", check);
    a->status = st;
    a->value = value;
    a->limit = limit;
    a->message[0] = '\0';
    return a;
}

/* The seed: "a full 4- or 8-GPU baseboard" per node. */
static void audit_baseboard(const st_cluster_cfg *c, st_audit *out, size_t *k, size_t cap)
{
    int full = c->gpus_per_node == 4 || c->gpus_per_node == 8;
    st_audit *a =
        add(out, k, cap, "silicon", "full baseboard", full ? ST_AUDIT_PASS : ST_AUDIT_WARN,
            (double)c->gpus_per_node, c->gpus_per_node <= 4 ? 4 : 8);
    if (a)
        snprintf(a->message, sizeof a->message, "%lld GPUs per node%s", (long long)c->gpus_per_node,
                 full ? "" : ": not a full 4- or 8-GPU baseboard");
}

static void audit_job(const st_cluster_cfg *c, const st_forecast *f, st_audit *out, size_t *k,
                      size_t cap)
{
    const st_workload_cfg *w = f->w;
    char check[64], used[32], have[32], over[32];
    snprintf(check, sizeof check, "memory per GPU: %s", w->name);
    const st_memory *m = &f->mem;
    st_audit *a = add(out, k, cap, "silicon", check, m->fits ? ST_AUDIT_PASS : ST_AUDIT_FAIL,
                      m->total, m->capacity);
    st_unit_format(m->total, ST_DIM_BYTES, used, sizeof used);
    st_unit_format(m->capacity, ST_DIM_BYTES, have, sizeof have);
    st_unit_format(m->overflow_bytes, ST_DIM_BYTES, over, sizeof over);
    if (a && m->fits)
        snprintf(a->message, sizeof a->message, "%s of %s HBM", used, have);
    else if (a)
        snprintf(a->message, sizeof a->message, "%s of %s HBM: over by %s; %s overflow", used, have,
                 over, st_mem_term_name((st_mem_term)m->overflow_term));
    /* The seed: NVLink/NVSwitch "keeps tensor parallelism inside the node". */
    snprintf(check, sizeof check, "tensor parallel in NVLink domain: %s", w->name);
    int inside = w->parallel.tp <= c->nvlink_domain;
    a = add(out, k, cap, "silicon", check, inside ? ST_AUDIT_PASS : ST_AUDIT_WARN,
            (double)w->parallel.tp, (double)c->nvlink_domain);
    if (a)
        snprintf(a->message, sizeof a->message, "tp %lld %s the %lld-GPU NVLink domain",
                 (long long)w->parallel.tp, inside ? "fits in" : "spans beyond",
                 (long long)c->nvlink_domain);
}

/* Memory headroom: a plan that fits with under this fraction of HBM left runs only if what the
 * memory model leaves out fits in what is left: the allocator's fragmentation (GMLake, arXiv
 * 2401.08156, removes up to 33% of the memory PyTorch's caching allocator reserves in
 * large-model training as fragmentation) and
 * the transient buffers listed in docs/models/memory-model.md. torchtitan's measured plans peak
 * at up to 89% of their GPU's memory (pytorch/torchtitan benchmarks/
 * llama3_h100_202412_torchtitan.md, Table 6: 84.9 of 95 GiB), so a forecast above 90% is
 * where a real run starts to fail. */
static const double headroom_warn = 0.10;

/* Only for a plan that fits: one that does not already fails the memory check. */
static void audit_headroom(const st_forecast *f, st_audit *out, size_t *k, size_t cap)
{
    const st_memory *m = &f->mem;
    if (!m->fits)
        return;
    char check[64], left[32], have[32];
    snprintf(check, sizeof check, "memory headroom: %s", f->w->name);
    double free_b = m->capacity - m->total, limit = headroom_warn * m->capacity;
    st_audit *a = add(out, k, cap, "silicon", check,
                      free_b >= limit ? ST_AUDIT_PASS : ST_AUDIT_WARN, free_b, limit);
    st_unit_format(free_b, ST_DIM_BYTES, left, sizeof left);
    st_unit_format(m->capacity, ST_DIM_BYTES, have, sizeof have);
    if (a && free_b >= limit)
        snprintf(a->message, sizeof a->message, "%s of %s HBM left", left, have);
    else if (a)
        snprintf(a->message, sizeof a->message,
                 "%s of %s HBM left, under %.0f%%: allocator fragmentation and transient buffers "
                 "may not fit",
                 left, have, 100 * headroom_warn);
}

/* The seed: "a 2 TB checkpoint should dump in under 15 s", i.e. at least 133 GB/s of tier
 * write bandwidth; held as a rate, so a job's checkpoint of S bytes should dump in 15 s x S /
 * 2 TB. And an ingest that cannot keep up slows every step. */
static void audit_storage(const st_cluster_cfg *c, const st_forecast *f, st_audit *out, size_t *k,
                          size_t cap)
{
    const st_workload_cfg *w = f->w;
    char check[64], size[32];
    if (f->has_ckpt) {
        double limit = 15.0 * f->ckpt.size_bytes / 2e12;
        int ok = f->ckpt.dump_s <= limit;
        snprintf(check, sizeof check, "checkpoint dump: %s", w->name);
        st_audit *a = add(out, k, cap, "storage", check, ok ? ST_AUDIT_PASS : ST_AUDIT_WARN,
                          f->ckpt.dump_s, limit);
        st_unit_format(f->ckpt.size_bytes, ST_DIM_BYTES, size, sizeof size);
        if (a)
            snprintf(a->message, sizeof a->message,
                     "%s dumps in %.3g s%s (the seed: 2 TB in under 15 s, so %.3g s here)", size,
                     f->ckpt.dump_s, ok ? "" : ", slower than", limit);
    }
    const st_tier_cfg *tier = f->has_ckpt ? &c->tiers[w->checkpoint.tier] : NULL;
    if (tier && tier->capacity_bytes > 0) {
        /* A save must not overwrite the last restorable one: the tier holds two at a time. */
        double need = 2 * f->ckpt.size_bytes, have_b = tier->capacity_bytes;
        st_audit_status st = need <= have_b                 ? ST_AUDIT_PASS
                             : f->ckpt.size_bytes <= have_b ? ST_AUDIT_WARN
                                                            : ST_AUDIT_FAIL;
        char have[32];
        snprintf(check, sizeof check, "checkpoint capacity: %s", w->name);
        st_audit *a = add(out, k, cap, "storage", check, st, need, have_b);
        st_unit_format(f->ckpt.size_bytes, ST_DIM_BYTES, size, sizeof size);
        st_unit_format(have_b, ST_DIM_BYTES, have, sizeof have);
        if (a)
            snprintf(a->message, sizeof a->message,
                     "two checkpoints of %s (the restorable one and the one being written) %s "
                     "tier '%s' of %s",
                     size, st == ST_AUDIT_PASS ? "fit" : "do not fit", tier->name, have);
    }
    if (f->ingest.need_bps > 0) {
        int ok = f->ingest.slowdown <= 1;
        snprintf(check, sizeof check, "data ingest: %s", w->name);
        st_audit *a = add(out, k, cap, "storage", check, ok ? ST_AUDIT_PASS : ST_AUDIT_WARN,
                          f->ingest.got_bps, f->ingest.need_bps);
        char got[32], need[32];
        st_unit_format(f->ingest.got_bps, ST_DIM_BANDWIDTH, got, sizeof got);
        st_unit_format(f->ingest.need_bps, ST_DIM_BANDWIDTH, need, sizeof need);
        if (a)
            snprintf(a->message, sizeof a->message, "gets %s of the %s the step needs%s", got, need,
                     ok ? "" : ": every step waits for data");
    }
}

st_audit *st_audit_run(const st_cluster_cfg *c, const st_forecast *f, size_t n, size_t *count)
{
    size_t k = 0, cap = 1 + 6 * n;
    st_audit *out = st_xcalloc(cap, sizeof *out);
    audit_baseboard(c, out, &k, cap);
    for (size_t i = 0; i < n; i++)
        if (f[i].w) {
            audit_job(c, &f[i], out, &k, cap);
            audit_headroom(&f[i], out, &k, cap);
            audit_storage(c, &f[i], out, &k, cap);
        }
    *count = k;
    return out;
}
