/* The facility waveform: jobs' per-GPU profiles sampled as exact interval means, summed with
 * the constant draw, the rack losses' quadratic form on top; and its spectrum by GSL's FFT. */
#include "models/plant/waveform.h"

#include <gsl/gsl_fft_real.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gsl_guard.h"
#include "sim/xalloc.h"

/* Energy one GPU of p draws over [0, t) of a job that repeats its step forever (t >= 0). */
static double cum_energy(const st_plant_profile *p, double t)
{
    double m = floor(t / p->period_s);
    double r = t - m * p->period_s;
    if (r < 0)
        r = 0;
    if (r > p->period_s)
        r = p->period_s;
    return m * p->energy_j + st_plant_profile_energy(p, r);
}

/* A job's walk through its samples as runs of equal power: a sample wholly inside one phase of
 * the step draws that phase's power, one across a boundary its exact energy over dt. */
typedef struct walk {
    const st_plant_profile *p;
    double end[ST_PLANT_MAX_PHASES]; /* each phase's end in the step */
    double dt, offset;
    size_t k_at; /* the sample whose start's cumulative energy is e_at */
    double e_at;
    int each; /* runs too short to pay for finding them: every sample by its energy */
    int flat; /* every phase at one power (a steady service): one run of all samples */
} walk;

/* Runs of fewer samples than this on average (a step's period over its phases) are not worth
 * their search: each sample then takes the difference of cumulative energies alone. */
#define WALK_MIN_RUN 8.0

static void walk_init(walk *a, const st_plant_wave_job *jb, double dt)
{
    a->p = jb->p;
    a->dt = dt;
    a->offset = jb->offset_s;
    a->k_at = 0;
    a->e_at = cum_energy(a->p, a->offset); /* sample 0's start, as (double)0 * dt + offset */
    a->flat = 1;
    for (int i = 0; i < a->p->n; i++) {
        a->end[i] = (i ? a->end[i - 1] : 0) + a->p->dur_s[i];
        a->flat &= a->p->gpu_w[i] == a->p->gpu_w[0];
    }
    a->each = !a->flat && a->p->period_s < WALK_MIN_RUN * (double)a->p->n * dt;
}

/* Sample k's per-GPU power from the cumulative energies at its ends, the start's kept from the
 * sample before. */
static double walk_energy(walk *a, size_t k)
{
    double e0 = a->k_at == k ? a->e_at : cum_energy(a->p, (double)k * a->dt + a->offset);
    a->e_at = cum_energy(a->p, (double)(k + 1) * a->dt + a->offset);
    a->k_at = k + 1;
    return (a->e_at - e0) / a->dt;
}

/* The run from sample k on, at most `left` samples: its length (at least 1), its per-GPU power
 * in *pj. Sample k spans [k dt, (k + 1) dt) past the offset; a boundary sample's end energy is
 * kept for the next, so that steps shorter than a sample cost one cumulative energy each. */
static size_t walk_run(walk *a, size_t k, size_t left, double *pj)
{
    if (a->flat) {
        *pj = a->p->gpu_w[0];
        return left;
    }
    if (a->each) {
        *pj = walk_energy(a, k);
        return 1;
    }
    const st_plant_profile *p = a->p;
    double t = (double)k * a->dt + a->offset;
    double m = floor(t / p->period_s), pos = t - m * p->period_s;
    int i = 0;
    while (i < p->n - 1 && pos >= a->end[i])
        i++;
    double whole = floor((a->end[i] - pos) / a->dt);
    size_t c = whole >= 1 ? (size_t)whole : 0;
    c = c < left ? c : left;
    if (c) {
        *pj = p->gpu_w[i];
        return c;
    }
    *pj = walk_energy(a, k);
    return 1;
}

/* Doubles of per-job power a block holds (its samples x n_jobs, about 32 MiB), kept for the
 * losses' quadratic form; without losses one block is the whole window. */
#define WAVE_BLOCK_DOUBLES ((size_t)1 << 22)

/* The samples [k0, k0 + nb) of the board power into brd, each base_w plus every job's GPUs
 * times its power in job order; with the losses, job j's powers into pj[j nb ..]. Job by job, a
 * run at a time: a step of a few phases costs a few runs a job, not a sample each. */
