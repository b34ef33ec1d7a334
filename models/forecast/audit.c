/* Pre-flight audit checks, the per-level checks of the enterprise AI-infrastructure guide the
 * project follows (audit.h), each with the value and the limit it was held to. Every check is
 * one function and one row of `checks` at the end of this file: a new check adds both. */
#include "models/forecast/audit.h"
#include "models/forecast/audit_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/fabric/topo.h"
#include "models/silicon/gpu.h"
#include "models/silicon/ub_cfg.h"
#include "sim/units.h"
#include "sim/xalloc.h"

const char *st_audit_status_name(st_audit_status s)
{
    static const char *const names[] = {"pass", "warn", "fail"};
    return names[s];
}

/* Append the text fmt makes, with its NUL, to out->text; returns its offset. */
static size_t keep_text(audit_list *out, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        ST_BUG("audit text does not format: '%s'", fmt);
    out->text = st_xgrow(out->text, 1, out->len + (size_t)n + 1, &out->text_cap);
    vsnprintf(out->text + out->len, (size_t)n + 1, fmt, again);
    va_end(again);
    size_t at = out->len;
    out->len += (size_t)n + 1;
    return at;
}

const st_audit_check st_audit_checks[] = {
    {"silicon", "full baseboard", "audit.full_baseboard"},
    {"fabric", "switch ports", "fabric.switch_ports"},
    {"silicon", "memory per GPU", "the GPU's HBM"},
    {"silicon", "tensor parallel in NVLink domain", "nvlink_domain"},
    {"silicon", "TP overlap settings for the GPU", "the GPU tp_comm_overlap_cfg is tuned for"},
    {"silicon", "memory headroom", "audit.memory_headroom"},
    {"storage", "checkpoint dump", "audit.checkpoint_dump"},
    {"storage", "checkpoint capacity", "two checkpoints on its tier's capacity"},
    {"storage", "data ingest", "what the step needs"},
    {"storage", "checkpoint write load", "its tier's bandwidth: all saves and ingest"},
    {"storage", "checkpoint write share", "audit.checkpoint_write_share"},
    {"orchestration", "GPUs held by one job", "no GPU held by two jobs at once"},
    {"orchestration", "service latency targets", "the service's slo, at its request stream"},
    {"plant", "rack feed against breaker", "80% of racks.feed.breaker"},
    {"plant", "facility peak against capacity", "facility.power_capacity"},
    {"plant", "facility heat against cooling", "facility.cooling_capacity"},
    {"plant", "heat to air against air cooling", "facility.air_cooling_capacity"},
    {"plant", "heat to liquid against liquid cooling", "facility.liquid_cooling_capacity"},
    {"plant", "power ramp (di/dt)", "facility.ramp_limit"},
    {"plant", "rack heat against cooling", "the rack's cooling"},
    {"plant", "junction temperature", "audit.junction_limit, 75 C by default"},
    {"plant", "UPS load against rating", "facility.ups.rating, warned past 80%"},
};
const size_t st_audit_n_checks = sizeof st_audit_checks / sizeof st_audit_checks[0];

/* Whether a finding at level named check is one of st_audit_checks: its name, or its name and
 * ": JOB". */
static int listed(const char *level, const char *check)
{
    for (size_t i = 0; i < st_audit_n_checks; i++) {
        size_t n = strlen(st_audit_checks[i].name);
        if (strcmp(st_audit_checks[i].level, level) == 0 &&
            strncmp(check, st_audit_checks[i].name, n) == 0 &&
            (check[n] == '\0' || strncmp(check + n, ": ", 2) == 0))
            return 1;
    }
    return 0;
}

/* Append a finding whose check is the text check_fmt makes; its message is empty until
 * st__audit_say(). */
