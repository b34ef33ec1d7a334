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

/* Each GPU type has its own row: an HGX H100 server, an HGX H200 and a DGX B200 are priced
 * apart, an MI300X server has no sourced price (unknown, not 0), and the committed rates are per
 * type. */
START_TEST(test_each_gpu_type_has_its_own_preset_row)
{
    st_cost_cfg c, h100, b200, h200, mi;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    st_cost_for_gpu(&c, "h100-sxm", &h100);
    st_cost_for_gpu(&c, "b200", &b200);
    st_cost_for_gpu(&c, "h200-sxm", &h200);
    st_cost_for_gpu(&c, "mi300x", &mi);
    CLOSE(h100.node_price_usd, 8 * 31904.63);
    CLOSE(b200.node_price_usd, 515000);
    CLOSE(h200.node_price_usd, 8 * 39083.38);
    ck_assert_double_lt(mi.node_price_usd, 0);
    ck_assert_int_eq(h100.from[ST_COST_NODE].origin, ST_PRICE_PRESET);
    ck_assert_ptr_nonnull(strstr(h100.from[ST_COST_NODE].source, "HGX H100"));
    ck_assert_ptr_nonnull(strstr(h200.from[ST_COST_NODE].source, "HGX H200"));
    ck_assert_ptr_null(mi.from[ST_COST_NODE].source);
    CLOSE(h100.committed_gpu_hour_usd_per_s * 3600, 4.916);
    CLOSE(h200.committed_gpu_hour_usd_per_s * 3600, 5.408);
    CLOSE(h100.gpu_hour_usd_per_s * 3600, 80.0 / 8);
    CLOSE(b200.gpu_hour_usd_per_s * 3600, 112.0 / 8);
    ck_assert_ptr_nonnull(strstr(b200.from[ST_COST_GPU_HOUR].source, "Oracle"));
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
    CLOSE(c->node_price_usd, 8 * 31904.63); /* the cluster's type: the table's */
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
    ck_assert_ptr_null(load("mi300x", "amortization: 4 y", &d));
    ck_assert_int_ge(d.n, 1);
    int found = 0; /* after the missing node power besides the GPUs, which MI300X also lacks */
    for (int i = 0; i < d.n; i++)
        found |= strstr(d.items[i].msg, "needs 'node_price' for GPU 'mi300x'") &&
                 strstr(d.items[i].msg, "node_price: {mi300x: 300000 USD}");
    ck_assert(found);
    ck_assert_ptr_null(load("h100-sxm", "node_price: { b20: 1 USD }", &d));
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown GPU type 'b20'; did you mean 'b200'"));
    st_scn *s = load("h200-sxm", "node_price: { h200-sxm: 330000 USD }", &d);
    ck_assert_ptr_nonnull(s);
    CLOSE(st_scn_cost(s)->node_price_usd, 330000); /* stated over the table's row */
    st_scn_free(s);
}
END_TEST

/* Rented GPUs the same way: the GPU-hour of each type, the scenario's per type over the
 * table's, and a type with neither (an H100 PCIe server: no row) is missing its rate (the
 * loader and size refuse it). */
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
    st_cost_for_gpu(&c, "h100-pcie", &m);
    CLOSE(b.gpu_hour_usd_per_s * 3600, 6);
    CLOSE(h.gpu_hour_usd_per_s * 3600, 10.0);
    ck_assert_ptr_null(st_cost_missing(&b, &why));
    ck_assert_str_eq(st_cost_missing(&m, &why), "gpu_hour_price");
    ck_assert_ptr_nonnull(strstr(why, "no sourced price for its GPU type"));
}
END_TEST

/* A fabric of transport t at gbit Gbit/s a port. */
static st_fabric_cfg fabric(st_transport t, double gbit)
{
    return (st_fabric_cfg){.transport = t, .nic_bw = gbit * 1e9 / 8};
}

/* The switch's row follows the fabric: a 400G InfiniBand fabric takes the NDR switch's row, a
 * 400G RoCE fabric or an 800G InfiniBand one has none (unknown, not 0, not the IB price). A price
 * found for one fabric is looked up again for another, as a sizing search's variants need. */
