/* A GPU type the sizing searches sized on its own platform's node (planner/size_platform.c).
 * Internal to planner/. */
#ifndef ST_PLANNER_SIZE_PLATFORM_H
#define ST_PLANNER_SIZE_PLATFORM_H

#include "models/config/config.h"
#include "models/silicon/gpu.h"

/* Where GPU type g's catalog platform builds nodes of another size than cluster c's (its
 * node_gpus), and g is not c's own type: the cluster of that platform's nodes, into *out (a
 * copy of c, its GPU set by the caller): the platform's GPUs a node, its NVLink domain and its
 * node power besides the GPUs, with c's GPUs, NICs a GPU, leaf downlink ports and GPUs a rack
 * carried over. Otherwise *out is left as it is. Returns whether it reshaped. */
int st__size_platform(const st_cluster_cfg *c, const st_gpu_spec *g, st_cluster_cfg *out);

#endif
