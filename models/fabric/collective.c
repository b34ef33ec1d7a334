/* The collective runner: a collective's checked, laid-out run and its phase machine on the
 * engine (each phase's transfers start together on st_net; the next starts when all are done),
 * its plan before it runs, and one collective measured alone. docs/models/fabric.md has the model.
 */
#include "models/fabric/collective.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/coll_internal.h"
#include "models/fabric/fabsim.h"
#include "models/fabric/net.h"
#include "models/fabric/transport.h"
#include "sim/xalloc.h"

int st_coll_gpu_same(const st_gpu_spec *a, const st_gpu_spec *b)
{
    if (a == b)
        return 1;
    return a && b && a->arch == b->arch && a->nvswitch == b->nvswitch &&
           memcmp(&a->nvlink_bw, &b->nvlink_bw, sizeof a->nvlink_bw) == 0;
}

st_coll *st_coll_new(st_net *net, const st_topo *t, const st_cluster_cfg *c)
{
    st_coll *cm = st_xcalloc(1, sizeof *cm);
    cm->net = net;
    cm->topo = t;
    cm->nccl = st_nccl_preset_default();
    cm->arch = st_nccl_arch_of(c->gpu);
    cm->gpus = st_topo_gpus(t);
    cm->gpn = c->gpus_per_node;
    cm->nics = c->fabric.nics_per_node;
    int64_t dom = c->nvlink_domain == 0 ? c->gpus_per_node : c->nvlink_domain;
    cm->has_nvlink = dom > 1 && c->gpu && c->gpu->nvlink_bw > 0;
    cm->dom = cm->has_nvlink ? dom : c->gpus_per_node;
    cm->skew = cm->has_nvlink && dom > c->gpus_per_node ? c->nvlink_skew % dom : 0;
    cm->nvlink_goodput = st_nvlink_efficiency(c->gpu) * st_calib_nvlink(c);
    cm->nvlink_cap = c->gpu ? c->gpu->nvlink_bw / 2 * cm->nvlink_goodput : 0;
    cm->nic_cap =
        c->fabric.nic_bw * st_transport_efficiency(c->fabric.transport) * st_calib_network(c);
    cm->nvls_eff = cm->has_nvlink ? st_nccl_nvls_efficiency(cm->nccl, c->gpu) : 0;
    cm->nvls_channels = st_nccl_nvls_channels(cm->nccl, c->gpu);
    cm->a2a_lat = st_nccl_a2a_latencies(cm->nccl, c->gpu);
    return cm;
}

/* Bytes of the block of a run of n ranks: the run, then its ranks and its groups' n + 1
 * offsets (make_run). sizeof(run) is a multiple of its alignment, which is an int64's. */
static size_t run_bytes(int64_t n)
{
    return sizeof(run) + sizeof(int64_t) * (2 * (size_t)n + 1);
}

#define SMALL_BYTES run_bytes(ST__COLL_SMALL_RANKS)
#define SLAB_SMALL  256 /* small blocks a slab */

/* A block for a run of n ranks: a small one from cm's free list or slab, else its own. */
static run *run_block(st_coll *cm, int64_t n)
{
    if (n > ST__COLL_SMALL_RANKS) {
        run *r = st_xmalloc(run_bytes(n));
        r->small = 0;
        return r;
    }
    void *b = cm->small_free;
    if (b) {
        cm->small_free = *(void **)b;
    } else {
        if (cm->slab_left < SMALL_BYTES) {
            cm->slab_next = st_xmalloc(SLAB_SMALL * SMALL_BYTES);
            cm->slab_left = SLAB_SMALL * SMALL_BYTES;
            cm->slabs = st_xgrow(cm->slabs, sizeof *cm->slabs, cm->n_slabs + 1, &cm->slabs_cap);
            cm->slabs[cm->n_slabs++] = cm->slab_next;
        }
        b = cm->slab_next;
        cm->slab_next += SMALL_BYTES;
        cm->slab_left -= SMALL_BYTES;
    }
    run *r = b;
    r->small = 1;
    return r;
}

