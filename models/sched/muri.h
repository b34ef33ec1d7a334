/* Muri's replay conventions: the runtime model and queue rules of the baselines in the Muri
 * artifact's simulator (Zhao et al., "Multi-Resource Interleaving for Deep Learning Training",
 * SIGCOMM'22; repository Rivendile/Muri, simulator/run_sim.py shortest_first_sim_jobs and
 * dlas_sim_jobs, jobs.py, switch.py), so that a Muri trace replays like for like with the
 * published figures. It is not
 * Strata's cluster run (cluster.h): its jobs have fixed speeds, and its restart overhead is a
 * charge at every event, not a checkpoint through the storage model. */
#ifndef ST_MODELS_SCHED_MURI_H
#define ST_MODELS_SCHED_MURI_H

#include <stddef.h>
#include <stdint.h>

#include "models/sched/cluster.h"
#include "sim/err.h"

/* The baselines replayed: the artifact sorts its queue at every event by remaining service
 * time (`--schedule=shortest`, SRTF) or remaining time x GPUs (`shortest-gpu`, SRSF), or runs
 * Tiresias-L's discretised two-dimensional least attained service (`dlas-gpu`). */
typedef enum st_muri_order { ST_MURI_SRTF, ST_MURI_SRSF, ST_MURI_TIRESIAS_L } st_muri_order;

/* The baseline a Strata policy name stands for in the replay: "srtf", "srsf" or "tiresias"
 * (Tiresias-L) into *out, 0; -1 for any other name. */
int st_muri_order_of(const char *policy, st_muri_order *out);

/* One job as the artifact reads it: submit (s), iterations, seconds per iteration as recorded
 * (before the service factor), GPUs, and its restart overhead (st_muri_overhead_s). The traces
 * record whole milliseconds, and the replay redoes the artifact's arithmetic on them (submit /
 * 1000, iteration x 1.015 / 1000), so both times are taken to the nearest millisecond. */
typedef struct st_muri_job {
    double submit_s, iterations, iteration_s;
    int64_t gpus;
    double overhead_s;
    st_loc loc; /* the job's row in its trace, for errors ({0}: none) */
} st_muri_job;

/* The artifact's per-model restart overhead in seconds (run_sim.py overhead_dict) for a job of
 * `model` on `gpus` GPUs; 10 s for a model or GPU count the table lacks, as the artifact does. */
double st_muri_overhead_s(const char *model, int64_t gpus);

/* Replay the jobs on `nodes` nodes of `gpus_per_node` GPUs under `order` into *st (zeroed
 * first): every job needs iterations x iteration_s x 1.015 of service; at every event each
 * running job that does not end there loses its overhead from the work since the last event.
 * SRTF and SRSF: jobs are re-sorted by `order` (stably) and placed against an empty cluster, a
 * job of at most a node's GPUs on the first node with room, a larger one on GPUs/gpus_per_node
 * wholly free nodes; a job that does not fit is skipped (preempted if it ran) and later ones may
 * start. Events (arrivals, and SRTF's and SRSF's planned ends) within a relative 1e-9 of each
 * other are one event, at the first one's time, as the artifact groups them. Tiresias-L: three
 * FIFO queues split at 3,250 and 7,200 GPU-seconds of executed time
 * (overheads included), a job demoted one queue at an event where it has crossed its limit and
 * an extra event when a running one will; the queues are scanned from Q0 against the cluster's
 * GPU count alone (no node rule), a job that does not fit skipped (preempted if it ran), then
 * each queue's pending jobs go to its back.
 * Figures as the artifact's calc.py computes them (p99: sorted JCT at index int(0.99 n); p50
 * and p95 the same way); utilization is GPU-seconds held over GPUs x makespan, goodput the
 * service the jobs needed (without overheads) over the same, fragmented_gpus the free GPUs no
 * pending job fits by count, time-averaged over the makespan. Returns 0, or
 * ST_EINVAL when a job can never fit (the artifact would not end), or where the artifact's
 * dlas-gpu loop would reuse a stale end list (an arrival and a planned end at one instant
 * behind a queue jump; none of its eight traces does). */
int st_muri_replay(const st_muri_job *jobs, size_t n, int64_t nodes, int64_t gpus_per_node,
                   st_muri_order order, st_cluster_stats *st, st_err *err);

#endif
