/* Dimensioned values: one table of units, a locale-independent number scanner, the parser with
 * its messages and "did you mean" hints, and the 4-significant-digit printer. */
#include "sim/units.h"

#include "sim/err.h"
#include "sim/utf8.h"
#include "sim/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- The tables ---------------------------------------------------------------------------- */

enum {
    U_PRINT = 1,  /* st_unit_format may choose it; the PRINT units of a dimension ascend */
    U_HIDE = 2,   /* accepted, but never offered as a suggestion (KB, KB/s) */
    U_SUFFIX = 4, /* a count suffix: it names no dimension of its own, so "300 K" for a
                   * temperature is an unknown unit rather than "found a count" */
};

typedef struct unit_def {
    const char *text;
    st_dim dim;
    /* SI value = number * mul / div. Sub-units divide (1 ms = 1 / 1e3) because 1e-3 is not a
     * double, and a division gives the correctly rounded result. */
    double mul, div;
    unsigned flags;
    double from; /* st_unit_format uses the unit from this rounded mantissa on; 0 means 1 */
} unit_def;

/* clang-format off */
#define P U_PRINT
#define U(text, dim, mul, div, flags) {text, dim, mul, div, flags, 0}
#define TIME ST_DIM_TIME
#define BYTES ST_DIM_BYTES
#define BW ST_DIM_BANDWIDTH
#define KI 1024.0
#define MI (KI * KI)
#define GI (MI * KI)
#define TI (GI * KI)

/* Every unit the parser knows. Within a dimension the PRINT entries ascend, which is the order
 * st_unit_format scans them in; otherwise the order only decides sniffing ("B" is bytes). */
