/* Random-number streams on GSL's taus2 generator, with the full generator state derived from a
 * 64-bit mix of (master seed, kind, id, purpose). */
#include "sim/rng.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "sim/xalloc.h"

/* Why taus2 (L'Ecuyer's maximally equidistributed combined Tausworthe, period 2^88): it passes
 * the usual statistical batteries, is among GSL's fastest generators, and its state is 24 bytes.
 * A simulator holds one stream per GPU, node and link, so mt19937's 2.5 KB per stream would cost
 * hundreds of megabytes for a 100k-GPU cluster without buying anything for our draw counts. */
struct st_rng {
    gsl_rng *g;
};

/* GSL's private taus2 state. gsl_rng_set() only takes 32 bits of seed, so among 100k streams two
 * would share a seed with probability ~70% (birthday bound on 2^32). Writing the 96-bit state
 * directly from the 64-bit mix keeps the streams distinct; the layout is checked at run time. */
typedef struct taus_state {
    unsigned long s1, s2, s3;
} taus_state;

/* splitmix64's output function (Steele, Lea, Flood 2014): a bijection on 64 bits with full
 * avalanche, so nearby inputs (rack 7, rack 8) give unrelated outputs. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    uint64_t x = h ^ v;
    return splitmix64(&x);
}

uint32_t st_rng_tag(const char *name)
{
    uint32_t h = UINT32_C(2166136261);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * UINT32_C(16777619);
    return h;
}

uint64_t st_rng_stream_seed(uint64_t master, uint32_t kind, uint64_t id, uint32_t purpose)
{
    /* Chaining keeps the fields apart: (kind 1, id 2) and (kind 2, id 1) differ, which a plain
     * XOR or sum of the fields would not. */
    uint64_t h = mix(0, master);
    h = mix(h, kind);
    h = mix(h, id);
    return mix(h, purpose);
}

/* Each taus component needs some bits above its mask: s1 > 1, s2 > 7, s3 > 15 (as in GSL). */
static unsigned long component(uint64_t *x, unsigned long floor)
{
    unsigned long s = (unsigned long)(splitmix64(x) >> 32);
    return s < floor ? s + floor : s;
}

st_rng *st_rng_new(uint64_t master, uint32_t kind, uint64_t id, uint32_t purpose)
{
    st_rng *r = st_xmalloc(sizeof *r);
    r->g = gsl_rng_alloc(gsl_rng_taus2);
    if (!r->g)
        ST_BUG("gsl_rng_alloc failed");
    if (gsl_rng_size(r->g) != sizeof(taus_state))
        ST_BUG("unexpected GSL taus2 state size %zu", gsl_rng_size(r->g));
    uint64_t x = st_rng_stream_seed(master, kind, id, purpose);
    taus_state *s = gsl_rng_state(r->g);
    s->s1 = component(&x, 2);
    s->s2 = component(&x, 8);
    s->s3 = component(&x, 16);
    /* GSL warms taus2 up with six draws after seeding; do the same. */
    for (int i = 0; i < 6; i++)
        gsl_rng_get(r->g);
    return r;
}

void st_rng_free(st_rng *r)
{
    if (!r)
        return;
    gsl_rng_free(r->g);
    free(r);
}

double st_rng_uniform(st_rng *r)
{
    return gsl_rng_uniform(r->g);
}

double st_rng_uniform_pos(st_rng *r)
{
    return gsl_rng_uniform_pos(r->g);
}

uint32_t st_rng_uniform_int(st_rng *r, uint32_t n)
{
    if (n == 0)
        ST_BUG("uniform integer in an empty range");
    return (uint32_t)gsl_rng_uniform_int(r->g, n);
}

double st_rng_exponential(st_rng *r, double mean)
{
    return gsl_ran_exponential(r->g, mean);
}

double st_rng_weibull(st_rng *r, double scale, double shape)
{
    return gsl_ran_weibull(r->g, scale, shape);
}

double st_rng_normal(st_rng *r, double mean, double sd)
{
    /* The ziggurat is GSL's fastest exact normal sampler. */
    return mean + gsl_ran_gaussian_ziggurat(r->g, sd);
}

double st_rng_lognormal(st_rng *r, double mu, double sigma)
{
    return gsl_ran_lognormal(r->g, mu, sigma);
}
