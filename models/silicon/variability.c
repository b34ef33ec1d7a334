/* The slowest of a job's GPUs (models/silicon/variability.h). GPUs of one SKU differ in speed
 * through manufacturing and power management: Sinha et al., "Not All GPUs Are Created Equal:
 * Characterizing Variability in Large-Scale, Accelerator-Rich Systems" (SC'22, arXiv
 * 2208.11035), measured an 8% average (22% at most) performance variation between same-SKU GPUs
 * on five clusters, with outliers 1.5x slower than the median. A synchronous step (every layer's
 * TP collective, every pipeline send, the step's gradient reduction) waits for its slowest GPU,
 * so the job runs at the pace of the slowest of its n GPUs, whose expected slowdown over the
 * mean is cv times the expected largest of n standard normals. docs/models/stragglers.md. */
#include "models/silicon/variability.h"

#include <gsl/gsl_cdf.h>

/* Blom's plotting position for the largest of n, alpha = 3/8: E[X(n:n)] ~ Phi^-1((n - a) /
 * (n - 2a + 1)) (G. Blom, "Statistical Estimates and Transformed Beta-Variables", Wiley 1958;
 * against Harter's exact table, H. L. Harter, "Expected Values of Normal Order Statistics",
 * Biometrika 48 (1961): 1.5388 at n = 10, 2.5076 at 100, 3.2414 at 1000, within 0.5%, tested). */
#define BLOM_ALPHA 0.375

double st_expected_max_normal(int64_t n)
{
    if (n <= 1)
        return 0;
    double x = (double)n;
    return gsl_cdf_ugaussian_Pinv((x - BLOM_ALPHA) / (x - 2 * BLOM_ALPHA + 1));
}

int st_slow_nodes_of(const st_variability_cfg *v, int64_t nodes, double *every_s, double *cost_s)
{
    if (!(v->slow_every_s > 0) || nodes < 1)
        return 0;
    *every_s = v->slow_every_s / (double)nodes;
    *cost_s = v->slow_detect_s * v->slow_slowdown / (1 + v->slow_slowdown);
    return 1;
}

double st_straggler_factor(double cv, int64_t n)
{
    if (!(cv > 0) || n <= 1)
        return 1;
    return 1 + cv * st_expected_max_normal(n);
}
