/* The waveform's decimated series and amplitude spectrum (wave_series.h). The spectrum uses the
 * same transform as the waveform's dominant frequency (waveform.c): GSL's gsl_fft_real_transform,
 * whose result is in half-complex order (GSL manual, "Mixed-radix FFT routines for real data"). */
#include <math.h>
#include <stdlib.h>

#include "models/plant/wave_series.h"
#include "models/plant/waveform.h"
#include "sim/err.h"
#include "sim/xalloc.h"

void st_plant_series_of(const double *w, size_t n, double dt_s, size_t max_points,
                        st_plant_series *out)
{
    *out = (st_plant_series){0};
    if (n == 0 || max_points == 0)
        return;
    size_t k = (n + max_points - 1) / max_points, m = (n + k - 1) / k;
    out->w = st_xmalloc(m * sizeof *out->w);
    out->n = m;
    out->dt_s = dt_s * (double)k;
    for (size_t i = 0; i < m; i++) {
        size_t a = i * k, b = a + k < n ? a + k : n;
        double sum = 0;
        for (size_t j = a; j < b; j++)
            sum += w[j];
        out->w[i] = sum / (double)(b - a);
    }
}

size_t st_plant_spectrum(const double *w, size_t n, double dt_s, double *amp)
{
    (void)dt_s; /* the bins' frequencies are the caller's: k / (n dt_s) */
    if (n < 2)
        ST_BUG("st_plant_spectrum needs two samples, got %zu", n);
    double mean = 0, *c = st_xmalloc(n * sizeof *c);
    for (size_t k = 0; k < n; k++)
        mean += w[k] / (double)n;
    for (size_t k = 0; k < n; k++)
        c[k] = w[k] - mean;
    st_plant_fft_real(c, n);
    size_t bins = n / 2 + 1;
    amp[0] = fabs(c[0]) / (double)n;
    for (size_t k = 1; k < bins; k++) {
        int nyquist = n % 2 == 0 && k == n / 2;
        double re = nyquist ? c[n - 1] : c[2 * k - 1], im = nyquist ? 0 : c[2 * k];
        amp[k] = (nyquist ? 1.0 : 2.0) * hypot(re, im) / (double)n;
    }
    free(c);
    return bins;
}
