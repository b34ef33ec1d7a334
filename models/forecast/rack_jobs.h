/* Which training jobs have run in each rack, so that a job's thermal neighbourhood (the jobs its
 * racks' heat couples it to, st_plant_coupled's set) is found from its racks instead of from
 * every running job: a start then costs its neighbourhood, not the cluster's running jobs, and
 * a run of n jobs is no longer n^2 (docs/models/plant.md, "Throttling"). */
#ifndef ST_MODELS_FORECAST_RACK_JOBS_H
#define ST_MODELS_FORECAST_RACK_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/plant/plant.h"

typedef struct st__rack_jobs {
    int64_t n_racks;
    size_t n_jobs;
    size_t **in;            /* by rack: the jobs indexed there, in the order they were */
    size_t *n_in, *cap_in;  /* by rack */
    int64_t **racks;        /* by job: its racks, each once (NULL until indexed) */
    size_t *n_racks_of;     /* by job */
    unsigned char *rack_on; /* scratch of a closure: racks reached, jobs taken */
    unsigned char *job_on;
    int64_t *queue; /* the racks reached, in order */
    size_t n_queue, cap_queue;
} st__rack_jobs;

void st__rack_jobs_init(st__rack_jobs *r, const st_cluster_cfg *c, size_t n_jobs);
void st__rack_jobs_release(st__rack_jobs *r);

/* Indexes job j at the racks of gpus[0..n) once; later calls for j do nothing (a training job's
 * plant entry keeps the GPUs of its first placement, st_forecast.gpus). */
void st__rack_jobs_add(st__rack_jobs *r, const st_cluster_cfg *c, size_t j, const int64_t *gpus,
                       int64_t n);

/* The jobs in target's thermal neighbourhood: target, then every indexed job with running[j]
 * set that shares a rack with one already taken, and through the services beside them (steady,
 * ns: each one that touches a rack reached joins and reaches its own racks), until none joins.
 * Writes them to out (room for n_jobs) and returns how many. A superset of st_plant_coupled's
 * set for the same jobs, which it then computes exactly on these alone. */
size_t st__rack_jobs_closure(st__rack_jobs *r, const st_cluster_cfg *c, size_t target,
                             const int *running, const st_plant_job *steady, size_t ns,
                             size_t *out);

#endif