void st__audit_add(audit_list *out, const char *level, st_audit_status st, double value,
                   double limit, const char *check_fmt, ...)
{
    out->items = st_xgrow(out->items, sizeof *out->items, out->n + 1, &out->cap);
    out->at = st_xgrow(out->at, sizeof *out->at, 2 * out->n + 2, &out->at_cap);
    st_audit *a = &out->items[out->n];
    memset(a, 0, sizeof *a);
    a->level = level;
    a->status = st;
    a->value = value;
    a->limit = limit;
    va_list ap;
    va_start(ap, check_fmt);
    out->at[2 * out->n] = keep_text(out, check_fmt, ap);
    va_end(ap);
    out->at[2 * out->n + 1] = out->at[2 * out->n] + strlen(out->text + out->at[2 * out->n]);
    if (!listed(level, out->text + out->at[2 * out->n])) /* `strata audit --help` lists each */
        ST_BUG("audit check '%s' (%s) is not in st_audit_checks", out->text + out->at[2 * out->n],
               level);
    out->n++;
}

/* The message of the finding added last. */
void st__audit_say(audit_list *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out->at[2 * out->n - 1] = keep_text(out, fmt, ap);
    va_end(ap);
}

/* Whether a node of gpn GPUs is a full baseboard of the target. */
static int full_board(const st_audit_cfg *t, int64_t gpn)
{
    for (int i = 0; i < t->n_baseboard; i++)
        if (t->baseboard[i] == gpn)
            return 1;
    return 0;
}

/* The node size the baseboard check reads: the cluster's, or, where the pools' nodes are of
 * several sizes, the first pool's whose node is not a full baseboard (the first pool's when
 * every one is), that pool's index into *pool (-1: the cluster's). */
static int64_t board_size(const st_cluster_cfg *c, const st_audit_cfg *t, int *pool)
{
    *pool = -1;
    for (int k = 0; !st_pools_one_node_size(c) && k < c->n_pools; k++)
        if (!full_board(t, st_pools_gpus_per_node(c, k)))
            return *pool = k, st_pools_gpus_per_node(c, k);
    return c->gpus_per_node;
}

/* The guide's pre-flight audit: "a full 4- or 8-GPU baseboard" per node; the sizes are the
 * `audit.full_baseboard` target. The limit is the smallest full size that holds the node's
 * GPUs (the largest when none does). */
static void audit_baseboard(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    int pool;
    int64_t gpn = board_size(in->c, t, &pool), limit = t->baseboard[t->n_baseboard - 1];
    int full = 0;
    char sizes[96] = "";
    for (int i = t->n_baseboard; i-- > 0;) {
        full |= t->baseboard[i] == gpn;
        if (t->baseboard[i] >= gpn)
            limit = t->baseboard[i];
    }
    for (int i = 0; i < t->n_baseboard; i++) {
        size_t len = strlen(sizes);
        const char *sep = i == 0 ? "" : i + 1 == t->n_baseboard ? "- or " : "-, ";
        snprintf(sizes + len, sizeof sizes - len, "%s%lld", sep, (long long)t->baseboard[i]);
    }
    st__audit_add(out, "silicon", full ? ST_AUDIT_PASS : ST_AUDIT_WARN, (double)gpn, (double)limit,
                  "full baseboard");
    /* the pool whose node it is, where the pools' nodes differ (it said "6 GPUs per node" of
       a cluster of 8- and 6-GPU pools) */
    st__audit_say(out, "%s%s%s%lld GPUs per node%s%s%s", pool >= 0 ? "pool '" : "",
                  pool >= 0 ? in->c->pools[pool].name : "", pool >= 0 ? "': " : "", (long long)gpn,
                  full ? "" : ": not a full ", full ? "" : sizes, full ? "" : "-GPU baseboard");
}

/* The fabric level: every leaf, spine and core switch needs no more ports than the switch has
 * (cluster.fabric.switch_ports; a two-tier spine has one per leaf, models/fabric/topo.h). The
 * value is the most ports one switch needs, the limit the switch's. No row for a fabric the
 * topology model refuses (the loader has said why) or a cluster with no network switch. */
