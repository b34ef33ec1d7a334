/* Internal to the collective model (models/fabric/collective.c and coll_*.c): the runner's state,
 * a running collective, the description of the phase being built, and the functions the files
 * share. Nothing outside models/fabric/coll*.c includes it. */
#ifndef ST_MODELS_FABRIC_COLL_INTERNAL_H
#define ST_MODELS_FABRIC_COLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/fabric/collective.h"
#include "models/fabric/nccl.h"

/* All-to-all rounds run concurrently up to this many member flows in one transfer; beyond it,
 * batches of consecutive shift rounds run one after the other (docs/models/fabric.md). */
#define ST_COLL_A2A_MEMBER_CAP 65536

typedef enum phase_kind {
    PH_EMPTY, /* one rank: nothing to move */
    PH_RING,  /* flat ring all-reduce, reduce-scatter or all-gather */
    PH_CHAIN, /* pipelined broadcast chain */
    PH_TREE,  /* double binary tree all-reduce */
    PH_H_RS,  /* hierarchical: reduce-scatter inside each NVLink group */
    PH_H_AR,  /* hierarchical: one ring all-reduce per rail across the groups */
    PH_H_AG,  /* hierarchical: all-gather inside each NVLink group */
    PH_A2A,   /* a batch of all-to-all shift rounds */
    PH_P2P,   /* send/recv */
    PH_NVLS   /* NVLS all-reduce through the NVSwitch */
} phase_kind;

typedef struct run run;

struct st_coll {
    st_net *net;
    const st_topo *topo;
    const st_nccl_preset *nccl;
    st_nccl_arch arch;
    int64_t gpus, gpn, dom, nics; /* dom: GPUs per NVLink group (a node's, without NVLink) */
    int64_t skew; /* GPU g's NVLink group is (g + skew) / dom (st_cluster_cfg.nvlink_skew) */
    int has_nvlink;
    double nvlink_cap, nic_cap; /* goodput per direction, bytes/s */
    double nvls_eff;            /* NCCL's NVLS efficiency of the GPU; 0: no NVLS */
    int nvls_channels;          /* NCCL's NVLS channels for the GPU */
    double nvlink_goodput;      /* st_nvlink_efficiency of the GPU */
    const double *a2a_lat;      /* st_nccl_a2a_latencies of the GPU */
    /* The phase being built: its transfers' members and their routes. */
    int64_t *src, *dst;
    double *mlat;   /* one-way path latency of each member */
    uint8_t *mhw;   /* st_nccl_hw of each member */
    int32_t *route; /* member i's links at route[i * ST_TOPO_MAX_HOPS], for st_net_start */
    uint8_t *mhop;  /* and how many */
    size_t route_cap;
    size_t m, mcap;
    size_t *xoff; /* transfer x holds members [xoff[x], xoff[x + 1]) */
    uint64_t *xkey;
    size_t nx, xcap;
    /* Members per link while computing a phase's uncongested rate: an open-addressed table of
     * the links its routes cross (slot_link[s], -1 for an empty slot, all empty in between) and
     * their counts, sized to the phase, since a pattern touches a few thousand of a fabric's 10^5
     * links; touched lists the slots taken, in the order the routes first reach them. */
    int32_t *slot_link;
    double *slot_load;
    size_t nslot;
    int32_t *touched;
    size_t ntouched, tcap;
    /* st__coll_layout's scratch: a collective's ranks with their groups, room for the largest
     * collective laid out so far (one malloc and free a collective, 10^5 of them in a sizing
     * search, cost more than the layout). */
    struct coll_item *lay;
    size_t lay_cap;
    /* The last phase costed, for the next to reuse when it is alike (coll_cost.c): a send/recv
     * pattern costs thousands of one-member phases that differ in their GPUs alone. */
    struct cost_memo *last;
    /* Phases costed so far, and of the last: its rate alone and whether it was alike the memo's
     * (st_coll_start_prepared reuses the collective prepared from that one). */
    uint64_t costings;
    double last_rate;
    int last_matched;
    run *head;
    int64_t active, next_id;
    /* Blocks of runs of at most ST__COLL_SMALL_RANKS ranks (make_run), cut from slabs the runner
     * keeps and recycled through a free list: a send/recv pattern starts thousands of pairs at
     * once, and a malloc and a free each cost as much as a pair's layout. */
    void *small_free; /* the next free block is in each one's first bytes */
    void **slabs;
    size_t n_slabs, slabs_cap;
    char *slab_next;
    size_t slab_left;
};

/* What the cost formulas need about the phase being built. */
typedef struct phase_desc {
    phase_kind kind;
    st_nccl_algo nalgo;
    st_nccl_comm comm;
    double b;           /* bytes per member at full protocol efficiency */
    double bus_mult;    /* Simple bus bandwidth = bus_mult x the slowest member's rate */
    double steps;       /* ring: hops a chunk makes; tree: inter-node depth */
    double depth_intra; /* tree: intra-node chain depth */
    double ar_bytes;    /* all-reduce phases: S of the call (for NCCL's plateau); else 0 */
} phase_desc;

