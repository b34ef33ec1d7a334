/* Reads `hardware.gpus` and `cluster` (node, racks, facility, fabric, storage) into typed
 * config, with the defaults docs/guide/scenario-reference.md states. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/fabric/leaf.h"
#include "models/fabric/topo.h"
#include "models/fabric/transport.h"
#include "models/silicon/noise.h"
#include "scenarios/catalog.h"
#include "scenarios/load_internal.h"
#include "sim/xalloc.h"

/* The latency bound counts ST_LIM_ROUTE_TERMS latencies on one route: links and the switches
 * between them (models/config/limits.h). */
_Static_assert(2 * ST_TOPO_MAX_HOPS <= ST_LIM_ROUTE_TERMS, "a route has more latency terms");

/* ---- hardware.gpus ---------------------------------------------------------------------- */

static const st_field gpu_fields[] = {
    ST_FSTR(st_gpu_spec, "name", name, .required = 1),
    ST_FFN("base", st_rd_skip), /* applied before the other keys: see read_hw_gpu */
    ST_FSTR(st_gpu_spec, "description", description),
    ST_FDIM(st_gpu_spec, "peak_bf16", peak_bf16, ST_DIM_FLOPS, ST_R_POS),
    ST_FDIM(st_gpu_spec, "peak_fp8", peak_fp8, ST_DIM_FLOPS, ST_R_NONNEG),
    ST_FDIM(st_gpu_spec, "peak_fp4", peak_fp4, ST_DIM_FLOPS, ST_R_NONNEG),
    ST_FDIM(st_gpu_spec, "hbm", hbm_bytes, ST_DIM_BYTES, ST_R_POS, .lim = &st_lim_bytes),
    ST_FDIM(st_gpu_spec, "hbm_bw", hbm_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate),
    ST_FDIM(st_gpu_spec, "nvlink", nvlink_bw, ST_DIM_BANDWIDTH, ST_R_NONNEG, .lim = &st_lim_rate),
    ST_FDIM(st_gpu_spec, "pcie", pcie_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate),
    ST_FDIM(st_gpu_spec, "tdp", tdp_w, ST_DIM_POWER, ST_R_POS),
    ST_FDIM(st_gpu_spec, "idle_power", idle_w, ST_DIM_POWER, ST_R_NONNEG),
    ST_FDIM(st_gpu_spec, "power_limit", power_limit_w, ST_DIM_POWER, ST_R_POS),
    ST_FEND,
};

static size_t known_gpu_names(const st_scn *s, const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_gpus && n < cap; i++)
        names[n++] = s->gpus[i].name;
    return n + st_catalog_gpu_names(names + n, cap - n);
}

int st__unknown_gpu(st_ld *ld, const st_ynode *n)
{
    if (st__broken_has(&ld->bad_gpus, n->text))
        return -1; /* its hardware.gpus entry has an error of its own */
    const char *names[128];
    size_t k = known_gpu_names(ld->s, names, 128);
    return st__unknown_name(ld, n, "GPU", names, k, " (`strata catalog` lists the known GPUs)");
}

/* `base:` copies every figure of a known GPU (catalog or an earlier hardware entry) before the
 * entry's own keys are read, so the keys override it wherever they stand in the mapping, and
 * keeps the base's architecture and calibration key, so the base's measured calibrations apply
 * under the entry's own name. */
