/* The cluster run on a cluster of several pools (docs/models/pools.md): a job is placed on its
 * own pool's nodes alone. Each pool has its own free-GPU pool and placer over its nodes numbered
 * from 0, so every placement policy works unchanged inside one pool; the cluster's pool keeps the
 * whole count the policies and the failures read, in the cluster's GPU ids. */
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/sched/cluster_internal.h"
#include "sim/xalloc.h"

/* The first n GPUs of pool p held for good: the padding before a pool's own nodes. */
static void hold_padding(st_pool *p, int64_t n)
{
    if (n < 1)
        return;
    int64_t *g = st_xmalloc((size_t)n * sizeof *g);
    for (int64_t i = 0; i < n; i++)
        g[i] = i;
    st_pool_take(p, g, n);
    free(g);
}

void st__cl_pools_init(st_sched_view *v, const st_place_policy *pl)
{
    const st_cluster_cfg *c = v->sp->c;
    if (c->n_pools <= 1)
        return;
    v->n_pools = c->n_pools;
    v->pools = st_xcalloc((size_t)c->n_pools, sizeof *v->pools);
    v->placers = st_xcalloc((size_t)c->n_pools, sizeof *v->placers);
    v->pad = st_xcalloc((size_t)c->n_pools, sizeof *v->pad);
    int64_t most = 1;
    for (int k = 0; k < c->n_pools; k++) {
        st_cluster_cfg one;
        st_pools_view(c, k, &one);
        /* numbered from the first node of its first leaf, so that its placer's leaves are the
         * fabric's; the nodes before it there are another pool's, held for good */
        int64_t npl = c->fabric.nodes_per_leaf, before = npl > 1 ? c->pools[k].first_node % npl : 0;
        one.nodes = c->pools[k].nodes + before;
        st_pool_init(&v->pools[k], &one);
        v->pad[k] = before * v->pools[k].per_node;
        hold_padding(&v->pools[k], v->pad[k]);
        st_placer_init(&v->placers[k], pl, &one);
        /* each pool's draws its own: the run's seed for the first, as a one-pool run has it */
        st_placer_seed(&v->placers[k], v->sp->seed + (uint64_t)k);
        most = v->pools[k].total > most ? v->pools[k].total : most;
    }
    v->local = st_xmalloc((size_t)most * sizeof *v->local);
    v->claim = st_xcalloc((size_t)c->n_pools, sizeof *v->claim);
}

void st__cl_pools_release(st_sched_view *v)
{
    for (int k = 0; k < v->n_pools; k++) {
        st_placer_release(&v->placers[k]);
        st_pool_release(&v->pools[k]);
    }
    free(v->pools);
    free(v->placers);
    free(v->local);
    free(v->pad);
    free(v->claim);
}

const st_cluster_cfg *st__cl_whole(const st_cluster_cfg *c, st_cluster_cfg *flat)
{
    if (st_pools_one_node_size(c))
        return c;
    *flat = *c;
    flat->nodes = st_pools_cluster_gpus(c);
    flat->gpus_per_node = 1;
    flat->fabric.nodes_per_leaf = flat->nodes; /* one leaf: no placer asks it where */
    return flat;
}

/* Job id's pool. */
static int pool_of(const st_sched_view *v, size_t id)
{
    return v->sp->pool ? v->sp->pool[id] : 0;
}

/* The cluster's id of pool k's local GPU 0 (its padding's first, when it has padding). */
static int64_t first_gpu(const st_sched_view *v, int k)
{
    return st_pools_first_gpu(v->sp->c, k) - v->pad[k];
}

/* Job id's GPUs in pool k: its share there for a job across pools (cluster.h's span). */
static const int64_t *span_of(const st_sched_view *v, size_t id)
{
    return v->sp->span && v->n_pools ? v->sp->span[id] : NULL;
}

int64_t st__cl_room(const st_sched_view *v, size_t id)
{
    if (!v->n_pools)
        return v->pool.total;
    const int64_t *s = span_of(v, id);
    for (int k = 0; s && k < v->n_pools; k++)
        if (s[k] > st__cl_pool_gpus(v, k))
            return 0; /* a share its pool cannot hold: never submitted */
    if (s)
        return v->sj[id].gpus;
    int k = pool_of(v, id);
    return k >= 0 && k < v->n_pools ? st__cl_pool_gpus(v, k) : 0;
}