static void run_free(run *r)
{
    if (!r->small) {
        free(r); /* and its ranks and group offsets, in its block (make_run) */
        return;
    }
    st_coll *cm = r->cm; /* read before the link to the next free block overwrites it */
    *(void **)(void *)r = cm->small_free;
    cm->small_free = r;
}

void st_coll_free(st_coll *cm)
{
    if (!cm)
        return;
    for (run *r = cm->head, *nx; r; r = nx) {
        nx = r->next;
        run_free(r);
    }
    free(cm->src);
    free(cm->dst);
    free(cm->mlat);
    free(cm->mhw);
    free(cm->route);
    free(cm->mhop);
    free(cm->xoff);
    free(cm->xkey);
    free(cm->slot_link);
    free(cm->slot_load);
    free(cm->touched);
    free(cm->lay);
    st__coll_cost_release(cm);
    for (size_t i = 0; i < cm->n_slabs; i++)
        free(cm->slabs[i]);
    free(cm->slabs);
    free(cm);
}

int64_t st_coll_active(const st_coll *cm)
{
    return cm->active;
}

int st_coll_last_phases(const st_coll *cm)
{
    for (const run *r = cm->head; r; r = r->next)
        if (r->phase + 1 < r->n_phases)
            return 0;
    return 1;
}

/* ---- the phase machine ---------------------------------------------------------------------- */

static void start_phase(run *r);

static void finish(run *r, st_time now)
{
    st_coll *cm = r->cm;
    st_coll_done_fn done = r->done;
    void *ctx = r->ctx;
    uint64_t tag = r->tag;
    if (r->prev)
        r->prev->next = r->next;
    else
        cm->head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    cm->active--;
    run_free(r);
    if (done)
        done(ctx, tag, now);
}

static void on_xfer_done(void *ctx, uint64_t tag, st_time now)
{
    run *r = ctx;
    (void)tag;
    if (--r->pending > 0)
        return;
    if (++r->phase < r->n_phases)
        start_phase(r);
    else
        finish(r, now);
}

/* Build the current phase, pick its protocol from its uncongested rate, start its transfers. */
static void start_xfers(run *r, const phase_desc *dp, cost c);

static void start_phase(run *r)
{
    phase_desc d;
    cost c = st__coll_phase_cost(r->cm, r, r->phase, &d);
    start_xfers(r, &d, c);
}

/* Start the transfers of r's phase, just built and costed as d and c. */
static void start_xfers(run *r, const phase_desc *dp, cost c)
{
    st_coll *cm = r->cm;
    phase_desc d = *dp;
    r->pending = cm->nx;
    for (size_t x = 0; x < cm->nx; x++) {
        /* A phase with no member flows (one rank) has no endpoint arrays: no offset into NULL. */
        int none = cm->xoff[x + 1] == cm->xoff[x];
        st_xfer_spec xs = {.src = none ? NULL : cm->src + cm->xoff[x],
                           .dst = none ? NULL : cm->dst + cm->xoff[x],
                           .n = cm->xoff[x + 1] - cm->xoff[x],
                           .bytes = d.b / c.f,
                           .latency_s = st__coll_start_latency(cm, r, &d, c.proto, x),
                           .key = cm->xkey[x],
                           .tag = x,
                           .done = on_xfer_done,
                           .ctx = r,
                           /* routed by the phase's cost just now */
                           .routes = none ? NULL : cm->route + cm->xoff[x] * ST_TOPO_MAX_HOPS,
                           .hops = none ? NULL : cm->mhop + cm->xoff[x]};
        st_net_start(cm->net, &xs);
    }
}

/* ---- starting ------------------------------------------------------------------------------- */

