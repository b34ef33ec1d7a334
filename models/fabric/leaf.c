/* Nodes per leaf by topology (models/fabric/leaf.h). */
#include "models/fabric/leaf.h"

/* A 64-port leaf (NVIDIA Quantum-2 QM9700, the leaf of the DGX SuperPOD reference architecture)
 * with half its ports down and half up to the spines: non-blocking. */
#define DEFAULT_DOWN_PORTS (ST_SWITCH_PORTS_DEFAULT / 2)

int64_t st_leaf_ports_per_node(st_topology t, int nics_per_node)
{
    return t == ST_TOPO_RAIL_OPTIMIZED || nics_per_node < 1 ? 1 : nics_per_node;
}

int64_t st_leaf_default_nodes(st_topology t, int nics_per_node, int64_t nodes)
{
    int64_t ports = st_leaf_ports_per_node(t, nics_per_node);
    int64_t per = DEFAULT_DOWN_PORTS / ports > 0 ? DEFAULT_DOWN_PORTS / ports : 1;
    return per < nodes ? per : nodes;
}

void st_leaf_retopology(st_fabric_cfg *f, int64_t nodes, st_topology to)
{
    if (f->topology == to)
        return;
    int64_t per = st_leaf_default_nodes(to, f->nics_per_node, nodes);
    if (f->nodes_per_leaf != st_leaf_default_nodes(f->topology, f->nics_per_node, nodes)) {
        int64_t down = f->nodes_per_leaf * st_leaf_ports_per_node(f->topology, f->nics_per_node);
        per = down / st_leaf_ports_per_node(to, f->nics_per_node);
        per = per < 1 ? 1 : per < nodes ? per : nodes;
    }
    f->nodes_per_leaf = per;
    f->topology = to;
}
