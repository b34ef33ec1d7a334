/* Prices per GPU type (models/cost/prices.c, docs/models/cost.md): the preset table's row for
 * each type, the scenario's price per type over its price for every type over the table, and a
 * type with none refused, never priced at 0. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/cost/cost.h"
#include "scenarios/scenario.h"

#define CLOSE(a, b)                                                                                \
    ck_assert_double_lt(fabs((double)(a) - (double)(b)), 1e-9 * fabs((double)(b)) + 1e-9)

/* Each GPU type has its own row: an HGX H100 server and a DGX B200 are priced apart, an H200
 * server has no sourced price (unknown, not 0), and the committed rates are per type. */
START_TEST(test_each_gpu_type_has_its_own_preset_row)
{
    st_cost_cfg c, h100, b200, h200;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    st_cost_for_gpu(&c, "h100-sxm", &h100);
    st_cost_for_gpu(&c, "b200", &b200);
    st_cost_for_gpu(&c, "h200-sxm", &h200);
    CLOSE(h100.node_price_usd, 296644);
    CLOSE(b200.node_price_usd, 515000);
    ck_assert_double_lt(h200.node_price_usd, 0);
    ck_assert_int_eq(h100.from[ST_COST_NODE].origin, ST_PRICE_PRESET);
    ck_assert_ptr_nonnull(strstr(h100.from[ST_COST_NODE].source, "HGX H100"));
    ck_assert_ptr_null(h200.from[ST_COST_NODE].source);
    CLOSE(h100.committed_gpu_hour_usd_per_s * 3600, 4.916);
    CLOSE(h200.committed_gpu_hour_usd_per_s * 3600, 5.408);
    CLOSE(h100.gpu_hour_usd_per_s * 3600, 98.32 / 8);
    /* every row has a year and a source */
    for (size_t i = 0; i < st_price_count(); i++) {
        ck_assert_int_ge(st_price_at(i)->year, 2017);
        ck_assert_ptr_nonnull(st_price_at(i)->source);
        ck_assert_double_gt(st_price_at(i)->value, 0);
    }
    ck_assert_ptr_null(st_price_find("node_price", "mi300x"));
}
END_TEST

static st_scn *load(const char *gpu, const char *cost, st_diag *d)
{
    char buf[1024];
    snprintf(buf, sizeof buf,
             "version: 1\ncluster: { gpu: %s, nodes: 2 }\n"
             "workloads:\n  - { model: llama3-8b, gpus: 16 }\n"
             "cost: { delivery: on-prem, switch_price: 20000 USD, storage_price: 100 USD/TB,\n"
             "        maintenance: 8%%, staff: 1000000 USD/y, %s }\n",
             gpu, cost);
    st_scn *s = NULL;
    memset(d, 0, sizeof *d);
    if (st_scn_load_buffer("t.yaml", buf, strlen(buf), &s, d))
        return NULL;
    return s;
}

/* The scenario's price for a type wins over the table's row for it; its price for every type
 * (the scalar, as before) wins over the table for every type; a type neither states nor the
 * table has stays unknown. */
START_TEST(test_scenario_prices_override_the_table_by_type_then_for_all)
{
    st_diag d;
    st_scn *s = load("h100-sxm", "node_price: { b200: 400000 USD, h200-sxm: 330000 USD }", &d);
    ck_assert_ptr_nonnull(s);
    const st_cost_cfg *c = st_scn_cost(s);
    CLOSE(c->node_price_usd, 296644); /* the cluster's type: the table's */
    ck_assert_int_eq(c->from[ST_COST_NODE].origin, ST_PRICE_PRESET);
    st_cost_cfg b, h, a;
    st_cost_for_gpu(c, "b200", &b);
    st_cost_for_gpu(c, "h200-sxm", &h);
    st_cost_for_gpu(c, "a100-sxm-80g", &a);
    CLOSE(b.node_price_usd, 400000);
    ck_assert_int_eq(b.from[ST_COST_NODE].origin, ST_PRICE_TYPE);
    ck_assert_ptr_nonnull(strstr(b.from[ST_COST_NODE].source, "cost.node_price.b200 (t.yaml:"));
    CLOSE(h.node_price_usd, 330000);
    CLOSE(a.node_price_usd, 148390);
    st_scn_free(s);

    s = load("h100-sxm", "node_price: 250000 USD", &d);
    ck_assert_ptr_nonnull(s);
    c = st_scn_cost(s);
    CLOSE(c->node_price_usd, 250000);
    st_cost_for_gpu(c, "b200", &b);
    st_cost_for_gpu(c, "h200-sxm", &h);
    CLOSE(b.node_price_usd, 250000); /* every type, as a scalar always meant */
    CLOSE(h.node_price_usd, 250000);
    ck_assert_int_eq(b.from[ST_COST_NODE].origin, ST_PRICE_ALL);
    st_scn_free(s);
}
END_TEST

/* A cluster whose GPU type has no sourced price and none stated is refused with the type named
 * and the key to state; so is a price for an unknown type. */
START_TEST(test_a_type_without_a_price_is_refused)
{
    st_diag d;
    ck_assert_ptr_null(load("h200-sxm", "amortization: 4 y", &d));
    ck_assert_int_ge(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "needs 'node_price' for GPU 'h200-sxm'"));
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "node_price: {h200-sxm: 300000 USD}"));
    ck_assert_ptr_null(load("h100-sxm", "node_price: { b20: 1 USD }", &d));
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown GPU type 'b20'; did you mean 'b200'"));
    st_scn *s = load("h200-sxm", "node_price: { h200-sxm: 330000 USD }", &d);
    ck_assert_ptr_nonnull(s);
    CLOSE(st_scn_cost(s)->node_price_usd, 330000);
    st_scn_free(s);
}
END_TEST

/* Rented GPUs the same way: the GPU-hour of each type, the scenario's per type over the
 * table's, and a type with neither is missing its rate (the loader and size refuse it). */
START_TEST(test_gpu_hour_rates_are_per_type_too)
{
    st_cost_cfg c, b, h, m;
    const char *why;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_CLOUD;
    st_typed_price t = {.key = ST_COST_GPU_HOUR, .gpu = "b200", .value = 6 / 3600.0, .source = "x"};
    c.typed = &t;
    c.n_typed = 1;
    st_cost_for_gpu(&c, "b200", &b);
    st_cost_for_gpu(&c, "h100-sxm", &h);
    st_cost_for_gpu(&c, "mi300x", &m);
    CLOSE(b.gpu_hour_usd_per_s * 3600, 6);
    CLOSE(h.gpu_hour_usd_per_s * 3600, 12.29);
    ck_assert_ptr_null(st_cost_missing(&b, &why));
    ck_assert_str_eq(st_cost_missing(&m, &why), "gpu_hour_price");
    ck_assert_ptr_nonnull(strstr(why, "no sourced price for its GPU type"));
}
END_TEST

Suite *prices_suite(void)
{
    Suite *s = suite_create("prices");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_each_gpu_type_has_its_own_preset_row);
    tcase_add_test(tc, test_scenario_prices_override_the_table_by_type_then_for_all);
    tcase_add_test(tc, test_a_type_without_a_price_is_refused);
    tcase_add_test(tc, test_gpu_hour_rates_are_per_type_too);
    suite_add_tcase(s, tc);
    return s;
}
