/* The network a cluster's GPUs talk over, as directional links with capacities and latencies:
 * NVLink/NVSwitch domains, NIC links to the leaves, and the spine-leaf, rail-optimized or
 * three-tier fat-tree fabric above them (cluster.fabric). It answers "which links does a flow
 * from GPU a to GPU b cross", with ECMP's per-flow hash or adaptive spreading. The constructions
 * are in docs/models/fabric-topology.md. */
#ifndef ST_MODELS_FABRIC_TOPO_H
#define ST_MODELS_FABRIC_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "sim/err.h"

/* Where a link sits, for per-tier reports. Every link is directional: a full-duplex cable is an
 * up link and a down link with the same capacity. */
typedef enum st_level {
    ST_LEVEL_NVLINK,  /* GPU <-> NVSwitch, inside an NVLink domain */
    ST_LEVEL_NIC,     /* node NIC <-> leaf (top-of-rack or rail) switch */
    ST_LEVEL_LEAF,    /* leaf <-> spine */
    ST_LEVEL_SPINE,   /* spine <-> core (fat-tree-3 only) */
    ST_LEVEL_STORAGE, /* a storage tier's media: one link per tier (per node for local NVMe) */
    ST_LEVEL__COUNT
} st_level;

typedef struct st_topo st_topo;

/* Build the topology of cluster c (borrowed; not kept). GPU g sits on node g / gpus_per_node and
 * uses NIC (g % gpus_per_node) * nics_per_node / gpus_per_node of it; its NVLink domain is
 * g / nvlink_domain (0 there means gpus_per_node). A GPU has no NVLink links when nvlink_domain
 * is 1 or the GPU's nvlink figure is 0. Oversubscription tiers past n_oversub repeat the last;
 * n_oversub 0 means non-blocking. A domain or leaf larger than the cluster is partly filled: 64
 * GPUs of nvlink_domain 72 are one domain of 64, and nodes_per_leaf above nodes builds one leaf
 * (rail group) of the nodes there are, with uplinks for the ports they use. fat-tree-3 with
 * leaves_per_pod 0 puts 32 leaves in a pod (the 64-port switch the loader's nodes_per_leaf default
 * assumes), or all of them if fewer. Returns 0, or ST_EINVAL with a message located at the fabric
 * mapping (the cluster mapping for gpu and node counts) when a figure is out of range, or ST_ELIMIT
 * when the fabric needs more than INT32_MAX links. Memory and time are O(links). *out is freed with
 * st_topo_free. */
int st_topo_new(const st_cluster_cfg *c, st_topo **out, st_err *err);

/* No-op on NULL. */
void st_topo_free(st_topo *t);

int64_t st_topo_gpus(const st_topo *t);
int32_t st_topo_link_count(const st_topo *t);

/* Goodput capacity of a link in bytes/s: line rate times the transport's efficiency for network
 * links (models/fabric/transport.h), nvlink_bw / 2 times the NVLink efficiency for NVLink links.
 * Aggregated links (adaptive routing) carry the sum of the ports they stand for. link must be
 * in [0, st_topo_link_count). */
double st_topo_capacity(const st_topo *t, int32_t link);

/* All capacities, indexed by link id (st_topo_link_count entries); borrowed, valid while t
 * lives. Ready for st_maxmin_new. */
const double *st_topo_capacities(const st_topo *t);

st_level st_topo_level(const st_topo *t, int32_t link);

/* The first link id of level l: links are numbered level by level, so level l holds
 * [st_topo_level_first(t, l), st_topo_level_first(t, l + 1)), and l = ST_LEVEL__COUNT gives
 * st_topo_link_count. */
int32_t st_topo_level_first(const st_topo *t, st_level l);

/* True for a link an ECMP hash chose among equal-cost siblings (leaf <-> spine and spine <->
 * core ports under `routing: ecmp`), so that two flows on it are a hash collision. False for
 * NVLink and NIC links and for adaptive routing's aggregated links. */
int st_topo_hashed(const st_topo *t, int32_t link);

/* Write a readable name of a link ("leaf 3 -> spine 7") into buf (snprintf semantics);
 * returns the length it would have had. */
int st_topo_link_name(const st_topo *t, int32_t link, char *buf, size_t n);

