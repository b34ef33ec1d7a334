/* The subcommand table and the helpers every subcommand shares. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

const st_cmd st_cmd_table[] = {
    {"run", st_cmd_run, "load a scenario, simulate it and report the forecast",
     "usage: strata run FILE [-o REPORT.json] [--format text|json] [--seed N] [--explain]\n"
     "                       [--trace TRACE.json] [--replicas N]\n\n"
     "Loads FILE, simulates every workload on its cluster and prints a summary.\n\n"
     "  -o, --output FILE   also write the JSON report to FILE (atomically)\n"
     "  --format text|json  what to print on stdout (default text)\n"
     "  --seed N            override the scenario's seed\n"
     "  --explain           print the seed's closed forms beside the simulated values\n"
     "  --trace FILE        write the first training workload's step as a Chrome/Perfetto\n"
     "                      trace (open it in ui.perfetto.dev)\n"
     "  --replicas N        run each job's life (checkpoints, failures) under N seeds and\n"
     "                      report the mean and its 95% confidence interval of finish time,\n"
     "                      goodput and interruptions (N from 2 to 1000000)\n\n"
     "Same scenario and seed give a byte-identical report.\n"
     "exit status: 0 ok, 1 simulation error, 2 bad input or usage\n"},
    {"check", st_cmd_check, "validate a scenario without simulating it",
     "usage: strata check FILE...\n\n"
     "Loads each FILE and reports every problem as FILE:LINE:COLUMN: error: MESSAGE\n"
     "(up to 20 per file). Prints a one-line summary of each valid file.\n"
     "exit status: 0 all valid, 2 any invalid\n"},
    {"catalog", st_cmd_catalog, "list the GPUs and model presets scenarios can name",
     "usage: strata catalog [gpus|models]\n\n"
     "Prints the catalog's GPUs (dense peak FLOP/s, HBM, NVLink, power) and model presets\n"
     "(shape and parameter count), with the source of their figures in docs/guide/catalog.md.\n"},
    {"validate", st_cmd_validate, "run the published validation cases: predicted vs measured",
     "usage: strata validate [--fabric] [--step] [--life] [--dir DIR] [--markdown]\n\n"
     "Runs every published case in scenarios/ through the models and prints, per case, the\n"
     "measured and predicted values, the error and whether it is within its bound.\n\n"
     "  --fabric    the nccl-tests collective set\n"
     "  --step      the published training runs: every DIR/*.yaml with a validation: section\n"
     "              (DIR defaults to scenarios/validation)\n"
     "  --life      checkpoints and failures: Daly's examples, the Monte Carlo against\n"
     "              Daly's expected wall time, and the cases in DIR/life\n"
     "              (with no set named, all of them run)\n"
     "  --markdown  print docs/guide/validation.md (CI checks that the file matches)\n\n"
     "exit status: 0 every validation row within its bound, 1 otherwise\n"},
    {NULL, NULL, NULL, NULL},
};

void st_cli_print_diag(const st_diag *d)
{
    char line[512];
    for (int i = 0; i < d->n; i++) {
        st_err_format(&d->items[i], line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
    if (d->n >= ST_DIAG_MAX)
        fprintf(stderr, "(stopped after %d errors)\n", ST_DIAG_MAX);
}

void st_cli_print_warnings(const st_scn *s)
{
    const st_diag *w = st_scn_warnings(s);
    for (int i = 0; i < w->n; i++) {
        const st_loc *l = &w->items[i].loc;
        fprintf(stderr, "%s:%u:%u: warning: %s\n", l->file, l->line, l->col, w->items[i].msg);
    }
}

int st_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "strata %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nsee 'strata %s --help'\n", cmd);
    return ST_EXIT_INPUT;
}

int st_cli_wants_help(const char *arg, const char *cmd)
{
    if (strcmp(arg, "--help") != 0 && strcmp(arg, "-h") != 0)
        return 0;
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        if (strcmp(c->name, cmd) == 0)
            fputs(c->usage, stdout);
    return 1;
}

int st_cli_write_atomic(const char *path, const char *data, size_t len, char *why, size_t n)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, n, "cannot create a temporary file next to '%s': %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file 0600; give the report the mode a plain fopen would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    ok = f ? (fclose(f) == 0) && ok : (close(fd), 0);
    if (ok && rename(tmp, path) == 0) {
        free(tmp);
        return 0;
    }
    snprintf(why, n, "cannot write '%s': %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
}
