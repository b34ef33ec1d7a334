/* The error band (models/forecast/band.h): the conformal order statistics of the comparable
 * runs' residuals, the nearest tier with enough runs, leave-one-out and leave-one-set-out, the
 * product with a spread of its own, and the band a run's forecast carries. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/band.h"
#include "models/forecast/run.h"
#include "scenarios/scenario.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const st_band_key hopper = {ST_GPU_ARCH_HOPPER, 0, ST_PREC_BF16, 64};

/* n rows of key k with ratios 1 + i / 100, i = 0 .. n - 1, from rows[at]. */
static void fill(st_band_row *rows, size_t at, size_t n, st_band_key k, const char *set)
{
    for (size_t i = 0; i < n; i++)
        rows[at + i] = (st_band_row){"r", set, k, 1 + (double)i / 100};
}

/* The ends are the order statistics of the residuals taken both ways (r and 1 / r): the band
 * is e^-q to e^q, q at least split conformal's ceil((n + 1) 0.8)-th absolute log residual, so a
 * set of runs all measured slower than predicted still bounds an error the other way. */
START_TEST(test_ends_are_the_conformal_order_statistics)
{
    st_band_row rows[19];
    st_band b;
    /* n = 9, 18 ratios: ranks floor(19 x 0.1) = 1 and ceil(19 x 0.9) = 18, the extremes */
    fill(rows, 0, 9, hopper, "a");
    ck_assert_int_eq(st_band_from(hopper, rows, 9, -1, NULL, &b), 0);
    ck_assert_double_eq_tol(b.lo, 1 / 1.08, 1e-12);
    ck_assert_double_eq_tol(b.hi, 1.08, 1e-12);
    ck_assert_int_eq(b.runs, 9);
    ck_assert_int_eq(b.tier, ST_BAND_CLOSE);
    /* n = 19, 38 ratios: ranks 3 and 36, the third from each end: 1 / 1.16 and 1.16, where the
     * absolute residuals' own rank ceil(20 x 0.8) = 16 would give 1.15 (never wider) */
    fill(rows, 0, 19, hopper, "a");
    ck_assert_int_eq(st_band_from(hopper, rows, 19, -1, NULL, &b), 0);
    ck_assert_double_eq_tol(b.lo, 1 / 1.16, 1e-12);
    ck_assert_double_eq_tol(b.hi, 1.16, 1e-12);
    /* runs measured faster than predicted bound the slower side alike */
    for (int i = 0; i < 19; i++)
        rows[i].ratio = 1 / rows[i].ratio;
    st_band f;
    ck_assert_int_eq(st_band_from(hopper, rows, 19, -1, NULL, &f), 0);
    ck_assert_double_eq_tol(f.lo, b.lo, 1e-12);
    ck_assert_double_eq_tol(f.hi, b.hi, 1e-12);
}
END_TEST

START_TEST(test_too_few_runs_widen_the_tier)
{
    st_band_row rows[20];
    st_band_key far = hopper, other = {ST_GPU_ARCH_AMPERE, 0, ST_PREC_BF16, 64};
    far.gpus = 64 * 16; /* beyond the factor of 8: not close, same architecture */
    fill(rows, 0, 5, hopper, "a");
    fill(rows, 5, 5, far, "b");
    fill(rows, 10, 10, other, "c");
    st_band b;
    ck_assert_int_eq(st_band_from(hopper, rows, 10, -1, NULL, &b), 0);
    ck_assert_int_eq(b.tier, ST_BAND_ARCH);
    ck_assert_int_eq(b.runs, 10);
    ck_assert_int_eq(st_band_from(hopper, rows, 20, 0, NULL, &b), 0); /* 9 left on hopper */
    ck_assert_int_eq(b.tier, ST_BAND_ARCH);
    ck_assert_int_eq(b.runs, 9);
    ck_assert_int_eq(st_band_from(hopper, rows, 20, -1, "a", &b), 0); /* set a left out */
    ck_assert_int_eq(b.tier, ST_BAND_KIND);
    ck_assert_int_eq(b.runs, 15);
    st_band_key moe = hopper;
    moe.moe = 1; /* no MoE run at all: every run, said so */
    ck_assert_int_eq(st_band_from(moe, rows, 20, -1, NULL, &b), 0);
    ck_assert_int_eq(b.tier, ST_BAND_ANY);
    char basis[160];
    st_band_basis(&b, moe, basis, sizeof basis);
    ck_assert_str_eq(basis, "20 published runs, none like this job (hopper MoE)");
    ck_assert_int_eq(st_band_from(hopper, rows, 8, -1, NULL, &b), -1);
}
END_TEST

