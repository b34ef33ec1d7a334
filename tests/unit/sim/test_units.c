/* Tests for sim/units: parsing every dimension, the exact error messages the loader prints,
 * sniffing, and printing that parses back to the same value. */
#include "sim/units.h"

#include "sim/err.h"

#include <check.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses text as d, failing the test with the parser's message if it is refused. */
static double parse_ok(const char *text, st_dim d)
{
    double v = -12345;
    char why[256] = "";
    int rc = st_unit_parse(text, d, &v, why, sizeof why);
    ck_assert_msg(rc == 0, "'%s' as %s: %s", text, st_dim_name(d), why);
    return v;
}

/* Expects text to be refused as d with exactly msg, and *out left alone. */
static void expect_error(const char *text, st_dim d, const char *msg)
{
    double v = -12345;
    char why[256] = "";
    int rc = st_unit_parse(text, d, &v, why, sizeof why);
    ck_assert_msg(rc == ST_EUNIT, "'%s' as %s parsed as %g", text ? text : "(null)", st_dim_name(d),
                  v);
    ck_assert_str_eq(why, msg);
    ck_assert(v == -12345);
}

static const char *fmt(double v, st_dim d)
{
    static char buf[64];
    int n = st_unit_format(v, d, buf, sizeof buf);
    ck_assert_int_eq(n, (int)strlen(buf));
    return buf;
}

#define EXACT(text, d, want) ck_assert_double_eq(parse_ok(text, d), want)

/* ---- Parsing each dimension ---------------------------------------------------------------- */

START_TEST(test_time_parses_every_unit_into_seconds)
{
    EXACT("250 ns", ST_DIM_TIME, 250 / 1e9);
    EXACT("1.5 us", ST_DIM_TIME, 1.5e-6);
    EXACT("2 ms", ST_DIM_TIME, 2e-3);
    EXACT("30 s", ST_DIM_TIME, 30);
    EXACT("15 min", ST_DIM_TIME, 900);
    EXACT("4 h", ST_DIM_TIME, 4 * 3600);
    EXACT("54 d", ST_DIM_TIME, 54 * 86400);
    EXACT("4 y", ST_DIM_TIME, 4 * 365 * 86400.0);
    EXACT("50000 h", ST_DIM_TIME, 50000 * 3600.0);
}
END_TEST

START_TEST(test_space_between_number_and_unit_is_optional_and_edges_are_trimmed)
{
    EXACT("400Gbit/s", ST_DIM_BANDWIDTH, 50e9);
    EXACT("400 Gbit/s", ST_DIM_BANDWIDTH, 50e9);
    EXACT("  400   Gbit/s \t", ST_DIM_BANDWIDTH, 50e9);
    EXACT("30\ts", ST_DIM_TIME, 30);
    EXACT("15T", ST_DIM_COUNT, 1.5e13);
    EXACT("15 T", ST_DIM_COUNT, 1.5e13);
    EXACT("60 %", ST_DIM_RATIO, 0.6);
}
END_TEST

START_TEST(test_bytes_with_si_prefixes_step_by_1000)
{
    EXACT("512 B", ST_DIM_BYTES, 512);
    EXACT("1 kB", ST_DIM_BYTES, 1e3);
    EXACT("1 KB", ST_DIM_BYTES, 1e3);
    EXACT("1 MB", ST_DIM_BYTES, 1e6);
    EXACT("1 GB", ST_DIM_BYTES, 1e9);
    EXACT("80 GB", ST_DIM_BYTES, 80e9);
    EXACT("141 GB", ST_DIM_BYTES, 141e9);
    EXACT("2 TB", ST_DIM_BYTES, 2e12);
    EXACT("5 PB", ST_DIM_BYTES, 5e15);
    EXACT("1 EB", ST_DIM_BYTES, 1e18);
}
END_TEST

START_TEST(test_bytes_with_iec_prefixes_step_by_1024)
{
    EXACT("1 KiB", ST_DIM_BYTES, 1024);
    EXACT("64 KiB", ST_DIM_BYTES, 65536);
    EXACT("1 MiB", ST_DIM_BYTES, 1048576);
    EXACT("1 GiB", ST_DIM_BYTES, 1073741824);
    EXACT("1 TiB", ST_DIM_BYTES, 1099511627776.0);
    EXACT("1 PiB", ST_DIM_BYTES, 1125899906842624.0);
    EXACT("1 EiB", ST_DIM_BYTES, 1152921504606846976.0);
    ck_assert(parse_ok("1 GiB", ST_DIM_BYTES) > parse_ok("1 GB", ST_DIM_BYTES));
}
END_TEST

START_TEST(test_bandwidth_in_bits_is_an_eighth_of_the_same_in_bytes)
{
    EXACT("400 Gbit/s", ST_DIM_BANDWIDTH, 50e9);
    EXACT("1 bit/s", ST_DIM_BANDWIDTH, 0.125);
    EXACT("8 kbit/s", ST_DIM_BANDWIDTH, 1e3);
    EXACT("100 Mbit/s", ST_DIM_BANDWIDTH, 12.5e6);
    EXACT("1.6 Tbit/s", ST_DIM_BANDWIDTH, 1.6 * 125e9);
    EXACT("900 GB/s", ST_DIM_BANDWIDTH, 900e9);
    EXACT("3.35 TB/s", ST_DIM_BANDWIDTH, 3.35e12);
    EXACT("50 MB/s", ST_DIM_BANDWIDTH, 50e6);
    EXACT("64 B/s", ST_DIM_BANDWIDTH, 64);
    EXACT("1 kB/s", ST_DIM_BANDWIDTH, 1e3);
    EXACT("1 GiB/s", ST_DIM_BANDWIDTH, 1073741824);
    EXACT("2 MiB/s", ST_DIM_BANDWIDTH, 2097152);
    EXACT("1 KiB/s", ST_DIM_BANDWIDTH, 1024);
}
END_TEST

