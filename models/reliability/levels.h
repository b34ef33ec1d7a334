/* Two-level checkpoints: a fast in-memory snapshot level and a persistent level, each with its
 * own cost and the failures it alone can restore, Daly's optimum per level (the multi-level
 * extension of Young/Daly: Moody et al., SCR, SC'10; Di et al., "Optimization of multi-level
 * checkpoint model for large scale HPC applications", IPDPS'14; Benoit et al., "Towards optimal
 * multi-level checkpointing", IEEE TC 66(7), 2017). docs/models/storage-and-failures.md,
 * "Two-level checkpoints", has the derivation and the sources. */
#ifndef ST_MODELS_RELIABILITY_LEVELS_H
#define ST_MODELS_RELIABILITY_LEVELS_H

#include <stdint.h>

#include "models/reliability/interval.h"
#include "models/reliability/lifetime.h"

/* The probability that one failure of a component of this kind loses the in-memory copy the
 * job restores from. A switch holds none (0). A rack takes its nodes and, under Gemini's group
 * placement, their nearest peers with them (1). A GPU, NIC or node takes its node's host memory
 * (the node is rebooted or replaced): with replicas = 0 the copy is lost (1); with r peer copies
 * it is lost only when each of the r peers also fails within window_s, before the copy is made
 * again: (node_rate x window_s)^r, node_rate being one node's rate of such failures (1/s).
 * component is st_life_class.component's name. */
double st_ckpt_mem_loss(const char *component, int64_t replicas, double node_rate, double window_s);

/* Set loss[i] for every class i (st_ckpt_mem_loss, with node_rate the job's rate of GPU, NIC
 * and node failures over its `nodes`), and write the mean time between failures the
 * in-memory copy survives into *mem_mtbf_s and between those it does not into *disk_mtbf_s
 * (+inf when none). */
void st_ckpt_split_failures(const st_life_class *classes, double *loss, int n, int64_t nodes,
                            int64_t replicas, double window_s, double *mem_mtbf_s,
                            double *disk_mtbf_s);

/* One level's cadence question: Daly's optimum for cost_s against mtbf_s (inf: nothing this
 * level restores fails, so no cadence), in whole units of unit_s (a step for the memory level,
 * the memory interval for the persistent one), never under commit_s (one save in flight). */
typedef struct st_ckpt_level_q {
    double cost_s, mtbf_s, unit_s, commit_s;
} st_ckpt_level_q;

/* The level's `auto` interval (0 when mtbf_s is infinite) and its rule into *rule. */
double st_ckpt_level_interval(const st_ckpt_level_q *q, st_auto_rule *rule);

/* Expected wall time of work_s under two levels, to first order in the memory level: Daly's
 * expected wall time for the persistent level (st_daly_expected_wall of the work with the
 * memory snapshots' stall, disk_every_s, disk_cost_s, disk_restart_s, disk_mtbf_s), over
 * 1 - (mem_every_s / 2 + mem_cost_s + mem_restart_s) / mem_mtbf_s, the share of time the
 * failures restored from memory take (half an interval of rework, the stall and the restart
 * each; renewal-reward). mem_every_s 0: no memory level, Daly's single level against every
 * failure (mem_mtbf_s is then ignored). Planned interruptions (models/reliability/lifetime.h),
 * one every planned_every_s of wall time on average (0: none), each down planned_down_s and
 * losing nothing, take their share of the time likewise: the wall is divided by
 * 1 - planned_down_s / planned_every_s. +inf when the interruptions take all the time. */
typedef struct st_ckpt_wall_q {
    double work_s;
    double mem_every_s, mem_cost_s, mem_restart_s, mem_mtbf_s;
    double disk_every_s, disk_cost_s, disk_restart_s, disk_mtbf_s;
    double planned_every_s, planned_down_s;
} st_ckpt_wall_q;
double st_ckpt_two_level_wall(const st_ckpt_wall_q *q);

#endif
