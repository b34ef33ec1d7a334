/* Junction temperature by a thermal RC model, and the throttle that holds it. */
#include "models/plant/thermal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/plant/cooling.h"
#include "models/plant/dvfs.h"
#include "models/plant/mitigate.h"
#include "sim/xalloc.h"

static const st_plant_thermal_preset preset = {
    /* NVML's SW thermal slowdown engages when the GPU is above its "GPU Max Operating Temp"
     * (NVML's nvmlClocksEventReasons documentation); nvidia-smi -q on a 700 W Hopper SXM board
     * (an H800 HGX, driver 525.105.17, as published in public nvidia-smi notes) reports it as
     * 87 C, with hardware slowdown at 89 C and shutdown at 92 C. */
    .throttle_c = 87,
    /* The design points R_th is derived from: an air-cooled DGX H100 is rated for inlet air up
     * to 30 C (NVIDIA DGX H100 User Guide, operating temperature 5-30 C); a cold-plate loop for
     * facility water up to 45 C (ASHRAE TC 9.9's W4/W45 class, the warm-water design of
     * direct-to-chip cooling). At those and the board's power limit the GPU sits at 87 C:
     * H100 (700 W) gives (87 - 30) / 700 = 0.081 K/W on air, (87 - 45) / 700 = 0.060 K/W on a
     * cold plate. These are design bounds, not measurements. */
    .air_rated_inlet_c = 30,
    .liquid_rated_inlet_c = 45,
    /* The package and heat sink relax over seconds to minutes, far slower than the die's
     * milliseconds (Skadron et al., "Temperature-Aware Microarchitecture", ISCA 2003, the HotSpot
     * model's package RC network); we take 30 s for an air heat sink and 10 s for a cold plate
     * (less metal, better coupled to its coolant), order-of-magnitude assumptions. */
    .tau_air_s = 30,
    .tau_liquid_s = 10,
    .source = "NVML; nvidia-smi -q (Hopper SXM); NVIDIA DGX H100 User Guide; ASHRAE TC 9.9 W45; "
              "Skadron et al. ISCA 2003",
};

const st_plant_thermal_preset *st_plant_thermal_preset_get(void)
{
    return &preset;
}

double st_plant_rth(const st_gpu_spec *g, st_cooling_kind k)
{
    double in = k == ST_COOLING_LIQUID ? preset.liquid_rated_inlet_c : preset.air_rated_inlet_c;
    return g->tdp_w > 0 ? (preset.throttle_c - in) / g->tdp_w : 0;
}

double st_plant_tau(st_cooling_kind k)
{
    return k == ST_COOLING_LIQUID ? preset.tau_liquid_s : preset.tau_air_s;
}

double st_plant_compute_w(const st_gpu_spec *g, double clock)
{
    return st_plant_dvfs_power(g, clock);
}

double st_plant_junction_peak(const st_plant_profile *p, double coolant_c, double rth, double tau)
{
    /* Over phase i the rise above the coolant relaxes to P_i R: th -> P_i R + (th - P_i R) a_i,
     * a_i = exp(-d_i / tau). One period is affine, th_end = A th_0 + B; its fixed point is the
     * periodic state, and the peak is at a phase boundary (the rise is monotone in a phase). */
    double A = 1, B = 0;
    for (int i = 0; i < p->n; i++) {
        double a = exp(-p->dur_s[i] / tau), q = p->gpu_w[i] * rth;
        A *= a;
        B = q + (B - q) * a;
    }
    double th = A < 1 ? B / (1 - A) : B, peak = th;
    for (int i = 0; i < p->n; i++) {
        double q = p->gpu_w[i] * rth;
        th = q + (th - q) * exp(-p->dur_s[i] / tau);
        peak = th > peak ? th : peak;
    }
    return coolant_c + peak;
}

