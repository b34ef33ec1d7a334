/* Component failures and repairs in the cluster run (cluster.h): which GPUs a failed component
 * takes out of the pool, when the next one fails, and how long it stays out. Each class is a
 * set of identical components (GPUs, nodes, NICs, leaf switches, racks) failing independently
 * with exponential lifetimes: n components of mean time between failures M merge into one
 * Poisson process of rate n / M (docs/models/storage-and-failures.md, "Failures"), and each
 * failure strikes one of them uniformly at random. A failed component is out for its class's
 * repair time, then back (docs/models/scheduler.md, "Failures and repairs"). */
#ifndef ST_MODELS_SCHED_OUTAGE_H
#define ST_MODELS_SCHED_OUTAGE_H

#include <stddef.h>
#include <stdint.h>

#include "models/config/config.h"
#include "models/config/limits.h"
#include "sim/rng.h"

/* One class: count components, component k covering `width` consecutive GPUs from k * width
 * (GPU ids as the pool numbers them; the last one may hold fewer), or, for a NIC class, the
 * share of its node's GPUs that NIC serves, or, for racks laid out by pool, rack k's nodes. */
typedef struct st_outage_class {
    const char *component; /* the failures section's name (borrowed) */
    int64_t count;         /* components, >= 1 */
    int64_t width;         /* GPUs per component (NICs: per_node / nics, at least 1) */
    int nics;              /* > 0: a NIC class, nics per node; component k is NIC k % nics of
                              node k / nics */
    int64_t per_node;      /* GPUs per node (NIC classes) */
    double mtbf_s;         /* one component's mean time between failures, > 0 */
    double repair_s;       /* how long a failed component stays out of the pool, >= 0 */
    st_loc loc;            /* its `mtbf:` in the scenario (errors about its rate point there) */
    /* A rack class on racks laid out by pool (models/config/racks.h): component k is rack k,
     * its GPUs those of its nodes, the width unused; else NULL.
     * Also every class of a cluster whose pools' nodes are of several sizes
     * (models/config/pools.h): component k's GPUs are then those of its nodes (a NIC: its share
     * of its node's), found through the pools. */
    const st_cluster_cfg *racks_of;
} st_outage_class;

/* The most failures one cluster run draws, thinned draws included. A bound on work, not a model
 * figure: a rate whose expected failures over the run pass it (a GPU MTBF of 1 ns, a unit
 * slip) is refused before the run, and a run that draws that many anyway (jobs that never
 * finish between failures) stops with ST_ERANGE rather than drawing until the horizon. A million
 * failures of one node under one job (interrupt, requeue, repair, pick) take 0.4 s of CPU
 * (tests/unit/sched/test_failure_costs.c with this cap), so the cap keeps a run to seconds,
 * while 100,000 GPUs of a 50,000 h MTBF give 1,440 failures in a 30-day horizon. */
#define ST_OUTAGE_MAX_FAILURES ST_LIM_FAILURES

/* What the cluster run needs to model failures: the classes, and per interruption of a job the
 * detection time (the job holds its GPUs, hung, until noticed) and the restart time (paid on
 * its GPUs when it starts again, before its checkpoint's restore). */
typedef struct st_outage_spec {
    const st_outage_class *classes;
    int n_classes;
    double detect_s, restart_s;
} st_outage_spec;

/* The classes of `fail` that take GPUs out of the pool of cluster c, into out[] (room for
 * fail->n_classes): one per class whose component holds GPUs (a spine switch holds none: its
 * failure thins the fabric, it removes no GPU, and the cluster run does not draw it). A class's
 * repair time is its `repair:` (st_failure_class.repair_s >= 0), else detect + restart: the
 * life model's convention that a spare is swapped in within the restart. Returns the count. */
int st_outage_classes(const st_cluster_cfg *c, const st_failures_cfg *fail, st_outage_class *out);

/* The GPUs component k of class oc covers: [*first, *first + *n), clipped to total. */
void st_outage_range(const st_outage_class *oc, int64_t k, int64_t total, int64_t *first,
                     int64_t *n);

/* The run-time state: one random stream per class, keyed (seed, "cluster-outage", class,
 * "failure"), so a class added at the end leaves the others' draws unchanged. */
typedef struct st_outages {
    const st_outage_spec *sp;
    st_rng **rng;
    uint16_t *down; /* per GPU: how many failed components cover it now */
    int64_t total;
} st_outages;

void st_outages_init(st_outages *o, const st_outage_spec *sp, int64_t total, uint64_t seed);
void st_outages_release(st_outages *o);

/* The next failure of class k: the gap until it, in seconds (exponential, mean mtbf / count),
 * and the component it strikes (uniform). */
double st_outages_gap(st_outages *o, int k);
int64_t st_outages_pick(st_outages *o, int k);

#endif
