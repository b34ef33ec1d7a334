/* DeepEP's and HybridEP's dispatch and combine, from their published microbenchmarks
 * (dispatch.h). Both send a token once to each rank that holds one of its experts and expand it
 * there, where Megatron-Core's all-to-all dispatcher sends one row per (token, expert); both run
 * as their own kernels on a share of the SMs, so a measured bandwidth per GPU kind, rank count
 * and SM budget stands for the whole operation. */
#include "models/silicon/dispatch.h"

#include <math.h>
#include <stddef.h>

#include "models/silicon/llm.h"

/* Of k draws without replacement from `total` experts, the chance that none falls among the
 * `total - others` of a block: C(others, k) / C(total, k). */
static double miss_of(double total, double others, double k)
{
    double miss = 1.0;
    for (int i = 0; i < (int)k; i++)
        miss *= others - i > 0 ? (others - i) / (total - i) : 0.0;
    return miss;
}

double st_moe_flex_row_share(double experts, double topk, double ep)
{
    if (!(experts > 0) || !(topk > 1) || !(ep > 1) || topk > experts)
        return 1.0;
    /* the chance that none of a token's k experts is on a given rank: C(E - E/ep, k) / C(E, k) */
    return ep * (1.0 - miss_of(experts, experts - experts / ep, topk)) / topk;
}

/* C(n, x) in logs, for the hypergeometric weights below. */
static double log_choose(double n, double x)
{
    return lgamma(n + 1) - lgamma(x + 1) - lgamma(n - x + 1);
}

/* Group-limited routing: a token's k experts uniform over the E_t = G_t E / G experts of G_t
 * of the G groups, the groups chosen uniformly. A block of E / parts consecutive experts inside
 * one group (parts a multiple of G) is reached when its group is chosen and one of the k falls
 * in it; a block of r = G / parts whole groups (G a multiple of parts) when x of its groups
 * are chosen, x hypergeometric, and one of the k falls among their x E / G experts. -1 for
 * any other layout. */
static double grouped_reach(double e, double k, double g, double gt, double parts)
{
    double et = gt * e / g, block = e / parts;
    if (fmod(parts, g) == 0.0)
        return parts * (gt / g) * (1.0 - miss_of(et, et - block, k));
    if (fmod(g, parts) != 0.0)
        return -1.0;
    double r = g / parts, hit = 0.0, all = log_choose(g, gt);
    for (double x = 1; x <= r && x <= gt; x++) {
        if (gt - x > g - r)
            continue;
        double p = exp(log_choose(r, x) + log_choose(g - r, gt - x) - all);
        hit += p * (1.0 - miss_of(et, et - x * e / g, k));
    }
    return parts * hit;
}

double st_moe_routed_share(const st_llm_spec *m, double parts)
{
    double e = (double)m->experts, k = (double)m->experts_per_token;
    double uniform = st_moe_flex_row_share(e, k, parts);
    if (m->expert_groups <= 0 || !(parts > 1) || !(k > 1))
        return uniform;
    double reach =
        grouped_reach(e, k, (double)m->expert_groups, (double)m->expert_groups_per_token, parts);
    return reach >= 0 ? reach / k : uniform;
}

