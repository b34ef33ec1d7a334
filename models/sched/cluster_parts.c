/* The scheduler of a cluster of several pools (docs/models/pools.md, "Scheduling by pool"):
 * one instance of the scenario's policy per pool, a partition, as Slurm runs one partition per
 * GPU type (each with its own queue, backfill and limits; "Slurm Workload Manager: Partition
 * Configuration", slurm.conf) and Kueue gives each resource flavor its own quota. A partition's
 * policy sees its pool's jobs alone, numbered from 0, and its pool's free, total and releasing
 * GPU counts, so every policy respects pools unchanged: none offers a job whose pool is full,
 * and none holds a queue behind a job of another pool. Quotas apply within each pool. An event
 * marks the partitions it touched; a decision asks those alone to pick, so a run costs no more
 * per event with a thousand pools than with two. */
#include <stdlib.h>

#include "models/config/pools.h"
#include "models/sched/cluster_internal.h"
#include "sim/xalloc.h"

static int part_of(const st_sched_view *v, size_t id)
{
    return v->sp->pool ? v->sp->pool[id] : 0;
}

/* Job id's GPUs in pool k: all of them in its own, or its share for a job across pools. */
static int64_t gpus_in(const st_sched_view *v, size_t id, int k)
{
    const int64_t *s = v->sp->span ? v->sp->span[id] : NULL;
    return s ? s[k] : k == part_of(v, id) ? v->sj[id].gpus : 0;
}

/* Each job into its pool's partition, numbered there in the run's id order. */
static void assign_jobs(st_sched_view *v)
{
    size_t n = v->sp->n;
    v->lid = st_xmalloc((n ? n : 1) * sizeof *v->lid);
    v->ppos = st_xmalloc((n ? n : 1) * sizeof *v->ppos);
    for (size_t i = 0; i < n; i++)
        v->lid[i] = v->parts[part_of(v, i)].n++;
    for (int k = 0; k < v->n_pools; k++) {
        st__cl_part *p = &v->parts[k];
        size_t m = p->n ? p->n : 1;
        p->sj = st_xmalloc(m * sizeof *p->sj);
        p->gid = st_xmalloc(m * sizeof *p->gid);
        p->running = st_xmalloc(m * sizeof *p->running);
        p->n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        st__cl_part *p = &v->parts[part_of(v, i)];
        p->gid[p->n] = i;
        p->sj[p->n] = v->sj[i];
        p->sj[p->n].id = p->n;
        p->sj[p->n].gpus = gpus_in(v, i, part_of(v, i)); /* a job across pools: its share */
        p->n++;
    }
}

/* The partitions to ask again when pool k's free GPUs change: k, and the partitions of the
 * jobs across pools with a share in k (each starts only when every pool it spans has room), as
 * link_off/links, k's from links[link_off[k]]. */
static void link_spans(st_sched_view *v)
{
    int np = v->n_pools;
    v->link_off = st_xcalloc((size_t)np + 1, sizeof *v->link_off);
    if (!v->sp->span) {
        v->links = st_xmalloc(sizeof *v->links);
        return;
    }
    unsigned char *seen = st_xcalloc((size_t)np * (size_t)np, 1);
    size_t n = 0;
    for (size_t i = 0; v->sp->span && i < v->sp->n; i++)
        for (int k = 0; v->sp->span[i] && k < np; k++)
            if (v->sp->span[i][k] && k != part_of(v, i) && !seen[k * np + part_of(v, i)]++)
                n++;
    v->links = st_xmalloc((n ? n : 1) * sizeof *v->links);
    for (int k = 0; k < np; k++) {
        v->link_off[k + 1] = v->link_off[k];
        for (int h = 0; h < np; h++)
            if (seen[k * np + h])
                v->links[v->link_off[k + 1]++] = h;
    }
    free(seen);
}

int st__cl_parts_init(st_sched_view *v, st_err *err)
{
    if (v->n_pools <= 1)
        return 0;
    const st_cluster_spec *sp = v->sp;
    v->parts = st_xcalloc((size_t)v->n_pools, sizeof *v->parts);
    v->dirty = st_xmalloc((size_t)v->n_pools * sizeof *v->dirty);
    v->picking = st_xmalloc((size_t)v->n_pools * sizeof *v->picking);
    assign_jobs(v);
    link_spans(v);
    size_t size = v->pol->state_size ? v->pol->state_size : 1;
    for (int k = 0; k < v->n_pools; k++) {
        st__cl_part *p = &v->parts[k];
        st__waitset_init(&p->waiting, v->pools[k].total);
        p->pst = st_xcalloc(1, size);
        /* each pool's draws its own: the run's seed for the first, as its placer has */
        st_sched_params prm = {sp->sched,   st__cl_pool_gpus(v, k), p->n, sp->seed + (uint64_t)k,
                               sp->tenants, sp->n_tenants};
        int rc = v->pol->configure(p->pst, &prm, err);
        if (rc)
            return rc;
    }
    return 0;
}

