/* `strata validate`: run the published cases and print predicted against measured, with the
 * error; exit 1 when a validation row misses its bound. docs/validation.md is this command's
 * Markdown output, checked in CI to match. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "scenarios/valid_fabric.h"
#include "sim/progress.h"
#include "sim/xalloc.h"

typedef struct tally {
    int counted, passed;
    double sum_abs, max_abs; /* over counted busbw rows (relative errors) */
    int n_rel;
} tally;

static void print_row(const st_valid_row *r, int md)
{
    char err[32];
    if (r->bound_is_factor)
        snprintf(err, sizeof err, "x%.2f", r->predicted / r->measured);
    else
        snprintf(err, sizeof err, "%+.1f%%", r->error * 100);
    const char *verdict =
        r->kind == ST_VALID_VALIDATION ? (r->pass ? "pass" : "FAIL") : st_valid_kind_name(r->kind);
    if (md)
        printf("| %s | %s | %s | %.4g | %.4g | %s | %s | %s/%s | %s |\n", r->name,
               st_valid_kind_name(r->kind), r->metric, r->measured, r->predicted, err, verdict,
               r->algo, r->proto, r->source);
    else
        printf("%-26s %-11s %-10s %10.4g %10.4g %8s  %-11s %s/%s\n", r->name,
               st_valid_kind_name(r->kind), r->metric, r->measured, r->predicted, err, verdict,
               r->algo, r->proto);
}

static void count_row(const st_valid_row *r, tally *t)
{
    if (r->kind != ST_VALID_VALIDATION)
        return;
    t->counted++;
    t->passed += r->pass;
    if (!r->bound_is_factor) {
        t->n_rel++;
        t->sum_abs += fabs(r->error);
        if (fabs(r->error) > t->max_abs)
            t->max_abs = fabs(r->error);
    }
}

static int run_fabric(int md)
{
    tally t = {0};
    if (md)
        printf("## Fabric: nccl-tests collectives\n\n"
               "Bound: bus bandwidth within 10%%, small-size time within a factor of 2. "
               "Calibration rows set a constant and reference rows fall outside the model "
               "(docs/fabric.md); neither counts.\n\n"
               "| case | kind | metric | measured | predicted | error | result | algo/proto | "
               "source |\n|---|---|---|---|---|---|---|---|---|\n");
    else
        printf("%-26s %-11s %-10s %10s %10s %8s  %-11s %s\n", "case", "kind", "metric", "measured",
               "predicted", "error", "result", "algo/proto");
    for (size_t i = 0; i < st_valid_fabric_count(); i++) {
        st_valid_row r;
        st_err err = {0};
        if (st_valid_fabric_run(i, &r, &err)) {
            char line[512];
            st_err_format(&err, line, sizeof line);
            fprintf(stderr, "strata validate: case %zu: %s\n", i, line);
            return -1;
        }
        print_row(&r, md);
        count_row(&r, &t);
    }
    printf("%s%d of %d validation rows within their bound; busbw rows: mean |error| %.1f%%, "
           "max %.1f%%\n",
           md ? "\n" : "\nfabric: ", t.passed, t.counted, t.n_rel ? 100 * t.sum_abs / t.n_rel : 0.0,
           100 * t.max_abs);
    return t.passed == t.counted ? 0 : 1;
}

/* ---- step set: the case files of scenarios/validation, each with a validation: section --- */

/* The goals each published set is held to (issue: Korthikanti within mean 3%, max 6%, the
 * bar Calculon's 3.65% / 8.87% sets; every other set median within 7%). */
static void set_bounds(const char *set, double *mean, double *max, double *median)
{
    *mean = *max = *median = INFINITY;
    if (strcmp(set, "korthikanti2022") == 0) {
        *mean = 0.03;
        *max = 0.06;
    } else {
        *median = 0.07;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **st_cli_case_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        names = st_xgrow(names, sizeof *names, *n + 1, &cap);
        char *path = st_xmalloc(strlen(dir) + len + 2);
        sprintf(path, "%s/%s", dir, e->d_name);
        names[(*n)++] = path;
    }
    closedir(d);
    qsort(names, *n, sizeof *names, by_name);
    return names;
}

typedef struct step_row {
    char name[64], set[48], source[160];
    double published, predicted, error;
    int fits; /* 0: the memory model says the plan does not fit, so there is no prediction */
    const char *metric;
} step_row;

static double metric_of(const st_step_result *r, st_valid_metric m)
{
    return m == ST_METRIC_STEP_TIME ? r->step_time_s
           : m == ST_METRIC_MFU     ? r->mfu
                                    : r->tflops_per_gpu;
}

/* Load one case, simulate its first workload's step and compare. */
static int run_case(const char *path, step_row *row)
{
    st_diag d = {0};
    st_scn *s = NULL;
    if (st_scn_load_file(path, &s, &d)) {
        st_cli_print_diag(&d);
        return -1;
    }
    const st_validation_cfg *v = st_scn_validation(s);
    st_step_ctx *x = NULL;
    st_forecast f;
    st_err err = {0};
    int rc = !v ? st_err_set(&err, ST_EINVAL, (st_loc){path, 0, 0}, "no validation: section")
             : v->metric > ST_METRIC_TFLOPS_PER_GPU
                 ? st_err_set(&err, ST_EINVAL, v->loc,
                              "metric is a whole-life metric: such cases go in DIR/life")
                 : st_step_ctx_new(st_scn_cluster(s), &x, &err);
    if (!rc)
        rc = st_forecast_job(x, st_scn_workload(s, 0), st_scn_cluster(s), &f, NULL, &err);
    if (!rc) {
        snprintf(row->name, sizeof row->name, "%s", st_scn_name(s));
        snprintf(row->set, sizeof row->set, "%s", v->set);
        snprintf(row->source, sizeof row->source, "%s", v->source);
        row->metric = st_scn_metric_name(v->metric);
        row->published = v->published;
        row->fits = f.has_step;
        row->predicted = f.has_step ? metric_of(&f.step, v->metric) : 0;
        row->error = f.has_step ? row->predicted / row->published - 1 : 0;
    } else {
        char line[512];
        st_err_format(&err, line, sizeof line);
        fprintf(stderr, "strata validate: %s\n", line);
    }
    st_step_ctx_free(x);
    st_scn_free(s);
    return rc ? -1 : 0;
}

