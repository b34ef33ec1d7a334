/* A service on a cluster of pools (docs/models/pools.md, docs/models/inference.md): it serves at
 * its pool's GPU type's figures, the same as on a cluster of that type alone (the fabric is the
 * same), its replicas run on its pool's GPUs alone, and it is priced at its type's rates. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/forecast/run.h"
#include "planner/run_spec.h"
#include "scenarios/scenario.h"
#include "unit/run_text.h"

/* Two pools of two 8-GPU nodes, H100 first (GPUs 0-15) and B200 (GPUs 16-31), or one type on
 * the same four nodes; a Llama 3 70B service of four tp-4 replicas on `pool`, priced by the
 * GPU-hour per type. */
static const char *const pooled =
    "version: 1\nname: p\nseed: 1\ncluster:\n  pools:\n"
    "    - { name: h100, gpu: h100-sxm, nodes: 2 }\n    - { name: b200, gpu: b200, nodes: 2 }\n"
    "  gpus_per_node: 8\n%s";
static const char *const one_type =
    "version: 1\nname: p\nseed: 1\ncluster: { gpu: %s, nodes: 4, gpus_per_node: 8 }\n%s";
static const char *const service =
    "workloads:\n  - name: chat\n    kind: inference\n%s    model: llama3-70b\n"
    "    precision: fp8\n    gpus: 16\n    parallel: { tp: 4 }\n"
    "    requests: { rate: 30/s, count: 1000, input_tokens: 1000, output_tokens: 250 }\n"
    "    slo: { ttft_p99: 2 s, tpot_p99: 50 ms }\n%s"
    "cost: { delivery: cloud, gpu_hour_price: { h100-sxm: 2 USD/h, b200: 6 USD/h } }\n";

/* The service on pool `pool` of the pooled cluster (or, pool NULL, on one cluster of `gpu`),
 * with `more` workloads after it. */
static void run_service(const char *pool, const char *gpu, const char *more, st_scn **s, st_run *r)
{
    char line[64] = "", work[2048], text[4096];
    if (pool)
        snprintf(line, sizeof line, "    pool: %s\n", pool);
    ck_assert((size_t)snprintf(work, sizeof work, service, line, more) < sizeof work);
    int n = pool ? snprintf(text, sizeof text, pooled, work)
                 : snprintf(text, sizeof text, one_type, gpu, work);
    ck_assert(n > 0 && (size_t)n < sizeof text);
    run_text(text, s, r);
}

/* On each pool the service's figures are its type's: equal to a cluster of that type alone,
 * and the two pools' differ (a B200 serves faster and holds a larger KV cache than an H100). */
START_TEST(test_a_service_serves_at_its_pools_type)
{
    static const char *const pool[] = {"h100", "b200"}, *const gpu[] = {"h100-sxm", "b200"};
    double tps[2];
    for (int k = 0; k < 2; k++) {
        st_scn *a = NULL, *b = NULL;
        st_run ra, rb;
        run_service(pool[k], NULL, "", &a, &ra);
        run_service(NULL, gpu[k], "", &b, &rb);
        const st_serve_result *x = &ra.serve[0].r, *y = &rb.serve[0].r;
        ck_assert_msg(x->tokens_per_s == y->tokens_per_s, "%s: %g tokens/s, alone %g", pool[k],
                      x->tokens_per_s, y->tokens_per_s);
        ck_assert(x->ttft_s.p99 == y->ttft_s.p99 && x->tpot_s.p99 == y->tpot_s.p99);
        ck_assert(x->kv_cache_bytes == y->kv_cache_bytes && x->mem.usable == y->mem.usable);
        ck_assert(x->max_rate_under_slo == y->max_rate_under_slo);
        ck_assert(x->gpu_mean_w == y->gpu_mean_w && x->energy_per_token_j == y->energy_per_token_j);
        /* priced at its type's GPU-hour rate, as on the cluster of that type */
        ck_assert(x->has_cost && y->has_cost);
        ck_assert_double_eq_tol(x->cost_per_million_tokens_usd, y->cost_per_million_tokens_usd,
                                1e-12 * y->cost_per_million_tokens_usd);
        tps[k] = x->tokens_per_s;
        st_run_release(&ra);
        st_run_release(&rb);
        st_scn_free(a);
        st_scn_free(b);
    }
    ck_assert_msg(tps[1] > tps[0], "b200 %g tokens/s, h100 %g", tps[1], tps[0]);
}
END_TEST

