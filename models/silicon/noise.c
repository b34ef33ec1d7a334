/* System noise and a synchronous job (models/silicon/noise.h). Hoefler, Schneider and Lumsdaine,
 * "Characterizing the Influence of System Noise on Large-Scale Applications by Simulation"
 * (SC'10), model noise as detours: a rank stops making progress for d seconds, periodically or
 * at random. A collective over g ranks ends when its last rank arrives, so what a stretch of
 * work between two collectives loses is d times the most detours any of the g ranks met in it,
 * not the mean: noise that costs each rank 1% of its time costs a wide synchronous job more.
 * docs/models/stragglers.md, "System noise", gives the equations. */
#include "models/silicon/noise.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/variability.h"

/* Past this many detours expected per stretch a rank's count is normal to well under a detour
 * (Poisson's skewness 1/sqrt(mu) < 0.04), and the exact sum would take that many terms. */
#define NORMAL_COUNT 700.0

/* Mean and variance of the largest of m ranks' detour counts K in a stretch of x = tau / every
 * periods, exactly. Periodic: K is floor(x), one more with probability frac(x). Poisson:
 * E[M] = sum_k P(M > k), E[M^2] = sum_k (2k + 1) P(M > k), P(M > k) = 1 - (1 - P(K > k))^m. */
static void max_moments(const st_noise_sig *z, double x, double m, double *mean, double *var)
{
    if (z->periodic) { /* floor(x), and one more unless all m ranks miss it: in closed form */
        double base = floor(x), q = -expm1(m * log1p(-(x - base)));
        *mean = base + q;
        *var = q * (1 - q);
        return;
    }
    if (x > NORMAL_COUNT) {
        /* normal counts: the largest of m is Blom's; its variance is at most one count's */
        *mean = x + sqrt(x) * st_expected_max_normal((int64_t)m);
        *var = x;
        return;
    }
    double e = 0, e2 = 0;
    int64_t last = (int64_t)(x + 12 * sqrt(x) + 40); /* P(K > last) < 1e-30 for x <= 700 */
    for (int64_t k = 0; k <= last; k++) {
        double q = gsl_cdf_poisson_Q((unsigned)k, x); /* P(K > k) */
        if (q <= 0)
            break;
        double pm = q >= 1 ? 1 : -expm1(m * log1p(-q));
        e += pm;
        e2 += (2.0 * (double)k + 1) * pm;
    }
    *mean = e;
    *var = fmax(0, e2 - e * e);
}

double st_noise_delay_parts(const st_noise_sig *z, const st_noise_sync *s, double *mean_s,
                            double *spread_s)
{
    *mean_s = *spread_s = 0;
    if (!(z->every_s > 0) || !(z->detour_s > 0) || !(s->tau_s > 0) || s->ranks < 1)
        return 0;
    double x = s->tau_s / z->every_s, mean, var;
    int64_t g = s->group > 1 ? s->group : 1, groups = s->ranks / g;
    if (z->cosched) { /* all ranks detoured together: each stretch loses one rank's detours */
        *mean_s = z->detour_s * x * (double)(s->intervals > 1 ? s->intervals : 1);
        return *mean_s;
    }
    if (s->intervals <= 1 || g == 1) {
        /* one stretch of everything, ended by one collective over all the ranks: exact */
        double total = x * (double)(s->intervals > 1 ? s->intervals : 1);
        max_moments(z, total, (double)s->ranks, &mean, &var);
        *mean_s = z->detour_s * mean;
        return *mean_s;
    }
    /* Each group's stretches end at its slowest rank: the group's loss is a sum of `intervals`
     * independent maxima, near normal (central limit); the step ends at the slowest group. */
    max_moments(z, x, (double)g, &mean, &var);
    double n = (double)s->intervals;
    *mean_s = z->detour_s * n * mean;
    *spread_s = z->detour_s * sqrt(n * var) * st_expected_max_normal(groups);
    return *mean_s + *spread_s;
}