/* One measurement: a dispatcher on `ranks` GPUs of a kind, in one NVLink domain or across
 * nodes, its dispatch (BF16) and combine bandwidth in GB/s of received rows (of RDMA rows where
 * `rdma`, below), as the
 * benchmark's torch API call reached them (the kernel alone is faster; a training step calls
 * the API). The benchmark (tests/test_hybrid_ep.py, test_intranode.py) counts each rank's
 * received rows, dispatched_hidden.numel() x 2 bytes, over the call's time, with 4096 tokens a
 * rank of hidden 7168, top-8 routing uniform at random over 8 experts a rank.
 *
 * Source: NVIDIA's Hybrid-EP implementation notes in DeepEP (the hybrid-ep branch,
 * Hybrid-EP_Implementation.md at 1dddd19, "Performance Results"), the "Torch API" BF16 dispatch
 * and combine columns:
 *   HybridEP at 16 SMs, Megatron-Core's default moe_hybridep_num_sms (transformer_config.py):
 *     B200, 8 ranks: 535.94, 530.86; GB200 (one NVL72 domain), 8: 550.10, 538.44; 16: 472.84,
 *     474.48; 24: 441.89, 444.40; 32: 485.50, 423.19; 36: 469.96, 418.27; H100 across nodes
 *     (InfiniBand), 16: 54.47, 53.35; 32: 47.36, 52.53; 64: 41.24, 46.57.
 *   DeepEP at Megatron-Core's default moe_deepep_num_sms of 20, between the notes' 16- and
 *     24-SM rows (the bandwidth rises about linearly with SMs there): B200, 8: (348 + 494) / 2,
 *     (302 + 420) / 2; GB200, 8: (362.01 + 512.72) / 2, (310.21 + 425.95) / 2; 16: (328.80 +
 *     442.47) / 2, (278.34 + 378.32) / 2; 24: (324.64 + 450.22) / 2, (126.53 + 163.62) / 2. */
typedef struct flex_row {
    st_gpu_calib gpu;
    st_moe_dispatcher disp;
    int across; /* 1: the ranks span nodes (RDMA); 0: one NVLink domain */
    double ranks, dispatch_gbs, combine_gbs;
    int rdma; /* 1: GB/s of what crosses RDMA, one row per token and destination node (the
                 benchmark's own count), not of received rows */
} flex_row;

#define HY ST_DISP_HYBRIDEP
#define DE ST_DISP_DEEPEP
static const flex_row ROWS[] = {
    {ST_GPU_CALIB_B200, HY, 0, 8, 535.94, 530.86, 0},
    {ST_GPU_CALIB_GB200, HY, 0, 8, 550.10, 538.44, 0},
    {ST_GPU_CALIB_GB200, HY, 0, 16, 472.84, 474.48, 0},
    {ST_GPU_CALIB_GB200, HY, 0, 24, 441.89, 444.40, 0},
    {ST_GPU_CALIB_GB200, HY, 0, 32, 485.50, 423.19, 0},
    {ST_GPU_CALIB_GB200, HY, 0, 36, 469.96, 418.27, 0},
    {ST_GPU_CALIB_H100_SXM, HY, 1, 16, 54.47, 53.35, 0},
    {ST_GPU_CALIB_H100_SXM, HY, 1, 32, 47.36, 52.53, 0},
    {ST_GPU_CALIB_H100_SXM, HY, 1, 64, 41.24, 46.57, 0},
    {ST_GPU_CALIB_B200, DE, 0, 8, (348 + 494) / 2.0, (302 + 420) / 2.0, 0},
    {ST_GPU_CALIB_GB200, DE, 0, 8, (362.01 + 512.72) / 2, (310.21 + 425.95) / 2, 0},
    {ST_GPU_CALIB_GB200, DE, 0, 16, (328.80 + 442.47) / 2, (278.34 + 378.32) / 2, 0},
    {ST_GPU_CALIB_GB200, DE, 0, 24, (324.64 + 450.22) / 2, (126.53 + 163.62) / 2, 0},
    /* DeepEP's normal kernels across nodes on H800 with one ConnectX-7 400 Gb/s NIC a GPU,
     * "Bottleneck bandwidth" (RDMA) of dispatch and combine at EP 16, 32 and 64 (DeepEP's
     * README, kept as docs/legacy.md): 43 and 43, 58 and 57, 51 and 50 GB/s, with 4096 tokens
     * a rank of hidden 7168, top-8 of 256 experts in 4 groups. The benchmark
     * (tests/legacy/test_internode.py) divides each token's row times the nodes it goes to,
     * its own included, by the kernel's time with the layout cached (FP8 rows for the
     * dispatch, BF16 for the combine): the RDMA link's rate, which a BF16 dispatch shares.
     * H800 is H100's silicon with less NVLink, so the rows stand for h100-sxm's calibration. */
    {ST_GPU_CALIB_H100_SXM, DE, 1, 16, 43, 43, 1},
    {ST_GPU_CALIB_H100_SXM, DE, 1, 32, 58, 57, 1},
    {ST_GPU_CALIB_H100_SXM, DE, 1, 64, 51, 50, 1},
};
#define N_ROWS (sizeof ROWS / sizeof ROWS[0])

