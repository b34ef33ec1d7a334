/* A job's two checkpoint levels: the persistent save's whole cost, the failures each level
 * restores, and the cadences (docs/models/storage-and-failures.md, "Two-level checkpoints"). */
#include "models/forecast/ckpt_levels.h"

#include <math.h>
#include <string.h>

/* The in-memory level's figures: the snapshot is the copy to host memory an async save makes
 * (k->d2h_s); each peer copy holds the writer's NIC shard / B_nic (Gemini interleaves it with
 * training traffic; counted in full as a pause, an upper bound); a restore reads the host copy
 * back, and a replaced node first fetches its shard from a peer. */
static void mem_level(const st_workload_cfg *w, const st_ckpt_cost *k, st_ckpt_plan *p)
{
    double peer = k->nic_per_gpu > 0 ? k->shard_bytes / k->nic_per_gpu : 0;
    p->replicas = w->checkpoint.memory.replicas;
    p->mem_stall_s = k->d2h_s + (double)p->replicas * peer;
    p->mem_commit_s = p->mem_stall_s;
    p->mem_restore_s = k->d2h_s + (p->replicas > 0 ? peer : 0);
}

void st_ckpt_plan_make(const st_workload_cfg *w, const st_ckpt_cost *k, const st_life_class *cl,
                       double *loss, int n, int64_t nodes, double down_s, double step_s,
                       st_ckpt_plan *out)
{
    memset(out, 0, sizeof *out);
    const st_ckpt_mem_cfg *m = &w->checkpoint.memory;
    const st_ckpt_preset *pre = &st_ckpt_preset_default;
    /* A written byte uses 1 / (capacity x DWPD x days of warranty) of a drive's endurance. */
    out->usd_per_byte =
        pre->drive_price_usd / (pre->drive_bytes * pre->drive_dwpd * pre->drive_life_s / 86400.0);
    out->usd_per_s = (double)w->gpus * pre->gpu_hour_usd_per_s;
    out->usd_per_save = k->size_bytes * out->usd_per_byte;
    out->write_cost_s = out->usd_per_save / out->usd_per_s;
    out->cost_s = k->stall_s + k->drain_nic_s + out->write_cost_s;
    out->two_level = m->enabled;
    if (!m->enabled) {
        for (int i = 0; i < n; i++)
            loss[i] = 1;
        st_life_spec all = {.classes = cl, .n_classes = n, .step_s = 1, .steps = 1};
        out->mem_mtbf_s = INFINITY;
        out->disk_mtbf_s = st_life_job_mtbf(&all);
        return;
    }
    mem_level(w, k, out);
    st_ckpt_split_failures(cl, loss, n, nodes, out->replicas, down_s + out->mem_restore_s,
                           &out->mem_mtbf_s, &out->disk_mtbf_s);
    if (m->every_s > 0)
        out->mem_every_s = m->every_s;
    else if (m->every_steps > 0)
        out->mem_every_s = (double)m->every_steps * step_s;
    else {
        st_auto_rule r;
        st_ckpt_level_q q = {.cost_s = out->mem_stall_s,
                             .mtbf_s = out->mem_mtbf_s,
                             .unit_s = step_s,
                             .commit_s = out->mem_commit_s};
        out->mem_every_s = st_ckpt_level_interval(&q, &r);
        out->mem_rule = (int)r;
    }
}

double st_ckpt_plan_persistent(const st_ckpt_plan *p, const st_ckpt_cost *k, double step_s,
                               st_auto_rule *rule)
{
    /* The persistent save drains a snapshot: it falls on a whole number of in-memory
     * intervals. */
    st_ckpt_level_q q = {.cost_s = p->cost_s,
                         .mtbf_s = p->disk_mtbf_s,
                         .unit_s = p->mem_every_s > 0 ? p->mem_every_s : step_s,
                         .commit_s = k->commit_s};
    return st_ckpt_level_interval(&q, rule);
}