START_TEST(test_compute_rate_power_and_ramp_parse)
{
    EXACT("989 TFLOP/s", ST_DIM_FLOPS, 989e12);
    EXACT("1.98 PFLOP/s", ST_DIM_FLOPS, 1.98e15);
    EXACT("312 GFLOP/s", ST_DIM_FLOPS, 312e9);
    EXACT("1EFLOP/s", ST_DIM_FLOPS, 1e18); /* 'E' is a prefix here, not an exponent */
    EXACT("5 FLOP/s", ST_DIM_FLOPS, 5);
    EXACT("700 W", ST_DIM_POWER, 700);
    EXACT("2.5 kW", ST_DIM_POWER, 2500);
    EXACT("40 MW", ST_DIM_POWER, 40e6);
    EXACT("1 GW", ST_DIM_POWER, 1e9);
    EXACT("5 MW/s", ST_DIM_RAMP, 5e6);
    EXACT("300 kW/s", ST_DIM_RAMP, 3e5);
    EXACT("10 W/s", ST_DIM_RAMP, 10);
    EXACT("1 GW/s", ST_DIM_RAMP, 1e9);
}
END_TEST

START_TEST(test_electrical_and_thermal_units_parse)
{
    EXACT("415 V", ST_DIM_VOLTAGE, 415);
    EXACT("13.8 kV", ST_DIM_VOLTAGE, 13800);
    EXACT("100 A", ST_DIM_CURRENT, 100);
    EXACT("125 A", ST_DIM_CURRENT, 125);
    EXACT("2 kA", ST_DIM_CURRENT, 2000);
    EXACT("500 mA", ST_DIM_CURRENT, 0.5);
    EXACT("0.5 mohm", ST_DIM_RESISTANCE, 0.5 / 1e3);
    EXACT("2 mohm", ST_DIM_RESISTANCE, 2e-3);
    EXACT("50 uohm", ST_DIM_RESISTANCE, 50 / 1e6);
    EXACT("1 ohm", ST_DIM_RESISTANCE, 1);
    EXACT("4.7 kohm", ST_DIM_RESISTANCE, 4700);
    EXACT("30 C", ST_DIM_TEMPERATURE, 30);
    EXACT("-40 C", ST_DIM_TEMPERATURE, -40);
    EXACT("24.5C", ST_DIM_TEMPERATURE, 24.5);
}
END_TEST

START_TEST(test_money_and_prices_become_usd_per_si_unit)
{
    EXACT("300000 USD", ST_DIM_MONEY, 300000);
    EXACT("350000USD", ST_DIM_MONEY, 350000);
    EXACT("0.08 USD/kWh", ST_DIM_PRICE_ENERGY, 0.08 / 3.6e6);
    EXACT("80 USD/MWh", ST_DIM_PRICE_ENERGY, 80 / 3.6e9);
    EXACT("0.0001 USD/Wh", ST_DIM_PRICE_ENERGY, 0.0001 / 3600);
    EXACT("2.5 USD/h", ST_DIM_PRICE_TIME, 2.5 / 3600);
    EXACT("0.001 USD/s", ST_DIM_PRICE_TIME, 0.001);
    EXACT("1000 USD/y", ST_DIM_PRICE_TIME, 1000 / (365 * 86400.0));
    EXACT("150 USD/TB", ST_DIM_PRICE_BYTES, 150 / 1e12);
    EXACT("0.02 USD/GB", ST_DIM_PRICE_BYTES, 0.02 / 1e9);
    EXACT("0.02 USD/GiB", ST_DIM_PRICE_BYTES, 0.02 / 1073741824.0);
    EXACT("5 kWh", ST_DIM_ENERGY, 5 * 3.6e6);
    EXACT("50 Wh", ST_DIM_ENERGY, 50 * 3600.0);
    EXACT("18 MJ", ST_DIM_ENERGY, 18e6);
    EXACT("2 MWh", ST_DIM_ENERGY, 2 * 3.6e9);
    /* A kWh is 3.6 MJ, so 1 USD/kWh and 1000 USD/MWh are the same price. */
    ck_assert_double_eq_tol(parse_ok("1 USD/kWh", ST_DIM_PRICE_ENERGY),
                            parse_ok("1000 USD/MWh", ST_DIM_PRICE_ENERGY), 1e-22);
}
END_TEST

START_TEST(test_ratio_is_a_bare_number_or_a_percentage)
{
    EXACT("2", ST_DIM_RATIO, 2);
    EXACT("0.95", ST_DIM_RATIO, 0.95);
    EXACT("1", ST_DIM_RATIO, 1);
    EXACT("60%", ST_DIM_RATIO, 0.6);
    EXACT("80%", ST_DIM_RATIO, 0.8);
    EXACT("150%", ST_DIM_RATIO, 1.5);
    EXACT("0.5%", ST_DIM_RATIO, 0.005);
    EXACT("-5%", ST_DIM_RATIO, -0.05);
}
END_TEST

/* Planners write an oversubscription as "2:1"; N:M is N / M, and nothing else takes a colon. */
START_TEST(test_ratio_takes_n_colon_m)
{
    EXACT("2:1", ST_DIM_RATIO, 2);
    EXACT("1:1", ST_DIM_RATIO, 1);
    EXACT("3:2", ST_DIM_RATIO, 1.5);
    EXACT(" 4 : 1 ", ST_DIM_RATIO, 4);
    EXACT("1.5:1", ST_DIM_RATIO, 1.5);
    const char *msg = "expected a ratio such as '2:1' (N:M with M a positive number), found ";
    char want[160];
    snprintf(want, sizeof want, "%s'2:0'", msg);
    expect_error("2:0", ST_DIM_RATIO, want);
    snprintf(want, sizeof want, "%s'2:'", msg);
    expect_error("2:", ST_DIM_RATIO, want);
    snprintf(want, sizeof want, "%s'2:1:1'", msg);
    expect_error("2:1:1", ST_DIM_RATIO, want);
    snprintf(want, sizeof want, "%s'2:1 GB'", msg);
    expect_error("2:1 GB", ST_DIM_RATIO, want);
    expect_error("2:1", ST_DIM_COUNT,
                 "unknown unit ':1': expected a count such as '2048' or '15T'");
}
END_TEST

START_TEST(test_count_takes_k_m_b_t_suffixes_or_an_exact_integer)
{
    EXACT("15T", ST_DIM_COUNT, 1.5e13);
    EXACT("2K", ST_DIM_COUNT, 2000);
    EXACT("1.5M", ST_DIM_COUNT, 1.5e6);
    EXACT("3B", ST_DIM_COUNT, 3e9);
    EXACT("16384", ST_DIM_COUNT, 16384);
    EXACT("2048", ST_DIM_COUNT, 2048);
    EXACT("9007199254740992", ST_DIM_COUNT, 9007199254740992.0);
    EXACT("1e3", ST_DIM_COUNT, 1000);
}
END_TEST

