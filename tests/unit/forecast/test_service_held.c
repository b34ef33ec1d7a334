/* A service in the cluster run (models/forecast/run_serve.c): the plant draws it on the GPUs its
 * replicas first ran on, every one at its replicas' mean iteration (under a load curve's
 * autoscaler too: the fleet at its peak), and a job of it that a policy preempts pays its
 * autoscaler's delay when it resumes. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "models/plant/gpu_power.h"
#include "scenarios/scenario.h"

static const char *const yaml =
    "version: 1\nname: held\nseed: 1\ncluster: { gpu: h100-sxm, nodes: 4 }\nworkloads:\n"
    "  - name: pretrain\n    model: llama3-8b\n    seq_len: 8192\n    global_batch: 32\n"
    "    gpus: 16\n    parallel: { tp: 2, dp: 8, zero: 1, microbatch: 1 }\n    steps: 50\n"
    "  - name: chat\n    kind: inference\n    model: llama3-70b\n    precision: fp8\n"
    "    gpus: 16\n    parallel: { tp: 4 }\n    requests:\n      rate:\n"
    "        - { at: 0 h, rate: 5/s }\n        - { at: 20 min, rate: 40/s }\n"
    "        - { at: 40 min, rate: 5/s }\n        - { at: 1 h, rate: 5/s }\n"
    "      input_tokens: 1000\n      output_tokens: 250\n"
    "    slo: { ttft_p99: 2 s, tpot_p99: 50 ms }\n%s";

/* The scenario of YAML text into *s, forecast into *r (the caller releases both). */
static void forecast_text(const char *text, st_scn **s, st_run *r)
{
    st_diag d = {0};
    ck_assert_msg(st_scn_load_buffer("t.yaml", text, strlen(text), s, &d) == 0, "load: %s",
                  d.n ? d.items[0].msg : "?");
    st_run_spec sp = {.c = st_scn_cluster(*s),
                      .w = st_scn_workload(*s, 0),
                      .n = st_scn_workload_count(*s),
                      .sched = st_scn_sched(*s),
                      .seed = st_scn_seed(*s)};
    st_err err = {0};
    ck_assert_msg(st_run_forecast(&sp, r, &err) == 0, "forecast: %s", err.msg);
}

/* The yaml above with `tail` appended (the service's autoscaler, or nothing), forecast. */
static void run_held(const char *tail, st_scn **s, st_run *r)
{
    char buf[2048];
    ck_assert((size_t)snprintf(buf, sizeof buf, yaml, tail) < sizeof buf);
    forecast_text(buf, s, r);
}

/* The plant's power of job id in r (its GPUs together), asserted there. */
static const st_plant_job_power *plant_job(const st_run *r, uint64_t id)
{
    ck_assert(r->has_plant);
    for (size_t k = 0; k < r->plant.n_jobs; k++)
        if (r->plant.jobs[k].id == id)
            return &r->plant.jobs[k];
    ck_abort_msg("no plant job %llu", (unsigned long long)id);
    return NULL;
}

/* Under a load curve's autoscaler the plant draws every replica that ran at a running GPU's
 * power, the fleet at the curve's peak: a facility is sized, and its demand metered, at its
 * peak hour, not at the day's mean fleet (which drew 1 - up of those GPUs idle before). */
START_TEST(test_the_plant_draws_the_peak_fleet)
{
    st_scn *s = NULL;
    st_run r;
    run_held("    autoscale: { min: 1, delay: 5 min }\n", &s, &r);
    const st_run_serve *v = &r.serve[1];
    double up = v->r.replicas_mean / 4;
    ck_assert_msg(up > 0.3 && up < 0.95, "replicas up %g of 4", v->r.replicas_mean);
    ck_assert_int_eq(v->r.replicas_peak, 4);
    const st_gpu_spec *g = st_scn_cluster(s)->gpu;
    double idle = st_plant_activity_w(g, ST_PLANT_ACT_IDLE);
    ck_assert(idle < v->r.gpu_mean_w);
    const st_plant_job_power *p = plant_job(&r, 1);
    ck_assert_double_eq_tol(p->mean_w, 16 * v->r.gpu_mean_w, 1e-9 * p->mean_w);
    ck_assert_double_eq_tol(p->peak_w, p->mean_w, 1e-9 * p->mean_w); /* a steady draw */
    ck_assert(p->mean_w > 16 * (up * v->r.gpu_mean_w + (1 - up) * idle) * 1.05);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

START_TEST(test_fixed_replicas_hold_their_own_power)
{
    st_scn *s = NULL;
    st_run r;
    run_held("", &s, &r);
    const st_run_serve *v = &r.serve[1];
    ck_assert_double_eq(v->r.replicas_mean, 4);
    const st_plant_job_power *p = plant_job(&r, 1);
    ck_assert_double_eq_tol(p->mean_w, 16 * v->r.gpu_mean_w, 1e-9 * p->mean_w);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* A preempted service job (srtf preempts the service's long base job for the shorter training
 * job) restarts its replicas as its autoscaler starts a new one: it pays the autoscaler's
 * delay (weights and warm-up) on resuming, and saves nothing. */
START_TEST(test_a_preempted_service_reloads_for_its_delay)
{
    static const char *const srtf =
        "version: 1\nname: srtf\nseed: 1\ncluster: { gpu: h100-sxm, nodes: 4 }\nworkloads:\n"
        "  - name: chat\n    kind: inference\n    model: llama3-70b\n    precision: fp8\n"
        "    gpus: 16\n    parallel: { tp: 4 }\n    requests:\n      rate:\n"
        "        - { at: 0 h, rate: 5/s }\n        - { at: 20 min, rate: 40/s }\n"
        "        - { at: 40 min, rate: 5/s }\n        - { at: 1 h, rate: 5/s }\n"
        "      input_tokens: 1000\n      output_tokens: 250\n"
        "    slo: { ttft_p99: 2 s, tpot_p99: 50 ms }\n"
        "    autoscale: { min: 1, delay: 5 min }\n"
        "  - name: pretrain\n    model: llama3-8b\n    seq_len: 8192\n    global_batch: 48\n"
        "    gpus: 24\n    parallel: { tp: 2, dp: 12, zero: 1, microbatch: 1 }\n"
        "    steps: 1500\nscheduler: { policy: srtf }\n";
    st_scn *s = NULL;
    st_run r;
    forecast_text(srtf, &s, &r);
    const st_run_serve *v = &r.serve[0];
    int64_t preempted = 0;
    for (size_t k = 0; k < r.cluster.n; k++) { /* every job of the service: base and stretches */
        const st_cluster_job_out *o = &r.cluster.job[k];
        int mine =
            (ptrdiff_t)k == r.cluster_job[0] ||
            ((ptrdiff_t)k >= v->first_up && (ptrdiff_t)k < v->first_up + (ptrdiff_t)v->n_ups);
        if (!mine || o->preemptions == 0)
            continue;
        preempted += o->preemptions;
        ck_assert_double_eq_tol(o->preempted_s, 300 * (double)o->preemptions, 1e-6);
    }
    ck_assert_msg(preempted > 0 && preempted == v->preemptions, "%lld", (long long)preempted);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *service_held_suite(void)
{
    Suite *s = suite_create("service_held");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_the_plant_draws_the_peak_fleet);
    tcase_add_test(tc, test_fixed_replicas_hold_their_own_power);
    tcase_add_test(tc, test_a_preempted_service_reloads_for_its_delay);
    suite_add_tcase(s, tc);
    return s;
}
