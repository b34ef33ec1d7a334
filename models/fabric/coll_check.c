/* What a collective spec may say: the names of its operations, algorithms and protocols, and the
 * rules between them and the cluster, checked once a spec's ranks are known (st_coll_start) and,
 * for the scenario loader, before they are (st_coll_check). */
#include <math.h>

#include "models/fabric/coll_internal.h"

#define ST__COLL_NAME_AT(id, name)       [ST_COLL_##id] = name,
#define ST__COLL_PROTO_NAME_AT(id, name) [ST_COLL_PROTO_##id] = name,

static const char *const op_names[] = {ST_COLL_OPS(ST__COLL_NAME_AT)};
static const char *const algo_names[] = {ST_COLL_ALGOS(ST__COLL_NAME_AT)};
static const char *const proto_names[] = {ST_COLL_PROTOS(ST__COLL_PROTO_NAME_AT)};

const char *st_coll_op_name(st_coll_op op)
{
    return (int)op >= 0 && op < ST_COLL_OP__COUNT ? op_names[op] : "?";
}

const char *st_coll_algo_name(st_coll_algo a)
{
    return (int)a >= 0 && a < ST_COLL_ALGO__COUNT ? algo_names[a] : "?";
}

const char *st_coll_proto_name(st_coll_proto p)
{
    return (int)p >= 0 && p < ST_COLL_PROTO__COUNT ? proto_names[p] : "?";
}

/* ---- rules that need neither ranks nor cluster ---------------------------------------------- */

/* Shared by st_coll_start and st_coll_check, so each rule and its message exist once. A scenario
 * meets them in the loader (st_coll_check runs them first), so st_coll_start reports them only
 * to specs built in code. */

static const st_loc nowhere = {0};

static int rule_send_recv(st_coll_op op, int64_t n, st_err *err)
{
    if (op == ST_COLL_SEND_RECV && n != 2)
        return st_err_set(err, ST_EINVAL, nowhere, "send-recv runs between 2 GPUs, found %lld",
                          (long long)n);
    return 0;
}

static int rule_all_reduce_only(st_coll_op op, st_coll_algo algo, st_err *err)
{
    if ((algo == ST_COLL_TREE || algo == ST_COLL_HIER || algo == ST_COLL_NVLS) &&
        op != ST_COLL_ALL_REDUCE)
        return st_err_set(err, ST_EINVAL, nowhere, "algorithm '%s' runs all-reduce only",
                          st_coll_algo_name(algo));
    return 0;
}

/* NVLS runs the Simple protocol only, as NCCL's NVLS kernels do. */
static int rule_nvls_simple(st_coll_algo algo, st_coll_proto proto, st_err *err)
{
    if (algo == ST_COLL_NVLS && (proto == ST_COLL_PROTO_LL || proto == ST_COLL_PROTO_LL128))
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' runs the Simple protocol only, found '%s'",
                          st_coll_proto_name(proto));
    return 0;
}

/* ---- at start: the runner's cluster and the real ranks -------------------------------------- */

int st__coll_check_spec(const st_coll *cm, const st_coll_spec *s, st_err *err)
{
    if ((int)s->op < 0 || s->op >= ST_COLL_OP__COUNT || (int)s->algo < 0 ||
        s->algo >= ST_COLL_ALGO__COUNT || (int)s->proto < 0 || s->proto >= ST_COLL_PROTO__COUNT)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "collective operation, algorithm or protocol "
                          "out of range");
    if (s->n < 1 || !s->gpus)
        return st_err_set(err, ST_EINVAL, nowhere, "a collective needs at least one gpu");
    if (s->channels < 0 || s->channels > ST_COLL_MAX_CHANNELS)
        return st_err_set(err, ST_EINVAL, nowhere, "channels %d outside 0..%d", s->channels,
                          ST_COLL_MAX_CHANNELS);
    if (!(s->bytes >= 0) || isinf(s->bytes))
        return st_err_set(err, ST_EINVAL, nowhere, "collective size %g bytes", s->bytes);
    if (rule_all_reduce_only(s->op, s->algo, err))
        return ST_EINVAL;
    if (s->algo == ST_COLL_NVLS && cm->nvls_eff <= 0)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' needs NVSwitch multicast (a Hopper or Blackwell GPU "
                          "in an NVLink domain)");
    if (rule_nvls_simple(s->algo, s->proto, err) || rule_send_recv(s->op, s->n, err))
        return ST_EINVAL;
    for (int64_t i = 0; i < s->n; i++)
        if (s->gpus[i] < 0 || s->gpus[i] >= cm->gpus)
            return st_err_set(err, ST_EINVAL, nowhere, "gpu %lld outside 0..%lld",
                              (long long)s->gpus[i], (long long)cm->gpus - 1);
    return 0;
}