START_TEST(test_numbers_take_every_decimal_form)
{
    EXACT("1e-3 s", ST_DIM_TIME, 1e-3);
    EXACT("1E3 s", ST_DIM_TIME, 1e3);
    EXACT("1e+3 s", ST_DIM_TIME, 1e3);
    EXACT("1.5 s", ST_DIM_TIME, 1.5);
    EXACT("-2 s", ST_DIM_TIME, -2);
    EXACT("+2 s", ST_DIM_TIME, 2);
    EXACT(".5 s", ST_DIM_TIME, 0.5);
    EXACT("5. s", ST_DIM_TIME, 5);
    EXACT("007 s", ST_DIM_TIME, 7);
    EXACT("0.000000000000000000000000001 s", ST_DIM_TIME, 1e-27);
    EXACT("2.5e3ms", ST_DIM_TIME, 2.5);
    EXACT("0 s", ST_DIM_TIME, 0);
    double z = parse_ok("-0 s", ST_DIM_TIME);
    ck_assert(z == 0 && !signbit(z));
}
END_TEST

/* The scanner is ours (locale-free); it must agree with the C library's correctly rounded
 * strtod, exactly on the fast path and within an ulp anywhere else. */
START_TEST(test_numbers_round_like_strtod)
{
    static const char *fixed[] = {"0.1",
                                  "0.3",
                                  "3.14159265358979",
                                  "123456789012345678",
                                  "1e-300",
                                  "1e300",
                                  "1.7976931348623157e308",
                                  "2.2250738585072014e-308",
                                  "4.9e-324",
                                  "12345678901234567890123",
                                  "0.000123456789",
                                  "9.999999999999999e22",
                                  "1.0000000000000002"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        double want = strtod(fixed[i], NULL), got = parse_ok(fixed[i], ST_DIM_RATIO);
        ck_assert_msg(got == want || got == nextafter(want, got), "%s: %.17g not %.17g", fixed[i],
                      got, want);
    }
    unsigned long long x = 88172645463325252ULL;
    int exact = 0, fast = 0;
    for (int i = 0; i < 20000; i++) {
        char text[64];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int e = (int)(x % 61) - 30, digits = 1 + (int)((x >> 8) % 17);
        unsigned long long m = (x >> 16) % 100000000000000000ULL;
        snprintf(text, sizeof text, "%.*llue%d", digits, m, e);
        double want = strtod(text, NULL), got = parse_ok(text, ST_DIM_RATIO);
        ck_assert_msg(got == want || got == nextafter(want, got), "%s: %.17g not %.17g", text, got,
                      want);
        exact += got == want;
        fast += e >= -22 && e <= 22 && m < (1ULL << 53);
    }
    ck_assert_int_ge(exact, 19900);
    ck_assert_int_gt(fast, 1000);
}
END_TEST

START_TEST(test_every_dimension_example_parses_as_its_dimension)
{
    for (int d = 0; d < ST_DIM__COUNT; d++) {
        char ex[128], *p = ex;
        snprintf(ex, sizeof ex, "%s", st_dim_example((st_dim)d));
        while ((p = strchr(p, '\'')) != NULL) {
            char *end = strchr(p + 1, '\'');
            ck_assert_ptr_nonnull(end);
            *end = '\0';
            parse_ok(p + 1, (st_dim)d);
            st_dim sniffed = st_unit_sniff(p + 1);
            ck_assert(sniffed == (st_dim)d || (d == ST_DIM_COUNT && sniffed == ST_DIM_RATIO));
            p = end + 1;
        }
    }
}
END_TEST

START_TEST(test_dimension_names_and_nouns)
{
    ck_assert_str_eq(st_dim_name(ST_DIM_BANDWIDTH), "bandwidth");
    ck_assert_str_eq(st_dim_noun(ST_DIM_BANDWIDTH), "a bandwidth");
    ck_assert_str_eq(st_dim_noun(ST_DIM_PRICE_ENERGY), "an energy price");
    ck_assert_str_eq(st_dim_noun(ST_DIM_MONEY), "an amount of money");
    ck_assert_str_eq(st_dim_example(ST_DIM_BANDWIDTH), "'400 Gbit/s' or '900 GB/s'");
    ck_assert_str_eq(st_dim_name(ST_DIM__COUNT), "unknown dimension");
    for (int d = 0; d < ST_DIM__COUNT; d++)
        ck_assert(st_dim_name((st_dim)d)[0] && st_dim_noun((st_dim)d)[0]);
}
END_TEST

/* ---- Errors: the text the loader prints after "file:line:col: error: " --------------------- */

START_TEST(test_missing_unit_names_the_expected_dimension)
{
    expect_error("400", ST_DIM_BANDWIDTH,
                 "missing unit: expected a bandwidth such as '400 Gbit/s' or '900 GB/s'");
    expect_error("0", ST_DIM_TIME, "missing unit: expected a time such as '30 s' or '15 min'");
    expect_error(" 700 ", ST_DIM_POWER,
                 "missing unit: expected a power such as '700 W' or '80 kW'");
    expect_error("0.08", ST_DIM_PRICE_ENERGY,
                 "missing unit: expected an energy price such as '0.08 USD/kWh'");
}
END_TEST

START_TEST(test_wrong_dimension_names_expected_and_found)
{
    expect_error("400 W", ST_DIM_BANDWIDTH,
                 "wrong dimension: expected a bandwidth such as '400 Gbit/s' or '900 GB/s', "
                 "found a power ('400 W')");
    expect_error("5 s", ST_DIM_RATIO,
                 "wrong dimension: expected a plain ratio such as '2' or '60%', "
                 "found a time ('5 s')");
    expect_error("2 TB", ST_DIM_BANDWIDTH,
                 "wrong dimension: expected a bandwidth such as '400 Gbit/s' or '900 GB/s', "
                 "found a size in bytes ('2 TB')");
    expect_error("60%", ST_DIM_COUNT,
                 "wrong dimension: expected a count such as '2048' or '15T', "
                 "found a plain ratio ('60%')");
    expect_error("300000 USD", ST_DIM_PRICE_ENERGY,
                 "wrong dimension: expected an energy price such as '0.08 USD/kWh', "
                 "found an amount of money ('300000 USD')");
    expect_error("5 MW", ST_DIM_RAMP,
                 "wrong dimension: expected a power ramp such as '5 MW/s', found a power ('5 MW')");
    expect_error("15 B", ST_DIM_TIME,
                 "wrong dimension: expected a time such as '30 s' or '15 min', "
                 "found a size in bytes ('15 B')");
}
END_TEST

