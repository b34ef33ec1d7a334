/* A GPU type the sizing searches sized on its own platform's node (planner/size_platform.c).
 * Internal to planner/. */
#ifndef ST_PLANNER_SIZE_PLATFORM_H
#define ST_PLANNER_SIZE_PLATFORM_H

#include "models/config/config.h"
#include "models/silicon/gpu.h"

/* Where GPU type g's catalog platform builds nodes of another size than cluster c's (its
 * node_gpus), or joins another NVLink domain, and g is not c's own type: the cluster of that
 * platform, into *out (a copy of c, its GPU set by the caller): the platform's GPUs a node, its
 * NVLink domain and its node power besides the GPUs, with c's GPUs, NICs a GPU and leaf
 * downlink ports carried over, and each rack the platform's NVLink domain where that spans
 * nodes (a GB200 NVL72's 18 trays, liquid-cooled as it ships), else c's GPUs a rack. Otherwise *out
 * is left as it is. Per-node figures stay per node: failures.spares and a local-NVMe tier's
 * bandwidth. Returns whether it reshaped. */
int st__size_platform(const st_cluster_cfg *c, const st_gpu_spec *g, st_cluster_cfg *out);

#endif
