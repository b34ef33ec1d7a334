/* fifo: jobs in submit order, each started at its submit time on GPUs packed in that order
 * (models/place/pack.c). There is no queue yet: when the cluster's GPUs run out the packing wraps
 * round to GPU 0 and jobs overlap, which the cluster-level scheduler will replace by waiting. */
#include "models/place/policy.h"
#include "models/sched/policy.h"

typedef struct fifo {
    st_placer place;
} fifo;

static int fifo_configure(void *st, const st_sched_cfg *cfg, const st_cluster_cfg *c, st_err *err)
{
    (void)cfg;
    (void)err;
    fifo *f = st;
    st_placer_init(&f->place, st_place_policy_find("pack"), c);
    return 0;
}

static void fifo_release(void *st)
{
    fifo *f = st;
    st_placer_release(&f->place);
}

static int fifo_submit(void *st, const st_sched_job *job, st_sched_start *out)
{
    fifo *f = st;
    st_place_req req = {.gpus = job->w->gpus, .wrap = 1};
    out->start_s = job->w->submit_s;
    return st_placer_place(&f->place, &req, out->gpus);
}

const st_sched_policy st__sched_fifo = {
    .abi = ST_SCHED_ABI,
    .name = "fifo",
    .state_size = sizeof(fifo),
    .configure = fifo_configure,
    .release = fifo_release,
    .submit = fifo_submit,
};