int st__coll_check_layout(const run *r, st_err *err)
{
    if (r->algo == ST_COLL_NVLS && r->nvl_groups > 1)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "nvls reduces inside one NVLink domain; these ranks span %lld",
                          (long long)r->nvl_groups);
    for (int64_t g = 1; r->algo == ST_COLL_HIER && g < r->ngrp; g++)
        if (st__coll_grp_size(r, g) != st__coll_grp_size(r, 0))
            return st_err_set(err, ST_EINVAL, nowhere,
                              "hier needs the same number of ranks in every NVLink group (%lld "
                              "and %lld)",
                              (long long)st__coll_grp_size(r, 0),
                              (long long)st__coll_grp_size(r, g));
    return 0;
}

/* ---- before placement: the cluster's configuration and a rank count ------------------------- */

/* The NVLink group as placement sees it before the runner exists: nvlink_domain GPUs, or a node's
 * GPUs when the domain is a single GPU. The runner's capability test is narrower (it also wants
 * nvlink_domain above 1, see st_coll_new), so a cluster with nvlink_domain: 1 passes the load
 * check for nvls and is refused at start; docs/guide/scenario-reference.md lists it. */
static int64_t group_of(const st_cluster_cfg *c)
{
    return c->nvlink_domain > 1 ? c->nvlink_domain : c->gpus_per_node;
}

static int nvls_part(const st_cluster_cfg *c)
{
    return c->gpu && st_nccl_nvls_efficiency(st_nccl_preset_default(), c->gpu) > 0 &&
           group_of(c) >= 2 && c->gpu->nvlink_bw > 0;
}

int st_coll_check(const st_cluster_cfg *c, st_coll_op op, st_coll_algo algo, st_coll_proto proto,
                  int64_t n, st_coll_field *field, st_err *err)
{
    int64_t grp = group_of(c);
    *field = ST_COLL_FIELD_GPUS;
    if (rule_send_recv(op, n, err))
        return ST_EINVAL;
    *field = ST_COLL_FIELD_ALGO;
    if (rule_all_reduce_only(op, algo, err))
        return ST_EINVAL;
    *field = ST_COLL_FIELD_GPUS;
    /* Consecutive ranks from a group's start fill equal groups when they fill whole groups or
     * stay inside one. */
    if (algo == ST_COLL_HIER && n > grp && n % grp)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "hierarchical all-reduce needs whole NVLink groups: %lld GPUs is not a "
                          "multiple of %lld",
                          (long long)n, (long long)grp);
    if (algo != ST_COLL_NVLS)
        return 0;
    *field = ST_COLL_FIELD_ALGO;
    if (!nvls_part(c))
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' needs NVSwitch multicast (a Hopper or Blackwell GPU "
                          "with NVLink), and the cluster's GPU is '%s'",
                          c->gpu && c->gpu->name ? c->gpu->name : "?");
    *field = ST_COLL_FIELD_GPUS;
    if (n > grp)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "nvls reduces inside one NVLink domain: %lld GPUs is more than its %lld",
                          (long long)n, (long long)grp);
    *field = ST_COLL_FIELD_PROTO;
    return rule_nvls_simple(algo, proto, err);
}