static int read_hw_gpu(st_ld *ld, const st_ynode *n, st_gpu_spec *g)
{
    const st_ynode *b = st_ynode_get(n, "base");
    if (b) {
        if (st_rd_expect(&ld->rd, b, ST_YN_SCALAR, "base"))
            return -1;
        const st_gpu_spec *from = st__find_gpu(ld->s, b->text);
        if (!from)
            return st__unknown_gpu(ld, b);
        *g = *from;
    } else {
        /* Its own figures: no architecture or measured calibration applies, whatever its name
         * (arch, calib and nvswitch stay zero). */
        g->source = "scenario hardware.gpus";
    }
    if (st_rd_map(&ld->rd, n, gpu_fields, g, "hardware.gpus[]"))
        return -1;
    const st_ynode *pl = st_ynode_get(n, "power_limit");
    if (pl && !(g->power_limit_w > g->idle_w))
        return st_rd_fail(&ld->rd, pl, ST_EINVAL,
                          "hardware GPU '%s': power_limit must be above its idle_power (%g W), "
                          "found %g W",
                          g->name, g->idle_w, g->power_limit_w);
    /* a board idles below its limit: idle above tdp drew 914.5 W a GPU on a 700 W part (a
     * fuzzing find) */
    const st_ynode *idle = st_ynode_get(n, "idle_power"), *tdp = st_ynode_get(n, "tdp");
    if (g->tdp_w > 0 && !(g->idle_w < g->tdp_w))
        return st_rd_fail(&ld->rd,
                          idle  ? idle
                          : tdp ? tdp
                                : n,
                          ST_EINVAL,
                          "hardware GPU '%s': idle_power must be below its tdp (%g W), found %g W",
                          g->name, g->tdp_w, g->idle_w);
    g->hbm_bytes = round(g->hbm_bytes); /* a memory holds whole bytes: "178.35 GiB" is a
                                           rounded figure, not 0.4 of a byte more */
    if (g->peak_bf16 > 0 && g->hbm_bytes > 0 && g->hbm_bw > 0 && g->tdp_w > 0)
        return 0;
    return st_rd_fail(&ld->rd, n, ST_EINVAL,
                      "hardware GPU '%s' needs 'base' or all of 'peak_bf16', 'hbm', 'hbm_bw' "
                      "and 'tdp'",
                      g->name);
}

static int fn_hw_gpus(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_scn *s = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "hardware.gpus") ||
        st_rd_list_limit(rd, n, "hardware.gpus", ST_SCN_MAX_NAMED)) {
        ld->bad_gpus.all = 1;
        return -1;
    }
    s->gpus = st_xcalloc(n->n ? n->n : 1, sizeof *s->gpus);
    size_t *line = st_xcalloc(n->n ? n->n : 1, sizeof *line); /* of each good entry */
    int bad = 0;
    /* A bad entry does not stop the list: only what refers to it by name is skipped. */
    for (size_t i = 0; i < n->n && !st_diag_full(rd->diag); i++) {
        st_gpu_spec *g = &s->gpus[s->n_gpus];
        memset(g, 0, sizeof *g);
        if (read_hw_gpu(ld, n->kids[i], g)) {
            st__broken_add(&ld->bad_gpus, n->kids[i]);
            bad = 1;
            continue;
        }
        size_t j = 0;
        while (j < s->n_gpus && strcmp(s->gpus[j].name, g->name) != 0)
            j++;
        if (j < s->n_gpus) {
            bad = st_rd_fail(rd, st__name_at(n->kids[i]), ST_EINVAL,
                             "duplicate GPU name '%s' in hardware.gpus (first at line %u)", g->name,
                             (unsigned)line[j]);
            continue;
        }
        line[s->n_gpus++] = n->kids[i]->loc.line;
    }
    free(line);
    return bad || st_diag_full(rd->diag) ? -1 : 0; /* full: entries left unread */
}

static int fn_hw_models(st_rd *rd, const st_ynode *n, void *base)
{
    (void)base;
    return st__load_models(st__ld(rd), n);
}

int st__load_hardware(st_ld *ld, const st_ynode *n)
{
    static const st_field hw_fields[] = {
        ST_FFN("gpus", fn_hw_gpus),
        ST_FFN("models", fn_hw_models),
        ST_FEND,
    };
    if (n->kind != ST_YN_MAP)
        ld->bad_gpus.all = ld->bad_models.all = 1;
    return st_rd_map(&ld->rd, n, hw_fields, ld->s, "hardware");
}

/* ---- cluster ---------------------------------------------------------------------------- */

static int fn_cluster_gpu(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "gpu"))
        return -1;
    st_cluster_cfg *c = base;
    c->gpu = st__find_gpu(ld->s, n->text);
    c->gpu_loc = n->loc;
    return c->gpu ? 0 : st__unknown_gpu(ld, n);
}

/* oversubscription: one ratio for every tier, or a list with one per tier, leaf first. At most
 * 512: a tier keeps at least one uplink, which a leaf of 512 down ports, the most a switch of
 * today has, reaches at 512:1; a larger ratio could only be a typo (1e308 was read as one
 * uplink, silently). */
