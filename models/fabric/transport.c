/* Transport presets: packet framing of RoCE v2, InfiniBand and Omni-Path from their
 * specifications, and the measured constants (NIC and NVLink goodput) that turn line rates into
 * link capacities. */
#include "models/fabric/transport.h"

#include <stddef.h>
#include <string.h>

/* Header bytes per packet, from the specifications; a link's `nic:` rate is the data rate after
 * line coding and FEC (400GBASE-R: 256b/257b and RS(544,514), IEEE 802.3 clause 119; NDR 4x
 * InfiniBand: 400 Gb/s data rate), so only packet framing is left to subtract. RDMA WRITE middle
 * and last packets carry no RETH (only the first packet of a message does), so a long transfer
 * pays the base headers below on nearly every packet. */
static const st_transport_spec presets[] = {
    [ST_TRANSPORT_ROCE_V2] =
        {
            .name = "roce-v2",
            .payload_bytes = 4096,
            /* preamble + SFD 8, Ethernet header 14, FCS 4, inter-packet gap 12 (IEEE 802.3 clauses
             * 3.1 and 4.4.2: 96 bit times), IPv4 20 (RFC 791, no options), UDP 8 (RFC 768, port
             * 4791), BTH 12 and ICRC 4 (IBTA Vol. 1 ch. 5 and 9; RoCEv2 is IBTA Annex A17, 2014).
             * A 4096-byte RoCE MTU needs jumbo Ethernet frames, which RoCE fabrics configure. */
            .header_bytes = 8 + 14 + 4 + 12 + 20 + 8 + 12 + 4,
            .source = "IEEE 802.3 cl. 3-4; RFC 791; RFC 768; IBTA Vol. 1 ch. 5, 9; IBTA Annex A17",
            /* Ethernet switches hash each flow onto one equal-cost port unless adaptive routing
             * is turned on, which is off by default (NVIDIA Cumulus Linux, NVUE reference, "nv
             * set router adaptive-routing state": "The default setting is disabled"). */
            .routing = ST_ROUTING_ECMP,
        },
    [ST_TRANSPORT_INFINIBAND] =
        {
            .name = "infiniband",
            .payload_bytes = 4096,
            /* LRH 8, BTH 12, ICRC 4, VCRC 2; no GRH inside one subnet (IBTA InfiniBand Architecture
             * Specification Vol. 1: ch. 5 "Data Packet Format", ch. 7 link layer for LRH and
             * VCRC, ch. 9 transport layer for BTH). Start/end delimiters, idles and flow-control
             * packets are left out: a few bytes per packet or per credit update. */
            .header_bytes = 8 + 12 + 4 + 2,
            .source = "IBTA InfiniBand Architecture Specification Vol. 1, ch. 5, 7, 9",
            /* The subnet manager sets up adaptive routing on the switches that support it: "AR is
             * enabled by default in the opensm.conf file", routing engine ar_updn (NVIDIA,
             * InfiniBand Cluster Bring-up Procedure v1.0, "Adaptive Routing"), and NCCL sends
             * AR-capable transfers there unless told not to (src/transport/net_ib.cc: "Enable
             * ADAPTIVE_ROUTING by default on IB networks", NCCL_IB_ADAPTIVE_ROUTING; not on
             * RoCE). */
            .routing = ST_ROUTING_ADAPTIVE,
        },
    [ST_TRANSPORT_OMNI_PATH] =
        {
            .name = "omni-path",
            .payload_bytes = 4096,
            /* NCCL reaches Omni-Path through its InfiniBand verbs transport (hfi1's verbs
             * provider: "NET/IB : Using [0]hfi1_1:1/IB ..." in the log below), whose packets
             * carry InfiniBand's LRH 8, BTH 12 and ICRC 4 in Omni-Path's IB-compatible 9B format;
             * the link layer's own CRC replaces VCRC. Only the wire share is read from these:
             * the goodput is measured (K.opa_goodput), headers and all. */
            .header_bytes = 8 + 12 + 4,
            .source = "IBTA InfiniBand Architecture Specification Vol. 1, ch. 5, 9 (verbs headers)",
            /* The fabric manager's shipped configuration routes by fixed tables: "<Enable>0"
             * under AdaptiveRouting and "<RoutingAlgorithm>shortestpath" (cornelisnetworks/opa-fm,
             * Esm/ib/src/linux/startup/opafm_src.xml at acde834). */
            .routing = ST_ROUTING_ECMP,
        },
};