static void audit_switch_ports(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    static const char *const what[] = {
        [ST_LEVEL_NIC] = "a leaf", [ST_LEVEL_LEAF] = "a spine", [ST_LEVEL_SPINE] = "a core"};
    st_topo *topo = NULL;
    st_err err = {0};
    int64_t has = in->c->fabric.switch_ports;
    if (has < 1 || st_topo_new(in->c, &topo, &err))
        return;
    st_level lv = ST_LEVEL_NIC;
    int64_t most = st_topo_most_ports(topo, &lv);
    st_topo_free(topo);
    if (most < 1)
        return;
    st__audit_add(out, "fabric", most <= has ? ST_AUDIT_PASS : ST_AUDIT_FAIL, (double)most,
                  (double)has, "switch ports");
    st__audit_say(out, "%s needs %lld ports, %s the %lld of a switch%s", what[lv], (long long)most,
                  most <= has ? "within" : "more than", (long long)has,
                  lv == ST_LEVEL_LEAF && most > has ? " (a port per leaf of its pod)" : "");
}

static void audit_memory(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                         audit_list *out)
{
    (void)in;
    (void)t;
    char used[32], have[32], over[32];
    const st_memory *m = &f->mem;
    st__audit_add(out, "silicon", m->fits ? ST_AUDIT_PASS : ST_AUDIT_FAIL, m->total, m->capacity,
                  "memory per GPU: %s", f->w->name);
    st_unit_format(m->total, ST_DIM_BYTES, used, sizeof used);
    st_unit_format(m->capacity, ST_DIM_BYTES, have, sizeof have);
    st_unit_format(m->overflow_bytes, ST_DIM_BYTES, over, sizeof over);
    if (m->fits)
        st__audit_say(out, "%s of %s HBM", used, have);
    else
        st__audit_say(out, "%s of %s HBM: over by %s; %s overflow", used, have, over,
                      st_mem_term_name((st_mem_term)m->overflow_term));
}

/* Memory headroom against audit.memory_headroom (models/config/config.c gives its source); only
 * for a plan that fits: one that does not already fails the memory check. */
static void audit_headroom(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                           audit_list *out)
{
    (void)in;
    const st_memory *m = &f->mem;
    if (!m->fits)
        return;
    char left[32], have[32];
    double free_b = m->capacity - m->total, limit = t->memory_headroom * m->capacity;
    int ok = free_b >= limit;
    st__audit_add(out, "silicon", ok ? ST_AUDIT_PASS : ST_AUDIT_WARN, free_b, limit,
                  "memory headroom: %s", f->w->name);
    st_unit_format(free_b, ST_DIM_BYTES, left, sizeof left);
    st_unit_format(m->capacity, ST_DIM_BYTES, have, sizeof have);
    if (ok)
        st__audit_say(out, "%s of %s HBM left", left, have);
    else
        st__audit_say(
            out,
            "%s of %s HBM left, under %.4g%%: allocator fragmentation and transient buffers "
            "may not fit",
            left, have, 100 * t->memory_headroom);
}

/* The guide's silicon level: NVLink/NVSwitch "keeps tensor parallelism inside the node". */
static void audit_tp_domain(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                            audit_list *out)
{
    (void)t;
    const st_workload_cfg *w = f->w;
    int64_t dom = st_pools_nvlink_domain(in->c, in->c->n_pools > 0 ? w->pool : 0); /* its pool's */
    int inside = w->parallel.tp <= dom;
    st__audit_add(out, "silicon", inside ? ST_AUDIT_PASS : ST_AUDIT_WARN, (double)w->parallel.tp,
                  (double)dom, "tensor parallel in NVLink domain: %s", w->name);
    st__audit_say(out, "tp %lld %s the %lld-GPU NVLink domain", (long long)w->parallel.tp,
                  inside ? "fits in" : "spans beyond", (long long)dom);
}

/* TP-overlap settings tuned on one GPU architecture (parallel.tp_comm_overlap_cfg: the SMs each
 * collective holds are chosen against that GPU's SM count and GEMM speed) on another: warned,
 * not refused, as the model times them on the job's GPU all the same. Only where the job
 * overlaps TP communication with settings other than Transformer Engine's own. */
