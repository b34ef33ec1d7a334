/* Entry point of the `strata` command: a git-style table of subcommands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/gsl_guard.h"
#include "sim/progress.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress of long loops on stderr, installed only when stderr is a terminal: nothing for the
 * first second, then at most five updates a second on one line, cleared when the loop ends. */
static void show_progress(void *ctx, const char *what, int64_t done, int64_t total)
{
    double *last = ctx, t = now_s();
    if (last[0] == 0)
        last[0] = t; /* the loop's start */
    if (done >= total) {
        if (last[1] > 0)
            fprintf(stderr, "\r%60s\r", "");
        last[0] = last[1] = 0;
        return;
    }
    if (t - last[0] < 1.0 || t - last[1] < 0.2)
        return;
    last[1] = t;
    fprintf(stderr, "\rstrata: %s %lld of %lld (%.0f%%)  ", what, (long long)done, (long long)total,
            100.0 * (double)done / (double)total);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: strata [--version] [--help] <command> [<args>]\n\n"
                 "Discrete-event simulator and capacity planner for AI training clusters.\n\n"
                 "commands:\n");
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\n'strata <command> --help' describes a command.\n"
                 "exit status: 0 ok, 1 simulation error, 2 bad input or usage\n");
}

/* Run the command line: options of strata itself, or one subcommand. */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return ST_EXIT_INPUT;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return ST_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("strata %s\n", STRATA_VERSION);
        return ST_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return ST_EXIT_OK;
        }
        name = argv[2];
        for (const st_cmd *c = st_cmd_table; c->name; c++)
            if (strcmp(c->name, name) == 0) {
                fputs(c->usage, stdout);
                return ST_EXIT_OK;
            }
    }
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "strata: '%s' is not a strata command; see 'strata --help'\n", name);
    return ST_EXIT_INPUT;
}

/* Standard output is checked like every file: a report cut short by a full disk or a closed
 * pipe must not exit 0 (coreutils' close_stdout does the same). */
static int close_stdout(int rc)
{
    errno = 0;
    if (ferror(stdout) | (fclose(stdout) != 0)) {
        fprintf(stderr, "strata: cannot write standard output: %s\n",
                errno ? strerror(errno) : "write error");
        return rc == ST_EXIT_OK ? ST_EXIT_SIM : rc;
    }
    return rc;
}

int main(int argc, char **argv)
{
    static double progress_times[2];
    st_gsl_guard(); /* GSL's default handler aborts; Strata's models check every status */
    /* One buffer for a whole report, so that a failing stdout (a full disk) fails at the exit's
     * flush, where close_stdout still sees the reason in errno; a larger output flushes early,
     * and then only "write error" is known. */
    static char out_buf[1 << 20];
    setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    if (isatty(STDERR_FILENO))
        st_progress_set(show_progress, progress_times);
    return close_stdout(dispatch(argc, argv));
}
