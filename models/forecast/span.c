/* A training job across pools (docs/models/pools.md, "A job across pools") as the plant draws
 * it: each pool's GPUs at their own type's power over the job's one step, and its parts' powers
 * summed back into the job's. */
#include "models/config/pools.h"
#include "models/forecast/forecast.h"

size_t st_forecast_plant_jobs(const st_cluster_cfg *c, const st_forecast *f, size_t id,
                              st_plant_job *out)
{
    const int64_t *g = f->gpus;
    int64_t n = f->w->gpus;
    if (!f->w->pool_gpus || c->n_pools <= 0) {
        out[0] = (st_plant_job){&f->step, g, n, id, f->clock, 0};
        return 1;
    }
    /* the runs of its GPUs in one pool: a run's first GPU gives its type (st_plant_job_gpu);
     * every part has the job's id, so the plant gives them one phase offset, in step */
    size_t m = 0;
    for (int64_t r = 0; r < n;) {
        int k = st_pools_of_gpu(c, g[r]);
        int64_t a = r;
        while (r < n && st_pools_of_gpu(c, g[r]) == k)
            r++;
        out[m++] = (st_plant_job){&f->step, g + a, r - a, id, f->clock, 0};
    }
    return m;
}

size_t st_forecast_plant_merge(st_plant_job_power *p, size_t n)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        st_plant_job_power *q = m ? &p[m - 1] : NULL;
        if (!q || q->id != p[j].id) {
            p[m++] = p[j];
            continue;
        }
        /* its parts step together: their peaks coincide and their energies add */
        q->peak_w += p[j].peak_w;
        q->mean_w += p[j].mean_w;
        q->step_energy_j += p[j].step_energy_j;
        q->junction_c = p[j].junction_c > q->junction_c ? p[j].junction_c : q->junction_c;
        q->clock = p[j].clock < q->clock ? p[j].clock : q->clock;
    }
    return m;
}
