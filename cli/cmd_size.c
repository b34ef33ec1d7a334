/* `strata size FILE --deadline DUR [--budget power=P,gpus=N] [--goal gpu-hours|cost] [--top N]
 * [--workload NAME]`: the capacity-sizing search (planner/size.c) for one training workload of
 * FILE, printed as the search's counts, a ranked table and the Pareto front. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report_out.h"
#include "planner/size.h"
#include "sim/units.h"

typedef struct size_opts {
    const char *file, *workload, *goal, *output;
    int format; /* st_report_format */
    double deadline_s, power_w;
    int64_t gpus;
    long top;
} size_opts;

/* One `KEY=VALUE` of --budget: power (a power, "30MW") or gpus (a count). */
static int parse_budget_item(const char *item, size_opts *o)
{
    char why[200];
    double v = 0;
    if (strncmp(item, "power=", 6) == 0) {
        if (st_unit_parse(item + 6, ST_DIM_POWER, &v, why, sizeof why) || !(v > 0))
            return st_cli_usage_error("size",
                                      "--budget power=%s: expected a power above 0 "
                                      "such as 30MW",
                                      item + 6);
        o->power_w = v;
    } else if (strncmp(item, "gpus=", 5) == 0) {
        if (st_unit_parse(item + 5, ST_DIM_COUNT, &v, why, sizeof why) || !(v >= 1) || v > 1e9 ||
            v != floor(v))
            return st_cli_usage_error("size",
                                      "--budget gpus=%s: expected a whole number of "
                                      "GPUs from 1",
                                      item + 5);
        o->gpus = (int64_t)v;
    } else {
        return st_cli_usage_error("size", "--budget takes power=P and gpus=N, found '%s'", item);
    }
    return 0;
}

static int parse_budget(const char *val, size_opts *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", val);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (parse_budget_item(t, o))
            return ST_EXIT_INPUT;
    return 0;
}

/* One option with its value: 0 taken, > 0 a usage error, -1 not one of these. */
static int parse_one(const char *a, const char *val, size_opts *o)
{
    char why[200], *end = NULL;
    if (strcmp(a, "--deadline") && strcmp(a, "--budget") && strcmp(a, "--goal") &&
        strcmp(a, "--top") && strcmp(a, "--workload") && strcmp(a, "--format") && strcmp(a, "-o") &&
        strcmp(a, "--output"))
        return -1;
    if (!val)
        return st_cli_usage_error("size", "%s needs a value", a);
    if (strcmp(a, "--deadline") == 0) {
        if (st_unit_parse(val, ST_DIM_TIME, &o->deadline_s, why, sizeof why) ||
            !(o->deadline_s > 0))
            return st_cli_usage_error("size",
                                      "--deadline %s: expected a time above 0 such as "
                                      "90d",
                                      val);
    } else if (strcmp(a, "--budget") == 0) {
        return parse_budget(val, o);
    } else if (strcmp(a, "--goal") == 0) {
        if (strcmp(val, "gpu-hours") && strcmp(val, "cost"))
            return st_cli_usage_error("size", "--goal takes 'gpu-hours' or 'cost', found '%s'",
                                      val);
        o->goal = val;
    } else if (strcmp(a, "--top") == 0) {
        o->top = strtol(val, &end, 10);
        if (!end || *end || o->top < 1 || o->top > 1000)
            return st_cli_usage_error("size", "--top takes a whole number from 1 to 1000");
    } else if (strcmp(a, "--format") == 0) {
        if ((o->format = st_report_format_of(val)) < 0)
            return st_cli_usage_error("size", "--format takes text, json, html, markdown or csv");
    } else if (strcmp(a, "--workload") == 0) {
        o->workload = val;
    } else {
        o->output = val; /* -o, --output */
    }
    return 0;
}

/* parse_one behind the st_cli_opt_fn signature. */
static int opt_one(const char *a, const char *val, void *o)
{
    return parse_one(a, val, o);
}

static int parse_opts(int argc, char **argv, size_opts *o)
{
    o->top = 10;
    int rc = st_cli_parse_args("size", argc, argv, opt_one, o, &o->file);
    if (rc)
        return rc;
    if (!(o->deadline_s > 0))
        return st_cli_usage_error("size", "expected --deadline DURATION (such as 90d)");
    return 0;
}

/* The training workload to size: --workload NAME, else the first. */
static const st_workload_cfg *pick(const st_scn *s, const char *name)
{
    for (size_t i = 0; i < st_scn_workload_count(s); i++) {
        const st_workload_cfg *w = st_scn_workload(s, i);
        if (w->kind == ST_WL_TRAINING && (!name || strcmp(w->name, name) == 0))
            return w;
    }
    return NULL;
}

