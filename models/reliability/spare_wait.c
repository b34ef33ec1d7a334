/* The share of the time a job waits for spare nodes, in closed form (spare_wait.h). */
#include "models/reliability/spare_wait.h"

#include <gsl/gsl_cdf.h>

double st_spares_out_mean(const st_spare_class *c, size_t n)
{
    double a = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].rate_per_s > 0 && c[i].take > 0 && c[i].repair_s > 0)
            a += c[i].rate_per_s * (double)c[i].take * c[i].repair_s;
    return a;
}

double st_spares_blocked(const st_spare_class *c, size_t n, int64_t spares)
{
    double a = st_spares_out_mean(c, n);
    if (!(a > 0) || spares < 0)
        return 0;
    /* gsl_cdf_poisson_Q(k, mu) = P(X > k): for k up to 2^32 - 1, far above any spare count */
    return spares >= (int64_t)UINT32_MAX ? 0 : gsl_cdf_poisson_Q((unsigned)spares, a);
}

int64_t st_spares_needed(const st_spare_class *c, size_t n, double share)
{
    double a = st_spares_out_mean(c, n);
    if (!(a > 0))
        return 0;
    /* a walk up from the mean, one GSL call a step: the tail falls below a share of a percent
     * a few standard deviations (sqrt A) past it */
    int64_t k = (int64_t)a;
    while (k < UINT32_MAX && gsl_cdf_poisson_Q((unsigned)k, a) > share)
        k++;
    return k;
}
