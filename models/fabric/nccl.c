/* NCCL's tuning model as a calibration preset: the constants of NVIDIA/nccl 2.20.3
 * src/graph/tuning.cc (commit b647562) re-expressed in SI units, and the formulas that use them.
 * The structure follows ncclTopoTuneModel and ncclTopoGetAlgoTime; no code is taken from it. */
#include "models/fabric/nccl.h"

#include <math.h>
#include <string.h>

#define US  1e-6
#define GBS 1e9 /* NCCL's bandwidth unit: time_us = bytes / (1000 * bw) */

/* Every figure below is a constant of NCCL 2.20.3 src/graph/tuning.cc unless its comment says
 * otherwise. NCCL states them in microseconds and GB/s; they are converted here. */
static const st_nccl_preset preset = {
    .source = "NVIDIA/nccl 2.20.3 src/graph/tuning.cc (commit b647562), ncclTopoTuneModel",
    /* baseLat: per call, {LL, LL128, Simple}. Tree/Simple's 0 is NCCL's. */
    .base_lat =
        {
            [ST_NCCL_TREE] = {6.8 * US, 14.0 * US, 0.0},
            [ST_NCCL_RING] = {6.6 * US, 14.0 * US, 8.4 * US},
        },
    /* hwLat: per hop, by hardware, algorithm and protocol. */
    .hop_lat =
        {
            [ST_NCCL_HW_NVLINK] =
                {
                    [ST_NCCL_TREE] = {0.6 * US, 1.25 * US, 28.0 * US},
                    [ST_NCCL_RING] = {0.6 * US, 1.9 * US, 3.4 * US},
                },
            [ST_NCCL_HW_NET] =
                {
                    [ST_NCCL_TREE] = {5.0 * US, 8.5 * US, 28.0 * US},
                    [ST_NCCL_RING] = {2.7 * US, 4.0 * US, 14.0 * US},
                },
        },
    /* getNetOverhead: 1 us on Intel hosts (2 on AMD); tuned ring steps pay at least this per
     * intra-node step on multi-node communicators, three times under Simple. We assume Intel. */
    .net_overhead = 1.0 * US,
    .simple_overhead = 3.0,
    /* ncclTopoGetAlgoTime: "Plateau effect of ring", x1.4 from compute capability 8.0 on (1.9
     * before), when nBytes / (nChannels * nRanks) >= 64. */
    .ring_plateau = 1.4,
    .plateau_bytes = 64.0,
    /* Ring: LL moves 4 data bytes per 8-byte store and NCCL's model gives it 1/4 of the bus
     * bandwidth on multi-node or all-reduce (1/3 otherwise, which we do not distinguish); LL128
     * 0.92 ("120.0/128.0" in the comment) or 0.7 with fewer than 2 ranks per node. */
    .ring_ll = 1.0 / 4.0,
    .ring_ll128 = 0.92,
    .ring_ll128_1ppn = 0.7,
    /* Tree: 0.92 of the bus bandwidth for every protocol, then LL 1/3.8, LL128 120/128 on
     * several nodes and 7/9 on one. */
    .tree = 0.92,
    .tree_ll = 1.0 / 3.8,
    .tree_ll128_multi = 120.0 / 128.0,
    .tree_ll128_single = 7.0 / 9.0,
    /* llMaxBws: single node by GPU generation (Ampere and Hopper 87.7 GB/s); multi-node by CPU
     * vendor, Intel row {39.0, 39.0, 20.4} for 1, 2 and more nodes. */
    .ll_max_single = {[ST_NCCL_AMPERE] = 87.7 * GBS, [ST_NCCL_HOPPER] = 87.7 * GBS},
    .ll_max_multi = {39.0 * GBS, 39.0 * GBS, 20.4 * GBS},
    /* perChMaxRingLL128Bws (same for every node class). */
    .ring_ll128_ch = {[ST_NCCL_AMPERE] = 20.0 * GBS, [ST_NCCL_HOPPER] = 36.7 * GBS},
    /* perChMaxTreeBws and perChMaxTreeLL128Bws, per node class. */
    .tree_ch =
        {
            [ST_NCCL_AMPERE] = {24.0 * GBS, 23.6 * GBS, 17.8 * GBS},
            [ST_NCCL_HOPPER] = {38.7 * GBS, 41.4 * GBS, 36.0 * GBS},
        },
    .tree_ll128_ch =
        {
            [ST_NCCL_AMPERE] = {20.0 * GBS, 20.0 * GBS, 20.0 * GBS},
            [ST_NCCL_HOPPER] = {36.7 * GBS, 36.7 * GBS, 29.0 * GBS},
        },
    /* NCCL's search finds one ring per NIC and ncclTopoPostset (src/graph/connect.cc) duplicates
     * every channel ("Duplication should be complete now"): two rings per NIC. */
    .channels_per_nic = 2,
    /* Our stand-in, not an NCCL constant: inside an NVSwitch domain NCCL's search adds rings
     * until NVLink is full, 16 or more on an 8-GPU H100 board. 16 keeps LL128's per-channel cap
     * (16 x 36.7 GB/s) above the ring's NVLink bandwidth, so the cap does not bind. */
    .channels_nvlink = 16,
    /* MAXCHANNELS in NCCL 2.20's src/include/device.h. */
    .max_channels = 32,
    /* Not in NCCL's model: a Simple ring hop on NVLink forwards only whole chunks, so each of
     * a ring's 2(n-1) steps first waits for one chunk to arrive, the pipeline's fill. NCCL's
     * all-reduce chunk is ALLREDUCE_CHUNKSTEPS (NCCL_STEPS / 2 = 4) steps of 512 KiB (the 4 MiB
     * NCCL_BUFFSIZE over NCCL_STEPS = 8): 2 MiB (src/include/collectives.h, src/init.cc).
     * Checked against Azure's nccl-tests all-reduce sweep on ND A100 v4 (8 x A100 SXM4 80GB on
     * NVSwitch, NCCL 2.18.5; Azure/AI-benchmarking-guide Azure_Results/ND_A100_v4_results.md):
     * 133, 167, 214, 222 and 228 GB/s of bus bandwidth at 33, 67, 268, 537 MB and 1 GB, 57-98%
     * of its 232 at 8 GB. As fractions of the 8 GB figure (the model's own large-size busbw is
     * the A100's goodput, 231.58 GB/s, docs/models/fabric.md) the model follows them within 1.7%
     * and 2.4% (fabric.md quotes the run); the sweep's 128 MiB point (174) dips below both
     * neighbours and is left out. NCCL's tuner does not see
     * this: it enters the time of a collective, not the choice of protocol. */
    .nvlink_fill_bytes = 2.0 * 1024 * 1024,
    /* NVLS, which NCCL 2.17 and later use for all-reduce inside an NVSwitch domain on Hopper
     * and Blackwell. NCCL's nvlsEfficiency table gives 0.85 for Hopper and 0.74 for Blackwell
     * (NCCL 2.2x src/graph/tuning.cc, read through public write-ups of the table: the index
     * holds only NCCL's 2020 file).
     * NCCL moves an NVLS all-reduce in chunks: nChannels x nHeads concurrent operations (its
     * channels times the ranks), each a chunk of at most NCCL_NVLS_CHUNKSIZE, 128 KiB, halved
     * to 64, 32 and 16 KiB when the call holds fewer than 64, 8 and 2 rounds of the larger
     * chunk (src/enqueue.cc, the NVLS branch of the chunk size; src/transport/nvls.cc,
     * NVLS_NCHANNELS 16 on SM90 and 24 on SM100 inside one NVLink domain). Each round of chunks
     * costs its bytes at the switch's rate plus a fixed nvls_round_s, and the pipeline takes
     * nvls_fill_rounds rounds to fill:
     *   T = nvls_lat + R (ops c / B + t_r) + S / B + S t_r / (ops c)
     * for S bytes in chunks c, B = eta x nvls_link_share x an NVLink direction. The round's
     * cost is what makes the rate rise with the ranks (more operations a round) and with the
     * size (larger chunks). nvls_lat, nvls_link_share, nvls_round_s and nvls_fill_rounds are
     * ours, not NCCL's, fitted (least largest relative error, the 8 GiB point held exact) to
     * one sweep: Together AI's all_reduce_perf on 8 H100 SXM with NVLS on (NCCL 2.26.2;
     * togethercomputer/together-nccl-tests, benchmarks/H100 results, run 20260305_220944),
     * 2 MiB to 8 GiB, within 3.1%. They are tested on Voltage Park's sweep of another 8 H100
     * board (NCCL 2.24.3), on Azure's ND H200 v5, on OCI's 8 GB200 in one NVL72, and on the
     * 5-7 GPU and 8 GiB rows of validate/fabric.c (docs/models/fabric.md). Until this model the
     * share was 0.717, set on the 8 GiB point alone with NCCL's 25 us latency. */
    .nvls_eff_hopper = 0.85,
    .nvls_eff_blackwell = 0.74,
    .nvls_lat = 9.0 * US,
    .nvls_link_share = 0.7968,
    .nvls_channels_hopper = 16,
    .nvls_channels_blackwell = 24,
    .nvls_chunk_max = 131072,
    .nvls_round_s = 6.0 * US,
    .nvls_fill_rounds = 1.75,
    /* All-to-all inside one NVLink domain. NCCL runs it as grouped sends and receives, not as
     * a ring, and its time per byte is not the ring's: aiconfigurator's alltoall_perf sweeps on
     * one node of 8 GPUs (NCCL 2.29.2; ai-dynamo/aiconfigurator, aic-core/src/
     * aiconfigurator_core/systems/data/<gpu>/comm/nccl/2.29.2/nccl_perf.parquet, head
     * 095f58a51) follow T = lat + x / (eff g) in two regimes, x the bytes leaving a rank and g
     * the NVLink goodput (370 GB/s on Hopper, 679.61 on Blackwell), the faster taken:
     * - below about 24 MiB: 10.5 us and 0.6325 of g (least squares over 2-16 MiB);
     * - above: 33.1 us and 0.8606 of g (32-512 MiB), 318 GB/s of bus bandwidth on an H200
     *   against the ring's 370.
     * Fitted on the H200 sweep; on the H100 sweep (evaluation) the two regimes give every size
     * from 2 MiB to 512 MiB within 2% (1 MiB 9%). Blackwell's calls cost more: its latencies
     * are fitted on the B200 sweep with Hopper's shares held, 16.86 and 36.62 us; on the B300
     * sweep (evaluation) that gives 1-512 MiB within 9%, 3-7% slow. Ampere and other parts take
     * Hopper's row (no sweep). docs/models/fabric.md, "All-to-all". */
    .a2a_eff = {0.6325, 0.8606},
    .a2a_lat_hopper = {10.50 * US, 33.11 * US},
    .a2a_lat_blackwell = {16.86 * US, 36.62 * US},
};

