/* A job's two checkpoint levels from its storage costs and failure classes: what a persistent
 * save costs the job in all (its stall, the drain's hold on the NICs, the flash its bytes wear,
 * in seconds of the job), which failures the in-memory copy survives, and `every: auto`'s two
 * cadences (models/reliability/levels.h). docs/models/storage-and-failures.md, "Two-level
 * checkpoints". */
#ifndef ST_MODELS_FORECAST_CKPT_LEVELS_H
#define ST_MODELS_FORECAST_CKPT_LEVELS_H

#include "models/config/config.h"
#include "models/reliability/levels.h"
#include "models/storage/storage.h"

typedef struct st_ckpt_plan {
    int two_level;        /* the workload states checkpoint.memory */
    int64_t replicas;     /* its peer copies */
    double mem_stall_s;   /* a snapshot's pause: the copy to host memory, and each peer copy's
                             hold on the NIC */
    double mem_commit_s;  /* until the snapshot and its peer copies exist */
    double mem_restore_s; /* a restore from memory (a replaced node's from a peer) */
    double mem_mtbf_s;    /* between failures the in-memory copy survives (inf: none) */
    double disk_mtbf_s;   /* between failures it does not (all of them without the level) */
    double usd_per_byte;  /* a byte written, priced by the flash endurance it uses */
    double usd_per_save;  /* one persistent save's bytes at usd_per_byte */
    double usd_per_day;   /* the flash its persistent saves wear a day of training: the write
                             load's bytes a day (st_ckpt_load) at usd_per_byte; set with the
                             load (life.c) */
    double usd_per_s;     /* the job's time: its GPUs at the preset's GPU-hour value */
    double write_cost_s;  /* one persistent save's bytes, priced, in seconds of the job */
    double cost_s;        /* Daly's d for the persistent level: stall + drain_nic_s + write */
    double mem_every_s;   /* the in-memory interval the job uses (0: none) */
    int mem_rule;         /* st_auto_rule under memory.every: auto */
} st_ckpt_plan;

/* The plan of workload w (its checkpoint costs k, on `nodes` nodes) against failure classes
 * cl[0..n) (loss[i]: the probability that a failure of class i loses the in-memory copy, set
 * here; all 1 without an in-memory level) with a downtime of
 * down_s before a restore, at step step_s. Sets the in-memory interval (stated or auto); the
 * persistent one is st_ckpt_plan_persistent's. */
void st_ckpt_plan_make(const st_workload_cfg *w, const st_ckpt_cost *k, const st_life_class *cl,
                       double *loss, int n, int64_t nodes, double down_s, double step_s,
                       st_ckpt_plan *out);

/* `every: auto`'s persistent interval under plan p at step step_s: Daly's optimum for p's cost
 * against the failures only the persistent copy restores, in whole in-memory intervals (steps
 * without that level), no shorter than the commit. 0 when nothing the persistent copy
 * alone restores can fail. */
double st_ckpt_plan_persistent(const st_ckpt_plan *p, const st_ckpt_cost *k, double step_s,
                               st_auto_rule *rule);

#endif
