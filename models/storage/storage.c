/* Storage traffic as transfers on the fabric: one engine and one st_net per question asked, the
 * streams started on schedule, and times and rates read off as they complete. The equations
 * and assumptions are in docs/models/storage-and-failures.md. */
#include "models/storage/storage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/maxmin.h"
#include "models/fabric/net.h"
#include "models/silicon/gpu.h"
#include "sim/engine.h"
#include "sim/xalloc.h"

/* Bytes of a stream that never ends: far more than any run moves, and finite as st_net wants.
 * Its completion time clamps to the end of time. */
#define ENDLESS_BYTES 1e300

typedef struct io_run {
    const st_topo *topo;
    st_engine *eng;
    st_net *net;
    const st_io *io;
    int n;
    int64_t *xfer;   /* st_net id of each running stream; -1 before its start and after its end */
    double *done_s;  /* completion of each finite stream (its tier latency is added after) */
    double *moved;   /* bytes each stream has moved, all members together */
    double *rate;    /* each stream's aggregate rate since t_last */
    double *t_start; /* when each stream started */
    double t_last;   /* time of the last start or completion */
    int finite_left; /* finite streams not completed yet */
    double t_end;    /* when the last finite stream completed */
} io_run;

/* Add the bytes moved since the last start or completion (rates are constant in between: they
 * change only when a transfer starts or completes, and every one of those is an event here). */
static void account(io_run *r, double now)
{
    double dt = now - r->t_last;
    if (dt > 0)
        for (int i = 0; i < r->n; i++)
            r->moved[i] += r->rate[i] * dt;
    r->t_last = now;
}

static void refresh_rates(io_run *r)
{
    for (int i = 0; i < r->n; i++) {
        double per = r->xfer[i] >= 0 ? st_net_rate(r->net, r->xfer[i]) : 0;
        r->rate[i] = isfinite(per) ? per * (double)r->io[i].members : 0;
    }
}

static void on_done(void *ctx, uint64_t tag, st_time now)
{
    io_run *r = ctx;
    int i = (int)tag;
    double t = (double)now / 1e9;
    account(r, t);
    r->done_s[i] = t;
    r->xfer[i] = -1;
    refresh_rates(r);
    if (--r->finite_left == 0) {
        r->t_end = t;
        st_engine_stop(r->eng);
    }
}

/* Start stream i now: every member between its GPU and the tier endpoint. The tier's latency is
 * left out of the transfer (it is added to the completion time afterwards), so that a stream's
 * last byte and its completion are one event and the rates above stay exact. */
static void start(io_run *r, int i)
{
    const st_io *s = &r->io[i];
    size_t m = (size_t)s->members;
    int64_t *tier = st_xmalloc(m * sizeof *tier);
    int64_t ep = st_topo_storage_endpoint(r->topo, s->tier);
    for (size_t k = 0; k < m; k++)
        tier[k] = ep;
    int endless = isinf(s->bytes);
    st_xfer_spec x = {.src = s->read ? tier : s->gpu,
                      .dst = s->read ? s->gpu : tier,
                      .n = m,
                      .bytes = endless ? ENDLESS_BYTES : s->bytes,
                      .key = st_topo_flow_key(0x5706a9e, (uint64_t)i),
                      .tag = (uint64_t)i,
                      .done = endless ? NULL : on_done,
                      .ctx = r,
                      .max_rate = s->max_rate};
    r->t_start[i] = (double)st_engine_now(r->eng) / 1e9;
    r->xfer[i] = st_net_start(r->net, &x);
    free(tier);
}

static void on_start(st_engine *eng, void *state, const st_event *ev)
{
    (void)eng;
    io_run *r = state;
    account(r, (double)ev->t / 1e9);
    start(r, (int)ev->data.u[0]);
    refresh_rates(r);
}

/* The transfer of stream s's members between their GPUs and its tier (tier: room for its
 * members' endpoint ids), as run_alone and the engine's run key it. */
