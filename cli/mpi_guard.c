/* A process that an MPI launcher started as one of several must not run a whole command
 * alone: `mpirun -n 2 strata sweep` on a build without MPI used to run the sweep twice into the
 * same files. Only a build with Open MPI, under Open MPI's launcher, runs `sweep` on several
 * ranks (cli/sweep_mpi.c); every other case is refused before the command reads anything. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The variables launchers set to the number of processes they started, each with its launcher:
 * Open MPI's mpirun (mpirun(1), "Exported environment variables"), the PMI of MPICH's Hydra and
 * Intel MPI's mpiexec, MVAPICH2's mpirun_rsh. */
static const struct {
    const char *var, *launcher;
} launchers[] = {
    {"OMPI_COMM_WORLD_SIZE", "Open MPI's mpirun"},
    {"PMI_SIZE", "an MPICH or Intel MPI mpiexec"},
    {"MV2_COMM_WORLD_SIZE", "MVAPICH2's mpirun"},
};

int st_cli_mpi_refusal(const char *command, int have_mpi, const char *(*env)(const char *),
                       char *why, size_t n)
{
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        const char *v = env(launchers[i].var);
        char *end;
        long size = v ? strtol(v, &end, 10) : 0;
        if (!v || end == v || size <= 1)
            continue;
        int ompi = i == 0;
        if (have_mpi && ompi && strcmp(command, "sweep") == 0)
            return 0; /* the one case that cooperates: sweep's ranks */
        if (!have_mpi)
            snprintf(why, n,
                     "started as one of %ld processes by %s (%s=%ld), but this strata was built "
                     "without MPI: each process would run the whole command into the same files; "
                     "run it once without the launcher, or rebuild where Open MPI is installed "
                     "(./build.sh builds MPI sweeps when it finds libopenmpi-dev)",
                     size, launchers[i].launcher, launchers[i].var, size);
        else if (!ompi)
            snprintf(why, n,
                     "started as one of %ld processes by %s (%s=%ld), but this strata was built "
                     "with Open MPI: start `strata sweep` with Open MPI's mpirun",
                     size, launchers[i].launcher, launchers[i].var, size);
        else
            snprintf(why, n,
                     "started as one of %ld MPI ranks (%s=%ld): only `strata sweep` shares its "
                     "work between ranks; run `strata %s` once, without mpirun",
                     size, launchers[i].var, size, command);
        return 1;
    }
    return 0;
}

static const char *real_env(const char *name)
{
    return getenv(name);
}

int st_cli_mpi_guard(const char *command)
{
#ifdef STRATA_HAVE_MPI
    const int have_mpi = 1;
#else
    const int have_mpi = 0;
#endif
    char why[512];
    if (!st_cli_mpi_refusal(command, have_mpi, real_env, why, sizeof why))
        return 0;
    fprintf(stderr, "strata %s: %s\n", command, why);
    return ST_EXIT_INPUT;
}
