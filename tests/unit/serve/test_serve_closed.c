/* Streams held to a concurrency (models/serve/serve.c, st__serve_measure_capped): a closed loop of
 * clients, each sending its next request as its last completes, and a Poisson stream capped at a
 * number in flight, as `vllm bench serve --max-concurrency` runs them. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/serve/serve.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/serve/serve_check.h"

/* Llama 3 8B in FP8 on `gpus` H100 of one node at tp 1, the given requests (YAML flow text),
 * batching and front end. */
static st_scn *service(int gpus, const char *requests, const char *batching, const char *frontend)
{
    return serve_scenariof(
        "version: 1\nname: t\nseed: 3\ncluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n    model: llama3-8b\n    precision: fp8\n"
        "    gpus: %d\n    parallel: { tp: 1 }\n    requests: %s\n    batching: %s\n"
        "    frontend: %s\n",
        gpus, requests, batching, frontend);
}

static const char *const batching = "{ max_seqs: 256, max_batch_tokens: 8192 }";

static void serve(const st_scn *s, st_serve_result *r)
{
    st_err err = {0};
    ck_assert_msg(serve_run(s, st_scn_seed(s), r, &err) == 0, "%s", err.msg);
}

/* One workload's figures for `requests` on one GPU, the engine alone. */
static st_serve_result run_one(const char *requests, const char *batch)
{
    st_scn *s = service(1, requests, batch, "none");
    st_serve_result r;
    serve(s, &r);
    st_scn_free(s);
    return r;
}

/* One client: every request runs alone, so each one's time to first token is a lone request's
 * prefill, the same for all, and the throughput is the output tokens over one request's
 * latency, first token and the rest (the requests back to back, no think time). */
START_TEST(test_one_client_is_a_lone_request_after_another)
{
    st_serve_result lone = run_one("{ mode: offline, count: 1, input_tokens: 1000, "
                                   "output_tokens: 200 }",
                                   batching);
    st_serve_result r = run_one("{ concurrency: 1, count: 30, input_tokens: 1000, "
                                "output_tokens: 200 }",
                                batching);
    ck_assert_int_eq(r.requests, 30);
    ck_assert(r.batch_mean == 1);
    ASSERT_REL(r.ttft_s.p50, lone.ttft_s.p50, 1e-12);
    ASSERT_REL(r.ttft_s.p99, lone.ttft_s.p50, 1e-12);
    ASSERT_REL(r.tpot_s.p99, lone.tpot_s.p50, 1e-12);
    double latency = lone.ttft_s.p50 + 199 * lone.tpot_s.p50;
    ASSERT_REL(r.tokens_per_s, 200 / latency, 1e-9);
    ASSERT_REL(r.span_s, 30 * latency, 1e-9);
}
END_TEST

/* More clients serve more tokens a second, each at a slower pace, until the batch holds every
 * request: a loop of as many clients as requests is the offline batch, figure for figure. */
START_TEST(test_throughput_rises_with_clients_to_the_offline_batch)
{
    const char *fmt = "{ concurrency: %d, count: 400, input_tokens: 1000, output_tokens: 200 }";
    const int clients[] = {1, 4, 16, 64, 400};
    st_serve_result r[5];
    for (int i = 0; i < 5; i++) {
        char req[128];
        ck_assert((size_t)snprintf(req, sizeof req, fmt, clients[i]) < sizeof req);
        r[i] = run_one(req, batching);
    }
    for (int i = 1; i < 5; i++) {
        ck_assert_msg(r[i].tokens_per_s > r[i - 1].tokens_per_s, "%d clients: %g <= %g", clients[i],
                      r[i].tokens_per_s, r[i - 1].tokens_per_s);
        ck_assert(r[i].tpot_s.p50 > r[i - 1].tpot_s.p50);
    }
    st_serve_result off = run_one("{ mode: offline, count: 400, input_tokens: 1000, "
                                  "output_tokens: 200 }",
                                  batching);
    ck_assert(r[4].tokens_per_s == off.tokens_per_s);
    ck_assert(r[4].ttft_s.p99 == off.ttft_s.p99 && r[4].tpot_s.p50 == off.tpot_s.p50);
    /* a loop of clients at or past the batch it saturates serves within a few percent of the
     * offline batch */
    ck_assert(r[3].tokens_per_s > 0.7 * off.tokens_per_s);
}
END_TEST

