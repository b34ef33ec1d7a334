/* Scenario loader: examples parse, defaults and derived values, locations, anchors and merge
 * keys, and the first error of typical mistakes. The full bad-input corpus is tests/bad. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/silicon/gpu.h"
#include "models/silicon/llm.h"
#include "scenarios/reader.h"
#include "scenarios/scenario.h"
#include "sim/utf8.h"

static st_scn *load(const char *yaml, st_diag *d)
{
    st_scn *s = NULL;
    memset(d, 0, sizeof *d);
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, d);
    return s;
}

static const char *first_error(const char *yaml)
{
    static char line[512];
    st_diag d;
    st_scn *s = load(yaml, &d);
    st_scn_free(s);
    if (!d.n)
        return "";
    st_err_format(&d.items[0], line, sizeof line);
    return line;
}

#define MINIMAL                                                                                    \
    "version: 1\ncluster: { gpu: h100-sxm, nodes: 4 }\n"                                           \
    "workloads:\n  - { model: llama3-8b, gpus: 32 }\n"

START_TEST(test_every_example_parses)
{
    const char *dir = ST_SOURCE_DIR "/scenarios/examples";
    DIR *dp = opendir(dir);
    ck_assert_ptr_nonnull(dp);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        st_diag d = {0};
        st_scn *s = NULL;
        int rc = st_scn_load_file(path, &s, &d);
        if (rc) {
            char line[512];
            st_err_format(&d.items[0], line, sizeof line);
            ck_abort_msg("%s", line);
        }
        st_scn_free(s);
        n++;
    }
    closedir(dp);
    ck_assert_int_ge(n, 2);
}
END_TEST

START_TEST(test_minimal_scenario_gets_documented_defaults)
{
    st_diag d;
    st_scn *s = load(MINIMAL, &d);
    ck_assert_ptr_nonnull(s);
    const st_cluster_cfg *c = st_scn_cluster(s);
    ck_assert_int_eq(c->gpus_per_node, 8);
    ck_assert_int_eq(c->nvlink_domain, 8);
    ck_assert_int_eq(c->fabric.nics_per_node, 8);
    ck_assert_int_eq(c->fabric.nodes_per_leaf, 4);
    ck_assert_double_eq(c->fabric.nic_bw, 50e9);
    const st_workload_cfg *w = st_scn_workload(s, 0);
    ck_assert_str_eq(w->name, "job0");
    ck_assert_int_eq(w->parallel.dp, 32);
    ck_assert_int_eq(w->global_batch, 32);
    ck_assert_int_eq(w->seq_len, 2048);
    ck_assert_int_eq(w->steps, 1);
    ck_assert_str_eq(st_scn_name(s), "t");
    ck_assert_str_eq(st_scn_sched(s)->policy, "fifo");
    ck_assert_ptr_null(st_scn_failures(s));
    st_scn_free(s);
}
END_TEST

START_TEST(test_values_keep_their_location)
{
    st_diag d;
    st_scn *s = load("version: 1\ncluster:\n  gpu: h100-sxm\n  nodes: 4\nworkloads:\n"
                     "  - model: llama3-8b\n    gpus: 32\n    parallel: { tp: 8 }\n",
                     &d);
    ck_assert_ptr_nonnull(s);
    const st_workload_cfg *w = st_scn_workload(s, 0);
    ck_assert_uint_eq(w->gpus_loc.line, 7);
    ck_assert_uint_eq(w->gpus_loc.col, 11);
    ck_assert_uint_eq(w->parallel.loc.line, 8);
    ck_assert_uint_eq(st_scn_cluster(s)->gpu_loc.line, 3);
    ck_assert_int_eq(w->parallel.dp, 4);
    st_scn_free(s);
}
END_TEST

START_TEST(test_anchors_aliases_and_merge_keys_work)
{
    st_diag d;
    st_scn *s = load("version: 1\n"
                     "plan: &plan { tp: 8, pp: 2 }\n",
                     &d);
    st_scn_free(s); /* an unknown top-level key: rejected */
    ck_assert_int_gt(d.n, 0);
    s = load("version: 1\ncluster: { gpu: h100-sxm, nodes: 8 }\n"
             "workloads:\n"
             "  - &base { name: a, model: llama3-70b, gpus: 32, parallel: { tp: 8, pp: 4 } }\n"
             "  - { <<: *base, name: b, seq_len: 4096 }\n",
             &d);
    ck_assert_msg(s != NULL, "%s", d.n ? d.items[0].msg : "");
    ck_assert_int_eq(st_scn_workload_count(s), 2);
    const st_workload_cfg *b = st_scn_workload(s, 1);
    ck_assert_str_eq(b->name, "b");
    ck_assert_int_eq(b->seq_len, 4096);
    ck_assert_int_eq(b->parallel.pp, 4);
    ck_assert_int_eq(b->parallel.dp, 1);
    st_scn_free(s);
}
END_TEST