#define ST_MAX_OVERSUB 512
static int fn_oversub(st_rd *rd, const st_ynode *n, void *base)
{
    st_fabric_cfg *f = base;
    if (n->kind == ST_YN_SCALAR) {
        f->n_oversub = 1;
        return st_rd_dim(rd, n, "oversubscription", ST_DIM_RATIO, ST_R_MIN1, ST_MAX_OVERSUB,
                         &f->oversub[0]);
    }
    if (st_rd_expect(rd, n, ST_YN_SEQ, "oversubscription"))
        return -1;
    if (n->n == 0 || n->n > ST_MAX_TIERS_OVERSUB)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "oversubscription: expected 1 to %d ratios (leaf tier first), found %zu",
                          ST_MAX_TIERS_OVERSUB, n->n);
    f->n_oversub = (int)n->n;
    for (size_t i = 0; i < n->n; i++)
        if (st_rd_dim(rd, n->kids[i], "oversubscription", ST_DIM_RATIO, ST_R_MIN1, ST_MAX_OVERSUB,
                      &f->oversub[i]))
            return -1;
    return 0;
}

static const st_field fabric_fields[] = {
    ST_FENUM(st_fabric_cfg, "topology", topology, st_topology_names),
    ST_FDIM(st_fabric_cfg, "nic", nic_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate),
    ST_FINT(st_fabric_cfg, "nics_per_node", nics_per_node, ST_R_MIN1, .max = 64),
    ST_FINT(st_fabric_cfg, "nodes_per_leaf", nodes_per_leaf, ST_R_MIN1, .max = 1e7),
    ST_FINT(st_fabric_cfg, "leaves_per_pod", leaves_per_pod, ST_R_MIN1, .max = 1e7),
    ST_FINT(st_fabric_cfg, "switch_ports", switch_ports, ST_R_MIN1, .max = 1e6),
    ST_FFN("oversubscription", fn_oversub),
    ST_FENUM(st_fabric_cfg, "transport", transport, st_transport_names),
    ST_FENUM(st_fabric_cfg, "routing", routing, st_routing_names),
    ST_FDIM(st_fabric_cfg, "link_latency", link_latency_s, ST_DIM_TIME, ST_R_NONNEG,
            .lim = &st_lim_latency),
    ST_FDIM(st_fabric_cfg, "switch_latency", switch_latency_s, ST_DIM_TIME, ST_R_NONNEG,
            .lim = &st_lim_latency),
    ST_FEND,
};

static const st_field feed_fields[] = {
    ST_FDIM(st_rack_cfg, "voltage", feed_voltage_v, ST_DIM_VOLTAGE, ST_R_POS),
    ST_FINT(st_rack_cfg, "phases", feed_phases, ST_R_MIN1, .max = 3),
    ST_FDIM(st_rack_cfg, "power_factor", power_factor, ST_DIM_RATIO, ST_R_UNIT),
    ST_FDIM(st_rack_cfg, "breaker", breaker_a, ST_DIM_CURRENT, ST_R_POS),
    ST_FEND,
};

static const st_field cooling_fields[] = {
    ST_FENUM(st_rack_cfg, "kind", cooling, st_cooling_kind_names),
    ST_FDIM(st_rack_cfg, "capacity", cooling_capacity_w, ST_DIM_POWER, ST_R_POS),
    ST_FDIM(st_rack_cfg, "liquid_fraction", liquid_fraction, ST_DIM_RATIO, ST_R_FRAC),
    ST_FDIM(st_rack_cfg, "coolant_supply", coolant_supply_c, ST_DIM_TEMPERATURE, ST_R_ANY),
    ST_FDIM(st_rack_cfg, "air_supply", air_supply_c, ST_DIM_TEMPERATURE, ST_R_ANY),
    ST_FDIM(st_rack_cfg, "chiller_cop", chiller_cop, ST_DIM_RATIO, ST_R_POS),
    ST_FDIM(st_rack_cfg, "air_oversupply", air_oversupply, ST_DIM_RATIO, ST_R_MIN1),
    ST_FEND,
};