static const unit_def units[] = {
    U("%", ST_DIM_RATIO, 1, 100, 0),
    U("ns", TIME, 1, 1e9, P), U("us", TIME, 1, 1e6, P), U("ms", TIME, 1, 1e3, P),
    U("s", TIME, 1, 1, P), U("min", TIME, 60, 1, P), U("h", TIME, 3600, 1, P),
    U("d", TIME, 86400, 1, P), {"y", TIME, 365 * 86400.0, 1, P, 1000 / 365.0},
    U("B", BYTES, 1, 1, P), U("kB", BYTES, 1e3, 1, P), U("KB", BYTES, 1e3, 1, U_HIDE),
    U("MB", BYTES, 1e6, 1, P), U("GB", BYTES, 1e9, 1, P), U("TB", BYTES, 1e12, 1, P),
    U("PB", BYTES, 1e15, 1, P), U("EB", BYTES, 1e18, 1, P), U("KiB", BYTES, KI, 1, 0),
    U("MiB", BYTES, MI, 1, 0), U("GiB", BYTES, GI, 1, 0), U("TiB", BYTES, TI, 1, 0),
    U("PiB", BYTES, TI * KI, 1, 0), U("EiB", BYTES, TI * MI, 1, 0),
    U("bit/s", BW, 1, 8, 0), U("kbit/s", BW, 125, 1, 0), U("Mbit/s", BW, 125e3, 1, 0),
    U("Gbit/s", BW, 125e6, 1, 0), U("Tbit/s", BW, 125e9, 1, 0), U("Pbit/s", BW, 125e12, 1, 0),
    U("B/s", BW, 1, 1, P), U("kB/s", BW, 1e3, 1, P), U("KB/s", BW, 1e3, 1, U_HIDE),
    U("MB/s", BW, 1e6, 1, P), U("GB/s", BW, 1e9, 1, P), U("TB/s", BW, 1e12, 1, P),
    U("PB/s", BW, 1e15, 1, P), U("KiB/s", BW, KI, 1, 0), U("MiB/s", BW, MI, 1, 0),
    U("GiB/s", BW, GI, 1, 0), U("TiB/s", BW, TI, 1, 0),
    U("FLOP/s", ST_DIM_FLOPS, 1, 1, P), U("kFLOP/s", ST_DIM_FLOPS, 1e3, 1, P),
    U("MFLOP/s", ST_DIM_FLOPS, 1e6, 1, P), U("GFLOP/s", ST_DIM_FLOPS, 1e9, 1, P),
    U("TFLOP/s", ST_DIM_FLOPS, 1e12, 1, P), U("PFLOP/s", ST_DIM_FLOPS, 1e15, 1, P),
    U("EFLOP/s", ST_DIM_FLOPS, 1e18, 1, P),
    U("W", ST_DIM_POWER, 1, 1, P), U("kW", ST_DIM_POWER, 1e3, 1, P),
    U("MW", ST_DIM_POWER, 1e6, 1, P), U("GW", ST_DIM_POWER, 1e9, 1, P),
    U("W/s", ST_DIM_RAMP, 1, 1, P), U("kW/s", ST_DIM_RAMP, 1e3, 1, P),
    U("MW/s", ST_DIM_RAMP, 1e6, 1, P), U("GW/s", ST_DIM_RAMP, 1e9, 1, P),
    U("V", ST_DIM_VOLTAGE, 1, 1, P), U("kV", ST_DIM_VOLTAGE, 1e3, 1, P),
    U("mA", ST_DIM_CURRENT, 1, 1e3, P), U("A", ST_DIM_CURRENT, 1, 1, P),
    U("kA", ST_DIM_CURRENT, 1e3, 1, P),
    U("uohm", ST_DIM_RESISTANCE, 1, 1e6, P), U("mohm", ST_DIM_RESISTANCE, 1, 1e3, P),
    U("ohm", ST_DIM_RESISTANCE, 1, 1, P), U("kohm", ST_DIM_RESISTANCE, 1e3, 1, P),
    U("C", ST_DIM_TEMPERATURE, 1, 1, P),
    U("USD", ST_DIM_MONEY, 1, 1, P),
    U("USD/Wh", ST_DIM_PRICE_ENERGY, 1, 3600, 0), U("USD/kWh", ST_DIM_PRICE_ENERGY, 1, 3.6e6, P),
    U("USD/MWh", ST_DIM_PRICE_ENERGY, 1, 3.6e9, 0),
    U("USD/s", ST_DIM_PRICE_TIME, 1, 1, 0), U("USD/min", ST_DIM_PRICE_TIME, 1, 60, 0),
    U("USD/h", ST_DIM_PRICE_TIME, 1, 3600, P), U("USD/d", ST_DIM_PRICE_TIME, 1, 86400, 0),
    U("USD/y", ST_DIM_PRICE_TIME, 1, 365 * 86400.0, 0),
    U("USD/B", ST_DIM_PRICE_BYTES, 1, 1, 0), U("USD/GB", ST_DIM_PRICE_BYTES, 1, 1e9, 0),
    U("USD/TB", ST_DIM_PRICE_BYTES, 1, 1e12, P), U("USD/PB", ST_DIM_PRICE_BYTES, 1, 1e15, 0),
    U("USD/GiB", ST_DIM_PRICE_BYTES, 1, GI, 0), U("USD/TiB", ST_DIM_PRICE_BYTES, 1, TI, 0),
    U("USD/W-month", ST_DIM_PRICE_DEMAND, 1, 1, 0),
    U("USD/kW-month", ST_DIM_PRICE_DEMAND, 1, 1e3, P),
    U("USD/MW-month", ST_DIM_PRICE_DEMAND, 1, 1e6, 0),
    U("USD/(B/s)", ST_DIM_PRICE_BANDWIDTH, 1, 1, 0),
    U("USD/(GB/s)", ST_DIM_PRICE_BANDWIDTH, 1, 1e9, P),
    U("USD/(TB/s)", ST_DIM_PRICE_BANDWIDTH, 1, 1e12, 0),
    U("USD/W", ST_DIM_PRICE_POWER, 1, 1, 0), U("USD/kW", ST_DIM_PRICE_POWER, 1, 1e3, P),
    U("USD/MW", ST_DIM_PRICE_POWER, 1, 1e6, 0),
    U("J", ST_DIM_ENERGY, 1, 1, P), U("kJ", ST_DIM_ENERGY, 1e3, 1, P),
    U("MJ", ST_DIM_ENERGY, 1e6, 1, P), U("GJ", ST_DIM_ENERGY, 1e9, 1, P),
    U("TJ", ST_DIM_ENERGY, 1e12, 1, P), U("PJ", ST_DIM_ENERGY, 1e15, 1, P),
    U("Wh", ST_DIM_ENERGY, 3600, 1, 0), U("kWh", ST_DIM_ENERGY, 3.6e6, 1, 0),
    U("MWh", ST_DIM_ENERGY, 3.6e9, 1, 0), U("GWh", ST_DIM_ENERGY, 3.6e12, 1, 0),
    U("K", ST_DIM_COUNT, 1e3, 1, U_SUFFIX), U("M", ST_DIM_COUNT, 1e6, 1, P | U_SUFFIX),
    U("B", ST_DIM_COUNT, 1e9, 1, P | U_SUFFIX), U("T", ST_DIM_COUNT, 1e12, 1, P | U_SUFFIX),
};
#define NUNITS (sizeof units / sizeof units[0])
#undef P
#undef U
#undef TIME
#undef BYTES
#undef BW
/* clang-format on */