START_TEST(test_the_switch_price_follows_the_fabric_class)
{
    char name[48];
    st_cost_switch_class(ST_TRANSPORT_INFINIBAND, 400e9, name, sizeof name);
    ck_assert_str_eq(name, "infiniband-400g");
    st_cost_switch_class(ST_TRANSPORT_ROCE_V2, 800e9, name, sizeof name);
    ck_assert_str_eq(name, "roce-v2-800g");
    st_cost_optic_class(400e9, name, sizeof name);
    ck_assert_str_eq(name, "400g");
    /* a rate no port has: no class (and no truncated name), so no price */
    st_cost_switch_class(ST_TRANSPORT_INFINIBAND, 1e300, name, sizeof name);
    ck_assert_str_eq(name, "");
    st_cost_optic_class(1e300, name, sizeof name);
    ck_assert_str_eq(name, "");
    st_cost_cfg c, ib, roce, ib800, again;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    st_fabric_cfg f_ib = fabric(ST_TRANSPORT_INFINIBAND, 400),
                  f_roce = fabric(ST_TRANSPORT_ROCE_V2, 400);
    st_fabric_cfg f_ib800 = fabric(ST_TRANSPORT_INFINIBAND, 800);
    st_cost_for_parts(&c, &f_ib, &ib);
    st_cost_for_parts(&c, &f_roce, &roce);
    st_cost_for_parts(&c, &f_ib800, &ib800);
    CLOSE(ib.switch_price_usd, 36000);
    ck_assert_int_eq(ib.part_from[ST_PART_SWITCH].origin, ST_PRICE_PRESET);
    ck_assert_ptr_nonnull(strstr(ib.part_from[ST_PART_SWITCH].source, "NDR"));
    ck_assert_double_lt(roce.switch_price_usd, 0);
    ck_assert_ptr_null(roce.part_from[ST_PART_SWITCH].source);
    ck_assert_double_lt(ib800.switch_price_usd, 0);
    st_cost_for_parts(&ib, &f_roce, &again); /* the IB row does not stick to a RoCE fabric */
    ck_assert_double_lt(again.switch_price_usd, 0);
    st_cost_for_parts(&again, &f_ib, &again);
    CLOSE(again.switch_price_usd, 36000);
    /* each part's key is a cost: key and a row key of the table */
    ck_assert_str_eq(st_cost_part_names[ST_PART_OPTIC], "optic_price");
    ck_assert_str_eq(st_cost_part_names[ST_PART_COOLING_LIQUID], "cooling_liquid_price");
    ck_assert_ptr_eq(st_cost_part_price(&c, ST_PART_RACK), &c.rack_usd);
    CLOSE(st_cost_part_value(&ib, ST_PART_SWITCH), 36000);
}
END_TEST

/* A price the scenario states wins over the table's row, for every fabric; a part it does not
 * state takes the fabric's row. */
