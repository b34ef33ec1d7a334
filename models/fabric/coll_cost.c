/* The collective model's costs: a built phase's uncongested rate, its latency per hop and per
 * transfer, the protocol NCCL's cost model would pick, and the closed form of the enterprise
 * AI-infrastructure guide the project follows, all from NCCL's constants (models/fabric/nccl.h).
 * docs/models/fabric.md derives every latency used here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/coll_internal.h"
#include "models/fabric/topo.h"
#include "sim/xalloc.h"

double st_coll_busbw_factor(st_coll_op op, int64_t n)
{
    if (n < 1)
        return 0;
    double fr = (double)(n - 1) / (double)n;
    switch (op) {
    case ST_COLL_ALL_REDUCE:
        return 2 * fr;
    case ST_COLL_REDUCE_SCATTER:
    case ST_COLL_ALL_GATHER:
    case ST_COLL_ALL_TO_ALL:
        return fr;
    default:
        return 1;
    }
}

/* The fraction of a member's uncongested NVLink rate that NVLS reaches: NCCL's efficiency times
 * the calibrated share of one NVLink direction (models/fabric/nccl.c), over the ring goodput the
 * link capacity already holds. */
static double nvls_factor(const st_coll *cm)
{
    double f = cm->nvls_eff * cm->nccl->nvls_link_share / cm->nvlink_goodput;
    return f < 1.0 ? f : 1.0;
}

/* An NVLS phase's concurrent operations (NCCL's channels times the ranks) and the chunk NCCL
 * moves its bytes in (models/fabric/nccl.c). */
static double nvls_ops(const st_coll *cm, const phase_desc *d)
{
    return (double)cm->nvls_channels * (double)d->comm.ranks;
}

static double nvls_chunk(const st_coll *cm, const phase_desc *d)
{
    return st_nccl_nvls_chunk(cm->nccl, nvls_ops(cm, d), d->b);
}

/* An NVLS phase's latency: NCCL's call latency and its pipeline's fill, nvls_fill_rounds rounds
 * of chunks, each the round's bytes at the switch's uncongested rate plus its fixed cost. */
static double nvls_latency(const st_coll *cm, const phase_desc *d)
{
    const st_nccl_preset *p = cm->nccl;
    double ops = nvls_ops(cm, d), rate = nvls_factor(cm) * d->comm.nvlink_bw;
    double round = (rate > 0 ? ops * nvls_chunk(cm, d) / rate : 0) + p->nvls_round_s;
    return p->nvls_lat + p->nvls_fill_rounds * round;
}

/* The factor on a member's rate that NVLS reaches: nvls_factor, less the rounds' fixed cost
 * spread over their bytes (nvls_round_s per ops x chunk bytes), at the uncongested rate. */
static double nvls_rate_factor(const st_coll *cm, const phase_desc *d, double rate)
{
    double f = nvls_factor(cm), per = nvls_ops(cm, d) * nvls_chunk(cm, d);
    if (!(rate > 0) || isinf(rate) || !(per > 0))
        return f;
    return f / (1 + cm->nccl->nvls_round_s * f * rate / per);
}

/* The slot of link l in the load table, or the empty one where it goes: linear probing from a
 * multiplicative hash (Knuth's 2^32 / phi) of the id. */
static size_t load_slot(const st_coll *cm, int32_t l)
{
    size_t mask = cm->nslot - 1, s = (size_t)((uint32_t)l * 2654435769u) & mask;
    while (cm->slot_link[s] >= 0 && cm->slot_link[s] != l)
        s = (s + 1) & mask;
    return s;
}

/* Room in the load table for `entries` links at most half full; every slot empty. */
static void load_room(st_coll *cm, size_t entries)
{
    size_t n = cm->nslot ? cm->nslot : 64;
    while (n < 2 * entries)
        n *= 2;
    if (n == cm->nslot)
        return;
    free(cm->slot_link);
    free(cm->slot_load);
    cm->slot_link = st_xmalloc(n * sizeof *cm->slot_link);
    cm->slot_load = st_xmalloc(n * sizeof *cm->slot_load);
    for (size_t s = 0; s < n; s++)
        cm->slot_link[s] = -1;
    cm->nslot = n;
}

