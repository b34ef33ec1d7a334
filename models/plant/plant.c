/* The plant of a scenario: jobs' power profiles from their steps, the racks' constant draw and
 * their jobs' GPU counts, the feed's losses as a quadratic form, then the facility waveform. */
#include "models/plant/plant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/config/pools.h"
#include "models/config/racks.h"
#include "models/plant/dvfs.h"
#include "models/plant/electric.h"
#include "models/plant/mitigate.h"
#include "models/plant/thermal.h"
#include "models/silicon/gpu.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

static const st_plant_preset preset = {
    /* The 80 PLUS Titanium requirement for 230 V internal redundant server supplies at 50% load
     * (80 PLUS program, EPRI / CLEAResult; tabulated by Tom's Hardware, "Is 80 PLUS Broken?",
     * 2017): 96%. We assume Titanium supplies sharing the node's load near half their rating
     * each, as redundant supplies do. */
    .psu_efficiency = 0.96,
    /* The U.S. minimum efficiency of a three-phase low-voltage dry-type distribution transformer
     * made since 2016, at its largest tabulated rating, 500 kVA: 99.14% (10 CFR 431.196(a)(2),
     * DOE energy conservation standards, measured at 35% of nameplate load). We take it at
     * every load (a transformer's efficiency is near its peak from about a third of its
     * rating up), and one such stage between the utility's feed and the racks. */
    .transformer_efficiency = 0.9914,
    /* Millisecond samples, the resolution the issue asks of the di/dt waveform; the 0.1-20 Hz
     * band of Choukse et al. (arXiv 2508.14318) needs at most 25 ms (Nyquist at 20 Hz). */
    .dt_s = 1e-3,
    /* At least a minute and ten of the longest step, so the FFT resolves the step rhythm with
     * ten periods; at most 64 minutes (60 s times a power of two keeps the FFT's factors 2, 3
     * and 5). */
    .min_window_s = 60,
    .min_steps = 10,
    .max_window_s = 3840,
    /* NVIDIA MMS4X00-NS, 800 Gb/s twin-port OSFP 2x400G single-mode transceiver for Quantum-2
     * and Spectrum-4 switches: "Twin-port single mode OSFP transceivers remain at 17 Watts for
     * all configurations" (NVIDIA product specifications, Overview; read 2026-12-01). It holds
     * two 400 Gb/s ports, so 8.5 W a port, for 400 Gb/s fabrics only. */
    .switch_optic_w = 17.0 / 2,
    .optic_rate_bps = 400e9,
    /* Jeon et al., "Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training
     * Workloads" (USENIX ATC'19), section 4.1 and its table of mean GPU utilisation by job size:
     * the mean utilisation (nvidia-smi's share of time a kernel runs) of the Philly cluster's jobs
     * is about 52% (52.38% for its 1-GPU jobs, most of the trace). It is the published measurement
     * of the trace Strata ships; Weng et al. (NSDI'22) find Alibaba PAI's GPUs busier or idler by
     * workload, with no one figure per job. */
    .trace_gpu_utilization = 0.52,
    .source = "80 PLUS Titanium (230 V internal redundant, 50% load); 10 CFR 431.196(a)(2) "
              "(500 kVA three-phase LV dry-type); arXiv 2508.14318; NVIDIA MMS4X00-NS "
              "specifications (17 W, 2 x 400G); Jeon et al., USENIX ATC'19, s4.1",
};

const st_plant_preset *st_plant_preset_get(void)
{
    return &preset;
}

/* (rack, job) of one GPU of a job, for counting GPUs per rack and job. */
typedef struct rj {
    int64_t rack;
    size_t job;
} rj;

