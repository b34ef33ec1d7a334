/* Collectives over the flow-level network: all-reduce, reduce-scatter, all-gather, broadcast,
 * all-to-all and send/recv, run as phases of st_net transfers on the engine with NCCL's ring,
 * double binary tree or a hierarchical algorithm, NCCL's channels and protocol costs
 * (models/fabric/nccl.h), and bus bandwidth reported the nccl-tests way. docs/models/fabric.md has
 * the model. */
#ifndef ST_MODELS_FABRIC_COLLECTIVE_H
#define ST_MODELS_FABRIC_COLLECTIVE_H

#include <stdint.h>

#include "models/config/config.h"
#include "models/fabric/net.h"
#include "models/fabric/topo.h"
#include "sim/err.h"

/* Each enum below is one X-macro list of (identifier, name): the list generates the enum values
 * and the name tables of st_coll_*_name, which are also the loader's YAML values, so a new
 * algorithm is one line here (plus its model). Order is the enum order. */
#define ST_COLL_OPS(X)                                                                             \
    X(ALL_REDUCE, "all-reduce")                                                                    \
    X(REDUCE_SCATTER, "reduce-scatter")                                                            \
    X(ALL_GATHER, "all-gather")                                                                    \
    X(BROADCAST, "broadcast") /* root: gpus[0] */                                                  \
    X(ALL_TO_ALL, "all-to-all")                                                                    \
    X(SEND_RECV, "send-recv") /* gpus[0] sends to gpus[1] */

/* auto: NCCL's choice, the least estimated time of ring, tree and (inside one NVLink domain of a
 * part that has it) NVLS, for all-reduce. tree: NCCL's double binary tree, all-reduce only.
 * hier: NVLink reduce-scatter, per-rail ring all-reduce, NVLink all-gather. nvls: NVLink SHARP,
 * the NVSwitch reduces and multicasts; all-reduce inside one NVLink domain of a Hopper or
 * Blackwell part, Simple protocol. */
#define ST_COLL_ALGOS(X)                                                                           \
    X(AUTO, "auto")                                                                                \
    X(RING, "ring")                                                                                \
    X(TREE, "tree")                                                                                \
    X(HIER, "hier")                                                                                \
    X(NVLS, "nvls")

/* auto: NCCL's choice, the least estimated time, uncongested, at start. ideal: no protocol, no
 * base or per-hop overhead, full bandwidth. */
#define ST_COLL_PROTOS(X)                                                                          \
    X(AUTO, "auto")                                                                                \
    X(LL, "LL")                                                                                    \
    X(LL128, "LL128")                                                                              \
    X(SIMPLE, "Simple")                                                                            \
    X(IDEAL, "ideal")

/* Expands one list entry to its name followed by a comma: `{ST_COLL_OPS(ST_COLL_NAME) NULL}` is a
 * NULL-terminated name table in enum order. */
#define ST_COLL_NAME(id, name) name,

#define ST__COLL_ENUM(id, name)       ST_COLL_##id,
#define ST__COLL_PROTO_ENUM(id, name) ST_COLL_PROTO_##id,

typedef enum st_coll_op { ST_COLL_OPS(ST__COLL_ENUM) ST_COLL_OP__COUNT } st_coll_op;
typedef enum st_coll_algo { ST_COLL_ALGOS(ST__COLL_ENUM) ST_COLL_ALGO__COUNT } st_coll_algo;
typedef enum st_coll_proto {
    ST_COLL_PROTOS(ST__COLL_PROTO_ENUM) ST_COLL_PROTO__COUNT
} st_coll_proto;

/* The most NCCL channels a collective may ask for. */
#define ST_COLL_MAX_CHANNELS 64

/* Called once when a collective completes, at engine time now. */
typedef void (*st_coll_done_fn)(void *ctx, uint64_t tag, st_time now);