static const st_field storage_fields[] = {
    ST_FDIM(st_rack_cfg, "energy", storage_energy_j, ST_DIM_ENERGY, ST_R_POS, .required = 1),
    ST_FDIM(st_rack_cfg, "power", storage_power_w, ST_DIM_POWER, ST_R_POS, .required = 1),
    ST_FEND,
};

static const st_field rack_fields[] = {
    ST_FINT(st_rack_cfg, "nodes_per_rack", nodes_per_rack, ST_R_MIN1, .max = 1024),
    ST_FMAP("feed", feed_fields),
    ST_FDIM(st_rack_cfg, "distribution_resistance", distribution_resistance_ohm, ST_DIM_RESISTANCE,
            ST_R_NONNEG),
    ST_FMAP("cooling", cooling_fields),
    ST_FDIM(st_rack_cfg, "power_floor", power_floor, ST_DIM_RATIO, ST_R_FRAC),
    ST_FDIM(st_rack_cfg, "power_burn", power_burn, ST_DIM_RATIO, ST_R_FRAC),
    ST_FMAP("storage", storage_fields),
    ST_FEND,
};

static const st_field node_fields[] = {
    ST_FDIM(st_node_cfg, "base_power", base_power_w, ST_DIM_POWER, ST_R_NONNEG),
    ST_FDIM(st_node_cfg, "host_memory", host_memory_bytes, ST_DIM_BYTES, ST_R_POS,
            .lim = &st_lim_bytes),
    ST_FDIM(st_node_cfg, "pcie", pcie_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate),
    ST_FEND,
};

static const st_field ups_fields[] = {
    ST_FDIM(st_facility_cfg, "efficiency", ups.efficiency, ST_DIM_RATIO, ST_R_UNIT),
    ST_FDIM(st_facility_cfg, "no_load", ups.no_load, ST_DIM_RATIO, ST_R_FRAC),
    ST_FDIM(st_facility_cfg, "square_law", ups.square_law, ST_DIM_RATIO, ST_R_FRAC),
    ST_FDIM(st_facility_cfg, "rating", ups.rating_w, ST_DIM_POWER, ST_R_POS, .lim = &st_lim_ups),
    ST_FENUM(st_facility_cfg, "redundancy", ups.redundancy, st_ups_redundancy_names),
    ST_FEND,
};

static const st_field facility_fields[] = {
    ST_FDIM(st_facility_cfg, "power_capacity", power_capacity_w, ST_DIM_POWER, ST_R_POS),
    ST_FDIM(st_facility_cfg, "cooling_capacity", cooling_capacity_w, ST_DIM_POWER, ST_R_POS),
    ST_FDIM(st_facility_cfg, "air_cooling_capacity", air_cooling_capacity_w, ST_DIM_POWER,
            ST_R_POS),
    ST_FDIM(st_facility_cfg, "liquid_cooling_capacity", liquid_cooling_capacity_w, ST_DIM_POWER,
            ST_R_POS),
    ST_FDIM(st_facility_cfg, "ramp_limit", ramp_limit_w_per_s, ST_DIM_RAMP, ST_R_POS),
    ST_FMAP("ups", ups_fields),
    ST_FEND,
};

static const st_field tier_fields[] = {
    ST_FSTR(st_tier_cfg, "name", name, .required = 1),
    ST_FENUM(st_tier_cfg, "kind", kind, st_tier_kind_names, .required = 1),
    ST_FDIM(st_tier_cfg, "capacity", capacity_bytes, ST_DIM_BYTES, ST_R_POS),
    ST_FDIM(st_tier_cfg, "read", read_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate,
            .required = 1),
    ST_FDIM(st_tier_cfg, "write", write_bw, ST_DIM_BANDWIDTH, ST_R_POS, .lim = &st_lim_rate,
            .required = 1),
    ST_FDIM(st_tier_cfg, "latency", latency_s, ST_DIM_TIME, ST_R_NONNEG, .lim = &st_lim_latency),
    ST_FBOOL(st_tier_cfg, "gds", gds),
    ST_FEND,
};

static const st_field slow_node_fields[] = {
    ST_FDIM(st_variability_cfg, "every", slow_every_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span,
            .required = 1),
    ST_FDIM(st_variability_cfg, "slowdown", slow_slowdown, ST_DIM_RATIO, ST_R_POS, .required = 1),
    ST_FDIM(st_variability_cfg, "detect", slow_detect_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span,
            .required = 1),
    ST_FEND,
};

