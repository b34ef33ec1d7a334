/* Topologies as flat arrays of directional links. Link ids are laid out by region (NVLink, NIC,
 * leaf tier, spine tier) and inside a region by switch and port, so that a route computes its
 * link ids arithmetically (topo_route.c); only the capacities are stored.
 * docs/models/fabric-topology.md. */
#include "models/fabric/topo.h"
#include "models/fabric/topo_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/fabric/transport.h"
#include "sim/xalloc.h"

/* A fat-tree pod when leaves_per_pod is not given: the k/2 leaves under k/2 spines of a k-ary
 * fat tree built from the 64-port switches the loader's nodes_per_leaf default assumes. */
#define DEFAULT_LEAVES_PER_POD 32

/* ---- configuration checks ---------------------------------------------------------------- */

static double tier_ratio(const st_fabric_cfg *f, int tier)
{
    int n = f->n_oversub > ST_MAX_TIERS_OVERSUB ? ST_MAX_TIERS_OVERSUB : f->n_oversub;
    if (n <= 0)
        return 1;
    return f->oversub[tier < n ? tier : n - 1];
}

static int bad_fabric(st_err *err, const st_fabric_cfg *f, const char *key, const char *want,
                      double found)
{
    return st_err_set(err, ST_EINVAL, f->loc, "fabric '%s' must be %s, found %g", key, want, found);
}

static int check_cluster(const st_cluster_cfg *c, st_err *err)
{
    if (!c->gpu)
        return st_err_set(err, ST_EINVAL, c->loc, "cluster has no 'gpu'");
    if (c->nodes < 1 || c->gpus_per_node < 1)
        return st_err_set(err, ST_EINVAL, c->loc,
                          "cluster needs at least one node of at least one GPU, found %lld x %lld",
                          (long long)c->nodes, (long long)c->gpus_per_node);
    /* Bounds that keep every count below in int64; the link count is checked in layout(). */
    if (c->nodes > INT32_MAX || c->gpus_per_node > INT32_MAX)
        return st_err_set(err, ST_ELIMIT, c->loc, "cluster of %lld nodes x %lld GPUs is too large",
                          (long long)c->nodes, (long long)c->gpus_per_node);
    int64_t d = c->nvlink_domain ? c->nvlink_domain : c->gpus_per_node;
    if (d < 1 || (d % c->gpus_per_node && c->gpus_per_node % d))
        return st_err_set(err, ST_EINVAL, c->loc,
                          "nvlink_domain (%lld) must divide or be a multiple of gpus_per_node "
                          "(%lld)",
                          (long long)d, (long long)c->gpus_per_node);
    for (int k = 0; k < c->n_tiers; k++) {
        const st_tier_cfg *tc = &c->tiers[k];
        if (!(tc->read_bw > 0) || !isfinite(tc->read_bw) || !(tc->write_bw > 0) ||
            !isfinite(tc->write_bw) || !(tc->latency_s >= 0) || !isfinite(tc->latency_s))
            return st_err_set(err, ST_EINVAL, tc->loc,
                              "storage tier '%s' needs positive read and write bandwidths and a "
                              "latency of at least 0",
                              tc->name ? tc->name : "?");
    }
    if (!(c->gpu->nvlink_bw >= 0) || !isfinite(c->gpu->nvlink_bw))
        return st_err_set(err, ST_EINVAL, c->gpu_loc, "gpu '%s' has an nvlink bandwidth of %g",
                          c->gpu->name ? c->gpu->name : "?", c->gpu->nvlink_bw);
    return 0;
}

