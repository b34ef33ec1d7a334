/* A workload's `pool` and `pool_batch` keys: the pool it runs on, or a training job's GPUs in
 * each of several pools and their shares of its batch (docs/models/pools.md, "A job across
 * pools"), read and checked against its plan; and the cluster its plan must fit in. */
#include <string.h>

#include "models/config/pools.h"
#include "models/silicon/gpu.h"
#include "models/silicon/ops.h"
#include "models/silicon/plan_check.h"
#include "scenarios/load_internal.h"

/* A mapping of pool names to whole numbers of at least 1 and at most max (`what` names them in
 * errors): one a pool, 0 for those it leaves out, or NULL after an error; *first the pool its
 * first key names, when that key reads. */
static int64_t *pool_counts(st_ld *ld, const st_ynode *n, const char *what, double max, int *first)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    int bad = 0;
    int64_t *v = st_rd_alloc(&ld->rd, (size_t)(c->n_pools ? c->n_pools : 1) * sizeof *v);
    for (size_t i = 0; i < n->n; i++) {
        int k = 0;
        int64_t x = 0;
        if (st__pool_named(ld, n->keys[i], &k) ||
            st_rd_int(&ld->rd, n->kids[i], what, ST_R_MIN1, max, &x)) {
            bad = 1;
            continue;
        }
        if (i == 0)
            *first = k;
        v[k] = x;
    }
    return bad ? NULL : v;
}

/* `pool: {NAME: GPUS, ...}`: a training job's GPUs in each of several pools, the first named
 * its own (where it queues); the derive checks them against its plan (st__span_check). */
static int pool_span(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    if (n->n < 2)
        return st_rd_fail(&ld->rd, n, ST_EINVAL,
                          "pool: a job across pools names two or more ({h100: 256, b200: 256}); "
                          "name one pool as pool: NAME");
    w->pool_gpus = pool_counts(ld, n, "pool GPUs", 1e9, &w->pool);
    return w->pool_gpus ? 0 : -1;
}

/* `pool_batch: {NAME: SEQUENCES, ...}`: each pool's share of a job across pools' global batch
 * (an uneven split); st__span_check holds it to the job's pools and plan. */
int st__fn_pool_batch(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_workload_cfg *w = base;
    const st_cluster_cfg *c = &ld->s->cluster;
    if (n->kind == ST_YN_SCALAR && strcmp(n->text, "balanced") == 0) {
        w->pool_batch_balanced = 1;
        return 0;
    }
    if (n->kind == ST_YN_SCALAR)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "pool_batch: expected a mapping of pool to sequences a step, or "
                          "'balanced'; found '%s'",
                          n->text);
    if (st_rd_expect(rd, n, ST_YN_MAP, "pool_batch"))
        return -1;
    if (!c->n_pools)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "pool_batch: splits a job across pools, and this cluster has one GPU "
                          "type (pools are named under cluster.pools)");
    int first = 0;
    w->pool_batch = pool_counts(ld, n, "pool_batch sequences", 1e12, &first);
    return w->pool_batch ? 0 : -1;
}

/* `pool:` names an entry of cluster.pools (a cluster of one GPU type has none to name), or maps
 * several to a training job's GPUs in each. */
int st__fn_pool(st_rd *rd, const st_ynode *n, void *base)
{
    st_ld *ld = st__ld(rd);
    st_workload_cfg *w = base;
    w->pool_loc = n->loc;
    if (n->kind == ST_YN_MAP && !ld->s->cluster.n_pools && ld->s->pools)
        return -1; /* cluster.pools has an error of its own */
    if (n->kind == ST_YN_MAP && !ld->s->cluster.n_pools)
        return st_rd_fail(rd, n, ST_EINVAL,
                          "pool: a job across pools needs a cluster of several; this one has one "
                          "GPU type (pools are named under cluster.pools)");
    if (n->kind == ST_YN_MAP)
        return pool_span(ld, n, w);
    if (st_rd_expect(rd, n, ST_YN_SCALAR, "pool"))
        return -1;
    return st__pool_named(ld, n, &w->pool);
}

void st__pool_room(const st_ld *ld, const st_workload_cfg *w, st_cluster_cfg *out)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    st_pools_view(c, w->pool, out);
    out->nodes = st_pools_nodes(c, w->pool);
    /* A job across pools: st__span_check holds each pool's share to that pool, and the shares
       to the job's gpus, so the plan is held to the whole cluster here, as no one pool is its
       room; the sum of its pools' GPUs named "the cluster" would be neither. */
    if (w->pool_gpus) {
        out->nodes = c->nodes;
        out->view_of = NULL;
    }
    /* On nodes of several sizes no one node size counts the cluster's GPUs (this view's would
     * give nodes x its own), so a job across pools is counted by st__span_check alone: its
     * shares, each within its pool, sum to its gpus, which each pool's view holds. */
    if (w->pool_gpus && !st_pools_one_node_size(c)) {
        out->nodes = (int64_t)ST_PLAN_MAX_GPUS;
        out->gpus_per_node = 1;
    }
}

