/* `strata sweep`'s pieces in cli/: the worker processes, the resume journal and the writers of
 * the rows planner/sweep.c computes. Internal to cli/. */
#ifndef ST_CLI_SWEEP_H
#define ST_CLI_SWEEP_H

#include <stddef.h>

#include "planner/sweep.h"

typedef enum st_sweep_format {
    ST_SWEEP_CSV,
    ST_SWEEP_JSON,
    ST_SWEEP_MARKDOWN,
    ST_SWEEP_HTML
} st_sweep_format;

/* rows[0..n), each sw->n_cols cells, as one text in format f (CSV with a header line, a JSON
 * object with the columns and one object per point, a Markdown table, or an HTML page of the
 * JSON's points: st_sweep_html). Malloc'd. */
char *st_sweep_render(const st_sweep *sw, char ***rows, size_t n, st_sweep_format f);

/* The sweep's JSON text (st_sweep_render's) as a self-contained HTML page: a curve per report
 * column against the first axis, and the table of points (cli/sweep_html.c). Malloc'd. */
char *st_sweep_html(const st_sweep *sw, const char *json);

/* The rows a journal (one line per finished point: its key, a tab, its cells joined by tabs)
 * holds for the points of sw: rows[p] is set (malloc'd cells) for each point p whose key has a
 * whole line there; a missing file is an empty journal, a torn last line is skipped. Returns
 * how many points it filled. */
size_t st_sweep_journal_read(const char *path, const st_sweep *sw, char ***rows);

/* Open the journal for appending (created 0644 if absent). Returns the descriptor or -1 with
 * the reason in why. */
int st_sweep_journal_open(const char *path, char *why, size_t n);

/* Append point p's row and fsync, so a row the journal has survives any interrupt. Returns 0,
 * or -1 with the reason in why. */
int st_sweep_journal_add(int fd, const st_sweep *sw, size_t p, char **cells, char *why, size_t n);

/* Compute the points left[0..n_left) on `workers` forked processes, worker w taking left[k]
 * for every k = w mod workers, so which process computes a point never depends on timing.
 * Each row is handed to done(ctx, point, cells) in the parent as it arrives (cells malloc'd,
 * the callee keeps them); done returns nonzero to stop. A point whose worker died before its
 * row is never handed to done. Returns 0, or -1 when a process or pipe could not be made or done
 * stopped (with the reason in why). */
int st_sweep_workers(const st_sweep *sw, const size_t *left, size_t n_left, int workers,
                     int (*done)(void *ctx, size_t p, char **cells), void *ctx, char *why,
                     size_t n);

/* MPI (cli/sweep_mpi.c). st_sweep_mpi_init starts MPI when this build has it and the process
 * was started by mpirun, setting its rank and the number of ranks: returns 1 then, 0 when the
 * process is not under MPI, -1 when MPI would not start. */
int st_sweep_mpi_init(int *rank, int *size);

/* Under MPI: every rank calls it with rank 0's to-do list (the other ranks' left and n_left are
 * not read); each computes left[k] for every k = rank mod size, and rank 0 hands every row to
 * done as st_sweep_workers does. Returns 0, or -1 with the reason in why (rank 0). */
int st_sweep_mpi_run(const st_sweep *sw, const size_t *left, size_t n_left,
                     int (*done)(void *ctx, size_t p, char **cells), void *ctx, char *why,
                     size_t n);

/* Rank 0's exit status rc on every rank, then MPI's end; rc unchanged when not under MPI. */
int st_sweep_mpi_finish(int rc);

/* Cells as one tab-joined line ending in "\n", and back: st_sweep_cells_parse splits line
 * (which it changes) into exactly n_cols malloc'd cells, or returns NULL. */
char *st_sweep_cells_line(char **cells, size_t n_cols);
char **st_sweep_cells_parse(char *line, size_t n_cols);
void st_sweep_cells_free(char **cells, size_t n_cols);

#endif