static int check_fabric(const st_fabric_cfg *f, int64_t nodes, st_err *err)
{
    if (f->topology != ST_TOPO_SPINE_LEAF && f->topology != ST_TOPO_RAIL_OPTIMIZED &&
        f->topology != ST_TOPO_FAT_TREE_3)
        return bad_fabric(err, f, "topology", "a known topology", f->topology);
    if (!st_transport_spec_of(f->transport))
        return bad_fabric(err, f, "transport", "a known transport", f->transport);
    if (f->routing != ST_ROUTING_ECMP && f->routing != ST_ROUTING_ADAPTIVE)
        return bad_fabric(err, f, "routing", "ecmp or adaptive", f->routing);
    if (!(f->nic_bw > 0) || !isfinite(f->nic_bw))
        return bad_fabric(err, f, "nic", "a positive bandwidth", f->nic_bw);
    if (f->nics_per_node < 1)
        return bad_fabric(err, f, "nics_per_node", "at least 1", f->nics_per_node);
    /* Two links per NIC must fit the int32 link ids; this also keeps port products in int64. */
    if ((int64_t)f->nics_per_node * nodes > INT32_MAX / 2)
        return st_err_set(err, ST_ELIMIT, f->loc, "fabric of %lld NICs needs more than %d links",
                          (long long)f->nics_per_node * nodes, INT32_MAX);
    if (f->nodes_per_leaf < 1)
        return bad_fabric(err, f, "nodes_per_leaf", "at least 1", (double)f->nodes_per_leaf);
    if (f->leaves_per_pod < 0)
        return bad_fabric(err, f, "leaves_per_pod", "at least 1", (double)f->leaves_per_pod);
    for (int i = 0; i < ST_MAX_TIERS_OVERSUB; i++)
        if (!(tier_ratio(f, i) >= 1) || !isfinite(tier_ratio(f, i)))
            return bad_fabric(err, f, "oversubscription", "at least 1", tier_ratio(f, i));
    if (!(f->link_latency_s >= 0) || !isfinite(f->link_latency_s))
        return bad_fabric(err, f, "link_latency", "a time of at least 0", f->link_latency_s);
    if (!(f->switch_latency_s >= 0) || !isfinite(f->switch_latency_s))
        return bad_fabric(err, f, "switch_latency", "a time of at least 0", f->switch_latency_s);
    return 0;
}

/* ---- construction ------------------------------------------------------------------------- */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Uplink ports of a switch with `down` ports facing down at a down:up ratio of `ratio`, rounded
 * up (a switch cannot have part of a port) and at least one. The tolerance keeps 11 / 1.1 at 10
 * instead of 10.000000000000002 rounding up to 11. */
static int64_t uplinks(int64_t down, double ratio)
{
    double q = (double)down / ratio;
    int64_t u = (int64_t)ceil(q * (1 - 1e-12));
    return u < 1 ? 1 : u;
}

