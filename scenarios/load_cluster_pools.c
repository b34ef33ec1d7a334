/* cluster.pools (docs/models/pools.md): the pools' entries, each pool's node and racks derived
 * once the cluster's own are read, the settings refused on a cluster of pools, and a pool named
 * by a workload or a trace. The rest of the cluster section is load_cluster.c's. */
#include <string.h>

#include "models/silicon/gpu.h"
#include "scenarios/load_internal.h"
#include "sim/xalloc.h"

static int fn_pool_gpu(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "gpu"))
        return -1;
    st_pool_cfg *p = base;
    p->gpu = st__find_gpu(ld->s, n->text);
    p->gpu_loc = n->loc;
    return p->gpu ? 0 : st__unknown_gpu(ld, n);
}

/* A pool's `racks:` is read once cluster.racks, which it states over, has been
 * (derive_pool_racks); here only its place is kept. */
static int fn_pool_racks(st_rd *rd, const st_ynode *n, void *base)
{
    if (st_rd_expect(rd, n, ST_YN_MAP, "racks"))
        return -1;
    ((st_pool_cfg *)base)->racks_loc = n->loc;
    return 0;
}

static const st_field pool_fields[] = {
    ST_FSTR(st_pool_cfg, "name", name, .required = 1),
    ST_FFN("gpu", fn_pool_gpu, .required = 1),
    ST_FINT(st_pool_cfg, "nodes", nodes, ST_R_MIN1, .max = ST_SCN_MAX_NODES, .required = 1),
    ST_FINT(st_pool_cfg, "gpus_per_node", gpus_per_node, ST_R_MIN1, .max = 1024),
    ST_FINT(st_pool_cfg, "nvlink_domain", nvlink_domain, ST_R_MIN1, .max = 1e6),
    ST_FINT(st_pool_cfg, "nics_per_node", nics_per_node, ST_R_MIN1, .max = 64),
    ST_FFN("racks", fn_pool_racks),
    ST_FEND,
};

/* What a pool's racks may state over cluster.racks: their size and how they are cooled. The
 * feed, the facility's supply temperatures, chiller and air handlers, and the mitigations stay
 * the cluster's (docs/models/pools.md, "Racks by pool"). */
static const st_field pool_cooling_fields[] = {
    ST_FENUM(st_rack_cfg, "kind", cooling, st_cooling_kind_names),
    ST_FDIM(st_rack_cfg, "capacity", cooling_capacity_w, ST_DIM_POWER, ST_R_POS),
    ST_FDIM(st_rack_cfg, "liquid_fraction", liquid_fraction, ST_DIM_RATIO, ST_R_FRAC),
    ST_FEND,
};

static const st_field pool_rack_fields[] = {
    ST_FINT(st_rack_cfg, "nodes_per_rack", nodes_per_rack, ST_R_MIN1, .max = 1024),
    ST_FMAP("cooling", pool_cooling_fields),
    ST_FEND,
};

/* One pool entry into p; a duplicate name is an error at the second. */
static int read_pool(st_ld *ld, const st_ynode *n, st_pool_cfg *p, const st_pool_cfg *before, int k)
{
    p->loc = n->loc;
    if (st_rd_map(&ld->rd, n, pool_fields, p, "cluster.pools[]"))
        return -1;
    for (int j = 0; j < k; j++) /* an earlier entry whose name failed to read has none */
        if (before[j].name && strcmp(before[j].name, p->name) == 0)
            return st_rd_fail(&ld->rd, st__name_at(n), ST_EINVAL,
                              "duplicate pool name '%s' in cluster.pools (first at line %u)",
                              p->name, before[j].loc.line);
    return 0;
}

/* cluster.pools: [{name, gpu, nodes}], nodes in file order. The cluster's nodes are their sum
 * and its gpu the first pool's (config.h), so what reads the cluster's one type reads that. */
int st__fn_pools(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_cluster_cfg *c = base;
    c->pools_loc = n->loc;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "cluster.pools") ||
        st_rd_list_limit(rd, n, "cluster.pools", ST_SCN_MAX_NAMED))
        return -1;
    if (n->n == 0)
        return st_rd_fail(rd, n, ST_EINVAL, "cluster.pools: expected at least one pool");
    st_pool_cfg *p = ld->s->pools = st_xcalloc(n->n, sizeof *p);
    int bad = 0;
    int64_t first = 0;
    for (size_t i = 0; i < n->n && !st_diag_full(rd->diag); i++) {
        bad |= read_pool(ld, n->kids[i], &p[i], p, (int)i) != 0;
        p[i].first_node = first;
        first += p[i].nodes;
    }
    if (bad || st_diag_full(rd->diag))
        return -1;
    if (first > ST_SCN_MAX_NODES)
        return st_rd_fail(rd, n, ST_ELIMIT, "cluster.pools: %lld nodes in all, at most %lld",
                          (long long)first, (long long)ST_SCN_MAX_NODES);
    c->pools = p;
    c->n_pools = (int)n->n;
    c->nodes = first;
    c->gpu = p[0].gpu;
    c->gpu_loc = p[0].gpu_loc;
    return 0;
}

