/* Sweep throughput: the same grid of quickstart-sized points (every one a full forecast: memory,
 * step, life) on one worker process and on two, through the workers `strata sweep -j` uses, and
 * the speedup of two over one (the goal is 1.8 or more on two cores). Each timing is the best
 * of three, since the machine may be shared. Run from the source folder, or name the scenario.
 * Prints `case: NAME key: value ...`.
 * usage: bench_sweep [SCENARIO] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/sweep.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count_row(void *ctx, size_t p, char **cells)
{
    const st_sweep *sw = ((void **)ctx)[0];
    size_t *rows = ((void **)ctx)[1];
    (void)p;
    st_sweep_cells_free(cells, sw->n_cols);
    (*rows)++;
    return 0;
}

/* Seconds for the whole grid on `workers` processes, the best of three; 0 on a failure. */
static double time_grid(const st_sweep *sw, int workers)
{
    size_t n = sw->grid->n_points, *todo = malloc(n * sizeof *todo);
    for (size_t p = 0; p < n; p++)
        todo[p] = p;
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        size_t rows = 0;
        void *ctx[2] = {(void *)sw, &rows};
        char why[300];
        double t0 = now_s();
        if (st_sweep_workers(sw, todo, n, workers, count_row, ctx, why, sizeof why) || rows != n) {
            fprintf(stderr, "bench_sweep: %s (%zu of %zu rows)\n", why, rows, n);
            free(todo);
            return 0;
        }
        double t = now_s() - t0;
        best = rep == 0 || t < best ? t : best;
    }
    free(todo);
    return best;
}

int main(int argc, char **argv)
{
    const char *file = argc > 1 ? argv[1] : "scenarios/examples/quickstart.yaml";
    st_grid g = {0};
    char why[300];
    if (st_grid_add(&g, "workloads[0].steps=100..3000+100", why, sizeof why) ||
        st_grid_add(&g, "workloads[0].global_batch=32,64", why, sizeof why)) {
        fprintf(stderr, "bench_sweep: %s\n", why);
        return 1;
    }
    st_sweep sw;
    st_diag d = {0};
    if (st_sweep_open(&sw, file, &g, &d)) {
        fprintf(stderr, "bench_sweep: %s: %s\n", file, d.n ? d.items[0].msg : "cannot load");
        return 1;
    }
    double t1 = time_grid(&sw, 1), t2 = time_grid(&sw, 2);
    int ok = t1 > 0 && t2 > 0;
    if (ok) {
        printf("case: sweep-j1 points: %zu seconds: %.3f points_per_s: %.1f\n", g.n_points, t1,
               (double)g.n_points / t1);
        printf("case: sweep-j2 points: %zu seconds: %.3f points_per_s: %.1f speedup: %.2f\n",
               g.n_points, t2, (double)g.n_points / t2, t1 / t2);
    }
    st_sweep_close(&sw);
    st_grid_free(&g);
    return ok ? 0 : 1;
}