START_TEST(test_hardware_gpu_overrides_its_base)
{
    st_diag d;
    st_scn *s =
        load("version: 1\n"
             "hardware:\n  gpus:\n    - { tdp: 600 W, name: h100-derated, base: h100-sxm }\n"
             "cluster: { gpu: h100-derated, nodes: 1 }\n"
             "workloads: [ { model: llama3-8b, gpus: 8 } ]\n",
             &d);
    ck_assert_msg(s != NULL, "%s", d.n ? d.items[0].msg : "");
    const st_gpu_spec *g = st_scn_cluster(s)->gpu;
    ck_assert_str_eq(g->name, "h100-derated");
    ck_assert_double_eq(g->tdp_w, 600);
    ck_assert_double_gt(g->peak_bf16, 9e14);
    /* The base's measured calibrations follow it: kernel curves, sustained clock, NVLink goodput
     * and NVLS key on the architecture and calibration key, not the new name. */
    ck_assert_int_eq(g->arch, ST_GPU_ARCH_HOPPER);
    ck_assert_int_eq(g->calib, ST_GPU_CALIB_H100_SXM);
    ck_assert_int_eq(g->nvswitch, 1);
    st_scn_free(s);
    s = load("version: 1\n"
             "hardware:\n  gpus:\n    - { name: a100-b, base: a100-sxm-80g }\n"
             "    - { name: a100-c, base: a100-b, hbm: 40 GB }\n"
             "    - { name: own, peak_bf16: 100 TFLOP/s, hbm: 10 GB, hbm_bw: 1 TB/s, tdp: 300 W }\n"
             "cluster: { gpu: a100-c, nodes: 1 }\n"
             "workloads: [ { model: llama3-8b, gpus: 8 } ]\n",
             &d);
    ck_assert_msg(s != NULL, "%s", d.n ? d.items[0].msg : "");
    ck_assert_int_eq(st_scn_cluster(s)->gpu->calib, ST_GPU_CALIB_A100_SXM_80G);
    ck_assert_int_eq(st_scn_cluster(s)->gpu->arch, ST_GPU_ARCH_AMPERE);
    st_scn_free(s);
}
END_TEST

START_TEST(test_inline_model_takes_style_from_mlp)
{
    st_diag d;
    st_scn *s = load("version: 1\ncluster: { gpu: a100-sxm-80g, nodes: 1 }\n"
                     "workloads:\n  - model: { layers: 2, hidden: 256, heads: 4, mlp: swiglu }\n"
                     "    gpus: 1\n",
                     &d);
    ck_assert_msg(s != NULL, "%s", d.n ? d.items[0].msg : "");
    const st_llm_spec *m = st_scn_workload(s, 0)->model;
    ck_assert_int_eq(m->norm, ST_NORM_RMSNORM);
    ck_assert_int_eq(m->bias, 0);
    ck_assert_int_eq(m->ffn_hidden, 1024);
    ck_assert_int_eq(m->kv_heads, 4);
    ck_assert_int_eq(m->vocab, 51200);
    st_scn_free(s);
}
END_TEST