/* Route every member as st_net would (same keys) and keep the routes for it (cm->route), note
 * each member's latency and hardware, and return the rate of the slowest member when the phase
 * runs alone: min over links of capacity / members. INFINITY when no member crosses a link. */
static double route_members(st_coll *cm)
{
    const double *cap = st_topo_capacities(cm->topo);
    cm->route =
        st_xgrow(cm->route, sizeof *cm->route, cm->m * ST_TOPO_MAX_HOPS + 1, &cm->route_cap);
    /* NVLink's links come first (topo.h): a route starting below the next level's first link
     * starts on NVLink, without st_topo_level's search for every member. */
    int32_t nic0 = st_topo_level_first(cm->topo, ST_LEVEL_NIC);
    size_t entries = 0;
    for (size_t x = 0; x < cm->nx; x++) {
        uint64_t pre = st_topo_flow_pre(cm->xkey[x]); /* the transfer's half of its members' keys */
        for (size_t i = cm->xoff[x]; i < cm->xoff[x + 1]; i++) {
            uint64_t key = st_topo_flow_key_of(pre, (uint64_t)(i - cm->xoff[x]));
            int32_t *links = cm->route + i * ST_TOPO_MAX_HOPS;
            int h = st_topo_gpu_route(cm->topo, cm->src[i], cm->dst[i], key, links, &cm->mlat[i]);
            cm->mhop[i] = (uint8_t)h;
            int nv = h == 0 || links[0] < nic0;
            cm->mhw[i] = (uint8_t)(nv ? ST_NCCL_HW_NVLINK : ST_NCCL_HW_NET);
            /* NCCL's per-hop latency of an NVLink hop (models/fabric/nccl.c) was measured
             * end to end, the links and NVSwitch crossed included; the topology's link and switch
             * latencies are the network's: an NVLink member carries NCCL's alone
             * (docs/models/fabric.md, "Latency") */
            if (nv)
                cm->mlat[i] = 0;
            entries += (size_t)h;
        }
    }
    /* Members per link, the links in the order the routes first cross them. */
    load_room(cm, entries);
    cm->touched = st_xgrow(cm->touched, sizeof *cm->touched, entries + 1, &cm->tcap);
    cm->ntouched = 0;
    for (size_t i = 0; i < cm->m; i++)
        for (int j = 0; j < cm->mhop[i]; j++) {
            size_t s = load_slot(cm, cm->route[i * ST_TOPO_MAX_HOPS + (size_t)j]);
            if (cm->slot_link[s] < 0) {
                cm->slot_link[s] = cm->route[i * ST_TOPO_MAX_HOPS + (size_t)j];
                cm->slot_load[s] = 0;
                cm->touched[cm->ntouched++] = (int32_t)s;
            }
            cm->slot_load[s] += 1;
        }
    /* The least of capacity / members, without glibc's fmin (a library call a link): both are
     * finite and positive, never NaN, so a plain comparison takes the same value. */
    double rate = INFINITY;
    for (size_t i = 0; i < cm->ntouched; i++) {
        size_t s = (size_t)cm->touched[i];
        double r = cap[cm->slot_link[s]] / cm->slot_load[s];
        rate = r < rate ? r : rate;
        cm->slot_link[s] = -1;
    }
    return rate;
}

static st_nccl_proto nccl_proto(st_coll_proto p)
{
    return p == ST_COLL_PROTO_LL      ? ST_NCCL_LL
           : p == ST_COLL_PROTO_LL128 ? ST_NCCL_LL128
                                      : ST_NCCL_SIMPLE;
}

/* An all-to-all inside one NVLink domain under NCCL's Simple protocol, which its grouped sends
 * use at these sizes: the measured regimes of st_nccl_a2a_regime take the place of the ring's
 * latency and rate. */
static int a2a_on_nvlink(const st_coll *cm, const phase_desc *d, st_coll_proto p)
{
    return d->kind == PH_A2A && p == ST_COLL_PROTO_SIMPLE && cm->has_nvlink && d->comm.nodes <= 1;
}