START_TEST(test_a_spread_of_its_own_widens_the_band)
{
    /* one draw: the step band times it */
    st_band b;
    ck_assert_int_eq(st_band_of(hopper, &b), 0);
    double one = 100, lh[2];
    st_band_scale(hopper, &b, &one, 1, lh);
    ck_assert_double_eq_tol(lh[0], 100 * b.lo, 1e-9);
    ck_assert_double_eq_tol(lh[1], 100 * b.hi, 1e-9);
    /* draws spread over 80 to 120: the products' ends lie between the extremes' products, and
     * twice the draws give twice the band */
    double x[101], x2[101], l2[2];
    for (int i = 0; i <= 100; i++)
        x[i] = 80 + 0.4 * i, x2[i] = 2 * x[i];
    st_band_scale(hopper, &b, x, 101, lh);
    st_band_scale(hopper, &b, x2, 101, l2);
    double rmin = INFINITY, rmax = 0;
    for (size_t i = 0; i < st_band_row_count; i++) { /* each run both ways */
        double r = st_band_rows[i].ratio;
        rmin = fmin(rmin, fmin(r, 1 / r)), rmax = fmax(rmax, fmax(r, 1 / r));
    }
    ck_assert(lh[0] >= 80 * rmin && lh[1] <= 120 * rmax && lh[0] < lh[1]);
    ck_assert(lh[0] < 100 * b.hi && lh[1] > 100 * b.lo);
    ck_assert_double_eq_tol(l2[0], 2 * lh[0], 1e-9);
    ck_assert_double_eq_tol(l2[1], 2 * lh[1], 1e-9);
    /* 101 draws that do not differ give the one draw's band: the ends keep the runs' ranks (a
     * review found --replicas on a run without failures narrowing it) */
    double same[101];
    for (int i = 0; i <= 100; i++)
        same[i] = 100;
    st_band_scale(hopper, &b, same, 101, lh);
    ck_assert_double_eq_tol(lh[0], 100 * b.lo, 1e-9);
    ck_assert_double_eq_tol(lh[1], 100 * b.hi, 1e-9);
}
END_TEST

/* --confidence's one-sided end at q: e^s, s the absolute log residual of rank ceil((n + 1) q)
 * among the tier's n runs, so it grows with q, tops the two-sided band at 0.9, and stops
 * where n runs cannot reach q. */
