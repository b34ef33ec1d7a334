/* The ranges the models can represent, stated once: the loader refuses a value outside them
 * with its file:line:col (so `check` and `run` agree), and the models hold to the same figures.
 * Each bound is derived from a model's integer clock, not from hardware: real values sit many
 * orders of magnitude inside them. docs/guide/scenario-reference.md lists where each applies. */
#ifndef ST_MODELS_CONFIG_LIMITS_H
#define ST_MODELS_CONFIG_LIMITS_H

#include <stddef.h>

#include "sim/units.h"

/* A bound on one value: min and max in SI units (0 = none), what the bound is ("the longest
 * duration the life model represents") and how it follows ("2^61 ns"), for messages. A min
 * applies to positive values only, so a rate of 0 that means "none" keeps its meaning. */
typedef struct st_limit {
    double min, max;
    const char *what, *how;
} st_limit;

/* The engine's clock is int64 nanoseconds (sim/evq.h: 2^63 ns, about 292 years). The life model
 * (models/reliability/life_spec.c) caps every duration at 2^61 ns and its clock at 2^62 ns, so
 * the clock plus any one duration stays below 2^63: 2^61 ns = 2305843009.213693952 s, 73.12
 * years of 365 days. */
#define ST_LIM_SPAN_S 2305843009.213693952

/* The most GPUs one plan may use (models/silicon/plan_check.h, ST_PLAN_MAX_GPUS) and the most
 * latency terms on one route: ST_TOPO_MAX_HOPS (models/fabric/topo.h) links plus the switches
 * between them, rounded up to 20 (scenarios/load_cluster.c asserts it). */
#define ST_LIM_RANKS       1e9
#define ST_LIM_ROUTE_TERMS 20

/* The longest link, switch or storage latency: a collective that chains one transfer over
 * every member of a ring (models/fabric/coll_cost.c, a chain's latency is the sum over its
 * members) of the largest plan, each over the longest route, must fit the life model's span.
 * 2^61 ns / (10^9 x 20) = 0.1153 s. */
#define ST_LIM_LATENCY_S (ST_LIM_SPAN_S / (ST_LIM_RANKS * ST_LIM_ROUTE_TERMS))

/* The largest byte count one GPU's figure may state (HBM, host memory, a collective's buffer,
 * memory held back): 1 PB, thousands of times the HBM of any GPU built (a few hundred GB), so
 * a transfer of it at the slowest rate below still fits the span. */
#define ST_LIM_BYTES 1e15

/* The slowest link, storage or memory rate: the largest transfer (ST_LIM_BYTES) in the span,
 * 10^15 B / 2^61 ns = 433.7 kB/s (3.47 Mbit/s; the slowest Ethernet, 10BASE-T, is 10 Mbit/s). */
#define ST_LIM_MIN_RATE (ST_LIM_BYTES / ST_LIM_SPAN_S)

/* The smallest Weibull shape k: the life model's scale is mtbf / Gamma(1 + 1/k), and Gamma
 * overflows a double above 171.62 (DBL_MAX = Gamma(171.62)), that is for k < 1 / 170.62 =
 * 0.00586; 0.006 is the round bound above it. */
#define ST_LIM_MIN_WEIBULL_SHAPE 0.006

/* Every figure read, in its SI unit, is 0 or of a magnitude between these: a value past them is
 * a typo or a probe, not a plant. Real inputs sit far inside (a byte's price per month about
 * 2e-11 USD, a 16K-GPU cluster's FLOP/s about 1e19), while a denormal such as 1e-320 s divided
 * into a count, or 1e308 ohm times a current squared, overflows the models' arithmetic to inf
 * and NaN (a fuzzing find: an MTBF of 1e-320 s aborted the life model). */
#define ST_LIM_TINY 1e-30
#define ST_LIM_HUGE 1e30

/* Absolute zero, C: no temperature is below it (temperatures are read in C). */
#define ST_LIM_ABS_ZERO_C (-273.15)

/* The most failures a run simulates one by one, in the cluster run (models/sched/outage.h,
 * ST_OUTAGE_MAX_FAILURES) and a job's life (models/reliability/lifetime.c): a million
 * interruptions of one job take under a second of CPU, while 100,000 GPUs of a 50,000 h MTBF
 * fail 1,440 times in 30 days. A rate expected to pass it is a unit slip or a job that never
 * finishes between failures, refused before the run. */
#define ST_LIM_FAILURES 1000000

/* The most interruptions one life simulates before it says the job never finishes: twice what
 * the closed form before the run lets a finishing job expect (ST_LIM_FAILURES), so a life past it
 * is one the closed form misjudged (spares free only in windows too short for a checkpoint
 * interval, a fuzzing find that simulated 42 million interruptions, 146 years, for 30 s of CPU)
 * and stops in about 1.5 s, not at the clock's end. */