START_TEST(test_unknown_unit_suggests_close_spellings)
{
    expect_error("400 Gb/s", ST_DIM_BANDWIDTH,
                 "unknown unit 'Gb/s' for a bandwidth; did you mean 'Gbit/s' or 'GB/s'?");
    expect_error("400 Gbps", ST_DIM_BANDWIDTH,
                 "unknown unit 'Gbps' for a bandwidth; did you mean 'Gbit/s'?");
    expect_error("100 Kbps", ST_DIM_BANDWIDTH,
                 "unknown unit 'Kbps' for a bandwidth; did you mean 'kbit/s'?");
    expect_error("10 GBps", ST_DIM_BANDWIDTH,
                 "unknown unit 'GBps' for a bandwidth; did you mean 'GB/s'?");
    expect_error("100 Gbit", ST_DIM_BANDWIDTH,
                 "unknown unit 'Gbit' for a bandwidth; did you mean 'Gbit/s'?");
    expect_error("30 sec", ST_DIM_TIME, "unknown unit 'sec' for a time; did you mean 's'?");
    expect_error("5 m", ST_DIM_TIME, "unknown unit 'm' for a time; did you mean 'min' or 'ms'?");
    expect_error("5 \302\265s", ST_DIM_TIME,
                 "unknown unit '\302\265s' for a time; did you mean 'us'?");
    expect_error("5 msec", ST_DIM_TIME, "unknown unit 'msec' for a time; did you mean 'ms'?");
    expect_error("5 mins", ST_DIM_TIME, "unknown unit 'mins' for a time; did you mean 'min'?");
    expect_error("3 hours", ST_DIM_TIME, "unknown unit 'hours' for a time; did you mean 'h'?");
    expect_error("80 gb", ST_DIM_BYTES,
                 "unknown unit 'gb' for a size in bytes; did you mean 'GB'?");
    expect_error("64 kib", ST_DIM_BYTES,
                 "unknown unit 'kib' for a size in bytes; did you mean 'KiB'?");
    expect_error("700 w", ST_DIM_POWER, "unknown unit 'w' for a power; did you mean 'W'?");
    expect_error("989 TFLOPS", ST_DIM_FLOPS,
                 "unknown unit 'TFLOPS' for a compute rate; did you mean 'TFLOP/s'?");
    expect_error("0.08 $/kWh", ST_DIM_PRICE_ENERGY,
                 "unknown unit '$/kWh' for an energy price; did you mean 'USD/kWh'?");
    expect_error("0.08 USD/kwh", ST_DIM_PRICE_ENERGY,
                 "unknown unit 'USD/kwh' for an energy price; did you mean 'USD/kWh'?");
    expect_error("2 mOhm", ST_DIM_RESISTANCE,
                 "unknown unit 'mOhm' for a resistance; did you mean 'mohm'?");
    expect_error("2 m\316\251", ST_DIM_RESISTANCE,
                 "unknown unit 'm\316\251' for a resistance; did you mean 'mohm'?");
    expect_error("30 \302\260C", ST_DIM_TEMPERATURE,
                 "unknown unit '\302\260C' for a temperature; did you mean 'C'?");
    expect_error("7 percent", ST_DIM_RATIO,
                 "unknown unit 'percent' for a plain ratio; did you mean '%'?");
    expect_error("2.5 USD/hr", ST_DIM_PRICE_TIME,
                 "unknown unit 'USD/hr' for a price per time; did you mean 'USD/h'?");
}
END_TEST

START_TEST(test_unknown_unit_without_a_close_match_gives_an_example)
{
    expect_error("5 furlongs", ST_DIM_TIME,
                 "unknown unit 'furlongs': expected a time such as '30 s' or '15 min'");
    /* A count suffix means nothing outside counts, and kelvin is not Celsius. */
    expect_error("300 K", ST_DIM_TEMPERATURE,
                 "unknown unit 'K': expected a temperature such as '30 C'");
    expect_error("2x", ST_DIM_RATIO,
                 "unknown unit 'x': expected a plain ratio such as '2' or '60%'");
    expect_error("3 GHz", ST_DIM_FLOPS,
                 "unknown unit 'GHz': expected a compute rate such as '989 TFLOP/s'");
}
END_TEST

START_TEST(test_text_after_the_unit_is_refused)
{
    expect_error("400 Gbit/s extra", ST_DIM_BANDWIDTH,
                 "unexpected text 'extra' after '400 Gbit/s'");
    expect_error("5 s 3", ST_DIM_TIME, "unexpected text '3' after '5 s'");
    expect_error("5 W or so", ST_DIM_TIME, "unexpected text 'or so' after '5 W'");
}
END_TEST

START_TEST(test_garbage_number_is_refused_with_what_was_found)
{
    expect_error("abc", ST_DIM_BANDWIDTH,
                 "expected a bandwidth such as '400 Gbit/s' or '900 GB/s', found 'abc'");
    expect_error("GB", ST_DIM_BYTES,
                 "expected a size in bytes such as '80 GB' or '64 KiB', found 'GB'");
    expect_error("1.2.3 GB", ST_DIM_BYTES,
                 "expected a size in bytes such as '80 GB' or '64 KiB', found '1.2.3 GB'");
    expect_error("1,5 GB", ST_DIM_BYTES,
                 "expected a size in bytes such as '80 GB' or '64 KiB', found '1,5 GB'");
    expect_error("1_000 B", ST_DIM_BYTES,
                 "expected a size in bytes such as '80 GB' or '64 KiB', found '1_000 B'");
    expect_error("0x10 B", ST_DIM_BYTES,
                 "expected a size in bytes such as '80 GB' or '64 KiB', found '0x10 B'");
    expect_error("- 5 s", ST_DIM_TIME, "expected a time such as '30 s' or '15 min', found '- 5 s'");
    expect_error(". s", ST_DIM_TIME, "expected a time such as '30 s' or '15 min', found '. s'");
    expect_error("e5", ST_DIM_RATIO, "expected a number, found 'e5'");
    expect_error("--5", ST_DIM_RATIO, "expected a number, found '--5'");
}
END_TEST

