/* Collectives as phases of st_net transfers: the rank layout, the member flows of each algorithm,
 * the protocol NCCL's cost model would pick, and the phase machine that runs on the engine.
 * docs/fabric.md derives every byte count and latency used here. */
#include "models/fabric/collective.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/nccl.h"
#include "models/fabric/transport.h"
#include "sim/xalloc.h"

/* All-to-all rounds run concurrently up to this many member flows in one transfer; beyond it,
 * batches of consecutive shift rounds run one after the other (docs/fabric.md). */
#define A2A_MEMBER_CAP 65536
#define MAX_CHANNELS   64

typedef enum phase_kind {
    PH_EMPTY, /* one rank: nothing to move */
    PH_RING,  /* flat ring all-reduce, reduce-scatter or all-gather */
    PH_CHAIN, /* pipelined broadcast chain */
    PH_TREE,  /* double binary tree all-reduce */
    PH_H_RS,  /* hierarchical: reduce-scatter inside each NVLink group */
    PH_H_AR,  /* hierarchical: one ring all-reduce per rail across the groups */
    PH_H_AG,  /* hierarchical: all-gather inside each NVLink group */
    PH_A2A,   /* a batch of all-to-all shift rounds */
    PH_P2P,   /* send/recv */
    PH_NVLS   /* NVLS all-reduce through the NVSwitch */
} phase_kind;

typedef struct run run;

struct st_coll {
    st_net *net;
    const st_topo *topo;
    const st_nccl_preset *nccl;
    st_nccl_arch arch;
    int64_t gpus, gpn, dom, nics; /* dom: GPUs per NVLink group (a node's, without NVLink) */
    int has_nvlink;
    double nvlink_cap, nic_cap; /* goodput per direction, bytes/s */
    double nvls_eff;            /* NCCL's NVLS efficiency of the GPU; 0: no NVLS */
    double nvlink_goodput;      /* st_nvlink_efficiency of the GPU */
    /* The phase being built: its transfers' members and their routes. */
    int64_t *src, *dst;
    double *mlat; /* one-way path latency of each member */
    uint8_t *mhw; /* st_nccl_hw of each member */
    size_t m, mcap;
    size_t *xoff; /* transfer x holds members [xoff[x], xoff[x + 1]) */
    uint64_t *xkey;
    size_t nx, xcap;
    double *load; /* members per link, while computing the uncongested rate; else all 0 */
    int32_t *touched;
    size_t ntouched, tcap;
    run *head;
    int64_t active, next_id;
};

/* What the cost formulas need about the phase being built. */
typedef struct phase_desc {
    phase_kind kind;
    st_nccl_algo nalgo;
    st_nccl_comm comm;
    double b;           /* bytes per member at full protocol efficiency */
    double bus_mult;    /* Simple bus bandwidth = bus_mult x the slowest member's rate */
    double steps;       /* ring: hops a chunk makes; tree: inter-node depth */
    double depth_intra; /* tree: intra-node chain depth */
    double ar_bytes;    /* all-reduce phases: S of the call (for NCCL's plateau); else 0 */
} phase_desc;

struct run {
    st_coll *cm;
    run *prev, *next;
    int64_t id;
    st_coll_op op;
    st_coll_algo algo;
    st_coll_proto proto;
    int sync, channels;
    int64_t n, ngrp, nvl_groups;
    int64_t *rank, *grp_off; /* ranks grouped: group g is rank[grp_off[g] .. grp_off[g + 1]) */
    double bytes;
    uint64_t key, tag;
    st_coll_done_fn done;
    void *ctx;
    int phase, n_phases;
    size_t pending;
    phase_kind kinds[3];
};

static int64_t mod(int64_t a, int64_t m)
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/* ---- runner --------------------------------------------------------------------------------- */

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
    cm->nvlink_goodput = st_nvlink_efficiency(c->gpu);
    cm->nvlink_cap = c->gpu ? c->gpu->nvlink_bw / 2 * cm->nvlink_goodput : 0;
    cm->nic_cap = c->fabric.nic_bw * st_transport_efficiency(c->fabric.transport);
    cm->nvls_eff = cm->has_nvlink ? st_nccl_nvls_efficiency(cm->nccl, c->gpu) : 0;
    cm->load = st_xcalloc((size_t)st_topo_link_count(t) + 1, sizeof *cm->load);
    return cm;
}

static void run_free(run *r)
{
    if (!r)
        return;
    free(r->rank);
    free(r->grp_off);
    free(r);
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
    free(cm->xoff);
    free(cm->xkey);
    free(cm->load);
    free(cm->touched);
    free(cm);
}

int64_t st_coll_active(const st_coll *cm)
{
    return cm->active;
}

/* ---- names and definitions ------------------------------------------------------------------ */

const char *st_coll_op_name(st_coll_op op)
{
    static const char *const names[] = {"all-reduce", "reduce-scatter", "all-gather",
                                        "broadcast",  "all-to-all",     "send-recv"};
    return (int)op >= 0 && op < ST_COLL_OP__COUNT ? names[op] : "?";
}

