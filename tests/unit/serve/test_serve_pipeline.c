/* Pipeline-parallel serving (models/serve/serve.h, parallel.pp > 1): the stages split the
 * weights and widen the cache, one request crosses every stage in turn, batches in flight keep
 * the stages busy, and the replica counts its tp x pp GPUs. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/serve/serve.h"
#include "models/silicon/ops.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/serve/serve_check.h"

/* Two 8-GPU H100 nodes serving model in FP8 on one replica of tp x pp GPUs. */
static st_scn *scenario(const char *model, int tp, int pp, const char *requests)
{
    return serve_scenariof(
        "version: 1\nname: t\ncluster: { gpu: h100-sxm, nodes: 2, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n    model: %s\n    precision: fp8\n"
        "    gpus: %d\n    parallel: { tp: %d, pp: %d }\n    requests: %s\n"
        "    batching: { admission: reserve, max_seqs: 512 }\n",
        model, tp * pp, tp, pp, requests);
}

static void serve(const st_scn *s, st_serve_result *r)
{
    st_err err = {0};
    ck_assert_msg(serve_run(s, st_scn_seed(s), r, &err) == 0, "%s", err.msg);
}

/* Two stages hold half the layers each: a GPU's weights fall to about half (the embedding on
 * the first, the output layer on the last), what it frees goes to the cache, and the replica's
 * cache is its tokens at every layer's K and V over its tp GPUs. */
START_TEST(test_stages_split_the_weights_and_widen_the_cache)
{
    const char *req = "{ mode: offline, count: 200, input_tokens: 1000, output_tokens: 100 }";
    st_scn *a = scenario("llama3-70b", 2, 1, req), *b = scenario("llama3-70b", 2, 2, req);
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    ck_assert(rb.mem.weights < 0.52 * ra.mem.weights && rb.mem.weights > 0.48 * ra.mem.weights);
    ck_assert(rb.kv_cache_tokens > 2 * ra.kv_cache_tokens);
    double per_token = st_ops_kv_bytes_per_token(st_scn_workload(b, 0)); /* every layer, 1/tp */
    ASSERT_REL(rb.kv_cache_bytes, (double)rb.kv_cache_tokens * per_token * 2, 1e-9);
    ASSERT_REL(ra.kv_cache_bytes, (double)ra.kv_cache_tokens * per_token * 2, 1e-9);
    /* GPU-hours count the replica's four GPUs */
    ASSERT_REL(rb.gpu_hours, 4 * rb.span_s / 3600, 1e-12);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* One request alone: each token crosses both stages in turn, so its time per output token is
 * the single stage's, plus the hand-over of one token's hidden states, and each stage idles
 * while the other runs: half the span. */
START_TEST(test_one_request_crosses_every_stage)
{
    const char *req = "{ mode: offline, count: 1, input_tokens: 500, output_tokens: 200 }";
    st_scn *a = scenario("llama3-8b", 1, 1, req), *b = scenario("llama3-8b", 1, 2, req);
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    ck_assert(rb.tpot_s.p50 > ra.tpot_s.p50);
    ck_assert(rb.tpot_s.p50 < 1.05 * ra.tpot_s.p50);
    ck_assert(rb.iteration_mean_s > ra.iteration_mean_s);
    double idle_a = ra.cycle.b.bubble_s / ra.cycle.step_time_s,
           idle_b = rb.cycle.b.bubble_s / rb.cycle.step_time_s;
    ck_assert_msg(idle_a < 0.01, "one stage idles %g", idle_a);
    ck_assert_msg(idle_b > 0.45 && idle_b < 0.55, "two stages idle %g", idle_b);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* Many requests at once: two batches in flight keep both stages busy, so the two-stage replica
 * serves nearly what two one-stage replicas would, where one batch at a time would serve what
 * one does. */
START_TEST(test_batches_in_flight_keep_the_stages_busy)
{
    const char *req = "{ mode: offline, count: 2000, input_tokens: 200, output_tokens: 200 }";
    st_scn *a = scenario("llama3-8b", 1, 1, req), *b = scenario("llama3-8b", 1, 2, req);
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    double idle = rb.cycle.b.bubble_s / rb.cycle.step_time_s;
    ck_assert_msg(idle < 0.1, "two stages idle %g", idle);
    ck_assert_msg(rb.tokens_per_s > 1.5 * ra.tokens_per_s, "%g against %g", rb.tokens_per_s,
                  ra.tokens_per_s);
    ck_assert_int_eq(rb.requests, 2000);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* Two stages of 8 GPUs, one per node, hand over on the network: the run serves every request
 * and is the same twice. */
START_TEST(test_stages_across_nodes_serve_every_request)
{
    const char *req = "{ rate: 4, count: 300, input_tokens: 1000, output_tokens: 100 }";
    st_scn *s = scenario("llama3-70b", 8, 2, req);
    st_serve_result r1, r2;
    serve(s, &r1);
    serve(s, &r2);
    ck_assert_int_eq(r1.requests, 300);
    ck_assert(r1.tpot_s.p99 > 0 && r1.ttft_s.p99 > 0);
    ck_assert(memcmp(&r1.tpot_s, &r2.tpot_s, sizeof r1.tpot_s) == 0);
    ck_assert(r1.tokens_per_s == r2.tokens_per_s);
    st_scn_free(s);
}
END_TEST

Suite *serve_pipeline_suite(void)
{
    Suite *s = suite_create("serve_pipeline");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stages_split_the_weights_and_widen_the_cache);
    tcase_add_test(tc, test_one_request_crosses_every_stage);
    tcase_add_test(tc, test_batches_in_flight_keep_the_stages_busy);
    tcase_add_test(tc, test_stages_across_nodes_serve_every_request);
    suite_add_tcase(s, tc);
    return s;
}