static void print_step_row(const step_row *r, int md)
{
    char pred[32] = "no fit", err[16] = "";
    if (r->fits) {
        snprintf(pred, sizeof pred, "%.4g", r->predicted);
        snprintf(err, sizeof err, "%+.1f%%", 100 * r->error);
    }
    if (md)
        printf("| %s | %s | %s | %.4g | %s | %s | %s |\n", r->name, r->set, r->metric, r->published,
               r->fits ? pred : "does not fit", err, r->source);
    else
        printf("%-36s %-16s %-14s %10.4g %10s %8s\n", r->name, r->set, r->metric, r->published,
               pred, err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Summarise one set's rows; returns 1 when the set misses its goal. */
static int summarise_set(const char *set, const step_row *rows, size_t n, int md)
{
    double mean_b, max_b, median_b, sum = 0, max = 0, *abs_e = st_xmalloc(n * sizeof *abs_e);
    size_t k = 0, no_fit = 0;
    set_bounds(set, &mean_b, &max_b, &median_b);
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].set, set) == 0 && !rows[i].fits)
            no_fit++;
        else if (strcmp(rows[i].set, set) == 0) {
            abs_e[k] = fabs(rows[i].error);
            sum += abs_e[k];
            max = fmax(max, abs_e[k++]);
        }
    qsort(abs_e, k, sizeof *abs_e, cmp_double);
    double mean = k ? sum / (double)k : 0;
    double median = !k ? 0 : k % 2 ? abs_e[k / 2] : (abs_e[k / 2 - 1] + abs_e[k / 2]) / 2;
    free(abs_e);
    /* A published run the memory model says cannot fit is a miss of the memory model. */
    int miss = no_fit || mean > mean_b || max > max_b || median > median_b;
    printf("%s%s: %zu cases, mean |error| %.1f%%, median %.1f%%, max %.1f%%%s (goal: %s) %s\n",
           md ? "\n" : "", set, k, 100 * mean, 100 * median, 100 * max,
           no_fit ? "; plus cases that do not fit" : "",
           isfinite(mean_b) ? "mean <= 3%, max <= 6%" : "median <= 7%", miss ? "MISSED" : "met");
    if (no_fit)
        printf("%s  %zu published run%s do not fit in memory by the memory model\n", md ? "\n" : "",
               no_fit, no_fit == 1 ? "" : "s");
    return miss;
}

static int run_step(const char *dir, int md)
{
    size_t n = 0;
    char **files = st_cli_case_files(dir, &n);
    if (!n) {
        fprintf(stderr, "strata validate: no case files in '%s'\n", dir);
        free(files);
        return -1;
    }
    step_row *rows = st_xcalloc(n, sizeof *rows);
    int rc = 0;
    printf(md ? "\n## Step time: published training runs\n\n| case | set | metric | published | "
                "predicted | error | source |\n|---|---|---|---|---|---|---|\n"
              : "\n%-36s %-16s %-14s %10s %10s %8s\n",
           "case", "set", "metric", "published", "predicted", "error");
    for (size_t i = 0; i < n && !rc; i++) {
        rc = run_case(files[i], &rows[i]);
        if (rc)
            break;
        print_step_row(&rows[i], md);
        st_progress("step validation cases", (int64_t)i + 1, (int64_t)n);
    }
    int missed = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int first = 1;
        for (size_t j = 0; j < i; j++)
            first &= strcmp(rows[j].set, rows[i].set) != 0;
        if (first)
            missed |= summarise_set(rows[i].set, rows, n, md);
    }
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    free(rows);
    return rc ? -1 : missed;
}

int st_cmd_validate(int argc, char **argv)
{
    int md = 0, fabric = 0, step = 0, life = 0;
    const char *dir = "scenarios/validation";
    for (int i = 1; i < argc; i++) {
        if (st_cli_wants_help(argv[i], "validate"))
            return ST_EXIT_OK;
        if (strcmp(argv[i], "--markdown") == 0)
            md = 1;
        else if (strcmp(argv[i], "--fabric") == 0)
            fabric = 1;
        else if (strcmp(argv[i], "--step") == 0)
            step = 1;
        else if (strcmp(argv[i], "--life") == 0)
            life = 1;
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else
            return st_cli_usage_error("validate", "unknown argument '%s'", argv[i]);
    }
    if (!fabric && !step && !life)
        fabric = step = life = 1; /* no set named: all of them */
    if (md)
        printf("# Validation report\n\n"
               "Generated by `strata validate --markdown`; do not edit by hand (CI checks that "
               "this file matches the command's output).\n\n");
    int rc_f = fabric ? run_fabric(md) : 0;
    int rc_s = step ? run_step(dir, md) : 0;
    int rc_l = 0;
    if (life) {
        char *life_dir = st_xmalloc(strlen(dir) + 6);
        sprintf(life_dir, "%s/life", dir);
        rc_l = st_validate_life(life_dir, md);
        free(life_dir);
    }
    if (rc_f < 0 || rc_s < 0 || rc_l < 0)
        return ST_EXIT_INPUT;
    return rc_f || rc_s || rc_l ? ST_EXIT_SIM : ST_EXIT_OK;
}