static const char *const noise_patterns[] = {"poisson", "periodic", NULL};

static const st_field noise_fields[] = {
    ST_FDIM(st_variability_cfg, "every", noise_every_s, ST_DIM_TIME, ST_R_POS, .lim = &st_lim_span,
            .required = 1),
    ST_FDIM(st_variability_cfg, "detour", noise_detour_s, ST_DIM_TIME, ST_R_POS,
            .lim = &st_lim_span, .required = 1),
    ST_FENUM(st_variability_cfg, "pattern", noise_periodic, noise_patterns),
    ST_FBOOL(st_variability_cfg, "cosched", noise_cosched),
    ST_FEND,
};

/* cluster.variability.noise: a profile's name (models/silicon/noise.c) or a signature of
 * its own, whose detours must take less than all of a rank's time. */
static int fn_noise(st_rd *rd, const st_ynode *n, void *base)
{
    st_variability_cfg *v = base;
    v->noise_loc = n->loc;
    if (n->kind == ST_YN_SCALAR) {
        const st_noise_profile *p = st_noise_profile_find(n->text);
        char names[256];
        st_noise_profile_names(names, sizeof names);
        if (!p)
            return st_rd_fail(rd, n, ST_EINVAL,
                              "cluster.variability.noise: expected a profile (%s) or a "
                              "mapping {every, detour}, found '%s'",
                              names, n->text);
        st_noise_profile_apply(p, v);
        return 0;
    }
    if (st_rd_expect(rd, n, ST_YN_MAP, "cluster.variability.noise") ||
        st_rd_map(rd, n, noise_fields, v, "cluster.variability.noise"))
        return -1;
    if (!(v->noise_detour_s < v->noise_every_s))
        return st_rd_fail(rd, n, ST_EINVAL,
                          "cluster.variability.noise: a detour of %g s every %g s would stop a "
                          "rank all the time: expected detour < every",
                          v->noise_detour_s, v->noise_every_s);
    v->noise_profile = NULL;
    return 0;
}

static const st_field variability_fields[] = {
    ST_FDIM(st_variability_cfg, "gpu_speed_cv", gpu_speed_cv, ST_DIM_RATIO, ST_R_NONNEG,
            .lim = &st_lim_speed_cv),
    ST_FMAP("slow_nodes", slow_node_fields),
    ST_FFN("noise", fn_noise),
    ST_FEND,
};

static int sub_map(st_rd *rd, const st_ynode *n, const st_field *f, void *base, st_loc *loc,
                   const char *what)
{
    *loc = n->loc;
    return st_rd_map(rd, n, f, base, what);
}

static int fn_node(st_rd *rd, const st_ynode *n, void *base)
{
    st_loc ignored;
    return sub_map(rd, n, node_fields, &((st_cluster_cfg *)base)->node, &ignored, "cluster.node");
}

static int fn_racks(st_rd *rd, const st_ynode *n, void *base)
{
    st_rack_cfg *r = &((st_cluster_cfg *)base)->racks;
    return sub_map(rd, n, rack_fields, r, &r->loc, "cluster.racks");
}

static int fn_variability(st_rd *rd, const st_ynode *n, void *base)
{
    st_variability_cfg *v = &((st_cluster_cfg *)base)->variability;
    return sub_map(rd, n, variability_fields, v, &v->loc, "cluster.variability");
}

static int fn_facility(st_rd *rd, const st_ynode *n, void *base)
{
    st_facility_cfg *f = &((st_cluster_cfg *)base)->facility;
    return sub_map(rd, n, facility_fields, f, &f->loc, "cluster.facility");
}

static int fn_fabric(st_rd *rd, const st_ynode *n, void *base)
{
    st_fabric_cfg *f = &((st_cluster_cfg *)base)->fabric;
    int rc = sub_map(rd, n, fabric_fields, f, &f->loc, "cluster.fabric");
    f->routing_given = st_ynode_get(n, "routing") != NULL;
    if (!f->routing_given) /* InfiniBand's subnet manager routes adaptively, Ethernet hashes */
        f->routing = st_transport_default_routing(f->transport);
    return rc;
}