static void board_block(const st_plant_wave_spec *s, walk *wk, size_t k0, size_t nb, double *brd,
                        double *pj)
{
    for (size_t k = 0; k < nb; k++)
        brd[k] = s->base_w;
    for (size_t j = 0; j < s->n_jobs; j++) {
        double g = s->jobs[j].gpus, *col = pj ? pj + j * nb : NULL;
        for (size_t k = 0; k < nb;) {
            double w;
            size_t c = walk_run(&wk[j], k0 + k, nb - k, &w);
            for (size_t e = k + c; k < e; k++) {
                brd[k] += g * w;
                if (col)
                    col[k] = w;
            }
        }
    }
}

/* The losses of sample k of a block of nb whose job powers are pj (column per job). */
static double block_loss(const st_plant_wave_spec *s, const double *pj, size_t nb, size_t k)
{
    double l = s->cst;
    for (size_t i = 0; i < s->n_terms; i++)
        l += s->terms[i].coef * pj[s->terms[i].j * nb + k] * pj[s->terms[i].l * nb + k];
    for (size_t j = 0; s->lin && j < s->n_jobs; j++)
        l += s->lin[j] * pj[j * nb + k];
    return l;
}

void st_plant_waveform(const st_plant_wave_spec *s, double *out, st_plant_wave_sums *sums)
{
    size_t nj = s->n_jobs, ns = s->n_samples;
    int lossy = s->n_terms || s->lin;
    size_t nb = lossy && nj ? WAVE_BLOCK_DOUBLES / nj : ns;
    nb = nb < 1 ? 1 : nb > ns ? (ns ? ns : 1) : nb;
    walk *wk = st_xcalloc(nj ? nj : 1, sizeof *wk);
    for (size_t j = 0; j < nj; j++)
        walk_init(&wk[j], &s->jobs[j], s->dt_s);
    double *pj = lossy ? st_xmalloc(nb * (nj ? nj : 1) * sizeof *pj) : NULL;
    *sums = (st_plant_wave_sums){0};
    double peak = -1;
    for (size_t k0 = 0; k0 < ns; k0 += nb) {
        size_t n = ns - k0 < nb ? ns - k0 : nb;
        double *brd = out + k0; /* the board power, then the facility's in its place */
        board_block(s, wk, k0, n, brd, pj);
        for (size_t k = 0; k < n; k++) {
            double it = s->scale * brd[k], loss = lossy ? block_loss(s, pj, n, k) : 0;
            out[k0 + k] = it + loss;
            sums->it_energy_j += it * s->dt_s;
            sums->loss_energy_j += loss * s->dt_s;
            if (it > sums->it_peak_w)
                sums->it_peak_w = it;
            if (out[k0 + k] > peak) {
                peak = out[k0 + k];
                sums->loss_at_peak_w = loss;
            }
        }
    }
    free(pj);
    free(wk);
}

/* The runs' builder: values and counts, grown by doubling. */
typedef struct runs {
    double *w;
    size_t *cnt, n, cap;
} runs;

static void runs_push(runs *r, double w, size_t c)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->w = st_xrealloc(r->w, r->cap * sizeof *r->w);
        r->cnt = st_xrealloc(r->cnt, r->cap * sizeof *r->cnt);
    }
    r->w[r->n] = w;
    r->cnt[r->n++] = c;
}

/* The facility sample of per-GPU power pj (one job), its IT part in *it, its losses in *loss. */
static double sample_of(const st_plant_wave_spec *s, double pj, double *it, double *loss)
{
    *it = s->scale * (s->base_w + s->jobs[0].gpus * pj);
    *loss = s->n_terms || s->lin ? block_loss(s, &pj, 1, 0) : 0;
    return *it + *loss;
}

size_t st_plant_waveform_runs(const st_plant_wave_spec *s, double **w, size_t **cnt,
                              st_plant_wave_sums *sums)
{
    if (s->n_jobs != 1)
        ST_BUG("a waveform as runs is one job's, got %zu", s->n_jobs);
    walk wk;
    walk_init(&wk, &s->jobs[0], s->dt_s);
    runs r = {0};
    double it_e = 0, loss_e = 0, it_peak = 0, loss_at_peak = 0, peak = -1;
    for (size_t k = 0; k < s->n_samples;) {
        double pj;
        size_t c = walk_run(&wk, k, s->n_samples - k, &pj);
        double it, loss, o = sample_of(s, pj, &it, &loss);
        runs_push(&r, o, c);
        it_e += (double)c * (it * s->dt_s);
        loss_e += (double)c * (loss * s->dt_s);
        if (it > it_peak)
            it_peak = it;
        if (o > peak) {
            peak = o;
            loss_at_peak = loss;
        }
        k += c;
    }
    *sums = (st_plant_wave_sums){.it_energy_j = it_e,
                                 .loss_energy_j = loss_e,
                                 .it_peak_w = it_peak,
                                 .loss_at_peak_w = loss_at_peak};
    *w = r.w;
    *cnt = r.cnt;
    return r.n;
}

