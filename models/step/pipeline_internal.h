/* Shared between the pipeline's files: the task layout of one schedule, the per-spec context,
 * the small per-task helpers every evaluator uses, and the evaluators' entry points. Internal to
 * models/step/ (pipeline.c, pipeline_engine.c, pipeline_periodic.c). */
#ifndef ST_MODELS_STEP_PIPELINE_INTERNAL_H
#define ST_MODELS_STEP_PIPELINE_INTERNAL_H

#include <stdint.h>

#include "models/step/pipeline.h"
#include "sim/evq.h"

enum { KIND_F = 0, KIND_B = 1 };
enum { LINK_NONE = 0, LINK_NEXT = 1, LINK_PREV = 2 };

/* One compute task: the forward or backward pass of one model chunk for one micro-batch. */
typedef struct pipe_task {
    int32_t prod;   /* the task whose output this one needs, -1 for none */
    int32_t cons;   /* the task that needs this one's output, -1 for none */
    int32_t cstage; /* the stage of cons */
    int32_t chunk;  /* global model chunk, 0 .. pp*v-1 */
    int32_t mb;     /* micro-batch */
    int32_t round;  /* steady-state round (pipeline_periodic.c); negative in the warm-up */
    uint8_t kind;   /* KIND_F or KIND_B */
    uint8_t link;   /* how the output reaches cons: LINK_NONE (same stage) or a link */
} pipe_task;

/* What every evaluation of one spec shares: sizes and task times in engine ticks. */
typedef struct pipe_ctx {
    int64_t pp, v, m, nchunk;
    st_time p2p;
    st_time *dur;        /* [2 * nchunk]: by kind * nchunk + chunk */
    int64_t busiest;     /* the stage with the most compute (lowest on ties) */
    st_time busy_per_mb; /* its compute per micro-batch */
} pipe_ctx;

/* The schedule for m micro-batches: each stage's ordered task list, stage after stage (task id =
 * stage * len + position), and the times one evaluation gave them. */
typedef struct pipe_plan {
    int64_t pp, v, m, nchunk, len; /* len: tasks per stage, 2 * m * v */
    st_time p2p;
    const st_time *dur;
    st_time *start;     /* [pp * len] */
    st_time *ready;     /* [pp * len]: when the input arrived, -1 while it has not */
    st_time *send_end;  /* [pp * len]: when the output reached its consumer (tasks with one) */
    st_time *free_at;   /* [pp]: when the compute stream is next free */
    st_time *link_free; /* [2 * pp]: when each outgoing link is next free */
    int64_t *warm;      /* [pp]: warm-up forwards */
    int64_t *next;      /* [pp]: position of the next task to run */
    int64_t *stack;     /* [pp]: stages to advance (sweep) */
    int64_t nstack;
    pipe_task *t;        /* [pp * len] */
    int32_t *idx;        /* [2 * nchunk * m]: task id of (kind, chunk, micro-batch) */
    unsigned char *flag; /* [pp]: queued (sweep) or busy (engine) */
    void *block;
} pipe_plan;

static inline st_time tmax(st_time a, st_time b)
{
    return a > b ? a : b;
}

static inline st_time dur_of(const pipe_plan *p, int64_t id)
{
    return p->dur[p->t[id].kind * p->nchunk + p->t[id].chunk];
}

static inline st_time end_of(const pipe_plan *p, int64_t id)
{
    return p->start[id] + dur_of(p, id);
}

/* Task id of stage s (which has a consumer) finished at `end`: send its output and return when
 * it arrives. Each link is a FIFO server fed by one stage's stream in that stream's order, so
 * the send starts when both the data and the link are free; the sender's compute goes on
 * meanwhile. Output that stays on the stage is not sent. */
static inline st_time send_output(pipe_plan *p, int64_t s, int64_t id, st_time end)
{
    const pipe_task *u = &p->t[id];
    if (u->link == LINK_NONE)
        return p->send_end[id] = end;
    st_time *lf = &p->link_free[s * 2 + (u->link - 1)];
    st_time go = tmax(end, *lf);
    *lf = go + p->p2p;
    return p->send_end[id] = go + p->p2p;
}

/* Results of an evaluated plan, in ticks. */
typedef struct pipe_summary {
    st_time makespan;
    st_time exposed; /* p2p waits of the busiest stage */
    st_time *lbe;    /* [nchunk]: last backward end per chunk, owned by the caller */
    st_time *ffs;    /* [nchunk]: first forward start per chunk, owned by the caller */
} pipe_summary;

/* How long task id waited for a send once its producer's data was computed and its own stream
 * was free (0 when its input came from the same stage or from nowhere). */
static inline st_time task_wait(const pipe_plan *p, int64_t s, int64_t id)
{
    const pipe_task *u = &p->t[id];
    if (u->prod < 0 || p->t[u->prod].link == LINK_NONE)
        return 0;
    st_time before = id > s * p->len ? end_of(p, id - 1) : 0;
    return p->start[id] - tmax(before, end_of(p, u->prod));
}

/* Lay out and order the tasks of x's spec for m micro-batches, all in one allocation that
 * st__pipe_plan_release frees. */
void st__pipe_plan_init(pipe_plan *p, const pipe_ctx *x, int64_t m);
void st__pipe_plan_release(pipe_plan *p);

/* Evaluate p's times by list scheduling (pipeline.c) or as engine events, recording every span
 * to trace when it is not NULL (pipeline_engine.c). Both give the same times; a schedule that
 * cannot finish is an ST_BUG (st__pipe_check_finished). */
void st__pipe_sweep_run(pipe_plan *p);
void st__pipe_engine_run(pipe_plan *p, st_pipe_trace *trace);
void st__pipe_check_finished(const pipe_plan *p);

/* Makespan, the busiest stage's send waits and each chunk's last backward end and first forward
 * start of an evaluated p, into out (whose arrays the caller owns). */
void st__pipe_summarize(const pipe_plan *p, int64_t busiest, pipe_summary *out);

/* x's pipeline through the steady-state shortcut (pipeline_periodic.c): a shortened run
 * extended by whole periods when one shows, else the full sweep. Fills sm and returns the
 * micro-batches simulated task by task. */
int64_t st__pipe_run_fast(const pipe_ctx *x, pipe_summary *sm);

#endif
