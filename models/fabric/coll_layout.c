/* The collective model's rank layout (NVLink groups, a node's share of ranks and NICs) and its
 * phases: which phases an algorithm runs, and the member flows each phase's transfers carry for
 * ring, tree, hierarchical, NVLS, all-to-all and send/recv. docs/models/fabric.md has the byte
 * counts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/coll_internal.h"
#include "sim/xalloc.h"

static int64_t mod(int64_t a, int64_t m)
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/* ---- rank layout ---------------------------------------------------------------------------- */

typedef struct coll_item {
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

/* Whether items are in cmp_grp's order (by_first 0) or cmp_first's (1), told inline: every
 * collective started lays its ranks out, most of them in order already, and a comparator call
 * through a pointer for each pair cost more than the layout. */
static int in_order(const item *it, int64_t n, int by_first)
{
    for (int64_t i = 1; i < n; i++) {
        int64_t a = by_first ? it[i - 1].first : it[i - 1].grp;
        int64_t b = by_first ? it[i].first : it[i].grp;
        if (a > b || (a == b && it[i - 1].gpu > it[i].gpu))
            return 0;
    }
    return 1;
}

/* Sort items by (group, gpu). Returns the number of groups, or -1 when a GPU repeats. */
static int64_t sort_groups(item *it, int64_t n)
{
    /* the keys are unique: a repeated GPU is refused below and its items dropped */
    if (!in_order(it, n, 0))
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
int st__coll_layout(st_coll *cm, run *r, const int64_t *gpus, layout_mode mode, st_err *err)
{
    int64_t n = r->n;
    cm->lay = st_xgrow(cm->lay, sizeof *cm->lay, (size_t)n + 1, &cm->lay_cap);
    item *it = cm->lay;
    for (int64_t i = 0; i < n; i++)
        it[i] = (item){.grp = (gpus[i] + cm->skew) / cm->dom, .first = i, .gpu = gpus[i]};
    r->nvl_groups = sort_groups(it, n);
    if (r->nvl_groups < 0)
        return st_err_set(err, ST_EINVAL, (st_loc){0}, "a collective lists gpu twice");
    r->grp_off = r->rank + n; /* after the ranks in the run's block (make_run) */
    if (mode == LAY_ORDER) {
        memcpy(r->rank, gpus, sizeof *r->rank * (size_t)n);
        r->ngrp = 1;
        r->grp_off[0] = 0;
        r->grp_off[1] = n;
        return 0;
    }
    for (int64_t a = 0, b; a < n; a = b) {
        int64_t lo = it[a].first;
        for (b = a + 1; b < n && it[b].grp == it[a].grp; b++)
            lo = it[b].first < lo ? it[b].first : lo;
        for (int64_t i = a; i < b; i++)
            it[i].first = lo;
    }
    if (!in_order(it, n, 1))
        qsort(it, (size_t)n, sizeof *it, cmp_first);
    r->ngrp = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || it[i].grp != it[i - 1].grp)
            r->grp_off[r->ngrp++] = i;
        r->rank[i] = it[i].gpu;
    }
    r->grp_off[r->ngrp] = n;
    return 0;
}

int64_t st__coll_grp_size(const run *r, int64_t g)
{
    return r->grp_off[g + 1] - r->grp_off[g];
}

/* Ranks on the node of the first rank, and the distinct NICs they use. O(n). */
void st__coll_node_share(const st_coll *cm, const run *r, int64_t *ppn, int64_t *nics)
{
    int64_t node = r->rank[0] / cm->gpn;
    /* On the stack for a node of up to 64 NICs: every ring phase of every collective asks. */
    unsigned char few[64] = {0};
    unsigned char *seen = cm->nics <= 64 ? few : st_xcalloc((size_t)cm->nics, 1);
    *ppn = *nics = 0;
    for (int64_t i = 0; i < r->n; i++) {
        if (r->rank[i] / cm->gpn != node)
            continue;
        int64_t nic = (r->rank[i] % cm->gpn) * cm->nics / cm->gpn;
        (*ppn)++;
        *nics += !seen[nic];
        seen[nic] = 1;
    }
    if (seen != few)
        free(seen);
}

static int nics_used(const st_coll *cm, const run *r)
{
    int64_t ppn, nics;
    st__coll_node_share(cm, r, &ppn, &nics);
    return nics > 0 ? (int)nics : 1;
}

/* ---- building a phase's members ------------------------------------------------------------- */

