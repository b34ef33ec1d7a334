/* The checkpoint interval in closed form: Young's first-order optimum, Daly's higher-order one,
 * and Daly's expected wall-clock time of a job that checkpoints every tau under exponential
 * failures. The Monte Carlo of models/reliability/lifetime.h is checked against the last one.
 * docs/models/storage-and-failures.md has the derivations and sources. */
#ifndef ST_MODELS_RELIABILITY_INTERVAL_H
#define ST_MODELS_RELIABILITY_INTERVAL_H

/* Young's optimum compute time between checkpoints, sqrt(2 * ckpt_s * mtbf_s) (J. W. Young, "A
 * first order approximation to the optimum checkpoint interval", CACM 17(9), 1974). ckpt_s is
 * the time one checkpoint takes (>= 0), mtbf_s the job's mean time between failures (> 0); both
 * finite, else ST_BUG (callers validate user input first). Seconds. */
double st_young_interval(double ckpt_s, double mtbf_s);

/* Daly's higher-order optimum compute time between checkpoints (J. T. Daly, "A higher order
 * estimate of the optimum checkpoint interval for restart dumps", FGCS 22(3), 2006,
 * doi 10.1016/j.future.2004.11.016):
 *     sqrt(2 d M) [1 + (1/3) sqrt(d / 2M) + (1/9) (d / 2M)] - d   when d < 2M,
 *     M                                                           otherwise,
 * with d = ckpt_s and M = mtbf_s. Same domain and ST_BUG rule as st_young_interval. The restart
 * time does not enter the optimum. Below Young's interval for every d > 0: by between 5d/9 and
 * 2d/3 when d < 2M (docs/models/storage-and-failures.md). Seconds. */
double st_daly_interval(double ckpt_s, double mtbf_s);

/* Daly's expected wall-clock time to finish solve_s of work that checkpoints after every tau_s
 * of it (each checkpoint taking ckpt_s), when failures come as a Poisson process of mean gap
 * mtbf_s in wall-clock time, strike during compute, checkpoint and restart alike, and each costs
 * restart_s before work resumes from the last checkpoint (Daly 2006, expected wall time for the
 * exponential failure model):
 *     M e^(R/M) (e^((tau + d)/M) - 1) solve_s / tau.
 * Exact when solve_s / tau is an integer (one checkpoint at the end of every tau, the last one
 * included); otherwise the continuous approximation Daly uses. solve_s, ckpt_s, restart_s >= 0,
 * tau_s > 0, mtbf_s > 0, all finite, else ST_BUG. Returns +inf when the terms overflow (a job
 * that practically never finishes). Seconds. */
double st_daly_expected_wall(double solve_s, double tau_s, double ckpt_s, double restart_s,
                             double mtbf_s);

#endif
