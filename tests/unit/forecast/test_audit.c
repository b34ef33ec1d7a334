/* The pre-flight audit (models/forecast/audit.c): no two jobs on one GPU at the same time, the
 * targets the scenario's `audit:` section sets, and switches with the ports their fabric needs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/forecast/audit.h"
#include "models/forecast/run.h"
#include "models/silicon/ub_cfg.h"
#include "scenarios/catalog.h"
#include "scenarios/scenario.h"
#include "sim/utf8.h"

/* Two jobs of `gpus` GPUs each on a cluster of `nodes` 8-GPU H100 nodes, both submitted at
 * t = 0 unless `submit` says otherwise for the second; extra YAML appended at the top level. */
static st_scn *two_jobs(int nodes, int gpus, const char *submit, const char *extra)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: %d }\nworkloads:\n"
             "  - { name: first, model: llama3-8b, seq_len: 4096, global_batch: %d, gpus: %d,\n"
             "      parallel: { tp: 8, pp: 1, dp: %d, zero: 1, microbatch: 1 }, steps: 100 }\n"
             "  - { name: second, model: llama3-8b, seq_len: 4096, global_batch: %d, gpus: %d,\n"
             "      parallel: { tp: 8, pp: 1, dp: %d, zero: 1, microbatch: 1 }, steps: 100%s%s }\n"
             "%s",
             nodes, gpus, gpus, gpus / 8, gpus, gpus, gpus / 8, submit ? ", submit: " : "",
             submit ? submit : "", extra ? extra : "");
    st_scn *s = NULL;
    st_diag d = {0};
    int rc = st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d);
    if (rc) {
        char line[512];
        st_err_format(&d.items[0], line, sizeof line);
        ck_abort_msg("%s", line);
    }
    return s;
}

static void forecast(const st_scn *s, st_run *run)
{
    st_run_spec spec = {.c = st_scn_cluster(s),
                        .w = st_scn_workload(s, 0),
                        .n = st_scn_workload_count(s),
                        .sched = st_scn_sched(s),
                        .audit = st_scn_audit(s),
                        .seed = 1};
    st_err err = {0};
    ck_assert_int_eq(st_run_forecast(&spec, run, &err), 0);
}

/* The finding whose check starts with `check`, or NULL. */
static const st_audit *finding(const st_run *r, const char *check)
{
    for (size_t i = 0; i < r->n_audit; i++)
        if (strncmp(r->audit[i].check, check, strlen(check)) == 0)
            return &r->audit[i];
    return NULL;
}

/* Issue 18 item 1: two 1,024-GPU jobs on a 1,024-GPU cluster, both submitted at t = 0. Before
 * the cluster run, fifo wrapped round to GPU 0 and the audit failed them; now the second waits
 * for the first's GPUs, starts when it ends, and the check passes with the real placements. */
START_TEST(test_two_full_cluster_jobs_at_once_queue)
{
    st_scn *s = two_jobs(128, 1024, NULL, NULL);
    st_run r;
    forecast(s, &r);
    const st_audit *a = finding(&r, "GPUs held by one job");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->check, "GPUs held by one job");
    ck_assert_str_eq(a->level, "orchestration");
    ck_assert_int_eq(a->status, ST_AUDIT_PASS);
    ck_assert_double_eq(r.f[0].start_s, 0);
    ck_assert(r.f[0].has_end && r.f[1].has_end);
    ck_assert_double_eq(r.f[1].start_s, r.f[0].end_s);
    ck_assert_double_eq(r.f[1].wait_s, r.f[0].end_s);
    ck_assert_double_eq_tol(r.f[1].end_s - r.f[1].start_s, r.f[1].life.wall_s, 1e-9);
    ck_assert(r.has_cluster);
    ck_assert_double_eq_tol(r.cluster.st.mean_wait_s, r.f[0].end_s / 2, 1e-9);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* Half-cluster jobs pack side by side, and a full-cluster job submitted after the first has
 * finished reuses its GPUs: neither is a failure. */
