/* The representable ranges of models/config/limits.h as records, with the words the loader's
 * messages give for each bound. */
#include "models/config/limits.h"

const st_limit st_lim_span = {0, ST_LIM_SPAN_S, "the longest duration the life model represents",
                              "2^61 ns"};
const st_limit st_lim_latency = {0, ST_LIM_LATENCY_S,
                                 "the longest latency the fabric model represents",
                                 "a chain over 10^9 GPUs of 20-term routes must fit in 2^61 ns"};
const st_limit st_lim_rate = {ST_LIM_MIN_RATE, 0, "the slowest rate the models represent",
                              "1 PB must move within 2^61 ns"};
const st_limit st_lim_bytes = {0, ST_LIM_BYTES, "the largest size the models represent",
                               "at the slowest rate it must move within 2^61 ns"};
const st_limit st_lim_shape = {ST_LIM_MIN_WEIBULL_SHAPE, 0,
                               "the smallest Weibull shape the life model represents",
                               "below 0.00586 Gamma(1 + 1/shape) overflows"};
/* A UPS rating below 1 W carries no IT load (its load fraction, IT power over rating, would run
 * to 10^30 and its square-law loss past a double): refused rather than reported as NaN. */
const st_limit st_lim_ups = {1, 0, "the smallest UPS rating the models take",
                             "a UPS must carry the IT load it protects"};
