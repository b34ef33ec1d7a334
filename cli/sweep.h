/* `strata sweep`'s pieces in cli/: the worker processes and the resume journal of the rows
 * planner/sweep.c computes (report/sweep_out.h writes them). Internal to cli/. */
#ifndef ST_CLI_SWEEP_H
#define ST_CLI_SWEEP_H

#include <signal.h>
#include <stddef.h>

#include "planner/sweep.h"
#include "report/sweep_out.h"

/* Open the journal path for reading and appending, created 0644 if absent, without following a
 * symbolic link (O_NOFOLLOW: a link planted there would have the rows appended to whatever it
 * names) and refusing anything but a regular file (a FIFO would block), both before a byte is
 * read or written; the open itself never blocks. Returns the descriptor, or -1 with the reason
 * in why. */
int st_sweep_journal_open(const char *path, char *why, size_t n);

/* Whether path is a regular file that starts with a journal row (a sweep's journal, or one whose
 * first row a kill tore): 0 for a new, empty or other file. So -o never names one: the results
 * would replace the rows another sweep resumes from. */
int st_sweep_journal_is(const char *path);

/* The rows the journal fd (one line per finished point: its key, a tab, its cells joined by
 * tabs), named path in messages, holds for the points of sw: rows[p] is set (malloc'd cells) for
 * each point p whose key has a whole line there, and *filled counts them; a torn last line is
 * skipped and ended with a newline, so the next row starts a line of its own. A whole row whose
 * key is a point's but whose values are not that point's, or whose status is none a sweep
 * writes, was edited or damaged: it is refused, never copied into the results. Returns 0, -1
 * when the journal cannot be read or ended, or -2 for a refused row ("path:line: ..."), each with
 * the reason in why. */
int st_sweep_journal_read(int fd, const char *path, const st_sweep *sw, char ***rows,
                          size_t *filled, char *why, size_t n);

/* Append point p's row and fsync, so a row the journal has survives any interrupt. Returns 0,
 * or -1 with the reason in why. */
int st_sweep_journal_add(int fd, const st_sweep *sw, size_t p, char **cells, char *why, size_t n);

/* Where the workers and the MPI ranks hand their rows, in the process that writes them. */
typedef struct st_sweep_sink {
    /* Point p's row (cells malloc'd; the callee keeps them). failed: the process computing p
     * died before sending its row, and cells is st_sweep_point_failed's row saying how. Returns
     * nonzero to stop the sweep. */
    int (*row)(void *ctx, size_t p, char **cells, int failed);
    void (*tick)(void *ctx); /* NULL, or called at least every 250 ms while rows are awaited */
    void *ctx;
} st_sweep_sink;

/* Compute the points left[0..n_left) on up to `workers` forked processes. Each worker is handed
 * one point at a time, in the order of left, and sends its row back before it gets the next, so
 * the parent always knows which point a worker is on: when a worker dies (a crash, a kill from
 * outside such as the OOM killer's), that point alone is handed to the sink as a failed row
 * naming the signal or exit status, a new worker is forked in its place, and the other points
 * go on. A point's row depends on the point alone, never on which worker computed it or after
 * what. Returns 0, or -1 when no worker could be started or a worker sent a malformed row (with
 * the reason in why) or the sink stopped (why left as the sink left it). */
/* The actions a forked worker gives SIGINT and SIGTERM: the ones the sweep's parent found before
 * it installed its own handler (copied). NULL, NULL: SIG_DFL, or SIG_IGN where the parent
 * ignores the signal. */
void st_sweep_workers_signals(const struct sigaction *sigint, const struct sigaction *sigterm);

int st_sweep_workers(const st_sweep *sw, const size_t *left, size_t n_left, int workers,
                     const st_sweep_sink *sink, char *why, size_t n);

/* MPI (cli/sweep_mpi.c). st_sweep_mpi_init starts MPI when this build has it and the process
 * was started by mpirun, setting its rank and the number of ranks: returns 1 then, 0 when the
 * process is not under MPI, -1 when MPI would not start. */
int st_sweep_mpi_init(int *rank, int *size);

/* Under MPI: every rank calls it with rank 0's to-do list (the other ranks' left and n_left are
 * not read); each computes left[k] for every k = rank mod size, and rank 0 hands every row to
 * the sink (never a failed one: a rank that dies ends the whole MPI job, and the rows rank 0 has
 * journalled by then are kept). Returns 0, or -1 with the reason in why (rank 0). */
int st_sweep_mpi_run(const st_sweep *sw, const size_t *left, size_t n_left,
                     const st_sweep_sink *sink, char *why, size_t n);

/* Rank 0's exit status rc on every rank, then MPI's end; rc unchanged when not under MPI. */
int st_sweep_mpi_finish(int rc);

/* Cells as one tab-joined line ending in "\n", and back: st_sweep_cells_parse splits line
 * (which it changes) into exactly n_cols malloc'd cells, or returns NULL. */
char *st_sweep_cells_line(char **cells, size_t n_cols);
char **st_sweep_cells_parse(char *line, size_t n_cols);
void st_sweep_cells_free(char **cells, size_t n_cols);

#endif