START_TEST(test_nan_and_infinity_are_refused)
{
    expect_error("nan", ST_DIM_RATIO, "expected a number, found 'nan'");
    expect_error("NaN s", ST_DIM_TIME, "expected a time such as '30 s' or '15 min', found 'NaN s'");
    expect_error("inf", ST_DIM_COUNT, "expected a number, found 'inf'");
    expect_error("-Infinity W", ST_DIM_POWER,
                 "expected a power such as '700 W' or '80 kW', found '-Infinity W'");
}
END_TEST

START_TEST(test_empty_value_is_refused)
{
    expect_error("", ST_DIM_BANDWIDTH,
                 "empty value: expected a bandwidth such as '400 Gbit/s' or '900 GB/s'");
    expect_error(" \t ", ST_DIM_RATIO, "empty value: expected a plain ratio such as '2' or '60%'");
    expect_error(NULL, ST_DIM_TIME, "empty value: expected a time such as '30 s' or '15 min'");
}
END_TEST

START_TEST(test_out_of_range_numbers_are_refused)
{
    expect_error("1e400 s", ST_DIM_TIME, "number out of range: '1e400 s'");
    expect_error("1e300 EB", ST_DIM_BYTES, "number out of range: '1e300 EB'");
    expect_error("1e-400", ST_DIM_RATIO, "number out of range: '1e-400'");
    expect_error("1e99999999999 s", ST_DIM_TIME, "number out of range: '1e99999999999 s'");
}
END_TEST

START_TEST(test_long_input_is_cut_in_messages)
{
    expect_error("12 abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", ST_DIM_TIME,
                 "unknown unit 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...': "
                 "expected a time such as '30 s' or '15 min'");
}
END_TEST

START_TEST(test_message_buffer_may_be_small_or_absent)
{
    double v = 7;
    char why[8];
    ck_assert_int_eq(st_unit_parse("400 W", ST_DIM_TIME, &v, NULL, 0), ST_EUNIT);
    ck_assert_int_eq(st_unit_parse("400 W", ST_DIM_TIME, &v, why, sizeof why), ST_EUNIT);
    ck_assert_str_eq(why, "wron..."); /* cut on a character boundary, marked (sim/utf8.h) */
    ck_assert(v == 7);
}
END_TEST

/* st_unit_parse_n reads a field of a larger buffer: only its len bytes count. */
START_TEST(test_parse_n_reads_only_its_bytes)
{
    double v = 0;
    ck_assert_int_eq(st_unit_parse_n("25,8,prod", 2, ST_DIM_COUNT, 0, &v, NULL, 0), 0);
    ck_assert_double_eq(v, 25);
    ck_assert_int_eq(st_unit_parse_n("2 h,x", 3, ST_DIM_TIME, 0, &v, NULL, 0), 0);
    ck_assert_double_eq(v, 7200);
}
END_TEST

/* ST_UNIT_PLAIN: a trace's numeric column takes a number alone; hex, a suffix, a unit, NUL or
 * trailing bytes are refused. */
START_TEST(test_parse_n_plain_refuses_any_unit)
{
    double v = -1;
    char why[128];
    ck_assert_int_eq(st_unit_parse_n(" 42 ", 4, ST_DIM_COUNT, ST_UNIT_PLAIN, &v, why, sizeof why),
                     0);
    ck_assert_double_eq(v, 42);
    const char *bad[] = {"0x10", "15T", "2 h", "1e3x", "7;", "inf", "nan", "4 2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_int_eq(st_unit_parse_n(bad[i], strlen(bad[i]), ST_DIM_COUNT, ST_UNIT_PLAIN, &v,
                                         why, sizeof why),
                         ST_EUNIT);
    ck_assert_int_eq(st_unit_parse_n("15T", 3, ST_DIM_COUNT, ST_UNIT_PLAIN, &v, why, sizeof why),
                     ST_EUNIT);
    ck_assert_str_eq(why, "expected a plain number, found '15T'");
    ck_assert_int_eq(st_unit_parse_n("8\0", 3, ST_DIM_COUNT, ST_UNIT_PLAIN, &v, why, sizeof why),
                     ST_EUNIT);
    ck_assert_int_eq(st_unit_parse_n("8\0009", 3, ST_DIM_COUNT, ST_UNIT_PLAIN, &v, NULL, 0),
                     ST_EUNIT);
    ck_assert_double_eq(v, 42);
}
END_TEST

/* ST_UNIT_BARE_SI: a bare number is seconds for a time; with a unit it is converted. */
START_TEST(test_parse_n_bare_si)
{
    double v = 0;
    ck_assert_int_eq(st_unit_parse_n("90", 2, ST_DIM_TIME, ST_UNIT_BARE_SI, &v, NULL, 0), 0);
    ck_assert_double_eq(v, 90);
    ck_assert_int_eq(st_unit_parse_n("2 min", 5, ST_DIM_TIME, ST_UNIT_BARE_SI, &v, NULL, 0), 0);
    ck_assert_double_eq(v, 120);
    ck_assert_int_eq(st_unit_parse_n("90", 2, ST_DIM_TIME, 0, &v, NULL, 0), ST_EUNIT);
}
END_TEST

/* ST_UNIT_HUGE: a value past a double is +-HUGE_VAL with its unit still checked; without the
 * flag it is "number out of range"; a number too small for a double is refused either way. */
