/* The rack feed's currents and losses: the power-engineering identities for a balanced AC feed
 * (P = sqrt(3) V_LL I PF on three phases, P = V I PF on one) and Joule's law per conductor. */
#include "models/plant/electric.h"

#include <math.h>

double st_plant_line_current(double p_w, double v, int phases, double pf)
{
    double va = p_w / pf; /* apparent power */
    return phases == 3 ? va / (sqrt(3.0) * v) : va / v;
}

double st_plant_line_loss(double i_a, int phases, double r_ohm)
{
    return (phases == 3 ? 3.0 : 2.0) * i_a * i_a * r_ohm;
}

double st_plant_feed_loss(double p_w, double v, int phases, double pf, double r_ohm)
{
    return st_plant_line_loss(st_plant_line_current(p_w, v, phases, pf), phases, r_ohm);
}

double st_plant_breaker_headroom(double i_a, double breaker_a)
{
    return ST_PLANT_CONTINUOUS_SHARE * breaker_a - i_a;
}
