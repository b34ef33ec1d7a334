/* Switch-side optics of a cluster's fabric: ports counted per level of the topology, times the
 * plant's per-port transceiver power where the fabric's port rate has a figure. */
#include "models/forecast/netpower.h"

#include <math.h>

#include "models/fabric/topo.h"
#include "models/plant/plant.h"

/* One switch-side port per NIC cable, two per leaf-spine and spine-core cable. */
int64_t st_forecast_topo_ports(const st_topo *t)
{
    return st_topo_cables(t, ST_LEVEL_NIC) + 2 * st_topo_cables(t, ST_LEVEL_LEAF) +
           2 * st_topo_cables(t, ST_LEVEL_SPINE);
}

int64_t st_forecast_switch_ports(const st_cluster_cfg *c)
{
    st_topo *t = NULL;
    st_err err = {0};
    if (st_topo_new(c, &t, &err))
        return 0;
    int64_t ports = st_forecast_topo_ports(t);
    st_topo_free(t);
    return ports;
}

int st_forecast_optics_w(const st_cluster_cfg *c, int64_t ports, double *board_w)
{
    *board_w = 0;
    const st_plant_preset *p = st_plant_preset_get();
    /* cluster.fabric.nic is bytes/s; the optics figure is for one port rate only */
    if (!(fabs(c->fabric.nic_bw * 8 - p->optic_rate_bps) <= 1e-9 * p->optic_rate_bps))
        return 0;
    *board_w = (double)ports * p->switch_optic_w;
    return 1;
}

int st_forecast_switch_optics(const st_cluster_cfg *c, int64_t *ports, double *board_w)
{
    *ports = 0, *board_w = 0;
    double w;
    if (!st_forecast_optics_w(c, 0, &w)) /* no figure: no topology to build */
        return 0;
    st_topo *t = NULL;
    st_err err = {0};
    if (st_topo_new(c, &t, &err))
        return 0;
    *ports = st_forecast_topo_ports(t);
    st_topo_free(t);
    return st_forecast_optics_w(c, *ports, board_w);
}
