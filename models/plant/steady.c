/* The facility under a steady load, for a load known only by its mean (the cluster run's): the
 * plant's parts (plant.c's facility_losses) from one figure of rack power spread over the racks,
 * and a GPU's power at a utilisation from the plant's activity powers. */
#include <stddef.h>

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

void st_plant_facility_steady_heat(const st_cluster_cfg *c, double rack_board_w,
                                   double network_board_w, st_plant_facility *out,
                                   st_plant_heat *heat)
{
    const st_plant_preset *p = st_plant_preset_get();
    const st_rack_cfg *r = &c->racks;
    double s = 1 / p->psu_efficiency;
    int64_t npr = r->nodes_per_rack > 0 ? r->nodes_per_rack : 1;
    double racks = (double)((c->nodes + npr - 1) / npr);
    double rack_w = racks > 0 ? s * rack_board_w / racks : 0; /* each rack's wall power */
    double net_w = network_board_w > 0 ? s * network_board_w : 0;
    /* the feed's I^2 R: each rack's loss at its wall power (electric.h), every rack alike */
    double dist = r->distribution_resistance_ohm > 0
                      ? racks * st_plant_feed_loss(rack_w, r->feed_voltage_v, r->feed_phases,
                                                   r->power_factor, r->distribution_resistance_ohm)
                      : 0;
    double it = racks * rack_w + net_w, load = it + dist;
    double tr = load * (1 / p->transformer_efficiency - 1);
    st_plant_ups ups;
    st_plant_ups_of(&c->facility.ups, &load, 1, tr, &ups);
    st_plant_rack_heat h;
    st_plant_rack_cooling(r, rack_w, &h);
    st_plant_cooling_power cool;
    /* every watt drawn ends as heat: the racks' to air and liquid, the network's and the
     * electrical rooms' losses to air (plant.c's facility_losses) */
    *heat = (st_plant_heat){.air_w = racks * h.air_w + net_w + tr + ups.loss_w,
                            .liquid_w = racks * h.liquid_w};
    heat->total_w = heat->air_w + heat->liquid_w;
    st_plant_cooling_power_of(r, heat->air_w, heat->liquid_w, &cool);
    *out = (st_plant_facility){.it_w = it,
                               .distribution_w = dist,
                               .transformer_w = tr,
                               .ups_w = ups.loss_w,
                               .cooling_w = cool.total_w};
    out->total_w = it + dist + tr + ups.loss_w + cool.total_w;
}
