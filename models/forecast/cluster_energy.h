/* The energy of a cluster run: every GPU over the makespan, each job's at the power of what it
 * runs while it works and idle otherwise, every node's base power, the network's optics, and the
 * facility's overhead on that load (models/plant/plant.h, st_plant_facility_steady).
 * docs/models/plant.md, "Energy of a cluster run", has the equation and sources. */
#ifndef ST_MODELS_FORECAST_CLUSTER_ENERGY_H
#define ST_MODELS_FORECAST_CLUSTER_ENERGY_H

#include "models/config/config.h"
#include "models/plant/plant.h"
#include "models/sched/cluster.h"

typedef struct st_cluster_energy {
    double energy_j;            /* the facility's energy over the makespan */
    double it_energy_j;         /* its IT part: the nodes' and the network's wall energy */
    double it_mean_w;           /* it_energy_j over the makespan */
    double facility_mean_w;     /* energy_j over the makespan: facility.total_w */
    st_plant_facility facility; /* the facility figure at the mean load, with its parts */
    double pue;                 /* facility over IT */
    int has_cost;               /* the scenario prices its electricity (cost: on-premises) */
    double energy_usd;          /* energy_j at its tariff */
} st_cluster_energy;

/* What the energy reads: the run's jobs (GPU counts) and result (each job's held_s, and what its
 * preemptions and failures cost, during which its GPUs draw idle power), and gpu_w[i], the board
 * power, W, of one GPU of job i while it works. */
typedef struct st_cluster_energy_in {
    const st_cluster_cfg *c;
    const st_cluster_job *jobs;
    const st_cluster_result *run;
    const double *gpu_w;
    double network_board_w;  /* the switches' optics (st_forecast_switch_optics), W */
    const st_cost_cfg *cost; /* NULL: no prices */
    const double *idle_w;    /* each job's GPUs' mean idle power, W: its pool's type's, or a
                                job across pools' mean over its GPUs; NULL: the cluster's one
                                GPU type's */
} st_cluster_energy_in;

/* The energy of in's run into *out. Returns 1, or 0 (out zeroed) when the run has no makespan or
 * the GPU states no power limit (the plant is then not modelled). */
int st_cluster_energy_of(const st_cluster_energy_in *in, st_cluster_energy *out);

#endif
