/* Dimensioned values: parse "400 Gbit/s" into SI base units and print them back.
 * Internally everything is SI in double: seconds, bytes, bytes/s, FLOP/s, watts, W/s, volts,
 * amperes, ohms, degrees Celsius, US dollars (per second / per joule / per byte for rates). */
#ifndef ST_SIM_UNITS_H
#define ST_SIM_UNITS_H

#include <stddef.h>

/* The accepted spellings of every dimension are listed in docs/guide/units.md. Unit text is
 * case-sensitive ("GB" is not "gb"); the parser suggests the right spelling when it is close. */
typedef enum st_dim {
    ST_DIM_RATIO,        /* bare number, percentage or N:M: "2", "0.95", "60%" (= 0.6), "2:1" */
    ST_DIM_COUNT,        /* bare number with an optional K/M/B/T suffix: "15T" = 1.5e13 */
    ST_DIM_TIME,         /* ns us ms s min h d y (y = 365 d) -> seconds */
    ST_DIM_BYTES,        /* B, kB MB GB TB PB EB (10^3 steps; KB = kB), KiB..EiB (2^10 steps) */
    ST_DIM_BANDWIDTH,    /* bit/s kbit/s Mbit/s Gbit/s Tbit/s, B/s kB/s MB/s GB/s TB/s -> bytes/s */
    ST_DIM_FLOPS,        /* FLOP/s GFLOP/s TFLOP/s PFLOP/s EFLOP/s -> FLOP/s */
    ST_DIM_POWER,        /* W kW MW GW -> watts */
    ST_DIM_RAMP,         /* W/s kW/s MW/s GW/s -> watts per second */
    ST_DIM_VOLTAGE,      /* V kV */
    ST_DIM_CURRENT,      /* mA A kA */
    ST_DIM_RESISTANCE,   /* uohm mohm ohm kohm */
    ST_DIM_TEMPERATURE,  /* C -> degrees Celsius */
    ST_DIM_MONEY,        /* USD */
    ST_DIM_PRICE_ENERGY, /* USD/kWh USD/MWh -> USD per joule */
    ST_DIM_PRICE_TIME,   /* USD/h USD/s -> USD per second */
    ST_DIM_PRICE_BYTES,  /* USD/GB USD/TB -> USD per byte */
    ST_DIM_ENERGY,       /* J kJ MJ GJ, Wh kWh MWh GWh -> joules */
    ST_DIM_PRICE_DEMAND, /* USD/W-month USD/kW-month USD/MW-month -> USD per watt per month */
    ST_DIM_PRICE_BANDWIDTH, /* USD/(B/s) USD/(GB/s) USD/(TB/s) -> USD per byte/s */
    ST_DIM_PRICE_POWER,     /* USD/W USD/kW USD/MW -> USD per watt (a plant's capacity) */
    ST_DIM__COUNT
} st_dim;

/* Human name of a dimension for messages: "time", "bandwidth", "size in bytes", ...
 * "unknown dimension" for a value outside the enum. */
const char *st_dim_name(st_dim d);

/* The name with its article, as the parser's messages use it: "a bandwidth", "an energy
 * price". "an unknown dimension" for a value outside the enum. */
const char *st_dim_noun(st_dim d);

/* One or two example spellings of d for messages, quoted, without "e.g.":
 * "'400 Gbit/s' or '900 GB/s'". Messages read "expected a bandwidth such as <example>". */
const char *st_dim_example(st_dim d);

/* Parse text (a number, optional spaces, a unit) as dimension `want` into *out (SI).
 * Leading and trailing white space is ignored; the rest must be consumed entirely.
 * Numbers: [+-] digits [. digits] [e|E [+-] digits] (".5" and "5." too). NaN, infinities, hex,
 * digit separators and decimal commas are refused; so is a value that overflows a double. A
 * negative number parses (range checks belong to the caller). ST_DIM_RATIO and ST_DIM_COUNT
 * accept a bare number; ST_DIM_RATIO also N:M ("2:1" = 2, "3:2" = 1.5; M a bare number > 0); every
 * other dimension requires its unit, even for 0. The scanner is our own, so the result does not
 * depend on setlocale(); it is correctly rounded for up to 19 significant digits within 1e-22..1e22
 * and within an ulp or so elsewhere.
 *
 * Returns 0 and sets *out, or returns ST_EUNIT, leaves *out alone and writes one of these
 * messages (lowercase, no full stop; <noun> is st_dim_noun, <ex> st_dim_example, <text> the
 * trimmed input) into why[0..whylen) when why is not NULL:
 *   empty value: expected <noun> such as <ex>
 *   expected a number, found '<text>'
 *   number out of range: '<text>'
 *   missing unit: expected <noun> such as <ex>
 *   wrong dimension: expected <noun> such as <ex>, found <noun of the unit's dimension> ('<text>')
 *   unexpected text '<rest>' after '<number and unit>'
 *   unknown unit '<unit>' for <noun>; did you mean '<u1>'?
 *   unknown unit '<unit>' for <noun>; did you mean '<u1>' or '<u2>'?
 *   unknown unit '<unit>': expected <noun> such as <ex>
 *   expected a ratio such as '2:1' (N:M with M a positive number), found '<text>'
 * Quoted input longer than 40 bytes is cut, on a character boundary, and ends in "...". */
