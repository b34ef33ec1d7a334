/* srsf: shortest remaining service first, preemptive, an oracle baseline: a job's service is its
 * true remaining run time times its GPUs (the `shortest-gpu` scheduler of Muri's simulator, Zhao
 * et al., SIGCOMM'22, repository Rivendile/Muri, simulator/run_sim.py; Tiresias, Gu et al.,
 * NSDI'19, section 2.2, ranks by the same two-dimensional service). At every pick all unfinished
 * jobs, running or waiting, are ranked by remaining time x GPUs, smallest first, ties by id;
 * walking that ranking, each job whose GPUs still fit in the cluster's total is chosen, one that
 * does not is passed over (later ones may still be chosen, as in Muri's simulator). Running jobs
 * not chosen are preempted (in the order the jobs arrived, a finished job's place taken by the
 * latest arrival), then chosen waiting jobs start in rank order (one the placement cannot fit
 * now is passed over). Preemption costs, and `scheduler.preemption: false`, as in srtf.c. Wide
 * jobs may starve, so it promises no progress.
 *
 * The ranking is shortest.c's, shared with srtf: a waiting job's service is fixed while it
 * waits, so the waiting jobs are kept in an ordered set; the ranking between running jobs
 * changes as they run (a wide job's service falls faster), so they are re-ranked at every pick. */
#include "models/sched/shortest.h"

static int srsf_configure(void *st, const st_sched_params *p, st_err *err)
{
    (void)err;
    return st__shortest_configure(st, p, 1, 1);
}

static void srsf_release(void *st)
{
    st__shortest_release(st);
}

static void srsf_arrival(void *st, const st_sched_job *job)
{
    st__shortest_arrival(st, job);
}

static void srsf_finish(void *st, const st_sched_job *job)
{
    st__shortest_finish(st, job);
}

static void srsf_pick(void *st, st_sched_view *v)
{
    st__shortest_pick(st, v);
}

const st_sched_policy st__sched_srsf = {
    .abi = ST_SCHED_ABI,
    .name = "srsf",
    .state_size = sizeof(st__shortest),
    .no_starvation = 0,
    .configure = srsf_configure,
    .release = srsf_release,
    .on_arrival = srsf_arrival,
    .on_finish = srsf_finish,
    .pick = srsf_pick,
};