const char *st_coll_algo_name(st_coll_algo a)
{
    static const char *const names[] = {"auto", "ring", "tree", "hier", "nvls"};
    return (int)a >= 0 && a < ST_COLL_ALGO__COUNT ? names[a] : "?";
}

const char *st_coll_proto_name(st_coll_proto p)
{
    static const char *const names[] = {"auto", "LL", "LL128", "Simple", "ideal"};
    return (int)p >= 0 && p < ST_COLL_PROTO__COUNT ? names[p] : "?";
}

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

/* ---- rank layout ---------------------------------------------------------------------------- */

typedef struct item {
    int64_t grp, first, gpu;
} item;

static int cmp_grp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->grp != y->grp)
        return x->grp < y->grp ? -1 : 1;
    return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

static int cmp_first(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

typedef enum layout_mode { LAY_ORDER, LAY_GROUPS } layout_mode;

/* Sort items by (group, gpu). Returns the number of groups, or -1 when a GPU repeats. */
static int64_t sort_groups(item *it, int64_t n)
{
    qsort(it, (size_t)n, sizeof *it, cmp_grp);
    int64_t groups = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && it[i].gpu == it[i - 1].gpu)
            return -1;
        groups += i == 0 || it[i].grp != it[i - 1].grp;
    }
    return groups;
}

/* Fill r->rank, r->grp_off and r->nvl_groups from gpus. LAY_ORDER keeps the given order as one
 * group; LAY_GROUPS groups ranks by NVLink group (by node without NVLink), groups in order of
 * first appearance in gpus and ranks by id inside a group (so the j-th rank of every full group
 * has the same local index: the same rail). Returns 0 or ST_EINVAL for a repeated GPU. */
static int layout(st_coll *cm, run *r, const int64_t *gpus, layout_mode mode, st_err *err)
{
    int64_t n = r->n;
    item *it = st_xmalloc(sizeof *it * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        it[i] = (item){.grp = gpus[i] / cm->dom, .first = i, .gpu = gpus[i]};
    r->nvl_groups = sort_groups(it, n);
    if (r->nvl_groups < 0) {
        free(it);
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "a collective lists gpu twice");
    }
    r->rank = st_xmalloc(sizeof *r->rank * (size_t)n);
    r->grp_off = st_xmalloc(sizeof *r->grp_off * (size_t)(n + 1));
    if (mode == LAY_ORDER) {
        memcpy(r->rank, gpus, sizeof *r->rank * (size_t)n);
        r->ngrp = 1;
        r->grp_off[0] = 0;
        r->grp_off[1] = n;
        free(it);
        return 0;
    }
    for (int64_t a = 0, b; a < n; a = b) {
        int64_t lo = it[a].first;
        for (b = a + 1; b < n && it[b].grp == it[a].grp; b++)
            lo = it[b].first < lo ? it[b].first : lo;
        for (int64_t i = a; i < b; i++)
            it[i].first = lo;
    }
    qsort(it, (size_t)n, sizeof *it, cmp_first);
    r->ngrp = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || it[i].grp != it[i - 1].grp)
            r->grp_off[r->ngrp++] = i;
        r->rank[i] = it[i].gpu;
    }
    r->grp_off[r->ngrp] = n;
    free(it);
    return 0;
}

static int64_t grp_size(const run *r, int64_t g)
{
    return r->grp_off[g + 1] - r->grp_off[g];
}

/* Ranks on the node of the first rank, and the distinct NICs they use. O(n). */
static void node_share(const st_coll *cm, const run *r, int64_t *ppn, int64_t *nics)
{
    int64_t node = r->rank[0] / cm->gpn;
    unsigned char *seen = st_xcalloc((size_t)cm->nics, 1);
    *ppn = *nics = 0;
    for (int64_t i = 0; i < r->n; i++) {
        if (r->rank[i] / cm->gpn != node)
            continue;
        int64_t nic = (r->rank[i] % cm->gpn) * cm->nics / cm->gpn;
        (*ppn)++;
        *nics += !seen[nic];
        seen[nic] = 1;
    }
    free(seen);
}

static int nics_used(const st_coll *cm, const run *r)
{
    int64_t ppn, nics;
    node_share(cm, r, &ppn, &nics);
    return nics > 0 ? (int)nics : 1;
}

/* ---- building a phase's members ------------------------------------------------------------- */

static void add_member(st_coll *cm, int64_t s, int64_t d)
{
    if (cm->m == cm->mcap) {
        size_t cap = cm->mcap;
        cm->src = st_xgrow(cm->src, sizeof *cm->src, cm->m + 1, &cap);
        cap = cm->mcap;
        cm->dst = st_xgrow(cm->dst, sizeof *cm->dst, cm->m + 1, &cap);
        cap = cm->mcap;
        cm->mlat = st_xgrow(cm->mlat, sizeof *cm->mlat, cm->m + 1, &cap);
        cap = cm->mcap;
        cm->mhw = st_xgrow(cm->mhw, sizeof *cm->mhw, cm->m + 1, &cap);
        cm->mcap = cap;
    }
    cm->src[cm->m] = s;
    cm->dst[cm->m++] = d;
}