void st__cl_parts_release(st_sched_view *v)
{
    for (int k = 0; v->parts && k < v->n_pools; k++) {
        st__cl_part *p = &v->parts[k];
        if (p->pst)
            v->pol->release(p->pst);
        free(p->pst);
        free(p->sj);
        free(p->gid);
        free(p->running);
        st__waitset_release(&p->waiting);
    }
    free(v->parts);
    free(v->lid);
    free(v->ppos);
    free(v->dirty);
    free(v->picking);
    free(v->link_off);
    free(v->links);
    for (size_t i = 0; v->span_rel && i < v->sp->n; i++)
        free(v->span_rel[i]);
    free(v->span_rel);
}

static void mark(st_sched_view *v, int k)
{
    if (v->parts[k].dirty)
        return;
    v->parts[k].dirty = 1;
    v->dirty[v->n_dirty++] = k;
}

void st__cl_dirty_part(st_sched_view *v, int k)
{
    if (!v->parts || k < 0)
        return;
    mark(v, k);
    for (size_t j = v->link_off[k]; j < v->link_off[k + 1]; j++)
        mark(v, v->links[j]); /* a job across pools there may start now */
}

void st__cl_dirty_job(st_sched_view *v, size_t id)
{
    if (!v->parts)
        return;
    st__cl_dirty_part(v, part_of(v, id));
    const int64_t *s = v->sp->span ? v->sp->span[id] : NULL;
    for (int k = 0; s && k < v->n_pools; k++)
        if (s[k]) /* its GPUs there come back too */
            st__cl_dirty_part(v, k);
}

void st__cl_dirty_gpus(st_sched_view *v, int64_t lo, int64_t n)
{
    if (!v->parts || n < 1)
        return;
    const st_cluster_cfg *c = v->sp->c;
    for (int k = st_pools_of_gpu(c, lo); k <= st_pools_of_gpu(c, lo + n - 1); k++)
        st__cl_dirty_part(v, k);
}

void st__cl_parts_arrival(st_sched_view *v, size_t id)
{
    if (!v->parts) {
        v->pol->on_arrival(v->pst, &v->sj[id]);
        return;
    }
    st__cl_part *p = &v->parts[part_of(v, id)];
    v->pol->on_arrival(p->pst, &p->sj[v->lid[id]]);
    st__cl_dirty_job(v, id);
}

void st__cl_parts_finish(st_sched_view *v, size_t id)
{
    if (!v->parts) {
        v->pol->on_finish(v->pst, &v->sj[id]);
        return;
    }
    st__cl_part *p = &v->parts[part_of(v, id)];
    v->pol->on_finish(p->pst, &p->sj[v->lid[id]]);
    st__cl_dirty_job(v, id);
}

void st__cl_parts_running(st_sched_view *v, size_t id, int on)
{
    if (!v->parts)
        return;
    st__cl_part *p = &v->parts[part_of(v, id)];
    if (on) {
        v->ppos[id] = (uint32_t)p->n_running;
        p->running[p->n_running++] = v->lid[id];
        return;
    }
    size_t last = p->running[--p->n_running];
    p->running[v->ppos[id]] = last;
    v->ppos[p->gid[last]] = v->ppos[id];
}

void st__cl_wait(st_sched_view *v, size_t id, int add)
{
    (add ? st__waitset_add : st__waitset_remove)(&v->waiting, v->sj[id].gpus);
    if (v->parts) /* a job across pools waits in its own with its share there */
        (add ? st__waitset_add : st__waitset_remove)(&v->parts[part_of(v, id)].waiting,
                                                     gpus_in(v, id, part_of(v, id)));
}

/* A job across pools' GPUs counted in each pool's releasing now (span_rel, by pool): those of
 * its GPUs there that are up as it starts a save or a failure's hold, less any that fail during
 * it; all taken back at its release. */
static int64_t *span_rel(st_sched_view *v, size_t id)
{
    if (!v->span_rel)
        v->span_rel = st_xcalloc(v->sp->n, sizeof *v->span_rel);
    if (!v->span_rel[id])
        v->span_rel[id] = st_xcalloc((size_t)v->n_pools, sizeof *v->span_rel[id]);
    return v->span_rel[id];
}