static int rj_cmp(const void *a, const void *b)
{
    const rj *x = a, *y = b;
    if (x->rack != y->rack)
        return x->rack < y->rack ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

/* What the racks add: per rack its board-level constant c_r (idle GPUs, node base) and its
 * jobs' GPU counts, folded into the worst rack's coincident peak and the losses' quadratic. */
typedef struct racks {
    int64_t n; /* racks */
    double *c; /* n: constant board draw */
    rj *pairs; /* one per job GPU, sorted by rack then job */
    size_t n_pairs;
    st_plant_loss_term *terms; /* the quadratic's terms (owned) */
    size_t n_terms, cap_terms;
    double *lin, cst;
} racks;

static void add_term(racks *r, size_t j, size_t l, double coef)
{
    if (r->n_terms == r->cap_terms) {
        r->cap_terms = r->cap_terms ? 2 * r->cap_terms : 16;
        r->terms = st_xrealloc(r->terms, r->cap_terms * sizeof *r->terms);
    }
    r->terms[r->n_terms++] = (st_plant_loss_term){j, l, coef};
}

static void racks_init(racks *r, const st_cluster_cfg *c, const st_plant_job *jobs, size_t n)
{
    memset(r, 0, sizeof *r);
    r->n = st_racks_count(c);
    r->c = st_xcalloc((size_t)r->n, sizeof *r->c);
    for (int64_t k = 0; k < r->n; k++)
        r->c[k] = st_plant_nodes_idle_w(c, st_racks_first_node(c, k), st_racks_nodes(c, k));
    for (size_t j = 0; j < n; j++)
        r->n_pairs += (size_t)jobs[j].n_gpus;
    r->pairs = st_xmalloc((r->n_pairs ? r->n_pairs : 1) * sizeof *r->pairs);
    size_t q = 0;
    int sorted = 1; /* told as they are made: a comparator call a pair cost more than making it */
    st_racks_cursor at = {0};
    for (size_t j = 0; j < n; j++) {
        double idle = st_plant_job_gpu(c, &jobs[j])->idle_w;
        for (int64_t g = 0; g < jobs[j].n_gpus; g++) {
            int64_t rack = jobs[j].gpus[g] >= 0 ? st_racks_of_gpu_at(c, &at, jobs[j].gpus[g]) : -1;
            if (jobs[j].gpus[g] < 0 || rack >= r->n)
                ST_BUG("GPU %lld is outside the cluster's %lld racks", (long long)jobs[j].gpus[g],
                       (long long)r->n);
            sorted &= q == 0 || r->pairs[q - 1].rack < rack ||
                      (r->pairs[q - 1].rack == rack && r->pairs[q - 1].job <= j);
            r->pairs[q++] = (rj){rack, j};
            r->c[rack] -= idle; /* this GPU runs the job, not idle */
        }
    }
    /* A job's GPUs listed in order give its pairs in order (pairs that compare equal are equal) */
    if (!sorted)
        qsort(r->pairs, r->n_pairs, sizeof *r->pairs, rj_cmp);
    r->lin = st_xcalloc(n ? n : 1, sizeof *r->lin);
}

static int term_cmp(const void *a, const void *b)
{
    const st_plant_loss_term *x = a, *y = b;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return x->l < y->l ? -1 : x->l > y->l;
}

/* Merge the terms of equal (j, l): one per pair of jobs that share a rack. */
static void merge_terms(racks *r)
{
    if (!r->n_terms) /* no resistance: no terms, and qsort must not see a NULL array */
        return;
    qsort(r->terms, r->n_terms, sizeof *r->terms, term_cmp);
    size_t m = 0;
    for (size_t i = 0; i < r->n_terms; i++) {
        if (m && r->terms[m - 1].j == r->terms[i].j && r->terms[m - 1].l == r->terms[i].l)
            r->terms[m - 1].coef += r->terms[i].coef;
        else
            r->terms[m++] = r->terms[i];
    }
    r->n_terms = m;
}

/* One rack's share: its coincident peak against the worst so far, and its loss terms. k is
 * the feed's loss per squared wall watt, s the wall watts per board watt. [a, b) are the
 * rack's pairs. */
static double fold_rack(racks *r, int64_t rack, size_t a, size_t b, const st_plant_profile *prof,
                        double k, double s, st_plant_result *out)
{
    double board = r->c[rack];
    for (size_t i = a; i < b;) {
        size_t e = i;
        while (e < b && r->pairs[e].job == r->pairs[i].job)
            e++;
        double nj = (double)(e - i);
        board += nj * prof[r->pairs[i].job].peak_w;
        r->lin[r->pairs[i].job] += 2 * k * s * s * r->c[rack] * nj;
        for (size_t f = a; k > 0 && f < b;) {
            size_t g = f;
            while (g < b && r->pairs[g].job == r->pairs[f].job)
                g++;
            add_term(r, r->pairs[i].job, r->pairs[f].job, k * s * s * nj * (double)(g - f));
            f = g;
        }
        i = e;
    }
    r->cst += k * s * s * r->c[rack] * r->c[rack];
    if (s * board > out->rack_peak_w)
        out->rack_peak_w = s * board;
    return s * board;
}

/* Rack `rack`'s peak draw against its own cooling capacity: keep the rack furthest past it. */
static void peak_against_cooling(const st_cluster_cfg *c, int64_t rack, double peak_w,
                                 st_plant_result *out)
{
    st_plant_rack_heat h;
    st_plant_rack_cooling(st_racks_cfg(c, rack), peak_w, &h);
    if (!(peak_w > h.capacity_w))
        return;
    if (out->rack_peak_over_w > 0 &&
        peak_w / h.capacity_w <= out->rack_peak_over_w / out->rack_peak_over_cap_w)
        return;
    out->rack_peak_over_w = peak_w;
    out->rack_peak_over_cap_w = h.capacity_w;
}

/* Every rack folded in order; the worst rack's current, loss and breaker headroom. */
static void fold_racks(racks *r, const st_cluster_cfg *c, const st_plant_profile *prof,
                       st_plant_result *out)
{
    const st_rack_cfg *f = &c->racks;
    double k = st_plant_feed_loss(1.0, f->feed_voltage_v, f->feed_phases, f->power_factor,
                                  f->distribution_resistance_ohm);
    double s = 1.0 / preset.psu_efficiency;
    size_t i = 0;
    for (int64_t rack = 0; rack < r->n; rack++) {
        size_t a = i;
        while (i < r->n_pairs && r->pairs[i].rack == rack)
            i++;
        peak_against_cooling(c, rack, fold_rack(r, rack, a, i, prof, k, s, out), out);
    }
    merge_terms(r);
    out->racks = r->n;
    out->rack_current_a =
        st_plant_line_current(out->rack_peak_w, f->feed_voltage_v, f->feed_phases, f->power_factor);
    out->rack_loss_w =
        st_plant_line_loss(out->rack_current_a, f->feed_phases, f->distribution_resistance_ohm);
    out->rack_headroom_a =
        f->breaker_a > 0 ? st_plant_breaker_headroom(out->rack_current_a, f->breaker_a) : NAN;
}

static void racks_free(racks *r)
{
    free(r->c);
    free(r->pairs);
    free(r->terms);
    free(r->lin);
}

/* The window: at least min_window_s and min_steps of the longest step, as 60 s times a power of
 * two, at most max_window_s. */
static double window_for(const st_plant_profile *prof, size_t n)
{
    double longest = 0;
    for (size_t j = 0; j < n; j++)
        longest = prof[j].period_s > longest ? prof[j].period_s : longest;
    double w = preset.min_window_s;
    while (w < preset.min_steps * longest && 2 * w <= preset.max_window_s)
        w *= 2;
    return w;
}

/* A job's profile as the plant draws it: its step at its clock, flattened when steady. */
static void profile_of(const st_cluster_cfg *c, const st_plant_job *job, st_plant_profile *p)
{
    st_plant_profile_clocked(job->step, st_plant_job_gpu(c, job), job->clock, p);
    if (job->steady)
        st_plant_profile_flatten(p);
}

double st_plant_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n)
{
    st_plant_profile *prof = st_xcalloc(n ? n : 1, sizeof *prof);
    for (size_t j = 0; j < n; j++)
        profile_of(c, &jobs[j], &prof[j]);
    double w = window_for(prof, n);
    free(prof);
    return w;
}

