/* srtf: shortest remaining time first, preemptive, an oracle baseline (Tiresias, Gu et al.,
 * NSDI'19, section 6; the `shortest` scheduler of Muri's simulator, Zhao et al., SIGCOMM'22). At
 * every pick all unfinished jobs, running or waiting, are ranked by their true remaining run
 * time (st_sched_remaining_s), shortest first, ties by id; walking that ranking, each job whose
 * GPUs still fit in the cluster's total is chosen, and one that does not fit is passed over
 * (later, smaller jobs may still be chosen, as in Muri's simulator). Running jobs not chosen are
 * preempted, in rank order, then chosen waiting jobs start in rank order (one the placement
 * cannot fit now is passed over). A preempted job pays its checkpoint save and restore through
 * the run (cluster.h's preempt_cost): a job still saving is passed over until its GPUs are free.
 * With `scheduler.preemption: false` running jobs are never preempted: they are chosen first and
 * the ranking fills what they leave. Long jobs may starve, so it promises no progress.
 *
 * The ranking is shortest.c's, shared with srsf: the waiting jobs in an ordered set by their
 * remaining time (fixed while they wait), the running ones re-ranked at every pick: at rate 1
 * they all run down together and their order holds, but a neighbour's traffic slows some
 * (cluster.h's rate hook), and a slowed job's remaining time then falls behind the others'. */
#include "models/sched/shortest.h"

static int srtf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    return st__shortest_configure(st, p, 0, 0);
}

static void srtf_release(void *st)
{
    st__shortest_release(st);
}

static void srtf_arrival(void *st, const st_sched_job *job)
{
    st__shortest_arrival(st, job);
}

static void srtf_finish(void *st, const st_sched_job *job)
{
    st__shortest_finish(st, job);
}

static void srtf_pick(void *st, st_sched_view *v)
{
    st__shortest_pick(st, v);
}

const st_sched_policy st__sched_srtf = {
    .abi = ST_SCHED_ABI,
    .name = "srtf",
    .state_size = sizeof(st__shortest),
    .no_starvation = 0,
    .configure = srtf_configure,
    .release = srtf_release,
    .on_arrival = srtf_arrival,
    .on_finish = srtf_finish,
    .pick = srtf_pick,
};