double st_noise_delay(const st_noise_sig *z, const st_noise_sync *s)
{
    double mean, spread;
    return st_noise_delay_parts(z, s, &mean, &spread);
}

double st_noise_delay_sampled(const st_noise_sig *z, const st_noise_sync *s, uint64_t seed,
                              int reps)
{
    if (!(z->every_s > 0) || !(z->detour_s > 0) || !(s->tau_s > 0) || s->ranks < 1 || reps < 1)
        return 0;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)seed);
    double x = s->tau_s / z->every_s, base = floor(x), sum = 0;
    int64_t g = s->group > 1 ? s->group : 1, groups = s->ranks / g;
    int64_t n = s->intervals > 1 ? s->intervals : 1;
    if (g == 1) { /* the closed form's one stretch: every rank's detours over all of it */
        x *= (double)n;
        base = floor(x);
        n = 1;
    }
    for (int rep = 0; rep < reps; rep++) {
        double worst = 0;
        for (int64_t q = 0; q < groups; q++) {
            double lost = 0;
            for (int64_t i = 0; i < n; i++) {
                unsigned most = 0;
                for (int64_t k = 0; k < (z->cosched ? 1 : g); k++) { /* co-scheduled: one draw */
                    unsigned c = z->periodic ? (unsigned)base + (gsl_rng_uniform(r) < x - base)
                                             : gsl_ran_poisson(r, x);
                    most = c > most ? c : most;
                }
                lost += most;
            }
            worst = fmax(worst, lost);
            if (z->cosched) /* every group met the same detours */
                break;
        }
        sum += worst;
    }
    gsl_rng_free(r);
    return z->detour_s * sum / reps;
}

/* The preset noise profiles. Every published run Strata is validated on ran on bare metal or
 * on-premises (docs/guide/validation.md), so the step model already carries that noise: bare
 * metal's profile is none.
 *
 * cloud-vm: what a hypervisor adds, from the raw data De Sensi et al. published with "Noise in
 * the Clouds: Influence of Network Performance Variability on Application Scalability" (POMACS
 * 6(3), 2022; github.com/DanieleDeSensi/cloud_noise_data, compute/): 39 timed 8192^3 GEMMs on
 * 36 cores of an AWS c5.18xlarge (Nitro VM) and of a c5n.metal (bare metal). Over its fastest,
 * the VM's mean is 1.183% longer and the metal's 1.004%: the VM's ranks lose 0.179% more of
 * their time. The iterations' coefficients of variation are 0.668% and 0.485%; the difference of
 * their variances at the VM's 0.552 s iteration, 6.4e-6 s^2, is Poisson detours' lambda d^2 tau,
 * and their mean share lambda d = 0.00179: detours of d = 6.5 ms once every 3.6 s. 39 runs each
 * leave this uncertain by about a factor of two (docs/models/stragglers.md, "System noise"). */
static const st_noise_profile profiles[] = {
    {"none", 0, 0, 0, "no noise beyond what the validated bare-metal runs had"},
    {"cloud-vm", 3.6, 6.5e-3, 0,
     "De Sensi et al., POMACS 2022 raw data: AWS c5.18xlarge VM against c5n.metal GEMM times"},
};
#define N_PROFILES (sizeof profiles / sizeof profiles[0])

const st_noise_profile *st_noise_profile_find(const char *name)
{
    for (size_t i = 0; name && i < N_PROFILES; i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

void st_noise_profile_names(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < N_PROFILES && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "", profiles[i].name);
}

const st_noise_profile *st_noise_profile_of_delivery(st_delivery d)
{
    return st_noise_profile_find(d == ST_DELIVERY_CLOUD ? "cloud-vm" : "none");
}

void st_noise_profile_apply(const st_noise_profile *p, st_variability_cfg *v)
{
    v->noise_every_s = p->every_s;
    v->noise_detour_s = p->detour_s;
    v->noise_periodic = p->periodic;
    v->noise_cosched = 0;
    v->noise_profile = p->name;
}
