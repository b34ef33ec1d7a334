/* The facility waveform as a report draws it: a decimated copy of the millisecond samples, and
 * its amplitude spectrum. The plant keeps the series (plant.h); report writers plot them. */
#ifndef ST_MODELS_PLANT_WAVE_SERIES_H
#define ST_MODELS_PLANT_WAVE_SERIES_H

#include <stddef.h>

/* At most this many points (64 kB a run): over the plant's 120 s window that is a 15 ms series,
 * whose spectrum reaches 33 Hz, past the top of the 0.1-20 Hz utility band (waveform.h). */
#define ST_PLANT_SERIES_MAX 8000

/* w[0..n) every dt_s, from t = 0. */
typedef struct st_plant_series {
    double *w; /* malloc'd; NULL when none */
    size_t n;
    double dt_s;
} st_plant_series;

/* The mean of every run of k = ceil(n / max_points) consecutive samples of w[0..n) (the last run
 * may be shorter): the energy of each stretch is kept, the edges inside one are smoothed. Fills
 * out (its w malloc'd; n 0 and w NULL when n is 0). */
void st_plant_series_of(const double *w, size_t n, double dt_s, size_t max_points,
                        st_plant_series *out);

/* The one-sided amplitude spectrum of w[0..n) (n >= 2) less its mean, by GSL's mixed-radix real
 * FFT: amp[k] at k / (n dt_s) Hz for k = 0 .. n / 2, scaled so that a sinusoid of amplitude A
 * between bins 1 and n / 2 - 1 shows A (2 |X_k| / n; the DC and Nyquist bins |X_k| / n). Returns
 * the bins written (n / 2 + 1) into amp, which must hold that many. */
size_t st_plant_spectrum(const double *w, size_t n, double dt_s, double *amp);

#endif