static void print_row(const st_size_cfg *f, size_t rank)
{
    char cost[32] = "-", power[32] = "-";
    if (f->cost_usd >= 0)
        snprintf(cost, sizeof cost, "%.4g", f->cost_usd);
    if (isfinite(f->facility_w)) /* unknown when the GPU states no power limit */
        snprintf(power, sizeof power, "%.3f", f->facility_w / 1e6);
    printf("%4zu %6lld %6lld %3lld %3lld %5lld %2lld %2lld %-9s %8.3f %8.4g %10.4g %10s %8s "
           "%s%s\n",
           rank, (long long)f->nodes, (long long)f->gpus, (long long)f->tp, (long long)f->pp,
           (long long)f->dp, (long long)f->vs, (long long)f->mb, st_recompute_names[f->recompute],
           f->step_s, f->train_s / 86400.0, f->gpu_hours, cost, power, st_size_bind_name(f->binds),
           f->feasible ? "" : " (misses)");
}

static void print_header(void)
{
    printf("rank  nodes   gpus  tp  pp    dp vs mb recompute   step_s  train_d  gpu_hours "
           "  cost_usd  power_MW binds\n");
}

static void print_result(const size_opts *o, const st_workload_cfg *w, const st_size_result *r)
{
    int64_t pruned = r->pruned_rule + r->pruned_memory + r->pruned_dominated;
    printf("strata size: %s, workload %s, deadline %.4g d, goal %s\n", o->file, w->name,
           o->deadline_s / 86400.0, o->goal);
    printf("searched %lld GPU counts (%lld larger skipped); %lld plans considered, %zu evaluated, "
           "%lld pruned (%lld by a plan rule, %lld by memory, %lld dominated)\n",
           (long long)r->counts_searched, (long long)r->counts_skipped, (long long)r->considered,
           r->n, (long long)pruned, (long long)r->pruned_rule, (long long)r->pruned_memory,
           (long long)r->pruned_dominated);
    printf("\nranked (top %ld):\n", o->top);
    print_header();
    for (size_t i = 0; i < r->n && i < (size_t)o->top; i++)
        print_row(&r->cfg[i], i + 1);
    printf("\nPareto front (time to train against %s):\n", o->goal);
    print_header();
    for (size_t i = 0; i < r->n; i++)
        if (r->cfg[i].front)
            print_row(&r->cfg[i], i + 1);
}

/* The text to stdout and, with -o, the JSON to the file; another --format to -o or stdout. */
static int emit(const size_opts *o, const st_workload_cfg *w, const st_size_result *r)
{
    st_size_report sr = {o->file,    w->name, o->goal, o->deadline_s,
                         o->power_w, o->gpus, r,       (size_t)o->top};
    if (o->format == ST_FMT_TEXT)
        print_result(o, w, r);
    if (o->format == ST_FMT_TEXT && !o->output)
        return ST_EXIT_OK;
    char *doc = st_size_render(&sr, o->format == ST_FMT_TEXT ? ST_FMT_JSON : o->format), why[512];
    int rc = ST_EXIT_OK;
    if (!o->output)
        fputs(doc, stdout);
    else if (st_cli_write_atomic(o->output, doc, strlen(doc), why, sizeof why)) {
        fprintf(stderr, "strata size: %s\n", why);
        rc = ST_EXIT_SIM;
    }
    free(doc);
    return rc;
}

int st_cmd_size(int argc, char **argv)
{
    size_opts o = {0};
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc == 1 ? ST_EXIT_OK : rc;
    st_scn *s = NULL;
    st_diag d = {0};
    if (st_scn_load_file(o.file, &s, &d)) {
        st_cli_print_diag(&d);
        return ST_EXIT_INPUT;
    }
    st_cli_print_warnings(s);
    const st_workload_cfg *w = pick(s, o.workload);
    if (!w) {
        st_scn_free(s);
        return st_cli_usage_error("size", "%s has no training workload%s%s", o.file,
                                  o.workload ? " named " : "", o.workload ? o.workload : "");
    }
    const st_cost_cfg *cost = st_scn_cost(s);
    if (!o.goal)
        o.goal = cost ? "cost" : "gpu-hours";
    st_size_spec spec = {.deadline_s = o.deadline_s,
                         .power_w = o.power_w,
                         .gpus = o.gpus,
                         .goal = strcmp(o.goal, "cost") == 0 ? ST_SIZE_COST : ST_SIZE_GPU_HOURS,
                         .cost = cost,
                         .seed = st_scn_seed(s),
                         .rows = (size_t)o.top};
    st_size_result r;
    st_err err = {0};
    rc = st_size_search(st_scn_cluster(s), w, &spec, &r, &err);
    if (rc) {
        char line[512];
        st_err_format(&err, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        st_scn_free(s);
        return rc == ST_EINVAL ? ST_EXIT_INPUT : ST_EXIT_SIM;
    }
    rc = emit(&o, w, &r);
    st_size_release(&r);
    st_scn_free(s);
    return rc;
}