/* Open transfer number nx with members from here on; its ECMP key derives from the
 * collective's key, the phase and the transfer's index. */
static void open_xfer(st_coll *cm, const run *r, int phase)
{
    if (cm->nx + 2 > cm->xcap) {
        size_t cap = cm->xcap;
        cm->xoff = st_xgrow(cm->xoff, sizeof *cm->xoff, cm->nx + 2, &cap);
        cap = cm->xcap;
        cm->xkey = st_xgrow(cm->xkey, sizeof *cm->xkey, cm->nx + 2, &cap);
        cm->xcap = cap;
    }
    cm->xoff[cm->nx] = cm->m;
    cm->xkey[cm->nx] = st_topo_flow_key(st_topo_flow_key(r->key, (uint64_t)phase), cm->nx);
    cm->nx++;
    cm->xoff[cm->nx] = cm->m;
}

static void close_xfers(st_coll *cm)
{
    cm->xoff[cm->nx] = cm->m;
}

/* Ring order of channel c of C into the member arrays, as one closed cycle. Groups come
 * in layout order; inside a group the ring walks the ranks from an entry rank, forwards on
 * even-numbered groups and backwards on odd ones, and leaves from the entry's neighbour; the
 * next group is entered at the same local index it was left from. The exiting GPU and the
 * entered GPU are therefore on the same rail (same NIC index), as NCCL's rings are, and the
 * channels' entries, spread over the first group, spread the node-crossing edges over all NICs.
 * With an odd number of groups the closing edge crosses rails. */
static void ring_cycle(st_coll *cm, const run *r, int c, int C)
{
    int64_t k0 = grp_size(r, 0), e = C <= k0 ? (int64_t)c * k0 / C : c % k0;
    size_t first = cm->m;
    for (int64_t p = 0; p < r->ngrp; p++) {
        int64_t off = r->grp_off[p], k = grp_size(r, p), d = (p % 2 == 1) ? -1 : 1;
        e %= k;
        for (int64_t j = 0; j < k; j++)
            add_member(cm, r->rank[off + mod(e + j * d, k)], 0);
        e = mod(e - d, k);
    }
    for (size_t i = first; i < cm->m; i++)
        cm->dst[i] = cm->src[i + 1 < cm->m ? i + 1 : first];
}

static int default_channels(const st_coll *cm, const run *r, phase_kind k)
{
    const st_nccl_preset *p = cm->nccl;
    int c;
    if (r->channels > 0)
        return r->channels;
    switch (k) {
    case PH_H_RS:
    case PH_H_AG:
        return cm->has_nvlink ? p->channels_nvlink : p->channels_per_nic;
    case PH_H_AR:
        return p->channels_per_nic;
    case PH_A2A:
    case PH_P2P:
    case PH_EMPTY:
        return 1;
    default:
        break;
    }
    if (r->nvl_groups == 1 && cm->has_nvlink)
        return p->channels_nvlink;
    c = p->channels_per_nic * nics_used(cm, r);
    return c < p->max_channels ? c : p->max_channels;
}

static void set_comm(const st_coll *cm, phase_desc *d, int64_t ranks, int64_t nodes, int ch)
{
    d->comm = (st_nccl_comm){.arch = cm->arch,
                             .ranks = ranks,
                             .nodes = nodes,
                             .channels = ch,
                             .nvlink_bw = cm->has_nvlink ? cm->nvlink_cap : 0};
}

/* Flat ring (all-reduce, reduce-scatter, all-gather) or broadcast chain: one transfer per
 * channel. Inside one NVLink group every channel's cycle is the same set of edges, so one
 * transfer carries all channels' bytes (exact: identical link sets get identical rates). */
static void build_ring(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int C = default_channels(cm, r, d->kind);
    int copies = r->nvl_groups == 1 && cm->has_nvlink ? 1 : C;
    int64_t n = r->n;
    double fr = (double)(n - 1) / (double)n, S = r->bytes;
    double fac = r->op == ST_COLL_ALL_REDUCE ? 2 * fr : d->kind == PH_CHAIN ? 1 : fr;
    for (int c = 0; c < copies; c++) {
        open_xfer(cm, r, phase);
        if (d->kind == PH_CHAIN) {
            for (int64_t i = 0; i + 1 < n; i++)
                add_member(cm, r->rank[i], r->rank[i + 1]);
        } else {
            ring_cycle(cm, r, c, C);
        }
    }
    close_xfers(cm);
    d->nalgo = ST_NCCL_RING;
    set_comm(cm, d, n, r->nvl_groups, C);
    d->b = fac * S / copies;
    d->bus_mult = copies;
    d->steps = r->op == ST_COLL_ALL_REDUCE ? 2.0 * (double)(n - 1) : (double)(n - 1);
    d->ar_bytes = r->op == ST_COLL_ALL_REDUCE ? S : 0;
}

/* Node `q` of tree t's heap order: tree 0 is the heap over the layout's nodes, tree 1 the heap
 * over them in reverse, so that (for an even count) each node is interior in exactly one. */