/* Spellings people write that we refuse, and what to suggest instead. A leading '%' stands for
 * an optional metric prefix, carried over to the suggestion ("Gbps" -> "Gbit/s"). Suggestions
 * that are not units of the wanted dimension are dropped, so one row serves several. */
/* clang-format off */
static const struct alias {
    const char *from, *to1, *to2;
} aliases[] = {
    {"%b/s", "%bit/s", "%B/s"},     {"%b/sec", "%bit/s", "%B/s"}, {"%bps", "%bit/s", NULL},
    {"%Bps", "%B/s", NULL},         {"%bit", "%bit/s", NULL},     {"%bits/s", "%bit/s", NULL},
    {"%bit/sec", "%bit/s", NULL},   {"%B/sec", "%B/s", NULL},     {"%FLOPS", "%FLOP/s", NULL},
    {"%flops", "%FLOP/s", NULL},    {"%Flops", "%FLOP/s", NULL},  {"%FLOP", "%FLOP/s", NULL},
    {"%FLOP/sec", "%FLOP/s", NULL}, {"%W/sec", "%W/s", NULL},     {"%sec", "%s", NULL},
    {"secs", "s", NULL},            {"second", "s", NULL},        {"seconds", "s", NULL},
    {"m", "min", "ms"},             {"mins", "min", NULL},        {"minute", "min", NULL},
    {"minutes", "min", NULL},       {"hr", "h", NULL},            {"hrs", "h", NULL},
    {"hour", "h", NULL},            {"hours", "h", NULL},         {"day", "d", NULL},
    {"days", "d", NULL},            {"yr", "y", NULL},            {"yrs", "y", NULL},
    {"year", "y", NULL},            {"years", "y", NULL},         {"\302\265s", "us", NULL},
    {"\316\274s", "us", NULL},      {"watt", "W", NULL},          {"watts", "W", NULL},
    {"\316\251", "ohm", NULL},      {"m\316\251", "mohm", NULL},  {"k\316\251", "kohm", NULL},
    {"ohms", "ohm", NULL},          {"\302\260C", "C", NULL},     {"degC", "C", NULL},
    {"celsius", "C", NULL},         {"dollar", "USD", NULL},      {"dollars", "USD", NULL},
    {"percent", "%", NULL},         {"USD/hour", "USD/h", NULL},
};
/* clang-format on */

static const struct dim_info {
    const char *name, *noun, *example;
} dims[ST_DIM__COUNT] = {
    [ST_DIM_RATIO] = {"plain ratio", "a plain ratio", "'2' or '60%'"},
    [ST_DIM_COUNT] = {"count", "a count", "'2048' or '15T'"},
    [ST_DIM_TIME] = {"time", "a time", "'30 s' or '15 min'"},
    [ST_DIM_BYTES] = {"size in bytes", "a size in bytes", "'80 GB' or '64 KiB'"},
    [ST_DIM_BANDWIDTH] = {"bandwidth", "a bandwidth", "'400 Gbit/s' or '900 GB/s'"},
    [ST_DIM_FLOPS] = {"compute rate", "a compute rate", "'989 TFLOP/s'"},
    [ST_DIM_POWER] = {"power", "a power", "'700 W' or '80 kW'"},
    [ST_DIM_RAMP] = {"power ramp", "a power ramp", "'5 MW/s'"},
    [ST_DIM_VOLTAGE] = {"voltage", "a voltage", "'415 V'"},
    [ST_DIM_CURRENT] = {"current", "a current", "'100 A'"},
    [ST_DIM_RESISTANCE] = {"resistance", "a resistance", "'0.5 mohm'"},
    [ST_DIM_TEMPERATURE] = {"temperature", "a temperature", "'30 C'"},
    [ST_DIM_MONEY] = {"amount of money", "an amount of money", "'300000 USD'"},
    [ST_DIM_PRICE_ENERGY] = {"energy price", "an energy price", "'0.08 USD/kWh'"},
    [ST_DIM_PRICE_TIME] = {"price per time", "a price per time", "'2.5 USD/h'"},
    [ST_DIM_PRICE_BYTES] = {"price per byte", "a price per byte", "'150 USD/TB'"},
    [ST_DIM_ENERGY] = {"energy", "an energy", "'5 kWh' or '18 MJ'"},
    [ST_DIM_PRICE_DEMAND] = {"demand charge", "a demand charge", "'15 USD/kW-month'"},
    [ST_DIM_PRICE_BANDWIDTH] = {"price per bandwidth", "a price per bandwidth",
                                "'5000 USD/(GB/s)'"},
    [ST_DIM_PRICE_POWER] = {"price per power", "a price per power", "'1500 USD/kW'"},
};

