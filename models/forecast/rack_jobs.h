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
    size_t **in;            /* by rack: the jobs running there */
    size_t *n_in, *cap_in;  /* by rack */
    int64_t **racks;        /* by job: its racks, each once (NULL until first indexed) */
    size_t **at;            /* by job: its place in each of its racks' lists */
    size_t *n_racks_of;     /* by job */
    unsigned char *in_now;  /* by job: in its racks' lists now */
    unsigned char *rack_on; /* scratch of a closure: racks reached, jobs taken */
    unsigned char *job_on;
    int64_t *queue; /* the racks reached, in order */
    size_t n_queue, cap_queue;
} st__rack_jobs;

void st__rack_jobs_init(st__rack_jobs *r, const st_cluster_cfg *c, size_t n_jobs);
void st__rack_jobs_release(st__rack_jobs *r);

/* Job j starts: it joins the lists of its racks, those of gpus[0..n) the first time (a training
 * job's plant entry keeps the GPUs of its first placement, st_forecast.gpus, so a restart
 * rejoins the same racks). Nothing if it is in them already. */
void st__rack_jobs_add(st__rack_jobs *r, const st_cluster_cfg *c, size_t j, const int64_t *gpus,
                       int64_t n);

/* Job j stops: it leaves its racks' lists, so that a rack's list is what runs there now and a
 * walk never meets the jobs that ran there before. Nothing if it is not in them. */
void st__rack_jobs_remove(st__rack_jobs *r, size_t j);

/* The jobs in target's thermal neighbourhood: target, then every job in the lists with
 * running[j] set that shares a rack with one already taken, and through the services beside them
 * (steady, ns: each one that touches a rack reached joins and reaches its own racks), until none
 * joins. Writes them to out (room for n_jobs) and returns how many. A superset of
 * st_plant_coupled's set for the same jobs, which it then computes exactly on these alone. */
size_t st__rack_jobs_closure(st__rack_jobs *r, const st_cluster_cfg *c, size_t target,
                             const int *running, const st_plant_job *steady, size_t ns,
                             size_t *out);

#endif