static int64_t tree_node(int t, int64_t q, int64_t N)
{
    return t == 0 ? q : N - 1 - q;
}

/* Double binary tree, one transfer per channel: channel c < C/2 carries tree 0, c + C/2 the
 * mirror tree 1 through the same head GPU and NIC (NCCL duplicates tree channels this way). Per
 * NVLink group, a chain from the head GPU; per tree, a binary tree over the groups' heads. Every
 * edge carries the channel's share up (reduce) and down (broadcast). */
static void build_tree(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int C = default_channels(cm, r, PH_TREE), half = C / 2 > 0 ? C / 2 : 1;
    int64_t N = r->ngrp, k0 = grp_size(r, 0);
    for (int c = 0; c < 2 * half; c++) {
        int t = c / half, h = c % half;
        int64_t o = half <= k0 ? (int64_t)h * k0 / half : h % k0;
        open_xfer(cm, r, phase);
        for (int64_t p = 0; p < N; p++) {
            int64_t off = r->grp_off[p], k = grp_size(r, p);
            for (int64_t j = 1; j < k; j++) {
                int64_t a = r->rank[off + (o + j) % k], b = r->rank[off + (o + j - 1) % k];
                add_member(cm, a, b);
                add_member(cm, b, a);
            }
        }
        for (int64_t q = 1; q < N; q++) {
            int64_t ch = tree_node(t, q, N), pa = tree_node(t, (q - 1) / 2, N);
            int64_t hc = r->rank[r->grp_off[ch] + o % grp_size(r, ch)];
            int64_t hp = r->rank[r->grp_off[pa] + o % grp_size(r, pa)];
            add_member(cm, hc, hp);
            add_member(cm, hp, hc);
        }
    }
    close_xfers(cm);
    d->nalgo = ST_NCCL_TREE;
    set_comm(cm, d, r->n, r->nvl_groups, 2 * half);
    d->b = r->bytes / (2 * half);
    d->bus_mult = st_coll_busbw_factor(ST_COLL_ALL_REDUCE, r->n) * 2 * half;
    d->depth_intra = (double)(k0 - 1);
    d->steps = floor(log2((double)N));
}

/* Hierarchical phases. Reduce-scatter and all-gather: one ring per NVLink group over its k
 * ranks, all in one transfer (the groups use disjoint links, and each channel's cycle is the same
 * set of edges, which no hash spreads). All-reduce: ring j joins the j-th rank of every group, on
 * S/k bytes; one transfer per ring (rail) and channel. */
static void build_hier(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int64_t k = grp_size(r, 0), G = r->ngrp;
    int C = default_channels(cm, r, d->kind);
    double S = r->bytes;
    d->nalgo = ST_NCCL_RING;
    if (d->kind == PH_H_AR) {
        for (int64_t j = 0; j < k; j++)
            for (int c = 0; c < C; c++) {
                open_xfer(cm, r, phase);
                for (int64_t p = 0; p < G; p++)
                    add_member(cm, r->rank[r->grp_off[p] + j],
                               r->rank[r->grp_off[(p + 1) % G] + j]);
            }
        set_comm(cm, d, G, G, C);
        d->b = 2.0 * (double)(G - 1) / (double)G * (S / (double)k) / C;
        d->bus_mult = C;
        d->steps = 2.0 * (double)(G - 1);
        d->ar_bytes = S / (double)k;
    } else {
        open_xfer(cm, r, phase);
        for (int64_t p = 0; p < G; p++)
            for (int64_t i = 0; i < k; i++)
                add_member(cm, r->rank[r->grp_off[p] + i], r->rank[r->grp_off[p] + (i + 1) % k]);
        set_comm(cm, d, k, 1, C);
        d->b = (double)(k - 1) / (double)k * S;
        d->bus_mult = 1;
        d->steps = (double)(k - 1);
    }
    close_xfers(cm);
}

/* NVLS all-reduce: every rank pushes its S bytes up its NVLink into the switch, which reduces
 * them, and pulls the S-byte result back down. As flows, one member per rank to the next rank
 * in the group, one transfer: each GPU's up and down links carry S once. The rate is NCCL's
 * NVLS efficiency times the calibrated share of an NVLink direction (nvls_factor). */
static void build_nvls(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    open_xfer(cm, r, phase);
    for (int64_t i = 0; i < r->n; i++)
        add_member(cm, r->rank[i], r->rank[(i + 1) % r->n]);
    close_xfers(cm);
    d->nalgo = ST_NCCL_RING; /* only names the communicator; NVLS has its own costs */
    set_comm(cm, d, r->n, 1, 1);
    d->b = r->bytes;
    d->bus_mult = 1;
    d->steps = 1;
}

/* The fraction of a member's uncongested NVLink rate that NVLS reaches: NCCL's efficiency times
 * the calibrated share of one NVLink direction (models/fabric/nccl.c), over the ring goodput the
 * link capacity already holds. */
static double nvls_factor(const st_coll *cm)
{
    double f = cm->nvls_eff * cm->nccl->nvls_link_share / cm->nvlink_goodput;
    return f < 1.0 ? f : 1.0;
}