START_TEST(test_typical_mistakes_name_file_line_and_column)
{
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nodse: 4 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8 } ]\n"),
                     "t.yaml:2:27: error: unknown key 'nodse' in cluster; did you mean 'nodes'?");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nodes: 2,\n"
                                 "  fabric: { nic: 400 W } }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8 } ]\n"),
                     "t.yaml:3:18: error: nic: wrong dimension: expected a bandwidth such as "
                     "'400 Gbit/s' or '900 GB/s', found a power ('400 W')");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 16,\n"
                                 "  parallel: { tp: 8, pp: 2, dp: 2 } } ]\n"),
                     "t.yaml:4:13: error: workload 'job0': tp*cp*pp*dp = 8*1*2*2 = 32, but "
                     "gpus is 16");
    ck_assert_str_eq(first_error(""), "t.yaml: error: empty scenario: expected a mapping with "
                                      "'version', 'cluster' and 'workloads'");
}
END_TEST

START_TEST(test_errors_are_collected_up_to_the_cap)
{
    char buf[8192] = "version: 1\ncluster: { gpu: h100-sxm, nodes: 1 }\nworkloads:\n";
    for (int i = 0; i < 30; i++)
        strcat(buf, "  - { model: llama3-8b, gpus: 8, bogus: 1 }\n");
    st_diag d;
    st_scn *s = load(buf, &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, ST_DIAG_MAX);
    ck_assert_uint_eq(d.items[0].loc.line, 4);
    ck_assert_uint_eq(d.items[19].loc.line, 23);
}
END_TEST

static int error_count(const char *yaml)
{
    st_diag d;
    st_scn *s = load(yaml, &d);
    st_scn_free(s);
    return d.n;
}

/* A cluster error, a unit error, tp*pp*dp != gpus, an unknown GPU and a misspelt workload key:
 * before, three check-and-fix rounds; now one. */
START_TEST(test_independent_errors_come_in_one_pass)
{
    st_diag d;
    st_scn *s = load("version: 1\ncluster: { gpu: h200, nodes: 4, nvlink_domain: 3 }\n"
                     "workloads:\n  - { model: llama3-70b, gpus: 32, parallel: { tp: 8, pp: 2, "
                     "dp: 4 },\n      submit: 2 hrs, stpes: 10 }\n",
                     &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 5);
    ck_assert_str_eq(d.items[0].msg, "unknown GPU 'h200'; did you mean 'h200-sxm'? (`strata "
                                     "catalog` lists the known GPUs)");
    ck_assert_str_eq(d.items[1].msg,
                     "nvlink_domain (3) must divide or be a multiple of gpus_per_node (8)");
    ck_assert_str_eq(d.items[2].msg, "submit: unknown unit 'hrs' for a time; did you mean 'h'?");
    ck_assert_str_eq(d.items[3].msg, "unknown key 'stpes' in workload; did you mean 'steps'?");
    ck_assert_str_eq(d.items[4].msg, "workload 'job0': tp*cp*pp*dp = 8*1*2*4 = 64, but gpus is 32");
    /* A bad hardware entry does not stop the next ones, nor the cluster and workloads. */
    ck_assert_int_eq(error_count("version: 1\nhardware:\n  gpus:\n"
                                 "    - { name: a, base: h100-sxm, tdp: 7 }\n"
                                 "    - { name: b, base: h100-sxm, hbm: 1 }\n"
                                 "cluster: { gpu: h100-sxm, nodes: 1, nodse: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8, bogus: 1 } ]\n"),
                     4);
}
END_TEST

/* A job too big for its pool names the pool and its size, not the cluster's: it said "but the
 * cluster has 16 (2 nodes x 8)" of a 48-GPU cluster, the pool's count under the cluster's name
 * (a new user's review); a job across pools names the pool its share does not fit. A cluster
 * of one type still says "the cluster". */
