/* The network a cluster's GPUs talk over, as directional links with capacities and latencies:
 * NVLink/NVSwitch domains, NIC links to the leaves, and the spine-leaf, rail-optimized or
 * three-tier fat-tree fabric above them (cluster.fabric). It answers "which links does a flow
 * from GPU a to GPU b cross", with ECMP's per-flow hash or adaptive spreading. */
#ifndef ST_MODELS_TOPO_H
#define ST_MODELS_TOPO_H

#include <stdint.h>

#include "models/config.h"
#include "sim/err.h"

/* Where a link sits, for per-tier reports. */
typedef enum st_level {
    ST_LEVEL_NVLINK, /* GPU <-> NVSwitch, inside an NVLink domain */
    ST_LEVEL_NIC,    /* node NIC <-> leaf (top-of-rack or rail) switch */
    ST_LEVEL_LEAF,   /* leaf <-> spine */
    ST_LEVEL_SPINE,  /* spine <-> core (fat-tree-3 only) */
    ST_LEVEL__COUNT
} st_level;

typedef struct st_topo st_topo;

/* Build the topology of cluster c. Returns 0, or a negative ST_E* code with a message located
 * at the fabric mapping when the fabric cannot be built as described. *out is freed with
 * st_topo_free. */
int st_topo_new(const st_cluster_cfg *c, st_topo **out, st_err *err);

void st_topo_free(st_topo *t);

int64_t st_topo_gpus(const st_topo *t);
int32_t st_topo_link_count(const st_topo *t);

/* Goodput capacity of a link in bytes/s: line rate times the transport's payload efficiency. */
double st_topo_capacity(const st_topo *t, int32_t link);
st_level st_topo_level(const st_topo *t, int32_t link);

/* The links a flow from GPU src to GPU dst crosses, in order, into links[0..max); returns their
 * number (0 when src == dst), and the one-way latency of the path (links plus switches) into
 * *latency_s. key is the flow's identity: under ECMP the same key always takes the same one of
 * the equal-cost paths (a fixed hash, so collisions are reproducible); under adaptive routing
 * the key is ignored and the flow crosses aggregated links that stand for the whole layer. */
int st_topo_route(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links,
                  int max, double *latency_s);

/* The longest path any route can return, for sizing link buffers. */
#define ST_TOPO_MAX_HOPS 10

#endif