/* All-to-all batch `phase`: shift rounds s = 1 + phase*R .. , rank i sends S/n to rank i + s. */
static void build_a2a(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int64_t n = r->n, R = A2A_MEMBER_CAP / n > 0 ? A2A_MEMBER_CAP / n : 1;
    int64_t s0 = 1 + (int64_t)phase * R, s1 = s0 + R < n ? s0 + R : n;
    open_xfer(cm, r, phase);
    for (int64_t s = s0; s < s1; s++)
        for (int64_t i = 0; i < n; i++)
            add_member(cm, r->rank[i], r->rank[(i + s) % n]);
    close_xfers(cm);
    d->nalgo = ST_NCCL_RING;
    set_comm(cm, d, n, r->nvl_groups, 1);
    d->b = r->bytes / (double)n;
    d->bus_mult = (double)(s1 - s0);
}

static phase_kind phase_at(const run *r, int k)
{
    return r->op == ST_COLL_ALL_TO_ALL && r->n > 1 ? PH_A2A : r->kinds[k];
}

/* Fill the member arrays with phase k of r and describe it. */
static void build_phase(st_coll *cm, const run *r, int k, phase_desc *d)
{
    memset(d, 0, sizeof *d);
    d->kind = phase_at(r, k);
    cm->m = cm->nx = 0;
    switch (d->kind) {
    case PH_RING:
    case PH_CHAIN:
        build_ring(cm, r, k, d);
        break;
    case PH_TREE:
        build_tree(cm, r, k, d);
        break;
    case PH_H_RS:
    case PH_H_AR:
    case PH_H_AG:
        build_hier(cm, r, k, d);
        break;
    case PH_A2A:
        build_a2a(cm, r, k, d);
        break;
    case PH_NVLS:
        build_nvls(cm, r, k, d);
        break;
    case PH_P2P:
        open_xfer(cm, r, k);
        add_member(cm, r->rank[0], r->rank[1]);
        close_xfers(cm);
        d->nalgo = ST_NCCL_RING;
        set_comm(cm, d, 2, r->nvl_groups, 1);
        d->b = r->bytes;
        d->bus_mult = 1;
        break;
    case PH_EMPTY:
        open_xfer(cm, r, k);
        close_xfers(cm);
        set_comm(cm, d, 1, 1, 1);
        d->bus_mult = 1;
        break;
    }
}

/* ---- cost of a built phase ------------------------------------------------------------------ */

/* Route every member as st_net will (same keys), note its latency and hardware, and return the
 * rate of the slowest member when the phase runs alone: min over links of capacity / members.
 * INFINITY when no member crosses a link. */
static double route_members(st_coll *cm)
{
    const double *cap = st_topo_capacities(cm->topo);
    int32_t links[ST_TOPO_MAX_HOPS];
    cm->ntouched = 0;
    for (size_t x = 0; x < cm->nx; x++)
        for (size_t i = cm->xoff[x]; i < cm->xoff[x + 1]; i++) {
            uint64_t key = st_topo_flow_key(cm->xkey[x], (uint64_t)(i - cm->xoff[x]));
            int h = st_topo_route(cm->topo, cm->src[i], cm->dst[i], key, links, ST_TOPO_MAX_HOPS,
                                  &cm->mlat[i]);
            int nv = h == 0 || st_topo_level(cm->topo, links[0]) == ST_LEVEL_NVLINK;
            cm->mhw[i] = (uint8_t)(nv ? ST_NCCL_HW_NVLINK : ST_NCCL_HW_NET);
            for (int j = 0; j < h; j++) {
                if (cm->load[links[j]] == 0) {
                    cm->touched =
                        st_xgrow(cm->touched, sizeof *cm->touched, cm->ntouched + 1, &cm->tcap);
                    cm->touched[cm->ntouched++] = links[j];
                }
                cm->load[links[j]] += 1;
            }
        }
    double rate = INFINITY;
    for (size_t i = 0; i < cm->ntouched; i++) {
        int32_t l = cm->touched[i];
        rate = fmin(rate, cap[l] / cm->load[l]);
        cm->load[l] = 0;
    }
    return rate;
}

static st_nccl_proto nccl_proto(st_coll_proto p)
{
    return p == ST_COLL_PROTO_LL      ? ST_NCCL_LL
           : p == ST_COLL_PROTO_LL128 ? ST_NCCL_LL128
                                      : ST_NCCL_SIMPLE;
}

static double hop(const st_coll *cm, const phase_desc *d, st_coll_proto p, st_nccl_hw hw)
{
    if (p == ST_COLL_PROTO_IDEAL)
        return 0;
    return st_nccl_hop_latency(cm->nccl, d->nalgo, nccl_proto(p), hw, &d->comm);
}

/* Latency of transfer x under protocol p: the alpha terms docs/fabric.md lists per algorithm.
 * A member's hop costs its path latency plus NCCL's per-hop latency for its hardware; with
 * `real`, also what NCCL's model leaves out (a Simple ring's NVLink pipeline fill), which the
 * transfer pays but the protocol choice does not see. */
