/* How many nodes one leaf switch serves under each topology (cluster.fabric.nodes_per_leaf):
 * the loader's default, and the same leaf's count under another topology, which the sizing
 * search needs when it searches the topology (planner/size.c, `strata size --topologies`).
 * docs/models/fabric-topology.md. */
#ifndef ST_MODELS_FABRIC_LEAF_H
#define ST_MODELS_FABRIC_LEAF_H

#include <stdint.h>

#include "models/config/config.h"

/* The ports of the network switches the defaults assume (cluster.fabric.switch_ports): 64, as
 * NVIDIA's Quantum-2 QM9700 (64 ports of 400 Gb/s NDR InfiniBand) and Spectrum-4 SN5600 (64
 * ports of 800 GbE) datasheets give them. */
#define ST_SWITCH_PORTS_DEFAULT 64

/* Leaf ports one node takes: one per NIC under spine-leaf and fat-tree-3 (every NIC of a node
 * on its one top-of-rack leaf), one under rail-optimized (NIC k of each node on rail leaf k). */
int64_t st_leaf_ports_per_node(st_topology t, int nics_per_node);

/* The default nodes_per_leaf: a 64-port leaf with half its ports down (non-blocking), so 32
 * ports' worth of nodes (at least 1), and no more than the cluster's nodes. */
int64_t st_leaf_default_nodes(st_topology t, int nics_per_node, int64_t nodes);

/* Fabric f (of a cluster of `nodes` nodes) with topology `to`: the same leaf switch, so the same
 * down ports. A nodes_per_leaf equal to the default of f's topology is a default leaf (32 ports
 * down) and becomes the default of `to`; any other keeps its ports: nodes_per_leaf x f's ports
 * per node over `to`'s, at least 1, no more than the nodes. leaves_per_pod is kept: only a
 * fat-tree-3 reads it, and the loader refuses it elsewhere, so a fat-tree-3 made from another
 * topology has the default pod. */
void st_leaf_retopology(st_fabric_cfg *f, int64_t nodes, st_topology to);

#endif