/* n GPUs of pool k for a job, into g in the cluster's ids: 0, or ST_ERANGE when not now. */
static int choose_in(st_sched_view *v, int k, int64_t n, int64_t *g)
{
    int rc = st_placer_take(&v->placers[k], &v->pools[k], n, g);
    for (int64_t r = 0; !rc && r < n; r++)
        g[r] += first_gpu(v, k);
    return rc;
}

int64_t st__cl_free(const st_sched_view *v, int k)
{
    int64_t f = v->pools[k].free - v->claim[k];
    return f > 0 ? f : 0;
}

/* Whether pool k has n GPUs for job id: its free ones, less those held for another job. */
static int has_room(const st_sched_view *v, int k, int64_t n, size_t id)
{
    return n <= (v->claimant == id + 1 ? v->pools[k].free : st__cl_free(v, k));
}

/* Job id across pools (shares s), offered by its queue, finds no room in some pool: unless
 * another job holds shares already, its shares outside its own pool are held for it from now
 * until it starts, so that those pools' policies cannot keep filling them (Slurm's backfill
 * plans a pending heterogeneous job's components like any other job's, lower-priority jobs
 * not starting where they would delay it: "Heterogeneous Job Support"). One holder at a time,
 * the first refused: its own pool holds nothing for it, so its queue still sees all its free
 * GPUs, and no two jobs can each hold what the other needs. */
static int hold(st_sched_view *v, size_t id, const int64_t *s)
{
    if (!v->claimant) {
        v->claimant = id + 1;
        for (int k = 0; k < v->n_pools; k++)
            v->claim[k] = k == pool_of(v, id) ? 0 : s[k];
    }
    return ST_ERANGE;
}

/* Job id's shares s, each chosen by its pool's placer, into g in pool order: 0, or ST_ERANGE
 * with nothing taken (a Slurm heterogeneous job starts when all its components can). */
static int choose_span(st_sched_view *v, size_t id, const int64_t *s, int64_t *g)
{
    for (int k = 0; k < v->n_pools; k++)
        if (s[k] && !has_room(v, k, s[k], id))
            return hold(v, id, s);
    int64_t at = 0;
    for (int k = 0; k < v->n_pools; k++) { /* in pool order: each pool's GPUs one run of ranks */
        if (s[k] && choose_in(v, k, s[k], g + at))
            return hold(v, id, s);
        at += s[k];
    }
    if (v->claimant == id + 1) { /* it starts: what was held for it is its own now */
        v->claimant = 0;
        memset(v->claim, 0, (size_t)v->n_pools * sizeof *v->claim);
    }
    return 0;
}

int st__cl_choose(st_sched_view *v, size_t id, int64_t *g)
{
    int64_t n = v->sj[id].gpus;
    if (!v->n_pools)
        return st_placer_take(&v->place, &v->pool, n, g);
    const int64_t *s = span_of(v, id);
    if (s)
        return choose_span(v, id, s, g);
    int k = pool_of(v, id);
    return has_room(v, k, n, id) ? choose_in(v, k, n, g) : ST_ERANGE;
}

/* gpus[0 .. n) held or free again in their pools: each run of GPUs of one pool at once, in the
 * pool's numbering (a failed rack may span two pools). */
static void mark_pools(st_sched_view *v, const int64_t *gpus, int64_t n, int take)
{
    for (int64_t r = 0; r < n;) {
        int k = st_pools_of_gpu(v->sp->c, gpus[r]);
        int64_t lo = first_gpu(v, k), m = 0;
        for (; r < n && gpus[r] >= lo && gpus[r] < lo + v->pools[k].total; r++)
            v->local[m++] = gpus[r] - lo;
        if (take)
            st_pool_take(&v->pools[k], v->local, m);
        else
            st_pool_give(&v->pools[k], v->local, m);
    }
}

void st__cl_take(st_sched_view *v, const int64_t *gpus, int64_t n)
{
    st_pool_take(&v->pool, gpus, n);
    if (v->n_pools)
        mark_pools(v, gpus, n, 1);
}

void st__cl_give(st_sched_view *v, const int64_t *gpus, int64_t n)
{
    st_pool_give(&v->pool, gpus, n);
    if (v->n_pools)
        mark_pools(v, gpus, n, 0);
}
