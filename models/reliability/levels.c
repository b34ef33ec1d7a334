/* Two-level checkpoints: which failures the in-memory copy survives, each level's Daly optimum
 * against the failures only it restores, and the expected wall time of both together
 * (docs/models/storage-and-failures.md, "Two-level checkpoints"). */
#include "models/reliability/levels.h"

#include <math.h>
#include <string.h>

#include "sim/xalloc.h"

/* Components that hold a node's host memory when they fail: the node is rebooted or swapped. */
static int takes_node(const char *c)
{
    return c && (strcmp(c, "gpu") == 0 || strcmp(c, "nic") == 0 || strcmp(c, "node") == 0);
}

double st_ckpt_mem_loss(const char *component, int64_t replicas, double node_rate, double window_s)
{
    if (component && strcmp(component, "rack") == 0)
        return 1;
    if (!takes_node(component))
        return 0; /* switches: every host memory survives */
    if (replicas <= 0)
        return 1;
    /* Each of the r peers must fail before the copy is made again; independent components. */
    double p = pow(node_rate * window_s, (double)replicas);
    return p < 1 ? p : 1;
}

/* A class's components as st_life_run counts them (lifetime.h: rounded, at least 1). */
static double counted(const st_life_class *c)
{
    double n = round(c->count);
    return c->count > 0 && n < 1 ? 1 : n;
}

void st_ckpt_split_failures(const st_life_class *classes, double *loss, int n, int64_t nodes,
                            int64_t replicas, double window_s, double *mem_mtbf_s,
                            double *disk_mtbf_s)
{
    double node_rate = 0, mem = 0, disk = 0;
    for (int i = 0; i < n; i++)
        if (takes_node(classes[i].component))
            node_rate += counted(&classes[i]) / classes[i].mtbf_s;
    node_rate /= (double)(nodes > 0 ? nodes : 1);
    for (int i = 0; i < n; i++) {
        const st_life_class *c = &classes[i];
        loss[i] = st_ckpt_mem_loss(c->component, replicas, node_rate, window_s);
        double rate = counted(c) / c->mtbf_s;
        disk += rate * loss[i];
        mem += rate * (1 - loss[i]);
    }
    *mem_mtbf_s = mem > 0 ? 1 / mem : INFINITY;
    *disk_mtbf_s = disk > 0 ? 1 / disk : INFINITY;
}

double st_ckpt_level_interval(const st_ckpt_level_q *q, st_auto_rule *rule)
{
    if (!isfinite(q->mtbf_s)) {
        if (rule)
            *rule = ST_AUTO_DALY;
        return 0;
    }
    return st_ckpt_auto_interval(st_daly_interval(q->cost_s, q->mtbf_s), q->commit_s, q->unit_s,
                                 rule);
}

/* The wall time of the failures alone (st_ckpt_two_level_wall without planned stops). */
static double failures_wall(const st_ckpt_wall_q *q)
{
    if (!(q->mem_every_s > 0))
        return st_daly_expected_wall(q->work_s, q->disk_every_s, q->disk_cost_s, q->disk_restart_s,
                                     q->disk_mtbf_s);
    /* The snapshots' stall stretches the work: mem_cost_s every mem_every_s of it. */
    double work = q->work_s * (1 + q->mem_cost_s / q->mem_every_s);
    double wall = isfinite(q->disk_mtbf_s)
                      ? st_daly_expected_wall(work, q->disk_every_s > 0 ? q->disk_every_s : work,
                                              q->disk_cost_s, q->disk_restart_s, q->disk_mtbf_s)
                      : work;
    double lost = isfinite(q->mem_mtbf_s)
                      ? (q->mem_every_s / 2 + q->mem_cost_s + q->mem_restart_s) / q->mem_mtbf_s
                      : 0;
    return lost < 1 ? wall / (1 - lost) : INFINITY;
}

double st_ckpt_two_level_wall(const st_ckpt_wall_q *q)
{
    double wall = failures_wall(q);
    if (!(q->planned_every_s > 0))
        return wall;
    /* A planned stop every planned_every_s of wall on average, each planned_down_s long and
     * losing no work: their share of the wall is planned_down_s / planned_every_s
     * (renewal-reward), the rest trains as without them. */
    double share = q->planned_down_s / q->planned_every_s;
    return share < 1 ? wall / (1 - share) : INFINITY;
}
