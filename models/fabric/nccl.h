/* NCCL's own cost model as one calibration preset: base and per-hop latencies by algorithm,
 * protocol and hardware, protocol bandwidth efficiencies and their caps, and the default channel
 * counts. The figures, each with its source, are in models/fabric/nccl.c; docs/models/fabric.md
 * explains how the collective model uses them. */
#ifndef ST_MODELS_FABRIC_NCCL_H
#define ST_MODELS_FABRIC_NCCL_H

#include <stdint.h>

#include "models/silicon/gpu.h"

/* The two NCCL algorithms whose cost the preset describes (NCCL's NCCL_ALGO_TREE, _RING). */
typedef enum st_nccl_algo { ST_NCCL_TREE, ST_NCCL_RING, ST_NCCL_ALGO__COUNT } st_nccl_algo;

/* NCCL's protocols: LL (8-byte stores, 4 of data and 4 of flag), LL128 (128-byte lines, 8 bytes
 * of flag) and Simple (bulk copies with a fence per chunk). */
typedef enum st_nccl_proto {
    ST_NCCL_LL,
    ST_NCCL_LL128,
    ST_NCCL_SIMPLE,
    ST_NCCL_PROTO__COUNT
} st_nccl_proto;

/* Where a hop runs: inside an NVLink domain, or over the network. NCCL also has PCI, which
 * Strata's topologies do not build. */
typedef enum st_nccl_hw { ST_NCCL_HW_NVLINK, ST_NCCL_HW_NET, ST_NCCL_HW__COUNT } st_nccl_hw;

/* The GPU generations NCCL's caps distinguish. NCCL 2.20 uses the Hopper row for every compute
 * capability >= 9.0, Blackwell included. */
typedef enum st_nccl_arch { ST_NCCL_AMPERE, ST_NCCL_HOPPER, ST_NCCL_ARCH__COUNT } st_nccl_arch;

/* Node-count classes of NCCL's per-channel caps: 1 node, 2 nodes, more. */
#define ST_NCCL_NODE_CLASSES 3

typedef struct st_nccl_preset {
    const char *source; /* NCCL version and file the figures come from */
    /* Latencies in seconds. */
    double base_lat[ST_NCCL_ALGO__COUNT][ST_NCCL_PROTO__COUNT];
    double hop_lat[ST_NCCL_HW__COUNT][ST_NCCL_ALGO__COUNT][ST_NCCL_PROTO__COUNT];
    double net_overhead;    /* per intra-node step of a multi-node ring, s */
    double simple_overhead; /* multiplier of net_overhead under Simple */
    double ring_plateau;    /* latency multiplier of multi-node Simple ring all-reduce */
    double plateau_bytes;   /* ... once bytes / (channels * ranks) reaches this */
    /* Bandwidth efficiencies, as fractions of the Simple ring's bus bandwidth. */
    double ring_ll, ring_ll128, ring_ll128_1ppn;
    double tree, tree_ll, tree_ll128_multi, tree_ll128_single;
    /* Caps, bytes/s: LL in total (single node by GPU generation, multi-node by node class on
     * Intel hosts), the others per channel. */
    double ll_max_single[ST_NCCL_ARCH__COUNT];
    double ll_max_multi[ST_NCCL_NODE_CLASSES];
    double ring_ll128_ch[ST_NCCL_ARCH__COUNT];
    double tree_ch[ST_NCCL_ARCH__COUNT][ST_NCCL_NODE_CLASSES];
    double tree_ll128_ch[ST_NCCL_ARCH__COUNT][ST_NCCL_NODE_CLASSES];
    /* Default channel counts. */
    int channels_per_nic; /* rings per NIC of a node on multi-node communicators */
    int channels_nvlink;  /* rings on a communicator inside one NVLink domain */
    int max_channels;     /* NCCL's MAXCHANNELS */
    /* Not an NCCL constant: the bytes a Simple ring step on NVLink must receive before the
     * next rank can forward them (the ring's pipeline fill), fitted to a measured sweep. */
    double nvlink_fill_bytes;
    /* NVLS (NVLink SHARP: the NVSwitch reduces and multicasts). NCCL's efficiency by GPU
     * generation, its per-call latency on NVLink, and our calibration of the fraction of one
     * NVLink direction its all-reduce reaches per unit of that efficiency. */
    double nvls_eff_hopper, nvls_eff_blackwell;
    double nvls_lat;
    double nvls_link_share;
    /* NVLS's pipeline: NCCL's channels and largest chunk, and two fitted costs of each round of
     * chunks (every channel and rank one chunk): a fixed cost, and the rounds its pipeline
     * takes to fill. */
    int nvls_channels_hopper, nvls_channels_blackwell;
    double nvls_chunk_max;
    double nvls_round_s;
    double nvls_fill_rounds;
    /* All-to-all inside one NVLink domain (NCCL's grouped sends and receives), not an NCCL
     * constant: two regimes fitted to measured sweeps, each a per-call latency and a share of
     * the NVLink goodput; the call takes the faster. [0] is the small-message regime, [1] the
     * large. The shares come from Hopper's sweep, the latencies from each generation's. */
    double a2a_eff[2];
    double a2a_lat_hopper[2], a2a_lat_blackwell[2];
} st_nccl_preset;