/* The constants of this file that are not datasheet or specification figures, in one table so
 * that a calibration override has one place to go (DESIGN.md, "Calibration and validation"). */
static const struct transport_consts {
    double nic_goodput;     /* measured payload rate / line rate, on InfiniBand */
    double roce_goodput;    /* measured payload rate / line rate, on RoCE v2 */
    double nvlink_goodput;  /* measured payload rate / datasheet rate, per direction */
    double nvlink3_goodput; /* the same on A100's NVLink 3 */
    double nvlink5_goodput; /* and on Blackwell's NVLink 5 */
    double xgmi_goodput;    /* and on CDNA 3's Infinity Fabric links (MI300X) */
    double opa_goodput;     /* measured payload rate / line rate, NCCL on Omni-Path */
} K = {
    /* NVIDIA on nccl-tests issue #290: 46-48 GB/s achievable per 400 Gb/s NDR NIC (50 GB/s line
     * rate); we take the middle, 47/50. It agrees with sjeaugey on nccl-tests issue #119: "24GB/s
     * is the peak performance per 200G NIC" (0.96). The figure already includes the IB headers;
     * st_transport_efficiency divides them out to get the endpoint's share (PCIe, DMA, NCCL's
     * protocol) and assumes the same endpoint share for RoCE v2, whose NICs are the same ConnectX
     * parts. No comparable maintainer figure for RoCE v2 was found. */
    .nic_goodput = 47.0 / 50.0,
    /* A user on nccl issue #1221: H100 nodes with 8 x 400
     * Gb/s RoCE NICs reach about 320 GB/s ring all-reduce bus bandwidth on more than 2 nodes,
     * where the ring is bound by the node's 8 x 50 GB/s of NICs: 320/400 = 0.80, headers
     * included. The only RoCE v2 multi-node figure found; it is lower than InfiniBand's 0.94,
     * which fits RoCE's lossless-Ethernet overheads (PFC pauses, ECN marking), folded in here. */
    .roce_goodput = 320.0 / 400.0,
    /* sjeaugey on nccl-tests issue #212 and nccl issue #1442: 370 GB/s application-level achievable
     * per direction on H100 NVLink4, whose line rate is 450 GB/s per direction. Applied to every
     * GPU's NVLink but A100's and Blackwell's, below. NVLink SHARP reductions (NVLS) beat this
     * in-switch; they are a collective algorithm, not a link. */
    .nvlink_goodput = 370.0 / 450.0,
    /* NVLink 3 (A100 SXM, 300 GB/s per direction): Azure's nccl-tests all-reduce on ND A100 v4,
     * 8 x A100 SXM4 80GB on NVSwitch, NCCL 2.18.5, 231.58 GB/s of bus bandwidth at 8 GB
     * (Azure/AI-benchmarking-guide Azure_Results/ND_A100_v4_results.md, the sweep that also
     * sets the ring fill in models/fabric/nccl.c): 231.58 / 300. A user's 232.54 on another A100
     * board (NVIDIA/nccl-tests issue #175) tests it. */
    .nvlink3_goodput = 231.58 / 300.0,
    /* NVLink 5 (B200, B300, GB200, GB300: 900 GB/s per direction): Azure's nccl-tests ring
     * all-reduce on ND GB200 v6 (4 GB200 in one NVL72 domain, NCCL 2.25.1), 679.61 GB/s of bus
     * bandwidth at 8 GB (Azure/AI-benchmarking-guide Azure_Results/ND_GB200_v6_results.md):
     * 679.61 / 900. A user's B300 ring with NVLS off, 695 GB/s on 8 GPUs (NVIDIA/nccl
     * issue #2140), tests it. */
    .nvlink5_goodput = 679.61 / 900.0,
    /* Infinity Fabric (MI300X: 7 links of 64 GB/s per direction to the other GPUs of an 8-GPU
     * platform, 448 GB/s, the catalog's 896 both ways): Azure's rccl-tests all-reduce on ND
     * MI300X v5 (8 MI300X, RCCL 2.22.3), 316.82 GB/s of in-place bus bandwidth at 8 GB
     * (AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md, as published in the fork
     * yosoyjay/AI-benchmarking-guide at a8263ef): 316.82 / 448. S. Bekman's 312.9 GB/s at 4 GiB
     * on another 8-MI300X node ("Machine Learning Engineering", network/README.md,
     * all_reduce_bench.py) tests it (validate/fabric.c). */
    .xgmi_goodput = 316.82 / 448.0,
    /* Omni-Path 100 under NCCL 2.10.3 (its IB verbs transport over hfi1, no GPUDirect RDMA in
     * the log): BigScience's all_reduce_bench.py on four Jean Zay A100 nodes (32 ranks, a 4.0 GB
     * fp32 all-reduce, 5 trials; bigscience-workshop/bigscience
     * experiments/bandwidth/all_reduce_bench-a100-n4.txt, 28 Jan 2022) logs each rank's bus
     * bandwidth: the first trial's 32 read 14.7 to 15.7 Gbit/s (warm-up), the other 128 40.49 to
     * 40.83, median 40.55. Its ring's two channels enter every node through one link and leave
     * through another ("[receive] via NET/IB/1", "[send] via NET/IB/3"), so the bus bandwidth
     * is one 100 Gbit/s link's payload rate: 40.55 / 100, headers included as RoCE's figure is.
     * The validation row cal-opa-ring (validate/fabric.c) runs that benchmark on the model.
     * Far below InfiniBand's 0.94 on the same line rate: BigScience's notes on the same
     * fabric's earlier V100 nodes say "nccl ... doesn't fully utilize Intel OPA full
     * bandwidth" (experiments/bandwidth/README.md). */
    .opa_goodput = 40.55 / 100.0,
};