static st_xfer_spec alone_spec(const st_topo *t, const st_io *s, int64_t *tier)
{
    size_t m = (size_t)s->members;
    int64_t ep = st_topo_storage_endpoint(t, s->tier);
    for (size_t k = 0; k < m; k++)
        tier[k] = ep;
    return (st_xfer_spec){.src = s->read ? tier : s->gpu,
                          .dst = s->read ? s->gpu : tier,
                          .n = m,
                          .bytes = s->bytes,
                          .key = st_topo_flow_key(0x5706a9e, 0),
                          .max_rate = s->max_rate};
}

/* run_in's figures for stream s alone, started at t0, its members at rate per each, its last
 * byte through at t1. */
static void alone_times(const st_topo *t, const st_io *s, st_time t0, double per, st_time t1,
                        double *done_s, double *rate)
{
    /* on_start, at t0: nothing moved before it; the stream's aggregate rate from the solve */
    double start = (double)t0 / 1e9, agg = per * (double)s->members;
    /* on_done, at t1 (no latency in the transfer): the bytes moved since the start */
    double end = (double)t1 / 1e9, moved = 0;
    if (end - start > 0)
        moved += agg * (end - start);
    if (done_s)
        done_s[0] = end + st_topo_storage_latency(t, s->tier);
    if (rate) /* the rate is 0 again once it is done */
        rate[0] = end - start > 0 ? moved / (end - start) : 0;
}

/* run_in's answer for one finite stream and nothing else (a checkpoint's write or restore on a
 * quiet fabric) when the net would give it one rate for its whole run (st_net_alone): the
 * same instants and bytes, in the same arithmetic, as the engine's run below (its start, the
 * solve that follows, its last byte) without the solver's 10^4 links. Returns 0, or -1 to run
 * it on the engine. */
static int run_alone(const st_topo *t, const st_io *s, double *done_s, double *rate)
{
    if (isinf(s->bytes) || s->members < 1)
        return -1;
    int64_t *tier = st_xmalloc((size_t)s->members * sizeof *tier);
    st_xfer_spec x = alone_spec(t, s, tier);
    st_time t0 = (st_time)llround(s->start_s * 1e9), t1;
    double per;
    int rc = st_net_alone(t, &x, t0, &per, &t1);
    free(tier);
    if (rc)
        return -1;
    alone_times(t, s, t0, per, t1, done_s, rate);
    return 0;
}

/* Whether run_in would take stream s alone (run_alone) when it is the only one. */
static int alone_ok(const st_io *s)
{
    return !(s->members < 1 || !(s->bytes > 0) || !(s->max_rate >= 0) || !(s->start_s >= 0)) &&
           !isinf(s->bytes);
}

/* run_in's completion times for write stream wr alone and for its read back alone (the same
 * members, bytes and cap from the tier: a restore of what it saved), each as run_alone would
 * give it, with every member routed once for both (st_net_alone_both). Returns 0, or -1 where
 * either would run on the engine: then run them one by one. */
static int write_read_alone(const st_topo *t, const st_io *wr, double *write_done,
                            double *read_done)
{
    if (wr->read || !alone_ok(wr))
        return -1;
    int64_t *tier = st_xmalloc((size_t)wr->members * sizeof *tier);
    st_xfer_spec x = alone_spec(t, wr, tier);
    st_time t0 = (st_time)llround(wr->start_s * 1e9), t1[2];
    double per[2];
    int rc[2];
    st_net_alone_both(t, &x, wr->tier, t0, per, t1, rc);
    free(tier);
    if (rc[0] || rc[1])
        return -1;
    st_io rd = *wr;
    rd.read = 1;
    alone_times(t, wr, t0, per[0], t1[0], write_done, NULL);
    alone_times(t, &rd, t0, per[1], t1[1], read_done, NULL);
    return 0;
}

/* st_storage_run on the spare solver *pool holds, if any (pool NULL: none; one made on t, and the
 * run's goes back there, reset, at its end: st_net_trace), so the runs of one question on one
 * fabric allocate its 10^5 links' solver and their edge lists once. */