START_TEST(test_parse_n_huge)
{
    double v = 0;
    char why[128];
    ck_assert_int_eq(st_unit_parse_n("1e308 y", 7, ST_DIM_TIME, ST_UNIT_HUGE, &v, NULL, 0), 0);
    ck_assert(isinf(v) && v > 0);
    ck_assert_int_eq(st_unit_parse_n("1e999", 5, ST_DIM_COUNT, ST_UNIT_HUGE, &v, NULL, 0), 0);
    ck_assert(isinf(v) && v > 0);
    ck_assert_int_eq(st_unit_parse_n("-1e999 s", 8, ST_DIM_TIME, ST_UNIT_HUGE, &v, NULL, 0), 0);
    ck_assert(isinf(v) && v < 0);
    ck_assert_int_eq(st_unit_parse_n("1e999 W", 7, ST_DIM_TIME, ST_UNIT_HUGE, &v, why, sizeof why),
                     ST_EUNIT);
    ck_assert_ptr_nonnull(strstr(why, "wrong dimension"));
    ck_assert_int_eq(st_unit_parse_n("1e308 y", 7, ST_DIM_TIME, 0, &v, why, sizeof why), ST_EUNIT);
    ck_assert_str_eq(why, "number out of range: '1e308 y'");
    ck_assert_int_eq(st_unit_parse_n("1e-400 s", 8, ST_DIM_TIME, ST_UNIT_HUGE, &v, why, sizeof why),
                     ST_EUNIT);
    ck_assert_str_eq(why, "number out of range: '1e-400 s'");
}
END_TEST

/* A quoted input is cut at 40 bytes on a character boundary: a 3-byte character straddling
 * byte 40 is left out whole. */
START_TEST(test_quoted_input_cuts_on_a_character_boundary)
{
    char text[64], why[256];
    double v;
    memset(text, 'a', 39);
    strcpy(text + 39, "\xe4\xb8\xad\xe6\x96\x87 s"); /* 39 x 'a', then two CJK characters */
    ck_assert_int_eq(st_unit_parse(text, ST_DIM_TIME, &v, why, sizeof why), ST_EUNIT);
    char want[128];
    snprintf(want, sizeof want, "expected a time such as '30 s' or '15 min', found '%.39s...'",
             text);
    ck_assert_str_eq(why, want);
}
END_TEST

/* ---- Sniffing ------------------------------------------------------------------------------ */

START_TEST(test_sniff_names_the_dimension_of_the_unit)
{
    ck_assert_int_eq(st_unit_sniff("400 W"), ST_DIM_POWER);
    ck_assert_int_eq(st_unit_sniff("400 Gbit/s"), ST_DIM_BANDWIDTH);
    ck_assert_int_eq(st_unit_sniff("900GB/s"), ST_DIM_BANDWIDTH);
    ck_assert_int_eq(st_unit_sniff("2"), ST_DIM_RATIO);
    ck_assert_int_eq(st_unit_sniff("60%"), ST_DIM_RATIO);
    ck_assert_int_eq(st_unit_sniff("15T"), ST_DIM_COUNT);
    ck_assert_int_eq(st_unit_sniff("80 B"), ST_DIM_BYTES);
    ck_assert_int_eq(st_unit_sniff("4 y"), ST_DIM_TIME);
    ck_assert_int_eq(st_unit_sniff("2.5 USD/h"), ST_DIM_PRICE_TIME);
    ck_assert_int_eq(st_unit_sniff("1e400 s"), ST_DIM_TIME);
    ck_assert_int_eq(st_unit_sniff("5 parsecs"), ST_DIM__COUNT);
    ck_assert_int_eq(st_unit_sniff("abc"), ST_DIM__COUNT);
    ck_assert_int_eq(st_unit_sniff(""), ST_DIM__COUNT);
    ck_assert_int_eq(st_unit_sniff(NULL), ST_DIM__COUNT);
}
END_TEST

/* ---- Printing ------------------------------------------------------------------------------ */

START_TEST(test_format_picks_the_unit_that_keeps_the_mantissa_below_1000)
{
    ck_assert_str_eq(fmt(50e9, ST_DIM_BANDWIDTH), "50 GB/s");
    ck_assert_str_eq(fmt(3.35e12, ST_DIM_BANDWIDTH), "3.35 TB/s");
    ck_assert_str_eq(fmt(1e9, ST_DIM_BYTES), "1 GB");
    ck_assert_str_eq(fmt(1073741824, ST_DIM_BYTES), "1.074 GB");
    ck_assert_str_eq(fmt(512, ST_DIM_BYTES), "512 B");
    ck_assert_str_eq(fmt(989e12, ST_DIM_FLOPS), "989 TFLOP/s");
    ck_assert_str_eq(fmt(1.98e15, ST_DIM_FLOPS), "1.98 PFLOP/s");
    ck_assert_str_eq(fmt(700, ST_DIM_POWER), "700 W");
    ck_assert_str_eq(fmt(80e3, ST_DIM_POWER), "80 kW");
    ck_assert_str_eq(fmt(40e6, ST_DIM_POWER), "40 MW");
    ck_assert_str_eq(fmt(1234.56, ST_DIM_POWER), "1.235 kW");
    ck_assert_str_eq(fmt(999.96, ST_DIM_POWER), "1 kW");
    ck_assert_str_eq(fmt(-2500, ST_DIM_POWER), "-2.5 kW");
    ck_assert_str_eq(fmt(5e6, ST_DIM_RAMP), "5 MW/s");
    ck_assert_str_eq(fmt(13800, ST_DIM_VOLTAGE), "13.8 kV");
    ck_assert_str_eq(fmt(0.5, ST_DIM_CURRENT), "500 mA");
    ck_assert_str_eq(fmt(0.5e-3, ST_DIM_RESISTANCE), "500 uohm");
    ck_assert_str_eq(fmt(2e-3, ST_DIM_RESISTANCE), "2 mohm");
}
END_TEST

START_TEST(test_format_time_uses_minutes_hours_days_and_years)
{
    ck_assert_str_eq(fmt(2.5e-7, ST_DIM_TIME), "250 ns");
    ck_assert_str_eq(fmt(1.5e-6, ST_DIM_TIME), "1.5 us");
    ck_assert_str_eq(fmt(0.002, ST_DIM_TIME), "2 ms");
    ck_assert_str_eq(fmt(30, ST_DIM_TIME), "30 s");
    ck_assert_str_eq(fmt(59.9996, ST_DIM_TIME), "1 min");
    ck_assert_str_eq(fmt(90, ST_DIM_TIME), "1.5 min");
    ck_assert_str_eq(fmt(900, ST_DIM_TIME), "15 min");
    ck_assert_str_eq(fmt(14400, ST_DIM_TIME), "4 h");
    ck_assert_str_eq(fmt(54 * 86400.0, ST_DIM_TIME), "54 d");
    ck_assert_str_eq(fmt(999 * 86400.0, ST_DIM_TIME), "999 d");
    ck_assert_str_eq(fmt(4 * 365 * 86400.0, ST_DIM_TIME), "4 y");
    ck_assert_str_eq(fmt(1e-12, ST_DIM_TIME), "0.001 ns");
}
END_TEST

