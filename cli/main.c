/* Entry point of the `strata` command: a git-style table of subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

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

int main(int argc, char **argv)
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