/* Pool k's node size: its own gpus_per_node, else cluster.gpus_per_node where the cluster
 * states it (for every pool that states none), else its GPU platform's node (a GB200 NVL72's
 * 4-GPU trays beside 8-GPU HGX nodes), else the cluster's default. A platform's power besides
 * the GPUs is for its own node size, so another size needs base_power stated. */
static void derive_node_size(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c, st_pool_cfg *p,
                             int base)
{
    const st_gpu_spec *g = p->gpu;
    int from_cluster = !p->gpus_per_node && st_ynode_get(n, "gpus_per_node");
    if (!p->gpus_per_node)
        p->gpus_per_node = from_cluster || g->node_gpus <= 0 ? c->gpus_per_node : g->node_gpus;
    if (!base && g->node_base_w > 0 && g->node_gpus != p->gpus_per_node)
        st_diag_add(ld->rd.diag, ST_EINVAL, p->gpu_loc,
                    "pool '%s': GPU '%s' comes on nodes of %d GPUs, this pool's have %lld%s: %s "
                    "%d, or cluster.node.base_power for nodes of %lld (docs/models/pools.md)",
                    p->name, g->name, g->node_gpus, (long long)p->gpus_per_node,
                    from_cluster ? " (cluster.gpus_per_node)" : "",
                    from_cluster ? "give the pool gpus_per_node:" : "set its gpus_per_node to",
                    g->node_gpus, (long long)p->gpus_per_node);
}

/* Pool k's NVLink domain and NICs: its own, else the cluster's where the cluster states them,
 * else its platform's domain (72 on a GB200 NVL72) or its node, and a NIC a GPU as the
 * cluster's default (at most 64). A domain must divide or be a multiple of the node. */
static void derive_node_links(st_ld *ld, const st_ynode *n, const st_ynode *e,
                              const st_cluster_cfg *c, st_pool_cfg *p)
{
    const st_gpu_spec *g = p->gpu;
    int64_t gpn = p->gpus_per_node;
    const st_ynode *at = st_ynode_get(e, "nvlink_domain");
    if (!p->nvlink_domain && st_ynode_get(n, "nvlink_domain"))
        p->nvlink_domain = c->nvlink_domain, at = st_ynode_get(n, "nvlink_domain");
    if (!p->nvlink_domain)
        p->nvlink_domain =
            g->platform_domain > gpn && g->platform_domain % gpn == 0 ? g->platform_domain : gpn;
    if (at && p->nvlink_domain % gpn && gpn % p->nvlink_domain)
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "pool '%s': nvlink_domain (%lld) must divide or be a multiple of its "
                   "gpus_per_node (%lld)",
                   p->name, (long long)p->nvlink_domain, (long long)gpn);
    if (!p->nics_per_node)
        p->nics_per_node = st__at_path(n, "fabric", NULL, "nics_per_node") ? c->fabric.nics_per_node
                                                                           : (gpn < 64 ? gpn : 64);
}

/* Each pool's node: its size, NVLink domain and NICs (derive_node_size, derive_node_links),
 * and its power besides the GPUs and its PCIe link, stated for the cluster or its GPU
 * platform's, as derive_base_power takes them for one type; then each pool's first GPU and NIC,
 * in pool order, and the cluster's node the first pool's. */
void st__derive_pools(st_ld *ld, const st_ynode *n, st_cluster_cfg *c)
{
    int base = st__at_path(n, "node", NULL, "base_power") != NULL;
    int pcie = st__at_path(n, "node", NULL, "pcie") != NULL;
    const st_ynode *list = st_ynode_get(n, "pools");
    st_pool_cfg *p = ld->s->pools;
    int64_t gpu = 0, nic = 0;
    for (int k = 0; k < c->n_pools && !ld->size_bad; k++) {
        const st_gpu_spec *g = p[k].gpu;
        if (!g) /* an unknown GPU name: the reader has said so, and the load fails */
            continue;
        p[k].pcie_bw = pcie ? c->node.pcie_bw : g->pcie_bw;
        p[k].node_base_w = base ? c->node.base_power_w : g->node_base_w;
        derive_node_size(ld, n, c, &p[k], base);
        derive_node_links(ld, n, list->kids[k], c, &p[k]);
        if (!base && !(g->node_base_w > 0))
            st_diag_add(ld->rd.diag, ST_EINVAL, p[k].gpu_loc,
                        "pool '%s': GPU '%s' has no platform figure for a node's power besides "
                        "its GPUs (CPUs, NICs, fans): give cluster.node.base_power",
                        p[k].name, g->name);
        p[k].first_gpu = gpu;
        p[k].first_nic = nic;
        gpu += p[k].nodes * p[k].gpus_per_node;
        nic += p[k].nodes * p[k].nics_per_node;
        c->mixed_node_sizes |= p[k].gpus_per_node != p[0].gpus_per_node;
    }
    if (c->n_pools > 0) {
        c->node.base_power_w = p[0].node_base_w;
        c->node.base_power_of_gpu = !base;
    }
    if (c->n_pools > 0 && p[0].gpus_per_node > 0) { /* what reads the cluster's one node */
        c->gpus_per_node = p[0].gpus_per_node;
        c->nvlink_domain = p[0].nvlink_domain;
        c->fabric.nics_per_node = (int)p[0].nics_per_node;
    }
}