START_TEST(test_format_of_counts_ratios_money_prices_and_temperature)
{
    ck_assert_str_eq(fmt(16384, ST_DIM_COUNT), "16384");
    ck_assert_str_eq(fmt(999999, ST_DIM_COUNT), "999999");
    ck_assert_str_eq(fmt(1.5e13, ST_DIM_COUNT), "15T");
    ck_assert_str_eq(fmt(2e6, ST_DIM_COUNT), "2M");
    ck_assert_str_eq(fmt(3e9, ST_DIM_COUNT), "3B");
    ck_assert_str_eq(fmt(12.5, ST_DIM_COUNT), "12.5");
    ck_assert_str_eq(fmt(1234.56, ST_DIM_COUNT), "1235");
    ck_assert_str_eq(fmt(999999.7, ST_DIM_COUNT), "1M");
    ck_assert_str_eq(fmt(1234567, ST_DIM_COUNT), "1.235M");
    ck_assert_str_eq(fmt(0.6, ST_DIM_RATIO), "0.6");
    ck_assert_str_eq(fmt(2, ST_DIM_RATIO), "2");
    ck_assert_str_eq(fmt(1e-7, ST_DIM_RATIO), "1e-7");
    ck_assert_str_eq(fmt(0.00001234, ST_DIM_RATIO), "0.00001234");
    ck_assert_str_eq(fmt(350000, ST_DIM_MONEY), "350000 USD");
    ck_assert_str_eq(fmt(5e8, ST_DIM_MONEY), "500000000 USD");
    ck_assert_str_eq(fmt(0.08 / 3.6e6, ST_DIM_PRICE_ENERGY), "0.08 USD/kWh");
    ck_assert_str_eq(fmt(2.5 / 3600, ST_DIM_PRICE_TIME), "2.5 USD/h");
    ck_assert_str_eq(fmt(150 / 1e12, ST_DIM_PRICE_BYTES), "150 USD/TB");
    ck_assert_str_eq(fmt(30, ST_DIM_TEMPERATURE), "30 C");
    ck_assert_str_eq(fmt(-40, ST_DIM_TEMPERATURE), "-40 C");
}
END_TEST

/* A range prints both ends in one unit, its point estimate's where it has one (the larger
 * end's otherwise): a reader compares numbers, not units. */
