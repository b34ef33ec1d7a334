/* One training step's pipeline, simulated on the engine: pp stages (each with v model chunks
 * under interleaving) run forward and backward passes of m micro-batches in the 1F1B or
 * interleaved 1F1B order (Narayanan et al. SC21, section 2.2), with activation sends between
 * stages. The bubble comes out of the simulation; long pipelines use the steady state's period
 * so the cost does not grow with m. docs/models/pipeline.md has the semantics and the sources. */
#ifndef ST_MODELS_STEP_PIPELINE_H
#define ST_MODELS_STEP_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct st_pipe_spec {
    int64_t pp;          /* stages, >= 1 */
    int64_t v;           /* model chunks per stage (virtual stages); 1 = plain 1F1B */
    int64_t m;           /* micro-batches per step, >= 1 (interleaving needs m % pp == 0) */
    const double *fwd_s; /* [pp * v]: forward time of model chunk c for one micro-batch; chunk c
                            runs on stage c % pp (Megatron's interleaved assignment) */
    const double *bwd_s; /* [pp * v]: backward time (recomputation included) */
    double p2p_s;        /* time to send one micro-batch's activations (or gradients) to the
                            next stage; a send overlaps the sender's next compute, and sends
                            from one stage to one neighbour go one after another (one link per
                            ordered stage pair); a chunk's output that stays on its stage (pp
                            = 1) is not sent */
} st_pipe_spec;

/* What one step's pipeline did. Every task time is rounded to the engine's integer nanosecond
 * before the run, so results are exact sums of those ticks (docs/models/pipeline.md). */
typedef struct st_pipe_result {
    double makespan_s;       /* first forward start to last backward end, over all stages */
    double compute_s;        /* busy compute time of the busiest stage (the lowest-numbered one
                                when several tie) */
    int64_t busiest;         /* that stage */
    double bubble_s;         /* makespan - compute_s of that stage: its idle time */
    double p2p_exposed_s;    /* the part of bubble_s that stage spent waiting for a send whose data
                                was already computed: sum over its tasks of start - max(its
                                stream free, its producer's end); 0 when p2p_s is 0 */
    double *last_bwd_end;    /* [pp * v]: when chunk c finished its last backward (the moment its
                                gradients are ready for data-parallel reduction); owned by the
                                result, freed by st_pipe_result_release */
    double *first_fwd_start; /* [pp * v]: when chunk c started its first forward (the moment
                                its weights must be in place); owned like last_bwd_end */
    int64_t simulated_m;     /* micro-batches simulated task by task (<= m); the rest of the
                                steady state was added as whole periods */
} st_pipe_result;

/* One span of a timeline, for traces: stage, stream, what, when. Streams: 0 compute, 1 sends to
 * the next stage ((stage + 1) % pp; with pp = 2 every send), 2 sends to the previous one, and
 * ST_PIPE_STREAM_DP the data-parallel and embedding traffic after the pipeline, which the step
 * model (models/step/step.c) appends. */
#define ST_PIPE_STREAM_DP 3
typedef struct st_pipe_span {
    int64_t stage;
    int stream;
    char name[24]; /* "F 3.1" = forward of micro-batch 3, model chunk 1 (global chunk number,
                      0 .. pp*v-1); "B 3.1"; "send F 3.1" = that forward's output on its way */
    double start_s, dur_s;
} st_pipe_span;

/* Spans in the order the engine produced them. Start from all zero; st_pipe_simulate appends. */
typedef struct st_pipe_trace {
    st_pipe_span *spans;
    size_t n, cap;
} st_pipe_trace;

/* The most task and send time one schedule may hold, so every tick sum stays below 2^62. */
#define ST_PIPE_MAX_WORK_NS 4.0e18

/* Simulate spec. When trace is not NULL every span is recorded (and the whole pipeline is
 * simulated event by event on the engine, no steady-state shortcut). Returns 0, ST_EINVAL
 * when the spec is inconsistent (pp, v or m < 1, interleaving with m not a multiple of pp, a
 * NULL time array, a negative or NaN time, more than 2^31 - 1 tasks), or ST_ELIMIT for an
 * infinite time (a collective past the engine's clock) or task and send times summing to over
 * ST_PIPE_MAX_WORK_NS (4e18 ns, about 127 years). On error *out is all zero (safe to release) and
 * trace is untouched. The result is deterministic and independent of whether the shortcut was taken
 * (docs/models/pipeline.md proves the shortcut exact). */
int st_pipe_simulate(const st_pipe_spec *spec, st_pipe_result *out, st_pipe_trace *trace);

/* Free what r owns and zero it. NULL is a no-op. */
void st_pipe_result_release(st_pipe_result *r);

/* Free the spans and zero t. NULL is a no-op. */
void st_pipe_trace_release(st_pipe_trace *t);

/* Internal, for tests and benchmarks: st_pipe_simulate with the evaluation chosen.
 * ST__PIPE_FAST is what st_pipe_simulate does without a trace (list scheduling of a shortened
 * run, extended by whole steady-state periods when one is detected); ST__PIPE_SWEEP is the same
 * list scheduling over all m micro-batches; ST__PIPE_ENGINE runs every task as engine events
 * (what a trace forces). All three give identical results. */
#define ST__PIPE_FAST   0
#define ST__PIPE_SWEEP  1
#define ST__PIPE_ENGINE 2
int st__pipe_simulate_mode(const st_pipe_spec *spec, int mode, st_pipe_result *out,
                           st_pipe_trace *trace);

#endif