const char *st_dim_name(st_dim d)
{
    return (unsigned)d < ST_DIM__COUNT ? dims[d].name : "unknown dimension";
}

const char *st_dim_noun(st_dim d)
{
    return (unsigned)d < ST_DIM__COUNT ? dims[d].noun : "an unknown dimension";
}

const char *st_dim_example(st_dim d)
{
    return (unsigned)d < ST_DIM__COUNT ? dims[d].example : "''";
}

/* ---- Text spans -------------------------------------------------------------------------- */

/* A slice of the input; units and numbers are matched in place, never copied. */
typedef struct span {
    const char *p;
    size_t n;
} span;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* ASCII only, unlike tolower(), which follows the locale. */
static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static span trim(const char *p, size_t n)
{
    while (n && is_space(*p))
        p++, n--;
    while (n && is_space(p[n - 1]))
        n--;
    return (span){p, n};
}

static int span_is(span s, const char *t)
{
    return strlen(t) == s.n && memcmp(s.p, t, s.n) == 0;
}

/* Quoted input in messages is cut at QMAX bytes, on a character boundary, and marked with
 * "...". */
#define QMAX      40
#define QUOTED(s) (int)st_utf8_fit((s).p, (s).n, QMAX), (s).p, ((s).n > QMAX ? "..." : "")

/* The entry spelled exactly s in dimension dim, or in any dimension when dim is ST_DIM__COUNT
 * (then count suffixes only when with_suffix). NULL when there is none. */
static const unit_def *find_unit(span s, st_dim dim, int with_suffix)
{
    for (size_t i = 0; i < NUNITS; i++) {
        const unit_def *u = &units[i];
        if (dim != ST_DIM__COUNT && u->dim != dim)
            continue;
        if (dim == ST_DIM__COUNT && (u->flags & U_SUFFIX) && !with_suffix)
            continue;
        if (span_is(s, u->text))
            return u;
    }
    return NULL;
}

/* ---- Numbers ----------------------------------------------------------------------------- */

/* SCAN_OVER: too large for a double (the number is then +-HUGE_VAL); SCAN_UNDER: a non-zero
 * number too small for one. */
enum { SCAN_OK, SCAN_BAD, SCAN_OVER, SCAN_UNDER };

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* mant * 10^e. Within 2^53 and 10^+-22 both factors are exact doubles, so one multiplication or
 * division rounds correctly (the classic fast path). Elsewhere long double keeps the error
 * below an ulp of the result on x86-64; on other targets it stays within a few ulps. */
static double scale10(uint64_t mant, long e)
{
    if (mant == 0)
        return 0.0;
    if (mant <= (UINT64_C(1) << 53) && e >= -22 && e <= 22)
        return e >= 0 ? (double)mant * pow10_exact[e] : (double)mant / pow10_exact[-e];
    if (e > 400)
        return HUGE_VAL;
    if (e < -450)
        return 0.0;
    long double v = (long double)mant;
    for (; e > 22; e -= 22)
        v *= 1e22L;
    for (; e < -22; e += 22)
        v /= 1e22L;
    v = e >= 0 ? v * (long double)pow10_exact[e] : v / (long double)pow10_exact[-e];
    return (double)v;
}

/* Scans digits into a 19-digit mantissa; digits past that only move the exponent. */
static size_t scan_digits(span s, size_t i, int frac, uint64_t *mant, int *ndig, long *dexp)
{
    for (; i < s.n && is_digit(s.p[i]); i++) {
        if (*mant == 0 && s.p[i] == '0') {
            *dexp -= frac; /* a leading zero: significant only as a position */
        } else if (*ndig < 19) {
            *mant = *mant * 10 + (uint64_t)(s.p[i] - '0');
            (*ndig)++;
            *dexp -= frac;
        } else {
            *dexp += !frac;
        }
    }
    return i;
}

