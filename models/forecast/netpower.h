/* The network's power for the plant: the optics at the switches' ports, composed from the
 * fabric (models/fabric/topo.h) and the plant's optics figure (models/plant/plant.h), so that
 * the plant, which may not see the fabric, gets a plain number. docs/models/plant.md, "Network
 * optics", has the sources. */
#ifndef ST_MODELS_FORECAST_NETPOWER_H
#define ST_MODELS_FORECAST_NETPOWER_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/topo.h"

/* The switch-side optical ports of cluster c's fabric and their transceivers' board power (W):
 * one switch port per NIC cable (its other end is the NIC's, in the node's base power), two per
 * leaf-spine and spine-core cable, at the plant's per-port figure. Returns 1 with *ports and
 * *board_w set, or 0 when there is no figure for the fabric's port rate or its topology cannot
 * be built (then the network's power is not modelled). */
int st_forecast_switch_optics(const st_cluster_cfg *c, int64_t *ports, double *board_w);

/* The board power (W) of `ports` switch-side optical ports at cluster c's port rate, for a
 * caller that already counted them (st_forecast_topo_ports) on c's topology. Returns 1 with
 * *board_w set, or 0 (*board_w 0) when there is no figure for the port rate. */
int st_forecast_optics_w(const st_cluster_cfg *c, int64_t ports, double *board_w);

/* The same switch-side optical ports at any port rate (what the cost model buys transceivers
 * for), of cluster c, or 0 when its topology cannot be built, or of the topology t. */
int64_t st_forecast_switch_ports(const st_cluster_cfg *c);
int64_t st_forecast_topo_ports(const st_topo *t);

#endif