/* Its replicas are placed on its pool's GPUs alone: the B200 pool's 16-31, though the H100s
 * (0-15, where a one-pool placement starts) are free; beside a training job on the H100 pool
 * both start at once. */
START_TEST(test_a_services_replicas_land_on_its_pool)
{
    static const char *const train =
        "  - { name: pretrain, pool: h100, model: llama3-8b, seq_len: 8192, global_batch: 32,\n"
        "      gpus: 16, parallel: { tp: 2, dp: 8, zero: 1, microbatch: 1 }, steps: 20 }\n";
    for (int beside = 0; beside < 2; beside++) {
        st_scn *s = NULL;
        st_run r;
        run_service("b200", NULL, beside ? train : "", &s, &r);
        const st_run_serve *v = &r.serve[0];
        ck_assert(v->has_start && v->gpus);
        ck_assert_double_eq(v->wait_s, 0);
        for (int64_t g = 0; g < 16; g++)
            ck_assert_msg(v->gpus[g] >= 16 && v->gpus[g] < 32, "replica GPU %lld",
                          (long long)v->gpus[g]);
        ck_assert(r.has_cluster && r.cluster.n_pool == 2);
        ck_assert_uint_eq(r.cluster.pool[1].jobs, 1);
        ck_assert_uint_eq(r.cluster.pool[0].jobs, (size_t)beside);
        if (beside) {
            ck_assert(r.f[1].has_life);
            ck_assert_double_eq(r.f[1].wait_s, 0);
            for (int64_t g = 0; g < 16; g++)
                ck_assert(r.f[1].gpus[g] < 16);
        }
        st_run_release(&r);
        st_scn_free(s);
    }
}
END_TEST

/* Under a load curve's autoscaler each replica added is a cluster job of its own (a stretch):
 * those go to the service's pool too, never waiting for the H100s a training job holds. */
START_TEST(test_an_autoscaled_services_stretches_stay_in_its_pool)
{
    static const char *const text =
        "version: 1\nname: p\nseed: 1\ncluster:\n  pools:\n"
        "    - { name: h100, gpu: h100-sxm, nodes: 2 }\n    - { name: b200, gpu: b200, nodes: 2 }\n"
        "  gpus_per_node: 8\nworkloads:\n"
        "  - { name: pretrain, pool: h100, model: llama3-8b, seq_len: 8192, global_batch: 32,\n"
        "      gpus: 16, parallel: { tp: 2, dp: 8, zero: 1, microbatch: 1 }, steps: 3000 }\n"
        "  - name: chat\n    kind: inference\n    pool: b200\n    model: llama3-70b\n"
        "    precision: fp8\n    gpus: 16\n    parallel: { tp: 4 }\n    requests:\n"
        "      rate:\n        - { at: 0 h, rate: 5/s }\n        - { at: 20 min, rate: 60/s }\n"
        "        - { at: 40 min, rate: 5/s }\n        - { at: 1 h, rate: 5/s }\n"
        "      input_tokens: 1000\n      output_tokens: 250\n"
        "    slo: { ttft_p99: 2 s, tpot_p99: 50 ms }\n"
        "    autoscale: { min: 1, delay: 5 min }\n";
    st_scn *s = NULL;
    st_run r;
    run_text(text, &s, &r);
    const st_run_serve *v = &r.serve[1];
    ck_assert_msg(v->n_ups > 0 && v->has_start, "%zu stretches", v->n_ups);
    ck_assert_double_eq(v->scale_up_wait_s, 0); /* the B200s are free; the H100s are not */
    int seen = 0;
    for (int64_t k = 0; k < 4; k++)
        for (int64_t g = 0; v->seen[k] && g < 4; g++, seen++)
            ck_assert_msg(v->gpus[4 * k + g] >= 16, "replica %lld on GPU %lld", (long long)k,
                          (long long)v->gpus[4 * k + g]);
    ck_assert_int_gt(seen, 4);
    for (int64_t g = 0; g < 16; g++)
        ck_assert(r.f[0].gpus[g] < 16);
    st_run_release(&r);
    st_scn_free(s);
}
END_TEST

Suite *serve_pools_suite(void)
{
    Suite *s = suite_create("serve_pools");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_service_serves_at_its_pools_type);
    tcase_add_test(tc, test_a_services_replicas_land_on_its_pool);
    tcase_add_test(tc, test_an_autoscaled_services_stretches_stay_in_its_pool);
    suite_add_tcase(s, tc);
    return s;
}