/* Its regime: the bytes leaving a rank are a member's times the concurrent rounds. */
static void a2a_regime(const st_coll *cm, const phase_desc *d, double *eff, double *lat)
{
    st_nccl_a2a_regime(cm->nccl, cm->a2a_lat, d->b * d->bus_mult, d->comm.nvlink_bw, eff, lat);
}

static double hop(const st_coll *cm, const phase_desc *d, st_coll_proto p, st_nccl_hw hw)
{
    if (p == ST_COLL_PROTO_IDEAL)
        return 0;
    return st_nccl_hop_latency(cm->nccl, d->nalgo, nccl_proto(p), hw, &d->comm);
}

/* Latency of transfer x under protocol p: the alpha terms docs/models/fabric.md lists per
 * algorithm. A member's hop costs its path latency plus NCCL's per-hop latency for its hardware;
 * with `real`, also what NCCL's model leaves out (a Simple ring's NVLink pipeline fill), which the
 * transfer pays but the protocol choice does not see. */
/* fmax(acc, y) for an accumulator acc that is never NaN (it starts at 0 and only takes values
 * that compare greater), signed zeros included: glibc's fmax is a library call in this loop,
 * which runs for every transfer of every phase costed. */
static inline double raise_to(double acc, double y)
{
    return y > acc ? y : acc;
}

/* A transfer's members' latencies (path plus hop) summed and at their largest, overall, on
 * NVLink, on the network, and the largest path alone: the figures the alpha terms read. */
typedef struct member_lat {
    double sum, mx, mx_nv, mx_net, mx_path;
} member_lat;

/* members [a, e) of cm, hops hv on NVLink and hn on the network. Each phase kind reads one or
 * two of the figures (st__coll_xfer_latency), and the loop runs for every transfer of every
 * phase costed: `only` names the one asked for (SUM or MAX), else all are taken. The figures
 * taken are the same, bit for bit, as when all are: each accumulates on its own. */
enum { LAT_ALL, LAT_SUM, LAT_MAX };

static member_lat member_latencies(const st_coll *cm, size_t a, size_t e, double hv, double hn,
                                   int only)
{
    member_lat o = {0};
    if (only == LAT_SUM) {
        for (size_t i = a; i < e; i++)
            o.sum += cm->mlat[i] + (cm->mhw[i] == ST_NCCL_HW_NVLINK ? hv : hn);
        return o;
    }
    if (only == LAT_MAX) {
        for (size_t i = a; i < e; i++)
            o.mx = raise_to(o.mx, cm->mlat[i] + (cm->mhw[i] == ST_NCCL_HW_NVLINK ? hv : hn));
        return o;
    }
    for (size_t i = a; i < e; i++) {
        int nv = cm->mhw[i] == ST_NCCL_HW_NVLINK;
        double al = cm->mlat[i] + (nv ? hv : hn);
        o.sum += al;
        o.mx = raise_to(o.mx, al);
        o.mx_path = raise_to(o.mx_path, cm->mlat[i]);
        o.mx_nv = nv ? raise_to(o.mx_nv, al) : o.mx_nv;
        o.mx_net = nv ? o.mx_net : raise_to(o.mx_net, al);
    }
    return o;
}

/* Which of member_latencies' figures phase kind k reads (sync: the run's step mode). */
static int lat_needs(phase_kind k, int sync)
{
    switch (k) {
    case PH_TREE:
    case PH_NVLS:
        return LAT_ALL;
    case PH_A2A:
    case PH_P2P:
        return LAT_MAX;
    default: /* chains, rings and the hierarchy's: the largest, or the sum for the mean */
        return sync ? LAT_MAX : LAT_SUM;
    }
}

