/* The state of one Muri replay (muri.h), shared by its two event loops: the SRTF/SRSF loop of
 * the artifact's shortest_first_sim_jobs (muri.c) and the Tiresias-L loop of its dlas_sim_jobs
 * (muri_dlas.c; repository Rivendile/Muri at 4e69a78, simulator/run_sim.py). Private to the
 * replay. */
#ifndef ST_MODELS_SCHED_MURI_RUN_H
#define ST_MODELS_SCHED_MURI_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "models/sched/muri.h"

enum { ST__MURI_LATER, ST__MURI_PENDING, ST__MURI_RUNNING, ST__MURI_DONE };

/* One job: its state, remaining iterations, seconds per iteration (x 1.015), the artifact's
 * last_check_time, first start, planned end (the end once done), and for Tiresias-L its
 * executed_time (wall time run, overheads included) and queue; held: the wall time it ran, for
 * its time queued (end - submit - held). */
typedef struct st__muri_job {
    int state, q, ends; /* ends: among the jobs of the next end event (SRTF, SRSF) */
    double rem_iter, iter_s, last, start, end, executed, held;
} st__muri_job;

/* A queue entry while sorting: its key, its place before the sort (the sort is stable), its id;
 * also the arrival order (key: submit time, pos: file order). */
typedef struct st__muri_ent {
    double key;
    size_t pos, id;
} st__muri_ent;

typedef struct st__muri_run {
    const st_muri_job *in;
    size_t n;
    st__muri_job *j;
    size_t *queue, n_queue; /* the artifact's runnable_jobs, in its order */
    st__muri_ent *scratch;
    double *at;    /* by arrival rank: the time of its start event (util.py's grouping) */
    double *gtime; /* the end events' times, in the order made */
    size_t *grp;   /* by id: a running job's end event */
    double end_t;  /* the next end event, INFINITY: none */
    int64_t *free, nodes, gpn;
    st_muri_order order;
    double busy_gpu_s;
    double frag_gpu_s, frag_now, frag_t; /* free GPUs no pending job fits, integrated */
    int64_t preemptions;
    uint64_t events;
} st__muri_run;

/* After a decision at t that left `left` GPUs free: integrate the fragmentation level since the
 * last decision and set the new one (the free GPUs when every pending job needs more, else 0). */
void st__muri_frag(st__muri_run *r, double t, int64_t left);

/* The artifact's dlas_sim_jobs(gputime=True) over r's jobs, arriving in the order `arr` at the
 * times r->at: 0, -1
 * when jobs wait that can never start, -2 where the artifact would carry a stale end-event list
 * (an arrival and a planned end at the same instant, with a queue jump before it). */
int st__muri_dlas(st__muri_run *r, const size_t *arr);

#endif
