/* A GPU type sized on its own platform's node: a GB200 searched beside 8-GPU HGX nodes comes in
 * trays of 4 on its 72-GPU NVLink domain, not in the scenario's 8-GPU boxes with a domain of 8
 * (docs/guide/sizing.md, "What is searched"). Both sizing searches, a training job's
 * (planner/size.c) and a service's (planner/size_serve.c), build each type's cluster here. */
#include "planner/size_platform.h"

#include <string.h>

#include "models/config/racks.h"
#include "models/fabric/leaf.h"

/* The GPUs type g's platform joins on NVLink: its rack's where that spans trays (an NVL72's
 * 72), else its node's. */
static int64_t platform_domain(const st_gpu_spec *g)
{
    return g->platform_domain > g->node_gpus ? g->platform_domain : g->node_gpus;
}

/* A rack that is the platform's NVLink domain (an NVL72's 18 trays), built as the platform ships:
 * liquid-cooled ("a liquid-cooled, rack-scale" system, NVIDIA's GB200 NVL72 page). A scenario
 * whose racks are liquid-cooled keeps its own loop's figures; an air-cooled one's racks become
 * liquid-cooled at the default capacity and liquid share (cooling.c's 132 kW, the NVL72 rack's;
 * racks.h's share), its supply temperatures and the facility's plant kept. */
static void nvl_rack(const st_cluster_cfg *c, int64_t nodes, st_rack_cfg *r)
{
    if (c->racks.nodes_per_rack > 0)
        r->nodes_per_rack = nodes;
    if (r->cooling == ST_COOLING_LIQUID)
        return;
    r->cooling = ST_COOLING_LIQUID;
    r->cooling_capacity_w = 0; /* the liquid kind's default */
    r->liquid_fraction = st_racks_default_liquid_fraction(ST_COOLING_LIQUID);
}

int st__size_platform(const st_cluster_cfg *c, const st_gpu_spec *g, st_cluster_cfg *out)
{
    int64_t n0 = c->gpus_per_node, n = g->node_gpus, dom = platform_domain(g);
    if (n <= 0 || strcmp(g->name, c->gpu->name) == 0 || (n == n0 && dom == c->nvlink_domain))
        return 0;
    out->nvlink_domain = dom;
    if (dom > n) /* an NVL72's rack is its NVLink domain */
        nvl_rack(c, dom / n, &out->racks);
    if (n == n0) /* the scenario's node, but its NVLink domain */
        return 1;
    out->gpus_per_node = n;
    out->nodes = (c->nodes * n0 + n - 1) / n; /* the same GPUs (a search sets its own sizes) */
    /* what the scenario states for its own nodes, per GPU: NICs a GPU, each leaf's downlink
     * ports, each rack's GPUs (but a rack that is the platform's NVLink domain) */
    int64_t nics = (int64_t)c->fabric.nics_per_node * n / n0;
    out->fabric.nics_per_node = (int)(nics < 1 ? 1 : nics < 64 ? nics : 64);
    int64_t down = c->fabric.nodes_per_leaf *
                   st_leaf_ports_per_node(c->fabric.topology, c->fabric.nics_per_node),
            per = st_leaf_ports_per_node(c->fabric.topology, out->fabric.nics_per_node);
    out->fabric.nodes_per_leaf = down / per > 0 ? down / per : 1;
    if (c->racks.nodes_per_rack > 0 && dom <= n) {
        int64_t npr = (c->racks.nodes_per_rack * n0 + n - 1) / n;
        out->racks.nodes_per_rack = npr > 0 ? npr : 1;
    }
    /* a stated base_power is the scenario's node's; the platform's figure is this node's */
    if (g->node_base_w > 0)
        out->node.base_power_w = g->node_base_w;
    return 1;
}
