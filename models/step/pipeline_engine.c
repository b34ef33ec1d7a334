/* The pipeline schedule on the engine: each task completion and each send's arrival an event,
 * the evaluation a trace needs (every span recorded). Same times as the list-scheduling sweep. */
#include <stdio.h>
#include <string.h>

#include "models/step/pipeline_internal.h"
#include "sim/engine.h"
#include "sim/xalloc.h"

/* A "done" event per task and an "arrive" event per send. A stage starts its next task when the
 * later of the two (stream free, input arrived) fires, which is the sweep's max(). */
typedef struct eng_run {
    pipe_plan *p;
    st_engine *eng;
    int k_done, k_arrive;
    st_pipe_trace *trace;
} eng_run;

static void trace_add(st_pipe_trace *tr, int64_t stage, int stream, const char *what,
                      const pipe_task *u, st_time start, st_time dur)
{
    tr->spans = st_xgrow(tr->spans, sizeof *tr->spans, tr->n + 1, &tr->cap);
    st_pipe_span *sp = &tr->spans[tr->n++];
    memset(sp, 0, sizeof *sp);
    sp->stage = stage;
    sp->stream = stream;
    char name[48]; /* the longest possible name, cut to the span's field */
    snprintf(name, sizeof name, "%s%c %ld.%ld", what, u->kind == KIND_F ? 'F' : 'B', (long)u->mb,
             (long)u->chunk);
    snprintf(sp->name, sizeof sp->name, "%.*s", (int)sizeof sp->name - 1, name);
    sp->start_s = (double)start * 1e-9;
    sp->dur_s = (double)dur * 1e-9;
}

static void eng_try_start(eng_run *r, int64_t s)
{
    pipe_plan *p = r->p;
    if (p->flag[s] || p->next[s] >= p->len)
        return;
    int64_t id = s * p->len + p->next[s];
    if (p->ready[id] < 0)
        return;
    st_time now = st_engine_now(r->eng);
    st_payload pl = {.i = {id}};
    p->start[id] = now;
    p->flag[s] = 1;
    st_engine_schedule(r->eng, r->k_done, now + dur_of(p, id), &pl);
}

static void on_done(st_engine *eng, void *state, const st_event *ev)
{
    eng_run *r = state;
    pipe_plan *p = r->p;
    int64_t id = ev->data.i[0], s = id / p->len;
    const pipe_task *u = &p->t[id];
    if (r->trace)
        trace_add(r->trace, s, 0, "", u, p->start[id], dur_of(p, id));
    p->flag[s] = 0;
    p->next[s]++;
    if (u->cons >= 0) {
        st_time at = send_output(p, s, id, ev->t);
        if (u->link == LINK_NONE) {
            p->ready[u->cons] = at;
        } else {
            st_payload pl = {.i = {u->cons}};
            if (r->trace)
                trace_add(r->trace, s, u->link, "send ", u, at - p->p2p, p->p2p);
            st_engine_schedule(eng, r->k_arrive, at, &pl);
        }
    }
    eng_try_start(r, s);
}

static void on_arrive(st_engine *eng, void *state, const st_event *ev)
{
    eng_run *r = state;
    (void)eng;
    r->p->ready[ev->data.i[0]] = ev->t;
    eng_try_start(r, ev->data.i[0] / r->p->len);
}

void st__pipe_engine_run(pipe_plan *p, st_pipe_trace *trace)
{
    eng_run r = {.p = p, .eng = st_engine_new(), .trace = trace};
    r.k_done = st_engine_register(r.eng, "pipe.done", on_done, &r);
    r.k_arrive = st_engine_register(r.eng, "pipe.arrive", on_arrive, &r);
    for (int64_t s = 0; s < p->pp; s++)
        eng_try_start(&r, s);
    st_engine_run(r.eng, ST_TIME_MAX);
    st_engine_free(r.eng);
    st__pipe_check_finished(p);
}