/* Switch and port counts of every tier. */
static void shape(st_topo *t, const st_cluster_cfg *c)
{
    const st_fabric_cfg *f = &c->fabric;
    int64_t dom = c->nvlink_domain ? c->nvlink_domain : c->gpus_per_node;
    t->kind = f->topology;
    t->routing = f->routing;
    t->gpn = c->gpus_per_node;
    t->gpus = c->nodes * c->gpus_per_node;
    t->dom = dom > 1 && c->gpu->nvlink_bw > 0 ? dom : 0;
    t->nics = f->nics_per_node;
    st__topo_pools_shape(t, c); /* nodes of several sizes: laid out at the largest */
    /* A cluster smaller than one leaf fills part of it: the leaf has the ports its nodes use,
     * and the stated oversubscription applies to those, so the uplinks (one to each spine,
     * Clos wiring) are sized by them; docs/models/fabric-topology.md says why. */
    t->npl = f->nodes_per_leaf < c->nodes ? f->nodes_per_leaf : c->nodes;
    int64_t groups = ceil_div(c->nodes, t->npl);
    if (t->kind == ST_TOPO_RAIL_OPTIMIZED) {
        t->leaves = groups * t->nics; /* one rail leaf per (group, NIC index) */
        t->up = uplinks(t->npl, tier_ratio(f, 0));
    } else {
        t->leaves = groups;
        t->up = uplinks(t->npl * t->nics, tier_ratio(f, 0));
    }
    t->ppod = t->leaves;
    if (t->kind == ST_TOPO_FAT_TREE_3) {
        int64_t p = f->leaves_per_pod ? f->leaves_per_pod : DEFAULT_LEAVES_PER_POD;
        t->ppod = p < t->leaves ? p : t->leaves;
    }
    t->pods = ceil_div(t->leaves, t->ppod);
    t->cup = uplinks(t->ppod, tier_ratio(f, 1));
    t->port_bw = f->nic_bw * st_transport_efficiency(f->transport) * st_calib_network(c);
    t->nv_bw = c->gpu->nvlink_bw / 2 * st_nvlink_efficiency(c->gpu) * st_calib_nvlink(c);
    t->lat_link = f->link_latency_s;
    t->lat_switch = f->switch_latency_s;
    for (int n = 0; n <= ST_TOPO_MAX_HOPS; n++)
        t->path_lat[n] = n ? n * t->lat_link + (n - 1) * t->lat_switch : 0;
    t->n_tiers = c->n_tiers;
    size_t nt = c->n_tiers > 0 ? (size_t)c->n_tiers : 1;
    t->tier_base = st_xcalloc(nt, sizeof *t->tier_base);
    t->tier_local = st_xcalloc(nt, sizeof *t->tier_local);
    t->tier_read_w = st_xcalloc(nt, sizeof *t->tier_read_w);
    t->tier_lat = st_xcalloc(nt, sizeof *t->tier_lat);
    t->tier_cap = st_xcalloc(nt, sizeof *t->tier_cap);
    for (int k = 0; k < c->n_tiers; k++) {
        const st_tier_cfg *tc = &c->tiers[k];
        t->tier_local[k] = tc->kind == ST_TIER_LOCAL_NVME;
        t->tier_cap[k] = tc->write_bw;
        t->tier_read_w[k] = tc->write_bw / tc->read_bw;
        t->tier_lat[k] = tc->latency_s;
    }
}

/* Media links of the storage tiers: one per remote tier, one per node for a local one. */
static int64_t storage_links(const st_topo *t)
{
    int64_t n = 0, nodes = t->gpus / t->gpn;
    for (int k = 0; k < t->n_tiers; k++)
        n += t->tier_local[k] ? nodes : 1;
    return n;
}

/* Links of the tier above the leaves and above the pods: one up and one down per port under
 * ECMP, or per aggregated link under adaptive routing; none where no route climbs (one leaf, one
 * pod). */
static int64_t leaf_tier_links(const st_topo *t)
{
    if (t->leaves < 2)
        return 0;
    return t->routing == ST_ROUTING_ADAPTIVE ? 2 * t->leaves : 2 * t->leaves * t->up;
}

static int64_t spine_tier_links(const st_topo *t)
{
    if (t->pods < 2)
        return 0;
    return t->routing == ST_ROUTING_ADAPTIVE ? 2 * t->pods : 2 * t->pods * t->up * t->cup;
}

/* The first link id of each region, refusing a fabric whose ids would not fit an int32. */
static int layout(st_topo *t, const st_cluster_cfg *c, st_err *err)
{
    int64_t n[ST_LEVEL__COUNT] = {
        [ST_LEVEL_NVLINK] = t->dom ? 2 * t->gpus : 0, [ST_LEVEL_NIC] = 2 * c->nodes * t->nics,
        [ST_LEVEL_LEAF] = leaf_tier_links(t),         [ST_LEVEL_SPINE] = spine_tier_links(t),
        [ST_LEVEL_STORAGE] = storage_links(t),
    };
    int64_t total = 0;
    for (int i = 0; i < ST_LEVEL__COUNT; i++) {
        t->base[i] = (int32_t)total;
        total += n[i];
        if (total > INT32_MAX)
            return st_err_set(err, ST_ELIMIT, c->fabric.loc,
                              "fabric needs more than %d links (%lld GPUs, %lld leaves of %lld "
                              "uplinks)",
                              INT32_MAX, (long long)t->gpus, (long long)t->leaves,
                              (long long)t->up);
    }
    t->base[ST_LEVEL__COUNT] = (int32_t)total;
    int32_t next = t->base[ST_LEVEL_STORAGE];
    for (int k = 0; k < t->n_tiers; k++) {
        t->tier_base[k] = next;
        next += t->tier_local[k] ? (int32_t)c->nodes : 1;
    }
    return 0;
}