static int cell_cmp(const void *a, const void *b)
{
    const st__plant_cell *x = a, *y = b;
    if (x->rack != y->rack)
        return x->rack < y->rack ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

const st_gpu_spec *st_plant_job_gpu(const st_cluster_cfg *c, const st_plant_job *j)
{
    return c->n_pools > 0 && j->n_gpus > 0 && j->gpus ? st_pools_gpu_of(c, j->gpus[0]) : c->gpu;
}

double st_plant_nodes_idle_w(const st_cluster_cfg *c, int64_t first, int64_t n)
{
    double gpn = (double)c->gpus_per_node;
    if (c->n_pools <= 0)
        return (double)n * (c->node.base_power_w + gpn * c->gpu->idle_w);
    double w = 0;
    /* the pools the nodes overlap, from the first node's on: each rack's walk is the pools it
     * spans, not all of them */
    for (int k = st_pools_of_node(c, first); k < c->n_pools && c->pools[k].first_node < first + n;
         k++) {
        const st_pool_cfg *p = &c->pools[k];
        int64_t m = st_pools_overlap(c, k, first, n);
        double g = (double)st_pools_gpus_per_node(c, k); /* its own node size */
        w += m ? (double)m * (p->node_base_w + g * p->gpu->idle_w) : 0;
    }
    return w;
}

void st__plant_map_build(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                         st__plant_map *m)
{
    memset(m, 0, sizeof *m);
    m->n_racks = st_racks_count(c);
    m->base_w = st_xcalloc((size_t)m->n_racks, sizeof *m->base_w);
    for (int64_t k = 0; k < m->n_racks; k++)
        m->base_w[k] = st_plant_nodes_idle_w(c, st_racks_first_node(c, k), st_racks_nodes(c, k));
    size_t total = 0, q = 0;
    int sorted = 1; /* told as they are made: a comparator call a cell cost more than making it */
    for (size_t j = 0; j < n; j++)
        total += (size_t)jobs[j].n_gpus;
    st__plant_cell *all = st_xmalloc((total ? total : 1) * sizeof *all);
    st_racks_cursor at = {0};
    for (size_t j = 0; j < n; j++) {
        double idle = st_plant_job_gpu(c, &jobs[j])->idle_w;
        for (int64_t g = 0; g < jobs[j].n_gpus; g++) {
            int64_t gpu = jobs[j].gpus[g], rack = gpu >= 0 ? st_racks_of_gpu_at(c, &at, gpu) : -1;
            if (gpu < 0 || rack >= m->n_racks)
                ST_BUG("GPU %lld is outside the cluster's racks", (long long)gpu);
            m->base_w[rack] -= idle;
            if (q > 0 && all[q - 1].rack == rack && all[q - 1].job == j) {
                all[q - 1].gpus += 1; /* the run goes on in the same rack */
                continue;
            }
            sorted &= q == 0 || all[q - 1].rack < rack ||
                      (all[q - 1].rack == rack && all[q - 1].job <= j);
            all[q++] = (st__plant_cell){rack, j, 1};
        }
    }
    /* cells of equal (rack, job) differ only in their counts, which the merge sums: any order
     * of them gives the same map */
    if (!sorted)
        qsort(all, q, sizeof *all, cell_cmp);
    for (size_t i = 0; i < q; i++) { /* merge equal (rack, job) in place */
        if (m->n_cells && all[m->n_cells - 1].rack == all[i].rack &&
            all[m->n_cells - 1].job == all[i].job)
            all[m->n_cells - 1].gpus += all[i].gpus;
        else
            all[m->n_cells++] = all[i];
    }
    m->cells = all;
    m->rack_at = st_xcalloc((size_t)m->n_racks + 1, sizeof *m->rack_at);
    for (size_t i = 0; i < m->n_cells; i++)
        m->rack_at[m->cells[i].rack + 1]++;
    for (int64_t k = 0; k < m->n_racks; k++)
        m->rack_at[k + 1] += m->rack_at[k];
}

void st__plant_map_free(st__plant_map *m)
{
    free(m->base_w);
    free(m->cells);
    free(m->rack_at);
    memset(m, 0, sizeof *m);
}

/* Rack k's heat: its idle draw and its cells' GPUs at their jobs' mean, through the power
 * supplies. The throttle's solve recomputes one rack at a time with it. */
static double rack_heat(const st__plant_map *m, int64_t k, const double *gpu_mean_w)
{
    double h = m->base_w[k];
    for (size_t i = m->rack_at[k]; i < m->rack_at[k + 1]; i++)
        h += m->cells[i].gpus * gpu_mean_w[m->cells[i].job];
    return h * (1.0 / st_plant_preset_get()->psu_efficiency);
}

void st__plant_rack_heat(const st__plant_map *m, const double *gpu_mean_w, double *heat)
{
    for (int64_t k = 0; k < m->n_racks; k++)
        heat[k] = rack_heat(m, k, gpu_mean_w);
}

/* The coolant a GPU of rack k sees: the liquid loop's on a liquid rack (its cold plates), the
 * air's on an air-cooled one. */
static double coolant_c(const st_rack_cfg *r, double heat_w)
{
    st_plant_rack_heat h;
    st_plant_rack_cooling(r, heat_w, &h);
    return r->cooling == ST_COOLING_LIQUID && r->liquid_fraction > 0 ? h.liquid_in_c : h.air_in_c;
}

/* What cools the GPUs' cold plates or heat sinks: the rack's liquid loop where it has one. */
static st_cooling_kind cooling_kind(const st_rack_cfg *r)
{
    return r->liquid_fraction > 0 ? r->cooling : ST_COOLING_AIR;
}

/* The hottest junction of job j's GPUs in rack k (their coolant, thermal resistance and time
 * constant those of the rack's cooling) over the racks' heat. */
static double junction_in(const st_cluster_cfg *c, const st_plant_job *job,
                          const st_plant_profile *p, int64_t k, double heat_w)
{
    const st_rack_cfg *r = st_racks_cfg(c, k);
    st_cooling_kind kind = cooling_kind(r);
    return st_plant_junction_peak(p, coolant_c(r, heat_w),
                                  st_plant_rth(st_plant_job_gpu(c, job), kind), st_plant_tau(kind));
}

void st__plant_junctions(const st_cluster_cfg *c, const st__plant_map *m, const st_plant_job *jobs,
                         const st_plant_profile *prof, const double *heat, size_t n, double *tj)
{
    for (size_t j = 0; j < n; j++)
        tj[j] = -INFINITY;
    for (size_t i = 0; i < m->n_cells; i++) {
        size_t j = m->cells[i].job;
        int64_t k = m->cells[i].rack;
        double t = junction_in(c, &jobs[j], &prof[j], k, heat[k]);
        tj[j] = t > tj[j] ? t : tj[j];
    }
}

/* Job j's profile at clock f, its step estimated with compute and optimizer stretched by 1/f. */
static void profile_at(const st_cluster_cfg *c, const st_plant_job *job, double f,
                       st_plant_profile *p)
{
    st_step_result r = *job->step;
    r.b.compute_s /= f;
    r.b.straggler_s /= f;
    r.b.optimizer_s /= f;
    st_plant_profile_clocked(&r, st_plant_job_gpu(c, job), f, p);
    if (job->steady)
        st_plant_profile_flatten(p);
}

/* The solve's working state: every job's profile and mean at its clock, the racks' heat, and
 * each job's cells (job_cell[job_at[j] .. job_at[j + 1]], in the map's order), so that a job's
 * trial clock recomputes only its own racks and junctions: the whole cluster at every trial made
 * a run of 800 jobs take a minute (a fuzzing find). */
typedef struct solve {
    const st_cluster_cfg *c;
    const st_plant_job *jobs;
    size_t n;
    st__plant_map map;
    st_plant_profile *prof;
    double *mean, *heat, *clock;
    size_t *job_at, *job_cell;
} solve;

/* The cells of s->map by job. */
static void index_cells(solve *s)
{
    const st__plant_map *m = &s->map;
    s->job_at = st_xcalloc(s->n + 1, sizeof *s->job_at);
    s->job_cell = st_xmalloc((m->n_cells ? m->n_cells : 1) * sizeof *s->job_cell);
    for (size_t i = 0; i < m->n_cells; i++)
        s->job_at[m->cells[i].job + 1]++;
    for (size_t j = 0; j < s->n; j++)
        s->job_at[j + 1] += s->job_at[j];
    size_t *next = st_xmalloc((s->n ? s->n : 1) * sizeof *next);
    memcpy(next, s->job_at, (s->n ? s->n : 1) * sizeof *next);
    for (size_t i = 0; i < m->n_cells; i++)
        s->job_cell[next[m->cells[i].job]++] = i;
    free(next);
}

static void set_clock(solve *s, size_t j, double f)
{
    s->clock[j] = f;
    profile_at(s->c, &s->jobs[j], f, &s->prof[j]);
    s->mean[j] = s->prof[j].energy_j / s->prof[j].period_s;
}

/* Job j's hottest junction at clock f, the others held: its racks' heat recomputed, as
 * st__plant_rack_heat and st__plant_junctions would for the whole cluster. */
static double hottest_at(solve *s, size_t j, double f)
{
    set_clock(s, j, f);
    double tj = -INFINITY;
    for (size_t q = s->job_at[j]; q < s->job_at[j + 1]; q++) {
        int64_t k = s->map.cells[s->job_cell[q]].rack;
        s->heat[k] = rack_heat(&s->map, k, s->mean);
        double t = junction_in(s->c, &s->jobs[j], &s->prof[j], k, s->heat[k]);
        tj = t > tj ? t : tj;
    }
    return tj;
}

/* One job's clock with the others held: the power limit's clock when cool enough there, else
 * bisected below it to 1e-6 (the clock is the lower of the two caps). */
static double solve_job(solve *s, size_t j)
{
    double hot = st_plant_thermal_preset_get()->throttle_c;
    double top = st_plant_power_clock(st_plant_job_gpu(s->c, &s->jobs[j]));
    if (hottest_at(s, j, top) <= hot)
        return top;
    double lo = st_plant_dvfs_preset_get()->min_clock, hi = top;
    lo = lo < top ? lo : top;
    if (hottest_at(s, j, lo) > hot)
        return lo;
    while (hi - lo > 1e-6) {
        double mid = 0.5 * (lo + hi);
        if (hottest_at(s, j, mid) > hot)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

/* Whether job j has a GPU in a rack marked in on. */
static int touches(const st_cluster_cfg *c, const st_plant_job *j, const unsigned char *on)
{
    st_racks_cursor at = {0};
    for (int64_t g = 0; g < j->n_gpus; g++)
        if (on[st_racks_of_gpu_at(c, &at, j->gpus[g])])
            return 1;
    return 0;
}

/* Takes job j into the set: in[j] and its racks marked. */
static void take(const st_cluster_cfg *c, const st_plant_job *j, unsigned char *on,
                 unsigned char *in_j)
{
    st_racks_cursor at = {0};
    for (int64_t g = 0; g < j->n_gpus; g++)
        on[st_racks_of_gpu_at(c, &at, j->gpus[g])] = 1;
    *in_j = 1;
}

size_t st_plant_coupled(const st_cluster_cfg *c, st_plant_job *jobs, size_t n, size_t *me,
                        size_t mine)
{
    int64_t racks = st_racks_count(c);
    unsigned char *on = st_xcalloc((size_t)(racks > 0 ? racks : 1), 1);
    unsigned char *in = st_xcalloc(n ? n : 1, 1);
    for (size_t j = *me; j < *me + mine; j++)
        take(c, &jobs[j], on, &in[j]);
    /* Grow the set a scan at a time until no job joins: a scan costs the jobs' GPUs, and the
     * scans are one more than the rack-sharing chain is long (two for jobs inside one rack). */
    for (int grew = 1; grew;) {
        grew = 0;
        for (size_t j = 0; j < n; j++)
            if (!in[j] && touches(c, &jobs[j], on)) {
                take(c, &jobs[j], on, &in[j]);
                grew = 1;
            }
    }
    size_t k = 0, first = *me;
    for (size_t j = 0; j < n; j++)
        if (in[j]) {
            if (j == first)
                *me = k;
            jobs[k++] = jobs[j];
        }
    free(in);
    free(on);
    return k;
}

void st_plant_throttle(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, double *clock)
{
    solve s = {.c = c, .jobs = jobs, .n = n, .clock = clock};
    st__plant_map_build(c, jobs, n, &s.map);
    index_cells(&s);
    s.prof = st_xcalloc(n ? n : 1, sizeof *s.prof);
    s.mean = st_xcalloc(n ? n : 1, sizeof *s.mean);
    s.heat = st_xcalloc((size_t)s.map.n_racks, sizeof *s.heat);
    for (size_t j = 0; j < n; j++)
        set_clock(&s, j, st_plant_power_clock(st_plant_job_gpu(c, &jobs[j])));
    /* Gauss-Seidel over the jobs: lowering one job's clock cools its racks, which can let a
     * neighbour run faster; stop when no clock moves. */
    for (int sweep = 0; sweep < 50; sweep++) {
        double moved = 0;
        for (size_t j = 0; j < n; j++) {
            double before = clock[j], f = solve_job(&s, j);
            set_clock(&s, j, f);
            moved = fabs(f - before) > moved ? fabs(f - before) : moved;
        }
        if (moved < 1e-6)
            break;
    }
    free(s.heat);
    free(s.mean);
    free(s.prof);
    free(s.job_at);
    free(s.job_cell);
    st__plant_map_free(&s.map);
}

double st_plant_job_junction(const st_cluster_cfg *c, const st_plant_job *job)
{
    /* As st_plant_run derives it (plant.c: jobs_of, mitigate, cool_racks) for one job, without
     * the waveform: its profile at its clock, raised to the racks' power floor and burn, then
     * its racks' heat at its mean and each rack's junction. */
    st_plant_profile p;
    st_plant_profile_clocked(job->step, st_plant_job_gpu(c, job), job->clock, &p);
    if (job->steady)
        st_plant_profile_flatten(&p);
    if (c->racks.power_floor > 0)
        st_plant_profile_floor(&p, c->racks.power_floor * c->gpu->tdp_w);
    if (c->racks.power_burn > 0)
        st_plant_profile_burn(&p, c->racks.power_burn * c->gpu->tdp_w);
    st__plant_map m;
    st__plant_map_build(c, job, 1, &m);
    double mean = p.energy_j / p.period_s, tj;
    double *heat = st_xcalloc((size_t)(m.n_racks > 0 ? m.n_racks : 1), sizeof *heat);
    st__plant_rack_heat(&m, &mean, heat);
    st__plant_junctions(c, &m, job, &p, heat, 1, &tj);
    free(heat);
    st__plant_map_free(&m);
    return tj;
}