static void audit_tp_overlap_cfg(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                                 audit_list *out)
{
    (void)t;
    const st_parallel_cfg *p = &f->w->parallel;
    st_gpu_arch tuned = st_ub_cfg_arch(p->tp_comm_overlap_cfg);
    const st_gpu_spec *gpu = st_pools_gpu_of_workload(in->c, f->w);
    if (!p->tp_comm_overlap || p->tp <= 1 || tuned == ST_GPU_ARCH_UNKNOWN || !gpu)
        return;
    int same = gpu->arch == tuned;
    st__audit_add(out, "silicon", same ? ST_AUDIT_PASS : ST_AUDIT_WARN, same, 1,
                  "TP overlap settings for the GPU: %s", f->w->name);
    st__audit_say(out, "'%s' was tuned on %s GPUs; this job runs on %s%s",
                  st_ub_cfg_names[p->tp_comm_overlap_cfg], st_gpu_arch_name(tuned),
                  st_gpu_arch_name(gpu->arch), same ? "" : ": its SMs per collective may not suit");
}

/* The guide's storage level: "a 2 TB checkpoint should dump in under 15 s" (the
 * `audit.checkpoint_dump` target), i.e. at least 133 GB/s of tier write bandwidth; held as a
 * rate, so a job's checkpoint of S bytes should dump in within x S / size. */
static void audit_ckpt_dump(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                            audit_list *out)
{
    (void)in;
    if (!f->has_ckpt)
        return;
    char size[32], tsize[32], twithin[32];
    double limit = t->ckpt_dump_s * f->ckpt.size_bytes / t->ckpt_dump_bytes;
    int ok = f->ckpt.dump_s <= limit;
    st__audit_add(out, "storage", ok ? ST_AUDIT_PASS : ST_AUDIT_WARN, f->ckpt.dump_s, limit,
                  "checkpoint dump: %s", f->w->name);
    st_unit_format(f->ckpt.size_bytes, ST_DIM_BYTES, size, sizeof size);
    st_unit_format(t->ckpt_dump_bytes, ST_DIM_BYTES, tsize, sizeof tsize);
    st_unit_format(t->ckpt_dump_s, ST_DIM_TIME, twithin, sizeof twithin);
    st__audit_say(out,
                  "%s dumps in %.4g s, %s the checkpoint dump target (%s in %s, so %.4g s at this "
                  "size)",
                  size, f->ckpt.dump_s, ok ? "within" : "slower than", tsize, twithin, limit);
}

/* A save must not overwrite the last restorable one: the tier holds two at a time. */
static void audit_ckpt_capacity(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                                audit_list *out)
{
    (void)t;
    const st_tier_cfg *tier = f->has_ckpt ? &in->c->tiers[f->w->checkpoint.tier] : NULL;
    if (!tier || tier->capacity_bytes <= 0)
        return;
    double need = 2 * f->ckpt.size_bytes, have_b = tier->capacity_bytes;
    st_audit_status st = need <= have_b                 ? ST_AUDIT_PASS
                         : f->ckpt.size_bytes <= have_b ? ST_AUDIT_WARN
                                                        : ST_AUDIT_FAIL;
    char size[32], have[32];
    st__audit_add(out, "storage", st, need, have_b, "checkpoint capacity: %s", f->w->name);
    st_unit_format(f->ckpt.size_bytes, ST_DIM_BYTES, size, sizeof size);
    st_unit_format(have_b, ST_DIM_BYTES, have, sizeof have);
    st__audit_say(out,
                  "two checkpoints of %s (the restorable one and the one being written) %s tier "
                  "'%s' of %s",
                  size, st == ST_AUDIT_PASS ? "fit" : "do not fit", tier->name, have);
}

/* An ingest that cannot keep up slows every step. */
static void audit_ingest(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                         audit_list *out)
{
    (void)in;
    (void)t;
    if (f->ingest.need_bps <= 0)
        return;
    int ok = f->ingest.slowdown <= 1;
    char got[32], need[32];
    st__audit_add(out, "storage", ok ? ST_AUDIT_PASS : ST_AUDIT_WARN, f->ingest.got_bps,
                  f->ingest.need_bps, "data ingest: %s", f->w->name);
    st_unit_format(f->ingest.got_bps, ST_DIM_BANDWIDTH, got, sizeof got);
    st_unit_format(f->ingest.need_bps, ST_DIM_BANDWIDTH, need, sizeof need);
    st__audit_say(out, "gets %s of the %s the step needs%s", got, need,
                  ok ? "" : ": every step waits for data");
}