static double xfer_latency(const st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p,
                           size_t x, int real)
{
    double hv = hop(cm, d, p, ST_NCCL_HW_NVLINK), hn = hop(cm, d, p, ST_NCCL_HW_NET);
    if (real && p != ST_COLL_PROTO_IDEAL)
        hv += st_nccl_fill_latency(cm->nccl, d->nalgo, nccl_proto(p), ST_NCCL_HW_NVLINK, &d->comm);
    double sum = 0, mx = 0, mx_nv = 0, mx_net = 0, mx_path = 0;
    size_t a = cm->xoff[x], e = cm->xoff[x + 1];
    for (size_t i = a; i < e; i++) {
        int nv = cm->mhw[i] == ST_NCCL_HW_NVLINK;
        double al = cm->mlat[i] + (nv ? hv : hn);
        sum += al;
        mx = fmax(mx, al);
        mx_path = fmax(mx_path, cm->mlat[i]);
        mx_nv = nv ? fmax(mx_nv, al) : mx_nv;
        mx_net = nv ? mx_net : fmax(mx_net, al);
    }
    if (d->kind == PH_EMPTY)
        return 0;
    double base =
        p == ST_COLL_PROTO_IDEAL ? 0 : st_nccl_base_latency(cm->nccl, d->nalgo, nccl_proto(p));
    switch (d->kind) {
    case PH_TREE:
        return base + 2 * (d->depth_intra * (mx_nv > 0 ? mx_nv : mx) + d->steps * mx_net);
    case PH_CHAIN:
        return base + (r->sync ? (double)(e - a) * mx : sum);
    case PH_A2A:
    case PH_P2P:
        return base + mx;
    case PH_NVLS: /* one trip through the switch: NCCL's NVLS latency, not a ring hop's */
        return (p == ST_COLL_PROTO_IDEAL ? 0 : cm->nccl->nvls_lat) + mx_path;
    default:
        break;
    }
    double lat = base + d->steps * (r->sync ? mx : (e > a ? sum / (double)(e - a) : 0));
    if (p != ST_COLL_PROTO_IDEAL)
        lat *= st_nccl_latency_factor(cm->nccl, d->nalgo, nccl_proto(p), d->ar_bytes > 0, &d->comm,
                                      d->ar_bytes);
    return lat;
}

typedef struct cost {
    st_coll_proto proto;
    double f;   /* protocol bandwidth factor: members move b / f bytes */
    double est; /* seconds, alone */
} cost;

static cost eval(const st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p, double rate)
{
    cost c = {.proto = p, .f = 1.0};
    if (d->kind == PH_NVLS) /* the switch's rate is hardware, kept under ideal too */
        c.f = nvls_factor(cm);
    else if (p != ST_COLL_PROTO_IDEAL)
        c.f = st_nccl_bw_factor(cm->nccl, d->nalgo, nccl_proto(p), &d->comm, d->bus_mult * rate);
    double lat = 0;
    for (size_t x = 0; x < cm->nx; x++)
        lat = fmax(lat, xfer_latency(cm, r, d, p, x, 0));
    c.est = lat + (isinf(rate) || d->b == 0 ? 0 : d->b / (c.f * rate));
    return c;
}

/* The protocol asked for, or NCCL's choice: the least estimated time, LL first on ties. */
static cost choose(const st_coll *cm, const run *r, const phase_desc *d, double rate)
{
    if (d->kind == PH_NVLS) /* Simple only (check_spec refuses LL and LL128) */
        return eval(cm, r, d, r->proto == ST_COLL_PROTO_IDEAL ? r->proto : ST_COLL_PROTO_SIMPLE,
                    rate);
    if (r->proto != ST_COLL_PROTO_AUTO)
        return eval(cm, r, d, r->proto, rate);
    cost best = eval(cm, r, d, ST_COLL_PROTO_LL, rate);
    for (st_coll_proto p = ST_COLL_PROTO_LL128; p <= ST_COLL_PROTO_SIMPLE; p++) {
        cost c = eval(cm, r, d, p, rate);
        if (c.est < best.est)
            best = c;
    }
    return best;
}