static int run_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                      double window_s, double net_w, int full, st_plant_result *out, st_err *err);

int st_plant_run_network(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                         double network_board_w, st_plant_result *out, st_err *err)
{
    return run_window(c, jobs, n, seed, st_plant_window(c, jobs, n), network_board_w, 1, out, err);
}

int st_plant_models_distribution(const st_cluster_cfg *c)
{
    return c->racks.distribution_resistance_ohm > 0;
}

int st_plant_models_storage(const st_cluster_cfg *c)
{
    return c->racks.storage_energy_j > 0 && c->racks.storage_power_w > 0;
}

int st_plant_run(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                 st_plant_result *out, st_err *err)
{
    return st_plant_run_network(c, jobs, n, seed, 0, out, err);
}

int st_plant_run_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                        double window_s, st_plant_result *out, st_err *err)
{
    return run_window(c, jobs, n, seed, window_s, 0, 1, out, err);
}

int st_plant_run_window_network(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                                uint64_t seed, double window_s, double network_board_w,
                                st_plant_result *out, st_err *err)
{
    return run_window(c, jobs, n, seed, window_s, network_board_w, 1, out, err);
}

int st_plant_run_facility(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n,
                          uint64_t seed, double window_s, double network_board_w,
                          st_plant_result *out, st_err *err)
{
    return run_window(c, jobs, n, seed, window_s, network_board_w, 0, out, err);
}