START_TEST(test_disjoint_gpus_or_times_pass)
{
    st_scn *s = two_jobs(128, 512, NULL, NULL);
    st_run r;
    forecast(s, &r);
    const st_audit *a = finding(&r, "GPUs held by one job");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->status, ST_AUDIT_PASS);
    ck_assert_ptr_nonnull(strstr(a->message, "no two of the 2 jobs"));
    st_run_release(&r);
    st_scn_free(s);

    s = two_jobs(128, 1024, "1 d", NULL);
    forecast(s, &r);
    ck_assert_double_lt(r.f[0].life.wall_s, 86400); /* the first is done before the second */
    a = finding(&r, "GPUs held by one job");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->status, ST_AUDIT_PASS);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

/* The same rule on hand-built results: a job that starts while another still holds some of its
 * GPUs fails on exactly those, and a collective workload holds its GPUs from its first start to
 * its last completion. */
START_TEST(test_partial_overlap_counts_the_shared_gpus)
{
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    st_workload_cfg w[3] = {
        {.name = "a", .gpus = 16}, {.name = "b", .gpus = 16}, {.name = "c", .gpus = 8}};
    int64_t ga[16], gb[16];
    for (int i = 0; i < 16; i++) {
        ga[i] = i;      /* GPUs 0-15 */
        gb[i] = 12 + i; /* GPUs 12-27: four shared with a */
    }
    st_forecast f[3] = {{.w = &w[0], .gpus = ga, .start_s = 0, .has_life = 1},
                        {.w = &w[1], .gpus = gb, .start_s = 10, .has_life = 1},
                        {0}};
    f[0].life.wall_s = 100;
    f[1].life.wall_s = 100;
    st_coll_result coll[3] = {{0}, {0}, {.w = &w[2], .first_gpu = 24, .start_s = 50, .end_s = 60}};
    size_t n = 0;
    st_audit *a = st_audit_run(&(st_audit_in){&c, NULL, f, coll, 3, NULL, NULL, NULL, NULL, 0}, &n);
    int fails = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(a[i].check, "GPUs held by one job", 20) != 0)
            continue;
        ck_assert_int_eq(a[i].status, ST_AUDIT_FAIL);
        if (strcmp(a[i].check, "GPUs held by one job: b") == 0) {
            ck_assert_double_eq(a[i].value, 4); /* GPUs 12-15 */
            ck_assert_ptr_nonnull(strstr(a[i].message, "'a'"));
        } else {
            ck_assert_str_eq(a[i].check, "GPUs held by one job: c");
            ck_assert_double_eq(a[i].value, 4); /* GPUs 24-27, held by b until t = 110 s */
            ck_assert_ptr_nonnull(strstr(a[i].message, "'b'"));
        }
        fails++;
    }
    ck_assert_int_eq(fails, 2);
    free(a);
}
END_TEST

/* Issue 27: a finding names its job whole, however long the name: a 64-character Chinese name
 * (192 bytes) was cut at 64 bytes of the check, inside a character, and the JSON report that
 * printed it did not parse. The message that names the other job holds it whole too. */