START_TEST(test_the_one_sided_end_is_the_absolute_residual_rank)
{
    st_band b;
    double q80, q90, q95;
    ck_assert_int_eq(st_band_upper(hopper, 0.8, &q80, &b), 0);
    ck_assert_int_eq(st_band_upper(hopper, 0.9, &q90, NULL), 0);
    ck_assert_int_eq(st_band_upper(hopper, 0.95, &q95, NULL), 0);
    ck_assert(q80 <= q90 && q90 <= q95);
    ck_assert(q90 >= b.hi);
    /* never lower at a higher level, even where the level needs a wider tier than the one
     * below it (each catalog architecture, dense and MoE, BF16 and FP8, small and large) */
    for (int a = ST_GPU_ARCH_AMPERE; a <= ST_GPU_ARCH_CDNA3; a++)
        for (int moe = 0; moe < 2; moe++)
            for (int fp8 = 0; fp8 < 2; fp8++)
                for (int64_t g = 8; g <= 16384; g *= 8) {
                    st_band_key k = {(st_gpu_arch)a, moe, fp8 ? ST_PREC_FP8 : ST_PREC_BF16, g};
                    double prev = 0, e;
                    for (double q = 0.5; q < 0.995; q += 0.01)
                        if (st_band_upper(k, q, &e, NULL) == 0) {
                            ck_assert_msg(e >= prev,
                                          "arch %d moe %d fp8 %d gpus %lld: %.3f at %.2f "
                                          "below %.3f",
                                          a, moe, fp8, (long long)g, e, q, prev);
                            prev = e;
                        }
                }
    /* the rank: among the close tier's runs (same architecture, kind and precision, GPUs
     * within a factor of 8), |ln r| of rank ceil((n + 1) 0.9) */
    ck_assert_int_eq(b.tier, ST_BAND_CLOSE);
    double *s = malloc(st_band_row_count * sizeof *s);
    int n = 0;
    for (size_t i = 0; i < st_band_row_count; i++) {
        const st_band_key *k = &st_band_rows[i].key;
        double g = (double)k->gpus / (double)hopper.gpus;
        if (k->arch == hopper.arch && k->moe == hopper.moe && k->prec == hopper.prec && g <= 8 &&
            g >= 1.0 / 8)
            s[n++] = fabs(log(st_band_rows[i].ratio));
    }
    ck_assert_int_eq(n, b.runs);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    ck_assert_double_eq_tol(q90, exp(s[(int)ceil((n + 1) * 0.9 - 1e-9) - 1]), 1e-12);
    free(s);
    double q;
    ck_assert_int_eq(st_band_upper(hopper, 0.99999, &q, NULL), -1);
}
END_TEST

START_TEST(test_the_table_is_the_public_step_sets)
{
    ck_assert_uint_ge(st_band_row_count, 100);
    for (size_t i = 0; i < st_band_row_count; i++) {
        const st_band_row *r = &st_band_rows[i];
        ck_assert_msg(isfinite(r->ratio) && r->ratio > 0.2 && r->ratio < 5, "%s: ratio %g", r->name,
                      r->ratio);
        ck_assert(r->key.gpus >= 1);
    }
}
END_TEST

/* A cluster calibrated on one step: the transfer runs' own order statistics; leaving a set out
 * drops its runs; its own residuals widen the band by the products; a calibration without
 * steps keeps the public runs' band. */