const st_nccl_preset *st_nccl_preset_default(void)
{
    return &preset;
}

st_nccl_arch st_nccl_arch_of(const st_gpu_spec *gpu)
{
    return gpu && gpu->arch == ST_GPU_ARCH_AMPERE ? ST_NCCL_AMPERE : ST_NCCL_HOPPER;
}

double st_nccl_nvls_efficiency(const st_nccl_preset *p, const st_gpu_spec *gpu)
{
    /* NVLS needs an NVSwitch: the SXM boards, not the PCIe cards' NVLink bridges. */
    if (!gpu || !gpu->nvswitch)
        return 0;
    return gpu->arch == ST_GPU_ARCH_HOPPER      ? p->nvls_eff_hopper
           : gpu->arch == ST_GPU_ARCH_BLACKWELL ? p->nvls_eff_blackwell
                                                : 0;
}

int st_nccl_nvls_channels(const st_nccl_preset *p, const st_gpu_spec *gpu)
{
    return gpu && gpu->arch == ST_GPU_ARCH_BLACKWELL ? p->nvls_channels_blackwell
                                                     : p->nvls_channels_hopper;
}

double st_nccl_nvls_chunk(const st_nccl_preset *p, double ops, double bytes)
{
    double c = p->nvls_chunk_max;
    if (bytes < 64 * ops * c && c > 65536)
        c = 65536;
    if (bytes < 8 * ops * c && c > 32768)
        c = 32768;
    if (bytes < 2 * ops * c && c > 16384)
        c = 16384;
    return c;
}

