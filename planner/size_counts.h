/* The cluster sizes the sizing search tries, and the order it tries them in
 * (planner/size_counts.c). Internal to planner/. */
#ifndef ST_PLANNER_SIZE_COUNTS_H
#define ST_PLANNER_SIZE_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"

/* The candidate node counts of workload w on cluster c (its GPUs per node, NVLink domain,
 * layers and global batch) in whole units of `unit` nodes, at most `most_units` of them: those
 * on which some split of tp (a power of two within the NVLink domain), cp (the workload's) and
 * pp (dividing the layers, or a power of two) leaves a dp that divides the global batch, as
 * every plan needs (models/silicon/plan_check.h); so at most the largest split times the global
 * batch. Ascending, each once, malloc'd into *out (NULL when none). Returns how many. */
size_t st__size_candidates(const st_cluster_cfg *c, const st_workload_cfg *w, int64_t unit,
                           int64_t most_units, int64_t **out);

/* What one candidate's search found. */
typedef struct st__size_probe {
    int meets;            /* some configuration is feasible: the deadline and every budget */
    int over;             /* every configuration breaks a budget that only grows with the size
                             (power, capex, yearly cost): a larger size cannot meet it */
    double best_train_s;  /* the least time to train of its configurations (INFINITY: none) */
    double best_feasible; /* the least objective of those that meet (INFINITY: none) */
} st__size_probe;

/* Search candidate i (of the list) into *p: 0, or an error code that ends the search. */
typedef int (*st__size_probe_fn)(void *ctx, size_t i, st__size_probe *p);

/* The candidates 0 .. n-1 tried in the order that finds the smallest that meets the deadline
 * and the budgets: doubling the node count from the smallest until one meets them or breaks a
 * budget that grows with the size (or the time to train stops falling by at least
 * ST__SIZE_GAIN a doubling: no larger size can meet the deadline), then bisection between the
 * last that was too small and that one (a size over the budget is too large; one that meets
 * may have a smaller); then, since a larger size whose plans split better can cost less, doubling
 * on from the first that met while each doubling's least objective falls. Each candidate is probed
 * at most once; *probed counts them. Returns 0 or probe's error. */
#define ST__SIZE_GAIN 0.05
int st__size_bisect(size_t n, const int64_t *nodes, st__size_probe_fn probe, void *ctx,
                    int64_t *probed);

#endif