static int fn_storage(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_cluster_cfg *c = base;
    if (st_rd_expect(rd, n, ST_YN_SEQ, "cluster.storage") ||
        st_rd_list_limit(rd, n, "cluster.storage", ST_SCN_MAX_NAMED)) {
        ld->bad_tiers.all = 1;
        return -1;
    }
    ld->s->tiers = st_xcalloc(n->n ? n->n : 1, sizeof *ld->s->tiers);
    int good = 0, bad = 0;
    /* A bad tier does not stop the list; a workload naming it is not told it is unknown. */
    for (size_t i = 0; i < n->n && !st_diag_full(rd->diag); i++) {
        st_tier_cfg *t = &ld->s->tiers[good];
        memset(t, 0, sizeof *t);
        t->loc = n->kids[i]->loc;
        if (st_rd_map(rd, n->kids[i], tier_fields, t, "cluster.storage[]")) {
            st__broken_add(&ld->bad_tiers, n->kids[i]);
            bad = 1;
            continue;
        }
        int j = 0;
        while (j < good && strcmp(ld->s->tiers[j].name, t->name) != 0)
            j++;
        if (j < good) {
            bad = st_rd_fail(rd, st__name_at(n->kids[i]), ST_EINVAL,
                             "duplicate storage tier name '%s' (first at line %u)", t->name,
                             ld->s->tiers[j].loc.line);
            continue;
        }
        good++;
    }
    c->tiers = ld->s->tiers;
    c->n_tiers = good;
    return bad || st_diag_full(rd->diag) ? -1 : 0; /* full: entries left unread */
}

static const st_field cluster_fields[] = {
    ST_FFN("gpu", fn_cluster_gpu),
    ST_FINT(st_cluster_cfg, "nodes", nodes, ST_R_MIN1, .max = ST_SCN_MAX_NODES),
    ST_FFN("pools", st__fn_pools),
    ST_FINT(st_cluster_cfg, "gpus_per_node", gpus_per_node, ST_R_MIN1, .max = 1024),
    ST_FINT(st_cluster_cfg, "nvlink_domain", nvlink_domain, ST_R_MIN1, .max = 1e6),
    ST_FFN("node", fn_node),
    ST_FFN("racks", fn_racks),
    ST_FFN("variability", fn_variability),
    ST_FFN("facility", fn_facility),
    ST_FFN("fabric", fn_fabric),
    ST_FFN("storage", fn_storage),
    ST_FFN("calibration", st__fn_calibration),
    ST_FEND,
};

/* Defaults for what the file leaves out. Values derived from the GPU or the node count are
 * filled after reading; zeros below mean "derive" or "not stated". Sources for the fixed ones
 * are in docs/guide/scenario-reference.md. */
static void cluster_defaults(st_cluster_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->racks.feed_voltage_v = 415; /* the enterprise AI-infrastructure guide: 415 V three-phase */
    c->racks.feed_phases = 3;
    c->racks.power_factor = 0.95; /* 80 PLUS Titanium PSUs: power factor >= 0.95 at 50% load */
    c->racks.cooling = ST_COOLING_AIR;
    c->racks.coolant_supply_c = 30; /* within ASHRAE TC 9.9's W32 class (facility water <= 32 C) */
    c->racks.air_supply_c = 24;     /* within ASHRAE TC 9.9's recommended 18-27 C inlet */
    c->racks.liquid_fraction = -1;  /* derived from the cooling kind */
    c->fabric.topology = ST_TOPO_SPINE_LEAF;
    c->fabric.nic_bw = 400e9 / 8; /* the guide: RoCE v2 on 400 Gbit/s */
    c->fabric.oversub[0] = 1;     /* non-blocking, as the guide's spine-leaf */
    c->fabric.n_oversub = 1;
    c->fabric.transport = ST_TRANSPORT_ROCE_V2;
    c->fabric.routing = ST_ROUTING_ECMP;
    c->fabric.link_latency_s = 1e-6;     /* documented default, an assumption: settable */
    c->fabric.switch_latency_s = 600e-9; /* documented default, an assumption: settable */
}

