/* A serving stack's fixed costs outside the engine's GPU work, as rows a service's `frontend:`
 * names (docs/models/inference.md, "The serving stack"): the time a request spends in the front
 * end (the HTTP or gRPC server, tokenising, the hops into and out of the engine) beyond the
 * engine's own time to its first token, and the host's time on every engine iteration's
 * critical path (scheduling, sampling's bookkeeping, streaming each token out). */
#ifndef ST_MODELS_CONFIG_FRONTEND_H
#define ST_MODELS_CONFIG_FRONTEND_H

#include <stddef.h>

/* One stack. A measured row keeps what was measured and what the engine model gives for the same
 * run, and its figures are their difference (st_frontend_request_s, st_frontend_iteration_s). */
typedef struct st_frontend {
    const char *name;
    /* The published run: a model so small that its GPU time is a sliver of the measured
     * latencies, one request at a time: its mean time to first token and between tokens. */
    double measured_ttft_s, measured_itl_s;
    /* The engine model's same run with no front end (frontend: none): its mean time to first
     * token and per output token; tests/unit/serve/test_frontend.c re-runs it and holds these
     * to the model. */
    double engine_ttft_s, engine_tpot_s;
} st_frontend;

/* The rows, in the order `frontend:` lists them in an error; a NULL name ends them. */
extern const st_frontend st_frontends[];

/* The row named name, or NULL. */
const st_frontend *st_frontend_find(const char *name);

/* The rows' names, ", "-separated, into buf of n bytes, for messages. */
void st_frontend_names(char *buf, size_t n);

/* The host's time per iteration, seconds: what separates two tokens beyond the engine's own
 * iteration. */
double st_frontend_iteration_s(const st_frontend *f);

/* A request's time in the front end, seconds: its first token's latency beyond the engine's
 * prefill iteration and the host's time on that iteration. */
double st_frontend_request_s(const st_frontend *f);

#endif