static cost phase_cost(st_coll *cm, const run *r, int k, phase_desc *d)
{
    build_phase(cm, r, k, d);
    return choose(cm, r, d, route_members(cm));
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
static void start_phase(run *r)
{
    st_coll *cm = r->cm;
    phase_desc d;
    cost c = phase_cost(cm, r, r->phase, &d);
    r->pending = cm->nx;
    for (size_t x = 0; x < cm->nx; x++) {
        st_xfer_spec xs = {.src = cm->src + cm->xoff[x],
                           .dst = cm->dst + cm->xoff[x],
                           .n = cm->xoff[x + 1] - cm->xoff[x],
                           .bytes = d.b / c.f,
                           .latency_s = xfer_latency(cm, r, &d, c.proto, x, 1),
                           .key = cm->xkey[x],
                           .tag = x,
                           .done = on_xfer_done,
                           .ctx = r};
        st_net_start(cm->net, &xs);
    }
}

/* ---- starting ------------------------------------------------------------------------------- */

static int check_spec(const st_coll *cm, const st_coll_spec *s, st_err *err)
{
    const st_loc nowhere = {0};
    if ((int)s->op < 0 || s->op >= ST_COLL_OP__COUNT || (int)s->algo < 0 ||
        s->algo >= ST_COLL_ALGO__COUNT || (int)s->proto < 0 || s->proto >= ST_COLL_PROTO__COUNT)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "collective operation, algorithm or protocol "
                          "out of range");
    if (s->n < 1 || !s->gpus)
        return st_err_set(err, ST_EINVAL, nowhere, "a collective needs at least one gpu");
    if (s->channels < 0 || s->channels > MAX_CHANNELS)
        return st_err_set(err, ST_EINVAL, nowhere, "channels %d outside 0..%d", s->channels,
                          MAX_CHANNELS);
    if (!(s->bytes >= 0) || isinf(s->bytes))
        return st_err_set(err, ST_EINVAL, nowhere, "collective size %g bytes", s->bytes);
    if ((s->algo == ST_COLL_TREE || s->algo == ST_COLL_HIER || s->algo == ST_COLL_NVLS) &&
        s->op != ST_COLL_ALL_REDUCE)
        return st_err_set(err, ST_EINVAL, nowhere, "algorithm '%s' is for all-reduce only",
                          st_coll_algo_name(s->algo));
    if (s->algo == ST_COLL_NVLS && cm->nvls_eff <= 0)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' needs NVSwitch multicast (a Hopper or Blackwell GPU "
                          "in an NVLink domain)");
    if (s->algo == ST_COLL_NVLS &&
        (s->proto == ST_COLL_PROTO_LL || s->proto == ST_COLL_PROTO_LL128))
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' runs the Simple protocol only");
    if (s->op == ST_COLL_SEND_RECV && s->n != 2)
        return st_err_set(err, ST_EINVAL, nowhere, "send-recv takes 2 gpus, not %lld",
                          (long long)s->n);
    for (int64_t i = 0; i < s->n; i++)
        if (s->gpus[i] < 0 || s->gpus[i] >= cm->gpus)
            return st_err_set(err, ST_EINVAL, nowhere, "gpu %lld outside 0..%lld",
                              (long long)s->gpus[i], (long long)cm->gpus - 1);
    return 0;
}

static void plan_hier(run *r)
{
    int64_t k = grp_size(r, 0);
    r->n_phases = 0;
    if (k > 1)
        r->kinds[r->n_phases++] = PH_H_RS;
    if (r->ngrp > 1)
        r->kinds[r->n_phases++] = PH_H_AR;
    if (k > 1)
        r->kinds[r->n_phases++] = PH_H_AG;
}

/* Resolve the algorithm and the phase list. AUTO all-reduce takes the cheapest of ring, tree and,
 * where it can run, NVLS, alone on the fabric, as NCCL's tuner does. */
static void plan_phases(st_coll *cm, run *r)
{
    r->n_phases = 1;
    if (r->n == 1) {
        r->kinds[0] = PH_EMPTY;
        return;
    }
    switch (r->op) {
    case ST_COLL_ALL_REDUCE:
        if (r->algo == ST_COLL_HIER) {
            plan_hier(r);
            return;
        }
        if (r->algo == ST_COLL_AUTO) {
            phase_desc d;
            r->kinds[0] = PH_RING;
            double ring = phase_cost(cm, r, 0, &d).est;
            r->kinds[0] = PH_TREE;
            double tree = phase_cost(cm, r, 0, &d).est;
            r->algo = tree < ring ? ST_COLL_TREE : ST_COLL_RING;
            /* NVLS competes inside one NVLink domain of a part that has it (NCCL enables it
             * there and its tuner weighs it like the others). */
            if (cm->nvls_eff > 0 && r->nvl_groups == 1 && r->proto != ST_COLL_PROTO_LL &&
                r->proto != ST_COLL_PROTO_LL128) {
                r->kinds[0] = PH_NVLS;
                if (phase_cost(cm, r, 0, &d).est < fmin(ring, tree))
                    r->algo = ST_COLL_NVLS;
            }
        }
        r->kinds[0] = r->algo == ST_COLL_TREE   ? PH_TREE
                      : r->algo == ST_COLL_NVLS ? PH_NVLS
                                                : PH_RING;
        return;
    case ST_COLL_BROADCAST:
        r->kinds[0] = PH_CHAIN;
        return;
    case ST_COLL_ALL_TO_ALL: {
        int64_t R = A2A_MEMBER_CAP / r->n > 0 ? A2A_MEMBER_CAP / r->n : 1;
        r->n_phases = (int)((r->n - 1 + R - 1) / R);
        return;
    }
    case ST_COLL_SEND_RECV:
        r->kinds[0] = PH_P2P;
        return;
    default:
        r->kinds[0] = PH_RING;
        return;
    }
}