/* Room in the member arrays for one more member. */
static void grow_members(st_coll *cm)
{
    size_t cap = cm->mcap;
    cm->src = st_xgrow(cm->src, sizeof *cm->src, cm->m + 1, &cap);
    cap = cm->mcap;
    cm->dst = st_xgrow(cm->dst, sizeof *cm->dst, cm->m + 1, &cap);
    cap = cm->mcap;
    cm->mlat = st_xgrow(cm->mlat, sizeof *cm->mlat, cm->m + 1, &cap);
    cap = cm->mcap;
    cm->mhw = st_xgrow(cm->mhw, sizeof *cm->mhw, cm->m + 1, &cap);
    cap = cm->mcap;
    cm->mhop = st_xgrow(cm->mhop, sizeof *cm->mhop, cm->m + 1, &cap);
    cm->mcap = cap;
}

/* Inline, the growth out of line: every member of every phase built comes through here, and a
 * call a member cost more than the member. */
static inline void add_member(st_coll *cm, int64_t s, int64_t d)
{
    if (cm->m == cm->mcap)
        grow_members(cm);
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
    int64_t k0 = st__coll_grp_size(r, 0), e = C <= k0 ? (int64_t)c * k0 / C : c % k0;
    size_t first = cm->m;
    for (int64_t p = 0; p < r->ngrp; p++) {
        int64_t off = r->grp_off[p], k = st__coll_grp_size(r, p), d = (p % 2 == 1) ? -1 : 1;
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

void st__coll_set_comm(const st_coll *cm, phase_desc *d, int64_t ranks, int64_t nodes, int ch)
{
    d->comm = (st_nccl_comm){.arch = cm->arch,
                             .ranks = ranks,
                             .nodes = nodes,
                             .channels = ch,
                             .nvlink_bw = cm->has_nvlink ? cm->nvlink_cap : 0};
}

/* The transfers a ring or chain phase of C channels runs: one per channel, but one inside a
 * single NVLink group (build_ring). */
static int ring_copies(const st_coll *cm, const run *r, int C)
{
    return r->nvl_groups == 1 && cm->has_nvlink ? 1 : C;
}

/* Describe a ring or chain phase of C channels (d->kind set): what its members do not decide. */
static void describe_ring(const st_coll *cm, const run *r, int C, phase_desc *d)
{
    int copies = ring_copies(cm, r, C);
    int64_t n = r->n;
    double fr = (double)(n - 1) / (double)n, S = r->bytes;
    double fac = r->op == ST_COLL_ALL_REDUCE ? 2 * fr : d->kind == PH_CHAIN ? 1 : fr;
    d->nalgo = ST_NCCL_RING;
    st__coll_set_comm(cm, d, n, r->nvl_groups, C);
    d->b = fac * S / copies;
    d->bus_mult = copies;
    d->steps = r->op == ST_COLL_ALL_REDUCE ? 2.0 * (double)(n - 1) : (double)(n - 1);
    d->ar_bytes = r->op == ST_COLL_ALL_REDUCE ? S : 0;
}

/* Flat ring (all-reduce, reduce-scatter, all-gather) or broadcast chain: one transfer per
 * channel. Inside one NVLink group every channel's cycle is the same set of edges, so one
 * transfer carries all channels' bytes (exact: identical link sets get identical rates). */
static void build_ring(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int C = default_channels(cm, r, d->kind);
    int copies = ring_copies(cm, r, C);
    int64_t n = r->n;
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
    describe_ring(cm, r, C, d);
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
    int64_t N = r->ngrp, k0 = st__coll_grp_size(r, 0);
    for (int c = 0; c < 2 * half; c++) {
        int t = c / half, h = c % half;
        int64_t o = half <= k0 ? (int64_t)h * k0 / half : h % k0;
        open_xfer(cm, r, phase);
        for (int64_t p = 0; p < N; p++) {
            int64_t off = r->grp_off[p], k = st__coll_grp_size(r, p);
            for (int64_t j = 1; j < k; j++) {
                int64_t a = r->rank[off + (o + j) % k], b = r->rank[off + (o + j - 1) % k];
                add_member(cm, a, b);
                add_member(cm, b, a);
            }
        }
        for (int64_t q = 1; q < N; q++) {
            int64_t ch = tree_node(t, q, N), pa = tree_node(t, (q - 1) / 2, N);
            int64_t hc = r->rank[r->grp_off[ch] + o % st__coll_grp_size(r, ch)];
            int64_t hp = r->rank[r->grp_off[pa] + o % st__coll_grp_size(r, pa)];
            add_member(cm, hc, hp);
            add_member(cm, hp, hc);
        }
    }
    close_xfers(cm);
    d->nalgo = ST_NCCL_TREE;
    st__coll_set_comm(cm, d, r->n, r->nvl_groups, 2 * half);
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
    int64_t k = st__coll_grp_size(r, 0), G = r->ngrp;
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
        st__coll_set_comm(cm, d, G, G, C);
        d->b = 2.0 * (double)(G - 1) / (double)G * (S / (double)k) / C;
        d->bus_mult = C;
        d->steps = 2.0 * (double)(G - 1);
        d->ar_bytes = S / (double)k;
    } else {
        open_xfer(cm, r, phase);
        for (int64_t p = 0; p < G; p++)
            for (int64_t i = 0; i < k; i++)
                add_member(cm, r->rank[r->grp_off[p] + i], r->rank[r->grp_off[p] + (i + 1) % k]);
        st__coll_set_comm(cm, d, k, 1, C);
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
    st__coll_set_comm(cm, d, r->n, 1, 1);
    d->b = r->bytes;
    d->bus_mult = 1;
    d->steps = 1;
}

/* All-to-all batch `phase`: shift rounds s = 1 + phase*R .. , rank i sends S/n to rank i + s. */
static void build_a2a(st_coll *cm, const run *r, int phase, phase_desc *d)
{
    int64_t n = r->n, R = ST_COLL_A2A_MEMBER_CAP / n > 0 ? ST_COLL_A2A_MEMBER_CAP / n : 1;
    int64_t s0 = 1 + (int64_t)phase * R, s1 = s0 + R < n ? s0 + R : n;
    open_xfer(cm, r, phase);
    for (int64_t s = s0; s < s1; s++)
        for (int64_t i = 0; i < n; i++)
            add_member(cm, r->rank[i], r->rank[(i + s) % n]);
    close_xfers(cm);
    d->nalgo = ST_NCCL_RING;
    st__coll_set_comm(cm, d, n, r->nvl_groups, 1);
    d->b = r->bytes / (double)n;
    d->bus_mult = (double)(s1 - s0);
}

static phase_kind phase_at(const run *r, int k)
{
    return r->op == ST_COLL_ALL_TO_ALL && r->n > 1 ? PH_A2A : r->kinds[k];
}

static void describe_p2p(const st_coll *cm, const run *r, phase_desc *d)
{
    d->nalgo = ST_NCCL_RING;
    st__coll_set_comm(cm, d, 2, r->nvl_groups, 1);
    d->b = r->bytes;
    d->bus_mult = 1;
}

void st__coll_describe_phase(st_coll *cm, const run *r, int k, phase_desc *d)
{
    memset(d, 0, sizeof *d);
    d->kind = phase_at(r, k);
    switch (d->kind) {
    case PH_RING:
    case PH_CHAIN:
        describe_ring(cm, r, default_channels(cm, r, d->kind), d);
        break;
    case PH_P2P:
        describe_p2p(cm, r, d);
        break;
    default: /* the others' descriptions come from their members */
        st__coll_build_phase(cm, r, k, d);
    }
}

/* Fill the member arrays with phase k of r and describe it. */
void st__coll_build_phase(st_coll *cm, const run *r, int k, phase_desc *d)
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
        describe_p2p(cm, r, d);
        break;
    case PH_EMPTY:
        open_xfer(cm, r, k);
        close_xfers(cm);
        st__coll_set_comm(cm, d, 1, 1, 1);
        d->bus_mult = 1;
        break;
    }
}

static void plan_hier(run *r)
{
    int64_t k = st__coll_grp_size(r, 0);
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
void st__coll_plan_phases(st_coll *cm, run *r)
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
            double ring = st__coll_phase_cost(cm, r, 0, &d).est;
            r->kinds[0] = PH_TREE;
            double tree = st__coll_phase_cost(cm, r, 0, &d).est;
            r->algo = tree < ring ? ST_COLL_TREE : ST_COLL_RING;
            /* NVLS competes inside one NVLink domain of a part that has it (NCCL enables it
             * there and its tuner weighs it like the others). */
            if (cm->nvls_eff > 0 && r->nvl_groups == 1 && r->proto != ST_COLL_PROTO_LL &&
                r->proto != ST_COLL_PROTO_LL128) {
                r->kinds[0] = PH_NVLS;
                if (st__coll_phase_cost(cm, r, 0, &d).est < fmin(ring, tree))
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
        int64_t R = ST_COLL_A2A_MEMBER_CAP / r->n > 0 ? ST_COLL_A2A_MEMBER_CAP / r->n : 1;
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