static void fill(double *cap, int32_t from, int32_t to, double v)
{
    for (int32_t i = from; i < to; i++)
        cap[i] = v;
}

static void fill_capacities(st_topo *t)
{
    int adaptive = t->routing == ST_ROUTING_ADAPTIVE;
    const int32_t *b = t->base;
    t->cap = st_xmalloc(((size_t)b[ST_LEVEL__COUNT] + 1) * sizeof *t->cap);
    fill(t->cap, b[ST_LEVEL_NVLINK], b[ST_LEVEL_NIC], t->nv_bw);
    fill(t->cap, b[ST_LEVEL_NIC], b[ST_LEVEL_LEAF], t->port_bw);
    /* An aggregated link carries every port it stands for. */
    fill(t->cap, b[ST_LEVEL_LEAF], b[ST_LEVEL_SPINE],
         adaptive ? (double)t->up * t->port_bw : t->port_bw);
    fill(t->cap, b[ST_LEVEL_SPINE], b[ST_LEVEL_STORAGE],
         adaptive ? (double)(t->up * t->cup) * t->port_bw : t->port_bw);
    for (int k = 0; k < t->n_tiers; k++)
        fill(t->cap, t->tier_base[k], k + 1 < t->n_tiers ? t->tier_base[k + 1] : b[ST_LEVEL__COUNT],
             t->tier_cap[k]);
}

/* The leaf a NIC hangs from (its rail's leaf under rail-optimized), that leaf's pod, and each
 * GPU's NVLink domain, counted up instead of divided: a sizing search builds a topology for
 * every size it tries. NIC ids fit an int32 (check_fabric), and so do leaf and pod ids, which are
 * at most the NIC's, and the GPU ids where there are NVLink links (two a GPU). */
static void fill_nic_places(st_topo *t, const st_cluster_cfg *c)
{
    int64_t nodes = t->gpus / t->gpn, n = nodes * t->nics;
    int rail = t->kind == ST_TOPO_RAIL_OPTIMIZED;
    t->nic_leaf = st_xmalloc((size_t)(n ? n : 1) * sizeof *t->nic_leaf);
    t->nic_pod = st_xmalloc((size_t)(n ? n : 1) * sizeof *t->nic_pod);
    int32_t *pod_of = st_xmalloc((size_t)(t->leaves ? t->leaves : 1) * sizeof *pod_of);
    for (int64_t l = 0, pod = 0, in_pod = 0; l < t->leaves; l++) {
        pod_of[l] = (int32_t)pod;
        if (++in_pod == t->ppod)
            in_pod = 0, pod++;
    }
    int64_t i = 0;
    for (int64_t node = 0, group = 0, in_group = 0; node < nodes; node++) {
        for (int64_t k = 0; k < t->nics; k++, i++) {
            int64_t leaf = rail ? group * t->nics + k : group;
            t->nic_leaf[i] = (int32_t)leaf;
            t->nic_pod[i] = pod_of[leaf];
        }
        if (++in_group == t->npl)
            in_group = 0, group++;
    }
    free(pod_of);
    if (!t->dom) /* no NVLink links: routes never ask, and the GPU count is not bounded by links */
        return;
    t->gpu_dom = st_xmalloc((size_t)t->gpus * sizeof *t->gpu_dom);
    /* a pool's view: its domains begin at its first node (nvlink_skew, models/config/pools.h) */
    t->skew = t->dom > t->gpn ? c->nvlink_skew % t->dom : 0;
    for (int64_t g = 0, d = 0, in_dom = t->skew; g < t->gpus; g++) {
        t->gpu_dom[g] = (int32_t)d;
        if (++in_dom == t->dom)
            in_dom = 0, d++;
    }
}