/* The links a flow from GPU src to GPU dst crosses, in order, into links[0..max); returns their
 * number (0 when src == dst), and the one-way latency of the path into *latency_s (may be NULL):
 * link_latency_s per link plus switch_latency_s per switch between them (the NVSwitch counts as
 * one). key is the flow's identity: under ECMP each tier's choice is a fixed hash of (key, source
 * NIC, destination NIC, tier), so the same key always takes the same path and different flows
 * collide reproducibly; under adaptive routing the key is ignored and the flow crosses
 * aggregated links that stand for the whole layer. O(hops), no allocation. src and dst must be
 * GPUs in [0, st_topo_gpus) or, one of them, a storage endpoint (st_topo_storage_endpoint; its
 * latency then adds the tier's access latency), and max at least the route's length
 * (ST_TOPO_MAX_HOPS always suffices); anything else is a bug (ST_BUG). */
int st_topo_route(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links, int max,
                  double *latency_s);

/* st_topo_route between two GPUs (src and dst in [0, st_topo_gpus)) into links, room for
 * ST_TOPO_MAX_HOPS, its latency into *latency_s: the same route and latency, without the tests
 * a storage endpoint needs, for the collective model's every member. */
int st_topo_gpu_route(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links,
                      double *latency_s);

/* Storage endpoints. Tier k of cluster.storage (file order) is the endpoint
 * st_topo_gpus(t) + k: a route from a GPU to it is a write, from it to a GPU a read. A remote
 * tier hangs from the top of the fabric (the leaf of a one-leaf cluster, the spines of a
 * two-tier one, the cores of a fat-tree with several pods), so its traffic climbs the fabric
 * through the GPU's NIC and leaf uplinks like any other flow (ECMP-hashed per flow). Its media is
 * one link of capacity `write` crossed by writes with weight 1 and by reads with weight
 * write/read, so reads r and writes w share it as r/read + w/write <= 1: the tier's devices are
 * busy for the time each byte takes (the service-demand law, Lazowska et al., "Quantitative
 * System Performance", 1984, ch. 3). A `local-nvme` tier is one such link per node, its figures
 * per node, reached from the node's GPUs without the fabric. docs/models/storage-and-failures.md.
 */
int st_topo_tiers(const st_topo *t);
int64_t st_topo_storage_endpoint(const st_topo *t, int tier);
/* The tier's access latency (cluster.storage latency), seconds. */
double st_topo_storage_latency(const st_topo *t, int tier);
/* Like st_topo_route, for any two endpoints of which at most one is a storage tier, also
 * writing each link's weight (how many bytes of the link's capacity one byte of the flow uses:
 * 1 except on a tier's media for reads) into weights[0..) when weights is not NULL. */
int st_topo_route_w(const st_topo *t, int64_t src, int64_t dst, uint64_t key, int32_t *links,
                    double *weights, int max, double *latency_s);

/* GPU gpu's route to storage tier `tier` under key into links (room for ST_TOPO_MAX_HOPS), as
 * st_topo_route_w gives it to the tier's endpoint, every weight 1 (a write's): without the
 * endpoint's tests and the weights, for a storage stream's 10^4 members. Returns its length. */
int st_topo_write_route(const st_topo *t, int64_t gpu, int tier, uint64_t key, int32_t *links);

/* A write's link back: for link l of GPU g's route to storage tier `tier` under some key
 * (st_topo_route_w), the link the read from the tier to g under that key crosses in its place,
 * and that link's weight in the read into *w. ECMP hashes the flow, the NIC and the tier, never
 * the direction, so the read crosses the write's switch ports the other way, in reverse order,
 * and the same media at the tier's read weight: link by link, st_topo_route_w's own read route.
 */
int32_t st_topo_link_back(const st_topo *t, int tier, int32_t l, double *w);

/* The longest path any route can return, for sizing link buffers. */
#define ST_TOPO_MAX_HOPS 10

/* A flow key from two identities (job, collective, member, ...): a fixed 64-bit mix, the same
 * on every platform, that depends on the order of a and b. Chain it for more parts. */
uint64_t st_topo_flow_key(uint64_t a, uint64_t b);

/* st_topo_flow_key(a, b) in two steps, for many b under one a (a transfer's members): the
 * first mixes a alone, st_topo_flow_key_of(st_topo_flow_pre(a), b) is the key, bit for bit. */