/* A checked, laid-out, planned run (not yet linked or started), or NULL with *rc set. */
static run *make_run(st_coll *cm, const st_coll_spec *s, int *rc, st_err *err)
{
    *rc = check_spec(cm, s, err);
    if (*rc)
        return NULL;
    run *r = st_xcalloc(1, sizeof *r);
    *r = (run){.cm = cm,
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
               .ctx = s->ctx};
    if (r->algo == ST_COLL_AUTO && r->op != ST_COLL_ALL_REDUCE)
        r->algo = ST_COLL_RING;
    /* Rings, trees and the hierarchy all group ranks by NVLink group (NCCL's node, with a
     * multi-node NVLink domain counted as one, as NCCL's MNNVL does); the rest keep the order. */
    layout_mode mode = (r->op == ST_COLL_ALL_REDUCE || r->op == ST_COLL_REDUCE_SCATTER ||
                        r->op == ST_COLL_ALL_GATHER)
                           ? LAY_GROUPS
                           : LAY_ORDER;
    *rc = layout(cm, r, s->gpus, mode, err);
    if (*rc == 0 && r->algo == ST_COLL_NVLS && r->nvl_groups > 1)
        *rc = st_err_set(err, ST_EINVAL, (st_loc){0},
                         "nvls reduces inside one NVLink domain; these ranks span %lld",
                         (long long)r->nvl_groups);
    for (int64_t g = 1; *rc == 0 && r->algo == ST_COLL_HIER && g < r->ngrp; g++)
        if (grp_size(r, g) != grp_size(r, 0))
            *rc = st_err_set(err, ST_EINVAL, (st_loc){0},
                             "hier needs the same number of ranks in every NVLink group (%lld "
                             "and %lld)",
                             (long long)grp_size(r, 0), (long long)grp_size(r, g));
    if (*rc) {
        run_free(r);
        return NULL;
    }
    plan_phases(cm, r);
    return r;
}

int64_t st_coll_start(st_coll *cm, const st_coll_spec *spec, st_err *err)
{
    int rc;
    run *r = make_run(cm, spec, &rc, err);
    if (!r)
        return rc;
    r->id = cm->next_id++;
    r->next = cm->head;
    if (cm->head)
        cm->head->prev = r;
    cm->head = r;
    cm->active++;
    start_phase(r);
    return r->id;
}

/* ---- plans ---------------------------------------------------------------------------------- */

/* The seed's T = 2(N-1)/N * S/B + alpha * log2(N_nodes). B: the bus-bandwidth bottleneck of a
 * ring, the smaller of the NVLink goodput per direction (when ranks share an NVLink group) and
 * the goodput of the NICs a node's ranks use (when there are several groups): a ring crosses
 * each node boundary once per channel, so a node's NICs together carry its ranks' ring traffic.
 * alpha: one network hop of the resolved protocol (path latency plus NCCL's per-hop latency), or
 * one NVLink hop inside a single group. */
static void closed_form(st_coll *cm, const run *r, st_coll_plan *out)
{
    int64_t ppn, nics, other = -1;
    node_share(cm, r, &ppn, &nics);
    (void)ppn;
    double B = INFINITY;
    if (cm->has_nvlink && r->nvl_groups < r->n)
        B = cm->nvlink_cap;
    if (r->nvl_groups > 1)
        B = fmin(B, cm->nic_cap * (double)nics);
    for (int64_t i = 1; i < r->n && other < 0; i++)
        if (r->nvl_groups == 1 || r->rank[i] / cm->dom != r->rank[0] / cm->dom)
            other = r->rank[i];
    double alpha = 0;
    if (other >= 0) {
        int32_t links[ST_TOPO_MAX_HOPS];
        int h = st_topo_route(cm->topo, r->rank[0], other, r->key, links, ST_TOPO_MAX_HOPS, &alpha);
        int nv = h > 0 && st_topo_level(cm->topo, links[0]) == ST_LEVEL_NVLINK;
        phase_desc d = {.nalgo = ST_NCCL_RING};
        set_comm(cm, &d, r->n, r->nvl_groups, 1);
        alpha += hop(cm, &d, out->proto, nv ? ST_NCCL_HW_NVLINK : ST_NCCL_HW_NET);
    }
    double N = (double)r->n;
    out->closed_b = B;
    out->closed_alpha_s = alpha;
    out->closed_s =
        (r->n > 1 ? 2 * (N - 1) / N * r->bytes / B : 0) + alpha * log2((double)r->nvl_groups);
}

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
        cost c = phase_cost(cm, r, k, &d);
        out->est_s += c.est;
        if (c.est > longest) {
            longest = c.est;
            out->proto = c.proto;
            out->channels = d.comm.channels;
        }
    }
    closed_form(cm, r, out);
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
    st_engine *eng = st_engine_new();
    st_net *net = st_net_new(eng, t);
    st_coll *cm = st_coll_new(net, t, c);
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
        st_engine_run(eng, ST_TIME_MAX);
        out->sim_s = (double)end * 1e-9;
        out->algbw = out->sim_s > 0 ? spec->bytes / out->sim_s : INFINITY;
        out->busbw = out->algbw * out->plan.busbw_factor;
    }
    st_net_free(net);
    st_coll_free(cm);
    st_engine_free(eng);
    st_topo_free(t);
    return rc;
}