START_TEST(test_a_job_too_big_for_its_pool_names_the_pool)
{
    ck_assert_str_eq(first_error("version: 1\ncluster:\n  pools:\n"
                                 "    - { name: h100, gpu: h100-sxm, nodes: 4 }\n"
                                 "    - { name: b200, gpu: b200, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 32, pool: b200 } ]\n"),
                     "t.yaml:6:40: error: workload 'job0': asks for 32 GPUs of pool 'b200', which "
                     "has 16 (2 nodes x 8)");
    /* Across pools, the pool its share does not fit: it said "but the cluster has 48", the
       two pools' sum, of a 64-GPU cluster. */
    ck_assert_str_eq(first_error("version: 1\ncluster:\n  pools:\n"
                                 "    - { name: h100, gpu: h100-sxm, nodes: 4 }\n"
                                 "    - { name: b200, gpu: b200, nodes: 2 }\n"
                                 "    - { name: a100, gpu: a100-sxm-80g, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 64,\n"
                                 "  pool: { h100: 40, b200: 24 } } ]\n"),
                     "t.yaml:8:9: error: workload 'job0': asks for 40 GPUs of pool 'h100', which "
                     "has 32");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 32 } ]\n"),
                     "t.yaml:3:40: error: workload 'job0': asks for 32 GPUs, but the cluster has "
                     "16 (2 nodes x 8)");
}
END_TEST

/* A value that did not read is not the cause of a second error: the checks that use it skip. */
START_TEST(test_a_value_that_did_not_read_is_not_echoed)
{
    /* The cluster's size is unknown: no "asks for 64 GPUs, but the cluster has 0". */
    ck_assert_int_eq(error_count("version: 1\ncluster: { gpu: h100-sxm, nodes: four }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 64 } ]\n"),
                     1);
    /* tp is unknown: no "tp*cp*pp*dp = 1*1*1*8 = 8, but gpus is 16". */
    ck_assert_int_eq(error_count("version: 1\ncluster: { gpu: h100-sxm, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 16,\n"
                                 "  parallel: { tp: two, dp: 8 } } ]\n"),
                     1);
    /* The GPU is unknown: no fp8_recipe rule against it. */
    ck_assert_int_eq(error_count("version: 1\ncluster: { gpu: h300, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 16, precision: fp8,\n"
                                 "  fp8_recipe: mxfp8 } ]\n"),
                     1);
    /* The GPU's own entry has the error: the cluster naming it is not told it is unknown. */
    ck_assert_int_eq(error_count("version: 1\nhardware:\n  gpus: [ { name: g, base: h100-sxm, "
                                 "tdp: 7 } ]\ncluster: { gpu: g, nodes: 2 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 16 } ]\n"),
                     1);
    /* Same for a storage tier and a workload's checkpoint. */
    ck_assert_int_eq(error_count("version: 1\ncluster: { gpu: h100-sxm, nodes: 2, storage:\n"
                                 "  [ { name: f, kind: parallel-fs, read: 1 GB/s, write: 1 } ] }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 16,\n"
                                 "  checkpoint: { every: 1 h, tier: f } } ]\n"),
                     1);
}
END_TEST

/* Names the word begins come first, shortest first; else the nearest by edit distance. */
START_TEST(test_did_you_mean_prefers_names_the_word_begins)
{
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100, nodes: 1 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8 } ]\n"),
                     "t.yaml:2:17: error: unknown GPU 'h100'; did you mean 'h100-sxm' or "
                     "'h100-pcie'? (`strata catalog` lists the known GPUs)");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: H200-SXM, nodes: 1 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8 } ]\n"),
                     "t.yaml:2:17: error: unknown GPU 'H200-SXM'; did you mean 'h200-sxm'? "
                     "(`strata catalog` lists the known GPUs)");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nodes: 1 }\n"
                                 "workloads: [ { model: mpt, gpus: 8 } ]\n"),
                     "t.yaml:3:23: error: unknown model 'mpt'; did you mean one of 'mpt-1b', "
                     "'mpt-3b', 'mpt-7b', ...? (`strata catalog` lists the presets)");
    ck_assert_str_eq(first_error("version: 1\ncluster: { gpu: h100-sxm, nod: 1 }\n"
                                 "workloads: [ { model: llama3-8b, gpus: 8 } ]\n"),
                     "t.yaml:2:27: error: unknown key 'nod' in cluster; did you mean 'node' or "
                     "'nodes'?");
}
END_TEST

