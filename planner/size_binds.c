/* What a deadline that binds a sizing row goes to (planner/size.h): the seconds beyond pure
 * compute, split into the fabric's, the storage's and the rest. docs/guide/sizing.md. */
#include <math.h>

#include "planner/size.h"

void st_size_time_of(const st_size_cfg *f, st_size_time *t)
{
    const st_step_breakdown *b = &f->step.b;
    /* HFU counts the recomputed FLOPs and MFU does not (PaLM, Chowdhery et al. 2022,
     * arXiv:2204.02311, section 4.1 and appendix B), so mfu / hfu of the kernels' time is the
     * model's own, the recomputed kernels taken to run at the others' rate. */
    double model = f->step.hfu > 0 ? f->step.mfu / f->step.hfu : 1;
    t->compute_s = f->steps * b->compute_s * model;
    t->fabric_s = f->steps * (b->tp_comm_s + b->pp_comm_s + b->dp_comm_exposed_s);
    t->storage_s = f->storage_s > 0 ? f->storage_s : 0;
    t->other_s = f->train_s - t->compute_s - t->fabric_s - t->storage_s;
    if (!(t->other_s > 0))
        t->other_s = 0;
}

st_size_bind st_size_time_bind(const st_size_cfg *f)
{
    st_size_time t;
    st_size_time_of(f, &t);
    if (t.fabric_s > t.other_s && t.fabric_s >= t.storage_s)
        return ST_BIND_COMMUNICATION;
    if (t.storage_s > t.other_s && t.storage_s > t.fabric_s)
        return ST_BIND_STORAGE;
    return ST_BIND_DEADLINE;
}
