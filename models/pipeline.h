/* One training step's pipeline, simulated on the engine: pp stages (each with v model chunks
 * under interleaving) run forward and backward passes of m micro-batches in the 1F1B or
 * interleaved 1F1B order (Narayanan et al. SC21, section 2.2), with activation sends between
 * stages. The bubble comes out of the simulation; long pipelines use the steady state's period
 * so the cost does not grow with m. */
#ifndef ST_MODELS_PIPELINE_H
#define ST_MODELS_PIPELINE_H

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
                            next stage; a send overlaps the sender's next compute */
} st_pipe_spec;

/* What one step's pipeline did. */
typedef struct st_pipe_result {
    double makespan_s;    /* first forward start to last backward end, over all stages */
    double compute_s;     /* busy compute time of the busiest stage */
    double bubble_s;      /* makespan - compute_s of that stage: its idle time */
    double p2p_exposed_s; /* time stages waited on sends that compute did not hide */
    double *last_bwd_end; /* [pp * v]: when chunk c finished its last backward (the moment its
                             gradients are ready for data-parallel reduction); owned by the
                             result, freed by st_pipe_result_release */
    int64_t simulated_m;  /* micro-batches simulated event by event (<= m) */
} st_pipe_result;

/* One span of a timeline, for traces: stage, stream (0 compute, 1 communication), what, when. */
typedef struct st_pipe_span {
    int64_t stage;
    int stream;
    char name[24]; /* "F 3.1" = forward of micro-batch 3, chunk 1; "B ...", "send ..." */
    double start_s, dur_s;
} st_pipe_span;

typedef struct st_pipe_trace {
    st_pipe_span *spans;
    size_t n, cap;
} st_pipe_trace;

/* Simulate spec. When trace is not NULL every span is recorded (and the whole pipeline is
 * simulated event by event, no steady-state shortcut). Returns 0, or ST_EINVAL when the spec is
 * inconsistent (pp, v or m < 1, interleaving with m not a multiple of pp, a negative time). */
int st_pipe_simulate(const st_pipe_spec *spec, st_pipe_result *out, st_pipe_trace *trace);

void st_pipe_result_release(st_pipe_result *r);
void st_pipe_trace_release(st_pipe_trace *t);

#endif
