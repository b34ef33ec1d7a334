/* Which training jobs have run in each rack, and a job's thermal neighbourhood found from them
 * (rack_jobs.h). */
#include "models/forecast/rack_jobs.h"

#include <stdlib.h>
#include <string.h>

#include "models/config/racks.h"
#include "sim/xalloc.h"

void st__rack_jobs_init(st__rack_jobs *r, const st_cluster_cfg *c, size_t n_jobs)
{
    memset(r, 0, sizeof *r);
    r->n_racks = st_racks_count(c);
    size_t nr = r->n_racks > 0 ? (size_t)r->n_racks : 1, nj = n_jobs ? n_jobs : 1;
    r->n_jobs = n_jobs;
    r->in = st_xcalloc(nr, sizeof *r->in);
    r->n_in = st_xcalloc(nr, sizeof *r->n_in);
    r->cap_in = st_xcalloc(nr, sizeof *r->cap_in);
    r->rack_on = st_xcalloc(nr, 1);
    r->racks = st_xcalloc(nj, sizeof *r->racks);
    r->at = st_xcalloc(nj, sizeof *r->at);
    r->n_racks_of = st_xcalloc(nj, sizeof *r->n_racks_of);
    r->in_now = st_xcalloc(nj, 1);
    r->job_on = st_xcalloc(nj, 1);
}

void st__rack_jobs_release(st__rack_jobs *r)
{
    for (int64_t k = 0; k < r->n_racks; k++)
        free(r->in[k]);
    for (size_t j = 0; j < r->n_jobs; j++) {
        free(r->racks[j]);
        free(r->at[j]);
    }
    free(r->in);
    free(r->n_in);
    free(r->cap_in);
    free(r->rack_on);
    free(r->racks);
    free(r->at);
    free(r->n_racks_of);
    free(r->in_now);
    free(r->job_on);
    free(r->queue);
    memset(r, 0, sizeof *r);
}

/* Marks rack k reached and queues it, once. */
static void reach(st__rack_jobs *r, int64_t k)
{
    if (r->rack_on[k])
        return;
    r->rack_on[k] = 1;
    r->queue = st_xgrow(r->queue, sizeof *r->queue, r->n_queue + 1, &r->cap_queue);
    r->queue[r->n_queue++] = k;
}

/* Job j's racks, each once, the first time: marked in rack_on (clear between closures) while
 * collected. */
static void racks_of(st__rack_jobs *r, const st_cluster_cfg *c, size_t j, const int64_t *gpus,
                     int64_t n)
{
    int64_t *mine = st_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *mine);
    size_t m = 0;
    st_racks_cursor at = {0};
    for (int64_t g = 0; g < n; g++) {
        int64_t k = st_racks_of_gpu_at(c, &at, gpus[g]);
        if (!r->rack_on[k]) {
            r->rack_on[k] = 1;
            mine[m++] = k;
        }
    }
    for (size_t i = 0; i < m; i++)
        r->rack_on[mine[i]] = 0;
    r->racks[j] = st_xrealloc(mine, (m ? m : 1) * sizeof *mine); /* its racks, not its GPUs */
    r->at[j] = st_xmalloc((m ? m : 1) * sizeof *r->at[j]);
    r->n_racks_of[j] = m;
}

void st__rack_jobs_add(st__rack_jobs *r, const st_cluster_cfg *c, size_t j, const int64_t *gpus,
                       int64_t n)
{
    if (j >= r->n_jobs || r->in_now[j] || (!r->racks[j] && !gpus))
        return;
    if (!r->racks[j])
        racks_of(r, c, j, gpus, n);
    for (size_t i = 0; i < r->n_racks_of[j]; i++) {
        int64_t k = r->racks[j][i];
        r->in[k] = st_xgrow(r->in[k], sizeof *r->in[k], r->n_in[k] + 1, &r->cap_in[k]);
        r->at[j][i] = r->n_in[k];
        r->in[k][r->n_in[k]++] = j;
    }
    r->in_now[j] = 1;
}

/* The place of rack k in job j's racks. */
static size_t slot_of(const st__rack_jobs *r, size_t j, int64_t k)
{
    size_t i = 0;
    while (r->racks[j][i] != k)
        i++;
    return i;
}

void st__rack_jobs_remove(st__rack_jobs *r, size_t j)
{
    if (j >= r->n_jobs || !r->in_now[j])
        return;
    for (size_t i = 0; i < r->n_racks_of[j]; i++) { /* swap the rack's last job into its place */
        int64_t k = r->racks[j][i];
        size_t p = r->at[j][i], last = r->in[k][--r->n_in[k]];
        if (last != j) {
            r->in[k][p] = last;
            r->at[last][slot_of(r, last, k)] = p;
        }
    }
    r->in_now[j] = 0;
}

/* Takes job j: into out, its racks reached. */
static void take(st__rack_jobs *r, size_t j, size_t *out, size_t *n_out)
{
    r->job_on[j] = 1;
    out[(*n_out)++] = j;
    for (size_t i = 0; i < r->n_racks_of[j]; i++)
        reach(r, r->racks[j][i]);
}

/* Whether service s has a GPU in a rack reached; if so its racks are reached too. */
static int join_service(st__rack_jobs *r, const st_cluster_cfg *c, const st_plant_job *s)
{
    st_racks_cursor at = {0};
    int64_t g = 0;
    while (g < s->n_gpus && !r->rack_on[st_racks_of_gpu_at(c, &at, s->gpus[g])])
        g++;
    if (g == s->n_gpus)
        return 0;
    at = (st_racks_cursor){0};
    for (g = 0; g < s->n_gpus; g++)
        reach(r, st_racks_of_gpu_at(c, &at, s->gpus[g]));
    return 1;
}

size_t st__rack_jobs_closure(st__rack_jobs *r, const st_cluster_cfg *c, size_t target,
                             const int *running, const st_plant_job *steady, size_t ns, size_t *out)
{
    size_t n_out = 0, head = 0;
    unsigned char *joined = st_xcalloc(ns ? ns : 1, 1);
    r->n_queue = 0;
    if (target < r->n_jobs)
        take(r, target, out, &n_out);
    for (int grew = 1; grew;) {
        for (; head < r->n_queue; head++) {
            int64_t k = r->queue[head];
            for (size_t i = 0; i < r->n_in[k]; i++) {
                size_t j = r->in[k][i];
                if (!r->job_on[j] && running[j])
                    take(r, j, out, &n_out);
            }
        }
        grew = 0; /* a service beside a rack reached carries the reach to its own racks */
        for (size_t s = 0; s < ns; s++)
            if (!joined[s] && join_service(r, c, &steady[s]))
                joined[s] = grew = 1;
    }
    for (size_t i = 0; i < r->n_queue; i++)
        r->rack_on[r->queue[i]] = 0;
    for (size_t i = 0; i < n_out; i++)
        r->job_on[out[i]] = 0;
    free(joined);
    return n_out;
}
