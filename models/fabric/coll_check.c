/* What a collective spec may say: the names of its operations, algorithms and protocols, and the
 * rules between them, the cluster and the ranks, checked when a collective starts. */
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

static const st_loc nowhere = {0};

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
    if ((s->algo == ST_COLL_TREE || s->algo == ST_COLL_HIER || s->algo == ST_COLL_NVLS) &&
        s->op != ST_COLL_ALL_REDUCE)
        return st_err_set(err, ST_EINVAL, nowhere, "algorithm '%s' is for all-reduce only",
                          st_coll_algo_name(s->algo));
    if (s->algo == ST_COLL_NVLS && cm->nvls_eff <= 0)
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' needs NVSwitch multicast (a Hopper or Blackwell GPU "
                          "in an NVLink domain)");
    if (s->algo == ST_COLL_NVLS &&
        (s->proto == ST_COLL_PROTO_LL || s->proto == ST_COLL_PROTO_LL128))
        return st_err_set(err, ST_EINVAL, nowhere,
                          "algorithm 'nvls' runs the Simple protocol only");
    if (s->op == ST_COLL_SEND_RECV && s->n != 2)
        return st_err_set(err, ST_EINVAL, nowhere, "send-recv takes 2 gpus, not %lld",
                          (long long)s->n);
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
