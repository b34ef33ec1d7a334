/* Sweep throughput: the same grid of quickstart-sized points (every one a full forecast: memory,
 * step, life) on one worker process and on two, through the workers `strata sweep -j` uses, and
 * the speedup of two over one (the goal is 1.8 or more on two cores). Each timing is the best
 * of three, since the machine may be shared. Then the sizing search (planner/size.h) of Llama 3
 * 405B's 15.6T tokens within 90 days, 30 MW and 20,000 GPUs, on one core: the configurations it
 * simulates per second and the plans it considers (pruned ones included) per second, by the wall
 * clock and by the process's CPU time (the same on an idle machine). Where the
 * build has MPI, the same kind of grid on 2 MPI ranks against -j 2, through `strata`. Run from
 * the source folder, or name the scenarios. Prints `case: NAME key: value ...`. With --size, the
 * sizing cases alone (to profile them).
 * usage: bench_sweep [--size] [SCENARIO [SIZING_SCENARIO]] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "planner/size.h"
#include "report/figures.h"
#include "scenarios/catalog.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of CPU this process has used: on a machine shared with other work, the search's own
 * cost per core, which the wall clock overstates by whatever else ran. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count_row(void *ctx, size_t p, char **cells, int failed)
{
    const st_sweep *sw = ((void **)ctx)[0];
    size_t *rows = ((void **)ctx)[1];
    (void)p;
    st_sweep_cells_free(cells, sw->n_cols);
    (*rows) += !failed;
    return 0;
}

/* Seconds for the whole grid on `workers` processes, the best of three; 0 on a failure. */
static double time_grid(const st_sweep *sw, int workers)
{
    size_t n = sw->grid->n_points, *all = malloc(n * sizeof *all);
    for (size_t p = 0; p < n; p++)
        all[p] = p;
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        size_t rows = 0;
        void *ctx[2] = {(void *)sw, &rows};
        st_sweep_sink sink = {.row = count_row, .ctx = ctx};
        char why[300] = "";
        double t0 = now_s();
        if (st_sweep_workers(sw, all, n, workers, &sink, why, sizeof why) || rows != n) {
            fprintf(stderr, "bench_sweep: %s (%zu of %zu rows)\n", why, rows, n);
            free(all);
            return 0;
        }
        double t = now_s() - t0;
        best = rep == 0 || t < best ? t : best;
    }
    free(all);
    return best;
}

#ifdef STRATA_MPIRUN
/* The compute seconds `strata sweep` reports on stderr ("... in X s") for the command line cmd
 * (its rows to /dev/null), the best of three; 0 on a failure. */
static double sweep_seconds(const char *cmd, double *wall)
{
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        char line[4096], *in;
        snprintf(line, sizeof line, "%s >/dev/null 2>bench_sweep.err", cmd);
        double t0 = now_s(), s = 0;
        int rc = system(line);
        double w = now_s() - t0;
        FILE *f = fopen("bench_sweep.err", "r");
        while (f && fgets(line, sizeof line, f))
            if ((in = strstr(line, " in ")) && strstr(line, "strata sweep:"))
                s = atof(in + 4);
        if (f)
            fclose(f);
        remove("bench_sweep.err");
        if (rc != 0 || s <= 0)
            return 0;
        if (rep == 0 || s < best) {
            best = s;
            *wall = w;
        }
    }
    return best;
}

/* 2 MPI ranks against -j 2 on the same grid through the real `strata` (goal: within 10%): the
 * sweep's own compute time, and the whole command's wall time with mpirun's start. */
static int bench_mpi(const char *file)
{
    char grid[1024], j2[2048], m2[2048];
    snprintf(grid, sizeof grid,
             "sweep %s --set 'workloads[0].steps=100..3000+100' "
             "--set 'workloads[0].global_batch=32,64,128,256'",
             file);
    snprintf(j2, sizeof j2, "%s %s -j 2", STRATA_BIN, grid);
    snprintf(m2, sizeof m2, "%s -n 2 --oversubscribe --allow-run-as-root %s %s", STRATA_MPIRUN,
             STRATA_BIN, grid);
    double wj = 0, wm = 0, tj = sweep_seconds(j2, &wj), tm = sweep_seconds(m2, &wm);
    if (tj <= 0 || tm <= 0) {
        fprintf(stderr, "bench_sweep: the MPI or -j 2 sweep failed\n");
        return 1;
    }
    printf("case: sweep-mpi2 points: 120 seconds: %.3f j2_seconds: %.3f ratio: %.2f "
           "wall_s: %.3f j2_wall_s: %.3f\n",
           tm, tj, tm / tj, wm, wj);
    return 0;
}
#endif

