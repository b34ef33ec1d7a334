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

/* Which rule set the interval `every: auto` takes (st_ckpt_auto_interval). */
typedef enum st_auto_rule {
    ST_AUTO_DALY,   /* Daly's optimum, to the nearest whole step */
    ST_AUTO_COMMIT, /* the commit time, rounded up to whole steps: one save in flight at a time */
    ST_AUTO_STEP    /* one step: Daly's optimum is shorter, and saves are taken between steps */
} st_auto_rule;

/* The interval `every: auto` takes: Daly's optimum daly_s, rounded to the nearest whole number
 * of steps of step_s, but never fewer steps than it takes a save to commit (commit_s rounded
 * up: only one save is in flight at a time, so a shorter interval only makes training wait for
 * the previous one: torchtitan waits for the previous dcp.async_save, Megatron-LM warns to
 * increase the interval) and never less than one step (saves are taken at step boundaries, as
 * CheckFreq's iteration-granular checkpoints). daly_s, commit_s >= 0, step_s > 0, all finite,
 * else ST_BUG. Writes the binding rule into *rule when not NULL (commit before step when both
 * bind). Seconds, a whole multiple of step_s. */
double st_ckpt_auto_interval(double daly_s, double commit_s, double step_s, st_auto_rule *rule);

#endif