int st_unit_parse(const char *text, st_dim want, double *out, char *why, size_t whylen);

/* st_unit_parse on text[0..len) (a field of a larger buffer; no NUL needed), with flags:
 *   ST_UNIT_PLAIN    a bare number only, taken in SI base units whatever want is (the caller
 *                    may scale it); a unit or a count suffix is refused with "expected a plain
 *                    number, found '<text>'" (a trace's numeric columns)
 *   ST_UNIT_BARE_SI  a bare number is taken in SI base units rather than refused for a missing
 *                    unit (a trace's times: seconds, or a number with its unit)
 *   ST_UNIT_HUGE     a value too large for a double is no error: *out is +HUGE_VAL or -HUGE_VAL
 *                    (its unit checked as for any value), so that a caller with a bound says
 *                    the value is past that bound (models/config/limits.h, st_limit_parse)
 * A number too small for a double ("1e-400 s") is "number out of range" whatever the flags. */
#define ST_UNIT_PLAIN   1u
#define ST_UNIT_BARE_SI 2u
#define ST_UNIT_HUGE    4u
int st_unit_parse_n(const char *text, size_t len, st_dim want, unsigned flags, double *out,
                    char *why, size_t whylen);

/* Which dimension, if any, the unit of text belongs to; ST_DIM__COUNT when it has none that
 * the parser knows, or text does not start with a number. A bare number reports ST_DIM_RATIO,
 * a count suffix ("15T") ST_DIM_COUNT, and "B" (bytes before billions) ST_DIM_BYTES. */
st_dim st_unit_sniff(const char *text);

/* Print v (SI) of dimension d with 4 significant digits and the unit that keeps the mantissa in
 * [1, 1000): "400 Gbit/s" for bandwidth is printed in bytes as "50 GB/s"; bytes use SI prefixes;
 * time uses ns us ms s, then min (from 60 s), h, d, and y from 1000 d. Exceptions: prices print
 * in one conventional unit (USD/kWh, USD/h, USD/TB), temperature in C and money in USD, whatever
 * the mantissa; counts below 10^6 print as plain numbers, exactly when they are integers
 * ("16384"), larger ones with an M, B or T suffix and no space ("15T"); ratios print as a bare
 * number ("0.6"). Zero prints with the base unit ("0 s"); a mantissa of 10^15 or more, or below
 * 10^-5, uses exponent form ("1.5e18 EB"); NaN and infinities print as "nan", "inf", "-inf". The
 * text never depends on the locale. st_unit_parse(st_unit_format(v)) equals v within a relative
 * 5e-4 (4 significant digits). Returns the snprintf length (buf may be NULL when n is 0). */
int st_unit_format(double v, st_dim d, char *buf, size_t n);

/* "LO to HI UNIT": both ends of a range in the unit st_unit_format picks for ref, the figure the
 * range is about (a band's point estimate beside it: "23.4 h wall ... 18.43 to 29.71 h"), or for
 * the larger end where ref is NaN, so a range never reads "18.43 h to 1.238 d". Counts, ratios and
 * an end that is not finite print each end alone. Returns the snprintf length. */
int st_unit_format_range(double lo, double hi, double ref, st_dim d, char *buf, size_t n);

/* A share (0.25) as a percentage for a reader: 4 significant digits ("25%", "0.04836%"), and
 * below 0.001% in decimals to two digits ("0.000057%", not "5.651e-05%"); below
 * ST_UNIT_PERCENT_LEAST percent, its bound, "under 0.000001%". At most 17 bytes with the NUL, so
 * a 32-byte buffer never cuts it. Returns the snprintf length. */
#define ST_UNIT_PERCENT_LEAST 0.000001
int st_unit_percent(double share, char *buf, size_t n);

#endif