#define ST_LIM_LIFE_INTERRUPTIONS (2 * ST_LIM_FAILURES)

/* The most GPUs one job of a trace asks for: the largest plan's (ST_LIM_RANKS). */
#define ST_LIM_JOB_GPUS ST_LIM_RANKS

/* The largest whole number a double holds exactly, 2^53: a count read as a double (a trace's
 * iterations, a seed) is exact below it. */
#define ST_LIM_WHOLE 9007199254740992.0

/* The same bounds as st_limit records, for the loader's field tables (models/config/config.c),
 * the trace reader (scenarios/trace.c) and the command line's options. */
extern const st_limit st_lim_span;     /* a duration the life model holds: at most 2^61 ns */
extern const st_limit st_lim_run;      /* a time of the cluster run: a trace's submit and run time,
                                          the horizon: at most 2^61 ns */
extern const st_limit st_lim_job_gpus; /* the GPUs one trace job asks for: at most 10^9 */
extern const st_limit st_lim_whole;    /* a count held in a double: at most 2^53 */
extern const st_limit st_lim_latency;  /* a fabric or storage latency */
extern const st_limit st_lim_rate;     /* a link, storage or memory rate */
extern const st_limit st_lim_bytes;    /* a byte count one GPU's figure states */
extern const st_limit st_lim_shape;    /* a Weibull shape */
extern const st_limit st_lim_ups;      /* a UPS rating: at least 1 W */
extern const st_limit st_lim_speed_cv; /* a per-GPU speed spread (cluster.variability) */
extern const st_limit st_lim_moe_imbalance;  /* an MoE routing imbalance: at least 1 */
extern const st_limit st_lim_moe_capacity;   /* an MoE capacity factor: at most 256 */
extern const st_limit st_lim_calib;          /* a calibration's factor on the model's figure */
extern const st_limit st_lim_calib_ratio;    /* a calibration's residual, measured / predicted */
extern const st_limit st_lim_calib_overhead; /* a calibration's step overhead */

/* Range rules for numbers, whatever the model's limit: the sign, and for ST_R_MIN1 at least 1.
 * Messages say them in words ("must be greater than zero"). */
/* ST_R_UNIT: a share that divides (a power factor, an efficiency), above 0 and at most 1. */
typedef enum st_range { ST_R_ANY, ST_R_POS, ST_R_NONNEG, ST_R_FRAC, ST_R_MIN1, ST_R_UNIT } st_range;

/* How one value is read, whatever its source (a YAML value, a `--set`, a trace field, a
 * command-line option): its dimension, its range rule, whether it must be a whole number, the
 * model's limit (NULL: none) and st_unit_parse_n's flags (ST_UNIT_HUGE is added, so a value
 * too large for a double is reported past a bound: the model's, else the largest figure read). */
typedef struct st_value_rule {
    st_dim dim;
    st_range range;
    int whole;
    const st_limit *lim;
    unsigned unit_flags;
    double scale; /* with ST_UNIT_PLAIN, the SI value of 1 (a trace's milliseconds: 1e-3); 0: 1 */
} st_value_rule;

/* Parse text[0..len) under rule r into *out (SI). Returns 0, or an ST_E* code with one of these
 * messages in why[0..whylen) (key names the value: "detect", "--deadline", a trace's column):
 *   ST_EUNIT   "<key>: <st_unit_parse's message>"
 *   ST_EINVAL  "<key>: expected a whole number, found '<text>'"
 *   ST_ERANGE  "<key> must be greater than zero, found '<text>'" (the range rule in words)
 *   ST_ELIMIT  "<key>: <text> is beyond <what> (at most <max>: <how>)", also for a value too
 *              large for a double ("1e308 y"), or "<key>: <text> is below <what> (at least
 *              <min>: <how>)" for a positive value under lim->min;
 * the bound printed in the value's dimension (st_unit_format). *out is left alone on an error. */
int st_limit_parse(const char *key, const char *text, size_t len, const st_value_rule *r,
                   double *out, char *why, size_t whylen);

/* The range rule in words: "must be greater than zero", "must not be negative", "must be between
 * 0 and 1 (0% and 100%)", "must be at least 1"; "" for ST_R_ANY. */
const char *st_range_words(st_range r);

/* Whether v keeps the range rule. */
int st_range_holds(double v, st_range r);

/* v against lim alone (NULL: none): 0, or ST_ELIMIT with the "is beyond" / "is below" message
 * above, text being how the value was written. */
int st_limit_check(const char *key, const char *text, size_t len, st_dim dim, const st_limit *lim,
                   double v, char *why, size_t whylen);

#endif