/* The service-demand law (Lazowska et al. 1984, chapter 3; storage-and-failures.md, "Write
 * load"): tier k's media are busy sum(written / write) + sum(read / read) of the time, over
 * every job's steady checkpoint writes and data ingest on it. At 1 they are saturated: saves
 * commit later than measured alone and every ingest on the tier slows. A local-nvme tier is
 * each job's own drives, so only that job's load counts. */
static void audit_write_load(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *me,
                             audit_list *out)
{
    (void)t;
    if (!me->has_ckpt || !(me->load.period_s > 0))
        return;
    int tier = me->w->checkpoint.tier;
    const st_tier_cfg *tc = &in->c->tiers[tier];
    double wr = 0, rd = 0;
    for (size_t j = 0; j < in->n; j++) {
        const st_forecast *f = &in->f[j];
        if (!f->w || (tc->kind == ST_TIER_LOCAL_NVME && f != me))
            continue;
        if (f->has_ckpt && f->w->checkpoint.tier == tier)
            wr += f->load.write_utilization;
        if (f->ingest.got_bps > 0 && f->w->data.tier == tier)
            rd += f->ingest.got_bps / tc->read_bw;
    }
    char day[32], w_pct[32], r_pct[32];
    int ok = wr + rd < 1;
    st__audit_add(out, "storage", ok ? ST_AUDIT_PASS : ST_AUDIT_WARN, wr + rd, 1,
                  "checkpoint write load: %s", me->w->name);
    st_unit_format(me->load.bytes_per_day, ST_DIM_BYTES, day, sizeof day);
    st__audit_say(out,
                  "%s/day; tier '%s' busy %s with every job's checkpoints and %s with "
                  "ingest%s",
                  day, tc->name, (st_unit_percent(wr, w_pct, sizeof w_pct), w_pct),
                  (st_unit_percent(rd, r_pct, sizeof r_pct), r_pct),
                  ok ? "" : ": saturated, saves commit later and the ingest slows");
}

/* A job's own persistent checkpoint writes against the share of its tier's write bandwidth it
 * may hold (audit.checkpoint_write_share, an assumption: the rest is its ingest's and the other
 * tenants'). `every: auto` keeps within it; a stated cadence may not. */
static void audit_write_share(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                              audit_list *out)
{
    (void)in;
    if (!f->has_ckpt || !(f->load.period_s > 0))
        return;
    char day[32];
    double u = f->load.write_utilization, share = t->ckpt_write_share;
    int ok = u <= share * (1 + 1e-9);
    st__audit_add(out, "storage", ok ? ST_AUDIT_PASS : ST_AUDIT_WARN, u, share,
                  "checkpoint write share: %s", f->w->name);
    st_unit_format(f->load.bytes_per_day, ST_DIM_BYTES, day, sizeof day);
    st__audit_say(out, "%s/day holds %.4g%% of tier '%s' write, %s the %.4g%% a job may hold%s",
                  day, u * 100, f->load.tier, ok ? "within" : "over", share * 100,
                  ok ? ""
                     : ": checkpoint less often, or state a larger audit.checkpoint_write_share");
}

/* One job's hold on the GPUs: which of them, and over which times [start_s, end_s). */
typedef struct holder {
    const char *name;
    size_t job; /* the workload's index: a job preempted and resumed holds several stretches */
    const int64_t *gpus; /* NULL: the n consecutive GPUs from first */
    int64_t first, n;
    double start_s, end_s;
} holder;

/* The training jobs' segments in the cluster run, each a holder, in the order they started. */
static size_t segment_holders(const st_audit_in *in, holder *h)
{
    const st_cluster_result *c = in->cluster;
    size_t k = 0, *of = st_xcalloc(c->n ? c->n : 1, sizeof *of); /* cluster job -> workload + 1 */
    for (size_t i = 0; i < in->n; i++)
        if (in->f[i].w && in->cluster_job[i] >= 0)
            of[in->cluster_job[i]] = i + 1;
    for (size_t s = 0; s < c->n_seg; s++) {
        size_t i = of[c->seg[s].job];
        if (i)
            h[k++] = (holder){in->f[i - 1].w->name,
                              i - 1,
                              c->seg_gpus + c->seg[s].gpu_at,
                              0,
                              c->seg[s].n,
                              c->seg[s].start_s,
                              c->seg[s].end_s};
    }
    free(of);
    return k;
}

