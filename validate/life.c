/* The whole-life validation sets of issue 5: Daly's worked examples (the auto interval within
 * 1%), the Monte Carlo against Daly's expected wall time (within 2% over 1,000 replicas), and
 * the scenario cases of scenarios/validation/life/: checkpoint sizes and save times (within 10%)
 * and Llama 3's 54 days (interruptions inside the Poisson 95% band, goodput at least the
 * published effective training time). docs/models/storage-and-failures.md explains each. */
#include <math.h>
#include <stdio.h>

#include "models/fabric/topo.h"
#include "models/forecast/forecast.h"
#include "models/reliability/interval.h"
#include "models/reliability/lifetime.h"
#include "report/figures.h"
#include "scenarios/scenario.h"
#include "validate/validate_internal.h"

/* Replicas behind a scenario case's interruptions and goodput: enough that the mean's 95%
 * interval is about +-1.4 interruptions for Llama 3 (band +-40). Whole checkpoint cycles between
 * failures are jumped over (models/reliability/life_cycle.c), so this stays well under a second. */
#define CASE_REPLICAS 1000
/* Replicas of each Monte Carlo row: the 1,000. */
#define MC_REPLICAS 1000

/* Judge a row within rel of its published figure. */
static void within(st_valid_row *r, double rel)
{
    r->error = r->predicted / r->published - 1;
    r->bound_kind = ST_VALID_BOUND_RELATIVE;
    r->bound = rel;
    r->pass = fabs(r->error) <= rel;
}

/* ---- Daly's worked examples -------------------------------------------------------------- */

/* Daly (2006): Ts 500 h, R 10 min, delta 5 min; tau_opt from the figure
 * captions of Daly (2006). */
static const struct {
    const char *name;
    double mtbf_s, tau_min;
} daly_ex[] = {
    {"daly-M24h", 24 * 3600.0, 117}, {"daly-M6h", 6 * 3600.0, 57}, {"daly-M15min", 900.0, 9.1}};

static int run_daly(const st_valid_harness *h, size_t i, st_valid_row *r, st_diag *d, st_err *err)
{
    (void)h, (void)d, (void)err;
    r->published = daly_ex[i].tau_min;
    r->predicted = st_daly_interval(300, daly_ex[i].mtbf_s) / 60;
    snprintf(r->name, sizeof r->name, "%s", daly_ex[i].name);
    snprintf(r->set, sizeof r->set, "daly");
    snprintf(r->metric, sizeof r->metric, "tau_opt min");
    snprintf(r->source, sizeof r->source, "Daly 2006; Young's sqrt(2 d M) = %.1f min",
             st_young_interval(300, daly_ex[i].mtbf_s) / 60);
    within(r, 0.01);
    return 0;
}

static const st__valid_ops daly_ops = {.run = run_daly};

st_valid_harness *st_valid_daly_new(void)
{
    return st__valid_harness_new(&daly_ops, sizeof daly_ex / sizeof daly_ex[0]);
}

/* ---- Monte Carlo against Daly's expected wall time ---------------------------------------- */

static const double mc_mtbf_h[] = {24, 6, 1};

static int run_monte_carlo(const st_valid_harness *h, size_t i, st_valid_row *r, st_diag *d,
                           st_err *err)
{
    (void)h, (void)d;
    const double work = 500 * 3600.0, delta = 300, restart = 600, m = mc_mtbf_h[i] * 3600;
    /* Daly's optimum rounded so that the interval divides the work. */
    double k = round(work / st_daly_interval(delta, m));
    double tau = work / (k > 0 ? k : 1);
    st_life_class cls = {.component = "node", .count = 1, .mtbf_s = m, .shape = 1};
    st_life_spec spec = {.step_s = 60,
                         .steps = (int64_t)(work / 60),
                         .ckpt_every_s = tau,
                         .ckpt_stall_s = delta,
                         .ckpt_commit_s = delta,
                         .detect_s = restart,
                         .classes = &cls,
                         .n_classes = 1};
    st_life_summary sum;
    int rc = st_life_replicas(&spec, 1, MC_REPLICAS, &sum, err);
    if (rc)
        return rc;
    r->published = st_daly_expected_wall(work, tau, delta, restart, m) / 3600;
    r->predicted = sum.wall_s.mean / 3600;
    snprintf(r->name, sizeof r->name, "mc-M%gh", mc_mtbf_h[i]);
    snprintf(r->set, sizeof r->set, "monte-carlo");
    snprintf(r->metric, sizeof r->metric, "wall h (tau %.1f min)", tau / 60);
    snprintf(r->source, sizeof r->source, "Daly 2006 expected wall; replicas' 95%% CI %.1f-%.1f h",
             sum.wall_s.lo / 3600, sum.wall_s.hi / 3600);
    within(r, 0.02);
    return 0;
}