START_TEST(test_a_stated_part_price_wins_over_the_table)
{
    st_cost_cfg c, ib;
    st_cost_defaults(&c);
    c.switch_price_usd = 20000;
    c.optic_usd = 700;
    st_fabric_cfg f_ib = fabric(ST_TRANSPORT_INFINIBAND, 400);
    st_cost_for_parts(&c, &f_ib, &ib);
    CLOSE(ib.switch_price_usd, 20000);
    ck_assert_int_eq(ib.part_from[ST_PART_SWITCH].origin, ST_PRICE_ALL);
    CLOSE(ib.optic_usd, 700);
    ck_assert_double_lt(ib.rack_usd, 0); /* no sourced row: not priced */
    /* Through the loader: an InfiniBand 400G cluster needs no switch_price now (the NDR row), a
     * stated one wins, and the new keys read their units (1500 USD/kW = 1.5 USD/W). */
    const char *head = "version: 1\ncluster: { gpu: h100-sxm, nodes: 2,\n"
                       "  fabric: { nic: 400 Gbit/s, transport: infiniband } }\n"
                       "workloads:\n  - { model: llama3-8b, gpus: 16 }\n";
    char buf[1024];
    st_scn *s = NULL;
    st_diag d = {0};
    snprintf(buf, sizeof buf,
             "%scost: { storage_price: 100 USD/TB, maintenance: 8%%, staff: 1000000 USD/y }\n",
             head);
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", buf, strlen(buf), &s, &d), 0);
    CLOSE(st_scn_cost(s)->switch_price_usd, 36000);
    st_scn_free(s);
    snprintf(buf, sizeof buf,
             "%scost: { storage_price: 100 USD/TB, maintenance: 8%%, staff: 1000000 USD/y,\n"
             "  switch_price: 25000 USD, optic_price: 900 USD, rack_price: 30000 USD,\n"
             "  cooling_air_price: 1500 USD/kW, cooling_liquid_price: 2 USD/W }\n",
             head);
    memset(&d, 0, sizeof d);
    ck_assert_int_eq(st_scn_load_buffer("t.yaml", buf, strlen(buf), &s, &d), 0);
    const st_cost_cfg *k = st_scn_cost(s);
    CLOSE(k->switch_price_usd, 25000);
    CLOSE(k->optic_usd, 900);
    CLOSE(k->rack_usd, 30000);
    CLOSE(k->cooling_air_usd_per_w, 1.5);
    CLOSE(k->cooling_liquid_usd_per_w, 2);
    st_scn_free(s);
    /* a RoCE cluster has no sourced switch: still required */
    memset(&d, 0, sizeof d);
    snprintf(buf, sizeof buf,
             "version: 1\ncluster: { gpu: h100-sxm, nodes: 2 }\n"
             "workloads:\n  - { model: llama3-8b, gpus: 16 }\n"
             "cost: { storage_price: 100 USD/TB, maintenance: 8%%, staff: 1000000 USD/y }\n");
    ck_assert_int_ne(st_scn_load_buffer("t.yaml", buf, strlen(buf), &s, &d), 0);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "switch_price"));
}
END_TEST

/* A preset node price is a server's or a tray's of so many GPUs, charged per GPU for the
 * cluster's node: an 8-GPU node of GB200s buys two 4-GPU NVL72 trays, a 4-GPU node of H100s half
 * an 8-GPU HGX server; a stated price is the scenario's own node's, as stated. The capex follows:
 * 8 GB200 nodes of 8 GPUs cost what 16 trays do. */
START_TEST(test_a_preset_node_price_is_per_gpu_of_the_node)
{
    st_cost_cfg c, gb, h;
    st_cost_defaults(&c);
    c.delivery = ST_DELIVERY_ON_PREM;
    st_cost_for_gpu(&c, "gb200", &gb);
    st_cost_for_gpu(&c, "h100-sxm", &h);
    ck_assert_int_eq(gb.node_price_gpus, 4);
    CLOSE(st_cost_node_price(&gb, 4), 166666.67);
    CLOSE(st_cost_node_price(&gb, 8), 2 * 166666.67);
    CLOSE(st_cost_node_price(&h, 8), 8 * 31904.63);
    CLOSE(st_cost_node_price(&h, 4), 4 * 31904.63);
    st_cost_use u = {.gpus = 64, .cluster_gpus = 64, .cluster_nodes = 8, .node_gpus = 8};
    gb.switch_price_usd = 0;
    CLOSE(st_cost_bought(&gb, &u), 16 * 166666.67);
    st_cost_cfg mine = c;
    mine.node_price_usd = 100000; /* stated for every type: the scenario's node */
    st_cost_for_gpu(&mine, "gb200", &mine);
    ck_assert_int_eq(mine.node_price_gpus, 0);
    CLOSE(st_cost_node_price(&mine, 8), 100000);
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
    tcase_add_test(tc, test_the_switch_price_follows_the_fabric_class);
    tcase_add_test(tc, test_a_stated_part_price_wins_over_the_table);
    tcase_add_test(tc, test_a_preset_node_price_is_per_gpu_of_the_node);
    suite_add_tcase(s, tc);
    return s;
}
