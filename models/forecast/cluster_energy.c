/* The energy of a cluster run (cluster_energy.h): a sum over its jobs once the run is over, from
 * the GPU time each held (the cluster run keeps it per job as its stretches end), not a second
 * pass over its events. */
#include "models/forecast/cluster_energy.h"

#include <string.h>

#include "models/config/pools.h"

/* The seconds job o worked: the time it held GPUs less its preemptions' saves and restores and
 * its failures' detection holds, restarts and restores (its lost work it did run). */
static double work_s(const st_cluster_job_out *o)
{
    double w = o->held_s - o->preempted_s - (o->failed_s - o->lost_work_s);
    return w > 0 ? (w < o->held_s ? w : o->held_s) : 0;
}

int st_cluster_energy_of(const st_cluster_energy_in *in, st_cluster_energy *out)
{
    memset(out, 0, sizeof *out);
    const st_cluster_cfg *c = in->c;
    const st_gpu_spec *g = c->gpu;
    double t = in->run->st.makespan_s;
    if (!(t > 0) || !(g->tdp_w > 0))
        return 0;
    /* Board energy, J: every GPU idle over the makespan, plus each job's above idle while it
     * works, plus every node's base power. Summed in job order: the figure is the same whatever
     * order the jobs ran in. */
    double board = c->n_pools > 0 ? st_plant_nodes_idle_w(c, 0, c->nodes) * t
                                  : (double)(c->nodes * c->gpus_per_node) * g->idle_w * t +
                                        (double)c->nodes * c->node.base_power_w * t;
    for (size_t i = 0; i < in->run->n; i++) {
        const st_cluster_job_out *o = &in->run->job[i];
        if (o->state == ST_CJ_TOO_BIG || o->state == ST_CJ_WAITING)
            continue;
        /* a job's GPUs idle at their own type's idle power */
        double idle = in->idle_w ? in->idle_w[i] : g->idle_w;
        board += (double)in->jobs[i].gpus * (in->gpu_w[i] - idle) * work_s(o);
    }
    st_plant_facility_steady(c, board / t, in->network_board_w, &out->facility);
    out->it_mean_w = out->facility.it_w;
    out->facility_mean_w = out->facility.total_w;
    out->it_energy_j = out->it_mean_w * t;
    out->energy_j = out->facility_mean_w * t;
    out->pue = out->it_mean_w > 0 ? out->facility_mean_w / out->it_mean_w : 0;
    const st_cost_cfg *k = in->cost;
    if (k && k->delivery == ST_DELIVERY_ON_PREM && k->electricity_usd_per_j >= 0) {
        out->has_cost = 1;
        out->energy_usd = out->energy_j * k->electricity_usd_per_j;
    }
    return 1;
}