START_TEST(test_a_calibrated_band_is_the_transfer_runs_times_the_fits)
{
    size_t nt = st_band_transfer_row_count, left = 0;
    ck_assert_uint_ge(nt, ST_BAND_MIN_RUNS);
    size_t n2 = 2 * nt; /* each transfer run both ways */
    double *r = malloc(n2 * sizeof *r);
    for (size_t i = 0; i < nt; i++) {
        r[2 * i] = st_band_transfer_rows[i].ratio;
        r[2 * i + 1] = 1 / st_band_transfer_rows[i].ratio;
        left += strcmp(st_band_transfer_rows[i].set, "mpt") != 0;
    }
    qsort(r, n2, sizeof *r, cmp_double);
    st_band b;
    ck_assert_int_eq(st_band_calibrated(NULL, 0, NULL, &b), 0);
    ck_assert_int_eq(b.tier, ST_BAND_CALIBRATED);
    ck_assert_int_eq(b.runs, (int)nt);
    int up = (int)ceil((n2 + 1) * 0.9 - 1e-9), dn = (int)floor((n2 + 1) * 0.1 + 1e-9);
    ck_assert_double_eq(b.hi, r[(up > (int)n2 ? (int)n2 : up) - 1]);
    ck_assert_double_eq(b.lo, r[dn - 1]);
    ck_assert_int_eq(st_band_calibrated(NULL, 0, "mpt", &b), 0);
    ck_assert_int_eq(b.runs, (int)left);
    const double own[3] = {0.8, 1.0, 1.25};
    st_band w;
    ck_assert_int_eq(st_band_calibrated(own, 3, NULL, &w), 0);
    ck_assert(w.lo < r[dn - 1] && w.hi > r[up - 1]);
    char basis[200];
    st_band_basis(&w, hopper, basis, sizeof basis);
    ck_assert_msg(strstr(basis, "3 runs measured on this cluster") != NULL, "%s", basis);
    /* the one-sided end at 0.9 is e^s, s the product's absolute log residual of rank
     * ceil((N + 1) 0.9): at least the two-sided band's top, whose own is ceil((2N + 1) 0.9) - N */
    double q;
    ck_assert_int_eq(st_band_calibrated_upper(&w, 0.9, &q), 0);
    int np = 3 * (int)nt;
    double *s = malloc((size_t)np * sizeof *s);
    int k = 0;
    for (size_t j = 0; j < nt; j++)
        for (int i = 0; i < 3; i++)
            s[k++] = fabs(log(own[i] * st_band_transfer_rows[j].ratio));
    qsort(s, (size_t)np, sizeof *s, cmp_double);
    ck_assert_double_eq_tol(q, exp(s[(int)ceil((np + 1) * 0.9 - 1e-9) - 1]), 1e-12);
    ck_assert(q >= w.hi);
    free(s);
    st_calib_cfg cal = {.enabled = 1, .compute_bf16 = 0.9}; /* GEMMs, no steps */
    ck_assert_int_eq(st_band_of_calib(&cal, &b), -1);
    cal.steps = 1;
    ck_assert_int_eq(st_band_of_calib(&cal, &b), 0);
    free(r);
}
END_TEST

/* A run's forecast carries the band of its job's key, and its rates' bands are the step's
 * inverted. */
START_TEST(test_a_forecast_carries_its_band)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(
        st_scn_load_file(ST_SOURCE_DIR "/scenarios/validation/k22-175b-full.yaml", &s, &d), 0);
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .seed = st_scn_seed(s)};
    st_run run;
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, &run, &err), 0);
    const st_forecast *f = &run.f[0];
    ck_assert(f->has_band);
    st_band b;
    ck_assert_int_eq(st_band_of(st_band_key_of(f->w, spec.c->gpu), &b), 0);
    ck_assert_double_eq(f->band.lo, b.lo);
    ck_assert_double_eq(f->band.hi, b.hi);
    ck_assert(b.lo < b.hi);
    ck_assert_int_eq(b.tier, ST_BAND_CLOSE); /* A100 dense BF16 at 64 GPUs: many such runs */
    if (f->has_life) { /* one life: the wall's band is its wall times the step's */
        ck_assert_double_eq_tol(f->wall_band[0], f->life.wall_s * b.lo, 1e-6 * f->life.wall_s);
        ck_assert_double_eq_tol(f->wall_band[1], f->life.wall_s * b.hi, 1e-6 * f->life.wall_s);
    }
    st_run_release(&run);
    st_scn_free(s);
}
END_TEST

Suite *band_suite(void)
{
    Suite *s = suite_create("band");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_ends_are_the_conformal_order_statistics);
    tcase_add_test(tc, test_too_few_runs_widen_the_tier);
    tcase_add_test(tc, test_a_spread_of_its_own_widens_the_band);
    tcase_add_test(tc, test_the_table_is_the_public_step_sets);
    tcase_add_test(tc, test_the_one_sided_end_is_the_absolute_residual_rank);
    tcase_add_test(tc, test_a_forecast_carries_its_band);
    tcase_add_test(tc, test_a_calibrated_band_is_the_transfer_runs_times_the_fits);
    suite_add_tcase(s, tc);
    return s;
}