/* pool_batch against the job's pools and plan: a share for each pool it spans and none other,
 * whole sequences for each of that pool's data-parallel replicas (and whole micro-batches, where
 * the plan states one), summing to its global batch. */
static int batch_check(st_ld *ld, const st_ynode *at, const st_workload_cfg *w)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    const st_parallel_cfg *p = &w->parallel;
    int64_t rep = p->tp * p->cp * p->pp, mb = p->microbatch ? p->microbatch : 1, sum = 0;
    for (int k = 0; k < c->n_pools; k++) {
        int64_t b = w->pool_batch[k], dp_k = w->pool_gpus[k] / rep;
        if (!b != !w->pool_gpus[k])
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "workload '%s': pool_batch %s pool '%s', which its pool %s", w->name,
                              b ? "names" : "leaves out", c->pools[k].name,
                              b ? "does not name" : "names");
        if (b && b % (dp_k * mb))
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "workload '%s': pool_batch gives pool '%s' %lld sequences, not a "
                              "multiple of its %lld data-parallel replicas x micro-batch %lld",
                              w->name, c->pools[k].name, (long long)b, (long long)dp_k,
                              (long long)mb);
        sum += b;
    }
    if (sum != w->global_batch)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': pool_batch sums to %lld sequences, but global_batch is "
                          "%lld",
                          w->name, (long long)sum, (long long)w->global_batch);
    return 0;
}

/* Job w across pools is stepped on each of its pools' views packed from GPU 0 (the pace is
 * chosen there, models/forecast/run.c): the cluster's nodes at that pool's node size, which hold
 * fewer GPUs than the cluster where another pool's nodes are larger. Never refused on pools of
 * one node size, whose views hold the cluster's GPUs. */
static int view_fit(st_ld *ld, const st_ynode *at, const st_workload_cfg *w)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    for (int k = 0; k < c->n_pools; k++)
        if (w->pool_gpus[k] && w->gpus > st_pools_view_gpus(c, k))
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "workload '%s': its step on pool '%s' (%s) is timed on the "
                              "cluster's %lld nodes at that pool's %lld GPUs a node, which hold "
                              "%lld of its %lld GPUs (a job across pools of several node sizes "
                              "must fit each pool's view, docs/models/pools.md)",
                              w->name, c->pools[k].name, c->pools[k].gpu->name, (long long)c->nodes,
                              (long long)st_pools_gpus_per_node(c, k),
                              (long long)st_pools_view_gpus(c, k), (long long)w->gpus);
    return 0;
}

/* A training job across pools (pool: {NAME: GPUS, ...}): its GPUs there sum to gpus, each pool
 * holds its share, and each share is whole data-parallel replicas (tp x cp x pp GPUs), so every
 * replica runs on one type and the gradient reduction is what crosses pools; then the mean dense
 * peak of its GPUs, its MFU's denominator (docs/models/pools.md, "A job across pools"). */
int st__span_check(st_ld *ld, const st_ynode *n, st_workload_cfg *w)
{
    const st_cluster_cfg *c = &ld->s->cluster;
    const st_ynode *at = st_ynode_get(n, "pool");
    const st_parallel_cfg *p = &w->parallel;
    int64_t sum = 0, rep = p->tp * p->cp * p->pp;
    double peak = 0;
    for (int k = 0; k < c->n_pools; k++) {
        int64_t g = w->pool_gpus[k], have = st_pools_gpus(c, k);
        if (!g)
            continue;
        if (g > have)
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "workload '%s': asks for %lld GPUs of pool '%s', which has %lld",
                              w->name, (long long)g, c->pools[k].name, (long long)have);
        if (g % rep)
            return st_rd_fail(&ld->rd, at, ST_EINVAL,
                              "workload '%s': %lld GPUs of pool '%s' are not whole data-parallel "
                              "replicas of tp x cp x pp = %lld GPUs (each replica runs on one "
                              "GPU type)",
                              w->name, (long long)g, c->pools[k].name, (long long)rep);
        sum += g;
        peak += (double)g * st_gpu_peak(c->pools[k].gpu, w->precision);
    }
    if (sum != w->gpus)
        return st_rd_fail(&ld->rd, at, ST_EINVAL,
                          "workload '%s': its GPUs across pools sum to %lld, but gpus is %lld",
                          w->name, (long long)sum, (long long)w->gpus);
    int rc = view_fit(ld, at, w);
    if (rc)
        return rc;
    w->pool_peak = peak / (double)sum;
    return w->pool_batch ? batch_check(ld, st_ynode_get(n, "pool_batch"), w) : 0;
}
