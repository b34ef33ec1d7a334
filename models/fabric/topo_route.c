/* A topology's routes: ECMP over its tiers by flow key, GPU to GPU and GPU to storage, with
 * their weights and latencies; link ids computed from the layout topo.c builds.
 * docs/models/fabric-topology.md. */
#include <stdio.h>
#include <stdlib.h>

#include "models/fabric/topo.h"
#include "models/fabric/topo_internal.h"

/* ---- routes -------------------------------------------------------------------------------- */

/* splitmix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; constants from Vigna's splitmix64.c): a fixed bijection on 64 bits
 * with full avalanche, so the same key hashes the same everywhere. */
static uint64_t mix64(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t st_topo_flow_key(uint64_t a, uint64_t b)
{
    return mix64(mix64(a) ^ b);
}

uint64_t st_topo_flow_pre(uint64_t a)
{
    return mix64(a);
}

uint64_t st_topo_flow_key_of(uint64_t pre, uint64_t b)
{
    return mix64(pre ^ b);
}

/* ECMP: which of n equal-cost ports a flow takes at a tier. Like a switch hashing the packet's
 * addresses and ports, it depends on the flow's identity and both NICs; the tier enters so that
 * the choice at the spine is not a copy of the choice at the leaf. `pre` is
 * st_topo_flow_pre(src), src the flow's key with its source NIC's, st_topo_flow_key(key,
 * src_nic): the tiers of one route share it, so it is mixed once a route, not once a tier. */
static int64_t ecmp(uint64_t pre, int64_t dst_nic, unsigned tier, int64_t n)
{
    uint64_t h = st_topo_flow_key_of(pre, (uint64_t)dst_nic ^ ((uint64_t)tier << 56));
    return (int64_t)(h % (uint64_t)n);
}

/* Port j of a leaf towards the spines (the aggregated link under adaptive routing). */
static int32_t leaf_link(const st_topo *t, int64_t leaf, int64_t j, int dir)
{
    int64_t port = t->routing == ST_ROUTING_ADAPTIVE ? leaf : leaf * t->up + j;
    return (int32_t)(t->base[ST_LEVEL_LEAF] + 2 * port + dir);
}

/* Port c of spine j of a pod towards core plane j (the pod's aggregated link under adaptive). */
static int32_t spine_link(const st_topo *t, int64_t pod, int64_t j, int64_t c, int dir)
{
    int64_t port = t->routing == ST_ROUTING_ADAPTIVE ? pod : (pod * t->up + j) * t->cup + c;
    return (int32_t)(t->base[ST_LEVEL_SPINE] + 2 * port + dir);
}

/* The switch tiers between two different leaves. */
static int fabric_route(const st_topo *t, int64_t a, int64_t b, uint64_t key, int32_t *out, int n)
{
    int64_t la = st__topo_leaf_of_nic(t, a), lb = st__topo_leaf_of_nic(t, b);
    int64_t pa = t->nic_pod[a], pb = t->nic_pod[b];
    int64_t j = 0, c = 0;
    if (t->routing == ST_ROUTING_ECMP) {
        uint64_t pre = st_topo_flow_pre(st_topo_flow_key(key, (uint64_t)a));
        j = ecmp(pre, b, 0, t->up);
        c = pa != pb ? ecmp(pre, b, 1, t->cup) : 0;
    }
    out[n++] = leaf_link(t, la, j, UP);
    if (pa != pb) {
        out[n++] = spine_link(t, pa, j, c, UP);
        out[n++] = spine_link(t, pb, j, c, DOWN);
    }
    out[n++] = leaf_link(t, lb, j, DOWN);
    return n;
}

static int path(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *out)
{
    if (src == dst)
        return 0;
    if (t->dom && t->gpu_dom[src] == t->gpu_dom[dst]) {
        out[0] = (int32_t)(t->base[ST_LEVEL_NVLINK] + 2 * src + UP);
        out[1] = (int32_t)(t->base[ST_LEVEL_NVLINK] + 2 * dst + DOWN);
        return 2;
    }
    int64_t a = st__topo_nic_of(t, src), b = st__topo_nic_of(t, dst);
    int n = 0;
    out[n++] = (int32_t)(t->base[ST_LEVEL_NIC] + 2 * a + UP);
    if (st__topo_leaf_of_nic(t, a) != st__topo_leaf_of_nic(t, b))
        n = fabric_route(t, a, b, key, out, n);
    out[n++] = (int32_t)(t->base[ST_LEVEL_NIC] + 2 * b + DOWN);
    return n;
}

int st_topo_tiers(const st_topo *t)
{
    return t->n_tiers;
}

int64_t st_topo_storage_endpoint(const st_topo *t, int tier)
{
    if (tier < 0 || tier >= t->n_tiers)
        ST_BUG("storage tier %d outside [0, %d)", tier, t->n_tiers);
    return t->gpus + tier;
}

double st_topo_storage_latency(const st_topo *t, int tier)
{
    return t->tier_lat[st_topo_storage_endpoint(t, tier) - t->gpus];
}

/* The fabric between a GPU's NIC and a remote tier at the top of the tree, climbing (dir UP,
 * a write) or descending (DOWN, a read): the leaf uplink and, over several pods, the spine
 * uplink, each an ECMP choice hashed on the flow, the NIC and the tier. */
static int storage_fabric(const st_topo *t, int64_t nic, int tier, uint64_t key, int dir,
                          int32_t *out, int n)
{
    if (t->leaves < 2)
        return n;
    int64_t leaf = st__topo_leaf_of_nic(t, nic), pod = leaf / t->ppod, far = -1 - (int64_t)tier;
    int64_t j = 0, c = 0;
    if (t->routing == ST_ROUTING_ECMP) {
        uint64_t pre = st_topo_flow_pre(st_topo_flow_key(key, (uint64_t)nic));
        j = ecmp(pre, far, 0, t->up);
        c = t->pods > 1 ? ecmp(pre, far, 1, t->cup) : 0;
    }
    if (dir == UP) {
        out[n++] = leaf_link(t, leaf, j, UP);
        if (t->pods > 1)
            out[n++] = spine_link(t, pod, j, c, UP);
    } else {
        if (t->pods > 1)
            out[n++] = spine_link(t, pod, j, c, DOWN);
        out[n++] = leaf_link(t, leaf, j, DOWN);
    }
    return n;
}

/* A GPU's route to tier k (a write): the NIC, the fabric up, the media; every weight 1. */
static int write_path(const st_topo *t, int64_t gpu, int tier, uint64_t key, int32_t *out)
{
    int32_t media = t->tier_base[tier];
    if (t->tier_local[tier]) {
        out[0] = media + (int32_t)(gpu / t->gpn);
        return 1;
    }
    int64_t nic = st__topo_nic_of(t, gpu);
    int n = 0;
    out[n++] = (int32_t)(t->base[ST_LEVEL_NIC] + 2 * nic + UP);
    n = storage_fabric(t, nic, tier, key, UP, out, n);
    out[n++] = media;
    return n;
}

/* A GPU's route to (write) or from (read) tier k, with weights; see st_topo_route_w. */
static int storage_path(const st_topo *t, int64_t gpu, int tier, int read, uint64_t key,
                        int32_t *out, double *w)
{
    int n;
    if (!read) {
        n = write_path(t, gpu, tier, key, out);
        for (int i = 0; i < n; i++)
            w[i] = 1.0;
        return n;
    }
    int32_t media = t->tier_base[tier];
    double mw = t->tier_read_w[tier];
    if (t->tier_local[tier]) {
        out[0] = media + (int32_t)(gpu / t->gpn);
        w[0] = mw;
        return 1;
    }
    int64_t nic = st__topo_nic_of(t, gpu);
    n = 0;
    out[n] = media;
    w[n++] = mw;
    n = storage_fabric(t, nic, tier, key, DOWN, out, n);
    out[n++] = (int32_t)(t->base[ST_LEVEL_NIC] + 2 * nic + DOWN);
    for (int i = 1; i < n; i++)
        w[i] = 1.0;
    return n;
}

int st_topo_write_route(const st_topo *t, int64_t gpu, int tier, uint64_t key, int32_t *links)
{
    gpu = st__topo_in(t, gpu);
    st__topo_check_gpu(t, gpu);
    if (tier < 0 || tier >= t->n_tiers)
        ST_BUG("storage tier %d outside [0, %d)", tier, t->n_tiers);
    return write_path(t, gpu, tier, key, links);
}

static void check_endpoint(const st_topo *t, int64_t e)
{
    if (e < 0 || e >= t->gpus + t->n_tiers)
        ST_BUG("endpoint %lld outside [0, %lld)", (long long)e, (long long)(t->gpus + t->n_tiers));
}

int st_topo_route_w(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links,
                    double *weights, int max, double *latency_s)
{
    int32_t hops[ST_TOPO_MAX_HOPS];
    double w[ST_TOPO_MAX_HOPS];
    src = st__topo_in(t, src);
    dst = st__topo_in(t, dst);
    check_endpoint(t, src);
    check_endpoint(t, dst);
    int n;
    double extra = 0;
    /* A GPU-to-GPU route without weights goes straight into a buffer that holds any route: the
     * copy through hops was a library call a route (the collective model routes every member). */
    int direct = !weights && max >= ST_TOPO_MAX_HOPS;
    if (src >= t->gpus && dst >= t->gpus) {
        ST_BUG("route between two storage tiers (%lld, %lld)", (long long)src, (long long)dst);
    } else if (src >= t->gpus || dst >= t->gpus) {
        int read = src >= t->gpus;
        int tier = (int)((read ? src : dst) - t->gpus);
        n = storage_path(t, read ? dst : src, tier, read, key, hops, w);
        extra = t->tier_lat[tier];
        direct = 0;
    } else {
        n = path(t, src, dst, key, direct ? links : hops);
        for (int i = 0; weights && i < n; i++) /* read only for the caller's weights */
            w[i] = 1.0;
    }
    if (n > max)
        ST_BUG("route of %d links into a buffer of %d", n, max);
    for (int i = 0; !direct && i < n; i++) {
        links[i] = hops[i];
        if (weights)
            weights[i] = w[i];
    }
    if (latency_s)
        *latency_s = t->path_lat[n] + extra; /* n <= ST_TOPO_MAX_HOPS: any route's length */
    return n;
}

int32_t st_topo_link_back(const st_topo *t, int tier, int32_t l, double *w)
{
    if (tier < 0 || tier >= t->n_tiers)
        ST_BUG("link back from tier %d of %d", tier, t->n_tiers);
    /* A write ends on the media (storage_path): the tier's one link, or a local tier's link of
     * the GPU's node. Each port before it is an UP one, base + 2 port, whose DOWN twin is the
     * next id (leaf_link, spine_link and the NIC's). */
    int32_t media = t->tier_base[tier];
    int64_t n_media = t->tier_local[tier] ? t->gpus / t->gpn : 1;
    if (l >= media && l < media + n_media) {
        *w = t->tier_read_w[tier];
        return l;
    }
    *w = 1.0;
    return l + DOWN;
}

int st_topo_gpu_route(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links,
                      double *latency_s)
{
    src = st__topo_in(t, src);
    dst = st__topo_in(t, dst);
    st__topo_check_gpu(t, src);
    st__topo_check_gpu(t, dst);
    int n = path(t, src, dst, key, links);
    *latency_s = t->path_lat[n];
    return n;
}

int st_topo_route(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links, int max,
                  double *latency_s)
{
    return st_topo_route_w(t, src, dst, key, links, NULL, max, latency_s);
}