static int run_in(const st_topo *t, const st_io *io, int n, double *done_s, double *rate,
                  st_maxmin **pool)
{
    if (n == 1 && alone_ok(&io[0]) && run_alone(t, &io[0], done_s, rate) == 0)
        return 0;
    io_run r = {.topo = t, .io = io, .n = n};
    size_t nn = n > 0 ? (size_t)n : 1;
    r.xfer = st_xmalloc(nn * sizeof *r.xfer);
    r.done_s = st_xmalloc(nn * sizeof *r.done_s);
    r.moved = st_xcalloc(nn, sizeof *r.moved);
    r.rate = st_xcalloc(nn, sizeof *r.rate);
    r.t_start = st_xcalloc(nn, sizeof *r.t_start);
    r.eng = st_engine_new();
    r.net = st_net_new(r.eng, t);
    st_net_trace(r.net, NULL, NULL, 0, pool); /* rates are all a run reads: times only */
    int kind = st_engine_register(r.eng, "storage.start", on_start, &r);
    for (int i = 0; i < n; i++) {
        if (io[i].members < 1 || !(io[i].bytes > 0) || !(io[i].max_rate >= 0) ||
            !(io[i].start_s >= 0) || (isinf(io[i].bytes) && !(io[i].max_rate > 0)))
            ST_BUG("storage stream %d: %lld members, %g bytes, cap %g, start %g s", i,
                   (long long)io[i].members, io[i].bytes, io[i].max_rate, io[i].start_s);
        r.xfer[i] = -1;
        r.done_s[i] = INFINITY;
        r.finite_left += !isinf(io[i].bytes);
        st_payload p = {.u = {(uint64_t)i}};
        st_engine_schedule(r.eng, kind, (st_time)llround(io[i].start_s * 1e9), &p);
    }
    if (r.finite_left > 0) {
        st_engine_run(r.eng, ST_TIME_MAX);
    } else {
        st_engine_run(r.eng, 0);
        r.t_end = r.t_last;
    }
    account(&r, r.t_end);
    for (int i = 0; i < n; i++) {
        if (done_s && !isinf(r.done_s[i]))
            done_s[i] = r.done_s[i] + st_topo_storage_latency(t, io[i].tier);
        else if (done_s)
            done_s[i] = INFINITY;
        if (!rate)
            continue;
        double end = isinf(r.done_s[i]) ? r.t_end : r.done_s[i];
        double span = end - r.t_start[i];
        rate[i] = span > 0 ? r.moved[i] / span : r.rate[i];
    }
    st_net_free(r.net);
    st_engine_free(r.eng);
    free(r.xfer);
    free(r.done_s);
    free(r.moved);
    free(r.rate);
    free(r.t_start);
    return 0;
}

int st_storage_run(const st_topo *t, const st_io *io, int n, double *done_s, double *rate)
{
    return run_in(t, io, n, done_s, rate, NULL);
}

/* ---- a job's streams ------------------------------------------------------------------ */

static int64_t deg(int64_t d)
{
    return d > 0 ? d : 1;
}

int64_t st_storage_writers(const st_placement *at, const st_workload_cfg *w, int64_t *out)
{
    const st_parallel_cfg *p = &w->parallel;
    if (p->zero >= 1) {
        for (int64_t g = 0; g < w->gpus; g++)
            out[g] = at->gpu[g];
        return w->gpus;
    }
    /* Rank = tp_i + tp (cp_i + cp (dp_i + dp pp_i)); replica 0 of cp rank 0 holds one copy of
     * every model-parallel slice. */
    int64_t tp = deg(p->tp), cp = deg(p->cp), dp = deg(p->dp), pp = deg(p->pp), n = 0;
    for (int64_t s = 0; s < pp; s++)
        for (int64_t i = 0; i < tp; i++) {
            int64_t rank = i + tp * cp * dp * s;
            if (rank < w->gpus)
                out[n++] = at->gpu[rank];
        }
    return n;
}

static double pcie_of(const st_cluster_cfg *c)
{
    return c->node.pcie_bw > 0 ? c->node.pcie_bw : c->gpu->pcie_bw;
}

/* The job's first GPU on every node it occupies: the host that reads its data. */
static int64_t job_hosts(const st_placement *at, int64_t *out)
{
    int64_t n = 0;
    for (int64_t r = 0; r < at->n_gpus; r++)
        if (r == 0 ||
            st_placement_node_of(at, at->gpu[r]) != st_placement_node_of(at, at->gpu[r - 1]))
            out[n++] = at->gpu[r];
    return n;
}