START_TEST(test_format_range_in_one_unit)
{
    char buf[96];
    st_unit_format_range(18.43 * 3600, 1.238 * 86400, NAN, ST_DIM_TIME, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.7679 to 1.238 d");
    st_unit_format_range(18.43 * 3600, 1.238 * 86400, 23.4 * 3600, ST_DIM_TIME, buf, sizeof buf);
    ck_assert_str_eq(buf, "18.43 to 29.71 h"); /* beside "23.4 h wall" */
    st_unit_format_range(2.5e9, 4.1e12, NAN, ST_DIM_ENERGY, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.0025 to 4.1 TJ"); /* TJ: the unit 4.1e12 J prints in alone */
    st_unit_format_range(3, 2e6, NAN, ST_DIM_COUNT, buf, sizeof buf); /* counts: each end alone */
    ck_assert_str_eq(buf, "3 to 2M");
    st_unit_format_range(NAN, 5, NAN, ST_DIM_TIME, buf, sizeof buf);
    ck_assert_str_eq(buf, "nan to 5 s");
}
END_TEST

START_TEST(test_format_edge_values)
{
    ck_assert_str_eq(fmt(0, ST_DIM_TIME), "0 s");
    ck_assert_str_eq(fmt(-0.0, ST_DIM_BYTES), "0 B");
    ck_assert_str_eq(fmt(0, ST_DIM_BANDWIDTH), "0 B/s");
    ck_assert_str_eq(fmt(0, ST_DIM_CURRENT), "0 A");
    ck_assert_str_eq(fmt(0, ST_DIM_COUNT), "0");
    ck_assert_str_eq(fmt(1.5e33, ST_DIM_BYTES), "1.5e15 EB");
    ck_assert_str_eq(fmt(NAN, ST_DIM_POWER), "nan");
    ck_assert_str_eq(fmt(INFINITY, ST_DIM_POWER), "inf");
    ck_assert_str_eq(fmt(-INFINITY, ST_DIM_POWER), "-inf");
    ck_assert_int_eq(st_unit_format(50e9, ST_DIM_BANDWIDTH, NULL, 0), 7);
    char small[4];
    ck_assert_int_eq(st_unit_format(50e9, ST_DIM_BANDWIDTH, small, sizeof small), 7);
    ck_assert_str_eq(small, "50 ");
}
END_TEST

/* Over many magnitudes and both signs, printing and parsing back loses at most the fifth
 * significant digit, and printing the parsed value gives the same text again. */
START_TEST(test_format_then_parse_round_trips_in_every_dimension)
{
    static const double mant[] = {1, 1.234, 2.5, 3.14159, 5.55555, 9.9996, 99.95, 999.95, 7.0001};
    st_dim d = (st_dim)_i;
    int checked = 0;
    for (int e = -15; e <= 24; e++) {
        for (size_t k = 0; k < sizeof mant / sizeof mant[0]; k++) {
            for (int sign = -1; sign <= 1; sign += 2) {
                double v = sign * mant[k] * pow(10, e), back = 0;
                char text[64], again[64], why[256] = "";
                st_unit_format(v, d, text, sizeof text);
                int rc = st_unit_parse(text, d, &back, why, sizeof why);
                ck_assert_msg(rc == 0, "%s: '%s' refused: %s", st_dim_name(d), text, why);
                ck_assert_msg(fabs(back - v) <= 5.0001e-4 * fabs(v), "%s: %.17g -> '%s' -> %.17g",
                              st_dim_name(d), v, text, back);
                st_unit_format(back, d, again, sizeof again);
                ck_assert_str_eq(again, text);
                checked++;
            }
        }
    }
    ck_assert_int_gt(checked, 500);
}
END_TEST

START_TEST(test_format_never_uses_an_exponent_inside_the_unit_range)
{
    static const struct {
        st_dim d;
        double lo, hi;
    } ranges[] = {
        {ST_DIM_TIME, 1e-9, 1e12},      {ST_DIM_BYTES, 1, 1e21},  {ST_DIM_BANDWIDTH, 1, 1e18},
        {ST_DIM_FLOPS, 1, 1e21},        {ST_DIM_POWER, 1, 1e12},  {ST_DIM_RAMP, 1, 1e12},
        {ST_DIM_RESISTANCE, 1e-6, 1e6}, {ST_DIM_COUNT, 1, 1e15},  {ST_DIM_MONEY, 0.01, 1e12},
        {ST_DIM_CURRENT, 1e-3, 1e6},    {ST_DIM_VOLTAGE, 1, 1e6},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        for (double v = ranges[i].lo; v < ranges[i].hi; v *= 3.7)
            ck_assert_msg(!strchr(fmt(v, ranges[i].d), 'e'), "%g: %s", v, fmt(v, ranges[i].d));
}
END_TEST

/* A German locale writes "1,5": neither parsing nor printing may follow it. */
/* A share as a percentage: 4 significant digits, a tiny one in decimals, and one past any
 * buffer's decimals (1e-300 printed 301 of them, cut to "0.0000..." in a 32-byte buffer) as
 * its bound; every one fits 17 bytes. */
START_TEST(test_percent_of_every_size_fits)
{
    static const struct {
        double share;
        const char *want;
    } c[] = {{0.25, "25%"},
             {0.0004836, "0.04836%"},
             {5.651e-7, "0.000057%"},
             {1e-300, "under 0.000001%"},
             {-1e-300, "above -0.000001%"},
             {0, "0%"}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char buf[17];
        int n = st_unit_percent(c[i].share, buf, sizeof buf);
        ck_assert_int_lt(n, (int)sizeof buf);
        ck_assert_str_eq(buf, c[i].want);
    }
}
END_TEST

START_TEST(test_parse_and_format_ignore_the_locale)
{
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ru_RU.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (setlocale(LC_ALL, names[i]))
            break;
    ck_assert_double_eq(parse_ok("1.5 s", ST_DIM_TIME), 1.5);
    ck_assert_str_eq(fmt(1.5, ST_DIM_TIME), "1.5 s");
    ck_assert_str_eq(fmt(0.08 / 3.6e6, ST_DIM_PRICE_ENERGY), "0.08 USD/kWh");
    setlocale(LC_ALL, "C");
}
END_TEST

Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *parse = tcase_create("parse");
    tcase_add_test(parse, test_time_parses_every_unit_into_seconds);
    tcase_add_test(parse, test_ratio_takes_n_colon_m);
    tcase_add_test(parse, test_space_between_number_and_unit_is_optional_and_edges_are_trimmed);
    tcase_add_test(parse, test_bytes_with_si_prefixes_step_by_1000);
    tcase_add_test(parse, test_bytes_with_iec_prefixes_step_by_1024);
    tcase_add_test(parse, test_bandwidth_in_bits_is_an_eighth_of_the_same_in_bytes);
    tcase_add_test(parse, test_compute_rate_power_and_ramp_parse);
    tcase_add_test(parse, test_electrical_and_thermal_units_parse);
    tcase_add_test(parse, test_money_and_prices_become_usd_per_si_unit);
    tcase_add_test(parse, test_ratio_is_a_bare_number_or_a_percentage);
    tcase_add_test(parse, test_count_takes_k_m_b_t_suffixes_or_an_exact_integer);
    tcase_add_test(parse, test_numbers_take_every_decimal_form);
    tcase_add_test(parse, test_numbers_round_like_strtod);
    tcase_add_test(parse, test_every_dimension_example_parses_as_its_dimension);
    tcase_add_test(parse, test_dimension_names_and_nouns);
    suite_add_tcase(s, parse);

    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_missing_unit_names_the_expected_dimension);
    tcase_add_test(errors, test_wrong_dimension_names_expected_and_found);
    tcase_add_test(errors, test_unknown_unit_suggests_close_spellings);
    tcase_add_test(errors, test_unknown_unit_without_a_close_match_gives_an_example);
    tcase_add_test(errors, test_text_after_the_unit_is_refused);
    tcase_add_test(errors, test_garbage_number_is_refused_with_what_was_found);
    tcase_add_test(errors, test_nan_and_infinity_are_refused);
    tcase_add_test(errors, test_empty_value_is_refused);
    tcase_add_test(errors, test_out_of_range_numbers_are_refused);
    tcase_add_test(errors, test_long_input_is_cut_in_messages);
    tcase_add_test(errors, test_message_buffer_may_be_small_or_absent);
    tcase_add_test(errors, test_sniff_names_the_dimension_of_the_unit);
    tcase_add_test(errors, test_parse_n_reads_only_its_bytes);
    tcase_add_test(errors, test_parse_n_plain_refuses_any_unit);
    tcase_add_test(errors, test_parse_n_bare_si);
    tcase_add_test(errors, test_parse_n_huge);
    tcase_add_test(errors, test_quoted_input_cuts_on_a_character_boundary);
    suite_add_tcase(s, errors);

    TCase *format = tcase_create("format");
    tcase_add_test(format, test_format_picks_the_unit_that_keeps_the_mantissa_below_1000);
    tcase_add_test(format, test_format_time_uses_minutes_hours_days_and_years);
    tcase_add_test(format, test_format_of_counts_ratios_money_prices_and_temperature);
    tcase_add_test(format, test_format_edge_values);
    tcase_add_test(format, test_format_range_in_one_unit);
    tcase_add_loop_test(format, test_format_then_parse_round_trips_in_every_dimension, 0,
                        ST_DIM__COUNT);
    tcase_add_test(format, test_format_never_uses_an_exponent_inside_the_unit_range);
    tcase_add_test(format, test_parse_and_format_ignore_the_locale);
    tcase_add_test(format, test_percent_of_every_size_fits);
    suite_add_tcase(s, format);
    return s;
}