START_TEST(test_long_names_are_whole)
{
    char a_name[256] = "", b_name[256] = "";
    for (int i = 0; i < 64; i++) {
        strcat(a_name, "训"); /* 3 bytes each */
        strcat(b_name, i % 2 ? "🚀" : "练");
    }
    st_cluster_cfg c = {.nodes = 4, .gpus_per_node = 8, .nvlink_domain = 8};
    st_workload_cfg w[2] = {{.name = a_name, .gpus = 16}, {.name = b_name, .gpus = 16}};
    int64_t ga[16], gb[16];
    for (int i = 0; i < 16; i++) {
        ga[i] = i;
        gb[i] = 12 + i;
    }
    st_forecast f[2] = {{.w = &w[0], .gpus = ga, .start_s = 0, .has_life = 1},
                        {.w = &w[1], .gpus = gb, .start_s = 10, .has_life = 1}};
    f[0].life.wall_s = 100;
    f[1].life.wall_s = 100;
    size_t n = 0;
    st_audit *a = st_audit_run(&(st_audit_in){&c, NULL, f, NULL, 2, NULL, NULL, NULL, NULL, 0}, &n);
    char want[512];
    int tp = 0, shared = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(st_utf8_check(a[i].check, strlen(a[i].check)), strlen(a[i].check));
        ck_assert_uint_eq(st_utf8_check(a[i].message, strlen(a[i].message)), strlen(a[i].message));
        snprintf(want, sizeof want, "tensor parallel in NVLink domain: %s", a_name);
        tp += strcmp(a[i].check, want) == 0;
        snprintf(want, sizeof want, "GPUs held by one job: %s", b_name);
        if (strcmp(a[i].check, want) == 0) {
            snprintf(want, sizeof want, "'%s'", a_name);
            ck_assert_ptr_nonnull(strstr(a[i].message, want));
            shared++;
        }
    }
    ck_assert_int_eq(tp, 1);
    ck_assert_int_eq(shared, 1);
    free(a);
}
END_TEST

/* TP-overlap settings tuned on one architecture: a pass on it, a warning on another, nothing for
 * TE's defaults, without the overlap or at tp 1. */
static int tp_overlap_finding(const st_gpu_spec *gpu, int cfg, int overlap, int64_t tp,
                              st_audit_status *st)
{
    st_cluster_cfg c = {.gpu = gpu, .nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    st_workload_cfg w = {.name = "j", .gpus = 8};
    w.parallel.tp = tp;
    w.parallel.tp_comm_overlap = overlap;
    w.parallel.tp_comm_overlap_cfg = cfg;
    st_forecast f = {.w = &w};
    size_t n = 0;
    st_audit *a =
        st_audit_run(&(st_audit_in){&c, NULL, &f, NULL, 1, NULL, NULL, NULL, NULL, 0}, &n);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(a[i].check, "TP overlap settings for the GPU: j") == 0) {
            *st = a[i].status;
            found++;
        }
    free(a);
    return found;
}

START_TEST(test_tp_overlap_settings_for_the_gpu)
{
    int h100cfg = st_ub_cfg_find("nemo v2.2.0 userbuffers_fp8_h100_h12288_tp4_mbs1_seqlen2048");
    ck_assert_int_gt(h100cfg, 0);
    const st_gpu_spec *h100 = st_catalog_gpu("h100-sxm"), *b200 = st_catalog_gpu("b200");
    st_audit_status st = ST_AUDIT_FAIL;
    ck_assert_int_eq(tp_overlap_finding(h100, h100cfg, 1, 4, &st), 1);
    ck_assert_int_eq(st, ST_AUDIT_PASS);
    ck_assert_int_eq(tp_overlap_finding(b200, h100cfg, 1, 4, &st), 1);
    ck_assert_int_eq(st, ST_AUDIT_WARN);
    ck_assert_int_eq(tp_overlap_finding(b200, 0, 1, 4, &st), 0);
    ck_assert_int_eq(tp_overlap_finding(b200, h100cfg, 0, 4, &st), 0);
    ck_assert_int_eq(tp_overlap_finding(b200, h100cfg, 1, 1, &st), 0);
}
END_TEST

/* A 1 TB checkpoint that dumps in 10 s against the guide's target (2 TB in 15 s: 7.5 s for
 * 1 TB) and against a scenario's `audit:` targets, which also set the full baseboards. */