/* What ties the GPU count together: nvlink_domain against gpus_per_node and nodes. */
static void check_nvlink(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c)
{
    const st_ynode *at = st_ynode_get(n, "nvlink_domain");
    if (!st__read_ok(ld, at) || st_rd_failed(&ld->rd, st_ynode_get(n, "gpus_per_node")))
        return;
    /* A domain larger than the cluster is a partly filled one (models/fabric/topo.c). */
    if (c->nvlink_domain % c->gpus_per_node && c->gpus_per_node % c->nvlink_domain)
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "nvlink_domain (%lld) must divide or be a multiple of gpus_per_node (%lld)",
                   (long long)c->nvlink_domain, (long long)c->gpus_per_node);
}

/* The rack rules: liquid_fraction against the cooling kind, and the feed's phases. */
static void check_racks(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c)
{
    const st_ynode *at = st__at_path(n, "racks", "cooling", "liquid_fraction");
    if (st__read_ok(ld, at) && !st_rd_failed(&ld->rd, st__at_path(n, "racks", "cooling", "kind")) &&
        c->racks.cooling == ST_COOLING_AIR && c->racks.liquid_fraction > 0)
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "liquid_fraction needs cooling kind 'liquid' (this rack is air-cooled)");
    at = st__at_path(n, "racks", "feed", "phases");
    if (st__read_ok(ld, at) && c->racks.feed_phases == 2)
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "phases: a feed is single-phase (1) or three-phase (3), found 2");
}

/* The UPS rule: loss shares that leave the proportional part (1 - no_load - square_law)
 * non-negative (its efficiency's range, above 0 and at most 1, is the field's: ST_R_UNIT). */
static void check_ups(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c)
{
    const st_ups_cfg *u = &c->facility.ups;
    const st_ynode *at = st__at_path(n, "facility", "ups", "square_law");
    const st_ynode *nl = st__at_path(n, "facility", "ups", "no_load");
    if (st__read_ok(ld, at) && st__read_ok(ld, nl) && u->no_load + u->square_law > 1)
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "no_load (%s) and square_law (%s) are shares of the full-load loss: together "
                   "at most 100%%",
                   nl->text, at->text);
}

/* The fabric rule: leaves_per_pod only for a three-tier tree. A leaf with more ports than the
 * cluster has nodes is a partly filled one (models/fabric/topo.c). */
static void check_fabric(st_ld *ld, const st_ynode *n, const st_cluster_cfg *c)
{
    const st_fabric_cfg *f = &c->fabric;
    const st_ynode *at = st__at_path(n, "fabric", NULL, "leaves_per_pod");
    if (st__read_ok(ld, at) && !st_rd_failed(&ld->rd, st__at_path(n, "fabric", NULL, "topology")) &&
        f->topology != ST_TOPO_FAT_TREE_3)
        st_rd_fail(&ld->rd, at, ST_EINVAL, "leaves_per_pod applies to topology 'fat-tree-3' only");
}

/* The node's power besides its GPUs: the scenario's base_power, else its GPU platform's
 * (scenarios/catalog.c). A GPU without a platform figure, or a node of another GPU count than the
 * platform's, has none: a silent 0 would leave the CPUs, NICs and fans out of every power
 * figure, so the scenario is asked for base_power. */
static void derive_base_power(st_ld *ld, const st_ynode *n, st_cluster_cfg *c)
{
    const st_ynode *at = st_ynode_get(n, "gpu");
    if (st__at_path(n, "node", NULL, "base_power") || !st__read_ok(ld, at) || !c->gpu ||
        ld->size_bad)
        return; /* stated (a bad value has its own error), or what it rests on did not read */
    const st_gpu_spec *g = c->gpu;
    if (g->node_base_w > 0 && g->node_gpus == c->gpus_per_node) {
        c->node.base_power_w = g->node_base_w;
        c->node.base_power_of_gpu = 1;
    } else if (g->node_base_w > 0) {
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "GPU '%s': its platform's power besides the GPUs is for a node of %d GPUs, "
                   "this one has %lld: give cluster.node.base_power",
                   g->name, g->node_gpus, (long long)c->gpus_per_node);
    } else {
        st_rd_fail(&ld->rd, at, ST_EINVAL,
                   "GPU '%s' has no platform figure for a node's power besides its GPUs (CPUs, "
                   "NICs, fans): give cluster.node.base_power",
                   g->name);
    }
}

