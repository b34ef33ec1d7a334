/* Random-number streams: one independent GSL stream per (component kind, id, purpose), seeded
 * from the scenario's master seed by a fixed 64-bit mix, so adding a component leaves every other
 * component's draws unchanged (ROSS's per-entity streams). */
#ifndef ST_SIM_RNG_H
#define ST_SIM_RNG_H

#include <stdint.h>

typedef struct st_rng st_rng;

/* A stable 32-bit number for a kind or purpose name ("gpu", "failure"), so models can name
 * streams without a central enum: FNV-1a of the bytes. Fixed forever, like the seed mix. */
uint32_t st_rng_tag(const char *name);

/* The 64-bit seed of stream (kind, id, purpose) under master: splitmix64's finaliser chained over
 * the four numbers. Fixed forever: changing it changes every report. Exposed for tests and for
 * recording in reports. */
uint64_t st_rng_stream_seed(uint64_t master, uint32_t kind, uint64_t id, uint32_t purpose);

/* A new stream for (kind, id, purpose) under master. The same four numbers always give the same
 * sequence of draws; any difference gives an unrelated one. Never returns NULL. */
st_rng *st_rng_new(uint64_t master, uint32_t kind, uint64_t id, uint32_t purpose);

/* Free r. st_rng_free(NULL) is a no-op. */
void st_rng_free(st_rng *r);

/* Uniform on [0, 1). */
double st_rng_uniform(st_rng *r);

/* Uniform on (0, 1): never 0, for logarithms. */
double st_rng_uniform_pos(st_rng *r);

/* Uniform integer in [0, n), without modulo bias; n == 0 is an ST_BUG. */
uint32_t st_rng_uniform_int(st_rng *r, uint32_t n);

/* Exponential with the given mean (> 0), e.g. time between failures. */
double st_rng_exponential(st_rng *r, double mean);

/* Weibull with scale lambda (> 0) and shape k (> 0): P(X > x) = exp(-(x/lambda)^k). Shape < 1
 * models infant mortality, > 1 wear-out. */
double st_rng_weibull(st_rng *r, double scale, double shape);

/* Normal with mean and standard deviation sd (>= 0). */
double st_rng_normal(st_rng *r, double mean, double sd);

/* Log-normal: exp(N(mu, sigma)), e.g. repair times. */
double st_rng_lognormal(st_rng *r, double mu, double sigma);

#endif