/* Each job's profile, board power and phase offset: a uniform point of its step from its own
 * stream (kind "plant", the job's id, purpose "phase"), so adding a job moves no other. */
static void jobs_of(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                    st_plant_profile *prof, st_plant_wave_job *wj, st_plant_result *out)
{
    for (size_t j = 0; j < n; j++) {
        st_plant_profile *p = &prof[j];
        profile_of(c, &jobs[j], p);
        double g = (double)jobs[j].n_gpus;
        st_rng *r = st_rng_new(seed, st_rng_tag("plant"), jobs[j].id, st_rng_tag("phase"));
        wj[j] = (st_plant_wave_job){p, g, st_rng_uniform(r) * p->period_s};
        st_rng_free(r);
        out->jobs[j] = (st_plant_job_power){
            .id = jobs[j].id,
            .peak_w = g * p->peak_w,
            .mean_w = g * p->energy_j / p->period_s,
            .step_energy_j = g * p->energy_j,
            .clock = jobs[j].clock > 0 && jobs[j].clock < 1 ? jobs[j].clock : 1};
    }
}

/* The jobs' junctions over the racks' heat (m: each job's own GPUs), and the share of their GPUs
 * the heat holds below full clock. */
static void junctions(const st_cluster_cfg *c, const st__plant_map *m, const st_plant_job *jobs,
                      size_t n, const st_plant_profile *prof, const double *heat,
                      st_plant_result *out)
{
    double *tj = st_xcalloc(n ? n : 1, sizeof *tj), held = 0, all = 0;
    st__plant_junctions(c, m, jobs, prof, heat, n, tj);
    out->max_junction_c = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        double top = st_plant_power_clock(st_plant_job_gpu(c, &jobs[j]));
        out->jobs[j].junction_c = tj[j];
        out->max_junction_c = tj[j] > out->max_junction_c ? tj[j] : out->max_junction_c;
        /* held by the heat: below the clock the power limit alone holds (dvfs.h) */
        held += out->jobs[j].clock < top ? (double)jobs[j].n_gpus : 0;
        all += (double)jobs[j].n_gpus;
    }
    out->throttle_fraction = all > 0 ? held / all : 0;
    free(tj);
}

/* The racks' heat against their cooling, the jobs' junctions (when `full`), the cooling plant
 * and the PUE, at the jobs' mean power. */
static void cool_racks(const st_cluster_cfg *c, const st_plant_job *jobs, const st_plant_job *dj,
                       size_t n, const st_plant_profile *prof, int full, st_plant_result *out)
{
    st__plant_map m, md; /* each job's own GPUs (its junction), and those the racks draw */
    st__plant_map_build(c, jobs, n, &m);
    if (dj != jobs)
        st__plant_map_build(c, dj, n, &md);
    double *mean = st_xcalloc(n ? n : 1, sizeof *mean);
    double *heat = st_xcalloc((size_t)m.n_racks, sizeof *heat), worst = -1;
    for (size_t j = 0; j < n; j++)
        mean[j] = prof[j].energy_j / prof[j].period_s;
    st__plant_rack_heat(dj != jobs ? &md : &m, mean, heat);
    for (int64_t k = 0; k < m.n_racks; k++) {
        st_plant_rack_heat h;
        st_plant_rack_cooling(st_racks_cfg(c, k), heat[k], &h);
        out->air_w += h.air_w;
        out->liquid_w += h.liquid_w;
        /* A rack without cooling capacity is the worst there is (its ratio is +inf, not NaN). */
        double load = h.capacity_w > 0 ? h.heat_w / h.capacity_w : INFINITY;
        if (load > worst) {
            worst = load;
            out->rack_heat = h;
        }
    }
    /* The network's heat: air-cooled switches (the Quantum-2 and Spectrum-4 OSFP switches the
     * optics are for are air-cooled), removed by the same plant as the racks' air. */
    out->air_w += out->network_w;
    if (full)
        junctions(c, &m, jobs, n, prof, heat, out);
    free(heat);
    free(mean);
    st__plant_map_free(&m);
    if (dj != jobs)
        st__plant_map_free(&md);
}