/* A checked, laid-out, planned run (not yet linked or started), or NULL with *rc set. */
static run *make_run(st_coll *cm, const st_coll_spec *s, int *rc, st_err *err)
{
    *rc = st__coll_check_spec(cm, s, err);
    if (*rc)
        return NULL;
    /* One block: the run, then its ranks and the groups' n + 1 offsets (st__coll_layout fills
     * them). A send/recv pattern starts a run for every pair of its thousands of GPUs, and a
     * second malloc and free each cost as much as the pair's layout (run_block). */
    run *r = run_block(cm, s->n);
    int small = r->small;
    *r = (run){.cm = cm,
               .rank = (int64_t *)(r + 1),
               .op = s->op,
               .algo = s->algo,
               .proto = s->proto,
               .sync = !!s->sync_steps,
               .channels = s->channels,
               .n = s->n,
               .bytes = s->bytes,
               .key = s->key,
               .tag = s->tag,
               .done = s->done,
               .ctx = s->ctx,
               .small = small};
    if (r->algo == ST_COLL_AUTO && r->op != ST_COLL_ALL_REDUCE)
        r->algo = ST_COLL_RING;
    /* Rings, trees and the hierarchy all group ranks by NVLink group (NCCL's node, with a
     * multi-node NVLink domain counted as one, as NCCL's MNNVL does); the rest keep the order. */
    layout_mode mode = (r->op == ST_COLL_ALL_REDUCE || r->op == ST_COLL_REDUCE_SCATTER ||
                        r->op == ST_COLL_ALL_GATHER)
                           ? LAY_GROUPS
                           : LAY_ORDER;
    *rc = st__coll_layout(cm, r, s->gpus, mode, err);
    if (*rc == 0)
        *rc = st__coll_check_layout(r, err);
    if (*rc) {
        run_free(r);
        return NULL;
    }
    st__coll_plan_phases(cm, r);
    return r;
}

/* Give r its id and put it at the head of the running ones. */
static void link_run(st_coll *cm, run *r)
{
    r->id = cm->next_id++;
    r->next = cm->head;
    if (cm->head)
        cm->head->prev = r;
    cm->head = r;
    cm->active++;
}

int64_t st_coll_start(st_coll *cm, const st_coll_spec *spec, st_err *err)
{
    int rc;
    run *r = make_run(cm, spec, &rc, err);
    if (!r)
        return rc;
    link_run(cm, r);
    start_phase(r);
    return r->id;
}

/* ---- prepared for other byte counts ------------------------------------------------------- */

struct st_coll_prep {
    run *r;       /* a copy of the run, laid out and planned; no cm, never linked */
    phase_desc d; /* as built when prepared (its b and ar_bytes aside, the same at any bytes) */
    size_t nx;
    double rate, f[3], lat[3];
    double *real; /* real[k * nx + x]: transfer x's latency under protocol LL + k */
    uint64_t at;  /* the costing on its runner it was prepared from or last found alike */
};

/* r's block copied (the run, its ranks and group offsets: make_run), detached from its runner. */
static run *copy_run(const run *r)
{
    size_t bytes = run_bytes(r->n);
    run *c = st_xmalloc(bytes);
    memcpy(c, r, bytes);
    c->small = 0; /* its own block, detached from any runner */
    c->rank = (int64_t *)(c + 1);
    c->grp_off = c->rank + (r->grp_off - r->rank);
    c->cm = NULL;
    c->prev = c->next = NULL;
    c->done = NULL;
    c->ctx = NULL;
    return c;
}

/* The collective prepared from r's first phase, just costed on cm as d: prev itself when that
 * costing found its phase alike the one prev was prepared from (every input of the factors and
 * latencies equal, bit for bit), a new one, or NULL where its costs read the bytes. */
static st_coll_prep *prep_of(st_coll *cm, const run *r, const phase_desc *d, st_coll_prep *prev)
{
    if (prev && cm->last_matched && prev->at + 1 == cm->costings) {
        prev->at = cm->costings;
        return prev;
    }
    st_coll_prep *p = st_xcalloc(1, sizeof *p);
    if (st__coll_prep_eval(cm, r, d, cm->last_rate, p->f, p->lat, &p->real) < 0) {
        free(p);
        return NULL;
    }
    p->r = copy_run(r);
    p->d = *d;
    p->nx = cm->nx;
    p->rate = cm->last_rate;
    p->at = cm->costings;
    return p;
}

int64_t st_coll_start_prepared(st_coll *cm, const st_coll_spec *spec, st_coll_prep *prev,
                               st_coll_prep **prep, st_err *err)
{
    int rc;
    *prep = NULL;
    run *r = make_run(cm, spec, &rc, err);
    if (!r)
        return rc;
    link_run(cm, r);
    phase_desc d;
    cost c = st__coll_phase_cost(cm, r, 0, &d);
    *prep = prep_of(cm, r, &d, prev);
    start_xfers(r, &d, c);
    return r->id;
}

