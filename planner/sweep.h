/* A sweep over a scenario: every point of a grid of overrides (planner/grid.h) is a full run of
 * st_run_forecast (models/forecast/run.h) on the scenario loaded with that point's --set values,
 * and gives one row of text cells. What `strata sweep` computes; cli/ runs the points on worker
 * processes and writes the rows. */
#ifndef ST_PLANNER_SWEEP_H
#define ST_PLANNER_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "planner/grid.h"
#include "scenarios/override.h"
#include "scenarios/scenario.h"
#include "sim/err.h"

/* The status cell of a row. */
#define ST_SWEEP_OK      "ok"           /* every training job fits and the run succeeded */
#define ST_SWEEP_NOFIT   "does-not-fit" /* some training job's plan is over its GPU's memory */
#define ST_SWEEP_INVALID "invalid"      /* the scenario with the point's values does not load */
#define ST_SWEEP_ERROR   "error"        /* the models refused the run (a plan they cannot run) */

struct st_run;
/* What a row's figure cells read: the point's scenario and run, and a place the caller's cell
 * function may keep what it derives from them once for the whole row (NULL at the row's first
 * cell; freed by the figures' done after its last). */
typedef struct st_sweep_at {
    const st_scn *s;
    const struct st_run *run;
    void *memo;
} st_sweep_at;

/* cell's job index for a figure of the run's own (st_sweep_figs.n_run). */
#define ST_SWEEP_RUN ((size_t)-1)

/* The report figures a row holds for each training job, which the caller picks (cli/ from the
 * report's schema, report/figures.h; the planner names no figure): n of them, figure k's name
 * (its column is JOB.NAME), and the function that writes its cell for job i of a run into buf of
 * len bytes ("" where the run has none for the job; no tab, no newline). Borrowed: the arrays
 * and ctx outlive the sweep. */
typedef struct st_sweep_figs {
    size_t n; /* >= 1, or 0 with n_run >= 1 */
    const char *const *names;
    void (*cell)(const void *ctx, size_t k, st_sweep_at *at, size_t i, char *buf, size_t len);
    const void *ctx;
    /* a service's columns where they differ from a training job's (sweep's defaults: a
     * training job's hold nothing of a service); NULL: every job takes these */
    const struct st_sweep_figs *serve;
    /* the run's own figures (the facility's power, the scheduler's makespan): one column each a
     * row, named run_names[k] as it is, after the jobs'; their cell is cell with k from 0 and i
     * ST_SWEEP_RUN. Read from the top-level figures only. */
    size_t n_run;
    const char *const *run_names;
    void (*done)(void *memo); /* frees a row's st_sweep_at.memo; NULL: nothing to free */
} st_sweep_figs;

typedef struct st_sweep {
    const char *file;
    char *buf; /* the file's bytes, read once: every point loads the same scenario */
    size_t len;
    uint64_t hash;         /* the file's scenario_hash */
    uint64_t trace_hash;   /* FNV-1a 64 of the bytes of every file the file reads (its job trace,
                              calibration, request traces); 0: none */
    uint64_t **value_hash; /* per axis and value: the bytes of the file the value names (a swept
                              trace.file, requests.file or cluster.calibration); 0: not a file */
    const char *build;     /* st_sweep_build_id(): journal rows of another build are not reused */
    const st_grid *grid;
    char **cols; /* n_cols column names: the axes' paths, status, per training job and service
                    of the scenario its report figures (JOB.step_time_s ...), the run's own
                    figures (figs.run_names), reason */
    size_t n_cols, cap_cols;
    char **at_path;     /* per axis "--set PATH": where a wrong path's errors point */
    st_sweep_figs figs; /* the report figures of each training job's columns */
    /* an override of every point before its axes' (cli's --calibration FILE: one input of the
       whole sweep, not an axis, so no column); NULL: none. Borrowed, as the grid. */
    const st_scn_set *fixed;
    st_scn *base; /* the file without overrides: its warnings are said once, not per point */
} st_sweep;

/* Read file and name the columns from its training workloads: for each, the figures of figs
 * (borrowed, as g and fixed are: all outlive sw). fixed (NULL: none) is applied to the file and to
 * every point before the point's own values: a bad one (a calibration file that does not load)
 * is wrong for every point, so it is the open's error, never a row's. Returns 0, or the loader's
 * code with its located errors in diag when the file itself (with fixed alone) does not load,
 * when point 0's overrides name a path the scenario does not have (an unknown key, a missing
 * list entry: wrong for every point, so not a row), or when two axes name one key in two
 * spellings (st_scn_set_canon). */
int st_sweep_open(st_sweep *sw, const char *file, const st_grid *g, const st_sweep_figs *figs,
                  const st_scn_set *fixed, st_diag *diag);

/* Point p's key: 16 hex digits of a 64-bit FNV-1a over the scenario's hash, the bytes of every
 * file it reads (its own and those its values name), the build identity (sw->build), the column
 * names and the point's PATH=VALUE pairs. Equal keys mean the same row: an edited trace or
 * calibration file computes its points again. */
void st_sweep_key(const st_sweep *sw, size_t p, char key[17]);

/* Run point p and fill cells[0..n_cols) with malloc'd text (no tab, no newline in any): the
 * point's values, its status (ST_SWEEP_*), the report figures ("" where the run has none) and
 * the reason when the status is not ok. Never fails: a bad point is a row saying why. */
void st_sweep_point(const st_sweep *sw, size_t p, char **cells);

/* The row of point p when it has no result of its own (the process computing it died): its
 * values, status ST_SWEEP_ERROR, empty figures and reason (copied), into cells[0..n_cols). */
void st_sweep_point_failed(const st_sweep *sw, size_t p, const char *reason, char **cells);

/* Point p's values alone, into cells[0..grid->n_ax) (malloc'd). */
void st_sweep_point_values(const st_sweep *sw, size_t p, char **cells);

void st_sweep_close(st_sweep *sw);

/* The identity of this build of strata: a SHA-256 (64 hex digits) of every source file compiled
 * into it and of the build's compiler and flags, made at build time by cmake/build_id.cmake
 * whenever one of them changes (the generated build_id.c), so that a sweep journal row from
 * another build, whose models or embedded tables may differ, is never taken for this one's. */
const char *st_sweep_build_id(void);

#endif
