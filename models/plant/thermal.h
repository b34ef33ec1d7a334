/* GPU junction temperature by a thermal RC model, T_j = T_coolant + P R_th relaxing with time
 * constant tau over the step's power phases, and the thermal throttle: above the throttle
 * temperature a job's clock drops until its hottest GPU's heat balances, which slows its compute
 * phases (st_step_run_at). Constants in one preset table with their sources (thermal.c);
 * docs/models/plant.md has the equations. */
#ifndef ST_MODELS_PLANT_THERMAL_H
#define ST_MODELS_PLANT_THERMAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/plant/gpu_power.h"
#include "models/plant/plant.h"

typedef struct st_plant_thermal_preset {
    double throttle_c;           /* the GPU's max operating temperature: the clock drops above */
    double air_rated_inlet_c;    /* the warmest inlet air an air-cooled server is rated for */
    double liquid_rated_inlet_c; /* the warmest coolant a cold-plate loop is rated for */
    double tau_air_s, tau_liquid_s;
    const char *source;
} st_plant_thermal_preset;

const st_plant_thermal_preset *st_plant_thermal_preset_get(void);

/* R_th, K/W, junction to coolant, of GPU g under cooling kind k: derived from the design point
 * at which a board at its power limit and the warmest rated coolant sits at the throttle
 * temperature, R = (throttle_c - rated_inlet_c) / tdp_w. */
double st_plant_rth(const st_gpu_spec *g, st_cooling_kind k);

/* tau, s, of cooling kind k. */
double st_plant_tau(st_cooling_kind k);

/* A GPU's compute power, W, at clock share `clock` in (0, 1]: the DVFS curve's
 * st_plant_dvfs_power (dvfs.h), idle + (tdp - idle) clock^k. */
double st_plant_compute_w(const st_gpu_spec *g, double clock);

/* The hottest junction temperature, C, of one GPU repeating profile p in coolant at coolant_c:
 * the periodic steady state of dT/dt = (P(t) R - (T - T_c)) / tau over the phases. */
double st_plant_junction_peak(const st_plant_profile *p, double coolant_c, double rth, double tau);

/* The hottest junction, C, of job alone on cluster c: st_plant_run's max_junction_c for it, bit
 * for bit, without the waveform (its profile at its clock, the racks' power floor and burn, its
 * racks' heat at its mean). A sizing search gives every plan it ranks its junction with it
 * (planner/size.c). */
double st_plant_job_junction(const st_cluster_cfg *c, const st_plant_job *job);

/* Each job's throttled clock (into clock[0 .. n)), the lower of two caps: the GPU's power
 * limit's clock (st_plant_power_clock, dvfs.h; 1 without a limit) when its hottest GPU stays at
 * or below the throttle temperature there, else the largest clock at which it does, with every
 * rack's heat (and so its coolant) following its jobs' clocks; the jobs are solved together by
 * repeated one-job bisections. A job's step at clock f is estimated with its compute and
 * optimizer phases stretched by 1 / f (the step model reruns it exactly afterwards). */
void st_plant_throttle(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, double *clock);

/* Keeps in jobs[0 .. n), in their order, only the jobs thermally coupled to jobs[*me .. *me +
 * mine): those sharing a rack with them, and with those, and so on. Heat reaches a GPU only through
 * its own rack's coolant, so st_plant_throttle gives those jobs the clocks it gives them among all
 * n, and a job starting beside thousands of others solves its own racks' jobs alone. *me moves to
 * the target's new first index; returns how many are kept. */
size_t st_plant_coupled(const st_cluster_cfg *c, st_plant_job *jobs, size_t n, size_t *me,
                        size_t mine);

/* One job's thermal state at its clock: its hottest GPU's junction, C, and its clock. */
typedef struct st_plant_job_thermal {
    double junction_c, clock;
} st_plant_job_thermal;

/* Shared with plant.c: which racks each job's GPUs sit in. */
typedef struct st__plant_cell {
    int64_t rack;
    size_t job;
    double gpus;
} st__plant_cell;

typedef struct st__plant_map {
    int64_t n_racks;
    double *base_w;        /* per rack: constant board draw (idle GPUs, node base power) */
    st__plant_cell *cells; /* one per (rack, job), sorted by rack then job */
    size_t n_cells;
    size_t *rack_at; /* rack k's cells: cells[rack_at[k] .. rack_at[k + 1]) */
} st__plant_map;

void st__plant_map_build(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                         st__plant_map *m);
void st__plant_map_free(st__plant_map *m);

/* Each rack's mean heat, W (its wall power), from each job's mean per-GPU board power. */
void st__plant_rack_heat(const st__plant_map *m, const double *gpu_mean_w, double *heat);

/* Each job's hottest junction over its racks, from its per-GPU profile, its GPU type's thermal
 * resistance and the racks' heat. */
void st__plant_junctions(const st_cluster_cfg *c, const st__plant_map *m, const st_plant_job *jobs,
                         const st_plant_profile *prof, const double *heat, size_t n, double *tj);

#endif
