/* The `strata` command: subcommands, shared option handling and output helpers. cli/ parses
 * arguments, calls the layers below (the report layer, report/report.h, turns results into
 * text), writes files and maps error codes to exit status. */
#ifndef ST_CLI_CLI_H
#define ST_CLI_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/config/limits.h"
#include "models/forecast/run.h"
#include "report/report.h"
#include "scenarios/override.h"
#include "scenarios/scenario.h"

/* Exit status, as `strata --help` documents. */
enum { ST_EXIT_OK = 0, ST_EXIT_SIM = 1, ST_EXIT_INPUT = 2 };

typedef struct st_cmd {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
    const char *summary;
    const char *usage; /* printed by `strata NAME --help` */
} st_cmd;

extern const st_cmd st_cmd_table[];

int st_cmd_run(int argc, char **argv);
int st_cmd_check(int argc, char **argv);
int st_cmd_catalog(int argc, char **argv);
int st_cmd_validate(int argc, char **argv);
int st_cmd_compare(int argc, char **argv);
int st_cmd_audit(int argc, char **argv);
int st_cmd_sweep(int argc, char **argv);
int st_cmd_size(int argc, char **argv);
int st_cmd_calibrate(int argc, char **argv);

/* Print every collected error as "file:line:col: error: msg" on stderr. */
void st_cli_print_diag(const st_diag *d);

/* Print one error as st_err_format lays it out, on stderr, whole however long its file name. */
void st_cli_print_err(const st_err *e);

/* Print a loaded scenario's warnings as "file:line:col: warning: msg" on stderr; they do not
 * change the exit status. */
void st_cli_print_warnings(const st_scn *s);

/* Under an MPI launcher that started several processes (cli/mpi_guard.c): 1 and the reason in
 * why (n bytes) when command must not run there (a build without MPI, a launcher other than
 * Open MPI's, a command other than sweep), else 0. have_mpi: this build has Open MPI; env reads
 * the environment (getenv). */
int st_cli_mpi_refusal(const char *command, int have_mpi, const char *(*env)(const char *),
                       char *why, size_t n);
/* The same for this process and build: 0, or ST_EXIT_INPUT after saying why on stderr. */
int st_cli_mpi_guard(const char *command);

