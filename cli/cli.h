/* The `strata` command: subcommands, shared option handling and output helpers. Only cli/
 * writes files and maps error codes to exit status. */
#ifndef ST_CLI_CLI_H
#define ST_CLI_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/fabric/fabric_run.h"
#include "models/forecast.h"
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

/* Print every collected error as "file:line:col: error: msg" on stderr. */
void st_cli_print_diag(const st_diag *d);

/* A usage error: "strata NAME: msg" and a pointer to --help on stderr; returns ST_EXIT_INPUT. */
int st_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* True when argv[i] asks for help. Prints the subcommand's usage on stdout. */
int st_cli_wants_help(const char *arg, const char *cmd);

/* Write data to path through a temporary file in the same folder and a rename, so a reader
 * never sees half a report. Returns 0, or -1 with a message in why. */
int st_cli_write_atomic(const char *path, const char *data, size_t len, char *why, size_t n);

/* Everything a run computed, indexed like the scenario's workloads: a training workload has its
 * forecast in f[i] (coll[i].w is NULL), a collective workload its result in coll[i] (f[i].w is
 * NULL). The report writers read only this. */
typedef struct st_run {
    const st_scn *s;
    uint64_t seed;
    size_t n;
    st_forecast *f;
    st_coll_result *coll;
    int has_fabric; /* some workload ran on the fabric model: fab is filled */
    st_fabric_result fab;
    int explain;      /* --explain: show the seed's closed forms beside the simulation */
    int64_t replicas; /* --replicas N: job lives under N seeds (0: one life, the seed's) */
} st_run;

/* Write one step's pipeline as Chrome / Perfetto trace-event JSON (a process per pipeline
 * stage; threads for compute and for sends each way), atomically. Returns 0 or ST_EIO. */
int st_cli_write_trace(const char *path, const st_workload_cfg *w, const st_pipe_trace *t,
                       st_err *err);

/* The JSON report (shared/scenario-format.md keys). Returns a malloc'd string ending in a
 * newline; the caller frees it. */
char *st_report_json(const st_run *r);

/* The human summary of a run. */
void st_report_text(FILE *out, const st_run *r);

#endif