typedef struct st_coll_spec {
    st_coll_op op;
    st_coll_algo algo;
    st_coll_proto proto;
    int channels;        /* NCCL channels (parallel rings, or trees in pairs), one transfer
                            each; 0 = NCCL-like default (docs/models/fabric.md) */
    int sync_steps;      /* 0: a ring's latency is one chunk's trip, hop by hop (NCCL's pipelined
                            model); 1: every step waits for its slowest hop (SimGrid-style) */
    const int64_t *gpus; /* the ranks, n distinct GPU ids; borrowed during st_coll_start */
    int64_t n;
    double bytes;         /* nccl-tests "size": per-rank buffer (all-gather: the output) */
    uint64_t key;         /* ECMP identity of the collective's flows */
    uint64_t tag;         /* handed back to done */
    st_coll_done_fn done; /* may be NULL */
    void *ctx;
} st_coll_spec;

/* Runs collectives on one network. Opaque: it owns the running collectives' state. */
typedef struct st_coll st_coll;

/* A collective runner on net (borrowed) over topology t (borrowed; the one net runs on), which
 * was built from cluster c (borrowed during the call: the GPU, gpus_per_node, nvlink_domain and
 * nics_per_node are copied). Never returns NULL. */
/* Whether GPU specs a and b run every collective alike: the same pointer, or equal in the only
 * fields the collective runner and the topology read (architecture: NCCL's tuning, NVLink's
 * goodput and NVLS; NVSwitch; NVLink bandwidth). A memo of collective times keyed by GPU shares
 * its entries between such parts (H100 SXM and H200 SXM). */
int st_coll_gpu_same(const st_gpu_spec *a, const st_gpu_spec *b);

st_coll *st_coll_new(st_net *net, const st_topo *t, const st_cluster_cfg *c);

/* Free the runner and the state of collectives still running. Call it after st_net_free (whose
 * transfers would otherwise call into freed state) or when st_coll_active is 0. NULL: no-op. */
void st_coll_free(st_coll *cm);

/* Start a collective at the engine's clock. Returns its id (>= 0), or ST_EINVAL with a message
 * when the spec is wrong: n < 1, a GPU out of range or repeated, bytes negative or not finite,
 * an enum out of range, channels outside 0..ST_COLL_MAX_CHANNELS, tree, hier or nvls for anything
 * but all-reduce, hier when the NVLink groups hold different numbers of ranks, nvls on a GPU
 * without NVLS (st_nccl_nvls_efficiency), across NVLink domains or with the LL or LL128 protocol,
 * send/recv with n != 2. done is called
 * from an engine event, never from inside this call, after the last phase's latency. */
int64_t st_coll_start(st_coll *cm, const st_coll_spec *spec, st_err *err);

/* A collective prepared to answer what st_coll_start would start at other byte counts without
 * laying it out, routing or costing it again: its transfers, their members and routes do not
 * depend on the bytes, and for a single ring, chain or send/recv phase of anything but an
 * all-reduce, under the protocol NCCL would choose, neither do the protocols' factors and
 * latencies; only the protocol chosen, and so each member's bytes and each transfer's latency.
 * Opaque; owns its laid-out ranks. */
typedef struct st_coll_prep st_coll_prep;

/* st_coll_start, and spec prepared too into *prep: NULL where its costs read the bytes (more
 * than that one phase kind), else prev itself when its phase costed alike the one prev was
 * prepared from, just before on cm (the same factors and latencies: a group of a pattern alike
 * the one before), else a new one the caller owns. A prepared collective may be answered on any
 * runner whose fabric routes its GPUs alike, with the same GPU (models/step/step_memo.c's
 * class). st_coll_prep_free(NULL) is a no-op. */
int64_t st_coll_start_prepared(st_coll *cm, const st_coll_spec *spec, st_coll_prep *prev,
                               st_coll_prep **prep, st_err *err);
void st_coll_prep_free(st_coll_prep *p);

/* The transfers p starts (at any bytes), and the bytes p holds. */
size_t st_coll_prep_transfers(const st_coll_prep *p);
size_t st_coll_prep_bytes(const st_coll_prep *p);

/* What st_coll_start of p's spec with `bytes` would start: each member's bytes (*member_bytes)
 * and each transfer's latency (*latency_s, p's array, valid while p lives). Returns the number of
 * transfers. cm: a runner on a fabric of p's class, its scratch used. */