/* The variants of issue 29's speed case: three GPU types, two transports, two oversubscriptions
 * (`strata size --gpu-types h100-sxm,h200-sxm,b200 --transport roce-v2,infiniband
 * --oversubscription 1,2`), into v (12). */
static size_t three_types(st_size_variant *v)
{
    static const char *const gpus[] = {"h100-sxm", "h200-sxm", "b200"};
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        for (int t = 0; t < 2; t++)
            for (int o = 1; o <= 2; o++)
                v[n++] = (st_size_variant){.gpu = st_catalog_gpu(gpus[g]),
                                           .oversub = o,
                                           .set_transport = 1,
                                           .transport =
                                               t ? ST_TRANSPORT_INFINIBAND : ST_TRANSPORT_ROCE_V2};
    return n;
}

static double min_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

static double max_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* The wall and CPU times (*t, *c) of the run whose CPU time is the median of n (n odd). */
static void median_of(const double *ts, const double *cs, int n, double *t, double *c)
{
    for (int i = 0; i < n; i++) {
        int below = 0, equal = 0;
        for (int j = 0; j < n; j++) {
            below += cs[j] < cs[i];
            equal += cs[j] == cs[i];
        }
        if (below <= n / 2 && below + equal > n / 2) {
            *t = ts[i];
            *c = cs[i];
            return;
        }
    }
}

/* One sizing search in a child process: its wall and CPU seconds into *t and *c. 0, or 1 when
 * the child could not run or report. */
static int cold_run(const st_cluster_cfg *c, const st_workload_cfg *w, const st_size_spec *spec,
                    double *t, double *cpu)
{
    int fd[2];
    if (pipe(fd))
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(fd[0]);
        st_size_result r;
        st_err err = {0};
        double t0 = now_s(), c0 = cpu_s();
        int rc = st_size_search(c, w, spec, &r, &err);
        double out[2] = {now_s() - t0, cpu_s() - c0};
        ssize_t n = rc ? -1 : write(fd[1], out, sizeof out);
        _exit(n == (ssize_t)sizeof out ? 0 : 1);
    }
    close(fd[1]);
    double in[2];
    ssize_t n = read(fd[0], in, sizeof in);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (n != (ssize_t)sizeof in || !WIFEXITED(status) || WEXITSTATUS(status))
        return 1;
    *t = in[0];
    *cpu = in[1];
    return 0;
}

/* The sizing search of the workload of `file` (one run: it takes seconds), with one hardware
 * variant (the scenario's) or the twelve of three_types; with `cost`, under the cost goal at the
 * scenario's prices (the plant then runs for every configuration evaluated: on premises its
 * energy and peak are in the cost). Returns 0 or 1. */