size_t st_coll_prep_transfers(const st_coll_prep *p)
{
    return p->nx;
}

size_t st_coll_prep_bytes(const st_coll_prep *p)
{
    return sizeof *p + sizeof *p->r + sizeof *p->r->rank * (2 * (size_t)p->r->n + 1) +
           3 * p->nx * sizeof *p->real;
}

void st_coll_prep_free(st_coll_prep *p)
{
    if (!p)
        return;
    if (p->r)
        run_free(p->r);
    free(p->real);
    free(p);
}

size_t st_coll_prep_at(st_coll *cm, st_coll_prep *p, double bytes, double *member_bytes,
                       const double **latency_s)
{
    /* The phase described again at these bytes for its b: the builders' own formula. */
    p->r->bytes = bytes;
    phase_desc d;
    st__coll_describe_phase(cm, p->r, 0, &d);
    /* choose's order and test: LL, then LL128 and Simple each where strictly less. */
    int best = 0;
    double best_est = st__coll_est(p->lat[0], d.b, p->f[0], p->rate);
    for (int k = 1; k < 3; k++) {
        double e = st__coll_est(p->lat[k], d.b, p->f[k], p->rate);
        if (e < best_est) {
            best = k;
            best_est = e;
        }
    }
    *member_bytes = d.b / p->f[best];
    *latency_s = p->real + (size_t)best * p->nx;
    return p->nx;
}

/* ---- plans ---------------------------------------------------------------------------------- */

int st_coll_plan_of(st_coll *cm, const st_coll_spec *spec, st_coll_plan *out, st_err *err)
{
    int rc;
    run *r = make_run(cm, spec, &rc, err);
    if (!r)
        return rc;
    memset(out, 0, sizeof *out);
    out->algo = r->algo == ST_COLL_AUTO ? ST_COLL_RING : r->algo;
    out->ranks = r->n;
    out->groups = r->nvl_groups;
    out->busbw_factor = st_coll_busbw_factor(r->op, r->n);
    double longest = -1;
    for (int k = 0; k < r->n_phases; k++) {
        phase_desc d;
        cost c = st__coll_phase_cost(cm, r, k, &d);
        out->est_s += c.est;
        if (c.est > longest) {
            longest = c.est;
            out->proto = c.proto;
            out->channels = d.comm.channels;
        }
    }
    st__coll_closed_form(cm, r, out);
    run_free(r);
    return 0;
}

/* ---- one collective alone ------------------------------------------------------------------- */

static void measure_done(void *ctx, uint64_t tag, st_time now)
{
    (void)tag;
    *(st_time *)ctx = now;
}

int st_coll_measure(const st_cluster_cfg *c, const st_coll_spec *spec, st_coll_report *out,
                    st_err *err)
{
    st_topo *t = NULL;
    int rc = st_topo_new(c, &t, err);
    if (rc)
        return rc;
    st_fabsim *fs = st_fabsim_new(t, c);
    st_coll *cm = st_fabsim_coll(fs);
    st_time end = -1;
    st_coll_spec s = *spec;
    s.done = measure_done;
    s.ctx = &end;
    memset(out, 0, sizeof *out);
    rc = st_coll_plan_of(cm, &s, &out->plan, err);
    if (rc == 0) {
        int64_t id = st_coll_start(cm, &s, err);
        rc = id < 0 ? (int)id : 0;
    }
    if (rc == 0) {
        st_engine_run(st_fabsim_engine(fs), ST_TIME_MAX);
        if (st_net_clamped(st_fabsim_net(fs)))
            rc = st_err_set(err, ST_ERANGE, (st_loc){0},
                            "the collective would end past the simulated clock's range (2^63 ns, "
                            "about 292 years): its bytes, the links' rates and latencies");
    }
    if (rc == 0) {
        out->sim_s = (double)end * 1e-9;
        out->algbw = out->sim_s > 0 ? spec->bytes / out->sim_s : INFINITY;
        out->busbw = out->algbw * out->plan.busbw_factor;
    }
    st_fabsim_free(fs);
    st_topo_free(t);
    return rc;
}
