/* Dimensioned values: parse "400 Gbit/s" into SI base units and print them back.
 * Internally everything is SI in double: seconds, bytes, bytes/s, FLOP/s, watts, W/s, volts,
 * amperes, ohms, degrees Celsius, US dollars (per second / per joule / per byte for rates). */
#ifndef ST_SIM_UNITS_H
#define ST_SIM_UNITS_H

#include <stddef.h>

typedef enum st_dim {
    ST_DIM_RATIO,        /* bare number or percentage: "2", "0.95", "60%" (= 0.6) */
    ST_DIM_COUNT,        /* bare number with an optional K/M/B/T suffix: "15T" = 1.5e13 */
    ST_DIM_TIME,         /* ns us ms s min h d y (y = 365 d) -> seconds */
    ST_DIM_BYTES,        /* B, kB MB GB TB PB (10^3 steps), KiB MiB GiB TiB PiB (2^10 steps) */
    ST_DIM_BANDWIDTH,    /* bit/s kbit/s Mbit/s Gbit/s Tbit/s, B/s kB/s MB/s GB/s TB/s -> bytes/s */
    ST_DIM_FLOPS,        /* FLOP/s GFLOP/s TFLOP/s PFLOP/s EFLOP/s -> FLOP/s */
    ST_DIM_POWER,        /* W kW MW GW -> watts */
    ST_DIM_RAMP,         /* W/s kW/s MW/s GW/s -> watts per second */
    ST_DIM_VOLTAGE,      /* V kV */
    ST_DIM_CURRENT,      /* A kA */
    ST_DIM_RESISTANCE,   /* ohm mohm uohm */
    ST_DIM_TEMPERATURE,  /* C -> degrees Celsius */
    ST_DIM_MONEY,        /* USD */
    ST_DIM_PRICE_ENERGY, /* USD/kWh USD/MWh -> USD per joule */
    ST_DIM_PRICE_TIME,   /* USD/h USD/s -> USD per second */
    ST_DIM_PRICE_BYTES,  /* USD/GB USD/TB -> USD per byte */
    ST_DIM__COUNT
} st_dim;

/* Human name of a dimension for messages: "time", "bandwidth", ... */
const char *st_dim_name(st_dim d);

/* A few example spellings of d for messages: "e.g. '400 Gbit/s' or '900 GB/s'". */
const char *st_dim_example(st_dim d);

/* Parse text (a number, optional spaces, a unit) as dimension `want` into *out (SI).
 * Returns 0, or ST_EUNIT with a message in why[0..whylen) that names what was expected and
 * what was found ("expected a bandwidth such as '400 Gbit/s', found a power '400 W'";
 * "missing unit: expected a time such as '30 s'"; "unknown unit 'Gb/s' for a bandwidth").
 * Numbers are decimal or exponent form; NaN, infinities and hex are refused. A negative number
 * parses (range checks belong to the caller). The whole text must be consumed. */
int st_unit_parse(const char *text, st_dim want, double *out, char *why, size_t whylen);

/* Which dimension, if any, the unit of text belongs to; ST_DIM__COUNT when it has none that
 * the parser knows. A bare number reports ST_DIM_RATIO. */
st_dim st_unit_sniff(const char *text);

/* Print v (SI) of dimension d with 4 significant digits and the unit that keeps the mantissa in
 * [1, 1000): "400 Gbit/s" for bandwidth is printed in bytes as "50 GB/s"; bytes use SI prefixes.
 * st_unit_parse(st_unit_format(v)) == v to 4 significant digits. Returns the snprintf length. */
int st_unit_format(double v, st_dim d, char *buf, size_t n);

#endif