static int bench_size(const char *file, int types, int cost)
{
    st_scn *s = NULL;
    st_diag d = {0};
    if (st_scn_load_file(file, &s, &d)) {
        fprintf(stderr, "bench_sweep: %s: %s\n", file, d.n ? d.items[0].msg : "cannot load");
        return 1;
    }
    st_size_spec spec = {.deadline_s = 90 * 86400.0,
                         .power_w = 30e6,
                         .gpus = 20000,
                         .goal = cost ? ST_SIZE_COST : ST_SIZE_GPU_HOURS,
                         .cost = cost ? st_scn_cost(s) : NULL,
                         .seed = st_scn_seed(s),
                         .failures = st_scn_failures(s), /* as `strata size` takes them */
                         .rows = 10}; /* as `strata size` prints by default (--top 10) */
    st_size_variant vars[12];
    if (types) {
        spec.n_variants = three_types(vars);
        spec.variants = vars;
    }
    st_size_result r;
    st_err err = {0};
    /* One type's search takes a tenth of a second, within the machine's noise: it runs
     * SIZE_RUNS times, each in a child process of its own so that each starts as cold as a
     * user's `strata size` does (its memory untouched; a warm rerun in one process is a third
     * faster), and its figures are the run of median CPU time's, with the fastest and slowest
     * beside them. Three types take long enough to time once. */
    enum { SIZE_RUNS = 5 };
    double ts[SIZE_RUNS], cs[SIZE_RUNS], t = 0, c = 0;
    int runs = types ? 1 : SIZE_RUNS, rc = 0;
    for (int k = 1; k < runs && !rc; k++)
        rc = cold_run(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &ts[k], &cs[k]);
    if (!rc) { /* the last in this process: its result is the one printed */
        double t0 = now_s(), c0 = cpu_s();
        rc = st_size_search(st_scn_cluster(s), st_scn_workload(s, 0), &spec, &r, &err);
        ts[0] = now_s() - t0;
        cs[0] = cpu_s() - c0;
    }
    if (rc == 0)
        median_of(ts, cs, runs, &t, &c);
    if (rc == 0) {
        size_t powered = 0; /* configurations the plant ran for */
        for (size_t i = 0; i < r.n; i++)
            powered += (size_t)r.cfg[i].powered;
        if (types)
            printf("case: size-405b-3types%s configs: %zu wall_s: %.3f cpu_seconds: %.3f "
                   "sizes_searched: %lld powered: %zu\n",
                   cost ? "-cost" : "", r.n, t, c, (long long)r.counts_searched, powered);
        else
            printf("case: size-405b configs: %zu configs_per_s: %.1f considered: %lld "
                   "considered_per_s: %.1f seconds: %.3f powered: %zu cpu_seconds: %.3f "
                   "configs_per_cpu_s: %.1f runs: %d configs_per_cpu_s_min: %.1f "
                   "configs_per_cpu_s_max: %.1f\n",
                   r.n, (double)r.n / t, (long long)r.considered, (double)r.considered / t, t,
                   powered, c, (double)r.n / c, runs, (double)r.n / max_of(cs, runs),
                   (double)r.n / min_of(cs, runs));
        st_size_release(&r);
    } else {
        fprintf(stderr, "bench_sweep: %s: %s\n", file, err.msg);
    }
    st_scn_free(s);
    return rc ? 1 : 0;
}

/* A sweep cell of the default columns' figure k (report/figures.h), as `strata sweep` writes. */
static void fig_cell(const void *ctx, size_t k, st_sweep_at *at, size_t i, char *buf, size_t n)
{
    const st_fig_col *figs = ctx; /* the defaults: none reads the JSON report */
    st_fig_sweep_cell(&figs[k], at->run, i, NULL, buf, n);
}

/* The sizing cases: one hardware variant (the scenario's), then the twelve of three_types, then
 * those twelve under the cost goal on the same scenario bought on premises (issue 29's "a
 * three-type cost search", llama3-405b-16k-onprem.yaml). */
static int bench_sizes(const char *file)
{
    int ok = 1;
    for (int types = 0; types < 2; types++)
        if (bench_size(file ? file : "scenarios/examples/llama3-405b-16k.yaml", types, 0))
            ok = 0;
    if (!file && bench_size("scenarios/examples/llama3-405b-16k-onprem.yaml", 1, 1))
        ok = 0;
    return ok;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--size"))
        return bench_sizes(argc > 2 ? argv[2] : NULL) ? 0 : 1;
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
    st_fig_col *figs = NULL; /* sweep's default columns, as `strata sweep` takes them */
    size_t nf = 0;
    if (st_fig_sweep_parse(NULL, &figs, &nf, &d)) {
        fprintf(stderr, "bench_sweep: the default columns: %s\n", d.items[0].msg);
        return 1;
    }
    const char *names[32];
    for (size_t k = 0; k < nf && k < 32; k++)
        names[k] = figs[k].name;
    st_sweep_figs sf = {.n = nf < 32 ? nf : 32, .names = names, .cell = fig_cell, .ctx = figs};
    if (st_sweep_open(&sw, file, &g, &sf, NULL, &d)) {
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
    st_fig_cols_free(figs, nf);
#ifdef STRATA_MPIRUN
    if (bench_mpi(file))
        ok = 0;
#endif
    if (!bench_sizes(argc > 2 ? argv[2] : NULL))
        ok = 0;
    return ok ? 0 : 1;
}
