/* Serving stacks' fixed costs (models/config/frontend.h). */
#include "models/config/frontend.h"

#include <stdio.h>
#include <string.h>

const st_frontend st_frontends[] = {
    /* The engine alone, in the process that sends the requests: TensorRT-LLM's trtllm-bench and
     * vLLM's LLM class, the offline benchmarks the throughput sets come from. */
    {.name = "none"},
    /* Triton Inference Server with its TensorRT-LLM backend (the tensorrtllm_backend ensemble:
     * Python preprocessing, tensorrt_llm, Python postprocessing once per streamed token), as
     * NVIDIA's GenAI-Perf tutorial measured it ("Profile Large Language Models with GenAI-Perf",
     * Triton Inference Server user guide, perf_analyzer/genai-perf/docs/tutorial.html): GPT-2
     * (124 M parameters) served through Triton's TensorRT-LLM backend, gRPC streaming, 200 input
     * and 100 output tokens, 50 requests one at a time: mean time to first token 13.68 ms, mean
     * inter-token latency 1.86 ms. The tutorial does not name its GPU: the engine's figures are
     * the model's on an H100 SXM (scenarios/checks/frontend/genai-perf-gpt2.yaml); on an A100
     * they are 1.05 and 0.73 ms, which moves each derived figure by under 0.3 ms. */
    {.name = "triton-trtllm",
     .measured_ttft_s = 13.68e-3,
     .measured_itl_s = 1.86e-3,
     .engine_ttft_s = 0.797e-3,
     .engine_tpot_s = 0.651e-3},
    {.name = NULL},
};

const st_frontend *st_frontend_find(const char *name)
{
    for (const st_frontend *f = st_frontends; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

void st_frontend_names(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (const st_frontend *f = st_frontends; f->name && at < n; f++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", f == st_frontends ? "" : ", ", f->name);
}

/* One request at a time, every iteration holds that request alone: the gap between its tokens
 * is one decode iteration, the engine's and the host's. */
double st_frontend_iteration_s(const st_frontend *f)
{
    double s = f->measured_itl_s - f->engine_tpot_s;
    return s > 0 ? s : 0;
}

/* Its first token: the front end's time, then the prefill iteration, the engine's and the
 * host's. */
double st_frontend_request_s(const st_frontend *f)
{
    double s = f->measured_ttft_s - f->engine_ttft_s - st_frontend_iteration_s(f);
    return s > 0 ? s : 0;
}
