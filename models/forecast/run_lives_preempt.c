/* What a preemption costs a job of the cluster run (run_lives.c): the preempt_cost hook's save
 * and restore, and the restorable hook's progress its last checkpoint holds. */
#include "models/forecast/run_lives_internal.h"

#include <math.h>

#include "models/sched/muri.h"

/* A trace job's restart after a preemption: the restart overhead Muri's simulator charges its
 * model (Zhao et al., SIGCOMM'22; run_sim.py overhead_dict, 4-46 s by model and GPU count,
 * models/sched/muri.h), by the trace's model name where it gives one, else the artifact's 10 s
 * for a model its table lacks. A trace records no model size nor storage tier, so no checkpoint
 * model prices it; the job is taken to suspend at an iteration boundary (nothing lost, no save
 * holding its GPUs, as Gandiva's suspend does) and to pay the overhead on its GPUs when it
 * resumes, before its work goes on (docs/models/scheduler.md). */
static double trace_restart_s(const st__lives_ctx *x, size_t i)
{
    const st_trace_cfg *t = x->sp->job_trace;
    if (!t->n_classes) /* no model names (Philly's, a plain CSV's): one figure, no record read */
        return st_muri_overhead_s(NULL, 0);
    const st_trace_job *j = &t->jobs[i - x->n_train];
    const char *model = j->cls >= 0 && (size_t)j->cls < t->n_classes ? t->classes[j->cls] : NULL;
    return st_muri_overhead_s(model, j->gpus);
}

/* The cluster run's preempt_cost hook: what a preemption costs job i, from the storage model
 * (models/storage/storage.h st_ckpt_cost, the job's checkpoint on its tier at its placement).
 * The save is the checkpoint's commit time, from its start until it can be restored, not the
 * training stall: a preempted job must persist the work done since its last checkpoint or lose
 * it, and it may resume on other nodes, so its GPUs (and the host memory an asynchronous save
 * drains from) are released only once the checkpoint is in the tier. The restore is reading it
 * back. A training job with no checkpoint section costs nothing: nothing states what it would
 * save. A trace job pays its restart (trace_restart_s). */
void st__lives_preempt_cost(void *ctx, size_t i, double *save_s, double *restore_s)
{
    st__lives_ctx *x = ctx;
    *save_s = *restore_s = 0;
    if (i >= x->n_train + x->n_trace) { /* a service saves nothing */
        const st_run_serve *v = &x->out->serve[x->workload[i]];
        if (v->w->inference.autoscale.on) /* and its replicas start again as a new one does:
                                             weights, warm-up */
            *restore_s = v->r.cold.total_s;
        return;
    }
    if (i >= x->n_train) {
        *restore_s = trace_restart_s(x, i);
        return;
    }
    const st_forecast *f = &x->out->f[x->workload[i]];
    if (!f->has_life || !f->has_ckpt)
        return;
    *save_s = f->ckpt.commit_s;
    *restore_s = f->ckpt.restore_s;
}

/* The cluster run's restorable hook: the progress training job i's last restorable checkpoint
 * holds after progress_s of its failure-free life (lifetime.h's cycle: after every tau of
 * training a checkpoint stalls it for stall and is restorable commit after it starts; the next
 * starts only once it has, so a cycle lasts P = max(tau + stall, commit)). Checkpoint k starts
 * at tau + (k - 1) P and is restorable at that plus commit; resuming from it, training goes on
 * where its stall ended. A trace job and a job without checkpoints keep nothing. */
double st__lives_restorable(void *ctx, size_t i, double progress_s)
{
    st__lives_ctx *x = ctx;
    if (i >= x->n_train)
        return 0;
    const st_forecast *f = &x->out->f[x->workload[i]];
    double tau = f->interval_s, stall = f->ckpt.stall_s, commit = f->ckpt.commit_s;
    if (!f->has_ckpt || !(tau > 0) || progress_s < tau + commit)
        return 0;
    double cycle = tau + stall > commit ? tau + stall : commit;
    double k = floor((progress_s - tau - commit) / cycle) + 1;
    double back = tau + (k - 1) * cycle + stall;
    return back < progress_s ? back : progress_s;
}