int64_t st_storage_ingest_stream(const st_placement *at, const st_workload_cfg *w, double need_bps,
                                 int64_t *hosts, st_io *out)
{
    if (!w->data.enabled || !(need_bps > 0))
        return 0;
    int64_t n = job_hosts(at, hosts);
    *out = (st_io){.gpu = hosts,
                   .members = n,
                   .tier = w->data.tier,
                   .read = 1,
                   .bytes = INFINITY,
                   .max_rate = need_bps / (double)n};
    return n;
}

/* Run `own` streams with the background ones; done_s and rate as st_storage_run, own first;
 * pool as run_in. */
static void run_with(const st_topo *t, const st_io *own, int n_own, const st_io_set *bg,
                     double *done_s, double *rate, st_maxmin **pool)
{
    int n_bg = bg ? bg->n : 0;
    size_t n = (size_t)(n_own + n_bg);
    st_io *all = st_xmalloc(n * sizeof *all);
    double *d = st_xmalloc(n * sizeof *d), *r = st_xmalloc(n * sizeof *r);
    for (int i = 0; i < n_own; i++)
        all[i] = own[i];
    for (int i = 0; i < n_bg; i++)
        all[n_own + i] = bg->io[i];
    run_in(t, all, n_own + n_bg, d, r, pool);
    for (int i = 0; i < n_own; i++) {
        if (done_s)
            done_s[i] = d[i];
        if (rate)
            rate[i] = r[i];
    }
    free(all);
    free(d);
    free(r);
}

void st_storage_ingest(const st_placement *at, const st_workload_cfg *w, double step_s,
                       const st_io_set *bg, st_ingest *out)
{
    memset(out, 0, sizeof *out);
    out->slowdown = 1;
    if (!w->data.enabled || !(step_s > 0))
        return;
    double tokens_per_s = (double)w->global_batch * (double)w->seq_len / step_s;
    out->need_bps = tokens_per_s * w->data.bytes_per_token;
    int64_t *hosts = st_xmalloc((size_t)w->gpus * sizeof *hosts);
    st_io io;
    int64_t n = st_storage_ingest_stream(at, w, out->need_bps, hosts, &io);
    if (n > 0)
        run_with(at->topo, &io, 1, bg, NULL, &out->got_bps, NULL);
    free(hosts);
    if (n == 0)
        return;
    if (out->got_bps > out->need_bps)
        out->got_bps = out->need_bps;
    if (out->got_bps < out->need_bps * (1 - 1e-9))
        out->slowdown = out->need_bps / out->got_bps;
}

static int local_tier(const st_cluster_cfg *c)
{
    for (int k = 0; k < c->n_tiers; k++)
        if (c->tiers[k].kind == ST_TIER_LOCAL_NVME)
            return k;
    return -1;
}

/* Time for the writers' shards to go into `tier` while the job's ingest runs, and the ingest's
 * average rate meanwhile (into *ingest_bps when not NULL); pool as run_in. */
static double write_time(const st_placement *at, const st_workload_cfg *w, const int64_t *writers,
                         int64_t nw, double shard, int tier, double cap, const st_ingest *ingest,
                         const st_io_set *bg, double *ingest_bps, st_maxmin **pool)
{
    st_io io[2];
    int n = 0;
    int64_t *hosts = st_xmalloc((size_t)w->gpus * sizeof *hosts);
    if (ingest && st_storage_ingest_stream(at, w, ingest->need_bps, hosts, &io[0]) > 0)
        n++;
    io[n++] = (st_io){.gpu = writers, .members = nw, .tier = tier, .bytes = shard, .max_rate = cap};
    double done[2], rate[2];
    run_with(at->topo, io, n, bg, done, rate, pool);
    if (ingest_bps)
        *ingest_bps = n == 2 ? rate[0] : 0;
    free(hosts);
    return done[n - 1];
}

/* A checkpoint's restore: the stream, and its completion time once known. */
typedef struct ckpt_restore {
    st_io io;
    double done_s;
    int known;
} ckpt_restore;

