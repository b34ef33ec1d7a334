/* The facility's power at millisecond resolution: every running job's GPUs swing together at its
 * step rhythm, each job offset in its step, on top of a constant draw; the distribution's I²R
 * losses follow each rack's load. Then the waveform's peak, swing, ramp and dominant frequency
 * (GSL's real FFT). Aggregated by job and rack: never one sample per GPU. */
#ifndef ST_MODELS_PLANT_WAVEFORM_H
#define ST_MODELS_PLANT_WAVEFORM_H

#include <stddef.h>

#include "models/plant/gpu_power.h"

/* One job in the waveform: gpus GPUs of per-GPU profile p, at offset_s into its step at t = 0. */
typedef struct st_plant_wave_job {
    const st_plant_profile *p;
    double gpus;
    double offset_s;
} st_plant_wave_job;

/* One term of the losses' quadratic form: coef * p_j * p_l, p_j the per-GPU board power of job
 * j (an index into the jobs). */
typedef struct st_plant_loss_term {
    size_t j, l;
    double coef;
} st_plant_loss_term;

/* What the waveform sums. Wall power is scale * (board power), scale = 1 / PSU efficiency. The
 * losses are sum over racks of k_r * P_r(t)^2 (P_r the rack's wall power), expanded into
 * sum(terms) + sum_j lin[j] p_j + cst (st_plant_racks builds them; none when n_terms is 0 and
 * lin is NULL). */
typedef struct st_plant_wave_spec {
    const st_plant_wave_job *jobs;
    size_t n_jobs;
    double base_w; /* constant board-level draw: idle GPUs and node base power */
    double scale;
    const st_plant_loss_term *terms;
    size_t n_terms;
    const double *lin; /* n_jobs entries, or NULL */
    double cst;
    double dt_s;
    size_t n_samples;
} st_plant_wave_spec;

/* What st_plant_waveform measures beside the samples. */
typedef struct st_plant_wave_sums {
    double it_peak_w, it_energy_j; /* IT (wall) power before distribution losses */
    double loss_energy_j;
    double loss_at_peak_w; /* the losses in the facility's peak sample */
} st_plant_wave_sums;

/* Fill out[0 .. n_samples) with the facility power, W, each the mean over its dt_s: IT wall
 * power plus distribution losses. Each job's sample is its exact energy over the interval over
 * dt_s, so the samples integrate to the phases' energies: a sample wholly inside a phase is the
 * phase's power, so each job is walked a run of equal samples at a time. */
void st_plant_waveform(const st_plant_wave_spec *s, double *out, st_plant_wave_sums *sums);

/* st_plant_waveform of one job (s->n_jobs 1) as runs of equal samples: a sample wholly inside
 * one phase of the step is that phase's power, so a step of a few phases is a few dozen runs
 * however many samples long; a sample across a phase boundary is a run of its own, its exact
 * energy over dt_s as st_plant_waveform takes it. Fills (*w)[i] held for (*cnt)[i] samples
 * (malloc'd, the caller frees both) and returns the runs; *sums as st_plant_waveform's. What a
 * sizing search reads of a waveform (its shape, its UPS) without its millions of samples. */
size_t st_plant_waveform_runs(const st_plant_wave_spec *s, double **w, size_t **cnt,
                              st_plant_wave_sums *sums);

/* The utility band of interest: Choukse et al. (arXiv 2508.14318) give 0.1-20 Hz as an example
 * of the critical frequency range a utility specifies for a datacenter's power oscillations. */
#define ST_PLANT_BAND_LO_HZ 0.1
#define ST_PLANT_BAND_HI_HZ 20.0

/* A waveform's shape: peak, trough, mean, swing (peak - trough), the steepest change between
 * neighbouring samples per second, the frequency of the largest non-zero bin of its spectrum
 * (0 when flat), and the share of its non-DC spectral energy inside the utility band. */
typedef struct st_plant_wave_stats {
    double peak_w, min_w, mean_w, swing_w, ramp_w_per_s, dominant_hz, band_share;
} st_plant_wave_stats;

/* The stats of w[0 .. n) sampled every dt_s (n >= 2). Uses GSL's mixed-radix real FFT on a copy
 * of w less its mean. */
void st_plant_wave_stats_of(const double *w, size_t n, double dt_s, st_plant_wave_stats *out);

/* st_plant_wave_stats_of without the spectrum (dominant_hz and band_share 0), the same figures
 * bit for bit otherwise: for a caller that reads the peak, not the frequencies, the FFT and its
 * wavetable were most of the cost. */
void st_plant_wave_shape_of(const double *w, size_t n, double dt_s, st_plant_wave_stats *out);

/* st_plant_wave_shape_of of a waveform given as runs: w[i] held for cnt[i] samples, nr runs of
 * at least two samples in all. */
void st_plant_wave_shape_of_runs(const double *w, const size_t *cnt, size_t nr, double dt_s,
                                 st_plant_wave_stats *out);

/* GSL's real FFT of c[0 .. n) in place (its half-complex order): the one transform of the
 * waveform's dominant frequency and of the reports' spectrum. Any n >= 1 (GSL's mixed radix). */
void st_plant_fft_real(double *c, size_t n);

#endif
