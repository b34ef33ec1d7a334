/* One job's waveform as runs of equal samples (st_plant_waveform_runs), what a sizing search
 * reads of the plant, against the same waveform sampled (st_plant_waveform): the same sums, shape
 * and UPS loss, within the last bits the samples' own rounding moves them by. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "models/plant/ups.h"
#include "models/plant/waveform.h"
#include "unit/check_util.h"

/* A step of five phases, one shorter than a sample and none a whole number of samples long. */
static st_plant_profile step_profile(void)
{
    st_plant_profile p = {.n = 5,
                          .dur_s = {0.3127, 1.20034, 0.0004, 2.5001, 0.77},
                          .gpu_w = {690, 410, 120, 700, 95}};
    p.period_s = p.energy_j = 0;
    for (int i = 0; i < p.n; i++) {
        p.period_s += p.dur_s[i];
        p.energy_j += p.dur_s[i] * p.gpu_w[i];
    }
    return p;
}

static double sum_of(const size_t *c, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += (double)c[i];
    return s;
}

/* Both ways at an offset into the step, with the racks' losses' quadratic form: every figure
 * within 1e-9 of the sampled one (the ramp, a difference of two samples, within 1e-6), and the
 * runs a few dozen where the samples are ten thousand. */
static void same_both_ways(double offset_s, size_t samples)
{
    st_plant_profile p = step_profile();
    st_plant_wave_job job = {&p, 1024, offset_s};
    st_plant_loss_term term = {0, 0, 2.5e-3};
    double lin = 0.75;
    st_plant_wave_spec s = {&job, 1, 2.0e5, 1 / 0.96, &term, 1, &lin, 1500, 1e-3, samples};
    double *w = malloc(samples * sizeof *w);
    st_plant_wave_sums a, b;
    st_plant_waveform(&s, w, &a);
    double *rw = NULL;
    size_t *cnt = NULL;
    size_t nr = st_plant_waveform_runs(&s, &rw, &cnt, &b);
    ck_assert_double_eq(sum_of(cnt, nr), (double)samples);
    ck_assert_uint_lt(nr, 64);
    ASSERT_REL(b.it_energy_j, a.it_energy_j, 1e-9);
    ASSERT_REL(b.loss_energy_j, a.loss_energy_j, 1e-9);
    ASSERT_REL(b.it_peak_w, a.it_peak_w, 1e-9);
    ASSERT_REL(b.loss_at_peak_w, a.loss_at_peak_w, 1e-9);
    st_plant_wave_stats x, y;
    st_plant_wave_shape_of(w, samples, s.dt_s, &x);
    st_plant_wave_shape_of_runs(rw, cnt, nr, s.dt_s, &y);
    ASSERT_REL(y.peak_w, x.peak_w, 1e-9);
    ASSERT_REL(y.min_w, x.min_w, 1e-9);
    ASSERT_REL(y.mean_w, x.mean_w, 1e-9);
    ASSERT_REL(y.swing_w, x.swing_w, 1e-9);
    ASSERT_REL(y.ramp_w_per_s, x.ramp_w_per_s, 1e-6);
    st_ups_cfg u = {.efficiency = 0.95, .no_load = 0.02, .square_law = 0.1};
    st_plant_ups ua, ub;
    st_plant_ups_of(&u, w, samples, 3.0e4, &ua);
    st_plant_ups_of_runs(&u, rw, cnt, nr, 3.0e4, &ub);
    ASSERT_REL(ub.rating_w, ua.rating_w, 1e-9);
    ASSERT_REL(ub.load, ua.load, 1e-9);
    ASSERT_REL(ub.loss_w, ua.loss_w, 1e-9);
    free(w);
    free(rw);
    free(cnt);
}

START_TEST(test_runs_agree_with_the_samples)
{
    same_both_ways(0, 8192);
    same_both_ways(1.7349, 10007); /* mid-phase, over two periods and a part */
}
END_TEST

/* A flat draw (one phase: a steady service) is one run, with no swing or ramp, as the sampled
 * shape's guard against its last-bit noise makes it. */