const double *st_nccl_a2a_latencies(const st_nccl_preset *p, const st_gpu_spec *gpu)
{
    return gpu && gpu->arch == ST_GPU_ARCH_BLACKWELL ? p->a2a_lat_blackwell : p->a2a_lat_hopper;
}

void st_nccl_a2a_regime(const st_nccl_preset *p, const double lat[2], double x, double g,
                        double *eff, double *lat_s)
{
    int k = 0;
    if (g > 0 && lat[1] + x / (p->a2a_eff[1] * g) < lat[0] + x / (p->a2a_eff[0] * g))
        k = 1;
    *eff = p->a2a_eff[k];
    *lat_s = lat[k];
}

const char *st_nccl_proto_name(st_nccl_proto p)
{
    static const char *const names[] = {"LL", "LL128", "Simple"};
    if ((int)p < 0 || p >= ST_NCCL_PROTO__COUNT)
        return "?";
    return names[p];
}

static int node_class(const st_nccl_comm *c)
{
    return c->nodes <= 1 ? 0 : c->nodes == 2 ? 1 : 2;
}

double st_nccl_base_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr)
{
    return p->base_lat[a][pr];
}

double st_nccl_hop_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr, st_nccl_hw hw,
                           const st_nccl_comm *c)
{
    double lat = p->hop_lat[hw][a][pr];
    /* NCCL raises the intra-node step of multi-node rings to the proxy's per-step overhead. */
    if (a == ST_NCCL_RING && hw == ST_NCCL_HW_NVLINK && c->nodes > 1) {
        double ovh = p->net_overhead * (pr == ST_NCCL_SIMPLE ? p->simple_overhead : 1.0);
        lat = fmax(lat, ovh);
    }
    return lat;
}