/* The mitigations the racks state, on the waveform w (ns samples) that spec gave (its shape
 * already kept in out->bare): every job's profile raised to the floor, its lulls to the burn
 * (the burn's cost counted above the floor), and the waveform drawn again, then the facility's
 * storage (every rack's) between it and the grid. */
static void mitigate(const st_cluster_cfg *c, int64_t n_racks, const st_plant_job *jobs,
                     const st_plant_job *dj, st_plant_profile *prof, const st_plant_wave_spec *spec,
                     double *w, st_plant_wave_sums *sums, st_plant_result *out)
{
    const st_rack_cfg *f = &c->racks;
    size_t ns = spec->n_samples;
    out->mitigated = 1;
    out->bare_it_mean_w = sums->it_energy_j / out->window_s;
    if (f->power_floor > 0) {
        out->floor_w = f->power_floor * c->gpu->tdp_w;
        for (size_t j = 0; j < spec->n_jobs; j++) {
            double g = (double)dj[j].n_gpus; /* the GPUs the racks draw it on */
            double extra = st_plant_profile_floor(&prof[j], out->floor_w);
            out->floor_extra_w += g * extra / prof[j].period_s;
        }
    }
    if (f->power_burn > 0) {
        out->burn_w = f->power_burn * c->gpu->tdp_w;
        for (size_t j = 0; j < spec->n_jobs; j++) {
            double g = (double)dj[j].n_gpus;
            double extra = st_plant_profile_burn(&prof[j], out->burn_w);
            out->burn_extra_w += g * extra / prof[j].period_s;
        }
    }
    if (f->power_floor > 0 || f->power_burn > 0) {
        for (size_t j = 0; j < spec->n_jobs; j++) {
            double g = (double)jobs[j].n_gpus;
            out->jobs[j].mean_w = g * prof[j].energy_j / prof[j].period_s;
            out->jobs[j].step_energy_j = g * prof[j].energy_j;
        }
        st_plant_waveform(spec, w, sums);
    }
    if (f->storage_energy_j > 0 && f->storage_power_w > 0) {
        out->storage_energy_j = (double)n_racks * f->storage_energy_j;
        out->storage_power_w = (double)n_racks * f->storage_power_w;
        st_plant_storage_sums ss;
        st_plant_storage_smooth(out->storage_energy_j, out->storage_power_w, w, w, ns, spec->dt_s,
                                &ss);
        out->storage_loss_w = ss.loss_j / out->window_s;
    }
}

/* One GPU's energy over [offset_s, offset_s + window_s) of a job repeating profile p, walked
 * phase by phase (independent of the waveform's cumulative sampling, which it checks). */
static double phase_energy(const st_plant_profile *p, double offset_s, double window_s)
{
    double pos = fmod(offset_s, p->period_s), left = window_s, e = 0;
    int i = 0;
    while (i < p->n - 1 && pos >= p->dur_s[i]) /* the phase the window starts in */
        pos -= p->dur_s[i++];
    while (left > 0) {
        double d = p->dur_s[i] - pos < left ? p->dur_s[i] - pos : left;
        e += d * p->gpu_w[i];
        left -= d;
        pos = 0;
        i = (i + 1) % p->n;
    }
    return e;
}

/* What only the reports read of the waveform w[0 .. ns): its energy against the phases' own (the
 * conservation check) and its decimated series. */
static void report_wave(const double *w, size_t ns, double base, const st_plant_wave_job *wj,
                        const st_plant_profile *prof, size_t n, st_plant_result *out)
{
    out->phase_energy_j = base * out->window_s;
    for (size_t j = 0; j < n; j++)
        out->phase_energy_j += wj[j].gpus * phase_energy(&prof[j], wj[j].offset_s, out->window_s);
    out->phase_energy_j /= preset.psu_efficiency;
    st_plant_series_of(w, ns, out->dt_s, ST_PLANT_SERIES_MAX, &out->series);
}

