/* The run command's replicas in both report writers: `strata run --replicas N` as a user types
 * it, the JSON file it writes with -o and the text it prints. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define LIFE_YAML ST_SOURCE_DIR "/tests/golden/life.yaml"

/* The whole of a file, NUL-terminated; the caller frees it. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Run `strata run life.yaml --replicas N -o JSON` with stdout in a file; returns the exit status
 * and hands back the parsed JSON report's first job and the text report. */
static int run_replicas(const char *n, cJSON **report, char **text)
{
    char json_path[] = "/tmp/strata-report-XXXXXX", text_path[] = "/tmp/strata-text-XXXXXX";
    int fj = mkstemp(json_path), ft = mkstemp(text_path);
    ck_assert(fj >= 0 && ft >= 0);
    close(fj);
    close(ft);
    fflush(stdout);
    ck_assert_ptr_nonnull(freopen(text_path, "w", stdout));
    char *argv[] = {"run", LIFE_YAML, "--replicas", (char *)n, "-o", json_path, NULL};
    int rc = st_cmd_run(6, argv);
    fflush(stdout);
    char *json = slurp(json_path);
    *report = cJSON_Parse(json);
    *text = slurp(text_path);
    free(json);
    unlink(json_path);
    unlink(text_path);
    return rc;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "key '%s' missing", key);
    return v->valuedouble;
}

static const cJSON *replicas_of(const cJSON *report)
{
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(report, "jobs");
    const cJSON *rp = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(jobs, 0), "replicas");
    ck_assert_ptr_nonnull(rp);
    return rp;
}

/* One replica runs and reports: its percentiles are its own wall time, and there is no interval
 * (no ci95 keys, and the text says why) rather than a zero-width one. */
START_TEST(test_one_replica_reports_percentiles_and_no_interval)
{
    cJSON *report;
    char *text;
    ck_assert_int_eq(run_replicas("1", &report, &text), ST_EXIT_OK);
    ck_assert_ptr_nonnull(report);
    const cJSON *rp = replicas_of(report);
    ck_assert_double_eq(num(rp, "n"), 1);
    const char *figs[] = {"wall_s", "goodput", "interruptions", "lost_work_s"};
    for (int i = 0; i < 4; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(rp, figs[i]);
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(f, "ci95_lo"));
        ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(f, "ci95_hi"));
        ck_assert_double_eq(num(f, "p10"), num(f, "mean"));
        ck_assert_double_eq(num(f, "p99"), num(f, "mean"));
    }
    const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "jobs"), 0);
    const cJSON *wall = cJSON_GetObjectItemCaseSensitive(rp, "wall_s");
    ck_assert_double_eq_tol(num(wall, "p50"), num(job, "end_s") - num(job, "start_s"),
                            1e-9 * num(wall, "p50"));
    char *sec = strstr(text, "replicas  1 life: no confidence interval from one sample");
    ck_assert_ptr_nonnull(sec);
    char *end = strstr(sec, "\n\n");
    if (end)
        *end = '\0';
    ck_assert_ptr_null(strstr(sec, " to ")); /* no interval printed */
    ck_assert_ptr_nonnull(strstr(sec, "P99"));
    cJSON_Delete(report);
    free(text);
}
END_TEST

/* Several replicas: the mean with its interval and the percentiles of every figure, in order,
 * in both writers. */
START_TEST(test_replicas_report_mean_interval_and_percentiles)
{
    cJSON *report;
    char *text;
    ck_assert_int_eq(run_replicas("40", &report, &text), ST_EXIT_OK);
    const cJSON *rp = replicas_of(report);
    ck_assert_double_eq(num(rp, "n"), 40);
    const char *figs[] = {"wall_s", "goodput", "interruptions", "lost_work_s"};
    for (int i = 0; i < 4; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(rp, figs[i]);
        ck_assert(num(f, "ci95_lo") <= num(f, "mean") && num(f, "mean") <= num(f, "ci95_hi"));
        ck_assert(num(f, "p10") <= num(f, "p50") && num(f, "p50") <= num(f, "p90") &&
                  num(f, "p90") <= num(f, "p99"));
    }
    const cJSON *wall = cJSON_GetObjectItemCaseSensitive(rp, "wall_s");
    ck_assert(num(wall, "p10") < num(wall, "p99"));
    ck_assert_ptr_nonnull(strstr(text, "40 lives"));
    ck_assert_ptr_nonnull(strstr(text, "P99"));
    ck_assert_ptr_nonnull(strstr(text, "lost work (h)"));
    cJSON_Delete(report);
    free(text);
}
END_TEST

/* Zero replicas stays a usage error. */
START_TEST(test_zero_replicas_is_a_usage_error)
{
    fflush(stderr);
    ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));
    char *argv[] = {"run", LIFE_YAML, "--replicas", "0", NULL};
    ck_assert_int_eq(st_cmd_run(4, argv), ST_EXIT_INPUT);
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("replicas");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_one_replica_reports_percentiles_and_no_interval);
    tcase_add_test(tc, test_replicas_report_mean_interval_and_percentiles);
    tcase_add_test(tc, test_zero_replicas_is_a_usage_error);
    suite_add_tcase(s, tc);
    return s;
}
