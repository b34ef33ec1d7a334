/* Entry point of the `strata` command: a git-style table of subcommands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "scenarios/reader.h"
#include "sim/gsl_guard.h"
#include "sim/progress.h"
#include "sim/utf8.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress of long loops on stderr: by default only when stderr is a terminal, nothing for the
 * first second, then at most five updates a second on one line, cleared when the loop ends.
 * STRATA_PROGRESS=always shows every loop from its start wherever stderr goes (a line per
 * update where it is not a terminal, for logs, the last at 100% with the count the loop ended
 * at), =never shows none. Loops nest (a compare's runs,
 * each a life's replicas): the loop shown is the first that reported, until it ends; a loop
 * announces itself with done = 0 so that the loops inside it stay quiet. */
typedef struct progress_view {
    const char *what; /* the loop shown, NULL: none */
    double start, shown;
    int always, tty;
} progress_view;

static void show_progress(void *ctx, const char *what, int64_t done, int64_t total)
{
    progress_view *v = ctx;
    double t = now_s();
    if (v->what && strcmp(v->what, what) != 0)
        return; /* a loop inside the one shown */
    if (!v->what)
        v->what = what, v->start = t, v->shown = 0;
    if (done >= total) {
        if (v->shown > 0 && v->tty)
            fprintf(stderr, "\r%70s\r", "");
        else if (v->shown > 0) /* a log ends at the count done, 100%, as the report counts it */
            fprintf(stderr, "strata: %s %lld of %lld (100%%), %.0f s\n", what, (long long)done,
                    (long long)done, t - v->start);
        v->what = NULL;
        return;
    }
    if ((!v->always && t - v->start < 1.0) || (v->shown > 0 && t - v->shown < 0.2))
        return;
    v->shown = t;
    fprintf(stderr, "%sstrata: %s %lld of %lld (%.0f%%), %.0f s%s", v->tty ? "\r" : "", what,
            (long long)done, (long long)total, 100.0 * (double)done / (double)total, t - v->start,
            v->tty ? "  " : "\n");
}

/* Install the progress reporter as STRATA_PROGRESS (auto, always, never) and stderr ask. */
static void progress_setup(void)
{
    static progress_view view;
    const char *mode = getenv("STRATA_PROGRESS");
    if (mode && *mode && strcmp(mode, "auto") && strcmp(mode, "always") && strcmp(mode, "never")) {
        fputs("strata: warning: STRATA_PROGRESS='", stderr); /* it was silently auto */
        st_utf8_fputs_printable(mode, stderr);
        fputs("' is not one of auto, always or never; progress shows on a terminal only, as auto\n",
              stderr);
    }
    view.tty = isatty(STDERR_FILENO);
    view.always = mode && strcmp(mode, "always") == 0;
    if (mode && strcmp(mode, "never") == 0)
        return;
    if (view.tty || view.always)
        st_progress_set(show_progress, &view);
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
            if (strcmp(c->name, name) == 0) /* as `strata NAME --help`, lists and all */
                return st_cli_wants_help("--help", c->name), ST_EXIT_OK;
    }
    for (const st_cmd *c = st_cmd_table; c->name; c++)
        if (strcmp(c->name, name) == 0) {
            int rc = st_cli_mpi_guard(c->name); /* one of several launched processes? */
            return rc ? rc : c->run(argc - 1, argv + 1);
        }
    const char *names[32], *opts[] = {"--help", "--version"};
    size_t n = 0;
    for (const st_cmd *c = st_cmd_table; c->name && n < 32; c++)
        names[n++] = c->name;
    char near[160]; /* `strata rnu`, `strata Run`, `strata --verison` */
    if (name[0] == '-')
        st_did_you_mean(name, opts, 2, near, sizeof near);
    else
        st_did_you_mean(name, names, n, near, sizeof near);
    fputs("strata: '", stderr);
    st_utf8_fputs_printable(name, stderr); /* it echoes an argument: no raw escape reaches a tty */
    fprintf(stderr, "' is not a strata %s%s%ssee 'strata --help'\n",
            name[0] == '-' ? "option" : "command", near, near[0] ? "\n" : "; ");
    return ST_EXIT_INPUT;
}

/* Standard output is checked like every file: a report cut short by a full disk or a closed
 * pipe must not exit 0 (coreutils' close_stdout does the same). */
static int close_stdout(int rc)
{
    errno = 0;
    if (ferror(stdout) | (fclose(stdout) != 0)) {
        if (!st_cli_stdout_was_said())
            fprintf(stderr, "strata: cannot write standard output: %s\n",
                    errno ? strerror(errno) : "write error");
        return rc == ST_EXIT_OK ? ST_EXIT_SIM : rc;
    }
    return rc;
}

/* Standard input, output and error open on /dev/null where the caller closed them (`>&-`), as
 * git's sanitize_stdfds does: else the first file or socket the command opens takes the number,
 * and a report or a message meant for stdout or stderr lands in a sweep's worker socket or its
 * journal. */
static void open_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (got != fd) { /* not the lowest free number: nothing sane is left to do */
                if (got >= 0)
                    close(got);
                _exit(ST_EXIT_INPUT);
            }
        }
}

int main(int argc, char **argv)
{
    open_std_fds();
    st_gsl_guard(); /* GSL's default handler aborts; Strata's models check every status */
    /* One buffer for a whole report, so that a failing stdout (a full disk) fails at the exit's
     * flush, where close_stdout still sees the reason in errno; a larger output flushes early,
     * and then only "write error" is known. */
    static char out_buf[1 << 20];
    setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    progress_setup();
    return close_stdout(dispatch(argc, argv));
}