/* The preset in use: NCCL 2.20.3's tuning model. Borrowed, static. */
const st_nccl_preset *st_nccl_preset_default(void);

/* The generation row NCCL would use for gpu, from its architecture (st_gpu_spec.arch): Ampere's
 * for Ampere, the Hopper row for everything else (Hopper, Blackwell, unknown, NULL). */
st_nccl_arch st_nccl_arch_of(const st_gpu_spec *gpu);

/* NCCL's NVLS efficiency for gpu, from its architecture and its nvswitch flag: Hopper and
 * Blackwell boards on an NVSwitch have multicast and in-switch reduction; 0 for everything else
 * (PCIe cards have NVLink bridges, no switch; Ampere has NVSwitch but no NVLS; other vendors
 * none; NULL). */
double st_nccl_nvls_efficiency(const st_nccl_preset *p, const st_gpu_spec *gpu);

/* NCCL's NVLS channels for gpu: 16 on Hopper, 24 on Blackwell inside one NVLink domain. */
int st_nccl_nvls_channels(const st_nccl_preset *p, const st_gpu_spec *gpu);

/* The chunk, bytes, NCCL's NVLS all-reduce of `bytes` moves at a time over `ops` concurrent
 * operations (its channels times the ranks, NCCL's concurrentOps): the largest, halved to 64,
 * 32 and 16 KiB when the call holds fewer than 64, 8 and 2 rounds of the larger chunk. */
double st_nccl_nvls_chunk(const st_nccl_preset *p, double ops, double bytes);

/* The per-call latencies of the all-to-all regimes for gpu: Blackwell's for Blackwell, Hopper's
 * for every other part (as NCCL's own tables take the Hopper row). */
const double *st_nccl_a2a_latencies(const st_nccl_preset *p, const st_gpu_spec *gpu);

/* An all-to-all inside one NVLink domain moving x bytes out of each rank (S (n-1)/n) at an
 * NVLink goodput of g bytes/s per direction: the regime k of least lat[k] + x / (eff[k] g).
 * Sets *eff to its share of g and *lat_s to its latency, s. */
void st_nccl_a2a_regime(const st_nccl_preset *p, const double lat[2], double x, double g,
                        double *eff, double *lat_s);

/* "LL", "LL128", "Simple"; "?" out of range. */
const char *st_nccl_proto_name(st_nccl_proto p);

/* What the formulas need to know about a communicator. nodes counts NVLink groups (NCCL's
 * nodes, with a multi-node NVLink domain counted as one, as NCCL's MNNVL does). */
typedef struct st_nccl_comm {
    st_nccl_arch arch;
    int64_t ranks, nodes;
    int channels;
    double nvlink_bw; /* goodput of one NVLink direction of these GPUs, bytes/s (0: none) */
} st_nccl_comm;

/* What a hop really waits beyond NCCL's model, s: a Simple ring hop on NVLink, in a ring inside
 * one NVLink group (what the fitted sweep measured), waits for its pipeline fill,
 * nvlink_fill_bytes at c->nvlink_bw; 0 otherwise. NCCL's tuner does not know
 * it, so it enters the time of a collective, never the choice of protocol. */
double st_nccl_fill_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                            st_nccl_hw hw, const st_nccl_comm *c);

/* Base latency of one collective call, s. */
double st_nccl_base_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr);

/* Latency of one hop on hardware hw, s. On a multi-node ring an NVLink hop costs at least the
 * network proxy's per-step overhead (times simple_overhead under Simple), as in NCCL. */
double st_nccl_hop_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr, st_nccl_hw hw,
                           const st_nccl_comm *c);

/* The fraction of `busbw` (the uncongested bus bandwidth the Simple protocol would reach on this
 * communicator, bytes/s) that algorithm a reaches under protocol pr: the protocol's efficiency
 * and, for trees, the tree's, clipped by NCCL's caps. In (0, 1]; 1 when busbw is not finite or
 * not positive (nothing to move). */
double st_nccl_bw_factor(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                         const st_nccl_comm *c, double busbw);

/* The factor on the whole latency of a ring all-reduce of `bytes` per rank: ring_plateau for
 * Simple on more than one node once the per-channel, per-rank share reaches plateau_bytes, else
 * 1 (NCCL's "plateau effect of ring"). */
double st_nccl_latency_factor(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                              int all_reduce, const st_nccl_comm *c, double bytes);

#endif