#define N_PRESETS ((int)(sizeof presets / sizeof presets[0]))

const st_transport_spec *st_transport_spec_of(st_transport t)
{
    if ((int)t < 0 || (int)t >= N_PRESETS)
        return NULL;
    return &presets[t];
}

st_routing st_transport_default_routing(st_transport t)
{
    const st_transport_spec *p = st_transport_spec_of(t);
    return p ? p->routing : ST_ROUTING_ECMP;
}

double st_transport_wire_efficiency(st_transport t)
{
    const st_transport_spec *s = st_transport_spec_of(t);
    if (!s)
        return 0;
    return s->payload_bytes / (s->payload_bytes + s->header_bytes);
}

double st_transport_efficiency(st_transport t)
{
    if (t == ST_TRANSPORT_ROCE_V2)
        return K.roce_goodput;
    if (t == ST_TRANSPORT_OMNI_PATH)
        return K.opa_goodput;
    double wire = st_transport_wire_efficiency(t);
    double endpoint = K.nic_goodput / st_transport_wire_efficiency(ST_TRANSPORT_INFINIBAND);
    return wire * endpoint;
}

double st_calib_nvlink(const st_cluster_cfg *c)
{
    return c && c->calib.enabled && c->calib.nvlink > 0 ? c->calib.nvlink : 1.0;
}

double st_calib_network(const st_cluster_cfg *c)
{
    return c && c->calib.enabled && c->calib.network > 0 ? c->calib.network : 1.0;
}

double st_nvlink_efficiency(const st_gpu_spec *gpu)
{
    st_gpu_arch arch = gpu ? gpu->arch : ST_GPU_ARCH_UNKNOWN;
    return arch == ST_GPU_ARCH_AMPERE      ? K.nvlink3_goodput /* NVLink 3 is Ampere's */
           : arch == ST_GPU_ARCH_BLACKWELL ? K.nvlink5_goodput /* NVLink 5 is Blackwell's */
           : arch == ST_GPU_ARCH_CDNA3     ? K.xgmi_goodput    /* Infinity Fabric is CDNA 3's */
                                           : K.nvlink_goodput;
}