double st__coll_xfer_latency(const st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p,
                             size_t x, int real)
{
    if (d->kind == PH_EMPTY)
        return 0;
    if (a2a_on_nvlink(cm, d, p)) { /* the fitted latency is the whole call's, switch included */
        double eff, lat;
        a2a_regime(cm, d, &eff, &lat);
        return lat;
    }
    double hv = hop(cm, d, p, ST_NCCL_HW_NVLINK), hn = hop(cm, d, p, ST_NCCL_HW_NET);
    if (real && p != ST_COLL_PROTO_IDEAL)
        hv += st_nccl_fill_latency(cm->nccl, d->nalgo, nccl_proto(p), ST_NCCL_HW_NVLINK, &d->comm);
    size_t a = cm->xoff[x], e = cm->xoff[x + 1];
    member_lat m = member_latencies(cm, a, e, hv, hn, lat_needs(d->kind, r->sync));
    double base =
        p == ST_COLL_PROTO_IDEAL ? 0 : st_nccl_base_latency(cm->nccl, d->nalgo, nccl_proto(p));
    switch (d->kind) {
    case PH_TREE:
        return base + 2 * (d->depth_intra * (m.mx_nv > 0 ? m.mx_nv : m.mx) + d->steps * m.mx_net);
    case PH_CHAIN:
        return base + (r->sync ? (double)(e - a) * m.mx : m.sum);
    case PH_A2A:
    case PH_P2P:
        return base + m.mx;
    case PH_NVLS: /* one trip through the switch and its pipeline's fill, not a ring hop's */
        return (p == ST_COLL_PROTO_IDEAL ? 0 : nvls_latency(cm, d)) + m.mx_path;
    default:
        break;
    }
    double lat = base + d->steps * (r->sync ? m.mx : (e > a ? m.sum / (double)(e - a) : 0));
    if (p != ST_COLL_PROTO_IDEAL)
        lat *= st_nccl_latency_factor(cm->nccl, d->nalgo, nccl_proto(p), d->ar_bytes > 0, &d->comm,
                                      d->ar_bytes);
    return lat;
}

double st__coll_est(double lat, double b, double f, double rate)
{
    return lat + (isinf(rate) || b == 0 ? 0 : b / (f * rate));
}

static cost eval(const st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p, double rate)
{
    cost c = {.proto = p, .f = 1.0};
    if (d->kind == PH_NVLS) /* the switch's rate is hardware, kept under ideal too */
        c.f = p == ST_COLL_PROTO_IDEAL ? nvls_factor(cm) : nvls_rate_factor(cm, d, rate);
    else if (p != ST_COLL_PROTO_IDEAL)
        c.f = st_nccl_bw_factor(cm->nccl, d->nalgo, nccl_proto(p), &d->comm, d->bus_mult * rate);
    if (a2a_on_nvlink(cm, d, p)) {
        double unused;
        a2a_regime(cm, d, &c.f, &unused);
    }
    double lat = 0;
    for (size_t x = 0; x < cm->nx; x++)
        lat = raise_to(lat, st__coll_xfer_latency(cm, r, d, p, x, 0));
    c.est = st__coll_est(lat, d->b, c.f, rate);
    return c;
}

/* The protocol asked for, or NCCL's choice: the least estimated time, LL first on ties. */
static cost choose(const st_coll *cm, const run *r, const phase_desc *d, double rate)
{
    if (d->kind == PH_NVLS) /* Simple only (coll_check.c refuses LL and LL128) */
        return eval(cm, r, d, r->proto == ST_COLL_PROTO_IDEAL ? r->proto : ST_COLL_PROTO_SIMPLE,
                    rate);
    if (r->proto != ST_COLL_PROTO_AUTO)
        return eval(cm, r, d, r->proto, rate);
    if (a2a_on_nvlink(cm, d, ST_COLL_PROTO_SIMPLE)) /* grouped sends: Simple */
        return eval(cm, r, d, ST_COLL_PROTO_SIMPLE, rate);
    cost best = eval(cm, r, d, ST_COLL_PROTO_LL, rate);
    for (st_coll_proto p = ST_COLL_PROTO_LL128; p <= ST_COLL_PROTO_SIMPLE; p++) {
        cost c = eval(cm, r, d, p, rate);
        if (c.est < best.est)
            best = c;
    }
    return best;
}

