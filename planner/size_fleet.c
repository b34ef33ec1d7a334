/* The grown fleet of a `strata size --existing` row (size_fleet.h): the scenario's pools with the
 * row's, laid out as the loader lays out cluster.pools (scenarios/load_cluster_pools.c), so the
 * row's step, plant and cost are those `strata run` gives the same fleet (docs/guide/sizing.md,
 * "Growing an existing fleet"). */
#include "planner/size_fleet.h"

#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/fabric/leaf.h"
#include "models/silicon/gpu.h"
#include "sim/xalloc.h"

/* Whether racks a and b are built alike: their size and cooling. */
static int racks_alike(const st_rack_cfg *a, const st_rack_cfg *b)
{
    return a->nodes_per_rack == b->nodes_per_rack && a->cooling == b->cooling &&
           a->cooling_capacity_w == b->cooling_capacity_w &&
           a->liquid_fraction == b->liquid_fraction;
}

/* The pools' first nodes, GPUs, NICs and racks, in pool order, and the cluster's node count and
 * its first pool's node, as the loader derives them. */
static void lay_out(st_cluster_cfg *c, st_pool_cfg *p)
{
    int64_t node = 0, gpu = 0, nic = 0, rack = 0;
    c->mixed_node_sizes = 0;
    for (int k = 0; k < c->n_pools; k++) {
        p[k].first_node = node;
        p[k].first_gpu = gpu;
        p[k].first_nic = nic;
        p[k].first_rack = rack;
        int64_t per = p[k].racks.nodes_per_rack > 0 ? p[k].racks.nodes_per_rack : 1;
        node += p[k].nodes;
        gpu += p[k].nodes * p[k].gpus_per_node;
        nic += p[k].nodes * p[k].nics_per_node;
        rack += (p[k].nodes + per - 1) / per;
        c->mixed_node_sizes |= p[k].gpus_per_node != p[0].gpus_per_node;
    }
    c->nodes = node;
    c->gpu = p[0].gpu;
    c->gpus_per_node = p[0].gpus_per_node;
    c->nvlink_domain = p[0].nvlink_domain;
    c->fabric.nics_per_node = (int)p[0].nics_per_node;
    c->node.base_power_w = p[0].node_base_w;
}

void st__size_fleet_init(st__size_fleet *f, const st_cluster_cfg *scn, int kept,
                         const st_cluster_cfg *shape, int64_t nodes)
{
    int n = scn->n_pools;
    st_pool_cfg *p = st_xcalloc((size_t)n + 1, sizeof *p);
    memcpy(p, scn->pools, (size_t)n * sizeof *p);
    f->c = *scn;
    if (strcmp(shape->gpu->name, p[kept].gpu->name) == 0) {
        f->pool = kept;
        p[kept].nodes = nodes > p[kept].nodes ? nodes : p[kept].nodes;
    } else { /* a new pool of the shape's node, as a pool that states none has its platform's */
        f->pool = n++;
        p[f->pool] = (st_pool_cfg){.name = "added",
                                   .gpu = shape->gpu,
                                   .nodes = nodes,
                                   .gpus_per_node = shape->gpus_per_node,
                                   .nvlink_domain = shape->nvlink_domain,
                                   .nics_per_node = shape->fabric.nics_per_node,
                                   .node_base_w = shape->node.base_power_w,
                                   .pcie_bw = shape->node.pcie_bw,
                                   .racks = shape->racks};
        /* a wing built in racks of another size or cooling (a GB200 NVL72's) has its own, and
         * then every pool has its own, as a scenario stating one pool's racks lays them out */
        if (!scn->racks_by_pool && !racks_alike(&shape->racks, &scn->racks)) {
            f->c.racks_by_pool = 1;
            for (int k = 0; k < f->pool; k++)
                p[k].racks = scn->racks;
        }
    }
    /* the cluster-wide settings a variant sets (size.c variant_of): its fabric, tiers, noise */
    int dflt =
        scn->fabric.nodes_per_leaf ==
        st_leaf_default_nodes(scn->fabric.topology, (int)st_pools_most_nics(scn), scn->nodes);
    f->c.fabric = shape->fabric;
    f->c.fabric.topology = scn->fabric.topology;
    f->c.fabric.nodes_per_leaf = scn->fabric.nodes_per_leaf;
    f->c.fabric.leaves_per_pod = scn->fabric.leaves_per_pod;
    f->c.tiers = shape->tiers;
    f->c.n_tiers = shape->n_tiers;
    f->c.variability = shape->variability;
    f->c.pools = p;
    f->c.n_pools = n;
    lay_out(&f->c, p);
    if (dflt)
        f->c.fabric.nodes_per_leaf =
            st_leaf_default_nodes(f->c.fabric.topology, (int)st_pools_most_nics(&f->c), f->c.nodes);
    if (shape->fabric.topology != scn->fabric.topology) /* the variant's, its leaf switch kept */
        st_leaf_retopology(&f->c.fabric, f->c.nodes, shape->fabric.topology);
    st_pools_view(&f->c, f->pool, &f->view);
}

void st__size_fleet_release(st__size_fleet *f)
{
    free((void *)f->c.pools);
    memset(f, 0, sizeof *f);
}

int64_t st__size_fleet_gpu(const st__size_fleet *f, int64_t i)
{
    return st_pools_first_gpu(&f->c, f->pool) + i;
}

int64_t st__size_fleet_view_gpu(const st__size_fleet *f, int64_t i)
{
    return st_pools_view_gpu(&f->c, f->pool, st__size_fleet_gpu(f, i));
}

double st__size_fleet_others_w(const st__size_fleet *f, int64_t job_nodes, int full)
{
    double w = 0;
    for (int k = 0; k < f->c.n_pools; k++) {
        const st_pool_cfg *p = &f->c.pools[k];
        int64_t n = p->nodes - (k == f->pool ? job_nodes : 0);
        double gpu_w = full ? p->gpu->tdp_w : p->gpu->idle_w;
        w += (double)(n > 0 ? n : 0) * (p->node_base_w + (double)p->gpus_per_node * gpu_w);
    }
    return w;
}