int st_topo_new(const st_cluster_cfg *c, st_topo **out, st_err *err)
{
    *out = NULL;
    int rc = check_cluster(c, err);
    if (!rc)
        rc = check_fabric(&c->fabric, c->nodes, err);
    if (rc)
        return rc;
    st_topo *t = st_xcalloc(1, sizeof *t);
    shape(t, c);
    if ((rc = layout(t, c, err)) != 0) {
        st_topo_free(t);
        return rc;
    }
    fill_capacities(t);
    fill_nic_places(t, c);
    st__topo_pools_fill(t, c);
    *out = t;
    return 0;
}

void st_topo_free(st_topo *t)
{
    if (!t)
        return;
    free(t->cap);
    free(t->nic_leaf);
    free(t->nic_pod);
    free(t->gpu_dom);
    free(t->tier_base);
    free(t->tier_local);
    free(t->tier_read_w);
    free(t->tier_lat);
    free(t->tier_cap);
    free(t->map_gpu);
    free(t->map_node);
    free(t->map_gpn);
    free(t);
}

/* ---- queries ------------------------------------------------------------------------------ */

int64_t st_topo_gpus(const st_topo *t)
{
    return t->gpus;
}

int32_t st_topo_link_count(const st_topo *t)
{
    return t->base[ST_LEVEL__COUNT];
}

static void check_link(const st_topo *t, int32_t link)
{
    if (link < 0 || link >= t->base[ST_LEVEL__COUNT])
        ST_BUG("link %d outside [0, %d)", (int)link, (int)t->base[ST_LEVEL__COUNT]);
}

double st_topo_capacity(const st_topo *t, int32_t link)
{
    check_link(t, link);
    return t->cap[link];
}

const double *st_topo_capacities(const st_topo *t)
{
    return t->cap;
}

int32_t st_topo_level_first(const st_topo *t, st_level l)
{
    if ((int)l < 0 || (int)l > ST_LEVEL__COUNT)
        ST_BUG("level %d outside [0, %d]", (int)l, (int)ST_LEVEL__COUNT);
    return t->base[l];
}

st_level st_topo_level(const st_topo *t, int32_t link)
{
    check_link(t, link);
    int l = ST_LEVEL__COUNT - 1;
    while (link < t->base[l])
        l--;
    return (st_level)l;
}

int st_topo_hashed(const st_topo *t, int32_t link)
{
    st_level l = st_topo_level(t, link);
    return t->routing == ST_ROUTING_ECMP && (l == ST_LEVEL_LEAF || l == ST_LEVEL_SPINE);
}

int64_t st_topo_leaf_of(const st_topo *t, int64_t gpu)
{
    gpu = st__topo_in(t, gpu);
    st__topo_check_gpu(t, gpu);
    return st__topo_leaf_of_nic(t, st__topo_nic_of(t, gpu));
}

int64_t st_topo_pod_of(const st_topo *t, int64_t gpu)
{
    return st_topo_leaf_of(t, gpu) / t->ppod;
}

int64_t st_topo_switches(const st_topo *t, st_level level)
{
    switch (level) {
    case ST_LEVEL_NVLINK:
        return t->dom ? ceil_div(t->gpus, t->dom) : 0;
    case ST_LEVEL_NIC:
        return t->leaves;
    case ST_LEVEL_LEAF:
        return t->leaves > 1 ? t->pods * t->up : 0;
    case ST_LEVEL_SPINE:
        return t->pods > 1 ? t->up * t->cup : 0;
    default:
        return 0;
    }
}

