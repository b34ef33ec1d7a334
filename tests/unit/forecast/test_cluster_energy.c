/* The cluster run's energy (models/forecast/cluster_energy.h) and what a trace job's preemption
 * costs. (1) One job of 8 GPUs for an hour on two 8-GPU nodes: the IT energy by hand (16 idle
 * GPUs, 8 of them raised to the job's power, two nodes' base power, through the PSUs) and the
 * facility's parts around it. (2) Two trace jobs on one 8-GPU node (tests/traces/preempt-pair.csv:
 * A, 1 h from t = 0; B, 10 min from t = 10 min): SRTF preempts A for B, A pays Muri's 10 s
 * restart on resuming, so SRTF's makespan is 10 s past FIFO's, its energy above FIFO's, its
 * goodput below its utilisation, and A's time queued (B's 10 min) beyond its wait to first
 * start (0). */
#include <check.h>
#include <string.h>

#include "models/forecast/cluster_energy.h"
#include "models/forecast/run.h"
#include "models/plant/plant.h"
#include "scenarios/scenario.h"

START_TEST(test_one_job_of_8_gpus_for_an_hour_on_two_nodes)
{
    st_gpu_spec g = {.tdp_w = 700, .idle_w = 70};
    st_cluster_cfg c = {.nodes = 2, .gpus_per_node = 8, .nvlink_domain = 8, .gpu = &g};
    c.fabric.nodes_per_leaf = 2;
    c.node.base_power_w = 3040;
    c.racks.nodes_per_rack = 4;
    const st_cluster_job jobs[] = {{0, 3600, 3600, 8, 0, -1}};
    st_cluster_spec sp = {.c = &c, .policy = "fifo", .jobs = jobs, .n = 1};
    st_cluster_result r;
    st_err err = {0};
    ck_assert_int_eq(st_cluster_run(&sp, &r, &err), 0);
    ck_assert_double_eq(r.st.makespan_s, 3600);
    const double w[] = {500};
    st_cluster_energy e;
    st_cluster_energy_in in = {.c = &c, .jobs = jobs, .run = &r, .gpu_w = w};
    ck_assert_int_eq(st_cluster_energy_of(&in, &e), 1);
    double eta = st_plant_preset_get()->psu_efficiency;
    double board = 16 * 70 + 8 * (500 - 70) + 2 * 3040; /* W, the whole hour */
    ck_assert_double_eq_tol(e.it_mean_w, board / eta, 1e-9);
    ck_assert_double_eq_tol(e.it_energy_j, board / eta * 3600, 1e-6);
    /* around it: the transformers at their efficiency, the default UPS (a flat 97%) on that,
     * a cooling plant; the facility is their sum over the hour */
    double tr = e.it_mean_w * (1 / st_plant_preset_get()->transformer_efficiency - 1);
    ck_assert_double_eq_tol(e.facility.transformer_w, tr, 1e-9);
    ck_assert_double_eq_tol(e.facility.ups_w, (e.it_mean_w + tr) * (1 / 0.97 - 1), 1e-9);
    ck_assert(e.facility.cooling_w > 0);
    ck_assert_double_eq_tol(e.facility_mean_w,
                            e.it_mean_w + tr + e.facility.ups_w + e.facility.cooling_w, 1e-9);
    ck_assert_double_eq_tol(e.energy_j, e.facility_mean_w * 3600, 1e-6);
    ck_assert(!e.has_cost);
    /* priced on premises: the energy at the tariff; rented GPUs' prices include the power */
    st_cost_cfg k = {.delivery = ST_DELIVERY_ON_PREM, .electricity_usd_per_j = 0.1 / 3.6e6};
    in.cost = &k;
    ck_assert_int_eq(st_cluster_energy_of(&in, &e), 1);
    ck_assert(e.has_cost);
    ck_assert_double_eq_tol(e.energy_usd, e.energy_j * 0.1 / 3.6e6, 1e-12);
    k.delivery = ST_DELIVERY_CLOUD;
    ck_assert_int_eq(st_cluster_energy_of(&in, &e), 1);
    ck_assert(!e.has_cost);
    st_cluster_result_release(&r);
}
END_TEST

/* The two-job trace on one h100-sxm node under policy into *r (s loaded into *s). */
static void run_pair(const char *policy, st_scn **s, st_run *r)
{
    static const char yaml[] = "version: 1\nname: preempt-pair\n"
                               "cluster: { gpu: h100-sxm, nodes: 1 }\n"
                               "trace: { file: preempt-pair.csv, format: csv }\n";
    st_diag d = {0};
    int rc = st_scn_load_buffer(ST_SOURCE_DIR "/tests/traces/preempt-pair.yaml", yaml, strlen(yaml),
                                s, &d);
    ck_assert_msg(rc == 0, "load: %s", d.n ? d.items[0].msg : "?");
    st_run_spec sp = {.c = st_scn_cluster(*s),
                      .job_trace = st_scn_trace(*s),
                      .policy = policy,
                      .seed = st_scn_seed(*s)};
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, r, &err) == 0, "forecast: %s", err.msg);
}

START_TEST(test_a_preempted_trace_job_pays_its_restart_and_the_longer_run_more_energy)
{
    st_scn *sf, *ss;
    st_run f, s;
    run_pair("fifo", &sf, &f);
    run_pair("srtf", &ss, &s);
    ck_assert_double_eq(f.cluster.st.makespan_s, 4200);
    ck_assert_int_eq(s.cluster.st.preemptions, 1);
    ck_assert_double_eq(s.cluster.job[0].preempted_s, 10); /* Muri's 10 s, no model named */
    ck_assert_double_eq(s.cluster.st.makespan_s, 4210);
    ck_assert(f.has_energy && s.has_energy);
    ck_assert_msg(s.energy.energy_j > f.energy.energy_j, "srtf %.9g J, fifo %.9g J",
                  s.energy.energy_j, f.energy.energy_j);
    ck_assert_double_eq(f.cluster.st.goodput, f.cluster.st.utilization);
    ck_assert(s.cluster.st.goodput < s.cluster.st.utilization);
    /* A waited 0 s for its first start and 10 min in all (B's run); B never waited */
    ck_assert_double_eq(s.cluster.job[0].wait_s, 0);
    ck_assert_double_eq(s.cluster.job[0].queued_s, 600);
    ck_assert_double_eq(s.cluster.job[1].queued_s, s.cluster.job[1].wait_s);
    ck_assert_double_eq(s.cluster.st.mean_queued_s, 300);
    ck_assert(s.cluster.st.mean_queued_s > s.cluster.st.mean_wait_s);
    ck_assert(f.cluster.st.mean_queued_s == f.cluster.st.mean_wait_s);
    st_run_release(&f);
    st_run_release(&s);
    st_scn_free(sf);
    st_scn_free(ss);
}
END_TEST

Suite *cluster_energy_suite(void)
{
    Suite *s = suite_create("cluster_energy");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_one_job_of_8_gpus_for_an_hour_on_two_nodes);
    tcase_add_test(tc, test_a_preempted_trace_job_pays_its_restart_and_the_longer_run_more_energy);
    suite_add_tcase(s, tc);
    return s;
}