/* Planners write an oversubscription as N:1. */
/* A suggestion longer than its buffer is cut on a character boundary, never inside one: the
 * CLI's 200-byte buffers hold users' names (a pool, a workload), whatever their script. */
START_TEST(test_did_you_mean_cuts_whole_characters)
{
    char name[201] = "", typo[201], buf[64];
    for (int i = 0; i < 100; i++)
        strcat(name, "\xc3\xa9"); /* 100 e-acutes, 200 bytes */
    memcpy(typo, name, sizeof typo);
    typo[198] = '\0'; /* one character short: a word the name begins */
    const char *cands[] = {name};
    st_did_you_mean(typo, cands, 1, buf, sizeof buf);
    size_t len = strlen(buf);
    ck_assert_uint_gt(len, 20);
    ck_assert_uint_eq(st_utf8_check(buf, len), len);
}
END_TEST

START_TEST(test_oversubscription_reads_n_colon_1)
{
    st_diag d;
    st_scn *s = load("version: 1\ncluster: { gpu: h100-sxm, nodes: 4,\n"
                     "  fabric: { oversubscription: [ 2:1, '3:1' ] } }\n"
                     "workloads: [ { model: llama3-8b, gpus: 8 } ]\n",
                     &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_double_eq(st_scn_cluster(s)->fabric.oversub[0], 2);
    ck_assert_double_eq(st_scn_cluster(s)->fabric.oversub[1], 3);
    st_scn_free(s);
}
END_TEST

/* Routing follows the transport unless stated: InfiniBand's subnet manager routes adaptively
 * (opensm's ar_updn, NCCL's AR-capable transfers), Ethernet hashes each flow (ECMP); a stated
 * routing wins either way (models/fabric/transport.c). */
START_TEST(test_routing_defaults_to_the_transports)
{
    const struct {
        const char *fabric;
        st_routing want;
    } cases[] = {
        {"{ transport: infiniband }", ST_ROUTING_ADAPTIVE},
        {"{ transport: roce-v2 }", ST_ROUTING_ECMP},
        {"{ nic: 400 Gbit/s }", ST_ROUTING_ECMP},
        {"{ transport: infiniband, routing: ecmp }", ST_ROUTING_ECMP},
        {"{ transport: roce-v2, routing: adaptive }", ST_ROUTING_ADAPTIVE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char yaml[256];
        int len = snprintf(yaml, sizeof yaml,
                           "version: 1\ncluster: { gpu: h100-sxm, nodes: 4, fabric: %s }\n"
                           "workloads: [ { model: llama3-8b, gpus: 8 } ]\n",
                           cases[i].fabric);
        ck_assert_int_lt(len, (int)sizeof yaml); /* the whole scenario, not a cut one */
        st_diag d;
        st_scn *s = load(yaml, &d);
        ck_assert_msg(s != NULL, "%s did not load", cases[i].fabric);
        ck_assert_msg(st_scn_cluster(s)->fabric.routing == cases[i].want, "%s", cases[i].fabric);
        st_scn_free(s);
    }
}
END_TEST

/* Every section is modelled now: a scenario with all of them gets no warning, and a warning
 * does not stop the load. Quotas under a policy that reads none get one, at the key's value. */
START_TEST(test_unmodelled_sections_warn_once_each)
{
    st_diag d;
    st_scn *s = load(MINIMAL, &d);
    ck_assert_int_eq(st_scn_warnings(s)->n, 0);
    st_scn_free(s);
    /* The racks' feed, cooling and the facility are modelled (models/plant): no warning. */
    s = load("version: 1\ncluster: { gpu: h100-sxm, nodes: 4, racks: { nodes_per_rack: 2, "
             "cooling: { kind: air } },\n"
             "  facility: { power_capacity: 1 MW } }\n"
             "workloads:\n  - { model: llama3-8b, gpus: 32 }\n"
             "scheduler: { preemption: true }\ncost: { delivery: cloud, gpu_hour_price: 4 USD/h }\n"
             "trace: { file: " ST_SOURCE_DIR "/tests/warn/jobs.csv }\n",
             &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(st_scn_warnings(s)->n, 0); /* preemption is read by the policies now */
    ck_assert_int_eq(st_scn_sched(s)->preemption, 1);
    st_scn_free(s);
    s = load(MINIMAL "scheduler: { policy: srtf, quotas: { a: 50% } }\n", &d);
    ck_assert_ptr_nonnull(s);
    const st_diag *w = st_scn_warnings(s);
    ck_assert_int_eq(w->n, 1);
    ck_assert_str_eq(w->items[0].msg,
                     "scheduler.quotas: policy 'srtf' reads no quotas (fair-share does)");
    ck_assert_int_eq(st_scn_sched(s)->preemption, -1); /* unset */
    st_scn_free(s);
    s = load(MINIMAL "scheduler: { policy: fair-share, quotas: { a: 50% } }\n", &d);
    ck_assert_int_eq(st_scn_warnings(s)->n, 0);
    st_scn_free(s);
}
END_TEST

/* scheduler.tiresias: its defaults when absent, the limits and knob when given, and limits
 * that do not increase refused at the offending one. */
START_TEST(test_tiresias_block)
{
    st_diag d;
    st_scn *s = load(MINIMAL, &d);
    const st_tiresias_cfg *t = &st_scn_sched(s)->tiresias;
    ck_assert_int_eq(t->queues, 3);
    ck_assert_double_eq(t->limit_gpu_s[0], 3250);
    ck_assert_double_eq(t->limit_gpu_s[1], 7200);
    ck_assert_double_eq(t->promote_knob, 0);
    st_scn_free(s);
    s = load(MINIMAL "scheduler: { policy: tiresias, tiresias: { queue_limits: [1 h, 2 h, 10 h], "
                     "promote_knob: 8 } }\n",
             &d);
    t = &st_scn_sched(s)->tiresias;
    ck_assert_int_eq(t->queues, 4);
    ck_assert_double_eq(t->limit_gpu_s[2], 36000);
    ck_assert_double_eq(t->promote_knob, 8);
    st_scn_free(s);
    s = load(MINIMAL "scheduler: { tiresias: { queue_limits: [2 h, 1 h] } }\n", &d);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "expected each limit above the one before"));
}
END_TEST

/* Each name table is its enum's X-macro list: one name per value, in value order, then NULL
 * (the loader's enum reader stops there, so a missing NULL would read past the table). */
#define CHECK_NAMES(LIST, table)                                                                   \
    do {                                                                                           \
        const char *const *tbl = table;                                                            \
        LIST(CHECK_ONE)                                                                            \
        ck_assert_ptr_null(tbl[0 LIST(ST__ENUM_COUNT)]);                                           \
    } while (0)
#define CHECK_ONE(id, name) ck_assert_str_eq(tbl[id], name);

START_TEST(test_enum_name_tables_follow_their_lists)
{
    ck_assert_str_eq(st_ckpt_mode_names[ST_CKPT_TWO_STAGE], "two-stage");
    CHECK_NAMES(ST_CKPT_MODES, st_ckpt_mode_names);
    CHECK_NAMES(ST_TIER_KINDS, st_tier_kind_names);
    CHECK_NAMES(ST_ATTENTIONS, st_attention_names);
    CHECK_NAMES(ST_VALID_METRICS, st_valid_metric_names);
    CHECK_NAMES(ST_GRAD_COLLS, st_grad_coll_names);
    CHECK_NAMES(ST_POSEMBS, st_posemb_names);
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_GOODPUT), "goodput");
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_OUTPUT_TOKENS_PER_S), "output_tokens_per_s");
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_TTFT_MEAN), "ttft_mean_s");
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_TPOT_MEAN), "tpot_mean_s");
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_TTFT_P99), "ttft_p99_s");
    ck_assert_str_eq(st_scn_metric_name(ST_METRIC_TPOT_P99), "tpot_p99_s");
    ck_assert_str_eq(st_scn_metric_name((st_valid_metric)(ST_METRIC_TPOT_P99 + 1)), "?");
    CHECK_NAMES(ST_REQ_MODES, st_req_mode_names);
    CHECK_NAMES(ST_ADMISSIONS, st_admission_names);
}
END_TEST

