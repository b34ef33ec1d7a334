/* The waveform's report series (models/plant/wave_series.h): decimation keeps each stretch's
 * energy, and the amplitude spectrum of a sinusoid on a constant shows the sinusoid's amplitude
 * at its frequency and nothing at DC. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "models/plant/wave_series.h"

START_TEST(test_decimation_keeps_the_energy)
{
    enum { N = 10007 }; /* prime: the last run is shorter */
    static double w[N];
    double sum = 0;
    for (size_t k = 0; k < N; k++)
        sum += w[k] = 1e6 + 5e5 * sin(0.01 * (double)k);
    st_plant_series s;
    st_plant_series_of(w, N, 1e-3, 2000, &s);
    ck_assert_uint_le(s.n, 2000);
    size_t run = (N + 1999) / 2000; /* 6 samples a point */
    ck_assert_double_eq_tol(s.dt_s, 1e-3 * (double)run, 1e-15);
    double energy = 0;
    for (size_t i = 0; i < s.n; i++) {
        size_t len = (i + 1) * run <= N ? run : N - i * run;
        energy += s.w[i] * (double)len;
    }
    ck_assert_double_eq_tol(energy, sum, 1e-6 * sum);
    free(s.w);
    st_plant_series_of(w, 0, 1e-3, 2000, &s);
    ck_assert_ptr_null(s.w);
    ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(test_spectrum_of_a_sinusoid_shows_its_amplitude)
{
    enum { N = 4000 };
    static double w[N], amp[N / 2 + 1];
    const double dt = 0.01, f = 2.5, a = 3e6; /* 2.5 Hz over 40 s: bin 100 exactly */
    for (size_t k = 0; k < N; k++)
        w[k] = 1e7 + a * sin(2 * 3.14159265358979323846 * f * (double)k * dt);
    ck_assert_uint_eq(st_plant_spectrum(w, N, dt, amp), N / 2 + 1);
    ck_assert_double_eq_tol(amp[0], 0, 1e-6 * a);
    size_t peak = 1;
    for (size_t k = 1; k <= N / 2; k++)
        peak = amp[k] > amp[peak] ? k : peak;
    ck_assert_uint_eq(peak, 100);
    ck_assert_double_eq_tol(amp[peak], a, 1e-9 * a);
    ck_assert_double_lt(amp[peak + 3], 1e-9 * a);
}
END_TEST

Suite *wave_series_suite(void)
{
    Suite *s = suite_create("wave_series");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_decimation_keeps_the_energy);
    tcase_add_test(tc, test_spectrum_of_a_sinusoid_shows_its_amplitude);
    suite_add_tcase(s, tc);
    return s;
}
