/* Level 4: a job's storage traffic on the cluster's fabric. Checkpoint writes, restores and data
 * ingest are transfers between the job's GPUs and a tier endpoint (models/fabric/topo.h) on one
 * st_net, so they share the fabric and the tier's media max-min with everything else running at the
 * time: another job's checkpoint, a drain, every job's ingest. Each function here builds one such
 * situation on a fresh engine and network, runs it, and reads off the times and rates.
 * docs/models/storage-and-failures.md has the equations and assumptions. */
#ifndef ST_MODELS_STORAGE_STORAGE_H
#define ST_MODELS_STORAGE_STORAGE_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/maxmin.h"
#include "models/fabric/topo.h"
#include "models/place/placement.h"
#include "models/silicon/parallel.h"
#include "sim/err.h"

/* One stream of storage traffic: `members` GPU endpoints (gpu[0..members)) each moving `bytes`
 * to (read = 0) or from (read = 1) `tier`, every member at most max_rate bytes/s (0 = no cap).
 * The members progress at one common rate (a collective write finishes with its slowest
 * shard). bytes may be INFINITY for a stream that never ends (ingest), which then must be
 * capped. */
typedef struct st_io {
    const int64_t *gpu;
    int64_t members;
    int tier;
    int read;
    double bytes;
    double max_rate;
    double start_s; /* when it starts, seconds after the run's start */
} st_io;

/* Run streams io[0..n) together on topology t (storage endpoints included), and write each
 * finite stream's completion time (seconds from the run's start, its tier's latency included)
 * into done_s[i] and each stream's aggregate rate (bytes/s over all members) at the instant the
 * last finite stream completes, or at the start when none is finite, into rate[i] (either
 * array may be NULL). Endless streams get done_s = INFINITY. Returns 0. */
int st_storage_run(const st_topo *t, const st_io *io, int n, double *done_s, double *rate);

/* Streams of other jobs that run all the time (their data ingest): every question below is
 * asked with them present, so jobs share the tiers and the fabric max-min. NULL = none. */
typedef struct st_io_set {
    const st_io *io;
    int n;
} st_io_set;

/* What checkpoints cost one job: the figures of docs/models/storage-and-failures.md. */
typedef struct st_ckpt_cost {
    double
        size_bytes;  /* the whole checkpoint (models/silicon/parallel.h: 14 bytes per parameter) */
    int64_t writers; /* GPUs that write a shard */
    double shard_bytes;   /* bytes each writer writes */
    double d2h_s;         /* one shard from GPU to host memory over PCIe */
    double local_s;       /* two-stage: the shards to the nodes' local NVMe (0 otherwise) */
    double write_s;       /* the shards into the tier, the job alone with its ingest running */
    double stall_s;       /* training pauses per checkpoint, by mode */
    double commit_s;      /* from the checkpoint's start until it can be restored */
    double restore_s;     /* reading it back after an interruption */
    double dump_s;        /* the audit's pre-flight figure: size over the tier's write bandwidth
                             plus its latency, no fabric, no contention */
    double ingest_loss_s; /* progress lost because the drain slowed the ingest (async and
                             two-stage), already inside stall_s */
    double drain_nic_s;   /* async and two-stage: how long the drain holds each writer's NIC,
                             shard / (the node's NIC bandwidth per GPU), during which the step's
                             own traffic on it is delayed (0 for sync: it stalls instead) */
    double nic_per_gpu;   /* the node's NIC bandwidth per GPU, bytes/s */
} st_ckpt_cost;

/* Data ingest of one job: what the step rate needs and what the storage gives. */
typedef struct st_ingest {
    double need_bps; /* tokens/s x bytes per token at the simulated step time */
    double got_bps;  /* what the job's read stream gets, alone, capped at need */
    double slowdown; /* need / got when got < need, else 1: the factor on the step time */
} st_ingest;

/* A job runs where its placement `at` says (models/place/placement.h: rank r on GPU
 * at->gpu[r], on at->topo of cluster at->c); its first GPU on each node stands for that node's
 * host, which reads the node's data.
 *
 * Ingest of workload w (its data section; need 0 when it has none) at step time step_s: one
 * endless read stream from the data tier to every host, capped at the need, measured with the
 * background streams bg running. */
void st_storage_ingest(const st_placement *at, const st_workload_cfg *w, double step_s,
                       const st_io_set *bg, st_ingest *out);

/* The ingest stream of workload w placed at `at` needing need_bps: one member per host, written
 * into *out with its host GPU ids in hosts (room for w->gpus). Returns the member count (0
 * when w reads no data or need_bps is not positive, and *out is untouched). */
int64_t st_storage_ingest_stream(const st_placement *at, const st_workload_cfg *w, double need_bps,
                                 int64_t *hosts, st_io *out);

/* Checkpoint costs of workload w placed at `at` (its checkpoint section must be enabled and
 * name a tier), with its ingest at `ingest` (NULL: no ingest) and the background streams bg
 * running alongside. mem is the memory model's answer for the plan. Returns 0, or ST_EINVAL
 * located at the checkpoint section when mode two-stage finds no local-nvme tier in the
 * cluster. */
int st_storage_checkpoint(const st_placement *at, const st_workload_cfg *w, const st_memory *mem,
                          const st_ingest *ingest, const st_io_set *bg, st_ckpt_cost *out,
                          st_err *err);

/* st_storage_checkpoint on the max-min solver *spare holds, if any (taken, and rebased onto at's
 * fabric: st_maxmin_rebase), given back there reset when *spare is empty at the end (else
 * freed): a caller asking on fabric after fabric (a sizing search's GPU counts) allocates one
 * solver instead of 10^5 links' worth of memory for each. The same answers, bit for bit. */
int st_storage_checkpoint_reuse(const st_placement *at, const st_workload_cfg *w,
                                const st_memory *mem, const st_ingest *ingest, const st_io_set *bg,
                                st_maxmin **spare, st_ckpt_cost *out, st_err *err);

/* The steady write load a checkpoint cadence puts on its tier while the job trains. */
typedef struct st_ckpt_load {
    const char *tier;         /* the checkpoint tier's name (borrowed from the cluster) */
    double period_s;          /* wall seconds between checkpoint starts: max(stall + interval,
                                 commit), the life model's cycle without failures */
    double bytes_per_s;       /* size / period */
    double bytes_per_day;     /* bytes_per_s x 86,400 */
    double write_capacity;    /* the tier's write bandwidth the job writes into (a local-nvme
                                 tier's, per node, times the job's nodes) */
    double write_utilization; /* bytes_per_s / write_capacity: the share of the tier's media
                                 time its checkpoints hold (the service-demand law) */
} st_ckpt_load;

/* The load of checkpoints costing k, taken every interval_s of training, by workload w placed
 * at `at` onto its checkpoint tier (docs/models/storage-and-failures.md, "Write load"). All
 * zero when interval_s is 0 (no checkpoints). */
void st_storage_ckpt_load(const st_placement *at, const st_workload_cfg *w, const st_ckpt_cost *k,
                          double interval_s, st_ckpt_load *out);

/* The GPUs that write a checkpoint shard: under ZeRO 0 the ranks of data-parallel replica 0
 * (each holds a model-parallel slice of weights and optimizer state, Megatron-LM's
 * non-distributed save), under ZeRO 1-3 every GPU (the optimizer state is sharded over data
 * parallelism; Megatron-Core's fully parallel save). Writes up to w->gpus ids into out and
 * returns how many. */
int64_t st_storage_writers(const st_placement *at, const st_workload_cfg *w, int64_t *out);

#endif
