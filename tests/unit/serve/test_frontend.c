/* The serving stack (`frontend:`, models/config/frontend.h): the triton-trtllm row's engine
 * figures are the engine model's own for the run it was measured on, its derived figures are
 * the ones the docs quote, a stack's time per request moves every time to first token by
 * exactly that time, and its host time per iteration lengthens every iteration, the GPUs
 * idle through it; an offline batch and a stream take their defaults. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "models/config/frontend.h"
#include "models/serve/serve.h"
#include "scenarios/scenario.h"
#include "unit/check_util.h"
#include "unit/serve/serve_check.h"

/* The GenAI-Perf tutorial's run (scenarios/calibration/frontend-genai-perf-gpt2.yaml) on one
 * `gpu`, served through the stack `frontend` (YAML flow text) and the request stream
 * `requests`. */
static st_scn *gpt2_on(const char *gpu, const char *frontend, const char *requests)
{
    return serve_scenariof(
        "version: 1\nname: t\nseed: 1\ncluster: { gpu: %s, nodes: 1, gpus_per_node: 8 }\n"
        "workloads:\n  - name: s\n    kind: inference\n"
        "    model: { name: gpt2, layers: 12, hidden: 768, heads: 12, vocab: 50257,\n"
        "             max_positions: 1024, mlp: gelu, tied_embeddings: true }\n"
        "    precision: bf16\n    gpus: 1\n    parallel: { tp: 1 }\n    requests: %s\n%s%s%s",
        gpu, requests, frontend ? "    frontend: " : "", frontend ? frontend : "",
        frontend ? "\n" : "");
}

static st_scn *gpt2(const char *frontend, const char *requests)
{
    return gpt2_on("h100-sxm", frontend, requests);
}

static const char *const one_at_a_time =
    "{ rate: 0.01/s, count: 50, input_tokens: 200, output_tokens: 100 }";

static void serve(const st_scn *s, st_serve_result *r)
{
    st_err err = {0};
    ck_assert_msg(serve_run(s, st_scn_seed(s), r, &err) == 0, "%s", err.msg);
}

/* The row keeps the engine model's times for the measured run: the shipped calibration
 * scenario, run as the loader reads it, gives them within 1% (the row rounds them to three
 * figures). A change to the kernel models that moves them must re-derive the row. */
START_TEST(test_the_row_is_the_engines_share_of_its_run)
{
    st_scn *s = NULL;
    st_diag d = {0};
    ck_assert_int_eq(st_scn_load_file(ST_SOURCE_DIR
                                      "/scenarios/calibration/frontend-genai-perf-gpt2.yaml",
                                      &s, &d),
                     0);
    st_serve_result r;
    serve(s, &r);
    ck_assert(r.batch_mean == 1); /* one request at a time, as measured */
    const st_frontend *f = st_frontend_find("triton-trtllm");
    ck_assert_ptr_nonnull(f);
    ASSERT_REL(r.ttft_s.mean, f->engine_ttft_s, 0.01);
    ASSERT_REL(r.tpot_s.mean, f->engine_tpot_s, 0.01);
    /* the figures scenario-reference.md quotes */
    char a[32], b[32];
    snprintf(a, sizeof a, "%.4g", st_frontend_request_s(f) * 1e3);
    snprintf(b, sizeof b, "%.4g", st_frontend_iteration_s(f) * 1e3);
    ck_assert_str_eq(a, "11.67");
    ck_assert_str_eq(b, "1.209");
    /* the measured latencies are the stack's and the engine's together */
    ASSERT_REL(st_frontend_request_s(f) + 2 * st_frontend_iteration_s(f) + f->engine_ttft_s +
                   f->engine_tpot_s,
               f->measured_ttft_s + f->measured_itl_s, 1e-12);
    /* the A100's share of the same run, which docs/models/inference.md quotes beside it */
    st_scn *a100 = gpt2_on("a100-sxm-80g", "none", one_at_a_time);
    st_serve_result ra;
    serve(a100, &ra);
    ck_assert(fabs(ra.ttft_s.mean - 1.05e-3) < 0.005e-3);
    ck_assert(fabs(ra.tpot_s.mean - 0.73e-3) < 0.005e-3);
    st_scn_free(a100);
    const st_frontend *none = st_frontend_find("none");
    ck_assert(st_frontend_request_s(none) == 0 && st_frontend_iteration_s(none) == 0);
    ck_assert_ptr_null(st_frontend_find("vllm"));
    st_scn_free(s);
}
END_TEST