int64_t st_topo_switch_ports(const st_topo *t, st_level level)
{
    int64_t down = t->kind == ST_TOPO_RAIL_OPTIMIZED ? t->npl : t->npl * t->nics;
    switch (level) {
    case ST_LEVEL_NIC: /* its nodes' NICs, and an uplink to each spine when there are spines */
        return t->leaves > 0 ? down + (t->leaves > 1 ? t->up : 0) : 0;
    case ST_LEVEL_LEAF: /* one port per leaf of its pod, and one to each core plane above */
        return t->leaves > 1 ? t->ppod + (t->pods > 1 ? t->cup : 0) : 0;
    case ST_LEVEL_SPINE: /* one port per pod */
        return t->pods > 1 ? t->pods : 0;
    default:
        return 0;
    }
}

int64_t st_topo_most_ports(const st_topo *t, st_level *level)
{
    int64_t most = 0;
    const st_level levels[] = {ST_LEVEL_NIC, ST_LEVEL_LEAF, ST_LEVEL_SPINE};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (st_topo_switch_ports(t, levels[i]) > most) {
            most = st_topo_switch_ports(t, levels[i]);
            if (level)
                *level = levels[i];
        }
    return most;
}

int64_t st_topo_cables(const st_topo *t, st_level level)
{
    switch (level) {
    case ST_LEVEL_NIC:
        return t->n_map ? t->ext_nics : t->gpus / t->gpn * t->nics;
    case ST_LEVEL_LEAF:
        return t->leaves > 1 ? t->leaves * t->up : 0;
    case ST_LEVEL_SPINE:
        return t->pods > 1 ? t->pods * t->up * t->cup : 0;
    default:
        return 0;
    }
}

/* ---- names --------------------------------------------------------------------------------- */

static int arrow(char *buf, size_t n, int dir, const char *a, const char *b)
{
    return dir == UP ? snprintf(buf, n, "%s -> %s", a, b) : snprintf(buf, n, "%s -> %s", b, a);
}

/* The spine a port reaches: spine j (of a pod under fat-tree-3), or the whole spine layer (of a
 * pod) for adaptive routing's aggregated links, so that consecutive links of a route name the
 * same switch where one ends and the next begins. */
static void spine_name(const st_topo *t, int64_t pod, int64_t j, char *s, size_t n)
{
    int fat = t->kind == ST_TOPO_FAT_TREE_3;
    if (t->routing == ST_ROUTING_ADAPTIVE && fat)
        snprintf(s, n, "pod %lld spines", (long long)pod);
    else if (t->routing == ST_ROUTING_ADAPTIVE)
        snprintf(s, n, "spines");
    else if (fat)
        snprintf(s, n, "spine %lld.%lld", (long long)pod, (long long)j);
    else
        snprintf(s, n, "spine %lld", (long long)j);
}

