/* Transport presets (cluster.fabric.transport): how much of a link's line rate arrives as payload
 * for RoCE v2, InfiniBand and Omni-Path, and the same for NVLink. The table, with a source for
 * every figure, is in models/fabric/transport.c; docs/models/fabric-topology.md explains the
 * arithmetic. */
#ifndef ST_MODELS_FABRIC_TRANSPORT_H
#define ST_MODELS_FABRIC_TRANSPORT_H

#include "models/silicon/gpu.h"

#include "models/config/config.h"

/* One transport's packet framing, figures from the protocol specifications. */
typedef struct st_transport_spec {
    const char *name;     /* the scenario's spelling: "roce-v2", "infiniband", "omni-path" */
    double payload_bytes; /* payload per packet: the path MTU (4096, the largest IB MTU) */
    double header_bytes;  /* bytes on the wire per packet besides the payload */
    const char *source;   /* where the header sizes come from */
    st_routing routing;   /* how its fabric spreads flows unless the scenario says: the
                             switches' and subnet manager's default (transport.c) */
} st_transport_spec;

/* The preset of transport t, or NULL for a value outside st_transport. Borrowed, static. */
const st_transport_spec *st_transport_spec_of(st_transport t);

/* The routing a fabric of transport t runs unless cluster.fabric.routing says (ECMP for an
 * unknown transport). */
st_routing st_transport_default_routing(st_transport t);

/* Payload share of the wire: payload / (payload + header), for a full-MTU packet stream.
 * 0 for an unknown transport. */
double st_transport_wire_efficiency(st_transport t);

/* Goodput a NIC achieves as a fraction of its nominal line rate (the `nic:` figure, which is
 * already net of line coding and FEC): on InfiniBand the wire efficiency times the endpoint
 * efficiency that NCCL maintainers' measurements leave after the headers; on RoCE v2 and
 * Omni-Path a measured share, headers included (see transport.c). Network link capacities are
 * nic_bw times this. 0 for an unknown transport. */
double st_transport_efficiency(st_transport t);

/* Achievable NVLink bandwidth per direction of gpu as a fraction of the datasheet rate per
 * direction (half the GPU's `nvlink` figure), by NVLink generation from the GPU's architecture:
 * NVLink 3 (Ampere) and NVLink 5 (Blackwell) from Azure's nccl-tests, CDNA 3's Infinity Fabric
 * (MI300X) from Azure's rccl-tests, every other part from NCCL maintainers' H100 figure (see
 * transport.c). NULL: the H100 figure.
 * NVLink link capacities are nvlink_bw / 2 times this. */
double st_nvlink_efficiency(const st_gpu_spec *gpu);

/* The cluster's own NVLink and NIC goodput over the model's, from its calibration
 * (cluster.calibration's nvlink and network; 1 where not fitted). Link capacities are the
 * model's times these. */
double st_calib_nvlink(const st_cluster_cfg *c);
double st_calib_network(const st_cluster_cfg *c);

#endif