/* Reads an optional exponent "e[+-]digits" at s.p[i]; returns the index after it, or i
 * untouched when there is none ("5 EB" and "1EFLOP/s" have a unit, not an exponent). */
static size_t scan_exponent(span s, size_t i, long *dexp)
{
    if (i >= s.n || (s.p[i] != 'e' && s.p[i] != 'E'))
        return i;
    size_t j = i + 1;
    int neg = 0;
    if (j < s.n && (s.p[j] == '+' || s.p[j] == '-'))
        neg = s.p[j++] == '-';
    if (j >= s.n || !is_digit(s.p[j]))
        return i;
    long x = 0;
    for (; j < s.n && is_digit(s.p[j]); j++)
        if (x < 100000) /* anything past this over- or underflows anyway */
            x = x * 10 + (s.p[j] - '0');
    *dexp += neg ? -x : x;
    return j;
}

/* Splits s into a number and the unit after it. The number must be followed by the end, a
 * space or a unit: "1.2.3 GB", "1,5 GB", "1_000" and "0x10" are not numbers. */
static int scan_value(span s, double *num, span *unit)
{
    size_t i = 0;
    int neg = 0, ndig = 0;
    uint64_t mant = 0;
    long dexp = 0;
    if (i < s.n && (s.p[i] == '+' || s.p[i] == '-'))
        neg = s.p[i++] == '-';
    size_t start = i;
    i = scan_digits(s, i, 0, &mant, &ndig, &dexp);
    size_t int_end = i;
    if (i < s.n && s.p[i] == '.')
        i = scan_digits(s, i + 1, 1, &mant, &ndig, &dexp);
    if (int_end == start && i <= int_end + 1)
        return SCAN_BAD; /* no digit on either side of the point */
    i = scan_exponent(s, i, &dexp);
    if (i < s.n && strchr(".,_", s.p[i]))
        return SCAN_BAD;
    if (i < s.n && (s.p[i] == 'x' || s.p[i] == 'X') && int_end - start == 1 && s.p[start] == '0')
        return SCAN_BAD;
    double v = scale10(mant, dexp);
    *unit = trim(s.p + i, s.n - i);
    if (v == 0 && mant != 0)
        return SCAN_UNDER;
    *num = neg && v != 0 ? -v : v; /* "-0" is plain 0, so it never prints as "-0" */
    return isinf(v) ? SCAN_OVER : SCAN_OK;
}

/* ---- Messages and suggestions ----------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        st_vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return ST_EUNIT;
}

/* Up to two suggested units, pointing at table text. */
typedef struct hints {
    const char *s[2];
    int n;
} hints;

static void hint_add(hints *h, span cand, st_dim want)
{
    const unit_def *u = find_unit(cand, want, 1);
    if (!u || h->n == 2 || (h->n == 1 && h->s[0] == u->text))
        return;
    h->s[h->n++] = u->text;
}

/* Does u spell pattern pat? A leading '%' in pat matches an optional metric prefix, which is
 * returned in *pre in its proper case ('\0' when absent): "Kbps" gives 'k', "gbps" 'G'. */
static int alias_match(span u, const char *pat, char *pre)
{
    static const char from[] = "numkKMGTPEgtp", to[] = "numkkMGTPEGTP";
    *pre = '\0';
    if (pat[0] != '%')
        return span_is(u, pat);
    if (span_is(u, pat + 1))
        return 1;
    const char *at = u.n > 1 ? strchr(from, u.p[0]) : NULL;
    if (!at || !span_is((span){u.p + 1, u.n - 1}, pat + 1))
        return 0;
    *pre = to[at - from];
    return 1;
}

static void alias_hint(hints *h, const char *to, char pre, st_dim want)
{
    char buf[32];
    if (!to)
        return;
    if (to[0] == '%' && to[1] != '\0') /* "%" alone is the percent sign, not a prefix */
        snprintf(buf, sizeof buf, "%s%s", pre ? (char[2]){pre, '\0'} : "", to + 1);
    else
        snprintf(buf, sizeof buf, "%s", to);
    hint_add(h, (span){buf, strlen(buf)}, want);
}