int st__coll_prep_eval(st_coll *cm, const run *r, const phase_desc *d, double rate, double f[3],
                       double lat[3], double **real)
{
    /* Ring, chain and send/recv phases: no NVLS factor and no all-reduce plateau, the only
     * terms of a factor or a latency that read the bytes (eval, st__coll_xfer_latency). */
    if (r->n_phases != 1 || r->proto != ST_COLL_PROTO_AUTO || r->op == ST_COLL_ALL_REDUCE ||
        (d->kind != PH_RING && d->kind != PH_CHAIN && d->kind != PH_P2P) || d->ar_bytes != 0)
        return -1;
    *real = st_xmalloc((3 * cm->nx + 1) * sizeof **real);
    phase_desc none = *d; /* eval's latency is its estimate of no bytes: lat + 0 */
    none.b = 0;
    for (int k = 0; k < 3; k++) {
        st_coll_proto p = (st_coll_proto)(ST_COLL_PROTO_LL + k);
        cost c = eval(cm, r, &none, p, rate);
        f[k] = c.f;
        lat[k] = c.est;
        for (size_t x = 0; x < cm->nx; x++)
            (*real)[(size_t)k * cm->nx + x] = st__coll_xfer_latency(cm, r, d, p, x, 1);
    }
    return 0;
}

/* ---- the last costing, reused ---------------------------------------------------------- */

/* Everything a phase's cost and its transfers' latencies read besides the runner's constants:
 * the description, the run's protocol and step mode, the rate alone, and every transfer's
 * members' path latencies and hardware; and what they gave. */
struct cost_memo {
    int valid;
    phase_desc d;
    st_coll_proto proto;
    int sync;
    double rate;
    size_t nx, m;
    size_t *xoff;
    double *mlat;
    uint8_t *mhw;
    size_t xcap, mcap;
    cost c;
    double *real; /* each transfer's st__coll_xfer_latency(..., c.proto, x, 1), once known */
    uint8_t *have;
    size_t rcap, hcap;
};

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Fields one by one: st__coll_set_comm's compound literal leaves the padding unspecified. */
static int same_desc(const phase_desc *a, const phase_desc *b)
{
    return a->kind == b->kind && a->nalgo == b->nalgo && a->comm.arch == b->comm.arch &&
           a->comm.ranks == b->comm.ranks && a->comm.nodes == b->comm.nodes &&
           a->comm.channels == b->comm.channels &&
           same_bits(a->comm.nvlink_bw, b->comm.nvlink_bw) && same_bits(a->b, b->b) &&
           same_bits(a->bus_mult, b->bus_mult) && same_bits(a->steps, b->steps) &&
           same_bits(a->depth_intra, b->depth_intra) && same_bits(a->ar_bytes, b->ar_bytes);
}

/* Whether the phase just built and routed into cm costs as the memo's: the same inputs, bit for
 * bit, give the same protocol, cost and latencies. */
static int memo_matches(const st_coll *cm, const run *r, const phase_desc *d, double rate)
{
    const struct cost_memo *o = cm->last;
    return o && o->valid && o->nx == cm->nx && o->m == cm->m && o->proto == r->proto &&
           o->sync == r->sync && same_bits(o->rate, rate) && same_desc(&o->d, d) &&
           memcmp(o->xoff, cm->xoff, (cm->nx + 1) * sizeof *o->xoff) == 0 &&
           (cm->m == 0 || /* a phase of one rank has no member arrays: no NULL into memcmp */
            (memcmp(o->mhw, cm->mhw, cm->m * sizeof *o->mhw) == 0 &&
             memcmp(o->mlat, cm->mlat, cm->m * sizeof *o->mlat) == 0));
}

static void memo_keep(st_coll *cm, const run *r, const phase_desc *d, double rate, cost c)
{
    if (!cm->last)
        cm->last = st_xcalloc(1, sizeof *cm->last);
    struct cost_memo *o = cm->last;
    o->xoff = st_xgrow(o->xoff, sizeof *o->xoff, cm->nx + 1, &o->xcap);
    o->real = st_xgrow(o->real, sizeof *o->real, cm->nx + 1, &o->rcap);
    o->have = st_xgrow(o->have, sizeof *o->have, cm->nx + 1, &o->hcap);
    size_t mc = o->mcap;
    o->mlat = st_xgrow(o->mlat, sizeof *o->mlat, cm->m + 1, &mc);
    o->mhw = st_xgrow(o->mhw, sizeof *o->mhw, cm->m + 1, &o->mcap);
    memcpy(o->xoff, cm->xoff, (cm->nx + 1) * sizeof *o->xoff);
    memset(o->have, 0, cm->nx);
    if (cm->m) { /* no copy from the member arrays of a runner that never built one */
        memcpy(o->mlat, cm->mlat, cm->m * sizeof *o->mlat);
        memcpy(o->mhw, cm->mhw, cm->m * sizeof *o->mhw);
    }
    o->valid = 1;
    o->d = *d;
    o->proto = r->proto;
    o->sync = r->sync;
    o->rate = rate;
    o->nx = cm->nx;
    o->m = cm->m;
    o->c = c;
}

