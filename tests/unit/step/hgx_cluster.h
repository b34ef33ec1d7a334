/* The cluster the step suites time plans on: HGX-like nodes of 8 H100s on NVLink, 8 NICs of
 * 400 Gbit/s, RoCE v2 on a spine-leaf with ECMP, the loader's default latencies. */
#ifndef ST_TESTS_HGX_CLUSTER_H
#define ST_TESTS_HGX_CLUSTER_H

#include <check.h>

#include "models/config/config.h"
#include "scenarios/catalog.h"

static inline st_cluster_cfg hgx_cluster(int64_t nodes, int64_t per_leaf, double oversub)
{
    const st_gpu_spec *gpu = st_catalog_gpu("h100-sxm");
    ck_assert_ptr_nonnull(gpu);
    return (st_cluster_cfg){.gpu = gpu,
                            .nodes = nodes,
                            .gpus_per_node = 8,
                            .nvlink_domain = 8,
                            .fabric = {.topology = ST_TOPO_SPINE_LEAF,
                                       .nic_bw = 50e9,
                                       .nics_per_node = 8,
                                       .nodes_per_leaf = per_leaf,
                                       .oversub = {oversub},
                                       .n_oversub = 1,
                                       .transport = ST_TRANSPORT_ROCE_V2,
                                       .routing = ST_ROUTING_ECMP,
                                       .link_latency_s = 1e-6,
                                       .switch_latency_s = 600e-9}};
}

#endif
