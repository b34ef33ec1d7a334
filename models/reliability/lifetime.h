/* One training job's whole life under failures, as a fluid model on the engine: progress runs at
 * one second of training per second between events, checkpoints pause it, failures throw away
 * the work since the last restorable checkpoint and cost a detect-restart-restore downtime.
 * Monte Carlo over replicas; docs/models/storage-and-failures.md has the semantics and the sources.
 */
#ifndef ST_MODELS_RELIABILITY_LIFETIME_H
#define ST_MODELS_RELIABILITY_LIFETIME_H

#include <stdint.h>

#include "models/reliability/spare_wait.h"
#include "sim/err.h"

/* One class of component the job occupies; any one of them failing interrupts the job. */
typedef struct st_life_class {
    const char *component; /* "gpu", "node", "nic", "leaf_switch", "spine_switch", "rack": only
                              named in messages (borrowed) */
    double count;          /* how many the job occupies, >= 0; rounded to the nearest integer,
                              and to 1 when between 0 and 0.5 (a job on part of a switch
                              still fails with it) */
    double mtbf_s;         /* mean time between failures of ONE component, > 0 */
    double shape;          /* Weibull shape k > 0 of one component's lifetime; 1 = exponential */
} st_life_class;

/* The job. Plain data in SI units; every time is in seconds. */
typedef struct st_life_spec {
    double step_s;        /* wall seconds per training step, > 0 */
    int64_t steps;        /* steps to finish, >= 1; the work is steps * step_s */
    double ckpt_every_s;  /* training (progress) seconds between checkpoints, >= 0; 0 = none.
                             Checkpoints are taken at every multiple of it up to the work,
                             the end included when it divides the work */
    double ckpt_stall_s;  /* training pauses this long at each checkpoint, >= 0 */
    double ckpt_commit_s; /* from a checkpoint's start until it can be restored, >= stall
                             (> stall: asynchronous or two-stage, the rest drains in the
                             background while training goes on) */
    double detect_s;      /* per interruption: until the failure is noticed, >= 0 */
    double restart_s;     /* then until the job runs again on healthy components, >= 0 */
    double restore_s;     /* then until the checkpoint is loaded, >= 0 */
    /* The in-memory level of two-level checkpoints (0: none): a snapshot every mem_every_s of
     * training into host memory, each pausing training mem_stall_s, restorable at once. A
     * failure whose class keeps the copy (1 - mem_loss) rolls back to the newest snapshot or
     * persistent checkpoint and restores in mem_restore_s instead of restore_s. The snapshots'
     * stall is spread over the training as a fluid (each interval runs mem_stall_s longer),
     * exact at every snapshot; it counts in ckpt_stall_s. */
    double mem_every_s, mem_stall_s, mem_restore_s;
    /* Planned interruptions (maintenance: firmware and kernel upgrades, configuration changes):
     * a Poisson process of mean gap planned_every_s of wall time (0: none), from its own stream,
     * so the failures' draws are those of a job without them. A planned stop is announced: the
     * job saves its progress to the persistent tier first (the hosts reboot, taking host memory
     * and its snapshots), then restarts and restores it, down for ckpt_commit_s + restart_s +
     * restore_s with no detection and no work lost (a job that takes no checkpoints cannot save
     * and loses its work as a failure does). One that comes while the job is down or waits for
     * its final save stops nothing and is not counted. Llama 3 counted 47 in 54 days beside 419
     * unexpected interruptions (arXiv 2407.21783, section 3.3.4). */
    double planned_every_s;
    /* Fail-slow nodes (cluster.variability.slow_nodes; docs/models/stragglers.md): a node of the
     * job turns slow as a Poisson process of mean gap slow_every_s of wall time (0: none), from
     * its own stream. The job runs slower until the node is found, then the operator excludes it
     * with a stop as planned: save, restart without it, restore. The slow stretch is charged at
     * the exclusion as slow_cost_s more downtime (the progress it did not make); a slow node
     * that comes while the job is down or waits for its final save is not counted. */
    double slow_every_s, slow_cost_s;
    /* Spare nodes (failures.spares; has_spares 0: a spare always swaps in within the restart):
     * the job keeps `spares` nodes on hand; each failure takes its class's `take` nodes out for
     * its `repair_s`, and the job comes back up only once every node out is replaced by a spare,
     * waiting for repairs when there are too few (st_life_result.spare_wait_s). Which of the
     * merged exponential classes failed is drawn by their rates, from its own stream, so the
     * failures' draws are those of a job without spares. */
    int has_spares;
    int64_t spares;
    const int64_t *take;    /* [n_classes], borrowed, with spares: the nodes a failure of class i
                               takes out (1 for a GPU, node or NIC, a rack's nodes for a rack, 0
                               for a switch), >= 0 */
    const double *repair_s; /* [n_classes], borrowed, with spares: how long each is out, >= 0 */
    const double *mem_loss; /* [n_classes], borrowed: the probability in [0, 1] that a failure
                               of class i loses the in-memory copy (models/reliability/levels.h);
                               NULL: every failure does */
    const st_life_class *classes; /* [n_classes], borrowed; none = a job that never fails */
    int n_classes;
    double horizon_s; /* give up (ST_ERANGE) if the job is not done this long after submit,
                         > 0; 0 = the clock's range halved, 2^62 ns (146 years) */
} st_life_spec;