START_TEST(test_targets_from_the_scenario)
{
    st_scn *s = two_jobs(128, 512, NULL,
                         "audit:\n  checkpoint_dump: { size: 1 TB, within: 15 s }\n"
                         "  full_baseboard: [8, 4, 2]\n  memory_headroom: 5%\n");
    const st_audit_cfg *t = st_scn_audit(s);
    ck_assert_ptr_nonnull(t);
    ck_assert_double_eq(t->memory_headroom, 0.05);
    ck_assert_double_eq(t->ckpt_dump_bytes, 1e12);
    ck_assert_double_eq(t->ckpt_dump_s, 15);
    ck_assert_int_eq(t->n_baseboard, 3);
    ck_assert_int_eq(t->baseboard[0], 2);
    ck_assert_int_eq(t->baseboard[2], 8);
    st_scn_free(s);
    s = two_jobs(128, 512, NULL, "audit: { full_baseboard: 4 }\n");
    t = st_scn_audit(s);
    ck_assert_double_eq(t->ckpt_dump_bytes, 2e12); /* unset keys keep the guide's figure */
    ck_assert_double_eq(t->ckpt_dump_s, 15);
    ck_assert_double_eq(t->memory_headroom, 0.10);

    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    st_workload_cfg w = {.name = "j", .gpus = 8};
    st_forecast f = {.w = &w, .has_ckpt = 1};
    f.ckpt.size_bytes = 1e12;
    f.ckpt.dump_s = 10;
    f.mem = (st_memory){.fits = 1, .total = 73e9, .capacity = 80e9}; /* 8.75% left */
    st_audit_cfg mine = st_audit_cfg_default;
    mine.ckpt_dump_bytes = 1e12;
    mine.memory_headroom = 0.05;
    const st_audit_cfg *targets[] = {NULL, &mine, t};
    for (int k = 0; k < 3; k++) {
        size_t n = 0;
        st_audit *a = st_audit_run(
            &(st_audit_in){&c, targets[k], &f, NULL, 1, NULL, NULL, NULL, NULL, 0}, &n);
        for (size_t i = 0; i < n; i++) {
            ck_assert_ptr_eq(strstr(a[i].message, "seed"), NULL);
            if (strcmp(a[i].check, "checkpoint dump: j") == 0) {
                ck_assert_int_eq(a[i].status, k == 1 ? ST_AUDIT_PASS : ST_AUDIT_WARN);
                ck_assert_double_eq_tol(a[i].limit, k == 1 ? 15 : 7.5, 1e-12);
                ck_assert_ptr_nonnull(
                    strstr(a[i].message, k == 1 ? "checkpoint dump target (1 TB in 15 s"
                                                : "checkpoint dump target (2 TB in 15 s"));
            }
            if (strcmp(a[i].check, "memory headroom: j") == 0) /* the default 10%, or 5% */
                ck_assert_int_eq(a[i].status, k == 1 ? ST_AUDIT_PASS : ST_AUDIT_WARN);
            if (strcmp(a[i].check, "full baseboard") == 0) {
                ck_assert_int_eq(a[i].status, k == 2 ? ST_AUDIT_WARN : ST_AUDIT_PASS);
                if (k == 2)
                    ck_assert_str_eq(a[i].message, "8 GPUs per node: not a full 4-GPU baseboard");
            }
        }
        free(a);
    }
    st_scn_free(s);
}
END_TEST

/* The cooling finding of one rack at mean heat `heat` against `cap`, whose own peak, when
 * `over_peak` > 0, passes its capacity `over_cap`; the finding into *status and msg. */
static void cooling(double heat, double cap, double over_peak, double over_cap,
                    st_audit_status *status, char *msg, size_t len)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    st_plant_result p = {.rack_peak_w = over_peak > 0 ? over_peak : heat,
                         .rack_peak_over_w = over_peak,
                         .rack_peak_over_cap_w = over_cap};
    p.rack_heat = (st_plant_rack_heat){.heat_w = heat, .capacity_w = cap};
    size_t n = 0;
    st_audit *a =
        st_audit_run(&(st_audit_in){&c, NULL, NULL, NULL, 0, NULL, NULL, &p, NULL, 0}, &n);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(a[i].check, "rack heat against cooling") == 0) {
            *status = a[i].status;
            snprintf(msg, len, "%s", a[i].message);
            found = 1;
        }
    free(a);
    ck_assert(found);
}