/* Between two measured rank counts the bandwidth is interpolated linearly; below the least and
 * above the most the nearest measured figure stands (GB200's flattens from 16 ranks on, and an
 * NVL72 domain's EP 64 reads its 36-rank figure). */
double st_moe_flex_bw(const st_gpu_spec *gpu, st_moe_dispatcher disp, double ep, int across,
                      int combine)
{
    const flex_row *lo = NULL, *hi = NULL;
    if (!gpu)
        return 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        const flex_row *r = &ROWS[i];
        if (r->gpu != gpu->calib || r->disp != disp || r->across != across)
            continue;
        if (r->ranks <= ep && (!lo || r->ranks > lo->ranks))
            lo = r;
        if (r->ranks >= ep && (!hi || r->ranks < hi->ranks))
            hi = r;
    }
    if (!lo && !hi)
        return 0;
    if (!lo)
        lo = hi;
    if (!hi)
        hi = lo;
    double a = combine ? lo->combine_gbs : lo->dispatch_gbs;
    double b = combine ? hi->combine_gbs : hi->dispatch_gbs;
    double t = hi->ranks > lo->ranks ? (ep - lo->ranks) / (hi->ranks - lo->ranks) : 0;
    return (a + t * (b - a)) * 1e9;
}

/* The first measured row of a GPU, dispatcher and domain, for its unit (`rdma`), which all of
 * them share. */
static const flex_row *flex_unit(const st_gpu_spec *gpu, st_moe_dispatcher disp, int across)
{
    for (size_t i = 0; gpu && i < N_ROWS; i++)
        if (ROWS[i].gpu == gpu->calib && ROWS[i].disp == disp && ROWS[i].across == across)
            return &ROWS[i];
    return NULL;
}

double st_moe_flex_exchange_s(const st_gpu_spec *gpu, st_moe_dispatcher disp, double ep, int across,
                              double nodes, const st_llm_spec *m, double row_bytes)
{
    double bd = st_moe_flex_bw(gpu, disp, ep, across, 0),
           bc = st_moe_flex_bw(gpu, disp, ep, across, 1);
    const flex_row *u = flex_unit(gpu, disp, across);
    if (!(bd > 0 && bc > 0) || !u)
        return -1.0;
    double bytes = row_bytes;
    /* RDMA rows: a token crosses once to each node holding one of its experts, then fans out
     * over NVLink; of the rows it sends to ranks, distinct nodes / distinct ranks */
    if (u->rdma && nodes > 1)
        bytes *= st_moe_routed_share(m, nodes) / st_moe_routed_share(m, ep);
    return (bytes / bd + bytes / bc) / 2;
}

int st_moe_ep_across(const st_parallel_cfg *p, int64_t nvlink_domain)
{
    int64_t etp = p->etp > 1 ? p->etp : 1;
    return nvlink_domain > 0 && p->ep * etp > nvlink_domain;
}

const char *st_moe_flex_covered(st_moe_dispatcher disp)
{
    return disp == ST_DISP_HYBRIDEP
               ? "b200 and gb200 within one NVLink domain, h100-sxm across nodes"
               : "b200 and gb200 within one NVLink domain, h100-sxm (h800) across nodes";
}

int st_moe_serve_dispatcher(const st_workload_cfg *w)
{
    if (w->parallel.moe_dispatcher_given || !w->model)
        return w->parallel.moe_dispatcher;
    return w->parallel.ep <= w->model->experts_per_token ? ST_DISP_ALLGATHER : ST_DISP_ALLTOALL;
}