uint64_t st_topo_flow_pre(uint64_t a);
uint64_t st_topo_flow_key_of(uint64_t pre, uint64_t b);

/* The leaf switch a GPU's NIC hangs from (rail leaves under rail-optimized), and its pod (0
 * except under fat-tree-3). GPUs under one leaf reach each other without crossing a spine. */
int64_t st_topo_leaf_of(const st_topo *t, int64_t gpu);
int64_t st_topo_pod_of(const st_topo *t, int64_t gpu);

/* Number of switches whose down-facing ports are the links of a level: NVSwitch domains for
 * ST_LEVEL_NVLINK (one logical switch per domain, however many chips build it), leaves for
 * ST_LEVEL_NIC, spines for ST_LEVEL_LEAF, cores for ST_LEVEL_SPINE. A tier that no route needs
 * (spines over a single leaf, cores over a single pod) has none. The counts are the same under
 * either routing. */
int64_t st_topo_switches(const st_topo *t, st_level level);

/* Ports one switch of a level has in use, its most loaded one: a leaf (ST_LEVEL_NIC) its
 * nodes' NIC ports (one per node under rail-optimized) and, with more than one leaf, its
 * uplinks; a spine (ST_LEVEL_LEAF) one port per leaf of its pod (Clos wiring, every leaf to
 * every spine) and, over several pods, its uplinks to the cores; a core (ST_LEVEL_SPINE) one
 * port per pod. 0 for a tier no route needs and for the NVLink and storage levels.
 * docs/models/fabric-topology.md, "Switch ports". */
int64_t st_topo_switch_ports(const st_topo *t, st_level level);

/* The most ports one network switch of t needs (st_topo_switch_ports over the leaf, spine and
 * core levels), its level into *level when not NULL (the first of equals; untouched when t has
 * no network switch, and 0 returned). */
int64_t st_topo_most_ports(const st_topo *t, st_level *level);

/* Number of full-duplex network cables of a level, each a port at both ends: one per NIC for
 * ST_LEVEL_NIC (NIC to leaf), one per leaf uplink port for ST_LEVEL_LEAF (leaf to spine), one
 * per spine uplink port for ST_LEVEL_SPINE (spine to core); 0 for a tier no route needs and for
 * the NVLink and storage levels. An aggregated link of adaptive routing counts every cable it
 * stands for, so the counts are the same under either routing. */
int64_t st_topo_cables(const st_topo *t, st_level level);

/* The network switches of the model: its leaves, spines and cores (st_topo_switches of the
 * NIC, leaf and spine levels; NVSwitch domains belong to the nodes). A spine has a port per leaf
 * of its pod and a core one per pod, so where those are few the model holds many switches of a
 * few ports each. */
int64_t st_topo_network_switches(const st_topo *t);

/* The switches a cluster buys, of switch_ports ports each (<= 0: the model's count): its
 * leaves, and each pod's spines and the cores packed into whole switches, as a Clos is built
 * with parallel links where a tier has fewer neighbours than ports (a non-blocking switch
 * carries them as the model's separate switches; the routes and capacities are the model's).
 * Never more than st_topo_network_switches. */
int64_t st_topo_switches_bought(const st_topo *t, int64_t switch_ports);

/* What decides the routes, link capacities and latencies between the GPUs 0 .. gpus-1 of a
 * fabric, and their links' order: two fabrics with equal signatures for the same `gpus` route
 * every pair of those GPUs over links that differ only by a renumbering keeping their order
 * (each level's ids shifted by its first id), of the same capacities, with the same ECMP choices
 * and latencies. So a simulation over those GPUs alone runs the same on both, bit for bit: the
 * sizing search shares collective times between GPU counts through it (models/step/step.h).
 * The pod fields are 0 when the GPUs sit in the first pod, where no route climbs to the cores. */
typedef struct st_topo_sig {
    int64_t kind, routing, gpn, dom, nics, npl, up, ppod, cup;
    int64_t skew; /* appended: where the NVLink domains begin (st_cluster_cfg.nvlink_skew) */
    double port_bw, nv_bw, lat_link, lat_switch;
} st_topo_sig;

/* The signature of fabric t over its GPUs 0 .. gpus-1 (1 <= gpus <= its GPUs, else ST_BUG). */
void st_topo_sig_of(const st_topo *t, int64_t gpus, st_topo_sig *out);

#endif