/* A rack whose mean heat its cooling removes but whose own step peak passes its rating warns
 * (it passed, with a message that reported the breach); the peak and the capacity named are
 * one rack's, not the cluster's worst peak against another rack's rating (a liquid-cooled B200
 * rack's 57.2 kW against an air-cooled H100 rack's 30 kW). */
START_TEST(test_rack_peak_against_its_own_cooling)
{
    st_audit_status st;
    char msg[512];
    cooling(27.08e3, 30e3, 33.6e3, 30e3, &st, msg, sizeof msg);
    ck_assert_int_eq(st, ST_AUDIT_WARN);
    ck_assert_ptr_nonnull(strstr(msg, "33.6 kW, is above its own 30 kW of cooling"));
    cooling(14.64e3, 30e3, 0, 0, &st, msg, sizeof msg);
    ck_assert_int_eq(st, ST_AUDIT_PASS);
    ck_assert_ptr_null(strstr(msg, "peak"));
    cooling(39.13e3, 30e3, 45e3, 30e3, &st, msg, sizeof msg);
    ck_assert_int_eq(st, ST_AUDIT_FAIL);
}
END_TEST

/* A service's latency targets (a VP walk: serve-diurnal's summary said its targets were missed
 * while the audit read 0 FAIL): its p99s against them at its own stream, failed when they miss,
 * with the rate its replicas meet them at and the load's peak past it. */
START_TEST(test_service_targets)
{
    st_cluster_cfg c = {.nodes = 1, .gpus_per_node = 8, .nvlink_domain = 8};
    static const st_load_point day[] = {{0, 30}, {3600, 90}, {7200, 20}};
    st_workload_cfg w = {.name = "chat", .kind = ST_WL_INFERENCE, .gpus = 8};
    w.inference = (st_inference_cfg){
        .mode = ST_REQ_POISSON, .load = day, .n_load = 3, .slo_ttft_s = 2, .slo_tpot_s = 0.05};
    st_serve_result r = {.has_slo = 1,
                         .slo_met = 0,
                         .slo_attainment = 0.842,
                         .max_rate_under_slo = 78.12,
                         .ttft_s = {.p99 = 0.3627},
                         .tpot_s = {.p99 = 0.06842}};
    st_audit_service sv = {&w, &r};
    for (int met = 0; met < 2; met++) {
        r.slo_met = met;
        r.tpot_s.p99 = met ? 0.0334 : 0.06842;
        size_t n = 0;
        st_audit *a =
            st_audit_run(&(st_audit_in){&c, NULL, NULL, NULL, 0, NULL, NULL, NULL, &sv, 1}, &n);
        const st_audit *f = NULL;
        for (size_t i = 0; i < n; i++)
            if (strcmp(a[i].check, "service latency targets: chat") == 0)
                f = &a[i];
        ck_assert_ptr_nonnull(f);
        ck_assert_str_eq(f->level, "orchestration");
        ck_assert_int_eq(f->status, met ? ST_AUDIT_PASS : ST_AUDIT_FAIL);
        ck_assert_double_eq_tol(f->value, met ? 0.668 : 1.3684, 1e-9);
        ck_assert_ptr_nonnull(strstr(f->message, "up to 78.12 requests/s"));
        ck_assert_int_eq(strstr(f->message, "the load reaches 90 requests/s") != NULL, !met);
        free(a);
    }
    /* the name is text, not a format (a name with %s%n crashed the audit) */
    w.name = "50%d %s%s%n";
    size_t n = 0;
    st_audit *a =
        st_audit_run(&(st_audit_in){&c, NULL, NULL, NULL, 0, NULL, NULL, NULL, &sv, 1}, &n);
    int named = 0;
    for (size_t i = 0; i < n; i++)
        named += strcmp(a[i].check, "service latency targets: 50%d %s%s%n") == 0;
    ck_assert_int_eq(named, 1);
    free(a);
}
END_TEST