cost st__coll_phase_cost(st_coll *cm, const run *r, int k, phase_desc *d)
{
    st__coll_build_phase(cm, r, k, d);
    double rate = route_members(cm);
    cm->costings++;
    cm->last_rate = rate;
    cm->last_matched = memo_matches(cm, r, d, rate);
    if (cm->last_matched)
        return cm->last->c;
    cost c = choose(cm, r, d, rate);
    memo_keep(cm, r, d, rate, c);
    return c;
}

double st__coll_start_latency(st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p,
                              size_t x)
{
    struct cost_memo *o = cm->last;
    if (!o || !o->valid || p != o->c.proto || x >= o->nx)
        ST_BUG("collective transfer %zu started without its phase costed last", x);
    if (!o->have[x]) {
        o->real[x] = st__coll_xfer_latency(cm, r, d, p, x, 1);
        o->have[x] = 1;
    }
    return o->real[x];
}

void st__coll_cost_release(st_coll *cm)
{
    struct cost_memo *o = cm->last;
    if (!o)
        return;
    free(o->xoff);
    free(o->mlat);
    free(o->mhw);
    free(o->real);
    free(o->have);
    free(o);
    cm->last = NULL;
}

/* The AI-infrastructure guide's T = 2(N-1)/N * S/B + alpha * log2(N_nodes). B: the bus-bandwidth
 * bottleneck of a ring, the smaller of the NVLink goodput per direction (when ranks share an NVLink
 * group) and the goodput of the NICs a node's ranks use (when there are several groups): a ring
 * crosses each node boundary once per channel, so a node's NICs together carry its ranks' ring
 * traffic. alpha: one network hop of the resolved protocol (path latency plus NCCL's per-hop
 * latency), or one NVLink hop inside a single group. */
void st__coll_closed_form(st_coll *cm, const run *r, st_coll_plan *out)
{
    int64_t ppn, nics, other = -1;
    st__coll_node_share(cm, r, &ppn, &nics);
    (void)ppn;
    double B = INFINITY;
    if (cm->has_nvlink && r->nvl_groups < r->n)
        B = cm->nvlink_cap;
    if (r->nvl_groups > 1)
        B = fmin(B, cm->nic_cap * (double)nics);
    for (int64_t i = 1; i < r->n && other < 0; i++)
        if (r->nvl_groups == 1 ||
            (r->rank[i] + cm->skew) / cm->dom != (r->rank[0] + cm->skew) / cm->dom)
            other = r->rank[i];
    double alpha = 0;
    if (other >= 0) {
        int32_t links[ST_TOPO_MAX_HOPS];
        int h = st_topo_route(cm->topo, r->rank[0], other, r->key, links, ST_TOPO_MAX_HOPS, &alpha);
        int nv = h > 0 && st_topo_level(cm->topo, links[0]) == ST_LEVEL_NVLINK;
        phase_desc d = {.nalgo = ST_NCCL_RING};
        st__coll_set_comm(cm, &d, r->n, r->nvl_groups, 1);
        alpha += hop(cm, &d, out->proto, nv ? ST_NCCL_HW_NVLINK : ST_NCCL_HW_NET);
    }
    double N = (double)r->n;
    out->closed_b = B;
    out->closed_alpha_s = alpha;
    out->closed_s =
        (r->n > 1 ? 2 * (N - 1) / N * r->bytes / B : 0) + alpha * log2((double)r->nvl_groups);
}
