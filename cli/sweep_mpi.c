/* Sweep points on MPI ranks (`mpirun -n N strata sweep ...`): rank 0 hands every rank the same
 * to-do list, rank r computes left[k] for every k = r mod N (a fixed share), the
 * other ranks send their rows to rank 0 as the "POINT\tCELL\t...\n" lines the forked workers
 * write, and rank 0, between its own points, takes the rows that have come, so the journal and
 * the output are those of -j N. Ranks cannot be started again as forked workers are: a rank
 * that dies (a crash, a kill) ends the MPI job, as mpirun ends every rank when one fails, but
 * rank 0 journals each row the moment it comes, so no row another rank sent is lost, and the
 * same command resumes with the points the journal lacks. Built with Open MPI when CMake finds it
 * (STRATA_MPI); without it a process is never under MPI and sweeps run on forked workers only. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep.h"
#include "sim/xalloc.h"

#ifdef STRATA_HAVE_MPI
#include <mpi.h>

enum { TAG_ROW = 1, TAG_END = 2 };

static int g_active, g_rank, g_size = 1;

int st_sweep_mpi_init(int *rank, int *size)
{
    /* Started by Open MPI's mpirun (or another PMIx launcher): its environment says so. A plain
     * `strata sweep` never starts MPI, which would cost it a second and refuse fork(). */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK"))
        return 0;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    g_active = 1;
    *rank = g_rank;
    *size = g_size;
    return 1;
}

int st_sweep_mpi_finish(int rc)
{
    if (!g_active)
        return rc;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD); /* every rank exits as rank 0 does */
    MPI_Finalize();
    g_active = 0;
    return rc;
}

/* Rank 0's to-do list on every rank: *n_left and a malloc'd copy in *left on the others. */
static size_t *share_left(const size_t *left, size_t *n_left)
{
    unsigned long long n = *n_left;
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    unsigned long long *buf = st_xmalloc((n ? n : 1) * sizeof *buf);
    for (size_t k = 0; g_rank == 0 && k < n; k++)
        buf[k] = left[k];
    MPI_Bcast(buf, (int)n, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    size_t *mine = st_xmalloc((n ? n : 1) * sizeof *mine);
    for (size_t k = 0; k < n; k++)
        mine[k] = (size_t)buf[k];
    free(buf);
    *n_left = (size_t)n;
    return mine;
}

/* Point p as a row line "P\tCELLS\n" (malloc'd). */
static char *row_line(const st_sweep *sw, size_t p)
{
    char **cells = st_xcalloc(sw->n_cols, sizeof *cells), head[32];
    st_sweep_point(sw, p, cells);
    char *body = st_sweep_cells_line(cells, sw->n_cols);
    st_sweep_cells_free(cells, sw->n_cols);
    snprintf(head, sizeof head, "%zu\t", p);
    char *line = st_xmalloc(strlen(head) + strlen(body) + 1);
    strcpy(line, head);
    strcat(line, body);
    free(body);
    return line;
}

typedef struct gather {
    const st_sweep *sw;
    const st_sweep_sink *sink;
    int ended, stop, bad;
} gather;

/* Hand a row line (changed in place) to the sink; after a stop, rows are taken and dropped so the
 * other ranks can finish. */
static void take_line(gather *g, char *line)
{
    char *nl = strchr(line, '\n'), *tab = strchr(line, '\t');
    if (nl)
        *nl = '\0';
    char **cells = tab ? st_sweep_cells_parse(tab + 1, g->sw->n_cols) : NULL;
    if (!cells) {
        g->bad = 1;
        return;
    }
    if (g->stop || g->bad) {
        st_sweep_cells_free(cells, g->sw->n_cols);
        return;
    }
    g->stop = g->sink->row(g->sink->ctx, strtoul(line, NULL, 10), cells, 0);
    if (g->sink->tick)
        g->sink->tick(g->sink->ctx);
}

/* Receive one message from any rank (blocking when wait, else only one already there). */
static int receive(gather *g, int wait)
{
    MPI_Status st;
    int there = 1, len;
    if (!wait)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &there, &st);
    else
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (!there)
        return 0;
    MPI_Get_count(&st, MPI_CHAR, &len);
    char *buf = st_xmalloc((size_t)len + 1);
    MPI_Recv(buf, len, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    buf[len] = '\0';
    if (st.MPI_TAG == TAG_END)
        g->ended++;
    else
        take_line(g, buf);
    free(buf);
    return 1;
}

int st_sweep_mpi_run(const st_sweep *sw, const size_t *left, size_t n_left,
                     const st_sweep_sink *sink, char *why, size_t n)
{
    size_t *mine = share_left(left, &n_left);
    gather g = {.sw = sw, .sink = sink};
    for (size_t k = (size_t)g_rank; k < n_left; k += (size_t)g_size) {
        char *line = row_line(sw, mine[k]);
        if (g_rank)
            MPI_Send(line, (int)strlen(line), MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
        else
            take_line(&g, line);
        free(line);
        while (g_rank == 0 && receive(&g, 0))
            ;
    }
    free(mine);
    if (g_rank) {
        MPI_Send("", 0, MPI_CHAR, 0, TAG_END, MPI_COMM_WORLD);
        return 0;
    }
    while (g.ended < g_size - 1)
        receive(&g, 1);
    if (g.bad) /* a stop's reason is the sink's */
        snprintf(why, n, "a rank sent a malformed row");
    return g.bad || g.stop ? -1 : 0;
}

#else /* built without MPI: no process is ever an MPI rank */

int st_sweep_mpi_init(int *rank, int *size)
{
    *rank = 0;
    *size = 1;
    return 0;
}

int st_sweep_mpi_finish(int rc)
{
    return rc;
}

int st_sweep_mpi_run(const st_sweep *sw, const size_t *left, size_t n_left,
                     const st_sweep_sink *sink, char *why, size_t n)
{
    (void)sw, (void)left, (void)n_left, (void)sink;
    snprintf(why, n, "this strata was built without MPI");
    return -1;
}

#endif