/* Whether the writers' save into the restore's tier at cap `cap`, with the job's ingest at
 * `ingest` and the streams bg, is the restore's stream the other way, each alone on a quiet
 * fabric: no background streams and no ingest (write_time's run then holds the save alone),
 * the same cap, and every GPU writing the shard it reads back (ZeRO 1 and up: the writers are
 * the job's GPUs in rank order). */
static int save_mirrors_restore(const st_workload_cfg *w, const int64_t *writers, int64_t nw,
                                double cap, const st_ingest *ingest, const st_io_set *bg,
                                const st_io *rd)
{
    int ingests = ingest && w->data.enabled && ingest->need_bps > 0; /* ingest_stream's test */
    return !(bg && bg->n > 0) && !ingests && cap == rd->max_rate && nw == w->gpus && nw >= 1 &&
           memcmp(writers, rd->gpu, (size_t)nw * sizeof *writers) == 0;
}

/* write_time for the writers' shards into the checkpoint's tier (rs->io's) at cap `cap`, and
 * with them the restore rs where the two mirror each other (save_mirrors_restore): each member
 * routed once for both (write_read_alone), the same times bit for bit. */
static double persist(const st_placement *at, const st_workload_cfg *w, const int64_t *writers,
                      int64_t nw, double cap, const st_ingest *ingest, const st_io_set *bg,
                      double *ingest_bps, ckpt_restore *rs, st_maxmin **pool)
{
    const st_io *rd = &rs->io;
    if (save_mirrors_restore(w, writers, nw, cap, ingest, bg, rd)) {
        st_io wr = *rd;
        wr.gpu = writers;
        wr.read = 0;
        double write_s;
        if (write_read_alone(at->topo, &wr, &write_s, &rs->done_s) == 0) {
            rs->known = 1;
            if (ingest_bps) /* no ingest ran beside it */
                *ingest_bps = 0;
            return write_s;
        }
    }
    return write_time(at, w, writers, nw, rd->bytes, rd->tier, cap, ingest, bg, ingest_bps, pool);
}

/* The write bandwidth of tier k that a job on `nodes` nodes writes into: a local-nvme tier's
 * figures are per node, and the job writes into all of its nodes' drives. */
static double tier_write_of(const st_cluster_cfg *c, int k, int64_t nodes)
{
    const st_tier_cfg *tc = &c->tiers[k];
    return tc->kind == ST_TIER_LOCAL_NVME ? tc->write_bw * (double)nodes : tc->write_bw;
}

void st_storage_ckpt_load(const st_placement *at, const st_workload_cfg *w, const st_ckpt_cost *k,
                          double interval_s, st_ckpt_load *out)
{
    memset(out, 0, sizeof *out);
    if (!(interval_s > 0))
        return;
    /* Between failures the life model repeats one cycle (lifetime.h): a save starts, training
     * stalls, runs interval_s, and waits at the next mark if the save has not committed. */
    out->tier = at->c->tiers[w->checkpoint.tier].name;
    out->period_s = fmax(k->stall_s + interval_s, k->commit_s);
    out->bytes_per_s = k->size_bytes / out->period_s;
    out->bytes_per_day = out->bytes_per_s * 86400.0;
    out->write_capacity = tier_write_of(at->c, w->checkpoint.tier, at->nodes);
    /* Utilisation = throughput x service demand (Lazowska et al. 1984, chapter 3): each byte
     * keeps the media busy 1 / write seconds. */
    out->write_utilization = out->bytes_per_s / out->write_capacity;
}

int st_storage_checkpoint(const st_placement *at, const st_workload_cfg *w, const st_memory *mem,
                          const st_ingest *ingest, const st_io_set *bg, st_ckpt_cost *out,
                          st_err *err)
{
    return st_storage_checkpoint_reuse(at, w, mem, ingest, bg, NULL, out, err);
}