/* Optimal-string-alignment distance, ignoring ASCII case; 99 for long strings. */
static int distance(span a, const char *b)
{
    size_t m = a.n, n = strlen(b);
    int d[33][33];
    if (m > 32 || n > 32)
        return 99;
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = 1; j <= n; j++) {
            int best = d[i - 1][j - 1] + (lower(a.p[i - 1]) != lower(b[j - 1]));
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && lower(a.p[i - 1]) == lower(b[j - 2]) &&
                lower(a.p[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[m][n];
}

/* The units of `want` closest to u: known misspellings first, then "$" for "USD", then the
 * nearest spellings by edit distance (case differences are free; short units must match but
 * for case, longer ones may be one or two edits away). */
static hints suggest(span u, st_dim want)
{
    hints h = {{NULL, NULL}, 0};
    char pre, buf[40];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (alias_match(u, aliases[i].from, &pre)) {
            alias_hint(&h, aliases[i].to1, pre, want);
            alias_hint(&h, aliases[i].to2, pre, want);
        }
    }
    if (u.n && u.p[0] == '$' && u.n < 30) {
        snprintf(buf, sizeof buf, "USD%.*s", (int)u.n - 1, u.p + 1);
        hint_add(&h, (span){buf, strlen(buf)}, want);
    }
    if (h.n)
        return h;
    int limit = u.n <= 2 ? 0 : u.n <= 5 ? 1 : 2, best = limit + 1;
    for (size_t i = 0; i < NUNITS; i++)
        if (units[i].dim == want && !(units[i].flags & U_HIDE) && distance(u, units[i].text) < best)
            best = distance(u, units[i].text);
    for (size_t i = 0; i < NUNITS && best <= limit; i++)
        if (units[i].dim == want && !(units[i].flags & U_HIDE) &&
            distance(u, units[i].text) == best)
            hint_add(&h, (span){units[i].text, strlen(units[i].text)}, want);
    return h;
}

/* The text has a number and a unit that `want` does not know: say which of our messages fits. */
static int unit_error(span s, span u, st_dim want, char *why, size_t whylen)
{
    const unit_def *other = find_unit(u, ST_DIM__COUNT, 0);
    if (other)
        return fail(why, whylen, "wrong dimension: expected %s such as %s, found %s ('%.*s%s')",
                    dims[want].noun, dims[want].example, dims[other->dim].noun, QUOTED(s));
    size_t w = 0;
    while (w < u.n && !is_space(u.p[w]))
        w++;
    span word = {u.p, w};
    if (w < u.n && (find_unit(word, want, 1) || find_unit(word, ST_DIM__COUNT, 0))) {
        span rest = trim(u.p + w, u.n - w), head = {s.p, (size_t)(u.p + w - s.p)};
        return fail(why, whylen, "unexpected text '%.*s%s' after '%.*s%s'", QUOTED(rest),
                    QUOTED(head));
    }
    hints h = suggest(u, want);
    if (h.n == 2)
        return fail(why, whylen, "unknown unit '%.*s%s' for %s; did you mean '%s' or '%s'?",
                    QUOTED(u), dims[want].noun, h.s[0], h.s[1]);
    if (h.n == 1)
        return fail(why, whylen, "unknown unit '%.*s%s' for %s; did you mean '%s'?", QUOTED(u),
                    dims[want].noun, h.s[0]);
    return fail(why, whylen, "unknown unit '%.*s%s': expected %s such as %s", QUOTED(u),
                dims[want].noun, dims[want].example);
}

/* ---- Parsing ----------------------------------------------------------------------------- */

/* "2:1", "3:2": how planners write an oversubscription or any other plain ratio; N:M is N / M.
 * u is the text from the colon on. The denominator is a bare positive number. */
static int colon_ratio(span s, double num, span u, double *out, char *why, size_t whylen)
{
    span rest = trim(u.p + 1, u.n - 1), extra;
    double den;
    if (scan_value(rest, &den, &extra) != SCAN_OK || extra.n || den <= 0)
        return fail(why, whylen,
                    "expected a ratio such as '2:1' (N:M with M a positive number), found "
                    "'%.*s%s'",
                    QUOTED(s));
    double v = num / den;
    if (isinf(v) || (v == 0 && num != 0))
        return fail(why, whylen, "number out of range: '%.*s%s'", QUOTED(s));
    *out = v;
    return 0;
}

int st_unit_parse(const char *text, st_dim want, double *out, char *why, size_t whylen)
{
    return st_unit_parse_n(text, text ? strlen(text) : 0, want, 0, out, why, whylen);
}

/* A number without a unit under flags: *out, or the message for a dimension that needs one. */
static int bare(st_dim want, unsigned flags, double num, double *out, char *why, size_t whylen)
{
    if (want != ST_DIM_RATIO && want != ST_DIM_COUNT &&
        !(flags & (ST_UNIT_BARE_SI | ST_UNIT_PLAIN)))
        return fail(why, whylen, "missing unit: expected %s such as %s", dims[want].noun,
                    dims[want].example);
    *out = num;
    return 0;
}

int st_unit_parse_n(const char *text, size_t len, st_dim want, unsigned flags, double *out,
                    char *why, size_t whylen)
{
    if ((unsigned)want >= ST_DIM__COUNT)
        ST_BUG("st_unit_parse: dimension %d is not an st_dim", (int)want);
    const char *example = dims[want].example, *noun = dims[want].noun;
    span s = trim(text ? text : "", text ? len : 0), u;
    double num = 0;
    if (s.n == 0)
        return fail(why, whylen, "empty value: expected %s such as %s", noun, example);
    int rc = scan_value(s, &num, &u), huge = (flags & ST_UNIT_HUGE) != 0;
    /* a value of a dimension says what it takes: "--deadline soon" said "expected a number",
     * and "--deadline 90" then "missing unit" */
    if (rc == SCAN_BAD && want != ST_DIM_RATIO && want != ST_DIM_COUNT && !(flags & ST_UNIT_PLAIN))
        return fail(why, whylen, "expected %s such as %s, found '%.*s%s'", noun, example,
                    QUOTED(s));
    if (rc == SCAN_BAD)
        return fail(why, whylen, "expected a number, found '%.*s%s'", QUOTED(s));
    if (rc == SCAN_UNDER || (rc == SCAN_OVER && !huge))
        return fail(why, whylen, "number out of range: '%.*s%s'", QUOTED(s));
    if (u.n && (flags & ST_UNIT_PLAIN))
        return fail(why, whylen, "expected a plain number, found '%.*s%s'", QUOTED(s));
    if (u.n == 0)
        return bare(want, flags, num, out, why, whylen);
    if (want == ST_DIM_RATIO && u.p[0] == ':')
        return colon_ratio(s, num, u, out, why, whylen);
    const unit_def *hit = find_unit(u, want, 1);
    if (!hit)
        return unit_error(s, u, want, why, whylen);
    double v = num * hit->mul / hit->div;
    if ((isinf(v) && !huge) || (v == 0 && num != 0))
        return fail(why, whylen, "number out of range: '%.*s%s'", QUOTED(s));
    *out = v;
    return 0;
}

st_dim st_unit_sniff(const char *text)
{
    span s = trim(text ? text : "", text ? strlen(text) : 0), u;
    double num;
    if (s.n == 0 || scan_value(s, &num, &u) == SCAN_BAD)
        return ST_DIM__COUNT; /* an over- or underflowing number still has its unit */
    if (u.n == 0)
        return ST_DIM_RATIO;
    const unit_def *hit = find_unit(u, ST_DIM__COUNT, 1);
    return hit ? hit->dim : ST_DIM__COUNT;
}

/* ---- Printing ---------------------------------------------------------------------------- */

/* x * 10^k for any k a finite double can need, in steps that neither overflow nor underflow. */
static double times_pow10(double x, int k)
{
    for (; k > 22; k -= 22)
        x *= 1e22;
    for (; k < -22; k += 22)
        x /= 1e22;
    return k >= 0 ? x * pow10_exact[k] : x / pow10_exact[-k];
}

/* Rounds x > 0 to 4 significant digits: x ~= *digits * 10^(*e - 3), 1000 <= *digits <= 9999.
 * The exponent is guessed with log10 and corrected when rounding carries ("9999.6" -> 1.000e4). */
static void round4(double x, long *digits, int *e)
{
    int k = (int)floor(log10(x));
    long r = 0;
    for (int tries = 0; tries < 4; tries++) {
        r = lround(times_pow10(x, 3 - k));
        if (r >= 10000)
            k++;
        else if (r < 1000)
            k--;
        else
            break;
    }
    *digits = r;
    *e = k;
}

static double rounded4(double x)
{
    long digits;
    int e;
    if (x <= 0)
        return 0;
    round4(x, &digits, &e);
    return times_pow10((double)digits, e - 3);
}

/* Writes x with 4 significant digits and without the locale's decimal point: "1.5", "250",
 * "0.001234", "1.235e20". out holds at least 32 characters. */
static void fmt_sig4(double x, char *out)
{
    long digits;
    int e, nd = 4;
    char d[8];
    if (x < 0) {
        *out++ = '-';
        x = -x;
    }
    if (x == 0) {
        strcpy(out, "0");
        return;
    }
    round4(x, &digits, &e);
    snprintf(d, sizeof d, "%ld", digits);
    while (nd > 1 && d[nd - 1] == '0')
        nd--;
    if (e >= 0 && e <= 14) {
        for (int i = 0; i <= e; i++)
            *out++ = i < nd ? d[i] : '0';
        if (nd > e + 1)
            out += sprintf(out, ".%.*s", nd - e - 1, d + e + 1);
        *out = '\0';
    } else if (e < 0 && e >= -5) {
        sprintf(out, "0.%.*s%.*s", -e - 1, "00000", nd, d);
    } else {
        sprintf(out, "%c%s%.*se%d", d[0], nd > 1 ? "." : "", nd - 1, d + 1, e);
    }
}

/* The PRINT unit of d for magnitude a: the largest whose rounded mantissa reaches its `from`;
 * for a value below them all the smallest, and for zero the base unit. NULL means a bare number
 * (ratios, and counts below 1000). */
static const unit_def *pick_unit(double a, st_dim d)
{
    const unit_def *best = NULL, *first = NULL, *one = NULL;
    for (size_t i = 0; i < NUNITS; i++) {
        const unit_def *u = &units[i];
        if (u->dim != d || !(u->flags & U_PRINT))
            continue;
        if (!first)
            first = u;
        if (u->mul == 1 && u->div == 1)
            one = u;
        if (a > 0 && rounded4(a * u->div / u->mul) >= (u->from > 0 ? u->from : 1))
            best = u;
    }
    if (best || d == ST_DIM_COUNT)
        return best;
    return a == 0 && one ? one : first;
}

int st_unit_format_range(double lo, double hi, double ref, st_dim d, char *buf, size_t n)
{
    char a[40], b[40];
    if ((unsigned)d >= ST_DIM__COUNT)
        ST_BUG("st_unit_format_range: dimension %d is not an st_dim", (int)d);
    if (!isfinite(ref) || ref == 0)
        ref = fabs(hi) > fabs(lo) ? hi : lo;
    const unit_def *u = isfinite(lo) && isfinite(hi) && d != ST_DIM_COUNT && d != ST_DIM_RATIO
                            ? pick_unit(fabs(ref), d)
                            : NULL;
    if (!u) { /* each end as it prints alone */
        st_unit_format(lo, d, a, sizeof a);
        st_unit_format(hi, d, b, sizeof b);
        return snprintf(buf, n, "%s to %s", a, b);
    }
    fmt_sig4(lo * u->div / u->mul, a);
    fmt_sig4(hi * u->div / u->mul, b);
    return snprintf(buf, n, "%s to %s %s", a, b, u->text);
}

int st_unit_format(double v, st_dim d, char *buf, size_t n)
{
    char num[40];
    if ((unsigned)d >= ST_DIM__COUNT)
        ST_BUG("st_unit_format: dimension %d is not an st_dim", (int)d);
    if (isnan(v))
        return snprintf(buf, n, "nan");
    if (isinf(v))
        return snprintf(buf, n, "%s", v < 0 ? "-inf" : "inf");
    if (d == ST_DIM_COUNT && fabs(v) < 1e6 && v == floor(v))
        return snprintf(buf, n, "%ld", (long)v);
    if (d == ST_DIM_COUNT && rounded4(fabs(v)) < 1e6)
        d = ST_DIM_RATIO; /* below a million a plain number reads best: "1235", not "1.235K" */
    const unit_def *u = pick_unit(fabs(v), d);
    fmt_sig4(u ? v * u->div / u->mul : v, num);
    if (!u)
        return snprintf(buf, n, "%s", num);
    return snprintf(buf, n, "%s%s%s", num, d == ST_DIM_COUNT ? "" : " ", u->text);
}

int st_unit_percent(double share, char *buf, size_t n)
{
    double p = share * 100;
    /* a share so small its decimals would run past any buffer (1e-300 had 301 of them, cut to a
     * "0.0000..." that read as none): its bound instead */
    if (p != 0 && fabs(p) < ST_UNIT_PERCENT_LEAST)
        return snprintf(buf, n, p > 0 ? "under 0.000001%%" : "above -0.000001%%");
    if (p != 0 && isfinite(p) && fabs(p) < 1e-3)
        return snprintf(buf, n, "%.*f%%", 1 - (int)floor(log10(fabs(p))), p);
    return snprintf(buf, n, "%.4g%%", p);
}
