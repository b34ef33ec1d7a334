/* Collective-pattern times shared between step contexts (models/step/step.h): one memo of
 * times, keyed besides the pattern by the class of fabric and GPU it ran on, each class a
 * distinct pair of the fabric's signature over the pattern's GPUs (st_topo_sig_of) and the GPU
 * fields the collective runner reads (st_coll_gpu_same: its NCCL architecture, NVLink and NVLS
 * figures), so that GPU types alike in them share entries. */
#include <stdlib.h>
#include <string.h>

#include "models/fabric/collective.h"
#include "models/fabric/maxmin.h"
#include "models/step/step_internal.h"
#include "sim/xalloc.h"

typedef struct memo_class {
    st_topo_sig sig;
    const st_gpu_spec *gpu;
} memo_class;

struct st_step_memo {
    st_coll_memo *times;
    st__shape_traces *traces; /* the recordings of the times' patterns, by shape and class */
    memo_class *cls;          /* a search meets a handful: found by a scan */
    size_t n, cap;
    st_maxmin *spare; /* a freed context's max-min solver, reset, for the next to rebase */
};

st_step_memo *st_step_memo_new(void)
{
    st_step_memo *m = st_xcalloc(1, sizeof *m);
    m->times = st_coll_memo_new();
    m->traces = st__shape_traces_new();
    return m;
}

void st_step_memo_free(st_step_memo *m)
{
    if (!m)
        return;
    st_coll_memo_free(m->times);
    st__shape_traces_free(m->traces);
    st_maxmin_free(m->spare);
    free(m->cls);
    free(m);
}

st_maxmin *st__step_memo_take_spare(st_step_memo *m)
{
    st_maxmin *s = m->spare;
    m->spare = NULL;
    return s;
}

void st__step_memo_give_spare(st_step_memo *m, st_maxmin *s)
{
    if (m->spare)
        st_maxmin_free(s);
    else
        m->spare = s;
}

size_t st_step_memo_count(const st_step_memo *m)
{
    return st_coll_memo_count(m->times);
}

st_coll_memo *st__step_memo_times(st_step_memo *m)
{
    return m->times;
}

st__shape_traces *st__step_memo_traces(st_step_memo *m)
{
    return m->traces;
}

/* Fields compared one by one: doubles bit for bit (the same capacity is the same bits). */
static int same_class(const memo_class *a, const st_topo_sig *s, const st_gpu_spec *gpu)
{
    const st_topo_sig *b = &a->sig;
    return st_coll_gpu_same(a->gpu, gpu) && b->kind == s->kind && b->routing == s->routing &&
           b->gpn == s->gpn && b->dom == s->dom && b->skew == s->skew && b->nics == s->nics &&
           b->npl == s->npl && b->up == s->up && b->ppod == s->ppod && b->cup == s->cup &&
           memcmp(&b->port_bw, &s->port_bw, sizeof b->port_bw) == 0 &&
           memcmp(&b->nv_bw, &s->nv_bw, sizeof b->nv_bw) == 0 &&
           memcmp(&b->lat_link, &s->lat_link, sizeof b->lat_link) == 0 &&
           memcmp(&b->lat_switch, &s->lat_switch, sizeof b->lat_switch) == 0;
}

int64_t st__step_memo_class(st_step_ctx *x, int64_t gpus)
{
    st_step_memo *m = x->shared;
    st_topo_sig s;
    st_topo_sig_of(x->topo, gpus, &s);
    for (size_t i = 0; i < m->n; i++)
        if (same_class(&m->cls[i], &s, x->c->gpu))
            return (int64_t)i + 1;
    m->cls = st_xgrow(m->cls, sizeof *m->cls, m->n + 1, &m->cap);
    m->cls[m->n++] = (memo_class){.sig = s, .gpu = x->c->gpu};
    return (int64_t)m->n;
}