/* The placed training jobs (their segments in the cluster run; without one, their life's wall
 * time from their start) and the collective workloads (their first start to their last
 * completion), sorted by start, then workload. */
static size_t holders(const st_audit_in *in, holder *h)
{
    size_t k = in->cluster ? segment_holders(in, h) : 0;
    for (size_t i = 0; i < in->n; i++) {
        const st_forecast *f = &in->f[i];
        const st_coll_result *r = in->coll ? &in->coll[i] : NULL;
        if (in->cluster && f->w)
            continue;
        if (f->w && f->gpus)
            h[k++] = (holder){f->w->name,
                              i,
                              f->gpus,
                              0,
                              f->w->gpus,
                              f->start_s,
                              f->start_s + (f->has_life ? f->life.wall_s : 0)};
        else if (r && r->w)
            h[k++] = (holder){r->w->name, i, NULL, r->first_gpu, r->w->gpus, r->start_s, r->end_s};
    }
    for (size_t i = 1; i < k; i++) /* insertion sort: stable, so ties keep workload order */
        for (size_t j = i; j > 0 && h[j].start_s < h[j - 1].start_s; j--) {
            holder x = h[j];
            h[j] = h[j - 1];
            h[j - 1] = x;
        }
    return k;
}

typedef struct gpu_use {
    int64_t gpu;
    size_t who; /* index into the start-sorted holders */
} gpu_use;

static int by_gpu(const void *a, const void *b)
{
    const gpu_use *x = a, *y = b;
    if (x->gpu != y->gpu)
        return x->gpu < y->gpu ? -1 : 1;
    return x->who < y->who ? -1 : x->who > y->who;
}

/* For each holder, how many of its GPUs an earlier-starting holder still holds when it starts
 * (shared[j]), and one such holder (with[j]). Sorting every (GPU, holder) pair by GPU, then
 * start, and keeping each GPU's latest release so far finds every overlap in O(S log S) for S
 * GPUs held in all. */
static void overlaps(const holder *h, size_t k, int64_t *shared, size_t *with)
{
    size_t total = 0, u = 0;
    for (size_t j = 0; j < k; j++)
        total += (size_t)h[j].n;
    gpu_use *use = st_xmalloc((total ? total : 1) * sizeof *use);
    for (size_t j = 0; j < k; j++)
        for (int64_t r = 0; r < h[j].n; r++)
            use[u++] = (gpu_use){h[j].gpus ? h[j].gpus[r] : h[j].first + r, j};
    qsort(use, total, sizeof *use, by_gpu);
    double until = 0;
    size_t last = 0;
    for (size_t i = 0; i < total; i++) {
        const holder *x = &h[use[i].who];
        int same = i > 0 && use[i - 1].gpu == use[i].gpu;
        if (same && until > x->start_s) {
            if (shared[use[i].who]++ == 0)
                with[use[i].who] = last;
        }
        if (!same || x->end_s > until) {
            until = x->end_s;
            last = use[i].who;
        }
    }
    free(use);
}

/* How many jobs the k holders are: a job preempted and resumed holds the GPUs in several
 * stretches. n: the workloads. */
static size_t distinct_jobs(const holder *h, size_t k, size_t n)
{
    unsigned char *seen = st_xcalloc(n ? n : 1, 1);
    size_t jobs = 0;
    for (size_t j = 0; j < k; j++)
        if (h[j].job < n && !seen[h[j].job]++)
            jobs++;
    free(seen);
    return jobs;
}

/* No two jobs may hold one GPU at the same time. Each job's step and life are forecast as if it
 * had its GPUs alone, so an overlap is a plan that cannot run as forecast: a failure, one per job
 * that starts on GPUs another still holds. The cluster run's pool never lends a GPU twice
 * (models/place/pool.c), so this guards it; collective workloads are placed apart from it
 * (models/forecast/fabric_run.c), from GPU 0, and can overlap the training jobs. */
