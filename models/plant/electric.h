/* A rack's electrical feed: line current, breaker headroom under the continuous-load rule, and
 * the I²R losses of its distribution. docs/models/plant.md has the equations and sources. */
#ifndef ST_MODELS_PLANT_ELECTRIC_H
#define ST_MODELS_PLANT_ELECTRIC_H

/* The share of a breaker's rating a continuous load may draw: NFPA 70 (National Electrical Code)
 * 210.19(A)(1), 210.20(A), 215.2(A)(1) and 215.3 size conductors and overcurrent devices at 125%
 * of the continuous load (one running three hours or more, Article 100), so a standard breaker
 * carries at most 1 / 1.25 = 80% of its rating continuously. A training job's draw is continuous.
 */
#define ST_PLANT_CONTINUOUS_SHARE 0.8

/* The line current, A, of real power p_w drawn at line-to-line voltage v on a balanced feed of
 * `phases` (3: I = P / (sqrt(3) V PF); 1: I = P / (V PF)) at power factor pf (> 0). */
double st_plant_line_current(double p_w, double v, int phases, double pf);

/* The I²R loss, W, of line current i_a in a distribution of resistance r_ohm per conductor: three
 * current-carrying conductors on a balanced three-phase feed (3 I² R; its neutral carries none),
 * two on a single-phase one (2 I² R: line and return). */
double st_plant_line_loss(double i_a, int phases, double r_ohm);

/* The loss, W, of real power p_w through that distribution: st_plant_line_loss of its current.
 * It falls as the square of the voltage: the same rack on 415 V loses (208/415)² = 25% of what
 * it loses on 208 V. */
double st_plant_feed_loss(double p_w, double v, int phases, double pf, double r_ohm);

/* How much more current, A, a breaker of rating breaker_a may carry continuously on top of i_a:
 * ST_PLANT_CONTINUOUS_SHARE * breaker_a - i_a (negative when over). */
double st_plant_breaker_headroom(double i_a, double breaker_a);

#endif
