/* A scenario whose cluster mapping's body is given as text, beside one 8-GPU Llama 3 8B workload:
 * what suites that test what a cluster section loads into share. Header-only, for the test
 * binary alone. */
#ifndef ST_TESTS_CLUSTER_TEXT_H
#define ST_TESTS_CLUSTER_TEXT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/scenario.h"

/* The scenario with `cluster` as its cluster mapping's body (each line indented two spaces),
 * NULL when it does not load; its first error into why (cap bytes, "" when none). The text is
 * sized to what it holds, never cut. */
static inline st_scn *cluster_text(const char *cluster, char *why, size_t cap)
{
    static const char fmt[] =
        "version: 1\ncluster:\n%s\nworkloads:\n  - { model: llama3-8b, gpus: 8 }\n";
    int len = snprintf(NULL, 0, fmt, cluster);
    ck_assert_int_ge(len, 0);
    char *yaml = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(yaml);
    snprintf(yaml, (size_t)len + 1, fmt, cluster);
    st_diag d;
    memset(&d, 0, sizeof d);
    st_scn *s = NULL;
    st_scn_load_buffer("t.yaml", yaml, (size_t)len, &s, &d);
    free(yaml);
    why[0] = '\0';
    if (d.n)
        st_err_format(&d.items[0], why, cap);
    return s;
}

/* The same, held to load: the scenario (the caller frees it). */
static inline st_scn *cluster_text_ok(const char *cluster)
{
    char why[512];
    st_scn *s = cluster_text(cluster, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    return s;
}

#endif