/* A usage error: "strata NAME: msg" and a pointer to --help on stderr; returns ST_EXIT_INPUT. */
int st_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* An option of one value (opt, bit `bit` of the caller's *seen) given a second time: a usage
 * error, where the last one silently won (`--seed 1 --seed 2` ran seed 2); else 0, marking it. */
int st_cli_once(const char *cmd, const char *opt, unsigned *seen, unsigned bit);

/* Argument a checked against a command's options of one value, once[k] the spellings of option
 * k separated by spaces ("-o --output"), NULL-ended (at most 32): st_cli_once of bit k where a
 * is one; 0 for any other argument. */
int st_cli_once_of(const char *cmd, const char *const *once, const char *a, unsigned *seen);

/* Option opt's value val (NULL: missing) read under rule r by the shared value parser
 * (models/config/limits.h: unit, sign, whole number and the limit row) into *out: 0, or a usage
 * error of command cmd that states the true bound (exit ST_EXIT_INPUT). */
int st_cli_value(const char *cmd, const char *opt, const char *val, const st_value_rule *r,
                 double *out);

/* What an option's value names: a file the command writes, a file it reads, a folder. */
typedef enum { ST_CLI_WRITES, ST_CLI_READS, ST_CLI_FOLDER } st_cli_path_kind;

/* The value val (NULL: missing) of option opt, which names a file or folder: 0, or a usage error
 * of cmd (exit ST_EXIT_INPUT) before anything runs, for a value that is missing or empty, that is
 * '-' (no command reads standard input or writes standard output through a name), or that begins
 * with '-', which is the next option taken as the value (`--trace --explain` wrote a file named
 * --explain; './-x' names such a file), or a name this system cannot open: a component longer
 * than NAME_MAX or a whole longer than PATH_MAX (a run of minutes ended "File name too long"). */
int st_cli_path_arg(const char *cmd, const char *opt, const char *val, st_cli_path_kind kind);

/* The value val (NULL: missing) of option opt, which names something of the scenario (a
 * workload, a pool), `what` saying which: 0, or a usage error of cmd (exit ST_EXIT_INPUT) for a
 * value that is missing or empty, or that is one of cmd's own options or begins with "--": the
 * next option taken as the name (`size --existing --deadline 30d` went on to refuse '30d' as a
 * second scenario). A name that begins with one '-' and is no option of cmd is taken. */
int st_cli_name_arg(const char *cmd, const char *opt, const char *val, const char *what);

/* True when argv[i] asks for help. Prints the subcommand's usage on stdout. */
int st_cli_wants_help(const char *arg, const char *cmd);

/* Argument a, not an option of command cmd: a usage error, "unknown option 'a'" with the
 * nearest of the command's options its --help lists ("; did you mean '--format'?"), or for
 * `--seed=5`, an option of cmd written with '=', the form to use ("use '--seed 5'"). */
int st_cli_unknown_option(const char *cmd, const char *a);

/* One option and the argument after it (NULL at the end): 0 when the option took that value,
 * -2 when it took none, > 0 a usage error already printed, -1 not an option of the command. */
typedef int (*st_cli_opt_fn)(const char *arg, const char *val, void *opts);

/* The command line of subcommand cmd (argv[0] is cmd): each option through one(), and one
 * scenario FILE into *file. Returns 0; 1 after printing --help; or ST_EXIT_INPUT after a usage
 * error (an unknown option, a second file, no file). */
int st_cli_parse_args(const char *cmd, int argc, char **argv, st_cli_opt_fn one, void *opts,
                      const char **file);

/* The format a command writes to -o path: the one its extension names (".html" or ".htm",
 * ".md" or ".markdown", ".csv", ".json", ".txt", in any case) into *format ("html", "markdown",
 * "csv", "json", "text"; NULL for another extension or none), where `strata run -o r.html` used
 * to write JSON into r.html. With --format given (its value `given`, under which the file gets
 * the format `gets`; a .txt file gets the text of --format text) the two must agree. A command
 * without a text format (has_text 0) refuses a .txt name unless --format says what it gets.
 * 0, or a usage error (exit 2). */
int st_cli_output_format(const char *cmd, const char *path, const char *given, const char *gets,
                         int has_text, const char **format);

/* Load scenario file, with calibration (NULL: none) as its cluster.calibration
 * (`--calibration FILE`, a path from the working folder, in place of any the file names):
 * 0, or ST_EXIT_INPUT after printing the load's errors. */
int st_cli_load(const char *file, const char *calibration, st_scn **s);

/* `--calibration FILE` as the override of cluster.calibration st_cli_load puts in: the path
 * made absolute from the working folder (the loader reads a relative one from the scenario's),
 * its errors located at "--calibration FILE". Both texts malloc'd into *path and *label, which
 * the override points at. */
st_scn_set st_cli_calibration_set(const char *calibration, char **path, char **label);

/* A command that models a cluster of one GPU type refuses a scenario with cluster.pools: 0, or
 * ST_EXIT_INPUT after printing why (what) at the pools, located. */
int st_cli_refuse_pools(const char *cmd, const st_scn *s, const char *what);

/* Write data to path (cli/write_file.c). A regular file or a new path is written through a
 * temporary file in the same folder, fsync'd and renamed, so a reader never sees half a report
 * and a signal that ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) leaves no
 * temporary file behind. A device, FIFO or socket is written straight through, and a symbolic link
 * is followed, never replaced. Every write and the close are checked. Returns 0, or -1 with a
 * message in why. */
int st_cli_write_atomic(const char *path, const char *data, size_t len, char *why, size_t n);

/* A command that has reported its own failure to write standard output says so, and main's
 * final check of stdout exits non-zero without saying it a second time. */
void st_cli_stdout_said(void);
int st_cli_stdout_was_said(void);

/* A file a command writes, and the option that names it ("-o", "--trace"). */
typedef struct st_cli_file {
    const char *what, *path;
} st_cli_file;

/* Refuse, before anything is written, an output that is a file scenario s was read from (the
 * scenario, its job trace, its calibration file, a service's request trace) or another output
 * (the same regular file through any path or link, or the same new path): a usage error naming
 * both (exit ST_EXIT_INPUT), else 0. Outputs with a NULL path are not given; devices, FIFOs and
 * terminals are written through and may repeat. cli/outputs.c. */
int st_cli_check_outputs(const char *cmd, const st_scn *s, const st_cli_file *out, size_t n_out);

/* The same, with more[0..n_more) read too (a sweep's values that name files). */
int st_cli_check_outputs_in(const char *cmd, const st_scn *s, const st_cli_file *more,
                            size_t n_more, const st_cli_file *out, size_t n_out);

#endif
