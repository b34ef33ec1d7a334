/* The model-key suites' loader: a one-workload scenario on one H100 node whose model is the
 * YAML flow mapping `model`, so a test can read what the loader made of a key or its first
 * error. */
#ifndef ST_TESTS_INLINE_MODEL_H
#define ST_TESTS_INLINE_MODEL_H

#include <stdio.h>
#include <string.h>

#include "scenarios/scenario.h"

/* The loaded model (copied to *out: its numbers only, its strings die with the scenario) and 1,
 * or 0 with the loader's first error in err ("" when it failed without one). */
static inline int load_inline_model(const char *model, st_llm_spec *out, char *err, size_t cap)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 1 }\nworkloads:\n"
             "  - { model: %s, gpus: 8, parallel: { dp: 8 } }\n",
             model);
    st_scn *s = NULL;
    st_diag d;
    memset(&d, 0, sizeof d);
    st_scn_load_buffer("t.yaml", yaml, strlen(yaml), &s, &d);
    int ok = s != NULL && d.n == 0;
    if (ok)
        *out = *st_scn_workload(s, 0)->model;
    err[0] = 0;
    if (d.n)
        st_err_format(&d.items[0], err, cap);
    st_scn_free(s);
    return ok;
}

#endif