static void audit_gpu_sharing(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    size_t cap = in->n + (in->cluster ? in->cluster->n_seg : 0);
    holder *h = st_xcalloc(cap ? cap : 1, sizeof *h);
    size_t k = holders(in, h), fails = 0;
    int64_t *shared = st_xcalloc(k ? k : 1, sizeof *shared);
    size_t *with = st_xcalloc(k ? k : 1, sizeof *with);
    if (k >= 2)
        overlaps(h, k, shared, with);
    for (size_t j = 0; j < k; j++) {
        if (!shared[j])
            continue;
        char at[32];
        st__audit_add(out, "orchestration", ST_AUDIT_FAIL, (double)shared[j], 0,
                      "GPUs held by one job: %s", h[j].name);
        st_unit_format(h[j].start_s, ST_DIM_TIME, at, sizeof at);
        st__audit_say(out,
                      "starts at t = %s on %lld GPUs that '%s' still holds, and each is forecast "
                      "as if it had them alone",
                      at, (long long)shared[j], h[with[j]].name);
        fails++;
    }
    if (k >= 2 && !fails) {
        st__audit_add(out, "orchestration", ST_AUDIT_PASS, 0, 0, "GPUs held by one job");
        size_t jobs = distinct_jobs(h, k, in->n);
        char over[64] = ""; /* a preempted job's stretches are one job's, not several */
        if (jobs < k)
            snprintf(over, sizeof over, ", over their %zu stretches on the GPUs", k);
        st__audit_say(out, "no two of the %zu jobs hold a GPU at the same time%s", jobs, over);
    }
    free(with);
    free(shared);
    free(h);
}

/* The most requests per second a service's stream asks for: its one rate, or its load curve's
 * highest point; 0 when it has none (an offline batch, a closed loop, a burst). */
static double peak_rate(const st_inference_cfg *ic)
{
    double peak = st_inference_has_rate(ic) ? ic->rate : 0;
    for (int k = 0; k < ic->n_load; k++)
        peak = ic->load[k].rate > peak ? ic->load[k].rate : peak;
    return peak;
}

/* Why a service misses its targets, where the run says: "; the load reaches P requests/s" or
 * "; it has C clients" past what its replicas meet them at (the capacity the plan lacks), or its
 * cold starts from zero replicas. */
static void short_of(const st_inference_cfg *ic, const st_serve_result *r, char *buf, size_t n)
{
    double peak = peak_rate(ic);
    buf[0] = 0;
    if (peak > r->max_rate_under_slo)
        snprintf(buf, n, "; the load reaches %.4g requests/s, past that", peak);
    else if (r->cold_starts > 0)
        snprintf(buf, n,
                 "; its %lld cold starts (%.4g s from launch to ready in all) hold the "
                 "requests that wake it",
                 (long long)r->cold_starts, r->cold_start_total_s);
    else if (ic->mode == ST_REQ_CLOSED && ic->concurrency > r->max_concurrency_under_slo)
        snprintf(buf, n, "; it has %lld clients, past the %lld they meet both with",
                 (long long)ic->concurrency, (long long)r->max_concurrency_under_slo);
}

/* Each service with latency targets against them at its own request stream: the p99s the
 * serving model gives (models/serve/serve.h, slo_met), the share of requests within both, and
 * the most its replicas serve within them (max_rate_under_slo). A plan that misses the targets
 * it states has not answered its question: a failure, as a plan that does not fit is. */
