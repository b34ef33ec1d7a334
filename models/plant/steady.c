/* The facility under a steady load, for a load known only by its mean (the cluster run's): the
 * plant's parts (plant.c's facility_losses) from one figure of rack power spread over the racks,
 * and a GPU's power at a utilisation from the plant's activity powers. */
#include <stddef.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/plant/cooling.h"
#include "models/plant/electric.h"
#include "models/plant/gpu_power.h"
#include "models/plant/plant.h"
#include "models/plant/ups.h"

double st_plant_util_w(const st_gpu_spec *g, double u)
{
    u = u > 0 ? (u < 1 ? u : 1) : 0;
    return u * st_plant_activity_w(g, ST_PLANT_ACT_COMPUTE) +
           (1 - u) * st_plant_activity_w(g, ST_PLANT_ACT_IDLE);
}

void st_plant_facility_steady(const st_cluster_cfg *c, double rack_board_w, double network_board_w,
                              st_plant_facility *out)
{
    st_plant_heat heat;
    st_plant_facility_steady_heat(c, rack_board_w, network_board_w, out, &heat);
}

/* The racks' part of a steady load: their wall power, the feed's loss and the heat to air and
 * liquid, summed over groups of like racks. */
typedef struct racks_sum {
    double it_w, dist_w, air_w, liquid_w;
} racks_sum;

/* `racks` racks built to rg sharing board_w of board power evenly: each rack's wall power
 * through the PSUs (efficiency 1/s), its feed loss on the cluster's feed f (electric.h), and its
 * heat split by its cooling, added into *sum. */
static void add_racks(const st_rack_cfg *f, const st_rack_cfg *rg, double racks, double board_w,
                      double s, racks_sum *sum)
{
    double rack_w = racks > 0 ? s * board_w / racks : 0; /* each rack's wall power */
    /* the feed's I^2 R: each rack's loss at its wall power, every rack of the group alike */
    sum->dist_w += f->distribution_resistance_ohm > 0
                       ? racks * st_plant_feed_loss(rack_w, f->feed_voltage_v, f->feed_phases,
                                                    f->power_factor, f->distribution_resistance_ohm)
                       : 0;
    sum->it_w += racks * rack_w;
    st_plant_rack_heat h;
    st_plant_rack_cooling(rg, rack_w, &h);
    sum->air_w += racks * h.air_w;
    sum->liquid_w += racks * h.liquid_w;
}

/* A pool's nodes at full draw, each node's base power and its GPUs at their TDP: what its share
 * of a steady load is taken in proportion to, where racks are laid out by pool. */
static double pool_full_w(const st_cluster_cfg *c, int k)
{
    const st_pool_cfg *q = &c->pools[k];
    double gpn = (double)st_pools_gpus_per_node(c, k);
    return (double)q->nodes * (q->node_base_w + gpn * q->gpu->tdp_w);
}

/* The racks under rack_board_w: every rack alike (cluster.racks), or, where racks are laid out by
 * pool, each pool's racks alike, a pool's share of the load its nodes' full draw over the
 * cluster's (the steady load says how much is drawn, not where; docs/models/pools.md). */
static void racks_under(const st_cluster_cfg *c, double rack_board_w, double s, racks_sum *sum)
{
    *sum = (racks_sum){0, 0, 0, 0};
    if (!c->racks_by_pool || c->n_pools <= 0) {
        add_racks(&c->racks, &c->racks, (double)st_racks_count(c), rack_board_w, s, sum);
        return;
    }
    double full = 0;
    for (int k = 0; k < c->n_pools; k++)
        full += pool_full_w(c, k);
    for (int k = 0; k < c->n_pools; k++)
        add_racks(&c->racks, &c->pools[k].racks, (double)st_racks_pool_count(c, k),
                  full > 0 ? rack_board_w * pool_full_w(c, k) / full : 0, s, sum);
}

void st_plant_facility_steady_heat(const st_cluster_cfg *c, double rack_board_w,
                                   double network_board_w, st_plant_facility *out,
                                   st_plant_heat *heat)
{
    const st_plant_preset *p = st_plant_preset_get();
    double s = 1 / p->psu_efficiency;
    double net_w = network_board_w > 0 ? s * network_board_w : 0;
    racks_sum r;
    racks_under(c, rack_board_w, s, &r);
    double dist = r.dist_w, it = r.it_w + net_w, load = it + dist;
    double tr = load * (1 / p->transformer_efficiency - 1);
    st_plant_ups ups;
    st_plant_ups_of(&c->facility.ups, &load, 1, tr, &ups);
    st_plant_cooling_power cool;
    /* every watt drawn ends as heat: the racks' to air and liquid, the network's and the
     * electrical rooms' losses to air (plant.c's facility_losses) */
    *heat = (st_plant_heat){.air_w = r.air_w + net_w + tr + ups.loss_w, .liquid_w = r.liquid_w};
    heat->total_w = heat->air_w + heat->liquid_w;
    st_plant_cooling_power_of(&c->racks, heat->air_w, heat->liquid_w, &cool);
    *out = (st_plant_facility){.it_w = it,
                               .distribution_w = dist,
                               .transformer_w = tr,
                               .ups_w = ups.loss_w,
                               .cooling_w = cool.total_w};
    out->total_w = it + dist + tr + ups.loss_w + cool.total_w;
}
