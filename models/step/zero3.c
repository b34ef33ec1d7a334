/* ZeRO-3's gathers and reduce-scatters on a communication stream beside the compute stream,
 * unit by unit: a two-machine flow shop, walked in execution order. */
#include "models/step/zero3.h"

#include <math.h>

/* While both run, compute advances at 1 / (1 + s) of its rate, so it loses busy * s / (1 + s)
 * if the collective ends first, and runs at the slow rate throughout, c (1 + s), if it does
 * not. */
double st_z3_slowed(double c, double busy, double s)
{
    if (busy <= 0 || s <= 0)
        return c;
    return fmin(c * (1.0 + s), c + busy * s / (1.0 + s));
}

double st_z3_pass(const st_z3_unit *u, int64_t n, st_z3_issue issue, double slowdown)
{
    if (n <= 0)
        return 0;
    double comp = 0;             /* the compute stream is free from here */
    double comm = u[0].gather_s; /* the communication stream is free from here */
    double ready = comm;         /* the current unit's weights are gathered */
    for (int64_t k = 0; k < n; k++) {
        double start = fmax(comp, ready);
        double next_ready = 0;
        if (issue == ST_Z3_PREFETCH && k + 1 < n) {
            comm = fmax(comm, start) + u[k + 1].gather_s;
            next_ready = comm;
        }
        comp = start + st_z3_slowed(u[k].compute_s, comm - start, slowdown);
        if (u[k].reduce_s > 0)
            comm = fmax(comm, comp) + u[k].reduce_s;
        if (issue == ST_Z3_ON_DEMAND && k + 1 < n) {
            comm = fmax(comm, comp) + u[k + 1].gather_s;
            next_ready = comm;
        }
        ready = next_ready;
    }
    return fmax(comp, comm);
}