int st_storage_checkpoint_reuse(const st_placement *at, const st_workload_cfg *w,
                                const st_memory *mem, const st_ingest *ingest, const st_io_set *bg,
                                st_maxmin **spare, st_ckpt_cost *out, st_err *err)
{
    const st_cluster_cfg *c = at->c;
    memset(out, 0, sizeof *out);
    const st_ckpt_cfg *ck = &w->checkpoint;
    const st_tier_cfg *tc = &c->tiers[ck->tier];
    int local = -1;
    if (ck->mode == ST_CKPT_TWO_STAGE && (local = local_tier(c)) < 0)
        return st_err_set(err, ST_EINVAL, ck->loc,
                          "workload '%s': checkpoint mode two-stage writes to local NVMe first, "
                          "but cluster.storage has no tier of kind local-nvme",
                          w->name);
    int64_t *writers = st_xmalloc((size_t)w->gpus * sizeof *writers);
    int64_t nw = st_storage_writers(at, w, writers);
    /* one solver on at->topo for the runs below, reset between them */
    st_maxmin *pool = spare ? *spare : NULL;
    if (pool) {
        *spare = NULL;
        st_maxmin_rebase(pool, st_topo_link_count(at->topo), st_topo_capacities(at->topo));
    }
    double pcie = pcie_of(c);
    out->size_bytes = mem->checkpoint_bytes;
    out->writers = nw;
    out->shard_bytes = out->size_bytes / (double)nw;
    out->d2h_s = out->shard_bytes / pcie;
    double tier_write = tier_write_of(c, ck->tier, at->nodes);
    out->nic_per_gpu = c->fabric.nic_bw * (double)c->fabric.nics_per_node /
                       (double)(c->gpus_per_node > 0 ? c->gpus_per_node : 1);
    if (ck->mode != ST_CKPT_SYNC && out->nic_per_gpu > 0)
        out->drain_nic_s = out->shard_bytes / out->nic_per_gpu;
    out->dump_s = out->size_bytes / tier_write + tc->latency_s;
    double got = ingest && ingest->got_bps > 0 ? ingest->got_bps : 0, during = 0;
    /* Restore: every GPU reads what it holds (under ZeRO 0 each replica reads its slice). */
    ckpt_restore rs = {.io = {.gpu = at->gpu,
                              .members = w->gpus,
                              .tier = ck->tier,
                              .read = 1,
                              .bytes = out->shard_bytes,
                              .max_rate = tc->gds ? pcie : 0}};
    switch (ck->mode) {
    case ST_CKPT_SYNC:
        /* GDS: the GPU writes over PCIe straight to the NIC, at most the PCIe rate; without it
         * the shard is first copied into a host bounce buffer, then sent. Training waits. */
        out->write_s = persist(at, w, writers, nw, tc->gds ? pcie : 0, NULL, bg, NULL, &rs, &pool);
        out->stall_s = (tc->gds ? 0 : out->d2h_s) + out->write_s;
        out->commit_s = out->stall_s;
        break;
    case ST_CKPT_ASYNC:
        /* Training waits for the copy into host memory; the drain from host memory runs
         * alongside the next steps and their ingest. */
        out->write_s = persist(at, w, writers, nw, 0, ingest, bg, &during, &rs, &pool);
        out->stall_s = out->d2h_s;
        out->commit_s = out->d2h_s + out->write_s;
        break;
    case ST_CKPT_TWO_STAGE: {
        const st_tier_cfg *lt = &c->tiers[local];
        out->local_s = write_time(at, w, writers, nw, out->shard_bytes, local, lt->gds ? pcie : 0,
                                  NULL, bg, NULL, &pool);
        out->write_s = persist(at, w, writers, nw, 0, ingest, bg, &during, &rs, &pool);
        out->stall_s = (lt->gds ? 0 : out->d2h_s) + out->local_s;
        out->commit_s = out->stall_s + out->write_s;
        break;
    }
    }
    /* A drain that slows the ingest below what the job was getting costs progress: the job
     * runs at during/got of its speed for write_s. */
    if (ck->mode != ST_CKPT_SYNC && got > 0 && during < got) {
        out->ingest_loss_s = out->write_s * (got - during) / got;
        out->stall_s += out->ingest_loss_s;
    }
    if (!rs.known)
        run_with(at->topo, &rs.io, 1, bg, &rs.done_s, NULL, &pool);
    out->restore_s = rs.done_s + (tc->gds ? 0 : out->d2h_s);
    if (spare && !*spare)
        *spare = pool;
    else
        st_maxmin_free(pool);
    free(writers);
    return 0;
}