struct run {
    st_coll *cm;
    run *prev, *next;
    int64_t id;
    st_coll_op op;
    st_coll_algo algo;
    st_coll_proto proto;
    int sync, channels;
    int64_t n, ngrp, nvl_groups;
    int64_t *rank, *grp_off; /* ranks grouped: group g is rank[grp_off[g] .. grp_off[g + 1]) */
    double bytes;
    uint64_t key, tag;
    st_coll_done_fn done;
    void *ctx;
    int phase, n_phases;
    size_t pending;
    phase_kind kinds[3];
    int small; /* its block is one of the runner's small ones (make_run), not its own */
};

/* The most ranks of a run whose block comes from its runner's slabs (struct st_coll). */
#define ST__COLL_SMALL_RANKS 4

/* A built phase's protocol and what it costs alone. */
typedef struct cost {
    st_coll_proto proto;
    double f;   /* protocol bandwidth factor: members move b / f bytes */
    double est; /* seconds, alone */
} cost;

/* ---- coll_layout.c: rank layout, phase list and phase builders ---- */

/* LAY_ORDER keeps the given rank order as one group; LAY_GROUPS groups ranks by NVLink group. */
typedef enum layout_mode { LAY_ORDER, LAY_GROUPS } layout_mode;

/* Fill r->rank (room for 2 r->n + 1: the ranks, then the groups' offsets), r->grp_off, r->ngrp
 * and r->nvl_groups from gpus (r->n of them) in mode. Returns 0 or ST_EINVAL for a repeated
 * GPU. */
int st__coll_layout(st_coll *cm, run *r, const int64_t *gpus, layout_mode mode, st_err *err);

/* Ranks in layout group g of r. */
int64_t st__coll_grp_size(const run *r, int64_t g);

/* Ranks of r on the node of its first rank (*ppn), and the distinct NICs they use (*nics). */
void st__coll_node_share(const st_coll *cm, const run *r, int64_t *ppn, int64_t *nics);

/* Resolve r->algo (AUTO all-reduce by st__coll_phase_cost) and fill r->kinds and r->n_phases. */
void st__coll_plan_phases(st_coll *cm, run *r);

/* Fill cm's member and transfer arrays with phase k of r, and describe it in *d. */
void st__coll_build_phase(st_coll *cm, const run *r, int k, phase_desc *d);

/* Describe phase k of r in *d as st__coll_build_phase does, without its members where the
 * description does not need them (ring, chain, send/recv); cm's member arrays are then left as
 * they were. */
void st__coll_describe_phase(st_coll *cm, const run *r, int k, phase_desc *d);

/* Set d->comm: NCCL's communicator of `ranks` ranks on `nodes` nodes with ch channels. */
void st__coll_set_comm(const st_coll *cm, phase_desc *d, int64_t ranks, int64_t nodes, int ch);

/* ---- coll_cost.c: latency, protocol choice, cost of a phase, the closed form ---- */

/* Build phase k of r into cm and *d, route it, and return its protocol and cost alone. */
cost st__coll_phase_cost(st_coll *cm, const run *r, int k, phase_desc *d);

/* Latency of built transfer x under protocol p; `real` adds what NCCL's model leaves out. */
double st__coll_xfer_latency(const st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p,
                             size_t x, int real);

/* st__coll_xfer_latency(cm, r, d, p, x, 1) of the phase st__coll_phase_cost built last (p its
 * cost's protocol), taken from an alike phase's where the last costing found one. */
double st__coll_start_latency(st_coll *cm, const run *r, const phase_desc *d, st_coll_proto p,
                              size_t x);

/* What phase 0 of r, built and routed into cm and d with rate alone `rate`, costs at any byte
 * count, where only its bytes per member depend on them: a ring, chain or send/recv phase of no
 * all-reduce under the protocol NCCL would choose. Fills, for LL, LL128 and Simple (index
 * p - ST_COLL_PROTO_LL), f[p] and lat[p] (the bandwidth factor and the latency the choice reads)
 * and (*real)[p * cm->nx + x] (transfer x's latency as it starts; allocated here). Returns 0, or
 * -1 (nothing allocated) for a phase whose costs depend on more. */
int st__coll_prep_eval(st_coll *cm, const run *r, const phase_desc *d, double rate, double f[3],
                       double lat[3], double **real);

/* The estimate `choose` compares: latency plus b bytes at f x rate (nothing at an infinite rate
 * or for no bytes). One expression for both callers, so both choose alike, bit for bit. */
double st__coll_est(double lat, double b, double f, double rate);

/* Free cm's memo of the last costing (st_coll_free). */
void st__coll_cost_release(st_coll *cm);

/* Fill out's closed_s, closed_b and closed_alpha_s for r under out->proto. */
void st__coll_closed_form(st_coll *cm, const run *r, st_coll_plan *out);

/* ---- coll_check.c: the rules of a spec ---- */

/* The checks of st_coll_start that need no layout. Returns 0 or ST_EINVAL with a message. */
int st__coll_check_spec(const st_coll *cm, const st_coll_spec *s, st_err *err);

/* The checks on r's laid-out ranks (nvls in one NVLink domain, hier on equal groups). */
int st__coll_check_layout(const run *r, st_err *err);

#endif
