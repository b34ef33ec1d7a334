/* What the files of a job's life (lifetime.c) share: the life's state on its engine, its
 * failure classes and stop streams, and the steps of its run split among life_spec.c (the spec
 * checked and in ticks), life_failures.c (the failure draws), life_cycle.c (the checkpoint
 * cycle), life_interrupt.c (failures and announced stops) and life_check.c (the pre-flight
 * bound). Internal to models/reliability. */
#ifndef ST_MODELS_RELIABILITY_LIFETIME_INTERNAL_H
#define ST_MODELS_RELIABILITY_LIFETIME_INTERNAL_H

#include <stdint.h>

#include "models/reliability/lifetime.h"
#include "models/reliability/spares.h"
#include "sim/engine.h"
#include "sim/rng.h"

/* What the job is doing. Progress grows only in COMPUTE. */
enum {
    PH_COMPUTE,    /* training */
    PH_STALL,      /* paused while a checkpoint is taken */
    PH_WAIT_START, /* a checkpoint is due, the previous one has not committed yet */
    PH_WAIT_END,   /* all work done, the final checkpoint has not committed yet */
    PH_DOWN,       /* detect + restart + restore after a failure */
    PH_SKIPPED,    /* jumped over whole checkpoint cycles; their time is already counted */
    PH_DONE
};

/* At one nanosecond, a checkpoint that commits counts before a failure at that instant, and the
 * job's own events come before failures too. Such ties have probability ~1e-9 per event; the
 * order only has to be fixed, not clever. */
enum { PRIO_COMMIT = 0, PRIO_JOB = 1, PRIO_FAIL = 2 };

/* A class run as per-component renewal processes: one pending engine event per component. */
typedef struct wclass {
    st_rng *rng;
    double scale, shape;
    double loss;  /* st_life_class.mem_loss */
    int64_t take; /* nodes a failure takes out, and for how long (spares) */
    st_time repair;
} wclass;

/* A Poisson stream of announced stops (lifetime.h): planned interruptions, and exclusions of
 * fail-slow nodes. Each has its own random stream and engine event kind, so the failures' draws
 * and the other stream's are those of a job without it. */
enum { STOP_PLANNED, STOP_SLOW, N_STOPS };

typedef struct stop_stream {
    int kind;      /* its engine event kind */
    st_rng *rng;   /* gap_s 0: none */
    double gap_s;  /* mean gap, of wall time */
    st_time down;  /* the save's commit + restart + restore, and what the kind adds */
    int64_t count; /* stops made */
} stop_stream;

typedef struct life {
    st_engine *eng;
    int k_mark, k_stall, k_commit, k_up, k_fail, k_comp;
    /* The spec in ticks. */
    st_time work, every, stall, commit, down, horizon;
    stop_stream stops[N_STOPS];
    /* The in-memory level (mem = 0: none): a snapshot every `mem` ticks of progress, which
     * here runs mem_stall longer per snapshot interval (the work and `every` are stretched by
     * the same factor); work0 is the work unstretched, down_mem the downtime of a restore from
     * memory. */
    st_time mem, work0, down_mem;
    st_rng *mem_rng; /* draws whether a failure loses the in-memory copy */
    int mem_ok;      /* in a downtime: the in-memory copy survived every failure of it */
    /* Failure sources: the merged Poisson process (gap_s = 0: none; gap_loss its failures'
     * probability of losing the in-memory copy) and the renewal classes. */
    st_rng *rng;
    double gap_s, gap_loss;
    wclass *wc;
    int nwc;
    /* Spare nodes (has_spares): the nodes out, the merged exponential classes' rates, takes and
     * repairs (n_exp of them) to tell which failed, drawn from spare_rng, and the time the job
     * would be up without waiting for a spare (up_plain) and the waits summed. */
    st_spares spares;
    int has_spares, n_exp;
    double *exp_rate;
    wclass *exp_cls;
    st_rng *spare_rng;
    st_time up_plain, spare_wait;
    int skip; /* jump over whole checkpoint cycles when nothing else can happen (default) */
    /* State. inflight is the progress a checkpoint being written holds, -1 when none. */
    int phase;
    st_time t_phase, progress, committed, inflight;
    st_ev_handle ev_mark, ev_stall, ev_commit, ev_up;
    /* Totals, in ticks. */
    int64_t interruptions, checkpoints;
    st_time lost, downtime, stalled, end;
} life;

/* ---- The spec (life_spec.c) ---------------------------------------------------------------- */

/* Seconds s to engine ticks into *out, rounded to the nearest nanosecond; ST_EINVAL (naming
 * `what`) when s is not finite and >= 0 or is over 2^61 ns. */
int st__life_to_ticks(double s, const char *what, st_time *out, st_err *err);

/* The number of components a class stands for (st_life_class.count). */
int64_t st__life_class_count(const st_life_class *c);

/* Check the spec and convert it to ticks in L: 0, or ST_EINVAL / ST_ELIMIT with a message. */
int st__life_load_spec(life *L, const st_life_spec *s, st_err *err);

/* ---- The failures and stops drawn (life_failures.c) ---------------------------------------- */

/* Schedule kind dt_s seconds from now at PRIO_FAIL, unless that is past the horizon. */
void st__life_schedule_after(life *L, int kind, double dt_s, const st_payload *data);

/* Open the failure and stop streams of replica `replica` under seed and schedule each one's
 * first event (mode: st__life_run_mode's). */
void st__life_start_failures(life *L, const st_life_spec *s, uint64_t seed, uint64_t replica,
                             int mode);

/* ---- The checkpoint cycle (life_cycle.c) --------------------------------------------------- */

/* Schedule the next point where progress needs attention: a checkpoint or the end of the work. */
void st__life_schedule_mark(life *L, st_time now);

/* Close the current phase at now: progress or stall up to now is counted. */
void st__life_settle(life *L, st_time now);

/* The engine handlers of the job's own events: a mark, a stall's end, a commit, up again. */
void st__life_on_mark(st_engine *eng, void *state, const st_event *ev);
void st__life_on_stall_end(st_engine *eng, void *state, const st_event *ev);
void st__life_on_commit(st_engine *eng, void *state, const st_event *ev);
void st__life_on_up(st_engine *eng, void *state, const st_event *ev);

/* ---- Interruptions (life_interrupt.c) ------------------------------------------------------ */

/* The engine handlers of a merged failure, a renewal component's failure and an announced
 * stop. */
void st__life_on_fail(st_engine *eng, void *state, const st_event *ev);
void st__life_on_comp_fail(st_engine *eng, void *state, const st_event *ev);
void st__life_on_stop(st_engine *eng, void *state, const st_event *ev);

/* Whether the job can save at an announced stop: it checkpoints at all. */
int st__life_saves_at_stop(const life *L);

/* ---- Before simulating (life_check.c) ------------------------------------------------------ */

/* 0 when the job is expected to finish by the horizon through fewer interruptions than a life
 * simulates; ST_ELIMIT or ST_ERANGE with a message otherwise. */
int st__life_check_finishes(const life *L, const st_life_spec *s, st_err *err);

#endif