/* The waveform's sums into out: its IT energy, peak and mean, and the distribution losses. */
static void summarise_wave(const st_plant_wave_sums *sums, st_plant_result *out)
{
    out->wave_it_energy_j = sums->it_energy_j;
    out->it_peak_w = sums->it_peak_w;
    out->it_mean_w = sums->it_energy_j / out->window_s;
    out->loss_at_peak_w = sums->loss_at_peak_w;
    out->loss_mean_w = sums->loss_energy_j / out->window_s;
}

/* The facility figure at the waveform's peak sample: that sample's IT and distribution losses
 * (storage and mitigations already in it), the transformers and the UPS at its load, the storage's
 * and the cooling plant's mean draw (the cooling plant follows the heat over minutes, not the
 * step's milliseconds: cooling.h sizes it at the mean heat). */
static void facility_peak(const st_plant_result *out, st_plant_facility *f)
{
    double wave = out->wave.peak_w, tr = wave * (1 / preset.transformer_efficiency - 1);
    const st_plant_ups *u = &out->ups;
    double ups = 0;
    if (u->rating_w > 0) /* each of the systems carries 1 / systems of the sample */
        ups = u->systems * st_plant_ups_loss(u->rating_w, u->efficiency, u->no_load, u->square_law,
                                             (wave + tr) / (u->rating_w * u->systems));
    double dist = out->loss_at_peak_w < wave ? out->loss_at_peak_w : 0;
    *f = (st_plant_facility){.it_w = wave - dist,
                             .distribution_w = dist,
                             .storage_w = out->storage_loss_w,
                             .transformer_w = tr,
                             .ups_w = ups,
                             .cooling_w = out->cooling.total_w};
    f->total_w =
        f->it_w + f->distribution_w + f->storage_w + f->transformer_w + f->ups_w + f->cooling_w;
}

/* The facility's losses upstream of the racks (the transformers at their efficiency, the UPS on
 * the waveform w[0 .. ns)), the cooling plant over the racks' heat and those losses' heat, the
 * facility figure at the mean and at the peak, and the PUE over the mean. */
static void facility_losses(const st_cluster_cfg *c, const double *w, const size_t *cnt, size_t ns,
                            st_plant_result *out)
{
    out->transformer_loss_w =
        (out->it_mean_w + out->loss_mean_w) * (1 / preset.transformer_efficiency - 1);
    if (cnt) /* the waveform as runs (st_plant_waveform_runs) */
        st_plant_ups_of_runs(&c->facility.ups, w, cnt, ns, out->transformer_loss_w, &out->ups);
    else
        st_plant_ups_of(&c->facility.ups, w, ns, out->transformer_loss_w, &out->ups);
    /* The transformers' and the UPS's losses are heat in the electrical rooms; the same air plant
     * removes it (energy conservation: every watt drawn ends as heat to reject). */
    out->electrical_heat_w = out->transformer_loss_w + out->ups.loss_w;
    out->heat =
        (st_plant_heat){.air_w = out->air_w + out->electrical_heat_w, .liquid_w = out->liquid_w};
    out->heat.total_w = out->heat.air_w + out->heat.liquid_w;
    st_plant_cooling_power_of(&c->racks, out->heat.air_w, out->heat.liquid_w, &out->cooling);
    st_plant_facility *m = &out->facility_mean;
    *m = (st_plant_facility){.it_w = out->it_mean_w,
                             .distribution_w = out->loss_mean_w,
                             .storage_w = out->storage_loss_w,
                             .transformer_w = out->transformer_loss_w,
                             .ups_w = out->ups.loss_w,
                             .cooling_w = out->cooling.total_w};
    m->total_w =
        m->it_w + m->distribution_w + m->storage_w + m->transformer_w + m->ups_w + m->cooling_w;
    out->pue = out->it_mean_w > 0 ? m->total_w / out->it_mean_w : 0;
    facility_peak(out, &out->facility_peak);
}

