/* What topo.c (building a topology, its queries) shares with topo_route.c (its routes): the
 * topology's state and the GPU-to-NIC arithmetic. Internal to models/fabric. */
#ifndef ST_MODELS_FABRIC_TOPO_INTERNAL_H
#define ST_MODELS_FABRIC_TOPO_INTERNAL_H

#include <stdint.h>

#include "models/fabric/topo.h"
#include "sim/xalloc.h"

/* A link's direction, its id's parity within its switch port's pair: up (towards the spines),
 * then down. */
enum { UP = 0, DOWN = 1 };

struct st_topo {
    st_topology kind;
    st_routing routing;
    int64_t gpus, gpn;  /* GPUs, GPUs per node */
    int64_t dom;        /* GPUs per NVLink domain; 0 when GPUs have no NVLink links */
    int64_t skew;       /* GPU g's domain is (g + skew) / dom (st_cluster_cfg.nvlink_skew) */
    int64_t nics;       /* NICs per node */
    int64_t npl;        /* nodes per leaf (per rail group under rail-optimized) */
    int64_t leaves, up; /* leaf switches; uplink ports of each */
    int64_t ppod, pods; /* leaves per pod, pods (one pod holding every leaf in two tiers) */
    int64_t cup;        /* uplink ports of each spine to the cores (fat-tree-3) */
    int32_t base[ST_LEVEL__COUNT + 1]; /* first link id of each level; the last is the total */
    double port_bw;                    /* goodput of one network port, bytes/s */
    double nv_bw;                      /* goodput of one NVLink direction, bytes/s */
    double lat_link, lat_switch;
    /* A path's latency by its length: n links and the n - 1 switches between them, worked out
     * once, not with two conversions and two products for every route. */
    double path_lat[ST_TOPO_MAX_HOPS + 1];
    double *cap;
    /* Leaf and pod of each NIC, so a route reads them instead of dividing (three divisions a
     * NIC, two NICs a route, and routes are most of a collective's costing). */
    int32_t *nic_leaf, *nic_pod;
    int32_t *gpu_dom; /* each GPU's NVLink domain, where there are NVLink links (2 a GPU) */
    /* Storage tiers (cluster.storage order): first media link, per node when local, write/read
     * weight of a read byte on the media, access latency. */
    int n_tiers;
    int32_t *tier_base;
    uint8_t *tier_local;
    double *tier_read_w, *tier_lat, *tier_cap;
    /* A cluster of pools of several node sizes (models/config/pools.h, topo_pools.c): its nodes
     * are laid out at the largest node's size, gpn GPU slots and nics NIC slots a node, a
     * smaller node's last slots unused, and the cluster's GPU ids are mapped onto the slots where
     * they enter (st__topo_in). n_map 0: one node size, a GPU's id is its slot. */
    int n_map;
    int64_t *map_gpu, *map_node, *map_gpn; /* each pool's first GPU, first node, node size */
    int64_t ext_gpus, ext_nics;            /* the cluster's GPUs and NICs */
};

/* The slot of the cluster's GPU `gpu` (n_map > 0; topo_pools.c). */
int64_t st__topo_slot(const st_topo *t, int64_t gpu);

/* The slot of a GPU id entering t: the id itself on a fabric of one node size, and for a
 * storage endpoint (at or past the cluster's GPUs). */
static inline int64_t st__topo_in(const st_topo *t, int64_t gpu)
{
    return t->n_map && gpu >= 0 && gpu < t->ext_gpus ? st__topo_slot(t, gpu) : gpu;
}

/* What topo_pools.c adds to a topology of a cluster of pools: the slot layout of several node
 * sizes (before the layout), and each GPU's NVLink domain and NVLink capacity by its pool's
 * (after the capacities and places are filled). */
void st__topo_pools_shape(st_topo *t, const st_cluster_cfg *c);
void st__topo_pools_fill(st_topo *t, const st_cluster_cfg *c);

static inline int64_t st__topo_nic_of(const st_topo *t, int64_t gpu)
{
    if (t->nics == t->gpn) /* a NIC a GPU: node * nics + local is the GPU's own id */
        return gpu;
    int64_t node = gpu / t->gpn, local = gpu % t->gpn;
    return node * t->nics + local * t->nics / t->gpn;
}

static inline int64_t st__topo_leaf_of_nic(const st_topo *t, int64_t nic)
{
    return t->nic_leaf[nic];
}

static inline void st__topo_check_gpu(const st_topo *t, int64_t gpu)
{
    if (gpu < 0 || gpu >= t->gpus)
        ST_BUG("gpu %lld outside [0, %lld)", (long long)gpu, (long long)t->gpus);
}

#endif