/* One replica's life. Times are sums of the engine's integer nanoseconds, so
 * wall_s = work + lost_work_s + ckpt_stall_s + downtime_s holds to rounding of the sum. */
typedef struct st_life_result {
    double wall_s;         /* submit to finish */
    int64_t interruptions; /* failures that hit the job, those during a downtime included, and
                              planned interruptions */
    int64_t planned;       /* of them, planned interruptions */
    int64_t slow;          /* of them, exclusions of fail-slow nodes */
    double lost_work_s;    /* training progress thrown away (work since the last restorable
                              checkpoint at each interruption), summed; it is done again */
    double downtime_s;     /* detect + restart + restore, summed; a downtime cut short by a
                              failure counts for the time it lasted */
    double ckpt_stall_s;   /* training paused for checkpoints: the stalls, waits for the
                              previous checkpoint to commit before the next can start, and the
                              wait for the final checkpoint to commit; summed */
    int64_t checkpoints;   /* checkpoints that became restorable */
    double spare_wait_s;   /* of the downtime, the waits for a spare node (has_spares) */
    double goodput;        /* steps * step_s / wall_s: the share of wall time spent on training
                              that was kept (Llama 3's "effective training time") */
} st_life_result;

/* Run one replica of the job's life. The failure draws come from streams keyed by
 * (master_seed, "lifetime", replica, ...) (sim/rng.h): the same three inputs give the identical
 * result, another replica an independent one. Exponential classes (shape 1) are merged into one
 * Poisson process; the others are renewal processes per component, started in their stationary
 * state (docs/models/storage-and-failures.md). Returns 0; ST_EINVAL for a spec out of its
 * documented domain (NaN, negative, commit < stall, no steps) or a duration over 2^61 ns (73
 * years); ST_ELIMIT when the non-exponential classes hold more components than the event queue can
 * (ST_EVQ_MAX_PENDING less the job's own events); ST_ERANGE when the job is not done by
 * the horizon. On error *out is all zero and err says why. */
int st_life_run(const st_life_spec *s, uint64_t master_seed, uint64_t replica, st_life_result *out,
                st_err *err);

/* One figure over the replicas. The mean, and the 95% confidence interval of that mean: mean -/+
 * t(0.975, n - 1) sd / sqrt(n), Student's t. That is how precisely the replicas estimate the
 * expected value (what Daly's formula and a plan compare); it is not the spread of single runs.
 * The spread is the percentiles: the 10th, 50th, 90th and 99th percentile of the replicas'
 * values, GSL's gsl_stats_quantile_from_sorted_data (linear interpolation between order
 * statistics, x[(n - 1) q] of the sorted values; Hyndman and Fan's definition 7), so a count's
 * percentile may fall between two whole numbers. One replica has no interval: lo and hi are NaN
 * then, and a caller must not print them; its percentiles are its own value. */
typedef struct st_life_stat {
    double mean, lo, hi;
    double p10, p50, p90, p99;
} st_life_stat;

/* The wall time's distribution over the replicas, as quantiles 0, 1/100, ..., 1 (a report's CDF).
 */
#define ST_LIFE_WALL_QUANTILES 101

typedef struct st_life_summary {
    int64_t replicas; /* 0: no summary was made */
    st_life_stat wall_s, goodput, interruptions, lost_work_s;
    double wall_q[ST_LIFE_WALL_QUANTILES]; /* wall_q[k]: quantile k / 100 of the wall times */
} st_life_summary;

/* Run replicas 0 .. n - 1 of the job under master_seed (as st_life_run) and summarise them.
 * n >= 1, else ST_EINVAL; n == 1 gives percentiles without an interval. Keeps the n replicas'
 * four figures for the percentiles (32 bytes a replica). Returns 0 or the first replica's
 * error (with *out all zero). Deterministic: the same inputs give the identical summary. */
int st_life_replicas(const st_life_spec *s, uint64_t master_seed, int64_t n, st_life_summary *out,
                     st_err *err);

/* The job's mean time between failures from its classes, 1 / sum(count / mtbf) with the counts
 * rounded as st_life_run does: the exact mean gap for exponential classes, the long-run one for
 * the others. +inf with no failing component. The spec must be valid (st_life_run's rules). */
double st_life_job_mtbf(const st_life_spec *s);

/* The n classes cl as the spares see them (spare_wait.h): each one's rate count / mtbf, the
 * nodes take[i] it takes out for repair_s[i]. malloc'd (n + 1 entries), the caller frees. */
st_spare_class *st_life_spare_classes(const st_life_class *cl, const int64_t *take,
                                      const double *repair_s, int n);

/* Internal, for tests: st_life_run with the failure path chosen. ST__LIFE_AUTO is what
 * st_life_run does; ST__LIFE_RENEWAL runs exponential classes as per-component renewal
 * processes too, which must agree with the merged Poisson process in distribution. */
#define ST__LIFE_AUTO    0
#define ST__LIFE_RENEWAL 1
/* A flag to add to either: fire every checkpoint cycle's events instead of jumping over whole
 * cycles between failures (the jump must not change any result). */
#define ST__LIFE_NOSKIP 2
int st__life_run_mode(const st_life_spec *s, uint64_t master_seed, uint64_t replica, int mode,
                      st_life_result *out, st_err *err);

#endif