static void audit_service(const st_audit_in *in, const st_audit_cfg *t, audit_list *out)
{
    (void)t;
    for (size_t i = 0; i < in->n_serve; i++) {
        const st_workload_cfg *w = in->serve[i].w;
        const st_inference_cfg *ic = &w->inference;
        const st_serve_result *r = in->serve[i].r;
        if (!r->has_slo)
            continue;
        double worst = 0;
        if (ic->slo_ttft_s > 0)
            worst = fmax(worst, r->ttft_s.p99 / ic->slo_ttft_s);
        if (ic->slo_tpot_s > 0)
            worst = fmax(worst, r->tpot_s.p99 / ic->slo_tpot_s);
        char more[128] = "";
        st__audit_add(out, "orchestration", r->slo_met ? ST_AUDIT_PASS : ST_AUDIT_FAIL, worst, 1,
                      "service latency targets: %s", w->name);
        if (!r->slo_met)
            short_of(ic, r, more, sizeof more);
        st__audit_say(
            out,
            "its p99s %s its targets at its request stream (the worst at %.4g%% of its "
            "target), %.4g%% of its requests within both; its replicas meet both up to %.4g "
            "requests/s%s",
            r->slo_met ? "meet" : "miss", worst * 100, r->slo_attainment * 100,
            r->max_rate_under_slo, more);
    }
}

/* Each check runs once before the jobs (ST__AUDIT_FIRST), once per training job in workload
 * order (ST__AUDIT_JOB), or once after them (ST__AUDIT_LAST); findings keep this order. */
enum { ST__AUDIT_FIRST, ST__AUDIT_JOB, ST__AUDIT_LAST };
static const struct {
    int when;
    void (*scenario)(const st_audit_in *in, const st_audit_cfg *t, audit_list *out);
    void (*job)(const st_audit_in *in, const st_audit_cfg *t, const st_forecast *f,
                audit_list *out);
} checks[] = {
    {ST__AUDIT_FIRST, audit_baseboard, NULL},
    {ST__AUDIT_FIRST, audit_switch_ports, NULL},
    {ST__AUDIT_JOB, NULL, audit_memory},
    {ST__AUDIT_JOB, NULL, audit_tp_domain},
    {ST__AUDIT_JOB, NULL, audit_tp_overlap_cfg},
    {ST__AUDIT_JOB, NULL, audit_headroom},
    {ST__AUDIT_JOB, NULL, audit_ckpt_dump},
    {ST__AUDIT_JOB, NULL, audit_ckpt_capacity},
    {ST__AUDIT_JOB, NULL, audit_ingest},
    {ST__AUDIT_JOB, NULL, audit_write_load},
    {ST__AUDIT_JOB, NULL, audit_write_share},
    {ST__AUDIT_LAST, audit_gpu_sharing, NULL},
    {ST__AUDIT_LAST, audit_service, NULL},
    {ST__AUDIT_LAST, st__audit_rack_power, NULL},
    {ST__AUDIT_LAST, st__audit_facility_heat, NULL},
    {ST__AUDIT_LAST, st__audit_ramp, NULL},
    {ST__AUDIT_LAST, st__audit_cooling, NULL},
    {ST__AUDIT_LAST, st__audit_junction, NULL},
    {ST__AUDIT_LAST, st__audit_ups, NULL},
};

static void run_when(const st_audit_in *in, const st_audit_cfg *t, int when, audit_list *out)
{
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++)
        if (checks[k].when == when && checks[k].scenario)
            checks[k].scenario(in, t, out);
}

st_audit *st_audit_run(const st_audit_in *in, size_t *count)
{
    const st_audit_cfg *t = in->targets ? in->targets : &st_audit_cfg_default;
    audit_list out = {0};
    run_when(in, t, ST__AUDIT_FIRST, &out);
    for (size_t i = 0; i < in->n; i++)
        for (size_t k = 0; in->f[i].w && k < sizeof checks / sizeof checks[0]; k++)
            if (checks[k].when == ST__AUDIT_JOB)
                checks[k].job(in, t, &in->f[i], &out);
    run_when(in, t, ST__AUDIT_LAST, &out);
    /* One block, the findings then their texts, so that the caller's one free() releases all. */
    st_audit *all = st_xmalloc(out.n * sizeof *all + out.len + 1);
    char *text = (char *)(all + out.n);
    if (out.len)
        memcpy(text, out.text, out.len);
    for (size_t i = 0; i < out.n; i++) {
        all[i] = out.items[i];
        all[i].check = text + out.at[2 * i];
        all[i].message = text + out.at[2 * i + 1];
    }
    free(out.items);
    free(out.at);
    free(out.text);
    *count = out.n;
    return all;
}
