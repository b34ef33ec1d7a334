/* Reads a workload of `kind: collective` (load_workload.c reads the rest): its `collective`
 * mapping, the rules that tie it to the cluster and the collective model, and the room all of
 * them take together. */
#include <stdint.h>

#include "models/fabric/collective.h"
#include "scenarios/load_internal.h"

static const char *const coll_op_names[] = {ST_COLL_OPS(ST_COLL_NAME) NULL};
static const char *const coll_algo_names[] = {ST_COLL_ALGOS(ST_COLL_NAME) NULL};
static const char *const coll_proto_names[] = {ST_COLL_PROTOS(ST_COLL_NAME) NULL};

static int coll_enum(st_rd *rd, const st_ynode *n, const char *what, const char *const *names,
                     int *out)
{
    if (st_rd_expect(rd, n, ST_YN_SCALAR, what))
        return -1;
    return st_rd_enum(rd, n, what, names, out);
}

static int fn_op(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "collective op", coll_op_names, &((st_collective_cfg *)base)->op);
}
static int fn_algo(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "collective algorithm", coll_algo_names,
                     &((st_collective_cfg *)base)->algo);
}
static int fn_proto(st_rd *rd, const st_ynode *n, void *base)
{
    return coll_enum(rd, n, "NCCL protocol", coll_proto_names, &((st_collective_cfg *)base)->proto);
}

static const st_field collective_fields[] = {
    ST_FFN("op", fn_op, .required = 1),
    ST_FFN("algo", fn_algo),
    ST_FFN("protocol", fn_proto),
    ST_FINT(st_collective_cfg, "channels", channels, ST_R_NONNEG, .max = ST_COLL_MAX_CHANNELS),
    ST_FBOOL(st_collective_cfg, "lockstep", lockstep),
    ST_FDIM(st_collective_cfg, "size", size_bytes, ST_DIM_BYTES, ST_R_NONNEG, .lim = &st_lim_bytes,
            .required = 1),
    ST_FINT(st_collective_cfg, "iterations", iterations, ST_R_MIN1, .max = 1e6),
    ST_FEND,
};

int st__fn_collective(st_rd *rd, const st_ynode *n, void *base)
{
    st_collective_cfg *c = &((st_workload_cfg *)base)->collective;
    c->loc = n->loc;
    return st_rd_map(rd, n, collective_fields, c, "collective");
}

/* The collective model's rules for this workload's op, algo, protocol and GPU count, located
 * at the key the model blames. */
static int check_collective_rules(st_ld *ld, const st_ynode *n, const st_workload_cfg *w)
{
    const st_collective_cfg *cc = &w->collective;
    st_coll_field field;
    st_err err = {0};
    if (st_coll_check(&ld->s->cluster, (st_coll_op)cc->op, (st_coll_algo)cc->algo,
                      (st_coll_proto)cc->proto, w->gpus, &field, &err) == 0)
        return 0;
    const st_ynode *coll = st_ynode_get(n, "collective");
    const st_ynode *at = field == ST_COLL_FIELD_ALGO    ? st__key_or(coll, "algo")
                         : field == ST_COLL_FIELD_PROTO ? st__key_or(coll, "protocol")
                                                        : st__key_or(n, "gpus");
    return st_rd_fail(&ld->rd, at, ST_EINVAL, "workload '%s': %s", w->name, err.msg);
}

/* A collective workload: its own section, its GPUs inside the cluster, and none of the
 * training keys (they would be silently meaningless). */
int st__derive_collective(st_ld *ld, const st_ynode *n, st_workload_cfg *w,
                          const st_field *workload_fields)
{
    static const char *const training_only[] = {"model",           "seq_len",
                                                "global_batch",    "precision",
                                                "fp8_recipe",      "fp8_param_gather",
                                                "attention",       "cudnn",
                                                "kernels",         "parallel",
                                                "steps",           "tokens",
                                                "checkpoint",      "data",
                                                "memory_reserved", "routing_imbalance",
                                                "capacity_factor", "pad_to_capacity",
                                                "mtp_layers",      "software",
                                                "requests",        "slo",
                                                "batching",        "autoscale",
                                                "frontend",        NULL};
    int bad = 0;
    bad = st__refuse_keys(ld, n, w, training_only);
    const st_ynode *coll = st_ynode_get(n, "collective"), *gpus = st_ynode_get(n, "gpus");
    if (!coll)
        bad = st_rd_fail(&ld->rd, n, ST_EINVAL,
                         "workload '%s': kind: collective needs a 'collective' mapping", w->name);
    if (!gpus && !st_rd_misspelt(n, workload_fields, "gpus")) /* a typo says it already */
        bad = st_rd_fail(&ld->rd, n, ST_EINVAL, "workload '%s': missing required key 'gpus'",
                         w->name);
    if (!gpus || st_rd_failed(&ld->rd, gpus))
        return -1;
    const st_cluster_cfg *c = &ld->s->cluster;
    if (c->n_pools > 0) /* the fabric run places them on the cluster's one GPU type */
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "workload '%s': kind: collective is not modelled on a cluster with "
                          "cluster.pools (docs/models/pools.md)",
                          w->name);
    if (!ld->size_bad && w->gpus > c->nodes * c->gpus_per_node)
        return st_rd_fail(&ld->rd, gpus, ST_EINVAL,
                          "workload '%s': asks for %lld GPUs, but the cluster has %lld", w->name,
                          (long long)w->gpus, (long long)(c->nodes * c->gpus_per_node));
    /* The collective model's rules read the whole cluster and the collective's keys. */
    if (bad || !coll || st_rd_failed(&ld->rd, coll) || ld->cluster_bad)
        return -1;
    if (check_collective_rules(ld, n, w))
        return -1;
    if (!w->collective.iterations)
        w->collective.iterations = 1;
    w->parallel.dp = w->gpus; /* every GPU is a rank */
    return 0;
}

/* Collective workloads run together, each from a fresh node (models/fabric/fabric_run.c): together
 * they must fit in the cluster. */
int st__check_collective_room(st_ld *ld, const st_ynode *n, const char *clean)
{
    const st_scn *s = ld->s;
    const st_cluster_cfg *c = &s->cluster;
    int64_t used = 0;
    if (ld->size_bad)
        return 0;
    for (size_t i = 0; i < s->n_workloads; i++) {
        const st_workload_cfg *w = &s->workloads[i];
        if (w->kind != ST_WL_COLLECTIVE || !clean[i])
            continue; /* a workload with errors of its own is left out of the sum */
        used += (w->gpus + c->gpus_per_node - 1) / c->gpus_per_node * c->gpus_per_node;
        if (used > c->nodes * c->gpus_per_node)
            return st_rd_fail(&ld->rd, st__key_or(n->kids[i], "gpus"), ST_EINVAL,
                              "workload '%s': collective workloads need %lld GPUs together (each "
                              "starts on a fresh node), but the cluster has %lld",
                              w->name, (long long)used, (long long)(c->nodes * c->gpus_per_node));
    }
    return 0;
}

int st__refuse_keys(st_ld *ld, const st_ynode *n, const st_workload_cfg *w, const char *const *keys)
{
    int bad = 0;
    for (int i = 0; keys[i]; i++)
        if (st_ynode_get(n, keys[i]))
            bad = st_rd_fail(&ld->rd, st_ynode_get(n, keys[i]), ST_EINVAL,
                             "workload '%s': '%s' does not apply to kind: %s", w->name, keys[i],
                             st_workload_kind_names[w->kind]);
    return bad;
}