/* One 8-GPU job on a cluster of `nodes` 8-GPU H100 nodes with fabric keys `fabric`; its
 * `switch ports` finding into *out. */
static void switch_ports(int nodes, const char *fabric, st_audit *out)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: %d, fabric: { %s } }\nworkloads:\n"
             "  - { name: j, model: llama3-8b, seq_len: 4096, global_batch: 8, gpus: 8,\n"
             "      parallel: { tp: 8, pp: 1, dp: 1, zero: 1, microbatch: 1 }, steps: 100 }\n",
             nodes, fabric);
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d), 0);
    st_run run;
    forecast(s, &run);
    const st_audit *a = finding(&run, "switch ports");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->level, "fabric");
    /* The finding's texts live in the run's block: keep a copy of the message past it. */
    static char message[256];
    ck_assert_int_lt(snprintf(message, sizeof message, "%s", a->message), sizeof message);
    *out = *a;
    out->check = NULL;
    out->message = message;
    st_run_release(&run);
    st_scn_free(s);
}

/* Issue 19: the switches' ports. 64 nodes of 8 NICs on the default leaves (4 nodes, 32 ports
 * down and 32 up) make 16 leaves, so 16-port spines: the leaves' 64 ports are the most, within
 * the default 64. 2,048 nodes make 512 leaves and spines of 512 ports: fail. With a 576-port
 * chassis (switch_ports: 576) they pass; a rail-optimized fabric's leaves are as many. A
 * 2-node cluster under one leaf has no spines: the leaf's 16 NIC ports. */
START_TEST(test_switch_ports)
{
    st_audit a;
    switch_ports(64, "topology: spine-leaf", &a);
    ck_assert_int_eq(a.status, ST_AUDIT_PASS);
    ck_assert_double_eq(a.value, 64);
    ck_assert_double_eq(a.limit, 64);
    ck_assert_str_eq(a.message, "a leaf needs 64 ports, within the 64 of a switch");
    switch_ports(2048, "topology: spine-leaf", &a);
    ck_assert_int_eq(a.status, ST_AUDIT_FAIL);
    ck_assert_double_eq(a.value, 512);
    ck_assert_double_eq(a.limit, 64);
    ck_assert_str_eq(a.message, "a spine needs 512 ports, more than the 64 of a switch (a port "
                                "per leaf of its pod)");
    switch_ports(2048, "topology: spine-leaf, switch_ports: 576", &a);
    ck_assert_int_eq(a.status, ST_AUDIT_PASS);
    ck_assert_double_eq(a.limit, 576);
    switch_ports(2048, "topology: rail-optimized", &a);
    ck_assert_int_eq(a.status, ST_AUDIT_FAIL);
    ck_assert_double_eq(a.value, 512);
    switch_ports(2048, "topology: fat-tree-3", &a); /* pods of 32 leaves: 32 down, 32 up */
    ck_assert_int_eq(a.status, ST_AUDIT_PASS);
    ck_assert_double_eq(a.value, 64);
    switch_ports(2, "topology: spine-leaf", &a);
    ck_assert_int_eq(a.status, ST_AUDIT_PASS);
    ck_assert_double_eq(a.value, 16);
}
END_TEST

Suite *audit_suite(void)
{
    Suite *s = suite_create("audit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_two_full_cluster_jobs_at_once_queue);
    tcase_add_test(tc, test_disjoint_gpus_or_times_pass);
    tcase_add_test(tc, test_partial_overlap_counts_the_shared_gpus);
    tcase_add_test(tc, test_long_names_are_whole);
    tcase_add_test(tc, test_targets_from_the_scenario);
    tcase_add_test(tc, test_tp_overlap_settings_for_the_gpu);
    tcase_add_test(tc, test_switch_ports);
    tcase_add_test(tc, test_rack_peak_against_its_own_cooling);
    tcase_add_test(tc, test_service_targets);
    suite_add_tcase(s, tc);
    return s;
}