/* Each pool's racks: cluster.racks, over which the pool's own `racks:` states their size and
 * cooling (a pool that names its cooling kind takes its capacity and liquid fraction from that
 * kind unless it states them). Once any pool states racks, every pool's nodes fill racks of their
 * own, numbered in pool order (models/config/racks.h). Runs before cluster.racks' own liquid
 * fraction is derived, so a pool of another kind derives its own. */
void st__derive_pool_racks(st_ld *ld, const st_ynode *n, st_cluster_cfg *c)
{
    const st_ynode *list = st_ynode_get(n, "pools");
    st_pool_cfg *p = ld->s->pools;
    if (c->n_pools <= 0 || !p || !list)
        return;
    int64_t first = 0;
    for (int k = 0; k < c->n_pools; k++) {
        const st_ynode *e = list->kids[k], *r = st_ynode_get(e, "racks");
        p[k].racks = c->racks;
        if (r && r->kind == ST_YN_MAP) {
            c->racks_by_pool = 1;
            if (st__at_path(e, "racks", "cooling", "kind")) {
                p[k].racks.cooling_capacity_w = 0;
                p[k].racks.liquid_fraction = -1;
            }
            st_rd_map(&ld->rd, r, pool_rack_fields, &p[k].racks, "cluster.pools[].racks");
            const st_ynode *lf = st__at_path(e, "racks", "cooling", "liquid_fraction");
            if (st__read_ok(ld, lf) && p[k].racks.cooling == ST_COOLING_AIR &&
                p[k].racks.liquid_fraction > 0)
                st_rd_fail(
                    &ld->rd, lf, ST_EINVAL,
                    "liquid_fraction needs cooling kind 'liquid' (the racks of pool '%s' are "
                    "air-cooled)",
                    p[k].name ? p[k].name : "?");
        }
        st__derive_liquid_fraction(&p[k].racks);
        int64_t per = p[k].racks.nodes_per_rack > 0 ? p[k].racks.nodes_per_rack : 1;
        p[k].first_rack = first;
        first += (p[k].nodes + per - 1) / per;
    }
}

/* A pooled cluster's settings v1 does not model per GPU type are refused where they are stated
 * (docs/models/pools.md): a calibration is fitted on one type, and the racks' power floor and
 * burn are shares of one GPU's TDP. */
void st__check_pooled(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c)
{
    static const char *const one_type[][3] = {
        {"calibration", NULL, NULL},
        {"racks", NULL, "power_floor"},
        {"racks", NULL, "power_burn"},
    };
    if (c->n_pools <= 0)
        return;
    for (size_t i = 0; i < sizeof one_type / sizeof *one_type; i++) {
        const char *map = one_type[i][0], *key = one_type[i][2];
        const st_ynode *at = key ? st__at_path(n, map, NULL, key) : st_ynode_get(n, map);
        if (at)
            st_rd_fail(&ld->rd, at, ST_EINVAL,
                       "cluster.%s%s%s: a figure of one GPU type, not modelled with "
                       "cluster.pools (docs/models/pools.md)",
                       map, key ? "." : "", key ? key : "");
    }
}

int st__pool_named(st_ld *ld, const st_ynode *n, int *k)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    if (!c->n_pools && ld->s->pools)
        return -1; /* cluster.pools has an error of its own */
    if (!c->n_pools)
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "pool '%s': the cluster has one GPU type; pools are named under "
                          "cluster.pools",
                          n->text);
    const char *names[64];
    for (int i = 0; i < c->n_pools; i++) {
        if (strcmp(c->pools[i].name, n->text) == 0) {
            *k = i;
            return 0;
        }
        if (i < 64)
            names[i] = c->pools[i].name;
    }
    return st__unknown_name(ld, n, "pool", names, c->n_pools < 64 ? (size_t)c->n_pools : 64,
                            " (pools are named under cluster.pools)");
}