int st_topo_link_name(const st_topo *t, int32_t link, char *buf, size_t n)
{
    st_level l = st_topo_level(t, link);
    int64_t i = (link - t->base[l]) / 2;
    int dir = (link - t->base[l]) % 2;
    int adaptive = t->routing == ST_ROUTING_ADAPTIVE;
    char a[64], b[64];
    if (l == ST_LEVEL_STORAGE) {
        int k = t->n_tiers - 1;
        while (k > 0 && link < t->tier_base[k])
            k--;
        if (t->tier_local[k])
            return snprintf(buf, n, "storage tier %d media (node %lld)", k,
                            (long long)(link - t->tier_base[k]));
        return snprintf(buf, n, "storage tier %d media", k);
    }
    if (l == ST_LEVEL_NVLINK) {
        snprintf(a, sizeof a, "gpu %lld", (long long)i);
        snprintf(b, sizeof b, "nvswitch %lld", (long long)(i / t->dom));
    } else if (l == ST_LEVEL_NIC) {
        snprintf(a, sizeof a, "node %lld nic %lld", (long long)(i / t->nics),
                 (long long)(i % t->nics));
        snprintf(b, sizeof b, "leaf %lld", (long long)st__topo_leaf_of_nic(t, i));
    } else if (l == ST_LEVEL_LEAF) {
        int64_t leaf = adaptive ? i : i / t->up;
        snprintf(a, sizeof a, "leaf %lld", (long long)leaf);
        spine_name(t, leaf / t->ppod, i % t->up, b, sizeof b);
    } else if (adaptive) {
        spine_name(t, i, 0, a, sizeof a);
        snprintf(b, sizeof b, "cores");
    } else {
        int64_t sj = i / t->cup; /* pod * up + j */
        spine_name(t, sj / t->up, sj % t->up, a, sizeof a);
        snprintf(b, sizeof b, "core %lld.%lld", (long long)(sj % t->up), (long long)(i % t->cup));
    }
    return arrow(buf, n, dir, a, b);
}

int64_t st_topo_network_switches(const st_topo *t)
{
    return st_topo_switches(t, ST_LEVEL_NIC) + st_topo_switches(t, ST_LEVEL_LEAF) +
           st_topo_switches(t, ST_LEVEL_SPINE);
}

/* The switches of `per` ports that hold `ports` ports of one tier: at least one, and at most the
 * `logical` switches of the model they stand for (a modelled switch that needs more than `per`
 * ports is one switch all the same: the audit flags it). */
static int64_t packed(int64_t ports, int64_t per, int64_t logical)
{
    int64_t n = per > 0 ? ceil_div(ports, per) : logical;
    return n < 1 ? 1 : n > logical ? logical : n;
}

int64_t st_topo_switches_bought(const st_topo *t, int64_t switch_ports)
{
    int64_t n = st_topo_switches(t, ST_LEVEL_NIC);
    if (t->leaves > 1) /* each pod's spines: U of them, each a port per leaf and its uplinks */
        for (int64_t p = 0; p < t->pods; p++) {
            int64_t lp = t->leaves - p * t->ppod < t->ppod ? t->leaves - p * t->ppod : t->ppod;
            n += packed(t->up * (lp + (t->pods > 1 ? t->cup : 0)), switch_ports, t->up);
        }
    if (t->pods > 1) /* the cores: U x C of them, a port per pod each */
        n += packed(t->up * t->cup * t->pods, switch_ports, t->up * t->cup);
    return n;
}

/* Every field path(), fabric_route(), st__topo_leaf_of_nic(), st_topo_route_w() and
 * fill_capacities() read for GPU-to-GPU routes; the total GPUs, leaves and pods only place the
 * later levels' first ids, which keep their order. */
void st_topo_sig_of(const st_topo *t, int64_t gpus, st_topo_sig *out)
{
    st__topo_check_gpu(t, gpus - 1);
    /* The highest leaf of those GPUs: the last one's, or under rail-optimized wiring the last
     * rail leaf of its group, which an earlier node of the group may reach. */
    int64_t last = st__topo_leaf_of_nic(t, st__topo_nic_of(t, gpus - 1));
    if (t->kind == ST_TOPO_RAIL_OPTIMIZED)
        last = (last / t->nics + 1) * t->nics - 1;
    int one_pod = last / t->ppod == 0;
    *out = (st_topo_sig){.kind = t->kind,
                         .routing = t->routing,
                         .gpn = t->gpn,
                         .dom = t->dom,
                         .skew = t->skew,
                         .nics = t->nics,
                         .npl = t->npl,
                         .up = t->up,
                         .ppod = one_pod ? 0 : t->ppod,
                         .cup = one_pod ? 0 : t->cup,
                         .port_bw = t->port_bw,
                         .nv_bw = t->nv_bw,
                         .lat_link = t->lat_link,
                         .lat_switch = t->lat_switch};
}