/* The largest non-DC bin of GSL's half-complex output c (n values) and the share of the non-DC
 * energy within [lo, hi] Hz. */
static void spectrum_peak(const double *c, size_t n, double dt, st_plant_wave_stats *o)
{
    double best = 0, total = 0, band = 0;
    size_t arg = 0;
    for (size_t k = 1; k <= n / 2; k++) {
        double re = c[2 * k - 1], im = (2 * k < n) ? c[2 * k] : 0;
        if (2 * k == n)
            re = c[n - 1];
        double e = re * re + im * im, f = (double)k / ((double)n * dt);
        total += e;
        if (f >= ST_PLANT_BAND_LO_HZ && f <= ST_PLANT_BAND_HI_HZ)
            band += e;
        if (e > best) {
            best = e;
            arg = k;
        }
    }
    o->dominant_hz = arg ? (double)arg / ((double)n * dt) : 0;
    o->band_share = total > 0 ? band / total : 0;
}

/* GSL's real FFT in place (waveform.h). */
void st_plant_fft_real(double *c, size_t n)
{
    st_gsl_guard(); /* a failure returns its status, checked below, instead of aborting */
    gsl_fft_real_wavetable *wt = gsl_fft_real_wavetable_alloc(n);
    gsl_fft_real_workspace *ws = gsl_fft_real_workspace_alloc(n);
    if (!wt || !ws || gsl_fft_real_transform(c, 1, n, wt, ws))
        ST_BUG("GSL real FFT of %zu samples failed", n);
    gsl_fft_real_wavetable_free(wt);
    gsl_fft_real_workspace_free(ws);
}

/* The shape of w[i] held for cnt[i] samples (cnt NULL: each one sample), nr entries: both
 * public forms, the same arithmetic (a count of 1 multiplies exactly). */
static void shape_of(const double *w, const size_t *cnt, size_t nr, double dt_s,
                     st_plant_wave_stats *o)
{
    size_t n = 0;
    for (size_t i = 0; i < nr; i++)
        n += cnt ? cnt[i] : 1;
    if (n < 2)
        ST_BUG("a waveform's stats need two samples, got %zu", n);
    *o = (st_plant_wave_stats){.peak_w = w[0], .min_w = w[0]};
    double sum = 0;
    for (size_t i = 0; i < nr; i++) {
        sum += (cnt ? (double)cnt[i] : 1.0) * w[i];
        o->peak_w = w[i] > o->peak_w ? w[i] : o->peak_w;
        o->min_w = w[i] < o->min_w ? w[i] : o->min_w;
        double d = i ? fabs(w[i] - w[i - 1]) / dt_s : 0; /* within a run: 0 */
        o->ramp_w_per_s = d > o->ramp_w_per_s ? d : o->ramp_w_per_s;
    }
    o->mean_w = sum / (double)n;
    o->swing_w = o->peak_w - o->min_w;
    /* A flat draw (steady jobs alone: inference services) sums its samples in different orders
     * and varies by the last bits, a swing of 1e-11 of the peak with a frequency of its own: no
     * swing, ramp or spectrum below a billionth of the peak, far under any meter's resolution. */
    if (o->swing_w <= 1e-9 * fabs(o->peak_w))
        o->swing_w = o->ramp_w_per_s = 0;
}

void st_plant_wave_shape_of(const double *w, size_t n, double dt_s, st_plant_wave_stats *o)
{
    shape_of(w, NULL, n, dt_s, o);
}

void st_plant_wave_stats_of(const double *w, size_t n, double dt_s, st_plant_wave_stats *o)
{
    st_plant_wave_shape_of(w, n, dt_s, o);
    if (o->swing_w == 0) /* flat (st_plant_wave_shape_of): no spectrum */
        return;
    double *c = st_xmalloc(n * sizeof *c);
    for (size_t k = 0; k < n; k++)
        c[k] = w[k] - o->mean_w;
    st_plant_fft_real(c, n);
    spectrum_peak(c, n, dt_s, o);
    free(c);
}

void st_plant_wave_shape_of_runs(const double *w, const size_t *cnt, size_t nr, double dt_s,
                                 st_plant_wave_stats *o)
{
    shape_of(w, cnt, nr, dt_s, o);
}