/* The jobs as the racks draw them: a GPU runs one job at a time, so where jobs that ran at
 * different times list the same GPU (a queued job placed where another ran before it) it draws
 * the one of them with the highest mean power, the first listed on a tie, the worst that can run
 * there at once. jobs itself when no two share a GPU; else a copy, each job's GPUs those it
 * draws, its lists in *own (free them with free_own). Each job's own figures (out->jobs) keep
 * all its GPUs. */
static const st_plant_job *one_job_a_gpu(const st_cluster_cfg *c, const st_plant_job *jobs,
                                         size_t n, const st_plant_profile *prof, st_plant_job **own)
{
    int64_t G = st_pools_cluster_gpus(c);
    int32_t *by = st_xmalloc((size_t)(G > 0 ? G : 1) * sizeof *by);
    for (int64_t g = 0; g < G; g++)
        by[g] = -1;
    int shared = 0;
    for (size_t j = 0; j < n; j++) {
        double wj = prof[j].energy_j / prof[j].period_s;
        for (int64_t k = 0; k < jobs[j].n_gpus; k++) {
            int64_t g = jobs[j].gpus[k];
            if (g < 0 || g >= G)
                ST_BUG("GPU %lld is outside the cluster's %lld", (long long)g, (long long)G);
            int32_t o = by[g];
            shared |= o >= 0;
            if (o < 0 || wj > prof[o].energy_j / prof[o].period_s)
                by[g] = (int32_t)j;
        }
    }
    *own = NULL;
    if (!shared) {
        free(by);
        return jobs;
    }
    *own = st_xmalloc((n ? n : 1) * sizeof **own);
    for (size_t j = 0; j < n; j++) {
        int64_t *mine = st_xmalloc((size_t)(jobs[j].n_gpus ? jobs[j].n_gpus : 1) * sizeof *mine);
        int64_t m = 0;
        for (int64_t k = 0; k < jobs[j].n_gpus; k++)
            if (by[jobs[j].gpus[k]] == (int32_t)j)
                mine[m++] = jobs[j].gpus[k];
        (*own)[j] = jobs[j];
        (*own)[j].gpus = mine;
        (*own)[j].n_gpus = m;
    }
    free(by);
    return *own;
}

static void free_own(st_plant_job *own, size_t n)
{
    for (size_t j = 0; own && j < n; j++)
        free((void *)own[j].gpus);
    free(own);
}

/* The plant over window_s, with the network's constant board power net_w beside the racks: in
 * the waveform's constant draw (so in IT power, energy, the UPS's load and the PUE) and not in
 * any rack's peak, current or distribution loss. `full`: with what only the reports read
 * (st_plant_run_facility leaves it out). */
/* The waveform's figures from its samples: the spectrum too when `full`, the mitigations'
 * redraw where the racks have one (the bare waveform's shape kept beside it). */
static void wave_sampled(const st_cluster_cfg *c, const st_plant_job *jobs, const st_plant_job *dj,
                         size_t n, st_plant_profile *prof, const racks *r,
                         const st_plant_wave_spec *spec, int full, int mitigated,
                         st_plant_result *out)
{
    size_t ns = spec->n_samples;
    double *w = st_xmalloc((ns ? ns : 1) * sizeof *w);
    st_plant_wave_sums sums;
    st_plant_waveform(spec, w, &sums);
    /* the spectrum is the stats' whole cost but for a pass over the samples */
    void (*stats)(const double *, size_t, double, st_plant_wave_stats *) =
        full ? st_plant_wave_stats_of : st_plant_wave_shape_of;
    if (mitigated) {
        stats(w, ns, spec->dt_s, &out->bare); /* before the mitigations redraw it */
        mitigate(c, r->n, jobs, dj, prof, spec, w, &sums, out);
    }
    stats(w, ns, out->dt_s, &out->wave);
    summarise_wave(&sums, out);
    if (full)
        report_wave(w, ns, spec->base_w, spec->jobs, prof, n, out);
    cool_racks(c, jobs, dj, n, prof, full, out);
    facility_losses(c, w, NULL, ns, out);
    free(w);
}

/* The same figures of one job's unmitigated waveform, without its spectrum, from the waveform
 * as runs of equal samples (st_plant_waveform_runs): what a sizing search reads, a long step's
 * hundred thousand samples a few dozen runs. */