START_TEST(test_a_flat_draw_is_one_run)
{
    st_plant_profile p = {
        .n = 1, .dur_s = {2.0}, .gpu_w = {500}, .period_s = 2.0, .energy_j = 1000};
    st_plant_wave_job job = {&p, 64, 0.3};
    st_plant_wave_spec s = {&job, 1, 1.0e4, 1 / 0.96, NULL, 0, NULL, 0, 1e-3, 4096};
    double *rw = NULL;
    size_t *cnt = NULL;
    st_plant_wave_sums b;
    size_t nr = st_plant_waveform_runs(&s, &rw, &cnt, &b);
    ck_assert_uint_eq(nr, 1);
    ck_assert_uint_eq(cnt[0], 4096);
    st_plant_wave_stats y;
    st_plant_wave_shape_of_runs(rw, cnt, nr, s.dt_s, &y);
    ck_assert_double_eq(y.swing_w, 0);
    ck_assert_double_eq(y.ramp_w_per_s, 0);
    ASSERT_REL(y.peak_w, (1.0e4 + 64 * 500) / 0.96, 1e-12);
    free(rw);
    free(cnt);
}
END_TEST

/* A profile of n phases, period_s long, powers from a small generator (at least two differ). */
static st_plant_profile profile_of(int n, double period_s, uint64_t *x)
{
    st_plant_profile p = {.n = n, .period_s = period_s};
    double sum = 0, share[ST_PLANT_MAX_PHASES];
    for (int i = 0; i < n; i++) {
        *x = *x * 6364136223846793005u + 1442695040888963407u;
        share[i] = 1.0 + (double)(*x >> 40 & 1023);
        sum += share[i];
        p.gpu_w[i] = 100.0 + (double)(*x >> 20 & 511) + (i == 1 ? 1.0 : 0.0);
    }
    for (int i = 0; i < n; i++) {
        p.dur_s[i] = period_s * share[i] / sum;
        p.energy_j += p.dur_s[i] * p.gpu_w[i];
    }
    return p;
}

/* Many jobs against a per-sample reference (each sample every job's cumulative-energy difference,
 * summed in job order, the losses' form on top): steps of 2 ms (every sample by its energy),
 * 50 ms and 1.3 s, several blocks of per-job powers with a shorter last one (600 jobs x 8192
 * samples past WAVE_BLOCK_DOUBLES), cross-job loss terms and linear ones. Every sample within
 * 1e-9 of the reference. */
START_TEST(test_many_jobs_match_a_per_sample_reference)
{
    enum { NJ = 600, NS = 8192 };
    static st_plant_profile prof[NJ];
    static st_plant_wave_job jobs[NJ];
    static st_plant_loss_term terms[NJ];
    static double lin[NJ], prev[NJ], got[NS];
    uint64_t x = 7;
    const double periods[] = {0.002, 0.05, 1.3}, dt = 1e-3;
    for (int j = 0; j < NJ; j++) {
        prof[j] = profile_of(2 + j % 4, periods[j % 3], &x);
        jobs[j] = (st_plant_wave_job){&prof[j], 8, prof[j].period_s * (double)(j % 97) / 97.0};
        terms[j] = (st_plant_loss_term){(size_t)j, (size_t)(j + 1) % NJ, 1e-4};
        lin[j] = 0.1;
        prev[j] = st_plant_profile_energy(&prof[j], jobs[j].offset_s);
    }
    st_plant_wave_spec s = {jobs, NJ, 5.0e4, 1 / 0.96, terms, NJ, lin, 3.0, dt, NS};
    st_plant_wave_sums sums;
    st_plant_waveform(&s, got, &sums);
    static double pj[NJ];
    for (size_t k = 0; k < NS; k++) {
        double board = s.base_w;
        for (int j = 0; j < NJ; j++) {
            const st_plant_profile *p = &prof[j];
            double t = (double)(k + 1) * dt + jobs[j].offset_s, m = floor(t / p->period_s);
            double next = m * p->energy_j + st_plant_profile_energy(p, t - m * p->period_s);
            pj[j] = (next - prev[j]) / dt;
            prev[j] = next;
            board += jobs[j].gpus * pj[j];
        }
        double loss = s.cst;
        for (int j = 0; j < NJ; j++)
            loss += terms[j].coef * pj[terms[j].j] * pj[terms[j].l] + lin[j] * pj[j];
        ASSERT_REL(got[k], s.scale * board + loss, 1e-9);
    }
}
END_TEST

Suite *wave_runs_suite(void)
{
    Suite *s = suite_create("wave_runs");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_runs_agree_with_the_samples);
    tcase_add_test(tc, test_a_flat_draw_is_one_run);
    tcase_add_test(tc, test_many_jobs_match_a_per_sample_reference);
    suite_add_tcase(s, tc);
    return s;
}