double st_nccl_fill_latency(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                            st_nccl_hw hw, const st_nccl_comm *c)
{
    if (a == ST_NCCL_RING && hw == ST_NCCL_HW_NVLINK && pr == ST_NCCL_SIMPLE && c->nodes <= 1 &&
        c->nvlink_bw > 0)
        return p->nvlink_fill_bytes / c->nvlink_bw;
    return 0;
}

static double ring_bw(const st_nccl_preset *p, st_nccl_proto pr, const st_nccl_comm *c, double bw)
{
    int ch = c->channels > 0 ? c->channels : 1;
    if (pr == ST_NCCL_LL) {
        double cap = c->nodes <= 1 ? p->ll_max_single[c->arch] : p->ll_max_multi[node_class(c)];
        return fmin(bw * p->ring_ll, cap);
    }
    if (pr == ST_NCCL_LL128) {
        double ppn = (double)c->ranks / (double)(c->nodes > 0 ? c->nodes : 1);
        double eff = ppn < 2 ? p->ring_ll128_1ppn : p->ring_ll128;
        return fmin(bw * eff, ch * p->ring_ll128_ch[c->arch]);
    }
    return bw;
}

static double tree_bw(const st_nccl_preset *p, st_nccl_proto pr, const st_nccl_comm *c, double bw)
{
    int ch = c->channels > 0 ? c->channels : 1, k = node_class(c);
    double b = fmin(bw * p->tree, ch * p->tree_ch[c->arch][k]);
    if (pr == ST_NCCL_LL) {
        double cap = c->nodes <= 1 ? p->ll_max_single[c->arch] : p->ll_max_multi[k];
        return fmin(b * p->tree_ll, cap);
    }
    if (pr == ST_NCCL_LL128) {
        double eff = c->nodes <= 1 ? p->tree_ll128_single : p->tree_ll128_multi;
        return fmin(b * eff, ch * p->tree_ll128_ch[c->arch][k]);
    }
    return b;
}

double st_nccl_bw_factor(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                         const st_nccl_comm *c, double busbw)
{
    if (!(busbw > 0) || !isfinite(busbw))
        return 1.0;
    double b = a == ST_NCCL_TREE ? tree_bw(p, pr, c, busbw) : ring_bw(p, pr, c, busbw);
    double f = b / busbw;
    return f > 1.0 ? 1.0 : f > 0 ? f : 1e-9;
}

double st_nccl_latency_factor(const st_nccl_preset *p, st_nccl_algo a, st_nccl_proto pr,
                              int all_reduce, const st_nccl_comm *c, double bytes)
{
    if (a != ST_NCCL_RING || pr != ST_NCCL_SIMPLE || !all_reduce || c->nodes <= 1)
        return 1.0;
    double share = bytes / ((double)(c->channels > 0 ? c->channels : 1) * (double)c->ranks);
    return share >= p->plateau_bytes ? p->ring_plateau : 1.0;
}
