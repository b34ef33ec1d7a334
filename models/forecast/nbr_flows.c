/* The running jobs' cross-leaf flows by the leaves and pods they load (nbr_flows.h). In a
 * spine-leaf fabric a flow from leaf a to leaf b crosses a's uplinks and b's downlinks (and
 * its own NICs, under a or b); across pods also its pods' links to the core. A job's own
 * cross-leaf traffic crosses those of its leaves and pods, so a neighbour's flow that touches
 * none of them shares no link with it. Leaving such a flow out of the job's max-min solve can
 * only speed the flows it competes with elsewhere, which then take more of the links the job
 * shares with them: the job's step beside the flows kept is no faster than beside them all (on
 * every run measured, exactly the same), and the rate stays the most the neighbours' traffic can
 * slow the job (docs/models/scheduler.md). */
#include "models/forecast/nbr_flows.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* A flow's keys: its source and destination leaves, and, when it crosses pods, their pods
 * (after the leaves). Returns how many (2 or 4). */
static int keys_of(const st__nbr_flows *f, const st_topo *t, const int64_t *pair, int64_t *key)
{
    key[0] = st_topo_leaf_of(t, pair[0]);
    key[1] = st_topo_leaf_of(t, pair[1]);
    int64_t pa = st_topo_pod_of(t, pair[0]), pb = st_topo_pod_of(t, pair[1]);
    if (pa == pb)
        return 2;
    key[2] = f->n_leaves + pa;
    key[3] = f->n_leaves + pb;
    return 4;
}

static void add_flow(st__nbr_flows *f, int64_t a, int64_t b, size_t owner)
{
    if (f->n == f->cap) {
        size_t cap = f->cap;
        f->pair = st_xgrow(f->pair, 2 * sizeof *f->pair, f->n + 1, &cap);
        f->owner = st_xrealloc(f->owner, cap * sizeof *f->owner);
        f->cap = cap;
    }
    f->pair[2 * f->n] = a;
    f->pair[2 * f->n + 1] = b;
    f->owner[f->n++] = owner;
}

/* Job k's flows: each GPU to the one a node further in rank order, where that crosses leaves. */
static void job_flows(st__nbr_flows *f, const st_topo *t, const st_placement *p, size_t k,
                      int64_t gpn)
{
    int64_t n = p->n_gpus;
    for (int64_t r = 0; p->leaves > 1 && n > gpn && r < n; r++) {
        int64_t a = p->gpu[r], b = p->gpu[(r + gpn) % n];
        if (st_topo_leaf_of(t, a) != st_topo_leaf_of(t, b))
            add_flow(f, a, b, k);
    }
}

/* The flows by key, each flow under each of its distinct keys, in flow order. */
static void index_keys(st__nbr_flows *f, const st_topo *t)
{
    int64_t key[4], most = -1;
    f->n_leaves = 0;
    for (size_t i = 0; i < 2 * f->n; i++) { /* the leaves any flow touches: keys below */
        int64_t l = st_topo_leaf_of(t, f->pair[i]);
        f->n_leaves = l >= f->n_leaves ? l + 1 : f->n_leaves;
    }
    for (size_t i = 0; i < f->n; i++)
        for (int m = keys_of(f, t, f->pair + 2 * i, key), j = 0; j < m; j++)
            most = key[j] > most ? key[j] : most;
    f->n_keys = (size_t)(most + 1);
    f->at = st_xrealloc(f->at, (f->n_keys + 1) * sizeof *f->at);
    memset(f->at, 0, (f->n_keys + 1) * sizeof *f->at);
    for (size_t i = 0; i < f->n; i++)
        for (int m = keys_of(f, t, f->pair + 2 * i, key), j = 0; j < m; j++)
            f->at[key[j] + 1]++;
    for (size_t k = 0; k < f->n_keys; k++)
        f->at[k + 1] += f->at[k];
    f->idx = st_xrealloc(f->idx, (f->at[f->n_keys] ? f->at[f->n_keys] : 1) * sizeof *f->idx);
    size_t *next = st_xmalloc((f->n_keys ? f->n_keys : 1) * sizeof *next);
    memcpy(next, f->at, f->n_keys * sizeof *next);
    for (size_t i = 0; i < f->n; i++)
        for (int m = keys_of(f, t, f->pair + 2 * i, key), j = 0; j < m; j++)
            f->idx[next[key[j]]++] = i;
    free(next);
}

void st__nbr_flows_build(st__nbr_flows *f, const st_topo *t, const st_placement *at,
                         const int *holding, size_t n, int64_t gpn)
{
    f->n = 0;
    for (size_t k = 0; k < n; k++)
        if (holding[k])
            job_flows(f, t, &at[k], k, gpn > 0 ? gpn : 1);
    index_keys(f, t);
    size_t need = f->n + f->n_keys + 1;
    if (need > f->seen_cap) {
        f->seen = st_xrealloc(f->seen, need * sizeof *f->seen);
        f->seen_cap = need;
    }
    memset(f->seen, 0, need * sizeof *f->seen);
    f->gather = 0;
}

static int by_id(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

/* Takes every flow under key k not of job and not taken yet into ids; returns the new count. */
static size_t take_key(st__nbr_flows *f, int64_t k, size_t job, size_t *ids, size_t m)
{
    if (k < 0 || (size_t)k >= f->n_keys || f->seen[f->n + (size_t)k] == f->gather)
        return m;
    f->seen[f->n + (size_t)k] = f->gather;
    for (size_t q = f->at[k]; q < f->at[k + 1]; q++) {
        size_t i = f->idx[q];
        if (f->owner[i] != job && f->seen[i] != f->gather) {
            f->seen[i] = f->gather;
            ids[m++] = i;
        }
    }
    return m;
}

size_t st__nbr_flows_gather(st__nbr_flows *f, const st_topo *t, const st_placement *p, size_t job,
                            int64_t *bg)
{
    if (!f->n)
        return 0;
    if (++f->gather == 0) { /* wrapped: clear, so that no stale mark matches */
        memset(f->seen, 0, (f->n + f->n_keys + 1) * sizeof *f->seen);
        f->gather = 1;
    }
    size_t *ids = st_xmalloc(f->n * sizeof *ids), m = 0;
    int64_t pod0 = p->n_gpus ? st_topo_pod_of(t, p->gpu[0]) : 0;
    int pods = 0; /* it spans pods: its traffic crosses their links to the core */
    for (int64_t r = 0; r < p->n_gpus; r++)
        pods |= st_topo_pod_of(t, p->gpu[r]) != pod0;
    for (int64_t r = 0; r < p->n_gpus; r++) {
        int64_t leaf = st_topo_leaf_of(t, p->gpu[r]); /* past n_leaves: no flow touches it */
        m = leaf < f->n_leaves ? take_key(f, leaf, job, ids, m) : m;
        if (pods)
            m = take_key(f, f->n_leaves + st_topo_pod_of(t, p->gpu[r]), job, ids, m);
    }
    qsort(ids, m, sizeof *ids, by_id);
    for (size_t j = 0; j < m; j++) {
        bg[2 * j] = f->pair[2 * ids[j]];
        bg[2 * j + 1] = f->pair[2 * ids[j] + 1];
    }
    free(ids);
    return m;
}

void st__nbr_flows_release(st__nbr_flows *f)
{
    free(f->pair);
    free(f->owner);
    free(f->at);
    free(f->idx);
    free(f->seen);
    memset(f, 0, sizeof *f);
}