/* A time per request moves every request's time to first token by exactly that much and
 * nothing else: the engine runs as it did. */
START_TEST(test_a_time_per_request_moves_every_first_token)
{
    st_scn *a = gpt2("none", "{ rate: 300/s, count: 400, input_tokens: 200, output_tokens: 100 }");
    st_scn *b = gpt2("{ request: 7 ms, iteration: 0 s }",
                     "{ rate: 300/s, count: 400, input_tokens: 200, output_tokens: 100 }");
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    ck_assert(ra.batch_mean > 2); /* requests overlap: the shift holds under queueing too */
    ck_assert(fabs(rb.ttft_s.mean - ra.ttft_s.mean - 7e-3) < 1e-12);
    ck_assert(fabs(rb.ttft_s.p99 - ra.ttft_s.p99 - 7e-3) < 1e-12);
    ck_assert(rb.tpot_s.mean == ra.tpot_s.mean && rb.span_s == ra.span_s);
    ck_assert(rb.iterations == ra.iterations && rb.tokens_per_s == ra.tokens_per_s);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* A host time per iteration lengthens each one, the GPUs idle through it: one request at a
 * time, every token's gap grows by exactly it, and the GPU's mean power falls toward idle. */
START_TEST(test_a_host_time_per_iteration_lengthens_each)
{
    st_scn *a = gpt2("none", one_at_a_time);
    st_scn *b = gpt2("{ request: 0 s, iteration: 2 ms }", one_at_a_time);
    st_serve_result ra, rb;
    serve(a, &ra);
    serve(b, &rb);
    ck_assert(ra.batch_mean == 1 && rb.batch_mean == 1);
    ASSERT_REL(rb.tpot_s.mean - ra.tpot_s.mean, 2e-3, 1e-9);
    ASSERT_REL(rb.ttft_s.mean - ra.ttft_s.mean, 2e-3, 1e-9);
    ASSERT_REL(rb.iteration_mean_s - ra.iteration_mean_s, 2e-3, 1e-9);
    ck_assert_int_eq(rb.iterations, ra.iterations);
    ck_assert(rb.gpu_mean_w < ra.gpu_mean_w);
    st_scn_free(a);
    st_scn_free(b);
}
END_TEST

/* Not stated: an offline batch runs without a front end, a stream through Triton's. */
START_TEST(test_defaults_by_mode)
{
    st_scn *off = gpt2(NULL, "{ mode: offline, count: 10, input_tokens: 200, output_tokens: 10 }");
    st_scn *on = gpt2(NULL, one_at_a_time);
    const st_inference_cfg *o = &st_scn_workload(off, 0)->inference;
    const st_inference_cfg *p = &st_scn_workload(on, 0)->inference;
    ck_assert_str_eq(o->frontend, "none");
    ck_assert(o->frontend_request_s == 0 && o->frontend_iteration_s == 0);
    const st_frontend *t = st_frontend_find("triton-trtllm");
    ck_assert_str_eq(p->frontend, "triton-trtllm");
    ck_assert(p->frontend_request_s == st_frontend_request_s(t));
    ck_assert(p->frontend_iteration_s == st_frontend_iteration_s(t));
    st_scn *m = gpt2("{ request: 8 ms, iteration: 1 ms }", one_at_a_time);
    const st_inference_cfg *q = &st_scn_workload(m, 0)->inference;
    ck_assert_ptr_null(q->frontend);
    ck_assert(q->frontend_request_s == 8e-3 && q->frontend_iteration_s == 1e-3);
    st_scn_free(off);
    st_scn_free(on);
    st_scn_free(m);
}
END_TEST

Suite *frontend_suite(void)
{
    Suite *s = suite_create("frontend");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_the_row_is_the_engines_share_of_its_run);
    tcase_add_test(tc, test_a_time_per_request_moves_every_first_token);
    tcase_add_test(tc, test_a_host_time_per_iteration_lengthens_each);
    tcase_add_test(tc, test_defaults_by_mode);
    suite_add_tcase(s, tc);
    return s;
}
