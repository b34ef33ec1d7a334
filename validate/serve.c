/* The serving validation set: the case files of a folder (scenarios/validation/serve by
 * default), each a published inference benchmark with a validation: section of a serving
 * metric, its first workload served (models/serve/serve.h) and held, by set, to the goals:
 * a median throughput error within 10%, latency (mean or p99) within 15%. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/serve/serve.h"
#include "report/figures.h"
#include "scenarios/scenario.h"
#include "validate/validate_internal.h"

/* The goals: a median throughput error within 10%, latency within 15%. A set is one
 * or the other: its name says latency with "-online" (the engines' serving benchmarks at a
 * stated rate). */
static st_valid_goal set_goal(const char *set)
{
    size_t n = strlen(set), k = strlen("-online");
    int latency = n >= k && strcmp(set + n - k, "-online") == 0;
    return (st_valid_goal){.mean = INFINITY, .median = latency ? 0.15 : 0.10, .max = INFINITY};
}

/* The metrics of a service's report: its throughput, and the mean and p99 latencies. */
static int serve_metric(st_valid_metric m)
{
    return m == ST_METRIC_OUTPUT_TOKENS_PER_S || m == ST_METRIC_TTFT_MEAN ||
           m == ST_METRIC_TPOT_MEAN || m == ST_METRIC_TTFT_P99 || m == ST_METRIC_TPOT_P99;
}

static int run_case(const st_valid_harness *h, size_t i, st_valid_row *row, st_diag *d, st_err *err)
{
    const char *path = h->files[i];
    st_scn *s = NULL;
    int rc = st_scn_load_file(path, &s, d);
    if (rc)
        return rc;
    const st_validation_cfg *v = st_scn_validation(s);
    const st_workload_cfg *w = st_scn_workload(s, 0);
    st_step_ctx *x = NULL;
    st_serve_result r;
    rc = !v ? st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0}, "no validation: section")
         : !serve_metric(v->metric) || w->kind != ST_WL_INFERENCE
             ? st_err_set(err, ST_EINVAL, v->loc,
                          "a serving case validates output_tokens_per_s, ttft_mean_s, "
                          "tpot_mean_s, ttft_p99_s or tpot_p99_s of a kind: inference workload")
             : st_step_ctx_new(st_scn_cluster(s), &x, err);
    if (!rc)
        rc = st_serve_run(x, w, st_scn_cluster(s), st_scn_seed(s), 0, &r, err);
    if (!rc) {
        snprintf(row->name, sizeof row->name, "%s", st_scn_name(s));
        snprintf(row->set, sizeof row->set, "%s", v->set);
        snprintf(row->source, sizeof row->source, "%s", v->source);
        snprintf(row->metric, sizeof row->metric, "%s", st_scn_metric_name(v->metric));
        row->published = v->published;
        row->predicted = st_fig_read_metric(v->metric, &r);
        row->error = row->predicted / row->published - 1;
        row->bound_kind = ST_VALID_BOUND_NONE; /* the set's goal judges it */
        row->pass = 1;
    }
    st_step_ctx_free(x);
    st_scn_free(s);
    return rc;
}

static const st__valid_ops serve_ops = {.run = run_case, .goal = set_goal};

int st_valid_serve_new(const char *dir, st_valid_harness **out, st_err *err)
{
    return st__valid_harness_dir(&serve_ops, dir, out, err);
}
