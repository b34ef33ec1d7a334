/* How much of its time a job with failures.spares is held down for want of a spare node, in
 * closed form: what the sizing search's time to train reads of the spares, where the life model
 * (models/reliability/spares.h) replays every failure and repair. docs/models/
 * storage-and-failures.md, "Spare nodes". */
#ifndef ST_MODELS_RELIABILITY_SPARE_WAIT_H
#define ST_MODELS_RELIABILITY_SPARE_WAIT_H

#include <stddef.h>
#include <stdint.h>

/* One failure class of a job, as the spares see it. */
typedef struct st_spare_class {
    double rate_per_s; /* its failures a second over the job's components (count / mtbf) */
    int64_t take;      /* the nodes each takes out (0: none, a switch) */
    double repair_s;   /* how long each of them is out, >= 0 */
} st_spare_class;

/* The mean nodes out for repair, A = sum(rate take repair) (Little's law). */
double st_spares_out_mean(const st_spare_class *c, size_t n);

/* The share of the time more of the job's nodes are out than the `spares` it keeps, when it
 * cannot run: P(Poisson(A) > spares). The nodes out are an M/G/inf queue, Poisson with mean A
 * whatever the repairs' law (exact when every class takes one node; a rack's several nodes at
 * once are taken at the same mean). 0 with no node-taking class. */
double st_spares_blocked(const st_spare_class *c, size_t n, int64_t spares);

/* The share of the time held for a spare at or below which a spare count is reported as enough
 * (the sizing search's spares_needed, the life run's refusal): a threshold for reports, not a
 * model constant. */
#define ST_SPARES_ENOUGH 0.01

/* The fewest spares that hold the job down at most `share` of the time (0 < share < 1):
 * the least N with P(Poisson(A) > N) <= share. 0 with no node-taking class. */
int64_t st_spares_needed(const st_spare_class *c, size_t n, double share);

#endif