/* Clients past the engine's request cap queue in it: the batch holds max_seqs, the throughput is
 * that of max_seqs clients, and the time to first token grows by the queue. */
START_TEST(test_clients_past_the_batch_limit_queue)
{
    const char *b = "{ max_seqs: 16, max_batch_tokens: 8192 }";
    st_serve_result at = run_one("{ concurrency: 16, count: 320, input_tokens: 500, "
                                 "output_tokens: 100 }",
                                 b);
    st_serve_result past = run_one("{ concurrency: 64, count: 320, input_tokens: 500, "
                                   "output_tokens: 100 }",
                                   b);
    ck_assert(past.batch_mean <= 16 && at.batch_mean <= 16);
    ASSERT_REL(past.tokens_per_s, at.tokens_per_s, 0.05);
    /* three requests wait behind each running one: a request's whole latency of queueing */
    ck_assert(past.ttft_s.p50 > at.ttft_s.p50 + 2 * 99 * at.tpot_s.p50);
}
END_TEST

/* The front end's time per request lies on the client's loop: its next request reaches the
 * engine that long after the last completes, and every time to first token carries it. */
START_TEST(test_the_front_end_lengthens_each_client_loop)
{
    const char *req = "{ concurrency: 1, count: 10, input_tokens: 300, output_tokens: 50 }";
    st_scn *a = service(1, req, batching, "none");
    st_scn *b = service(1, req, batching, "{ request: 10 ms, iteration: 0 s }");
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    ASSERT_REL(rb.ttft_s.p50, ra.ttft_s.p50 + 0.010, 1e-9);
    ASSERT_REL(rb.span_s, ra.span_s + 9 * 0.010, 1e-9);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* A Poisson stream under a cap it never reaches is the stream uncapped; past the engine's
 * capacity a cap of 8 holds the batch to 8 and each request's time to first token (counted
 * from its sending, as vLLM's benchmark counts it) to about a batch's, where the uncapped
 * stream's grows with its queue. */
START_TEST(test_a_capped_poisson_stream)
{
    const char *fmt = "{ rate: %s, count: 300, %s input_tokens: 1000, output_tokens: 100 }";
    char a[160], b[160], c[160], d[160];
    /* each whole: a cut request would be another scenario */
    ck_assert((size_t)snprintf(a, sizeof a, fmt, "2/s", "") < sizeof a);
    ck_assert((size_t)snprintf(b, sizeof b, fmt, "2/s", "concurrency: 300,") < sizeof b);
    ck_assert((size_t)snprintf(c, sizeof c, fmt, "500/s", "") < sizeof c);
    ck_assert((size_t)snprintf(d, sizeof d, fmt, "500/s", "concurrency: 8,") < sizeof d);
    st_serve_result ra = run_one(a, batching), rb = run_one(b, batching);
    ck_assert(ra.tokens_per_s == rb.tokens_per_s && ra.ttft_s.p99 == rb.ttft_s.p99);
    st_serve_result rc = run_one(c, batching), rd = run_one(d, batching);
    ck_assert(rd.batch_mean <= 8);
    ck_assert(rd.ttft_s.p99 < 0.2 * rc.ttft_s.p99);
    ck_assert(rd.tokens_per_s < rc.tokens_per_s);
}
END_TEST

/* Over replicas, the clients keep to min(concurrency, dp) of them, evenly: two clients on four
 * replicas serve as on two, and an uneven split still sends every request; the same seed gives
 * the same figures, lengths drawn in a range included. */
START_TEST(test_clients_split_over_replicas)
{
    const char *two = "{ concurrency: 2, count: 60, input_tokens: 500, output_tokens: 100 }";
    st_scn *s4 = service(4, two, batching, "none"), *s2 = service(2, two, batching, "none");
    st_serve_result r4, r2;
    serve(s4, &r4);
    serve(s2, &r2);
    ck_assert(r4.tokens_per_s == r2.tokens_per_s && r4.ttft_s.p99 == r2.ttft_s.p99);
    ck_assert_int_eq(r4.requests, 60);
    st_scn_free(s4);
    st_scn_free(s2);
    st_scn *u = service(3,
                        "{ concurrency: 7, count: 100, input_tokens: { mean: 500, "
                        "range_ratio: 0.5 }, output_tokens: { mean: 100, range_ratio: 0.5 } }",
                        batching, "none");
    st_serve_result x, y;
    serve(u, &x);
    serve(u, &y);
    ck_assert_int_eq(x.requests, 100);
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    st_scn_free(u);
}
END_TEST

/* A closed loop's latency target: its own stream's p99s judged, and the highest uncapped
 * Poisson rate within it searched as for any stream, up to the offline capacity. */
START_TEST(test_a_closed_loop_with_a_latency_target)
{
    st_scn *s = serve_scenario(
        "version: 1\nname: t\ncluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n    model: llama3-8b\n    precision: fp8\n"
        "    gpus: 1\n    requests: { concurrency: 4, count: 200, input_tokens: 500, "
        "output_tokens: 100 }\n    slo: { ttft_p99: 1 s, tpot_p99: 50 ms }\n");
    st_serve_result r;
    serve(s, &r);
    ck_assert(r.has_slo && r.slo_met);
    ck_assert(r.slo_attainment == 1);
    ck_assert(r.max_rate_under_slo > r.requests_per_s);
    st_scn_free(s);
}
END_TEST

/* A closed loop of `clients` sending `count` requests in all under the target `slo` (flow
 * text), on `gpus` replicas of one GPU: its figures. */
static st_serve_result run_slo(int gpus, int clients, int count, const char *slo)
{
    char y[640];
    int n = snprintf(y, sizeof y,
                     "version: 1\nname: t\ncluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }\n"
                     "workloads:\n  - name: s\n    kind: inference\n    model: llama3-8b\n"
                     "    precision: fp8\n    gpus: %d\n    requests: { concurrency: %d, count: "
                     "%d, input_tokens: 500, output_tokens: 100 }\n    slo: %s\n",
                     gpus, clients, count, slo);
    ck_assert(n > 0 && (size_t)n < sizeof y); /* the scenario was not cut */
    st_scn *s = serve_scenario(y);
    st_serve_result r;
    serve(s, &r);
    st_scn_free(s);
    return r;
}

/* The most clients within the target is the edge of the stated loop scaled (each client the
 * same 50 requests): a loop of that many meets it, one more does not, whichever loop asked; a
 * target every loop meets gives the engine's batch limit (max_seqs), one no loop meets 0. */
START_TEST(test_the_most_clients_within_a_target)
{
    const char *tpot = "{ tpot_p99: 12 ms }";
    int64_t m = run_slo(1, 4, 200, tpot).max_concurrency_under_slo;
    ck_assert_msg(m > 4 && m < 1024, "%lld clients", (long long)m);
    ck_assert_int_eq(run_slo(1, 200, 10000, tpot).max_concurrency_under_slo, m); /* misses */
    ck_assert(run_slo(1, (int)m, 50 * (int)m, tpot).slo_met);
    ck_assert(!run_slo(1, (int)m + 1, 50 * (int)m + 50, tpot).slo_met);
    ck_assert_int_eq(run_slo(1, 4, 200, "{ tpot_p99: 10 s }").max_concurrency_under_slo, 1024);
    ck_assert_int_eq(run_slo(1, 4, 200, "{ tpot_p99: 1 us }").max_concurrency_under_slo, 0);
}
END_TEST

/* A replica's clients within the target have one definition (st_serve_clients): one replica
 * alone, each client the stated loop's count / concurrency requests. The service's
 * max_concurrency_under_slo is dp times it, whatever the replicas: `strata run` once searched
 * the clients over dp replicas (a total that split unevenly, its busiest replica one client
 * more), `strata size` on one, and they disagreed (77 here on two replicas, 2 x 38 a
 * replica's; 123 against 2 x 61 on two tp-2 H100 replicas of the closed-loop example at 60
 * clients). */
START_TEST(test_the_clients_are_one_replicas_times_the_replicas)
{
    const char *slo = "{ ttft_p99: 300 ms, tpot_p99: 15 ms }";
    int64_t m = run_slo(1, 20, 200, slo).max_concurrency_under_slo;
    ck_assert_msg(m > 20 && m < 1024, "%lld clients", (long long)m);
    for (int dp = 2; dp <= 3; dp++) { /* two once gave 2m + 1 */
        int64_t md = run_slo(dp, 20, 200, slo).max_concurrency_under_slo;
        ck_assert_msg(md == dp * m, "%lld on %d, %lld on one", (long long)md, dp, (long long)m);
    }
    st_scn *s = serve_scenario(
        "version: 1\nname: t\ncluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n    model: llama3-8b\n    precision: fp8\n"
        "    gpus: 3\n    requests: { concurrency: 8, count: 80, input_tokens: 500, "
        "output_tokens: 100 }\n    slo: { ttft_p99: 300 ms, tpot_p99: 15 ms }\n");
    st_step_ctx *x = NULL;
    st_err err = {0};
    ck_assert_int_eq(st_step_ctx_new(st_scn_cluster(s), &x, &err), 0);
    int64_t one = -1, again = -1;
    ck_assert_int_eq(st_serve_clients(x, st_scn_workload(s, 0), st_scn_cluster(s), st_scn_seed(s),
                                      0, &one, &err),
                     0);
    ck_assert_int_eq(st_serve_clients(x, st_scn_workload(s, 0), st_scn_cluster(s), st_scn_seed(s),
                                      0, &again, &err),
                     0);
    st_step_ctx_free(x);
    ck_assert_int_eq(one, m); /* the same 10 requests a client, whatever the stated loop */
    ck_assert_int_eq(again, one);
    st_scn_free(s);
}
END_TEST

/* Clients who think: the loop serves N / (R + Z) requests per second, R a request's mean
 * latency (first token and the rest) and Z the mean think time (the response-time law of an
 * interactive system), their sends fall out of step (the times to first token spread), the same
 * seed gives the same figures, and the loop holds more clients within a target than one whose
 * clients send at once. */
START_TEST(test_thinking_clients_follow_the_response_time_law)
{
    const char *think = "{ concurrency: 8, count: 2000, think_time: 4 s, input_tokens: 500, "
                        "output_tokens: 100 }";
    st_serve_result r = run_one(think, batching), again = run_one(think, batching);
    ck_assert(memcmp(&r, &again, sizeof r) == 0);
    double R = r.ttft_s.mean + 99 * r.tpot_s.mean, law = 8 / (R + 4);
    /* within the sampling of 2,000 exponential think times (2.2% of their mean, one sigma) */
    ck_assert_msg(fabs(r.requests_per_s / law - 1) < 0.05, "%g requests/s against the law's %g",
                  r.requests_per_s, law);
    ck_assert(r.ttft_s.p99 > r.ttft_s.p50); /* out of step: not every prefill shared */
    /* the clients think before their first request too: 64 of them (3% of the requests) do not
       start as one wave of prompts, whose queue would be the p99 */
    st_serve_result w = run_one("{ concurrency: 64, count: 2000, think_time: 4 s, input_tokens: "
                                "500, output_tokens: 100 }",
                                batching);
    ck_assert_msg(w.ttft_s.p99 < 3 * w.ttft_s.p50, "p99 %g, p50 %g", w.ttft_s.p99, w.ttft_s.p50);
    const char *tpot = "{ tpot_p99: 12 ms }";
    int64_t at_once = run_slo(1, 4, 200, tpot).max_concurrency_under_slo;
    st_scn *s = serve_scenario(
        "version: 1\nname: t\ncluster: { gpu: h100-sxm, nodes: 1, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n    model: llama3-8b\n    precision: fp8\n"
        "    gpus: 1\n    requests: { concurrency: 4, count: 200, think_time: 2 s, input_tokens: "
        "500, output_tokens: 100 }\n    slo: { tpot_p99: 12 ms }\n");
    st_serve_result t;
    serve(s, &t);
    ck_assert_msg(t.max_concurrency_under_slo > at_once, "%lld thinking, %lld at once",
                  (long long)t.max_concurrency_under_slo, (long long)at_once);
    st_scn_free(s);
}
END_TEST

Suite *serve_closed_suite(void)
{
    Suite *s = suite_create("serve_closed");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_one_client_is_a_lone_request_after_another);
    tcase_add_test(tc, test_throughput_rises_with_clients_to_the_offline_batch);
    tcase_add_test(tc, test_clients_past_the_batch_limit_queue);
    tcase_add_test(tc, test_the_front_end_lengthens_each_client_loop);
    tcase_add_test(tc, test_a_capped_poisson_stream);
    tcase_add_test(tc, test_clients_split_over_replicas);
    tcase_add_test(tc, test_a_closed_loop_with_a_latency_target);
    tcase_add_test(tc, test_the_most_clients_within_a_target);
    tcase_add_test(tc, test_the_clients_are_one_replicas_times_the_replicas);
    tcase_add_test(tc, test_thinking_clients_follow_the_response_time_law);
    suite_add_tcase(s, tc);
    return s;
}
