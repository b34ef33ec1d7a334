/* Under failures `scope: cluster` a training job pays for what the cluster run's failures cost
 * it, though its own life is failure-free. On tests/golden/cluster-failures.yaml (three
 * identical jobs on two servers, nodes failing) `a` and `b` are hit and `c` is not: a hit job's
 * GPU-hours are billed over the span it held GPUs (its life plus the lost work, detection,
 * restart and restore), its goodput is its life's work over that, and its energy is above the
 * untouched job's; `c` keeps its life's figures. Before, all three had the same goodput, energy
 * and bill. */
#include <check.h>
#include <string.h>

#include "models/forecast/run.h"
#include "scenarios/scenario.h"

START_TEST(test_cluster_failures_count_in_goodput_energy_and_cost)
{
    st_diag d = {0};
    st_scn *s = NULL;
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR "/tests/golden/cluster-failures.yaml", &s, &d),
                     0);
    st_cost_cfg cost = {.delivery = ST_DELIVERY_CLOUD, .gpu_hour_usd_per_s = 1.0 / 3600};
    st_run_spec sp = {.c = st_scn_cluster(s),
                      .w = st_scn_workload(s, 0),
                      .n = st_scn_workload_count(s),
                      .sched = st_scn_sched(s),
                      .failures = st_scn_failures(s),
                      .horizon_s = st_scn_horizon_s(s),
                      .cost = &cost,
                      .seed = st_scn_seed(s)};
    st_run r;
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, &r, &err) == 0, "forecast: %s", err.msg);
    ck_assert(r.has_plant && r.has_cost);
    const st_forecast *a = &r.f[0], *c = &r.f[2];
    const st_cluster_job_out *oa = &r.cluster.job[r.cluster_job[0]],
                             *oc = &r.cluster.job[r.cluster_job[2]];
    ck_assert_int_gt(oa->interruptions, 0);
    ck_assert_int_eq(oc->interruptions, 0);
    /* the life takes the run's failures: its wall the span held (its own failure-free wall,
     * c's, plus what they cost), its interruptions and lost work theirs */
    ck_assert_double_eq_tol(a->life.wall_s, oa->held_s, 1e-6);
    ck_assert_double_eq_tol(oa->held_s, c->life.wall_s + oa->failed_s, 1e-6);
    ck_assert_int_eq(a->life.interruptions, oa->interruptions);
    ck_assert_double_eq_tol(a->life.lost_work_s, oa->lost_work_s, 1e-9);
    ck_assert_double_eq_tol(a->cost.gpu_usd, 8 * oa->held_s / 3600, 1e-6);
    ck_assert_double_eq_tol(c->cost.gpu_usd, 8 * c->life.wall_s / 3600, 1e-6);
    ck_assert_double_eq_tol(a->life.goodput, c->life.goodput * c->life.wall_s / oa->held_s, 1e-9);
    double ea = 0, ec = 0;
    for (size_t k = 0; k < r.plant.n_jobs; k++) {
        ea += r.plant.jobs[k].id == 0 ? r.plant.jobs[k].energy_j : 0;
        ec += r.plant.jobs[k].id == 2 ? r.plant.jobs[k].energy_j : 0;
    }
    ck_assert_double_gt(ea, ec * 1.1);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *cluster_failure_use_suite(void)
{
    Suite *s = suite_create("cluster_failure_use");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cluster_failures_count_in_goodput_energy_and_cost);
    suite_add_tcase(s, tc);
    return s;
}