/* A node read again through a YAML alias gives its error once, not once per workload that
 * merges it (four workloads printed "unknown pool 'b300'" four times at one place); and a pool
 * that failed is not then "no job across pools" to pool_batch. */
START_TEST(test_an_aliased_error_is_said_once)
{
    st_diag d;
    st_scn *s = load("version: 1\n"
                     "cluster:\n"
                     "  pools: [{ name: h100, gpu: h100-sxm, nodes: 4 }, { name: b200, gpu: b200, "
                     "nodes: 4 }]\n"
                     "  gpus_per_node: 8\n"
                     "workloads:\n"
                     "  - &a { name: a, pool: { h100: 8, b300: 8 }, model: llama3-8b, gpus: 16,\n"
                     "         global_batch: 16, seq_len: 1024 }\n"
                     "  - { <<: *a, name: b, pool_batch: balanced }\n"
                     "  - { <<: *a, name: c }\n",
                     &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown pool 'b300'"));
    ck_assert_uint_eq(d.items[0].loc.line, 6);
}
END_TEST

/* A chain of merge keys, each mapping merging the one before, expands quadratically: mapping k
 * holds k entries. The expansion is counted before it is copied, so the limit fires at the
 * mapping that passes it (mapping 998, whatever the chain's length), not after the whole chain was
 * copied at the list's end (the old error sat at line 7 after seconds and a gigabyte). */
START_TEST(test_a_merge_chain_stops_where_it_passes_the_limit)
{
    enum { K = 3000 };
    size_t cap = 64 * (size_t)K + 1024, n = 0;
    char *y = malloc(cap);
    ck_assert_ptr_nonnull(y);
    n += (size_t)snprintf(y + n, cap - n, MINIMAL "x:\n  - &m0 {k0: 1}\n");
    for (int k = 1; k < K; k++)
        n += (size_t)snprintf(y + n, cap - n, "  - &m%d {<<: *m%d, k%d: 1}\n", k, k - 1, k);
    ck_assert_uint_lt(n, cap);
    st_diag d;
    st_scn *s = load(y, &d);
    free(y);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "expands to more than 1000000 nodes"));
    /* mapping k adds about 2k entries: the running total passes 10^6 at k = 998 */
    ck_assert_uint_eq(d.items[0].loc.line, 1004); /* mapping 998 */
    ck_assert_uint_eq(d.items[0].loc.col, 5);
}
END_TEST

Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("loader");
    tcase_add_test(tc, test_every_example_parses);
    tcase_add_test(tc, test_routing_defaults_to_the_transports);
    tcase_add_test(tc, test_minimal_scenario_gets_documented_defaults);
    tcase_add_test(tc, test_values_keep_their_location);
    tcase_add_test(tc, test_anchors_aliases_and_merge_keys_work);
    tcase_add_test(tc, test_hardware_gpu_overrides_its_base);
    tcase_add_test(tc, test_inline_model_takes_style_from_mlp);
    tcase_add_test(tc, test_typical_mistakes_name_file_line_and_column);
    tcase_add_test(tc, test_errors_are_collected_up_to_the_cap);
    tcase_add_test(tc, test_independent_errors_come_in_one_pass);
    tcase_add_test(tc, test_a_job_too_big_for_its_pool_names_the_pool);
    tcase_add_test(tc, test_a_value_that_did_not_read_is_not_echoed);
    tcase_add_test(tc, test_did_you_mean_prefers_names_the_word_begins);
    tcase_add_test(tc, test_did_you_mean_cuts_whole_characters);
    tcase_add_test(tc, test_oversubscription_reads_n_colon_1);
    tcase_add_test(tc, test_unmodelled_sections_warn_once_each);
    tcase_add_test(tc, test_tiresias_block);
    tcase_add_test(tc, test_enum_name_tables_follow_their_lists);
    tcase_add_test(tc, test_an_aliased_error_is_said_once);
    tcase_add_test(tc, test_a_merge_chain_stops_where_it_passes_the_limit);
    suite_add_tcase(s, tc);
    return s;
}