size_t st_coll_prep_at(st_coll *cm, st_coll_prep *p, double bytes, double *member_bytes,
                       const double **latency_s);

/* Collectives started and not yet done. */
int64_t st_coll_active(const st_coll *cm);

/* Whether every collective running on cm is in its last phase, so that none starts transfers
 * again (what st_net_last_done needs of its caller). */
int st_coll_last_phases(const st_coll *cm);

/* What a collective resolves to and what it should cost alone, before it runs. */
typedef struct st_coll_plan {
    st_coll_algo algo;   /* resolved: ring, tree, hier or nvls */
    st_coll_proto proto; /* resolved, of the phase that takes longest */
    int channels;        /* resolved channel count */
    int64_t ranks;
    int64_t groups;      /* NVLink groups (NCCL's nodes): NVLink domains, or nodes without NVLink */
    double est_s;        /* time alone on the fabric: the same model, solved in closed form */
    double busbw_factor; /* nccl-tests: busbw = algbw x this */
    /* The enterprise AI-infrastructure guide's closed form T = 2(N-1)/N * S/B + alpha *
     * log2(N_nodes): N ranks, S bytes, B the ring's bus-bandwidth bottleneck (min of NVLink goodput
     * and a node's NIC goodput), alpha one hop's latency, N_nodes = groups. docs/models/fabric.md
     * says exactly what goes in. */
    double closed_s, closed_b, closed_alpha_s;
} st_coll_plan;

/* Fill *out for spec as if it started now on an idle fabric (spec.done is ignored). Same errors
 * as st_coll_start. No event is scheduled. */
int st_coll_plan_of(st_coll *cm, const st_coll_spec *spec, st_coll_plan *out, st_err *err);

/* nccl-tests' bus-bandwidth factor for op on n ranks (doc/PERFORMANCE.md): 2(n-1)/n for
 * all-reduce, (n-1)/n for reduce-scatter, all-gather and all-to-all, 1 for broadcast and
 * send/recv. */
double st_coll_busbw_factor(st_coll_op op, int64_t n);

/* One collective alone on a fresh engine and network over cluster c. */
typedef struct st_coll_report {
    st_coll_plan plan;
    double sim_s;        /* simulated completion time */
    double algbw, busbw; /* bytes / sim_s, and algbw x busbw_factor, bytes/s */
} st_coll_report;

/* Build c's topology, run spec alone to completion and fill *out. Returns 0, or the error of
 * st_topo_new or st_coll_start. */
int st_coll_measure(const st_cluster_cfg *c, const st_coll_spec *spec, st_coll_report *out,
                    st_err *err);

/* The names of ST_COLL_OPS, ST_COLL_ALGOS and ST_COLL_PROTOS: "all-reduce", ...; "ring", ...;
 * "auto", "LL", "LL128", "Simple", "ideal". "?" if out of range. */
const char *st_coll_op_name(st_coll_op op);
const char *st_coll_algo_name(st_coll_algo a);
const char *st_coll_proto_name(st_coll_proto p);

/* Which input a broken collective rule blames, for a caller that points at its source. */
typedef enum st_coll_field {
    ST_COLL_FIELD_GPUS,
    ST_COLL_FIELD_ALGO,
    ST_COLL_FIELD_PROTO
} st_coll_field;

/* Check a collective of op, algo and proto on n ranks against cluster c (borrowed) before any
 * GPU is chosen, as if its ranks were n consecutive GPUs from the start of an NVLink group (how
 * a collective workload is placed: from a fresh node). The rules, in this order: send-recv on 2
 * ranks, tree, hier and nvls for all-reduce only, hier on whole NVLink groups, nvls on a part
 * with NVSwitch multicast, inside one NVLink domain, with the Simple protocol. Returns 0, or
 * ST_EINVAL with a message (no location) in err and the input it blames in *field. The enums
 * must be in range; st_coll_start checks the real ranks again. */
int st_coll_check(const st_cluster_cfg *c, st_coll_op op, st_coll_algo algo, st_coll_proto proto,
                  int64_t n, st_coll_field *field, st_err *err);

#endif