void st__cl_releasing(st_sched_view *v, size_t id, int64_t rel)
{
    v->releasing += rel;
    if (!v->parts)
        return;
    if (!v->sp->span || !v->sp->span[id]) {
        v->parts[part_of(v, id)].releasing += rel;
        return;
    }
    int64_t *r = span_rel(v, id);
    for (int k = 0; k < v->n_pools; k++) { /* a release takes back what each pool was given */
        v->parts[k].releasing -= r[k];
        r[k] = 0;
    }
    if (rel <= 0)
        return;
    const int64_t *g = v->gpus + v->js[id].gpu_off; /* a hold: its GPUs that will come back */
    for (int64_t q = 0; q < v->sj[id].gpus; q++)
        if (!v->has_out || !v->outs.down[g[q]])
            r[st_pools_of_gpu(v->sp->c, g[q])]++;
    for (int k = 0; k < v->n_pools; k++)
        v->parts[k].releasing += r[k];
}

void st__cl_releasing_gpu(st_sched_view *v, size_t id, int64_t gpu)
{
    v->releasing--;
    if (!v->parts)
        return;
    int k = st_pools_of_gpu(v->sp->c, gpu); /* a job in one pool: its own */
    v->parts[k].releasing--;
    if (v->sp->span && v->sp->span[id])
        span_rel(v, id)[k]--;
}

/* Partition k's fragmented GPUs now, into the run's sum: its free GPUs while even its smallest
 * waiting job asks for more (the cluster's figure, cluster.c fragmentation, pool by pool: a free
 * GPU of one pool is not fragmented because a job of another waits). GPUs held for a job across
 * pools are not free to its jobs, and not fragmented: they wait for that job. */
static void refragment(st_sched_view *v, int k)
{
    st__cl_part *p = &v->parts[k];
    int64_t least = st__waitset_min(&p->waiting), free = st__cl_free(v, k);
    int64_t now = least > free ? free : 0;
    v->frag_sum += now - p->frag;
    p->frag = now;
}

void st__cl_parts_pick(st_sched_view *v)
{
    /* the list taken first: a pick that preempts marks its partition for the next decision */
    int n = v->n_dirty;
    for (int i = 0; i < n; i++) {
        v->picking[i] = v->dirty[i];
        v->parts[v->dirty[i]].dirty = 0;
    }
    v->n_dirty = 0;
    for (int i = 0; i < n; i++) {
        v->cur = &v->parts[v->picking[i]];
        v->pol->pick(v->cur->pst, v);
        v->cur = NULL;
        refragment(v, v->picking[i]);
    }
}

void st__cl_parts_busy(st_sched_view *v, size_t id, double gpu_s)
{
    if (!v->parts)
        return;
    if (!v->sp->span || !v->sp->span[id]) {
        v->parts[part_of(v, id)].busy_gpu_s += gpu_s;
        return;
    }
    for (int k = 0; k < v->n_pools; k++) /* each pool its share of a job across pools' time */
        v->parts[k].busy_gpu_s += gpu_s * (double)gpus_in(v, id, k) / (double)v->sj[id].gpus;
}

void st__cl_parts_stats(st_sched_view *v)
{
    st_cluster_result *r = v->out;
    if (!v->parts)
        return;
    r->n_pool = v->n_pools;
    r->pool = st_xcalloc((size_t)v->n_pools, sizeof *r->pool);
    for (int k = 0; !v->n_saving && k < v->n_pools; k++) /* no save or hold left: none released */
        if (v->parts[k].releasing != 0)
            ST_BUG("pool %d counts %lld GPUs releasing with none saving", k,
                   (long long)v->parts[k].releasing);
    double *wait = st_xcalloc((size_t)v->n_pools, sizeof *wait);
    for (size_t i = 0; i < r->n; i++) {
        if ((v->sp->part &&
             v->sp->part[i])) /* a part of another job (cluster.h): its GPU time only */
            continue;
        st_cluster_pool_stats *p = &r->pool[part_of(v, i)];
        p->jobs += r->job[i].state != ST_CJ_TOO_BIG;
        if (r->job[i].state == ST_CJ_FINISHED) {
            p->finished++;
            wait[part_of(v, i)] += r->job[i].wait_s;
        }
    }
    double span = r->st.makespan_s;
    for (int k = 0; k < v->n_pools; k++) {
        st_cluster_pool_stats *p = &r->pool[k];
        p->mean_wait_s = p->finished ? wait[k] / (double)p->finished : 0;
        double held = (double)st__cl_pool_gpus(v, k) * span;
        p->utilization = held > 0 ? v->parts[k].busy_gpu_s / held : 0;
    }
    free(wait);
}