static void wave_as_runs(const st_cluster_cfg *c, const st_plant_job *jobs, const st_plant_job *dj,
                         st_plant_profile *prof, const st_plant_wave_spec *spec,
                         st_plant_result *out)
{
    size_t *cnt = NULL;
    double *w = NULL;
    st_plant_wave_sums sums;
    size_t nr = st_plant_waveform_runs(spec, &w, &cnt, &sums);
    st_plant_wave_shape_of_runs(w, cnt, nr, out->dt_s, &out->wave);
    summarise_wave(&sums, out);
    cool_racks(c, jobs, dj, 1, prof, 0, out);
    facility_losses(c, w, cnt, nr, out);
    free(w);
    free(cnt);
}

static int run_window(const st_cluster_cfg *c, const st_plant_job *jobs, size_t n, uint64_t seed,
                      double window_s, double net_w, int full, st_plant_result *out, st_err *err)
{
    memset(out, 0, sizeof *out);
    for (size_t j = 0; j < n; j++)
        if (!(st_plant_job_gpu(c, &jobs[j])->tdp_w > 0) || !jobs[j].step ||
            !(jobs[j].step->step_time_s > 0))
            return st_err_set(err, ST_EINVAL, c->loc,
                              "the plant needs the GPU's power limit (tdp) and every job's step");
    if (!(window_s >= 2 * preset.dt_s))
        return st_err_set(err, ST_EINVAL, c->loc, "the power waveform needs two samples");
    out->jobs = st_xcalloc(n ? n : 1, sizeof *out->jobs);
    out->n_jobs = n;
    st_plant_profile *prof = st_xcalloc(n ? n : 1, sizeof *prof);
    st_plant_wave_job *wj = st_xcalloc(n ? n : 1, sizeof *wj);
    jobs_of(c, jobs, n, seed, prof, wj, out);
    st_plant_job *own;
    const st_plant_job *dj = one_job_a_gpu(c, jobs, n, prof, &own);
    for (size_t j = 0; j < n; j++)
        wj[j].gpus = (double)dj[j].n_gpus;
    racks r;
    racks_init(&r, c, dj, n);
    fold_racks(&r, c, prof, out);
    double base = 0;
    for (int64_t k = 0; k < r.n; k++)
        base += r.c[k];
    base += net_w > 0 ? net_w : 0;
    out->network_w = (net_w > 0 ? net_w : 0) / preset.psu_efficiency;
    int lossy = st_plant_models_distribution(c);
    out->dt_s = preset.dt_s;
    size_t ns = (size_t)llround(window_s / out->dt_s);
    out->window_s = (double)ns * out->dt_s;
    st_plant_wave_spec spec = {wj,
                               n,
                               base,
                               1.0 / preset.psu_efficiency,
                               lossy ? r.terms : NULL,
                               lossy ? r.n_terms : 0,
                               lossy ? r.lin : NULL,
                               lossy ? r.cst : 0,
                               out->dt_s,
                               ns};
    int mitigated =
        c->racks.power_floor > 0 || c->racks.power_burn > 0 || st_plant_models_storage(c);
    if (!full && !mitigated && n == 1)
        wave_as_runs(c, jobs, dj, prof, &spec, out);
    else
        wave_sampled(c, jobs, dj, n, prof, &r, &spec, full, mitigated, out);
    racks_free(&r);
    free_own(own, n);
    free(wj);
    free(prof);
    return 0;
}

void st_plant_release(st_plant_result *r)
{
    free(r->jobs);
    free(r->series.w);
    memset(r, 0, sizeof *r);
}

double st_plant_job_base_w(const st_cluster_cfg *c, int64_t n)
{
    int64_t gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    return (double)((n + gpn - 1) / gpn) * c->node.base_power_w;
}

double st_plant_resting_w(const st_gpu_spec *g, double floor_w)
{
    double top = g->power_limit_w > 0 && g->power_limit_w < g->tdp_w ? g->power_limit_w : g->tdp_w;
    double fl = floor_w < top ? floor_w : top;
    return fl > g->idle_w ? fl : g->idle_w;
}

double st_plant_job_energy_j(double pue, double steps, double step_energy_j, double rest_j,
                             double base_w, double held_s)
{
    return pue * (steps * step_energy_j + rest_j + base_w * held_s) /
           st_plant_preset_get()->psu_efficiency;
}