void st__derive_liquid_fraction(st_rack_cfg *r)
{
    if (r->liquid_fraction < 0)
        r->liquid_fraction = st_racks_default_liquid_fraction(r->cooling);
}

/* Fill what follows from other values; check what ties them together. Each rule is checked
 * on its own, so one file shows them all; a rule whose values did not read is skipped. */
static void cluster_derive(st_ld *ld, const st_ynode *n, st_cluster_cfg *c)
{
    if (!c->gpus_per_node)
        c->gpus_per_node = 8; /* an 8-GPU HGX/DGX baseboard, the guide's default node */
    if (!c->nvlink_domain)
        c->nvlink_domain = c->gpus_per_node;
    check_nvlink(ld, n, c);
    if (!c->node.pcie_bw && c->gpu)
        c->node.pcie_bw = c->gpu->pcie_bw;
    derive_base_power(ld, n, c);
    st__derive_pools(ld, n, c);
    if (!c->racks.nodes_per_rack)
        c->racks.nodes_per_rack = 4; /* NVIDIA DGX SuperPOD: 4 DGX H100 per rack */
    check_racks(ld, n, c);
    check_ups(ld, n, c);
    st__derive_pool_racks(ld, n, c);
    st__derive_liquid_fraction(&c->racks);
    st_fabric_cfg *f = &c->fabric;
    if (!f->nics_per_node)
        f->nics_per_node = (int)(c->gpus_per_node < 64 ? c->gpus_per_node : 64);
    check_fabric(ld, n, c);
    if (!f->switch_ports)
        f->switch_ports = ST_SWITCH_PORTS_DEFAULT;
    if (!f->nodes_per_leaf) /* 32 NICs' worth of nodes; a rail leaf takes one NIC a node */
        f->nodes_per_leaf =
            st_leaf_default_nodes(f->topology, (int)st_pools_most_nics(c), c->nodes);
    for (int i = f->n_oversub; i < ST_MAX_TIERS_OVERSUB; i++)
        f->oversub[i] = f->oversub[f->n_oversub - 1];
}

/* The cluster's GPUs: `gpu` and `nodes` (one type), or `pools` (several), never both. */
static void check_form(st_ld *ld, const st_ynode *n)
{
    if (n->kind != ST_YN_MAP)
        return;
    static const char *const single[] = {"gpu", "nodes"};
    int pools = st_ynode_get(n, "pools") != NULL;
    for (int i = 0; i < 2; i++) {
        const st_ynode *at = st_ynode_get(n, single[i]);
        if (!pools && !at)
            st_rd_fail(&ld->rd, n, ST_EINVAL, "cluster: missing required key '%s'", single[i]);
        else if (pools && at)
            st_rd_fail(&ld->rd, at, ST_EINVAL,
                       "cluster: '%s' is given per pool with cluster.pools, not for the cluster",
                       single[i]);
    }
}

/* n may be NULL (the scenario has no cluster, which the top level reports): the defaults are
 * set and every value that depends on the cluster is marked unknown. */
int st__load_cluster(st_ld *ld, const st_ynode *n)
{
    st_cluster_cfg *c = &ld->s->cluster;
    cluster_defaults(c);
    int before = ld->rd.diag->n + ld->rd.diag->dropped;
    if (n) {
        c->loc = n->loc;
        st_rd_map(&ld->rd, n, cluster_fields, c, "cluster");
        check_form(ld, n);
    }
    if (!n || n->kind != ST_YN_MAP)
        ld->bad_tiers.all = 1; /* no storage list: a workload's tier is not its own error */
    const st_ynode *nodes =
        st_ynode_get(n, "pools") ? st_ynode_get(n, "pools") : st_ynode_get(n, "nodes");
    ld->size_bad =
        !st__read_ok(ld, nodes) || st_rd_failed(&ld->rd, st_ynode_get(n, "gpus_per_node"));
    if (n && n->kind == ST_YN_MAP) {
        cluster_derive(ld, n, c);
        st__check_pooled(ld, n, c);
    }
    st__check_calibration(ld, c);
    ld->cluster_bad = !n || ld->rd.diag->n + ld->rd.diag->dropped > before;
    return ld->cluster_bad ? -1 : 0;
}
