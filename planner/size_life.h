/* Failures and checkpoints in the sizing search's time to train (planner/size_life.c). Internal
 * to planner/. */
#ifndef ST_PLANNER_SIZE_LIFE_H
#define ST_PLANNER_SIZE_LIFE_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/maxmin.h"
#include "models/fabric/topo.h"
#include "models/forecast/ckpt_levels.h"
#include "models/silicon/parallel.h"
#include "sim/err.h"

typedef struct st__size_life {
    int on;        /* the shape holds components that fail: time to train counts failures */
    int has_ckpt;  /* the workload checkpoints to a tier of the cluster */
    double mtbf_s; /* the job's mean time between interruptions */
    double stall_s, commit_s; /* one checkpoint's pause of training, and its commit */
    double restart_s;         /* per interruption: detect, restart, restore */
    double restore_s;         /* of restart_s, the checkpoint's read back from its tier */
    /* failures.spares: the share of the wall time the job is held down for want of a spare
     * node (st_spares_blocked), beside the failures' restarts in Daly's wall time */
    double blocked;
    int64_t spares_needed; /* the fewest spares that would hold it ST_SPARES_ENOUGH or less */
    /* Planned interruptions (failures.planned_every; 0: none): the mean wall time between them,
     * and a planned stop's restart without detection, its save's commit and restore added
     * with checkpoints (models/reliability/lifetime.h). */
    double planned_every_s, planned_restart_s, planned_down_s;
    /* The two levels (models/forecast/ckpt_levels.h): the persistent save's whole cost, the
     * failures only it restores, and with checkpoint.memory the in-memory level's figures. */
    st_ckpt_plan plan;
} st__size_life;

/* The failure terms of plan p (holding GPUs first .. first + p->gpus - 1 of shape c, its
 * fabric t, memory
 * m) under the failures f (NULL or no classes: l->on = 0), the checkpoint's storage runs on the
 * max-min solver *spare holds (st_storage_checkpoint_reuse). Returns 0, or the storage model's
 * error. */
int st__size_life_open(st__size_life *l, const st_cluster_cfg *c, const st_topo *t, int64_t first,
                       const st_workload_cfg *p, const st_memory *m, const st_failures_cfg *f,
                       st_maxmin **spare, st_err *err);

/* The time to train work_s of steps of step_s under l: work_s when nothing fails; else the
 * expected wall time (st_ckpt_two_level_wall) at the pair of cadences that trains soonest. The
 * persistent cadences: Daly's optimum for the save's whole cost against the failures only it
 * restores (as `every: auto` takes it), p's own when it states one, and 10 min, 30 min, 1 h,
 * 3 h and 6 h, each in whole in-memory intervals (steps) and no shorter than a commit; with
 * checkpoint.memory, each against the in-memory cadences: its Daly optimum, p's own, and 1 and 10
 * steps. Into *every_s the persistent cadence (0: none), into *mem_every_s the in-memory one (0:
 * none), and *weighed counts the pairs weighed. */
double st__size_life_train(const st__size_life *l, const st_workload_cfg *p, double work_s,
                           double step_s, double *every_s, double *mem_every_s, int64_t *weighed);

/* The seconds of a time to train (of work_s of steps, at the cadences every_s and mem_every_s
 * st__size_life_train chose) that the GPUs spend stepping, the work and the work lost and redone:
 * the same expected wall time with every save, restart, restore and planned stop free and no
 * spare held, so that the failures strike the same and only their lost work is left. The rest of
 * the time to train the GPUs run no step (downtime, stalls, waits for spares), as `run` counts a
 * job's energy (models/forecast/run.c). work_s without failures. */
double st__size_life_busy_s(const st__size_life *l, double work_s, double every_s,
                            double mem_every_s);

/* The seconds of a time to train train_s (of work_s of steps, at cadence every_s, as
 * st__size_life_train gave them) that go to the checkpoint tier, its stalls and restores:
 * train_s less Daly's expected wall time at the same cadence with checkpoints free (no stall,
 * and a restart without the restore), at least 0. 0 without failures or without checkpoints. */
double st__size_life_storage_s(const st__size_life *l, double work_s, double train_s,
                               double every_s);

#endif