static const st__valid_ops mc_ops = {.run = run_monte_carlo};

st_valid_harness *st_valid_monte_carlo_new(void)
{
    return st__valid_harness_new(&mc_ops, sizeof mc_mtbf_h / sizeof mc_mtbf_h[0]);
}

/* ---- scenario cases ---------------------------------------------------------------------- */

/* The metric's prediction from the forecast, and whether it meets its bound. */
static void judge(const st_forecast *f, const st_validation_cfg *v, st_valid_row *r)
{
    snprintf(r->metric, sizeof r->metric, "%s", st_scn_metric_name(v->metric));
    r->published = v->published;
    /* The figure the report writes for the metric, through its row (report/figures.h). */
    double x;
    r->predicted = st_fig_job_value(st_fig_of_metric(v->metric), f, &x) ? x : NAN;
    if (v->metric == ST_METRIC_INTERRUPTIONS && v->period_s > 0 && f->summary.wall_s.mean > 0)
        r->predicted *= v->period_s / f->summary.wall_s.mean; /* over the published period */
    within(r, 0.10);
    if (v->metric == ST_METRIC_INTERRUPTIONS) {
        r->bound_kind = ST_VALID_BOUND_POISSON95;
        r->bound = 1.96 * sqrt(v->published);
        r->pass = fabs(r->predicted - v->published) <= r->bound;
    } else if (v->metric == ST_METRIC_GOODPUT) {
        r->bound_kind = ST_VALID_BOUND_AT_LEAST;
        r->bound = 0;
        r->pass = r->predicted >= v->published;
    }
}

/* The job's life on its cluster, placed from the first GPU, over CASE_REPLICAS replicas. */
static int forecast_life(st_forecast *f, const st_scn *s, st_err *err)
{
    const st_cluster_cfg *c = st_scn_cluster(s);
    st_topo *t = NULL;
    int rc = st_topo_new(c, &t, err);
    if (rc)
        return rc;
    st_placement at; /* the job alone on the cluster, from GPU 0 */
    st_placement_init_range(&at, t, c, 0, f->w->gpus);
    rc = st_forecast_life(f, &at, st_scn_failures(s), st_scn_seed(s), CASE_REPLICAS, NULL, err);
    st_placement_release(&at);
    st_topo_free(t);
    return rc;
}

/* Load one case, forecast its first workload's step and life, and judge the metric. */
static int run_case(const st_valid_harness *h, size_t i, st_valid_row *row, st_diag *d, st_err *err)
{
    const char *path = h->files[i];
    st_scn *s = NULL;
    int rc = st_scn_load_file(path, &s, d);
    if (rc)
        return rc;
    const st_validation_cfg *v = st_scn_validation(s);
    st_step_ctx *x = NULL;
    st_forecast f = {0};
    rc = !v ? st_err_set(err, ST_EINVAL, (st_loc){path, 0, 0}, "no validation: section")
         : v->metric < ST_METRIC_CKPT_SIZE
             ? st_err_set(err, ST_EINVAL, v->loc, "metric is a step metric: run validate --step")
             : st_step_ctx_new(st_scn_cluster(s), &x, err);
    if (!rc)
        rc = st_forecast_job(x, st_scn_workload(s, 0), st_scn_cluster(s), &f, NULL, err);
    if (!rc && !f.has_step)
        rc = st_err_set(err, ST_EINVAL, v->loc, "the plan does not fit: no step to run");
    if (!rc)
        rc = forecast_life(&f, s, err);
    if (!rc) {
        snprintf(row->name, sizeof row->name, "%s", st_scn_name(s));
        snprintf(row->set, sizeof row->set, "%s", v->set);
        snprintf(row->source, sizeof row->source, "%s", v->source);
        judge(&f, v, row);
    }
    st_forecast_release(&f);
    st_step_ctx_free(x);
    st_scn_free(s);
    return rc;
}

static const st__valid_ops life_ops = {.run = run_case};

int st_valid_life_new(const char *dir, st_valid_harness **out, st_err *err)
{
    return st__valid_harness_dir(&life_ops, dir, out, err);
}
