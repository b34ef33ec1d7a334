/* Young's and Daly's checkpoint intervals and Daly's expected wall-clock time: closed forms,
 * evaluated in a way that keeps their precision where the ratios are small. */
#include "models/reliability/interval.h"

#include <math.h>

#include "sim/xalloc.h"

static void check_domain(const char *fn, double ckpt_s, double mtbf_s)
{
    if (!(isfinite(ckpt_s) && ckpt_s >= 0))
        ST_BUG("%s: checkpoint time %g s is not finite and >= 0", fn, ckpt_s);
    if (!(isfinite(mtbf_s) && mtbf_s > 0))
        ST_BUG("%s: mtbf %g s is not finite and > 0", fn, mtbf_s);
}

double st_young_interval(double ckpt_s, double mtbf_s)
{
    check_domain("st_young_interval", ckpt_s, mtbf_s);
    /* Young 1974: the waste per unit of work is about d/tau + tau/(2M) to first order (a
     * checkpoint every tau, and half an interval of rework per failure); its minimum is at
     * tau = sqrt(2 d M). */
    return sqrt(2.0 * ckpt_s * mtbf_s);
}

double st_daly_interval(double ckpt_s, double mtbf_s)
{
    check_domain("st_daly_interval", ckpt_s, mtbf_s);
    /* Daly 2006: beyond d = 2M the series of the optimum no longer converges usefully, and the
     * paper takes tau = M. */
    if (ckpt_s >= 2.0 * mtbf_s)
        return mtbf_s;
    double x = ckpt_s / (2.0 * mtbf_s);
    return sqrt(2.0 * ckpt_s * mtbf_s) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - ckpt_s;
}

double st_daly_expected_wall(double solve_s, double tau_s, double ckpt_s, double restart_s,
                             double mtbf_s)
{
    check_domain("st_daly_expected_wall", ckpt_s, mtbf_s);
    if (!(isfinite(solve_s) && solve_s >= 0))
        ST_BUG("st_daly_expected_wall: solve time %g s is not finite and >= 0", solve_s);
    if (!(isfinite(tau_s) && tau_s > 0))
        ST_BUG("st_daly_expected_wall: interval %g s is not finite and > 0", tau_s);
    if (!(isfinite(restart_s) && restart_s >= 0))
        ST_BUG("st_daly_expected_wall: restart time %g s is not finite and >= 0", restart_s);
    /* Each of the solve/tau segments of tau + d seconds needs a failure-free run of that length;
     * with Poisson failures the expected time to get one, restarts included, is
     * M e^(R/M) (e^((tau + d)/M) - 1) (Daly 2006). expm1 keeps the small-ratio case (a
     * reliable machine, (tau + d) << M) accurate, where exp() - 1 would cancel. */
    double m = mtbf_s;
    return m * exp(restart_s / m) * expm1((tau_s + ckpt_s) / m) * (solve_s / tau_s);
}

double st_ckpt_auto_interval(double daly_s, double commit_s, double step_s, st_auto_rule *rule)
{
    if (!(isfinite(daly_s) && daly_s >= 0 && isfinite(commit_s) && commit_s >= 0 &&
          isfinite(step_s) && step_s > 0))
        ST_BUG("st_ckpt_auto_interval: daly %g s, commit %g s, step %g s", daly_s, commit_s,
               step_s);
    /* Whole steps, in doubles (a ratio may exceed any integer type). The commit floor forgives
     * a relative 1e-9 so that a commit of exactly k steps, after rounding, stays k steps. */
    double n_daly = fmax(1.0, round(daly_s / step_s));
    double n_commit = fmax(1.0, ceil(commit_s / step_s * (1 - 1e-9)));
    st_auto_rule r = n_commit > n_daly ? ST_AUTO_COMMIT
                     : daly_s < step_s ? ST_AUTO_STEP
                                       : ST_AUTO_DALY;
    if (rule)
        *rule = r;
    return fmax(n_daly, n_commit) * step_s;
}
